//! Timestep modes: the kinematic constraint holds each piece's displacement per cycle to eps,
//! and is reached exactly when it is the binding limit.

use ballast::body::BallSpec;
use ballast::math::Vec3;
use ballast::model::Settings;
use ballast::stiffness::study;
use ballast::timestep::{kinematic_limit, Auto, Estimator, Limit, TimestepMode};

/// A ball launched sideways while falling under gravity, alone (no contact, so only the
/// kinematic constraint limits the automatic timestep). The constraint is the positive root of
/// |a|/2 t^2 + |v_sync| t = eps, and the displacement v_sync dt + a dt^2/2 is at most that long
/// (triangle inequality), with equality only when v_sync and a are parallel: each cycle must
/// move the ball by at most eps and, velocity and gravity being far from opposed, by nearly eps.
#[test]
fn kinematic_constraint_bounds_the_displacement_per_cycle() {
    let eps = 1e-4;
    let settings = Settings {
        gravity: Vec3::new(0.0, 0.0, -9.81),
        margin: 2e-4,
        timestep: TimestepMode::Auto(Auto {
            safety: 0.8,
            estimator: Estimator::Diagonal,
            kinematic_eps: Some(eps),
            cap: None,
        }),
        frame: Default::default(),
    };
    let (mut m, glass) = study::glass_model(settings, study::linear_law(1e6, 1e6, 0.0, 0.0));
    let mut spec = BallSpec::at_rest(1, [0.0, 0.0, 0.0], 0.01, glass);
    spec.vel = Vec3::new(0.3, 0.0, 0.0);
    m.add_ball(&spec).unwrap();
    let mut prev = m.balls.pos[0];
    for _ in 0..500 {
        m.cycle().unwrap();
        assert_eq!(m.dt_limit, Limit::Kinematic { ball: 0 });
        let moved = (m.balls.pos[0] - prev).norm();
        assert!(moved <= eps * (1.0 + 1e-12), "moved {moved} > eps");
        assert!(
            moved >= eps * 0.99,
            "moved {moved}: the constraint is far from binding"
        );
        prev = m.balls.pos[0];
    }
}

/// The stable form of eq. 4 agrees with the printed form where the latter is accurate, and
/// with its limits `eps / v` (a = 0) and `sqrt(2 eps / a)` (v = 0).
#[test]
fn kinematic_limit_matches_eq_4_where_eq_4_is_accurate() {
    for (v, a, eps) in [
        (1.0f64, 10.0f64, 1e-3f64),
        (0.1, 1e3, 1e-4),
        (2.0, 0.5, 1e-2),
    ] {
        let printed = (-v + (v * v + 2.0 * a * eps).sqrt()) / a;
        assert!((kinematic_limit(v, a, eps) / printed - 1.0).abs() < 1e-9);
    }
    assert_eq!(kinematic_limit(0.5, 0.0, 1e-3), 2e-3);
    assert!((kinematic_limit(0.0, 2.0, 1e-3) - 1e-3f64.sqrt()).abs() < 1e-16);
}
