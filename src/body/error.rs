//! What can be wrong with a model being built or run: one error type for the bodies, walls,
//! insertions and the cycle, each variant naming the body, the cycle and the quantity.

use crate::math::{Real, Vec3};

/// What can be wrong with a model being built or run.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum ModelError {
    /// A ball with a radius that is not a positive finite number.
    #[error("ball {id}: radius {radius} must be a positive finite number (m)")]
    BadRadius {
        /// Ball id.
        id: u64,
        /// The radius given.
        radius: Real,
    },
    /// A material with a density that is not a positive finite number.
    #[error("material \"{name}\": density {density} must be a positive finite number (kg/m^3)")]
    BadDensity {
        /// Material name.
        name: String,
        /// The density given.
        density: Real,
    },
    /// A 2D disk given a state out of the plane.
    #[error("ball {0}: a 2D disk stays in the plane z = 0 (z, its velocity and the spin about x and y must be 0)")]
    OutOfPlane(u64),
    /// Two balls with the same id.
    #[error("ball id {0} is used twice")]
    DuplicateId(u64),
    /// A ball whose material index is out of range.
    #[error("ball {id}: unknown material index {material}")]
    UnknownMaterial {
        /// Ball id.
        id: u64,
        /// The index given.
        material: usize,
    },
    /// A value that is NaN or infinite.
    #[error("ball {id}: {what} is not finite")]
    NotFinite {
        /// Ball id.
        id: u64,
        /// Which quantity.
        what: &'static str,
    },
    /// Two materials whose pieces may touch but have no contact model.
    #[error("no contact model for materials \"{0}\" and \"{1}\"")]
    NoContactModel(String, String),
    /// A state that is no longer finite during a run.
    #[error(
        "cycle {cycle}: {body}: {what} is not finite (the run blew up; is the timestep too large?)"
    )]
    BlewUp {
        /// Cycle number (1 is the first).
        cycle: u64,
        /// The body ("ball 3", "clump 2").
        body: String,
        /// Which quantity.
        what: &'static str,
    },
    /// Two pieces overlapping by more than the smaller radius: the run has lost its physics.
    #[error("cycle {cycle}: {a} and {b} overlap by {overlap:.3e} m, more than the smaller radius (is the timestep too large?)")]
    Interpenetration {
        /// Cycle number.
        cycle: u64,
        /// The first piece ("ball 3", "clump 2 pebble 1").
        a: String,
        /// The second piece.
        b: String,
        /// The overlap, m.
        overlap: Real,
    },
    /// A ball that moved more than its radius in one cycle: it can pass through other pieces.
    #[error("cycle {cycle}: {body} moved {step:.4e} m in one cycle ({speed:.4e} m/s), more than its radius {radius:.4e} m: it can pass through other pieces (tunnelling); lower the timestep")]
    Tunnelling {
        /// Cycle number.
        cycle: u64,
        /// The piece ("ball 3").
        body: String,
        /// Its displacement in the cycle, m.
        step: Real,
        /// Its speed, m/s.
        speed: Real,
        /// Its radius, m.
        radius: Real,
    },
    /// A ball whose centre starts closer than half its radius to a facet of a wall (on it, the
    /// contact has no normal; that deep, no contact law holds).
    #[error("{ball} starts with its centre {distance:.3e} m from facet {facet} of wall \"{wall}\", closer than half its radius {radius:.3e} m: move it out of the wall")]
    StartsInWall {
        /// The piece ("ball 3").
        ball: String,
        /// Wall name.
        wall: String,
        /// Facet number (from 0).
        facet: u32,
        /// Distance of the centre from the facet, m.
        distance: Real,
        /// The ball's radius, m.
        radius: Real,
    },
    /// A mass or moment of inertia that is not a positive finite number (a radius so small or
    /// so large that the solid sphere's mass underflows to 0 or overflows to infinity).
    #[error("{body}: {what} {value:e} must be a positive finite number (radius {radius:e} m, density {density:e} kg/m^3)")]
    BadMass {
        /// The body ("ball 3").
        body: String,
        /// "mass" or "moment of inertia".
        what: &'static str,
        /// The value computed.
        value: Real,
        /// The radius given.
        radius: Real,
        /// The density of its material.
        density: Real,
    },
    /// A wall that cannot be built (bad mesh, unknown material, repeated name, ...).
    #[error("wall \"{wall}\": {reason}")]
    BadWall {
        /// Wall name.
        wall: String,
        /// What is wrong.
        reason: String,
    },
    /// A clump that cannot be built.
    #[error("clump {id}: {reason}")]
    BadClump {
        /// Clump id.
        id: u64,
        /// What is wrong.
        reason: String,
    },
    /// An insertion or outlet that cannot be built.
    #[error("\"{name}\": {reason}")]
    BadFlow {
        /// Its name.
        name: String,
        /// What is wrong.
        reason: String,
    },
    /// A pressure-controlled periodic cell that shrank (or grew) out of what the minimum-image
    /// rule and the run can hold.
    #[error(
        "cycle {cycle}: the periodic cell's length along {axis} became {length:.4e} m: {reason}"
    )]
    CellCollapsed {
        /// Cycle number.
        cycle: u64,
        /// The axis ("x", "y", "z").
        axis: &'static str,
        /// The length, m.
        length: Real,
        /// Why it cannot go on.
        reason: String,
    },
    /// A run cut over ranks stopped because another rank's body blew up (that rank names it).
    #[error("cycle {cycle}: another rank stopped the run (it names the body)")]
    OtherRank {
        /// Cycle number.
        cycle: u64,
    },
    /// A timestep that is not a positive finite number.
    #[error("timestep {0} s must be a positive finite number")]
    BadTimestep(Real),
}

/// Checks a body's initial state: position, velocity, spin and applied force finite.
pub(crate) fn finite_state(
    id: u64,
    pos: &Vec3,
    vel: &Vec3,
    spin: &Vec3,
    force: &Vec3,
) -> Result<(), ModelError> {
    for (what, v) in [("pos", pos), ("vel", vel), ("spin", spin), ("force", force)] {
        if !v.iter().all(|x| x.is_finite()) {
            return Err(ModelError::NotFinite { id, what });
        }
    }
    Ok(())
}
