//! The one trait every contact model implements ([`ContactLaw`]), and what the laws share.
//!
//! Adding a contact model: write its file in `src/law/` (its parameters, its force law and an
//! `impl ContactLaw`), then add its lines to the registry, `src/law/registry.rs` (a variant
//! of [`super::ContactModel`], an arm of its dispatch, its name and source), and its keys to
//! the case grammar (`src/case/contact.rs`). Nothing else names the models one by one.

use super::terms::Coefficients;
use super::{ContactForce, ContactStiffness, FrictionLimit, Kinematics, LawState};
use crate::math::{Real, Vec3, PI};

/// Duration of the loading stage of a linear spring of stiffness `k` against mass `m`: a
/// quarter period, `(pi/2) sqrt(m/k)`.
#[inline]
pub fn quarter_period(m: Real, k: Real) -> Real {
    0.5 * PI * (m / k).sqrt()
}

/// Elastic energy of a normal spring of stiffness `kn` at overlap `d >= 0`, J.
#[inline]
pub fn linear_normal_energy(kn: Real, d: Real) -> Real {
    0.5 * kn * d * d
}

/// A contact model: its force law in the contact's local frame, its stiffnesses, energies,
/// critical-timestep formula and state hand-over (see the module documentation of
/// [`crate::law`]). The engine calls it through [`super::ContactModel`], which dispatches by
/// `match` in one place (no trait object per contact).
pub trait ContactLaw {
    /// Short name as written in case files.
    const NAME: &'static str;

    /// The force law's source, `file::item` from the crate root (reports and check pages).
    const SOURCE: &'static str;

    /// True for the models that need no local contact frame (the history models).
    fn frame_free(&self) -> bool {
        false
    }

    /// The coefficients, friction and Coulomb rule of a frame-free history model at overlap
    /// `d`, effective radius `r` and mass `m` (None for the models on the local frame).
    fn history(&self, _d: Real, _r: Real, _m: Real) -> Option<(Coefficients, Real, FrictionLimit)> {
        None
    }

    /// How the Coulomb limit bounds the tangential force.
    fn friction_limit(&self) -> FrictionLimit;

    /// Force on b for a contact (active, or bonded); updates the contact's state.
    fn force(&self, k: &Kinematics, state: &mut LawState) -> ContactForce;

    /// The elastic part of the normal force at the given overlap, effective radius and state,
    /// N (> 0 pushes apart): what the normal spring carries, without dashpot or clamp.
    fn elastic_normal(&self, overlap: Real, radius: Real, state: &LawState) -> Real;

    /// The elastic part of the tangential force kept in `state`, in the state's coordinates, N.
    fn elastic_shear(&self, _overlap: Real, _radius: Real, state: &LawState) -> Vec3 {
        state.shear_force()
    }

    /// True when a contact in this state carries force even without overlap (a bond).
    fn holds(&self, _state: &LawState) -> bool {
        false
    }

    /// The tangent stiffnesses at the given overlap and effective radius (the contact
    /// stiffness matrix and the automatic timestep, seed 000).
    fn stiffness(&self, overlap: Real, radius: Real) -> ContactStiffness;

    /// E*, Pa, for the models whose stiffness grows from zero at touching (Hertz): the
    /// automatic timestep foresees their peak overlap.
    fn hertz_modulus(&self) -> Option<Real> {
        None
    }

    /// Elastic energy of the normal spring, J (0 in a gap unless a bond holds it).
    fn normal_energy(&self, overlap: Real, radius: Real, _state: &LawState) -> Real {
        let d = overlap.max(0.0);
        linear_normal_energy(self.stiffness(d, radius).kn, d)
    }

    /// The trapezoidal rule's remainder `rest` of a cycle's normal spring split into what the
    /// model dissipated and the integration error (see [`super::ContactModel::normal_loss`]):
    /// by default all of it is integration error.
    fn split_normal_loss(
        &self,
        rest: Real,
        _before: (bool, &LawState),
        _after: (bool, &LawState),
    ) -> (Real, Real) {
        (0.0, -rest)
    }

    /// The model's own critical timestep for effective mass `mass` and effective radius
    /// `radius` with `loading_steps` steps per loading stage (seed 003).
    fn model_timestep(&self, mass: Real, radius: Real, loading_steps: Real) -> Real;

    /// The part of the state that goes to the successor facet contact (full mode): the elastic
    /// shear force by default.
    fn hand_over(&self, state: &LawState) -> LawState {
        let mut next = LawState::default();
        *next.shear_force_mut() = state.shear_force();
        next
    }

    /// The parameters in words (derived ones marked), for reports.
    fn describe(&self) -> String;
}
