//! The `cycles_ratio` check (project extension): this case reaches its stopping criterion in
//! at most `max_ratio` times the cycles another case needs, e.g. a scaled run against the same
//! scene with the automatic timestep. Both runs must stop on their `[run] solve_ratio`: a run
//! that used up its cycle budget did not reach equilibrium, and the check fails.

use super::context::Context;
use crate::math::num;
use crate::math::Real;
use crate::record::CheckOutcome;

/// Evaluates the check: runs the other case and compares cycle counts.
pub fn evaluate(ctx: &Context, other: &str, max_ratio: Real, out: &mut CheckOutcome) {
    out.what = format!("cycles this case needed divided by the cycles {other} needed");
    out.formula = format!("the same scene run another way: {other}; each run stops once its solve ratio (mean unbalanced force / mean contact force) is below the case's solve_ratio");
    out.tolerance_kind = "range".into();
    out.accepted = format!("at most {}", num(max_ratio));
    out.code
        .push("src/timestep/modes.rs::kinematic_limit".into());
    out.code.push("src/check/cycles.rs::evaluate".into());
    let path = ctx.case.dir().join(other);
    let result = crate::case::load(&path)
        .map_err(|e| e.to_string())
        .and_then(|case| {
            crate::run::simulate(&case, None, &[], false, None)
                .map(|s| (case, s))
                .map_err(|e| e.to_string())
        });
    let (case, sim) = match result {
        Ok(s) => s,
        Err(e) => return out.fail(format!("the other case did not run: {e}")),
    };
    if let Some(e) = &sim.error {
        return out.fail(format!("the other case stopped: {e}"));
    }
    let mode = |c: &crate::case::Case| c.timestep.to_string();
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
            ctx.case.name.clone(),
            mode(ctx.case),
            ctx.cycles.to_string(),
            num(ctx.time),
            ctx.stopped
                .clone()
                .unwrap_or("the cycle budget ran out".into()),
        ],
        vec![
            case.name.clone(),
            mode(&case),
            sim.model.cycles.to_string(),
            num(sim.model.time),
            sim.stopped
                .clone()
                .unwrap_or("the cycle budget ran out".into()),
        ],
    ];
    let ratio = ctx.cycles as Real / sim.model.cycles as Real;
    out.value = Some(ratio);
    out.message = format!(
        "{} cycles against {} cycles: {:.4} of them.",
        ctx.cycles, sim.model.cycles, ratio
    );
    out.passed = ratio <= max_ratio;
    if ctx.stopped.is_none() || sim.stopped.is_none() {
        out.fail(format!(
            "{} A run did not reach its solve ratio.",
            out.message
        ));
    }
}
