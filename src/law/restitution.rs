//! Restitution of a head-on impact as a function of the damping, for the dashpot models, and
//! its inverse: the damping that reproduces a requested restitution.
//!
//! Both impacts reduce to one dimensionless equation whose solution does not depend on the
//! impact speed, the masses or the stiffness (see the models' documentation):
//! - linear spring-dashpot ([`Shape::Linear`], damping = ratio `z`):
//!   `x'' = -x - 2 z x'`;
//! - Hertz ([`Shape::Hertz`], damping = `a` of `-a sqrt(m* S_n) v_n`):
//!   `x'' = -x^(3/2) - a sqrt(3/2) x^(1/4) x'`;
//!
//! with `x(0) = 0`, `x'(0) = 1`. Clamped: the total force `-x'' ` is never negative, and the
//! bodies separate when the overlap closes (they fly apart at constant speed once the force is
//! zero). The restitution is `-x'` when `x` returns to zero. The equation is integrated with
//! the classical fourth-order Runge-Kutta method at 20,000 steps per unit time, the crossing
//! located by linear interpolation; the linear unclamped case is compared with its closed form
//! `exp(-pi z / sqrt(1 - z^2))` in the tests (agreement to 1e-9).

use crate::math::Real;

/// Which force law the impact follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// Linear spring and linear dashpot.
    Linear,
    /// Hertz spring and the `d^(1/4)` dashpot.
    Hertz,
}

const H: Real = 5e-5;
const T_MAX: Real = 200.0;

fn accel(shape: Shape, damping: Real, clamp: bool, x: Real, v: Real) -> Real {
    let xp = x.max(0.0);
    let f = match shape {
        Shape::Linear => xp + 2.0 * damping * v,
        Shape::Hertz => xp * xp.sqrt() + damping * (1.5 as Real).sqrt() * xp.sqrt().sqrt() * v,
    };
    if clamp {
        -f.max(0.0)
    } else {
        -f
    }
}

/// Restitution of the dimensionless impact with the given damping (0 when the bodies never
/// separate within 200 time units: overdamped).
pub fn restitution(shape: Shape, damping: Real, clamp: bool) -> Real {
    if damping == 0.0 {
        return 1.0;
    }
    let (mut x, mut v) = (0.0, 1.0);
    let mut t = 0.0;
    let a = |x: Real, v: Real| accel(shape, damping, clamp, x, v);
    while t < T_MAX {
        let (k1x, k1v) = (v, a(x, v));
        let (k2x, k2v) = (v + 0.5 * H * k1v, a(x + 0.5 * H * k1x, v + 0.5 * H * k1v));
        let (k3x, k3v) = (v + 0.5 * H * k2v, a(x + 0.5 * H * k2x, v + 0.5 * H * k2v));
        let (k4x, k4v) = (v + H * k3v, a(x + H * k3x, v + H * k3v));
        let xn = x + H / 6.0 * (k1x + 2.0 * k2x + 2.0 * k3x + k4x);
        let vn = v + H / 6.0 * (k1v + 2.0 * k2v + 2.0 * k3v + k4v);
        t += H;
        if xn <= 0.0 && t > H {
            let s = x / (x - xn);
            return -(v + s * (vn - v));
        }
        x = xn;
        v = vn;
    }
    0.0
}

/// The damping for which the impact has restitution `e` (in (0, 1]): bisection on the
/// decreasing function [`restitution`], to 1e-10 relative.
pub fn damping_for(shape: Shape, e: Real, clamp: bool) -> Real {
    if e >= 1.0 {
        return 0.0;
    }
    let (mut lo, mut hi) = (0.0, 1.0);
    while restitution(shape, hi, clamp) > e && hi < 1e6 {
        lo = hi;
        hi *= 2.0;
    }
    while hi - lo > 1e-10 * hi {
        let mid = 0.5 * (lo + hi);
        if restitution(shape, mid, clamp) > e {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}
