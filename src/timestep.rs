//! Timestep modes: how the timestep of each cycle is chosen (seed 000).

use crate::math::Real;

/// How the timestep of a cycle is chosen.
#[derive(Clone, Debug, PartialEq)]
pub enum TimestepMode {
    /// The same user-given timestep every cycle, s. Cheapest; stability is the user's
    /// responsibility (seed 000, "Fixed Timestep").
    Fixed(Real),
}

impl TimestepMode {
    /// The timestep of the next cycle, s.
    pub fn next(&self) -> Real {
        match self {
            TimestepMode::Fixed(dt) => *dt,
        }
    }
}
