//! `jkr`: a contact's normal force against its overlap, judged on JKR's curve (Johnson, Kendall
//! & Roberts 1971; Johnson, *Contact Mechanics*, 1985, 5.5).
//!
//! The reference is built here from JKR's own parametric form, independently of the engine's
//! law (which solves a quartic in another variable): for a contact radius `a`,
//! `delta(a) = a^2 / R - sqrt(2 pi w a / E*)` and `F(a) = 4 E* a^3 / (3 R) - sqrt(8 pi w E* a^3)`;
//! the stable branch is `a >= a_end`, `a_end^3 = pi w R^2 / (8 E*)`, where `delta` increases
//! with `a`. A measured overlap is turned into `a` by bisection on that branch. The contact holds
//! from the first record where the pieces overlap until the overlap falls to
//! `delta(a_end) = -(3/4) (pi^2 w^2 R / E*^2)^(1/3)`, where the neck breaks; before and after,
//! the force is 0. The largest tension of the branch is the pull-off force `(3/2) pi w R`
//! (at `a^3 = 9 pi w R^2 / (8 E*)`).

use super::context::Context;
use super::keys::{nonneg, positive, read};
use super::kind::{Built, CheckKind};
use super::probe::Probe;
use crate::math::{num, Real, PI};
use crate::output::{base_series, Source};
use crate::record::{CheckOutcome, Curve, Plot, Tolerance};
use serde::Deserialize;

/// `jkr`: a contact's normal force against its overlap on JKR's curve, over every record, and
/// the smallest force against the pull-off force `(3/2) pi w R` (the constants given here, not
/// taken from the case's materials: the reference is independent of the case's reading). Its
/// keys, as written.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Jkr {
    /// The normal force on the contact's second piece along the normal (positive: repulsion),
    /// a column, N (for instance `ball/2/force.x`).
    force: String,
    /// The contact's overlap, a column, m (`interaction/<a>/<b>/overlap`).
    overlap: String,
    /// The work of adhesion w, J/m^2.
    surface_energy: Real,
    /// The effective modulus E*, Pa.
    e_star: Real,
    /// The effective radius R*, m.
    radius: Real,
    /// Absolute tolerance on `|F - F_JKR| / F_pull-off` at every record, and on
    /// `|F_min / F_pull-off + 1|`.
    tolerance: Real,
}

impl CheckKind for Jkr {
    fn parse(_: &str, keys: toml::Value) -> Result<Self, String> {
        let j: Jkr = read(keys)?;
        positive([
            ("surface_energy", j.surface_energy),
            ("e_star", j.e_star),
            ("radius", j.radius),
        ])?;
        nonneg("tolerance", j.tolerance)?;
        Ok(j)
    }

    fn kind(&self) -> &'static str {
        "jkr"
    }

    fn validate(&self, built: &Built) -> Result<(), String> {
        let model = built.model;
        for s in [&self.force, &self.overlap] {
            let source = Source::parse(base_series(s), model)?;
            if !source.names_column(s, model.planar) {
                return Err(format!(
                    "series \"{s}\": name a column (a vector series takes .x, .y or .z)"
                ));
            }
        }
        Ok(())
    }

    fn evaluate(&self, ctx: &Context, _: Option<&Probe>, out: &mut CheckOutcome) {
        out.code.push("src/law/cohesion.rs::Cohesion::force".into());
        out.code.push("src/check/jkr.rs::evaluate".into());
        judge(ctx, self, out);
    }
}

/// JKR's curve for one contact.
struct JkrCurve {
    w: Real,
    e: Real,
    r: Real,
}

impl JkrCurve {
    fn overlap(&self, a: Real) -> Real {
        a * a / self.r - (2.0 * PI * self.w * a / self.e).sqrt()
    }

    fn force(&self, a: Real) -> Real {
        4.0 * self.e * a * a * a / (3.0 * self.r) - (8.0 * PI * self.w * self.e * a * a * a).sqrt()
    }

    /// The contact radius of the neck's end, m.
    fn a_end(&self) -> Real {
        (PI * self.w * self.r * self.r / (8.0 * self.e)).cbrt()
    }

    /// The contact radius on the stable branch whose overlap is `delta` (bisection).
    fn radius_at(&self, delta: Real) -> Real {
        let mut lo = self.a_end();
        let mut hi = 2.0 * lo;
        while self.overlap(hi) < delta {
            hi *= 2.0;
        }
        for _ in 0..200 {
            let mid = 0.5 * (lo + hi);
            if self.overlap(mid) < delta {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        0.5 * (lo + hi)
    }
}

/// What the records of a contact show against JKR's curve.
struct Walk {
    /// Largest |F - F_JKR| / pull-off, and its time, s.
    worst: (Real, Real),
    /// The smallest force, N.
    lowest: Real,
    /// The last overlap at which the contact held, m.
    last_held: Real,
    /// (overlap, force) of the records while the contact held.
    points: Vec<(Real, Real)>,
}

impl JkrCurve {
    /// Follows the records: the contact holds from the first overlap until the overlap falls
    /// to `end`, where the neck breaks.
    fn walk(&self, t: &[Real], force: &[Real], overlap: &[Real], pull_off: Real) -> Walk {
        let end = self.overlap(self.a_end());
        let mut held = false;
        let (mut worst, mut at) = (0.0 as Real, 0.0);
        let (mut lowest, mut last_held): (Real, Real) = (Real::INFINITY, Real::NAN);
        let mut points = Vec::new();
        for k in 0..force.len() {
            let d = overlap[k];
            if d > 0.0 {
                held = true;
            } else if d <= end {
                held = false;
            }
            let expected = if held {
                last_held = d;
                self.force(self.radius_at(d))
            } else {
                0.0
            };
            if held {
                points.push((d, force[k]));
            }
            lowest = lowest.min(force[k]);
            let e = (force[k] - expected).abs() / pull_off;
            if e > worst {
                (worst, at) = (e, t[k]);
            }
        }
        Walk {
            worst: (worst, at),
            lowest,
            last_held,
            points,
        }
    }
}

/// Evaluates a `jkr` check over every record.
fn judge(ctx: &Context, j: &Jkr, out: &mut CheckOutcome) {
    let (Some(force), Some(overlap)) = (ctx.series.column(&j.force), ctx.series.column(&j.overlap))
    else {
        return out.fail(format!(
            "series {} and {} must both be recorded",
            j.force, j.overlap
        ));
    };
    let curve = JkrCurve {
        w: j.surface_energy,
        e: j.e_star,
        r: j.radius,
    };
    let pull_off = 1.5 * PI * j.surface_energy * j.radius;
    let end = curve.overlap(curve.a_end());
    let walk = curve.walk(&ctx.series.t, force, overlap, pull_off);
    let ((worst, at), lowest) = (walk.worst, walk.lowest);
    if walk.points.is_empty() {
        return out.fail("the pieces never touched".into());
    }
    out.what = format!(
        "largest |F - F_JKR(delta)| over the records, divided by the pull-off force (worst at t = \
         {} s); the smallest force {} N against the pull-off force -{} N",
        num(at),
        num(lowest),
        num(pull_off)
    );
    out.formula = format!(
        "delta = a^2/R - sqrt(2 pi w a / E*), F = 4 E* a^3/(3 R) - sqrt(8 pi w E* a^3) on a >= \
         (pi w R^2/(8 E*))^(1/3); the neck breaks at delta = {} m (force -(5/6) pi w R); \
         pull-off force (3/2) pi w R = {} N; w = {} J/m^2, E* = {} Pa, R = {} m",
        num(end),
        num(pull_off),
        num(j.surface_energy),
        num(j.e_star),
        num(j.radius)
    );
    // the tension must have reached the pull-off force: the smallest force is judged too
    let pulled = (lowest / pull_off + 1.0).abs();
    out.judge(worst.max(pulled), 0.0, Tolerance::Absolute(j.tolerance));
    out.table
        .push(["quantity", "measured", "JKR"].map(String::from).to_vec());
    out.table.push(vec![
        "smallest force (N)".into(),
        num(lowest),
        num(-pull_off),
    ]);
    out.table.push(vec![
        "last overlap held (m)".into(),
        num(walk.last_held),
        format!("> {}", num(end)),
    ]);
    out.table.push(vec![
        "largest |F − F_JKR| / pull-off".into(),
        num(worst),
        "0".into(),
    ]);
    plot(&curve, &walk.points, out);
}

/// JKR's curve against the records while the contact held.
fn plot(curve: &JkrCurve, points: &[(Real, Real)], out: &mut CheckOutcome) {
    let end = curve.overlap(curve.a_end());
    let a_top = curve.radius_at(points.iter().map(|p| p.0).fold(end, Real::max));
    let grid: Vec<Real> = (0..=200)
        .map(|i| curve.a_end() + (a_top - curve.a_end()) * i as Real / 200.0)
        .collect();
    out.plots.push(Plot {
        title: "normal force against overlap".into(),
        x_label: "overlap δ (m; negative: the neck across a gap)".into(),
        y_label: "normal force F (N; negative: tension)".into(),
        log_x: false,
        log_y: false,
        curves: vec![
            Curve {
                label: "JKR: δ(a), F(a)".into(),
                x: grid.iter().map(|&a| curve.overlap(a)).collect(),
                y: grid.iter().map(|&a| curve.force(a)).collect(),
                markers: false,
            },
            Curve {
                label: "run (records while the contact holds)".into(),
                x: points.iter().map(|p| p.0).collect(),
                y: points.iter().map(|p| p.1).collect(),
                markers: true,
            },
        ],
    });
}
