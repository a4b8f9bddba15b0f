//! Runs over several ranks (processes, or threads standing in for them): what the engine asks
//! of the others ([`Comm`]), one rank alone ([`Solo`]), several ranks in one process exchanging
//! through shared buffers ([`Hub`], what `cargo test` proves the rank invariance with, no MPI
//! needed), MPI processes (`Mpi`, the build with `--features mpi`), and the cut of space into
//! bricks of ranks ([`Bricks`]).
//!
//! Every collective is exact: extrema and logical ors do not depend on the order they are
//! taken in, and sums are [`ExactSum`]s merged exactly. So a decision or an output made from
//! them is the same bits on any number of ranks.

mod bricks;
mod collective;
mod hub;
#[cfg(feature = "mpi")]
mod mpi;
mod share;

pub use bricks::Bricks;
pub use collective::{Comm, Solo};
pub use hub::Hub;
#[cfg(feature = "mpi")]
pub use mpi::Mpi;
pub use share::Share;
