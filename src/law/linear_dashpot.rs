//! Linear spring-dashpot: linear normal and shear springs with the normal dashpot derived from
//! a requested coefficient of restitution.
//!
//! - normal force `F_n = kn * overlap - c_n v_n`, `c_n = 2 z sqrt(m* kn)`; with `clamp` the
//!   total normal force is never negative (no pull at the end of unloading);
//! - `z` is the damping ratio for which a head-on collision has restitution `e`: without the
//!   clamp the closed form `z = -ln e / sqrt(pi^2 + ln^2 e)` (the damped oscillator); with the
//!   clamp the dimensionless impact is solved numerically ([`super::restitution`]), because the
//!   contact then ends before the overlap closes and the closed form would give a larger `e`;
//! - shear: incremental spring `ks` and an optional shear dashpot `2 damp_s sqrt(m* ks)` in
//!   parallel; by default their sum stays within `friction * |F_n|`, with the literal rule
//!   (`friction_limit = "spring"`) the spring alone within `friction * F_n` and the dashpot
//!   only while it sticks ([`super::FrictionLimit`]).

use super::contact_law::{quarter_period, ContactLaw};
use super::linear::shear_force;
use super::ContactStiffness;
use super::{ContactForce, FrictionLimit, Kinematics, LawState};
use crate::math::num;
use crate::math::{Real, Vec3};

/// Parameters of the linear spring-dashpot model.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct LinearDashpot {
    /// Normal stiffness, N/m.
    pub kn: Real,
    /// Shear stiffness, N/m.
    pub ks: Real,
    /// Coulomb friction coefficient.
    pub friction: Real,
    /// The requested coefficient of restitution, in (0, 1].
    pub restitution: Real,
    /// True: the total normal force is clamped at zero.
    pub clamp: bool,
    /// The normal damping ratio reproducing `restitution` (derived).
    pub damp_n: Real,
    /// Shear damping ratio.
    pub damp_s: Real,
    /// How the Coulomb limit bounds the shear force.
    pub limit: FrictionLimit,
}

impl LinearDashpot {
    /// The model for a requested restitution (the damping ratio derived, see the module).
    pub fn new(
        kn: Real,
        ks: Real,
        friction: Real,
        restitution: Real,
        clamp: bool,
        damp_s: Real,
    ) -> Self {
        let damp_n =
            super::restitution::damping_for(super::restitution::Shape::Linear, restitution, clamp);
        LinearDashpot {
            kn,
            ks,
            friction,
            restitution,
            clamp,
            damp_n,
            damp_s,
            limit: FrictionLimit::Total,
        }
    }

    /// The same model with another Coulomb rule.
    pub fn with_limit(self, limit: FrictionLimit) -> Self {
        LinearDashpot { limit, ..self }
    }

    /// Updates the shear state and returns the force on b (local coordinates).
    pub fn force(&self, k: &Kinematics, state: &mut LawState) -> ContactForce {
        let c_n = 2.0 * self.damp_n * (k.mass * self.kn).sqrt();
        let mut f_n = self.kn * k.overlap - c_n * k.vn;
        if self.clamp {
            f_n = f_n.max(0.0);
        }
        let c_s = 2.0 * self.damp_s * (k.mass * self.ks).sqrt();
        let limit = match self.limit {
            FrictionLimit::Spring => self.friction * f_n,
            FrictionLimit::Total => self.friction * f_n.abs(),
        };
        let (fs, sliding, lost, stored_before) =
            shear_force(k, state, (self.ks, self.ks), self.limit, limit, c_s, 1.0);
        ContactForce {
            local: Vec3::new(f_n, fs.y, fs.z),
            sliding,
            dissipated: lost,
            stored_before,
        }
    }
}

impl ContactLaw for LinearDashpot {
    const NAME: &'static str = "linear-dashpot";
    const SOURCE: &'static str = "src/law/linear_dashpot.rs::LinearDashpot::force";

    fn friction_limit(&self) -> FrictionLimit {
        self.limit
    }

    fn force(&self, k: &Kinematics, state: &mut LawState) -> ContactForce {
        LinearDashpot::force(self, k, state)
    }

    fn elastic_normal(&self, overlap: Real, _radius: Real, _state: &LawState) -> Real {
        self.kn * overlap
    }

    fn stiffness(&self, _overlap: Real, _radius: Real) -> ContactStiffness {
        ContactStiffness::springs(self.kn, self.ks)
    }

    /// `(pi/2) sqrt(m*/kn) / N`.
    fn model_timestep(&self, mass: Real, _radius: Real, loading_steps: Real) -> Real {
        quarter_period(mass, self.kn) / loading_steps
    }

    fn describe(&self) -> String {
        format!(
            "kn = {} N/m, ks = {} N/m, friction = {}, restitution = {}, clamp = {}; derived damping ratio ζ = {:.9}",
            num(self.kn),
            num(self.ks),
            self.friction,
            self.restitution,
            self.clamp,
            self.damp_n
        )
    }
}
