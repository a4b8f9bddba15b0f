//! Which series read the energy books, and the runs that cannot keep them.

use crate::case::CaseError;
use crate::model::Model;

/// Whether the series `names` read the energy books.
///
/// # Errors
/// Energy books asked of a pressure-controlled cell, whose affine remap is not booked as work
/// yet (naming `output.series` of `file`).
pub(super) fn energy_books(file: &str, names: &[String], model: &Model) -> Result<bool, CaseError> {
    use crate::output::{base_series, Source};
    let books = names
        .iter()
        .any(|n| Source::parse(base_series(n), model).is_ok_and(|s| s.needs_energy_books()));
    let pressure = (model.balls.cell.as_ref()).is_some_and(|c| c.pressure.is_some());
    if books && pressure {
        return Err(CaseError::new(file, "output.series", "the energy series are not available in a pressure-controlled cell yet: the affine remap of the balls with the cell's length is not booked as work"));
    }
    Ok(books)
}
