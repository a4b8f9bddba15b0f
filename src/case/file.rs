//! The case file as written (SPEC section 2), before validation.

use serde::Deserialize;
use std::collections::BTreeMap;

/// A whole case file. Unknown keys are errors everywhere.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CaseFile {
    /// Case name (default: the file's stem).
    pub name: Option<String>,
    /// What the case shows.
    pub description: Option<String>,
    /// 3 (spheres) or 2 (disks).
    pub dim: Option<i64>,
    /// Run length and global settings.
    pub run: RunSection,
    /// Timestep mode.
    pub timestep: Option<TimestepSection>,
    /// Materials by name.
    #[serde(default)]
    pub material: BTreeMap<String, MaterialSection>,
    /// Contact-model assignments, first match wins.
    #[serde(default)]
    pub contact: Vec<ContactSection>,
    /// Balls given one by one.
    #[serde(default)]
    pub ball: Vec<BallSection>,
    /// Generated balls.
    #[serde(default)]
    pub generate: Vec<GenerateSection>,
    /// Clumps (not available yet).
    #[serde(default)]
    pub clump: Vec<toml::Table>,
    /// Walls (not available yet).
    #[serde(default)]
    pub wall: Vec<toml::Table>,
    /// What to record.
    pub output: Option<OutputSection>,
    /// What the case must show; parsed per kind by [`crate::check`].
    #[serde(default)]
    pub check: Vec<toml::Table>,
}

/// `[run]`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunSection {
    /// Number of cycles.
    pub steps: Option<u64>,
    /// Simulated duration, s.
    pub duration: Option<f64>,
    /// Gravitational acceleration, m/s^2.
    pub gravity: Option<[f64; 3]>,
    /// Extent enlargement, m.
    pub margin: Option<f64>,
    /// Stop once the mean unbalanced force over the mean contact force is below this value
    /// (`steps` or `duration` is then the upper limit).
    pub solve_ratio: Option<f64>,
}

/// `[timestep]`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimestepSection {
    /// "fixed" | "auto" | "scaled" | "model".
    pub mode: String,
    /// The timestep (fixed), s.
    pub dt: Option<f64>,
    /// Safety factor (auto).
    pub safety: Option<f64>,
    /// Critical-step estimator (auto).
    pub estimator: Option<String>,
    /// Kinematic constraint on/off.
    pub kinematic: Option<bool>,
    /// Largest displacement per cycle, m.
    pub kinematic_eps: Option<f64>,
    /// Steps per loading stage (model).
    pub loading_steps: Option<f64>,
}

/// `[material.<name>]`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MaterialSection {
    /// kg/m^3.
    pub density: f64,
    /// Pa.
    pub young: Option<f64>,
    /// Dimensionless.
    pub poisson: Option<f64>,
}

/// `[[contact]]`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ContactSection {
    /// Two material names, "*" for any.
    pub between: [String; 2],
    /// Model name.
    pub model: String,
    /// N/m.
    pub kn: Option<f64>,
    /// N/m.
    pub ks: Option<f64>,
    /// N m/rad.
    pub kn_rot: Option<f64>,
    /// N m/rad.
    pub ks_rot: Option<f64>,
    /// Coulomb coefficient.
    pub friction: Option<f64>,
    /// Critical-damping ratio, normal.
    pub damp_n: Option<f64>,
    /// Critical-damping ratio, shear.
    pub damp_s: Option<f64>,
    /// Coefficient of restitution (dashpot models).
    pub restitution: Option<f64>,
    /// Unloading stiffness (hysteretic), N/m.
    pub k_unload: Option<f64>,
    /// Numerical softening factor multiplying every stiffness.
    pub softening: Option<f64>,
}

/// `[[ball]]`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BallSection {
    /// Identifier (default: position in file order, from 1).
    pub id: Option<u64>,
    /// m.
    pub pos: [f64; 3],
    /// m.
    pub radius: f64,
    /// Material name.
    pub material: String,
    /// m/s.
    pub vel: Option<[f64; 3]>,
    /// rad/s.
    pub spin: Option<[f64; 3]>,
    /// N.
    pub force: Option<[f64; 3]>,
    /// Fixed DOF names.
    pub fix: Option<Vec<String>>,
}

/// `[[generate]]`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GenerateSection {
    /// "lattice" (never touching), "cubic" (simple-cubic packing) or "cluster" (random
    /// cluster of overlapping balls).
    pub kind: String,
    /// Number of balls.
    pub count: u64,
    /// Lower corner of the region, m.
    pub min: [f64; 3],
    /// Upper corner of the region, m.
    pub max: [f64; 3],
    /// Radius range [min, max], m.
    pub radius: [f64; 2],
    /// Material name.
    pub material: String,
    /// Random seed (default 0).
    pub seed: Option<u64>,
    /// Initial velocity of every generated ball, m/s.
    pub vel: Option<[f64; 3]>,
    /// Fixed DOF names of every generated ball.
    pub fix: Option<Vec<String>>,
    /// Overlap of touching balls, m ("cubic" and "cluster").
    pub overlap: Option<f64>,
}

/// `[output]`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OutputSection {
    /// Record every N cycles.
    pub every: Option<u64>,
    /// Series names.
    pub series: Option<Vec<String>>,
    /// VTK output period in cycles (0: off).
    pub vtk_every: Option<u64>,
}
