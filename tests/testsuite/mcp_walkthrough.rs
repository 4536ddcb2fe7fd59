//! An agent's walkthrough over stdio: a new provider in a copy of this repository's book, from
//! `contract_new_spec` to its first citations, each edit made on disk while one server runs,
//! in at most ten calls. Every answer it acts on says what it needs: the axes and their
//! profiles, the spec written, the entries to answer, the rules that bind once it is answered,
//! and, after the first test file, that three of them are cited by this provider alone.

use serde_json::{Value, json};

use crate::mcp::Session;

/// A session that counts its calls.
struct Agent {
    session: Session,
    calls: usize,
}

impl Agent {
    fn answer(&mut self, tool: &str, arguments: Value) -> Value {
        self.calls += 1;
        self.session.answer(tool, arguments)
    }
}

/// The spec `text` with every entry answered (each axis it asks with the first profile the
/// overview lists for it, and a line of evidence) and its status accepted: what an agent
/// writes after reading the entries.
fn answered(text: &str, overview: &Value) -> String {
    let first_profile = |axis: &str| {
        overview["axes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["code"] == axis)
            .and_then(|a| a["profiles"][0].as_str())
            .unwrap_or_else(|| panic!("no axis `{axis}` in the overview"))
            .to_owned()
    };
    let mut asked = Vec::new();
    let mut out = Vec::new();
    for line in text.lines() {
        let trimmed = line.trim();
        if let Some(axis) = trimmed
            .strip_prefix("{{#answers ")
            .and_then(|r| r.strip_suffix("}}"))
        {
            asked.push(axis.to_owned());
        }
        let line = match trimmed {
            "**Answer:**" => {
                let profiles: String = asked
                    .drain(..)
                    .map(|axis| format!("{{{{#profile {axis} {}}}}} ", first_profile(&axis)))
                    .collect();
                format!("**Answer:** {profiles}As the Hetzner Cloud API v1 does it.")
            }
            "**Evidence:**" => {
                "**Evidence:** the Hetzner Cloud API reference, <https://docs.hetzner.cloud/>."
                    .to_owned()
            }
            _ => line.to_owned(),
        };
        out.push(line);
    }
    out.join("\n")
        .replace("**Status:** draft", "**Status:** accepted")
        + "\n"
}

#[test]
fn a_new_provider_from_its_spec_to_its_first_citations_in_ten_calls() {
    let book = crate::common::repository_copy();
    let root = book.path();
    let mut agent = Agent {
        session: Session::start_as_opened(root),
        calls: 0,
    };

    // 1. The axes and their profiles.
    let overview = agent.answer("contract_overview", json!({}));
    assert!(
        overview["axes"].as_array().unwrap().len() > 10,
        "{overview}"
    );

    // 2. The spec, from the template.
    let made = agent.answer("contract_new_spec", json!({ "name": "hetzner" }));
    let chapter = made["chapter"].as_str().unwrap().to_owned();
    assert_eq!(chapter, "book/hetzner-provider-spec.md", "{made}");

    // 3. What is open.
    let open = agent.answer("contract_provider", json!({ "name": "hetzner" }));
    let entries = open["spec"]["entries"].as_u64().unwrap();
    assert_eq!(open["spec"]["answered"], 0, "{open}");
    assert!(
        open["next"].as_str().unwrap().contains("open entries"),
        "{open}"
    );

    // Edit on disk: every entry answered, the spec accepted.
    let path = root.join(&chapter);
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, answered(&text, &overview)).unwrap();

    // 4. The spec complete, and the rules that bind the provider now.
    let complete = agent.answer("contract_provider", json!({ "name": "hetzner" }));
    assert_eq!(complete["spec"]["answered"], entries, "{complete}");
    assert_eq!(complete["spec"]["status"], "accepted", "{complete}");
    let changed = complete["changed"].to_string();
    assert!(
        changed.contains("the spec of `hetzner` is accepted now"),
        "{changed}"
    );
    let waiting: Vec<String> = complete["rules"]
        .as_array()
        .unwrap()
        .iter()
        // No source is read yet: whether anything cites them is not known.
        .filter(|r| r["status"] == "unknown")
        .map(|r| r["rule"].as_str().unwrap().to_owned())
        .collect();
    assert!(waiting.len() >= 3, "{complete}");
    assert!(
        !complete["rules"].to_string().contains("profile-unknown"),
        "every axis answered: {complete}"
    );

    // Edit on disk: the source tree read from the repository's root, and a first test file in
    // the provider's own folder, citing three of its rules.
    let toml = root.join("book.toml");
    let settings = std::fs::read_to_string(&toml).unwrap();
    assert!(settings.contains("# source-root = \"..\""));
    std::fs::write(
        &toml,
        settings.replace("# source-root = \"..\"", "source-root = \".\""),
    )
    .unwrap();
    let folder = root.join("internal/provider/hetzner");
    std::fs::create_dir_all(&folder).unwrap();
    let mut test = "package hetzner\n\nimport \"testing\"\n".to_owned();
    for (i, rule) in waiting.iter().take(3).enumerate() {
        test.push_str(&format!(
            "\n// r[verify {rule}]\nfunc TestRule{i}(t *testing.T) {{}}\n"
        ));
    }
    std::fs::write(folder.join("hetzner_test.go"), test).unwrap();

    // 5. Its first citations, told as a change.
    let cited = agent.answer("contract_provider", json!({ "name": "hetzner" }));
    let changed = cited["changed"].to_string();
    assert!(
        changed.contains("the source tree is read now")
            && changed.contains(&format!("`hetzner`: r[{}] unknown → verified", waiting[0])),
        "{changed}"
    );
    let verified: Vec<&Value> = cited["rules"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["status"] == "verified")
        .collect();
    assert_eq!(verified.len(), 3, "{cited}");

    // 6. Credited to it alone: the built providers are not verified by its test.
    let rule = agent.answer("contract_rule", json!({ "id": waiting[0] }));
    for provider in rule["providers"].as_array().unwrap() {
        let by_it = provider["citation"]["path"] == "internal/provider/hetzner/hetzner_test.go";
        assert_eq!(provider["provider"] == "hetzner", by_it, "{provider}");
    }

    assert!(agent.calls <= 10, "{} calls", agent.calls);
}
