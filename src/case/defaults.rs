//! The defaults of case keys that other parts of the engine read too.

use crate::math::Real;

/// Default `[timestep] loading_steps` of mode "model": steps per loading stage.
pub const DEFAULT_LOADING_STEPS: Real = 10.0;

/// Default number of records per run when `[output] every` is not given.
pub const DEFAULT_RECORDS: u64 = 2000;

/// Default safety factor of the automatic timestep (fraction of the critical estimate).
pub const DEFAULT_SAFETY: Real = 0.8;

/// Default kinematic eps as a fraction of the margin: a piece then moves at most half the
/// margin per cycle (the broad phase tolerates a margin between two rebuilds and checks every
/// cycle, so this is a limit on the step, not a condition of the detection).
pub const DEFAULT_KINEMATIC_FRACTION: Real = 0.5;

/// Default margin as a fraction of the smallest radius, when `[run] margin` is not given.
pub const DEFAULT_MARGIN_FRACTION: Real = 0.1;
