//! A new stage from another run's state (`ballast run NEXT.toml --from CKPT`, docs/CASES.md
//! section 15): the checkpoint's model, with the settings, materials, contact models, walls'
//! motions, insertions and measurements of the next case, and its own bodies added beside the
//! loaded ones. What a checkpoint must share with the case to resume it (`--resume`) is
//! checked here too.

use crate::case::Case;
use crate::contact::NO_LAW;
use crate::model::Model;
use crate::timestep::TimestepMode;

/// The model a stage of `case` starts from: `old` (a checkpoint's) with the settings of
/// `next` (the case's own model, built fresh) and the case's balls and clumps added.
///
/// # Errors
/// What does not fit, naming it: another dimension, a material or wall of the checkpoint the
/// case lacks, a wall of another mesh, a scaled timestep given up, an added body that overlaps
/// a loaded one.
pub fn adopt(old: Model, next: Model, case: &Case) -> Result<Model, String> {
    let dim = |planar: bool| if planar { 2 } else { 3 };
    if old.planar != next.planar {
        return Err(format!(
            "the checkpoint holds a run of dim = {}, this case is dim = {}: a stage keeps the \
             dimension",
            dim(old.planar),
            dim(next.planar)
        ));
    }
    let scaled = |m: &Model| matches!(m.settings.timestep, TimestepMode::Scaled(_));
    if scaled(&old) && !scaled(&next) {
        return Err(
            "the checkpoint ran with a scaled timestep (its bodies carry fictitious \
                    inertial masses): this case must keep [timestep] mode = \"scaled\""
                .into(),
        );
    }
    let mut m = old;
    let cell_changed = adopt_cell(&mut m, &next)?;
    remap_materials(&mut m, &next)?;
    let (walls, walls_kept) = pose_walls(&m, next.walls.clone())?;
    let keep = walls_kept && m.settings.frame == next.settings.frame && laws_kept(&m, &next);
    let mut changed = !keep;
    if !keep && next.laws.iter().any(crate::law::ContactModel::bonds) {
        return Err(
            "the contact models, the [frame] settings or the order of the walls differ \
                    from the checkpoint's, so every contact would start afresh, and a bonding \
                    model (linearbond) bonds balls at a run's first cycle only: keep the \
                    checkpoint's contact models, frame and walls for a bonded assembly"
                .into(),
        );
    }
    if keep {
        renumber_laws(&mut m, &next);
    } else {
        m.contacts = Default::default();
        m.facet_contacts = Default::default();
    }
    changed |= m.settings.margin != next.settings.margin || cell_changed;
    m.settings.gravity = next.settings.gravity;
    m.settings.margin = next.settings.margin;
    m.settings.frame = next.settings.frame;
    if m.settings.timestep != next.settings.timestep {
        m.settings.timestep = next.settings.timestep.clone();
    }
    m.walls = walls;
    m.laws = next.laws.clone();
    m.rolling = next.rolling.clone();
    m.cohesion = next.cohesion.clone();
    m.pair_law = next.pair_law.clone();
    m.materials = next.materials.clone();
    m.sort_every = next.sort_every;
    m.sort_order = next.sort_order;
    m.measures = next.measures.clone();
    m.phases = None;
    m.flow = next.flow.clone();
    changed |= add_bodies(&mut m, &next, case)?;
    // (the loaded balls meet materials this case's own bodies may not: every pair needs a
    // model)
    m.check_contact_models().map_err(|e| e.to_string())?;
    if changed {
        // (contacts found again and forces computed for the new settings before the first
        // cycle; the kept contacts keep their state)
        m.primed = false;
    }
    Ok(m)
}

/// The periodic cell of the stage: the checkpoint's, with the shear `next` asks for. A cell
/// is part of the state (the balls lie in it, the images keep their offset), so `next` must
/// give the same corners and axes; a bounded checkpoint may become periodic. True when the
/// candidate pairs must be found again.
///
/// # Errors
/// A cell dropped or changed, or images left offset by a stage without shear.
fn adopt_cell(m: &mut Model, next: &Model) -> Result<bool, String> {
    let (old, new) = (m.balls.cell.clone(), next.balls.cell.clone());
    match (old, new) {
        (None, None) => Ok(false),
        (None, Some(c)) => {
            m.balls.cell = Some(c);
            m.broad_phase.invalidate();
            Ok(true)
        }
        (Some(_), None) => Err("the checkpoint holds a periodic cell and this case has no \
             [domain]: a stage keeps the cell (give the checkpoint's min, max and periodic)"
            .into()),
        (Some(o), Some(c)) => {
            // (a length the checkpoint's pressure servo controlled goes on from the checkpoint)
            let servoed = |k: usize| o.pressure.is_some_and(|p| p.axis == k);
            let same_lengths = (0..3).all(|k| servoed(k) || o.len[k] == c.len[k]);
            if o.min != c.min || !same_lengths || o.periodic != c.periodic {
                return Err(format!(
                    "[domain] differs from the checkpoint's cell (min {:?}, lengths {:?}, \
                     periodic {:?}): a stage keeps the cell its balls lie in",
                    o.min.as_slice(),
                    o.len.as_slice(),
                    o.periodic
                ));
            }
            let axes = |s: Option<crate::geom::Shear>| s.map(|s| (s.flow, s.gradient));
            if o.offset != 0.0 && axes(c.shear) != axes(o.shear) {
                return Err(format!(
                    "the checkpoint's Lees-Edwards images are offset by {} m: a stage without \
                     that shear (the same flow and gradient) would move them at once (keep \
                     it, at rate 0 to stop it)",
                    o.offset
                ));
            }
            let changed = c.shear != o.shear || c.pressure != o.pressure;
            if let Some(cell) = m.balls.cell.as_mut() {
                // (the offset and strain go on from the checkpoint's; a servo of other
                // settings starts from rest)
                cell.shear = c.shear;
                if c.pressure != o.pressure {
                    cell.pressure = c.pressure;
                    cell.dilation = 0.0;
                }
            }
            if changed {
                m.broad_phase.invalidate();
            }
            Ok(changed)
        }
    }
}

/// Gives each piece of `m` the index of its material by name in `next`.
///
/// # Errors
/// A piece whose material `next` lacks, naming it.
fn remap_materials(m: &mut Model, next: &Model) -> Result<(), String> {
    let index: Vec<Option<u16>> = (m.materials.iter())
        .map(|a| (next.materials.iter()).position(|b| b.name == a.name))
        .map(|j| j.map(|j| j as u16))
        .collect();
    for i in 0..m.balls.len() {
        let k = m.balls.material[i] as usize;
        match index.get(k).copied().flatten() {
            Some(j) => m.balls.material[i] = j,
            None => {
                let name = m.materials.get(k).map_or("?", |x| x.name.as_str());
                return Err(format!(
                    "{} of the checkpoint is of material \"{name}\", which this case does not \
                     define (materials are matched by name: add [material.{name}])",
                    m.piece_label(i)
                ));
            }
        }
    }
    Ok(())
}

/// The walls of `next` (in its order) each with the pose of the checkpoint's wall of its
/// name, and whether the checkpoint's walls are the first ones in the same order (then the
/// ball-wall contacts keep their wall numbers).
///
/// # Errors
/// A wall of the checkpoint missing from `next`, or of another mesh.
fn pose_walls(
    m: &Model,
    mut walls: Vec<crate::body::Wall>,
) -> Result<(Vec<crate::body::Wall>, bool), String> {
    let mut same_order = true;
    for (k, old) in m.walls.iter().enumerate() {
        let Some(j) = walls.iter().position(|w| w.name == old.name) else {
            return Err(format!(
                "wall \"{}\" of the checkpoint is not in this case: every wall of the \
                 checkpoint must be there, by name (its pose comes from the checkpoint, its \
                 motion from the case)",
                old.name
            ));
        };
        walls[j].take_pose(old)?;
        same_order &= j == k;
    }
    Ok((walls, same_order))
}

/// True when every contact of `m` (materials already renumbered for `next`) has in `next` the
/// same contact model, rolling resistance and cohesion as in `m`.
fn laws_kept(m: &Model, next: &Model) -> bool {
    let n = next.materials.len();
    let same = |old: u16, a: u16, b: u16| {
        let new = next.pair_law[a as usize * n + b as usize];
        let (o, w) = (old as usize, new as usize);
        new != NO_LAW
            && old != NO_LAW
            && m.laws[o] == next.laws[w]
            && m.rolling[o] == next.rolling[w]
            && m.cohesion[o] == next.cohesion[w]
    };
    let mat = &m.balls.material;
    let balls = (m.contacts.list.iter()).all(|c| same(c.law, mat[c.a as usize], mat[c.b as usize]));
    let walls = (m.facet_contacts.list.iter()).all(|c| {
        let wall = next.walls[c.wall as usize].material as u16;
        same(c.law, mat[c.ball as usize], wall)
    });
    balls && walls
}

/// Gives every contact of `m` the number of its contact model in `next` (the same model:
/// [`laws_kept`]).
fn renumber_laws(m: &mut Model, next: &Model) {
    let n = next.materials.len();
    let law = |a: u16, b: u16| next.pair_law[a as usize * n + b as usize];
    let mat = &m.balls.material;
    for c in &mut m.contacts.list {
        c.law = law(mat[c.a as usize], mat[c.b as usize]);
    }
    for c in &mut m.facet_contacts.list {
        c.law = law(
            mat[c.ball as usize],
            next.walls[c.wall as usize].material as u16,
        );
    }
}

/// Adds the balls and clumps of `case` (those of `next`) to `m`, their ids after the largest
/// one in `m`; true when it added any.
///
/// # Errors
/// A piece that overlaps a loaded one, naming it; a body the model refuses.
fn add_bodies(m: &mut Model, next: &Model, case: &Case) -> Result<bool, String> {
    let nb = &next.balls;
    if nb.is_empty() {
        return Ok(false);
    }
    let (mut lo, mut hi) = (nb.pos[0], nb.pos[0]);
    let mut r_max: crate::math::Real = 0.0;
    for i in 0..nb.len() {
        lo = lo.inf(&nb.pos[i]);
        hi = hi.sup(&nb.pos[i]);
        r_max = r_max.max(nb.radius[i]);
    }
    let zone = crate::geom::Zone::Box { min: lo, max: hi };
    let loaded = crate::flow::Obstacles::new(&zone, r_max, &m.balls, &[]);
    for i in 0..nb.len() {
        if !loaded.is_free(&nb.pos[i], nb.radius[i]) {
            let p = nb.pos[i];
            return Err(format!(
                "{} of this case (at [{}, {}, {}], radius {}) overlaps a ball or clump of the \
                 checkpoint: the bodies a case adds must lie clear of the loaded ones",
                next.piece_label(i),
                p.x,
                p.y,
                p.z,
                nb.radius[i]
            ));
        }
    }
    let largest = (m.balls.id.iter().chain(&m.clumps.id)).max().copied();
    let shift = largest.unwrap_or(0);
    for b in &case.balls {
        let mut spec = b.clone();
        spec.id += shift;
        m.add_ball(&spec).map_err(|e| e.to_string())?;
    }
    for c in &case.clumps {
        let mut spec = c.clone();
        spec.id += shift;
        m.add_clump(&spec).map_err(|e| e.to_string())?;
    }
    Ok(true)
}

/// Refuses a checkpoint whose state cannot be a run of the case whose model (built fresh) is
/// `built`: another dimension, other materials, other walls, or (without insertions and
/// outlets, and unless the run is a `stage` from another run's state) another number of
/// pieces.
///
/// # Errors
/// What differs, as a sentence.
pub fn fits_case(state: &Model, built: &Model, stage: bool) -> Result<(), String> {
    let differs = |what: &str, a: String, b: String| {
        Err(format!(
            "its state does not fit this case ({what}: {a} in the checkpoint, {b} in the case)"
        ))
    };
    let names = |m: &Model| -> Vec<String> {
        let mut v: Vec<String> = m.materials.iter().map(|x| x.name.clone()).collect();
        v.extend(m.walls.iter().map(|w| format!("wall {}", w.name)));
        v
    };
    if state.planar != built.planar {
        let dim = |m: &Model| if m.planar { "2" } else { "3" }.to_string();
        return differs("dim", dim(state), dim(built));
    }
    if names(state) != names(built) {
        return differs(
            "materials and walls",
            names(state).join(", "),
            names(built).join(", "),
        );
    }
    let pieces = |m: &Model| (m.balls.len(), m.clumps.len());
    let fixed = built.flow.inserts.is_empty() && built.flow.outlets.is_empty() && !stage;
    if fixed && pieces(state) != pieces(built) {
        let show = |(b, c): (usize, usize)| match c {
            0 => format!("{b} balls"),
            c => format!("{b} balls and pebbles, {c} clumps"),
        };
        return differs("bodies", show(pieces(state)), show(pieces(built)));
    }
    Ok(())
}
