//! Every case under `cases/` passes its checks and matches its golden snapshot.
//!
//! The snapshot (`golden/<name>.snap`, insta JSON) freezes the summary and the last value of
//! every recorded series to 10 significant digits. A change in physics shows up here first;
//! re-baselining is explicit: `INSTA_UPDATE=always cargo test cases -- --include-ignored` (never
//! implicit in CI); `BALLAST_ONLY=cases/chute` limits a run to the cases whose path holds it.

use ballast::check::golden_record;
use ballast::verify::{collect_cases, run_case, slow_study as slow, RunOptions};
use std::path::{Path, PathBuf};

/// Every case but the slow ones (`ballast::verify::slow_study`) runs without error, every check but `golden`
/// passes, and the summary and last values match `golden/<name>.snap`; every mismatch is
/// reported (not only the first), and the cases and the snapshots are the same set (no case
/// without a snapshot, no snapshot left from a case that is gone).
#[test]
fn every_case_passes_and_matches_its_snapshot() {
    cases_pass(|p| !slow(p), 179);
}

/// The slow cases, as [`every_case_passes_and_matches_its_snapshot`] does the others.
#[test]
#[ignore = "minutes at opt-level 1; `ballast verify` judges these cases in release"]
fn the_slow_cases_pass_and_match_their_snapshots() {
    cases_pass(slow, 36);
}

/// Runs the cases under `cases/` that `pick` selects against their checks and snapshots; at
/// least `at_least` of them (a folder that went missing would otherwise pass).
fn cases_pass(pick: impl Fn(&Path) -> bool, at_least: usize) {
    let files = collect_cases(&[PathBuf::from("cases")]);
    let mut failures = Vec::new();
    let mut names = std::collections::BTreeSet::new();
    let mut ran = 0;
    // (BALLAST_ONLY=text runs only the cases whose path holds it: to write the snapshots of
    // new cases with `INSTA_UPDATE=always`; the counts are then not judged)
    let only = std::env::var("BALLAST_ONLY").ok();
    for f in files {
        let case = ballast::case::load(&f).unwrap_or_else(|e| panic!("{e}"));
        names.insert(case.name.clone());
        let chosen = (only.as_deref()).is_none_or(|o| f.to_string_lossy().contains(o));
        if !pick(&f) || !chosen {
            continue;
        }
        ran += 1;
        let out = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join("cases")
            .join(&case.name);
        let (summary, series) = run_case(&case, &out, &RunOptions::default()).unwrap();
        if let Some(e) = &summary.error {
            failures.push(format!("{}: the run stopped: {e}", case.name));
        }
        for c in summary
            .checks
            .iter()
            .filter(|c| c.kind != "golden" && !c.passed)
        {
            failures.push(format!(
                "{}: {} failed: value {:?}, expected {:?}: {}",
                case.name, c.kind, c.value, c.expected, c.message
            ));
        }
        let record = golden_record(&summary, &series);
        let name = case.name.clone();
        // (insta panics on a mismatch; each one is caught and listed)
        let matched = std::panic::catch_unwind(move || {
            insta::with_settings!({snapshot_path => "../golden", prepend_module_to_snapshot => false, omit_expression => true}, {
                insta::assert_json_snapshot!(name, record);
            });
        });
        if matched.is_err() {
            failures.push(format!(
                "{}: does not match golden/{}.snap",
                case.name, case.name
            ));
        }
    }
    let snapshots: std::collections::BTreeSet<String> = std::fs::read_dir("golden")
        .expect("golden/")
        .flatten()
        .filter_map(|e| {
            let n = e.file_name().to_string_lossy().into_owned();
            n.strip_suffix(".snap").map(String::from)
        })
        .collect();
    if only.is_some() {
        assert!(failures.is_empty(), "{}", failures.join("\n"));
        return;
    }
    for n in names.difference(&snapshots) {
        failures.push(format!("{n}: no golden/{n}.snap"));
    }
    for n in snapshots.difference(&names) {
        failures.push(format!("golden/{n}.snap: no case of that name"));
    }
    assert!(
        names.len() >= 191,
        "{} cases found under cases/",
        names.len()
    );
    assert!(
        ran >= at_least,
        "{ran} cases ran: expected at least {at_least}"
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
