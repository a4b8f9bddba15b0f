//! What a run writes: recorded series (`series.csv`) and the run summary (`summary.json`).

mod series;
mod source;
mod summary;

pub use series::{Recorder, SeriesTable};
pub use source::{BallQuantity, PairQuantity, Source};
pub use summary::{Curve, DtStats, Plot, Scene, Summary};

/// The series a vector-or-scalar column name belongs to: `ball/1/pos.z` -> `ball/1/pos`.
pub fn base_series(column: &str) -> &str {
    for suffix in [".x", ".y", ".z"] {
        if let Some(base) = column.strip_suffix(suffix) {
            return base;
        }
    }
    column
}
