//! The `ballast` command line (docs/CASES.md, section 1).

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
        /// Run the cases one after the other, each cut over this many ranks (threads of this
        /// process, one thread each; under `mpirun` in the build with `--features mpi`, its
        /// processes). A case that cannot be cut over ranks yet runs on rank 0 alone; the
        /// outputs are the same bytes (docs/RANKS.md).
        #[arg(long)]
        ranks: Option<usize>,
        /// Leave out the slow studies (README, "Slow studies": about three quarters of the
        /// time; CI leaves them out to stay within 30 minutes).
        #[arg(long)]
        skip_slow: bool,
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
#[path = "ballast/verify.rs"]
mod verify;

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
    let over = matches!(
        cli.command,
        Command::BenchOne { .. } | Command::Run { .. } | Command::Verify { .. }
    );
    if world.is_some() && !over {
        esay!(
            "error: under mpirun, only `ballast run`, `verify` and `bench-one` run over the \
             processes (docs/RANKS.md); start this command without mpirun"
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
        Command::Verify {
            paths,
            jobs,
            ranks,
            skip_slow,
        } => match (ranks, world.as_deref()) {
            (None, None) => verify::verify((paths, skip_slow), jobs, None),
            (ranks, world) => verify::verify_ranked((paths, skip_slow), jobs, ranks, world),
        },
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
