//! What a case asks for that its run cannot do (docs/CASES.md, section 2, "Runs that cannot do
//! what the case asks"): refused when it is certainly wrong, a warning (`FILE: key: reason`)
//! when it may be intended. The warnings found at the end of a run are here too.

use super::reader::Reader;
use super::{Case, CaseError};
use crate::body::{Program, ServoTarget, WallSpec};
use crate::geom::Zone;
use crate::math::{Real, Vec3};
use crate::model::Model;

/// Reviews a validated case: `Err` for what is certainly wrong, else the warnings (one
/// `FILE: key: reason` line each).
///
/// # Errors
/// An insertion that starts after the run ends, an outlet over an insertion's region, a servo
/// that cannot reach its target, an oscillation the timestep samples at its zeros.
pub(super) fn review(r: &Reader, case: &Case) -> Result<Vec<String>, CaseError> {
    let mut warnings = Vec::new();
    let mut warn = |key: String, reason: String| warnings.push(r.err(&key, reason).to_string());
    inserts(r, case, &mut warn)?;
    outlets_over_inserts(r, case)?;
    for (k, w) in case.walls.iter().enumerate() {
        match &w.program {
            Some(Program::Servo {
                direction, target, ..
            }) => servo(r, case, k, w, direction, target)?,
            Some(Program::Oscillate { frequency, .. }) => {
                oscillation(r, case, k, *frequency, &mut warn)?
            }
            _ => {}
        }
    }
    for (k, c) in case.file.contact.iter().enumerate() {
        if matches!(c.model.as_str(), "hertz" | "hertz-history") && c.restitution.is_none() {
            warn(
                format!("contact[{}].restitution", k + 1),
                format!(
                    "not given: model \"{}\" takes the default 1 (elastic: no normal damping, a \
                     dropped ball bounces for ever); give the restitution the materials have",
                    c.model
                ),
            );
        }
    }
    Ok(warnings)
}

/// The time at which the run ends, when it is known before the run.
fn end_time(case: &Case) -> Option<Real> {
    match (case.file.run.duration, case.file.run.steps, case.fixed_dt()) {
        (Some(d), _, _) => Some(d),
        (None, Some(n), Some(dt)) => Some(n as Real * dt),
        _ => None,
    }
}

/// `[[insert]]`: refused when it starts at or after the end of the run; warnings for an
/// insertion whose balls can never meet a wall and for discrete fractions that do not sum to 1.
fn inserts(
    r: &Reader,
    case: &Case,
    warn: &mut impl FnMut(String, String),
) -> Result<(), CaseError> {
    let end = end_time(case);
    let walls = walls_box(&case.walls);
    for (k, i) in case.inserts.iter().enumerate() {
        let key = |x: &str| format!("insert[{}].{x}", k + 1);
        if let Some(end) = end.filter(|&e| i.start >= e) {
            return Err(r.err(
                &key("start"),
                format!(
                    "{} s: the run ends at {end} s: no ball would ever be inserted",
                    i.start
                ),
            ));
        }
        if let Some((lo, hi)) = walls {
            if !reaches(&i.zone, case.gravity + i.vel, lo, hi) {
                warn(
                    key("region"),
                    "lies outside the box that holds every wall, and neither gravity nor `vel` \
                     carries its balls towards it: they never meet a wall"
                        .into(),
                );
            }
        }
        let fractions = case.file.insert[k].radius.fractions.as_deref();
        if let Some(sum) = fractions.map(|f| f.iter().sum::<f64>()) {
            if (sum - 1.0).abs() > 1e-9 {
                warn(
                    key("radius.fractions"),
                    format!("sum to {sum}, not 1: each is divided by {sum}"),
                );
            }
        }
    }
    Ok(())
}

/// The box that holds every wall's vertices (None without walls).
fn walls_box(walls: &[WallSpec]) -> Option<(Vec3, Vec3)> {
    let mut it = walls.iter().flat_map(|w| w.vertices.iter());
    let first = *it.next()?;
    Some(it.fold((first, first), |(lo, hi), v| (lo.inf(v), hi.sup(v))))
}

/// True when the zone, swept along `drift` (the way its balls go: gravity plus their
/// velocity; none when both are 0), meets the box `[lo, hi]`.
fn reaches(zone: &Zone, drift: Vec3, lo: Vec3, hi: Vec3) -> bool {
    let (zlo, zhi) = zone.bounds();
    // for each axis, the interval of the swept zone: unbounded where the drift points
    (0..3).all(|a| {
        let (mut from, mut to) = (zlo[a], zhi[a]);
        if drift[a] > 0.0 {
            to = Real::INFINITY;
        } else if drift[a] < 0.0 {
            from = Real::NEG_INFINITY;
        }
        from <= hi[a] && to >= lo[a]
    })
}

/// An outlet that removes balls where an insertion places them: refused.
fn outlets_over_inserts(r: &Reader, case: &Case) -> Result<(), CaseError> {
    const N: usize = 12;
    for (k, i) in case.inserts.iter().enumerate() {
        let rmin = i.radii.range().0;
        for (j, (name, zone)) in case.outlets.iter().enumerate() {
            let u = |n: usize| (n as Real + 0.5) / N as Real;
            let hit = (0..N * N * N).find_map(|n| {
                let p = i
                    .zone
                    .sample_inside(rmin, [u(n % N), u(n / N % N), u(n / (N * N))])?;
                zone.contains(&p).then_some(p)
            });
            if let Some(p) = hit {
                return Err(r.err(
                    &format!("outlet[{}].region", j + 1),
                    format!(
                        "outlet \"{name}\" overlaps the region of insert[{}] \"{}\" (at [{:.4e}, \
                         {:.4e}, {:.4e}]): a ball placed there is removed in the next cycle",
                        k + 1,
                        i.name,
                        p.x,
                        p.y,
                        p.z
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// A servo that cannot reach its target: a negative one (balls without cohesion only push), a
/// stress over no projected area, no balls, or a direction away from every ball.
fn servo(
    r: &Reader,
    case: &Case,
    k: usize,
    w: &WallSpec,
    d: &Vec3,
    target: &ServoTarget,
) -> Result<(), CaseError> {
    let key = |x: &str| format!("wall[{}].motion.{x}", k + 1);
    let (name, value) = match target {
        ServoTarget::Force(x) => ("target_force", *x),
        ServoTarget::Stress(x) => ("target_stress", *x),
    };
    if value < 0.0 && case.cohesion.iter().all(Option::is_none) {
        return Err(r.err(
            &key(name),
            format!(
                "{value}: balls without cohesion only push on a wall, so the load is never \
                 negative: the wall would move back at max_speed for ever"
            ),
        ));
    }
    if matches!(target, ServoTarget::Stress(_)) && projected_area(w, d) <= 0.0 {
        return Err(r.err(
            &key("direction"),
            "the wall has no area projected on the plane normal to the direction (its facets \
             are parallel to it): a target_stress is then no force"
                .into(),
        ));
    }
    let bodies: Vec<Vec3> = (case.balls.iter().map(|b| b.pos))
        .chain(case.clumps.iter().map(|c| c.pos))
        .chain(case.inserts.iter().map(|i| {
            let (lo, hi) = i.zone.bounds();
            (lo + hi) / 2.0
        }))
        .collect();
    if bodies.is_empty() {
        return Err(r.err(
            &format!("wall[{}].motion", k + 1),
            "a servo with no ball, clump or insertion in the case has no load to hold: it would \
             move at max_speed for ever"
                .into(),
        ));
    }
    if bodies.iter().all(|p| (p - w.pivot).dot(d) <= 0.0) {
        return Err(r.err(
            &key("direction"),
            "points away from every ball (and insertion): the wall advances along it while the \
             load is below the target, so it would move away at max_speed for ever; reverse it"
                .into(),
        ));
    }
    Ok(())
}

/// Σ facet area × |n · d|: the area a servo's `target_stress` acts over, m².
fn projected_area(w: &WallSpec, d: &Vec3) -> Real {
    w.facets
        .iter()
        .map(|f| {
            let [a, b, c] = f.map(|i| w.vertices[i as usize]);
            0.5 * (b - a).cross(&(c - a)).dot(d).abs()
        })
        .sum()
}

/// An oscillation sampled by a fixed timestep: refused when every cycle falls on a zero of
/// the sine (2 f dt a whole number: the plate never moves), a warning below two cycles a period.
fn oscillation(
    r: &Reader,
    case: &Case,
    k: usize,
    frequency: Real,
    warn: &mut impl FnMut(String, String),
) -> Result<(), CaseError> {
    let Some(dt) = case.fixed_dt() else {
        return Ok(());
    };
    let key = format!("wall[{}].motion.frequency", k + 1);
    let half_periods = 2.0 * frequency * dt;
    let whole = half_periods.round();
    if whole >= 1.0 && (half_periods - whole).abs() <= 1e-9 * half_periods {
        return Err(r.err(
            &key,
            format!(
                "{frequency} Hz with dt = {dt:e} s: each step is {whole} half periods, so every \
                 cycle samples A sin(2π f t) at a zero and the plate never moves; change the \
                 frequency or dt"
            ),
        ));
    }
    if half_periods > 1.0 {
        warn(
            key,
            format!(
                "{frequency} Hz with dt = {dt:e} s: fewer than two cycles a period, so the plate \
                 follows an alias of the motion asked for (a slower oscillation)"
            ),
        );
    }
    Ok(())
}

/// The warnings of a run that ended (model `model` of `case`): an insertion with balls still
/// pending, a measurement region empty at the start and at the end.
pub fn end_warnings(case: &Case, model: &Model) -> Vec<String> {
    let f = case.path.display().to_string();
    let mut out = Vec::new();
    for (k, i) in model.flow.inserts.iter().enumerate() {
        if i.pending > 0.0 {
            let what = match i.spec.rate {
                crate::flow::Rate::Mass(_) => format!("{:e} kg", i.pending),
                _ => format!("{} balls", i.pending),
            };
            let reason = format!(
                "{what} still pending at the end of the run ({} placed): the region was full \
                 (a larger region, a lower rate or a longer run places them)",
                i.placed
            );
            out.push(CaseError::new(&f, format!("insert[{}]", k + 1), reason).to_string());
        }
    }
    let at_start: Vec<Vec3> = (case.balls.iter().map(|b| b.pos))
        .chain(case.clumps.iter().map(|c| c.pos))
        .collect();
    for (k, m) in case.measures.iter().enumerate() {
        let Some(zone) = &m.zone else { continue };
        let b = &model.balls;
        let now = (0..b.len())
            .filter(|&i| !b.is_pebble(i))
            .map(|i| &b.pos[i])
            .chain(&model.clumps.pos);
        if !at_start.iter().chain(now).any(|p| zone.contains(p)) {
            out.push(
                CaseError::new(
                    &f,
                    format!("measure[{}].region", k + 1),
                    format!(
                        "\"{}\" held no body at the start nor at the end of the run: its \
                         series measure nothing",
                        m.name
                    ),
                )
                .to_string(),
            );
        }
    }
    out
}
