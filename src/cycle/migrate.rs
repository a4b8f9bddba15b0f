//! What moves between ranks at a rebuild of the candidate pairs ([`Rank`]'s migration, module
//! `ranks`): balls that left their brick go to their new owner with their contacts' records,
//! every rank sends the others its balls in their halo, and each rank puts what it holds in
//! the order one process holds it in (and renumbers it when one process would).

use super::ranks::{bonded, near, owner, period, Rank};
use crate::body::Balls;
use crate::contact::{FacetContact, Frame, Moving};
use crate::detect::SortGrid;
use crate::law::ContactModel;
use crate::math::Vec3;
use crate::model::Model;
use std::collections::HashSet;

/// A ball-ball contact on its way to another rank: its balls' ids, and what moves of it.
type Record = (u64, u64, Moving);

/// A ball-facet contact on its way to another rank: its ball's id, the contact, its frame and
/// its rolling spring (zero when none is kept).
type FacetRecord = (u64, FacetContact, Option<Frame>, Vec3);

/// What a rank sends the new owner of balls that left its brick: the balls, their keys
/// ([`Rank::key`]), and the records of their ball-ball and ball-facet contacts.
type Leaving = (Balls, Vec<u64>, Vec<Record>, Vec<FacetRecord>);

/// Balls sent to another rank, with their keys ([`Rank::key`]).
type Sent = (Balls, Vec<u64>);

/// The ids of the balls a rank asks for beyond its halo (bonded to its own).
type Tied = HashSet<u64>;

impl Rank<'_> {
    /// Renumbers this rank's balls as one process renumbers them all
    /// ([`crate::detect::spatial_order`]: the cells counted from the lowest corner of every
    /// rank's balls, ties by id), and keeps each ball's key ([`Rank::key`]).
    pub(super) fn sort(&mut self, model: &mut Model) {
        let mut grid = SortGrid::of(&model.balls);
        for k in 0..3 {
            grid.lo[k] = self.comm.min(grid.lo[k]);
            grid.hi[k] = self.comm.max(grid.hi[k]);
        }
        grid.r_max = self.comm.max(grid.r_max);
        let b = &model.balls;
        let keys: Vec<u64> = b
            .pos
            .iter()
            .map(|p| grid.key(p, model.sort_order))
            .collect();
        let mut order: Vec<u32> = (0..b.len() as u32).collect();
        order.sort_unstable_by_key(|&i| (keys[i as usize], b.id[i as usize]));
        self.key = order.iter().map(|&i| keys[i as usize]).collect();
        let new_of = permute(model, &order);
        self.ghost = order.iter().map(|&i| self.ghost[i as usize]).collect();
        for list in self.send.iter_mut().chain(self.recv.iter_mut()) {
            for i in list.iter_mut() {
                *i = new_of[*i as usize];
            }
            list.sort_unstable();
        }
        model.last_sort = Some(model.cycles);
    }
}

/// Puts the balls in `order` (`order[k]` the index of the ball that goes to `k`), the
/// contacts renumbered with them; returns the new index of each ball.
fn permute(model: &mut Model, order: &[u32]) -> Vec<u32> {
    let mut new_of = vec![0u32; order.len()];
    for (i, &k) in order.iter().enumerate() {
        new_of[k as usize] = i as u32;
    }
    let mut done = Vec::new();
    model.balls.permute(order, &mut done);
    let laws = &model.laws;
    model.contacts.renumber(&new_of, |c| {
        laws.get(c.law as usize).is_some_and(|l| l.frame_free())
    });
    model.contacts.balls_changed();
    model.facet_contacts.renumber(&new_of);
    new_of
}

/// The balls at `indices` (in that order), in a list of their own (the cell is shared).
fn pick(b: &Balls, indices: &[usize]) -> Balls {
    let mut out = Balls {
        cell: b.cell.clone(),
        ..Balls::default()
    };
    out.extend_from(b, indices.iter().copied());
    out
}

/// Appends every ball of `other`, in its order.
fn append(to: &mut Balls, other: &Balls) {
    to.extend_from(other, 0..other.len());
}

/// `bincode` bytes of `value` (what ranks send each other).
fn pack<T: serde::Serialize>(value: &T) -> Vec<u8> {
    bincode::serialize(value).unwrap_or_default()
}

/// The value `pack` wrote (a default one from bytes that do not read).
fn unpack<T: serde::de::DeserializeOwned + Default>(bytes: &[u8]) -> T {
    bincode::deserialize(bytes).unwrap_or_default()
}

impl Rank<'_> {
    /// At a rebuild of the candidate pairs: balls that left their brick move to their new
    /// owner with their contacts' records, then every rank sends the others the balls in
    /// their halo, and each rank puts its balls and ghosts in order (module documentation).
    pub(super) fn rebuild(&mut self, model: &mut Model) {
        let (me, size) = (self.rank(), self.size());
        // 1. who owns each ball now (in a cell whose length changed, the cuts along it moved
        // with it); the leaving ones go with their contacts
        let b = &model.balls;
        let cell = b.cell.as_ref();
        self.bricks.fit(period(cell));
        let owner: Vec<usize> = (0..b.len())
            .map(|i| {
                if self.ghost[i] {
                    usize::MAX
                } else {
                    owner(&self.bricks, cell, &b.pos[i])
                }
            })
            .collect();
        let mut leaving: Vec<Vec<usize>> = vec![Vec::new(); size];
        for (i, &o) in owner.iter().enumerate() {
            if o != usize::MAX && o != me {
                leaving[o].push(i);
            }
        }
        // (the rank a ball leaves for, if it leaves; one pass over each contact list)
        let to = |i: u32| Some(owner[i as usize]).filter(|&o| o != usize::MAX && o != me);
        let (c, fc) = (&model.contacts, &model.facet_contacts);
        let mut records: Vec<Vec<Record>> = vec![Vec::new(); size];
        for (k, x) in c.list.iter().enumerate() {
            let (ra, rb) = (to(x.a), to(x.b));
            for r in [ra, rb.filter(|&r| Some(r) != ra)].into_iter().flatten() {
                records[r].push((b.id[x.a as usize], b.id[x.b as usize], c.moving(k)));
            }
        }
        let mut facet_records: Vec<Vec<FacetRecord>> = vec![Vec::new(); size];
        for (k, x) in fc.list.iter().enumerate() {
            if let Some(r) = to(x.ball) {
                let frame = fc.frames.get(k).copied();
                let roll = fc.roll.get(k).copied().unwrap_or_else(Vec3::zeros);
                facet_records[r].push((b.id[x.ball as usize], x.clone(), frame, roll));
            }
        }
        let out = (0..size)
            .map(|r| {
                let balls = pick(b, &leaving[r]);
                let keys: Vec<u64> = leaving[r].iter().map(|&i| self.key[i]).collect();
                let (records, facets) = (&records[r], &facet_records[r]);
                pack(&(balls, keys, records, facets))
            })
            .collect();
        let arrived: Vec<Leaving> = self.swap(out).iter().map(|x| unpack(x)).collect();
        self.arrived += arrived.iter().map(|a| a.0.len()).sum::<usize>();
        self.rebuilds += 1;
        // this rank's own balls from now on: those that stay, and those that arrived
        let mut own: HashSet<u64> = (0..b.len())
            .filter(|&i| owner[i] == me)
            .map(|i| b.id[i])
            .collect();
        own.extend(
            arrived
                .iter()
                .flat_map(|(balls, _, _, _)| balls.id.iter().copied()),
        );
        let fresh = self.arrivals(b, &arrived);
        let tied = self.tied(model, &own, &arrived);
        let ghosts = self.share(b, (&own, &tied), &fresh);
        self.settle(model, (&own, &fresh, &tied), ghosts, arrived);
    }

    /// For each rank, the ids of the balls it must hold because they are bonded to one it owns
    /// (`own`, after the migration; a bond holds at any distance, beyond the halo): what each
    /// rank asks of the others, from its contacts and those that `arrived` with its new balls.
    /// No exchange when no contact model bonds (the same answer on every rank).
    fn tied(&mut self, model: &Model, own: &HashSet<u64>, arrived: &[Leaving]) -> Vec<Tied> {
        let size = self.size();
        let laws = &model.laws;
        if !laws.iter().any(ContactModel::bonds) {
            return vec![Tied::new(); size];
        }
        let mut needed = Vec::new();
        let mut need = |x: u64, y: u64| {
            for (p, q) in [(x, y), (y, x)] {
                if own.contains(&p) && !own.contains(&q) {
                    needed.push(q);
                }
            }
        };
        let id = &model.balls.id;
        for c in (model.contacts.list.iter()).filter(|c| bonded(laws, c)) {
            need(id[c.a as usize], id[c.b as usize]);
        }
        for (_, _, records, _) in arrived {
            for (x, y, _) in records.iter().filter(|r| bonded(laws, &r.2.contact)) {
                need(*x, *y);
            }
        }
        needed.sort_unstable();
        needed.dedup();
        let me = self.rank();
        let out = (0..size)
            .map(|r| if r == me { Vec::new() } else { pack(&needed) })
            .collect();
        let asked = self.swap(out);
        asked
            .iter()
            .map(|x| unpack::<Vec<u64>>(x).into_iter().collect())
            .collect()
    }

    /// The balls that arrived, together (their owner's values), with their keys.
    fn arrivals(&self, b: &Balls, arrived: &[Leaving]) -> Sent {
        let mut fresh = Balls {
            cell: b.cell.clone(),
            ..Balls::default()
        };
        let mut keys = Vec::new();
        for (balls, k, _, _) in arrived {
            // (an arrival was a ghost here, or is new: its owner's values either way)
            append(&mut fresh, balls);
            keys.extend(k);
        }
        (fresh, keys)
    }

    /// Sends every rank this rank's own balls (`own`: those held in `b`, and the arrivals
    /// `fresh`) in its halo; returns what each rank sent this one.
    /// (`tied`: what each rank asks for besides its halo, [`Rank::tied`].)
    fn share(
        &mut self,
        b: &Balls,
        (own, tied): (&HashSet<u64>, &[Tied]),
        (fresh, fresh_keys): &Sent,
    ) -> Vec<Sent> {
        let me = self.rank();
        // 2. every rank's own balls in the others' halos, as they are now
        let came: HashSet<u64> = fresh.id.iter().copied().collect();
        let mine: Vec<usize> = (0..b.len())
            .filter(|&i| own.contains(&b.id[i]) && !came.contains(&b.id[i]))
            .collect();
        let out = (0..self.size())
            .map(|r| {
                if r == me {
                    return Vec::new();
                }
                let near = |p: &Vec3, id: &u64| {
                    near(&self.bricks, b.cell.as_ref(), (r, p), self.halo) || tied[r].contains(id)
                };
                let here: Vec<usize> = (mine.iter().copied())
                    .filter(|&i| near(&b.pos[i], &b.id[i]))
                    .collect();
                let mut balls = pick(b, &here);
                let mut keys: Vec<u64> = here.iter().map(|&i| self.key[i]).collect();
                let there: Vec<usize> = (0..fresh.len())
                    .filter(|&k| near(&fresh.pos[k], &fresh.id[k]))
                    .collect();
                append(&mut balls, &pick(fresh, &there));
                keys.extend(there.iter().map(|&k| fresh_keys[k]));
                pack(&(balls, keys))
            })
            .collect();
        self.swap(out).iter().map(|x| unpack(x)).collect()
    }

    /// Keeps this rank's own balls (`own`) and the `ghosts` each rank sent, with their owners'
    /// values, in the order of (key, id); takes the records of the contacts that `arrived`;
    /// and makes the lists of the exchanges after each law of motion.
    fn settle(
        &mut self,
        model: &mut Model,
        (own, (fresh, fresh_keys), tied): (&HashSet<u64>, &Sent, &[Tied]),
        ghosts: Vec<Sent>,
        arrived: Vec<Leaving>,
    ) {
        let me = self.rank();
        let b = &model.balls;
        // 3. the new set: own balls and ghosts, each with the owner's values; the others go
        let mut incoming: std::collections::HashMap<u64, (usize, usize)> = Default::default();
        for (k, id) in fresh.id.iter().enumerate() {
            incoming.insert(*id, (usize::MAX, k));
        }
        for (r, (g, _)) in ghosts.iter().enumerate() {
            for (k, id) in g.id.iter().enumerate() {
                incoming.insert(*id, (r, k));
            }
        }
        let keep: Vec<bool> = (0..b.len())
            .map(|i| own.contains(&b.id[i]) || incoming.contains_key(&b.id[i]))
            .collect();
        let new_of = crate::storage::renumbered(&keep);
        let mut keys: Vec<u64> = (0..keep.len())
            .filter(|&i| keep[i])
            .map(|i| self.key[i])
            .collect();
        model.balls.keep(&keep);
        model.contacts.drop_balls(&new_of);
        model.facet_contacts.drop_balls(&new_of);
        // the values of the balls that came, over those held, and the new ones appended
        let held: std::collections::HashMap<u64, usize> = (model.balls.id.iter().enumerate())
            .map(|(i, &id)| (id, i))
            .collect();
        let source = |r: usize| {
            if r == usize::MAX {
                (fresh, fresh_keys)
            } else {
                (&ghosts[r].0, &ghosts[r].1)
            }
        };
        let mut added = Balls {
            cell: model.balls.cell.clone(),
            ..Balls::default()
        };
        let mut entries: Vec<(&u64, &(usize, usize))> = incoming.iter().collect();
        entries.sort_unstable_by_key(|e| *e.0);
        for (id, &(r, k)) in entries {
            let (from, from_keys) = source(r);
            match held.get(id) {
                Some(&i) => {
                    let bb = &mut model.balls;
                    bb.pos[i] = from.pos[k];
                    bb.vel[i] = from.vel[k];
                    bb.spin[i] = from.spin[k];
                    bb.force[i] = from.force[k];
                    bb.moment[i] = from.moment[k];
                }
                None => {
                    added.extend_from(from, std::iter::once(k));
                    keys.push(from_keys[k]);
                }
            }
        }
        append(&mut model.balls, &added);
        // 4. in the order of (key, id), the contacts renumbered with the balls
        let ids = &model.balls.id;
        let mut order: Vec<u32> = (0..ids.len() as u32).collect();
        order.sort_unstable_by_key(|&i| (keys[i as usize], ids[i as usize]));
        self.key = order.iter().map(|&i| keys[i as usize]).collect();
        permute(model, &order);
        // 5. the arrivals' contacts, in place of what this rank held of them
        let index: std::collections::HashMap<u64, u32> = (model.balls.id.iter().enumerate())
            .map(|(i, &id)| (id, i as u32))
            .collect();
        let mut records = Vec::new();
        let mut facet_records = Vec::new();
        for (_, _, r, f) in arrived {
            records.extend(
                r.into_iter()
                    .filter_map(|(a, b, m)| Some((*index.get(&a)?, *index.get(&b)?, m))),
            );
            facet_records.extend(
                (f.into_iter()).filter_map(|(a, c, f, r)| Some((*index.get(&a)?, c, f, r))),
            );
        }
        model.contacts.adopt(records);
        model.facet_contacts.adopt(facet_records);
        // 6. who is a ghost, and the lists of the exchanges after each law of motion
        self.ghost = model.balls.id.iter().map(|id| !own.contains(id)).collect();
        for s in &mut self.send {
            s.clear();
        }
        for r in &mut self.recv {
            r.clear();
        }
        for (r, (g, _)) in ghosts.iter().enumerate() {
            self.recv[r] = g.id.iter().map(|id| index[id]).collect();
            self.recv[r].sort_unstable();
        }
        let bb = &model.balls;
        for (r, s) in self.send.iter_mut().enumerate() {
            if r != me {
                *s = (0..bb.len() as u32)
                    .filter(|&i| {
                        let p = &bb.pos[i as usize];
                        !self.ghost[i as usize]
                            && (near(&self.bricks, bb.cell.as_ref(), (r, p), self.halo)
                                || tied[r].contains(&bb.id[i as usize]))
                    })
                    .collect();
            }
        }
        model.broad_phase.invalidate();
    }
}

#[cfg(test)]
mod tests {
    use super::permute;
    use crate::body::{BallSpec, Material};
    use crate::law::{ContactModel, HookeHistory, Linear};
    use crate::math::Vec3;
    use crate::model::{Model, Settings};
    use crate::timestep::TimestepMode;

    /// Three pairs of 2D disks thrown at each other, spinning and sliding, renumbered
    /// in reverse mid-run (as a rank's balls are at a rebuild: every contact turned over) run
    /// on as they do unnumbered, each disk the same bits, with the frame model and the history
    /// model (to round-off). Fails when a turned contact keeps its normal, or when the history model's 2D
    /// shear (kept along the tangent, which turns over with the normal) changes sign.
    #[test]
    fn renumbered_disks_run_on_as_before() {
        let linear = ContactModel::Linear(Linear {
            kn: 1e6,
            ks: 5e5,
            kn_rot: 0.0,
            ks_rot: 0.0,
            friction: 0.5,
            damp_n: 0.1,
            damp_s: 0.1,
            limit: Default::default(),
        });
        let history = ContactModel::HookeHistory(HookeHistory {
            kn: 1e6,
            kt: 5e5,
            gamma_n: 0.05,
            gamma_t: 0.02,
            friction: 0.5,
            limit: Default::default(),
        });
        for law in [linear, history] {
            let mut m = Model::new(Settings {
                gravity: Vec3::new(0.0, -9.81, 0.0),
                margin: 1e-3,
                timestep: TimestepMode::Fixed(1e-6),
                frame: Default::default(),
            });
            let glass = Material {
                name: "glass".into(),
                density: 2500.0,
                young: 7e10,
                poisson: 0.25,
            };
            let k = m.add_material(glass);
            m.set_contact_model(k, k, law);
            m.set_planar();
            for i in 0..6u64 {
                let (pair, side) = ((i / 2) as f64, (i % 2) as f64);
                let x = 0.02 * pair + 1.9e-3 * side;
                let spec = BallSpec {
                    vel: Vec3::new(0.3 - 0.6 * side, 0.2 * side - 0.1 * pair, 0.0),
                    spin: Vec3::new(0.0, 0.0, 50.0 * (1.0 + pair) * (1.0 - 2.0 * side)),
                    ..BallSpec::at_rest(i + 1, [x, 0.3e-3 * side, 0.0], 1e-3, k)
                };
                m.add_ball(&spec).expect("a disk");
            }
            // (turned over in the middle of their contacts)
            for _ in 0..50 {
                m.cycle().expect("a cycle");
            }
            assert_eq!(m.contacts.active_count(), 3, "three pairs in contact");
            let mut turned = m.clone();
            let order: Vec<u32> = (0..6).rev().collect();
            permute(&mut turned, &order);
            turned.broad_phase.invalidate();
            for _ in 0..2000 {
                m.cycle().expect("a cycle");
                turned.cycle().expect("a cycle");
            }
            // (not to the bit: a contact computed from its other side rounds otherwise)
            let state = |m: &Model| {
                let b = &m.balls;
                let mut s: Vec<(u64, [f64; 9])> = (0..b.len())
                    .map(|i| {
                        let (p, v, w) = (b.pos[i], b.vel[i], b.spin[i]);
                        (b.id[i], [p.x, p.y, p.z, v.x, v.y, v.z, w.x, w.y, w.z])
                    })
                    .collect();
                s.sort_unstable_by_key(|x| x.0);
                s
            };
            for (x, y) in state(&turned).iter().zip(&state(&m)) {
                for (a, b) in x.1.iter().zip(&y.1) {
                    assert!(
                        (a - b).abs() <= 1e-9 * (a.abs() + b.abs()),
                        "disk {}: {x:?} {y:?}",
                        x.0
                    );
                }
            }
        }
    }
}
