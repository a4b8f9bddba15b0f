//! Contacts eight at a time: the force pass's batches, each lane one contact, computed in
//! branch-free loops that become vector instructions, with the same bits as one contact at a
//! time (the one-contact paths of [`crate::contact`] are their reference).
//!
//! - `runs.rs`: runs of 512 history-model contacts, their forces added at once to a range of
//!   balls ([`Scatter`]);
//! - `history.rs`: the history models' lanes, ball-ball; `history_facet.rs`: ball-facet;
//! - `frame.rs`: the frame models' lanes (`frame/batch.rs`: a batch's geometry and frame
//!   advance; the laws' arithmetic is [`crate::law::lanes`]);
//! - `masses.rs`: the balls' contact masses as the batches read them;
//! - `springs.rs`: the automatic timestep's per-ball stiffness terms of eight contacts.

pub mod frame;
pub mod history;
pub mod history_facet;
pub mod masses;
mod runs;
pub mod springs;

pub use runs::{near, select, update_history_run, RunScratch, Scatter, HISTORY_RUN};
