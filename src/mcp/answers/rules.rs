//! `contract_rules`: the contract's rules, filtered by an ID prefix, a level, a provider and a
//! status, each optional, in pages of [`PAGE`] rules.

use std::fmt::Write as _;

use schemars::JsonSchema;
use serde::Serialize;

use super::{Refusal, Typed, unknown};
use crate::commands::export::{AppliesOut, CitationOut, CoverageOut, PlaceOut, RuleOut};
use crate::mcp::watch::Loaded;
use crate::model::rules::status::{Kind, ROWS};

/// How many rules one answer lists at most.
pub(crate) const PAGE: usize = 100;

/// The levels a filter names: the three keywords, and `required` for a marker without one.
const LEVELS: &[&str] = &["MUST", "SHOULD", "MAY", "required"];

/// What `contract_rules` filters by.
pub(crate) struct Filter<'a> {
    pub(crate) prefix: Option<&'a str>,
    pub(crate) level: Option<&'a str>,
    pub(crate) provider: Option<&'a str>,
    pub(crate) status: Option<&'a str>,
    pub(crate) cursor: Option<&'a str>,
}

/// `contract_rules`'s answer.
#[derive(Serialize, JsonSchema)]
pub(crate) struct RulesAnswer {
    /// How many rules match, on every page.
    matched: usize,
    /// This page's rules, in the contract's order.
    rules: Vec<RuleRow>,
    /// The cursor of the next page; none on the last.
    next_cursor: Option<String>,
}

/// A rule that matched.
#[derive(Serialize, JsonSchema)]
struct RuleRow {
    id: String,
    /// `MUST`, `SHOULD` or `MAY`; none for a marker without a keyword (required, as a MUST).
    level: Option<&'static str>,
    text: String,
    applies: Option<AppliesOut>,
    place: PlaceOut,
    /// With `provider`: where the rule stands for it, and the citation that decides it.
    status: Option<Kind>,
    citation: Option<CitationOut>,
    /// With `status` and no `provider`: the providers whose cell has that status.
    providers: Vec<String>,
}

/// `contract_rules`.
pub(crate) fn rules(loaded: &Loaded, filter: &Filter<'_>) -> Result<Typed<RulesAnswer>, Refusal> {
    let level = filter.level.map(level_of).transpose()?;
    if let Some(status) = filter.status
        && Kind::named(status).is_none()
    {
        return Err(unknown("status", status, ROWS.iter().map(|r| r.name)));
    }
    let columns = columns(loaded, filter.provider)?;
    let matched: Vec<RuleRow> = loaded
        .export
        .rules
        .iter()
        .filter(|r| filter.prefix.is_none_or(|p| r.id.starts_with(p)))
        .filter(|r| level.is_none_or(|l| r.level == l))
        .filter_map(|r| row(r, &columns, filter))
        .collect();
    let start = super::cursor_start(
        filter.cursor,
        |at| at < matched.len(),
        "this list",
        "filters",
    )?;
    let total = matched.len();
    let end = (start + PAGE).min(total);
    let page: Vec<RuleRow> = matched.into_iter().skip(start).take(PAGE).collect();
    let mut text = format!("{} match", crate::util::counted(total, "rule"));
    if total == 1 {
        text.push_str("es");
    }
    for r in &page {
        let _ = write!(text, "\nr[{}] ({}", r.id, r.level.unwrap_or("required"));
        if let Some(status) = r.status {
            let _ = write!(text, ", {status}");
        }
        if !r.providers.is_empty() {
            let _ = write!(text, ", for {}", r.providers.join(", "));
        }
        let _ = write!(text, "): {}", r.text);
    }
    let next_cursor = (end < total).then(|| end.to_string());
    if let Some(next) = &next_cursor {
        let _ = write!(
            text,
            "\n(rules {} to {end}; the next page is `cursor` \"{next}\")",
            start + 1
        );
    }
    let value = RulesAnswer {
        matched: total,
        rules: page,
        next_cursor,
    };
    Ok(Typed::new(value, text))
}

/// The level a filter names (any case), as the export writes it: `None` for `required`.
fn level_of(level: &str) -> Result<Option<&'static str>, Refusal> {
    match LEVELS.iter().find(|l| l.eq_ignore_ascii_case(level)) {
        Some(&"required") => Ok(None),
        Some(&l) => Ok(Some(l)),
        None => Err(unknown("level", level, LEVELS.iter().copied())),
    }
}

/// The providers' cells a row is read from: the one asked for (built or only specified), else
/// every one.
fn columns<'l>(
    loaded: &'l Loaded,
    provider: Option<&str>,
) -> Result<Vec<&'l CoverageOut>, Refusal> {
    let all = loaded.export.coverage.iter().chain(&loaded.pending);
    match provider {
        None => Ok(all.collect()),
        Some(name) => match all.clone().find(|c| c.provider == name) {
            Some(c) => Ok(vec![c]),
            None => Err(unknown(
                "built or specified provider",
                name,
                all.map(|c| c.provider.as_str()),
            )),
        },
    }
}

/// The row of `rule`, when the provider and status filters keep it.
fn row(rule: &RuleOut, columns: &[&CoverageOut], filter: &Filter<'_>) -> Option<RuleRow> {
    let cells: Vec<(&str, &crate::commands::export::CoverageRuleOut)> = columns
        .iter()
        .filter_map(|c| {
            Some((
                c.provider.as_str(),
                c.rules.iter().find(|r| r.rule == rule.id)?,
            ))
        })
        .collect();
    let with_status: Vec<String> = match filter.status {
        Some(status) => cells
            .iter()
            .filter(|(_, cell)| cell.status.name() == status)
            .map(|(p, _)| (*p).to_owned())
            .collect(),
        None => Vec::new(),
    };
    if filter.status.is_some() && with_status.is_empty() {
        return None;
    }
    let own = filter
        .provider
        .and_then(|_| cells.first().map(|(_, cell)| *cell));
    Some(RuleRow {
        id: rule.id.clone(),
        level: rule.level,
        text: rule.text.clone(),
        applies: rule.applies.clone(),
        place: rule.place.clone(),
        status: own.map(|cell| cell.status),
        citation: own.and_then(|cell| cell.citation.clone()),
        providers: if filter.provider.is_none() {
            with_status
        } else {
            Vec::new()
        },
    })
}
