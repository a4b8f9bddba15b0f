//! A periodic cell: a box whose faces along some axes wrap. A ball leaving through `max` along
//! a periodic axis re-enters through `min`, and two balls interact through the nearest of their
//! images (the minimum-image rule: along a periodic axis of length `L`, a separation `d` is
//! replaced by `d - L round(d / L)`). The rule is exact as long as no pair can reach two images
//! of each other at once, which a case guarantees by a cell longer than twice the largest
//! interaction distance along each periodic axis (`case/domain.rs` refuses the rest).

use crate::math::{Real, Vec3};

/// The cell: its lower corner, its lengths and which axes wrap.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Cell {
    /// Lower corner, m.
    pub min: Vec3,
    /// Lengths along x, y, z, m (an axis that does not wrap keeps its length, unused).
    pub len: Vec3,
    /// The axes that wrap.
    pub periodic: [bool; 3],
}

impl Cell {
    /// The separation `d` (from a to b) replaced by that of the nearest image of b.
    #[inline]
    pub fn nearest(&self, mut d: Vec3) -> Vec3 {
        for k in 0..3 {
            if self.periodic[k] {
                let l = self.len[k];
                d[k] -= l * (d[k] / l).round();
            }
        }
        d
    }

    /// The image of `b` nearest to `a`.
    #[inline]
    pub fn image(&self, a: &Vec3, b: &Vec3) -> Vec3 {
        let d = b - a;
        let n = self.nearest(d);
        if n == d {
            *b
        } else {
            // (b plus a whole number of lengths: the image's position itself, not a + n, so
            // that a pair away from the faces keeps every bit)
            b + (n - d)
        }
    }

    /// Brings `p` back into the cell along the periodic axes; true when it moved.
    #[inline]
    pub fn wrap(&self, p: &mut Vec3) -> bool {
        let mut moved = false;
        for k in 0..3 {
            if self.periodic[k] {
                let (lo, l) = (self.min[k], self.len[k]);
                if p[k] < lo || p[k] >= lo + l {
                    let mut x = lo + (p[k] - lo).rem_euclid(l);
                    if x >= lo + l {
                        // (rem_euclid may round up to the length itself)
                        x = lo;
                    }
                    p[k] = x;
                    moved = true;
                }
            }
        }
        moved
    }

    /// The cell's volume (the area in 2D, where `len.z` is not used).
    pub fn volume(&self, planar: bool) -> Real {
        if planar {
            self.len.x * self.len.y
        } else {
            self.len.x * self.len.y * self.len.z
        }
    }
}

/// The separation `d` replaced by its nearest image in `cell` (unchanged without one): for an
/// arm from a ball's centre to a point of its contact, which is shorter than half the cell.
#[inline(always)]
pub fn nearest(cell: Option<&Cell>, d: Vec3) -> Vec3 {
    match cell {
        None => d,
        Some(c) => c.nearest(d),
    }
}

/// The image of `b` nearest to `a` in `cell`, or `b` itself without one.
#[inline(always)]
pub fn image(cell: Option<&Cell>, a: &Vec3, b: &Vec3) -> Vec3 {
    match cell {
        None => *b,
        Some(c) => c.image(a, b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell() -> Cell {
        Cell {
            min: Vec3::new(-1.0, 0.0, 0.0),
            len: Vec3::new(2.0, 4.0, 1.0),
            periodic: [true, true, false],
        }
    }

    #[test]
    fn nearest_image_by_hand() {
        let c = cell();
        // 1.8 along x in a cell 2 long: the image 0.2 behind is nearer; z does not wrap
        let d = c.nearest(Vec3::new(1.8, -3.5, 7.0));
        assert!((d - Vec3::new(-0.2, 0.5, 7.0)).norm() < 1e-15);
        let (a, b) = (Vec3::new(-0.9, 1.0, 0.5), Vec3::new(0.9, 1.0, 0.5));
        assert_eq!(c.image(&a, &b), Vec3::new(-1.1, 1.0, 0.5));
        // a pair away from the faces keeps its bits
        let b = Vec3::new(-0.3, 1.1, 0.2);
        assert_eq!(c.image(&a, &b), b);
    }

    #[test]
    fn wrap_brings_back_inside() {
        let c = cell();
        let mut p = Vec3::new(1.25, -0.5, 3.0);
        assert!(c.wrap(&mut p));
        assert_eq!(p, Vec3::new(-0.75, 3.5, 3.0));
        let mut q = Vec3::new(0.0, 1.0, -5.0);
        assert!(!c.wrap(&mut q));
        // exactly on the upper face: to the lower one
        let mut r = Vec3::new(1.0, 4.0, 0.0);
        assert!(c.wrap(&mut r));
        assert_eq!(r, Vec3::new(-1.0, 0.0, 0.0));
    }
}
