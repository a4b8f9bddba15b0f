//! The persistent contact list: a flat vector sorted by the pair of piece indices.

use super::Frame;
use crate::law::LawState;
use crate::math::{Real, Vec3};

/// Marks a pair of materials that has no contact model (never created: the model refuses it).
pub const NO_LAW: u16 = u16::MAX;

/// A contact between two balls `a < b` (indices into [`crate::model::Balls`]).
///
/// A contact exists while the extents of its pieces overlap (at the last rebuild of the
/// broad phase); it is *active*, and carries force, only while the pieces overlap.
#[derive(Clone, Debug)]
pub struct Contact {
    /// Index of the first ball (the smaller index).
    pub a: u32,
    /// Index of the second ball.
    pub b: u32,
    /// Index of the contact model in [`crate::model::Model::laws`].
    pub law: u16,
    /// True while the pieces overlap and the contact carries force.
    pub active: bool,
    /// Overlap r_a + r_b - |x_b - x_a|, m (negative: gap; -inf for a pair clearly apart, whose
    /// gap the force loop does not compute: [`super::ball_ball::geometry`] gives it).
    pub overlap: Real,
    /// Unit normal from a to b (world frame); with `point` and `radius`, current while the
    /// pieces touch (or nearly: within round-off), stale for a pair clearly apart.
    pub normal: Vec3,
    /// Contact point, m (world frame): the middle of the overlap region along the normal.
    pub point: Vec3,
    /// Effective radius r_a r_b / (r_a + r_b), m.
    pub radius: Real,
    /// The contact model's state (local coordinates).
    pub state: LawState,
    /// Normal force on b along the normal, N (elastic + dashpot; > 0 pushes apart).
    pub normal_force: Real,
    /// Total force on b, N (world frame); a receives its opposite.
    pub force: Vec3,
}

impl Contact {
    /// A new, inactive contact with no history.
    pub fn new(a: u32, b: u32, law: u16) -> Self {
        Contact {
            a,
            b,
            law,
            active: false,
            overlap: Real::NEG_INFINITY,
            normal: Vec3::zeros(),
            point: Vec3::zeros(),
            radius: 0.0,
            state: LawState::default(),
            normal_force: 0.0,
            force: Vec3::zeros(),
        }
    }

    /// The elastic shear force on b in the world frame, N: the model's state turned out of the
    /// contact's local `frame` ([`Contacts::frames`]). Frame-based models only: the history
    /// models keep the shear displacement in `state.shear` (their total force is in `force`).
    pub fn shear_force(&self, frame: &Frame) -> Vec3 {
        frame.to_world(&self.state.shear)
    }

    /// The sort key of the pair.
    #[inline]
    pub fn key(&self) -> u64 {
        pair_key(self.a, self.b)
    }
}

/// Sort key of a pair of piece indices (a < b).
#[inline]
pub fn pair_key(a: u32, b: u32) -> u64 {
    ((a as u64) << 32) | b as u64
}

/// The contact list, sorted by [`Contact::key`], with a spare buffer reused by each merge.
#[derive(Clone, Debug, Default)]
pub struct Contacts {
    /// The contacts, sorted by pair.
    pub list: Vec<Contact>,
    /// The local frame of each contact (seed 002; made when the contact becomes active), in a
    /// side array aligned with `list`; empty when no contact model of the model uses a frame
    /// (the history models), so that their force loop streams only the compact contacts.
    pub frames: Vec<Frame>,
    spare: Vec<Contact>,
    spare_frames: Vec<Frame>,
    plan: Vec<super::Slot>,
    /// For each ball `i`, its contacts are `incidence[start[i]..start[i + 1]]`, each entry
    /// `2 k + side` (k the contact's index, side 0 when the ball is `a`, 1 when `b`), in
    /// increasing k: the gather sums each ball's contacts in list order, as a sequential pass
    /// over the list would, so it can run in parallel over balls with the same result.
    pub incidence: Vec<u32>,
    /// Start of each ball's run in `incidence` (one more entry than balls).
    pub start: Vec<u32>,
    /// Per contact, written by each force update: the force on b (zero when inactive) and the
    /// contact point: what the gather reads.
    pub out: Vec<[Vec3; 2]>,
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

    /// The contact of a pair of ball indices, in either order.
    pub fn find(&self, i: u32, j: u32) -> Option<&Contact> {
        let key = pair_key(i.min(j), i.max(j));
        self.list
            .binary_search_by_key(&key, |c| c.key())
            .ok()
            .map(|k| &self.list[k])
    }

    /// Rebuilds [`Contacts::incidence`] for `balls` balls (after each merge). O(contacts + balls).
    pub fn build_incidence(&mut self, balls: usize) {
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

    /// Replaces the list by the given candidate pairs (sorted, unique, a < b), keeping the state
    /// of contacts that persist and creating the new ones with `law_of(a, b)`.
    ///
    /// O(contacts + pairs); no allocation once the buffers have grown.
    ///
    /// `frames`: keep [`Contacts::frames`] aligned with the list (some contact model uses a
    /// local frame) or empty.
    pub fn merge(&mut self, pairs: &[(u32, u32)], law_of: impl Fn(u32, u32) -> u16, frames: bool) {
        super::merge_plan(
            &self.list,
            pairs,
            Contact::key,
            |&(a, b)| pair_key(a, b),
            |c| c.state.bonded,
            &mut self.plan,
        );
        let spare = std::mem::take(&mut self.spare);
        self.spare = super::apply_plan(&mut self.list, spare, &self.plan, |j| {
            let (a, b) = pairs[j];
            Contact::new(a, b, law_of(a, b))
        });
        if frames {
            if self.frames.len() != self.spare.len() {
                // the frames were not kept so far: every old contact gets a fresh one
                self.frames = vec![Frame::new(&Vec3::x(), 0.0); self.spare.len()];
            }
            let spare = std::mem::take(&mut self.spare_frames);
            self.spare_frames = super::apply_plan(&mut self.frames, spare, &self.plan, |_| {
                Frame::new(&Vec3::x(), 0.0)
            });
        } else {
            self.frames.clear();
        }
    }
}
