//! `ballast.Simulation`: one case's run, stepped from Python.

use crate::arrays::{integers, read_vector, read_vectors, scalars, vectors};
use crate::walls;
use crate::{case_error, guard};
use ballast::case::{Case, CaseError as EngineCaseError};
use ballast::run::{id_order, Session, SessionOptions};
use numpy::{PyArray1, PyArray2};
use pyo3::exceptions::{PyKeyError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// How long the engine runs between two looks for Ctrl-C (and other signals).
const SIGNAL_LATENCY: Duration = Duration::from_millis(100);

/// Simulation: one case's run, stepped from Python.
///
/// Load with Simulation.from_file(path), Simulation.from_toml(text, base_dir="."),
/// Simulation.resume(case, checkpoint) or Simulation.from_stage(case, checkpoint) (a new
/// stage from another run's state, `ballast run --from`). Keyword arguments of each: out (a folder: VTK files
/// and checkpoints go to out/vtk and out/checkpoints during the run, as with `ballast run
/// --out`), progress (a progress bar on a terminal; off by default), threads (the engine's
/// threads; default all processors: the results are the same bits for any count).
///
/// Then: step(n) runs n cycles, run() to the case's end; time, cycle, dt, ended; positions(),
/// velocities(), spins(), radii(), ids(), materials(), coordination() as numpy arrays in
/// ball-id order; set_positions(a), set_velocities(a); contacts(); series(name),
/// series_names(); walls: wall_names(), wall_force(name), wall_position(name),
/// wall_velocity(name), set_wall_velocity(name, v); checkpoint(path); after the end: checks(),
/// summary(), write(out_dir). A case stepped from Python gives the same bits as
/// `ballast run`. Ctrl-C while stepping raises KeyboardInterrupt at the end of a cycle: the
/// run is kept and step() goes on from there.
#[pyclass(module = "ballast", name = "Simulation")]
pub struct Simulation {
    session: Mutex<Session>,
    pool: Option<rayon::ThreadPool>,
}

/// Options every constructor takes.
struct Opts {
    out: Option<PathBuf>,
    progress: bool,
    threads: Option<usize>,
}

impl Simulation {
    /// The session, locked (a panic never poisons it: each call is guarded inside the lock).
    fn lock(&self) -> MutexGuard<'_, Session> {
        self.session.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A simulation of `case` with `opts` (and a checkpoint to resume from).
    fn open(case: Case, o: Opts, from: (Option<PathBuf>, Option<PathBuf>)) -> PyResult<Self> {
        let (resume, from) = from;
        let file = case.path.display().to_string();
        if let Some(out) = &o.out {
            ballast::verify::prepare_out_dir(out)
                .map_err(|e| case_error(EngineCaseError::new(&file, "--out", e)))?;
        }
        let pool = match o.threads {
            None => None,
            Some(t) if (1..=1024).contains(&t) => Some(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(t)
                    .build()
                    .map_err(|e| PyRuntimeError::new_err(format!("threads: {e}")))?,
            ),
            Some(t) => {
                return Err(PyValueError::new_err(format!(
                    "threads: {t}: from 1 to 1024"
                )))
            }
        };
        let opts = SessionOptions {
            out_dir: o.out,
            resume,
            from,
            progress: o.progress,
        };
        let session = guard(|| Session::new(case, opts).map_err(case_error))?;
        Ok(Simulation {
            session: Mutex::new(session),
            pool,
        })
    }

    /// Runs `f` on the session in this simulation's thread pool, the GIL released.
    fn work<T: Send>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&mut Session) -> PyResult<T> + Send,
    ) -> PyResult<T> {
        py.detach(|| {
            guard(|| {
                let mut locked = self.lock();
                let s: &mut Session = &mut locked;
                match &self.pool {
                    Some(p) => p.install(|| f(s)),
                    None => f(s),
                }
            })
        })
    }

    /// Reads the session, the GIL held (quick reads only).
    fn read<T>(&self, f: impl FnOnce(&Session) -> PyResult<T>) -> PyResult<T> {
        guard(|| f(&self.lock()))
    }

    /// Changes the model (see `Session::edit`).
    pub(crate) fn edit(
        &self,
        moves_balls: bool,
        f: impl FnOnce(&mut ballast::model::Model) -> Result<(), String>,
    ) -> PyResult<()> {
        guard(|| {
            let mut result = Ok(());
            let mut s = self.lock();
            s.edit(moves_balls, |m| result = f(m))
                .map_err(PyRuntimeError::new_err)?;
            result.map_err(PyValueError::new_err)
        })
    }
}

/// Loads the case at `path`.
fn load(path: &Path) -> PyResult<Case> {
    guard(|| ballast::case::load(path).map_err(case_error))
}

#[pymethods]
impl Simulation {
    /// Loads the case file at `path` (docs/CASES.md) and builds its model, before its first
    /// cycle. Raises CaseError (the command line's message) for a bad case.
    #[staticmethod]
    #[pyo3(signature = (path, *, out=None, progress=false, threads=None))]
    fn from_file(
        path: PathBuf,
        out: Option<PathBuf>,
        progress: bool,
        threads: Option<usize>,
    ) -> PyResult<Self> {
        let opts = Opts {
            out,
            progress,
            threads,
        };
        Simulation::open(load(&path)?, opts, (None, None))
    }

    /// Loads a case given as TOML text. Files it names (meshes) are found from `base_dir`;
    /// errors name the case `<base_dir>/inline.toml`, and its default name is "inline".
    #[staticmethod]
    #[pyo3(signature = (text, base_dir=PathBuf::from("."), *, out=None, progress=false, threads=None))]
    fn from_toml(
        text: &str,
        base_dir: PathBuf,
        out: Option<PathBuf>,
        progress: bool,
        threads: Option<usize>,
    ) -> PyResult<Self> {
        let path = base_dir.join("inline.toml");
        let case = guard(|| ballast::case::parse(text, &path).map_err(case_error))?;
        let opts = Opts {
            out,
            progress,
            threads,
        };
        Simulation::open(case, opts, (None, None))
    }

    /// The run of the case file `case` resumed from `checkpoint` (written by checkpoint() or
    /// by `ballast run` with [output] checkpoint_every): it goes on to the same bits as the
    /// run straight through. The case file must be the one that wrote the checkpoint,
    /// unchanged (else CaseError, as `ballast run --resume`).
    #[staticmethod]
    #[pyo3(signature = (case, checkpoint, *, out=None, progress=false, threads=None))]
    fn resume(
        case: PathBuf,
        checkpoint: PathBuf,
        out: Option<PathBuf>,
        progress: bool,
        threads: Option<usize>,
    ) -> PyResult<Self> {
        let c = load(&case)?;
        guard(|| {
            ballast::run::checkpoint::check_resume(&checkpoint, &c).map_err(|e| {
                case_error(EngineCaseError::new(
                    &c.path.display().to_string(),
                    "--resume",
                    e,
                ))
            })
        })?;
        let opts = Opts {
            out,
            progress,
            threads,
        };
        let sim = Simulation::open(c, opts, (Some(checkpoint), None))?;
        // (the checkpoint is read now, so that a bad one is refused here)
        sim.lock().step(0).map_err(case_error)?;
        Ok(sim)
    }

    /// A new stage: the case file `case` started from the state a checkpoint of another run
    /// holds (`ballast run CASE --from CHECKPOINT`, docs/CASES.md section 15): its balls,
    /// walls' poses, contacts and time, with the case's own settings; the run's length counts
    /// from the checkpoint's time. What does not fit is refused (CaseError).
    #[staticmethod]
    #[pyo3(signature = (case, checkpoint, *, out=None, progress=false, threads=None))]
    fn from_stage(
        case: PathBuf,
        checkpoint: PathBuf,
        out: Option<PathBuf>,
        progress: bool,
        threads: Option<usize>,
    ) -> PyResult<Self> {
        let label = case.display().to_string();
        let c = guard(|| {
            let from_error = |e| case_error(EngineCaseError::new(&label, "--from", e));
            let state = ballast::run::checkpoint::read(&checkpoint, None).map_err(from_error)?;
            ballast::case::load_stage(&case, &state.model).map_err(case_error)
        })?;
        let opts = Opts {
            out,
            progress,
            threads,
        };
        Simulation::open(c, opts, (None, Some(checkpoint)))
    }

    /// Runs at most `n` cycles (fewer when the run ends first: its length, a blow-up, the
    /// solve ratio); returns how many ran. The first call starts the run (primes it: contact
    /// detection and forces once). Ctrl-C raises KeyboardInterrupt at the end of a cycle and
    /// keeps the run.
    #[pyo3(signature = (n=1))]
    fn step(&self, py: Python<'_>, n: u64) -> PyResult<u64> {
        let mut done = 0;
        loop {
            let left = n - done;
            let (k, ended) = self.work(py, |s| {
                let t0 = Instant::now();
                let mut k = 0;
                // (a few cycles at a time, until the time between two looks at signals)
                while k < left && !s.ended() {
                    let m = s.step((left - k).min(8)).map_err(case_error)?;
                    k += m;
                    if m == 0 || t0.elapsed() > SIGNAL_LATENCY {
                        break;
                    }
                }
                if left == 0 {
                    s.step(0).map_err(case_error)?;
                }
                Ok((k, s.ended()))
            })?;
            done += k;
            py.check_signals()?;
            if done >= n || ended || k == 0 {
                return Ok(done);
            }
        }
    }

    /// Runs to the case's end ([run] steps or duration, a blow-up, the solve ratio); returns
    /// the cycles run.
    fn run(&self, py: Python<'_>) -> PyResult<u64> {
        self.step(py, u64::MAX)
    }

    /// Ends the run now, before the case's end (as an interrupt of `ballast run`): checks(),
    /// summary() and write() then report it, and each check fails saying the run stopped.
    fn stop(&self, py: Python<'_>) -> PyResult<()> {
        self.work(py, |s| s.stop().map_err(case_error))
    }

    /// The simulated time, s.
    #[getter]
    fn time(&self) -> PyResult<f64> {
        self.read(|s| Ok(s.model().time))
    }

    /// Cycles run since the case's start.
    #[getter]
    fn cycle(&self) -> PyResult<u64> {
        self.read(|s| Ok(s.model().cycles))
    }

    /// The timestep of the last cycle, s (before the first cycle: the case's fixed step, or 0
    /// for an automatic one).
    #[getter]
    fn dt(&self) -> PyResult<f64> {
        self.read(|s| {
            let m = s.model();
            Ok(if m.last_dt > 0.0 {
                m.last_dt
            } else {
                s.case().fixed_dt().unwrap_or(0.0)
            })
        })
    }

    /// True once the run has ended.
    #[getter]
    fn ended(&self) -> PyResult<bool> {
        self.read(|s| Ok(s.ended()))
    }

    /// The case's name.
    #[getter]
    fn name(&self) -> PyResult<String> {
        self.read(|s| Ok(s.case().name.clone()))
    }

    /// Why the run stopped early (a blow-up, stop()), or None.
    #[getter]
    fn error(&self) -> PyResult<Option<String>> {
        self.read(|s| Ok(s.outcome().and_then(|o| o.error.clone())))
    }

    /// The balls' centres, m: float64 array (N, 3) in ball-id order (a clump's pebbles
    /// included; in a periodic cell, brought into the cell).
    fn positions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f64>>> {
        self.read(|s| {
            let m = s.model();
            Ok(vectors(
                py,
                id_order(m).into_iter().map(|i| m.balls.shown(i)),
            ))
        })
    }

    /// The balls' velocities at the time of the positions, m/s: float64 (N, 3), ball-id order.
    fn velocities<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f64>>> {
        self.read(|s| {
            let m = s.model();
            Ok(vectors(
                py,
                id_order(m).into_iter().map(|i| m.synchronized_velocity(i)),
            ))
        })
    }

    /// The balls' angular velocities, rad/s: float64 (N, 3), ball-id order.
    fn spins<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f64>>> {
        self.read(|s| {
            let m = s.model();
            Ok(vectors(
                py,
                id_order(m).into_iter().map(|i| m.synchronized_spin(i)),
            ))
        })
    }

    /// The balls' radii, m: float64 (N,), ball-id order.
    fn radii<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<f64>>> {
        self.read(|s| {
            let m = s.model();
            Ok(scalars(
                py,
                id_order(m).into_iter().map(|i| m.balls.radius[i]),
            ))
        })
    }

    /// The balls' ids: int64 (N,), increasing (the order of every per-ball array).
    fn ids<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i64>>> {
        self.read(|s| {
            let m = s.model();
            Ok(integers(
                py,
                id_order(m).into_iter().map(|i| m.balls.id[i] as i64),
            ))
        })
    }

    /// Each ball's material: int64 (N,), an index into material_names(), ball-id order.
    fn materials<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i64>>> {
        self.read(|s| {
            let m = s.model();
            Ok(integers(
                py,
                id_order(m)
                    .into_iter()
                    .map(|i| i64::from(m.balls.material[i])),
            ))
        })
    }

    /// The materials' names, by index (the case's materials in name order).
    fn material_names(&self) -> PyResult<Vec<String>> {
        self.read(|s| Ok(s.model().materials.iter().map(|m| m.name.clone()).collect()))
    }

    /// Each ball's coordination: int64 (N,), its active contacts with balls plus the walls it
    /// touches (one per wall), ball-id order.
    fn coordination<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i64>>> {
        self.read(|s| {
            let m = s.model();
            let z = ballast::output::coordination(m);
            Ok(integers(
                py,
                id_order(m).into_iter().map(|i| i64::from(z[i])),
            ))
        })
    }

    /// Sets the balls' centres from an (N, 3) array in ball-id order, m. Before the first
    /// cycle, the same as the case file saying so; during the run, between two cycles (the
    /// contact detection starts again from the new positions). Refused for clumps.
    fn set_positions(&self, a: &Bound<'_, PyAny>) -> PyResult<()> {
        let v = read_vectors(a, "set_positions")?;
        self.edit(true, |m| ballast::run::set_positions(m, &v))
    }

    /// Sets the balls' velocities from an (N, 3) array in ball-id order, m/s (at the time of
    /// the positions, as velocities() gives them). Before the first cycle, the same bits as
    /// the case file saying so. Refused for clumps.
    fn set_velocities(&self, a: &Bound<'_, PyAny>) -> PyResult<()> {
        let v = read_vectors(a, "set_velocities")?;
        self.edit(false, |m| ballast::run::set_velocities(m, &v))
    }

    /// The active ball-ball contacts (the force network) as a dict of numpy arrays, M rows in
    /// the contact list's order: "id1", "id2" (int64, the balls' ids), "force" (M, 3: the force
    /// on ball id2, N; id1 gets its opposite), "point" (M, 3, m), "normal" (M, 3, unit, from
    /// id1 to id2), "overlap" (M, m), "normal_force" (M, N, positive in compression),
    /// "tangential_force" (M, 3, N).
    fn contacts<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.read(|s| {
            let m = s.model();
            let n = ballast::output::network(m);
            let d = PyDict::new(py);
            let id = |v: &[usize]| integers(py, v.iter().map(|&i| m.balls.id[i] as i64));
            d.set_item("id1", id(&n.a))?;
            d.set_item("id2", id(&n.b))?;
            d.set_item("force", vectors(py, n.force.iter().copied()))?;
            d.set_item("point", vectors(py, n.point.iter().copied()))?;
            d.set_item("normal", vectors(py, n.normal.iter().copied()))?;
            d.set_item("overlap", scalars(py, n.overlap.iter().copied()))?;
            d.set_item(
                "normal_force",
                scalars(py, (0..n.len()).map(|k| n.normal_force(k))),
            )?;
            let t = (0..n.len()).map(|k| n.tangential_force(k));
            d.set_item("tangential_force", vectors(py, t))?;
            Ok(d)
        })
    }

    /// The recorded values of a series column (a name of series_names(); "t" gives the
    /// times, s) as a float64 array: the column of series.csv. KeyError for another name.
    fn series<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyArray1<f64>>> {
        self.read(|s| {
            let t = s.table();
            let col = if name == "t" {
                Some(t.t.as_slice())
            } else {
                t.column(name)
            };
            match col {
                Some(c) => Ok(scalars(py, c.iter().copied())),
                None => Err(PyKeyError::new_err(format!(
                    "{name:?}: not a recorded series; recorded: t, {}",
                    t.columns.join(", ")
                ))),
            }
        })
    }

    /// The recorded series columns (series.csv's header after "t").
    fn series_names(&self) -> PyResult<Vec<String>> {
        self.read(|s| Ok(s.table().columns.clone()))
    }

    /// Writes the run's whole state now to the file `path` (the bytes `ballast run` writes at
    /// this cycle); Simulation.resume(case, path) goes on from it. Before the run's end.
    fn checkpoint(&self, py: Python<'_>, path: PathBuf) -> PyResult<()> {
        self.work(py, |s| s.checkpoint(&path).map_err(PyRuntimeError::new_err))
    }

    /// The case's checks judged on the run, after its end: a list of dicts with "kind",
    /// "passed", "value", "expected", "tolerance", "tolerance_kind", "series", "what" and
    /// "message" (summary() has each check's plots and tables too).
    fn checks<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        let summary = self.read(judged)?;
        let mut out = Vec::new();
        for c in &summary.checks {
            let d = PyDict::new(py);
            d.set_item("kind", &c.kind)?;
            d.set_item("passed", c.passed)?;
            d.set_item("value", c.value)?;
            d.set_item("expected", c.expected)?;
            d.set_item("tolerance", c.tolerance)?;
            d.set_item("tolerance_kind", &c.tolerance_kind)?;
            d.set_item("series", &c.series)?;
            d.set_item("what", &c.what)?;
            d.set_item("message", &c.message)?;
            out.push(d);
        }
        Ok(out)
    }

    /// summary.json of the run as a dict, after its end.
    fn summary<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let json = self.read(|s| {
            let summary = judged(s)?;
            summary
                .to_json()
                .map_err(|e| PyRuntimeError::new_err(e.to_string()))
        })?;
        py.import("json")?.call_method1("loads", (json,))
    }

    /// Writes series.csv, summary.json and the case page index.html into `out_dir`, after
    /// the run's end: the files of `ballast run --out` (the VTK files and checkpoints go to
    /// the `out` given when loading). Returns True when every check passed.
    fn write(&self, py: Python<'_>, out_dir: PathBuf) -> PyResult<bool> {
        self.work(py, |s| {
            let summary = judged(s)?;
            let file = s.case().path.display().to_string();
            let table = &s.outcome().expect("judged").table;
            ballast::verify::write_outputs(&out_dir, &summary, table)
                .map_err(|e| case_error(EngineCaseError::new(&file, "", e)))?;
            Ok(summary.passed)
        })
    }

    /// The walls' names, in the case's order.
    fn wall_names(&self) -> PyResult<Vec<String>> {
        self.read(|s| Ok(s.model().walls.iter().map(|w| w.name.clone()).collect()))
    }

    /// The resultant contact force the balls put on the wall `name`, N: float64 (3,).
    fn wall_force<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyArray1<f64>>> {
        self.read(|s| {
            let m = s.model();
            let f = m.wall_resultant(walls::find(m, name)?).0;
            Ok(scalars(py, f.iter().copied()))
        })
    }

    /// The position of the wall's pivot, m: float64 (3,) (it moves with the wall).
    fn wall_position<'py>(
        &self,
        py: Python<'py>,
        name: &str,
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        self.read(|s| {
            let m = s.model();
            let p = m.walls[walls::find(m, name)?].pivot;
            Ok(scalars(py, p.iter().copied()))
        })
    }

    /// The velocity of the wall's pivot, m/s: float64 (3,).
    fn wall_velocity<'py>(
        &self,
        py: Python<'py>,
        name: &str,
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        self.read(|s| {
            let m = s.model();
            let v = walls::velocity(m, walls::find(m, name)?);
            Ok(scalars(py, v.iter().copied()))
        })
    }

    /// Sets the velocity of a rigid wall's pivot, m/s (3 numbers), from the next cycle on:
    /// a controller written in Python (a servo). Refused for a wall the case moves by a
    /// program (servo, schedule, oscillation) and for a deformable wall.
    fn set_wall_velocity(&self, name: &str, v: &Bound<'_, PyAny>) -> PyResult<()> {
        let v = read_vector(v, "set_wall_velocity")?;
        let w = self.read(|s| walls::find(s.model(), name))?;
        self.edit(false, |m| walls::set_velocity(m, w, v))
    }

    fn __repr__(&self) -> PyResult<String> {
        self.read(|s| {
            let m = s.model();
            Ok(format!(
                "<ballast.Simulation {:?}: cycle {}, time {:e} s, {} balls, {} contacts{}>",
                s.case().name,
                m.cycles,
                m.time,
                m.balls.len(),
                m.contacts.active_count(),
                if s.ended() { ", ended" } else { "" }
            ))
        })
    }
}

/// The summary of a session's run, its checks judged; an error before the run's end.
fn judged(s: &Session) -> PyResult<ballast::record::Summary> {
    match s.outcome() {
        Some(o) => Ok(ballast::verify::judge(s.case(), o)),
        None => Err(PyRuntimeError::new_err(format!(
            "the run is at cycle {}, not at its end: call run() (or stop()) first",
            s.model().cycles
        ))),
    }
}
