//! The run loop: builds a case's model, runs it to its end (cycles, duration or solve ratio),
//! records its series and VTK files, and lets observers watch every cycle. It knows the case
//! grammar, not the checks: a check's probe is an [`Observer`].

use crate::case::{Case, CaseError, DEFAULT_RECORDS};
use crate::math::{num, Real};
use crate::model::Model;
use crate::output::{base_series, Recorder, SeriesTable};
use crate::record::DtStats;
use crate::timestep::Limit;
use std::io::IsTerminal;
use std::path::Path;
use std::time::Instant;

/// The run's state at the end of cycle `step`, borrowed for a checkpoint.
#[allow(clippy::too_many_arguments)]
fn snapshot<'a, O: Observer>(
    step: u64,
    every: Option<u64>,
    model: &'a Model,
    recorder: &'a Recorder,
    dt: &'a DtStats,
    limits: &std::collections::HashMap<Limit, u64>,
    watch: &'a crate::cycle::Watch,
    observers: &[O],
) -> checkpoint::RunStateRef<'a> {
    let mut limits: Vec<(Limit, u64)> = limits.iter().map(|(l, n)| (*l, *n)).collect();
    // (a HashMap's order differs from run to run: the file's bytes should not)
    limits.sort_by_key(|(l, n)| (format!("{l:?}"), *n));
    checkpoint::RunStateRef {
        step,
        every,
        model,
        table: &recorder.table,
        dt,
        limits,
        watch,
        observers: observers.iter().map(O::save).collect(),
    }
}

/// Puts a checkpoint's state in place; returns its watch.
fn restore<O: Observer>(
    state: checkpoint::RunState,
    model: &mut Model,
    recorder: &mut Recorder,
    dt: &mut DtStats,
    limits: &mut std::collections::HashMap<Limit, u64>,
    observers: &mut [O],
) -> Result<crate::cycle::Watch, String> {
    if state.table.columns != recorder.table.columns {
        return Err("its series are not the ones this case records".into());
    }
    if state.observers.len() != observers.len() {
        return Err("its checks are not the ones of this case".into());
    }
    for (o, bytes) in observers.iter_mut().zip(&state.observers) {
        o.load(bytes)?;
    }
    *model = state.model;
    recorder.table = state.table;
    *dt = state.dt;
    *limits = state.limits.into_iter().collect();
    Ok(state.watch)
}

/// Set by SIGINT/SIGTERM (the command line's handler calls [`interrupt`]): the run loop then
/// stops at the end of the cycle it is in, records that state and reports the interruption.
static INTERRUPTED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Asks every run of this process to stop at the end of its current cycle.
pub fn interrupt() {
    INTERRUPTED.store(true, std::sync::atomic::Ordering::Relaxed);
}

/// True once [`interrupt`] was called.
pub fn interrupted() -> bool {
    INTERRUPTED.load(std::sync::atomic::Ordering::Relaxed)
}

pub mod checkpoint;

/// Something that watches a run cycle by cycle (a check's probe): it sees the model once
/// before the first cycle and after every cycle.
pub trait Observer {
    /// Looks at the model.
    fn observe(&mut self, model: &Model);
    /// Its state, for a checkpoint (nothing, for an observer without one).
    fn save(&self) -> Vec<u8> {
        Vec::new()
    }
    /// Takes back the state [`Observer::save`] gave.
    ///
    /// # Errors
    /// Bytes it cannot read, as a sentence.
    fn load(&mut self, bytes: &[u8]) -> Result<(), String> {
        let _ = bytes;
        Ok(())
    }
}

/// No observer.
impl Observer for () {
    fn observe(&mut self, _: &Model) {}
}

/// An observer that may be absent.
impl<O: Observer> Observer for Option<O> {
    fn observe(&mut self, model: &Model) {
        if let Some(o) = self {
            o.observe(model);
        }
    }
    fn save(&self) -> Vec<u8> {
        self.as_ref().map(O::save).unwrap_or_default()
    }
    fn load(&mut self, bytes: &[u8]) -> Result<(), String> {
        match self {
            Some(o) => o.load(bytes),
            None => Ok(()),
        }
    }
}

/// Where a run keeps its checkpoints and where it resumes from.
#[derive(Clone, Copy, Debug, Default)]
pub struct Control<'a> {
    /// The output folder: checkpoints go to its `checkpoints/` (every `[output]
    /// checkpoint_every` cycles, at the end when that is set, and on an interrupt). None: no
    /// checkpoint is written.
    pub out_dir: Option<&'a Path>,
    /// Resume from this checkpoint instead of starting at cycle 0.
    pub resume: Option<&'a Path>,
}

/// A finished (or stopped) run, with the observers that watched it.
pub struct Simulation<O = ()> {
    /// Recorded series.
    pub table: SeriesTable,
    /// The model at the end.
    pub model: Model,
    /// Timestep statistics.
    pub dt: DtStats,
    /// Wall-clock seconds.
    pub wall_seconds: Real,
    /// The observers that watched the run, in the order given.
    pub observers: Vec<O>,
    /// Why the run stopped early (blow-up), if it did.
    pub error: Option<String>,
    /// Why the run stopped before its last step without an error (solve ratio), if it did.
    pub stopped: Option<String>,
    /// True when SIGINT/SIGTERM stopped the run ([`interrupt`]); `error` then says at which
    /// cycle, and the series hold every record up to it and that cycle's state.
    pub interrupted: bool,
}

/// Runs a case's model, recording its series plus `extra` ones; `dt` overrides a fixed
/// timestep; with `vtk_dir`, VTK files are written there every `[output] vtk_every` cycles. A
/// blow-up stops the run and is reported in [`Simulation::error`].
///
/// # Errors
/// A model that cannot be built or a series that does not exist.
pub fn simulate(
    case: &Case,
    dt: Option<Real>,
    extra: &[String],
    progress: bool,
    vtk_dir: Option<&Path>,
) -> Result<Simulation, CaseError> {
    simulate_observed(
        case,
        dt,
        extra,
        progress,
        vtk_dir,
        &Control::default(),
        |_| Vec::new(),
    )
}

/// [`simulate`], watched by the observers `observers` makes from the model before the first
/// cycle.
///
/// # Errors
/// As [`simulate`].
pub fn simulate_observed<O: Observer>(
    case: &Case,
    dt: Option<Real>,
    extra: &[String],
    progress: bool,
    vtk_dir: Option<&Path>,
    control: &Control,
    observers: impl FnOnce(&Model) -> Vec<O>,
) -> Result<Simulation<O>, CaseError> {
    let file = case.path.display().to_string();
    let vtk_error = |e: std::io::Error| CaseError::new(&file, "output.vtk_every", e.to_string());
    let mut vtk = match vtk_dir.filter(|_| case.vtk_every > 0) {
        Some(d) => Some(crate::output::VtkWriter::new(d).map_err(vtk_error)?),
        None => None,
    };
    let mut model = case.build_model(dt)?;
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
    let books = names.iter().any(|n| {
        crate::output::Source::parse(base_series(n), &model).is_ok_and(|s| s.needs_energy_books())
    });
    if books {
        model.keep_energy_books();
    }
    let mut recorder =
        Recorder::new(&names, &model).map_err(|e| CaseError::new(&file, "output.series", e))?;
    let mut observers = observers(&model);
    // Run length: a number of cycles, or a duration (reached by time when dt varies).
    let max_steps = case.cycles(dt);
    let duration = case.file.run.duration.unwrap_or(Real::INFINITY);
    let solve_ratio = case.file.run.solve_ratio;
    let mut every = case
        .every
        .or(max_steps.map(|s| (s / DEFAULT_RECORDS).max(1)));
    if let (Some(n), Some(e)) = (max_steps, every) {
        // the series table of the whole run must fit in memory: checked before the first cycle
        let rows = n / e + 2;
        let cols = recorder.table.columns.len() as u64 + 1;
        crate::storage::fits(rows.saturating_mul(cols), crate::storage::RECORD_BYTES).map_err(
            |m| {
                CaseError::new(
                    &file,
                    "output.every",
                    format!("{rows} records of {cols} columns (one every {e} cycles): {m}"),
                )
            },
        )?;
    }
    let start = Instant::now();
    let bar_len = max_steps.unwrap_or(1000);
    let bar = (progress
        && (max_steps.is_none() || bar_len >= 100_000)
        && std::io::stdout().is_terminal())
    .then(|| {
        let b = indicatif::ProgressBar::new(bar_len);
        let unit = if max_steps.is_some() {
            "cycles"
        } else {
            "‰ of the duration"
        };
        b.set_style(
            indicatif::ProgressStyle::with_template(&format!(
                "{{msg}} {{wide_bar}} {{pos}}/{{len}} {unit}, {{eta}} left"
            ))
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        b.set_message(case.name.clone());
        b
    });
    let mut stopped = None;
    let mut dt_stats = DtStats {
        min: Real::INFINITY,
        max: 0.0,
        last: 0.0,
        mode: model.settings.timestep.to_string(),
        set_by: Vec::new(),
    };
    let mut limits: std::collections::HashMap<Limit, u64> = Default::default();
    let mut was_interrupted = false;
    let mut step = 0u64;
    let (mut error, mut watch) = match control.resume {
        Some(path) => {
            let state = checkpoint::read(path, case.source_hash)
                .map_err(|e| CaseError::new(&file, "--resume", e))?;
            step = state.step;
            every = state.every;
            let watch = restore(
                state,
                &mut model,
                &mut recorder,
                &mut dt_stats,
                &mut limits,
                &mut observers,
            )
            .map_err(|e| CaseError::new(&file, "--resume", e))?;
            (None, watch)
        }
        None => {
            let error = model.prime().err().map(|e| e.to_string());
            let mut watch = crate::cycle::Watch::new(&model);
            let error = error.or_else(|| watch.look(&model, true).err());
            (error, watch)
        }
    };
    // A duration with a varying timestep and no `every`: a record each time the simulated time
    // passes a multiple of duration / DEFAULT_RECORDS (a count of cycles fixed by the first
    // step recorded every cycle of a pour whose step shrank: 16,385 records where about 2,000
    // were meant); `mark` is the last multiple passed, found again from the time on a resume.
    let by_time = (case.every.is_none() && max_steps.is_none() && duration.is_finite())
        .then(|| duration / DEFAULT_RECORDS as Real);
    let mut mark = by_time.map_or(0.0, |i| (model.time / i).floor());
    if error.is_none() {
        if control.resume.is_none() {
            recorder.record(&model);
            if let Some(v) = &mut vtk {
                v.write(&model).map_err(vtk_error)?;
            }
            observers.iter_mut().for_each(|o| o.observe(&model));
        }
        loop {
            let last = match max_steps {
                Some(n) => step >= n,
                // NOTE: a relative slack of 1e-12 so that round-off in the summed time does
                // not add a cycle.
                None => model.time >= duration * (1.0 - 1e-12),
            };
            if last {
                break;
            }
            step += 1;
            if let Err(e) = model.cycle() {
                error = Some(e.to_string());
                break;
            }
            dt_stats.min = dt_stats.min.min(model.last_dt);
            dt_stats.max = dt_stats.max.max(model.last_dt);
            *limits.entry(model.dt_limit).or_default() += 1;
            observers.iter_mut().for_each(|o| o.observe(&model));
            let due = match by_time {
                Some(interval) => {
                    let k = (model.time / interval).floor();
                    let passed = k > mark;
                    mark = mark.max(k);
                    passed
                }
                None => {
                    // (without a duration: a solve ratio ends the run; about DEFAULT_RECORDS
                    // records if the first timestep holds)
                    let period = *every.get_or_insert_with(|| {
                        ((duration / model.last_dt) as u64 / DEFAULT_RECORDS).max(1)
                    });
                    step % period == 0
                }
            };
            let reached = solve_ratio.filter(|&r| model.unbalanced_ratio() <= r);
            let done = max_steps == Some(step)
                || (max_steps.is_none() && model.time >= duration * (1.0 - 1e-12))
                || reached.is_some();
            let stop = interrupted();
            if due || done || stop {
                recorder.record(&model);
            }
            if let Err(e) = watch.look(&model, due || done) {
                error = Some(e);
                break;
            }
            let checkpoint_now =
                (case.checkpoint_every > 0 && (step % case.checkpoint_every == 0 || done)) || stop;
            if let Some(out) = control.out_dir.filter(|_| checkpoint_now) {
                let state = snapshot(
                    step, every, &model, &recorder, &dt_stats, &limits, &watch, &observers,
                );
                if let Err(e) = checkpoint::write(out, &state, case.source_hash) {
                    error = Some(format!(
                        "cycle {step}: the checkpoint could not be written: {e}"
                    ));
                    break;
                }
            }
            if case.file.run.restart_at == Some(step) {
                // the restart proof: the whole state through a checkpoint's bytes and back
                let state = snapshot(
                    step, every, &model, &recorder, &dt_stats, &limits, &watch, &observers,
                );
                let restored = checkpoint::encode(&state, case.source_hash)
                    .and_then(|bytes| checkpoint::decode(&bytes, case.source_hash));
                match restored.and_then(|s| {
                    every = s.every;
                    restore(
                        s,
                        &mut model,
                        &mut recorder,
                        &mut dt_stats,
                        &mut limits,
                        &mut observers,
                    )
                }) {
                    Ok(w) => watch = w,
                    Err(e) => {
                        error = Some(format!("cycle {step}: the restart failed: {e}"));
                        break;
                    }
                }
            }
            if stop {
                was_interrupted = true;
                error = Some(format!(
                    "interrupted (SIGINT or SIGTERM) at the end of cycle {step}: the series hold \
                     the records up to that cycle; the checks were not judged"
                ));
                break;
            }
            if let Some(v) = &mut vtk {
                if step % case.vtk_every == 0 {
                    v.write(&model).map_err(vtk_error)?;
                }
            }
            if let Some(r) = reached {
                stopped = Some(format!(
                    "solve ratio {} <= {} reached at cycle {step}",
                    num(model.unbalanced_ratio()),
                    num(r)
                ));
                break;
            }
            if let Some(b) = &bar {
                if step % 1000 == 0 {
                    b.set_position(match max_steps {
                        Some(_) => step,
                        None => (1000.0 * model.time / duration) as u64,
                    });
                }
            }
        }
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    // a restart proof whose cycle never came proves nothing: say so
    if let Some(at) = case.file.run.restart_at {
        if error.is_none() && model.cycles < at {
            error = Some(format!(
                "[run] restart_at = {at} was never reached: the run ended at cycle {}",
                model.cycles
            ));
        }
    }
    if let Some(v) = &mut vtk {
        // the last state too, when the last cycle is not a multiple of vtk_every (the end of
        // the run, a solve ratio reached, an interrupt, a blow-up)
        if model.cycles % case.vtk_every != 0 {
            v.write(&model).map_err(vtk_error)?;
        }
        v.finish().map_err(vtk_error)?;
    }
    dt_stats.last = model.last_dt;
    if dt_stats.min > dt_stats.max {
        dt_stats.min = 0.0;
    }
    let mut set_by: Vec<(String, u64)> = limits
        .into_iter()
        .map(|(l, n)| (model.describe_limit(l), n))
        .collect();
    set_by.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    dt_stats.set_by = set_by;
    Ok(Simulation {
        table: recorder.table,
        model,
        dt: dt_stats,
        wall_seconds: start.elapsed().as_secs_f64(),
        observers,
        interrupted: was_interrupted,
        error,
        stopped,
    })
}
