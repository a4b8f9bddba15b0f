//! The `radius_distribution` check (project extension): the radii an insertion placed
//! against the distribution asked for, by the Kolmogorov-Smirnov statistic, by number or by
//! mass.

use super::context::Context;
use super::keys::read;
use super::kind::{Built, CheckKind};
use super::probe::{Probe, ProbeState};
use crate::math::Real;
use crate::model::Model;
use crate::record::{CheckOutcome, Curve, Plot};
use serde::Deserialize;

/// `radius_distribution`: the radii an insertion placed against its distribution.
#[derive(Clone, Debug, PartialEq)]
pub struct RadiusDistribution {
    /// The insertion's name.
    insert: String,
    /// Weigh each ball by its mass (r^3) instead of counting it.
    by_mass: bool,
    /// Confidence of the test (the critical value's level), in (0, 1).
    confidence: Real,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Keys {
    insert: String,
    by: Option<String>,
    confidence: Option<Real>,
}

impl CheckKind for RadiusDistribution {
    fn parse(_: &str, keys: toml::Value) -> Result<Self, String> {
        let k: Keys = read(keys)?;
        let by_mass = match k.by.as_deref().unwrap_or("number") {
            "number" => false,
            "mass" => true,
            o => return Err(format!("by = \"{o}\": expected \"number\" or \"mass\"")),
        };
        let confidence = k.confidence.unwrap_or(0.99);
        if !(confidence > 0.0 && confidence < 1.0) {
            return Err(format!("confidence = {confidence}: must lie in (0, 1)"));
        }
        Ok(RadiusDistribution {
            insert: k.insert,
            by_mass,
            confidence,
        })
    }

    fn kind(&self) -> &'static str {
        "radius_distribution"
    }

    fn validate(&self, built: &Built) -> Result<(), String> {
        let inserts = &built.model.flow.inserts;
        if !inserts.iter().any(|i| i.spec.name == self.insert) {
            return Err(format!("there is no insertion named \"{}\"", self.insert));
        }
        Ok(())
    }

    fn probe(&self, model: &Model) -> Option<Probe> {
        let inserts = &model.flow.inserts;
        let k = inserts.iter().position(|i| i.spec.name == self.insert)?;
        Some(Probe::new(RadiiProbe::new(k)))
    }

    fn evaluate(&self, _: &Context, probe: Option<&Probe>, out: &mut CheckOutcome) {
        match probe.and_then(Probe::state::<RadiiProbe>) {
            Some(p) => judge(p, &self.insert, self.by_mass, self.confidence, out),
            None => out.fail(format!("insertion {} was not watched", self.insert)),
        }
        out.code.push("src/distribution.rs::Radii::draw".into());
        out.code.push("src/flow/insert.rs::Insert".into());
        out.code
            .push("src/check/radius_distribution.rs::evaluate".into());
    }
}

/// Keeps the radii an insertion has placed (they stay in the model's insertion; the probe
/// holds the last state seen, so that the check reads it after the run).
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct RadiiProbe {
    /// Index of the insertion.
    insert: usize,
    /// Its radii so far, m.
    pub radii: Vec<Real>,
    /// Its distribution.
    pub radii_of: Option<crate::distribution::Radii>,
}

impl RadiiProbe {
    /// Watches insertion `insert`.
    pub fn new(insert: usize) -> Self {
        RadiiProbe {
            insert,
            ..Default::default()
        }
    }
}

impl ProbeState for RadiiProbe {
    /// Takes the radii placed since the last look.
    fn observe(&mut self, model: &Model) {
        let Some(ins) = model.flow.inserts.get(self.insert) else {
            return;
        };
        if self.radii_of.is_none() {
            self.radii_of = Some(ins.spec.radii.clone());
        }
        let seen = self.radii.len();
        if ins.radii_placed.len() > seen {
            self.radii.extend_from_slice(&ins.radii_placed[seen..]);
        }
    }
}

/// The critical value of the Kolmogorov-Smirnov statistic times sqrt(n) at `confidence`,
/// in the large-sample limit: sqrt(-ln((1 - confidence)/2) / 2) (1.628 at 0.99, 1.358 at 0.95).
pub fn ks_critical(confidence: Real) -> Real {
    (-(0.5 * (1.0 - confidence)).ln() / 2.0).sqrt()
}

/// The Kolmogorov-Smirnov statistic of weighted samples against a cumulative distribution:
/// the largest gap between the empirical distribution (each sample weighing `w / sum w`) and
/// `cdf`, on both sides of every step; and the effective sample size `(sum w)^2 / sum w^2`.
pub fn ks_statistic(samples: &[(Real, Real)], cdf: impl Fn(Real) -> Real) -> (Real, Real) {
    let mut s = samples.to_vec();
    s.sort_by(|a, b| a.0.total_cmp(&b.0));
    let total: Real = s.iter().map(|x| x.1).sum();
    let squares: Real = s.iter().map(|x| x.1 * x.1).sum();
    let mut below = 0.0;
    let mut d: Real = 0.0;
    let mut k = 0;
    while k < s.len() {
        // equal values form one step of the empirical distribution
        let x = s[k].0;
        let mut step = 0.0;
        while k < s.len() && s[k].0 == x {
            step += s[k].1;
            k += 1;
        }
        let f = cdf(x);
        let (lo, hi) = (below / total, (below + step) / total);
        // a discrete distribution steps at the same radii: compare with its value just
        // below the step too
        let f_below = cdf(x - x.abs() * 1e-12);
        d = d.max((f_below - lo).abs()).max((hi - f).abs());
        below += step;
    }
    (d, total * total / squares)
}

/// Judges the radii the probe kept.
fn judge(
    probe: &RadiiProbe,
    insert: &str,
    by_mass: bool,
    confidence: Real,
    out: &mut CheckOutcome,
) {
    let Some(dist) = &probe.radii_of else {
        return out.fail(format!("insertion {insert} was not watched"));
    };
    let n = probe.radii.len();
    if n < 20 {
        return out.fail(format!(
            "insertion {insert} placed {n} balls: too few for a distribution test (at least 20)"
        ));
    }
    let weigh = |r: Real| if by_mass { r * r * r } else { 1.0 };
    let samples: Vec<(Real, Real)> = probe.radii.iter().map(|&r| (r, weigh(r))).collect();
    let cdf = |r: Real| {
        if by_mass {
            dist.cdf_mass(r)
        } else {
            dist.cdf_number(r)
        }
    };
    let (d, n_eff) = ks_statistic(&samples, cdf);
    let critical = ks_critical(confidence) / n_eff.sqrt();
    let by = if by_mass { "mass" } else { "number" };
    out.what = format!(
        "Kolmogorov-Smirnov statistic D of the {n} radii insertion {insert} placed, by {by}: the \
         largest gap between their cumulative distribution and the one asked for"
    );
    out.formula = format!(
        "D <= c / sqrt(n_eff) with c = sqrt(-ln((1 - {confidence})/2)/2) = {:.4} (Kolmogorov's \
         limit at confidence {confidence}) and n_eff = (sum w)^2 / sum w^2 = {} (w = {}): {}",
        ks_critical(confidence),
        crate::math::num(n_eff),
        if by_mass { "r^3" } else { "1" },
        crate::math::num(critical)
    );
    out.value = Some(d);
    out.expected = Some(0.0);
    out.tolerance = Some(critical);
    out.tolerance_kind = "absolute".into();
    out.passed = d <= critical;
    if !out.passed {
        out.message = format!(
            "D = {} exceeds the critical value {}: the radii placed do not follow the distribution",
            crate::math::num(d),
            crate::math::num(critical)
        );
    }
    plot(dist, &samples, by_mass, out);
}

/// The two cumulative distributions, on a grid of radii: of the radii placed (weighed), and of
/// the distribution asked for.
fn plot(
    dist: &crate::distribution::Radii,
    samples: &[(Real, Real)],
    by_mass: bool,
    out: &mut CheckOutcome,
) {
    let by = if by_mass { "mass" } else { "number" };
    let n = samples.len();
    let (lo, hi) = dist.range();
    let mut sorted = samples.to_vec();
    sorted.sort_by(|a, b| a.0.total_cmp(&b.0));
    let total: Real = sorted.iter().map(|x| x.1).sum();
    let (mut xs, mut ys, mut acc) = (Vec::new(), Vec::new(), 0.0);
    let every = (sorted.len() / 400).max(1);
    for (k, (r, w)) in sorted.iter().enumerate() {
        acc += w;
        if k % every == 0 || k + 1 == sorted.len() {
            xs.push(*r);
            ys.push(acc / total);
        }
    }
    let grid: Vec<Real> = (0..=200)
        .map(|k| lo + (hi - lo) * k as Real / 200.0)
        .collect();
    let cdf = |r: Real| {
        if by_mass {
            dist.cdf_mass(r)
        } else {
            dist.cdf_number(r)
        }
    };
    out.plots.push(Plot {
        title: format!("cumulative distribution of the radii by {by}"),
        x_label: "radius (m)".into(),
        y_label: format!("fraction by {by} (-)"),
        log_x: false,
        log_y: false,
        curves: vec![
            Curve {
                label: format!("placed ({n} balls)"),
                x: xs,
                y: ys,
                markers: false,
            },
            Curve {
                label: "asked for".into(),
                y: grid.iter().map(|&r| cdf(r)).collect(),
                x: grid,
                markers: false,
            },
        ],
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The statistic by hand: samples at 0.25 and 0.75 against the uniform law on [0, 1]: the
    /// empirical steps 0, 1/2, 1 meet the line at gaps of 1/4 everywhere.
    #[test]
    fn ks_by_hand() {
        let (d, n) = ks_statistic(&[(0.25, 1.0), (0.75, 1.0)], |x| x.clamp(0.0, 1.0));
        assert!((d - 0.25).abs() < 1e-15 && (n - 2.0).abs() < 1e-15);
        // one sample at 0.5 of weight 3 and one at 0.9 of weight 1: steps 0.75 and 1 against
        // the line: gaps 0.5 below 0.5, 0.25 above it, 0.15 below 0.9, 0.1 above: D = 0.5
        let (d, n) = ks_statistic(&[(0.5, 3.0), (0.9, 1.0)], |x| x.clamp(0.0, 1.0));
        assert!((d - 0.5).abs() < 1e-12, "{d}");
        assert!((n - 16.0 / 10.0).abs() < 1e-15);
        // the tabulated critical values (Smirnov's limit): 1.36 at 95 %, 1.63 at 99 %
        assert!((ks_critical(0.95) - 1.3581).abs() < 1e-4);
        assert!((ks_critical(0.99) - 1.6276).abs() < 1e-4);
    }
}
