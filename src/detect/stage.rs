//! Contact detection, the third stage of the cycle ([`Detection`]: what it reads and writes):
//! rebuild the candidate pairs ([`super::BroadPhase`]) when a ball or a wall has moved far
//! enough, renumber the balls when due ([`super::SortOrder`]), and merge the pairs into the
//! persistent contact lists (the lists' merge keeps the state of the contacts that stay).

use super::{spatial_order, BroadPhase, Scratch, SortOrder};
use crate::body::{Balls, Clumps, Wall};
use crate::contact::{Contacts, FacetContacts};
use crate::law::{Cohesion, ContactModel, Rolling};
use crate::math::{ExactSum, Real, Vec3};

/// What contact detection reads and writes.
pub struct Detection<'a> {
    /// Positions and radii (read); renumbered when due (written).
    pub balls: &'a mut Balls,
    /// Each clump's first pebble follows a renumbering.
    pub clumps: &'a mut Clumps,
    /// The walls (read); their travel since the last build is reset at a build.
    pub walls: &'a mut [Wall],
    /// Ball-ball contacts: merged with the new candidates.
    pub contacts: &'a mut Contacts,
    /// Ball-facet contacts: likewise.
    pub facet_contacts: &'a mut FacetContacts,
    /// The cell grid and its candidate pairs.
    pub broad_phase: &'a mut BroadPhase,
    /// Renumber the balls at most every this many cycles (0: never).
    pub sort_every: u64,
    /// The order of a renumbering.
    pub sort_order: SortOrder,
    /// The cycle of the last renumbering.
    pub last_sort: &'a mut Option<u64>,
    /// The renumbering's work arrays.
    pub sort_scratch: &'a mut Scratch,
    /// The contact models, by law index.
    pub laws: &'a [ContactModel],
    /// The rolling resistance of each law, if any.
    pub rolling: &'a [Option<Rolling>],
    /// The cohesion of each law, if any.
    pub cohesion: &'a [Option<Cohesion>],
    /// The law of each pair of materials (`materials x materials`).
    pub pair_law: &'a [u16],
    /// The number of materials.
    pub materials: usize,
    /// Extent enlargement, m.
    pub margin: Real,
    /// 2D disks.
    pub planar: bool,
    /// Energy books are kept (the contacts keep what each loses).
    pub books: bool,
    /// Cycles run so far.
    pub cycles: u64,
    /// In a periodic cell, the sum of mass times displacement of the jumps back into the cell
    /// (added to here when balls are brought back, at each build).
    pub wrapped: &'a mut Vec3,
    /// Under Lees-Edwards shear with the energy books kept: the velocity jumps of the bodies
    /// brought back through a face of the gradient axis this cycle, for the books.
    pub jumps: &'a mut Vec<Jump>,
}

impl Detection<'_> {
    /// True when some contact model has a rolling resistance.
    fn has_rolling(&self) -> bool {
        self.rolling.iter().any(Option::is_some)
    }

    /// True when the force pass runs in one pass ([`crate::force::one_pass`]).
    fn one_pass(&self) -> bool {
        crate::force::one_pass(self.planar, self.books, self.rolling, self.cohesion)
    }
}

/// Candidate pairs per ball for which the contact lists get room at once.
const ROOM_PER_BALL: usize = 8;

impl Detection<'_> {
    /// Gives the contact lists room at once for as many contacts as the balls are likely to
    /// have (see [`crate::storage::room`]): 8 candidate pairs per ball, twice what a dense
    /// packing of equal spheres needs (6 contacts per ball plus the margin's candidates), and
    /// half a ball-facet contact per ball (a ball of a dense packing touches a flat wall or
    /// none); the broad phase's and the renumbering's arrays get one entry per ball. Called
    /// when the model is built from a case, while the allocator still maps large blocks
    /// directly (glibc raises that threshold to the size of any such block freed later, such
    /// as the case's list of balls, and then serves blocks below it from its heap, where a
    /// list that grows leaves its old blocks behind, resident), and again at each rebuild for
    /// balls added since; a no-op when the room is there.
    pub fn make_room(&mut self) {
        let n = self.balls.len();
        crate::storage::room(&mut self.broad_phase.pairs, ROOM_PER_BALL * n);
        self.broad_phase.make_room(n, self.balls.cell.as_ref());
        // (the side arrays the merges below keep)
        let frames = !self.laws.iter().all(|l| l.frame_free());
        let general = frames || self.planar || self.books;
        self.contacts.gathered = !self.one_pass();
        let room = ROOM_PER_BALL * n;
        self.contacts
            .make_room(room, frames && !self.planar, general);
        if !self.walls.is_empty() {
            crate::storage::room(&mut self.broad_phase.facet_pairs, n / 2);
            self.facet_contacts.make_room(n / 2, frames);
        }
        if self.sort_every > 0 && self.can_sort_balls() {
            self.sort_scratch.make_room(n);
        }
    }

    /// Contact detection, given whether a ball moved more than the margin since the last
    /// build when the law of motion found out (else the broad phase checks).
    pub fn run(mut self, moved: Option<bool>) {
        let margin = self.margin;
        // (a wall and a ball that have each moved at most a margin have closed their gap by at
        // most two margins: see [`crate::detect`])
        let walls_moved = self.walls.iter().any(|w| w.travel > margin);
        // (in a deforming cell, measured from the cell's affine motion: see
        // [`BroadPhase::tolerance`])
        let tolerance =
            (self.broad_phase).tolerance(self.balls.cell.as_ref(), !self.walls.is_empty(), margin);
        let moved =
            || moved.unwrap_or_else(|| self.broad_phase.needs_rebuild(&self.balls.pos, &tolerance));
        if !walls_moved && !tolerance.rebuild && !moved() {
            return;
        }
        let due = |last: Option<u64>| last.is_none_or(|s| self.cycles >= s + self.sort_every);
        if self.sort_every > 0 && due(*self.last_sort) && self.can_sort_balls() {
            self.sort_balls();
            *self.last_sort = Some(self.cycles);
        }
        self.make_room();
        self.wrap();
        let cell = self.balls.cell.as_ref();
        self.broad_phase
            .build(&self.balls.pos, &self.balls.radius, margin, cell);
        self.broad_phase.keep_levers(cell);
        if !self.clumps.is_empty() {
            // pebbles of one clump never touch each other
            let clump = &self.balls.clump;
            self.broad_phase.pairs.retain(|&(a, b)| {
                let (ca, cb) = (clump[a as usize], clump[b as usize]);
                ca != cb || ca == crate::body::NO_CLUMP
            });
        }
        self.broad_phase
            .build_facets(self.walls, &self.balls.pos, &self.balls.radius, margin);
        for w in self.walls.iter_mut() {
            w.travel = 0.0;
        }
        let n = self.materials;
        let (mat, table) = (&self.balls.material, self.pair_law);
        let frames = !self.planar && self.laws.iter().any(|l| !l.frame_free());
        let laws = self.laws;
        self.contacts.couples = !self.planar && self.rolling.iter().any(Option::is_some);
        self.contacts.gathered = !self.one_pass();
        self.contacts.merge(
            &self.broad_phase.pairs,
            |a, b| table[mat[a as usize] as usize * n + mat[b as usize] as usize],
            |c| laws.get(c.law as usize).is_some_and(|l| l.holds(&c.state)),
            frames,
            self.planar,
            self.books,
        );
        let walls = &*self.walls;
        // (a wall contact's frame is needed in 2D as in 3D: no normal-only path for walls)
        let facet_frames = self.laws.iter().any(|l| !l.frame_free());
        self.facet_contacts.merge(
            &self.broad_phase.facet_pairs,
            |b, w| table[mat[b as usize] as usize * n + walls[w as usize].material],
            // (an active contact is a candidate, unless its ball was just brought back into
            // the cell: on an imaged plane it carries the state to the ball's new facet)
            |c| c.active && walls[c.wall as usize].imaged,
            facet_frames,
            self.has_rolling(),
        );
    }
    /// In a periodic cell, brings every ball and clump that has left the cell back in through
    /// the opposite face (a clump with its pebbles, by the jump of its centroid), before the
    /// candidate pairs are built: between two builds a ball lies at most a margin outside.
    fn wrap(&mut self) {
        let moved = self.wrap_bodies(&|_| true);
        *self.wrapped += Vec3::from(moved.map(|s| s.value()));
    }

    /// [`Detection::wrap`]'s moves, and the exact sums (x, y, z) of mass times displacement
    /// of those of balls that are `own` and of every clump (over ranks, each sums its own:
    /// the whole sum is the same bits for any number of ranks).
    pub(crate) fn wrap_bodies(&mut self, own: &dyn Fn(usize) -> bool) -> [ExactSum; 3] {
        let mut sums = [ExactSum::new(), ExactSum::new(), ExactSum::new()];
        let Some(cell) = self.balls.cell.clone() else {
            return sums;
        };
        let mut add = |d: Vec3, m: Real| {
            for (s, x) in sums.iter_mut().zip(d.iter()) {
                s.add(x * m);
            }
        };
        let b = &mut *self.balls;
        let books = self.books && cell.shear.is_some();
        for i in 0..b.len() {
            let (before, was) = (b.pos[i], b.vel[i]);
            let free = b.clump[i] == crate::body::NO_CLUMP;
            if free && cell.wrap_body(&mut b.pos[i], &mut b.vel[i]) {
                if own(i) {
                    add(b.pos[i] - before, b.mass[i]);
                }
                if books && b.vel[i] != was {
                    let dv = b.vel[i] - was;
                    self.jumps.push(Jump::Ball(i as u32, dv));
                }
            }
        }
        let cl = &mut *self.clumps;
        for c in 0..cl.len() {
            let (before, was) = (cl.pos[c], cl.vel[c]);
            if cell.wrap_body(&mut cl.pos[c], &mut cl.vel[c]) {
                let (d, dv) = (cl.pos[c] - before, cl.vel[c] - was);
                add(d, cl.mass[c]);
                let first = cl.first[c] as usize;
                for p in first..first + cl.count[c] as usize {
                    b.pos[p] += d;
                    b.vel[p] += dv;
                    add(d, b.mass[p]);
                }
                if books && dv != Vec3::zeros() {
                    self.jumps.push(Jump::Clump(c as u32, dv));
                }
            }
        }
        sums
    }

    /// True when the balls may be renumbered: in 3D (the 2D mode keeps its disks' normals in
    /// a side array the renumbering does not carry). A clump's pebbles move as one block, in
    /// their order ([`super::keep_clumps_whole`]). A contact whose balls swap roles is
    /// turned over
    /// ([`crate::contact::Contacts`]'s renumbering), frame and state.
    pub fn can_sort_balls(&self) -> bool {
        !self.planar
    }

    /// Puts the balls in the order [`Detection::sort_order`] ([`spatial_order`]) and renumbers the contacts with them (see the
    /// module documentation). The caller rebuilds the broad phase next.
    pub(crate) fn sort_balls(&mut self) {
        debug_assert!(self.can_sort_balls());
        let Scratch {
            order,
            new_of,
            done,
        } = &mut self.sort_scratch;
        spatial_order(self.balls, self.sort_order, order);
        if !self.clumps.is_empty() {
            let cl = &self.clumps;
            let clumps = (&self.balls.clump[..], &cl.first[..], &cl.count[..]);
            super::keep_clumps_whole(order, clumps, new_of, done);
        }
        new_of.clear();
        new_of.resize(order.len(), 0);
        for (i, &k) in order.iter().enumerate() {
            new_of[k as usize] = i as u32;
        }
        self.balls.permute(order, done);
        // (a clump's pebbles moved as one block, in their order: its first is the block's)
        for f in &mut self.clumps.first {
            *f = new_of[*f as usize];
        }
        let laws = self.laws;
        self.contacts.renumber(new_of, |c| {
            laws.get(c.law as usize).is_some_and(|l| l.frame_free())
        });
        self.facet_contacts.renumber(new_of);
    }
}

/// A body's velocity jump through a face of the gradient axis under Lees-Edwards shear: the
/// kinetic energy it changes is work of the moving boundary.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Jump {
    /// A ball, by its index, and its jump, m/s.
    Ball(u32, Vec3),
    /// A clump, by its index, and its jump, m/s.
    Clump(u32, Vec3),
}
