//! `janssen`: the vertical stress down a column of grains at rest against Janssen's profile
//! (Janssen 1895). A slice at depth `h` below the free surface carries the weight above it less
//! the friction of the wall, fully mobilized (`mu_w` times the horizontal stress `K sigma_v`):
//! `d sigma_v / dh = rho_b g - 4 mu_w K sigma_v / D`, so
//! `sigma_v = rho_b g lambda (1 - exp(-h / lambda))` with `lambda = D / (4 mu_w K)`, saturating
//! at `rho_b g D / (4 mu_w K)`.
//!
//! Every number of the reference is measured, none fitted: the bulk density from the slices'
//! porosity, K as the ratio of the horizontal to the vertical stress, `(sigma_xx + sigma_yy) /
//! (2 sigma_zz)`, averaged over the slices deeper than one diameter, and the free surface at
//! the height of a packing of that bulk density holding the balls' mass.

use super::context::Context;
use crate::case::JanssenSpec;
use crate::math::{num, Real, PI};
use crate::record::{CheckOutcome, Curve, Plot};

/// One slice: centre height (m), vertical stress (Pa), stress ratio, porosity.
struct Slice {
    name: String,
    z: Real,
    szz: Real,
    k: Real,
    porosity: Real,
}

/// Evaluates a `janssen` check at the last record.
pub fn evaluate(ctx: &Context, j: &JanssenSpec, out: &mut CheckOutcome) {
    let last = |column: &str| -> Result<Real, String> {
        (ctx.series.column(column))
            .and_then(|y| y.last().copied())
            .ok_or_else(|| format!("series {column} was not recorded"))
    };
    let mut slices = Vec::new();
    for m in &j.profile {
        let Some(zone) = ctx
            .case
            .measures
            .iter()
            .find(|x| &x.name == m)
            .and_then(|x| x.zone.clone())
        else {
            return out.fail(format!("no measurement region named {m}"));
        };
        let (lo, hi) = zone.bounds();
        let read = |q: &str| last(&format!("measure/{m}/{q}"));
        let (sxx, syy, szz, porosity) = match (
            read("stress.xx"),
            read("stress.yy"),
            read("stress.zz"),
            read("porosity"),
        ) {
            (Ok(a), Ok(b), Ok(c), Ok(d)) => (a, b, c, d),
            (Err(e), ..) | (_, Err(e), ..) | (_, _, Err(e), _) | (.., Err(e)) => {
                return out.fail(e)
            }
        };
        slices.push(Slice {
            name: m.clone(),
            z: 0.5 * (lo.z + hi.z),
            szz,
            k: if szz > 0.0 {
                0.5 * (sxx + syy) / szz
            } else {
                0.0
            },
            porosity,
        });
    }
    slices.sort_by(|a, b| a.z.total_cmp(&b.z));
    let mass = match last(&j.mass_series) {
        Ok(m) => m,
        Err(e) => return out.fail(e),
    };
    let g = ctx.case.gravity.norm();
    let area = PI * j.diameter * j.diameter / 4.0;
    // the filled slices: less porous than a loose packing can be
    let filled: Vec<&Slice> = slices.iter().filter(|s| s.porosity < 0.6).collect();
    if filled.len() < 2 {
        return out.fail("fewer than two slices hold a packing (porosity below 0.6)".into());
    }
    let bulk = j.particle_density
        * (1.0 - filled.iter().map(|s| s.porosity).sum::<Real>() / filled.len() as Real);
    let surface = mass / (bulk * area);
    let deep: Vec<&&Slice> = filled
        .iter()
        .filter(|s| surface - s.z >= j.diameter)
        .collect();
    if deep.is_empty() {
        return out.fail(format!(
            "no slice lies a diameter below the surface at {} m",
            num(surface)
        ));
    }
    let k = deep.iter().map(|s| s.k).sum::<Real>() / deep.len() as Real;
    let lambda = j.diameter / (4.0 * j.wall_friction * k);
    let janssen = |z: Real| bulk * g * lambda * (1.0 - (-(surface - z).max(0.0) / lambda).exp());
    let saturation = bulk * g * lambda;
    let (mut worst, mut at) = (0.0, String::new());
    for s in &deep {
        let e = (s.szz / janssen(s.z) - 1.0).abs();
        if e > worst {
            (worst, at) = (e, s.name.clone());
        }
    }
    // the floor carries what the wall's friction leaves: the saturated stress times the area
    let floor_load = saturation * area * (1.0 - (-surface / lambda).exp());
    let mut floor_row = None;
    if let Some(column) = &j.floor_force {
        let measured = match last(column) {
            Ok(f) => f.abs(),
            Err(e) => return out.fail(e),
        };
        let e = (measured / floor_load - 1.0).abs();
        if e > worst {
            (worst, at) = (e, format!("the floor's load {column}"));
        }
        floor_row = Some((column.clone(), measured));
    }
    out.what = format!(
        "largest |measured / Janssen - 1| over the {} slices' sigma_zz deeper than one diameter{} \
         (worst: {at})",
        deep.len(),
        if floor_row.is_some() {
            " and the floor's load"
        } else {
            ""
        }
    );
    out.formula = format!(
        "sigma_v = rho_b g lambda (1 - exp(-(H - z)/lambda)), lambda = D / (4 mu_w K) = {} m, \
         saturating at rho_b g D / (4 mu_w K) = {} Pa (Janssen 1895); measured: rho_b = {} kg/m^3 \
         (porosity of the filled slices), K = {} ((sigma_xx + sigma_yy)/(2 sigma_zz) of the deep \
         slices), surface H = M / (rho_b pi D^2/4) = {} m; given: D = {} m, mu_w = {}; the floor \
         carries rho_b g lambda A (1 - exp(-H/lambda)) = {} N",
        num(lambda),
        num(saturation),
        num(bulk),
        num(k),
        num(surface),
        num(j.diameter),
        num(j.wall_friction),
        num(floor_load)
    );
    out.judge(worst, 0.0, crate::record::Tolerance::Absolute(j.tolerance));
    out.table.push(
        [
            "slice",
            "height (m)",
            "sigma_zz (Pa)",
            "Janssen (Pa)",
            "K",
            "porosity",
        ]
        .map(String::from)
        .to_vec(),
    );
    for s in &slices {
        out.table.push(vec![
            s.name.clone(),
            num(s.z),
            num(s.szz),
            num(janssen(s.z)),
            num(s.k),
            num(s.porosity),
        ]);
    }
    if let Some((column, measured)) = floor_row {
        out.table.push(vec![
            format!("floor ({column}), N"),
            "0".into(),
            num(measured),
            num(floor_load),
            "-".into(),
            "-".into(),
        ]);
    }
    let grid: Vec<Real> = (0..=100).map(|i| surface * i as Real / 100.0).collect();
    out.plots.push(Plot {
        title: "vertical stress against depth".into(),
        x_label: "depth below the surface (m)".into(),
        y_label: "sigma_zz (Pa)".into(),
        log_x: false,
        log_y: false,
        curves: vec![
            Curve {
                label: format!("Janssen, K = {}, saturation {} Pa", num(k), num(saturation)),
                x: grid.iter().map(|z| surface - z).collect(),
                y: grid.iter().map(|&z| janssen(z)).collect(),
                markers: false,
            },
            Curve {
                label: "hydrostatic rho_b g h".into(),
                x: vec![0.0, surface],
                y: vec![0.0, bulk * g * surface],
                markers: false,
            },
            Curve {
                label: "measured (Love-Weber, slices)".into(),
                x: slices.iter().map(|s| surface - s.z).collect(),
                y: slices.iter().map(|s| s.szz).collect(),
                markers: true,
            },
        ],
    });
}
