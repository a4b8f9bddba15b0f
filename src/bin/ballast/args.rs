//! The limits of the numbers the command line takes (`--threads`, `--steps`): a number out of
//! them is refused before anything runs, with one line naming the flag (docs/CASES.md,
//! section 1).

use std::path::Path;
use std::process::ExitCode;

/// The most threads `--threads` takes: far more than any machine this runs on has cores (a
/// pool of more threads than processors is legal and gives the same results, only slower),
/// and few enough that a typing mistake (`--threads 100000`) is refused instead of spawning
/// threads until memory runs out.
pub(crate) const MAX_THREADS: usize = 1024;

/// Refuses a thread count of `--threads` (`flag`) outside 1..=[`MAX_THREADS`].
pub(crate) fn threads(flag: &str, t: usize) -> Result<usize, String> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    if t == 0 {
        Err(format!(
            "{flag} 0: a run needs at least one thread (1 to {MAX_THREADS}; this machine has \
             {cores} processors)"
        ))
    } else if t > MAX_THREADS {
        Err(format!(
            "{flag} {t}: more than {MAX_THREADS} threads (1 to {MAX_THREADS}; this machine \
             has {cores} processors)"
        ))
    } else {
        Ok(t)
    }
}

/// Refuses a step count of `--steps` (`flag`) outside 1..=10^12 (the cap of a case's run,
/// [`ballast::case::MAX_STEPS`]).
pub(crate) fn steps(flag: &str, s: u64) -> Result<u64, String> {
    let max = ballast::case::MAX_STEPS;
    if s == 0 {
        Err(format!("{flag} 0: no steps to time (1 to 10^12)"))
    } else if s > max {
        Err(format!(
            "{flag} {s}: more than 10^12 steps, the cap on a case's run (1 to 10^12)"
        ))
    } else {
        Ok(s)
    }
}

/// The first refusal of `checks`, printed as the error line (exit code 2), or Ok.
pub(crate) fn refuse(checks: impl IntoIterator<Item = Result<(), String>>) -> Result<(), ExitCode> {
    for c in checks {
        if let Err(e) = c {
            esay!("error: {e}");
            return Err(ExitCode::from(2));
        }
    }
    Ok(())
}

/// The command that resumes an interrupted run from its checkpoint, with each path quoted
/// for a shell when it needs to be.
pub(crate) fn resume_command(case: &Path, ckpt: &Path, out: &Path) -> String {
    format!(
        "ballast run {} --resume {} --out {}",
        quoted(case),
        quoted(ckpt),
        quoted(out)
    )
}

/// A path as a shell reads it: as is when it holds only safe characters, else in single
/// quotes.
fn quoted(p: &Path) -> String {
    let s = p.display().to_string();
    let safe = |c: char| c.is_ascii_alphanumeric() || "/._-+:,=@%".contains(c);
    if !s.is_empty() && s.chars().all(safe) {
        s
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}
