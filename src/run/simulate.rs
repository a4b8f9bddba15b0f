//! [`simulate`] and [`simulate_observed`]: a case's run from its model to its end, as the
//! stages of [`Underway`] in their order.

use super::setup::{progress_bar, Setup};
use super::simulation::{Control, Simulation};
use super::underway::Underway;
use crate::case::{Case, CaseError};
use crate::check::Observer;
use crate::math::Real;
use crate::model::Model;
use std::path::Path;
use std::time::Instant;

/// Runs a case's model, recording its series plus `extra` ones; `dt` overrides a fixed
/// timestep; with `vtk_dir`, VTK files are written there every `[output] vtk_every` cycles. A
/// blow-up stops the run and is reported in [`Simulation::error`].
///
/// # Errors
/// A model that cannot be built or a series that does not exist.
pub fn simulate(
    case: &Case,
    dt: Option<Real>,
    extra: &[String],
    progress: bool,
    vtk_dir: Option<&Path>,
) -> Result<Simulation, CaseError> {
    simulate_observed(
        case,
        dt,
        extra,
        progress,
        vtk_dir,
        &Control::default(),
        |_| Vec::new(),
    )
}

/// [`simulate`], watched by the observers `observers` makes from the model before the first
/// cycle.
///
/// # Errors
/// As [`simulate`].
pub fn simulate_observed<O: Observer>(
    case: &Case,
    dt: Option<Real>,
    extra: &[String],
    progress: bool,
    vtk_dir: Option<&Path>,
    control: &Control,
    observers: impl FnOnce(&Model) -> Vec<O>,
) -> Result<Simulation<O>, CaseError> {
    let setup = Setup::new(case, (dt, extra), vtk_dir, control.from, observers)?;
    let start = Instant::now();
    let bar = progress_bar(case, setup.length.max_steps, progress);
    let mut run = Underway::begin(setup, control, control.comm, bar)?;
    if run.error.is_none() {
        run.first_record()?;
        while run.cycle()? {}
    }
    run.finish(start)
}
