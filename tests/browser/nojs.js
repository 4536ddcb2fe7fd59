// Scripts off: the page's own scripts are blocked by a Content-Security-Policy that lets only
// this script (its nonce) run. Every rule row must show and no control exist.
window.addEventListener('load', () => {
  const rows = [...document.querySelectorAll('.contract-matrix tbody tr')];
  const shown = rows.filter((r) => r.getClientRects().length > 0).length;
  const controls = document.querySelectorAll('.contract-matrix :is(input, select, textarea, button), .contract-find').length;
  document.title = ['js=' + document.documentElement.classList.contains('js'),
    'api=' + (typeof window.mdbookContract), 'rows=' + rows.length, 'shown=' + shown,
    'hidden=' + document.querySelectorAll('.contract-matrix [hidden]').length,
    'controls=' + controls].join(';');
});
