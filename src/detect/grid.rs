//! Broad phase: which pairs of pieces have overlapping extents, in O(N).
//!
//! A piece's *extent* is its axis-aligned box enlarged by the margin on every side. Pieces are
//! sorted into a uniform grid of cubic cells (counting sort, no hashing); each cell is compared
//! with itself and its 13 forward neighbours, so every unordered pair of cells is visited once.
//! The candidate list is rebuilt only when some piece has moved more than the margin since the
//! last build (checked every cycle, after the law of motion): two pieces that were not
//! candidates had a gap of more than two margins between them; each has moved at most one
//! margin since, so the gap has not closed and neither can touch the other. This is the
//! neighbour-list rule of LAMMPS and LIGGGHTS (skin `2 margin`, rebuilt once a piece has moved
//! half the skin). The physics does not depend on the margin: only inactive candidates come
//! and go (the settle-box scene ends with the same bits for a margin of 0.1 and 0.2 mm).
//!
//! In a periodic cell that deforms (Lees-Edwards shear, pressure control) the displacement is
//! measured relative to the cell's own affine motion, and the margin a ball may use shrinks a
//! little as the cell deforms (`rebuild.rs`, [`BroadPhase::tolerance`], derives the bound): a
//! sheared cell then rebuilds about as often as a still one, where the lab-frame rule counted
//! the flow itself (up to `rate L / 2` at the gradient faces) as displacement.

use crate::geom::Cell;
use crate::math::{Real, Vec3};

/// Cells per piece at most; a sparse scene gets larger cells instead of a huge grid.
const MAX_CELLS_PER_PIECE: usize = 8;

/// The reusable buffers and the reference positions of the last build.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct BroadPhase {
    pub(super) ref_pos: Vec<Vec3>,
    /// In a deforming cell, each reference position's levers of the cell's affine motion
    /// ([`super::Affine::lever`], `BroadPhase::keep_levers`; empty otherwise).
    pub(super) levers: Vec<Vec3>,
    // (the work arrays of a build, and what it found, are not kept in a checkpoint: each
    // build makes them again before the merge reads them, and a run cut over ranks holds
    // its own, so that its checkpoints are the bytes of one process)
    #[serde(skip)]
    cell_of: Vec<u32>,
    #[serde(skip)]
    cell_start: Vec<u32>,
    #[serde(skip)]
    fill: Vec<u32>,
    #[serde(skip)]
    order: Vec<u32>,
    /// Candidate pairs of the last build, sorted, with a < b (not kept in a checkpoint).
    #[serde(skip)]
    pub pairs: Vec<(u32, u32)>,
    /// Candidate ball-facet contacts of the last build, sorted: (ball, wall, facet) (not
    /// kept in a checkpoint).
    #[serde(skip)]
    pub facet_pairs: Vec<(u32, u32, u32)>,
    /// Grid of the last build: lower corner, cell size along each axis, cells per axis.
    #[serde(skip)]
    grid: (Vec3, Vec3, [usize; 3]),
    /// Number of builds so far.
    pub builds: u64,
    /// Under Lees-Edwards shear, the cell's strain at the last build.
    pub strain_at_build: Real,
    /// In a periodic cell, its lengths at the last build (under pressure control they change:
    /// the images across a face move by the change).
    pub len_at_build: Vec3,
    /// Under Lees-Edwards shear, the cell's offset at the last build.
    pub offset_at_build: Real,
    /// The largest radius at the last build.
    pub largest_radius: Real,
    /// Scratch of [`sort_pairs`] (not kept in a checkpoint): the pairs by their first ball...
    #[serde(skip)]
    bucketed: Vec<(u32, u32)>,
    /// ... and where each ball's pairs end.
    #[serde(skip)]
    ends: Vec<u32>,
}

impl BroadPhase {
    /// Forgets the positions of the last build (balls were removed or added): the next test
    /// asks for a rebuild.
    pub fn invalidate(&mut self) {
        self.ref_pos.clear();
    }

    /// The balls' positions at the last build (empty before the first, or after
    /// [`BroadPhase::invalidate`]).
    pub fn reference_positions(&self) -> &[Vec3] {
        &self.ref_pos
    }

    /// Sets the positions of the last build (a model gathered from ranks,
    /// [`crate::cycle::Rank::gather`]) and their levers in a deforming `cell` (which depend
    /// on nothing the cell changes after the build: `BroadPhase::keep_levers`).
    pub fn set_reference_positions(&mut self, pos: Vec<Vec3>, cell: Option<&Cell>) {
        self.ref_pos = pos;
        self.keep_levers(cell);
    }

    /// Room for `n` balls in the per-ball arrays (see [`crate::storage::room`]).
    pub fn make_room(&mut self, n: usize, cell: Option<&Cell>) {
        crate::storage::room(&mut self.ref_pos, n);
        if cell.is_some_and(|c| c.shear.is_some() || c.pressure.is_some()) {
            crate::storage::room(&mut self.levers, n);
        }
        crate::storage::room(&mut self.cell_of, n);
        crate::storage::room(&mut self.order, n);
        crate::storage::room(&mut self.ends, n + 1);
        crate::storage::room(&mut self.bucketed, self.pairs.capacity());
    }

    /// Rebuilds the candidate pairs: every pair of spheres whose extents overlap (in a
    /// periodic `cell`, through the nearest image: the grid then spans the cell along its
    /// periodic axes, the positions inside it, and wraps). The positions become the reference
    /// of [`BroadPhase::needs_rebuild`], and the cell's strain, lengths and offset that of
    /// [`BroadPhase::tolerance`].
    pub fn build(&mut self, pos: &[Vec3], radius: &[Real], margin: Real, cell: Option<&Cell>) {
        self.builds += 1;
        self.strain_at_build = cell.map_or(0.0, |c| c.strain);
        self.len_at_build = cell.map_or(Vec3::zeros(), |c| c.len);
        self.offset_at_build = cell.map_or(0.0, |c| c.offset);
        self.ref_pos.clear();
        self.ref_pos.extend_from_slice(pos);
        // (the detection stage keeps their levers next, `BroadPhase::keep_levers`)
        self.levers.clear();
        self.pairs.clear();
        let n = pos.len();
        self.largest_radius = 0.0;
        if n == 0 {
            return;
        }
        let mut lo = Vec3::repeat(Real::INFINITY);
        let mut hi = Vec3::repeat(Real::NEG_INFINITY);
        let mut rmax: Real = 0.0;
        for (p, &r) in pos.iter().zip(radius) {
            lo = lo.inf(p);
            hi = hi.sup(p);
            rmax = rmax.max(r);
        }
        self.largest_radius = rmax;
        // A cell at least as wide as the widest extent: overlapping extents sit in the same or
        // adjacent cells.
        let mut h = 2.0 * (rmax + margin);
        let wraps = |k: usize| cell.is_some_and(|c| c.periodic[k]);
        if let Some(c) = cell {
            for k in (0..3).filter(|&k| wraps(k)) {
                lo[k] = c.min[k];
                hi[k] = c.min[k] + c.len[k];
            }
        }
        let span = hi - lo;
        // (along a periodic axis the cells divide the cell's length exactly, none narrower
        // than h)
        let dims = |h: Real| -> [usize; 3] {
            [0, 1, 2].map(|k| match wraps(k) {
                true => ((span[k] / h).floor() as usize).max(1),
                false => ((span[k] / h).floor() as usize).saturating_add(1),
            })
        };
        let mut nc = dims(h);
        let limit = MAX_CELLS_PER_PIECE * n;
        let total = |d: [usize; 3]| d[0].saturating_mul(d[1]).saturating_mul(d[2]);
        while total(nc) > limit {
            h *= (total(nc) as Real / limit as Real).cbrt().max(1.01);
            nc = dims(h);
        }
        let ncells = total(nc);
        let hk = Vec3::from([0, 1, 2].map(|k| match wraps(k) {
            true => span[k] / nc[k] as Real,
            false => h,
        }));
        self.grid = (lo, hk, nc);
        let inv_h = Vec3::from([0, 1, 2].map(|k| match wraps(k) {
            true => nc[k] as Real / span[k],
            false => 1.0 / h,
        }));
        let cell3 = |p: &Vec3| -> [usize; 3] {
            [0, 1, 2].map(|k| (((p[k] - lo[k]) * inv_h[k]) as usize).min(nc[k] - 1))
        };
        let index = |c: [usize; 3]| (c[2] * nc[1] + c[1]) * nc[0] + c[0];
        self.cell_of.clear();
        self.cell_of
            .extend(pos.iter().map(|p| index(cell3(p)) as u32));
        self.cell_start.clear();
        self.cell_start.resize(ncells + 1, 0);
        for &c in &self.cell_of {
            self.cell_start[c as usize + 1] += 1;
        }
        for k in 0..ncells {
            self.cell_start[k + 1] += self.cell_start[k];
        }
        self.order.clear();
        self.order.resize(n, 0);
        self.fill.clear();
        self.fill.extend_from_slice(&self.cell_start);
        for (i, &c) in self.cell_of.iter().enumerate() {
            self.order[self.fill[c as usize] as usize] = i as u32;
            self.fill[c as usize] += 1;
        }
        // The cell itself and its 13 forward neighbours.
        const FORWARD: [[i64; 3]; 13] = [
            [1, 0, 0],
            [-1, 1, 0],
            [0, 1, 0],
            [1, 1, 0],
            [-1, -1, 1],
            [0, -1, 1],
            [1, -1, 1],
            [-1, 0, 1],
            [0, 0, 1],
            [1, 0, 1],
            [-1, 1, 1],
            [0, 1, 1],
            [1, 1, 1],
        ];
        // The extents are spheres of radius r + margin: they overlap when the centres are at
        // most r_i + r_j + 2 margin apart (a box test would also keep the pairs in the boxes'
        // corners, up to 1.7 times as far: about a third more pairs in a dense packing).
        // (a pair away from the faces, nearly all: its own separation, tested against the
        // cell's halves taken once)
        let half = cell.map_or([Real::INFINITY; 3], Cell::halves);
        let overlaps = |i: usize, j: usize| -> bool {
            let reach = radius[i] + radius[j] + 2.0 * margin;
            let d = pos[j] - pos[i];
            let d = match crate::geom::within(&half, &d) {
                true => d,
                false => crate::geom::nearest(cell, d),
            };
            d.norm_squared() <= reach * reach
        };
        // Lees-Edwards: a neighbour across a face of the gradient axis is an image moved by
        // the offset along the flow, `shift` cells of the flow axis (a fraction)
        let shear = cell.and_then(|c| c.shear.map(|s| (s, c.offset * inv_h[s.flow])));
        // a neighbour's index along axis k, wrapped along a periodic axis (None: off the grid)
        let wrap = [wraps(0), wraps(1), wraps(2)];
        let along = |k: usize, x: i64| -> Option<usize> {
            let n = nc[k] as i64;
            match (wrap[k], x) {
                (true, x) => Some(x.rem_euclid(n) as usize),
                (false, x) if x < 0 || x >= n => None,
                (false, x) => Some(x as usize),
            }
        };
        let push = |pairs: &mut Vec<(u32, u32)>, i: u32, j: u32| {
            pairs.push((i.min(j), i.max(j)));
        };
        let (order, cell_start) = (&self.order, &self.cell_start);
        // the pairs of one layer of cells (z = cz) and its forward neighbours
        let layer = |cz: usize, pairs: &mut Vec<(u32, u32)>| {
            for cy in 0..nc[1] {
                for cx in 0..nc[0] {
                    let c = index([cx, cy, cz]);
                    let own = &order[cell_start[c] as usize..cell_start[c + 1] as usize];
                    if own.is_empty() {
                        // (no pair starts here: skip the 13 neighbours' look-ups; a packing
                        // leaves about half the cells of its grid empty)
                        continue;
                    }
                    for (k, &i) in own.iter().enumerate() {
                        for &j in &own[k + 1..] {
                            if overlaps(i as usize, j as usize) {
                                push(pairs, i, j);
                            }
                        }
                    }
                    // (a cell whose forward neighbours all lie on the grid: no wrap and no
                    // sliding image cell, the bounded grid's loop; most cells of a periodic grid)
                    let inner = cx >= 1 && cx + 1 < nc[0] && cy >= 1 && cy + 1 < nc[1];
                    let bounded = cell.is_none() || (inner && cz + 1 < nc[2]);
                    for off in FORWARD {
                        if bounded {
                            // (no wrap, no image cell; its own loop, the hot one)
                            let x = cx as i64 + off[0];
                            let y = cy as i64 + off[1];
                            let z = cz as i64 + off[2];
                            if x < 0
                                || y < 0
                                || x >= nc[0] as i64
                                || y >= nc[1] as i64
                                || z >= nc[2] as i64
                            {
                                continue;
                            }
                            let d = index([x as usize, y as usize, z as usize]);
                            let other = &order[cell_start[d] as usize..cell_start[d + 1] as usize];
                            pairs_between(own, other, &overlaps, pairs);
                            continue;
                        }
                        let at = [cx as i64 + off[0], cy as i64 + off[1], cz as i64 + off[2]];
                        // (across a face of the gradient axis under shear, the image cells
                        // `up` lengths away cover this neighbour: the two flow cells under it)
                        let mut ats = [at; 2];
                        let mut count = 1;
                        if let Some((s, shift)) = shear {
                            let n = nc[s.gradient] as i64;
                            let up = at[s.gradient].div_euclid(n) as Real;
                            if up != 0.0 {
                                let x = (at[s.flow] as Real - up * shift).floor() as i64;
                                ats[0][s.flow] = x;
                                ats[1][s.flow] = x + 1;
                                count = 2;
                            }
                        }
                        for at in &ats[..count] {
                            let (Some(x), Some(y), Some(z)) =
                                (along(0, at[0]), along(1, at[1]), along(2, at[2]))
                            else {
                                continue;
                            };
                            let d = index([x, y, z]);
                            if d == c {
                                // (a periodic axis of one cell: the cell is its own neighbour)
                                continue;
                            }
                            let other = &order[cell_start[d] as usize..cell_start[d + 1] as usize];
                            pairs_between(own, other, &overlaps, pairs);
                        }
                    }
                }
            }
        };
        // The sorted list does not depend on the order the layers are visited in, so the
        // layers may go in parallel.
        // (on one thread the pairs go straight into the list: per-layer lists made and
        // freed at every rebuild would leave holes in the heap)
        if n >= crate::par::PARALLEL_BALLS && rayon::current_num_threads() > 1 {
            use rayon::prelude::*;
            let layers: Vec<Vec<(u32, u32)>> = (0..nc[2])
                .into_par_iter()
                .map(|cz| {
                    let mut pairs = Vec::new();
                    layer(cz, &mut pairs);
                    pairs
                })
                .collect();
            self.pairs.extend(layers.into_iter().flatten());
            self.pairs.par_sort_unstable();
        } else {
            for cz in 0..nc[2] {
                layer(cz, &mut self.pairs);
            }
            sort_pairs(&mut self.pairs, n, &mut self.ends, &mut self.bucketed);
        }
        if cell.is_some() {
            // (along a periodic axis of two cells, both forward and backward neighbours are
            // the same cell: its pairs come twice)
            self.pairs.dedup();
        }
    }
}

/// Sorts the pairs `(a, b)` of `n` balls as `sort_unstable` does (by a, then b), in two
/// passes: bucketed by `a` (a counting sort, `ends` and `bucketed` its scratch), then each
/// ball's few pairs sorted by b. The pairs of a build come in the grid's order, from every
/// ball of a cell at once: about a third of the rebuild's work was their comparison sort.
fn sort_pairs(
    pairs: &mut [(u32, u32)],
    n: usize,
    ends: &mut Vec<u32>,
    bucketed: &mut Vec<(u32, u32)>,
) {
    ends.clear();
    ends.resize(n + 1, 0);
    for &(a, _) in pairs.iter() {
        ends[a as usize + 1] += 1;
    }
    for i in 0..n {
        ends[i + 1] += ends[i];
    }
    bucketed.clear();
    bucketed.resize(pairs.len(), (0, 0));
    // (each ball's start, advanced to its end as its pairs go in)
    for &p in pairs.iter() {
        let k = &mut ends[p.0 as usize];
        bucketed[*k as usize] = p;
        *k += 1;
    }
    let mut start = 0;
    for &end in &ends[..n] {
        let end = end as usize;
        bucketed[start..end].sort_unstable_by_key(|p| p.1);
        start = end;
    }
    pairs.copy_from_slice(bucketed);
}

impl BroadPhase {
    /// Candidate ball-facet contacts (call after [`BroadPhase::build`] with the same balls):
    /// every (ball, wall, facet) whose extents overlap (the facet's box and the ball's box, each
    /// enlarged by the margin) and whose distance is at most `R + 2 margin`.
    ///
    /// NOTE: the distance test drops the pairs whose boxes overlap only because the facet is
    /// inclined (a large oblique facet's box holds many balls far from it); it keeps every pair
    /// that can touch before the next rebuild, which happens once a ball or a wall has moved half
    /// the margin.
    ///
    /// Each facet visits the grid cells its enlarged box covers: O(facets + balls near them).
    pub fn build_facets(
        &mut self,
        walls: &[crate::body::Wall],
        pos: &[Vec3],
        radius: &[Real],
        margin: Real,
    ) {
        self.facet_pairs.clear();
        if pos.is_empty() {
            return;
        }
        let (lo, h, nc) = self.grid;
        let rmax = radius.iter().fold(0.0, |a: Real, &b| a.max(b));
        let reach = rmax + 2.0 * margin;
        for (w, wall) in walls.iter().enumerate() {
            for f in 0..wall.mesh.len() {
                let p = wall.mesh.corners(f);
                let flo = p[0].inf(&p[1]).inf(&p[2]);
                let fhi = p[0].sup(&p[1]).sup(&p[2]);
                let mut range = [(0usize, 0usize); 3];
                let mut empty = false;
                for k in 0..3 {
                    let a = ((flo[k] - reach - lo[k]) / h[k]).floor();
                    let b = ((fhi[k] + reach - lo[k]) / h[k]).floor();
                    if b < 0.0 || a > (nc[k] - 1) as Real {
                        empty = true;
                        break;
                    }
                    range[k] = (a.max(0.0) as usize, (b as usize).min(nc[k] - 1));
                }
                if empty {
                    continue;
                }
                for cz in range[2].0..=range[2].1 {
                    for cy in range[1].0..=range[1].1 {
                        for cx in range[0].0..=range[0].1 {
                            let c = (cz * nc[1] + cy) * nc[0] + cx;
                            let own = &self.order
                                [self.cell_start[c] as usize..self.cell_start[c + 1] as usize];
                            for &i in own {
                                let (x, r) = (pos[i as usize], radius[i as usize]);
                                let e = r + 2.0 * margin;
                                let boxes =
                                    (0..3).all(|k| x[k] + e >= flo[k] && x[k] - e <= fhi[k]);
                                if boxes {
                                    let d2 = (crate::geom::closest_point(&x, &p).point - x)
                                        .norm_squared();
                                    if d2 <= e * e {
                                        self.facet_pairs.push((i, w as u32, f as u32));
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        self.facet_pairs.sort_unstable();
    }
}

/// The pairs of a piece of `own` and one of `other` whose extents overlap, pushed as (min, max).
#[inline(always)]
fn pairs_between(
    own: &[u32],
    other: &[u32],
    overlaps: &impl Fn(usize, usize) -> bool,
    pairs: &mut Vec<(u32, u32)>,
) {
    for &i in own {
        for &j in other {
            if overlaps(i as usize, j as usize) {
                pairs.push((i.min(j), i.max(j)));
            }
        }
    }
}

/// Every pair with overlapping extents by testing all pairs: O(N^2), the reference for tests
/// (in a periodic `cell`, each pair at its nearest image, written out here apart from
/// [`Cell::nearest`]: each offset of -1, 0, 1 cell length along each periodic axis tried;
/// under Lees-Edwards shear, an offset along the gradient also moves the image by that many
/// times the shear offset along the flow, and the flow tries -2 to 2 lengths).
pub fn brute_force_pairs(
    pos: &[Vec3],
    radius: &[Real],
    margin: Real,
    cell: Option<&Cell>,
) -> Vec<(u32, u32)> {
    let shifts: Vec<Vec3> = match cell {
        None => vec![Vec3::zeros()],
        Some(c) => {
            let flow = c.shear.map(|s| s.flow);
            let steps = |k: usize| match (c.periodic[k], flow == Some(k)) {
                (true, true) => -2..=2,
                (true, false) => -1..=1,
                _ => 0..=0,
            };
            let mut v = Vec::new();
            for x in steps(0) {
                for y in steps(1) {
                    for z in steps(2) {
                        let n = [x, y, z];
                        let mut s = Vec3::new(
                            x as Real * c.len.x,
                            y as Real * c.len.y,
                            z as Real * c.len.z,
                        );
                        if let Some(sh) = c.shear {
                            s[sh.flow] += n[sh.gradient] as Real * c.offset;
                        }
                        v.push(s);
                    }
                }
            }
            v
        }
    };
    let mut pairs = Vec::new();
    for i in 0..pos.len() {
        for j in i + 1..pos.len() {
            let reach = radius[i] + radius[j] + 2.0 * margin;
            let d2 = (shifts.iter())
                .map(|s| (pos[j] + s - pos[i]).norm_squared())
                .fold(Real::INFINITY, Real::min);
            if d2 <= reach * reach {
                pairs.push((i as u32, j as u32));
            }
        }
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::sort_pairs;

    /// The two-pass sort gives `sort_unstable`'s order, repeated pairs and balls without
    /// pairs included (random pairs a < b of 50 balls).
    #[test]
    fn the_bucketed_sort_is_the_sort() {
        let mut rng = crate::rng::SplitMix64::new(7);
        let n = 50;
        let mut pairs: Vec<(u32, u32)> = (0..400)
            .map(|_| {
                let a = (rng.next_u64() % (n as u64 - 1)) as u32;
                (
                    a,
                    a + 1 + (rng.next_u64() % (n as u64 - 1 - a as u64)) as u32,
                )
            })
            .collect();
        pairs.extend_from_within(..20);
        let mut expected = pairs.clone();
        expected.sort_unstable();
        let (mut ends, mut bucketed) = (Vec::new(), Vec::new());
        sort_pairs(&mut pairs, n, &mut ends, &mut bucketed);
        assert_eq!(pairs, expected);
    }
}
