//! Scalar and vector types: the one place that names `f64` and nalgebra's types.

/// The floating-point type of every physical quantity.
pub type Real = f64;
/// A 3D vector (position m, velocity m/s, force N, ... : the name of the variable says which).
pub type Vec3 = nalgebra::Vector3<Real>;
/// A unit quaternion: the orientation of a body (body frame to world frame).
pub type Quat = nalgebra::UnitQuaternion<Real>;

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
