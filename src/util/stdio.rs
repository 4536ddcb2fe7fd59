//! Standard output for a protocol (`mcp`, `lsp`, and the language server's child): the stream
//! the client reads, kept apart from the process's standard output, which from then on is
//! standard error.
//!
//! The book's own preprocessors run in this process's children, and mdBook runs their
//! `supports` with standard output inherited: a preprocessor that prints a word there would
//! write it into the protocol's stream, and the client would fail on it. After
//! [`protocol_stdout`], a child inherits standard error in its place, and so does anything
//! this process prints with `print!`.

use std::io::Write;

/// The process's standard output as a stream of its own, for the protocol, with the process's
/// standard output pointed at standard error from here on. Call it once, before any child runs.
pub fn protocol_stdout() -> std::io::Result<impl Write + Send + 'static> {
    use filedescriptor::{FileDescriptor, StdioDescriptor};
    let stderr = FileDescriptor::dup(&std::io::stderr()).map_err(std::io::Error::other)?;
    let stdout = FileDescriptor::redirect_stdio(&stderr, StdioDescriptor::Stdout)
        .map_err(std::io::Error::other)?;
    Ok(stdout)
}
