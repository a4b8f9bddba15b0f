//! The case as its checks see it ([`CaseView`] for [`Case`]): the case's data, and the runs a
//! check may ask for (this case at another timestep, another case), which only the run loop
//! can make.

use super::simulate::simulate;
use super::simulation::Simulation;
use crate::body::{BallSpec, Material, WallSpec};
use crate::case::Case;
use crate::check::runs;
use crate::check::{CaseView, RunEnd};
use crate::law::ContactModel;
use crate::math::{Real, Vec3};
use crate::model::Measure;
use crate::output::{base_series, SeriesTable};
use crate::timestep::TimestepMode;
use std::path::Path;

impl CaseView for Case {
    fn name(&self) -> &str {
        &self.name
    }

    fn dir(&self) -> &Path {
        Case::dir(self)
    }

    fn gravity(&self) -> Vec3 {
        self.gravity
    }

    fn timestep(&self) -> &TimestepMode {
        &self.timestep
    }

    fn materials(&self) -> &[Material] {
        &self.materials
    }

    fn contact_models(&self) -> &[(usize, usize, ContactModel)] {
        &self.contact_models
    }

    fn balls(&self) -> &[BallSpec] {
        &self.balls
    }

    fn walls(&self) -> &[WallSpec] {
        &self.walls
    }

    fn measures(&self) -> &[Measure] {
        &self.measures
    }

    fn has_clumps(&self) -> bool {
        !self.clumps.is_empty()
    }

    fn run_at(&self, dt: Real, extra: &[String]) -> Result<RunEnd, String> {
        let sim = simulate(self, Some(dt), extra, false, None).map_err(|e| e.to_string())?;
        Ok(end_of(self, sim))
    }

    fn series_of(&self, path: &Path, columns: &[&str]) -> Result<SeriesTable, String> {
        let case =
            crate::case::load(path).map_err(|e| format!("the other case did not run: {e}"))?;
        runs::wait_for(&case.path, case.source_hash);
        if let Some(t) = runs::recall(&case.path, case.source_hash, columns) {
            return Ok(t);
        }
        let names: Vec<String> = columns.iter().map(|c| base_series(c).to_string()).collect();
        let sim = simulate(&case, None, &names, false, None)
            .map_err(|e| format!("the other case did not run: {e}"))?;
        if let Some(e) = &sim.error {
            return Err(format!("{} stopped: {e}", path.display()));
        }
        runs::remember(path, case.source_hash, &sim.table);
        Ok(sim.table)
    }

    fn run_other(&self, path: &Path) -> Result<RunEnd, String> {
        let case = crate::case::load(path).map_err(|e| e.to_string())?;
        let sim = simulate(&case, None, &[], false, None).map_err(|e| e.to_string())?;
        Ok(end_of(&case, sim))
    }
}

/// What a check sees of the end of `case`'s run.
fn end_of(case: &Case, sim: Simulation) -> RunEnd {
    RunEnd {
        name: case.name.clone(),
        timestep: case.timestep.to_string(),
        table: sim.table,
        cycles: sim.model.cycles,
        time: sim.model.time,
        stopped: sim.stopped,
        error: sim.error,
    }
}
