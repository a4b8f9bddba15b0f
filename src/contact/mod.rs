//! Contacts between pieces: the persistent lists, the geometry of each pair of shapes, and the
//! resolution of ball-wall contacts.

pub mod associative;
pub mod ball_ball;
pub mod ball_facet;
mod contacts;
mod facet_contacts;
mod frame;
pub mod full;
pub mod lanes;
mod partition;

pub use contacts::{pair_key, Contact, Contacts, NO_LAW};
pub use facet_contacts::{FacetContact, FacetContacts, WallInteraction};
pub use frame::{initial_axes, Frame, FrameFlags, FrameStep};
pub use partition::Partition;

/// Where each entry of a merged list comes from: an old entry (its index) or a new candidate
/// (its index), see [`merge_plan`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Slot {
    /// The old list's entry at this index, kept with its state.
    Old(u32),
    /// A new entry made from the candidate at this index.
    New(u32),
}

/// Plans the merge of `list` with `candidates` (both sorted by key): one slot per candidate,
/// the old entry when its key is already in `list`, a new one otherwise; an old entry that is
/// no candidate any more is dropped unless `keep` says otherwise (a bond outlives the broad
/// phase). The plan goes into `plan` (cleared first). O(list + candidates).
pub(crate) fn merge_plan<T, C, K: Ord>(
    list: &[T],
    candidates: &[C],
    key: impl Fn(&T) -> K,
    candidate_key: impl Fn(&C) -> K,
    keep: impl Fn(&T) -> bool,
    plan: &mut Vec<Slot>,
) {
    plan.clear();
    plan.reserve(candidates.len());
    let mut k = 0;
    for (j, c) in candidates.iter().enumerate() {
        let want = candidate_key(c);
        while k < list.len() && key(&list[k]) < want {
            if keep(&list[k]) {
                plan.push(Slot::Old(k as u32));
            }
            k += 1;
        }
        if k < list.len() && key(&list[k]) == want {
            plan.push(Slot::Old(k as u32));
            k += 1;
        } else {
            plan.push(Slot::New(j as u32));
        }
    }
    plan.extend(
        (k..list.len())
            .filter(|&i| keep(&list[i]))
            .map(|i| Slot::Old(i as u32)),
    );
}

/// Rebuilds `list` from a plan ([`merge_plan`]): old entries are copied, new ones made by
/// `make(candidate index)`. `spare` is the buffer to fill; the old buffer is returned, to be
/// passed back as `spare` next time (no allocation once buffers have grown).
pub(crate) fn apply_plan<T: Clone>(
    list: &mut Vec<T>,
    spare: Vec<T>,
    plan: &[Slot],
    make: impl Fn(usize) -> T,
) -> Vec<T> {
    let mut out = spare;
    out.clear();
    out.extend(plan.iter().map(|s| match *s {
        Slot::Old(i) => list[i as usize].clone(),
        Slot::New(j) => make(j as usize),
    }));
    std::mem::replace(list, out)
}

/// [`merge_plan`] then [`apply_plan`] on one list (`make` builds an entry from a candidate).
#[allow(clippy::too_many_arguments)]
pub(crate) fn merge_sorted<T: Clone, C, K: Ord>(
    list: &mut Vec<T>,
    spare: Vec<T>,
    candidates: &[C],
    key: impl Fn(&T) -> K,
    candidate_key: impl Fn(&C) -> K,
    make: impl Fn(&C) -> T,
    keep: impl Fn(&T) -> bool,
    plan: &mut Vec<Slot>,
) -> Vec<T> {
    merge_plan(list, candidates, key, candidate_key, keep, plan);
    apply_plan(list, spare, plan, |j| make(&candidates[j]))
}
