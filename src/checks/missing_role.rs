//! `missing-role`: book.toml gives no chapter the `contract` or the `template` role while the
//! book defines axes, or a glob of `specs` matches no chapter. Without the roles the checks
//! still run, but some quietly do less: without a contract chapter axes may be defined
//! anywhere and no chapter is kept free of provider names; without a template, no one checks
//! that every axis has an answer site; a spec the glob misses is not checked as a spec. A
//! key that is written but names no chapter is `dangling-path`'s, not reported again here.

use super::{Context, Draft, Place};
use crate::read::code::is_glob;
use crate::util::vocab::Check;

pub(super) fn run(cx: &Context<'_>, out: &mut Vec<Draft>) {
    let mut matched = vec![false; cx.config.specs.len()];
    for (_, chapter) in cx.each_chapter() {
        for i in cx.config.specs_matching(&chapter.key) {
            matched[i] = true;
        }
    }
    for (i, spec) in cx.config.specs.iter().enumerate() {
        // A path without wildcards that names no chapter is `dangling-path`'s.
        if is_glob(spec) && !matched[i] {
            let at = cx.config.item_at("specs", i);
            out.push(
                Draft::at(
                    Check::MissingRole,
                    Place::Config(at.clone()),
                    0..0,
                    format!("`{at}` is `{spec}`, which matches no chapter of the book: nothing is checked as a filled spec by it"),
                )
                .help("spec paths are relative to the book's `src`; `mdbook-contract new-spec TYPE` writes a spec that matches"),
            );
        }
    }
    if cx.model.axes.is_empty() {
        // Not a contract book (yet): the roles mean nothing to it.
        return;
    }
    if cx.config.contract.is_empty() && !cx.config.has_problem_at("contract") {
        out.push(
            Draft::in_config(
                Check::MissingRole,
                "contract",
                "no chapter has the `contract` role: axes are read from every chapter, and no chapter is kept free of provider names (`forbidden-term`) or checked for a MUST that cites no code (`must-cite`)",
            )
            .help(format!(
                "name the chapter that defines the axes: `contract = [\"{}\"]` (paths relative to `src`)",
                cx.chapters[cx.model.axes[0].chapter].key
            )),
        );
    }
    if cx.config.template.is_empty() && !cx.config.has_problem_at("template") {
        out.push(
            Draft::in_config(
                Check::MissingRole,
                "template",
                "no chapter has the `template` role: `missing-answer` does not check that every axis has an answer site, and `{{#answers}}` may stand in any chapter",
            )
            .help(match cx.model.answer_sites.first() {
                Some(site) => format!(
                    "name the questionnaire chapter, the one with the `{{{{#answers}}}}`: `template = [\"{}\"]` (paths relative to `src`)",
                    cx.chapters[site.chapter].key
                ),
                None => "name the questionnaire chapter, where each axis gets its `{{#answers CODE}}`: `template = [\"CHAPTER.md\"]` (paths relative to `src`)".to_owned(),
            }),
        );
    }
}
