//! Contact models: the force-displacement law of a contact, chosen per pair of materials.

mod linear;

pub use linear::{ContactForce, Kinematics, Linear};

use crate::math::{Real, Vec3};
use crate::stiffness::ContactStiffness;

/// A contact model with its parameters.
///
/// Dispatch is by `match` on this enum (no trait object per contact).
#[derive(Clone, Debug, PartialEq)]
pub enum ContactModel {
    /// The PFC linear model ([`Linear`]): cheapest; stiffness independent of overlap.
    Linear(Linear),
}

impl ContactModel {
    /// Short name as written in case files.
    pub fn name(&self) -> &'static str {
        match self {
            ContactModel::Linear(_) => "linear",
        }
    }

    /// Force on b for an active contact; updates the contact's shear state.
    #[inline]
    pub fn force(&self, k: &Kinematics, shear: &mut Vec3) -> ContactForce {
        match self {
            ContactModel::Linear(m) => m.force(k, shear),
        }
    }

    /// The stiffnesses of an active contact at the given overlap (for the contact stiffness
    /// matrix and the automatic timestep, seed 000).
    pub fn stiffness(&self, _overlap: Real) -> ContactStiffness {
        match self {
            ContactModel::Linear(m) => ContactStiffness {
                kn: m.kn,
                ks: m.ks,
                kn_rot: m.kn_rot,
                ks_rot: m.ks_rot,
            },
        }
    }

    /// Elastic energy stored in an active contact, J.
    pub fn strain_energy(&self, overlap: Real, shear: &Vec3) -> Real {
        match self {
            ContactModel::Linear(m) => m.strain_energy(overlap, shear),
        }
    }
}
