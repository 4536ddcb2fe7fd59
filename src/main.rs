//! The `mdbook-contract` command line: the preprocessor protocol, `supports`, `check` and the
//! other commands, each handed to the library.

use std::io::{IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod cli;

use cli::display_root;

/// An mdBook preprocessor that keeps a provider contract, its spec template and its appendix in
/// step. Run with no arguments, it speaks mdBook's preprocessor protocol on stdin and stdout.
#[derive(Parser)]
// The name a user types, whatever the file is called (`mdbook-contract.exe` on Windows, which
// clap would otherwise show in every usage line).
#[command(version, about, bin_name = "mdbook-contract")]
struct Cli {
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
    Check(cli::check::CheckArgs),
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
    Brief(cli::brief::BriefArgs),
    CarriedOver(cli::carried_over::CarriedOverArgs),
    Diff(cli::diff::DiffArgs),
    Report(cli::report::ReportArgs),
    Export(cli::export::ExportArgs),
    Status(cli::status::StatusArgs),
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

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Supports { .. }) => ExitCode::SUCCESS,
        Some(Command::Check(args)) => cli::check::run(args),
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
        Some(Command::CarriedOver(args)) => cli::carried_over::run(args),
        Some(Command::Status(args)) => cli::status::run(args),
        Some(Command::Export(args)) => cli::export::run(args),
        Some(Command::Report(args)) => cli::report::run(args),
        Some(Command::Diff(args)) => cli::diff::run(args),
        Some(Command::Brief(args)) => cli::brief::run(args),
        Some(Command::NewSpec {
            provider_type,
            book_dir,
            path,
        }) => new_spec(&book_dir, &provider_type, path.as_deref()),
        None => protocol(),
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
