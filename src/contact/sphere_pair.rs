//! The geometry of two spheres (parry's `contact_ball_ball` in our terms): overlap, effective
//! radius, normal and contact point, and the effective mass of two bodies.

use crate::math::{Real, Vec3};

/// Effective mass of two bodies given as `Option` (None: infinitely heavy), kg.
#[inline]
pub(crate) fn effective_mass(a: Option<Real>, b: Option<Real>) -> Real {
    match (a, b) {
        (Some(ma), Some(mb)) => ma * mb / (ma + mb),
        (Some(m), None) | (None, Some(m)) => m,
        (None, None) => 0.0,
    }
}

/// The geometry of two balls: overlap, effective radius, normal and contact point.
#[derive(Clone, Copy, Debug)]
pub struct Geometry {
    /// `r_a + r_b - |x_b - x_a|`, m (negative: gap).
    pub overlap: Real,
    /// `r_a r_b / (r_a + r_b)`, m.
    pub radius: Real,
    /// Unit normal from a to b.
    pub normal: Vec3,
    /// `x_a + (r_a - overlap/2) n`: the middle of the overlap (or of the gap), m.
    pub point: Vec3,
}

/// The geometry of balls at `pa` (radius `ra`) and `pb` (radius `rb`).
#[inline]
pub fn geometry(pa: &Vec3, pb: &Vec3, ra: Real, rb: Real) -> Geometry {
    let d = pb - pa;
    let dist = d.norm();
    let overlap = ra + rb - dist;
    // NOTE: coincident centres have no normal; pick +z so that the run goes on and the blow-up
    // detector (overlap larger than a radius) reports the pair.
    let normal = if dist > 0.0 { d / dist } else { Vec3::z() };
    Geometry {
        overlap,
        radius: ra * rb / (ra + rb),
        normal,
        // The contact point also exists across a gap (the middle of it): the timestep modes
        // count the stiffness of contacts about to touch, with their lever arms.
        point: pa + normal * (ra - 0.5 * overlap),
    }
}

/// True when balls at `pa` and `pb` (radii `ra`, `rb`) are apart by more than round-off: the
/// force loop computes no geometry for such a pair.
#[inline]
pub fn clearly_apart(pa: &Vec3, pb: &Vec3, ra: Real, rb: Real) -> bool {
    let s = ra + rb;
    (pb - pa).norm_squared() > s * s * (1.0 + 1e-12)
}
