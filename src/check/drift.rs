//! The `drift` check (project extension): how far a quantity that the physics conserves moves
//! away from its initial value, for several timesteps.
//!
//! The case runs once per timestep over the same duration. The drift of a run is the largest
//! `|y(t) - y(0)| / |y(0)|` over its records (for a vector series, `|·|` is the Euclidean norm
//! of the vector). The check passes when the drift of every run is at most `tolerance` and, when
//! an order `p` is expected, when the slope of log(drift) against log(dt) is `p` within
//! `abs_tolerance`.

use super::context::Context;
use super::convergence::{fit_line, run_at};
use crate::math::Real;
use crate::record::{CheckOutcome, Tolerance};
use crate::record::{Curve, Plot};

/// A relative drift below this is round-off of the run's sums (thousands of steps of 1e-16),
/// not a drift of the integrator: the report fits no order through such drifts.
const ROUND_OFF: Real = 1e-12;

/// The timesteps and the order a drift check expects.
pub struct DriftSpec<'a> {
    /// Series name: a column, or a vector series without `.x/.y/.z`.
    pub series: &'a str,
    /// Timesteps, s.
    pub dts: &'a [Real],
    /// Largest accepted relative drift.
    pub tolerance: Real,
    /// Expected order of the drift in dt, and its absolute tolerance.
    pub order: Option<(Real, Real)>,
}

/// Runs the case at each timestep and measures the drift.
pub fn evaluate(ctx: &Context, spec: &DriftSpec, out: &mut CheckOutcome) {
    let series = spec.series;
    // a vector series is recorded as three columns
    let vector =
        ctx.series.column(series).is_none() && ctx.series.column(&format!("{series}.x")).is_some();
    out.what = format!(
        "largest relative drift |y(t) − y(0)|/|y(0)| of {series}{} over the run, for {} timesteps",
        if vector { " (a vector: norms)" } else { "" },
        spec.dts.len()
    );
    out.table.push(
        ["dt (s)", "cycles", "largest relative drift", "local order"]
            .map(String::from)
            .to_vec(),
    );
    let mut drifts = Vec::new();
    let mut curves = Vec::new();
    for &dt in spec.dts {
        let sim = match run_at(ctx, dt, series) {
            Ok(s) => s,
            Err(e) => return out.fail(e),
        };
        // a vector series is recorded as its components (three in 3D, fewer in 2D)
        let names: Vec<String> = match sim.table.column(series) {
            Some(_) => vec![series.to_string()],
            None => ["x", "y", "z"].map(|c| format!("{series}.{c}")).to_vec(),
        };
        let cols: Vec<&[Real]> = names.iter().filter_map(|c| sim.table.column(c)).collect();
        if cols.is_empty() {
            return out.fail(format!("series {series} was not recorded"));
        }
        let at = |k: usize| -> Vec<Real> { cols.iter().map(|c| c[k]).collect() };
        let norm = |v: &[Real]| v.iter().map(|x| x * x).sum::<Real>().sqrt();
        let y0 = at(0);
        let scale = norm(&y0);
        if !(scale > 0.0 && scale.is_finite()) {
            return out.fail(format!("{series} starts at zero: no relative drift"));
        }
        let rel: Vec<Real> = (0..sim.table.t.len())
            .map(|k| {
                let d: Vec<Real> = at(k).iter().zip(&y0).map(|(a, b)| a - b).collect();
                norm(&d) / scale
            })
            .collect();
        let drift = rel.iter().cloned().fold(0.0, Real::max);
        let local = drifts
            .last()
            .filter(|&&(_, e0): &&(Real, Real)| e0 > 0.0 && drift > 0.0)
            .map(|&(d0, e0)| format!("{:.3}", (drift / e0).ln() / (dt / d0).ln()))
            .unwrap_or_default();
        out.table.push(vec![
            crate::math::num(dt),
            sim.model.cycles.to_string(),
            format!("{drift:.4e}"),
            local,
        ]);
        curves.push(Curve {
            label: format!("dt = {}", crate::math::num(dt)),
            x: sim.table.t.clone(),
            y: rel,
            markers: false,
        });
        drifts.push((dt, drift));
    }
    let worst = drifts.iter().map(|d| d.1).fold(0.0, Real::max);
    out.judge(worst, 0.0, Tolerance::Absolute(spec.tolerance));
    out.tolerance_kind = "absolute".into();
    out.message = format!("largest drift {worst:.3e} (limit {:.1e})", spec.tolerance);
    let fit =
        (drifts.len() >= 2 && drifts.iter().all(|&(_, e)| e > 0.0 && e.is_finite())).then(|| {
            let lx: Vec<Real> = drifts.iter().map(|e| e.0.ln()).collect();
            let ly: Vec<Real> = drifts.iter().map(|e| e.1.ln()).collect();
            fit_line(&lx, &ly)
        });
    // (drifts at round-off have no order: a line through them means nothing)
    let at_round_off = worst < ROUND_OFF;
    if at_round_off {
        out.message +=
            &format!("; every drift is at round-off (below {ROUND_OFF:e}): no order is fitted");
    } else if let Some((p, c)) = fit {
        out.message += &format!("; fitted drift ≈ {:.3e}·dt^{p:.4}", c.exp());
    }
    if let Some((p_exp, abs)) = spec.order {
        let Some((p, _)) = fit else {
            return out.fail("a drift is zero or not finite: the order cannot be fitted".into());
        };
        let order_ok = (p - p_exp).abs() <= abs;
        out.passed &= order_ok;
        out.message += &format!(
            " (expected order {p_exp} ± {abs}: {})",
            if order_ok { "met" } else { "NOT met" }
        );
    }
    let mut curves_dt = vec![Curve {
        label: "measured".into(),
        x: drifts.iter().map(|e| e.0).collect(),
        y: drifts.iter().map(|e| e.1).collect(),
        markers: true,
    }];
    if let Some((p, c)) = fit.filter(|_| !at_round_off) {
        curves_dt.push(Curve {
            label: format!("fit: slope {p:.3}"),
            x: drifts.iter().map(|e| e.0).collect(),
            y: drifts.iter().map(|e| (c + p * e.0.ln()).exp()).collect(),
            markers: false,
        });
    }
    out.plots.push(Plot {
        title: format!("Drift of {series} against the timestep"),
        x_label: "dt (s)".into(),
        y_label: "largest relative drift (-)".into(),
        log_x: true,
        log_y: fit.is_some(),
        curves: curves_dt,
    });
    out.plots.push(Plot {
        title: format!("Relative drift of {series} during each run"),
        x_label: "t (s)".into(),
        y_label: "|y(t) − y(0)| / |y(0)|".into(),
        log_x: false,
        log_y: false,
        curves,
    });
}
