//! One contact between two balls: what persists of it from one cycle to the next.

use super::Frame;
use crate::law::LawState;
use crate::math::Vec3;

/// Marks a pair of materials that has no contact model (never created: the model refuses it).
pub const NO_LAW: u16 = u16::MAX;

/// A contact between two balls `a < b` (indices into [`crate::body::Balls`]).
///
/// A contact exists while the extents of its pieces overlap (at the last rebuild of the
/// broad phase); it is *active*, and carries force, only while the pieces overlap (or a bond
/// holds them).
///
/// The record holds only what persists from one cycle to the next (48 bytes: the force loop
/// streams it every cycle, so its size is the loop's memory traffic). Its geometry is a
/// function of the current positions ([`super::Contacts::geometry`]: the force loop computes the
/// same numbers); its force is [`super::Contacts::contact_force`] (kept by the general loop, found again
/// from the state after the frame-free one).
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct Contact {
    /// Index of the first ball (the smaller index).
    pub a: u32,
    /// Index of the second ball.
    pub b: u32,
    /// Index of the contact model in [`crate::model::Model::laws`].
    pub law: u16,
    /// True while the pieces overlap (or are bonded) and the contact carries force.
    pub active: bool,
    /// History models: true when the last update put the tangential force on the Coulomb
    /// limit (its force is then `-k_t xi` with no dashpot; see [`super::Contacts::contact_force`]).
    pub sliding: bool,
    /// The contact model's state (local coordinates; world coordinates for the history models).
    pub state: LawState,
}

impl Contact {
    /// A new, inactive contact with no history.
    pub fn new(a: u32, b: u32, law: u16) -> Self {
        Contact {
            a,
            b,
            law,
            active: false,
            sliding: false,
            state: LawState::default(),
        }
    }

    /// The elastic shear force on b in the world frame, N: the model's state turned out of the
    /// contact's local `frame` ([`super::Contacts::frames`]). Frame-based models only: the history
    /// models keep a shear displacement instead ([`LawState::shear_displacement`]) (their total force is in
    /// [`super::Contacts::contact_force`]).
    pub fn shear_force(&self, frame: &Frame) -> Vec3 {
        frame.to_world(&self.state.shear_force())
    }

    /// The sort key of the pair.
    #[inline]
    pub fn key(&self) -> u64 {
        pair_key(self.a, self.b)
    }
}

/// Sort key of a pair of piece indices (a < b).
#[inline]
pub fn pair_key(a: u32, b: u32) -> u64 {
    ((a as u64) << 32) | b as u64
}

// The force loop streams the records every cycle: their size is its memory traffic.
const _: () = assert!(std::mem::size_of::<Contact>() == 48);
