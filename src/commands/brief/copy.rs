//! The copied parts: each chapter's events parsed again, its headings moved down a level with
//! ids made unique by the part's prefix, and every link rewritten to an id of the brief, the
//! published page, or plain text.

use std::path::{Component, Path};

use mdbook_markdown::pulldown_cmark::{CowStr, Event, LinkType, Tag, TagEnd};

use super::Writer;
use super::markdown::{heading, paragraph, shifted, shown, text};
use super::plan::{Part, Plan};
use crate::util::paths;

impl<'r> Writer<'r> {
    /// Copies the spec, the checklist, the worked examples and the contract.
    pub(super) fn copies(&mut self, events: &mut Vec<Event<'static>>, plan: &Plan) {
        self.copy(events, &plan.spec);
        if let Some(part) = &plan.checklist {
            self.copy(events, part);
        }
        if !plan.examples.is_empty() {
            heading(
                events,
                2,
                "examples",
                vec![text("Worked examples from the existing providers")],
            );
            paragraph(
                events,
                vec![text(
                    "The sections of the appendix on existing providers that hold their claims on the axes where they chose the same profile as this provider, with their evidence, and each provider's known gaps.",
                )],
            );
            for (p, parts) in &plan.examples {
                let name = &self.rendered.model.providers[*p].name;
                if !parts
                    .first()
                    .is_some_and(|q| self.is_provider_heading(q, *p))
                {
                    heading(
                        events,
                        3,
                        &format!("examples-of-{name}"),
                        vec![Event::Code(CowStr::from(name.clone()))],
                    );
                }
                for part in parts {
                    self.copy(events, part);
                }
            }
        }
        for part in &plan.contract {
            self.copy(events, part);
        }
    }

    /// A link to `id`, a heading of the brief.
    pub(super) fn link_to(&mut self, id: &str, inner: Vec<Event<'static>>) -> Vec<Event<'static>> {
        if !self.ids.contains(id) {
            return inner;
        }
        self.links += 1;
        let mut events = vec![Event::Start(Tag::Link {
            link_type: LinkType::Inline,
            dest_url: CowStr::from(format!("#{}", paths::encode(id))),
            title: CowStr::Borrowed(""),
            id: CowStr::Borrowed(""),
        })];
        events.extend(inner);
        events.push(Event::End(TagEnd::Link));
        events
    }

    /// Copies `part` into `events`.
    fn copy(&mut self, events: &mut Vec<Event<'static>>, part: &Part) {
        let content = &self.rendered.chapters[part.chapter].content;
        let ids: Vec<String> = self.indexes[&part.chapter]
            .headings
            .iter()
            .filter(|h| part.range.contains(&h.range.start))
            .map(|h| format!("{}-{}", part.prefix, h.id))
            .collect();
        let mut copied = Vec::new();
        let parser = mdbook_markdown::new_cmark_parser(content, self.options()).into_offset_iter();
        for (event, range) in parser {
            if range.start < part.range.start || range.start >= part.range.end {
                continue;
            }
            copied.push(event.into_static());
        }
        let mut ids = ids.into_iter();
        let copied: Vec<Event<'static>> = copied
            .into_iter()
            .map(|event| match event {
                Event::Start(Tag::Heading { level, attrs, .. }) => Event::Start(Tag::Heading {
                    level: shifted(level, part.shift),
                    id: ids.next().map(CowStr::from),
                    classes: Vec::new(),
                    attrs,
                }),
                Event::End(TagEnd::Heading(level)) => {
                    Event::End(TagEnd::Heading(shifted(level, part.shift)))
                }
                other => other,
            })
            .collect();
        events.extend(self.rewrite(part.chapter, copied));
    }

    /// `events` of chapter `from` with every link resolved in the brief (see the module docs)
    /// and every `{{` of the author's text kept from looking like a shortcode.
    pub(super) fn rewrite(
        &mut self,
        from: usize,
        events: Vec<Event<'static>>,
    ) -> Vec<Event<'static>> {
        let mut out = Vec::with_capacity(events.len());
        let mut open: Vec<bool> = Vec::new();
        let mut images: Vec<bool> = Vec::new();
        for event in events {
            match event {
                // An image of the book's own files is not the reader's: its text stays.
                Event::Start(Tag::Image { ref dest_url, .. }) => {
                    let kept = paths::is_external(dest_url);
                    images.push(kept);
                    if kept {
                        out.push(event);
                    }
                }
                Event::End(TagEnd::Image) => {
                    if images.pop().unwrap_or(false) {
                        out.push(event);
                    }
                }
                Event::Start(Tag::Link {
                    link_type,
                    dest_url,
                    title,
                    id,
                }) => match self.resolve(from, &dest_url) {
                    Some(dest) => {
                        self.links += 1;
                        open.push(true);
                        out.push(Event::Start(Tag::Link {
                            link_type: match link_type {
                                LinkType::Autolink | LinkType::Email => link_type,
                                _ => LinkType::Inline,
                            },
                            dest_url: CowStr::from(dest),
                            title,
                            id: if matches!(link_type, LinkType::Autolink | LinkType::Email) {
                                id
                            } else {
                                CowStr::Borrowed("")
                            },
                        }));
                    }
                    None => open.push(false),
                },
                Event::End(TagEnd::Link) => {
                    if open.pop().unwrap_or(false) {
                        out.push(Event::End(TagEnd::Link));
                    }
                }
                Event::Text(text) if text.contains("{{") => out.extend(shown(&text)),
                other => out.push(other),
            }
        }
        out
    }

    /// Where the link `dest` of chapter `from` leads in the brief: a heading of it, an
    /// address on the published book, or (`None`) nowhere, and it becomes its text.
    fn resolve(&self, from: usize, dest: &str) -> Option<String> {
        if paths::is_external(dest) {
            return Some(dest.to_owned());
        }
        let (path, fragment) = match dest.split_once('#') {
            Some((path, fragment)) => (path, Some(paths::percent_decode(fragment).into_owned())),
            None => (dest, None),
        };
        let target = if path.is_empty() {
            Some(from)
        } else {
            self.chapter_at(from, path)
        };
        if let Some(target) = target
            && let Some(prefix) = self.prefixes.get(&target)
        {
            let fragment = match &fragment {
                Some(f) => f.clone(),
                None => self.indexes[&target].headings.first()?.id.clone(),
            };
            let id = format!("{prefix}-{fragment}");
            if self.ids.contains(&id) {
                return Some(format!("#{}", paths::encode(&id)));
            }
        }
        // Out of the brief: the published page, if the book says where it is.
        let site = self.site.as_ref()?;
        let target = target?;
        let page = paths::components(&self.rendered.chapters[target].link_path).join("/");
        let page = page
            .strip_suffix(".md")
            .map_or(page.clone(), |p| format!("{p}.html"));
        let page = if page == "README.html" || page.ends_with("/README.html") {
            page.replacen("README.html", "index.html", 1)
        } else {
            page
        };
        let base = site.trim_end_matches('/');
        Some(match fragment {
            Some(f) => format!("{base}/{page}#{}", paths::encode(&f)),
            None => format!("{base}/{page}"),
        })
    }

    /// The chapter the relative link `path` of chapter `from` names.
    fn chapter_at(&self, from: usize, path: &str) -> Option<usize> {
        let path = paths::percent_decode(path);
        let path = path.split('?').next().unwrap_or("");
        let base = &self.rendered.chapters[from].link_path;
        let mut parts: Vec<String> = if path.starts_with('/') {
            Vec::new()
        } else {
            let mut parts = paths::components(base);
            parts.pop();
            parts
        };
        for component in Path::new(path.trim_start_matches('/')).components() {
            match component {
                Component::Normal(p) => parts.push(p.to_string_lossy().into_owned()),
                Component::ParentDir => {
                    parts.pop();
                }
                _ => {}
            }
        }
        let mut joined = parts.join("/");
        if let Some(stem) = joined.strip_suffix(".html") {
            joined = format!("{stem}.md");
        }
        self.rendered
            .chapters
            .iter()
            .position(|c| c.key == joined || paths::components(&c.link_path).join("/") == joined)
    }
}
