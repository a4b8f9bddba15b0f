//! Contact-model building blocks against independent references: the restitution of the
//! dimensionless impacts against the damped oscillator's closed form, the Hertz loading-time
//! constant against quadrature, the Hertz-Mindlin effective moduli against hand values.

use ballast::check::HERTZ_LOADING;
use ballast::law::restitution::{damping_for, restitution, Shape};
use ballast::law::HertzPair;
use ballast::math::{Real, PI};

#[test]
fn the_linear_impact_solver_reproduces_the_damped_oscillator() {
    for z in [0.01, 0.1, 0.3, 0.6, 0.9] {
        let closed = (-PI * z / (1.0 - z * z).sqrt()).exp();
        let solved = restitution(Shape::Linear, z, false);
        assert!((solved - closed).abs() < 1e-9, "z = {z}: {solved} vs {closed}");
        // and the inverse
        let back = damping_for(Shape::Linear, closed, false);
        assert!((back - z).abs() < 1e-7 * z.max(0.1), "z = {z}: inverse {back}");
    }
}

#[test]
fn clamping_raises_the_restitution_and_the_calibration_compensates() {
    // Clamped, the contact ends when the force reaches zero, before the overlap closes: no
    // pull, so more energy comes back for the same damping.
    for shape in [Shape::Linear, Shape::Hertz] {
        for d in [0.1, 0.3, 0.6] {
            assert!(restitution(shape, d, true) > restitution(shape, d, false), "{shape:?} {d}");
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
    assert!((integral - HERTZ_LOADING).abs() < 1e-10, "{integral} vs {HERTZ_LOADING}");
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
