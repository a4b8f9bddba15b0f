//! `ballast bench`: every configuration run in a child process (`ballast bench-one`), the
//! table printed as the runs end, then the results file and the Performance page.

use super::REPORTS;
use ballast::bench::BenchRun;
use std::path::Path;
use std::process::ExitCode;

/// The cases of one scene, model and N, and how to run them.
struct BenchCase<'a> {
    /// This program, run as `ballast bench-one` for each run.
    exe: &'a Path,
    /// The case file.
    path: &'a Path,
    scene: &'a str,
    /// The scene's prefix of case files (`settle_box`, `drum`).
    prefix: &'a str,
    /// The model's name (`--models`).
    model: &'a String,
    /// The LIGGGHTS model it is compared with.
    compared: &'a str,
    n: usize,
    /// Steps per run (None: the case's own).
    steps: Option<u64>,
    /// Runs of each configuration.
    repeat: u32,
}

/// Runs every configuration in a child process and writes the results and the page.
pub(crate) fn bench(
    ns: &[usize],
    models: &[String],
    threads: &[usize],
    (steps, repeat): (Option<u64>, u32),
    cases: &Path,
    scenes: &[String],
    timesteps: &[String],
) -> ExitCode {
    let exe = match std::env::current_exe() {
        Ok(e) => e,
        Err(e) => {
            esay!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let (plan, chosen) = match plan(models, scenes, timesteps) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let selected = match select(&plan, &chosen, ns, cases) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let mut runs = Vec::new();
    print_header();
    for (scene, prefix, (model, _, compared), n, case) in selected {
        let bench_case = BenchCase {
            exe: &exe,
            path: &case,
            scene,
            prefix,
            model,
            compared,
            n,
            steps,
            repeat,
        };
        match bench_case.run(threads, timesteps) {
            Ok(r) => runs.extend(r),
            Err(code) => return code,
        }
    }
    write_results(&runs, ns, models, threads, steps, scenes)
}

/// A model to bench: its name, its case files' stem, the LIGGGHTS model it is compared with.
type Planned<'a> = (&'a String, &'static str, &'static str);
/// A scene to bench: its name, its case files' prefix, its numbers of balls.
type Scene<'a> = (&'a String, &'static str, &'static [usize]);

/// The models and scenes the options name, with the timesteps checked; an unknown name is an
/// error printed here (exit code 2).
fn plan<'a>(
    models: &'a [String],
    scenes: &'a [String],
    timesteps: &[String],
) -> Result<(Vec<Planned<'a>>, Vec<Scene<'a>>), ExitCode> {
    let mut plan = Vec::new();
    for model in models {
        let Some((stem, compared)) = ballast::bench::bench_model(model) else {
            let names: Vec<&str> = ballast::bench::MODELS.iter().map(|m| m.0).collect();
            esay!(
                "error: --models: no model \"{model}\" (one of: {})",
                names.join(", ")
            );
            return Err(ExitCode::from(2));
        };
        plan.push((model, stem, compared));
    }
    let mut chosen = Vec::new();
    for scene in scenes {
        let Some(&(_, prefix, sizes)) = ballast::bench::SCENES.iter().find(|s| s.0 == scene) else {
            let names: Vec<&str> = ballast::bench::SCENES.iter().map(|s| s.0).collect();
            esay!(
                "error: --scene: no scene \"{scene}\" (one of: {})",
                names.join(", ")
            );
            return Err(ExitCode::from(2));
        };
        chosen.push((scene, prefix, sizes));
    }
    for t in timesteps {
        if let Err(e) = ballast::bench::check_timestep(t) {
            esay!("error: {e}");
            return Err(ExitCode::from(2));
        }
    }
    Ok((plan, chosen))
}

/// A case to bench: scene, case-file prefix, model, N and the case file.
type Selected<'a> = (
    &'a String,
    &'static str,
    Planned<'a>,
    usize,
    std::path::PathBuf,
);

/// The case files of each scene, model and N chosen, in the order run. A scene with no case
/// for a model or N leaves it out and says so; a settle-box case missing from `cases` is an
/// error; a selection that leaves out everything is refused before anything runs or is
/// written (exit code 2).
fn select<'a>(
    plan: &[Planned<'a>],
    chosen: &[Scene<'a>],
    ns: &[usize],
    cases: &Path,
) -> Result<Vec<Selected<'a>>, ExitCode> {
    let mut selected = Vec::new();
    for &(scene, prefix, sizes) in chosen {
        for &(model, stem, compared) in plan {
            for &n in ns {
                let case = cases.join(format!("{prefix}_{stem}_{}k.toml", n / 1000));
                let settle = prefix == "settle_box";
                if (!settle && (!sizes.contains(&n) || !case.is_file())) || n % 1000 != 0 {
                    say!("({scene}, {model}: no case for N = {n}: left out)");
                    continue;
                }
                if !case.is_file() {
                    esay!("error: {}: no such case (benches/cases/make_cases.py writes N = 1,000, 10,000, 50,000)", case.display());
                    return Err(ExitCode::from(2));
                }
                selected.push((scene, prefix, (model, stem, compared), n, case));
            }
        }
    }
    if selected.is_empty() {
        let names = |v: Vec<String>| v.join(",");
        esay!(
            "error: --scene {} --models {} --n {}: no case to run (settle-box has N = 1000, \
             10000, 50000 for every model; drum has N = 10000 for hertz-history and hertz)",
            names(chosen.iter().map(|c| c.0.clone()).collect()),
            names(plan.iter().map(|p| p.0.clone()).collect()),
            names(ns.iter().map(|n| n.to_string()).collect())
        );
        return Err(ExitCode::from(2));
    }
    Ok(selected)
}

/// The header of the table the runs print.
fn print_header() {
    say!(
        "{:<14} {:>7} {:>3} {:>7} {:>9} {:>11} {:>9} {:>8} {:>6} {:>11} {:>11} {:>9}",
        "model",
        "N",
        "thr",
        "steps",
        "loop s",
        "Mps/s",
        "vs LIGG",
        "pp",
        "nw",
        "KE trans J",
        "mean z m",
        "peak MiB"
    );
}

impl BenchCase<'_> {
    /// Runs the case `repeat` times on each thread count and timestep, taken in turn (1, 2,
    /// 1, 2 threads, ...), printing each run; returns each configuration's median run.
    fn run(&self, threads: &[usize], timesteps: &[String]) -> Result<Vec<BenchRun>, ExitCode> {
        let repeat = self.repeat;
        // (each configuration's runs in turn: 1, 2, 1, 2 threads, ...)
        let configs: Vec<(usize, &String)> = (threads.iter())
            .flat_map(|&t| timesteps.iter().map(move |s| (t, s)))
            .collect();
        let mut got = vec![Vec::new(); configs.len()];
        for (k, (i, &(t, timestep))) in
            (1..=repeat).flat_map(|k| configs.iter().enumerate().map(move |c| (k, c)))
        {
            let r = self.run_once(t, timestep)?;
            self.print_run(&r, t, timestep, k);
            got[i].push(r);
        }
        let mut out = Vec::new();
        for (rs, &(t, timestep)) in got.into_iter().zip(&configs) {
            let r = match ballast::bench::median_run(rs) {
                Ok(r) => r,
                Err(e) => {
                    esay!("error: {e}");
                    return Err(ExitCode::from(1));
                }
            };
            if repeat > 1 {
                let n = self.n;
                let times: Vec<String> = r.repeats.iter().map(|x| format!("{x:.2}")).collect();
                say!(
                    "  {} ({timestep}), N = {n}, {t} thread(s): the median of {repeat} \
                     runs, {:.2} s ({:.3} Mps/s; loop times {} s)",
                    r.case,
                    r.loop_s,
                    r.particle_steps_per_s / 1e6,
                    times.join(", ")
                );
            }
            out.push(r);
        }
        Ok(out)
    }

    /// One run of the case in a child process (`ballast bench-one`) on `t` threads.
    fn run_once(&self, t: usize, timestep: &str) -> Result<BenchRun, ExitCode> {
        let mut cmd = std::process::Command::new(self.exe);
        cmd.arg("bench-one")
            .arg(self.path)
            .arg("--threads")
            .arg(t.to_string())
            .arg("--timestep")
            .arg(timestep);
        if let Some(s) = self.steps {
            cmd.arg("--steps").arg(s.to_string());
        }
        let out = match cmd.output() {
            Ok(o) if o.status.success() => o,
            Ok(o) => {
                // (the child's line, named by the case once)
                let child = String::from_utf8_lossy(&o.stderr);
                let child = child.trim();
                let child = child.strip_prefix("error: ").unwrap_or(child);
                let path = self.path.display().to_string();
                if child.contains(&path) {
                    esay!("error: {child}");
                } else {
                    esay!("error: {path}: {child}");
                }
                return Err(ExitCode::from(1));
            }
            Err(e) => {
                esay!("error: {e}");
                return Err(ExitCode::from(2));
            }
        };
        match serde_json::from_slice::<BenchRun>(&out.stdout) {
            Ok(r) => Ok(BenchRun {
                model: self.model.clone(),
                ..r
            }),
            Err(e) => {
                esay!("error: bench-one printed no result: {e}");
                Err(ExitCode::from(1))
            }
        }
    }

    /// The table's line of run `r` (on `t` threads, the `k`-th of its configuration), with
    /// its ratio to LIGGGHTS where RESULTS.md has the figure.
    fn print_run(&self, r: &BenchRun, t: usize, timestep: &str, k: u32) {
        let (n, prefix, repeat) = (self.n, self.prefix, self.repeat);
        let ligg = ballast::bench::LIGGGHTS
            .iter()
            .find(|l| {
                l.0 == self.compared && l.1 == n && prefix == "settle_box" && timestep == "fixed"
            })
            .map_or("-".to_string(), |l| {
                format!("{:.2}x", r.particle_steps_per_s / 1e6 / l.2)
            });
        let label = format!(
            "{}{}{}",
            self.model,
            if prefix == "settle_box" {
                String::new()
            } else {
                format!(" ({})", self.scene)
            },
            if timestep == "fixed" {
                String::new()
            } else {
                format!(" (auto {timestep})")
            }
        );
        let run_of = if repeat > 1 {
            format!(" [run {k} of {repeat}]")
        } else {
            String::new()
        };
        say!(
            "{:<14} {:>7} {:>3} {:>7} {:>9.2} {:>11.3} {:>9} {:>8} {:>6} {:>11.3e} {:>11.6e} {:>9.1}",
            format!("{label}{run_of}"), n, t, r.steps, r.loop_s, r.particle_steps_per_s / 1e6, ligg, r.pp, r.nw, r.ke_trans, r.mean_z, r.peak_rss_kib as f64 / 1024.0
        );
    }
}

/// Writes the results and the page: a run with fewer sizes, models or threads than the full
/// bench, or shorter runs, writes its own (`partial.json`, `performance_partial.html`), never
/// replacing the complete ones the report shows.
fn write_results(
    runs: &[BenchRun],
    ns: &[usize],
    models: &[String],
    threads: &[usize],
    steps: Option<u64>,
    scenes: &[String],
) -> ExitCode {
    let covers = |given: &[usize], full: &[usize]| full.iter().all(|x| given.contains(x));
    let complete = covers(ns, &[1000, 10000, 50000])
        && covers(threads, &[1, 2])
        && steps.is_none()
        && scenes.iter().any(|s| s == "settle-box")
        && ["hertz-history", "hooke-history"]
            .iter()
            .all(|m| models.iter().any(|x| x == m));
    let (json, html) = if complete {
        ("results.json", "performance.html")
    } else {
        ("partial.json", "performance_partial.html")
    };
    let dir = Path::new(REPORTS).join("bench");
    let written = std::fs::create_dir_all(&dir)
        .and_then(|_| {
            std::fs::write(
                dir.join(json),
                serde_json::to_string_pretty(runs).unwrap_or_default(),
            )
        })
        .and_then(|_| ballast::report::write_performance_page(Path::new(REPORTS), runs, !complete));
    match written {
        Ok(()) => {
            say!("wrote {REPORTS}/bench/{json} and {REPORTS}/{html}");
            if !complete {
                say!(
                    "(a partial bench: fewer sizes, models, threads or steps than the full one; \
                     {REPORTS}/performance.html keeps the complete results)"
                );
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            esay!("error: {e}");
            ExitCode::from(2)
        }
    }
}
