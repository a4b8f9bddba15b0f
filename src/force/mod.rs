//! Force-displacement, the fourth stage of the cycle: each contact's geometry and force, then
//! the resultant force and moment of every body, summed in contact order so that the result
//! is the same for any number of threads.
//!
//! The stage takes its state explicitly ([`Forces`]): it reads the balls' positions and
//! velocities, the walls, the contact models and the frame flags, and writes the contacts'
//! state, the balls' (and clumps') resultant forces and moments, the automatic timestep's
//! per-ball stiffness sums and whether two pieces interpenetrate.
//!
//! - `ranges.rs`: the one pass in ranges of balls (3D, no energy books), eight contacts at a
//!   time in `lanes/`;
//! - `balls.rs`: the general loop over ball-ball contacts (any model, 3D or 2D) and its gather;
//! - `walls.rs`: the ball-facet contacts in blocks of interactions;
//! - `lanes/`: the batches of eight contacts (history models, frame models, stiffness sums).

mod balls;
pub mod lanes;
mod ranges;
mod stage;
mod walls;

pub use stage::{one_pass, Forces};
pub use walls::{wall_resultant, wall_resultant_sums};
