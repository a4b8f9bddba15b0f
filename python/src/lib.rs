//! The Python module `ballast`: the ballast DEM engine driven from Python (docs/CASES.md,
//! section "Python"). A [`Simulation`] wraps the engine's [`ballast::run::Session`]: the same
//! stages as `ballast run` in the same order, so a case stepped from Python gives the same
//! bits. Arrays cross as numpy arrays in ball-id order; errors are Python exceptions
//! (`ballast.CaseError`, a `ValueError`, with the command line's message); a panic of the
//! engine becomes a `RuntimeError`; the GIL is released while the engine works.

mod arrays;
mod simulation;
mod walls;

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use std::path::PathBuf;

pyo3::create_exception!(
    ballast,
    CaseError,
    PyValueError,
    "A case that cannot run: a bad key or value in the case file, a checkpoint that does not \
     fit it, an output folder that cannot be written. The message is the command line's: the \
     file, the key and the reason."
);

/// A case error of the engine as `ballast.CaseError`.
pub(crate) fn case_error(e: ballast::case::CaseError) -> PyErr {
    CaseError::new_err(e.to_string())
}

/// Runs `f`, turning a panic of the engine (a bug of ballast) into a `RuntimeError`.
pub(crate) fn guard<T>(f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).unwrap_or_else(|p| {
        let text = (p.downcast_ref::<&str>().map(|s| s.to_string()))
            .or_else(|| p.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "panic".into());
        Err(PyRuntimeError::new_err(format!(
            "internal error (a bug of ballast, please report it): {text}"
        )))
    })
}

/// Runs every case under the given files and folders (each `.toml` file, folders walked in
/// sorted order) as `ballast verify` does, writing each case's `series.csv`, `summary.json`
/// and page to `<out>/cases/<name>/`. Returns one tuple per case:
/// `(case name, passed, checks passed, checks)`. A case that cannot be loaded is listed as
/// failed with no check. Ctrl-C stops between two cases.
#[pyfunction]
#[pyo3(signature = (paths=None, out=None))]
fn verify(
    py: Python<'_>,
    paths: Option<Vec<PathBuf>>,
    out: Option<PathBuf>,
) -> PyResult<Vec<(String, bool, usize, usize)>> {
    let paths = paths.unwrap_or_else(|| vec![PathBuf::from("cases")]);
    let out = out.unwrap_or_else(|| PathBuf::from("reports"));
    let files = ballast::verify::collect_cases(&paths);
    let mut rows = Vec::new();
    for f in files {
        let row = py.detach(|| guard(|| Ok(verify_one(&f, &out))))?;
        rows.push(row);
        py.check_signals()?;
    }
    Ok(rows)
}

/// One case of [`verify`]: its row.
fn verify_one(f: &std::path::Path, out: &std::path::Path) -> (String, bool, usize, usize) {
    let summary = match ballast::case::load(f) {
        Ok(case) => {
            let dir = out.join("cases").join(&case.name);
            let opts = ballast::verify::RunOptions::default();
            match ballast::verify::run_case(&case, &dir, &opts) {
                Ok((s, _)) => s,
                Err(e) => ballast::verify::failed_summary(f, e.to_string()),
            }
        }
        Err(e) => ballast::verify::failed_summary(f, e.to_string()),
    };
    let ok = summary.checks.iter().filter(|c| c.passed).count();
    (summary.case, summary.passed, ok, summary.checks.len())
}

/// The ballast DEM engine, driven from Python: load a case (`Simulation.from_file`,
/// `Simulation.from_toml`), step it, read and set its state as numpy arrays, write the same
/// files as `ballast run`. See `help(ballast.Simulation)`.
#[pymodule]
#[pyo3(name = "ballast")]
fn ballast_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("CaseError", m.py().get_type::<CaseError>())?;
    m.add_class::<simulation::Simulation>()?;
    m.add_function(wrap_pyfunction!(verify, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
