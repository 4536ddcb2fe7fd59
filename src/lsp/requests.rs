//! A request to its answer: the request's kind to `features.rs` or `rules.rs`, from the outline
//! of the last check; a request that cannot be read is an error reply, never the end of the
//! server.

use std::path::Path;

use lsp_server::{ErrorCode, Request, Response};
use lsp_types::request::{
    Completion, DocumentSymbolRequest, GotoDefinition, HoverRequest, PrepareRenameRequest,
    References, Rename, Request as _,
};
use lsp_types::{
    CompletionResponse, DocumentSymbolResponse, GotoDefinitionResponse, PrepareRenameResponse, Url,
};

use super::places::Target;
use super::{Server, features, rules};

pub(super) fn json(value: impl serde::Serialize) -> Answer {
    serde_json::to_value(value).map_err(|e| (ErrorCode::InternalError, e.to_string()))
}

impl Server {
    /// Answers a request by its method; one the server does not serve is an error.
    pub(super) fn request(&mut self, request: Request) -> Response {
        let id = request.id.clone();
        let result = match request.method.as_str() {
            Completion::METHOD => self.with_position(request, |s, path, text, position| {
                let _ = path;
                let items =
                    features::completion(&s.outline, text, position, s.encoding, s.snippets);
                json(CompletionResponse::Array(items))
            }),
            HoverRequest::METHOD => self.with_position(request, |s, path, _, position| {
                let hover = features::target(&s.outline, path, position, s.encoding)
                    .and_then(|t| features::hover(&s.outline, &t));
                json(hover)
            }),
            GotoDefinition::METHOD => self.with_position(request, |s, path, _, position| {
                let at = features::target(&s.outline, path, position, s.encoding)
                    .and_then(|t| features::definition(&s.outline, &t, s.encoding))
                    .map(|at| GotoDefinitionResponse::Scalar(s.uris.location(at)));
                json(at)
            }),
            References::METHOD => self.references(request),
            PrepareRenameRequest::METHOD => self.prepare_rename(request),
            Rename::METHOD => self.rename(request),
            DocumentSymbolRequest::METHOD => self.document_symbols(&request),
            _ => Err((
                ErrorCode::MethodNotFound,
                format!("`{}` is not served", request.method),
            )),
        };
        match result {
            Ok(value) => Response::new_ok(id, value),
            Err((code, message)) => Response::new_err(id, code as i32, message),
        }
    }

    /// The places that name the axis, profile or rule at the position (with its definition
    /// unless the request leaves it out).
    pub(super) fn references(&mut self, request: Request) -> Answer {
        let declaration = request
            .params
            .pointer("/context/includeDeclaration")
            .and_then(serde_json::Value::as_bool)
            .unwrap_or(true);
        self.with_position(request, move |s, path, _, position| {
            let found = match features::target(&s.outline, path, position, s.encoding) {
                Some(Target::Axis { axis, .. } | Target::Profile { axis, .. }) => Some(
                    features::references(&s.outline, axis, declaration, s.encoding),
                ),
                Some(Target::Rule { id, .. }) => {
                    Some(rules::references(&s.outline, id, declaration, s.encoding))
                }
                None => None,
            };
            let found = found.map(|places| places.into_iter().map(|l| s.uris.location(l)));
            json(found.map(Vec::from_iter))
        })
    }

    /// The range and name of the axis code or rule ID at the position, if one is there.
    pub(super) fn prepare_rename(&mut self, request: Request) -> Answer {
        self.with_position(request, |s, path, _, position| {
            let answer = match features::target(&s.outline, path, position, s.encoding) {
                Some(
                    Target::Axis { axis: name, range }
                    | Target::Rule {
                        id: name, range, ..
                    },
                ) => Some(PrepareRenameResponse::RangeWithPlaceholder {
                    range,
                    placeholder: name.to_owned(),
                }),
                _ => None,
            };
            json(answer)
        })
    }

    /// The edit that renames the axis code or rule ID at the position everywhere it is
    /// written, or why it cannot.
    pub(super) fn rename(&mut self, request: Request) -> Answer {
        let new_name = request
            .params
            .get("newName")
            .and_then(serde_json::Value::as_str)
            .unwrap_or_default()
            .to_owned();
        self.with_position(request, move |s, path, _, position| match features::target(
            &s.outline, path, position, s.encoding,
        ) {
            Some(Target::Axis { axis, .. }) => {
                match features::rename(&s.outline, axis, &new_name, s.encoding) {
                    Ok(edit) => json(s.uris.edit(edit)),
                    Err(why) => Err((ErrorCode::RequestFailed, why)),
                }
            }
            Some(Target::Rule { id, .. }) => {
                match rules::rename(&s.outline, id, &new_name, s.encoding) {
                    Ok(edit) => json(s.uris.edit(edit)),
                    Err(why) => Err((ErrorCode::RequestFailed, why)),
                }
            }
            _ => Err((
                ErrorCode::RequestFailed,
                "only an axis code or a rule ID can be renamed here".to_owned(),
            )),
        })
    }

    /// The outline of the document the request names.
    pub(super) fn document_symbols(&self, request: &Request) -> Answer {
        let uri = request
            .params
            .pointer("/textDocument/uri")
            .and_then(|u| serde_json::from_value::<Url>(u.clone()).ok());
        match uri.map(|uri| uri.to_file_path()) {
            Some(Ok(path)) => {
                let symbols = features::symbols(&self.outline, &path, self.encoding);
                json(DocumentSymbolResponse::Nested(symbols))
            }
            // An untitled buffer is in no book.
            Some(Err(())) => Ok(serde_json::Value::Null),
            None => Err((ErrorCode::InvalidParams, "no document URI".to_owned())),
        }
    }

    /// Answers a request about a position in a document: `answer` gets the document's path,
    /// its text (the overlay, else the file) and the position.
    pub(super) fn with_position(
        &mut self,
        request: Request,
        answer: impl FnOnce(&Server, &Path, &str, lsp_types::Position) -> Answer,
    ) -> Answer {
        let params: lsp_types::TextDocumentPositionParams =
            match serde_json::from_value(request.params.clone()) {
                Ok(params) => params,
                Err(error) => return Err((ErrorCode::InvalidParams, error.to_string())),
            };
        let Ok(path) = params.text_document.uri.to_file_path() else {
            // An untitled buffer (`untitled:`) is in no book: nothing to answer, as for any
            // place that holds nothing of ours.
            return Ok(serde_json::Value::Null);
        };
        let path = crate::util::paths::lexical(&path);
        let text = self.text_of(&path);
        answer(self, &path, &text, params.position)
    }
}

/// A request's answer: a value, or an error's code and message.
type Answer = Result<serde_json::Value, (ErrorCode, String)>;
