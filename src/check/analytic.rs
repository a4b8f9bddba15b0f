//! The `analytic` check (project extension): a series against an analytic function of time
//! at every record.

use super::context::Context;
use super::keys::{read, tolerance_of};
use super::kind::CheckKind;
use super::probe::Probe;
use super::reference::Reference;
use crate::math::Real;
use crate::record::Curve;
use crate::record::{CheckOutcome, Tolerance};
use serde::Deserialize;

/// `analytic`: a series against an analytic function of time at every record.
#[derive(Clone, Debug, PartialEq)]
pub struct Analytic {
    /// Column judged.
    series: String,
    /// The function.
    reference: Reference,
    /// Tolerance on the largest error (relative: to the largest |reference|).
    tolerance: Tolerance,
    /// How the reference was derived.
    formula: Option<String>,
    /// Only the records at or after this time, s (0: all).
    after: Real,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Keys {
    series: String,
    reference: Reference,
    tolerance: Option<Real>,
    abs_tolerance: Option<Real>,
    formula: Option<String>,
    after: Option<Real>,
}

impl CheckKind for Analytic {
    fn parse(_: &str, keys: toml::Value) -> Result<Self, String> {
        let a: Keys = read(keys)?;
        a.reference.validate()?;
        let after = a.after.unwrap_or(0.0);
        if !(after.is_finite() && after >= 0.0) {
            return Err(format!("after = {after}: must be a finite time >= 0 (s)"));
        }
        Ok(Analytic {
            series: a.series,
            reference: a.reference,
            tolerance: tolerance_of(a.tolerance, a.abs_tolerance)?,
            formula: a.formula,
            after,
        })
    }

    fn kind(&self) -> &'static str {
        "analytic"
    }

    fn series(&self) -> Option<&str> {
        Some(&self.series)
    }

    fn evaluate(&self, ctx: &Context, _: Option<&Probe>, out: &mut CheckOutcome) {
        out.formula = self.reference.formula_with(self.formula.as_deref());
        out.code.push("src/check/analytic.rs::evaluate".into());
        judge(ctx, self, out);
    }
}

/// A column against an analytic function at every record: the largest error, absolute or
/// relative to the largest |reference|.
fn judge(ctx: &Context, a: &Analytic, out: &mut CheckOutcome) {
    let (series, reference, tol, after) = (a.series.as_str(), &a.reference, a.tolerance, a.after);
    let Some(y) = ctx.series.column(series) else {
        return out.fail(format!("series {series} was not recorded"));
    };
    let t = &ctx.series.t;
    let r: Vec<Real> = t.iter().map(|&s| reference.eval(s)).collect();
    // (only the records from `after` on are judged)
    let judged = || (t.iter().zip(y).zip(&r)).filter(|((s, _), _)| **s >= after);
    let n = judged().count();
    if n == 0 {
        return out.fail(format!("no record at or after t = {after} s"));
    }
    let err = judged()
        .map(|((_, a), b)| (a - b).abs())
        .fold(0.0, Real::max);
    let scale = judged().map(|(_, v)| v.abs()).fold(0.0, Real::max);
    let from = if after > 0.0 {
        format!(" from t = {after} s")
    } else {
        String::new()
    };
    let value = match tol {
        Tolerance::Relative(_) => {
            out.what = format!(
                "largest |{series} − y(t)| over {n} records{from}, divided by the largest |y(t)|"
            );
            err / scale
        }
        Tolerance::Absolute(_) => {
            out.what = format!("largest |{series} − y(t)| over {n} records{from}");
            err
        }
    };
    out.judge(value, 0.0, Tolerance::Absolute(0.0));
    let limit = match tol {
        Tolerance::Relative(v) | Tolerance::Absolute(v) => v,
    };
    out.tolerance = Some(limit);
    out.tolerance_kind = "absolute".into();
    out.passed = value.is_finite() && value <= limit;
    out.reference = Some(Curve {
        label: "analytic y(t)".into(),
        x: t.clone(),
        y: r,
        markers: false,
    });
}
