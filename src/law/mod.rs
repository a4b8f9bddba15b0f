//! Contact models: the force-displacement law of a contact, chosen per pair of materials.
//!
//! Every model works in the contact's local frame ([`crate::contact::Frame`], seed 002): it
//! receives the overlap, the normal relative velocity and the tangential displacement
//! increment in local coordinates, keeps its own state ([`LawState`], local coordinates, so
//! that it turns with the contact), and returns the force on piece b in local coordinates
//! (`x`: normal, > 0 pushes the pieces apart; `y`, `z`: shear).
//!
//! Each model also provides its stiffnesses (contact stiffness matrix, automatic timestep),
//! its critical-timestep formula (`[timestep] mode = "model"`, seed 003) and how its state is
//! handed from one facet contact to another ([`ContactModel::hand_over`], used by the full
//! resolution mode).

mod bond;
mod cohesion;
mod friction;
mod hertz;
pub mod history;
mod hysteretic;
pub mod lanes;
mod linear;
mod linear_dashpot;
pub mod restitution;
mod rolling;
mod terms;

pub use bond::LinearBond;
pub use cohesion::{Cohesion, Pieces};
pub use friction::{coulomb, elastic_loss, shear_step, spring_energy, FrictionLimit, Shear};
pub use hertz::{Hertz, HertzPair};
pub use history::{HertzHistory, HookeHistory};
pub use hysteretic::Hysteretic;
pub use linear::Linear;
pub use linear_dashpot::LinearDashpot;
pub use rolling::{Rolling, RollingInput};
pub use terms::{ContactForce, ContactStiffness, Kinematics, LawState};

use crate::math::{num, Real, Vec3, PI};

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

/// Duration of the loading stage of a linear spring of stiffness `k` against mass `m`: a
/// quarter period, `(pi/2) sqrt(m/k)`.
#[inline]
pub fn quarter_period(m: Real, k: Real) -> Real {
    0.5 * PI * (m / k).sqrt()
}

/// The source file of the force law of the model named `name` as in case files, from the
/// crate root (for reports and check pages); the linear law for a name it does not know.
pub fn source_file(name: &str) -> &'static str {
    match name {
        "linear-dashpot" => "src/law/linear_dashpot.rs::LinearDashpot::force",
        "hysteretic" => "src/law/hysteretic.rs::Hysteretic::force",
        "hertz" => "src/law/hertz.rs::Hertz::force",
        "linearbond" => "src/law/bond.rs::LinearBond::force",
        "hertz-history" | "hooke-history" => "src/law/history.rs::step",
        _ => "src/law/linear.rs::Linear::force",
    }
}

impl ContactModel {
    /// Short name as written in case files.
    pub fn name(&self) -> &'static str {
        match self {
            ContactModel::Linear(_) => "linear",
            ContactModel::LinearDashpot(_) => "linear-dashpot",
            ContactModel::Hysteretic(_) => "hysteretic",
            ContactModel::Hertz(_) => "hertz",
            ContactModel::LinearBond(_) => "linearbond",
            ContactModel::HertzHistory(_) => "hertz-history",
            ContactModel::HookeHistory(_) => "hooke-history",
        }
    }

    /// The source file of the force law, from the crate root (for reports and check pages).
    pub fn source_file(&self) -> &'static str {
        source_file(self.name())
    }

    /// True for the models that need no local contact frame (the history models).
    pub fn frame_free(&self) -> bool {
        matches!(
            self,
            ContactModel::HertzHistory(_) | ContactModel::HookeHistory(_)
        )
    }

    /// The coefficients, friction and Coulomb rule of a frame-free history model at overlap
    /// `d`, effective radius `r` and mass `m` (None for the models that work in the local
    /// frame).
    #[inline]
    pub fn history(
        &self,
        d: Real,
        r: Real,
        m: Real,
    ) -> Option<(history::Coefficients, Real, FrictionLimit)> {
        match self {
            ContactModel::HertzHistory(h) => Some((h.coefficients(d, r, m), h.friction, h.limit)),
            ContactModel::HookeHistory(h) => Some((h.coefficients(), h.friction, h.limit)),
            _ => None,
        }
    }

    /// How the Coulomb limit bounds this model's tangential force (the models without a
    /// shear dashpot, whose normal force is elastic: [`FrictionLimit::Spring`], which is then
    /// the same as `Total`).
    pub fn friction_limit(&self) -> FrictionLimit {
        match self {
            ContactModel::Linear(m) => m.limit,
            ContactModel::LinearDashpot(m) => m.limit,
            ContactModel::Hertz(m) => m.limit,
            ContactModel::HertzHistory(m) => m.limit,
            ContactModel::HookeHistory(m) => m.limit,
            ContactModel::Hysteretic(_) | ContactModel::LinearBond(_) => FrictionLimit::Spring,
        }
    }

    /// Force on b for a contact (active, or bonded); updates the contact's state.
    #[inline]
    pub fn force(&self, k: &Kinematics, state: &mut LawState) -> ContactForce {
        match self {
            ContactModel::Linear(m) => m.force(k, state),
            ContactModel::LinearDashpot(m) => m.force(k, state),
            ContactModel::Hysteretic(m) => m.force(k, state),
            ContactModel::Hertz(m) => m.force(k, state),
            ContactModel::LinearBond(m) => m.force(k, state),
            ContactModel::HertzHistory(_) | ContactModel::HookeHistory(_) => {
                // The same law in the local basis: n = x, the shear displacement local too.
                let none = history::Coefficients {
                    kn: 0.0,
                    kt: 0.0,
                    gn: 0.0,
                    gt: 0.0,
                };
                let (c, mu, rule) = self.history(k.overlap, k.radius, k.mass).unwrap_or((
                    none,
                    0.0,
                    FrictionLimit::Spring,
                ));
                let kt_prev = self
                    .history(k.overlap_prev.max(0.0), k.radius, k.mass)
                    .map_or(0.0, |h| h.0.kt);
                let vt = Vec3::new(0.0, k.vel_t.y, k.vel_t.z);
                let dxi = Vec3::new(0.0, k.du_t.y, k.du_t.z);
                let before = state.shear_displacement();
                let (f, sliding) = history::step(
                    c,
                    mu,
                    rule,
                    k.overlap,
                    &Vec3::x(),
                    k.vn,
                    &vt,
                    &dxi,
                    k.dt,
                    state.shear_displacement_mut(),
                );
                ContactForce {
                    local: f,
                    sliding,
                    dissipated: history::spring_loss(
                        kt_prev,
                        &before,
                        c.kt,
                        &state.shear_displacement(),
                        &dxi,
                    ),
                    stored_before: spring_energy(&(-kt_prev * before), kt_prev),
                }
            }
        }
    }

    /// The elastic part of the normal force at the given overlap, effective radius and state,
    /// N (> 0 pushes apart): what the normal spring carries, without dashpot or clamp. The
    /// energy books take the rest of the applied normal force as dissipative.
    pub fn elastic_normal(&self, overlap: Real, radius: Real, state: &LawState) -> Real {
        match self {
            ContactModel::Linear(m) => m.kn * overlap,
            ContactModel::LinearDashpot(m) => m.kn * overlap,
            ContactModel::Hysteretic(m) => m.normal_force(overlap, state),
            ContactModel::Hertz(m) => m.elastic(overlap.max(0.0), radius),
            ContactModel::LinearBond(m) => {
                if state.bonded() || overlap > 0.0 {
                    m.kn * overlap
                } else {
                    0.0
                }
            }
            ContactModel::HertzHistory(m) => {
                m.coefficients(overlap.max(0.0), radius, 0.0).kn * overlap.max(0.0)
            }
            ContactModel::HookeHistory(m) => m.kn * overlap,
        }
    }

    /// The elastic part of the tangential force kept in `state` at the given overlap and
    /// effective radius, in the coordinates of the state (local for the frame-based models,
    /// world for the history models), N: the spring of the frame-based models, `-k_t xi` of
    /// the history models.
    pub fn elastic_shear(&self, overlap: Real, radius: Real, state: &LawState) -> Vec3 {
        match self {
            ContactModel::HertzHistory(_) | ContactModel::HookeHistory(_) => {
                -self.stiffness(overlap, radius).ks * state.shear_displacement()
            }
            _ => state.shear_force(),
        }
    }

    /// True when a contact in this state carries force even without overlap (a bond).
    #[inline]
    pub fn holds(&self, state: &LawState) -> bool {
        matches!(self, ContactModel::LinearBond(_)) && state.bonded()
    }

    /// The stiffnesses of a contact at the given overlap and effective radius (for the contact
    /// stiffness matrix and the automatic timestep, seed 000): the tangent stiffnesses.
    pub fn stiffness(&self, overlap: Real, radius: Real) -> ContactStiffness {
        let (kn, ks, kn_rot, ks_rot) = match self {
            ContactModel::Linear(m) => (m.kn, m.ks, m.kn_rot, m.ks_rot),
            ContactModel::LinearDashpot(m) => (m.kn, m.ks, 0.0, 0.0),
            // NOTE: the unloading stiffness, the larger of the two: the estimate stays on the
            // safe side whichever branch the contact is on.
            ContactModel::Hysteretic(m) => (m.k_unload, m.ks, 0.0, 0.0),
            ContactModel::Hertz(m) => {
                let (kn, ks) = m.tangent(overlap.max(0.0), radius);
                (kn, ks, 0.0, 0.0)
            }
            ContactModel::LinearBond(m) => (m.kn, m.ks, 0.0, 0.0),
            ContactModel::HertzHistory(m) => {
                let a = (radius * overlap.max(0.0)).sqrt();
                (2.0 * m.pair.e_star * a, 8.0 * m.pair.g_star * a, 0.0, 0.0)
            }
            ContactModel::HookeHistory(m) => (m.kn, m.kt, 0.0, 0.0),
        };
        ContactStiffness {
            kn,
            ks,
            kn_rot,
            ks_rot,
        }
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
        let e_star = match self {
            ContactModel::Hertz(m) => m.pair.e_star,
            ContactModel::HertzHistory(m) => m.pair.e_star,
            _ => return overlap,
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
        let d = overlap.max(0.0);
        match self {
            ContactModel::Hertz(m) => m.normal_energy(d, radius),
            ContactModel::Hysteretic(m) => m.normal_energy(overlap, state),
            // (4/3) E* sqrt(R*) (2/5) d^(5/2) = (2/5) F_e d, F_e = (2/3) S_n d
            ContactModel::HertzHistory(_) => {
                0.4 * (2.0 / 3.0) * self.stiffness(d, radius).kn * d * d
            }
            ContactModel::LinearBond(m) if state.bonded() => 0.5 * m.kn * overlap * overlap,
            _ => 0.5 * self.stiffness(d, radius).kn * d * d,
        }
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
        match self {
            // the hysteresis proper: loading from the largest overlap so far to a new one loses
            // the area between the loading and the unloading lines,
            // (k_n/2)(1 - k_n/k_unload)(d_max,1^2 - d_max,0^2); the rest is the trapezoidal
            // rule's (the force switches branch, or to zero, within a step)
            ContactModel::Hysteretic(m) if active_1 => {
                let d_max_0 = if active_0 { s_0.max_overlap() } else { 0.0 };
                let d_max_1 = s_1.max_overlap();
                let hysteresis = 0.5
                    * m.kn
                    * (1.0 - m.kn / m.k_unload)
                    * (d_max_1 * d_max_1 - d_max_0 * d_max_0);
                (hysteresis, -(rest - hysteresis))
            }
            ContactModel::LinearBond(_) if s_0.bonded() && !s_1.bonded() => (rest, 0.0),
            _ => (0.0, -rest),
        }
    }

    /// The model's own critical timestep for a pair of effective mass `mass` and effective
    /// radius `radius` (seed 003), with `loading_steps` steps per loading stage.
    ///
    /// - linear, linear-dashpot, linear bond: `(pi/2) sqrt(m*/kn) / N`;
    /// - hysteretic: `min((pi/2) sqrt(m*/k_load) / N, (pi/2) sqrt(m*/k_unload) / 4)` (N steps
    ///   in loading, at least 4 in unloading);
    /// - Hertz: `(pi/2) sqrt(m*/k_H) / N` with `k_H = 2 E* sqrt(R* d)` the tangent normal
    ///   stiffness at the overlap `d = 0.1 R*`.
    pub fn model_timestep(&self, mass: Real, radius: Real, loading_steps: Real) -> Real {
        let loading = |k: Real| quarter_period(mass, k) / loading_steps;
        match self {
            ContactModel::Linear(m) => loading(m.kn),
            ContactModel::LinearDashpot(m) => loading(m.kn),
            ContactModel::LinearBond(m) => loading(m.kn),
            ContactModel::Hysteretic(m) => {
                loading(m.kn).min(quarter_period(mass, m.k_unload) / 4.0)
            }
            ContactModel::Hertz(m) => loading(m.tangent(0.1 * radius, radius).0),
            ContactModel::HertzHistory(_) => loading(self.stiffness(0.1 * radius, radius).kn),
            ContactModel::HookeHistory(m) => loading(m.kn),
        }
    }

    /// The part of a contact's state that goes to its successor when the active contact of a
    /// ball-wall interaction moves to another facet (full mode). The shear force is
    /// in the old local frame; the caller turns it into the successor's frame.
    /// - linear, linear-dashpot, Hertz: the elastic shear force;
    /// - hysteretic: the shear force and the largest overlap (the unloading line goes on);
    /// - linear bond: the shear force only: bonds are between balls, never handed to a facet.
    pub fn hand_over(&self, state: &LawState) -> LawState {
        let mut next = LawState::default();
        *next.shear_force_mut() = state.shear_force();
        if let ContactModel::Hysteretic(_) = self {
            next.set_max_overlap(state.max_overlap());
        }
        next
    }
}

impl std::fmt::Display for ContactModel {
    /// The model's parameters in words (derived ones marked), for reports.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let text = {
            use ContactModel as M;
            match self {
                M::Linear(l) => format!(
                    "kn = {} N/m, ks = {} N/m, friction = {}, damp_n = {}, damp_s = {}",
                    num(l.kn),
                    num(l.ks),
                    l.friction,
                    l.damp_n,
                    l.damp_s
                ),
                M::LinearDashpot(l) => format!(
                    "kn = {} N/m, ks = {} N/m, friction = {}, restitution = {}, clamp = {}; derived damping ratio ζ = {:.9}",
                    num(l.kn),
                    num(l.ks),
                    l.friction,
                    l.restitution,
                    l.clamp,
                    l.damp_n
                ),
                M::Hysteretic(l) => format!(
                    "kn (loading) = {} N/m, k_unload = {} N/m, ks = {} N/m, friction = {}; restitution √(kn/k_unload) = {:.9}",
                    num(l.kn),
                    num(l.k_unload),
                    num(l.ks),
                    l.friction,
                    (l.kn / l.k_unload).sqrt()
                ),
                M::Hertz(h) => format!(
                    "E* = {} Pa, G* = {} Pa, friction = {}, restitution = {}, clamp = {}; derived damping a = {:.9}",
                    num(h.pair.e_star),
                    num(h.pair.g_star),
                    h.friction,
                    h.restitution,
                    h.clamp,
                    h.damping
                ),
                M::LinearBond(b) => format!(
                    "kn = {} N/m, ks = {} N/m, friction = {}, tensile strength = {} N, shear strength = {} N, bond gap = {} m",
                    num(b.kn),
                    num(b.ks),
                    b.friction,
                    num(b.tensile),
                    num(b.shear_strength),
                    num(b.bond_gap)
                ),
                M::HertzHistory(h) => format!(
                    "E* = {} Pa, G* = {} Pa, friction = {}, restitution = {}; damping factor −2√(5/6)β = {:.9} (LIGGGHTS), tangential history spring k_t = 8G*√(R*δ), normal force clamped at 0",
                    num(h.pair.e_star),
                    num(h.pair.g_star),
                    h.friction,
                    h.restitution,
                    h.damping
                ),
                M::HookeHistory(h) => format!(
                    "kn = {} N/m, kt = {} N/m, γn = {} N s/m, γt = {} N s/m, friction = {}; tangential history spring, normal force clamped at 0",
                    num(h.kn),
                    num(h.kt),
                    num(h.gamma_n),
                    num(h.gamma_t),
                    h.friction
                ),
            }
        };
        f.write_str(&text)
    }
}
