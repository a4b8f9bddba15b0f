//! Clumps: the mass properties of a union of pebbles against closed forms and an independent
//! ray integration; the per-DOF stiffness of a clump (lever arms from the centroid, rotations
//! about principal axes) against a hand derivation; the exact critical timestep in principal
//! coordinates against a generalized eigenproblem in world coordinates.

use crate::common::{fixed_wall, linear, material, model, Random};
use ballast::body::{ClumpSpec, PebbleSpec, Resolution};
use ballast::geom::{plane, union_moments};
use ballast::math::{Real, Vec3, PI};
use ballast::model::Model;
use ballast::rng::SplitMix64;
use ballast::stiffness::GlobalStiffness;
use ballast::timestep::TimestepMode;
use ballast::timestep::{DofStiffness, Estimator};
use nalgebra::{Matrix3, Matrix6};

/// Cap of a ball of radius `r` centred at 0, the part with `x >= a`: volume, `∫x`, `∫x²`,
/// `∫(y²+z²)` (integrals of disk slices of radius² `r² - x²`, done by hand).
fn cap(r: Real, a: Real) -> [Real; 4] {
    let prim = |x: Real| {
        [
            PI * (r * r * x - x.powi(3) / 3.0),
            PI * (r * r * x * x / 2.0 - x.powi(4) / 4.0),
            PI * (r * r * x.powi(3) / 3.0 - x.powi(5) / 5.0),
            PI / 2.0 * (r.powi(4) * x - 2.0 * r * r * x.powi(3) / 3.0 + x.powi(5) / 5.0),
        ]
    };
    let (hi, lo) = (prim(r), prim(a));
    std::array::from_fn(|k| hi[k] - lo[k])
}

/// Two overlapping balls (r1 at 0, r2 at distance d along the axis), split by their radical
/// plane: volume, centroid distance along the axis, axial and transverse `∫` second moments
/// about the centroid (`∫(y²+z²)`, `∫(x² + z²)`).
fn two_balls(r1: Real, r2: Real, d: Real) -> (Real, Real, Real, Real) {
    let s1 = (d * d + r1 * r1 - r2 * r2) / (2.0 * d);
    let (f1, c1) = (cap(r1, -r1), cap(r1, s1));
    let p1: [Real; 4] = std::array::from_fn(|k| f1[k] - c1[k]);
    let (f2, c2) = (cap(r2, -r2), cap(r2, d - s1));
    let [v2, x1, x2, q2] = std::array::from_fn(|k| f2[k] - c2[k]);
    let p2 = [v2, d * v2 - x1, d * d * v2 - 2.0 * d * x1 + x2, q2];
    let [v, sx, sxx, p] = std::array::from_fn(|k| p1[k] + p2[k]);
    let xc = sx / v;
    (v, xc, p, sxx - v * xc * xc + p / 2.0)
}

/// The moments of the union of two overlapping balls, integrated numerically, match the
/// closed form of a ball plus a ball minus their lens (spherical caps), whatever the direction
/// of the line of centres.
#[test]
fn union_of_two_overlapping_balls_matches_the_cap_integrals_in_any_direction() {
    let mut rng = SplitMix64::new(11);
    for (r1, r2, d) in [
        (1.0, 0.8, 1.2),
        (0.01, 0.008, 0.012),
        (1.0, 1.0, 0.3),
        (1.0, 0.3, 0.9),
    ] {
        let (v, xc, axial, transverse) = two_balls(r1, r2, d);
        for _ in 0..5 {
            let u = rng.vec(1.0).normalize();
            let c0 = rng.vec(2.0 * r1);
            let (m, err) = union_moments(&[(c0, r1), (c0 + u * d, r2)]);
            assert!(
                (m.volume - v).abs() <= 1e-13 * v,
                "volume {} vs {v}",
                m.volume
            );
            assert!((m.centroid - (c0 + u * xc)).norm() <= 1e-12 * r1);
            // S = ∫ r rᵀ about the centroid: along u, ∫x² = transverse - axial/2; across, axial/2
            let x2 = transverse - axial / 2.0;
            let s =
                u * u.transpose() * x2 + (Matrix3::identity() - u * u.transpose()) * (axial / 2.0);
            let scale = s.abs().max();
            assert!(
                (m.second - s).abs().max() <= 1e-12 * scale,
                "{} vs {s}",
                m.second
            );
            assert!(err < 1e-10, "error estimate {err}");
        }
    }
}

/// Disjoint balls add up; a ball given twice, or inside another, counts once.
#[test]
fn union_of_disjoint_coincident_and_nested_balls() {
    let ball = |r: Real| 4.0 / 3.0 * PI * r.powi(3);
    // disjoint: the sum (volume and centroid)
    let (m, _) = union_moments(&[
        (Vec3::new(0.0, 0.0, 0.0), 1.0),
        (Vec3::new(3.0, 1.0, -1.0), 0.5),
    ]);
    let v = ball(1.0) + ball(0.5);
    assert!((m.volume - v).abs() < 1e-13 * v);
    let c = Vec3::new(3.0, 1.0, -1.0) * (ball(0.5) / v);
    assert!((m.centroid - c).norm() < 1e-13);
    // the same ball twice, and a ball inside another: one ball
    for spheres in [
        vec![
            (Vec3::new(0.1, 0.2, 0.3), 1.0),
            (Vec3::new(0.1, 0.2, 0.3), 1.0),
        ],
        vec![
            (Vec3::new(0.1, 0.2, 0.3), 1.0),
            (Vec3::new(0.3, 0.2, 0.1), 0.5),
        ],
    ] {
        let (m, _) = union_moments(&spheres);
        assert!((m.volume - ball(1.0)).abs() < 1e-13, "{}", m.volume);
        // ∫x² dV of a ball = 4 pi r^5 / 15
        assert!((m.second[(0, 0)] - 4.0 * PI / 15.0).abs() < 1e-13);
    }
}

/// An independent slow integration: midpoint rule over a grid of rays along z, each ray's
/// covered intervals merged exactly.
fn ray_moments(spheres: &[(Vec3, Real)], n: usize) -> (Real, Vec3) {
    let lo = spheres
        .iter()
        .fold(Vec3::repeat(Real::INFINITY), |a, (c, r)| {
            a.inf(&(c - Vec3::repeat(*r)))
        });
    let hi = spheres
        .iter()
        .fold(Vec3::repeat(-Real::INFINITY), |a, (c, r)| {
            a.sup(&(c + Vec3::repeat(*r)))
        });
    let (hx, hy) = ((hi.x - lo.x) / n as Real, (hi.y - lo.y) / n as Real);
    let (mut v, mut s) = (0.0, Vec3::zeros());
    for i in 0..n {
        for j in 0..n {
            let (x, y) = (lo.x + (i as Real + 0.5) * hx, lo.y + (j as Real + 0.5) * hy);
            let mut iv: Vec<(Real, Real)> = spheres
                .iter()
                .filter_map(|(c, r)| {
                    let h2 = r * r - (x - c.x).powi(2) - (y - c.y).powi(2);
                    (h2 > 0.0).then(|| (c.z - h2.sqrt(), c.z + h2.sqrt()))
                })
                .collect();
            iv.sort_by(|a, b| a.0.total_cmp(&b.0));
            let mut cur: Option<(Real, Real)> = None;
            let mut add = |(a, b): (Real, Real)| {
                let w = (b - a) * hx * hy;
                v += w;
                s += Vec3::new(x, y, 0.5 * (a + b)) * w;
            };
            for (a, b) in iv {
                cur = match cur {
                    Some((c0, c1)) if a <= c1 => Some((c0, c1.max(b))),
                    Some(c) => {
                        add(c);
                        Some((a, b))
                    }
                    None => Some((a, b)),
                };
            }
            if let Some(c) = cur {
                add(c);
            }
        }
    }
    (v, s / v)
}

#[test]
fn union_of_several_overlapping_balls_matches_a_ray_integration() {
    // three balls meeting in a common region (triple points), and a ring of four
    let cases = [
        vec![
            (Vec3::new(0.0, 0.0, 0.0), 1.0),
            (Vec3::new(1.1, 0.2, 0.1), 0.8),
            (Vec3::new(0.4, 0.9, -0.3), 0.7),
        ],
        vec![
            (Vec3::new(1.0, 0.0, 0.0), 0.6),
            (Vec3::new(0.0, 1.0, 0.1), 0.6),
            (Vec3::new(-1.0, 0.0, -0.1), 0.6),
            (Vec3::new(0.0, -1.0, 0.0), 0.6),
            (Vec3::new(0.0, 0.0, 0.0), 0.75),
        ],
    ];
    for spheres in cases {
        let (m, err) = union_moments(&spheres);
        let (v, c) = ray_moments(&spheres, 1500);
        // the ray grid is accurate to about 1e-5 (a midpoint rule across the silhouettes)
        assert!(
            (m.volume - v).abs() < 3e-5 * v,
            "volume {} vs rays {v}",
            m.volume
        );
        assert!(
            (m.centroid - c).norm() < 3e-5,
            "centroid {} vs rays {c}",
            m.centroid
        );
        assert!(err < 1e-9, "error estimate {err}");
    }
}

/// A clump of three feet and a top pebble resting on a floor (all contacts active).
fn tripod() -> Model {
    let (mut m, glass) = model(
        TimestepMode::Fixed(1e-5),
        Vec3::zeros(),
        1e-4,
        material("glass", 0.0, 0.0),
        linear(1e5, 4e4, 0.5, 0.0, 0.0),
    );
    let feet: Vec<PebbleSpec> = (0..3)
        .map(|k| {
            let a = 0.3 + k as Real * 2.0 * PI / 3.0;
            PebbleSpec {
                offset: Vec3::new(0.008 * a.cos(), 0.008 * a.sin(), 0.0),
                radius: 0.005,
            }
        })
        .chain([PebbleSpec {
            offset: Vec3::new(0.002, 0.001, 0.007),
            radius: 0.007,
        }])
        .collect();
    m.add_clump(&ClumpSpec {
        id: 1,
        pos: Vec3::new(0.001, 0.0, 0.005 - 2e-5),
        material: glass,
        pebbles: feet,
        vel: Vec3::zeros(),
        spin: Vec3::zeros(),
        applied_force: Vec3::zeros(),
        fixed: 0,
        mass: None,
    })
    .unwrap();
    let (v, f) = plane(Vec3::zeros(), Vec3::z(), [0.06, 0.06], [4, 4]);
    m.add_wall(&fixed_wall("floor", v, f, Resolution::Reduced, 0.0))
        .unwrap();
    m.prime().unwrap();
    m
}

/// The 6x6 stiffness of the clump by hand: each active contact (normal n, point p) resists the
/// displacement `δ = u + θ x (p - x_c)` of the clump's material point at p with
/// `k_n n nᵀ + k_s (I - n nᵀ)`; the DOFs are translations along x, y, z and rotations about the
/// world axes.
fn hand_stiffness(m: &Model) -> Matrix6<Real> {
    let xc = m.clumps.pos[0];
    let mut k = Matrix6::zeros();
    for c in m.facet_contacts.list.iter().filter(|c| c.active) {
        let n = c.normal;
        let kc = n * n.transpose() * 1e5 + (Matrix3::identity() - n * n.transpose()) * 4e4;
        let r = c.point - xc;
        // δ = B q with B = [I, -[r]x]
        let mut b = nalgebra::Matrix3x6::zeros();
        b.fixed_view_mut::<3, 3>(0, 0)
            .copy_from(&Matrix3::identity());
        b.fixed_view_mut::<3, 3>(0, 3)
            .copy_from(&(-r.cross_matrix()));
        k += b.transpose() * kc * b;
    }
    k
}

/// The per-DOF stiffness of a clump on three contacts equals the diagonal of the 6×6 matrix
/// assembled by hand with lever arms from the clump's centroid, in its principal axes.
#[test]
fn clump_stiffness_uses_lever_arms_from_the_centroid_and_principal_axes() {
    let m = tripod();
    assert_eq!(m.facet_contacts.list.iter().filter(|c| c.active).count(), 3);
    let k = hand_stiffness(&m);
    let axes = m.clumps.orient[0].to_rotation_matrix().into_inner();
    let mut s = DofStiffness::default();
    s.compute(&m, Estimator::Diagonal, false);
    let body = m.balls.len();
    for d in 0..6 {
        let e = if d < 3 {
            let mut e = nalgebra::Vector6::zeros();
            e[d] = 1.0;
            e
        } else {
            let a = axes.column(d - 3);
            nalgebra::Vector6::new(0.0, 0.0, 0.0, a[0], a[1], a[2])
        };
        let hand = (e.transpose() * k * e)[0];
        let got = s.diagonal[body][d];
        assert!(
            (got - hand).abs() <= 1e-9 * hand.abs().max(1e-9),
            "dof {d}: {got} vs {hand}"
        );
    }
    // the estimate is min sqrt(m_k / K_kk) over the clump's DOFs (the pebbles have none)
    let est = ballast::stiffness::estimate_critical(&m, Estimator::Diagonal);
    let masses = [m.clumps.mass[0]; 3]
        .into_iter()
        .chain(m.clumps.principal[0].iter().copied());
    let hand = masses
        .zip(0..6)
        .map(|(mk, d)| (mk / s.diagonal[body][d]).sqrt())
        .fold(Real::INFINITY, Real::min);
    assert_eq!(est.ball, body);
    assert!((est.dt - hand).abs() < 1e-12 * hand);
}

/// The exact critical timestep of a resting clump equals 2/ω_max of K φ = ω² M φ solved here in
/// world coordinates (M with the full inertia tensor).
#[test]
fn exact_critical_timestep_of_a_clump_matches_the_world_frame_eigenproblem() {
    let m = tripod();
    let k = hand_stiffness(&m);
    // M in world coordinates: m I and the full inertia tensor R diag(I) Rᵀ
    let mut mm = Matrix6::zeros();
    mm.fixed_view_mut::<3, 3>(0, 0)
        .copy_from(&(Matrix3::identity() * m.clumps.mass[0]));
    mm.fixed_view_mut::<3, 3>(3, 3)
        .copy_from(&m.clumps.inertia(0));
    // K φ = ω² M φ with M = L Lᵀ: the eigenvalues of L⁻¹ K L⁻ᵀ
    let l = mm.cholesky().unwrap().l();
    let li = l.try_inverse().unwrap();
    let a = li * k * li.transpose();
    let omega2 = a.symmetric_eigen().eigenvalues.max();
    let exact = GlobalStiffness::assemble(&m).exact_critical();
    assert_eq!(exact.dofs, 6);
    let want = 2.0 / omega2.sqrt();
    assert!(
        (exact.dt - want).abs() < 1e-9 * want,
        "{} vs {want}",
        exact.dt
    );
    // the principal moments differ (a full tensor in the world frame)
    let p = m.clumps.principal[0];
    assert!((p.x - p.y).abs() > 1e-3 * p.x && (p.y - p.z).abs() > 1e-3 * p.y);
}

/// A malformed clump (no pebbles, a negative pebble radius, only some rotations fixed, an id
/// taken, an inertia that is not positive definite) is refused, with its id and the reason.
#[test]
fn clump_errors_name_the_clump_and_the_reason() {
    let mut m = tripod();
    let spec = |pebbles: Vec<PebbleSpec>, fixed: u8| ClumpSpec {
        id: 7,
        pos: Vec3::new(1.0, 1.0, 1.0),
        material: 0,
        pebbles,
        vel: Vec3::zeros(),
        spin: Vec3::zeros(),
        applied_force: Vec3::zeros(),
        fixed,
        mass: None,
    };
    let one = || {
        vec![PebbleSpec {
            offset: Vec3::zeros(),
            radius: 0.01,
        }]
    };
    let e = m.add_clump(&spec(vec![], 0)).unwrap_err().to_string();
    assert!(e.contains("clump 7") && e.contains("pebble"), "{e}");
    let e = m
        .add_clump(&spec(
            vec![PebbleSpec {
                offset: Vec3::zeros(),
                radius: -1.0,
            }],
            0,
        ))
        .unwrap_err()
        .to_string();
    assert!(e.contains("pebble 1: radius -1"), "{e}");
    let e = m
        .add_clump(&spec(one(), ballast::body::dof::RX))
        .unwrap_err()
        .to_string();
    assert!(e.contains("rotations"), "{e}");
    let mut dup = spec(one(), 0);
    dup.id = 1;
    assert!(m.add_clump(&dup).is_err());
    let mut bad = spec(one(), 0);
    bad.mass = Some(ballast::body::MassSpec {
        mass: 1.0,
        inertia: Matrix3::new(1.0, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0, 1.0),
        centroid: Vec3::zeros(),
    });
    let e = m.add_clump(&bad).unwrap_err().to_string();
    assert!(e.contains("positive"), "{e}");
}

/// Density scaling of a clump changes its inertia, not its angular momentum (eq. 8); its
/// pebbles' contact mass follows the scaled mass; and the bound estimator's step is at most half
/// the exact critical step of the scaled system.
#[test]
fn scaled_clump_with_the_bound_is_stable_and_keeps_its_angular_momentum() {
    use ballast::timestep::{Scaled, TimestepMode};
    let mut m = tripod();
    m.settings.timestep = TimestepMode::Scaled(Scaled {
        dt: 1.0,
        estimator: Estimator::Bound,
        kinematic_eps: None,
    });
    let l0 = Vec3::new(1e-9, -2e-9, 3e-9);
    m.clumps.angmom[0] = l0;
    let moment = m.clumps.moment[0];
    m.cycle().unwrap();
    // eq. 8: scaling changes the moments of inertia, not the angular momentum; the first kick
    // adds the moment over half a step (dt_prev = 0)
    let want = l0 + moment * 0.5;
    assert!((m.clumps.angmom[0] - want).norm() <= 1e-12 * want.norm());
    assert!(m.clumps.inertial_mass[0] != m.clumps.mass[0]);
    // the pebbles' contact mass follows the clump's fictitious mass
    let p = m.clumps.first[0] as usize;
    assert_eq!(m.balls.contact_mass(p), Some(m.clumps.inertial_mass[0]));
    // the row-sum bound over the clump's DOFs (lever arms, principal axes): the undamped
    // critical step of the scaled system is at least twice dt
    let exact = GlobalStiffness::assemble(&m).exact_critical();
    assert!(exact.dt >= 2.0 * (1.0 - 1e-12), "{}", exact.dt);
}

/// A clump resting on a floor through the frame-free contact models (their force loop runs
/// in batches, `Model::range_forces`): the tripod_rest case with `hooke-history` contacts
/// instead of linear ones. At rest the floor carries the clump's weight, `F_z = m g` with
/// m = 7.335461428e-03 kg (the case's exact sphere-minus-lens integral), and the centroid
/// stays above the floor. Fails if the wall forces do not reach the clump.
#[test]
fn a_clump_rests_on_a_floor_with_a_history_model() {
    let text = std::fs::read_to_string("cases/clumps/tripod_rest.toml")
        .unwrap()
        .replace(
            "model = \"linear\"\nkn = 100000.0\nks = 100000.0\nfriction = 0.5\ndamp_n = 0.5\ndamp_s = 0.5",
            "model = \"hooke-history\"\nkn = 100000.0\nks = 100000.0\ngamma_n = 10.0\ngamma_t = 10.0\nfriction = 0.5",
        );
    assert!(
        text.contains("hooke-history"),
        "the case's contact block changed"
    );
    let case = ballast::case::parse(&text, std::path::Path::new("cases/clumps/x.toml")).unwrap();
    let mut m = case.build_model(None).unwrap();
    while m.time < 0.25 {
        m.cycle().unwrap();
    }
    let weight = 7.335461428e-3 * 9.81;
    let fz = m.clumps.force[0].z;
    assert!(
        (fz - weight).abs() < 1e-3 * weight,
        "floor force {fz} N against the weight {weight} N"
    );
    assert!(
        m.clumps.pos[0].z > 0.004,
        "centroid at {} m",
        m.clumps.pos[0].z
    );
}
