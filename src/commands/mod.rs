//! The commands, one file each (a folder for `diff`): mdBook's preprocessor protocol
//! (`preprocessor`, `protocol`), `brief`, `new-spec`, `status`, `carried-over`, `init`,
//! `install`, `export` and `diff`. Each runs the pipeline (or reads the book itself) and shapes
//! what it returns; none is called by a stage of the pipeline. The language server and the MCP
//! server are folders of their own at the top (`lsp/`, `mcp/`).

pub(crate) mod brief;
pub(crate) mod carried_over;
pub(crate) mod diff;
pub(crate) mod export;
pub(crate) mod init;
pub(crate) mod install;
pub(crate) mod new_spec;
pub(crate) mod preprocessor;
pub(crate) mod protocol;
pub(crate) mod provider_report;
pub(crate) mod status;
