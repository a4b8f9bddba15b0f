//! The largest eigenvalue `omega_max^2` of `K phi = omega^2 M phi`, and the exact critical
//! timestep `2 / omega_max` of the central-difference scheme (seed 000, eq. 9).
//!
//! Small models: nalgebra's dense `SymmetricEigen` of `A = M^-1/2 K M^-1/2`. Large models: the
//! Lanczos iteration on `A` applied block by block (no dense matrix), with the largest Ritz value
//! of the tridiagonal found by Sturm-sequence bisection. Ritz values never exceed the largest
//! eigenvalue, and for the extreme eigenvalue the three-term recurrence converges without
//! re-orthogonalization (lost orthogonality only produces copies of converged eigenvalues), so
//! the iteration stops when the largest Ritz value has not changed by more than 1e-13 (relative)
//! for five iterations in a row, after at least 30.

use super::global::GlobalStiffness;
use crate::math::Real;
use nalgebra::DVector;

/// Up to this many free DOFs the dense solver is used.
pub const DENSE_LIMIT: usize = 1500;

/// How the largest eigenvalue was computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Method {
    /// Dense symmetric eigen-decomposition.
    Dense,
    /// Lanczos iteration.
    Lanczos,
}

/// The exact critical timestep of a model.
#[derive(Clone, Copy, Debug, serde::Serialize, serde::Deserialize)]
pub struct ExactCritical {
    /// Largest natural angular frequency, rad/s (0 when nothing is connected).
    pub omega_max: Real,
    /// `2 / omega_max`, s (infinite when `omega_max` is 0).
    pub dt: Real,
    /// Number of free DOFs.
    pub dofs: usize,
    /// Number of active contacts.
    pub contacts: usize,
    /// Solver used.
    pub method: Method,
    /// Lanczos iterations (0 for dense).
    pub iterations: usize,
}

impl GlobalStiffness {
    /// The exact critical timestep: dense below [`DENSE_LIMIT`] free DOFs, Lanczos above.
    pub fn exact_critical(&self) -> ExactCritical {
        if self.dofs.len() <= DENSE_LIMIT {
            self.exact_critical_dense()
        } else {
            self.exact_critical_lanczos()
        }
    }

    /// The exact critical timestep by dense eigen-decomposition.
    pub fn exact_critical_dense(&self) -> ExactCritical {
        let lambda = if self.dofs.is_empty() {
            0.0
        } else {
            let a = self.dense_scaled();
            a.symmetric_eigenvalues().max().max(0.0)
        };
        self.result(lambda, Method::Dense, 0)
    }

    /// The exact critical timestep by the Lanczos iteration.
    pub fn exact_critical_lanczos(&self) -> ExactCritical {
        let (lambda, it) = lanczos_max(self.dofs.len(), |x, y| self.apply_scaled(x, y));
        self.result(lambda, Method::Lanczos, it)
    }

    fn result(&self, lambda: Real, method: Method, iterations: usize) -> ExactCritical {
        let omega = lambda.max(0.0).sqrt();
        ExactCritical {
            omega_max: omega,
            dt: if omega > 0.0 {
                2.0 / omega
            } else {
                Real::INFINITY
            },
            dofs: self.dofs.len(),
            contacts: self.blocks.len(),
            method,
            iterations,
        }
    }
}

/// Largest eigenvalue of a symmetric positive semi-definite operator of size `n` given by its
/// product `apply(x, y)` (`y = A x`), and the number of iterations used.
pub fn lanczos_max(
    n: usize,
    mut apply: impl FnMut(&DVector<Real>, &mut DVector<Real>),
) -> (Real, usize) {
    if n == 0 {
        return (0.0, 0);
    }
    // NOTE: a deterministic pseudo-random start (SplitMix64) has a component along every
    // eigenvector with probability one; a constant start would miss modes orthogonal to it.
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut v = DVector::from_fn(n, |_, _| {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        (z >> 11) as Real / (1u64 << 53) as Real - 0.5
    });
    v /= v.norm();
    let mut v_prev = DVector::zeros(n);
    let mut w = DVector::zeros(n);
    let (mut alpha, mut beta) = (Vec::new(), Vec::new());
    let mut theta = 0.0;
    let mut stable = 0;
    let max_iter = (n + 1).min(2000);
    for it in 1..=max_iter {
        apply(&v, &mut w);
        let b_prev = beta.last().copied().unwrap_or(0.0);
        w.axpy(-b_prev, &v_prev, 1.0);
        let a = w.dot(&v);
        w.axpy(-a, &v, 1.0);
        alpha.push(a);
        let b = w.norm();
        let t = tridiagonal_max(&alpha, &beta);
        // NOTE: 1e-13 relative: the Ritz value approaches omega^2 from below; the timestep
        // 2/omega is then accurate to about 5e-14.
        if (t - theta).abs() <= 1e-13 * t.abs() {
            stable += 1;
        } else {
            stable = 0;
        }
        theta = t;
        if (stable >= 5 && it >= 30) || b <= 1e-14 * t.abs().max(Real::MIN_POSITIVE) {
            return (theta, it);
        }
        beta.push(b);
        std::mem::swap(&mut v_prev, &mut v);
        v.copy_from(&w);
        v /= b;
    }
    (theta, max_iter)
}

/// Largest eigenvalue of the symmetric tridiagonal matrix with diagonal `a` and off-diagonal
/// `b` (`b.len() >= a.len() - 1`; extra entries are ignored), by Sturm-sequence bisection.
pub fn tridiagonal_max(a: &[Real], b: &[Real]) -> Real {
    let n = a.len();
    let off = |i: usize| if i + 1 < n { b[i].abs() } else { 0.0 };
    // Gershgorin interval.
    let (mut lo, mut hi) = (Real::INFINITY, Real::NEG_INFINITY);
    for i in 0..n {
        let r = off(i) + if i > 0 { off(i - 1) } else { 0.0 };
        lo = lo.min(a[i] - r);
        hi = hi.max(a[i] + r);
    }
    // Number of eigenvalues below x (sign changes of the LDL^T pivots).
    let below = |x: Real| {
        let mut count = 0;
        let mut d = 1.0;
        for i in 0..n {
            let bb = if i > 0 { off(i - 1) } else { 0.0 };
            d = a[i] - x - if i > 0 { bb * bb / d } else { 0.0 };
            if d == 0.0 {
                d = -Real::EPSILON * (x.abs() + 1.0);
            }
            if d < 0.0 {
                count += 1;
            }
        }
        count
    };
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if below(mid) == n {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    hi
}
