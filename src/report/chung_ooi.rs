//! The report's Chung & Ooi (2011) page: the impact benchmarks (tests 1-6 and 8) against their
//! closed forms, the damped oblique impacts over their whole range, and the Coulomb cone of
//! the tangential force, the default rule beside the sources' literal one.

use super::code::code_link;
use super::html::{link_cases, page, table};
use super::markdown::render;
use crate::math::Real;
use crate::output::SeriesTable;
use crate::record::{Curve, Plot, Summary};
use std::fmt::Write as _;
use std::path::Path;

/// Writes `reports/chung_ooi.html`: the Chung & Ooi (2011) benchmarks, measured against the
/// analytic values with their errors, read from the case summaries (and, for the oblique
/// impacts, from the recorded series), and the cone comparison, run here.
///
/// # Errors
/// I/O errors.
pub fn write_chung_ooi_page(reports: &Path, summaries: &[Summary]) -> std::io::Result<()> {
    let mut h = String::new();
    h.push_str(&render(
        include_str!("text/chung_ooi_intro.md"),
        &[
            (
                "law_hertz_rs",
                code_link(reports, "src/law/hertz.rs::Hertz::force"),
            ),
            (
                "law_restitution_rs",
                code_link(reports, "src/law/restitution.rs::damping_for"),
            ),
            (
                "contact_frame_rs",
                code_link(reports, "src/contact/frame.rs::Frame::advance"),
            ),
            (
                "check_collision_rs",
                code_link(reports, "src/check/collision.rs::evaluate"),
            ),
        ],
    ));
    let quantity = |k: &str| match k {
        "max_overlap" => "largest overlap (m)",
        "max_force" => "largest normal force (N)",
        "contact_duration" => "contact duration (s)",
        "restitution" => "normal restitution",
        "tangential_restitution" => "tangential restitution e_t",
        "rebound_spin" => "rebound spin |ω′| (rad/s)",
        "tangential_velocity" => "tangential velocity after, along the slip (m/s)",
        _ => "",
    };
    let mut rows = vec![[
        "case",
        "quantity",
        "measured",
        "analytic",
        "relative error",
        "tolerance",
        "verdict",
    ]
    .map(String::from)
    .to_vec()];
    let mut worst: Real = 0.0;
    for s in summaries
        .iter()
        .filter(|s| s.case.starts_with("chung_ooi_"))
    {
        for c in s.checks.iter().filter(|c| !quantity(&c.kind).is_empty()) {
            let (Some(v), Some(e)) = (c.value, c.expected) else {
                rows.push(vec![
                    s.case.clone(),
                    quantity(&c.kind).into(),
                    "-".into(),
                    "-".into(),
                    "-".into(),
                    "-".into(),
                    "FAIL".into(),
                ]);
                continue;
            };
            let err = (v - e).abs() / e.abs();
            worst = worst.max(err);
            rows.push(vec![
                s.case.clone(),
                quantity(&c.kind).into(),
                format!("{v:.7e}"),
                format!("{e:.7e}"),
                format!("{err:.2e}"),
                c.tolerance.map_or("-".into(), |t| format!("{t:e}")),
                if c.passed { "pass" } else { "FAIL" }.into(),
            ]);
        }
    }
    let _ = write!(
        h,
        "<h2>Measured against analytic</h2><p>Largest relative error over the table: {worst:.2e}.</p>{}",
        link_cases(&table(&rows), summaries)
    );
    // Test 4 over every angle, from the series (incoming velocity from the case name's angle).
    let mut t4 = vec![[
        "angle (°)",
        "gross sliding",
        "e_t measured",
        "e_t impulse theory",
        "ω′ measured (rad/s)",
        "ω′ impulse theory",
    ]
    .map(String::from)
    .to_vec()];
    let (mu, e, r, v) = (0.092, 1.0, 0.0025, 3.9);
    // measured (angle, e_t, ω′) for the plots
    let mut measured: Vec<(Real, Real, Real)> = Vec::new();
    for s in summaries
        .iter()
        .filter(|s| s.case.starts_with("chung_ooi_test4_angle"))
    {
        let Ok(angle) = s
            .case
            .trim_start_matches("chung_ooi_test4_angle")
            .parse::<Real>()
        else {
            continue;
        };
        let Ok(series) = crate::output::SeriesTable::read_csv(
            &reports.join("cases").join(&s.case).join("series.csv"),
        ) else {
            continue;
        };
        let last = |c: &str| series.column(c).and_then(|x| x.last().copied());
        let (Some(vx), Some(wy)) = (last("ball/1/vel.x"), last("ball/1/spin.y")) else {
            continue;
        };
        let th = angle.to_radians();
        let (vt, vn) = (v * th.sin(), v * th.cos());
        let sliding = th.tan() >= 3.5 * mu * (1.0 + e);
        measured.push((angle, vx / vt, wy.abs()));
        t4.push(vec![
            format!("{angle}"),
            if sliding { "yes" } else { "no" }.into(),
            format!("{:.5}", vx / vt),
            if sliding {
                format!("{:.5}", 1.0 - mu * (1.0 + e) * vn / vt)
            } else {
                "-".into()
            },
            format!("{:.3}", wy.abs()),
            if sliding {
                format!("{:.3}", 2.5 * mu * (1.0 + e) * vn / r)
            } else {
                "-".into()
            },
        ]);
    }
    let _ = write!(
        h,
        "<h2>Test 4: oblique impacts at 5° to 85°</h2><p>Aluminium oxide sphere, R = 2.5 mm, |v| = 3.9 m/s, μ = 0.092, elastic. \
         Below 33° (tan θ &lt; 3.5 μ(1+e) = 0.644) the contact sticks during part of the impact and the tangential compliance \
         of Mindlin's stiffness decides the outcome; rigid-body theory gives no reference there (the paper compares codes with \
         Maw et al.'s theory), so those rows are shown, not judged.</p>{}",
        table(&t4)
    );
    h.push_str(&test4_plots(&measured, mu, e, r, v));
    for test in [5, 6, 8] {
        h.push_str(&sweep_section(reports, summaries, test));
    }
    h.push_str(&cone_section());
    // The popular closed-form damping against the requested restitution.
    let mut lg = vec![[
        "requested e",
        "a = −2√(5/6) ln e/√(ln²e + π²)",
        "e it produces (clamped)",
        "e it produces (not clamped)",
        "ballast's a (clamped)",
    ]
    .map(String::from)
    .to_vec()];
    for e in [0.2, 0.4, 0.6, 0.8, 0.95] {
        use crate::law::restitution::{damping_for, restitution, Shape};
        let ln = (e as Real).ln();
        let a = -2.0 * (5.0 as Real / 6.0).sqrt() * ln
            / (ln * ln + crate::math::PI * crate::math::PI).sqrt();
        lg.push(vec![
            format!("{e}"),
            format!("{a:.6}"),
            format!("{:.5}", restitution(Shape::Hertz, a, true)),
            format!("{:.5}", restitution(Shape::Hertz, a, false)),
            format!("{:.6}", damping_for(Shape::Hertz, e, true)),
        ]);
    }
    let _ = write!(
        h,
        "<h2>Why the damping is calibrated</h2><p>The Hertz dashpot −a √(m* S_n) v_n with the closed-form a used by several codes \
         reproduces the requested restitution when the normal force may pull at the end of the contact (not clamped), but not when \
         it is clamped at zero, as DEM codes usually do: the restitution then comes out larger. ballast solves the dimensionless impact \
         x″ = −x^(3/2) − a√(3/2) x^(1/4) x′ for either case (test 3 above reproduces e to within 0.5 %).</p>{}",
        table(&lg)
    );
    std::fs::write(
        reports.join("chung_ooi.html"),
        page("Chung & Ooi (2011) benchmarks", &h),
    )
}

/// The damped oblique impacts of tests 5, 6 and 8 (cases/chung_ooi/make_cases.py): aluminium
/// alloy spheres of R = 0.1 m at 0.2 m/s normal speed, friction 0.4, restitution 0.5 and 0.8.
const R: Real = 0.1;
const VN: Real = 0.2;
const MU: Real = 0.4;
const RESTITUTIONS: [Real; 2] = [0.5, 0.8];

/// One damped impact of a sweep: restitution, the varied parameter, the tangential velocity
/// after along the initial slip direction, the spin after, whether it slides throughout.
struct Point {
    e: Real,
    x: Real,
    vt: Real,
    spin: Real,
}

/// What a test varies, and its closed forms: `(slip speed, sliding v_t after, sliding spin
/// after, rolling v_t after, rolling spin after)` as functions of the varied parameter `x`
/// and the restitution `e` (module documentation of src/check/collision.rs, `impulse_theory`).
fn theory(test: u8, x: Real, e: Real) -> [Real; 5] {
    let dv = MU * (1.0 + e) * VN;
    match test {
        // tangential velocity x, no spin, on a plane: the rolling limit keeps (5/7) of it
        5 => [x, x - dv, 2.5 * dv / R, 5.0 / 7.0 * x, 5.0 / 7.0 * x / R],
        // spin x, no tangential velocity, on a plane: the slip is R x; rolling: (2/7) R x
        6 => [
            R * x,
            -dv,
            (x - 2.5 * dv / R).abs(),
            -2.0 / 7.0 * R * x,
            2.0 / 7.0 * x,
        ],
        // relative tangential velocity x of two equal free spheres: half the spin change
        _ => [x, x - dv, 1.25 * dv / R, 5.0 / 7.0 * x, 5.0 / 14.0 * x / R],
    }
}

/// The impacts of test `test` found on disk, from the cases' recorded series.
fn sweep(reports: &Path, summaries: &[Summary], test: u8) -> Vec<Point> {
    let prefix = format!("chung_ooi_test{test}_e");
    let mut out = Vec::new();
    for s in summaries.iter().filter(|s| s.case.starts_with(&prefix)) {
        // chung_ooi_test5_e05_vt0p45: restitution 0.5, varied value 0.45
        let rest = &s.case[prefix.len()..];
        let Some((e, x)) = rest.split_once('_') else {
            continue;
        };
        let x = x
            .trim_start_matches(|c: char| c.is_ascii_alphabetic())
            .replace('p', ".");
        let (Ok(e), Ok(x)) = (e.parse::<Real>(), x.parse::<Real>()) else {
            continue;
        };
        let Ok(t) = SeriesTable::read_csv(&reports.join("cases").join(&s.case).join("series.csv"))
        else {
            continue;
        };
        let last = |c: &str| t.column(c).and_then(|v| v.last().copied());
        // the tangential velocity after along the initial slip direction (+x for test 5, -x
        // for test 6 and for ball 2 of test 8), the spin of the moving ball
        let (vt, spin) = match test {
            5 => (last("ball/1/vel.x"), last("ball/1/spin.y")),
            6 => (last("ball/1/vel.x").map(|v| -v), last("ball/1/spin.y")),
            _ => (
                last("ball/2/vel.x")
                    .zip(last("ball/1/vel.x"))
                    .map(|(b, a)| a - b),
                last("ball/2/spin.y"),
            ),
        };
        let (Some(vt), Some(spin)) = (vt, spin) else {
            continue;
        };
        out.push(Point {
            e: e / 10.0,
            x,
            vt,
            spin: spin.abs(),
        });
    }
    out.sort_by(|a, b| {
        (a.e, a.x)
            .partial_cmp(&(b.e, b.x))
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    out
}

/// The section of test 5, 6 or 8: two plots over the test's range (tangential velocity and
/// spin after), the runs as points, impulse theory's gross sliding and the rolling limit as
/// lines, and the table of the points.
fn sweep_section(reports: &Path, summaries: &[Summary], test: u8) -> String {
    let points = sweep(reports, summaries, test);
    if points.is_empty() {
        return String::new();
    }
    let (what, x_label, intro) = match test {
        5 => (
            "Test 5 with damping: a sphere hits a plane with a tangential velocity",
            "tangential velocity before v_t (m/s)",
            "An aluminium alloy sphere (R = 0.1 m) hits a rigid plane at v_n = 0.2 m/s with a tangential velocity v_t and no spin; \
             μ = 0.4, Hertz-Mindlin with restitution 0.5 and 0.8 (the shear dashpot in parallel with the shear spring, both \
             held within the Coulomb limit). Where the contact point slips throughout (slip speed at least (7/2) μ (1+e) v_n), \
             rigid-body impulse theory gives the tangential velocity and the spin after: v_t drops by μ(1+e) v_n and the spin \
             grows by 5μ(1+e) v_n/(2R), judged in each case to 1e-3. Below that the contact sticks for part of the impact and \
             the tangential compliance decides: those points are shown beside the rigid-body rolling limit, not judged.",
        ),
        6 => (
            "Test 6 with damping: a spinning sphere hits a plane",
            "spin before ω₀ (rad/s)",
            "The same sphere and plane, no tangential velocity, spinning at ω₀ about a horizontal axis: the contact point slips \
             at R ω₀, so gross sliding needs ω₀ ≥ (7/2) μ (1+e) v_n / R (4.2 rad/s at e = 0.5, 5.04 at e = 0.8). There the \
             sphere leaves with v_t = μ(1+e) v_n against the slip and the spin drops by 5μ(1+e) v_n/(2R), judged to 1e-3.",
        ),
        _ => (
            "Test 8 with damping: two equal free spheres meet with a relative tangential velocity",
            "relative tangential velocity before v_t (m/s)",
            "Two free, equal aluminium alloy spheres meet at a relative normal velocity 0.2 m/s and a relative tangential \
             velocity v_t. Both masses and both inertias share the impulse, so the gross-sliding threshold on the slip speed is \
             the plane's, (7/2) μ (1+e) v_n; in gross sliding the relative tangential velocity drops by μ(1+e) v_n as on the \
             plane and each sphere's spin changes by 5μ(1+e) v_n/(4R), half as much. The tolerance \
             is wider, said in each case: the line of centres turns by up to v_t t_c/(2R) while the spheres slide past each \
             other (0.084 of the answer at v_t = 2 m/s), which rigid-body theory at a fixed normal does not see.",
        ),
    };
    let xs: Vec<Real> = {
        let (lo, hi) = points
            .iter()
            .fold((Real::INFINITY, 0.0 as Real), |(l, h), p| {
                (l.min(p.x), h.max(p.x))
            });
        (0..=200)
            .map(|k| lo + (hi - lo) * k as Real / 200.0)
            .collect()
    };
    let measured = |e: Real, y: fn(&Point) -> Real| {
        let pts: Vec<&Point> = points.iter().filter(|p| p.e == e).collect();
        Curve {
            label: format!("ballast, e = {e}"),
            x: pts.iter().map(|p| p.x).collect(),
            y: pts.iter().map(|p| y(p)).collect(),
            markers: true,
        }
    };
    let line = |label: String, f: &dyn Fn(Real) -> Real| Curve {
        label,
        x: xs.clone(),
        y: xs.iter().map(|&x| f(x)).collect(),
        markers: false,
    };
    let sliding = |e: Real, k: usize| {
        // (only where it slides throughout: its range)
        let threshold = 3.5 * MU * (1.0 + e) * VN;
        let label = format!("impulse theory, gross sliding, e = {e}");
        line(label, &move |x| {
            let t = theory(test, x, e);
            if t[0] >= threshold {
                t[k]
            } else {
                Real::NAN
            }
        })
    };
    let rolling = |k: usize| {
        line(
            "rigid body, the contact point stops slipping (rolling)".into(),
            &move |x| theory(test, x, 0.5)[k],
        )
    };
    let plot = |title: &str, y_label: &str, y: fn(&Point) -> Real, k: usize| {
        super::plot::svg(&Plot {
            title: title.into(),
            x_label: x_label.into(),
            y_label: y_label.into(),
            curves: vec![
                measured(RESTITUTIONS[0], y),
                measured(RESTITUTIONS[1], y),
                sliding(RESTITUTIONS[0], k),
                sliding(RESTITUTIONS[1], k),
                rolling(k + 2),
            ],
            ..Default::default()
        })
    };
    let mut rows = vec![[
        "e",
        "before",
        "slides throughout",
        "v_t after (m/s)",
        "impulse theory",
        "spin after (rad/s)",
        "impulse theory",
    ]
    .map(String::from)
    .to_vec()];
    for p in &points {
        let t = theory(test, p.x, p.e);
        let slides = t[0] >= 3.5 * MU * (1.0 + p.e) * VN;
        let or_dash = |v: Real| {
            if slides {
                format!("{v:.6}")
            } else {
                "-".into()
            }
        };
        rows.push(vec![
            format!("{}", p.e),
            format!("{}", p.x),
            if slides { "yes" } else { "no" }.into(),
            format!("{:.6}", p.vt),
            or_dash(t[1]),
            format!("{:.5}", p.spin),
            or_dash(t[2]),
        ]);
    }
    format!(
        "<h2>{what}</h2><p>{intro}</p>{}{}{}",
        plot(
            "Tangential velocity after",
            "v_t after, along the slip before (m/s)",
            |p| p.vt,
            1
        ),
        plot("Spin after", "|ω| after (rad/s)", |p| p.spin, 2),
        table(&rows)
    )
}

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
fn cone_section() -> String {
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
    let plot = super::plot::svg(&Plot {
        title:
            "Tangential force over the Coulomb limit during the impact (test 6, 21 rad/s, e = 0.5)"
                .into(),
        x_label: "t (s)".into(),
        y_label: "|F_t| / (μ F_n)".into(),
        curves,
        ..Default::default()
    });
    render(
        include_str!("text/chung_ooi_cone.md"),
        &[("v1", table(&rows)), ("v2", plot.to_string())],
    )
}

/// Test 4's tangential restitution and rebound spin against the incidence angle: the runs
/// (markers) and rigid-body impulse theory where the contact slides throughout (lines, from
/// tan θ = 3.5 μ (1 + e) on): e_t = 1 − μ(1+e) v_n/v_t, ω′ = (5/2) μ (1+e) v_n/R.
fn test4_plots(measured: &[(Real, Real, Real)], mu: Real, e: Real, r: Real, v: Real) -> String {
    if measured.is_empty() {
        return String::new();
    }
    let start = (3.5 * mu * (1.0 + e)).atan().to_degrees();
    let angles: Vec<Real> = (0..=100)
        .map(|k| start + (89.0 - start) * k as Real / 100.0)
        .collect();
    let split = |a: Real| (v * a.to_radians().sin(), v * a.to_radians().cos());
    let theory_et: Vec<Real> = angles
        .iter()
        .map(|&a| {
            let (vt, vn) = split(a);
            1.0 - mu * (1.0 + e) * vn / vt
        })
        .collect();
    let theory_w: Vec<Real> = angles
        .iter()
        .map(|&a| 2.5 * mu * (1.0 + e) * split(a).1 / r)
        .collect();
    let xs: Vec<Real> = measured.iter().map(|m| m.0).collect();
    let plot = |title: &str, y_label: &str, run: Vec<Real>, theory: Vec<Real>| {
        super::plot::svg(&Plot {
            title: title.into(),
            x_label: "incidence angle θ (°)".into(),
            y_label: y_label.into(),
            curves: vec![
                Curve {
                    label: "ballast (hertz)".into(),
                    x: xs.clone(),
                    y: run,
                    markers: true,
                },
                Curve {
                    label: "impulse theory, sliding throughout (tan θ ≥ 3.5 μ(1+e))".into(),
                    x: angles.clone(),
                    y: theory,
                    markers: false,
                },
            ],
            ..Default::default()
        })
    };
    format!(
        "<figure>{}{}<figcaption>Below {start:.1}° the contact sticks for part of the impact: no rigid-body reference \
         (the table's rows without theory).</figcaption></figure>",
        plot(
            "Test 4: tangential restitution",
            "e_t = v_t′/v_t (-)",
            measured.iter().map(|m| m.1).collect(),
            theory_et
        ),
        plot(
            "Test 4: rebound spin",
            "|ω′| (rad/s)",
            measured.iter().map(|m| m.2).collect(),
            theory_w
        )
    )
}
