//! The `drops` check (project extension): the drops of a series larger than a threshold,
//! counted.

use super::context::Context;
use super::keys::read;
use super::kind::CheckKind;
use super::probe::Probe;
use crate::math::Real;
use crate::record::CheckOutcome;
use serde::Deserialize;

/// `drops`: drops of a series larger than a threshold, counted.
#[derive(Clone, Debug, PartialEq)]
pub struct Drops {
    /// Column judged.
    series: String,
    /// Smallest fall from one record to the next that counts, in the column's units.
    min_drop: Real,
    /// Expected number of drops.
    expected: u32,
    /// Where the expected count comes from.
    formula: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Keys {
    series: String,
    min_drop: Real,
    expected: i64,
    formula: Option<String>,
}

impl CheckKind for Drops {
    fn parse(_: &str, keys: toml::Value) -> Result<Self, String> {
        let d: Keys = read(keys)?;
        if !(d.min_drop.is_finite() && d.min_drop > 0.0) {
            return Err(format!("min_drop = {}: must be positive", d.min_drop));
        }
        let expected = u32::try_from(d.expected).map_err(|_| {
            format!(
                "expected = {}: a count must be a non-negative integer",
                d.expected
            )
        })?;
        Ok(Drops {
            series: d.series,
            min_drop: d.min_drop,
            expected,
            formula: d.formula,
        })
    }

    fn kind(&self) -> &'static str {
        "drops"
    }

    fn series(&self) -> Option<&str> {
        Some(&self.series)
    }

    fn evaluate(&self, ctx: &Context, _: Option<&Probe>, out: &mut CheckOutcome) {
        out.formula = (self.formula.clone())
            .unwrap_or_else(|| format!("{} (given in the case)", self.expected));
        out.code.push("src/check/drops.rs::evaluate".into());
        judge(ctx, &self.series, self.min_drop, self.expected, out);
    }
}

/// Counts the drops of a column: records where it falls by more than `min_drop` (the column's
/// units) from the record before, against the expected count (project extension, e.g. a
/// shear force lost at each hand-over between facets in the reduced wall mode).
fn judge(ctx: &Context, series: &str, min_drop: Real, expected: u32, out: &mut CheckOutcome) {
    out.what = format!(
        "number of records where {series} falls by more than {min_drop} from the record before"
    );
    out.tolerance_kind = "range".into();
    out.accepted = format!("exactly {expected}");
    let Some(y) = ctx.series.column(series).filter(|y| y.len() > 1) else {
        return out.fail(format!(
            "series {series} was not recorded (or has one record)"
        ));
    };
    let t = &ctx.series.t;
    let at: Vec<usize> = (1..y.len())
        .filter(|&k| y[k - 1] - y[k] > min_drop)
        .collect();
    out.value = Some(at.len() as Real);
    out.expected = Some(expected as Real);
    out.passed = at.len() == expected as usize && y.iter().all(|v| v.is_finite());
    out.table = vec![["t (s)", "before", "after", "drop"]
        .map(String::from)
        .to_vec()];
    for &k in &at {
        out.table.push(vec![
            crate::math::num(t[k]),
            crate::math::num(y[k - 1]),
            crate::math::num(y[k]),
            crate::math::num(y[k - 1] - y[k]),
        ]);
    }
    out.message = format!(
        "{} drops larger than {min_drop} (expected {expected}){}",
        at.len(),
        if at.is_empty() {
            String::new()
        } else {
            format!(
                ", at t = {}",
                at.iter()
                    .take(8)
                    .map(|&k| crate::math::num(t[k]))
                    .collect::<Vec<_>>()
                    .join(", ")
                    + if at.len() > 8 { ", …" } else { "" }
            )
        }
    );
}
