//! Spatial renumbering of the balls (`[run] sort_every`, docs/CASES.md): the balls are put in the
//! order of their cells of one ball diameter, so that the two balls of a contact sit close
//! together in every per-ball array and the force loop finds them in cache. Two orders
//! (`[run] sort_order`, [`SortOrder`]): rows of cells (the default), or Morton's Z curve. The
//! identifiers (`Balls::id`) move with the balls; contacts and ball-facet contacts are
//! renumbered with them, keeping their state.
//!
//! What decides the speed is how long ago a contact's second ball was last touched when the
//! force loop reaches it (the loop goes through the balls in index order): within the last
//! megabyte or so of data, it is still in the core's cache. In rows of cells, a ball's
//! neighbours lie at most one row of the two faster axes away: with the axis of most cells
//! slowest, that is at most `n_mid n_fast` cells (for the 50,000-ball settle-box, 71 x 6
//! cells, about 430 balls). The Z curve keeps most neighbours closer, but a neighbour across
//! the boundary of a large block of the curve lies up to half the scene away, which is why
//! rows are the default (the report's Performance page has the measurements).
//!
//! Only the order of the sums changes (each ball sums its contacts in list order, and the
//! list order follows the numbering), so a sorted run differs from an unsorted one by
//! round-off, and is the same for any number of threads.

use crate::body::Balls;
use crate::math::{Real, Vec3};

impl Balls {
    /// Reorders every per-ball array: the ball at index `order[i]` moves to index `i`. In
    /// place, cycle by cycle of the permutation: no second copy of an array, so that sorting
    /// every thousand cycles neither raises the peak memory nor leaves freed blocks behind.
    pub(crate) fn permute(&mut self, order: &[u32], done: &mut Vec<bool>) {
        done.resize(order.len(), false);
        crate::body::for_each_array!(self, |v| permute_in_place(v, order, &mut done[..]));
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

/// Makes the spatial order `order` (old ball indices, every ball once) keep each clump whole:
/// a clump's pebbles, consecutive balls `first[c]..first[c] + count[c]`, go together in their
/// own order where the first of them comes in `order`; free balls (`clump[k]` is
/// [`crate::body::NO_CLUMP`]) stay where they are. `spare` (overwritten) receives the new
/// order, then the two vectors trade places; `placed` (overwritten) marks the clumps placed,
/// by their first pebble.
pub(crate) fn keep_clumps_whole(
    order: &mut Vec<u32>,
    (clump, first, count): (&[u32], &[u32], &[u32]),
    spare: &mut Vec<u32>,
    placed: &mut Vec<bool>,
) {
    spare.clear();
    placed.clear();
    placed.resize(order.len(), false);
    for &k in order.iter() {
        let c = clump[k as usize];
        if c == crate::body::NO_CLUMP {
            spare.push(k);
            continue;
        }
        let f = first[c as usize];
        if !std::mem::replace(&mut placed[f as usize], true) {
            spare.extend(f..f + count[c as usize]);
        }
    }
    debug_assert_eq!(spare.len(), order.len());
    std::mem::swap(order, spare);
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

/// The work arrays of a renumbering (`Model::sort_balls`), kept between renumberings.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct Scratch {
    /// The balls in their new order (old indices).
    pub(crate) order: Vec<u32>,
    /// The new index of each old one.
    pub(crate) new_of: Vec<u32>,
    /// Which entries a permutation in place has placed.
    pub(crate) done: Vec<bool>,
}

impl Scratch {
    /// Room for `n` balls in every work array.
    pub(crate) fn make_room(&mut self, n: usize) {
        crate::storage::room(&mut self.order, n);
        crate::storage::room(&mut self.new_of, n);
        crate::storage::room(&mut self.done, n);
    }
}

/// The order the balls are renumbered in (`[run] sort_order`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum SortOrder {
    /// Rows of cells (`"rows"`, the default): by cell, the axis with the most cells slowest
    /// and the one with the fewest fastest (ties: x before y before z). LAMMPS sorts its atoms
    /// by bins in rows too, with z always slowest.
    #[default]
    Rows,
    /// Morton's Z curve over the cells (`"morton"`): the bits of the three cell indices
    /// interleaved, z highest.
    Morton,
}

impl SortOrder {
    /// The order named `name` in a case file, if any.
    pub fn parse(name: &str) -> Option<Self> {
        match name {
            "rows" => Some(Self::Rows),
            "morton" => Some(Self::Morton),
            _ => None,
        }
    }
}

/// The order of the balls into `order` (`order[i]` is the ball that goes to index `i`): by
/// cell of one largest diameter from the balls' lowest corner, the cells in the order
/// `how` (ties, i.e. balls of one cell, in the order of their ids: the order then depends on
/// nothing but the balls, not on their present numbering); `order` is overwritten.
/// The indices are sorted by (key, id) with the key computed at each comparison: no array
/// of keys (16 bytes per ball with their indices), for about 15 key computations per ball
/// every thousand cycles.
pub(crate) fn spatial_order(balls: &Balls, how: SortOrder, order: &mut Vec<u32>) {
    let grid = SortGrid::of(balls);
    let n = balls.len();
    let key = |i: u32| (grid.key(&balls.pos[i as usize], how), balls.id[i as usize]);
    order.clear();
    order.extend(0..n as u32);
    order.sort_unstable_by_key(|&i| key(i));
}

/// The cells of [`spatial_order`]: cubes of one largest diameter counted from the balls'
/// lowest corner, and the cell of their highest corner (which sets the axes of rows).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct SortGrid {
    /// The balls' lowest corner, m.
    pub lo: Vec3,
    /// The balls' highest corner, m.
    pub hi: Vec3,
    /// The largest radius, m.
    pub r_max: Real,
}

impl SortGrid {
    /// The grid of `balls` (the extent of every ball, the largest radius).
    pub fn of(balls: &Balls) -> SortGrid {
        let (lo, hi) = crate::math::extent(&balls.pos);
        let r_max = balls.radius.iter().fold(0.0, |m: Real, &r| m.max(r));
        SortGrid { lo, hi, r_max }
    }

    /// The cell of position `p`, counted from the lowest corner.
    fn cell(&self, p: &Vec3) -> [u64; 3] {
        let cell = 2.0 * self.r_max;
        let limit = ((1u64 << 21) - 1) as Real;
        // (a NaN coordinate goes to cell 0: the blow-up check names it)
        let q = |x: Real, lo: Real| ((x - lo) / cell).floor().clamp(0.0, limit) as u64;
        [q(p.x, self.lo.x), q(p.y, self.lo.y), q(p.z, self.lo.z)]
    }

    /// The key of position `p`'s cell in the order `how` (ties go by id).
    pub fn key(&self, p: &Vec3, how: SortOrder) -> u64 {
        let c = self.cell(p);
        match how {
            SortOrder::Rows => row_key(c, row_axes(self.cell(&self.hi))),
            SortOrder::Morton => morton(c[0], c[1], c[2]),
        }
    }
}

/// The axes from slowest to fastest for rows of cells whose last cell is `last` (the
/// indices of the highest corner's cell): most cells first, ties in the order x, y, z.
fn row_axes(last: [u64; 3]) -> [usize; 3] {
    let mut axes = [0, 1, 2];
    // (stable: equal extents keep x before y before z)
    axes.sort_by_key(|&k| std::cmp::Reverse(last[k]));
    axes
}

/// The key of cell `c` in rows: its index along `axes[0]` in the highest bits, then
/// `axes[1]`, then `axes[2]` (21 bits each).
fn row_key(c: [u64; 3], axes: [usize; 3]) -> u64 {
    c[axes[0]] << 42 | c[axes[1]] << 21 | c[axes[2]]
}

#[cfg(test)]
mod tests {
    use super::{morton, permute_in_place, spatial_order, SortOrder};
    use crate::body::{BallSpec, Balls};
    use crate::rng::SplitMix64;

    /// Balls of radius 0.5 (cells of 1) at the centres of an `n[0] x n[1] x n[2]` block of
    /// cells, each but the corner cell's moved by up to +0.4 in each coordinate, listed in a
    /// random order; returns them and the cell of each. (The corner ball then is the balls'
    /// lowest corner, and each ball lies in its cell counted from there.)
    fn shuffled_block(n: [u64; 3], seed: u64) -> (Balls, Vec<[u64; 3]>) {
        let mut rng = SplitMix64::new(seed);
        let mut cells: Vec<[u64; 3]> = (0..n[0])
            .flat_map(|i| (0..n[1]).flat_map(move |j| (0..n[2]).map(move |k| [i, j, k])))
            .collect();
        for i in (1..cells.len()).rev() {
            let j = (rng.next_u64() % (i as u64 + 1)) as usize;
            cells.swap(i, j);
        }
        let mut balls = Balls::default();
        for (id, c) in cells.iter().enumerate() {
            let mut jitter = || 0.4 * ((rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64);
            let p = c.map(|k| k as f64 + 0.5);
            let p = if c.iter().all(|&k| k == 0) {
                p
            } else {
                [p[0] + jitter(), p[1] + jitter(), p[2] + jitter()]
            };
            balls.push(&BallSpec::at_rest(id as u64, p, 0.5, 0), 1000.0);
        }
        (balls, cells)
    }

    /// Rows of cells, derived by hand: with one ball per cell of an `a x b x c` block whose
    /// axes, from most cells to fewest, are `s`, `m`, `f`, the ball of cell `(c_s, c_m, c_f)`
    /// goes to index `(c_s n_m + c_m) n_f + c_f`; so face neighbours lie at most `n_m n_f`
    /// apart. The Z curve's largest gap on the same blocks is several times that (the reason
    /// rows are the default).
    #[test]
    fn rows_put_each_cell_at_its_row_major_index() {
        // (x most cells; then z most; then a tie of x and y, which x wins)
        for (n, axes) in [
            ([12, 7, 3], [0, 1, 2]),
            ([3, 5, 9], [2, 1, 0]),
            ([6, 6, 2], [0, 1, 2]),
        ] {
            let (balls, cells) = shuffled_block(n, 5);
            let mut order = Vec::new();
            spatial_order(&balls, SortOrder::Rows, &mut order);
            let [s, m, f] = axes;
            let index = |c: [u64; 3]| ((c[s] * n[m] + c[m]) * n[f] + c[f]) as usize;
            for (i, &k) in order.iter().enumerate() {
                assert_eq!(
                    index(cells[k as usize]),
                    i,
                    "block {n:?}, cell {:?}",
                    cells[k as usize]
                );
            }
            // the largest index gap between face neighbours, for an order
            let gap = |order: &[u32]| {
                let mut at = vec![0usize; order.len()];
                for (i, &k) in order.iter().enumerate() {
                    at[index(cells[k as usize])] = i;
                }
                let mut widest = 0;
                for c in &cells {
                    for axis in 0..3 {
                        let mut d = *c;
                        d[axis] += 1;
                        if d[axis] < n[axis] {
                            widest = widest.max(at[index(*c)].abs_diff(at[index(d)]));
                        }
                    }
                }
                widest
            };
            assert_eq!(gap(&order), (n[m] * n[f]) as usize, "block {n:?}");
            let mut z = Vec::new();
            spatial_order(&balls, SortOrder::Morton, &mut z);
            assert!(
                gap(&z) > 2 * gap(&order),
                "block {n:?}: Z curve gap {} against {} in rows",
                gap(&z),
                gap(&order)
            );
        }
    }

    /// The order depends on the balls, not on their present numbering: the same balls, many
    /// to a cell, listed in two different orders, come out as the same sequence of ids (balls
    /// of one cell by id). What lets a rank, holding some of the balls in any order, put them
    /// in the order a single process does.
    #[test]
    fn the_order_does_not_depend_on_the_numbering() {
        let mut rng = SplitMix64::new(3);
        let mut unit = || (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        // 400 balls of radius 0.5 in a 4 x 3 x 2 box: about 17 to a cell of 1
        let specs: Vec<BallSpec> = (0..400)
            .map(|id| BallSpec::at_rest(id, [4.0 * unit(), 3.0 * unit(), 2.0 * unit()], 0.5, 0))
            .collect();
        for how in [SortOrder::Rows, SortOrder::Morton] {
            let ids = |reversed: bool| {
                let mut balls = Balls::default();
                let mut list: Vec<&BallSpec> = specs.iter().collect();
                if reversed {
                    list.reverse();
                }
                list.iter().for_each(|s| {
                    balls.push(s, 1000.0);
                });
                let mut order = Vec::new();
                spatial_order(&balls, how, &mut order);
                order
                    .iter()
                    .map(|&k| balls.id[k as usize])
                    .collect::<Vec<u64>>()
            };
            assert_eq!(ids(false), ids(true), "{how:?}");
        }
    }

    /// The Z curve over the same blocks: the ball of cell `c` goes to the rank of
    /// `morton(c)` among the block's keys (ranks counted here by sorting the cells' keys).
    #[test]
    fn morton_order_follows_the_interleaved_keys() {
        let n = [5, 4, 3];
        let (balls, cells) = shuffled_block(n, 9);
        let mut keys: Vec<u64> = cells.iter().map(|c| morton(c[0], c[1], c[2])).collect();
        keys.sort_unstable();
        let mut order = Vec::new();
        spatial_order(&balls, SortOrder::Morton, &mut order);
        for (i, &k) in order.iter().enumerate() {
            let c = cells[k as usize];
            assert_eq!(keys[i], morton(c[0], c[1], c[2]), "index {i}, cell {c:?}");
        }
    }

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
