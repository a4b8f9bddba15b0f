//! The law of motion: Newton's laws integrated by velocity Verlet (leapfrog form).
//!
//! Velocities live half a step behind positions (seed 000): with forces `F(t)` computed at the
//! positions `x(t)`,
//! - `v(t + dt/2) = v(t - dt_prev/2) + a(t) (dt_prev + dt)/2`, with `a = (F + m_g g + F_a)/m`,
//! - `x(t + dt) = x(t) + v(t + dt/2) dt`,
//!
//! and likewise for the spin with `M / I`. At the start `dt_prev = 0`, so the first kick is half a
//! step: the scheme is second-order accurate from the given `v(0)` (a full first kick would make
//! it first order). With a varying timestep the kick `(dt_prev + dt)/2` keeps it centred.
//! A sphere's orientation enters no force and no output and is not integrated.

use crate::math::{Real, Vec3};
use crate::model::{dof, Balls};

/// Translational acceleration of ball `i`, m/s^2, zero along fixed DOFs (seed 000, eq. 1).
#[inline]
pub fn acceleration(balls: &Balls, i: usize, gravity: &Vec3) -> Vec3 {
    let fixed = balls.fixed[i];
    if fixed & dof::TRANSLATION == dof::TRANSLATION {
        return Vec3::zeros();
    }
    let f = balls.force[i] + gravity * balls.mass[i] + balls.applied_force[i];
    let mut a = f / balls.inertial_mass[i];
    for k in 0..3 {
        if fixed & (1 << k) != 0 {
            a[k] = 0.0;
        }
    }
    a
}

/// Angular acceleration of ball `i`, rad/s^2, zero about fixed axes (a sphere: `M / I`).
#[inline]
pub fn angular_acceleration(balls: &Balls, i: usize) -> Vec3 {
    let fixed = balls.fixed[i] >> 3;
    let mut alpha = balls.moment[i] / balls.inertial_inertia[i];
    for k in 0..3 {
        if fixed & (1 << k) != 0 {
            alpha[k] = 0.0;
        }
    }
    alpha
}

/// One step of the law of motion for every ball. Returns false when a position, velocity or
/// angular velocity stopped being finite (the caller then finds which).
pub fn step(balls: &mut Balls, gravity: &Vec3, dt_prev: Real, dt: Real) -> bool {
    let kick = 0.5 * (dt_prev + dt);
    let mut finite = true;
    for i in 0..balls.len() {
        if balls.is_pebble(i) {
            // moved by its clump (`Clumps::step`)
            continue;
        }
        let a = acceleration(balls, i, gravity);
        let alpha = angular_acceleration(balls, i);
        balls.vel[i] += a * kick;
        balls.spin[i] += alpha * kick;
        balls.pos[i] += balls.vel[i] * dt;
        // NaN and infinities make the sum non-finite.
        finite &= (balls.pos[i].sum() + balls.vel[i].sum() + balls.spin[i].sum()).is_finite();
    }
    finite
}
