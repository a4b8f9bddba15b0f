//! One run cut over several ranks ([`Rank`], [`Model::cycle_on_rank`]): each rank holds the
//! balls whose centres lie in its brick ([`crate::comm::Bricks`]) and copies ("ghosts") of
//! the others' balls within the halo of its brick, and runs the same cycle as one process,
//! with the same bits.
//!
//! Why the bits are the same (docs/RANKS.md):
//! - A rank holds its balls and ghosts in the order one process holds them in: by id, or
//!   after a renumbering by the key of the cell each ball was in then and by id
//!   ([`Rank::key`]: the cells are counted from the corner of every rank's balls, and a ball
//!   carries its key to other ranks). Its contact list is sorted by that order, so each of
//!   its own balls sums its contacts in the order one process does, and every contact of one of its balls is there: the halo (twice the largest radius
//!   plus two margins along each axis) holds every candidate partner at each build.
//! - A contact across a brick's face is computed on both sides from the same bits and evolves
//!   the same way: no force travels between ranks.
//! - Ghosts are integrated with the forces their rank sees (not all of theirs), then
//!   overwritten by their owner's position, velocity and spin after every law of motion.
//! - At each rebuild of the candidate pairs (a collective decision), a ball whose centre has
//!   left its brick moves to the rank of the brick it is in, with every one of its contacts'
//!   state and frame; then each rank sends the others its balls in their halo.
//! - Every decision is a collective of exact values (the rebuild, a blow-up, a servo wall's
//!   load: the exact sum of every rank's part).
//! - Walls are held whole by every rank and move the same on each. A rank keeps the contacts
//!   of its ghosts with walls too (they change nothing but the ghosts); a ball changing rank
//!   brings its own, which replace them.
//!
//! - In a periodic cell the bricks span the cell along its periodic axes, and a rank's halo
//!   reaches through its faces ([`near`]: under Lees-Edwards shear, to the images slid by
//!   the offset); a ball keeps its place in the cell and pairs across a face are computed
//!   through the nearest image as in one process. A ball beyond a face belongs to the brick
//!   it re-enters ([`owner`]).
//!
//! - The timestep is chosen from each rank's own balls, then the least of every rank's
//!   choice, ties going to the ball first in one process's order (`among.rs`).
//!
//! - Balls leave and enter on the whole model gathered, which is then cut again
//!   (`exchange.rs`).
//!
//! - A bond holds at any distance: a rank holds the balls bonded to its own balls, however far
//!   from its brick (they are sent to it at each rebuild, beside its halo).
//!
//! - Under timestep scaling a ghost's inertial mass and moment of inertia are its owner's,
//!   sent with its motion (its rank's stiffness sums of it are partial).
//!
//! Not yet cut over ranks (refused by [`Model::ranked`]): clumps.

use crate::comm::{Bricks, Comm, Share};
use crate::contact::{Contact, FullStats};
use crate::force::wall_resultant_sums;
use crate::geom::Cell;
use crate::law::ContactModel;
use crate::math::{extent, Real, Vec3};
use crate::model::{Model, ModelError};
use crate::watch::blowup;

/// The imbalance (the most balls a rank owns over the mean) above which the cuts between the
/// bricks move, by default (module `balance`).
pub const REBALANCE: Real = 1.2;

/// A rank's share of a run: its brick, which of its balls are ghosts, and who holds copies of
/// which of its balls.
pub struct Rank<'c> {
    /// The ranks.
    pub(crate) comm: &'c dyn Comm,
    /// The bricks of every rank.
    pub bricks: Bricks,
    /// How far from its brick (along each axis) a ball is copied to a rank, m.
    pub halo: Real,
    /// The largest radius of every rank's balls, m (the broad phase's displacement test reads
    /// it: [`crate::detect::BroadPhase::tolerance`]).
    pub r_max: Real,
    /// For each of this rank's balls: true for a ghost (another rank's ball).
    pub ghost: Vec<bool>,
    /// For each rank: the indices of this rank's own balls it holds copies of, in order.
    pub(super) send: Vec<Vec<u32>>,
    /// For each rank: the indices of the copies of its balls this rank holds, in order.
    pub(super) recv: Vec<Vec<u32>>,
    /// For each of this rank's balls: the key of its cell at the last renumbering (0 before
    /// any): the balls are held in the order of (key, id), the order one process holds them
    /// in ([`crate::detect::spatial_order`]). A ball carries its key to other ranks.
    pub key: Vec<u64>,
    /// Balls that came to this rank from another since the start.
    pub arrived: usize,
    /// Rebuilds of the candidate pairs since the start (each one an exchange of balls).
    pub rebuilds: usize,
    /// Bytes this rank sent the others in the exchanges of balls since the start (the
    /// collectives' few bytes apart).
    pub sent: u64,
    /// The imbalance (the most balls a rank owns over the mean) above which the cuts between
    /// the bricks move at the next rebuild ([`Rank::imbalance`]; infinite: never).
    pub rebalance: Real,
    /// Each time the cuts moved: the cycle, the imbalance before and after.
    pub rebalanced: Vec<(u64, Real, Real)>,
}

impl Model {
    /// This rank's part of `self`, a whole model that every rank builds the same (from the
    /// case, or a checkpoint), cut into `count` bricks over the balls' extent (the bricks at the
    /// ends reach to infinity): the balls of this rank's brick and the ghosts of the others'
    /// within the halo.
    ///
    /// A model already primed (resumed from a checkpoint) is cut where its balls were at the
    /// last build of the candidate pairs, with its contacts among the balls the rank holds:
    /// the part a rank that had built then would hold. Its balls keep the order of `self`
    /// ([`Rank::key`]: the index in `self`, which is the order of (key, id)).
    ///
    /// # Errors
    /// What cannot be cut over ranks yet, in words (module documentation).
    pub fn ranked(self, comm: &dyn Comm, count: [usize; 3]) -> Result<(Model, Rank<'_>), String> {
        self.refuse_for_ranks()?;
        if count.iter().product::<usize>() != comm.size() {
            return Err(format!(
                "{count:?} bricks for {} ranks: their product must be the number of ranks",
                comm.size()
            ));
        }
        let (lo, hi) = self.brick_extent();
        let bricks = Bricks::even(count, &lo, &hi, period(self.balls.cell.as_ref()));
        Ok(self.cut(comm, bricks))
    }

    /// This rank's part of `self` cut into `bricks` ([`Model::ranked`]), and its place.
    pub(super) fn cut(mut self, comm: &dyn Comm, bricks: Bricks) -> (Model, Rank<'_>) {
        let b = &self.balls;
        let reference = self.broad_phase.reference_positions();
        let built = self.primed && reference.len() == b.len();
        let at: &[Vec3] = if built { reference } else { &b.pos };
        let cell = b.cell.as_ref();
        let r_max = b.radius.iter().fold(0.0, |m: Real, &r| m.max(r));
        let halo = 2.0 * (r_max + self.settings.margin);
        let me = comm.rank();
        let owner: Vec<usize> = at.iter().map(|p| owner(&bricks, cell, p)).collect();
        // (a bond holds at any distance: a ball is held by the ranks of the balls bonded to it)
        let mut tied = std::collections::HashSet::new();
        for c in (self.contacts.list.iter()).filter(|c| bonded(&self.laws, c)) {
            let (a, b) = (c.a as usize, c.b as usize);
            tied.insert((a, owner[b]));
            tied.insert((b, owner[a]));
        }
        let near =
            |r: usize, i: usize| near(&bricks, cell, (r, &at[i]), halo) || tied.contains(&(i, r));
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
        let key = if self.primed {
            let key = (0..b.len() as u64).filter(|&i| keep[i as usize]).collect();
            self.keep_primed(&keep, built, me == 0);
            key
        } else {
            vec![0; local as usize]
        };
        self.balls.keep(&keep);
        let rank = Rank {
            comm,
            bricks,
            halo,
            r_max,
            ghost,
            send,
            recv,
            key,
            arrived: 0,
            rebuilds: 0,
            sent: 0,
            rebalance: REBALANCE,
            rebalanced: Vec::new(),
        };
        (self, rank)
    }

    /// Of a primed model, the contacts and the reference positions of the balls in `keep`
    /// (`built`: the reference positions are those of every ball); the hand-overs counted so
    /// far stay with rank 0 (`root`), each rank counting its own from now on.
    fn keep_primed(&mut self, keep: &[bool], built: bool, root: bool) {
        let new_of = crate::storage::renumbered(keep);
        self.contacts.drop_balls(&new_of);
        self.facet_contacts.drop_balls(&new_of);
        if built {
            let reference = self.broad_phase.reference_positions();
            let kept = (reference.iter().zip(keep))
                .filter(|(_, &k)| k)
                .map(|(p, _)| *p)
                .collect();
            self.broad_phase
                .set_reference_positions(kept, self.balls.cell.as_ref());
        } else {
            self.broad_phase.invalidate();
        }
        if !root {
            self.facet_contacts.handovers = 0;
        }
    }

    /// The box the bricks of [`Model::ranked`] cut: the extent of the balls (where they were
    /// at the last build of the candidate pairs, in a primed model), and along a periodic axis
    /// the cell.
    pub fn brick_extent(&self) -> (Vec3, Vec3) {
        let b = &self.balls;
        let reference = self.broad_phase.reference_positions();
        let built = self.primed && reference.len() == b.len();
        let (mut lo, mut hi) = extent(if built { reference } else { &b.pos });
        for (k, span) in period(b.cell.as_ref()).iter().enumerate() {
            if let Some((a, len)) = span {
                (lo[k], hi[k]) = (*a, a + len);
            }
        }
        (lo, hi)
    }

    /// The bricks for `ranks` ranks by default ([`Bricks::choose`] over
    /// [`Model::brick_extent`]).
    pub fn choose_bricks(&self, ranks: usize) -> [usize; 3] {
        let (lo, hi) = self.brick_extent();
        Bricks::choose(ranks, &lo, &hi, self.planar)
    }

    /// What [`Model::ranked`] cannot cut yet, in words.
    ///
    /// # Errors
    /// The first thing of the model not cut over ranks yet.
    pub fn refuse_for_ranks(&self) -> Result<(), String> {
        let ids_increase = self.balls.id.windows(2).all(|w| w[0] < w[1]);
        let refusals = [
            (!self.clumps.is_empty(), "clumps"),
            (
                // (a primed model's balls keep their order: [`Model::ranked`])
                !ids_increase && !self.primed,
                "balls whose ids do not increase in the file's order",
            ),
        ];
        match refusals.iter().find(|r| r.0) {
            Some((_, what)) => Err(format!("{what} cannot be cut over ranks yet")),
            None => Ok(()),
        }
    }

    /// [`Model::prime`] on every rank together (done by the first cycle when not before).
    ///
    /// # Errors
    /// As [`Model::prime`]; on the ranks that do not hold the body at fault,
    /// [`ModelError::OtherRank`].
    pub fn prime_on_rank(&mut self, rank: &mut Rank) -> Result<(), ModelError> {
        if self.sort_every > 0 && !self.planar {
            // (one process renumbers its balls at the first build, 3D only: [`Model::prime`])
            rank.sort(self);
        }
        let r = self.prime_forces();
        self.broad_phase.largest_radius = rank.r_max;
        together(rank, r, self.cycles)?;
        if self.books.is_some() {
            rank.forward_loads(self);
            crate::books::book(self, true, &rank.owned());
        }
        self.primed = true;
        rank.own_counts(self);
        let r = blowup::overlaps(self);
        together(rank, r, self.cycles)
    }

    /// One cycle of this rank's part ([`Model::cycle`]'s stages with the ranks' exchanges:
    /// module documentation). Every rank calls it together.
    ///
    /// # Errors
    /// As [`Model::cycle`]; on the ranks that do not hold the body at fault,
    /// [`ModelError::OtherRank`].
    pub fn cycle_on_rank(&mut self, rank: &mut Rank) -> Result<(), ModelError> {
        if !self.primed {
            self.prime_on_rank(rank)?;
        }
        self.exchange_on_rank(rank)?;
        self.plan_walls_on(rank);
        self.plan_cell_by(&rank.owned())?;
        let estimate = self.timestep_stiffness(Some(&*rank));
        let mut timestep = self.timestep();
        timestep.among = Some(&*rank);
        let dt = timestep.choose(estimate)?;
        crate::motion::deform_cell(&mut self.balls, &mut self.clumps, dt);
        let (finite, _) = self.motion().run(dt);
        self.advance_clock(dt);
        rank.forward(self);
        // (in a deforming cell, measured from the cell's affine motion, which is the same on
        // every rank: [`BroadPhase::tolerance`])
        let cell = self.balls.cell.as_ref();
        let walls = !self.walls.is_empty();
        let tolerance = (self.broad_phase).tolerance(cell, walls, self.settings.margin);
        let moved = self.broad_phase.needs_rebuild(&self.balls.pos, &tolerance);
        // (one exchange for both: whether a rank's balls stopped being finite, or moved far
        // enough for a rebuild)
        let flags = rank
            .comm
            .gather_all(vec![u8::from(!finite) | u8::from(moved) << 1]);
        let any = |bit: u8| {
            flags
                .iter()
                .any(|f| f.first().is_some_and(|x| x & bit != 0))
        };
        if any(1) {
            blowup::finite(self)?;
            return Err(ModelError::OtherRank { cycle: self.cycles });
        }
        // (the walls move the same on every rank: as in [`crate::detect::Detection::run`])
        let walls_moved = self.walls.iter().any(|w| w.travel > self.settings.margin);
        let due = any(2) || walls_moved || tolerance.rebuild;
        if due {
            // (as one process does when a ball moved more than the margin)
            let r = blowup::tunnelling(self, dt);
            together(rank, r, self.cycles)?;
            let before = rank.balance(self);
            rank.rebuild(self);
            if let Some(before) = before {
                let after = rank.imbalance();
                rank.rebalanced.push((self.cycles, before, after));
            }
            let last = self.last_sort;
            if self.sort_every > 0
                && !self.planar
                && last.is_none_or(|s| self.cycles >= s + self.sort_every)
            {
                rank.sort(self);
            }
            // (as one process does before the build, each rank's own moves summed)
            let ghost = &rank.ghost;
            let mut moved = self.detection().wrap_bodies(&|i| !ghost[i]);
            rank.comm.sum_exact(&mut moved);
            self.wrapped += Vec3::from(moved.map(|s| s.value()));
        }
        self.detection().run(Some(due));
        if due {
            // (one process's test bounds the pairs' closing by the largest radius of all the
            // balls, not of those this rank holds: without it a rank with small balls alone
            // rebuilds later than one process)
            self.broad_phase.largest_radius = rank.r_max;
        }
        self.forces().run(dt);
        if self.books.is_some() {
            rank.forward_loads(self);
            crate::books::book(self, false, &rank.owned());
        }
        rank.own_counts(self);
        let r = blowup::overlaps(self);
        together(rank, r, self.cycles)
    }
}

impl Model {
    /// [`Model::plan_walls`] on a rank: the load on a servo wall is summed over the contacts
    /// of every rank's own balls (exactly, as one process sums them: [`Model::wall_resultant`]).
    fn plan_walls_on(&mut self, rank: &Rank) {
        let ghost = &rank.ghost;
        self.plan_walls_by(|m, w| {
            let own = |i: usize| !ghost[i];
            let (mut load, _) = wall_resultant_sums(&m.walls[w], &m.facet_contacts, w, own);
            rank.comm.sum_exact(&mut load.0);
            load.value()
        });
    }
}

/// Along each periodic axis of `cell`, its lowest coordinate and length ([`Bricks::period`]).
pub(super) fn period(cell: Option<&Cell>) -> [Option<(Real, Real)>; 3] {
    std::array::from_fn(|k| cell.filter(|c| c.periodic[k]).map(|c| (c.min[k], c.len[k])))
}

/// The rank whose brick holds a ball at `p` once brought back into the `cell` (a ball lies up
/// to a margin outside it between builds of the candidate pairs; under Lees-Edwards shear,
/// one back through a face of the gradient axis also slides along the flow).
pub(super) fn owner(bricks: &Bricks, cell: Option<&Cell>, p: &Vec3) -> usize {
    let mut q = *p;
    if let Some(c) = cell {
        c.wrap_body(&mut q, &mut Vec3::zeros());
    }
    bricks.owner(&q)
}

/// Whether a ball at `p` lies within `halo` of rank `r`'s brick ([`Bricks::near`]): through
/// the nearest image of the brick along a periodic axis, and under Lees-Edwards shear through
/// the images across the gradient axis's faces, which slide along the flow by the cell's
/// offset.
pub(super) fn near(
    bricks: &Bricks,
    cell: Option<&Cell>,
    (r, p): (usize, &Vec3),
    halo: Real,
) -> bool {
    let Some((c, s)) = cell.and_then(|c| Some((c, c.shear?))) else {
        return bricks.near(r, p, halo);
    };
    let (f, g) = (s.flow, s.gradient);
    [0.0, 1.0, -1.0].iter().any(|&up: &Real| {
        let mut q = *p;
        q[g] += up * c.len[g];
        q[f] = c.min[f] + (q[f] + up * c.offset - c.min[f]).rem_euclid(c.len[f]);
        bricks.near_along(r, &q, halo, g)
    })
}

/// Whether contact `c` is held at any distance by its model (`laws`: a bond), so that each
/// rank holding one of its balls holds the other too, however far from its brick.
pub(super) fn bonded(laws: &[ContactModel], c: &Contact) -> bool {
    laws.get(c.law as usize).is_some_and(|l| l.holds(&c.state))
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

impl Rank<'_> {
    /// The number of ranks.
    pub fn size(&self) -> usize {
        self.comm.size()
    }

    /// This rank's number.
    pub fn rank(&self) -> usize {
        self.comm.rank()
    }

    /// Sends `out[r]` to each rank `r` ([`Comm::exchange`]), counting the bytes sent.
    pub(super) fn swap(&mut self, out: Vec<Vec<u8>>) -> Vec<Vec<u8>> {
        let me = self.rank();
        let bytes = (out.iter().enumerate())
            .filter(|(r, _)| *r != me)
            .map(|(_, b)| b.len() as u64);
        self.sent += bytes.sum::<u64>();
        self.comm.exchange(out)
    }

    /// The wall phase's counts of this cycle (hand-overs, hidden and proximity contacts) over
    /// this rank's own balls only: each is then counted once over the ranks.
    fn own_counts(&self, model: &mut Model) {
        let fc = &mut model.facet_contacts;
        let (mut all, mut own) = (FullStats::default(), FullStats::default());
        for it in &fc.interactions {
            all = all.plus(&it.stats);
            if !self.ghost[it.ball as usize] {
                own = own.plus(&it.stats);
            }
        }
        fc.handovers = fc.handovers - all.handovers as u64 + own.handovers as u64;
        fc.hidden = own.hidden;
        fc.proximity = own.proximity;
    }

    /// The balls this rank sums the terms of (its own), and the ranks to merge the sums over.
    pub fn owned(&self) -> Share<'_> {
        Share::new(&self.ghost, self.comm)
    }
}

#[cfg(test)]
mod tests {
    use super::{near, owner, period};
    use crate::comm::Bricks;
    use crate::geom::{Cell, Shear};
    use crate::math::Vec3;

    /// A 4 x 1 x 4 cell sheared along x (gradient z), its images slid by 1.5, cut into 2 x 1 x 2
    /// bricks of 2 x 1 x 2: rank 0 is x < 2, z < 2; rank 1 x < 2, z >= 2; rank 2 x >= 2, z < 2.
    fn sheared() -> (Cell, Bricks) {
        let cell = Cell {
            min: Vec3::zeros(),
            len: Vec3::new(4.0, 1.0, 4.0),
            periodic: [true, true, true],
            shear: Some(Shear {
                rate: 1.0,
                flow: 0,
                gradient: 2,
            }),
            offset: 1.5,
            strain: 0.0,
            pressure: None,
            dilation: 0.0,
        };
        let bricks = Bricks::even([2, 1, 2], &cell.min, &cell.len, period(Some(&cell)));
        (cell, bricks)
    }

    /// By hand: a ball 0.05 above the top face re-enters at the bottom slid back by the offset,
    /// at x = 1.0 - 1.5 + 4 = 3.5, z = 0.05: rank 2's, not rank 1's (where it was).
    #[test]
    fn a_ball_beyond_a_sheared_face_belongs_where_it_reenters() {
        let (cell, bricks) = sheared();
        let p = Vec3::new(1.0, 0.5, 4.05);
        assert_eq!(owner(&bricks, Some(&cell), &p), 2);
        assert_eq!(bricks.owner(&p), 1);
        let plain = Cell {
            shear: None,
            ..cell.clone()
        };
        // (a still cell: straight down, x kept)
        assert_eq!(owner(&bricks, Some(&plain), &p), 0);
    }

    /// By hand: a ball at x = 3.5, z = 3.9 (rank 3's brick) has its image below the bottom face
    /// at z = -0.1, slid to x = 3.5 - 1.5 = 2.0: 0.1 from rank 0's brick (x < 2, z >= 0), so a
    /// ghost there for a halo of 0.2, not for 0.05. The image not slid (x = 3.5, or -0.5 through
    /// the x faces) is 0.5 from it along x: the brick's own test misses the ball.
    #[test]
    fn the_halo_reaches_through_a_sheared_face_to_the_slid_image() {
        let (cell, bricks) = sheared();
        let p = Vec3::new(3.5, 0.5, 3.9);
        assert_eq!(bricks.owner(&p), 3);
        assert!(near(&bricks, Some(&cell), (0, &p), 0.2));
        assert!(!near(&bricks, Some(&cell), (0, &p), 0.05));
        assert!(!bricks.near(0, &p, 0.2));
        assert!(bricks.near(0, &p, 0.5));
    }
}
