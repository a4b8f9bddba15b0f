//! The periodic cell's stress (`domain/stress`, docs/CASES.md section 19): with `V` the cell's
//! volume (its area in 2D),
//! `sigma = (1/V) [ sum_contacts F (x) l + sum_bodies m v' (x) v' ]`, compression positive:
//! `F` the force on a ball-ball contact's second ball and `l` the branch vector from the first
//! ball's centre to the nearest image of the second's (the contacts across the faces count as
//! any other); a ball-wall contact adds `-f (x) (x_c - x_ball)`, `f` the force on the ball; and
//! `v'` is a body's velocity less the imposed shear flow at its centre,
//! `rate (x_gradient - middle of the cell) e_flow` (no flow without shear). Reported as the
//! symmetric part, `xx, yy, zz, xy, yz, xz`. The sums are exact ([`ExactSum`]): the same for any
//! order of the contacts and bodies.

use crate::comm::Share;
use crate::math::{ExactSum, ExactTensor, Real, Vec3};
use crate::model::Model;

/// The cell's stress, Pa (zeros without a cell).
pub fn cell_stress(model: &Model) -> [Real; 6] {
    let mut sums = ExactTensor::new();
    let add = |f: &Vec3, l: &Vec3| sums.add_outer(f, l);
    let Some(inv) = stress_sums(model, &Share::whole(), add) else {
        return [0.0; 6];
    };
    let t = sums.value();
    let s = |r: usize, c: usize| 0.5 * (t[r][c] + t[c][r]) * inv;
    [s(0, 0), s(1, 1), s(2, 2), s(0, 1), s(1, 2), s(0, 2)]
}

/// The cell's normal stress along axis `k` alone, Pa (0 without a cell): what the pressure
/// servo reads (the same sums as [`cell_stress`], one component).
///
/// Over ranks (`share`), each rank sums the terms of its own balls (a contact's by its first
/// ball) and the sums are merged exactly: the same bits as one process.
pub fn cell_normal_stress(model: &Model, k: usize, share: &Share) -> Real {
    let mut t = [ExactSum::new()];
    let add = |f: &Vec3, l: &Vec3| t[0].add(f[k] * l[k]);
    let inv = stress_sums(model, share, add);
    share.merge(&mut t);
    inv.map_or(0.0, |inv| t[0].value() * inv)
}

/// Calls `add(f, l)` for each term of the cell's stress (module documentation) of the balls
/// of `share` and returns 1/V (None without a cell).
fn stress_sums(model: &Model, share: &Share, mut add: impl FnMut(&Vec3, &Vec3)) -> Option<Real> {
    let b = &model.balls;
    let cell = b.cell.as_ref()?;
    let list = &model.contacts;
    let active = |c: &&crate::contact::Contact| c.active && share.own(c.a as usize);
    for (k, c) in list.list.iter().enumerate().filter(|(_, c)| active(c)) {
        let f = list.contact_force(k, b, &model.laws);
        let l = b.partner(c.a as usize, c.b as usize) - b.pos[c.a as usize];
        add(&f, &l);
    }
    let touches = model.facet_contacts.list.iter();
    for c in touches.filter(|c| c.active && share.own(c.ball as usize)) {
        let l = crate::geom::nearest(Some(cell), c.point - b.pos[c.ball as usize]);
        add(&-c.force, &l);
    }
    let flow = |x: &Vec3| -> Vec3 {
        let mut u = Vec3::zeros();
        if let Some(s) = &cell.shear {
            let middle = cell.min[s.gradient] + 0.5 * cell.len[s.gradient];
            u[s.flow] = s.rate * (x[s.gradient] - middle);
        }
        u
    };
    for i in (0..b.len()).filter(|&i| !b.is_pebble(i) && share.own(i)) {
        let v = model.synchronized_velocity(i) - flow(&b.pos[i]);
        add(&(v * b.mass[i]), &v);
    }
    let cl = &model.clumps;
    for c in (0..cl.len()).filter(|_| share.root()) {
        let v = model.clump_velocity(c) - flow(&cl.pos[c]);
        add(&(v * cl.mass[c]), &v);
    }
    Some(1.0 / cell.volume(model.planar))
}
