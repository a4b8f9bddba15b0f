//! The balls' law of motion: Newton's laws integrated by velocity Verlet (leapfrog form).
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

use crate::body::{dof, Balls};
use crate::math::{Real, Vec3};
use crate::par::{split, PARALLEL_BALLS};

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

/// The broad phase's displacement test, made by the law of motion while the positions are at
/// hand ([`crate::detect::BroadPhase::reference`] gives it).
#[derive(Clone, Copy, Debug)]
pub struct Reference<'a> {
    /// The positions of the last build of the candidate pairs.
    pub pos: &'a [Vec3],
    /// The square of the distance a ball may lie from its reference position, m².
    pub limit2: Real,
    /// In a deforming periodic cell, the reference positions' levers of its affine motion
    /// and its rates along x, y, z: a reference position is carried to `pos + rate lever`,
    /// coordinate by coordinate, before the test ([`crate::detect::Affine`]).
    pub affine: Option<(&'a [Vec3], [Real; 3])>,
}

/// One step of the law of motion for every ball (in parallel over balls above 4,096; each
/// ball's arithmetic is the same for any number of threads). Returns false when a position,
/// velocity or angular velocity stopped being finite (the caller then finds which).
///
/// The balls go 32 at a time through `MotionInputs::lanes`: the same operations as
/// [`acceleration`] and [`angular_acceleration`] in the same order (so the same bits), but as
/// one branch-free loop over the coordinates, read in place (the arrays of vectors seen as
/// arrays of numbers), which the compiler turns in part into vector instructions (two
/// coordinates of a ball divided at once): the divisions are most of this step's cost.
///
/// With `reference` (the broad phase's positions of its last build and its test, see
/// [`crate::detect::BroadPhase::tolerance`]), also tells whether a ball now lies farther from
/// its reference position (carried by the cell's affine motion, in a deforming cell) than the
/// test allows: the broad phase's test, made while the positions are at hand (no second pass
/// over them). Returns (all finite, one moved too far).
///
/// With `ranges` (the first ball of each range and the end, as the force pass's
/// [`crate::contact::Partition`] cuts them), range `r` goes to part `r` of
/// [`crate::par::run_parts`]: range 0 on the calling thread, and with two threads range 1
/// always on the other one, the thread that computed those balls' forces and will read
/// their positions next. A ball's lines then stay in the cache of one core (with rayon's
/// split they would go to whichever thread took the block, and come back for the force
/// pass).
pub fn step(
    balls: &mut Balls,
    gravity: &Vec3,
    dt_prev: Real,
    dt: Real,
    reference: Option<Reference>,
    ranges: Option<&[usize]>,
) -> (bool, bool) {
    use rayon::prelude::*;
    let kick = 0.5 * (dt_prev + dt);
    let src = MotionInputs {
        force: &balls.force,
        moment: &balls.moment,
        mass: &balls.mass,
        inertial_mass: &balls.inertial_mass,
        inertial_inertia: &balls.inertial_inertia,
        applied_force: &balls.applied_force,
        fixed: &balls.fixed,
        clump: &balls.clump,
        gravity,
        gravity3: std::array::from_fn(|j| gravity[j % 3]),
        kick,
        dt,
        reference: reference.map(|r| r.pos),
        limit2: reference.map_or(0.0, |r| r.limit2),
        levers: reference.and_then(|r| r.affine.map(|(l, _)| l)),
        rate3: (reference.and_then(|r| r.affine)).map_or([0.0; 3 * LANES], |(_, rate)| {
            std::array::from_fn(|j| rate[j % 3])
        }),
    };
    let (pos, vel, spin) = (&mut balls.pos, &mut balls.vel, &mut balls.spin);
    // the balls from `first` on
    let run = |first: usize, (p, (v, w)): Block| {
        let (mut finite, mut moved) = (true, false);
        for (s, ((p, v), w)) in (p.chunks_mut(LANES).zip(v.chunks_mut(LANES)))
            .zip(w.chunks_mut(LANES))
            .enumerate()
        {
            let (f, m) = src.lanes(
                first + s * LANES,
                bytemuck::cast_slice_mut(p),
                bytemuck::cast_slice_mut(v),
                bytemuck::cast_slice_mut(w),
            );
            finite &= f;
            moved |= m;
        }
        (finite, moved)
    };
    let block = |(b, blk): (usize, Block)| run(b * BLOCK, blk);
    let both = |x: (bool, bool), y: (bool, bool)| (x.0 & y.0, x.1 | y.1);
    if let Some(bounds) = ranges.filter(|b| b.len() > 2 && b.last() == Some(&pos.len())) {
        let parts: Vec<(usize, Block)> = (split(pos, bounds).into_iter())
            .zip(split(vel, bounds).into_iter().zip(split(spin, bounds)))
            .enumerate()
            .map(|(r, x)| (bounds[r], x))
            .collect();
        (crate::par::run_parts(parts, |_, (first, blk)| run(first, blk)).into_iter())
            .fold((true, false), both)
    } else if pos.len() >= PARALLEL_BALLS {
        let (p, (v, w)) = (
            pos.par_chunks_mut(BLOCK),
            (vel.par_chunks_mut(BLOCK), spin.par_chunks_mut(BLOCK)),
        );
        (p.zip(v.zip(w)))
            .enumerate()
            .map(block)
            .reduce(|| (true, false), both)
    } else {
        let (p, (v, w)) = (
            pos.chunks_mut(BLOCK),
            (vel.chunks_mut(BLOCK), spin.chunks_mut(BLOCK)),
        );
        (p.zip(v.zip(w)))
            .enumerate()
            .map(block)
            .fold((true, false), both)
    }
}

/// A block's positions, velocities and spins.
type Block<'a> = (&'a mut [Vec3], (&'a mut [Vec3], &'a mut [Vec3]));

/// Balls per task of the parallel law of motion (a multiple of [`LANES`]).
const BLOCK: usize = 1024;
/// Balls per batch of the law of motion (the finiteness check of a batch is one sum per ball).
const LANES: usize = 32;
type Lanes = [Real; LANES];
/// The reference positions of a batch when none are given.
const NO_REFERENCE: [Real; 3 * LANES] = [0.0; 3 * LANES];

/// What the law of motion reads, besides the positions, velocities and spins it updates.
struct MotionInputs<'a> {
    force: &'a [Vec3],
    moment: &'a [Vec3],
    mass: &'a [Real],
    inertial_mass: &'a [Real],
    inertial_inertia: &'a [Real],
    applied_force: &'a [Vec3],
    fixed: &'a [u8],
    clump: &'a [u32],
    gravity: &'a Vec3,
    /// The gravity's components repeated ball after ball, `[g_x, g_y, g_z, g_x, ...]`.
    gravity3: [Real; 3 * LANES],
    kick: Real,
    dt: Real,
    /// The broad phase's reference positions, if the displacement is to be checked.
    reference: Option<&'a [Vec3]>,
    /// The square of the distance a ball may lie from its reference position.
    limit2: Real,
    /// In a deforming cell, the reference positions' levers of its affine motion since the
    /// build ([`crate::detect::Affine`]: the reference positions are carried by it before the
    /// test)...
    levers: Option<&'a [Vec3]>,
    /// ... and its rates repeated ball after ball, `[r_x, r_y, r_z, r_x, ...]`.
    rate3: [Real; 3 * LANES],
}

impl MotionInputs<'_> {
    /// Steps the balls `first..first + n` (at most [`LANES`]), whose positions, velocities and
    /// spins are `p`, `v`, `w` (`3 n` coordinates each, ball by ball); false when one of them
    /// is no longer finite; true when one lies more than the margin from its reference
    /// position (with a reference). A pebble of a clump is left alone (its clump moves it).
    #[inline]
    fn lanes(&self, first: usize, p: &mut [Real], v: &mut [Real], w: &mut [Real]) -> (bool, bool) {
        let n = p.len() / 3;
        let range = first..first + n;
        let f: &[Real] = bytemuck::cast_slice(&self.force[range.clone()]);
        let mo: &[Real] = bytemuck::cast_slice(&self.moment[range.clone()]);
        let applied: &[Real] = bytemuck::cast_slice(&self.applied_force[range.clone()]);
        let (mass, m) = (
            &self.mass[range.clone()],
            &self.inertial_mass[range.clone()],
        );
        let (inertia, fixed) = (
            &self.inertial_inertia[range.clone()],
            &self.fixed[range.clone()],
        );
        let clump = &self.clump[range.clone()];
        let (v, w, f, mo, applied) = (
            &mut v[..3 * n],
            &mut w[..3 * n],
            &f[..3 * n],
            &mo[..3 * n],
            &applied[..3 * n],
        );
        let g = [self.gravity.x, self.gravity.y, self.gravity.z];
        // the reference positions (zeros, never exceeded, when there are none)
        let (q, limit2): (&[Real], Real) = match self.reference {
            Some(r) => (bytemuck::cast_slice(&r[range.clone()]), self.limit2),
            None => (&NO_REFERENCE, Real::INFINITY),
        };
        let q = &q[..3 * n];
        // (in a deforming cell, the reference positions' levers of its affine motion)
        let levers: Option<&[Real]> = self.levers.map(|l| bytemuck::cast_slice(&l[range]));
        if let Some((mass, m, inertia)) = uniform(mass, m, inertia, fixed, clump) {
            let (u, forces) = ([mass, m, inertia], (f, mo, applied));
            return match levers {
                None => self.uniform_lanes::<false>(u, (p, v, w), forces, (q, q), limit2),
                Some(l) => self.uniform_lanes::<true>(u, (p, v, w), forces, (q, l), limit2),
            };
        }
        // (the reference positions carried by the affine motion, as the broad phase's own
        // test carries them)
        let mut carried: [Real; 3 * LANES];
        let q = match levers {
            Some(l) => {
                carried = [0.0; 3 * LANES];
                carry(&mut carried[..3 * n], q, l, &self.rate3);
                &carried[..3 * n]
            }
            None => q,
        };
        let mut ok: Lanes = [0.0; LANES];
        let mut far = [false; LANES];
        for l in 0..n.min(LANES) {
            let moves = clump[l] == crate::body::NO_CLUMP;
            let (mut sum, mut d2) = (0.0, 0.0);
            for k in 0..3 {
                let j = 3 * l + k;
                // (force + gravity m) + applied, as in [`acceleration`]
                let total = (f[j] + g[k] * mass[l]) + applied[j];
                // (both divisions always, then a select: no branch)
                let (a, alpha) = (total / m[l], mo[j] / inertia[l]);
                let a = if fixed[l] & (1 << k) == 0 { a } else { 0.0 };
                let alpha = if fixed[l] & (8 << k) == 0 { alpha } else { 0.0 };
                let u = v[j] + a * self.kick;
                let s = w[j] + alpha * self.kick;
                let x = p[j] + u * self.dt;
                v[j] = if moves { u } else { v[j] };
                w[j] = if moves { s } else { w[j] };
                p[j] = if moves { x } else { p[j] };
                sum += x + u + s;
                // |x - x_ref|^2 as the broad phase computes it (0 + d_x^2 is d_x^2 exactly)
                let d = p[j] - q[j];
                d2 += d * d;
            }
            ok[l] = if moves { sum } else { 0.0 };
            far[l] = d2 > limit2;
        }
        let finite = ok.iter().all(|x| x.is_finite());
        let moved = far.iter().any(|&x| x);
        (finite, moved)
    }

    /// [`MotionInputs::lanes`] for a batch of free balls outside clumps that share one mass,
    /// inertial mass and inertia (`[mass, m, inertia]`; a monodisperse packing, or a batch of
    /// one size in a polydisperse one): the same operations on every coordinate (the
    /// products `g_k m` and the divisions by `m` and `I` are those of the general loop, with
    /// the same operands), written as one loop over the batch's `3 n` coordinates with no
    /// per-ball factor to spread over three coordinates, so that it becomes vector
    /// instructions four or eight coordinates wide (the general loop goes two and one at a
    /// time: its divisions were most of its cost). Same bits as the general loop (tested).
    /// `AFFINE`: the reference positions `q` are carried by the cell's affine motion, their
    /// levers `l` ([`carry`]'s operations, in the loop).
    #[inline]
    fn uniform_lanes<const AFFINE: bool>(
        &self,
        [mass, m, inertia]: [Real; 3],
        (p, v, w): (&mut [Real], &mut [Real], &mut [Real]),
        (f, mo, applied): (&[Real], &[Real], &[Real]),
        (q, l): (&[Real], &[Real]),
        limit2: Real,
    ) -> (bool, bool) {
        let n3 = p.len();
        let (v, w, f, mo, applied, q) = (
            &mut v[..n3],
            &mut w[..n3],
            &f[..n3],
            &mo[..n3],
            &applied[..n3],
            &q[..n3],
        );
        let (l, rate) = (&l[..n3], &self.rate3[..n3]);
        let g = &self.gravity3[..n3];
        let mut sum: [Real; 3 * LANES] = [0.0; 3 * LANES];
        let mut d2: [Real; 3 * LANES] = [0.0; 3 * LANES];
        let (sum, d2) = (&mut sum[..n3], &mut d2[..n3]);
        for j in 0..n3 {
            let total = (f[j] + g[j] * mass) + applied[j];
            let u = v[j] + (total / m) * self.kick;
            let s = w[j] + (mo[j] / inertia) * self.kick;
            let x = p[j] + u * self.dt;
            v[j] = u;
            w[j] = s;
            p[j] = x;
            sum[j] = x + u + s;
            let d = match AFFINE {
                true => x - (q[j] + rate[j] * l[j]),
                false => x - q[j],
            };
            d2[j] = d * d;
        }
        // |x - x_ref|^2 of each ball, summed as the broad phase sums it (0 + d_x^2 is d_x^2)
        let moved = (0..n3 / 3).any(|l| (d2[3 * l] + d2[3 * l + 1]) + d2[3 * l + 2] > limit2);
        (sum.iter().fold(true, |a, x| a & x.is_finite()), moved)
    }
}

/// The reference positions `q` of a batch (three coordinates a ball) carried by the cell's
/// affine motion into `out`, given their levers `w` and the rates `rate3` repeated ball after
/// ball: `q + rate w` coordinate by coordinate, as [`crate::detect::Affine::carried`] computes
/// it.
#[inline]
fn carry(out: &mut [Real], q: &[Real], w: &[Real], rate3: &[Real; 3 * LANES]) {
    for (((o, q), w), r) in out.iter_mut().zip(q).zip(w).zip(rate3) {
        *o = q + r * w;
    }
}

/// The shared mass, inertial mass and inertia of a batch of balls, when they all have the
/// same (bit for bit), no fixed DOF, and belong to no clump.
#[inline]
fn uniform(
    mass: &[Real],
    m: &[Real],
    inertia: &[Real],
    fixed: &[u8],
    clump: &[u32],
) -> Option<(Real, Real, Real)> {
    let (&m0, &i0, &mass0) = (m.first()?, inertia.first()?, mass.first()?);
    let same = |x: &[Real], x0: Real| {
        x.iter()
            .fold(true, |a, y| a & (y.to_bits() == x0.to_bits()))
    };
    let free = fixed.iter().fold(0, |a, &x| a | x) == 0
        && clump.iter().all(|&c| c == crate::body::NO_CLUMP);
    (free && same(m, m0) && same(inertia, i0) && same(mass, mass0)).then_some((mass0, m0, i0))
}
