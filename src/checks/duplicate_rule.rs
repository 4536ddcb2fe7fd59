//! `duplicate-rule`: two markers `r[ID]` define one ID; both places are named.

use super::{Context, Draft};
use crate::util::vocab::Check;

pub(super) fn run(cx: &Context<'_>, out: &mut Vec<Draft>) {
    super::rule_problems(cx, Check::DuplicateRule, out);
}
