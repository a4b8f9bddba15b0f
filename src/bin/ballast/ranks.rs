//! `ballast bench-one --ranks N`: one timed run cut over ranks, as threads of this process
//! (`comm::Hub`) or, in the build with `--features mpi` under `mpirun`, as its processes.

use ballast::comm::{Comm, Hub};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The processes `mpirun` started, when there are several (the build with `--features mpi`);
/// None otherwise. Set up once, at the start: MPI is finished when it is dropped.
pub(crate) fn world() -> Option<Box<dyn Comm>> {
    #[cfg(feature = "mpi")]
    {
        let w = ballast::comm::Mpi::start()?;
        if w.size() > 1 {
            return Some(Box::new(w));
        }
    }
    None
}

/// Checks the flags, runs [`ballast::bench::run_ranked`] on every rank (threads of this
/// process, each with a pool of `threads` threads, or the processes of `world`), and prints
/// its JSON line on rank 0.
pub(crate) fn bench_ranked(
    case: &Path,
    steps: Option<u64>,
    threads: usize,
    (ranks, bricks): (Option<usize>, Option<Vec<usize>>),
    world: Option<&dyn Comm>,
) -> ExitCode {
    let size = world.map_or(ranks.unwrap_or(1), |w| w.size());
    let listed = bricks.as_ref().map_or(3, Vec::len);
    let bricks: Option<[usize; 3]> = bricks.and_then(|b| b.try_into().ok());
    let checked = super::args::refuse([
        match listed {
            3 => Ok(()),
            k => Err(format!(
                "--bricks: {k} numbers; give three, along x, y and z (2,1,1)"
            )),
        },
        super::args::threads("--threads", threads).map(drop),
        steps.map_or(Ok(()), |s| super::args::steps("--steps", s).map(drop)),
        ranks_fit(ranks, world),
        match bricks {
            Some(b) if b.iter().product::<usize>() != size => Err(format!(
                "--bricks {},{},{}: their product must be the number of ranks, {size}",
                b[0], b[1], b[2]
            )),
            _ => Ok(()),
        },
    ]);
    if let Err(code) = checked {
        return code;
    }
    let run = |comm: &dyn Comm| ballast::bench::run_ranked(case, steps, comm, bricks);
    let (rank, result) = match world {
        Some(w) => {
            // (the run stays on this thread, which set MPI up: its loops use the global pool)
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads);
            match pool.build_global() {
                Ok(()) => (w.rank(), run(w)),
                Err(e) => (w.rank(), Err(format!("--threads: {e}"))),
            }
        }
        None => {
            let hubs = Hub::ranks(size);
            let mut all: Vec<_> = std::thread::scope(|s| {
                let handles: Vec<_> = (hubs.into_iter())
                    .map(|h| {
                        s.spawn(move || {
                            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads);
                            match pool.build() {
                                Ok(p) => p.install(|| run(&h)),
                                Err(e) => Err(format!("--threads: {e}")),
                            }
                        })
                    })
                    .collect();
                (handles.into_iter())
                    .map(|h| h.join().unwrap_or_else(|_| Err("a rank stopped".into())))
                    .collect()
            });
            (0, all.swap_remove(0))
        }
    };
    match result {
        Ok(r) => {
            if rank == 0 {
                say!("{}", serde_json::to_string(&r).unwrap_or_default());
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            if rank == 0 {
                esay!("error: {e}");
            }
            ExitCode::from(2)
        }
    }
}

/// `ballast run` over ranks: `--ranks R` threads of this process (`comm::Hub`, each with a
/// pool of `--threads` threads, default 1), or the processes of `world` (under `mpirun`).
/// Rank 0 prints and writes the outputs; the exit code is rank 0's.
pub(crate) fn run_ranked(
    case: &Path,
    out: Option<PathBuf>,
    resume: (Option<PathBuf>, Option<PathBuf>),
    (threads, ranks): (Option<usize>, Option<usize>),
    world: Option<&dyn Comm>,
) -> ExitCode {
    let threads = threads.unwrap_or(1);
    let checked = super::args::refuse([
        super::args::threads("--threads", threads).map(drop),
        ranks_fit(ranks, world),
    ]);
    if let Err(code) = checked {
        return code;
    }
    let run = |comm: &dyn Comm| super::run::run_on(case, out.clone(), resume.clone(), Some(comm));
    over(ranks.unwrap_or(1), threads, world, run)
}

/// `work` on every rank: the processes of `world` (under `mpirun`), or else `ranks` threads
/// of this process (`comm::Hub`); each with a pool of `threads` threads. Returns rank 0's
/// exit code.
pub(crate) fn over(
    ranks: usize,
    threads: usize,
    world: Option<&dyn Comm>,
    work: impl Fn(&dyn Comm) -> ExitCode + Sync,
) -> ExitCode {
    let pool = || rayon::ThreadPoolBuilder::new().num_threads(threads);
    match world {
        Some(w) => match pool().build_global() {
            // (the work stays on this thread, which set MPI up: its loops use the global pool)
            Ok(()) => work(w),
            Err(e) => {
                esay!("error: --threads: {e}");
                ExitCode::from(2)
            }
        },
        None => {
            let hubs = Hub::ranks(ranks);
            let work = &work;
            let mut codes: Vec<ExitCode> = std::thread::scope(|s| {
                let handles: Vec<_> = (hubs.into_iter())
                    .map(|h| {
                        s.spawn(move || match pool().build() {
                            Ok(p) => p.install(|| work(&h)),
                            Err(e) => {
                                esay!("error: --threads: {e}");
                                ExitCode::from(2)
                            }
                        })
                    })
                    .collect();
                (handles.into_iter())
                    .map(|h| h.join().unwrap_or(ExitCode::from(2)))
                    .collect()
            });
            codes.swap_remove(0)
        }
    }
}

/// `--ranks`: 1 to 1024, and under `mpirun` the number of its processes (or left out).
pub(crate) fn ranks_fit(ranks: Option<usize>, world: Option<&dyn Comm>) -> Result<(), String> {
    match (ranks, world) {
        (Some(r), Some(w)) if r != w.size() => Err(format!(
            "--ranks {r}: mpirun started {} processes (give the same number, or leave \
             --ranks out)",
            w.size()
        )),
        (Some(r), None) if !(1..=1024).contains(&r) => Err(format!("--ranks {r}: 1 to 1024 ranks")),
        _ => Ok(()),
    }
}
