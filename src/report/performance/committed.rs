//! The bench results committed under benches/results/: the newest run of each kind, and the
//! order of their file names.

use crate::bench::BenchRun;
use std::path::Path;

/// The runs of the results files of `dir` named `<prefix><date>...json`, each with its file's
/// name in [`BenchRun::source`]: of each case, model, N, thread count, timestep
/// and number of steps, the run of the newest file (the files in the order of their names after
/// the prefix, [`natural_key`]), and only those measured on the processor of the newest file
/// (a round that ran one N or one model leaves the others' newest runs in view; runs of
/// another machine would make the page's ratios meaningless). The fixed-step runs of a file
/// that also holds automatic-timestep runs are each kept with their file: they are those runs'
/// baselines, and an automatic run is set beside the fixed run of its own bench (the same
/// hour), not beside a later bench's.
pub(super) fn committed_runs(dir: &Path, prefix: &str) -> Vec<BenchRun> {
    use crate::bench::{model_of, BenchRun};
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<(Vec<Piece>, String)> = entries
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter_map(|name| {
            let rest = name.strip_prefix(prefix)?.strip_suffix(".json")?;
            Some((natural_key(rest), name))
        })
        .collect();
    files.sort();
    // (the files that hold automatic-timestep runs, as they are read)
    let mut with_auto = std::collections::HashSet::new();
    // (a run's place: what it measured)
    let key = |r: &BenchRun, with_auto: &std::collections::HashSet<String>| {
        let timestep = if r.timestep.is_empty() {
            "fixed"
        } else {
            r.timestep.as_str()
        };
        // (a baseline of automatic runs: one per file)
        let file =
            (!crate::bench::is_auto(r) && with_auto.contains(&r.source)).then(|| r.source.clone());
        (
            r.case.clone(),
            model_of(r).to_string(),
            r.n,
            r.threads,
            timestep.to_string(),
            r.steps,
            file,
        )
    };
    let mut runs: Vec<BenchRun> = Vec::new();
    let mut machine = String::new();
    for (_, name) in files {
        let Ok(text) = std::fs::read_to_string(dir.join(&name)) else {
            continue;
        };
        let Ok(read) = serde_json::from_str::<Vec<BenchRun>>(&text) else {
            continue;
        };
        if read.iter().any(crate::bench::is_auto) {
            with_auto.insert(name.clone());
        }
        for mut r in read {
            r.source.clone_from(&name);
            machine.clone_from(&r.machine);
            match runs
                .iter_mut()
                .find(|o| key(o, &with_auto) == key(&r, &with_auto))
            {
                Some(old) => *old = r,
                None => runs.push(r),
            }
        }
    }
    runs.retain(|r| r.machine == machine);
    runs
}

/// The newest file of `dir` whose name starts with `prefix` and ends with `suffix` (names
/// carry the date and the round, so the newest sorts last, numbers compared as numbers:
/// [`natural_key`]).
pub(super) fn newest(dir: &Path, prefix: &str, suffix: &str) -> Option<std::path::PathBuf> {
    newest_where(dir, |name| {
        name.starts_with(prefix) && name.ends_with(suffix)
    })
}

/// The newest file of `dir` whose name `keep` accepts, as [`newest`] orders them.
fn newest_where(dir: &Path, keep: impl Fn(&str) -> bool) -> Option<std::path::PathBuf> {
    std::fs::read_dir(dir)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter_map(|p| {
            let name = p.file_name()?.to_str()?;
            let key = keep(name).then(|| natural_key(name));
            Some((key?, p))
        })
        .max()
        .map(|(_, p)| p)
}

/// A piece of a file name, for [`natural_key`].
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Piece {
    Number(u64),
    Text(String),
}

/// The order of file names with their runs of digits compared as numbers: a bench's tenth
/// round (`_r10`) comes after its ninth (`_r9`), which plain string order puts last.
pub(super) fn natural_key(name: &str) -> Vec<Piece> {
    let mut pieces = Vec::new();
    let mut rest = name;
    while let Some(c) = rest.chars().next() {
        let digits = c.is_ascii_digit();
        let end = rest
            .find(|x: char| x.is_ascii_digit() != digits)
            .unwrap_or(rest.len());
        let (head, tail) = rest.split_at(end);
        pieces.push(match head.parse() {
            Ok(n) if digits => Piece::Number(n),
            _ => Piece::Text(head.to_string()),
        });
        rest = tail;
    }
    pieces
}

#[cfg(test)]
mod tests {
    use super::natural_key;

    /// Runs of digits compare as numbers, so that the newest bench file is found: the tenth
    /// round after the ninth, a second bench of a round (`_r8b`) after its first, a later
    /// date after an earlier one whatever its round.
    #[test]
    fn bench_files_sort_by_date_then_round() {
        let mut names = [
            "settle_box_2026-11-22_r10.json",
            "settle_box_2026-11-21_r5.json",
            "settle_box_2026-11-22_r8b.json",
            "settle_box_2026-11-22_r9.json",
            "settle_box_2026-11-21.json",
            "settle_box_2026-11-22_r8.json",
        ];
        names.sort_by_key(|n| natural_key(n));
        assert_eq!(
            names,
            [
                "settle_box_2026-11-21.json",
                "settle_box_2026-11-21_r5.json",
                "settle_box_2026-11-22_r8.json",
                "settle_box_2026-11-22_r8b.json",
                "settle_box_2026-11-22_r9.json",
                "settle_box_2026-11-22_r10.json",
            ]
        );
    }
}
