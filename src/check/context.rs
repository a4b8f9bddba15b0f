//! What a check can look at: the case, its recorded series and how its run ended.

use crate::case::Case;
use crate::math::Real;
use crate::output::SeriesTable;

/// What checks can look at.
pub struct Context<'a> {
    /// The case.
    pub case: &'a Case,
    /// The recorded series.
    pub series: &'a SeriesTable,
    /// How many `same_series` runs deep this is (a case may not compare with itself forever).
    pub depth: usize,
    /// Cycles the run did.
    pub cycles: u64,
    /// Simulated time, s.
    pub time: Real,
    /// Why the run stopped before its budget (solve ratio), if it did.
    pub stopped: Option<String>,
}

/// Source files that implement the engine parts every dynamic check exercises: the law of
/// motion, the cycle and the force laws of the case's contact models.
pub(super) fn engine_code(case: &Case) -> Vec<String> {
    let mut code = vec![
        "src/motion/balls.rs::step".to_string(),
        "src/cycle/mod.rs::cycle".to_string(),
    ];
    for (_, _, law) in &case.contact_models {
        let file = law.source_file().to_string();
        if !code.contains(&file) {
            code.push(file);
        }
    }
    code
}
