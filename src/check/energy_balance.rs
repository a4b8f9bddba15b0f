//! The `energy_balance` check (docs/CASES.md, section 13): the run's energy accounted for.

use super::context::Context;
use super::keys::{nonneg, read};
use super::kind::{Built, CheckKind};
use super::probe::Probe;
use crate::math::num;
use crate::math::Real;
use crate::record::CheckOutcome;
use crate::record::{Curve, Plot};
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

/// `energy_balance`: the run's energy accounted for.
#[derive(Clone, Debug, PartialEq)]
pub struct EnergyBalance {
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
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Keys {
    tolerance: Option<Real>,
    subtract_integrator: Option<bool>,
    max_fall: Option<Real>,
    formula: Option<String>,
}

impl CheckKind for EnergyBalance {
    fn parse(_: &str, keys: toml::Value) -> Result<Self, String> {
        let e: Keys = read(keys)?;
        let tolerance = nonneg("tolerance", e.tolerance.unwrap_or(1e-6))?;
        Ok(EnergyBalance {
            tolerance,
            subtract_integrator: e.subtract_integrator.unwrap_or(false),
            max_fall: nonneg("max_fall", e.max_fall.unwrap_or(tolerance))?,
            formula: e.formula,
        })
    }

    fn kind(&self) -> &'static str {
        "energy_balance"
    }

    fn extra_series(&self) -> Vec<String> {
        ENERGY_SERIES.iter().map(|s| s.to_string()).collect()
    }

    fn validate(&self, built: &Built) -> Result<(), String> {
        if let crate::timestep::TimestepMode::Scaled(_) = built.timestep {
            return Err(
                "timestep scaling gives the bodies fictitious inertial masses: their \
                kinetic energy is not conserved, so no energy balance applies"
                    .into(),
            );
        }
        Ok(())
    }

    fn evaluate(&self, ctx: &Context, _: Option<&Probe>, out: &mut CheckOutcome) {
        judge(ctx, self, out);
        if let Some(f) = &self.formula {
            out.formula = format!("{}. Tolerance: {f}", out.formula);
        }
    }
}

/// Judges the largest `|energy/balance|` over the records against the scale of the run, the
/// largest `kinetic + |strain| + potential` (the potential counted from its lowest value in the
/// run, so that the scale does not depend on where `z = 0` lies). With `subtract`, the balance
/// less the integration error the books measure (`energy/integrator`) is judged instead. Also
/// fails when `energy/dissipated` falls between two records by more than `max_fall` times the
/// scale: energy that a contact model gave back.
fn judge(ctx: &Context, e: &EnergyBalance, out: &mut CheckOutcome) {
    let (tolerance, max_fall) = (e.tolerance, e.max_fall);
    let cols: Vec<Option<&[Real]>> = ENERGY_SERIES.iter().map(|s| ctx.series.column(s)).collect();
    let [Some(k), Some(u), Some(p), Some(d), Some(w), Some(b), Some(i)] = cols[..] else {
        return out.fail("the energy series were not recorded".into());
    };
    let books = Books {
        t: &ctx.series.t,
        k,
        u,
        p,
        d,
        w,
        b,
        i,
    };
    let p_min = p.iter().copied().fold(Real::INFINITY, Real::min);
    // (|strain|: with cohesion the strain energy holds the attraction's potential, <= 0)
    let mechanical: Vec<Real> = (0..books.t.len())
        .map(|r| k[r] + u[r].abs() + (p[r] - p_min))
        .collect();
    let scale = mechanical.iter().copied().fold(0.0, Real::max);
    let judged: Vec<Real> = if e.subtract_integrator {
        b.iter().zip(i).map(|(b, i)| b - i).collect()
    } else {
        b.to_vec()
    };
    let worst_fall = (d.windows(2))
        .map(|x| {
            if (x[0] - x[1]).is_nan() {
                Real::INFINITY
            } else {
                x[0] - x[1]
            }
        })
        .fold(0.0, Real::max);
    describe(e.subtract_integrator, tolerance, out);
    if scale.is_nan() || scale <= 0.0 {
        return out.fail(
            "no kinetic, strain or potential energy in the run: nothing to scale the balance by"
                .into(),
        );
    }
    let value = largest(&judged) / scale;
    out.value = Some(value);
    out.passed = value.is_finite() && value <= tolerance;
    let fall = worst_fall / scale;
    let gave_back = fall.is_nan() || fall > max_fall;
    if gave_back {
        out.passed = false;
    }
    out.message = if gave_back {
        format!(
            "energy/dissipated fell by {} of the scale between two records (at most {} accepted): a contact model gave energy back",
            num(fall),
            num(max_fall)
        )
    } else if out.passed {
        String::new()
    } else {
        format!(
            "the energy is accounted for to {} of the scale only",
            num(value)
        )
    };
    tabulate(&books, scale, fall, out);
    plot(&books, p_min, scale, out);
}

/// The energy series of a run.
struct Books<'a> {
    /// Record times, s.
    t: &'a [Real],
    /// Kinetic energy, J.
    k: &'a [Real],
    /// Strain energy, J.
    u: &'a [Real],
    /// Gravitational potential, J.
    p: &'a [Real],
    /// Energy dissipated, J.
    d: &'a [Real],
    /// Work done, J.
    w: &'a [Real],
    /// The balance, J.
    b: &'a [Real],
    /// The integrator's term, J.
    i: &'a [Real],
}

/// The largest |x| of `v`, a value that is not a number counting as infinitely large (it
/// never passes).
fn largest(v: &[Real]) -> Real {
    let size = |x: Real| if x.is_nan() { Real::INFINITY } else { x.abs() };
    v.iter().map(|&x| size(x)).fold(0.0, Real::max)
}

/// What is measured, the reference, the tolerance and the code, into `out`.
fn describe(subtract: bool, tolerance: Real, out: &mut CheckOutcome) {
    out.what = if subtract {
        "largest |energy/balance − energy/integrator| over the records, divided by the largest \
         kinetic + strain + potential (potential from its lowest value in the run)"
            .into()
    } else {
        "largest |energy/balance| over the records, divided by the largest kinetic + strain + \
         potential (potential from its lowest value in the run)"
            .into()
    };
    out.formula = "K + U + P + D − W − (K + U + P)(0) = 0: kinetic energy at the velocities of the \
        time of the positions, strain energy stored in the contacts, gravitational potential, \
        energy dissipated (dashpots, slip, hysteresis, breakage) and work done by walls, applied \
        forces and constraints, each booked from its own definition (src/model/books.rs, src/books/stage.rs)"
        .to_string() + if subtract {
        "; less the integration error the books measure (energy/integrator): the \
             leapfrog integrator's own term Σ dt²/8 (S_n − S_(n−1)), S = Σ |F|²/m + |M|²/I, \
             which velocity Verlet moves into the kinetic energy on top of the trapezoidal work \
             of the forces, and what the trapezoidal rule misses of the normal springs' energy \
             (at a contact's first and last cycle, and on the curvature of Hertz's law)"
    } else {
        ""
    };
    out.expected = Some(0.0);
    out.tolerance = Some(tolerance);
    out.tolerance_kind = "absolute".into();
    out.code = vec![
        "src/model/books.rs::EnergyBooks".into(),
        "src/law/registry.rs::ContactModel".into(),
        "src/check/energy_balance.rs::evaluate".into(),
    ];
}

/// The scale, the balance and its parts relative to it, one row each.
fn tabulate(books: &Books, scale: Real, fall: Real, out: &mut CheckOutcome) {
    let (b, i) = (books.b, books.i);
    let last = |v: &[Real]| v.last().copied().unwrap_or(0.0);
    out.table = vec![
        vec!["quantity".into(), "value".into()],
        vec![
            "scale: largest K + U + (P − P_min)".into(),
            format!("{} J", num(scale)),
        ],
        vec!["largest |balance| / scale".into(), num(largest(b) / scale)],
        vec![
            "largest |integrator term| / scale".into(),
            num(largest(i) / scale),
        ],
        vec![
            "largest |balance − integrator term| / scale".into(),
            num(b
                .iter()
                .zip(i)
                .map(|(b, i)| (b - i).abs())
                .fold(0.0, Real::max)
                / scale),
        ],
        vec![
            "dissipated at the end / scale".into(),
            num(last(books.d) / scale),
        ],
        vec!["work at the end / scale".into(), num(last(books.w) / scale)],
        vec![
            "largest fall of dissipated between records / scale".into(),
            num(fall),
        ],
    ];
}

/// The books over time, and the balance relative to the scale.
fn plot(books: &Books, p_min: Real, scale: Real, out: &mut CheckOutcome) {
    let curve = |label: &str, y: Vec<Real>| Curve {
        label: label.into(),
        x: books.t.to_vec(),
        y,
        markers: false,
    };
    out.plots = vec![
        Plot {
            title: "Energy books".into(),
            x_label: "t (s)".into(),
            y_label: "energy (J)".into(),
            curves: vec![
                curve("kinetic K", books.k.to_vec()),
                curve("strain U", books.u.to_vec()),
                curve(
                    "potential P − P_min",
                    books.p.iter().map(|x| x - p_min).collect(),
                ),
                curve("dissipated D", books.d.to_vec()),
                curve("work W", books.w.to_vec()),
            ],
            ..Default::default()
        },
        Plot {
            title: "Balance, relative to the scale".into(),
            x_label: "t (s)".into(),
            y_label: "(K + U + P + D − W) change / scale".into(),
            curves: vec![
                curve("balance", books.b.iter().map(|x| x / scale).collect()),
                curve(
                    "integrator term",
                    books.i.iter().map(|x| x / scale).collect(),
                ),
            ],
            ..Default::default()
        },
    ];
}

#[cfg(test)]
mod tests {
    use super::super::context::Bare;
    use super::*;
    use crate::output::SeriesTable;

    /// A table of the check's series: kinetic energy 1 J throughout, the balance as given.
    fn table(balance: Vec<Real>, dissipated: Vec<Real>) -> SeriesTable {
        let n = balance.len();
        let mut data = vec![
            vec![1.0; n],
            vec![0.0; n],
            vec![0.0; n],
            dissipated,
            vec![0.0; n],
        ];
        data.push(balance);
        data.push(vec![0.0; n]);
        SeriesTable {
            columns: ENERGY_SERIES.iter().map(|s| s.to_string()).collect(),
            t: (0..n).map(|k| k as Real).collect(),
            data,
        }
    }

    fn judge(t: &SeriesTable, tolerance: Real) -> CheckOutcome {
        let case = Bare(crate::timestep::TimestepMode::Fixed(1.0));
        let ctx = Context {
            case: &case,
            series: t,
            depth: 0,
            cycles: 0,
            time: 0.0,
            stopped: None,
        };
        let check = EnergyBalance {
            tolerance,
            subtract_integrator: true,
            max_fall: tolerance,
            formula: None,
        };
        let mut out = CheckOutcome::default();
        super::judge(&ctx, &check, &mut out);
        out
    }

    #[test]
    fn a_balance_within_the_tolerance_passes_and_a_larger_one_fails() {
        let ok = judge(&table(vec![0.0, 5e-7, -9e-7], vec![0.0; 3]), 1e-6);
        assert!(ok.passed && ok.value == Some(9e-7), "{ok:?}");
        assert!(!judge(&table(vec![0.0, 2e-6, 0.0], vec![0.0; 3]), 1e-6).passed);
    }

    #[test]
    fn a_balance_that_is_not_a_number_fails() {
        let out = judge(&table(vec![0.0, Real::NAN, 0.0], vec![0.0; 3]), 1e-6);
        assert!(!out.passed, "{out:?}");
    }

    #[test]
    fn energy_given_back_fails() {
        // dissipated falls by 1e-3 J between two records
        let out = judge(&table(vec![0.0; 3], vec![0.0, 2e-3, 1e-3]), 1e-6);
        assert!(!out.passed && out.message.contains("fell"), "{out:?}");
    }
}
