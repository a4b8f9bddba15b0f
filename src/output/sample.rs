//! How each series is read from a model: [`Source::sample`], one function per kind of body.

use super::source::{
    BallQuantity, ClumpQuantity, MeasureQuantity, PairQuantity, Pieces, Source, WallQuantity,
};
use crate::math::{exact_sum, exact_sum3, Real};
use crate::model::Model;

impl Source {
    /// Appends the current value(s) to `out`.
    pub fn sample(&self, model: &Model, out: &mut Vec<Real>) {
        let b = &model.balls;
        match *self {
            Source::Ball(i, q) => sample_ball(model, i, q, out),
            Source::Pair(i, j, q) => sample_pair(model, (i, j), q, out),
            Source::BallWall(i, w, q) => sample_ball_wall(model, (i, i + 1), w, q, out),
            Source::GroupWall(p, w, q) => sample_ball_wall(model, p, w, q, out),
            Source::Group(pa, pb, q) => sample_group(model, pa, pb, q, out),
            Source::Clump(c, q) => sample_clump(model, c, q, out),
            Source::Wall(w, q) => sample_wall(model, w, q, out),
            Source::ContactsActive => out.push(
                (model.contacts.active_count() + model.facet_contacts.active_count()) as Real,
            ),
            Source::Handovers => out.push(model.facet_contacts.handovers as Real),
            Source::BallContacts => out.push(model.contacts.active_count() as Real),
            Source::WallContacts => out.push(model.facet_contacts.active_count() as Real),
            Source::MeanPos => {
                let sum = exact_sum3(b.pos.iter().copied());
                let mean = sum / (b.len().max(1) as Real);
                out.extend_from_slice(mean.as_slice());
            }
            Source::Momentum => {
                let cl = &model.clumps;
                let balls = (0..b.len()).filter(|&i| !b.is_pebble(i));
                let sum = exact_sum3(
                    (balls.map(|i| b.vel[i] * b.inertial_mass[i]))
                        .chain((0..cl.len()).map(|c| cl.vel[c] * cl.inertial_mass[c])),
                );
                out.extend_from_slice(sum.as_slice());
            }
            Source::DomainSize => {
                let len = b
                    .cell
                    .as_ref()
                    .map_or(crate::math::Vec3::zeros(), |c| c.len);
                out.extend_from_slice(len.as_slice());
            }
            Source::DomainStress => out.extend_from_slice(&super::cell_stress(model)),
            Source::ShearOffset => out.push(b.cell.as_ref().map_or(0.0, |c| c.offset)),
            Source::ShearStrain => out.push(b.cell.as_ref().map_or(0.0, |c| c.strain)),
            Source::SolidFraction => {
                let cell = b.cell.as_ref();
                let pi = std::f64::consts::PI;
                let solid = exact_sum((0..b.len()).map(|i| match model.planar {
                    true => pi * b.radius[i] * b.radius[i],
                    false => 4.0 / 3.0 * pi * b.radius[i].powi(3),
                }));
                out.push(cell.map_or(Real::NAN, |c| solid / c.volume(model.planar)));
            }
            Source::Top => {
                let up = if model.planar { 1 } else { 2 };
                let top = (0..b.len())
                    .map(|i| b.pos[i][up] + b.radius[i])
                    .fold(Real::NEG_INFINITY, Real::max);
                out.push(top);
            }
            Source::Hidden => out.push(model.facet_contacts.hidden as Real),
            Source::Proximity => out.push(model.facet_contacts.proximity as Real),
            Source::FixedForce => {
                let all = crate::body::dof::TRANSLATION;
                let f = exact_sum3(
                    (0..b.len())
                        .filter(|&i| b.fixed[i] & all == all && !b.is_pebble(i))
                        .map(|i| b.force[i]),
                );
                out.extend_from_slice(f.as_slice());
            }
            Source::Kinetic => out.push(model.kinetic_energy()),
            Source::Strain => out.push(model.strain_energy()),
            Source::Potential => out.push(model.potential_energy()),
            Source::Dissipated => out.push(model.energy_books().map_or(0.0, |b| b.dissipated())),
            Source::Work => out.push(model.energy_books().map_or(0.0, |b| b.work())),
            Source::Balance => out.push(model.energy_balance()),
            Source::Integrator => out.push(model.energy_books().map_or(0.0, |b| b.integrator)),
            Source::Dashpots => out.push(model.energy_books().map_or(0.0, |b| b.dashpots)),
            Source::Models => out.push(model.energy_books().map_or(0.0, |b| b.contacts)),
            Source::Exchanged => out.push(model.flow.exchanged),
            Source::InsertCount(k) => out.push(model.flow.inserts[k].placed as Real),
            Source::InsertMass(k) => out.push(model.flow.inserts[k].placed_mass),
            Source::InsertPending(k) => out.push(model.flow.inserts[k].pending),
            Source::OutletCount(k) => out.push(model.flow.outlets[k].count as Real),
            Source::OutletMass(k) => out.push(model.flow.outlets[k].mass),
            Source::BallsCount => out.push(model.ball_count_and_mass().0 as Real),
            Source::BallsMass => out.push(model.ball_count_and_mass().1),
            Source::Measure(k, q) => sample_measure(model, k, q, out),
            Source::Dt => out.push(model.last_dt),
            Source::UnbalancedRatio => out.push(model.unbalanced_ratio()),
        }
    }
}

/// A quantity of ball `i`.
fn sample_ball(model: &Model, i: usize, q: BallQuantity, out: &mut Vec<Real>) {
    let b = &model.balls;
    let v = match q {
        BallQuantity::Pos => b.shown(i),
        BallQuantity::Vel => model.synchronized_velocity(i),
        BallQuantity::Spin => model.synchronized_spin(i),
        BallQuantity::Force => b.force[i],
        BallQuantity::Moment => b.moment[i],
    };
    out.extend_from_slice(v.as_slice());
}

/// A quantity of the interaction of balls `i` and `j`.
fn sample_pair(model: &Model, (i, j): (usize, usize), q: PairQuantity, out: &mut Vec<Real>) {
    let b = &model.balls;
    let contacts = &model.contacts;
    // the force and the normal of the active contact
    let contact = contacts.find_active(i as u32, j as u32).map(|k| {
        (
            contacts.contact_force(k, b, &model.laws),
            contacts.geometry(k, b).normal,
        )
    });
    let d = b.partner(i, j) - b.pos[i];
    match q {
        PairQuantity::Active => out.push(contact.is_some() as u8 as Real),
        PairQuantity::NormalForce => out.push(contact.map_or(0.0, |(f, n)| f.dot(&n).abs())),
        PairQuantity::ShearForce => {
            out.push(contact.map_or(0.0, |(f, n)| (f - n * f.dot(&n)).norm()))
        }
        PairQuantity::Normal => {
            let n = d.try_normalize(0.0).unwrap_or_default();
            out.extend_from_slice(n.as_slice());
        }
        PairQuantity::Overlap => out.push(b.radius[i] + b.radius[j] - d.norm()),
        // Refused by `parse`.
        PairQuantity::Touching => out.push(Real::NAN),
    }
}

/// A quantity of clump `c`.
fn sample_clump(model: &Model, c: usize, q: ClumpQuantity, out: &mut Vec<Real>) {
    let b = &model.balls;
    let cl = &model.clumps;
    let v = match q {
        ClumpQuantity::Body(BallQuantity::Pos) => cl.pos[c],
        ClumpQuantity::Body(BallQuantity::Vel) => model.clump_velocity(c),
        ClumpQuantity::Body(BallQuantity::Spin) => cl.synchronized_spin(c, model.last_dt),
        ClumpQuantity::Body(BallQuantity::Force) => cl.force[c],
        ClumpQuantity::Body(BallQuantity::Moment) => cl.moment[c],
        ClumpQuantity::AngMom => cl.synchronized_angmom(c, model.last_dt),
        ClumpQuantity::Pebble(k) => b.pos[cl.first[c] as usize + k],
        ClumpQuantity::PebbleForce(k) => b.force[cl.first[c] as usize + k],
    };
    out.extend_from_slice(v.as_slice());
}

/// A quantity of wall `w`.
fn sample_wall(model: &Model, w: usize, q: WallQuantity, out: &mut Vec<Real>) {
    let v = match q {
        WallQuantity::Force => model.wall_resultant(w).0,
        WallQuantity::Moment => model.wall_resultant(w).1,
        WallQuantity::Rotation => model.walls[w].rotation.scaled_axis(),
        WallQuantity::Pos => model.walls[w].pivot,
        WallQuantity::Vel => match &model.walls[w].motion {
            crate::body::WallMotion::Rigid { vel, .. } => *vel,
            crate::body::WallMotion::Deformable { .. } => crate::math::Vec3::zeros(),
        },
    };
    out.extend_from_slice(v.as_slice());
}

/// A quantity of measurement region `k`.
fn sample_measure(model: &Model, k: usize, q: MeasureQuantity, out: &mut Vec<Real>) {
    put_measured(&super::measure::measure(model, &model.measures[k]), q, out);
}

/// Appends quantity `q` of what a region measured to `out`.
pub(super) fn put_measured(m: &super::Measured, q: MeasureQuantity, out: &mut Vec<Real>) {
    match q {
        MeasureQuantity::Stress => out.extend_from_slice(&m.stress),
        MeasureQuantity::Fabric => out.extend_from_slice(&m.fabric),
        MeasureQuantity::Coordination => out.push(m.coordination),
        MeasureQuantity::Porosity => out.push(m.porosity),
        MeasureQuantity::Mass => out.push(m.mass),
        MeasureQuantity::Velocity => out.extend_from_slice(m.velocity.as_slice()),
    }
}

/// An interaction between ball `i` and wall `w`. With active contacts: their number, the
/// resultant normal `N = sum U_k n_k / |sum U_k n_k|` (overlap-weighted, from the ball towards
/// the wall), the normal and shear parts of the resultant force on the ball along `N`, and the
/// largest overlap. Without: zeros, the direction to the nearest facet, and the (negative)
/// overlap `R - d` to it, found over every facet of the wall.
/// For a clump, the interactions of all its pebbles with the wall count as one; the nearest
/// facet is the one closest to a pebble's surface.
fn sample_ball_wall(model: &Model, p: Pieces, w: usize, q: PairQuantity, out: &mut Vec<Real>) {
    use crate::math::Vec3;
    let fc = &model.facet_contacts;
    let runs = || (p.0..p.1).filter_map(|i| fc.interaction(i as u32, w as u32));
    let active: Vec<&crate::contact::FacetContact> = runs()
        .flat_map(|it| fc.contacts_of(it).iter().filter(|c| c.active))
        .collect();
    // (vector from the piece's centre to the nearest point, that piece's index)
    let nearest_of = || {
        let wall = &model.walls[w];
        (p.0..p.1)
            .flat_map(|i| {
                let x = model.balls.pos[i];
                (0..wall.mesh.len()).map(move |f| {
                    (
                        crate::geom::closest_point(&x, &wall.mesh.corners(f)).point - x,
                        i,
                    )
                })
            })
            .min_by(|a, b| {
                (a.0.norm() - model.balls.radius[a.1])
                    .total_cmp(&(b.0.norm() - model.balls.radius[b.1]))
            })
            .unwrap_or((Vec3::zeros(), p.0))
    };
    let nearest = || nearest_of().0;
    let normal = || {
        let s = exact_sum3(active.iter().map(|c| c.normal * c.overlap));
        s.try_normalize(0.0)
            .unwrap_or_else(|| nearest().try_normalize(0.0).unwrap_or_else(Vec3::zeros))
    };
    let force = || exact_sum3(active.iter().map(|c| c.force));
    match q {
        PairQuantity::Active => out.push(active.len() as Real),
        PairQuantity::Touching => out.push(
            runs()
                .map(|it| fc.contacts_of(it).iter().filter(|c| c.touching).count())
                .sum::<usize>() as Real,
        ),
        PairQuantity::NormalForce => out.push(force().dot(&normal()).abs()),
        PairQuantity::ShearForce => {
            let (f, n) = (force(), normal());
            out.push((f - n * f.dot(&n)).norm())
        }
        PairQuantity::Normal => out.extend_from_slice(normal().as_slice()),
        PairQuantity::Overlap => {
            out.push(match active.iter().map(|c| c.overlap).reduce(Real::max) {
                Some(u) => u,
                None => {
                    let (d, i) = nearest_of();
                    model.balls.radius[i] - d.norm()
                }
            })
        }
    }
}

/// The interaction of two bodies of which one at least is a clump: every contact between a
/// piece of `a` and a piece of `b`. With active contacts: their number, the overlap-weighted
/// resultant normal from `a` towards `b`, the normal and shear parts of the resultant force on
/// `b` along it, the largest overlap. Without: zeros, the direction of the closest pair of
/// pieces and their (negative) overlap.
fn sample_group(model: &Model, a: Pieces, b: Pieces, q: PairQuantity, out: &mut Vec<Real>) {
    use crate::math::Vec3;
    let balls = &model.balls;
    let mut active = Vec::new();
    // closest pair of pieces: (overlap, unit vector from a's piece to b's)
    let mut closest = (Real::NEG_INFINITY, Vec3::zeros());
    for i in a.0..a.1 {
        for j in b.0..b.1 {
            let g = crate::contact::ball_ball::geometry(
                &balls.pos[i],
                &balls.partner(i, j),
                balls.radius[i],
                balls.radius[j],
            );
            if g.overlap > closest.0 {
                closest = (g.overlap, g.normal);
            }
            if let Some(k) = model.contacts.find_active(i as u32, j as u32) {
                let f = model.contacts.contact_force(k, balls, &model.laws);
                // the contact's force acts on its higher index (`g` is from i to j already)
                let sign = if i < j { 1.0 } else { -1.0 };
                active.push((g.overlap, g.normal, f * sign));
            }
        }
    }
    let normal = exact_sum3(active.iter().map(|(u, n, _)| n * *u))
        .try_normalize(0.0)
        .unwrap_or(closest.1);
    let force = exact_sum3(active.iter().map(|(_, _, f)| *f));
    match q {
        PairQuantity::Active => out.push(active.len() as Real),
        PairQuantity::NormalForce => out.push(force.dot(&normal).abs()),
        PairQuantity::ShearForce => out.push((force - normal * force.dot(&normal)).norm()),
        PairQuantity::Normal => out.extend_from_slice(normal.as_slice()),
        PairQuantity::Overlap => out.push(
            active
                .iter()
                .map(|x| x.0)
                .reduce(Real::max)
                .unwrap_or(closest.0),
        ),
        // Refused by `parse`.
        PairQuantity::Touching => out.push(Real::NAN),
    }
}
