// The summary's numbers (segments, the counts line, the bar's label) and the foot's
// "X of N" against the cells' counts, for every rule matrix of the page.
window.addEventListener('load', () => {
  const BOUND = { passed: 'passed', verified: 'verified', failed: 'failed', skipped: 'skipped', unattributed: 'unattributed',
    'not-run': 'not run', implemented: 'implemented only', uncovered: 'uncovered' };
  const bad = [];
  let checked = 0;
  document.querySelectorAll('.contract-rules').forEach((m, i) => {
    const providers = [...m.querySelectorAll('thead th[data-provider]')].map((th) => th.dataset.provider);
    const foot = [...m.querySelectorAll('tfoot td')].slice(1);
    const kept = m.querySelector('tfoot th').textContent.split(' ')[0];
    m.querySelectorAll('.contract-summary-row').forEach((row) => {
      const p = row.dataset.provider;
      const cells = [...m.querySelectorAll('td[data-provider="' + CSS.escape(p) + '"]')];
      const count = (s) => cells.filter((c) => c.dataset.status === s).length;
      const words = row.querySelector('.contract-summary-counts').textContent;
      let bound = 0;
      for (const [s, word] of Object.entries(BOUND)) {
        const seg = row.querySelector('.contract-seg.contract-' + s);
        const n = seg ? Number(seg.textContent) : 0;
        const said = new RegExp('(\\d+) ' + word + '(,|$)').exec(words);
        if (n !== count(s) || (said ? Number(said[1]) : 0) !== count(s)
            || (seg && seg.style.flexGrow !== String(n))) {
          bad.push(i + ':' + p + ':' + s + ':' + n + '!=' + count(s));
        }
        bound += count(s);
        checked += 1;
      }
      const of = /of (\d+)$/.exec(words);
      const label = row.querySelector('.contract-bar').getAttribute('aria-label');
      if (!of || Number(of[1]) !== bound || !label.endsWith('of ' + bound + ' rules that bind it')) {
        bad.push(i + ':' + p + ':bound:' + (of && of[1]) + '!=' + bound);
      }
      const f = foot[providers.indexOf(p)];
      if (!f || f.textContent !== count(kept) + ' of ' + bound) {
        bad.push(i + ':' + p + ':foot:' + (f && f.textContent));
      }
    });
  });
  document.title = 'checked=' + checked + ';bad=' + bad.join(',');
});
