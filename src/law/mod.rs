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
//!
//! One file per model (`linear.rs`, `linear_dashpot.rs`, `hysteretic.rs`, `hertz.rs`,
//! `bond.rs`, `history.rs`), each implementing the one trait [`ContactLaw`]
//! (`contact_law.rs`, which says how to add a model); [`ContactModel`] and its dispatch are the
//! registry (`registry.rs`). Beside them: friction (`friction.rs`), rolling resistance
//! (`rolling.rs`), cohesion (`cohesion.rs`), the terms a law takes and returns (`terms.rs`),
//! and the frame models' arithmetic eight contacts at a time (`lanes.rs`).

mod bond;
mod cohesion;
mod contact_law;
mod friction;
mod hertz;
pub mod history;
mod hysteretic;
pub mod lanes;
mod linear;
mod linear_dashpot;
mod registry;
pub mod restitution;
mod rolling;
mod terms;

pub use bond::LinearBond;
pub use cohesion::{Cohesion, Pieces};
pub use contact_law::{linear_normal_energy, quarter_period, ContactLaw};
pub use friction::{coulomb, elastic_loss, shear_step, spring_energy, FrictionLimit, Shear};
pub use hertz::{Hertz, HertzPair};
pub use history::{HertzHistory, HookeHistory};
pub use hysteretic::Hysteretic;
pub use linear::Linear;
pub use linear_dashpot::LinearDashpot;
pub use registry::{source_file, ContactModel};
pub use rolling::{Rolling, RollingInput};
pub use terms::{ContactForce, ContactStiffness, Kinematics, LawState};
