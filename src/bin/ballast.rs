//! The `ballast` command line (docs/CASES.md, section 1).

use ballast::verify::{failed_summary, run_case, RunOptions};
use clap::{Parser, Subcommand};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// ballast: a DEM engine that carries its own proof.
#[derive(Parser)]
#[command(version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run one case; exit 0 when every check passed, 1 when one failed, 2 on bad input.
    Run {
        /// The case file.
        case: PathBuf,
        /// Output folder (default: reports/cases/<name>/).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Continue the run from this checkpoint (<out>/checkpoints/cycle_<N>.ckpt) to the
        /// case's end.
        #[arg(long)]
        resume: Option<PathBuf>,
        /// Threads of the run's pool, 1 to 1024 (default: the number of processors); the
        /// results are the same bits for any count. Scenes under 4,096 balls and contacts
        /// run their loops on one thread (there, threads cost more than they save).
        #[arg(long)]
        threads: Option<usize>,
        /// Start this case from the state a checkpoint of another run holds (a new stage: the
        /// case's own settings apply; its run length counts from the checkpoint's time).
        #[arg(long, conflicts_with = "resume")]
        from: Option<PathBuf>,
        /// Cut the run over this many ranks, 1 to 1024: threads of this process (each with
        /// `--threads` threads of its own, default 1), or under `mpirun` with the build
        /// `--features mpi` the processes it started. The outputs are the same bytes
        /// (docs/RANKS.md).
        #[arg(long)]
        ranks: Option<usize>,
    },
    /// Run every case under the given files and folders (default: cases/) and write
    /// reports/index.html.
    Verify {
        /// Case files or folders.
        paths: Vec<PathBuf>,
        /// Cases run at once (default: the number of processors). With more than one, each
        /// case runs on one thread; the results are the same bits for any thread count.
        #[arg(long, value_parser = clap::value_parser!(u16).range(1..))]
        jobs: Option<u16>,
    },
    /// Rebuild the HTML report from results already on disk.
    Report,
    /// Parse and validate a case only; print what it contains.
    Check {
        /// The case file.
        case: PathBuf,
    },
    /// The settle-box performance benchmark (benches/cases/, SCENE.md): for each model, N and
    /// thread count, particle-steps per second, contacts, final kinetic energy, mean height and
    /// peak memory; prints the table with the ratio to LIGGGHTS and writes
    /// reports/bench/results.json and reports/performance.html.
    Bench {
        /// Numbers of balls.
        #[arg(long, value_delimiter = ',', default_values_t = [1000usize, 10000, 50000])]
        n: Vec<usize>,
        /// Contact models, by the case format's names: hertz-history, hooke-history (the
        /// LIGGGHTS-style models, compared with LIGGGHTS), hertz, linear, linear-dashpot,
        /// hysteretic, linearbond (on the contact frame).
        #[arg(long, value_delimiter = ',', default_values_t = [String::from("hertz-history"), String::from("hooke-history")])]
        models: Vec<String>,
        /// Thread counts, each 1 to 1024.
        #[arg(long, value_delimiter = ',', default_values_t = [1usize, 2])]
        threads: Vec<usize>,
        /// Scenes: settle-box (the peer benchmark), drum (the wall-heavy scene: 10,000 balls
        /// in a turning STL drum of 4,800 facets, full resolution; hertz-history and hertz).
        /// A model or N a scene has no case for is left out, and said so.
        #[arg(long, value_delimiter = ',', default_values_t = [String::from("settle-box")])]
        scene: Vec<String>,
        /// Steps per run, 1 to 10^12 (default: the cases' 20,000).
        #[arg(long)]
        steps: Option<u64>,
        /// Folder of the settle-box case files.
        #[arg(long, default_value = "benches/cases")]
        cases: PathBuf,
        /// Timesteps: fixed (the cases' own step), diagonal or bound (the automatic timestep
        /// with that estimator, capped at the case's step: the same steps, so the time ratio
        /// to the fixed run is the cost of choosing the step).
        #[arg(long, value_delimiter = ',', default_values_t = [String::from("fixed")])]
        timestep: Vec<String>,
        /// Runs of each configuration, taken in turn over the thread counts and timesteps (1,
        /// 2, 1, 2, ...) so that a slow spell of the machine falls on each alike: the median
        /// run is kept, with every run's loop time, and the runs must end in the same state.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
        repeat: u32,
    },
    /// One timed run in this process (what `bench` runs for each configuration); prints one
    /// JSON line. With --resume, from a checkpoint of the case: the cost of one stage of a run.
    BenchOne {
        /// The case file.
        case: PathBuf,
        /// Steps, 1 to 10^12 (default: the case's).
        #[arg(long)]
        steps: Option<u64>,
        /// Threads, 1 to 1024.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Timestep: fixed, diagonal or bound (see `bench --timestep`).
        #[arg(long, default_value = "fixed")]
        timestep: String,
        /// Start from this checkpoint of the case (`ballast run` with `checkpoint_every`);
        /// `--steps` then counts the cycles after it (default: to the case's end).
        #[arg(long)]
        resume: Option<PathBuf>,
        /// Cut the run over this many ranks, 1 to 1024 (threads of this process, each with
        /// `--threads` threads of its own; under `mpirun` with the build `--features mpi`,
        /// the processes `mpirun` started): prints the speed of the slowest rank, ghosts,
        /// bytes sent, imbalance and the final state's fingerprint (docs/RANKS.md).
        #[arg(long)]
        ranks: Option<usize>,
        /// With `--ranks`: the bricks along x, y and z (their product the rank count;
        /// default: the cut of least inner area over the balls' extent).
        #[arg(long, value_delimiter = ',')]
        bricks: Option<Vec<usize>>,
    },
}

const REPORTS: &str = "reports";

/// `println!` that never panics: when stdout is gone (`ballast verify | head -1` closes the
/// pipe), the line is dropped and the work goes on (the reports are still written).
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
}

/// `eprintln!` that never panics, likewise.
macro_rules! esay {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

// (a file of src/bin/ would be a binary of its own: the command's modules are in src/bin/ballast/)
#[path = "ballast/args.rs"]
mod args;
#[path = "ballast/bench.rs"]
mod bench;
#[path = "ballast/ranks.rs"]
mod ranks;
#[path = "ballast/run.rs"]
mod run;
#[path = "ballast/select.rs"]
mod select;

/// Exit code of a run stopped by SIGINT or SIGTERM (128 + 2, the shell's convention).
const INTERRUPTED: u8 = 130;

/// SIGINT/SIGTERM: the first asks the runs to stop at the end of the cycle and write what they
/// recorded; the second ends the process at once.
fn catch_interrupts() {
    let _ = ctrlc::set_handler(|| {
        if ballast::run::interrupted() {
            std::process::exit(INTERRUPTED.into());
        }
        ballast::run::interrupt();
        esay!("interrupted: stopping at the end of this cycle and writing what was recorded (again to quit at once)");
    });
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    catch_interrupts();
    let world = ranks::world();
    if world.is_some() && !matches!(cli.command, Command::BenchOne { .. } | Command::Run { .. }) {
        esay!(
            "error: under mpirun, only `ballast run` and `ballast bench-one` run over the \
             processes so far (docs/RANKS.md); start this command without mpirun"
        );
        return ExitCode::from(2);
    }
    match cli.command {
        Command::Run {
            case,
            out,
            resume,
            threads,
            from,
            ranks,
        } => match (ranks, world.as_deref()) {
            (None, None) => run::run(&case, out, (resume, from), threads),
            (ranks, world) => {
                ranks::run_ranked(&case, out, (resume, from), (threads, ranks), world)
            }
        },
        Command::Verify { paths, jobs } => verify(paths, jobs),
        Command::Report => match ballast::report::rebuild(Path::new(REPORTS)) {
            Ok(s) => {
                say!("rebuilt {} case pages and {REPORTS}/index.html", s.len());
                ExitCode::SUCCESS
            }
            Err(e) => {
                esay!("error: {e}");
                ExitCode::from(2)
            }
        },
        Command::Check { case } => check(&case),
        Command::Bench {
            n,
            models,
            threads,
            steps,
            cases,
            scene,
            timestep,
            repeat,
        } => match args::refuse(
            (threads
                .iter()
                .map(|&t| args::threads("--threads", t).map(drop)))
            .chain(steps.map(|s| args::steps("--steps", s).map(drop))),
        ) {
            Err(code) => code,
            Ok(()) => bench::bench(
                &n,
                &models,
                &threads,
                (steps, repeat),
                &cases,
                &scene,
                &timestep,
            ),
        },
        Command::BenchOne {
            case,
            steps,
            threads,
            timestep,
            resume,
            ranks: None,
            bricks: None,
        } if world.is_none() => bench_one(&case, (steps, resume.as_deref()), threads, &timestep),
        Command::BenchOne {
            case,
            steps,
            threads,
            ranks,
            bricks,
            ..
        } => ranks::bench_ranked(&case, steps, threads, (ranks, bricks), world.as_deref()),
    }
}

/// `ballast bench-one`: its flags checked, then the run.
fn bench_one(
    case: &Path,
    (steps, resume): (Option<u64>, Option<&Path>),
    threads: usize,
    timestep: &str,
) -> ExitCode {
    let checked = args::refuse([
        args::threads("--threads", threads).map(drop),
        steps.map_or(Ok(()), |s| args::steps("--steps", s).map(drop)),
    ]);
    if let Err(code) = checked {
        return code;
    }
    match ballast::bench::run_one(case, (steps, resume), threads, timestep) {
        Ok(r) => {
            say!("{}", serde_json::to_string(&r).unwrap_or_default());
            ExitCode::SUCCESS
        }
        Err(e) => {
            esay!("error: {e}");
            ExitCode::from(2)
        }
    }
}

/// One `warning: FILE: key: reason` line on stderr for each warning.
fn print_warnings(warnings: &[String]) {
    for w in warnings {
        esay!("warning: {w}");
    }
}

fn print_line(s: &ballast::record::Summary) {
    let ok = s.checks.iter().filter(|c| c.passed).count();
    let status = if s.ran_without_checks() {
        "RAN "
    } else if s.passed {
        "PASS"
    } else {
        "FAIL"
    };
    let mut line = format!(
        "{status} {:<32} {ok}/{} checks  {:>9} cycles  {:>7.2} s",
        s.case,
        s.checks.len(),
        s.steps,
        s.wall_seconds
    );
    if let Some(e) = &s.error {
        line.push_str(&format!("  stopped: {e}"));
    } else if s.ran_without_checks() {
        line.push_str("  no checks: nothing judged");
    } else if let Some(c) = s.checks.iter().find(|c| !c.passed) {
        line.push_str(&format!("  first failure: {} ({})", c.kind, c.message));
    }
    say!("{line}");
}

fn verify(paths: Vec<PathBuf>, jobs: Option<u16>) -> ExitCode {
    let everything = paths.is_empty();
    let paths = if everything {
        vec![PathBuf::from("cases")]
    } else {
        paths
    };
    let files = match select::cases(&paths) {
        Ok(f) => f,
        Err(e) => {
            esay!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let jobs = jobs.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        usize::from,
    );
    let reports = Path::new(REPORTS);
    let summaries = run_cases(&files, jobs.min(files.len()));
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
    if ballast::run::interrupted() {
        ExitCode::from(INTERRUPTED)
    } else if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
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

/// The message of a caught panic.
fn panic_text(p: &Box<dyn std::any::Any + Send>) -> String {
    p.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "panic".into())
}

fn check(path: &Path) -> ExitCode {
    match ballast::case::load(path) {
        Ok(c) => {
            print_warnings(&c.warnings);
            say!("{}: case \"{}\" is valid", path.display(), c.name);
            if !c.description.is_empty() {
                say!("  {}", c.description);
            }
            let scene = ballast::verify::scene(&c);
            for (k, v) in &scene.settings {
                say!("  {k}: {v}");
            }
            say!(
                "  materials: {}",
                c.materials
                    .iter()
                    .map(|m| m.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            for row in scene.contact_models.iter().skip(1) {
                say!("  contact {}: {} ({})", row[0], row[1], row[2]);
            }
            say!("  balls: {}", c.balls.len());
            say!("  series: {}", c.series.join(", "));
            say!(
                "  checks: {}",
                c.checks
                    .iter()
                    .map(|k| k.kind())
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            esay!("error: {e}");
            ExitCode::from(2)
        }
    }
}
