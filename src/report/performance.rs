//! The Performance page: the settle-box benchmark against LIGGGHTS, the targets and what
//! limits the loop.

use super::code::code_link;
use super::html::*;
use super::markdown::render;
use crate::record::{Curve, Plot};
use std::fmt::Write as _;
use std::path::Path;

/// Writes `reports/performance.html` from benchmark runs (`ballast bench`, issue #8): the table
/// with the ratios to LIGGGHTS, the targets, throughput against N and threads, and where the
/// time goes.
///
/// # Errors
/// I/O errors.
pub fn write_performance_page(
    reports: &Path,
    runs: &[crate::bench::BenchRun],
    partial: bool,
) -> std::io::Result<()> {
    use crate::bench::LIGGGHTS;
    // (the runs with the automatic timestep have a section of their own, beside the fixed
    // step's; the others are the fixed step's)
    let (auto, fixed): (Vec<_>, Vec<_>) = (runs.iter().cloned()).partition(crate::bench::is_auto);
    // (the settle-box's runs; the drum's have a section of their own)
    let (drum, mut settle): (Vec<_>, Vec<_>) = (fixed.iter())
        .filter(|&r| !r.source.starts_with("timestep_"))
        .cloned()
        .partition(|r| crate::bench::scene_of(r) == "drum");
    // (in the order of the models' list, then N, then threads)
    let order = |r: &crate::bench::BenchRun| {
        let m = crate::bench::MODELS
            .iter()
            .position(|m| m.0 == crate::bench::model_of(r));
        (m.unwrap_or(usize::MAX), r.n, r.threads)
    };
    settle.sort_by_key(order);
    let runs = &settle[..];
    use self::page_model as model_of;
    let ligg = |m: &str, n: usize| LIGGGHTS.iter().find(|l| l.0 == m && l.1 == n);
    let one = |m: &str, n: usize| {
        runs.iter()
            .find(|r| model_of(r) == m && r.n == n && r.threads == 1)
    };
    let mut h = String::new();
    let mut machines: Vec<&str> = (runs.iter().map(|r| r.machine.as_str()))
        .filter(|m| !m.is_empty())
        .collect();
    machines.sort_unstable();
    machines.dedup();
    let machine = if machines.is_empty() {
        "a processor not recorded (results written before the thirteenth round)".to_string()
    } else {
        machines.join("; ")
    };
    h.push_str(&render(
        include_str!("text/performance_intro.md"),
        &[
            ("history_rs", code_link(reports, "src/law/history.rs::step")),
            (
                "generate_rs",
                code_link(reports, "src/generate.rs::settle_box"),
            ),
            ("bench_rs", code_link(reports, "src/bench.rs::run_one")),
            (
                "loop_rs",
                code_link(reports, "src/force/ranges.rs::frame_run"),
            ),
            ("machine", esc(&machine)),
        ],
    ));
    let mut rows = vec![[
        "model",
        "N",
        "threads",
        "steps",
        "loop (s)",
        "Mps/s",
        "µs per particle-step",
        "LIGGGHTS 1 core (Mps/s)",
        "ratio",
        "contacts pp (LIGGGHTS)",
        "wall contacts nw (LIGGGHTS)",
        "mean z, m (LIGGGHTS)",
        "KE trans (J)",
        "peak memory (MiB)",
    ]
    .map(String::from)
    .to_vec()];
    for r in runs
        .iter()
        .filter(|r| ["hertz", "hooke"].contains(&model_of(r)))
    {
        let m = model_of(r);
        let l = ligg(m, r.n);
        let mps = r.particle_steps_per_s / 1e6;
        let rel = |a: f64, b: f64| format!("{:+.2} %", 100.0 * (a - b) / b);
        rows.push(vec![
            m.into(),
            r.n.to_string(),
            r.threads.to_string(),
            r.steps.to_string(),
            format!("{:.2}", r.loop_s),
            format!("{mps:.3}"),
            format!("{:.3}", 1e6 / r.particle_steps_per_s),
            l.map_or("-".into(), |l| format!("{}", l.2)),
            l.map_or("-".into(), |l| format!("{:.2}", mps / l.2)),
            l.map_or(r.pp.to_string(), |l| {
                format!("{} ({}, {})", r.pp, l.3, rel(r.pp as f64, l.3 as f64))
            }),
            l.map_or(r.nw.to_string(), |l| {
                format!("{} ({}, {})", r.nw, l.4, rel(r.nw as f64, l.4 as f64))
            }),
            l.map_or(format!("{:.5e}", r.mean_z), |l| {
                format!("{:.5e} ({}, {})", r.mean_z, l.5, rel(r.mean_z, l.5))
            }),
            format!("{:.2e}", r.ke_trans),
            format!("{:.1}", r.peak_rss_kib as f64 / 1024.0),
        ]);
    }
    // (a bench of other models only has no row here: a sentence, not an empty table)
    let none =
        "<p>This run has no row of the models LIGGGHTS also computes (<code>hertz-history</code>, \
                <code>hooke-history</code>); its models are in the next section.</p>";
    let results = if rows.len() > 1 {
        let shown = runs
            .iter()
            .filter(|r| ["hertz", "hooke"].contains(&model_of(r)));
        format!("{}{}", table(&rows), measured_in(shown))
    } else {
        none.to_string()
    };
    let _ = write!(h, "<h2>Results</h2>{results}");
    // Targets.
    let mut t = vec![["target", "measured", "verdict"].map(String::from).to_vec()];
    // (for each N, the newest side-by-side file that has it)
    let peers_by_n: Vec<(std::path::PathBuf, Vec<PeerRow>)> = [1000, 10000, 50000]
        .into_iter()
        .filter_map(|n| peers_at(Path::new("benches/results"), n))
        .collect();
    let verdict = |ok: bool| if ok { "met" } else { "MISSED" }.to_string();
    for m in ["hertz", "hooke"] {
        for n in [10000, 50000] {
            if let (Some(r), Some(l)) = (one(m, n), ligg(m, n)) {
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
                    verdict(ratio >= 2.0),
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
                    format!(
                        "{:.3} Mps/s against {:.3} = {ratio:.2} ×",
                        b.mps, l.mps
                    ),
                    verdict(ratio >= 2.0),
                ]);
            }
        }
        for n in [1000, 10000, 50000] {
            let two = runs
                .iter()
                .find(|r| model_of(r) == m && r.n == n && r.threads == 2);
            if let (Some(a), Some(b)) = (one(m, n), two) {
                let s = b.particle_steps_per_s / a.particle_steps_per_s;
                t.push(vec![
                    format!("{m}, N = {n}: 2 threads at least 1.8 × one thread"),
                    format!("{s:.2} ×"),
                    verdict(s >= 1.8),
                ]);
            }
        }
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
                verdict(hi <= 1.2 * lo),
            ]);
        }
        let one_thread = runs.iter().filter(|r| model_of(r) == m && r.threads == 1);
        if let Some((slope, a, b)) = memory_slope(one_thread) {
            t.push(vec![
                format!("{m}: peak memory at most 0.5 KiB per particle beyond a fixed base"),
                format!("{slope:.3} KiB per particle (N = {a} to {b})"),
                verdict(slope <= 0.5),
            ]);
        }
        for n in [1000, 10000, 50000] {
            if let (Some(r), Some(l)) = (one(m, n), ligg(m, n)) {
                let dp = (r.pp as f64 - l.3 as f64) / l.3 as f64;
                let dz = (r.mean_z - l.5) / l.5;
                t.push(vec![
                    format!("{m}, N = {n}: contacts and mean height within 2 % of LIGGGHTS"),
                    format!("contacts {:+.2} %, mean z {:+.2} %", 100.0 * dp, 100.0 * dz),
                    verdict(dp.abs() <= 0.02 && dz.abs() <= 0.02),
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
    let _ = write!(h, "<h2>Targets (issue #8)</h2>{targets}");
    let same_hour: Vec<PeerRow> = (peers_by_n.iter())
        .flat_map(|(_, rows)| rows.iter().cloned())
        .collect();
    h.push_str(&every_model(runs, &same_hour));
    h.push_str(&wall_heavy(&drum, runs));
    h.push_str(&automatic_timestep(&auto, &fixed));
    if let Some(side) = side_by_side(&peers_by_n) {
        h.push_str(&side);
    }
    // Plots.
    let mut vs_n = Vec::new();
    for m in ["hertz", "hooke"] {
        for th in [1, 2] {
            let pts: Vec<&crate::bench::BenchRun> = runs
                .iter()
                .filter(|r| model_of(r) == m && r.threads == th)
                .collect();
            if !pts.is_empty() {
                vs_n.push(Curve {
                    label: format!("ballast {m}, {th} thread{}", if th > 1 { "s" } else { "" }),
                    x: pts.iter().map(|r| r.n as f64).collect(),
                    y: pts.iter().map(|r| r.particle_steps_per_s / 1e6).collect(),
                    markers: true,
                });
            }
        }
        let l: Vec<_> = LIGGGHTS.iter().filter(|l| l.0 == m).collect();
        vs_n.push(Curve {
            label: format!("LIGGGHTS {m}, 1 core"),
            x: l.iter().map(|l| l.1 as f64).collect(),
            y: l.iter().map(|l| l.2).collect(),
            markers: true,
        });
    }
    if !runs.is_empty() {
        h.push_str("<h2>Throughput</h2>");
        h.push_str(&super::plot::svg(&Plot {
            title: "throughput against N".into(),
            x_label: "N (balls)".into(),
            y_label: "throughput (million particle-steps/s)".into(),
            log_x: true,
            curves: vs_n,
            ..Default::default()
        }));
        let mut vs_t = Vec::new();
        for m in ["hertz", "hooke"] {
            for n in [1000, 10000, 50000] {
                let pts: Vec<&crate::bench::BenchRun> = runs
                    .iter()
                    .filter(|r| model_of(r) == m && r.n == n)
                    .collect();
                if pts.len() > 1 {
                    vs_t.push(Curve {
                        label: format!("{m}, N = {n}"),
                        x: pts.iter().map(|r| r.threads as f64).collect(),
                        y: pts.iter().map(|r| r.particle_steps_per_s / 1e6).collect(),
                        markers: true,
                    });
                }
            }
        }
        if !vs_t.is_empty() {
            h.push_str(&super::plot::svg(&Plot {
                title: "throughput against threads".into(),
                x_label: "threads (-)".into(),
                y_label: "throughput (million particle-steps/s)".into(),
                curves: vs_t,
                ..Default::default()
            }));
        }
    }
    // Where the time goes.
    let p = phases_table(runs);
    h.push_str(&render(
        include_str!("text/performance_phases.md"),
        &[("table", table(&p))],
    ));
    h.push_str(&render(
        include_str!("text/performance_limits.md"),
        &[
            (
                "contact_bytes",
                std::mem::size_of::<crate::contact::Contact>().to_string(),
            ),
            (
                "frame_bytes",
                std::mem::size_of::<crate::contact::Frame>().to_string(),
            ),
            (
                "facet_bytes",
                std::mem::size_of::<crate::contact::FacetContact>().to_string(),
            ),
        ],
    ));
    if partial {
        let banner = "<p><b>A partial bench</b> (fewer sizes, models, threads or steps than the full \
             <code>ballast bench</code>): its ratios are not the benchmark's. The complete results are on the \
             <a href=\"performance.html\">Performance</a> page.</p>";
        return std::fs::write(
            reports.join("performance_partial.html"),
            page("Performance: a partial bench", &format!("{banner}{h}")),
        );
    }
    std::fs::write(
        reports.join("performance.html"),
        page("Performance: settle-box against LIGGGHTS", &h),
    )
}

/// The Performance page from the bench results committed under `dir` (benches/results: what a
/// clone shows before it runs its own bench): [`committed_runs`] of the settle-box
/// (`settle_box_*.json`), the drum (`drum_*.json`) and the automatic timestep
/// (`timestep_*.json`), each row naming its file. Returns false, writing nothing, when there
/// are none.
pub fn write_committed_performance_page(reports: &Path, dir: &Path) -> std::io::Result<bool> {
    let runs: Vec<crate::bench::BenchRun> = ["settle_box_", "drum_", "timestep_"]
        .iter()
        .flat_map(|prefix| committed_runs(dir, prefix))
        .collect();
    if runs.is_empty() {
        return Ok(false);
    }
    write_performance_page(reports, &runs, false)?;
    Ok(true)
}

/// The runs of the results files of `dir` named `<prefix><date>...json`, each with its file's
/// name in [`crate::bench::BenchRun::source`]: of each case, model, N, thread count, timestep
/// and number of steps, the run of the newest file (the files in the order of their names after
/// the prefix, [`natural_key`]), and only those measured on the processor of the newest file
/// (a round that ran one N or one model leaves the others' newest runs in view; runs of
/// another machine would make the page's ratios meaningless). The fixed-step runs of a file
/// that also holds automatic-timestep runs are each kept with their file: they are those runs'
/// baselines, and an automatic run is set beside the fixed run of its own bench (the same
/// hour), not beside a later bench's.
pub(crate) fn committed_runs(dir: &Path, prefix: &str) -> Vec<crate::bench::BenchRun> {
    use crate::bench::{model_of, BenchRun};
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<(Vec<Piece>, String)> = entries
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter_map(|name| {
            let rest = name.strip_prefix(prefix)?.strip_suffix(".json")?;
            Some((natural_key(rest), name))
        })
        .collect();
    files.sort();
    // (the files that hold automatic-timestep runs, as they are read)
    let mut with_auto = std::collections::HashSet::new();
    // (a run's place: what it measured)
    let key = |r: &BenchRun, with_auto: &std::collections::HashSet<String>| {
        let timestep = if r.timestep.is_empty() {
            "fixed"
        } else {
            r.timestep.as_str()
        };
        // (a baseline of automatic runs: one per file)
        let file =
            (!crate::bench::is_auto(r) && with_auto.contains(&r.source)).then(|| r.source.clone());
        (
            r.case.clone(),
            model_of(r).to_string(),
            r.n,
            r.threads,
            timestep.to_string(),
            r.steps,
            file,
        )
    };
    let mut runs: Vec<BenchRun> = Vec::new();
    let mut machine = String::new();
    for (_, name) in files {
        let Ok(text) = std::fs::read_to_string(dir.join(&name)) else {
            continue;
        };
        let Ok(read) = serde_json::from_str::<Vec<BenchRun>>(&text) else {
            continue;
        };
        if read.iter().any(crate::bench::is_auto) {
            with_auto.insert(name.clone());
        }
        for mut r in read {
            r.source.clone_from(&name);
            machine.clone_from(&r.machine);
            match runs
                .iter_mut()
                .find(|o| key(o, &with_auto) == key(&r, &with_auto))
            {
                Some(old) => *old = r,
                None => runs.push(r),
            }
        }
    }
    runs.retain(|r| r.machine == machine);
    runs
}

/// The newest file of `dir` whose name starts with `prefix` and ends with `suffix` (names
/// carry the date and the round, so the newest sorts last, numbers compared as numbers:
/// [`natural_key`]).
pub(crate) fn newest(dir: &Path, prefix: &str, suffix: &str) -> Option<std::path::PathBuf> {
    newest_where(dir, |name| {
        name.starts_with(prefix) && name.ends_with(suffix)
    })
}

/// The newest file of `dir` whose name `keep` accepts, as [`newest`] orders them.
fn newest_where(dir: &Path, keep: impl Fn(&str) -> bool) -> Option<std::path::PathBuf> {
    std::fs::read_dir(dir)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter_map(|p| {
            let name = p.file_name()?.to_str()?;
            let key = keep(name).then(|| natural_key(name));
            Some((key?, p))
        })
        .max()
        .map(|(_, p)| p)
}

/// A piece of a file name, for [`natural_key`].
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Piece {
    Number(u64),
    Text(String),
}

/// The order of file names with their runs of digits compared as numbers: a bench's tenth
/// round (`_r10`) comes after its ninth (`_r9`), which plain string order puts last.
fn natural_key(name: &str) -> Vec<Piece> {
    let mut pieces = Vec::new();
    let mut rest = name;
    while let Some(c) = rest.chars().next() {
        let digits = c.is_ascii_digit();
        let end = rest
            .find(|x: char| x.is_ascii_digit() != digits)
            .unwrap_or(rest.len());
        let (head, tail) = rest.split_at(end);
        pieces.push(match head.parse() {
            Ok(n) if digits => Piece::Number(n),
            _ => Piece::Text(head.to_string()),
        });
        rest = tail;
    }
    pieces
}

/// One row of a side-by-side run of LIGGGHTS and ballast (benches/peers/run.sh).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct PeerRow {
    /// "liggghts" or "ballast".
    pub code: String,
    pub model: String,
    pub n: usize,
    /// Processes (LIGGGHTS) or threads (ballast).
    pub par: usize,
    /// Million particle-steps per second.
    pub mps: f64,
    pub pp: usize,
    pub mean_z: f64,
    /// The processor (ballast's rows, from `ballast bench-one`; empty in files written
    /// before it was recorded).
    pub machine: String,
}

/// The rows of a side-by-side results file (tab-separated, one header line; columns found
/// by name, `machine` optional); rows that do not parse are left out.
pub(crate) fn parse_peers(text: &str) -> Vec<PeerRow> {
    let mut lines = text.lines();
    let Some(head) = lines.next() else {
        return Vec::new();
    };
    let head: Vec<&str> = head.split('\t').collect();
    let col = |name: &str| head.iter().position(|h| *h == name);
    let (Some(code), Some(model), Some(n), Some(par), Some(mps), Some(pp), Some(mean_z)) = (
        col("code"),
        col("model"),
        col("N"),
        col("par"),
        col("Mps_s"),
        col("pp"),
        col("mean_z"),
    ) else {
        return Vec::new();
    };
    let machine = col("machine");
    lines
        .filter_map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            Some(PeerRow {
                code: f.get(code)?.to_string(),
                model: f.get(model)?.to_string(),
                n: f.get(n)?.parse().ok()?,
                par: f.get(par)?.parse().ok()?,
                mps: f.get(mps)?.parse().ok()?,
                pp: f.get(pp)?.parse().ok()?,
                mean_z: f.get(mean_z)?.parse().ok()?,
                machine: machine
                    .and_then(|c| f.get(c))
                    .map_or(String::new(), |m| m.to_string()),
            })
        })
        .collect()
}

/// True for the name of a settle-box side-by-side file (benches/peers/run.sh's results.tsv
/// committed as benches/results/peers_<date>....tsv); the drum's are peers_drum_<date>....tsv
/// (`SCENE=drum`), whose names would otherwise sort after every dated one.
fn is_settle_peers(name: &str) -> bool {
    (name.strip_prefix("peers_")).is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()))
        && name.ends_with(".tsv")
}

/// The newest side-by-side run of LIGGGHTS and ballast on the drum under `dir`: its path and
/// rows.
pub(crate) fn newest_drum_peers(dir: &Path) -> Option<(std::path::PathBuf, Vec<PeerRow>)> {
    let path = newest(dir, "peers_drum_", ".tsv")?;
    let rows = parse_peers(&std::fs::read_to_string(&path).ok()?);
    (!rows.is_empty()).then_some((path, rows))
}

/// The newest side-by-side settle-box file of `dir` ([`is_settle_peers`]) with a
/// LIGGGHTS row at N = `n`: its path and its rows at that N. A round that ran one N only
/// leaves each other N's newest side-by-side run in view.
pub(crate) fn peers_at(dir: &Path, n: usize) -> Option<(std::path::PathBuf, Vec<PeerRow>)> {
    let mut files: Vec<(Vec<Piece>, std::path::PathBuf)> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter_map(|p| {
            let name = p.file_name()?.to_str()?;
            is_settle_peers(name).then(|| (natural_key(name), p.clone()))
        })
        .collect();
    files.sort();
    files.into_iter().rev().find_map(|(_, path)| {
        let text = std::fs::read_to_string(&path).ok()?;
        let rows: Vec<PeerRow> = (parse_peers(&text).into_iter())
            .filter(|r| r.n == n)
            .collect();
        (rows.iter().any(|r| r.code == "liggghts")).then_some((path, rows))
    })
}

/// Each ballast row of a side-by-side run with the LIGGGHTS row of the same model, N and
/// thread or process count.
pub(crate) fn peer_pairs(rows: &[PeerRow]) -> Vec<(&PeerRow, &PeerRow)> {
    (rows.iter().filter(|r| r.code == "ballast"))
        .filter_map(|b| {
            let l = rows.iter().find(|l| {
                l.code == "liggghts" && l.model == b.model && l.n == b.n && l.par == b.par
            })?;
            Some((l, b))
        })
        .collect()
}

/// The table of the side-by-side runs of LIGGGHTS and ballast: `files`, for each N the newest
/// file that has it with its rows at that N ([`peers_at`]), or None.
fn side_by_side(files: &[(std::path::PathBuf, Vec<PeerRow>)]) -> Option<String> {
    if files.is_empty() {
        return None;
    }
    let mut t = vec![[
        "model",
        "N",
        "threads / processes",
        "LIGGGHTS (Mps/s)",
        "ballast (Mps/s)",
        "ratio",
        "contacts LIGGGHTS / ballast",
        "mean z (mm) LIGGGHTS / ballast",
        "file",
    ]
    .map(String::from)
    .to_vec()];
    let name = |p: &std::path::Path| {
        (p.file_name()).map_or(String::new(), |f| f.to_string_lossy().into_owned())
    };
    for (path, rows) in files {
        for (l, b) in peer_pairs(rows) {
            t.push(vec![
                b.model.clone(),
                b.n.to_string(),
                b.par.to_string(),
                format!("{:.3}", l.mps),
                format!("{:.3}", b.mps),
                format!("{:.2}", b.mps / l.mps),
                format!("{} / {}", l.pp, b.pp),
                format!("{:.4} / {:.4}", l.mean_z * 1e3, b.mean_z * 1e3),
                name(path),
            ]);
        }
    }
    let mut machines: Vec<&str> = (files.iter().flat_map(|(_, rows)| rows))
        .map(|r| r.machine.as_str())
        .filter(|m| !m.is_empty())
        .collect();
    machines.sort_unstable();
    machines.dedup();
    // (one file may hold several N)
    let mut paths: Vec<String> = Vec::new();
    for (p, _) in files {
        let p = p.display().to_string();
        if !paths.contains(&p) {
            paths.push(p);
        }
    }
    let machine = if machines.is_empty() {
        String::from("a machine it did not record (before the 13th round)")
    } else {
        machines.join("; ")
    };
    Some(render(
        include_str!("text/performance_side_by_side.md"),
        &[
            ("file", esc(&paths.join(", "))),
            ("machine", esc(&machine)),
            ("table", table(&t)),
        ],
    ))
}

pub(crate) fn empty_performance_page() -> String {
    page(
        "Performance: settle-box against LIGGGHTS",
        &render(include_str!("text/performance_empty.md"), &[]),
    )
}

/// The peak memory per particle beyond a fixed base, KiB: the slope between the runs of the
/// smallest and the largest N, with those N (None without two sizes).
fn memory_slope<'a>(
    runs: impl Iterator<Item = &'a crate::bench::BenchRun>,
) -> Option<(f64, usize, usize)> {
    let mem: Vec<(usize, u64)> = runs.map(|r| (r.n, r.peak_rss_kib)).collect();
    let a = mem.iter().min_by_key(|x| x.0)?;
    let b = mem.iter().max_by_key(|x| x.0)?;
    (b.0 > a.0).then(|| ((b.1 as f64 - a.1 as f64) / (b.0 - a.0) as f64, a.0, b.0))
}

/// The section on every contact model's cost: one row per model, N and thread count, with its
/// speed against LIGGGHTS's model of the same kind ([`crate::bench::MODELS`]) run on this
/// machine in the same hour (`same_hour`: the side-by-side rows, for each N the newest file
/// that has it) and against RESULTS.md's fixed figure, its time against `hertz-history`'s (in
/// the same results file, else ballast's `hertz-history` row of the side-by-side file), and
/// the results file it came from; then issue #30's targets: at N = 10,000 and 50,000 at least
/// 2 × LIGGGHTS's speed on one core, the same machine and hour, at most 1.3 × the time of
/// `hertz-history`, 2 threads at least 1.8 × one thread; peak memory at most 1 KiB per
/// particle beyond a fixed base.
fn every_model(runs: &[crate::bench::BenchRun], same_hour: &[PeerRow]) -> String {
    use crate::bench::{bench_model, model_of, BenchRun, LIGGGHTS, MODELS};
    // LIGGGHTS on one core from the side-by-side file (measured beside ballast)
    let hour = |compared: &str, n: usize| {
        (same_hour.iter())
            .find(|l| l.code == "liggghts" && l.model == compared && l.n == n && l.par == 1)
            .map(|l| l.mps)
    };
    let find = |m: &str, n: usize, th: usize| {
        (runs.iter()).find(|r| model_of(r) == m && r.n == n && r.threads == th)
    };
    // the time of run r over hertz-history's on the same N and threads, measured in the same
    // hour: in r's results file, else beside LIGGGHTS (the side-by-side file's ballast
    // `hertz` row is hertz-history's)
    let over_history = |r: &BenchRun| {
        let same_file = (runs.iter()).find(|b| {
            model_of(b) == "hertz-history"
                && (b.n, b.threads) == (r.n, r.threads)
                && b.source == r.source
        });
        same_file.map(|b| r.loop_s / b.loop_s).or_else(|| {
            (same_hour.iter())
                .find(|b| {
                    b.code == "ballast" && b.model == "hertz" && (b.n, b.par) == (r.n, r.threads)
                })
                .map(|b| b.mps / (r.particle_steps_per_s / 1e6))
        })
    };
    let mut rows = vec![[
        "model",
        "N",
        "threads",
        "Mps/s",
        "LIGGGHTS, same hour (Mps/s)",
        "× LIGGGHTS, same hour",
        "time / hertz-history",
        "2 threads / 1",
        "LIGGGHTS, RESULTS.md (Mps/s)",
        "× RESULTS.md",
        "peak memory (MiB)",
        "runs: loop (s)",
        "measured in",
    ]
    .map(String::from)
    .to_vec()];
    let mut targets = vec![["target", "measured", "verdict"].map(String::from).to_vec()];
    let verdict = |ok: bool| if ok { "met" } else { "MISSED" }.to_string();
    for (m, _, compared) in MODELS {
        for n in [1000, 10000, 50000] {
            for th in [1, 2] {
                let Some(r) = find(m, n, th) else { continue };
                let mps = r.particle_steps_per_s / 1e6;
                let l = LIGGGHTS.iter().find(|l| l.0 == compared && l.1 == n);
                let single = find(m, n, 1);
                rows.push(vec![
                    m.to_string(),
                    n.to_string(),
                    th.to_string(),
                    format!("{mps:.3}"),
                    hour(compared, n).map_or("-".into(), |h| format!("{compared} {h:.3}")),
                    hour(compared, n)
                        .filter(|_| th == 1)
                        .map_or("-".into(), |h| format!("{:.3}", mps / h)),
                    over_history(r).map_or("-".into(), |x| format!("{x:.3}")),
                    (single.filter(|_| th == 2)).map_or("-".into(), |a| {
                        format!("{:.3}", r.particle_steps_per_s / a.particle_steps_per_s)
                    }),
                    l.map_or("-".into(), |l| format!("{compared} {}", l.2)),
                    l.map_or("-".into(), |l| format!("{:.2}", mps / l.2)),
                    format!("{:.1}", r.peak_rss_kib as f64 / 1024.0),
                    runs_of(r),
                    source_tag(r),
                ]);
            }
            if n < 10000 || bench_model(m).is_none() {
                continue;
            }
            if let (Some(r), Some(h)) = (find(m, n, 1), hour(compared, n)) {
                let ratio = r.particle_steps_per_s / 1e6 / h;
                targets.push(vec![
                    format!(
                        "{m}, N = {n}: at least 2 × LIGGGHTS ({compared}) on one core, the same \
                         machine and hour"
                    ),
                    format!("{ratio:.3} ×"),
                    verdict(ratio >= 2.0),
                ]);
            }
            if let Some(ratio) = find(m, n, 1).and_then(over_history) {
                if m != "hertz-history" {
                    targets.push(vec![
                        format!("{m}, N = {n}: at most 1.3 × the time of hertz-history"),
                        format!("{ratio:.3} ×"),
                        verdict(ratio <= 1.3),
                    ]);
                }
            }
            if let (Some(a), Some(b)) = (find(m, n, 1), find(m, n, 2)) {
                let s = b.particle_steps_per_s / a.particle_steps_per_s;
                targets.push(vec![
                    format!("{m}, N = {n}: 2 threads at least 1.8 × one thread"),
                    format!("{s:.3} ×"),
                    verdict(s >= 1.8),
                ]);
            }
        }
    }
    for (m, _, _) in MODELS {
        // (memory beyond a fixed base: the slope between the smallest and largest N run)
        let one_thread = (runs.iter()).filter(|r| model_of(r) == m && r.threads == 1);
        if let Some((slope, a, b)) = memory_slope(one_thread) {
            targets.push(vec![
                format!("{m}: peak memory at most 1 KiB per particle beyond a fixed base"),
                format!("{slope:.3} KiB per particle (N = {a} to {b})"),
                verdict(slope <= 1.0),
            ]);
        }
    }
    if rows.len() == 1 {
        return String::new();
    }
    format!(
        "<h2>Every contact model (issue #30)</h2><p>The settle-box scene with each contact model \
         (<code>ballast bench --models</code>; the frame-based models' cases are \
         benches/cases/settle_box_&lt;model&gt;_&lt;N&gt;k.toml, written by make_cases.py). \
         Each frame-based model is set beside LIGGGHTS's model of the same kind (Hertz for \
         <code>hertz</code>, Hooke for the linear ones) run on this machine by \
         benches/peers/run.sh within the hour of the bench (for each N the newest side-by-side \
         file that has it, as the round's notes say), and beside RESULTS.md's figures, measured \
         once on another machine (not a target of issue #30). Its time over \
         <code>hertz-history</code>'s is taken in the same hour too: from the same results file, \
         else from ballast's <code>hertz-history</code> row of the side-by-side file. The last \
         column names the results file (benches/results/settle_box_&lt;...&gt;.json) of each \
         row; the one before it, how many times the bench ran it (<code>--repeat</code>, the \
         thread counts in turn; the row is the median run) and the range of the loop \
         times.</p>{}{}",
        table(&rows),
        if targets.len() > 1 {
            table(&targets)
        } else {
            String::new()
        }
    )
}

/// The results file a run came from, without its kind and extension
/// (`settle_box_2026-11-28_xeon_r24_10k.json` is `2026-11-28_xeon_r24_10k`), or "this bench"
/// for a run of the bench that writes the page.
fn source_tag(r: &crate::bench::BenchRun) -> String {
    if r.source.is_empty() {
        return "this bench".into();
    }
    let s = r.source.trim_end_matches(".json");
    ["settle_box_", "drum_", "timestep_"]
        .iter()
        .find_map(|p| s.strip_prefix(p))
        .unwrap_or(s)
        .to_string()
}

/// How many times a configuration ran (`ballast bench --repeat`) and the range of its loop
/// times, s (its figures are the median run's): "1" for a single run.
fn runs_of(r: &crate::bench::BenchRun) -> String {
    if r.repeats.len() < 2 {
        return "1".into();
    }
    let lo = r.repeats.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = r.repeats.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    format!("{}: {lo:.1}-{hi:.1}", r.repeats.len())
}

/// A sentence naming the results files of `runs` (none when they are this bench's).
fn measured_in<'a>(runs: impl Iterator<Item = &'a crate::bench::BenchRun>) -> String {
    let mut files: Vec<&str> = runs
        .map(|r| r.source.as_str())
        .filter(|s| !s.is_empty())
        .collect();
    files.sort_unstable();
    files.dedup();
    if files.is_empty() {
        return String::new();
    }
    format!(
        "<p>Measured in benches/results/{}.</p>",
        esc(&files.join(", benches/results/"))
    )
}

/// The automatic timestep's section (issue #30, target 2): each run with `--timestep diagonal`
/// or `bound` (or `diagonal:N`, `bound:N`: the step chosen every N cycles) beside the fixed
/// step's run of the same case, threads and steps, and the ratio of their loop times (the same
/// steps: the automatic step is capped at the fixed one), judged against 1.1. Empty without
/// such runs.
fn automatic_timestep(auto: &[crate::bench::BenchRun], fixed: &[crate::bench::BenchRun]) -> String {
    let mut rows = vec![[
        "case",
        "threads",
        "steps",
        "estimator",
        "loop (s)",
        "fixed step's loop (s)",
        "× fixed",
        "at most 1.1 × the fixed step",
        "runs: loop (s)",
        "measured in",
    ]
    .map(String::from)
    .to_vec()];
    for r in auto {
        // (the fixed step's run of the same results file first: the same hour)
        let like = |f: &&crate::bench::BenchRun| {
            f.case == r.case && f.threads == r.threads && f.steps == r.steps
        };
        let base = (fixed.iter().filter(like)).min_by_key(|f| f.source != r.source);
        let ratio = base.map(|b| r.loop_s / b.loop_s);
        rows.push(vec![
            r.case.clone(),
            r.threads.to_string(),
            r.steps.to_string(),
            r.timestep.clone(),
            format!("{:.2}", r.loop_s),
            base.map_or("-".into(), |b| format!("{:.2}", b.loop_s)),
            ratio.map_or("-".into(), |x| format!("{x:.2}")),
            ratio.map_or("- (no fixed-step run)".into(), |x| {
                if x <= 1.1 { "met" } else { "MISSED" }.to_string()
            }),
            runs_of(r),
            source_tag(r),
        ]);
    }
    if rows.len() == 1 {
        return String::new();
    }
    format!(
        "<h2>The automatic timestep (issue #30)</h2><p>The same cases with <code>mode = \"auto\"</code> \
         (<code>ballast bench --timestep fixed,diagonal,bound</code>): the default safety 0.8 and \
         kinematic constraint, the <code>diagonal</code> or <code>bound</code> estimator over \
         every candidate pair and every ball, in every cycle or, written <code>diagonal:N</code>, \
         in every N-th cycle only (<code>[timestep] every = N</code>, the step kept between), \
         and the case's fixed step as the cap, so that both runs take the same steps and the \
         ratio of their times is the cost of choosing the step (target: at most 10 % over the fixed step). Each pair of runs \
         follows one another in the same bench; on a machine whose speed wanders, run the bench \
         twice before reading a few per cent into a ratio.</p>{}",
        table(&rows)
    )
}

/// A run's model as the sections judged against LIGGGHTS name it: the history models by
/// LIGGGHTS's names, and the frame-based `hertz` by another, so that it does not pass for
/// LIGGGHTS's.
fn page_model(r: &crate::bench::BenchRun) -> &str {
    match crate::bench::model_of(r) {
        "hertz-history" => "hertz",
        "hooke-history" => "hooke",
        "hertz" => "hertz (frame)",
        other => other,
    }
}

/// The "Where the time goes" table: each run's phases as shares of its loop, its cost per
/// particle-step, and its ball-ball contacts phase over its active contact-steps (ns; with one
/// thread, what one contact's update costs).
fn phases_table(runs: &[crate::bench::BenchRun]) -> Vec<Vec<String>> {
    let mut p = vec![[
        "model",
        "N",
        "threads",
        "motion",
        "detection",
        "ball-ball contacts",
        "gather",
        "walls",
        "checks",
        "µs per particle-step",
        "ns per ball-ball contact-step",
    ]
    .map(String::from)
    .to_vec()];
    for r in runs {
        let ph = &r.phases;
        let total = ph.motion + ph.detect + ph.contacts + ph.gather + ph.walls + ph.checks;
        let pc = |x: f64| format!("{:.1} %", 100.0 * x / total.max(1e-300));
        p.push(vec![
            page_model(r).into(),
            r.n.to_string(),
            r.threads.to_string(),
            pc(ph.motion),
            pc(ph.detect),
            pc(ph.contacts),
            pc(ph.gather),
            pc(ph.walls),
            pc(ph.checks),
            format!("{:.3}", 1e6 / r.particle_steps_per_s),
            ns_per(ph.contacts, r.contact_steps),
        ]);
    }
    p
}

/// A phase's time over its contact-steps, in ns to a tenth ("-" without contacts).
fn ns_per(phase: f64, steps: u64) -> String {
    if steps == 0 {
        "-".to_string()
    } else {
        format!("{:.1}", 1e9 * phase / steps as f64)
    }
}

/// The wall-heavy scene's section (issue #30, the drum of make_drum.py): per run the loop,
/// the mean active contacts, and the cost of each phase per contact-step, beside the
/// settle-box's cost per ball-facet contact-step (its runs at N = 10,000 of the drum's
/// models) and LIGGGHTS's time on the same drum in the newest side-by-side file (its
/// `drum-hertz` rows). Empty without drum runs.
fn wall_heavy(drum: &[crate::bench::BenchRun], settle: &[crate::bench::BenchRun]) -> String {
    use crate::bench::model_of;
    if drum.is_empty() {
        return String::new();
    }
    let mean =
        |steps: u64, r: &crate::bench::BenchRun| format!("{:.0}", steps as f64 / r.steps as f64);
    let mut rows = vec![[
        "scene",
        "model",
        "N",
        "threads",
        "loop (s)",
        "Mps/s",
        "ball-ball contacts (mean)",
        "ball-facet contacts (mean)",
        "rebuilds",
        "walls (s)",
        "ns per ball-facet contact-step",
        "ns per ball-ball contact-step",
        "motion, detection (s)",
    ]
    .map(String::from)
    .to_vec()];
    // (the settle-box's runs at the drum's N of the drum's models)
    let beside = |r: &&crate::bench::BenchRun| {
        r.n == 10000 && drum.iter().any(|d| model_of(d) == model_of(r))
    };
    for (scene, r) in (drum.iter().map(|r| ("drum", r)))
        .chain(settle.iter().filter(beside).map(|r| ("settle-box", r)))
    {
        let ph = &r.phases;
        rows.push(vec![
            scene.to_string(),
            model_of(r).to_string(),
            r.n.to_string(),
            r.threads.to_string(),
            format!("{:.2}", r.loop_s),
            format!("{:.3}", r.particle_steps_per_s / 1e6),
            mean(r.contact_steps, r),
            mean(r.facet_contact_steps, r),
            r.rebuilds.to_string(),
            format!("{:.2}", ph.walls),
            ns_per(ph.walls, r.facet_contact_steps),
            ns_per(ph.contacts, r.contact_steps),
            format!("{:.2}, {:.2}", ph.motion, ph.detect),
        ]);
    }
    let mut t = vec![[
        "the same drum, same machine and hour",
        "LIGGGHTS (Mps/s)",
        "ballast (Mps/s)",
        "ratio",
    ]
    .map(String::from)
    .to_vec()];
    if let Some((path, peers)) = newest_drum_peers(Path::new("benches/results")) {
        for (l, b) in peer_pairs(&peers)
            .into_iter()
            .filter(|(l, _)| l.model.starts_with("drum"))
        {
            t.push(vec![
                format!(
                    "{}, N = {}, {} process{} / thread{} ({})",
                    l.model,
                    l.n,
                    l.par,
                    if l.par > 1 { "es" } else { "" },
                    if l.par > 1 { "s" } else { "" },
                    esc(&path.display().to_string())
                ),
                format!("{:.3}", l.mps),
                format!("{:.3}", b.mps),
                format!("{:.2} ×", b.mps / l.mps),
            ]);
        }
    }
    render(
        include_str!("text/performance_drum.md"),
        &[
            ("table", table(&rows)),
            (
                "liggghts",
                if t.len() > 1 {
                    table(&t)
                } else {
                    String::new()
                },
            ),
        ],
    )
}

#[cfg(test)]
mod tests {
    use super::{
        automatic_timestep, every_model, natural_key, parse_peers, peer_pairs, phases_table,
        wall_heavy, write_performance_page,
    };
    use crate::bench::BenchRun;

    /// The automatic timestep's section, on runs made up here: at N = 10,000 the fixed step's
    /// loop takes 3.0 s, `diagonal` 7.2 s (2.40 ×, missed) and `bound` 27 s (9.00 ×); a second
    /// case's `diagonal` 3.45 s beside 3.0 s (1.15 ×, missed), a third's 3.2 s (1.07 ×, met); a
    /// run whose fixed run is
    /// missing (other steps) gets no ratio; without automatic runs the section is empty. On the
    /// whole page the automatic runs stay out of the other tables.
    #[test]
    fn the_automatic_timestep_is_set_beside_the_fixed_step() {
        let run = |case: &str, steps: u64, timestep: &str, loop_s: f64| BenchRun {
            case: case.into(),
            model: "hertz-history".into(),
            n: 10000,
            threads: 1,
            steps,
            loop_s,
            particle_steps_per_s: 1e4 * steps as f64 / loop_s,
            timestep: timestep.into(),
            ..Default::default()
        };
        let fixed = [
            run("settle_box_hertz_10k", 5000, "fixed", 3.0),
            run("settle_box_hooke_10k", 5000, "", 3.0),
            run("settle_box_linear_10k", 5000, "fixed", 3.0),
        ];
        let auto = [
            run("settle_box_hertz_10k", 5000, "diagonal", 7.2),
            run("settle_box_hertz_10k", 5000, "bound", 27.0),
            run("settle_box_hooke_10k", 5000, "diagonal", 3.45),
            run("settle_box_linear_10k", 5000, "diagonal", 3.2),
            run("settle_box_hertz_10k", 4000, "diagonal", 6.0),
        ];
        let html = automatic_timestep(&auto, &fixed);
        for want in [
            ">2.40<",
            ">9.00<",
            ">1.07<",
            ">met<",
            "- (no fixed-step run)",
        ] {
            assert!(html.contains(want), "{want} missing: {html}");
        }
        assert_eq!(html.matches(">MISSED<").count(), 3);
        assert!(automatic_timestep(&[], &fixed).is_empty());
        let dir = std::env::temp_dir().join(format!("ballast_auto_page_{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let all: Vec<BenchRun> = fixed.iter().chain(&auto).cloned().collect();
        write_performance_page(&dir, &all, true).unwrap();
        let page = std::fs::read_to_string(dir.join("performance_partial.html")).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        assert!(page.contains("The automatic timestep"));
        // (27 s appears in the automatic section only)
        assert_eq!(page.matches(">27.00<").count(), 1, "{page}");
    }

    /// The drum's section, on runs made up here: 2.0 s of wall phase over 20,000 steps with
    /// 500 active ball-facet contacts on average (1e7 contact-steps) is 200.0 ns per
    /// ball-facet contact-step; 10.0 s of ball-ball phase over 2e8 contact-steps is 50.0 ns;
    /// the means are 500 and 10000. A settle-box run at N = 10,000 is listed below it, one at
    /// N = 1,000 is not; without drum runs the section is empty.
    #[test]
    fn the_drum_section_divides_each_phase_by_its_contact_steps() {
        let run = |case: &str, n: usize| BenchRun {
            case: case.into(),
            model: "hertz-history".into(),
            n,
            threads: 1,
            steps: 20000,
            loop_s: 14.0,
            particle_steps_per_s: n as f64 * 20000.0 / 14.0,
            facet_contact_steps: 10_000_000,
            contact_steps: 200_000_000,
            phases: crate::model::Phases {
                walls: 2.0,
                contacts: 10.0,
                ..Default::default()
            },
            ..Default::default()
        };
        let html = wall_heavy(
            &[run("drum_hertz_10k", 10000)],
            &[
                run("settle_box_hertz_10k", 10000),
                run("settle_box_hertz_1k", 1000),
            ],
        );
        for want in [
            ">200.0<",
            ">50.0<",
            ">500<",
            ">10000<",
            ">drum<",
            ">settle-box<",
        ] {
            assert!(html.contains(want), "{want} missing");
        }
        assert_eq!(html.matches(">settle-box<").count(), 1);
        assert!(wall_heavy(&[], &[run("settle_box_hertz_10k", 10000)]).is_empty());
    }

    /// The phases table on runs made up here: a contacts phase of 10 s over 200 million
    /// active contact-steps is 10 / 2e8 s = 50.0 ns per contact-step, 12 s over 160 million
    /// 75.0 ns; of a loop of 10 + 2 + 4 + 4 = 20 s the contacts take 50.0 %; a run without
    /// active contacts shows "-"; the frame-based `hertz` is named apart from LIGGGHTS's Hertz.
    #[test]
    fn the_phases_table_gives_the_contacts_phase_per_contact_step() {
        let run = |model: &str, contacts: f64, contact_steps: u64| BenchRun {
            case: format!("settle_box_{model}_10k"),
            model: model.into(),
            n: 10000,
            threads: 1,
            steps: 20000,
            loop_s: 20.0,
            particle_steps_per_s: 1e7,
            contact_steps,
            phases: crate::model::Phases {
                motion: 2.0,
                detect: 4.0,
                walls: 4.0,
                contacts,
                ..Default::default()
            },
            ..Default::default()
        };
        let t = phases_table(&[
            run("hertz-history", 10.0, 200_000_000),
            run("hertz", 12.0, 160_000_000),
            run("linear", 10.0, 0),
        ]);
        let last = t[0].len() - 1;
        assert_eq!(t[0][last], "ns per ball-ball contact-step");
        let rows: Vec<(&str, &str, &str)> = (t[1..].iter())
            .map(|r| (r[0].as_str(), r[5].as_str(), r[last].as_str()))
            .collect();
        assert_eq!(
            rows,
            [
                ("hertz", "50.0 %", "50.0"),
                ("hertz (frame)", "54.5 %", "75.0"),
                ("linear", "50.0 %", "-")
            ]
        );
    }

    /// The per-model section, on runs made up here: hertz on the frame at N = 10,000 takes 26 s
    /// against hertz-history's 20 s in the same results file (1.300 ×: met) on one thread; 200
    /// M particle-steps in 26 s is 7.692 Mps/s, 2.564 × LIGGGHTS's Hertz measured in the same
    /// hour (3.0 Mps/s: met), and RESULTS.md's 6.17 is shown but not judged; two threads in
    /// 14.4 s are 26/14.4 = 1.806 × (met). At N = 50,000 hertz takes 200 s (5.0 Mps/s) in a
    /// file without hertz-history, whose time is then the side-by-side file's ballast row
    /// (6.0 Mps/s: 1.200 ×, met), not the 100 s of a hertz-history run of another file; on two
    /// threads (110 s) its two-thread row (11.0 Mps/s: 1.210), not the first row of that N.
    /// The 10k one-thread run is the median of three (25.0 to 27.5 s), and says so.
    /// Memory 10,000 to 50,000 KiB between N = 10,000 and 50,000 is 1.000 KiB per particle.
    #[test]
    fn each_model_is_judged_against_liggghts_and_hertz_history() {
        let run =
            |model: &str, n: usize, threads: usize, loop_s: f64, kib: u64, file: &str| BenchRun {
                model: model.into(),
                n,
                threads,
                steps: 20000,
                loop_s,
                particle_steps_per_s: n as f64 * 20000.0 / loop_s,
                peak_rss_kib: kib,
                source: file.into(),
                ..Default::default()
            };
        let (a, b, c) = (
            "settle_box_a.json",
            "settle_box_b.json",
            "settle_box_c.json",
        );
        let median_of_three = BenchRun {
            repeats: vec![27.5, 26.0, 25.0],
            ..run("hertz", 10000, 1, 26.0, 10000, a)
        };
        let runs = [
            run("hertz-history", 10000, 1, 20.0, 9000, a),
            run("hertz-history", 50000, 1, 100.0, 9000, c),
            median_of_three,
            run("hertz", 10000, 2, 14.4, 10000, a),
            run("hertz", 50000, 1, 200.0, 50000, b),
            run("hertz", 50000, 2, 110.0, 50000, b),
        ];
        // LIGGGHTS beside it in the same hour: 3.0 Mps/s for Hertz at 10k on one core; its
        // two-process row and a Hooke row are not Hertz's one core; ballast's hertz-history
        // (`hertz`) beside LIGGGHTS at 50k, 6.0 Mps/s
        let peers = parse_peers(
            "code\tmodel\tN\tsteps\tpar\tloop_s\tMps_s\tpp\tnw\tke_trans\tmean_z\tpeak_rss_kib\n\
             liggghts\thertz\t10000\t20000\t2\t1.0\t9.0\t1\t1\t0\t0.006\t1\n\
             liggghts\thooke\t10000\t20000\t1\t1.0\t1.0\t1\t1\t0\t0.006\t1\n\
             liggghts\thertz\t10000\t20000\t1\t1.0\t3.0\t1\t1\t0\t0.006\t1\n\
             ballast\thertz\t50000\t20000\t1\t1.0\t6.0\t1\t1\t0\t0.006\t1\n\
             ballast\thertz\t50000\t20000\t2\t1.0\t11.0\t1\t1\t0\t0.006\t1\n",
        );
        let html = every_model(&runs, &peers);
        let row = |target: &str| {
            let at = html
                .find(target)
                .unwrap_or_else(|| panic!("no {target}: {html}"));
            let end = at + html[at..].find("</tr>").unwrap();
            html[at..end].to_string()
        };
        let r = row("hertz, N = 10000: at most 1.3 × the time of hertz-history");
        assert!(r.contains("1.300 ×") && r.contains("met"), "{r}");
        let r = row("hertz, N = 50000: at most 1.3 × the time of hertz-history");
        assert!(r.contains("1.200 ×") && r.contains("met"), "{r}");
        let r = row("hertz, N = 10000: at least 2 × LIGGGHTS (hertz) on one core, the same");
        assert!(r.contains("2.564 ×") && r.contains("met"), "{r}");
        // (RESULTS.md's figure, of another machine, is not a target)
        assert_eq!(
            html.matches("at least 2 × LIGGGHTS (hertz) on one core")
                .count(),
            html.matches("on one core, the same machine").count()
        );
        assert!(!html.contains("N = 50000: at least 2 × LIGGGHTS (hertz) on one core, the same"));
        let r = row("hertz, N = 10000: 2 threads at least 1.8 × one thread");
        assert!(r.contains("1.806 ×") && r.contains("met"), "{r}");
        let r = row("hertz: peak memory at most 1 KiB per particle");
        assert!(r.contains("1.000 KiB") && r.contains("met"), "{r}");
        for tag in [">a<", ">b<"] {
            assert!(html.contains(tag), "the results file {tag} not named");
        }
        // (two threads at 50k beside ballast's two-thread hertz-history row, not its first:
        // 11.0 Mps/s over 1e9 / 110 s = 9.091 is 1.210)
        let r = row("<td>hertz</td><td>50000</td><td>2</td>");
        assert!(r.contains(">1.210<"), "{r}");
        // (the median of three runs, with the range of their loop times)
        assert!(html.contains(">3: 25.0-27.5<"), "{html}");
        assert!(every_model(&[], &[]).is_empty());
    }

    /// The committed results: of each case, model, N and thread count the run of the newest
    /// file (a 10k round and a later 50k round both stay in view), only the newest file's
    /// processor's, each naming its file; a file that does not parse is passed over. The page
    /// built from them names the files, and a timestep file's fixed run stays out of the
    /// settle-box's tables.
    #[test]
    fn the_committed_results_are_the_newest_run_of_each_kind() {
        use super::{committed_runs, write_committed_performance_page};
        let dir = std::env::temp_dir().join(format!("ballast_committed_{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let run = |model: &str, n: usize, loop_s: f64, machine: &str, timestep: &str| BenchRun {
            case: format!("settle_box_{model}_{}k", n / 1000),
            model: model.into(),
            n,
            threads: 1,
            steps: 20000,
            loop_s,
            particle_steps_per_s: n as f64 * 20000.0 / loop_s,
            machine: machine.into(),
            timestep: timestep.into(),
            ..Default::default()
        };
        let write = |name: &str, runs: &[BenchRun]| {
            std::fs::write(dir.join(name), serde_json::to_string(runs).unwrap()).unwrap();
        };
        write(
            "settle_box_2026-11-20.json",
            &[run("hertz", 1000, 9.0, "Y", "fixed")],
        );
        write(
            "settle_box_2026-11-27_r1.json",
            &[
                run("hertz-history", 10000, 30.0, "X", "fixed"),
                run("hertz", 10000, 40.0, "X", "fixed"),
            ],
        );
        write(
            "settle_box_2026-11-28_r2.json",
            &[run("hertz", 10000, 38.0, "X", "fixed")],
        );
        write(
            "settle_box_2026-11-28_r2-50k.json",
            &[run("hertz", 50000, 300.0, "X", "")],
        );
        std::fs::write(dir.join("settle_box_2026-11-29_broken.json"), "[{").unwrap();
        write(
            "timestep_2026-11-28_r2.json",
            &[
                run("hertz", 10000, 77.0, "X", "fixed"),
                run("hertz", 10000, 80.0, "X", "diagonal:20"),
            ],
        );
        // (a later timestep bench with a fixed run of its own: each automatic run is set
        // beside its own bench's, 80 / 77 and 150 / 75)
        write(
            "timestep_2026-11-28_r2-every.json",
            &[
                run("hertz", 10000, 75.0, "X", "fixed"),
                run("hertz", 10000, 150.0, "X", "diagonal"),
            ],
        );
        let runs = committed_runs(&dir, "settle_box_");
        let got: Vec<(usize, f64, &str)> = (runs.iter())
            .map(|r| (r.n, r.loop_s, r.source.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                (10000, 30.0, "settle_box_2026-11-27_r1.json"),
                (10000, 38.0, "settle_box_2026-11-28_r2.json"),
                (50000, 300.0, "settle_box_2026-11-28_r2-50k.json"),
            ]
        );
        assert_eq!(committed_runs(&dir, "timestep_").len(), 4);
        assert!(committed_runs(&dir, "drum_").is_empty());
        let reports = dir.join("reports");
        std::fs::create_dir_all(&reports).unwrap();
        assert!(write_committed_performance_page(&reports, &dir).unwrap());
        let page = std::fs::read_to_string(reports.join("performance.html")).unwrap();
        for want in [
            ">2026-11-28_r2<",
            ">2026-11-28_r2-50k<",
            ">80.00<",
            ">77.00<",
            ">1.04<",
            ">2.00<",
        ] {
            assert!(page.contains(want), "{want} missing");
        }
        // (the timestep file's fixed run is in the timestep's section only)
        assert_eq!(page.matches(">77.00<").count(), 1);
        assert!(!write_committed_performance_page(&reports, &reports).unwrap());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A side-by-side file is read by column name, with or without the machine column (files
    /// of earlier rounds have none), and each ballast row is paired with LIGGGHTS's row of
    /// the same model, N and thread or process count; a row that does not parse is left out.
    #[test]
    fn side_by_side_rows_pair_by_model_n_and_threads() {
        let old = "code\tmodel\tN\tsteps\tpar\tloop_s\tMps_s\tpp\tnw\tke_trans\tmean_z\tpeak_rss_kib\n\
                   liggghts\thooke\t10000\t20000\t1\t34.2\t5.84\t21749\t1730\t6e-8\t0.006029\t43000\n\
                   ballast\thooke\t10000\t20000\t2\t10.0\t20.0\t21701\t1729\t7e-8\t0.006025\t11000\n\
                   ballast\thooke\t10000\t20000\t1\t17.0\t11.7\t21701\t1729\t7e-8\t0.006025\t10000\n\
                   ballast\thooke\tten\t20000\t1\t17.0\t11.7\t21701\t1729\t7e-8\t0.006025\t10000\n";
        let rows = parse_peers(old);
        assert_eq!(rows.len(), 3);
        let pairs = peer_pairs(&rows);
        assert_eq!(pairs.len(), 1, "no LIGGGHTS row for two threads");
        let (l, b) = pairs[0];
        assert_eq!(
            (l.code.as_str(), b.par, l.mps, b.mps),
            ("liggghts", 1, 5.84, 11.7)
        );
        assert_eq!(b.machine, "");
        let new = "code\tmodel\tN\tsteps\tpar\tloop_s\tMps_s\tpp\tnw\tke_trans\tmean_z\tpeak_rss_kib\tmachine\n\
                   liggghts\thertz\t1000\t20000\t1\t2.8\t7.1\t2090\t303\t4e-9\t0.006355\t35000\t\n\
                   ballast\thertz\t1000\t20000\t1\t1.9\t10.5\t2102\t299\t1e-8\t0.006357\t6000\tAMD EPYC, AVX2\n";
        let rows = parse_peers(new);
        let pairs = peer_pairs(&rows);
        assert_eq!(pairs.len(), 1);
        assert_eq!(
            (pairs[0].0.machine.as_str(), pairs[0].1.machine.as_str()),
            ("", "AMD EPYC, AVX2")
        );
        assert!(parse_peers("").is_empty());
        assert!(parse_peers("code\tmodel\n").is_empty(), "columns missing");
    }

    /// Runs of digits compare as numbers, so that the newest bench file is found: the tenth
    /// round after the ninth, a second bench of a round (`_r8b`) after its first, a later
    /// date after an earlier one whatever its round.
    #[test]
    fn bench_files_sort_by_date_then_round() {
        let mut names = [
            "settle_box_2026-11-22_r10.json",
            "settle_box_2026-11-21_r5.json",
            "settle_box_2026-11-22_r8b.json",
            "settle_box_2026-11-22_r9.json",
            "settle_box_2026-11-21.json",
            "settle_box_2026-11-22_r8.json",
        ];
        names.sort_by_key(|n| natural_key(n));
        assert_eq!(
            names,
            [
                "settle_box_2026-11-21.json",
                "settle_box_2026-11-21_r5.json",
                "settle_box_2026-11-22_r8.json",
                "settle_box_2026-11-22_r8b.json",
                "settle_box_2026-11-22_r9.json",
                "settle_box_2026-11-22_r10.json",
            ]
        );
    }

    /// For each N the settle-box's side-by-side file is the newest dated `peers_<date>...` one
    /// with a LIGGGHTS row at that N (a round that ran 50k only leaves the 10k run in view; a
    /// file of ballast rows only is passed over), and the drum's the newest `peers_drum_...`
    /// one: a drum file, whose name sorts after every dated one, never hides a newer
    /// settle-box run (it did: the Performance page showed the drum's table and no same-hour
    /// LIGGGHTS figure for every later settle-box run).
    #[test]
    fn the_newest_side_by_side_file_of_each_scene_and_n() {
        use super::{newest_drum_peers, peers_at};
        let dir = std::env::temp_dir().join(format!("ballast_peers_{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let head =
            "code\tmodel\tN\tsteps\tpar\tloop_s\tMps_s\tpp\tnw\tke_trans\tmean_z\tpeak_rss_kib\n";
        let row = |code: &str, model: &str, n: usize| {
            format!("{code}\t{model}\t{n}\t20000\t1\t1.0\t2.0\t1\t1\t0\t0.006\t1\n")
        };
        let settle = |ns: &[usize]| {
            let rows: String = (ns.iter())
                .flat_map(|&n| [row("liggghts", "hertz", n), row("ballast", "hertz", n)])
                .collect();
            format!("{head}{rows}")
        };
        for (name, text) in [
            ("peers_2026-11-21.tsv", settle(&[1000, 10000, 50000])),
            ("peers_2026-11-27g_xeon_r21_50k.tsv", settle(&[50000])),
            ("peers_2026-11-28_xeon_r22.tsv", settle(&[10000])),
            (
                "peers_2026-11-28_xeon_r23.tsv",
                format!("{head}{}", row("ballast", "hertz", 50000)),
            ),
            (
                "peers_drum_2026-11-27_xeon.tsv",
                format!("{head}{}", row("liggghts", "drum-hertz", 10000)),
            ),
            (
                "peers_drum_2026-11-20.tsv",
                format!("{head}{}", row("liggghts", "drum-hertz", 10000)),
            ),
            ("peers_notes.txt", settle(&[10000])),
            ("settle_box_2026-11-29.json", String::new()),
        ] {
            std::fs::write(dir.join(name), text).unwrap();
        }
        let name = |p: Option<(std::path::PathBuf, Vec<super::PeerRow>)>| {
            let (p, rows) = p.unwrap();
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                rows.len(),
            )
        };
        assert_eq!(
            name(peers_at(&dir, 10000)),
            ("peers_2026-11-28_xeon_r22.tsv".into(), 2)
        );
        assert_eq!(
            name(peers_at(&dir, 50000)),
            ("peers_2026-11-27g_xeon_r21_50k.tsv".into(), 2)
        );
        assert_eq!(
            name(peers_at(&dir, 1000)),
            ("peers_2026-11-21.tsv".into(), 2)
        );
        assert!(peers_at(&dir, 20000).is_none());
        assert_eq!(
            name(newest_drum_peers(&dir)).0,
            "peers_drum_2026-11-27_xeon.tsv"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
