//! Helpers shared by the test modules: a model with one material and one contact model, a
//! fixed wall, random vectors and rotations, and a run on a pool of a given number of threads.

use ballast::body::{Material, Resolution, WallMotion, WallSpec};
use ballast::law::{ContactModel, Linear};
use ballast::math::{Quat, Real, Vec3};
use ballast::model::{Model, Settings};
use ballast::rng::SplitMix64;
use ballast::timestep::TimestepMode;

/// The PFC linear model without rotational springs.
pub fn linear(kn: Real, ks: Real, friction: Real, damp_n: Real, damp_s: Real) -> ContactModel {
    ContactModel::Linear(Linear {
        kn,
        ks,
        kn_rot: 0.0,
        ks_rot: 0.0,
        friction,
        damp_n,
        damp_s,
        limit: Default::default(),
    })
}

/// A material of density 2,500 kg/m^3 with the given elastic constants.
pub fn material(name: &str, young: Real, poisson: Real) -> Material {
    Material {
        name: name.into(),
        density: 2500.0,
        young,
        poisson,
    }
}

/// A model with one material and one contact model for it; returns the model and the
/// material's index.
pub fn model(
    timestep: TimestepMode,
    gravity: Vec3,
    margin: Real,
    mat: Material,
    law: ContactModel,
) -> (Model, usize) {
    let mut m = Model::new(Settings {
        gravity,
        margin,
        timestep,
        frame: Default::default(),
    });
    let k = m.add_material(mat);
    m.set_contact_model(k, k, law);
    (m, k)
}

/// A fixed wall of material 0 with no inactive side.
pub fn fixed_wall(
    name: &str,
    vertices: Vec<Vec3>,
    facets: Vec<[u32; 3]>,
    resolution: Resolution,
    cutoff_deg: Real,
) -> WallSpec {
    WallSpec {
        name: name.into(),
        material: 0,
        vertices,
        facets,
        inactive: vec![],
        motion: WallMotion::Rigid {
            vel: Vec3::zeros(),
            spin: Vec3::zeros(),
        },
        pivot: Vec3::zeros(),
        resolution,
        cutoff_angle: cutoff_deg.to_radians(),
        program: None,
        imaged: false,
    }
}

/// Random vectors and rotations from the library's SplitMix64.
pub trait Random {
    /// A vector with components uniform in [-s, s).
    fn vec(&mut self, s: Real) -> Vec3;
    /// A rotation of angle in [0, 3) rad about a random axis.
    fn rotation(&mut self) -> Quat;
}

impl Random for SplitMix64 {
    fn vec(&mut self, s: Real) -> Vec3 {
        Vec3::new(
            self.next_unit() - 0.5,
            self.next_unit() - 0.5,
            self.next_unit() - 0.5,
        ) * (2.0 * s)
    }
    fn rotation(&mut self) -> Quat {
        Quat::from_scaled_axis(self.vec(1.0).normalize() * (self.next_unit() * 3.0))
    }
}

/// Uniform numbers in [0, 1) from SplitMix64 seeded with `seed`, written out here:
/// independent of the engine's generator.
pub fn uniform(seed: u64) -> impl FnMut() -> Real {
    let mut s = seed;
    move || {
        s = s.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = s;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) >> 11) as Real / (1u64 << 53) as Real
    }
}

/// Runs `f` on a fresh pool of `threads` threads.
pub fn on_threads<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(f)
}

/// The mesh turned by `q` and moved by `t`, each facet's vertex order turned `k % 3` places
/// (the same wall built another way).
pub fn moved(
    vertices: &[Vec3],
    facets: &[[u32; 3]],
    q: &Quat,
    t: &Vec3,
    k: usize,
) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let v = vertices.iter().map(|p| q * p + t).collect();
    let f = facets
        .iter()
        .map(|tri| [tri[k % 3], tri[(k + 1) % 3], tri[(k + 2) % 3]])
        .collect();
    (v, f)
}
