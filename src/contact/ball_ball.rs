//! Geometry and force of a ball-ball contact.

use super::Contact;
use crate::law::{ContactModel, Kinematics};
use crate::math::{Real, Vec3};
use crate::model::Balls;

/// Updates the geometry of a ball-ball contact and, when the balls overlap, its force.
///
/// Geometry: normal `n = (x_b - x_a)/|x_b - x_a|`, overlap `r_a + r_b - |x_b - x_a|`, contact
/// point `x_a + (r_a - overlap/2) n` (the middle of the overlap). The relative velocity at the
/// contact point is `(v_b + w_b x (x_c - x_b)) - (v_a + w_a x (x_c - x_a))`.
///
/// The shear force of the previous cycle is first turned into the new contact plane with its
/// magnitude kept (NOTE: the full incremental rotation of the local frame, seed 002, replaces
/// this projection when the Woo local coordinates land).
#[inline]
pub fn update(c: &mut Contact, balls: &Balls, law: &ContactModel, dt: Real) {
    let (a, b) = (c.a as usize, c.b as usize);
    let d = balls.pos[b] - balls.pos[a];
    let dist = d.norm();
    let (ra, rb) = (balls.radius[a], balls.radius[b]);
    c.overlap = ra + rb - dist;
    // NOTE: coincident centres have no normal; pick +z so that the run goes on and the blow-up
    // detector (overlap larger than a radius) reports the pair.
    c.normal = if dist > 0.0 { d / dist } else { Vec3::z() };
    // The contact point also exists across a gap (the middle of it): the timestep modes count
    // the stiffness of contacts about to touch, with their lever arms.
    c.point = balls.pos[a] + c.normal * (ra - 0.5 * c.overlap);
    if c.overlap <= 0.0 {
        c.active = false;
        c.shear = Vec3::zeros();
        c.normal_force = 0.0;
        c.force = Vec3::zeros();
        return;
    }
    c.active = true;
    let n = c.normal;
    let va = balls.vel[a] + balls.spin[a].cross(&(c.point - balls.pos[a]));
    let vb = balls.vel[b] + balls.spin[b].cross(&(c.point - balls.pos[b]));
    let mass = match (balls.contact_mass(a), balls.contact_mass(b)) {
        (Some(ma), Some(mb)) => ma * mb / (ma + mb),
        (Some(m), None) | (None, Some(m)) => m,
        (None, None) => 0.0,
    };
    super::turn_shear(&mut c.shear, &n);
    let k = Kinematics {
        overlap: c.overlap,
        normal: n,
        rel_vel: vb - va,
        mass,
        dt,
    };
    let f = law.force(&k, &mut c.shear);
    c.force = f.force;
    c.normal_force = f.normal;
}
