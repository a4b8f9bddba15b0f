//! The `drift` check (project extension): how far a quantity that the physics conserves moves
//! away from its initial value, for several timesteps.
//!
//! The case runs once per timestep over the same duration. The drift of a run is the largest
//! `|y(t) - y(0)| / |y(0)|` over its records (for a vector series, `|·|` is the Euclidean norm
//! of the vector). The check passes when the drift of every run is at most `tolerance` and, when
//! an order `p` is expected, when the slope of log(drift) against log(dt) is `p` within
//! `abs_tolerance`.

use super::context::Context;
use super::convergence::{fit_line, needs_duration, run_at};
use super::keys::{nonneg, read};
use super::kind::{Built, CheckKind};
use super::probe::Probe;
use crate::math::Real;
use crate::output::{base_series, Source};
use crate::record::{CheckOutcome, Tolerance};
use crate::record::{Curve, Plot};
use serde::Deserialize;

/// A relative drift below this is round-off of the run's sums (thousands of steps of 1e-16),
/// not a drift of the integrator: the report fits no order through such drifts.
const ROUND_OFF: Real = 1e-12;

/// `drift`: how far a conserved quantity moves, for several timesteps.
#[derive(Clone, Debug, PartialEq)]
pub struct Drift {
    /// A column, or a vector series without `.x/.y/.z` (judged by norms).
    series: String,
    /// The timesteps, s.
    dts: Vec<Real>,
    /// Largest accepted relative drift.
    tolerance: Real,
    /// Expected order in dt and its absolute tolerance, if judged.
    order: Option<(Real, Real)>,
    /// Why the quantity is conserved.
    formula: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Keys {
    series: String,
    dts: Vec<Real>,
    tolerance: Real,
    expected_order: Option<Real>,
    abs_tolerance: Option<Real>,
    formula: Option<String>,
}

impl CheckKind for Drift {
    fn parse(_: &str, keys: toml::Value) -> Result<Self, String> {
        let d: Keys = read(keys)?;
        if d.dts.is_empty() || d.dts.iter().any(|x| !(x.is_finite() && *x > 0.0)) {
            return Err("dts: give positive timesteps (s)".into());
        }
        if d.expected_order.is_some() && d.dts.len() < 2 {
            return Err("dts: an expected order needs at least two timesteps".into());
        }
        if d.abs_tolerance.is_some() && d.expected_order.is_none() {
            return Err("abs_tolerance: only with expected_order".into());
        }
        let tolerance = nonneg("tolerance", d.tolerance)?;
        let order = match d.expected_order {
            Some(p) if p.is_finite() => {
                Some((p, nonneg("abs_tolerance", d.abs_tolerance.unwrap_or(0.2))?))
            }
            Some(p) => return Err(format!("expected_order = {p}: must be finite")),
            None => None,
        };
        Ok(Drift {
            series: d.series,
            dts: d.dts,
            tolerance,
            order,
            formula: d.formula,
        })
    }

    fn kind(&self) -> &'static str {
        "drift"
    }

    fn validate(&self, built: &Built) -> Result<(), String> {
        needs_duration(built, self.kind())?;
        Source::parse(base_series(&self.series), built.model).map(drop)
    }

    fn evaluate(&self, ctx: &Context, _: Option<&Probe>, out: &mut CheckOutcome) {
        out.formula =
            (self.formula.clone()).unwrap_or_else(|| "y(t) = y(0) (a conserved quantity)".into());
        out.code.push("src/check/drift.rs::evaluate".into());
        if let Some(found) = self.drifts(ctx, out) {
            self.judge(found, out);
        }
    }
}

impl Drift {
    /// Runs the case at each timestep: the largest relative drift of each run, (dt, drift),
    /// and each run's relative drift over time; None (and `out` failed) when a run fails.
    fn drifts(&self, ctx: &Context, out: &mut CheckOutcome) -> Option<Drifts> {
        let series = self.series.as_str();
        // a vector series is recorded as three columns
        let vector = ctx.series.column(series).is_none()
            && ctx.series.column(&format!("{series}.x")).is_some();
        out.what = format!(
            "largest relative drift |y(t) − y(0)|/|y(0)| of {series}{} over the run, for {} timesteps",
            if vector { " (a vector: norms)" } else { "" },
            self.dts.len()
        );
        out.table.push(
            ["dt (s)", "cycles", "largest relative drift", "local order"]
                .map(String::from)
                .to_vec(),
        );
        let mut found = Drifts::default();
        for &dt in &self.dts {
            let (drift, curve) = match self.run(ctx, dt) {
                Ok(r) => r,
                Err(e) => {
                    out.fail(e);
                    return None;
                }
            };
            let local = (found.largest.last())
                .filter(|&&(_, e0): &&(Real, Real)| e0 > 0.0 && drift > 0.0)
                .map(|&(d0, e0)| format!("{:.3}", (drift / e0).ln() / (dt / d0).ln()))
                .unwrap_or_default();
            out.table.push(vec![
                crate::math::num(dt),
                curve.1.to_string(),
                format!("{drift:.4e}"),
                local,
            ]);
            found.runs.push(curve.0);
            found.largest.push((dt, drift));
        }
        Some(found)
    }

    /// One run at `dt`: its largest relative drift, and its relative drift over time with its
    /// number of cycles.
    fn run(&self, ctx: &Context, dt: Real) -> Result<(Real, (Curve, u64)), String> {
        let series = self.series.as_str();
        let end = run_at(ctx, dt, series)?;
        // a vector series is recorded as its components (three in 3D, fewer in 2D)
        let names: Vec<String> = match end.table.column(series) {
            Some(_) => vec![series.to_string()],
            None => ["x", "y", "z"].map(|c| format!("{series}.{c}")).to_vec(),
        };
        let cols: Vec<&[Real]> = names.iter().filter_map(|c| end.table.column(c)).collect();
        if cols.is_empty() {
            return Err(format!("series {series} was not recorded"));
        }
        let at = |k: usize| -> Vec<Real> { cols.iter().map(|c| c[k]).collect() };
        let norm = |v: &[Real]| v.iter().map(|x| x * x).sum::<Real>().sqrt();
        let y0 = at(0);
        let scale = norm(&y0);
        if !(scale > 0.0 && scale.is_finite()) {
            return Err(format!("{series} starts at zero: no relative drift"));
        }
        let rel: Vec<Real> = (0..end.table.t.len())
            .map(|k| {
                let d: Vec<Real> = at(k).iter().zip(&y0).map(|(a, b)| a - b).collect();
                norm(&d) / scale
            })
            .collect();
        let drift = rel.iter().cloned().fold(0.0, Real::max);
        let curve = Curve {
            label: format!("dt = {}", crate::math::num(dt)),
            x: end.table.t.clone(),
            y: rel,
            markers: false,
        };
        Ok((drift, (curve, end.cycles)))
    }

    /// Judges the largest drift and, when one is expected, the fitted order; plots both.
    fn judge(&self, found: Drifts, out: &mut CheckOutcome) {
        let drifts = &found.largest;
        let worst = drifts.iter().map(|d| d.1).fold(0.0, Real::max);
        out.judge(worst, 0.0, Tolerance::Absolute(self.tolerance));
        out.tolerance_kind = "absolute".into();
        out.message = format!("largest drift {worst:.3e} (limit {:.1e})", self.tolerance);
        let fit = (drifts.len() >= 2 && drifts.iter().all(|&(_, e)| e > 0.0 && e.is_finite()))
            .then(|| {
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
        if let Some((p_exp, abs)) = self.order {
            let Some((p, _)) = fit else {
                return out
                    .fail("a drift is zero or not finite: the order cannot be fitted".into());
            };
            let order_ok = (p - p_exp).abs() <= abs;
            out.passed &= order_ok;
            out.message += &format!(
                " (expected order {p_exp} ± {abs}: {})",
                if order_ok { "met" } else { "NOT met" }
            );
        }
        self.plot(found, fit.filter(|_| !at_round_off), fit.is_some(), out);
    }

    /// The drifts against the timestep (with the fit, if any) and each run's drift over time.
    fn plot(&self, found: Drifts, fit: Option<(Real, Real)>, log_y: bool, out: &mut CheckOutcome) {
        let (series, drifts) = (self.series.as_str(), &found.largest);
        let mut curves_dt = vec![Curve {
            label: "measured".into(),
            x: drifts.iter().map(|e| e.0).collect(),
            y: drifts.iter().map(|e| e.1).collect(),
            markers: true,
        }];
        if let Some((p, c)) = fit {
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
            log_y,
            curves: curves_dt,
        });
        out.plots.push(Plot {
            title: format!("Relative drift of {series} during each run"),
            x_label: "t (s)".into(),
            y_label: "|y(t) − y(0)| / |y(0)|".into(),
            log_x: false,
            log_y: false,
            curves: found.runs,
        });
    }
}

/// What the runs of a drift study found.
#[derive(Default)]
struct Drifts {
    /// (dt, largest relative drift) of each run.
    largest: Vec<(Real, Real)>,
    /// Each run's relative drift over time.
    runs: Vec<Curve>,
}
