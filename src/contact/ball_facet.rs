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
//!   1e-15 of its weight, as it did when `n` was the normalized `WP - x`, and the division
//!   and square root are saved);
//! - overlap `U = R - d`;
//! - contact point `x + (R - U/2) n`: the middle of the overlap, as for two balls.
//!
//! The side of the facet the ball is on is the sign of `n_f . (x - V_1)` (`n_f` the facet
//! normal); a ball on an inactive side does not touch the facet.

use super::{FacetContact, Frame, FrameFlags};
use crate::body::{side, Balls, Wall};
use crate::geom::{closest_point, Region};
use crate::law::{history, Cohesion, ContactModel, Kinematics, LawState, Pieces, Rolling};
use crate::math::{Real, Vec3};

/// Updates the geometry of a ball-facet contact: region, wall contact point, normal, overlap,
/// contact point, and whether the ball touches the facet from an active side. `reach`: the
/// overlap down to which a contact active in the last cycle still counts as touching (a JKR
/// neck, [`Cohesion::reach`]; else 0).
#[inline]
pub fn update_geometry(c: &mut FacetContact, balls: &Balls, wall: &Wall, reach: Real) {
    let (i, f) = (c.ball as usize, c.facet as usize);
    let x = balls.pos[i];
    let r = balls.radius[i];
    let corners = wall.mesh.corners(f);
    let closest = closest_point(&x, &corners);
    let nf = wall.normals[f];
    let sd = nf.dot(&(x - corners[0]));
    c.region = closest.region;
    c.overlap_prev = c.overlap;
    c.point_prev = c.point;
    c.normal_prev = c.normal;
    c.was_active = c.active;
    c.was_carrier = c.active && c.pc == c.facet;
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
    let within = c.overlap > 0.0 || (c.was_active && c.overlap > reach);
    c.touching = within && wall.inactive[f] & on == 0;
}

/// What [`update_force`] reports for the energy books.
#[derive(Clone, Copy, Debug, Default)]
pub struct FacetUpdate {
    /// Energy the contact lost in the cycle, J: the model's report
    /// ([`crate::law::ContactForce::dissipated`]) and the normal spring's hysteresis
    /// ([`ContactModel::normal_loss`]).
    pub dissipated: Real,
    /// Energy of the tangential spring as the model received it, J.
    pub stored_before: Real,
    /// The normal spring's share of the integration error, J.
    pub integration: Real,
    /// The couple of rolling resistance on the ball, N m (world; zero without one).
    pub couple: Vec3,
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
///
/// Returns what the energy books need (as [`super::ball_ball::update`] does; the tangential
/// spring's energy when the contact was active in the previous cycle is counted by the
/// interaction, [`held_energy`]); `books`: whether energy books are kept (without, none of
/// the books' arithmetic is done and the report is zero: the force is the same).
#[allow(clippy::too_many_arguments)]
#[inline]
pub fn update_force(
    c: &mut FacetContact,
    frame: Option<&mut Frame>,
    balls: &Balls,
    wall: &Wall,
    (law, rolling, cohesion): (
        &ContactModel,
        Option<(&Rolling, &mut Vec3)>,
        Option<&Cohesion>,
    ),
    dt: Real,
    flags: FrameFlags,
    books: bool,
) -> FacetUpdate {
    let i = c.ball as usize;
    let r = balls.radius[i];
    // The contact at the end of the previous cycle and what it applied; a proximity
    // contact's normal spring is booked by its power and by the interaction
    // ([`crate::model::EnergyBooks`]), so it counts here as not active.
    let (was_active, before) = (c.was_active, c.state);
    let was_normal = was_active && !c.was_carrier;
    // (a contact made at this cycle's rebuild has no previous overlap: counted as touching)
    let d_prev = if c.overlap_prev.is_finite() {
        c.overlap_prev
    } else {
        c.overlap.min(0.0)
    };
    let was = (was_normal, d_prev, &before);
    // (the work of an elastic force `f` at point `p` over the step, on the ball's material
    // point relative to the wall's; the ball's arm from its centre at `x`)
    let work = |f: &Vec3, p: &Vec3, x: &Vec3| {
        let v =
            balls.vel[i] + balls.spin[i].cross(&(p - x)) - wall.velocity_at(c.facet as usize, p);
        f.dot(&v) * dt
    };
    let x_prev = balls.pos[i] - balls.vel[i] * dt;
    // (what the contact applied in the previous cycle: for the books only)
    let old_spring = if !was_active || !books {
        Vec3::zeros()
    } else if law.frame_free() {
        law.elastic_shear(c.overlap_prev.max(0.0), r, &before)
    } else {
        frame
            .as_deref()
            .map_or(Vec3::zeros(), |f| f.to_world(&before.shear_force()))
    };
    let old_normal = if was_normal && books {
        -c.normal_prev * law.elastic_normal(c.overlap_prev, r, &before)
    } else {
        Vec3::zeros()
    };
    let old_work = |c: &FacetContact| {
        if was_active {
            work(&(old_normal + old_spring), &c.point_prev, &x_prev)
        } else {
            0.0
        }
    };
    // what the books paired: the model's spring (its frame's increment), the normal spring
    // (the change of the overlap); the integrator pairs each cycle's force with the steps
    // around it at its own contact point: the difference is integration error
    let pairing = |c: &FacetContact, new: Real, normal_work: Real, law_work: Real| {
        0.5 * (old_work(c) + new) - (normal_work + law_work)
    };
    let normal_work = |active_1: bool, d_1: Real, s_1: &LawState| {
        let f = |active: bool, d: Real, s: &LawState| {
            if active {
                law.elastic_normal(d, r, s)
            } else {
                0.0
            }
        };
        -0.5 * (f(was.0, was.1, was.2) + f(active_1, d_1, s_1)) * (d_1 - was.1)
    };
    if !c.active {
        c.state = LawState::default();
        c.normal_force = 0.0;
        c.force = Default::default();
        c.fresh = true;
        if !was_active || !books {
            return FacetUpdate::default();
        }
        // A contact that ends: its normal spring's last step, and the integrator's pairing of
        // its last forces with half of this step (the energy its spring held is the
        // interaction's).
        let (dissipated, integration) = law.normal_loss(r, was, (false, c.overlap, &c.state));
        let nw = if c.overlap.is_finite() && was.1.is_finite() {
            normal_work(false, c.overlap, &c.state)
        } else {
            0.0
        };
        return FacetUpdate {
            dissipated,
            stored_before: 0.0,
            integration: integration + pairing(c, 0.0, nw, 0.0),
            couple: Vec3::zeros(),
        };
    }
    let n = -c.normal;
    let mass = balls.contact_mass(i).unwrap_or(0.0);
    let pc_now = c.pc == c.facet;
    if let Some((coef, mu, rule)) = law.history(c.overlap, r, mass) {
        // Frame-free history models: world vectors; the wall is piece a (normal n from the
        // wall to the ball), the ball's branch vector is c - x = -(r - U/2) n.
        if c.fresh {
            c.state = LawState::default();
            c.fresh = false;
        }
        let v_ball = balls.vel[i] + balls.spin[i].cross(&(c.point - balls.pos[i]));
        let v = v_ball - wall.velocity_at(c.facet as usize, &c.point);
        let xi = c.state.shear_displacement();
        c.force = history::world_step(
            coef,
            mu,
            rule,
            c.overlap,
            &n,
            &v,
            dt,
            c.state.shear_displacement_mut(),
        )
        .0;
        c.normal_force = c.force.dot(&n);
        if !books {
            return FacetUpdate::default();
        }
        let kt_prev = if was_active {
            law.history(c.overlap_prev.max(0.0), r, mass)
                .map_or(0.0, |h| h.0.kt)
        } else {
            0.0
        };
        let dxi = (v - n * v.dot(&n)) * dt;
        let (s_0, s_1) = (-kt_prev * xi, -coef.kt * c.state.shear_displacement());
        let (normal, integration) = law.normal_loss(r, was, (!pc_now, c.overlap, &c.state));
        let new_normal = if pc_now {
            Vec3::zeros()
        } else {
            n * law.elastic_normal(c.overlap, r, &c.state)
        };
        let new = work(&(new_normal + s_1), &c.point, &balls.pos[i]);
        let nw = normal_work(!pc_now, c.overlap, &c.state);
        return FacetUpdate {
            dissipated: history::spring_loss(
                kt_prev,
                &xi,
                coef.kt,
                &c.state.shear_displacement(),
                &dxi,
            ) + normal,
            stored_before: crate::law::spring_energy(&s_0, kt_prev),
            integration: integration + pairing(c, new, nw, 0.5 * (s_0 + s_1).dot(&dxi)),
            couple: Vec3::zeros(),
        };
    }
    // NOTE: the model keeps `FacetContacts::frames` whenever a frame-based model exists, so
    // `frame` is there for such a contact; without it the contact would work in a frame made
    // afresh every cycle.
    let mut spare = None;
    let frame = frame.unwrap_or_else(|| spare.insert(Frame::new(&n, -c.overlap)));
    let fresh = c.fresh;
    if c.fresh {
        *frame = Frame::new(&n, -c.overlap);
        c.fresh = false;
    } else if c.pc == c.facet {
        // A proximity contact's normal jumps when its active members change: turn its frame
        // exactly (full mode, [`super::full`]).
        frame.reaim(&n);
    }
    let v_rel = relative_velocity(c, balls, wall, flags.no_ratch);
    let w_wall = wall.spin();
    let step = frame.advance(&n, &v_rel, &w_wall, &balls.spin[i], -c.overlap, dt, flags);
    let k = Kinematics::of_step(c.overlap, v_rel.dot(&n), &step, mass, r, dt, books);
    let s_0 = c.state.shear_force();
    let mut f = law.force(&k, &mut c.state);
    if let Some(coh) = cohesion {
        f.local.x -= coh.force(Pieces::Wall(r), c.overlap);
    }
    let mut couple = Vec3::zeros();
    c.force = frame.to_world(&f.local);
    c.normal_force = f.local.x;
    if let Some((rolling, spring)) = rolling {
        // (the wall is piece 1: its rolling inertia is infinite)
        let inertia = super::ball_ball::rolling_inertia(balls, i);
        let twist = super::ball_ball::twist_inertia(balls, i);
        let input = super::ball_ball::rolling_input(law, &k, &c.state, (inertia, twist), &step);
        if fresh {
            *spring = Vec3::zeros();
        }
        let (m, _) = rolling.couple(&input, spring);
        couple = frame.to_world(&m);
    }
    if !books {
        return FacetUpdate {
            couple,
            ..FacetUpdate::default()
        };
    }
    let (normal, integration) = law.normal_loss(r, was, (!pc_now, c.overlap, &c.state));
    let new_normal = if pc_now {
        Vec3::zeros()
    } else {
        n * law.elastic_normal(c.overlap, r, &c.state)
    };
    let new = work(
        &(new_normal + frame.to_world(&c.state.shear_force())),
        &c.point,
        &balls.pos[i],
    );
    let nw = normal_work(!pc_now, c.overlap, &c.state);
    let law_work = 0.5 * (s_0 + c.state.shear_force()).dot(&k.du_t);
    FacetUpdate {
        dissipated: f.dissipated + normal,
        stored_before: f.stored_before,
        integration: integration + pairing(c, new, nw, law_work),
        couple,
    }
}

/// The velocity of the ball's material point at contact `c` relative to the wall's there
/// (the wall is piece 1, the ball piece 2), m/s: the ball's branch vector from its centre to
/// the contact point, or `-r n` (n from the wall to the ball) with `no_ratch`
/// ([`FrameFlags::no_ratch`]).
#[inline(always)]
pub fn relative_velocity(c: &FacetContact, balls: &Balls, wall: &Wall, no_ratch: bool) -> Vec3 {
    let i = c.ball as usize;
    let branch = if no_ratch {
        c.normal * balls.radius[i]
    } else {
        c.point - balls.pos[i]
    };
    let v_ball = balls.vel[i] + balls.spin[i].cross(&branch);
    v_ball - wall.velocity_at(c.facet as usize, &c.point)
}

/// The energy a ball-facet contact held at the end of the previous cycle that its
/// interaction books (its state, at [`FacetContact::overlap_prev`]; zero for a contact that
/// was not active): the tangential spring's, and a proximity contact's normal spring's.
/// Called after [`update_geometry`], before the contact's activity is resolved again.
#[inline]
pub fn held_energy(c: &FacetContact, law: &ContactModel, radius: Real) -> Real {
    if !c.was_active {
        return 0.0;
    }
    let d = c.overlap_prev.max(0.0);
    let ks = law.stiffness(d, radius).ks;
    let shear = crate::law::spring_energy(&law.elastic_shear(d, radius, &c.state), ks);
    let normal = if c.was_carrier {
        law.normal_energy(c.overlap_prev, radius, &c.state)
    } else {
        0.0
    };
    shear + normal
}
