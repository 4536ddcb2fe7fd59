//! The diff for people (grouped by level, each change with who must act), as Markdown for a
//! pull request's comment or `$GITHUB_STEP_SUMMARY`, as JSON (the fields of
//! [`ContractDiff`], stable order), and as GitHub annotations at the changed lines of HEAD.

use std::fmt::Write as _;

use super::{Annotated, Change, ContractDiff, Level};
use crate::report::diagnostic::{escape_data, escape_property};
use crate::util::escape::{code_span, markdown_message};
use crate::util::paths::slashed;

/// How to print a diff.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum DiffFormat {
    /// Grouped by level, for a terminal.
    Human,
    /// Markdown, for a pull request or a job summary.
    Markdown,
    /// JSON.
    Json,
    /// GitHub workflow commands, one annotation per change on the HEAD side.
    Github,
}

const LEVELS: [Level; 3] = [Level::Major, Level::Minor, Level::Patch];

fn counts(diff: &ContractDiff) -> String {
    LEVELS
        .iter()
        .map(|l| {
            let n = diff.changes.iter().filter(|c| c.level == *l).count();
            format!("{n} {}", l.as_str())
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The diff in `format`.
pub fn render_diff(diff: &ContractDiff, format: DiffFormat) -> String {
    match format {
        DiffFormat::Json => {
            let mut out = serde_json::to_string_pretty(diff).expect("the diff serialises");
            out.push('\n');
            out
        }
        DiffFormat::Human => human(diff),
        DiffFormat::Markdown => markdown(diff),
        DiffFormat::Github => github(diff),
    }
}

/// The changes of `diff` at `level`, in the order found.
fn at_level(diff: &ContractDiff, level: Level) -> Vec<&Change> {
    diff.changes.iter().filter(|c| c.level == level).collect()
}

/// The error of a version raised less than the diff's level, if it was.
fn version_error(diff: &ContractDiff) -> Option<&String> {
    diff.version.as_ref().and_then(|v| v.error.as_ref())
}

/// For a terminal: the changes by level, then each one's acts by who must take them.
fn human(diff: &ContractDiff) -> String {
    let mut out = String::new();
    if diff.changes.is_empty() {
        let _ = writeln!(
            out,
            "no changes to the contract between `{}` and {}",
            diff.base,
            head(diff)
        );
        return out;
    }
    for level in LEVELS {
        let of = at_level(diff, level);
        if of.is_empty() {
            continue;
        }
        let _ = writeln!(out, "{} ({}):", level.as_str(), of.len());
        for change in of {
            let _ = writeln!(out, "  {}: [{}] {}", change.at, change.kind, change.message);
            for (what, acts) in grouped(change) {
                let who: Vec<String> = acts
                    .iter()
                    .map(|a| format!("{} ({})", a.who, a.at))
                    .collect();
                let _ = writeln!(out, "    {what}: {}", who.join(", "));
            }
        }
    }
    who_must_act(&mut out, diff);
    if let Some(error) = version_error(diff) {
        let _ = writeln!(out, "error[version]: {error}");
    }
    let _ = writeln!(
        out,
        "mdbook-contract: {} from `{}` to {} ({}); the diff is {}",
        crate::util::counted(diff.changes.len(), "change"),
        diff.base,
        head(diff),
        counts(diff),
        diff.level.map_or("none", Level::as_str)
    );
    out
}

/// The acts of every change again, by who must take them: a provider's whole to-do list.
fn who_must_act(out: &mut String, diff: &ContractDiff) {
    let mut by_who: Vec<(&str, Vec<String>)> = Vec::new();
    for change in &diff.changes {
        for act in &change.acts {
            let line = format!("{} ({}; {})", act.what, act.at, change.kind);
            match by_who.iter_mut().find(|(who, _)| *who == act.who) {
                Some((_, lines)) => lines.push(line),
                None => by_who.push((&act.who, vec![line])),
            }
        }
    }
    if by_who.is_empty() {
        return;
    }
    out.push_str("who must act:\n");
    for (who, lines) in by_who {
        let _ = writeln!(out, "  {who}:");
        for line in lines {
            let _ = writeln!(out, "    {line}");
        }
    }
}

/// For a pull request's comment or a job summary: the level and counts, then the changes by
/// level, each with its acts.
fn markdown(diff: &ContractDiff) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "## Contract changes from {} to {}\n",
        code_span(&diff.base),
        markdown_message(&head(diff))
    );
    if diff.changes.is_empty() {
        out.push_str("No changes to the contract.\n");
        return out;
    }
    let _ = writeln!(
        out,
        "The diff is **{}**: {}.\n",
        diff.level.map_or("none", Level::as_str),
        counts(diff)
    );
    if let Some(error) = version_error(diff) {
        let _ = writeln!(out, "> [!CAUTION]\n> {}.\n", markdown_message(error));
    }
    for level in LEVELS {
        let of = at_level(diff, level);
        if of.is_empty() {
            continue;
        }
        let _ = writeln!(out, "### {} ({})\n", level.as_str(), of.len());
        for change in of {
            let _ = writeln!(
                out,
                "- **{}** {}: {}",
                change.kind,
                code_span(&change.at),
                markdown_message(&change.message)
            );
            for (what, acts) in grouped(change) {
                let who: Vec<String> = acts
                    .iter()
                    .map(|a| format!("{} ({})", markdown_message(&a.who), code_span(&a.at)))
                    .collect();
                let _ = writeln!(out, "  - {}: {}", markdown_message(&what), who.join(", "));
            }
        }
        out.push('\n');
    }
    out
}

/// GitHub workflow commands: the version's error, then one annotation per change, at its
/// place in HEAD (or the section that held it, its file, or no file).
fn github(diff: &ContractDiff) -> String {
    let mut out = String::new();
    if let Some(error) = version_error(diff) {
        let _ = writeln!(
            out,
            "::error title=contract version::{}",
            escape_data(error)
        );
    }
    for change in &diff.changes {
        let command = match change.level {
            Level::Major => "error",
            Level::Minor => "warning",
            Level::Patch => "notice",
        };
        let _ = writeln!(
            out,
            "::{command} {}title=contract {}::{}",
            annotation_place(&change.head),
            change.level.as_str(),
            escape_data(&annotation_message(change))
        );
    }
    out
}

/// An annotation's text: the change, where it was when its place is gone, and its acts.
fn annotation_message(change: &Change) -> String {
    let mut message = format!(
        "{} ({}): {}",
        change.kind,
        change.level.as_str(),
        change.message
    );
    if !matches!(change.head, Annotated::At(..)) {
        let _ = write!(message, " (was at {})", change.at);
    }
    for act in &change.acts {
        let _ = write!(message, "; {} at {}: {}", act.who, act.at, act.what);
    }
    message
}

/// An annotation's `file=` and `line=` properties, each followed by its comma.
fn annotation_place(head: &Annotated) -> String {
    match head {
        Annotated::At(path, line) | Annotated::Section(path, line) => {
            format!("file={},line={line},", escape_property(&slashed(path)))
        }
        Annotated::File(path) => format!("file={},", escape_property(&slashed(path))),
        Annotated::Nowhere => String::new(),
    }
}

/// The acts of `change` with the same thing to do, together, in the order met: a rule added
/// reads as one line for every built provider it binds.
fn grouped(change: &Change) -> Vec<(String, Vec<&super::Act>)> {
    let mut groups: Vec<(String, Vec<&super::Act>)> = Vec::new();
    for act in &change.acts {
        match groups.iter_mut().find(|(what, _)| *what == act.what) {
            Some((_, acts)) => acts.push(act),
            None => groups.push((act.what.clone(), vec![act])),
        }
    }
    groups
}

fn head(diff: &ContractDiff) -> String {
    if diff.head == "working tree" {
        "the working tree".to_owned()
    } else {
        format!("`{}`", diff.head)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn github_annotations_escape_the_file_and_the_message() {
        let diff = ContractDiff {
            base: "main".to_owned(),
            head: "working tree".to_owned(),
            level: Some(Level::Minor),
            changes: vec![Change {
                kind: "axis-renamed",
                level: Level::Minor,
                message: "50% done,\nnext: more".to_owned(),
                at: "a,b:c.md:3:1".to_owned(),
                head: Annotated::At(std::path::PathBuf::from("a,b:c.md"), 3),
                base: None,
                acts: Vec::new(),
            }],
            version: None,
            left_out: None,
        };
        assert_eq!(
            render_diff(&diff, DiffFormat::Github),
            "::warning file=a%2Cb%3Ac.md,line=3,title=contract minor::axis-renamed (minor): 50%25 done,%0Anext: more\n"
        );
    }
}
