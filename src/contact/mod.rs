//! Contacts between pieces: the persistent lists, the geometry of each pair of shapes, and the
//! resolution of ball-wall contacts.

pub mod associative;
pub mod ball_ball;
pub mod ball_facet;
mod contacts;
mod facet_contacts;

pub use contacts::{pair_key, Contact, Contacts, NO_LAW};
pub use facet_contacts::{FacetContact, FacetContacts, WallInteraction};

use crate::math::Vec3;

/// Replaces `list` by one entry per candidate (both sorted by key): an entry whose key is
/// already in `list` is kept with its state, a new one is made by `make`. Returns the old
/// buffer, to be passed back as `spare` next time (no allocation once buffers have grown).
/// O(list + candidates).
pub(crate) fn merge_sorted<T: Clone, C, K: Ord>(
    list: &mut Vec<T>,
    spare: Vec<T>,
    candidates: &[C],
    key: impl Fn(&T) -> K,
    candidate_key: impl Fn(&C) -> K,
    make: impl Fn(&C) -> T,
) -> Vec<T> {
    let mut out = spare;
    out.clear();
    out.reserve(candidates.len());
    let mut k = 0;
    for c in candidates {
        let want = candidate_key(c);
        while k < list.len() && key(&list[k]) < want {
            k += 1;
        }
        if k < list.len() && key(&list[k]) == want {
            out.push(list[k].clone());
            k += 1;
        } else {
            out.push(make(c));
        }
    }
    std::mem::replace(list, out)
}

/// Turns a shear force into the plane normal to `n`, keeping its magnitude.
///
/// NOTE: a stand-in for the incremental rotation of the local contact frame (seed 002, issue
/// #6): it keeps the magnitude but not the part of the rotation about the normal.
#[inline]
pub(crate) fn turn_shear(shear: &mut Vec3, n: &Vec3) {
    let old = shear.norm();
    if old > 0.0 {
        let proj = *shear - n * shear.dot(n);
        let len = proj.norm();
        *shear = if len > 0.0 {
            proj * (old / len)
        } else {
            Vec3::zeros()
        };
    }
}
