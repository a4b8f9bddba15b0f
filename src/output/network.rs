//! The contact network (force chains) of a model as arrays: each active ball-ball contact with
//! its two balls, force, point, normal and overlap; and each ball's coordination. The VTK
//! writer's `contacts_*.vtp` and the Python module's `contacts()` read it.

use crate::math::{Real, Vec3};
use crate::model::Model;

/// The active ball-ball contacts of a model, in contact-list order (arrays aligned).
#[derive(Clone, Debug, Default)]
pub struct Network {
    /// Index of each contact's first piece (`a`, the smaller index) in the model's balls.
    pub a: Vec<usize>,
    /// Index of its second piece (`b`).
    pub b: Vec<usize>,
    /// The force on `b` at the last force update, world frame, N (`a` gets its opposite).
    pub force: Vec<Vec3>,
    /// The contact point, m.
    pub point: Vec<Vec3>,
    /// The unit normal from `a` to `b` at the current positions.
    pub normal: Vec<Vec3>,
    /// `r_a + r_b - |x_b - x_a|`, m (negative: a bonded pair apart).
    pub overlap: Vec<Real>,
}

impl Network {
    /// The normal force of contact `k`: `force · normal`, N (positive in compression).
    pub fn normal_force(&self, k: usize) -> Real {
        self.force[k].dot(&self.normal[k])
    }

    /// The tangential force of contact `k`: the force less its normal part, N.
    pub fn tangential_force(&self, k: usize) -> Vec3 {
        self.force[k] - self.normal[k] * self.normal_force(k)
    }

    /// How many contacts.
    pub fn len(&self) -> usize {
        self.a.len()
    }

    /// True when there is no active contact.
    pub fn is_empty(&self) -> bool {
        self.a.is_empty()
    }
}

/// The active ball-ball contacts of `model` (between two cycles: the forces of frame-free
/// models are found again from the contacts' state, [`crate::contact::Contacts::contact_force`]).
pub fn network(model: &Model) -> Network {
    let (list, b) = (&model.contacts, &model.balls);
    let mut n = Network::default();
    for (k, c) in list.list.iter().enumerate().filter(|(_, c)| c.active) {
        let g = list.geometry(k, b);
        n.a.push(c.a as usize);
        n.b.push(c.b as usize);
        n.force.push(list.contact_force(k, b, &model.laws));
        n.point.push(list.contact_point(k, b));
        n.normal.push(g.normal);
        n.overlap.push(g.overlap);
    }
    n
}

/// The coordination of each piece of `model` (by index): its active contacts with balls,
/// plus the walls it touches (one per wall, however many facets).
pub fn coordination(model: &Model) -> Vec<u32> {
    let mut z = vec![0u32; model.balls.len()];
    for c in model.contacts.list.iter().filter(|c| c.active) {
        z[c.a as usize] += 1;
        z[c.b as usize] += 1;
    }
    // (the list is sorted by ball, wall, facet: one count per run of one ball and one wall)
    let mut last = None;
    for c in model.facet_contacts.list.iter().filter(|c| c.active) {
        if last != Some((c.ball, c.wall)) {
            z[c.ball as usize] += 1;
            last = Some((c.ball, c.wall));
        }
    }
    z
}
