//! The timestep stage on the model: the step of the cycle by the mode in
//! [`crate::model::Settings::timestep`] ([`crate::timestep`] says what each mode does), and
//! what set it ([`crate::timestep::Limit`]).

use crate::math::{Real, Vec3};
use crate::model::{Model, ModelError};
use crate::timestep::Estimator;
use crate::timestep::*;

impl Model {
    /// Chooses the timestep of the next cycle (the first stage of the cycle) and records what
    /// set it in [`Model::dt_limit`]. In scaled mode it first sets the fictitious inertial
    /// masses and rescales the velocities.
    pub(crate) fn choose_timestep(&mut self) -> Result<Real, ModelError> {
        let (dt, limit) = match self.settings.timestep.clone() {
            TimestepMode::Fixed(dt) => (dt, Limit::Fixed),
            // (between the cycles that choose it, the step and what set it are kept)
            TimestepMode::Auto(a) if !a.chooses_at(self.cycles) && self.last_dt > 0.0 => {
                (self.last_dt, self.dt_limit)
            }
            TimestepMode::Auto(a) => {
                let mut ks = std::mem::take(&mut self.dof_stiffness);
                // (the last force pass summed the diagonal at these positions and velocities:
                // the same terms in the same order per ball, bit for bit)
                let fused = a.estimator == Estimator::Diagonal && ks.fused_at == Some(self.cycles);
                ks.fused_at = None;
                if fused {
                    debug_assert!(self.same_as_separate_sums(&ks));
                } else {
                    ks.compute(self, a.estimator, true);
                }
                let est = ks.critical(self, a.estimator);
                self.dof_stiffness = ks;
                let mut best = (
                    a.safety * est.dt,
                    Limit::Stiffness {
                        ball: est.ball as u32,
                        dof: est.dof as u8,
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
        self.dt_limit = limit;
        Ok(dt)
    }

    /// True when the force pass sums the automatic timestep's diagonal stiffness for the next
    /// cycle ([`crate::springs`]' `add_ball_diagonals_lanes`, in the one-pass loop of
    /// src/force/ranges.rs, where each contact's balls are in cache): the automatic mode with
    /// the diagonal estimator when the next cycle chooses its step ([`Auto::chooses_at`]), no
    /// clump (each ball its own body), and no programmed wall (whose velocity, which the
    /// foresight of a closing contact reads, changes before the next step is chosen).
    pub(crate) fn fuses_stiffness(&self) -> bool {
        matches!(&self.settings.timestep, TimestepMode::Auto(a)
            if a.estimator == Estimator::Diagonal && a.chooses_at(self.cycles))
            && self.clumps.is_empty()
            && self.walls.iter().all(|w| w.program.is_none())
    }

    /// True when the sums the force pass made ([`Model::fuses_stiffness`]) are those of
    /// [`DofStiffness::compute`] now, bit for bit (checked in debug builds: every test and
    /// case of the automatic timestep compares the two).
    fn same_as_separate_sums(&self, fused: &DofStiffness) -> bool {
        let mut separate = DofStiffness::default();
        separate.compute(self, Estimator::Diagonal, true);
        let bits =
            |d: &[[Real; 6]]| -> Vec<u64> { d.iter().flatten().map(|x| x.to_bits()).collect() };
        bits(&fused.diagonal) == bits(&separate.diagonal)
    }

    /// The per-model timestep (seed 003): for every pair of pieces that can meet, the smallest
    /// ball of each material (by mass; a fixed ball counts as infinitely heavy) and each wall,
    /// the pair's contact model's [`crate::law::ContactModel::model_timestep`]; the smallest
    /// over pairs. Infinite when no pair has a model.
    pub fn model_timestep(&self, loading_steps: Real) -> (Real, Limit) {
        let n = self.materials.len();
        // smallest (mass, radius) per material; None: no ball of it
        let mut small: Vec<Option<(Option<Real>, Real, usize)>> = vec![None; n];
        for i in 0..self.balls.len() {
            let m = self.balls.material[i] as usize;
            let mass = self.balls.contact_mass(i);
            let better = match small[m] {
                None => true,
                Some((old, _, _)) => mass.unwrap_or(Real::INFINITY) < old.unwrap_or(Real::INFINITY),
            };
            let count = small[m].map_or(0, |s| s.2) + 1;
            if better {
                small[m] = Some((mass, self.balls.radius[i], count));
            } else if let Some(s) = small[m].as_mut() {
                s.2 = count;
            }
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

    /// The smaller of `best` and the kinematic time limits of every ball and every moving wall
    /// (seed 000, eq. 4: a wall has no acceleration, its limit is `eps / v` with `v` the
    /// largest speed of its facets' peripheries, [`crate::body::Wall::max_speed`]).
    fn kinematic(&self, eps: Real, mut best: (Real, Limit), cap: Real) -> (Real, Limit) {
        let b = &self.balls;
        let g = &self.settings.gravity;
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
                if b.is_pebble(i) {
                    continue;
                }
                let a = self.acceleration(i);
                let v = b.vel[i] + a * h;
                let t = kinematic_limit(v.norm(), a.norm(), eps);
                if t < best.0 {
                    best = (t, Limit::Kinematic { ball: i as u32 });
                }
            }
        }
        // A clump: each pebble, with the velocity `v + ω x d` and the acceleration
        // `a + α x d + ω x (ω x d)` of its centre (`α = I⁻¹ (M - ω x L)`, Euler's equations).
        let cl = &self.clumps;
        for c in 0..cl.len() {
            let a = cl.acceleration(c, &self.settings.gravity);
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
        let n = self.materials.len();
        let mut best = (Real::INFINITY, 0);
        for i in 0..self.balls.len() {
            // (a pebble: its clump's mass)
            if self.balls.contact_mass(i).is_none() {
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
        best
    }

    /// Timestep scaling (seed 000, eqs. 5-8): `m_new = k_tran dt^2`, `v_new = v m / m_new`,
    /// `I_new = k_rot dt^2`, `w_new = w I / I_new`, with `k` the body's largest diagonal
    /// stiffness (or its largest row sum, estimator `Bound`). A body without
    /// stiffness keeps its real mass and inertia.
    fn scale_masses(&mut self, s: &Scaled) {
        let mut ks = std::mem::take(&mut self.dof_stiffness);
        ks.compute(self, s.estimator, true);
        let dt2 = s.dt * s.dt;
        let k_of = |i: usize, k: usize| match s.estimator {
            Estimator::Diagonal => ks.diagonal[i][k],
            Estimator::Bound => ks.row_abs[i][k],
        };
        // Clumps (bodies after the pieces): the same rule; the fictitious moment of inertia is
        // the same about every principal axis; the angular momentum is kept (eq. 8).
        let nb = self.balls.len();
        let cl = &mut self.clumps;
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
        let b = &mut self.balls;
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
        self.dof_stiffness = ks;
    }
}

impl Model {
    /// What set a timestep, in words, with the ball's id.
    pub fn describe_limit(&self, limit: Limit) -> String {
        let model = self;
        match limit {
            Limit::Fixed => "fixed".into(),
            Limit::Cap => match model.settings.timestep {
                TimestepMode::Scaled(_) => "the scaled timestep".into(),
                _ => "the cap (dt)".into(),
            },
            Limit::Stiffness { ball, dof } => {
                let (b, d) = (ball as usize, dof as usize);
                let what = if b >= model.balls.len() && d >= 3 {
                    format!("rotation about principal axis {}", d - 2)
                } else {
                    crate::stiffness::dof_name(d).to_string()
                };
                format!("critical estimate of {} ({what})", model.body_label(b))
            }
            Limit::Kinematic { ball } => format!(
                "kinematic constraint of {}",
                model.piece_label(ball as usize)
            ),
            Limit::WallKinematic { wall } => format!(
                "kinematic constraint of wall \"{}\"",
                model
                    .walls
                    .get(wall as usize)
                    .map_or("?", |w| w.name.as_str())
            ),
            Limit::Model { a, b, wall } => {
                let mat = |m: u32| {
                    model
                        .materials
                        .get(m as usize)
                        .map_or("?", |m| m.name.as_str())
                };
                let (other, law) = if wall {
                    let w = &model.walls[b as usize];
                    (
                        format!("wall \"{}\"", w.name),
                        model.contact_model(a as usize, w.material),
                    )
                } else {
                    (
                        format!("a {} ball", mat(b)),
                        model.contact_model(a as usize, b as usize),
                    )
                };
                format!(
                    "{} formula for a {} ball and {other}",
                    law.map_or("?", |l| l.name()),
                    mat(a)
                )
            }
            Limit::OneContact { ball } => {
                format!(
                    "one-contact estimate of {} (no active contact)",
                    model.piece_label(ball as usize)
                )
            }
        }
    }
}
