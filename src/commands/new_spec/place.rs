//! Where `new-spec` may put a spec: the `path` asked for, read relative to the book's `src`
//! folder (an absolute one inside it taken so), a `.md` file beside the template; each refusal
//! in the words of whoever asked ([`Asked`]: the command line's `--path`, the tool's `path`).

use std::path::Path;

use anyhow::{Result, bail};

use super::Asked;

/// Where a spec may go: beside its template, in the book's `src` folder.
pub(super) struct Place<'a> {
    /// The `src` folder on disk.
    pub(super) src: &'a Path,
    /// The `src` folder as the user sees it.
    pub(super) src_shown: &'a str,
    pub(super) template: &'a str,
    pub(super) asked: &'a Asked,
}

impl Place<'_> {
    /// The spec's chapter (relative to `src`): `path`, or `default_name` beside the template.
    /// A path must be a `.md` file beside the template, written relative to `src` (an absolute
    /// one inside `src` is taken so); else the message says which and what to give instead.
    pub(super) fn chapter(&self, path: Option<&str>, default_name: &str) -> Result<String> {
        let folder = self.template.rsplit_once('/').map_or("", |(f, _)| f);
        let beside = |name: &str| match folder {
            "" => name.to_owned(),
            folder => format!("{folder}/{name}"),
        };
        let Some(given) = path else {
            return Ok(beside(default_name));
        };
        let chapter = self.relative(given, &beside(default_name))?;
        let (spec_folder, file_name) = chapter.rsplit_once('/').unwrap_or(("", &chapter));
        if !chapter.ends_with(".md") {
            bail!(
                "`{chapter}` is not a `.md` file: a spec is a chapter of the book; try {}",
                (self.asked.give)(&beside(default_name))
            );
        }
        if spec_folder != folder {
            bail!(
                "`{chapter}` would put the spec in {}, but its template `{}` is in {}: a spec goes beside its template, so that the template's relative links hold in it; try {}",
                self.in_folder(spec_folder),
                self.template,
                self.in_folder(folder),
                (self.asked.give)(&beside(file_name))
            );
        }
        Ok(chapter)
    }

    /// `given` as a chapter path relative to `src`, `/`-separated; refused when it is
    /// absolute outside `src` or climbs out of it.
    fn relative(&self, given: &str, default: &str) -> Result<String> {
        let slashed = given.replace('\\', "/");
        let as_path = Path::new(&slashed);
        let relative = if as_path.is_absolute() || slashed.starts_with('/') {
            let src = std::path::absolute(self.src).map(|p| crate::util::paths::lexical(&p));
            let inside = src.ok().and_then(|src| {
                crate::util::paths::lexical(as_path)
                    .strip_prefix(&src)
                    .ok()
                    .map(crate::util::paths::slashed)
            });
            let Some(inside) = inside else {
                bail!(
                    "`{given}` is an absolute path outside the book's `src` folder (`{}/`): a spec's path is relative to that folder; try {}",
                    self.src_shown,
                    (self.asked.give)(default)
                );
            };
            inside
        } else {
            crate::read::config::normalise(&slashed)
        };
        if relative.split('/').any(|part| part == "..") {
            bail!(
                "`{given}` leads out of the book's `src` folder (`{}/`): a spec is a chapter inside it; try {}",
                self.src_shown,
                (self.asked.give)(default)
            );
        }
        Ok(relative)
    }

    /// Where a chapter path's folder is, in words: paths are relative to the book's `src`.
    fn in_folder(&self, folder: &str) -> String {
        match folder {
            "" => format!("the book's `src` folder (`{}/`)", self.src_shown),
            folder => format!(
                "`{folder}/` of the book's `src` folder (`{}/{folder}/`)",
                self.src_shown
            ),
        }
    }
}
