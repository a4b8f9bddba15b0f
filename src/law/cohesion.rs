//! Cohesion: an attractive normal force added to a contact model's while the pieces overlap
//! (`[[contact]] cohesion = { ... }`, SPEC 5.6).
//!
//! - `dmt` (Derjaguin, Muller & Toporov 1975, in its usual simplified form): a constant
//!   attraction `2 pi gamma R*` while the pieces overlap, `gamma` the work of adhesion (J/m^2);
//!   the largest tensile force, reached as the overlap closes, is the DMT pull-off force.
//! - `sjkr` (LIGGGHTS's simplified JKR, `cohesion sjkr`): `k_c A`, with `k_c` an energy density
//!   (J/m^3) and `A` the area of the circle where the two spheres' surfaces cross: for radii
//!   `r_1`, `r_2` at centre distance `d`,
//!   `a^2 = ((r_1 + r_2)^2 - d^2) (d^2 - (r_1 - r_2)^2) / (4 d^2)`; for a sphere on a flat wall
//!   `a^2 = 2 R delta - delta^2`.
//!
//! - `jkr` (Johnson, Kendall & Roberts 1971), on the `hertz` model: the normal force becomes
//!   JKR's, `F = 4 E* a^3 / (3 R*) - sqrt(8 pi gamma E* a^3)` at the overlap
//!   `delta = a^2 / R* - sqrt(2 pi gamma a / E*)` ([`jkr`]); the attraction added to the Hertz
//!   force is the difference. A contact forms when the pieces touch (the force jumps to
//!   `-(4/3) pi gamma R*`) and holds beyond it, a neck pulled across a gap, down to the overlap
//!   `-(3/4) (pi^2 gamma^2 R* / E*^2)^(1/3)` where `d delta / d a = 0` and the neck breaks (force
//!   `-(5/6) pi gamma R*`): the hysteresis of JKR, the neck's energy lost at each separation.
//!   The largest tension, reached in the neck, is the pull-off force `(3/2) pi gamma R*`.
//!
//! DMT and SJKR act only while the pieces overlap: their contact ends at zero overlap as the
//! model's own does. The Coulomb limit keeps using the model's own (repulsive) normal force. Each force is the gradient of a potential, kept as strain energy by the energy
//! books: `U = -2 pi gamma R* delta` (DMT); `U = -k_c (G(d_0) - G(d))` with
//! `G(d) = (pi/4) ((P + Q) d + P Q / d - d^3 / 3)`, `P = (r_1 + r_2)^2`, `Q = (r_1 - r_2)^2`,
//! `d_0 = r_1 + r_2` (SJKR between spheres: `A = (pi/4)(P + Q - P Q/d^2 - d^2)` integrated over
//! the overlap), which is `(pi/4) delta^2 (d_0 - Q/d - delta/3)`, and
//! `U = -k_c pi (R delta^2 - delta^3/3)` on a wall; JKR's is its force's integral along the
//! branch, [`jkr::energy`], less Hertz's `(8/15) E* sqrt(R*) delta^(5/2)`.

use crate::math::{Real, PI};

/// An attractive normal force (one per `[[contact]]` rule).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Cohesion {
    /// DMT: `2 pi gamma R*` while overlapping.
    Dmt {
        /// Work of adhesion gamma, J/m^2.
        surface_energy: Real,
    },
    /// LIGGGHTS's SJKR: `k_c A`.
    Sjkr {
        /// Cohesion energy density k_c, J/m^3.
        energy_density: Real,
    },
    /// JKR on the Hertz model: the normal force JKR's, the neck held to its breaking overlap.
    Jkr {
        /// Work of adhesion gamma, J/m^2.
        surface_energy: Real,
        /// The effective modulus E* of the Hertz model it is added to, Pa (set per pair of
        /// materials, [`Cohesion::with_modulus`]).
        e_star: Real,
    },
}

/// The two pieces of a contact: the radii of two spheres, or one sphere on a flat wall.
#[derive(Clone, Copy, Debug)]
pub enum Pieces {
    /// Two spheres of these radii, m.
    Spheres(Real, Real),
    /// A sphere of this radius on a wall, m.
    Wall(Real),
}

impl Pieces {
    /// The effective radius R*, m.
    fn radius(&self) -> Real {
        match *self {
            Pieces::Spheres(a, b) => a * b / (a + b),
            Pieces::Wall(r) => r,
        }
    }

    /// The area of the circle where the surfaces cross at this overlap, m^2 (0 apart).
    pub fn contact_area(&self, overlap: Real) -> Real {
        if overlap <= 0.0 {
            return 0.0;
        }
        match *self {
            Pieces::Spheres(a, b) => {
                // (pi/4)(P + Q - P Q/d^2 - d^2) with P - d^2 = 2 s delta - delta^2 taken out,
                // so that nothing cancels at small overlaps
                let (s, d) = (a + b, a + b - overlap);
                let q = (a - b) * (a - b);
                (0.25 * PI * (2.0 * s - overlap) * overlap * (1.0 - q / (d * d))).max(0.0)
            }
            Pieces::Wall(r) => PI * (2.0 * r * overlap - overlap * overlap),
        }
    }
}

impl Cohesion {
    /// The case-file name.
    pub fn name(&self) -> &'static str {
        match self {
            Cohesion::Dmt { .. } => "dmt",
            Cohesion::Sjkr { .. } => "sjkr",
            Cohesion::Jkr { .. } => "jkr",
        }
    }

    /// This cohesion for a pair of materials whose Hertz model has the effective modulus
    /// `e_star` (Pa): JKR takes it (the case reader allows JKR on `hertz` only); the others do
    /// not depend on it.
    pub fn with_modulus(self, e_star: Real) -> Self {
        match self {
            Cohesion::Jkr { surface_energy, .. } => Cohesion::Jkr {
                surface_energy,
                e_star,
            },
            _ => self,
        }
    }

    /// The overlap down to which a contact that exists holds (m, <= 0): JKR's neck breaks at
    /// [`jkr::breaking_overlap`]; the others end at zero overlap.
    pub fn reach(&self, pieces: Pieces) -> Real {
        self.jkr_of(pieces)
            .map_or(0.0, |(w, e_star, r)| jkr::breaking_overlap(w, e_star, r))
    }

    /// JKR's constants for these pieces, `(w, E*, R*)` (None for the other kinds).
    fn jkr_of(&self, pieces: Pieces) -> Option<(Real, Real, Real)> {
        match *self {
            Cohesion::Jkr {
                surface_energy,
                e_star,
            } => Some((surface_energy, e_star, pieces.radius())),
            _ => None,
        }
    }

    /// The attraction at this overlap, N (>= 0, pulling the pieces together; 0 apart): of a
    /// contact that exists (JKR's neck holds beyond touching, [`Cohesion::reach`]).
    pub fn force(&self, pieces: Pieces, overlap: Real) -> Real {
        if let Some((w, e_star, r)) = self.jkr_of(pieces) {
            if overlap <= jkr::breaking_overlap(w, e_star, r) {
                return 0.0;
            }
            let d = overlap.max(0.0);
            let hertz = 4.0 / 3.0 * e_star * r.sqrt() * d * d.sqrt();
            return hertz - jkr::force(w, e_star, r, overlap);
        }
        if overlap <= 0.0 {
            return 0.0;
        }
        match *self {
            Cohesion::Dmt { surface_energy } => 2.0 * PI * surface_energy * pieces.radius(),
            Cohesion::Sjkr { energy_density } => energy_density * pieces.contact_area(overlap),
            Cohesion::Jkr { .. } => unreachable!("handled above"),
        }
    }

    /// The potential of the attraction at this overlap, J (<= 0; 0 apart): minus its work from
    /// first touch.
    pub fn energy(&self, pieces: Pieces, overlap: Real) -> Real {
        if let Some((w, e_star, r)) = self.jkr_of(pieces) {
            if overlap <= jkr::breaking_overlap(w, e_star, r) {
                return 0.0;
            }
            let d = overlap.max(0.0);
            let hertz = 8.0 / 15.0 * e_star * r.sqrt() * d * d * d.sqrt();
            return jkr::energy(w, e_star, r, overlap) - hertz;
        }
        if overlap <= 0.0 {
            return 0.0;
        }
        match (*self, pieces) {
            (Cohesion::Dmt { .. }, _) => -self.force(pieces, overlap) * overlap,
            (Cohesion::Sjkr { energy_density }, Pieces::Wall(r)) => {
                -energy_density * PI * (r * overlap * overlap - overlap * overlap * overlap / 3.0)
            }
            (Cohesion::Sjkr { energy_density }, Pieces::Spheres(a, b)) => {
                // G(d_0) - G(d) = (pi/4) delta^2 (s - Q/d - delta/3), s = d_0 = r_1 + r_2 (the
                // difference worked out by hand: nothing cancels at small overlaps)
                let (s, d) = (a + b, a + b - overlap);
                let q = (a - b) * (a - b);
                -energy_density * 0.25 * PI * overlap * overlap * (s - q / d - overlap / 3.0)
            }
            (Cohesion::Jkr { .. }, _) => unreachable!("handled above"),
        }
    }
}

/// JKR's relations between overlap, contact radius and force (Johnson, Kendall & Roberts 1971;
/// Johnson, *Contact Mechanics*, 1985, 5.5), for the work of adhesion `w` (J/m^2), the effective
/// modulus `E*` and radius `R*`.
///
/// In the scales `A = (pi w R*^2 / E*)^(1/3)` (a contact radius), `l = A^2 / R*` (an overlap)
/// and `F_0 = pi w R*` (a force), with the contact radius `a = A t^2 / 2`, the relations
/// `delta = a^2/R* - sqrt(2 pi w a / E*)` and `F = 4 E* a^3/(3 R*) - sqrt(8 pi w E* a^3)` become
/// `delta / l = (t^4 - 4 t) / 4` and `F / F_0 = t^6 / 6 - t^3`. The stable branch is `t >= 1`
/// (`d delta / d t = t^3 - 1`): touching (`delta = 0`) at `t^3 = 4`, force `-(4/3) F_0`; the
/// largest tension at `t^3 = 3`, `-(3/2) F_0` (the pull-off force); the neck's end at `t = 1`,
/// `delta = -(3/4) l`, force `-(5/6) F_0`. The force's integral from touching,
/// `int F d delta = F_0 l (G(t) - G(4^(1/3)))` with `G(t) = t^10/60 - t^7/6 + t^4/4` (since
/// `dG/dt = (t^6/6 - t^3)(t^3 - 1)`; `G(4^(1/3)) = -(3/5) 4^(1/3)`, `G(1) = 1/10`), is the
/// energy the contact holds; at the neck's end it holds `(1/10 + (3/5) 4^(1/3)) F_0 l`, lost
/// when the neck breaks.
pub mod jkr {
    use crate::math::{Real, PI};

    /// The scales `(A, l, F_0)`: contact radius, overlap (m) and force (N).
    pub fn scales(w: Real, e_star: Real, r: Real) -> (Real, Real, Real) {
        let a = (PI * w * r * r / e_star).cbrt();
        (a, a * a / r, PI * w * r)
    }

    /// The overlap at which the neck breaks, `-(3/4) l`, m.
    pub fn breaking_overlap(w: Real, e_star: Real, r: Real) -> Real {
        -0.75 * scales(w, e_star, r).1
    }

    /// The branch parameter `t >= 1` of the overlap `delta` (>= `-(3/4) l`): the root of
    /// `t^4 - 4 t - 4 delta / l = 0`, by Newton's method from above (the function is convex
    /// and increasing for `t >= 1`, so the iterates fall monotonically to the root; stopped when
    /// they no longer fall).
    pub fn branch(delta_scaled: Real) -> Real {
        let target = 4.0 * delta_scaled.max(-0.75);
        // t0^4 - 4 t0 >= t0^4 / 2 >= target for t0 >= 2 and t0^4 >= 2 target: above the root
        let mut t = (2.0 * target.max(0.0)).sqrt().sqrt().max(2.0);
        for _ in 0..200 {
            let f = t * t * t * t - 4.0 * t - target;
            let slope = 4.0 * (t * t * t - 1.0);
            if slope <= 0.0 {
                break;
            }
            let next = t - f / slope;
            // (also stops on a NaN)
            if next.partial_cmp(&t) != Some(std::cmp::Ordering::Less) {
                break;
            }
            t = next.max(1.0);
        }
        t
    }

    /// JKR's normal force at the overlap `delta` (on the branch; negative: tension), N.
    pub fn force(w: Real, e_star: Real, r: Real, delta: Real) -> Real {
        let (_, l, f0) = scales(w, e_star, r);
        let t3 = branch(delta / l).powi(3);
        f0 * t3 * (t3 / 6.0 - 1.0)
    }

    /// The energy the contact holds at the overlap `delta`: JKR's force integrated from
    /// touching, J.
    pub fn energy(w: Real, e_star: Real, r: Real, delta: Real) -> Real {
        let (_, l, f0) = scales(w, e_star, r);
        let t = branch(delta / l);
        let t4 = t * t * t * t;
        let g = t4 * (t4 * t * t / 60.0 - t * t * t / 6.0 + 0.25);
        f0 * l * (g + 0.6 * (4.0 as Real).cbrt())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The SJKR area between spheres against the circle of intersection built another way: the
    /// plane where the two spheres' surfaces cross lies at x from the first centre with
    /// r_1^2 - x^2 = r_2^2 - (d - x)^2; the radius there is sqrt(r_1^2 - x^2).
    #[test]
    fn the_contact_area_is_the_circle_where_the_spheres_cross() {
        for &(a, b, overlap) in &[(0.01, 0.01, 1e-4), (0.01, 0.003, 2e-4), (0.002, 0.05, 1e-5)] {
            let d: Real = a + b - overlap;
            let x = (a * a - b * b + d * d) / (2.0 * d);
            let by_hand = PI * (a * a - x * x);
            let area = Pieces::Spheres(a, b).contact_area(overlap);
            assert!((area / by_hand - 1.0).abs() < 1e-9, "{area} {by_hand}");
        }
        // a wall: the cap's base, pi (R^2 - (R - delta)^2)
        let (r, d) = (0.01, 1e-4);
        let cap = PI * (r * r - (r - d) * (r - d));
        assert!((Pieces::Wall(r).contact_area(d) / cap - 1.0).abs() < 1e-12);
    }

    /// Each potential's derivative is minus the attraction (central differences).
    #[test]
    fn the_potentials_are_the_forces_integrated() {
        let laws = [
            Cohesion::Dmt {
                surface_energy: 0.05,
            },
            Cohesion::Sjkr {
                energy_density: 3e5,
            },
            Cohesion::Jkr {
                surface_energy: 0.05,
                e_star: 1e7,
            },
        ];
        for law in laws {
            for pieces in [
                Pieces::Spheres(0.01, 0.004),
                Pieces::Wall(0.01),
                Pieces::Spheres(0.005, 0.005),
            ] {
                for &overlap in &[1e-6, 3e-5, 2e-4] {
                    let h = overlap * 1e-4;
                    let slope = (law.energy(pieces, overlap + h) - law.energy(pieces, overlap - h))
                        / (2.0 * h);
                    let f = law.force(pieces, overlap);
                    assert!(
                        (slope + f).abs() <= 1e-6 * f,
                        "{law:?} {pieces:?} {overlap}: {slope} {f}"
                    );
                }
            }
        }
    }

    /// JKR's force and overlap at a contact radius `a`, written in JKR's own form (Johnson 1985,
    /// eqs. 5.48 and 5.49 with `P_1 = 4 E* a^3 / (3 R)`): the reference for [`jkr`].
    fn jkr_by_radius(w: Real, e: Real, r: Real, a: Real) -> (Real, Real) {
        let delta = a * a / r - (2.0 * PI * w * a / e).sqrt();
        let force = 4.0 * e * a * a * a / (3.0 * r) - (8.0 * PI * w * e * a * a * a).sqrt();
        (delta, force)
    }

    /// Along the whole stable branch, from the neck's end `a^3 = pi w R^2 / (8 E*)` to a
    /// contact five times the size of the touching one, the force at the overlap of a contact
    /// radius is JKR's force there.
    #[test]
    fn the_jkr_force_is_the_force_at_the_contact_radius_of_the_overlap() {
        for &(w, e, r) in &[(0.1, 5.333e6, 0.005), (0.05, 3e10, 0.002), (1.0, 1e6, 1e-5)] {
            let f0 = PI * w * r;
            let a_end = (PI * w * r * r / (8.0 * e)).cbrt();
            for k in 0..=400 {
                let a = a_end * (1.0 + 0.05 * k as Real);
                let (delta, force) = jkr_by_radius(w, e, r, a);
                let ours = jkr::force(w, e, r, delta);
                // (near the neck's end the overlap changes only at second order in a: the
                // force there is known to sqrt(round-off) of the overlap, not better)
                let tol = if k < 4 { 1e-6 } else { 1e-11 };
                assert!(
                    (ours - force).abs() <= tol * f0,
                    "{w} {e} {r} a={a}: {ours} {force}"
                );
            }
        }
    }

    /// The landmarks of the branch: touching (-(4/3) F_0 at zero overlap), the pull-off force
    /// (the largest tension, -(3/2) F_0), the neck's end (-(5/6) F_0 at -(3/4) l).
    #[test]
    fn the_jkr_branch_has_its_landmarks() {
        let (w, e, r) = (0.1, 5.333e6, 0.005);
        let (_, l, f0) = jkr::scales(w, e, r);
        assert!((jkr::force(w, e, r, 0.0) / f0 + 4.0 / 3.0).abs() < 1e-14);
        let end = jkr::breaking_overlap(w, e, r);
        assert!((end / l + 0.75).abs() < 1e-15);
        // (at the neck's end the overlap is stationary in t, a double root: t and the force
        // there are known to the square root of the overlap's round-off)
        assert!((jkr::force(w, e, r, end) / f0 + 5.0 / 6.0).abs() < 1e-7);
        let lowest = (0..=100_000)
            .map(|k| jkr::force(w, e, r, end + (0.75 * l) * k as Real / 100_000.0))
            .fold(Real::INFINITY, Real::min);
        assert!((lowest / f0 + 1.5).abs() < 1e-9, "{}", lowest / f0);
        // the energy lost when the neck breaks: (1/10 + (3/5) 4^(1/3)) F_0 l
        let held = jkr::energy(w, e, r, end);
        assert!((held / (f0 * l) - (0.1 + 0.6 * (4.0 as Real).cbrt())).abs() < 1e-12);
        // (the energy is stationary there: dG/dt = 0 at t = 1, so it is exact to round-off)
    }

    /// JKR's cohesion holds across the neck: its potential is its force integrated there too,
    /// and the contact ends (force and potential 0) where the neck breaks.
    #[test]
    fn the_jkr_neck_holds_to_its_end() {
        let law = Cohesion::Jkr {
            surface_energy: 0.1,
            e_star: 5.333e6,
        };
        for pieces in [Pieces::Wall(0.005), Pieces::Spheres(0.005, 0.002)] {
            let end = law.reach(pieces);
            assert!(end < 0.0);
            for &x in &[0.9, 0.5, 0.1] {
                let overlap = end * x;
                let h = -end * 1e-5;
                let slope =
                    (law.energy(pieces, overlap + h) - law.energy(pieces, overlap - h)) / (2.0 * h);
                let f = law.force(pieces, overlap);
                assert!(f > 0.0 && (slope + f).abs() <= 1e-6 * f, "{slope} {f}");
            }
            assert_eq!(law.force(pieces, end * 1.000001), 0.0);
            assert_eq!(law.energy(pieces, end * 1.000001), 0.0);
        }
    }
}
