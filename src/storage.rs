//! How the engine's growing arrays get their memory.

/// Gives `v` a capacity of at least `total` in one step (no-op when it has it). The long
/// lists (contacts, their forces, candidate pairs) get their room this way, in one or two
/// large steps, instead of doubling a dozen times while a packing forms: every doubling
/// leaves the old block behind in the allocator's heap, and those holes stay resident
/// (settle-box Hooke, 50,000 balls: 47.3 to 40.8 MiB peak with room for the contact lists).
/// Room that is never written costs address space only, not resident memory.
pub fn room<T>(v: &mut Vec<T>, total: usize) {
    if v.capacity() < total {
        v.reserve_exact(total - v.len());
    }
}
