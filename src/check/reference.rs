//! Analytic reference curves given in case files.

use crate::math::{Real, PI};
use crate::output::num;
use serde::Deserialize;

/// An analytic function of time, y(t).
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Reference {
    /// `c0 + c1 t + c2 t^2 + ...` (e.g. free fall: z0 + v0 t - g t^2 / 2).
    Polynomial {
        /// Coefficients from the constant term up.
        coeffs: Vec<Real>,
    },
    /// `mean + amplitude cos(2 pi t / period + phase)`.
    Harmonic {
        /// Mean value.
        mean: Real,
        /// Amplitude.
        amplitude: Real,
        /// Period, s.
        period: Real,
        /// Phase, degrees (default 0).
        #[serde(default)]
        phase_deg: Real,
    },
}

impl Reference {
    /// The value at time `t`.
    pub fn eval(&self, t: Real) -> Real {
        match self {
            Reference::Polynomial { coeffs } => coeffs.iter().rev().fold(0.0, |acc, c| acc * t + c),
            Reference::Harmonic {
                mean,
                amplitude,
                period,
                phase_deg,
            } => mean + amplitude * (2.0 * PI * t / period + phase_deg.to_radians()).cos(),
        }
    }

    /// The formula with its numbers, for the report.
    pub fn formula(&self) -> String {
        match self {
            Reference::Polynomial { coeffs } => {
                let terms: Vec<String> = coeffs
                    .iter()
                    .enumerate()
                    .map(|(k, c)| match k {
                        0 => num(*c),
                        1 => format!("{}·t", num(*c)),
                        _ => format!("{}·t^{k}", num(*c)),
                    })
                    .collect();
                format!("y(t) = {}", terms.join(" + "))
            }
            Reference::Harmonic {
                mean,
                amplitude,
                period,
                phase_deg,
            } => format!(
                "y(t) = {} + {}·cos(2π t / {} s + {}°)",
                num(*mean),
                num(*amplitude),
                num(*period),
                num(*phase_deg)
            ),
        }
    }

    /// The formula, preceded by the case's own words on where it comes from, if any.
    pub fn formula_with(&self, derivation: Option<&str>) -> String {
        match derivation {
            Some(d) => format!("{d}: {}", self.formula()),
            None => self.formula(),
        }
    }

    /// Checks the parameters.
    ///
    /// # Errors
    /// A sentence naming the bad parameter.
    pub fn validate(&self) -> Result<(), String> {
        let ok = match self {
            Reference::Polynomial { coeffs } => {
                !coeffs.is_empty() && coeffs.iter().all(|c| c.is_finite())
            }
            Reference::Harmonic {
                mean,
                amplitude,
                period,
                phase_deg,
            } => {
                [mean, amplitude, phase_deg].iter().all(|v| v.is_finite())
                    && period.is_finite()
                    && *period > 0.0
            }
        };
        if ok {
            Ok(())
        } else {
            Err("reference: every parameter must be finite (and a period positive; coeffs non-empty)".into())
        }
    }
}
