//! The automatic timestep's section (issue #30, target 2): each automatic run beside the fixed
//! step's run of the same case.

use super::cells::{runs_of, source_tag};
use crate::bench::BenchRun;
use crate::report::html::table;

/// The automatic timestep's section (issue #30, target 2): each run with `--timestep diagonal`
/// or `bound` (or `diagonal:N`, `bound:N`: the step chosen every N cycles) beside the fixed
/// step's run of the same case, threads and steps, and the ratio of their loop times (the same
/// steps: the automatic step is capped at the fixed one), judged against 1.1. Empty without
/// such runs.
pub(super) fn automatic_timestep(auto: &[BenchRun], fixed: &[BenchRun]) -> String {
    let mut rows = vec![[
        "case",
        "threads",
        "steps",
        "estimator",
        "loop (s)",
        "fixed step's loop (s)",
        "× fixed",
        "at most 1.1 × the fixed step",
        "runs: loop (s)",
        "measured in",
    ]
    .map(String::from)
    .to_vec()];
    for r in auto {
        // (the fixed step's run of the same results file first: the same hour)
        let like = |f: &&BenchRun| f.case == r.case && f.threads == r.threads && f.steps == r.steps;
        let base = (fixed.iter().filter(like)).min_by_key(|f| f.source != r.source);
        let ratio = base.map(|b| r.loop_s / b.loop_s);
        rows.push(vec![
            r.case.clone(),
            r.threads.to_string(),
            r.steps.to_string(),
            r.timestep.clone(),
            format!("{:.2}", r.loop_s),
            base.map_or("-".into(), |b| format!("{:.2}", b.loop_s)),
            ratio.map_or("-".into(), |x| format!("{x:.2}")),
            ratio.map_or("- (no fixed-step run)".into(), |x| {
                if x <= 1.1 { "met" } else { "MISSED" }.to_string()
            }),
            runs_of(r),
            source_tag(r),
        ]);
    }
    if rows.len() == 1 {
        return String::new();
    }
    format!(
        "<h2>The automatic timestep (issue #30)</h2><p>The same cases with <code>mode = \"auto\"</code> \
         (<code>ballast bench --timestep fixed,diagonal,bound</code>): the default safety 0.8 and \
         kinematic constraint, the <code>diagonal</code> or <code>bound</code> estimator over \
         every candidate pair and every ball, in every cycle or, written <code>diagonal:N</code>, \
         in every N-th cycle only (<code>[timestep] every = N</code>, the step kept between), \
         and the case's fixed step as the cap, so that both runs take the same steps and the \
         ratio of their times is the cost of choosing the step (target: at most 10 % over the fixed step). Each pair of runs \
         follows one another in the same bench; on a machine whose speed wanders, run the bench \
         twice before reading a few per cent into a ratio.</p>{}",
        table(&rows)
    )
}
