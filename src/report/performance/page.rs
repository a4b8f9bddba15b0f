//! The Performance page: its sections in order, from the runs of a bench or the results
//! committed under benches/results/.

use super::automatic_timestep::automatic_timestep;
use super::committed::committed_runs;
use super::every_model::every_model;
use super::peers::{peers_at, side_by_side, PeerRow};
use super::phases::where_the_time_goes;
use super::results::results_section;
use super::targets::targets_section;
use super::throughput::throughput_section;
use super::wall_heavy::wall_heavy;
use crate::bench::BenchRun;
use crate::report::code::code_link;
use crate::report::html::{esc, page};
use crate::report::markdown::render;
use std::path::Path;

/// Writes `reports/performance.html` from benchmark runs (`ballast bench`, issue #8): the table
/// with the ratios to LIGGGHTS, the targets, throughput against N and threads, and where the
/// time goes.
///
/// # Errors
/// I/O errors.
pub fn write_performance_page(
    reports: &Path,
    runs: &[BenchRun],
    partial: bool,
) -> std::io::Result<()> {
    // (the runs with the automatic timestep have a section of their own, beside the fixed
    // step's; the others are the fixed step's)
    let (auto, fixed): (Vec<_>, Vec<_>) = (runs.iter().cloned()).partition(crate::bench::is_auto);
    // (the settle-box's runs; the drum's and the shear cell's have sections of their own)
    let (others, mut settle): (Vec<_>, Vec<_>) = (fixed.iter())
        .filter(|&r| !r.source.starts_with("timestep_"))
        .cloned()
        .partition(|r| crate::bench::scene_of(r) != "settle-box");
    let (drum, shear): (Vec<_>, Vec<_>) =
        (others.into_iter()).partition(|r| crate::bench::scene_of(r) == "drum");
    // (in the order of the models' list, then N, then threads)
    let order = |r: &BenchRun| {
        let m = crate::bench::MODELS
            .iter()
            .position(|m| m.0 == crate::bench::model_of(r));
        (m.unwrap_or(usize::MAX), r.n, r.threads)
    };
    settle.sort_by_key(order);
    let runs = &settle[..];
    let mut h = intro(reports, runs);
    h.push_str(&super::verdict::verdict_section(Path::new(
        "benches/results",
    )));
    // (the bench's own tables and the issues' earlier targets, folded: the ledger behind the
    // verdict above)
    h.push_str(
        "<details><summary><b>The bench's runs and the earlier issues' targets</b> (issues #8 \
         and #30: every model, the drum, the automatic timestep, throughput, where the time \
         goes)</summary>",
    );
    h.push_str(&results_section(runs));
    // (for each N, the newest side-by-side file that has it)
    let peers_by_n: Vec<(std::path::PathBuf, Vec<PeerRow>)> = [1000, 10000, 50000]
        .into_iter()
        .filter_map(|n| peers_at(Path::new("benches/results"), n))
        .collect();
    h.push_str(&targets_section(runs, &peers_by_n));
    let same_hour: Vec<PeerRow> = (peers_by_n.iter())
        .flat_map(|(_, rows)| rows.iter().cloned())
        .collect();
    h.push_str(&every_model(runs, &same_hour));
    h.push_str(&wall_heavy(&drum, runs));
    h.push_str(&super::shear::shear_cell(&shear, runs));
    h.push_str(&automatic_timestep(&auto, &fixed));
    if let Some(side) = side_by_side(&peers_by_n) {
        h.push_str(&side);
    }
    h.push_str(&throughput_section(runs));
    h.push_str(&where_the_time_goes(runs));
    h.push_str("</details>");
    if partial {
        let banner = "<p><b>A partial bench</b> (fewer sizes, models, threads or steps than the full \
             <code>ballast bench</code>): its ratios are not the benchmark's. The complete results are on the \
             <a href=\"performance.html\">Performance</a> page.</p>";
        return std::fs::write(
            reports.join("performance_partial.html"),
            page("Performance: a partial bench", &format!("{banner}{h}")),
        );
    }
    std::fs::write(
        reports.join("performance.html"),
        page("Performance: settle-box against LIGGGHTS", &h),
    )
}

/// The page's opening: what the benchmark is, the code it runs, and the processors `runs`
/// were measured on.
fn intro(reports: &Path, runs: &[BenchRun]) -> String {
    let mut h = String::new();
    let mut machines: Vec<&str> = (runs.iter().map(|r| r.machine.as_str()))
        .filter(|m| !m.is_empty())
        .collect();
    machines.sort_unstable();
    machines.dedup();
    let machine = if machines.is_empty() {
        "a processor not recorded (results written before the thirteenth round)".to_string()
    } else {
        machines.join("; ")
    };
    h.push_str(&render(
        include_str!("../text/performance_intro.md"),
        &[
            ("history_rs", code_link(reports, "src/law/history.rs::step")),
            (
                "generate_rs",
                code_link(reports, "src/generate.rs::settle_box"),
            ),
            ("bench_rs", code_link(reports, "src/bench/mod.rs::run_one")),
            (
                "loop_rs",
                code_link(reports, "src/force/ranges.rs::frame_run"),
            ),
            ("machine", esc(&machine)),
        ],
    ));
    h
}

/// The Performance page from the bench results committed under `dir` (benches/results: what a
/// clone shows before it runs its own bench): [`committed_runs`] of the settle-box
/// (`settle_box_*.json`), the drum (`drum_*.json`) and the automatic timestep
/// (`timestep_*.json`), each row naming its file. Returns false, writing nothing, when there
/// are none.
pub fn write_committed_performance_page(reports: &Path, dir: &Path) -> std::io::Result<bool> {
    let runs: Vec<BenchRun> = ["settle_box_", "drum_", "timestep_"]
        .iter()
        .flat_map(|prefix| committed_runs(dir, prefix))
        .collect();
    if runs.is_empty() {
        return Ok(false);
    }
    write_performance_page(reports, &runs, false)?;
    Ok(true)
}

pub(crate) fn empty_performance_page() -> String {
    page(
        "Performance: settle-box against LIGGGHTS",
        &render(include_str!("../text/performance_empty.md"), &[]),
    )
}

#[cfg(test)]
mod tests {
    use super::write_performance_page;
    use crate::bench::BenchRun;
    use crate::report::performance::automatic_timestep::automatic_timestep;

    /// The automatic timestep's section, on runs made up here: at N = 10,000 the fixed step's
    /// loop takes 3.0 s, `diagonal` 7.2 s (2.40 ×, missed) and `bound` 27 s (9.00 ×); a second
    /// case's `diagonal` 3.45 s beside 3.0 s (1.15 ×, missed), a third's 3.2 s (1.07 ×, met); a
    /// run whose fixed run is
    /// missing (other steps) gets no ratio; without automatic runs the section is empty. On the
    /// whole page the automatic runs stay out of the other tables.
    #[test]
    fn the_automatic_timestep_is_set_beside_the_fixed_step() {
        let run = |case: &str, steps: u64, timestep: &str, loop_s: f64| BenchRun {
            case: case.into(),
            model: "hertz-history".into(),
            n: 10000,
            threads: 1,
            steps,
            loop_s,
            particle_steps_per_s: 1e4 * steps as f64 / loop_s,
            timestep: timestep.into(),
            ..Default::default()
        };
        let fixed = [
            run("settle_box_hertz_10k", 5000, "fixed", 3.0),
            run("settle_box_hooke_10k", 5000, "", 3.0),
            run("settle_box_linear_10k", 5000, "fixed", 3.0),
        ];
        let auto = [
            run("settle_box_hertz_10k", 5000, "diagonal", 7.2),
            run("settle_box_hertz_10k", 5000, "bound", 27.0),
            run("settle_box_hooke_10k", 5000, "diagonal", 3.45),
            run("settle_box_linear_10k", 5000, "diagonal", 3.2),
            run("settle_box_hertz_10k", 4000, "diagonal", 6.0),
        ];
        let html = automatic_timestep(&auto, &fixed);
        for want in [
            ">2.40<",
            ">9.00<",
            ">1.07<",
            ">met<",
            "- (no fixed-step run)",
        ] {
            assert!(html.contains(want), "{want} missing: {html}");
        }
        assert_eq!(html.matches(">MISSED<").count(), 3);
        assert!(automatic_timestep(&[], &fixed).is_empty());
        let dir = std::env::temp_dir().join(format!("ballast_auto_page_{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let all: Vec<BenchRun> = fixed.iter().chain(&auto).cloned().collect();
        write_performance_page(&dir, &all, true).unwrap();
        let page = std::fs::read_to_string(dir.join("performance_partial.html")).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        assert!(page.contains("The automatic timestep"));
        // (27 s appears in the automatic section only)
        assert_eq!(page.matches(">27.00<").count(), 1, "{page}");
    }

    /// The committed results: of each case, model, N and thread count the run of the newest
    /// file (a 10k round and a later 50k round both stay in view), only the newest file's
    /// processor's, each naming its file; a file that does not parse is passed over. The page
    /// built from them names the files, and a timestep file's fixed run stays out of the
    /// settle-box's tables.
    #[test]
    fn the_committed_results_are_the_newest_run_of_each_kind() {
        use super::{committed_runs, write_committed_performance_page};
        let dir = std::env::temp_dir().join(format!("ballast_committed_{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let run = |model: &str, n: usize, loop_s: f64, machine: &str, timestep: &str| BenchRun {
            case: format!("settle_box_{model}_{}k", n / 1000),
            model: model.into(),
            n,
            threads: 1,
            steps: 20000,
            loop_s,
            particle_steps_per_s: n as f64 * 20000.0 / loop_s,
            machine: machine.into(),
            timestep: timestep.into(),
            ..Default::default()
        };
        let write = |name: &str, runs: &[BenchRun]| {
            std::fs::write(dir.join(name), serde_json::to_string(runs).unwrap()).unwrap();
        };
        write(
            "settle_box_2026-11-20.json",
            &[run("hertz", 1000, 9.0, "Y", "fixed")],
        );
        write(
            "settle_box_2026-11-27_r1.json",
            &[
                run("hertz-history", 10000, 30.0, "X", "fixed"),
                run("hertz", 10000, 40.0, "X", "fixed"),
            ],
        );
        write(
            "settle_box_2026-11-28_r2.json",
            &[run("hertz", 10000, 38.0, "X", "fixed")],
        );
        write(
            "settle_box_2026-11-28_r2-50k.json",
            &[run("hertz", 50000, 300.0, "X", "")],
        );
        std::fs::write(dir.join("settle_box_2026-11-29_broken.json"), "[{").unwrap();
        write(
            "timestep_2026-11-28_r2.json",
            &[
                run("hertz", 10000, 77.0, "X", "fixed"),
                run("hertz", 10000, 80.0, "X", "diagonal:20"),
            ],
        );
        // (a later timestep bench with a fixed run of its own: each automatic run is set
        // beside its own bench's, 80 / 77 and 150 / 75)
        write(
            "timestep_2026-11-28_r2-every.json",
            &[
                run("hertz", 10000, 75.0, "X", "fixed"),
                run("hertz", 10000, 150.0, "X", "diagonal"),
            ],
        );
        let runs = committed_runs(&dir, "settle_box_");
        let got: Vec<(usize, f64, &str)> = (runs.iter())
            .map(|r| (r.n, r.loop_s, r.source.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                (10000, 30.0, "settle_box_2026-11-27_r1.json"),
                (10000, 38.0, "settle_box_2026-11-28_r2.json"),
                (50000, 300.0, "settle_box_2026-11-28_r2-50k.json"),
            ]
        );
        assert_eq!(committed_runs(&dir, "timestep_").len(), 4);
        assert!(committed_runs(&dir, "drum_").is_empty());
        let reports = dir.join("reports");
        std::fs::create_dir_all(&reports).unwrap();
        assert!(write_committed_performance_page(&reports, &dir).unwrap());
        let page = std::fs::read_to_string(reports.join("performance.html")).unwrap();
        for want in [
            ">2026-11-28_r2<",
            ">2026-11-28_r2-50k<",
            ">80.00<",
            ">77.00<",
            ">1.04<",
            ">2.00<",
        ] {
            assert!(page.contains(want), "{want} missing");
        }
        // (the timestep file's fixed run is in the timestep's section only)
        assert_eq!(page.matches(">77.00<").count(), 1);
        assert!(!write_committed_performance_page(&reports, &reports).unwrap());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
