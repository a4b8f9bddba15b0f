//! Reading a check's keys: the `[[check]]` table into the kind's struct of keys (an unknown
//! key refused), and the checks of values and of named series that kinds share.

use crate::math::Real;
use crate::model::Model;
use crate::output::{base_series, Source};
use crate::record::Tolerance;
use serde::de::DeserializeOwned;

/// Reads the keys of a `[[check]]` table (without `kind`) into `T`: a missing or unknown key,
/// or a value of the wrong type, as the TOML reader words it.
///
/// # Errors
/// That sentence.
pub(super) fn read<T: DeserializeOwned>(keys: toml::Value) -> Result<T, String> {
    keys.try_into()
        .map_err(|e: toml::de::Error| e.message().trim().to_string())
}

/// `v`, when it is a non-negative finite number.
///
/// # Errors
/// `"{name} = {v}: must be a non-negative finite number"`.
pub(super) fn nonneg(name: &str, v: Real) -> Result<Real, String> {
    if v.is_finite() && v >= 0.0 {
        Ok(v)
    } else {
        Err(format!(
            "{name} = {v}: must be a non-negative finite number"
        ))
    }
}

/// Each `(name, value)` is a positive finite number.
///
/// # Errors
/// The first that is not, as `"{name} = {v}: must be a positive finite number"`.
pub(super) fn positive<'a>(
    values: impl IntoIterator<Item = (&'a str, Real)>,
) -> Result<(), String> {
    for (what, v) in values {
        if !(v.is_finite() && v > 0.0) {
            return Err(format!("{what} = {v}: must be a positive finite number"));
        }
    }
    Ok(())
}

/// The tolerance of the keys `tolerance` (relative) and `abs_tolerance`: exactly one given.
///
/// # Errors
/// Both or neither given, or a negative or infinite value.
pub(super) fn tolerance_of(rel: Option<Real>, abs: Option<Real>) -> Result<Tolerance, String> {
    match (rel, abs) {
        (Some(r), None) if r.is_finite() && r >= 0.0 => Ok(Tolerance::Relative(r)),
        (None, Some(a)) if a.is_finite() && a >= 0.0 => Ok(Tolerance::Absolute(a)),
        (Some(_), Some(_)) | (None, None) => {
            Err("give exactly one of `tolerance` (relative) and `abs_tolerance`".into())
        }
        _ => Err("a tolerance must be a non-negative finite number".into()),
    }
}

/// `s` names a series of the model and, when it is a vector or a tensor, one of its columns.
///
/// # Errors
/// The series does not exist, or a column is missing or wrong.
pub(super) fn column(model: &Model, s: &str) -> Result<(), String> {
    let source = Source::parse(base_series(s), model)?;
    if !source.names_column(s, model.planar) {
        return Err(format!(
            "series \"{s}\": name a column: a vector series takes .x, .y or .z (2D: .x, .y; an angular one .z), a tensor .xx, .yy, .zz, .xy, .yz or .xz, a scalar one none"
        ));
    }
    Ok(())
}

/// The index of the ball with id `id` in the model.
///
/// # Errors
/// `"there is no ball with id {id}"`.
pub(super) fn ball_of(model: &Model, id: u64) -> Result<usize, String> {
    model
        .ball_index(id)
        .ok_or_else(|| format!("there is no ball with id {id}"))
}

/// The index of the wall named `w` in the model.
///
/// # Errors
/// `"there is no wall named \"{w}\""`.
pub(super) fn wall_of(model: &Model, w: &str) -> Result<usize, String> {
    model
        .wall_index(w)
        .ok_or_else(|| format!("there is no wall named \"{w}\""))
}
