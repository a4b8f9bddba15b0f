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

/// Writes `bytes` to `path` whole or not at all: into `<path>.tmp` beside it, flushed to disk,
/// then renamed over `path` (a rename within a folder is atomic). An interrupted or failed
/// write leaves the old file or none, never a torn one.
///
/// # Errors
/// I/O errors (the temporary file is removed).
pub fn write_atomic(path: &std::path::Path, bytes: impl AsRef<[u8]>) -> std::io::Result<()> {
    use std::io::Write as _;
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = std::path::PathBuf::from(tmp);
    let written = std::fs::File::create(&tmp).and_then(|mut f| {
        f.write_all(bytes.as_ref())?;
        f.sync_all()
    });
    match written.and_then(|_| std::fs::rename(&tmp, path)) {
        Ok(()) => Ok(()),
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            Err(e)
        }
    }
}
