//! What a rank asks of the others ([`Comm`]), and one rank alone ([`Solo`]).

use crate::math::{ExactSum, Real};

/// What a rank asks of the others. Every rank calls the collectives in the same order. A
/// handle may be shared between threads (`Sync`: a run held by the Python module moves from
/// thread to thread), but one rank's collectives are called by one thread at a time.
pub trait Comm: Sync {
    /// This rank's number, `0..size()`.
    fn rank(&self) -> usize;
    /// The number of ranks.
    fn size(&self) -> usize;
    /// Sends `out[r]` to rank `r` (one buffer per rank, this one's included) and returns what
    /// each rank sent to this one, by rank.
    fn exchange(&self, out: Vec<Vec<u8>>) -> Vec<Vec<u8>>;

    /// Every rank's `bytes`, by rank.
    fn gather_all(&self, bytes: Vec<u8>) -> Vec<Vec<u8>> {
        self.exchange(vec![bytes; self.size()])
    }

    /// The largest of the ranks' `x` (NaN if any is NaN).
    fn max(&self, x: Real) -> Real {
        fold_reals(self.gather_all(x.to_le_bytes().to_vec()), x, |a, b| {
            if a.is_nan() || b.is_nan() {
                Real::NAN
            } else {
                a.max(b)
            }
        })
    }

    /// The smallest of the ranks' `x` (NaN if any is NaN).
    fn min(&self, x: Real) -> Real {
        -self.max(-x)
    }

    /// True when any rank's `b` is.
    fn any(&self, b: bool) -> bool {
        self.gather_all(vec![b as u8]).iter().any(|v| v[0] != 0)
    }

    /// The sum of the ranks' counts.
    fn sum_count(&self, n: u64) -> u64 {
        let all = self.gather_all(n.to_le_bytes().to_vec());
        all.iter()
            .map(|v| u64::from_le_bytes(v[..8].try_into().unwrap_or([0; 8])))
            .sum()
    }

    /// Merges every rank's sums into each, element by element (exactly: the same bits on every
    /// rank and for any number of ranks).
    fn sum_exact(&self, sums: &mut [ExactSum]) {
        let mine: Vec<u8> = sums.iter().flat_map(|s| s.to_bytes()).collect();
        let all = self.gather_all(mine);
        for s in sums.iter_mut() {
            *s = ExactSum::new();
        }
        for bytes in &all {
            for (s, chunk) in sums.iter_mut().zip(bytes.chunks(ExactSum::BYTES)) {
                s.merge(&ExactSum::from_bytes(chunk));
            }
        }
    }
}

impl std::fmt::Debug for dyn Comm + '_ {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "rank {} of {}", self.rank(), self.size())
    }
}

/// Folds every rank's `f64` (8 little-endian bytes each) with `f`, starting from `first`.
fn fold_reals(all: Vec<Vec<u8>>, first: Real, f: impl Fn(Real, Real) -> Real) -> Real {
    all.iter()
        .map(|v| Real::from_le_bytes(v[..8].try_into().unwrap_or([0; 8])))
        .fold(first, f)
}

/// One rank alone: every collective returns this rank's own value.
#[derive(Clone, Copy, Debug, Default)]
pub struct Solo;

impl Comm for Solo {
    fn rank(&self) -> usize {
        0
    }

    fn size(&self) -> usize {
        1
    }

    fn exchange(&self, out: Vec<Vec<u8>>) -> Vec<Vec<u8>> {
        out
    }
}
