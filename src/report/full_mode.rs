//! The Full wall resolution mode page: reduced and full mode side by side.

use super::html::*;
use crate::record::{Curve, Plot, Summary};
use std::fmt::Write as _;
use std::path::Path;

/// Writes `reports/full_mode.html`: the full wall resolution mode (seed 001, issue #5): the
/// shear-force series of Figure 9 in reduced and full mode side by side, and the active counts
/// and stiffness of Figures 6, 7 and 8 in both modes, read from the case runs on disk.
///
/// # Errors
/// I/O errors.
pub fn write_full_mode_page(reports: &Path, summaries: &[Summary]) -> std::io::Result<()> {
    let mut h = String::new();
    let _ = write!(
        h,
        "<p>A wall's <code>resolution = \"full\"</code> adds three rules to the associative logic of the reduced mode \
         (seed 001; code: {}, with {} for the segment test, {} for turning a frame and {} for what each contact model hands over):</p><ol>\
         <li><b>Line of sight</b>: where the segment from the ball centre to the wall contact point of an active contact crosses the \
         facet of another active contact, the one with the smaller overlap becomes inactive (Figures 8a, 8b).</li>\
         <li><b>Continuity of contact state</b>: when an interaction's active contact moves from facet b (active last cycle, inactive now, \
         still touching) to facet d (active now, not last cycle), the contact model's state (shear force; the hysteretic model also its largest \
         overlap) goes from b to d if both use the same model and a chain of linked touching contacts joins them whose facet normals are all \
         within Θ (<code>cutoff_angle_deg</code>) of b's. The associative links are the path: a hole in the mesh or a facet tilted beyond Θ \
         breaks it. The local frame goes with the state, turned by the smallest rotation onto d's normal.</li>\
         <li><b>Proximity contacts</b> (Θ &gt; 0): active contacts whose facet normals differ by less than Θ act as one contact, with the \
         overlap-weighted normal n = Σ Uᵢnᵢ/|Σ Uᵢnᵢ| and the mean overlap U = mean(Uᵢ); touching contacts of adjacent facets within Θ join, \
         a contact leaves once it stops touching, the state lives while a member remains.</li></ol>\
         <p>Readings where the seed is silent (its formula for the proximity normal is missing): the proximity contact averages its \
         <i>active</i> members only (a neighbour touched at its edge keeps the contact alive without diluting its overlap; averaging every \
         member would make a flat multi-facet wall softer than one facet); a proximity contact with no active member ends; Θ = 0 forms no \
         proximity contact (\"less than\") but passes state between coplanar facets (\"≤\", normals within 1e-9 rad count as equal).</p>",
        code_link(reports, "src/contact/full.rs"),
        code_link(reports, "src/geom/triangle.rs"),
        code_link(reports, "src/contact/frame.rs"),
        code_link(reports, "src/law/mod.rs"),
    );
    // Figure 9: reduced and full side by side.
    let shear = "interaction/1/floor/shear_force";
    let curve = |case: &str, label: &str| {
        column_of(reports, case, shear).map(|(x, y)| Curve {
            label: label.into(),
            x,
            y,
            markers: false,
        })
    };
    let panel = |title: &str, cases: &[(&str, &str)]| -> String {
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
    };
    let worst = check_value(summaries, "fig9_full", "same_series", Some(shear));
    let drops = |case: &str| {
        check_value(summaries, case, "drops", Some(shear)).map_or("-".into(), |v| format!("{v}"))
    };
    let _ = write!(
        h,
        "<h2>Figure 9: shear force across facet boundaries, reduced and full mode</h2>\
         <p>A ball (R = 1 cm) pressed on a flat wall by F = 10 N is dragged along x at 0.05 m/s with friction 10⁶ (x, y and rotations held, \
         z free); linear contact, kₙ = 10⁵ N/m, kₛ = 10³ N/m. On one large facet (<a href=\"cases/fig9_one_facet/index.html\">fig9_one_facet</a>) \
         the shear spring stretches all the way: |S| = kₛ v t. Over a grid of 3 mm cells (96 facets) the active contact changes facet at each \
         boundary the centre crosses.</p>\
         <div style=\"display:flex;gap:1em;flex-wrap:wrap\"><div style=\"flex:1;min-width:24em\"><h3>reduced mode</h3>{}</div>\
         <div style=\"flex:1;min-width:24em\"><h3>full mode, Θ = 0</h3>{}</div></div>\
         <p>Full mode against one facet: largest relative difference <b>{}</b> over the whole series (check same_series in \
         <a href=\"cases/fig9_full/index.html\">fig9_full</a>, tolerance 1e-9). Drops of the shear force: reduced {}, full {} \
         (<a href=\"cases/fig9_reduced/index.html\">fig9_reduced</a> expects one per facet change of the path, counted independently in \
         cases/walls/make_cases.py).</p>\
         <div style=\"display:flex;gap:1em;flex-wrap:wrap\"><div style=\"flex:1;min-width:24em\"><h3>a hole on the path (full mode)</h3>{}</div>\
         <div style=\"flex:1;min-width:24em\"><h3>a convex kink of 10° on the path (full mode)</h3>{}</div></div>\
         <p>With one facet missing (<a href=\"cases/fig9_hole/index.html\">fig9_hole</a>) the contacts on either side of the hole are not \
         linked and the state stored before it is lost ({} loss larger than half of it). Across the kink the state passes when Θ = 15° \
         ≥ 10° ({} drops, <a href=\"cases/fig9_kink_within/index.html\">fig9_kink_within</a>) and is lost when Θ = 5° \
         ({} drop, <a href=\"cases/fig9_kink_beyond/index.html\">fig9_kink_beyond</a>).</p>",
        panel("reduced mode", &[("fig9_reduced", "96 facets, reduced"), ("fig9_one_facet", "one facet")]),
        panel("full mode", &[("fig9_full", "96 facets, full (Θ = 0)"), ("fig9_one_facet", "one facet")]),
        worst.map_or("(not run)".into(), |w| format!("{w:.3e}")),
        drops("fig9_reduced"),
        drops("fig9_full"),
        panel("hole", &[("fig9_hole", "one facet missing"), ("fig9_one_facet", "no hole, one facet")]),
        panel("kink", &[("fig9_kink_beyond", "Θ = 5°"), ("fig9_kink_within", "Θ = 15°")]),
        drops("fig9_hole"),
        drops("fig9_kink_within"),
        drops("fig9_kink_beyond"),
    );
    // Active counts and stiffness, reduced against full.
    let active = |case: &str| {
        check_value(summaries, case, "active_count", None).map_or("-".into(), |v| format!("{v}"))
    };
    let fin = |case: &str, series: &str| {
        check_value(summaries, case, "final_value", Some(series))
            .map_or("-".into(), |v| format!("{v:.6e}"))
    };
    let period = |case: &str| {
        summaries
            .iter()
            .find(|s| s.case == case)
            .and_then(|s| s.checks.iter().find(|c| c.kind == "harmonic"))
            .and_then(|c| c.value)
            .map_or("-".into(), |v| format!("{v:.6e} s"))
    };
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
    let rows = vec![
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
    ];
    let _ = write!(
        h,
        "<h2>Active contacts and stiffness, reduced against full</h2><p>\"active\" is the largest number of active contacts seen in any \
         cycle (each case's active_count check judges every cycle). A proximity contact counts as one.</p>{}\
         <p>In the valley the proximity contact pushes along the vertical with the mean overlap, so the ball rises from the two-contact \
         equilibrium to the one-contact one; the state of a proximity contact continues when its original members end \
         (<a href=\"cases/fig6_valley_drag_pc/index.html\">fig6_valley_drag_pc</a>: dragged along a valley of 72 facets, |S| = kₛ v t and the \
         same series as a valley of two facets, largest difference {}). On the rough wall the two contacts tilted by ±6.45° combine into one \
         whose stiffness is kₙ cos 6.45°: the period is 1.0032 times the flat wall's instead of 0.7071 times.</p>",
        table(&rows),
        check_value(summaries, "fig6_valley_drag_pc", "same_series", None).map_or("(not run)".into(), |v| format!("{v:.3e}")),
    );
    std::fs::write(
        reports.join("full_mode.html"),
        link_cases(&page("Full wall resolution mode", &h), summaries),
    )
}
