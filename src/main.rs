//! The `mdbook-contract` command line: the arguments parsed, and the command they name run
//! (with none, mdBook's preprocessor protocol). Each command's arguments and its run are a
//! file of `cli/`; adding a command is a variant here and a file there.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod cli;

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
    Supports(cli::protocol::SupportsArgs),
    Check(cli::check::CheckArgs),
    NewSpec(cli::new_spec::NewSpecArgs),
    Brief(cli::brief::BriefArgs),
    CarriedOver(cli::carried_over::CarriedOverArgs),
    Diff(cli::diff::DiffArgs),
    Report(cli::report::ReportArgs),
    Export(cli::export::ExportArgs),
    Status(cli::status::StatusArgs),
    Lsp(cli::lsp::LspArgs),
    Mcp(cli::mcp::McpArgs),
    #[command(hide = true)]
    LspArrival(cli::lsp::LspArrivalArgs),
    Install(cli::install::InstallArgs),
    Init(cli::init::InitArgs),
}

fn main() -> ExitCode {
    let parsed = Cli::parse();
    if parsed.no_cache {
        mdbook_contract::without_cache();
    }
    let Some(command) = parsed.command else {
        return cli::protocol::run();
    };
    match command {
        Command::Supports(args) => cli::protocol::supports(args),
        Command::Check(args) => cli::check::run(args),
        Command::NewSpec(args) => cli::new_spec::run(args),
        Command::Brief(args) => cli::brief::run(args),
        Command::CarriedOver(args) => cli::carried_over::run(args),
        Command::Diff(args) => cli::diff::run(args),
        Command::Report(args) => cli::report::run(args),
        Command::Export(args) => cli::export::run(args),
        Command::Status(args) => cli::status::run(args),
        Command::Lsp(args) => cli::lsp::run(args),
        Command::Mcp(args) => cli::mcp::run(args),
        Command::LspArrival(args) => cli::lsp::arrival(args),
        Command::Install(args) => cli::install::run(args),
        Command::Init(args) => cli::init::run(args),
    }
}
