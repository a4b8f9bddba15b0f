//! The run loop: builds a case's model, runs it to its end (cycles, duration or solve ratio),
//! records its series and VTK files, and lets observers watch every cycle. It knows the case
//! grammar, not the checks: a check's probe is an [`Observer`].

pub mod checkpoint;

mod interrupt;
mod observer;
mod simulate;
mod simulation;
mod underway;

pub use interrupt::{interrupt, interrupted};
pub use observer::Observer;
pub use simulate::{simulate, simulate_observed};
pub use simulation::{Control, Simulation};
