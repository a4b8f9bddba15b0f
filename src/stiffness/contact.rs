//! The stiffness matrix of one contact, derived from first principles (seed 000, eqs. 12-27).
//!
//! ## Derivation (3D)
//! Node `i` (a body's centre of mass) has the generalized displacement
//! `d_i = (u_i, v_i, w_i, theta_xi, theta_yi, theta_zi)` (eq. 12). For small displacements the
//! material point of body `i` at the contact point `x_c` moves by `u_i + theta_i x R_i`, with the
//! lever arm `R_i = x_c - x_i`. The relative displacement and rotation at the contact are
//!
//! ```text
//! delta = (u_b + theta_b x R_b) - (u_a + theta_a x R_a)      (b relative to a)
//! phi   = theta_b - theta_a
//! ```
//!
//! In the triad `(n1, n2, n3)` (`n3` the contact normal) the contact resists `delta` with
//! `kn` along `n3` and `ks` along `n1`, `n2`, and `phi` with the twisting stiffness `kn_theta`
//! about `n3` and the bending stiffness `ks_theta` about `n1`, `n2`:
//!
//! ```text
//! S   = ks (n1 n1^T + n2 n2^T) + kn n3 n3^T                (translational, 3x3)
//! S_r = ks_theta (n1 n1^T + n2 n2^T) + kn_theta n3 n3^T    (rotational, 3x3)
//! E   = 1/2 delta^T S delta + 1/2 phi^T S_r phi            (elastic energy)
//! ```
//!
//! Writing `theta x R = -[R]x theta` with the cross-product matrix `[R]x`, `(delta, phi) = B d`
//! with
//!
//! ```text
//!        u_a      theta_a     u_b     theta_b
//! B = [  -I       [R_a]x      I       -[R_b]x ]   (delta)
//!     [   0        -I         0         I     ]   (phi)
//! ```
//!
//! and the stiffness matrix is `K = B^T diag(S, S_r) B` (the Hessian of `E`): the generalized
//! forces that hold the nodes displaced by `d` are `r = K d` (eq. 13). `K` is symmetric and
//! positive semi-definite by construction, its rank is the number of positive stiffnesses counted
//! with multiplicity (kn, ks twice, kn_theta, ks_theta twice) because `B` has full row rank, and
//! rigid motions lie in its null space when both lever arms reach the same point
//! (`x_a + R_a = x_b + R_b`): a rigid rotation `theta` about `p` moves node `i` by
//! `theta x (x_i - p)`, so `delta = theta x (x_b + R_b - x_a - R_a) = 0`.
//!
//! ## 2D
//! Disks in the xy-plane keep `(u, v, theta_z)` per node. The triad of eq. 24 has `n3` and `n1`
//! in the plane and `n2 = z`; `theta_z` is a rotation about `n2`, so the 2D matrix holds `kn`,
//! `ks` and the *bending* stiffness `ks_theta`. It is the 3D matrix restricted to those DOFs.

use crate::law::ContactStiffness;
use crate::math::{Real, Vec3};
use nalgebra::{Matrix3, SMatrix, Vector2};

/// A 12x12 contact stiffness matrix (3D), rows/columns `(u, v, w, theta_x, theta_y, theta_z)` of
/// node a then node b.
pub type Matrix12 = SMatrix<Real, 12, 12>;
/// A 6x6 contact stiffness matrix (2D), rows/columns `(u, v, theta_z)` of node a then node b.
pub type Matrix6 = SMatrix<Real, 6, 6>;

/// A right-handed unit-vector triad `(n1, n2, n3)` with `n3` along the contact normal.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Triad {
    /// First shear direction.
    pub n1: Vec3,
    /// Second shear direction, `n3 x n1`.
    pub n2: Vec3,
    /// The contact normal.
    pub n3: Vec3,
}

impl Triad {
    /// Completes a unit normal into a right-handed triad (`n1 x n2 = n3`), deterministically.
    ///
    /// # Examples
    /// ```
    /// use ballast::stiffness::Triad;
    /// use ballast::math::Vec3;
    /// let t = Triad::from_normal(&Vec3::new(1.0, 2.0, 2.0).normalize());
    /// assert!((t.n1.cross(&t.n2) - t.n3).norm() < 1e-15);
    /// ```
    pub fn from_normal(n3: &Vec3) -> Self {
        // NOTE: cross with the axis least aligned with n3, so that n1 is never ill-conditioned.
        let a = n3.iamin();
        let mut e = Vec3::zeros();
        e[a] = 1.0;
        let n1 = e.cross(n3).normalize();
        let n2 = n3.cross(&n1);
        Triad { n1, n2, n3: *n3 }
    }
}

/// The cross-product matrix `[r]x`: `[r]x v = r x v`.
pub fn cross_matrix(r: &Vec3) -> Matrix3<Real> {
    Matrix3::new(0.0, -r.z, r.y, r.z, 0.0, -r.x, -r.y, r.x, 0.0)
}

/// The 12x12 stiffness matrix of a contact with normal `n` (unit, from a to b) and lever arms
/// `r_a = x_c - x_a`, `r_b = x_c - x_b`, as `B^T diag(S, S_r) B` (module docs).
///
/// # Examples
/// A rigid translation produces no force:
/// ```
/// use ballast::stiffness::{contact_matrix_3d, ContactStiffness};
/// use ballast::math::Vec3;
/// let s = ContactStiffness { kn: 1e6, ks: 5e5, kn_rot: 0.0, ks_rot: 0.0 };
/// let n = Vec3::new(0.0, 0.6, 0.8);
/// let k = contact_matrix_3d(&s, &n, &(n * 0.01), &(-n * 0.01));
/// let d = nalgebra::SVector::<f64, 12>::from_fn(|i, _| if i % 6 < 3 { 1.0 } else { 0.0 });
/// assert!((k * d).norm() < 1e-9);
/// ```
pub fn contact_matrix_3d(s: &ContactStiffness, n: &Vec3, r_a: &Vec3, r_b: &Vec3) -> Matrix12 {
    let mut b = SMatrix::<Real, 6, 12>::zeros();
    let id = Matrix3::<Real>::identity();
    b.fixed_view_mut::<3, 3>(0, 0).copy_from(&(-id));
    b.fixed_view_mut::<3, 3>(0, 3).copy_from(&cross_matrix(r_a));
    b.fixed_view_mut::<3, 3>(0, 6).copy_from(&id);
    b.fixed_view_mut::<3, 3>(0, 9)
        .copy_from(&(-cross_matrix(r_b)));
    b.fixed_view_mut::<3, 3>(3, 3).copy_from(&(-id));
    b.fixed_view_mut::<3, 3>(3, 9).copy_from(&id);
    let mut d = SMatrix::<Real, 6, 6>::zeros();
    d.fixed_view_mut::<3, 3>(0, 0)
        .copy_from(&s.translational(n));
    d.fixed_view_mut::<3, 3>(3, 3).copy_from(&s.rotational(n));
    b.transpose() * d * b
}

/// The entries of [`contact_matrix_3d`] by column (`[column][row]`), from the products
/// `T = B^T D` and `K = T B` with the terms that are not zero by construction only, each sum in
/// the products' order: the same values (a zero entry may differ in its sign), at a fraction of
/// the cost (the bound's row sums take every entry of every contact each cycle). Each column
/// of `K` is a sum of columns of `T`, twelve rows at a time.
pub fn contact_columns_3d(
    s: &ContactStiffness,
    n: &Vec3,
    r_a: &Vec3,
    r_b: &Vec3,
) -> [[Real; 12]; 12] {
    let (st, sr) = (s.translational(n), s.rotational(n));
    // B's blocks on theta_a and theta_b in its translational rows: [r_a]x and -[r_b]x
    let (ca, cb) = (cross_matrix(r_a), -cross_matrix(r_b));
    // T = B^T D by column (a column of D, over the twelve DOFs)
    let mut t = [[0.0; 12]; 6];
    for l in 0..3 {
        for i in 0..3 {
            let arm = |c: &Matrix3<Real>| {
                c[(0, i)] * st[(0, l)] + c[(1, i)] * st[(1, l)] + c[(2, i)] * st[(2, l)]
            };
            t[l][i] = -st[(i, l)];
            t[l][3 + i] = arm(&ca);
            t[l][6 + i] = st[(i, l)];
            t[l][9 + i] = arm(&cb);
            t[3 + l][3 + i] = -sr[(i, l)];
            t[3 + l][9 + i] = sr[(i, l)];
        }
    }
    // K = T B, column by column
    let mut k = [[0.0; 12]; 12];
    for j in 0..3 {
        for i in 0..12 {
            let arm =
                |c: &Matrix3<Real>| t[0][i] * c[(0, j)] + t[1][i] * c[(1, j)] + t[2][i] * c[(2, j)];
            k[j][i] = -t[j][i];
            k[3 + j][i] = arm(&ca) - t[3 + j][i];
            k[6 + j][i] = t[j][i];
            k[9 + j][i] = arm(&cb) + t[3 + j][i];
        }
    }
    k
}

/// Indices of the 2D DOFs `(u, v, theta_z)` of both nodes within the 3D numbering.
pub const DOFS_2D_IN_3D: [usize; 6] = [0, 1, 5, 6, 7, 11];

/// The 6x6 stiffness matrix of a 2D contact (disks in the xy-plane): normal `n` and lever arms
/// in the plane, DOFs `(u, v, theta_z)` of a then b. Derived like the 3D one with the in-plane
/// relative displacement `delta = (u_b - theta_zb R_yb, v_b + theta_zb R_xb) - (same for a)`
/// and the relative rotation `theta_zb - theta_za` resisted by `ks_rot`.
pub fn contact_matrix_2d(
    s: &ContactStiffness,
    n: &Vector2<Real>,
    r_a: &Vector2<Real>,
    r_b: &Vector2<Real>,
) -> Matrix6 {
    // Rows: delta_x, delta_y, phi_z.
    let b = SMatrix::<Real, 3, 6>::from_row_slice(&[
        -1.0, 0.0, r_a.y, 1.0, 0.0, -r_b.y, //
        0.0, -1.0, -r_a.x, 0.0, 1.0, r_b.x, //
        0.0, 0.0, -1.0, 0.0, 0.0, 1.0,
    ]);
    let nn = n * n.transpose();
    let st = nalgebra::Matrix2::identity() * s.ks + nn * (s.kn - s.ks);
    let mut d = SMatrix::<Real, 3, 3>::zeros();
    d.fixed_view_mut::<2, 2>(0, 0).copy_from(&st);
    d[(2, 2)] = s.ks_rot;
    b.transpose() * d * b
}

#[cfg(test)]
mod tests {
    use super::contact_matrix_3d;
    use crate::law::ContactStiffness;
    use crate::math::{Real, Vec3};
    use crate::rng::SplitMix64;
    use crate::springs::contact_diagonal_3d;

    /// 2,000 random contacts drawn from `seed`: stiffnesses 1 to 1e6 (the rotational ones
    /// zero in a third), unit normals, lever arms up to 1e-2 m in any direction, some with
    /// zero components: `(stiffness, normal, r_a, r_b)`.
    fn random_contacts(seed: u64) -> Vec<(ContactStiffness, Vec3, Vec3, Vec3)> {
        let mut rng = SplitMix64::new(seed);
        let mut u = || rng.next_unit();
        (0..2000)
            .map(|k| {
                let s = ContactStiffness {
                    kn: 10f64.powf(6.0 * u()),
                    ks: 10f64.powf(6.0 * u()),
                    kn_rot: if k % 3 == 0 { 0.0 } else { u() },
                    ks_rot: if k % 3 == 0 { 0.0 } else { u() },
                };
                let n = Vec3::new(u() - 0.5, u() - 0.5, u() - 0.5).normalize();
                let mut arm = |zero: usize| {
                    let mut r = Vec3::new(u() - 0.5, u() - 0.5, u() - 0.5) * 2e-2;
                    if zero < 3 {
                        r[zero] = 0.0;
                    }
                    r
                };
                let (r_a, r_b) = (arm(k % 5), arm((k + 2) % 4));
                (s, n, r_a, r_b)
            })
            .collect()
    }

    /// [`super::contact_columns_3d`] against [`contact_matrix_3d`] (nalgebra's `B^T D B`) on
    /// 2,000 random contacts (stiffnesses 1 to 1e6, rotational ones zero in a third, lever arms
    /// with zero components): every entry equal (`==`: a zero's sign aside).
    #[test]
    fn the_columns_are_the_matrix() {
        for (k, (s, n, r_a, r_b)) in random_contacts(5).into_iter().enumerate() {
            let m = contact_matrix_3d(&s, &n, &r_a, &r_b);
            let columns = super::contact_columns_3d(&s, &n, &r_a, &r_b);
            for i in 0..12 {
                for j in 0..12 {
                    assert!(columns[j][i] == m[(i, j)], "{k}: ({i}, {j})");
                }
            }
        }
    }

    /// [`contact_diagonal_3d`] against two other constructions on 2,000 random contacts
    /// (stiffnesses 1 to 1e6, unit normals, lever arms up to 1e-2 m in any direction, some with
    /// zero components): the same bits as the full cross products `w = R x e_i`, `|w|^2` and
    /// `n . w` in nalgebra's order (the form it had before the zero terms were left out), and
    /// within 1e-12 of the largest entry of the diagonal of the 12x12 matrix
    /// [`contact_matrix_3d`] (`B^T D B`, rounded otherwise).
    #[test]
    fn the_diagonal_is_the_matrix_diagonal() {
        let full = |s: &ContactStiffness, n: &Vec3, r_a: &Vec3, r_b: &Vec3| -> [Real; 12] {
            let mut out = [0.0; 12];
            let dkn = s.kn - s.ks;
            let dkr = s.kn_rot - s.ks_rot;
            for i in 0..3 {
                let t = s.ks + dkn * n[i] * n[i];
                out[i] = t;
                out[6 + i] = t;
                let mut e = Vec3::zeros();
                e[i] = 1.0;
                let rot = s.ks_rot + dkr * n[i] * n[i];
                for (slot, r) in [(3, r_a), (9, r_b)] {
                    let w = r.cross(&e);
                    let nw = n.dot(&w);
                    out[slot + i] = s.ks * w.norm_squared() + dkn * nw * nw + rot;
                }
            }
            out
        };
        for (k, (s, n, r_a, r_b)) in random_contacts(11).into_iter().enumerate() {
            let d = contact_diagonal_3d(&s, &n, &r_a, &r_b);
            let f = full(&s, &n, &r_a, &r_b);
            assert!(
                d.iter().zip(&f).all(|(x, y)| x.to_bits() == y.to_bits()),
                "{k}: {d:?} against {f:?}"
            );
            let m = contact_matrix_3d(&s, &n, &r_a, &r_b);
            let scale = (0..12).map(|i| m[(i, i)].abs()).fold(0.0, Real::max);
            for i in 0..12 {
                assert!((d[i] - m[(i, i)]).abs() <= 1e-12 * scale, "{k}, {i}");
            }
        }
    }
}
