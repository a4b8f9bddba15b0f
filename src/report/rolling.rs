//! The Rolling resistance page: the CDT, EPSD and PFC couples against their closed forms, with
//! the moment-rotation loop drawn from the runs.

use super::html::*;
use super::markdown::render;
use super::outcome::outcome_block;
use crate::math::Real;
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

/// Writes `reports/rolling.html` (issue #33): rolling resistance and its evidence.
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
        ],
    ));
    std::fs::write(reports.join("rolling.html"), page("Rolling resistance", &h))
}
