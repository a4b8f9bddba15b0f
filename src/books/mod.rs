//! The energy books' stage: after each cycle (while the books are kept), what the step
//! dissipated and what work was done ([`book`]), from the powers of the cycle's forces
//! (`powers.rs`). It reads the whole model; the accounts themselves are
//! [`crate::model::EnergyBooks`], which the model keeps (and a checkpoint carries).

mod powers;
mod stage;

pub use stage::book;
