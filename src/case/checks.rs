//! The `[[check]]` tables: each read by its kind (the registry of [`crate::check`]), then
//! validated against the model the case builds. What each kind measures and how it judges is
//! [`crate::check`].

use super::{Case, CaseError};
use crate::check::{Built, CheckSpec};
use crate::model::Model;

/// Reads every `[[check]]` table of the file `f`, in order.
///
/// # Errors
/// The first table with an unknown kind, an unknown or missing key or a bad value.
pub(super) fn parse_checks(f: &str, tables: &[toml::Table]) -> Result<Vec<CheckSpec>, CaseError> {
    (tables.iter().enumerate())
        .map(|(k, t)| {
            crate::check::parse(k + 1, t).map_err(|(key, reason)| CaseError::new(f, key, reason))
        })
        .collect()
}

/// Checks what only the model can tell of each check: the bodies and series it names exist,
/// and so do the other case files it names.
///
/// # Errors
/// The first check that names something missing.
pub(super) fn validate_checks(f: &str, case: &Case, model: &Model) -> Result<(), CaseError> {
    let built = Built {
        model,
        duration: case.file.run.duration,
        timestep: &case.timestep,
    };
    for (k, c) in case.checks.iter().enumerate() {
        let key = format!("check[{}]", k + 1);
        c.validate(&built).map_err(|r| CaseError::new(f, &key, r))?;
        for (name, other) in c.other_cases() {
            let p = case.dir().join(other);
            let itself = p.canonicalize().ok()
                == Some(case.path.clone()).and_then(|q| q.canonicalize().ok())
                && p.is_file();
            if itself {
                return Err(CaseError::new(
                    f,
                    format!("{key}.{name}"),
                    format!(
                        "\"{other}\" is this case itself: a comparison needs another case's run"
                    ),
                ));
            }
            if !p.is_file() {
                return Err(CaseError::new(
                    f,
                    format!("{key}.{name}"),
                    format!(
                        "{}: no such case file (a path relative to this case's folder)",
                        p.display()
                    ),
                ));
            }
        }
    }
    Ok(())
}
