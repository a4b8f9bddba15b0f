//! A run under way: the loop's state with the stages of one cycle ([`Underway::cycle`]):
//! advance the model, record, look for a blow-up, write a checkpoint, prove a restart, stop on
//! an interrupt, write VTK files, stop at the solve ratio.

use super::checkpoint;
use super::interrupt::interrupted;
use super::ranked::Ranked;
use super::setup::{vtk_error, Length, Setup};
use super::simulation::{Control, Simulation};
use crate::case::{Case, CaseError, DEFAULT_RECORDS};
use crate::check::Observer;
use crate::cycle::{Watch, WATCH_EVERY};
use crate::math::{num, Real};
use crate::model::Model;
use crate::output::{Recorder, VtkWriter};
use crate::record::DtStats;
use crate::timestep::Limit;
use indicatif::ProgressBar;
use std::borrow::Borrow;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// A run under way: the model and everything the loop keeps beside it.
pub(super) struct Underway<'r, C, O> {
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
    /// Over ranks: this rank's part (`model` is then the whole, gathered where read).
    ranked: Option<Ranked<'r>>,
}

impl<'r, C: Borrow<Case>, O: Observer> Underway<'r, C, O> {
    /// Starts the run: from the checkpoint `control` names (its cycle, series and observers),
    /// or primed at cycle 0 (detection and forces once, and a first look for a blow-up).
    ///
    /// # Errors
    /// A checkpoint that cannot be read or does not fit the case.
    pub fn begin(
        setup: Setup<C, O>,
        control: &Control,
        comm: Option<&'r dyn crate::comm::Comm>,
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
        let mut ranked = None;
        let mut vtk = vtk;
        let (step, read) = match control.resume {
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
                (step, Some(watch))
            }
            None => (length.start.0, None),
        };
        let mut error = None;
        if let Some(comm) = comm {
            // (the model built or read, cut over the ranks; a model read is primed already)
            let c = case.borrow();
            let refused = super::ranked::refuse(control.from.is_some());
            refused.map_err(|(key, e)| CaseError::new(&file, key, e))?;
            let (r, whole, e) = Ranked::cut(&model, comm, (c.decomposition, c.rebalance), &file)?;
            if let Some(whole) = whole {
                model = whole;
            }
            // (rank 0 writes the files)
            vtk = vtk.filter(|_| r.root());
            ranked = Some(r);
            error = e;
        } else if read.is_none() {
            // (a stage from a checkpoint whose contacts and forces still hold goes on from
            // them as they are)
            let kept = control.from.is_some() && model.primed;
            let primed = (!kept).then(|| model.prime().err()).flatten();
            error = primed.map(|e| e.to_string());
        }
        let watch = read.unwrap_or_else(|| {
            let mut watch = Watch::new(&model);
            error = error.take().or_else(|| watch.look(&model, true).err());
            watch
        });
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
            ranked,
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
        let ends = end == Some(self.step) || (end.is_none() && self.length.time_is_up(&self.model));
        let stop = match &self.ranked {
            Some(x) => x.any(interrupted()),
            None => interrupted(),
        };
        self.gather_for(due || ends || stop);
        self.observers
            .iter_mut()
            .for_each(|o| o.observe(&self.model));
        let reached = (self.length.solve_ratio).filter(|&r| self.model.unbalanced_ratio() <= r);
        let done = ends || reached.is_some();
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
        let cycled = match &mut self.ranked {
            Some(x) => x.cycle(&mut self.model),
            None => self.model.cycle().map_err(|e| e.to_string()),
        };
        if let Err(e) = cycled {
            if let Some(x) = &self.ranked {
                self.model = x.gather();
            }
            self.error = Some(e);
            return false;
        }
        self.dt_stats.min = self.dt_stats.min.min(self.model.last_dt);
        self.dt_stats.max = self.dt_stats.max.max(self.model.last_dt);
        *self.limits.entry(self.model.dt_limit).or_default() += 1;
        true
    }

    /// Over ranks, the whole model gathered when something reads it after this cycle
    /// (`needed`: a record, the end, an interrupt; the checks' probes or a solve ratio after
    /// every cycle; the blow-up watch, a checkpoint, a VTK file, the restart proof at their
    /// cycles).
    fn gather_for(&mut self, needed: bool) {
        let Some(x) = &self.ranked else { return };
        let c = self.case.borrow();
        let at = |every: u64| every > 0 && self.step % every == 0;
        let watched = self.length.solve_ratio.is_some() || self.observers.iter().any(O::watches);
        let watch = self.model.cycles % WATCH_EVERY == 0;
        let restart = c.file.run.restart_at == Some(self.step);
        if needed || watched || watch || restart || at(c.checkpoint_every) || at(c.vtk_every) {
            self.model = x.gather();
        }
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
        let written = match &self.ranked {
            Some(x) if !x.root() => Ok(()),
            _ => checkpoint::write(out, &self.state(), self.case.borrow().source_hash).map(drop),
        };
        let written = match &self.ranked {
            // (rank 0 writes: every rank stops when it could not)
            Some(x) if x.any(written.is_err()) => written.and(Err("rank 0 could not".into())),
            _ => written,
        };
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
                if let Some(x) = &mut self.ranked {
                    // (every rank goes on from the bytes, cut again)
                    x.restart(&self.model);
                }
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
        let every = self.case.borrow().vtk_every;
        let due = every > 0 && self.step % every == 0;
        let written = match &mut self.vtk {
            Some(v) if due => v.write(&self.model),
            _ => Ok(()),
        };
        if let Some(x) = self.ranked.as_ref().filter(|_| due) {
            // (rank 0 writes: every rank stops when it could not)
            if x.any(written.is_err()) {
                let e = written
                    .err()
                    .unwrap_or_else(|| std::io::Error::other("on rank 0"));
                return Err(vtk_error(&self.file, e));
            }
        }
        written.map_err(|e| vtk_error(&self.file, e))
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
        // (a collective: before anything that may stop one rank early)
        let ranks = self.ranked.as_ref().map(Ranked::summary);
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
            ranks,
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
