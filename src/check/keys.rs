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
    let text = toml::to_string(&keys).unwrap_or_default();
    keys.try_into().map_err(|e: toml::de::Error| {
        let why = e.message().trim().to_string();
        // (the table as text again, to find the key the reader stopped at: `tolerance: ...`)
        let key = toml::from_str::<T>(&text).err().and_then(|e| {
            let at = e.span()?.start;
            let line_start = text[..at].rfind('\n').map_or(0, |k| k + 1);
            let line = text[line_start..].lines().next().unwrap_or("");
            key_path(line, at - line_start)
        });
        match key {
            Some(k) if !why.contains(&format!("`{k}`")) => format!("{k}: {why}"),
            _ => why,
        }
    })
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

/// The path of the key whose value is at byte `at` of `line` (a line `key = value`), into the
/// inline tables and arrays of the value: `plane.size`, `pebbles[2].offset`; at a key itself
/// (a duplicate), that key. None when `line` is no `key = ...` line.
pub fn key_path(line: &str, at: usize) -> Option<String> {
    enum Frame {
        Table(Option<String>),
        Array(usize),
    }
    let mut stack = vec![Frame::Table(None)];
    let mut word = String::new();
    // (a space after a word: the next character starts another)
    let mut gap = false;
    let mut chars = line.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if i >= at {
            break;
        }
        match c {
            '"' | '\'' => {
                // (a string: skip to its closing quote)
                while let Some((_, d)) = chars.next() {
                    if d == '\\' && c == '"' {
                        chars.next();
                    } else if d == c {
                        break;
                    }
                }
            }
            '=' => {
                if let Some(Frame::Table(k)) = stack.last_mut() {
                    *k = Some(std::mem::take(&mut word).trim().to_string());
                }
            }
            '{' => stack.push(Frame::Table(None)),
            '[' => stack.push(Frame::Array(0)),
            '}' | ']' if stack.len() > 1 => {
                stack.pop();
            }
            ',' => match stack.last_mut() {
                Some(Frame::Array(n)) => *n += 1,
                Some(Frame::Table(k)) => *k = None,
                None => {}
            },
            '#' => return None,
            c if c.is_alphanumeric() || c == '_' || c == '-' || c == '.' => {
                if gap {
                    word.clear();
                    gap = false;
                }
                word.push(c);
            }
            c if c.is_whitespace() => gap = !word.is_empty(),
            _ => word.clear(),
        }
    }
    if let Some(Frame::Table(None)) = stack.last() {
        // (at a key: the key itself)
        let rest: String = (line.get(at..).unwrap_or(""))
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '-')
            .collect();
        if rest.is_empty() {
            return None;
        }
        stack.pop();
        stack.push(Frame::Table(Some(rest)));
    }
    let mut path = String::new();
    for f in &stack {
        match f {
            Frame::Table(Some(k)) if path.is_empty() => path.push_str(k),
            Frame::Table(Some(k)) => path.push_str(&format!(".{k}")),
            Frame::Table(None) => {}
            Frame::Array(n) => path.push_str(&format!("[{}]", n + 1)),
        }
    }
    (!path.is_empty()).then_some(path)
}
