//! What a check can look at: the case (as a [`CaseView`]), its recorded series and how its run
//! ended.

use crate::body::{BallSpec, Material, WallSpec};
use crate::law::ContactModel;
use crate::math::{Real, Vec3};
use crate::model::Measure;
use crate::output::SeriesTable;
use crate::timestep::TimestepMode;
use std::path::Path;

/// What checks can look at.
pub struct Context<'a> {
    /// The case.
    pub case: &'a dyn CaseView,
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

/// The case a check judges, as the check sees it: what the case file says of its bodies and
/// laws, and the runs a check may ask for (this case at another timestep, another case).
///
/// The checks sit below the case grammar (which reads them), so they name no case type: the
/// one implementation, for `crate::case::Case`, is in `crate::run`, the module that can run
/// cases.
pub trait CaseView {
    /// The case's name.
    fn name(&self) -> &str;
    /// The folder of the case file (the other files it names are relative to it).
    fn dir(&self) -> &Path;
    /// Gravity, m/s^2.
    fn gravity(&self) -> Vec3;
    /// The timestep mode.
    fn timestep(&self) -> &TimestepMode;
    /// Materials, in name order.
    fn materials(&self) -> &[Material];
    /// Contact model of each pair of material indices (a <= b) that has one.
    fn contact_models(&self) -> &[(usize, usize, ContactModel)];
    /// Every ball, as the case gives it.
    fn balls(&self) -> &[BallSpec];
    /// The faceted walls.
    fn walls(&self) -> &[WallSpec];
    /// The measurement regions (`[[measure]]`).
    fn measures(&self) -> &[Measure];
    /// True when the case has clumps.
    fn has_clumps(&self) -> bool;
    /// Runs this case with the fixed timestep `dt`, recording the series `extra` besides its
    /// own.
    ///
    /// # Errors
    /// The model cannot be built, as a sentence.
    fn run_at(&self, dt: Real, extra: &[String]) -> Result<RunEnd, String>;
    /// The series `columns` of the case at `path`: a run this process remembers
    /// ([`super::runs`]), or a new one.
    ///
    /// # Errors
    /// The case does not load, or its run stops, as a sentence.
    fn series_of(&self, path: &Path, columns: &[&str]) -> Result<SeriesTable, String>;
    /// Loads the case at `path` and runs it to its end.
    ///
    /// # Errors
    /// The case does not load or cannot be built, as a sentence.
    fn run_other(&self, path: &Path) -> Result<RunEnd, String>;
}

/// A run a check asked for, at its end.
#[derive(Clone, Debug)]
pub struct RunEnd {
    /// The case's name.
    pub name: String,
    /// Its timestep mode, in words.
    pub timestep: String,
    /// The recorded series.
    pub table: SeriesTable,
    /// Cycles the run did.
    pub cycles: u64,
    /// Simulated time, s.
    pub time: Real,
    /// Why the run stopped before its budget without an error (solve ratio), if it did.
    pub stopped: Option<String>,
    /// Why the run stopped early (blow-up), if it did.
    pub error: Option<String>,
}

/// Source files that implement the engine parts every dynamic check exercises: the law of
/// motion, the cycle and the force laws of the case's contact models.
pub(super) fn engine_code(case: &dyn CaseView) -> Vec<String> {
    let mut code = vec![
        "src/motion/balls.rs::step".to_string(),
        "src/cycle/mod.rs::cycle".to_string(),
    ];
    for (_, _, law) in case.contact_models() {
        let file = law.source_file().to_string();
        if !code.contains(&file) {
            code.push(file);
        }
    }
    code
}

/// A case with nothing in it but its timestep mode, for the unit tests of kinds that read
/// only series.
#[cfg(test)]
pub(super) struct Bare(pub TimestepMode);

#[cfg(test)]
impl CaseView for Bare {
    fn name(&self) -> &str {
        "bare"
    }
    fn dir(&self) -> &Path {
        Path::new(".")
    }
    fn gravity(&self) -> Vec3 {
        Vec3::zeros()
    }
    fn timestep(&self) -> &TimestepMode {
        &self.0
    }
    fn materials(&self) -> &[Material] {
        &[]
    }
    fn contact_models(&self) -> &[(usize, usize, ContactModel)] {
        &[]
    }
    fn balls(&self) -> &[BallSpec] {
        &[]
    }
    fn walls(&self) -> &[WallSpec] {
        &[]
    }
    fn measures(&self) -> &[Measure] {
        &[]
    }
    fn has_clumps(&self) -> bool {
        false
    }
    fn run_at(&self, _: Real, _: &[String]) -> Result<RunEnd, String> {
        Err("a bare case does not run".into())
    }
    fn series_of(&self, _: &Path, _: &[&str]) -> Result<SeriesTable, String> {
        Err("a bare case does not run".into())
    }
    fn run_other(&self, _: &Path) -> Result<RunEnd, String> {
        Err("a bare case does not run".into())
    }
}
