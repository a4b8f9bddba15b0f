//! The `same_series` check: a series against the same series of another case (the same scene
//! built another way), run now or remembered from this process.

use super::context::Context;
use super::keys::{nonneg, read};
use super::kind::CheckKind;
use super::probe::Probe;
use crate::math::Real;
use crate::record::CheckOutcome;
use crate::record::Curve;
use serde::Deserialize;

/// `same_series`: the same series from another case.
#[derive(Clone, Debug, PartialEq)]
pub struct SameSeries {
    /// Column judged.
    series: String,
    /// Path of the other case, relative to this case file.
    case: String,
    /// Tolerance on the largest difference relative to the largest |other|.
    tolerance: Real,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Keys {
    series: String,
    case: String,
    tolerance: Real,
}

impl CheckKind for SameSeries {
    fn parse(_: &str, keys: toml::Value) -> Result<Self, String> {
        let s: Keys = read(keys)?;
        Ok(SameSeries {
            series: s.series,
            case: s.case,
            tolerance: nonneg("tolerance", s.tolerance)?,
        })
    }

    fn kind(&self) -> &'static str {
        "same_series"
    }

    fn series(&self) -> Option<&str> {
        Some(&self.series)
    }

    fn other_cases(&self) -> Vec<(&'static str, &str)> {
        vec![("case", &self.case)]
    }

    fn evaluate(&self, ctx: &Context, _: Option<&Probe>, out: &mut CheckOutcome) {
        out.code.push("src/check/same_series.rs::evaluate".into());
        judge(ctx, &self.series, &self.case, self.tolerance, out);
    }
}

/// A column against the same column of another case, run now.
fn judge(ctx: &Context, series: &str, other: &str, tolerance: Real, out: &mut CheckOutcome) {
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
    let table = match ctx.case.series_of(&path, &[series]) {
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
