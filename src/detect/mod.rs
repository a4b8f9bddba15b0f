//! Contact detection's rules: the broad phase (a cell grid that finds the pairs of pieces whose
//! extents overlap, in O(N)) and the spatial renumbering of the balls. The stage that runs them
//! on the model and merges the pairs into the contact lists is `cycle/detect.rs`.

mod grid;
mod sort;

pub use grid::{brute_force_pairs, BroadPhase};
pub(crate) use sort::keep_clumps_whole;
pub(crate) use sort::spatial_order;
pub use sort::{morton, Scratch, SortOrder};
