//! The watch: what stops a run that has lost its physics, naming the cycle, the body and the
//! quantity: the blow-up checks after each cycle (`blowup.rs`: non-finite state, tunnelling,
//! interpenetration) and the energy watch of the run loop (`energy.rs`, [`Watch`]: energy
//! from nothing). Both read the whole model and write nothing but their own state.

pub mod blowup;
mod energy;

pub use energy::{Watch, WATCH_EVERY};
