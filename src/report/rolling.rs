//! The Rolling resistance and cohesion page: the CDT, EPSD and PFC couples and the DMT, SJKR and
//! JKR cohesion against their closed forms, with the moment-rotation loop and the force-overlap
//! curves drawn from the runs.

use super::code::code_link;
use super::html::*;
use super::markdown::render;
use super::outcome::outcome_block;
use crate::math::{Real, PI};
use crate::record::{Curve, Plot, Summary};
use std::path::Path;

/// The plate's moment about the ball's centre against the plate's rotation, from the loop
/// cases' runs on disk (EPSD and PFC), or a note when they have not run.
fn loop_plot(reports: &Path) -> String {
    let mut curves = Vec::new();
    for (case, label) in [
        ("rolling_epsd_loop", "EPSD, k_r = 0.225 N m/rad"),
        ("rolling_pfc_loop", "PFC, k_r = k_s R² = 10 N m/rad"),
    ] {
        let (Some((_, theta)), Some((_, moment))) = (
            column_of(reports, case, "wall/plate/rotation.y"),
            column_of(reports, case, "wall/plate/moment.y"),
        ) else {
            continue;
        };
        curves.push(Curve {
            label: format!("{label} (run)"),
            x: theta,
            y: moment.iter().map(|m| m * 1e3).collect::<Vec<Real>>(),
            markers: false,
        });
    }
    if curves.is_empty() {
        return "<p>(run <code>ballast verify</code> to draw the loop)</p>".into();
    }
    super::svg(&Plot {
        title: "moment-rotation loop: the plate's moment about the ball's centre".into(),
        x_label: "rotation of the plate about y (rad)".into(),
        y_label: "moment M_y (mN m)".into(),
        log_x: false,
        log_y: false,
        curves,
    })
}

/// The force of the pull-off runs against their overlap, with the closed forms (DMT on a plate,
/// SJKR between two balls), or a note when they have not run.
fn cohesion_plot(reports: &Path) -> String {
    let mut curves = Vec::new();
    let runs = [
        (
            "cohesion_dmt_pulloff",
            "interaction/1/plate/overlap",
            "wall/plate/force.z",
            -1.0,
            "DMT on a plate",
        ),
        (
            "cohesion_sjkr_pair",
            "interaction/1/2/overlap",
            "ball/2/force.x",
            1.0,
            "SJKR between two balls",
        ),
    ];
    for (case, overlap, force, sign, label) in runs {
        let (Some((_, d)), Some((_, f))) = (
            column_of(reports, case, overlap),
            column_of(reports, case, force),
        ) else {
            continue;
        };
        // the closed forms, from the cases' parameters (k_n = 1000 N/m, R = 10 mm)
        let (kn, r) = (1000.0, 0.01);
        let closed = |x: Real| -> Real {
            if x <= 0.0 {
                return 0.0;
            }
            if case == "cohesion_dmt_pulloff" {
                kn * x - 2.0 * PI * 0.05 * r
            } else {
                kn * x - 1e5 * PI * (r * x - x * x / 4.0)
            }
        };
        let kept: Vec<(Real, Real)> = (d.iter().zip(&f))
            .filter(|(x, _)| **x > 0.0)
            .map(|(x, y)| (x * 1e6, sign * y * 1e3))
            .collect();
        // (from just inside the contact: DMT's force jumps at zero overlap)
        let grid: Vec<Real> = (1..=50)
            .map(|k| kept.iter().map(|p| p.0).fold(0.0, Real::max) * k as Real / 50.0)
            .collect();
        curves.push(Curve {
            label: format!("{label}: closed form"),
            x: grid.clone(),
            y: grid.iter().map(|x| closed(x * 1e-6) * 1e3).collect(),
            markers: false,
        });
        curves.push(Curve {
            label: format!("{label}: run"),
            x: kept.iter().map(|p| p.0).collect(),
            y: kept.iter().map(|p| p.1).collect(),
            markers: true,
        });
    }
    // (the runs first, the closed forms drawn over them)
    curves.sort_by_key(|c| c.label.ends_with("closed form"));
    if curves.is_empty() {
        return "<p>(run <code>ballast verify</code> to draw the curves)</p>".into();
    }
    super::svg(&Plot {
        title: "normal force against overlap while pulled apart".into(),
        x_label: "overlap δ (µm)".into(),
        y_label: "normal force (mN, > 0 repulsive)".into(),
        log_x: false,
        log_y: false,
        curves,
    })
}

/// The JKR pull-off runs' force against their overlap in JKR's units (force over the pull-off
/// force, overlap over `l`), over JKR's curve, or a note when they have not run.
fn jkr_plot(reports: &Path) -> String {
    // the cases' constants: E* = 1e7 / (2 (1 - 0.25^2)), w = 0.1 J/m^2; R* = 5 mm on the plate,
    // 2.5 mm between two 5 mm balls
    let (e, w) = (1e7 / (2.0 * (1.0 - 0.0625)), 0.1);
    let scales = |r: Real| {
        let l = (PI * PI * w * w * r / (e * e)).cbrt();
        (l, 1.5 * PI * w * r)
    };
    let mut curves = Vec::new();
    for (case, overlap, force, r, label) in [
        (
            "cohesion_jkr_wall_pulloff",
            "interaction/1/plate/overlap",
            "ball/1/force.z",
            0.005,
            "ball on a plate, R* = 5 mm: run",
        ),
        (
            "cohesion_jkr_pair_pulloff",
            "interaction/1/2/overlap",
            "ball/2/force.x",
            0.0025,
            "two balls, R* = 2.5 mm: run",
        ),
    ] {
        let (Some((_, d)), Some((_, f))) = (
            column_of(reports, case, overlap),
            column_of(reports, case, force),
        ) else {
            continue;
        };
        let (l, fc) = scales(r);
        // the records while the contact holds (a force, or overlapping)
        let held: Vec<(Real, Real)> = (d.iter().zip(&f))
            .filter(|(x, y)| **x > 0.0 || **y != 0.0)
            .map(|(x, y)| (x / l, y / fc))
            .collect();
        // (about 40 markers a run, the two runs' interleaved, so that the curve shows between)
        let step = (held.len() / 40).max(1);
        let offset = if curves.is_empty() { 0 } else { step / 2 };
        let kept: Vec<(Real, Real)> = held.iter().skip(offset).step_by(step).copied().collect();
        curves.push(Curve {
            label: label.into(),
            x: kept.iter().map(|p| p.0).collect(),
            y: kept.iter().map(|p| p.1).collect(),
            markers: true,
        });
    }
    if curves.is_empty() {
        return "<p>(run <code>ballast verify</code> to draw the curve)</p>".into();
    }
    // JKR's curve in its branch parameter t >= 1: delta/l = (t^4 - 4t)/4, F/F_0 = t^6/6 - t^3,
    // F_0 = (2/3) of the pull-off force
    let top = (curves.iter().flat_map(|c| c.x.iter().copied())).fold(0.0, Real::max);
    let mut t_top: Real = 1.0;
    while (t_top.powi(4) - 4.0 * t_top) / 4.0 < top {
        t_top += 0.01;
    }
    let ts: Vec<Real> = (0..=300)
        .map(|k| 1.0 + (t_top - 1.0) * k as Real / 300.0)
        .collect();
    curves.push(Curve {
        label: "JKR: δ/l = (t⁴ − 4t)/4, F/F_c = (2/3)(t⁶/6 − t³)".into(),
        x: ts.iter().map(|t| (t.powi(4) - 4.0 * t) / 4.0).collect(),
        y: ts
            .iter()
            .map(|t| 2.0 / 3.0 * (t.powi(6) / 6.0 - t.powi(3)))
            .collect(),
        markers: false,
    });
    super::svg(&Plot {
        title: "JKR: normal force against overlap, pulled apart at 0.1 mm/s".into(),
        x_label: "overlap δ / l, l = (π²w²R*/E*²)^(1/3) (negative: the neck across the gap)".into(),
        y_label: "normal force / pull-off force (3/2)πwR*".into(),
        log_x: false,
        log_y: false,
        curves,
    })
}

/// The heaps' angle of repose, `atan(H / b)` with `H` the top of the heap at the end of its run
/// and `b` = 25 mm the plate's half-width, against the rolling coefficient: a plot and a table,
/// or a note when they have not run.
fn heap_section(reports: &Path) -> String {
    let half_width = 0.025;
    let mut rows = Vec::new();
    for (case, mu) in [
        ("heap_mu_r_00", 0.0),
        ("heap_mu_r_05", 0.05),
        ("heap_mu_r_10", 0.1),
        ("heap_mu_r_20", 0.2),
        ("heap_mu_r_40", 0.4),
    ] {
        let last = |c: &str| column_of(reports, case, c).and_then(|(_, y)| y.last().copied());
        let (Some(top), Some(count)) = (last("balls/top"), last("balls/count")) else {
            continue;
        };
        let angle = (top / half_width).atan().to_degrees();
        rows.push((mu, top, angle, count, case));
    }
    if rows.is_empty() {
        return "<p>(run <code>ballast verify</code> to draw the heaps' angles)</p>".into();
    }
    let plot = super::svg(&Plot {
        title: "angle of repose of the poured heap against the rolling coefficient".into(),
        x_label: "rolling friction coefficient μ_r (EPSD)".into(),
        y_label: "angle of repose atan(H/b) (degrees)".into(),
        log_x: false,
        log_y: false,
        curves: vec![Curve {
            label: "runs (700 beads poured on a 50 mm plate)".into(),
            x: rows.iter().map(|r| r.0).collect(),
            y: rows.iter().map(|r| r.2).collect(),
            markers: true,
        }],
    });
    let mut table = String::from(
        "<table><tr><th>case</th><th>μ_r</th><th>height H (mm)</th><th>angle atan(H/b) (°)</th>\
         <th>beads on the plate</th></tr>",
    );
    for (mu, top, angle, count, case) in &rows {
        table.push_str(&format!(
            "<tr><td><a href=\"cases/{case}/index.html\">{case}</a></td><td>{mu}</td><td>{:.2}</td>\
             <td>{:.1}</td><td>{count}</td></tr>",
            top * 1e3,
            angle
        ));
    }
    table.push_str("</table>");
    format!("{plot}\n{table}")
}

/// Writes `reports/rolling.html` (issue #33): rolling resistance, cohesion and their evidence.
///
/// # Errors
/// I/O errors.
pub fn write_rolling_page(reports: &Path, summaries: &[Summary]) -> std::io::Result<()> {
    let block = |case: &str, kind: &str, needle: &str| outcome_block(summaries, case, kind, needle);
    let mut h = String::new();
    h.push_str(&render(
        include_str!("text/rolling.md"),
        &[
            (
                "rolling_rs",
                code_link(reports, "src/law/rolling.rs::Rolling::couple"),
            ),
            (
                "ball_ball_rs",
                code_link(reports, "src/contact/ball_ball.rs::update"),
            ),
            (
                "ball_facet_rs",
                code_link(reports, "src/contact/ball_facet.rs::update_force"),
            ),
            ("cdt_plane", case_table(summaries, "rolling_cdt_plane")),
            (
                "cdt_above",
                case_table(summaries, "rolling_cdt_incline_above"),
            ),
            (
                "cdt_below",
                case_table(summaries, "rolling_cdt_incline_below"),
            ),
            ("loop_plot", loop_plot(reports)),
            ("epsd_loop", block("rolling_epsd_loop", "analytic", "")),
            ("pfc_loop", block("rolling_pfc_loop", "analytic", "")),
            ("pair", case_table(summaries, "rolling_epsd_pair")),
            ("rocking", case_table(summaries, "rolling_epsd_rocking")),
            (
                "twist_loop",
                case_table(summaries, "rolling_epsd_twist_loop"),
            ),
            (
                "twist_oscillation",
                case_table(summaries, "rolling_epsd_twist_oscillation"),
            ),
            (
                "twist_spin",
                case_table(summaries, "rolling_cdt_twist_spin"),
            ),
            (
                "cohesion_rs",
                code_link(reports, "src/law/cohesion.rs::Cohesion::force"),
            ),
            ("cohesion_plot", cohesion_plot(reports)),
            ("dmt", case_table(summaries, "cohesion_dmt_pulloff")),
            ("sjkr", case_table(summaries, "cohesion_sjkr_pair")),
            ("drop", case_table(summaries, "cohesion_dmt_drop")),
            ("heap", heap_section(reports)),
            ("jkr_plot", jkr_plot(reports)),
            (
                "jkr_wall",
                case_table(summaries, "cohesion_jkr_wall_pulloff"),
            ),
            (
                "jkr_pair",
                case_table(summaries, "cohesion_jkr_pair_pulloff"),
            ),
            ("jkr_sticks", case_table(summaries, "cohesion_jkr_sticks")),
            (
                "jkr_rebounds",
                case_table(summaries, "cohesion_jkr_rebounds"),
            ),
        ],
    ));
    std::fs::write(
        reports.join("rolling.html"),
        page("Rolling resistance and cohesion", &h),
    )
}
