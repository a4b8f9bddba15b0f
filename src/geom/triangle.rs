//! The closest point of a triangle to a point, and the region of the triangle it lies in.
//!
//! The triangle is cast in parametric form `q(s, t) = v0 + s (v1 - v0) + t (v2 - v0)`; the
//! barycentric coordinates `(1 - s - t, s, t)` of the projection of the point on the plane tell
//! the region (seed 001, "Faceted Wall Contact Resolution"): all positive, the face; one zero,
//! the edge opposite that vertex; two zero, a vertex; a negative coordinate, the closest point
//! is on the boundary and the nearest of the three edges gives it.

use crate::math::{Real, Vec3};

/// Where on a triangle a closest point lies. Edge `k` joins vertex `k` to vertex `(k + 1) % 3`
/// (seed 001: `E_1 = V_2 - V_1`, numbered from 0 here).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Region {
    /// Inside the face.
    Face,
    /// On edge `k` (0, 1, 2), not at its end points.
    Edge(u8),
    /// At vertex `k` (0, 1, 2).
    Vertex(u8),
}

/// The closest point and its region.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Closest {
    /// The point of the triangle closest to the query point (world frame), m.
    pub point: Vec3,
    /// The region it lies in.
    pub region: Region,
}

/// Width of the band, in barycentric (dimensionless) units, within which a closest point is
/// snapped to an edge or a vertex.
///
/// NOTE: a ball centred exactly above a shared edge must see that edge from both facets, or the
/// associative logic finds no link and leaves two contacts active. Round-off puts the computed
/// projection up to ~1e-13 (relative to the facet size) on either side of the edge in a rotated
/// or translated mesh, so a band of 1e-9 snaps both to the edge; the closest point then moves by
/// at most 1e-9 of the facet size sideways, which changes the distance to the ball centre only at
/// second order.
pub const SNAP: Real = 1e-9;

/// The point of triangle `v` closest to `p`, with its region.
///
/// The triangle must not be degenerate (meshes are validated on load).
///
/// # Examples
/// ```
/// use ballast::geom::{closest_point, Region};
/// use ballast::math::Vec3;
/// let tri = [Vec3::zeros(), Vec3::x(), Vec3::y()];
/// let c = closest_point(&Vec3::new(0.2, 0.2, 1.0), &tri);
/// assert_eq!(c.region, Region::Face);
/// assert_eq!(c.point, Vec3::new(0.2, 0.2, 0.0));
/// let c = closest_point(&Vec3::new(0.5, -1.0, 0.3), &tri);
/// assert_eq!(c.region, Region::Edge(0));
/// let c = closest_point(&Vec3::new(-1.0, -1.0, 0.0), &tri);
/// assert_eq!(c.region, Region::Vertex(0));
/// ```
#[inline]
pub fn closest_point(p: &Vec3, v: &[Vec3; 3]) -> Closest {
    let bary = barycentric(p, v);
    let (s, t) = (bary[1], bary[2]);
    let (e0, e1) = (v[1] - v[0], v[2] - v[0]);
    if bary.iter().all(|&b| b >= -SNAP) {
        let small = [0, 1, 2].map(|k| bary[k] <= SNAP);
        return match small.iter().filter(|&&b| b).count() {
            0 => Closest {
                point: v[0] + e0 * s + e1 * t,
                region: Region::Face,
            },
            // The edge opposite vertex k is edge (k + 1) % 3.
            1 => {
                let k = small.iter().position(|&b| b).unwrap_or(0);
                on_edge(p, v, ((k + 1) % 3) as u8).0
            }
            _ => {
                let k = small.iter().position(|&b| !b).unwrap_or(0);
                Closest {
                    point: v[k],
                    region: Region::Vertex(k as u8),
                }
            }
        };
    }
    // Outside the face: the nearest edge (ties: the lower edge number).
    let mut best = on_edge(p, v, 0);
    for k in 1..3 {
        let c = on_edge(p, v, k);
        if c.1 < best.1 {
            best = c;
        }
    }
    best.0
}

/// The closest point of edge `k` to `p` and its squared distance, snapped to the end points
/// within [`SNAP`].
fn on_edge(p: &Vec3, v: &[Vec3; 3], k: u8) -> (Closest, Real) {
    let (a, b) = (v[k as usize], v[(k as usize + 1) % 3]);
    let e = b - a;
    let tau = ((p - a).dot(&e) / e.norm_squared()).clamp(0.0, 1.0);
    let c = if tau <= SNAP {
        Closest {
            point: a,
            region: Region::Vertex(k),
        }
    } else if tau >= 1.0 - SNAP {
        Closest {
            point: b,
            region: Region::Vertex((k + 1) % 3),
        }
    } else {
        Closest {
            point: a + e * tau,
            region: Region::Edge(k),
        }
    };
    let d2 = (p - c.point).norm_squared();
    (c, d2)
}

/// Barycentric coordinates of the projection of `p` on the plane of triangle `v`: weights
/// `(w0, w1, w2)` summing to one with `w0 v0 + w1 v1 + w2 v2` the projection.
///
/// # Examples
/// ```
/// use ballast::geom::barycentric;
/// use ballast::math::Vec3;
/// let w = barycentric(&Vec3::new(0.25, 0.5, 3.0), &[Vec3::zeros(), Vec3::x(), Vec3::y()]);
/// assert_eq!(w, [0.25, 0.25, 0.5]);
/// ```
pub fn barycentric(p: &Vec3, v: &[Vec3; 3]) -> [Real; 3] {
    let e0 = v[1] - v[0];
    let e1 = v[2] - v[0];
    let n = e0.cross(&e1);
    let n2 = n.norm_squared();
    let d = p - v[0];
    let s = d.cross(&e1).dot(&n) / n2;
    let t = e0.cross(&d).dot(&n) / n2;
    [1.0 - s - t, s, t]
}

/// Relative end band of [`segment_crosses`]: a crossing within this fraction of the segment's
/// length from its end `q` does not count (the end is on a facet that shares an edge or a
/// vertex with the one tested).
pub const SEGMENT_END: Real = 1e-9;

/// True when the segment from `p` to `q` crosses triangle `v` (its face or boundary) before
/// its last [`SEGMENT_END`] fraction; a segment parallel to the plane of the triangle does not
/// cross it.
///
/// With `d = q - p`, the point `p + t d` is in the plane of the triangle at
/// `t = n . (v0 - p) / (n . d)` (`n` the unnormalized normal `e0 x e1`); it crosses when
/// `0 <= t < 1 - SEGMENT_END` and the barycentric coordinates of `p + t d` are all >= 0.
///
/// # Examples
/// ```
/// use ballast::geom::segment_crosses;
/// use ballast::math::Vec3;
/// let tri = [Vec3::zeros(), Vec3::x(), Vec3::y()];
/// let p = Vec3::new(0.2, 0.2, 1.0);
/// assert!(segment_crosses(&p, &Vec3::new(0.2, 0.2, -1.0), &tri));
/// assert!(!segment_crosses(&p, &Vec3::new(0.2, 0.2, 0.5), &tri)); // stops short
/// assert!(!segment_crosses(&p, &Vec3::new(0.2, 0.2, 0.0), &tri)); // ends on it
/// assert!(!segment_crosses(&p, &Vec3::new(2.0, 2.0, -1.0), &tri)); // passes beside it
/// ```
pub fn segment_crosses(p: &Vec3, q: &Vec3, v: &[Vec3; 3]) -> bool {
    let d = q - p;
    let n = (v[1] - v[0]).cross(&(v[2] - v[0]));
    let nd = n.dot(&d);
    if nd == 0.0 {
        return false;
    }
    let t = n.dot(&(v[0] - p)) / nd;
    if !(0.0..1.0 - SEGMENT_END).contains(&t) {
        return false;
    }
    barycentric(&(p + d * t), v).iter().all(|&w| w >= 0.0)
}
