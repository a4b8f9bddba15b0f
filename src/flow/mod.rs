//! Balls that enter and leave a run (`[[insert]]`, `[[outlet]]`, docs/CASES.md): what each
//! insertion and outlet is, what it has done, and where a new ball can go without touching
//! anything; and the stage that applies them at the start of each cycle (`stage.rs`,
//! [`Exchange`]).

mod insert;
mod place;
mod stage;

pub use insert::{Flow, Insert, InsertSpec, Outlet, Rate, ATTEMPTS, RETRY_CYCLES};
pub use place::Obstacles;
pub use stage::Exchange;
