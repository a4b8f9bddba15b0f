//! # ballast: a Discrete Element Method engine that carries its own proof
//!
//! ballast simulates granular materials as rigid spherical *balls* that interact through
//! *contacts* with each other and with faceted *walls* (triangle meshes, [`geom`]). Every
//! capability ships with a case (`cases/*.toml`) judged by an independent reference (a closed
//! form, an exact eigen-analysis, or the same scene built another way), and the harness writes
//! an HTML report per case.
//!
//! ## The cycle (seed 000, seed 004)
//! [`cycle`] runs, in this order, each stage a room of its own that takes the state it reads
//! and writes (a view cut from [`model::Model`]):
//! 0. balls leave and enter ([`flow`]);
//! 1. **timestep** ([`timestep`]);
//! 2. **law of motion** ([`motion`]), then the blow-up checks ([`watch`]);
//! 3. **contact detection** ([`detect`], the persistent lists in [`contact`]);
//! 4. **force-displacement** ([`force`], the laws in [`law`]): each contact's geometry and
//!    force, then the resultant force and moment of every body;
//! 5. the energy books ([`books`]).
//!
//! ## Layers
//! The **engine** is [`math`], [`comm`], [`par`], [`phases`], [`rng`], [`storage`], [`geom`],
//! [`generate`], [`distribution`], [`body`], [`law`], [`motion`], [`contact`], [`springs`],
//! [`flow`], [`timestep`], [`force`], [`detect`], [`model`], [`stiffness`], [`output`],
//! [`books`], [`watch`] and [`cycle`]. The **harness** is [`record`], [`check`], [`case`],
//! [`run`], [`mod@bench`], [`report`] and [`verify`]. The rule: the engine never names the
//! harness; each module names only modules on lower floors (docs/ARCHITECTURE.md draws them);
//! no file names a file that names it back. `tests/house.rs` fails when the rule is broken.
//!
//! Tip: debug builds are 20-50 times slower than `--release`; run real models in release.

#![deny(missing_docs)]

pub mod bench;
pub mod body;
pub mod books;
pub mod case;
pub mod check;
pub mod comm;
pub mod contact;
pub mod cycle;
pub mod detect;
pub mod distribution;
pub mod flow;
pub mod force;
pub mod generate;
pub mod geom;

pub mod law;
pub mod math;
pub mod model;
pub mod motion;
pub mod output;
pub mod par;
pub mod phases;
pub mod record;
pub mod report;
pub mod rng;
pub mod run;
pub mod springs;
pub mod stiffness;
pub mod storage;
pub mod timestep;
pub mod verify;
pub mod watch;
