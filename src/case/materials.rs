//! `[material.<name>]`: density, Young's modulus, Poisson's ratio.

use super::reader::{list_or_none, positive, Reader};
use super::{CaseError, CaseFile};
use crate::body::Material;

/// The materials, in name order.
pub(super) fn parse_materials(r: &Reader, file: &CaseFile) -> Result<Vec<Material>, CaseError> {
    let f = r.f;
    let err = |key: &str, reason: String| r.err(key, reason);
    let mut materials = Vec::new();
    for (mname, m) in &file.material {
        let key = |k: &str| format!("material.{mname}.{k}");
        positive(f, &key("density"), m.density)?;
        let young = m.young.unwrap_or(0.0);
        // NOTE: young = inf is a rigid body (for Hertz-type models: E* from the other side).
        if young.is_nan() || young < 0.0 {
            return Err(err(
                &key("young"),
                format!("{young}: must be a non-negative number (Pa)"),
            ));
        }
        let poisson = m.poisson.unwrap_or(0.0);
        if !(poisson.is_finite() && poisson > -1.0 && poisson <= 0.5) {
            return Err(err(
                &key("poisson"),
                format!("{poisson}: must lie in (-1, 0.5]"),
            ));
        }
        materials.push(Material {
            name: mname.clone(),
            density: m.density,
            young,
            poisson,
        });
    }
    Ok(materials)
}

/// The index of material `name` (`key` names the place that refers to it).
pub(super) fn material_index(
    r: &Reader,
    materials: &[Material],
    key: &str,
    name: &str,
) -> Result<usize, CaseError> {
    materials
        .iter()
        .position(|m| m.name == name)
        .ok_or_else(|| {
            let known: Vec<_> = materials.iter().map(|m| m.name.as_str()).collect();
            r.err(
                key,
                format!(
                    "unknown material \"{name}\" (defined: {})",
                    list_or_none(&known)
                ),
            )
        })
}
