//! Booking a cycle: what the step dissipated and what work was done, from the powers of the
//! cycle's forces ([`super::powers`]) and what the contacts reported losing; it reads the whole
//! model and writes the books and the contacts' reports (zeroed once booked).

use super::powers::{add_terms, powers, Sums};
use crate::comm::Share;
use crate::detect::Jump;
use crate::model::{EnergyBooks, Model};

/// Books the energy of the cycle just computed (called after each force pass while the
/// books are kept; `first`: the pass before the first cycle, which opens the accounts).
///
/// `share`: the balls this rank sums the terms of ([`Share::whole`] in one process); over
/// ranks, every rank calls it together (one exchange), each its ghosts' forces and moments
/// those of their owners, and every rank books the same bits.
pub fn book(model: &mut Model, first: bool, share: &Share) {
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
    // Lees-Edwards: the kinetic energy the bodies brought back through a face of the
    // gradient axis changed by their velocity jumps, work of the moving boundary (the jump
    // dv moved the velocity at the positions' time, now v, from v - dv)
    let jumps = std::mem::take(&mut model.jumps);
    // (and how many lengths up each ball went, for the contacts' boundary power: see
    // `powers::ball_contacts`)
    let mut went_up = Vec::new();
    if !jumps.is_empty() {
        went_up.resize(model.balls.len(), 0.0);
    }
    let jump = model.balls.cell.as_ref().map_or(0.0, |c| c.jump());
    for &j in &jumps {
        let (first, count, dv) = match j {
            Jump::Ball(i, dv) => (i as usize, 1, dv),
            Jump::Clump(c, dv) => {
                let cl = &model.clumps;
                (
                    cl.first[c as usize] as usize,
                    cl.count[c as usize] as usize,
                    dv,
                )
            }
        };
        let flow = model
            .balls
            .cell
            .as_ref()
            .and_then(|c| c.shear)
            .map_or(0, |s| s.flow);
        went_up[first..first + count].fill(dv[flow] / jump);
    }
    // this rank's terms: the boundary's jumps, the powers, what the contacts reported
    let mut sums = Sums::new(model.walls.len());
    for jump in jumps {
        let (m, v, dv) = match jump {
            Jump::Ball(i, dv) if share.own(i as usize) => {
                let i = i as usize;
                (model.balls.mass[i], model.synchronized_velocity(i), dv)
            }
            Jump::Clump(c, dv) if share.root() => {
                let c = c as usize;
                (model.clumps.mass[c], model.clump_velocity(c), dv)
            }
            _ => continue,
        };
        if !first {
            sums.jumped.add(m * (v.dot(&dv) - 0.5 * dv.norm_squared()));
        }
    }
    add_terms(model, &went_up, share, &mut sums);
    reported(model, first, share, &mut sums);
    sums.merge(share);
    books.walls += sums.jumped.value();
    // the first half step of this cycle's powers
    let p = powers(model, &mut books, &mut sums);
    books.dashpots += p.dashpots * 0.5 * dt - p.dashpots_accel * 0.25 * dt * dt;
    books.contacts += p.models * 0.5 * dt - p.models_accel * 0.25 * dt * dt;
    books.rolling += p.rolling * 0.5 * dt - p.rolling_accel * 0.25 * dt * dt;
    books.cohesion += p.cohesion * 0.5 * dt - p.cohesion_accel * 0.25 * dt * dt;
    // (one more exchange over ranks, when the books open or springs of rolling resistance or
    // cohesion hold energy; else both hold none)
    let holding = first || model.has_rolling() || model.has_cohesion();
    let e = if holding {
        model.energies(share)
    } else {
        crate::model::Energies::default()
    };
    books.rolling_held = e.rolling;
    books.cohesion_held = e.cohesion;
    books.walls += p.walls * 0.5 * dt;
    books.constraints += p.constraints * 0.5 * dt;
    books.integrator += dt * dt / 8.0 * (p.s - last.s);
    // pressure control: the remap's work over the step just made, at the strain rate it was
    // made with (the servo sets it before the step), by the trapezoidal rule
    let rate = (model.balls.cell.as_ref())
        .filter(|c| c.pressure.is_some() && !first)
        .map_or(0.0, |c| c.dilation);
    books.walls -= rate * 0.5 * dt * (last.remap + p.remap);
    books.pending = p;
    books.contacts += sums.lost.value();
    books.integrator += sums.integration.value();
    if first {
        books.initial = e.kinetic + e.strain + e.potential;
        // (what the rolling springs hold at the start is strain energy, not a loss)
        books.rolling = books.rolling_held;
        books.cohesion_start = books.cohesion_held;
    }
    model.books = Some(books);
}

/// Adds what this rank's contacts reported losing to `p` (exact sums: the same for any order)
/// and zeroes every report; the pass before the first cycle moved nothing, and its contacts
/// start from what they hold.
fn reported(model: &mut Model, first: bool, share: &Share, p: &mut Sums) {
    let keep = if first { 0.0 } else { 1.0 };
    let contacts = &mut model.contacts;
    for (w, c) in contacts.work.iter_mut().zip(&contacts.list) {
        if share.own(c.a as usize) {
            p.lost.add(keep * w[0]);
            p.integration.add(keep * w[1]);
        }
        *w = [0.0; 2];
    }
    for it in &mut model.facet_contacts.interactions {
        if share.own(it.ball as usize) {
            p.lost.add(keep * it.dissipated);
            p.integration.add(keep * it.integration);
        }
        it.dissipated = 0.0;
        it.integration = 0.0;
    }
}
