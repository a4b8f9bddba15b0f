//! Several ranks in one process, each on a thread of its own, exchanging through a shared
//! table of buffers ([`Hub`]).

use super::collective::Comm;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// One rank's handle on two tables shared by `size` ranks: [`Hub::ranks`] makes them, one per
/// thread. An exchange writes this rank's outgoing buffers into its row of one table, waits for
/// every rank, and takes its column. The exchanges use the tables in turn: a rank writes the
/// next exchange's row in the other table, and it can come back to this one only after every
/// rank has reached the next exchange, so after every rank has taken its column of this one
/// (one wait per exchange). A handle dropped by a thread that panics (moved into it) stops the
/// others at their next wait, with a panic of their own, rather than leave them waiting for it
/// forever.
pub struct Hub {
    rank: usize,
    shared: Arc<Shared>,
    /// The exchanges this rank has made (the parity picks the table).
    made: AtomicU64,
}

/// How many times a rank checks whether the barrier opened before it sleeps, when every rank
/// has a core of its own (with more ranks than cores, a spinning rank holds the core of the one
/// it waits for: it sleeps at once).
const SPINS: usize = 4000;

/// The two tables (`slots[turn][from][to]`) and the barrier of a set of ranks.
struct Shared {
    size: usize,
    /// [`SPINS`], or none with more ranks than cores.
    spins: usize,
    slots: [Mutex<Vec<Vec<Vec<u8>>>>; 2],
    /// The ranks arrived at the barrier, and the number of times it has opened.
    gate: Mutex<(usize, u64)>,
    opened: Condvar,
    /// The number of times the barrier has opened, read without the lock by the ranks that
    /// spin before they sleep.
    rounds: AtomicU64,
    /// A rank's thread panicked.
    gone: AtomicBool,
}

impl Shared {
    /// Waits until every rank has come (a barrier); panics when a rank's thread panicked. A
    /// rank first spins for a few microseconds (the others, on other cores, are usually
    /// about to come: waking from a sleep takes tens of microseconds), then sleeps.
    fn wait(&self) {
        let lock = || self.gate.lock().unwrap_or_else(|e| e.into_inner());
        let round = {
            let mut g = lock();
            let round = g.1;
            g.0 += 1;
            if g.0 == self.size {
                *g = (0, round + 1);
                self.rounds.store(round + 1, Ordering::Release);
                self.opened.notify_all();
                return;
            }
            round
        };
        for _ in 0..self.spins {
            if self.rounds.load(Ordering::Acquire) != round {
                return;
            }
            std::hint::spin_loop();
        }
        let mut g = lock();
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
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let shared = Arc::new(Shared {
            size,
            spins: if size <= cores { SPINS } else { 0 },
            slots: std::array::from_fn(|_| Mutex::new(vec![vec![Vec::new(); size]; size])),
            gate: Mutex::new((0, 0)),
            rounds: AtomicU64::new(0),
            opened: Condvar::new(),
            gone: AtomicBool::new(false),
        });
        (0..size)
            .map(|rank| Hub {
                rank,
                shared: Arc::clone(&shared),
                made: AtomicU64::new(0),
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
        let turn = (self.made.fetch_add(1, Ordering::Relaxed) % 2) as usize;
        let table = &self.shared.slots[turn];
        let lock = || table.lock().unwrap_or_else(|e| e.into_inner());
        lock()[self.rank] = out;
        self.shared.wait();
        let mut slots = lock();
        (0..self.shared.size)
            .map(|from| std::mem::take(&mut slots[from][self.rank]))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::Hub;
    use crate::comm::{Comm, Solo};
    use crate::math::ExactSum;
    use std::time::Duration;

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

    /// Many exchanges in a row, one rank slower than the others now and then: each buffer
    /// taken is the one sent for that exchange. Fails with one table and one wait per
    /// exchange (a fast rank writes its next row before a slow one took this one's column).
    #[test]
    fn exchanges_in_a_row_do_not_mix() {
        let rounds = 3000u32;
        // (the ranks own their handles, so that one panicking stops the others; and a
        // watchdog turns a hang into a failure)
        let (done, ends) = std::sync::mpsc::channel();
        for h in Hub::ranks(3) {
            let done = done.clone();
            std::thread::spawn(move || {
                let mut wrong = 0;
                for k in 0..rounds {
                    if h.rank() == 2 && k % 7 == 0 {
                        std::thread::yield_now();
                    }
                    let out = (0..3)
                        .map(|to| [k, h.rank() as u32, to].map(u32::to_le_bytes).concat())
                        .collect();
                    for (from, buf) in h.exchange(out).iter().enumerate() {
                        let expected = [k, from as u32, h.rank() as u32].map(u32::to_le_bytes);
                        wrong += usize::from(buf != &expected.concat());
                    }
                }
                done.send(wrong).expect("the test waits");
            });
        }
        let wrong: Vec<usize> = (0..3)
            .map(|_| {
                ends.recv_timeout(Duration::from_secs(120))
                    .expect("the ranks hung")
            })
            .collect();
        assert_eq!(wrong, vec![0; 3]);
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
