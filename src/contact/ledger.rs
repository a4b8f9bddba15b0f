//! A ball-ball contact's energy books for one cycle (with energy books only): what its springs
//! applied at the ends of the cycle and how the integrator paired that with the balls'
//! steps, so that the contact reports what it lost and its share of the integration error.

use super::sphere_pair::{geometry, Geometry};
use crate::body::Balls;
use crate::law::{ContactModel, LawState};
use crate::math::{Real, Vec3};

/// The elastic force a contact applied at the end of a cycle (normal spring and tangential
/// spring, on b, world frame) and the arms from the balls' centres to its contact point then:
/// what the integrator paired with the steps around that cycle.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Applied {
    pub(crate) force: Vec3,
    pub(crate) arm_a: Vec3,
    pub(crate) arm_b: Vec3,
}

/// The work of `f` over one step on the material points at the ends of the arms: the relative
/// displacement of b's point with respect to a's, `(v_b - v_a) dt + (w_b x arm_b - w_a x
/// arm_a) dt`, with the balls' velocities of the step.
#[inline]
fn step_work(balls: &Balls, a: usize, b: usize, f: &Applied, dt: Real) -> Real {
    let d = (balls.partner_motion(a, b).1 - balls.vel[a]) + balls.spin[b].cross(&f.arm_b)
        - balls.spin[a].cross(&f.arm_a);
    f.force.dot(&d) * dt
}

/// A contact's energy books for one cycle (with energy books only).
///
/// The model reports what its springs lost, pairing their forces with its own displacement
/// increments (the tangential increment of its frame, the change of the overlap); the
/// integrator pairs the force each cycle applied with half the step before and half the step
/// after, at that cycle's contact point. The difference (the contact point moves on the balls,
/// the frame turns) is the contact's share of the integration error, and so is what the
/// trapezoidal rule misses of the normal spring's energy ([`ContactModel::normal_loss`]).
pub(crate) struct Ledger<'a> {
    pub(crate) law: &'a ContactModel,
    pub(crate) radius: Real,
    /// Active at the end of the previous cycle, its overlap and state then.
    pub(crate) was: (bool, Real, LawState),
    /// What it applied then.
    pub(crate) old: Applied,
}

impl Ledger<'_> {
    /// `(dissipated, integration error)` of the cycle: `now` the contact's activity, overlap
    /// and state at the end of the cycle, `new` what it applies now, `reported` the model's
    /// report ([`crate::law::ContactForce::dissipated`]), `law_work` the work on the bodies
    /// of the tangential spring as the model paired it (`(F_0 + F_1)/2 . du`).
    pub(crate) fn close(
        &self,
        (balls, a, b, dt): (&Balls, usize, usize, Real),
        now: (bool, Real, &LawState),
        new: &Applied,
        reported: Real,
        law_work: Real,
    ) -> (Real, Real) {
        let was = (self.was.0, self.was.1, &self.was.2);
        let released = if was.0 && !now.0 {
            self.law.shear_energy(was.1, self.radius, was.2)
        } else {
            0.0
        };
        let (normal, integration) = self.law.normal_loss(self.radius, was, now);
        // the normal spring's work on the bodies as the books paired it
        let f = |active: bool, d: Real, s: &LawState| {
            if active {
                self.law.elastic_normal(d, self.radius, s)
            } else {
                0.0
            }
        };
        let normal_work =
            -0.5 * (f(was.0, was.1, was.2) + f(now.0, now.1, now.2)) * (now.1 - was.1);
        let paired =
            0.5 * (step_work(balls, a, b, &self.old, dt) + step_work(balls, a, b, new, dt));
        let pairing = if now.1.is_finite() && was.1.is_finite() {
            paired - (normal_work + law_work)
        } else {
            0.0
        };
        (reported + released + normal, integration + pairing)
    }
}

/// The positions of balls `a` and `b` one step of `dt` earlier, `x - v dt` (exactly what the
/// last law of motion moved them from, to round-off).
#[inline]
pub(crate) fn previous_positions(balls: &Balls, a: usize, b: usize, dt: Real) -> (Vec3, Vec3) {
    (balls.pos[a] - balls.vel[a] * dt, {
        let (p, v) = balls.partner_motion(a, b);
        p - v * dt
    })
}

/// What a contact applied at the end of the previous cycle: its elastic normal force at the
/// overlap `d` along the normal of the balls' previous positions, plus the tangential spring
/// `spring` (world frame), at the contact point of that geometry.
#[inline]
pub(crate) fn applied_before(
    balls: &Balls,
    a: usize,
    b: usize,
    dt: Real,
    (law, radius, state, d): (&ContactModel, Real, &LawState, Real),
    spring: Vec3,
) -> Applied {
    let (xa, xb) = previous_positions(balls, a, b, dt);
    let g = geometry(&xa, &xb, balls.radius[a], balls.radius[b]);
    Applied {
        force: g.normal * law.elastic_normal(d, radius, state) + spring,
        arm_a: g.point - xa,
        arm_b: g.point - xb,
    }
}

/// What a contact applies at the end of this cycle: the elastic normal force of `state` at
/// the geometry `g` plus the tangential spring `spring` (world frame).
#[inline]
pub(crate) fn applied_now(
    balls: &Balls,
    a: usize,
    b: usize,
    (law, state): (&ContactModel, &LawState),
    g: &Geometry,
    spring: Vec3,
) -> Applied {
    Applied {
        force: g.normal * law.elastic_normal(g.overlap, g.radius, state) + spring,
        arm_a: g.point - balls.pos[a],
        arm_b: g.point - balls.partner(a, b),
    }
}

/// The state a ledger holds of the previous cycle (a default one without books).
pub(crate) fn before_state(ledger: &Option<Ledger>) -> LawState {
    ledger.as_ref().map_or(LawState::default(), |l| l.was.2)
}
