//! The Rheology page: the pressure-controlled periodic cell against hand derivations, the
//! friction law mu(I) and the dilatancy phi(I) of the shear cell against published values, and
//! LAMMPS on the same cell, and chute flows against Bagnold's profile.

use super::code::code_link;
use super::html::*;
use super::markdown::render;
use super::outcome::outcome_block;
use crate::record::Summary;
use std::path::Path;

/// The committed comparison with LAMMPS (benches/peers/rheology/README.md says how it is made).
const LAMMPS_RESULTS: &str = "benches/peers/rheology/results.json";

/// Writes `reports/rheology.html` (issue #63).
///
/// # Errors
/// I/O errors.
pub fn write_rheology_page(reports: &Path, summaries: &[Summary]) -> std::io::Result<()> {
    let mut h = String::new();
    h.push_str(&render(
        include_str!("text/rheology.md"),
        &[
            (
                "servo_rs",
                code_link(reports, "src/geom/cell.rs::Cell::servo"),
            ),
            (
                "dilate_rs",
                code_link(reports, "src/motion/stage.rs::dilate"),
            ),
            ("check_rs", code_link(reports, "src/check/mu_law.rs::fit")),
            (
                "lattice",
                case_table(summaries, "periodic_pressure_lattice"),
            ),
            (
                "restart",
                case_table(summaries, "periodic_pressure_sheared_restarted"),
            ),
            ("fit", outcome_block(summaries, "mu_i_0p1", "mu_of_i", "")),
            ("dilatancy", second_plot(summaries, "mu_i_0p1")),
            ("published", published_table()),
            ("lammps", lammps_table()),
            (
                "disks_fit",
                outcome_block(summaries, "disks_i_0p1", "mu_of_i", ""),
            ),
            ("disks_dilatancy", second_plot(summaries, "disks_i_0p1")),
            ("disks_table", da_cruz_table(summaries)),
            (
                "bagnold_rs",
                code_link(reports, "src/check/bagnold.rs::fit"),
            ),
            (
                "chute_23",
                outcome_block(summaries, "chute_23", "bagnold", ""),
            ),
            (
                "chute_25",
                outcome_block(summaries, "chute_25", "bagnold", ""),
            ),
            ("chute_17", case_table(summaries, "chute_17")),
        ],
    ));
    std::fs::write(reports.join("rheology.html"), page("Rheology", &h))
}

/// A sweep's second plot, phi(I) (the check's block shows its first, mu(I)).
fn second_plot(summaries: &[Summary], case: &str) -> String {
    super::outcome::outcome(summaries, case, "mu_of_i", "")
        .and_then(|c| c.plots.get(1))
        .map_or(String::new(), super::plot::svg)
}

/// The disks' fitted constants beside da Cruz et al.'s (2005) as quoted.
fn da_cruz_table(summaries: &[Summary]) -> String {
    let Some(c) = super::outcome::outcome(summaries, "disks_i_0p1", "mu_of_i", "") else {
        return "<p>(run <code>ballast verify</code> to fill this: case disks_i_0p1 not found)</p>"
            .into();
    };
    let got = |k: &str| {
        (c.constants.iter())
            .find(|(n, _)| n == k)
            .map_or("—".to_string(), |(_, v)| format!("{v:.3}"))
    };
    let mut rows = vec![[
        "constant",
        "ballast (500 disks)",
        "da Cruz et al. 2005",
        "accepted",
    ]
    .map(String::from)
    .to_vec()];
    for (k, label, theirs, band) in [
        (
            "mu_min",
            "μ_min (μ = μ_min + b I)",
            "≈ 0.25–0.26",
            "[0.23, 0.30]",
        ),
        ("b", "b", "≈ 1.1", "[0.7, 1.6]"),
        (
            "phi_c",
            "ν_max (φ = ν_max − a I)",
            "≈ 0.80–0.81",
            "[0.795, 0.822]",
        ),
        ("a", "a", "≈ 0.3", "[0.15, 0.45]"),
        ("mu_s", "μ_s (JFP law)", "—", "reported"),
        ("mu_2", "μ_2 (JFP law)", "—", "reported"),
        ("I_0", "I_0 (JFP law)", "—", "reported"),
    ] {
        rows.push(vec![label.into(), got(k), theirs.into(), band.into()]);
    }
    table(&rows)
}

/// The published values the accepted ranges come from.
fn published_table() -> String {
    let rows: Vec<Vec<String>> = [
        ["source", "system", "μ_s", "μ_2", "I_0", "φ_c"],
        [
            "Jop, Forterre & Pouliquen 2006 (Nature 441, 727)",
            "glass beads, experiment",
            "0.382 (tan 20.9°)",
            "0.643 (tan 32.76°)",
            "0.279",
            "—",
        ],
        [
            "Chialvo, Sun & Sundaresan 2012 (PRE 85, 021305)",
            "3D DEM, linear spring-dashpot, e = 0.7, μ_p = 0.5",
            "≈ 0.36–0.38",
            "≈ 0.6 at I ≈ 0.3",
            "—",
            "≈ 0.587",
        ],
        [
            "Srivastava et al. 2021 (JFM 907, A18)",
            "3D DEM (LAMMPS), Hertz-Mindlin, μ_p = 0.5, constant p",
            "≈ 0.36–0.37",
            "—",
            "—",
            "≈ 0.585",
        ],
        [
            "Salerno et al. 2018 (PRE 98, 050901)",
            "3D DEM spheres, μ_p = 0.5, constant p",
            "≈ 0.37",
            "—",
            "—",
            "≈ 0.585–0.59",
        ],
    ]
    .iter()
    .map(|r| r.iter().map(|s| s.to_string()).collect())
    .collect();
    table(&rows)
}

/// One quantity's mean and standard error in a peer summary.
fn mean_se(v: &serde_json::Value, key: &str) -> Option<(f64, f64)> {
    let q = v.get(key)?;
    Some((q.get("mean")?.as_f64()?, q.get("stderr")?.as_f64()?))
}

/// ballast's and LAMMPS's steady-state means side by side, from [`LAMMPS_RESULTS`].
fn lammps_table() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(LAMMPS_RESULTS);
    let Some(v) = std::fs::read_to_string(&path)
        .ok()
        .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
    else {
        return format!("<p>(no comparison committed: {LAMMPS_RESULTS} is missing)</p>");
    };
    let text = |k: &str| v.get(k).and_then(|x| x.as_str()).unwrap_or("").to_string();
    let mut rows = vec![[
        "quantity",
        "ballast",
        "LAMMPS",
        "difference / combined error",
    ]
    .map(String::from)
    .to_vec()];
    for (key, label) in [
        ("mu", "μ = −σ_xz/σ_zz"),
        ("p_zz", "p = σ_zz (Pa)"),
        ("phi", "φ"),
        ("I", "I"),
    ] {
        let (Some(b), Some(l)) = (
            v.get("ballast").and_then(|s| mean_se(s, key)),
            v.get("lammps").and_then(|s| mean_se(s, key)),
        ) else {
            continue;
        };
        let z = (b.0 - l.0) / (b.1 * b.1 + l.1 * l.1).sqrt();
        rows.push(vec![
            label.into(),
            format!("{:.4} ± {:.4}", b.0, b.1),
            format!("{:.4} ± {:.4}", l.0, l.1),
            format!("{z:+.1}"),
        ]);
    }
    format!(
        "<p>{}</p>{}<p>{}</p>",
        esc(&text("what")),
        table(&rows),
        esc(&text("notes"))
    )
}
