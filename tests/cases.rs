//! Every case under `cases/` passes its checks and matches its golden snapshot.
//!
//! The snapshot (`golden/<name>.snap`, insta JSON) freezes the summary and the last value of
//! every recorded series to 10 significant digits. A change in physics shows up here first;
//! re-baselining is explicit: `INSTA_UPDATE=always cargo test cases` (never implicit in CI).

use ballast::check::golden_record;
use ballast::verify::{collect_cases, run_case, RunOptions};
use std::path::{Path, PathBuf};

#[test]
fn every_case_passes_and_matches_its_snapshot() {
    let files = collect_cases(&[PathBuf::from("cases")]);
    assert!(
        files.len() >= 6,
        "expected the verification cases, found {files:?}"
    );
    let mut failures = Vec::new();
    for f in files {
        let case = ballast::case::load(&f).unwrap_or_else(|e| panic!("{e}"));
        let out = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join("cases")
            .join(&case.name);
        let (summary, series) = run_case(&case, &out, &RunOptions::default()).unwrap();
        assert!(
            summary.error.is_none(),
            "{}: {:?}",
            case.name,
            summary.error
        );
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
        insta::with_settings!({snapshot_path => "../golden", prepend_module_to_snapshot => false, omit_expression => true}, {
            insta::assert_json_snapshot!(case.name.clone(), golden_record(&summary, &series));
        });
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
