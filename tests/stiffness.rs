//! The contact stiffness matrix (seed 000, eqs. 12-27) against its derivation, and the exact
//! critical timestep against closed forms.
//!
//! The derivation (`K = B^T diag(S, S_r) B`, src/stiffness/contact.rs) is checked by properties
//! that do not depend on it: symmetry, positive semi-definiteness, the rank, rigid motions in
//! the null space, and closed-form eigenvalues. The seed's printed entries (transcribed as
//! printed in src/stiffness/printed.rs) are then compared with it one by one; a wrong sign in
//! one entry breaks the null space of rigid motions, which is how the 2D erratum shows.

use ballast::body::dof;
use ballast::law::Linear;
use ballast::math::{Real, Vec3};
use ballast::model::Model;
use ballast::rng::SplitMix64;
use ballast::stiffness::printed::{corrected_matrix_2d, printed_matrix_2d, printed_matrix_3d};
use ballast::stiffness::*;
use ballast::timestep::{DofStiffness, Estimator};
use nalgebra::{DMatrix, SVector, Vector2};

fn random_unit(rng: &mut SplitMix64) -> Vec3 {
    loop {
        let v =
            Vec3::new(rng.next_unit(), rng.next_unit(), rng.next_unit()) * 2.0 - Vec3::repeat(1.0);
        if v.norm() > 0.2 && v.norm() <= 1.0 {
            return v.normalize();
        }
    }
}

const STIFF: ContactStiffness = ContactStiffness {
    kn: 3.0e6,
    ks: 1.1e6,
    kn_rot: 2.3,
    ks_rot: 0.7,
};

/// A generic contact: oblique normal, unequal radii, overlapping balls, contact point in the
/// middle of the overlap (both lever arms reach it).
fn generic(rng: &mut SplitMix64) -> (Vec3, Vec3, Vec3) {
    let n = random_unit(rng);
    let (ra, rb, overlap) = (0.013, 0.007, 2e-4);
    let xa = Vec3::new(0.3, -0.2, 0.1);
    let xb = xa + n * (ra + rb - overlap);
    let xc = xa + n * (ra - 0.5 * overlap);
    (n, xc - xa, xc - xb)
}

fn max_abs(m: &DMatrix<Real>) -> Real {
    m.iter().fold(0.0, |a: Real, b| a.max(b.abs()))
}

/// Symmetric, positive semi-definite, and of rank equal to the number of positive stiffnesses
/// counted with multiplicity, for every subset of {kn, ks, kn_rot, ks_rot} set to zero.
#[test]
fn contact_matrix_symmetric_psd_and_of_the_right_rank() {
    let mut rng = SplitMix64::new(3);
    for mask in 0..16u32 {
        let pick = |bit: u32, v: Real| if mask & (1 << bit) != 0 { v } else { 0.0 };
        let s = ContactStiffness {
            kn: pick(0, STIFF.kn),
            ks: pick(1, STIFF.ks),
            kn_rot: pick(2, STIFF.kn_rot),
            ks_rot: pick(3, STIFF.ks_rot),
        };
        let (n, ra, rb) = generic(&mut rng);
        let k = DMatrix::from_iterator(12, 12, contact_matrix_3d(&s, &n, &ra, &rb).iter().copied());
        let scale = max_abs(&k).max(1.0);
        assert!(
            max_abs(&(&k - k.transpose())) <= 1e-12 * scale,
            "mask {mask}: not symmetric"
        );
        let eig = k.symmetric_eigenvalues();
        let min = eig.min();
        assert!(min >= -1e-9 * scale, "mask {mask}: eigenvalue {min}");
        // NOTE: the eigenvalues span kn to kn_rot (1e6 to 1e-1 here), so "positive" means
        // above 1e-12 of the largest: round-off of the zero ones is about 1e-16 of it.
        let rank = eig.iter().filter(|&&e| e > 1e-12 * scale).count();
        assert_eq!(rank, s.positive_count(), "mask {mask}: {eig}");
    }
}

fn rigid_translation(t: Vec3) -> SVector<Real, 12> {
    SVector::<Real, 12>::from_fn(|i, _| if i % 6 < 3 { t[i % 3] } else { 0.0 })
}

/// A rigid rotation `theta` about the point `p` of two nodes at `xa`, `xb`.
fn rigid_rotation(theta: Vec3, p: Vec3, xa: Vec3, xb: Vec3) -> SVector<Real, 12> {
    let (ua, ub) = (theta.cross(&(xa - p)), theta.cross(&(xb - p)));
    let mut d = SVector::<Real, 12>::zeros();
    for k in 0..3 {
        d[k] = ua[k];
        d[3 + k] = theta[k];
        d[6 + k] = ub[k];
        d[9 + k] = theta[k];
    }
    d
}

/// Rigid translations and rotations produce no generalized force when both lever arms reach
/// the contact point; when they reach different points (here the two balls' surface points
/// `x_a + r_a n` and `x_b - r_b n`, which differ by the overlap) a rigid rotation produces the
/// spurious force `S (theta x (x_b + R_b - x_a - R_a))` on b: a hand derivation, checked here.
#[test]
fn rigid_motions_are_in_the_null_space_only_when_the_lever_arms_meet() {
    let mut rng = SplitMix64::new(5);
    for _ in 0..20 {
        let (n, ra, rb) = generic(&mut rng);
        let xa = Vec3::new(0.3, -0.2, 0.1);
        let xb = xa + ra - rb;
        let k = contact_matrix_3d(&STIFF, &n, &ra, &rb);
        let scale = STIFF.kn * 0.02;
        for _ in 0..3 {
            let t = random_unit(&mut rng) * 1e-3;
            assert!((k * rigid_translation(t)).norm() <= 1e-12 * scale);
            let theta = random_unit(&mut rng) * 1e-3;
            let p = Vec3::new(rng.next_unit(), rng.next_unit(), rng.next_unit());
            let r = k * rigid_rotation(theta, p, xa, xb);
            assert!(r.norm() <= 1e-12 * scale, "rotation force {}", r.norm());
        }
        // Surface points instead of the common contact point.
        let (ra_s, rb_s) = (n * 0.013, -n * 0.007);
        let k = contact_matrix_3d(&STIFF, &n, &ra_s, &rb_s);
        let theta = random_unit(&mut rng) * 1e-3;
        let r = k * rigid_rotation(theta, Vec3::zeros(), xa, xb);
        let delta = theta.cross(&(xb + rb_s - xa - ra_s));
        let f_b = STIFF.translational(&n) * delta;
        let got = Vec3::new(r[6], r[7], r[8]);
        assert!(f_b.norm() > 0.0);
        assert!((got - f_b).norm() <= 1e-9 * f_b.norm(), "{got} vs {f_b}");
    }
}

/// Two equal touching spheres (radius r, mass m, I = 2/5 m r^2, contact at the middle):
/// `omega^2 = 2 kn/m` (normal), `2 kn_rot/I` (twist), `7 ks/m` twice (shear with rolling
/// resistance: ks (1/(m/2) + r^2/(I/2))), `2 ks_rot/I` twice (bending), and six zeros. The
/// eigenvalues of `K` itself: `2 kn`, `2 kn_rot`, `2 ks (1 + r^2)` twice, `2 ks_rot` twice.
#[test]
fn two_equal_spheres_have_the_closed_form_spectrum() {
    let mut rng = SplitMix64::new(8);
    let (r, m) = (0.01, 0.0104);
    let i = 0.4 * m * r * r;
    for _ in 0..5 {
        let n = random_unit(&mut rng);
        let k = contact_matrix_3d(&STIFF, &n, &(n * r), &(-n * r));
        let s = STIFF;
        let mut expected_k = vec![2.0 * s.kn, 2.0 * s.kn_rot, 2.0 * s.ks_rot, 2.0 * s.ks_rot];
        expected_k.extend([2.0 * s.ks * (1.0 + r * r); 2]);
        expected_k.extend([0.0; 6]);
        let kd = DMatrix::from_iterator(12, 12, k.iter().copied());
        compare_spectra(kd.clone(), expected_k, 1e-9);
        let mut expected_w = vec![
            2.0 * s.kn / m,
            2.0 * s.kn_rot / i,
            7.0 * s.ks / m,
            7.0 * s.ks / m,
        ];
        expected_w.extend([2.0 * s.ks_rot / i; 2]);
        expected_w.extend([0.0; 6]);
        let w = DMatrix::from_fn(12, 12, |p, q| {
            let mp = if p % 6 < 3 { m } else { i };
            let mq = if q % 6 < 3 { m } else { i };
            kd[(p, q)] / (mp * mq).sqrt()
        });
        compare_spectra(w, expected_w, 1e-9);
    }
}

fn compare_spectra(a: DMatrix<Real>, mut expected: Vec<Real>, tol: Real) {
    let mut got: Vec<Real> = a.symmetric_eigenvalues().iter().copied().collect();
    got.sort_by(|x, y| x.partial_cmp(y).unwrap());
    expected.sort_by(|x, y| x.partial_cmp(y).unwrap());
    let scale = expected.iter().fold(0.0, |a: Real, b| a.max(b.abs()));
    for (g, e) in got.iter().zip(&expected) {
        assert!(
            (g - e).abs() <= tol * scale,
            "got {got:?}\nexpected {expected:?}"
        );
    }
}

/// Every printed 3D entry (eqs. 15-22) equals the derivation for generic normals, kn != ks,
/// kn_rot != ks_rot and unequal lever arms; the printed 2D matrix (eqs. 26-27) equals it except
/// k(6,1), printed `R_xb k21 + R_yb k11` where the derivation gives `-R_xb k21 + R_yb k11`,
/// and k(6,6), whose printed formula is right but reads the wrong k(1,6): with k(6,1)
/// corrected, every 2D entry matches.
#[test]
fn printed_entries_against_the_derivation() {
    let mut rng = SplitMix64::new(13);
    for _ in 0..50 {
        let (n, ra, rb) = generic(&mut rng);
        let t = Triad::from_normal(&n);
        let derived = contact_matrix_3d(&STIFF, &n, &ra, &rb);
        let printed = printed_matrix_3d(&STIFF, &t, &ra, &rb);
        let scale = derived.amax();
        let mut wrong = vec![];
        for i in 0..12 {
            for j in 0..=i {
                if (derived[(i, j)] - printed[(i, j)]).abs() > 1e-12 * scale {
                    wrong.push((i + 1, j + 1));
                }
            }
        }
        assert!(wrong.is_empty(), "3D entries differ: {wrong:?}");

        // 2D: in-plane normal and lever arms.
        let n2 = Vector2::new(n.x, n.y).normalize();
        let (ra2, rb2) = (
            n2 * 0.013 + Vector2::new(1e-4, -2e-4),
            -n2 * 0.007 + Vector2::new(1e-4, -2e-4),
        );
        let derived = contact_matrix_2d(&STIFF, &n2, &ra2, &rb2);
        // The 2D matrix is the 3D one restricted to (u, v, theta_z).
        let n3 = Vec3::new(n2.x, n2.y, 0.0);
        let full = contact_matrix_3d(
            &STIFF,
            &n3,
            &Vec3::new(ra2.x, ra2.y, 0.0),
            &Vec3::new(rb2.x, rb2.y, 0.0),
        );
        for (p, &i) in DOFS_2D_IN_3D.iter().enumerate() {
            for (q, &j) in DOFS_2D_IN_3D.iter().enumerate() {
                assert!((derived[(p, q)] - full[(i, j)]).abs() <= 1e-12 * scale);
            }
        }
        let printed = printed_matrix_2d(&STIFF, &n2, &ra2, &rb2);
        let mut wrong = vec![];
        for i in 0..6 {
            for j in 0..=i {
                if (derived[(i, j)] - printed[(i, j)]).abs() > 1e-12 * derived.amax() {
                    wrong.push((i + 1, j + 1));
                }
            }
        }
        assert_eq!(wrong, vec![(6, 1), (6, 6)], "2D entries that differ");
        let corrected = corrected_matrix_2d(&STIFF, &n2, &ra2, &rb2);
        assert!((corrected - derived).amax() <= 1e-12 * derived.amax());
    }
}

fn linear(kn: Real, ks: Real, kn_rot: Real, ks_rot: Real) -> Linear {
    study::linear_law(kn, ks, kn_rot, ks_rot)
}

fn primed(balls: &[(Vec3, Real, u8)], law: Linear) -> Model {
    study::primed_model(balls, law).unwrap()
}

/// A chain of N equal balls between two fixed balls with normal springs only has the axial
/// eigenfrequencies `omega_j = 2 sqrt(kn/m) sin(j pi / (2 (N + 1)))`, j = 1..N, and 5N zero
/// ones (no shear or rotational stiffness): the whole dense spectrum is compared, for
/// N = 1..10, along an axis and along an oblique direction.
#[test]
fn chains_have_the_closed_form_spectrum() {
    let (r, kn) = (0.01, 1e6);
    let m = 2500.0 * 4.0 / 3.0 * std::f64::consts::PI * r * r * r;
    for dir in [Vec3::x(), Vec3::new(1.0, -2.0, 0.5).normalize()] {
        for n in 1..=10 {
            let model = primed(&study::chain(n, r, 1e-5, dir), linear(kn, 0.0, 0.0, 0.0));
            let g = GlobalStiffness::assemble(&model);
            assert_eq!(g.dofs.len(), 6 * n);
            assert_eq!(g.blocks.len(), n + 1);
            let mut expected: Vec<Real> = (1..=n)
                .map(|j| {
                    let w = 2.0
                        * (kn / m).sqrt()
                        * (j as Real * std::f64::consts::PI / (2.0 * (n as Real + 1.0))).sin();
                    w * w
                })
                .collect();
            expected.extend(vec![0.0; 5 * n]);
            compare_spectra(g.dense_scaled(), expected.clone(), 1e-10);
            let exact = g.exact_critical_dense();
            let w_max = expected.iter().fold(0.0, |a: Real, b| a.max(*b)).sqrt();
            assert!((exact.dt - 2.0 / w_max).abs() <= 1e-10 * exact.dt);
            assert!((study::chain_exact(n, m, kn) - exact.dt).abs() <= 1e-10 * exact.dt);
            let lz = g.exact_critical_lanczos();
            assert!(
                (lz.dt - exact.dt).abs() <= 1e-9 * exact.dt,
                "N = {n}: {lz:?} vs {exact:?}"
            );
        }
    }
}

/// Random clusters: each ball touches a random earlier one (random direction, radii in
/// [0.5, 1] r), some balls fixed, some with a fixed rotation: the Lanczos value equals the
/// dense one, the bound equals Gershgorin's from the dense matrix and is never above the exact
/// critical timestep, and the diagonal estimate stays within the range the report quotes.
#[test]
fn random_clusters_lanczos_bound_and_diagonal() {
    let mut rng = SplitMix64::new(21);
    for case in 0..24 {
        let n = 2 + (case * 7) % 40;
        let r0 = 0.01;
        let mut balls: Vec<(Vec3, Real, u8)> = vec![(Vec3::zeros(), r0, 0)];
        while balls.len() < n {
            let j = (rng.next_unit() * balls.len() as Real) as usize;
            let r = r0 * (0.5 + 0.5 * rng.next_unit());
            let d = random_unit(&mut rng);
            let p = balls[j].0 + d * (balls[j].1 + r) * 0.995;
            if balls
                .iter()
                .all(|(q, rq, _)| (p - q).norm() > 0.98 * (r + rq))
            {
                let fixed = match (rng.next_unit() * 10.0) as u32 {
                    0 => dof::ALL,
                    1 => dof::RX | dof::RY | dof::RZ,
                    2 => dof::Z,
                    _ => 0,
                };
                balls.push((p, r, fixed));
            }
        }
        let ks_ratio = [0.0, 0.25, 1.0][case % 3];
        let rot = [0.0, 1e-1][case % 2];
        let model = primed(&balls, linear(1e6, 1e6 * ks_ratio, rot, rot));
        let g = GlobalStiffness::assemble(&model);
        let dense = g.exact_critical_dense();
        let lz = g.exact_critical_lanczos();
        assert!(
            (lz.dt - dense.dt).abs() <= 1e-9 * dense.dt,
            "case {case}: {lz:?} vs {dense:?}"
        );
        let bound = estimate_critical(&model, Estimator::Bound);
        // The bound again from the dense K over the free DOFs: the largest row sum of
        // |K_ij| / m_i and of |K_ij| / sqrt(m_i m_j), the smaller of the two, 2 / its root.
        let (k, m) = (g.dense(), &g.dofs.mass);
        let largest = |scaled: bool| {
            (0..m.len())
                .map(|i| {
                    (0..m.len())
                        .map(|j| {
                            let w = if scaled { (m[i] * m[j]).sqrt() } else { m[i] };
                            k[(i, j)].abs() / w
                        })
                        .sum::<Real>()
                })
                .fold(0.0, Real::max)
        };
        let gershgorin = 2.0 / largest(false).min(largest(true)).sqrt();
        assert!(
            (bound.dt - gershgorin).abs() <= 1e-12 * gershgorin,
            "case {case}: bound {} against {gershgorin} from the dense matrix",
            bound.dt
        );
        assert!(
            bound.dt <= dense.dt * (1.0 + 1e-12),
            "case {case}: bound {} > exact {}",
            bound.dt,
            dense.dt
        );
        let diag = estimate_critical(&model, Estimator::Diagonal);
        let ratio = diag.dt / dense.dt;
        assert!(
            ratio > 0.2 && ratio < 1.5,
            "case {case}: diagonal/exact = {ratio}"
        );
    }
}

/// The diagonal estimate (seed 000, eq. 11) is not conservative: two free equal balls touching
/// along (1, 1, 1)/sqrt(3) with a normal spring only have `omega^2 = 2 kn/m`, so the exact
/// critical step is `sqrt(2 m/kn)`, while every diagonal term is `kn/3`, giving the estimate
/// `sqrt(3 m/kn)`: too large by `sqrt(3/2) = 1.2247`. The bound equals the exact value here
/// (each row of `M^-1 K` sums to `2 kn/m`).
#[test]
fn diagonal_estimate_is_not_conservative_for_an_oblique_pair() {
    let r = 0.01;
    let n = Vec3::new(1.0, 1.0, 1.0).normalize();
    let model = primed(
        &[(Vec3::zeros(), r, 0), (n * (2.0 * r - 1e-5), r, 0)],
        linear(1e6, 0.0, 0.0, 0.0),
    );
    let exact = GlobalStiffness::assemble(&model).exact_critical_dense();
    let m = model.balls.mass[0];
    assert!((exact.dt - (2.0 * m / 1e6).sqrt()).abs() <= 1e-12 * exact.dt);
    let diag = estimate_critical(&model, Estimator::Diagonal);
    assert!(
        (diag.dt / exact.dt - 1.5f64.sqrt()).abs() < 1e-12,
        "{}",
        diag.dt / exact.dt
    );
    let bound = estimate_critical(&model, Estimator::Bound);
    assert!((bound.dt / exact.dt - 1.0).abs() < 1e-12);
}

/// The diagonal estimate's search over the balls (src/stiffness/estimate.rs, `critical`: a
/// block of balls passed over at once when each group of three DOFs sharing a mass is surely
/// above the smallest ratio so far, the others one by one) against a plain scan of every free
/// DOF's `m / K_ii` in order: 2,000 balls of radii 1-3 mm (so masses and inertias spread over
/// a factor of 27 and 243), rows whose stiffnesses spread over six decades, a tenth of them
/// zero, some balls with fixed DOFs whose stiffness is the smallest of the ball, a NaN. The
/// same ball, DOF and step, bit for bit, for 200 draws.
#[test]
fn the_diagonal_search_finds_the_plain_scans_smallest_ratio() {
    let mut rng = SplitMix64::new(5);
    let mut u = move || (rng.next_u64() >> 11) as Real / (1u64 << 53) as Real;
    let balls: Vec<(Vec3, Real, u8)> = (0..2000)
        .map(|i| {
            let fixed = match i % 23 {
                0 => dof::TRANSLATION,
                1 => 0b10_0100,
                _ => 0,
            };
            (
                Vec3::new(0.01 * i as Real, 0.0, 0.0),
                1e-3 + 2e-3 * u(),
                fixed,
            )
        })
        .collect();
    let model = primed(&balls, linear(1e6, 0.0, 0.0, 0.0));
    for draw in 0..200 {
        let mut ks = DofStiffness::default();
        ks.diagonal = (0..balls.len())
            .map(|i| {
                std::array::from_fn(|k| {
                    let fixed = model.balls.fixed[i] & (1 << k) != 0;
                    if fixed {
                        // (a fixed DOF's stiffness, never counted: the smallest ratio if it were)
                        1e9
                    } else if u() < 0.1 {
                        0.0
                    } else {
                        10f64.powf(6.0 * u())
                    }
                })
            })
            .collect();
        if draw % 50 == 7 {
            ks.diagonal[1234][4] = Real::NAN;
        }
        let est = ks.critical(&model, Estimator::Diagonal);
        // the plain scan: every free DOF in order, the first smallest
        let mut best = (Real::INFINITY, 0, 0);
        for i in 0..balls.len() {
            let masses = [
                model.balls.inertial_mass[i],
                model.balls.inertial_inertia[i],
            ];
            for k in 0..6 {
                if model.balls.fixed[i] & (1 << k) == 0 {
                    let ratio = masses[k / 3] / ks.diagonal[i][k];
                    if ratio < best.0 {
                        best = (ratio, i, k);
                    }
                }
            }
        }
        assert_eq!(
            (est.dt.to_bits(), est.ball, est.dof),
            (best.0.sqrt().to_bits(), best.1, best.2),
            "draw {draw}"
        );
    }
}
