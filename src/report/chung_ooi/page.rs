//! The Chung & Ooi (2011) page: its sections in order.

use super::cone::cone_section;
use super::sweep::sweep_section;
use super::test4::test4_section;
use crate::math::Real;
use crate::record::Summary;
use crate::report::code::code_link;
use crate::report::html::{link_cases, page, table};
use crate::report::markdown::render;
use std::fmt::Write as _;
use std::path::Path;

/// Writes `reports/chung_ooi.html`: the Chung & Ooi (2011) benchmarks, measured against the
/// analytic values with their errors, read from the case summaries (and, for the oblique
/// impacts, from the recorded series), and the cone comparison, run here.
///
/// # Errors
/// I/O errors.
pub fn write_chung_ooi_page(reports: &Path, summaries: &[Summary]) -> std::io::Result<()> {
    let mut h = String::new();
    h.push_str(&render(
        include_str!("../text/chung_ooi_intro.md"),
        &[
            (
                "law_hertz_rs",
                code_link(reports, "src/law/hertz.rs::Hertz::force"),
            ),
            (
                "law_restitution_rs",
                code_link(reports, "src/law/restitution.rs::damping_for"),
            ),
            (
                "contact_frame_rs",
                code_link(reports, "src/contact/frame.rs::Frame::advance"),
            ),
            (
                "check_collision_rs",
                code_link(reports, "src/check/collision.rs::evaluate"),
            ),
        ],
    ));
    h.push_str(&measured_section(summaries));
    h.push_str(&test4_section(reports, summaries));
    for test in [5, 6, 8] {
        h.push_str(&sweep_section(reports, summaries, test));
    }
    h.push_str(&cone_section());
    h.push_str(&damping_section());
    std::fs::write(
        reports.join("chung_ooi.html"),
        page("Chung & Ooi (2011) benchmarks", &h),
    )
}

/// The quantity a check of the benchmarks measures, in words ("" for the other checks).
fn quantity(k: &str) -> &'static str {
    match k {
        "max_overlap" => "largest overlap (m)",
        "max_force" => "largest normal force (N)",
        "contact_duration" => "contact duration (s)",
        "restitution" => "normal restitution",
        "tangential_restitution" => "tangential restitution e_t",
        "rebound_spin" => "rebound spin |ω′| (rad/s)",
        "tangential_velocity" => "tangential velocity after, along the slip (m/s)",
        _ => "",
    }
}

/// The benchmarks' checks, measured against analytic with their errors, and the largest.
fn measured_section(summaries: &[Summary]) -> String {
    let mut h = String::new();
    let mut rows = vec![[
        "case",
        "quantity",
        "measured",
        "analytic",
        "relative error",
        "tolerance",
        "verdict",
    ]
    .map(String::from)
    .to_vec()];
    let mut worst: Real = 0.0;
    for s in summaries
        .iter()
        .filter(|s| s.case.starts_with("chung_ooi_"))
    {
        for c in s.checks.iter().filter(|c| !quantity(&c.kind).is_empty()) {
            let (Some(v), Some(e)) = (c.value, c.expected) else {
                rows.push(vec![
                    s.case.clone(),
                    quantity(&c.kind).into(),
                    "-".into(),
                    "-".into(),
                    "-".into(),
                    "-".into(),
                    "FAIL".into(),
                ]);
                continue;
            };
            let err = (v - e).abs() / e.abs();
            worst = worst.max(err);
            rows.push(vec![
                s.case.clone(),
                quantity(&c.kind).into(),
                format!("{v:.7e}"),
                format!("{e:.7e}"),
                format!("{err:.2e}"),
                c.tolerance.map_or("-".into(), |t| format!("{t:e}")),
                if c.passed { "pass" } else { "FAIL" }.into(),
            ]);
        }
    }
    let _ = write!(
        h,
        "<h2>Measured against analytic</h2><p>Largest relative error over the table: {worst:.2e}.</p>{}",
        link_cases(&table(&rows), summaries)
    );
    h
}

/// Why the damping is calibrated: the popular closed-form damping against the requested
/// restitution.
fn damping_section() -> String {
    let mut h = String::new();
    let mut lg = vec![[
        "requested e",
        "a = −2√(5/6) ln e/√(ln²e + π²)",
        "e it produces (clamped)",
        "e it produces (not clamped)",
        "ballast's a (clamped)",
    ]
    .map(String::from)
    .to_vec()];
    for e in [0.2, 0.4, 0.6, 0.8, 0.95] {
        use crate::law::restitution::{damping_for, restitution, Shape};
        let ln = (e as Real).ln();
        let a = -2.0 * (5.0 as Real / 6.0).sqrt() * ln
            / (ln * ln + crate::math::PI * crate::math::PI).sqrt();
        lg.push(vec![
            format!("{e}"),
            format!("{a:.6}"),
            format!("{:.5}", restitution(Shape::Hertz, a, true)),
            format!("{:.5}", restitution(Shape::Hertz, a, false)),
            format!("{:.6}", damping_for(Shape::Hertz, e, true)),
        ]);
    }
    let _ = write!(
        h,
        "<h2>Why the damping is calibrated</h2><p>The Hertz dashpot −a √(m* S_n) v_n with the closed-form a used by several codes \
         reproduces the requested restitution when the normal force may pull at the end of the contact (not clamped), but not when \
         it is clamped at zero, as DEM codes usually do: the restitution then comes out larger. ballast solves the dimensionless impact \
         x″ = −x^(3/2) − a√(3/2) x^(1/4) x′ for either case (test 3 above reproduces e to within 0.5 %).</p>{}",
        table(&lg)
    );
    h
}
