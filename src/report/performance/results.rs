//! The Results section: the runs of the models LIGGGHTS also computes, with the ratios to its
//! figures.

use super::cells::{measured_in, page_model as model_of};
use crate::bench::{BenchRun, LIGGGHTS};
use crate::report::html::table;

/// The Results section: one row per settle-box run of `hertz-history` or `hooke-history` with
/// its speed, contacts and mean height beside LIGGGHTS's; a sentence when there is none.
pub(super) fn results_section(runs: &[BenchRun]) -> String {
    let ligg = |m: &str, n: usize| LIGGGHTS.iter().find(|l| l.0 == m && l.1 == n);
    let mut rows = vec![[
        "model",
        "N",
        "threads",
        "steps",
        "loop (s)",
        "Mps/s",
        "µs per particle-step",
        "LIGGGHTS 1 core (Mps/s)",
        "ratio",
        "contacts pp (LIGGGHTS)",
        "wall contacts nw (LIGGGHTS)",
        "mean z, m (LIGGGHTS)",
        "KE trans (J)",
        "peak memory (MiB)",
    ]
    .map(String::from)
    .to_vec()];
    for r in runs
        .iter()
        .filter(|r| ["hertz", "hooke"].contains(&model_of(r)))
    {
        let m = model_of(r);
        let l = ligg(m, r.n);
        let mps = r.particle_steps_per_s / 1e6;
        let rel = |a: f64, b: f64| format!("{:+.2} %", 100.0 * (a - b) / b);
        rows.push(vec![
            m.into(),
            r.n.to_string(),
            r.threads.to_string(),
            r.steps.to_string(),
            format!("{:.2}", r.loop_s),
            format!("{mps:.3}"),
            format!("{:.3}", 1e6 / r.particle_steps_per_s),
            l.map_or("-".into(), |l| format!("{}", l.2)),
            l.map_or("-".into(), |l| format!("{:.2}", mps / l.2)),
            l.map_or(r.pp.to_string(), |l| {
                format!("{} ({}, {})", r.pp, l.3, rel(r.pp as f64, l.3 as f64))
            }),
            l.map_or(r.nw.to_string(), |l| {
                format!("{} ({}, {})", r.nw, l.4, rel(r.nw as f64, l.4 as f64))
            }),
            l.map_or(format!("{:.5e}", r.mean_z), |l| {
                format!("{:.5e} ({}, {})", r.mean_z, l.5, rel(r.mean_z, l.5))
            }),
            format!("{:.2e}", r.ke_trans),
            format!("{:.1}", r.peak_rss_kib as f64 / 1024.0),
        ]);
    }
    // (a bench of other models only has no row here: a sentence, not an empty table)
    let none =
        "<p>This run has no row of the models LIGGGHTS also computes (<code>hertz-history</code>, \
                <code>hooke-history</code>); its models are in the next section.</p>";
    let results = if rows.len() > 1 {
        let shown = runs
            .iter()
            .filter(|r| ["hertz", "hooke"].contains(&model_of(r)));
        format!("{}{}", table(&rows), measured_in(shown))
    } else {
        none.to_string()
    };
    format!("<h2>Results</h2>{results}")
}
