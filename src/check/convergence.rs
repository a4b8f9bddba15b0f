//! The `convergence` check (project extension): the order of accuracy of the integrator,
//! measured.
//!
//! The case runs once per timestep over the same duration; the error of each run is the largest
//! |series - exact(t)| over its records. A straight-line fit of log(error) against log(dt) gives
//! the order p (error ~ C dt^p).

use super::context::{Context, RunEnd};
use super::keys::{nonneg, read};
use super::kind::{Built, CheckKind};
use super::probe::Probe;
use super::reference::Reference;
use crate::math::Real;
use crate::output::base_series;
use crate::record::CheckOutcome;
use crate::record::{Curve, Plot};
use serde::Deserialize;

/// `convergence`: the error against an analytic solution for several timesteps, and the
/// fitted order of accuracy.
#[derive(Clone, Debug, PartialEq)]
pub struct Convergence {
    /// Column judged.
    series: String,
    /// The timesteps, s.
    dts: Vec<Real>,
    /// The exact solution.
    reference: Reference,
    /// Expected order.
    expected_order: Real,
    /// Absolute tolerance on the order.
    abs_tolerance: Real,
    /// How the reference was derived.
    formula: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Keys {
    series: String,
    dts: Vec<Real>,
    reference: Reference,
    expected_order: Option<Real>,
    abs_tolerance: Option<Real>,
    formula: Option<String>,
}

impl CheckKind for Convergence {
    fn parse(_: &str, keys: toml::Value) -> Result<Self, String> {
        let c: Keys = read(keys)?;
        c.reference.validate()?;
        if c.dts.len() < 2 || c.dts.iter().any(|d| !(d.is_finite() && *d > 0.0)) {
            return Err("dts: give at least two positive timesteps (s)".into());
        }
        Ok(Convergence {
            series: c.series,
            dts: c.dts,
            reference: c.reference,
            expected_order: c.expected_order.unwrap_or(2.0),
            abs_tolerance: nonneg("abs_tolerance", c.abs_tolerance.unwrap_or(0.1))?,
            formula: c.formula,
        })
    }

    fn kind(&self) -> &'static str {
        "convergence"
    }

    fn series(&self) -> Option<&str> {
        Some(&self.series)
    }

    fn validate(&self, built: &Built) -> Result<(), String> {
        needs_duration(built, self.kind())
    }

    fn evaluate(&self, ctx: &Context, _: Option<&Probe>, out: &mut CheckOutcome) {
        out.formula = self.reference.formula_with(self.formula.as_deref());
        out.code.push("src/check/convergence.rs::evaluate".into());
        let Some(errors) = self.errors(ctx, out) else {
            return;
        };
        self.fit(ctx, &errors, out);
    }
}

/// A study over the timestep runs the same time at each: it needs `[run] duration`.
///
/// # Errors
/// The case gives no duration.
pub(super) fn needs_duration(built: &Built, kind: &str) -> Result<(), String> {
    if built.duration.is_none() {
        return Err(format!(
            "a {kind} study needs [run] duration (each timestep runs the same time)"
        ));
    }
    Ok(())
}

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
pub(super) fn run_at(ctx: &Context, dt: Real, series: &str) -> Result<RunEnd, String> {
    let end = (ctx.case)
        .run_at(dt, &[base_series(series).to_string()])
        .map_err(|e| format!("dt = {dt}: {e}"))?;
    match &end.error {
        Some(e) => Err(format!("dt = {dt}: the run stopped: {e}")),
        None => Ok(end),
    }
}

impl Convergence {
    /// Runs the case at each timestep: the largest error of each run, (dt, error); None (and
    /// `out` failed) when a run fails or an error cannot be fitted.
    fn errors(&self, ctx: &Context, out: &mut CheckOutcome) -> Option<Vec<(Real, Real)>> {
        let (series, reference) = (self.series.as_str(), &self.reference);
        out.what = format!(
            "order p of the error of {series} (largest |error| over the run, error ≈ C·dtᵖ), fitted over {} timesteps",
            self.dts.len()
        );
        let mut errors = Vec::new();
        out.table.push(
            ["dt (s)", "cycles", "largest error", "local order"]
                .map(String::from)
                .to_vec(),
        );
        for &dt in &self.dts {
            let end = match run_at(ctx, dt, series) {
                Ok(s) => s,
                Err(e) => return fail(out, e),
            };
            let Some(y) = end.table.column(series) else {
                return fail(out, format!("series {series} was not recorded"));
            };
            let err = (end.table.t.iter())
                .zip(y)
                .map(|(&t, v)| (v - reference.eval(t)).abs())
                .fold(0.0, Real::max);
            let local = errors
                .last()
                .map(|&(d0, e0): &(Real, Real)| format!("{:.3}", (err / e0).ln() / (dt / d0).ln()))
                .unwrap_or_default();
            out.table.push(vec![
                crate::math::num(dt),
                end.cycles.to_string(),
                format!("{err:.4e}"),
                local,
            ]);
            errors.push((dt, err));
        }
        if errors.iter().any(|&(_, e)| !(e > 0.0 && e.is_finite())) {
            return fail(
                out,
                "an error is zero or not finite: the order cannot be fitted".into(),
            );
        }
        Some(errors)
    }

    /// Fits the order through the errors and judges it; plots the errors and the fit.
    fn fit(&self, ctx: &Context, errors: &[(Real, Real)], out: &mut CheckOutcome) {
        let (series, expected_order) = (self.series.as_str(), self.expected_order);
        let lx: Vec<Real> = errors.iter().map(|e| e.0.ln()).collect();
        let ly: Vec<Real> = errors.iter().map(|e| e.1.ln()).collect();
        let (p, c) = fit_line(&lx, &ly);
        out.judge(
            p,
            expected_order,
            crate::record::Tolerance::Absolute(self.abs_tolerance),
        );
        out.message = format!("fitted error ≈ {:.3e}·dt^{p:.4}", c.exp());
        let (d0, d1) = (errors[0].0, errors[errors.len() - 1].0);
        let fine = self.dts.iter().cloned().fold(Real::INFINITY, Real::min);
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
            y: ctx
                .series
                .t
                .iter()
                .map(|&t| self.reference.eval(t))
                .collect(),
            markers: false,
        });
    }
}

/// Fails `out` with `reason`: no value to go on with.
fn fail<T>(out: &mut CheckOutcome, reason: String) -> Option<T> {
    out.fail(reason);
    None
}
