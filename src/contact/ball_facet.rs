//! Geometry and force of a ball-facet contact (seed 001, "Faceted Wall Contact Resolution").
//!
//! Geometry, with `x` the ball centre and `R` its radius:
//! - wall contact point `WP`: the point of the facet closest to `x` ([`crate::geom::closest_point`]),
//!   with its region (face, edge k, vertex k);
//! - normal `n = (WP - x) / d`, `d = |WP - x|` (from the ball towards the wall). When `WP`
//!   lies inside the face, `WP` is the projection of `x` on the facet's plane, so with the
//!   signed distance `s = n_f . (x - V_1)` these are `WP = x - s n_f`, `d = |s|` and
//!   `n = -sign(s) n_f`, computed so: the facet's unit normal exactly, with no division and
//!   no rounding of `WP - x` (a ball resting on a flat facet feels no sideways force of
//!   1e-15 of its weight, as it did when `n` was the normalized `WP - x`; about 10 ns less
//!   per contact);
//! - overlap `U = R - d`;
//! - contact point `x + (R - U/2) n`: the middle of the overlap, as for two balls.
//!
//! The side of the facet the ball is on is the sign of `n_f . (x - V_1)` (`n_f` the facet
//! normal); a ball on an inactive side does not touch the facet.

use super::{FacetContact, Frame, FrameFlags};
use crate::geom::{closest_point, Region};
use crate::law::{history, ContactModel, Kinematics, LawState};
use crate::math::Real;
use crate::model::{side, Balls, Wall};

/// Updates the geometry of a ball-facet contact: region, wall contact point, normal, overlap,
/// contact point, and whether the ball touches the facet from an active side.
#[inline]
pub fn update_geometry(c: &mut FacetContact, balls: &Balls, wall: &Wall) {
    let (i, f) = (c.ball as usize, c.facet as usize);
    let x = balls.pos[i];
    let r = balls.radius[i];
    let corners = wall.mesh.corners(f);
    let closest = closest_point(&x, &corners);
    let nf = wall.normals[f];
    let sd = nf.dot(&(x - corners[0]));
    c.region = closest.region;
    let d = if closest.region == Region::Face {
        // the projection on the plane: at the signed distance along the facet's normal
        c.wall_point = x - nf * sd;
        c.normal = if sd >= 0.0 { -nf } else { nf };
        sd.abs()
    } else {
        let to_wall = closest.point - x;
        let d = to_wall.norm();
        c.wall_point = closest.point;
        // NOTE: a centre exactly on the facet has no direction to it: push the ball to the
        // side of the facet it counts as being on (signed distance 0 counts as above).
        c.normal = if d > 0.0 { to_wall / d } else { -nf };
        d
    };
    c.overlap = r - d;
    c.point = x + c.normal * (r - 0.5 * c.overlap);
    let on = if sd >= 0.0 { side::ABOVE } else { side::BELOW };
    c.touching = c.overlap > 0.0 && wall.inactive[f] & on == 0;
}

/// Force of a ball-facet contact whose activity has been resolved: the contact model's force
/// for an active contact, nothing for an inactive one (its state is lost: in the reduced mode
/// no contact state is handed over, seed 001; the full mode has already handed it over where
/// it should go, [`super::full`]).
///
/// The wall is piece 1 and the ball piece 2 of the local frame (normal from the wall to the
/// ball). The wall's velocity is taken at the contact point ([`Wall::velocity_at`]); the
/// ball's branch vector is `c - x` (or `-R n_wall_to_ball` with `no_ratch`); the wall's angular
/// velocity is its spin (zero for a deformable wall). The effective radius is the ball's (a
/// flat facet).
#[inline]
pub fn update_force(
    c: &mut FacetContact,
    frame: Option<&mut Frame>,
    balls: &Balls,
    wall: &Wall,
    law: &ContactModel,
    dt: Real,
    flags: FrameFlags,
) {
    if !c.active {
        c.state = LawState::default();
        c.normal_force = 0.0;
        c.force = Default::default();
        c.fresh = true;
        return;
    }
    let i = c.ball as usize;
    let n = -c.normal;
    let r = balls.radius[i];
    let mass = balls.contact_mass(i).unwrap_or(0.0);
    if let Some((coef, mu)) = law.history(c.overlap, r, mass) {
        // Frame-free history models: world vectors; the wall is piece a (normal n from the
        // wall to the ball), the ball's branch vector is c - x = -(r - U/2) n.
        if c.fresh {
            c.state = LawState::default();
            c.fresh = false;
        }
        let v_ball = balls.vel[i] + balls.spin[i].cross(&(c.point - balls.pos[i]));
        let v = v_ball - wall.velocity_at(c.facet as usize, &c.point);
        c.force = history::world_step(coef, mu, c.overlap, &n, &v, dt, &mut c.state.shear).0;
        c.normal_force = c.force.dot(&n);
        return;
    }
    // NOTE: the model keeps `FacetContacts::frames` whenever a frame-based model exists, so
    // `frame` is there for such a contact; without it the contact would work in a frame made
    // afresh every cycle.
    let mut spare = None;
    let frame = frame.unwrap_or_else(|| spare.insert(Frame::new(&n, -c.overlap)));
    if c.fresh {
        *frame = Frame::new(&n, -c.overlap);
        c.fresh = false;
    } else if c.pc == c.facet {
        // A proximity contact's normal jumps when its active members change: turn its frame
        // exactly (full mode, [`super::full`]).
        frame.reaim(&n);
    }
    let branch = if flags.no_ratch {
        -n * r
    } else {
        c.point - balls.pos[i]
    };
    let v_ball = balls.vel[i] + balls.spin[i].cross(&branch);
    let v_rel = v_ball - wall.velocity_at(c.facet as usize, &c.point);
    let w_wall = wall.spin();
    let step = frame.advance(&n, &v_rel, &w_wall, &balls.spin[i], -c.overlap, dt, flags);
    let k = Kinematics::of_step(c.overlap, v_rel.dot(&n), &step, mass, r);
    let f = law.force(&k, &mut c.state);
    c.force = frame.to_world(&f.local);
    c.normal_force = f.local.x;
}
