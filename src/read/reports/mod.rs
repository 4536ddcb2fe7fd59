//! Provider reports: the evidence a provider's own repository made (`mdbook-contract report`),
//! read back in the book's (`provider-reports`). `document.rs` is the document, the same types
//! for writing and reading.

pub(crate) mod document;
