//! Several ranks in one process, each on a thread of its own, exchanging through a shared
//! table of buffers ([`Hub`]).

use super::collective::Comm;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// One rank's handle on a table shared by `size` ranks: [`Hub::ranks`] makes them, one per
/// thread. An exchange writes this rank's outgoing buffers into its row, waits for every rank,
/// takes its column, and waits again (so that no rank writes the next exchange's row before
/// every rank has read this one's). A handle dropped by a thread that panics (moved into it)
/// stops the others at their next wait, with a panic of their own, rather than leave them
/// waiting for it forever.
pub struct Hub {
    rank: usize,
    shared: Arc<Shared>,
}

/// The table (`slots[from][to]`) and the barrier of a set of ranks.
struct Shared {
    size: usize,
    slots: Mutex<Vec<Vec<Vec<u8>>>>,
    /// The ranks arrived at the barrier, and the number of times it has opened.
    gate: Mutex<(usize, u64)>,
    opened: Condvar,
    /// A rank's thread panicked.
    gone: AtomicBool,
}

impl Shared {
    /// Waits until every rank has come (a barrier); panics when a rank's thread panicked.
    fn wait(&self) {
        let mut g = self.gate.lock().unwrap_or_else(|e| e.into_inner());
        let round = g.1;
        g.0 += 1;
        if g.0 == self.size {
            *g = (0, round + 1);
            self.opened.notify_all();
            return;
        }
        while g.1 == round {
            assert!(
                !self.gone.load(Ordering::SeqCst),
                "another rank stopped in the middle of the run (its thread panicked)"
            );
            let tick = Duration::from_millis(50);
            g = (self.opened.wait_timeout(g, tick))
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }
}

impl Drop for Hub {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.shared.gone.store(true, Ordering::SeqCst);
            self.shared.opened.notify_all();
        }
    }
}

impl Hub {
    /// The handles of `size` ranks sharing one table, by rank.
    pub fn ranks(size: usize) -> Vec<Hub> {
        let shared = Arc::new(Shared {
            size,
            slots: Mutex::new(vec![vec![Vec::new(); size]; size]),
            gate: Mutex::new((0, 0)),
            opened: Condvar::new(),
            gone: AtomicBool::new(false),
        });
        (0..size)
            .map(|rank| Hub {
                rank,
                shared: Arc::clone(&shared),
            })
            .collect()
    }
}

impl Comm for Hub {
    fn rank(&self) -> usize {
        self.rank
    }

    fn size(&self) -> usize {
        self.shared.size
    }

    fn exchange(&self, out: Vec<Vec<u8>>) -> Vec<Vec<u8>> {
        assert_eq!(out.len(), self.shared.size, "one buffer per rank");
        let lock = || self.shared.slots.lock().unwrap_or_else(|e| e.into_inner());
        lock()[self.rank] = out;
        self.shared.wait();
        let got = {
            let mut slots = lock();
            (0..self.shared.size)
                .map(|from| std::mem::take(&mut slots[from][self.rank]))
                .collect()
        };
        self.shared.wait();
        got
    }
}

#[cfg(test)]
mod tests {
    use super::Hub;
    use crate::comm::{Comm, Solo};
    use crate::math::ExactSum;

    /// Runs `work` on each of `size` ranks, each on its own thread; the results by rank.
    fn on_ranks<R: Send>(size: usize, work: impl Fn(&Hub) -> R + Sync) -> Vec<R> {
        let hubs = Hub::ranks(size);
        std::thread::scope(|s| {
            let handles: Vec<_> = hubs.iter().map(|h| s.spawn(|| work(h))).collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("rank"))
                .collect()
        })
    }

    /// A rank whose thread panics stops the others at their next exchange (they do not wait
    /// for it forever). Fails (hangs) with a plain barrier.
    #[test]
    fn a_rank_that_panics_stops_the_others() {
        let hubs = Hub::ranks(3);
        let ends: Vec<bool> = std::thread::scope(|s| {
            let handles: Vec<_> = (hubs.into_iter())
                .map(|h| {
                    s.spawn(move || {
                        h.exchange(vec![Vec::new(); 3]);
                        assert!(h.rank() != 1, "rank 1 fails");
                        h.exchange(vec![Vec::new(); 3]);
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().is_err()).collect()
        });
        assert_eq!(ends, vec![true; 3]);
    }

    #[test]
    fn each_rank_gets_what_each_sent_it() {
        let got = on_ranks(4, |h| {
            let out = (0..4).map(|to| vec![h.rank() as u8, to as u8]).collect();
            let a = h.exchange(out);
            // (a second exchange right after: the first one's buffers are not overwritten)
            let b = h.exchange((0..4).map(|to| vec![10 + to as u8]).collect());
            (a, b)
        });
        for (me, (a, b)) in got.iter().enumerate() {
            for (from, buf) in a.iter().enumerate() {
                assert_eq!(buf, &vec![from as u8, me as u8]);
            }
            assert!(b.iter().all(|buf| buf == &vec![10 + me as u8]));
        }
    }

    /// The collectives on 1 to 5 ranks give what one rank holding every value gives
    /// (the values cut among the ranks in turn), and the same on every rank.
    #[test]
    fn collectives_equal_one_rank_holding_everything() {
        let values: Vec<f64> = (0..97)
            .map(|k| ((k * 37 % 101) as f64 - 50.0) * 1.1e-3 + 1e7 * ((k % 3) as f64 - 1.0))
            .collect();
        let alone = {
            let mut s = ExactSum::new();
            values.iter().for_each(|&x| s.add(x));
            let mut sums = [s];
            Solo.sum_exact(&mut sums);
            (
                values.iter().copied().fold(f64::MIN, f64::max),
                sums[0].value(),
            )
        };
        for size in 1..=5 {
            let got = on_ranks(size, |h| {
                let mine: Vec<f64> = values
                    .iter()
                    .copied()
                    .skip(h.rank())
                    .step_by(size)
                    .collect();
                let mut s = [ExactSum::new()];
                mine.iter().for_each(|&x| s[0].add(x));
                h.sum_exact(&mut s);
                let top = h.max(mine.iter().copied().fold(f64::MIN, f64::max));
                let low = h.min(mine.iter().copied().fold(f64::MAX, f64::min));
                let any = h.any(h.rank() == size - 1);
                let n = h.sum_count(mine.len() as u64);
                (top, s[0].value(), low, any, n)
            });
            for (top, sum, low, any, n) in got {
                assert_eq!(top, alone.0, "{size} ranks");
                assert_eq!(sum.to_bits(), alone.1.to_bits(), "{size} ranks");
                assert_eq!(low, values.iter().copied().fold(f64::MAX, f64::min));
                assert!(any);
                assert_eq!(n, 97);
            }
        }
    }
}
