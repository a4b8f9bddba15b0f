//! Which series read the energy books, and the runs that cannot keep them.

use crate::case::CaseError;
use crate::model::Model;

/// Whether the series `names` read the energy books.
///
/// # Errors
/// Energy books asked of a pressure-controlled cell with walls or with gravity along its
/// controlled axis: the remap moves the balls against the walls or in the gravity field
/// between two force passes, and that work is not booked (naming `output.series` of `file`).
pub(super) fn energy_books(file: &str, names: &[String], model: &Model) -> Result<bool, CaseError> {
    use crate::output::{base_series, Source};
    let books = names
        .iter()
        .any(|n| Source::parse(base_series(n), model).is_ok_and(|s| s.needs_energy_books()));
    let Some(p) = (model.balls.cell.as_ref()).and_then(|c| c.pressure) else {
        return Ok(books);
    };
    if books && !model.walls.is_empty() {
        return Err(CaseError::new(file, "output.series", "the energy series are not available in a pressure-controlled cell with walls: the remap of the balls with the cell's length moves them against the walls, and that work is not booked"));
    }
    if books && model.settings.gravity[p.axis] != 0.0 {
        let axis = ["x", "y", "z"][p.axis];
        return Err(CaseError::new(file, "output.series", format!("the energy series are not available in a pressure-controlled cell with gravity along its controlled axis {axis}: the remap of the balls with the cell's length moves them in the gravity field, and that work is not booked")));
    }
    Ok(books)
}
