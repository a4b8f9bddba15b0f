//! `bagnold`: the velocity profile of a steady flow down an inclined plane against Bagnold's
//! form (Silbert et al. 2001): with the inertial number constant through the depth of a layer of
//! height H, the shear rate grows as the square root of the depth below the free surface, and
//! the velocity at the height z above the base is `v(z) = A (H^(3/2) - (H - z)^(3/2))`.
//!
//! The profile: the time average over `window` of each region's `velocity` along the flow
//! (`measure/<region>/velocity.x`), at the height of the region's middle above `base`. `H` is
//! measured: the layer's mass per unit area of the base (the regions' `mass`) over the bulk's
//! density (the mean over the regions whose middle lies in `fit`). A slip velocity at the base
//! `v_s` and `A` are fitted by least squares to those regions, `v = v_s + A (H^(3/2) - (H -
//! z)^(3/2))`. The check passes when the root-mean-square misfit, relative to the largest fitted
//! velocity, is at most `tolerance` and a straight line `v_s + c z` (the creeping profile near
//! the stopping angle) fits the same points worse.

use super::context::Context;
use super::keys::{nonneg, read};
use super::kind::CheckKind;
use super::probe::Probe;
use crate::geom::Zone;
use crate::math::{num, Real};
use crate::record::{CheckOutcome, Curve, Plot, Tolerance};
use serde::Deserialize;

/// `bagnold`: a chute flow's velocity profile against Bagnold's form.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Bagnold {
    /// Measurement regions (`[[measure]]` boxes) stacked from the base up.
    regions: Vec<String>,
    /// The height of the base the profile starts from, m.
    base: Real,
    /// The time window of the average, s.
    window: [Real; 2],
    /// The heights above the base (m) between which the regions are fitted.
    fit: [Real; 2],
    /// Largest root-mean-square misfit over the largest fitted velocity.
    tolerance: Real,
}

impl CheckKind for Bagnold {
    fn parse(_: &str, keys: toml::Value) -> Result<Self, String> {
        let b: Bagnold = read(keys)?;
        if b.regions.len() < 3 {
            return Err("regions: give at least three regions (A and H are fitted)".into());
        }
        for (what, w) in [("window", b.window), ("fit", b.fit)] {
            if !(w[0].is_finite() && w[1].is_finite() && w[1] > w[0]) {
                return Err(format!(
                    "{what} = {w:?}: must be [start, end], end after start"
                ));
            }
        }
        if !b.base.is_finite() {
            return Err(format!("base = {}: must be finite (m)", b.base));
        }
        nonneg("tolerance", b.tolerance)?;
        Ok(b)
    }

    fn kind(&self) -> &'static str {
        "bagnold"
    }

    fn evaluate(&self, ctx: &Context, _: Option<&Probe>, out: &mut CheckOutcome) {
        out.code.push("src/output/measure.rs::measure_with".into());
        out.code.push("src/check/bagnold.rs::fit".into());
        judge(ctx, self, out);
    }
}

/// `(v_s, A)` of `v = v_s + A x` by least squares ([`super::convergence::fit_line`]), and the
/// sum of squares (`x` the shape at each point: Bagnold's, or the height for a straight line;
/// the sweep of `mu_of_i` fits its law the same way).
pub fn fit(points: &[(Real, Real)], shape: impl Fn(Real) -> Real) -> (Real, Real, Real) {
    let x: Vec<Real> = points.iter().map(|p| shape(p.0)).collect();
    let y: Vec<Real> = points.iter().map(|p| p.1).collect();
    let (a, slip) = super::convergence::fit_line(&x, &y);
    let ss = (x.iter().zip(&y))
        .map(|(x, y)| (y - slip - a * x).powi(2))
        .sum::<Real>();
    (slip, a, ss)
}

/// Bagnold's profile of unit amplitude.
fn shape(z: Real, h: Real) -> Real {
    h.powf(1.5) - (h - z).max(0.0).powf(1.5)
}

/// Evaluates a `bagnold` check.
fn judge(ctx: &Context, b: &Bagnold, out: &mut CheckOutcome) {
    out.what = format!(
        "root-mean-square misfit of Bagnold's profile over the heights {} to {} m, relative to the largest velocity",
        b.fit[0], b.fit[1]
    );
    let t = &ctx.series.t;
    let keep: Vec<usize> = (0..t.len())
        .filter(|&k| t[k] >= b.window[0] && t[k] <= b.window[1])
        .collect();
    if keep.len() < 2 {
        return out.fail(format!(
            "{} records in the window {:?} s: at least 2 are averaged",
            keep.len(),
            b.window
        ));
    }
    let mut profile = Vec::new();
    let mut masses = Vec::new();
    for r in &b.regions {
        let Some(m) = ctx.case.measures().iter().find(|m| &m.name == r) else {
            return out.fail(format!("no measurement region named \"{r}\""));
        };
        let Some(Zone::Box { min, max }) = &m.zone else {
            return out.fail(format!("region \"{r}\" is not a box"));
        };
        let column = format!("measure/{r}/velocity.x");
        let Some(v) = ctx.series.column(&column) else {
            return out.fail(format!("series {column} was not recorded"));
        };
        let mean = keep.iter().map(|&k| v[k]).sum::<Real>() / keep.len() as Real;
        profile.push((0.5 * (min.z + max.z) - b.base, mean));
        let column = format!("measure/{r}/mass");
        let Some(m) = ctx.series.column(&column) else {
            return out.fail(format!("series {column} was not recorded"));
        };
        let mass = keep.iter().map(|&k| m[k]).sum::<Real>() / keep.len() as Real;
        let volume = (max.x - min.x) * (max.y - min.y) * (max.z - min.z);
        masses.push((mass, volume, (max.x - min.x) * (max.y - min.y)));
    }
    let fitted: Vec<(Real, Real)> = (profile.iter())
        .copied()
        .filter(|&(z, _)| z >= b.fit[0] && z <= b.fit[1])
        .collect();
    if fitted.len() < 3 {
        return out.fail(format!(
            "{} regions in the fitted heights: at least 3",
            fitted.len()
        ));
    }
    // the layer's height: its mass over the bulk's density (the mean of the fitted regions)
    // and the base's area
    let in_fit = |k: usize| profile[k].0 >= b.fit[0] && profile[k].0 <= b.fit[1];
    let bulk = (0..profile.len())
        .filter(|&k| in_fit(k))
        .map(|k| masses[k].0 / masses[k].1)
        .sum::<Real>()
        / fitted.len() as Real;
    let h = masses.iter().map(|m| m.0 / m.2).sum::<Real>() / bulk;
    let (slip, a, ss) = fit(&fitted, |z| shape(z, h));
    let grain = ctx
        .case
        .materials()
        .first()
        .map_or(Real::NAN, |m| m.density);
    let top = fitted.iter().map(|p| p.1.abs()).fold(0.0, Real::max);
    let rms = |ss: Real| (ss / fitted.len() as Real).sqrt() / top.max(Real::MIN_POSITIVE);
    // a straight line, for comparison (the creeping profile near the stopping angle)
    let (line_slip, c, line) = fit(&fitted, |z| z);
    out.judge(rms(ss), 0.0, Tolerance::Absolute(b.tolerance));
    if out.passed && ss >= line {
        out.passed = false;
        out.message = format!(
            "a straight line fits as well (misfit {} against Bagnold's {})",
            num(rms(line)),
            num(rms(ss))
        );
    }
    out.formula = format!(
        "v(z) = v_s + A (H^(3/2) - (H - z)^(3/2)) (Bagnold's profile, Silbert et al. 2001, with a slip velocity v_s at the base), H = {} m the layer's height (its mass over the bulk density {} kg/m^3 and the base's area; solid fraction {}), v_s = {} m/s and A = {} (m/s)/m^1.5 fitted; misfit {}; a straight line v_s + c z misfits by {} (it must do worse)",
        num(h),
        num(bulk),
        num(bulk / grain),
        num(slip),
        num(a),
        num(rms(ss)),
        num(rms(line))
    );
    let zs: Vec<Real> = (0..=100).map(|k| h * k as Real / 100.0).collect();
    out.plots.push(Plot {
        title: "velocity profile across the layer".into(),
        x_label: "height above the base z (m)".into(),
        y_label: "mean velocity along the slope (m/s)".into(),
        log_x: false,
        log_y: false,
        curves: vec![
            Curve {
                label: "ballast (regions)".into(),
                x: profile.iter().map(|p| p.0).collect(),
                y: profile.iter().map(|p| p.1).collect(),
                markers: true,
            },
            Curve {
                label: format!("Bagnold, H = {:.4} m", h),
                x: zs.clone(),
                y: zs.iter().map(|&z| slip + a * shape(z, h)).collect(),
                markers: false,
            },
            Curve {
                label: "straight line".into(),
                x: zs.clone(),
                y: zs.iter().map(|&z| line_slip + c * z).collect(),
                markers: false,
            },
        ],
    });
    out.table.push(
        ["height above base (m)", "velocity (m/s)", "Bagnold (m/s)"]
            .map(String::from)
            .to_vec(),
    );
    for &(z, v) in &profile {
        out.table.push(vec![
            format!("{z:.5}"),
            format!("{v:.5}"),
            format!("{:.5}", slip + a * shape(z, h)),
        ]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Points on a known profile with a slip give back its slip and A; a straight line fits
    /// them worse.
    #[test]
    fn fit_recovers_a_known_profile() {
        let (slip, a, h): (Real, Real, Real) = (0.04, 3.0, 0.02);
        let pts: Vec<(Real, Real)> = (1..=15)
            .map(|k| {
                let z = 0.001 * k as Real;
                (z, slip + a * (h.powf(1.5) - (h - z).powf(1.5)))
            })
            .collect();
        let (fs, fa, ss) = fit(&pts, |z| shape(z, h));
        assert!(
            (fa / a - 1.0).abs() < 1e-9 && (fs - slip).abs() < 1e-12,
            "{fs} {fa}"
        );
        assert!(ss < 1e-20, "{ss}");
        assert!(fit(&pts, |z| z).2 > 1e-8);
    }
}
