//! The 2D mode page: disks in the plane against the 3D runs of the same scenes.

use super::code::code_link;
use super::html::*;
use super::markdown::render;
use crate::record::Summary;
use nalgebra::Vector2;
use std::path::Path;

/// Writes `reports/planar.html`: the 2D disk mode (`dim = 2`, issue #7): what it is, the
/// derived moments against the seed's print, and the evidence.
///
/// # Errors
/// I/O errors.
pub fn write_planar_page(reports: &Path, summaries: &[Summary]) -> std::io::Result<()> {
    // A numeric demonstration of the erratum: a contact on the line of centres.
    let (ra, fn_, fs) = (0.01, 3.0, 1.2);
    let n = Vector2::new(0.6, 0.8);
    let q = Vector2::new(-n.y, n.x);
    let fc = n * fn_ + q * fs;
    let d = n * ra; // x_C - x_A
    let derived = -(d.x * fc.y - d.y * fc.x);
    let printed = -(d.x * fc.x + d.x * fc.y + d.y * fc.x + d.y * fc.y);
    let mut h = String::new();
    h.push_str(&render(
        include_str!("text/planar.md"),
        &[
            ("ra", format!("{ra}")),
            ("fn_", format!("{fn_}")),
            ("fs", format!("{fs}")),
            ("derived", format!("{derived:.6}")),
            ("printed", format!("{printed:.6}")),
            (
                "contact_ball_ball_rs",
                code_link(reports, "src/contact/ball_ball.rs::update_2d"),
            ),
            (
                "force_balls_rs",
                code_link(reports, "src/force/balls.rs::Model"),
            ),
            ("v3", case_table(summaries, "two_disks_2d").to_string()),
            ("v4", case_table(summaries, "disk_column_2d").to_string()),
            ("v5", case_table(summaries, "critical_2d").to_string()),
        ],
    ));
    std::fs::write(reports.join("planar.html"), page("2D disk mode", &h))
}
