//! Analytic reference curves given in case files.

use crate::math::num;
use crate::math::{Real, PI};
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
    /// Polynomials of `t`, each from its start time on (e.g. sliding, then rolling: a ramp,
    /// then a constant).
    Piecewise {
        /// The pieces, start times increasing (the first piece also holds before its start).
        pieces: Vec<Piece>,
    },
}

/// One piece of a [`Reference::Piecewise`]: `c0 + c1 t + ...` (absolute time) from `from` on.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Piece {
    /// Start time, s.
    pub from: Real,
    /// Coefficients from the constant term up.
    pub coeffs: Vec<Real>,
}

fn polynomial(coeffs: &[Real], t: Real) -> Real {
    coeffs.iter().rev().fold(0.0, |acc, c| acc * t + c)
}

fn polynomial_words(coeffs: &[Real]) -> String {
    let terms: Vec<String> = coeffs
        .iter()
        .enumerate()
        .map(|(k, c)| match k {
            0 => num(*c),
            1 => format!("{}·t", num(*c)),
            _ => format!("{}·t^{k}", num(*c)),
        })
        .collect();
    terms.join(" + ")
}

impl Reference {
    /// The value at time `t`.
    pub fn eval(&self, t: Real) -> Real {
        match self {
            Reference::Polynomial { coeffs } => polynomial(coeffs, t),
            Reference::Piecewise { pieces } => {
                let k = pieces.iter().rposition(|p| p.from <= t).unwrap_or(0);
                polynomial(&pieces[k].coeffs, t)
            }
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
            Reference::Polynomial { coeffs } => format!("y(t) = {}", polynomial_words(coeffs)),
            Reference::Piecewise { pieces } => {
                let parts: Vec<String> = pieces
                    .iter()
                    .map(|p| format!("{} from t = {} s", polynomial_words(&p.coeffs), num(p.from)))
                    .collect();
                format!("y(t) = {}", parts.join("; "))
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
            Reference::Piecewise { pieces } => {
                !pieces.is_empty()
                    && pieces.iter().all(|p| {
                        p.from.is_finite()
                            && !p.coeffs.is_empty()
                            && p.coeffs.iter().all(|c| c.is_finite())
                    })
                    && pieces.windows(2).all(|w| w[0].from < w[1].from)
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
            Err("reference: every parameter must be finite (and a period positive; coeffs non-empty; pieces in increasing order of `from`)".into())
        }
    }
}
