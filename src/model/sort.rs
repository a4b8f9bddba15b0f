//! Spatial renumbering of the balls (`[run] sort_every`, SPEC): the balls are put in the
//! order of a space-filling curve (Morton's Z order over cells of one ball diameter), so
//! that the two balls of a contact sit close together in every per-ball array and the force
//! loop finds them in cache. The identifiers (`Balls::id`) move with the balls; contacts and
//! ball-facet contacts are renumbered with them, keeping their state.
//!
//! Only the order of the sums changes (each ball sums its contacts in list order, and the
//! list order follows the numbering), so a sorted run differs from an unsorted one by
//! round-off, and is the same for any number of threads.

use super::{Balls, Model};
use crate::math::Real;

impl Balls {
    /// Reorders every per-ball array: the ball at index `order[i]` moves to index `i`. In
    /// place, cycle by cycle of the permutation: no second copy of an array, so that sorting
    /// every thousand cycles neither raises the peak memory nor leaves freed blocks behind.
    pub(crate) fn permute(&mut self, order: &[u32], done: &mut Vec<bool>) {
        done.resize(order.len(), false);
        super::balls::for_each_array!(self, |v| permute_in_place(v, order, &mut done[..]));
    }
}

/// Reorders `v` in place so that the element at index `order[i]` moves to index `i` (`order`
/// a permutation of the indices; `done` as long, its contents overwritten). Each cycle
/// `i -> order[i] -> ...` is closed by swaps: after the swap at `j`, `v[j]` holds its new
/// element and the cycle's first element waits at `order[j]`, until the cycle comes back to
/// `i` and that element is where it belongs.
fn permute_in_place<T>(v: &mut [T], order: &[u32], done: &mut [bool]) {
    debug_assert_eq!(v.len(), order.len());
    done.fill(false);
    for i in 0..v.len() {
        if done[i] {
            continue;
        }
        let mut j = i;
        loop {
            done[j] = true;
            let k = order[j] as usize;
            if k == i {
                break;
            }
            v.swap(j, k);
            j = k;
        }
    }
}

/// Spreads the low 21 bits of `x` to every third bit (bit `k` goes to bit `3 k`).
fn spread(x: u64) -> u64 {
    let mut x = x & 0x1f_ffff;
    x = (x | x << 32) & 0x001f_0000_0000_ffff;
    x = (x | x << 16) & 0x001f_0000_ff00_00ff;
    x = (x | x << 8) & 0x100f_00f0_0f00_f00f;
    x = (x | x << 4) & 0x10c3_0c30_c30c_30c3;
    x = (x | x << 2) & 0x1249_2492_4924_9249;
    x
}

/// Morton key of cell `(i, j, k)` (21 bits each): bits of x, y, z interleaved, z highest.
pub fn morton(i: u64, j: u64, k: u64) -> u64 {
    spread(i) | spread(j) << 1 | spread(k) << 2
}

/// The work arrays of a renumbering ([`Model::sort_balls`]), kept between renumberings.
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    order: Vec<u32>,
    new_of: Vec<u32>,
    done: Vec<bool>,
}

impl Scratch {
    /// Room for `n` balls in every work array.
    pub(crate) fn make_room(&mut self, n: usize) {
        crate::contact::room(&mut self.order, n);
        crate::contact::room(&mut self.new_of, n);
        crate::contact::room(&mut self.done, n);
    }
}

/// The order of the balls along the Z curve into `order`: `order[i]` is the ball that goes
/// to index `i` (cells of one largest diameter from the balls' lowest corner; ties, i.e.
/// balls of one cell, keep their present order); `order` is overwritten. The indices are
/// sorted by (key, index) with the key computed at each comparison: no array of keys (16
/// bytes per ball with their indices), for about 15 key computations per ball every thousand
/// cycles.
fn z_order(balls: &Balls, order: &mut Vec<u32>) {
    let n = balls.len();
    let r_max = balls.radius.iter().fold(0.0, |m: Real, &r| m.max(r));
    let lo = balls
        .pos
        .iter()
        .fold(crate::math::Vec3::repeat(Real::INFINITY), |m, p| m.inf(p));
    let cell = 2.0 * r_max;
    let limit = ((1u64 << 21) - 1) as Real;
    // (a NaN coordinate goes to cell 0: the blow-up check names it)
    let q = |x: Real, lo: Real| ((x - lo) / cell).floor().clamp(0.0, limit) as u64;
    let key = |i: u32| {
        let p = &balls.pos[i as usize];
        (morton(q(p.x, lo.x), q(p.y, lo.y), q(p.z, lo.z)), i)
    };
    order.clear();
    order.extend(0..n as u32);
    order.sort_unstable_by_key(|&i| key(i));
}

impl Model {
    /// True when the balls may be renumbered: 3D, no clump (pebbles keep their clump's
    /// numbering), every contact model frame-free (a frame-based contact's local frame would
    /// have to be turned over when its two balls swap roles).
    pub fn can_sort_balls(&self) -> bool {
        !self.planar && self.clumps.is_empty() && self.laws.iter().all(|l| l.frame_free())
    }

    /// Puts the balls in Z order ([`z_order`]) and renumbers the contacts with them (see the
    /// module documentation). The caller rebuilds the broad phase next.
    pub(crate) fn sort_balls(&mut self) {
        debug_assert!(self.can_sort_balls());
        let Scratch {
            order,
            new_of,
            done,
        } = &mut self.sort_scratch;
        z_order(&self.balls, order);
        new_of.clear();
        new_of.resize(order.len(), 0);
        for (i, &k) in order.iter().enumerate() {
            new_of[k as usize] = i as u32;
        }
        self.balls.permute(order, done);
        self.contacts.renumber(new_of);
        self.facet_contacts.renumber(new_of);
    }
}

#[cfg(test)]
mod tests {
    use super::{morton, permute_in_place};
    use crate::case::generate::SplitMix64;

    /// The in-place permutation gives what a second array built from the definition gives
    /// (`new[i] = old[order[i]]`), for random permutations of many lengths (fixed points,
    /// long cycles, the identity and a reversal included).
    #[test]
    fn the_in_place_permutation_equals_the_definition() {
        let mut rng = SplitMix64::new(11);
        for n in (0..40).chain([97, 256, 1000]) {
            let mut orders: Vec<Vec<u32>> = vec![(0..n).collect(), (0..n).rev().collect()];
            for _ in 0..5 {
                // Fisher-Yates
                let mut o: Vec<u32> = (0..n).collect();
                for i in (1..o.len()).rev() {
                    let j = (rng.next_u64() % (i as u64 + 1)) as usize;
                    o.swap(i, j);
                }
                orders.push(o);
            }
            for order in orders {
                let old: Vec<u64> = (0..n as u64).map(|i| 1000 + 7 * i).collect();
                let expected: Vec<u64> = order.iter().map(|&k| old[k as usize]).collect();
                let mut v = old.clone();
                let mut done = vec![true; n as usize];
                permute_in_place(&mut v, &order, &mut done[..]);
                assert_eq!(v, expected, "order {order:?}");
            }
        }
    }

    #[test]
    fn morton_interleaves_the_bits() {
        // x = 0b11, y = 0b01, z = 0b10: bits z1 y1 x1 z0 y0 x0 = 1 0 1 0 1 1
        assert_eq!(morton(0b11, 0b01, 0b10), 0b101011);
        // the highest of the 21 bits of z is bit 62
        assert_eq!(morton(0, 0, 1 << 20), 1 << 62);
        assert_eq!(morton((1 << 21) - 1, 0, 0), 0x1249_2492_4924_9249);
    }
}
