//! Materials: what a piece is made of.

use crate::math::Real;

/// A material, referred to by pieces through its index in [`crate::model::Model::materials`].
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Material {
    /// Name used in case files and reports.
    pub name: String,
    /// Density, kg/m^3. Gives each ball its mass and moment of inertia.
    pub density: Real,
    /// Young's modulus, Pa (used by Hertz-type contact models; 0 when not given).
    pub young: Real,
    /// Poisson's ratio, dimensionless (used by Hertz-type contact models).
    pub poisson: Real,
}
