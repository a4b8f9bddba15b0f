//! The persistent contact list: a flat vector sorted by the pair of piece indices.

use super::pair::{pair_key, Contact};
use super::Frame;
use crate::law::ContactModel;
use crate::math::Vec3;

/// A ball-ball contact on its way to another rank with one of its balls: the contact with its
/// state, and its entries in the side arrays the list keeps (None where not kept).
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub(crate) struct Moving {
    pub contact: Contact,
    pub frame: Option<Frame>,
    pub roll: Option<Vec3>,
    pub normal: Option<Vec3>,
}

/// The contact list, sorted by [`Contact::key`], merged in place at each rebuild.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct Contacts {
    /// The contacts, sorted by pair.
    pub list: Vec<Contact>,
    /// The local frame of each contact (seed 002; made when the contact becomes active), in a
    /// side array aligned with `list`; empty when no contact model of the model uses a frame
    /// (the history models), so that their force loop streams only the compact contacts.
    pub frames: Vec<Frame>,
    /// 2D mode only (else empty): the normal of each contact at its last force update (the
    /// 2D law turns its shear with the mid-step tangent), aligned with `list`.
    pub normals: Vec<Vec3>,
    /// The merge's work array (not kept in a checkpoint).
    #[serde(skip)]
    plan: Vec<super::Slot>,
    /// True when the forces are kept (a frame-based model, 2D, energy books, or the general
    /// loop; set by the last merge): the general loop and the one-pass loop with frames
    /// write [`Contacts::force`], which is kept then only.
    general: bool,
    /// True when the general force loop and its gather run (2D, energy books, rolling
    /// resistance or cohesion: [`crate::force::one_pass`] is false; read at each merge):
    /// [`Contacts::point`] and [`Contacts::work`] are kept then only. The one-pass loop adds
    /// each force to its balls at once and reads neither (40 bytes per candidate pair).
    pub gathered: bool,
    /// True when the model keeps energy books (set by the last merge): the general loop runs
    /// and writes [`Contacts::work`].
    pub(crate) books: bool,
    /// For each ball `i`, its contacts are `incidence[start[i]..start[i + 1]]`, each entry
    /// `2 k + side` (k the contact's index, side 0 when the ball is `a`, 1 when `b`), in
    /// increasing k: the gather sums each ball's contacts in list order, as a sequential pass
    /// over the list would, so it can run in parallel over balls with the same result.
    pub incidence: Vec<u32>,
    /// Start of each ball's run in `incidence` (one more entry than balls).
    pub start: Vec<u32>,
    /// For how many balls `incidence` was built since the last merge (None: to be built;
    /// the frame-free force loop needs none).
    pub incidence_of: Option<usize>,
    /// Per contact, aligned with `list` (empty when only frame-free models run in 3D): the
    /// force on b (world frame, N) of the last force update, zero while the contact is
    /// inactive (the loops that keep it write an entry only when its contact is or was
    /// active; a merge zeroes them all, and the force loop that always follows rewrites the
    /// active ones). The frame-free loop keeps no forces (24 bytes per candidate pair, and
    /// as much memory traffic per cycle): [`Contacts::contact_force`] finds them again from the
    /// contact's state.
    pub force: Vec<Vec3>,
    /// Per contact, aligned with `list` while the general loop and its gather run
    /// ([`Contacts::gathered`]; else empty): the contact point (m) of the last force update,
    /// zero while inactive (the gather reads it with [`Contacts::force`], not the record and
    /// its frame). The one-pass loop adds each force to its balls at once and needs none: 24
    /// bytes per candidate pair saved. Outputs that need a contact point then compute it from
    /// the geometry ([`Contacts::contact_point`]: the same numbers).
    pub point: Vec<Vec3>,
    /// Per contact, aligned with `list` when the general force loop runs
    /// ([`Contacts::gathered`]; else empty): while the model keeps energy books, the energy it
    /// lost in the last force update and the integration error of its normal spring, J
    /// ([`crate::contact::ball_ball::Updated`]), summed by the books and zeroed (without
    /// books, zeros: nothing is written).
    pub work: Vec<[crate::math::Real; 2]>,
    /// Per contact, aligned with `list` when some contact model has a rolling resistance (else
    /// empty): the couple on b (world frame, N m) of the last force update, zero while
    /// inactive; a gets its opposite ([`crate::law::Rolling`]). Set [`Contacts::couples`]
    /// before a merge to keep it.
    pub couple: Vec<Vec3>,
    /// True when [`Contacts::couple`] is kept (read at each merge; the general loop runs then).
    pub couples: bool,
    /// Per contact, aligned with `list` when [`Contacts::couples`] and the frames are kept
    /// (else empty): the rolling spring's moment on b in the contact's local frame, N m, the
    /// state of its model's rolling resistance ([`crate::law::Rolling`]; zero until the
    /// contact touches, and again when it comes apart). Kept beside the frames, not in them:
    /// the scenes without rolling resistance do not carry its 24 bytes per candidate pair.
    pub roll: Vec<Vec3>,
    /// The split of the list between threads for the frame-free force loop (made again after
    /// each merge, or for another number of threads; not kept in a checkpoint: it changes
    /// no result, and a run resumed makes it again).
    #[serde(skip)]
    pub partition: super::Partition,
    /// Copies of the crossing contacts' records and frames (see [`super::Partition`]) taken
    /// before each update of that loop, one list per range of balls (that of ball b): the
    /// range computes them again for its balls while the range of ball a updates the records
    /// (not kept in a checkpoint: taken again before each update).
    #[serde(skip)]
    pub(crate) incoming: Vec<(Vec<Contact>, Vec<Frame>)>,
    /// Every ball's contact mass, taken before each update of the one-pass loop (see
    /// [`crate::force::lanes::masses`]; not kept in a checkpoint).
    #[serde(skip)]
    pub(crate) contact_masses: Vec<crate::math::Real>,
}

impl Contacts {
    /// Number of contacts (active or not).
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// True when there is no contact.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// Number of active contacts.
    pub fn active_count(&self) -> usize {
        self.list.iter().filter(|c| c.active).count()
    }

    /// The index in `list` of the contact of a pair of ball indices, in either order.
    pub fn find(&self, i: u32, j: u32) -> Option<usize> {
        let key = pair_key(i.min(j), i.max(j));
        self.list.binary_search_by_key(&key, |c| c.key()).ok()
    }

    /// True when the forces are kept (set by the last merge).
    pub fn keeps_forces(&self) -> bool {
        self.general
    }

    /// The contact point of contact `k` at its last force update, m: the kept entry of the
    /// general loop, or else the middle of the overlap at the balls' current positions
    /// ([`Contacts::geometry`], as the one-pass loop computes it; the balls must not have
    /// moved since, as between two cycles).
    pub fn contact_point(&self, k: usize, balls: &crate::body::Balls) -> Vec3 {
        match self.point.get(k) {
            Some(p) if self.point.len() == self.list.len() => *p,
            _ => self.geometry(k, balls).point,
        }
    }

    /// Keeps the contact points and losses of the general loop from now on
    /// ([`Contacts::gathered`]): zero entries for every contact if they are not kept yet (a
    /// no-op when they are, as after a merge that knew the loop would run).
    pub fn keep_gathered(&mut self) {
        self.gathered = true;
        self.general = true;
        let n = self.list.len();
        for v in [&mut self.force, &mut self.point] {
            if v.len() != n {
                v.clear();
                v.resize(n, Vec3::zeros());
            }
        }
        if self.work.len() != n {
            self.work.clear();
            self.work.resize(n, [0.0; 2]);
        }
    }

    /// The index of the active contact of a pair of ball indices (either order).
    pub fn find_active(&self, i: u32, j: u32) -> Option<usize> {
        self.find(i, j).filter(|&k| self.list[k].active)
    }

    /// The force on ball `b` of contact `k` at its last update, N (world frame; zero when
    /// inactive): the kept entry of the general force loop, or, after the frame-free loop,
    /// the force found again from the contact's state ([`super::ball_ball::held_force`]; the
    /// balls must not have moved since, as between two cycles).
    pub fn contact_force(
        &self,
        k: usize,
        balls: &crate::body::Balls,
        laws: &[ContactModel],
    ) -> Vec3 {
        if self.general {
            return self.force[k];
        }
        let c = &self.list[k];
        laws.get(c.law as usize).map_or(Vec3::zeros(), |law| {
            super::ball_ball::held_force(c, balls, law)
        })
    }

    /// The geometry of contact `k` at the balls' current positions (the force loop computes
    /// the same numbers at the same positions).
    pub fn geometry(&self, k: usize, balls: &crate::body::Balls) -> super::ball_ball::Geometry {
        let (a, b) = (self.list[k].a as usize, self.list[k].b as usize);
        super::ball_ball::geometry(
            &balls.pos[a],
            &balls.partner(a, b),
            balls.radius[a],
            balls.radius[b],
        )
    }

    /// Builds [`Contacts::incidence`] for `balls` balls unless it is up to date.
    /// O(contacts + balls).
    pub fn build_incidence(&mut self, balls: usize) {
        if self.incidence_of == Some(balls) {
            return;
        }
        self.incidence_of = Some(balls);
        self.start.clear();
        self.start.resize(balls + 1, 0);
        for c in &self.list {
            self.start[c.a as usize + 1] += 1;
            self.start[c.b as usize + 1] += 1;
        }
        for i in 0..balls {
            self.start[i + 1] += self.start[i];
        }
        self.incidence.clear();
        self.incidence.resize(2 * self.list.len(), 0);
        let mut next: Vec<u32> = self.start[..balls].to_vec();
        for (k, c) in self.list.iter().enumerate() {
            for (ball, side) in [(c.a, 0), (c.b, 1)] {
                let slot = &mut next[ball as usize];
                self.incidence[*slot as usize] = 2 * k as u32 + side;
                *slot += 1;
            }
        }
    }

    /// Renumbers the balls: ball `i` becomes `new_of[i]`. A contact whose balls swap order
    /// (the first must be the smaller index) is turned over: its frame, if kept
    /// ([`Frame::swap_pieces`]), and its shear state (`frame_free(c)`: the history models'
    /// world displacement changes sign, [`crate::law::LawState::swap_bodies`]; else the local
    /// shear force on the turned frame, [`crate::law::LawState::swap_bodies_in_frame`]). The
    /// list (and the frames with it) is sorted again; forces are zero until the next force
    /// update. A 2D contact's normal ([`Contacts::normals`]) turns over with it (the shear
    /// force kept along its tangent then reads the same).
    pub(crate) fn renumber(&mut self, new_of: &[u32], frame_free: impl Fn(&Contact) -> bool) {
        let (framed, planar) = (!self.frames.is_empty(), !self.normals.is_empty());
        let rolls = !self.roll.is_empty();
        for (k, c) in self.list.iter_mut().enumerate() {
            let (a, b) = (new_of[c.a as usize], new_of[c.b as usize]);
            if a < b {
                (c.a, c.b) = (a, b);
            } else {
                (c.a, c.b) = (b, a);
                if framed {
                    self.frames[k].swap_pieces();
                }
                if rolls {
                    super::swap_local(&mut self.roll[k]);
                }
                if planar {
                    self.normals[k] = -self.normals[k];
                }
                // (in 2D every model keeps its shear along the tangent, which turns over)
                if frame_free(c) && !planar {
                    c.state.swap_bodies();
                } else {
                    c.state.swap_bodies_in_frame();
                }
            }
        }
        if framed || planar || rolls {
            // (the side arrays follow their contacts, in place)
            let (frames, roll, normals) = (&mut self.frames, &mut self.roll, &mut self.normals);
            crate::storage::sort_along(&mut self.list, Contact::key, |i, j| {
                for v in [&mut *roll, &mut *normals] {
                    if !v.is_empty() {
                        v.swap(i, j);
                    }
                }
                if framed {
                    frames.swap(i, j);
                }
            });
        } else {
            self.list.sort_unstable_by_key(Contact::key);
        }
        self.list_changed();
    }

    /// Removes balls: ball `i` becomes `new_of[i]`, or is gone when that is `u32::MAX` (its
    /// contacts go; the numbering keeps the order of the balls that stay, so every kept
    /// contact keeps its two roles, its frame and its state, and the list stays sorted).
    /// The kept contacts keep what the last force update left in the side arrays (forces,
    /// points, works, couples): a model resumed on ranks reads them before its first force
    /// update (the pressure servo, the outputs).
    pub(crate) fn drop_balls(&mut self, new_of: &[u32]) {
        let n = self.list.len();
        let kept: Vec<usize> = (0..n)
            .filter(|&k| {
                let c = &self.list[k];
                new_of[c.a as usize] != u32::MAX && new_of[c.b as usize] != u32::MAX
            })
            .collect();
        fn pick<T: Copy>(v: &[T], n: usize, kept: &[usize]) -> Option<Vec<T>> {
            (v.len() == n).then(|| kept.iter().map(|&k| v[k]).collect())
        }
        let force = pick(&self.force, n, &kept);
        let (point, couple) = (pick(&self.point, n, &kept), pick(&self.couple, n, &kept));
        let work = pick(&self.work, n, &kept);
        let incidence = self.incidence_of.is_some();
        self.drop_records(new_of);
        if incidence {
            // (made at each force pass: made now, as the last one left them)
            self.build_incidence(new_of.iter().filter(|&&i| i != u32::MAX).count());
        }
        for (to, from) in [
            (&mut self.force, force),
            (&mut self.point, point),
            (&mut self.couple, couple),
        ] {
            if let Some(v) = from.filter(|v| v.len() == to.len()) {
                *to = v;
            }
        }
        if let Some(v) = work.filter(|v| v.len() == self.work.len()) {
            self.work = v;
        }
    }

    /// [`Contacts::drop_balls`]'s records and the side arrays that follow them (the others
    /// are made anew, zero).
    fn drop_records(&mut self, new_of: &[u32]) {
        let (framed, planar) = (!self.frames.is_empty(), !self.normals.is_empty());
        let rolls = !self.roll.is_empty();
        let mut w = 0;
        for k in 0..self.list.len() {
            let c = &self.list[k];
            let (a, b) = (new_of[c.a as usize], new_of[c.b as usize]);
            if a == u32::MAX || b == u32::MAX {
                continue;
            }
            self.list.swap(w, k);
            (self.list[w].a, self.list[w].b) = (a, b);
            if framed {
                self.frames.swap(w, k);
            }
            if rolls {
                self.roll.swap(w, k);
            }
            if planar {
                self.normals.swap(w, k);
            }
            w += 1;
        }
        self.list.truncate(w);
        if framed {
            self.frames.truncate(w);
        }
        if rolls {
            self.roll.truncate(w);
        }
        if planar {
            self.normals.truncate(w);
        }
        self.list_changed();
    }

    /// What the list keeps of contact `k` beside the record: its frame, rolling spring and 2D
    /// normal (None where not kept), for a ball that moves to another rank.
    pub(crate) fn moving(&self, k: usize) -> Moving {
        Moving {
            contact: self.list[k].clone(),
            frame: self.frames.get(k).copied(),
            roll: self.roll.get(k).copied(),
            normal: self.normals.get(k).copied(),
        }
    }

    /// Takes each contact of `records` (first ball, second ball, what moves of the contact)
    /// in place of the one between the same balls, or adds it where it sorts, with its
    /// frame, rolling spring and 2D normal where the list keeps them: a ball that moves to
    /// another rank brings its contacts' state. (An empty list keeps what the records carry.)
    pub(crate) fn adopt(&mut self, records: Vec<(u32, u32, Moving)>) {
        let fresh = self.list.is_empty();
        let framed =
            !self.frames.is_empty() || (fresh && records.iter().any(|r| r.2.frame.is_some()));
        let rolls = !self.roll.is_empty() || (fresh && records.iter().any(|r| r.2.roll.is_some()));
        let planar =
            !self.normals.is_empty() || (fresh && records.iter().any(|r| r.2.normal.is_some()));
        for (a, b, m) in records {
            // (a framed list takes no contact without its frame)
            if framed && m.frame.is_none() {
                continue;
            }
            let mut c = m.contact;
            (c.a, c.b) = (a, b);
            let key = c.key();
            let (roll, normal) = (m.roll.unwrap_or_default(), m.normal.unwrap_or_default());
            match self.list.binary_search_by_key(&key, Contact::key) {
                Ok(k) => {
                    self.list[k] = c;
                    if let (true, Some(f)) = (framed, m.frame) {
                        self.frames[k] = f;
                    }
                    if rolls {
                        self.roll[k] = roll;
                    }
                    if planar {
                        self.normals[k] = normal;
                    }
                }
                Err(k) => {
                    self.list.insert(k, c);
                    if let (true, Some(f)) = (framed, m.frame) {
                        self.frames.insert(k, f);
                    }
                    if rolls {
                        self.roll.insert(k, roll);
                    }
                    if planar {
                        self.normals.insert(k, normal);
                    }
                }
            }
        }
        self.list_changed();
    }

    /// After the balls changed in number (added at the end): the split between threads and
    /// the incidence lists are made again.
    pub(crate) fn balls_changed(&mut self) {
        self.partition.threads = 0;
        self.incidence_of = None;
    }

    /// After the list changed: zero forces and contact points (if kept), partition and
    /// incidence list to be made again.
    fn list_changed(&mut self) {
        let n = self.list.len();
        for (v, kept) in [
            (&mut self.force, self.general),
            (&mut self.point, self.gathered),
        ] {
            v.clear();
            if kept {
                v.resize(n, Vec3::zeros());
            }
        }
        self.work.clear();
        if self.gathered {
            self.work.resize(n, [0.0; 2]);
        }
        self.couple.clear();
        if self.couples {
            self.couple.resize(n, Vec3::zeros());
        }
        self.partition.threads = 0;
        self.incidence_of = None;
    }

    /// Makes room for `total` contacts in the list and the merge plan at once (see
    /// [`crate::storage::room`]), and in the side arrays the next merges will keep: the
    /// frames with `frames` (a contact model uses a local frame), the forces with `general`
    /// (frames, 2D or energy books: [`Contacts::merge`]), the contact points with
    /// [`Contacts::gathered`].
    pub fn make_room(&mut self, total: usize, frames: bool, general: bool) {
        crate::storage::room(&mut self.list, total);
        if general || self.gathered {
            crate::storage::room(&mut self.force, total);
        }
        if self.gathered {
            crate::storage::room(&mut self.point, total);
        }
        if frames {
            crate::storage::room(&mut self.frames, total);
        }
        crate::storage::room(&mut self.plan, total);
    }

    /// Replaces the list by the given candidate pairs (sorted, unique, a < b), keeping the state
    /// of contacts that persist and creating the new ones with `law_of(a, b)`; a contact that
    /// is no candidate any more stays when `holds` says so (its model holds it: a bond).
    ///
    /// O(contacts + pairs); in place, no allocation once the buffers have grown.
    ///
    /// `frames`: keep [`Contacts::frames`] aligned with the list (some contact model uses a
    /// local frame) or empty; `planar`: the same for [`Contacts::normals`]; `books`: the
    /// model keeps energy books. Every entry of the kept forces is zero afterwards when they
    /// are kept (`frames || planar || books`, or [`Contacts::gathered`]), and so is every
    /// entry of the contact points and losses when [`Contacts::gathered`] keeps them.
    pub fn merge(
        &mut self,
        pairs: &[(u32, u32)],
        law_of: impl Fn(u32, u32) -> u16,
        holds: impl Fn(&Contact) -> bool,
        frames: bool,
        planar: bool,
        books: bool,
    ) {
        super::merge_plan(
            &self.list,
            pairs,
            Contact::key,
            |&(a, b)| pair_key(a, b),
            holds,
            &mut self.plan,
        );
        let old_len = self.list.len();
        super::apply_plan(&mut self.list, &self.plan, |j| {
            let (a, b) = pairs[j];
            Contact::new(a, b, law_of(a, b))
        });
        super::side(frames, &mut self.frames, &self.plan, old_len, || {
            Frame::new(&Vec3::x(), 0.0)
        });
        super::side(planar, &mut self.normals, &self.plan, old_len, Vec3::zeros);
        let rolls = frames && self.couples;
        super::side(rolls, &mut self.roll, &self.plan, old_len, Vec3::zeros);
        self.general = frames || planar || books || self.gathered;
        self.books = books;
        self.list_changed();
    }
}

#[cfg(test)]
mod tests {
    use super::{Contact, Contacts, Frame, Moving};
    use crate::math::Vec3;

    /// A record between balls already in contact replaces that contact (state and frame); one
    /// between new balls goes where it sorts, its frame beside it.
    #[test]
    fn adopted_records_replace_or_join_in_order() {
        let frame = |x: f64| Frame::new(&Vec3::new(x, 0.0, 1.0).normalize(), 0.0);
        let mut c = Contacts {
            list: vec![Contact::new(1, 2, 0), Contact::new(2, 5, 0)],
            frames: vec![frame(0.1), frame(0.2)],
            ..Contacts::default()
        };
        let mut held = Contact::new(9, 9, 0);
        held.active = true;
        held.sliding = true;
        let with = |x: f64, contact: &Contact| Moving {
            contact: contact.clone(),
            frame: Some(frame(x)),
            ..Moving::default()
        };
        let records = vec![
            (1, 3, with(0.3, &held)),
            (1, 2, with(0.4, &held)),
            (0, 7, with(0.5, &held)),
        ];
        c.adopt(records);
        let keys: Vec<(u32, u32)> = c.list.iter().map(|x| (x.a, x.b)).collect();
        assert_eq!(keys, vec![(0, 7), (1, 2), (1, 3), (2, 5)]);
        let active: Vec<bool> = c.list.iter().map(|x| x.active && x.sliding).collect();
        assert_eq!(active, vec![true, true, true, false]);
        assert_eq!(
            c.frames,
            vec![frame(0.5), frame(0.4), frame(0.3), frame(0.2)]
        );
    }
}
