//! Timestep modes: how the timestep of each cycle is chosen (seed 000).
//!
//! - **fixed**: the user's value every cycle.
//! - **auto**: `safety x` a critical-timestep estimate ([`Estimator`]: seed 000's diagonal
//!   estimate, eq. 11, or a bound that is never above the exact value), then the kinematic
//!   constraint, then an optional cap.
//! - **scaled**: timestep scaling (seed 000, eqs. 5-8): each body's inertial mass and moment of
//!   inertia are replaced by values that make its own stable timestep equal to the scaled `dt`;
//!   velocities are rescaled to conserve momentum; gravity keeps acting on the real
//!   (gravitational) mass.
//!
//! ## The kinematic constraint (seed 000, eq. 4)
//! A piece must not move more than `eps` in one cycle. With velocities half a step behind
//! positions, a cycle moves a ball by `v_sync dt + a dt^2 / 2` exactly, where
//! `v_sync = v(t - dt_prev/2) + a dt_prev/2` is the velocity at the time of the positions; so
//! `|dx| <= eps` holds for the positive root of `|a|/2 t^2 + |v_sync| t = eps`. Eq. 4 writes it
//! `(-v + sqrt(v^2 + 2 a eps)) / a`, which loses every digit when `a` is tiny and divides by
//! zero when `a = 0`; multiplying by the conjugate gives the same root as
//! `t = 2 eps / (v + sqrt(v^2 + 2 a eps))`, accurate for any `a >= 0` (`eps / v` at `a = 0`,
//! `sqrt(2 eps / a)` at `v = 0`, infinite when both vanish). Vector magnitudes are used (the seed
//! takes the largest component), so the bound holds for the displacement itself, not only per
//! component; and the minimum is taken over bodies rather than combining the largest velocity
//! of one body with the largest acceleration of another.
//!
//! The room: `modes.rs` (the modes and their settings, [`Limit`], the kinematic constraint's
//! formula, the per-DOF stiffness buffers) and `stage.rs` ([`Timestep`], the first stage of
//! the cycle: it chooses the step from the critical estimate the stiffness room made of every
//! contact, the kinematic constraint, the cap, the per-model formulas, or scales the masses).

mod modes;
mod stage;

pub use modes::*;
pub use stage::{Estimate, Timestep};
