//! `summary.json`: what a run did and what its checks found; the report is rebuilt from it.

use crate::check::CheckOutcome;
use crate::math::Real;
use serde::{Deserialize, Serialize};

/// Smallest, largest and last timestep of a run, s.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct DtStats {
    /// Smallest timestep.
    pub min: Real,
    /// Largest timestep.
    pub max: Real,
    /// Timestep of the last cycle.
    pub last: Real,
    /// The timestep mode, in words.
    #[serde(default)]
    pub mode: String,
    /// What set the timestep, with the number of cycles it did (largest first; the fixed mode
    /// lists "fixed").
    #[serde(default)]
    pub set_by: Vec<(String, u64)>,
}

/// A curve: `y` against `x`.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct Curve {
    /// Legend text.
    pub label: String,
    /// Abscissae.
    pub x: Vec<Real>,
    /// Ordinates.
    pub y: Vec<Real>,
    /// Draw markers at the points instead of a line.
    #[serde(default)]
    pub markers: bool,
}

/// A plot that a check adds to the report (e.g. a convergence study on log-log axes).
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct Plot {
    /// Title.
    pub title: String,
    /// Abscissa label with unit.
    pub x_label: String,
    /// Ordinate label with unit.
    pub y_label: String,
    /// Logarithmic abscissa.
    pub log_x: bool,
    /// Logarithmic ordinate.
    pub log_y: bool,
    /// The curves.
    pub curves: Vec<Curve>,
}

/// What was simulated, for the report: one line per item, already in words.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct Scene {
    /// Settings (gravity, margin, timestep, run length).
    pub settings: Vec<(String, String)>,
    /// One row per material.
    pub materials: Vec<Vec<String>>,
    /// One row per contact-model assignment.
    pub contact_models: Vec<Vec<String>>,
    /// One row per ball (the first ones).
    pub balls: Vec<Vec<String>>,
    /// Number of balls not listed.
    pub balls_not_listed: usize,
    /// One row per wall (first row: headers).
    #[serde(default)]
    pub walls: Vec<Vec<String>>,
    /// SVG drawing of the initial geometry (walls and balls), when there are walls.
    #[serde(default)]
    pub geometry: String,
}

/// Everything a run reports (SPEC section 3 names the required fields).
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct Summary {
    /// Case name.
    pub case: String,
    /// Case description.
    pub description: String,
    /// Path of the case file.
    pub file: String,
    /// Cycles run.
    pub steps: u64,
    /// Simulated time, s.
    pub time: Real,
    /// Timestep statistics.
    pub dt: DtStats,
    /// Wall-clock time of the run, s.
    pub wall_seconds: Real,
    /// Number of bodies.
    pub bodies: usize,
    /// Number of contacts at the end (active or not).
    pub contacts: usize,
    /// Number of active contacts at the end.
    pub contacts_active: usize,
    /// True when every check passed and the run completed.
    pub passed: bool,
    /// Why the run stopped early, if it did.
    pub error: Option<String>,
    /// Why the run stopped before its last step without an error (the solve ratio was
    /// reached), if it did.
    #[serde(default)]
    pub stopped: Option<String>,
    /// What was simulated.
    pub scene: Scene,
    /// The checks and their verdicts.
    pub checks: Vec<CheckOutcome>,
}
