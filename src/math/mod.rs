//! Scalar and vector types: the one place that names `f64` and nalgebra's types.

mod exact;
mod types;
pub use exact::{exact_sum, exact_sum3, ExactSum, ExactTensor, ExactVec3};
pub use types::{Quat, Real, Vec3};

/// The lowest and highest corners of `points` (infinite and inverted when there are none).
pub fn extent(points: &[Vec3]) -> (Vec3, Vec3) {
    let far = Vec3::repeat(Real::INFINITY);
    (points.iter()).fold((far, -far), |(lo, hi), p| (lo.inf(p), hi.sup(p)))
}

/// pi, for formulas that read like the literature.
pub const PI: Real = std::f64::consts::PI;

/// Builds a [`Vec3`] from an array.
///
/// # Examples
/// ```
/// let v = ballast::math::vec3([1.0, 2.0, 3.0]);
/// assert_eq!(v.y, 2.0);
/// ```
pub fn vec3(a: [Real; 3]) -> Vec3 {
    Vec3::new(a[0], a[1], a[2])
}

/// Rotation by the angle |w| dt about the axis w (exact, not the first-order quaternion
/// q(1, w dt/2), which turns by 2 atan(|w| dt/2) instead of |w| dt).
///
/// # Examples
/// ```
/// use ballast::math::{rotation_from_spin, Vec3};
/// let q = rotation_from_spin(&Vec3::new(0.0, 0.0, 2.0), 0.5);
/// assert!((q.angle() - 1.0).abs() < 1e-15);
/// ```
pub fn rotation_from_spin(spin: &Vec3, dt: Real) -> Quat {
    Quat::from_scaled_axis(spin * dt)
}

/// A number as a person writes it: `0`, `2500`, `0.5`, `1e-6`, `1.4377e-3` (shortest form that
/// reads back to the same value; exponent form outside [1e-3, 1e5)).
///
/// # Examples
/// ```
/// use ballast::math::num;
/// assert_eq!(num(0.0), "0");
/// assert_eq!(num(2500.0), "2500");
/// assert_eq!(num(1e-6), "1e-6");
/// assert_eq!(num(-0.25), "-0.25");
/// ```
pub fn num(v: Real) -> String {
    let a = v.abs();
    if v == 0.0 {
        "0".into()
    } else if (1e-3..1e5).contains(&a) || !v.is_finite() {
        format!("{v}")
    } else {
        format!("{v:e}")
    }
}

/// `x^(2/5)`, the power of the Hertz foresight ([`crate::law::ContactModel::foreseen_overlap`]),
/// in operations that run lane by lane in vector instructions (src/force/lanes/springs.rs): the
/// fifth root by Newton's iteration `y <- (4 y + x / y^4) / 5`, four times from a first guess
/// read off the exponent bits (`bits(x) / 5 + (4/5) bits(1)`, within 6 %: then 7e-3, 9e-5,
/// 1.5e-8 and round-off, about 5e-15, after the fourth), squared. `0`, `inf` and NaN give
/// themselves. A subnormal `x` (below 2.2e-308) is not iterated to round-off: its result lies
/// above the true one, at most `2.2e-308^(2/5)`, 9e-124 (test `two_fifths_power_against_powf`).
#[inline(always)]
pub fn two_fifths_power(x: Real) -> Real {
    // (the bits of 1.0, 1023 << 52)
    const ONE: Real = 4_607_182_418_800_017_408.0;
    let guess = (x.max(Real::MIN_POSITIVE).to_bits() as i64) as Real * 0.2 + 0.8 * ONE;
    let mut y = Real::from_bits(guess as u64);
    for _ in 0..4 {
        let y2 = y * y;
        y = 0.8 * y + 0.2 * x / (y2 * y2);
    }
    if x > 0.0 && x < Real::INFINITY {
        y * y
    } else {
        x
    }
}

#[cfg(test)]
mod tests {
    use super::{two_fifths_power, Real};

    /// [`two_fifths_power`] against `powf(0.4)` on 200,000 numbers spread over every binade of
    /// the normal range (mantissas drawn at random): within 2e-14 relative; exactly 0, inf
    /// and NaN for those; a subnormal argument errs high, below 9e-124.
    #[test]
    fn two_fifths_power_against_powf() {
        // (a xorshift stream: `rng` sits above this module)
        let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut worst: Real = 0.0;
        for _ in 0..200_000 {
            let e = (next() % 2040) as i32 - 1020;
            let m = 1.0 + (next() >> 11) as Real / (1u64 << 53) as Real;
            let x = m * (2.0 as Real).powi(e);
            let want = x.powf(0.4);
            worst = worst.max(((two_fifths_power(x) - want) / want).abs());
        }
        assert!(worst < 2e-14, "worst relative error {worst:e}");
        assert_eq!(two_fifths_power(0.0), 0.0);
        assert_eq!(two_fifths_power(Real::INFINITY), Real::INFINITY);
        assert!(two_fifths_power(Real::NAN).is_nan());
        for x in [5e-324, 1e-310, 2e-308] {
            let y = two_fifths_power(x);
            assert!(
                y >= x.powf(0.4) * (1.0 - 1e-13) && y < 9e-124,
                "{x:e}: {y:e}"
            );
        }
    }
}
