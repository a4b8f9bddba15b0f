//! The `ballast` command line (SPEC section 1).

use ballast::harness::{collect_cases, failed_summary, run_case, RunOptions};
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
    },
    /// Run every case under the given files and folders (default: cases/) and write
    /// reports/index.html.
    Verify {
        /// Case files or folders.
        paths: Vec<PathBuf>,
    },
    /// Rebuild the HTML report from results already on disk.
    Report,
    /// Parse and validate a case only; print what it contains.
    Check {
        /// The case file.
        case: PathBuf,
    },
}

const REPORTS: &str = "reports";

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Run { case, out } => run(&case, out),
        Command::Verify { paths } => verify(paths),
        Command::Report => match ballast::report::rebuild(Path::new(REPORTS)) {
            Ok(s) => {
                println!("rebuilt {} case pages and {REPORTS}/index.html", s.len());
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::from(2)
            }
        },
        Command::Check { case } => check(&case),
    }
}

fn run(path: &Path, out: Option<PathBuf>) -> ExitCode {
    let case = match ballast::case::load(path) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let dir = out.unwrap_or_else(|| Path::new(REPORTS).join("cases").join(&case.name));
    match run_case(&case, &dir, &RunOptions { progress: true }) {
        Ok((s, _)) => {
            print_line(&s);
            for c in &s.checks {
                println!(
                    "  {:<5} {:<17} value {:>14} expected {:>14}  {}",
                    if c.passed { "pass" } else { "FAIL" },
                    c.kind,
                    c.value.map_or("-".into(), |v| format!("{v:.6e}")),
                    c.expected.map_or("-".into(), |v| format!("{v:.6e}")),
                    c.message
                );
            }
            println!("report: {}", dir.join("index.html").display());
            if s.passed {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            }
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

fn print_line(s: &ballast::output::Summary) {
    let ok = s.checks.iter().filter(|c| c.passed).count();
    let status = if s.passed { "PASS" } else { "FAIL" };
    let mut line = format!(
        "{status} {:<32} {ok}/{} checks  {:>9} cycles  {:>7.2} s",
        s.case,
        s.checks.len(),
        s.steps,
        s.wall_seconds
    );
    if let Some(e) = &s.error {
        line.push_str(&format!("  stopped: {e}"));
    } else if let Some(c) = s.checks.iter().find(|c| !c.passed) {
        line.push_str(&format!("  first failure: {} ({})", c.kind, c.message));
    }
    println!("{line}");
}

fn verify(paths: Vec<PathBuf>) -> ExitCode {
    let paths = if paths.is_empty() {
        vec![PathBuf::from("cases")]
    } else {
        paths
    };
    let files = collect_cases(&paths);
    if files.is_empty() {
        eprintln!("error: no case files (*.toml) under {paths:?}");
        return ExitCode::from(2);
    }
    let reports = Path::new(REPORTS);
    let mut summaries = Vec::new();
    for f in files {
        let s = match ballast::case::load(&f) {
            Ok(case) => {
                let dir = reports.join("cases").join(&case.name);
                match run_case(&case, &dir, &RunOptions { progress: true }) {
                    Ok((s, _)) => s,
                    Err(e) => failed_summary(&f, e.to_string()),
                }
            }
            Err(e) => failed_summary(&f, e.to_string()),
        };
        print_line(&s);
        summaries.push(s);
    }
    if let Err(e) = ballast::report::write_index(reports, &summaries) {
        eprintln!("error: {}: {e}", reports.display());
        return ExitCode::from(2);
    }
    let passed = summaries.iter().filter(|s| s.passed).count();
    println!("report: {}", reports.join("index.html").display());
    println!("{} passed, {} failed", passed, summaries.len() - passed);
    if passed == summaries.len() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

fn check(path: &Path) -> ExitCode {
    match ballast::case::load(path) {
        Ok(c) => {
            println!("{}: case \"{}\" is valid", path.display(), c.name);
            if !c.description.is_empty() {
                println!("  {}", c.description);
            }
            let scene = ballast::harness::scene(&c);
            for (k, v) in &scene.settings {
                println!("  {k}: {v}");
            }
            println!(
                "  materials: {}",
                c.materials
                    .iter()
                    .map(|m| m.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            for row in scene.contact_models.iter().skip(1) {
                println!("  contact {}: {} ({})", row[0], row[1], row[2]);
            }
            println!("  balls: {}", c.balls.len());
            println!("  series: {}", c.series.join(", "));
            println!(
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
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
