//! The cycle (seed 000 and 004 order): timestep, law of motion, contact detection,
//! force-displacement.

mod books;

mod timestep;
mod watch;

pub use watch::{Watch, WATCH_EVERY};

use crate::math::Vec3;
use crate::model::{Model, ModelError};

impl Model {
    /// Runs one cycle: timestep, law of motion, contact detection, force-displacement.
    ///
    /// # Errors
    /// [`ModelError::BlewUp`] when a position or velocity stops being finite, and
    /// [`ModelError::Interpenetration`] when two balls overlap by more than the smaller radius;
    /// both name the body and the cycle.
    pub fn cycle(&mut self) -> Result<(), ModelError> {
        if !self.primed {
            self.prime()?;
        }
        if self.exchange().run()? {
            // (the candidate pairs and the last force pass's stiffness sums count the balls
            // that were)
            self.dof_stiffness.fused_at = None;
            self.broad_phase.invalidate();
        }
        self.plan_walls();
        let t = self.clock();
        let estimate = self.timestep_stiffness();
        let dt = self.timestep().choose(estimate)?;
        let (finite, moved) = self.motion().run(dt);
        self.cycles += 1;
        self.time += dt;
        self.last_dt = dt;
        let t = self.lap(t, |p| &mut p.motion);
        if !finite {
            self.check_finite()?;
        }
        if moved == Some(true) {
            // a ball that moves more than its radius in a cycle moves more than the margin:
            // the broad phase rebuilds in that cycle, and this test sees it
            self.check_tunnelling(dt)?;
        }
        let t = self.lap(t, |p| &mut p.checks);
        self.detection().run(moved);
        let t = self.lap(t, |p| &mut p.detect);
        self.force_displacement(dt);
        self.book_energy(false);
        let t = self.clock().or(t);
        let r = self.check_overlaps();
        self.lap(t, |p| &mut p.checks);
        r
    }

    /// Sets the velocity of every programmed wall for the cycle that starts now (schedules,
    /// oscillation, servo control on the load of the last cycle).
    fn plan_walls(&mut self) {
        for w in 0..self.walls.len() {
            let load = match &self.walls[w].program {
                None => continue,
                Some(crate::body::Program::Servo { .. }) => self.wall_resultant(w).0,
                Some(_) => Vec3::zeros(),
            };
            self.walls[w].plan(self.time, load);
        }
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
        self.check_contact_models()?;
        self.broad_phase = Default::default();
        self.detect();
        self.force_displacement(0.0);
        self.book_energy(true);
        self.primed = true;
        self.check_overlaps()
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

    fn check_tunnelling(&self, dt: crate::math::Real) -> Result<(), ModelError> {
        let b = &self.balls;
        for i in 0..b.len() {
            let speed2 = b.vel[i].norm_squared();
            if speed2 * dt * dt > b.radius[i] * b.radius[i] {
                let speed = speed2.sqrt();
                return Err(ModelError::Tunnelling {
                    cycle: self.cycles,
                    body: self.piece_label(i),
                    step: speed * dt,
                    speed,
                    radius: b.radius[i],
                });
            }
        }
        Ok(())
    }

    fn check_finite(&self) -> Result<(), ModelError> {
        // which of a body's position, velocity and angular velocity is not finite, if any
        let non_finite = |pos: &Vec3, vel: &Vec3, spin: &Vec3| {
            [
                (pos, "position"),
                (vel, "velocity"),
                (spin, "angular velocity"),
            ]
            .into_iter()
            .find(|(v, _)| !v.iter().all(|x| x.is_finite()))
            .map(|(_, what)| what)
        };
        let cl = &self.clumps;
        for c in 0..cl.len() {
            if let Some(what) = non_finite(&cl.pos[c], &cl.vel[c], &cl.spin[c]) {
                return Err(ModelError::BlewUp {
                    cycle: self.cycles,
                    body: format!("clump {}", cl.id[c]),
                    what,
                });
            }
        }
        let b = &self.balls;
        for i in 0..b.len() {
            if let Some(what) = non_finite(&b.pos[i], &b.vel[i], &b.spin[i]) {
                return Err(ModelError::BlewUp {
                    cycle: self.cycles,
                    body: self.piece_label(i),
                    what,
                });
            }
        }
        Ok(())
    }

    fn check_overlaps(&self) -> Result<(), ModelError> {
        if !self.interpenetrating {
            return Ok(());
        }
        let b = &self.balls;
        for (k, c) in self
            .contacts
            .list
            .iter()
            .enumerate()
            .filter(|(_, c)| c.active)
        {
            let (i, j) = (c.a as usize, c.b as usize);
            let overlap = self.contacts.geometry(k, b).overlap;
            if overlap > b.radius[i].min(b.radius[j]) || !overlap.is_finite() {
                return Err(ModelError::Interpenetration {
                    cycle: self.cycles,
                    a: self.piece_label(i),
                    b: self.piece_label(j),
                    overlap,
                });
            }
        }
        Ok(())
    }
}
