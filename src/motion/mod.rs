//! The law of motion, the second stage of the cycle ([`Motion`]: what it reads and writes):
//! the balls (`balls.rs`: velocity Verlet, 32 at a time), the clumps (as rigid bodies,
//! [`crate::body::Clumps::step`]) and the walls (their prescribed motion,
//! [`crate::body::Wall::step`]).

mod balls;
mod stage;

pub use balls::{acceleration, angular_acceleration, step, Reference};
pub use stage::{deform_cell, Motion};
