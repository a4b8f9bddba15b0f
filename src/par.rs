//! Parallel helpers: the size above which per-ball loops run on several threads, slices cut
//! into ranges, and a fork-join over a few large parts.
//!
//! Fork-join over a few large parts (one per thread), for the force pass of the frame-free
//! loop ([`crate::model::Model::cycle`]) and the law of motion that follows its ranges
//! ([`crate::motion::step`]): part `r` of both is the same range of balls, and with two
//! threads range 0 runs on the caller and range 1 on the other thread, so each range's
//! lines stay in one core's cache from one region to the next.
//!
//! A step on 10,000 balls and two threads takes about 400 µs, with two joins. When the calling
//! thread finishes its part first and waits for the other in rayon's join, it yields for a
//! while and then sleeps; waking a sleeping thread goes through the kernel, and on a virtual
//! machine through the hypervisor (an idle virtual CPU halts): measured on the settle-box
//! scene, 20 µs per join on average. Here the caller runs part 0 and then spins (a bounded
//! time, [`SPIN_LIMIT`]) until the parts other threads have started are done; a part no other
//! thread has started is left to the scope's end, which runs it on the caller. One part runs
//! on the caller with no scope (a scope entered from outside the pool would hand it to a
//! pool thread and wait). The result is the same as any fork-join: each part's result in its
//! slot.

use std::sync::atomic::{AtomicU8, Ordering};
use std::time::{Duration, Instant};

/// Below this many balls the per-ball loops (law of motion, the broad phase's rebuild test)
/// run on one thread.
pub const PARALLEL_BALLS: usize = 4096;

/// `v` cut at `bounds` (increasing, first 0, last `v.len()`): one mutable slice per range.
pub fn split<'a, T>(mut v: &'a mut [T], bounds: &[usize]) -> Vec<&'a mut [T]> {
    let mut parts = Vec::with_capacity(bounds.len().saturating_sub(1));
    for w in bounds.windows(2) {
        let (head, tail) = std::mem::take(&mut v).split_at_mut(w[1] - w[0]);
        parts.push(head);
        v = tail;
    }
    parts
}

/// Below this many contacts the force loop runs on one thread (threads cost more than they save).
pub const PARALLEL_CONTACTS: usize = 4096;

/// The longest the caller spins for a started part before it waits in rayon's way (a part of
/// these regions takes well under this; longer means the other thread was descheduled).
pub const SPIN_LIMIT: Duration = Duration::from_millis(2);

/// A part not taken yet.
const WAITING: u8 = 0;
/// A part another thread is running.
const STARTED: u8 = 1;
/// A part done.
const DONE: u8 = 2;

/// Runs `work(r, part)` for every part `r` (part 0 on the calling thread, the others as
/// rayon tasks) and returns the results in part order (module documentation).
pub fn run_parts<T: Send, R: Send + Default>(
    parts: Vec<T>,
    work: impl Fn(usize, T) -> R + Sync,
) -> Vec<R> {
    if parts.len() == 1 {
        return parts.into_iter().map(|p| work(0, p)).collect();
    }
    let mut out: Vec<R> = (0..parts.len()).map(|_| R::default()).collect();
    let state: Vec<AtomicU8> = (0..parts.len()).map(|_| AtomicU8::new(WAITING)).collect();
    let mut parts = parts.into_iter();
    let (Some(first), Some((out0, rest))) = (parts.next(), out.split_first_mut()) else {
        return out;
    };
    rayon::scope(|s| {
        let work = &work;
        for ((r, part), (slot, flag)) in parts.enumerate().zip(rest.iter_mut().zip(&state[1..])) {
            s.spawn(move |_| {
                flag.store(STARTED, Ordering::Relaxed);
                *slot = work(r + 1, part);
                flag.store(DONE, Ordering::Release);
            });
        }
        *out0 = work(0, first);
        let t = Instant::now();
        for flag in &state[1..] {
            while flag.load(Ordering::Acquire) == STARTED && t.elapsed() < SPIN_LIMIT {
                std::hint::spin_loop();
            }
        }
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every part runs once, with its own index, and its result lands in its slot, for one
    /// to five parts on a pool of two threads (more parts than threads: the caller runs the
    /// ones nobody took).
    #[test]
    fn every_part_runs_once_in_its_slot() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .expect("a pool of two threads");
        for n in 0..6 {
            let parts: Vec<usize> = (0..n).map(|r| 10 * r).collect();
            let out = pool.install(|| run_parts(parts, |r, p| (r, p + 1)));
            let expected: Vec<(usize, usize)> = (0..n).map(|r| (r, 10 * r + 1)).collect();
            assert_eq!(out, expected);
        }
    }
}
