//! Small models for studying the estimates against the exact critical timestep: used by the
//! report's Timestep page and by the tests.

use crate::body::{dof, BallSpec, Material};
use crate::law::{ContactModel, Linear};
use crate::math::{Real, Vec3};
use crate::model::{Model, ModelError, Settings};
use crate::timestep::TimestepMode;

/// A model of balls `(centre, radius, fixed DOF bits)` of density 2500 kg/m^3 with one linear
/// contact model, without gravity, primed (contacts detected and forces computed).
///
/// # Errors
/// A bad ball (radius, duplicate) or overlapping centres, as [`ModelError`].
pub fn primed_model(balls: &[(Vec3, Real, u8)], law: Linear) -> Result<Model, ModelError> {
    let (mut m, glass) = glass_model(
        Settings {
            gravity: Vec3::zeros(),
            margin: 1e-4,
            timestep: TimestepMode::Fixed(1e-6),
            frame: Default::default(),
        },
        law,
    );
    for (k, (p, r, fixed)) in balls.iter().enumerate() {
        let mut spec = BallSpec::at_rest(k as u64 + 1, [p.x, p.y, p.z], *r, glass);
        spec.fixed = *fixed;
        m.add_ball(&spec)?;
    }
    m.prime()?;
    Ok(m)
}

/// An empty model with one material, "glass" (density 2500 kg/m^3), whose balls meet through
/// the given linear law; returns the model and the material's index.
pub fn glass_model(settings: Settings, law: Linear) -> (Model, usize) {
    let mut m = Model::new(settings);
    let glass = m.add_material(Material {
        name: "glass".into(),
        density: 2500.0,
        young: 0.0,
        poisson: 0.0,
    });
    m.set_contact_model(glass, glass, ContactModel::Linear(law));
    (m, glass)
}

/// A linear law with the given stiffnesses, friction 0.5 and no damping.
pub fn linear_law(kn: Real, ks: Real, kn_rot: Real, ks_rot: Real) -> Linear {
    Linear {
        kn,
        ks,
        kn_rot,
        ks_rot,
        friction: 0.5,
        damp_n: 0.0,
        damp_s: 0.0,
        limit: Default::default(),
    }
}

/// A chain of `n` free balls of radius `r` between two fixed ones along the unit vector `dir`,
/// each contact overlapping by `overlap`.
pub fn chain(n: usize, r: Real, overlap: Real, dir: Vec3) -> Vec<(Vec3, Real, u8)> {
    (0..n + 2)
        .map(|k| {
            let fixed = if k == 0 || k == n + 1 { dof::ALL } else { 0 };
            (dir * (k as Real * (2.0 * r - overlap)), r, fixed)
        })
        .collect()
}

/// The closed-form exact critical timestep of [`chain`] with normal springs only:
/// `2 / omega_N`, `omega_N = 2 sqrt(kn/m) sin(N pi / (2 (N + 1)))`.
pub fn chain_exact(n: usize, mass: Real, kn: Real) -> Real {
    let w =
        2.0 * (kn / mass).sqrt() * (n as Real * crate::math::PI / (2.0 * (n as Real + 1.0))).sin();
    2.0 / w
}
