//! The cycle (seed 000 and 004 order): [`Model::cycle`] is the list of stages, each a room of
//! its own taking the state it reads and writes (`crate::model`'s views cut them):
//!
//! 0. balls leave and enter ([`crate::flow::Exchange`]); programmed walls take their velocity;
//! 1. **timestep** ([`crate::timestep::Timestep`], given the critical estimate that
//!    `timestep.rs` makes from every contact's stiffness when the mode needs one);
//! 2. **law of motion** ([`crate::motion::Motion`]; the periodic cell's step first,
//!    [`crate::motion::deform_cell`]), then the blow-up checks ([`crate::watch::blowup`]);
//! 3. **contact detection** ([`crate::detect::Detection`]);
//! 4. **force-displacement** ([`crate::force::Forces`]);
//! 5. the energy books ([`crate::books::book`]) and the interpenetration check.

mod among;
mod balance;
mod exchange;
mod gather;
mod ghosts;
mod migrate;
mod ranks;
mod timestep;

pub use ranks::{Rank, REBALANCE};

pub use crate::watch::{Watch, WATCH_EVERY};

use crate::math::Vec3;
use crate::model::{Model, ModelError};
use crate::watch::blowup;

impl Model {
    /// Runs one cycle: timestep, law of motion, contact detection, force-displacement.
    ///
    /// # Errors
    /// [`ModelError::BlewUp`] when a position or velocity stops being finite,
    /// [`ModelError::Tunnelling`] when a ball moves more than its radius, and
    /// [`ModelError::Interpenetration`] when two balls overlap by more than the smaller radius;
    /// each names the body and the cycle.
    pub fn cycle(&mut self) -> Result<(), ModelError> {
        if !self.primed {
            self.prime()?;
        }
        // 0. balls leave and enter; programmed walls take this cycle's velocity
        if self.exchange().run()? {
            // (the candidate pairs and the last force pass's stiffness sums count the balls
            // that were)
            self.dof_stiffness.fused_at = None;
            self.broad_phase.invalidate();
        }
        self.plan_walls();
        self.plan_cell()?;
        // 1. timestep
        let t = self.clock();
        let estimate = self.timestep_stiffness(None);
        let dt = self.timestep().choose(estimate)?;
        // 2. law of motion, the periodic cell's step first
        crate::motion::deform_cell(&mut self.balls, &mut self.clumps, dt);
        let (finite, moved) = self.motion().run(dt);
        self.advance_clock(dt);
        let t = self.lap(t, |p| &mut p.motion);
        if !finite {
            blowup::finite(self)?;
        }
        if moved == Some(true) {
            // a ball that moves more than its radius in a cycle moves more than the margin:
            // the broad phase rebuilds in that cycle, and this test sees it
            blowup::tunnelling(self, dt)?;
        }
        let t = self.lap(t, |p| &mut p.checks);
        // 3. contact detection
        self.detection().run(moved);
        let t = self.lap(t, |p| &mut p.detect);
        // 4. force-displacement
        self.forces().run(dt);
        // 5. the books, and the interpenetration the force pass saw
        crate::books::book(self, false, &crate::comm::Share::whole());
        let t = self.clock().or(t);
        let r = blowup::overlaps(self);
        self.lap(t, |p| &mut p.checks);
        r
    }

    /// Counts a cycle of `dt` done.
    fn advance_clock(&mut self, dt: crate::math::Real) {
        self.cycles += 1;
        self.time += dt;
        self.last_dt = dt;
    }

    /// Sets the velocity of every programmed wall for the cycle that starts now (schedules,
    /// oscillation, servo control on the load of the last cycle).
    fn plan_walls(&mut self) {
        self.plan_walls_by(|m, w| m.wall_resultant(w).0);
    }

    /// [`Model::plan_walls`] with the load on a servo wall `w` given by `load(self, w)` (on
    /// ranks, the sum over every rank's balls).
    fn plan_walls_by(&mut self, mut load: impl FnMut(&Model, usize) -> Vec3) {
        for w in 0..self.walls.len() {
            let load = match &self.walls[w].program {
                None => continue,
                Some(crate::body::Program::Servo { .. }) => load(self, w),
                Some(_) => Vec3::zeros(),
            };
            self.walls[w].plan(self.time, load);
        }
    }

    /// Under pressure control, sets the cell's strain rate for the cycle that starts now from
    /// the cell's stress of the last force pass (`crate::geom::Pressure`).
    ///
    /// # Errors
    /// [`ModelError::CellCollapsed`] when the controlled length is no longer longer than
    /// `4 (largest radius + margin)` (two balls would meet two images of each other) or its
    /// stress is not finite.
    fn plan_cell(&mut self) -> Result<(), ModelError> {
        self.plan_cell_by(&crate::comm::Share::whole())
    }

    /// [`Model::plan_cell`] over the balls of `share`, the stress and the largest radius
    /// merged over the ranks.
    fn plan_cell_by(&mut self, share: &crate::comm::Share) -> Result<(), ModelError> {
        let Some(p) = self.balls.cell.as_ref().and_then(|c| c.pressure) else {
            return Ok(());
        };
        if self.cycles % p.every != 0 {
            return Ok(());
        }
        let axis = p.axis;
        let sigma = crate::output::cell_normal_stress(self, axis, share);
        let length = self.balls.cell.as_ref().map_or(0.0, |c| c.len[axis]);
        let largest =
            share.max((self.balls.radius.iter()).fold(0.0, |m: crate::math::Real, &r| m.max(r)));
        let shortest = 4.0 * (largest + self.settings.margin);
        let collapsed = |reason: String| ModelError::CellCollapsed {
            cycle: self.cycles + 1,
            axis: ["x", "y", "z"][axis],
            length,
            reason,
        };
        if !sigma.is_finite() {
            return Err(collapsed(format!(
                "its normal stress is {sigma} (the run blew up)"
            )));
        }
        if length <= shortest {
            return Err(collapsed(format!("no longer than 4 (largest radius + margin) = {shortest:.4e} m, two balls would meet two images of each other (the pressure target is too low for the balls, or the gain too high)")));
        }
        if let Some(cell) = self.balls.cell.as_mut() {
            cell.servo(sigma);
        }
        Ok(())
    }

    /// The time now, when phases are measured.
    #[inline]
    pub(crate) fn clock(&self) -> Option<std::time::Instant> {
        self.phases.as_ref().map(|_| std::time::Instant::now())
    }

    /// Adds the time since `t` to one phase; returns the time now.
    #[inline]
    pub(crate) fn lap(
        &mut self,
        t: Option<std::time::Instant>,
        phase: impl Fn(&mut crate::model::Phases) -> &mut f64,
    ) -> Option<std::time::Instant> {
        let (Some(t), Some(p)) = (t, self.phases.as_mut()) else {
            return None;
        };
        let now = std::time::Instant::now();
        *phase(p) += (now - t).as_secs_f64();
        Some(now)
    }

    /// Detects contacts and computes forces at the current positions without moving anything
    /// (done once before the first cycle, so that the first law of motion sees the forces).
    ///
    /// # Errors
    /// As [`Model::cycle`], and [`ModelError::NoContactModel`] for a pair of materials that can
    /// meet but has no contact model.
    pub fn prime(&mut self) -> Result<(), ModelError> {
        self.prime_forces()?;
        crate::books::book(self, true, &crate::comm::Share::whole());
        self.primed = true;
        blowup::overlaps(self)
    }

    /// [`Model::prime`]'s detection and force pass.
    fn prime_forces(&mut self) -> Result<(), ModelError> {
        self.check_contact_models()?;
        self.broad_phase = Default::default();
        self.detect();
        self.forces().run(0.0);
        Ok(())
    }

    /// Primes the model and refuses a start that no run can recover from: two pieces
    /// overlapping by more than the smaller radius, or a ball whose centre is closer than half
    /// its radius to a facet (on a facet or a shared edge, the contact has no normal).
    ///
    /// # Errors
    /// As [`Model::prime`], and [`ModelError::StartsInWall`].
    pub fn check_start(&mut self) -> Result<(), ModelError> {
        self.prime()?;
        let b = &self.balls;
        for c in &self.facet_contacts.list {
            let i = c.ball as usize;
            let distance = b.radius[i] - c.overlap;
            if distance < 0.5 * b.radius[i] || !distance.is_finite() {
                return Err(ModelError::StartsInWall {
                    ball: self.piece_label(i),
                    wall: self.walls[c.wall as usize].name.clone(),
                    facet: c.facet,
                    distance,
                    radius: b.radius[i],
                });
            }
        }
        Ok(())
    }
}
