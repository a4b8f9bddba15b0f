//! Ball-facet contacts in a flat list sorted by (ball, wall, facet), and the ball-wall
//! interactions: each interaction is the run of contacts of one ball with one wall.

use super::Frame;
use crate::geom::{Region, NONE};
use crate::law::LawState;
use crate::math::{Real, Vec3};

/// Counts of what the full mode did in one interaction in one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FullStats {
    /// Contacts made inactive by the line-of-sight check.
    pub hidden: u32,
    /// States handed from one facet contact to another (and carried on an imaged plane).
    pub handovers: u32,
    /// Proximity contacts acting.
    pub proximity: u32,
}

impl FullStats {
    /// The counts of both, summed.
    pub fn plus(&self, o: &FullStats) -> FullStats {
        FullStats {
            hidden: self.hidden + o.hidden,
            handovers: self.handovers + o.handovers,
            proximity: self.proximity + o.proximity,
        }
    }
}

/// A contact between a ball and one facet of a wall (seed 001, "Faceted Wall Contact
/// Resolution").
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct FacetContact {
    /// Ball index.
    pub ball: u32,
    /// Wall index.
    pub wall: u32,
    /// Facet index within the wall.
    pub facet: u32,
    /// Index of the contact model.
    pub law: u16,
    /// Where the wall contact point lies on the facet.
    pub region: Region,
    /// True while the contact carries force (overlap > 0, an active side, and no linked
    /// contact with a larger overlap).
    pub active: bool,
    /// True when the ball overlaps the facet from an active side (a candidate for activity).
    pub touching: bool,
    /// Whether the contact was active in the previous cycle (set with the geometry, before
    /// the resolution decides the new activity; for the energy books).
    pub was_active: bool,
    /// Whether the contact carried a proximity contact in the previous cycle (set with
    /// `was_active`; for the energy books).
    pub was_carrier: bool,
    /// Overlap `R - d`, m, with `d` the distance from the ball centre to the wall contact point.
    pub overlap: Real,
    /// The overlap of the previous cycle, m (as the force update used it: a proximity
    /// contact's mean overlap), for the stiffness of the contact's spring then.
    pub overlap_prev: Real,
    /// Unit normal from the ball centre towards the wall contact point.
    pub normal: Vec3,
    /// The wall contact point: the point of the facet closest to the ball centre, m.
    pub wall_point: Vec3,
    /// The contact point `x + (R - overlap/2) n`: the middle of the overlap, m.
    pub point: Vec3,
    /// The contact point and the normal of the previous cycle (as the force update used them),
    /// for the energy books.
    pub point_prev: Vec3,
    /// See `point_prev`.
    pub normal_prev: Vec3,
    /// The contact model's state (local coordinates).
    pub state: LawState,
    /// True until the contact's frame is made (at its first active cycle): a contact that was
    /// not active in the previous cycle (or received a state handed over, full mode).
    pub fresh: bool,
    /// Full mode: the facet number of the carrier of the proximity contact this contact
    /// belongs to (the carrier's own facet for the carrier), or [`NONE`] ([`super::full`]).
    pub pc: u32,
    /// Normal force on the ball along `-normal`, N (> 0 pushes the ball off the wall).
    pub normal_force: Real,
    /// Total force on the ball, N; the wall receives its opposite.
    pub force: Vec3,
}

impl FacetContact {
    /// A new contact with no history.
    pub fn new(ball: u32, wall: u32, facet: u32, law: u16) -> Self {
        FacetContact {
            ball,
            wall,
            facet,
            law,
            region: Region::Face,
            active: false,
            touching: false,
            was_active: false,
            was_carrier: false,
            overlap: Real::NEG_INFINITY,
            overlap_prev: Real::NEG_INFINITY,
            normal: Vec3::zeros(),
            wall_point: Vec3::zeros(),
            point: Vec3::zeros(),
            point_prev: Vec3::zeros(),
            normal_prev: Vec3::zeros(),
            state: LawState::default(),
            fresh: true,
            pc: NONE,
            normal_force: 0.0,
            force: Vec3::zeros(),
        }
    }

    /// Sort key: (ball, wall, facet).
    #[inline]
    pub fn key(&self) -> (u32, u32, u32) {
        (self.ball, self.wall, self.facet)
    }
}

/// The resultant of one ball-wall interaction.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct WallInteraction {
    /// Ball index.
    pub ball: u32,
    /// Wall index.
    pub wall: u32,
    /// Its contacts: `FacetContacts::list[start..end]`.
    pub start: u32,
    /// End of its contacts.
    pub end: u32,
    /// Number of active contacts.
    pub active: u32,
    /// Resultant contact force on the ball, N.
    pub force: Vec3,
    /// Resultant contact moment on the ball about its centroid, N m.
    pub moment: Vec3,
    /// Energy its contacts' models lost in the last cycle, J: what they report
    /// ([`crate::law::ContactForce::dissipated`]), and what the tangential springs held at the
    /// end of the previous cycle that no contact received (a state dropped when the active
    /// contact moves to another facet in the reduced mode; negative when the full mode's
    /// resolution gives one state to two contacts). Written only when the model keeps energy
    /// books.
    pub dissipated: Real,
    /// The normal springs' share of the integration error in the last cycle, J
    /// ([`crate::law::ContactModel::normal_loss`]). Written only with energy books.
    pub integration: Real,
    /// What the full mode (and an imaged plane) did in it in the last cycle: a run cut over
    /// ranks counts its own balls' ([`FacetContacts::handovers`]).
    pub stats: FullStats,
}

/// Every ball-facet contact and the interactions they form.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct FacetContacts {
    /// The contacts, sorted by (ball, wall, facet).
    pub list: Vec<FacetContact>,
    /// The local contact frame of each contact (seed 002; piece 1 the wall, piece 2 the
    /// ball, normal from the wall to the ball; set when the contact becomes active), in a
    /// side array aligned with `list`; empty when no contact model uses a frame (the history
    /// models), so that the wall phase streams the records alone (a frame would add 120 bytes
    /// to each).
    pub frames: Vec<Frame>,
    /// The couple of rolling resistance on the ball of each contact (world, N m; zero
    /// without one; the wall receives its opposite), aligned with `list` by each force pass
    /// when some contact model has a rolling resistance, else empty (24 bytes a contact that
    /// the other scenes do not stream).
    pub couple: Vec<Vec3>,
    /// The rolling spring's moment on the ball of each contact in its local frame (N m; the
    /// state of its model's rolling resistance, zero until the contact touches), aligned
    /// with `list` when frames are kept and some contact model has a rolling resistance
    /// ([`FacetContacts::merge`]), else empty; it follows its frame (the full mode's
    /// hand-overs move both).
    pub roll: Vec<Vec3>,
    /// The ball-wall interactions, sorted by (ball, wall); rebuilt by every force update.
    pub interactions: Vec<WallInteraction>,
    /// Full mode, and imaged planes in either mode ([`carry_on_surface`]): contact states
    /// handed from one facet to another since the start.
    pub handovers: u64,
    /// Full mode: contacts made inactive by the line-of-sight check in the last cycle.
    pub hidden: u32,
    /// Full mode: proximity contacts acting in the last cycle.
    pub proximity: u32,
    /// The merge's work array (not kept in a checkpoint).
    #[serde(skip)]
    plan: Vec<super::Slot>,
}

impl FacetContacts {
    /// Number of active contacts.
    pub fn active_count(&self) -> usize {
        self.list.iter().filter(|c| c.active).count()
    }

    /// The interaction of a ball with a wall, if their extents overlap.
    pub fn interaction(&self, ball: u32, wall: u32) -> Option<&WallInteraction> {
        self.interactions
            .binary_search_by_key(&(ball, wall), |i| (i.ball, i.wall))
            .ok()
            .map(|k| &self.interactions[k])
    }

    /// The contacts of an interaction.
    pub fn contacts_of(&self, i: &WallInteraction) -> &[FacetContact] {
        &self.list[i.start as usize..i.end as usize]
    }

    /// Makes room for `total` contacts in the list, the merge plan and the interactions at
    /// once (see [`crate::storage::room`]), and in the frames with `frames` (a contact model
    /// uses a local frame: [`FacetContacts::merge`] keeps them).
    pub fn make_room(&mut self, total: usize, frames: bool) {
        crate::storage::room(&mut self.list, total);
        if frames {
            crate::storage::room(&mut self.frames, total);
        }
        crate::storage::room(&mut self.plan, total);
        crate::storage::room(&mut self.interactions, total);
    }

    /// Replaces the list by the candidates (sorted, unique), keeping the state of contacts
    /// that persist; new ones get `law_of(ball, wall)`; a contact that is no candidate any
    /// more is dropped unless `keep` says otherwise (the active contact of a ball brought
    /// back into a periodic cell onto another facet of an imaged plane: it hands its state
    /// over in the next force pass, [`carry_on_surface`], and goes at the next rebuild).
    /// `frames`: keep [`FacetContacts::frames`] aligned with the list, or empty it; `rolls`:
    /// the same for [`FacetContacts::roll`] (with `frames` only).
    pub fn merge(
        &mut self,
        candidates: &[(u32, u32, u32)],
        law_of: impl Fn(u32, u32) -> u16,
        keep: impl Fn(&FacetContact) -> bool,
        frames: bool,
        rolls: bool,
    ) {
        let old_len = self.list.len();
        super::merge_sorted(
            &mut self.list,
            candidates,
            FacetContact::key,
            |&c| c,
            |&(b, w, f)| FacetContact::new(b, w, f, law_of(b, w)),
            keep,
            &mut self.plan,
        );
        super::side(frames, &mut self.frames, &self.plan, old_len, || {
            Frame::new(&Vec3::x(), 0.0)
        });
        let rolls = frames && rolls;
        super::side(rolls, &mut self.roll, &self.plan, old_len, Vec3::zeros);
        self.rebuild_interactions();
    }

    /// Renumbers the balls: ball `i` becomes `new_of[i]`; the list is sorted again and the
    /// interactions rebuilt (a ball-facet contact's state does not depend on the numbering).
    pub(crate) fn renumber(&mut self, new_of: &[u32]) {
        for c in &mut self.list {
            c.ball = new_of[c.ball as usize];
        }
        if self.frames.is_empty() {
            self.list.sort_unstable_by_key(FacetContact::key);
        } else {
            // (the frames and rolling springs follow their contacts, in place; a ball-facet
            // frame does not turn over: the ball stays the ball)
            let (frames, roll) = (&mut self.frames, &mut self.roll);
            let rolls = !roll.is_empty();
            crate::storage::sort_along(&mut self.list, FacetContact::key, |i, j| {
                frames.swap(i, j);
                if rolls {
                    roll.swap(i, j);
                }
            });
        }
        self.rebuild_interactions();
    }

    /// Removes balls: ball `i` becomes `new_of[i]`, or is gone (with its contacts) when that
    /// is `u32::MAX`; the order of the kept contacts does not change.
    pub(crate) fn drop_balls(&mut self, new_of: &[u32]) {
        let (framed, rolls) = (!self.frames.is_empty(), !self.roll.is_empty());
        // (the couples of the last force update, when it kept them)
        let couples = !self.couple.is_empty() && self.couple.len() == self.list.len();
        if !couples {
            self.couple.clear();
        }
        let mut w = 0;
        for k in 0..self.list.len() {
            let ball = new_of[self.list[k].ball as usize];
            if ball == u32::MAX {
                continue;
            }
            self.list.swap(w, k);
            self.list[w].ball = ball;
            if framed {
                self.frames.swap(w, k);
            }
            if rolls {
                self.roll.swap(w, k);
            }
            if couples {
                self.couple.swap(w, k);
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
        if couples {
            self.couple.truncate(w);
        }
        // (the interactions of the balls that stay keep what the last force update left in
        // them: a model resumed on ranks reads them before its first force update)
        let before = std::mem::take(&mut self.interactions);
        self.rebuild_interactions();
        let stayed = (before.into_iter()).filter(|it| new_of[it.ball as usize] != u32::MAX);
        for (now, was) in self.interactions.iter_mut().zip(stayed) {
            if (now.ball, now.wall) == (new_of[was.ball as usize], was.wall) {
                *now = WallInteraction {
                    ball: now.ball,
                    start: now.start,
                    end: now.end,
                    ..was
                };
            }
        }
    }

    /// Takes the contacts of balls that came from another rank: every contact held of a ball
    /// named in `records` goes, and each record (the ball, its contact with the state, the
    /// frame and the rolling spring when they are kept) takes its place where it sorts.
    pub(crate) fn adopt(&mut self, records: Vec<(u32, FacetContact, Option<Frame>, Vec3)>) {
        if records.is_empty() {
            return;
        }
        let framed = !self.frames.is_empty()
            || (self.list.is_empty() && records.iter().any(|r| r.2.is_some()));
        let rolls = framed && !self.roll.is_empty();
        let arriving: std::collections::HashSet<u32> = records.iter().map(|r| r.0).collect();
        let unset = || Frame::new(&Vec3::x(), 0.0);
        let mut frames = std::mem::take(&mut self.frames).into_iter();
        let mut roll = std::mem::take(&mut self.roll).into_iter();
        let mut rows: Vec<(FacetContact, Option<Frame>, Vec3)> = (std::mem::take(&mut self.list))
            .into_iter()
            .map(|c| (c, frames.next(), roll.next().unwrap_or_else(Vec3::zeros)))
            .filter(|r| !arriving.contains(&r.0.ball))
            .collect();
        rows.extend(records.into_iter().map(|(ball, mut c, f, r)| {
            c.ball = ball;
            (c, f, r)
        }));
        // (keys are unique: a ball's contacts come from one rank)
        rows.sort_unstable_by_key(|r| r.0.key());
        for (c, f, r) in rows {
            self.list.push(c);
            if framed {
                self.frames.push(f.unwrap_or_else(unset));
            }
            if rolls {
                self.roll.push(r);
            }
        }
        self.rebuild_interactions();
    }

    /// For groups of consecutive interactions cut at `cuts` (interaction indices, first 0,
    /// last their number): where each group's contacts start in the list (and the list's
    /// length), and the same for the frames (all 0 when no frames are kept, so that every
    /// group gets an empty slice of them).
    pub(crate) fn group_starts(&self, cuts: &[usize]) -> (Vec<usize>, Vec<usize>) {
        let (its, total) = (&self.interactions, self.list.len());
        // (the interactions' runs tile the list in order)
        debug_assert!(its.windows(2).all(|w| w[0].end == w[1].start));
        debug_assert!(its.first().map_or(total == 0, |it| it.start == 0));
        debug_assert!(its.last().map_or(total == 0, |it| it.end as usize == total));
        let starts: Vec<usize> = (cuts.iter())
            .map(|&k| {
                self.interactions
                    .get(k)
                    .map_or(total, |it| it.start as usize)
            })
            .collect();
        let frame_starts = if self.frames.is_empty() {
            vec![0; starts.len()]
        } else {
            starts.clone()
        };
        (starts, frame_starts)
    }

    /// The couple of contact `k` (zero when none are kept).
    #[inline]
    pub fn couple_of(&self, k: usize) -> Vec3 {
        self.couple.get(k).copied().unwrap_or_else(Vec3::zeros)
    }

    /// Keeps what the full mode did in this cycle.
    pub(crate) fn keep_stats(&mut self, s: &FullStats) {
        self.hidden = s.hidden;
        self.proximity = s.proximity;
        self.handovers += s.handovers as u64;
    }

    /// Recomputes the runs of contacts of each (ball, wall) pair (resultants zeroed).
    pub(crate) fn rebuild_interactions(&mut self) {
        self.interactions.clear();
        let mut k = 0;
        while k < self.list.len() {
            let (ball, wall) = (self.list[k].ball, self.list[k].wall);
            let start = k;
            while k < self.list.len() && self.list[k].ball == ball && self.list[k].wall == wall {
                k += 1;
            }
            self.interactions.push(WallInteraction {
                ball,
                wall,
                start: start as u32,
                end: k as u32,
                active: 0,
                force: Vec3::zeros(),
                moment: Vec3::zeros(),
                dissipated: 0.0,
                integration: 0.0,
                stats: FullStats::default(),
            });
        }
    }
}

/// The contacts of one ball with an imaged plane ([`crate::body::Wall::imaged`]) are one
/// contact: the plane stands for an unbounded one, and its facets (stretched past the cell's
/// faces, their edges wherever the mesh put them) are not features of the surface. So when a
/// contact of the interaction has just become active (`fresh`, in no proximity contact) while
/// one that held the state in the last cycle no longer is (not `fresh`, inactive), the whole
/// state goes over: the model's state, the frame (turned onto the new facet's normal, its
/// normal displacement kept: the overlap goes on) and the rolling spring. This is how the
/// state follows a ball across an edge of the mesh in either resolution mode (the reduced
/// mode drops it at a real edge; the full mode hands over the shear force only), and across a
/// face of the cell: there the ball is brought back at a rebuild onto another facet, and the
/// merge keeps its old active contact for that one cycle ([`FacetContacts::merge`]'s `keep`).
/// Called after the associative logic, before the full mode's resolution (which then finds
/// nothing to hand over) and before the forces. `frames` and `rolls` are aligned with
/// `contacts` or empty. Returns the number of states carried.
pub fn carry_on_surface(
    contacts: &mut [FacetContact],
    (frames, rolls): (&mut [Frame], &mut [Vec3]),
) -> u32 {
    let mut count = 0;
    let mut from = 0;
    for to in 0..contacts.len() {
        let c = &contacts[to];
        if !(c.active && c.fresh && c.pc == NONE) {
            continue;
        }
        // the next contact (in facet order) that held a state and lost its activity
        let Some(k) = (from..contacts.len()).find(|&k| {
            let s = &contacts[k];
            !s.active && !s.fresh && s.law == contacts[to].law
        }) else {
            break;
        };
        from = k + 1;
        if !frames.is_empty() {
            let mut frame = frames[k];
            frame.reaim(&-contacts[to].normal);
            frames[to] = frame;
        }
        if !rolls.is_empty() {
            rolls[to] = rolls[k];
        }
        let state = contacts[k].state;
        let c = &mut contacts[to];
        c.state = state;
        c.fresh = false;
        count += 1;
    }
    count
}
