//! `beverloo`: the discharge rate of a silo against Beverloo's law,
//! `W = C rho_b sqrt(g) (D - k d)^(5/2)` (Beverloo, Leniger and van de Velde 1961), with `C` and
//! `k` fitted to two other cases (two orifices) and the rate of this case's orifice predicted.
//!
//! The published constants: Beverloo et al. found C = 0.58 and k = 1.5 for seeds and sands;
//! Nedderman, Tüzün, Savage and Houlsby (1982) review C between 0.55 and 0.65 and k about 1.5
//! for spheres, up to about 3 for angular grains. The check accepts C in [0.5, 0.7] and k in
//! [1, 3] unless the case says otherwise.

use super::context::Context;
use super::keys::{nonneg, positive, read};
use super::kind::{Built, CheckKind};
use super::probe::Probe;
use crate::math::{num, Real};
use crate::output::{SeriesTable, Source};
use crate::record::{CheckOutcome, Curve, Plot};
use serde::Deserialize;

/// `beverloo`: the discharge rate of this case's silo against Beverloo's law
/// `W = C rho_b sqrt(g) (D - k d)^(5/2)` with C and k fitted to two other cases (its keys, as
/// written).
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Beverloo {
    /// The cumulative mass discharged, kg (an outlet's `mass`).
    series: String,
    /// The time window of the rate, s: the slope of a straight line fitted to the records in it.
    window: [Real; 2],
    /// This case's orifice diameter, m.
    orifice: Real,
    /// The particle diameter d, m.
    particle_diameter: Real,
    /// The particles' density, kg/m^3.
    particle_density: Real,
    /// The porosity of the packing (a measure's `porosity`): rho_b = density (1 - porosity).
    porosity_series: String,
    /// The time at which the porosity is read (the packing at rest before the discharge), s.
    porosity_at: Real,
    /// The two cases that fit C and k.
    fit: Vec<FitCase>,
    /// Relative tolerance of the predicted rate.
    tolerance: Real,
    /// Accepted range of C (default the published range [0.5, 0.7]).
    c_range: Option<[Real; 2]>,
    /// Accepted range of k (default the published range [1, 3]).
    k_range: Option<[Real; 2]>,
}

/// A case that fits Beverloo's constants, with its orifice diameter.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
struct FitCase {
    /// Path of the case file, relative to this case.
    case: String,
    /// Its orifice diameter, m.
    orifice: Real,
}

impl CheckKind for Beverloo {
    fn parse(_: &str, keys: toml::Value) -> Result<Self, String> {
        let b: Beverloo = read(keys)?;
        positive(
            [
                ("orifice", b.orifice),
                ("particle_diameter", b.particle_diameter),
                ("particle_density", b.particle_density),
            ]
            .into_iter()
            .chain(b.fit.iter().map(|c| ("fit.orifice", c.orifice))),
        )?;
        if b.fit.len() != 2 || b.fit[0].orifice == b.fit[1].orifice {
            return Err("fit: give two cases with different orifices".into());
        }
        for (what, d) in [("orifice", b.orifice)]
            .into_iter()
            .chain(b.fit.iter().map(|c| ("fit.orifice", c.orifice)))
        {
            if d <= b.particle_diameter {
                return Err(format!(
                    "{what} = {d}: not wider than a particle (particle_diameter = {}): Beverloo's \
                     law needs D > k d",
                    b.particle_diameter
                ));
            }
        }
        for (what, range) in [("c_range", b.c_range), ("k_range", b.k_range)] {
            if let Some([lo, hi]) = range {
                if !(lo.is_finite() && hi.is_finite() && 0.0 <= lo && lo < hi) {
                    return Err(format!(
                        "{what} = [{lo}, {hi}]: must be [low, high], finite, 0 <= low < high"
                    ));
                }
            }
        }
        nonneg("porosity_at", b.porosity_at)?;
        if !(b.window[0].is_finite() && b.window[1].is_finite() && b.window[1] > b.window[0]) {
            return Err(format!(
                "window = {:?}: must be [start, end], end after start (s)",
                b.window
            ));
        }
        nonneg("tolerance", b.tolerance)?;
        Ok(b)
    }

    fn kind(&self) -> &'static str {
        "beverloo"
    }

    fn other_cases(&self) -> Vec<(&'static str, &str)> {
        (self.fit.iter())
            .map(|f| ("fit.case", f.case.as_str()))
            .collect()
    }

    fn validate(&self, built: &Built) -> Result<(), String> {
        for s in [&self.series, &self.porosity_series] {
            Source::parse(s, built.model)?;
        }
        Ok(())
    }

    fn evaluate(&self, ctx: &Context, _: Option<&Probe>, out: &mut CheckOutcome) {
        out.code.push("src/flow/stage.rs::remove_in_outlets".into());
        out.code.push("src/check/beverloo.rs::evaluate".into());
        judge(ctx, self, out);
    }
}

/// The slope of the least-squares line through the records of `column` in `window`, per s.
pub fn rate(table: &SeriesTable, column: &str, window: [Real; 2]) -> Result<Real, String> {
    let y = table
        .column(column)
        .ok_or_else(|| format!("series {column} was not recorded"))?;
    let pts: Vec<(Real, Real)> = (table.t.iter().zip(y))
        .filter(|(t, _)| **t >= window[0] && **t <= window[1])
        .map(|(t, v)| (*t, *v))
        .collect();
    if pts.len() < 3 {
        return Err(format!(
            "{} records of {column} in [{}, {}] s: at least 3 are needed",
            pts.len(),
            window[0],
            window[1]
        ));
    }
    let n = pts.len() as Real;
    let (mt, my) = pts
        .iter()
        .fold((0.0, 0.0), |(a, b), (t, v)| (a + t / n, b + v / n));
    let (sxy, sxx) = pts.iter().fold((0.0, 0.0), |(a, b), (t, v)| {
        (a + (t - mt) * (v - my), b + (t - mt) * (t - mt))
    });
    Ok(sxy / sxx)
}

/// The value of `column` at the record nearest `t`.
fn value_at(table: &SeriesTable, column: &str, t: Real) -> Result<Real, String> {
    let y = table
        .column(column)
        .ok_or_else(|| format!("series {column} was not recorded"))?;
    let k = (0..table.t.len())
        .min_by(|&a, &b| (table.t[a] - t).abs().total_cmp(&(table.t[b] - t).abs()))
        .ok_or_else(|| format!("series {column} has no record"))?;
    Ok(y[k])
}

/// One silo: orifice diameter (m), rate (kg/s), bulk density (kg/m^3).
struct Silo {
    name: String,
    orifice: Real,
    rate: Real,
    bulk: Real,
}

fn silo(name: &str, orifice: Real, table: &SeriesTable, b: &Beverloo) -> Result<Silo, String> {
    let porosity = value_at(table, &b.porosity_series, b.porosity_at)?;
    Ok(Silo {
        name: name.into(),
        orifice,
        rate: rate(table, &b.series, b.window)?,
        bulk: b.particle_density * (1.0 - porosity),
    })
}

/// Beverloo's law with its constants fitted: `W = C rho_b sqrt(g) (D - k d)^(5/2)`.
struct Law {
    /// C.
    c: Real,
    /// k.
    k: Real,
    /// The particle diameter d, m.
    d: Real,
    /// |g|, m/s^2.
    g: Real,
}

impl Law {
    /// Fits C and k to two silos: `(W / (rho_b sqrt g))^(2/5) = C^(2/5) D - C^(2/5) k d`, a line
    /// in D through the two.
    fn fit(s1: &Silo, s2: &Silo, d: Real, g: Real) -> Law {
        let y = |s: &Silo| (s.rate / (s.bulk * g.sqrt())).powf(0.4);
        let a = (y(s1) - y(s2)) / (s1.orifice - s2.orifice);
        let intercept = a * s1.orifice - y(s1);
        Law {
            c: a.powf(2.5),
            k: intercept / (a * d),
            d,
            g,
        }
    }

    /// The rate of an orifice of diameter `orifice` over a packing of bulk density `bulk`.
    fn rate(&self, bulk: Real, orifice: Real) -> Real {
        self.c * bulk * self.g.sqrt() * (orifice - self.k * self.d).max(0.0).powf(2.5)
    }
}

/// Evaluates a `beverloo` check: fits the law to the other cases and predicts this one.
fn judge(ctx: &Context, b: &Beverloo, out: &mut CheckOutcome) {
    let g = ctx.case.gravity().norm();
    out.what = format!(
        "discharge rate W of this silo (slope of {} over [{}, {}] s)",
        b.series, b.window[0], b.window[1]
    );
    if ctx.depth >= 2 {
        return out.fail("beverloo cases refer to each other too deeply".into());
    }
    let mut silos = Vec::new();
    for f in &b.fit {
        let path = ctx.case.dir().join(&f.case);
        let table = match ctx.case.series_of(&path, &[&b.series, &b.porosity_series]) {
            Ok(t) => t,
            Err(e) => return out.fail(e),
        };
        match silo(&f.case, f.orifice, &table, b) {
            Ok(s) => silos.push(s),
            Err(e) => return out.fail(format!("{}: {e}", f.case)),
        }
    }
    let this = match silo("this case", b.orifice, ctx.series, b) {
        Ok(s) => s,
        Err(e) => return out.fail(e),
    };
    let law = Law::fit(&silos[0], &silos[1], b.particle_diameter, g);
    let predicted = law.rate(this.bulk, this.orifice);
    let c_range = b.c_range.unwrap_or([0.5, 0.7]);
    let k_range = b.k_range.unwrap_or([1.0, 3.0]);
    out.formula = formula(b, &law, &silos, c_range, k_range);
    out.judge(
        this.rate,
        predicted,
        crate::record::Tolerance::Relative(b.tolerance),
    );
    let (c, k) = (law.c, law.k);
    let inside = |v: Real, r: [Real; 2]| v >= r[0] && v <= r[1];
    if out.passed && !(inside(c, c_range) && inside(k, k_range)) {
        out.passed = false;
        out.message = format!(
            "the fitted C = {} or k = {} lies outside the published range",
            num(c),
            num(k)
        );
    } else if !out.passed {
        out.message = format!(
            "W = {} kg/s against {} kg/s predicted (C = {}, k = {})",
            num(this.rate),
            num(predicted),
            num(c),
            num(k)
        );
    }
    tabulate(&silos, &this, &law, out);
    plot(&silos, &this, &law, out);
}

/// The law with its fitted constants, the fitting cases and the published ranges, in words.
fn formula(
    b: &Beverloo,
    law: &Law,
    silos: &[Silo],
    c_range: [Real; 2],
    k_range: [Real; 2],
) -> String {
    let (s1, s2) = (&silos[0], &silos[1]);
    format!(
        "W = C rho_b sqrt(g) (D - k d)^(5/2) (Beverloo et al. 1961), C = {} and k = {} fitted to \
         {} (D = {} mm) and {} (D = {} mm), d = {} mm, rho_b = rho_p (1 - porosity at {} s); \
         published: C = 0.58, k = 1.5 (Beverloo et al.), C 0.55-0.65 and k about 1.5 for \
         spheres, up to 3 for angular grains (Nedderman et al. 1982); accepted C in [{}, {}], k \
         in [{}, {}]",
        num(law.c),
        num(law.k),
        s1.name,
        num(s1.orifice * 1e3),
        s2.name,
        num(s2.orifice * 1e3),
        num(law.d * 1e3),
        b.porosity_at,
        c_range[0],
        c_range[1],
        k_range[0],
        k_range[1],
    )
}

/// Each silo's rate against the law's, and the fitted constants.
fn tabulate(silos: &[Silo], this: &Silo, law: &Law, out: &mut CheckOutcome) {
    out.table.push(
        [
            "case",
            "D (mm)",
            "W (kg/s)",
            "rho_b (kg/m^3)",
            "Beverloo W (kg/s)",
        ]
        .map(String::from)
        .to_vec(),
    );
    for s in silos.iter().chain(std::iter::once(this)) {
        out.table.push(vec![
            s.name.clone(),
            num(s.orifice * 1e3),
            num(s.rate),
            num(s.bulk),
            num(law.rate(s.bulk, s.orifice)),
        ]);
    }
    out.table.push(vec![
        "fitted".into(),
        format!("C = {}", num(law.c)),
        format!("k = {}", num(law.k)),
        String::new(),
        String::new(),
    ]);
}

/// The law against the orifice diameter, with the fitting cases and this one.
fn plot(silos: &[Silo], this: &Silo, law: &Law, out: &mut CheckOutcome) {
    let lo = (law.k * law.d).max(0.0);
    let hi = (silos.iter().chain(std::iter::once(this)))
        .map(|s| s.orifice)
        .fold(0.0, Real::max)
        * 1.2;
    let grid: Vec<Real> = (0..=100)
        .map(|i| lo + (hi - lo) * i as Real / 100.0)
        .collect();
    out.plots.push(Plot {
        title: "discharge rate against orifice diameter".into(),
        x_label: "orifice diameter D (mm)".into(),
        y_label: "W (kg/s)".into(),
        log_x: false,
        log_y: false,
        curves: vec![
            Curve {
                label: format!("Beverloo, C = {}, k = {}", num(law.c), num(law.k)),
                x: grid.iter().map(|x| x * 1e3).collect(),
                y: grid.iter().map(|&x| law.rate(this.bulk, x)).collect(),
                markers: false,
            },
            Curve {
                label: "fitted cases".into(),
                x: silos.iter().map(|s| s.orifice * 1e3).collect(),
                y: silos.iter().map(|s| s.rate).collect(),
                markers: true,
            },
            Curve {
                label: "this case (predicted)".into(),
                x: vec![this.orifice * 1e3],
                y: vec![this.rate],
                markers: true,
            },
        ],
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rate of a table that grows as 2 + 3 t, with one record outside the window off the
    /// line: the slope is 3.
    #[test]
    fn rate_is_the_slope_in_the_window() {
        let t: Vec<Real> = (0..20).map(|k| k as Real * 0.1).collect();
        let mut y: Vec<Real> = t.iter().map(|t| 2.0 + 3.0 * t).collect();
        y[0] = 100.0;
        let table = SeriesTable {
            columns: vec!["m".into()],
            data: vec![y],
            t,
        };
        let r = rate(&table, "m", [0.5, 1.5]).unwrap();
        assert!((r - 3.0).abs() < 1e-12, "{r}");
    }
}
