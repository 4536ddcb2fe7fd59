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
struct Client {
    connection: Connection,
    server: Option<std::thread::JoinHandle<anyhow::Result<()>>>,
    next_id: i32,
    /// The last diagnostics published, by URI.
    diagnostics: HashMap<String, Vec<Value>>,
    /// Every publication, in order (URI, count).
    publications: Vec<(String, usize)>,
    /// The server's answer to `initialize`.
    init: Value,
}

fn uri(path: &Path) -> String {
    lsp_types::Url::from_file_path(path).unwrap().to_string()
}

impl Client {
    fn start(root: &Path, encodings: Option<&[&str]>) -> Client {
        let (client, server) = Connection::memory();
        let thread = std::thread::spawn(move || mdbook_contract::serve_language_server(server));
        let mut client = Client {
            connection: client,
            server: Some(thread),
            next_id: 0,
            diagnostics: HashMap::new(),
            publications: Vec::new(),
            init: Value::Null,
        };
        let mut capabilities = json!({});
        if let Some(encodings) = encodings {
            capabilities = json!({"general": {"positionEncodings": encodings}});
        }
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

    fn notify(&self, method: &str, params: Value) {
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
    fn wait(&mut self, uri: &str, done: impl Fn(&[Value]) -> bool) -> Vec<Value> {
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

    fn open(&self, path: &Path, text: &str) {
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

    fn stop(mut self) {
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
    // Elsewhere, nothing.
    let items = client.request("textDocument/completion", Client::at(&chapter, 0, 2));
    assert_eq!(items, json!([]));
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
    let message = list[0]["message"].as_str().unwrap();
    assert!(
        message.starts_with(
            "the book cannot be loaded: book.toml: `preprocessor.contract.contract` must be"
        ),
        "{message}"
    );
    let key_line = toml
        .lines()
        .position(|l| l.starts_with("contract ="))
        .unwrap() as u64;
    assert_eq!(list[0]["range"]["start"]["line"], key_line);
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
    let list = client.wait(&toml_uri, |l| !l.is_empty());
    assert!(
        list[0]["message"].as_str().unwrap().contains("gone.md"),
        "{list:#?}"
    );
    assert!(!root.join("src/gone.md").exists());
    client.stop();
}

/// Writes one LSP message (with its header) to `to`.
fn send(to: &mut impl Write, message: &Value) {
    let body = message.to_string();
    write!(to, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
    to.flush().unwrap();
}

/// Reads one LSP message from `from`.
fn receive(from: &mut impl BufRead) -> Value {
    let mut length = 0;
    loop {
        let mut line = String::new();
        from.read_line(&mut line).unwrap();
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(n) = line.strip_prefix("Content-Length: ") {
            length = n.parse().unwrap();
        }
    }
    let mut body = vec![0; length];
    from.read_exact(&mut body).unwrap();
    serde_json::from_slice(&body).unwrap()
}

#[test]
fn the_binary_speaks_lsp_over_stdio() {
    let book = book();
    let mut child = Command::new(super::common::binary())
        .arg("lsp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let mut output = BufReader::new(child.stdout.take().unwrap());
    send(
        &mut input,
        &json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"processId": null, "rootUri": uri(book.root()), "capabilities": {}}}),
    );
    let answer = receive(&mut output);
    assert_eq!(answer["id"], 1);
    assert_eq!(answer["result"]["serverInfo"]["name"], "mdbook-contract");
    send(
        &mut input,
        &json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}),
    );
    let published = receive(&mut output);
    assert_eq!(published["method"], "textDocument/publishDiagnostics");
    assert_eq!(
        published["params"]["diagnostics"][0]["code"],
        "unknown-claim"
    );
    send(
        &mut input,
        &json!({"jsonrpc": "2.0", "id": 2, "method": "shutdown", "params": null}),
    );
    assert_eq!(receive(&mut output)["id"], 2);
    send(
        &mut input,
        &json!({"jsonrpc": "2.0", "method": "exit", "params": null}),
    );
    let status = child.wait().unwrap();
    assert!(status.success(), "{status}");
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
