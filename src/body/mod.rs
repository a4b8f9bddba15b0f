//! The bodies of a model: balls (and the pebbles of clumps) in contiguous arrays, clumps,
//! materials and faceted walls. What a body is and how it moves by itself; nothing here knows
//! of contacts or of the model that holds the bodies.

mod balls;
mod clumps;
mod error;
mod material;
mod wall;

pub(crate) use balls::for_each_array;
pub use balls::{dof, BallSpec, Balls, Rows, NO_CLUMP};
pub use clumps::{mass_properties, ClumpSpec, Clumps, MassSpec, PebbleSpec, ROTATIONS};
pub(crate) use error::finite_state;
pub use error::ModelError;
pub use material::Material;
pub use wall::{side, Program, Resolution, ScheduleEntry, ServoTarget, Wall, WallMotion, WallSpec};
