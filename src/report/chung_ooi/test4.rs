//! Test 4: oblique impacts at 5° to 85°, the runs against rigid-body impulse theory where the
//! contact slides throughout.

use crate::math::Real;
use crate::record::{Curve, Plot, Summary};
use crate::report::html::table;
use std::fmt::Write as _;
use std::path::Path;

/// Test 4's section: the table of every angle's run, from the series (the incoming velocity
/// from the case name's angle), and [`test4_plots`].
pub(super) fn test4_section(reports: &Path, summaries: &[Summary]) -> String {
    let mut h = String::new();
    let mut t4 = vec![[
        "angle (°)",
        "gross sliding",
        "e_t measured",
        "e_t impulse theory",
        "ω′ measured (rad/s)",
        "ω′ impulse theory",
    ]
    .map(String::from)
    .to_vec()];
    let (mu, e, r, v) = (0.092, 1.0, 0.0025, 3.9);
    // measured (angle, e_t, ω′) for the plots
    let mut measured: Vec<(Real, Real, Real)> = Vec::new();
    for s in summaries
        .iter()
        .filter(|s| s.case.starts_with("chung_ooi_test4_angle"))
    {
        let Ok(angle) = s
            .case
            .trim_start_matches("chung_ooi_test4_angle")
            .parse::<Real>()
        else {
            continue;
        };
        let Ok(series) = crate::output::SeriesTable::read_csv(
            &reports.join("cases").join(&s.case).join("series.csv"),
        ) else {
            continue;
        };
        let last = |c: &str| series.column(c).and_then(|x| x.last().copied());
        let (Some(vx), Some(wy)) = (last("ball/1/vel.x"), last("ball/1/spin.y")) else {
            continue;
        };
        let th = angle.to_radians();
        let (vt, vn) = (v * th.sin(), v * th.cos());
        let sliding = th.tan() >= 3.5 * mu * (1.0 + e);
        measured.push((angle, vx / vt, wy.abs()));
        t4.push(vec![
            format!("{angle}"),
            if sliding { "yes" } else { "no" }.into(),
            format!("{:.5}", vx / vt),
            if sliding {
                format!("{:.5}", 1.0 - mu * (1.0 + e) * vn / vt)
            } else {
                "-".into()
            },
            format!("{:.3}", wy.abs()),
            if sliding {
                format!("{:.3}", 2.5 * mu * (1.0 + e) * vn / r)
            } else {
                "-".into()
            },
        ]);
    }
    let _ = write!(
        h,
        "<h2>Test 4: oblique impacts at 5° to 85°</h2><p>Aluminium oxide sphere, R = 2.5 mm, |v| = 3.9 m/s, μ = 0.092, elastic. \
         Below 33° (tan θ &lt; 3.5 μ(1+e) = 0.644) the contact sticks during part of the impact and the tangential compliance \
         of Mindlin's stiffness decides the outcome; rigid-body theory gives no reference there (the paper compares codes with \
         Maw et al.'s theory), so those rows are shown, not judged.</p>{}",
        table(&t4)
    );
    h.push_str(&test4_plots(&measured, mu, e, r, v));
    h
}

/// Test 4's tangential restitution and rebound spin against the incidence angle: the runs
/// (markers) and rigid-body impulse theory where the contact slides throughout (lines, from
/// tan θ = 3.5 μ (1 + e) on): e_t = 1 − μ(1+e) v_n/v_t, ω′ = (5/2) μ (1+e) v_n/R.
fn test4_plots(measured: &[(Real, Real, Real)], mu: Real, e: Real, r: Real, v: Real) -> String {
    if measured.is_empty() {
        return String::new();
    }
    let start = (3.5 * mu * (1.0 + e)).atan().to_degrees();
    let angles: Vec<Real> = (0..=100)
        .map(|k| start + (89.0 - start) * k as Real / 100.0)
        .collect();
    let split = |a: Real| (v * a.to_radians().sin(), v * a.to_radians().cos());
    let theory_et: Vec<Real> = angles
        .iter()
        .map(|&a| {
            let (vt, vn) = split(a);
            1.0 - mu * (1.0 + e) * vn / vt
        })
        .collect();
    let theory_w: Vec<Real> = angles
        .iter()
        .map(|&a| 2.5 * mu * (1.0 + e) * split(a).1 / r)
        .collect();
    let xs: Vec<Real> = measured.iter().map(|m| m.0).collect();
    let plot = |title: &str, y_label: &str, run: Vec<Real>, theory: Vec<Real>| {
        crate::report::plot::svg(&Plot {
            title: title.into(),
            x_label: "incidence angle θ (°)".into(),
            y_label: y_label.into(),
            curves: vec![
                Curve {
                    label: "ballast (hertz)".into(),
                    x: xs.clone(),
                    y: run,
                    markers: true,
                },
                Curve {
                    label: "impulse theory, sliding throughout (tan θ ≥ 3.5 μ(1+e))".into(),
                    x: angles.clone(),
                    y: theory,
                    markers: false,
                },
            ],
            ..Default::default()
        })
    };
    format!(
        "<figure>{}{}<figcaption>Below {start:.1}° the contact sticks for part of the impact: no rigid-body reference \
         (the table's rows without theory).</figcaption></figure>",
        plot(
            "Test 4: tangential restitution",
            "e_t = v_t′/v_t (-)",
            measured.iter().map(|m| m.1).collect(),
            theory_et
        ),
        plot(
            "Test 4: rebound spin",
            "|ω′| (rad/s)",
            measured.iter().map(|m| m.2).collect(),
            theory_w
        )
    )
}
