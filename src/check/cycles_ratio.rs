//! The `cycles_ratio` check (project extension): this case reaches its stopping criterion in
//! at most `max_ratio` times the cycles another case needs, e.g. a scaled run against the same
//! scene with the automatic timestep. Both runs must stop on their `[run] solve_ratio`: a run
//! that used up its cycle budget did not reach equilibrium, and the check fails.

use super::context::Context;
use super::keys::read;
use super::kind::CheckKind;
use super::probe::Probe;
use crate::math::num;
use crate::math::Real;
use crate::record::CheckOutcome;
use serde::Deserialize;

/// `cycles_ratio`: cycles to reach the solve ratio against another case.
#[derive(Clone, Debug, PartialEq)]
pub struct CyclesRatio {
    /// Path of the other case, relative to this case file.
    case: String,
    /// Largest accepted ratio.
    max_ratio: Real,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Keys {
    case: String,
    max_ratio: Real,
}

impl CheckKind for CyclesRatio {
    fn parse(_: &str, keys: toml::Value) -> Result<Self, String> {
        let c: Keys = read(keys)?;
        if !(c.max_ratio.is_finite() && c.max_ratio > 0.0) {
            return Err(format!("max_ratio = {}: must be positive", c.max_ratio));
        }
        Ok(CyclesRatio {
            case: c.case,
            max_ratio: c.max_ratio,
        })
    }

    fn kind(&self) -> &'static str {
        "cycles_ratio"
    }

    fn evaluate(&self, ctx: &Context, _: Option<&Probe>, out: &mut CheckOutcome) {
        judge(ctx, &self.case, self.max_ratio, out);
    }
}

/// Runs the other case and compares cycle counts.
fn judge(ctx: &Context, other: &str, max_ratio: Real, out: &mut CheckOutcome) {
    out.what = format!("cycles this case needed divided by the cycles {other} needed");
    out.formula = format!("the same scene run another way: {other}; each run stops once its solve ratio (mean unbalanced force / mean contact force) is below the case's solve_ratio");
    out.tolerance_kind = "range".into();
    out.accepted = format!("at most {}", num(max_ratio));
    out.code
        .push("src/timestep/modes.rs::kinematic_limit".into());
    out.code.push("src/check/cycles_ratio.rs::evaluate".into());
    let path = ctx.case.dir().join(other);
    let end = match ctx.case.run_other(&path) {
        Ok(s) => s,
        Err(e) => return out.fail(format!("the other case did not run: {e}")),
    };
    if let Some(e) = &end.error {
        return out.fail(format!("the other case stopped: {e}"));
    }
    out.table = vec![
        [
            "case",
            "timestep",
            "cycles",
            "simulated time (s)",
            "stopped because",
        ]
        .map(String::from)
        .to_vec(),
        vec![
            ctx.case.name().to_string(),
            ctx.case.timestep().to_string(),
            ctx.cycles.to_string(),
            num(ctx.time),
            ctx.stopped
                .clone()
                .unwrap_or("the cycle budget ran out".into()),
        ],
        vec![
            end.name.clone(),
            end.timestep.clone(),
            end.cycles.to_string(),
            num(end.time),
            end.stopped
                .clone()
                .unwrap_or("the cycle budget ran out".into()),
        ],
    ];
    let ratio = ctx.cycles as Real / end.cycles as Real;
    out.value = Some(ratio);
    out.message = format!(
        "{} cycles against {} cycles: {:.4} of them.",
        ctx.cycles, end.cycles, ratio
    );
    out.passed = ratio <= max_ratio;
    if ctx.stopped.is_none() || end.stopped.is_none() {
        out.fail(format!(
            "{} A run did not reach its solve ratio.",
            out.message
        ));
    }
}
