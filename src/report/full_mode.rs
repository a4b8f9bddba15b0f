//! The Full wall resolution mode page: reduced and full mode side by side.

use super::code::code_link;
use super::html::*;
use super::markdown::render;
use crate::record::{Curve, Plot, Summary};
use std::path::Path;

/// Writes `reports/full_mode.html`: the full wall resolution mode (seed 001, issue #5): the
/// shear-force series of Figure 9 in reduced and full mode side by side, and the active counts
/// and stiffness of Figures 6, 7 and 8 in both modes, read from the case runs on disk.
///
/// # Errors
/// I/O errors.
pub fn write_full_mode_page(reports: &Path, summaries: &[Summary]) -> std::io::Result<()> {
    let mut h = String::new();
    h.push_str(&render(
        include_str!("text/full_mode_rules.md"),
        &[
            (
                "contact_full_rs",
                code_link(reports, "src/contact/full.rs::resolve"),
            ),
            (
                "geom_triangle_rs",
                code_link(reports, "src/geom/triangle.rs::closest_point"),
            ),
            (
                "contact_frame_rs",
                code_link(reports, "src/contact/frame.rs::Frame::advance"),
            ),
            (
                "law_mod_rs",
                code_link(reports, "src/law/registry.rs::ContactModel"),
            ),
        ],
    ));
    h.push_str(&figure9(reports, summaries));
    h.push_str(&counts(summaries));
    std::fs::write(
        reports.join("full_mode.html"),
        link_cases(&page("Full wall resolution mode", &h), summaries),
    )
}

/// The series of Figure 9: the shear force between ball 1 and the floor.
const SHEAR: &str = "interaction/1/floor/shear_force";

/// Figure 9: the shear-force series in reduced and full mode side by side, with a hole and
/// with a kink, and the drops each run shows.
fn figure9(reports: &Path, summaries: &[Summary]) -> String {
    let panel = |title: &str, cases: &[(&str, &str)]| panel(reports, title, cases);
    let worst = check_value(summaries, "fig9_full", "same_series", Some(SHEAR));
    let drops = |case: &str| {
        check_value(summaries, case, "drops", Some(SHEAR)).map_or("-".into(), |v| format!("{v}"))
    };
    render(
        include_str!("text/full_mode_figure9.md"),
        &[
            (
                "v1",
                panel(
                    "reduced mode",
                    &[
                        ("fig9_reduced", "96 facets, reduced"),
                        ("fig9_one_facet", "one facet"),
                    ],
                )
                .to_string(),
            ),
            (
                "v2",
                panel(
                    "full mode",
                    &[
                        ("fig9_full", "96 facets, full (Θ = 0)"),
                        ("fig9_one_facet", "one facet"),
                    ],
                )
                .to_string(),
            ),
            (
                "v3",
                worst
                    .map_or("(not run)".into(), |w| format!("{w:.3e}"))
                    .to_string(),
            ),
            ("v4", drops("fig9_reduced").to_string()),
            ("v5", drops("fig9_full").to_string()),
            (
                "v6",
                panel(
                    "hole",
                    &[
                        ("fig9_hole", "one facet missing"),
                        ("fig9_one_facet", "no hole, one facet"),
                    ],
                )
                .to_string(),
            ),
            (
                "v7",
                panel(
                    "kink",
                    &[
                        ("fig9_kink_beyond", "Θ = 5°"),
                        ("fig9_kink_within", "Θ = 15°"),
                    ],
                )
                .to_string(),
            ),
            ("v8", drops("fig9_hole").to_string()),
            ("v9", drops("fig9_kink_within").to_string()),
            ("v10", drops("fig9_kink_beyond").to_string()),
        ],
    )
}

/// One plot of Figure 9: the shear force of each of `cases` (case, label) that ran, scaled to
/// its column; a sentence when none ran.
fn panel(reports: &Path, title: &str, cases: &[(&str, &str)]) -> String {
    let curve = |case: &str, label: &str| {
        column_of(reports, case, SHEAR).map(|(x, y)| Curve {
            label: label.into(),
            x,
            y,
            markers: false,
        })
    };
    let curves: Vec<Curve> = cases.iter().filter_map(|(c, l)| curve(c, l)).collect();
    if curves.is_empty() {
        return format!(
            "<p>({title}: run <code>ballast verify cases/walls</code> to draw this plot.)</p>"
        );
    }
    // Two plots side by side: let each scale to its column (the SVG has a viewBox).
    super::plot::svg(&Plot {
        title: title.into(),
        x_label: "t (s)".into(),
        y_label: "|shear force| (N)".into(),
        curves,
        ..Default::default()
    })
    .replacen(
        "<svg width=\"760\" height=\"380\"",
        "<svg width=\"100%\"",
        1,
    )
}

/// The active count of the check of `case`, or "-".
fn active(summaries: &[Summary], case: &str) -> String {
    check_value(summaries, case, "active_count", None).map_or("-".into(), |v| format!("{v}"))
}

/// The final value of `series` in `case`, or "-".
fn fin(summaries: &[Summary], case: &str, series: &str) -> String {
    check_value(summaries, case, "final_value", Some(series))
        .map_or("-".into(), |v| format!("{v:.6e}"))
}

/// The period of the harmonic check of `case`, or "-".
fn period(summaries: &[Summary], case: &str) -> String {
    summaries
        .iter()
        .find(|s| s.case == case)
        .and_then(|s| s.checks.iter().find(|c| c.kind == "harmonic"))
        .and_then(|c| c.value)
        .map_or("-".into(), |v| format!("{v:.6e} s"))
}

/// Active counts and stiffness of Figures 6, 7 and 8, reduced against full.
fn counts(summaries: &[Summary]) -> String {
    render(
        include_str!("text/full_mode_counts.md"),
        &[
            ("v1", table(&counts_rows(summaries))),
            (
                "v2",
                check_value(summaries, "fig6_valley_drag_pc", "same_series", None)
                    .map_or("(not run)".into(), |v| format!("{v:.3e}"))
                    .to_string(),
            ),
        ],
    )
}

/// The rows of the counts table: for each figure, the case, active count and result in each
/// mode.
fn counts_rows(summaries: &[Summary]) -> Vec<Vec<String>> {
    let active = |case: &str| active(summaries, case);
    let fin = |case: &str, series: &str| fin(summaries, case, series);
    let period = |case: &str| period(summaries, case);
    let flat = period("fig7_flat");
    let overlap = |case: &str, wall: &str, note: &str| {
        fin(case, &format!("interaction/1/{wall}/overlap")) + " m" + note
    };
    // One row: the figure, what is measured, then case, active count and result for each mode.
    let row = |figure: &str, what: String, reduced: (&str, String), full: (&str, String)| {
        vec![
            figure.to_string(),
            what,
            reduced.0.to_string(),
            active(reduced.0),
            reduced.1,
            full.0.to_string(),
            active(full.0),
            full.1,
        ]
    };
    vec![
        [
            "figure",
            "what",
            "reduced case",
            "active",
            "result",
            "full case",
            "active",
            "result",
        ]
        .map(String::from)
        .to_vec(),
        row(
            "8a sliver",
            "ball pressed on a wedge 40 µm thick; overlap of the top contact".into(),
            (
                "fig8a_sliver_reduced",
                overlap("fig8a_sliver_reduced", "floor", ""),
            ),
            (
                "fig8a_sliver_full",
                overlap("fig8a_sliver_full", "floor", " (F/kₙ = 1e-4)"),
            ),
        ),
        row(
            "8b folded sheet",
            "three layers 30 µm apart; overlap of the top contact".into(),
            (
                "fig8b_pleats_reduced",
                overlap("fig8b_pleats_reduced", "floor", ""),
            ),
            (
                "fig8b_pleats_full",
                overlap("fig8b_pleats_full", "floor", " (F/kₙ = 1e-4)"),
            ),
        ),
        row(
            "6 valley + PC",
            "ball at rest in a 90° valley, Θ = 100°; overlap".into(),
            (
                "fig6_valley",
                overlap("fig6_valley", "valley", " (m g/(2kₙ cos 45°) each)"),
            ),
            (
                "fig6_valley_pc",
                overlap("fig6_valley_pc", "valley", " (m g/kₙ)"),
            ),
        ),
        row(
            "7 rough + PC",
            format!("vertical oscillation on a rough wall, Θ = 20°; period (flat wall: {flat})"),
            ("fig7_rough", period("fig7_rough")),
            ("fig7_rough_pc", period("fig7_rough_pc")),
        ),
    ]
}
