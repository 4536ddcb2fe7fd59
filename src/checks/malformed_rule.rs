//! `malformed-rule`: a marker that cannot be read (a bad ID or version, a bad `applies=`, one
//! that labels nothing), an error; a marker outside the contract chapters, a warning (it is
//! left as written, and may belong to another preprocessor).

use super::{Context, Draft};
use crate::util::vocab::Check;

pub(super) fn run(cx: &Context<'_>, out: &mut Vec<Draft>) {
    super::rule_problems(cx, Check::MalformedRule, out);
}
