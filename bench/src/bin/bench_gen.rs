//! Writes the inputs of `scripts/bench.sh` (see BENCHMARKS.md). Deterministic: the same
//! arguments give the same bytes.
//!
//! ```text
//! bench_gen contract CHAPTERS BOOK_DIR JSON   a contract book of CHAPTERS chapters (about 100 KB
//!                                             of Markdown each) in BOOK_DIR, and JSON, the
//!                                             `[context, book]` mdBook hands the preprocessor
//! bench_gen go GO_SRC BOOK_DIR LISTS_DIR      a book citing 200 symbols and 100 paths of the Go
//!                                             tree GO_SRC, plus LISTS_DIR/{words,paths}.txt
//!                                             for the grep and ripgrep baselines
//! bench_gen json BOOK_DIR JSON                 JSON, the `[context, book]` of an existing book
//! bench_gen expand BOOK_DIR OUT_DIR             a copy of a book with its chapters preprocessed
//!                                             and no `[preprocessor.contract]`
//! ```
//!
//! The contract book is chapter 1 a contract (24 axes with `Profile` tables, MUST rules citing
//! the shared layer, `{{#axis-table}}`), chapter 2 the template (`{{#answers}}` per axis),
//! chapter 3 the appendix (`{{#profile-matrix}}`), and every further chapter one provider with
//! one section per axis: a claim with evidence, axis links, links to other chapters' headings,
//! code spans, lists, code blocks, tables and prose. One provider in ten leaves one claim
//! `unknown`, so the run prints warnings as a real book under construction does. The book has no
//! error, so the preprocessor writes the whole book out.

#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::Path;

const CHAPTER_BYTES: usize = 100_000;

const AXES: &[&str] = &[
    "readiness",
    "create-return",
    "gc-mark",
    "primary-key",
    "ip-source",
    "timeouts",
    "credentials",
    "client-kind",
    "delete-return",
    "list-partial",
    "async-ops",
    "provisioning-state",
    "secondary-resources",
    "quota-errors",
    "retry-policy",
    "name-length",
    "zone-choice",
    "image-source",
    "cloud-init",
    "stop-handling",
    "tag-format",
    "check-depth",
    "trace-spans",
    "log-tiers",
];

const PROFILES: &[&str] = &[
    "immediate",
    "blocking",
    "eventual",
    "provider-chosen",
    "caller-chosen",
    "bounded",
    "unbounded",
    "internal",
    "external",
    "sdk",
    "rest",
    "tagged",
];

const WORDS: &[&str] = &[
    "the",
    "provider",
    "instance",
    "backend",
    "returns",
    "after",
    "before",
    "request",
    "state",
    "caller",
    "operator",
    "proxy",
    "create",
    "delete",
    "list",
    "poll",
    "every",
    "once",
    "when",
    "which",
    "with",
    "without",
    "error",
    "class",
    "transient",
    "permanent",
    "retry",
    "budget",
    "window",
    "deadline",
    "context",
    "label",
    "tag",
    "zone",
    "region",
    "image",
    "machine",
    "type",
    "address",
    "egress",
    "route",
    "network",
    "quota",
    "limit",
    "call",
    "reconcile",
    "loop",
    "sweep",
    "orphan",
    "record",
    "field",
    "value",
    "default",
    "config",
    "block",
    "secret",
    "token",
    "rotation",
    "client",
    "library",
    "seam",
    "fake",
    "test",
    "span",
    "metric",
    "log",
    "tier",
    "check",
    "health",
    "monitor",
    "and",
    "or",
    "but",
    "so",
    "then",
    "until",
    "while",
    "because",
    "a",
    "an",
    "is",
    "are",
    "was",
    "stays",
    "keeps",
    "moves",
    "reads",
    "writes",
    "answers",
    "asks",
    "waits",
    "blocks",
    "starts",
    "stops",
    "runs",
    "fails",
    "succeeds",
    "may",
    "should",
    "never",
    "always",
    "only",
    "also",
    "its",
    "their",
    "this",
    "that",
    "those",
    "these",
    "in",
    "on",
    "at",
    "by",
    "for",
    "from",
    "to",
    "of",
    "as",
    "bounded",
    "known",
    "unknown",
    "stable",
    "fresh",
    "stale",
    "short",
    "long",
    "first",
    "last",
    "next",
    "previous",
    "same",
    "other",
];

const SYMBOLS: &[&str] = &[
    "reconcileManaged",
    "Sweeper.sweep",
    "Monitor.checkOnce",
    "registry.Build",
    "provider.Checker",
    "NameFromUID",
    "placementFrom",
    "providerFailure",
    "WithTracing",
    "WithMetrics",
];

const SHARED_PATHS: &[&str] = &[
    "internal/provider/provider.go",
    "internal/controller/proxy_controller.go",
    "internal/gc/gc.go",
    "internal/providerhealth/monitor.go",
    "cmd/main.go",
];

/// xorshift64*: deterministic, and enough for picking words.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a>(&mut self, list: &[&'a str]) -> &'a str {
        list[self.below(list.len())]
    }
}

fn profiles_of(axis: usize) -> [&'static str; 3] {
    [
        PROFILES[axis % PROFILES.len()],
        PROFILES[(axis + 5) % PROFILES.len()],
        PROFILES[(axis + 7) % PROFILES.len()],
    ]
}

fn sentence(rng: &mut Rng, out: &mut String) {
    let n = 8 + rng.below(12);
    for i in 0..n {
        let word = rng.pick(WORDS);
        if i == 0 {
            let mut chars = word.chars();
            if let Some(first) = chars.next() {
                out.push(first.to_ascii_uppercase());
                out.push_str(chars.as_str());
            }
        } else {
            out.push(' ');
            out.push_str(word);
        }
    }
    out.push('.');
}

/// A paragraph of prose, wrapped at about 100 columns, with `extra` put in its middle.
fn paragraph(rng: &mut Rng, out: &mut String, extra: &str) {
    let mut text = String::new();
    let sentences = 3 + rng.below(4);
    for i in 0..sentences {
        if i > 0 {
            text.push(' ');
        }
        if i == sentences / 2 && !extra.is_empty() {
            // A shortcode stays on one line: its spaces are not wrapped.
            let mut depth = 0;
            for (j, c) in extra.char_indices() {
                if extra[j..].starts_with("{{") {
                    depth += 1;
                } else if extra[j..].starts_with("}}") && depth > 0 {
                    depth -= 1;
                }
                text.push(if c == ' ' && depth > 0 { '\u{1}' } else { c });
            }
            text.push(' ');
        }
        sentence(rng, &mut text);
    }
    let mut column = 0;
    for (i, word) in text.split(' ').enumerate() {
        if i > 0 {
            if column + word.len() > 98 {
                out.push('\n');
                column = 0;
            } else {
                out.push(' ');
                column += 1;
            }
        }
        out.push_str(&word.replace('\u{1}', " "));
        column += word.len();
    }
    out.push_str("\n\n");
}

fn provider_name(number: usize) -> String {
    format!("p{number:04}")
}

fn provider_path(number: usize) -> String {
    format!("providers/{}.md", provider_name(number))
}

fn contract(rng: &mut Rng) -> String {
    let mut out = String::from("# Provider contract\n\n## Preamble\n\n");
    paragraph(
        rng,
        &mut out,
        "How the providers meet it is in the [appendix](providers-existing.md#profile-matrix).",
    );
    out.push_str("## Rules\n\n");
    for (i, symbol) in SYMBOLS.iter().enumerate() {
        let path = SHARED_PATHS[i % SHARED_PATHS.len()];
        let _ = writeln!(
            out,
            "- Get MUST answer within the deadline that `{symbol}` sets in `{path}`; otherwise the\n  caller requeues forever (see {{{{#axis {}}}}}).",
            AXES[i]
        );
    }
    out.push('\n');
    out.push_str("## Behaviour profiles\n\n");
    for (a, code) in AXES.iter().enumerate() {
        let _ = write!(out, "### `{code}` {{.axis}}\n\n");
        paragraph(rng, &mut out, "");
        out.push_str("| Profile | Meaning | Obliges | Tolerated by |\n|---|---|---|---|\n");
        for profile in profiles_of(a) {
            let _ = writeln!(
                out,
                "| `{profile}` | {} *when* {} | Get answers {} | `reconcileManaged` requeues |",
                rng.pick(WORDS),
                rng.pick(WORDS),
                rng.pick(WORDS)
            );
        }
        out.push('\n');
        let symbol = SYMBOLS[a % SYMBOLS.len()];
        let rule = format!(
            "The provider MUST keep the profile it states, since `{symbol}` relies on it (see the [template entry](provider-spec-template.md#question-{code}))."
        );
        paragraph(rng, &mut out, &rule);
    }
    out.push_str("## Closing table\n\n{{#axis-table}}\n\n## Notes\n\n");
    while out.len() < CHAPTER_BYTES {
        let link = format!(
            "See {{{{#axis {}}}}} and `{}`.",
            rng.pick(AXES),
            rng.pick(SHARED_PATHS)
        );
        paragraph(rng, &mut out, &link);
    }
    out
}

fn template(rng: &mut Rng) -> String {
    let mut out = String::from("# Provider spec template\n\n");
    paragraph(
        rng,
        &mut out,
        "Answer with the [contract's profiles](provider-contract.md#behaviour-profiles).",
    );
    for code in AXES {
        let _ = write!(out, "## Question {code}\n\n");
        paragraph(rng, &mut out, "");
        let _ = write!(
            out,
            "{{{{#answers {code}}}}}\n\n**Answer:**\n\n**Evidence:**\n\n"
        );
    }
    out.push_str("## Notes\n\n");
    while out.len() < CHAPTER_BYTES {
        paragraph(rng, &mut out, "");
    }
    out
}

fn appendix(rng: &mut Rng, chapters: usize) -> String {
    let mut out = String::from(
        "# Existing providers\n\n## Profile matrix\n\n{{#profile-matrix}}\n\n## Notes\n\n",
    );
    while out.len() < CHAPTER_BYTES {
        let other = 4 + rng.below(chapters.saturating_sub(3).max(1));
        let link = if other <= chapters {
            format!("See [its readiness]({}#readiness).", provider_path(other))
        } else {
            String::new()
        };
        paragraph(rng, &mut out, &link);
    }
    out
}

fn provider(rng: &mut Rng, number: usize, chapters: usize) -> String {
    let name = provider_name(number);
    let mut out = format!("# Provider {number}\n\n");
    paragraph(
        rng,
        &mut out,
        &format!(
            "It meets the [contract](../provider-contract.md) as the [matrix](../providers-existing.md#profile-matrix) shows, through `internal/provider/{name}`."
        ),
    );
    let _ = write!(out, "## `{name}` {{.provider}}\n\n");
    let unknown_axis = number.is_multiple_of(10).then_some(number % AXES.len());
    let budget = (CHAPTER_BYTES - out.len()) / AXES.len();
    for (a, code) in AXES.iter().enumerate() {
        let start = out.len();
        let _ = write!(out, "### {code}\n\n");
        let claim = if unknown_axis == Some(a) {
            format!("{{{{#profile {code} unknown}}}}")
        } else {
            let profile = profiles_of(a)[rng.below(3)];
            format!(
                "{{{{#profile {code} {profile} internal/provider/{name}/client.go Client.{}}}}}",
                ["Create", "Get", "Delete", "ListByTag", "Check"][a % 5]
            )
        };
        paragraph(rng, &mut out, &format!("It states {claim}."));
        let mut k = 0;
        while out.len() - start < budget {
            k += 1;
            match (a + k) % 7 {
                0 => {
                    for _ in 0..3 + rng.below(3) {
                        out.push_str("- ");
                        sentence(rng, &mut out);
                        let _ = writeln!(out, " It cites `{}`.", rng.pick(SYMBOLS));
                    }
                    out.push('\n');
                }
                1 => {
                    let _ = write!(
                        out,
                        "```go\nfunc (c *Client) Get{k}(ctx context.Context, id string) (Instance, error) {{\n\treturn c.get(ctx, id) // {{{{#axis {code}}}}} stays verbatim\n}}\n```\n\n"
                    );
                }
                2 => {
                    out.push_str("| Field | Default | Meaning |\n|---|---|---|\n");
                    for _ in 0..3 {
                        let _ = writeln!(
                            out,
                            "| `{}` | `{}` | {} {} |",
                            rng.pick(WORDS),
                            rng.below(100),
                            rng.pick(WORDS),
                            rng.pick(WORDS)
                        );
                    }
                    out.push('\n');
                }
                3 => {
                    let other = 4 + rng.below(chapters - 3);
                    let link = if other == number {
                        format!("[the section above](#{code})")
                    } else {
                        format!(
                            "[as in {}](../{}#{code})",
                            provider_name(other),
                            provider_path(other)
                        )
                    };
                    let rule = rng.pick(AXES);
                    let extra = format!("Compare {link}; the rule is {{{{#axis {rule}}}}}.");
                    paragraph(rng, &mut out, &extra);
                }
                _ => {
                    let extra = format!(
                        "The caller is `{}` in `{}`.",
                        rng.pick(SYMBOLS),
                        rng.pick(SHARED_PATHS)
                    );
                    paragraph(rng, &mut out, &extra);
                }
            }
        }
    }
    out
}

fn write(path: &Path, text: &str) {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("create folder");
    }
    std::fs::write(path, text).expect("write file");
}

fn contract_book(chapters: usize, dir: &Path, json: &Path) {
    assert!(chapters >= 4, "a contract book has at least 4 chapters");
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).expect("create the book folder");
    // mdBook hands over an absolute root, so the run may start anywhere.
    let dir = &std::fs::canonicalize(dir).expect("the book folder");
    write(
        &dir.join("book.toml"),
        r#"[book]
title = "Benchmark contract book"

[preprocessor.contract]
after = ["links"]
contract = ["provider-contract.md"]
template = ["provider-spec-template.md"]
shared-layer = ["internal/provider/*.go", "internal/controller", "internal/gc", "internal/providerhealth", "cmd/main.go"]
"#,
    );
    let src = dir.join("src");
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut summary = String::from(
        "# Summary\n\n- [Provider contract](provider-contract.md)\n- [Provider spec template](provider-spec-template.md)\n- [Existing providers](providers-existing.md)\n",
    );
    write(&src.join("provider-contract.md"), &contract(&mut rng));
    write(&src.join("provider-spec-template.md"), &template(&mut rng));
    write(
        &src.join("providers-existing.md"),
        &appendix(&mut rng, chapters),
    );
    for number in 4..=chapters {
        let path = provider_path(number);
        let _ = writeln!(summary, "  - [Provider {number}]({path})");
        write(&src.join(&path), &provider(&mut rng, number, chapters));
    }
    write(&src.join("SUMMARY.md"), &summary);
    write_input(dir, json);
}

fn write_input(dir: &Path, json: &Path) {
    let (ctx, book) = mdbook_contract::load(dir, "html").expect("the book loads");
    let file = std::fs::File::create(json).expect("create the JSON file");
    let mut writer = std::io::BufWriter::new(file);
    serde_json::to_writer(&mut writer, &(&ctx, &book)).expect("write the JSON");
    std::io::Write::flush(&mut writer).expect("write the JSON");
}

/// A copy of the book at `dir` in `out` whose chapters are what the preprocessor makes of them,
/// and whose book.toml has no `[preprocessor.contract]`: what mdBook renders with the
/// preprocessor, rendered without it.
fn expanded_book(dir: &Path, out: &Path) {
    let dir = std::fs::canonicalize(dir).expect("the book folder");
    let (ctx, book) = mdbook_contract::load(&dir, "html").expect("the book loads");
    let outcome = mdbook_contract::process(&ctx, book, std::path::PathBuf::new())
        .expect("the preprocessor runs");
    let _ = std::fs::remove_dir_all(out);
    let src = ctx.config.book.src.clone();
    let summary = std::fs::read_to_string(dir.join(&src).join("SUMMARY.md")).expect("SUMMARY.md");
    write(&out.join(&src).join("SUMMARY.md"), &summary);
    for chapter in outcome.book.chapters() {
        if let Some(path) = &chapter.source_path {
            write(&out.join(&src).join(path), &chapter.content);
        }
    }
    let toml = std::fs::read_to_string(dir.join("book.toml")).expect("book.toml");
    let mut kept = String::new();
    let mut skip = false;
    for line in toml.lines() {
        if line.starts_with('[') {
            skip = line.starts_with("[preprocessor.contract]")
                || line.starts_with("[preprocessor.contract.");
        }
        if !skip {
            kept.push_str(line);
            kept.push('\n');
        }
    }
    // The includes are expanded already; the index preprocessor still runs.
    write(&out.join("book.toml"), &kept);
}

/// Every file and folder under `root/dir`, relative to `root`, sorted.
fn walk(root: &Path, dir: &str, out: &mut Vec<String>) {
    let mut entries: Vec<_> = std::fs::read_dir(root.join(dir))
        .expect("read the Go tree")
        .filter_map(Result::ok)
        .collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let name = entry.file_name().to_string_lossy().into_owned();
        let relative = format!("{dir}/{name}");
        out.push(relative.clone());
        if entry.file_type().is_ok_and(|t| t.is_dir()) {
            walk(root, &relative, out);
        }
    }
}

fn exported(word: &str) -> bool {
    word.starts_with(|c: char| c.is_ascii_uppercase())
        && word.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// `Type.Method` for `func (r *Type) Method(` or `func (r Type) Method(`.
fn method(line: &str) -> Option<String> {
    let rest = line.strip_prefix("func (")?;
    let (receiver, rest) = rest.split_once(") ")?;
    let receiver_type = receiver.split_whitespace().nth(1)?.trim_start_matches('*');
    let receiver_type = receiver_type.split('[').next()?;
    let name = rest.split('(').next()?;
    (exported(receiver_type) && exported(name)).then(|| format!("{receiver_type}.{name}"))
}

fn spread<T: Clone>(all: &[T], count: usize) -> Vec<T> {
    (0..count.min(all.len()))
        .map(|i| all[i * all.len() / count.min(all.len())].clone())
        .collect()
}

fn go_book(go_src: &Path, dir: &Path, lists: &Path) {
    let mut entries = Vec::new();
    walk(go_src, "go", &mut entries);
    let mut methods = BTreeSet::new();
    for entry in &entries {
        if !entry.ends_with(".go") || entry.ends_with("_test.go") || entry.contains("testdata") {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(go_src.join(entry)) else {
            continue;
        };
        methods.extend(text.lines().filter_map(method));
    }
    let methods: Vec<String> = methods.into_iter().collect();
    let symbols = spread(&methods, 200);
    let citable: Vec<String> = entries
        .iter()
        .filter(|p| {
            p.bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'/' | b'_' | b'-' | b'.'))
        })
        .cloned()
        .collect();
    let paths = spread(&citable, 100);
    assert_eq!(symbols.len(), 200, "the Go tree has 200 methods to cite");
    assert_eq!(paths.len(), 100, "the Go tree has 100 paths to cite");

    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).expect("create the book folder");
    let dir = &std::fs::canonicalize(dir).expect("the book folder");
    write(
        &dir.join("book.toml"),
        &format!(
            "[book]\ntitle = \"Go tree citations\"\n\n[preprocessor.contract]\nafter = [\"links\"]\nsource-root = {:?}\nsymbol-files = [\"*.go\"]\n",
            go_src.to_string_lossy()
        ),
    );
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    let mut summary = String::from("# Summary\n\n");
    let per_chapter = 30;
    let citations: Vec<String> = symbols.iter().chain(&paths).cloned().collect();
    for (i, chunk) in citations.chunks(per_chapter).enumerate() {
        let path = format!("part-{:02}.md", i + 1);
        let _ = writeln!(summary, "- [Part {}]({path})", i + 1);
        let mut out = format!("# Part {}\n\n", i + 1);
        for cited in chunk {
            paragraph(&mut rng, &mut out, &format!("It relies on `{cited}`."));
        }
        write(&dir.join("src").join(path), &out);
    }
    write(&dir.join("src/SUMMARY.md"), &summary);

    let words: BTreeSet<&str> = symbols.iter().flat_map(|s| s.split('.')).collect();
    let mut text = String::new();
    for word in &words {
        text.push_str(word);
        text.push('\n');
    }
    write(&lists.join("words.txt"), &text);
    write(&lists.join("paths.txt"), &(paths.join("\n") + "\n"));
    println!(
        "{} symbols ({} distinct words) and {} paths cited",
        symbols.len(),
        words.len(),
        paths.len()
    );
}

/// Every `.go` file under `root`, relative to it, in a stable order.
fn go_files(root: &Path, dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(root.join(dir))
        .expect("read the Go tree")
        .filter_map(Result::ok)
        .collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let relative = dir.join(entry.file_name());
        match entry.file_type() {
            Ok(t) if t.is_dir() => go_files(root, &relative, out),
            Ok(t) if t.is_file() && relative.extension().is_some_and(|e| e == "go") => {
                out.push(relative);
            }
            _ => {}
        }
    }
}

/// The Go book of [`go_book`] over a copy of the Go sources into `tree`, 500 of whose files
/// get a comment citing a rule (`r[verify bench.rule-N]`, every third one `r[impl ...]`),
/// and a contract chapter defining the 500 rules: the source index then searches for the
/// citations in the same pass as the symbols. `lists` gets `patterns.txt`, the words and the
/// two verbs, for the one ripgrep pass it is compared with.
fn rules_book(go_src: &Path, tree: &Path, dir: &Path, lists: &Path) {
    let _ = std::fs::remove_dir_all(tree);
    let mut files = Vec::new();
    go_files(go_src, Path::new(""), &mut files);
    for file in &files {
        let target = tree.join(file);
        std::fs::create_dir_all(target.parent().expect("a folder")).expect("create folder");
        std::fs::copy(go_src.join(file), &target).expect("copy a Go file");
    }
    let rules = 500;
    let cited = spread(&files, rules);
    for (n, file) in cited.iter().enumerate() {
        let verb = if n % 3 == 2 { "impl" } else { "verify" };
        let path = tree.join(file);
        let mut text = std::fs::read_to_string(&path).unwrap_or_default();
        let _ = writeln!(text, "\n// r[{verb} bench.rule-{}]", n + 1);
        std::fs::write(&path, text).expect("write a Go file");
    }
    let tree = std::fs::canonicalize(tree).expect("the tree");
    go_book(&tree, dir, lists);
    let dir = &std::fs::canonicalize(dir).expect("the book folder");
    let toml = std::fs::read_to_string(dir.join("book.toml")).expect("book.toml");
    write(
        &dir.join("book.toml"),
        &toml.replace(
            "after = [\"links\"]\n",
            "after = [\"links\"]\ncontract = [\"rules.md\"]\n",
        ),
    );
    let words = std::fs::read_to_string(lists.join("words.txt")).expect("words.txt");
    let first_word = words.lines().next().expect("a word").to_owned();
    let mut chapter = String::from("# Rules\n\n");
    for n in 1..=rules {
        let _ = write!(
            chapter,
            "r[bench.rule-{n}]\nRule {n} MUST hold, because `{first_word}` relies on it.\n\n"
        );
    }
    write(&dir.join("src/rules.md"), &chapter);
    let summary = std::fs::read_to_string(dir.join("src/SUMMARY.md")).expect("SUMMARY.md");
    write(
        &dir.join("src/SUMMARY.md"),
        &format!("{summary}- [Rules](rules.md)\n"),
    );
    write(
        &lists.join("patterns.txt"),
        &format!("{words}r[impl \nr[verify \n"),
    );
    println!(
        "{} Go files copied, {rules} of them citing a rule",
        files.len()
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    match args.as_slice() {
        ["contract", chapters, dir, json] => {
            let chapters: usize = chapters.parse().expect("CHAPTERS is a number");
            contract_book(chapters, Path::new(dir), Path::new(json));
        }
        ["go", go_src, dir, lists] => go_book(Path::new(go_src), Path::new(dir), Path::new(lists)),
        ["rules", go_src, tree, dir, lists] => rules_book(
            Path::new(go_src),
            Path::new(tree),
            Path::new(dir),
            Path::new(lists),
        ),
        ["expand", dir, out] => expanded_book(Path::new(dir), Path::new(out)),
        ["json", dir, json] => {
            let dir = std::fs::canonicalize(dir).expect("the book folder");
            write_input(&dir, Path::new(json));
        }
        _ => {
            eprintln!(
                "usage: bench_gen contract CHAPTERS BOOK_DIR JSON | go GO_SRC BOOK_DIR LISTS_DIR | rules GO_SRC TREE_DIR BOOK_DIR LISTS_DIR | json BOOK_DIR JSON | expand BOOK_DIR OUT_DIR"
            );
            std::process::exit(2);
        }
    }
}
