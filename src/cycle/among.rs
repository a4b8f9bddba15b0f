//! The timestep chosen over ranks ([`Among`] for a [`Rank`]): each rank makes its per-ball
//! choices (the critical estimate, the kinematic constraint, the one-contact estimate, the
//! smallest ball of each material) over the balls it owns, whose sums are whole on it; then
//! the least of every rank's is the choice of one process. One process takes the first of
//! equal values in its order of the balls, which is the order of their keys and then ids
//! ([`Rank::key`]): the ranks break ties the same way, and name the ball by its index in that
//! order (the number of balls, over every rank, that come before it).

use super::ranks::Rank;
use crate::math::Real;
use crate::timestep::{Among, Pick};

/// A pick as a rank sends it: the value's bits, the ball's key and id, its DOF and radius's
/// bits.
type Sent = Option<(u64, u64, u64, u8, u64)>;

impl Among for Rank<'_> {
    fn own(&self, i: usize) -> bool {
        !self.ghost[i]
    }

    fn least(&self, picks: &[Option<Pick>], ids: &[u64]) -> Vec<Option<Pick>> {
        let mine: Vec<Sent> = (picks.iter())
            .map(|p| {
                p.map(|p| {
                    let (value, radius) = (p.value.to_bits(), p.radius.to_bits());
                    (value, self.key[p.ball], ids[p.ball], p.dof, radius)
                })
            })
            .collect();
        let bytes = bincode::serialize(&mine).expect("picks serialize");
        let all: Vec<Vec<Sent>> = (self.comm.gather_all(bytes).iter())
            .map(|b| bincode::deserialize(b).expect("a rank's picks"))
            .collect();
        // (slot by slot: the least value, then the least key and id; a NaN never wins, as in
        // one process's `t < best`)
        let before = |a: &(u64, u64, u64, u8, u64), b: &(u64, u64, u64, u8, u64)| {
            let (x, y) = (Real::from_bits(a.0), Real::from_bits(b.0));
            x < y || (x == y && (a.1, a.2) < (b.1, b.2))
        };
        let least: Vec<Sent> = (0..picks.len())
            .map(|s| {
                let mut best: Sent = None;
                for p in all.iter().filter_map(|r| r[s]) {
                    let nan = Real::from_bits(p.0).is_nan();
                    if !nan && best.is_none_or(|b| before(&p, &b)) {
                        best = Some(p);
                    }
                }
                best
            })
            .collect();
        // (each winner's index in one process: the balls before it, counted over the ranks)
        let before: Vec<u64> = (least.iter())
            .map(|w| {
                w.map_or(0, |(_, key, id, _, _)| {
                    let own = (0..ids.len()).filter(|&i| self.own(i));
                    own.filter(|&i| (self.key[i], ids[i]) < (key, id)).count() as u64
                })
            })
            .collect();
        let index = self.total(&before);
        (least.iter().zip(index))
            .map(|(w, ball)| {
                w.map(|(value, _, _, dof, radius)| Pick {
                    value: Real::from_bits(value),
                    ball: ball as usize,
                    dof,
                    radius: Real::from_bits(radius),
                })
            })
            .collect()
    }

    fn total(&self, counts: &[u64]) -> Vec<u64> {
        let bytes = bincode::serialize(counts).expect("counts serialize");
        let all = self.comm.gather_all(bytes);
        let mut sum = vec![0u64; counts.len()];
        for b in &all {
            let theirs: Vec<u64> = bincode::deserialize(b).expect("a rank's counts");
            for (s, t) in sum.iter_mut().zip(theirs) {
                *s += t;
            }
        }
        sum
    }
}
