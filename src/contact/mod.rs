//! Contacts between pieces: the persistent list and the geometry of each pair of shapes.

pub mod ball_ball;
mod contacts;

pub use contacts::{pair_key, Contact, Contacts, NO_LAW};
