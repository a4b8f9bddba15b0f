//! Merging sorted lists in place: the contact lists take the broad phase's new candidates,
//! keep the state of the contacts that stay, and drop the others.

/// Where each entry of a merged list comes from: an old entry (its index) or a new candidate
/// (its index), see [`merge_plan`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
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

/// Rebuilds `list` from a plan ([`merge_plan`]) in place: old entries are moved to their new
/// places, new ones made by `make(candidate index)`. No second buffer: the list only grows
/// (or shrinks) to the plan's length.
///
/// The old indices of the plan increase with its slots, so an old entry moves left, stays, or
/// moves right. The left moves go first, in increasing order, each swapping its entry with
/// the position's dead content; then the right moves, in decreasing order. Neither pass writes
/// over an entry that a later move reads (a position is overwritten only after its own old
/// entry has moved or when that entry is dropped), and the new entries are made last, in the
/// positions left over. O(plan).
pub(crate) fn apply_plan<T>(list: &mut Vec<T>, plan: &[Slot], make: impl Fn(usize) -> T) {
    if plan.len() > list.len() {
        // (a longer plan has new entries: the first one fills the places to be written)
        let first_new = plan.iter().find_map(|s| match *s {
            Slot::New(j) => Some(j as usize),
            Slot::Old(_) => None,
        });
        if let Some(j) = first_new {
            list.resize_with(plan.len(), || make(j));
        }
    }
    for (p, s) in plan.iter().enumerate() {
        if let Slot::Old(i) = *s {
            if i as usize > p {
                list.swap(p, i as usize);
            }
        }
    }
    for (p, s) in plan.iter().enumerate().rev() {
        if let Slot::Old(i) = *s {
            if (i as usize) < p {
                list.swap(p, i as usize);
            }
        }
    }
    list.truncate(plan.len());
    for (p, s) in plan.iter().enumerate() {
        if let Slot::New(j) = *s {
            list[p] = make(j as usize);
        }
    }
}

/// [`merge_plan`] then [`apply_plan`] on one list (`make` builds an entry from a candidate).
pub(crate) fn merge_sorted<T, C, K: Ord>(
    list: &mut Vec<T>,
    candidates: &[C],
    key: impl Fn(&T) -> K,
    candidate_key: impl Fn(&C) -> K,
    make: impl Fn(&C) -> T,
    keep: impl Fn(&T) -> bool,
    plan: &mut Vec<Slot>,
) {
    merge_plan(list, candidates, key, candidate_key, keep, plan);
    apply_plan(list, plan, |j| make(&candidates[j]));
}

/// Keeps a side array aligned with the list through a merge `plan` (`keep`), or empties it.
/// `old_len`: the list's length before the merge (a side array not kept so far gets a fresh
/// entry for every old contact first).
pub(crate) fn side<T: Clone>(
    keep: bool,
    values: &mut Vec<T>,
    plan: &[Slot],
    old_len: usize,
    fresh: impl Fn() -> T,
) {
    if !keep {
        values.clear();
        return;
    }
    if values.len() != old_len {
        *values = vec![fresh(); old_len];
    }
    apply_plan(values, plan, |_| fresh());
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The in-place merge gives the list a second buffer would: for random sorted lists and
    /// candidates (lists that grow, shrink, and keep some old entries that are no candidate),
    /// the result equals the one built entry by entry from the definition (each candidate's
    /// old entry if there is one, else a new one, with the kept old entries in key order).
    #[test]
    fn the_in_place_merge_equals_the_definition() {
        let mut rng = crate::rng::SplitMix64::new(5);
        for round in 0..300 {
            let draw = |rng: &mut crate::rng::SplitMix64, n: usize, p: f64| {
                (0..n as u32)
                    .filter(|_| rng.next_unit() < p)
                    .collect::<Vec<u32>>()
            };
            let span = 1 + round % 60;
            let (po, pc) = (0.1 + 0.8 * rng.next_unit(), 0.1 + 0.8 * rng.next_unit());
            // old entries: (key, tag); tag 1 = kept although no candidate
            let old: Vec<(u32, u32)> = draw(&mut rng, span, po)
                .into_iter()
                .map(|k| (k, (rng.next_unit() < 0.2) as u32))
                .collect();
            let candidates = draw(&mut rng, span, pc);
            let mut expected: Vec<(u32, u32)> = Vec::new();
            for k in 0..span as u32 {
                let was = old.iter().find(|e| e.0 == k);
                if candidates.contains(&k) {
                    expected.push(was.copied().unwrap_or((k, 7)));
                } else if let Some(&e) = was.filter(|e| e.1 == 1) {
                    expected.push(e);
                }
            }
            let mut list = old.clone();
            let mut plan = Vec::new();
            merge_sorted(
                &mut list,
                &candidates,
                |e| e.0,
                |&c| c,
                |&c| (c, 7),
                |e| e.1 == 1,
                &mut plan,
            );
            assert_eq!(list, expected, "old {old:?}, candidates {candidates:?}");
        }
    }

    /// Once the list has room for the merge's result, merging neither grows nor moves it;
    /// without room, the same merge grows it (its capacity changes: Vec's own policy, not
    /// the allocator's).
    #[test]
    fn a_list_with_room_is_not_moved_by_a_merge() {
        let grow = |list: &mut Vec<u32>| {
            let candidates: Vec<u32> = (0..1000).collect();
            let mut plan = Vec::new();
            merge_sorted(
                list,
                &candidates,
                |&e| e,
                |&c| c,
                |&c| c,
                |_| false,
                &mut plan,
            );
            assert_eq!(*list, candidates);
        };
        let mut list: Vec<u32> = (0..10).collect();
        crate::storage::room(&mut list, 1000);
        assert!(list.capacity() >= 1000 && list.len() == 10);
        let (before, capacity) = (list.as_ptr(), list.capacity());
        grow(&mut list);
        assert_eq!(list.as_ptr(), before, "moved although it had room");
        assert_eq!(list.capacity(), capacity, "grew although it had room");
        let mut list: Vec<u32> = (0..10).collect();
        list.shrink_to_fit();
        let capacity = list.capacity();
        grow(&mut list);
        assert!(
            list.capacity() > capacity,
            "without room the list must grow (test premise)"
        );
    }
}
