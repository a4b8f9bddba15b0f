//! Contact detection, the third stage of the cycle: the broad phase (`grid.rs`, a cell grid
//! that finds the pairs of pieces whose extents overlap, in O(N)), the spatial renumbering of
//! the balls (`sort.rs`), and the stage that runs them and merges the pairs into the contact
//! lists (`stage.rs`, [`Detection`]).

mod grid;
mod sort;
mod stage;

pub use grid::{brute_force_pairs, displacement_limit, BroadPhase};
pub(crate) use sort::keep_clumps_whole;
pub(crate) use sort::spatial_order;
pub use sort::{morton, Scratch, SortOrder};
pub use stage::{Detection, Jump};
