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
    let (drum, settle): (Vec<_>, Vec<_>) =
        (fixed.iter().cloned()).partition(|r| crate::bench::scene_of(r) == "drum");
    let runs = &settle[..];
    // (the sections judged against LIGGGHTS name the history models by LIGGGHTS's names)
    // (and the frame-based `hertz` another name, so that it does not pass for LIGGGHTS's)
    fn model_of(r: &crate::bench::BenchRun) -> &str {
        match crate::bench::model_of(r) {
            "hertz-history" => "hertz",
            "hooke-history" => "hooke",
            "hertz" => "hertz (frame)",
            other => other,
        }
    }
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
        table(&rows)
    } else {
        none.to_string()
    };
    let _ = write!(h, "<h2>Results</h2>{results}");
    // Targets.
    let mut t = vec![["target", "measured", "verdict"].map(String::from).to_vec()];
    let peer_rows = newest_peers(Peers::SettleBox);
    let peers_path = peer_rows
        .as_ref()
        .and_then(|(p, _)| p.file_name())
        .map_or(String::new(), |f| f.to_string_lossy().into_owned());
    let peers = peer_rows
        .as_ref()
        .map_or(Vec::new(), |(_, rows)| peer_pairs(rows));
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
            let same = peers
                .iter()
                .find(|(l, b)| l.model == m && l.n == n && b.par == 1);
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
    let same_hour = newest_peers(Peers::SettleBox).map_or(Vec::new(), |(_, rows)| rows);
    h.push_str(&every_model(runs, &same_hour));
    h.push_str(&wall_heavy(&drum, runs));
    h.push_str(&automatic_timestep(&auto, &fixed));
    if let Some(side) = side_by_side() {
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
    ]
    .map(String::from)
    .to_vec()];
    for r in runs {
        let ph = &r.phases;
        let total = ph.motion + ph.detect + ph.contacts + ph.gather + ph.walls + ph.checks;
        let pc = |x: f64| format!("{:.1} %", 100.0 * x / total.max(1e-300));
        p.push(vec![
            model_of(r).into(),
            r.n.to_string(),
            r.threads.to_string(),
            pc(ph.motion),
            pc(ph.detect),
            pc(ph.contacts),
            pc(ph.gather),
            pc(ph.walls),
            pc(ph.checks),
            format!("{:.3}", 1e6 / r.particle_steps_per_s),
        ]);
    }
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

/// The side-by-side runs of LIGGGHTS and ballast: the settle-box's (benches/peers/run.sh,
/// its results.tsv committed as benches/results/peers_<date>....tsv) or the drum's
/// (`SCENE=drum`, committed as peers_drum_<date>....tsv).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Peers {
    /// The settle-box scene.
    SettleBox,
    /// The wall-heavy drum.
    Drum,
}

/// The newest side-by-side file of `dir` for `scene` (a settle-box file's name goes on with
/// its date after `peers_`; a drum file's name would otherwise sort after every one of them).
pub(crate) fn newest_peers_file(dir: &Path, scene: Peers) -> Option<std::path::PathBuf> {
    match scene {
        Peers::Drum => newest(dir, "peers_drum_", ".tsv"),
        Peers::SettleBox => newest_where(dir, |name| {
            (name.strip_prefix("peers_"))
                .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()))
                && name.ends_with(".tsv")
        }),
    }
}

/// The newest side-by-side run of LIGGGHTS and ballast on `scene` under benches/results: its
/// path and rows.
pub(crate) fn newest_peers(scene: Peers) -> Option<(std::path::PathBuf, Vec<PeerRow>)> {
    let path = newest_peers_file(Path::new("benches/results"), scene)?;
    let rows = parse_peers(&std::fs::read_to_string(&path).ok()?);
    (!rows.is_empty()).then_some((path, rows))
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

/// The table of the newest side-by-side run of LIGGGHTS and ballast, or None.
fn side_by_side() -> Option<String> {
    let (path, rows) = newest_peers(Peers::SettleBox)?;
    let mut t = vec![[
        "model",
        "N",
        "threads / processes",
        "LIGGGHTS (Mps/s)",
        "ballast (Mps/s)",
        "ratio",
        "contacts LIGGGHTS / ballast",
        "mean z (mm) LIGGGHTS / ballast",
    ]
    .map(String::from)
    .to_vec()];
    for (l, b) in peer_pairs(&rows) {
        t.push(vec![
            b.model.clone(),
            b.n.to_string(),
            b.par.to_string(),
            format!("{:.3}", l.mps),
            format!("{:.3}", b.mps),
            format!("{:.2}", b.mps / l.mps),
            format!("{} / {}", l.pp, b.pp),
            format!("{:.4} / {:.4}", l.mean_z * 1e3, b.mean_z * 1e3),
        ]);
    }
    let machine = (rows.iter().map(|r| r.machine.as_str()))
        .find(|m| !m.is_empty())
        .map_or(
            String::from("a machine it did not record (before the 13th round)"),
            |m| m.to_string(),
        );
    Some(render(
        include_str!("text/performance_side_by_side.md"),
        &[
            ("file", esc(&path.display().to_string())),
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

/// The section on every contact model's cost: one row per model, N and thread count of the
/// bench, with its speed against LIGGGHTS's (RESULTS.md's figure for the model it is compared
/// with, [`crate::bench::MODELS`]) and its time against `hertz-history` on the same N and
/// threads; then the targets: at least 2 × LIGGGHTS on one core and at most 1.3 × the time of
/// `hertz-history` at N = 10,000 and 50,000, 2 threads at least 1.8 × one thread, peak memory
/// at most 1 KiB per particle beyond a fixed base.
fn every_model(runs: &[crate::bench::BenchRun], same_hour: &[PeerRow]) -> String {
    use crate::bench::{bench_model, model_of, LIGGGHTS, MODELS};
    // LIGGGHTS on one core from the side-by-side file (measured beside ballast)
    let hour = |compared: &str, n: usize| {
        (same_hour.iter())
            .find(|l| l.code == "liggghts" && l.model == compared && l.n == n && l.par == 1)
            .map(|l| l.mps)
    };
    let find = |m: &str, n: usize, th: usize| {
        (runs.iter()).find(|r| model_of(r) == m && r.n == n && r.threads == th)
    };
    let mut rows = vec![[
        "model",
        "N",
        "threads",
        "Mps/s",
        "LIGGGHTS model, 1 core (Mps/s)",
        "× LIGGGHTS",
        "LIGGGHTS, same hour (Mps/s)",
        "× LIGGGHTS, same hour",
        "time / hertz-history",
        "2 threads / 1",
        "peak memory (MiB)",
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
                let base = find("hertz-history", n, th);
                let single = find(m, n, 1);
                rows.push(vec![
                    m.to_string(),
                    n.to_string(),
                    th.to_string(),
                    format!("{mps:.3}"),
                    l.map_or("-".into(), |l| format!("{compared} {}", l.2)),
                    l.map_or("-".into(), |l| format!("{:.2}", mps / l.2)),
                    hour(compared, n).map_or("-".into(), |h| format!("{compared} {h:.3}")),
                    hour(compared, n)
                        .filter(|_| th == 1)
                        .map_or("-".into(), |h| format!("{:.2}", mps / h)),
                    base.map_or("-".into(), |b| format!("{:.2}", r.loop_s / b.loop_s)),
                    (single.filter(|_| th == 2)).map_or("-".into(), |a| {
                        format!("{:.2}", r.particle_steps_per_s / a.particle_steps_per_s)
                    }),
                    format!("{:.1}", r.peak_rss_kib as f64 / 1024.0),
                ]);
            }
            if n < 10000 || bench_model(m).is_none() {
                continue;
            }
            if let (Some(r), Some(l)) = (
                find(m, n, 1),
                LIGGGHTS.iter().find(|l| l.0 == compared && l.1 == n),
            ) {
                let ratio = r.particle_steps_per_s / 1e6 / l.2;
                targets.push(vec![
                    format!("{m}, N = {n}: at least 2 × LIGGGHTS ({compared}) on one core"),
                    format!("{:.2} ×", ratio),
                    verdict(ratio >= 2.0),
                ]);
            }
            if let (Some(r), Some(h)) = (find(m, n, 1), hour(compared, n)) {
                let ratio = r.particle_steps_per_s / 1e6 / h;
                targets.push(vec![
                    format!(
                        "{m}, N = {n}: at least 2 × LIGGGHTS ({compared}) on one core, the same \
                         machine and hour"
                    ),
                    format!("{ratio:.2} ×"),
                    verdict(ratio >= 2.0),
                ]);
            }
            if let (Some(r), Some(b)) = (find(m, n, 1), find("hertz-history", n, 1)) {
                if m != "hertz-history" {
                    let ratio = r.loop_s / b.loop_s;
                    targets.push(vec![
                        format!("{m}, N = {n}: at most 1.3 × the time of hertz-history"),
                        format!("{ratio:.2} ×"),
                        verdict(ratio <= 1.3),
                    ]);
                }
            }
            if let (Some(a), Some(b)) = (find(m, n, 1), find(m, n, 2)) {
                let s = b.particle_steps_per_s / a.particle_steps_per_s;
                targets.push(vec![
                    format!("{m}, N = {n}: 2 threads at least 1.8 × one thread"),
                    format!("{s:.2} ×"),
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
         <code>hertz</code>, Hooke for the linear ones): RESULTS.md's fixed figures, and the \
         one-core figures of the newest side-by-side file when it has that N (LIGGGHTS run on \
         this machine within the hour of the bench, as the round's notes say).</p>{}{}",
        table(&rows),
        if targets.len() > 1 {
            table(&targets)
        } else {
            String::new()
        }
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
    ]
    .map(String::from)
    .to_vec()];
    for r in auto {
        let base = (fixed.iter())
            .find(|f| f.case == r.case && f.threads == r.threads && f.steps == r.steps);
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

/// The wall-heavy scene's section (issue #30, the drum of make_drum.py): per run the loop,
/// the mean active contacts, and the cost of each phase per contact-step, beside the
/// settle-box's cost per ball-facet contact-step and LIGGGHTS's time on the same drum in the
/// newest side-by-side file (its `drum-hertz` rows). Empty without drum runs.
fn wall_heavy(drum: &[crate::bench::BenchRun], settle: &[crate::bench::BenchRun]) -> String {
    use crate::bench::model_of;
    if drum.is_empty() {
        return String::new();
    }
    // the cost of `phase` seconds over `steps` contact-steps, ns
    let per = |phase: f64, steps: u64| {
        if steps == 0 {
            "-".to_string()
        } else {
            format!("{:.1}", 1e9 * phase / steps as f64)
        }
    };
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
    for (scene, r) in (drum.iter().map(|r| ("drum", r))).chain(
        settle
            .iter()
            .filter(|r| r.n == 10000)
            .map(|r| ("settle-box", r)),
    ) {
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
            per(ph.walls, r.facet_contact_steps),
            per(ph.contacts, r.contact_steps),
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
    if let Some((path, peers)) = newest_peers(Peers::Drum) {
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
        automatic_timestep, every_model, natural_key, parse_peers, peer_pairs, wall_heavy,
        write_performance_page,
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

    /// The per-model section, on runs made up here: hertz on the frame at N = 10,000 takes 26 s
    /// against hertz-history's 20 s (1.30 ×: met) on one thread; 200 M particle-steps in 26 s
    /// is 7.69 Mps/s, 1.25 × LIGGGHTS's Hertz 6.17 (missed); two threads in 14.4 s are
    /// 26/14.4 = 1.81 × (met); memory 10,000 to 50,000 KiB between N = 10,000 and 50,000 is
    /// 1.000 KiB per particle (met).
    #[test]
    fn each_model_is_judged_against_liggghts_and_hertz_history() {
        let run = |model: &str, n: usize, threads: usize, loop_s: f64, kib: u64| BenchRun {
            model: model.into(),
            n,
            threads,
            steps: 20000,
            loop_s,
            particle_steps_per_s: n as f64 * 20000.0 / loop_s,
            peak_rss_kib: kib,
            ..Default::default()
        };
        let runs = [
            run("hertz-history", 10000, 1, 20.0, 9000),
            run("hertz", 10000, 1, 26.0, 10000),
            run("hertz", 10000, 2, 14.4, 10000),
            run("hertz", 50000, 1, 200.0, 50000),
        ];
        // LIGGGHTS beside it in the same hour: 3.0 Mps/s for Hertz at 10k on one core (7.69 /
        // 3.0 = 2.56 ×: met); its two-process row and a Hooke row are not Hertz's one core
        let peers = parse_peers(
            "code\tmodel\tN\tsteps\tpar\tloop_s\tMps_s\tpp\tnw\tke_trans\tmean_z\tpeak_rss_kib\n\
             liggghts\thertz\t10000\t20000\t2\t1.0\t9.0\t1\t1\t0\t0.006\t1\n\
             liggghts\thooke\t10000\t20000\t1\t1.0\t1.0\t1\t1\t0\t0.006\t1\n\
             liggghts\thertz\t10000\t20000\t1\t1.0\t3.0\t1\t1\t0\t0.006\t1\n",
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
        assert!(r.contains("1.30 ×") && r.contains("met"), "{r}");
        let r = row("hertz, N = 10000: at least 2 × LIGGGHTS (hertz)");
        assert!(r.contains("1.25 ×") && r.contains("MISSED"), "{r}");
        let r = row("hertz, N = 10000: at least 2 × LIGGGHTS (hertz) on one core, the same");
        assert!(r.contains("2.56 ×") && r.contains("met"), "{r}");
        assert!(!html.contains("N = 50000: at least 2 × LIGGGHTS (hertz) on one core, the same"));
        let r = row("hertz, N = 10000: 2 threads at least 1.8 × one thread");
        assert!(r.contains("1.81 ×") && r.contains("met"), "{r}");
        let r = row("hertz: peak memory at most 1 KiB per particle");
        assert!(r.contains("1.000 KiB") && r.contains("met"), "{r}");
        assert!(every_model(&[], &[]).is_empty());
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

    /// The settle-box's side-by-side file is the newest dated `peers_<date>...` one, and the
    /// drum's the newest `peers_drum_...` one: a drum file, whose name sorts after every
    /// dated one, never hides a newer settle-box run (it did: the Performance page showed the
    /// drum's table and no same-hour LIGGGHTS figure for every later settle-box run).
    #[test]
    fn the_newest_side_by_side_file_of_each_scene() {
        use super::{newest_peers_file, Peers};
        let dir = std::env::temp_dir().join(format!("ballast_peers_{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for name in [
            "peers_2026-11-21.tsv",
            "peers_2026-11-27g_xeon_r21_50k.tsv",
            "peers_2026-11-28_xeon_r22.tsv",
            "peers_drum_2026-11-27_xeon.tsv",
            "peers_drum_2026-11-20.tsv",
            "peers_notes.txt",
            "settle_box_2026-11-29.json",
        ] {
            std::fs::write(dir.join(name), "").unwrap();
        }
        let name = |scene| {
            let p = newest_peers_file(&dir, scene).unwrap();
            p.file_name().unwrap().to_string_lossy().into_owned()
        };
        assert_eq!(name(Peers::SettleBox), "peers_2026-11-28_xeon_r22.tsv");
        assert_eq!(name(Peers::Drum), "peers_drum_2026-11-27_xeon.tsv");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
