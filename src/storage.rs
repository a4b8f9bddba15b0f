//! How the engine's growing arrays get their memory.

/// Bytes the model takes per ball, with its share of contacts, candidate pairs and cells: an
/// upper figure (the settle-box bench's peak resident memory is 0.5 to 1.5 KiB per ball).
pub const BALL_BYTES: u64 = 2048;

/// Bytes the model takes per wall facet (corners, normal, edges, neighbours, grid cells): an
/// upper figure.
pub const FACET_BYTES: u64 = 1024;

/// Bytes one recorded value takes in the series table.
pub const RECORD_BYTES: u64 = 8;

/// The memory this run may use, bytes: what the system reports as available (`MemAvailable` of
/// /proc/meminfo), or 16 GiB where that cannot be read.
pub fn available_bytes() -> u64 {
    std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|m| {
            m.lines()
                .find_map(|l| l.strip_prefix("MemAvailable:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        })
        .map_or(16 << 30, |kib| kib.saturating_mul(1024))
}

/// Refuses `count` items of `each` bytes when they would not fit in the available memory,
/// before anything is allocated: the sentence gives the count, the bytes it needs and the
/// bytes there are.
pub fn fits(count: u64, each: u64) -> Result<(), String> {
    let need = count.saturating_mul(each);
    let have = available_bytes();
    if need <= have {
        Ok(())
    } else {
        Err(format!(
            "{count} would need about {} of memory ({each} bytes each); {} is available",
            bytes(need),
            bytes(have)
        ))
    }
}

/// `b` bytes in a unit a reader takes in at a glance.
pub fn bytes(b: u64) -> String {
    let b = b as f64;
    if b >= (1u64 << 40) as f64 {
        format!("{:.3e} TiB", b / (1u64 << 40) as f64)
    } else if b >= (1u64 << 30) as f64 {
        format!("{:.1} GiB", b / (1u64 << 30) as f64)
    } else {
        format!("{:.1} MiB", b / (1u64 << 20) as f64)
    }
}

/// The 64-bit FNV-1a hash of `bytes` (stable across versions and machines: it names a case
/// file in its checkpoints and guards a checkpoint's payload).
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// A hasher for ids (u64 keys we make or read, never chosen to collide): one multiply and a
/// rotation, several times faster than the default SipHash on a million ids.
#[derive(Clone, Copy, Default)]
pub struct IdHasher(u64);

impl std::hash::Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

/// A set of ids hashed by [`IdHasher`].
pub type IdSet = std::collections::HashSet<u64, std::hash::BuildHasherDefault<IdHasher>>;

/// Writes a set of ids in increasing order (serde's `serialize_with`): a hash set's own order
/// depends on its history and capacity (a set read back from a checkpoint has other room than
/// the one that grew and shrank in the run), and a checkpoint's bytes should not. It reads
/// back as any set does.
///
/// # Errors
/// The serializer's.
pub fn sorted_ids<S: serde::Serializer>(ids: &IdSet, s: S) -> Result<S::Ok, S::Error> {
    let mut v: Vec<u64> = ids.iter().copied().collect();
    v.sort_unstable();
    serde::Serialize::serialize(&v, s)
}

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

/// The new index of each item when only those `keep` marks stay (in their order), or
/// `u32::MAX` for one that goes.
pub fn renumbered(keep: &[bool]) -> Vec<u32> {
    let mut next = 0u32;
    (keep.iter())
        .map(|&k| {
            if !k {
                return u32::MAX;
            }
            next += 1;
            next - 1
        })
        .collect()
}

/// Sorts `list` by `key` and moves the entries of the arrays aligned with it (such as the
/// contacts' frames) with its own, without a copy of any: the indices are sorted, then the
/// permutation is applied in place, cycle by cycle, by swaps (4 bytes per entry, not a second
/// array of each); `swap_sides(i, j)` swaps the side arrays' entries `i` and `j` as the list's
/// are swapped. `key` must tell every entry apart (then the order does not depend on the
/// sort).
pub fn sort_along<T, K: Ord>(
    list: &mut [T],
    key: impl Fn(&T) -> K,
    mut swap_sides: impl FnMut(usize, usize),
) {
    let mut order: Vec<u32> = (0..list.len() as u32).collect();
    order.sort_unstable_by_key(|&k| key(&list[k as usize]));
    // position `at` takes the entry now at `order[at]`; a visited position is marked
    const DONE: u32 = u32::MAX;
    for start in 0..order.len() {
        let mut at = start;
        while order[at] != DONE {
            let from = order[at] as usize;
            order[at] = DONE;
            if from == start {
                break;
            }
            list.swap(at, from);
            swap_sides(at, from);
            at = from;
        }
    }
}

/// Writes `bytes` to `path` whole or not at all: into `<path>.tmp` beside it, flushed to disk,
/// then renamed over `path` (a rename within a folder is atomic). An interrupted or failed
/// write leaves the old file or none, never a torn one.
///
/// # Errors
/// I/O errors (the temporary file is removed).
pub fn write_atomic(path: &std::path::Path, bytes: impl AsRef<[u8]>) -> std::io::Result<()> {
    use std::io::Write as _;
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = std::path::PathBuf::from(tmp);
    let written = std::fs::File::create(&tmp).and_then(|mut f| {
        f.write_all(bytes.as_ref())?;
        f.sync_all()
    });
    match written.and_then(|_| std::fs::rename(&tmp, path)) {
        Ok(()) => Ok(()),
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            Err(e)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::sort_along;

    /// Random lists (lengths 0 to 300, distinct keys) sorted with a side array: the list comes
    /// out as the standard sort gives it, and each side entry still sits with its own entry.
    #[test]
    fn the_side_array_follows_its_entries() {
        // (a linear congruential generator: rng is on this module's floor)
        let mut state = 7u64;
        let mut next = || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            state >> 11
        };
        for n in (0..300).step_by(7) {
            let mut list: Vec<u64> = (0..n as u64).map(|k| k * 1000 + next() % 997).collect();
            // a shuffle (Fisher-Yates)
            for k in (1..list.len()).rev() {
                let j = (next() % (k as u64 + 1)) as usize;
                list.swap(k, j);
            }
            let mut side: Vec<String> = list.iter().map(|x| format!("side of {x}")).collect();
            let mut want = list.clone();
            want.sort_unstable();
            sort_along(&mut list, |&x| x, |i, j| side.swap(i, j));
            assert_eq!(list, want);
            for (x, s) in list.iter().zip(&side) {
                assert_eq!(s, &format!("side of {x}"));
            }
        }
    }
}
