//! Space cut into bricks, one per rank ([`Bricks`]).

use crate::math::{Real, Vec3};

/// Space cut into `count[0] x count[1] x count[2]` bricks, one per rank: brick `(i, j, k)` is
/// rank `(i count[1] + j) count[2] + k`. Along each axis the inner cuts are planes; along a
/// bounded axis the first and last bricks reach to infinity (a ball is always inside one), and
/// along a periodic axis they end at the cell's faces.
#[derive(Clone, Debug, PartialEq)]
pub struct Bricks {
    /// Bricks along x, y, z.
    pub count: [usize; 3],
    /// Along each axis, the `count - 1` inner cuts, increasing, m.
    pub cuts: [Vec<Real>; 3],
    /// Along a periodic axis, the cell's lowest coordinate and length, m.
    pub period: [Option<(Real, Real)>; 3],
}

impl Bricks {
    /// The bricks of `ranks` ranks over the box `lo..hi` (the extent of the balls and walls, or
    /// the cell): of the ways to write `ranks` as `nx ny nz` (`nz = 1` for 2D disks), the one
    /// whose inner cuts have the least area (the least ghost volume per unit of halo), ties
    /// going to more cuts along x, then y.
    pub fn choose(ranks: usize, lo: &Vec3, hi: &Vec3, planar: bool) -> [usize; 3] {
        let size = hi - lo;
        let e = |k: usize| size[k].max(Real::MIN_POSITIVE);
        let mut best = ([ranks, 1, 1], Real::INFINITY);
        for nx in (1..=ranks).rev().filter(|n| ranks % n == 0) {
            let rest = ranks / nx;
            for ny in (1..=rest).rev().filter(|n| rest % n == 0) {
                let nz = rest / ny;
                if planar && nz > 1 {
                    continue;
                }
                let area = (nx - 1) as Real * e(1) * e(2)
                    + (ny - 1) as Real * e(0) * e(2)
                    + (nz - 1) as Real * e(0) * e(1);
                if area < best.1 {
                    best = ([nx, ny, nz], area);
                }
            }
        }
        best.0
    }

    /// `count` bricks of equal size over `lo..hi` (along a periodic axis, over the cell).
    pub fn even(
        count: [usize; 3],
        lo: &Vec3,
        hi: &Vec3,
        period: [Option<(Real, Real)>; 3],
    ) -> Self {
        let cuts = std::array::from_fn(|k| {
            let (a, len) = period[k].unwrap_or((lo[k], hi[k] - lo[k]));
            (1..count[k])
                .map(|c| a + len * c as Real / count[k] as Real)
                .collect()
        });
        Bricks {
            count,
            cuts,
            period,
        }
    }

    /// The number of ranks.
    pub fn ranks(&self) -> usize {
        self.count.iter().product()
    }

    /// The rank of brick `(i, j, k)`.
    pub fn rank(&self, b: [usize; 3]) -> usize {
        (b[0] * self.count[1] + b[1]) * self.count[2] + b[2]
    }

    /// The brick `(i, j, k)` of rank `r`.
    pub fn brick(&self, r: usize) -> [usize; 3] {
        let k = r % self.count[2];
        let j = (r / self.count[2]) % self.count[1];
        [r / (self.count[1] * self.count[2]), j, k]
    }

    /// The rank whose brick holds `p` (a point on a cut belongs to the brick above it).
    pub fn owner(&self, p: &Vec3) -> usize {
        self.rank(std::array::from_fn(|k| {
            self.cuts[k].partition_point(|&c| c <= p[k])
        }))
    }

    /// Along axis `k`, the span of brick index `i` (infinite at a bounded axis's ends).
    fn span(&self, k: usize, i: usize) -> (Real, Real) {
        let (low_end, high_end) = match self.period[k] {
            Some((a, len)) => (a, a + len),
            None => (Real::NEG_INFINITY, Real::INFINITY),
        };
        let c = &self.cuts[k];
        let low = if i == 0 { low_end } else { c[i - 1] };
        let high = if i + 1 == self.count[k] {
            high_end
        } else {
            c[i]
        };
        (low, high)
    }

    /// True when `p` lies within `halo` of rank `r`'s brick along every axis (a box around the
    /// brick, not a sphere; along a periodic axis, of the nearest of the brick's images).
    pub fn near(&self, r: usize, p: &Vec3, halo: Real) -> bool {
        self.near_along(r, p, halo, 3)
    }

    /// [`Bricks::near`], but along axis `plain` (3: none) from `p` itself, not from the
    /// nearest of its images (for a caller that moves `p` to its images itself: under
    /// Lees-Edwards shear an image across the gradient axis's faces also slides along the
    /// flow).
    pub fn near_along(&self, r: usize, p: &Vec3, halo: Real, plain: usize) -> bool {
        let b = self.brick(r);
        (0..3).all(|k| self.gap(k, b[k], p[k], k != plain) <= halo)
    }

    /// Along axis `k`, how far `x` lies outside the span of brick index `i` (0 inside), along a
    /// periodic axis from the nearest of its images (when `images`).
    fn gap(&self, k: usize, i: usize, x: Real, images: bool) -> Real {
        let (low, high) = self.span(k, i);
        let gap = |x: Real| (low - x).max(x - high).max(0.0);
        match self.period[k] {
            Some((_, len)) if images => gap(x).min(gap(x - len)).min(gap(x + len)),
            _ => gap(x),
        }
    }

    /// Along each periodic axis, the cuts carried with the cell's lowest coordinate and length
    /// `period` (under pressure control its length changes), affinely: each brick keeps its
    /// share of the cell.
    pub fn fit(&mut self, period: [Option<(Real, Real)>; 3]) {
        for k in 0..3 {
            if let (Some((a, len)), Some((a2, len2))) = (self.period[k], period[k]) {
                if (a, len) != (a2, len2) {
                    for c in &mut self.cuts[k] {
                        *c = a2 + (*c - a) * (len2 / len);
                    }
                }
            }
            self.period[k] = period[k];
        }
    }

    /// The distance from `p` to rank `r`'s brick (0 inside it), along a periodic axis to the
    /// nearest of the brick's images.
    pub fn distance(&self, r: usize, p: &Vec3) -> Real {
        let b = self.brick(r);
        (0..3)
            .map(|k| self.gap(k, b[k], p[k], true).powi(2))
            .sum::<Real>()
            .sqrt()
    }
}

#[cfg(test)]
mod tests {
    use super::Bricks;
    use crate::math::Vec3;

    #[test]
    fn the_cut_of_least_area_is_chosen() {
        let lo = Vec3::zeros();
        // a long box is cut across its length; a cube into the most even bricks
        let table = [
            (2, [4.0, 1.0, 1.0], false, [2, 1, 1]),
            (2, [1.0, 1.0, 4.0], false, [1, 1, 2]),
            (8, [1.0, 1.0, 1.0], false, [2, 2, 2]),
            (4, [1.0, 1.0, 1.0], false, [2, 2, 1]),
            (4, [1.0, 1.0, 9.0], true, [2, 2, 1]),
            (3, [1.0, 2.0, 1.0], false, [1, 3, 1]),
            (1, [1.0, 2.0, 1.0], false, [1, 1, 1]),
        ];
        for (ranks, hi, planar, want) in table {
            let hi = Vec3::from(hi);
            assert_eq!(
                Bricks::choose(ranks, &lo, &hi, planar),
                want,
                "{ranks} over {hi:?}"
            );
        }
    }

    /// Every point has one owner, the brick it lies in; ranks and bricks correspond one to one.
    #[test]
    fn each_point_has_the_owner_whose_brick_holds_it() {
        let lo = Vec3::zeros();
        let hi = Vec3::new(3.0, 2.0, 1.0);
        let b = Bricks::even([3, 2, 1], &lo, &hi, [None; 3]);
        for r in 0..b.ranks() {
            assert_eq!(b.rank(b.brick(r)), r);
        }
        assert_eq!(b.owner(&Vec3::new(0.5, 0.5, 0.5)), 0);
        assert_eq!(b.owner(&Vec3::new(0.5, 1.5, 0.5)), 1);
        assert_eq!(b.owner(&Vec3::new(2.5, 1.5, 0.5)), 5);
        // beyond the box along a bounded axis: the end bricks
        assert_eq!(b.owner(&Vec3::new(-7.0, 9.0, 40.0)), 1);
        // on a cut: the brick above
        assert_eq!(b.owner(&Vec3::new(1.0, 1.0, 0.0)), 3);
        for x in [0.2, 1.3, 2.9] {
            for y in [0.1, 1.9] {
                let p = Vec3::new(x, y, 0.3);
                let r = b.owner(&p);
                assert_eq!(b.distance(r, &p), 0.0);
                for other in (0..b.ranks()).filter(|&o| o != r) {
                    assert!(b.distance(other, &p) > 0.0, "{p:?} in {r} and {other}");
                }
            }
        }
    }

    /// Distances to a brick, by hand: across a cut, to a corner, and through a periodic face.
    #[test]
    fn distances_reach_through_periodic_faces() {
        let lo = Vec3::zeros();
        let hi = Vec3::new(4.0, 1.0, 1.0);
        let bounded = Bricks::even([2, 1, 1], &lo, &hi, [None; 3]);
        let p = Vec3::new(0.5, 0.5, 0.5);
        assert_eq!(bounded.distance(1, &p), 1.5);
        let corner = Bricks::even([2, 2, 1], &lo, &Vec3::new(2.0, 2.0, 1.0), [None; 3]);
        assert!(
            (corner.distance(3, &Vec3::new(0.7, 0.6, 0.0)) - (0.3f64.hypot(0.4))).abs() < 1e-15
        );
        let periodic = Bricks::even([2, 1, 1], &lo, &hi, [Some((0.0, 4.0)), None, None]);
        // 0.5 from the cell's low face: 0.5 from brick 1's image beyond it
        assert_eq!(periodic.distance(1, &p), 0.5);
        assert_eq!(periodic.owner(&Vec3::new(3.5, 0.5, 0.5)), 1);
        // near: a box around the brick, not a sphere
        assert!(corner.near(3, &Vec3::new(0.75, 0.75, 0.0), 0.25));
        assert!(!corner.near(3, &Vec3::new(0.74, 0.75, 0.0), 0.25));
        assert!(periodic.near(1, &p, 0.5) && !periodic.near(1, &p, 0.49));
    }
}
