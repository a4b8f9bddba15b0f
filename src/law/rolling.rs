//! Rolling resistance: a couple between two pieces in contact that opposes their relative
//! rolling, bounded by `mu_r R* F_n` (`[[contact]] rolling = { ... }`, SPEC 5.6).
//!
//! The seed-002 frame measures the relative rotation of piece 2 with respect to piece 1 in
//! local coordinates: `phi.x` is the twist about the normal, `phi.y`, `phi.z` the bending
//! (rolling) about the two tangential axes. A rolling model reads the bending part of this
//! step's increment `dphi` and of the relative spin `w_r`, and returns the couple on piece 2
//! (piece 1 receives its opposite), with `x` = 0: no twisting resistance.
//!
//! - `cdt` (constant directional torque, Ai et al. 2011's model A): `M = -mu_r R* F_n w_r/|w_r|`,
//!   no couple while the pieces do not roll. It has no stiffness, so a sphere that should rest
//!   on an incline below `tan(theta) = mu_r` rocks by a step's worth of rotation about rest.
//! - `epsd` (elastic-plastic spring-dashpot, Iwashita & Oda 1998; Ai et al. 2011's model C):
//!   a spring `M_s <- M_s - k_r dphi` with `k_r = stiffness_factor mu_r^2 R*^2 k_n`
//!   (`k_n` the tangent normal stiffness; Ai et al. take 2.25), capped at `mu_r R* F_n`
//!   (plastic rolling: the spring stays on the cap), and in parallel while it holds a
//!   dashpot `-damping 2 sqrt(I_r k_r) w_r`, with `I_r` the rolling inertia of the pair about the
//!   contact point, `1/I_r = 1/(I_1 + m_1 r_1^2) + 1/(I_2 + m_2 r_2^2)` (a wall or a fixed ball:
//!   its term 0; two that cannot turn: no dashpot).
//! - `pfc` (PFC's rolling resistance linear model): the same spring and cap with
//!   `k_r = kr` when given, else `k_s R*^2`, and no dashpot.
//!
//! `F_n` is the normal force of the model's spring (the elastic normal force, >= 0): the cap
//! does not ring with the normal dashpot. When `k_r` falls with the overlap (Hertz), the
//! spring's moment falls in proportion first, as the Hertz shear spring does, so that
//! unloading never stores more energy than was put in.
//!
//! Energy: the couple's power `-M . (w_2 - w_1)` is taken from the pieces' rotation; the
//! spring stores `|M_s|^2 / (2 k_r)` (strain energy); the rest is dissipated (slip and dashpot;
//! all of the CDT's work).

use crate::math::{Real, Vec3};

/// How the rolling stiffness and limit are set (one per `[[contact]]` rule).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Rolling {
    /// Constant directional torque: `|M| = mu_r R* F_n` against the rolling spin.
    Cdt {
        /// Rolling friction coefficient `mu_r` (a length ratio: the lever arm over `R*`).
        coefficient: Real,
    },
    /// Elastic-plastic spring-dashpot (Iwashita & Oda 1998, Ai et al. 2011).
    Epsd {
        /// Rolling friction coefficient `mu_r`.
        coefficient: Real,
        /// `k_r = stiffness_factor mu_r^2 R*^2 k_n` (Ai et al.: 2.25).
        stiffness_factor: Real,
        /// Ratio of the dashpot to the critical `2 sqrt(I_r k_r)`.
        damping: Real,
    },
    /// PFC's rolling resistance linear model: `k_r = kr` (N m/rad) or `k_s R*^2`.
    Pfc {
        /// Rolling friction coefficient `mu_r`.
        coefficient: Real,
        /// Rolling stiffness, N m/rad (None: `k_s R*^2`).
        kr: Option<Real>,
    },
}

/// What a rolling model needs of one contact in one cycle, besides its spring.
#[derive(Clone, Copy, Debug)]
pub struct RollingInput {
    /// Elastic normal force, N (negative values count as 0).
    pub normal_force: Real,
    /// The model's tangent normal and shear stiffnesses now, N/m.
    pub kn: Real,
    /// See `kn`.
    pub ks: Real,
    /// The same at the previous cycle's overlap (the spring's stiffness then), N/m.
    pub kn_prev: Real,
    /// See `kn_prev`.
    pub ks_prev: Real,
    /// Effective radius R*, m.
    pub radius: Real,
    /// Rolling inertia of the pair about the contact point, kg m^2 (see the module).
    pub inertia: Real,
    /// Relative spin of piece 2 with respect to piece 1, local, rad/s.
    pub spin: Vec3,
    /// Relative rotation increment of this step, local, rad.
    pub dphi: Vec3,
}

impl Rolling {
    /// The rolling friction coefficient.
    pub fn coefficient(&self) -> Real {
        match *self {
            Rolling::Cdt { coefficient }
            | Rolling::Epsd { coefficient, .. }
            | Rolling::Pfc { coefficient, .. } => coefficient,
        }
    }

    /// The case-file name of the model.
    pub fn name(&self) -> &'static str {
        match self {
            Rolling::Cdt { .. } => "cdt",
            Rolling::Epsd { .. } => "epsd",
            Rolling::Pfc { .. } => "pfc",
        }
    }

    /// The rolling (bending) stiffness, N m/rad, for tangent stiffnesses `kn`, `ks` and
    /// effective radius `radius` (0 for the CDT: it has no spring).
    pub fn stiffness(&self, kn: Real, ks: Real, radius: Real) -> Real {
        match *self {
            Rolling::Cdt { .. } => 0.0,
            Rolling::Epsd {
                coefficient,
                stiffness_factor,
                ..
            } => stiffness_factor * coefficient * coefficient * radius * radius * kn,
            Rolling::Pfc { kr, .. } => kr.unwrap_or(ks * radius * radius),
        }
    }

    /// The couple on piece 2, local (`x` = 0), and the spring's new moment `spring` (local,
    /// kept in the contact's frame). Returns `(couple, slipping)`.
    pub fn couple(&self, k: &RollingInput, spring: &mut Vec3) -> (Vec3, bool) {
        let limit = self.coefficient() * k.radius * k.normal_force.max(0.0);
        let w = Vec3::new(0.0, k.spin.y, k.spin.z);
        match *self {
            Rolling::Cdt { .. } => {
                let s = w.norm();
                if s > 0.0 {
                    (w * (-limit / s), true)
                } else {
                    (Vec3::zeros(), false)
                }
            }
            Rolling::Epsd { .. } | Rolling::Pfc { .. } => {
                let kr = self.stiffness(k.kn, k.ks, k.radius);
                let kr_prev = self.stiffness(k.kn_prev, k.ks_prev, k.radius);
                let mut m = Vec3::new(0.0, spring.y, spring.z);
                if kr < kr_prev {
                    m *= kr / kr_prev;
                }
                m -= Vec3::new(0.0, k.dphi.y, k.dphi.z) * kr;
                let size = m.norm();
                if size > limit {
                    m *= if size > 0.0 { limit / size } else { 0.0 };
                    *spring = m;
                    return (m, true);
                }
                *spring = m;
                let c = match *self {
                    // (a pair that cannot turn, infinite rolling inertia, has no dashpot)
                    Rolling::Epsd { damping, .. } if damping > 0.0 && k.inertia.is_finite() => {
                        damping * 2.0 * (k.inertia * kr).sqrt()
                    }
                    _ => 0.0,
                };
                (m - w * c, false)
            }
        }
    }

    /// Elastic energy held by the spring `spring` (local) at stiffness `kr`, J.
    pub fn energy(spring: &Vec3, kr: Real) -> Real {
        let m2 = spring.y * spring.y + spring.z * spring.z;
        if kr > 0.0 {
            0.5 * m2 / kr
        } else {
            0.0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(spin: Vec3, dphi: Vec3) -> RollingInput {
        RollingInput {
            normal_force: 10.0,
            kn: 1e5,
            ks: 5e4,
            kn_prev: 1e5,
            ks_prev: 5e4,
            radius: 0.01,
            inertia: 1e-6,
            spin,
            dphi,
        }
    }

    /// The CDT couple has the magnitude mu_r R* F_n against the rolling spin, whatever the
    /// twist (0.1 x 0.01 m x 10 N = 0.01 N m).
    #[test]
    fn cdt_opposes_the_rolling_spin() {
        let r = Rolling::Cdt { coefficient: 0.1 };
        let (m, slip) = r.couple(
            &input(Vec3::new(5.0, 3.0, -4.0), Vec3::zeros()),
            &mut Vec3::zeros(),
        );
        assert!(slip);
        assert!((m - Vec3::new(0.0, -0.006, 0.008)).norm() < 1e-15);
    }

    /// EPSD: the spring follows -k_r phi up to the cap, then stays there; reversed, it unloads
    /// with the same stiffness (an elastic-perfectly-plastic loop, by hand: k_r = 2.25 x
    /// 0.1^2 x 0.01^2 x 1e5 = 0.225 N m/rad, cap 0.01 N m reached at 0.0444 rad).
    #[test]
    fn epsd_is_elastic_perfectly_plastic() {
        let r = Rolling::Epsd {
            coefficient: 0.1,
            stiffness_factor: 2.25,
            damping: 0.0,
        };
        let kr = 2.25 * 0.01 * 1e-4 * 1e5;
        assert!((r.stiffness(1e5, 5e4, 0.01) - kr).abs() < 1e-15);
        let mut spring = Vec3::zeros();
        let step = 0.001;
        let mut phi = 0.0;
        let mut plastic = 0.0;
        for k in 0..200 {
            let d = if k < 100 { step } else { -step };
            phi += d;
            let (m, _) = r.couple(&input(Vec3::zeros(), Vec3::new(0.0, d, 0.0)), &mut spring);
            // the closed form: M = -k_r (phi - phi_p), phi_p moving so that |M| <= cap
            let trial = -kr * (phi - plastic);
            let expected = trial.clamp(-0.01, 0.01);
            plastic = phi + expected / kr;
            assert!(
                (m.y - expected).abs() < 1e-12,
                "step {k}: {} {expected}",
                m.y
            );
        }
    }
}
