//! The walls seen from Python: found by name, their pose, velocity and load, and a rigid
//! wall's velocity set (a servo written in Python).

use ballast::body::WallMotion;
use ballast::math::Vec3;
use ballast::model::Model;
use pyo3::exceptions::PyKeyError;
use pyo3::PyResult;

/// The index of the wall named `name`.
///
/// # Errors
/// `KeyError` naming the walls there are.
pub fn find(model: &Model, name: &str) -> PyResult<usize> {
    model
        .walls
        .iter()
        .position(|w| w.name == name)
        .ok_or_else(|| {
            let names: Vec<&str> = model.walls.iter().map(|w| w.name.as_str()).collect();
            PyKeyError::new_err(format!(
                "{name:?}: no such wall; walls: {}",
                names.join(", ")
            ))
        })
}

/// The velocity of wall `w`'s pivot, m/s (a deformable wall: its vertices' mean).
pub fn velocity(model: &Model, w: usize) -> Vec3 {
    match &model.walls[w].motion {
        WallMotion::Rigid { vel, .. } => *vel,
        WallMotion::Deformable { vertex_vel } => {
            vertex_vel.iter().sum::<Vec3>() / (vertex_vel.len().max(1) as f64)
        }
    }
}

/// Sets the velocity of wall `w`'s pivot, m/s, keeping its spin.
///
/// # Errors
/// As [`ballast::body::Wall::set_velocity`].
pub fn set_velocity(model: &mut Model, w: usize, v: Vec3) -> Result<(), String> {
    model.walls[w].set_velocity(v)
}
