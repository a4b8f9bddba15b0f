//! `[[ball]]`, `[[generate]]` and `[[clump]]`: the bodies of the case.

use super::materials::material_index;
use super::reader::{dofs, finite3, positive, Reader};
use super::{BallSection, CaseError, CaseFile, ClumpSection, GenerateSection};
use crate::body::{dof, BallSpec, ClumpSpec, MassSpec, Material, PebbleSpec};
use crate::math::{Real, Vec3};

/// The balls given one by one (ids default to their number in the file).
pub(super) fn parse_balls(
    r: &Reader,
    file: &CaseFile,
    materials: &[Material],
) -> Result<Vec<BallSpec>, CaseError> {
    let f = r.f;
    let dim = r.dim;
    let err = |key: &str, reason: String| r.err(key, reason);
    let point = |key: &str, v: &[f64]| r.point(key, v);
    let material_index = |key: &str, name: &str| material_index(r, materials, key, name);
    let mut balls: Vec<BallSpec> = Vec::new();
    balls.reserve_exact(file.ball.len());
    for (k, b) in file.ball.iter().enumerate() {
        if let Some(spec) = plain_ball(b, k, dim, materials) {
            balls.push(spec);
            continue;
        }
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
    // repeated ids: sorted by (id, position), a repeat sits after its first owner; the one
    // reported is the earliest repeat in the file
    let mut order: Vec<(u64, usize)> = balls.iter().enumerate().map(|(k, b)| (b.id, k)).collect();
    order.sort_unstable();
    let mut repeat: Option<(usize, usize)> = None;
    let mut first = 0;
    for w in 1..order.len() {
        if order[w].0 != order[w - 1].0 {
            first = w;
        } else if repeat.is_none_or(|(k, _)| order[w].1 < k) {
            repeat = Some((order[w].1, order[first].1));
        }
    }
    if let Some((k, j)) = repeat {
        return Err(err(
            &format!("ball[{}].id", k + 1),
            format!("id {} is already used by ball[{}]", balls[k].id, j + 1),
        ));
    }
    Ok(balls)
}

/// A ball with nothing to check beyond the plain (a known material, a positive finite radius,
/// finite position, velocity and force of the model's dimension; no spin, fixed DOFs or mass),
/// read without making the error keys the checks would need (most balls of a large packing).
/// None: the full checks must run.
fn plain_ball(b: &BallSection, k: usize, dim: usize, materials: &[Material]) -> Option<BallSpec> {
    if b.spin.is_some() || b.fix.is_some() || b.mass.is_some() || b.inertia.is_some() {
        return None;
    }
    if !(b.radius.is_finite() && b.radius > 0.0) {
        return None;
    }
    let material = materials.iter().position(|m| m.name == b.material)?;
    let vector = |v: Option<&Vec<f64>>| -> Option<Vec3> {
        match v {
            None => Some(Vec3::zeros()),
            Some(v) if v.len() == dim && v.iter().all(|x| x.is_finite()) => {
                Some(Vec3::new(v[0], v[1], if dim == 3 { v[2] } else { 0.0 }))
            }
            Some(_) => None,
        }
    };
    Some(BallSpec {
        id: b.id.unwrap_or(k as u64 + 1),
        pos: vector(Some(&b.pos))?,
        radius: b.radius,
        material,
        vel: vector(b.vel.as_ref())?,
        spin: Vec3::zeros(),
        applied_force: vector(b.force.as_ref())?,
        fixed: 0,
        mass: None,
    })
}

/// Adds the generated balls to `balls` (ids after the largest so far); refuses a lattice ball
/// that overlaps another.
pub(super) fn parse_generate(
    r: &Reader,
    file: &CaseFile,
    materials: &[Material],
    balls: &mut Vec<BallSpec>,
) -> Result<(), CaseError> {
    let f = r.f;
    let err = |key: &str, reason: String| r.err(key, reason);
    let material_index = |key: &str, name: &str| material_index(r, materials, key, name);
    let explicit = balls.len();
    for (k, g) in file.generate.iter().enumerate() {
        let key = |s: &str| format!("generate[{}].{s}", k + 1);
        let material = material_index(&key("material"), &g.material)?;
        if g.count == 0 {
            return Err(err(&key("count"), "must be at least 1".into()));
        }
        // (checked before anything is placed: the generators allocate their balls up front)
        crate::storage::fits(
            g.count.saturating_add(balls.len() as u64),
            crate::storage::BALL_BYTES,
        )
        .map_err(|e| err(&key("count"), format!("{e} (with the balls before it)")))?;
        if g.kind == "settle-box" {
            settle_box(r, k, g, material, balls)?;
            continue;
        }
        let placed = place(r, k, g)?;
        let vel = finite3(f, &key("vel"), g.vel.unwrap_or([0.0; 3]))?;
        let fixed = dofs(f, &key("fix"), g.fix.as_deref())?;
        let first_id = balls.iter().map(|b| b.id).max().unwrap_or(0) + 1;
        for (next_id, (p, r)) in (first_id..).zip(placed) {
            balls.push(BallSpec {
                vel,
                fixed,
                ..BallSpec::at_rest(next_id, p, r, material)
            });
        }
    }
    let touching_on_purpose = file.generate.iter().any(|g| g.kind != "lattice");
    if balls.len() > explicit && !touching_on_purpose {
        if let Some((i, j)) = first_overlap(balls, explicit, r.cell.as_ref()) {
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
    Ok(())
}

/// `[[generate]]` number `k` (from 0) of kind `settle-box`: the peer benchmark's scene, its
/// geometry fixed; its balls of `material` added to `balls`.
fn settle_box(
    r: &Reader,
    k: usize,
    g: &GenerateSection,
    material: usize,
    balls: &mut Vec<BallSpec>,
) -> Result<(), CaseError> {
    let f = r.f;
    let key = |s: &str| format!("generate[{}].{s}", k + 1);
    for (name, given) in [
        ("min", g.min.is_some()),
        ("max", g.max.is_some()),
        ("radius", g.radius.is_some()),
        ("overlap", g.overlap.is_some()),
    ] {
        if given {
            return Err(r.err(&key(name), "the settle-box scene fixes its geometry (radius 1 mm, spacing 2.5 mm, box from the count; benches/peers/SCENE.md): leave this key out".into()));
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
        let radius = crate::generate::SETTLE_BOX_RADIUS;
        balls.push(BallSpec {
            vel,
            fixed,
            ..BallSpec::at_rest(id, p, radius, material)
        });
    }
    Ok(())
}

/// The centres and radii `[[generate]]` number `k` (from 0) places: a lattice, a cubic
/// packing or a cluster in its region, after its region, radii and overlap are checked.
fn place(r: &Reader, k: usize, g: &GenerateSection) -> Result<Vec<([Real; 3], Real)>, CaseError> {
    let f = r.f;
    let err = |key: &str, reason: String| r.err(key, reason);
    let key = |s: &str| format!("generate[{}].{s}", k + 1);
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
    let overlap = generated_overlap(r, k, g, radius[0])?;
    Ok(match g.kind.as_str() {
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
    })
}

/// The overlap of the balls of `[[generate]]` number `k` (from 0): none for a lattice, else a
/// length below the smallest radius `smallest` (0 when not given).
fn generated_overlap(
    r: &Reader,
    k: usize,
    g: &GenerateSection,
    smallest: Real,
) -> Result<Real, CaseError> {
    let key = |s: &str| format!("generate[{}].{s}", k + 1);
    Ok(match (g.kind.as_str(), g.overlap) {
        ("lattice", Some(_)) => {
            return Err(r.err(
                &key("overlap"),
                "does not apply to the lattice generator (its balls never touch)".into(),
            ))
        }
        ("lattice", None) => 0.0,
        (_, Some(o)) if o.is_finite() && o >= 0.0 && o < smallest => o,
        (_, Some(o)) => {
            return Err(r.err(
                &key("overlap"),
                format!("{o}: must be a length in [0, smallest radius) (m)"),
            ))
        }
        (_, None) => 0.0,
    })
}

/// The clumps (ids share one numbering with the balls).
pub(super) fn parse_clumps(
    r: &Reader,
    file: &CaseFile,
    materials: &[Material],
    balls: &[BallSpec],
) -> Result<Vec<ClumpSpec>, CaseError> {
    let f = r.f;
    let err = |key: &str, reason: String| r.err(key, reason);
    let material_index = |key: &str, name: &str| material_index(r, materials, key, name);
    let mut clumps: Vec<ClumpSpec> = Vec::new();
    // each id's ball (its number in the file) or clump: made once, not scanned per clump
    let ball_no: std::collections::HashMap<u64, usize> = balls
        .iter()
        .enumerate()
        .rev()
        .map(|(k, b)| (b.id, k))
        .collect();
    let mut clump_no: std::collections::HashMap<u64, usize> = Default::default();
    let mut last_id = balls.iter().map(|b| b.id).max().unwrap_or(0);
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
        let mass = clump_mass(r, k, c)?;
        let id = match c.id {
            Some(id) => id,
            None => last_id.checked_add(1).ok_or_else(|| {
                err(
                    &key("id"),
                    "no id is left after the largest one in use: give one".into(),
                )
            })?,
        };
        if let Some(b) = ball_no.get(&id) {
            return Err(err(&key("id"), format!("id {id} is already used by a ball (ball ids and clump ids share one numbering; ball number {} of the file)", b + 1)));
        }
        if let Some(j) = clump_no.insert(id, k) {
            return Err(err(
                &key("id"),
                format!("id {id} is already used by clump[{}]", j + 1),
            ));
        }
        last_id = last_id.max(id);
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
    Ok(clumps)
}

/// The mass properties given to clump number `k` (from 0): `mass` and `inertia` together,
/// with its `centroid`, or none (computed from the pebbles).
fn clump_mass(r: &Reader, k: usize, c: &ClumpSection) -> Result<Option<MassSpec>, CaseError> {
    let f = r.f;
    let err = |key: &str, reason: String| r.err(key, reason);
    let key = |s: &str| format!("clump[{}].{s}", k + 1);
    Ok(match (c.mass, c.inertia) {
        (None, None) => {
            if c.centroid.is_some() {
                return Err(err(
                    &key("centroid"),
                    "only with `mass` and `inertia` (otherwise computed from the pebbles)".into(),
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
    })
}

/// The first overlapping pair in which at least one ball has index >= `first_new`.
/// (In a periodic cell, at the nearest images, the balls brought into the cell first.)
fn first_overlap(
    balls: &[BallSpec],
    first_new: usize,
    cell: Option<&crate::geom::Cell>,
) -> Option<(usize, usize)> {
    let mut pos: Vec<Vec3> = balls.iter().map(|b| b.pos).collect();
    if let Some(c) = cell {
        pos.iter_mut().for_each(|p| _ = c.wrap(p));
    }
    let rad: Vec<Real> = balls.iter().map(|b| b.radius).collect();
    let mut bp = crate::detect::BroadPhase::default();
    bp.build(&pos, &rad, 0.0, cell);
    let gap = |i: usize, j: usize| crate::geom::nearest(cell, pos[i] - pos[j]).norm();
    bp.pairs
        .iter()
        .map(|&(i, j)| (i as usize, j as usize))
        .find(|&(i, j)| i.max(j) >= first_new && gap(i, j) < rad[i] + rad[j])
}
