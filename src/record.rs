//! Records of a run, below the checks and the report: `summary.json` (what a run did and what
//! its checks found; the report is rebuilt from it), each check's outcome and tolerance, and
//! the plots they carry.

use crate::math::Real;
use serde::{Deserialize, Serialize};

/// Smallest, largest and last timestep of a run, s.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct DtStats {
    /// Smallest timestep.
    pub min: Real,
    /// Largest timestep.
    pub max: Real,
    /// Timestep of the last cycle.
    pub last: Real,
    /// The timestep mode, in words.
    #[serde(default)]
    pub mode: String,
    /// What set the timestep, with the number of cycles it did (largest first; the fixed mode
    /// lists "fixed").
    #[serde(default)]
    pub set_by: Vec<(String, u64)>,
}

/// A curve: `y` against `x`.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct Curve {
    /// Legend text.
    pub label: String,
    /// Abscissae.
    pub x: Vec<Real>,
    /// Ordinates.
    pub y: Vec<Real>,
    /// Draw markers at the points instead of a line.
    #[serde(default)]
    pub markers: bool,
}

/// A plot that a check adds to the report (e.g. a convergence study on log-log axes).
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct Plot {
    /// Title.
    pub title: String,
    /// Abscissa label with unit.
    pub x_label: String,
    /// Ordinate label with unit.
    pub y_label: String,
    /// Logarithmic abscissa.
    pub log_x: bool,
    /// Logarithmic ordinate.
    pub log_y: bool,
    /// The curves.
    pub curves: Vec<Curve>,
}

/// What was simulated, for the report: one line per item, already in words.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct Scene {
    /// Settings (gravity, margin, timestep, run length).
    pub settings: Vec<(String, String)>,
    /// One row per material.
    pub materials: Vec<Vec<String>>,
    /// One row per contact-model assignment.
    pub contact_models: Vec<Vec<String>>,
    /// One row per ball (the first ones).
    pub balls: Vec<Vec<String>>,
    /// Number of balls not listed.
    pub balls_not_listed: usize,
    /// One row per wall (first row: headers).
    #[serde(default)]
    pub walls: Vec<Vec<String>>,
    /// SVG drawing of the initial geometry (walls and balls), when there are walls.
    #[serde(default)]
    pub geometry: String,
}

/// What one insertion or outlet did in a run.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct FlowSummary {
    /// "insert" or "outlet".
    pub kind: String,
    /// Its name.
    pub name: String,
    /// Balls placed (insert) or removed (outlet).
    pub count: u64,
    /// Their mass, kg.
    pub mass: Real,
    /// Insert: balls due and not placed when the run ended (kilograms at a mass rate).
    pub pending: Real,
}

/// Everything a run reports (docs/CASES.md, section 15, names the required fields).
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct Summary {
    /// Case name.
    pub case: String,
    /// Case description.
    pub description: String,
    /// Path of the case file.
    pub file: String,
    /// Cycles run.
    pub steps: u64,
    /// Simulated time, s.
    pub time: Real,
    /// Timestep statistics.
    pub dt: DtStats,
    /// Wall-clock time of the run, s.
    pub wall_seconds: Real,
    /// Number of bodies.
    pub bodies: usize,
    /// Number of ball-ball contacts at the end (active or not: the candidate pairs kept).
    pub contacts: usize,
    /// Number of active ball-ball contacts at the end.
    pub contacts_active: usize,
    /// Number of ball-facet contacts at the end (active or not).
    #[serde(default)]
    pub wall_contacts: usize,
    /// Number of active ball-facet contacts at the end.
    #[serde(default)]
    pub wall_contacts_active: usize,
    /// True when every check passed and the run completed.
    pub passed: bool,
    /// Why the run stopped early, if it did.
    pub error: Option<String>,
    /// Why the run stopped before its last step without an error (the solve ratio was
    /// reached), if it did.
    #[serde(default)]
    pub stopped: Option<String>,
    /// True when SIGINT or SIGTERM stopped the run: the outputs hold what was recorded up to
    /// then, and the checks were not judged.
    #[serde(default)]
    pub interrupted: bool,
    /// What was simulated.
    pub scene: Scene,
    /// Insertions and outlets: what each did (absent when the case has none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub flow: Vec<FlowSummary>,
    /// What the case asks for that may not be what was meant (one `FILE: key: reason` line
    /// each): found when the case was read, or at the end of the run (absent when none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
    /// The checks and their verdicts.
    pub checks: Vec<CheckOutcome>,
    /// A run over ranks: how it was cut (not in summary.json, which holds what one process
    /// writes, byte for byte; the page shows it).
    #[serde(skip)]
    pub ranks: Option<RanksSummary>,
}

/// How a run over ranks was cut and how the cuts moved.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RanksSummary {
    /// The number of ranks.
    pub ranks: usize,
    /// Bricks along x, y and z.
    pub bricks: [usize; 3],
    /// The inner cuts along each axis at the end, m.
    pub cuts: [Vec<Real>; 3],
    /// Each time the cuts moved: the cycle, the imbalance (most balls a rank owns over the
    /// mean) before and after.
    pub moves: Vec<(u64, Real, Real)>,
    /// The imbalance at the end.
    pub imbalance: Real,
    /// The imbalance above which the cuts move (`[parallel] rebalance`).
    pub rebalance: Real,
}

impl Summary {
    /// True for a run that ended well but judged nothing (a case without checks): reported as
    /// "ran (no checks)", never as passed.
    pub fn ran_without_checks(&self) -> bool {
        self.error.is_none() && self.checks.is_empty()
    }

    /// The summary as `summary.json` holds it: serde_json's pretty printing (the fields in
    /// their order, indented), but an array of numbers or strings (a plot's or a reference
    /// curve's 2,000 points) on one line, where the pretty printer gives each item a line of
    /// its own: about half the bytes, as easy to read.
    ///
    /// # Errors
    /// A summary serde cannot write (none in practice).
    pub fn to_json(&self) -> Result<String, serde_json::Error> {
        serde_json::to_string_pretty(self).map(|p| scalar_arrays_inline(&p))
    }
}

/// Pretty-printed JSON with each array whose items are all scalars written on one line. (In
/// serde_json's pretty output an array opens at the end of a line, its items each on a line two
/// spaces further in, and it closes on a line of its own at its opening's indentation; a
/// scalar item's line never ends with `[` or `{`: a string ends with its quote.)
fn scalar_arrays_inline(pretty: &str) -> String {
    let lines: Vec<&str> = pretty.lines().collect();
    let indent = |l: &str| l.len() - l.trim_start().len();
    let mut out = String::with_capacity(pretty.len() / 2);
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        i += 1;
        out.push_str(line);
        if line.ends_with('[') {
            let at = indent(line);
            let items = (lines[i..].iter())
                .take_while(|l| {
                    let t = l.trim();
                    indent(l) == at + 2 && !t.ends_with('[') && !t.ends_with('{')
                })
                .count();
            let closes = lines
                .get(i + items)
                .is_some_and(|l| indent(l) == at && l.trim_start().starts_with(']'));
            if closes {
                let joined: Vec<&str> = lines[i..i + items].iter().map(|l| l.trim()).collect();
                out.push_str(&joined.join(" "));
                out.push_str(lines[i + items].trim());
                i += items + 1;
            }
        }
        if i < lines.len() {
            out.push('\n');
        }
    }
    out
}

/// A tolerance: relative to the expected value, or absolute.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Tolerance {
    /// |value - expected| <= tol * |expected|.
    Relative(Real),
    /// |value - expected| <= tol.
    Absolute(Real),
}

/// What a check found; serialized into `summary.json`.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct CheckOutcome {
    /// Check kind.
    pub kind: String,
    /// Verdict.
    pub passed: bool,
    /// Measured value.
    pub value: Option<Real>,
    /// Expected value.
    pub expected: Option<Real>,
    /// Tolerance.
    pub tolerance: Option<Real>,
    /// "relative" or "absolute".
    pub tolerance_kind: String,
    /// Details, or why the check failed.
    pub message: String,
    /// What is measured, in a sentence.
    pub what: String,
    /// The reference and its formula.
    pub formula: String,
    /// The column judged (plotted with the reference curve).
    pub series: Option<String>,
    /// Reference curve to plot with the series.
    pub reference: Option<Curve>,
    /// Further plots.
    pub plots: Vec<Plot>,
    /// A table of intermediate results (first row: headers).
    pub table: Vec<Vec<String>>,
    /// Source files implementing what is judged.
    pub code: Vec<String>,
    /// For range checks (`tolerance_kind` "range"): the accepted values in words.
    #[serde(default)]
    pub accepted: String,
    /// Named constants a fitting check found, for topic pages to tabulate (e.g. `mu_of_i`'s).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub constants: Vec<(String, Real)>,
}

impl CheckOutcome {
    /// Marks the check failed with a reason.
    pub fn fail(&mut self, message: String) {
        self.passed = false;
        self.message = message;
    }

    /// Judges `value` against `expected` with a relative tolerance.
    pub fn judge_relative(&mut self, value: Real, expected: Real, tol: Real) {
        self.judge(value, expected, Tolerance::Relative(tol));
    }

    /// Judges `value` against `expected`.
    pub fn judge(&mut self, value: Real, expected: Real, tol: Tolerance) {
        self.value = Some(value);
        self.expected = Some(expected);
        let err = (value - expected).abs();
        (self.passed, self.tolerance_kind) = match tol {
            Tolerance::Relative(t) => {
                self.tolerance = Some(t);
                (err <= t * expected.abs(), "relative".into())
            }
            Tolerance::Absolute(t) => {
                self.tolerance = Some(t);
                (err <= t, "absolute".into())
            }
        };
        self.passed &= value.is_finite();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `summary.json` reads back as the summary written, with its curves' points on one line
    /// each, its tables' rows too, and every object's fields on lines of their own.
    #[test]
    fn a_summary_reads_back_with_its_points_on_one_line() {
        let curve = |label: &str| Curve {
            label: label.into(),
            x: vec![0.0, 0.5, 1.0],
            y: vec![1.0, -2.5e-7, 3.0],
            markers: false,
        };
        let s = Summary {
            case: "a \"[quoted]\" name [".into(),
            checks: vec![CheckOutcome {
                kind: "final_value".into(),
                reference: Some(curve("reference {")),
                plots: vec![Plot {
                    title: "p".into(),
                    curves: vec![curve("one"), curve("two")],
                    ..Default::default()
                }],
                table: vec![vec!["a".into(), "b".into()], vec!["1".into(), "2".into()]],
                ..Default::default()
            }],
            ..Default::default()
        };
        let text = s.to_json().unwrap();
        let back: Summary = serde_json::from_str(&text).unwrap();
        assert_eq!(back, s);
        assert!(text.contains("\"x\": [0.0, 0.5, 1.0],"), "{text}");
        assert!(text.contains("\"y\": [1.0, -2.5e-7, 3.0],"), "{text}");
        assert!(text.contains("[\"1\", \"2\"]"), "{text}");
        assert!(text
            .lines()
            .any(|l| l.trim() == "\"kind\": \"final_value\","));
        assert!(text.len() < serde_json::to_string_pretty(&s).unwrap().len());
    }
}
