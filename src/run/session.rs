//! [`Session`]: a case's run driven from outside, a few cycles at a time (the Python module
//! `ballast`, python/): the same stages as [`super::simulate_observed`] in the same order, so a
//! run stepped by a session gives the same bits as `ballast run`.

use super::checkpoint;
use super::setup::{progress_bar, Setup};
use super::simulation::{Control, Simulation};
use super::underway::Underway;
use crate::case::{Case, CaseError};
use crate::check::{self, Probe};
use crate::math::Vec3;
use crate::model::Model;
use crate::output::SeriesTable;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

/// What a session is given besides its case: the paths of [`Control`], owned, and the bar.
#[derive(Clone, Debug, Default)]
pub struct SessionOptions {
    /// The output folder: VTK files (`vtk/`) and checkpoints (`checkpoints/`) go there during
    /// the run, as with `ballast run --out` (None: neither is written).
    pub out_dir: Option<PathBuf>,
    /// Resume from this checkpoint of the same case file.
    pub resume: Option<PathBuf>,
    /// Start from this checkpoint's state as a new stage (the case must be loaded with
    /// [`crate::case::load_stage`]).
    pub from: Option<PathBuf>,
    /// Show a progress bar on a terminal (long runs only).
    pub progress: bool,
}

/// Where a session is: before its first cycle (the model may still be changed as a case file
/// would), under way, or ended (the run's outcome, ready to judge and write).
enum Stage {
    Ready(Box<Setup<Arc<Case>, Option<Probe>>>),
    Underway(Box<Underway<'static, Arc<Case>, Option<Probe>>>),
    Ended(Box<Simulation<Option<Probe>>>),
    /// Between two stages (only while a stage is moved out; never seen outside).
    Moving,
}

/// A case's run, stepped from outside; its checks watch every cycle (as in `ballast run`).
pub struct Session {
    case: Arc<Case>,
    opts: SessionOptions,
    stage: Stage,
    start: Instant,
}

impl Session {
    /// The run of `case`, its model built, before its first cycle.
    ///
    /// # Errors
    /// A model that cannot be built, a series that does not exist, a VTK folder that cannot
    /// be written, a `--from` checkpoint that cannot be read or does not fit the case.
    pub fn new(case: Case, opts: SessionOptions) -> Result<Session, CaseError> {
        let case = Arc::new(case);
        let vtk_dir = opts.out_dir.as_ref().map(|d| d.join("vtk"));
        let setup = Setup::new(
            case.clone(),
            (None, &[]),
            vtk_dir.as_deref(),
            opts.from.as_deref(),
            |m| probes(&case, m),
        )?;
        Ok(Session {
            case,
            opts,
            stage: Stage::Ready(Box::new(setup)),
            start: Instant::now(),
        })
    }

    /// The case.
    pub fn case(&self) -> &Case {
        &self.case
    }

    /// The model as it is now.
    pub fn model(&self) -> &Model {
        match &self.stage {
            Stage::Ready(s) => &s.model,
            Stage::Underway(u) => &u.model,
            Stage::Ended(e) => &e.model,
            Stage::Moving => unreachable!("a session between two stages"),
        }
    }

    /// True once the run has ended (its length, a blow-up, the solve ratio).
    pub fn ended(&self) -> bool {
        matches!(self.stage, Stage::Ended(_))
    }

    /// The run's outcome, once it has ended.
    pub fn outcome(&self) -> Option<&Simulation<Option<Probe>>> {
        match &self.stage {
            Stage::Ended(e) => Some(e),
            _ => None,
        }
    }

    /// The series recorded so far (no row before the first cycle).
    pub fn table(&self) -> &SeriesTable {
        match &self.stage {
            Stage::Ready(s) => s.table(),
            Stage::Underway(u) => u.table(),
            Stage::Ended(e) => &e.table,
            Stage::Moving => unreachable!("a session between two stages"),
        }
    }

    /// Changes the model as a case file or a controller would: before the first cycle as if
    /// the case file said so (the checks' probes are made again from the changed model);
    /// during the run between two cycles (with `moves_balls`, the candidate pairs are found
    /// again at the next cycle, so moved balls find their new neighbours).
    ///
    /// # Errors
    /// After the run's end.
    pub fn edit(&mut self, moves_balls: bool, f: impl FnOnce(&mut Model)) -> Result<(), String> {
        match &mut self.stage {
            Stage::Ready(s) => {
                f(&mut s.model);
                s.observers = probes(&self.case, &s.model);
            }
            Stage::Underway(u) => {
                f(&mut u.model);
                if moves_balls {
                    u.model.broad_phase = Default::default();
                }
            }
            Stage::Ended(_) | Stage::Moving => return Err(ended(&self.model().cycles)),
        }
        Ok(())
    }

    /// Starts the run when it has not started (primed at cycle 0 or resumed from the
    /// checkpoint, the first record taken).
    fn begin(&mut self) -> Result<(), CaseError> {
        if !matches!(self.stage, Stage::Ready(_)) {
            return Ok(());
        }
        let Stage::Ready(setup) = std::mem::replace(&mut self.stage, Stage::Moving) else {
            unreachable!("checked above")
        };
        let control = Control {
            out_dir: self.opts.out_dir.as_deref(),
            resume: self.opts.resume.as_deref(),
            from: self.opts.from.as_deref(),
            comm: None,
        };
        let bar = progress_bar(&self.case, setup.length.max_steps, self.opts.progress);
        self.start = Instant::now();
        let mut run = Underway::begin(*setup, &control, None, bar)?;
        let fresh = run.error.is_none();
        if fresh {
            run.first_record()?;
        }
        self.stage = Stage::Underway(Box::new(run));
        if !fresh {
            self.end()?;
        }
        Ok(())
    }

    /// Ends the run (the last VTK file, the timestep statistics).
    fn end(&mut self) -> Result<(), CaseError> {
        if let Stage::Underway(run) = std::mem::replace(&mut self.stage, Stage::Moving) {
            self.stage = Stage::Ended(Box::new(run.finish(self.start)?));
        }
        Ok(())
    }

    /// Runs at most `n` cycles (fewer when the run ends first); returns how many ran. The
    /// first call starts the run. Nothing happens once the run has ended.
    ///
    /// # Errors
    /// A checkpoint to resume from that cannot be read, a VTK file that cannot be written.
    /// A blow-up is no error: the run ends and [`Simulation::error`] says why.
    pub fn step(&mut self, n: u64) -> Result<u64, CaseError> {
        self.begin()?;
        let Stage::Underway(run) = &mut self.stage else {
            return Ok(0);
        };
        let mut done = 0;
        while done < n {
            if !run.cycle()? {
                self.end()?;
                break;
            }
            done += 1;
        }
        Ok(done)
    }

    /// Ends the run now, before its end (the run's error says so, as after an interrupt of
    /// `ballast run`: its checks then fail, saying why); nothing happens once it has ended.
    ///
    /// # Errors
    /// As [`Session::step`].
    pub fn stop(&mut self) -> Result<(), CaseError> {
        self.begin()?;
        if let Stage::Underway(run) = &mut self.stage {
            run.error = Some(format!(
                "stopped from Python at the end of cycle {}, before the run's end",
                run.model.cycles
            ));
            self.end()?;
        }
        Ok(())
    }

    /// Writes a checkpoint of the run's state now to `path` (the bytes `ballast run` writes at
    /// this cycle; [`crate::run::Control::resume`] takes it back). Starts the run when it has
    /// not started.
    ///
    /// # Errors
    /// After the run's end, or when the file cannot be written.
    pub fn checkpoint(&mut self, path: &Path) -> Result<(), String> {
        self.begin().map_err(|e| e.to_string())?;
        let Stage::Underway(run) = &self.stage else {
            return Err(ended(&self.model().cycles));
        };
        let bytes = checkpoint::encode(&run.state(), self.case.source_hash)?;
        crate::storage::write_atomic(path, bytes).map_err(|e| format!("{}: {e}", path.display()))
    }
}

/// The error of a change or a checkpoint asked after the run's end.
fn ended(cycle: &u64) -> String {
    format!(
        "the run ended at cycle {cycle}: its state can no longer change or be checkpointed \
         (checkpoint before the end, or set [output] checkpoint_every)"
    )
}

/// The probes of a case's checks on `model`.
fn probes(case: &Case, model: &Model) -> Vec<Option<Probe>> {
    case.checks.iter().map(|c| check::probe(c, model)).collect()
}

/// The order of a model's pieces by id: `order[k]` is the index of the k-th smallest id.
pub fn id_order(model: &Model) -> Vec<usize> {
    let ids = &model.balls.id;
    let mut order: Vec<usize> = (0..ids.len()).collect();
    order.sort_unstable_by_key(|&i| ids[i]);
    order
}

/// Sets the positions (m) of a model's pieces, given in id order; refused for clumps' pebbles
/// (a clump moves as one body) and for a count that is not the model's.
///
/// # Errors
/// A wrong count, a value that is not finite, a model with clumps, as a sentence.
pub fn set_positions(model: &mut Model, by_id: &[Vec3]) -> Result<(), String> {
    let order = settable(model, by_id, "positions")?;
    for (k, &i) in order.iter().enumerate() {
        model.balls.pos[i] = by_id[k];
    }
    Ok(())
}

/// Sets the velocities (m/s) of a model's pieces at the time of the positions, given in id
/// order (the stored velocity is half a step behind: [`Model::synchronized_velocity`]).
///
/// # Errors
/// As [`set_positions`].
pub fn set_velocities(model: &mut Model, by_id: &[Vec3]) -> Result<(), String> {
    let order = settable(model, by_id, "velocities")?;
    for (k, &i) in order.iter().enumerate() {
        // (before the first cycle `last_dt` is 0: the case file's velocity, as given)
        model.balls.vel[i] = by_id[k] - model.acceleration(i) * (0.5 * model.last_dt);
    }
    Ok(())
}

/// The id order of `model`'s pieces when `by_id` can be set on them.
fn settable(model: &Model, by_id: &[Vec3], what: &str) -> Result<Vec<usize>, String> {
    let n = model.balls.len();
    if by_id.len() != n {
        return Err(format!(
            "{what}: {} rows given, the model has {n} balls",
            by_id.len()
        ));
    }
    if !model.clumps.is_empty() {
        return Err(format!(
            "{what}: the model has clumps, whose pebbles move as one body: not settable"
        ));
    }
    if let Some(k) = by_id.iter().position(|v| !v.iter().all(|x| x.is_finite())) {
        return Err(format!("{what}: row {k} is not finite"));
    }
    Ok(id_order(model))
}
