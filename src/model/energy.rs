//! The model's energies and motion at the time of the positions: kinetic, strain (springs,
//! rolling springs, cohesion), gravitational potential, the unbalanced-force ratio, and the
//! energy books' accounts ([`super::EnergyBooks`]).

use super::{EnergyBooks, Model};
use crate::body::dof;
use crate::comm::Share;
use crate::math::{ExactSum, Real, Vec3};

impl Model {
    /// Starts keeping energy books (before the run: the accounts open at the next
    /// [`Model::prime`]). The force passes then take the general loop and the one-contact
    /// wall path (the same numbers as the fast loops: tested) and report what the models lose.
    pub fn keep_energy_books(&mut self) {
        self.books = Some(EnergyBooks::default());
        self.primed = false;
    }

    /// The energy books, if kept.
    pub fn energy_books(&self) -> Option<&EnergyBooks> {
        self.books.as_ref()
    }

    /// `K + U + P + D - W` now less its value at the start, J (`energy/balance`; zero without
    /// books).
    pub fn energy_balance(&self) -> Real {
        let Some(b) = &self.books else { return 0.0 };
        self.kinetic_energy() + self.strain_energy() + self.potential_energy() + b.dissipated()
            - b.work()
            - self.flow.exchanged
            - b.initial
    }

    /// Acceleration of ball `i` at the current positions, m/s^2 (zero along fixed DOFs).
    pub fn acceleration(&self, i: usize) -> Vec3 {
        crate::motion::acceleration(&self.balls, i, &self.settings.gravity)
    }

    /// The reference point of the body that piece `i` belongs to, m: a ball's centre, a clump's
    /// centroid (measurements place a body by it; a pressure-controlled cell's remap carries
    /// the bodies by it).
    pub fn body_centre(&self, i: usize) -> Vec3 {
        let b = &self.balls;
        if b.is_pebble(i) {
            self.clumps.pos[b.clump[i] as usize]
        } else {
            b.pos[i]
        }
    }

    /// Velocity of ball `i` at the time of the positions, m/s: the stored velocity is half a
    /// step behind, so half a step of the current acceleration is added (velocity Verlet).
    pub fn synchronized_velocity(&self, i: usize) -> Vec3 {
        self.balls.vel[i] + self.acceleration(i) * (0.5 * self.last_dt)
    }

    /// Angular velocity of ball `i` at the time of the orientations, rad/s.
    pub fn synchronized_spin(&self, i: usize) -> Vec3 {
        self.balls.spin[i]
            + crate::motion::angular_acceleration(&self.balls, i) * (0.5 * self.last_dt)
    }

    /// Velocity of the centroid of clump `c` at the time of the positions, m/s.
    pub fn clump_velocity(&self, c: usize) -> Vec3 {
        self.clumps.vel[c]
            + self.clumps.acceleration(c, &self.settings.gravity) * (0.5 * self.last_dt)
    }

    /// Kinetic energy (translation and rotation) of balls and clumps at the time of the
    /// positions, J (a clump's rotation: `L·ω/2` with the real moments of inertia).
    pub fn kinetic_energy(&self) -> Real {
        self.kinetic_sum(&Share::whole()).value()
    }

    /// Elastic energy stored in the active contacts (ball-ball and ball-facet), J.
    pub fn strain_energy(&self) -> Real {
        let whole = Share::whole();
        let mut sum = self.strain_sum(&whole);
        sum.add(self.rolling_sum(&whole).value());
        sum.add(self.cohesion_sum(&whole).value());
        sum.value()
    }

    /// The potential energy of the cohesive forces of the active contacts, J (<= 0; 0 without
    /// cohesion): part of the strain energy.
    pub fn cohesion_energy(&self) -> Real {
        self.cohesion_sum(&Share::whole()).value()
    }

    /// Elastic energy held by the springs of rolling and twisting resistance, J (0 without
    /// one): each active contact's `|M|^2 / (2 k)` at its current stiffnesses.
    pub fn rolling_energy(&self) -> Real {
        self.rolling_sum(&Share::whole()).value()
    }

    /// Gravitational potential energy -m g . x, J (zero at the origin).
    pub fn potential_energy(&self) -> Real {
        self.potential_sum(&Share::whole()).value()
    }

    /// The energies of a model cut over ranks, summed over every rank's own bodies and
    /// contacts (one exchange; every rank calls it together): the same bits as
    /// [`Model::kinetic_energy`] and the others give in one process.
    pub fn energies(&self, share: &Share) -> Energies {
        let mut sums = [
            self.kinetic_sum(share),
            self.strain_sum(share),
            self.potential_sum(share),
            self.rolling_sum(share),
            self.cohesion_sum(share),
        ];
        share.merge(&mut sums);
        let [kinetic, mut strain, potential, rolling, cohesion] = sums;
        let (rolling, cohesion) = (rolling.value(), cohesion.value());
        strain.add(rolling);
        strain.add(cohesion);
        Energies {
            kinetic: kinetic.value(),
            strain: strain.value(),
            potential: potential.value(),
            rolling,
            cohesion,
        }
    }

    /// [`Model::kinetic_energy`] over the balls of `share` (and every clump).
    fn kinetic_sum(&self, share: &Share) -> ExactSum {
        let mut sum = ExactSum::new();
        for i in (0..self.balls.len()).filter(|&i| share.own(i)) {
            let v = self.synchronized_velocity(i);
            let w = self.synchronized_spin(i);
            sum.add(
                0.5 * self.balls.mass[i] * v.norm_squared()
                    + 0.5 * self.balls.inertia[i] * w.norm_squared(),
            );
        }
        let cl = &self.clumps;
        for c in (0..cl.len()).filter(|_| share.root()) {
            let v = self.clump_velocity(c);
            let w = cl.synchronized_spin(c, self.last_dt);
            sum.add(0.5 * cl.mass[c] * v.norm_squared() + 0.5 * w.dot(&(cl.inertia(c) * w)));
        }
        sum
    }

    /// The springs' part of [`Model::strain_energy`] over the contacts of the balls of
    /// `share` (a ball-ball contact by its first ball).
    fn strain_sum(&self, share: &Share) -> ExactSum {
        let contacts = &self.contacts;
        let mut sum = ExactSum::new();
        for (k, c) in (contacts.list.iter().enumerate()).filter(|(_, c)| c.active) {
            if share.own(c.a as usize) {
                let g = contacts.geometry(k, &self.balls);
                sum.add(self.laws[c.law as usize].strain_energy(g.overlap, g.radius, &c.state));
            }
        }
        let balls_r = &self.balls.radius;
        for c in
            (self.facet_contacts.list.iter()).filter(|c| c.active && share.own(c.ball as usize))
        {
            sum.add(self.laws[c.law as usize].strain_energy(
                c.overlap,
                balls_r[c.ball as usize],
                &c.state,
            ));
        }
        sum
    }

    /// [`Model::cohesion_energy`] over the contacts of the balls of `share`.
    fn cohesion_sum(&self, share: &Share) -> ExactSum {
        let mut sum = ExactSum::new();
        if !self.has_cohesion() {
            return sum;
        }
        use crate::law::Pieces;
        let of = |law: u16| self.cohesion.get(law as usize).copied().flatten();
        let b = &self.balls;
        for c in (self.contacts.list.iter()).filter(|c| c.active && share.own(c.a as usize)) {
            if let Some(coh) = of(c.law) {
                let (i, j) = (c.a as usize, c.b as usize);
                let overlap = b.radius[i] + b.radius[j] - (b.partner(i, j) - b.pos[i]).norm();
                sum.add(coh.energy(Pieces::Spheres(b.radius[i], b.radius[j]), overlap));
            }
        }
        for c in
            (self.facet_contacts.list.iter()).filter(|c| c.active && share.own(c.ball as usize))
        {
            if let Some(coh) = of(c.law) {
                sum.add(coh.energy(Pieces::Wall(b.radius[c.ball as usize]), c.overlap));
            }
        }
        sum
    }

    /// [`Model::rolling_energy`] over the contacts of the balls of `share`.
    fn rolling_sum(&self, share: &Share) -> ExactSum {
        let mut sum = ExactSum::new();
        if !self.has_rolling() {
            return sum;
        }
        let held = |law: u16, overlap: Real, radius: Real, spring: Option<&Vec3>| match (
            self.rolling[law as usize],
            spring,
        ) {
            (Some(r), Some(m)) => {
                let s = self.laws[law as usize].stiffness(overlap.max(0.0), radius);
                r.energy(m, s.kn, s.ks, radius)
            }
            _ => 0.0,
        };
        let contacts = &self.contacts;
        for (k, c) in (contacts.list.iter().enumerate()).filter(|(_, c)| c.active) {
            if share.own(c.a as usize) {
                let g = contacts.geometry(k, &self.balls);
                sum.add(held(c.law, g.overlap, g.radius, contacts.roll.get(k)));
            }
        }
        let fc = &self.facet_contacts;
        for (k, c) in (fc.list.iter().enumerate()).filter(|(_, c)| c.active) {
            if share.own(c.ball as usize) {
                let r = self.balls.radius[c.ball as usize];
                sum.add(held(c.law, c.overlap, r, fc.roll.get(k)));
            }
        }
        sum
    }

    /// [`Model::potential_energy`] over the balls of `share` (the clumps and the periodic
    /// cell's wrapped mass on the first rank).
    fn potential_sum(&self, share: &Share) -> ExactSum {
        let g = self.settings.gravity;
        let cl = &self.clumps;
        let mut sum = ExactSum::new();
        for i in (0..self.balls.len()).filter(|&i| share.own(i)) {
            sum.add(-self.balls.mass[i] * g.dot(&self.balls.pos[i]));
        }
        if share.root() {
            for c in 0..cl.len() {
                sum.add(-cl.mass[c] * g.dot(&cl.pos[c]));
            }
            if self.balls.cell.is_some() {
                sum.add(g.dot(&self.wrapped));
            }
        }
        sum
    }

    /// The solve ratio: the mean magnitude of the unbalanced force (contact + gravity + applied,
    /// along free DOFs) over the balls with a free translation, divided by the mean magnitude
    /// of the contact force over active contacts (infinite without active contacts). It tends
    /// to zero as the model reaches static equilibrium and does not depend on the masses, so
    /// it means the same with and without timestep scaling.
    pub fn unbalanced_ratio(&self) -> Real {
        let b = &self.balls;
        let (mut sum, mut n) = (ExactSum::new(), 0usize);
        for i in 0..b.len() {
            if b.fixed[i] & dof::TRANSLATION == dof::TRANSLATION {
                continue;
            }
            let mut f = b.force[i] + self.settings.gravity * b.mass[i] + b.applied_force[i];
            for k in 0..3 {
                if b.fixed[i] & (1 << k) != 0 {
                    f[k] = 0.0;
                }
            }
            sum.add(f.norm());
            n += 1;
        }
        let cl = &self.clumps;
        for c in 0..cl.len() {
            if cl.fixed[c] & dof::TRANSLATION == dof::TRANSLATION {
                continue;
            }
            let a = cl.acceleration(c, &self.settings.gravity);
            sum.add((a * cl.inertial_mass[c]).norm());
            n += 1;
        }
        let (mut fc, mut m) = (ExactSum::new(), 0usize);
        for (k, c) in self.contacts.list.iter().enumerate() {
            if c.active {
                fc.add(
                    self.contacts
                        .contact_force(k, &self.balls, &self.laws)
                        .norm(),
                );
                m += 1;
            }
        }
        for c in self.facet_contacts.list.iter().filter(|c| c.active) {
            fc.add(c.force.norm());
            m += 1;
        }
        let (sum, fc) = (sum.value(), fc.value());
        if n == 0 {
            return 0.0;
        }
        if m == 0 || fc == 0.0 {
            return Real::INFINITY;
        }
        (sum / n as Real) / (fc / m as Real)
    }
}

/// The energies of a model, J ([`Model::energies`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Energies {
    /// [`Model::kinetic_energy`].
    pub kinetic: Real,
    /// [`Model::strain_energy`].
    pub strain: Real,
    /// [`Model::potential_energy`].
    pub potential: Real,
    /// [`Model::rolling_energy`].
    pub rolling: Real,
    /// [`Model::cohesion_energy`].
    pub cohesion: Real,
}
