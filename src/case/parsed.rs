//! The validated case: what a case file says once every key has been checked, ready to build
//! models from.

use super::{CaseFile, CheckSpec};
use crate::body::{BallSpec, ClumpSpec, Material, WallSpec};
use crate::contact::FrameFlags;
use crate::law::ContactModel;
use crate::math::{Real, Vec3};
use crate::timestep::TimestepMode;
use std::path::PathBuf;

/// A validated case, ready to build models from.
#[derive(Clone, Debug)]
pub struct Case {
    /// The case file as given on the command line.
    pub path: PathBuf,
    /// Name (default: the file's stem).
    pub name: String,
    /// What the case shows.
    pub description: String,
    /// The file as written.
    pub file: CaseFile,
    /// Gravity, m/s^2.
    pub gravity: Vec3,
    /// Margin, m.
    pub margin: Real,
    /// The timestep mode.
    pub timestep: TimestepMode,
    /// Local contact frame options (`[frame]`).
    pub frame: FrameFlags,
    /// Materials, in name order.
    pub materials: Vec<Material>,
    /// Contact model of each pair of material indices (a <= b) that has one.
    pub contact_models: Vec<(usize, usize, ContactModel)>,
    /// The rolling resistance of each entry of `contact_models` (None: no couple).
    pub rolling: Vec<Option<crate::law::Rolling>>,
    /// The cohesion of each entry of `contact_models` (None: no attraction).
    pub cohesion: Vec<Option<crate::law::Cohesion>>,
    /// Every ball, explicit ones first, then generated ones.
    pub balls: Vec<BallSpec>,
    /// The clumps.
    pub clumps: Vec<ClumpSpec>,
    /// The faceted walls.
    pub walls: Vec<WallSpec>,
    /// Insertions (`[[insert]]`).
    pub inserts: Vec<crate::flow::InsertSpec>,
    /// Outlets (`[[outlet]]`): name and zone.
    pub outlets: Vec<(String, crate::geom::Zone)>,
    /// Measurement regions (`[[measure]]`).
    pub measures: Vec<crate::model::Measure>,
    /// Write VTK files every N cycles (0: never).
    pub vtk_every: u64,
    /// Record every N cycles (None: about [`super::DEFAULT_RECORDS`] records).
    pub every: Option<u64>,
    /// Series to record.
    pub series: Vec<String>,
    /// Checks.
    pub checks: Vec<CheckSpec>,
    /// Write a checkpoint every N cycles and at the end (0: only on an interrupt).
    pub checkpoint_every: u64,
    /// Ranks along x, y and z of a run over ranks (`[parallel] decomposition`; None: chosen
    /// from the number of ranks and the balls' extent).
    pub decomposition: Option<[usize; 3]>,
    /// The imbalance of a run over ranks (the most balls a rank owns over the mean) above
    /// which the cuts between the bricks move (`[parallel] rebalance`, default 1.2).
    pub rebalance: Real,
    /// The periodic cell (`[domain]`), if any.
    pub cell: Option<crate::geom::Cell>,
    /// A hash of the case file's text (FNV-1a, 64 bits): a checkpoint names the case it
    /// belongs to by it.
    pub source_hash: u64,
    /// What the case asks for that may be intended but probably is not (docs/CASES.md,
    /// section 2): one `FILE: key: reason` line each, printed as `warning: ...` and kept in the
    /// summary.
    pub warnings: Vec<String>,
}
