//! Checks (docs/CASES.md, section 14): each compares a run with an independent reference and says why.
//!
//! Every outcome carries the measured value, the expected value, the tolerance, a sentence on
//! what is measured, the reference's formula and the source files that implement what is
//! judged, so that the report can explain the verdict on its own.

mod beverloo;
mod collision;
mod context;
mod convergence;
mod critical;
mod cycles;
mod drift;
mod energy;
mod flow;
mod golden;
mod harmonic;
mod janssen;
mod jkr;
mod probe;
pub mod runs;
mod series;
pub mod walls;

pub use collision::{Body, Collision, CollisionProbe, HERTZ_LOADING};
pub use context::Context;
pub use critical::{CriticalProbe, CriticalSnapshot};
pub use flow::{ks_critical, ks_statistic, RadiiProbe};
pub use golden::{golden_record, read_snapshot};
pub use harmonic::upward_crossings;
pub use probe::{probe, Probe};

use crate::case::{CheckSpec, Other};
use crate::math::Real;
use crate::record::{CheckOutcome, Summary};

/// Evaluates one check (not `golden`, which needs the summary: see [`evaluate_golden`]).
pub fn evaluate(spec: &CheckSpec, ctx: &Context, probe: Option<&Probe>) -> CheckOutcome {
    let mut out = CheckOutcome {
        kind: spec.kind().into(),
        passed: false,
        tolerance_kind: "relative".into(),
        series: spec.series().map(String::from),
        code: context::engine_code(ctx.case),
        ..Default::default()
    };
    match spec {
        CheckSpec::Harmonic {
            series,
            period,
            tolerance,
            max_ratio,
            formula,
        } => {
            out.formula = formula
                .clone()
                .unwrap_or_else(|| format!("T = {period} s (given in the case)"));
            harmonic::evaluate(ctx, series, *period, *tolerance, *max_ratio, &mut out);
            out.code.push("src/check/harmonic.rs::evaluate".into());
        }
        CheckSpec::Collision {
            measure,
            ball,
            other,
            expected,
            tolerance,
        } => {
            let idx = |id: &u64| ctx.case.balls.iter().position(|b| b.id == *id).unwrap_or(0);
            let other = match other {
                Other::Ball(id) => Body::Ball(idx(id)),
                Other::Wall(w) => Body::Wall(
                    ctx.case
                        .walls
                        .iter()
                        .position(|x| &x.name == w)
                        .unwrap_or(0),
                ),
            };
            match probe {
                Some(Probe::Collision(p)) => collision::evaluate(
                    ctx,
                    *measure,
                    (idx(ball), other),
                    *expected,
                    *tolerance,
                    &p.seen,
                    &mut out,
                ),
                _ => out.fail("the collision was not watched".into()),
            }
            out.code.push("src/contact/ball_ball.rs::update".into());
            out.code.push("src/check/collision.rs::evaluate".into());
        }
        CheckSpec::RadiusDistribution {
            insert,
            by_mass,
            confidence,
        } => {
            match probe {
                Some(Probe::Radii(p)) => {
                    flow::evaluate_radii(p, insert, *by_mass, *confidence, &mut out)
                }
                _ => out.fail(format!("insertion {insert} was not watched")),
            }
            out.code.push("src/distribution.rs::Radii::draw".into());
            out.code.push("src/flow/insert.rs::Insert".into());
            out.code.push("src/check/flow.rs::evaluate_radii".into());
        }
        CheckSpec::Identity {
            terms,
            abs_tolerance,
            formula,
        } => {
            out.formula = formula
                .clone()
                .unwrap_or_else(|| "the sum is zero (an identity)".into());
            flow::evaluate_identity(ctx, terms, *abs_tolerance, &mut out);
            out.code.push("src/flow/stage.rs::insert_due".into());
            out.code.push("src/flow/stage.rs::remove_in_outlets".into());
            out.code.push("src/check/flow.rs::evaluate_identity".into());
        }
        CheckSpec::Janssen(j) => {
            janssen::evaluate(ctx, j, &mut out);
            out.code.push("src/output/measure.rs::measure".into());
            out.code.push("src/check/janssen.rs::evaluate".into());
        }
        CheckSpec::Jkr(j) => {
            jkr::evaluate(ctx, j, &mut out);
            out.code.push("src/law/cohesion.rs::Cohesion::force".into());
            out.code.push("src/check/jkr.rs::evaluate".into());
        }
        CheckSpec::Beverloo(b) => {
            beverloo::evaluate(ctx, b, &mut out);
            out.code.push("src/flow/stage.rs::remove_in_outlets".into());
            out.code.push("src/check/beverloo.rs::evaluate".into());
        }
        CheckSpec::FinalValue {
            series,
            expected,
            tolerance,
            formula,
        } => {
            out.formula = formula
                .clone()
                .unwrap_or_else(|| format!("{expected} (given in the case)"));
            series::final_value(ctx, series, *expected, *tolerance, &mut out);
            out.code.push("src/check/series.rs::final_value".into());
        }
        CheckSpec::Analytic {
            series,
            reference,
            tolerance,
            formula,
            after,
        } => {
            out.formula = reference.formula_with(formula.as_deref());
            series::analytic(ctx, series, reference, *tolerance, *after, &mut out);
            out.code.push("src/check/series.rs::analytic".into());
        }
        CheckSpec::SameSeries {
            series,
            case,
            tolerance,
        } => {
            series::same_series(ctx, series, case, *tolerance, &mut out);
            out.code.push("src/check/series.rs::same_series".into());
        }
        CheckSpec::Convergence {
            series,
            dts,
            reference,
            expected_order,
            abs_tolerance,
            formula,
        } => {
            out.formula = reference.formula_with(formula.as_deref());
            convergence::evaluate(
                ctx,
                series,
                dts,
                reference,
                *expected_order,
                *abs_tolerance,
                &mut out,
            );
            out.code.push("src/check/convergence.rs::evaluate".into());
        }
        CheckSpec::Drift {
            series,
            dts,
            tolerance,
            order,
            formula,
        } => {
            out.formula = formula
                .clone()
                .unwrap_or_else(|| "y(t) = y(0) (a conserved quantity)".into());
            let spec = drift::DriftSpec {
                series,
                dts,
                tolerance: *tolerance,
                order: *order,
            };
            drift::evaluate(ctx, &spec, &mut out);
            out.code.push("src/check/drift.rs::evaluate".into());
        }
        CheckSpec::CriticalTimestep(c) => {
            out.code.clear();
            let snap = match probe {
                Some(Probe::Critical(p)) => p.snapshot.as_ref(),
                _ => None,
            };
            critical::evaluate(ctx, c, snap, &mut out);
        }
        CheckSpec::CyclesRatio { case, max_ratio } => {
            cycles::evaluate(ctx, case, *max_ratio, &mut out)
        }
        CheckSpec::ActiveCount { ball, wall, .. } => match probe {
            Some(Probe::Active(p)) => walls::evaluate_active(*ball, wall, p, &mut out),
            _ => out.fail("the interaction was not watched".into()),
        },
        CheckSpec::MaxTurn { series, max_deg } => match probe {
            Some(Probe::Turn(p)) => walls::evaluate_turn(series, *max_deg, p, &mut out),
            _ => out.fail("the series was not watched".into()),
        },
        CheckSpec::Drops {
            series,
            min_drop,
            expected,
            formula,
        } => {
            out.formula = formula
                .clone()
                .unwrap_or_else(|| format!("{expected} (given in the case)"));
            series::drops(ctx, series, *min_drop, *expected, &mut out);
            out.code.push("src/check/series.rs::drops".into());
        }
        CheckSpec::EnergyBalance {
            tolerance,
            subtract_integrator,
            max_fall,
            formula,
        } => {
            energy::evaluate(ctx, *tolerance, *subtract_integrator, *max_fall, &mut out);
            if let Some(f) = formula {
                out.formula = format!("{}. Tolerance: {f}", out.formula);
            }
        }
        CheckSpec::Golden { .. } => out.fail("golden checks are evaluated after the others".into()),
    }
    if !ctx.case.clumps.is_empty() && !out.code.is_empty() {
        out.code.push("src/body/clumps.rs::Clumps::step".into());
        out.code.push("src/geom/union.rs::union_moments".into());
    }
    out
}

/// Evaluates a `golden` check against the summary of the run (without golden outcomes).
pub fn evaluate_golden(tolerance: Real, ctx: &Context, summary: &Summary) -> CheckOutcome {
    let mut out = CheckOutcome {
        kind: "golden".into(),
        tolerance_kind: "relative".into(),
        code: vec![
            "src/check/golden.rs::evaluate".into(),
            "tests/cases.rs::cases_pass".into(),
        ],
        ..Default::default()
    };
    golden::evaluate(ctx, summary, tolerance, &mut out);
    out
}
