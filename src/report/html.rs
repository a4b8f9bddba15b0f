//! What every report page is made of: the style sheet, escaping, tables, verdicts, links to the
//! source and to case pages, and the page frame.

use crate::math::Real;
use crate::record::Summary;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

pub(super) const STYLE: &str = "body{font-family:sans-serif;max-width:70em;margin:1em auto;padding:0 1em;color:#222}\
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.25em .6em;text-align:left;font-size:.92em}\
th{background:#f3f3f3}.pass{color:#fff;background:#2a8a2a;padding:0 .4em;border-radius:3px}\
.fail{color:#fff;background:#c0392b;padding:0 .4em;border-radius:3px}.ran{color:#fff;background:#7f8c8d;padding:0 .4em;border-radius:3px}code{background:#f5f5f5;padding:0 .2em}\
section.check{border-left:4px solid #ddd;padding-left:1em;margin:1.5em 0}.formula{font-family:serif;font-size:1.08em}.legend{font-size:.9em;margin:0 0 1em 5em}\
.matrix td,.matrix th{font-size:.8em;padding:.15em .35em}.matrix td:nth-child(n+3){text-align:center}.matrix a.pass,.matrix a.fail{text-decoration:none}";

/// Escapes text for HTML.
pub(super) fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The verdict of a whole case: PASS, FAIL, or RAN for a run without checks (nothing judged).
pub(super) fn case_verdict(s: &crate::record::Summary) -> &'static str {
    if s.ran_without_checks() {
        "<span class=ran>RAN (no checks)</span>"
    } else {
        verdict(s.passed)
    }
}

pub(super) fn verdict(passed: bool) -> &'static str {
    if passed {
        "<span class=pass>PASS</span>"
    } else {
        "<span class=fail>FAIL</span>"
    }
}

pub(super) fn table(rows: &[Vec<String>]) -> String {
    let mut s = String::from("<table>");
    for (k, row) in rows.iter().enumerate() {
        s.push_str("<tr>");
        for cell in row {
            let tag = if k == 0 { "th" } else { "td" };
            let _ = write!(s, "<{tag}>{}</{tag}>", esc(cell));
        }
        s.push_str("</tr>");
    }
    s.push_str("</table>");
    s
}

/// Path from folder `from` to folder `to`, both made absolute.
pub(super) fn relative(from: &Path, to: &Path) -> Option<PathBuf> {
    let (from, to) = (from.canonicalize().ok()?, to.canonicalize().ok()?);
    let common = from
        .components()
        .zip(to.components())
        .take_while(|(a, b)| a == b)
        .count();
    let mut p = PathBuf::new();
    for _ in from.components().skip(common) {
        p.push("..");
    }
    for c in to.components().skip(common) {
        p.push(c);
    }
    Some(p)
}

pub(super) fn fmt_num(v: Option<f64>) -> String {
    v.map_or("—".into(), |v| format!("{v:.6e}"))
}

pub(super) fn page(title: &str, body: &str) -> String {
    format!(
        "<!doctype html><html><head><meta charset=utf-8><title>{0}</title><style>{STYLE}</style></head><body>\
         <p><a href=\"index.html\">← all cases</a></p><h1>{0}</h1>{body}</body></html>",
        esc(title)
    )
}

/// Turns case names in the first column of a rendered table into links to their pages.
pub(super) fn link_cases(html: &str, summaries: &[Summary]) -> String {
    let mut out = html.to_string();
    for s in summaries {
        let cell = format!("<td>{}</td>", esc(&s.case));
        out = out.replace(
            &cell,
            &format!(
                "<td><a href=\"cases/{0}/index.html\">{0}</a></td>",
                esc(&s.case)
            ),
        );
    }
    out
}

/// A recorded column of a case run on disk (`reports/cases/<case>/series.csv`).
pub(super) fn column_of(
    reports: &Path,
    case: &str,
    column: &str,
) -> Option<(Vec<Real>, Vec<Real>)> {
    let s =
        crate::output::SeriesTable::read_csv(&reports.join("cases").join(case).join("series.csv"))
            .ok()?;
    Some((s.t.clone(), s.column(column)?.to_vec()))
}

/// A check's measured value in a case summary.
pub(super) fn check_value(
    summaries: &[Summary],
    case: &str,
    kind: &str,
    series: Option<&str>,
) -> Option<Real> {
    summaries
        .iter()
        .find(|s| s.case == case)?
        .checks
        .iter()
        .find(|c| c.kind == kind && (series.is_none() || c.series.as_deref() == series))?
        .value
}

/// A check's tolerance in words: the number and its kind, the accepted range, or "-".
pub(super) fn tolerance_text(c: &crate::record::CheckOutcome) -> String {
    match (c.tolerance_kind.as_str(), c.tolerance) {
        ("range", _) => format!("accepted: {}", c.accepted),
        (kind, Some(t)) => format!(
            "{t:.3e} ({})",
            if kind.is_empty() { "relative" } else { kind }
        ),
        _ => "-".into(),
    }
}

/// A table of a case's checks: kind, series, value, expected, tolerance, verdict.
pub(super) fn case_table(summaries: &[Summary], case: &str) -> String {
    let Some(s) = summaries.iter().find(|s| s.case == case) else {
        return format!("<p>(run <code>ballast verify</code>: case {case} not found)</p>");
    };
    let mut rows = vec![[
        "check",
        "series",
        "value",
        "expected",
        "tolerance",
        "verdict",
    ]
    .map(String::from)
    .to_vec()];
    for c in &s.checks {
        rows.push(vec![
            c.kind.clone(),
            c.series.clone().unwrap_or_default(),
            c.value.map_or("-".into(), |v| format!("{v:.9e}")),
            c.expected.map_or("-".into(), |v| format!("{v:.9e}")),
            tolerance_text(c),
            if c.passed { "pass" } else { "FAIL" }.into(),
        ]);
    }
    format!(
        "<p>{} <a href=\"cases/{case}/index.html\">{case}</a></p>{}",
        esc(&s.description),
        table(&rows)
    )
}
