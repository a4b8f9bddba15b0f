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
                code_link(reports, "src/contact/disk_disk.rs::update_2d"),
            ),
            (
                "force_balls_rs",
                code_link(reports, "src/force/balls.rs::general_forces"),
            ),
            ("v3", case_table(summaries, "two_disks_2d").to_string()),
            ("v4", case_table(summaries, "disk_column_2d").to_string()),
            ("v5", case_table(summaries, "critical_2d").to_string()),
        ],
    ));
    h.push_str(&two_ways_plot(reports));
    std::fs::write(reports.join("planar.html"), page("2D disk mode", &h))
}

/// The oblique collision in 2D and in 3D confined to the plane: disk 2's spin and the shear
/// force over time, both runs, and their difference (the `same_series` checks judge the
/// positions; these are the quantities the 2D moment law decides).
fn two_ways_plot(reports: &Path) -> String {
    use crate::record::{Curve, Plot};
    let mut out = String::new();
    for (col, title, unit) in [
        ("ball/2/spin.z", "disk 2's spin", "rad/s"),
        ("interaction/1/2/shear_force", "the shear force", "N"),
    ] {
        let (Some((t2, y2)), Some((t3, y3))) = (
            column_of(reports, "two_disks_2d", col),
            column_of(reports, "two_disks_3d", col),
        ) else {
            return "<p>(run <code>ballast verify</code> to draw the 2D and 3D runs)</p>".into();
        };
        let same_times = t2 == t3;
        let mut curves = vec![
            Curve {
                label: "2D (two_disks_2d)".into(),
                x: t2.clone(),
                y: y2.clone(),
                markers: false,
            },
            Curve {
                label: "3D confined to the plane (two_disks_3d)".into(),
                x: t3,
                y: y3.clone(),
                markers: false,
            },
        ];
        out.push_str(&super::plot::svg(&Plot {
            title: format!("Oblique collision: {title}, 2D and 3D"),
            x_label: "t (s)".into(),
            y_label: format!("{col} ({unit})"),
            curves: std::mem::take(&mut curves),
            ..Default::default()
        }));
        let diff: Vec<crate::math::Real> = y2.iter().zip(&y3).map(|(a, b)| a - b).collect();
        if same_times && diff.iter().all(|d| *d == 0.0) {
            out.push_str(&format!(
                "<p>{title}, 2D − 3D: exactly 0 at every one of the {} records.</p>",
                diff.len()
            ));
        } else if same_times {
            out.push_str(&super::plot::svg(&Plot {
                title: format!("{title}: 2D − 3D"),
                x_label: "t (s)".into(),
                y_label: format!("difference ({unit})"),
                curves: vec![Curve {
                    label: "2D − 3D".into(),
                    x: t2,
                    y: diff,
                    markers: false,
                }],
                ..Default::default()
            }));
        }
    }
    out
}
