//! The page of one case: what it simulates, its checks with their references and plots, and
//! its recorded series.

use super::code::code_link;
use super::html::*;
use super::plot::svg;
use crate::math::Real;
use crate::output::{axis_title, base_series, series_unit, SeriesTable};
use crate::record::{CheckOutcome, Curve, Plot, Summary};
use std::fmt::Write as _;
use std::path::Path;

/// Writes `index.html` for one case from its summary and series.
///
/// # Errors
/// I/O errors.
pub fn write_case_page(dir: &Path, s: &Summary, series: &SeriesTable) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let mut h = header(dir, s);
    h.push_str(&scene_section(dir, s));
    h.push_str("<h2>Checks</h2>");
    let mut plotted = Vec::new();
    for (k, c) in s.checks.iter().enumerate() {
        h.push_str(&check_section(dir, k, c, series, &mut plotted));
    }
    h.push_str(&recorded_series(series, &plotted));
    h.push_str(
        "<h2>Files</h2><p><a href=\"series.csv\">series.csv</a> (every recorded series), \
                <a href=\"summary.json\">summary.json</a> (this page's data).</p></body></html>",
    );
    crate::storage::write_atomic(&dir.join("index.html"), h)
}

/// The page's title and verdict, how the run went, and the timestep in force.
fn header(dir: &Path, s: &Summary) -> String {
    let mut h = String::new();
    let _ = write!(
        h,
        "<!doctype html><html><head><meta charset=utf-8><title>{0}</title><style>{STYLE}</style></head><body>\
         <p><a href=\"../../index.html\">← all cases</a></p><h1>{0} {1}</h1><p>{2}</p>",
        esc(&s.case),
        case_verdict(s),
        esc(&s.description)
    );
    if let Some(e) = &s.error {
        let _ = write!(h, "<p><b>The run stopped:</b> {}</p>", esc(e));
    }
    if let Some(e) = &s.stopped {
        let _ = write!(h, "<p><b>Stopped early:</b> {}.</p>", esc(e));
    }
    if !s.warnings.is_empty() {
        h.push_str(
            "<p><b>Warnings</b> (what the case asks for that may not be what was meant):</p><ul>",
        );
        for w in &s.warnings {
            let _ = write!(h, "<li>{}</li>", esc(w));
        }
        h.push_str("</ul>");
    }
    let _ = write!(
        h,
        "<p>Case file <code>{}</code>; {} cycles, {:.6e} s simulated, dt from {:.3e} to {:.3e} s; \
         {} bod{}; at the end {} ball-ball and {} ball-wall contacts active (of {} and {} \
         candidates); {:.3} s of wall time.</p>",
        esc(&s.file),
        s.steps,
        s.time,
        s.dt.min,
        s.dt.max,
        s.bodies,
        if s.bodies == 1 { "y" } else { "ies" },
        s.contacts_active,
        s.wall_contacts_active,
        s.contacts,
        s.wall_contacts,
        s.wall_seconds
    );
    h.push_str(&timestep_in_force(dir, s));
    h.push_str(&cut_over_ranks(dir, s));
    h
}

/// How a run over ranks was cut, and each move of the cuts with the imbalance before and
/// after (empty for a run in one process).
fn cut_over_ranks(dir: &Path, s: &Summary) -> String {
    let Some(r) = &s.ranks else {
        return String::new();
    };
    let mut h = String::new();
    let [x, y, z] = r.bricks;
    let cuts: Vec<String> = (0..3)
        .filter(|&k| !r.cuts[k].is_empty())
        .map(|k| {
            let at: Vec<String> = r.cuts[k].iter().map(|c| fmt_num(Some(*c))).collect();
            format!("{} = {} m", ["x", "y", "z"][k], at.join(", "))
        })
        .collect();
    let _ = write!(
        h,
        "<p><b>Over ranks:</b> {} ranks, {x} × {y} × {z} bricks; cuts at the end at {}; the \
         most balls a rank owns are {:.3} times the mean at the end. Every output file but \
         this page is the bytes of one process. The cuts move to the balls' quantiles when \
         that ratio passes {} (<code>[parallel] rebalance</code>; {}): ",
        r.ranks,
        if cuts.is_empty() {
            "none".into()
        } else {
            cuts.join("; ")
        },
        r.imbalance,
        fmt_num(Some(r.rebalance)),
        code_link(dir, "src/cycle/balance.rs::balance")
    );
    if r.moves.is_empty() {
        h.push_str("they never moved.</p>");
        return h;
    }
    match r.moves.len() {
        1 => h.push_str("they moved once.</p>"),
        n => {
            let _ = write!(h, "they moved {n} times.</p>");
        }
    }
    h.push_str("<table><tr><th>cycle</th><th>imbalance before</th><th>after</th></tr>");
    for (cycle, before, after) in r.moves.iter().take(20) {
        let _ = write!(
            h,
            "<tr><td>{cycle}</td><td>{before:.3}</td><td>{after:.3}</td></tr>"
        );
    }
    if r.moves.len() > 20 {
        let _ = write!(
            h,
            "<tr><td colspan=\"3\">and {} more</td></tr>",
            r.moves.len() - 20
        );
    }
    h.push_str("</table>");
    h
}

/// The timestep at the end and over the run, and the limits that set it (empty when none was
/// recorded).
fn timestep_in_force(dir: &Path, s: &Summary) -> String {
    if s.dt.set_by.is_empty() {
        return String::new();
    }
    let mut h = String::new();
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
        code_link(dir, "src/timestep/stage.rs::choose")
    );
    h
}

/// "What is simulated": the settings, materials, contact models, walls and balls of the
/// scene, and the cycle's code.
fn scene_section(dir: &Path, s: &Summary) -> String {
    let mut h = String::new();
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
            code_link(dir, "src/contact/frame.rs::Frame::advance"),
            code_link(dir, "src/contact/ball_ball.rs::update")
        );
        h.push_str(&table(&s.scene.contact_models));
    }
    h.push_str(&walls_section(dir, s));
    if s.scene.balls.len() > 1 {
        h.push_str("<h3>Balls</h3>");
        h.push_str(&table(&s.scene.balls));
        if s.scene.balls_not_listed > 0 {
            let _ = write!(h, "<p>… and {} more balls.</p>", s.scene.balls_not_listed);
        }
    }
    let _ = write!(
        h,
        "<p>The cycle ({}): {} (timestep), {} (law of motion: velocity Verlet, velocities half a step behind positions), \
         {} (contact detection), {} (force-displacement).</p>",
        code_link(dir, "src/cycle/mod.rs::cycle"), code_link(dir, "src/timestep/stage.rs::choose"), code_link(dir, "src/motion/balls.rs::step"),
        code_link(dir, "src/detect/stage.rs::run"), code_link(dir, "src/force/stage.rs::run")
    );
    h
}

/// The walls of the scene, their code, and their drawing (empty without walls).
fn walls_section(dir: &Path, s: &Summary) -> String {
    if s.scene.walls.len() <= 1 {
        return String::new();
    }
    let mut h = String::new();
    let _ = write!(
        h,
        "<h3>Walls</h3><p>Faceted walls (seed 001): meshes and adjacency in {}, closest point and region in {}, ball-facet contacts in {}, the associative logic in {}, wall motion in {}. Facets are numbered from 0; the normal of each facet follows the right-hand rule.</p>",
        code_link(dir, "src/geom/mesh.rs::Mesh::new"),
        code_link(dir, "src/geom/triangle.rs::closest_point"),
        code_link(dir, "src/contact/ball_facet.rs::update_force"),
        code_link(dir, "src/contact/associative.rs::resolve"),
        code_link(dir, "src/body/wall.rs::Wall::step")
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
            code_link(dir, "src/contact/full.rs::resolve")
        );
    }
    h.push_str(&table(&s.scene.walls));
    if !s.scene.geometry.is_empty() {
        let _ = write!(h, "<figure>{}<figcaption>Initial geometry: walls (facet numbers when there are few) and balls (ids), drawn back to front.</figcaption></figure>", s.scene.geometry);
    }
    if dir.join("vtk").join("run.pvd").exists() {
        h.push_str("<p>VTK files of this run: <a href=\"vtk/run.pvd\">vtk/run.pvd</a> (open in ParaView).</p>");
    }
    h
}

/// Check number `k` (from 0): what it measured, against what, its numbers, its plots (the
/// judged series is added to `plotted`) and its code.
fn check_section(
    dir: &Path,
    k: usize,
    c: &CheckOutcome,
    series: &SeriesTable,
    plotted: &mut Vec<String>,
) -> String {
    let mut h = String::new();
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
    h.push_str(&check_numbers(c));
    if !c.message.is_empty() {
        let _ = write!(h, "<p>{}</p>", esc(&c.message));
    }
    if !c.table.is_empty() {
        h.push_str(&table(&c.table));
    }
    if let Some(col) = &c.series {
        if let Some(y) = series.column(col) {
            h.push_str(&series_plots(c, col, y, series));
            plotted.push(col.clone());
        }
    }
    for p in &c.plots {
        h.push_str(&svg(p));
    }
    let links: Vec<String> = c.code.iter().map(|f| code_link(dir, f)).collect();
    let _ = write!(h, "<p>Code: {}</p></section>", links.join(", "));
    h
}

/// The table of a check's measured and expected values, their difference and the tolerance.
fn check_numbers(c: &CheckOutcome) -> String {
    let err = match (c.value, c.expected) {
        _ if c.tolerance_kind == "range" => "—".into(),
        (Some(v), Some(e)) if c.tolerance_kind == "relative" && e != 0.0 => {
            format!("{:.3e} (relative)", (v - e).abs() / e.abs())
        }
        (Some(v), Some(e)) => format!("{:.3e}", (v - e).abs()),
        _ => "—".into(),
    };
    table(&[
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
    ])
}

/// The plot of a check's judged series `col` (values `y`) against its reference, and where
/// they coincide, their difference.
fn series_plots(c: &CheckOutcome, col: &str, y: &[Real], series: &SeriesTable) -> String {
    let mut h = String::new();
    let mut curves = vec![Curve {
        label: format!("{col} (ballast)"),
        x: series.t.clone(),
        y: y.to_vec(),
        markers: false,
    }];
    curves.extend(c.reference.clone());
    h.push_str(&svg(&Plot {
        title: col.to_string(),
        x_label: "t (s)".into(),
        y_label: axis_title(col),
        curves,
        ..Default::default()
    }));
    // where run and reference coincide on the plot, their difference is the evidence
    if let Some(d) = c.reference.as_ref().and_then(|r| residual(&series.t, y, r)) {
        let unit = series_unit(col);
        h.push_str(&svg(&Plot {
            title: format!("{col}: ballast − reference"),
            x_label: "t (s)".into(),
            y_label: if unit.is_empty() {
                "difference (-)".into()
            } else {
                format!("difference ({unit})")
            },
            curves: vec![d],
            ..Default::default()
        }));
    }
    h
}

/// The plots of the series no check judged (`plotted`), the columns of a vector or tensor
/// together, at most 24.
fn recorded_series(series: &SeriesTable, plotted: &[String]) -> String {
    let mut h = String::new();
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
            y_label: axis_title(base),
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
    h
}

/// The run minus the reference at the run's records within the reference's span (the
/// reference linearly interpolated between its points; exact where it was sampled at the
/// run's times). None when the reference is not a curve over time (fewer than three points:
/// a `final_value` check's line, which judges only the last record), is not sorted in time,
/// or overlaps no record.
fn residual(t: &[Real], y: &[Real], reference: &Curve) -> Option<Curve> {
    let (rx, ry) = (&reference.x, &reference.y);
    if rx.len() < 3 || rx.len() != ry.len() || rx.windows(2).any(|w| w[1] < w[0]) {
        return None;
    }
    let (mut x, mut d) = (Vec::new(), Vec::new());
    let mut k = 0;
    for (&ti, &yi) in t.iter().zip(y) {
        if ti < rx[0] || ti > rx[rx.len() - 1] {
            continue;
        }
        while k + 2 < rx.len() && rx[k + 1] < ti {
            k += 1;
        }
        let (x0, x1) = (rx[k], rx[k + 1]);
        let at = if ti == x0 {
            ry[k]
        } else if ti == x1 {
            ry[k + 1]
        } else {
            ry[k] + (ry[k + 1] - ry[k]) * (ti - x0) / (x1 - x0)
        };
        x.push(ti);
        d.push(yi - at);
    }
    (!x.is_empty()).then(|| Curve {
        label: format!("ballast − {}", reference.label),
        x,
        y: d,
        markers: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Against a hand calculation: a reference sampled at other times is interpolated, one at
    /// the run's times is subtracted exactly, and records outside its span are left out.
    #[test]
    fn the_residual_is_the_run_minus_the_reference() {
        let reference = Curve {
            label: "r".into(),
            x: vec![0.0, 1.0, 3.0],
            y: vec![0.0, 2.0, 0.0],
            markers: false,
        };
        let d = residual(&[0.5, 1.0, 2.0, 4.0], &[1.5, 2.0, 1.5, 9.0], &reference).unwrap();
        // reference at 0.5: 1; at 1: 2; at 2: 1; 4 is outside
        assert_eq!(d.x, vec![0.5, 1.0, 2.0]);
        assert_eq!(d.y, vec![0.5, 0.0, 0.5]);
        let mut backwards = reference.clone();
        backwards.x.reverse();
        assert!(residual(&[0.5], &[1.0], &backwards).is_none());
        let line = Curve {
            x: vec![0.0, 3.0],
            y: vec![1.0, 1.0],
            ..reference
        };
        assert!(residual(&[0.5], &[1.0], &line).is_none());
    }
}
