//! What a run writes: recorded series (`series.csv`), the run summary (`summary.json`), and
//! VTK files for ParaView.

mod series;
mod source;
mod summary;
mod vtk;

pub use series::{Recorder, SeriesTable};
pub use source::{BallQuantity, PairQuantity, Source, WallQuantity};
pub use summary::{Curve, DtStats, Plot, Scene, Summary};
pub use vtk::VtkWriter;

/// The series a vector-or-scalar column name belongs to: `ball/1/pos.z` -> `ball/1/pos`.
pub fn base_series(column: &str) -> &str {
    for suffix in [".x", ".y", ".z"] {
        if let Some(base) = column.strip_suffix(suffix) {
            return base;
        }
    }
    column
}

/// A number as a person writes it: `0`, `2500`, `0.5`, `1e-6`, `1.4377e-3` (shortest form that
/// reads back to the same value; exponent form outside [1e-3, 1e5)).
///
/// # Examples
/// ```
/// use ballast::output::num;
/// assert_eq!(num(0.0), "0");
/// assert_eq!(num(2500.0), "2500");
/// assert_eq!(num(1e-6), "1e-6");
/// assert_eq!(num(-0.25), "-0.25");
/// ```
pub fn num(v: crate::math::Real) -> String {
    let a = v.abs();
    if v == 0.0 {
        "0".into()
    } else if (1e-3..1e5).contains(&a) || !v.is_finite() {
        format!("{v}")
    } else {
        format!("{v:e}")
    }
}
