//! `[domain]`: the periodic cell (docs/CASES.md section 19).

use super::reader::Reader;
use super::CaseError;
use crate::geom::{Cell, Pressure, Shear};
use crate::math::{Real, Vec3};
use serde::Deserialize;

/// `[domain]`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DomainSection {
    /// Lower corner of the cell, m (3 components, 2 in 2D).
    pub min: Option<Vec<f64>>,
    /// Upper corner of the cell, m.
    pub max: Option<Vec<f64>>,
    /// The axes whose faces wrap: any of "x", "y", "z" ("x", "y" in 2D).
    #[serde(default)]
    pub periodic: Vec<String>,
    /// Lees-Edwards shear.
    pub shear: Option<ShearSection>,
    /// Constant-pressure control of one of the cell's lengths.
    pub pressure: Option<PressureSection>,
}

/// `[domain] pressure`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PressureSection {
    /// The normal stress to hold, Pa.
    pub target: f64,
    /// The axis whose length is controlled.
    pub axis: String,
    /// Strain rate per pascal of error, 1/(Pa s).
    pub gain: f64,
    /// Largest strain rate, 1/s.
    pub max_rate: f64,
    /// The servo acts every this many cycles (default 1).
    pub every: Option<i64>,
}

/// `[domain] shear`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShearSection {
    /// Shear rate, 1/s.
    pub rate: f64,
    /// The axis of the flow.
    pub flow: String,
    /// The axis of the velocity gradient.
    pub gradient: String,
}

/// The cell of `[domain]`, if any.
pub(super) fn parse_domain(
    r: &Reader,
    domain: Option<&DomainSection>,
) -> Result<Option<Cell>, CaseError> {
    let Some(d) = domain else {
        return Ok(None);
    };
    let err = |key: &str, reason: String| r.err(key, reason);
    let axes: &[&str] = if r.dim == 2 {
        &["x", "y"]
    } else {
        &["x", "y", "z"]
    };
    let mut periodic = [false; 3];
    for (k, name) in d.periodic.iter().enumerate() {
        let key = format!("domain.periodic[{}]", k + 1);
        let Some(axis) = axes.iter().position(|a| a == name) else {
            return Err(err(
                &key,
                format!("\"{name}\": an axis is one of {}", axes.join(", ")),
            ));
        };
        if periodic[axis] {
            return Err(err(&key, format!("\"{name}\" is given twice")));
        }
        periodic[axis] = true;
    }
    if !periodic.contains(&true) {
        return Err(err(
            "domain.periodic",
            "missing: name the axes that wrap, e.g. periodic = [\"x\", \"y\"] (a [domain] without them has no effect)".into(),
        ));
    }
    let corner = |key: &str, v: &Option<Vec<f64>>| -> Result<Vec3, CaseError> {
        match v {
            Some(v) => r.point(key, v),
            None => Err(err(
                key,
                "missing: a periodic cell needs its corners min and max (m)".into(),
            )),
        }
    };
    let (min, max) = (corner("domain.min", &d.min)?, corner("domain.max", &d.max)?);
    let mut len = max - min;
    for k in 0..r.dim {
        if !(len[k] > 0.0 && len[k].is_finite()) {
            return Err(err(
                "domain.max",
                format!(
                    "{}: must exceed domain.min along {} ({})",
                    max[k], axes[k], min[k]
                ),
            ));
        }
    }
    if r.dim == 2 {
        // (the disks lie in z = 0; the z extent is not used)
        len.z = 1.0;
    }
    let shear = d
        .shear
        .as_ref()
        .map(|s| shear(r, s, axes, periodic))
        .transpose()?;
    let pressure = d
        .pressure
        .as_ref()
        .map(|p| pressure(r, p, axes, periodic, shear.as_ref()))
        .transpose()?;
    Ok(Some(Cell {
        min,
        len,
        periodic,
        shear,
        offset: 0.0,
        strain: 0.0,
        pressure,
        dilation: 0.0,
    }))
}

/// `[domain] pressure`: a positive target, gain and largest rate, a periodic axis that is not
/// the shear's flow axis.
fn pressure(
    r: &Reader,
    p: &PressureSection,
    axes: &[&str],
    periodic: [bool; 3],
    shear: Option<&Shear>,
) -> Result<Pressure, CaseError> {
    for (key, v, unit) in [
        ("target", p.target, "Pa"),
        (
            "gain",
            p.gain,
            "1/(Pa s): the strain rate per pascal of error",
        ),
        ("max_rate", p.max_rate, "1/s"),
    ] {
        if !(v > 0.0 && v.is_finite()) {
            return Err(r.err(
                &format!("domain.pressure.{key}"),
                format!("{v}: must be a positive finite number ({unit})"),
            ));
        }
    }
    let key = "domain.pressure.axis";
    let Some(axis) = axes.iter().position(|a| *a == p.axis) else {
        return Err(r.err(
            key,
            format!("\"{}\": an axis is one of {}", p.axis, axes.join(", ")),
        ));
    };
    if !periodic[axis] {
        return Err(r.err(
            key,
            format!(
                "\"{}\" is not periodic: the controlled length is one of the cell's periodic axes",
                p.axis
            ),
        ));
    }
    if shear.is_some_and(|s| s.flow == axis) {
        return Err(r.err(key, format!("\"{}\" is the shear's flow axis: control the length along the gradient (or the third axis)", p.axis)));
    }
    let every = p.every.unwrap_or(1);
    if every < 1 {
        return Err(r.err(
            "domain.pressure.every",
            format!("{every}: the servo acts every N cycles, N at least 1"),
        ));
    }
    Ok(Pressure {
        target: p.target,
        axis,
        gain: p.gain,
        max_rate: p.max_rate,
        every: every as u64,
    })
}

/// `[domain] shear`: a finite rate, two different axes that both wrap.
fn shear(
    r: &Reader,
    s: &ShearSection,
    axes: &[&str],
    periodic: [bool; 3],
) -> Result<Shear, CaseError> {
    if !s.rate.is_finite() {
        return Err(r.err(
            "domain.shear.rate",
            format!("{}: must be a finite number (1/s)", s.rate),
        ));
    }
    let axis = |key: &str, name: &str| -> Result<usize, CaseError> {
        let key = format!("domain.shear.{key}");
        let Some(k) = axes.iter().position(|a| *a == name) else {
            return Err(r.err(
                &key,
                format!("\"{name}\": an axis is one of {}", axes.join(", ")),
            ));
        };
        if !periodic[k] {
            return Err(r.err(&key, format!("\"{name}\" is not periodic: Lees-Edwards shear needs both its axes in domain.periodic")));
        }
        Ok(k)
    };
    let (flow, gradient) = (axis("flow", &s.flow)?, axis("gradient", &s.gradient)?);
    if flow == gradient {
        return Err(r.err(
            "domain.shear.gradient",
            format!(
                "\"{}\" is also the flow axis: the gradient is another axis",
                s.gradient
            ),
        ));
    }
    Ok(Shear {
        rate: s.rate,
        flow,
        gradient,
    })
}

/// Refuses a cell too short for the minimum-image rule: along a periodic axis, a pair of balls
/// can be candidates up to `r_a + r_b + 2 margin` apart, and it must meet one image of the
/// other at most, so the length must exceed twice that, `4 (r_max + margin)`.
pub(super) fn refuse_short_cell(
    r: &Reader,
    cell: Option<&Cell>,
    largest: Real,
    margin: Real,
) -> Result<(), CaseError> {
    let Some(c) = cell else {
        return Ok(());
    };
    let shortest = 4.0 * (largest + margin);
    for k in (0..3).filter(|&k| c.periodic[k]) {
        if c.len[k] <= shortest {
            let axis = ["x", "y", "z"][k];
            return Err(r.err(
                "domain.max",
                format!(
                    "the cell is {:e} m long along {axis}: a periodic axis must be longer than 4 (largest radius + margin) = {shortest:e} m, so that two balls meet one image of each other at most",
                    c.len[k]
                ),
            ));
        }
    }
    Ok(())
}

/// Walls imaged across the faces (docs/CASES.md section 19): a `plane` that spans the cell
/// exactly along a periodic axis (one of its sides runs along the axis, from one face to the
/// other, to 1e-12 of the length) is its own image there, a chute's base: the unbounded plane
/// it stands for. Its vertices on the faces are moved `reach` (the largest radius plus the
/// margin) past them, so that a ball anywhere in the cell, or past a face by up to a margin
/// between two rebuilds, meets the plane over the whole of its contact; the wall is marked
/// [`crate::body::WallSpec::imaged`] (a ball's contact with it keeps its state from facet to
/// facet and across the faces). Returns, for each wall, the axes along which it is imaged
/// ([`refuse_walls_near_faces`] spares them). `planes`: for each wall, the normal of its
/// `plane` section, if it is one.
///
/// # Errors
/// Such a plane that moves (a motion or a program), or that spans the axis whose length the
/// pressure control changes, or the gradient axis of Lees-Edwards shear (whose images slide):
/// it would not be its own image.
pub(super) fn image_spanning_planes(
    r: &Reader,
    planes: &[Option<Vec3>],
    walls: &mut [crate::body::WallSpec],
    reach: Real,
) -> Result<Vec<[bool; 3]>, CaseError> {
    let mut imaged = vec![[false; 3]; walls.len()];
    let Some(c) = r.cell.as_ref() else {
        return Ok(imaged);
    };
    for (w, (wall, plane)) in walls.iter_mut().zip(planes).enumerate() {
        let Some(normal) = *plane else {
            continue;
        };
        if normal.norm() == 0.0 {
            continue;
        }
        let (u, v) = crate::geom::plane_axes(&normal.normalize());
        for k in (0..3).filter(|&k| c.periodic[k]) {
            let (lo, hi) = (c.min[k], c.min[k] + c.len[k]);
            let tol = 1e-12 * c.len[k];
            // (a side along the axis: the plane's edges across it lie on lines x_k = const)
            let along = |a: &Vec3| (0..3).all(|j| j == k || a[j].abs() <= 1e-12);
            let low = (wall.vertices.iter()).fold(Real::INFINITY, |m, q| m.min(q[k]));
            let high = (wall.vertices.iter()).fold(Real::NEG_INFINITY, |m, q| m.max(q[k]));
            if !((along(&u) || along(&v)) && (low - lo).abs() <= tol && (high - hi).abs() <= tol) {
                continue;
            }
            let axis = ["x", "y", "z"][k];
            let at = format!("wall[{}]", w + 1);
            let spans = format!(
                "plane \"{}\" spans the periodic cell exactly along {axis} ([{lo}, {hi}]), so it would be imaged across the faces there (a chute's base)",
                wall.name
            );
            let still = wall.program.is_none()
                && matches!(&wall.motion, crate::body::WallMotion::Rigid { vel, spin }
                    if *vel == Vec3::zeros() && *spin == Vec3::zeros());
            if !still {
                return Err(r.err(
                    &format!("{at}.motion"),
                    format!("{spans}, but it moves: only a still plane is its own image; a moving wall must keep clear of the periodic faces"),
                ));
            }
            if c.pressure.is_some_and(|q| q.axis == k) {
                return Err(r.err(
                    &at,
                    format!("{spans}, but the pressure control changes the cell's length along {axis}: the plane would no longer span it"),
                ));
            }
            if c.shear.is_some_and(|s| s.gradient == k) {
                return Err(r.err(
                    &at,
                    format!("{spans}, but {axis} is the gradient axis of the Lees-Edwards shear, whose images slide: the plane's images would move along its own surface"),
                ));
            }
            for q in wall.vertices.iter_mut() {
                if (q[k] - lo).abs() <= tol {
                    q[k] = lo - reach;
                } else if (q[k] - hi).abs() <= tol {
                    q[k] = hi + reach;
                }
            }
            imaged[w][k] = true;
            wall.imaged = true;
        }
    }
    Ok(imaged)
}

/// Refuses a wall that comes within `reach` (the largest radius plus the margin) of a face of
/// the cell along a periodic axis, or lies outside it, unless it is imaged along that axis
/// ([`image_spanning_planes`]): other walls are not imaged, so a ball across that face would
/// meet the wall on one side and not its image on the other.
pub(super) fn refuse_walls_near_faces(
    r: &Reader,
    cell: Option<&Cell>,
    walls: &[crate::body::WallSpec],
    reach: Real,
    imaged: &[[bool; 3]],
) -> Result<(), CaseError> {
    let Some(c) = cell else {
        return Ok(());
    };
    for (w, wall) in walls.iter().enumerate() {
        for v in &wall.vertices {
            for k in (0..3).filter(|&k| c.periodic[k] && !imaged[w][k]) {
                let (lo, hi) = (c.min[k], c.min[k] + c.len[k]);
                if v[k] < lo + reach || v[k] > hi - reach {
                    return Err(r.err(
                        &format!("wall[{}]", w + 1),
                        format!(
                            "wall \"{}\" comes within {reach:e} m (the largest radius plus the margin) of a face of the periodic cell along {} (at {} in [{lo}, {hi}]): walls are not imaged across the faces, so a ball across the face would meet the wall on one side only; keep walls clear of the periodic faces; only a still `plane` whose side spans the cell exactly along the axis, edges on both faces, is imaged (a chute's base)",
                            wall.name,
                            ["x", "y", "z"][k],
                            v[k]
                        ),
                    ));
                }
            }
        }
    }
    Ok(())
}
