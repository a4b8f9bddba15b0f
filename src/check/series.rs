//! Checks on recorded series: `final_value`, `analytic` and `same_series`.

use super::context::Context;
use crate::case::Reference;
use crate::math::Real;
use crate::record::Curve;
use crate::record::{CheckOutcome, Tolerance};

/// The last recorded value of a column against the expected value.
pub fn final_value(
    ctx: &Context,
    series: &str,
    expected: Real,
    tol: Tolerance,
    out: &mut CheckOutcome,
) {
    out.what = format!("last recorded value of {series}");
    let Some(y) = ctx.series.column(series).filter(|y| !y.is_empty()) else {
        return out.fail(format!("series {series} was not recorded"));
    };
    out.judge(y[y.len() - 1], expected, tol);
    let t = &ctx.series.t;
    out.reference = Some(Curve {
        label: format!("expected final value {}", crate::math::num(expected)),
        x: vec![t[0], t[t.len() - 1]],
        y: vec![expected, expected],
        markers: false,
    });
}

/// A column against an analytic function at every record: the largest error, absolute or
/// relative to the largest |reference|.
pub fn analytic(
    ctx: &Context,
    series: &str,
    reference: &Reference,
    tol: Tolerance,
    after: Real,
    out: &mut CheckOutcome,
) {
    let Some(y) = ctx.series.column(series) else {
        return out.fail(format!("series {series} was not recorded"));
    };
    let t = &ctx.series.t;
    let r: Vec<Real> = t.iter().map(|&s| reference.eval(s)).collect();
    // (only the records from `after` on are judged)
    let judged = || (t.iter().zip(y).zip(&r)).filter(|((s, _), _)| **s >= after);
    let n = judged().count();
    if n == 0 {
        return out.fail(format!("no record at or after t = {after} s"));
    }
    let err = judged()
        .map(|((_, a), b)| (a - b).abs())
        .fold(0.0, Real::max);
    let scale = judged().map(|(_, v)| v.abs()).fold(0.0, Real::max);
    let from = if after > 0.0 {
        format!(" from t = {after} s")
    } else {
        String::new()
    };
    let value = match tol {
        Tolerance::Relative(_) => {
            out.what = format!(
                "largest |{series} − y(t)| over {n} records{from}, divided by the largest |y(t)|"
            );
            err / scale
        }
        Tolerance::Absolute(_) => {
            out.what = format!("largest |{series} − y(t)| over {n} records{from}");
            err
        }
    };
    out.judge(value, 0.0, Tolerance::Absolute(0.0));
    let limit = match tol {
        Tolerance::Relative(v) | Tolerance::Absolute(v) => v,
    };
    out.tolerance = Some(limit);
    out.tolerance_kind = "absolute".into();
    out.passed = value.is_finite() && value <= limit;
    out.reference = Some(Curve {
        label: "analytic y(t)".into(),
        x: t.clone(),
        y: r,
        markers: false,
    });
}

/// A column against the same column of another case, run now.
pub fn same_series(
    ctx: &Context,
    series: &str,
    other: &str,
    tolerance: Real,
    out: &mut CheckOutcome,
) {
    out.what = format!(
        "largest |{series} − {series} of {other}| divided by the largest |{series} of {other}|"
    );
    out.formula = format!("the same scene built another way: {other}");
    out.expected = Some(0.0);
    out.tolerance = Some(tolerance);
    if ctx.depth >= 2 {
        return out.fail("same_series cases refer to each other too deeply".into());
    }
    let path = ctx.case.dir().join(other);
    let table = match super::runs::run_other(&path, &[series]) {
        Ok(t) => t,
        Err(e) => return out.fail(e),
    };
    let (Some(a), Some(b)) = (ctx.series.column(series), table.column(series)) else {
        return out.fail(format!("series {series} is missing in one of the runs"));
    };
    let (ta, tb) = (&ctx.series.t, &table.t);
    let same_times = ta.len() == tb.len()
        && ta
            .iter()
            .zip(tb)
            .all(|(x, y)| (x - y).abs() <= 1e-12 * x.abs().max(y.abs()));
    if !same_times {
        return out.fail(format!(
            "the runs recorded at different times ({} and {} records)",
            ta.len(),
            tb.len()
        ));
    }
    let scale = b.iter().map(|v| v.abs()).fold(0.0, Real::max);
    let diff = a
        .iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, Real::max);
    let value = if scale > 0.0 { diff / scale } else { diff };
    out.value = Some(value);
    out.tolerance_kind = "absolute".into();
    out.passed = value.is_finite() && value <= tolerance;
    out.message = format!("largest absolute difference {diff:.3e}");
    out.reference = Some(Curve {
        label: format!("{series} of {other}"),
        x: tb.clone(),
        y: b.to_vec(),
        markers: false,
    });
}

/// Counts the drops of a column: records where it falls by more than `min_drop` (the column's
/// units) from the record before, against the expected count (project extension, e.g. a
/// shear force lost at each hand-over between facets in the reduced wall mode).
pub fn drops(ctx: &Context, series: &str, min_drop: Real, expected: u32, out: &mut CheckOutcome) {
    out.what = format!(
        "number of records where {series} falls by more than {min_drop} from the record before"
    );
    out.tolerance_kind = "range".into();
    out.accepted = format!("exactly {expected}");
    let Some(y) = ctx.series.column(series).filter(|y| y.len() > 1) else {
        return out.fail(format!(
            "series {series} was not recorded (or has one record)"
        ));
    };
    let t = &ctx.series.t;
    let at: Vec<usize> = (1..y.len())
        .filter(|&k| y[k - 1] - y[k] > min_drop)
        .collect();
    out.value = Some(at.len() as Real);
    out.expected = Some(expected as Real);
    out.passed = at.len() == expected as usize && y.iter().all(|v| v.is_finite());
    out.table = vec![["t (s)", "before", "after", "drop"]
        .map(String::from)
        .to_vec()];
    for &k in &at {
        out.table.push(vec![
            crate::math::num(t[k]),
            crate::math::num(y[k - 1]),
            crate::math::num(y[k]),
            crate::math::num(y[k - 1] - y[k]),
        ]);
    }
    out.message = format!(
        "{} drops larger than {min_drop} (expected {expected}){}",
        at.len(),
        if at.is_empty() {
            String::new()
        } else {
            format!(
                ", at t = {}",
                at.iter()
                    .take(8)
                    .map(|&k| crate::math::num(t[k]))
                    .collect::<Vec<_>>()
                    .join(", ")
                    + if at.len() > 8 { ", …" } else { "" }
            )
        }
    );
}
