//! `beverloo`: the discharge rate of a silo against Beverloo's law,
//! `W = C rho_b sqrt(g) (D - k d)^(5/2)` (Beverloo, Leniger and van de Velde 1961), with `C` and
//! `k` fitted to two other cases (two orifices) and the rate of this case's orifice predicted.
//!
//! The published constants: Beverloo et al. found C = 0.58 and k = 1.5 for seeds and sands;
//! Nedderman, Tüzün, Savage and Houlsby (1982) review C between 0.55 and 0.65 and k about 1.5
//! for spheres, up to about 3 for angular grains. The check accepts C in [0.5, 0.7] and k in
//! [1, 3] unless the case says otherwise.

use super::context::Context;
use crate::case::BeverlooSpec;
use crate::math::{num, Real};
use crate::output::SeriesTable;
use crate::record::{CheckOutcome, Curve, Plot};

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

fn silo(name: &str, orifice: Real, table: &SeriesTable, b: &BeverlooSpec) -> Result<Silo, String> {
    let porosity = value_at(table, &b.porosity_series, b.porosity_at)?;
    Ok(Silo {
        name: name.into(),
        orifice,
        rate: rate(table, &b.series, b.window)?,
        bulk: b.particle_density * (1.0 - porosity),
    })
}

/// Evaluates a `beverloo` check.
pub fn evaluate(ctx: &Context, b: &BeverlooSpec, out: &mut CheckOutcome) {
    let g = ctx.case.gravity.norm();
    let d = b.particle_diameter;
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
        let table = match super::runs::run_other(&path, &[&b.series, &b.porosity_series]) {
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
    // (W / (rho_b sqrt g))^(2/5) = C^(2/5) D - C^(2/5) k d: a line in D through the two fits
    let y = |s: &Silo| (s.rate / (s.bulk * g.sqrt())).powf(0.4);
    let (s1, s2) = (&silos[0], &silos[1]);
    let a = (y(s1) - y(s2)) / (s1.orifice - s2.orifice);
    let intercept = a * s1.orifice - y(s1);
    let c = a.powf(2.5);
    let k = intercept / (a * d);
    let law =
        |bulk: Real, orifice: Real| c * bulk * g.sqrt() * (orifice - k * d).max(0.0).powf(2.5);
    let predicted = law(this.bulk, this.orifice);
    let c_range = b.c_range.unwrap_or([0.5, 0.7]);
    let k_range = b.k_range.unwrap_or([1.0, 3.0]);
    out.formula = format!(
        "W = C rho_b sqrt(g) (D - k d)^(5/2) (Beverloo et al. 1961), C = {} and k = {} fitted to \
         {} (D = {} mm) and {} (D = {} mm), d = {} mm, rho_b = rho_p (1 - porosity at {} s); \
         published: C = 0.58, k = 1.5 (Beverloo et al.), C 0.55-0.65 and k about 1.5 for \
         spheres, up to 3 for angular grains (Nedderman et al. 1982); accepted C in [{}, {}], k \
         in [{}, {}]",
        num(c),
        num(k),
        s1.name,
        num(s1.orifice * 1e3),
        s2.name,
        num(s2.orifice * 1e3),
        num(d * 1e3),
        b.porosity_at,
        c_range[0],
        c_range[1],
        k_range[0],
        k_range[1],
    );
    out.judge(
        this.rate,
        predicted,
        crate::record::Tolerance::Relative(b.tolerance),
    );
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
    for s in silos.iter().chain(std::iter::once(&this)) {
        out.table.push(vec![
            s.name.clone(),
            num(s.orifice * 1e3),
            num(s.rate),
            num(s.bulk),
            num(law(s.bulk, s.orifice)),
        ]);
    }
    out.table.push(vec![
        "fitted".into(),
        format!("C = {}", num(c)),
        format!("k = {}", num(k)),
        String::new(),
        String::new(),
    ]);
    let lo = (k * d).max(0.0);
    let hi = silos
        .iter()
        .chain(std::iter::once(&this))
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
                label: format!("Beverloo, C = {}, k = {}", num(c), num(k)),
                x: grid.iter().map(|x| x * 1e3).collect(),
                y: grid.iter().map(|&x| law(this.bulk, x)).collect(),
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
