//! What the sections' tables say of a run: its model's name, its results file, its repeats, a
//! phase per contact-step, a target's verdict and the memory per particle.

use crate::bench::BenchRun;
use crate::report::html::esc;

/// The peak memory per particle beyond a fixed base, KiB: the slope between the runs of the
/// smallest and the largest N, with those N (None without two sizes).
pub(super) fn memory_slope<'a>(
    runs: impl Iterator<Item = &'a BenchRun>,
) -> Option<(f64, usize, usize)> {
    let mem: Vec<(usize, u64)> = runs.map(|r| (r.n, r.peak_rss_kib)).collect();
    let a = mem.iter().min_by_key(|x| x.0)?;
    let b = mem.iter().max_by_key(|x| x.0)?;
    (b.0 > a.0).then(|| ((b.1 as f64 - a.1 as f64) / (b.0 - a.0) as f64, a.0, b.0))
}

/// The results file a run came from, without its kind and extension
/// (`settle_box_2026-11-28_xeon_r24_10k.json` is `2026-11-28_xeon_r24_10k`), or "this bench"
/// for a run of the bench that writes the page.
pub(super) fn source_tag(r: &BenchRun) -> String {
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
pub(super) fn runs_of(r: &BenchRun) -> String {
    if r.repeats.len() < 2 {
        return "1".into();
    }
    let lo = r.repeats.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = r.repeats.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    format!("{}: {lo:.1}-{hi:.1}", r.repeats.len())
}

/// A sentence naming the results files of `runs` (none when they are this bench's).
pub(super) fn measured_in<'a>(runs: impl Iterator<Item = &'a BenchRun>) -> String {
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

/// A run's model as the sections judged against LIGGGHTS name it: the history models by
/// LIGGGHTS's names, and the frame-based `hertz` by another, so that it does not pass for
/// LIGGGHTS's.
pub(super) fn page_model(r: &BenchRun) -> &str {
    match crate::bench::model_of(r) {
        "hertz-history" => "hertz",
        "hooke-history" => "hooke",
        "hertz" => "hertz (frame)",
        other => other,
    }
}

/// A phase's time over its contact-steps, in ns to a tenth ("-" without contacts).
pub(super) fn ns_per(phase: f64, steps: u64) -> String {
    if steps == 0 {
        "-".to_string()
    } else {
        format!("{:.1}", 1e9 * phase / steps as f64)
    }
}

/// A target's verdict: "met" or "MISSED".
pub(super) fn met(ok: bool) -> String {
    if ok { "met" } else { "MISSED" }.to_string()
}
