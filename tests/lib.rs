//! The one integration-test binary (one link on a 2-core machine): a catalogue of physics and
//! of the harness's promises, one module per topic.

mod case_errors;
mod cases;
mod cli;
mod clumps;
mod common;
mod conformance;
mod engine;
mod frame;
mod full;
mod history;
mod house;
mod models;
mod periodic;
mod planar;
mod ranks;
mod report;
mod stiffness;
mod timestep;
mod walls;
