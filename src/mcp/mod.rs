//! `mdbook-contract mcp`: the contract served over the Model Context Protocol, for the agent
//! that implements a provider and works in a loop (read a rule, write code, cite the rule in a
//! test, ask what is still uncovered, check again).
//!
//! The protocol is rmcp's (the official Rust SDK): its types, the `initialize` handshake and
//! the dispatch of requests. Ours are the pieces around it, one file each:
//!
//! - `transport.rs`: newline-delimited messages over stdin and stdout, with an error reply to
//!   a line that is no message;
//! - `watch.rs`: the book loaded as `check` loads it, again whenever a file it is read from
//!   changed (a fingerprint taken at each call);
//! - `tools.rs`: the tools, their input schemas and the call; `answers/`: each one's answer
//!   from the export, the status and the findings of one analysis;
//! - `changes.rs`: what changed since the client's previous call;
//! - `server.rs`: rmcp's `ServerHandler`, which ties them together.
//!
//! The server never writes a file and never runs anything the book does not configure (the
//! book's own preprocessors run, as for `check`).

mod answers;
mod changes;
mod long_line;
mod server;
mod tools;
mod transport;
mod watch;

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result};

/// Serves the book at `book_dir`, reading messages from `input` and writing replies to
/// `output` (stdin and stdout for `mdbook-contract mcp`), until `input` ends.
pub fn serve_stream(
    book_dir: &Path,
    input: impl BufRead + Send + 'static,
    output: impl Write + Send + 'static,
    commands: crate::read::load::Commands,
) -> Result<()> {
    // Every reload reads the source tree again: an unchanged file is not read twice.
    crate::read::code::keep_reads();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("the server's runtime cannot be started")?;
    let dir = crate::util::paths::lexical(&std::path::absolute(book_dir)?);
    runtime.block_on(async move {
        let server = server::Server::new(dir, commands);
        let running = rmcp::service::serve_server(server, transport::lines(input, output))
            .await
            .context("the client did not start a session")?;
        running.waiting().await?;
        Ok(())
    })
}

/// The MCP clients whose configuration [`config`] writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
#[non_exhaustive]
pub enum Host {
    /// The `mcpServers` JSON of Claude Code's `.mcp.json`, Cursor's `.cursor/mcp.json` and
    /// Claude Desktop's configuration.
    Json,
    /// The JSON of VS Code's `.vscode/mcp.json` (`servers`, with `type: stdio`).
    Vscode,
    /// The TOML table of Codex's `~/.codex/config.toml`.
    Codex,
    /// The `claude mcp add` command line that registers it with Claude Code.
    Claude,
}

/// What [`config`] made: the text to register the server, and what the user should know of
/// it (the command is written by name, and no program by that name is on the `PATH` here).
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Config {
    pub text: String,
    pub note: Option<String>,
}

/// What registers the server for the book at `book_dir` with the MCP client `host`, in a form
/// that can be committed: the command by name, and the book's folder from the top of its
/// repository (where `.mcp.json` and `.vscode/mcp.json` go, and where a client starts the
/// servers of a project; from the current folder outside a repository), VS Code's from
/// `${workspaceFolder}`; Codex's `~/.codex/config.toml`, a file of the user's own, gets it
/// absolute. A folder with no book.toml is refused.
pub fn config(
    book_dir: &Path,
    host: Host,
    commands: crate::read::load::Commands,
) -> Result<Config> {
    if !book_dir.join("book.toml").is_file() {
        anyhow::bail!(
            "`{}` has no book.toml: `--print-config` registers a book, so give the folder its book.toml is in (`mdbook-contract mcp --print-config=HOST BOOK_DIR`)",
            book_dir.display()
        );
    }
    let absolute = crate::util::paths::lexical(&std::path::absolute(book_dir)?);
    let folder = match host {
        Host::Codex => absolute.to_string_lossy().into_owned(),
        Host::Vscode => match committed_folder(book_dir, &absolute).as_str() {
            "." => "${workspaceFolder}".to_owned(),
            folder => format!("${{workspaceFolder}}/{folder}"),
        },
        Host::Json | Host::Claude => committed_folder(book_dir, &absolute),
    };
    let command = env!("CARGO_PKG_NAME").to_owned();
    // `--allow-commands` only where the user asked for it.
    let mut args = vec!["mcp".to_owned()];
    if commands == crate::read::load::Commands::Run {
        args.push("--allow-commands".to_owned());
    }
    args.push(folder);
    let mut text = written(host, &command, &args)?;
    text.push('\n');
    Ok(Config {
        text,
        note: not_on_path(),
    })
}

/// The book's folder from the top of its repository (`.` for the top itself), or from the
/// current folder outside one (absolute when it is not under it).
fn committed_folder(book_dir: &Path, absolute: &Path) -> String {
    let from_top = crate::util::git::in_repository(book_dir).map(|prefix| {
        let prefix = crate::util::paths::slashed(&prefix);
        prefix.trim_end_matches('/').to_owned()
    });
    let folder = from_top.unwrap_or_else(|| {
        let here = std::env::current_dir()
            .map(|d| crate::util::paths::lexical(&d))
            .unwrap_or_default();
        absolute.strip_prefix(&here).map_or_else(
            |_| absolute.to_string_lossy().into_owned(),
            crate::util::paths::slashed,
        )
    });
    if folder.is_empty() {
        ".".to_owned()
    } else {
        folder
    }
}

/// The registration of `command` with `args` in the form `host` reads.
fn written(host: Host, command: &str, args: &[String]) -> Result<String> {
    let server = serde_json::json!({ "command": command, "args": args });
    Ok(match host {
        Host::Json => serde_json::to_string_pretty(
            &serde_json::json!({ "mcpServers": { "mdbook-contract": server } }),
        )?,
        Host::Vscode => serde_json::to_string_pretty(&serde_json::json!({
            "servers": { "mdbook-contract": { "type": "stdio", "command": command, "args": args } }
        }))?,
        Host::Codex => {
            let mut table = toml_edit::Table::new();
            table.insert("command", toml_edit::value(command));
            let list: toml_edit::Array = args.iter().map(String::as_str).collect();
            table.insert("args", toml_edit::value(list));
            let mut servers = toml_edit::Table::new();
            servers.set_implicit(true);
            servers.insert("mdbook-contract", toml_edit::Item::Table(table));
            let mut document = toml_edit::DocumentMut::new();
            document.insert("mcp_servers", toml_edit::Item::Table(servers));
            document.to_string().trim_end().to_owned()
        }
        Host::Claude => format!(
            "claude mcp add mdbook-contract -- {} {}",
            shell_word(command),
            args.iter()
                .map(|a| shell_word(a))
                .collect::<Vec<_>>()
                .join(" ")
        ),
    })
}

/// `word` as a POSIX shell reads it back: as it is when it has nothing the shell would read
/// otherwise, else in single quotes.
fn shell_word(word: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_./:=@%+,".contains(c);
    if !word.is_empty() && word.chars().all(plain) {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// Why a client may not find the command by name: the `PATH` here finds no program called
/// `mdbook-contract`, or another one than this.
fn not_on_path() -> Option<String> {
    let me = std::env::current_exe().ok()?;
    let name = format!("{}{}", env!("CARGO_PKG_NAME"), std::env::consts::EXE_SUFFIX);
    let found = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join(&name))
            .find(|candidate| candidate.is_file())
    });
    let canonical = |p: &PathBuf| std::fs::canonicalize(p).ok();
    match found {
        Some(found) if canonical(&found).is_some() && canonical(&found) == canonical(&me) => None,
        Some(found) => Some(format!(
            "the command is written by name, and the `PATH` here finds `{}`, not this program (`{}`)",
            found.display(),
            me.display()
        )),
        None => Some(format!(
            "the command is written by name, and the `PATH` here finds no `{name}` (this program is `{}`): install it where the client's `PATH` finds it (`cargo install mdbook-contract` puts it in `~/.cargo/bin`)",
            me.display()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::shell_word;

    #[test]
    fn a_shell_word_is_quoted_only_when_the_shell_would_read_it_otherwise() {
        assert_eq!(
            shell_word("/usr/bin/mdbook-contract"),
            "/usr/bin/mdbook-contract"
        );
        assert_eq!(shell_word("/home/me/my book"), "'/home/me/my book'");
        assert_eq!(shell_word("it's"), "'it'\\''s'");
        assert_eq!(shell_word(""), "''");
    }
}
