//! A check's outcome on a topic page: its plots, its table and its verdict.

use super::html::{esc, table, verdict};
use super::plot::svg;
use crate::record::Summary;

/// The outcome of a case's check whose sentence names `needle`.
pub(super) fn outcome<'a>(
    summaries: &'a [Summary],
    case: &str,
    kind: &str,
    needle: &str,
) -> Option<&'a crate::record::CheckOutcome> {
    summaries
        .iter()
        .find(|s| s.case == case)?
        .checks
        .iter()
        .find(|c| {
            c.kind == kind && (c.what.contains(needle) || c.series.as_deref() == Some(needle))
        })
}

/// A check's plots, its table and its verdict, or a note that the case has not run.
pub(super) fn outcome_block(summaries: &[Summary], case: &str, kind: &str, needle: &str) -> String {
    let Some(c) = outcome(summaries, case, kind, needle) else {
        return format!(
            "<p>(run <code>ballast verify</code> to fill this: case {case} not found)</p>"
        );
    };
    let message = if c.message.is_empty() {
        String::new()
    } else {
        format!(" ({})", esc(&c.message))
    };
    let mut h = format!(
        "<p><b>{}</b> — {}{message}. <a href=\"cases/{case}/index.html\">{case}</a></p>",
        verdict(c.passed),
        esc(&c.what),
    );
    if !c.table.is_empty() {
        h.push_str(&table(&c.table));
    }
    for p in c.plots.iter().take(1) {
        h.push_str(&svg(p));
    }
    h
}
