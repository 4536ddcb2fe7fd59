// The pure part of mdbook-contract.js under Node's test runner: the script is run in a bare
// context (no document), where it only exports `mdbookContract`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import vm from 'node:vm';

const context = vm.createContext({});
vm.runInContext(readFileSync(new URL('../../mdbook-contract.js', import.meta.url), 'utf8'), context);
const { parseState, formatState, rowMatches, emptyState } = context.mdbookContract;
const state = (s) => ({ ...emptyState(), ...s });
const plain = (s) => (s === null ? null : { ...s });

test('a fragment that is not ours is null', () => {
  assert.equal(parseState(''), null);
  assert.equal(parseState('#r-put.atomic'), null);
  assert.equal(parseState('#contract'), null);
  assert.equal(parseState('#contracts:q=x'), null);
});

test('the fragment gives the state, and the state the fragment', () => {
  const s = state({ q: 'failed', provider: 'gcs', status: 'failed', level: 'MUST' });
  assert.equal(formatState(s), '#contract:q=failed&provider=gcs&status=failed&level=MUST');
  assert.deepEqual(plain(parseState(formatState(s))), s);
  assert.deepEqual(plain(parseState('contract:status=failed&provider=gcs')), state({ provider: 'gcs', status: 'failed' }));
});

test('a status or level the page does not know is left out, as if not written', () => {
  const known = { status: ['failed', 'passed'], level: ['MUST'] };
  assert.deepEqual(plain(parseState('#contract:status=failing&level=MUST', known)), state({ level: 'MUST' }));
  assert.deepEqual(plain(parseState('#contract:status=failed&level=must', known)), state({ status: 'failed' }));
  // Without a list, every value is kept (the pure part knows no statuses).
  assert.equal(parseState('#contract:status=failing').status, 'failing');
});

test('only non-default keys, in a fixed order; none is the empty string', () => {
  assert.equal(formatState(emptyState()), '');
  assert.equal(formatState(state({ level: 'MAY', q: 'put' })), '#contract:q=put&level=MAY');
  assert.deepEqual(plain(parseState('#contract:')), plain(emptyState()));
});

test('values round-trip through encoding, readable where they can be', () => {
  for (const q of ['put stream', 'a&b=c', '50%', 'test[gcs]', 'x+y', 'é ü', 'TestPut/s3 (put_test.go:12)', '#hash']) {
    assert.equal(parseState(formatState(state({ q }))).q, q);
  }
  assert.equal(formatState(state({ q: 'TestPut/s3 (a.go:12)' })), '#contract:q=TestPut/s3%20(a.go:12)');
  assert.equal(parseState('#contract:q=put+stream').q, 'put stream');
});

test('unknown keys, keys without a value and bad escapes are ignored or kept raw', () => {
  assert.deepEqual(plain(parseState('#contract:only=unknown&q=x&provider&=y&qq&levelx=MAY')), state({ q: 'x' }));
  assert.equal(parseState('#contract:q=%E0%A4%A').q, '%E0%A4%A');
});

const cell = (provider, status, words = '') => ({ provider, status, text: `${provider} ${status} ${words}`.toLowerCase() });
const row = {
  level: 'MUST',
  text: 'put.atomic a put must be atomic must',
  cells: [cell('s3', 'passed', '✓ passed passed: TestPutAtomic/s3'), cell('gcs', 'failed', '✗ failed failed: TestPutAtomic/gcs: half-written'),
    cell('azure', 'not-bound', '– not bound')],
};

test('the empty state keeps every row', () => {
  assert.equal(rowMatches(row, emptyState()), true);
  assert.equal(rowMatches({ level: 'MAY', text: 'x', cells: [] }, emptyState()), true);
});

test('the query: words in the row or in one cell', () => {
  assert.equal(rowMatches(row, state({ q: 'failed' })), true);
  assert.equal(rowMatches(row, state({ q: 'skipped' })), false);
  assert.equal(rowMatches(row, state({ q: 'ATOMIC' })), true);
  assert.equal(rowMatches(row, state({ q: 'gcs failed' })), true);
  assert.equal(rowMatches(row, state({ q: 's3 failed' })), false, 's3 passed: the words must meet in one cell');
  assert.equal(rowMatches(row, state({ q: 'put half-written' })), true);
  assert.equal(rowMatches(row, state({ q: '  ' })), true);
});

test('provider and status meet in one cell; a provider alone keeps the rules that bind it', () => {
  assert.equal(rowMatches(row, state({ provider: 'gcs', status: 'failed' })), true);
  assert.equal(rowMatches(row, state({ provider: 's3', status: 'failed' })), false);
  assert.equal(rowMatches(row, state({ status: 'failed' })), true);
  assert.equal(rowMatches(row, state({ provider: 'gcs' })), true);
  assert.equal(rowMatches(row, state({ provider: 'azure' })), false);
  assert.equal(rowMatches(row, state({ provider: 'azure', status: 'not-bound' })), true);
  assert.equal(rowMatches(row, state({ provider: 'nobody' })), false);
});

test('the level must equal', () => {
  assert.equal(rowMatches(row, state({ level: 'MUST' })), true);
  assert.equal(rowMatches(row, state({ level: 'MAY' })), false);
});
