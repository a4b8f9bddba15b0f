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
//! resolution mode of issue #5).

mod bond;
mod hertz;
pub mod history;
mod hysteretic;
mod linear;
mod linear_dashpot;
pub mod restitution;

pub use bond::LinearBond;
pub use hertz::{Hertz, HertzPair};
pub use history::{HertzHistory, HookeHistory};
pub use hysteretic::Hysteretic;
pub use linear::Linear;
pub use linear_dashpot::LinearDashpot;

use crate::math::{Real, Vec3, PI};
use crate::stiffness::ContactStiffness;

/// What a model needs to know about one contact in one cycle.
#[derive(Clone, Copy, Debug)]
pub struct Kinematics {
    /// Overlap, m (> 0 touching; a bonded contact may be called with a gap, < 0).
    pub overlap: Real,
    /// Normal relative velocity of b with respect to a, m/s (> 0: separating).
    pub vn: Real,
    /// Tangential relative velocity at the contact point, local coordinates (`x` = 0), m/s.
    pub vel_t: Vec3,
    /// Tangential displacement increment of this cycle, local coordinates (`x` = 0), m.
    pub du_t: Vec3,
    /// Effective inertial mass m_a m_b / (m_a + m_b), kg (a fixed body counts as infinite).
    pub mass: Real,
    /// Effective radius r_a r_b / (r_a + r_b), m (a wall counts as flat: the ball's radius).
    pub radius: Real,
}

impl Kinematics {
    /// What the model sees of a contact whose frame has just advanced by `step`: the
    /// tangential parts (local `y`, `z`) of the step's velocity and displacement increment.
    #[inline]
    pub fn of_step(
        overlap: Real,
        vn: Real,
        step: &crate::contact::FrameStep,
        mass: Real,
        radius: Real,
    ) -> Self {
        Kinematics {
            overlap,
            vn,
            vel_t: Vec3::new(0.0, step.vel.y, step.vel.z),
            du_t: Vec3::new(0.0, step.du.y, step.du.z),
            mass,
            radius,
        }
    }
}

/// The state a model keeps per contact, in local coordinates (32 bytes: the force loop streams
/// it every cycle inside each contact record).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LawState {
    /// Elastic shear force on b, local coordinates (`x` unused, 0), N; the history models
    /// keep their shear displacement here, in world coordinates (m).
    pub shear: Vec3,
    /// The one scalar of history a model may keep: the hysteretic model's largest overlap
    /// ([`LawState::max_overlap`]) or the linear bond's flag ([`LawState::bonded`]); 0 for
    /// the other models. (One field for both: no model uses both, and the record is 8 bytes
    /// shorter; [`ContactModel::holds`] asks the model before reading it as a bond.)
    aux: Real,
}

impl LawState {
    /// Hysteretic model: the largest overlap reached in this contact, m.
    #[inline]
    pub fn max_overlap(&self) -> Real {
        self.aux
    }

    /// Hysteretic model: sets the largest overlap, m.
    #[inline]
    pub fn set_max_overlap(&mut self, d: Real) {
        self.aux = d;
    }

    /// Linear bond: true while the bond holds (meaningful for that model only: see
    /// [`ContactModel::holds`]).
    #[inline]
    pub fn bonded(&self) -> bool {
        self.aux != 0.0
    }

    /// Linear bond: makes or breaks the bond.
    #[inline]
    pub fn set_bonded(&mut self, bonded: bool) {
        self.aux = if bonded { 1.0 } else { 0.0 };
    }
}

/// Result of the force-displacement law for one contact, local coordinates.
#[derive(Clone, Copy, Debug)]
pub struct ContactForce {
    /// Total force on b: `x` normal (> 0 pushes apart), `y`, `z` shear, N.
    pub local: Vec3,
    /// True when the shear force sits on the Coulomb limit.
    pub sliding: bool,
}

/// A contact model with its parameters (stiffnesses already multiplied by the softening
/// factor).
///
/// Dispatch is by `match` on this enum (no trait object per contact).
#[derive(Clone, Debug, PartialEq)]
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

/// Coulomb limit on an elastic shear force (local): scales it back onto `limit` when larger.
/// Returns true when it slid.
#[inline]
pub(crate) fn coulomb(shear: &mut Vec3, limit: Real) -> bool {
    let limit = limit.max(0.0);
    let fs2 = shear.norm_squared();
    if fs2 > limit * limit {
        // NOTE: fs2 > 0 here because limit >= 0.
        *shear *= limit / fs2.sqrt();
        true
    } else {
        false
    }
}

/// Duration of the loading stage of a linear spring of stiffness `k` against mass `m`: a
/// quarter period, `(pi/2) sqrt(m/k)`.
#[inline]
pub fn quarter_period(m: Real, k: Real) -> Real {
    0.5 * PI * (m / k).sqrt()
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

    /// True for the models that need no local contact frame (the history models).
    pub fn frame_free(&self) -> bool {
        matches!(
            self,
            ContactModel::HertzHistory(_) | ContactModel::HookeHistory(_)
        )
    }

    /// The coefficients and friction of a frame-free history model at overlap `d`, effective
    /// radius `r` and mass `m` (None for the models that work in the local frame).
    #[inline]
    pub fn history(&self, d: Real, r: Real, m: Real) -> Option<(history::Coefficients, Real)> {
        match self {
            ContactModel::HertzHistory(h) => Some((h.coefficients(d, r, m), h.friction)),
            ContactModel::HookeHistory(h) => Some((h.coefficients(), h.friction)),
            _ => None,
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
                // The same law in the local basis: n = x, shear displacement in `state.shear`.
                let (c, mu) = self.history(k.overlap, k.radius, k.mass).unwrap_or((
                    history::Coefficients {
                        kn: 0.0,
                        kt: 0.0,
                        gn: 0.0,
                        gt: 0.0,
                    },
                    0.0,
                ));
                let vt = Vec3::new(0.0, k.vel_t.y, k.vel_t.z);
                let dxi = Vec3::new(0.0, k.du_t.y, k.du_t.z);
                let (f, sliding) = history::step(
                    c,
                    mu,
                    k.overlap,
                    &Vec3::x(),
                    k.vn,
                    &vt,
                    &dxi,
                    &mut state.shear,
                );
                ContactForce { local: f, sliding }
            }
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

    /// Elastic energy stored in a contact, J (shear: `|F_s|^2 / (2 k_s)` with the current
    /// tangent shear stiffness).
    pub fn strain_energy(&self, overlap: Real, radius: Real, state: &LawState) -> Real {
        let s = self.stiffness(overlap, radius);
        let normal = match self {
            ContactModel::Hertz(m) => m.normal_energy(overlap.max(0.0), radius),
            ContactModel::Hysteretic(m) => m.normal_energy(overlap, state),
            // (4/3) E* sqrt(R*) (2/5) d^(5/2) = (2/5) F_e d, F_e = (2/3) S_n d
            ContactModel::HertzHistory(_) => 0.4 * (2.0 / 3.0) * s.kn * overlap.max(0.0).powi(2),
            _ => 0.5 * s.kn * overlap * overlap,
        };
        if matches!(
            self,
            ContactModel::HertzHistory(_) | ContactModel::HookeHistory(_)
        ) {
            // `state.shear` is the shear displacement xi of a history spring: k_t |xi|^2 / 2.
            return normal + 0.5 * s.ks * state.shear.norm_squared();
        }
        let shear = if s.ks > 0.0 {
            0.5 * state.shear.norm_squared() / s.ks
        } else {
            0.0
        };
        normal + shear
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
    /// ball-wall interaction moves to another facet (issue #5, full mode). The shear force is
    /// in the old local frame; the caller turns it into the successor's frame.
    /// - linear, linear-dashpot, Hertz: the elastic shear force;
    /// - hysteretic: the shear force and the largest overlap (the unloading line goes on);
    /// - linear bond: the shear force only: bonds are between balls, never handed to a facet.
    pub fn hand_over(&self, state: &LawState) -> LawState {
        match self {
            ContactModel::Hysteretic(_) => LawState {
                shear: state.shear,
                aux: state.max_overlap(),
            },
            _ => LawState {
                shear: state.shear,
                ..LawState::default()
            },
        }
    }
}
