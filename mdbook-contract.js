// mdbook-contract: the rule matrix's controls, beside mdbook-contract.css (both written by
// `mdbook-contract install`). Without this script every row shows and no control exists. With
// it, each group of a rule matrix folds, and a find bar filters the rows; the filter lives in
// the fragment (`#contract:q=failed&provider=gcs`) and applies to every matrix of the page.
// No network, no dependency, no key of its own (mdBook owns `s`, `/` and the arrows).
'use strict';

(function mdbookContract() {
    /**
     * The filter; an empty key filters nothing.
     * @typedef {{q: string, provider: string, status: string, level: string}} State
     * @typedef {keyof State} Key
     * A cell as the filter reads it; `text` is lowercased: provider, status, words, titles.
     * @typedef {{provider: string, status: string, text: string}} Cell
     * A rule's row; `text` is lowercased: id, the rule's words (its link's title), level.
     * @typedef {{level: string, text: string, cells: Cell[]}} Row
     */

    /** The pure part: the state in and out of the fragment, and the rows a state keeps. */
    const pure = (function pure() {
        const PREFIX = '#contract:';
        /** @type {readonly Key[]} */
        const KEYS = ['q', 'provider', 'status', 'level'];

        /** @returns {State} */
        function emptyState() {
            return { q: '', provider: '', status: '', level: '' };
        }

        /** @param {string} value */
        function decode(value) {
            const spaced = value.replace(/\+/g, ' ');
            try {
                return decodeURIComponent(spaced);
            } catch (e) {
                return spaced;
            }
        }

        /**
         * The state a fragment names, or null when it is not ours (an anchor, or none). A
         * status or level that `known` does not list is left out, as if not written
         * (`status=failing` filters nothing away).
         * @param {string} hash `location.hash`, with or without its `#`
         * @param {{status?: readonly string[], level?: readonly string[]}} [known]
         * @returns {State | null}
         */
        function parseState(hash, known) {
            const fragment = hash.startsWith('#') ? hash : '#' + hash;
            if (!fragment.startsWith(PREFIX)) {
                return null;
            }
            const state = emptyState();
            for (const pair of fragment.slice(PREFIX.length).split('&')) {
                const at = pair.indexOf('=');
                const key = KEYS.find((k) => at > 0 && k === pair.slice(0, at));
                if (key) {
                    state[key] = decode(pair.slice(at + 1));
                }
            }
            for (const key of /** @type {const} */ (['status', 'level'])) {
                const allowed = known && known[key];
                if (allowed && !allowed.includes(state[key])) {
                    state[key] = '';
                }
            }
            return state;
        }

        /**
         * The fragment of a state: its non-default keys in a fixed order ('' for none), values
         * percent-encoded but for `/ : @ , ; ! $ ' ( ) *`.
         * @param {State} state
         */
        function formatState(state) {
            const pairs = KEYS.filter((k) => state[k] !== '').map((k) => k + '='
                + encodeURIComponent(state[k]).replace(/%(2F|3A|40|2C|3B|21|24|27|28|29|2A)/g, decodeURIComponent));
            return pairs.length ? PREFIX + pairs.join('&') : '';
        }

        /**
         * Whether a row shows. The level must equal; the provider and the status must hold in
         * one cell (a provider alone keeps the rules that bind it); each word of the query must
         * be in the row's text or that same cell's, so `gcs failed` keeps what gcs fails.
         * @param {Row} row
         * @param {State} state
         */
        function rowMatches(row, state) {
            if (state.level && row.level !== state.level) {
                return false;
            }
            const words = state.q.toLowerCase().split(/\s+/).filter(Boolean);
            const cells = row.cells.length ? row.cells : [{ provider: '', status: '', text: '' }];
            return cells.some((cell) => (!state.provider || cell.provider === state.provider)
                && (state.status ? cell.status === state.status : !state.provider || cell.status !== 'not-bound')
                && words.every((w) => row.text.includes(w) || cell.text.includes(w)));
        }

        return Object.freeze({ emptyState, parseState, formatState, rowMatches });
    })();

    Object.assign(globalThis, { mdbookContract: pure });
    if (typeof document === 'undefined') {
        return;
    }

    // A cell's statuses in the order a reader meets them, and their words where a word is not
    // the name: the same table as the export's (a test holds them to it).
    const STATUSES = ['failed', 'skipped', 'not-run', 'unattributed', 'unmatched', 'uncovered',
        'implemented', 'declared', 'declared-not-implemented', 'no-report', 'profile-unknown',
        'unknown', 'passed', 'verified', 'optional', 'not-bound'];
    /** @type {Record<string, string>} */
    const WORDS = { 'not-run': 'not run', 'declared-not-implemented': 'declared not implemented',
        'no-report': 'no report', 'profile-unknown': 'profile unknown', 'not-bound': 'not bound' };
    const LEVELS = ['MUST', 'SHOULD', 'MAY', 'required'];
    /** @type {readonly ('provider' | 'status' | 'level')[]} */
    const SELECTS = ['provider', 'status', 'level'];

    /**
     * @template {keyof HTMLElementTagNameMap} T
     * @param {T} tag
     * @param {Record<string, string>} attributes
     * @param {(Node | string)[]} children
     */
    function make(tag, attributes, children) {
        const element = document.createElement(tag);
        for (const [name, value] of Object.entries(attributes)) {
            element.setAttribute(name, value);
        }
        element.append(...children);
        return element;
    }

    /** A row shows unless its group is folded or the filter missed it. */
    const visibility = (function visibility() {
        /** @type {WeakSet<HTMLTableSectionElement>} */
        const folded = new WeakSet();
        /** @type {WeakSet<HTMLTableRowElement>} */
        const missed = new WeakSet();

        /** @param {WeakSet<object>} set @param {object} item @param {boolean} on */
        function mark(set, item, on) {
            if (on) {
                set.add(item);
            } else {
                set.delete(item);
            }
        }

        /** Hides a group's folded or missed rows, and the group when none matches. @param {HTMLTableSectionElement} group */
        function update(group) {
            const rows = Array.from(group.rows).filter((row) => row.hasAttribute('data-rule'));
            for (const row of rows) {
                row.hidden = folded.has(group) || missed.has(row);
            }
            group.hidden = rows.length > 0 && rows.every((row) => missed.has(row));
        }

        return {
            update,
            /** @param {HTMLTableSectionElement} group @param {boolean} on */
            fold: (group, on) => {
                mark(folded, group, on);
                update(group);
            },
            /** @param {HTMLTableRowElement} row @param {boolean} on */
            miss: (row, on) => mark(missed, row, on),
        };
    })();

    /** A button in each group's row folds its rules; the group's title is its label. */
    (function folding() {
        for (const head of Array.from(document.querySelectorAll('.contract-rules tr.contract-group-row > th'))) {
            const group = head.closest('tbody');
            const title = head.querySelector('.contract-group-title');
            if (!group || !title) {
                continue;
            }
            const button = make('button', { type: 'button', class: 'contract-fold', 'aria-expanded': 'true' },
                [make('span', { class: 'contract-fold-mark', 'aria-hidden': 'true' }, [])]);
            title.replaceWith(button);
            button.append(title);
            button.addEventListener('click', () => {
                const open = button.getAttribute('aria-expanded') !== 'true';
                button.setAttribute('aria-expanded', String(open));
                visibility.fold(group, !open);
            });
        }
    })();

    /** The find bar of each rule matrix, and the fragment that holds its state. */
    (function find() {
        /**
         * @typedef {object} Finder
         * @property {HTMLInputElement} input
         * @property {Record<'provider' | 'status' | 'level', HTMLSelectElement>} selects
         * @property {HTMLElement} live the count, said when typing pauses
         * @property {{tr: HTMLTableRowElement, data: Row}[]} rows
         * @property {HTMLTableSectionElement[]} groups
         * @property {number} kept
         */
        /** @type {Finder[]} */
        const finders = [];
        let state = pure.emptyState();
        /** @type {number | undefined} */
        let pause;

        /** @param {Element} e @param {string} name */
        const attribute = (e, name) => e.getAttribute(name) || '';

        /** @param {HTMLTableRowElement} tr @returns {Row} */
        function readRow(tr) {
            const link = tr.querySelector('th a');
            return {
                level: attribute(tr, 'data-level'),
                text: [attribute(tr, 'data-rule'), link ? attribute(link, 'title') : '', attribute(tr, 'data-level')]
                    .join(' ').toLowerCase(),
                cells: Array.from(tr.querySelectorAll('td[data-provider]'), (td) => ({
                    provider: attribute(td, 'data-provider'),
                    status: attribute(td, 'data-status'),
                    text: [attribute(td, 'data-provider'), attribute(td, 'data-status'), td.textContent,
                        ...Array.from(td.querySelectorAll('[title]'), (e) => attribute(e, 'title')),
                        attribute(td, 'title')].join(' ').toLowerCase(),
                })),
            };
        }

        /**
         * A control in its field, with its label.
         * @param {string} id @param {string} kind @param {string} label
         * @param {HTMLInputElement | HTMLSelectElement} control
         */
        function field(id, kind, label, control) {
            control.id = id + kind;
            return make('div', { class: 'contract-find-field contract-find-' + kind },
                [make('label', { for: id + kind }, [label]), control]);
        }

        /** @param {string} any @param {string[]} values */
        function choices(any, values) {
            return make('select', {}, [make('option', { value: '' }, [any]),
                ...values.map((v) => make('option', { value: v }, [WORDS[v] || v]))]);
        }

        /** @param {Element} matrix @param {number} n */
        function enhance(matrix, n) {
            const scroll = matrix.querySelector('.contract-scroll');
            const table = matrix.querySelector('table');
            if (!scroll || !table) {
                return;
            }
            /** @param {string} name */
            const present = (name) => new Set(Array.from(table.querySelectorAll('tbody [' + name + ']'),
                (e) => attribute(e, name)));
            const id = 'contract-find-' + n + '-';
            const input = make('input', { type: 'search', autocomplete: 'off', spellcheck: 'false',
                placeholder: 'rule, test, status, provider' }, []);
            const selects = {
                provider: choices('all providers', Array.from(table.querySelectorAll('thead th[data-provider]'),
                    (th) => attribute(th, 'data-provider'))),
                status: choices('any status', STATUSES.filter((s) => present('data-status').has(s))),
                level: choices('any level', LEVELS.filter((l) => present('data-level').has(l))),
            };
            const clear = make('button', { type: 'button', class: 'contract-find-clear' }, ['Clear']);
            const live = make('p', { role: 'status', class: 'contract-find-count' }, []);
            scroll.before(make('div', { class: 'contract-find', role: 'search', 'aria-label': 'Find rules' }, [
                field(id, 'q', 'Find', input), field(id, 'provider', 'Provider', selects.provider),
                field(id, 'status', 'Status', selects.status), field(id, 'level', 'Level', selects.level),
                clear, live]));
            const rows = Array.from(table.querySelectorAll('tbody > tr[data-rule]'), (tr) => {
                const row = /** @type {HTMLTableRowElement} */ (tr);
                return { tr: row, data: readRow(row) };
            });
            /** @type {Finder} */
            const finder = { input, selects, live, rows, groups: Array.from(table.tBodies), kept: rows.length };
            finders.push(finder);

            input.addEventListener('input', () => change({ q: input.value }, finder, false));
            input.addEventListener('keydown', (e) => {
                if (e.key === 'Enter') {
                    e.preventDefault();
                    announce(finder);
                } else if (e.key === 'Escape' && input.value !== '') {
                    e.preventDefault();
                    e.stopPropagation();
                    change({ q: '' }, finder, true);
                }
            });
            for (const key of SELECTS) {
                selects[key].addEventListener('change', () => change({ [key]: selects[key].value }, finder, true));
            }
            clear.addEventListener('click', () => {
                change(pure.emptyState(), finder, true);
                input.focus();
            });
        }

        /** @param {Finder} finder */
        function announce(finder) {
            window.clearTimeout(pause);
            const of = finder.kept + ' of ' + finder.rows.length + (finder.rows.length === 1 ? ' rule' : ' rules');
            finder.live.textContent = finder.kept ? of : 'No rule matches (' + of + ')';
        }

        /** Shows the state in a finder's controls and rows. @param {Finder} finder */
        function render(finder) {
            if (finder.input.value !== state.q) {
                finder.input.value = state.q;
            }
            for (const key of SELECTS) {
                const select = finder.selects[key];
                // A value the fragment names but this matrix lacks stays visible as a choice.
                if (!Array.from(select.options).some((o) => o.value === state[key])) {
                    select.append(make('option', { value: state[key] }, [WORDS[state[key]] || state[key]]));
                }
                select.value = state[key];
            }
            finder.kept = 0;
            for (const { tr, data } of finder.rows) {
                const keep = pure.rowMatches(data, state);
                finder.kept += keep ? 1 : 0;
                visibility.miss(tr, !keep);
            }
            finder.groups.forEach(visibility.update);
        }

        /**
         * Applies a change everywhere and writes the fragment (no history entry: `replaceState`,
         * or `location.replace` where a `file://` page may not).
         * @param {Partial<State>} changes
         * @param {Finder | null} source the finder used, whose count is said; null: all
         * @param {boolean} now say the count at once, not when typing pauses
         */
        function change(changes, source, now) {
            state = Object.assign(pure.emptyState(), state, changes);
            finders.forEach(render);
            const fragment = pure.formatState(state);
            const current = pure.parseState(location.hash);
            if (current ? pure.formatState(current) !== fragment : fragment !== '') {
                try {
                    history.replaceState(history.state, '', fragment || location.pathname + location.search);
                } catch (e) {
                    location.replace(fragment || '#');
                }
            }
            for (const finder of source ? [source] : finders) {
                window.clearTimeout(pause);
                if (now) {
                    announce(finder);
                } else {
                    pause = window.setTimeout(() => announce(finder), 700);
                }
            }
        }

        /** The fragment changed: ours applies, an empty one clears, an anchor leaves the filter. */
        function restore() {
            const next = pure.parseState(location.hash, { status: STATUSES, level: LEVELS });
            if (next === null && location.hash.length > 1) {
                return;
            }
            const wanted = next || pure.emptyState();
            if (pure.formatState(wanted) !== pure.formatState(state)) {
                state = pure.emptyState();
                change(wanted, null, true);
            }
        }

        document.querySelectorAll('.contract-matrix.contract-rules').forEach((matrix, i) => enhance(matrix, i + 1));
        if (finders.length) {
            window.addEventListener('hashchange', restore);
            if (pure.parseState(location.hash)) {
                restore();
                finders[0].input.closest('.contract-find')?.scrollIntoView({ block: 'start' });
            }
        }
    })();

    /**
     * A matrix's box that scrolls becomes focusable (so the keyboard scrolls it), and while it
     * scrolls sideways the left and right arrows inside it scroll it rather than turn the page.
     */
    (function scrollBoxes() {
        const boxes = Array.from(document.querySelectorAll('.contract-matrix > .contract-scroll, .contract-matrix > .table-wrapper'));
        /** @param {Element} box */
        const across = (box) => box.scrollWidth > box.clientWidth + 1;
        const observer = typeof ResizeObserver === 'function' ? new ResizeObserver((entries) => {
            for (const entry of entries) {
                const box = entry.target.closest('.contract-scroll, .table-wrapper');
                if (!box) {
                    continue;
                }
                const scrolls = across(box) || box.scrollHeight > box.clientHeight + 1;
                if (scrolls && !box.hasAttribute('tabindex')) {
                    box.setAttribute('tabindex', '0');
                    box.setAttribute('role', 'region');
                    box.setAttribute('aria-label', box.matches('.contract-scroll') ? 'Rule matrix' : 'Profile matrix');
                } else if (!scrolls) {
                    ['tabindex', 'role', 'aria-label'].forEach((name) => box.removeAttribute(name));
                }
            }
        }) : null;
        for (const box of boxes) {
            if (observer) {
                observer.observe(box);
                box.querySelectorAll('table').forEach((table) => observer.observe(table));
            }
            box.addEventListener('keydown', (e) => {
                const key = /** @type {KeyboardEvent} */ (e);
                if ((key.key === 'ArrowLeft' || key.key === 'ArrowRight') && across(box)
                    && !key.altKey && !key.ctrlKey && !key.metaKey && !key.shiftKey) {
                    e.stopPropagation();
                }
            });
        }
    })();

    /** A bar's segment narrower than its number hides it (the counts line says it). */
    (function summaryBars() {
        if (typeof ResizeObserver !== 'function') {
            return;
        }
        const observer = new ResizeObserver((entries) => entries.forEach((entry) => {
            entry.target.querySelectorAll('.contract-seg').forEach((segment) => {
                segment.classList.remove('contract-seg-narrow');
                segment.classList.toggle('contract-seg-narrow', segment.scrollWidth > segment.clientWidth);
            });
        }));
        document.querySelectorAll('.contract-bar').forEach((bar) => observer.observe(bar));
    })();
})();
