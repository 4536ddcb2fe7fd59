//! `mdbook-contract lsp`: the server driven in-process through `lsp_server::Connection::memory`
//! (open, change, completion, hover, definition, references, rename, symbols, UTF-16 and UTF-8
//! positions, a broken book.toml and the recovery), and once end to end over the binary's
//! stdio.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use lsp_server::{Connection, Message, Notification, Request, RequestId};
use serde_json::{Value, json};

use super::common::{Fixture, contract_book};

/// A client on one end of an in-memory connection, the server on a thread at the other.
pub(super) struct Client {
    connection: Connection,
    server: Option<std::thread::JoinHandle<anyhow::Result<()>>>,
    next_id: i32,
    /// The last diagnostics published, by URI.
    pub(super) diagnostics: HashMap<String, Vec<Value>>,
    /// Every publication, in order (URI, count).
    publications: Vec<(String, usize)>,
    /// The server's answer to `initialize`.
    init: Value,
}

pub(super) fn uri(path: &Path) -> String {
    lsp_types::Url::from_file_path(path).unwrap().to_string()
}

impl Client {
    pub(super) fn start(root: &Path, encodings: Option<&[&str]>) -> Client {
        let capabilities = match encodings {
            Some(encodings) => json!({"general": {"positionEncodings": encodings}}),
            None => json!({}),
        };
        Client::start_with(root, capabilities)
    }

    /// A client that says `capabilities` to the server.
    fn start_with(root: &Path, capabilities: Value) -> Client {
        let (client, server) = Connection::memory();
        let thread = std::thread::spawn(move || {
            mdbook_contract::serve_language_server(server, mdbook_contract::Commands::Run)
        });
        let mut client = Client {
            connection: client,
            server: Some(thread),
            next_id: 0,
            diagnostics: HashMap::new(),
            publications: Vec::new(),
            init: Value::Null,
        };
        let answer = client.request(
            "initialize",
            json!({"processId": null, "rootUri": uri(root), "capabilities": capabilities}),
        );
        assert!(
            answer["capabilities"]["renameProvider"].is_object(),
            "{answer}"
        );
        client.init = answer;
        client.notify("initialized", json!({}));
        client
    }

    pub(super) fn notify(&self, method: &str, params: Value) {
        let note = Notification::new(method.to_owned(), params);
        self.connection.sender.send(note.into()).unwrap();
    }

    fn take(&mut self, message: Message) -> Option<lsp_server::Response> {
        match message {
            Message::Notification(n) if n.method == "textDocument/publishDiagnostics" => {
                let uri = n.params["uri"].as_str().unwrap().to_owned();
                let list = n.params["diagnostics"].as_array().unwrap().clone();
                self.publications.push((uri.clone(), list.len()));
                self.diagnostics.insert(uri, list);
                None
            }
            Message::Response(response) => Some(response),
            _ => None,
        }
    }

    /// Sends a request and gives its result (diagnostics published meanwhile are recorded).
    fn request(&mut self, method: &str, params: Value) -> Value {
        match self.try_request(method, params) {
            Ok(value) => value,
            Err(error) => panic!("{method}: {error}"),
        }
    }

    /// Sends a request and gives its result, or its error message.
    fn try_request(&mut self, method: &str, params: Value) -> Result<Value, String> {
        self.next_id += 1;
        let id = RequestId::from(self.next_id);
        let request = Request::new(id.clone(), method.to_owned(), params);
        self.connection.sender.send(request.into()).unwrap();
        loop {
            let message = self
                .connection
                .receiver
                .recv_timeout(Duration::from_secs(20))
                .expect("the server answers");
            if let Some(response) = self.take(message)
                && response.id == id
            {
                return response.response_result.map_err(|error| error.message);
            }
        }
    }

    /// Waits until the diagnostics of `uri` satisfy `done`.
    pub(super) fn wait(&mut self, uri: &str, done: impl Fn(&[Value]) -> bool) -> Vec<Value> {
        let deadline = std::time::Instant::now() + Duration::from_secs(20);
        loop {
            if let Some(list) = self.diagnostics.get(uri)
                && done(list)
            {
                return list.clone();
            }
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            let message = self
                .connection
                .receiver
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("diagnostics of {uri}: {:#?}", self.diagnostics));
            self.take(message);
        }
    }

    pub(super) fn open(&self, path: &Path, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri(path), "languageId": "markdown", "version": 1, "text": text}}),
        );
    }

    fn change(&self, path: &Path, version: i32, text: &str) {
        self.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri(path), "version": version}, "contentChanges": [{"text": text}]}),
        );
    }

    fn at(path: &Path, line: u32, character: u32) -> Value {
        json!({"textDocument": {"uri": uri(path)}, "position": {"line": line, "character": character}})
    }

    pub(super) fn stop(mut self) {
        self.request("shutdown", Value::Null);
        self.notify("exit", Value::Null);
        let result = self
            .server
            .take()
            .unwrap()
            .join()
            .expect("the server thread ends");
        assert!(result.is_ok(), "{result:?}");
    }
}

/// Line and UTF-16 column of the first `needle` in `text`, plus `extra` characters.
fn find(text: &str, needle: &str, extra: u32) -> (u32, u32) {
    let at = text.find(needle).unwrap_or_else(|| panic!("{needle}"));
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line = text[..at].matches('\n').count() as u32;
    let column = text[line_start..at].encode_utf16().count() as u32;
    (line, column + extra)
}

fn book() -> Fixture {
    Fixture::new(&contract_book())
}

#[test]
fn diagnostics_follow_the_edits_across_chapters() {
    let book = book();
    let appendix = book.root().join("src/appendix/existing.md");
    let contract = book.root().join("src/contract.md");
    let mut client = Client::start(book.root(), None);
    let appendix_uri = uri(&appendix);
    // The book as on disk: one warning, the unknown claim of `vms`.
    let list = client.wait(&appendix_uri, |l| l.len() == 1);
    assert_eq!(list[0]["code"], "unknown-claim");
    assert_eq!(list[0]["severity"], 2);
    // A typo, unsaved: an error with its did-you-mean, the check's name as code, the help as
    // related information.
    let text = std::fs::read_to_string(&appendix).unwrap();
    let typo = text.replacen(
        "{{#profile readiness immediate",
        "{{#profile readines immediate",
        1,
    );
    client.open(&appendix, &typo);
    let list = client.wait(&appendix_uri, |l| {
        l.iter().any(|d| d["code"] == "unknown-axis")
    });
    let error = list.iter().find(|d| d["code"] == "unknown-axis").unwrap();
    assert_eq!(error["severity"], 1);
    assert_eq!(error["source"], "mdbook-contract");
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .contains("did you mean `readiness`?"),
        "{error}"
    );
    let (line, column) = find(&typo, "readines immediate", 0);
    assert_eq!(
        error["range"]["start"],
        json!({"line": line, "character": column})
    );
    assert!(
        error["relatedInformation"][0]["message"]
            .as_str()
            .unwrap()
            .starts_with("help: ")
    );
    // The typo fixed; then the contract renames the axis, unsaved: the appendix's claims
    // become errors, and the contract's own chapter is not at fault.
    client.change(&appendix, 2, &text);
    client.wait(&appendix_uri, |l| l.len() == 1);
    let contract_text = std::fs::read_to_string(&contract).unwrap();
    client.open(
        &contract,
        &contract_text.replace("### `readiness` {.axis}", "### `ready` {.axis}"),
    );
    let list = client.wait(&appendix_uri, |l| {
        l.iter().any(|d| d["code"] == "unknown-axis")
    });
    assert!(
        list.iter()
            .filter(|d| d["code"] == "unknown-axis")
            .all(|d| d["message"].as_str().unwrap().contains("`readiness`")),
        "{list:#?}"
    );
    // Closed without saving: the disk's text again.
    client.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": uri(&contract)}}),
    );
    client.wait(&appendix_uri, |l| l.len() == 1);
    // Each file is published again only when its diagnostics change: the template's answer
    // site lost its axis with the rename, and got it back.
    let template_uri = uri(&book.root().join("src/template.md"));
    client.wait(&template_uri, <[Value]>::is_empty);
    let template: Vec<usize> = client
        .publications
        .iter()
        .filter(|(u, _)| *u == template_uri)
        .map(|(_, n)| *n)
        .collect();
    assert_eq!(template, [1, 0]);
    client.stop();
}

#[test]
fn completion_of_codes_profiles_and_check_names() {
    let book = book();
    let chapter = book.root().join("src/extra.md");
    let mut client = Client::start(book.root(), None);
    let text =
        "# Extra\n\nSee {{#axis re\n\n{{#profile create-return \n\n<!-- contract: allow em-\n";
    client.open(&chapter, text);
    let labels = |items: &Value| -> Vec<String> {
        items
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["label"].as_str().unwrap().to_owned())
            .collect()
    };
    let (line, column) = find(text, "{{#axis re", 10);
    let items = client.request(
        "textDocument/completion",
        Client::at(&chapter, line, column),
    );
    assert_eq!(labels(&items), ["readiness", "create-return"]);
    assert_eq!(
        items[0]["textEdit"]["range"],
        json!({"start": {"line": line, "character": column - 2}, "end": {"line": line, "character": column}})
    );
    assert!(
        items[0]["detail"]
            .as_str()
            .unwrap()
            .contains("fresh instance")
    );
    let (line, column) = find(text, "{{#profile create-return ", 25);
    let items = client.request(
        "textDocument/completion",
        Client::at(&chapter, line, column),
    );
    assert_eq!(labels(&items), ["blocking", "submit", "unknown"]);
    let (line, column) = find(text, "allow em-", 9);
    let items = client.request(
        "textDocument/completion",
        Client::at(&chapter, line, column),
    );
    let names = labels(&items);
    assert!(
        names.contains(&"em-dash".to_owned()) && names.len() == mdbook_contract::Check::ALL.len()
    );
    // Right after `{{#`: every shortcode's name, its arguments to type after it (this client
    // takes no snippets), or the closing braces for one without arguments.
    let typed = format!("{text}\nThe {{{{#p\n\n{{{{#rule-m}}}}\n");
    client.open(&chapter, &typed);
    let (line, column) = find(&typed, "The {{#p", 8);
    let items = client.request(
        "textDocument/completion",
        Client::at(&chapter, line, column),
    );
    assert_eq!(
        labels(&items),
        [
            "axis",
            "axis-table",
            "answers",
            "profile",
            "profile-matrix",
            "spec-status",
            "rule",
            "rule-matrix"
        ]
    );
    let profile = &items[3];
    assert_eq!(profile["textEdit"]["newText"], "profile ");
    assert_eq!(profile["detail"], "{{#profile CODE PROFILE EVIDENCE...}}");
    assert_eq!(items[1]["textEdit"]["newText"], "axis-table}}");
    // Braces already there are not doubled.
    let (line, column) = find(&typed, "{{#rule-m", 9);
    let items = client.request(
        "textDocument/completion",
        Client::at(&chapter, line, column),
    );
    assert_eq!(items[7]["textEdit"]["newText"], "rule-matrix");
    // Elsewhere, nothing.
    let items = client.request("textDocument/completion", Client::at(&chapter, 0, 2));
    assert_eq!(items, json!([]));
    client.stop();
}

#[test]
fn shortcode_names_complete_as_snippets_for_a_client_that_takes_them() {
    let book = book();
    let chapter = book.root().join("src/extra.md");
    let mut client = Client::start_with(
        book.root(),
        json!({"textDocument": {"completion": {"completionItem": {"snippetSupport": true}}}}),
    );
    client.open(&chapter, "# Extra\n\n{{#\n");
    let items = client.request("textDocument/completion", Client::at(&chapter, 2, 3));
    let profile = items
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["label"] == "profile")
        .unwrap();
    assert_eq!(
        profile["textEdit"]["newText"],
        "profile ${1:CODE} ${2:PROFILE} ${3:EVIDENCE}}}"
    );
    assert_eq!(profile["insertTextFormat"], 2);
    client.stop();
}

#[test]
fn hover_definition_references_and_symbols() {
    let book = book();
    let root = book.root();
    let appendix = root.join("src/appendix/existing.md");
    let text = std::fs::read_to_string(&appendix).unwrap();
    let mut client = Client::start(root, None);
    let (line, column) = find(&text, "readiness immediate", 3);
    let hover = client.request("textDocument/hover", Client::at(&appendix, line, column));
    let value = hover["contents"]["value"].as_str().unwrap();
    assert!(value.contains("**axis `readiness`**"), "{value}");
    assert!(
        value.contains("When may a fresh instance serve traffic?"),
        "{value}"
    );
    assert!(
        value.contains("- `provisioning-window`: Provisioning for a while"),
        "{value}"
    );
    // The second axis of the chapter has its question too.
    let (cline, ccolumn) = find(&text, "create-return submit", 2);
    let hover = client.request("textDocument/hover", Client::at(&appendix, cline, ccolumn));
    let value = hover["contents"]["value"].as_str().unwrap();
    assert!(value.contains("**axis `create-return`**"), "{value}");
    assert!(value.contains("When does Create return?"), "{value}");
    let (pline, pcolumn) = find(&text, "immediate `newWithClient`", 2);
    let hover = client.request("textDocument/hover", Client::at(&appendix, pline, pcolumn));
    let value = hover["contents"]["value"].as_str().unwrap();
    assert!(
        value.contains("**`immediate`: Running with an IP"),
        "{value}"
    );
    // Definition: the code in the contract's heading.
    let contract = root.join("src/contract.md");
    let contract_text = std::fs::read_to_string(&contract).unwrap();
    let found = client.request(
        "textDocument/definition",
        Client::at(&appendix, line, column),
    );
    let (hline, hcolumn) = find(&contract_text, "readiness` {.axis}", 0);
    assert_eq!(found["uri"], uri(&contract));
    assert_eq!(
        found["range"],
        json!({"start": {"line": hline, "character": hcolumn}, "end": {"line": hline, "character": hcolumn + 9}})
    );
    // References: the heading, the template's answer site, two claims.
    let mut params = Client::at(&appendix, line, column);
    params["context"] = json!({"includeDeclaration": true});
    let refs = client.request("textDocument/references", params.clone());
    let places: Vec<(String, u64)> = refs
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let file = r["uri"]
                .as_str()
                .unwrap()
                .rsplit('/')
                .next()
                .unwrap()
                .to_owned();
            (file, r["range"]["start"]["line"].as_u64().unwrap())
        })
        .collect();
    assert_eq!(
        places,
        [
            ("contract.md".to_owned(), u64::from(hline)),
            ("template.md".to_owned(), 6),
            ("existing.md".to_owned(), 8),
            ("existing.md".to_owned(), 15),
        ]
    );
    params["context"] = json!({"includeDeclaration": false});
    let refs = client.request("textDocument/references", params);
    assert_eq!(refs.as_array().unwrap().len(), 3);
    // Symbols per file.
    let symbols = |client: &mut Client, path: &Path| -> Vec<String> {
        let found = client.request(
            "textDocument/documentSymbol",
            json!({"textDocument": {"uri": uri(path)}}),
        );
        found
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["name"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(
        symbols(&mut client, &contract),
        ["axis readiness", "axis create-return"]
    );
    assert_eq!(
        symbols(&mut client, &appendix),
        ["provider pods", "provider vms"]
    );
    assert_eq!(
        symbols(&mut client, &root.join("src/template.md")),
        Vec::<String>::new(),
        "the fixture's template has no Answer paragraphs, so no entries"
    );
    client.stop();
}

#[test]
fn rename_edits_the_heading_every_shortcode_and_the_links_to_its_id() {
    let mut files = contract_book();
    files.push((
        "src/links.md",
        "# Links\n\nSee [readiness](contract.md#readiness) and {{#axis readiness}}.\n",
    ));
    let book = Fixture::new(&files);
    let root = book.root();
    let appendix = root.join("src/appendix/existing.md");
    let text = std::fs::read_to_string(&appendix).unwrap();
    let mut client = Client::start(root, None);
    let (line, column) = find(&text, "readiness immediate", 1);
    let prepared = client.request(
        "textDocument/prepareRename",
        Client::at(&appendix, line, column),
    );
    assert_eq!(prepared["placeholder"], "readiness");
    let mut params = Client::at(&appendix, line, column);
    params["newName"] = json!("ready-to-serve");
    let edit = client.request("textDocument/rename", params.clone());
    let changes = edit["changes"].as_object().unwrap();
    let count = |file: &str| changes[&uri(&root.join(file))].as_array().unwrap().len();
    assert_eq!(count("src/contract.md"), 1);
    assert_eq!(count("src/template.md"), 1);
    assert_eq!(count("src/appendix/existing.md"), 2);
    assert_eq!(
        count("src/links.md"),
        2,
        "the link's fragment and the shortcode"
    );
    for edits in changes.values() {
        for e in edits.as_array().unwrap() {
            assert_eq!(e["newText"], "ready-to-serve");
        }
    }
    // Applied, the book is as clean as before.
    for (file, edits) in changes {
        let path = lsp_types::Url::parse(file).unwrap().to_file_path().unwrap();
        let mut text = std::fs::read_to_string(&path).unwrap();
        let mut edits: Vec<&Value> = edits.as_array().unwrap().iter().collect();
        edits.sort_by_key(|e| {
            std::cmp::Reverse((
                e["range"]["start"]["line"].as_u64(),
                e["range"]["start"]["character"].as_u64(),
            ))
        });
        for e in edits {
            let (l, c) = (
                e["range"]["start"]["line"].as_u64().unwrap() as usize,
                e["range"]["start"]["character"].as_u64().unwrap() as usize,
            );
            let end = e["range"]["end"]["character"].as_u64().unwrap() as usize;
            let start: usize = text.split_inclusive('\n').take(l).map(str::len).sum();
            text.replace_range(start + c..start + end, "ready-to-serve");
        }
        std::fs::write(&path, text).unwrap();
    }
    let report = book.check();
    assert!(!report.has_errors(), "{report:#?}");
    // Refused: not kebab-case, or taken.
    params["newName"] = json!("Ready_To_Serve");
    let error = client
        .try_request("textDocument/rename", params.clone())
        .unwrap_err();
    assert!(error.contains("is not an axis code"), "{error}");
    client.stop();
    let mut client = Client::start(root, None);
    let text = std::fs::read_to_string(&appendix).unwrap();
    let (line, column) = find(&text, "ready-to-serve immediate", 1);
    let mut params = Client::at(&appendix, line, column);
    params["newName"] = json!("create-return");
    let error = client
        .try_request("textDocument/rename", params)
        .unwrap_err();
    assert_eq!(error, "an axis `create-return` already exists");
    client.stop();
}

#[test]
fn positions_count_utf16_by_default_and_utf8_when_negotiated() {
    let text = "# Extra\n\nÜnïcødé 😀 — {{#axis readines}} here.\n";
    let mut files = contract_book();
    files.push(("src/extra.md", "# Extra\n"));
    let book = Fixture::new(&files);
    let chapter = book.root().join("src/extra.md");
    for (encodings, expected) in [(None, "utf-16"), (Some(&["utf-8", "utf-16"][..]), "utf-8")] {
        let mut client = Client::start(book.root(), encodings);
        assert_eq!(client.init["capabilities"]["positionEncoding"], expected);
        client.open(&chapter, text);
        let list = client.wait(&uri(&chapter), |l| l.len() == 2);
        let at = text.find("readines").unwrap();
        let prefix = &text[text[..at].rfind('\n').unwrap() + 1..at];
        let column = if expected == "utf-8" {
            prefix.len()
        } else {
            prefix.encode_utf16().count()
        } as u64;
        let unknown = list.iter().find(|d| d["code"] == "unknown-axis").unwrap();
        assert_eq!(unknown["range"]["start"]["character"], column, "{expected}");
        assert_eq!(
            unknown["range"]["end"]["character"],
            column + 8,
            "{expected}"
        );
        let dash = list.iter().find(|d| d["code"] == "em-dash").unwrap();
        let dash_at = &text[text[..at].rfind('\n').unwrap() + 1..text.find('—').unwrap()];
        let dash_column = if expected == "utf-8" {
            dash_at.len()
        } else {
            dash_at.encode_utf16().count()
        } as u64;
        assert_eq!(
            dash["range"]["start"]["character"], dash_column,
            "{expected}"
        );
        // A request at that position finds the code.
        let hover = client.request(
            "textDocument/definition",
            Client::at(&chapter, 2, column as u32 + 2),
        );
        assert!(hover.is_null(), "`readines` is no axis: {hover}");
        client.stop();
    }
}

#[test]
fn a_broken_book_toml_is_a_diagnostic_and_the_server_recovers() {
    let book = book();
    let root = book.root();
    let toml_path = root.join("book.toml");
    let toml = std::fs::read_to_string(&toml_path).unwrap();
    let mut client = Client::start(root, None);
    let toml_uri = uri(&toml_path);
    client.wait(&uri(&root.join("src/appendix/existing.md")), |l| {
        l.len() == 1
    });
    // A key of the wrong type, unsaved.
    client.open(
        &toml_path,
        &toml.replace("contract = [\"contract.md\"]", "contract = 3"),
    );
    let list = client.wait(&toml_uri, |l| !l.is_empty());
    assert_eq!(list.len(), 1, "{list:#?}");
    assert_eq!(list[0]["code"], "malformed-config");
    let message = list[0]["message"].as_str().unwrap();
    assert!(
        message.starts_with("`preprocessor.contract.contract` must be"),
        "{message}"
    );
    let key_line = toml
        .lines()
        .position(|l| l.starts_with("contract ="))
        .unwrap() as u64;
    assert_eq!(list[0]["range"]["start"]["line"], key_line);
    assert_eq!(list[0]["range"]["start"]["character"], 11);
    // The book is still checked, without the value: the chapters keep their diagnostics.
    assert_eq!(
        client.diagnostics[&uri(&root.join("src/appendix/existing.md"))].len(),
        1
    );
    // Requests are still answered from the last good check.
    let appendix = root.join("src/appendix/existing.md");
    let text = std::fs::read_to_string(&appendix).unwrap();
    let (line, column) = find(&text, "readiness immediate", 1);
    let found = client.request(
        "textDocument/definition",
        Client::at(&appendix, line, column),
    );
    assert_eq!(found["uri"], uri(&root.join("src/contract.md")));
    // TOML that does not parse.
    client.change(&toml_path, 2, "[book\ntitle = 1\n");
    let list = client.wait(&toml_uri, |l| {
        l.first().is_some_and(|d| {
            d["message"]
                .as_str()
                .unwrap()
                .contains("book.toml could not be read")
        })
    });
    assert_eq!(list.len(), 1);
    // Fixed: the diagnostic goes, the chapters' come back.
    client.change(&toml_path, 3, &toml);
    client.wait(&toml_uri, <[Value]>::is_empty);
    client.wait(&uri(&appendix), |l| l.len() == 1);
    // A chapter SUMMARY.md lists that does not exist is a diagnostic, not a file made.
    std::fs::write(
        root.join("src/SUMMARY.md"),
        format!(
            "{}- [Gone](gone.md)\n",
            std::fs::read_to_string(root.join("src/SUMMARY.md")).unwrap()
        ),
    )
    .unwrap();
    client.notify(
        "textDocument/didSave",
        json!({"textDocument": {"uri": uri(&root.join("src/SUMMARY.md"))}}),
    );
    let list = client.wait(&uri(&root.join("src/SUMMARY.md")), |l| !l.is_empty());
    assert_eq!(list[0]["code"], "missing-chapter", "{list:#?}");
    assert!(
        list[0]["message"].as_str().unwrap().contains("gone.md"),
        "{list:#?}"
    );
    assert!(!root.join("src/gone.md").exists());
    // The rest of the book is still checked: the chapters keep their diagnostics.
    assert_eq!(client.diagnostics[&uri(&appendix)].len(), 1);
    client.stop();
}

/// A client of the binary: `mdbook-contract lsp` as an editor starts it, frames written to its
/// standard input and read from its standard output.
pub(super) struct StdioClient {
    child: std::process::Child,
    input: std::process::ChildStdin,
    /// The server's messages, read from its output on a thread of their own (so that a
    /// server that writes nothing fails the test after a while instead of hanging it); none
    /// once the output ended.
    output: std::sync::mpsc::Receiver<Option<Value>>,
    /// The last diagnostics published, by URI.
    diagnostics: HashMap<String, Vec<Value>>,
    /// Every `window/logMessage` text.
    log: Vec<String>,
}

impl StdioClient {
    /// The server started with `--allow-commands`: the book's own preprocessors run.
    fn spawn() -> StdioClient {
        StdioClient::spawn_with(&[])
    }

    /// [`StdioClient::spawn`] with the extra environment variables `env`.
    fn spawn_with(env: &[(&str, &str)]) -> StdioClient {
        StdioClient::spawn_args(&["lsp", "--allow-commands"], env)
    }

    /// The server as an editor starts it by default: `mdbook-contract lsp`, no command of the
    /// book run.
    pub(super) fn spawn_as_opened() -> StdioClient {
        StdioClient::spawn_args(&["lsp"], &[])
    }

    /// `mdbook-contract ARGS` with the extra environment variables `env`.
    fn spawn_args(args: &[&str], env: &[(&str, &str)]) -> StdioClient {
        let mut child = Command::new(super::common::binary())
            .args(args)
            .envs(env.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let input = child.stdin.take().unwrap();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let (sender, output) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            loop {
                let message = read_message(&mut stdout);
                let end = message.is_none();
                if sender.send(message).is_err() || end {
                    return;
                }
            }
        });
        StdioClient {
            child,
            input,
            output,
            diagnostics: HashMap::new(),
            log: Vec::new(),
        }
    }

    /// Writes `bytes` as they are.
    fn raw(&mut self, bytes: &[u8]) {
        self.input.write_all(bytes).unwrap();
        self.input.flush().unwrap();
    }

    /// Writes one frame whose body is `body`.
    fn frame(&mut self, body: &[u8]) {
        let mut bytes = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
        bytes.extend_from_slice(body);
        self.raw(&bytes);
    }

    fn send(&mut self, message: &Value) {
        self.frame(message.to_string().as_bytes());
    }

    /// Reads one message.
    fn receive(&mut self) -> Value {
        let message = self
            .output
            .recv_timeout(Duration::from_secs(60))
            .unwrap_or_else(|_| {
                panic!(
                    "no message from the server for a minute; diagnostics: {:#?}",
                    self.diagnostics
                )
            });
        let message = message.expect("the server closed its output");
        assert_eq!(message["jsonrpc"], "2.0", "{message}");
        match message["method"].as_str() {
            Some("textDocument/publishDiagnostics") => {
                let uri = message["params"]["uri"].as_str().unwrap().to_owned();
                let list = message["params"]["diagnostics"].as_array().unwrap().clone();
                self.diagnostics.insert(uri, list);
            }
            Some("window/logMessage") => {
                let text = message["params"]["message"].as_str().unwrap().to_owned();
                self.log.push(text);
            }
            _ => {}
        }
        message
    }

    /// Reads messages until one that is not a notification: a response.
    fn response(&mut self) -> Value {
        loop {
            let message = self.receive();
            if message.get("method").is_none() {
                return message;
            }
        }
    }

    /// Reads messages until the diagnostics of `uri` satisfy `done`.
    pub(super) fn wait(&mut self, uri: &str, done: impl Fn(&[Value]) -> bool) -> Vec<Value> {
        loop {
            if let Some(list) = self.diagnostics.get(uri)
                && done(list)
            {
                return list.clone();
            }
            self.receive();
        }
    }

    pub(super) fn initialize(&mut self, root: &Path) -> Value {
        self.send(&json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"processId": null, "rootUri": uri(root), "capabilities": {}}}));
        let answer = self.response();
        self.send(&json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}));
        answer
    }

    /// Shuts the server down and waits for it: its exit status and what it wrote to stderr.
    pub(super) fn stop(mut self) -> (std::process::ExitStatus, String) {
        self.send(&json!({"jsonrpc": "2.0", "id": "bye", "method": "shutdown", "params": null}));
        let answer = self.response();
        assert_eq!(answer["id"], "bye", "{answer}");
        self.send(&json!({"jsonrpc": "2.0", "method": "exit", "params": null}));
        self.finish()
    }

    /// Waits for the server to end by itself.
    fn finish(self) -> (std::process::ExitStatus, String) {
        drop(self.input);
        let out = self.child.wait_with_output().unwrap();
        (
            out.status,
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }
}

/// One message of `output`, or none when it ends (or is no frame of JSON).
fn read_message(output: &mut impl BufRead) -> Option<Value> {
    let mut length = 0;
    loop {
        let mut line = String::new();
        if output.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(n) = line.strip_prefix("Content-Length: ") {
            length = n.parse().ok()?;
        }
    }
    let mut body = vec![0; length];
    std::io::Read::read_exact(output, &mut body).ok()?;
    serde_json::from_slice(&body).ok()
}

#[test]
fn the_binary_speaks_lsp_over_stdio() {
    let book = book();
    let mut client = StdioClient::spawn();
    let answer = client.initialize(book.root());
    assert_eq!(answer["id"], 1);
    assert_eq!(answer["result"]["serverInfo"]["name"], "mdbook-contract");
    let appendix = uri(&book.root().join("src/appendix/existing.md"));
    let list = client.wait(&appendix, |l| !l.is_empty());
    assert_eq!(list[0]["code"], "unknown-claim");
    let (status, stderr) = client.stop();
    assert!(status.success(), "{status}: {stderr}");
}

#[test]
fn a_preprocessor_that_prints_on_stdout_leaves_the_stream_alone() {
    // mdBook runs a preprocessor's `supports` with stdout inherited: this one prints there, in
    // the language server's child that runs the book's own preprocessors.
    let book = super::broker::broker(&[("mermaid.py", &|t: &str| {
        t.replace(
            "if len(sys.argv) > 1 and sys.argv[1] == \"supports\":\n    sys.exit(0)\n",
            "if len(sys.argv) > 1 and sys.argv[1] == \"supports\":\n    print(\"PP-STDOUT\", flush=True)\n    sys.exit(0)\n",
        )
    })]);
    assert!(
        std::fs::read_to_string(book.root().join("mermaid.py"))
            .unwrap()
            .contains("PP-STDOUT")
    );
    let mut client = StdioClient::spawn();
    client.initialize(book.root());
    let spec = uri(&book.root().join("src/redis-streams-adapter-spec.md"));
    let list = client.wait(&spec, |l| !l.is_empty());
    assert!(
        list.iter().all(|d| d["code"] == "unanswered-entry"),
        "{list:#?}"
    );
    let (status, stderr) = client.stop();
    assert!(status.success(), "{status}: {stderr}");
}

#[test]
fn a_wide_space_and_a_failing_check_are_diagnostics_not_a_dead_server() {
    // U+00A0 before a file reference: the check that cut there panicked before.
    let book = Fixture::new(&[
        ("src/contract.md", super::common::CONTRACT),
        ("src/template.md", super::common::TEMPLATE),
        (
            "src/notes.md",
            "# Notes\n\nSee the write path and\u{a0}backend.go:42.\n",
        ),
    ]);
    let notes = uri(&book.root().join("src/notes.md"));
    let mut client = StdioClient::spawn();
    client.initialize(book.root());
    let list = client.wait(&notes, |l| !l.is_empty());
    assert_eq!(list[0]["code"], "line-reference", "{list:#?}");
    assert_eq!(
        list[0]["range"]["start"],
        json!({"line": 2, "character": 23})
    );
    let (status, stderr) = client.stop();
    assert!(status.success(), "{status}: {stderr}");

    // A check that fails: its diagnostic, and the other checks' diagnostics beside it.
    let book = super::common::Fixture::new(&contract_book());
    let contract = uri(&book.root().join("src/contract.md"));
    let appendix = uri(&book.root().join("src/appendix/existing.md"));
    let mut client = StdioClient::spawn_with(&[("MDBOOK_CONTRACT_FAULT", "em-dash")]);
    client.initialize(book.root());
    let list = client.wait(&contract, |l| !l.is_empty());
    assert_eq!(list[0]["code"], "internal-error", "{list:#?}");
    assert!(list[0]["message"].as_str().unwrap().contains("`em-dash`"));
    let list = client.wait(&appendix, |l| !l.is_empty());
    assert_eq!(list[0]["code"], "unknown-claim", "{list:#?}");
    let (status, stderr) = client.stop();
    assert!(status.success(), "{status}: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// The process ids the fake preprocessor of `rewritten.rs` noted, one per run.
#[cfg(unix)]
fn fake_runs(root: &Path) -> Vec<u32> {
    std::fs::read_to_string(root.join("runs.txt"))
        .unwrap_or_default()
        .lines()
        .map(|l| l.parse().unwrap())
        .collect()
}

/// `(check, line, character)` of each diagnostic, 0-based as LSP counts.
fn placed(list: &[Value]) -> Vec<(String, u64, u64)> {
    let mut placed: Vec<(String, u64, u64)> = list
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_owned(),
                d["range"]["start"]["line"].as_u64().unwrap(),
                d["range"]["start"]["character"].as_u64().unwrap(),
            )
        })
        .collect();
    placed.sort();
    placed
}

// The book's fake preprocessor is a Python script (`rewritten.rs`).
#[cfg(unix)]
#[test]
fn the_books_own_preprocessors_run_on_save_not_per_keystroke() {
    let book = super::rewritten::book();
    let path = book.root().join("src/storage.md");
    let chapter = uri(&path);
    let mut client = StdioClient::spawn();
    client.initialize(book.root());
    // The first run's diagnostics are `check`'s, at the places as written.
    let list = client.wait(&chapter, |l| l.len() == 3);
    let expected = vec![
        ("dangling-link".to_owned(), 7, 4),
        ("em-dash".to_owned(), 2, 0),
        ("em-dash".to_owned(), 6, 5),
    ];
    assert_eq!(placed(&list), expected, "{list:#?}");
    let (_, stdout, _) = super::common::run_in(book.root(), &["check", "--format", "json"]);
    assert_eq!(
        super::common::json_positions(&stdout, "em-dash"),
        ["src/storage.md:3:1", "src/storage.md:7:6"]
    );
    let runs = fake_runs(book.root()).len();
    assert!(runs >= 2, "the server's run and `check`'s: {runs}");

    // Typing: no run per keystroke. A typed em-dash in prose, of a kind of line the
    // preprocessor's last run rewrote nowhere, shows at once; the findings on other lines
    // stay, where they now are.
    client.send(&json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": chapter, "languageId": "markdown", "version": 1, "text": super::rewritten::CHAPTER}}}));
    let typed =
        super::rewritten::CHAPTER.replace("REMOVE ME\n", "REMOVE ME\nTyped \u{2014} here.\n\n");
    for version in 2..6 {
        client.send(&json!({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {"textDocument": {"uri": chapter, "version": version}, "contentChanges": [{"text": typed}]}}));
    }
    let list = client.wait(&chapter, |l| {
        placed(l)
            .iter()
            .any(|(c, line, _)| c == "em-dash" && *line == 8)
    });
    assert_eq!(
        placed(&list),
        vec![
            ("dangling-link".to_owned(), 9, 4),
            ("em-dash".to_owned(), 2, 0),
            ("em-dash".to_owned(), 6, 6),
            ("em-dash".to_owned(), 8, 5),
        ],
        "{list:#?}"
    );
    assert_eq!(fake_runs(book.root()).len(), runs, "no run while typing");

    // Saved: the run comes back, and nothing shown while typing vanishes.
    let typing = placed(&list);
    std::fs::write(&path, &typed).unwrap();
    client.send(&json!({"jsonrpc": "2.0", "method": "textDocument/didSave", "params": {"textDocument": {"uri": chapter}}}));
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while fake_runs(book.root()).len() < runs + 1 && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert_eq!(fake_runs(book.root()).len(), runs + 1);
    // The run's result is taken in before a request that comes after it is answered.
    std::thread::sleep(std::time::Duration::from_millis(500));
    client.send(&json!({"jsonrpc": "2.0", "id": 7, "method": "textDocument/documentSymbol", "params": {"textDocument": {"uri": chapter}}}));
    client.response();
    assert_eq!(placed(&client.diagnostics[&chapter]), typing);
    let (status, stderr) = client.stop();
    assert!(status.success(), "{status}: {stderr}");
}

// The book's fake preprocessor is a Python script (`rewritten.rs`).
#[cfg(unix)]
#[test]
fn a_run_for_an_older_save_is_ended_with_its_processes() {
    let book = super::rewritten::book();
    let path = book.root().join("src/storage.md");
    let chapter = uri(&path);
    let mut client = StdioClient::spawn();
    client.initialize(book.root());
    client.wait(&chapter, |l| l.len() == 3);
    let before = fake_runs(book.root()).len();
    // A save that makes the fake sleep for a minute, then one that does not.
    let slow = format!("{}\nSLOW\n", super::rewritten::CHAPTER);
    client.send(&json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": chapter, "languageId": "markdown", "version": 1, "text": slow}}}));
    client.send(&json!({"jsonrpc": "2.0", "method": "textDocument/didSave", "params": {"textDocument": {"uri": chapter}}}));
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while fake_runs(book.root()).len() == before {
        assert!(std::time::Instant::now() < deadline, "the slow run started");
        std::thread::sleep(Duration::from_millis(20));
    }
    let sleeping = *fake_runs(book.root()).last().unwrap();
    let fixed = super::rewritten::CHAPTER.replace("Keep \u{2014} this.", "Keep this.");
    client.send(&json!({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {"textDocument": {"uri": chapter, "version": 2}, "contentChanges": [{"text": fixed}]}}));
    client.send(&json!({"jsonrpc": "2.0", "method": "textDocument/didSave", "params": {"textDocument": {"uri": chapter}}}));
    // The newest save's run answers (the fixed em-dash is gone), well before the minute.
    let list = client.wait(&chapter, |l| l.len() == 2);
    assert_eq!(
        placed(&list),
        vec![
            ("dangling-link".to_owned(), 7, 4),
            ("em-dash".to_owned(), 2, 0)
        ]
    );
    // The sleeping preprocessor was ended, not left behind.
    let gone = std::time::Instant::now() + Duration::from_secs(10);
    while running(sleeping) {
        assert!(
            std::time::Instant::now() < gone,
            "process {sleeping} still runs"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let (status, stderr) = client.stop();
    assert!(status.success(), "{status}: {stderr}");
}

/// Whether the process `pid` still runs: `kill -0` signals nothing and succeeds while it
/// does (on Linux and macOS alike, where `/proc` is not).
#[cfg(unix)]
fn running(pid: u32) -> bool {
    Command::new("kill")
        .args(["-0", &pid.to_string()])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success())
}

#[test]
fn one_bad_message_costs_one_error_reply_not_the_server() {
    let book = book();
    let appendix_path = book.root().join("src/appendix/existing.md");
    let appendix = uri(&appendix_path);
    let mut client = StdioClient::spawn();
    // Before the handshake: a body that is not JSON gets a ParseError with a null id.
    client.frame(b"{not json");
    let reply = client.response();
    assert_eq!(reply["error"]["code"], -32700, "{reply}");
    assert_eq!(reply["id"], Value::Null);
    assert!(
        reply["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("the message is not JSON"),
        "{reply}"
    );
    // A request before `initialize` is told so; the server goes on waiting for it.
    client.send(&json!({"jsonrpc": "2.0", "id": 0, "method": "textDocument/hover", "params": {}}));
    assert_eq!(client.response()["error"]["code"], -32002);
    let answer = client.initialize(book.root());
    assert_eq!(answer["result"]["serverInfo"]["name"], "mdbook-contract");
    client.wait(&appendix, |l| l.len() == 1);
    // JSON that is not a message, with and without an id to answer; bytes that are not UTF-8.
    for (body, code, id) in [
        (
            &br#"[{"jsonrpc": "2.0", "method": "initialized"}]"#[..],
            -32600,
            Value::Null,
        ),
        (br#"{"jsonrpc": "2.0", "id": 7}"#, -32600, json!(7)),
        (
            br#"{"jsonrpc": "2.0", "id": "x", "method": 3}"#,
            -32600,
            json!("x"),
        ),
        (br#"42"#, -32600, Value::Null),
        (b"\xff\xfe{}", -32700, Value::Null),
        (b"", -32700, Value::Null),
    ] {
        client.frame(body);
        let reply = client.response();
        assert_eq!(reply["error"]["code"], code, "{reply}");
        assert_eq!(reply["id"], id, "{reply}");
    }
    // A notification whose parameters cannot be read is told in the editor's log.
    client.send(&json!({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {"textDocument": 5}}));
    // A request whose parameters cannot be read gets InvalidParams.
    client.send(&json!({"jsonrpc": "2.0", "id": 8, "method": "textDocument/hover", "params": {"position": "here"}}));
    let reply = client.response();
    assert_eq!(
        (reply["id"].clone(), reply["error"]["code"].clone()),
        (json!(8), json!(-32602))
    );
    assert!(
        client
            .log
            .iter()
            .any(|l| l.contains("`textDocument/didChange` was not taken")),
        "{:?}",
        client.log
    );
    // And the server still sees every edit.
    let text = std::fs::read_to_string(&appendix_path).unwrap();
    let typo = text.replacen(
        "{{#profile readiness immediate",
        "{{#profile readines immediate",
        1,
    );
    client.send(&json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": appendix, "languageId": "markdown", "version": 1, "text": typo}}}));
    client.wait(&appendix, |l| l.iter().any(|d| d["code"] == "unknown-axis"));
    let (status, stderr) = client.stop();
    assert!(status.success(), "{status}: {stderr}");
    assert_eq!(stderr, "");
}

#[test]
fn a_header_that_cannot_be_read_ends_the_server_with_a_sentence() {
    for (input, says) in [
        (
            &b"Content-Lenght: 9\r\n\r\n{not json"[..],
            "a message's header (`Content-Lenght: 9`) has no `Content-Length`",
        ),
        (
            b"Content-Length: nine\r\n\r\n{not json",
            "`Content-Length` is `nine`, not a number of bytes",
        ),
        (
            b"Content-Length: 90\r\n\r\n{}",
            "the input ended inside a message: `Content-Length` is 90, but 2 bytes came",
        ),
    ] {
        let mut client = StdioClient::spawn();
        client.raw(input);
        let (status, stderr) = client.finish();
        assert_eq!(status.code(), Some(1), "{stderr}");
        assert!(stderr.starts_with("mdbook-contract lsp: "), "{stderr}");
        assert!(stderr.contains(says), "{stderr}");
        assert!(
            stderr.contains("cannot tell where the next message starts"),
            "{stderr}"
        );
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
    }
}

#[test]
fn a_burst_of_edits_and_a_five_megabyte_chapter() {
    let book = book();
    let appendix_path = book.root().join("src/appendix/existing.md");
    let appendix = uri(&appendix_path);
    let text = std::fs::read_to_string(&appendix_path).unwrap();
    let mut client = StdioClient::spawn();
    client.initialize(book.root());
    client.wait(&appendix, |l| l.len() == 1);
    client.send(&json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": appendix, "languageId": "markdown", "version": 1, "text": text}}}));
    // 150 edits as fast as they can be written, as a typist's editor sends them; the last
    // one holds a typo. The diagnostics after them are those of the last text.
    for version in 2..=151 {
        let edited = if version == 151 {
            text.replacen(
                "{{#profile readiness immediate",
                "{{#profile readines immediate",
                1,
            )
        } else {
            format!("{text}\nEdit {version}.\n")
        };
        client.send(&json!({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {"textDocument": {"uri": appendix, "version": version}, "contentChanges": [{"text": edited}]}}));
    }
    client.send(&json!({"jsonrpc": "2.0", "id": 2, "method": "textDocument/documentSymbol", "params": {"textDocument": {"uri": appendix}}}));
    let symbols = client.response();
    assert_eq!(symbols["id"], 2);
    assert!(
        symbols["result"].as_array().is_some_and(|s| !s.is_empty()),
        "{symbols}"
    );
    let list = client.wait(&appendix, |l| l.iter().any(|d| d["code"] == "unknown-axis"));
    assert!(list.iter().all(|d| d["code"] != "em-dash"), "{list:#?}");
    // A 5 MB chapter: prose paragraphs, with one em-dash on its last line.
    let paragraph = "The provider answers every call within its window, and the caller requeues when it does not.\n\n";
    let mut big = text.clone();
    while big.len() < 5 * 1024 * 1024 {
        big.push_str(paragraph);
    }
    big.push_str("Last line \u{2014} here.\n");
    let last_line = big.lines().count() - 1;
    client.send(&json!({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {"textDocument": {"uri": appendix, "version": 152}, "contentChanges": [{"text": big}]}}));
    let list = client.wait(&appendix, |l| l.iter().any(|d| d["code"] == "em-dash"));
    let dash = list.iter().find(|d| d["code"] == "em-dash").unwrap();
    assert_eq!(dash["range"]["start"]["line"], last_line as u64, "{dash}");
    // Still answering, and still taking edits.
    client.send(&json!({"jsonrpc": "2.0", "id": 3, "method": "textDocument/hover", "params": Client::at(&appendix_path, 0, 0)}));
    assert_eq!(client.response()["id"], 3);
    client.send(&json!({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {"textDocument": {"uri": appendix, "version": 153}, "contentChanges": [{"text": text}]}}));
    client.wait(&appendix, |l| {
        l.len() == 1 && l[0]["code"] == "unknown-claim"
    });
    let (status, stderr) = client.stop();
    assert!(status.success(), "{status}: {stderr}");
}

/// An unsaved book.toml naming a companion that does not exist, through the binary: the
/// error is on book.toml at the item, and the chapters and the other companions keep theirs.
#[test]
fn a_missing_companion_is_a_diagnostic_on_book_toml_and_nothing_else_is_lost() {
    let repo = super::beyond::operator_repo();
    let root = repo.path();
    let readme = uri(&root.join("README.md"));
    let toml_path = root.join("book.toml");
    let toml = std::fs::read_to_string(&toml_path).unwrap();
    let mut client = StdioClient::spawn();
    client.initialize(root);
    client.wait(&readme, |l| l.len() == 1);
    let edited = toml.replace("\"CLAUDE.md\"", "\"MISSING.md\"");
    client.send(&json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": uri(&toml_path), "languageId": "toml", "version": 1, "text": edited}}}));
    let list = client.wait(&uri(&toml_path), |l| !l.is_empty());
    assert_eq!(list.len(), 1, "{list:#?}");
    assert_eq!(list[0]["code"], "dangling-path");
    assert_eq!(list[0]["severity"], 1);
    assert_eq!(
        list[0]["message"],
        "`preprocessor.contract.companions[1]` is `MISSING.md`, which does not exist: there is \
         no `MISSING.md` in `{root}`, the folder of book.toml"
            .replace("{root}", &mdbook_contract::slashed(root))
    );
    let line = toml
        .lines()
        .position(|l| l.starts_with("companions"))
        .unwrap();
    assert_eq!(
        list[0]["range"]["start"],
        json!({"line": line, "character": 27})
    );
    assert_eq!(
        list[0]["range"]["end"],
        json!({"line": line, "character": 39})
    );
    // The README, a companion that exists, keeps its em-dash.
    let kept = &client.diagnostics[&readme];
    assert_eq!(kept.len(), 1, "{kept:#?}");
    assert_eq!(kept[0]["code"], "em-dash");
    // Put right, the diagnostic goes.
    client.send(&json!({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {"textDocument": {"uri": uri(&toml_path), "version": 2}, "contentChanges": [{"text": toml}]}}));
    client.wait(&uri(&toml_path), <[Value]>::is_empty);
    let (status, stderr) = client.stop();
    assert!(status.success(), "{status}: {stderr}");
}

/// An editor's untitled buffer is in no book: requests on it get an empty answer, not an
/// error an editor would show, and opening it changes nothing.
#[test]
fn an_untitled_buffer_gets_empty_answers() {
    let book = book();
    let mut client = StdioClient::spawn();
    client.initialize(book.root());
    let appendix = uri(&book.root().join("src/appendix/existing.md"));
    client.wait(&appendix, |l| l.len() == 1);
    let untitled = "untitled:Untitled-1";
    client.send(&json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": untitled, "languageId": "markdown", "version": 1, "text": "{{#axis readines}} \u{2014}\n"}}}));
    let at = json!({"textDocument": {"uri": untitled}, "position": {"line": 0, "character": 9}});
    for (id, method) in [
        (2, "textDocument/hover"),
        (3, "textDocument/definition"),
        (4, "textDocument/completion"),
        (5, "textDocument/documentSymbol"),
    ] {
        client.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": at}));
        let reply = client.response();
        assert_eq!(reply["id"], id, "{reply}");
        assert_eq!(reply["result"], Value::Null, "{method}: {reply}");
        assert!(reply.get("error").is_none(), "{method}: {reply}");
    }
    assert!(!client.diagnostics.contains_key(untitled));
    assert_eq!(client.diagnostics[&appendix].len(), 1);
    let (status, stderr) = client.stop();
    assert!(status.success(), "{status}: {stderr}");
}

#[test]
fn companions_get_their_diagnostics_from_the_unsaved_text() {
    let repo = super::beyond::operator_repo();
    let root = repo.path();
    let readme = root.join("README.md");
    let mut client = Client::start(root, None);
    // On disk, the README's old tagline has an em-dash.
    let list = client.wait(&uri(&readme), |l| l.len() == 1);
    assert_eq!(list[0]["code"], "em-dash");
    assert_eq!(list[0]["range"]["start"]["line"], 2);
    let text = std::fs::read_to_string(&readme).unwrap();
    let edited = text.replace(" \u{2014} ", ": ") + "\nSee [gone](docs/gone.md).\n";
    client.open(&readme, &edited);
    let list = client.wait(&uri(&readme), |l| {
        l.len() == 1 && l[0]["code"] == "dangling-link"
    });
    assert_eq!(list[0]["range"]["start"]["line"], 16);
    client.stop();
}

#[test]
fn rules_have_hover_definition_references_completion_and_rename() {
    let book = super::rules::rules_book();
    let root = book.root();
    let contract = root.join("src/contract.md");
    let text = std::fs::read_to_string(&contract).unwrap();
    let mut client = Client::start(root, None);
    // On the `{{#rule}}`: the rule's text, level and coverage per built provider.
    let (line, column) = find(&text, "{{#rule create.idempotent}}", 9);
    let hover = client.request("textDocument/hover", Client::at(&contract, line, column));
    let value = hover["contents"]["value"].as_str().unwrap();
    assert!(
        value.starts_with("**rule `create.idempotent`** (MUST)"),
        "{value}"
    );
    assert!(
        value.contains("Create MUST be idempotent by name"),
        "{value}"
    );
    assert!(
        value.contains("Coverage: `pods` verified, `vms` implemented"),
        "{value}"
    );
    let at = client.request(
        "textDocument/definition",
        Client::at(&contract, line, column),
    );
    assert_eq!(at["range"]["start"], json!({"line": 6, "character": 2}));
    // References: the marker, the shortcode and the citations in code.
    let mut params = Client::at(&contract, line, column);
    params["context"] = json!({"includeDeclaration": true});
    let found = client.request("textDocument/references", params);
    let mut places: Vec<String> = found
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            let path = lsp_types::Url::parse(l["uri"].as_str().unwrap())
                .unwrap()
                .to_file_path()
                .unwrap();
            format!(
                "{}:{}:{}",
                mdbook_contract::slashed(path.strip_prefix(root).unwrap()),
                l["range"]["start"]["line"],
                l["range"]["start"]["character"]
            )
        })
        .collect();
    places.sort();
    assert_eq!(
        places,
        [
            "repo/internal/provider/pods/pods_test.go:2:12",
            "repo/internal/provider/vms/vms.go:2:10",
            "src/contract.md:37:12",
            "src/contract.md:6:2"
        ]
    );
    // On a citation in code: the rule, and the test the citation stands in.
    let go = root.join("repo/internal/provider/pods/pods_test.go");
    let hover = client.request("textDocument/hover", Client::at(&go, 2, 14));
    let value = hover["contents"]["value"].as_str().unwrap();
    assert!(
        value.starts_with("**rule `create.idempotent`**")
            && value.ends_with("This citation verifies the rule in the test `TestCreate`."),
        "{value}"
    );
    // Completion after `{{#rule `.
    let typed = text.replace("See {{#rule", "See {{#rule cr}} {{#rule");
    client.open(&contract, &typed);
    let (cline, ccolumn) = find(&typed, "{{#rule cr}}", 10);
    let items = client.request(
        "textDocument/completion",
        Client::at(&contract, cline, ccolumn),
    );
    let labels: Vec<&str> = items
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["label"].as_str().unwrap())
        .collect();
    assert!(
        labels.contains(&"create.idempotent") && labels.contains(&"create-return.blocking-cancel"),
        "{labels:?}"
    );
    client.open(&contract, &text);
    // Rename: the marker, the shortcode and both citations in code, in one edit.
    let mut params = Client::at(&contract, line, column);
    params["newName"] = json!("create.same-name-same-id");
    let edit = client.request("textDocument/rename", params.clone());
    let changes = edit["changes"].as_object().unwrap();
    let count = |file: &str| changes[&uri(&root.join(file))].as_array().unwrap().len();
    assert_eq!(count("src/contract.md"), 2);
    assert_eq!(count("repo/internal/provider/pods/pods_test.go"), 1);
    assert_eq!(count("repo/internal/provider/vms/vms.go"), 1);
    params["newName"] = json!("Not An Id");
    let refused = client
        .try_request("textDocument/rename", params)
        .unwrap_err();
    assert!(refused.contains("is not a rule ID"), "{refused}");
    client.stop();
}

/// The server keeps what `dangling-definition` found in each unchanged chapter from one check
/// to the next (see `kept.rs`); an unsaved edit of another chapter's headings, and a file made
/// on disk, still change what it finds in a chapter nobody touched.
#[test]
fn what_a_check_keeps_gives_way_to_the_edits_it_depends_on() {
    let book = Fixture::new(&[
        ("book.toml", "[book]\ntitle = \"Kept\"\n"),
        (
            "src/SUMMARY.md",
            "# Summary\n\n- [A](a.md)\n- [B](b.md)\n- [C](c.md)\n- [D](d.md)\n- [E](e.md)\n",
        ),
        ("src/a.md", "# A\n\n## Target\n\nText.\n"),
        ("src/b.md", "# B\n\nText.\n\n[t]: a.md#target\n"),
        ("src/c.md", "# C\n\nText.\n\n[p]: picture.png\n"),
        // The same definition: resolved once, and known to depend on the disk here too.
        ("src/d.md", "# D\n\n[p]: picture.png\n"),
        ("src/e.md", "# E\n\n[l]: a.md#later\n"),
    ]);
    let a = book.root().join("src/a.md");
    let b = uri(&book.root().join("src/b.md"));
    let c = uri(&book.root().join("src/c.md"));
    let d = uri(&book.root().join("src/d.md"));
    let e = uri(&book.root().join("src/e.md"));
    let mut client = Client::start(book.root(), None);
    let placed = |list: &[Value]| -> Vec<String> {
        list.iter()
            .map(|d| format!("{}@{}", d["code"], d["range"]["start"]["line"]))
            .collect()
    };
    // On disk: the picture is missing; `#target` is there.
    let list = client.wait(&c, |l| l.len() == 1);
    assert_eq!(placed(&list), ["\"dangling-definition\"@4"], "{list:#?}");
    client.wait(&d, |l| l.len() == 1);
    assert!(
        !client.diagnostics.contains_key(&b),
        "{:#?}",
        client.diagnostics
    );
    // The heading renamed, unsaved, in another chapter: `#target` is gone.
    let text = std::fs::read_to_string(&a).unwrap();
    let renamed = text.replace("## Target", "## Other");
    client.open(&a, &renamed);
    let list = client.wait(&b, |l| l.len() == 1);
    assert_eq!(placed(&list), ["\"dangling-definition\"@4"], "{list:#?}");
    assert!(
        list[0]["message"]
            .as_str()
            .unwrap()
            .contains("`a.md` has no anchor `#target`"),
        "{list:#?}"
    );
    // An edit that leaves the anchors alone keeps the finding; the heading back removes it.
    client.change(&a, 2, &renamed.replace("Text.", "More."));
    client.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": uri(&a)}}),
    );
    assert_eq!(client.diagnostics[&b].len(), 1, "{:#?}", client.diagnostics);
    client.change(&a, 3, &text);
    client.wait(&b, <[Value]>::is_empty);
    // A heading typed that no kept definition names, but one that had no target finds it.
    client.wait(&e, |l| l.len() == 1);
    client.change(&a, 4, &format!("{text}\n## Lat\n"));
    client.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": uri(&a)}}),
    );
    assert_eq!(client.diagnostics[&e].len(), 1, "{:#?}", client.diagnostics);
    client.change(&a, 5, &format!("{text}\n## Later\n"));
    client.wait(&e, <[Value]>::is_empty);
    client.change(&a, 6, &text);
    client.wait(&e, |l| l.len() == 1);
    // The picture made on disk: the watched-files notice is enough.
    std::fs::write(book.root().join("src/picture.png"), b"").unwrap();
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": uri(&book.root().join("src/picture.png")), "type": 1}]}),
    );
    client.wait(&c, <[Value]>::is_empty);
    client.wait(&d, <[Value]>::is_empty);
    // And taken away again.
    std::fs::remove_file(book.root().join("src/picture.png")).unwrap();
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": uri(&book.root().join("src/picture.png")), "type": 3}]}),
    );
    client.wait(&c, |l| l.len() == 1);
    client.wait(&d, |l| l.len() == 1);
    client.stop();
}

// The book's fake preprocessor is a Python script (`rewritten.rs`).
#[cfg(unix)]
#[test]
fn typed_text_shows_at_once_unless_a_preprocessor_could_rewrite_it() {
    // The fake of `rewritten.rs` turns `r[...]` lines into HTML and takes out lines with
    // `REMOVE ME`; its first run (at start) shows the server both.
    let book = super::rewritten::book();
    let path = book.root().join("src/storage.md");
    let chapter = uri(&path);
    let mut client = StdioClient::spawn();
    client.initialize(book.root());
    client.wait(&chapter, |l| l.len() == 3);
    let runs = fake_runs(book.root()).len();
    client.send(&json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": chapter, "languageId": "markdown", "version": 1, "text": super::rewritten::CHAPTER}}}));
    let has = |list: &[Value], line: u64| {
        placed(list)
            .iter()
            .any(|(c, l, _)| c == "em-dash" && *l == line)
    };
    // 1. Prose no preprocessor rewrote: its em-dash shows while typing (line 9, 0-based).
    let prose = format!("{}Prose typed \u{2014} now.\n", super::rewritten::CHAPTER);
    client.send(&json!({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {"textDocument": {"uri": chapter, "version": 2}, "contentChanges": [{"text": prose}]}}));
    client.wait(&chapter, |l| has(l, 8));
    // 2. Text the preprocessor rewrites (a `REMOVE ME` line) and 3. a new construct of the
    // kind it rewrites (an `r[...]` line), each typed with an em-dash, then a prose line
    // after them: the prose line's finding shows, theirs wait (the preprocessor takes them
    // away).
    let all = format!(
        "{}REMOVE ME \u{2014} too\nr[typed\u{2014}rule]\n\nMore prose \u{2014} typed.\n",
        prose
    );
    client.send(&json!({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {"textDocument": {"uri": chapter, "version": 3}, "contentChanges": [{"text": all}]}}));
    let list = client.wait(&chapter, |l| has(l, 12));
    assert!(has(&list, 8), "{list:#?}");
    assert!(!has(&list, 9) && !has(&list, 10), "{list:#?}");
    assert_eq!(fake_runs(book.root()).len(), runs, "no run while typing");
    let typing = placed(&list);

    // Saved: the diagnostics are `check`'s, and what was shown while typing is still there.
    std::fs::write(&path, &all).unwrap();
    client.send(&json!({"jsonrpc": "2.0", "method": "textDocument/didSave", "params": {"textDocument": {"uri": chapter}}}));
    let (_, stdout, _) = super::common::run_in(book.root(), &["check", "--format", "json"]);
    let expected: Vec<(String, u64, u64)> = {
        let findings: Vec<Value> = serde_json::from_str(&stdout).unwrap();
        let mut placed: Vec<(String, u64, u64)> = findings
            .iter()
            .map(|f| {
                (
                    f["check"].as_str().unwrap().to_owned(),
                    f["line"].as_u64().unwrap() - 1,
                    f["column"].as_u64().unwrap() - 1,
                )
            })
            .collect();
        placed.sort();
        placed
    };
    let list = client.wait(&chapter, |l| placed(l) == expected);
    for shown in &typing {
        assert!(
            placed(&list).contains(shown),
            "{shown:?} vanished: {list:#?}"
        );
    }
    let (status, stderr) = client.stop();
    assert!(status.success(), "{status}: {stderr}");
}
