//! What a run writes: recorded series (`series.csv`), the run summary (`summary.json`), and
//! VTK files for ParaView.

mod series;
mod source;
mod vtk;

pub use series::{Recorder, SeriesTable};
pub use source::{BallQuantity, PairQuantity, Source, WallQuantity};
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
