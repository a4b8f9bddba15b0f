//! Balls leave and enter, at the start of each cycle (before the timestep, so that the step
//! and the law of motion see the balls of the cycle): first every ball whose centre lies in an
//! outlet's zone is removed, then each insertion places the balls it has due where they touch
//! nothing ([`crate::flow`]).
//!
//! Removal keeps the order of the balls that stay, so every kept contact keeps its roles, its
//! frame and its state (`Contacts::drop_balls`); new balls go at the end, with no contact until
//! the broad phase, which rebuilds in the same cycle, finds their neighbours. Both are
//! sequential and draw from each insertion's own seeded stream: the run is the same for any
//! number of threads, and a checkpoint carries the streams.

use crate::body::BallSpec;
use crate::flow::{Insert, InsertSpec, Obstacles, Outlet, ATTEMPTS};
use crate::geom::Zone;
use crate::math::Real;
use crate::model::{Model, ModelError};

impl Model {
    /// Adds an insertion; returns its index.
    ///
    /// # Errors
    /// [`ModelError::BadFlow`]: a repeated name, an unknown material, the 2D mode, or a zone
    /// in which the largest radius does not fit.
    pub fn add_insert(&mut self, spec: InsertSpec) -> Result<usize, ModelError> {
        let bad = |reason: String| ModelError::BadFlow {
            name: spec.name.clone(),
            reason,
        };
        if self.planar {
            return Err(bad("insertion is 3D only".into()));
        }
        if self.flow.inserts.iter().any(|i| i.spec.name == spec.name) {
            return Err(bad("the name is used by another insertion".into()));
        }
        if spec.material >= self.materials.len() {
            return Err(bad(format!("unknown material index {}", spec.material)));
        }
        let r_max = spec.radii.range().1;
        if !spec.zone.fits(r_max) {
            return Err(bad(format!(
                "a ball of the largest radius {r_max:e} m does not fit in the region"
            )));
        }
        self.flow.inserts.push(Insert::new(spec));
        self.primed = false;
        Ok(self.flow.inserts.len() - 1)
    }

    /// Adds an outlet; returns its index.
    ///
    /// # Errors
    /// [`ModelError::BadFlow`]: a repeated name, or a model with clumps (an outlet removes
    /// balls; a clump is not removed).
    pub fn add_outlet(&mut self, name: &str, zone: Zone) -> Result<usize, ModelError> {
        let bad = |reason: &str| ModelError::BadFlow {
            name: name.into(),
            reason: reason.into(),
        };
        if self.flow.outlets.iter().any(|o| o.name == name) {
            return Err(bad("the name is used by another outlet"));
        }
        if !self.clumps.is_empty() {
            return Err(bad(
                "outlets remove balls, not clumps: a model with clumps cannot have an outlet yet",
            ));
        }
        self.flow.outlets.push(Outlet {
            name: name.into(),
            zone,
            count: 0,
            mass: 0.0,
        });
        Ok(self.flow.outlets.len() - 1)
    }

    /// Number of balls (pebbles are not balls), and their mass, kg.
    pub fn ball_count_and_mass(&self) -> (usize, Real) {
        let b = &self.balls;
        (0..b.len())
            .filter(|&i| !b.is_pebble(i))
            .fold((0, 0.0), |(n, m), i| (n + 1, m + b.mass[i]))
    }

    /// Removes the balls in outlets, then places the balls that insertions have due.
    pub(super) fn exchange(&mut self) -> Result<(), ModelError> {
        if !self.flow.is_active() {
            return Ok(());
        }
        let removed = self.remove_in_outlets();
        // (a ball added between cycles needs no new priming: the detection of this cycle
        // finds its contacts, and it touches nothing)
        let primed = self.primed;
        let added = self.insert_due()?;
        self.primed = primed;
        if removed || added {
            // (the stiffness sums of the last force pass count the balls that were)
            self.dof_stiffness.fused_at = None;
            self.broad_phase.invalidate();
            self.contacts.balls_changed();
        }
        Ok(())
    }

    /// Kinetic and potential energy of ball `i` at the time of the positions, J.
    fn ball_energy(&self, i: usize) -> Real {
        let b = &self.balls;
        let (v, w) = (self.synchronized_velocity(i), self.synchronized_spin(i));
        0.5 * b.mass[i] * v.norm_squared() + 0.5 * b.inertia[i] * w.norm_squared()
            - b.mass[i] * self.settings.gravity.dot(&b.pos[i])
    }

    /// Removes every ball (not pebble) whose centre lies in an outlet's zone, with its
    /// contacts; true when one was.
    fn remove_in_outlets(&mut self) -> bool {
        if self.flow.outlets.is_empty() {
            return false;
        }
        let n = self.balls.len();
        let mut keep: Vec<bool> = Vec::new();
        let mut taken = 0.0;
        for i in 0..n {
            let b = &self.balls;
            if b.is_pebble(i) {
                continue;
            }
            let p = b.pos[i];
            let Some(o) = self.flow.outlets.iter().position(|o| o.zone.contains(&p)) else {
                continue;
            };
            if keep.is_empty() {
                keep = vec![true; n];
            }
            keep[i] = false;
            let m = b.mass[i];
            let out = &mut self.flow.outlets[o];
            out.count += 1;
            out.mass += m;
            taken += self.ball_energy(i);
        }
        if keep.is_empty() {
            return false;
        }
        // the strain energy of the contacts that go with the balls
        let b = &self.balls;
        for (k, c) in self.contacts.list.iter().enumerate() {
            if c.active && !(keep[c.a as usize] && keep[c.b as usize]) {
                let g = self.contacts.geometry(k, b);
                taken += self.laws[c.law as usize].strain_energy(g.overlap, g.radius, &c.state);
            }
        }
        for c in &self.facet_contacts.list {
            if c.active && !keep[c.ball as usize] {
                let r = b.radius[c.ball as usize];
                taken += self.laws[c.law as usize].strain_energy(c.overlap, r, &c.state);
            }
        }
        self.flow.exchanged -= taken;
        let mut new_of = vec![u32::MAX; n];
        let mut next = 0u32;
        for i in 0..n {
            if keep[i] {
                new_of[i] = next;
                next += 1;
            } else {
                self.ids.remove(&self.balls.id[i]);
            }
        }
        self.balls.keep(&keep);
        self.contacts.drop_balls(&new_of);
        self.facet_contacts.drop_balls(&new_of);
        for f in &mut self.clumps.first {
            *f = new_of[*f as usize];
        }
        true
    }

    /// Places the balls each insertion has due; true when one was placed.
    fn insert_due(&mut self) -> Result<bool, ModelError> {
        if self.flow.inserts.is_empty() {
            return Ok(false);
        }
        if self.flow.next_id == 0 {
            self.flow.next_id = self.ids.iter().max().map_or(1, |m| m + 1);
        }
        let (time, cycle) = (self.time, self.cycles);
        let mut inserts = std::mem::take(&mut self.flow.inserts);
        let mut any = false;
        for ins in &mut inserts {
            if ins.should_try(time, cycle) {
                any |= self.place(ins, cycle)?;
            }
            ins.update_pending(time);
        }
        self.flow.inserts = inserts;
        Ok(any)
    }

    /// Places balls of one insertion while it has some due and its zone has room.
    fn place(&mut self, ins: &mut Insert, cycle: u64) -> Result<bool, ModelError> {
        let spec: &InsertSpec = &ins.spec;
        let (material, vel) = (spec.material, spec.vel);
        let r_max = spec.radii.range().1;
        let mut obstacles = Obstacles::new(&spec.zone, r_max, &self.balls, &self.walls);
        let mut any = false;
        while ins.wants(self.time) {
            let r = ins.next_radius();
            let spot = (0..ATTEMPTS)
                .filter_map(|_| ins.next_position(r))
                .find(|p| obstacles.is_free(p, r));
            let Some(p) = spot else {
                ins.full(cycle);
                break;
            };
            let id = self.flow.next_id;
            self.flow.next_id += 1;
            let ball = BallSpec {
                vel,
                ..BallSpec::at_rest(id, [p.x, p.y, p.z], r, material)
            };
            let i = self.add_ball(&ball)?;
            obstacles.add_sphere(p, r);
            ins.placed_one(self.balls.mass[i]);
            self.flow.exchanged += self.ball_energy(i);
            any = true;
        }
        Ok(any)
    }
}
