//! Case files (SPEC section 2): parse, validate, and build the model.
//!
//! Every problem is a [`CaseError`]: one line with the file, the key and the reason.

mod error;
mod file;

mod mesh_file;
mod wall;

pub use error::CaseError;
pub use file::*;

use crate::body::{dof, BallSpec, ClumpSpec, MassSpec, Material, PebbleSpec, WallSpec};
use crate::check::CheckSpec;
use crate::contact::FrameFlags;
use crate::detect::SortOrder;
use crate::law::{
    ContactModel, FrictionLimit, Hertz, HertzHistory, HertzPair, HookeHistory, Hysteretic, Linear,
    LinearBond, LinearDashpot,
};
use crate::math::{vec3, Real, Vec3};
use crate::model::{Model, Settings};
use crate::timestep::{Auto, Estimator, ModelMode, Scaled, TimestepMode};

/// Default `[timestep] loading_steps` of mode "model": steps per loading stage.
pub const DEFAULT_LOADING_STEPS: Real = 10.0;
use std::path::{Path, PathBuf};

/// Default number of records per run when `[output] every` is not given.
pub const DEFAULT_RECORDS: u64 = 2000;
/// Default safety factor of the automatic timestep (fraction of the critical estimate).
pub const DEFAULT_SAFETY: Real = 0.8;
/// Default kinematic eps as a fraction of the margin: a piece then moves at most half the
/// margin per cycle (the broad phase tolerates a margin between two rebuilds and checks every
/// cycle, so this is a limit on the step, not a condition of the detection).
pub const DEFAULT_KINEMATIC_FRACTION: Real = 0.5;
/// Default margin as a fraction of the smallest radius, when `[run] margin` is not given.
pub const DEFAULT_MARGIN_FRACTION: Real = 0.1;

/// A validated case, ready to build models from.
#[derive(Clone, Debug)]
pub struct Case {
    /// The case file as given on the command line.
    pub path: PathBuf,
    /// Name (default: the file's stem).
    pub name: String,
    /// What the case shows.
    pub description: String,
    /// The file as written.
    pub file: CaseFile,
    /// Gravity, m/s^2.
    pub gravity: Vec3,
    /// Margin, m.
    pub margin: Real,
    /// The timestep mode.
    pub timestep: TimestepMode,
    /// Local contact frame options (`[frame]`).
    pub frame: FrameFlags,
    /// Materials, in name order.
    pub materials: Vec<Material>,
    /// Contact model of each pair of material indices (a <= b) that has one.
    pub contact_models: Vec<(usize, usize, ContactModel)>,
    /// Every ball, explicit ones first, then generated ones.
    pub balls: Vec<BallSpec>,
    /// The clumps.
    pub clumps: Vec<ClumpSpec>,
    /// The faceted walls.
    pub walls: Vec<WallSpec>,
    /// Write VTK files every N cycles (0: never).
    pub vtk_every: u64,
    /// Record every N cycles (None: about [`DEFAULT_RECORDS`] records).
    pub every: Option<u64>,
    /// Series to record.
    pub series: Vec<String>,
    /// Checks.
    pub checks: Vec<CheckSpec>,
}

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

/// Validates a case given as text; `path` names it in errors and locates files it refers to.
///
/// # Errors
/// As [`load`].
pub fn parse(source: &str, path: &Path) -> Result<Case, CaseError> {
    let label = path.display().to_string();
    let f = label.as_str();
    let file: CaseFile =
        toml::from_str(source).map_err(|e| CaseError::from_toml(f, source, &e, ""))?;
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
    // A point or vector of the case: 3 components, or 2 in 2D (z = 0).
    let point = |key: &str, v: &[f64]| -> Result<Vec3, CaseError> {
        match (dim, v.len()) {
            (3, 3) => finite3(f, key, [v[0], v[1], v[2]]),
            (2, 2) => finite3(f, key, [v[0], v[1], 0.0]),
            (d, n) => Err(err(key, format!("{n} components: give {d} (dim = {d})"))),
        }
    };
    let name = file.name.clone().unwrap_or_else(|| {
        path.file_stem()
            .map_or("case".into(), |s| s.to_string_lossy().into_owned())
    });
    if name.is_empty() || name.contains(['/', '\\']) {
        return Err(err(
            "name",
            format!("\"{name}\": must be non-empty without slashes"),
        ));
    }

    // [run]
    let run = &file.run;
    match (run.steps, run.duration) {
        (Some(_), Some(_)) => {
            return Err(err(
                "run",
                "give exactly one of `steps` and `duration`, not both".into(),
            ))
        }
        (None, None) => return Err(err("run", "give one of `steps` and `duration`".into())),
        (Some(0), None) => return Err(err("run.steps", "must be at least 1".into())),
        (None, Some(d)) if !(d.is_finite() && d > 0.0) => {
            return Err(err(
                "run.duration",
                format!("{d}: must be a positive number of seconds"),
            ))
        }
        _ => {}
    }
    let gravity = match &run.gravity {
        Some(g) => point("run.gravity", g)?,
        None => Vec3::zeros(),
    };

    // [material.*]
    let mut materials = Vec::new();
    for (mname, m) in &file.material {
        let key = |k: &str| format!("material.{mname}.{k}");
        positive(f, &key("density"), m.density)?;
        let young = m.young.unwrap_or(0.0);
        // NOTE: young = inf is a rigid body (for Hertz-type models: E* from the other side).
        if young.is_nan() || young < 0.0 {
            return Err(err(
                &key("young"),
                format!("{young}: must be a non-negative number (Pa)"),
            ));
        }
        let poisson = m.poisson.unwrap_or(0.0);
        if !(poisson.is_finite() && poisson > -1.0 && poisson <= 0.5) {
            return Err(err(
                &key("poisson"),
                format!("{poisson}: must lie in (-1, 0.5]"),
            ));
        }
        materials.push(Material {
            name: mname.clone(),
            density: m.density,
            young,
            poisson,
        });
    }
    let material_index = |key: &str, name: &str| -> Result<usize, CaseError> {
        materials
            .iter()
            .position(|m| m.name == name)
            .ok_or_else(|| {
                let known: Vec<_> = materials.iter().map(|m| m.name.as_str()).collect();
                err(
                    key,
                    format!(
                        "unknown material \"{name}\" (defined: {})",
                        list_or_none(&known)
                    ),
                )
            })
    };

    // [[contact]]
    let mut rules = Vec::new();
    for (k, c) in file.contact.iter().enumerate() {
        let key = |s: &str| format!("contact[{}].{s}", k + 1);
        for m in &c.between {
            if m != "*" {
                material_index(&key("between"), m)?;
            }
        }
        contact_model(f, k + 1, c, None)?;
        rules.push((c.between.clone(), k + 1, c));
    }
    let mut contact_models = Vec::new();
    for a in 0..materials.len() {
        for b in a..materials.len() {
            let (na, nb) = (&materials[a].name, &materials[b].name);
            let hit = |x: &String, y: &String| (x == "*" || x == na) && (y == "*" || y == nb);
            if let Some((_, k, c)) = rules
                .iter()
                .find(|(bt, _, _)| hit(&bt[0], &bt[1]) || hit(&bt[1], &bt[0]))
            {
                let law = contact_model(f, *k, c, Some((&materials[a], &materials[b])))?;
                contact_models.push((a, b, law));
            }
        }
    }

    // [[ball]]
    let mut balls: Vec<BallSpec> = Vec::new();
    for (k, b) in file.ball.iter().enumerate() {
        let key = |s: &str| format!("ball[{}].{s}", k + 1);
        let material = material_index(&key("material"), &b.material)?;
        positive(f, &key("radius"), b.radius)?;
        let zero = vec![0.0; dim];
        let spin = match (&b.spin, dim) {
            (None, _) => Vec3::zeros(),
            (Some(toml::Value::Float(w)), 2) => finite3(f, &key("spin"), [0.0, 0.0, *w])?,
            (Some(toml::Value::Integer(w)), 2) => finite3(f, &key("spin"), [0.0, 0.0, *w as f64])?,
            (Some(v), 3) => {
                let a: Option<Vec<f64>> = v.as_array().map(|a| {
                    a.iter()
                        .filter_map(|x| x.as_float().or(x.as_integer().map(|i| i as f64)))
                        .collect()
                });
                match a {
                    Some(a) if a.len() == 3 && v.as_array().is_some_and(|x| x.len() == 3) => {
                        finite3(f, &key("spin"), [a[0], a[1], a[2]])?
                    }
                    _ => return Err(err(&key("spin"), "give three numbers (rad/s)".into())),
                }
            }
            (Some(_), _) => {
                return Err(err(
                    &key("spin"),
                    "in 2D the spin is one number (rad/s, about z)".into(),
                ))
            }
        };
        let fixed = dofs(f, &key("fix"), b.fix.as_deref())?;
        if dim == 2 && fixed & (dof::Z | dof::RX | dof::RY) != 0 {
            return Err(err(
                &key("fix"),
                "in 2D a disk has the DOFs \"x\", \"y\" and \"rz\" only".into(),
            ));
        }
        let mass = match (b.mass, b.inertia) {
            (None, None) => None,
            (Some(m), Some(i)) => {
                positive(f, &key("mass"), m)?;
                positive(f, &key("inertia"), i)?;
                Some((m, i))
            }
            _ => {
                return Err(err(
                    &key("mass"),
                    "give `mass` and `inertia` together".into(),
                ))
            }
        };
        balls.push(BallSpec {
            id: b.id.unwrap_or(k as u64 + 1),
            pos: point(&key("pos"), &b.pos)?,
            radius: b.radius,
            material,
            vel: point(&key("vel"), b.vel.as_ref().unwrap_or(&zero))?,
            spin,
            applied_force: point(&key("force"), b.force.as_ref().unwrap_or(&zero))?,
            fixed,
            mass,
        });
    }
    for (k, b) in balls.iter().enumerate() {
        if let Some(j) = balls[..k].iter().position(|o| o.id == b.id) {
            return Err(err(
                &format!("ball[{}].id", k + 1),
                format!("id {} is already used by ball[{}]", b.id, j + 1),
            ));
        }
    }
    let explicit = balls.len();

    // [[generate]]
    for (k, g) in file.generate.iter().enumerate() {
        let key = |s: &str| format!("generate[{}].{s}", k + 1);
        let material = material_index(&key("material"), &g.material)?;
        if g.count == 0 {
            return Err(err(&key("count"), "must be at least 1".into()));
        }
        if g.kind == "settle-box" {
            for (name, given) in [
                ("min", g.min.is_some()),
                ("max", g.max.is_some()),
                ("radius", g.radius.is_some()),
                ("overlap", g.overlap.is_some()),
            ] {
                if given {
                    return Err(err(&key(name), "the settle-box scene fixes its geometry (radius 1 mm, spacing 2.5 mm, box from the count; benches/peers/SCENE.md): leave this key out".into()));
                }
            }
            let (placed, _) = crate::generate::settle_box(
                g.count as usize,
                g.seed.unwrap_or(crate::generate::SETTLE_BOX_SEED),
            );
            let vel = finite3(f, &key("vel"), g.vel.unwrap_or([0.0; 3]))?;
            let fixed = dofs(f, &key("fix"), g.fix.as_deref())?;
            let first_id = balls.iter().map(|b| b.id).max().unwrap_or(0) + 1;
            for (id, p) in (first_id..).zip(placed) {
                balls.push(BallSpec {
                    id,
                    pos: vec3(p),
                    radius: crate::generate::SETTLE_BOX_RADIUS,
                    material,
                    vel,
                    spin: Vec3::zeros(),
                    applied_force: Vec3::zeros(),
                    fixed,
                    mass: None,
                });
            }
            continue;
        }
        let missing = |name: &str| {
            err(
                &key(name),
                format!(
                    "missing: the {} generator needs `min`, `max` and `radius`",
                    g.kind
                ),
            )
        };
        let (min, max) = (
            g.min.ok_or_else(|| missing("min"))?,
            g.max.ok_or_else(|| missing("max"))?,
        );
        let lo = finite3(f, &key("min"), min)?;
        let hi = finite3(f, &key("max"), max)?;
        if (0..3).any(|d| lo[d] >= hi[d]) {
            return Err(err(&key("max"), "must exceed min along every axis".into()));
        }
        let radius = g.radius.ok_or_else(|| missing("radius"))?;
        positive(f, &key("radius"), radius[0])?;
        positive(f, &key("radius"), radius[1])?;
        if radius[0] > radius[1] {
            return Err(err(&key("radius"), "[min, max]: min exceeds max".into()));
        }
        let overlap = match (g.kind.as_str(), g.overlap) {
            ("lattice", Some(_)) => {
                return Err(err(
                    &key("overlap"),
                    "does not apply to the lattice generator (its balls never touch)".into(),
                ))
            }
            ("lattice", None) => 0.0,
            (_, Some(o)) if o.is_finite() && o >= 0.0 && o < radius[0] => o,
            (_, Some(o)) => {
                return Err(err(
                    &key("overlap"),
                    format!("{o}: must be a length in [0, smallest radius) (m)"),
                ))
            }
            (_, None) => 0.0,
        };
        let placed = match g.kind.as_str() {
            "lattice" => crate::generate::lattice(g.count as usize, min, max, radius, g.seed.unwrap_or(0))
                .map_err(|sites| {
                    err(
                        &key("count"),
                        format!(
                            "{}: the region holds only {sites} lattice sites of spacing 2.1 x {} m",
                            g.count, radius[1]
                        ),
                    )
                })?,
            "cubic" => {
                if radius[0] != radius[1] || g.seed.is_some() {
                    return Err(err(&key("radius"), "the cubic generator takes one radius ([r, r]) and no seed".into()));
                }
                crate::generate::cubic(g.count as usize, min, max, radius[0], overlap).map_err(|sites| {
                    err(&key("count"), format!("{}: the region holds only {sites} sites", g.count))
                })?
            }
            "cluster" => crate::generate::cluster(g.count as usize, min, max, radius, overlap, g.seed.unwrap_or(0))
                .map_err(|e| err(&key("count"), e))?,
            other => {
                return Err(err(
                    &key("kind"),
                    format!("unknown generator \"{other}\" (available: \"lattice\", \"cubic\", \"cluster\", \"settle-box\")"),
                ))
            }
        };
        let vel = finite3(f, &key("vel"), g.vel.unwrap_or([0.0; 3]))?;
        let fixed = dofs(f, &key("fix"), g.fix.as_deref())?;
        let first_id = balls.iter().map(|b| b.id).max().unwrap_or(0) + 1;
        for (next_id, (p, r)) in (first_id..).zip(placed) {
            balls.push(BallSpec {
                id: next_id,
                pos: vec3(p),
                radius: r,
                material,
                vel,
                spin: Vec3::zeros(),
                applied_force: Vec3::zeros(),
                fixed,
                mass: None,
            });
        }
    }
    let touching_on_purpose = file.generate.iter().any(|g| g.kind != "lattice");
    if balls.len() > explicit && !touching_on_purpose {
        if let Some((i, j)) = first_overlap(&balls, explicit) {
            return Err(err(
                "generate",
                format!(
                    "generated ball {} overlaps ball {}",
                    balls[i.max(j)].id,
                    balls[i.min(j)].id
                ),
            ));
        }
    }

    // [[clump]]
    let mut clumps: Vec<ClumpSpec> = Vec::new();
    for (k, c) in file.clump.iter().enumerate() {
        let key = |s: &str| format!("clump[{}].{s}", k + 1);
        let material = material_index(&key("material"), &c.material)?;
        if c.pebbles.is_empty() {
            return Err(err(&key("pebbles"), "give at least one pebble".into()));
        }
        let mut pebbles = Vec::new();
        for (j, p) in c.pebbles.iter().enumerate() {
            let pk = key(&format!("pebbles[{}]", j + 1));
            positive(f, &format!("{pk}.radius"), p.radius)?;
            pebbles.push(PebbleSpec {
                offset: finite3(f, &format!("{pk}.offset"), p.offset)?,
                radius: p.radius,
            });
        }
        let mass = match (c.mass, c.inertia) {
            (None, None) => {
                if c.centroid.is_some() {
                    return Err(err(
                        &key("centroid"),
                        "only with `mass` and `inertia` (otherwise computed from the pebbles)"
                            .into(),
                    ));
                }
                None
            }
            (Some(m), Some(i)) => {
                positive(f, &key("mass"), m)?;
                let t = nalgebra::Matrix3::from_fn(|r, q| i[r][q]);
                if !t.iter().all(|v| v.is_finite()) {
                    return Err(err(&key("inertia"), "must be finite (kg m^2)".into()));
                }
                Some(MassSpec {
                    mass: m,
                    inertia: t,
                    centroid: finite3(f, &key("centroid"), c.centroid.unwrap_or([0.0; 3]))?,
                })
            }
            (Some(_), None) => {
                return Err(err(
                    &key("inertia"),
                    "missing: give `mass` and `inertia` together".into(),
                ))
            }
            (None, Some(_)) => {
                return Err(err(
                    &key("mass"),
                    "missing: give `mass` and `inertia` together".into(),
                ))
            }
        };
        let id = match c.id {
            Some(id) => id,
            None => {
                balls
                    .iter()
                    .map(|b| b.id)
                    .chain(clumps.iter().map(|c| c.id))
                    .max()
                    .unwrap_or(0)
                    + 1
            }
        };
        if let Some(b) = balls.iter().position(|b| b.id == id) {
            return Err(err(&key("id"), format!("id {id} is already used by a ball (ball ids and clump ids share one numbering; ball number {} of the file)", b + 1)));
        }
        if let Some(j) = clumps.iter().position(|o| o.id == id) {
            return Err(err(
                &key("id"),
                format!("id {id} is already used by clump[{}]", j + 1),
            ));
        }
        clumps.push(ClumpSpec {
            id,
            pos: finite3(f, &key("pos"), c.pos)?,
            material,
            pebbles,
            vel: finite3(f, &key("vel"), c.vel.unwrap_or([0.0; 3]))?,
            spin: finite3(f, &key("spin"), c.spin.unwrap_or([0.0; 3]))?,
            applied_force: finite3(f, &key("force"), c.force.unwrap_or([0.0; 3]))?,
            fixed: dofs(f, &key("fix"), c.fix.as_deref())?,
            mass,
        });
    }

    // [[wall]]
    let mut walls: Vec<WallSpec> = Vec::new();
    let dir = path.parent().unwrap_or(Path::new("."));
    for (k, w) in file.wall.iter().enumerate() {
        let material = material_index(&format!("wall[{}].material", k + 1), &w.material)?;
        let spec = wall::parse_wall(f, k + 1, w, material, dir)?;
        if walls.iter().any(|o| o.name == spec.name) {
            return Err(err(
                &format!("wall[{}].name", k + 1),
                format!("\"{}\" is the name of another wall", spec.name),
            ));
        }
        walls.push(spec);
    }

    let margin = match run.margin {
        Some(m) if m.is_finite() && m >= 0.0 => m,
        Some(m) => {
            return Err(err(
                "run.margin",
                format!("{m}: must be a non-negative length (m)"),
            ))
        }
        None => {
            DEFAULT_MARGIN_FRACTION
                * balls
                    .iter()
                    .map(|b| b.radius)
                    .fold(Real::INFINITY, Real::min)
                    .min(1.0)
        }
    };

    let timestep = parse_timestep(f, file.timestep.as_ref(), margin)?;
    let frame = parse_frame(f, file.frame.as_ref())?;

    // [output]
    let out = file.output.clone().unwrap_or(OutputSection {
        every: None,
        series: None,
        vtk_every: None,
    });
    if out.every == Some(0) {
        return Err(err("output.every", "must be at least 1".into()));
    }
    if dim == 2 {
        for (_, _, law) in &contact_models {
            if matches!(law, ContactModel::Hertz(_) | ContactModel::HertzHistory(_)) {
                return Err(err("contact", format!("model \"{}\": Hertz's law is for spheres; a 2D disk (a cylinder of unit thickness) has no such law here: use a linear-family model", law.name())));
            }
        }
    }
    let series = out.series.clone().unwrap_or_else(|| {
        // (renumbered balls cannot be followed by index: no per-ball series then)
        let follow = file.run.sort_every.unwrap_or(0) == 0;
        default_series(if follow { &balls } else { &[] }, &walls)
    });

    let mut case = Case {
        path: path.to_path_buf(),
        name,
        description: file.description.clone().unwrap_or_default(),
        file: file.clone(),
        gravity,
        margin,
        timestep,
        frame,
        materials,
        contact_models,
        balls,
        clumps,
        walls,
        vtk_every: out.vtk_every.unwrap_or(0),
        every: out.every,
        series,
        checks: Vec::new(),
    };
    for (k, t) in file.check.iter().enumerate() {
        case.checks.push(CheckSpec::parse(f, k + 1, t)?);
    }
    // Building once validates what only the model can tell (e.g. material pairs without model).
    let model = case.build_model(None)?;
    for (k, s) in case.series.iter().enumerate() {
        crate::output::Source::parse(s, &model)
            .map_err(|r| err(&format!("output.series[{}]", k + 1), r))?;
    }
    for (k, c) in case.checks.iter().enumerate() {
        c.validate(&model, &case)
            .map_err(|r| err(&format!("check[{}]", k + 1), r))?;
    }
    if model.sort_every > 0 {
        validate_sorting(&case, &model).map_err(|r| err("run.sort_every", r))?;
    }
    if let Some(o) = &case.file.run.sort_order {
        if SortOrder::parse(o).is_none() {
            return Err(err(
                "run.sort_order",
                format!("unknown order \"{o}\" (expected \"rows\" or \"morton\")"),
            ));
        }
        if model.sort_every == 0 {
            return Err(err(
                "run.sort_order",
                "applies only when the balls are renumbered: set sort_every".into(),
            ));
        }
    }
    Ok(case)
}

/// `[run] sort_every`: the model must allow renumbering ([`Model::can_sort_balls`]), and no
/// output or check may follow one ball by its index (the index changes; the id moves with the
/// ball, but these keep the index they found when the run starts).
fn validate_sorting(case: &Case, model: &Model) -> Result<(), String> {
    if !model.can_sort_balls() {
        return Err(
            "the balls can be renumbered only in 3D, without clumps, and when every \
                    contact model is frame-free (hertz-history, hooke-history)"
                .into(),
        );
    }
    for (k, s) in case.series.iter().enumerate() {
        if crate::output::Source::parse(s, model).is_ok_and(|src| src.follows_pieces()) {
            return Err(format!(
                "output.series[{}] \"{s}\" follows one body by its index, which renumbering \
                 changes: remove the series or sort_every",
                k + 1
            ));
        }
    }
    for (k, c) in case.checks.iter().enumerate() {
        if matches!(
            c,
            CheckSpec::Collision { .. } | CheckSpec::ActiveCount { .. }
        ) {
            return Err(format!(
                "check[{}] follows one ball by its index, which renumbering changes: remove \
                 the check or sort_every",
                k + 1
            ));
        }
    }
    Ok(())
}

impl Case {
    /// 3 (spheres) or 2 (disks).
    pub fn dim(&self) -> usize {
        if self.file.dim == Some(2) {
            2
        } else {
            3
        }
    }

    /// The timestep of a fixed-step run, s (`None` when the timestep varies).
    pub fn fixed_dt(&self) -> Option<Real> {
        match self.timestep {
            TimestepMode::Fixed(dt) => Some(dt),
            _ => None,
        }
    }

    /// Number of cycles for a run with timestep `dt`.
    pub fn steps_for(&self, dt: Real) -> u64 {
        match (self.file.run.steps, self.file.run.duration) {
            (Some(s), _) => s,
            // NOTE: the tolerance keeps 0.1 / 1e-3 at exactly 100 cycles despite round-off.
            (None, Some(d)) => ((d / dt) - 1e-9).ceil().max(1.0) as u64,
            (None, None) => 1,
        }
    }

    /// Builds a fresh model of the case, optionally with another fixed timestep.
    ///
    /// # Errors
    /// A model-level problem, such as a pair of materials that can meet without a contact model.
    pub fn build_model(&self, dt: Option<Real>) -> Result<Model, CaseError> {
        let f = self.path.display().to_string();
        let timestep = match dt {
            Some(dt) => TimestepMode::Fixed(dt),
            None => self.timestep.clone(),
        };
        let mut model = Model::new(Settings {
            gravity: self.gravity,
            margin: self.margin,
            timestep,
            frame: self.frame,
        });
        if self.dim() == 2 {
            model.set_planar();
        }
        model.sort_every = self.file.run.sort_every.unwrap_or(0);
        // (checked when the case was read)
        model.sort_order = (self.file.run.sort_order.as_deref())
            .and_then(SortOrder::parse)
            .unwrap_or_default();
        for m in &self.materials {
            model.add_material(m.clone());
        }
        for (a, b, law) in &self.contact_models {
            model.set_contact_model(*a, *b, law.clone());
        }
        let pebbles: usize = self.clumps.iter().map(|c| c.pebbles.len()).sum();
        model.balls.make_room(self.balls.len() + pebbles);
        for b in &self.balls {
            model
                .add_ball(b)
                .map_err(|e| CaseError::new(&f, format!("ball id {}", b.id), e.to_string()))?;
        }
        for (k, c) in self.clumps.iter().enumerate() {
            model.add_clump(c).map_err(|e| {
                let reason = match e {
                    crate::model::ModelError::BadClump { reason, .. } => reason,
                    e => e.to_string(),
                };
                CaseError::new(&f, format!("clump[{}] (id {})", k + 1, c.id), reason)
            })?;
        }
        for w in &self.walls {
            model.add_wall(w).map_err(|e| {
                let reason = match e {
                    crate::model::ModelError::BadWall { reason, .. } => reason,
                    e => e.to_string(),
                };
                CaseError::new(&f, format!("wall \"{}\"", w.name), reason)
            })?;
        }
        model
            .check_contact_models()
            .map_err(|e| CaseError::new(&f, "contact", e.to_string()))?;
        model.make_room();
        Ok(model)
    }

    /// The directory of the case file (other files are relative to it).
    pub fn dir(&self) -> &Path {
        self.path.parent().unwrap_or(Path::new("."))
    }
}

fn list_or_none(names: &[&str]) -> String {
    if names.is_empty() {
        "none".into()
    } else {
        names.join(", ")
    }
}

/// The `[timestep]` table (SPEC section 2); `margin` gives the default kinematic eps.
fn parse_timestep(
    f: &str,
    ts: Option<&file::TimestepSection>,
    margin: Real,
) -> Result<TimestepMode, CaseError> {
    let err = |key: &str, reason: String| CaseError::new(f, key, reason);
    let Some(ts) = ts else {
        return Err(err(
            "timestep",
            "missing table [timestep] (e.g. mode = \"fixed\", dt = 1e-6)".into(),
        ));
    };
    let given = [
        ("dt", ts.dt.is_some()),
        ("safety", ts.safety.is_some()),
        ("estimator", ts.estimator.is_some()),
        ("kinematic", ts.kinematic.is_some()),
        ("kinematic_eps", ts.kinematic_eps.is_some()),
        ("loading_steps", ts.loading_steps.is_some()),
    ];
    let allowed: &[&str] = match ts.mode.as_str() {
        "fixed" => &["dt"],
        "auto" => &["dt", "safety", "estimator", "kinematic", "kinematic_eps"],
        "scaled" => &["dt", "estimator", "kinematic", "kinematic_eps"],
        "model" => &["dt", "loading_steps"],
        m => {
            return Err(err(
                "timestep.mode",
                format!(
                    "unknown mode \"{m}\" (expected \"fixed\", \"auto\", \"scaled\" or \"model\")"
                ),
            ))
        }
    };
    for (key, is_given) in given {
        if is_given && !allowed.contains(&key) {
            return Err(err(
                &format!("timestep.{key}"),
                format!("does not apply to mode \"{}\"", ts.mode),
            ));
        }
    }
    if let Some(dt) = ts.dt {
        positive(f, "timestep.dt", dt)?;
    }
    let estimator = match ts.estimator.as_deref() {
        None | Some("diagonal") => Estimator::Diagonal,
        Some("bound") => Estimator::Bound,
        Some(e) => {
            return Err(err(
                "timestep.estimator",
                format!("unknown estimator \"{e}\" (expected \"diagonal\" or \"bound\")"),
            ))
        }
    };
    let kinematic_eps = if matches!(ts.mode.as_str(), "fixed" | "model") {
        None
    } else {
        match (ts.kinematic.unwrap_or(true), ts.kinematic_eps) {
            (false, Some(_)) => {
                return Err(err(
                    "timestep.kinematic_eps",
                    "is given but kinematic = false".into(),
                ))
            }
            (false, None) => None,
            (true, Some(e)) => Some(positive(f, "timestep.kinematic_eps", e)?),
            (true, None) if margin > 0.0 => Some(DEFAULT_KINEMATIC_FRACTION * margin),
            (true, None) => return Err(err(
                "timestep.kinematic_eps",
                "margin is 0, so there is no default: give kinematic_eps (m) or kinematic = false"
                    .into(),
            )),
        }
    };
    Ok(match ts.mode.as_str() {
        "fixed" => {
            let Some(dt) = ts.dt else {
                return Err(err("timestep.dt", "mode \"fixed\" needs dt (s)".into()));
            };
            TimestepMode::Fixed(dt)
        }
        "auto" => {
            let safety = ts.safety.unwrap_or(DEFAULT_SAFETY);
            if !(safety > 0.0 && safety <= 1.0) {
                return Err(err(
                    "timestep.safety",
                    format!("{safety}: must be in (0, 1] (a fraction of the critical estimate)"),
                ));
            }
            TimestepMode::Auto(Auto {
                safety,
                estimator,
                kinematic_eps,
                cap: ts.dt,
            })
        }
        "model" => {
            let loading_steps = ts.loading_steps.unwrap_or(DEFAULT_LOADING_STEPS);
            if !(loading_steps.is_finite() && loading_steps >= 1.0) {
                return Err(err(
                    "timestep.loading_steps",
                    format!("{loading_steps}: must be a number of steps, at least 1"),
                ));
            }
            TimestepMode::Model(ModelMode {
                loading_steps,
                cap: ts.dt,
            })
        }
        _ => TimestepMode::Scaled(Scaled {
            dt: ts.dt.unwrap_or(1.0),
            estimator,
            kinematic_eps,
        }),
    })
}

/// The `[frame]` table (project extension): branch vectors and approximation flags of the
/// local contact frames.
fn parse_frame(f: &str, fr: Option<&file::FrameSection>) -> Result<FrameFlags, CaseError> {
    let mut flags = FrameFlags::default();
    let Some(fr) = fr else { return Ok(flags) };
    flags.no_ratch = fr.no_ratch.unwrap_or(false);
    for (k, a) in fr.approximations.iter().flatten().enumerate() {
        match a.as_str() {
            "previous_normal" => flags.previous_normal = true,
            "previous_transform" => flags.previous_transform = true,
            "no_renormalize" => flags.no_renormalize = true,
            "no_twist" => flags.no_twist = true,
            other => {
                return Err(CaseError::new(
                    f,
                    format!("frame.approximations[{}]", k + 1),
                    format!("unknown approximation \"{other}\" (expected previous_normal, previous_transform, no_renormalize, no_twist)"),
                ))
            }
        }
    }
    Ok(flags)
}

fn positive(f: &str, key: &str, v: Real) -> Result<Real, CaseError> {
    if v.is_finite() && v > 0.0 {
        Ok(v)
    } else {
        Err(CaseError::new(
            f,
            key,
            format!("{v}: must be a positive finite number"),
        ))
    }
}

fn finite3(f: &str, key: &str, v: [Real; 3]) -> Result<Vec3, CaseError> {
    if v.iter().all(|x| x.is_finite()) {
        Ok(vec3(v))
    } else {
        Err(CaseError::new(
            f,
            key,
            format!("{v:?}: every component must be a finite number"),
        ))
    }
}

fn dofs(f: &str, key: &str, names: Option<&[String]>) -> Result<u8, CaseError> {
    let mut bits = 0;
    for n in names.unwrap_or(&[]) {
        bits |= dof::from_name(n).ok_or_else(|| {
            CaseError::new(
                f,
                key,
                format!("unknown DOF \"{n}\" (expected x, y, z, rx, ry, rz)"),
            )
        })?;
    }
    Ok(bits)
}

/// The contact model of rule `k` for a pair of materials (`None`: validate the keys only).
fn contact_model(
    f: &str,
    k: usize,
    c: &ContactSection,
    pair: Option<(&Material, &Material)>,
) -> Result<ContactModel, CaseError> {
    let key = |s: &str| format!("contact[{k}].{s}");
    let err = |s: &str, r: String| CaseError::new(f, key(s), r);
    let allowed: &[&str] = match c.model.as_str() {
        "linear" => &["kn", "ks", "kn_rot", "ks_rot", "friction", "damp_n", "damp_s", "friction_limit"],
        "linear-dashpot" => &["kn", "ks", "friction", "restitution", "clamp", "damp_s", "friction_limit"],
        "hysteretic" => &["kn", "ks", "k_unload", "friction"],
        "hertz" => &["friction", "restitution", "clamp", "friction_limit"],
        "linearbond" => &["kn", "ks", "friction", "tensile", "shear_strength", "bond_gap"],
        "hertz-history" => &["friction", "restitution", "friction_limit"],
        "hooke-history" => &["kn", "ks", "gamma_n", "gamma_t", "friction", "friction_limit"],
        m => {
            return Err(err(
                "model",
                format!("unknown model \"{m}\" (expected linear, linear-dashpot, hysteretic, hertz, linearbond, hertz-history, hooke-history)"),
            ))
        }
    };
    let given = [
        ("kn", c.kn.is_some()),
        ("ks", c.ks.is_some()),
        ("kn_rot", c.kn_rot.is_some()),
        ("ks_rot", c.ks_rot.is_some()),
        ("friction", c.friction.is_some()),
        ("damp_n", c.damp_n.is_some()),
        ("damp_s", c.damp_s.is_some()),
        ("restitution", c.restitution.is_some()),
        ("k_unload", c.k_unload.is_some()),
        ("clamp", c.clamp.is_some()),
        ("tensile", c.tensile.is_some()),
        ("shear_strength", c.shear_strength.is_some()),
        ("bond_gap", c.bond_gap.is_some()),
        ("gamma_n", c.gamma_n.is_some()),
        ("gamma_t", c.gamma_t.is_some()),
        ("friction_limit", c.friction_limit.is_some()),
    ];
    for (name, is_given) in given {
        if is_given && !allowed.contains(&name) {
            return Err(err(
                name,
                format!("does not apply to model \"{}\"", c.model),
            ));
        }
    }
    let soft = c.softening.unwrap_or(1.0);
    positive(f, &key("softening"), soft)?;
    let nonneg = |name: &str, v: Option<Real>| -> Result<Real, CaseError> {
        let v = v.unwrap_or(0.0);
        if v.is_finite() && v >= 0.0 {
            Ok(v)
        } else {
            Err(err(
                name,
                format!("{v}: must be a non-negative finite number"),
            ))
        }
    };
    let ratio = |name: &str, v: Option<Real>| -> Result<Real, CaseError> {
        let v = nonneg(name, v)?;
        if v < 1.0 {
            Ok(v)
        } else {
            Err(err(
                name,
                format!("{v}: a critical-damping ratio must be below 1"),
            ))
        }
    };
    let needed = |name: &str, v: Option<Real>, unit: &str| -> Result<Real, CaseError> {
        let v =
            v.ok_or_else(|| err(name, format!("model \"{}\" needs {name} ({unit})", c.model)))?;
        positive(f, &key(name), v)
    };
    let restitution = || -> Result<Real, CaseError> {
        let e = c.restitution.unwrap_or(1.0);
        if e > 0.0 && e <= 1.0 {
            Ok(e)
        } else {
            Err(err("restitution", format!("{e}: must lie in (0, 1]")))
        }
    };
    let friction = nonneg("friction", c.friction)?;
    let limit = match c.friction_limit.as_deref() {
        None | Some("total") => FrictionLimit::Total,
        Some("spring") => FrictionLimit::Spring,
        Some(other) => {
            return Err(err(
                "friction_limit",
                format!("\"{other}\": expected \"total\" (spring plus dashpot within friction |F_n|, the default) or \"spring\" (the spring alone, as PFC's linear model and LIGGGHTS's tangential history)"),
            ))
        }
    };
    Ok(match c.model.as_str() {
        "linear" => ContactModel::Linear(Linear {
            kn: needed("kn", c.kn, "N/m")? * soft,
            ks: nonneg("ks", c.ks)? * soft,
            kn_rot: nonneg("kn_rot", c.kn_rot)? * soft,
            ks_rot: nonneg("ks_rot", c.ks_rot)? * soft,
            friction,
            damp_n: ratio("damp_n", c.damp_n)?,
            damp_s: ratio("damp_s", c.damp_s)?,
            limit,
        }),
        "linear-dashpot" => ContactModel::LinearDashpot(
            LinearDashpot::new(
                needed("kn", c.kn, "N/m")? * soft,
                nonneg("ks", c.ks)? * soft,
                friction,
                restitution()?,
                c.clamp.unwrap_or(false),
                ratio("damp_s", c.damp_s)?,
            )
            .with_limit(limit),
        ),
        "hysteretic" => {
            let kn = needed("kn", c.kn, "N/m")?;
            let k_unload = needed("k_unload", c.k_unload, "N/m")?;
            if k_unload < kn {
                return Err(err(
                    "k_unload",
                    format!("{k_unload}: must be at least kn = {kn} (restitution sqrt(kn/k_unload) <= 1)"),
                ));
            }
            ContactModel::Hysteretic(Hysteretic {
                kn: kn * soft,
                k_unload: k_unload * soft,
                ks: nonneg("ks", c.ks)? * soft,
                friction,
            })
        }
        "hooke-history" => ContactModel::HookeHistory(HookeHistory {
            kn: needed("kn", c.kn, "N/m")? * soft,
            kt: nonneg("ks", c.ks)? * soft,
            gamma_n: nonneg("gamma_n", c.gamma_n)?,
            gamma_t: nonneg("gamma_t", c.gamma_t)?,
            friction,
            limit,
        }),
        "hertz" | "hertz-history" => {
            let e = restitution()?;
            let clamp = c.clamp.unwrap_or(true);
            let make = |p: HertzPair, e: Real| {
                if c.model == "hertz" {
                    ContactModel::Hertz(Hertz::new(p, friction, e, clamp).with_limit(limit))
                } else {
                    ContactModel::HertzHistory(HertzHistory::new(p, friction, e).with_limit(limit))
                }
            };
            let Some((a, b)) = pair else {
                return Ok(make(
                    HertzPair {
                        e_star: 1.0,
                        g_star: 1.0,
                    },
                    1.0,
                ));
            };
            for m in [a, b] {
                if m.young.is_nan() || m.young <= 0.0 {
                    return Err(CaseError::new(
                        f,
                        format!("material.{}.young", m.name),
                        format!("model \"{}\" (contact[{k}]) needs Young's modulus (Pa) of material \"{}\"", c.model, m.name),
                    ));
                }
            }
            if a.young.is_infinite() && b.young.is_infinite() {
                return Err(err(
                    "between",
                    format!("materials \"{}\" and \"{}\" are both rigid (young = inf): no Hertz contact", a.name, b.name),
                ));
            }
            let mut p = HertzPair::of(a.young, a.poisson, b.young, b.poisson);
            p.e_star *= soft;
            p.g_star *= soft;
            make(p, e)
        }
        _ => {
            let bond_gap = nonneg("bond_gap", c.bond_gap)?;
            ContactModel::LinearBond(LinearBond {
                kn: needed("kn", c.kn, "N/m")? * soft,
                ks: nonneg("ks", c.ks)? * soft,
                friction,
                tensile: nonneg("tensile", c.tensile)?,
                shear_strength: nonneg("shear_strength", c.shear_strength)?,
                bond_gap,
            })
        }
    })
}

/// Series recorded when `[output] series` is not given: energies, contact count and timestep,
/// position and velocity of the first ten balls (none when the balls are renumbered), and the
/// force on each wall.
fn default_series(balls: &[BallSpec], walls: &[WallSpec]) -> Vec<String> {
    let mut s: Vec<String> = ["energy/kinetic", "energy/strain", "contacts/active", "dt"]
        .map(String::from)
        .to_vec();
    for b in balls.iter().take(10) {
        s.push(format!("ball/{}/pos", b.id));
        s.push(format!("ball/{}/vel", b.id));
    }
    for w in walls {
        s.push(format!("wall/{}/force", w.name));
    }
    s
}

/// The first overlapping pair in which at least one ball has index >= `first_new`.
fn first_overlap(balls: &[BallSpec], first_new: usize) -> Option<(usize, usize)> {
    let pos: Vec<Vec3> = balls.iter().map(|b| b.pos).collect();
    let rad: Vec<Real> = balls.iter().map(|b| b.radius).collect();
    let mut bp = crate::detect::BroadPhase::default();
    bp.build(&pos, &rad, 0.0);
    bp.pairs
        .iter()
        .map(|&(i, j)| (i as usize, j as usize))
        .find(|&(i, j)| i.max(j) >= first_new && (pos[i] - pos[j]).norm() < rad[i] + rad[j])
}
