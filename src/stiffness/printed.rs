//! The contact stiffness matrix exactly as seed 000 prints it (eqs. 15-22 in 3D, 26-27 in 2D),
//! typos included, so that tests and the report can compare every printed entry with the
//! derivation of [`super::contact_matrix_3d`] and [`super::contact_matrix_2d`].
//!
//! The seed lists the lower triangle column by column; an entry may use entries of earlier
//! columns, and an upper-triangle reference `k_{i,j}` (`i < j`) means `k_{j,i}` (the matrix is
//! symmetric, eq. 14). Indices below are the seed's, 1-based.
//!
//! Transcription choices: eq. 26 prints `k_s (n_{x1} n_{x1} + k_n n_{x3} n_{x3}` with an
//! unclosed parenthesis; it is read as `k_s n_{x1} n_{x1} + k_n n_{x3} n_{x3}`, the reading its own
//! second equality (`= k_s n_{y3}^2 + k_n n_{x3}^2`) confirms (the other reading multiplies two
//! stiffnesses). The same holds for `k_{2,1}` and `k_{2,2}` of eq. 26.

use super::contact::{Matrix12, Matrix6, Triad};
use crate::law::ContactStiffness;
use crate::math::{Real, Vec3};
use nalgebra::Vector2;

/// A lower triangle filled column by column, read symmetrically, with 1-based indices.
struct Printed<const N: usize> {
    k: [[Real; N]; N],
}

impl<const N: usize> Printed<N> {
    fn get(&self, i: usize, j: usize) -> Real {
        let (r, c) = if i >= j { (i, j) } else { (j, i) };
        self.k[r - 1][c - 1]
    }
    fn set(&mut self, i: usize, j: usize, v: Real) {
        assert!(i >= j, "the seed prints the lower triangle only");
        self.k[i - 1][j - 1] = v;
    }
    fn full(&self) -> [[Real; N]; N] {
        let mut m = [[0.0; N]; N];
        for (i, row) in m.iter_mut().enumerate() {
            for (j, v) in row.iter_mut().enumerate() {
                *v = self.get(i + 1, j + 1);
            }
        }
        m
    }
}

/// The seed's 3D matrix (eqs. 15-22) for the triad `t`, stiffnesses `s` and lever arms
/// `R_a = x_c - x_a`, `R_b = x_c - x_b`.
pub fn printed_matrix_3d(s: &ContactStiffness, t: &Triad, ra: &Vec3, rb: &Vec3) -> Matrix12 {
    let (kn, ks, knt, kst) = (s.kn, s.ks, s.kn_rot, s.ks_rot);
    // n(c, m): component c (0 = x, 1 = y, 2 = z) of n_m (m = 1, 2, 3).
    let n = |c: usize, m: usize| [t.n1, t.n2, t.n3][m - 1][c];
    let (x, y, z) = (0, 1, 2);
    let (rxa, rya, rza) = (ra.x, ra.y, ra.z);
    let (rxb, ryb, rzb) = (rb.x, rb.y, rb.z);
    let mut p = Printed::<12> { k: [[0.0; 12]; 12] };
    // Shear/normal combination of the triad, as the seed writes it for translations and rotations.
    let tr =
        |i: usize, j: usize| ks * (n(i, 1) * n(j, 1) + n(i, 2) * n(j, 2)) + kn * n(i, 3) * n(j, 3);
    let rot = |i: usize, j: usize| {
        kst * (n(i, 1) * n(j, 1) + n(i, 2) * n(j, 2)) + knt * n(i, 3) * n(j, 3)
    };

    // Eq. 15, column 1.
    p.set(1, 1, tr(x, x));
    p.set(2, 1, tr(y, x));
    p.set(3, 1, tr(z, x));
    p.set(4, 1, rya * p.get(3, 1) - rza * p.get(2, 1));
    p.set(5, 1, rza * p.get(1, 1) - rxa * p.get(3, 1));
    p.set(6, 1, rxa * p.get(2, 1) - rya * p.get(1, 1));
    p.set(7, 1, -p.get(1, 1));
    p.set(8, 1, -p.get(2, 1));
    p.set(9, 1, -p.get(3, 1));
    p.set(10, 1, -ryb * p.get(3, 1) + rzb * p.get(2, 1));
    p.set(11, 1, -rzb * p.get(1, 1) + rxb * p.get(3, 1));
    p.set(12, 1, -rxb * p.get(2, 1) + ryb * p.get(1, 1));
    // Eq. 16, column 2.
    p.set(2, 2, tr(y, y));
    p.set(3, 2, tr(z, y));
    p.set(4, 2, rya * p.get(3, 2) - rza * p.get(2, 2));
    p.set(5, 2, rza * p.get(1, 2) - rxa * p.get(3, 2));
    p.set(6, 2, rxa * p.get(2, 2) - rya * p.get(1, 2));
    p.set(7, 2, -p.get(1, 2));
    p.set(8, 2, -p.get(2, 2));
    p.set(9, 2, -p.get(3, 2));
    p.set(10, 2, -ryb * p.get(3, 2) + rzb * p.get(2, 2));
    p.set(11, 2, -rzb * p.get(1, 2) + rxb * p.get(3, 2));
    p.set(12, 2, -rxb * p.get(2, 2) + ryb * p.get(1, 2));
    // Eq. 17, column 3.
    p.set(3, 3, tr(z, z));
    p.set(4, 3, rya * p.get(3, 3) - rza * p.get(2, 3));
    p.set(5, 3, rza * p.get(1, 3) - rxa * p.get(3, 3));
    p.set(6, 3, rxa * p.get(2, 3) - rya * p.get(1, 3));
    p.set(7, 3, -p.get(1, 3));
    p.set(8, 3, -p.get(2, 3));
    p.set(9, 3, -p.get(3, 3));
    p.set(10, 3, -ryb * p.get(3, 3) + rzb * p.get(2, 3));
    p.set(11, 3, -rzb * p.get(1, 3) + rxb * p.get(3, 3));
    p.set(12, 3, -rxb * p.get(2, 3) + ryb * p.get(1, 3));
    // Eq. 18, column 4.
    p.set(4, 4, rot(x, x) + (rya * p.get(3, 4) - rza * p.get(2, 4)));
    p.set(5, 4, rot(y, x) + (rza * p.get(1, 4) - rxa * p.get(3, 4)));
    p.set(6, 4, rot(z, x) + (rxa * p.get(2, 4) - rya * p.get(1, 4)));
    p.set(7, 4, -p.get(1, 4));
    p.set(8, 4, -p.get(2, 4));
    p.set(9, 4, -p.get(3, 4));
    p.set(10, 4, -rot(x, x) + (-ryb * p.get(3, 4) + rzb * p.get(2, 4)));
    p.set(11, 4, -rot(y, x) + (-rzb * p.get(1, 4) + rxb * p.get(3, 4)));
    p.set(12, 4, -rot(z, x) + (-rxb * p.get(2, 4) + ryb * p.get(1, 4)));
    // Eq. 19, column 5.
    p.set(5, 5, rot(y, y) + (rza * p.get(1, 5) - rxa * p.get(3, 5)));
    p.set(6, 5, rot(z, y) + (rxa * p.get(2, 5) - rya * p.get(1, 5)));
    p.set(7, 5, -p.get(1, 5));
    p.set(8, 5, -p.get(2, 5));
    p.set(9, 5, -p.get(3, 5));
    p.set(10, 5, -rot(x, y) + (-ryb * p.get(3, 5) + rzb * p.get(2, 5)));
    p.set(11, 5, -rot(y, y) + (-rzb * p.get(1, 5) + rxb * p.get(3, 5)));
    p.set(12, 5, -rot(z, y) + (-rxb * p.get(2, 5) + ryb * p.get(1, 5)));
    // Eq. 20, column 6.
    p.set(6, 6, rot(z, z) + (rxa * p.get(2, 6) - rya * p.get(1, 6)));
    p.set(7, 6, -p.get(1, 6));
    p.set(8, 6, -p.get(2, 6));
    p.set(9, 6, -p.get(3, 6));
    p.set(10, 6, -rot(x, z) + (-ryb * p.get(3, 6) + rzb * p.get(2, 6)));
    p.set(11, 6, -rot(y, z) + (-rzb * p.get(1, 6) + rxb * p.get(3, 6)));
    p.set(12, 6, -rot(z, z) + (-rxb * p.get(2, 6) + ryb * p.get(1, 6)));
    // Eq. 21, columns 7 to 9.
    p.set(7, 7, p.get(1, 1));
    p.set(8, 7, p.get(2, 1));
    p.set(9, 7, p.get(3, 1));
    p.set(10, 7, -ryb * p.get(3, 7) + rzb * p.get(2, 7));
    p.set(11, 7, -rzb * p.get(1, 7) + rxb * p.get(3, 7));
    p.set(12, 7, -rxb * p.get(2, 7) + ryb * p.get(1, 7));
    p.set(8, 8, p.get(2, 2));
    p.set(9, 8, p.get(3, 2));
    p.set(10, 8, -ryb * p.get(3, 8) + rzb * p.get(2, 8));
    p.set(11, 8, -rzb * p.get(1, 8) + rxb * p.get(3, 8));
    p.set(12, 8, -rxb * p.get(2, 8) + ryb * p.get(1, 8));
    p.set(9, 9, p.get(3, 3));
    p.set(10, 9, -ryb * p.get(3, 9) + rzb * p.get(2, 9));
    p.set(11, 9, -rzb * p.get(1, 9) + rxb * p.get(3, 9));
    p.set(12, 9, -rxb * p.get(2, 9) + ryb * p.get(1, 9));
    // Eq. 22, columns 10 to 12.
    p.set(
        10,
        10,
        rot(x, x) + (-ryb * p.get(3, 10) + rzb * p.get(2, 10)),
    );
    p.set(
        11,
        10,
        rot(y, x) + (-rzb * p.get(1, 10) + rxb * p.get(3, 10)),
    );
    p.set(
        12,
        10,
        rot(z, x) + (-rxb * p.get(2, 10) + ryb * p.get(1, 10)),
    );
    p.set(
        11,
        11,
        rot(y, y) + (-rzb * p.get(1, 11) + rxb * p.get(3, 11)),
    );
    p.set(
        12,
        11,
        rot(z, y) + (-rxb * p.get(2, 11) + ryb * p.get(1, 11)),
    );
    p.set(
        12,
        12,
        rot(z, z) + (-rxb * p.get(2, 12) + ryb * p.get(1, 12)),
    );
    let f = p.full();
    Matrix12::from_fn(|i, j| f[i][j])
}

/// The seed's 2D matrix (eqs. 26-27) with the triad of eq. 24 built from the in-plane normal
/// `n3`: `n1 = (-n_y3, n_x3)`.
pub fn printed_matrix_2d(
    s: &ContactStiffness,
    n3: &Vector2<Real>,
    ra: &Vector2<Real>,
    rb: &Vector2<Real>,
) -> Matrix6 {
    matrix_2d(s, n3, ra, rb, false)
}

/// The seed's 2D matrix with the one erratum found corrected: `k(6,1) = -R_xb k(2,1) +
/// R_yb k(1,1)` (printed with `+R_xb`). Every other printed entry, including `k(6,6)` which
/// reads `k(1,6)`, is then right.
pub fn corrected_matrix_2d(
    s: &ContactStiffness,
    n3: &Vector2<Real>,
    ra: &Vector2<Real>,
    rb: &Vector2<Real>,
) -> Matrix6 {
    matrix_2d(s, n3, ra, rb, true)
}

fn matrix_2d(
    s: &ContactStiffness,
    n3: &Vector2<Real>,
    ra: &Vector2<Real>,
    rb: &Vector2<Real>,
    corrected: bool,
) -> Matrix6 {
    let (kn, ks, kst) = (s.kn, s.ks, s.ks_rot);
    let (nx3, ny3) = (n3.x, n3.y);
    let (nx1, ny1) = (-ny3, nx3);
    let (rxa, rya, rxb, ryb) = (ra.x, ra.y, rb.x, rb.y);
    let mut p = Printed::<6> { k: [[0.0; 6]; 6] };
    // Eq. 26, columns 1 and 2.
    p.set(1, 1, ks * nx1 * nx1 + kn * nx3 * nx3);
    p.set(2, 1, ks * ny1 * nx1 + kn * ny3 * nx3);
    p.set(3, 1, rxa * p.get(2, 1) - rya * p.get(1, 1));
    p.set(4, 1, -p.get(1, 1));
    p.set(5, 1, -p.get(2, 1));
    if corrected {
        p.set(6, 1, -rxb * p.get(2, 1) + ryb * p.get(1, 1));
    } else {
        // As printed (erratum: the sign of the first term).
        p.set(6, 1, rxb * p.get(2, 1) + ryb * p.get(1, 1));
    }
    p.set(2, 2, ks * ny1 * ny1 + kn * ny3 * ny3);
    p.set(3, 2, rxa * p.get(2, 2) - rya * p.get(1, 2));
    p.set(4, 2, -p.get(1, 2));
    p.set(5, 2, -p.get(2, 2));
    p.set(6, 2, -rxb * p.get(2, 2) + ryb * p.get(1, 2));
    // Eq. 27, columns 3 to 6.
    p.set(3, 3, kst + (rxa * p.get(2, 3) - rya * p.get(1, 3)));
    p.set(4, 3, -p.get(1, 3));
    p.set(5, 3, -p.get(2, 3));
    p.set(6, 3, -kst + (-rxb * p.get(2, 3) + ryb * p.get(1, 3)));
    p.set(4, 4, p.get(1, 1));
    p.set(5, 4, p.get(2, 1));
    p.set(6, 4, -rxb * p.get(2, 4) + ryb * p.get(1, 4));
    p.set(5, 5, p.get(2, 2));
    p.set(6, 5, -rxb * p.get(2, 5) + ryb * p.get(1, 5));
    p.set(6, 6, kst + (-rxb * p.get(2, 6) + ryb * p.get(1, 6)));
    let f = p.full();
    Matrix6::from_fn(|i, j| f[i][j])
}

/// Which printed entry is where: `(equation, row, column)` for every lower-triangle entry
/// (1-based, as printed), 3D.
pub fn printed_entries_3d() -> Vec<(u32, usize, usize)> {
    let eq = |j: usize| match j {
        1 => 15,
        2 => 16,
        3 => 17,
        4 => 18,
        5 => 19,
        6 => 20,
        7..=9 => 21,
        _ => 22,
    };
    (1..=12)
        .flat_map(|j| (j..=12).map(move |i| (eq(j), i, j)))
        .collect()
}

/// As [`printed_entries_3d`], 2D (eqs. 26-27).
pub fn printed_entries_2d() -> Vec<(u32, usize, usize)> {
    (1..=6)
        .flat_map(|j| (j..=6).map(move |i| (if j <= 2 { 26 } else { 27 }, i, j)))
        .collect()
}
