//! The `identity` check (project extension): a signed sum of series that is zero at every
//! record, such as inserted = present + removed.

use super::context::Context;
use super::keys::{column, nonneg, read};
use super::kind::{Built, CheckKind};
use super::probe::Probe;
use crate::math::Real;
use crate::output::base_series;
use crate::record::{CheckOutcome, Curve, Plot};
use serde::Deserialize;

/// `identity`: a signed sum of series that must stay zero at every record.
#[derive(Clone, Debug, PartialEq)]
pub struct Identity {
    /// (sign, column) of each term.
    terms: Vec<(Real, String)>,
    /// Largest |sum| allowed.
    abs_tolerance: Real,
    /// What the identity says.
    formula: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Keys {
    terms: Vec<String>,
    abs_tolerance: Real,
    formula: Option<String>,
}

impl CheckKind for Identity {
    fn parse(_: &str, keys: toml::Value) -> Result<Self, String> {
        let k: Keys = read(keys)?;
        if k.terms.is_empty() {
            return Err("terms: give at least one series".into());
        }
        let terms = (k.terms.iter())
            .map(|t| match t.strip_prefix('-') {
                Some(rest) => (-1.0, rest.to_string()),
                None => (1.0, t.strip_prefix('+').unwrap_or(t).to_string()),
            })
            .collect();
        Ok(Identity {
            terms,
            abs_tolerance: nonneg("abs_tolerance", k.abs_tolerance)?,
            formula: k.formula,
        })
    }

    fn kind(&self) -> &'static str {
        "identity"
    }

    fn extra_series(&self) -> Vec<String> {
        (self.terms.iter())
            .map(|(_, s)| base_series(s).to_string())
            .collect()
    }

    fn validate(&self, built: &Built) -> Result<(), String> {
        for (_, s) in &self.terms {
            column(built.model, s)?;
        }
        Ok(())
    }

    fn evaluate(&self, ctx: &Context, _: Option<&Probe>, out: &mut CheckOutcome) {
        out.formula =
            (self.formula.clone()).unwrap_or_else(|| "the sum is zero (an identity)".into());
        out.code.push("src/flow/stage.rs::insert_due".into());
        out.code.push("src/flow/stage.rs::remove_in_outlets".into());
        out.code.push("src/check/identity.rs::evaluate".into());
        judge(ctx, &self.terms, self.abs_tolerance, out);
    }
}

/// The signed sum of the terms at every record, largest |sum|.
fn judge(ctx: &Context, terms: &[(Real, String)], abs_tolerance: Real, out: &mut CheckOutcome) {
    let words: Vec<String> = (terms.iter())
        .enumerate()
        .map(|(k, (s, n))| match (k, *s < 0.0) {
            (0, false) => n.clone(),
            (0, true) => format!("− {n}"),
            (_, false) => format!("+ {n}"),
            (_, true) => format!("− {n}"),
        })
        .collect();
    let t = &ctx.series.t;
    out.what = format!("largest |{}| over {} records", words.join(" "), t.len());
    let mut sum = vec![0.0; t.len()];
    for (s, name) in terms {
        let Some(y) = ctx.series.column(name) else {
            return out.fail(format!("series {name} was not recorded"));
        };
        for (acc, v) in sum.iter_mut().zip(y) {
            *acc += s * v;
        }
    }
    let worst = sum.iter().map(|v| v.abs()).fold(0.0, Real::max);
    out.judge(
        worst,
        0.0,
        crate::record::Tolerance::Absolute(abs_tolerance),
    );
    out.plots.push(Plot {
        title: words.join(" "),
        x_label: "time (s)".into(),
        y_label: {
            let unit = terms
                .first()
                .map_or("", |t| crate::output::series_unit(&t.1));
            format!("sum ({})", if unit.is_empty() { "-" } else { unit })
        },
        log_x: false,
        log_y: false,
        curves: vec![Curve {
            label: "signed sum".into(),
            x: t.clone(),
            y: sum,
            markers: false,
        }],
    });
}
