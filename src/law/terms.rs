//! The terms every force law speaks: the kinematics it reads, the state it keeps and the force
//! it returns, all in the contact's local frame.

use crate::math::{Real, Vec3};
use nalgebra::Matrix3;

/// What a model needs to know about one contact in one cycle.
#[derive(Clone, Copy, Debug)]
pub struct Kinematics {
    /// Overlap, m (> 0 touching; a bonded contact may be called with a gap, < 0).
    pub overlap: Real,
    /// Overlap at the previous cycle, m (the same as `overlap` in a contact's first cycle):
    /// the stiffness the model had then, for its energy books.
    pub overlap_prev: Real,
    /// Normal relative velocity of b with respect to a, m/s (> 0: separating).
    pub vn: Real,
    /// Tangential relative velocity at the contact point, local coordinates (`x` = 0), m/s.
    pub vel_t: Vec3,
    /// Tangential displacement increment of this cycle, local coordinates (`x` = 0), m
    /// (`vel_t dt`).
    pub du_t: Vec3,
    /// Effective inertial mass m_a m_b / (m_a + m_b), kg (a fixed body counts as infinite).
    pub mass: Real,
    /// Effective radius r_a r_b / (r_a + r_b), m (a wall counts as flat: the ball's radius).
    pub radius: Real,
    /// The timestep of the cycle, s.
    pub dt: Real,
    /// True when energy books are kept: the model then reports what its springs held and
    /// lost ([`ContactForce::dissipated`], [`ContactForce::stored_before`]); else those are 0
    /// and their arithmetic is skipped.
    pub books: bool,
}

/// The state a model keeps per contact, in local coordinates (32 bytes: the force loop streams
/// it every cycle inside each contact record).
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct LawState {
    /// The shear spring: what [`LawState::shear_force`] or [`LawState::shear_displacement`]
    /// reads, whichever the contact's model keeps (never both).
    spring: Vec3,
    /// The one scalar of history a model may keep: the hysteretic model's largest overlap
    /// ([`LawState::max_overlap`]) or the linear bond's flag ([`LawState::bonded`]); 0 for
    /// the other models. (One field for both: no model uses both, and the record is 8 bytes
    /// shorter; [`ContactModel::holds`] asks the model before reading it as a bond.)
    aux: Real,
}

impl LawState {
    /// Frame-based models (linear, linear-dashpot, Hertz, hysteretic, linear bond): the elastic
    /// shear force on b in the contact's local basis (`x` along the normal, unused, 0), N.
    #[inline]
    pub fn shear_force(&self) -> Vec3 {
        self.spring
    }

    /// Frame-based models: the elastic shear force, to be changed (see
    /// [`LawState::shear_force`]).
    #[inline]
    pub fn shear_force_mut(&mut self) -> &mut Vec3 {
        &mut self.spring
    }

    /// History models (`hertz_history`, `hooke_history`): the tangential displacement
    /// accumulated at the contact (b relative to a), m, in the basis the contact is evaluated
    /// in: world coordinates in the force pass, the local basis in
    /// [`super::ContactModel::force`].
    #[inline]
    pub fn shear_displacement(&self) -> Vec3 {
        self.spring
    }

    /// History models: the tangential displacement, to be changed (see
    /// [`LawState::shear_displacement`]).
    #[inline]
    pub fn shear_displacement_mut(&mut self) -> &mut Vec3 {
        &mut self.spring
    }

    /// A history model's contact with its bodies swapped (b becomes a): the displacement of b
    /// relative to a, a world vector, changes sign.
    #[inline]
    pub fn swap_bodies(&mut self) {
        self.spring = -self.spring;
    }

    /// A frame-based model's contact with its bodies swapped and its frame turned over by
    /// [`crate::contact::Frame::swap_pieces`]: the shear force on the new b is the opposite
    /// world vector, whose components on the new axes are `(0, F_y, -F_z)`. The scalar
    /// history (largest overlap, bond) is the same.
    #[inline]
    pub fn swap_bodies_in_frame(&mut self) {
        self.spring.z = -self.spring.z;
    }

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
    /// [`super::ContactModel::holds`]).
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
    /// True when the tangential force sits on the Coulomb limit.
    pub sliding: bool,
    /// Energy the model's elastic elements lost in this call, J: the slip of the
    /// tangential spring (and the change of its stored energy when its stiffness changes
    /// with the overlap), the hysteresis of the hysteretic model, a bond's breakage. The
    /// dashpots' share is booked from their forces by [`crate::model::Model`]'s energy
    /// books, not here. See [`super::elastic_loss`].
    pub dissipated: Real,
    /// Elastic energy of the tangential spring as the model received it (the state at entry,
    /// with the stiffness of the previous cycle), J: what `dissipated` counts from. A wall
    /// interaction compares it with what its contacts held at the end of the previous cycle:
    /// the difference is what the resolution of its contacts dropped or copied.
    pub stored_before: Real,
}

/// The four stiffnesses of a contact.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactStiffness {
    /// Normal stiffness, N/m (along n3).
    pub kn: Real,
    /// Shear stiffness, N/m (along n1 and n2).
    pub ks: Real,
    /// Twisting stiffness, N m/rad (rotation about n3).
    pub kn_rot: Real,
    /// Bending stiffness, N m/rad (rotations about n1 and n2).
    pub ks_rot: Real,
}

impl ContactStiffness {
    /// Normal and shear stiffness alone (no rotational springs), N/m.
    pub fn springs(kn: Real, ks: Real) -> Self {
        ContactStiffness {
            kn,
            ks,
            kn_rot: 0.0,
            ks_rot: 0.0,
        }
    }

    /// The translational stiffness tensor `S = ks (n1 n1^T + n2 n2^T) + kn n3 n3^T`, N/m, written
    /// `ks I + (kn - ks) n n^T` (the same tensor for any n1, n2 completing the triad).
    pub fn translational(&self, n: &Vec3) -> Matrix3<Real> {
        Matrix3::identity() * self.ks + n * n.transpose() * (self.kn - self.ks)
    }

    /// The rotational stiffness tensor `S_r = ks_rot I + (kn_rot - ks_rot) n n^T`, N m/rad.
    pub fn rotational(&self, n: &Vec3) -> Matrix3<Real> {
        Matrix3::identity() * self.ks_rot + n * n.transpose() * (self.kn_rot - self.ks_rot)
    }

    /// Number of positive stiffnesses counted with multiplicity (the rank of the contact
    /// matrix in 3D): kn once, ks twice, kn_rot once, ks_rot twice.
    pub fn positive_count(&self) -> usize {
        [
            self.kn,
            self.ks,
            self.ks,
            self.kn_rot,
            self.ks_rot,
            self.ks_rot,
        ]
        .iter()
        .filter(|k| **k > 0.0)
        .count()
    }
}

/// The four coefficients of one step of a history model (`super::history`).
#[derive(Clone, Copy, Debug)]
pub struct Coefficients {
    /// Normal stiffness (secant: `k_n d` is the elastic force), N/m.
    pub kn: Real,
    /// Tangential stiffness, N/m.
    pub kt: Real,
    /// Normal damping, N s/m.
    pub gn: Real,
    /// Tangential damping, N s/m.
    pub gt: Real,
}
