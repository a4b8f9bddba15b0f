//! numpy arrays to and from the engine's vectors.

use ballast::math::{Real, Vec3};
use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1, PyArray2, PyReadonlyArray2};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// An (N, 3) float64 array of vectors.
pub fn vectors<'py>(py: Python<'py>, v: impl Iterator<Item = Vec3>) -> Bound<'py, PyArray2<f64>> {
    let flat: Vec<f64> = v.flat_map(|p| [p.x, p.y, p.z]).collect();
    let n = flat.len() / 3;
    Array2::from_shape_vec((n, 3), flat)
        .expect("three numbers per vector")
        .into_pyarray(py)
}

/// An (N,) float64 array.
pub fn scalars<'py>(py: Python<'py>, v: impl Iterator<Item = Real>) -> Bound<'py, PyArray1<f64>> {
    v.collect::<Vec<f64>>().into_pyarray(py)
}

/// An (N,) int64 array.
pub fn integers<'py>(py: Python<'py>, v: impl Iterator<Item = i64>) -> Bound<'py, PyArray1<i64>> {
    v.collect::<Vec<i64>>().into_pyarray(py)
}

/// The rows of an (N, 3) array-like (anything `numpy.asarray` takes) as vectors.
///
/// # Errors
/// `ValueError` naming `what` for another shape, or values that are not numbers.
pub fn read_vectors(a: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<Vec3>> {
    let np = a.py().import("numpy")?;
    let arr = np
        .call_method1("ascontiguousarray", (a, "float64"))
        .map_err(|e| PyValueError::new_err(format!("{what}: not an array of numbers: {e}")))?;
    let arr: PyReadonlyArray2<f64> = arr.extract().map_err(|_| {
        let shape = arr
            .getattr("shape")
            .map(|s| s.to_string())
            .unwrap_or_default();
        PyValueError::new_err(format!(
            "{what}: an (N, 3) array is needed, not shape {shape}"
        ))
    })?;
    let view = arr.as_array();
    if view.ncols() != 3 {
        return Err(PyValueError::new_err(format!(
            "{what}: an (N, 3) array is needed, not shape ({}, {})",
            view.nrows(),
            view.ncols()
        )));
    }
    Ok(view
        .rows()
        .into_iter()
        .map(|r| Vec3::new(r[0], r[1], r[2]))
        .collect())
}

/// One vector from a 3-sequence or array.
///
/// # Errors
/// As [`read_vectors`], for one row.
pub fn read_vector(a: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec3> {
    let np = a.py().import("numpy")?;
    let row = np.call_method1("reshape", (a, (1, -1)))?;
    let v = read_vectors(&row, what)?;
    Ok(v[0])
}
