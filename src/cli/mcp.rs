//! `mdbook-contract mcp`: the contract served to an agent over the Model Context Protocol, or
//! with `--print-config` what registers the server with a client.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Serves the contract to an agent over the Model Context Protocol (MCP, on standard input
/// and output): tools for the overview, an axis, a rule, a provider, a brief, the findings
/// and the uncovered rules, each answer following the files on disk and saying what changed
/// since the previous call.
///
/// MCP clients start it themselves; `--print-config` prints what registers it with one.
#[derive(clap::Args)]
pub(crate) struct McpArgs {
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
}

pub(crate) fn run(args: McpArgs) -> ExitCode {
    let book_dir = &args.book_dir;
    let commands = mdbook_contract::Commands::allowed(args.allow_commands);
    if let Some(host) = args.print_config {
        return print_config(book_dir, host, commands);
    }
    let served = mdbook_contract::protocol_stdout()
        .map_err(anyhow::Error::from)
        .and_then(|stdout| {
            mdbook_contract::run_mcp(
                book_dir,
                std::io::BufReader::new(std::io::stdin()),
                stdout,
                commands,
            )
        });
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            let _ = writeln!(std::io::stderr(), "mdbook-contract mcp: {error:#}");
            ExitCode::FAILURE
        }
    }
}

/// `--print-config`: the registration on standard output, a note on standard error; exit 2
/// for a folder with no book.
fn print_config(
    book_dir: &Path,
    host: mdbook_contract::McpHost,
    commands: mdbook_contract::Commands,
) -> ExitCode {
    match mdbook_contract::mcp_config(book_dir, host, commands) {
        Ok(config) => {
            let _ = std::io::stdout().lock().write_all(config.text.as_bytes());
            if let Some(note) = &config.note {
                let _ = writeln!(std::io::stderr(), "mdbook-contract mcp: note: {note}");
            }
            ExitCode::SUCCESS
        }
        Err(error) => {
            let _ = writeln!(std::io::stderr(), "mdbook-contract mcp: {error:#}");
            ExitCode::from(2)
        }
    }
}
