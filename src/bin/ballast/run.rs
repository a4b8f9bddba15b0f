//! `ballast run`: one case, its checks judged, its outputs written (over ranks: rank 0 prints).

use super::{args, print_line, print_warnings, INTERRUPTED, REPORTS};
use ballast::verify::{run_case_on, RunOptions};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

pub(crate) fn run(
    path: &Path,
    out: Option<PathBuf>,
    resume: (Option<PathBuf>, Option<PathBuf>),
    threads: Option<usize>,
) -> ExitCode {
    let pool = match threads.map(|t| args::threads("--threads", t)).transpose() {
        Ok(t) => t.map(|t| rayon::ThreadPoolBuilder::new().num_threads(t).build()),
        Err(e) => {
            esay!("error: {e}");
            return ExitCode::from(2);
        }
    };
    match pool {
        None => run_on(path, out, resume, None),
        Some(Ok(pool)) => pool.install(|| run_on(path, out, resume, None)),
        Some(Err(e)) => {
            esay!("error: --threads: {e}");
            ExitCode::from(2)
        }
    }
}

/// `ballast run` on the current thread pool (over the ranks of `comm`, rank 0 printing).
pub(crate) fn run_on(
    path: &Path,
    out: Option<PathBuf>,
    (resume, from): (Option<PathBuf>, Option<PathBuf>),
    comm: Option<&dyn ballast::comm::Comm>,
) -> ExitCode {
    let root = comm.is_none_or(|c| c.rank() == 0);
    let loaded = match &from {
        // (a stage from a checkpoint: its series and checks may name the loaded bodies)
        Some(ckpt) => ballast::run::checkpoint::read(ckpt, None)
            .map_err(|e| ballast::case::CaseError::new(&path.display().to_string(), "--from", e))
            .and_then(|state| ballast::case::load_stage(path, &state.model)),
        None => ballast::case::load(path),
    };
    let case = match loaded {
        Ok(c) => c,
        Err(e) => {
            if root {
                esay!("error: {e}");
            }
            return ExitCode::from(2);
        }
    };
    if root {
        print_warnings(&case.warnings);
    }
    let dir = out.unwrap_or_else(|| Path::new(REPORTS).join("cases").join(&case.name));
    let opts = RunOptions {
        progress: true,
        resume,
        from,
    };
    match run_case_on(&case, &dir, &opts, comm) {
        Ok((s, _)) if !root => ExitCode::from(u8::from(!s.passed)),
        Err(_) if !root => ExitCode::from(2),
        Ok((s, _)) => {
            print_line(&s);
            // (those found at the end of the run: the others were printed before it)
            print_warnings(s.warnings.get(case.warnings.len()..).unwrap_or_default());
            for c in &s.checks {
                say!(
                    "  {:<5} {:<17} value {:>14} expected {:>14}  {}",
                    if c.passed { "pass" } else { "FAIL" },
                    c.kind,
                    c.value.map_or("-".into(), |v| format!("{v:.6e}")),
                    c.expected.map_or("-".into(), |v| format!("{v:.6e}")),
                    c.message
                );
            }
            say!("report: {}", dir.join("index.html").display());
            if s.interrupted {
                say_resume(path, &dir, s.steps);
                ExitCode::from(INTERRUPTED)
            } else if s.passed {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            }
        }
        Err(e) => {
            esay!("error: {e}");
            ExitCode::from(2)
        }
    }
}

/// After an interrupt: the cycle, the checkpoint written and the command that resumes from it.
fn say_resume(case: &Path, dir: &Path, cycle: u64) {
    let ckpt = dir.join("checkpoints").join(format!("cycle_{cycle}.ckpt"));
    if ckpt.is_file() {
        esay!(
            "interrupted at cycle {cycle}; checkpoint written to {}; resume with: {}",
            ckpt.display(),
            args::resume_command(case, &ckpt, dir)
        );
    } else {
        esay!("interrupted at cycle {cycle}; no checkpoint was written (see the line above)");
    }
}
