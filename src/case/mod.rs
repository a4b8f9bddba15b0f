//! Case files (docs/CASES.md): parse, validate, and build the model.
//!
//! Every problem is a [`CaseError`]: one line with the file, the key and the reason.

mod balls;
mod build;
mod checks;
mod contact;
mod defaults;
mod domain;
mod error;
mod exact;
mod fast_balls;
mod file;
mod flow;
mod frame;
mod materials;
mod mesh_file;
mod output;
mod parsed;
mod reader;
mod run;
mod sense;
pub mod stage;
mod timestep;
mod wall;

pub use crate::check::CheckSpec;
pub use defaults::*;
pub use error::CaseError;
pub use file::*;
pub use parsed::Case;
pub use run::MAX_STEPS;
pub use sense::end_warnings;

use crate::detect::SortOrder;
use crate::math::{Real, Vec3};
use crate::model::Model;
use reader::Reader;

use std::path::Path;

/// Reads and validates a case file.
///
/// # Errors
/// Any problem with the file, as one line naming the file, the key and the reason.
pub fn load(path: &Path) -> Result<Case, CaseError> {
    let label = path.display().to_string();
    let source = std::fs::read_to_string(path)
        .map_err(|e| CaseError::new(&label, "", format!("cannot read: {e}")))?;
    parse(&source, path)
}

/// Reads and validates a case file that starts from the state `base` of a checkpoint
/// (`ballast run CASE --from CKPT`, [`stage::adopt`]): its series and checks may name the
/// loaded bodies.
///
/// # Errors
/// As [`load`], and a checkpoint's state that does not fit the case (key `--from`).
pub fn load_stage(path: &Path, base: &Model) -> Result<Case, CaseError> {
    let label = path.display().to_string();
    let source = std::fs::read_to_string(path)
        .map_err(|e| CaseError::new(&label, "", format!("cannot read: {e}")))?;
    parse_stage(&source, path, Some(base))
}

/// Validates a case given as text; `path` names it in errors and locates files it refers to.
/// Each section of the file has its function, called in the file's order of dependence.
///
/// # Errors
/// As [`load`].
pub fn parse(source: &str, path: &Path) -> Result<Case, CaseError> {
    parse_stage(source, path, None)
}

/// [`parse`], for a stage from the state `base` ([`load_stage`]).
fn parse_stage(source: &str, path: &Path, base: Option<&Model>) -> Result<Case, CaseError> {
    let label = path.display().to_string();
    let f = label.as_str();
    let mut file = read_file(f, source)?;
    let err = |key: &str, reason: String| CaseError::new(f, key, reason);
    let dim = parse_dim(f, &file)?;
    let cell = domain::parse_domain(&Reader { f, dim, cell: None }, file.domain.as_ref())?;
    let r = Reader { f, dim, cell };
    let name = case_name(f, &file, path)?;
    let gravity = run::parse_run(&r, &file.run)?;
    let materials = materials::parse_materials(&r, &file)?;
    let (contact_models, extras) = contact::parse_contacts(&r, &file, &materials)?;
    let (rolling, cohesion): (Vec<_>, Vec<_>) = extras.into_iter().unzip();
    let mut balls = balls::parse_balls(&r, &file, &materials)?;
    balls::parse_generate(&r, &file, &materials, &mut balls)?;
    let clumps = balls::parse_clumps(&r, &file, &materials, &balls)?;
    let mut walls = wall::parse_walls(&r, &file, &materials, path)?;
    let inserts = flow::parse_inserts(&r, &file, &materials)?;
    let outlets = flow::parse_outlets(&r, &file)?;
    let measures = flow::parse_measures(&r, &file)?;
    let mut margin = run::parse_margin(&r, &file.run, &balls, &inserts)?;
    if let (Some(base), None) = (base, file.run.margin) {
        // (a stage's default margin counts the checkpoint's balls too: a stage that adds none
        // would otherwise get the default of no ball at all, 0.1 m)
        let smallest = base
            .balls
            .radius
            .iter()
            .copied()
            .fold(Real::INFINITY, Real::min);
        margin = margin.min(DEFAULT_MARGIN_FRACTION * smallest);
    }
    let timestep = timestep::parse_timestep(f, file.timestep.as_ref(), margin)?;
    let frame = frame::parse_frame(f, file.frame.as_ref())?;
    let decomposition = run::parse_decomposition(f, file.parallel.as_ref(), dim)?;
    let rebalance = run::parse_rebalance(f, file.parallel.as_ref())?;
    let out = output::parse_output(&r, &file, &balls, &walls)?;
    contact::refuse_hertz_in_2d(&r, &contact_models)?;
    let largest = largest_radius(&balls, &inserts);
    contact::refuse_short_margin(&r, &cohesion, largest, margin)?;
    domain::refuse_short_cell(&r, r.cell.as_ref(), largest, margin)?;
    let planes: Vec<_> = (file.wall.iter())
        .map(|w| w.plane.as_ref().map(|p| Vec3::from(p.normal)))
        .collect();
    let imaged = domain::image_spanning_planes(&r, &planes, &mut walls, largest + margin)?;
    domain::refuse_walls_near_faces(&r, r.cell.as_ref(), &walls, largest + margin, &imaged)?;
    // (the balls as written are in `balls` now: the file keeps the rest, not a second copy)
    file.ball = Vec::new();
    let mut case = Case {
        path: path.to_path_buf(),
        name,
        description: file.description.clone().unwrap_or_default(),
        file,
        gravity,
        margin,
        timestep,
        frame,
        materials,
        contact_models,
        rolling,
        cohesion,
        balls,
        clumps,
        walls,
        inserts,
        outlets,
        measures,
        vtk_every: out.vtk_every,
        every: out.every,
        series: out.series,
        checks: Vec::new(),
        checkpoint_every: out.checkpoint_every,
        decomposition,
        rebalance,
        cell: r.cell.clone(),
        source_hash: crate::storage::fnv1a(source.as_bytes()),
        warnings: Vec::new(),
    };
    case.checks = checks::parse_checks(f, &case.file.check)?;
    // Building once validates what only the model can tell (e.g. material pairs without model,
    // balls that start inside each other or in a wall).
    let mut model = case.build_model(None)?;
    check_start(f, &case, &mut model)?;
    refuse_unstable_dt(&case, &model).map_err(|r| err("timestep.dt", r))?;
    if let Some(base) = base {
        // (the series and checks may name the loaded bodies)
        model = stage::adopt(base.clone(), model, &case).map_err(|r| err("--from", r))?;
    }
    for (k, s) in case.series.iter().enumerate() {
        crate::output::Source::parse(s, &model)
            .map_err(|r| err(&format!("output.series[{}]", k + 1), r))?;
    }
    checks::validate_checks(f, &case, &model)?;
    check_run_length(&case).map_err(|(key, reason)| err(key, reason))?;
    check_renumbering(&case, &model).map_err(|(key, reason)| err(key, reason))?;
    case.warnings = sense::review(&r, &case)?;
    Ok(case)
}

/// The case file's tables, read from `source` (file `f`).
fn read_file(f: &str, source: &str) -> Result<CaseFile, CaseError> {
    // (a file of many plain [[ball]] tables reads them directly: case/fast_balls.rs)
    let fast = fast_balls::split(source).and_then(|(rest, balls)| {
        let mut file: CaseFile = toml::from_str(&rest).ok()?;
        file.ball.is_empty().then(|| {
            file.ball = balls;
            file
        })
    });
    match fast {
        Some(file) => Ok(file),
        None => toml::from_str(source).map_err(|e| CaseError::from_toml(f, source, &e, "")),
    }
}

/// `dim`: 3 (spheres, the default) or 2 (disks, without clumps and generators).
fn parse_dim(f: &str, file: &CaseFile) -> Result<usize, CaseError> {
    let err = |key: &str, reason: String| CaseError::new(f, key, reason);
    let dim = match file.dim.unwrap_or(3) {
        d @ (2 | 3) => d as usize,
        d => return Err(err("dim", format!("{d}: must be 3 (spheres) or 2 (disks)"))),
    };
    if dim == 2 {
        for (what, present) in [
            ("clump", !file.clump.is_empty()),
            ("generate", !file.generate.is_empty()),
        ] {
            if present {
                return Err(err(what, format!("[[{what}]] is not available in the 2D mode (dim = 2): give the disks one by one with [[ball]]")));
            }
        }
    }
    Ok(dim)
}

/// The case's name: `name`, else the file's stem; it must be a folder name of its own.
fn case_name(f: &str, file: &CaseFile, path: &Path) -> Result<String, CaseError> {
    let name = file.name.clone().unwrap_or_else(|| {
        path.file_stem()
            .map_or("case".into(), |s| s.to_string_lossy().into_owned())
    });
    if let Some(why) = unsafe_folder_name(&name) {
        let key = if file.name.is_some() {
            "name"
        } else {
            "name (the file's stem)"
        };
        return Err(CaseError::new(
            f,
            key,
            format!("{name:?}: {why} (the name is the case's folder under reports/cases/)"),
        ));
    }
    Ok(name)
}

/// The largest radius of a ball given or inserted.
fn largest_radius(balls: &[crate::body::BallSpec], inserts: &[crate::flow::InsertSpec]) -> Real {
    (balls.iter().map(|b| b.radius))
        .chain(inserts.iter().map(|i| i.radii.range().1))
        .fold(0.0, Real::max)
}

/// The model of `case` (file `f`) at the start: no ball in a wall, none deep inside another.
fn check_start(f: &str, case: &Case, model: &mut Model) -> Result<(), CaseError> {
    let err = |key: &str, reason: String| CaseError::new(f, key, reason);
    model.check_start().map_err(|e| {
        use crate::model::ModelError;
        match &e {
            ModelError::StartsInWall { wall, .. } => {
                let k = case.walls.iter().position(|w| &w.name == wall).unwrap_or(0);
                err(&format!("wall[{}]", k + 1), e.to_string())
            }
            ModelError::Interpenetration { a, b, overlap, .. } => err(
                "ball",
                format!("{a} and {b} start overlapping by {overlap:.3e} m, more than the smaller radius: no contact law holds that deep"),
            ),
            _ => err("", format!("at the start: {e}")),
        }
    })
}

/// `[run] sort_every` (3D only, no series or check following a ball by its index),
/// `sort_order`, and `[[outlet]]` (no such series or check either).
fn check_renumbering(case: &Case, model: &Model) -> Result<(), (&'static str, String)> {
    if model.sort_every > 0 {
        if !model.can_sort_balls() {
            return Err((
                "run.sort_every",
                "the balls can be renumbered only in 3D".into(),
            ));
        }
        refuse_followers(case, model, "renumbering", "sort_every")
            .map_err(|r| ("run.sort_every", r))?;
    }
    if !case.outlets.is_empty() {
        refuse_followers(case, model, "removing balls in an outlet", "the outlet")
            .map_err(|r| ("outlet[1]", r))?;
    }
    if let Some(o) = &case.file.run.sort_order {
        if SortOrder::parse(o).is_none() {
            return Err((
                "run.sort_order",
                format!("unknown order \"{o}\" (expected \"rows\" or \"morton\")"),
            ));
        }
        if model.sort_every == 0 {
            return Err((
                "run.sort_order",
                "applies only when the balls are renumbered: set sort_every".into(),
            ));
        }
    }
    Ok(())
}

/// The run's length, when it is known before the run (`steps`, or `duration` over a fixed
/// `dt`): at most [`run::MAX_STEPS`] cycles, and `restart_at` one of them but the last.
fn check_run_length(case: &Case) -> Result<(), (&'static str, String)> {
    let key = if case.file.run.steps.is_some() {
        "run.steps"
    } else {
        "run.duration"
    };
    let cycles = case.cycles(None);
    if let Some(n) = cycles.filter(|&n| n > run::MAX_STEPS) {
        return Err((
            key,
            format!(
                "{n} cycles: more than {} cannot finish (days at the fastest rate of one ball)",
                run::MAX_STEPS
            ),
        ));
    }
    match (case.file.run.restart_at, cycles) {
        (Some(0), _) => Err((
            "run.restart_at",
            "0: must be a cycle of the run, from 1".into(),
        )),
        (Some(at), Some(n)) if at >= n => Err((
            "run.restart_at",
            format!("{at}: the run has {n} cycles; restart at one before its last"),
        )),
        _ => Ok(()),
    }
}

/// A fixed timestep above the critical estimate (the diagonal estimator, seed 000 eq. 11) of
/// the contacts active at the start is refused unless `allow_above_critical = true`: such a
/// run only grows its error (energy from nothing) until it stops. `model` is primed.
fn refuse_unstable_dt(case: &Case, model: &Model) -> Result<(), String> {
    let Some(dt) = case.fixed_dt() else {
        return Ok(());
    };
    let allowed = case
        .file
        .timestep
        .as_ref()
        .and_then(|t| t.allow_above_critical);
    if allowed == Some(true) {
        return Ok(());
    }
    let est = crate::stiffness::estimate_critical(model, crate::timestep::Estimator::Diagonal);
    if dt > est.dt {
        return Err(format!(
            "{dt:e} s is {:.3} times the critical timestep {:.4e} s of the contacts at the start \
             (diagonal estimate; set by {}, DOF {}): the run would be unstable. Lower dt, use \
             mode = \"auto\", or set allow_above_critical = true to study the instability",
            dt / est.dt,
            est.dt,
            model.body_label(est.ball),
            crate::stiffness::dof_name(est.dof),
        ));
    }
    Ok(())
}

/// `[run] sort_every` and `[[outlet]]`: no output or check may follow one ball by its index
/// (`what` changes the indices; the id moves with the ball, but these keep the index they
/// found when the run starts); `remedy` is what the user can remove instead.
fn refuse_followers(case: &Case, model: &Model, what: &str, remedy: &str) -> Result<(), String> {
    for (k, s) in case.series.iter().enumerate() {
        if crate::output::Source::parse(s, model).is_ok_and(|src| src.follows_pieces()) {
            return Err(format!(
                "output.series[{}] \"{s}\" follows one body by its index, which {what} \
                 changes: remove the series or {remedy}",
                k + 1
            ));
        }
    }
    for (k, c) in case.checks.iter().enumerate() {
        if c.follows_a_ball() {
            return Err(format!(
                "check[{}] follows one ball by its index, which {what} changes: remove \
                 the check or {remedy}",
                k + 1
            ));
        }
    }
    Ok(())
}

/// Why `name` cannot be a folder name of its own (None: it can): empty, `.` or `..`, a slash,
/// a control character, or longer than 200 bytes.
fn unsafe_folder_name(name: &str) -> Option<&'static str> {
    if name.is_empty() {
        Some("must not be empty")
    } else if name == "." || name == ".." {
        Some("must not be . or ..")
    } else if name.contains(['/', '\\']) {
        Some("must not contain a slash")
    } else if name.chars().any(char::is_control) {
        Some("must not contain control characters")
    } else if name.len() > 200 {
        Some("must be at most 200 bytes long")
    } else {
        None
    }
}
