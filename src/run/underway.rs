//! A run under way: what it has before its first cycle ([`Setup`]), and the loop's state with
//! the stages of one cycle ([`Underway::cycle`]): advance the model, record, look for a
//! blow-up, write a checkpoint, prove a restart, stop on an interrupt, write VTK files, stop at
//! the solve ratio.

use super::checkpoint;
use super::interrupt::interrupted;
use super::simulation::{Control, Simulation};
use crate::case::{Case, CaseError, DEFAULT_RECORDS};
use crate::check::Observer;
use crate::cycle::Watch;
use crate::math::{num, Real};
use crate::model::Model;
use crate::output::{base_series, Recorder, VtkWriter};
use crate::record::DtStats;
use crate::timestep::Limit;
use indicatif::{ProgressBar, ProgressStyle};
use std::borrow::Borrow;
use std::collections::HashMap;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// How long a run goes, and how it records when its length is a time.
pub(super) struct Length {
    /// Cycles to run (None: a duration, reached by time when dt varies).
    pub max_steps: Option<u64>,
    /// Simulated time to reach, s (infinite without `[run] duration`).
    duration: Real,
    /// Stop once the unbalanced-force ratio is at most this.
    solve_ratio: Option<Real>,
    /// A duration with a varying timestep and no `every`: a record each time the simulated
    /// time passes a multiple of this (duration / DEFAULT_RECORDS), s.
    by_time: Option<Real>,
    /// The cycle and time the stage started from (the run's length is counted from there):
    /// (0, 0), or a checkpoint's with `--from`.
    pub start: (u64, Real),
}

impl Length {
    /// The length of `case`'s run with timestep `dt`.
    fn of(case: &Case, dt: Option<Real>) -> Length {
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
    fn last_cycle(&self) -> Option<u64> {
        self.max_steps.map(|n| self.start.0 + n)
    }

    /// True when the simulated time has reached the duration.
    // NOTE: a relative slack of 1e-12 so that round-off in the summed time does not add a cycle.
    fn time_is_up(&self, model: &Model) -> bool {
        model.time >= (self.start.1 + self.duration) * (1.0 - 1e-12)
    }
}

/// What a run has before its first cycle: the model, what records its series, the observers.
/// `C` holds the case: borrowed (`&Case`, a run of [`super::simulate`]) or owned (a
/// [`super::Session`]'s).
pub(super) struct Setup<C, O> {
    case: C,
    /// The case file, for errors.
    file: String,
    /// The model (a session's may be changed before the first cycle).
    pub model: Model,
    recorder: Recorder,
    /// The observers (made again by a session whose model changed before the first cycle).
    pub observers: Vec<O>,
    vtk: Option<VtkWriter>,
    /// The run's length.
    pub length: Length,
    /// Record every this many cycles (None until the first cycle fixes it).
    every: Option<u64>,
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
fn vtk_error(file: &str, e: std::io::Error) -> CaseError {
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

/// A run under way: the model and everything the loop keeps beside it.
pub(super) struct Underway<C, O> {
    case: C,
    file: String,
    /// Where checkpoints go (`Control::out_dir`).
    out_dir: Option<PathBuf>,
    /// True on a resume: the checkpoint holds the first record.
    resumed: bool,
    length: Length,
    /// The model.
    pub model: Model,
    recorder: Recorder,
    observers: Vec<O>,
    vtk: Option<VtkWriter>,
    bar: Option<ProgressBar>,
    dt_stats: DtStats,
    /// What set the timestep, and in how many cycles.
    limits: HashMap<Limit, u64>,
    watch: Watch,
    /// Cycles run.
    step: u64,
    /// Record every this many cycles (None until the first cycle fixes it).
    every: Option<u64>,
    /// With `Length::by_time`: the last multiple of its interval the time passed.
    mark: Real,
    /// Why the run stopped early (blow-up, interrupt, a checkpoint not written), if it did.
    pub error: Option<String>,
    /// Why the run stopped before its budget without an error (solve ratio), if it did.
    stopped: Option<String>,
    /// True when an interrupt stopped the run.
    interrupted: bool,
}

impl<C: Borrow<Case>, O: Observer> Underway<C, O> {
    /// Starts the run: from the checkpoint `control` names (its cycle, series and observers),
    /// or primed at cycle 0 (detection and forces once, and a first look for a blow-up).
    ///
    /// # Errors
    /// A checkpoint that cannot be read or does not fit the case.
    pub fn begin(
        setup: Setup<C, O>,
        control: &Control,
        bar: Option<ProgressBar>,
    ) -> Result<Self, CaseError> {
        let Setup {
            case,
            file,
            mut model,
            mut recorder,
            mut observers,
            vtk,
            mut length,
            mut every,
        } = setup;
        let mut dt_stats = DtStats {
            min: Real::INFINITY,
            max: 0.0,
            last: 0.0,
            mode: model.settings.timestep.to_string(),
            set_by: Vec::new(),
        };
        let mut limits = HashMap::new();
        let (step, error, watch) = match control.resume {
            Some(path) => {
                let resume_error = |e| CaseError::new(&file, "--resume", e);
                let state = checkpoint::read(path, Some(case.borrow().source_hash))
                    .map_err(resume_error)?;
                crate::case::stage::fits_case(&state.model, &model, state.stage != (0, 0.0))
                    .map_err(|e| resume_error(format!("{}: {e}", path.display())))?;
                let step = state.step;
                every = state.every;
                length.start = state.stage;
                let parts = (&mut model, &mut recorder, &mut dt_stats, &mut limits);
                let watch =
                    checkpoint::restore(state, parts, &mut observers).map_err(resume_error)?;
                (step, None, watch)
            }
            None => {
                // (a stage from a checkpoint whose contacts and forces still hold goes on
                // from them as they are)
                let kept = control.from.is_some() && model.primed;
                let error = (!kept).then(|| model.prime().err()).flatten();
                let error = error.map(|e| e.to_string());
                let mut watch = Watch::new(&model);
                let error = error.or_else(|| watch.look(&model, true).err());
                (length.start.0, error, watch)
            }
        };
        // (the last multiple passed, found again from the time on a resume)
        let mark = length.by_time.map_or(0.0, |i| (model.time / i).floor());
        Ok(Underway {
            case,
            file,
            out_dir: control.out_dir.map(Path::to_path_buf),
            resumed: control.resume.is_some(),
            length,
            model,
            recorder,
            observers,
            vtk,
            bar,
            dt_stats,
            limits,
            watch,
            step,
            every,
            mark,
            error,
            stopped: None,
            interrupted: false,
        })
    }

    /// Records the state before the first cycle, and shows it to the observers (not on a
    /// resume: the checkpoint's records and observers hold it).
    ///
    /// # Errors
    /// A VTK file that cannot be written.
    pub fn first_record(&mut self) -> Result<(), CaseError> {
        if !self.resumed {
            self.recorder.record(&self.model);
            if let Some(v) = &mut self.vtk {
                v.write(&self.model).map_err(|e| vtk_error(&self.file, e))?;
            }
            self.observers
                .iter_mut()
                .for_each(|o| o.observe(&self.model));
        }
        Ok(())
    }

    /// One cycle of the run and what follows it; false when the run ends there (its length,
    /// a blow-up, an interrupt, the solve ratio, a checkpoint or restart that failed).
    ///
    /// # Errors
    /// A VTK file that cannot be written.
    pub fn cycle(&mut self) -> Result<bool, CaseError> {
        let end = self.length.last_cycle();
        let last = match end {
            Some(n) => self.step >= n,
            None => self.length.time_is_up(&self.model),
        };
        if last || !self.advance() {
            return Ok(false);
        }
        let due = self.due();
        let reached = (self.length.solve_ratio).filter(|&r| self.model.unbalanced_ratio() <= r);
        let done = end == Some(self.step)
            || (end.is_none() && self.length.time_is_up(&self.model))
            || reached.is_some();
        let stop = interrupted();
        if due || done {
            self.recorder.record(&self.model);
        }
        if let Err(e) = self.watch.look(&self.model, due || done) {
            self.error = Some(e);
            return Ok(false);
        }
        if !self.save_checkpoint(done, stop) || !self.restart_proof() {
            return Ok(false);
        }
        if stop {
            // (the interrupted cycle's record after its checkpoint: a run resumed from that
            // checkpoint records what the run straight through would)
            if !(due || done) {
                self.recorder.record(&self.model);
            }
            self.interrupted = true;
            self.error = Some(format!(
                "interrupted (SIGINT or SIGTERM) at the end of cycle {}: the series hold \
                 the records up to that cycle; the checks were not judged",
                self.step
            ));
            return Ok(false);
        }
        self.write_vtk()?;
        if let Some(r) = reached {
            self.stopped = Some(format!(
                "solve ratio {} <= {} reached at cycle {}",
                num(self.model.unbalanced_ratio()),
                num(r),
                self.step
            ));
            return Ok(false);
        }
        self.show_progress();
        Ok(true)
    }

    /// Runs the next cycle, books its timestep and shows it to the observers; false on a
    /// blow-up.
    fn advance(&mut self) -> bool {
        self.step += 1;
        if let Err(e) = self.model.cycle() {
            self.error = Some(e.to_string());
            return false;
        }
        self.dt_stats.min = self.dt_stats.min.min(self.model.last_dt);
        self.dt_stats.max = self.dt_stats.max.max(self.model.last_dt);
        *self.limits.entry(self.model.dt_limit).or_default() += 1;
        self.observers
            .iter_mut()
            .for_each(|o| o.observe(&self.model));
        true
    }

    /// True when this cycle is recorded: the time passed a multiple of `Length::by_time`, or
    /// the cycle is a multiple of `every`.
    fn due(&mut self) -> bool {
        match self.length.by_time {
            Some(interval) => {
                let k = (self.model.time / interval).floor();
                let passed = k > self.mark;
                self.mark = self.mark.max(k);
                passed
            }
            None => {
                // (without a duration: a solve ratio ends the run; about DEFAULT_RECORDS
                // records if the first timestep holds)
                let (duration, last_dt) = (self.length.duration, self.model.last_dt);
                let period = *self
                    .every
                    .get_or_insert_with(|| ((duration / last_dt) as u64 / DEFAULT_RECORDS).max(1));
                self.step % period == 0
            }
        }
    }

    /// The series recorded so far.
    pub fn table(&self) -> &crate::output::SeriesTable {
        &self.recorder.table
    }

    /// The run's whole state, borrowed for a checkpoint.
    pub(super) fn state(&self) -> checkpoint::RunStateRef<'_> {
        let mut limits: Vec<(Limit, u64)> = self.limits.iter().map(|(l, n)| (*l, *n)).collect();
        // (a HashMap's order differs from run to run: the file's bytes should not)
        limits.sort_by_key(|(l, n)| (format!("{l:?}"), *n));
        checkpoint::RunStateRef {
            step: self.step,
            every: self.every,
            model: &self.model,
            table: &self.recorder.table,
            dt: &self.dt_stats,
            limits,
            watch: &self.watch,
            observers: self.observers.iter().map(O::save).collect(),
            stage: self.length.start,
        }
    }

    /// Writes a checkpoint when one is due (every `checkpoint_every` cycles and at the end,
    /// when set; on an interrupt) and the run has an output folder; false when it could not
    /// be written.
    fn save_checkpoint(&mut self, done: bool, stop: bool) -> bool {
        let every = self.case.borrow().checkpoint_every;
        let now = (every > 0 && (self.step % every == 0 || done)) || stop;
        let Some(out) = self.out_dir.as_deref().filter(|_| now) else {
            return true;
        };
        let written = checkpoint::write(out, &self.state(), self.case.borrow().source_hash);
        if let Err(e) = written {
            self.error = Some(format!(
                "cycle {}: the checkpoint could not be written: {e}",
                self.step
            ));
            return false;
        }
        true
    }

    /// At `[run] restart_at`, the restart proof: the whole state through a checkpoint's bytes
    /// and back; false when that failed.
    fn restart_proof(&mut self) -> bool {
        if self.case.borrow().file.run.restart_at != Some(self.step) {
            return true;
        }
        let hash = self.case.borrow().source_hash;
        let restored = checkpoint::encode(&self.state(), hash)
            .and_then(|bytes| checkpoint::decode(&bytes, Some(hash)));
        let parts = (
            &mut self.model,
            &mut self.recorder,
            &mut self.dt_stats,
            &mut self.limits,
        );
        let every = &mut self.every;
        match restored.and_then(|s| {
            *every = s.every;
            checkpoint::restore(s, parts, &mut self.observers)
        }) {
            Ok(w) => {
                self.watch = w;
                true
            }
            Err(e) => {
                self.error = Some(format!("cycle {}: the restart failed: {e}", self.step));
                false
            }
        }
    }

    /// Writes the VTK file of a cycle that is a multiple of `vtk_every`.
    fn write_vtk(&mut self) -> Result<(), CaseError> {
        if let Some(v) = &mut self.vtk {
            if self.step % self.case.borrow().vtk_every == 0 {
                v.write(&self.model).map_err(|e| vtk_error(&self.file, e))?;
            }
        }
        Ok(())
    }

    /// Moves the progress bar every 1,000 cycles.
    fn show_progress(&self) {
        if let Some(b) = &self.bar {
            if self.step % 1000 == 0 {
                let (cycle, time) = self.length.start;
                b.set_position(match self.length.max_steps {
                    Some(_) => self.step - cycle,
                    None => (1000.0 * (self.model.time - time) / self.length.duration) as u64,
                });
            }
        }
    }

    /// Ends the run: the bar cleared, a restart proof that never came reported, the last VTK
    /// file, the timestep statistics.
    ///
    /// # Errors
    /// A VTK file that cannot be written.
    pub fn finish(mut self, start: Instant) -> Result<Simulation<O>, CaseError> {
        if let Some(b) = self.bar.take() {
            b.finish_and_clear();
        }
        // a restart proof whose cycle never came proves nothing: say so
        if let Some(at) = self.case.borrow().file.run.restart_at {
            if self.error.is_none() && self.model.cycles < at {
                self.error = Some(format!(
                    "[run] restart_at = {at} was never reached: the run ended at cycle {}",
                    self.model.cycles
                ));
            }
        }
        if let Some(v) = &mut self.vtk {
            // the last state too, when the last cycle is not a multiple of vtk_every (the end
            // of the run, a solve ratio reached, an interrupt, a blow-up)
            if self.model.cycles % self.case.borrow().vtk_every != 0 {
                v.write(&self.model).map_err(|e| vtk_error(&self.file, e))?;
            }
            v.finish().map_err(|e| vtk_error(&self.file, e))?;
        }
        let mut dt = self.dt_stats;
        dt.last = self.model.last_dt;
        if dt.min > dt.max {
            dt.min = 0.0;
        }
        let mut set_by: Vec<(String, u64)> = (self.limits.into_iter())
            .map(|(l, n)| (self.model.describe_limit(l), n))
            .collect();
        set_by.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        dt.set_by = set_by;
        Ok(Simulation {
            table: self.recorder.table,
            model: self.model,
            dt,
            wall_seconds: start.elapsed().as_secs_f64(),
            observers: self.observers,
            interrupted: self.interrupted,
            error: self.error,
            stopped: self.stopped,
        })
    }
}
