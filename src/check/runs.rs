//! The series of runs already made in this process, by case file: a check that compares with
//! another case (`same_series`, `beverloo`) takes them from here when that case ran before it
//! with the series it needs (`ballast verify` runs the cases in file order), instead of running
//! it again ([`super::CaseView::series_of`]). A run is remembered under its file's path and the
//! hash of its text, so an edited file is never matched with an old run.
//!
//! `ballast verify --jobs N` runs several cases at once: a case being run is registered
//! ([`Running::start`]) until its run has ended and been remembered, and a check that needs it
//! waits for it instead of running it a second time. A case's run ends before its own checks
//! are judged, so no two cases can wait for each other.

use crate::output::SeriesTable;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Condvar, Mutex};

static RUNS: Mutex<Option<HashMap<Key, SeriesTable>>> = Mutex::new(None);

/// A run's key: the case file's canonical path and the hash of its text.
type Key = (PathBuf, u64);

/// The cases whose runs are under way in this process, and the signal that one has ended.
static RUNNING: (Mutex<Option<HashSet<Key>>>, Condvar) = (Mutex::new(None), Condvar::new());

/// A case's run under way: registered from [`Running::start`] until dropped (the run has
/// ended, and been remembered when it is complete). Dropped on every path, a panic's too.
pub struct Running(Key);

impl Running {
    /// Registers the run of the case at `path` (text hash `hash`).
    pub fn start(path: &Path, hash: u64) -> Running {
        let k = key(path, hash);
        if let Ok(mut set) = RUNNING.0.lock() {
            set.get_or_insert_with(HashSet::new).insert(k.clone());
        }
        Running(k)
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let mut set = match RUNNING.0.lock() {
            Ok(s) => s,
            Err(poisoned) => poisoned.into_inner(),
        };
        if let Some(set) = set.as_mut() {
            set.remove(&self.0);
        }
        RUNNING.1.notify_all();
    }
}

/// Waits while the case at `path` (text hash `hash`) is being run by another thread.
pub fn wait_for(path: &Path, hash: u64) {
    let k = key(path, hash);
    let Ok(mut set) = RUNNING.0.lock() else {
        return;
    };
    while set.as_ref().is_some_and(|s| s.contains(&k)) {
        set = match RUNNING.1.wait(set) {
            Ok(s) => s,
            Err(_) => return,
        };
    }
}

fn key(path: &Path, hash: u64) -> Key {
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

/// The series of a remembered run of the case at `path` (text hash `hash`) that has every
/// column in `columns`.
pub fn recall(path: &Path, hash: u64, columns: &[&str]) -> Option<SeriesTable> {
    let runs = RUNS.lock().ok()?;
    let table = runs.as_ref()?.get(&key(path, hash))?;
    columns
        .iter()
        .all(|c| table.column(c).is_some())
        .then(|| table.clone())
}
