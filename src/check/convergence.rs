//! The `convergence` check: the order of accuracy of the integrator, measured.
//!
//! The case runs once per timestep over the same duration; the error of each run is the largest
//! |series - exact(t)| over its records. A straight-line fit of log(error) against log(dt) gives
//! the order p (error ~ C dt^p).

use super::context::Context;
use crate::case::Reference;
use crate::math::Real;
use crate::output::base_series;
use crate::record::CheckOutcome;
use crate::record::{Curve, Plot};

/// Least-squares slope and intercept of y against x.
pub fn fit_line(x: &[Real], y: &[Real]) -> (Real, Real) {
    let n = x.len() as Real;
    let mx = x.iter().sum::<Real>() / n;
    let my = y.iter().sum::<Real>() / n;
    let sxy: Real = x.iter().zip(y).map(|(a, b)| (a - mx) * (b - my)).sum();
    let sxx: Real = x.iter().map(|a| (a - mx) * (a - mx)).sum();
    let slope = sxy / sxx;
    (slope, my - slope * mx)
}

/// Runs the case with the fixed timestep `dt`, recording `series` (a column or a vector
/// series); an error sentence when it cannot be built or stops early (studies over dt share it).
pub(super) fn run_at(
    ctx: &Context,
    dt: Real,
    series: &str,
) -> Result<crate::run::Simulation, String> {
    let sim = crate::run::simulate(
        ctx.case,
        Some(dt),
        &[base_series(series).to_string()],
        false,
        None,
    )
    .map_err(|e| format!("dt = {dt}: {e}"))?;
    match &sim.error {
        Some(e) => Err(format!("dt = {dt}: the run stopped: {e}")),
        None => Ok(sim),
    }
}

/// Runs the case at each timestep and fits the order.
pub fn evaluate(
    ctx: &Context,
    series: &str,
    dts: &[Real],
    reference: &Reference,
    expected_order: Real,
    abs_tolerance: Real,
    out: &mut CheckOutcome,
) {
    out.what = format!(
        "order p of the error of {series} (largest |error| over the run, error ≈ C·dtᵖ), fitted over {} timesteps",
        dts.len()
    );
    let mut errors = Vec::new();
    out.table.push(
        ["dt (s)", "cycles", "largest error", "local order"]
            .map(String::from)
            .to_vec(),
    );
    for &dt in dts {
        let sim = match run_at(ctx, dt, series) {
            Ok(s) => s,
            Err(e) => return out.fail(e),
        };
        let Some(y) = sim.table.column(series) else {
            return out.fail(format!("series {series} was not recorded"));
        };
        let err = sim
            .table
            .t
            .iter()
            .zip(y)
            .map(|(&t, v)| (v - reference.eval(t)).abs())
            .fold(0.0, Real::max);
        let local = errors
            .last()
            .map(|&(d0, e0): &(Real, Real)| format!("{:.3}", (err / e0).ln() / (dt / d0).ln()))
            .unwrap_or_default();
        out.table.push(vec![
            crate::math::num(dt),
            sim.model.cycles.to_string(),
            format!("{err:.4e}"),
            local,
        ]);
        errors.push((dt, err));
    }
    if errors.iter().any(|&(_, e)| !(e > 0.0 && e.is_finite())) {
        return out.fail("an error is zero or not finite: the order cannot be fitted".into());
    }
    let lx: Vec<Real> = errors.iter().map(|e| e.0.ln()).collect();
    let ly: Vec<Real> = errors.iter().map(|e| e.1.ln()).collect();
    let (p, c) = fit_line(&lx, &ly);
    out.judge(
        p,
        expected_order,
        crate::record::Tolerance::Absolute(abs_tolerance),
    );
    out.message = format!("fitted error ≈ {:.3e}·dt^{p:.4}", c.exp());
    let (d0, d1) = (errors[0].0, errors[errors.len() - 1].0);
    let fine = dts.iter().cloned().fold(Real::INFINITY, Real::min);
    let guide_at = errors
        .iter()
        .find(|e| e.0 == fine)
        .map_or(errors[0].1, |e| e.1);
    out.plots.push(Plot {
        title: format!("Convergence: error of {series} against the timestep"),
        x_label: "dt (s)".into(),
        y_label: "largest |error|".into(),
        log_x: true,
        log_y: true,
        curves: vec![
            Curve {
                label: "measured".into(),
                x: errors.iter().map(|e| e.0).collect(),
                y: errors.iter().map(|e| e.1).collect(),
                markers: true,
            },
            Curve {
                label: format!("fit: slope {p:.3}"),
                x: vec![d0, d1],
                y: vec![(c + p * d0.ln()).exp(), (c + p * d1.ln()).exp()],
                markers: false,
            },
            Curve {
                label: format!("slope {expected_order} through the finest run"),
                x: vec![d0, d1],
                y: [d0, d1]
                    .map(|d| guide_at * (d / fine).powf(expected_order))
                    .to_vec(),
                markers: false,
            },
        ],
    });
    out.reference = Some(Curve {
        label: "exact solution".into(),
        x: ctx.series.t.clone(),
        y: ctx.series.t.iter().map(|&t| reference.eval(t)).collect(),
        markers: false,
    });
}
