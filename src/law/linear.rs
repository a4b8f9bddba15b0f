//! The PFC linear contact model: linear normal and shear springs, Coulomb friction with an
//! incremental shear force, and optional viscous dashpots given as critical-damping ratios.
//!
//! Equations (local coordinates of the contact; forces on piece b, piece a receives the
//! opposite):
//! - normal force `F_n = kn * overlap - c_n v_n` (> 0 pushes apart);
//! - shear spring, incremental: `F_s <- F_s - ks * du_t` (`du_t` the tangential displacement
//!   increment in the local frame, which turns with the contact), in parallel with the shear
//!   dashpot `-c_s v_t`;
//! - dashpots `c_n = 2 damp_n sqrt(m* kn)`, `c_s = 2 damp_s sqrt(m* ks)`;
//! - Coulomb limit ([`super::FrictionLimit`]): by default spring plus dashpot stay within
//!   `friction * |F_n|` ([`super::shear_step`]); with `friction_limit = "spring"` PFC's own
//!   rule: the spring alone is limited by `friction * kn * overlap` and the shear dashpot is
//!   off while it slides.
//!
//! NOTE: the normal dashpot force is not clamped, so the total normal force may pull during the
//! end of unloading. This is PFC's default, and it is what makes the contact a damped linear
//! oscillator whose restitution is exactly `exp(-pi z / sqrt(1 - z^2))` and whose duration is
//! `pi / (omega_n sqrt(1 - z^2))`, the closed forms the harness checks.

use super::contact_law::{quarter_period, ContactLaw};
use super::ContactStiffness;
use super::{
    elastic_loss, shear_step, spring_energy, ContactForce, FrictionLimit, Kinematics, LawState,
};
use crate::math::num;
use crate::math::{Real, Vec3};

/// Parameters of the linear model (stiffnesses already multiplied by the softening factor).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Linear {
    /// Normal stiffness, N/m.
    pub kn: Real,
    /// Shear stiffness, N/m.
    pub ks: Real,
    /// Twisting stiffness, N m/rad (only used by the stiffness matrix; no twisting moment yet).
    pub kn_rot: Real,
    /// Bending stiffness, N m/rad (only used by the stiffness matrix; no bending moment yet).
    pub ks_rot: Real,
    /// Coulomb friction coefficient, dimensionless.
    pub friction: Real,
    /// Normal viscous damping as a fraction of critical damping, in [0, 1).
    pub damp_n: Real,
    /// Shear viscous damping as a fraction of critical damping, in [0, 1).
    pub damp_s: Real,
    /// How the Coulomb limit bounds the shear force.
    pub limit: FrictionLimit,
}

/// The shear part shared by the frame-based models: an incremental spring of stiffness `ks`
/// (`ks_prev` the stiffness it had in the previous cycle: the same for a linear spring), a
/// dashpot `c_s`, and the Coulomb limit `limit` applied by `rule` ([`shear_step`]); the
/// spring force is first multiplied by `rescale` (1, or the Hertz spring's unloading ratio).
/// Updates the spring force kept in `state`; returns the tangential force, whether it slid,
/// the energy the spring lost ([`elastic_loss`]) and the energy it held on entry.
#[inline]
pub(crate) fn shear_force(
    k: &Kinematics,
    state: &mut LawState,
    (ks_prev, ks): (Real, Real),
    rule: FrictionLimit,
    limit: Real,
    c_s: Real,
    rescale: Real,
) -> (Vec3, bool, Real, Real) {
    let before = Vec3::new(0.0, state.shear_force().y, state.shear_force().z);
    let start = before * rescale;
    let mut trial = start - k.du_t * ks;
    trial.x = 0.0;
    let s = shear_step(rule, &start, trial, -(k.vel_t * c_s), c_s, ks * k.dt, limit);
    *state.shear_force_mut() = s.spring;
    if !k.books {
        return (s.force, s.sliding, 0.0, 0.0);
    }
    let lost = elastic_loss(&before, ks_prev, &s.spring, ks, &k.du_t);
    (s.force, s.sliding, lost, spring_energy(&before, ks_prev))
}

impl Linear {
    /// Updates the shear state and returns the force on b (local coordinates).
    pub fn force(&self, k: &Kinematics, state: &mut LawState) -> ContactForce {
        let fn_elastic = self.kn * k.overlap;
        let c_n = 2.0 * self.damp_n * (k.mass * self.kn).sqrt();
        let c_s = 2.0 * self.damp_s * (k.mass * self.ks).sqrt();
        let f_n = fn_elastic - c_n * k.vn;
        let limit = match self.limit {
            FrictionLimit::Spring => self.friction * fn_elastic,
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

impl ContactLaw for Linear {
    const NAME: &'static str = "linear";
    const SOURCE: &'static str = "src/law/linear.rs::Linear::force";

    fn friction_limit(&self) -> FrictionLimit {
        self.limit
    }

    fn force(&self, k: &Kinematics, state: &mut LawState) -> ContactForce {
        Linear::force(self, k, state)
    }

    fn elastic_normal(&self, overlap: Real, _radius: Real, _state: &LawState) -> Real {
        self.kn * overlap
    }

    fn stiffness(&self, _overlap: Real, _radius: Real) -> ContactStiffness {
        ContactStiffness {
            kn: self.kn,
            ks: self.ks,
            kn_rot: self.kn_rot,
            ks_rot: self.ks_rot,
        }
    }

    /// `(pi/2) sqrt(m*/kn) / N`.
    fn model_timestep(&self, mass: Real, _radius: Real, loading_steps: Real) -> Real {
        quarter_period(mass, self.kn) / loading_steps
    }

    fn describe(&self) -> String {
        format!(
            "kn = {} N/m, ks = {} N/m, friction = {}, damp_n = {}, damp_s = {}",
            num(self.kn),
            num(self.ks),
            self.friction,
            self.damp_n,
            self.damp_s
        )
    }
}
