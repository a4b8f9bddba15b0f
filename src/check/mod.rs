//! Checks (docs/CASES.md, section 14): each kind in one file (its keys, their reading, its
//! validation against the model, its probe, its reference and verdict) behind [`CheckKind`];
//! `registry.rs` names the kinds ([`parse`]).
//!
//! Every outcome carries the measured value, the expected value, the tolerance, a sentence on
//! what is measured, the reference's formula and the source files that implement what is
//! judged, so that the report can explain the verdict on its own. The checks sit below the
//! case grammar, which reads them: a check sees its case through [`CaseView`].

mod active_count;
mod analytic;
mod bagnold;
mod beverloo;
mod collision;
mod context;
mod convergence;
mod critical_timestep;
mod cycles_ratio;
mod drift;
mod drops;
mod energy_balance;
mod final_value;
mod golden;
mod harmonic;
mod identity;
mod janssen;
mod jkr;
mod keys;
mod kind;
mod max_turn;
mod mu_law;
mod probe;
mod radius_distribution;
mod reference;
mod registry;
pub mod rheology;
pub mod runs;
mod same_series;

pub use collision::{Body, Collision, CollisionProbe, HERTZ_LOADING};
pub use context::{CaseView, Context, RunEnd};
pub use critical_timestep::{CriticalProbe, CriticalSnapshot};
pub use golden::{evaluate_golden, golden_record, read_snapshot};
pub use harmonic::upward_crossings;
pub use keys::key_path;
pub use kind::{evaluate, probe, Built, CheckKind, CheckSpec};
pub use probe::{Observer, Probe, ProbeState};
pub use radius_distribution::{ks_critical, ks_statistic, RadiiProbe};
pub use reference::Reference;
pub use registry::parse;
