// Widths of the page, each matrix, its scroll box and its table; rule ids broken elsewhere
// than at their <wbr>; whether the header row and the first column stay in view when the box
// scrolls. Writes `key=value;...` into document.title.
window.addEventListener('load', () => setTimeout(() => {
  const out = [];
  const doc = document.documentElement;
  out.push('page=' + doc.scrollWidth, 'inner=' + window.innerWidth, 'client=' + doc.clientWidth,
    'sidebar=' + doc.classList.contains('sidebar-visible'),
    'main=' + document.querySelector('main').clientWidth);
  document.querySelectorAll('.contract-matrix').forEach((m, i) => {
    const box = m.querySelector('.contract-scroll, .table-wrapper');
    const table = m.querySelector('table');
    out.push('m' + i + '=' + [Math.ceil(table.getBoundingClientRect().width), box.clientWidth,
      box.scrollWidth, Math.ceil(m.getBoundingClientRect().width)].join('/'));
    // Scroll the box to its far corner: the header and the first column must stay at its edges.
    box.scrollTop = box.scrollHeight;
    box.scrollLeft = box.scrollWidth;
    const b = box.getBoundingClientRect();
    const head = table.querySelector('thead th:last-child').getBoundingClientRect();
    const rows = [...table.querySelectorAll('tbody tr')].filter((tr) => {
      const r = tr.getBoundingClientRect();
      return r.top >= b.top + head.height && r.bottom <= b.bottom;
    });
    const first = rows.length ? rows[rows.length - 1].querySelector('th, td').getBoundingClientRect() : null;
    const down = box.scrollTop > 0;
    const across = box.scrollLeft > 0;
    const stuck = (!down || Math.abs(head.top - b.top) <= 2) && (!across || !first || Math.abs(first.left - b.left) <= 2);
    out.push('sticky' + i + '=' + stuck, 'scrolls' + i + '=' + (across ? 'x' : '') + (down ? 'y' : ''));
    box.scrollTop = 0;
    box.scrollLeft = 0;
  });
  // Every text node of a rule id (its segments) stays on one line.
  const bad = [...document.querySelectorAll('.contract-rule-table tbody th code')].filter((code) => {
    const walk = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      const range = document.createRange();
      range.selectNodeContents(n);
      if (new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1) return true;
    }
    return false;
  }).map((c) => c.textContent);
  const wrapped = [...document.querySelectorAll('.contract-rule-table tbody th code')]
    .filter((c) => new Set([...c.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size > 1).length;
  out.push('badbreaks=' + bad.join(','), 'wrappedids=' + wrapped);
  document.title = out.join(';');
}, 300));
