//! `[[insert]]` and `[[outlet]]` sections, and the `region` they share with `[[measure]]`.

use super::materials::material_index;
use super::reader::{finite3, positive, Reader};
use super::{CaseError, CaseFile, RadiusSection, RegionSection};
use crate::body::Material;
use crate::distribution::Radii;
use crate::flow::{InsertSpec, Rate};
use crate::geom::Zone;
use crate::math::{vec3, Real};

/// A region: a zone, or everything (`all = true`, where `allow_all`).
pub(super) fn parse_region(
    r: &Reader,
    key: &str,
    s: &RegionSection,
    allow_all: bool,
) -> Result<Option<Zone>, CaseError> {
    let f = r.f;
    let k = |s: &str| format!("{key}.{s}");
    let given = [s.box_.is_some(), s.cylinder.is_some(), s.all.is_some()];
    let expected = if allow_all {
        "give exactly one of `box`, `cylinder` and `all = true`"
    } else {
        "give exactly one of `box` and `cylinder`"
    };
    if given.iter().filter(|&&g| g).count() != 1 || (!allow_all && s.all.is_some()) {
        return Err(r.err(key, expected.into()));
    }
    if let Some(all) = s.all {
        if !all {
            return Err(r.err(&k("all"), "only `all = true` means anything".into()));
        }
        return Ok(None);
    }
    if let Some(b) = &s.box_ {
        let (min, max) = (
            finite3(f, &k("box.min"), b.min)?,
            finite3(f, &k("box.max"), b.max)?,
        );
        if (0..3).any(|i| max[i] <= min[i]) {
            return Err(r.err(
                &k("box.max"),
                format!("{:?}: every component must exceed min {:?}", b.max, b.min),
            ));
        }
        return Ok(Some(Zone::Box { min, max }));
    }
    let c = s.cylinder.as_ref().expect("one of the three");
    let base = finite3(f, &k("cylinder.base"), c.base)?;
    let axis = finite3(f, &k("cylinder.axis"), c.axis)?;
    if axis.norm() == 0.0 {
        return Err(r.err(&k("cylinder.axis"), "must not be the zero vector".into()));
    }
    let radius = positive(f, &k("cylinder.radius"), c.radius)?;
    let height = positive(f, &k("cylinder.height"), c.height)?;
    Ok(Some(Zone::cylinder(base, axis, radius, height)))
}

/// A name of an insertion, outlet or measurement: it names series (`insert/<name>/count`).
pub(super) fn parse_flow_name(
    r: &Reader,
    key: &str,
    given: &Option<String>,
    default: String,
    taken: &[String],
) -> Result<String, CaseError> {
    let name = given.clone().unwrap_or(default);
    if name.is_empty() || name.contains(['/', '"']) || name.chars().any(char::is_control) {
        return Err(r.err(
            key,
            format!("{name:?}: must be non-empty, without slashes, quotes or control characters (it names series)"),
        ));
    }
    if taken.contains(&name) {
        return Err(r.err(key, format!("\"{name}\" is used twice")));
    }
    Ok(name)
}

/// The radius distribution of an insertion.
fn parse_radii(r: &Reader, key: &str, s: &RadiusSection) -> Result<Radii, CaseError> {
    let f = r.f;
    let k = |x: &str| format!("{key}.{x}");
    let keys = radius_keys(r, key, s)?;
    let need = |name: &str, v: Option<f64>| -> Result<Real, CaseError> {
        let v = v.ok_or_else(|| {
            r.err(
                &k(name),
                format!("missing (kind \"{}\" needs {})", s.kind, keys.join(", ")),
            )
        })?;
        positive(f, &k(name), v)
    };
    let range = || -> Result<(Real, Real), CaseError> {
        let (min, max) = (need("min", s.min)?, need("max", s.max)?);
        if max < min {
            return Err(r.err(&k("max"), format!("{max}: must be at least min {min}")));
        }
        Ok((min, max))
    };
    let radii = match s.kind.as_str() {
        "uniform" => {
            let (min, max) = range()?;
            Radii::Uniform { min, max }
        }
        "normal" => {
            let (mean, std) = (need("mean", s.mean)?, need("std", s.std)?);
            let (min, max) = range()?;
            Radii::Normal {
                mean,
                std,
                min,
                max,
            }
        }
        "lognormal" => {
            let (median, sigma) = (need("median", s.median)?, need("sigma", s.sigma)?);
            let (min, max) = range()?;
            Radii::Lognormal {
                median,
                sigma,
                min,
                max,
            }
        }
        _ => discrete_radii(r, key, s)?,
    };
    let kept = radii.kept_fraction();
    if kept.is_nan() || kept < 1e-3 {
        return Err(r.err(
            key,
            format!("[min, max] keeps a fraction {kept:.2e} of the distribution: widen it (at least 1e-3)"),
        ));
    }
    Ok(radii)
}

/// The keys of the distribution's kind; an unknown kind, or a key of another kind, refused.
fn radius_keys(
    r: &Reader,
    key: &str,
    s: &RadiusSection,
) -> Result<&'static [&'static str], CaseError> {
    let k = |x: &str| format!("{key}.{x}");
    let given: [(&str, bool); 9] = [
        ("min", s.min.is_some()),
        ("max", s.max.is_some()),
        ("mean", s.mean.is_some()),
        ("std", s.std.is_some()),
        ("median", s.median.is_some()),
        ("sigma", s.sigma.is_some()),
        ("radii", s.radii.is_some()),
        ("fractions", s.fractions.is_some()),
        ("by", s.by.is_some()),
    ];
    let keys: &[&str] = match s.kind.as_str() {
        "uniform" => &["min", "max"],
        "normal" => &["mean", "std", "min", "max"],
        "lognormal" => &["median", "sigma", "min", "max"],
        "discrete" => &["radii", "fractions", "by"],
        other => {
            return Err(r.err(
                &k("kind"),
                format!("unknown kind \"{other}\" (uniform, normal, lognormal, discrete)"),
            ))
        }
    };
    for (name, present) in given {
        if present && !keys.contains(&name) {
            return Err(r.err(
                &k(name),
                format!(
                    "not a key of kind \"{}\" (its keys: {})",
                    s.kind,
                    keys.join(", ")
                ),
            ));
        }
    }
    Ok(keys)
}

/// `kind = "discrete"`: radii with their fractions, by number or by mass.
fn discrete_radii(r: &Reader, key: &str, s: &RadiusSection) -> Result<Radii, CaseError> {
    let f = r.f;
    let k = |x: &str| format!("{key}.{x}");
    let radii = s
        .radii
        .clone()
        .ok_or_else(|| r.err(&k("radii"), "missing".into()))?;
    let fr = s
        .fractions
        .clone()
        .ok_or_else(|| r.err(&k("fractions"), "missing".into()))?;
    if radii.is_empty() || radii.len() != fr.len() {
        return Err(r.err(
            &k("fractions"),
            format!(
                "{} fractions for {} radii: give one per radius (at least one)",
                fr.len(),
                radii.len()
            ),
        ));
    }
    for (j, &x) in radii.iter().enumerate() {
        positive(f, &format!("{}[{}]", k("radii"), j + 1), x)?;
    }
    for (j, &x) in fr.iter().enumerate() {
        if !(x.is_finite() && x >= 0.0) {
            return Err(r.err(
                &format!("{}[{}]", k("fractions"), j + 1),
                format!("{x}: must be a finite number >= 0"),
            ));
        }
    }
    if fr.iter().sum::<f64>() <= 0.0 {
        return Err(r.err(&k("fractions"), "must not all be 0".into()));
    }
    Ok(match s.by.as_deref().unwrap_or("number") {
        "number" => Radii::discrete(radii, fr),
        "mass" => Radii::discrete_by_mass(radii, &fr),
        other => {
            return Err(r.err(
                &k("by"),
                format!("\"{other}\": expected \"number\" or \"mass\""),
            ))
        }
    })
}

/// Every `[[insert]]`.
pub(super) fn parse_inserts(
    r: &Reader,
    file: &CaseFile,
    materials: &[Material],
) -> Result<Vec<InsertSpec>, CaseError> {
    let f = r.f;
    let mut out: Vec<InsertSpec> = Vec::new();
    for (n, s) in file.insert.iter().enumerate() {
        let key = |x: &str| format!("insert[{}].{x}", n + 1);
        if r.dim == 2 {
            return Err(r.err(
                &format!("insert[{}]", n + 1),
                "[[insert]] is 3D only (dim = 3)".into(),
            ));
        }
        let taken: Vec<String> = out.iter().map(|i| i.name.clone()).collect();
        let name = parse_flow_name(r, &key("name"), &s.name, format!("insert{}", n + 1), &taken)?;
        let zone = parse_region(r, &key("region"), &s.region, false)?.expect("not all");
        let material = material_index(r, materials, &key("material"), &s.material)?;
        let count = match s.count {
            Some(c) if c < 1 => {
                return Err(r.err(&key("count"), format!("{c}: must be at least 1")))
            }
            c => c.map(|c| c as u64),
        };
        let rate = match (s.rate, s.mass_rate) {
            (Some(_), Some(_)) => {
                return Err(r.err(
                    &key("mass_rate"),
                    "give `rate` (balls/s) or `mass_rate` (kg/s), not both".into(),
                ))
            }
            (Some(x), None) => Rate::Balls(positive(f, &key("rate"), x)?),
            (None, Some(x)) => Rate::Mass(positive(f, &key("mass_rate"), x)?),
            (None, None) => {
                if count.is_none() {
                    return Err(r.err(
                        &key("count"),
                        "missing: give `count` (all at once at `start`), or a `rate` or `mass_rate`".into(),
                    ));
                }
                Rate::AtOnce
            }
        };
        if let Some(c) = count {
            crate::storage::fits(c, crate::storage::BALL_BYTES)
                .map_err(|e| r.err(&key("count"), e.to_string()))?;
        }
        let start = s.start.unwrap_or(0.0);
        if !(start.is_finite() && start >= 0.0) {
            return Err(r.err(
                &key("start"),
                format!("{start}: must be a finite number >= 0 (s)"),
            ));
        }
        if let Some(stop) = s.stop {
            if !(stop.is_finite() && stop > start) {
                return Err(r.err(
                    &key("stop"),
                    format!("{stop}: must be a finite number above start {start} (s)"),
                ));
            }
        }
        let radii = parse_radii(r, &key("radius"), &s.radius)?;
        refuse_bad_mass(r, &key("radius"), radii.range(), &materials[material])?;
        let r_max = radii.range().1;
        if !zone.fits(r_max) {
            return Err(r.err(
                &key("region"),
                format!("a ball of the largest radius {r_max:e} m does not fit in it"),
            ));
        }
        let mut wraps = [false; 3];
        if let Some(c) = r.cell.as_ref() {
            // (a new ball lies wholly inside its region: inside the cell, its images outside;
            // a box spanning the cell along a periodic axis wraps)
            let (lo, hi) = zone.bounds();
            for k in (0..3).filter(|&k| c.periodic[k]) {
                let (a, b) = (c.min[k], c.min[k] + c.len[k]);
                if lo[k] < a || hi[k] > b {
                    return Err(r.err(
                        &key("region"),
                        format!(
                            "reaches outside the periodic cell along {} ([{}, {}] not in [{a}, {b}]): the balls are inserted inside the cell",
                            ["x", "y", "z"][k],
                            lo[k],
                            hi[k]
                        ),
                    ));
                }
                wraps[k] = matches!(zone, Zone::Box { .. }) && lo[k] == a && hi[k] == b;
            }
        }
        let vel = finite3(f, &key("vel"), s.vel.unwrap_or([0.0; 3]))?;
        let seed = match s.seed {
            Some(x) if x < 0 => return Err(r.err(&key("seed"), format!("{x}: must be >= 0"))),
            x => x.unwrap_or(1) as u64,
        };
        out.push(InsertSpec {
            name,
            zone,
            wraps,
            material,
            rate,
            count,
            start,
            stop: s.stop,
            radii,
            vel: vec3([vel.x, vel.y, vel.z]),
            seed,
        });
    }
    Ok(out)
}

/// The radii `[lo, hi]` of an insertion give every ball a positive finite mass and moment of
/// inertia (as `[[ball]]` radii must): a radius of 1e-300 m underflows, 1e300 m overflows.
fn refuse_bad_mass(
    r: &Reader,
    key: &str,
    (lo, hi): (Real, Real),
    m: &Material,
) -> Result<(), CaseError> {
    for radius in [lo, hi] {
        let mass = m.density * 4.0 / 3.0 * crate::math::PI * radius.powi(3);
        let inertia = 0.4 * mass * radius * radius;
        for (what, v) in [("mass", mass), ("moment of inertia", inertia)] {
            if !(v.is_finite() && v > 0.0) {
                return Err(r.err(
                    key,
                    format!(
                        "a ball of radius {radius:e} m of \"{}\" (density {:e} kg/m^3) has a \
                         {what} of {v:e}: it must be a positive finite number",
                        m.name, m.density
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// Every `[[outlet]]`: (name, zone).
pub(super) fn parse_outlets(r: &Reader, file: &CaseFile) -> Result<Vec<(String, Zone)>, CaseError> {
    let mut out: Vec<(String, Zone)> = Vec::new();
    for (n, s) in file.outlet.iter().enumerate() {
        let key = |x: &str| format!("outlet[{}].{x}", n + 1);
        if r.dim == 2 {
            return Err(r.err(
                &format!("outlet[{}]", n + 1),
                "[[outlet]] is 3D only (dim = 3)".into(),
            ));
        }
        if !file.clump.is_empty() {
            return Err(r.err(
                &format!("outlet[{}]", n + 1),
                "outlets remove balls, not clumps: a case with clumps cannot have an outlet yet"
                    .into(),
            ));
        }
        let taken: Vec<String> = out.iter().map(|o| o.0.clone()).collect();
        let name = parse_flow_name(r, &key("name"), &s.name, format!("outlet{}", n + 1), &taken)?;
        let zone = parse_region(r, &key("region"), &s.region, false)?.expect("not all");
        out.push((name, zone));
    }
    Ok(out)
}

/// Every `[[measure]]`.
pub(super) fn parse_measures(
    r: &Reader,
    file: &CaseFile,
) -> Result<Vec<crate::model::Measure>, CaseError> {
    let mut out: Vec<crate::model::Measure> = Vec::new();
    for (n, s) in file.measure.iter().enumerate() {
        let key = |x: &str| format!("measure[{}].{x}", n + 1);
        if r.dim == 2 {
            return Err(r.err(
                &format!("measure[{}]", n + 1),
                "[[measure]] is 3D only (dim = 3)".into(),
            ));
        }
        let taken: Vec<String> = out.iter().map(|m| m.name.clone()).collect();
        let name = parse_flow_name(
            r,
            &key("name"),
            &s.name,
            format!("measure{}", n + 1),
            &taken,
        )?;
        let zone = parse_region(r, &key("region"), &s.region, true)?;
        out.push(crate::model::Measure { name, zone });
    }
    Ok(out)
}
