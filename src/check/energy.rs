//! The `energy_balance` check (docs/CASES.md, section 13): the run's energy accounted for.

use super::context::Context;
use crate::case::ENERGY_SERIES;
use crate::math::num;
use crate::math::Real;
use crate::record::CheckOutcome;
use crate::record::{Curve, Plot};

/// Judges the largest `|energy/balance|` over the records against the scale of the run, the
/// largest `kinetic + |strain| + potential` (the potential counted from its lowest value in the
/// run, so that the scale does not depend on where `z = 0` lies). With `subtract`, the balance
/// less the integration error the books measure (`energy/integrator`) is judged instead. Also
/// fails when `energy/dissipated` falls between two records by more than `max_fall` times the
/// scale: energy that a contact model gave back.
pub fn evaluate(
    ctx: &Context,
    tolerance: Real,
    subtract: bool,
    max_fall: Real,
    out: &mut CheckOutcome,
) {
    let cols: Vec<Option<&[Real]>> = ENERGY_SERIES.iter().map(|s| ctx.series.column(s)).collect();
    let [Some(k), Some(u), Some(p), Some(d), Some(w), Some(b), Some(i)] = cols[..] else {
        return out.fail("the energy series were not recorded".into());
    };
    let t = &ctx.series.t;
    let p_min = p.iter().copied().fold(Real::INFINITY, Real::min);
    // (|strain|: with cohesion the strain energy holds the attraction's potential, <= 0)
    let mechanical: Vec<Real> = (0..t.len())
        .map(|r| k[r] + u[r].abs() + (p[r] - p_min))
        .collect();
    let scale = mechanical.iter().copied().fold(0.0, Real::max);
    let judged: Vec<Real> = if subtract {
        b.iter().zip(i).map(|(b, i)| b - i).collect()
    } else {
        b.to_vec()
    };
    // (a value that is not a number counts as infinitely large: it never passes)
    let size = |x: Real| if x.is_nan() { Real::INFINITY } else { x.abs() };
    let largest = |v: &[Real]| v.iter().map(|&x| size(x)).fold(0.0, Real::max);
    let worst_fall = (d.windows(2))
        .map(|x| {
            if (x[0] - x[1]).is_nan() {
                Real::INFINITY
            } else {
                x[0] - x[1]
            }
        })
        .fold(0.0, Real::max);
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
        "src/check/energy.rs::evaluate".into(),
    ];
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
        vec!["dissipated at the end / scale".into(), num(last(d) / scale)],
        vec!["work at the end / scale".into(), num(last(w) / scale)],
        vec![
            "largest fall of dissipated between records / scale".into(),
            num(fall),
        ],
    ];
    let curve = |label: &str, y: Vec<Real>| Curve {
        label: label.into(),
        x: t.clone(),
        y,
        markers: false,
    };
    out.plots = vec![
        Plot {
            title: "Energy books".into(),
            x_label: "t (s)".into(),
            y_label: "energy (J)".into(),
            curves: vec![
                curve("kinetic K", k.to_vec()),
                curve("strain U", u.to_vec()),
                curve("potential P − P_min", p.iter().map(|x| x - p_min).collect()),
                curve("dissipated D", d.to_vec()),
                curve("work W", w.to_vec()),
            ],
            ..Default::default()
        },
        Plot {
            title: "Balance, relative to the scale".into(),
            x_label: "t (s)".into(),
            y_label: "(K + U + P + D − W) change / scale".into(),
            curves: vec![
                curve("balance", b.iter().map(|x| x / scale).collect()),
                curve("integrator term", i.iter().map(|x| x / scale).collect()),
            ],
            ..Default::default()
        },
    ];
}

#[cfg(test)]
mod tests {
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
        let case = crate::case::parse(
            "[run]\nsteps = 1\n[timestep]\nmode = \"fixed\"\ndt = 1.0\n",
            std::path::Path::new("t.toml"),
        )
        .unwrap();
        let ctx = Context {
            case: &case,
            series: t,
            depth: 0,
            cycles: 0,
            time: 0.0,
            stopped: None,
        };
        let mut out = CheckOutcome::default();
        evaluate(&ctx, tolerance, true, tolerance, &mut out);
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
