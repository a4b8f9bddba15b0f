//! `mu_of_i`: the friction law of a dense granular flow, `mu(I) = mu_s + (mu_2 - mu_s) / (I_0 /
//! I + 1)` (GDR MiDi 2004; Jop, Forterre & Pouliquen 2006), fitted to a set of cases that shear
//! the same packing in a periodic cell at several inertial numbers, and the dilatancy `phi(I) =
//! phi_c - a I` (da Cruz et al. 2005), each fitted constant judged against the published range
//! the case gives. In 2D (disks: flow x, gradient y, no `domain/stress.zz` recorded) `sigma_xy`
//! and `sigma_yy` take the places of `sigma_xz` and `sigma_zz`, and da Cruz et al.'s straight
//! line `mu(I) = mu_min + b I` may be fitted and judged beside the law above.
//!
//! For each case (this one and its `points`), over the records after the strain `from_strain`:
//! the stress ratio `mu = -sigma_xz / sigma_zz` (flow x, gradient z: the shear stress opposes the
//! flow, so `sigma_xz` is negative in the compression-positive convention), the pressure `p =
//! sigma_zz`, the solid fraction, and the inertial number `I = gamma_dot d sqrt(rho / p)` with
//! `gamma_dot` the slope of `domain/strain` in time, `d` the mean diameter and `rho` the mean
//! density of this case's balls (the points share the packing). Each mean's error bar is the
//! standard error of the means of 8 consecutive blocks of records.
//!
//! The fit: for each `I_0` of a logarithmic grid (then refined by golden sections), `mu_s` and
//! `mu_2` by linear least squares; the `I_0` of the smallest sum of squares wins.

use super::context::Context;
use super::keys::read;
use super::kind::CheckKind;
use super::probe::Probe;
use crate::math::{num, Real};
use crate::output::SeriesTable;
use crate::record::{CheckOutcome, Curve, Plot, Tolerance};
use serde::Deserialize;

/// `mu_of_i`: the fitted `mu(I)` and `phi(I)` of this case and its `points` against the
/// published ranges.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct MuOfI {
    /// The other cases of the sweep, relative to this one.
    points: Vec<String>,
    /// The records from this shear strain on are averaged (default 1).
    from_strain: Option<Real>,
    /// The accepted range of the fitted `mu_s`, `[low, high]` (this or `mu_min` is required).
    mu_s: Option<[Real; 2]>,
    /// The accepted range of the fitted `mu_2` (optional).
    mu_2: Option<[Real; 2]>,
    /// The accepted range of the fitted `I_0` (optional).
    i_0: Option<[Real; 2]>,
    /// The accepted range of the fitted `phi_c` (optional).
    phi_c: Option<[Real; 2]>,
    /// The dilatancy line is fitted to the points of I up to this (default 0.3).
    phi_up_to: Option<Real>,
    /// The accepted range of the slope `a` of the dilatancy line (optional).
    a: Option<[Real; 2]>,
    /// The accepted range of `mu_min` of the straight line `mu = mu_min + b I` (optional).
    mu_min: Option<[Real; 2]>,
    /// The accepted range of its slope `b` (optional).
    b: Option<[Real; 2]>,
    /// The straight line is fitted to the points of I up to this (default `phi_up_to`).
    linear_up_to: Option<Real>,
    /// Published laws drawn beside the fit.
    #[serde(default)]
    published: Vec<Published>,
    /// Where the ranges come from.
    formula: Option<String>,
}

/// A published `mu(I)` drawn beside the fit: the law (`mu_s`, `mu_2`, `i_0`) or a straight line
/// (`mu_min`, `b`), and optionally a dilatancy line (`phi_c`, `a`).
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
struct Published {
    /// Who, where.
    label: String,
    mu_s: Option<Real>,
    mu_2: Option<Real>,
    i_0: Option<Real>,
    mu_min: Option<Real>,
    b: Option<Real>,
    phi_c: Option<Real>,
    a: Option<Real>,
}

impl Published {
    /// The law's constants, when given.
    fn law(&self) -> Option<(Real, Real, Real)> {
        Some((self.mu_s?, self.mu_2?, self.i_0?))
    }

    /// The straight line's `(mu_min, b)`, when given.
    fn line(&self) -> Option<(Real, Real)> {
        Some((self.mu_min?, self.b?))
    }

    /// The dilatancy line's `(phi_c, a)`, when given.
    fn dilatancy(&self) -> Option<(Real, Real)> {
        Some((self.phi_c?, self.a?))
    }
}

/// One point of the sweep: means and their standard errors.
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    /// The case's name (its file).
    pub name: String,
    /// Inertial number.
    pub i: Real,
    /// Stress ratio and its standard error.
    pub mu: (Real, Real),
    /// Solid fraction and its standard error.
    pub phi: (Real, Real),
    /// Pressure (sigma_zz), Pa, and its standard error.
    pub p: (Real, Real),
}

/// The columns each case must record.
const COLUMNS: [&str; 4] = [
    "domain/stress.xz",
    "domain/stress.zz",
    "domain/solid_fraction",
    "domain/strain",
];

/// The columns of a 2D case (flow x, gradient y).
const COLUMNS_2D: [&str; 4] = [
    "domain/stress.xy",
    "domain/stress.yy",
    "domain/solid_fraction",
    "domain/strain",
];

impl CheckKind for MuOfI {
    fn parse(_: &str, keys: toml::Value) -> Result<Self, String> {
        let m: MuOfI = read(keys)?;
        for (what, r) in [("mu_s", m.mu_s), ("mu_2", m.mu_2)]
            .into_iter()
            .chain([("i_0", m.i_0), ("phi_c", m.phi_c)])
            .chain([("a", m.a), ("mu_min", m.mu_min), ("b", m.b)])
        {
            if let Some([lo, hi]) = r {
                if !(lo.is_finite() && hi.is_finite() && 0.0 <= lo && lo < hi) {
                    return Err(format!(
                        "{what} = [{lo}, {hi}]: must be [low, high], finite, 0 <= low < high"
                    ));
                }
            }
        }
        if m.mu_s.is_none() && m.mu_min.is_none() {
            return Err(
                "give mu_s (the law's) or mu_min (the straight line's) accepted range".into(),
            );
        }
        for p in &m.published {
            let law = [p.mu_s, p.mu_2, p.i_0].map(|x| x.is_some());
            let line = [p.mu_min, p.b].map(|x| x.is_some());
            let phi = [p.phi_c, p.a].map(|x| x.is_some());
            let whole = |g: &[bool]| g.iter().all(|&x| x) || !g.iter().any(|&x| x);
            if !(whole(&law) && whole(&line) && whole(&phi)) || !(law[0] || line[0]) {
                return Err(format!(
                    "published \"{}\": give mu_s, mu_2 and i_0, or mu_min and b (and phi_c with a, or neither)",
                    p.label
                ));
            }
        }
        if m.points.len() < 2 {
            return Err(
                "points: give at least two other cases (three parameters are fitted)".into(),
            );
        }
        if let Some(s) = m.from_strain {
            super::keys::nonneg("from_strain", s)?;
        }
        if let Some(s) = m.phi_up_to {
            super::keys::positive([("phi_up_to", s)])?;
        }
        if let Some(s) = m.linear_up_to {
            super::keys::positive([("linear_up_to", s)])?;
        }
        Ok(m)
    }

    fn kind(&self) -> &'static str {
        "mu_of_i"
    }

    fn other_cases(&self) -> Vec<(&'static str, &str)> {
        self.points.iter().map(|p| ("points", p.as_str())).collect()
    }

    fn evaluate(&self, ctx: &Context, _: Option<&Probe>, out: &mut CheckOutcome) {
        out.code.push("src/output/domain.rs::cell_stress".into());
        out.code.push("src/geom/cell.rs::servo".into());
        out.code.push("src/check/mu_law.rs::fit".into());
        judge(ctx, self, out);
    }
}

/// The mean diameter and mean density of the case's balls.
fn grains(ctx: &Context) -> (Real, Real) {
    let balls = ctx.case.balls();
    let n = balls.len().max(1) as Real;
    let d = balls.iter().map(|b| 2.0 * b.radius).sum::<Real>() / n;
    let mats = ctx.case.materials();
    let rho = balls
        .iter()
        .map(|b| mats.get(b.material).map_or(0.0, |m| m.density))
        .sum::<Real>()
        / n;
    (d, rho)
}

/// One point from a case's records (`columns`: [`COLUMNS`] or, in 2D, [`COLUMNS_2D`]).
///
/// # Errors
/// A column missing, or no records after `from`.
pub fn point(
    name: &str,
    t: &SeriesTable,
    columns: &[&str; 4],
    from: Real,
    (d, rho): (Real, Real),
) -> Result<Point, String> {
    let col = |c: &str| {
        t.column(c)
            .ok_or(format!("{name}: series {c} was not recorded"))
    };
    let (xz, zz, phi, strain) = (
        col(columns[0])?,
        col(columns[1])?,
        col(columns[2])?,
        col(columns[3])?,
    );
    let keep: Vec<usize> = (0..t.t.len()).filter(|&k| strain[k] >= from).collect();
    if keep.len() < 16 {
        return Err(format!(
            "{name}: {} records after the strain {from}: at least 16 are averaged",
            keep.len()
        ));
    }
    let (a, b) = (keep[0], keep[keep.len() - 1]);
    let rate = (strain[b] - strain[a]) / (t.t[b] - t.t[a]);
    let mu: Vec<Real> = keep.iter().map(|&k| -xz[k] / zz[k]).collect();
    let p: Vec<Real> = keep.iter().map(|&k| zz[k]).collect();
    let f: Vec<Real> = keep.iter().map(|&k| phi[k]).collect();
    let p = mean_and_error(&p);
    Ok(Point {
        name: name.into(),
        i: rate * d * (rho / p.0).sqrt(),
        mu: mean_and_error(&mu),
        phi: mean_and_error(&f),
        p,
    })
}

pub use super::mu_law::{dilatancy, fit, law, mean_and_error};

/// The fitted constants of a sweep.
struct Fitted {
    /// `(mu_s, mu_2, I_0)`.
    law: (Real, Real, Real),
    /// `(phi_c, a)`.
    dilatancy: (Real, Real),
    /// `(mu_min, b)` and the I up to which it is fitted, when asked for.
    line: Option<((Real, Real), Real)>,
    /// 2D: the stresses are `sigma_xy`, `sigma_yy`.
    planar: bool,
}

/// Evaluates a `mu_of_i` check.
fn judge(ctx: &Context, m: &MuOfI, out: &mut CheckOutcome) {
    let from = m.from_strain.unwrap_or(1.0);
    let planar = ctx.series.column("domain/stress.zz").is_none();
    let columns = if planar { &COLUMNS_2D } else { &COLUMNS };
    let up_to = m.phi_up_to.unwrap_or(0.3);
    let linear_up_to = m.linear_up_to.unwrap_or(up_to);
    out.what = match m.mu_s {
        Some(_) => format!(
            "mu_s of mu(I) fitted to this case and {} others (records after the strain {from})",
            m.points.len()
        ),
        None => format!(
            "mu_min of the line mu(I) = mu_min + b I fitted to this case and {} others, I <= {linear_up_to} (records after the strain {from})",
            m.points.len()
        ),
    };
    if ctx.depth >= 2 {
        return out.fail("mu_of_i cases refer to each other too deeply".into());
    }
    let grains = grains(ctx);
    let mut points = Vec::new();
    for p in &m.points {
        let path = ctx.case.dir().join(p);
        let r = ctx
            .case
            .series_of(&path, columns)
            .and_then(|t| point(p, &t, columns, from, grains));
        match r {
            Ok(x) => points.push(x),
            Err(e) => return out.fail(e),
        }
    }
    match point(ctx.case.name(), ctx.series, columns, from, grains) {
        Ok(x) => points.push(x),
        Err(e) => return out.fail(e),
    }
    points.sort_by(|a, b| a.i.total_cmp(&b.i));
    let (mu_s, mu_2, i_0) = fit(&points.iter().map(|p| (p.i, p.mu.0)).collect::<Vec<_>>());
    let below = |limit: Real, f: fn(&Point) -> Real| -> Vec<(Real, Real)> {
        (points.iter())
            .filter(|p| p.i <= limit)
            .map(|p| (p.i, f(p)))
            .collect()
    };
    let dense = below(up_to, |p| p.phi.0);
    if dense.len() < 2 {
        return out.fail(format!(
            "{} points of I <= {up_to}: the dilatancy line needs two",
            dense.len()
        ));
    }
    let (phi_c, a) = dilatancy(&dense);
    let wants_line = m.mu_min.is_some() || m.b.is_some();
    let line = if wants_line || m.published.iter().any(|p| p.line().is_some()) {
        let slow = below(linear_up_to, |p| p.mu.0);
        if slow.len() < 2 {
            return out.fail(format!(
                "{} points of I <= {linear_up_to}: the line mu_min + b I needs two",
                slow.len()
            ));
        }
        let (mu_min, b, _) = super::bagnold::fit(&slow, |i| i);
        Some((mu_min, b))
    } else {
        None
    };
    // the judged constant: mu_s, or without its range mu_min (parse requires one of them)
    let (first, value, range) = match (m.mu_s, m.mu_min, line) {
        (Some(r), _, _) => ("mu_s", mu_s, r),
        (None, Some(r), Some((mu_min, _))) => ("mu_min", mu_min, r),
        _ => return out.fail("give mu_s or mu_min".into()),
    };
    out.judge(
        value,
        0.5 * (range[0] + range[1]),
        Tolerance::Absolute(0.5 * (range[1] - range[0])),
    );
    let inside = |v: Real, r: [Real; 2]| v >= r[0] && v <= r[1];
    let mut outside = Vec::new();
    let (mu_min, b) = line.unwrap_or((Real::NAN, Real::NAN));
    let others = [
        ("mu_2", mu_2, m.mu_2),
        ("I_0", i_0, m.i_0),
        ("phi_c", phi_c, m.phi_c),
        ("mu_min", mu_min, m.mu_min.filter(|_| first != "mu_min")),
        ("b", b, m.b),
        ("a", a, m.a),
    ];
    for (what, v, r) in others {
        if let Some(r) = r.filter(|&r| !inside(v, r)) {
            outside.push(format!("{what} = {} not in [{}, {}]", num(v), r[0], r[1]));
        }
    }
    if !out.passed {
        outside.insert(
            0,
            format!(
                "{first} = {} not in [{}, {}]",
                num(value),
                range[0],
                range[1]
            ),
        );
    }
    if !outside.is_empty() {
        out.passed = false;
        out.message = format!(
            "the fit lies outside the published ranges: {}",
            outside.join("; ")
        );
    }
    let line_text = line.map_or(String::new(), |(mu_min, b)| {
        format!(
            "; mu(I) = mu_min + b I fitted to the points of I <= {linear_up_to}: mu_min = {}, b = {}",
            num(mu_min),
            num(b)
        )
    });
    let accepted: Vec<String> = [
        ("mu_s", m.mu_s),
        ("mu_min", m.mu_min),
        ("b", m.b),
        ("mu_2", m.mu_2),
        ("I_0", m.i_0),
        ("phi_c", m.phi_c),
        ("a", m.a),
    ]
    .into_iter()
    .filter_map(|(name, r)| r.map(|r| format!("{name} in [{}, {}]", r[0], r[1])))
    .collect();
    out.formula = format!(
        "mu(I) = mu_s + (mu_2 - mu_s) / (I_0 / I + 1) fitted by least squares: mu_s = {}, mu_2 = {}, I_0 = {}; phi(I) = phi_c - a I fitted to the points of I <= {up_to}: phi_c = {}, a = {}{line_text}. Accepted: {}. {}",
        num(mu_s), num(mu_2), num(i_0), num(phi_c), num(a),
        accepted.join(", "),
        m.formula.clone().unwrap_or_default(),
    );
    out.constants = [
        ("mu_s", mu_s),
        ("mu_2", mu_2),
        ("I_0", i_0),
        ("phi_c", phi_c),
        ("a", a),
    ]
    .into_iter()
    .chain(
        line.into_iter()
            .flat_map(|(m, b)| [("mu_min", m), ("b", b)]),
    )
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    tabulate(&points, planar, out);
    let fitted = Fitted {
        law: (mu_s, mu_2, i_0),
        dilatancy: (phi_c, a),
        line: line.map(|l| (l, linear_up_to)),
        planar,
    };
    plot(&points, m, &fitted, out);
}

/// Each point's means with their error bars.
fn tabulate(points: &[Point], planar: bool, out: &mut CheckOutcome) {
    let p = if planar { "p (N/m)" } else { "p (Pa)" };
    out.table.push(
        ["case", "I", "mu", "+/-", "phi", "+/-", p, "+/-"]
            .map(String::from)
            .to_vec(),
    );
    for p in points {
        out.table.push(vec![
            p.name.clone(),
            format!("{:.4}", p.i),
            format!("{:.4}", p.mu.0),
            format!("{:.4}", p.mu.1),
            format!("{:.4}", p.phi.0),
            format!("{:.4}", p.phi.1),
            format!("{:.1}", p.p.0),
            format!("{:.1}", p.p.1),
        ]);
    }
}

/// mu(I) with the fits and the published laws; phi(I) with its line and the published ones.
fn plot(points: &[Point], m: &MuOfI, fitted: &Fitted, out: &mut CheckOutcome) {
    let lo = points.first().map_or(1e-3, |p| p.i) / 2.0;
    let hi = points.last().map_or(1.0, |p| p.i) * 2.0;
    let grid: Vec<Real> = (0..=100)
        .map(|k| lo * (hi / lo).powf(k as Real / 100.0))
        .collect();
    let curve = |label: String, f: &dyn Fn(Real) -> Real| Curve {
        label,
        x: grid.clone(),
        y: grid.iter().map(|&i| f(i)).collect(),
        markers: false,
    };
    // (the points themselves, as markers)
    let ours = |y: &dyn Fn(&Point) -> Real| Curve {
        label: "ballast".into(),
        x: points.iter().map(|p| p.i).collect(),
        y: points.iter().map(y).collect(),
        markers: true,
    };
    let law3 = fitted.law;
    let mut curves = vec![
        ours(&|p| p.mu.0),
        curve(
            format!(
                "fit: mu_s = {:.3}, mu_2 = {:.3}, I_0 = {:.3}",
                law3.0, law3.1, law3.2
            ),
            &|i| law(i, law3),
        ),
    ];
    if let Some(((mu_min, b), _)) = fitted.line {
        curves.push(curve(
            format!("fit: mu_min = {mu_min:.3}, b = {b:.3}"),
            &|i| mu_min + b * i,
        ));
    }
    for p in &m.published {
        if let Some(l) = p.law() {
            curves.push(curve(p.label.clone(), &|i| law(i, l)));
        }
        if let Some((mu_min, b)) = p.line() {
            let label = format!("{}: {mu_min} + {b} I", p.label);
            curves.push(curve(label, &|i| mu_min + b * i));
        }
    }
    out.plots.push(Plot {
        title: "friction law mu(I)".into(),
        x_label: "inertial number I".into(),
        y_label: if fitted.planar {
            "mu = -sigma_xy / sigma_yy".into()
        } else {
            "mu = -sigma_xz / sigma_zz".into()
        },
        log_x: true,
        log_y: false,
        curves,
    });
    let line = fitted.dilatancy;
    let mut curves = vec![
        ours(&|p| p.phi.0),
        curve(
            format!("fit: phi_c = {:.4}, a = {:.3}", line.0, line.1),
            &|i| line.0 - line.1 * i,
        ),
    ];
    for p in &m.published {
        if let Some((phi_c, a)) = p.dilatancy() {
            let label = format!("{}: {phi_c} - {a} I", p.label);
            curves.push(curve(label, &|i| phi_c - a * i));
        }
    }
    out.plots.push(Plot {
        title: "dilatancy phi(I)".into(),
        x_label: "inertial number I".into(),
        y_label: "solid fraction".into(),
        log_x: true,
        log_y: false,
        curves,
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Points drawn from a known law come back with its constants.
    #[test]
    fn fit_recovers_a_known_law() {
        let truth = (0.36, 0.62, 0.28);
        let pts: Vec<(Real, Real)> = [1e-3, 3e-3, 1e-2, 3e-2, 0.1, 0.3, 1.0]
            .iter()
            .map(|&i| (i, law(i, truth)))
            .collect();
        let (a, b, c) = fit(&pts);
        assert!(
            (a - truth.0).abs() < 1e-6 && (b - truth.1).abs() < 1e-6,
            "{a} {b}"
        );
        assert!((c / truth.2 - 1.0).abs() < 1e-4, "{c}");
        let (phi_c, slope) = dilatancy(&[(0.0, 0.6), (0.1, 0.57), (0.2, 0.54)]);
        assert!((phi_c - 0.6).abs() < 1e-12 && (slope - 0.3).abs() < 1e-12);
    }

    /// The 2D keys: `mu_min` may stand for `mu_s`; a published entry is a whole law or line.
    #[test]
    fn keys_of_the_line() {
        let parse = |text: &str| MuOfI::parse("mu_of_i", toml::from_str(text).unwrap());
        let points = "points = [\"a.toml\", \"b.toml\"]\n";
        assert!(parse(&format!("{points}mu_min = [0.2, 0.3]\nb = [0.7, 1.6]")).is_ok());
        let e = parse(&format!("{points}b = [0.7, 1.6]")).unwrap_err();
        assert!(e.contains("mu_min"), "{e}");
        let e = parse(&format!("{points}mu_min = [0.3, 0.2]")).unwrap_err();
        assert!(e.starts_with("mu_min"), "{e}");
        let line = "published = [{ label = \"x\", mu_min = 0.26, b = 1.1, phi_c = 0.8, a = 0.3 }]";
        assert!(parse(&format!("{points}mu_min = [0.2, 0.3]\n{line}")).is_ok());
        for half in [
            "published = [{ label = \"x\", mu_min = 0.26 }]",
            "published = [{ label = \"x\", mu_s = 0.38, mu_2 = 0.64 }]",
            "published = [{ label = \"x\", mu_min = 0.26, b = 1.1, a = 0.3 }]",
            "published = [{ label = \"x\", phi_c = 0.8, a = 0.3 }]",
        ] {
            let e = parse(&format!("{points}mu_min = [0.2, 0.3]\n{half}")).unwrap_err();
            assert!(e.contains("published \"x\""), "{half}: {e}");
        }
    }

    /// The standard error of block means, by hand: blocks of means 1 and 3 alternating.
    #[test]
    fn block_error_by_hand() {
        let v: Vec<Real> = (0..16)
            .map(|k| if (k / 2) % 2 == 0 { 1.0 } else { 3.0 })
            .collect();
        let (m, e) = mean_and_error(&v);
        // 8 block means 1, 3, 1, 3, ...: sample variance 8/7, error sqrt(8/7 / 8)
        assert_eq!(m, 2.0);
        assert!((e - (1.0 / 7.0 as Real).sqrt()).abs() < 1e-15);
    }
}
