//! [`CheckKind`], what every kind of check is, and [`CheckSpec`], a check as a case holds it;
//! the one place a check is handed to its kind: its probe ([`probe`]) and its evaluation
//! ([`evaluate`]).

use super::context::{engine_code, Context};
use super::keys;
use super::probe::Probe;
use crate::math::Real;
use crate::model::Model;
use crate::record::CheckOutcome;
use crate::timestep::TimestepMode;
use std::fmt::Debug;
use std::sync::Arc;

/// One kind of check (`kind = "..."` in a `[[check]]` table): the implementing struct holds its
/// keys; the methods read them, validate them against the model the case builds, make the
/// probe that watches the run for it, and judge the run against the kind's reference.
///
/// # Adding a kind
/// 1. Write `src/check/<kind>.rs`: a struct of the kind's keys and `impl CheckKind` for it
///    (`parse` reads the keys with `keys::read` from a `#[serde(deny_unknown_fields)]`
///    struct and refuses bad values; `kind`; `evaluate` fills the outcome: what is measured,
///    the reference's formula, the verdict, and the source files that implement what is
///    judged in `out.code`, ending with its own `src/check/<kind>.rs::evaluate`). Override
///    the other methods where the kind needs them: the series it judges or reads, the bodies
///    and series it names (`validate`), a probe when records are too coarse for it.
/// 2. Add `mod <kind>;` to `src/check/mod.rs` and one line to the table of
///    `src/check/registry.rs`: `("<kind>", kind::<YourStruct>)`.
/// 3. Describe the kind and its keys in docs/CASES.md, section 14 (tests/house.rs checks that
///    the reference names every kind of the table).
pub trait CheckKind: Debug + Send + Sync {
    /// Reads the keys of a `[[check]]` table (without `kind`); `kind` is the name the table
    /// gave, for a struct registered under several names.
    ///
    /// # Errors
    /// An unknown or missing key, a bad value, as a sentence.
    fn parse(kind: &str, keys: toml::Value) -> Result<Self, String>
    where
        Self: Sized;

    /// The kind as written in case files.
    fn kind(&self) -> &'static str;

    /// The column this check judges, if any: recorded for it, and validated as a column of
    /// the model before [`CheckKind::validate`].
    fn series(&self) -> Option<&str> {
        None
    }

    /// Further series this check reads (recorded for it).
    fn extra_series(&self) -> Vec<String> {
        Vec::new()
    }

    /// The other case files this check names, with their keys: each must exist.
    fn other_cases(&self) -> Vec<(&'static str, &str)> {
        Vec::new()
    }

    /// True when the check follows one ball by its index (which renumbering and outlets
    /// change).
    fn follows_a_ball(&self) -> bool {
        false
    }

    /// Checks what only the model can tell: the bodies and series named exist.
    ///
    /// # Errors
    /// A sentence naming what is missing.
    fn validate(&self, built: &Built) -> Result<(), String> {
        let _ = built;
        Ok(())
    }

    /// The probe that must watch the run cycle by cycle for this check, if it needs one (None
    /// also when what it names is not in `model`).
    fn probe(&self, model: &Model) -> Option<Probe> {
        let _ = model;
        None
    }

    /// Judges the run into `out`, which holds the kind, the series, the engine's code and
    /// the default tolerance kind (relative) on entry; `probe` is the one
    /// [`CheckKind::probe`] made, if any.
    fn evaluate(&self, ctx: &Context, probe: Option<&Probe>, out: &mut CheckOutcome);
}

/// What a check is validated against besides its keys: the model its case builds (primed),
/// and the run's settings.
pub struct Built<'a> {
    /// The model.
    pub model: &'a Model,
    /// `[run] duration`, s, if given.
    pub duration: Option<Real>,
    /// The timestep mode.
    pub timestep: &'a TimestepMode,
}

/// A check as written in a case file.
#[derive(Clone, Debug)]
pub enum CheckSpec {
    /// The run's summary and final values against `golden/<name>.snap`: judged after the
    /// other checks, on the summary they make (`super::evaluate_golden`).
    Golden {
        /// Relative tolerance on each number.
        tolerance: Real,
    },
    /// Any other kind, judged on the run ([`evaluate`]).
    Kind(Arc<dyn CheckKind>),
}

impl CheckSpec {
    /// The kind, unless this is a golden check.
    pub fn as_kind(&self) -> Option<&dyn CheckKind> {
        match self {
            CheckSpec::Golden { .. } => None,
            CheckSpec::Kind(k) => Some(k.as_ref()),
        }
    }

    /// The kind as written in case files.
    pub fn kind(&self) -> &'static str {
        self.as_kind().map_or("golden", |k| k.kind())
    }

    /// The column this check judges, if any.
    pub fn series(&self) -> Option<&str> {
        self.as_kind().and_then(|k| k.series())
    }

    /// Further series this check reads (recorded for it).
    pub fn extra_series(&self) -> Vec<String> {
        self.as_kind().map(|k| k.extra_series()).unwrap_or_default()
    }

    /// The other case files this check names, with their keys.
    pub fn other_cases(&self) -> Vec<(&'static str, &str)> {
        self.as_kind().map(|k| k.other_cases()).unwrap_or_default()
    }

    /// True when the check follows one ball by its index.
    pub fn follows_a_ball(&self) -> bool {
        self.as_kind().is_some_and(|k| k.follows_a_ball())
    }

    /// Checks what only the model can tell: the column judged and the bodies and series named
    /// exist.
    ///
    /// # Errors
    /// A sentence naming what is missing.
    pub fn validate(&self, built: &Built) -> Result<(), String> {
        let Some(kind) = self.as_kind() else {
            return Ok(());
        };
        if let Some(s) = kind.series() {
            keys::column(built.model, s)?;
        }
        kind.validate(built)
    }
}

/// The probe that must watch the run cycle by cycle for check `spec`, if it needs one.
pub fn probe(spec: &CheckSpec, model: &Model) -> Option<Probe> {
    spec.as_kind().and_then(|k| k.probe(model))
}

/// Evaluates one check (not `golden`, which needs the summary: see `super::evaluate_golden`).
pub fn evaluate(spec: &CheckSpec, ctx: &Context, probe: Option<&Probe>) -> CheckOutcome {
    let mut out = CheckOutcome {
        kind: spec.kind().into(),
        passed: false,
        tolerance_kind: "relative".into(),
        series: spec.series().map(String::from),
        code: engine_code(ctx.case),
        ..Default::default()
    };
    match spec.as_kind() {
        Some(kind) => kind.evaluate(ctx, probe, &mut out),
        None => out.fail("golden checks are evaluated after the others".into()),
    }
    if ctx.case.has_clumps() && !out.code.is_empty() {
        out.code.push("src/body/clumps.rs::Clumps::step".into());
        out.code.push("src/geom/union.rs::union_moments".into());
    }
    out
}
