//! The timestep stage ([`Timestep`]: what it reads and writes): the step of the cycle by the
//! mode (see the room's documentation), and what set it ([`Limit`]).

use super::modes::*;
use crate::body::{Balls, Clumps, ModelError, Wall};
use crate::contact::NO_LAW;
use crate::law::ContactModel;
use crate::math::{Real, Vec3};
use crate::motion::acceleration;

/// The critical-timestep estimate of the automatic mode (without its safety factor), made from
/// every contact's stiffness (`crate::stiffness`), and the body and DOF that set it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// The estimate, s.
    pub dt: Real,
    /// The body (a ball's index; a clump's is the ball count plus its index).
    pub ball: u32,
    /// The DOF (0..6).
    pub dof: u8,
}

/// What choosing the timestep reads and writes.
pub struct Timestep<'a> {
    /// How the step is chosen.
    pub mode: &'a TimestepMode,
    /// Velocities, forces and masses (read); the scaled mode writes the inertial masses and
    /// rescales the velocities.
    pub balls: &'a mut Balls,
    /// Likewise for clumps.
    pub clumps: &'a mut Clumps,
    /// The walls (read: the kinematic constraint of a moving wall, the per-model formulas).
    pub walls: &'a [Wall],
    /// The contact models, by law index.
    pub laws: &'a [ContactModel],
    /// The law of each pair of materials (`materials x materials`).
    pub pair_law: &'a [u16],
    /// The number of materials.
    pub materials: usize,
    /// Gravitational acceleration, m/s^2.
    pub gravity: Vec3,
    /// The last cycle's timestep, s.
    pub last_dt: Real,
    /// Cycles run so far.
    pub cycles: u64,
    /// The per-DOF stiffness sums of this cycle (read by the scaled mode; made by the caller).
    pub dof_stiffness: &'a DofStiffness,
    /// What set the step (written; kept between the cycles that choose it).
    pub dt_limit: &'a mut Limit,
    /// Over ranks: the balls this rank owns, and how its choices meet the others' (None: one
    /// process).
    pub among: Option<&'a dyn Among>,
}

impl Timestep<'_> {
    /// True for a ball another rank owns (its forces and sums are partial here).
    fn copy(&self, i: usize) -> bool {
        self.among.is_some_and(|a| !a.own(i))
    }

    /// Over ranks, the least of every rank's `mine` (None: this rank has none), the ball as
    /// its index in one process; `mine` itself in one process.
    fn meet(&self, mine: Option<(Real, u32)>) -> Option<(Real, u32)> {
        let Some(among) = self.among else {
            return mine;
        };
        let pick = mine.map(|(value, ball)| Pick {
            value,
            ball: ball as usize,
            dof: 0,
            radius: 0.0,
        });
        let least = among.least(&[pick], &self.balls.id);
        least[0].map(|p| (p.value, p.ball as u32))
    }

    /// The contact model of a pair of materials, if any.
    fn contact_model(&self, a: usize, b: usize) -> Option<&ContactModel> {
        let l = self.pair_law[a * self.materials + b];
        (l != NO_LAW).then(|| &self.laws[l as usize])
    }

    /// Chooses the timestep of the next cycle (the first stage of the cycle) and records what
    /// set it in [`Timestep::dt_limit`]; `estimate`: the critical estimate, when the automatic
    /// mode chooses in this cycle. In scaled mode it first sets the fictitious inertial masses
    /// and rescales the velocities.
    ///
    /// # Errors
    /// [`ModelError::BadTimestep`]: a step that is not a positive finite number.
    pub fn choose(mut self, estimate: Option<Estimate>) -> Result<Real, ModelError> {
        let (dt, limit) = match self.mode.clone() {
            TimestepMode::Fixed(dt) => (dt, Limit::Fixed),
            // (between the cycles that choose it, the step and what set it are kept)
            TimestepMode::Auto(a) if !a.chooses_at(self.cycles) && self.last_dt > 0.0 => {
                (self.last_dt, *self.dt_limit)
            }
            TimestepMode::Auto(a) => {
                let est = estimate.expect("the automatic mode chooses with an estimate");
                let mut best = (
                    a.safety * est.dt,
                    Limit::Stiffness {
                        ball: est.ball,
                        dof: est.dof,
                    },
                );
                if let Some(eps) = a.kinematic_eps {
                    best = self.kinematic(eps, best, a.cap.unwrap_or(Real::INFINITY));
                }
                if let Some(cap) = a.cap {
                    if cap < best.0 {
                        best = (cap, Limit::Cap);
                    }
                }
                if best.0.is_infinite() {
                    let (t, ball) = self.one_contact_estimate();
                    best = (a.safety * t, Limit::OneContact { ball });
                }
                best
            }
            TimestepMode::Model(m) => {
                let mut best = self.model_timestep(m.loading_steps);
                if let Some(cap) = m.cap {
                    if cap < best.0 {
                        best = (cap, Limit::Cap);
                    }
                }
                best
            }
            TimestepMode::Scaled(s) => {
                self.scale_masses(&s);
                let mut best = (s.dt, Limit::Cap);
                if let Some(eps) = s.kinematic_eps {
                    best = self.kinematic(eps, best, Real::INFINITY);
                }
                best
            }
        };
        if !(dt.is_finite() && dt > 0.0) {
            return Err(ModelError::BadTimestep(dt));
        }
        *self.dt_limit = limit;
        Ok(dt)
    }

    /// The per-model timestep (seed 003): for every pair of pieces that can meet, the smallest
    /// ball of each material (by mass; a fixed ball counts as infinitely heavy) and each wall,
    /// the pair's contact model's [`crate::law::ContactModel::model_timestep`]; the smallest
    /// over pairs. Infinite when no pair has a model.
    pub fn model_timestep(&self, loading_steps: Real) -> (Real, Limit) {
        let n = self.materials;
        // smallest (mass, radius) per material, and the count; None: no ball of it
        let mut small: Vec<Option<(Option<Real>, Real, usize)>> = vec![None; n];
        let mut which = vec![0; n];
        for i in (0..self.balls.len()).filter(|&i| !self.copy(i)) {
            let m = self.balls.material[i] as usize;
            let mass = self.balls.contact_mass(i);
            let better = match small[m] {
                None => true,
                Some((old, _, _)) => mass.unwrap_or(Real::INFINITY) < old.unwrap_or(Real::INFINITY),
            };
            let count = small[m].map_or(0, |s| s.2) + 1;
            if better {
                small[m] = Some((mass, self.balls.radius[i], count));
                which[m] = i;
            } else if let Some(s) = small[m].as_mut() {
                s.2 = count;
            }
        }
        if let Some(among) = self.among {
            small = self.smallest_among(among, &small, &which);
        }
        let mut best = (Real::INFINITY, Limit::Cap);
        let mut consider =
            |law: Option<&crate::law::ContactModel>, mass: Real, radius: Real, limit: Limit| {
                if let Some(law) = law {
                    if mass > 0.0 {
                        let t = law.model_timestep(mass, radius, loading_steps);
                        if t < best.0 {
                            best = (t, limit);
                        }
                    }
                }
            };
        for a in 0..n {
            let Some((ma, ra, ca)) = small[a] else {
                continue;
            };
            for b in a..n {
                let Some((mb, rb, _)) = small[b] else {
                    continue;
                };
                if a == b && ca < 2 {
                    continue;
                }
                let mass = crate::contact::ball_ball::effective_mass(ma, mb);
                consider(
                    self.contact_model(a, b),
                    mass,
                    ra * rb / (ra + rb),
                    Limit::Model {
                        a: a as u32,
                        b: b as u32,
                        wall: false,
                    },
                );
            }
            for (w, wall) in self.walls.iter().enumerate() {
                consider(
                    self.contact_model(a, wall.material),
                    ma.unwrap_or(0.0),
                    ra,
                    Limit::Model {
                        a: a as u32,
                        b: w as u32,
                        wall: true,
                    },
                );
            }
        }
        best
    }

    /// Over ranks, [`Timestep::model_timestep`]'s smallest ball of each material and count of
    /// its balls, of every rank's (`which`: the ball of each of this rank's).
    fn smallest_among(
        &self,
        among: &dyn Among,
        small: &[Option<(Option<Real>, Real, usize)>],
        which: &[usize],
    ) -> Vec<Option<(Option<Real>, Real, usize)>> {
        // (a fixed ball, infinitely heavy, comes after every free one, as in one process)
        let picks: Vec<Option<Pick>> = (small.iter().zip(which))
            .map(|(s, &ball)| {
                s.map(|(mass, radius, _)| Pick {
                    value: mass.unwrap_or(Real::INFINITY),
                    ball,
                    dof: u8::from(mass.is_none()),
                    radius,
                })
            })
            .collect();
        let counts: Vec<u64> = small.iter().map(|s| s.map_or(0, |s| s.2 as u64)).collect();
        let counts = among.total(&counts);
        let least = among.least(&picks, &self.balls.id);
        (least.iter().zip(counts))
            .map(|(p, count)| {
                p.map(|p| {
                    let mass = (p.dof == 0).then_some(p.value);
                    (mass, p.radius, count as usize)
                })
            })
            .collect()
    }

    /// The smaller of `best` and the kinematic time limits of every ball and every moving wall
    /// (seed 000, eq. 4: a wall has no acceleration, its limit is `eps / v` with `v` the
    /// largest speed of its facets' peripheries, [`crate::body::Wall::max_speed`]).
    fn kinematic(&self, eps: Real, mut best: (Real, Limit), cap: Real) -> (Real, Limit) {
        // (what set the step before the balls: kept when no rank's ball is below it)
        let given = best;
        let b = &*self.balls;
        let g = &self.gravity;
        let h = 0.5 * self.last_dt;
        // A ball whose limit is surely above the best so far and the cap applied after this
        // (it could not set the step) is passed over without its square roots: its
        // displacement in the time T = min(best, cap) is v T + a T^2 / 2 with
        // v <= |vel| + |a| h and |a| <= |F| / m, and (x + y + z)^2 <= 3 (x^2 + y^2 + z^2)
        // bounds its square; at or under eps^2 (less a margin for rounding) the ball's limit
        // is above T. The test runs for a block of balls at a time, branch-free, with the best
        // at the block's start (a later best is smaller: a test against it passes over more
        // balls, never one this one keeps), then the kept balls one by one.
        const BLOCK: usize = 16;
        // (the bound's factors that do not depend on the ball, as the bound groups them)
        let under_factor = eps * eps * (1.0 - 1e-9);
        for start in (0..b.len()).step_by(BLOCK) {
            let end = (start + BLOCK).min(b.len());
            let t2 = best.0.min(cap).powi(2);
            // (bit j: ball start + j is kept)
            let mut keep: u32 = (1 << (end - start)) - 1;
            if t2.is_finite() {
                let f_factor = h * h * t2 + 0.25 * t2 * t2;
                let (force, mass) = (&b.force[start..end], &b.mass[start..end]);
                let (applied, vel) = (&b.applied_force[start..end], &b.vel[start..end]);
                let inertial = &b.inertial_mass[start..end];
                for j in 0..force.len() {
                    // (the bound times m^2, |a|^2 m^2 = |F|^2: no quotient)
                    let f2 = (force[j] + g * mass[j] + applied[j]).norm_squared();
                    let m2 = inertial[j] * inertial[j];
                    let v2 = vel[j].norm_squared();
                    let bound = 3.0 * (v2 * t2 * m2 + f2 * f_factor);
                    // (kept unless surely under: a NaN bound keeps the ball)
                    let under = bound <= under_factor * m2;
                    keep &= !((under as u32) << j);
                }
            }
            while keep != 0 {
                let i = start + keep.trailing_zeros() as usize;
                keep &= keep - 1;
                if b.is_pebble(i) || self.copy(i) {
                    continue;
                }
                let a = acceleration(b, i, g);
                let v = b.vel[i] + a * h;
                let t = kinematic_limit(v.norm(), a.norm(), eps);
                if t < best.0 {
                    best = (t, Limit::Kinematic { ball: i as u32 });
                }
            }
        }
        if self.among.is_some() {
            let mine = match best.1 {
                Limit::Kinematic { ball } => Some((best.0, ball)),
                _ => None,
            };
            best = (self.meet(mine)).map_or(given, |(t, ball)| (t, Limit::Kinematic { ball }));
        }
        // A clump: each pebble, with the velocity `v + ω x d` and the acceleration
        // `a + α x d + ω x (ω x d)` of its centre (`α = I⁻¹ (M - ω x L)`, Euler's equations).
        let cl = &*self.clumps;
        for c in 0..cl.len() {
            let a = cl.acceleration(c, &self.gravity);
            let v = cl.vel[c] + a * (0.5 * self.last_dt);
            let w = cl.synchronized_spin(c, self.last_dt);
            let alpha = if cl.rotation_fixed(c) {
                Vec3::zeros()
            } else {
                let l = cl.inertial_tensor(c) * w;
                cl.inverse_inertia(c) * (cl.moment[c] - w.cross(&l))
            };
            let first = cl.first[c] as usize;
            for p in first..first + cl.count[c] as usize {
                let d = self.balls.pos[p] - cl.pos[c];
                let vp = v + w.cross(&d);
                let ap = a + alpha.cross(&d) + w.cross(&w.cross(&d));
                let t = kinematic_limit(vp.norm(), ap.norm(), eps);
                if t < best.0 {
                    best = (t, Limit::Kinematic { ball: p as u32 });
                }
            }
        }
        for (w, wall) in self.walls.iter().enumerate().filter(|(_, w)| w.is_moving()) {
            let t = kinematic_limit(wall.max_speed(), 0.0, eps);
            if t < best.0 {
                best = (t, Limit::WallKinematic { wall: w as u32 });
            }
        }
        best
    }

    /// When nothing constrains an automatic timestep (no active contact, nothing moving): the
    /// estimate `sqrt(m / k)` of each free ball with one contact of the stiffest model its
    /// material can use (largest of kn, ks), minimum over balls.
    fn one_contact_estimate(&self) -> (Real, u32) {
        let n = self.materials;
        let mut best = (Real::INFINITY, 0);
        for i in 0..self.balls.len() {
            // (a pebble: its clump's mass)
            if self.balls.contact_mass(i).is_none() || self.copy(i) {
                continue;
            }
            let mi = self.balls.material[i] as usize;
            let k = (0..n)
                .filter_map(|j| self.contact_model(mi, j))
                .map(|law| {
                    let r = self.balls.radius[i];
                    let s = law.stiffness(0.1 * r, r);
                    s.kn.max(s.ks)
                })
                .fold(0.0, Real::max);
            let t = (self.balls.inertial_mass[i] / k).sqrt();
            if t < best.0 {
                best = (t, i as u32);
            }
        }
        let mine = (best.0 < Real::INFINITY).then_some(best);
        self.meet(mine).unwrap_or((Real::INFINITY, 0))
    }

    /// Timestep scaling (seed 000, eqs. 5-8): `m_new = k_tran dt^2`, `v_new = v m / m_new`,
    /// `I_new = k_rot dt^2`, `w_new = w I / I_new`, with `k` the body's largest diagonal
    /// stiffness (or its largest row sum, estimator `Bound`; the sums in
    /// [`Timestep::dof_stiffness`], made by the caller this cycle). A body without
    /// stiffness keeps its real mass and inertia.
    fn scale_masses(&mut self, s: &Scaled) {
        let ks = self.dof_stiffness;
        let dt2 = s.dt * s.dt;
        let k_of = |i: usize, k: usize| match s.estimator {
            Estimator::Diagonal => ks.diagonal[i][k],
            Estimator::Bound => ks.row_abs[i][k],
        };
        // Clumps (bodies after the pieces): the same rule; the fictitious moment of inertia is
        // the same about every principal axis; the angular momentum is kept (eq. 8).
        let nb = self.balls.len();
        let cl = &mut *self.clumps;
        for c in 0..cl.len() {
            let free = |k: usize| cl.fixed[c] & (1 << k) == 0;
            let k_tran = (0..3)
                .filter(|&k| free(k))
                .map(|k| k_of(nb + c, k))
                .fold(0.0, Real::max);
            let k_rot = (3..6)
                .filter(|&k| free(k))
                .map(|k| k_of(nb + c, k))
                .fold(0.0, Real::max);
            let m_new = if k_tran > 0.0 {
                k_tran * dt2
            } else {
                cl.mass[c]
            };
            let fm = cl.inertial_mass[c] / m_new;
            for k in (0..3).filter(|&k| free(k)) {
                cl.vel[c][k] *= fm;
            }
            cl.inertial_mass[c] = m_new;
            cl.inertial_principal[c] = if k_rot > 0.0 {
                Vec3::repeat(k_rot * dt2)
            } else {
                cl.principal[c]
            };
            if !cl.rotation_fixed(c) {
                cl.spin[c] = cl.inverse_inertia(c) * cl.angmom[c];
            }
            let translations_fixed = !(0..3).any(free);
            let first = cl.first[c] as usize;
            for p in first..first + cl.count[c] as usize {
                self.balls.inertial_mass[p] = if translations_fixed {
                    Real::INFINITY
                } else {
                    m_new
                };
            }
        }
        let b = &mut *self.balls;
        for i in 0..b.len() {
            if b.is_pebble(i) {
                continue;
            }
            let free = |k: usize| b.fixed[i] & (1 << k) == 0;
            let k_tran = (0..3)
                .filter(|&k| free(k))
                .map(|k| k_of(i, k))
                .fold(0.0, Real::max);
            let k_rot = (3..6)
                .filter(|&k| free(k))
                .map(|k| k_of(i, k))
                .fold(0.0, Real::max);
            let m_new = if k_tran > 0.0 {
                k_tran * dt2
            } else {
                b.mass[i]
            };
            let i_new = if k_rot > 0.0 {
                k_rot * dt2
            } else {
                b.inertia[i]
            };
            // Eqs. 6 and 8: momentum and angular momentum are kept. Fixed DOFs keep their
            // prescribed velocity.
            let (fm, fi) = (b.inertial_mass[i] / m_new, b.inertial_inertia[i] / i_new);
            for k in 0..3 {
                if free(k) {
                    b.vel[i][k] *= fm;
                }
                if free(k + 3) {
                    b.spin[i][k] *= fi;
                }
            }
            b.inertial_mass[i] = m_new;
            b.inertial_inertia[i] = i_new;
        }
    }
}
