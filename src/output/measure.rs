//! What a measurement region (`[[measure]]`, docs/CASES.md) reads from a model: the
//! Love-Weber average stress, the coordination number, the fabric tensor, the porosity and
//! the mass of the bodies in it.
//!
//! A body is in the region when its reference point is: a ball's centre, a clump's centroid
//! (its pebbles count as the clump). With `V` the region's volume and, for every contact `c`
//! of a body `p` in it, `f` the force on `p` and `l = x_c - x_p` the branch vector from the
//! body's reference point to the contact point, the stress is
//! `sigma = -(1/V) sum_p sum_c f (x) l` (compression positive; ball-ball and ball-wall contacts
//! alike), reported as its symmetric part. For a static packing it is the volume average of the
//! stress in the grains (Love 1927, Weber 1966); for the whole of a packing at rest under
//! gravity, `V sigma_zz` equals `sum_p m_p g z_p` less the wall contacts' `sum f_z z_c` (the
//! virial identity the column case tests).

use crate::geom::Zone;
use crate::math::{ExactSum, ExactTensor, ExactVec3, Real, Vec3};
use crate::model::{Measure, Model};

/// What one region measures at one time.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Measured {
    /// Stress, Pa, compression positive: xx, yy, zz, xy, yz, xz.
    pub stress: [Real; 6],
    /// Contacts carrying force per body (ball-ball and ball-wall).
    pub coordination: Real,
    /// Fabric tensor, the mean of n (x) n over those contacts: xx, yy, zz, xy, yz, xz.
    pub fabric: [Real; 6],
    /// 1 - the volume of the balls (pebbles) inside the region (each sphere cut exactly by its
    /// boundary) over the region's volume.
    pub porosity: Real,
    /// Mass of the bodies in the region, kg.
    pub mass: Real,
    /// Their momentum over their mass, m/s (zero when the region holds none).
    pub velocity: Vec3,
}

/// The region's zone and volume: its own, or for `all` the box that holds the walls (or, with
/// no wall, the balls' extents).
pub fn region_of(model: &Model, m: &Measure) -> Zone {
    if let Some(z) = &m.zone {
        return z.clone();
    }
    let mut lo = Vec3::repeat(Real::INFINITY);
    let mut hi = Vec3::repeat(-Real::INFINITY);
    if model.walls.is_empty() {
        let b = &model.balls;
        for i in 0..b.len() {
            lo = lo.inf(&(b.pos[i] - Vec3::repeat(b.radius[i])));
            hi = hi.sup(&(b.pos[i] + Vec3::repeat(b.radius[i])));
        }
    } else {
        for w in &model.walls {
            for v in &w.mesh.vertices {
                lo = lo.inf(v);
                hi = hi.sup(v);
            }
        }
    }
    if !(lo.iter().all(|x| x.is_finite()) && hi.iter().all(|x| x.is_finite())) {
        (lo, hi) = (Vec3::zeros(), Vec3::zeros());
    }
    Zone::Box { min: lo, max: hi }
}

/// Measures region `m` of `model` at its current state.
pub fn measure(model: &Model, m: &Measure) -> Measured {
    measure_with(model, m, &mut Vec::new(), true)
}

/// [`measure`], with `inside` as its work array (the recorder keeps it from one record to the
/// next: nothing is allocated per record). One pass over the pieces (which are in the region,
/// their mass and, with `porosity`, the volume of their spheres inside it: the costly part,
/// each sphere on the boundary cut exactly), one over the contacts. Without `porosity` the
/// porosity is NaN.
pub fn measure_with(
    model: &Model,
    m: &Measure,
    inside: &mut Vec<bool>,
    porosity: bool,
) -> Measured {
    let zone = region_of(model, m);
    let volume = zone.volume();
    let (bodies, (mass, momentum), solid) = bodies_inside(model, (m, &zone, porosity), inside);
    let (sigma, fabric, contacts) = contact_sums(model, inside);
    Measured {
        stress: sym(&sigma, if volume > 0.0 { 1.0 / volume } else { 0.0 }),
        coordination: if bodies > 0 {
            contacts as Real / bodies as Real
        } else {
            0.0
        },
        fabric: sym(
            &fabric,
            if contacts > 0 {
                1.0 / contacts as Real
            } else {
                0.0
            },
        ),
        porosity: if !porosity {
            Real::NAN
        } else if volume > 0.0 {
            1.0 - solid / volume
        } else {
            0.0
        },
        mass,
        velocity: if mass > 0.0 {
            momentum / mass
        } else {
            Vec3::zeros()
        },
    }
}

/// Over the active contacts of the bodies `inside` the region: the sum of `-f (x) l` (the
/// stress times the volume), the sum of `n (x) n` (the fabric times the count), and their
/// count.
fn contact_sums(model: &Model, inside: &[bool]) -> ([[Real; 3]; 3], [[Real; 3]; 3], usize) {
    let b = &model.balls;
    let reference = |i: usize| model.body_centre(i);
    let mut sigma = ExactTensor::new();
    let mut fabric = ExactTensor::new();
    let mut contacts = 0usize;
    let mut add = |f: &Vec3, l: &Vec3| {
        sigma.add_outer(&-f, l);
        let n = l.normalize();
        if n.iter().all(|x| x.is_finite()) {
            fabric.add_outer(&n, &n);
        }
        contacts += 1;
    };
    let list = &model.contacts;
    let (nearest, cell) = (crate::geom::nearest, model.balls.cell.as_ref());
    for (k, c) in list.list.iter().enumerate() {
        let (a, bb) = (c.a as usize, c.b as usize);
        if !(c.active && (inside[a] || inside[bb])) {
            continue;
        }
        let f = list.contact_force(k, b, &model.laws);
        if f == Vec3::zeros() {
            continue;
        }
        let point = list.contact_point(k, b);
        if inside[bb] {
            add(&f, &nearest(cell, point - reference(bb)));
        }
        if inside[a] {
            add(&-f, &nearest(cell, point - reference(a)));
        }
    }
    for c in &model.facet_contacts.list {
        let i = c.ball as usize;
        if c.active && inside[i] && c.force != Vec3::zeros() {
            add(&c.force, &(c.point - reference(i)));
        }
    }
    (sigma.value(), fabric.value(), contacts)
}

/// Marks in `inside` the pieces whose body is in the region (its zone `zone`); returns the
/// bodies in it (a clump once), their mass and momentum (at the positions' time), and with
/// `solid` the volume of the balls and pebbles inside it (each cut by its boundary; all of them
/// for the whole model).
fn bodies_inside(
    model: &Model,
    (m, zone, solid_too): (&Measure, &Zone, bool),
    inside: &mut Vec<bool>,
) -> (usize, (Real, Vec3), Real) {
    let b = &model.balls;
    inside.clear();
    let mut bodies = 0usize;
    let mut mass = ExactSum::new();
    let mut momentum = ExactVec3::new();
    let mut solid = ExactSum::new();
    for i in 0..b.len() {
        let here = m.zone.is_none() || zone.contains(&model.body_centre(i));
        inside.push(here);
        if solid_too {
            solid.add(match &m.zone {
                Some(z) => z.sphere_volume_inside(&b.pos[i], b.radius[i]),
                None => 4.0 / 3.0 * crate::math::PI * b.radius[i].powi(3),
            });
        }
        if !here {
            continue;
        }
        if b.is_pebble(i) {
            // a clump counts once, at its first pebble
            let c = b.clump[i] as usize;
            if model.clumps.first[c] as usize == i {
                bodies += 1;
                mass.add(model.clumps.mass[c]);
                momentum.add(&(model.clump_velocity(c) * model.clumps.mass[c]));
            }
        } else {
            bodies += 1;
            mass.add(b.mass[i]);
            momentum.add(&(model.synchronized_velocity(i) * b.mass[i]));
        }
    }
    (bodies, (mass.value(), momentum.value()), solid.value())
}

/// The symmetric part of `t` times `scale`: xx, yy, zz, xy, yz, xz.
fn sym(t: &[[Real; 3]; 3], scale: Real) -> [Real; 6] {
    [
        t[0][0] * scale,
        t[1][1] * scale,
        t[2][2] * scale,
        0.5 * (t[0][1] + t[1][0]) * scale,
        0.5 * (t[1][2] + t[2][1]) * scale,
        0.5 * (t[0][2] + t[2][0]) * scale,
    ]
}
