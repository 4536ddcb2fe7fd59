//! The fourth stage: findings. The checks' drafts at byte ranges become findings at
//! `file:line:col` of the text as written (`resolve`); a report prints in its formats
//! (`diagnostic`, its `ci` for GitHub's annotations and SARIF, and `overview` for the Markdown summary, which needs the model too); the
//! baseline marks the findings it records as known (`baseline`).

pub(crate) mod baseline;
pub(crate) mod diagnostic;
pub(crate) mod overview;
pub(crate) mod resolve;
