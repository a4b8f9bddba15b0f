//! The model's energies and motion at the time of the positions: kinetic, strain (springs,
//! rolling springs, cohesion), gravitational potential, the unbalanced-force ratio, and the
//! energy books' accounts ([`super::EnergyBooks`]).

use super::{EnergyBooks, Model};
use crate::body::dof;
use crate::math::{exact_sum, ExactSum, Real, Vec3};

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
        let balls = (0..self.balls.len()).map(|i| {
            let v = self.synchronized_velocity(i);
            let w = self.synchronized_spin(i);
            0.5 * self.balls.mass[i] * v.norm_squared()
                + 0.5 * self.balls.inertia[i] * w.norm_squared()
        });
        let cl = &self.clumps;
        let clumps = (0..cl.len()).map(|c| {
            let v = self.clump_velocity(c);
            let w = cl.synchronized_spin(c, self.last_dt);
            0.5 * cl.mass[c] * v.norm_squared() + 0.5 * w.dot(&(cl.inertia(c) * w))
        });
        exact_sum(balls.chain(clumps))
    }

    /// Elastic energy stored in the active contacts (ball-ball and ball-facet), J.
    pub fn strain_energy(&self) -> Real {
        let contacts = &self.contacts;
        let balls = (contacts.list.iter().enumerate())
            .filter(|(_, c)| c.active)
            .map(|(k, c)| {
                let g = contacts.geometry(k, &self.balls);
                self.laws[c.law as usize].strain_energy(g.overlap, g.radius, &c.state)
            });
        let balls_r = &self.balls.radius;
        let walls = self
            .facet_contacts
            .list
            .iter()
            .filter(|c| c.active)
            .map(|c| {
                self.laws[c.law as usize].strain_energy(
                    c.overlap,
                    balls_r[c.ball as usize],
                    &c.state,
                )
            });
        exact_sum(
            balls
                .chain(walls)
                .chain([self.rolling_energy(), self.cohesion_energy()]),
        )
    }

    /// The potential energy of the cohesive forces of the active contacts, J (<= 0; 0 without
    /// cohesion): part of the strain energy.
    pub fn cohesion_energy(&self) -> Real {
        if !self.has_cohesion() {
            return 0.0;
        }
        use crate::law::Pieces;
        let of = |law: u16| self.cohesion.get(law as usize).copied().flatten();
        let b = &self.balls;
        let balls = (self.contacts.list.iter().filter(|c| c.active)).map(|c| {
            of(c.law).map_or(0.0, |coh| {
                let (i, j) = (c.a as usize, c.b as usize);
                let overlap = b.radius[i] + b.radius[j] - (b.partner(i, j) - b.pos[i]).norm();
                coh.energy(Pieces::Spheres(b.radius[i], b.radius[j]), overlap)
            })
        });
        let walls = (self.facet_contacts.list.iter().filter(|c| c.active)).map(|c| {
            of(c.law).map_or(0.0, |coh| {
                coh.energy(Pieces::Wall(b.radius[c.ball as usize]), c.overlap)
            })
        });
        exact_sum(balls.chain(walls))
    }

    /// Elastic energy held by the springs of rolling and twisting resistance, J (0 without
    /// one): each active contact's `|M|^2 / (2 k)` at its current stiffnesses.
    pub fn rolling_energy(&self) -> Real {
        if !self.has_rolling() {
            return 0.0;
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
        let balls = (contacts.list.iter().enumerate())
            .filter(|(_, c)| c.active)
            .map(|(k, c)| {
                let g = contacts.geometry(k, &self.balls);
                held(c.law, g.overlap, g.radius, contacts.roll.get(k))
            });
        let fc = &self.facet_contacts;
        let walls = (fc.list.iter().enumerate())
            .filter(|(_, c)| c.active)
            .map(|(k, c)| {
                held(
                    c.law,
                    c.overlap,
                    self.balls.radius[c.ball as usize],
                    fc.roll.get(k),
                )
            });
        exact_sum(balls.chain(walls))
    }

    /// Gravitational potential energy -m g . x, J (zero at the origin).
    pub fn potential_energy(&self) -> Real {
        let g = self.settings.gravity;
        let cl = &self.clumps;
        exact_sum(
            (0..self.balls.len())
                .map(|i| -self.balls.mass[i] * g.dot(&self.balls.pos[i]))
                .chain((0..cl.len()).map(|c| -cl.mass[c] * g.dot(&cl.pos[c])))
                .chain(self.balls.cell.is_some().then(|| g.dot(&self.wrapped))),
        )
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
