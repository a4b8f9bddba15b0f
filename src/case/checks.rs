//! The check grammar of case files: `[[check]]` tables read into [`CheckSpec`], validated
//! against the model the case builds. What each check measures and how it judges is
//! [`crate::check`].

use super::reference::Reference;
use super::{CaseError, RunSection};
use crate::math::Real;
use crate::model::Model;
use crate::output::base_series;
use crate::record::Tolerance;
use crate::timestep::Estimator;
use serde::Deserialize;

/// The series the check reads.
pub const ENERGY_SERIES: [&str; 7] = [
    "energy/kinetic",
    "energy/strain",
    "energy/potential",
    "energy/dissipated",
    "energy/work",
    "energy/balance",
    "energy/integrator",
];

/// A check as written in a case file.
#[derive(Clone, Debug, PartialEq)]
pub enum CheckSpec {
    /// Period of an oscillating series.
    Harmonic {
        /// Column judged.
        series: String,
        /// Expected period, s.
        period: Real,
        /// Relative tolerance.
        tolerance: Real,
        /// Instead of a tolerance: pass when measured / period is at most this (project
        /// extension: "stiffer than", a shorter period than the reference).
        max_ratio: Option<Real>,
        /// How the expected value was derived (shown in the report).
        formula: Option<String>,
    },
    /// Restitution (`Measure::Restitution`) or contact duration of the first collision.
    Collision {
        /// Which quantity.
        measure: Measure,
        /// Id of the ball.
        ball: u64,
        /// The other body: a ball id or a wall name.
        other: Other,
        /// Expected value; None: the closed form of the contact model.
        expected: Option<Real>,
        /// Relative tolerance.
        tolerance: Real,
    },
    /// The radii an insertion placed against its distribution: the Kolmogorov-Smirnov
    /// statistic, by number or by mass (project extension).
    RadiusDistribution {
        /// The insertion's name.
        insert: String,
        /// Weigh each ball by its mass (r^3) instead of counting it.
        by_mass: bool,
        /// Confidence of the test (the critical value's level), in (0, 1).
        confidence: Real,
    },
    /// A signed sum of series that must stay zero at every record (project extension).
    Identity {
        /// (sign, column) of each term.
        terms: Vec<(Real, String)>,
        /// Largest |sum| allowed.
        abs_tolerance: Real,
        /// What the identity says.
        formula: Option<String>,
    },
    /// A silo's discharge rate against Beverloo's law fitted to two other cases (project
    /// extension).
    Beverloo(BeverlooSpec),
    /// A contact's normal force against its overlap on JKR's curve, and its pull-off force.
    Jkr(JkrSpec),
    /// The vertical stress down a column at rest against Janssen's profile (project
    /// extension).
    Janssen(JanssenSpec),
    /// The last recorded value of a series.
    FinalValue {
        /// Column judged.
        series: String,
        /// Expected value.
        expected: Real,
        /// Tolerance.
        tolerance: Tolerance,
        /// How the expected value was derived.
        formula: Option<String>,
    },
    /// A series against an analytic function of time at every record (project extension).
    Analytic {
        /// Column judged.
        series: String,
        /// The function.
        reference: Reference,
        /// Tolerance on the largest error (relative: to the largest |reference|).
        tolerance: Tolerance,
        /// How the reference was derived.
        formula: Option<String>,
        /// Only the records at or after this time, s (0: all).
        after: Real,
    },
    /// The same series from another case.
    SameSeries {
        /// Column judged.
        series: String,
        /// Path of the other case, relative to this case file.
        case: String,
        /// Tolerance on the largest difference relative to the largest |other|.
        tolerance: Real,
    },
    /// Error against an analytic solution for several timesteps; the fitted order of accuracy
    /// (project extension).
    Convergence {
        /// Column judged.
        series: String,
        /// The timesteps, s.
        dts: Vec<Real>,
        /// The exact solution.
        reference: Reference,
        /// Expected order.
        expected_order: Real,
        /// Absolute tolerance on the order.
        abs_tolerance: Real,
        /// How the reference was derived.
        formula: Option<String>,
    },
    /// Drift of a conserved quantity for several timesteps (project extension).
    Drift {
        /// A column, or a vector series (judged by norms).
        series: String,
        /// The timesteps, s.
        dts: Vec<Real>,
        /// Largest accepted relative drift.
        tolerance: Real,
        /// Expected order in dt and its absolute tolerance, if judged.
        order: Option<(Real, Real)>,
        /// Why the quantity is conserved.
        formula: Option<String>,
    },
    /// A critical-timestep estimate against the exact eigenvalue (docs/CASES.md, section 14).
    CriticalTimestep(CriticalSpec),
    /// Cycles to reach the solve ratio against another case (project extension).
    CyclesRatio {
        /// Path of the other case, relative to this case file.
        case: String,
        /// Largest accepted ratio.
        max_ratio: Real,
    },
    /// Active contacts between a ball and a wall at every cycle (docs/CASES.md, section 14).
    ActiveCount {
        /// Ball id.
        ball: u64,
        /// Wall name.
        wall: String,
        /// Expected count from each time on: (from_time s, count), increasing times.
        schedule: Vec<(Real, u32)>,
    },
    /// Largest turn of a unit-vector series in one cycle (project extension).
    MaxTurn {
        /// A vector series (no component).
        series: String,
        /// Largest accepted turn per cycle, degrees.
        max_deg: Real,
    },
    /// Drops of a series larger than a threshold, counted (project extension).
    Drops {
        /// Column judged.
        series: String,
        /// Smallest fall from one record to the next that counts, in the column's units.
        min_drop: Real,
        /// Expected number of drops.
        expected: u32,
        /// Where the expected count comes from.
        formula: Option<String>,
    },
    /// The run's energy accounted for (docs/CASES.md, section 13).
    EnergyBalance {
        /// Largest accepted |balance| relative to the run's scale.
        tolerance: Real,
        /// Judge the balance less the integration error the books measure (`energy/integrator`,
        /// project extension).
        subtract_integrator: bool,
        /// Largest accepted fall of `energy/dissipated` between two records, relative to the
        /// scale (energy a contact model gave back; default: the tolerance).
        max_fall: Real,
        /// Why the tolerance is what it is (shown in the report).
        formula: Option<String>,
    },
    /// The run's summary and final values against `golden/<name>.snap`.
    Golden {
        /// Relative tolerance on each number.
        tolerance: Real,
    },
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HarmonicKeys {
    series: String,
    period: Real,
    tolerance: Option<Real>,
    max_ratio: Option<Real>,
    formula: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DropsKeys {
    series: String,
    min_drop: Real,
    expected: i64,
    formula: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ActiveKeys {
    ball: u64,
    wall: String,
    expected: toml::Value,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TurnKeys {
    series: String,
    max_deg: Real,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CollisionKeys {
    ball: u64,
    other: toml::Value,
    expected: Option<Real>,
    tolerance: Real,
}

/// `beverloo`: the discharge rate of this case's silo against Beverloo's law
/// `W = C rho_b sqrt(g) (D - k d)^(5/2)` with C and k fitted to two other cases.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct BeverlooSpec {
    /// The cumulative mass discharged, kg (an outlet's `mass`).
    pub series: String,
    /// The time window of the rate, s: the slope of a straight line fitted to the records in it.
    pub window: [Real; 2],
    /// This case's orifice diameter, m.
    pub orifice: Real,
    /// The particle diameter d, m.
    pub particle_diameter: Real,
    /// The particles' density, kg/m^3.
    pub particle_density: Real,
    /// The porosity of the packing (a measure's `porosity`): rho_b = density (1 - porosity).
    pub porosity_series: String,
    /// The time at which the porosity is read (the packing at rest before the discharge), s.
    pub porosity_at: Real,
    /// The two cases that fit C and k.
    pub fit: Vec<FitCase>,
    /// Relative tolerance of the predicted rate.
    pub tolerance: Real,
    /// Accepted range of C (default the published range [0.5, 0.7]).
    pub c_range: Option<[Real; 2]>,
    /// Accepted range of k (default the published range [1, 3]).
    pub k_range: Option<[Real; 2]>,
}

/// `janssen`: the vertical stress measured in horizontal slices of a column at rest against
/// Janssen's `sigma_v = rho_b g lambda (1 - exp(-depth / lambda))`, `lambda = D / (4 mu_w K)`,
/// with the bulk density, the stress ratio K and the free surface measured.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct JanssenSpec {
    /// The measurement regions (`[[measure]]` names): horizontal slices of the column.
    pub profile: Vec<String>,
    /// The total mass of the balls, kg (`balls/mass`): with the bulk density and the column's
    /// cross-section it gives the height of the free surface.
    pub mass_series: String,
    /// The column's diameter D, m.
    pub diameter: Real,
    /// Friction coefficient of the balls on the column's wall.
    pub wall_friction: Real,
    /// The particles' density, kg/m^3.
    pub particle_density: Real,
    /// Relative tolerance on each slice deeper than one diameter (and on the floor's load).
    pub tolerance: Real,
    /// Optional: a series holding the load of the balls on the column's floor, N (for instance
    /// `wall/floor/force.z`, its magnitude is used), judged against Janssen's floor load
    /// `rho_b g lambda A (1 - exp(-H / lambda))` with the same tolerance.
    #[serde(default)]
    pub floor_force: Option<String>,
}

/// `jkr`: a contact's normal force against its overlap on JKR's curve, over every record, and
/// the smallest force against the pull-off force `(3/2) pi w R` (the constants given here, not
/// taken from the case's materials: the reference is independent of the case's reading).
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct JkrSpec {
    /// The normal force on the contact's second piece along the normal (positive: repulsion),
    /// a column, N (for instance `ball/2/force.x`).
    pub force: String,
    /// The contact's overlap, a column, m (`interaction/<a>/<b>/overlap`).
    pub overlap: String,
    /// The work of adhesion w, J/m^2.
    pub surface_energy: Real,
    /// The effective modulus E*, Pa.
    pub e_star: Real,
    /// The effective radius R*, m.
    pub radius: Real,
    /// Absolute tolerance on `|F - F_JKR| / F_pull-off` at every record, and on
    /// `|F_min / F_pull-off + 1|`.
    pub tolerance: Real,
}

/// A case that fits Beverloo's constants, with its orifice diameter.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct FitCase {
    /// Path of the case file, relative to this case.
    pub case: String,
    /// Its orifice diameter, m.
    pub orifice: Real,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RadiusKeys {
    insert: String,
    by: Option<String>,
    confidence: Option<Real>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct IdentityKeys {
    terms: Vec<String>,
    abs_tolerance: Real,
    formula: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FinalKeys {
    series: String,
    expected: Real,
    tolerance: Option<Real>,
    abs_tolerance: Option<Real>,
    formula: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AnalyticKeys {
    series: String,
    reference: Reference,
    tolerance: Option<Real>,
    abs_tolerance: Option<Real>,
    formula: Option<String>,
    after: Option<Real>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SameKeys {
    series: String,
    case: String,
    tolerance: Real,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ConvergenceKeys {
    series: String,
    dts: Vec<Real>,
    reference: Reference,
    expected_order: Option<Real>,
    abs_tolerance: Option<Real>,
    formula: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DriftKeys {
    series: String,
    dts: Vec<Real>,
    tolerance: Real,
    expected_order: Option<Real>,
    abs_tolerance: Option<Real>,
    formula: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CriticalKeys {
    at_step: Option<u64>,
    max_ratio: Option<Real>,
    min_ratio: Option<Real>,
    estimator: Option<String>,
    exact: Option<Real>,
    exact_tolerance: Option<Real>,
    formula: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CyclesKeys {
    case: String,
    max_ratio: Real,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EnergyKeys {
    tolerance: Option<Real>,
    subtract_integrator: Option<bool>,
    max_fall: Option<Real>,
    formula: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GoldenKeys {
    tolerance: Option<Real>,
}

fn tolerance_of(rel: Option<Real>, abs: Option<Real>) -> Result<Tolerance, String> {
    match (rel, abs) {
        (Some(r), None) if r.is_finite() && r >= 0.0 => Ok(Tolerance::Relative(r)),
        (None, Some(a)) if a.is_finite() && a >= 0.0 => Ok(Tolerance::Absolute(a)),
        (Some(_), Some(_)) | (None, None) => {
            Err("give exactly one of `tolerance` (relative) and `abs_tolerance`".into())
        }
        _ => Err("a tolerance must be a non-negative finite number".into()),
    }
}

fn nonneg(name: &str, v: Real) -> Result<Real, String> {
    if v.is_finite() && v >= 0.0 {
        Ok(v)
    } else {
        Err(format!(
            "{name} = {v}: must be a non-negative finite number"
        ))
    }
}

impl CheckSpec {
    /// Parses the `k`-th `[[check]]` table (numbered from 1).
    ///
    /// # Errors
    /// An unknown kind, an unknown or missing key, a bad value.
    pub fn parse(file: &str, k: usize, table: &toml::Table) -> Result<CheckSpec, CaseError> {
        let kind = table.get("kind").and_then(|v| v.as_str()).unwrap_or("");
        let key = format!("check[{k}]");
        let err = |reason: String| CaseError::new(file, format!("{key} ({kind})"), reason);
        let mut rest = table.clone();
        rest.remove("kind");
        let value = toml::Value::Table(rest);
        fn keys<T: serde::de::DeserializeOwned>(v: toml::Value) -> Result<T, String> {
            v.try_into()
                .map_err(|e: toml::de::Error| e.message().trim().to_string())
        }
        let spec = match kind {
            "harmonic" => {
                let h: HarmonicKeys = keys(value).map_err(err)?;
                if !(h.period.is_finite() && h.period > 0.0) {
                    return Err(err(format!("period = {}: must be positive (s)", h.period)));
                }
                let (tolerance, max_ratio) = match (h.tolerance, h.max_ratio) {
                    (Some(t), None) => (nonneg("tolerance", t).map_err(err)?, None),
                    (None, Some(r)) if r.is_finite() && r > 0.0 => (0.0, Some(r)),
                    (None, Some(r)) => return Err(err(format!("max_ratio = {r}: must be positive"))),
                    _ => return Err(err("give exactly one of `tolerance` and `max_ratio`".into())),
                };
                CheckSpec::Harmonic {
                    series: h.series,
                    period: h.period,
                    tolerance,
                    max_ratio,
                    formula: h.formula,
                }
            }
            k if Measure::ALL.iter().any(|m| m.kind() == k) => {
                let c: CollisionKeys = keys(value).map_err(err)?;
                let other = match &c.other {
                    toml::Value::Integer(i) if *i >= 0 => Other::Ball(*i as u64),
                    toml::Value::String(w) => Other::Wall(w.clone()),
                    v => return Err(err(format!("other = {v}: must be a ball id or a wall name"))),
                };
                if let Some(e) = c.expected {
                    if !e.is_finite() {
                        return Err(err(format!("expected = {e}: must be finite")));
                    }
                }
                CheckSpec::Collision {
                    measure: Measure::ALL.into_iter().find(|m| m.kind() == kind).unwrap_or(Measure::Restitution),
                    ball: c.ball,
                    other,
                    expected: c.expected,
                    tolerance: nonneg("tolerance", c.tolerance).map_err(err)?,
                }
            }
            "radius_distribution" => {
                let k: RadiusKeys = keys(value).map_err(err)?;
                let by_mass = match k.by.as_deref().unwrap_or("number") {
                    "number" => false,
                    "mass" => true,
                    o => return Err(err(format!("by = \"{o}\": expected \"number\" or \"mass\""))),
                };
                let confidence = k.confidence.unwrap_or(0.99);
                if !(confidence > 0.0 && confidence < 1.0) {
                    return Err(err(format!("confidence = {confidence}: must lie in (0, 1)")));
                }
                CheckSpec::RadiusDistribution {
                    insert: k.insert,
                    by_mass,
                    confidence,
                }
            }
            "identity" => {
                let k: IdentityKeys = keys(value).map_err(err)?;
                if k.terms.is_empty() {
                    return Err(err("terms: give at least one series".into()));
                }
                let terms = (k.terms.iter())
                    .map(|t| match t.strip_prefix('-') {
                        Some(rest) => (-1.0, rest.to_string()),
                        None => (1.0, t.strip_prefix('+').unwrap_or(t).to_string()),
                    })
                    .collect();
                CheckSpec::Identity {
                    terms,
                    abs_tolerance: nonneg("abs_tolerance", k.abs_tolerance).map_err(err)?,
                    formula: k.formula,
                }
            }
            "janssen" => {
                let j: JanssenSpec = keys(value).map_err(err)?;
                for (what, v) in [
                    ("diameter", j.diameter),
                    ("wall_friction", j.wall_friction),
                    ("particle_density", j.particle_density),
                ] {
                    if !(v.is_finite() && v > 0.0) {
                        return Err(err(format!("{what} = {v}: must be a positive finite number")));
                    }
                }
                if j.profile.len() < 3 {
                    return Err(err("profile: give at least three measurement regions".into()));
                }
                nonneg("tolerance", j.tolerance).map_err(err)?;
                CheckSpec::Janssen(j)
            }
            "jkr" => {
                let j: JkrSpec = keys(value).map_err(err)?;
                for (what, v) in [
                    ("surface_energy", j.surface_energy),
                    ("e_star", j.e_star),
                    ("radius", j.radius),
                ] {
                    if !(v.is_finite() && v > 0.0) {
                        return Err(err(format!("{what} = {v}: must be a positive finite number")));
                    }
                }
                nonneg("tolerance", j.tolerance).map_err(err)?;
                CheckSpec::Jkr(j)
            }
            "beverloo" => {
                let b: BeverlooSpec = keys(value).map_err(err)?;
                for (what, v) in [
                    ("orifice", b.orifice),
                    ("particle_diameter", b.particle_diameter),
                    ("particle_density", b.particle_density),
                ]
                .into_iter()
                .chain(b.fit.iter().map(|c| ("fit.orifice", c.orifice)))
                {
                    if !(v.is_finite() && v > 0.0) {
                        return Err(err(format!("{what} = {v}: must be a positive finite number")));
                    }
                }
                if b.fit.len() != 2 || b.fit[0].orifice == b.fit[1].orifice {
                    return Err(err("fit: give two cases with different orifices".into()));
                }
                if !(b.window[0].is_finite() && b.window[1] > b.window[0]) {
                    return Err(err(format!("window = {:?}: must be [start, end], end after start (s)", b.window)));
                }
                nonneg("tolerance", b.tolerance).map_err(err)?;
                CheckSpec::Beverloo(b)
            }
            "final_value" => {
                let f: FinalKeys = keys(value).map_err(err)?;
                if !f.expected.is_finite() {
                    return Err(err(format!("expected = {}: must be finite", f.expected)));
                }
                CheckSpec::FinalValue {
                    series: f.series,
                    expected: f.expected,
                    tolerance: tolerance_of(f.tolerance, f.abs_tolerance).map_err(err)?,
                    formula: f.formula,
                }
            }
            "analytic" => {
                let a: AnalyticKeys = keys(value).map_err(err)?;
                a.reference.validate().map_err(err)?;
                let after = a.after.unwrap_or(0.0);
                if !(after.is_finite() && after >= 0.0) {
                    return Err(err(format!("after = {after}: must be a finite time >= 0 (s)")));
                }
                CheckSpec::Analytic {
                    series: a.series,
                    reference: a.reference,
                    tolerance: tolerance_of(a.tolerance, a.abs_tolerance).map_err(err)?,
                    formula: a.formula,
                    after,
                }
            }
            "same_series" => {
                let s: SameKeys = keys(value).map_err(err)?;
                CheckSpec::SameSeries {
                    series: s.series,
                    case: s.case,
                    tolerance: nonneg("tolerance", s.tolerance).map_err(err)?,
                }
            }
            "convergence" => {
                let c: ConvergenceKeys = keys(value).map_err(err)?;
                c.reference.validate().map_err(err)?;
                if c.dts.len() < 2 || c.dts.iter().any(|d| !(d.is_finite() && *d > 0.0)) {
                    return Err(err("dts: give at least two positive timesteps (s)".into()));
                }
                CheckSpec::Convergence {
                    series: c.series,
                    dts: c.dts,
                    reference: c.reference,
                    expected_order: c.expected_order.unwrap_or(2.0),
                    abs_tolerance: nonneg("abs_tolerance", c.abs_tolerance.unwrap_or(0.1)).map_err(err)?,
                    formula: c.formula,
                }
            }
            "drift" => {
                let d: DriftKeys = keys(value).map_err(err)?;
                if d.dts.is_empty() || d.dts.iter().any(|x| !(x.is_finite() && *x > 0.0)) {
                    return Err(err("dts: give positive timesteps (s)".into()));
                }
                if d.expected_order.is_some() && d.dts.len() < 2 {
                    return Err(err("dts: an expected order needs at least two timesteps".into()));
                }
                if d.abs_tolerance.is_some() && d.expected_order.is_none() {
                    return Err(err("abs_tolerance: only with expected_order".into()));
                }
                CheckSpec::Drift {
                    series: d.series,
                    dts: d.dts,
                    tolerance: nonneg("tolerance", d.tolerance).map_err(err)?,
                    order: match d.expected_order {
                        Some(p) if p.is_finite() => Some((p, nonneg("abs_tolerance", d.abs_tolerance.unwrap_or(0.2)).map_err(err)?)),
                        Some(p) => return Err(err(format!("expected_order = {p}: must be finite"))),
                        None => None,
                    },
                    formula: d.formula,
                }
            }
            "energy_balance" => {
                let e: EnergyKeys = keys(value).map_err(err)?;
                let tolerance = nonneg("tolerance", e.tolerance.unwrap_or(1e-6)).map_err(err)?;
                CheckSpec::EnergyBalance {
                    tolerance,
                    subtract_integrator: e.subtract_integrator.unwrap_or(false),
                    max_fall: nonneg("max_fall", e.max_fall.unwrap_or(tolerance)).map_err(err)?,
                    formula: e.formula,
                }
            }
            "golden" => {
                let g: GoldenKeys = keys(value).map_err(err)?;
                CheckSpec::Golden {
                    tolerance: nonneg("tolerance", g.tolerance.unwrap_or(1e-8)).map_err(err)?,
                }
            }
            "critical_timestep" => {
                let c: CriticalKeys = keys(value).map_err(err)?;
                let estimator = match c.estimator.as_deref() {
                    None => None,
                    Some("diagonal") => Some(crate::timestep::Estimator::Diagonal),
                    Some("bound") => Some(crate::timestep::Estimator::Bound),
                    Some(e) => return Err(err(format!("estimator = \"{e}\": expected \"diagonal\" or \"bound\""))),
                };
                let max_ratio = c.max_ratio.unwrap_or(1.0);
                if !(max_ratio.is_finite() && max_ratio > 0.0) {
                    return Err(err(format!("max_ratio = {max_ratio}: must be positive")));
                }
                if let Some(lo) = c.min_ratio {
                    if !(lo.is_finite() && lo >= 0.0 && lo <= max_ratio) {
                        return Err(err(format!("min_ratio = {lo}: must be between 0 and max_ratio")));
                    }
                }
                if let Some(x) = c.exact {
                    if !(x.is_finite() && x > 0.0) {
                        return Err(err(format!("exact = {x}: must be a positive timestep (s)")));
                    }
                }
                CheckSpec::CriticalTimestep(CriticalSpec {
                    at_step: c.at_step.unwrap_or(0),
                    max_ratio,
                    min_ratio: c.min_ratio,
                    estimator,
                    exact: c.exact,
                    exact_tolerance: nonneg("exact_tolerance", c.exact_tolerance.unwrap_or(1e-9)).map_err(err)?,
                    formula: c.formula,
                })
            }
            "cycles_ratio" => {
                let c: CyclesKeys = keys(value).map_err(err)?;
                if !(c.max_ratio.is_finite() && c.max_ratio > 0.0) {
                    return Err(err(format!("max_ratio = {}: must be positive", c.max_ratio)));
                }
                CheckSpec::CyclesRatio { case: c.case, max_ratio: c.max_ratio }
            }
            "active_count" => {
                let a: ActiveKeys = keys(value).map_err(err)?;
                let count = |v: &toml::Value| -> Option<u32> {
                    v.as_integer().filter(|&c| (0..=u32::MAX as i64).contains(&c)).map(|c| c as u32)
                };
                let schedule = match &a.expected {
                    toml::Value::Integer(_) => vec![(0.0, count(&a.expected).ok_or_else(|| err("expected: a count must be a non-negative integer".into()))?)],
                    toml::Value::Array(pairs) => {
                        let mut out = Vec::new();
                        for p in pairs {
                            let pair = p.as_array().filter(|x| x.len() == 2);
                            let t = pair.and_then(|x| x[0].as_float().or(x[0].as_integer().map(|i| i as Real)));
                            let c = pair.and_then(|x| count(&x[1]));
                            match (t, c) {
                                (Some(t), Some(c)) if t.is_finite() && t >= 0.0 && out.last().is_none_or(|&(u, _)| t > u) => out.push((t, c)),
                                _ => return Err(err(format!("expected: {p} must be [from_time, count], times increasing, counts non-negative integers"))),
                            }
                        }
                        if out.is_empty() {
                            return Err(err("expected: the schedule is empty".into()));
                        }
                        out
                    }
                    v => return Err(err(format!("expected = {v}: an integer or a list of [from_time, count] pairs"))),
                };
                CheckSpec::ActiveCount { ball: a.ball, wall: a.wall, schedule }
            }
            "max_turn" => {
                let t: TurnKeys = keys(value).map_err(err)?;
                if !(t.max_deg.is_finite() && t.max_deg > 0.0) {
                    return Err(err(format!("max_deg = {}: must be a positive angle (degrees)", t.max_deg)));
                }
                CheckSpec::MaxTurn { series: t.series, max_deg: t.max_deg }
            }
            "drops" => {
                let d: DropsKeys = keys(value).map_err(err)?;
                if !(d.min_drop.is_finite() && d.min_drop > 0.0) {
                    return Err(err(format!("min_drop = {}: must be positive", d.min_drop)));
                }
                let expected = u32::try_from(d.expected)
                    .map_err(|_| err(format!("expected = {}: a count must be a non-negative integer", d.expected)))?;
                CheckSpec::Drops { series: d.series, min_drop: d.min_drop, expected, formula: d.formula }
            }
            "" => return Err(CaseError::new(file, key, "missing `kind`")),
            other => {
                return Err(CaseError::new(file, format!("{key}.kind"), format!(
                    "unknown check kind \"{other}\" (harmonic, restitution, contact_duration, critical_timestep, final_value, same_series, golden, energy_balance, analytic, convergence, drift, cycles_ratio, active_count, max_turn, drops, radius_distribution, identity, beverloo, janssen)"
                )))
            }
        };
        Ok(spec)
    }

    /// The kind as written in case files.
    pub fn kind(&self) -> &'static str {
        match self {
            CheckSpec::Harmonic { .. } => "harmonic",
            CheckSpec::Collision { measure, .. } => measure.kind(),
            CheckSpec::FinalValue { .. } => "final_value",
            CheckSpec::RadiusDistribution { .. } => "radius_distribution",
            CheckSpec::Identity { .. } => "identity",
            CheckSpec::Beverloo(_) => "beverloo",
            CheckSpec::Janssen(_) => "janssen",
            CheckSpec::Jkr(_) => "jkr",
            CheckSpec::Analytic { .. } => "analytic",
            CheckSpec::SameSeries { .. } => "same_series",
            CheckSpec::Convergence { .. } => "convergence",
            CheckSpec::Drift { .. } => "drift",
            CheckSpec::CriticalTimestep(_) => "critical_timestep",
            CheckSpec::CyclesRatio { .. } => "cycles_ratio",
            CheckSpec::ActiveCount { .. } => "active_count",
            CheckSpec::MaxTurn { .. } => "max_turn",
            CheckSpec::Drops { .. } => "drops",
            CheckSpec::EnergyBalance { .. } => "energy_balance",
            CheckSpec::Golden { .. } => "golden",
        }
    }

    /// The column this check judges, if any.
    pub fn series(&self) -> Option<&str> {
        match self {
            CheckSpec::Harmonic { series, .. }
            | CheckSpec::FinalValue { series, .. }
            | CheckSpec::Analytic { series, .. }
            | CheckSpec::SameSeries { series, .. }
            | CheckSpec::Drops { series, .. }
            | CheckSpec::Convergence { series, .. } => Some(series),
            _ => None,
        }
    }

    /// Further series this check reads (recorded for it).
    pub fn extra_series(&self) -> Vec<String> {
        match self {
            CheckSpec::EnergyBalance { .. } => {
                ENERGY_SERIES.iter().map(|s| s.to_string()).collect()
            }
            CheckSpec::Identity { terms, .. } => terms
                .iter()
                .map(|(_, s)| base_series(s).to_string())
                .collect(),
            _ => Vec::new(),
        }
    }

    /// Checks what only the model can tell: the bodies and series named exist.
    ///
    /// # Errors
    /// A sentence naming what is missing.
    pub fn validate(
        &self,
        model: &Model,
        run: &RunSection,
        timestep: &crate::timestep::TimestepMode,
    ) -> Result<(), String> {
        if let Some(s) = self.series() {
            let source = crate::output::Source::parse(base_series(s), model)?;
            if !source.names_column(s, model.planar) {
                return Err(format!(
                    "series \"{s}\": name a column: a vector series takes .x, .y or .z (2D: .x, .y; an angular one .z), a tensor .xx, .yy, .zz, .xy, .yz or .xz, a scalar one none"
                ));
            }
        }
        let ball_of = |id: &u64| {
            model
                .ball_index(*id)
                .ok_or_else(|| format!("there is no ball with id {id}"))
        };
        let wall_of = |w: &str| {
            model
                .wall_index(w)
                .ok_or_else(|| format!("there is no wall named \"{w}\""))
        };
        match self {
            CheckSpec::RadiusDistribution { insert, .. }
                if !model.flow.inserts.iter().any(|i| &i.spec.name == insert) =>
            {
                return Err(format!("there is no insertion named \"{insert}\""));
            }
            CheckSpec::Beverloo(b) => {
                for s in [&b.series, &b.porosity_series] {
                    crate::output::Source::parse(s, model)?;
                }
            }
            CheckSpec::Jkr(j) => {
                for s in [&j.force, &j.overlap] {
                    let source = crate::output::Source::parse(base_series(s), model)?;
                    if !source.names_column(s, model.planar) {
                        return Err(format!(
                            "series \"{s}\": name a column (a vector series takes .x, .y or .z)"
                        ));
                    }
                }
            }
            CheckSpec::Janssen(j) => {
                crate::output::Source::parse(&j.mass_series, model)?;
                for m in &j.profile {
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
            }
            CheckSpec::Identity { terms, .. } => {
                for (_, s) in terms {
                    let source = crate::output::Source::parse(base_series(s), model)?;
                    if !source.names_column(s, model.planar) {
                        return Err(format!(
                            "series \"{s}\": name a column: a vector series takes .x, .y or .z (2D: .x, .y; an angular one .z), a tensor .xx, .yy, .zz, .xy, .yz or .xz, a scalar one none"
                        ));
                    }
                }
            }
            CheckSpec::Collision { ball, other, .. } => {
                ball_of(ball)?;
                match other {
                    Other::Ball(id) if id == ball => {
                        return Err("ball and other must differ".into())
                    }
                    Other::Ball(id) => drop(ball_of(id)?),
                    Other::Wall(w) => drop(wall_of(w)?),
                }
            }
            CheckSpec::ActiveCount { ball, wall, .. } => {
                ball_of(ball)?;
                wall_of(wall)?;
            }
            CheckSpec::MaxTurn { series, .. }
                if !crate::output::Source::parse(series, model)?.is_vector() =>
            {
                return Err(format!(
                    "series \"{series}\": max_turn needs a vector series, without .x/.y/.z"
                ));
            }
            _ => {}
        }
        if let CheckSpec::Convergence { .. } | CheckSpec::Drift { .. } = self {
            if run.duration.is_none() {
                return Err(format!(
                    "a {} study needs [run] duration (each timestep runs the same time)",
                    self.kind()
                ));
            }
        }
        if let CheckSpec::Drift { series, .. } = self {
            crate::output::Source::parse(base_series(series), model)?;
        }
        if let CheckSpec::EnergyBalance { .. } = self {
            if let crate::timestep::TimestepMode::Scaled(_) = timestep {
                return Err(
                    "timestep scaling gives the bodies fictitious inertial masses: their \
                    kinetic energy is not conserved, so no energy balance applies"
                        .into(),
                );
            }
        }
        Ok(())
    }
}

/// The other body of a collision check, as written in the case: a ball id or a wall name.
#[derive(Clone, Debug, PartialEq)]
pub enum Other {
    /// A ball id.
    Ball(u64),
    /// A wall name.
    Wall(String),
}

/// Which quantity a collision check measures.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Measure {
    /// -vn_out / vn_in.
    Restitution,
    /// t_end - t_start.
    Duration,
    /// Largest overlap during the contact.
    MaxOverlap,
    /// Largest normal contact force during the contact.
    MaxForce,
    /// Tangential velocity of the centre after / before, along the incoming tangential
    /// direction.
    TangentialRestitution,
    /// Magnitude of the angular velocity after the contact.
    ReboundSpin,
    /// Tangential velocity of the centre relative to the other body after the contact, along
    /// the direction in which its contact point slipped at first contact, m/s.
    TangentialVelocity,
}

impl Measure {
    /// The check kind as written in case files.
    pub fn kind(self) -> &'static str {
        match self {
            Measure::Restitution => "restitution",
            Measure::Duration => "contact_duration",
            Measure::MaxOverlap => "max_overlap",
            Measure::MaxForce => "max_force",
            Measure::TangentialRestitution => "tangential_restitution",
            Measure::ReboundSpin => "rebound_spin",
            Measure::TangentialVelocity => "tangential_velocity",
        }
    }

    /// Every measure.
    pub const ALL: [Measure; 7] = [
        Measure::Restitution,
        Measure::Duration,
        Measure::MaxOverlap,
        Measure::MaxForce,
        Measure::TangentialRestitution,
        Measure::ReboundSpin,
        Measure::TangentialVelocity,
    ];
}

/// What the check asks.
#[derive(Clone, Debug, PartialEq)]
pub struct CriticalSpec {
    /// Cycle at which the model is analysed.
    pub at_step: u64,
    /// Largest accepted estimate/exact ratio.
    pub max_ratio: Real,
    /// Smallest accepted ratio (extension).
    pub min_ratio: Option<Real>,
    /// Which estimate is judged (None: the case's).
    pub estimator: Option<Estimator>,
    /// Closed-form exact critical timestep, s (extension).
    pub exact: Option<Real>,
    /// Relative tolerance on `exact`.
    pub exact_tolerance: Real,
    /// How `exact` was derived.
    pub formula: Option<String>,
}
