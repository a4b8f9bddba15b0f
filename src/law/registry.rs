//! The registry of contact models: [`ContactModel`], one variant per model, and its dispatch
//! (the one `match` over the models, in [`dispatch!`]). Adding a model is adding its lines
//! here: a variant, an arm of `dispatch!`, an arm of [`source_file`].

use super::terms::Coefficients;
use super::{
    spring_energy, ContactForce, ContactLaw, ContactStiffness, FrictionLimit, Hertz, HertzHistory,
    HookeHistory, Hysteretic, Kinematics, LawState, Linear, LinearBond, LinearDashpot,
};
use crate::math::{Real, Vec3};

/// A contact model with its parameters (stiffnesses already multiplied by the softening
/// factor).
///
/// Dispatch is by `match` on this enum (no trait object per contact).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum ContactModel {
    /// The PFC linear model ([`Linear`]).
    Linear(Linear),
    /// Linear spring-dashpot with the damping derived from a restitution ([`LinearDashpot`]).
    LinearDashpot(LinearDashpot),
    /// Hysteretic linear spring, Walton-Braun ([`Hysteretic`]).
    Hysteretic(Hysteretic),
    /// Hertz-Mindlin with no-slip tangential stiffness ([`Hertz`]).
    Hertz(Hertz),
    /// Linear contact bond ([`LinearBond`]).
    LinearBond(LinearBond),
    /// Hertz-Mindlin with a tangential history spring, LIGGGHTS conventions ([`HertzHistory`]).
    HertzHistory(HertzHistory),
    /// Linear spring-dashpot with a tangential history spring ([`HookeHistory`]).
    HookeHistory(HookeHistory),
}

/// `$body` with `$m` the model inside `$model` (a [`ContactModel`]), whichever it is; `$T` its
/// type when asked for.
macro_rules! dispatch {
    ($model:expr, $m:ident => $body:expr) => {
        dispatch!($model, $m, _T => $body)
    };
    ($model:expr, $m:ident, $T:ident => $body:expr) => {
        match $model {
            ContactModel::Linear($m) => {
                type $T = Linear;
                $body
            }
            ContactModel::LinearDashpot($m) => {
                type $T = LinearDashpot;
                $body
            }
            ContactModel::Hysteretic($m) => {
                type $T = Hysteretic;
                $body
            }
            ContactModel::Hertz($m) => {
                type $T = Hertz;
                $body
            }
            ContactModel::LinearBond($m) => {
                type $T = LinearBond;
                $body
            }
            ContactModel::HertzHistory($m) => {
                type $T = HertzHistory;
                $body
            }
            ContactModel::HookeHistory($m) => {
                type $T = HookeHistory;
                $body
            }
        }
    };
}

/// The source of the force law of the model named `name` as in case files, from the crate root
/// (for reports and check pages); the linear law's for a name it does not know.
pub fn source_file(name: &str) -> &'static str {
    match name {
        LinearDashpot::NAME => LinearDashpot::SOURCE,
        Hysteretic::NAME => Hysteretic::SOURCE,
        Hertz::NAME => Hertz::SOURCE,
        LinearBond::NAME => LinearBond::SOURCE,
        HertzHistory::NAME => HertzHistory::SOURCE,
        HookeHistory::NAME => HookeHistory::SOURCE,
        _ => Linear::SOURCE,
    }
}

impl ContactModel {
    /// Short name as written in case files.
    pub fn name(&self) -> &'static str {
        dispatch!(self, _m, T => T::NAME)
    }

    /// The source file of the force law, from the crate root (for reports and check pages).
    pub fn source_file(&self) -> &'static str {
        dispatch!(self, _m, T => T::SOURCE)
    }

    /// True for the models that need no local contact frame (the history models).
    pub fn frame_free(&self) -> bool {
        dispatch!(self, m => m.frame_free())
    }

    /// [`ContactLaw::history`].
    #[inline]
    pub fn history(
        &self,
        d: Real,
        r: Real,
        m: Real,
    ) -> Option<(Coefficients, Real, FrictionLimit)> {
        dispatch!(self, law => law.history(d, r, m))
    }

    /// [`ContactLaw::friction_limit`].
    pub fn friction_limit(&self) -> FrictionLimit {
        dispatch!(self, m => m.friction_limit())
    }

    /// Force on b for a contact (active, or bonded); updates the contact's state.
    #[inline]
    pub fn force(&self, k: &Kinematics, state: &mut LawState) -> ContactForce {
        dispatch!(self, m => ContactLaw::force(m, k, state))
    }

    /// [`ContactLaw::elastic_normal`]. The energy books take the rest of the applied normal
    /// force as dissipative.
    pub fn elastic_normal(&self, overlap: Real, radius: Real, state: &LawState) -> Real {
        dispatch!(self, m => m.elastic_normal(overlap, radius, state))
    }

    /// [`ContactLaw::elastic_shear`]: the spring of the frame-based models, `-k_t xi` of the
    /// history models.
    pub fn elastic_shear(&self, overlap: Real, radius: Real, state: &LawState) -> Vec3 {
        dispatch!(self, m => m.elastic_shear(overlap, radius, state))
    }

    /// True for the models whose contacts may be held at any distance ([`ContactModel::holds`]:
    /// a bond).
    pub fn bonds(&self) -> bool {
        matches!(self, ContactModel::LinearBond(_))
    }

    /// True when a contact in this state carries force even without overlap (a bond).
    #[inline]
    pub fn holds(&self, state: &LawState) -> bool {
        dispatch!(self, m => m.holds(state))
    }

    /// [`ContactLaw::stiffness`].
    pub fn stiffness(&self, overlap: Real, radius: Real) -> ContactStiffness {
        dispatch!(self, m => m.stiffness(overlap, radius))
    }

    /// The overlap a contact can reach, for the automatic timestep: from `overlap` (m; a gap
    /// counts as touching), its pieces closing at `approach` (m/s) with effective mass `m_eff`
    /// (kg) and effective radius `radius` (m). The Hertz models' stiffness grows from zero at
    /// touching, so a step chosen from the stiffness now would not see an impact coming; they
    /// get the peak of an undamped impact, where the approach's kinetic energy is stored:
    /// (8/15) E* √R* (δ^(5/2) − δ₀^(5/2)) = m* u²/2. The other models' stiffness does not
    /// depend on the overlap: `overlap` unchanged. So is it when the pieces separate.
    pub fn foreseen_overlap(
        &self,
        overlap: Real,
        radius: Real,
        m_eff: Real,
        approach: Real,
    ) -> Real {
        let Some(e_star) = dispatch!(self, m => m.hertz_modulus()) else {
            return overlap;
        };
        let d0 = overlap.max(0.0);
        let c = 16.0 * e_star * radius.sqrt();
        if !(approach > 0.0 && m_eff.is_finite() && m_eff > 0.0 && c > 0.0 && c.is_finite()) {
            return overlap;
        }
        let (held, gained) = (d0 * d0 * d0.sqrt(), 15.0 * m_eff * approach * approach / c);
        // A slow approach to a loaded contact (most contacts of a packing): (1 + x)^(2/5) by
        // 1 + (2/5) x, which is above it (concave) and within 1.2e-5 of it for x < 0.01,
        // without the power.
        if gained < 0.01 * held {
            return d0 * (1.0 + 0.4 * gained / held);
        }
        // (the power as the force pass's lanes compute it, src/force/lanes/springs.rs)
        crate::math::two_fifths_power(held + gained).max(overlap)
    }

    /// Elastic energy stored in a contact, J: [`ContactModel::normal_energy`] plus
    /// [`ContactModel::shear_energy`].
    pub fn strain_energy(&self, overlap: Real, radius: Real, state: &LawState) -> Real {
        self.normal_energy(overlap, radius, state) + self.shear_energy(overlap, radius, state)
    }

    /// Elastic energy of the normal spring, J (0 where it carries no force: a gap, unless a
    /// bond holds it).
    pub fn normal_energy(&self, overlap: Real, radius: Real, state: &LawState) -> Real {
        dispatch!(self, m => ContactLaw::normal_energy(m, overlap, radius, state))
    }

    /// Elastic energy of the tangential spring kept in `state`, J: `|F_s|^2 / (2 k_s)` with
    /// the current tangent shear stiffness (the history models: `k_t |xi|^2 / 2`).
    pub fn shear_energy(&self, overlap: Real, radius: Real, state: &LawState) -> Real {
        let ks = self.stiffness(overlap.max(0.0), radius).ks;
        spring_energy(&self.elastic_shear(overlap, radius, state), ks)
    }

    /// What the normal spring of a contact took in one cycle beyond the change of its energy,
    /// J, as `(dissipated, integration error)`: the trapezoidal work done on it as the
    /// overlap went from `d_0` (state `s_0`; no force if it was not active then, `active_0`)
    /// to `d_1` (state `s_1`; no force if it is not active now, `active_1`), less the change
    /// of [`ContactModel::normal_energy`]. A bond that broke in the cycle loses what it held:
    /// dissipated. The hysteretic model dissipates its hysteresis (the area between its
    /// loading and unloading lines swept by a new largest overlap). The rest is what the
    /// trapezoidal rule misses (at the cycle a contact starts or ends, its force switches on or
    /// off within the step; a force that switches branch; Hertz's law is curved), which the
    /// kinetic energy shows with the opposite sign: the integration error is its negative.
    pub fn normal_loss(
        &self,
        radius: Real,
        (active_0, d_0, s_0): (bool, Real, &LawState),
        (active_1, d_1, s_1): (bool, Real, &LawState),
    ) -> (Real, Real) {
        if !d_0.is_finite() || !d_1.is_finite() {
            return (0.0, 0.0);
        }
        let end = |active: bool, d: Real, s: &LawState| {
            if active {
                (
                    self.elastic_normal(d, radius, s),
                    self.normal_energy(d, radius, s),
                )
            } else {
                (0.0, 0.0)
            }
        };
        let (f_0, u_0) = end(active_0, d_0, s_0);
        let (f_1, u_1) = end(active_1, d_1, s_1);
        let rest = 0.5 * (f_0 + f_1) * (d_1 - d_0) - (u_1 - u_0);
        dispatch!(self, m => m.split_normal_loss(rest, (active_0, s_0), (active_1, s_1)))
    }

    /// [`ContactLaw::model_timestep`] (seed 003).
    pub fn model_timestep(&self, mass: Real, radius: Real, loading_steps: Real) -> Real {
        dispatch!(self, m => m.model_timestep(mass, radius, loading_steps))
    }

    /// [`ContactLaw::hand_over`]: the part of a contact's state that goes to its successor when
    /// the active contact of a ball-wall interaction moves to another facet (full mode). The
    /// shear force is in the old local frame; the caller turns it into the successor's frame.
    pub fn hand_over(&self, state: &LawState) -> LawState {
        dispatch!(self, m => m.hand_over(state))
    }
}

impl std::fmt::Display for ContactModel {
    /// The model's parameters in words (derived ones marked), for reports.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&dispatch!(self, m => m.describe()))
    }
}
