//! The blow-up watch: a run that creates energy from nothing, whose energy stops being finite,
//! or whose balls move more than their radius in one cycle (tunnelling) is stopped with a
//! message naming the cycle, the body and the quantity that gave it away.
//!
//! The energy test needs no energy books. Without moving walls or applied forces nothing works
//! on the balls, so `K + U + P + D = K0 + U0 + P0` and, since the strain energy `U` and the
//! dissipated energy `D` are never negative, `K + (P - P0) <= K0 + U0`. The watch measures
//! `created = K + (P - P0) - (K0 + U0) - W` (`W` from the books when the case keeps them, which
//! a scene with moving walls or applied forces needs for the test) and stops the run when it
//! exceeds the energy the run has to draw on, `K0 + U0 + |W| + max |P - P0|` (not in the scaled
//! timestep mode, whose path is not physical). Cohesion's potential is the one strain energy
//! that can be negative: `U0` is then the elastic part, and what the attraction has released
//! since the start (`Uc0 - Uc`) counts as drawn on, as work does. The kinetic and
//! potential energy then hold more than twice what exists. A stable explicit step is nowhere
//! near that (its error is a fraction of the oscillation energy); an unstable one grows
//! exponentially past it within tens of cycles.

use crate::math::Real;
use crate::model::Model;

/// Cycles between two looks of the watch (a look is one pass over the balls).
pub const WATCH_EVERY: u64 = 100;

/// What the watch knows of the start, and the largest potential energy change seen.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Watch {
    /// `K0 + U0`, J, without the potential of the cohesive forces.
    start: Real,
    /// `Uc0`, the potential of the cohesive forces at the start, J (<= 0).
    #[serde(default)]
    cohesion: Real,
    /// `P0`, J.
    potential: Real,
    /// Largest `|P - P0|` seen, J.
    fall: Real,
    /// False when something works on the balls and the books are not kept: then only the
    /// finiteness and tunnelling tests apply.
    energy: bool,
}

impl Watch {
    /// Starts watching a primed model.
    pub fn new(model: &Model) -> Watch {
        // (Lees-Edwards images and a pressure-controlled cell work on the balls as moving
        // walls do)
        let sheared =
            (model.balls.cell.as_ref()).is_some_and(|c| c.shear.is_some() || c.pressure.is_some());
        let works = sheared
            || model.walls.iter().any(|w| w.is_moving())
            || (model.balls.applied_force.iter()).any(|f| f.iter().any(|&x| x != 0.0))
            || (model.clumps.applied_force.iter()).any(|f| f.iter().any(|&x| x != 0.0));
        // (timestep scaling changes the inertial masses and rescales the velocities: its path
        // is not physical, and the kinetic energy of the real masses is not bounded by the start)
        let scaled = matches!(
            model.settings.timestep,
            crate::timestep::TimestepMode::Scaled(_)
        );
        let cohesion = model.cohesion_energy();
        Watch {
            start: model.kinetic_energy() + model.strain_energy() - cohesion,
            cohesion,
            potential: model.potential_energy(),
            fall: 0.0,
            energy: !scaled && (!works || model.energy_books().is_some()),
        }
    }

    /// Looks at the model after a cycle (every [`WATCH_EVERY`] cycles, and whenever `now`).
    ///
    /// # Errors
    /// The sentence that stops the run.
    pub fn look(&mut self, model: &Model, now: bool) -> Result<(), String> {
        if !now && model.cycles % WATCH_EVERY != 0 {
            return Ok(());
        }
        let cycle = model.cycles;
        let kinetic = model.kinetic_energy();
        let potential = model.potential_energy();
        if !kinetic.is_finite() || !potential.is_finite() {
            let (what, value) = if kinetic.is_finite() {
                ("potential energy", potential)
            } else {
                ("kinetic energy", kinetic)
            };
            let (body, _) = self.most_energetic(model);
            return Err(format!(
                "cycle {cycle}: {what} is {value} ({body} holds the most kinetic energy): the run blew up"
            ));
        }
        self.tunnelling(model)?;
        if !self.energy {
            return Ok(());
        }
        // (balls that entered or left brought or took their energy: counted as work)
        let work = model.energy_books().map_or(0.0, |b| b.work()) + model.flow.exchanged;
        // (what the attraction of cohesive contacts has released since the start)
        let released = self.cohesion - model.cohesion_energy();
        self.fall = self.fall.max((potential - self.potential).abs());
        let created = kinetic + (potential - self.potential) - self.start - work - released;
        let available = self.start + work.abs() + self.fall + released.abs();
        if created > available && created > 0.0 {
            let (body, k) = self.most_energetic(model);
            return Err(format!(
                "cycle {cycle}: energy from nothing: the kinetic energy is {kinetic:.4e} J and the \
                 potential energy changed by {:.4e} J, {created:.4e} J more than the {:.4e} J the \
                 run started with{} ({body} holds {k:.4e} J of kinetic energy): the run is \
                 unstable (is the timestep too large?)",
                potential - self.potential,
                self.start,
                if work != 0.0 {
                    format!(" plus the {work:.4e} J of work done on it")
                } else {
                    String::new()
                },
            ));
        }
        Ok(())
    }

    /// A ball that moves more than its radius per cycle can pass through another piece.
    fn tunnelling(&self, model: &Model) -> Result<(), String> {
        let b = &model.balls;
        let dt = model.last_dt;
        for i in 0..b.len() {
            let step = b.vel[i].norm() * dt;
            if step > b.radius[i] {
                return Err(format!(
                    "cycle {}: {} moves {step:.4e} m per cycle ({:.4e} m/s), more than its \
                     radius {:.4e} m: it can pass through other pieces (tunnelling); lower the \
                     timestep",
                    model.cycles,
                    model.piece_label(i),
                    b.vel[i].norm(),
                    b.radius[i]
                ));
            }
        }
        Ok(())
    }

    /// The body with the most kinetic energy, and that energy, J.
    fn most_energetic(&self, model: &Model) -> (String, Real) {
        let b = &model.balls;
        let mut best = (0usize, Real::NEG_INFINITY);
        for i in 0..b.len() {
            let v = model.synchronized_velocity(i);
            let w = model.synchronized_spin(i);
            let k = 0.5 * b.mass[i] * v.norm_squared() + 0.5 * b.inertia[i] * w.norm_squared();
            // (a NaN energy is the one to name)
            if k > best.1 || k.is_nan() {
                best = (i, k);
            }
        }
        if b.is_empty() {
            return ("no ball".into(), 0.0);
        }
        (model.piece_label(best.0), best.1)
    }
}
