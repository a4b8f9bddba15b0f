//! Rolling resistance: a couple between two pieces in contact that opposes their relative
//! rolling, bounded by `mu_r R* F_n` (`[[contact]] rolling = { ... }`, SPEC 5.6).
//!
//! The seed-002 frame measures the relative rotation of piece 2 with respect to piece 1 in
//! local coordinates: `phi.x` is the twist about the normal, `phi.y`, `phi.z` the bending
//! (rolling) about the two tangential axes. A rolling model reads the bending part of this
//! step's increment `dphi` and of the relative spin `w_r`, and returns the couple on piece 2
//! (piece 1 receives its opposite).
//!
//! Twisting resistance (`twisting = { coefficient = mu_t }`, optional) is the same law about
//! the normal, on the twist `phi.x`, with its own coefficient and the same kind: a limit
//! `mu_t R* F_n`; for `cdt` a constant couple against the twisting spin; for `epsd` a spring
//! `k_t = stiffness_factor mu_t^2 R*^2 k_n` with a dashpot of the same ratio of its critical
//! `2 sqrt(I_t k_t)`, `I_t` the pair's moment of inertia about the normal,
//! `1/I_t = 1/I_1 + 1/I_2`; for `pfc` the rolling stiffness `k_r`. Its spring is the `x`
//! component of the contact's rolling spring, capped on its own.
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
        /// Twisting friction coefficient `mu_t` (0: no twisting resistance).
        twisting: Real,
    },
    /// Elastic-plastic spring-dashpot (Iwashita & Oda 1998, Ai et al. 2011).
    Epsd {
        /// Rolling friction coefficient `mu_r`.
        coefficient: Real,
        /// `k_r = stiffness_factor mu_r^2 R*^2 k_n` (Ai et al.: 2.25).
        stiffness_factor: Real,
        /// Ratio of the dashpot to the critical `2 sqrt(I_r k_r)`.
        damping: Real,
        /// Twisting friction coefficient `mu_t` (0: no twisting resistance).
        twisting: Real,
    },
    /// PFC's rolling resistance linear model: `k_r = kr` (N m/rad) or `k_s R*^2`.
    Pfc {
        /// Rolling friction coefficient `mu_r`.
        coefficient: Real,
        /// Rolling stiffness, N m/rad (None: `k_s R*^2`).
        kr: Option<Real>,
        /// Twisting friction coefficient `mu_t` (0: no twisting resistance).
        twisting: Real,
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
    /// Moment of inertia of the pair about the normal, kg m^2 (see the module).
    pub twist_inertia: Real,
    /// Relative spin of piece 2 with respect to piece 1, local, rad/s.
    pub spin: Vec3,
    /// Relative rotation increment of this step, local, rad.
    pub dphi: Vec3,
}

impl Rolling {
    /// The rolling friction coefficient.
    pub fn coefficient(&self) -> Real {
        match *self {
            Rolling::Cdt { coefficient, .. }
            | Rolling::Epsd { coefficient, .. }
            | Rolling::Pfc { coefficient, .. } => coefficient,
        }
    }

    /// The twisting friction coefficient (0: no twisting resistance).
    pub fn twisting(&self) -> Real {
        match *self {
            Rolling::Cdt { twisting, .. }
            | Rolling::Epsd { twisting, .. }
            | Rolling::Pfc { twisting, .. } => twisting,
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

    /// The twisting stiffness, N m/rad, for tangent stiffnesses `kn`, `ks` and effective
    /// radius `radius` (0 for the CDT and without twisting resistance).
    pub fn twisting_stiffness(&self, kn: Real, ks: Real, radius: Real) -> Real {
        match *self {
            Rolling::Cdt { .. } => 0.0,
            _ if self.twisting() == 0.0 => 0.0,
            Rolling::Epsd {
                twisting,
                stiffness_factor,
                ..
            } => stiffness_factor * twisting * twisting * radius * radius * kn,
            Rolling::Pfc { .. } => self.stiffness(kn, ks, radius),
        }
    }

    /// The couple on piece 2, local, and the spring's new moment `spring` (local, kept in the
    /// contact's frame): bending (`y`, `z`) and, with twisting resistance, twist (`x`).
    /// Returns `(couple, slipping)` (slipping: the bending part).
    pub fn couple(&self, k: &RollingInput, spring: &mut Vec3) -> (Vec3, bool) {
        let (bend, slipping) = self.bending(k, spring);
        if self.twisting() == 0.0 {
            return (bend, slipping);
        }
        (
            Vec3::new(self.twist(k, &mut spring.x), bend.y, bend.z),
            slipping,
        )
    }

    /// The twisting couple on piece 2 about the normal (N m), and the spring's new moment.
    fn twist(&self, k: &RollingInput, spring: &mut Real) -> Real {
        let limit = self.twisting() * k.radius * k.normal_force.max(0.0);
        let w = k.spin.x;
        if let Rolling::Cdt { .. } = *self {
            return if w > 0.0 {
                -limit
            } else if w < 0.0 {
                limit
            } else {
                0.0
            };
        }
        let kt = self.twisting_stiffness(k.kn, k.ks, k.radius);
        let kt_prev = self.twisting_stiffness(k.kn_prev, k.ks_prev, k.radius);
        let mut m = *spring;
        if kt < kt_prev {
            m *= kt / kt_prev;
        }
        m -= k.dphi.x * kt;
        if m.abs() > limit {
            m = limit.copysign(m);
            *spring = m;
            return m;
        }
        *spring = m;
        let c = match *self {
            Rolling::Epsd { damping, .. } if damping > 0.0 && k.twist_inertia.is_finite() => {
                damping * 2.0 * (k.twist_inertia * kt).sqrt()
            }
            _ => 0.0,
        };
        m - w * c
    }

    /// The bending couple (`x` = 0) and the spring's new bending moment.
    fn bending(&self, k: &RollingInput, spring: &mut Vec3) -> (Vec3, bool) {
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
                    (spring.y, spring.z) = (m.y, m.z);
                    return (m, true);
                }
                (spring.y, spring.z) = (m.y, m.z);
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

    /// Elastic energy held by the spring `spring` (local) at the tangent stiffnesses `kn`,
    /// `ks` and effective radius `radius`: bending `(M_y^2 + M_z^2) / (2 k_r)` and twist
    /// `M_x^2 / (2 k_t)`, J.
    pub fn energy(&self, spring: &Vec3, kn: Real, ks: Real, radius: Real) -> Real {
        let held = |m2: Real, k: Real| if k > 0.0 { 0.5 * m2 / k } else { 0.0 };
        held(
            spring.y * spring.y + spring.z * spring.z,
            self.stiffness(kn, ks, radius),
        ) + held(spring.x * spring.x, self.twisting_stiffness(kn, ks, radius))
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
            twist_inertia: 4e-7,
            spin,
            dphi,
        }
    }

    /// The CDT couple has the magnitude mu_r R* F_n against the rolling spin, whatever the
    /// twist (0.1 x 0.01 m x 10 N = 0.01 N m).
    #[test]
    fn cdt_opposes_the_rolling_spin() {
        let r = Rolling::Cdt {
            coefficient: 0.1,
            twisting: 0.0,
        };
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
            twisting: 0.0,
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
