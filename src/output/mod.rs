//! What a run writes: recorded series (`series.csv`), the run summary (`summary.json`), and
//! VTK files for ParaView.

mod column;
mod domain;
mod measure;
mod network;
mod sample;
mod series;
mod source;
mod vtk;

pub use column::{axis_title, base_series, series_unit};
pub use domain::{cell_normal_stress, cell_stress};
pub use measure::{measure, region_of, Measured};
pub use network::{coordination, network, Network};
pub use series::{Recorder, SeriesTable};
pub use source::{
    BallQuantity, MeasureQuantity, PairQuantity, Source, WallQuantity, TENSOR_COLUMNS,
};
pub use vtk::{VtkFormat, VtkWriter};
