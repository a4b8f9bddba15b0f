//! The Coulomb cone: test 6 at 21 rad/s run here with the default rule and with the sources'
//! literal one, against impulse theory.

use super::sweep::{MU, R, VN};
use crate::math::Real;
use crate::record::{Curve, Plot};
use crate::report::html::table;
use crate::report::markdown::render;
use std::path::Path;

/// What one run of the cone comparison gives.
struct ConeRun {
    /// The largest |F_t| / (μ F_n) over the cycles of the impact.
    worst: Real,
    /// Tangential velocity after, m/s.
    vt: Real,
    /// Spin after, rad/s.
    spin: Real,
    /// Energy dissipated, J.
    dissipated: Real,
    /// Times of the cycles in contact, s.
    times: Vec<Real>,
    /// |F_t| / (μ F_n) at those times.
    ratios: Vec<Real>,
}

/// One run of the cone comparison: test 6 at 21 rad/s with restitution `e` and the Coulomb
/// rule `rule`.
fn cone_run(e: Real, rule: &str) -> Option<ConeRun> {
    let text = format!(
        r#"name = "cone_{rule}"
[run]
duration = 1.2e-3
margin = 1e-6
[timestep]
mode = "model"
loading_steps = 200
[material.aluminium_alloy]
density = 2699.0
young = 7.0e10
poisson = 0.3
[material.rigid]
density = 1000.0
young = inf
poisson = 0.3
[[contact]]
between = ["aluminium_alloy", "rigid"]
model = "hertz"
friction = {MU}
restitution = {e}
friction_limit = "{rule}"
[[ball]]
pos = [0.0, 0.0, 0.100001]
radius = {R}
material = "aluminium_alloy"
vel = [0.0, 0.0, -{VN}]
spin = [0.0, 21.0, 0.0]
[[wall]]
name = "plane"
material = "rigid"
plane = {{ center = [0.0, 0.0, 0.0], normal = [0.0, 0.0, 1.0], size = [1.0, 1.0] }}
[output]
every = 1
series = ["interaction/1/plane/normal_force", "interaction/1/plane/shear_force", "ball/1/vel", "ball/1/spin", "energy/dissipated"]
"#
    );
    let case = crate::case::parse(&text, Path::new("cone.toml")).ok()?;
    let sim = crate::run::simulate(&case, None, &[], false, None).ok()?;
    let t = &sim.table;
    let (n, s) = (
        t.column("interaction/1/plane/normal_force")?,
        t.column("interaction/1/plane/shear_force")?,
    );
    let (mut times, mut ratios) = (Vec::new(), Vec::new());
    for k in 0..t.t.len() {
        if n[k] > 0.0 {
            times.push(t.t[k]);
            ratios.push(s[k] / (MU * n[k]));
        }
    }
    let worst = ratios.iter().copied().fold(0.0, Real::max);
    let last = |c: &str| t.column(c).and_then(|v| v.last().copied());
    Some(ConeRun {
        worst,
        vt: last("ball/1/vel.x")?,
        spin: last("ball/1/spin.y")?,
        dissipated: last("energy/dissipated")?,
        times,
        ratios,
    })
}

/// The Coulomb cone: test 6 at 21 rad/s (gross sliding throughout) with restitution 0.5 and
/// 0.2, run here with the default rule and with the sources' literal one, against impulse
/// theory.
pub(super) fn cone_section() -> String {
    let mut rows = vec![[
        "restitution",
        "Coulomb rule",
        "largest |F_t| / (μ F_n)",
        "v_t after (m/s)",
        "impulse theory",
        "error",
        "spin after (rad/s)",
        "impulse theory",
        "error",
        "energy dissipated (J)",
    ]
    .map(String::from)
    .to_vec()];
    let mut curves = Vec::new();
    for e in [0.5, 0.2] {
        let (vt, spin) = (MU * (1.0 + e) * VN, 21.0 - 2.5 * MU * (1.0 + e) * VN / R);
        for rule in ["total", "spring"] {
            let Some(ConeRun {
                worst,
                vt: v,
                spin: w,
                dissipated: d,
                times,
                ratios,
            }) = cone_run(e, rule)
            else {
                continue;
            };
            rows.push(vec![
                format!("{e}"),
                if rule == "total" {
                    "total (default): spring + dashpot ≤ μ|F_n|".into()
                } else {
                    "spring (PFC, LIGGGHTS): the spring alone ≤ μ F_n, dashpot added while it sticks".into()
                },
                format!("{worst:.4}"),
                format!("{v:.6}"),
                format!("{vt:.6}"),
                format!("{:+.2} %", 100.0 * (v - vt) / vt),
                format!("{w:.4}"),
                format!("{spin:.4}"),
                format!("{:+.2} %", 100.0 * (w - spin) / spin),
                format!("{d:.6}"),
            ]);
            if e == 0.5 {
                curves.push(Curve {
                    label: format!("e = 0.5, friction_limit = \"{rule}\""),
                    x: times,
                    y: ratios,
                    markers: false,
                });
            }
        }
    }
    let plot = crate::report::plot::svg(&Plot {
        title:
            "Tangential force over the Coulomb limit during the impact (test 6, 21 rad/s, e = 0.5)"
                .into(),
        x_label: "t (s)".into(),
        y_label: "|F_t| / (μ F_n)".into(),
        curves,
        ..Default::default()
    });
    render(
        include_str!("../text/chung_ooi_cone.md"),
        &[("v1", table(&rows)), ("v2", plot.to_string())],
    )
}
