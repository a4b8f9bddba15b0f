//! Contact detection, the third stage of the cycle: the broad phase (`grid.rs`, a cell grid
//! that finds the pairs of pieces whose extents overlap, in O(N); `rebuild.rs`, when it finds
//! them again), the spatial renumbering of the balls (`sort.rs`), and the stage that runs them
//! and merges the pairs into the contact lists (`stage.rs`, [`Detection`]).

mod grid;
mod rebuild;
mod sort;
mod stage;

pub use grid::{brute_force_pairs, BroadPhase};
pub use rebuild::{Affine, Tolerance};
pub(crate) use sort::keep_clumps_whole;
pub use sort::{morton, Scratch, SortOrder};
pub(crate) use sort::{spatial_order, SortGrid};
pub use stage::{Detection, Jump};
