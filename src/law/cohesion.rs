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
//! Both act only while the pieces overlap: the contact ends at zero overlap as the model's own
//! does (JKR's necks beyond it are not built). The Coulomb limit keeps using the model's own
//! normal force. Each force is the gradient of a potential, kept as strain energy by the energy
//! books: `U = -2 pi gamma R* delta` (DMT); `U = -k_c (G(d_0) - G(d))` with
//! `G(d) = (pi/4) ((P + Q) d + P Q / d - d^3 / 3)`, `P = (r_1 + r_2)^2`, `Q = (r_1 - r_2)^2`,
//! `d_0 = r_1 + r_2` (SJKR between spheres: `A = (pi/4)(P + Q - P Q/d^2 - d^2)` integrated over
//! the overlap), which is `(pi/4) delta^2 (d_0 - Q/d - delta/3)`, and
//! `U = -k_c pi (R delta^2 - delta^3/3)` on a wall.

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
        }
    }

    /// The attraction at this overlap, N (>= 0, pulling the pieces together; 0 apart).
    pub fn force(&self, pieces: Pieces, overlap: Real) -> Real {
        if overlap <= 0.0 {
            return 0.0;
        }
        match *self {
            Cohesion::Dmt { surface_energy } => 2.0 * PI * surface_energy * pieces.radius(),
            Cohesion::Sjkr { energy_density } => energy_density * pieces.contact_area(overlap),
        }
    }

    /// The potential of the attraction at this overlap, J (<= 0; 0 apart): minus its work from
    /// first touch.
    pub fn energy(&self, pieces: Pieces, overlap: Real) -> Real {
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
        }
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
}
