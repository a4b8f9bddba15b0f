//! Hertz-Mindlin: Hertz normal force, Mindlin's no-slip tangential stiffness, Coulomb friction,
//! and a nonlinear dashpot tuned to a requested restitution.
//!
//! For a pair with effective modulus `E* = 1/((1-v_a^2)/E_a + (1-v_b^2)/E_b)`, effective shear
//! modulus `G* = 1/(2(2-v_a)(1+v_a)/E_a + 2(2-v_b)(1+v_b)/E_b)` (a rigid body: `E = inf`) and
//! effective radius `R*`:
//! - elastic normal force `F_e = (4/3) E* sqrt(R*) d^(3/2)`, tangent stiffness
//!   `S_n = dF_e/dd = 2 E* sqrt(R* d)`;
//! - tangential stiffness (no slip) `S_t = 8 G* sqrt(R* d)`, used incrementally:
//!   `F_s <- F_s - S_t du_t`;
//! - dashpots `-a sqrt(m* S_n) v_n` (normal) and `-a sqrt(m* S_t) v_t` (shear, in parallel
//!   with the shear spring);
//! - Coulomb limit ([`super::FrictionLimit`]): by default spring plus shear dashpot stay
//!   within `friction * F_n`; with `friction_limit = "spring"` the spring alone, the dashpot
//!   added only while it sticks;
//! - unloading (by default): when the shear stiffness falls with the overlap, the spring force
//!   falls in proportion first (`F_s <- F_s S_t/S_t,prev`, the contact radius ratio, as
//!   LAMMPS's `mindlin_rescale/force`). A spring whose stiffness falls at a constant force
//!   holds `|F_s|^2/(2 S_t)`, more energy than any force did work for: unloading would create
//!   energy, and a spring that slides at the end of a clamped impact (no normal force, the
//!   overlap not yet closed) would hold ever more as `S_t -> 0`. Rescaled, the spring loses
//!   energy both ways (loading at a constant force lowers `|F_s|^2/(2 S_t)`), which the energy
//!   books show as the model's loss. `friction_limit = "spring"` keeps the plain incremental
//!   law, as before.
//!
//! The damping coefficient `a` is what makes a head-on collision produce the requested
//! restitution `e`. Scaling `d = L x`, `t = (L / v) s` with `L = (m* v^2 / K)^(2/5)`,
//! `K = (4/3) E* sqrt(R*)`, turns the impact into `x'' = -x^(3/2) - a sqrt(3/2) x^(1/4) x'`,
//! `x(0) = 0`, `x'(0) = 1`: the restitution depends on `a` only, not on the impact speed, the
//! masses or the moduli. [`super::restitution`] solves that equation and inverts it for `a`,
//! with the normal force clamped at zero or not (`clamp`). (The popular closed form
//! `a = -2 sqrt(5/6) ln e / sqrt(ln^2 e + pi^2)` gives `e` to 5 digits when the force is not
//! clamped, but 0.325 instead of 0.2 when it is: the Chung & Ooi page shows the table.)

use super::contact_law::{quarter_period, ContactLaw};
use super::linear::shear_force;
use super::restitution::{damping_for, Shape};
use super::ContactStiffness;
use super::{ContactForce, FrictionLimit, Kinematics, LawState};
use crate::math::num;
use crate::math::{Real, Vec3};

/// The elastic constants of a pair of materials.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct HertzPair {
    /// Effective Young's modulus E*, Pa.
    pub e_star: Real,
    /// Effective shear modulus G*, Pa.
    pub g_star: Real,
}

impl HertzPair {
    /// From the Young's moduli (Pa, `inf` for a rigid body) and Poisson's ratios of two
    /// materials.
    pub fn of(e_a: Real, nu_a: Real, e_b: Real, nu_b: Real) -> Self {
        let e_star = 1.0 / ((1.0 - nu_a * nu_a) / e_a + (1.0 - nu_b * nu_b) / e_b);
        let g_star = 1.0
            / (2.0 * (2.0 - nu_a) * (1.0 + nu_a) / e_a + 2.0 * (2.0 - nu_b) * (1.0 + nu_b) / e_b);
        HertzPair { e_star, g_star }
    }
}

/// Parameters of the Hertz-Mindlin model (moduli already multiplied by the softening factor).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Hertz {
    /// Effective moduli.
    pub pair: HertzPair,
    /// Coulomb friction coefficient.
    pub friction: Real,
    /// The requested coefficient of restitution, in (0, 1].
    pub restitution: Real,
    /// True: the total normal force is clamped at zero.
    pub clamp: bool,
    /// Damping coefficient `a` (derived from the restitution).
    pub damping: Real,
    /// How the Coulomb limit bounds the shear force.
    pub limit: FrictionLimit,
}

impl Hertz {
    /// The model for a requested restitution (damping derived, see the module).
    pub fn new(pair: HertzPair, friction: Real, restitution: Real, clamp: bool) -> Self {
        Hertz {
            pair,
            friction,
            restitution,
            clamp,
            damping: damping_for(Shape::Hertz, restitution, clamp),
            limit: FrictionLimit::Total,
        }
    }

    /// The same model with another Coulomb rule.
    pub fn with_limit(self, limit: FrictionLimit) -> Self {
        Hertz { limit, ..self }
    }

    /// Tangent normal and shear stiffnesses `(2 E* sqrt(R* d), 8 G* sqrt(R* d))`, N/m.
    #[inline]
    pub fn tangent(&self, overlap: Real, radius: Real) -> (Real, Real) {
        let a = (radius * overlap).sqrt();
        (2.0 * self.pair.e_star * a, 8.0 * self.pair.g_star * a)
    }

    /// Elastic normal force `(4/3) E* sqrt(R*) d^(3/2)`, N.
    #[inline]
    pub fn elastic(&self, overlap: Real, radius: Real) -> Real {
        4.0 / 3.0 * self.pair.e_star * radius.sqrt() * overlap * overlap.sqrt()
    }

    /// Elastic normal energy `(8/15) E* sqrt(R*) d^(5/2)`, J.
    pub fn normal_energy(&self, overlap: Real, radius: Real) -> Real {
        0.4 * self.elastic(overlap, radius) * overlap
    }

    /// Updates the shear state and returns the force on b (local coordinates).
    pub fn force(&self, k: &Kinematics, state: &mut LawState) -> ContactForce {
        let d = k.overlap.max(0.0);
        let (s_n, s_t) = self.tangent(d, k.radius);
        let mut f_n = self.elastic(d, k.radius) - self.damping * (k.mass * s_n).sqrt() * k.vn;
        if self.clamp {
            f_n = f_n.max(0.0);
        }
        let c_s = self.damping * (k.mass * s_t).sqrt();
        let limit = match self.limit {
            FrictionLimit::Spring => self.friction * f_n,
            FrictionLimit::Total => self.friction * f_n.abs(),
        };
        // the shear stiffness of the previous cycle (for the spring's stored energy then), and
        // the default rule's rescaling of an unloading spring
        // (without books and with the spring rule, nothing needs it)
        let s_t_prev = if k.books || self.limit == FrictionLimit::Total {
            self.tangent(k.overlap_prev.max(0.0), k.radius).1
        } else {
            s_t
        };
        let rescale = match self.limit {
            FrictionLimit::Total if s_t < s_t_prev => s_t / s_t_prev,
            _ => 1.0,
        };
        let (fs, sliding, lost, stored_before) =
            shear_force(k, state, (s_t_prev, s_t), self.limit, limit, c_s, rescale);
        ContactForce {
            local: Vec3::new(f_n, fs.y, fs.z),
            sliding,
            dissipated: lost,
            stored_before,
        }
    }
}

impl ContactLaw for Hertz {
    const NAME: &'static str = "hertz";
    const SOURCE: &'static str = "src/law/hertz.rs::Hertz::force";

    fn friction_limit(&self) -> FrictionLimit {
        self.limit
    }

    fn force(&self, k: &Kinematics, state: &mut LawState) -> ContactForce {
        Hertz::force(self, k, state)
    }

    fn elastic_normal(&self, overlap: Real, radius: Real, _state: &LawState) -> Real {
        self.elastic(overlap.max(0.0), radius)
    }

    fn stiffness(&self, overlap: Real, radius: Real) -> ContactStiffness {
        let (kn, ks) = self.tangent(overlap.max(0.0), radius);
        ContactStiffness::springs(kn, ks)
    }

    fn hertz_modulus(&self) -> Option<Real> {
        Some(self.pair.e_star)
    }

    fn normal_energy(&self, overlap: Real, radius: Real, _state: &LawState) -> Real {
        Hertz::normal_energy(self, overlap.max(0.0), radius)
    }

    /// `(pi/2) sqrt(m*/k_H) / N` with `k_H = 2 E* sqrt(R* d)` the tangent normal stiffness at
    /// the overlap `d = 0.1 R*`.
    fn model_timestep(&self, mass: Real, radius: Real, loading_steps: Real) -> Real {
        quarter_period(mass, self.tangent(0.1 * radius, radius).0) / loading_steps
    }

    fn describe(&self) -> String {
        format!(
            "E* = {} Pa, G* = {} Pa, friction = {}, restitution = {}, clamp = {}; derived damping a = {:.9}",
            num(self.pair.e_star),
            num(self.pair.g_star),
            self.friction,
            self.restitution,
            self.clamp,
            self.damping
        )
    }
}
