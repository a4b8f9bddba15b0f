//! Running cases: simulate, evaluate the checks, write the output files and the report.

use crate::case::CheckSpec;
use crate::case::{Case, CaseError};
use crate::check::{self, Context};
use crate::math::num;
use crate::math::Real;
use crate::output::SeriesTable;
use crate::record::CheckOutcome;
use crate::record::{Scene, Summary};
use std::path::{Path, PathBuf};

/// Options of [`run_case`].
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// Show a progress bar on a terminal.
    pub progress: bool,
    /// Resume from this checkpoint (`ballast run --resume`).
    pub resume: Option<PathBuf>,
    /// Start a new stage from this checkpoint's state (`ballast run --from`).
    pub from: Option<PathBuf>,
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
    if let Some(ckpt) = &opts.resume {
        crate::run::checkpoint::check_resume(ckpt, case)
            .map_err(|e| CaseError::new(&file, "--resume", e))?;
    }
    if let Some(ckpt) = &opts.from {
        crate::run::checkpoint::check_header(ckpt, None)
            .map_err(|e| CaseError::new(&file, "--from", e))?;
    }
    prepare_out_dir(out_dir).map_err(|e| CaseError::new(&file, "--out", e))?;
    // (a check of another case running at once waits for this run rather than repeat it)
    let running = crate::check::runs::Running::start(&case.path, case.source_hash);
    let sim = crate::run::simulate_observed(
        case,
        None,
        &[],
        opts.progress,
        Some(&out_dir.join("vtk")),
        &crate::run::Control {
            out_dir: Some(out_dir),
            resume: opts.resume.as_deref(),
            from: opts.from.as_deref(),
        },
        |model| case.checks.iter().map(|c| check::probe(c, model)).collect(),
    )?;
    // (remembered, and no longer running, before this case's own checks are judged: two
    // cases that compare with each other never wait for each other)
    // (a stage started from another run's state is not the case's run)
    let whole = opts.resume.is_none() && opts.from.is_none();
    if sim.error.is_none() && !sim.interrupted && whole {
        crate::check::runs::remember(&case.path, case.source_hash, &sim.table);
    }
    drop(running);
    let summary = judge(case, &sim);
    write_outputs(out_dir, &summary, &sim.table).map_err(|e| CaseError::new(&file, "", e))?;
    Ok((summary, sim.table))
}

/// The summary of a run of `case` that has ended, its checks judged (as `ballast run` judges
/// them: a run stopped by an error fails each).
pub fn judge(case: &Case, sim: &crate::run::Simulation<Option<check::Probe>>) -> Summary {
    let ctx = Context {
        case,
        series: &sim.table,
        depth: 0,
        cycles: sim.model.cycles,
        time: sim.model.time,
        stopped: sim.stopped.clone(),
    };
    let mut summary = new_summary(case, sim, case.path.display().to_string());
    let stopped = |kind: &str, e: &str| CheckOutcome {
        kind: kind.into(),
        message: format!("the run stopped: {e}"),
        ..Default::default()
    };
    for (spec, probe) in case.checks.iter().zip(&sim.observers) {
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
    summary
}

/// The summary of a run of `case` (file name `file`) before its checks are judged.
fn new_summary<O>(case: &Case, sim: &crate::run::Simulation<O>, file: String) -> Summary {
    Summary {
        case: case.name.clone(),
        description: case.description.clone(),
        file,
        steps: sim.model.cycles,
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
        wall_contacts: sim.model.facet_contacts.list.len(),
        wall_contacts_active: sim.model.facet_contacts.active_count(),
        passed: false,
        error: sim.error.clone(),
        stopped: sim.stopped.clone(),
        interrupted: sim.interrupted,
        scene: scene(case),
        flow: flow_summary(&sim.model),
        warnings: (case.warnings.iter().cloned())
            .chain(crate::case::end_warnings(case, &sim.model))
            .collect(),
        checks: Vec::new(),
    }
}

/// What each insertion and outlet of a model did.
fn flow_summary(model: &crate::model::Model) -> Vec<crate::record::FlowSummary> {
    let f = &model.flow;
    let inserts = f.inserts.iter().map(|i| crate::record::FlowSummary {
        kind: "insert".into(),
        name: i.spec.name.clone(),
        count: i.placed,
        mass: i.placed_mass,
        pending: i.pending,
    });
    let outlets = f.outlets.iter().map(|o| crate::record::FlowSummary {
        kind: "outlet".into(),
        name: o.name.clone(),
        count: o.count,
        mass: o.mass,
        pending: 0.0,
    });
    inserts.chain(outlets).collect()
}

/// Makes `out_dir` ready before the first cycle: creates it, proves it writable (a file is
/// written, flushed and removed: a read-only or full folder is found now, not after the run),
/// and removes the previous run's outputs, so that no stale file looks current beside a run
/// that stops early.
///
/// # Errors
/// The folder that cannot be written, and why.
pub fn prepare_out_dir(out_dir: &Path) -> Result<(), String> {
    let io = |e: std::io::Error| format!("{}: cannot write there: {e}", out_dir.display());
    std::fs::create_dir_all(out_dir).map_err(io)?;
    let probe = out_dir.join(".ballast-write-test");
    crate::storage::write_atomic(&probe, [0u8; 4096]).map_err(io)?;
    std::fs::remove_file(&probe).map_err(io)?;
    for f in ["series.csv", "summary.json", "index.html"] {
        match std::fs::remove_file(out_dir.join(f)) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(io(e)),
            _ => {}
        }
    }
    Ok(())
}

/// Writes the three output files of a run.
///
/// # Errors
/// I/O errors, as a sentence.
pub fn write_outputs(out_dir: &Path, summary: &Summary, table: &SeriesTable) -> Result<(), String> {
    let io = |e: std::io::Error| format!("{}: {e}", out_dir.display());
    std::fs::create_dir_all(out_dir).map_err(io)?;
    table.write_csv(&out_dir.join("series.csv")).map_err(io)?;
    let json = summary.to_json().map_err(|e| e.to_string())?;
    crate::storage::write_atomic(&out_dir.join("summary.json"), json).map_err(io)?;
    crate::report::write_case_page(out_dir, summary, table).map_err(io)
}

/// What a case simulates, in words, for its report page.
pub fn scene(case: &Case) -> Scene {
    let mut s = Scene {
        settings: settings(case),
        ..Default::default()
    };
    add_materials(&mut s, case);
    add_contact_models(&mut s, case);
    add_balls(&mut s, case);
    if !case.walls.is_empty() {
        add_walls(&mut s, case);
    }
    s
}

/// A vector in words: `(x, y, z)`.
fn vec_text(x: &crate::math::Vec3) -> String {
    format!("({}, {}, {})", num(x.x), num(x.y), num(x.z))
}

/// `[domain]` in words: the cell, the axes that wrap, the shear.
fn cell_text(c: &crate::geom::Cell, dim: usize) -> String {
    let axes = ["x", "y", "z"];
    let k = 0..dim;
    let lo: Vec<String> = k.clone().map(|k| num(c.min[k])).collect();
    let hi: Vec<String> = k.map(|k| num(c.min[k] + c.len[k])).collect();
    let wraps: Vec<&str> = (0..3).filter(|&k| c.periodic[k]).map(|k| axes[k]).collect();
    let mut text = format!(
        "from ({}) to ({}) m; {} wrap (nearest images; src/geom/cell.rs)",
        lo.join(", "),
        hi.join(", "),
        wraps.join(", ")
    );
    if let Some(s) = &c.shear {
        text += &format!(
            "; Lees-Edwards shear at {} 1/s, flow {}, gradient {} (images move at {} m/s)",
            num(s.rate),
            axes[s.flow],
            axes[s.gradient],
            num(c.jump())
        );
    }
    text
}

/// The scene's settings: dimension, gravity, margin, timestep, ball order and run length.
fn settings(case: &Case) -> Vec<(String, String)> {
    let dt = case.fixed_dt();
    let mut settings = vec![
        (
            "dimension".into(),
            "3D spheres, 6 degrees of freedom each".into(),
        ),
        (
            "gravity".into(),
            format!("{} m/s²", vec_text(&case.gravity)),
        ),
        (
            "margin".into(),
            format!(
                "{} m (extents enlarged by it; contacts exist before pieces touch)",
                num(case.margin)
            ),
        ),
        ("timestep".into(), case.timestep.to_string()),
    ];
    if let Some(c) = &case.cell {
        settings.push(("periodic cell".into(), cell_text(c, case.dim())));
    }
    if let Some(k) = case.file.run.sort_every.filter(|&k| k > 0) {
        let how = match case.file.run.sort_order.as_deref() {
            Some("morton") => "along the Z (Morton) curve of their cells",
            _ => "in rows of cells (the axis with the most cells slowest)",
        };
        settings.push((
            "ball order".into(),
            format!(
                "renumbered {how} every {k} cycles, at the next rebuild of the candidate pairs \
                 (src/detect/sort.rs; ids move with the balls)"
            ),
        ));
    }
    settings.extend([
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
    settings
}

/// The materials' table (a header row, then one row per material).
fn add_materials(s: &mut Scene, case: &Case) {
    s.materials.push(
        ["name", "density (kg/m³)", "Young (Pa)", "Poisson"]
            .map(String::from)
            .to_vec(),
    );
    for m in &case.materials {
        // (a material that sets no Young's modulus: neither it nor Poisson's ratio is used)
        let (young, poisson) = if m.young > 0.0 {
            (num(m.young), format!("{}", m.poisson))
        } else {
            ("-".into(), "-".into())
        };
        s.materials.push(vec![
            m.name.clone(),
            format!("{}", m.density),
            young,
            poisson,
        ]);
    }
}

/// The contact models' table: each pair of materials, its model and its parameters.
fn add_contact_models(s: &mut Scene, case: &Case) {
    s.contact_models.push(
        ["between", "model", "parameters"]
            .map(String::from)
            .to_vec(),
    );
    for (k, (a, b, law)) in case.contact_models.iter().enumerate() {
        let mut params = law.to_string();
        if let Some(r) = case.rolling.get(k).copied().flatten() {
            params.push_str(&format!("; {}", rolling_text(&r)));
        }
        if let Some(c) = case.cohesion.get(k).copied().flatten() {
            params.push_str(&format!("; {}", cohesion_text(&c)));
        }
        s.contact_models.push(vec![
            format!("{} – {}", case.materials[*a].name, case.materials[*b].name),
            law.name().into(),
            params,
        ]);
    }
}

/// The balls' table: the first 30 balls, and how many are not listed.
fn add_balls(s: &mut Scene, case: &Case) {
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
            vec_text(&b.pos),
            vec_text(&b.vel),
            fixed.join(" "),
        ]);
    }
    s.balls_not_listed = case.balls.len().saturating_sub(LISTED);
}

/// The walls' table and the drawing of the initial geometry.
fn add_walls(s: &mut Scene, case: &Case) {
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
        let motion = wall_motion(w);
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

/// How a wall moves, in words.
fn wall_motion(w: &crate::body::WallSpec) -> String {
    use crate::body::Program;
    match (&w.program, &w.motion) {
        (Some(Program::Schedule(entries)), _) => format!(
            "rigid, scheduled about pivot {}: {}",
            vec_text(&w.pivot),
            (entries.iter())
                .map(|e| format!(
                    "from {} s velocity {} m/s, spin {} rad/s",
                    num(e.t),
                    vec_text(&e.vel),
                    vec_text(&e.spin)
                ))
                .collect::<Vec<_>>()
                .join("; ")
        ),
        (
            Some(Program::Oscillate {
                direction,
                amplitude,
                frequency,
                ..
            }),
            _,
        ) => format!(
            "oscillating along {}: amplitude {} m at {} Hz",
            vec_text(direction),
            num(*amplitude),
            num(*frequency)
        ),
        (
            Some(Program::Servo {
                direction, target, ..
            }),
            _,
        ) => format!(
            "servo along {}, holding {}",
            vec_text(direction),
            match target {
                crate::body::ServoTarget::Force(f) => format!("{} N", num(*f)),
                crate::body::ServoTarget::Stress(s) => format!("{} Pa", num(*s)),
            }
        ),
        (None, crate::body::WallMotion::Rigid { vel, spin })
            if *vel == crate::math::Vec3::zeros() && *spin == crate::math::Vec3::zeros() =>
        {
            "fixed".into()
        }
        (None, crate::body::WallMotion::Rigid { vel, spin }) => format!(
            "rigid: pivot velocity {} m/s, spin {} rad/s about {}",
            vec_text(vel),
            vec_text(spin),
            vec_text(&w.pivot)
        ),
        (None, crate::body::WallMotion::Deformable { .. }) => {
            "deformable (one velocity per vertex)".into()
        }
    }
}

/// Every `.toml` file under the given files and folders, each once: in the order of the paths,
/// each folder's sorted; a file reached again (named twice, inside a folder also named, or
/// through a symbolic link) is left out, and a folder reached again through a link is not
/// walked again (a link to a folder that holds it ends there).
pub fn collect_cases(paths: &[PathBuf]) -> Vec<PathBuf> {
    use std::collections::HashSet;
    /// The files found, and the canonical paths of the files and folders already seen.
    struct Walk {
        out: Vec<PathBuf>,
        seen: HashSet<PathBuf>,
    }
    impl Walk {
        /// True the first time `p` (by its canonical path) is seen.
        fn first(&mut self, p: &Path) -> bool {
            self.seen
                .insert(p.canonicalize().unwrap_or_else(|_| p.to_path_buf()))
        }
        fn walk(&mut self, p: &Path, named: bool) {
            if p.is_dir() {
                if !self.first(p) {
                    return;
                }
                if let Ok(rd) = std::fs::read_dir(p) {
                    let mut entries: Vec<PathBuf> = rd.flatten().map(|e| e.path()).collect();
                    entries.sort();
                    for e in entries {
                        self.walk(&e, false);
                    }
                }
            } else if (named && p.is_file() || p.extension().is_some_and(|e| e == "toml"))
                && self.first(p)
            {
                self.out.push(p.to_path_buf());
            }
        }
    }
    let mut w = Walk {
        out: Vec::new(),
        seen: HashSet::new(),
    };
    for p in paths {
        w.walk(p, true);
    }
    w.out
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

/// A rolling resistance in words, for the case page.
fn rolling_text(r: &crate::law::Rolling) -> String {
    use crate::law::Rolling;
    let main = match *r {
        Rolling::Cdt { coefficient, .. } => {
            format!("rolling resistance cdt: μ_r = {coefficient} (couple μ_r R* F_n)")
        }
        Rolling::Epsd {
            coefficient,
            stiffness_factor,
            damping,
            ..
        } => format!(
            "rolling resistance epsd: μ_r = {coefficient}, k_r = {stiffness_factor} μ_r² R*² k_n, \
             dashpot {damping} of critical"
        ),
        Rolling::Pfc {
            coefficient, kr, ..
        } => format!(
            "rolling resistance pfc: μ_r = {coefficient}, k_r = {}",
            kr.map_or("k_s R*²".to_string(), |k| format!("{} N m/rad", num(k)))
        ),
    };
    if r.twisting() > 0.0 {
        format!(
            "{main}; twisting resistance of the same kind: μ_t = {} (limit μ_t R* F_n)",
            r.twisting()
        )
    } else {
        main
    }
}

/// A cohesion in words, for the case page.
fn cohesion_text(c: &crate::law::Cohesion) -> String {
    use crate::law::Cohesion;
    match *c {
        Cohesion::Dmt { surface_energy } => {
            format!(
                "cohesion dmt: γ = {} J/m² (2πγR* while overlapping)",
                num(surface_energy)
            )
        }
        Cohesion::Sjkr { energy_density } => {
            format!(
                "cohesion sjkr: k_c = {} J/m³ (k_c × contact area)",
                num(energy_density)
            )
        }
        Cohesion::Jkr {
            surface_energy,
            e_star,
        } => {
            format!(
                "cohesion jkr: γ = {} J/m², E* = {} Pa (JKR's normal force; the neck holds to −(3/4)(π²γ²R*/E*²)^(1/3), pull-off (3/2)πγR*)",
                num(surface_energy),
                num(e_star)
            )
        }
    }
}
