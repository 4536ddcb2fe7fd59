//! `malformed-section`: an `.axis` or `.provider` heading whose section cannot be read, a
//! provider with two sections (or two specs), a spec whose provider's name is not a DNS-1123
//! label, or a spec status that is neither `draft` nor `accepted`.

use std::collections::HashMap;

use super::{Context, Draft, problems};
use crate::model::Provider;
use crate::spec::is_dns_label;
use crate::vocab::Check;

pub(super) fn run(cx: &Context<'_>, out: &mut Vec<Draft>) {
    problems(cx, Check::MalformedSection, out);
    for problem in &cx.specs.problems {
        out.push(Draft::new(
            problem.check,
            problem.chapter,
            problem.range.clone(),
            problem.message.clone(),
        ));
    }
    // A provider has one section in the book, and may have a spec besides.
    let mut sections: HashMap<&str, &Provider> = HashMap::new();
    let mut specs: HashMap<&str, &Provider> = HashMap::new();
    for provider in &cx.model.providers {
        let (seen, what) = if provider.spec {
            (&mut specs, "specs")
        } else {
            (&mut sections, "sections")
        };
        if let Some(first) = seen.get(provider.name.as_str()).copied() {
            out.push(
                Draft::new(
                    Check::MalformedSection,
                    provider.chapter,
                    provider.range.clone(),
                    format!("provider `{}` has two {what}", provider.name),
                )
                .related(first.chapter, first.range.clone(), "the first here"),
            );
        } else {
            seen.insert(provider.name.as_str(), provider);
        }
        let also_specified = cx
            .model
            .providers
            .iter()
            .find(|s| s.spec && s.name == provider.name);
        if let Some(spec) = also_specified.filter(|_| !provider.spec && provider.proposed) {
            out.push(
                Draft::new(
                    Check::MalformedSection,
                    provider.chapter,
                    provider.range.clone(),
                    format!(
                        "provider `{}` is proposed both here and in its spec; the spec is its column in the matrix",
                        provider.name
                    ),
                )
                .related(spec.chapter, spec.range.clone(), "the spec")
                .help("answer in the spec; the appendix gets the provider's section once it is built"),
            );
        }
        if provider.spec && !is_dns_label(&provider.name) {
            out.push(
                Draft::new(
                    Check::MalformedSection,
                    provider.chapter,
                    provider.range.clone(),
                    format!(
                        "`{}` is not a provider type: a type is a DNS-1123 label (lowercase letters, digits and `-`, at most 63, starting and ending with a letter or digit)",
                        provider.name
                    ),
                )
                .help("name the provider by its type, as in ``# `proxmox` provider spec {.provider .proposed}``"),
            );
        }
    }
}
