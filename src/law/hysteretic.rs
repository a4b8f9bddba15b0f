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

use super::linear::shear_force;
use super::{ContactForce, FrictionLimit, Kinematics, LawState};
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
