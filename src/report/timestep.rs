//! The Timestep page: critical-timestep estimates against the exact eigen-analysis, and what
//! sets the step of each case.

use super::code::code_link;
use super::html::*;
use super::markdown::render;
use crate::generate::cluster;
use crate::math::num;
use crate::math::{vec3, Real, Vec3};
use crate::record::{Curve, Plot, Summary};
use crate::rng::SplitMix64;
use crate::stiffness::study::{chain, chain_exact, linear_law, primed_model};
use crate::stiffness::*;
use crate::timestep::Estimator;
use std::fmt::Write as _;
use std::path::Path;

/// Writes `reports/timestep.html` from the case summaries and a study computed here.
///
/// # Errors
/// I/O errors.
pub fn write_timestep_page(reports: &Path, summaries: &[Summary]) -> std::io::Result<()> {
    let mut h = String::new();
    h.push_str(&render(
        include_str!("text/timestep_intro.md"),
        &[
            (
                "stiffness_estimate_rs",
                code_link(reports, "src/stiffness/estimate.rs::estimate_critical"),
            ),
            (
                "stiffness_global_rs",
                code_link(
                    reports,
                    "src/stiffness/global.rs::GlobalStiffness::assemble",
                ),
            ),
            (
                "stiffness_eigen_rs",
                code_link(reports, "src/stiffness/eigen.rs::exact_critical"),
            ),
            (
                "timestep_rs",
                code_link(reports, "src/timestep/modes.rs::kinematic_limit"),
            ),
        ],
    ));
    h.push_str(&estimators_section(summaries));
    h.push_str(&chains_section());
    h.push_str(&clusters_section());
    h.push_str(&scaling_section(summaries));
    h.push_str(&kinematic_section());
    std::fs::write(
        reports.join("timestep.html"),
        page("Timestep: estimates, exact critical timestep, scaling", &h),
    )
}

/// Both estimators against the exact critical timestep on every timestep case.
fn estimators_section(summaries: &[Summary]) -> String {
    let mut h = String::new();
    let mut rows = vec![[
        "case",
        "DOFs",
        "exact 2/ω_max (s)",
        "diagonal / exact",
        "bound / exact",
        "checks",
    ]
    .map(String::from)
    .to_vec()];
    for s in summaries {
        let Some(c) = s
            .checks
            .iter()
            .find(|c| c.kind == "critical_timestep" && c.table.len() >= 3)
        else {
            continue;
        };
        let dofs = c
            .message
            .split(" free DOFs")
            .next()
            .and_then(|x| x.rsplit(' ').next())
            .unwrap_or("?")
            .to_string();
        let verdict = if s.passed { "pass" } else { "FAIL" };
        rows.push(vec![
            format!("{}", s.case),
            dofs,
            c.table[1][2].clone(),
            c.table[1][3].clone(),
            c.table[2][3].clone(),
            verdict.into(),
        ]);
    }
    let _ = write!(h, "<h2>Both estimators on every timestep case</h2><p>Ratios below 1 are conservative. Each case's page has the \
        details and what sets each estimate.</p>{}", link_cases(&table(&rows), summaries));
    h
}

/// Chains of N balls between two fixed balls: both estimators against the exact critical
/// timestep and its closed form, along an axis and along the diagonal.
fn chains_section() -> String {
    let mut h = String::new();
    let (r, kn) = (0.01, 1e6);
    let mut rows = vec![[
        "N",
        "normals",
        "exact 2/ω_N (s)",
        "closed form (s)",
        "diagonal / exact",
        "bound / exact",
    ]
    .map(String::from)
    .to_vec()];
    for dir in [
        (Vec3::x(), "along x"),
        (vec3([1.0, 1.0, 1.0]).normalize(), "along (1,1,1)/√3"),
    ] {
        for n in [1usize, 2, 3, 5, 10] {
            let Ok(model) = primed_model(&chain(n, r, 1e-5, dir.0), linear_law(kn, 0.0, 0.0, 0.0))
            else {
                continue;
            };
            let exact = GlobalStiffness::assemble(&model).exact_critical_dense();
            let d = estimate_critical(&model, Estimator::Diagonal);
            let b = estimate_critical(&model, Estimator::Bound);
            rows.push(vec![
                n.to_string(),
                dir.1.into(),
                num(exact.dt),
                num(chain_exact(n, model.balls.mass[1], kn)),
                format!("{:.4}", d.dt / exact.dt),
                format!("{:.4}", b.dt / exact.dt),
            ]);
        }
    }
    h.push_str("<h2>Chains of N balls between two fixed balls (normal springs only)</h2><p>Closed form: ω_j = 2√(kₙ/m) sin(jπ/(2(N+1))). \
        Along an axis the diagonal estimate is conservative (√(m/2kₙ) against 1/(√(kₙ/m) sin(Nπ/(2N+2)))); along the diagonal each \
        axis sees only kₙ/3 of the stiffness and the estimate grows by √3: <b>it is above the exact critical timestep from N = 2 on</b> \
        (ratio √(3/2) sin(Nπ/(2N+2)) → 1.22).</p>");
    h.push_str(&table(&rows));
    h.push_str(&chain_plot(r, kn));
    h
}

/// Seeded random clusters: the range of both estimators over the exact critical timestep, and
/// the worst case of the diagonal estimate.
fn clusters_section() -> String {
    let mut h = String::new();
    let mut rows = vec![[
        "ks / kn",
        "rotational springs",
        "clusters",
        "diagonal/exact: min",
        "max",
        "bound/exact: min",
        "max",
    ]
    .map(String::from)
    .to_vec()];
    let mut worst = (0.0, String::new());
    for ks in [0.0, 0.1, 0.25, 1.0] {
        for rot in [0.0, 0.1] {
            let (mut dmin, mut dmax, mut bmin, mut bmax, mut count) =
                (Real::INFINITY, 0.0f64, Real::INFINITY, 0.0f64, 0);
            for seed in 1..=20u64 {
                let mut rng = SplitMix64::new(seed);
                let nb = 2 + (rng.next_u64() % 30) as usize;
                let Ok(placed) = cluster(nb, [-0.2; 3], [0.2; 3], [0.005, 0.01], 2e-5, seed) else {
                    continue;
                };
                let balls: Vec<(Vec3, Real, u8)> =
                    placed.iter().map(|(p, r)| (vec3(*p), *r, 0)).collect();
                let Ok(model) = primed_model(&balls, linear_law(1e6, 1e6 * ks, rot, rot)) else {
                    continue;
                };
                let exact = GlobalStiffness::assemble(&model).exact_critical_dense();
                let d = estimate_critical(&model, Estimator::Diagonal).dt / exact.dt;
                let b = estimate_critical(&model, Estimator::Bound).dt / exact.dt;
                (dmin, dmax, bmin, bmax) = (dmin.min(d), dmax.max(d), bmin.min(b), bmax.max(b));
                count += 1;
                if d > worst.0 {
                    worst = (d, format!("seed {seed}, {nb} balls, ks/kn = {ks}, rotational springs {rot} N m/rad"));
                }
            }
            rows.push(vec![
                format!("{ks}"),
                format!("{rot} N m/rad"),
                count.to_string(),
                format!("{dmin:.3}"),
                format!("{dmax:.3}"),
                format!("{bmin:.3}"),
                format!("{bmax:.3}"),
            ]);
        }
    }
    let _ = write!(h, "<h2>Seeded random clusters</h2><p>Clusters of 2 to 31 balls (radii 5-10 mm) built by the <code>cluster</code> generator \
        (20 µm overlaps, random directions), free in space; 20 seeds per row. In these tree-like clusters the diagonal estimate stayed below \
        the exact value: the largest ratio found is <b>{:.3}</b> ({}). It fails where many contacts share one oblique direction with soft \
        shear springs (the pair and the diagonal chains above: up to 1.22). The bound never exceeds 1.</p>{}", worst.0, esc(&worst.1), table(&rows));
    h
}

/// Timestep scaling against the automatic timestep: each `cycles_ratio` check's own table,
/// its header once (empty without such checks).
fn scaling_section(summaries: &[Summary]) -> String {
    let mut h = String::new();
    let mut rows: Vec<Vec<String>> = Vec::new();
    for s in summaries {
        if let Some(c) = s
            .checks
            .iter()
            .find(|c| c.kind == "cycles_ratio" && c.table.len() >= 3)
        {
            let skip = usize::from(!rows.is_empty());
            rows.extend(c.table[skip..].iter().cloned());
        }
    }
    if rows.len() > 1 {
        let _ = write!(h, "<h2>Timestep scaling against the automatic timestep</h2><p>The same column of balls of different sizes and \
            stiffnesses on a fixed ball, both runs stopped by the same solve ratio, both checked against the analytic equilibrium overlaps \
            (weight carried / kₙ).</p>{}", link_cases(&table(&rows), summaries));
    }
    h
}

/// The kinematic constraint (eq. 4): the printed form against the one ballast evaluates.
fn kinematic_section() -> String {
    let mut h = String::new();
    let (v, a, eps): (Real, Real, Real) = (1.0, 1e-12, 1e-5);
    let printed = (-v + (v * v + 2.0 * a * eps).sqrt()) / a;
    let stable = crate::timestep::kinematic_limit(v, a, eps);
    let _ = write!(h, "<h2>The kinematic constraint (eq. 4)</h2><p>Eq. 4 writes t = (−v + √(v² + 2aε))/a. For a piece moving at v = 1 m/s with \
        a tiny acceleration a = 1e-12 m/s² and ε = 1e-5 m the printed form gives {} s (cancellation: the exact value is ε/v = 1e-5 s), and \
        at a = 0 it divides zero by zero. ballast evaluates the same root as t = 2ε/(v + √(v² + 2aε)): {} s, exact for any a ≥ 0.</p>",
        num(printed), num(stable));
    h.push_str(&kinematic_plot());
    h
}

/// Both estimators over the exact critical timestep of chains of 1 to 12 balls (markers),
/// with the diagonal estimate's closed form along an axis and along the diagonal (lines):
/// sin(Nπ/(2N+2))/√2 and √3 times that.
fn chain_plot(r: Real, kn: Real) -> String {
    let ns: Vec<usize> = (1..=12).collect();
    let mut curves = Vec::new();
    for (dir, name) in [
        (Vec3::x(), "along x"),
        (vec3([1.0, 1.0, 1.0]).normalize(), "along (1,1,1)/√3"),
    ] {
        let (mut x, mut d, mut b) = (Vec::new(), Vec::new(), Vec::new());
        for &n in &ns {
            let Ok(model) = primed_model(&chain(n, r, 1e-5, dir), linear_law(kn, 0.0, 0.0, 0.0))
            else {
                continue;
            };
            let exact = GlobalStiffness::assemble(&model).exact_critical_dense().dt;
            x.push(n as Real);
            d.push(estimate_critical(&model, Estimator::Diagonal).dt / exact);
            b.push(estimate_critical(&model, Estimator::Bound).dt / exact);
        }
        curves.push(Curve {
            label: format!("diagonal / exact, {name}"),
            x: x.clone(),
            y: d,
            markers: true,
        });
        curves.push(Curve {
            label: format!("bound / exact, {name}"),
            x,
            y: b,
            markers: true,
        });
    }
    let fine: Vec<Real> = (0..=110).map(|k| 1.0 + k as Real * 0.1).collect();
    let closed = |f: Real| -> Vec<Real> {
        fine.iter()
            .map(|&n| f * (n * crate::math::PI / (2.0 * n + 2.0)).sin() / (2.0 as Real).sqrt())
            .collect()
    };
    curves.push(Curve {
        label: "closed form, along x: sin(Nπ/(2N+2))/√2".into(),
        x: fine.clone(),
        y: closed(1.0),
        markers: false,
    });
    curves.push(Curve {
        label: "closed form, along the diagonal: √3 × that".into(),
        x: fine.clone(),
        y: closed((3.0 as Real).sqrt()),
        markers: false,
    });
    format!(
        "<figure>{}<figcaption>A ratio above 1 is an estimate larger than the exact critical timestep, unstable if \
         used: the diagonal estimate along the diagonal from N = 2 on. The bound stays at or below 1, the same \
         along x and along the diagonal (its markers overlap).</figcaption></figure>",
        super::plot::svg(&Plot {
            title: "Chains: estimate / exact critical timestep".into(),
            x_label: "balls in the chain, N (-)".into(),
            y_label: "estimate / exact 2/ω_max (-)".into(),
            curves,
            ..Default::default()
        })
    )
}

/// Eq. 4 as printed and as ballast evaluates it, each against a series expansion of the
/// same root that has no cancellation: t = (ε/v)(1 − x/2 + x²/2 − 5x³/8), x = aε/v² (the next
/// term, 7x⁴/8, is below 1e-20 for x ≤ 1e-5), for v = 1 m/s, ε = 1e-5 m and a from 1e-16 to
/// 1 m/s².
fn kinematic_plot() -> String {
    let (v, eps): (Real, Real) = (1.0, 1e-5);
    let (mut a_s, mut printed, mut ours) = (Vec::new(), Vec::new(), Vec::new());
    // (a relative error of exactly 0 is drawn at 1e-17, the floor of the log axis)
    let floor = |e: Real| e.max(1e-17);
    for k in 0..=160 {
        let a = (10.0 as Real).powf(-16.0 + k as Real * 0.1);
        let x = a * eps / (v * v);
        let reference = eps / v * (1.0 - x / 2.0 + x * x / 2.0 - 5.0 * x * x * x / 8.0);
        let p = (-v + (v * v + 2.0 * a * eps).sqrt()) / a;
        let o = crate::timestep::kinematic_limit(v, a, eps);
        a_s.push(a);
        printed.push(floor(((p - reference) / reference).abs()));
        ours.push(floor(((o - reference) / reference).abs()));
    }
    format!(
        "<figure>{}<figcaption>Relative error of the kinematic time limit against a series expansion of the same root \
         (v = 1 m/s, ε = 1e-5 m): the printed form loses digits as a falls (all of them below a ≈ 1e-11 m/s², where 2aε \
         vanishes beside v²) and gives 0/0 at a = 0; ballast's form stays at round-off. Zero errors are drawn at 1e-17.</figcaption></figure>",
        super::plot::svg(&Plot {
            title: "Kinematic constraint (eq. 4): printed form against ballast's".into(),
            x_label: "acceleration a (m/s²)".into(),
            y_label: "relative error of t (-)".into(),
            log_x: true,
            log_y: true,
            curves: vec![
                Curve {
                    label: "eq. 4 as printed: (−v + √(v² + 2aε))/a".into(),
                    x: a_s.clone(),
                    y: printed,
                    markers: false,
                },
                Curve {
                    label: "ballast: 2ε/(v + √(v² + 2aε))".into(),
                    x: a_s,
                    y: ours,
                    markers: false,
                },
            ],
        })
    )
}
