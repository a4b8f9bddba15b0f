//! What a case simulates, in words, for its report page ([`scene`]).

use crate::case::Case;
use crate::math::{num, Real};
use crate::record::Scene;

/// What a case simulates, in words, for its report page.
pub fn scene(case: &Case) -> Scene {
    let mut s = Scene {
        settings: settings(case),
        ..Default::default()
    };
    add_materials(&mut s, case);
    add_contact_models(&mut s, case);
    add_balls(&mut s, case);
    if !case.walls.is_empty() {
        add_walls(&mut s, case);
    }
    s
}

/// A vector in words: `(x, y, z)`.
fn vec_text(x: &crate::math::Vec3) -> String {
    format!("({}, {}, {})", num(x.x), num(x.y), num(x.z))
}

/// `[domain]` in words: the cell, the axes that wrap, the shear.
fn cell_text(c: &crate::geom::Cell, dim: usize) -> String {
    let axes = ["x", "y", "z"];
    let k = 0..dim;
    let lo: Vec<String> = k.clone().map(|k| num(c.min[k])).collect();
    let hi: Vec<String> = k.map(|k| num(c.min[k] + c.len[k])).collect();
    let wraps: Vec<&str> = (0..3).filter(|&k| c.periodic[k]).map(|k| axes[k]).collect();
    let mut text = format!(
        "from ({}) to ({}) m; {} wrap (nearest images; src/geom/cell.rs)",
        lo.join(", "),
        hi.join(", "),
        wraps.join(", ")
    );
    if let Some(s) = &c.shear {
        text += &format!(
            "; Lees-Edwards shear at {} 1/s, flow {}, gradient {} (images move at {} m/s)",
            num(s.rate),
            axes[s.flow],
            axes[s.gradient],
            num(c.jump())
        );
    }
    text
}

/// The scene's settings: dimension, gravity, margin, timestep, ball order and run length.
fn settings(case: &Case) -> Vec<(String, String)> {
    let dt = case.fixed_dt();
    let mut settings = vec![
        (
            "dimension".into(),
            "3D spheres, 6 degrees of freedom each".into(),
        ),
        (
            "gravity".into(),
            format!("{} m/s²", vec_text(&case.gravity)),
        ),
        (
            "margin".into(),
            format!(
                "{} m (extents enlarged by it; contacts exist before pieces touch)",
                num(case.margin)
            ),
        ),
        ("timestep".into(), case.timestep.to_string()),
    ];
    if let Some(c) = &case.cell {
        settings.push(("periodic cell".into(), cell_text(c, case.dim())));
    }
    if let Some(k) = case.file.run.sort_every.filter(|&k| k > 0) {
        let how = match case.file.run.sort_order.as_deref() {
            Some("morton") => "along the Z (Morton) curve of their cells",
            _ => "in rows of cells (the axis with the most cells slowest)",
        };
        settings.push((
            "ball order".into(),
            format!(
                "renumbered {how} every {k} cycles, at the next rebuild of the candidate pairs \
                 (src/detect/sort.rs; ids move with the balls)"
            ),
        ));
    }
    settings.extend([
        (
            "run".into(),
            match (case.file.run.steps, case.file.run.duration, dt) {
                (Some(n), _, Some(dt)) => format!("{n} cycles ({} s)", num(n as Real * dt)),
                (Some(n), _, None) => format!("at most {n} cycles"),
                (_, Some(d), Some(dt)) => {
                    format!("{} s ({} cycles)", num(d), case.steps_for(dt))
                }
                (_, Some(d), None) => format!("{} s", num(d)),
                _ => String::new(),
            } + &case.file.run.solve_ratio.map_or(String::new(), |r| {
                format!(", stopping once the solve ratio (mean unbalanced force / mean contact force) is below {}", num(r))
            }),
        ),
    ]);
    settings
}

/// The materials' table (a header row, then one row per material).
fn add_materials(s: &mut Scene, case: &Case) {
    s.materials.push(
        ["name", "density (kg/m³)", "Young (Pa)", "Poisson"]
            .map(String::from)
            .to_vec(),
    );
    for m in &case.materials {
        // (a material that sets no Young's modulus: neither it nor Poisson's ratio is used)
        let (young, poisson) = if m.young > 0.0 {
            (num(m.young), format!("{}", m.poisson))
        } else {
            ("-".into(), "-".into())
        };
        s.materials.push(vec![
            m.name.clone(),
            format!("{}", m.density),
            young,
            poisson,
        ]);
    }
}

/// The contact models' table: each pair of materials, its model and its parameters.
fn add_contact_models(s: &mut Scene, case: &Case) {
    s.contact_models.push(
        ["between", "model", "parameters"]
            .map(String::from)
            .to_vec(),
    );
    for (k, (a, b, law)) in case.contact_models.iter().enumerate() {
        let mut params = law.to_string();
        if let Some(r) = case.rolling.get(k).copied().flatten() {
            params.push_str(&format!("; {}", rolling_text(&r)));
        }
        if let Some(c) = case.cohesion.get(k).copied().flatten() {
            params.push_str(&format!("; {}", cohesion_text(&c)));
        }
        s.contact_models.push(vec![
            format!("{} – {}", case.materials[*a].name, case.materials[*b].name),
            law.name().into(),
            params,
        ]);
    }
}

/// The balls' table: the first 30 balls, and how many are not listed.
fn add_balls(s: &mut Scene, case: &Case) {
    const LISTED: usize = 30;
    s.balls.push(
        [
            "id",
            "radius (m)",
            "material",
            "position (m)",
            "velocity (m/s)",
            "fixed",
        ]
        .map(String::from)
        .to_vec(),
    );
    for b in case.balls.iter().take(LISTED) {
        let fixed: Vec<&str> = ["x", "y", "z", "rx", "ry", "rz"]
            .iter()
            .enumerate()
            .filter(|(k, _)| b.fixed & (1 << k) != 0)
            .map(|(_, n)| *n)
            .collect();
        s.balls.push(vec![
            b.id.to_string(),
            num(b.radius),
            case.materials[b.material].name.clone(),
            vec_text(&b.pos),
            vec_text(&b.vel),
            fixed.join(" "),
        ]);
    }
    s.balls_not_listed = case.balls.len().saturating_sub(LISTED);
}

/// The walls' table and the drawing of the initial geometry.
fn add_walls(s: &mut Scene, case: &Case) {
    s.walls.push(
        [
            "name",
            "material",
            "facets",
            "vertices",
            "motion",
            "resolution",
            "inactive sides",
        ]
        .map(String::from)
        .to_vec(),
    );
    for w in &case.walls {
        let motion = wall_motion(w);
        s.walls.push(vec![
            w.name.clone(),
            case.materials[w.material].name.clone(),
            w.facets.len().to_string(),
            w.vertices.len().to_string(),
            motion,
            format!("{:?}", w.resolution).to_lowercase(),
            if w.inactive.is_empty() {
                "none".into()
            } else {
                format!("{} facets", w.inactive.len())
            },
        ]);
    }
    let balls: Vec<(u64, crate::math::Vec3, Real)> =
        case.balls.iter().map(|b| (b.id, b.pos, b.radius)).collect();
    let walls: Vec<crate::report::geometry::WallDrawing> = case
        .walls
        .iter()
        .map(|w| (w.name.as_str(), w.vertices.as_slice(), w.facets.as_slice()))
        .collect();
    s.geometry = crate::report::geometry::scene_svg(&balls, &walls);
}

/// How a wall moves, in words.
fn wall_motion(w: &crate::body::WallSpec) -> String {
    use crate::body::Program;
    match (&w.program, &w.motion) {
        (Some(Program::Schedule(entries)), _) => format!(
            "rigid, scheduled about pivot {}: {}",
            vec_text(&w.pivot),
            (entries.iter())
                .map(|e| format!(
                    "from {} s velocity {} m/s, spin {} rad/s",
                    num(e.t),
                    vec_text(&e.vel),
                    vec_text(&e.spin)
                ))
                .collect::<Vec<_>>()
                .join("; ")
        ),
        (
            Some(Program::Oscillate {
                direction,
                amplitude,
                frequency,
                ..
            }),
            _,
        ) => format!(
            "oscillating along {}: amplitude {} m at {} Hz",
            vec_text(direction),
            num(*amplitude),
            num(*frequency)
        ),
        (
            Some(Program::Servo {
                direction, target, ..
            }),
            _,
        ) => format!(
            "servo along {}, holding {}",
            vec_text(direction),
            match target {
                crate::body::ServoTarget::Force(f) => format!("{} N", num(*f)),
                crate::body::ServoTarget::Stress(s) => format!("{} Pa", num(*s)),
            }
        ),
        (None, crate::body::WallMotion::Rigid { vel, spin })
            if *vel == crate::math::Vec3::zeros() && *spin == crate::math::Vec3::zeros() =>
        {
            "fixed".into()
        }
        (None, crate::body::WallMotion::Rigid { vel, spin }) => format!(
            "rigid: pivot velocity {} m/s, spin {} rad/s about {}",
            vec_text(vel),
            vec_text(spin),
            vec_text(&w.pivot)
        ),
        (None, crate::body::WallMotion::Deformable { .. }) => {
            "deformable (one velocity per vertex)".into()
        }
    }
}

/// A rolling resistance in words, for the case page.
fn rolling_text(r: &crate::law::Rolling) -> String {
    use crate::law::Rolling;
    let main = match *r {
        Rolling::Cdt { coefficient, .. } => {
            format!("rolling resistance cdt: μ_r = {coefficient} (couple μ_r R* F_n)")
        }
        Rolling::Epsd {
            coefficient,
            stiffness_factor,
            damping,
            ..
        } => format!(
            "rolling resistance epsd: μ_r = {coefficient}, k_r = {stiffness_factor} μ_r² R*² k_n, \
             dashpot {damping} of critical"
        ),
        Rolling::Pfc {
            coefficient, kr, ..
        } => format!(
            "rolling resistance pfc: μ_r = {coefficient}, k_r = {}",
            kr.map_or("k_s R*²".to_string(), |k| format!("{} N m/rad", num(k)))
        ),
    };
    if r.twisting() > 0.0 {
        format!(
            "{main}; twisting resistance of the same kind: μ_t = {} (limit μ_t R* F_n)",
            r.twisting()
        )
    } else {
        main
    }
}

/// A cohesion in words, for the case page.
fn cohesion_text(c: &crate::law::Cohesion) -> String {
    use crate::law::Cohesion;
    match *c {
        Cohesion::Dmt { surface_energy } => {
            format!(
                "cohesion dmt: γ = {} J/m² (2πγR* while overlapping)",
                num(surface_energy)
            )
        }
        Cohesion::Sjkr { energy_density } => {
            format!(
                "cohesion sjkr: k_c = {} J/m³ (k_c × contact area)",
                num(energy_density)
            )
        }
        Cohesion::Jkr {
            surface_energy,
            e_star,
        } => {
            format!(
                "cohesion jkr: γ = {} J/m², E* = {} Pa (JKR's normal force; the neck holds to −(3/4)(π²γ²R*/E*²)^(1/3), pull-off (3/2)πγR*)",
                num(surface_energy),
                num(e_star)
            )
        }
    }
}
