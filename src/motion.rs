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

/// Below this many balls the per-ball loops (law of motion, the broad phase's rebuild test)
/// run on one thread.
pub(crate) const PARALLEL_BALLS: usize = 4096;

/// Translational acceleration of ball `i`, m/s^2, zero along fixed DOFs (seed 000, eq. 1).
#[inline]
pub fn acceleration(balls: &Balls, i: usize, gravity: &Vec3) -> Vec3 {
    let f = balls.force[i] + gravity * balls.mass[i] + balls.applied_force[i];
    linear(&f, balls.inertial_mass[i], balls.fixed[i])
}

/// `f / m` with the fixed translations (`fixed`, [`dof`] bits) zeroed.
#[inline]
fn linear(f: &Vec3, m: Real, fixed: u8) -> Vec3 {
    if fixed & dof::TRANSLATION == dof::TRANSLATION {
        return Vec3::zeros();
    }
    let mut a = f / m;
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
    angular(&balls.moment[i], balls.inertial_inertia[i], balls.fixed[i])
}

/// `m / i` with the fixed rotations (`fixed >> 3`) zeroed.
#[inline]
fn angular(m: &Vec3, i: Real, fixed: u8) -> Vec3 {
    let fixed = fixed >> 3;
    let mut alpha = m / i;
    for k in 0..3 {
        if fixed & (1 << k) != 0 {
            alpha[k] = 0.0;
        }
    }
    alpha
}

/// One step of the law of motion for every ball (in parallel over balls above 4,096; each
/// ball's arithmetic is the same for any number of threads). Returns false when a position,
/// velocity or angular velocity stopped being finite (the caller then finds which).
pub fn step(balls: &mut Balls, gravity: &Vec3, dt_prev: Real, dt: Real) -> bool {
    use rayon::prelude::*;
    let kick = 0.5 * (dt_prev + dt);
    let Balls {
        pos,
        vel,
        spin,
        force,
        moment,
        mass,
        inertial_mass,
        inertial_inertia,
        applied_force,
        fixed,
        clump,
        ..
    } = balls;
    let one = |(i, (p, (v, w))): (usize, (&mut Vec3, (&mut Vec3, &mut Vec3)))| -> bool {
        if clump[i] != crate::model::NO_CLUMP {
            // a pebble: moved by its clump (`Clumps::step`)
            return true;
        }
        let f = force[i] + gravity * mass[i] + applied_force[i];
        *v += linear(&f, inertial_mass[i], fixed[i]) * kick;
        *w += angular(&moment[i], inertial_inertia[i], fixed[i]) * kick;
        *p += *v * dt;
        // NaN and infinities make the sum non-finite.
        (p.sum() + v.sum() + w.sum()).is_finite()
    };
    if pos.len() >= PARALLEL_BALLS {
        (pos.par_iter_mut()
            .zip(vel.par_iter_mut().zip(spin.par_iter_mut())))
        .enumerate()
        .map(one)
        .reduce(|| true, |x, y| x & y)
    } else {
        (pos.iter_mut().zip(vel.iter_mut().zip(spin.iter_mut())))
            .enumerate()
            .map(one)
            .fold(true, |x, y| x & y)
    }
}
