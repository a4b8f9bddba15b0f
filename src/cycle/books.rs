//! The energy books on the model: opened by [`Model::keep_energy_books`], written after each
//! cycle (what the step dissipated and what work was done), read as the balance
//! ([`crate::model::EnergyBooks`] says what each account holds and why it closes).

use crate::law::Pieces;
use crate::math::{Real, Vec3};
use crate::model::books::Powers;
use crate::model::{EnergyBooks, Model};

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
        books.rolling += last.rolling * 0.5 * dt + last.rolling_accel * 0.25 * dt * dt;
        books.cohesion += last.cohesion * 0.5 * dt + last.cohesion_accel * 0.25 * dt * dt;
        books.walls += last.walls * 0.5 * dt;
        books.constraints += last.constraints * 0.5 * dt;
        // programmed walls: the loads of the last cycle over this step's motion
        // (summed aside: the loads stay in place, their buffer kept from cycle to cycle)
        let mut second_half = 0.0;
        for (w, (f, m)) in books.wall_loads.iter().enumerate() {
            let (v, s) = self.walls[w].rigid_velocity();
            second_half += (f.dot(&v) + m.dot(&s)) * 0.5 * dt;
        }
        books.walls += second_half;
        let mut second_half = 0.0;
        for (w, m) in books.wall_couples.iter().enumerate() {
            second_half += m.dot(&self.walls[w].rigid_velocity().1) * 0.5 * dt;
        }
        books.rolling += second_half;
        let mut second_half = 0.0;
        for (w, (f, m)) in books.wall_cohesion.iter().enumerate() {
            let (v, s) = self.walls[w].rigid_velocity();
            second_half += (f.dot(&v) + m.dot(&s)) * 0.5 * dt;
        }
        books.cohesion += second_half;
        // the first half step of this cycle's powers
        let p = self.powers(&mut books);
        books.dashpots += p.dashpots * 0.5 * dt - p.dashpots_accel * 0.25 * dt * dt;
        books.contacts += p.models * 0.5 * dt - p.models_accel * 0.25 * dt * dt;
        books.rolling += p.rolling * 0.5 * dt - p.rolling_accel * 0.25 * dt * dt;
        books.cohesion += p.cohesion * 0.5 * dt - p.cohesion_accel * 0.25 * dt * dt;
        books.rolling_held = self.rolling_energy();
        books.cohesion_held = self.cohesion_energy();
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
            // (what the rolling springs hold at the start is strain energy, not a loss)
            books.rolling = books.rolling_held;
            books.cohesion_start = books.cohesion_held;
        }
        self.books = Some(books);
    }

    /// The powers of the forces of the current cycle (module documentation); books the
    /// applied forces' work over the last step at once (a constant force's trapezoidal work is
    /// its work, exactly).
    fn powers(&self, books: &mut EnergyBooks) -> Powers {
        let mut p = Powers::default();
        books.wall_loads.clear();
        books
            .wall_loads
            .resize(self.walls.len(), Default::default());
        books.wall_couples.clear();
        books
            .wall_couples
            .resize(self.walls.len(), Default::default());
        books.wall_cohesion.clear();
        books
            .wall_cohesion
            .resize(self.walls.len(), Default::default());
        let b = &self.balls;
        let g = self.settings.gravity;
        let cohesion = |law: u16| self.cohesion.get(law as usize).copied().flatten();
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
            let force = contacts.contact_force(k, b, &self.laws);
            let spring = if law.frame_free() {
                law.elastic_shear(geo.overlap, geo.radius, &c.state)
            } else if self.planar {
                let n = geo.normal;
                Vec3::new(-n.y, n.x, 0.0) * c.state.shear_force().y
            } else {
                contacts.frames[k].to_world(&c.state.shear_force())
            };
            let normal = law.elastic_normal(geo.overlap, geo.radius, &c.state);
            // the attraction of a cohesive contact on b (its own account)
            let pieces = Pieces::Spheres(b.radius[c.a as usize], b.radius[c.b as usize]);
            let f_c = -geo.normal * cohesion(c.law).map_or(0.0, |x| x.force(pieces, geo.overlap));
            let f_d = force - (geo.normal * normal + spring) - f_c;
            let (va, aa) = motion(c.a as usize, &geo.point);
            let (vb, ab) = motion(c.b as usize, &geo.point);
            p.dashpots -= f_d.dot(&(vb - va));
            p.dashpots_accel -= f_d.dot(&(ab - aa));
            p.cohesion -= f_c.dot(&(vb - va));
            p.cohesion_accel -= f_c.dot(&(ab - aa));
        }
        // angular velocity and acceleration of piece `i`
        let turning = |i: usize| -> (Vec3, Vec3) {
            if b.is_pebble(i) {
                let c = b.clump[i] as usize;
                let cl = &self.clumps;
                let alpha = if cl.rotation_fixed(c) {
                    Vec3::zeros()
                } else {
                    cl.inverse_inertia(c) * cl.moment[c]
                };
                (cl.synchronized_spin(c, dt), alpha)
            } else {
                (
                    self.synchronized_spin(i),
                    crate::motion::angular_acceleration(b, i),
                )
            }
        };
        // ball-ball couples of rolling resistance (on b; a takes the opposite)
        for (k, c) in (contacts.list.iter().enumerate()).filter(|(k, c)| {
            c.active && contacts.couple.get(*k).is_some_and(|m| *m != Vec3::zeros())
        }) {
            let m = contacts.couple[k];
            let (wa, aa) = turning(c.a as usize);
            let (wb, ab) = turning(c.b as usize);
            p.rolling -= m.dot(&(wb - wa));
            p.rolling_accel -= m.dot(&(ab - aa));
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
                fc.frames[k].to_world(&c.state.shear_force())
            };
            let normal = -c.normal * law.elastic_normal(c.overlap, r, &c.state);
            // the attraction of a cohesive contact on the ball, towards the wall: its own
            // account, the ball's share with its velocity, the wall's as the wall's work
            let f_c =
                c.normal * cohesion(c.law).map_or(0.0, |x| x.force(Pieces::Wall(r), c.overlap));
            let f_d = c.force - (normal + spring) - f_c;
            let (v, a) = motion(i, &c.point);
            let wall = &self.walls[c.wall as usize];
            let v_wall = wall.velocity_at(c.facet as usize, &c.point);
            if f_c != Vec3::zeros() {
                p.cohesion -= f_c.dot(&v);
                p.cohesion_accel -= f_c.dot(&a);
                if wall.program.is_some() {
                    let load = &mut books.wall_cohesion[c.wall as usize];
                    load.0 += f_c;
                    load.1 += (c.point - wall.pivot).cross(&f_c);
                } else {
                    p.cohesion += f_c.dot(&v_wall);
                }
            }
            let (v_now, a_now) = wall.motion_at(c.facet as usize, &c.point, self.time);
            p.dashpots -= f_d.dot(&(v - v_now));
            p.dashpots_accel -= f_d.dot(&(a - a_now));
            if c.pc == c.facet {
                // a proximity contact's normal force (see `ball_facet::update_force`)
                p.models -= normal.dot(&(v - v_now));
                p.models_accel -= normal.dot(&(a - a_now));
            }
            let w = c.wall as usize;
            let couple = fc.couple_of(k);
            if couple != Vec3::zeros() {
                // the couple on the ball; the wall, turning at its spin, takes the opposite (a
                // programmed wall's share is booked with each step's spin, as its work is)
                let (wb, ab) = turning(i);
                p.rolling -= couple.dot(&wb);
                p.rolling_accel -= couple.dot(&ab);
                if wall.program.is_some() {
                    books.wall_couples[c.wall as usize] += couple;
                } else {
                    p.rolling += couple.dot(&wall.spin());
                }
            }
            if self.walls[w].program.is_some() {
                let pivot = self.walls[w].pivot;
                let load = &mut books.wall_loads[w];
                load.0 += c.force;
                load.1 += (c.point - pivot).cross(&c.force) + couple;
            } else {
                p.walls += c.force.dot(&v_wall) + couple.dot(&wall.spin());
            }
        }
        // (programmed walls: the first half step at once, with this step's velocity; the
        // second with the next step's, at the next cycle)
        for (w, (f, m)) in books.wall_loads.iter().enumerate() {
            let (v, s) = self.walls[w].rigid_velocity();
            books.walls += (f.dot(&v) + m.dot(&s)) * 0.5 * dt;
        }
        for (w, m) in books.wall_couples.iter().enumerate() {
            books.rolling += m.dot(&self.walls[w].rigid_velocity().1) * 0.5 * dt;
        }
        for (w, (f, m)) in books.wall_cohesion.iter().enumerate() {
            let (v, s) = self.walls[w].rigid_velocity();
            books.cohesion += (f.dot(&v) + m.dot(&s)) * 0.5 * dt;
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
