//! # ballast: a Discrete Element Method engine that carries its own proof
//!
//! ballast simulates granular materials as rigid spherical *balls* that interact through
//! *contacts* with each other and with faceted *walls* (triangle meshes, [`geom`]). Every capability ships with a case (`cases/*.toml`) judged by an independent
//! reference (a closed form, an exact eigen-analysis, or the same scene built another way), and
//! the harness writes an HTML report per case.
//!
//! ## The cycle (seed 000, seed 004)
//! 1. **timestep** ([`timestep`]): the timestep of the cycle;
//! 2. **law of motion** ([`motion`]): velocities (half a step behind positions), positions,
//!    orientations;
//! 3. **contact detection** ([`detect`], [`contact`]): extents enlarged by a margin, a cell grid,
//!    and a persistent sorted contact list;
//! 4. **force-displacement** ([`law`], [`contact::ball_ball`]): each contact's geometry and
//!    force, then the resultant force and moment of every body.
//!
//! [`cycle`] runs them in that order; [`model::Model`] holds the state.
//!
//! ## Map
//! Engine: [`math`], [`geom`], [`model`], [`detect`], [`contact`], [`law`], [`timestep`],
//! [`motion`], [`cycle`]. Harness (uses only the engine's public API): [`case`], [`output`], [`check`],
//! [`report`], [`run`], [`verify`].
//!
//! Tip: debug builds are 20-50 times slower than `--release`; run real models in release.

#![deny(missing_docs)]

pub mod bench;
pub mod body;
pub mod case;
pub mod check;
pub mod contact;
pub mod cycle;
pub mod detect;
pub mod force;
pub mod generate;
pub mod geom;

pub mod law;
pub mod math;
pub mod model;
pub mod motion;
pub mod output;
pub mod par;
pub mod record;
pub mod report;
pub mod rng;
pub mod run;
pub mod stiffness;
pub mod storage;
pub mod timestep;
pub mod verify;
