//! The first stage: the book as read. book.toml's settings (`config`), the book loaded as
//! mdBook hands it over (`load`), each chapter parsed once (`chapter`, `markdown/`) with its
//! shortcodes (`shortcode`) and suppressions (`suppress`), where its text came from
//! (`sourcemap/`), the companions outside the book (`companion`), the source tree and its
//! citations (`source_tree`, `citation`), test results (`results/`), and what an editor's
//! server keeps between checks (`kept`).
//!
//! Nothing here knows axes or rules: it reads text and says where it is.

pub(crate) mod chapter;
pub(crate) mod citation;
pub(crate) mod code;
pub(crate) mod companion;
pub(crate) mod config;
pub(crate) mod kept;
pub(crate) mod load;
pub(crate) mod markdown;
pub(crate) mod reports;
pub(crate) mod results;
pub(crate) mod shortcode;

pub(crate) mod sourcemap;
pub(crate) mod suppress;
