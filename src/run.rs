//! The run loop: builds a case's model, runs it to its end (cycles, duration or solve ratio),
//! records its series and VTK files, and lets observers (the checks' probes) watch every cycle;
//! it also runs the cases a check asks for (`case_view.rs`).

pub mod checkpoint;

mod books;
mod case_view;
mod interrupt;
mod ranked;
mod session;
mod setup;
mod simulate;
mod simulation;
mod underway;

pub use crate::check::Observer;
pub use interrupt::{interrupt, interrupted};
pub use ranked::why_not_ranked;
pub use session::{id_order, set_positions, set_velocities, Session, SessionOptions};
pub use simulate::{simulate, simulate_observed};
pub use simulation::{Control, Simulation};
