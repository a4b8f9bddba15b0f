//! What every section of a case file is read with: the file's label and dimension for errors
//! and points, and the checks of single values (positive, finite, DOF names).

use super::CaseError;
use crate::body::dof;
use crate::math::{vec3, Real, Vec3};

/// The file being read: its label (for errors) and its dimension (3: spheres; 2: disks).
pub(super) struct Reader<'a> {
    /// The file as named in errors.
    pub(super) f: &'a str,
    /// 3 or 2.
    pub(super) dim: usize,
    /// The periodic cell (`[domain]`), if any.
    pub(super) cell: Option<crate::geom::Cell>,
}

impl Reader<'_> {
    /// An error at `key`.
    pub(super) fn err(&self, key: &str, reason: String) -> CaseError {
        CaseError::new(self.f, key, reason)
    }

    /// A point or vector of the case: 3 components, or 2 in 2D (z = 0).
    pub(super) fn point(&self, key: &str, v: &[f64]) -> Result<Vec3, CaseError> {
        let f = self.f;
        match (self.dim, v.len()) {
            (3, 3) => finite3(f, key, [v[0], v[1], v[2]]),
            (2, 2) => finite3(f, key, [v[0], v[1], 0.0]),
            (d, n) => Err(self.err(key, format!("{n} components: give {d} (dim = {d})"))),
        }
    }
}

pub(super) fn positive(f: &str, key: &str, v: Real) -> Result<Real, CaseError> {
    if v.is_finite() && v > 0.0 {
        Ok(v)
    } else {
        Err(CaseError::new(
            f,
            key,
            format!("{v}: must be a positive finite number"),
        ))
    }
}

pub(super) fn finite3(f: &str, key: &str, v: [Real; 3]) -> Result<Vec3, CaseError> {
    if v.iter().all(|x| x.is_finite()) {
        Ok(vec3(v))
    } else {
        Err(CaseError::new(
            f,
            key,
            format!("{v:?}: every component must be a finite number"),
        ))
    }
}

pub(super) fn dofs(f: &str, key: &str, names: Option<&[String]>) -> Result<u8, CaseError> {
    let mut bits = 0;
    for n in names.unwrap_or(&[]) {
        bits |= dof::from_name(n).ok_or_else(|| {
            CaseError::new(
                f,
                key,
                format!("unknown DOF \"{n}\" (expected x, y, z, rx, ry, rz)"),
            )
        })?;
    }
    Ok(bits)
}

pub(super) fn list_or_none(names: &[&str]) -> String {
    if names.is_empty() {
        "none".into()
    } else {
        names.join(", ")
    }
}
