//! Contact detection, the third stage of the cycle, on the model: rebuild the candidate pairs
//! ([`crate::detect`]) when a ball or a wall has moved far enough, renumber the balls when
//! due, and merge the pairs into the persistent contact lists.

use crate::detect::{spatial_order, Scratch};
use crate::model::Model;

/// Candidate pairs per ball for which the contact lists get room at once.
const ROOM_PER_BALL: usize = 8;

impl Model {
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
        self.broad_phase.make_room(n);
        // (the side arrays the merges below keep)
        let frames = !self.laws.iter().all(|l| l.frame_free());
        let general = frames || self.planar || self.books.is_some();
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

    /// Contact detection: rebuild the candidate pairs when needed and merge them into the
    /// persistent contact list.
    pub fn detect(&mut self) {
        self.detect_after(None);
    }

    /// [`Model::detect`], given whether a ball moved more than the margin since the last
    /// build when the law of motion found out (else the broad phase checks).
    pub(super) fn detect_after(&mut self, moved: Option<bool>) {
        let margin = self.settings.margin;
        // (a wall and a ball that have each moved at most a margin have closed their gap by at
        // most two margins: see [`crate::detect`])
        let walls_moved = self.walls.iter().any(|w| w.travel > margin);
        let moved =
            || moved.unwrap_or_else(|| self.broad_phase.needs_rebuild(&self.balls.pos, margin));
        if !walls_moved && !moved() {
            return;
        }
        let due = |last: Option<u64>| last.is_none_or(|s| self.cycles >= s + self.sort_every);
        if self.sort_every > 0 && due(self.last_sort) && self.can_sort_balls() {
            self.sort_balls();
            self.last_sort = Some(self.cycles);
        }
        self.make_room();
        self.broad_phase
            .build(&self.balls.pos, &self.balls.radius, margin);
        if !self.clumps.is_empty() {
            // pebbles of one clump never touch each other
            let clump = &self.balls.clump;
            self.broad_phase.pairs.retain(|&(a, b)| {
                let (ca, cb) = (clump[a as usize], clump[b as usize]);
                ca != cb || ca == crate::body::NO_CLUMP
            });
        }
        self.broad_phase
            .build_facets(&self.walls, &self.balls.pos, &self.balls.radius, margin);
        for w in &mut self.walls {
            w.travel = 0.0;
        }
        let n = self.materials.len();
        let (mat, table) = (&self.balls.material, &self.pair_law);
        let frames = !self.planar && self.laws.iter().any(|l| !l.frame_free());
        let laws = &self.laws;
        self.contacts.couples = !self.planar && self.rolling.iter().any(Option::is_some);
        self.contacts.gathered = !self.one_pass();
        self.contacts.merge(
            &self.broad_phase.pairs,
            |a, b| table[mat[a as usize] as usize * n + mat[b as usize] as usize],
            |c| laws.get(c.law as usize).is_some_and(|l| l.holds(&c.state)),
            frames,
            self.planar,
            self.books.is_some(),
        );
        let walls = &self.walls;
        // (a wall contact's frame is needed in 2D as in 3D: no normal-only path for walls)
        let facet_frames = self.laws.iter().any(|l| !l.frame_free());
        self.facet_contacts.merge(
            &self.broad_phase.facet_pairs,
            |b, w| table[mat[b as usize] as usize * n + walls[w as usize].material],
            facet_frames,
            self.has_rolling(),
        );
    }
}

impl Model {
    /// True when the balls may be renumbered: in 3D (the 2D mode keeps its disks' normals in
    /// a side array the renumbering does not carry). A clump's pebbles move as one block, in
    /// their order ([`crate::detect::keep_clumps_whole`]). A contact whose balls swap roles is
    /// turned over
    /// ([`crate::contact::Contacts`]'s renumbering), frame and state.
    pub fn can_sort_balls(&self) -> bool {
        !self.planar
    }

    /// Puts the balls in the order [`Model::sort_order`] ([`spatial_order`]) and renumbers the contacts with them (see the
    /// module documentation). The caller rebuilds the broad phase next.
    pub(crate) fn sort_balls(&mut self) {
        debug_assert!(self.can_sort_balls());
        let Scratch {
            order,
            new_of,
            done,
        } = &mut self.sort_scratch;
        spatial_order(&self.balls, self.sort_order, order);
        if !self.clumps.is_empty() {
            let cl = &self.clumps;
            let clumps = (&self.balls.clump[..], &cl.first[..], &cl.count[..]);
            crate::detect::keep_clumps_whole(order, clumps, new_of, done);
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
        let laws = &self.laws;
        self.contacts.renumber(new_of, |c| {
            laws.get(c.law as usize).is_some_and(|l| l.frame_free())
        });
        self.facet_contacts.renumber(new_of);
    }
}
