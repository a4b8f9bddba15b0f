//! The state of a model: bodies (balls, walls), materials, contact-model assignment, contacts
//! and time.

mod balls;
mod clumps;
mod energy;
mod material;
mod sort;
mod state;
mod wall;

pub use balls::{dof, BallSpec, Balls};
pub use clumps::{mass_properties, ClumpSpec, Clumps, MassSpec, PebbleSpec, NO_CLUMP, ROTATIONS};
pub use energy::EnergyBooks;
pub use material::Material;
pub use sort::SortOrder;
pub use state::{Model, ModelError, Phases, Settings};
pub use wall::{side, Resolution, Wall, WallMotion, WallSpec};
