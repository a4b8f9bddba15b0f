//! `ballast verify`'s cases: every path given must exist, each case file runs once (by its
//! canonical path, symbolic link loops walked once), and no two cases share a name (each
//! writes the folder `reports/cases/<name>/`). Refused before anything runs.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The case files under `paths`, or the sentence that refuses them.
pub(crate) fn cases(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    if let Some(p) = paths.iter().find(|p| !p.exists()) {
        return Err(format!("{}: no such file or folder", p.display()));
    }
    let files = ballast::verify::collect_cases(paths);
    if files.is_empty() {
        return Err(format!("no case files (*.toml) under {paths:?}"));
    }
    let mut names: HashMap<String, &Path> = HashMap::new();
    for f in &files {
        let Some(name) = name_of(f) else {
            continue;
        };
        if let Some(first) = names.insert(name.clone(), f) {
            return Err(format!(
                "{}: name \"{name}\" is also the name of {} (each case writes \
                 reports/cases/<name>/: give one of them another `name`)",
                f.display(),
                first.display()
            ));
        }
    }
    Ok(files)
}

/// A case's name as `ballast run` gives it (`name`, else the file's stem); None for a file
/// that cannot be read (its run reports why).
fn name_of(f: &Path) -> Option<String> {
    let text = std::fs::read_to_string(f).ok()?;
    let table: toml::Table = toml::from_str(&text).ok()?;
    match table.get("name") {
        Some(toml::Value::String(n)) => Some(n.clone()),
        Some(_) => None,
        None => Some(f.file_stem()?.to_string_lossy().into_owned()),
    }
}
