//! The series of runs already made in this process, by case file: a check that compares with
//! another case (`same_series`, `beverloo`) takes them from here when that case ran before it
//! with the series it needs (`ballast verify` runs the cases in file order), instead of running
//! it again. A run is remembered under its file's path and the hash of its text, so an edited
//! file is never matched with an old run.

use crate::output::SeriesTable;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

static RUNS: Mutex<Option<HashMap<(PathBuf, u64), SeriesTable>>> = Mutex::new(None);

fn key(path: &Path, hash: u64) -> (PathBuf, u64) {
    (
        std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf()),
        hash,
    )
}

/// Remembers the series of a complete run of the case at `path` (text hash `hash`).
pub fn remember(path: &Path, hash: u64, table: &SeriesTable) {
    if let Ok(mut runs) = RUNS.lock() {
        runs.get_or_insert_with(HashMap::new)
            .insert(key(path, hash), table.clone());
    }
}

/// The series of a remembered run of `case` that has every column in `columns`.
pub fn recall(case: &crate::case::Case, columns: &[&str]) -> Option<SeriesTable> {
    let runs = RUNS.lock().ok()?;
    let table = runs.as_ref()?.get(&key(&case.path, case.source_hash))?;
    columns
        .iter()
        .all(|c| table.column(c).is_some())
        .then(|| table.clone())
}

/// The series `columns` of the case at `path`: a remembered run's, or a new run's.
///
/// # Errors
/// The case does not load, or its run stops, as a sentence.
pub fn run_other(path: &Path, columns: &[&str]) -> Result<SeriesTable, String> {
    let case = crate::case::load(path).map_err(|e| format!("the other case did not run: {e}"))?;
    if let Some(t) = recall(&case, columns) {
        return Ok(t);
    }
    let names: Vec<String> = columns
        .iter()
        .map(|c| crate::output::base_series(c).to_string())
        .collect();
    let sim = crate::run::simulate(&case, None, &names, false, None)
        .map_err(|e| format!("the other case did not run: {e}"))?;
    if let Some(e) = &sim.error {
        return Err(format!("{} stopped: {e}", path.display()));
    }
    remember(path, case.source_hash, &sim.table);
    Ok(sim.table)
}
