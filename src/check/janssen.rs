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
use super::keys::{nonneg, positive, read};
use super::kind::{Built, CheckKind};
use super::probe::Probe;
use crate::math::{num, Real, PI};
use crate::output::SeriesTable;
use crate::record::{CheckOutcome, Curve, Plot};
use serde::Deserialize;

/// `janssen`: the vertical stress measured in horizontal slices of a column at rest against
/// Janssen's `sigma_v = rho_b g lambda (1 - exp(-depth / lambda))`, `lambda = D / (4 mu_w K)`,
/// with the bulk density, the stress ratio K and the free surface measured (its keys, as
/// written).
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Janssen {
    /// The measurement regions (`[[measure]]` names): horizontal slices of the column.
    profile: Vec<String>,
    /// The total mass of the balls, kg (`balls/mass`): with the bulk density and the column's
    /// cross-section it gives the height of the free surface.
    mass_series: String,
    /// The column's diameter D, m.
    diameter: Real,
    /// Friction coefficient of the balls on the column's wall.
    wall_friction: Real,
    /// The particles' density, kg/m^3.
    particle_density: Real,
    /// Relative tolerance on each slice deeper than one diameter (and on the floor's load).
    tolerance: Real,
    /// Optional: a series holding the load of the balls on the column's floor, N (for instance
    /// `wall/floor/force.z`, its magnitude is used), judged against Janssen's floor load
    /// `rho_b g lambda A (1 - exp(-H / lambda))` with the same tolerance.
    #[serde(default)]
    floor_force: Option<String>,
}

impl CheckKind for Janssen {
    fn parse(_: &str, keys: toml::Value) -> Result<Self, String> {
        let j: Janssen = read(keys)?;
        positive([
            ("diameter", j.diameter),
            ("wall_friction", j.wall_friction),
            ("particle_density", j.particle_density),
        ])?;
        if j.profile.len() < 3 {
            return Err("profile: give at least three measurement regions".into());
        }
        for (k, m) in j.profile.iter().enumerate() {
            if j.profile[..k].contains(m) {
                return Err(format!(
                    "profile[{}]: slice \"{m}\" is named twice: each slice is one depth of the \
                     profile",
                    k + 1
                ));
            }
        }
        nonneg("tolerance", j.tolerance)?;
        Ok(j)
    }

    fn kind(&self) -> &'static str {
        "janssen"
    }

    fn validate(&self, built: &Built) -> Result<(), String> {
        let model = built.model;
        crate::output::Source::parse(&self.mass_series, model)?;
        for m in &self.profile {
            match model.measures.iter().find(|x| &x.name == m) {
                Some(x) if x.zone.is_some() => {}
                Some(_) => {
                    return Err(format!(
                        "measurement region \"{m}\" covers everything: a profile needs slices"
                    ))
                }
                None => return Err(format!("no measurement region named \"{m}\"")),
            }
        }
        Ok(())
    }

    fn evaluate(&self, ctx: &Context, _: Option<&Probe>, out: &mut CheckOutcome) {
        out.code.push("src/output/measure.rs::measure".into());
        out.code.push("src/check/janssen.rs::evaluate".into());
        judge(ctx, self, out);
    }
}

/// One slice: centre height (m), vertical stress (Pa), stress ratio, porosity.
struct Slice {
    name: String,
    z: Real,
    szz: Real,
    k: Real,
    porosity: Real,
}

/// The last recorded value of `column`.
fn last(series: &SeriesTable, column: &str) -> Result<Real, String> {
    (series.column(column))
        .and_then(|y| y.last().copied())
        .ok_or_else(|| format!("series {column} was not recorded"))
}

/// The slices of the profile at the last record, from the bottom up.
fn slices(ctx: &Context, j: &Janssen) -> Result<Vec<Slice>, String> {
    let mut slices = Vec::new();
    for m in &j.profile {
        let Some(zone) = (ctx.case.measures().iter())
            .find(|x| &x.name == m)
            .and_then(|x| x.zone.clone())
        else {
            return Err(format!("no measurement region named {m}"));
        };
        let (lo, hi) = zone.bounds();
        let read = |q: &str| last(ctx.series, &format!("measure/{m}/{q}"));
        let (sxx, syy, szz, porosity) = match (
            read("stress.xx"),
            read("stress.yy"),
            read("stress.zz"),
            read("porosity"),
        ) {
            (Ok(a), Ok(b), Ok(c), Ok(d)) => (a, b, c, d),
            (Err(e), ..) | (_, Err(e), ..) | (_, _, Err(e), _) | (.., Err(e)) => return Err(e),
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
    Ok(slices)
}

/// Janssen's profile with every number measured.
struct Profile {
    /// Bulk density rho_b, kg/m^3.
    bulk: Real,
    /// |g|, m/s^2.
    g: Real,
    /// Height of the free surface H, m.
    surface: Real,
    /// Stress ratio K.
    k: Real,
    /// lambda = D / (4 mu_w K), m.
    lambda: Real,
    /// The column's cross-section, m^2.
    area: Real,
}

impl Profile {
    /// The vertical stress at height `z`, Pa.
    fn stress(&self, z: Real) -> Real {
        self.bulk
            * self.g
            * self.lambda
            * (1.0 - (-(self.surface - z).max(0.0) / self.lambda).exp())
    }

    /// The stress deep down, rho_b g lambda, Pa.
    fn saturation(&self) -> Real {
        self.bulk * self.g * self.lambda
    }

    /// The floor carries what the wall's friction leaves: the saturated stress times the
    /// area, N.
    fn floor_load(&self) -> Real {
        self.saturation() * self.area * (1.0 - (-self.surface / self.lambda).exp())
    }
}

/// Evaluates a `janssen` check at the last record.
fn judge(ctx: &Context, j: &Janssen, out: &mut CheckOutcome) {
    let slices = match slices(ctx, j) {
        Ok(s) => s,
        Err(e) => return out.fail(e),
    };
    let mass = match last(ctx.series, &j.mass_series) {
        Ok(m) => m,
        Err(e) => return out.fail(e),
    };
    let g = ctx.case.gravity().norm();
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
    let p = Profile {
        bulk,
        g,
        surface,
        k,
        lambda,
        area,
    };
    let (mut worst, mut at) = (0.0, String::new());
    for s in &deep {
        let e = (s.szz / p.stress(s.z) - 1.0).abs();
        if e > worst {
            (worst, at) = (e, s.name.clone());
        }
    }
    let mut floor_row = None;
    if let Some(column) = &j.floor_force {
        let measured = match last(ctx.series, column) {
            Ok(f) => f.abs(),
            Err(e) => return out.fail(e),
        };
        let e = (measured / p.floor_load() - 1.0).abs();
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
    out.formula = formula(j, &p);
    out.judge(worst, 0.0, crate::record::Tolerance::Absolute(j.tolerance));
    tabulate(&slices, &p, floor_row, out);
    plot(&slices, &p, out);
}

/// The profile with its measured numbers, in words.
fn formula(j: &Janssen, p: &Profile) -> String {
    format!(
        "sigma_v = rho_b g lambda (1 - exp(-(H - z)/lambda)), lambda = D / (4 mu_w K) = {} m, \
         saturating at rho_b g D / (4 mu_w K) = {} Pa (Janssen 1895); measured: rho_b = {} kg/m^3 \
         (porosity of the filled slices), K = {} ((sigma_xx + sigma_yy)/(2 sigma_zz) of the deep \
         slices), surface H = M / (rho_b pi D^2/4) = {} m; given: D = {} m, mu_w = {}; the floor \
         carries rho_b g lambda A (1 - exp(-H/lambda)) = {} N",
        num(p.lambda),
        num(p.saturation()),
        num(p.bulk),
        num(p.k),
        num(p.surface),
        num(j.diameter),
        num(j.wall_friction),
        num(p.floor_load())
    )
}

/// Each slice against the profile, and the floor's load if judged.
fn tabulate(
    slices: &[Slice],
    p: &Profile,
    floor_row: Option<(String, Real)>,
    out: &mut CheckOutcome,
) {
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
    for s in slices {
        out.table.push(vec![
            s.name.clone(),
            num(s.z),
            num(s.szz),
            num(p.stress(s.z)),
            num(s.k),
            num(s.porosity),
        ]);
    }
    if let Some((column, measured)) = floor_row {
        out.table.push(vec![
            format!("floor ({column}), N"),
            "0".into(),
            num(measured),
            num(p.floor_load()),
            "-".into(),
            "-".into(),
        ]);
    }
}

/// The profile against depth, with the hydrostatic line and the slices.
fn plot(slices: &[Slice], p: &Profile, out: &mut CheckOutcome) {
    let (surface, saturation) = (p.surface, p.saturation());
    let grid: Vec<Real> = (0..=100).map(|i| surface * i as Real / 100.0).collect();
    out.plots.push(Plot {
        title: "vertical stress against depth".into(),
        x_label: "depth below the surface (m)".into(),
        y_label: "sigma_zz (Pa)".into(),
        log_x: false,
        log_y: false,
        curves: vec![
            Curve {
                label: format!(
                    "Janssen, K = {}, saturation {} Pa",
                    num(p.k),
                    num(saturation)
                ),
                x: grid.iter().map(|z| surface - z).collect(),
                y: grid.iter().map(|&z| p.stress(z)).collect(),
                markers: false,
            },
            Curve {
                label: "hydrostatic rho_b g h".into(),
                x: vec![0.0, surface],
                y: vec![0.0, p.bulk * p.g * surface],
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
