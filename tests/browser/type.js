// Types QUERY (set by the harness) into the first rule matrix's search box as a reader would
// (an `input` event), then reports the rows left against the rows EXPECT (a selector of
// cells) names, the fragment, and the live count once typing has paused.
window.addEventListener('load', () => {
  const input = document.querySelector('.contract-find input[type="search"]');
  input.focus();
  input.value = QUERY;
  input.dispatchEvent(new Event('input', { bubbles: true }));
  const rows = [...document.querySelectorAll('.contract-rules tbody tr[data-rule]')];
  const shown = rows.filter((r) => r.getClientRects().length > 0).map((r) => r.dataset.rule);
  const expected = rows.filter((r) => r.querySelector(EXPECT)).map((r) => r.dataset.rule);
  const groups = [...document.querySelectorAll('.contract-rules tbody')];
  const groupsShown = groups.filter((g) => g.getClientRects().length > 0).length;
  const groupsExpected = groups.filter((g) => g.querySelector(EXPECT)).length;
  const live = document.querySelector('.contract-find [role="status"]');
  const before = live.textContent;
  const inputs = [...document.querySelectorAll('.contract-find input[type="search"]')].map((i) => i.value);
  setTimeout(() => {
    document.title = ['shown=' + shown.length, 'expected=' + expected.length,
      'same=' + (shown.join() === expected.join()), 'total=' + rows.length,
      'groups=' + groupsShown + '/' + groupsExpected, 'hash=' + location.hash,
      'livebefore=' + before, 'live=' + live.textContent, 'inputs=' + inputs.join('|')].join(';');
  }, 1500);
});
