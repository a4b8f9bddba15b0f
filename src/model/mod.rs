//! The state of a model: its bodies ([`crate::body`]), the contact model of each pair of
//! materials, the contacts, the settings and the time.

mod energy;
mod sort;
mod state;

pub use energy::EnergyBooks;
pub use sort::SortOrder;
pub use state::{Model, ModelError, Phases, Settings};
