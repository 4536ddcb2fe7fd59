// Every control of the matrices has a label (and every button a name).
window.addEventListener('load', () => {
  const controls = [...document.querySelectorAll('.contract-matrix :is(input, select, textarea)')];
  const unlabelled = controls.filter((c) => c.labels.length === 0).map((c) => c.outerHTML.slice(0, 40));
  const buttons = [...document.querySelectorAll('.contract-matrix button')];
  const unnamed = buttons.filter((b) => b.textContent.trim() === '' && !b.getAttribute('aria-label'));
  const status = document.querySelectorAll('.contract-matrix [role="status"]');
  document.title = ['controls=' + controls.length, 'unlabelled=' + unlabelled.join(','),
    'buttons=' + buttons.length, 'unnamed=' + unnamed.length, 'status=' + status.length,
    'statusempty=' + [...status].every((s) => s.textContent === '')].join(';');
});
