//! The index page: the coverage matrix (docs/REFERENCES.md against the cases), every case with
//! its verdict grouped by topic (case folder), and the topic pages.

use super::html::*;
use crate::record::Summary;
use std::fmt::Write as _;
use std::path::Path;

/// Writes `reports/index.html` listing the cases (each page at `cases/<name>/index.html`).
///
/// # Errors
/// I/O errors.
pub fn write_index(reports: &Path, summaries: &[Summary]) -> std::io::Result<()> {
    std::fs::create_dir_all(reports)?;
    let passed = (summaries.iter())
        .filter(|s| s.passed && !s.ran_without_checks())
        .count();
    let ran = summaries.iter().filter(|s| s.ran_without_checks()).count();
    let ran = if ran > 0 {
        format!(" {ran} ran without checks (nothing judged).")
    } else {
        String::new()
    };
    let mut h = String::new();
    let _ = write!(
        h,
        "<!doctype html><html><head><meta charset=utf-8><title>ballast verification</title><style>{STYLE}</style></head><body>\
         <h1>ballast verification report</h1><p>{passed} of {} cases passed.{ran} Each case is a scene with checks against an \
         independent reference; open a case for what it simulates, the reference and its formula, the plots and the code.</p>\
         <p>Topic pages: <a href=\"stiffness.html\">Stiffness matrix</a> (the seed's printed entries against the derivation, errata), \
         <a href=\"timestep.html\">Timestep</a> (estimates against the exact critical timestep, scaling against the automatic timestep), \
         <a href=\"chung_ooi.html\">Chung &amp; Ooi</a> (contact models against the 2011 impact benchmarks), \
         <a href=\"full_mode.html\">Full wall resolution mode</a> (line of sight, continuity of contact state, proximity contacts: \
         reduced and full mode side by side), \
         <a href=\"clumps.html\">Clumps</a> (mass properties of overlapping pebbles, torque-free rotation, drift against the timestep), \
         <a href=\"planar.html\">2D disk mode</a> (the 2D force and moment law against the print, 2D against 3D), \
         <a href=\"experiments.html\">Experiments</a> (insertion against its size distribution, silo discharge against Beverloo, stresses against hand derivations, moving and servo walls, runs in stages), \
         <a href=\"rolling.html\">Rolling resistance and cohesion</a> (the CDT, EPSD and PFC couples against closed forms: deceleration, slope threshold, moment-rotation loop, rocking; DMT, SJKR and JKR pull-off curves, JKR's sticking velocity), \
         <a href=\"rheology.html\">Rheology</a> (the pressure-controlled periodic cell by hand, mu(I) and phi(I) of a sheared cell against published values, LAMMPS beside ballast, chute flows against Bagnold), \
         <a href=\"performance.html\">Performance</a> (the settle-box benchmark against LIGGGHTS, from <code>ballast bench</code>).</p>",
        summaries.len()
    );
    h.push_str(SEEDS);
    h.push_str(&super::coverage::matrix(summaries));
    h.push_str(&cases_by_topic(summaries));
    h.push_str("</body></html>");
    crate::storage::write_atomic(&reports.join("index.html"), h)?;
    super::stiffness::write_stiffness_page(reports)?;
    super::chung_ooi::write_chung_ooi_page(reports, summaries)?;
    super::full_mode::write_full_mode_page(reports, summaries)?;
    super::clumps::write_clumps_page(reports, summaries)?;
    super::planar::write_planar_page(reports, summaries)?;
    super::experiments::write_experiments_page(reports, summaries)?;
    super::rolling::write_rolling_page(reports, summaries)?;
    super::rheology::write_rheology_page(reports, summaries)?;
    // The performance page comes from `ballast bench`: its latest run here, or else the
    // results committed under benches/results/ (the newest of each kind).
    let bench = reports.join("bench").join("results.json");
    let committed = Path::new("benches/results");
    if let Ok(text) = std::fs::read_to_string(&bench) {
        if let Ok(runs) = serde_json::from_str::<Vec<crate::bench::BenchRun>>(&text) {
            super::performance::write_performance_page(reports, &runs, false)?;
        }
    } else if !super::performance::write_committed_performance_page(reports, committed)?
        && !reports.join("performance.html").exists()
    {
        std::fs::write(
            reports.join("performance.html"),
            super::performance::empty_performance_page(),
        )?;
    }
    super::timestep::write_timestep_page(reports, summaries)?;
    unlink_cases_not_run(reports)
}

/// What the pages mean by "seed 000" to "seed 004": the five source documents the engine was
/// derived from (docs/REFERENCES.md says which of their equations are used, and where).
const SEEDS: &str = "<p id=\"seeds\">\"Seed 000\" to \"seed 004\", on these pages and in the code, are \
    the five source documents the engine was derived from (docs/REFERENCES.md says which of their \
    equations we use, where, and where we depart from the print):</p><ul>\
    <li><b>seed 000</b>: PFC (Itasca), \"Timestep Determination\": the kinematic constraint, the \
    critical timestep of the stiffness matrix and its estimates, timestep scaling;</li>\
    <li><b>seed 001</b>: PFC (Itasca), \"Faceted Walls\": walls of triangle meshes, the closest \
    point of a facet, the associative logic and the full resolution mode;</li>\
    <li><b>seed 002</b>: Woo (Šmilauer), \"Local contact coordinates\": a contact frame at the \
    contact point, its x axis the normal, carried along from cycle to cycle;</li>\
    <li><b>seed 003</b>: Rocky DEM (ESSS) technical manual, \"Timestep calculations\": a timestep \
    from each contact model's own collision time;</li>\
    <li><b>seed 004</b>: C. Zhao, <i>Fundamentals of Computational Geoscience</i> (2009), section \
    8.1: the particle simulation method, the 2D contact force and the loop of a time step.</li></ul>";

/// The cases grouped by topic (their folder under `cases/`), one table per topic under a
/// heading the coverage matrix links to.
fn cases_by_topic(summaries: &[Summary]) -> String {
    let mut h = String::from("<h2>Cases by topic</h2>");
    for (topic, group) in super::coverage::by_topic(summaries) {
        let ok = group
            .iter()
            .filter(|s| s.passed && !s.ran_without_checks())
            .count();
        let _ = write!(
            h,
            "<h3 id=\"{}\">{} <small>({ok} of {} passed)</small></h3><table>\
             <tr><th>case</th><th>verdict</th><th>checks passed</th><th>cycles</th><th>wall time (s)</th><th>what it shows</th></tr>",
            super::coverage::anchor(&topic),
            esc(super::coverage::topic_title(&topic)),
            group.len()
        );
        for s in group {
            let ok = s.checks.iter().filter(|c| c.passed).count();
            let what = s.error.as_deref().map_or_else(
                || s.description.clone(),
                |e| format!("{} — {e}", s.description),
            );
            let _ = write!(
                h,
                "<tr><td><a href=\"cases/{0}/index.html\">{0}</a></td><td>{1}</td><td>{2} / {3}</td><td>{4}</td><td>{5:.3}</td><td>{6}</td></tr>",
                esc(&s.case), case_verdict(s), ok, s.checks.len(), s.steps, s.wall_seconds, esc(&what)
            );
        }
        h.push_str("</table>");
    }
    h
}

/// On the topic pages, a link to a case page that does not exist (the case has not run here:
/// a `verify` of some cases only) becomes the case's name marked "not run", instead of a
/// broken link.
fn unlink_cases_not_run(reports: &Path) -> std::io::Result<()> {
    for e in std::fs::read_dir(reports)?.flatten() {
        let path = e.path();
        if path.extension().is_none_or(|x| x != "html") || path.ends_with("index.html") {
            continue;
        }
        let html = std::fs::read_to_string(&path)?;
        let mut out = String::with_capacity(html.len());
        let mut rest = html.as_str();
        const OPEN: &str = "<a href=\"cases/";
        while let Some(k) = rest.find(OPEN) {
            out.push_str(&rest[..k]);
            let tail = &rest[k..];
            let name_end = tail[OPEN.len()..].find('/').map(|j| OPEN.len() + j);
            let close = tail.find("</a>");
            match (name_end, close) {
                (Some(j), Some(c))
                    if !reports
                        .join("cases")
                        .join(&tail[OPEN.len()..j])
                        .join("index.html")
                        .exists() =>
                {
                    let text_start = tail.find('>').map_or(c, |t| t + 1).min(c);
                    let _ = write!(out, "{} (not run)", &tail[text_start..c]);
                    rest = &tail[c + 4..];
                }
                _ => {
                    out.push_str(OPEN);
                    rest = &tail[OPEN.len()..];
                }
            }
        }
        out.push_str(rest);
        if out != html {
            crate::storage::write_atomic(&path, out)?;
        }
    }
    Ok(())
}
