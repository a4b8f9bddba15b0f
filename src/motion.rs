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

/// One step of the law of motion for every ball (in parallel over balls above 4,096; each
/// ball's arithmetic is the same for any number of threads). Returns false when a position,
/// velocity or angular velocity stopped being finite (the caller then finds which).
///
/// The balls go 32 at a time through `Source::lanes`: the same operations as
/// [`acceleration`] and [`angular_acceleration`] in the same order (so the same bits), but as
/// one branch-free loop over the lanes that the compiler turns into vector instructions; the
/// six divisions per ball, one at a time, were most of this step's cost.
pub fn step(balls: &mut Balls, gravity: &Vec3, dt_prev: Real, dt: Real) -> bool {
    use rayon::prelude::*;
    let kick = 0.5 * (dt_prev + dt);
    let src = Source {
        force: &balls.force,
        moment: &balls.moment,
        mass: &balls.mass,
        inertial_mass: &balls.inertial_mass,
        inertial_inertia: &balls.inertial_inertia,
        applied_force: &balls.applied_force,
        fixed: &balls.fixed,
        clump: &balls.clump,
        gravity,
        kick,
        dt,
    };
    let (pos, vel, spin) = (&mut balls.pos, &mut balls.vel, &mut balls.spin);
    // a block of balls from `first` on
    let block = |(b, (p, (v, w))): (usize, Block)| {
        let first = b * BLOCK;
        let mut finite = true;
        for (s, ((p, v), w)) in (p.chunks_mut(LANES).zip(v.chunks_mut(LANES)))
            .zip(w.chunks_mut(LANES))
            .enumerate()
        {
            finite &= src.lanes(first + s * LANES, p, v, w);
        }
        finite
    };
    if pos.len() >= PARALLEL_BALLS {
        let (p, (v, w)) = (
            pos.par_chunks_mut(BLOCK),
            (vel.par_chunks_mut(BLOCK), spin.par_chunks_mut(BLOCK)),
        );
        (p.zip(v.zip(w)))
            .enumerate()
            .map(block)
            .reduce(|| true, |x, y| x & y)
    } else {
        let (p, (v, w)) = (
            pos.chunks_mut(BLOCK),
            (vel.chunks_mut(BLOCK), spin.chunks_mut(BLOCK)),
        );
        (p.zip(v.zip(w)))
            .enumerate()
            .map(block)
            .fold(true, |x, y| x & y)
    }
}

/// A block's positions, velocities and spins.
type Block<'a> = (&'a mut [Vec3], (&'a mut [Vec3], &'a mut [Vec3]));

/// Balls per task of the parallel law of motion (a multiple of [`LANES`]).
const BLOCK: usize = 1024;
/// Balls per batch of the law of motion (four AVX-512 registers of doubles; with eight, the
/// vector loads of the batch waited for its last scalar stores: 40 % slower).
const LANES: usize = 32;
type Lanes = [Real; LANES];

/// What the law of motion reads, besides the positions, velocities and spins it updates.
struct Source<'a> {
    force: &'a [Vec3],
    moment: &'a [Vec3],
    mass: &'a [Real],
    inertial_mass: &'a [Real],
    inertial_inertia: &'a [Real],
    applied_force: &'a [Vec3],
    fixed: &'a [u8],
    clump: &'a [u32],
    gravity: &'a Vec3,
    kick: Real,
    dt: Real,
}

impl Source<'_> {
    /// Steps the balls `first..first + p.len()` (at most [`LANES`]); false when one of them
    /// is no longer finite. A pebble of a clump is left alone (its clump moves it).
    #[inline]
    fn lanes(&self, first: usize, p: &mut [Vec3], v: &mut [Vec3], w: &mut [Vec3]) -> bool {
        let n = p.len();
        // spare lanes: a unit mass and inertia at rest, results unused
        let (mut f, mut mo, mut m, mut inertia) = (
            [[0.0; LANES]; 3],
            [[0.0; LANES]; 3],
            [1.0; LANES],
            [1.0; LANES],
        );
        let (mut x, mut u, mut s) = ([[0.0; LANES]; 3], [[0.0; LANES]; 3], [[0.0; LANES]; 3]);
        let mut free = [[true; LANES]; 6];
        for l in 0..n {
            let i = first + l;
            let total = self.force[i] + self.gravity * self.mass[i] + self.applied_force[i];
            let fx = self.fixed[i];
            for k in 0..3 {
                f[k][l] = total[k];
                mo[k][l] = self.moment[i][k];
                x[k][l] = p[l][k];
                u[k][l] = v[l][k];
                s[k][l] = w[l][k];
                free[k][l] = fx & (1 << k) == 0;
                free[3 + k][l] = fx & (1 << (3 + k)) == 0;
            }
            m[l] = self.inertial_mass[i];
            inertia[l] = self.inertial_inertia[i];
        }
        let mut ok: Lanes = [0.0; LANES];
        for l in 0..LANES {
            for k in 0..3 {
                let a = if free[k][l] { f[k][l] / m[l] } else { 0.0 };
                let alpha = if free[3 + k][l] {
                    mo[k][l] / inertia[l]
                } else {
                    0.0
                };
                u[k][l] += a * self.kick;
                s[k][l] += alpha * self.kick;
                x[k][l] += u[k][l] * self.dt;
            }
            // NaN and infinities make the sum non-finite.
            ok[l] = (x[0][l] + x[1][l] + x[2][l])
                + (u[0][l] + u[1][l] + u[2][l])
                + (s[0][l] + s[1][l] + s[2][l]);
        }
        let mut finite = true;
        for l in 0..n {
            if self.clump[first + l] != crate::model::NO_CLUMP {
                continue;
            }
            p[l] = Vec3::new(x[0][l], x[1][l], x[2][l]);
            v[l] = Vec3::new(u[0][l], u[1][l], u[2][l]);
            w[l] = Vec3::new(s[0][l], s[1][l], s[2][l]);
            finite &= ok[l].is_finite();
        }
        finite
    }
}
