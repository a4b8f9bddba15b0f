//! The `harmonic` check: the period of an oscillating series.

use super::context::Context;
use super::keys::{nonneg, read};
use super::kind::CheckKind;
use super::probe::Probe;
use crate::math::{Real, PI};
use crate::record::CheckOutcome;
use crate::record::Curve;
use serde::Deserialize;

/// `harmonic`: the period of an oscillating series.
#[derive(Clone, Debug, PartialEq)]
pub struct Harmonic {
    /// Column judged.
    series: String,
    /// Expected period, s.
    period: Real,
    /// Relative tolerance.
    tolerance: Real,
    /// Instead of a tolerance: pass when measured / period is at most this (project
    /// extension: "stiffer than", a shorter period than the reference).
    max_ratio: Option<Real>,
    /// How the expected value was derived (shown in the report).
    formula: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Keys {
    series: String,
    period: Real,
    tolerance: Option<Real>,
    max_ratio: Option<Real>,
    formula: Option<String>,
}

impl CheckKind for Harmonic {
    fn parse(_: &str, keys: toml::Value) -> Result<Self, String> {
        let h: Keys = read(keys)?;
        if !(h.period.is_finite() && h.period > 0.0) {
            return Err(format!("period = {}: must be positive (s)", h.period));
        }
        let (tolerance, max_ratio) = match (h.tolerance, h.max_ratio) {
            (Some(t), None) => (nonneg("tolerance", t)?, None),
            (None, Some(r)) if r.is_finite() && r > 0.0 => (0.0, Some(r)),
            (None, Some(r)) => return Err(format!("max_ratio = {r}: must be positive")),
            _ => return Err("give exactly one of `tolerance` and `max_ratio`".into()),
        };
        Ok(Harmonic {
            series: h.series,
            period: h.period,
            tolerance,
            max_ratio,
            formula: h.formula,
        })
    }

    fn kind(&self) -> &'static str {
        "harmonic"
    }

    fn series(&self) -> Option<&str> {
        Some(&self.series)
    }

    fn evaluate(&self, ctx: &Context, _: Option<&Probe>, out: &mut CheckOutcome) {
        out.formula = (self.formula.clone())
            .unwrap_or_else(|| format!("T = {} s (given in the case)", self.period));
        out.code.push("src/check/harmonic.rs::evaluate".into());
        measure_period(ctx, self, out);
    }
}

/// Times at which `y` crosses `level` upwards, by linear interpolation between samples.
pub fn upward_crossings(t: &[Real], y: &[Real], level: Real) -> Vec<Real> {
    let mut out = Vec::new();
    for k in 1..y.len() {
        let (y0, y1) = (y[k - 1] - level, y[k] - level);
        if y0 < 0.0 && y1 >= 0.0 {
            out.push(t[k - 1] + (t[k] - t[k - 1]) * (-y0) / (y1 - y0));
        }
    }
    out
}

/// Measures the period as the mean spacing of upward crossings of the mid-range level.
fn measure_period(ctx: &Context, h: &Harmonic, out: &mut CheckOutcome) {
    let (series, period, tolerance) = (h.series.as_str(), h.period, h.tolerance);
    out.what = format!("period of {series}, from its upward crossings of the mid-range level (linear interpolation between records)");
    out.expected = Some(period);
    out.tolerance = Some(tolerance);
    let Some(y) = ctx.series.column(series) else {
        return out.fail(format!("series {series} was not recorded"));
    };
    let t = &ctx.series.t;
    let (lo, hi) = y
        .iter()
        .fold((Real::INFINITY, Real::NEG_INFINITY), |(a, b), &v| {
            (a.min(v), b.max(v))
        });
    let mid = 0.5 * (lo + hi);
    let c = upward_crossings(t, y, mid);
    if c.len() < 2 || hi <= lo {
        return out.fail(format!(
            "{series} completed fewer than one oscillation ({} upward crossings)",
            c.len()
        ));
    }
    let measured = (c[c.len() - 1] - c[0]) / (c.len() - 1) as Real;
    match h.max_ratio {
        None => {
            out.judge_relative(measured, period, tolerance);
            out.message = format!("{} full periods measured", c.len() - 1);
        }
        Some(r) => {
            out.value = Some(measured);
            out.tolerance = None;
            out.tolerance_kind = "range".into();
            out.accepted = format!("at most {r} × the reference period");
            out.passed = measured.is_finite() && measured <= r * period;
            let ratio = measured / period;
            out.message = format!(
                "{} full periods measured: {ratio:.4} × the reference period, an effective stiffness {:.3} × the reference one",
                c.len() - 1,
                1.0 / (ratio * ratio)
            );
        }
    }
    let amp = 0.5 * (hi - lo);
    out.reference = Some(Curve {
        label: format!("mid + A sin(2π(t - t₁)/T), T = {period:.6e} s"),
        x: t.to_vec(),
        y: t.iter()
            .map(|&s| mid + amp * (2.0 * PI * (s - c[0]) / period).sin())
            .collect(),
        markers: false,
    });
}
