//! `ballast verify`: the cases run on threads of this process, or under `mpirun` one after the
//! other over its processes (each case cut over them when it can be, else run by rank 0 alone).

use super::{print_line, print_warnings, INTERRUPTED, REPORTS};
use ballast::comm::Comm;
use ballast::record::Summary;
use ballast::verify::{failed_summary, run_case, run_case_on, RunOptions};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// `ballast verify`: every case under `paths` (default: cases/), on `jobs` threads or, under
/// `mpirun` (`world`), one after the other over the processes; then reports/index.html.
/// With `skip_slow`, without the slow studies ([`ballast::verify::slow_study`]).
pub(crate) fn verify(
    (paths, skip_slow): (Vec<PathBuf>, bool),
    jobs: Option<u16>,
    world: Option<&dyn Comm>,
) -> ExitCode {
    let default = paths.is_empty();
    // (the index shows the whole only when this run is the whole)
    let everything = default && !skip_slow;
    let paths = if default {
        vec![PathBuf::from("cases")]
    } else {
        paths
    };
    let files = match super::select::cases(&paths) {
        Ok(f) if skip_slow => {
            let (slow, quick): (Vec<_>, Vec<_>) =
                f.into_iter().partition(|p| ballast::verify::slow_study(p));
            if world.is_none_or(|w| w.rank() == 0) {
                say!("--skip-slow: {} slow studies left out", slow.len());
            }
            quick
        }
        Ok(f) => f,
        Err(e) => {
            if world.is_none_or(|w| w.rank() == 0) {
                esay!("error: {e}");
            }
            return ExitCode::from(2);
        }
    };
    let jobs = jobs.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        usize::from,
    );
    let reports = Path::new(REPORTS);
    let summaries = match world {
        None => run_cases(&files, jobs.min(files.len())),
        Some(w) => {
            let summaries = run_cases_over(&files, w);
            if w.rank() != 0 {
                // (rank 0 writes the index and prints; its exit code is every rank's)
                let code = w.gather_all(Vec::new());
                return ExitCode::from(code[0].first().copied().unwrap_or(2));
            }
            summaries
        }
    };
    if ballast::run::interrupted() {
        say!("interrupted: the cases after the last one shown were not run");
    }
    // Some cases only: the index keeps the others' results on disk (from earlier runs), so that
    // it never shows a part as the whole.
    let listed = if everything {
        Ok(summaries.clone())
    } else {
        // this run's summaries (a case that could not run has none on disk), then the others'
        ballast::report::summaries_on_disk(reports).map(|disk| {
            let mut all = summaries.clone();
            let ran: std::collections::HashSet<&str> =
                summaries.iter().map(|s| s.case.as_str()).collect();
            all.extend(disk.into_iter().filter(|s| !ran.contains(s.case.as_str())));
            all.sort_by(|a, b| a.file.cmp(&b.file));
            all
        })
    };
    let written = listed
        .and_then(|all| ballast::report::write_index(reports, &all).map_err(|e| e.to_string()));
    if let Err(e) = written {
        esay!("error: {}: {e}", reports.display());
        if let Some(w) = world {
            w.gather_all(vec![2]);
        }
        return ExitCode::from(2);
    }
    if !everything {
        say!(
            "the index lists every case with results in {REPORTS}/cases ({} run now, the others \
             from earlier runs)",
            summaries.len()
        );
    }
    let ran = summaries.iter().filter(|s| s.ran_without_checks()).count();
    let passed = (summaries.iter())
        .filter(|s| s.passed && !s.ran_without_checks())
        .count();
    let failed = summaries.len() - passed - ran;
    say!("report: {}", reports.join("index.html").display());
    if ran > 0 {
        say!("{ran} ran without checks (nothing judged)");
    }
    say!("{passed} passed, {failed} failed");
    let code = if ballast::run::interrupted() {
        INTERRUPTED
    } else {
        u8::from(failed > 0)
    };
    if let Some(w) = world {
        w.gather_all(vec![code]);
    }
    ExitCode::from(code)
}

/// Runs the cases at `files` on `jobs` threads, each taking the next case not yet taken (with
/// more than one job, each case on a pool of one thread), and prints each case's line in file
/// order as soon as it and those before it have ended. Returns the summaries in file order;
/// after an interrupt, those of the cases that ran.
fn run_cases(files: &[PathBuf], jobs: usize) -> Vec<ballast::record::Summary> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Mutex;
    let reports = Path::new(REPORTS);
    let one = |f: &Path| -> ballast::record::Summary {
        // (a case that panics, a bug of ours, is reported as failed and the others still run)
        let outcome = std::panic::catch_unwind(|| match ballast::case::load(f) {
            Ok(case) => {
                let dir = reports.join("cases").join(&case.name);
                let opts = RunOptions {
                    // (several bars at once would overwrite each other)
                    progress: jobs == 1,
                    ..Default::default()
                };
                match run_case(&case, &dir, &opts) {
                    Ok((s, _)) => s,
                    Err(e) => failed_summary(f, e.to_string()),
                }
            }
            Err(e) => failed_summary(f, e.to_string()),
        });
        outcome.unwrap_or_else(|p| {
            failed_summary(
                f,
                format!(
                    "internal error (a bug of ballast, please report it): {}",
                    panic_text(&p)
                ),
            )
        })
    };
    let next = AtomicUsize::new(0);
    // (the summaries by file index, and how many lines have been printed)
    let done = Mutex::new((vec![None; files.len()], 0usize));
    let work = || loop {
        if ballast::run::interrupted() {
            break;
        }
        let i = next.fetch_add(1, Ordering::Relaxed);
        let Some(f) = files.get(i) else {
            break;
        };
        let s = if jobs > 1 {
            match rayon::ThreadPoolBuilder::new().num_threads(1).build() {
                Ok(pool) => pool.install(|| one(f)),
                Err(_) => one(f),
            }
        } else {
            one(f)
        };
        let mut d = done.lock().unwrap_or_else(|p| p.into_inner());
        d.0[i] = Some(s);
        while let Some(Some(s)) = d.0.get(d.1) {
            print_line(s);
            print_warnings(&s.warnings);
            d.1 += 1;
        }
    };
    if jobs > 1 {
        std::thread::scope(|scope| {
            for _ in 0..jobs {
                scope.spawn(work);
            }
        });
    } else {
        work();
    }
    let (summaries, printed) = done.into_inner().unwrap_or_else(|p| p.into_inner());
    // (after an interrupt, the cases that ended after one that did not run are printed here)
    for s in summaries[printed..].iter().flatten() {
        print_line(s);
        print_warnings(&s.warnings);
    }
    summaries.into_iter().flatten().collect()
}

/// `ballast verify` over ranks: `--ranks R` threads of this process, or the processes of
/// `world` (under `mpirun`); the cases one after the other (`--jobs` is refused).
pub(crate) fn verify_ranked(
    paths: (Vec<PathBuf>, bool),
    jobs: Option<u16>,
    ranks: Option<usize>,
    world: Option<&dyn Comm>,
) -> ExitCode {
    let checked = super::args::refuse([
        match jobs {
            Some(j) => Err(format!(
                "--jobs {j}: over ranks the cases run one after the other (leave --jobs out)"
            )),
            None => Ok(()),
        },
        super::ranks::ranks_fit(ranks, world),
    ]);
    if let Err(code) = checked {
        return code;
    }
    let work = |comm: &dyn Comm| verify(paths.clone(), None, Some(comm));
    super::ranks::over(ranks.unwrap_or(1), 1, world, work)
}

/// The message of a caught panic.
fn panic_text(p: &Box<dyn std::any::Any + Send>) -> String {
    p.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "panic".into())
}

/// The cases at `files` one after the other over the ranks of `world` (every rank calls it
/// together): a case that can be cut over ranks runs over them all; another runs on rank 0
/// alone while the others wait. Rank 0 prints each case's line, and at the end how many were
/// cut, how many ran alone and why; its summaries are those returned (on another rank, a case
/// rank 0 ran alone has a summary that says so).
fn run_cases_over(files: &[PathBuf], world: &dyn Comm) -> Vec<Summary> {
    let root = world.rank() == 0;
    let reports = Path::new(REPORTS);
    let mut summaries = Vec::new();
    // (the cases cut over the ranks; why the others ran on rank 0 alone, how many for each)
    let mut cut = 0;
    let mut alone: std::collections::BTreeMap<String, usize> = Default::default();
    for f in files {
        if world.any(ballast::run::interrupted()) {
            break;
        }
        // (no panic is caught here: a rank that panicked would leave the others waiting in a
        // collective; its process ends, and mpirun ends the others)
        let s = match ballast::case::load(f) {
            Ok(case) => {
                let dir = reports.join("cases").join(&case.name);
                let opts = RunOptions {
                    progress: root,
                    ..Default::default()
                };
                let ran = match ballast::run::why_not_ranked(&case) {
                    None => {
                        cut += 1;
                        run_case_on(&case, &dir, &opts, Some(world)).map(|r| r.0)
                    }
                    Some(why) => {
                        let ran = root.then(|| run_case(&case, &dir, &opts).map(|r| r.0));
                        // (the others wait for rank 0)
                        world.any(false);
                        *alone.entry(why).or_default() += 1;
                        ran.unwrap_or_else(|| Ok(failed_summary(f, "run on rank 0 alone".into())))
                    }
                };
                ran.unwrap_or_else(|e| failed_summary(f, e.to_string()))
            }
            Err(e) => failed_summary(f, e.to_string()),
        };
        if root {
            print_line(&s);
            print_warnings(&s.warnings);
        }
        summaries.push(s);
    }
    if root {
        let count: usize = alone.values().sum();
        say!(
            "over {} ranks: {cut} cases cut over them, {count} on rank 0 alone",
            world.size()
        );
        for (why, n) in &alone {
            say!("  {n:>4} alone: {why}");
        }
    }
    summaries
}
