//! Hysteretic linear spring (Walton and Braun): loading with `kn`, unloading and reloading with
//! `k_unload >= kn` along a line that ends at a permanent overlap.
//!
//! With `d_max` the largest overlap of the contact, the unloading line is
//! `F = k_unload (d - d_0)`, `d_0 = d_max (1 - kn / k_unload)`, which meets the loading line
//! `F = kn d` at `d_max`. The normal force is `clamp(k_unload (d - d_0), 0, kn d)`.
//!
//! A head-on collision stores `m* v^2 / 2 = kn d_max^2 / 2` and gives back
//! `k_unload (d_max - d_0)^2 / 2 = kn^2 d_max^2 / (2 k_unload)`, so the restitution is
//! `e = sqrt(kn / k_unload)`. Shear: incremental spring `ks`, Coulomb limit `friction * F_n`.

use super::contact_law::{quarter_period, ContactLaw};
use super::linear::shear_force;
use super::ContactStiffness;
use super::{ContactForce, FrictionLimit, Kinematics, LawState};
use crate::math::num;
use crate::math::{Real, Vec3};

/// Parameters of the hysteretic model.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Hysteretic {
    /// Loading stiffness, N/m.
    pub kn: Real,
    /// Unloading stiffness, N/m (>= kn).
    pub k_unload: Real,
    /// Shear stiffness, N/m.
    pub ks: Real,
    /// Coulomb friction coefficient.
    pub friction: Real,
}

impl Hysteretic {
    /// Normal force at overlap `d` after the largest overlap `d_max`.
    #[inline]
    fn normal(&self, d: Real, d_max: Real) -> Real {
        let d0 = d_max * (1.0 - self.kn / self.k_unload);
        (self.k_unload * (d - d0)).clamp(0.0, (self.kn * d).max(0.0))
    }

    /// Updates the state (largest overlap, shear) and returns the force on b. (The normal
    /// spring's hysteresis is booked by the caller: [`super::ContactModel::normal_loss`].)
    pub fn force(&self, k: &Kinematics, state: &mut LawState) -> ContactForce {
        state.set_max_overlap(state.max_overlap().max(k.overlap));
        let f_n = self.normal(k.overlap, state.max_overlap());
        // (no dashpot: both Coulomb rules are the same)
        let (fs, sliding, lost, stored_before) = shear_force(
            k,
            state,
            (self.ks, self.ks),
            FrictionLimit::Spring,
            self.friction * f_n,
            0.0,
            1.0,
        );
        ContactForce {
            local: Vec3::new(f_n, fs.y, fs.z),
            sliding,
            dissipated: lost,
            stored_before,
        }
    }

    /// The normal force at `overlap` in the state `state` (its largest overlap so far), N.
    pub fn normal_force(&self, overlap: Real, state: &LawState) -> Real {
        self.normal(overlap, state.max_overlap().max(overlap))
    }

    /// Elastic energy that unloading would give back, J: `F_n^2 / (2 k_unload)`.
    pub fn normal_energy(&self, overlap: Real, state: &LawState) -> Real {
        let f = self.normal(overlap, state.max_overlap().max(overlap));
        0.5 * f * f / self.k_unload
    }
}

impl ContactLaw for Hysteretic {
    const NAME: &'static str = "hysteretic";
    const SOURCE: &'static str = "src/law/hysteretic.rs::Hysteretic::force";

    fn friction_limit(&self) -> FrictionLimit {
        FrictionLimit::Spring
    }

    fn force(&self, k: &Kinematics, state: &mut LawState) -> ContactForce {
        Hysteretic::force(self, k, state)
    }

    fn elastic_normal(&self, overlap: Real, _radius: Real, state: &LawState) -> Real {
        self.normal_force(overlap, state)
    }

    fn stiffness(&self, _overlap: Real, _radius: Real) -> ContactStiffness {
        // NOTE: the unloading stiffness, the larger of the two: the estimate stays on the
        // safe side whichever branch the contact is on.
        ContactStiffness::springs(self.k_unload, self.ks)
    }

    fn normal_energy(&self, overlap: Real, _radius: Real, state: &LawState) -> Real {
        Hysteretic::normal_energy(self, overlap, state)
    }

    /// The hysteresis proper: loading from the largest overlap so far to a new one loses the
    /// area between the loading and the unloading lines,
    /// `(k_n/2)(1 - k_n/k_unload)(d_max,1^2 - d_max,0^2)`; the rest is the trapezoidal rule's
    /// (the force switches branch, or to zero, within a step).
    fn split_normal_loss(
        &self,
        rest: Real,
        (active_0, s_0): (bool, &LawState),
        (active_1, s_1): (bool, &LawState),
    ) -> (Real, Real) {
        if !active_1 {
            return (0.0, -rest);
        }
        let d_max_0 = if active_0 { s_0.max_overlap() } else { 0.0 };
        let d_max_1 = s_1.max_overlap();
        let hysteresis = 0.5
            * self.kn
            * (1.0 - self.kn / self.k_unload)
            * (d_max_1 * d_max_1 - d_max_0 * d_max_0);
        (hysteresis, -(rest - hysteresis))
    }

    /// `min((pi/2) sqrt(m*/k_load) / N, (pi/2) sqrt(m*/k_unload) / 4)` (N steps in loading, at
    /// least 4 in unloading).
    fn model_timestep(&self, mass: Real, _radius: Real, loading_steps: Real) -> Real {
        (quarter_period(mass, self.kn) / loading_steps)
            .min(quarter_period(mass, self.k_unload) / 4.0)
    }

    /// The shear force and the largest overlap (the unloading line goes on).
    fn hand_over(&self, state: &LawState) -> LawState {
        let mut next = LawState::default();
        *next.shear_force_mut() = state.shear_force();
        next.set_max_overlap(state.max_overlap());
        next
    }

    fn describe(&self) -> String {
        format!(
            "kn (loading) = {} N/m, k_unload = {} N/m, ks = {} N/m, friction = {}; restitution √(kn/k_unload) = {:.9}",
            num(self.kn),
            num(self.k_unload),
            num(self.ks),
            self.friction,
            (self.kn / self.k_unload).sqrt()
        )
    }
}
