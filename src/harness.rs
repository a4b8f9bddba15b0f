//! Running cases: simulate, evaluate the checks, write the output files and the report.

use crate::case::{Case, CaseError, DEFAULT_RECORDS};
use crate::check::{self, CheckOutcome, CheckSpec, Context, Probe};
use crate::math::Real;
use crate::model::Model;
use crate::output::{base_series, num, DtStats, Recorder, Scene, SeriesTable, Summary};
use crate::timestep::{Limit, TimestepMode};
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
    pub probes: Vec<Option<Probe>>,
    /// Why the run stopped early (blow-up), if it did.
    pub error: Option<String>,
    /// Why the run stopped before its last step without an error (solve ratio), if it did.
    pub stopped: Option<String>,
}

/// The parameters of a contact model, in words (derived ones marked).
pub fn law_parameters(law: &crate::law::ContactModel) -> String {
    use crate::law::ContactModel as M;
    match law {
        M::Linear(l) => format!(
            "kn = {} N/m, ks = {} N/m, friction = {}, damp_n = {}, damp_s = {}",
            num(l.kn),
            num(l.ks),
            l.friction,
            l.damp_n,
            l.damp_s
        ),
        M::LinearDashpot(l) => format!(
            "kn = {} N/m, ks = {} N/m, friction = {}, restitution = {}, clamp = {}; derived damping ratio ζ = {:.9}",
            num(l.kn),
            num(l.ks),
            l.friction,
            l.restitution,
            l.clamp,
            l.damp_n
        ),
        M::Hysteretic(l) => format!(
            "kn (loading) = {} N/m, k_unload = {} N/m, ks = {} N/m, friction = {}; restitution √(kn/k_unload) = {:.9}",
            num(l.kn),
            num(l.k_unload),
            num(l.ks),
            l.friction,
            (l.kn / l.k_unload).sqrt()
        ),
        M::Hertz(h) => format!(
            "E* = {} Pa, G* = {} Pa, friction = {}, restitution = {}, clamp = {}; derived damping a = {:.9}",
            num(h.pair.e_star),
            num(h.pair.g_star),
            h.friction,
            h.restitution,
            h.clamp,
            h.damping
        ),
        M::LinearBond(b) => format!(
            "kn = {} N/m, ks = {} N/m, friction = {}, tensile strength = {} N, shear strength = {} N, bond gap = {} m",
            num(b.kn),
            num(b.ks),
            b.friction,
            num(b.tensile),
            num(b.shear_strength),
            num(b.bond_gap)
        ),
        M::HertzHistory(h) => format!(
            "E* = {} Pa, G* = {} Pa, friction = {}, restitution = {}; damping factor −2√(5/6)β = {:.9} (LIGGGHTS), tangential history spring k_t = 8G*√(R*δ), normal force clamped at 0",
            num(h.pair.e_star),
            num(h.pair.g_star),
            h.friction,
            h.restitution,
            h.damping
        ),
        M::HookeHistory(h) => format!(
            "kn = {} N/m, kt = {} N/m, γn = {} N s/m, γt = {} N s/m, friction = {}; tangential history spring, normal force clamped at 0",
            num(h.kn),
            num(h.kt),
            num(h.gamma_n),
            num(h.gamma_t),
            h.friction
        ),
    }
}

/// What set a timestep, in words, with the ball's id.
pub fn describe_limit(model: &Model, limit: Limit) -> String {
    match limit {
        Limit::Fixed => "fixed".into(),
        Limit::Cap => match model.settings.timestep {
            TimestepMode::Scaled(_) => "the scaled timestep".into(),
            _ => "the cap (dt)".into(),
        },
        Limit::Stiffness { ball, dof } => {
            let (b, d) = (ball as usize, dof as usize);
            let what = if b >= model.balls.len() && d >= 3 {
                format!("rotation about principal axis {}", d - 2)
            } else {
                crate::stiffness::dof_name(d).to_string()
            };
            format!("critical estimate of {} ({what})", model.body_label(b))
        }
        Limit::Kinematic { ball } => format!(
            "kinematic constraint of {}",
            model.piece_label(ball as usize)
        ),
        Limit::WallKinematic { wall } => format!(
            "kinematic constraint of wall \"{}\"",
            model
                .walls
                .get(wall as usize)
                .map_or("?", |w| w.name.as_str())
        ),
        Limit::Model { a, b, wall } => {
            let mat = |m: u32| {
                model
                    .materials
                    .get(m as usize)
                    .map_or("?", |m| m.name.as_str())
            };
            let (other, law) = if wall {
                let w = &model.walls[b as usize];
                (
                    format!("wall \"{}\"", w.name),
                    model.contact_model(a as usize, w.material),
                )
            } else {
                (
                    format!("a {} ball", mat(b)),
                    model.contact_model(a as usize, b as usize),
                )
            };
            format!(
                "{} formula for a {} ball and {other}",
                law.map_or("?", |l| l.name()),
                mat(a)
            )
        }
        Limit::OneContact { ball } => {
            format!(
                "one-contact estimate of {} (no active contact)",
                model.piece_label(ball as usize)
            )
        }
    }
}

/// Runs a case's model, recording its series plus `extra` ones; `dt` overrides a fixed
/// timestep; with `vtk_dir`, VTK files are written there every `[output] vtk_every` cycles. A
/// blow-up stops the run and is reported in [`Simulation::error`].
///
/// # Errors
/// A model that cannot be built or a series that does not exist.
pub fn simulate(
    case: &Case,
    dt: Option<Real>,
    extra: &[String],
    progress: bool,
    vtk_dir: Option<&Path>,
) -> Result<Simulation, CaseError> {
    let file = case.path.display().to_string();
    let vtk_error = |e: std::io::Error| CaseError::new(&file, "output.vtk_every", e.to_string());
    let mut vtk = match vtk_dir.filter(|_| case.vtk_every > 0) {
        Some(d) => Some(crate::output::VtkWriter::new(d).map_err(vtk_error)?),
        None => None,
    };
    let mut model = case.build_model(dt)?;
    let mut names = case.series.clone();
    for c in &case.checks {
        if let Some(s) = c.series() {
            names.push(base_series(s).to_string());
        }
    }
    names.extend(extra.iter().cloned());
    for c in &case.checks {
        names.extend(c.extra_series().iter().map(|s| s.to_string()));
    }
    let books = names.iter().any(|n| {
        crate::output::Source::parse(base_series(n), &model).is_ok_and(|s| s.needs_energy_books())
    });
    if books {
        model.keep_energy_books();
    }
    let mut recorder =
        Recorder::new(&names, &model).map_err(|e| CaseError::new(&file, "output.series", e))?;
    let mut probes: Vec<Option<Probe>> = case.checks.iter().map(|c| c.probe(&model)).collect();
    // Run length: a number of cycles, or a duration (reached by time when dt varies).
    let fixed_dt = case.fixed_dt().filter(|_| dt.is_none()).or(dt);
    let max_steps = match (case.file.run.steps, case.file.run.duration, fixed_dt) {
        (Some(s), _, _) => Some(s),
        (None, Some(_), Some(d)) => Some(case.steps_for(d)),
        _ => None,
    };
    let duration = case.file.run.duration.unwrap_or(Real::INFINITY);
    let solve_ratio = case.file.run.solve_ratio;
    let mut every = case
        .every
        .or(max_steps.map(|s| (s / DEFAULT_RECORDS).max(1)));
    let start = Instant::now();
    let bar_len = max_steps.unwrap_or(1000);
    let bar = (progress
        && (max_steps.is_none() || bar_len >= 100_000)
        && std::io::stdout().is_terminal())
    .then(|| {
        let b = indicatif::ProgressBar::new(bar_len);
        let unit = if max_steps.is_some() {
            "cycles"
        } else {
            "‰ of the duration"
        };
        b.set_style(
            indicatif::ProgressStyle::with_template(&format!(
                "{{msg}} {{wide_bar}} {{pos}}/{{len}} {unit}, {{eta}} left"
            ))
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        b.set_message(case.name.clone());
        b
    });
    let mut error = model.prime().err().map(|e| e.to_string());
    let mut stopped = None;
    let mut dt_stats = DtStats {
        min: Real::INFINITY,
        max: 0.0,
        last: 0.0,
        mode: timestep_words(&model.settings.timestep),
        set_by: Vec::new(),
    };
    let mut limits: std::collections::HashMap<Limit, u64> = Default::default();
    if error.is_none() {
        recorder.record(&model);
        if let Some(v) = &mut vtk {
            v.write(&model).map_err(vtk_error)?;
        }
        probes.iter_mut().flatten().for_each(|p| p.observe(&model));
        let mut step = 0u64;
        loop {
            let last = match max_steps {
                Some(n) => step >= n,
                // NOTE: a relative slack of 1e-12 so that round-off in the summed time does
                // not add a cycle.
                None => model.time >= duration * (1.0 - 1e-12),
            };
            if last {
                break;
            }
            step += 1;
            if let Err(e) = model.cycle() {
                error = Some(e.to_string());
                break;
            }
            dt_stats.min = dt_stats.min.min(model.last_dt);
            dt_stats.max = dt_stats.max.max(model.last_dt);
            *limits.entry(model.dt_limit).or_default() += 1;
            probes.iter_mut().flatten().for_each(|p| p.observe(&model));
            let every = *every.get_or_insert_with(|| {
                // Duration with a varying timestep: about DEFAULT_RECORDS records if the
                // first timestep holds.
                ((duration / model.last_dt) as u64 / DEFAULT_RECORDS).max(1)
            });
            let reached = solve_ratio.filter(|&r| model.unbalanced_ratio() <= r);
            let done = max_steps == Some(step)
                || (max_steps.is_none() && model.time >= duration * (1.0 - 1e-12))
                || reached.is_some();
            if step % every == 0 || done {
                recorder.record(&model);
            }
            if let Some(v) = &mut vtk {
                if step % case.vtk_every == 0 {
                    v.write(&model).map_err(vtk_error)?;
                }
            }
            if let Some(r) = reached {
                stopped = Some(format!(
                    "solve ratio {} <= {} reached at cycle {step}",
                    num(model.unbalanced_ratio()),
                    num(r)
                ));
                break;
            }
            if let Some(b) = &bar {
                if step % 1000 == 0 {
                    b.set_position(match max_steps {
                        Some(_) => step,
                        None => (1000.0 * model.time / duration) as u64,
                    });
                }
            }
        }
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    if let Some(v) = &vtk {
        v.finish().map_err(vtk_error)?;
    }
    dt_stats.last = model.last_dt;
    if dt_stats.min > dt_stats.max {
        dt_stats.min = 0.0;
    }
    let mut set_by: Vec<(String, u64)> = limits
        .into_iter()
        .map(|(l, n)| (describe_limit(&model, l), n))
        .collect();
    set_by.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    dt_stats.set_by = set_by;
    Ok(Simulation {
        table: recorder.table,
        model,
        dt: dt_stats,
        wall_seconds: start.elapsed().as_secs_f64(),
        probes,
        error,
        stopped,
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
    let sim = simulate(case, None, &[], opts.progress, Some(&out_dir.join("vtk")))?;
    let ctx = Context {
        case,
        series: &sim.table,
        depth: 0,
        cycles: sim.model.cycle,
        time: sim.model.time,
        stopped: sim.stopped.clone(),
    };
    let mut summary = Summary {
        case: case.name.clone(),
        description: case.description.clone(),
        file: file.clone(),
        steps: sim.model.cycle,
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
        passed: false,
        error: sim.error.clone(),
        stopped: sim.stopped.clone(),
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

/// A timestep mode in words, for the report.
pub fn timestep_words(mode: &TimestepMode) -> String {
    let kin = |e: &Option<Real>| match e {
        Some(eps) => format!(
            "; kinematic constraint: no piece moves more than {} m per cycle",
            num(*eps)
        ),
        None => "; no kinematic constraint".into(),
    };
    match mode {
        TimestepMode::Fixed(dt) => format!("fixed, dt = {} s", num(*dt)),
        TimestepMode::Auto(a) => format!(
            "automatic: {} × the {} critical-timestep estimate{}{}",
            a.safety,
            a.estimator.name(),
            kin(&a.kinematic_eps),
            a.cap
                .map_or(String::new(), |c| format!("; at most {} s", num(c)))
        ),
        TimestepMode::Scaled(s) => format!(
            "timestep scaling (seed 000, eqs. 5-8): dt = {} s, inertial masses and inertias from the {} stiffness of each body{}",
            num(s.dt),
            s.estimator.name(),
            kin(&s.kinematic_eps)
        ),
        TimestepMode::Model(m) => format!(
            "per contact model (seed 003): the smallest of each model's own formula over the pairs of materials present, {} steps per loading stage{}",
            m.loading_steps,
            m.cap
                .map_or(String::new(), |c| format!("; at most {} s", num(c)))
        ),
    }
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
        ("timestep".into(), timestep_words(&case.timestep)),
    ];
    if let Some(k) = case.file.run.sort_every.filter(|&k| k > 0) {
        let how = match case.file.run.sort_order.as_deref() {
            Some("morton") => "along the Z (Morton) curve of their cells",
            _ => "in rows of cells (the axis with the most cells slowest)",
        };
        s.settings.push((
            "ball order".into(),
            format!(
                "renumbered {how} every {k} cycles, at the next rebuild of the candidate pairs \
                 (src/model/sort.rs; ids move with the balls)"
            ),
        ));
    }
    s.settings.extend([
        (
            "run".into(),
            match (case.file.run.steps, case.file.run.duration, dt) {
                (Some(n), _, Some(dt)) => format!("{n} cycles ({} s)", num(n as Real * dt)),
                (Some(n), _, None) => format!("at most {n} cycles"),
                (_, Some(d), Some(dt)) => {
                    format!("{} s ({} cycles)", num(d), case.steps_for(dt))
                }
                (_, Some(d), None) => format!("{} s", num(d)),
                _ => String::new(),
            } + &case.file.run.solve_ratio.map_or(String::new(), |r| {
                format!(", stopping once the solve ratio (mean unbalanced force / mean contact force) is below {}", num(r))
            }),
        ),
    ]);
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
        let params = law_parameters(law);
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
    if !case.walls.is_empty() {
        s.walls.push(
            [
                "name",
                "material",
                "facets",
                "vertices",
                "motion",
                "resolution",
                "inactive sides",
            ]
            .map(String::from)
            .to_vec(),
        );
        for w in &case.walls {
            let motion = match &w.motion {
                crate::body::WallMotion::Rigid { vel, spin }
                    if *vel == crate::math::Vec3::zeros()
                        && *spin == crate::math::Vec3::zeros() =>
                {
                    "fixed".into()
                }
                crate::body::WallMotion::Rigid { vel, spin } => format!(
                    "rigid: pivot velocity {} m/s, spin {} rad/s about {}",
                    v(vel),
                    v(spin),
                    v(&w.pivot)
                ),
                crate::body::WallMotion::Deformable { .. } => {
                    "deformable (one velocity per vertex)".into()
                }
            };
            s.walls.push(vec![
                w.name.clone(),
                case.materials[w.material].name.clone(),
                w.facets.len().to_string(),
                w.vertices.len().to_string(),
                motion,
                format!("{:?}", w.resolution).to_lowercase(),
                if w.inactive.is_empty() {
                    "none".into()
                } else {
                    format!("{} facets", w.inactive.len())
                },
            ]);
        }
        let balls: Vec<(u64, crate::math::Vec3, Real)> =
            case.balls.iter().map(|b| (b.id, b.pos, b.radius)).collect();
        let walls: Vec<crate::report::geometry::WallDrawing> = case
            .walls
            .iter()
            .map(|w| (w.name.as_str(), w.vertices.as_slice(), w.facets.as_slice()))
            .collect();
        s.geometry = crate::report::geometry::scene_svg(&balls, &walls);
    }
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
