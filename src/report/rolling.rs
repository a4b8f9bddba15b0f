//! The Rolling resistance and cohesion page: the CDT, EPSD and PFC couples and the DMT and SJKR
//! attractions against their closed forms, with the moment-rotation loop and the force-overlap
//! curves drawn from the runs.

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
            ("rolling_rs", code_link(reports, "src/law/rolling.rs")),
            (
                "ball_ball_rs",
                code_link(reports, "src/contact/ball_ball.rs"),
            ),
            (
                "ball_facet_rs",
                code_link(reports, "src/contact/ball_facet.rs"),
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
            ("cohesion_rs", code_link(reports, "src/law/cohesion.rs")),
            ("cohesion_plot", cohesion_plot(reports)),
            ("dmt", case_table(summaries, "cohesion_dmt_pulloff")),
            ("sjkr", case_table(summaries, "cohesion_sjkr_pair")),
            ("drop", case_table(summaries, "cohesion_dmt_drop")),
        ],
    ));
    std::fs::write(
        reports.join("rolling.html"),
        page("Rolling resistance and cohesion", &h),
    )
}
