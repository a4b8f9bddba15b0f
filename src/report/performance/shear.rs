//! The shear cell's section (issue #63): the periodic cell of make_shear.py sheared by
//! Lees-Edwards images, per run beside the settle-box's run of the same model, N and threads.

use super::cells::ns_per;
use crate::bench::{model_of, BenchRun};
use crate::report::html::table;

/// The shear cell's runs, each beside the settle-box run of the same model, N and threads (the
/// same bench, the same hour), with the ratio of their costs per particle-step; empty without
/// shear runs.
pub(super) fn shear_cell(shear: &[BenchRun], settle: &[BenchRun]) -> String {
    if shear.is_empty() {
        return String::new();
    }
    let mut rows = vec![[
        "model",
        "N",
        "threads",
        "shear cell (Mps/s)",
        "settle-box (Mps/s)",
        "cost per particle-step, shear / settle-box",
        "ball-ball contacts (mean), shear / settle-box",
        "ns per contact-step, shear / settle-box",
        "rebuilds, shear / settle-box",
    ]
    .map(String::from)
    .to_vec()];
    for r in shear {
        let beside = settle
            .iter()
            .find(|s| model_of(s) == model_of(r) && s.n == r.n && s.threads == r.threads);
        let mean = |x: &BenchRun| x.contact_steps as f64 / x.steps as f64;
        let (mps, ratio, contacts, per, rebuilds) = match beside {
            Some(s) => (
                format!("{:.3}", s.particle_steps_per_s / 1e6),
                format!("{:.2}", s.particle_steps_per_s / r.particle_steps_per_s),
                format!("{:.0} / {:.0}", mean(r), mean(s)),
                format!(
                    "{} / {}",
                    ns_per(r.phases.contacts, r.contact_steps),
                    ns_per(s.phases.contacts, s.contact_steps)
                ),
                format!("{} / {}", r.rebuilds, s.rebuilds),
            ),
            None => (
                "(not run)".into(),
                String::new(),
                format!("{:.0}", mean(r)),
                ns_per(r.phases.contacts, r.contact_steps),
                r.rebuilds.to_string(),
            ),
        };
        rows.push(vec![
            model_of(r).to_string(),
            r.n.to_string(),
            r.threads.to_string(),
            format!("{:.3}", r.particle_steps_per_s / 1e6),
            mps,
            ratio,
            contacts,
            per,
            rebuilds,
        ]);
    }
    format!(
        "<h2>The periodic shear cell</h2><p>{} balls in a fully periodic box at the solid fraction \
         0.58, sheared by Lees-Edwards images at 5 1/s (<code>ballast bench --scene shear</code>, \
         benches/cases/make_shear.py), beside the settle-box of the same bench. The target of issue \
         #63 is a cost per particle-step within 10 % of the settle-box's on one thread. A sheared \
         dense flow has more sliding contacts than a settling bed, and its candidate pairs are rebuilt \
         more often (the images slide by the margin).</p>{}",
        shear[0].n,
        table(&rows)
    )
}
