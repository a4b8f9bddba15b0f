//! The powers of the forces of the current cycle (see [`crate::model::EnergyBooks`]): the
//! dashpots' share of each contact force, the cohesive attraction, the rolling couples, the
//! walls' power, the constraints' power and the integrator's sum; the applied forces' work over
//! the last step is booked at once (a constant force's trapezoidal work is its work, exactly).
//! Each account sums its terms exactly ([`ExactSum`]): the same bits in any order of the
//! contacts and bodies.

use crate::comm::Share;
use crate::law::{Cohesion, Pieces};
use crate::math::{ExactSum, ExactVec3, Vec3};
use crate::model::books::Powers;
use crate::model::{EnergyBooks, Model};

/// Adds this rank's terms to the sums of the cycle's powers (`share`: the bodies and the
/// contacts of its own balls; a ball-ball contact by its first ball).
///
/// `went_up`: under Lees-Edwards shear, empty, or for each ball how many lengths up along the
/// gradient it was brought this cycle (-1, 0, 1).
pub(super) fn add_terms(model: &Model, went_up: &[f64], share: &Share, p: &mut Sums) {
    ball_contacts(model, share, p);
    boundary_switch(model, went_up, share, &mut p.book_walls);
    facet_contacts(model, share, p);
    bodies(model, share, p);
}

/// The powers of the cycle's forces at the velocities of the positions' time, from the
/// sums of every rank's terms ([`add_terms`], [`Sums::merge`]); the programmed walls' loads
/// and what is booked at once go to `books`.
pub(super) fn powers(model: &Model, books: &mut EnergyBooks, p: &mut Sums) -> Powers {
    programmed_walls(model, p);
    let pair = |(f, m): &(ExactVec3, ExactVec3)| (f.value(), m.value());
    books.wall_loads = p.wall_loads.iter().map(pair).collect();
    books.wall_couples = p.wall_couples.iter().map(ExactVec3::value).collect();
    books.wall_cohesion = p.wall_cohesion.iter().map(pair).collect();
    books.walls += p.book_walls.value();
    books.rolling += p.book_rolling.value();
    books.cohesion += p.book_cohesion.value();
    books.applied += p.applied.value();
    Powers {
        dashpots: p.dashpots.value(),
        dashpots_accel: p.dashpots_accel.value(),
        models: p.models.value(),
        models_accel: p.models_accel.value(),
        rolling: p.rolling.value(),
        rolling_accel: p.rolling_accel.value(),
        cohesion: p.cohesion.value(),
        cohesion_accel: p.cohesion_accel.value(),
        walls: p.walls.value(),
        constraints: p.constraints.value(),
        s: p.s.value(),
        remap: p.remap.value(),
    }
}

/// The sums of a cycle's powers ([`Powers`], each exact) and of what it books at once: the
/// work over the last step of the applied forces and the boundary's switch ([`boundary_switch`]),
/// the programmed walls' first half step, and their loads; and what the contacts reported
/// losing, and the kinetic energy the Lees-Edwards boundary brought back (`crate::books::book`).
#[derive(Default)]
pub(super) struct Sums {
    dashpots: ExactSum,
    dashpots_accel: ExactSum,
    models: ExactSum,
    models_accel: ExactSum,
    rolling: ExactSum,
    rolling_accel: ExactSum,
    cohesion: ExactSum,
    cohesion_accel: ExactSum,
    walls: ExactSum,
    constraints: ExactSum,
    s: ExactSum,
    remap: ExactSum,
    applied: ExactSum,
    book_walls: ExactSum,
    book_rolling: ExactSum,
    book_cohesion: ExactSum,
    /// What the contacts reported losing, J.
    pub(super) lost: ExactSum,
    /// What the contacts reported as the integration's error, J.
    pub(super) integration: ExactSum,
    /// The work of the Lees-Edwards boundary's velocity jumps, J.
    pub(super) jumped: ExactSum,
    wall_loads: Vec<(ExactVec3, ExactVec3)>,
    wall_couples: Vec<ExactVec3>,
    wall_cohesion: Vec<(ExactVec3, ExactVec3)>,
}

impl Sums {
    /// Empty sums for a model of `walls` walls.
    pub(super) fn new(walls: usize) -> Self {
        let mut p = Sums::default();
        p.wall_loads.resize(walls, Default::default());
        p.wall_couples.resize(walls, Default::default());
        p.wall_cohesion.resize(walls, Default::default());
        p
    }

    /// Every sum, in one order.
    fn each(&mut self) -> Vec<&mut ExactSum> {
        let mut all = vec![
            &mut self.dashpots,
            &mut self.dashpots_accel,
            &mut self.models,
            &mut self.models_accel,
            &mut self.rolling,
            &mut self.rolling_accel,
            &mut self.cohesion,
            &mut self.cohesion_accel,
            &mut self.walls,
            &mut self.constraints,
            &mut self.s,
            &mut self.remap,
            &mut self.applied,
            &mut self.book_walls,
            &mut self.book_rolling,
            &mut self.book_cohesion,
            &mut self.lost,
            &mut self.integration,
            &mut self.jumped,
        ];
        for (f, m) in self.wall_loads.iter_mut().chain(&mut self.wall_cohesion) {
            all.extend(f.0.iter_mut().chain(m.0.iter_mut()));
        }
        for m in &mut self.wall_couples {
            all.extend(m.0.iter_mut());
        }
        all
    }

    /// Merges every rank's sums into each (one exchange, exact: [`Share::merge`]).
    pub(super) fn merge(&mut self, share: &Share) {
        if !share.several() {
            return;
        }
        let mut each = self.each();
        let mut sums: Vec<ExactSum> = each.iter().map(|s| (**s).clone()).collect();
        share.merge(&mut sums);
        for (s, merged) in each.iter_mut().zip(sums) {
            **s = merged;
        }
    }
}

/// The cohesion of contact model `law`, if any.
fn cohesion(model: &Model, law: u16) -> Option<Cohesion> {
    model.cohesion.get(law as usize).copied().flatten()
}

/// Material velocity and acceleration of piece `i` at the point `x` (in a periodic cell, of
/// its image nearest to `x`: under shear, moving with its image cell).
fn motion(model: &Model, i: usize, x: &Vec3) -> (Vec3, Vec3) {
    let b = &model.balls;
    let (v, a) = own_motion(model, i, x);
    match b.cell.as_ref() {
        Some(c) if c.shear.is_some() => {
            // (the point's image moved `up` lengths is the piece's moved `-up`)
            let up = c.nearest_with(x - model.body_centre(i)).1;
            (c.image_velocity(&v, -up), a)
        }
        _ => (v, a),
    }
}

/// [`motion`] of the piece itself, its arm to `x` taken at the nearest image.
fn own_motion(model: &Model, i: usize, x: &Vec3) -> (Vec3, Vec3) {
    let b = &model.balls;
    let dt = model.last_dt;
    if b.is_pebble(i) {
        let c = b.clump[i] as usize;
        let cl = &model.clumps;
        let r = crate::geom::nearest(b.cell.as_ref(), x - cl.pos[c]);
        let w = cl.synchronized_spin(c, dt);
        let alpha = if cl.rotation_fixed(c) {
            Vec3::zeros()
        } else {
            cl.inverse_inertia(c) * cl.moment[c]
        };
        let a = cl.acceleration(c, &model.settings.gravity);
        (model.clump_velocity(c) + w.cross(&r), a + alpha.cross(&r))
    } else {
        let r = crate::geom::nearest(b.cell.as_ref(), x - b.pos[i]);
        let alpha = crate::motion::angular_acceleration(b, i);
        (
            model.synchronized_velocity(i) + model.synchronized_spin(i).cross(&r),
            model.acceleration(i) + alpha.cross(&r),
        )
    }
}

/// Angular velocity and acceleration of piece `i`.
fn turning(model: &Model, i: usize) -> (Vec3, Vec3) {
    let b = &model.balls;
    if b.is_pebble(i) {
        let c = b.clump[i] as usize;
        let cl = &model.clumps;
        let alpha = if cl.rotation_fixed(c) {
            Vec3::zeros()
        } else {
            cl.inverse_inertia(c) * cl.moment[c]
        };
        (cl.synchronized_spin(c, model.last_dt), alpha)
    } else {
        (
            model.synchronized_spin(i),
            crate::motion::angular_acceleration(b, i),
        )
    }
}

/// Ball-ball contacts: the dashpots' share of the applied force, the cohesive attraction, and
/// the couples of rolling resistance.
fn ball_contacts(model: &Model, share: &Share, p: &mut Sums) {
    let b = &model.balls;
    let contacts = &model.contacts;
    let counted = |c: &crate::contact::Contact| c.active && share.own(c.a as usize);
    for (k, c) in contacts.list.iter().enumerate().filter(|(_, c)| counted(c)) {
        let law = &model.laws[c.law as usize];
        let geo = contacts.geometry(k, b);
        let force = contacts.contact_force(k, b, &model.laws);
        let spring = if law.frame_free() {
            law.elastic_shear(geo.overlap, geo.radius, &c.state)
        } else if model.planar {
            let n = geo.normal;
            Vec3::new(-n.y, n.x, 0.0) * c.state.shear_force().y
        } else {
            contacts.frames[k].to_world(&c.state.shear_force())
        };
        let normal = law.elastic_normal(geo.overlap, geo.radius, &c.state);
        // the attraction of a cohesive contact on b (its own account)
        let pieces = Pieces::Spheres(b.radius[c.a as usize], b.radius[c.b as usize]);
        let f_c =
            -geo.normal * cohesion(model, c.law).map_or(0.0, |x| x.force(pieces, geo.overlap));
        let f_d = force - (geo.normal * normal + spring) - f_c;
        if let Some(k) = (b.cell.as_ref()).and_then(|c| c.pressure).map(|p| p.axis) {
            // (the remap carries the bodies' centres affinely: b's moves from a's by the
            // strain times the branch between them, which changes the overlap; the dashpots
            // and the tangential springs see only the velocities)
            let l = crate::geom::nearest(
                b.cell.as_ref(),
                model.body_centre(c.b as usize) - model.body_centre(c.a as usize),
            );
            p.remap.add((geo.normal * normal + f_c)[k] * l[k]);
        }
        let (va, aa) = motion(model, c.a as usize, &geo.point);
        let (vb, ab) = motion(model, c.b as usize, &geo.point);
        p.dashpots.add(-(f_d.dot(&(vb - va))));
        p.dashpots_accel.add(-(f_d.dot(&(ab - aa))));
        p.cohesion.add(-(f_c.dot(&(vb - va))));
        p.cohesion_accel.add(-(f_c.dot(&(ab - aa))));
        if let Some(cell) = b.cell.as_ref().filter(|c| c.shear.is_some()) {
            // Lees-Edwards: b meets a through its image cell `up` lengths along the gradient,
            // which moves at `up rate L` along the flow; the boundary's power on the balls is
            // F . (v_b - v_b's image) (F the force on b)
            let up = cell
                .image_with(&b.pos[c.a as usize], &b.pos[c.b as usize])
                .1;
            if up != 0.0 {
                let flow = cell.shear.map_or(0, |s| s.flow);
                p.walls.add(-(up * cell.jump() * force[flow]));
            }
        }
    }
    // ball-ball couples of rolling resistance (on b; a takes the opposite)
    for (k, c) in (contacts.list.iter().enumerate())
        .filter(|(k, c)| counted(c) && contacts.couple.get(*k).is_some_and(|m| *m != Vec3::zeros()))
    {
        let m = contacts.couple[k];
        let (wa, aa) = turning(model, c.a as usize);
        let (wb, ab) = turning(model, c.b as usize);
        p.rolling.add(-(m.dot(&(wb - wa))));
        p.rolling_accel.add(-(m.dot(&(ab - aa))));
    }
}

/// Under Lees-Edwards shear, the part of the boundary's work over the last step that this
/// cycle's power misses when a ball of a contact was brought back through a gradient face at
/// the end of the step: over the step its partner was the image it had before (the power
/// `-up U F_flow` is paired with half the step before and half after; the half before must
/// take the old `up`).
fn boundary_switch(model: &Model, went_up: &[f64], share: &Share, w: &mut ExactSum) {
    let b = &model.balls;
    let Some(cell) = b.cell.as_ref().filter(|_| !went_up.is_empty()) else {
        return;
    };
    let flow = cell.shear.map_or(0, |s| s.flow);
    let contacts = &model.contacts;
    let counted = |c: &crate::contact::Contact| c.active && share.own(c.a as usize);
    for (k, c) in contacts.list.iter().enumerate().filter(|(_, c)| counted(c)) {
        // b's image index went down by b's own move, up by a's
        let (a, bb) = (c.a as usize, c.b as usize);
        let change = went_up[a] - went_up[bb];
        if change != 0.0 {
            let force = contacts.contact_force(k, b, &model.laws);
            // old up = new up - change: the half step before with the old one
            w.add(change * cell.jump() * force[flow] * 0.5 * model.last_dt);
        }
    }
}

/// Ball-facet contacts: the dashpots' share, the cohesive attraction, the couples, and the
/// walls' power (a programmed wall's loads kept for its work, booked with each step's
/// velocity).
fn facet_contacts(model: &Model, share: &Share, p: &mut Sums) {
    let b = &model.balls;
    let fc = &model.facet_contacts;
    let counted = |c: &crate::contact::FacetContact| c.active && share.own(c.ball as usize);
    for (k, c) in fc.list.iter().enumerate().filter(|(_, c)| counted(c)) {
        let law = &model.laws[c.law as usize];
        let i = c.ball as usize;
        let r = b.radius[i];
        let spring = if law.frame_free() {
            law.elastic_shear(c.overlap, r, &c.state)
        } else {
            fc.frames[k].to_world(&c.state.shear_force())
        };
        let normal = -c.normal * law.elastic_normal(c.overlap, r, &c.state);
        // the attraction of a cohesive contact on the ball, towards the wall: its own
        // account, the ball's share with its velocity, the wall's as the wall's work
        let f_c =
            c.normal * cohesion(model, c.law).map_or(0.0, |x| x.force(Pieces::Wall(r), c.overlap));
        let f_d = c.force - (normal + spring) - f_c;
        let (v, a) = motion(model, i, &c.point);
        let wall = &model.walls[c.wall as usize];
        let v_wall = wall.velocity_at(c.facet as usize, &c.point);
        if f_c != Vec3::zeros() {
            p.cohesion.add(-(f_c.dot(&v)));
            p.cohesion_accel.add(-(f_c.dot(&a)));
            if wall.program.is_some() {
                let load = &mut p.wall_cohesion[c.wall as usize];
                load.0.add(&f_c);
                load.1.add(&(c.point - wall.pivot).cross(&f_c));
            } else {
                p.cohesion.add(f_c.dot(&v_wall));
            }
        }
        let (v_now, a_now) = wall.motion_at(c.facet as usize, &c.point, model.time);
        p.dashpots.add(-(f_d.dot(&(v - v_now))));
        p.dashpots_accel.add(-(f_d.dot(&(a - a_now))));
        if c.pc == c.facet {
            // a proximity contact's normal force (see `ball_facet::update_force`)
            p.models.add(-(normal.dot(&(v - v_now))));
            p.models_accel.add(-(normal.dot(&(a - a_now))));
        }
        let w = c.wall as usize;
        let couple = fc.couple_of(k);
        if couple != Vec3::zeros() {
            // the couple on the ball; the wall, turning at its spin, takes the opposite (a
            // programmed wall's share is booked with each step's spin, as its work is)
            let (wb, ab) = turning(model, i);
            p.rolling.add(-(couple.dot(&wb)));
            p.rolling_accel.add(-(couple.dot(&ab)));
            if wall.program.is_some() {
                p.wall_couples[c.wall as usize].add(&couple);
            } else {
                p.rolling.add(couple.dot(&wall.spin()));
            }
        }
        if model.walls[w].program.is_some() {
            let pivot = model.walls[w].pivot;
            let load = &mut p.wall_loads[w];
            load.0.add(&c.force);
            load.1.add(&((c.point - pivot).cross(&c.force) + couple));
        } else {
            p.walls.add(c.force.dot(&v_wall) + couple.dot(&wall.spin()));
        }
    }
}

/// The programmed walls' first half step at once, with this step's velocity, from their
/// loads summed over every rank (the second half with the next step's, at the next cycle).
fn programmed_walls(model: &Model, p: &mut Sums) {
    let dt = model.last_dt;
    for (w, (f, m)) in p.wall_loads.iter().enumerate() {
        let (v, s) = model.walls[w].rigid_velocity();
        (p.book_walls).add((f.value().dot(&v) + m.value().dot(&s)) * 0.5 * dt);
    }
    for (w, m) in p.wall_couples.iter().enumerate() {
        let s = model.walls[w].rigid_velocity().1;
        (p.book_rolling).add(m.value().dot(&s) * 0.5 * dt);
    }
    for (w, (f, m)) in p.wall_cohesion.iter().enumerate() {
        let (v, s) = model.walls[w].rigid_velocity();
        (p.book_cohesion).add((f.value().dot(&v) + m.value().dot(&s)) * 0.5 * dt);
    }
}

/// The bodies: the integrator's sum, the constraints' power, the applied forces' work.
fn bodies(model: &Model, share: &Share, p: &mut Sums) {
    let b = &model.balls;
    let g = model.settings.gravity;
    let dt = model.last_dt;
    for i in 0..b.len() {
        if b.is_pebble(i) || !share.own(i) {
            continue;
        }
        let fixed = b.fixed[i];
        let f = b.force[i] + g * b.mass[i];
        for k in 0..3 {
            if fixed & (1 << k) == 0 {
                let total = f[k] + b.applied_force[i][k];
                p.s.add(total * total / b.inertial_mass[i]);
                p.applied.add(b.applied_force[i][k] * b.vel[i][k] * dt);
            } else {
                p.constraints.add(-(f[k] * b.vel[i][k]));
            }
            if fixed & (8 << k) == 0 {
                p.s.add(b.moment[i][k] * b.moment[i][k] / b.inertial_inertia[i]);
            } else {
                p.constraints.add(-(b.moment[i][k] * b.spin[i][k]));
            }
        }
    }
    let cl = &model.clumps;
    for c in (0..cl.len()).filter(|_| share.root()) {
        let f = cl.force[c] + g * cl.mass[c];
        for k in 0..3 {
            if cl.fixed[c] & (1 << k) == 0 {
                let total = f[k] + cl.applied_force[c][k];
                p.s.add(total * total / cl.inertial_mass[c]);
                p.applied.add(cl.applied_force[c][k] * cl.vel[c][k] * dt);
            } else {
                p.constraints.add(-(f[k] * cl.vel[c][k]));
            }
        }
        if cl.rotation_fixed(c) {
            p.constraints.add(-(cl.moment[c].dot(&cl.spin[c])));
        } else {
            p.s.add(cl.moment[c].dot(&(cl.inverse_inertia(c) * cl.moment[c])));
        }
    }
}
