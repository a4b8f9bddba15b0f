//! The `critical_timestep` check (docs/CASES.md, section 14): the timestep estimate without its safety
//! factor against the exact critical timestep `2 / omega_max` of the assembled `K` and `M`
//! (all free DOFs, rotations included, all active contacts), at one cycle of the run.
//!
//! Both estimates are computed and shown: seed 000's diagonal estimate (eq. 11) and the row-sum
//! bound; the check judges the one the case names (`estimator`, default: the one of the case's
//! `[timestep]`, else `diagonal`). Extensions: `min_ratio` (a lower limit on the ratio, e.g. to
//! pin down a known non-conservative configuration), `exact` (a closed-form critical timestep,
//! s, that the eigen-solver must reproduce within `exact_tolerance`, default 1e-9), `formula`.

use super::context::Context;
use super::keys::{nonneg, read};
use super::kind::CheckKind;
use super::probe::{Probe, ProbeState};
use crate::math::{num, Real};
use crate::model::Model;
use crate::record::CheckOutcome;
use crate::stiffness::{
    dof_name, estimate_critical, CriticalEstimate, ExactCritical, GlobalStiffness,
};
use crate::timestep::Estimator;
use serde::Deserialize;

/// `critical_timestep`: a critical-timestep estimate against the exact eigenvalue.
#[derive(Clone, Debug, PartialEq)]
pub struct CriticalTimestep {
    /// Cycle at which the model is analysed.
    at_step: u64,
    /// Largest accepted estimate/exact ratio.
    max_ratio: Real,
    /// Smallest accepted ratio (extension).
    min_ratio: Option<Real>,
    /// Which estimate is judged (None: the case's).
    estimator: Option<Estimator>,
    /// Closed-form exact critical timestep, s (extension).
    exact: Option<Real>,
    /// Relative tolerance on `exact`.
    exact_tolerance: Real,
    /// How `exact` was derived.
    formula: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Keys {
    at_step: Option<u64>,
    max_ratio: Option<Real>,
    min_ratio: Option<Real>,
    estimator: Option<String>,
    exact: Option<Real>,
    exact_tolerance: Option<Real>,
    formula: Option<String>,
}

impl CheckKind for CriticalTimestep {
    fn parse(_: &str, keys: toml::Value) -> Result<Self, String> {
        let c: Keys = read(keys)?;
        let estimator = match c.estimator.as_deref() {
            None => None,
            Some("diagonal") => Some(Estimator::Diagonal),
            Some("bound") => Some(Estimator::Bound),
            Some(e) => {
                return Err(format!(
                    "estimator = \"{e}\": expected \"diagonal\" or \"bound\""
                ))
            }
        };
        let max_ratio = c.max_ratio.unwrap_or(1.0);
        if !(max_ratio.is_finite() && max_ratio > 0.0) {
            return Err(format!("max_ratio = {max_ratio}: must be positive"));
        }
        if let Some(lo) = c.min_ratio {
            if !(lo.is_finite() && lo >= 0.0 && lo <= max_ratio) {
                return Err(format!("min_ratio = {lo}: must be between 0 and max_ratio"));
            }
        }
        if let Some(x) = c.exact {
            if !(x.is_finite() && x > 0.0) {
                return Err(format!("exact = {x}: must be a positive timestep (s)"));
            }
        }
        Ok(CriticalTimestep {
            at_step: c.at_step.unwrap_or(0),
            max_ratio,
            min_ratio: c.min_ratio,
            estimator,
            exact: c.exact,
            exact_tolerance: nonneg("exact_tolerance", c.exact_tolerance.unwrap_or(1e-9))?,
            formula: c.formula,
        })
    }

    fn kind(&self) -> &'static str {
        "critical_timestep"
    }

    fn probe(&self, _: &Model) -> Option<Probe> {
        Some(Probe::new(CriticalProbe::new(self.at_step)))
    }

    fn evaluate(&self, ctx: &Context, probe: Option<&Probe>, out: &mut CheckOutcome) {
        out.code.clear();
        let probe = probe.and_then(Probe::state::<CriticalProbe>);
        self.judge(ctx, probe.and_then(|p| p.snapshot.as_ref()), out);
    }
}

/// The estimates and the exact value at one cycle.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct CriticalSnapshot {
    /// Cycle at which they were computed.
    pub cycle: u64,
    /// Seed 000's diagonal estimate and the id of the ball that sets it.
    pub diagonal: (CriticalEstimate, u64),
    /// The row-sum bound and the id of the ball that sets it.
    pub bound: (CriticalEstimate, u64),
    /// The exact value.
    pub exact: ExactCritical,
}

impl CriticalSnapshot {
    /// Computes both estimates and the exact value for the model as it is.
    pub fn take(model: &Model) -> Self {
        let est = |e| {
            let c = estimate_critical(model, e);
            let id = model.balls.id.get(c.ball).copied().unwrap_or(0);
            (c, id)
        };
        CriticalSnapshot {
            cycle: model.cycles,
            diagonal: est(Estimator::Diagonal),
            bound: est(Estimator::Bound),
            exact: GlobalStiffness::assemble(model).exact_critical(),
        }
    }

    /// The estimate of the given kind.
    pub fn estimate(&self, e: Estimator) -> (CriticalEstimate, u64) {
        match e {
            Estimator::Diagonal => self.diagonal,
            Estimator::Bound => self.bound,
        }
    }
}

/// Takes a [`CriticalSnapshot`] at the given cycle (0: after priming, before the first cycle).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct CriticalProbe {
    at_step: u64,
    /// The snapshot, once taken.
    pub snapshot: Option<CriticalSnapshot>,
}

impl CriticalProbe {
    /// A probe for cycle `at_step`.
    pub fn new(at_step: u64) -> Self {
        CriticalProbe {
            at_step,
            snapshot: None,
        }
    }
}

impl ProbeState for CriticalProbe {
    fn observe(&mut self, model: &Model) {
        if self.snapshot.is_none() && model.cycles == self.at_step {
            self.snapshot = Some(CriticalSnapshot::take(model));
        }
    }
}

impl CriticalTimestep {
    /// Judges the probe's snapshot.
    fn judge(&self, ctx: &Context, snap: Option<&CriticalSnapshot>, out: &mut CheckOutcome) {
        let estimator = self.estimator.unwrap_or(match ctx.case.timestep() {
            crate::timestep::TimestepMode::Auto(a) => a.estimator,
            crate::timestep::TimestepMode::Scaled(s) => s.estimator,
            _ => Estimator::Diagonal,
        });
        self.describe(estimator, out);
        let Some(s) = snap else {
            return out.fail(format!("the run never reached cycle {}", self.at_step));
        };
        if s.exact.contacts == 0 {
            return out.fail(format!(
                "no active contact at cycle {}: nothing to analyse",
                s.cycle
            ));
        }
        let (est, _) = s.estimate(estimator);
        let ratio = est.dt / s.exact.dt;
        out.value = Some(ratio);
        out.passed = ratio.is_finite()
            && ratio <= self.max_ratio
            && self.min_ratio.is_none_or(|lo| ratio >= lo);
        tabulate(s, out);
        out.message = message(s, estimator, ratio);
        if s.bound.0.dt > s.exact.dt * (1.0 + 1e-12) {
            out.fail(format!(
                "{} The bound is above the exact value: a defect.",
                out.message
            ));
        }
        if let Some(x) = self.exact {
            let err = (s.exact.dt - x).abs() / x;
            out.message += &format!(
                " The eigen-solver's 2/ω_max differs from the closed form {} s by {:.2e} (relative; at most {:.0e} accepted).",
                num(x),
                err,
                self.exact_tolerance
            );
            if err.is_nan() || err > self.exact_tolerance {
                out.passed = false;
            }
        }
    }

    /// What is measured, the reference, the accepted range and the code, into `out`.
    fn describe(&self, estimator: Estimator, out: &mut CheckOutcome) {
        out.what = format!(
            "the {} estimate of the critical timestep (no safety factor) divided by the exact critical timestep, at cycle {}",
            estimator.name(),
            self.at_step
        );
        out.formula = "exact: 2/ω_max, ω_max² the largest eigenvalue of K φ = ω² M φ (K assembled from the 12×12 matrix \
            B^T diag(S, S_r) B of every active contact, M the masses and moments of inertia of all free DOFs); \
            diagonal (seed 000, eq. 11): min over DOFs of √(m_i / K_ii); bound: 2/√(min(max_i Σ_j |K_ij|/m_i, \
            max_i Σ_j |K_ij|/√(m_i m_j))), never above the exact value"
            .into();
        if let Some(f) = &self.formula {
            out.formula = format!("{}; closed form: {f}", out.formula);
        }
        out.tolerance_kind = "range".into();
        out.accepted = match self.min_ratio {
            Some(lo) => format!("between {} and {}", num(lo), num(self.max_ratio)),
            None => format!("at most {}", num(self.max_ratio)),
        };
        out.code.extend(
            [
                "src/stiffness/contact.rs::contact_matrix_3d",
                "src/stiffness/global.rs::GlobalStiffness::assemble",
                "src/stiffness/eigen.rs::exact_critical",
                "src/stiffness/estimate.rs::estimate_critical",
                "src/check/critical_timestep.rs::evaluate",
            ]
            .map(String::from),
        );
    }
}

/// Both estimates against the exact value, one row each.
fn tabulate(s: &CriticalSnapshot, out: &mut CheckOutcome) {
    let row = |name: &str, (e, id): (CriticalEstimate, u64)| {
        vec![
            name.to_string(),
            num(e.dt),
            num(s.exact.dt),
            format!("{:.4}", e.dt / s.exact.dt),
            format!("ball {id}, {}", dof_name(e.dof)),
        ]
    };
    out.table = vec![
        [
            "estimator",
            "estimate (s)",
            "exact 2/ω_max (s)",
            "estimate / exact",
            "set by",
        ]
        .map(String::from)
        .to_vec(),
        row("diagonal (seed 000, eq. 11)", s.diagonal),
        row("bound (row sums)", s.bound),
    ];
}

/// The judged estimate, the exact value and how it was solved for, in words.
fn message(s: &CriticalSnapshot, estimator: Estimator, ratio: Real) -> String {
    let (est, id) = s.estimate(estimator);
    format!(
        "{} estimate {} s (ball {id}, {}); exact {} s (ω_max = {} rad/s; {} free DOFs, {} active contacts, {} solver{}); ratio {:.6}.",
        estimator.name(),
        num(est.dt),
        dof_name(est.dof),
        num(s.exact.dt),
        num(s.exact.omega_max),
        s.exact.dofs,
        s.exact.contacts,
        match s.exact.method {
            crate::stiffness::Method::Dense => "dense",
            crate::stiffness::Method::Lanczos => "Lanczos",
        },
        if s.exact.iterations > 0 { format!(", {} iterations", s.exact.iterations) } else { String::new() },
        ratio
    )
}
