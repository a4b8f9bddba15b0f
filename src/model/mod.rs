//! The state of a model: bodies, materials, contact-model assignment, contacts and time.

mod balls;
mod material;
mod state;

pub use balls::{dof, BallSpec, Balls};
pub use material::Material;
pub use state::{Model, ModelError, Settings};
