//! HTML report: one page per case (`case_page.rs`), the index (`index.rs`: the coverage matrix
//! of `coverage.rs`, read from docs/REFERENCES.md, and the cases by topic) and one file per
//! topic page (stiffness, timestep, full_mode, clumps, planar, experiments, rolling) or a folder
//! of one file per section (`chung_ooi/`, `performance/`), built from `html.rs` (style, tables),
//! `code.rs` (links to the code by item and line), `plot.rs` (SVG plots) and `geometry.rs`
//! (scene drawings). Long prose lives in Markdown files under `text/`.

mod case_page;
mod chung_ooi;
mod clumps;
pub mod code;
pub mod coverage;
mod experiments;
mod full_mode;
pub mod geometry;
mod html;
mod index;
mod markdown;
mod outcome;
mod performance;
mod planar;
mod plot;
mod rheology;
mod rolling;
mod stiffness;
mod timestep;

pub use case_page::write_case_page;
pub use index::write_index;
pub use performance::write_performance_page;
pub use plot::svg;

use crate::output::SeriesTable;
use crate::record::Summary;
use std::path::{Path, PathBuf};

/// The summaries of every case with results under `reports/cases/*/` whose case file still
/// exists, in the order `verify` lists them (by case file): what the index shows after a
/// `verify` of some folders or files only (the cases not run keep their earlier results).
///
/// # Errors
/// I/O or parse errors, as a sentence.
pub fn summaries_on_disk(reports: &Path) -> Result<Vec<Summary>, String> {
    let cases = reports.join("cases");
    let mut summaries = Vec::new();
    for e in std::fs::read_dir(&cases)
        .map_err(|e| format!("{}: {e}", cases.display()))?
        .flatten()
    {
        let path = e.path().join("summary.json");
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let s: Summary =
            serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        if Path::new(&s.file).is_file() {
            summaries.push(s);
        }
    }
    summaries.sort_by(|a, b| a.file.cmp(&b.file));
    Ok(summaries)
}

/// Rebuilds every page under `reports/cases/*/` and the index from results on disk.
///
/// # Errors
/// I/O or parse errors, as a sentence.
pub fn rebuild(reports: &Path) -> Result<Vec<Summary>, String> {
    let cases = reports.join("cases");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&cases)
        .map_err(|e| format!("{}: {e}", cases.display()))?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("summary.json").is_file())
        .collect();
    dirs.sort();
    let mut summaries = Vec::new();
    for d in dirs {
        let text = std::fs::read_to_string(d.join("summary.json"))
            .map_err(|e| format!("{}: {e}", d.display()))?;
        let s: Summary = serde_json::from_str(&text)
            .map_err(|e| format!("{}/summary.json: {e}", d.display()))?;
        let table = SeriesTable::read_csv(&d.join("series.csv"))?;
        write_case_page(&d, &s, &table).map_err(|e| format!("{}: {e}", d.display()))?;
        summaries.push(s);
    }
    // (the order `verify` lists them in: by case file)
    summaries.sort_by(|a, b| a.file.cmp(&b.file));
    write_index(reports, &summaries).map_err(|e| e.to_string())?;
    Ok(summaries)
}
