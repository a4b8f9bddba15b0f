//! Booking a cycle: what the step dissipated and what work was done, from the powers of the
//! cycle's forces ([`super::powers`]) and what the contacts reported losing; it reads the whole
//! model and writes the books and the contacts' reports (zeroed once booked).

use super::powers::powers;
use crate::model::{EnergyBooks, Model};

/// Books the energy of the cycle just computed (called after each force pass while the
/// books are kept; `first`: the pass before the first cycle, which opens the accounts).
pub fn book(model: &mut Model, first: bool) {
    let Some(mut books) = model.books.take() else {
        return;
    };
    if first {
        books = EnergyBooks::default();
    }
    let dt = model.last_dt;
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
        let (v, s) = model.walls[w].rigid_velocity();
        second_half += (f.dot(&v) + m.dot(&s)) * 0.5 * dt;
    }
    books.walls += second_half;
    let mut second_half = 0.0;
    for (w, m) in books.wall_couples.iter().enumerate() {
        second_half += m.dot(&model.walls[w].rigid_velocity().1) * 0.5 * dt;
    }
    books.rolling += second_half;
    let mut second_half = 0.0;
    for (w, (f, m)) in books.wall_cohesion.iter().enumerate() {
        let (v, s) = model.walls[w].rigid_velocity();
        second_half += (f.dot(&v) + m.dot(&s)) * 0.5 * dt;
    }
    books.cohesion += second_half;
    // the first half step of this cycle's powers
    let p = powers(model, &mut books);
    books.dashpots += p.dashpots * 0.5 * dt - p.dashpots_accel * 0.25 * dt * dt;
    books.contacts += p.models * 0.5 * dt - p.models_accel * 0.25 * dt * dt;
    books.rolling += p.rolling * 0.5 * dt - p.rolling_accel * 0.25 * dt * dt;
    books.cohesion += p.cohesion * 0.5 * dt - p.cohesion_accel * 0.25 * dt * dt;
    books.rolling_held = model.rolling_energy();
    books.cohesion_held = model.cohesion_energy();
    books.walls += p.walls * 0.5 * dt;
    books.constraints += p.constraints * 0.5 * dt;
    books.integrator += dt * dt / 8.0 * (p.s - last.s);
    books.pending = p;
    // what the contacts reported, in list order (the same sums for any threads); the pass
    // before the first cycle moved nothing, and its contacts start from what they hold
    let keep = if first { 0.0 } else { 1.0 };
    for w in &mut model.contacts.work {
        books.contacts += keep * w[0];
        books.integrator += keep * w[1];
        *w = [0.0; 2];
    }
    for it in &mut model.facet_contacts.interactions {
        books.contacts += keep * it.dissipated;
        books.integrator += keep * it.integration;
        it.dissipated = 0.0;
        it.integration = 0.0;
    }
    if first {
        books.initial = model.kinetic_energy() + model.strain_energy() + model.potential_energy();
        // (what the rolling springs hold at the start is strain energy, not a loss)
        books.rolling = books.rolling_held;
        books.cohesion_start = books.cohesion_held;
    }
    model.books = Some(books);
}
