//! One timed run cut over ranks ([`run_ranked`]: `ballast bench-one --ranks N`, ranks as
//! threads of this process, or under `mpirun` with the build `--features mpi`): the speed of
//! the slowest rank, what the cut costs (ghosts, bytes sent, imbalance), and a fingerprint of
//! the final state that must be the same for any number of ranks.

use crate::comm::Comm;
use crate::model::Model;
use serde::Serialize;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

/// What one run over ranks measured: the same on every rank.
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct RankedRun {
    /// The case's name.
    pub case: String,
    /// Balls.
    pub n: usize,
    /// Steps timed.
    pub steps: u64,
    /// Ranks.
    pub ranks: usize,
    /// The ranks' bricks along x, y and z.
    pub bricks: [usize; 3],
    /// Threads per rank.
    pub threads: usize,
    /// The slowest rank's time in the cycle loop, s.
    pub loop_s: f64,
    /// Balls times steps over `loop_s`.
    pub particle_steps_per_s: f64,
    /// Ghosts at the end (summed over the ranks) over the balls.
    pub ghost_fraction: f64,
    /// The most balls a rank owns at the end over the mean.
    pub imbalance: f64,
    /// Bytes the ranks sent each other per step (the exchanges of balls; summed over ranks).
    pub bytes_per_step: f64,
    /// Exchanges per step (each an all-to-all between the ranks; a collective is one).
    pub exchanges_per_step: f64,
    /// Balls that changed rank.
    pub moved: u64,
    /// Rebuilds of the candidate pairs (each an exchange of balls).
    pub rebuilds: u64,
    /// Times the cuts between the bricks moved to share the balls out evenly
    /// ([`crate::cycle::Rank::rebalance`]).
    pub rebalances: u64,
    /// The largest imbalance before the cuts moved (0 when they never moved).
    pub imbalance_before: f64,
    /// FNV-1a (64 bits) of every ball's id, position, velocity and spin in id order, as hex
    /// ([`fingerprint`]): the same for one process and any number of ranks.
    pub fingerprint: String,
}

/// Runs `steps` cycles (default: the case's) of the case at `path` on the ranks of `comm`
/// (every rank calls it together), cut into `bricks` (default: [`Model::choose_bricks`]); the cycle loop is timed after the first forces.
///
/// # Errors
/// A case that does not load or build, what [`Model::ranked`] refuses, a run that blows up.
pub fn run_ranked(
    path: &Path,
    steps: Option<u64>,
    comm: &dyn Comm,
    bricks: Option<[usize; 3]>,
) -> Result<RankedRun, String> {
    let case = crate::case::load(path).map_err(|e| e.to_string())?;
    let model = case.build_model(None).map_err(|e| e.to_string())?;
    let steps = (steps.or(case.file.run.steps)).ok_or_else(|| {
        format!(
            "{}: give --steps (the case has no [run] steps)",
            path.display()
        )
    })?;
    let n = model.balls.len();
    let count = bricks.unwrap_or_else(|| model.choose_bricks(comm.size()));
    let counted = Counted {
        comm,
        exchanges: AtomicU64::new(0),
    };
    let (mut m, mut rank) = model.ranked(&counted, count)?;
    rank.rebalance = case.rebalance;
    m.prime_on_rank(&mut rank).map_err(|e| e.to_string())?;
    let t0 = std::time::Instant::now();
    let before = counted.exchanges.load(Ordering::Relaxed);
    for _ in 0..steps {
        m.cycle_on_rank(&mut rank).map_err(|e| e.to_string())?;
    }
    let exchanges = counted.exchanges.load(Ordering::Relaxed) - before;
    let loop_s = comm.max(t0.elapsed().as_secs_f64());
    let ghosts = rank.ghost.iter().filter(|&&g| g).count() as u64;
    let owned = |i: usize| !rank.ghost[i];
    Ok(RankedRun {
        case: case.name.clone(),
        n,
        steps,
        ranks: comm.size(),
        bricks: count,
        threads: rayon::current_num_threads(),
        loop_s,
        particle_steps_per_s: n as f64 * steps as f64 / loop_s,
        ghost_fraction: comm.sum_count(ghosts) as f64 / n as f64,
        imbalance: rank.imbalance(),
        bytes_per_step: comm.sum_count(rank.sent) as f64 / steps as f64,
        exchanges_per_step: exchanges as f64 / steps as f64,
        moved: comm.sum_count(rank.arrived as u64),
        rebuilds: rank.rebuilds as u64,
        rebalances: rank.rebalanced.len() as u64,
        imbalance_before: (rank.rebalanced.iter()).fold(0.0, |m: f64, r| m.max(r.1)),
        fingerprint: format!("{:016x}", fingerprint(&m, owned, comm)),
    })
}

/// The ranks of `comm`, counting this rank's exchanges.
struct Counted<'c> {
    comm: &'c dyn Comm,
    exchanges: AtomicU64,
}

impl Comm for Counted<'_> {
    fn rank(&self) -> usize {
        self.comm.rank()
    }

    fn size(&self) -> usize {
        self.comm.size()
    }

    fn exchange(&self, out: Vec<Vec<u8>>) -> Vec<Vec<u8>> {
        self.exchanges.fetch_add(1, Ordering::Relaxed);
        self.comm.exchange(out)
    }
}

/// FNV-1a (64 bits) over each ball's id, position, velocity and spin (little-endian bytes)
/// in id order, of the balls `owned` says this rank owns, gathered from every rank of `comm`
/// (one process: `crate::comm::Solo` and every ball).
pub fn fingerprint(m: &Model, owned: impl Fn(usize) -> bool, comm: &dyn Comm) -> u64 {
    let b = &m.balls;
    let mut mine: Vec<u8> = Vec::new();
    for i in (0..b.len()).filter(|&i| owned(i)) {
        mine.extend(b.id[i].to_le_bytes());
        for v in [b.pos[i], b.vel[i], b.spin[i]] {
            for x in [v.x, v.y, v.z] {
                mine.extend(x.to_le_bytes());
            }
        }
    }
    let mut rows: Vec<&[u8]> = Vec::new();
    let all = comm.gather_all(mine);
    for part in &all {
        rows.extend(part.chunks_exact(80));
    }
    rows.sort_unstable_by_key(|r| u64::from_le_bytes(r[..8].try_into().unwrap_or([0; 8])));
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in rows.concat() {
        h ^= byte as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}
