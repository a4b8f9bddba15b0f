//! The whole model gathered from every rank's part ([`Rank::gather`]): what the outputs of a
//! run over ranks (series, measurements, VTK files, the checks) read, the same bits as the
//! model of one process at the same cycle.
//!
//! Each rank sends every other its own balls (with their keys, [`Rank::key`], and the
//! reference positions of the last build of the candidate pairs), the contacts of which it
//! owns the ball of lower id (a contact across a brick's face is held the same on both
//! sides: one copy is taken), and its balls' contacts with walls and their interactions. Each
//! rank then puts them in the order one process holds them in: balls by (key, id), contacts
//! by their balls' indices, ball-facet contacts by (ball, wall, facet).

use super::ranks::Rank;
use crate::body::Balls;
use crate::contact::{Contact, FacetContact, Frame, WallInteraction};
use crate::math::{Real, Vec3};
use crate::model::Model;
use std::collections::HashMap;

/// A ball-ball contact with its balls' ids and its entry in each side array the rank keeps
/// (None where it keeps none).
#[derive(serde::Serialize, serde::Deserialize)]
struct Pair {
    ids: (u64, u64),
    contact: Contact,
    frame: Option<Frame>,
    force: Option<Vec3>,
    point: Option<Vec3>,
    work: Option<[Real; 2]>,
    couple: Option<Vec3>,
    roll: Option<Vec3>,
    normal: Option<Vec3>,
}

/// A ball-facet contact with its ball's id and its entry in each side array the rank keeps.
#[derive(serde::Serialize, serde::Deserialize)]
struct Touch {
    id: u64,
    contact: FacetContact,
    frame: Option<Frame>,
    couple: Option<Vec3>,
    roll: Option<Vec3>,
}

/// What a rank sends: its own balls, their keys and reference positions, and their contacts.
#[derive(Default, serde::Serialize, serde::Deserialize)]
struct Part {
    balls: Balls,
    keys: Vec<u64>,
    reference: Vec<Vec3>,
    pairs: Vec<Pair>,
    touches: Vec<Touch>,
    interactions: Vec<(u64, WallInteraction)>,
    interpenetrating: bool,
    /// The wall phase's counts over this rank's own balls: hand-overs since the start,
    /// hidden and proximity contacts in the last cycle.
    counts: (u64, u32, u32),
}

/// The entry `k` of a side array, when the array is kept (not empty).
fn entry<T: Copy>(v: &[T], k: usize) -> Option<T> {
    v.get(k).copied()
}

impl Rank<'_> {
    /// The whole model at this cycle, on every rank: `model` (this rank's part) with the
    /// balls and contacts of every rank, held as one process holds them (module
    /// documentation). Every rank calls it together.
    pub fn gather(&self, model: &Model) -> Model {
        let parts: Vec<Part> = (self.comm.gather_all(self.part(model)).iter())
            .map(|bytes| bincode::deserialize(bytes).unwrap_or_default())
            .collect();
        assemble(model, parts)
    }

    /// This rank's [`Part`], as bytes.
    fn part(&self, model: &Model) -> Vec<u8> {
        let b = &model.balls;
        let own: Vec<usize> = (0..b.len()).filter(|&i| !self.ghost[i]).collect();
        let mut balls = Balls::default();
        balls.extend_from(b, own.iter().copied());
        let reference = model.broad_phase.reference_positions();
        let c = &model.contacts;
        let id = |i: u32| b.id[i as usize];
        let pairs = (c.list.iter().enumerate())
            .filter(|(_, x)| {
                // (the copy of the ball of lower id's owner)
                let low = if id(x.a) < id(x.b) { x.a } else { x.b };
                !self.ghost[low as usize]
            })
            .map(|(k, x)| Pair {
                ids: (id(x.a), id(x.b)),
                contact: x.clone(),
                frame: entry(&c.frames, k),
                force: entry(&c.force, k),
                point: entry(&c.point, k),
                work: entry(&c.work, k),
                couple: entry(&c.couple, k),
                roll: entry(&c.roll, k),
                normal: entry(&c.normals, k),
            })
            .collect();
        let fc = &model.facet_contacts;
        let touches = (fc.list.iter().enumerate())
            .filter(|(_, x)| !self.ghost[x.ball as usize])
            .map(|(k, x)| Touch {
                id: id(x.ball),
                contact: x.clone(),
                frame: entry(&fc.frames, k),
                couple: entry(&fc.couple, k),
                roll: entry(&fc.roll, k),
            })
            .collect();
        let interactions = (fc.interactions.iter())
            .filter(|x| !self.ghost[x.ball as usize])
            .map(|x| (id(x.ball), x.clone()))
            .collect();
        let part = Part {
            keys: own.iter().map(|&i| self.key[i]).collect(),
            reference: (own.iter())
                .filter_map(|&i| reference.get(i).copied())
                .collect(),
            balls,
            pairs,
            touches,
            interactions,
            interpenetrating: model.interpenetrating,
            counts: (fc.handovers, fc.hidden, fc.proximity),
        };
        bincode::serialize(&part).unwrap_or_default()
    }
}

/// `model` (a rank's part) with the balls and contacts of every rank's `parts`.
fn assemble(model: &Model, parts: Vec<Part>) -> Model {
    let mut all = Balls::default();
    let mut keys: Vec<u64> = Vec::new();
    let mut reference: Vec<Vec3> = Vec::new();
    for p in &parts {
        all.extend_from(&p.balls, 0..p.balls.len());
        keys.extend(&p.keys);
        reference.extend(&p.reference);
    }
    let mut order: Vec<usize> = (0..all.len()).collect();
    order.sort_unstable_by_key(|&i| (keys[i], all.id[i]));
    let mut whole = model.clone();
    whole.balls = Balls {
        cell: model.balls.cell.clone(),
        ..Balls::default()
    };
    whole.balls.extend_from(&all, order.iter().copied());
    let index: HashMap<u64, u32> = (whole.balls.id.iter().enumerate())
        .map(|(i, &id)| (id, i as u32))
        .collect();
    let built = reference.len() == all.len();
    let reference: Vec<Vec3> = if built {
        order.iter().map(|&i| reference[i]).collect()
    } else {
        Vec::new()
    };
    whole
        .broad_phase
        .set_reference_positions(reference, whole.balls.cell.as_ref());
    if built {
        // (one process's last build saw every ball; each rank's, its own and its ghosts)
        let radii = whole.balls.radius.iter();
        whole.broad_phase.largest_radius = radii.fold(0.0, |m: Real, &r| m.max(r));
    }
    whole.interpenetrating = parts.iter().any(|p| p.interpenetrating);
    let fc = &mut whole.facet_contacts;
    fc.handovers = parts.iter().map(|p| p.counts.0).sum();
    fc.hidden = parts.iter().map(|p| p.counts.1).sum();
    fc.proximity = parts.iter().map(|p| p.counts.2).sum();
    let mut pairs = Vec::new();
    let mut touches = Vec::new();
    let mut interactions = Vec::new();
    for p in parts {
        pairs.extend(p.pairs);
        touches.extend(p.touches);
        interactions.extend(p.interactions);
    }
    contacts_of(&mut whole, pairs, &index);
    facets_of(&mut whole, touches, interactions, &index);
    whole
}

/// The ball-ball contacts of `pairs`, held in `whole` in the order of their balls' indices.
fn contacts_of(whole: &mut Model, pairs: Vec<Pair>, index: &HashMap<u64, u32>) {
    let mut rows: Vec<(u32, u32, Pair)> = (pairs.into_iter())
        .filter_map(|p| Some((*index.get(&p.ids.0)?, *index.get(&p.ids.1)?, p)))
        .collect();
    rows.sort_unstable_by_key(|r| (r.0, r.1));
    // (the general force loop's incidence lists, made at each force pass, are held as one
    // process holds them: made again for the whole list)
    let incidence = whole.contacts.incidence_of.is_some();
    let c = &mut whole.contacts;
    let kept = |f: fn(&Pair) -> bool| rows.first().is_some_and(|r| f(&r.2));
    let (frames, force, point) = (
        kept(|p| p.frame.is_some()),
        kept(|p| p.force.is_some()),
        kept(|p| p.point.is_some()),
    );
    let (work, couple, roll) = (
        kept(|p| p.work.is_some()),
        kept(|p| p.couple.is_some()),
        kept(|p| p.roll.is_some()),
    );
    let normals = kept(|p| p.normal.is_some());
    c.list.clear();
    c.frames.clear();
    c.force.clear();
    c.point.clear();
    c.work.clear();
    c.couple.clear();
    c.roll.clear();
    c.normals.clear();
    let unset = Frame::new(&Vec3::x(), 0.0);
    for (a, b, p) in rows {
        let mut x = p.contact;
        (x.a, x.b) = (a, b);
        c.list.push(x);
        if frames {
            c.frames.push(p.frame.unwrap_or(unset));
        }
        if force {
            c.force.push(p.force.unwrap_or_else(Vec3::zeros));
        }
        if point {
            c.point.push(p.point.unwrap_or_else(Vec3::zeros));
        }
        if work {
            c.work.push(p.work.unwrap_or_default());
        }
        if couple {
            c.couple.push(p.couple.unwrap_or_else(Vec3::zeros));
        }
        if roll {
            c.roll.push(p.roll.unwrap_or_else(Vec3::zeros));
        }
        if normals {
            c.normals.push(p.normal.unwrap_or_else(Vec3::zeros));
        }
    }
    c.balls_changed();
    if incidence {
        c.build_incidence(whole.balls.len());
    }
}

/// The ball-facet contacts of `touches` and their `interactions`, held in `whole` in the
/// order of (ball, wall, facet).
fn facets_of(
    whole: &mut Model,
    touches: Vec<Touch>,
    interactions: Vec<(u64, WallInteraction)>,
    index: &HashMap<u64, u32>,
) {
    let mut rows: Vec<Touch> = (touches.into_iter())
        .filter_map(|mut t| {
            t.contact.ball = *index.get(&t.id)?;
            Some(t)
        })
        .collect();
    rows.sort_unstable_by_key(|t| t.contact.key());
    let fc = &mut whole.facet_contacts;
    let kept = |f: fn(&Touch) -> bool| rows.first().is_some_and(f);
    let (frames, couple, roll) = (
        kept(|t| t.frame.is_some()),
        kept(|t| t.couple.is_some()),
        kept(|t| t.roll.is_some()),
    );
    fc.list.clear();
    fc.frames.clear();
    fc.couple.clear();
    fc.roll.clear();
    let unset = Frame::new(&Vec3::x(), 0.0);
    for t in rows {
        fc.list.push(t.contact);
        if frames {
            fc.frames.push(t.frame.unwrap_or(unset));
        }
        if couple {
            fc.couple.push(t.couple.unwrap_or_else(Vec3::zeros));
        }
        if roll {
            fc.roll.push(t.roll.unwrap_or_else(Vec3::zeros));
        }
    }
    fc.rebuild_interactions();
    let values: HashMap<(u32, u32), WallInteraction> = (interactions.into_iter())
        .filter_map(|(id, x)| Some(((*index.get(&id)?, x.wall), x)))
        .collect();
    for x in &mut fc.interactions {
        if let Some(v) = values.get(&(x.ball, x.wall)) {
            x.active = v.active;
            x.force = v.force;
            x.moment = v.moment;
            x.dissipated = v.dissipated;
            x.integration = v.integration;
            x.stats = v.stats;
        }
    }
}
