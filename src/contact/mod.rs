//! Contacts between pieces: the persistent lists, the geometry of each pair of shapes, and the
//! resolution of ball-wall contacts.

pub mod associative;
pub mod ball_ball;
pub mod ball_facet;
mod contacts;
mod facet_contacts;
mod frame;
pub mod full;

pub use contacts::{pair_key, Contact, Contacts, NO_LAW};
pub use facet_contacts::{FacetContact, FacetContacts, WallInteraction};
pub use frame::{initial_axes, Frame, FrameFlags, FrameStep};

/// Replaces `list` by one entry per candidate (both sorted by key): an entry whose key is
/// already in `list` is kept with its state, a new one is made by `make`; an old entry that
/// is no candidate any more is dropped unless `keep` says otherwise (a bond outlives the
/// broad phase). Returns the old buffer, to be passed back as `spare` next time (no
/// allocation once buffers have grown). O(list + candidates).
pub(crate) fn merge_sorted<T: Clone, C, K: Ord>(
    list: &mut Vec<T>,
    spare: Vec<T>,
    candidates: &[C],
    key: impl Fn(&T) -> K,
    candidate_key: impl Fn(&C) -> K,
    make: impl Fn(&C) -> T,
    keep: impl Fn(&T) -> bool,
) -> Vec<T> {
    let mut out = spare;
    out.clear();
    out.reserve(candidates.len());
    let mut k = 0;
    for c in candidates {
        let want = candidate_key(c);
        while k < list.len() && key(&list[k]) < want {
            if keep(&list[k]) {
                out.push(list[k].clone());
            }
            k += 1;
        }
        if k < list.len() && key(&list[k]) == want {
            out.push(list[k].clone());
            k += 1;
        } else {
            out.push(make(c));
        }
    }
    out.extend(list[k..].iter().filter(|t| keep(t)).cloned());
    std::mem::replace(list, out)
}
