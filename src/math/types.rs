//! The scalar and vector types.

/// The floating-point type of every physical quantity.
pub type Real = f64;
/// A 3D vector (position m, velocity m/s, force N, ... : the name of the variable says which).
pub type Vec3 = nalgebra::Vector3<Real>;
/// A unit quaternion: the orientation of a body (body frame to world frame).
pub type Quat = nalgebra::UnitQuaternion<Real>;
