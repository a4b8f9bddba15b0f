//! Balls leave and enter, at the start of each cycle ([`Exchange`]: what it reads and
//! writes; before the timestep, so that the step and the law of motion see the balls of the
//! cycle): first every ball whose centre lies in an outlet's zone is removed, then each
//! insertion places the balls it has due where they touch nothing ([`super::Obstacles`]).
//!
//! Removal keeps the order of the balls that stay, so every kept contact keeps its roles, its
//! frame and its state (`Contacts::drop_balls`); new balls go at the end, with no contact until
//! the broad phase, which rebuilds in the same cycle, finds their neighbours. Both are
//! sequential and draw from each insertion's own seeded stream: the run is the same for any
//! number of threads, and a checkpoint carries the streams.

use super::insert::{Flow, Insert, InsertSpec, ATTEMPTS};
use super::place::Obstacles;
use crate::body::{BallSpec, Balls, Clumps, Material, ModelError, Wall};
use crate::contact::{Contacts, FacetContacts};
use crate::law::ContactModel;
use crate::math::{ExactSum, Real, Vec3};
use crate::motion::{acceleration, angular_acceleration};
use crate::storage::IdSet;

/// What the exchange of balls reads and writes.
pub struct Exchange<'a> {
    /// The insertions and outlets, and what they have done.
    pub flow: &'a mut Flow,
    /// Balls removed and added.
    pub balls: &'a mut Balls,
    /// Each clump's first pebble follows a removal.
    pub clumps: &'a mut Clumps,
    /// The contacts of removed balls go with them.
    pub contacts: &'a mut Contacts,
    /// Likewise.
    pub facet_contacts: &'a mut FacetContacts,
    /// The ids in use (taken by new balls, freed by removed ones).
    pub ids: &'a mut IdSet,
    /// The walls (read: a new ball touches none).
    pub walls: &'a [Wall],
    /// The contact models (read: the strain energy a removed contact takes with it).
    pub laws: &'a [ContactModel],
    /// The materials (read: a new ball's density).
    pub materials: &'a [Material],
    /// Gravitational acceleration, m/s^2.
    pub gravity: Vec3,
    /// The time now, s.
    pub time: Real,
    /// Cycles run so far.
    pub cycles: u64,
    /// The last cycle's timestep, s (the velocities are half of it behind the positions).
    pub last_dt: Real,
}

impl Exchange<'_> {
    /// Removes the balls in outlets, then places the balls that insertions have due.
    /// True when a ball was removed or added: the candidate pairs and the stiffness sums of
    /// the last force pass count the balls that were (the caller renews them).
    ///
    /// # Errors
    /// [`ModelError`] for an inserted ball whose mass is not a positive finite number.
    pub fn run(mut self) -> Result<bool, ModelError> {
        if !self.flow.is_active() {
            return Ok(false);
        }
        let removed = self.remove_in_outlets();
        // (a ball added between cycles needs no new priming: the detection of this cycle
        // finds its contacts, and it touches nothing)
        let added = self.insert_due()?;
        if removed || added {
            self.contacts.balls_changed();
        }
        Ok(removed || added)
    }

    /// Kinetic and potential energy of ball `i` at the time of the positions, J.
    fn ball_energy(&self, i: usize) -> Real {
        let b = &*self.balls;
        let half = 0.5 * self.last_dt;
        let v = b.vel[i] + acceleration(b, i, &self.gravity) * half;
        let w = b.spin[i] + angular_acceleration(b, i) * half;
        0.5 * b.mass[i] * v.norm_squared() + 0.5 * b.inertia[i] * w.norm_squared()
            - b.mass[i] * self.gravity.dot(&b.pos[i])
    }

    /// Removes every ball (not pebble) whose centre lies in an outlet's zone, with its
    /// contacts; true when one was.
    fn remove_in_outlets(&mut self) -> bool {
        if self.flow.outlets.is_empty() {
            return false;
        }
        let n = self.balls.len();
        let mut keep: Vec<bool> = Vec::new();
        // (exact sums: the same for any order of the balls)
        let mut taken = ExactSum::new();
        let mut mass = vec![ExactSum::new(); self.flow.outlets.len()];
        for i in 0..n {
            let b = &*self.balls;
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
            self.flow.outlets[o].count += 1;
            mass[o].add(b.mass[i]);
            taken.add(self.ball_energy(i));
        }
        if keep.is_empty() {
            return false;
        }
        // the strain energy of the contacts that go with the balls
        let b = &*self.balls;
        for (k, c) in self.contacts.list.iter().enumerate() {
            if c.active && !(keep[c.a as usize] && keep[c.b as usize]) {
                let g = self.contacts.geometry(k, b);
                taken.add(self.laws[c.law as usize].strain_energy(g.overlap, g.radius, &c.state));
            }
        }
        for c in &self.facet_contacts.list {
            if c.active && !keep[c.ball as usize] {
                let r = b.radius[c.ball as usize];
                taken.add(self.laws[c.law as usize].strain_energy(c.overlap, r, &c.state));
            }
        }
        self.flow.exchanged -= taken.value();
        for (out, m) in self.flow.outlets.iter_mut().zip(&mass) {
            out.mass += m.value();
        }
        let new_of = crate::storage::renumbered(&keep);
        for i in (0..n).filter(|&i| !keep[i]) {
            self.ids.remove(&self.balls.id[i]);
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
        let mut obstacles = Obstacles::new(&spec.zone, r_max, self.balls, self.walls);
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
            let i = (self.balls).add(&ball, self.materials, self.ids, false)?;
            obstacles.add_sphere(p, r);
            ins.placed_one(self.balls.mass[i]);
            self.flow.exchanged += self.ball_energy(i);
            any = true;
        }
        Ok(any)
    }
}
