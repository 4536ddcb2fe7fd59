//! The tools the server offers: each one's name, description and input schema, and the call
//! that reads its arguments and answers from the loaded book.
//!
//! Each tool's arguments are read into a type of this module, whose `JsonSchema` derive is the
//! schema `tools/list` gives, so the schema and what is read cannot drift apart. To add a
//! tool: a type for its arguments, an entry in [`list`], a match arm in [`call`] and its
//! answer in `answers/`.

use std::sync::Arc;

use rmcp::model::{JsonObject, Tool, ToolAnnotations};
use schemars::JsonSchema;
use serde::Deserialize;
use serde::de::DeserializeOwned;

use super::answers::{self, Answer, Refusal};
use super::watch::Loaded;

/// `contract_overview` takes no arguments.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Nothing {}

/// `contract_axis`.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct AxisArguments {
    /// The axis's code, as `{{#axis CODE}}` names it (`readiness`).
    pub(crate) code: String,
}

/// `contract_rule`.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct RuleArguments {
    /// The rule's ID (`create.returns-id`); `r[...]` around it and a `+N` version are read
    /// past.
    pub(crate) id: String,
}

/// `contract_provider`.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ProviderArguments {
    /// The provider's name, as its section's heading writes it (`pods`).
    pub(crate) name: String,
}

/// `contract_brief`.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct BriefArguments {
    /// The provider whose spec the brief is written from (`kvm`).
    pub(crate) provider: String,
}

/// `contract_check`.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct CheckArguments {
    /// One file's findings only: its path relative to the book root (`src/contract.md`) or to
    /// the book's source folder (`contract.md`). The whole book's without it.
    #[serde(default)]
    pub(crate) path: Option<String>,
}

/// `contract_uncovered`.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct UncoveredArguments {
    /// One built provider's rules only; every built provider's without it.
    #[serde(default)]
    pub(crate) provider: Option<String>,
}

/// The tools, in the order `tools/list` gives them.
pub(crate) fn list() -> Vec<Tool> {
    vec![
        tool::<Nothing>(
            "contract_overview",
            "The contract at a glance: its axes (question and profiles), the providers and their status, how many rules there are per level, the filled specs with their open entries, and how many findings the book has.",
        ),
        tool::<AxisArguments>(
            "contract_axis",
            "One axis of variation: its question, each profile's meaning, what it obliges and who tolerates it, the rules that apply to each profile, and each provider's claim with its evidence.",
        ),
        tool::<RuleArguments>(
            "contract_rule",
            "One rule: its text, level (MUST, SHOULD, MAY), version and what it applies to; for each built provider whether it binds it, its coverage (verified, passed, failed, implemented, uncovered) and the citation that decides it; and every citation of the rule in the source tree with file and line.",
        ),
        tool::<ProviderArguments>(
            "contract_provider",
            "One provider: its sections and claims, the rules that bind it with their coverage, its spec's open entries, and the next step for it, as `mdbook-contract status` sees it.",
        ),
        tool::<BriefArguments>(
            "contract_brief",
            "The implementation brief for a provider that has a spec, as `mdbook-contract brief` writes it: one self-contained Markdown document (the spec's answers, the contract's obligations for the claimed profiles, the rules to cite in tests).",
        ),
        tool::<CheckArguments>(
            "contract_check",
            "The book's findings, as `mdbook-contract check --format json` gives them (check, severity, file, line, column, message, help), for the whole book or one file.",
        ),
        tool::<UncoveredArguments>(
            "contract_uncovered",
            "The rules that bind a built provider and have no passing test (with test results) or no test citing them (without), per provider, each with its level, text and what cites it so far.",
        ),
    ]
}

/// A read-only tool named `name`, whose arguments are read into `A`.
fn tool<A: JsonSchema + 'static>(name: &'static str, description: &'static str) -> Tool {
    let mut schema: Arc<JsonObject> = rmcp::handler::server::common::schema_for_type::<A>();
    // The title schemars gives is the Rust type's name, which means nothing to a client.
    Arc::make_mut(&mut schema).remove("title");
    let mut tool = Tool::new(name, description, schema);
    let mut annotations = ToolAnnotations::default();
    annotations.read_only_hint = Some(true);
    annotations.idempotent_hint = Some(true);
    annotations.open_world_hint = Some(false);
    tool.annotations = Some(annotations);
    tool
}

/// Whether a tool of that name exists.
pub(crate) fn exists(name: &str) -> bool {
    list().iter().any(|t| t.name == name)
}

/// The names of the tools, for a message.
pub(crate) fn names() -> Vec<String> {
    list().into_iter().map(|t| t.name.into_owned()).collect()
}

/// Answers the call of the tool `name` with `arguments`, from `loaded`.
pub(crate) fn call(name: &str, arguments: JsonObject, loaded: &Loaded) -> Result<Answer, Refusal> {
    match name {
        "contract_overview" => read::<Nothing>(name, arguments).map(|_| answers::overview(loaded)),
        "contract_axis" => answers::axis(loaded, &read::<AxisArguments>(name, arguments)?.code),
        "contract_rule" => answers::rule(loaded, &read::<RuleArguments>(name, arguments)?.id),
        "contract_provider" => {
            answers::provider(loaded, &read::<ProviderArguments>(name, arguments)?.name)
        }
        "contract_brief" => {
            answers::brief(loaded, &read::<BriefArguments>(name, arguments)?.provider)
        }
        "contract_check" => answers::check(
            loaded,
            read::<CheckArguments>(name, arguments)?.path.as_deref(),
        ),
        "contract_uncovered" => answers::uncovered(
            loaded,
            read::<UncoveredArguments>(name, arguments)?
                .provider
                .as_deref(),
        ),
        _ => Err(format!("no tool `{name}`")),
    }
}

/// `arguments` read into `A`, or a sentence on what does not fit the tool's schema.
fn read<A: DeserializeOwned>(tool: &str, arguments: JsonObject) -> Result<A, Refusal> {
    serde_json::from_value(serde_json::Value::Object(arguments))
        .map_err(|e| format!("the arguments of `{tool}` do not fit its input schema: {e}"))
}
