//! The `final_value` check: the last recorded value of a series.

use super::context::Context;
use super::keys::{read, tolerance_of};
use super::kind::CheckKind;
use super::probe::Probe;
use crate::math::Real;
use crate::record::Curve;
use crate::record::{CheckOutcome, Tolerance};
use serde::Deserialize;

/// `final_value`: the last recorded value of a series.
#[derive(Clone, Debug, PartialEq)]
pub struct FinalValue {
    /// Column judged.
    series: String,
    /// Expected value.
    expected: Real,
    /// Tolerance.
    tolerance: Tolerance,
    /// How the expected value was derived.
    formula: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Keys {
    series: String,
    expected: Real,
    tolerance: Option<Real>,
    abs_tolerance: Option<Real>,
    formula: Option<String>,
}

impl CheckKind for FinalValue {
    fn parse(_: &str, keys: toml::Value) -> Result<Self, String> {
        let f: Keys = read(keys)?;
        if !f.expected.is_finite() {
            return Err(format!("expected = {}: must be finite", f.expected));
        }
        Ok(FinalValue {
            series: f.series,
            expected: f.expected,
            tolerance: tolerance_of(f.tolerance, f.abs_tolerance)?,
            formula: f.formula,
        })
    }

    fn kind(&self) -> &'static str {
        "final_value"
    }

    fn series(&self) -> Option<&str> {
        Some(&self.series)
    }

    fn evaluate(&self, ctx: &Context, _: Option<&Probe>, out: &mut CheckOutcome) {
        out.formula = (self.formula.clone())
            .unwrap_or_else(|| format!("{} (given in the case)", self.expected));
        out.code.push("src/check/final_value.rs::evaluate".into());
        judge(ctx, &self.series, self.expected, self.tolerance, out);
    }
}

/// The last recorded value of a column against the expected value.
fn judge(ctx: &Context, series: &str, expected: Real, tol: Tolerance, out: &mut CheckOutcome) {
    out.what = format!("last recorded value of {series}");
    let Some(y) = ctx.series.column(series).filter(|y| !y.is_empty()) else {
        return out.fail(format!("series {series} was not recorded"));
    };
    out.judge(y[y.len() - 1], expected, tol);
    let t = &ctx.series.t;
    out.reference = Some(Curve {
        label: format!("expected final value {}", crate::math::num(expected)),
        x: vec![t[0], t[t.len() - 1]],
        y: vec![expected, expected],
        markers: false,
    });
}
