//! Zones (a case file's `region`): where balls are inserted, removed or measured: an axis-aligned box or a
//! finite cylinder, with the volume of a sphere inside one (for porosities).

use crate::math::{Real, Vec3, PI};

/// A closed region of space.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Zone {
    /// The axis-aligned box `min <= x <= max`, m.
    Box {
        /// Lower corner, m.
        min: Vec3,
        /// Upper corner, m.
        max: Vec3,
    },
    /// The cylinder of points at most `radius` from the axis through `base` along `axis`
    /// (unit), between `base` and `base + height axis`, m.
    Cylinder {
        /// Centre of the base disk, m.
        base: Vec3,
        /// Unit vector from the base to the top.
        axis: Vec3,
        /// Radius, m.
        radius: Real,
        /// Length along the axis, m.
        height: Real,
    },
}

impl Zone {
    /// A cylinder (the axis need not be unit; it must not be zero).
    pub fn cylinder(base: Vec3, axis: Vec3, radius: Real, height: Real) -> Zone {
        Zone::Cylinder {
            base,
            axis: axis.normalize(),
            radius,
            height,
        }
    }

    /// True when `p` lies in the region (its boundary included).
    #[inline]
    pub fn contains(&self, p: &Vec3) -> bool {
        match self {
            Zone::Box { min, max } => {
                p.x >= min.x
                    && p.x <= max.x
                    && p.y >= min.y
                    && p.y <= max.y
                    && p.z >= min.z
                    && p.z <= max.z
            }
            Zone::Cylinder {
                base,
                axis,
                radius,
                height,
            } => {
                let (h, d) = axial(p, base, axis);
                h >= 0.0 && h <= *height && d <= *radius
            }
        }
    }

    /// Volume, m^3.
    pub fn volume(&self) -> Real {
        match self {
            Zone::Box { min, max } => (max - min).product(),
            Zone::Cylinder { radius, height, .. } => PI * radius * radius * height,
        }
    }

    /// The smallest axis-aligned box that holds the region: (lower, upper) corners, m.
    pub fn bounds(&self) -> (Vec3, Vec3) {
        match self {
            Zone::Box { min, max } => (*min, *max),
            Zone::Cylinder {
                base,
                axis,
                radius,
                height,
            } => {
                // the rim of a disk of radius r normal to a reaches r sqrt(1 - a_k^2) along k
                let top = base + axis * *height;
                let reach =
                    Vec3::from_fn(|k, _| radius * (1.0 - axis[k] * axis[k]).max(0.0).sqrt());
                (base.inf(&top) - reach, base.sup(&top) + reach)
            }
        }
    }

    /// True when a sphere of radius `r` fits in the region.
    pub fn fits(&self, r: Real) -> bool {
        match self {
            Zone::Box { min, max } => (max - min).iter().all(|&e| e >= 2.0 * r),
            Zone::Cylinder { radius, height, .. } => *radius >= r && *height >= 2.0 * r,
        }
    }

    /// The centre of a sphere of radius `r` lying wholly in the region, uniformly distributed
    /// over where such centres can be, from three uniform numbers in [0, 1); None when no
    /// sphere of radius `r` fits.
    pub fn sample_inside(&self, r: Real, u: [Real; 3]) -> Option<Vec3> {
        if !self.fits(r) {
            return None;
        }
        match self {
            Zone::Box { min, max } => Some(Vec3::from_fn(|k, _| {
                min[k] + r + u[k] * (max[k] - min[k] - 2.0 * r)
            })),
            Zone::Cylinder {
                base,
                axis,
                radius,
                height,
            } => {
                // uniform over the disk of radius R - r: radius sqrt(u) (R - r), angle 2 pi u
                let (e1, e2) = crate::geom::plane_axes(axis);
                let rho = (radius - r) * u[0].sqrt();
                let phi = 2.0 * PI * u[1];
                let h = r + u[2] * (height - 2.0 * r);
                Some(base + axis * h + e1 * (rho * phi.cos()) + e2 * (rho * phi.sin()))
            }
        }
    }

    /// Volume of the part of the sphere of centre `c` and radius `r` inside the region, m^3.
    ///
    /// Each slice of the sphere across the box's z axis (the cylinder's axis) is a disk whose
    /// area inside the slice of the region has a closed form (a disk cut by a rectangle:
    /// corners of [`quadrant_area`]; by a disk: the lens of two circles); the slices are
    /// summed by Gauss-Legendre quadrature between the heights where that area stops being
    /// smooth (where the disk touches an edge or a corner), 24 points per piece: the error
    /// is below 1e-12 of the sphere's volume (tests against caps, octants and a fine sum).
    pub fn sphere_volume_inside(&self, c: &Vec3, r: Real) -> Real {
        let (lo, hi) = self.bounds();
        if (0..3).any(|k| c[k] + r <= lo[k] || c[k] - r >= hi[k]) {
            return 0.0;
        }
        match self {
            Zone::Box { min, max } => {
                let (x0, x1) = (min.x - c.x, max.x - c.x);
                let (y0, y1) = (min.y - c.y, max.y - c.y);
                let (z0, z1) = ((min.z - c.z).max(-r), (max.z - c.z).min(r));
                if (x0 <= -r && x1 >= r && y0 <= -r && y1 >= r) || z0 >= z1 {
                    return cap_between(r, z0, z1);
                }
                let mut cuts = vec![z0, z1];
                for d in [x0, x1, y0, y1].into_iter().chain(
                    [x0, x1]
                        .into_iter()
                        .flat_map(|x| [(x * x + y0 * y0).sqrt(), (x * x + y1 * y1).sqrt()]),
                ) {
                    // the slice's disk (radius sqrt(r^2 - z^2)) reaches distance |d| at z = ±sqrt(r^2 - d^2)
                    if d.abs() < r {
                        let z = (r * r - d * d).sqrt();
                        cuts.extend([z, -z]);
                    }
                }
                let area = |z: Real| {
                    let rho = (r * r - z * z).max(0.0).sqrt();
                    rectangle_area(x0, x1, y0, y1, rho)
                };
                integrate_pieces(&mut cuts, z0, z1, area)
            }
            Zone::Cylinder {
                base,
                axis,
                radius,
                height,
            } => {
                let (h, d) = axial(c, base, axis);
                let (z0, z1) = ((-h).max(-r), (height - h).min(r));
                if z0 >= z1 {
                    return 0.0;
                }
                if d + r <= *radius {
                    return cap_between(r, z0, z1);
                }
                let mut cuts = vec![z0, z1];
                for e in [radius + d, radius - d, d - radius] {
                    if e.abs() < r {
                        let z = (r * r - e * e).sqrt();
                        cuts.extend([z, -z]);
                    }
                }
                let area = |z: Real| {
                    let rho = (r * r - z * z).max(0.0).sqrt();
                    lens_area(rho, *radius, d)
                };
                integrate_pieces(&mut cuts, z0, z1, area)
            }
        }
    }
}

/// The height of `p` along a cylinder's axis above its base, and its distance from the axis.
fn axial(p: &Vec3, base: &Vec3, axis: &Vec3) -> (Real, Real) {
    let rel = p - base;
    let h = rel.dot(axis);
    (h, (rel - axis * h).norm())
}

/// Volume of the sphere of radius `r` (centre at 0) between the planes z = z0 and z = z1
/// (within [-r, r]), m^3: pi (r^2 z - z^3/3) from z0 to z1.
fn cap_between(r: Real, z0: Real, z1: Real) -> Real {
    let f = |z: Real| PI * (r * r * z - z * z * z / 3.0);
    (f(z1) - f(z0)).max(0.0)
}

/// 24-point Gauss-Legendre nodes and weights on [-1, 1], computed once.
fn nodes() -> &'static [(Real, Real)] {
    static NODES: std::sync::OnceLock<Vec<(Real, Real)>> = std::sync::OnceLock::new();
    NODES.get_or_init(|| crate::geom::gauss_legendre(24))
}

/// The integral of `f` from `a` to `b`, in pieces between the sorted `cuts` that fall inside.
fn integrate_pieces(cuts: &mut [Real], a: Real, b: Real, f: impl Fn(Real) -> Real) -> Real {
    cuts.sort_by(|x, y| x.total_cmp(y));
    let gl = nodes();
    let mut total = 0.0;
    let mut prev = a;
    for &z in cuts.iter().chain(std::iter::once(&b)) {
        let z = z.clamp(a, b);
        if z > prev {
            // (z = m + h (3x - x^3)/2: the area's kinks at the ends of a piece, like
            // s^(3/2) in the distance s to the end, become smooth, like (1 - x)^4)
            let (m, h) = (0.5 * (prev + z), 0.5 * (z - prev));
            let g = |x: Real| 0.5 * x * (3.0 - x * x);
            let dg = |x: Real| 1.5 * (1.0 - x * x);
            total += h * gl
                .iter()
                .map(|&(x, w)| w * dg(x) * f(m + h * g(x)))
                .sum::<Real>();
            prev = z;
        }
    }
    total
}

/// `(x sqrt(r^2 - x^2) + r^2 asin(x / r)) / 2`: a primitive of `sqrt(r^2 - x^2)` on [-r, r].
fn half_disk_primitive(x: Real, r: Real) -> Real {
    let x = x.clamp(-r, r);
    0.5 * (x * (r * r - x * x).max(0.0).sqrt() + r * r * (x / r).clamp(-1.0, 1.0).asin())
}

/// Area of the part of the disk of radius `r` centred at 0 where x > a and y > b, m^2.
pub fn quadrant_area(a: Real, b: Real, r: Real) -> Real {
    if r <= 0.0 || a >= r || b >= r {
        return 0.0;
    }
    let s = |x: Real| half_disk_primitive(x, r);
    // where the chord at height |b| ends: |x| < xb
    let xb = (r * r - b * b).max(0.0).sqrt();
    if b >= 0.0 {
        // the length above y = b at abscissa x is sqrt(r^2 - x^2) - b, for |x| < xb
        let lo = a.max(-xb);
        if lo >= xb {
            return 0.0;
        }
        return (s(xb) - s(lo)) - b * (xb - lo);
    }
    // b < 0: the whole chord (2 sqrt(r^2 - x^2)) except, for |x| < xb, the part below y = b
    // (sqrt(r^2 - x^2) + b of it)
    let a = a.max(-r);
    let full = 2.0 * (s(r) - s(a));
    let lo = a.max(-xb);
    let cut = if lo < xb {
        (s(xb) - s(lo)) + b * (xb - lo)
    } else {
        0.0
    };
    full - cut
}

/// Area of the disk of radius `r` centred at 0 inside the rectangle [x0, x1] x [y0, y1], m^2.
pub fn rectangle_area(x0: Real, x1: Real, y0: Real, y1: Real, r: Real) -> Real {
    if x1 <= x0 || y1 <= y0 {
        return 0.0;
    }
    let a = quadrant_area(x0, y0, r) - quadrant_area(x1, y0, r) - quadrant_area(x0, y1, r)
        + quadrant_area(x1, y1, r);
    a.max(0.0)
}

/// Area of the intersection of two disks of radii `r` and `big` whose centres are `d` apart,
/// m^2 (the lens: two circular segments).
pub fn lens_area(r: Real, big: Real, d: Real) -> Real {
    if r <= 0.0 || big <= 0.0 || d >= r + big {
        return 0.0;
    }
    if d <= (big - r).abs() {
        let m = r.min(big);
        return PI * m * m;
    }
    // each circle's segment beyond the chord: r^2 acos(t) - t r sqrt(r^2 - ...) with t the
    // chord's distance from that centre over the radius
    let x = (d * d + r * r - big * big) / (2.0 * d);
    let segment = |rad: Real, dist: Real| {
        let t = (dist / rad).clamp(-1.0, 1.0);
        rad * rad * t.acos() - dist * (rad * rad - dist * dist).max(0.0).sqrt()
    };
    segment(r, x) + segment(big, d - x)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sphere(r: Real) -> Real {
        4.0 / 3.0 * PI * r * r * r
    }

    /// The box's share of a sphere against closed forms: a cap (one plane), half, a quarter,
    /// an octant (planes through the centre), and the whole.
    #[test]
    fn sphere_in_box_matches_caps_and_octants() {
        let c = Vec3::new(0.3, -0.2, 0.5);
        let r = 0.1;
        let b = |lo: [Real; 3], hi: [Real; 3]| Zone::Box {
            min: c + Vec3::from(lo),
            max: c + Vec3::from(hi),
        };
        let big = 1.0;
        let whole = b([-big; 3], [big; 3]).sphere_volume_inside(&c, r);
        assert!((whole - sphere(r)).abs() < 1e-15, "{whole}");
        let half = b([0.0, -big, -big], [big; 3]).sphere_volume_inside(&c, r);
        assert!((half / sphere(r) - 0.5).abs() < 1e-13, "{half}");
        let quarter = b([0.0, 0.0, -big], [big; 3]).sphere_volume_inside(&c, r);
        assert!((quarter / sphere(r) - 0.25).abs() < 1e-13, "{quarter}");
        let octant = b([0.0, 0.0, 0.0], [big; 3]).sphere_volume_inside(&c, r);
        assert!((octant / sphere(r) - 0.125).abs() < 1e-13, "{octant}");
        // a cap of height h = r - d cut by the plane x = d: pi h^2 (3 r - h) / 3
        for d in [-0.07, 0.03, 0.095] {
            let h = r - d;
            let cap = PI * h * h * (3.0 * r - h) / 3.0;
            let got = b([d, -big, -big], [big; 3]).sphere_volume_inside(&c, r);
            assert!(
                ((got - cap) / sphere(r)).abs() < 1e-13,
                "d {d}: {got} vs {cap}"
            );
        }
    }

    /// A sphere cut by three planes off its centre, against a midpoint sum over a fine grid
    /// of cubes (an independent count; its own error is about 1e-6 of the sphere).
    #[test]
    fn sphere_in_box_matches_a_fine_count() {
        let (c, r) = (Vec3::zeros(), 1.0);
        let region = Zone::Box {
            min: Vec3::new(-0.4, 0.2, -2.0),
            max: Vec3::new(0.7, 2.0, 0.55),
        };
        let got = region.sphere_volume_inside(&c, r);
        let n = 400;
        let h = 2.0 / n as Real;
        let mut count = 0.0;
        for i in 0..n {
            for j in 0..n {
                // exact in z: the column at (x, y) inside the sphere and the box
                let x = -1.0 + (i as Real + 0.5) * h;
                let y = -1.0 + (j as Real + 0.5) * h;
                if !((-0.4..=0.7).contains(&x) && (0.2..=2.0).contains(&y)) {
                    continue;
                }
                let s = 1.0 - x * x - y * y;
                if s > 0.0 {
                    let zt = s.sqrt();
                    let len = (zt.min(0.55) - (-zt)).max(0.0);
                    count += len * h * h;
                }
            }
        }
        assert!(((got - count) / sphere(r)).abs() < 2e-4, "{got} vs {count}");
    }

    /// The cylinder's share of a sphere: whole, half (a plane through the centre across the
    /// axis), and a sphere on the curved side against a fine count.
    #[test]
    fn sphere_in_cylinder() {
        let cyl = Zone::cylinder(Vec3::zeros(), Vec3::new(0.0, 0.0, 2.0), 1.0, 3.0);
        let r = 0.2;
        let whole = cyl.sphere_volume_inside(&Vec3::new(0.1, 0.2, 1.0), r);
        assert!((whole / sphere(r) - 1.0).abs() < 1e-14);
        let half = cyl.sphere_volume_inside(&Vec3::new(0.1, 0.2, 0.0), r);
        assert!((half / sphere(r) - 0.5).abs() < 1e-13, "{half}");
        let c = Vec3::new(0.9, 0.0, 1.0);
        let got = cyl.sphere_volume_inside(&c, r);
        let n = 600;
        let h = 2.0 * r / n as Real;
        let mut count = 0.0;
        for i in 0..n {
            for j in 0..n {
                let x = c.x - r + (i as Real + 0.5) * h;
                let y = c.y - r + (j as Real + 0.5) * h;
                let s = r * r - (x - c.x).powi(2) - (y - c.y).powi(2);
                if s > 0.0 && x * x + y * y <= 1.0 {
                    count += 2.0 * s.sqrt() * h * h;
                }
            }
        }
        assert!(((got - count) / sphere(r)).abs() < 1e-3, "{got} vs {count}");
    }

    /// Points sampled for a sphere keep the whole sphere inside; the region's bounds hold it.
    #[test]
    fn samples_keep_the_sphere_inside() {
        let mut rng = crate::rng::SplitMix64::new(5);
        for region in [
            Zone::Box {
                min: Vec3::new(0.0, 0.0, 0.0),
                max: Vec3::new(1.0, 0.5, 0.3),
            },
            Zone::cylinder(Vec3::new(1.0, 2.0, 3.0), Vec3::new(1.0, 1.0, 0.0), 0.4, 1.0),
        ] {
            let (lo, hi) = region.bounds();
            for _ in 0..2000 {
                let u = [rng.next_unit(), rng.next_unit(), rng.next_unit()];
                let p = region.sample_inside(0.1, u).unwrap();
                assert!((region.sphere_volume_inside(&p, 0.1) / sphere(0.1) - 1.0).abs() < 1e-12);
                assert!((0..3).all(|k| p[k] - 0.1 >= lo[k] - 1e-12 && p[k] + 0.1 <= hi[k] + 1e-12));
            }
            assert!(region.sample_inside(10.0, [0.5; 3]).is_none());
        }
    }
}
