//! The state of a model: its bodies ([`crate::body`]), the contact model of each pair of
//! materials, the contacts, the settings and the time.

mod bodies;
pub(crate) mod books;
mod energy;
mod flow;
mod limits;
mod state;
mod views;

pub use crate::body::ModelError;
pub use crate::phases::Phases;
pub use books::EnergyBooks;
pub use energy::Energies;
pub use state::{Measure, Model, Settings};
