//! The PFC linear contact model: linear normal and shear springs, Coulomb friction with an
//! incremental shear force, and optional viscous dashpots given as critical-damping ratios.
//!
//! Equations (local coordinates of the contact; forces on piece b, piece a receives the
//! opposite):
//! - normal force `F_n = kn * overlap - c_n v_n` (> 0 pushes apart);
//! - shear force, incremental: `F_s <- F_s - ks * du_t` (`du_t` the tangential displacement
//!   increment in the local frame, which turns with the contact);
//! - Coulomb limit: `|F_s| <= friction * kn * overlap`, the shear force scaled back onto it;
//! - dashpots `c_n = 2 damp_n sqrt(m* kn)`, `c_s = 2 damp_s sqrt(m* ks)`; no shear dashpot
//!   while sliding.
//!
//! NOTE: the normal dashpot force is not clamped, so the total normal force may pull during the
//! end of unloading. This is PFC's default, and it is what makes the contact a damped linear
//! oscillator whose restitution is exactly `exp(-pi z / sqrt(1 - z^2))` and whose duration is
//! `pi / (omega_n sqrt(1 - z^2))`, the closed forms the harness checks.

use super::{coulomb, ContactForce, Kinematics, LawState};
use crate::math::{Real, Vec3};

/// Parameters of the linear model (stiffnesses already multiplied by the softening factor).
#[derive(Clone, Debug, PartialEq)]
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
}

/// The shear part shared by the linear family: incremental spring `ks`, Coulomb limit on
/// `limit`, then a dashpot `c_s` while sticking. Returns (shear force with dashpot, sliding).
#[inline]
pub(crate) fn shear_force(
    k: &Kinematics,
    state: &mut LawState,
    ks: Real,
    limit: Real,
    c_s: Real,
) -> (Vec3, bool) {
    state.shear -= k.du_t * ks;
    state.shear.x = 0.0;
    let sliding = coulomb(&mut state.shear, limit);
    let mut fs = state.shear;
    if !sliding && c_s > 0.0 {
        fs -= k.vel_t * c_s;
    }
    (fs, sliding)
}

impl Linear {
    /// Updates the shear state and returns the force on b (local coordinates).
    pub fn force(&self, k: &Kinematics, state: &mut LawState) -> ContactForce {
        let fn_elastic = self.kn * k.overlap;
        let c_n = 2.0 * self.damp_n * (k.mass * self.kn).sqrt();
        let c_s = 2.0 * self.damp_s * (k.mass * self.ks).sqrt();
        let (fs, sliding) = shear_force(k, state, self.ks, self.friction * fn_elastic, c_s);
        ContactForce {
            local: Vec3::new(fn_elastic - c_n * k.vn, fs.y, fs.z),
            sliding,
        }
    }
}
