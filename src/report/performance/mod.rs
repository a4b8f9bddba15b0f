//! The Performance page (`page.rs`), one file per section, from a bench's runs or benches/results/.

mod automatic_timestep;
mod cells;
mod committed;
mod every_model;
mod page;
mod peers;
mod phases;
mod results;
mod shear;
mod targets;
mod throughput;
mod verdict;
mod wall_heavy;

pub use page::write_performance_page;
pub(super) use page::{empty_performance_page, write_committed_performance_page};
