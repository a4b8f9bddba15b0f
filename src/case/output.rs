//! `[output]`: what is recorded, how often, and VTK files.

use super::reader::Reader;
use super::{CaseError, CaseFile, OutputSection};
use crate::body::{BallSpec, WallSpec};

/// What `[output]` asks: every, vtk_every and the series (defaults when not given).
pub(super) struct Output {
    /// Record every N cycles (None: about [`super::DEFAULT_RECORDS`] records).
    pub(super) every: Option<u64>,
    /// Write VTK files every N cycles (0: never).
    pub(super) vtk_every: u64,
    /// The series to record.
    pub(super) series: Vec<String>,
    /// Write a checkpoint every N cycles and at the end (0: only on an interrupt).
    pub(super) checkpoint_every: u64,
}

/// Reads `[output]`; the default series follow the first `balls` (none when the balls are
/// renumbered) and every wall.
pub(super) fn parse_output(
    r: &Reader,
    file: &CaseFile,
    balls: &[BallSpec],
    walls: &[WallSpec],
) -> Result<Output, CaseError> {
    let err = |key: &str, reason: String| r.err(key, reason);
    let out = file.output.clone().unwrap_or(OutputSection {
        every: None,
        series: None,
        vtk_every: None,
        vtk_format: None,
        checkpoint_every: None,
    });
    if out.every == Some(0) {
        return Err(err("output.every", "must be at least 1".into()));
    }
    let series = out.series.clone().unwrap_or_else(|| {
        // (renumbered balls cannot be followed by index: no per-ball series then)
        let follow = file.run.sort_every.unwrap_or(0) == 0;
        default_series(if follow { balls } else { &[] }, walls)
    });
    Ok(Output {
        every: out.every,
        vtk_every: out.vtk_every.unwrap_or(0),
        series,
        checkpoint_every: out.checkpoint_every.unwrap_or(0),
    })
}

/// Series recorded when `[output] series` is not given: energies, contact count and timestep,
/// position and velocity of the first ten balls (none when the balls are renumbered), and the
/// force on each wall.
fn default_series(balls: &[BallSpec], walls: &[WallSpec]) -> Vec<String> {
    let mut s: Vec<String> = ["energy/kinetic", "energy/strain", "contacts/active", "dt"]
        .map(String::from)
        .to_vec();
    for b in balls.iter().take(10) {
        s.push(format!("ball/{}/pos", b.id));
        s.push(format!("ball/{}/vel", b.id));
    }
    for w in walls {
        s.push(format!("wall/{}/force", w.name));
    }
    s
}
