//! The `golden` check: a run against its recorded snapshot `golden/<name>.snap`.
//!
//! The snapshot is an insta JSON snapshot written by `cargo test` (tests/cases.rs) and
//! re-baselined only on purpose (`INSTA_UPDATE=always cargo test`). Numbers are stored with
//! 10 significant digits; the check compares them with a relative tolerance (default 1e-8).

use super::context::Context;
use super::keys::{nonneg, read};
use super::kind::CheckSpec;
use crate::math::Real;
use crate::output::SeriesTable;
use crate::record::CheckOutcome;
use crate::record::Summary;
use serde::Deserialize;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Keys {
    tolerance: Option<Real>,
}

/// Reads the keys of a `golden` check (the one kind judged on the summary the others make:
/// [`CheckSpec::Golden`]).
///
/// # Errors
/// An unknown key, a bad tolerance.
pub(super) fn parse(_: &str, keys: toml::Value) -> Result<CheckSpec, String> {
    let g: Keys = read(keys)?;
    Ok(CheckSpec::Golden {
        tolerance: nonneg("tolerance", g.tolerance.unwrap_or(1e-8))?,
    })
}

/// Evaluates a `golden` check against the summary of the run (without golden outcomes).
pub fn evaluate_golden(tolerance: Real, ctx: &Context, summary: &Summary) -> CheckOutcome {
    let mut out = CheckOutcome {
        kind: "golden".into(),
        tolerance_kind: "relative".into(),
        code: vec![
            "src/check/golden.rs::evaluate".into(),
            "tests/cases.rs::cases_pass".into(),
        ],
        ..Default::default()
    };
    evaluate(ctx, summary, tolerance, &mut out);
    out
}

fn round(v: Real) -> Value {
    if v.is_finite() {
        json!(format!("{v:.9e}").parse::<Real>().unwrap_or(v))
    } else {
        json!(format!("{v}"))
    }
}

/// What is frozen of a run: the summary without wall time or golden checks, and the last value
/// of every recorded column, rounded to 10 significant digits.
pub fn golden_record(summary: &Summary, series: &SeriesTable) -> Value {
    let checks: Vec<Value> = summary
        .checks
        .iter()
        .filter(|c| c.kind != "golden")
        .map(|c| {
            json!({
                "kind": c.kind,
                "passed": c.passed,
                "value": c.value.map(round),
                "expected": c.expected.map(round),
            })
        })
        .collect();
    let mut last = serde_json::Map::new();
    for (name, col) in series.columns.iter().zip(&series.data) {
        if let Some(v) = col.last() {
            last.insert(name.clone(), round(*v));
        }
    }
    json!({
        "case": summary.case,
        "steps": summary.steps,
        "time": round(summary.time),
        "dt": {"min": round(summary.dt.min), "max": round(summary.dt.max), "last": round(summary.dt.last)},
        "bodies": summary.bodies,
        "contacts": summary.contacts,
        "contacts_active": summary.contacts_active,
        "checks": checks,
        "final": last,
    })
}

/// The JSON body of an insta snapshot file (after its `---` header).
///
/// # Errors
/// A missing or malformed file, as a sentence.
pub fn read_snapshot(path: &Path) -> Result<Value, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut parts = text.splitn(3, "---\n");
    let body = match (parts.next(), parts.next(), parts.next()) {
        (Some(""), Some(_header), Some(body)) => body,
        _ => &text,
    };
    serde_json::from_str(body).map_err(|e| format!("{}: {e}", path.display()))
}

/// The `golden/` folder next to the case's folder (or above it).
pub fn golden_dir(case_dir: &Path) -> Option<PathBuf> {
    let start = case_dir.canonicalize().ok()?;
    start
        .ancestors()
        .map(|a| a.join("golden"))
        .find(|g| g.is_dir())
}

/// Compares two JSON values; returns the first difference.
fn compare(path: &str, a: &Value, b: &Value, tol: Real, worst: &mut Real) -> Result<(), String> {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            let (x, y) = (
                x.as_f64().unwrap_or(Real::NAN),
                y.as_f64().unwrap_or(Real::NAN),
            );
            let rel = if x == y {
                0.0
            } else {
                (x - y).abs() / x.abs().max(y.abs())
            };
            *worst = worst.max(rel);
            if rel <= tol {
                Ok(())
            } else {
                Err(format!("{path}: {x} now, {y} in the snapshot"))
            }
        }
        (Value::Object(x), Value::Object(y)) => {
            for k in x.keys().chain(y.keys()) {
                match (x.get(k), y.get(k)) {
                    (Some(p), Some(q)) => compare(&format!("{path}/{k}"), p, q, tol, worst)?,
                    _ => {
                        return Err(format!(
                            "{path}/{k}: present in only one of run and snapshot"
                        ))
                    }
                }
            }
            Ok(())
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            for (k, (p, q)) in x.iter().zip(y).enumerate() {
                compare(&format!("{path}[{k}]"), p, q, tol, worst)?;
            }
            Ok(())
        }
        _ if a == b => Ok(()),
        _ => Err(format!("{path}: {a} now, {b} in the snapshot")),
    }
}

/// Compares the run with its snapshot.
fn evaluate(ctx: &Context, summary: &Summary, tolerance: Real, out: &mut CheckOutcome) {
    out.what = "summary and final values of every recorded series against the snapshot".into();
    out.formula =
        "golden/<name>.snap, written by `cargo test` and re-baselined only on purpose".into();
    out.expected = Some(0.0);
    out.tolerance = Some(tolerance);
    let Some(dir) = golden_dir(ctx.case.dir()) else {
        return out.fail("no golden/ folder beside or above the case".into());
    };
    let path = dir.join(format!("{}.snap", ctx.case.name()));
    let snap = match read_snapshot(&path) {
        Ok(v) => v,
        Err(e) => {
            return out.fail(format!(
                "{e} (create it with `INSTA_UPDATE=always cargo test cases -- --include-ignored`)"
            ))
        }
    };
    let now = golden_record(summary, ctx.series);
    let mut worst = 0.0;
    match compare("", &now, &snap, tolerance, &mut worst) {
        Ok(()) => {
            out.passed = true;
            out.value = Some(worst);
            out.message = format!("matches {}", path.display());
        }
        Err(e) => out.fail(e),
    }
}
