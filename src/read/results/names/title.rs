//! A test's title as the runners that name cases by titles write it (Jest's `describe title
//! test title`, Vitest's `>`, Playwright's `›`, a test macro's `Suite.Name/N`), matched from
//! the titles in the source, whose placeholders (`%s`, `$name`, `${store}`) take any text. A
//! runner's way of joining a title to its groups is one more form in [`TitlePattern::new`].

use regex::Regex;

use super::*;

/// A test's title as a JavaScript runner reports it (Jest's `describe title test title`,
/// Vitest's `describe title > test title`), from the titles in the source, whose placeholders
/// (`%s`, `%d`, `$name`) match whatever the run put there.
pub(crate) struct TitlePattern {
    regex: Regex,
    /// The longest fixed part of the titles: a case without it is not this test.
    fixed: String,
    /// The capture of the `${index}` placeholder a test macro's cases are numbered by
    /// (`IsAtomic/${index}`, Boost.Test's `_${index}`), if the titles have one.
    index: Option<usize>,
}

impl TitlePattern {
    /// The pattern of a test titled `title` inside the groups titled `scope`, outermost first.
    pub(crate) fn new(scope: &[String], title: &str) -> Option<TitlePattern> {
        let mut parts: Vec<String> = scope.iter().map(|s| template(s)).collect();
        parts.push(template(title));
        // Runners join a group's title to its tests' with a space (Jest), ` > ` (Vitest),
        // ` › ` (Playwright) or `.` (jasmine-reporters' classname).
        // Playwright puts the project first: `[storage] title`, CTest a folder
        // (`providers/gcs/Provider.DeleteMissing`); Catch2 and doctest add a
        // section after a `/`, Catch2 a template's type after ` - `.
        // TAP numbers a test before its description (`2 - put on gcs is atomic`).
        let pattern = format!(
            r"^\s*(?:\[[^\]]*\]\s+)?(?:\d+\s+-\s+)?(?:[^\s/]+/)*?{}(?:\s*(?:/|\s-\s)\s*.+)?\s*$",
            parts.join(r"(?:\s*[>›]\s*|\s+|\.)")
        );
        // The text between placeholders, never a placeholder's own letters: `%s put` and
        // `on ${store} is atomic` keep ` put` and ` is atomic`.
        let fixed = scope
            .iter()
            .map(String::as_str)
            .chain(std::iter::once(title))
            .flat_map(|t| PLACEHOLDER.split(t))
            .max_by_key(|f| f.trim().len())
            .unwrap_or("")
            .trim()
            .to_owned();
        let index = scope
            .iter()
            .map(String::as_str)
            .chain(std::iter::once(title))
            .flat_map(|t| PLACEHOLDER.find_iter(t))
            .position(|m| m.as_str() == "${index}")
            .map(|at| at + 1);
        Some(TitlePattern {
            regex: Regex::new(&pattern).ok()?,
            fixed,
            index,
        })
    }

    /// The longest fixed part of the titles (whole in one title): a case whose name,
    /// classname and suite lack it is not this test.
    pub(crate) fn fixed(&self) -> &str {
        &self.fixed
    }

    /// The index a case named `name` of this test is numbered by (`_1` of Boost.Test's
    /// `_${index}`), when its titles have an `${index}` and the case gives a number there.
    pub(crate) fn position(&self, name: &str) -> Option<usize> {
        if !name.contains(self.fixed.as_str()) {
            return None;
        }
        let value = self.regex.captures(name)?.get(self.index?)?.as_str();
        value.parse().ok()
    }

    /// Whether a case named `name` is this test: the values its placeholders took, if so.
    pub(crate) fn matches<'n>(&self, name: &'n str) -> Option<Vec<&'n str>> {
        if !name.contains(self.fixed.as_str()) {
            return None;
        }
        let captures = self.regex.captures(name)?;
        Some(
            captures
                .iter()
                .skip(1)
                .flatten()
                .map(|m| m.as_str())
                .collect(),
        )
    }

    /// The provider a case of this test ran for: a value a placeholder took, else a provider
    /// named in its name.
    pub(crate) fn provider(&self, name: &str, providers: &[String]) -> Named {
        let values = self.matches(name).unwrap_or_default();
        // Vitest prints a `$name` value quoted: `on 's3' sees`.
        let unquoted = values.iter().map(|v| v.trim_matches(['\'', '"', '`']));
        if let Some(p) = one_of(unquoted, providers) {
            return Named::provider(p);
        }
        named_in(name, providers).map_or(Named::None, Named::provider)
    }
}

/// A title from the source as a regular expression: its placeholders (`%s`, `%d`, `%i`, `%p`,
/// `%#`, `$name`, `${name}`) any text.
pub(super) static PLACEHOLDER: std::sync::LazyLock<Regex> = std::sync::LazyLock::new(|| {
    Regex::new(r"%[sdifjoOp#]|\$\{[^}]*\}|\$[A-Za-z_][A-Za-z0-9_.]*").expect("a valid regex")
});

fn template(title: &str) -> String {
    let mut out = String::new();
    let mut last = 0;
    for m in PLACEHOLDER.find_iter(title) {
        out.push_str(&regex::escape(&title[last..m.start()]));
        out.push_str("(.+?)");
        last = m.end();
    }
    out.push_str(&regex::escape(&title[last..]));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn providers() -> Vec<String> {
        ["s3", "gcs", "azure-blob"].map(str::to_owned).to_vec()
    }

    #[test]
    fn javascript_titles_with_placeholders_and_groups() {
        let p = providers();
        let each = TitlePattern::new(&[], "put is atomic on %s").unwrap();
        assert_eq!(each.matches(" put is atomic on gcs"), Some(vec!["gcs"]));
        assert_eq!(
            each.provider(" put is atomic on gcs", &p),
            Named::Provider(Compared(1))
        );
        assert_eq!(each.matches("put is atomic"), None);
        let grouped =
            TitlePattern::new(&["provider %s".to_owned()], "get of a missing key").unwrap();
        // Jest joins with a space, Vitest with ` > `.
        for name in [
            "provider s3 get of a missing key",
            "provider s3 > get of a missing key",
        ] {
            assert_eq!(
                grouped.provider(name, &p),
                Named::Provider(Compared(0)),
                "{name}"
            );
        }
        // Text on both sides of a placeholder, and a placeholder first.
        for (title, name, value) in [
            (
                "a put on %s is atomic for every key",
                "a put on gcs is atomic for every key",
                1,
            ),
            (
                "put on ${store} is atomic",
                "put on azure-blob is atomic",
                2,
            ),
            ("%s put is atomic", "s3 put is atomic", 0),
            ("$provider works", "gcs works", 1),
            (
                "read after write on $store sees",
                "read after write on 's3' sees",
                0,
            ),
        ] {
            let pattern = TitlePattern::new(&[], title).unwrap();
            assert_eq!(
                pattern.provider(name, &p),
                Named::Provider(Compared(value)),
                "{title}"
            );
        }
        assert!(
            TitlePattern::new(&[], "%s put is atomic")
                .unwrap()
                .matches("s3 get")
                .is_none()
        );
    }

    /// The index of a case of a test with no `${index}` in its title: none.
    fn plain_position(name: &str) -> Option<usize> {
        TitlePattern::new(&[], name)?.position(name)
    }

    #[test]
    fn titles_joined_to_their_groups_each_runners_way() {
        let p = providers();
        // Playwright's ` › ` and jasmine-reporters' `.` between a group and its test.
        let nested = TitlePattern::new(&["read after write".to_owned()], "on ${s} sees").unwrap();
        for name in [
            "read after write › on gcs sees",
            "read after write.on gcs sees",
        ] {
            assert_eq!(
                nested.provider(name, &p),
                Named::Provider(Compared(1)),
                "{name}"
            );
        }
        // GoogleTest's parameterised macro, CTest's folder prefix, Catch2's section.
        let macro_p = TitlePattern::new(&["${instance}/PutAtomic".to_owned()], "IsAtomic/${i}");
        let macro_p = macro_p.unwrap();
        assert!(
            macro_p
                .matches("Providers/PutAtomic.IsAtomic/\"s3\"")
                .is_some()
        );
        assert!(macro_p.matches("Providers/PutAtomic IsAtomic/2").is_some());
        // The index a case is numbered by, where it gives a number.
        let indexed = TitlePattern::new(&["${instance}/PutAtomic".to_owned()], "IsAtomic/${index}");
        let indexed = indexed.unwrap();
        assert_eq!(indexed.position("Providers/PutAtomic IsAtomic/2"), Some(2));
        assert_eq!(indexed.position("Providers/PutAtomic IsAtomic/gcs"), None);
        assert_eq!(macro_p.position("Providers/PutAtomic IsAtomic/2"), None);
        let samples = TitlePattern::new(&["conformance".to_owned(), "put".to_owned()], "_${index}");
        assert_eq!(samples.unwrap().position("conformance.put _1"), Some(1));
        assert_eq!(plain_position("getMissing"), None);
        let grouped = TitlePattern::new(&["Provider".to_owned()], "DeleteMissing").unwrap();
        assert!(
            grouped
                .matches("providers/gcs/Provider.DeleteMissing")
                .is_some()
        );
        assert!(grouped.matches("Provider.DeleteMissingKeys").is_none());
        let sectioned = TitlePattern::new(&[], "put is atomic").unwrap();
        assert_eq!(
            sectioned.provider("put is atomic/on gcs storage", &p),
            Named::Provider(Compared(1))
        );
        // TAP's number before a subtest's title.
        let tap = TitlePattern::new(&[], "put on $store is atomic").unwrap();
        assert_eq!(
            tap.provider("2 - put on gcs is atomic", &p),
            Named::Provider(Compared(1))
        );
        assert!(tap.matches("2 - get missing").is_none());
        let plain = TitlePattern::new(&[], "getMissing").unwrap();
        assert_eq!(plain.provider(" getMissing", &p), Named::None);
        assert!(plain.matches("getMissingKeys").is_none());
    }
}
