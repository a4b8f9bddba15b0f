//! Geometry and force of a ball-ball contact.

use super::{Contact, Frame, FrameFlags};
use crate::law::{ContactModel, Kinematics, LawState};
use crate::math::{Real, Vec3};
use crate::model::Balls;

/// Effective mass of two bodies given as `Option` (None: infinitely heavy), kg.
#[inline]
pub(crate) fn effective_mass(a: Option<Real>, b: Option<Real>) -> Real {
    match (a, b) {
        (Some(ma), Some(mb)) => ma * mb / (ma + mb),
        (Some(m), None) | (None, Some(m)) => m,
        (None, None) => 0.0,
    }
}

/// Updates the geometry of a ball-ball contact and, when the balls overlap (or are bonded),
/// its local frame and force.
///
/// Geometry: normal `n = (x_b - x_a)/|x_b - x_a|`, overlap `r_a + r_b - |x_b - x_a|`, contact
/// point `x_a + (r_a - overlap/2) n` (the middle of the overlap). Branch vectors (seed 002):
/// from each centre to the contact point, or `r_a n` and `-r_b n` with `no_ratch`. The
/// relative velocity `(v_b + w_b x b_b) - (v_a + w_a x b_a)` drives the local frame
/// ([`Frame::advance`]); the model sees the tangential increment in local coordinates and its
/// local force is turned back to the world frame.
///
/// `install_bonds`: before the first cycle, a linear-bond contact within its `bond_gap` is
/// bonded.
#[inline]
pub fn update(
    c: &mut Contact,
    balls: &Balls,
    law: &ContactModel,
    dt: Real,
    flags: FrameFlags,
    install_bonds: bool,
) {
    let (a, b) = (c.a as usize, c.b as usize);
    let d = balls.pos[b] - balls.pos[a];
    let dist = d.norm();
    let (ra, rb) = (balls.radius[a], balls.radius[b]);
    c.overlap = ra + rb - dist;
    c.radius = ra * rb / (ra + rb);
    // NOTE: coincident centres have no normal; pick +z so that the run goes on and the blow-up
    // detector (overlap larger than a radius) reports the pair.
    c.normal = if dist > 0.0 { d / dist } else { Vec3::z() };
    // The contact point also exists across a gap (the middle of it): the timestep modes count
    // the stiffness of contacts about to touch, with their lever arms.
    c.point = balls.pos[a] + c.normal * (ra - 0.5 * c.overlap);
    if install_bonds {
        if let ContactModel::LinearBond(m) = law {
            c.state.bonded = c.overlap >= -m.bond_gap;
        }
    }
    if c.overlap <= 0.0 && !law.holds(&c.state) {
        c.active = false;
        c.state = LawState::default();
        c.normal_force = 0.0;
        c.force = Vec3::zeros();
        return;
    }
    let n = c.normal;
    let m_eff = effective_mass(balls.contact_mass(a), balls.contact_mass(b));
    if let Some((coef, mu)) = law.history(c.overlap, c.radius, m_eff) {
        // Frame-free history models (LIGGGHTS conventions): world vectors, no local frame;
        // branch vectors from each centre to the contact point.
        if !c.active {
            c.state = LawState::default();
            c.active = true;
        }
        let (ca, cb) = (ra - 0.5 * c.overlap, rb - 0.5 * c.overlap);
        let v = (balls.vel[b] - balls.vel[a]) + n.cross(&(balls.spin[a] * ca + balls.spin[b] * cb));
        let vn = v.dot(&n);
        let vt = v - n * vn;
        let (f, _) = crate::law::history::step(
            coef,
            mu,
            c.overlap,
            &n,
            vn,
            &vt,
            &(vt * dt),
            &mut c.state.shear,
        );
        c.force = f;
        c.normal_force = f.dot(&n);
        return;
    }
    if !c.active {
        c.frame = Frame::new(&n, -c.overlap);
        c.active = true;
    }
    let (ba, bb) = if flags.no_ratch {
        (n * ra, -n * rb)
    } else {
        (c.point - balls.pos[a], c.point - balls.pos[b])
    };
    let v_rel =
        (balls.vel[b] + balls.spin[b].cross(&bb)) - (balls.vel[a] + balls.spin[a].cross(&ba));
    let step = c.frame.advance(
        &n,
        &v_rel,
        &balls.spin[a],
        &balls.spin[b],
        -c.overlap,
        dt,
        flags,
    );
    let k = Kinematics::of_step(c.overlap, v_rel.dot(&n), &step, m_eff, c.radius);
    let f = law.force(&k, &mut c.state);
    c.force = c.frame.to_world(&f.local);
    c.normal_force = f.local.x;
    // a bond that broke in this cycle across a gap leaves the contact without force
    c.active = c.overlap > 0.0 || law.holds(&c.state);
}
