//! The history models' ball-facet contacts eight at a time
//! ([`crate::contact::ball_facet::update_force`] with a history model, the same bits).

use super::history::*;
use crate::body::{Balls, Wall};
use crate::contact::FacetContact;
use crate::law::{ContactModel, LawState};
use crate::math::{Real, Vec3};

/// The inputs of a batch of ball-facet contacts (history models), one lane per contact: the
/// wall is piece a, the ball piece b ([`crate::contact::ball_facet::update_force`]).
#[derive(Default)]
struct FacetInput {
    /// Unit normal from the wall to the ball.
    n: Lane3,
    overlap: Lane,
    /// The ball's radius and contact mass (0 when it has none: infinitely heavy).
    radius: Lane,
    mass: Lane,
    /// The ball's velocity and spin, and its branch vector to the contact point, `c - x`.
    vel: Lane3,
    spin: Lane3,
    branch: Lane3,
    /// The wall's velocity at the contact point.
    wall_vel: Lane3,
    /// Shear displacement before the step (0 for a contact in its first active cycle).
    xi: Lane3,
    law: Laws,
}

/// The results of a batch of ball-facet contacts.
#[derive(Default)]
struct FacetOutput {
    /// Force on the ball, N.
    force: Lane3,
    xi: Lane3,
    /// The force along the normal from the wall to the ball, N.
    normal_force: Lane,
}

impl FacetInput {
    /// Copies contact `c` (active, history model) into lane `l`.
    #[inline(always)]
    fn load(&mut self, l: usize, c: &FacetContact, balls: &Balls, walls: &[Wall]) {
        let l = l & (LANES - 1);
        let i = c.ball as usize;
        let x = &balls.pos[i];
        let wall_vel = walls[c.wall as usize].velocity_at(c.facet as usize, &c.point);
        let xi = if c.fresh {
            Vec3::zeros()
        } else {
            c.state.shear_displacement()
        };
        let (vel, spin) = (&balls.vel[i], &balls.spin[i]);
        for d in 0..3 {
            self.n[d][l] = -c.normal[d];
            self.vel[d][l] = vel[d];
            self.spin[d][l] = spin[d];
            self.branch[d][l] = c.point[d] - x[d];
            self.wall_vel[d][l] = wall_vel[d];
            self.xi[d][l] = xi[d];
        }
        self.overlap[l] = c.overlap;
        self.radius[l] = balls.radius[i];
        self.mass[l] = balls.contact_mass(i).unwrap_or(0.0);
    }

    /// The step of every lane: [`crate::contact::ball_facet::update_force`] for a history model, the
    /// same operations in the same order, as one loop over the lanes with no branch.
    #[inline(always)]
    fn step<const KIND: u8, const RULE: u8>(&self, dt: Real, o: &mut FacetOutput) {
        for l in 0..LANES {
            let n = [self.n[0][l], self.n[1][l], self.n[2][l]];
            let overlap = self.overlap[l];
            let coef = self
                .law
                .coefficients::<KIND>(l, self.radius[l], overlap, self.mass[l]);
            // the ball's velocity at the contact point, v + w x (c - x) (nalgebra's cross),
            // less the wall's
            let (w, b) = (&self.spin, &self.branch);
            let cross = [
                w[1][l] * b[2][l] - w[2][l] * b[1][l],
                w[2][l] * b[0][l] - w[0][l] * b[2][l],
                w[0][l] * b[1][l] - w[1][l] * b[0][l],
            ];
            let v = [0, 1, 2].map(|k| (self.vel[k][l] + cross[k]) - self.wall_vel[k][l]);
            let xi = [self.xi[0][l], self.xi[1][l], self.xi[2][l]];
            let (mu, total) = (self.law.mu[l], self.law.total[l]);
            let (f, xi, _) = history_lane::<RULE>(n, v, overlap, coef, mu, total, xi, dt);
            for k in 0..3 {
                o.force[k][l] = f[k];
                o.xi[k][l] = xi[k];
            }
            o.normal_force[l] = f[0] * n[0] + f[1] * n[1] + f[2] * n[2];
        }
    }
}

/// [`crate::contact::ball_facet::update_force`] of the active ball-facet contacts `list[k]`, `k` in
/// `ks`, whose models are frame-free (the history models), eight at a time: the same bits
/// (the test `the_facet_lanes_give_the_one_contact_bits` compares them contact by contact).
/// Each contact gets its force, normal force and shear displacement; one in its first active
/// cycle starts from a state with no history, as there.
pub fn update_facet_history(
    list: &mut [FacetContact],
    ks: &[u32],
    balls: &Balls,
    walls: &[Wall],
    laws: &[ContactModel],
    dt: Real,
) {
    let mut input = FacetInput::default();
    let mut o = FacetOutput::default();
    let mut filled: Option<u16> = None;
    for batch in ks.chunks(LANES) {
        // (a short batch repeats its first contact in the spare lanes)
        let lane = |l: usize| batch[if l < batch.len() { l } else { 0 }] as usize;
        let kind = input.law.fill(laws, |l| list[lane(l)].law, &mut filled);
        for l in 0..LANES {
            input.load(l, &list[lane(l)], balls, walls);
        }
        match kind {
            (HERTZ, SPRING) => input.step::<HERTZ, SPRING>(dt, &mut o),
            (HERTZ, TOTAL) => input.step::<HERTZ, TOTAL>(dt, &mut o),
            (HOOKE, SPRING) => input.step::<HOOKE, SPRING>(dt, &mut o),
            (HOOKE, TOTAL) => input.step::<HOOKE, TOTAL>(dt, &mut o),
            _ => input.step::<MIXED, EACH>(dt, &mut o),
        }
        for (l, &k) in batch.iter().enumerate() {
            let c = &mut list[k as usize];
            if c.fresh {
                c.state = LawState::default();
                c.fresh = false;
            }
            *c.state.shear_displacement_mut() = Vec3::new(o.xi[0][l], o.xi[1][l], o.xi[2][l]);
            c.force = Vec3::new(o.force[0][l], o.force[1][l], o.force[2][l]);
            c.normal_force = o.normal_force[l];
        }
    }
}
