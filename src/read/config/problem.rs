//! Where a value of `[preprocessor.contract]` is written ([`KeyPath`]) and what is wrong with
//! it ([`Problem`]): a config finding names the key, what was found and what was expected.

use super::TABLE;
use crate::util::vocab::Check;

/// A step on the way to a value under `[preprocessor.contract]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum KeyPart {
    /// A key of a table.
    Key(String),
    /// An item of a list.
    Index(usize),
}

/// Where a value of `[preprocessor.contract]` is written: the keys and list indexes that lead
/// to it from the table (none: the table itself), and whether a finding there is about the
/// key's name (`cheks`, not a key) rather than its value.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct KeyPath {
    pub parts: Vec<KeyPart>,
    pub name: bool,
}

impl KeyPath {
    /// A key of the table (empty: the table).
    pub(crate) fn key(key: &str) -> KeyPath {
        let parts = if key.is_empty() {
            Vec::new()
        } else {
            vec![KeyPart::Key(key.to_owned())]
        };
        KeyPath { parts, name: false }
    }

    /// The key `key` of the table here.
    pub(crate) fn child(&self, key: &str) -> KeyPath {
        let mut path = self.clone();
        path.parts.push(KeyPart::Key(key.to_owned()));
        path
    }

    /// Item `index` of the list here.
    pub(crate) fn index(&self, index: usize) -> KeyPath {
        let mut path = self.clone();
        path.parts.push(KeyPart::Index(index));
        path
    }

    /// The same place, the key's name rather than its value.
    pub(crate) fn naming(mut self) -> KeyPath {
        self.name = true;
        self
    }

    /// The key of the table it is under.
    pub(crate) fn top(&self) -> Option<&str> {
        match self.parts.first() {
            Some(KeyPart::Key(key)) => Some(key),
            _ => None,
        }
    }
}

impl std::fmt::Display for KeyPath {
    /// As TOML writes it: `preprocessor.contract.companions[1]`,
    /// `preprocessor.contract.chapters."a.md".checks`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(TABLE)?;
        for part in &self.parts {
            match part {
                KeyPart::Key(key)
                    if !key.is_empty()
                        && key
                            .chars()
                            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') =>
                {
                    write!(f, ".{key}")?;
                }
                KeyPart::Key(key) => write!(f, ".{key:?}")?,
                KeyPart::Index(i) => write!(f, "[{i}]")?,
            }
        }
        Ok(())
    }
}

/// Something in `[preprocessor.contract]` that cannot be used as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Problem {
    /// The check that reports it.
    pub check: Check,
    /// Where it is written.
    pub at: KeyPath,
    /// What is wrong (it names the key).
    pub message: String,
    /// What to do about it.
    pub help: Option<String>,
}

impl Problem {
    /// With `help` in place of the default.
    pub(crate) fn help(mut self, help: impl Into<String>) -> Problem {
        self.help = Some(help.into());
        self
    }

    /// A value that cannot be used: not a key, the wrong type, a pattern that does not
    /// compile (`malformed-config`).
    pub(crate) fn malformed(at: KeyPath, message: String) -> Problem {
        Problem {
            check: Check::MalformedConfig,
            at,
            message,
            help: Some(
                "the value is left out, as if not written; the rest of the book is checked"
                    .to_owned(),
            ),
        }
    }

    /// A path that leads to nothing (`dangling-path`).
    pub(crate) fn dangling(at: KeyPath, message: String, help: impl Into<String>) -> Problem {
        Problem {
            check: Check::DanglingPath,
            at,
            message,
            help: Some(help.into()),
        }
    }
}
