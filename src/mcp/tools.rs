//! The tools the server offers: each one's name, title, description, input schema and output
//! schema, and the call that reads its arguments and answers from the loaded book.
//!
//! A tool is one [`def`] in [`defs`]: the type its arguments are read into and the type of its
//! answer are the two type parameters of the function it calls, and their `JsonSchema` derives
//! are the schemas `tools/list` gives, so neither schema can drift from what is read and
//! written. To add a tool: a type for its arguments (its doc comments are the schema's
//! descriptions), an answer type in `answers/`, and a `def` here.

use std::sync::{Arc, OnceLock};

use rmcp::model::{JsonObject, Tool, ToolAnnotations};
use schemars::JsonSchema;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use super::answers::{self, Answer, Refusal};
use super::watch::Loaded;

/// Takes no arguments.
#[derive(serde::Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Nothing {}

/// The axis to describe.
#[derive(serde::Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct AxisArguments {
    /// The axis's code, as `{{#axis CODE}}` names it (`readiness`).
    pub(crate) code: String,
}

/// The rule to describe.
#[derive(serde::Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct RuleArguments {
    /// The rule's ID (`create.returns-id`); `r[...]` around it, a verb and a `+N` version are
    /// read past (`r[verify create.returns-id+2]`).
    pub(crate) id: String,
}

/// Which rules to list; every filter is optional, and all given must hold.
#[derive(serde::Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct RulesArguments {
    /// Rules whose ID starts with this (`publish.`).
    #[serde(default)]
    pub(crate) prefix: Option<String>,
    /// `MUST`, `SHOULD`, `MAY`, or `required` for markers without a keyword.
    #[serde(default)]
    pub(crate) level: Option<String>,
    /// A built provider, or one only a spec describes: each rule's status for it.
    #[serde(default)]
    pub(crate) provider: Option<String>,
    /// Rules with this status (for `provider`, else for any provider): `failed`, `skipped`,
    /// `not-run`, `unattributed`, `unmatched`, `uncovered`, `implemented`, `declared`,
    /// `declared-not-implemented`, `no-report`, `profile-unknown`, `unknown`, `passed`,
    /// `verified`, `optional` or `not-bound`.
    #[serde(default)]
    pub(crate) status: Option<String>,
    /// The `next_cursor` of the previous answer, for the next page.
    #[serde(default)]
    pub(crate) cursor: Option<String>,
}

/// The provider to describe.
#[derive(serde::Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ProviderArguments {
    /// The provider's name, as its section's heading or its spec writes it (`pods`).
    pub(crate) name: String,
    /// The `next_cursor` of the previous answer, for the next page of its rules.
    #[serde(default)]
    pub(crate) cursor: Option<String>,
    /// The most bytes of rules, as JSON, one page holds (24 KiB without it): a smaller page
    /// for a small context.
    #[serde(default)]
    pub(crate) page_size: Option<usize>,
}

/// Whose brief, and which part of it.
#[derive(serde::Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct BriefArguments {
    /// The provider whose spec the brief is written from (`kvm`).
    pub(crate) provider: String,
    /// One section only, by its id as `sections` lists them (`rules`, `profiles`); the
    /// whole brief without it.
    #[serde(default)]
    pub(crate) section: Option<String>,
    /// The `next_cursor` of the previous answer, for the next page.
    #[serde(default)]
    pub(crate) cursor: Option<String>,
    /// The most bytes of Markdown one page holds (24 KiB without it): a smaller page
    /// for a small context.
    #[serde(default)]
    pub(crate) page_size: Option<usize>,
}

/// Whose findings.
#[derive(serde::Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct CheckArguments {
    /// One file's findings only: its path from the repository's root, the book's root
    /// (`src/contract.md`) or the book's source folder (`contract.md`). The whole book's
    /// without it.
    #[serde(default)]
    pub(crate) path: Option<String>,
    /// The `next_cursor` of the previous answer, for the next page.
    #[serde(default)]
    pub(crate) cursor: Option<String>,
    /// The most bytes of findings, as JSON, one page holds (24 KiB, 200 findings at most without it): a smaller page
    /// for a small context.
    #[serde(default)]
    pub(crate) page_size: Option<usize>,
}

/// Whose rules still wait for a test.
#[derive(serde::Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct UncoveredArguments {
    /// One provider's rules only, built or only specified; every built provider's without it.
    #[serde(default)]
    pub(crate) provider: Option<String>,
    /// The `next_cursor` of the previous answer, for the next page.
    #[serde(default)]
    pub(crate) cursor: Option<String>,
    /// The most bytes of rules, as JSON, one page holds (24 KiB without it): a smaller page
    /// for a small context.
    #[serde(default)]
    pub(crate) page_size: Option<usize>,
}

/// The spec to write.
#[derive(serde::Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct NewSpecArguments {
    /// The new provider's type, a DNS-1123 label (`gcs`, `my-backend`).
    pub(crate) name: String,
    /// Where to write the spec, relative to the book's source folder; beside the template as
    /// `<type>-<noun>-spec.md` without it.
    #[serde(default)]
    pub(crate) path: Option<String>,
}

/// The call of a tool: its arguments in, its answer out.
type Call = Box<dyn Fn(JsonObject, &Loaded) -> Result<Answer, Refusal> + Send + Sync>;

/// A tool as `tools/list` gives it, and its call.
pub(crate) struct Def {
    pub(crate) tool: Tool,
    call: Call,
}

/// The tools, in the order `tools/list` gives them.
pub(crate) fn defs() -> &'static [Def] {
    static DEFS: OnceLock<Vec<Def>> = OnceLock::new();
    DEFS.get_or_init(|| {
        vec![
            def("contract_overview", "Contract overview",
                "The contract at a glance: its axes (question and profiles), the providers and their status, how many rules there are per level, the filled specs with their open entries, and how many findings the book has. Start here.",
                Effect::Reads, |l, _: Nothing| Ok(answers::overview(l))),
            def("contract_axis", "One axis",
                "One axis of variation: its question, each profile's meaning, what it obliges and who tolerates it, the rules that apply to each profile, and each provider's claim with its evidence.",
                Effect::Reads, |l, a: AxisArguments| answers::axis(l, &a.code)),
            def("contract_rule", "One rule",
                "One rule: its text, level (MUST, SHOULD, MAY, or required without a keyword), version and what it applies to; for each built provider, and each provider only a spec describes so far, whether it binds it and where it stands (passed, failed, verified, implemented, uncovered...) with the citation that decides it; every citation of the rule in the source tree.",
                Effect::Reads, |l, a: RuleArguments| answers::rule(l, &a.id)),
            def("contract_rules", "List rules",
                "The contract's rules, filtered by ID prefix, level, provider and status (each optional), with each rule's words, place and, for a provider, where it stands; in pages of 100.",
                Effect::Reads, |l, a: RulesArguments| answers::rules(l, &answers::Filter {
                    prefix: a.prefix.as_deref(),
                    level: a.level.as_deref(),
                    provider: a.provider.as_deref(),
                    status: a.status.as_deref(),
                    cursor: a.cursor.as_deref(),
                })),
            def("contract_provider", "One provider",
                "One provider, built, only specified or known by its report: its sections and claims, every rule and where it stands for it in pages of 24 KiB (for a spec, the rules its claimed profiles bind it to and what its own code cites so far), its report, its spec's open entries, and the next step for it.",
                Effect::Reads, |l, a: ProviderArguments| answers::provider(l, &a.name, a.cursor.as_deref(), a.page_size)),
            def("contract_brief", "Implementer's brief",
                "The implementation brief for a provider with a spec, as `mdbook-contract brief` writes it: one self-contained Markdown document (the spec's answers, the obligations of the claimed profiles, the rules to cite in tests, the contract). Written even when the book has errors outside the spec (they are listed in it). Ask for one `section` and page with `cursor`.",
                Effect::Reads, |l, a: BriefArguments| answers::brief(l, &a.provider, a.section.as_deref(), a.cursor.as_deref(), a.page_size)),
            def("contract_check", "Findings",
                "The book's findings, as `mdbook-contract check --format json` gives them (check, severity, path from the repository's root, line, column, message, help), errors first, for the whole book or one file; in pages of 200.",
                Effect::Reads, |l, a: CheckArguments| answers::check(l, a.path.as_deref(), a.cursor.as_deref(), a.page_size)),
            def("contract_uncovered", "Rules waiting for a test",
                "The rules that bind a provider and have no passing test (with test results) or no test citing them (without), a rule its report only declares among them: for every built provider, or for the one named, built or only specified; each with its level, text and what cites it so far; in pages of 24 KiB.",
                Effect::Reads, |l, a: UncoveredArguments| answers::uncovered(l, a.provider.as_deref(), a.cursor.as_deref(), a.page_size)),
            def("contract_new_spec", "Start a provider's spec",
                "Writes the spec of a new provider, as `mdbook-contract new-spec` does: the spec chapter copied from the template, its line in SUMMARY.md, its path in book.toml's `specs`. The only tool that writes files; it refuses, changing nothing, a type that is no DNS label or that has a spec.",
                Effect::Writes, |l, a: NewSpecArguments| answers::new_spec(&l.paths.dir, &l.paths, &l.src, &a.name, a.path.as_deref())),
        ]
    })
}

/// Whether a tool changes anything.
enum Effect {
    Reads,
    Writes,
}

/// The tool `name`, whose arguments are read into `A` and whose answer is an `O`.
fn def<A, O>(
    name: &'static str,
    title: &str,
    description: &'static str,
    effect: Effect,
    call: impl Fn(&Loaded, A) -> Result<O, Refusal> + Send + Sync + 'static,
) -> Def
where
    A: DeserializeOwned + JsonSchema + 'static,
    O: Into<Answer> + OutputSchema,
{
    let mut input: Arc<JsonObject> = rmcp::handler::server::common::schema_for_type::<A>();
    // The title schemars gives is the Rust type's name, which means nothing to a client.
    Arc::make_mut(&mut input).remove("title");
    portable_object(Arc::make_mut(&mut input));
    let mut tool = Tool::new(name, description, input);
    tool.title = Some(title.to_owned());
    tool.output_schema = Some(Arc::new(O::schema()));
    let mut annotations = ToolAnnotations::default();
    annotations.title = Some(title.to_owned());
    let writes = matches!(effect, Effect::Writes);
    annotations.read_only_hint = Some(!writes);
    annotations.destructive_hint = Some(false);
    annotations.idempotent_hint = Some(!writes);
    annotations.open_world_hint = Some(false);
    tool.annotations = Some(annotations);
    let call: Call = Box::new(move |arguments, loaded| {
        let arguments = read::<A>(name, arguments)?;
        call(loaded, arguments).map(Into::into)
    });
    Def { tool, call }
}

/// An answer's output schema: the JSON Schema of its type, with `changed`, which every answer
/// carries.
pub(crate) trait OutputSchema {
    fn schema() -> JsonObject;
}

impl<T: JsonSchema + 'static> OutputSchema for answers::Typed<T> {
    fn schema() -> JsonObject {
        let mut schema: JsonObject =
            (*rmcp::handler::server::common::schema_for_type::<T>()).clone();
        schema.remove("title");
        schema.insert("type".to_owned(), json!("object"));
        let properties = schema
            .entry("properties")
            .or_insert_with(|| Value::Object(JsonObject::new()));
        if let Value::Object(properties) = properties {
            properties.insert(
                "changed".to_owned(),
                json!({
                    "description": "What changed in the book since this client's previous call, one line each: the contract's changes, coverage that moved, findings fixed and new.",
                    "type": "array",
                    "items": { "type": "string" },
                }),
            );
        }
        portable_object(&mut schema);
        schema
    }
}

/// The formats JSON Schema defines: every validator knows them.
const FORMATS: &[&str] = &[
    "date-time",
    "date",
    "time",
    "duration",
    "email",
    "idn-email",
    "hostname",
    "idn-hostname",
    "ipv4",
    "ipv6",
    "uri",
    "uri-reference",
    "iri",
    "iri-reference",
    "uuid",
    "uri-template",
    "json-pointer",
    "relative-json-pointer",
    "regex",
];

/// `schema` as every validator takes it without a warning: a `format` of schemars' own
/// (`uint`, `uint32`, `int64`, `double`; the `minimum` beside it keeps what it said) is taken
/// out, and a `type` array with `null` (`["string", "null"]`) becomes an `anyOf` of each type.
fn portable_object(schema: &mut JsonObject) {
    if schema
        .get("format")
        .and_then(Value::as_str)
        .is_some_and(|f| !FORMATS.contains(&f))
    {
        schema.remove("format");
    }
    if let Some(Value::Array(types)) = schema.get("type").cloned() {
        schema.remove("type");
        let each: Vec<Value> = types.into_iter().map(|t| json!({ "type": t })).collect();
        match schema.remove("anyOf") {
            // Both must hold: the types, and the alternatives already there.
            Some(any) => {
                schema.insert(
                    "allOf".to_owned(),
                    json!([{ "anyOf": each }, { "anyOf": any }]),
                );
            }
            None => {
                schema.insert("anyOf".to_owned(), Value::Array(each));
            }
        }
    }
    for (key, value) in schema.iter_mut() {
        match (key.as_str(), value) {
            // Field names, not keywords: each value is a schema.
            ("properties" | "$defs" | "definitions", Value::Object(fields)) => {
                fields.values_mut().for_each(portable);
            }
            // Values, not schemas.
            ("default" | "const" | "enum" | "examples", _) => {}
            (_, value) => portable(value),
        }
    }
}

/// Each schema within `value` made portable ([`portable_object`]).
fn portable(value: &mut Value) {
    match value {
        Value::Object(schema) => portable_object(schema),
        Value::Array(items) => items.iter_mut().for_each(portable),
        _ => {}
    }
}

/// The tools as `tools/list` gives them.
pub(crate) fn list() -> Vec<Tool> {
    defs().iter().map(|d| d.tool.clone()).collect()
}

/// Whether a tool of that name exists.
pub(crate) fn exists(name: &str) -> bool {
    defs().iter().any(|d| d.tool.name == name)
}

/// The names of the tools, for a message.
pub(crate) fn names() -> Vec<String> {
    defs().iter().map(|d| d.tool.name.to_string()).collect()
}

/// Answers the call of the tool `name` with `arguments`, from `loaded`.
pub(crate) fn call(name: &str, arguments: JsonObject, loaded: &Loaded) -> Result<Answer, Refusal> {
    match defs().iter().find(|d| d.tool.name == name) {
        Some(def) => (def.call)(arguments, loaded),
        None => Err(format!("no tool `{name}`")),
    }
}

/// `arguments` read into `A`, or a sentence on what does not fit the tool's schema.
fn read<A: DeserializeOwned>(tool: &str, arguments: JsonObject) -> Result<A, Refusal> {
    serde_json::from_value(Value::Object(arguments)).map_err(|e| {
        format!(
            "the arguments of `{tool}` do not fit its input schema: {}",
            answers::echoed(&e.to_string())
        )
    })
}

impl<T: Serialize> From<answers::Typed<T>> for Answer {
    fn from(typed: answers::Typed<T>) -> Answer {
        Answer::of(&typed.value, typed.text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_status_filter_names_every_status() {
        let schema = schemars::schema_for!(RulesArguments);
        let said = schema.as_value()["properties"]["status"]["description"]
            .as_str()
            .unwrap()
            .replace('\n', " ");
        for row in &crate::model::rules::status::ROWS {
            assert!(said.contains(&format!("`{}`", row.name)), "{}", row.name);
        }
    }
}
