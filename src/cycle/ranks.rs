//! One run cut over several ranks ([`Rank`], [`Model::cycle_on_rank`]): each rank holds the
//! balls whose centres lie in its brick ([`crate::comm::Bricks`]) and copies ("ghosts") of
//! the others' balls within the halo of its brick, and runs the same cycle as one process,
//! with the same bits.
//!
//! Why the bits are the same (docs/RANKS.md):
//! - A rank holds its balls and ghosts in the order of their ids, the order one process holds
//!   them in (before any renumbering, which a ranked run does not do yet). Its contact list is
//!   sorted by that order, so each of its own balls sums its contacts in the order one process
//!   does, and every contact of one of its balls is there: the halo (twice the largest radius
//!   plus two margins along each axis) holds every candidate partner at each build.
//! - A contact across a brick's face is computed on both sides from the same bits and evolves
//!   the same way: no force travels between ranks.
//! - Ghosts are integrated with the forces their rank sees (not all of theirs), then
//!   overwritten by their owner's position, velocity and spin after every law of motion.
//! - At each rebuild of the candidate pairs (a collective decision), a ball whose centre has
//!   left its brick moves to the rank of the brick it is in, with every one of its contacts'
//!   state and frame; then each rank sends the others its balls in their halo.
//! - Every decision is a collective of exact values (the rebuild, a blow-up).
//!
//! Not yet cut over ranks (refused by [`Model::ranked`]): walls, clumps, periodic cells,
//! renumbering, insertion and outlets, the energy books, automatic timesteps, rolling
//! resistance, cohesion and bonds, 2D disks.

use crate::body::Balls;
use crate::comm::{Bricks, Comm};
use crate::contact::{Contact, Frame};
use crate::math::{Real, Vec3};
use crate::model::{Model, ModelError};
use crate::watch::blowup;
use std::collections::HashSet;

/// A rank's share of a run: its brick, which of its balls are ghosts, and who holds copies of
/// which of its balls.
pub struct Rank<'c> {
    /// The ranks.
    comm: &'c dyn Comm,
    /// The bricks of every rank.
    pub bricks: Bricks,
    /// How far from its brick (along each axis) a ball is copied to a rank, m.
    pub halo: Real,
    /// For each of this rank's balls: true for a ghost (another rank's ball).
    pub ghost: Vec<bool>,
    /// For each rank: the indices of this rank's own balls it holds copies of, in id order.
    send: Vec<Vec<u32>>,
    /// For each rank: the indices of the copies of its balls this rank holds, in id order.
    recv: Vec<Vec<u32>>,
    /// Balls that came to this rank from another since the start.
    pub arrived: usize,
    /// Rebuilds of the candidate pairs since the start (each one an exchange of balls).
    pub rebuilds: usize,
}

/// A ball-ball contact on its way to another rank: its balls' ids, the contact, its frame.
type Record = (u64, u64, Contact, Option<Frame>);

impl Model {
    /// This rank's part of `self`, a whole model that every rank builds the same (from the
    /// case), cut into `count` bricks over the balls' extent (the bricks at the ends reach to
    /// infinity): the balls of this rank's brick and the ghosts of the others' within the halo.
    ///
    /// # Errors
    /// What cannot be cut over ranks yet, in words (module documentation).
    pub fn ranked(
        mut self,
        comm: &dyn Comm,
        count: [usize; 3],
    ) -> Result<(Model, Rank<'_>), String> {
        self.refuse_for_ranks()?;
        if count.iter().product::<usize>() != comm.size() {
            return Err(format!(
                "{count:?} bricks for {} ranks: their product must be the number of ranks",
                comm.size()
            ));
        }
        let b = &self.balls;
        let (lo, hi) = (b.pos.iter()).fold(
            (
                Vec3::repeat(Real::INFINITY),
                Vec3::repeat(Real::NEG_INFINITY),
            ),
            |(lo, hi), p| (lo.inf(p), hi.sup(p)),
        );
        let bricks = Bricks::even(count, &lo, &hi, [None; 3]);
        let r_max = b.radius.iter().fold(0.0, |m: Real, &r| m.max(r));
        let halo = 2.0 * (r_max + self.settings.margin);
        let me = comm.rank();
        let owner: Vec<usize> = b.pos.iter().map(|p| bricks.owner(p)).collect();
        let near = |r: usize, i: usize| bricks.near(r, &b.pos[i], halo);
        let keep: Vec<bool> = (0..b.len())
            .map(|i| owner[i] == me || near(me, i))
            .collect();
        let mut send = vec![Vec::new(); comm.size()];
        let mut recv = vec![Vec::new(); comm.size()];
        let mut local = 0u32;
        for i in 0..b.len() {
            if owner[i] == me {
                for (r, s) in send.iter_mut().enumerate() {
                    if r != me && near(r, i) {
                        s.push(local);
                    }
                }
            } else if keep[i] {
                recv[owner[i]].push(local);
            }
            local += keep[i] as u32;
        }
        let ghost = (0..b.len())
            .filter(|&i| keep[i])
            .map(|i| owner[i] != me)
            .collect();
        self.balls.keep(&keep);
        let rank = Rank {
            comm,
            bricks,
            halo,
            ghost,
            send,
            recv,
            arrived: 0,
            rebuilds: 0,
        };
        Ok((self, rank))
    }

    /// What [`Model::ranked`] cannot cut yet, in words.
    fn refuse_for_ranks(&self) -> Result<(), String> {
        let ids_increase = self.balls.id.windows(2).all(|w| w[0] < w[1]);
        let refusals = [
            (!self.walls.is_empty(), "walls"),
            (!self.clumps.is_empty(), "clumps"),
            (self.balls.cell.is_some(), "a periodic cell"),
            (self.sort_every > 0, "renumbering (sort_every)"),
            (self.books.is_some(), "the energy books"),
            (
                !self.flow.inserts.is_empty() || !self.flow.outlets.is_empty(),
                "insertion and outlets",
            ),
            (self.planar, "2D disks"),
            (
                self.rolling.iter().any(Option::is_some),
                "rolling resistance",
            ),
            (self.cohesion.iter().any(Option::is_some), "cohesion"),
            (
                !matches!(
                    self.settings.timestep,
                    crate::timestep::TimestepMode::Fixed(_)
                ),
                "an automatic timestep",
            ),
            (
                !ids_increase,
                "balls whose ids do not increase in the file's order",
            ),
            (self.primed, "a run already started"),
        ];
        match refusals.iter().find(|r| r.0) {
            Some((_, what)) => Err(format!("{what} cannot be cut over ranks yet")),
            None => Ok(()),
        }
    }

    /// One cycle of this rank's part ([`Model::cycle`]'s stages with the ranks' exchanges:
    /// module documentation). Every rank calls it together.
    ///
    /// # Errors
    /// As [`Model::cycle`]; on the ranks that do not hold the body at fault,
    /// [`ModelError::OtherRank`].
    pub fn cycle_on_rank(&mut self, rank: &mut Rank) -> Result<(), ModelError> {
        if !self.primed {
            let r = self.prime();
            together(rank, r, self.cycles)?;
        }
        let estimate = self.timestep_stiffness();
        let dt = self.timestep().choose(estimate)?;
        let (finite, _) = self.motion().run(dt);
        self.advance_clock(dt);
        rank.forward(self);
        if rank.comm.any(!finite) {
            blowup::finite(self)?;
            return Err(ModelError::OtherRank { cycle: self.cycles });
        }
        // (no walls and no periodic cell on ranks: the still cell's test, [`BroadPhase::tolerance`])
        let tolerance = (self.broad_phase).tolerance(None, false, self.settings.margin);
        let due = rank
            .comm
            .any(self.broad_phase.needs_rebuild(&self.balls.pos, &tolerance));
        if due {
            // (as one process does when a ball moved more than the margin)
            let r = blowup::tunnelling(self, dt);
            together(rank, r, self.cycles)?;
            rank.rebuild(self);
        }
        self.detection().run(Some(due));
        self.forces().run(dt);
        let r = blowup::overlaps(self);
        together(rank, r, self.cycles)
    }
}

/// A check made on every rank: its error where it failed, and on the other ranks
/// [`ModelError::OtherRank`], so that every rank stops together.
fn together(rank: &Rank, r: Result<(), ModelError>, cycle: u64) -> Result<(), ModelError> {
    if rank.comm.any(r.is_err()) {
        r?;
        return Err(ModelError::OtherRank { cycle });
    }
    Ok(())
}

/// The balls at `indices` (in that order), every per-ball array (the cell is shared).
fn pick(b: &Balls, indices: &[usize]) -> Balls {
    let mut out = Balls {
        cell: b.cell.clone(),
        ..Balls::default()
    };
    let Balls {
        id,
        radius,
        material,
        mass,
        inertial_mass,
        inertia,
        inertial_inertia,
        pos,
        vel,
        spin,
        force,
        moment,
        applied_force,
        fixed,
        clump,
        cell: _,
    } = b;
    for &i in indices {
        out.id.push(id[i]);
        out.radius.push(radius[i]);
        out.material.push(material[i]);
        out.mass.push(mass[i]);
        out.inertial_mass.push(inertial_mass[i]);
        out.inertia.push(inertia[i]);
        out.inertial_inertia.push(inertial_inertia[i]);
        out.pos.push(pos[i]);
        out.vel.push(vel[i]);
        out.spin.push(spin[i]);
        out.force.push(force[i]);
        out.moment.push(moment[i]);
        out.applied_force.push(applied_force[i]);
        out.fixed.push(fixed[i]);
        out.clump.push(clump[i]);
    }
    out
}

/// Appends every ball of `other` (its per-ball arrays), in its order.
fn append(to: &mut Balls, other: &Balls) {
    let all: Vec<usize> = (0..other.len()).collect();
    let o = pick(other, &all);
    to.id.extend(o.id);
    to.radius.extend(o.radius);
    to.material.extend(o.material);
    to.mass.extend(o.mass);
    to.inertial_mass.extend(o.inertial_mass);
    to.inertia.extend(o.inertia);
    to.inertial_inertia.extend(o.inertial_inertia);
    to.pos.extend(o.pos);
    to.vel.extend(o.vel);
    to.spin.extend(o.spin);
    to.force.extend(o.force);
    to.moment.extend(o.moment);
    to.applied_force.extend(o.applied_force);
    to.fixed.extend(o.fixed);
    to.clump.extend(o.clump);
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
    /// The number of ranks.
    pub fn size(&self) -> usize {
        self.comm.size()
    }

    /// This rank's number.
    pub fn rank(&self) -> usize {
        self.comm.rank()
    }

    /// Overwrites every ghost's position, velocity and spin with its owner's.
    fn forward(&self, model: &mut Model) {
        let b = &mut model.balls;
        let out = (self.send.iter())
            .map(|list| {
                let mut v: Vec<u8> = Vec::with_capacity(72 * list.len());
                for &i in list {
                    let (p, u, w) = (b.pos[i as usize], b.vel[i as usize], b.spin[i as usize]);
                    for x in [p.x, p.y, p.z, u.x, u.y, u.z, w.x, w.y, w.z] {
                        v.extend(x.to_le_bytes());
                    }
                }
                v
            })
            .collect();
        let got = self.comm.exchange(out);
        for (list, bytes) in self.recv.iter().zip(&got) {
            // (the bytes of a buffer are not aligned for f64: read one by one)
            for (&i, ball) in list.iter().zip(bytes.chunks_exact(72)) {
                let x: [Real; 9] = std::array::from_fn(|k| {
                    Real::from_le_bytes(ball[8 * k..8 * k + 8].try_into().unwrap_or([0; 8]))
                });
                let i = i as usize;
                b.pos[i] = Vec3::new(x[0], x[1], x[2]);
                b.vel[i] = Vec3::new(x[3], x[4], x[5]);
                b.spin[i] = Vec3::new(x[6], x[7], x[8]);
            }
        }
    }

    /// At a rebuild of the candidate pairs: balls that left their brick move to their new
    /// owner with their contacts' records, then every rank sends the others the balls in
    /// their halo, and each rank puts its balls and ghosts in id order (module documentation).
    fn rebuild(&mut self, model: &mut Model) {
        let (me, size) = (self.rank(), self.size());
        // 1. who owns each ball now; the leaving ones go with their contacts
        let b = &model.balls;
        let owner: Vec<usize> = (0..b.len())
            .map(|i| {
                if self.ghost[i] {
                    usize::MAX
                } else {
                    self.bricks.owner(&b.pos[i])
                }
            })
            .collect();
        let mut leaving: Vec<Vec<usize>> = vec![Vec::new(); size];
        for (i, &o) in owner.iter().enumerate() {
            if o != usize::MAX && o != me {
                leaving[o].push(i);
            }
        }
        let c = &model.contacts;
        let framed = !c.frames.is_empty();
        let out = (0..size)
            .map(|r| {
                let balls = pick(b, &leaving[r]);
                let ids: HashSet<u64> = balls.id.iter().copied().collect();
                let records: Vec<Record> = (c.list.iter().enumerate())
                    .filter(|(_, x)| {
                        ids.contains(&b.id[x.a as usize]) || ids.contains(&b.id[x.b as usize])
                    })
                    .map(|(k, x)| {
                        (
                            b.id[x.a as usize],
                            b.id[x.b as usize],
                            x.clone(),
                            framed.then(|| c.frames[k]),
                        )
                    })
                    .collect();
                pack(&(balls, records))
            })
            .collect();
        let arrived: Vec<(Balls, Vec<Record>)> =
            self.comm.exchange(out).iter().map(|x| unpack(x)).collect();
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
                .flat_map(|(balls, _)| balls.id.iter().copied()),
        );
        let fresh = self.arrivals(b, &arrived);
        let ghosts = self.share(b, &own, &fresh);
        self.settle(model, (&own, &fresh), ghosts, arrived);
    }

    /// The balls that arrived, together (their owner's values).
    fn arrivals(&self, b: &Balls, arrived: &[(Balls, Vec<Record>)]) -> Balls {
        let mut fresh = Balls {
            cell: b.cell.clone(),
            ..Balls::default()
        };
        for (balls, _) in arrived {
            // (an arrival was a ghost here, or is new: its owner's values either way)
            append(&mut fresh, balls);
        }
        fresh
    }

    /// Sends every rank this rank's own balls (`own`: those held in `b`, and the arrivals
    /// `fresh`) in its halo; returns what each rank sent this one.
    fn share(&self, b: &Balls, own: &HashSet<u64>, fresh: &Balls) -> Vec<Balls> {
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
                let near = |p: &Vec3| self.bricks.near(r, p, self.halo);
                let here: Vec<usize> = mine.iter().copied().filter(|&i| near(&b.pos[i])).collect();
                let mut balls = pick(b, &here);
                let there: Vec<usize> = (0..fresh.len()).filter(|&k| near(&fresh.pos[k])).collect();
                append(&mut balls, &pick(fresh, &there));
                pack(&balls)
            })
            .collect();
        self.comm.exchange(out).iter().map(|x| unpack(x)).collect()
    }

    /// Keeps this rank's own balls (`own`) and the `ghosts` each rank sent, with their owners'
    /// values, in id order; takes the records of the contacts that `arrived`; and makes the
    /// lists of the exchanges after each law of motion.
    fn settle(
        &mut self,
        model: &mut Model,
        (own, fresh): (&HashSet<u64>, &Balls),
        ghosts: Vec<Balls>,
        arrived: Vec<(Balls, Vec<Record>)>,
    ) {
        let me = self.rank();
        let b = &model.balls;
        // 3. the new set: own balls and ghosts, each with the owner's values; the others go
        let mut incoming: std::collections::HashMap<u64, (usize, usize)> = Default::default();
        for (k, id) in fresh.id.iter().enumerate() {
            incoming.insert(*id, (usize::MAX, k));
        }
        for (r, g) in ghosts.iter().enumerate() {
            for (k, id) in g.id.iter().enumerate() {
                incoming.insert(*id, (r, k));
            }
        }
        let keep: Vec<bool> = (0..b.len())
            .map(|i| own.contains(&b.id[i]) || incoming.contains_key(&b.id[i]))
            .collect();
        let mut new_of = vec![u32::MAX; keep.len()];
        let mut next = 0u32;
        for (i, &k) in keep.iter().enumerate() {
            if k {
                new_of[i] = next;
                next += 1;
            }
        }
        model.balls.keep(&keep);
        model.contacts.drop_balls(&new_of);
        // the values of the balls that came, over those held, and the new ones appended
        let held: std::collections::HashMap<u64, usize> = (model.balls.id.iter().enumerate())
            .map(|(i, &id)| (id, i))
            .collect();
        let source = |r: usize| if r == usize::MAX { fresh } else { &ghosts[r] };
        let mut added = Balls {
            cell: model.balls.cell.clone(),
            ..Balls::default()
        };
        let mut entries: Vec<(&u64, &(usize, usize))> = incoming.iter().collect();
        entries.sort_unstable_by_key(|e| *e.0);
        for (id, &(r, k)) in entries {
            let from = source(r);
            match held.get(id) {
                Some(&i) => {
                    let bb = &mut model.balls;
                    bb.pos[i] = from.pos[k];
                    bb.vel[i] = from.vel[k];
                    bb.spin[i] = from.spin[k];
                    bb.force[i] = from.force[k];
                    bb.moment[i] = from.moment[k];
                }
                None => append(&mut added, &pick(from, &[k])),
            }
        }
        append(&mut model.balls, &added);
        // 4. in id order, the contacts renumbered with the balls
        let n = model.balls.len();
        let mut order: Vec<u32> = (0..n as u32).collect();
        order.sort_unstable_by_key(|&i| model.balls.id[i as usize]);
        let mut new_of = vec![0u32; n];
        for (i, &k) in order.iter().enumerate() {
            new_of[k as usize] = i as u32;
        }
        let mut done = Vec::new();
        model.balls.permute(&order, &mut done);
        let laws = &model.laws;
        model.contacts.renumber(&new_of, |c| {
            laws.get(c.law as usize).is_some_and(|l| l.frame_free())
        });
        model.contacts.balls_changed();
        // 5. the arrivals' contacts, in place of what this rank held of them
        let index: std::collections::HashMap<u64, u32> = (model.balls.id.iter().enumerate())
            .map(|(i, &id)| (id, i as u32))
            .collect();
        let records: Vec<(u32, u32, Contact, Option<Frame>)> = (arrived.into_iter())
            .flat_map(|(_, r)| r)
            .filter_map(|(a, b, c, f)| Some((*index.get(&a)?, *index.get(&b)?, c, f)))
            .collect();
        model.contacts.adopt(records);
        // 6. who is a ghost, and the lists of the exchanges after each law of motion
        self.ghost = model.balls.id.iter().map(|id| !own.contains(id)).collect();
        for s in &mut self.send {
            s.clear();
        }
        for r in &mut self.recv {
            r.clear();
        }
        for (r, g) in ghosts.iter().enumerate() {
            self.recv[r] = g.id.iter().map(|id| index[id]).collect();
            self.recv[r].sort_unstable();
        }
        let bb = &model.balls;
        for (r, s) in self.send.iter_mut().enumerate() {
            if r != me {
                *s = (0..bb.len() as u32)
                    .filter(|&i| {
                        !self.ghost[i as usize]
                            && self.bricks.near(r, &bb.pos[i as usize], self.halo)
                    })
                    .collect();
            }
        }
        model.broad_phase.invalidate();
    }
}
