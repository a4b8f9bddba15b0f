//! Where the time goes: each run's phases as shares of its loop, and what limits the loop.

use super::cells::{ns_per, page_model};
use crate::bench::BenchRun;
use crate::report::html::table;
use crate::report::markdown::render;

/// The "Where the time goes" section: [`phases_table`], and what limits the loop (the sizes
/// of a contact, its frame and a ball-facet contact).
pub(super) fn where_the_time_goes(runs: &[BenchRun]) -> String {
    let mut h = String::new();
    let p = phases_table(runs);
    h.push_str(&render(
        include_str!("../text/performance_phases.md"),
        &[("table", table(&p))],
    ));
    h.push_str(&render(
        include_str!("../text/performance_limits.md"),
        &[
            (
                "contact_bytes",
                std::mem::size_of::<crate::contact::Contact>().to_string(),
            ),
            (
                "frame_bytes",
                std::mem::size_of::<crate::contact::Frame>().to_string(),
            ),
            (
                "facet_bytes",
                std::mem::size_of::<crate::contact::FacetContact>().to_string(),
            ),
        ],
    ));
    h
}

/// The "Where the time goes" table: each run's phases as shares of its loop, its cost per
/// particle-step, and its ball-ball contacts phase over its active contact-steps (ns; with one
/// thread, what one contact's update costs).
pub(super) fn phases_table(runs: &[BenchRun]) -> Vec<Vec<String>> {
    let mut p = vec![[
        "model",
        "N",
        "threads",
        "motion",
        "detection",
        "ball-ball contacts",
        "gather",
        "walls",
        "checks",
        "µs per particle-step",
        "ns per ball-ball contact-step",
    ]
    .map(String::from)
    .to_vec()];
    for r in runs {
        let ph = &r.phases;
        let total = ph.motion + ph.detect + ph.contacts + ph.gather + ph.walls + ph.checks;
        let pc = |x: f64| format!("{:.1} %", 100.0 * x / total.max(1e-300));
        p.push(vec![
            page_model(r).into(),
            r.n.to_string(),
            r.threads.to_string(),
            pc(ph.motion),
            pc(ph.detect),
            pc(ph.contacts),
            pc(ph.gather),
            pc(ph.walls),
            pc(ph.checks),
            format!("{:.3}", 1e6 / r.particle_steps_per_s),
            ns_per(ph.contacts, r.contact_steps),
        ]);
    }
    p
}

#[cfg(test)]
mod tests {
    use super::phases_table;
    use crate::bench::BenchRun;

    /// The phases table on runs made up here: a contacts phase of 10 s over 200 million
    /// active contact-steps is 10 / 2e8 s = 50.0 ns per contact-step, 12 s over 160 million
    /// 75.0 ns; of a loop of 10 + 2 + 4 + 4 = 20 s the contacts take 50.0 %; a run without
    /// active contacts shows "-"; the frame-based `hertz` is named apart from LIGGGHTS's Hertz.
    #[test]
    fn the_phases_table_gives_the_contacts_phase_per_contact_step() {
        let run = |model: &str, contacts: f64, contact_steps: u64| BenchRun {
            case: format!("settle_box_{model}_10k"),
            model: model.into(),
            n: 10000,
            threads: 1,
            steps: 20000,
            loop_s: 20.0,
            particle_steps_per_s: 1e7,
            contact_steps,
            phases: crate::model::Phases {
                motion: 2.0,
                detect: 4.0,
                walls: 4.0,
                contacts,
                ..Default::default()
            },
            ..Default::default()
        };
        let t = phases_table(&[
            run("hertz-history", 10.0, 200_000_000),
            run("hertz", 12.0, 160_000_000),
            run("linear", 10.0, 0),
        ]);
        let last = t[0].len() - 1;
        assert_eq!(t[0][last], "ns per ball-ball contact-step");
        let rows: Vec<(&str, &str, &str)> = (t[1..].iter())
            .map(|r| (r[0].as_str(), r[5].as_str(), r[last].as_str()))
            .collect();
        assert_eq!(
            rows,
            [
                ("hertz", "50.0 %", "50.0"),
                ("hertz (frame)", "54.5 %", "75.0"),
                ("linear", "50.0 %", "-")
            ]
        );
    }
}
