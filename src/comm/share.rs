//! What a rank holds of a run's bodies ([`Share`]): the stages that sum over the whole model
//! (the energy books, the energies) sum over their own balls only, then merge the sums exactly
//! over the ranks.

use super::{Comm, Solo};
use crate::math::ExactSum;

/// Which of a model's balls are this rank's own (the others are ghosts, copies of other
/// ranks' balls), and the ranks to merge sums over. One process holds the whole model
/// ([`Share::whole`]).
#[derive(Clone, Copy, Debug)]
pub struct Share<'a> {
    /// For each ball, true for a ghost (empty: none is).
    ghost: &'a [bool],
    /// The ranks.
    comm: &'a dyn Comm,
}

impl<'a> Share<'a> {
    /// One process: every ball its own.
    pub fn whole() -> Share<'static> {
        Share {
            ghost: &[],
            comm: &Solo,
        }
    }

    /// A rank's share: `ghost[i]` for each of its balls.
    pub fn new(ghost: &'a [bool], comm: &'a dyn Comm) -> Self {
        Share { ghost, comm }
    }

    /// Whether ball `i` is this rank's own (the terms of a ball, or of a contact by its first
    /// ball, are summed by its owner only).
    #[inline]
    pub fn own(&self, i: usize) -> bool {
        !self.ghost.get(i).copied().unwrap_or(false)
    }

    /// Whether this is the first rank, which sums the terms that belong to no ball (the
    /// clumps, a periodic cell's wrapped mass).
    pub fn root(&self) -> bool {
        self.comm.rank() == 0
    }

    /// Whether the model is cut over more than one rank (else a merge does nothing).
    pub fn several(&self) -> bool {
        self.comm.size() > 1
    }

    /// The largest of every rank's `x` (`x` itself on one rank).
    pub fn max(&self, x: crate::math::Real) -> crate::math::Real {
        if self.several() {
            self.comm.max(x)
        } else {
            x
        }
    }

    /// Merges every rank's `sums` into each, exactly ([`Comm::sum_exact`]; nothing to do on
    /// one rank).
    pub fn merge(&self, sums: &mut [ExactSum]) {
        if self.several() {
            self.comm.sum_exact(sums);
        }
    }
}
