//! `readme-link`: a link to a chapter's `README.md`, which mdBook renders as `index.html` while
//! the link becomes `README.html`, a page that does not exist (mdBook issue 984).

use super::dangling_link::{Pages, Target, resolve};
use super::{Context, Draft};
use crate::util::vocab::Check;

pub(super) fn run(cx: &Context<'_>, out: &mut Vec<Draft>) {
    let pages = Pages::new(cx);
    for (number, chapter) in cx.each_chapter() {
        for link in &chapter.index.links {
            // The finding needs `README.md` (any case) written in the link: skip the rest
            // without resolving them.
            if !mentions_readme(&link.dest) {
                continue;
            }
            let Target::Page {
                chapter: Some(_),
                path,
                ..
            } = resolve(cx, &pages, number, &link.dest)
            else {
                continue;
            };
            let name = path.rsplit('/').next().unwrap_or(&path);
            if name.eq_ignore_ascii_case("README.md") && link.dest.contains(name) {
                out.push(
                    Draft::new(
                        Check::ReadmeLink,
                        number,
                        link.range.clone(),
                        format!("`{}` becomes `README.html`, but mdBook renders `{path}` as `index.html`", link.dest),
                    )
                    .help(format!("link to `{}` instead", link.dest.replacen(name, "index.md", 1))),
                );
            }
        }
    }
}

/// Whether `dest` holds `README.md` in any ASCII case.
fn mentions_readme(dest: &str) -> bool {
    dest.as_bytes()
        .windows("README.md".len())
        .any(|w| w.eq_ignore_ascii_case(b"README.md"))
}
