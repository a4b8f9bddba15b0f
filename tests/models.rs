//! Contact-model building blocks against independent references: the restitution of the
//! dimensionless impacts against the damped oscillator's closed form, the Hertz loading-time
//! constant against quadrature, the Hertz-Mindlin effective moduli against hand values.

use ballast::check::HERTZ_LOADING;
use ballast::law::restitution::{damping_for, restitution, Shape};
use ballast::law::HertzPair;
use ballast::math::{Real, PI};
use rstest::rstest;

/// For the linear model the numerical impact solver gives the damped oscillator's restitution
/// e = exp(−πζ/√(1−ζ²)), and its inverse gives ζ back. A row: the damping ratio ζ.
#[rstest]
#[case::z_0p01(0.01)]
#[case::z_0p1(0.1)]
#[case::z_0p3(0.3)]
#[case::z_0p6(0.6)]
#[case::z_0p9(0.9)]
fn the_linear_impact_solver_reproduces_the_damped_oscillator(#[case] z: Real) {
    let closed = (-PI * z / (1.0 - z * z).sqrt()).exp();
    let solved = restitution(Shape::Linear, z, false);
    assert!(
        (solved - closed).abs() < 1e-9,
        "z = {z}: {solved} vs {closed}"
    );
    // and the inverse
    let back = damping_for(Shape::Linear, closed, false);
    assert!(
        (back - z).abs() < 1e-7 * z.max(0.1),
        "z = {z}: inverse {back}"
    );
}

#[test]
fn clamping_raises_the_restitution_and_the_calibration_compensates() {
    // Clamped, the contact ends when the force reaches zero, before the overlap closes: no
    // pull, so more energy comes back for the same damping.
    for shape in [Shape::Linear, Shape::Hertz] {
        for d in [0.1, 0.3, 0.6] {
            assert!(
                restitution(shape, d, true) > restitution(shape, d, false),
                "{shape:?} {d}"
            );
        }
        for e in [0.2, 0.5, 0.9] {
            let a = damping_for(shape, e, true);
            assert!((restitution(shape, a, true) - e).abs() < 1e-8);
            assert!(a > damping_for(shape, e, false));
        }
    }
}

#[test]
fn the_hertz_loading_constant_is_the_beta_integral() {
    // int_0^1 dx / sqrt(1 - x^(5/2)) with x = 1 - s^2 (smooth integrand), Simpson's rule.
    let g = |s: Real| {
        if s == 0.0 {
            2.0 / (2.5 as Real).sqrt()
        } else {
            2.0 * s / (1.0 - (1.0 - s * s).powf(2.5)).sqrt()
        }
    };
    let n = 200_000;
    let h = 1.0 / n as Real;
    let mut sum = g(0.0) + g(1.0);
    for k in 1..n {
        sum += g(k as Real * h) * if k % 2 == 1 { 4.0 } else { 2.0 };
    }
    let integral = sum * h / 3.0;
    assert!(
        (integral - HERTZ_LOADING).abs() < 1e-10,
        "{integral} vs {HERTZ_LOADING}"
    );
}

#[test]
fn effective_moduli_of_like_spheres_and_of_a_rigid_plane() {
    // Two glass spheres (E = 4.8e10, v = 0.2): E* = E / (2 (1 - v^2)) = 2.5e10;
    // G* = E / (4 (2 - v)(1 + v)) = 5.5555...e9. A sphere on a rigid plane: E* = E / (1 - v^2).
    let p = HertzPair::of(4.8e10, 0.2, 4.8e10, 0.2);
    assert!((p.e_star - 2.5e10).abs() < 1e-3);
    assert!((p.g_star - 4.8e10 / (4.0 * 1.8 * 1.2)).abs() < 1e-3);
    let w = HertzPair::of(7.0e10, 0.3, Real::INFINITY, 0.3);
    assert!((w.e_star - 7.0e10 / 0.91).abs() < 1e-2);
}

const PAIR: &str = r#"
[run]
steps = 1
[timestep]
mode = "model"
loading_steps = 20
[material.glass]
density = 2500.0
young = 5e6
poisson = 0.3
[material.steel]
density = 7800.0
young = inf
poisson = 0.3
[[contact]]
between = ["glass", "glass"]
model = "hertz"
restitution = 0.5
[[contact]]
between = ["glass", "steel"]
model = "linear-dashpot"
kn = 1e3
restitution = 0.5
[[ball]]
pos = [0.0, 0.0, 0.01]
radius = 0.001
material = "glass"
[[ball]]
pos = [0.0, 0.0, 0.02]
radius = 0.002
material = "glass"
[[wall]]
name = "floor"
material = "steel"
plane = { center = [0.0, 0.0, 0.0], normal = [0.0, 0.0, 1.0], size = [0.1, 0.1] }
"#;

#[test]
fn the_model_timestep_is_the_smallest_formula_over_the_pairs_present() {
    // glass-glass Hertz, taken (by the documented rule) for the smallest glass ball with
    // itself, r = 1 mm: m* = m/2, R* = r/2;
    //   E* = E/(2(1 - v^2)), k = 2 E* sqrt(R* 0.1 R*) = 2 E* R* sqrt(0.1),
    //   dt = (pi/2) sqrt(m*/k) / 20;
    // glass-floor linear-dashpot: dt = (pi/2) sqrt(m/kn) / 20 with the smallest glass ball.
    let case = ballast::case::parse(PAIR, std::path::Path::new("pair.toml")).unwrap();
    let mut model = case.build_model(None).unwrap();
    model.cycle().unwrap();
    let m = 2500.0 * 4.0 / 3.0 * PI * 1e-9;
    let e_star = 5e6 / (2.0 * (1.0 - 0.09));
    let r_star = 0.0005;
    let k = 2.0 * e_star * r_star * (0.1 as Real).sqrt();
    let hertz = 0.5 * PI * (0.5 * m / k).sqrt() / 20.0;
    let wall = 0.5 * PI * (m / 1e3).sqrt() / 20.0;
    let expected = hertz.min(wall);
    assert!(
        (model.last_dt - expected).abs() < 1e-12 * expected,
        "dt {} vs {expected} (Hertz {hertz}, wall {wall})",
        model.last_dt
    );
    let words = model.describe_limit(model.dt_limit);
    let which = if hertz < wall {
        "hertz formula for a glass ball and a glass ball"
    } else {
        "linear-dashpot formula for a glass ball and wall \"floor\""
    };
    assert_eq!(words, which);
}

#[test]
fn a_bond_carries_tension_until_its_strength_then_breaks_for_good() {
    // Ball 2 is pulled away from ball 1 at 0.1 m/s (both translations fixed: prescribed
    // velocity). Bonded at the start (touching), the bond pulls with kn * gap, gap = v t,
    // until kn v t > tensile = 0.5 N: t_break = 0.5 / (1e4 * 0.1) = 5e-4 s; no force after.
    let src = r#"
[run]
steps = 1000
[timestep]
mode = "fixed"
dt = 1e-6
[material.glass]
density = 2500.0
[[contact]]
between = ["glass", "glass"]
model = "linearbond"
kn = 1e4
ks = 1e4
friction = 0.5
tensile = 0.5
shear_strength = 1.0
[[ball]]
pos = [0.0, 0.0, 0.0]
radius = 0.01
material = "glass"
fix = ["x", "y", "z"]
[[ball]]
pos = [0.02, 0.0, 0.0]
radius = 0.01
material = "glass"
vel = [0.1, 0.0, 0.0]
fix = ["x", "y", "z"]
"#;
    let case = ballast::case::parse(src, std::path::Path::new("bond.toml")).unwrap();
    let mut model = case.build_model(None).unwrap();
    let mut broke_at = None;
    for _ in 0..1000 {
        model.cycle().unwrap();
        let c = &model.contacts.list[0];
        let gap = -model.contacts.geometry(0, &model.balls).overlap;
        let force = model.contacts.contact_force(0, &model.balls, &model.laws);
        if c.active {
            // tension on ball 2 pulls it back: force along -x of magnitude kn * gap
            assert!(
                (force.x + 1e4 * gap).abs() < 1e-9,
                "bond force {} at gap {gap}",
                force.x
            );
        } else if broke_at.is_none() {
            broke_at = Some(model.time);
        }
        if broke_at.is_some() {
            assert!(!c.active && !c.state.bonded(), "a broken bond came back");
        }
    }
    let t = broke_at.expect("the bond never broke");
    assert!(
        (t - 5e-4).abs() <= 1.01e-6,
        "broke at {t} s, expected 5e-4 s (one step)"
    );
}

#[test]
fn each_model_says_which_state_goes_to_the_next_facet() {
    // What the full mode (#5) hands over: the shear force always; the largest overlap for the
    // hysteretic model (its unloading line continues); never a bond (bonds are ball-ball).
    use ballast::law::{ContactModel, Hysteretic, LawState, LinearBond};
    use ballast::math::Vec3;
    let shear = Vec3::new(0.0, 1.5, -2.0);
    let (mut loaded, mut bonded) = (LawState::default(), LawState::default());
    (*loaded.shear_force_mut(), *bonded.shear_force_mut()) = (shear, shear);
    loaded.set_max_overlap(3e-5);
    bonded.set_bonded(true);
    let hyst = ContactModel::Hysteretic(Hysteretic {
        kn: 1e5,
        k_unload: 4e5,
        ks: 1e5,
        friction: 0.5,
    });
    let bond = ContactModel::LinearBond(LinearBond {
        kn: 1e5,
        ks: 1e5,
        friction: 0.5,
        tensile: 1.0,
        shear_strength: 1.0,
        bond_gap: 0.0,
    });
    let h = hyst.hand_over(&loaded);
    assert_eq!((h.shear_force(), h.max_overlap()), (shear, 3e-5));
    let b = bond.hand_over(&bonded);
    assert_eq!((b.shear_force(), b.bonded()), (shear, false));
    assert!(!bond.holds(&b), "a bond was handed over");
}
