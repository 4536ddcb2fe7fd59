//! `missing-role`: book.toml gives no chapter the `contract` or the `template` role while the
//! book defines axes. Without the roles the checks still run, but some quietly do less: without
//! a contract chapter axes may be defined anywhere and no chapter is kept free of provider
//! names; without a template, no one checks that every axis has an answer site.

use super::{Context, Draft};
use crate::vocab::Check;

pub(super) fn run(cx: &Context<'_>, out: &mut Vec<Draft>) {
    if cx.model.axes.is_empty() {
        // Not a contract book (yet): the roles mean nothing to it.
        return;
    }
    if cx.config.contract.is_empty() {
        out.push(
            Draft::in_config(
                Check::MissingRole,
                "contract",
                "no chapter has the `contract` role: axes are read from every chapter, and no chapter is kept free of provider names (`forbidden-term`) or checked for a MUST that names no caller (`must-cite`)",
            )
            .help("name the chapter that defines the axes: `contract = [\"provider-contract.md\"]` (paths relative to `src`)"),
        );
    }
    if cx.config.template.is_empty() {
        out.push(
            Draft::in_config(
                Check::MissingRole,
                "template",
                "no chapter has the `template` role: `missing-answer` does not check that every axis has an answer site, and `{{#answers}}` may stand in any chapter",
            )
            .help("name the questionnaire chapter: `template = [\"provider-spec-template.md\"]` (paths relative to `src`)"),
        );
    }
}
