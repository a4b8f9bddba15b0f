//! The wall-heavy scene's section (issue #30): the drum of make_drum.py, each phase per
//! contact-step, beside the settle-box and LIGGGHTS on the same drum.

use super::cells::ns_per;
use super::peers::{newest_drum_peers, peer_pairs};
use crate::bench::{model_of, BenchRun};
use crate::report::html::{esc, table};
use crate::report::markdown::render;
use std::path::Path;

/// The wall-heavy scene's section (issue #30, the drum of make_drum.py): per run the loop,
/// the mean active contacts, and the cost of each phase per contact-step, beside the
/// settle-box's cost per ball-facet contact-step (its runs at N = 10,000 of the drum's
/// models) and LIGGGHTS's time on the same drum in the newest side-by-side file (its
/// `drum-hertz` rows). Empty without drum runs.
pub(super) fn wall_heavy(drum: &[BenchRun], settle: &[BenchRun]) -> String {
    if drum.is_empty() {
        return String::new();
    }
    let mean = |steps: u64, r: &BenchRun| format!("{:.0}", steps as f64 / r.steps as f64);
    let mut rows = vec![[
        "scene",
        "model",
        "N",
        "threads",
        "loop (s)",
        "Mps/s",
        "ball-ball contacts (mean)",
        "ball-facet contacts (mean)",
        "rebuilds",
        "walls (s)",
        "ns per ball-facet contact-step",
        "ns per ball-ball contact-step",
        "motion, detection (s)",
    ]
    .map(String::from)
    .to_vec()];
    // (the settle-box's runs at the drum's N of the drum's models)
    let beside = |r: &&BenchRun| r.n == 10000 && drum.iter().any(|d| model_of(d) == model_of(r));
    for (scene, r) in (drum.iter().map(|r| ("drum", r)))
        .chain(settle.iter().filter(beside).map(|r| ("settle-box", r)))
    {
        let ph = &r.phases;
        rows.push(vec![
            scene.to_string(),
            model_of(r).to_string(),
            r.n.to_string(),
            r.threads.to_string(),
            format!("{:.2}", r.loop_s),
            format!("{:.3}", r.particle_steps_per_s / 1e6),
            mean(r.contact_steps, r),
            mean(r.facet_contact_steps, r),
            r.rebuilds.to_string(),
            format!("{:.2}", ph.walls),
            ns_per(ph.walls, r.facet_contact_steps),
            ns_per(ph.contacts, r.contact_steps),
            format!("{:.2}, {:.2}", ph.motion, ph.detect),
        ]);
    }
    render(
        include_str!("../text/performance_drum.md"),
        &[("table", table(&rows)), ("liggghts", drum_peers())],
    )
}

/// The table of LIGGGHTS and ballast on the same drum, the same machine and hour, from the
/// newest side-by-side file (its `drum-hertz` rows); empty without one.
fn drum_peers() -> String {
    let mut t = vec![[
        "the same drum, same machine and hour",
        "LIGGGHTS (Mps/s)",
        "ballast (Mps/s)",
        "ratio",
    ]
    .map(String::from)
    .to_vec()];
    if let Some((path, peers)) = newest_drum_peers(Path::new("benches/results")) {
        for (l, b) in peer_pairs(&peers)
            .into_iter()
            .filter(|(l, _)| l.model.starts_with("drum"))
        {
            t.push(vec![
                format!(
                    "{}, N = {}, {} process{} / thread{} ({})",
                    l.model,
                    l.n,
                    l.par,
                    if l.par > 1 { "es" } else { "" },
                    if l.par > 1 { "s" } else { "" },
                    esc(&path.display().to_string())
                ),
                format!("{:.3}", l.mps),
                format!("{:.3}", b.mps),
                format!("{:.2} ×", b.mps / l.mps),
            ]);
        }
    }
    if t.len() > 1 {
        table(&t)
    } else {
        String::new()
    }
}

#[cfg(test)]
mod tests {
    use super::wall_heavy;
    use crate::bench::BenchRun;

    /// The drum's section, on runs made up here: 2.0 s of wall phase over 20,000 steps with
    /// 500 active ball-facet contacts on average (1e7 contact-steps) is 200.0 ns per
    /// ball-facet contact-step; 10.0 s of ball-ball phase over 2e8 contact-steps is 50.0 ns;
    /// the means are 500 and 10000. A settle-box run at N = 10,000 is listed below it, one at
    /// N = 1,000 is not; without drum runs the section is empty.
    #[test]
    fn the_drum_section_divides_each_phase_by_its_contact_steps() {
        let run = |case: &str, n: usize| BenchRun {
            case: case.into(),
            model: "hertz-history".into(),
            n,
            threads: 1,
            steps: 20000,
            loop_s: 14.0,
            particle_steps_per_s: n as f64 * 20000.0 / 14.0,
            facet_contact_steps: 10_000_000,
            contact_steps: 200_000_000,
            phases: crate::model::Phases {
                walls: 2.0,
                contacts: 10.0,
                ..Default::default()
            },
            ..Default::default()
        };
        let html = wall_heavy(
            &[run("drum_hertz_10k", 10000)],
            &[
                run("settle_box_hertz_10k", 10000),
                run("settle_box_hertz_1k", 1000),
            ],
        );
        for want in [
            ">200.0<",
            ">50.0<",
            ">500<",
            ">10000<",
            ">drum<",
            ">settle-box<",
        ] {
            assert!(html.contains(want), "{want} missing");
        }
        assert_eq!(html.matches(">settle-box<").count(), 1);
        assert!(wall_heavy(&[], &[run("settle_box_hertz_10k", 10000)]).is_empty());
    }
}
