//! Energy books: where the energy of a run went, cycle by cycle.
//!
//! Five accounts (SPEC 5.1), each from its own definition, so that their sum, the balance,
//! proves the run:
//! - kinetic `K` and strain `U` ([`Model::kinetic_energy`], [`Model::strain_energy`]) and the
//!   gravitational potential `P = -sum m g . x` ([`Model::potential_energy`]): state functions;
//! - dissipated `D`: what the dashpots removed (their forces: the applied contact force less its
//!   elastic part, [`crate::law::ContactModel::elastic_normal`] and
//!   [`crate::law::ContactModel::elastic_shear`], times the relative velocity at the contact
//!   point), plus what the contact models report lost (slip of the tangential springs, the
//!   hysteretic model's hysteresis, broken bonds, springs released with their state:
//!   [`crate::law::ContactForce::dissipated`]);
//! - work `W`: done on the bodies by moving walls (the contact force on the ball times the
//!   wall's velocity at the contact point), by applied forces, and by the constraints that hold
//!   a fixed degree of freedom at its prescribed velocity (minus the other forces along it).
//!
//! The balance `K + U + P + D - W` less its value at the start is zero in exact arithmetic and
//! exact time integration. Velocity Verlet turns the forces `F_n` of the cycles into kinetic
//! energy by the trapezoidal rule over each step, `(F_n + F_(n+1))/2 . (x_(n+1) - x_n)`, plus a
//! term of its own: with the velocity `u_n` at the time of the positions (what `K` uses),
//! `K(u_(n+1)) - K(u_n)` is that work plus `dt^2/8 (S_(n+1) - S_n)`, `S = sum |F|^2/m + |M|^2/I`
//! over the free degrees of freedom (exactly, for a constant step; the books keep the sum of
//! these terms, [`EnergyBooks::integrator`], for a varying one). So every account that is a
//! power (dashpots, walls, constraints) is booked by the same trapezoidal rule: the power `p_n`
//! of the cycle's forces at the velocities `u_n`, and the term `a_n` of the forces times the
//! accelerations, give each force's work over the two half steps around its cycle,
//! `p_n (dt_n + dt_(n+1))/2 + a_n (dt_(n+1)^2 - dt_n^2)/4` (the second half booked once the
//! next step is known); the models report their springs' losses by the same rule
//! ([`crate::law::elastic_loss`]). A linear spring's energy then changes by exactly the
//! trapezoidal work done on it, and the balance of a run of linear contacts is the integrator's
//! term alone, to round-off; a Hertz spring adds the error of the trapezoidal rule on
//! `d^(3/2)`, which shrinks as `dt^2`.

use super::Model;
use crate::math::{Real, Vec3};

/// The running accounts of a model's energy (SPEC 5.1), kept when asked for
/// ([`Model::keep_energy_books`]).
#[derive(Clone, Debug, Default)]
pub struct EnergyBooks {
    /// Energy removed by the dashpots since the start, J.
    pub dashpots: Real,
    /// Energy the contact models lost since the start (slip, hysteresis, breakage, released
    /// springs), J.
    pub contacts: Real,
    /// Work done on the balls by moving walls since the start, J.
    pub walls: Real,
    /// Work done on the bodies by applied forces since the start, J.
    pub applied: Real,
    /// Work done on the bodies by the constraints of fixed degrees of freedom since the
    /// start, J.
    pub constraints: Real,
    /// The integration error the books can measure, J: the leapfrog integrator's own term,
    /// `sum dt^2/8 (S_n - S_(n-1))` (module documentation), and what the trapezoidal rule
    /// misses of the normal springs' energy ([`crate::law::ContactModel::normal_loss`]: a
    /// contact's force switches on or off within the step of its first and last cycle; Hertz's
    /// force is curved). The balance less this is what the books cannot explain.
    pub integrator: Real,
    /// `K + U + P` at the start, J.
    pub initial: Real,
    /// The powers of the last cycle whose second half step is still to be booked.
    pending: Powers,
}

impl EnergyBooks {
    /// Energy dissipated since the start, J (`energy/dissipated`).
    pub fn dissipated(&self) -> Real {
        self.dashpots + self.contacts
    }

    /// Work done on the bodies since the start, J (`energy/work`).
    pub fn work(&self) -> Real {
        self.walls + self.applied + self.constraints
    }
}

/// The powers of one cycle's forces at the velocities of the time of the positions.
#[derive(Clone, Copy, Debug, Default)]
struct Powers {
    /// Power the dashpots dissipate, W.
    dashpots: Real,
    /// Minus the dashpot forces times the relative accelerations at their contact points, W/s.
    dashpots_accel: Real,
    /// Power the contact models dissipate through forces that are not the gradient of their
    /// energy (a proximity contact's normal force), W, and its acceleration term.
    models: Real,
    /// Minus those forces times the relative accelerations at their contact points, W/s.
    models_accel: Real,
    /// Power of the walls on the balls, W (a wall's velocity does not change in a cycle: no
    /// acceleration term).
    walls: Real,
    /// Power of the constraints on the bodies, W (a fixed degree of freedom does not
    /// accelerate).
    constraints: Real,
    /// `sum |F|^2/m + |M|^2/I` over the free degrees of freedom.
    s: Real,
}

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
            - b.initial
    }

    /// Books the energy of the cycle just computed (called after each force pass while the
    /// books are kept; `first`: the pass before the first cycle, which opens the accounts).
    pub(crate) fn book_energy(&mut self, first: bool) {
        let Some(mut books) = self.books.take() else {
            return;
        };
        if first {
            books = EnergyBooks::default();
        }
        let dt = self.last_dt;
        // the second half step of the previous cycle's powers, now that its step is known
        let last = books.pending;
        books.dashpots += last.dashpots * 0.5 * dt + last.dashpots_accel * 0.25 * dt * dt;
        books.contacts += last.models * 0.5 * dt + last.models_accel * 0.25 * dt * dt;
        books.walls += last.walls * 0.5 * dt;
        books.constraints += last.constraints * 0.5 * dt;
        // the first half step of this cycle's powers
        let p = self.powers(&mut books);
        books.dashpots += p.dashpots * 0.5 * dt - p.dashpots_accel * 0.25 * dt * dt;
        books.contacts += p.models * 0.5 * dt - p.models_accel * 0.25 * dt * dt;
        books.walls += p.walls * 0.5 * dt;
        books.constraints += p.constraints * 0.5 * dt;
        books.integrator += dt * dt / 8.0 * (p.s - last.s);
        books.pending = p;
        // what the contacts reported, in list order (the same sums for any threads); the pass
        // before the first cycle moved nothing, and its contacts start from what they hold
        let keep = if first { 0.0 } else { 1.0 };
        for w in &mut self.contacts.work {
            books.contacts += keep * w[0];
            books.integrator += keep * w[1];
            *w = [0.0; 2];
        }
        for it in &mut self.facet_contacts.interactions {
            books.contacts += keep * it.dissipated;
            books.integrator += keep * it.integration;
            it.dissipated = 0.0;
            it.integration = 0.0;
        }
        if first {
            books.initial = self.kinetic_energy() + self.strain_energy() + self.potential_energy();
        }
        self.books = Some(books);
    }

    /// The powers of the forces of the current cycle (module documentation); books the
    /// applied forces' work over the last step at once (a constant force's trapezoidal work is
    /// its work, exactly).
    fn powers(&self, books: &mut EnergyBooks) -> Powers {
        let mut p = Powers::default();
        let b = &self.balls;
        let g = self.settings.gravity;
        let dt = self.last_dt;
        // material velocity and acceleration of piece `i` at the point `x`
        let motion = |i: usize, x: &Vec3| -> (Vec3, Vec3) {
            if b.is_pebble(i) {
                let c = b.clump[i] as usize;
                let cl = &self.clumps;
                let r = x - cl.pos[c];
                let w = cl.synchronized_spin(c, dt);
                let alpha = if cl.rotation_fixed(c) {
                    Vec3::zeros()
                } else {
                    cl.inverse_inertia(c) * cl.moment[c]
                };
                let a = cl.acceleration(c, &g);
                (self.clump_velocity(c) + w.cross(&r), a + alpha.cross(&r))
            } else {
                let r = x - b.pos[i];
                let alpha = crate::motion::angular_acceleration(b, i);
                (
                    self.synchronized_velocity(i) + self.synchronized_spin(i).cross(&r),
                    self.acceleration(i) + alpha.cross(&r),
                )
            }
        };
        // ball-ball contacts: the dashpots' share of the applied force
        let contacts = &self.contacts;
        for (k, c) in contacts.list.iter().enumerate().filter(|(_, c)| c.active) {
            let law = &self.laws[c.law as usize];
            let geo = contacts.geometry(k, b);
            let force = contacts.force(k, b, &self.laws);
            let spring = if law.frame_free() {
                law.elastic_shear(geo.overlap, geo.radius, &c.state)
            } else if self.planar {
                let n = geo.normal;
                Vec3::new(-n.y, n.x, 0.0) * c.state.shear.y
            } else {
                contacts.frames[k].to_world(&c.state.shear)
            };
            let normal = law.elastic_normal(geo.overlap, geo.radius, &c.state);
            let f_d = force - (geo.normal * normal + spring);
            let (va, aa) = motion(c.a as usize, &geo.point);
            let (vb, ab) = motion(c.b as usize, &geo.point);
            p.dashpots -= f_d.dot(&(vb - va));
            p.dashpots_accel -= f_d.dot(&(ab - aa));
        }
        // ball-facet contacts: the dashpots' share, and the walls' power
        let fc = &self.facet_contacts;
        for (k, c) in fc.list.iter().enumerate().filter(|(_, c)| c.active) {
            let law = &self.laws[c.law as usize];
            let i = c.ball as usize;
            let r = b.radius[i];
            let spring = if law.frame_free() {
                law.elastic_shear(c.overlap, r, &c.state)
            } else {
                fc.frames[k].to_world(&c.state.shear)
            };
            let normal = -c.normal * law.elastic_normal(c.overlap, r, &c.state);
            let f_d = c.force - (normal + spring);
            let (v, a) = motion(i, &c.point);
            let v_wall = self.walls[c.wall as usize].velocity_at(c.facet as usize, &c.point);
            p.dashpots -= f_d.dot(&(v - v_wall));
            p.dashpots_accel -= f_d.dot(&a);
            if c.pc == c.facet {
                // a proximity contact's normal force (see `ball_facet::update_force`)
                p.models -= normal.dot(&(v - v_wall));
                p.models_accel -= normal.dot(&a);
            }
            p.walls += c.force.dot(&v_wall);
        }
        // the bodies: the integrator's sum, the constraints' power, the applied forces' work
        for i in 0..b.len() {
            if b.is_pebble(i) {
                continue;
            }
            let fixed = b.fixed[i];
            let f = b.force[i] + g * b.mass[i];
            for k in 0..3 {
                if fixed & (1 << k) == 0 {
                    let total = f[k] + b.applied_force[i][k];
                    p.s += total * total / b.inertial_mass[i];
                    books.applied += b.applied_force[i][k] * b.vel[i][k] * dt;
                } else {
                    p.constraints -= f[k] * b.vel[i][k];
                }
                if fixed & (8 << k) == 0 {
                    p.s += b.moment[i][k] * b.moment[i][k] / b.inertial_inertia[i];
                } else {
                    p.constraints -= b.moment[i][k] * b.spin[i][k];
                }
            }
        }
        let cl = &self.clumps;
        for c in 0..cl.len() {
            let f = cl.force[c] + g * cl.mass[c];
            for k in 0..3 {
                if cl.fixed[c] & (1 << k) == 0 {
                    let total = f[k] + cl.applied_force[c][k];
                    p.s += total * total / cl.inertial_mass[c];
                    books.applied += cl.applied_force[c][k] * cl.vel[c][k] * dt;
                } else {
                    p.constraints -= f[k] * cl.vel[c][k];
                }
            }
            if cl.rotation_fixed(c) {
                p.constraints -= cl.moment[c].dot(&cl.spin[c]);
            } else {
                p.s += cl.moment[c].dot(&(cl.inverse_inertia(c) * cl.moment[c]));
            }
        }
        p
    }
}
