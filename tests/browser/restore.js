// Opened with a `#contract:` fragment: the controls hold its values and the rows left are the
// rows EXPECT (a selector of cells, or of rows) names.
window.addEventListener('load', () => setTimeout(() => {
  const find = document.querySelector('.contract-find');
  const rows = [...document.querySelectorAll('.contract-rules tbody tr[data-rule]')];
  const shown = rows.filter((r) => r.getClientRects().length > 0).map((r) => r.dataset.rule);
  const expected = rows.filter((r) => r.matches(EXPECT) || r.querySelector(EXPECT)).map((r) => r.dataset.rule);
  const value = (sel) => find.querySelector(sel).value;
  document.title = ['shown=' + shown.length, 'expected=' + expected.length,
    'same=' + (shown.join() === expected.join()), 'total=' + rows.length,
    'q=' + value('input'), 'provider=' + value('.contract-find-provider select'),
    'status=' + value('.contract-find-status select'), 'level=' + value('.contract-find-level select'),
    'live=' + find.querySelector('[role="status"]').textContent, 'hash=' + location.hash,
    'scrolled=' + (window.scrollY > 0)].join(';');
}, 300));
