//! The targets of issue #8: `hertz-history` and `hooke-history` against LIGGGHTS, two threads
//! against one, the cost per particle-step over N, the memory, and the agreement of the
//! packings.

use super::cells::{memory_slope, met, page_model as model_of};
use super::peers::{peer_pairs, PeerRow};
use crate::bench::{BenchRun, LIGGGHTS};
use crate::report::html::table;

/// The side-by-side files: for each N the newest that has it, with its rows at that N.
type PeersByN = [(std::path::PathBuf, Vec<PeerRow>)];

/// The section of issue #8's targets, judged on the settle-box `runs` and on the side-by-side
/// runs of `peers_by_n`; a sentence when none applies.
pub(super) fn targets_section(runs: &[BenchRun], peers_by_n: &PeersByN) -> String {
    let mut t = vec![["target", "measured", "verdict"].map(String::from).to_vec()];
    for m in ["hertz", "hooke"] {
        for n in [10000, 50000] {
            speed_targets(&mut t, runs, peers_by_n, m, n);
        }
        for n in [1000, 10000, 50000] {
            let two = runs
                .iter()
                .find(|r| model_of(r) == m && r.n == n && r.threads == 2);
            if let (Some(a), Some(b)) = (one(runs, m, n), two) {
                let s = b.particle_steps_per_s / a.particle_steps_per_s;
                t.push(vec![
                    format!("{m}, N = {n}: 2 threads at least 1.8 × one thread"),
                    format!("{s:.2} ×"),
                    met(s >= 1.8),
                ]);
            }
        }
        cost_and_memory_targets(&mut t, runs, m);
        for n in [1000, 10000, 50000] {
            if let (Some(r), Some(l)) = (one(runs, m, n), ligg(m, n)) {
                let dp = (r.pp as f64 - l.3 as f64) / l.3 as f64;
                let dz = (r.mean_z - l.5) / l.5;
                t.push(vec![
                    format!("{m}, N = {n}: contacts and mean height within 2 % of LIGGGHTS"),
                    format!("contacts {:+.2} %, mean z {:+.2} %", 100.0 * dp, 100.0 * dz),
                    met(dp.abs() <= 0.02 && dz.abs() <= 0.02),
                ]);
            }
        }
    }
    let targets = if t.len() > 1 {
        table(&t)
    } else {
        "<p>No target of issue #8 applies to this run: they judge <code>hertz-history</code> \
         and <code>hooke-history</code>.</p>"
            .to_string()
    };
    format!("<h2>Targets (issue #8)</h2>{targets}")
}

/// RESULTS.md's LIGGGHTS row of model `m` at N = `n`.
fn ligg(m: &str, n: usize) -> Option<&'static (&'static str, usize, f64, usize, usize, f64)> {
    LIGGGHTS.iter().find(|l| l.0 == m && l.1 == n)
}

/// The one-thread run of model `m` at N = `n`.
fn one<'a>(runs: &'a [BenchRun], m: &str, n: usize) -> Option<&'a BenchRun> {
    runs.iter()
        .find(|r| model_of(r) == m && r.n == n && r.threads == 1)
}

/// At least 2 × LIGGGHTS on one core: against RESULTS.md's figure, and against LIGGGHTS run
/// beside it in the same hour (the side-by-side file that has N = `n`).
fn speed_targets(
    t: &mut Vec<Vec<String>>,
    runs: &[BenchRun],
    peers_by_n: &PeersByN,
    m: &str,
    n: usize,
) {
    if let (Some(r), Some(l)) = (one(runs, m, n), ligg(m, n)) {
        let ratio = r.particle_steps_per_s / 1e6 / l.2;
        t.push(vec![
            format!(
                "{m}, N = {n}: at least 2 × LIGGGHTS on one core ({:.2} Mps/s)",
                2.0 * l.2
            ),
            format!(
                "{:.3} Mps/s = {ratio:.2} × LIGGGHTS",
                r.particle_steps_per_s / 1e6
            ),
            met(ratio >= 2.0),
        ]);
    }
    let peers = (peers_by_n.iter()).find(|(_, rows)| rows.iter().any(|r| r.n == n));
    let peers_path = peers
        .and_then(|(p, _)| p.file_name())
        .map_or(String::new(), |f| f.to_string_lossy().into_owned());
    let pairs = peers.map_or(Vec::new(), |(_, rows)| peer_pairs(rows));
    let same = (pairs.iter()).find(|(l, b)| l.model == m && l.n == n && b.par == 1);
    if let Some((l, b)) = same {
        let ratio = b.mps / l.mps;
        t.push(vec![
            format!(
                "{m}, N = {n}: at least 2 × LIGGGHTS on one core, the same machine and hour \
                 ({})",
                peers_path
            ),
            format!("{:.3} Mps/s against {:.3} = {ratio:.2} ×", b.mps, l.mps),
            met(ratio >= 2.0),
        ]);
    }
}

/// The cost per particle-step flat within 20 % over N, and the peak memory at most 0.5 KiB
/// per particle beyond a fixed base (one thread).
fn cost_and_memory_targets(t: &mut Vec<Vec<String>>, runs: &[BenchRun], m: &str) {
    let costs: Vec<(usize, f64)> = runs
        .iter()
        .filter(|r| model_of(r) == m && r.threads == 1)
        .map(|r| (r.n, 1e6 / r.particle_steps_per_s))
        .collect();
    if costs.len() >= 2 {
        let lo = costs.iter().map(|c| c.1).fold(f64::INFINITY, f64::min);
        let hi = costs.iter().map(|c| c.1).fold(0.0, f64::max);
        t.push(vec![
            format!("{m}: cost per particle-step flat within 20 % over N"),
            format!(
                "{:.3} to {:.3} µs ({:+.1} %)",
                lo,
                hi,
                100.0 * (hi - lo) / lo
            ),
            met(hi <= 1.2 * lo),
        ]);
    }
    let one_thread = runs.iter().filter(|r| model_of(r) == m && r.threads == 1);
    if let Some((slope, a, b)) = memory_slope(one_thread) {
        t.push(vec![
            format!("{m}: peak memory at most 0.5 KiB per particle beyond a fixed base"),
            format!("{slope:.3} KiB per particle (N = {a} to {b})"),
            met(slope <= 0.5),
        ]);
    }
}
