//! What a run has before its first cycle ([`Setup`]: the model, what records its series, the
//! observers) and how long it goes ([`Length`]).

use super::checkpoint;
use crate::case::{Case, CaseError, DEFAULT_RECORDS};
use crate::check::Observer;
use crate::math::Real;
use crate::model::Model;
use crate::output::{base_series, Recorder, VtkWriter};
use indicatif::{ProgressBar, ProgressStyle};
use std::borrow::Borrow;
use std::io::IsTerminal;
use std::path::Path;

/// How long a run goes, and how it records when its length is a time.
pub(super) struct Length {
    /// Cycles to run (None: a duration, reached by time when dt varies).
    pub max_steps: Option<u64>,
    /// Simulated time to reach, s (infinite without `[run] duration`).
    pub(super) duration: Real,
    /// Stop once the unbalanced-force ratio is at most this.
    pub(super) solve_ratio: Option<Real>,
    /// A duration with a varying timestep and no `every`: a record each time the simulated
    /// time passes a multiple of this (duration / DEFAULT_RECORDS), s.
    pub(super) by_time: Option<Real>,
    /// The cycle and time the stage started from (the run's length is counted from there):
    /// (0, 0), or a checkpoint's with `--from`.
    pub start: (u64, Real),
}

impl Length {
    /// The length of `case`'s run with timestep `dt`.
    pub(super) fn of(case: &Case, dt: Option<Real>) -> Length {
        let max_steps = case.cycles(dt);
        let duration = case.file.run.duration.unwrap_or(Real::INFINITY);
        // (a count of cycles fixed by the first step recorded every cycle of a pour whose step
        // shrank: 16,385 records where about 2,000 were meant)
        let by_time = (case.every.is_none() && max_steps.is_none() && duration.is_finite())
            .then(|| duration / DEFAULT_RECORDS as Real);
        Length {
            max_steps,
            duration,
            solve_ratio: case.file.run.solve_ratio,
            by_time,
            start: (0, 0.0),
        }
    }

    /// The last cycle of the run, when its length is a number of cycles.
    pub(super) fn last_cycle(&self) -> Option<u64> {
        self.max_steps.map(|n| self.start.0 + n)
    }

    /// True when the simulated time has reached the duration.
    // NOTE: a relative slack of 1e-12 so that round-off in the summed time does not add a cycle.
    pub(super) fn time_is_up(&self, model: &Model) -> bool {
        model.time >= (self.start.1 + self.duration) * (1.0 - 1e-12)
    }
}

/// What a run has before its first cycle: the model, what records its series, the observers.
/// `C` holds the case: borrowed (`&Case`, a run of [`super::simulate`]) or owned (a
/// [`super::Session`]'s).
pub(super) struct Setup<C, O> {
    pub(super) case: C,
    /// The case file, for errors.
    pub(super) file: String,
    /// The model (a session's may be changed before the first cycle).
    pub model: Model,
    pub(super) recorder: Recorder,
    /// The observers (made again by a session whose model changed before the first cycle).
    pub observers: Vec<O>,
    pub(super) vtk: Option<VtkWriter>,
    /// The run's length.
    pub length: Length,
    /// Record every this many cycles (None until the first cycle fixes it).
    pub(super) every: Option<u64>,
}

impl<C: Borrow<Case>, O: Observer> Setup<C, O> {
    /// Builds the model of `case` (timestep `dt`), the recorder of its series and of `extra`
    /// ones, the VTK writer into `vtk_dir`, and the observers.
    ///
    /// # Errors
    /// A model that cannot be built, a series that does not exist, a VTK folder that cannot be
    /// written, a series table too large for the memory.
    pub fn new(
        case: C,
        (dt, extra): (Option<Real>, &[String]),
        vtk_dir: Option<&Path>,
        from: Option<&Path>,
        observers: impl FnOnce(&Model) -> Vec<O>,
    ) -> Result<Self, CaseError> {
        let c = case.borrow();
        let file = c.path.display().to_string();
        let vtk = match vtk_dir.filter(|_| c.vtk_every > 0) {
            Some(d) => {
                let format = (c.file.output.as_ref()).and_then(|o| o.vtk_format);
                let w = VtkWriter::with_format(d, format.unwrap_or_default());
                Some(w.map_err(|e| vtk_error(&file, e))?)
            }
            None => None,
        };
        let mut model = c.build_model(dt)?;
        let mut start = (0, 0.0);
        if let Some(path) = from {
            let from_error = |e| CaseError::new(&file, "--from", e);
            let state = checkpoint::read(path, None).map_err(from_error)?;
            start = (state.step, state.model.time);
            model = crate::case::stage::adopt(state.model, model, c).map_err(from_error)?;
        }
        let names = series_names(c, extra);
        let books = super::books::energy_books(&file, &names, &model)?;
        // (a stage goes on with the books of the checkpoint, when it kept them)
        if books && model.books.is_none() {
            model.keep_energy_books();
        }
        let recorder =
            Recorder::new(&names, &model).map_err(|e| CaseError::new(&file, "output.series", e))?;
        let observers = observers(&model);
        let mut length = Length::of(c, dt);
        length.start = start;
        let every = (c.every).or(length.max_steps.map(|s| (s / DEFAULT_RECORDS).max(1)));
        table_fits(&file, length.max_steps, every, recorder.table.columns.len())?;
        Ok(Setup {
            case,
            file,
            model,
            recorder,
            observers,
            vtk,
            length,
            every,
        })
    }
}

impl<C, O> Setup<C, O> {
    /// The series table, empty before the first record.
    pub fn table(&self) -> &crate::output::SeriesTable {
        &self.recorder.table
    }
}

/// The series a case's run records: the case's own, the columns its checks judge, `extra`,
/// and the series its checks read.
fn series_names(case: &Case, extra: &[String]) -> Vec<String> {
    let mut names = case.series.clone();
    for c in &case.checks {
        if let Some(s) = c.series() {
            names.push(base_series(s).to_string());
        }
    }
    names.extend(extra.iter().cloned());
    for c in &case.checks {
        names.extend(c.extra_series());
    }
    names
}

/// The series table of the whole run must fit in memory: checked before the first cycle.
fn table_fits(
    file: &str,
    max_steps: Option<u64>,
    every: Option<u64>,
    columns: usize,
) -> Result<(), CaseError> {
    if let (Some(n), Some(e)) = (max_steps, every) {
        let rows = n / e + 2;
        let cols = columns as u64 + 1;
        crate::storage::fits(rows.saturating_mul(cols), crate::storage::RECORD_BYTES).map_err(
            |m| {
                CaseError::new(
                    file,
                    "output.every",
                    format!("{rows} records of {cols} columns (one every {e} cycles): {m}"),
                )
            },
        )?;
    }
    Ok(())
}

/// A VTK file that cannot be written, as the case's error.
pub(super) fn vtk_error(file: &str, e: std::io::Error) -> CaseError {
    CaseError::new(file, "output.vtk_every", e.to_string())
}

/// A progress bar on a terminal, for a long run (`progress` asked, at least 100,000 cycles or
/// a duration).
pub(super) fn progress_bar(
    case: &Case,
    max_steps: Option<u64>,
    progress: bool,
) -> Option<ProgressBar> {
    let bar_len = max_steps.unwrap_or(1000);
    let long = max_steps.is_none() || bar_len >= 100_000;
    (progress && long && std::io::stdout().is_terminal()).then(|| {
        let b = ProgressBar::new(bar_len);
        let unit = if max_steps.is_some() {
            "cycles"
        } else {
            "‰ of the duration"
        };
        b.set_style(
            ProgressStyle::with_template(&format!(
                "{{msg}} {{wide_bar}} {{pos}}/{{len}} {unit}, {{eta}} left"
            ))
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        b.set_message(case.name.clone());
        b
    })
}
