//! `[[wall]]` sections: from the case file's keys to a [`WallSpec`].

use super::materials::material_index;
use super::reader::{finite3, positive, Reader};
use super::{BoxSection, CaseError, CaseFile, MotionSection, PlaneSection, WallSection};
use crate::body::Material;
use crate::body::{side, Program, Resolution, ScheduleEntry, ServoTarget, WallMotion, WallSpec};
use crate::geom;
use crate::math::{Real, Vec3};
use std::path::Path;

/// How the errors of one table name its keys: `<prefix>.<key>` in file `f`.
struct Keys<'a> {
    f: &'a str,
    prefix: String,
}

impl Keys<'_> {
    /// The full name of key `s`.
    fn key(&self, s: &str) -> String {
        format!("{}.{s}", self.prefix)
    }

    /// An error at key `s`.
    fn err(&self, s: &str, r: String) -> CaseError {
        CaseError::new(self.f, self.key(s), r)
    }
}

/// Validates one `[[wall]]` (number `k` from 1); `material` is its material index and `dir`
/// the directory of the case file.
pub(super) fn parse_wall(
    f: &str,
    k: usize,
    w: &WallSection,
    material: usize,
    dir: &Path,
) -> Result<WallSpec, CaseError> {
    let at = Keys {
        f,
        prefix: format!("wall[{k}]"),
    };
    let name = w.name.clone().unwrap_or_else(|| format!("wall{k}"));
    if name.is_empty() || name.contains(['/', '"']) || name.chars().any(char::is_control) {
        return Err(at.err(
            "name",
            format!("{name:?}: must be non-empty, without slashes, quotes or control characters (it names the wall's series, wall/<name>/force)"),
        ));
    }
    let (vertices, facets) = wall_mesh(&at, w, dir)?;
    // (an OBJ or inline mesh may repeat a vertex at a seam: welded, as STL corners are)
    let (vertices, facets) = geom::weld_indexed(&vertices, &facets);
    let (resolution, cutoff) = resolution(&at, w)?;
    let inactive = inactive_sides(&at, w, facets.len())?;
    // Default pivot: the mean of the vertices.
    let centroid =
        vertices.iter().fold(Vec3::zeros(), |a, v| a + v) / (vertices.len().max(1) as Real);
    let pivot = match w.motion.as_ref().and_then(|m| m.pivot) {
        Some(p) => finite3(f, &at.key("motion.pivot"), p)?,
        None => centroid,
    };
    let (motion, program) = match &w.motion {
        None => (
            WallMotion::Rigid {
                vel: Vec3::zeros(),
                spin: Vec3::zeros(),
            },
            None,
        ),
        Some(m) => parse_motion(f, k, m, vertices.len(), pivot)?,
    };
    // NOTE: the mesh itself is validated when the model is built (Model::add_wall), which the
    // parser does once for every case.
    Ok(WallSpec {
        name,
        material,
        vertices,
        facets,
        inactive,
        motion,
        pivot,
        resolution,
        cutoff_angle: cutoff.to_radians(),
        program,
        // (set with the cell: [`super::domain::image_spanning_planes`])
        imaged: false,
    })
}

/// The wall's mesh, from exactly one of `plane`, `box`, `mesh` (a file in `dir`), and
/// `vertices` with `facets`.
fn wall_mesh(at: &Keys, w: &WallSection, dir: &Path) -> Result<geom::RawMesh, CaseError> {
    let given = [
        w.plane.is_some(),
        w.box_.is_some(),
        w.mesh.is_some(),
        w.vertices.is_some() || w.facets.is_some(),
    ];
    if given.iter().filter(|&&g| g).count() != 1 {
        return Err(at.err(
            "",
            "give exactly one of `plane`, `box`, `mesh`, and `vertices` with `facets`".into(),
        ));
    }
    if let Some(p) = &w.plane {
        plane_mesh(at, p)
    } else if let Some(b) = &w.box_ {
        box_mesh(at, b)
    } else if let Some(m) = &w.mesh {
        super::mesh_file::read(&dir.join(m)).map_err(|r| at.err("mesh", r))
    } else {
        inline_mesh(at, w)
    }
}

/// `plane = { center, normal, size, divisions }`: a rectangle of 2 x divisions facets.
fn plane_mesh(at: &Keys, p: &PlaneSection) -> Result<geom::RawMesh, CaseError> {
    let f = at.f;
    let center = finite3(f, &at.key("plane.center"), p.center)?;
    let normal = finite3(f, &at.key("plane.normal"), p.normal)?;
    if normal.norm() == 0.0 {
        return Err(at.err("plane.normal", "must not be the zero vector".into()));
    }
    for s in p.size {
        positive(f, &at.key("plane.size"), s)?;
    }
    let div = p.divisions.unwrap_or([1, 1]);
    if div.iter().any(|&d| !(1..=10_000).contains(&d)) {
        return Err(at.err(
            "plane.divisions",
            format!("{div:?}: each must be an integer in [1, 10000]"),
        ));
    }
    crate::storage::fits(2 * (div[0] * div[1]) as u64, crate::storage::FACET_BYTES).map_err(
        |e| {
            at.err(
                "plane.divisions",
                format!("{div:?} make 2 x {} x {} facets: {e}", div[0], div[1]),
            )
        },
    )?;
    Ok(geom::plane(
        center,
        normal.normalize(),
        p.size,
        [div[0] as usize, div[1] as usize],
    ))
}

/// `box = { min, max, divisions }`: a closed box of 12 x divisions² facets.
fn box_mesh(at: &Keys, b: &BoxSection) -> Result<geom::RawMesh, CaseError> {
    let f = at.f;
    let lo = finite3(f, &at.key("box.min"), b.min)?;
    let hi = finite3(f, &at.key("box.max"), b.max)?;
    if (0..3).any(|d| lo[d] >= hi[d]) {
        return Err(at.err("box.max", "must exceed min along every axis".into()));
    }
    let div = b.divisions.unwrap_or(1);
    if !(1..=1000).contains(&div) {
        return Err(at.err(
            "box.divisions",
            format!("{div}: must be an integer in [1, 1000]"),
        ));
    }
    crate::storage::fits(12 * (div * div) as u64, crate::storage::FACET_BYTES).map_err(|e| {
        at.err(
            "box.divisions",
            format!("{div} makes 12 x {div} x {div} facets: {e}"),
        )
    })?;
    Ok(geom::closed_box(lo, hi, div as usize))
}

/// `vertices` and `facets` given in the case file.
fn inline_mesh(at: &Keys, w: &WallSection) -> Result<geom::RawMesh, CaseError> {
    let (Some(v), Some(fa)) = (&w.vertices, &w.facets) else {
        return Err(at.err(
            if w.vertices.is_none() {
                "vertices"
            } else {
                "facets"
            },
            "`vertices` and `facets` go together".into(),
        ));
    };
    let mut vertices = Vec::with_capacity(v.len());
    for (i, p) in v.iter().enumerate() {
        vertices.push(finite3(at.f, &at.key(&format!("vertices[{i}]")), *p)?);
    }
    let mut facets = Vec::with_capacity(fa.len());
    for (i, t) in fa.iter().enumerate() {
        if t.iter().any(|&x| x < 0 || x as usize >= v.len()) {
            return Err(at.err(
                &format!("facets[{i}]"),
                format!(
                    "{t:?}: vertex indices run from 0 to {} (there are {} vertices)",
                    v.len() as i64 - 1,
                    v.len()
                ),
            ));
        }
        facets.push(t.map(|x| x as u32));
    }
    Ok((vertices, facets))
}

/// The resolution mode and the cutoff angle (degrees) of the full mode.
fn resolution(at: &Keys, w: &WallSection) -> Result<(Resolution, Real), CaseError> {
    let resolution = match w.resolution.as_deref().unwrap_or("reduced") {
        "reduced" => Resolution::Reduced,
        "full" => Resolution::Full,
        r => {
            return Err(at.err(
                "resolution",
                format!("unknown mode \"{r}\" (expected \"reduced\" or \"full\")"),
            ))
        }
    };
    let cutoff = w.cutoff_angle_deg.unwrap_or(0.0);
    if !(cutoff.is_finite() && (0.0..=180.0).contains(&cutoff)) {
        return Err(at.err(
            "cutoff_angle_deg",
            format!("{cutoff}: must be an angle in [0, 180] degrees"),
        ));
    }
    Ok((resolution, cutoff))
}

/// `inactive = [{ facet, side }, ...]`: each facet (of `facets`) with its inactive sides.
fn inactive_sides(
    at: &Keys,
    w: &WallSection,
    facets: usize,
) -> Result<Vec<(usize, u8)>, CaseError> {
    let mut inactive = Vec::new();
    for (i, s) in w.inactive.iter().flatten().enumerate() {
        let bits = match s.side.as_str() {
            "above" => side::ABOVE,
            "below" => side::BELOW,
            "both" => side::BOTH,
            other => {
                return Err(at.err(
                    &format!("inactive[{}].side", i + 1),
                    format!("unknown side \"{other}\" (expected above, below, both)"),
                ))
            }
        };
        if s.facet < 0 || s.facet as usize >= facets {
            return Err(at.err(
                &format!("inactive[{}].facet", i + 1),
                format!(
                    "{}: facets are numbered from 0 to {}",
                    s.facet,
                    facets as i64 - 1
                ),
            ));
        }
        inactive.push((s.facet as usize, bits));
    }
    Ok(inactive)
}

/// `motion = { kind = ... }` of wall `k`: its motion (the velocity of a programmed wall is set
/// each cycle) and its program; `vertices` is the number of unique vertices.
fn parse_motion(
    f: &str,
    k: usize,
    m: &MotionSection,
    vertices: usize,
    pivot: Vec3,
) -> Result<(WallMotion, Option<Program>), CaseError> {
    let at = Keys {
        f,
        prefix: format!("wall[{k}].motion"),
    };
    let rest = WallMotion::Rigid {
        vel: Vec3::zeros(),
        spin: Vec3::zeros(),
    };
    refuse_other_motion_keys(&at, m)?;
    let direction = || -> Result<Vec3, CaseError> {
        let d = m
            .direction
            .ok_or_else(|| at.err("direction", "missing".into()))?;
        let d = finite3(f, &at.key("direction"), d)?;
        if d.norm() == 0.0 {
            return Err(at.err("direction", "must not be the zero vector".into()));
        }
        Ok(d.normalize())
    };
    let need = |name: &str, v: Option<f64>| -> Result<Real, CaseError> {
        positive(
            f,
            &at.key(name),
            v.ok_or_else(|| at.err(name, "missing".into()))?,
        )
    };
    Ok(match m.kind.as_str() {
        "rigid" => rigid_motion(&at, m, rest)?,
        "deformable" => deformable_motion(&at, m, vertices)?,
        "oscillate" => (
            rest,
            Some(Program::Oscillate {
                direction: direction()?,
                amplitude: need("amplitude", m.amplitude)?,
                frequency: need("frequency", m.frequency)?,
                origin: pivot,
            }),
        ),
        _ => {
            let target = match (m.target_force, m.target_stress) {
                (Some(x), None) => ServoTarget::Force(finite(f, &at.key("target_force"), x)?),
                (None, Some(x)) => ServoTarget::Stress(finite(f, &at.key("target_stress"), x)?),
                _ => {
                    return Err(at.err(
                        "target_force",
                        "give exactly one of target_force (N) and target_stress (Pa)".into(),
                    ))
                }
            };
            (
                rest,
                Some(Program::Servo {
                    direction: direction()?,
                    target,
                    gain: need("gain", m.gain)?,
                    max_speed: need("max_speed", m.max_speed)?,
                }),
            )
        }
    })
}

/// Refuses an unknown kind of motion, and a key its kind does not take.
fn refuse_other_motion_keys(at: &Keys, m: &MotionSection) -> Result<(), CaseError> {
    // the keys each kind takes
    let given: [(&str, bool); 11] = [
        ("vel", m.vel.is_some()),
        ("spin", m.spin.is_some()),
        ("vertex_vel", m.vertex_vel.is_some()),
        ("schedule", m.schedule.is_some()),
        ("direction", m.direction.is_some()),
        ("amplitude", m.amplitude.is_some()),
        ("frequency", m.frequency.is_some()),
        ("target_force", m.target_force.is_some()),
        ("target_stress", m.target_stress.is_some()),
        ("gain", m.gain.is_some()),
        ("max_speed", m.max_speed.is_some()),
    ];
    let takes: &[&str] = match m.kind.as_str() {
        "rigid" => &["vel", "spin", "schedule"],
        "deformable" => &["vertex_vel"],
        "oscillate" => &["direction", "amplitude", "frequency"],
        "servo" => &["direction", "target_force", "target_stress", "gain", "max_speed"],
        other => {
            return Err(at.err(
                "kind",
                format!("unknown motion \"{other}\" (expected \"rigid\", \"deformable\", \"oscillate\" or \"servo\")"),
            ))
        }
    };
    for (name, present) in given {
        if present && !takes.contains(&name) {
            return Err(at.err(
                name,
                format!(
                    "not a key of kind = \"{}\" (its keys: {}, pivot)",
                    m.kind,
                    takes.join(", ")
                ),
            ));
        }
    }
    Ok(())
}

/// `kind = "rigid"`: a constant velocity and spin, or a schedule of them (`rest` while the
/// schedule sets them).
fn rigid_motion(
    at: &Keys,
    m: &MotionSection,
    rest: WallMotion,
) -> Result<(WallMotion, Option<Program>), CaseError> {
    let f = at.f;
    let Some(entries) = &m.schedule else {
        return Ok((
            WallMotion::Rigid {
                vel: finite3(f, &at.key("vel"), m.vel.unwrap_or([0.0; 3]))?,
                spin: finite3(f, &at.key("spin"), m.spin.unwrap_or([0.0; 3]))?,
            },
            None,
        ));
    };
    if m.vel.is_some() || m.spin.is_some() {
        return Err(at.err(
            "schedule",
            "give vel and spin in the schedule's entries, not beside it".into(),
        ));
    }
    if entries.is_empty() {
        return Err(at.err("schedule", "needs at least one entry".into()));
    }
    let mut out: Vec<ScheduleEntry> = Vec::new();
    for (j, e) in entries.iter().enumerate() {
        let entry = |s: &str| at.key(&format!("schedule[{}].{s}", j + 1));
        let later = out.last().map_or(e.t >= 0.0, |p| e.t > p.t);
        if !(e.t.is_finite() && later) {
            return Err(CaseError::new(
                f,
                entry("t"),
                format!("{}: times must be finite, >= 0 and increasing (s)", e.t),
            ));
        }
        out.push(ScheduleEntry {
            t: e.t,
            vel: finite3(f, &entry("vel"), e.vel.unwrap_or([0.0; 3]))?,
            spin: finite3(f, &entry("spin"), e.spin.unwrap_or([0.0; 3]))?,
        });
    }
    Ok((rest, Some(Program::Schedule(out))))
}

/// `kind = "deformable"`: one velocity per unique vertex (of `vertices`).
fn deformable_motion(
    at: &Keys,
    m: &MotionSection,
    vertices: usize,
) -> Result<(WallMotion, Option<Program>), CaseError> {
    let vv = m.vertex_vel.as_ref().ok_or_else(|| {
        at.err(
            "vertex_vel",
            "a deformable wall needs one velocity per unique vertex".into(),
        )
    })?;
    if vv.len() != vertices {
        return Err(at.err(
            "vertex_vel",
            format!("{} velocities for {} unique vertices", vv.len(), vertices),
        ));
    }
    let mut vertex_vel = Vec::with_capacity(vv.len());
    for (i, v) in vv.iter().enumerate() {
        vertex_vel.push(finite3(at.f, &at.key(&format!("vertex_vel[{i}]")), *v)?);
    }
    Ok((WallMotion::Deformable { vertex_vel }, None))
}

/// A finite number.
fn finite(f: &str, key: &str, v: Real) -> Result<Real, CaseError> {
    if v.is_finite() {
        Ok(v)
    } else {
        Err(CaseError::new(
            f,
            key,
            format!("{v}: must be a finite number"),
        ))
    }
}

/// The walls, with unique names; mesh files are found relative to the case file's `path`.
pub(super) fn parse_walls(
    r: &Reader,
    file: &CaseFile,
    materials: &[Material],
    path: &Path,
) -> Result<Vec<WallSpec>, CaseError> {
    let f = r.f;
    let err = |key: &str, reason: String| r.err(key, reason);
    let material_index = |key: &str, name: &str| material_index(r, materials, key, name);
    let mut walls: Vec<WallSpec> = Vec::new();
    let dir = path.parent().unwrap_or(Path::new("."));
    for (k, w) in file.wall.iter().enumerate() {
        let material = material_index(&format!("wall[{}].material", k + 1), &w.material)?;
        let spec = parse_wall(f, k + 1, w, material, dir)?;
        if walls.iter().any(|o| o.name == spec.name) {
            return Err(err(
                &format!("wall[{}].name", k + 1),
                format!("\"{}\" is the name of another wall", spec.name),
            ));
        }
        walls.push(spec);
    }
    Ok(walls)
}
