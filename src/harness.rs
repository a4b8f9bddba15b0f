//! Running cases: simulate, evaluate the checks, write the output files and the report.

use crate::case::{Case, CaseError, DEFAULT_RECORDS};
use crate::check::{self, CheckOutcome, CheckSpec, CollisionProbe, Context};
use crate::math::Real;
use crate::model::Model;
use crate::output::{base_series, num, DtStats, Recorder, Scene, SeriesTable, Summary};
use crate::timestep::TimestepMode;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// A finished (or stopped) run.
pub struct Simulation {
    /// Recorded series.
    pub table: SeriesTable,
    /// The model at the end.
    pub model: Model,
    /// Timestep statistics.
    pub dt: DtStats,
    /// Wall-clock seconds.
    pub wall_seconds: Real,
    /// Probes that watched the run, one per check (None where a check needs none).
    pub probes: Vec<Option<CollisionProbe>>,
    /// Why the run stopped early (blow-up), if it did.
    pub error: Option<String>,
}

/// Runs a case's model, recording its series plus `extra` ones; `dt` overrides a fixed
/// timestep. A blow-up stops the run and is reported in [`Simulation::error`].
///
/// # Errors
/// A model that cannot be built or a series that does not exist.
pub fn simulate(
    case: &Case,
    dt: Option<Real>,
    extra: &[String],
    progress: bool,
) -> Result<Simulation, CaseError> {
    let file = case.path.display().to_string();
    let mut model = case.build_model(dt)?;
    let mut names = case.series.clone();
    for c in &case.checks {
        if let Some(s) = c.series() {
            names.push(base_series(s).to_string());
        }
    }
    names.extend(extra.iter().cloned());
    let mut recorder =
        Recorder::new(&names, &model).map_err(|e| CaseError::new(&file, "output.series", e))?;
    let mut probes: Vec<Option<CollisionProbe>> =
        case.checks.iter().map(|c| c.probe(&model)).collect();
    let dt_nominal = match &model.settings.timestep {
        TimestepMode::Fixed(dt) => *dt,
    };
    let steps = case.steps_for(dt_nominal);
    let every = case
        .every
        .unwrap_or_else(|| (steps / DEFAULT_RECORDS).max(1));
    let start = Instant::now();
    let bar = (progress && steps >= 100_000 && std::io::stdout().is_terminal()).then(|| {
        let b = indicatif::ProgressBar::new(steps);
        b.set_style(
            indicatif::ProgressStyle::with_template(
                "{msg} {wide_bar} {pos}/{len} cycles, {eta} left",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        b.set_message(case.name.clone());
        b
    });
    let mut error = model.prime().err().map(|e| e.to_string());
    let mut dt_stats = DtStats {
        min: Real::INFINITY,
        max: 0.0,
        last: 0.0,
    };
    if error.is_none() {
        recorder.record(&model);
        probes.iter_mut().flatten().for_each(|p| p.observe(&model));
        for step in 1..=steps {
            if let Err(e) = model.cycle() {
                error = Some(e.to_string());
                break;
            }
            dt_stats.min = dt_stats.min.min(model.last_dt);
            dt_stats.max = dt_stats.max.max(model.last_dt);
            probes.iter_mut().flatten().for_each(|p| p.observe(&model));
            if step % every == 0 || step == steps {
                recorder.record(&model);
            }
            if let Some(b) = &bar {
                if step % 1000 == 0 {
                    b.set_position(step);
                }
            }
        }
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    dt_stats.last = model.last_dt;
    if dt_stats.min > dt_stats.max {
        dt_stats.min = 0.0;
    }
    Ok(Simulation {
        table: recorder.table,
        model,
        dt: dt_stats,
        wall_seconds: start.elapsed().as_secs_f64(),
        probes,
        error,
    })
}

/// Options of [`run_case`].
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// Show a progress bar on a terminal.
    pub progress: bool,
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
    let file = case.path.display().to_string();
    let sim = simulate(case, None, &[], opts.progress)?;
    let ctx = Context {
        case,
        series: &sim.table,
        depth: 0,
    };
    let mut summary = Summary {
        case: case.name.clone(),
        description: case.description.clone(),
        file: file.clone(),
        steps: sim.model.cycle,
        time: sim.model.time,
        dt: sim.dt.clone(),
        wall_seconds: sim.wall_seconds,
        bodies: sim.model.balls.len(),
        contacts: sim.model.contacts.len(),
        contacts_active: sim.model.contacts.active_count(),
        passed: false,
        error: sim.error.clone(),
        scene: scene(case),
        checks: Vec::new(),
    };
    let stopped = |kind: &str, e: &str| CheckOutcome {
        kind: kind.into(),
        message: format!("the run stopped: {e}"),
        ..Default::default()
    };
    for (spec, probe) in case.checks.iter().zip(&sim.probes) {
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
    write_outputs(out_dir, &summary, &sim.table).map_err(|e| CaseError::new(&file, "", e))?;
    Ok((summary, sim.table))
}

/// Writes the three output files of a run.
///
/// # Errors
/// I/O errors, as a sentence.
pub fn write_outputs(out_dir: &Path, summary: &Summary, table: &SeriesTable) -> Result<(), String> {
    let io = |e: std::io::Error| format!("{}: {e}", out_dir.display());
    std::fs::create_dir_all(out_dir).map_err(io)?;
    table.write_csv(&out_dir.join("series.csv")).map_err(io)?;
    let json = serde_json::to_string_pretty(summary).map_err(|e| e.to_string())?;
    std::fs::write(out_dir.join("summary.json"), json).map_err(io)?;
    crate::report::write_case_page(out_dir, summary, table).map_err(io)
}

/// What a case simulates, in words, for its report page.
pub fn scene(case: &Case) -> Scene {
    let v = |x: &crate::math::Vec3| format!("({}, {}, {})", num(x.x), num(x.y), num(x.z));
    let mut s = Scene::default();
    let dt = case.fixed_dt();
    s.settings = vec![
        (
            "dimension".into(),
            "3D spheres, 6 degrees of freedom each".into(),
        ),
        ("gravity".into(), format!("{} m/s²", v(&case.gravity))),
        (
            "margin".into(),
            format!(
                "{} m (extents enlarged by it; contacts exist before pieces touch)",
                num(case.margin)
            ),
        ),
        ("timestep".into(), format!("fixed, dt = {} s", num(dt))),
        (
            "run".into(),
            match (case.file.run.steps, case.file.run.duration) {
                (Some(n), _) => format!("{n} cycles ({} s)", num(n as Real * dt)),
                (_, Some(d)) => format!("{} s ({} cycles)", num(d), case.steps_for(dt)),
                _ => String::new(),
            },
        ),
    ];
    s.materials.push(
        ["name", "density (kg/m³)", "Young (Pa)", "Poisson"]
            .map(String::from)
            .to_vec(),
    );
    for m in &case.materials {
        s.materials.push(vec![
            m.name.clone(),
            format!("{}", m.density),
            num(m.young),
            format!("{}", m.poisson),
        ]);
    }
    s.contact_models.push(
        ["between", "model", "parameters"]
            .map(String::from)
            .to_vec(),
    );
    for (a, b, law) in &case.contact_models {
        let params = match law {
            crate::law::ContactModel::Linear(l) => format!(
                "kn = {} N/m, ks = {} N/m, friction = {}, damp_n = {}, damp_s = {}",
                num(l.kn),
                num(l.ks),
                l.friction,
                l.damp_n,
                l.damp_s
            ),
        };
        s.contact_models.push(vec![
            format!("{} – {}", case.materials[*a].name, case.materials[*b].name),
            law.name().into(),
            params,
        ]);
    }
    const LISTED: usize = 30;
    s.balls.push(
        [
            "id",
            "radius (m)",
            "material",
            "position (m)",
            "velocity (m/s)",
            "fixed",
        ]
        .map(String::from)
        .to_vec(),
    );
    for b in case.balls.iter().take(LISTED) {
        let fixed: Vec<&str> = ["x", "y", "z", "rx", "ry", "rz"]
            .iter()
            .enumerate()
            .filter(|(k, _)| b.fixed & (1 << k) != 0)
            .map(|(_, n)| *n)
            .collect();
        s.balls.push(vec![
            b.id.to_string(),
            num(b.radius),
            case.materials[b.material].name.clone(),
            v(&b.pos),
            v(&b.vel),
            fixed.join(" "),
        ]);
    }
    s.balls_not_listed = case.balls.len().saturating_sub(LISTED);
    s
}

/// Every `.toml` file under the given files and folders, sorted.
pub fn collect_cases(paths: &[PathBuf]) -> Vec<PathBuf> {
    fn walk(p: &Path, out: &mut Vec<PathBuf>) {
        if p.is_dir() {
            if let Ok(rd) = std::fs::read_dir(p) {
                let mut entries: Vec<PathBuf> = rd.flatten().map(|e| e.path()).collect();
                entries.sort();
                for e in entries {
                    walk(&e, out);
                }
            }
        } else if p.extension().is_some_and(|e| e == "toml") {
            out.push(p.to_path_buf());
        }
    }
    let mut out = Vec::new();
    for p in paths {
        if p.is_file() {
            out.push(p.clone());
        } else {
            walk(p, &mut out);
        }
    }
    out
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
