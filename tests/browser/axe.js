// axe-core (injected before this script from the local npm package) on the page in THEME:
// WCAG 2.0/2.1 A and AA rules; violations inside the matrices and outside them (mdBook's
// chrome and text), as rule:impact:nodes.
window.addEventListener('load', () => setTimeout(() => {
  // As a reader does: mdBook's theme menu switches the class and the highlight stylesheets.
  document.getElementById('mdbook-theme-' + THEME).click();
  axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } })
    .then((result) => {
      const inside = [];
      const outside = [];
      for (const v of result.violations) {
        const nodes = v.nodes.map((n) => document.querySelector(n.target[0]));
        const m = nodes.filter((e) => e && e.closest('.contract-matrix')).length;
        if (m) inside.push(v.id + ':' + v.impact + ':' + m);
        if (nodes.length - m) outside.push(v.id + ':' + v.impact + ':' + (nodes.length - m));
      }
      const incomplete = result.incomplete.map((v) => v.id + ':' + v.nodes.filter((n) => {
        const e = document.querySelector(n.target[0]);
        return e && e.closest('.contract-matrix');
      }).length).filter((s) => !s.endsWith(':0'));
      document.title = ['theme=' + THEME, 'passes=' + result.passes.length, 'matrix=' + inside.join(','),
        'outside=' + outside.join(','), 'incomplete=' + incomplete.join(',')].join(';');
    }, (e) => { document.title = 'error=' + e; });
}, 200));
