//! The `harmonic` check: the period of an oscillating series.

use super::context::Context;
use crate::math::{Real, PI};
use crate::record::CheckOutcome;
use crate::record::Curve;

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
pub fn evaluate(
    ctx: &Context,
    series: &str,
    period: Real,
    tolerance: Real,
    max_ratio: Option<Real>,
    out: &mut CheckOutcome,
) {
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
    match max_ratio {
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
