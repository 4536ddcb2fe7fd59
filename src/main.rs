//! The `mdbook-contract` command line: the preprocessor protocol, `supports`, `check` and the
//! other commands, each handed to the library.

use std::io::{IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use mdbook_contract::Format;

/// An mdBook preprocessor that keeps a provider contract, its spec template and its appendix in
/// step. Run with no arguments, it speaks mdBook's preprocessor protocol on stdin and stdout.
#[derive(Parser)]
// The name a user types, whatever the file is called (`mdbook-contract.exe` on Windows, which
// clap would otherwise show in every usage line).
#[command(version, about, bin_name = "mdbook-contract")]
struct Cli {
    /// Reads the source tree without the cache of what its files yield (kept in the
    /// repository's git directory, else the user's cache folder): every file that needs it is
    /// parsed again and nothing is written. `MDBOOK_CONTRACT_NO_CACHE=1` does the same.
    #[arg(long, global = true)]
    no_cache: bool,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Exits 0 when the preprocessor serves RENDERER (it serves every renderer).
    Supports {
        /// The renderer's name, such as `html` or `markdown`.
        renderer: String,
    },
    /// Loads the book (book.toml, SUMMARY.md, includes) and runs every check without rendering.
    ///
    /// Exits 0 when there is no error finding, 1 when there is, 2 when the book could not be
    /// loaded.
    Check {
        /// The book's root folder, where book.toml is.
        #[arg(default_value = ".")]
        book_dir: PathBuf,
        /// How to print findings.
        #[arg(long, value_enum, default_value_t = OutputFormat::Human)]
        format: OutputFormat,
        /// In companions, report only findings on lines added or changed since the merge base
        /// of REV and HEAD (the `changed-since` key). Chapters are always checked whole.
        #[arg(long, value_name = "REV")]
        changed_since: Option<String>,
        /// Findings this baseline file records do not fail the build (the `baseline` key; the
        /// path is relative to where the command runs).
        #[arg(long, value_name = "FILE", conflicts_with = "write_baseline")]
        baseline: Option<PathBuf>,
        /// Records every current finding in FILE, a baseline for `baseline = "FILE"` or
        /// `--baseline FILE`, and exits 0.
        #[arg(long, value_name = "FILE")]
        write_baseline: Option<PathBuf>,
        /// Test results to read (JUnit XML or `go test -json` output, globs allowed), relative
        /// to where the command runs, in place of book.toml's `test-results`; may be given more
        /// than once.
        #[arg(long = "test-results", value_name = "GLOB")]
        test_results: Vec<PathBuf>,
    },
    /// Writes the spec chapter of a new provider from the template, lists it in SUMMARY.md
    /// after the template and adds it to `specs` in book.toml.
    ///
    /// Every entry is left with its Answer and Evidence empty: fill them in, then mark the
    /// spec `**Status:** accepted`. Changes nothing when it refuses.
    NewSpec {
        /// The provider's type, a DNS-1123 label such as `proxmox`.
        provider_type: String,
        /// The book's root folder, where book.toml is.
        #[arg(default_value = ".")]
        book_dir: PathBuf,
        /// The chapter's path relative to `src` (default: `<type>-<noun>-spec.md` beside the
        /// template, the noun from its title).
        #[arg(long)]
        path: Option<String>,
    },
    /// Writes the implementer's brief of a provider: one self-contained Markdown document with
    /// its spec, the profiles it chose with what they oblige, worked examples from the existing
    /// providers, the checklist for adding a provider, and the whole contract.
    ///
    /// Checks the book first: a spec with errors gets its findings printed as `check` prints
    /// them, and nothing is written (exit 1); the book's errors elsewhere are listed in the
    /// brief, which is written all the same. Exit 2 when the book cannot be loaded or has no
    /// spec of that provider.
    Brief {
        /// The provider's type, as its spec names it.
        provider_type: String,
        /// The book's root folder, where book.toml is.
        #[arg(default_value = ".")]
        book_dir: PathBuf,
        /// Where to write it (standard output when not given).
        #[arg(short, long)]
        output: Option<PathBuf>,
        /// Test results to read (JUnit XML or `go test -json` output, globs allowed), relative
        /// to where the command runs, in place of book.toml's `test-results`; may be given more
        /// than once.
        #[arg(long = "test-results", value_name = "GLOB")]
        test_results: Vec<PathBuf>,
    },
    /// Reports every list item of an old document whose code spans do not all occur in the
    /// book: nothing of what a split replaced is lost.
    ///
    /// Exits 0 when every item is carried over, 1 when one is not, 2 when OLD, a section or the
    /// book cannot be read.
    CarriedOver {
        /// The old document: a file, or `REV:PATH` for a file at a git revision (read with
        /// `git show`, such as `main:docs/providers.md`).
        old: String,
        /// The book's root folder, where book.toml is.
        #[arg(default_value = ".")]
        book_dir: PathBuf,
        /// Compare only the list items of the section with this heading (numbering and case
        /// aside); may be given more than once. Default: every list item of OLD.
        #[arg(long = "section", value_name = "TITLE")]
        sections: Vec<String>,
    },
    /// Compares the contract at two git revisions: axes, profiles, rules, claims, specs,
    /// template entries and heading ids, each change with its level (major, minor, patch) and
    /// who must act, where.
    ///
    /// A revision is read from git's objects (nothing is checked out); HEAD defaults to the
    /// working tree. Exits 0, or 1 with `--fail-on` when a change at or above that level
    /// exists; 2 when a side cannot be loaded.
    Diff {
        /// The revision to compare from, such as `origin/main`.
        base: String,
        /// The revision to compare to (default: the working tree).
        head: Option<String>,
        /// The book's root folder, where book.toml is.
        #[arg(long = "book", default_value = ".")]
        book_dir: PathBuf,
        /// How to print it.
        #[arg(long, value_enum, default_value_t = DiffOutput::Human)]
        format: DiffOutput,
        /// Exit 1 when a change at or above this level exists.
        #[arg(long, value_enum)]
        fail_on: Option<FailOn>,
        /// Runs the commands book.toml names (preprocessors other than mdBook's own) on each
        /// side; without it each side is read as written, and standard error says what was left
        /// out. A revision's book.toml is someone's code: allow it only for a repository you
        /// trust.
        #[arg(long)]
        allow_commands: bool,
    },
    /// Writes a provider's evidence against the contract as one JSON document, for the book's
    /// `provider-reports`: run in the provider's repository after its tests.
    ///
    /// The document holds the provider, its repository and commit, each rule's ID, version and
    /// digest, every citation of a rule in the source root with the results of its test, the
    /// declared statuses and what `check` found. Exit 2 when the book cannot be loaded or an
    /// option is wrong.
    Report {
        /// The contract's book (a checkout of its repository), where book.toml is.
        #[arg(long = "book", value_name = "PATH", required_unless_present = "schema")]
        book_dir: Option<PathBuf>,
        /// The provider, as the book's provider section names it.
        #[arg(long, value_name = "NAME", required_unless_present = "schema")]
        provider: Option<String>,
        /// The provider's repository (default: `git remote get-url origin`, written as https).
        #[arg(long, value_name = "URL")]
        repository: Option<String>,
        /// The commit the report is of (default: the source root's HEAD).
        #[arg(long, value_name = "SHA")]
        commit: Option<String>,
        /// Test results to read (JUnit XML or `go test -json` output, globs allowed), relative
        /// to where the command runs; may be given more than once.
        #[arg(long = "test-results", value_name = "GLOB")]
        test_results: Vec<PathBuf>,
        /// A TOML file whose table `[declared]` gives rule IDs the status the provider states
        /// without evidence: "implemented", "not-implemented" or "not-applicable".
        #[arg(long, value_name = "FILE")]
        declared: Option<PathBuf>,
        /// The provider's source tree (default: the folder the command runs in).
        #[arg(long, value_name = "DIR", default_value = ".")]
        source_root: PathBuf,
        /// Print the JSON Schema of the document instead.
        #[arg(long)]
        schema: bool,
    },
    /// Writes the contract as one JSON document (a `schema_version`, the book, axes, rules,
    /// providers, specs, coverage and findings): the same book gives the same bytes.
    ///
    /// `--site DIR` writes `contract.json` and its schema, `contract.schema.json`, into a built
    /// site (after `mdbook build`, into its build directory). Exit 2 when the book cannot be
    /// loaded.
    Export {
        /// The book's root folder, where book.toml is.
        #[arg(default_value = ".")]
        book_dir: PathBuf,
        /// Where to write it (standard output when neither this nor `--site` is given).
        #[arg(long)]
        out: Option<PathBuf>,
        /// A built site to write `contract.json` and `contract.schema.json` into.
        #[arg(long, conflicts_with = "out")]
        site: Option<PathBuf>,
        /// Print the JSON Schema of the document instead.
        #[arg(long, conflicts_with_all = ["out", "site"])]
        schema: bool,
        /// Run as mdBook's renderer (`[output.contract]` with `command = "mdbook-contract
        /// export --renderer"`): the render context on standard input, the files into the
        /// renderer's folder.
        #[arg(long, conflicts_with_all = ["out", "site", "schema"])]
        renderer: bool,
        /// Test results to read (JUnit XML or `go test -json` output, globs allowed), relative
        /// to where the command runs, in place of book.toml's `test-results`; may be given more
        /// than once.
        #[arg(long = "test-results", value_name = "GLOB")]
        test_results: Vec<PathBuf>,
    },
    /// Prints where each filled spec stands: its status, the entries answered of all, and each
    /// open entry with its place.
    Status {
        /// The book's root folder, where book.toml is.
        #[arg(default_value = ".")]
        book_dir: PathBuf,
        /// How to print it.
        #[arg(long, value_enum, default_value_t = StatusOutput::Human)]
        format: StatusOutput,
        /// Test results to read (JUnit XML or `go test -json` output, globs allowed), relative
        /// to where the command runs, in place of book.toml's `test-results`; may be given more
        /// than once.
        #[arg(long = "test-results", value_name = "GLOB")]
        test_results: Vec<PathBuf>,
        /// Also lists, per provider and for the shared code, every code unit (function,
        /// method, type, test) of the source tree in which no citation of a rule stands and
        /// above which none stands, with the share of units mapped.
        #[arg(long)]
        unmapped: bool,
        /// Exit 1 when a built provider has fewer than N percent of the MUST rules that bind it
        /// verified (with test results: passed), naming the providers and rules that fall short.
        #[arg(long, value_name = "N")]
        min_verified: Option<f64>,
    },
    /// Runs the language server (LSP over standard input and output) for the book's Markdown:
    /// the findings as diagnostics while typing, completion of axis codes, profiles and check
    /// names, hover, go to definition, references, rename of an axis code, document symbols.
    ///
    /// Editors start it themselves; see the README's "Editors" section.
    Lsp {
        /// Runs the book's own preprocessors (any that book.toml runs before this one besides
        /// mdBook's `links`) at start and on save; without it the book is read as written and
        /// book.toml says which were left out. Only for a folder you trust: its book.toml is
        /// someone's code.
        #[arg(long)]
        allow_commands: bool,
    },
    /// Serves the contract to an agent over the Model Context Protocol (MCP, on standard input
    /// and output): tools for the overview, an axis, a rule, a provider, a brief, the findings
    /// and the uncovered rules, each answer following the files on disk and saying what changed
    /// since the previous call.
    ///
    /// MCP clients start it themselves; `--print-config` prints what registers it with one.
    Mcp {
        /// The book's root folder, where book.toml is.
        #[arg(default_value = ".")]
        book_dir: PathBuf,
        /// Prints what registers this server for the book with an MCP client, and exits
        /// (`--print-config=HOST`):
        /// `json` (the default) the `mcpServers` JSON of Claude Code's `.mcp.json`, Cursor's
        /// `.cursor/mcp.json` and Claude Desktop; `vscode` the JSON of VS Code's
        /// `.vscode/mcp.json`; `codex` the TOML of Codex's `~/.codex/config.toml`; `claude` the
        /// `claude mcp add` command line.
        #[arg(long, value_name = "HOST", num_args = 0..=1, require_equals = true, default_missing_value = "json")]
        print_config: Option<mdbook_contract::McpHost>,
        /// Runs the commands book.toml names (preprocessors other than mdBook's own) when the
        /// book is loaded; without it the book is read as written and the first answer says
        /// what was left out. With `--print-config`, the configuration starts the server so.
        /// Only for a book you trust: its book.toml is someone's code.
        #[arg(long)]
        allow_commands: bool,
    },
    /// Runs the book's own preprocessors for the language server (its child process): the
    /// editor's texts as JSON on standard input, the book as they leave it on standard output.
    #[command(hide = true)]
    LspArrival {
        /// The book's root folder, where book.toml is.
        book_dir: PathBuf,
    },
    /// Sets a book up: writes the stylesheet of the generated tables and the script of the
    /// coverage page beside book.toml and lists them in `output.html.additional-css` and
    /// `additional-js`, and adds `[preprocessor.contract]` with `after = ["links"]` when
    /// book.toml has none (comments and formatting are kept).
    Install {
        /// The book's root folder, where book.toml is.
        #[arg(default_value = ".")]
        book_dir: PathBuf,
    },
    /// Writes a small contract book that builds at once: book.toml, a contract with two axes
    /// and three rules, the spec template, an appendix with the profile and rule matrices, and
    /// a tiny source tree that cites the rules.
    ///
    /// Every file says in its first comment what to change first. Refuses, changing nothing,
    /// a folder that has a book.toml.
    Init {
        /// The folder to write the book into (made when missing).
        #[arg(default_value = ".")]
        dir: PathBuf,
        /// A provider's name, a DNS-1123 label such as `s3`; give it once per provider
        /// (default: `alpha` and `beta`).
        #[arg(long = "provider", value_name = "NAME")]
        providers: Vec<String>,
        /// What the book calls its providers, in lowercase words, such as `storage backend`.
        #[arg(long, default_value = mdbook_contract::DEFAULT_NOUN)]
        noun: String,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum DiffOutput {
    /// Grouped by level, each change with who must act (`text` is the same).
    #[value(alias = "text")]
    Human,
    /// Markdown, for a pull request comment or `$GITHUB_STEP_SUMMARY`.
    Markdown,
    /// JSON: `base`, `head`, `level`, `changes` (kind, level, message, at, acts).
    Json,
    /// GitHub annotations at the changed lines of HEAD.
    Github,
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, ValueEnum)]
enum FailOn {
    Patch,
    Minor,
    Major,
}

#[derive(Clone, Copy, ValueEnum)]
enum StatusOutput {
    /// A few lines per spec (`text` is the same).
    #[value(alias = "text")]
    Human,
    /// A JSON object: `specs` (one per spec) and `providers` (the coverage of each built one).
    Json,
}

#[derive(Clone, Copy, ValueEnum)]
enum OutputFormat {
    /// Snippets with the offending span underlined (`text` is the same).
    #[value(alias = "text")]
    Human,
    /// One line per finding: `path:line:col: severity[check]: message`.
    Short,
    /// A JSON array of findings.
    Json,
    /// GitHub Actions annotations.
    Github,
    /// A SARIF 2.1.0 log, for code scanning.
    Sarif,
    /// A Markdown summary (the axes, claims per provider, findings per check), for
    /// `$GITHUB_STEP_SUMMARY`.
    Markdown,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if cli.no_cache {
        mdbook_contract::without_cache();
    }
    match cli.command {
        Some(Command::Supports { .. }) => ExitCode::SUCCESS,
        Some(Command::Check {
            book_dir,
            format,
            changed_since,
            baseline,
            write_baseline,
            test_results,
        }) => check_command(
            &book_dir,
            format,
            changed_since.as_deref(),
            baseline.as_deref(),
            write_baseline.as_deref(),
            &test_results,
        ),
        Some(Command::Install { book_dir }) => install(&book_dir),
        Some(Command::Init {
            dir,
            providers,
            noun,
        }) => init(&dir, &providers, &noun),
        Some(Command::Lsp { allow_commands }) => {
            lsp(mdbook_contract::Commands::allowed(allow_commands))
        }
        Some(Command::Mcp {
            book_dir,
            print_config,
            allow_commands,
        }) => mcp(
            &book_dir,
            print_config,
            mdbook_contract::Commands::allowed(allow_commands),
        ),
        Some(Command::LspArrival { book_dir }) => lsp_arrival(&book_dir),
        Some(Command::CarriedOver {
            old,
            book_dir,
            sections,
        }) => carried_over(&book_dir, &old, &sections),
        Some(Command::Status {
            book_dir,
            format,
            test_results,
            min_verified,
            unmapped,
        }) => status(
            load(&book_dir, &test_results, None),
            &book_dir,
            format,
            min_verified,
            unmapped,
        ),
        Some(Command::Export { renderer: true, .. }) => export_renderer(),
        Some(Command::Report {
            book_dir,
            provider,
            repository,
            commit,
            test_results,
            declared,
            source_root,
            schema,
        }) => {
            let options = mdbook_contract::ReportOptions {
                provider: provider.unwrap_or_default(),
                repository,
                commit,
                declared,
            };
            let book_dir = book_dir.unwrap_or_default();
            provider_report(&book_dir, &source_root, &test_results, &options, schema)
        }
        Some(Command::Export {
            book_dir,
            out,
            site,
            schema,
            test_results,
            ..
        }) => export(
            load(&book_dir, &test_results, None),
            out.as_deref(),
            site.as_deref(),
            schema,
        ),
        Some(Command::Diff {
            base,
            head,
            book_dir,
            format,
            fail_on,
            allow_commands,
        }) => diff(
            &book_dir,
            &base,
            head.as_deref(),
            format,
            fail_on,
            mdbook_contract::Commands::allowed(allow_commands),
        ),
        Some(Command::Brief {
            provider_type,
            book_dir,
            output,
            test_results,
        }) => brief(
            load(&book_dir, &test_results, None),
            &book_dir,
            &provider_type,
            output.as_deref(),
        ),
        Some(Command::NewSpec {
            provider_type,
            book_dir,
            path,
        }) => new_spec(&book_dir, &provider_type, path.as_deref()),
        None => protocol(),
    }
}

/// `mdbook-contract check`: what the user names on the command line is theirs to read, then the
/// book is checked, or its findings recorded as a baseline.
fn check_command(
    book_dir: &Path,
    format: OutputFormat,
    changed_since: Option<&str>,
    baseline: Option<&Path>,
    write_baseline: Option<&Path>,
    test_results: &[PathBuf],
) -> ExitCode {
    let mut given = test_results.to_vec();
    given.extend(baseline.map(Path::to_path_buf));
    mdbook_contract::given_on_command_line(&given);
    let loaded = load(book_dir, test_results, changed_since);
    match write_baseline {
        Some(file) => record_baseline(loaded, book_dir, file),
        None => check(loaded, book_dir, format, baseline),
    }
}

/// `mdbook-contract lsp`: the language server on stdio until the editor ends it.
fn lsp(commands: mdbook_contract::Commands) -> ExitCode {
    let served = mdbook_contract::protocol_stdout()
        .map_err(anyhow::Error::from)
        .and_then(|stdout| {
            mdbook_contract::run_language_server(
                std::io::BufReader::new(std::io::stdin()),
                stdout,
                commands,
            )
        });
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            let _ = writeln!(std::io::stderr(), "mdbook-contract lsp: {error:#}");
            ExitCode::FAILURE
        }
    }
}

/// The language server's child process: the book's own preprocessors run on the editor's
/// texts of `book_dir`.
fn lsp_arrival(book_dir: &Path) -> ExitCode {
    let served = mdbook_contract::protocol_stdout()
        .map_err(anyhow::Error::from)
        .and_then(|stdout| {
            let stdout = std::io::BufWriter::new(stdout);
            mdbook_contract::language_server_arrival(book_dir, std::io::stdin(), stdout)
        });
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            let _ = writeln!(std::io::stderr(), "mdbook-contract: {error:#}");
            ExitCode::FAILURE
        }
    }
}

/// `mdbook-contract export --renderer`: mdBook's renderer protocol on stdin.
fn export_renderer() -> ExitCode {
    match mdbook_contract::export_renderer(std::io::stdin().lock()) {
        Ok(_) => ExitCode::SUCCESS,
        Err(error) => {
            let _ = writeln!(std::io::stderr(), "mdbook-contract: {error:#}");
            ExitCode::from(2)
        }
    }
}

fn protocol() -> ExitCode {
    let mut input = Vec::new();
    let mut stderr = std::io::stderr().lock();
    if std::io::stdin().is_terminal() {
        // mdBook pipes the book in; a person who typed the bare command would wait forever.
        let _ = writeln!(
            stderr,
            "mdbook-contract: with no command, this program is mdBook's `contract` preprocessor: it reads the book as JSON from mdBook on standard input, which is a terminal here.\n\
             To use it, add `[preprocessor.contract]` to book.toml (`mdbook-contract install` does) and run `mdbook build`;\n\
             to check a book without building it, run `mdbook-contract check [BOOK_DIR]`; `mdbook-contract --help` lists every command."
        );
        return ExitCode::from(2);
    }
    if let Err(error) = std::io::stdin().lock().read_to_end(&mut input) {
        let _ = writeln!(
            stderr,
            "mdbook-contract: could not read standard input: {error}"
        );
        return ExitCode::FAILURE;
    }
    let mut stdout = std::io::BufWriter::with_capacity(64 << 10, std::io::stdout().lock());
    let code = mdbook_contract::run_protocol(input, &mut stdout, &mut stderr);
    ExitCode::from(u8::try_from(code).unwrap_or(1))
}

fn mcp(
    book_dir: &std::path::Path,
    print_config: Option<mdbook_contract::McpHost>,
    commands: mdbook_contract::Commands,
) -> ExitCode {
    let served = if let Some(host) = print_config {
        mdbook_contract::mcp_config(book_dir, host, commands)
            .map(|config| std::io::stdout().lock().write_all(config.as_bytes()))
            .map(|_| ())
    } else {
        mdbook_contract::protocol_stdout()
            .map_err(anyhow::Error::from)
            .and_then(|stdout| {
                mdbook_contract::run_mcp(
                    book_dir,
                    std::io::BufReader::new(std::io::stdin()),
                    stdout,
                    commands,
                )
            })
    };
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            let _ = writeln!(std::io::stderr(), "mdbook-contract mcp: {error:#}");
            ExitCode::FAILURE
        }
    }
}

fn new_spec(book_dir: &std::path::Path, provider_type: &str, path: Option<&str>) -> ExitCode {
    match mdbook_contract::new_spec(book_dir, provider_type, path) {
        Ok(spec) => {
            let mut stdout = std::io::stdout().lock();
            for file in &spec.written {
                let _ = writeln!(
                    stdout,
                    "wrote {}",
                    mdbook_contract::slashed(&display_root(book_dir).join(file))
                );
            }
            for note in &spec.notes {
                let _ = writeln!(stdout, "{note}");
            }
            let _ = writeln!(
                stdout,
                "next: answer every entry of {} (the build lists what is open), then mark it `**Status:** accepted`",
                spec.chapter
            );
            ExitCode::SUCCESS
        }
        Err(error) => {
            let _ = writeln!(std::io::stderr(), "mdbook-contract: {error:#}");
            ExitCode::from(2)
        }
    }
}

/// Paths in output that a repository's host places (GitHub annotations, SARIF) are relative
/// to the top of the git work tree, wherever the command runs; outside one, as for people.
fn repository_root(book_dir: &std::path::Path) -> PathBuf {
    mdbook_contract::in_repository(book_dir).unwrap_or_else(|| display_root(book_dir))
}

/// Paths in output are shown as `book_dir` joined with the path in the book, so they are
/// relative to where the command was run.
fn display_root(book_dir: &std::path::Path) -> PathBuf {
    if book_dir == std::path::Path::new(".") {
        PathBuf::new()
    } else {
        book_dir.to_path_buf()
    }
}

/// The book as mdBook hands it over, loaded; or why it cannot be.
type Loaded = anyhow::Result<(
    mdbook_preprocessor::PreprocessorContext,
    mdbook_preprocessor::book::Book,
)>;

/// Loads the book at `book_dir` as mdBook hands it over, with what the command line sets in
/// place of book.toml: `--test-results` (given from the working folder, relative to the book
/// root in the key) and `--changed-since`.
fn load(
    book_dir: &std::path::Path,
    test_results: &[PathBuf],
    changed_since: Option<&str>,
) -> Loaded {
    mdbook_contract::given_on_command_line(test_results);
    let (mut ctx, book) = mdbook_contract::load(book_dir, "html")?;
    if !test_results.is_empty() {
        let list: Vec<String> = test_results
            .iter()
            .map(|p| {
                mdbook_contract::from_folder(book_dir, p)
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        ctx.config.set("preprocessor.contract.test-results", list)?;
    }
    if let Some(rev) = changed_since {
        ctx.config.set("preprocessor.contract.changed-since", rev)?;
    }
    Ok((ctx, book))
}

fn brief(
    loaded: Loaded,
    book_dir: &std::path::Path,
    provider_type: &str,
    output: Option<&std::path::Path>,
) -> ExitCode {
    let loaded = match loaded {
        Ok(loaded) => loaded,
        Err(error) => {
            let _ = writeln!(std::io::stderr(), "mdbook-contract: {error:#}");
            return ExitCode::from(2);
        }
    };
    let (ctx, book) = loaded;
    match mdbook_contract::brief(&ctx, &book, provider_type) {
        Ok(brief) => {
            let written = match output {
                Some(file) => std::fs::write(file, &brief.markdown),
                None => std::io::stdout()
                    .lock()
                    .write_all(brief.markdown.as_bytes()),
            };
            if let Err(error) = written {
                let _ = writeln!(
                    std::io::stderr(),
                    "mdbook-contract: cannot write the brief: {error}"
                );
                return ExitCode::from(2);
            }
            if brief.errors_elsewhere > 0 {
                let _ = writeln!(
                    std::io::stderr(),
                    "mdbook-contract: the book has {} outside the spec (listed in the brief); `mdbook-contract check` shows them",
                    if brief.errors_elsewhere == 1 {
                        "1 error".to_owned()
                    } else {
                        format!("{} errors", brief.errors_elsewhere)
                    }
                );
            }
            if let Some(file) = output {
                let _ = writeln!(
                    std::io::stderr(),
                    "wrote {} ({} bytes, {} links, each to a heading of the brief or an absolute address)",
                    file.display(),
                    brief.markdown.len(),
                    brief.links
                );
            }
            ExitCode::SUCCESS
        }
        Err(mdbook_contract::BriefError::Findings(report)) => {
            // The findings as `check` prints them, with book paths shown from here.
            let report =
                mdbook_contract::check(&ctx, &book, display_root(book_dir)).unwrap_or(report);
            let color = std::io::stderr().is_terminal()
                && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
            let mut stderr = std::io::stderr().lock();
            let _ = stderr.write_all(report.render(Format::Human, color).as_bytes());
            let _ = writeln!(
                stderr,
                "mdbook-contract: no brief written: it copies the spec's answers, so it is written only from a spec without errors"
            );
            ExitCode::FAILURE
        }
        Err(error) => {
            let _ = writeln!(std::io::stderr(), "mdbook-contract: {error}");
            ExitCode::from(2)
        }
    }
}

fn diff(
    book_dir: &std::path::Path,
    base: &str,
    head: Option<&str>,
    format: DiffOutput,
    fail_on: Option<FailOn>,
    commands: mdbook_contract::Commands,
) -> ExitCode {
    let shown = match format {
        DiffOutput::Github => repository_root(book_dir),
        _ => display_root(book_dir),
    };
    match mdbook_contract::diff(book_dir, base, head, shown, commands) {
        Ok(diff) => {
            if let Some(note) = &diff.left_out {
                let _ = writeln!(std::io::stderr(), "mdbook-contract: note: {note}");
            }
            let format = match format {
                DiffOutput::Human => mdbook_contract::DiffFormat::Human,
                DiffOutput::Markdown => mdbook_contract::DiffFormat::Markdown,
                DiffOutput::Json => mdbook_contract::DiffFormat::Json,
                DiffOutput::Github => mdbook_contract::DiffFormat::Github,
            };
            let text = mdbook_contract::render_diff(&diff, format);
            let _ = std::io::stdout().lock().write_all(text.as_bytes());
            let threshold = fail_on.map(|f| match f {
                FailOn::Patch => mdbook_contract::ChangeLevel::Patch,
                FailOn::Minor => mdbook_contract::ChangeLevel::Minor,
                FailOn::Major => mdbook_contract::ChangeLevel::Major,
            });
            // A version that rises less than the change is an error, as oasdiff's check is.
            let version_error = diff.version.as_ref().is_some_and(|v| v.error.is_some());
            match (threshold, diff.level) {
                _ if version_error => ExitCode::from(1),
                (Some(threshold), Some(level)) if level >= threshold => ExitCode::from(1),
                _ => ExitCode::SUCCESS,
            }
        }
        Err(error) => {
            let _ = writeln!(std::io::stderr(), "mdbook-contract: {error:#}");
            ExitCode::from(2)
        }
    }
}

/// `mdbook-contract report`: the book loaded with the provider's tree as `source-root` and its
/// results as `test-results`, the report on standard output.
fn provider_report(
    book_dir: &Path,
    source_root: &Path,
    test_results: &[PathBuf],
    options: &mdbook_contract::ReportOptions,
    schema: bool,
) -> ExitCode {
    if schema {
        let _ = std::io::stdout()
            .lock()
            .write_all(mdbook_contract::PROVIDER_REPORT_SCHEMA.as_bytes());
        return ExitCode::SUCCESS;
    }
    let mut given = test_results.to_vec();
    given.push(source_root.to_owned());
    mdbook_contract::given_on_command_line(&given);
    let made = load(book_dir, test_results, None).and_then(|(mut ctx, book)| {
        if !source_root.is_dir() {
            anyhow::bail!(
                "`--source-root` is `{}`, which is not a folder",
                source_root.display()
            );
        }
        let root = mdbook_contract::from_folder(book_dir, source_root);
        let root = mdbook_contract::slashed(&root);
        let root = if root.is_empty() {
            ".".to_owned()
        } else {
            root
        };
        ctx.config.set("preprocessor.contract.source-root", root)?;
        // The other providers' reports the book reads are not this provider's evidence, nor
        // are the book's own test results.
        let none: Vec<String> = Vec::new();
        ctx.config
            .set("preprocessor.contract.provider-reports", none.clone())?;
        if test_results.is_empty() {
            ctx.config.set("preprocessor.contract.test-results", none)?;
        }
        mdbook_contract::provider_report(&ctx, &book, source_root, options)
    });
    match made {
        Ok(json) => {
            let _ = std::io::stdout().lock().write_all(json.as_bytes());
            ExitCode::SUCCESS
        }
        Err(error) => {
            let _ = writeln!(std::io::stderr(), "mdbook-contract: {error:#}");
            ExitCode::from(2)
        }
    }
}

fn export(
    loaded: Loaded,
    out: Option<&std::path::Path>,
    site: Option<&std::path::Path>,
    schema: bool,
) -> ExitCode {
    if schema {
        let _ = std::io::stdout()
            .lock()
            .write_all(mdbook_contract::CONTRACT_SCHEMA.as_bytes());
        return ExitCode::SUCCESS;
    }
    let exported = loaded.and_then(|(ctx, book)| mdbook_contract::export_book(&ctx, &book));
    let written = exported.and_then(|export| {
        let json = export.to_json();
        match (out, site) {
            (Some(path), _) => std::fs::write(path, json)
                .map_err(|e| anyhow::anyhow!("cannot write `{}`: {e}", path.display())),
            (None, Some(dir)) => {
                for (name, text) in [
                    ("contract.json", json.as_str()),
                    ("contract.schema.json", mdbook_contract::CONTRACT_SCHEMA),
                ] {
                    let path = dir.join(name);
                    std::fs::write(&path, text)
                        .map_err(|e| anyhow::anyhow!("cannot write `{}`: {e}", path.display()))?;
                }
                Ok(())
            }
            (None, None) => {
                let _ = std::io::stdout().lock().write_all(json.as_bytes());
                Ok(())
            }
        }
    });
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            let _ = writeln!(std::io::stderr(), "mdbook-contract: {error:#}");
            ExitCode::from(2)
        }
    }
}

fn status(
    loaded: Loaded,
    book_dir: &std::path::Path,
    format: StatusOutput,
    min_verified: Option<f64>,
    unmapped: bool,
) -> ExitCode {
    let states = loaded.and_then(|(ctx, book)| {
        mdbook_contract::status_with(&ctx, &book, display_root(book_dir), unmapped)
    });
    match states {
        Ok(states) => {
            let format = match format {
                StatusOutput::Human => mdbook_contract::StatusFormat::Human,
                StatusOutput::Json => mdbook_contract::StatusFormat::Json,
            };
            let text = mdbook_contract::render_status(&states, format);
            let _ = std::io::stdout().lock().write_all(text.as_bytes());
            match min_verified {
                Some(percent) => gate(&states, percent),
                None => ExitCode::SUCCESS,
            }
        }
        Err(error) => {
            let _ = writeln!(std::io::stderr(), "mdbook-contract: {error:#}");
            ExitCode::from(2)
        }
    }
}

fn carried_over(book_dir: &std::path::Path, old: &str, sections: &[String]) -> ExitCode {
    let result = mdbook_contract::load(book_dir, "html").and_then(|(_, book)| {
        mdbook_contract::carried_over(std::path::Path::new(""), old, sections, &book)
    });
    match result {
        Ok(report) => {
            let _ = std::io::stdout()
                .lock()
                .write_all(report.render().as_bytes());
            if report.lost.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        Err(error) => {
            let _ = writeln!(std::io::stderr(), "mdbook-contract: {error:#}");
            ExitCode::from(2)
        }
    }
}

fn install(book_dir: &std::path::Path) -> ExitCode {
    match mdbook_contract::install(book_dir) {
        Ok(installed) => {
            let mut stdout = std::io::stdout().lock();
            for file in [&installed.css, &installed.js] {
                let file = file.strip_prefix(".").unwrap_or(file);
                let _ = writeln!(stdout, "wrote {}", mdbook_contract::slashed(file));
            }
            for change in &installed.changes {
                let _ = writeln!(stdout, "book.toml: {change}");
            }
            if installed.changes.is_empty() {
                let _ = writeln!(stdout, "book.toml already had everything; left as it was");
            }
            ExitCode::SUCCESS
        }
        Err(error) => {
            let _ = writeln!(std::io::stderr(), "mdbook-contract: {error:#}");
            ExitCode::from(2)
        }
    }
}

fn init(dir: &Path, providers: &[String], noun: &str) -> ExitCode {
    let providers: Vec<String> = if providers.is_empty() {
        mdbook_contract::DEFAULT_PROVIDERS
            .iter()
            .map(|p| (*p).to_owned())
            .collect()
    } else {
        providers.to_vec()
    };
    match mdbook_contract::init(dir, &providers, noun) {
        Ok(initialized) => {
            let mut stdout = std::io::stdout().lock();
            for file in &initialized.written {
                let _ = writeln!(
                    stdout,
                    "wrote {}",
                    mdbook_contract::slashed(&display_root(dir).join(file))
                );
            }
            let shown = display_root(dir);
            let at = if shown.as_os_str().is_empty() {
                String::new()
            } else {
                format!(" {}", mdbook_contract::slashed(&shown))
            };
            let _ = writeln!(
                stdout,
                "next: `mdbook build{at}` (or `mdbook-contract check{at}`); each file's first comment says what to change first"
            );
            ExitCode::SUCCESS
        }
        Err(error) => {
            let _ = writeln!(std::io::stderr(), "mdbook-contract: {error:#}");
            ExitCode::from(2)
        }
    }
}

/// `status --min-verified PERCENT`: exit 1 when a built provider has fewer of the MUST rules
/// that bind it verified, naming it and the rules that fall short, on standard error.
fn gate(status: &mdbook_contract::Status, percent: f64) -> ExitCode {
    let mut short = false;
    let mut stderr = std::io::stderr().lock();
    for provider in &status.providers {
        let share = if provider.must == 0 {
            100.0
        } else {
            provider.must_verified as f64 * 100.0 / provider.must as f64
        };
        if share + 1e-9 < percent {
            short = true;
            let _ = writeln!(
                stderr,
                "mdbook-contract: `{}` has {} of {} MUST rules verified ({share:.1} %, below {percent} %); not verified: {}",
                provider.provider,
                provider.must_verified,
                provider.must,
                provider
                    .must_short
                    .iter()
                    .map(|r| format!("`{r}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
    }
    if short {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// Records every finding of the book at `book_dir` in `file`, paths from the book root.
fn record_baseline(loaded: Loaded, book_dir: &std::path::Path, file: &std::path::Path) -> ExitCode {
    let checked =
        loaded.and_then(|(ctx, book)| mdbook_contract::check(&ctx, &book, PathBuf::new()));
    let report = match checked {
        Ok(report) => report,
        Err(error) => {
            let _ = writeln!(std::io::stderr(), "mdbook-contract: {error:#}");
            return ExitCode::from(2);
        }
    };
    let text = mdbook_contract::write_baseline(&report);
    let recorded = text.lines().filter(|l| !l.starts_with('#')).count();
    if let Err(error) = std::fs::write(file, text) {
        let _ = writeln!(
            std::io::stderr(),
            "mdbook-contract: cannot write `{}`: {error}",
            file.display()
        );
        return ExitCode::from(2);
    }
    let setting = mdbook_contract::baseline_setting(&mdbook_contract::from_folder(book_dir, file));
    let _ = writeln!(
        std::io::stdout(),
        "wrote {recorded} findings to {}; from now on they do not fail the build and new ones do, with `{setting}` under `[preprocessor.contract]` in book.toml (or `check --baseline {}`)",
        file.display(),
        file.display()
    );
    ExitCode::SUCCESS
}

fn check(
    loaded: Loaded,
    book_dir: &std::path::Path,
    format: OutputFormat,
    baseline: Option<&std::path::Path>,
) -> ExitCode {
    let checked = loaded.and_then(|(mut ctx, book)| {
        if let Some(file) = baseline {
            // Given from here; the key is relative to the book root.
            let file = mdbook_contract::from_folder(book_dir, file);
            ctx.config.set(
                "preprocessor.contract.baseline",
                file.to_string_lossy().as_ref(),
            )?;
        }
        let shown = match format {
            OutputFormat::Github | OutputFormat::Sarif => repository_root(book_dir),
            _ => display_root(book_dir),
        };
        mdbook_contract::overview(&ctx, &book, shown)
    });
    let (overview, report) = match checked {
        Ok(checked) => checked,
        Err(error) => {
            let _ = writeln!(std::io::stderr(), "mdbook-contract: {error:#}");
            return ExitCode::from(2);
        }
    };
    let format = match format {
        OutputFormat::Human => Some(Format::Human),
        OutputFormat::Short => Some(Format::Short),
        OutputFormat::Json => Some(Format::Json),
        OutputFormat::Github => Some(Format::Github),
        OutputFormat::Sarif => Some(Format::Sarif),
        OutputFormat::Markdown => None,
    };
    let color = std::io::stdout().is_terminal()
        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    let text = match format {
        Some(Format::Human) if report.findings.is_empty() => {
            format!("mdbook-contract: {}\n", report.summary())
        }
        Some(format) => report.render(format, color),
        None => overview.markdown(&report),
    };
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(text.as_bytes());
    let _ = stdout.flush();
    if report.has_errors() {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
