//! Running cases: simulate, evaluate the checks, write the output files and the report.

use crate::case::CheckSpec;
use crate::case::{Case, CaseError};
use crate::check::{self, Context};
use crate::output::SeriesTable;
use crate::record::CheckOutcome;
use crate::record::Summary;
use std::path::{Path, PathBuf};

mod scene;
pub use scene::scene;

/// Options of [`run_case`].
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// Show a progress bar on a terminal.
    pub progress: bool,
    /// Resume from this checkpoint (`ballast run --resume`).
    pub resume: Option<PathBuf>,
    /// Start a new stage from this checkpoint's state (`ballast run --from`).
    pub from: Option<PathBuf>,
}

/// Runs a case, evaluates its checks and writes `series.csv`, `summary.json` and `index.html`
/// into `out_dir`.
///
/// # Errors
/// A model that cannot be built, or output that cannot be written.
pub fn run_case(
    case: &Case,
    out_dir: &Path,
    opts: &RunOptions,
) -> Result<(Summary, SeriesTable), CaseError> {
    run_case_on(case, out_dir, opts, None)
}

/// [`run_case`] over the ranks of `comm` (each calls it together): the same outputs, bit for
/// bit, written by rank 0 (docs/RANKS.md).
///
/// # Errors
/// As [`run_case`]; what cannot be cut over ranks yet.
pub fn run_case_on(
    case: &Case,
    out_dir: &Path,
    opts: &RunOptions,
    comm: Option<&dyn crate::comm::Comm>,
) -> Result<(Summary, SeriesTable), CaseError> {
    let root = comm.is_none_or(|c| c.rank() == 0);
    let file = case.path.display().to_string();
    if let Some(ckpt) = &opts.resume {
        crate::run::checkpoint::check_resume(ckpt, case)
            .map_err(|e| CaseError::new(&file, "--resume", e))?;
    }
    if let Some(ckpt) = &opts.from {
        crate::run::checkpoint::check_header(ckpt, None)
            .map_err(|e| CaseError::new(&file, "--from", e))?;
    }
    if root {
        prepare_out_dir(out_dir).map_err(|e| CaseError::new(&file, "--out", e))?;
    }
    // (a check of another case running at once waits for this run rather than repeat it)
    let running = crate::check::runs::Running::start(&case.path, case.source_hash);
    let sim = crate::run::simulate_observed(
        case,
        None,
        &[],
        opts.progress,
        Some(&out_dir.join("vtk")),
        &crate::run::Control {
            out_dir: Some(out_dir),
            resume: opts.resume.as_deref(),
            from: opts.from.as_deref(),
            comm,
        },
        |model| case.checks.iter().map(|c| check::probe(c, model)).collect(),
    )?;
    // (remembered, and no longer running, before this case's own checks are judged: two
    // cases that compare with each other never wait for each other)
    // (a stage started from another run's state is not the case's run)
    let whole = opts.resume.is_none() && opts.from.is_none();
    if sim.error.is_none() && !sim.interrupted && whole {
        crate::check::runs::remember(&case.path, case.source_hash, &sim.table);
    }
    drop(running);
    let summary = judge(case, &sim);
    if root {
        write_outputs(out_dir, &summary, &sim.table).map_err(|e| CaseError::new(&file, "", e))?;
    }
    Ok((summary, sim.table))
}

/// The summary of a run of `case` that has ended, its checks judged (as `ballast run` judges
/// them: a run stopped by an error fails each).
pub fn judge(case: &Case, sim: &crate::run::Simulation<Option<check::Probe>>) -> Summary {
    let ctx = Context {
        case,
        series: &sim.table,
        depth: 0,
        cycles: sim.model.cycles,
        time: sim.model.time,
        stopped: sim.stopped.clone(),
    };
    let mut summary = new_summary(case, sim, case.path.display().to_string());
    let stopped = |kind: &str, e: &str| CheckOutcome {
        kind: kind.into(),
        message: format!("the run stopped: {e}"),
        ..Default::default()
    };
    for (spec, probe) in case.checks.iter().zip(&sim.observers) {
        if matches!(spec, CheckSpec::Golden { .. }) {
            continue;
        }
        summary.checks.push(match &sim.error {
            Some(e) => stopped(spec.kind(), e),
            None => check::evaluate(spec, &ctx, probe.as_ref()),
        });
    }
    for spec in &case.checks {
        if let CheckSpec::Golden { tolerance } = spec {
            let g = match &sim.error {
                Some(e) => stopped("golden", e),
                None => check::evaluate_golden(*tolerance, &ctx, &summary),
            };
            summary.checks.push(g);
        }
    }
    summary.passed = summary.error.is_none() && summary.checks.iter().all(|c| c.passed);
    summary
}

/// The summary of a run of `case` (file name `file`) before its checks are judged.
fn new_summary<O>(case: &Case, sim: &crate::run::Simulation<O>, file: String) -> Summary {
    Summary {
        case: case.name.clone(),
        description: case.description.clone(),
        file,
        steps: sim.model.cycles,
        time: sim.model.time,
        dt: sim.dt.clone(),
        wall_seconds: sim.wall_seconds,
        // balls and clumps (a clump's pebbles are pieces, not bodies)
        bodies: (0..sim.model.balls.len())
            .filter(|&i| !sim.model.balls.is_pebble(i))
            .count()
            + sim.model.clumps.len(),
        contacts: sim.model.contacts.len(),
        contacts_active: sim.model.contacts.active_count(),
        wall_contacts: sim.model.facet_contacts.list.len(),
        wall_contacts_active: sim.model.facet_contacts.active_count(),
        passed: false,
        error: sim.error.clone(),
        stopped: sim.stopped.clone(),
        interrupted: sim.interrupted,
        scene: scene(case),
        flow: flow_summary(&sim.model),
        warnings: (case.warnings.iter().cloned())
            .chain(crate::case::end_warnings(case, &sim.model))
            .collect(),
        checks: Vec::new(),
        ranks: sim.ranks.clone(),
    }
}

/// What each insertion and outlet of a model did.
fn flow_summary(model: &crate::model::Model) -> Vec<crate::record::FlowSummary> {
    let f = &model.flow;
    let inserts = f.inserts.iter().map(|i| crate::record::FlowSummary {
        kind: "insert".into(),
        name: i.spec.name.clone(),
        count: i.placed,
        mass: i.placed_mass,
        pending: i.pending,
    });
    let outlets = f.outlets.iter().map(|o| crate::record::FlowSummary {
        kind: "outlet".into(),
        name: o.name.clone(),
        count: o.count,
        mass: o.mass,
        pending: 0.0,
    });
    inserts.chain(outlets).collect()
}

/// Makes `out_dir` ready before the first cycle: creates it, proves it writable (a file is
/// written, flushed and removed: a read-only or full folder is found now, not after the run),
/// and removes the previous run's outputs, so that no stale file looks current beside a run
/// that stops early.
///
/// # Errors
/// The folder that cannot be written, and why.
pub fn prepare_out_dir(out_dir: &Path) -> Result<(), String> {
    let io = |e: std::io::Error| format!("{}: cannot write there: {e}", out_dir.display());
    std::fs::create_dir_all(out_dir).map_err(io)?;
    let probe = out_dir.join(".ballast-write-test");
    crate::storage::write_atomic(&probe, [0u8; 4096]).map_err(io)?;
    std::fs::remove_file(&probe).map_err(io)?;
    for f in ["series.csv", "summary.json", "index.html"] {
        match std::fs::remove_file(out_dir.join(f)) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(io(e)),
            _ => {}
        }
    }
    Ok(())
}

/// Writes the three output files of a run.
///
/// # Errors
/// I/O errors, as a sentence.
pub fn write_outputs(out_dir: &Path, summary: &Summary, table: &SeriesTable) -> Result<(), String> {
    let io = |e: std::io::Error| format!("{}: {e}", out_dir.display());
    std::fs::create_dir_all(out_dir).map_err(io)?;
    table.write_csv(&out_dir.join("series.csv")).map_err(io)?;
    let json = summary.to_json().map_err(|e| e.to_string())?;
    crate::storage::write_atomic(&out_dir.join("summary.json"), json).map_err(io)?;
    crate::report::write_case_page(out_dir, summary, table).map_err(io)
}

/// The slow studies (README, "Slow studies"): the experiments (silos, column, oedometer,
/// pours), the heaps, the rheology sweeps, the chutes, the 140,000-cycle settle on a fixed
/// layer and the 1,000-ball settle boxes; together about three quarters of `verify`'s time.
/// `cargo test` leaves them out (they run with `--include-ignored`), and so does `verify
/// --skip-slow` (CI's verify, to stay within its 30 minutes).
pub fn slow_study(path: &Path) -> bool {
    let parts: Vec<_> = path.components().map(|c| c.as_os_str()).collect();
    let folder = parts.windows(2).any(|w| {
        w[0] == "cases"
            && ["experiments", "heap", "rheology", "chute"]
                .iter()
                .any(|f| w[1] == *f)
    });
    let file = [
        "settle_on_fixed_layer.toml",
        "settle_box_hertz_1k.toml",
        "settle_box_hooke_1k.toml",
    ]
    .iter()
    .any(|n| path.file_name().is_some_and(|f| f == *n));
    folder || file
}

/// Every `.toml` file under the given files and folders, each once: in the order of the paths,
/// each folder's sorted; a file reached again (named twice, inside a folder also named, or
/// through a symbolic link) is left out, and a folder reached again through a link is not
/// walked again (a link to a folder that holds it ends there).
pub fn collect_cases(paths: &[PathBuf]) -> Vec<PathBuf> {
    use std::collections::HashSet;
    /// The files found, and the canonical paths of the files and folders already seen.
    struct Walk {
        out: Vec<PathBuf>,
        seen: HashSet<PathBuf>,
    }
    impl Walk {
        /// True the first time `p` (by its canonical path) is seen.
        fn first(&mut self, p: &Path) -> bool {
            self.seen
                .insert(p.canonicalize().unwrap_or_else(|_| p.to_path_buf()))
        }
        fn walk(&mut self, p: &Path, named: bool) {
            if p.is_dir() {
                if !self.first(p) {
                    return;
                }
                if let Ok(rd) = std::fs::read_dir(p) {
                    let mut entries: Vec<PathBuf> = rd.flatten().map(|e| e.path()).collect();
                    entries.sort();
                    for e in entries {
                        self.walk(&e, false);
                    }
                }
            } else if (named && p.is_file() || p.extension().is_some_and(|e| e == "toml"))
                && self.first(p)
            {
                self.out.push(p.to_path_buf());
            }
        }
    }
    let mut w = Walk {
        out: Vec::new(),
        seen: HashSet::new(),
    };
    for p in paths {
        w.walk(p, true);
    }
    w.out
}

/// The summary of a case that could not run.
pub fn failed_summary(path: &Path, reason: String) -> Summary {
    Summary {
        case: path
            .file_stem()
            .map_or("case".into(), |s| s.to_string_lossy().into_owned()),
        file: path.display().to_string(),
        error: Some(reason),
        ..Default::default()
    }
}
