//! HTML report: one page per case and an index (`reports/index.html`).

mod chung_ooi;
pub mod geometry;
mod plot;
mod topics;

pub use chung_ooi::write_chung_ooi_page;
pub use plot::svg;
pub use topics::{
    write_full_mode_page, write_performance_page, write_stiffness_page, write_timestep_page,
};

use crate::output::{base_series, SeriesTable};
use crate::record::{Curve, Plot, Summary};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

const STYLE: &str = "body{font-family:sans-serif;max-width:70em;margin:1em auto;padding:0 1em;color:#222}\
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.25em .6em;text-align:left;font-size:.92em}\
th{background:#f3f3f3}.pass{color:#fff;background:#2a8a2a;padding:0 .4em;border-radius:3px}\
.fail{color:#fff;background:#c0392b;padding:0 .4em;border-radius:3px}code{background:#f5f5f5;padding:0 .2em}\
section.check{border-left:4px solid #ddd;padding-left:1em;margin:1.5em 0}.formula{font-family:serif;font-size:1.08em}.legend{font-size:.9em;margin:0 0 1em 5em}";

/// Escapes text for HTML.
pub fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn verdict(passed: bool) -> &'static str {
    if passed {
        "<span class=pass>PASS</span>"
    } else {
        "<span class=fail>FAIL</span>"
    }
}

fn table(rows: &[Vec<String>]) -> String {
    let mut s = String::from("<table>");
    for (k, row) in rows.iter().enumerate() {
        s.push_str("<tr>");
        for cell in row {
            let tag = if k == 0 { "th" } else { "td" };
            let _ = write!(s, "<{tag}>{}</{tag}>", esc(cell));
        }
        s.push_str("</tr>");
    }
    s.push_str("</table>");
    s
}

/// Path from folder `from` to folder `to`, both made absolute.
fn relative(from: &Path, to: &Path) -> Option<PathBuf> {
    let (from, to) = (from.canonicalize().ok()?, to.canonicalize().ok()?);
    let common = from
        .components()
        .zip(to.components())
        .take_while(|(a, b)| a == b)
        .count();
    let mut p = PathBuf::new();
    for _ in from.components().skip(common) {
        p.push("..");
    }
    for c in to.components().skip(common) {
        p.push(c);
    }
    Some(p)
}

fn code_link(page_dir: &Path, file: &str) -> String {
    let root = std::env::current_dir().ok();
    match root
        .filter(|r| r.join(file).exists())
        .and_then(|r| relative(page_dir, &r))
    {
        Some(rel) => format!(
            "<a href=\"{}\"><code>{}</code></a>",
            esc(&rel.join(file).display().to_string()),
            esc(file)
        ),
        None => format!("<code>{}</code>", esc(file)),
    }
}

fn fmt_num(v: Option<f64>) -> String {
    v.map_or("—".into(), |v| format!("{v:.6e}"))
}

/// Writes `index.html` for one case from its summary and series.
///
/// # Errors
/// I/O errors.
pub fn write_case_page(dir: &Path, s: &Summary, series: &SeriesTable) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let mut h = String::new();
    let _ = write!(
        h,
        "<!doctype html><html><head><meta charset=utf-8><title>{0}</title><style>{STYLE}</style></head><body>\
         <p><a href=\"../../index.html\">← all cases</a></p><h1>{0} {1}</h1><p>{2}</p>",
        esc(&s.case),
        verdict(s.passed),
        esc(&s.description)
    );
    if let Some(e) = &s.error {
        let _ = write!(h, "<p><b>The run stopped:</b> {}</p>", esc(e));
    }
    if let Some(e) = &s.stopped {
        let _ = write!(h, "<p><b>Stopped early:</b> {}.</p>", esc(e));
    }
    let _ = write!(
        h,
        "<p>Case file <code>{}</code>; {} cycles, {:.6e} s simulated, dt from {:.3e} to {:.3e} s; \
         {} bodies, {} contacts at the end ({} active); {:.3} s of wall time.</p>",
        esc(&s.file),
        s.steps,
        s.time,
        s.dt.min,
        s.dt.max,
        s.bodies,
        s.contacts,
        s.contacts_active,
        s.wall_seconds
    );
    if !s.dt.set_by.is_empty() {
        let total: u64 = s.dt.set_by.iter().map(|x| x.1).sum();
        let mut parts: Vec<String> =
            s.dt.set_by
                .iter()
                .take(6)
                .map(|(what, n)| format!("{} ({} of {} cycles)", esc(what), n, total))
                .collect();
        if s.dt.set_by.len() > 6 {
            parts.push(format!("{} other limits", s.dt.set_by.len() - 6));
        }
        let _ = write!(
            h,
            "<p><b>Timestep in force:</b> {} s at the end ({} to {} s over the run); set by {}. Every cycle's value is the series <code>dt</code>; {} chooses it.</p>",
            fmt_num(Some(s.dt.last)),
            fmt_num(Some(s.dt.min)),
            fmt_num(Some(s.dt.max)),
            parts.join(", "),
            code_link(dir, "src/timestep.rs")
        );
    }
    h.push_str("<h2>What is simulated</h2>");
    let settings: Vec<Vec<String>> = std::iter::once(vec!["setting".into(), "value".into()])
        .chain(
            s.scene
                .settings
                .iter()
                .map(|(k, v)| vec![k.clone(), v.clone()]),
        )
        .collect();
    h.push_str(&table(&settings));
    if s.scene.materials.len() > 1 {
        h.push_str("<h3>Materials</h3>");
        h.push_str(&table(&s.scene.materials));
    }
    if s.scene.contact_models.len() > 1 {
        // The force law of each model named in the table (column 1), once each.
        let mut laws: Vec<&str> = Vec::new();
        for row in s.scene.contact_models.iter().skip(1) {
            let file = crate::law::source_file(row.get(1).map_or("", String::as_str));
            if !laws.contains(&file) {
                laws.push(file);
            }
        }
        let links: Vec<String> = laws.iter().map(|f| code_link(dir, f)).collect();
        let _ = write!(
            h,
            "<h3>Contact models</h3><p>Implemented in {} (force), {} (local frame) and {} (geometry).</p>",
            links.join(", "),
            code_link(dir, "src/contact/frame.rs"),
            code_link(dir, "src/contact/ball_ball.rs")
        );
        h.push_str(&table(&s.scene.contact_models));
    }
    if s.scene.walls.len() > 1 {
        let _ = write!(
            h,
            "<h3>Walls</h3><p>Faceted walls (seed 001): meshes and adjacency in {}, closest point and region in {}, ball-facet contacts in {}, the associative logic in {}, wall motion in {}. Facets are numbered from 0; the normal of each facet follows the right-hand rule.</p>",
            code_link(dir, "src/geom/mesh.rs"),
            code_link(dir, "src/geom/triangle.rs"),
            code_link(dir, "src/contact/ball_facet.rs"),
            code_link(dir, "src/contact/associative.rs"),
            code_link(dir, "src/model/wall.rs")
        );
        let resolution = s
            .scene
            .walls
            .first()
            .and_then(|r| r.iter().position(|c| c == "resolution"));
        if resolution.is_some_and(|k| {
            s.scene
                .walls
                .iter()
                .skip(1)
                .any(|r| r.get(k).is_some_and(|c| c == "full"))
        }) {
            let _ = write!(
                h,
                "<p>Full resolution mode (line of sight, continuity of contact state, proximity contacts) in {}; the \
                 <a href=\"../../full_mode.html\">Full wall resolution mode</a> page compares it with the reduced mode.</p>",
                code_link(dir, "src/contact/full.rs")
            );
        }
        h.push_str(&table(&s.scene.walls));
        if !s.scene.geometry.is_empty() {
            let _ = write!(h, "<figure>{}<figcaption>Initial geometry: walls (facet numbers when there are few) and balls (ids), drawn back to front.</figcaption></figure>", s.scene.geometry);
        }
        if dir.join("vtk").join("run.pvd").exists() {
            h.push_str("<p>VTK files of this run: <a href=\"vtk/run.pvd\">vtk/run.pvd</a> (open in ParaView).</p>");
        }
    }
    if s.scene.balls.len() > 1 {
        h.push_str("<h3>Balls</h3>");
        h.push_str(&table(&s.scene.balls));
        if s.scene.balls_not_listed > 0 {
            let _ = write!(h, "<p>… and {} more balls.</p>", s.scene.balls_not_listed);
        }
    }
    let _ = write!(
        h,
        "<p>The cycle: {} (timestep), {} (law of motion: velocity Verlet, velocities half a step behind positions), \
         {} (contact detection), {} (force-displacement).</p>",
        code_link(dir, "src/timestep.rs"), code_link(dir, "src/motion.rs"),
        code_link(dir, "src/detect.rs"), code_link(dir, "src/cycle.rs")
    );
    h.push_str("<h2>Checks</h2>");
    let mut plotted = Vec::new();
    for (k, c) in s.checks.iter().enumerate() {
        let _ = write!(
            h,
            "<section class=check><h3>{}. <code>{}</code> {}</h3>",
            k + 1,
            esc(&c.kind),
            verdict(c.passed)
        );
        let _ = write!(h, "<p><b>Measured:</b> {}</p>", esc(&c.what));
        let _ = write!(
            h,
            "<p><b>Reference:</b> <span class=formula>{}</span></p>",
            esc(&c.formula)
        );
        let err = match (c.value, c.expected) {
            _ if c.tolerance_kind == "range" => "—".into(),
            (Some(v), Some(e)) if c.tolerance_kind == "relative" && e != 0.0 => {
                format!("{:.3e} (relative)", (v - e).abs() / e.abs())
            }
            (Some(v), Some(e)) => format!("{:.3e}", (v - e).abs()),
            _ => "—".into(),
        };
        h.push_str(&table(&[
            ["measured", "expected", "difference", "tolerance"]
                .map(String::from)
                .to_vec(),
            vec![
                fmt_num(c.value),
                fmt_num(c.expected),
                err,
                if c.tolerance_kind == "range" {
                    format!("accepted: {}", c.accepted)
                } else {
                    format!(
                        "{} ({})",
                        fmt_num(c.tolerance),
                        if c.tolerance_kind.is_empty() {
                            "relative"
                        } else {
                            &c.tolerance_kind
                        }
                    )
                },
            ],
        ]));
        if !c.message.is_empty() {
            let _ = write!(h, "<p>{}</p>", esc(&c.message));
        }
        if !c.table.is_empty() {
            h.push_str(&table(&c.table));
        }
        if let Some(col) = &c.series {
            if let Some(y) = series.column(col) {
                let mut curves = vec![Curve {
                    label: format!("{col} (ballast)"),
                    x: series.t.clone(),
                    y: y.to_vec(),
                    markers: false,
                }];
                curves.extend(c.reference.clone());
                h.push_str(&svg(&Plot {
                    title: col.clone(),
                    x_label: "t (s)".into(),
                    y_label: col.clone(),
                    curves,
                    ..Default::default()
                }));
                plotted.push(col.clone());
            }
        }
        for p in &c.plots {
            h.push_str(&svg(p));
        }
        let links: Vec<String> = c.code.iter().map(|f| code_link(dir, f)).collect();
        let _ = write!(h, "<p>Code: {}</p></section>", links.join(", "));
    }
    h.push_str("<h2>Recorded series</h2>");
    let mut groups: Vec<(String, Vec<usize>)> = Vec::new();
    for (k, col) in series.columns.iter().enumerate() {
        if plotted.contains(col) {
            continue;
        }
        let base = base_series(col).to_string();
        match groups.iter_mut().find(|g| g.0 == base) {
            Some(g) => g.1.push(k),
            None => groups.push((base, vec![k])),
        }
    }
    const MAX_PLOTS: usize = 24;
    for (base, cols) in groups.iter().take(MAX_PLOTS) {
        let curves = cols
            .iter()
            .map(|&k| Curve {
                label: series.columns[k].clone(),
                x: series.t.clone(),
                y: series.data[k].clone(),
                markers: false,
            })
            .collect();
        h.push_str(&svg(&Plot {
            title: base.clone(),
            x_label: "t (s)".into(),
            y_label: base.clone(),
            curves,
            ..Default::default()
        }));
    }
    if groups.len() > MAX_PLOTS {
        let _ = write!(
            h,
            "<p>{} more series are in series.csv.</p>",
            groups.len() - MAX_PLOTS
        );
    }
    h.push_str(
        "<h2>Files</h2><p><a href=\"series.csv\">series.csv</a> (every recorded series), \
                <a href=\"summary.json\">summary.json</a> (this page's data).</p></body></html>",
    );
    std::fs::write(dir.join("index.html"), h)
}

/// Writes `reports/index.html` listing the cases (each page at `cases/<name>/index.html`).
///
/// # Errors
/// I/O errors.
pub fn write_index(reports: &Path, summaries: &[Summary]) -> std::io::Result<()> {
    std::fs::create_dir_all(reports)?;
    let passed = summaries.iter().filter(|s| s.passed).count();
    let mut h = String::new();
    let _ = write!(
        h,
        "<!doctype html><html><head><meta charset=utf-8><title>ballast verification</title><style>{STYLE}</style></head><body>\
         <h1>ballast verification report</h1><p>{passed} of {} cases passed. Each case is a scene with checks against an \
         independent reference; open a case for what it simulates, the reference and its formula, the plots and the code.</p>\
         <p>Topic pages: <a href=\"stiffness.html\">Stiffness matrix</a> (the seed's printed entries against the derivation, errata), \
         <a href=\"timestep.html\">Timestep</a> (estimates against the exact critical timestep, scaling against the automatic timestep), \
         <a href=\"chung_ooi.html\">Chung &amp; Ooi</a> (contact models against the 2011 impact benchmarks), \
         <a href=\"full_mode.html\">Full wall resolution mode</a> (line of sight, continuity of contact state, proximity contacts: \
         reduced and full mode side by side), \
         <a href=\"clumps.html\">Clumps</a> (mass properties of overlapping pebbles, torque-free rotation, drift against the timestep), \
         <a href=\"planar.html\">2D disk mode</a> (the 2D force and moment law against the print, 2D against 3D), \
         <a href=\"performance.html\">Performance</a> (the settle-box benchmark against LIGGGHTS, from <code>ballast bench</code>).</p><table>\
         <tr><th>case</th><th>verdict</th><th>checks passed</th><th>cycles</th><th>wall time (s)</th><th>what it shows</th></tr>",
        summaries.len()
    );
    for s in summaries {
        let ok = s.checks.iter().filter(|c| c.passed).count();
        let what = s.error.as_deref().map_or_else(
            || s.description.clone(),
            |e| format!("{} — {e}", s.description),
        );
        let _ = write!(
            h,
            "<tr><td><a href=\"cases/{0}/index.html\">{0}</a></td><td>{1}</td><td>{2} / {3}</td><td>{4}</td><td>{5:.3}</td><td>{6}</td></tr>",
            esc(&s.case), verdict(s.passed), ok, s.checks.len(), s.steps, s.wall_seconds, esc(&what)
        );
    }
    h.push_str("</table></body></html>");
    std::fs::write(reports.join("index.html"), h)?;
    write_stiffness_page(reports)?;
    write_chung_ooi_page(reports, summaries)?;
    write_full_mode_page(reports, summaries)?;
    topics::write_clumps_page(reports, summaries)?;
    topics::write_planar_page(reports, summaries)?;
    // The performance page comes from `ballast bench`: its latest run here, or else the
    // newest results committed under benches/results/.
    let bench = reports.join("bench").join("results.json");
    let bench = if bench.exists() {
        Some(bench)
    } else {
        topics::newest(Path::new("benches/results"), "settle_box_", ".json")
    };
    if let Some(text) = bench.and_then(|b| std::fs::read_to_string(b).ok()) {
        if let Ok(runs) = serde_json::from_str::<Vec<crate::bench::BenchRun>>(&text) {
            write_performance_page(reports, &runs)?;
        }
    } else if !reports.join("performance.html").exists() {
        std::fs::write(
            reports.join("performance.html"),
            topics::empty_performance_page(),
        )?;
    }
    write_timestep_page(reports, summaries)
}

/// Rebuilds every page under `reports/cases/*/` and the index from results on disk.
///
/// # Errors
/// I/O or parse errors, as a sentence.
pub fn rebuild(reports: &Path) -> Result<Vec<Summary>, String> {
    let cases = reports.join("cases");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&cases)
        .map_err(|e| format!("{}: {e}", cases.display()))?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("summary.json").is_file())
        .collect();
    dirs.sort();
    let mut summaries = Vec::new();
    for d in dirs {
        let text = std::fs::read_to_string(d.join("summary.json"))
            .map_err(|e| format!("{}: {e}", d.display()))?;
        let s: Summary = serde_json::from_str(&text)
            .map_err(|e| format!("{}/summary.json: {e}", d.display()))?;
        let table = SeriesTable::read_csv(&d.join("series.csv"))?;
        write_case_page(&d, &s, &table).map_err(|e| format!("{}: {e}", d.display()))?;
        summaries.push(s);
    }
    write_index(reports, &summaries).map_err(|e| e.to_string())?;
    Ok(summaries)
}
