//! The case file as written (docs/CASES.md), before validation.

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
    /// Clumps: rigid bodies made of pebbles.
    #[serde(default)]
    pub clump: Vec<ClumpSection>,
    /// Faceted walls.
    #[serde(default)]
    pub wall: Vec<WallSection>,
    /// Balls inserted during the run.
    #[serde(default)]
    pub insert: Vec<InsertSection>,
    /// Zones where balls leave the run.
    #[serde(default)]
    pub outlet: Vec<OutletSection>,
    /// Measurement regions.
    #[serde(default)]
    pub measure: Vec<MeasureSection>,
    /// The periodic cell.
    pub domain: Option<super::domain::DomainSection>,
    /// Local contact frame options (project extension, seed 002).
    pub frame: Option<FrameSection>,
    /// What to record.
    pub output: Option<OutputSection>,
    /// `[parallel]`: how a run over ranks is cut.
    pub parallel: Option<ParallelSection>,
    /// What the case must show; parsed per kind by [`crate::check`].
    #[serde(default)]
    pub check: Vec<toml::Table>,
}

/// `[parallel]`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ParallelSection {
    /// Ranks along x, y and z (their product the number of ranks).
    pub decomposition: Option<Vec<i64>>,
    /// The imbalance (most balls a rank owns over the mean) above which the cuts move.
    pub rebalance: Option<f64>,
}

/// `[run]`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunSection {
    /// Number of cycles.
    pub steps: Option<u64>,
    /// Simulated duration, s.
    pub duration: Option<f64>,
    /// Gravitational acceleration, m/s^2 (2 components in 2D).
    pub gravity: Option<Vec<f64>>,
    /// Extent enlargement, m.
    pub margin: Option<f64>,
    /// Stop once the mean unbalanced force over the mean contact force is below this value
    /// (`steps` or `duration` is then the upper limit).
    pub solve_ratio: Option<f64>,
    /// Renumber the balls along a space-filling curve every this many cycles (at the next
    /// rebuild of the broad phase; 0 or absent: never). A performance setting: results
    /// change by round-off only.
    pub sort_every: Option<u64>,
    /// The order of the renumbering: "rows" (default) or "morton".
    pub sort_order: Option<String>,
    /// At the end of this cycle, save the run's whole state as a checkpoint in memory, drop it
    /// and go on from the checkpoint (a proof of restart: the rest must be bit-identical).
    pub restart_at: Option<u64>,
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
    /// Fixed: run even when `dt` exceeds the critical estimate of the contacts at the start (a
    /// study of instability); default false: such a case is refused.
    pub allow_above_critical: Option<bool>,
    /// Auto: choose the step in every this many cycles and keep it between (default 1).
    pub every: Option<i64>,
}

/// `[frame]` (project extension): approximation flags and branch vectors of the local contact
/// frames (seed 002).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FrameSection {
    /// Branch vectors from the radii along the normal instead of to the contact point.
    pub no_ratch: Option<bool>,
    /// Any of "previous_normal", "previous_transform", "no_renormalize", "no_twist".
    pub approximations: Option<Vec<String>>,
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
    #[serde(deserialize_with = "super::exact::arr")]
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
    /// Clamp the total normal force at zero (linear-dashpot, hertz).
    pub clamp: Option<bool>,
    /// Tensile strength of a bond, N (linearbond).
    pub tensile: Option<f64>,
    /// Shear strength of a bond, N (linearbond).
    pub shear_strength: Option<f64>,
    /// Largest gap bonded before the first cycle, m (linearbond).
    pub bond_gap: Option<f64>,
    /// Normal damping coefficient, N s/m (hooke-history).
    pub gamma_n: Option<f64>,
    /// Tangential damping coefficient, N s/m (hooke-history).
    pub gamma_t: Option<f64>,
    /// How the Coulomb limit bounds the tangential force: "total" (default) or "spring".
    pub friction_limit: Option<String>,
    /// Rolling resistance (frame-based models): `{ kind = "cdt" | "epsd" | "pfc", ... }`.
    pub rolling: Option<RollingSection>,
    /// Twisting resistance (with `rolling`, whose kind it takes): `{ coefficient }`.
    pub twisting: Option<TwistingSection>,
    /// Cohesion (frame-based models): `{ kind = "dmt" | "jkr", surface_energy }` or
    /// `{ kind = "sjkr", energy_density }`.
    pub cohesion: Option<CohesionSection>,
}

/// `cohesion = { ... }` of a `[[contact]]` rule (SPEC 5.6).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CohesionSection {
    /// "dmt", "sjkr" or "jkr".
    pub kind: String,
    /// dmt, jkr: the work of adhesion gamma, J/m^2.
    pub surface_energy: Option<f64>,
    /// sjkr: the cohesion energy density k_c, J/m^3.
    pub energy_density: Option<f64>,
}

/// `twisting = { ... }` of a `[[contact]]` rule (SPEC 5.6).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TwistingSection {
    /// Twisting friction coefficient mu_t: the couple's limit is mu_t R* F_n.
    pub coefficient: f64,
}

/// `rolling = { ... }` of a `[[contact]]` rule (SPEC 5.6).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RollingSection {
    /// "cdt", "epsd" or "pfc".
    pub kind: String,
    /// Rolling friction coefficient mu_r: the couple's limit is mu_r R* F_n.
    pub coefficient: f64,
    /// epsd: k_r = stiffness_factor mu_r^2 R*^2 k_n (default 2.25).
    pub stiffness_factor: Option<f64>,
    /// epsd: the rolling dashpot as a ratio of its critical value (default 0.3).
    pub damping: Option<f64>,
    /// pfc: the rolling stiffness, N m/rad (default k_s R*^2).
    pub kr: Option<f64>,
}

/// `[[ball]]`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BallSection {
    /// Identifier (default: position in file order, from 1).
    pub id: Option<u64>,
    /// m (3 components; 2 in 2D).
    pub pos: Vec<f64>,
    /// m.
    pub radius: f64,
    /// Material name.
    pub material: String,
    /// m/s (3 components; 2 in 2D).
    pub vel: Option<Vec<f64>>,
    /// rad/s (3 components; one number in 2D).
    pub spin: Option<toml::Value>,
    /// N (3 components; 2 in 2D).
    pub force: Option<Vec<f64>>,
    /// Fixed DOF names.
    pub fix: Option<Vec<String>>,
    /// Mass, kg (with `inertia`: instead of the solid sphere's or disk's).
    pub mass: Option<f64>,
    /// Moment of inertia, kg m^2 (with `mass`).
    pub inertia: Option<f64>,
}

/// `[[clump]]`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClumpSection {
    /// Identifier, unique among balls and clumps (default: after every ball id, in file order).
    pub id: Option<u64>,
    /// Reference point, m: the pebble offsets are measured from it.
    #[serde(deserialize_with = "super::exact::arr")]
    pub pos: [f64; 3],
    /// Material name.
    pub material: String,
    /// The pebbles.
    pub pebbles: Vec<PebbleSection>,
    /// Velocity of the centroid, m/s.
    #[serde(default, deserialize_with = "super::exact::opt")]
    pub vel: Option<[f64; 3]>,
    /// rad/s.
    #[serde(default, deserialize_with = "super::exact::opt")]
    pub spin: Option<[f64; 3]>,
    /// Applied force at the centroid, N.
    #[serde(default, deserialize_with = "super::exact::opt")]
    pub force: Option<[f64; 3]>,
    /// Fixed DOF names (rotations: all three or none).
    pub fix: Option<Vec<String>>,
    /// Mass, kg (with `inertia`: instead of the computed mass properties).
    pub mass: Option<f64>,
    /// Inertia tensor about the centroid in the case's axes, kg m^2 (with `mass`).
    #[serde(default, deserialize_with = "super::exact::opt_matrix")]
    pub inertia: Option<[[f64; 3]; 3]>,
    /// Centroid offset from `pos`, m (with `mass`; default [0, 0, 0]).
    #[serde(default, deserialize_with = "super::exact::opt")]
    pub centroid: Option<[f64; 3]>,
}

/// One pebble of a `[[clump]]`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PebbleSection {
    /// Offset from the clump's reference point, m.
    #[serde(deserialize_with = "super::exact::arr")]
    pub offset: [f64; 3],
    /// m.
    pub radius: f64,
}

/// `[[generate]]`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GenerateSection {
    /// "lattice" (never touching), "cubic" (simple-cubic packing), "cluster" (random
    /// cluster of overlapping balls) or "settle-box" (the peer benchmark's scene).
    pub kind: String,
    /// Number of balls.
    pub count: u64,
    /// Lower corner of the region, m (not for "settle-box").
    #[serde(default, deserialize_with = "super::exact::opt")]
    pub min: Option<[f64; 3]>,
    /// Upper corner of the region, m (not for "settle-box").
    #[serde(default, deserialize_with = "super::exact::opt")]
    pub max: Option<[f64; 3]>,
    /// Radius range [min, max], m (not for "settle-box").
    #[serde(default, deserialize_with = "super::exact::opt")]
    pub radius: Option<[f64; 2]>,
    /// Material name.
    pub material: String,
    /// Random seed (default 0).
    pub seed: Option<u64>,
    /// Initial velocity of every generated ball, m/s.
    #[serde(default, deserialize_with = "super::exact::opt")]
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
    /// How the VTK files hold their numbers: "binary" (default) or "ascii".
    pub vtk_format: Option<crate::output::VtkFormat>,
    /// Write a checkpoint every N cycles (and at the end); 0 or absent: only on an interrupt.
    pub checkpoint_every: Option<u64>,
}

/// `[[wall]]`: exactly one of `plane`, `box`, `mesh`, and `vertices` with `facets`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WallSection {
    /// Unique name (default: `wall<k>`).
    pub name: Option<String>,
    /// Material name.
    pub material: String,
    /// A divided rectangle.
    pub plane: Option<PlaneSection>,
    /// A closed box with inward normals.
    #[serde(rename = "box")]
    pub box_: Option<BoxSection>,
    /// STL or OBJ file, relative to the case file.
    pub mesh: Option<String>,
    /// Explicit vertices, m.
    #[serde(default, deserialize_with = "super::exact::opt_vec")]
    pub vertices: Option<Vec<[f64; 3]>>,
    /// Explicit facets (vertex indices from 0, counter-clockwise seen from the normal side).
    #[serde(default, deserialize_with = "super::exact::opt_vec")]
    pub facets: Option<Vec<[i64; 3]>>,
    /// "reduced" or "full".
    pub resolution: Option<String>,
    /// Theta, degrees.
    pub cutoff_angle_deg: Option<f64>,
    /// Inactive facet sides.
    pub inactive: Option<Vec<InactiveSection>>,
    /// Motion.
    pub motion: Option<MotionSection>,
}

/// `plane = { ... }` of a wall.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlaneSection {
    /// Centre, m.
    #[serde(deserialize_with = "super::exact::arr")]
    pub center: [f64; 3],
    /// Normal (need not be unit).
    #[serde(deserialize_with = "super::exact::arr")]
    pub normal: [f64; 3],
    /// Side lengths, m.
    #[serde(deserialize_with = "super::exact::arr")]
    pub size: [f64; 2],
    /// Cells per side (default [1, 1]).
    #[serde(default, deserialize_with = "super::exact::opt")]
    pub divisions: Option<[i64; 2]>,
}

/// `box = { ... }` of a wall.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoxSection {
    /// Lower corner, m.
    #[serde(deserialize_with = "super::exact::arr")]
    pub min: [f64; 3],
    /// Upper corner, m.
    #[serde(deserialize_with = "super::exact::arr")]
    pub max: [f64; 3],
    /// Cells per face side (default 1: two facets per face).
    pub divisions: Option<i64>,
}

/// `inactive = [ { facet, side } ]` of a wall.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InactiveSection {
    /// Facet number (from 0).
    pub facet: i64,
    /// "above", "below" or "both".
    pub side: String,
}

/// `motion = { ... }` of a wall.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MotionSection {
    /// "rigid" or "deformable".
    pub kind: String,
    /// Rigid: velocity of the pivot, m/s.
    #[serde(default, deserialize_with = "super::exact::opt")]
    pub vel: Option<[f64; 3]>,
    /// Rigid: angular velocity, rad/s.
    #[serde(default, deserialize_with = "super::exact::opt")]
    pub spin: Option<[f64; 3]>,
    /// Rigid: centre of rotation, m.
    #[serde(default, deserialize_with = "super::exact::opt")]
    pub pivot: Option<[f64; 3]>,
    /// Deformable: one velocity per unique vertex, m/s.
    #[serde(default, deserialize_with = "super::exact::opt_vec")]
    pub vertex_vel: Option<Vec<[f64; 3]>>,
    /// Rigid: velocity and spin piecewise constant in time.
    pub schedule: Option<Vec<ScheduleSection>>,
    /// Oscillate, servo: direction of motion (need not be unit).
    #[serde(default, deserialize_with = "super::exact::opt")]
    pub direction: Option<[f64; 3]>,
    /// Oscillate: amplitude, m.
    pub amplitude: Option<f64>,
    /// Oscillate: frequency, Hz.
    pub frequency: Option<f64>,
    /// Servo: the load to hold, N.
    pub target_force: Option<f64>,
    /// Servo: the stress to hold over the projected area, Pa.
    pub target_stress: Option<f64>,
    /// Servo: speed per newton of error, m/(s N).
    pub gain: Option<f64>,
    /// Servo: largest speed, m/s.
    pub max_speed: Option<f64>,
}

/// One entry of `schedule = [ { t, vel, spin } ]`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScheduleSection {
    /// From this time on, s.
    pub t: f64,
    /// Velocity of the pivot, m/s (default 0).
    #[serde(default, deserialize_with = "super::exact::opt")]
    pub vel: Option<[f64; 3]>,
    /// Angular velocity, rad/s (default 0).
    #[serde(default, deserialize_with = "super::exact::opt")]
    pub spin: Option<[f64; 3]>,
}

/// `region = { box = { min, max } }` or `{ cylinder = { base, axis, radius, height } }`
/// (measurements also `{ all = true }`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RegionSection {
    /// An axis-aligned box.
    #[serde(rename = "box")]
    pub box_: Option<ZoneBoxSection>,
    /// A finite cylinder.
    pub cylinder: Option<CylinderSection>,
    /// Everything (measurements only).
    pub all: Option<bool>,
}

/// `box = { min, max }` of a region.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ZoneBoxSection {
    /// Lower corner, m.
    #[serde(deserialize_with = "super::exact::arr")]
    pub min: [f64; 3],
    /// Upper corner, m.
    #[serde(deserialize_with = "super::exact::arr")]
    pub max: [f64; 3],
}

/// `cylinder = { base, axis, radius, height }` of a region.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CylinderSection {
    /// Centre of the base disk, m.
    #[serde(deserialize_with = "super::exact::arr")]
    pub base: [f64; 3],
    /// Direction from the base to the top (need not be unit).
    #[serde(deserialize_with = "super::exact::arr")]
    pub axis: [f64; 3],
    /// Radius, m.
    pub radius: f64,
    /// Length along the axis, m.
    pub height: f64,
}

/// `radius = { kind = ..., ... }` of an insertion.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RadiusSection {
    /// "uniform", "normal", "lognormal" or "discrete".
    pub kind: String,
    /// Smallest radius, m (continuous kinds).
    pub min: Option<f64>,
    /// Largest radius, m (continuous kinds).
    pub max: Option<f64>,
    /// Mean, m (normal).
    pub mean: Option<f64>,
    /// Standard deviation, m (normal).
    pub std: Option<f64>,
    /// Median, m (lognormal).
    pub median: Option<f64>,
    /// Standard deviation of ln r (lognormal).
    pub sigma: Option<f64>,
    /// The radii, m (discrete).
    pub radii: Option<Vec<f64>>,
    /// Their fractions (discrete).
    pub fractions: Option<Vec<f64>>,
    /// "number" (default) or "mass" (discrete).
    pub by: Option<String>,
}

/// `[[insert]]`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InsertSection {
    /// Unique name (default `insert<k>`).
    pub name: Option<String>,
    /// Where the balls appear.
    pub region: RegionSection,
    /// Material name.
    pub material: String,
    /// Balls per second.
    pub rate: Option<f64>,
    /// Kilograms per second.
    pub mass_rate: Option<f64>,
    /// Number of balls (all at once at `start` without a rate).
    pub count: Option<i64>,
    /// Time of the first ball, s (default 0).
    pub start: Option<f64>,
    /// No ball after this time, s.
    pub stop: Option<f64>,
    /// The radius distribution.
    pub radius: RadiusSection,
    /// Initial velocity, m/s (default 0).
    #[serde(default, deserialize_with = "super::exact::opt")]
    pub vel: Option<[f64; 3]>,
    /// Seed of the stream of radii and positions (default 1).
    pub seed: Option<i64>,
}

/// `[[measure]]`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MeasureSection {
    /// Unique name (default `measure<k>`).
    pub name: Option<String>,
    /// The region: a box, a cylinder or everything.
    pub region: RegionSection,
}

/// `[[outlet]]`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OutletSection {
    /// Unique name (default `outlet<k>`).
    pub name: Option<String>,
    /// Balls whose centre enters it are removed.
    pub region: RegionSection,
}
