//! `[run]`: how long the run lasts, gravity, the margin.

use super::reader::Reader;
use super::{CaseError, RunSection, DEFAULT_MARGIN_FRACTION};
use crate::body::BallSpec;
use crate::math::{Real, Vec3};

/// The most cycles a run may have: at 100 ns a cycle (one ball), 10^12 cycles take more than a
/// day; a count beyond it (2^63 - 1, or a duration of 1e300 s) is a mistake, not a run.
pub const MAX_STEPS: u64 = 1_000_000_000_000;

/// Checks the run length (`steps` or `duration`) and returns gravity, m/s^2.
pub(super) fn parse_run(r: &Reader, run: &RunSection) -> Result<Vec3, CaseError> {
    let err = |key: &str, reason: String| r.err(key, reason);
    let point = |key: &str, v: &[f64]| r.point(key, v);
    match (run.steps, run.duration) {
        (Some(_), Some(_)) => {
            return Err(err(
                "run",
                "give exactly one of `steps` and `duration`, not both".into(),
            ))
        }
        (None, None) => return Err(err("run", "give one of `steps` and `duration`".into())),
        (Some(0), None) => return Err(err("run.steps", "must be at least 1".into())),
        (None, Some(d)) if !(d.is_finite() && d > 0.0) => {
            return Err(err(
                "run.duration",
                format!("{d}: must be a positive number of seconds"),
            ))
        }
        _ => {}
    }
    if let Some(r) = run.solve_ratio {
        if !(r.is_finite() && r > 0.0) {
            return Err(err(
                "run.solve_ratio",
                format!("{r}: must be a positive number (mean unbalanced force over mean contact force)"),
            ));
        }
    }
    let gravity = match &run.gravity {
        Some(g) => point("run.gravity", g)?,
        None => Vec3::zeros(),
    };
    Ok(gravity)
}

/// `[run] margin`, m; by default a tenth of the smallest radius (at most 0.1 m).
pub(super) fn parse_margin(
    r: &Reader,
    run: &RunSection,
    balls: &[BallSpec],
    inserted: &[crate::flow::InsertSpec],
) -> Result<Real, CaseError> {
    let err = |key: &str, reason: String| r.err(key, reason);
    let margin = match run.margin {
        Some(m) if m.is_finite() && m >= 0.0 => m,
        Some(m) => {
            return Err(err(
                "run.margin",
                format!("{m}: must be a non-negative length (m)"),
            ))
        }
        None => {
            DEFAULT_MARGIN_FRACTION
                * balls
                    .iter()
                    .map(|b| b.radius)
                    .chain(inserted.iter().map(|i| i.radii.range().0))
                    .fold(Real::INFINITY, Real::min)
                    .min(1.0)
        }
    };
    Ok(margin)
}

/// `[parallel] rebalance`: the imbalance (the most balls a rank owns over the mean) above
/// which the cuts between the bricks move, a number above 1 (`inf`: never); default
/// [`crate::cycle::REBALANCE`].
pub(super) fn parse_rebalance(
    f: &str,
    parallel: Option<&super::file::ParallelSection>,
) -> Result<Real, CaseError> {
    match parallel.and_then(|p| p.rebalance) {
        None => Ok(crate::cycle::REBALANCE),
        Some(x) if x > 1.0 => Ok(x),
        Some(x) => Err(CaseError::new(
            f,
            "parallel.rebalance",
            format!("{x}: the most balls a rank owns over the mean is at least 1, so the threshold must be above 1 (1.2; inf never moves the cuts)"),
        )),
    }
}

/// The most ranks along one axis of `[parallel] decomposition`.
const MAX_RANKS: i64 = 1024;

/// `[parallel] decomposition`: three whole numbers of ranks along x, y and z, each 1 to
/// 1024, the last 1 for 2D disks (`dim`). Their product is checked against the number of
/// ranks when a run over ranks starts.
pub(super) fn parse_decomposition(
    f: &str,
    parallel: Option<&super::file::ParallelSection>,
    dim: usize,
) -> Result<Option<[usize; 3]>, CaseError> {
    let Some(d) = parallel.and_then(|p| p.decomposition.as_ref()) else {
        return Ok(None);
    };
    let key = "parallel.decomposition";
    let err = |reason: String| CaseError::new(f, key, reason);
    if d.len() != 3 {
        return Err(err(format!(
            "{} numbers; give three, the ranks along x, y and z ([2, 1, 1])",
            d.len()
        )));
    }
    if let Some(n) = d.iter().find(|n| !(1..=MAX_RANKS).contains(*n)) {
        return Err(err(format!(
            "{n} ranks along an axis: each must be 1 to {MAX_RANKS}"
        )));
    }
    if dim == 2 && d[2] != 1 {
        return Err(err(format!(
            "{} ranks along z: 2D disks lie in one plane, so the last must be 1",
            d[2]
        )));
    }
    Ok(Some([d[0] as usize, d[1] as usize, d[2] as usize]))
}
