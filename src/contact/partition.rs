//! The split of the ball-ball contact list between threads for the frame-free force loop
//! ([`crate::contact::ball_ball::update_history_run`] with its scatter), such that every ball
//! still sums its contacts in list order: the same sums, bit for bit, for any number of
//! threads.
//!
//! The balls are cut into `T` ranges of consecutive indices, at contacts' first balls so that
//! each range holds about as many contacts (by first ball) as the others. The list is sorted
//! by pair `(a, b)`, so the contacts whose ball `a` lies in range `r` form one segment of it.
//! A contact is *internal* when `b` lies in the same range as `a`, *crossing* when `b` lies in
//! a later range. For a ball `i` of range `r`, list order puts first the crossing contacts
//! coming in from earlier ranges (`b = i`, `a` smaller than the range's first ball), then its
//! internal contacts, then the crossing contacts going out to later ranges (`a = i`, `b` beyond
//! the range's end). So thread `r` can sum, for its balls only and in one pass: the incoming
//! crossing contacts (computed again from copies of their records taken before the pass, so
//! that the thread of their ball `a` can update the records meanwhile: the same inputs, the
//! same bits), then its segment, run by run, each contact added to those of its balls that
//! lie in the range.

use super::Contact;

/// The split of a contact list into ranges of balls (module documentation).
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct Partition {
    /// For how many threads it was made (0: to be made).
    pub threads: usize,
    /// First ball of each range, and one past the last ball of the last (`threads + 1`).
    pub balls: Vec<usize>,
    /// First contact of each range's segment of the list, and the list's length.
    pub segments: Vec<usize>,
    /// The crossing contacts (indices into the list, in list order).
    pub crossing: Vec<u32>,
    /// First entry of `crossing` whose ball `a` lies in each range, and `crossing.len()`.
    pub crossing_of: Vec<usize>,
    /// The work counted for each range at the last build (its segment and the crossing
    /// contacts coming in).
    work: Vec<u64>,
    /// Seconds each range's thread spent in the force passes since the last build
    /// ([`Partition::record`]), and how many passes.
    busy: Vec<f64>,
    passes: u32,
    /// Each range's measured seconds per unit of counted work, smoothed over the builds (0
    /// until measured): what the count misses (the wall interactions, which the count leaves
    /// out; a part of the packing where contacts cost more) comes back through it.
    rate: Vec<f64>,
}

/// Force passes measured before a range's rate is updated (fewer are too noisy: one pass on
/// a virtual machine varies by 10 %).
const MIN_PASSES: u32 = 8;
/// Bounds of a range's share of the work relative to an equal share.
const SHARE_BOUNDS: (f64, f64) = (0.5, 1.5);

/// For each of the non-decreasing amounts of work `goals`, the first contact index `k` such
/// that the contacts before `k` cost at least that much (the list's length when none do):
/// one pass over the list, no array of prefix sums (8 bytes per contact saved).
fn at_work(
    list: &[Contact],
    cost: impl Fn(&Contact) -> u64,
    goals: impl Iterator<Item = u64>,
) -> Vec<usize> {
    let (mut k, mut sum) = (0, 0);
    goals
        .map(|w| {
            while sum < w && k < list.len() {
                sum += cost(&list[k]);
                k += 1;
            }
            k
        })
        .collect()
}

/// Work counted for an inactive contact (a distance test) when the list is split.
pub const IDLE_COST: u64 = 1;
/// Work counted for an active contact (geometry and force) when the list is split.
pub const ACTIVE_COST: u64 = 5;

impl Partition {
    /// Splits `list` (sorted by pair) over `balls` balls for `threads` threads, so that the
    /// ranges take about as long each (a range also computes again the crossing contacts
    /// coming in from earlier ranges). A contact's work is counted as `IDLE_COST` when it is
    /// inactive (a distance test) and `ACTIVE_COST` when active (a force), from its activity
    /// at the last cycle; with the same number of threads as before, each range's share of
    /// the work is then weighted by the inverse of its measured time per unit of work (see
    /// [`Partition::record`]), within `SHARE_BOUNDS`. The sums do not depend on where the
    /// cuts fall (module documentation), so neither do the results: only the balance does.
    /// O(contacts + threads log contacts).
    pub fn build(&mut self, list: &[Contact], balls: usize, threads: usize) {
        let threads = threads.max(1);
        self.update_rates(threads);
        self.threads = threads;
        let cost = |c: &Contact| if c.active { ACTIVE_COST } else { IDLE_COST };
        let total: u64 = list.iter().map(cost).sum();
        // first cut: equal shares of work; second: equal shares of work counting, for each
        // range, the crossing contacts coming in (about those the first cut found going out
        // of the range before it)
        let mut targets = at_work(
            list,
            cost,
            (0..=threads).map(|t| t as u64 * total / threads as u64),
        );
        targets[threads] = list.len();
        self.cut(list, balls, &targets);
        if threads > 1 {
            let crossing_work = |r: usize| -> u64 {
                self.crossing[self.crossing_of[r]..self.crossing_of[r + 1]]
                    .iter()
                    .map(|&k| cost(&list[k as usize]))
                    .sum()
            };
            let all: u64 = (0..threads).map(crossing_work).sum();
            let shares = self.shares(total + all, threads);
            // (ranges 0..t compute their segments and the crossing contacts coming into
            // ranges 1..t, about those going out of ranges 0..t-1)
            let (mut incoming, mut reached) = (0, 0);
            let mut goals = vec![0];
            for t in 1..threads {
                if t >= 2 {
                    incoming += crossing_work(t - 2);
                }
                reached += shares[t - 1];
                let previous = goals[t - 1];
                goals.push(reached.saturating_sub(incoming).max(previous));
            }
            let found = at_work(list, cost, goals.into_iter());
            targets[..threads].copy_from_slice(&found);
            self.cut(list, balls, &targets);
        }
        // the work each range got: its segment and the crossing contacts coming in
        self.work.clear();
        self.work.extend((0..threads).map(|r| {
            let segment = &list[self.segments[r]..self.segments[r + 1]];
            segment.iter().map(cost).sum::<u64>()
        }));
        for &k in &self.crossing {
            let r = self.range_of(list[k as usize].b as usize);
            self.work[r] += cost(&list[k as usize]);
        }
        self.busy.clear();
        self.busy.resize(threads, 0.0);
        self.passes = 0;
    }

    /// Adds one force pass's time per range (seconds, in range order), measured by the threads
    /// that ran them; ignored unless there is one per range.
    pub fn record(&mut self, seconds: impl ExactSizeIterator<Item = f64>) {
        if seconds.len() != self.busy.len() {
            return;
        }
        for (b, t) in self.busy.iter_mut().zip(seconds) {
            *b += t;
        }
        self.passes += 1;
    }

    /// Folds the time measured since the last build into each range's rate (half the old
    /// rate, half the new), when there are as many ranges as before and enough passes;
    /// forgets the rates when the number of threads changes.
    fn update_rates(&mut self, threads: usize) {
        if threads != self.work.len() {
            self.rate.clear();
            return;
        }
        if self.passes < MIN_PASSES {
            return;
        }
        self.rate.resize(threads, 0.0);
        for r in 0..threads {
            if self.work[r] == 0 {
                continue;
            }
            let measured = self.busy[r] / (self.passes as f64 * self.work[r] as f64);
            let old = self.rate[r];
            self.rate[r] = if old > 0.0 {
                0.5 * (old + measured)
            } else {
                measured
            };
        }
    }

    /// The work to give each range out of `total`: equal shares, weighted by the inverse of
    /// each range's rate when every range has one (so that the ranges take as long each),
    /// each within `SHARE_BOUNDS` of an equal share.
    fn shares(&self, total: u64, threads: usize) -> Vec<u64> {
        let equal = total as f64 / threads as f64;
        let measured = self.rate.len() == threads && self.rate.iter().all(|&r| r > 0.0);
        let weights: Vec<f64> = if measured {
            let speed: Vec<f64> = self.rate.iter().map(|r| 1.0 / r).collect();
            let mean = speed.iter().sum::<f64>() / threads as f64;
            (speed.iter())
                .map(|v| (v / mean).clamp(SHARE_BOUNDS.0, SHARE_BOUNDS.1))
                .collect()
        } else {
            vec![1.0; threads]
        };
        weights.iter().map(|w| (w * equal) as u64).collect()
    }

    /// Cuts the balls at the first balls of the contacts at `targets` (contact indices, first
    /// 0, last the list's length) and finds the segments and the crossing contacts.
    fn cut(&mut self, list: &[Contact], balls: usize, targets: &[usize]) {
        let threads = targets.len() - 1;
        self.balls.clear();
        self.balls.push(0);
        for &at in &targets[1..threads] {
            let cut = list.get(at).map_or(balls, |c| c.a as usize);
            let previous = *self.balls.last().unwrap_or(&0);
            self.balls.push(cut.max(previous));
        }
        self.balls.push(balls);
        self.segments.clear();
        self.segments.extend(
            self.balls
                .iter()
                .map(|&i| list.partition_point(|c| (c.a as usize) < i)),
        );
        self.crossing.clear();
        self.crossing_of.clear();
        for r in 0..threads {
            self.crossing_of.push(self.crossing.len());
            let end = self.balls[r + 1];
            let segment = self.segments[r]..self.segments[r + 1];
            self.crossing.extend(
                segment
                    .filter(|&k| list[k].b as usize >= end)
                    .map(|k| k as u32),
            );
        }
        self.crossing_of.push(self.crossing.len());
    }

    /// The range of balls `r`.
    #[inline]
    pub fn range(&self, r: usize) -> std::ops::Range<usize> {
        self.balls[r]..self.balls[r + 1]
    }

    /// The range that holds ball `i` (the last of several empty ranges at the same ball).
    #[inline]
    pub fn range_of(&self, i: usize) -> usize {
        self.balls.partition_point(|&first| first <= i) - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `at_work` finds what a binary search in the prefix sums of the work finds (the first
    /// index whose prefix reaches the goal, at most the length), for random activity
    /// patterns and sorted goals, including goals of zero and beyond the total.
    #[test]
    fn at_work_agrees_with_a_search_in_the_prefix_sums() {
        let mut rng = crate::rng::SplitMix64::new(3);
        let cost = |c: &Contact| if c.active { ACTIVE_COST } else { IDLE_COST };
        for n in 0..60 {
            let list: Vec<Contact> = (0..n)
                .map(|k| {
                    let mut c = Contact::new(k, k + 1, 0);
                    c.active = rng.next_unit() < 0.6;
                    c
                })
                .collect();
            let mut prefix = vec![0u64];
            for c in &list {
                prefix.push(prefix.last().unwrap() + cost(c));
            }
            let total = *prefix.last().unwrap();
            let mut goals: Vec<u64> = (0..6)
                .map(|_| rng.next_u64() % (total + 3))
                .chain([0, total, total + 1])
                .collect();
            goals.sort_unstable();
            let expected: Vec<usize> = goals
                .iter()
                .map(|&w| prefix.partition_point(|&x| x < w).min(list.len()))
                .collect();
            assert_eq!(
                at_work(&list, cost, goals.iter().copied()),
                expected,
                "{goals:?}"
            );
        }
    }

    /// A range measured twice as slow per unit of work as the other gets a third of the work
    /// at the next build (equal times: `2 w_0 = w_1`, `w_0 + w_1 = W`, so `w_0 = W / 3`);
    /// times for another number of ranges, or fewer than `MIN_PASSES` passes, change nothing.
    #[test]
    fn measured_rates_move_the_cut_toward_equal_times() {
        // a chain of 600 balls, every contact active: the work is even along the balls
        let list: Vec<Contact> = (0..599)
            .map(|k| {
                let mut c = Contact::new(k, k + 1, 0);
                c.active = true;
                c
            })
            .collect();
        let mut p = Partition::default();
        p.build(&list, 600, 2);
        let even = p.balls[1];
        assert!((290..=310).contains(&even), "{even}");
        // too few passes, and a pass with three ranges: no change
        for _ in 0..MIN_PASSES - 1 {
            p.record([2.0, 1.0].into_iter());
        }
        p.record([2.0, 1.0, 1.0].into_iter());
        p.build(&list, 600, 2);
        assert_eq!(p.balls[1], even);
        for _ in 0..MIN_PASSES {
            p.record([2.0 * p.work[0] as f64, p.work[1] as f64].into_iter());
        }
        p.build(&list, 600, 2);
        let third = p.balls[1];
        assert!((190..=210).contains(&third), "{third}");
        // balanced times keep the cut (rates averaged with the old ones: no swing back)
        for _ in 0..MIN_PASSES {
            p.record([2.0 * p.work[0] as f64, p.work[1] as f64].into_iter());
        }
        p.build(&list, 600, 2);
        assert!((190..=210).contains(&p.balls[1]), "{}", p.balls[1]);
    }

    /// Every contact is in exactly one segment (that of its ball `a`), is crossing exactly
    /// when `b` lies beyond its range, and the ranges tile the balls; checked against a
    /// direct classification for several thread counts.
    #[test]
    fn the_split_covers_every_contact_once_and_finds_the_crossing_ones() {
        let pairs = [
            (0, 1),
            (0, 7),
            (1, 2),
            (2, 3),
            (2, 9),
            (3, 4),
            (4, 5),
            (5, 6),
            (5, 8),
            (6, 7),
            (7, 8),
            (8, 9),
        ];
        let list: Vec<Contact> = pairs.iter().map(|&(a, b)| Contact::new(a, b, 0)).collect();
        for threads in 1..=5 {
            let mut p = Partition::default();
            p.build(&list, 10, threads);
            assert_eq!(p.balls.len(), threads + 1);
            assert_eq!((p.balls[0], p.balls[threads]), (0, 10));
            assert!(p.balls.windows(2).all(|w| w[0] <= w[1]));
            let range_of = |i: u32| (0..threads).find(|&r| p.range(r).contains(&(i as usize)));
            let mut crossing = vec![];
            for (k, c) in list.iter().enumerate() {
                let r = range_of(c.a).unwrap();
                assert!(p.segments[r] <= k && k < p.segments[r + 1], "{threads} {k}");
                if range_of(c.b) != Some(r) {
                    crossing.push(k as u32);
                }
            }
            assert_eq!(p.crossing, crossing, "{threads} threads");
            assert_eq!(p.segments[threads], list.len());
            assert_eq!(p.crossing_of[threads], crossing.len());
        }
    }
}
