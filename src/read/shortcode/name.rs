//! The names of this preprocessor's shortcodes: each one's spelling, usage, arity and what it
//! renders, the one place a shortcode is described. To add one: a variant here and its arm in
//! each method, then its `Kind` in `mod.rs`.

/// The names of this preprocessor's shortcodes, as written after `{{#`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Name {
    /// `{{#axis CODE}}`.
    Axis,
    /// `{{#axis-table}}`.
    AxisTable,
    /// `{{#answers CODE}}`.
    Answers,
    /// `{{#profile CODE PROFILE EVIDENCE...}}`.
    Profile,
    /// `{{#profile-matrix}}`.
    ProfileMatrix,
    /// `{{#spec-status}}`.
    SpecStatus,
    /// `{{#rule ID}}`.
    Rule,
    /// `{{#rule-matrix}}`.
    RuleMatrix,
}

impl Name {
    /// Every name, in the order the README lists them.
    pub const ALL: [Name; 8] = [
        Name::Axis,
        Name::AxisTable,
        Name::Answers,
        Name::Profile,
        Name::ProfileMatrix,
        Name::SpecStatus,
        Name::Rule,
        Name::RuleMatrix,
    ];

    /// The name written after `{{#`.
    pub fn as_str(self) -> &'static str {
        match self {
            Name::Axis => "axis",
            Name::AxisTable => "axis-table",
            Name::Answers => "answers",
            Name::Profile => "profile",
            Name::ProfileMatrix => "profile-matrix",
            Name::SpecStatus => "spec-status",
            Name::Rule => "rule",
            Name::RuleMatrix => "rule-matrix",
        }
    }

    pub(crate) fn from_str(name: &str) -> Option<Name> {
        Name::ALL.into_iter().find(|k| k.as_str() == name)
    }

    /// Whether it renders a block (a table or a list) and so must stand alone in its paragraph.
    pub fn is_block(self) -> bool {
        matches!(
            self,
            Name::AxisTable
                | Name::Answers
                | Name::ProfileMatrix
                | Name::SpecStatus
                | Name::RuleMatrix
        )
    }

    /// What it is written as after `{{#`, its arguments as an editor's snippet placeholders
    /// (`axis ${1:CODE}`), without the closing braces.
    pub(crate) fn snippet(self) -> &'static str {
        match self {
            Name::Axis => "axis ${1:CODE}",
            Name::AxisTable => "axis-table",
            Name::Answers => "answers ${1:CODE}",
            Name::Profile => "profile ${1:CODE} ${2:PROFILE} ${3:EVIDENCE}",
            Name::ProfileMatrix => "profile-matrix",
            Name::SpecStatus => "spec-status",
            Name::Rule => "rule ${1:ID}",
            Name::RuleMatrix => "rule-matrix",
        }
    }

    /// What it renders, in one line.
    pub(crate) fn renders(self) -> &'static str {
        match self {
            Name::Axis => "a link to the axis",
            Name::AxisTable => "the closing table of every axis (alone in a paragraph)",
            Name::Answers => "the allowed answers of an axis; marks the template's entry",
            Name::Profile => "a provider's claim: its profile on the axis, with evidence",
            Name::ProfileMatrix => {
                "one row per axis, one column per provider (alone in a paragraph)"
            }
            Name::SpecStatus => {
                "a spec's status and its open entries (alone in a paragraph of a spec)"
            }
            Name::Rule => "a link to the rule",
            Name::RuleMatrix => {
                "one row per rule, one column per built provider (alone in a paragraph)"
            }
        }
    }

    pub(crate) fn usage(self) -> &'static str {
        match self {
            Name::Axis => "{{#axis CODE}}",
            Name::AxisTable => "{{#axis-table}}",
            Name::Answers => "{{#answers CODE}}",
            Name::Profile => "{{#profile CODE PROFILE EVIDENCE...}}",
            Name::ProfileMatrix => "{{#profile-matrix}}",
            Name::SpecStatus => "{{#spec-status}}",
            Name::Rule => "{{#rule ID}}",
            Name::RuleMatrix => "{{#rule-matrix}}",
        }
    }

    /// What the arguments are, when their number is wrong.
    pub(super) fn takes(self) -> &'static str {
        match self {
            Name::Axis | Name::Answers => "one axis code",
            Name::Rule => "one rule ID",
            Name::AxisTable | Name::ProfileMatrix | Name::SpecStatus | Name::RuleMatrix => {
                "no arguments"
            }
            Name::Profile => "an axis code, a profile and the evidence",
        }
    }

    pub(super) fn arity_ok(self, count: usize) -> bool {
        match self {
            Name::Axis | Name::Answers | Name::Rule => count == 1,
            Name::AxisTable | Name::ProfileMatrix | Name::SpecStatus | Name::RuleMatrix => {
                count == 0
            }
            Name::Profile => count >= 2,
        }
    }

    /// How many of the leading arguments are kebab-case codes.
    pub(super) fn codes(self) -> usize {
        match self {
            Name::Axis | Name::Answers => 1,
            Name::Profile => 2,
            // A rule ID has dots; `unknown-rule` reads it.
            Name::Rule => 0,
            Name::AxisTable | Name::ProfileMatrix | Name::SpecStatus | Name::RuleMatrix => 0,
        }
    }
}
