//! The damped oblique impacts of tests 5, 6 and 8: the runs over each test's range against
//! impulse theory's gross sliding and the rigid-body rolling limit.

use crate::math::Real;
use crate::output::SeriesTable;
use crate::record::{Curve, Plot, Summary};
use crate::report::html::table;
use std::path::Path;

/// The damped oblique impacts of tests 5, 6 and 8 (cases/chung_ooi/make_cases.py): aluminium
/// alloy spheres of R = 0.1 m at 0.2 m/s normal speed, friction 0.4, restitution 0.5 and 0.8.
pub(super) const R: Real = 0.1;
pub(super) const VN: Real = 0.2;
pub(super) const MU: Real = 0.4;
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

/// The runs of one test and the range of its varied parameter, for its plots.
struct Sweep<'a> {
    test: u8,
    points: &'a [Point],
    /// The varied parameter over the runs' range, 201 values: the theory's lines.
    xs: Vec<Real>,
    x_label: &'a str,
}

/// The section of test 5, 6 or 8: two plots over the test's range (tangential velocity and
/// spin after), the runs as points, impulse theory's gross sliding and the rolling limit as
/// lines, and the table of the points.
pub(super) fn sweep_section(reports: &Path, summaries: &[Summary], test: u8) -> String {
    let points = sweep(reports, summaries, test);
    if points.is_empty() {
        return String::new();
    }
    let (what, x_label, intro) = sweep_text(test);
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
    let sweep = Sweep {
        test,
        points: &points,
        xs,
        x_label,
    };
    format!(
        "<h2>{what}</h2><p>{intro}</p>{}{}{}",
        sweep.plot(
            "Tangential velocity after",
            "v_t after, along the slip before (m/s)",
            |p| p.vt,
            1
        ),
        sweep.plot("Spin after", "|ω| after (rad/s)", |p| p.spin, 2),
        sweep_table(test, &points)
    )
}

/// Test `test`'s heading, the label of its varied parameter, and what it shows.
fn sweep_text(test: u8) -> (&'static str, &'static str, &'static str) {
    match test {
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
}
}

impl Sweep<'_> {
    /// A plot of the quantity `y` of the runs against the varied parameter, with impulse
    /// theory's column `k` (gross sliding, for each restitution) and column `k + 2` (rolling).
    fn plot(&self, title: &str, y_label: &str, y: fn(&Point) -> Real, k: usize) -> String {
        crate::report::plot::svg(&Plot {
            title: title.into(),
            x_label: self.x_label.into(),
            y_label: y_label.into(),
            curves: vec![
                self.measured(RESTITUTIONS[0], y),
                self.measured(RESTITUTIONS[1], y),
                self.sliding(RESTITUTIONS[0], k),
                self.sliding(RESTITUTIONS[1], k),
                self.rolling(k + 2),
            ],
            ..Default::default()
        })
    }

    /// The runs of restitution `e`: their quantity `y`.
    fn measured(&self, e: Real, y: fn(&Point) -> Real) -> Curve {
        let pts: Vec<&Point> = self.points.iter().filter(|p| p.e == e).collect();
        Curve {
            label: format!("ballast, e = {e}"),
            x: pts.iter().map(|p| p.x).collect(),
            y: pts.iter().map(|p| y(p)).collect(),
            markers: true,
        }
    }

    /// A line of `f` over [`Sweep::xs`].
    fn line(&self, label: String, f: &dyn Fn(Real) -> Real) -> Curve {
        Curve {
            label,
            x: self.xs.clone(),
            y: self.xs.iter().map(|&x| f(x)).collect(),
            markers: false,
        }
    }

    /// Impulse theory's column `k` in gross sliding at restitution `e`.
    fn sliding(&self, e: Real, k: usize) -> Curve {
        // (only where it slides throughout: its range)
        let threshold = 3.5 * MU * (1.0 + e) * VN;
        let label = format!("impulse theory, gross sliding, e = {e}");
        let test = self.test;
        self.line(label, &move |x| {
            let t = theory(test, x, e);
            if t[0] >= threshold {
                t[k]
            } else {
                Real::NAN
            }
        })
    }

    /// The rigid-body rolling limit, column `k`.
    fn rolling(&self, k: usize) -> Curve {
        let test = self.test;
        self.line(
            "rigid body, the contact point stops slipping (rolling)".into(),
            &move |x| theory(test, x, 0.5)[k],
        )
    }
}

/// The table of the runs of test `test`: each beside impulse theory where it slides
/// throughout.
fn sweep_table(test: u8, points: &[Point]) -> String {
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
    for p in points {
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
    table(&rows)
}
