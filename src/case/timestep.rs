//! `[timestep]`: the timestep mode and its keys.

use super::reader::positive;
use super::{file, CaseError, DEFAULT_KINEMATIC_FRACTION, DEFAULT_LOADING_STEPS, DEFAULT_SAFETY};
use crate::math::Real;
use crate::timestep::{Auto, Estimator, ModelMode, Scaled, TimestepMode};

/// The `[timestep]` table (docs/CASES.md); `margin` gives the default kinematic eps.
pub(super) fn parse_timestep(
    f: &str,
    ts: Option<&file::TimestepSection>,
    margin: Real,
) -> Result<TimestepMode, CaseError> {
    let err = |key: &str, reason: String| CaseError::new(f, key, reason);
    let Some(ts) = ts else {
        return Err(err(
            "timestep",
            "missing table [timestep] (e.g. mode = \"fixed\", dt = 1e-6)".into(),
        ));
    };
    refuse_other_keys(f, ts)?;
    if let Some(dt) = ts.dt {
        positive(f, "timestep.dt", dt)?;
    }
    let estimator = match ts.estimator.as_deref() {
        None | Some("diagonal") => Estimator::Diagonal,
        Some("bound") => Estimator::Bound,
        Some(e) => {
            return Err(err(
                "timestep.estimator",
                format!("unknown estimator \"{e}\" (expected \"diagonal\" or \"bound\")"),
            ))
        }
    };
    let kinematic_eps = kinematic_eps(f, ts, margin)?;
    Ok(match ts.mode.as_str() {
        "fixed" => {
            let Some(dt) = ts.dt else {
                return Err(err("timestep.dt", "mode \"fixed\" needs dt (s)".into()));
            };
            TimestepMode::Fixed(dt)
        }
        "auto" => auto_mode(f, ts, estimator, kinematic_eps)?,
        "model" => {
            let loading_steps = ts.loading_steps.unwrap_or(DEFAULT_LOADING_STEPS);
            if !(loading_steps.is_finite() && loading_steps >= 1.0) {
                return Err(err(
                    "timestep.loading_steps",
                    format!("{loading_steps}: must be a number of steps, at least 1"),
                ));
            }
            TimestepMode::Model(ModelMode {
                loading_steps,
                cap: ts.dt,
            })
        }
        _ => TimestepMode::Scaled(Scaled {
            dt: ts.dt.unwrap_or(1.0),
            estimator,
            kinematic_eps,
        }),
    })
}

/// Refuses an unknown mode, and a key its mode does not take.
fn refuse_other_keys(f: &str, ts: &file::TimestepSection) -> Result<(), CaseError> {
    let err = |key: &str, reason: String| CaseError::new(f, key, reason);
    let given = [
        ("dt", ts.dt.is_some()),
        ("safety", ts.safety.is_some()),
        ("estimator", ts.estimator.is_some()),
        ("kinematic", ts.kinematic.is_some()),
        ("kinematic_eps", ts.kinematic_eps.is_some()),
        ("loading_steps", ts.loading_steps.is_some()),
        ("allow_above_critical", ts.allow_above_critical.is_some()),
        ("every", ts.every.is_some()),
    ];
    let allowed: &[&str] = match ts.mode.as_str() {
        "fixed" => &["dt", "allow_above_critical"],
        "auto" => &[
            "dt",
            "safety",
            "estimator",
            "kinematic",
            "kinematic_eps",
            "every",
        ],
        "scaled" => &["dt", "estimator", "kinematic", "kinematic_eps"],
        "model" => &["dt", "loading_steps"],
        m => {
            return Err(err(
                "timestep.mode",
                format!(
                    "unknown mode \"{m}\" (expected \"fixed\", \"auto\", \"scaled\" or \"model\")"
                ),
            ))
        }
    };
    for (key, is_given) in given {
        if is_given && !allowed.contains(&key) {
            return Err(err(
                &format!("timestep.{key}"),
                format!("does not apply to mode \"{}\"", ts.mode),
            ));
        }
    }
    Ok(())
}

/// The kinematic constraint's eps of modes `auto` and `scaled` (None: no constraint):
/// `kinematic_eps`, else a fraction of `margin`.
fn kinematic_eps(
    f: &str,
    ts: &file::TimestepSection,
    margin: Real,
) -> Result<Option<Real>, CaseError> {
    let err = |key: &str, reason: String| CaseError::new(f, key, reason);
    if matches!(ts.mode.as_str(), "fixed" | "model") {
        return Ok(None);
    }
    Ok(match (ts.kinematic.unwrap_or(true), ts.kinematic_eps) {
        (false, Some(_)) => {
            return Err(err(
                "timestep.kinematic_eps",
                "is given but kinematic = false".into(),
            ))
        }
        (false, None) => None,
        (true, Some(e)) => Some(positive(f, "timestep.kinematic_eps", e)?),
        (true, None) if margin > 0.0 => Some(DEFAULT_KINEMATIC_FRACTION * margin),
        (true, None) => {
            return Err(err(
                "timestep.kinematic_eps",
                "margin is 0, so there is no default: give kinematic_eps (m) or kinematic = false"
                    .into(),
            ))
        }
    })
}

/// `mode = "auto"`: its safety in (0, 1] and the cycles between choices of the step.
fn auto_mode(
    f: &str,
    ts: &file::TimestepSection,
    estimator: Estimator,
    kinematic_eps: Option<Real>,
) -> Result<TimestepMode, CaseError> {
    let err = |key: &str, reason: String| CaseError::new(f, key, reason);
    let safety = ts.safety.unwrap_or(DEFAULT_SAFETY);
    if !(safety > 0.0 && safety <= 1.0) {
        return Err(err(
            "timestep.safety",
            format!("{safety}: must be in (0, 1] (a fraction of the critical estimate)"),
        ));
    }
    let every = ts.every.unwrap_or(1);
    if every < 1 {
        return Err(err(
            "timestep.every",
            format!("{every}: must be a number of cycles, at least 1"),
        ));
    }
    Ok(TimestepMode::Auto(Auto {
        safety,
        estimator,
        kinematic_eps,
        cap: ts.dt,
        every: every as u64,
    }))
}
