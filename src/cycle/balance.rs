//! Load balance over ranks ([`Rank::balance`]): when the balls are shared unevenly (a pour
//! gathers them at the bottom), the cuts between the bricks move so that each slab along each
//! cut axis holds an even share of them, and the exchange of balls that follows takes each
//! one to its new owner. Who owns a ball changes no bit of the run (module `ranks`), so
//! neither does when or where the cuts move.

use super::ranks::Rank;
use crate::math::Real;
use crate::model::Model;

impl Rank<'_> {
    /// The most balls a rank owns over the mean (1: even; 0 without balls). Every rank calls
    /// it together.
    pub fn imbalance(&self) -> Real {
        let own = self.ghost.iter().filter(|&&g| !g).count();
        let total = self.comm.sum_count(own as u64);
        let most = self.comm.max(own as Real);
        if total == 0 {
            return 0.0;
        }
        most * self.size() as Real / total as Real
    }

    /// At a rebuild of the candidate pairs, before its exchange of balls (every rank
    /// together): when the imbalance exceeds [`Rank::rebalance`], moves each axis's inner cuts
    /// to the quantiles of every rank's own balls along it (a cut between the two balls that
    /// share it, half-way), and returns the imbalance before. Along a periodic axis the cuts
    /// stay.
    pub(super) fn balance(&mut self, model: &Model) -> Option<Real> {
        if self.size() == 1 {
            return None;
        }
        let before = self.imbalance();
        if before <= self.rebalance {
            return None;
        }
        let b = &model.balls;
        let own: Vec<usize> = (0..b.len()).filter(|&i| !self.ghost[i]).collect();
        for k in 0..3 {
            let n = self.bricks.count[k];
            if n < 2 || self.bricks.period[k].is_some() {
                continue;
            }
            let mine: Vec<u8> = own
                .iter()
                .flat_map(|&i| b.pos[i][k].to_le_bytes())
                .collect();
            let mut x: Vec<Real> = (self.comm.gather_all(mine).iter())
                .flat_map(|v| {
                    v.chunks_exact(8)
                        .map(|c| Real::from_le_bytes(c.try_into().unwrap_or([0; 8])))
                })
                .collect();
            if x.len() >= n {
                x.sort_unstable_by(Real::total_cmp);
                self.bricks.cuts[k] = quantile_cuts(&x, n);
            }
        }
        Some(before)
    }
}

/// The `n - 1` cuts that share the sorted values `x` out in `n` runs as even as can be: cut
/// `c` half-way between the values of ranks `m - 1` and `m`, `m = c len / n` (at least `n`
/// values: then `1 <= m < len`).
fn quantile_cuts(x: &[Real], n: usize) -> Vec<Real> {
    (1..n)
        .map(|c| {
            let m = c * x.len() / n;
            x[m - 1] + 0.5 * (x[m] - x[m - 1])
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::quantile_cuts;

    /// Ten values in three runs: 3, 3 and 4 below, between and above the cuts.
    #[test]
    fn cuts_share_the_values_out_evenly() {
        let x: Vec<f64> = (0..10).map(|i| (i * i) as f64).collect();
        let cuts = quantile_cuts(&x, 3);
        // (m = 3 and 6: half-way between 4 and 9, and between 25 and 36)
        assert_eq!(cuts, vec![6.5, 30.5]);
    }
}
