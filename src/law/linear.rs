//! The PFC linear contact model: linear normal and shear springs, Coulomb friction with an
//! incremental shear force, and optional viscous dashpots given as critical-damping ratios.
//!
//! Equations (all forces act on piece b; piece a receives the opposite force):
//! - normal elastic force  `F_n = kn * overlap`                      (along the normal, a -> b)
//! - shear force, incremental: `F_s <- F_s - ks * v_s * dt`          (v_s: shear part of v_b - v_a)
//! - Coulomb limit: `|F_s| <= friction * F_n`, the shear force scaled back onto the limit
//! - normal dashpot `-c_n v_n`, `c_n = 2 damp_n sqrt(m* kn)`; shear dashpot `-c_s v_s`,
//!   `c_s = 2 damp_s sqrt(m* ks)`, with `m* = m_a m_b / (m_a + m_b)`; no shear dashpot while sliding.
//!
//! NOTE: the normal dashpot force is not clamped, so the total normal force may pull during the
//! end of unloading. This is PFC's default, and it is what makes the contact a damped linear
//! oscillator whose restitution is exactly `exp(-pi z / sqrt(1 - z^2))` and whose duration is
//! `pi / (omega_n sqrt(1 - z^2))`, the closed forms the harness checks.

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

/// What the model needs to know about one active contact in one cycle.
#[derive(Clone, Copy, Debug)]
pub struct Kinematics {
    /// Overlap, m (> 0).
    pub overlap: Real,
    /// Unit normal from a to b.
    pub normal: Vec3,
    /// Relative velocity of b with respect to a at the contact point, m/s.
    pub rel_vel: Vec3,
    /// Effective inertial mass m_a m_b / (m_a + m_b), kg (a fixed body counts as infinite).
    pub mass: Real,
    /// Timestep, s.
    pub dt: Real,
}

/// Result of the force-displacement law for one contact.
#[derive(Clone, Copy, Debug)]
pub struct ContactForce {
    /// Total force on b, N.
    pub force: Vec3,
    /// Normal force magnitude along the normal (elastic + dashpot), N; > 0 pushes apart.
    pub normal: Real,
    /// True when the shear force sits on the Coulomb limit.
    pub sliding: bool,
}

impl Linear {
    /// Updates the shear force `shear` (the contact's state, world frame, already rotated into
    /// the current contact plane) and returns the force on b.
    pub fn force(&self, k: &Kinematics, shear: &mut Vec3) -> ContactForce {
        let n = k.normal;
        let vn = k.rel_vel.dot(&n);
        let vs = k.rel_vel - n * vn;
        let fn_elastic = self.kn * k.overlap;
        *shear -= vs * (self.ks * k.dt);
        let limit = self.friction * fn_elastic;
        let fs2 = shear.norm_squared();
        let sliding = fs2 > limit * limit;
        if sliding {
            // NOTE: fs2 > 0 here because limit >= 0.
            *shear *= limit / fs2.sqrt();
        }
        let c_n = 2.0 * self.damp_n * (k.mass * self.kn).sqrt();
        let f_normal = fn_elastic - c_n * vn;
        let mut force = n * f_normal + *shear;
        if !sliding && self.damp_s > 0.0 {
            let c_s = 2.0 * self.damp_s * (k.mass * self.ks).sqrt();
            force -= vs * c_s;
        }
        ContactForce {
            force,
            normal: f_normal,
            sliding,
        }
    }

    /// Elastic energy stored in the springs, J.
    pub fn strain_energy(&self, overlap: Real, shear: &Vec3) -> Real {
        let mut e = 0.5 * self.kn * overlap * overlap;
        if self.ks > 0.0 {
            e += 0.5 * shear.norm_squared() / self.ks;
        }
        e
    }
}
