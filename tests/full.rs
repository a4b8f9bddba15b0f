//! The full wall resolution mode (seed 001, issue #5): line of sight, continuity of contact
//! state, proximity contacts.
//!
//! References: the segment-triangle test against bisection of the signed distance plus the
//! closest point (tested in walls.rs); `Frame::reaim` against nalgebra's own smallest rotation;
//! proximity-contact forces against distances to the planes worked out by hand here; the
//! invariance tests build the same scene a second way (turned, moved, vertex order permuted);
//! the shear series against the closed form ks v t.

use crate::common::{self, Random};
use ballast::body::{dof, BallSpec, Resolution, WallSpec};
use ballast::contact::Frame;
use ballast::geom::{closest_point, segment_crosses};
use ballast::math::{Quat, Real, Vec3};
use ballast::model::Model;
use ballast::rng::SplitMix64;
use ballast::timestep::TimestepMode;
use nalgebra::Rotation3;

#[test]
fn a_segment_crosses_a_triangle_where_bisection_finds_a_point_of_it() {
    // Independent route: the signed distance to the plane changes sign along the segment;
    // bisection finds where, and the closest point of the triangle to that point is at zero
    // distance exactly when the crossing is inside. Cases within 1e-6 of the triangle's
    // boundary or of the segment's end are skipped (a tie either way is acceptable there).
    let mut rng = SplitMix64::new(11);
    let (mut hits, mut misses) = (0, 0);
    for _ in 0..4000 {
        let v = [rng.vec(1.0), rng.vec(1.0), rng.vec(1.0)];
        let (p, q) = (rng.vec(1.5), rng.vec(1.5));
        let n = (v[1] - v[0]).cross(&(v[2] - v[0])).normalize();
        let sd = |x: &Vec3| n.dot(&(x - v[0]));
        let expected = if sd(&p) * sd(&q) > 0.0 {
            false
        } else {
            let (mut a, mut b) = (0.0, 1.0);
            for _ in 0..200 {
                let m = 0.5 * (a + b);
                if sd(&(p + (q - p) * m)) * sd(&p) > 0.0 {
                    a = m
                } else {
                    b = m
                }
            }
            let x = p + (q - p) * (0.5 * (a + b));
            if 0.5 * (a + b) > 1.0 - 1e-6 {
                continue;
            }
            let c = closest_point(&x, &v);
            let e = [0, 1, 2].map(|k| {
                let (a, b) = (v[k], v[(k + 1) % 3]);
                let t = ((x - a).dot(&(b - a)) / (b - a).norm_squared()).clamp(0.0, 1.0);
                (x - (a + (b - a) * t)).norm()
            });
            if e.iter().any(|&d| d < 1e-6) {
                continue;
            }
            (c.point - x).norm() < 1e-9
        };
        assert_eq!(segment_crosses(&p, &q, &v), expected, "{p:?} {q:?} {v:?}");
        if expected {
            hits += 1
        } else {
            misses += 1
        }
    }
    assert!(hits > 150 && misses > 150, "{hits} hits, {misses} misses");
}

/// Re-aiming a contact frame at a new normal turns it by the smallest rotation (normal onto
/// normal, nothing about it) and keeps the normal displacement.
#[test]
fn reaim_turns_the_frame_by_the_smallest_rotation_and_keeps_its_state() {
    let mut rng = SplitMix64::new(5);
    for k in 0..500 {
        let n0 = rng.vec(1.0).normalize();
        let mut f = Frame::new(&n0, -1e-4);
        // give the frame an arbitrary twist and displacements
        let twist =
            Rotation3::from_axis_angle(&nalgebra::Unit::new_normalize(n0), rng.next_unit() * 6.0);
        f = Frame::from_axes(&(f.axes() * twist.matrix().transpose()), f.u_normal);
        f.u_normal = -1e-4 * rng.next_unit();
        // new normals: near (as in a hand-over) and far (a proximity contact forming)
        let n1 = if k % 2 == 0 {
            (n0 + rng.vec(0.05)).normalize()
        } else {
            rng.vec(1.0).normalize()
        };
        let (u, old) = (f.u_normal, f.axes());
        f.reaim(&n1);
        let r = Rotation3::rotation_between(&n0, &n1).expect("not opposite");
        for row in 0..3 {
            let want = r * old.row(row).transpose();
            let got = f.axes().row(row).transpose();
            assert!(
                (want - got).norm() < 1e-12,
                "axis {row}: {got:?} vs {want:?}"
            );
        }
        assert_eq!(f.normal(), n1);
        assert!((f.axes() * f.axes().transpose() - nalgebra::Matrix3::identity()).norm() < 1e-14);
        assert_eq!(f.u_normal, u);
    }
    // opposite normals: still a proper frame with the new normal
    let mut f = Frame::new(&Vec3::z(), 0.0);
    f.reaim(&-Vec3::z());
    assert_eq!(f.normal(), -Vec3::z());
    assert!((f.axes().determinant() - 1.0).abs() < 1e-14);
}

fn model(kn: Real, ks: Real, friction: Real) -> Model {
    let law = common::linear(kn, ks, friction, 0.0, 0.0);
    let glass = common::material("glass", 0.0, 0.0);
    common::model(TimestepMode::Fixed(1e-5), Vec3::zeros(), 1e-3, glass, law).0
}

fn wall(
    vertices: Vec<Vec3>,
    facets: Vec<[u32; 3]>,
    resolution: Resolution,
    theta_deg: Real,
) -> WallSpec {
    common::fixed_wall("w", vertices, facets, resolution, theta_deg)
}

/// Active contacts and the force on the ball after priming.
fn primed(spec: WallSpec, ball: Vec3) -> (usize, Vec3) {
    let mut m = model(1e5, 1e5, 0.5);
    m.add_ball(&BallSpec::at_rest(1, [ball.x, ball.y, ball.z], 0.01, 0))
        .unwrap();
    m.add_wall(&spec).unwrap();
    m.prime().unwrap();
    (m.facet_contacts.active_count(), m.balls.force[0])
}

#[test]
fn line_of_sight_leaves_the_nearest_of_stacked_layers_under_any_rigid_motion() {
    // Figure 8b: a sheet folded into three layers s = 3e-5 m apart; a ball whose centre is
    // 0.0099 m above the top layer overlaps all three at face points. Reduced: three contacts,
    // force kn (3U - 3s) up. Full: one, kn U (U = 1e-4 m).
    let (s, l) = (3e-5, 0.02);
    let mut v = Vec::new();
    for k in 0..3 {
        let z = -(k as Real) * s;
        v.extend([
            Vec3::new(-l, -l, z),
            Vec3::new(l, -l, z),
            Vec3::new(l, l, z),
            Vec3::new(-l, l, z),
        ]);
    }
    let f: Vec<[u32; 3]> = vec![
        [0, 1, 2],
        [0, 2, 3],
        [4, 6, 5],
        [4, 7, 6],
        [8, 9, 10],
        [8, 10, 11],
        [1, 5, 6],
        [1, 6, 2],
        [4, 8, 11],
        [4, 11, 7],
    ];
    let ball = Vec3::new(0.001, 0.002, 0.0099);
    let u: Real = 1e-4;
    let mut rng = SplitMix64::new(9);
    for k in 0..30 {
        let (q, t) = if k == 0 {
            (Quat::identity(), Vec3::zeros())
        } else {
            (rng.rotation(), rng.vec(5.0))
        };
        let (vk, fk) = common::moved(&v, &f, &q, &t, k);
        let up = q * Vec3::z();
        let (n, force) = primed(
            wall(vk.clone(), fk.clone(), Resolution::Reduced, 0.0),
            q * ball + t,
        );
        assert_eq!(n, 3, "motion {k}");
        assert!(
            (force - up * (1e5 * (3.0 * u - 3.0 * s))).norm() < 1e-7,
            "{force:?}"
        );
        let (n, force) = primed(wall(vk, fk, Resolution::Full, 0.0), q * ball + t);
        assert_eq!(n, 1, "motion {k}");
        assert!((force - up * (1e5 * u)).norm() < 1e-7, "{force:?}");
    }
}

#[test]
fn a_proximity_contact_has_the_overlap_weighted_normal_and_the_mean_overlap() {
    // A 90-degree valley along y: planes z = -x and z = x (unit normals (1,0,1)/√2 and
    // (-1,0,1)/√2 towards the ball). A ball off the middle overlaps the two sides by
    // U_i = R - n_i . c (different). Two separate contacts (reduced) push with kn U_i n_i; one
    // proximity contact (full, Theta = 100°) pushes with kn mean(U) along the normalized
    // U_1 n_1 + U_2 n_2.
    let v = vec![
        Vec3::new(0.0, -0.1, 0.0),
        Vec3::new(0.0, 0.1, 0.0),
        Vec3::new(-0.05, 0.0, 0.05),
        Vec3::new(0.05, 0.0, 0.05),
    ];
    let f = vec![[0, 1, 2], [1, 0, 3]];
    let r = 0.01;
    let c = Vec3::new(0.0003, 0.003, 0.0137);
    let s = 0.5f64.sqrt();
    let (n1, n2) = (Vec3::new(s, 0.0, s), Vec3::new(-s, 0.0, s));
    let (u1, u2) = (r - n1.dot(&c), r - n2.dot(&c));
    assert!(u1 > 0.0 && u2 > 0.0 && (u1 - u2).abs() > 1e-4);
    let (n, force) = primed(wall(v.clone(), f.clone(), Resolution::Reduced, 0.0), c);
    assert_eq!(n, 2);
    let want = (n1 * u1 + n2 * u2) * 1e5;
    assert!(
        (force - want).norm() < 1e-9 * want.norm(),
        "{force:?} vs {want:?}"
    );
    // Theta below the 90° between the normals: no proximity contact, as reduced.
    let (n, force) = primed(wall(v.clone(), f.clone(), Resolution::Full, 80.0), c);
    assert_eq!(n, 2);
    assert!((force - want).norm() < 1e-9 * want.norm());
    let (n, force) = primed(wall(v, f, Resolution::Full, 100.0), c);
    assert_eq!(n, 1);
    let want = (n1 * u1 + n2 * u2).normalize() * (1e5 * 0.5 * (u1 + u2));
    assert!(
        (force - want).norm() < 1e-9 * want.norm(),
        "{force:?} vs {want:?}"
    );
}

/// Shear force magnitudes of a ball pressed (10 N) on a grid of 3 mm cells and dragged at
/// 0.05 m/s across it for `cycles`, the scene turned by `angle` about z, moved by `shift`, with
/// vertex order rotated by `perm`; the plane's in-plane direction of motion is (cos a, sin a).
fn drag(resolution: Resolution, angle: Real, shift: Vec3, perm: usize, cycles: usize) -> Vec<Real> {
    let q = Quat::from_scaled_axis(Vec3::z() * angle);
    let (v0, f0) = ballast::geom::plane(Vec3::zeros(), Vec3::z(), [0.036, 0.012], [12, 4]);
    let (v, f) = common::moved(&v0, &f0, &q, &shift, perm);
    let mut m = model(1e5, 1e3, 1e6);
    let start = q * Vec3::new(-0.0115, 0.0013, 0.0099) + shift;
    let mut b = BallSpec::at_rest(1, [start.x, start.y, start.z], 0.01, 0);
    b.vel = q * Vec3::new(0.05, 0.0, 0.0);
    b.applied_force = Vec3::new(0.0, 0.0, -10.0);
    b.fixed = dof::X | dof::Y | dof::RX | dof::RY | dof::RZ;
    m.add_ball(&b).unwrap();
    m.add_wall(&wall(v, f, resolution, 0.0)).unwrap();
    let mut out = Vec::new();
    for _ in 0..cycles {
        m.cycle().unwrap();
        let it = m.facet_contacts.interactions[0].clone();
        let normal = m
            .facet_contacts
            .contacts_of(&it)
            .iter()
            .find(|c| c.active)
            .map(|c| c.normal)
            .unwrap_or(Vec3::z());
        out.push((it.force - normal * normal.dot(&it.force)).norm());
    }
    out
}

#[test]
fn the_shear_state_follows_the_ball_across_facets_in_full_mode_only() {
    // 10,000 cycles (0.1 s, 5 mm): several hand-overs between coplanar facets. Full mode: the
    // shear magnitude is ks v t at every cycle, the same in the scene turned and moved (and with
    // the vertex order permuted); reduced: it is lost at least once.
    let cycles = 10_000;
    let (ks, v, dt) = (1e3, 0.05, 1e-5);
    let full = drag(Resolution::Full, 0.0, Vec3::zeros(), 0, cycles);
    for (k, s) in full.iter().enumerate() {
        let want = ks * v * dt * (k + 1) as Real;
        assert!(
            (s - want).abs() <= 1e-9 * ks * v * dt * cycles as Real,
            "cycle {k}: {s} vs {want}"
        );
    }
    for (angle, shift, perm) in [
        (0.7, Vec3::new(3.0, -2.0, 1.0), 1),
        (2.3, Vec3::new(-0.4, 7.0, -5.0), 2),
    ] {
        let other = drag(Resolution::Full, angle, shift, perm, cycles);
        let worst = full
            .iter()
            .zip(&other)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, Real::max);
        assert!(
            worst < 1e-9 * full[cycles - 1],
            "turned by {angle}: {worst}"
        );
    }
    let reduced = drag(Resolution::Reduced, 0.0, Vec3::zeros(), 0, cycles);
    let lost = reduced.windows(2).filter(|w| w[0] - w[1] > 0.1).count();
    assert!(lost >= 2, "{lost} losses");
}

/// The rolling spring follows the ball across facets in full mode as the shear state does:
/// the ball of [`drag`]'s scene, also turning at 1 rad/s about y (held), with PFC's rolling
/// resistance (`k_r` = 1e-3 N m/rad, `mu_r` = 1: the limit, `mu_r R F_n` = 0.1 N m, is never
/// reached). By hand: the relative rotation about the rolling axis grows by `w dt` each cycle,
/// so the spring's couple is `k_r w dt k` at cycle k, through every hand-over between facets;
/// the reduced mode, which hands no state over, loses it.
#[test]
fn the_rolling_spring_follows_the_ball_across_facets_in_full_mode() {
    let (kr, w, dt, cycles) = (1e-3, 1.0, 1e-5, 10_000);
    let run = |resolution: Resolution| {
        let (v, f) = ballast::geom::plane(Vec3::zeros(), Vec3::z(), [0.036, 0.012], [12, 4]);
        let mut m = model(1e5, 1e3, 1e6);
        m.rolling = vec![Some(ballast::law::Rolling::Pfc {
            coefficient: 1.0,
            kr: Some(kr),
            twisting: 0.0,
        })];
        let mut b = BallSpec::at_rest(1, [-0.0115, 0.0013, 0.0099], 0.01, 0);
        b.vel = Vec3::new(0.05, 0.0, 0.0);
        b.spin = Vec3::new(0.0, w, 0.0);
        b.applied_force = Vec3::new(0.0, 0.0, -10.0);
        b.fixed = dof::X | dof::Y | dof::RX | dof::RY | dof::RZ;
        m.add_ball(&b).unwrap();
        m.add_wall(&wall(v, f, resolution, 0.0)).unwrap();
        (0..cycles)
            .map(|_| {
                m.cycle().unwrap();
                let fc = &m.facet_contacts;
                (0..fc.list.len())
                    .filter(|&k| fc.list[k].active)
                    .map(|k| fc.couple_of(k))
                    .fold(Vec3::zeros(), |a, b| a + b)
                    .norm()
            })
            .collect::<Vec<Real>>()
    };
    let full = run(Resolution::Full);
    for (k, m) in full.iter().enumerate() {
        let want = kr * w * dt * (k + 1) as Real;
        assert!(
            (m - want).abs() <= 1e-6 * kr * w * dt * cycles as Real,
            "cycle {k}: {m} vs {want}"
        );
    }
    let reduced = run(Resolution::Reduced);
    let lost = reduced.windows(2).filter(|p| p[0] - p[1] > 1e-6).count();
    assert!(lost >= 2, "{lost} losses");
}

#[test]
fn contacts_whose_normals_cancel_do_not_form_a_proximity_contact() {
    // A ball in a triangular prism whose three sides (normals 120° apart) each overlap it by U:
    // with Theta = 150° all three pairs qualify, but the overlap-weighted normal is zero; the
    // contacts act separately (three active, resultant zero) instead of producing a NaN.
    let (r, u): (Real, Real) = (0.01, 1e-4);
    let rho = r - u;
    let corner = |k: usize, z: Real| {
        let a = (90.0 + 120.0 * k as Real).to_radians();
        Vec3::new(2.0 * rho * a.cos(), 2.0 * rho * a.sin(), z)
    };
    let mut v = Vec::new();
    for k in 0..3 {
        v.push(corner(k, -0.02));
        v.push(corner(k, 0.02));
    }
    // side k joins corners k and k+1; vertices 2k (bottom), 2k+1 (top); normals inward
    let f: Vec<[u32; 3]> = (0..3u32)
        .flat_map(|k| {
            let (b0, t0, b1, t1) = (2 * k, 2 * k + 1, (2 * k + 2) % 6, (2 * k + 3) % 6);
            [[b0, t0, t1], [b0, t1, b1]]
        })
        .collect();
    let (n, force) = primed(wall(v, f, Resolution::Full, 150.0), Vec3::zeros());
    assert_eq!(n, 3);
    assert!(
        force.iter().all(|x| x.is_finite()) && force.norm() < 1e-9,
        "{force:?}"
    );
}
