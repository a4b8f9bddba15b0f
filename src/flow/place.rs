//! Where a new ball can go: the pieces and facets near an insertion's zone in a hash grid of
//! cells, so that a candidate centre is tested against its neighbours only.

use crate::body::{Balls, Wall};
use crate::geom::{closest_point, Cell, Zone};
use crate::math::{Real, Vec3};
use std::collections::HashMap;

/// Everything a ball inserted in a zone could touch: spheres (existing pieces and the balls
/// placed so far, and in a periodic cell their images near the zone) and wall facets, each
/// filed in every cell its bounding box covers.
pub struct Obstacles {
    /// Cell size, m.
    cell: Real,
    /// Lower corner of cell (0, 0, 0), m.
    origin: Vec3,
    /// The entries of each cell: a sphere `k` as `k`, a facet `k` as `k | FACET`.
    cells: HashMap<u64, Vec<u32>, std::hash::BuildHasherDefault<crate::storage::IdHasher>>,
    spheres: Vec<(Vec3, Real)>,
    facets: Vec<[Vec3; 3]>,
    /// Where obstacles matter: the zone's bounds widened by the largest new radius.
    lo: Vec3,
    hi: Vec3,
    /// The moves from a sphere to its images ([`Cell::image_moves`]; only the zero move
    /// without a periodic cell).
    images: Vec<Vec3>,
}

const FACET: u32 = 1 << 31;
/// Cells per axis at most (21 bits of a key each).
const MAX_CELLS: Real = 1.0e6;

impl Obstacles {
    /// The pieces of `balls` and the facets of `walls` near `zone`, for new balls of radius
    /// at most `r_max`.
    pub fn new(zone: &Zone, r_max: Real, balls: &Balls, walls: &[Wall]) -> Obstacles {
        let (lo, hi) = zone.bounds();
        let lo = lo - Vec3::repeat(r_max);
        let hi = hi + Vec3::repeat(r_max);
        let extent = (hi - lo).max();
        let cell = (2.0 * r_max).max(extent / MAX_CELLS);
        let mut o = Obstacles {
            cell,
            origin: lo,
            cells: HashMap::default(),
            spheres: Vec::new(),
            facets: Vec::new(),
            lo,
            hi,
            images: balls
                .cell
                .as_ref()
                .map_or(vec![Vec3::zeros()], Cell::image_moves),
        };
        for i in 0..balls.len() {
            o.add_sphere(balls.pos[i], balls.radius[i]);
        }
        for w in walls {
            for f in 0..w.mesh.len() {
                let c = w.mesh.corners(f);
                let a = c[0].inf(&c[1]).inf(&c[2]);
                let b = c[0].sup(&c[1]).sup(&c[2]);
                if o.overlaps(&a, &b) {
                    let k = o.facets.len() as u32 | FACET;
                    o.facets.push(c);
                    o.file(k, &a, &b);
                }
            }
        }
        o
    }

    /// True when the box [a, b] meets the region where obstacles matter.
    fn overlaps(&self, a: &Vec3, b: &Vec3) -> bool {
        (0..3).all(|k| a[k] <= self.hi[k] && b[k] >= self.lo[k])
    }

    /// Adds a sphere (an existing piece, or a ball just placed), and each of its images,
    /// if it is near the zone.
    pub fn add_sphere(&mut self, c: Vec3, r: Real) {
        for m in 0..self.images.len() {
            let c = c + self.images[m];
            let (a, b) = (c - Vec3::repeat(r), c + Vec3::repeat(r));
            if self.overlaps(&a, &b) {
                let k = self.spheres.len() as u32;
                self.spheres.push((c, r));
                self.file(k, &a, &b);
            }
        }
    }

    /// The cell coordinates of a point, clamped to the region where obstacles matter.
    fn cell_of(&self, p: &Vec3) -> [u64; 3] {
        let q = p.sup(&self.lo).inf(&self.hi) - self.origin;
        [0, 1, 2].map(|k| (q[k] / self.cell).floor().max(0.0) as u64)
    }

    /// The key of a cell: its three coordinates packed, then mixed (a bijection, so no two
    /// cells share a key): the map keeps the key as its hash, and packed coordinates alone
    /// vary only in their low bits along x and in their high bits not at all, which the
    /// map's probing reads.
    fn key(c: [u64; 3]) -> u64 {
        let mut z = c[0] | c[1] << 21 | c[2] << 42;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Files entry `k` in every cell the box [a, b] covers (within the region).
    fn file(&mut self, k: u32, a: &Vec3, b: &Vec3) {
        let (ca, cb) = (self.cell_of(a), self.cell_of(b));
        for i in ca[0]..=cb[0] {
            for j in ca[1]..=cb[1] {
                for l in ca[2]..=cb[2] {
                    self.cells.entry(Self::key([i, j, l])).or_default().push(k);
                }
            }
        }
    }

    /// True when a ball of radius `r` centred at `p` touches no obstacle (a gap of zero
    /// counts as touching).
    pub fn is_free(&self, p: &Vec3, r: Real) -> bool {
        let (ca, cb) = (
            self.cell_of(&(p - Vec3::repeat(r))),
            self.cell_of(&(p + Vec3::repeat(r))),
        );
        for i in ca[0]..=cb[0] {
            for j in ca[1]..=cb[1] {
                for l in ca[2]..=cb[2] {
                    let Some(entries) = self.cells.get(&Self::key([i, j, l])) else {
                        continue;
                    };
                    for &k in entries {
                        let touches = if k & FACET != 0 {
                            let f = &self.facets[(k & !FACET) as usize];
                            (closest_point(p, f).point - p).norm_squared() <= r * r
                        } else {
                            let (c, s) = self.spheres[k as usize];
                            (c - p).norm_squared() <= (r + s) * (r + s)
                        };
                        if touches {
                            return false;
                        }
                    }
                }
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Against a scan of every sphere and facet: the grid answers the same for random
    /// candidates among random spheres and a tilted facet.
    #[test]
    fn the_grid_answers_as_a_full_scan() {
        let mut rng = crate::rng::SplitMix64::new(3);
        let mut u = || rng.next_unit();
        let zone = Zone::Box {
            min: Vec3::zeros(),
            max: Vec3::new(1.0, 1.0, 0.5),
        };
        let mut balls = Balls::default();
        for k in 0..300 {
            let spec = crate::body::BallSpec::at_rest(
                k,
                [2.0 * u() - 0.5, 2.0 * u() - 0.5, u() - 0.25],
                0.02 + 0.05 * u(),
                0,
            );
            balls.push(&spec, 1000.0);
        }
        let tri = [
            Vec3::new(-1.0, -1.0, 0.1),
            Vec3::new(3.0, -1.0, 0.3),
            Vec3::new(-1.0, 3.0, 0.2),
        ];
        let o = Obstacles::new(&zone, 0.04, &balls, &[]);
        let mut o2 = o;
        let k = o2.facets.len() as u32 | FACET;
        o2.facets.push(tri);
        let (a, b) = (
            tri[0].inf(&tri[1]).inf(&tri[2]),
            tri[0].sup(&tri[1]).sup(&tri[2]),
        );
        o2.file(k, &a, &b);
        agrees_with_scan(&o2, || {
            let r = 0.01 + 0.03 * u();
            let p = zone.sample_inside(r, [u(), u(), u()]).unwrap();
            let scan = (0..balls.len()).all(|i| (balls.pos[i] - p).norm() > balls.radius[i] + r)
                && (closest_point(&p, &tri).point - p).norm() > r;
            (p, r, scan)
        });
    }

    /// 5000 candidates `(centre, radius, free by the scan)`: the grid answers as the scan
    /// every time, and both answers occur.
    fn agrees_with_scan(o: &Obstacles, mut candidate: impl FnMut() -> (Vec3, Real, bool)) {
        let (mut disagreements, mut free) = (0, 0);
        for _ in 0..5000 {
            let (p, r, scan) = candidate();
            free += scan as u32;
            disagreements += (scan != o.is_free(&p, r)) as u32;
        }
        assert_eq!(disagreements, 0);
        assert!(
            free > 100 && free < 4900,
            "test premise: both answers occur ({free})"
        );
    }

    /// In a periodic cell sheared by Lees-Edwards images (offset 0.37 of the flow length), the
    /// grid with the images answers as a scan of the nearest images (`Cell::nearest`, the
    /// minimum-image rule of the force pass) for candidates anywhere in the cell.
    #[test]
    fn with_images_the_grid_answers_as_the_nearest_image_scan() {
        let mut rng = crate::rng::SplitMix64::new(5);
        let mut u = || rng.next_unit();
        let cell = Cell {
            min: Vec3::zeros(),
            len: Vec3::new(1.0, 0.8, 0.6),
            periodic: [true, true, true],
            shear: Some(crate::geom::Shear {
                rate: 1.0,
                flow: 0,
                gradient: 2,
            }),
            offset: 0.37,
            strain: 0.0,
            pressure: None,
            dilation: 0.0,
        };
        let zone = Zone::Box {
            min: cell.min,
            max: cell.len,
        };
        let mut balls = Balls::default();
        for k in 0..200 {
            let p = [u(), 0.8 * u(), 0.6 * u()];
            let spec = crate::body::BallSpec::at_rest(k, p, 0.02 + 0.04 * u(), 0);
            balls.push(&spec, 1000.0);
        }
        balls.cell = Some(cell.clone());
        let o = Obstacles::new(&zone, 0.05, &balls, &[]);
        agrees_with_scan(&o, || {
            let r = 0.01 + 0.04 * u();
            let p = Vec3::new(u(), 0.8 * u(), 0.6 * u());
            let scan = (0..balls.len())
                .all(|i| cell.nearest(balls.pos[i] - p).norm() > balls.radius[i] + r);
            (p, r, scan)
        });
    }
}
