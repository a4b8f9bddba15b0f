//! Topic pages that span cases: "Stiffness matrix" (the seed's printed entries against the
//! derivation, with every erratum and its consequence) and "Timestep" (estimates against the
//! exact critical timestep, timestep scaling against the automatic timestep). The numbers are
//! computed here from the library, or read from the case summaries.

use super::{code_link, esc, table, STYLE};
use crate::generate::cluster;
use crate::math::num;
use crate::math::{vec3, Real, Vec3};
use crate::record::{Curve, Plot, Summary};
use crate::rng::SplitMix64;
use crate::stiffness::printed::{
    corrected_matrix_2d, printed_entries_2d, printed_entries_3d, printed_matrix_2d,
    printed_matrix_3d,
};
use crate::stiffness::study::{chain, chain_exact, linear_law, primed_model};
use crate::stiffness::*;
use crate::timestep::Estimator;
use nalgebra::{DMatrix, Vector2};
use std::fmt::Write as _;
use std::path::Path;

pub(super) fn page(title: &str, body: &str) -> String {
    format!(
        "<!doctype html><html><head><meta charset=utf-8><title>{0}</title><style>{STYLE}</style></head><body>\
         <p><a href=\"index.html\">← all cases</a></p><h1>{0}</h1>{body}</body></html>",
        esc(title)
    )
}

/// The generic contact of the page: an oblique normal, unequal radii, overlapping balls, the
/// contact point in the middle of the overlap.
fn generic_contact() -> (ContactStiffness, Vec3, Vec3, Vec3) {
    let s = ContactStiffness {
        kn: 3.0e6,
        ks: 1.1e6,
        kn_rot: 2.3,
        ks_rot: 0.7,
    };
    let n = vec3([0.36, -0.48, 0.8]);
    let (ra, rb, overlap) = (0.013, 0.007, 2e-4);
    let r_a = n * (ra - 0.5 * overlap);
    let r_b = -n * (rb - 0.5 * overlap);
    (s, n, r_a, r_b)
}

fn rel(a: Real, b: Real, scale: Real) -> Real {
    (a - b).abs() / scale
}

/// Writes `reports/stiffness.html`.
///
/// # Errors
/// I/O errors.
pub fn write_stiffness_page(reports: &Path) -> std::io::Result<()> {
    let mut h = String::new();
    let (s, n, r_a, r_b) = generic_contact();
    let _ = write!(
        h,
        "<p>Seed 000 prints the 12×12 stiffness matrix of one contact (eqs. 15-22) and its 6×6 2D reduction (eqs. 26-27) \
         entry by entry. ballast derives the matrix instead ({}) and compares every printed entry, transcribed as printed in {}, \
         with the derivation; {} repeats the comparison for 50 random normals and checks the derivation itself by properties \
         that do not depend on it.</p>",
        code_link(reports, "src/stiffness/contact.rs"),
        code_link(reports, "src/stiffness/printed.rs"),
        code_link(reports, "tests/stiffness.rs")
    );
    h.push_str("<h2>Derivation</h2><p class=formula>Node i (a body's centre) has displacements d_i = (u_i, θ_i). The material point of \
        body i at the contact point x_c moves by u_i + θ_i × R_i, R_i = x_c − x_i. Relative displacement and rotation at the contact: \
        δ = (u_b + θ_b × R_b) − (u_a + θ_a × R_a), φ = θ_b − θ_a. With the triad (n₁, n₂, n₃ = normal): S = kₛ(n₁n₁ᵀ + n₂n₂ᵀ) + kₙ n₃n₃ᵀ, \
        S_r = kₛθ(n₁n₁ᵀ + n₂n₂ᵀ) + kₙθ n₃n₃ᵀ, energy E = ½δᵀSδ + ½φᵀS_rφ. Since θ × R = −[R]ₓθ, (δ, φ) = B d with \
        B = [[−I, [R_a]ₓ, I, −[R_b]ₓ], [0, −I, 0, I]], and K = Bᵀ diag(S, S_r) B (eq. 13: r = K d).</p>\
        <p>Consequences, each tested: K is symmetric and positive semi-definite; its rank is the number of positive stiffnesses \
        counted with multiplicity (kₙ, kₛ twice, kₙθ, kₛθ twice); rigid translations and rotations are in its null space when both \
        lever arms reach the same point (x_a + R_a = x_b + R_b); otherwise a rigid rotation θ produces the spurious force \
        S (θ × (x_b + R_b − x_a − R_a)) on b (for example with the surface points x_a + r_a n and x_b − r_b n of two overlapping balls, \
        which are the overlap apart). In 2D (disks in the xy-plane, DOFs u, v, θ_z) the triad of eq. 24 has n₂ = z, so θ_z is a \
        bending rotation and the 2D matrix is the 3D one restricted to (u, v, θ_z).</p>");

    // Closed-form spectrum of two equal spheres.
    let (r, m) = (0.01, 2500.0 * 4.0 / 3.0 * crate::math::PI * 1e-6);
    let i = 0.4 * m * r * r;
    let k2 = contact_matrix_3d(&s, &n, &(n * r), &(-n * r));
    let a = DMatrix::from_fn(12, 12, |p, q| {
        let mp = if p % 6 < 3 { m } else { i };
        let mq = if q % 6 < 3 { m } else { i };
        k2[(p, q)] / (mp * mq).sqrt()
    });
    let mut got: Vec<Real> = a.symmetric_eigenvalues().iter().copied().collect();
    got.sort_by(|x, y| y.total_cmp(x));
    let mut expected = [
        ("2kₙ/m (normal)", 2.0 * s.kn / m),
        ("2kₙθ/I (twist)", 2.0 * s.kn_rot / i),
        (
            "7kₛ/m (shear with rolling: kₛ(2/m + 2r²/I))",
            7.0 * s.ks / m,
        ),
        ("7kₛ/m", 7.0 * s.ks / m),
        ("2kₛθ/I (bending)", 2.0 * s.ks_rot / i),
        ("2kₛθ/I", 2.0 * s.ks_rot / i),
    ];
    expected.sort_by(|x, y| y.1.total_cmp(&x.1));
    let mut rows = vec![[
        "closed form of ω²",
        "ω² closed form (1/s²)",
        "ω² eigenvalue (1/s²)",
        "relative difference",
    ]
    .map(String::from)
    .to_vec()];
    for (k, (name, e)) in expected.iter().enumerate() {
        rows.push(vec![
            name.to_string(),
            num(*e),
            num(got[k]),
            format!("{:.1e}", rel(got[k], *e, *e)),
        ]);
    }
    rows.push(vec![
        "six rigid-body modes: 0".into(),
        "0".into(),
        format!(
            "largest |ω²| {:.1e}",
            got[6..].iter().fold(0.0, |a: Real, b| a.max(b.abs()))
        ),
        "—".into(),
    ]);
    let _ = write!(h, "<h2>Two equal touching spheres</h2><p>r = 1 cm, m = {} kg, I = ⅖mr², kₙ = {} N/m, kₛ = {} N/m, kₙθ = {} N m/rad, \
        kₛθ = {} N m/rad, contact point in the middle, normal n = (0.36, −0.48, 0.8). Eigenvalues of M^-1/2 K M^-1/2 against the closed forms \
        (relative motion of the pair: reduced mass m/2 and I/2):</p>{}", num(m), num(s.kn), num(s.ks), num(s.kn_rot), num(s.ks_rot), table(&rows));

    // Entry-by-entry comparison, 3D.
    let t = Triad::from_normal(&n);
    let derived = contact_matrix_3d(&s, &n, &r_a, &r_b);
    let printed = printed_matrix_3d(&s, &t, &r_a, &r_b);
    let scale = derived.amax();
    let (rows, wrong) = compare_entries(
        &printed_entries_3d(),
        |i, j| printed[(i, j)],
        |i, j| derived[(i, j)],
        scale,
    );
    let wrong3 = wrong.len();
    let _ = write!(h, "<h2>3D: every printed entry (eqs. 15-22)</h2><p>Contact: n₃ = (0.36, −0.48, 0.8), n₁, n₂ completing a right-handed triad, \
        R_a = {} m, R_b = {} m (balls of 13 and 7 mm overlapping by 0.2 mm), kₙ = {}, kₛ = {}, kₙθ = {}, kₛθ = {}. \
        <b>{} of {} printed entries differ from the derivation.</b></p><details><summary>all 78 entries</summary>{}</details>",
        vec_words(&r_a), vec_words(&r_b), num(s.kn), num(s.ks), num(s.kn_rot), num(s.ks_rot), wrong3, printed_entries_3d().len(), table(&rows));

    // 2D.
    let n2 = Vector2::new(0.6, -0.8);
    let (ra2, rb2) = (
        n2 * 0.0129 + Vector2::new(1e-4, -2e-4),
        -n2 * 0.0069 + Vector2::new(1e-4, -2e-4),
    );
    let d2 = contact_matrix_2d(&s, &n2, &ra2, &rb2);
    let p2 = printed_matrix_2d(&s, &n2, &ra2, &rb2);
    let c2 = corrected_matrix_2d(&s, &n2, &ra2, &rb2);
    let scale2 = d2.amax();
    let (rows, wrong2) = compare_entries(
        &printed_entries_2d(),
        |i, j| p2[(i, j)],
        |i, j| d2[(i, j)],
        scale2,
    );
    let _ = write!(h, "<h2>2D: every printed entry (eqs. 26-27)</h2><p>n₃ = (0.6, −0.8), n₁ = (−n_y3, n_x3) (eq. 24), R_a = ({}, {}) m, \
        R_b = ({}, {}) m (the lever arms need not be along the normal), same stiffnesses. <b>Entries that differ: {}.</b> With k(6,1) \
        corrected, the largest difference of any entry is {:.1e} of max |k|.</p>{}",
        num(ra2.x), num(ra2.y), num(rb2.x), num(rb2.y), wrong2.join(", "), (c2 - d2).amax() / scale2, table(&rows));

    // Errata with their consequences.
    let rigid_x = nalgebra::SVector::<Real, 6>::from_row_slice(&[1e-3, 0.0, 0.0, 1e-3, 0.0, 0.0]);
    let spurious = p2 * rigid_x;
    let pd = DMatrix::from_fn(6, 6, |i, j| p2[(i, j)]);
    let dd = DMatrix::from_fn(6, 6, |i, j| d2[(i, j)]);
    let (ep, ed) = (pd.symmetric_eigenvalues(), dd.symmetric_eigenvalues());
    let disk = |k: &DMatrix<Real>| {
        // Two disks of 13 and 7 mm, 1 m thick, density 2500: the exact critical timestep.
        let (ma, mb) = (
            2500.0 * crate::math::PI * 0.013f64.powi(2),
            2500.0 * crate::math::PI * 0.007f64.powi(2),
        );
        let (ia, ib) = (0.5 * ma * 0.013f64.powi(2), 0.5 * mb * 0.007f64.powi(2));
        let mass = [ma, ma, ia, mb, mb, ib];
        let a = DMatrix::from_fn(6, 6, |i, j| k[(i, j)] / (mass[i] * mass[j]).sqrt());
        let l = a.symmetric_eigenvalues();
        (2.0 / l.max().sqrt(), l.min())
    };
    let ((dtp, minp), (dtd, _)) = (disk(&pd), disk(&dd));
    let n3 = vec3([0.6, 0.8, 0.0]);
    let n1 = vec3([-0.8, 0.6, 0.0]);
    let cross = n3.cross(&n1);
    let erratum_rows = vec![
        ["where", "printed", "derived", "numeric consequence"].map(String::from).to_vec(),
        vec![
            "eq. 26, k(6,1)".into(),
            "R_xb k(2,1) + R_yb k(1,1)".into(),
            "−R_xb k(2,1) + R_yb k(1,1) (the 3D k(12,1) restricted to the plane)".into(),
            format!("printed {} vs derived {} N. A rigid translation of both disks by 1 mm along x then produces the moment {} N m on disk b \
                (zero for any stiffness matrix); the printed matrix is indefinite (smallest eigenvalue {} against {} for the derived one), \
                so it has a negative-energy mode; the exact critical timestep of two disks (13 and 7 mm, 1 m thick) computed with it is {} s \
                against {} s (smallest eigenvalue of M^-1/2 K M^-1/2: {}).",
                num(p2[(5, 0)]), num(d2[(5, 0)]), num(spurious[5]), num(ep.min()), num(ed.min()), num(dtp), num(dtd), num(minp)),
        ],
        vec![
            "eq. 27, k(6,6)".into(),
            "k_sθ + (−R_xb k(2,6) + R_yb k(1,6))".into(),
            "the same formula".into(),
            format!("the formula is right but reads k(1,6) = k(6,1): it inherits the erratum above (printed {} vs derived {}); \
                with k(6,1) corrected it agrees", num(p2[(5, 5)]), num(d2[(5, 5)])),
        ],
        vec![
            "eq. 24 and its text".into(),
            "n₃ × n₁ = +ĵ = n₂".into(),
            "n₃ × n₁ = +k̂ = n₂ (n₂ = (0, 0, 1) in eq. 24 itself)".into(),
            format!("for n₃ = (0.6, 0.8, 0), n₁ = (−0.8, 0.6, 0): n₃ × n₁ = {}", vec_words(&cross)),
        ],
        vec![
            "text before eq. 23".into(),
            "ω = θ_x = θ_y ≡ 0".into(),
            "w = θ_x = θ_y ≡ 0 (w, the z-displacement of eq. 12, is removed; ω is not a DOF)".into(),
            "typographic: no number depends on it".into(),
        ],
        vec![
            "eq. 26, k(1,1), k(2,1), k(2,2)".into(),
            "k_s (n_x1 n_x1 + k_n n_x3 n_x3".into(),
            "k_s n_x1 n_x1 + k_n n_x3 n_x3".into(),
            "an unclosed parenthesis; the other reading k_s(n_x1² + k_n n_x3²) multiplies two stiffnesses (N²/m²). The printed second \
             equality (= k_s n_y3² + k_n n_x3²) confirms the reading used."
                .into(),
        ],
    ];
    let _ = write!(h, "<h2>Errata</h2><p>The 3D entries are all right. In 2D one entry has a wrong sign and one inherits it; three more are \
        typographic.</p>{}", table(&erratum_rows));
    std::fs::write(
        reports.join("stiffness.html"),
        page("Stiffness matrix (seed 000, eqs. 12-27)", &h),
    )
}

/// One row per printed entry `(equation, row, column)` (1-based): printed and derived values,
/// their difference relative to `scale`, the verdict; and the entries that differ.
fn compare_entries(
    entries: &[(u32, usize, usize)],
    printed: impl Fn(usize, usize) -> Real,
    derived: impl Fn(usize, usize) -> Real,
    scale: Real,
) -> (Vec<Vec<String>>, Vec<String>) {
    let mut rows = vec![[
        "eq.",
        "entry",
        "printed",
        "derived",
        "difference / max |k|",
        "verdict",
    ]
    .map(String::from)
    .to_vec()];
    let mut wrong = vec![];
    for &(eq, i, j) in entries {
        let (p, d) = (printed(i - 1, j - 1), derived(i - 1, j - 1));
        // NOTE: 1e-12 of the largest entry: the transcription and the derivation take different
        // arithmetic paths, so equal entries differ by round-off only (about 1e-16 of it).
        let ok = rel(p, d, scale) <= 1e-12;
        if !ok {
            wrong.push(format!("k({i},{j})"));
        }
        rows.push(vec![
            eq.to_string(),
            format!("k({i},{j})"),
            num(p),
            num(d),
            format!("{:.1e}", rel(p, d, scale)),
            if ok { "agrees" } else { "ERRATUM" }.into(),
        ]);
    }
    (rows, wrong)
}

fn vec_words(v: &Vec3) -> String {
    format!("({}, {}, {})", num(v.x), num(v.y), num(v.z))
}

/// Writes `reports/timestep.html` from the case summaries and a study computed here.
///
/// # Errors
/// I/O errors.
pub fn write_timestep_page(reports: &Path, summaries: &[Summary]) -> std::io::Result<()> {
    let mut h = String::new();
    let _ = write!(
        h,
        "<p>The automatic timestep is a fraction (safety) of an estimate of the critical timestep 2/ω_max of the central-difference scheme. \
         ballast offers seed 000's <b>diagonal</b> estimate (eq. 11: min over DOFs of √(m_i/K_ii), K_ii summed over the contacts) and a \
         <b>bound</b>: ω_max² ≤ min(max_i Σ_j |K_ij|/m_i, max_i Σ_j |K_ij|/√(m_i m_j)), the row-sum norms of M⁻¹K and M^-1/2 K M^-1/2, \
         so the bound is never above the exact value. The exact value comes from the largest eigenvalue of K φ = ω² M φ with every free DOF \
         (rotations included) and every active contact: dense below 1,500 DOFs, Lanczos above. Code: {}, {}, {}, {}.</p>",
        code_link(reports, "src/stiffness/estimate.rs"),
        code_link(reports, "src/stiffness/global.rs"),
        code_link(reports, "src/stiffness/eigen.rs"),
        code_link(reports, "src/timestep.rs")
    );
    // Estimators on every timestep case.
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

    // Chains.
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

    // Random clusters: where is the diagonal estimate not conservative?
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

    // Scaled against auto: each cycles_ratio check's own table, its header once.
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

    // Eq. 4.
    let (v, a, eps): (Real, Real, Real) = (1.0, 1e-12, 1e-5);
    let printed = (-v + (v * v + 2.0 * a * eps).sqrt()) / a;
    let stable = crate::timestep::kinematic_limit(v, a, eps);
    let _ = write!(h, "<h2>The kinematic constraint (eq. 4)</h2><p>Eq. 4 writes t = (−v + √(v² + 2aε))/a. For a piece moving at v = 1 m/s with \
        a tiny acceleration a = 1e-12 m/s² and ε = 1e-5 m the printed form gives {} s (cancellation: the exact value is ε/v = 1e-5 s), and \
        at a = 0 it divides zero by zero. ballast evaluates the same root as t = 2ε/(v + √(v² + 2aε)): {} s, exact for any a ≥ 0.</p>",
        num(printed), num(stable));
    std::fs::write(
        reports.join("timestep.html"),
        page("Timestep: estimates, exact critical timestep, scaling", &h),
    )
}

/// Turns case names in the first column of a rendered table into links to their pages.
pub(super) fn link_cases(html: &str, summaries: &[Summary]) -> String {
    let mut out = html.to_string();
    for s in summaries {
        let cell = format!("<td>{}</td>", esc(&s.case));
        out = out.replace(
            &cell,
            &format!(
                "<td><a href=\"cases/{0}/index.html\">{0}</a></td>",
                esc(&s.case)
            ),
        );
    }
    out
}

/// A recorded column of a case run on disk (`reports/cases/<case>/series.csv`).
fn column_of(reports: &Path, case: &str, column: &str) -> Option<(Vec<Real>, Vec<Real>)> {
    let s =
        crate::output::SeriesTable::read_csv(&reports.join("cases").join(case).join("series.csv"))
            .ok()?;
    Some((s.t.clone(), s.column(column)?.to_vec()))
}

/// A check's measured value in a case summary.
fn check_value(
    summaries: &[Summary],
    case: &str,
    kind: &str,
    series: Option<&str>,
) -> Option<Real> {
    summaries
        .iter()
        .find(|s| s.case == case)?
        .checks
        .iter()
        .find(|c| c.kind == kind && (series.is_none() || c.series.as_deref() == series))?
        .value
}

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

/// Writes `reports/performance.html` from benchmark runs (`ballast bench`, issue #8): the table
/// with the ratios to LIGGGHTS, the targets, throughput against N and threads, and where the
/// time goes.
///
/// # Errors
/// I/O errors.
pub fn write_performance_page(
    reports: &Path,
    runs: &[crate::bench::BenchRun],
) -> std::io::Result<()> {
    use crate::bench::LIGGGHTS;
    let model_of = |r: &crate::bench::BenchRun| {
        if r.case.contains("hooke") {
            "hooke"
        } else {
            "hertz"
        }
    };
    let ligg = |m: &str, n: usize| LIGGGHTS.iter().find(|l| l.0 == m && l.1 == n);
    let one = |m: &str, n: usize| {
        runs.iter()
            .find(|r| model_of(r) == m && r.n == n && r.threads == 1)
    };
    let mut h = String::new();
    let _ = write!(
        h,
        "<p>The peer benchmark's <b>settle-box</b> scene (benches/peers/SCENE.md): N spheres of 1 mm on a jittered lattice fall \
         into a closed box and settle, 20,000 steps of 1e-5 s, Hertz-Mindlin or Hookean contacts with a tangential history spring \
         (models <code>hertz-history</code>, <code>hooke-history</code>: {}), the box a wall of 6 faces (12 facets). Positions are \
         SCENE.md's SplitMix64 recipe bit for bit ({}). Throughput = N × steps / wall time of the cycle loop, in million \
         particle-steps per second (Mps/s); LIGGGHTS 3.8.0's figures are per CPU-second on one core, measured on this machine \
         size (benches/peers/RESULTS.md). Reproduce: <code>cargo run --release -- bench</code> (about 15 min); \
         <code>benches/peers/run.sh</code> runs LIGGGHTS and ballast on the same scenes in one go. Code: {}, {}.</p>",
        code_link(reports, "src/law/history.rs"),
        code_link(reports, "src/case/generate.rs"),
        code_link(reports, "src/bench.rs"),
        code_link(reports, "src/cycle.rs"),
    );
    let mut machines: Vec<&str> = (runs.iter().map(|r| r.machine.as_str()))
        .filter(|m| !m.is_empty())
        .collect();
    machines.sort_unstable();
    machines.dedup();
    let _ = write!(
        h,
        "<p><b>Machine.</b> The runs of the table ran on {}. RESULTS.md's LIGGGHTS figures, against which issue #8 \
         states its targets, were measured on 2026-11-21 on an AMD EPYC with AVX-512 (2 vCPUs). The project's machine \
         of two cores has not always been that one: in the thirteenth round it was an AVX2 EPYC (family 25 model 1, no \
         AVX-512), on which LIGGGHTS itself runs slower than RESULTS.md says, and so does ballast (its vector loops \
         are half as wide). Where the processors differ, the ratio to LIGGGHTS run on the same machine in the same \
         hour (the side-by-side table below) is the fair one; the targets table gives both verdicts.</p>",
        if machines.is_empty() {
            "a processor not recorded (results written before the thirteenth round)".to_string()
        } else {
            machines.join("; ")
        }
    );
    let mut rows = vec![[
        "model",
        "N",
        "threads",
        "steps",
        "loop (s)",
        "Mps/s",
        "µs per particle-step",
        "LIGGGHTS 1 core (Mps/s)",
        "ratio",
        "contacts pp (LIGGGHTS)",
        "wall contacts nw (LIGGGHTS)",
        "mean z, m (LIGGGHTS)",
        "KE trans (J)",
        "peak memory (MiB)",
    ]
    .map(String::from)
    .to_vec()];
    for r in runs {
        let m = model_of(r);
        let l = ligg(m, r.n);
        let mps = r.particle_steps_per_s / 1e6;
        let rel = |a: f64, b: f64| format!("{:+.2} %", 100.0 * (a - b) / b);
        rows.push(vec![
            m.into(),
            r.n.to_string(),
            r.threads.to_string(),
            r.steps.to_string(),
            format!("{:.2}", r.loop_s),
            format!("{mps:.3}"),
            format!("{:.3}", 1e6 / r.particle_steps_per_s),
            l.map_or("-".into(), |l| format!("{}", l.2)),
            l.map_or("-".into(), |l| format!("{:.2}", mps / l.2)),
            l.map_or(r.pp.to_string(), |l| {
                format!("{} ({}, {})", r.pp, l.3, rel(r.pp as f64, l.3 as f64))
            }),
            l.map_or(r.nw.to_string(), |l| {
                format!("{} ({}, {})", r.nw, l.4, rel(r.nw as f64, l.4 as f64))
            }),
            l.map_or(format!("{:.5e}", r.mean_z), |l| {
                format!("{:.5e} ({}, {})", r.mean_z, l.5, rel(r.mean_z, l.5))
            }),
            format!("{:.2e}", r.ke_trans),
            format!("{:.1}", r.peak_rss_kib as f64 / 1024.0),
        ]);
    }
    let _ = write!(h, "<h2>Results</h2>{}", table(&rows));
    // Targets.
    let mut t = vec![["target", "measured", "verdict"].map(String::from).to_vec()];
    let peer_rows = newest_peers();
    let peers_path = peer_rows
        .as_ref()
        .and_then(|(p, _)| p.file_name())
        .map_or(String::new(), |f| f.to_string_lossy().into_owned());
    let peers = peer_rows
        .as_ref()
        .map_or(Vec::new(), |(_, rows)| peer_pairs(rows));
    let verdict = |ok: bool| if ok { "met" } else { "MISSED" }.to_string();
    for m in ["hertz", "hooke"] {
        for n in [10000, 50000] {
            if let (Some(r), Some(l)) = (one(m, n), ligg(m, n)) {
                let ratio = r.particle_steps_per_s / 1e6 / l.2;
                t.push(vec![
                    format!(
                        "{m}, N = {n}: at least 2 × LIGGGHTS on one core ({:.2} Mps/s)",
                        2.0 * l.2
                    ),
                    format!(
                        "{:.3} Mps/s = {ratio:.2} × LIGGGHTS",
                        r.particle_steps_per_s / 1e6
                    ),
                    verdict(ratio >= 2.0),
                ]);
            }
            let same = peers
                .iter()
                .find(|(l, b)| l.model == m && l.n == n && b.par == 1);
            if let Some((l, b)) = same {
                let ratio = b.mps / l.mps;
                t.push(vec![
                    format!(
                        "{m}, N = {n}: at least 2 × LIGGGHTS on one core, the same machine and hour \
                         ({})",
                        peers_path
                    ),
                    format!(
                        "{:.3} Mps/s against {:.3} = {ratio:.2} ×",
                        b.mps, l.mps
                    ),
                    verdict(ratio >= 2.0),
                ]);
            }
        }
        for n in [1000, 10000, 50000] {
            let two = runs
                .iter()
                .find(|r| model_of(r) == m && r.n == n && r.threads == 2);
            if let (Some(a), Some(b)) = (one(m, n), two) {
                let s = b.particle_steps_per_s / a.particle_steps_per_s;
                t.push(vec![
                    format!("{m}, N = {n}: 2 threads at least 1.8 × one thread"),
                    format!("{s:.2} ×"),
                    verdict(s >= 1.8),
                ]);
            }
        }
        let costs: Vec<(usize, f64)> = runs
            .iter()
            .filter(|r| model_of(r) == m && r.threads == 1)
            .map(|r| (r.n, 1e6 / r.particle_steps_per_s))
            .collect();
        if costs.len() >= 2 {
            let lo = costs.iter().map(|c| c.1).fold(f64::INFINITY, f64::min);
            let hi = costs.iter().map(|c| c.1).fold(0.0, f64::max);
            t.push(vec![
                format!("{m}: cost per particle-step flat within 20 % over N"),
                format!(
                    "{:.3} to {:.3} µs ({:+.1} %)",
                    lo,
                    hi,
                    100.0 * (hi - lo) / lo
                ),
                verdict(hi <= 1.2 * lo),
            ]);
        }
        let mem: Vec<(usize, u64)> = runs
            .iter()
            .filter(|r| model_of(r) == m && r.threads == 1)
            .map(|r| (r.n, r.peak_rss_kib))
            .collect();
        if let (Some(a), Some(b)) = (
            mem.iter().min_by_key(|x| x.0),
            mem.iter().max_by_key(|x| x.0),
        ) {
            if b.0 > a.0 {
                let slope = (b.1 as f64 - a.1 as f64) / (b.0 - a.0) as f64;
                t.push(vec![
                    format!("{m}: peak memory at most 0.5 KiB per particle beyond a fixed base"),
                    format!("{slope:.3} KiB per particle (N = {} to {})", a.0, b.0),
                    verdict(slope <= 0.5),
                ]);
            }
        }
        for n in [1000, 10000, 50000] {
            if let (Some(r), Some(l)) = (one(m, n), ligg(m, n)) {
                let dp = (r.pp as f64 - l.3 as f64) / l.3 as f64;
                let dz = (r.mean_z - l.5) / l.5;
                t.push(vec![
                    format!("{m}, N = {n}: contacts and mean height within 2 % of LIGGGHTS"),
                    format!("contacts {:+.2} %, mean z {:+.2} %", 100.0 * dp, 100.0 * dz),
                    verdict(dp.abs() <= 0.02 && dz.abs() <= 0.02),
                ]);
            }
        }
    }
    let _ = write!(h, "<h2>Targets (issue #8)</h2>{}", table(&t));
    if let Some(side) = side_by_side() {
        h.push_str(&side);
    }
    // Plots.
    let mut vs_n = Vec::new();
    for m in ["hertz", "hooke"] {
        for th in [1, 2] {
            let pts: Vec<&crate::bench::BenchRun> = runs
                .iter()
                .filter(|r| model_of(r) == m && r.threads == th)
                .collect();
            if !pts.is_empty() {
                vs_n.push(Curve {
                    label: format!("ballast {m}, {th} thread{}", if th > 1 { "s" } else { "" }),
                    x: pts.iter().map(|r| r.n as f64).collect(),
                    y: pts.iter().map(|r| r.particle_steps_per_s / 1e6).collect(),
                    markers: true,
                });
            }
        }
        let l: Vec<_> = LIGGGHTS.iter().filter(|l| l.0 == m).collect();
        vs_n.push(Curve {
            label: format!("LIGGGHTS {m}, 1 core"),
            x: l.iter().map(|l| l.1 as f64).collect(),
            y: l.iter().map(|l| l.2).collect(),
            markers: true,
        });
    }
    if !runs.is_empty() {
        h.push_str("<h2>Throughput</h2>");
        h.push_str(&super::plot::svg(&Plot {
            title: "throughput against N".into(),
            x_label: "N (balls)".into(),
            y_label: "million particle-steps per second".into(),
            log_x: true,
            curves: vs_n,
            ..Default::default()
        }));
        let mut vs_t = Vec::new();
        for m in ["hertz", "hooke"] {
            for n in [1000, 10000, 50000] {
                let pts: Vec<&crate::bench::BenchRun> = runs
                    .iter()
                    .filter(|r| model_of(r) == m && r.n == n)
                    .collect();
                if pts.len() > 1 {
                    vs_t.push(Curve {
                        label: format!("{m}, N = {n}"),
                        x: pts.iter().map(|r| r.threads as f64).collect(),
                        y: pts.iter().map(|r| r.particle_steps_per_s / 1e6).collect(),
                        markers: true,
                    });
                }
            }
        }
        if !vs_t.is_empty() {
            h.push_str(&super::plot::svg(&Plot {
                title: "throughput against threads".into(),
                x_label: "threads".into(),
                y_label: "million particle-steps per second".into(),
                curves: vs_t,
                ..Default::default()
            }));
        }
    }
    // Where the time goes.
    let mut p = vec![[
        "model",
        "N",
        "threads",
        "motion",
        "detection",
        "ball-ball contacts",
        "gather",
        "walls",
        "checks",
        "µs per particle-step",
    ]
    .map(String::from)
    .to_vec()];
    for r in runs {
        let ph = &r.phases;
        let total = ph.motion + ph.detect + ph.contacts + ph.gather + ph.walls + ph.checks;
        let pc = |x: f64| format!("{:.1} %", 100.0 * x / total.max(1e-300));
        p.push(vec![
            model_of(r).into(),
            r.n.to_string(),
            r.threads.to_string(),
            pc(ph.motion),
            pc(ph.detect),
            pc(ph.contacts),
            pc(ph.gather),
            pc(ph.walls),
            pc(ph.checks),
            format!("{:.3}", 1e6 / r.particle_steps_per_s),
        ]);
    }
    let _ = write!(
        h,
        "<h2>Where the time goes</h2><p>Wall time of each phase of the cycle over the whole run (a clock read between phases, \
         about ten reads per cycle). Motion: timestep and velocity Verlet for balls and walls (with the blow-up check); \
         detection: cell-grid broad phase and merge into the sorted contact lists; ball-ball contacts: geometry and force of \
         every candidate pair (in parallel above 4,096 contacts), and for the history models also their sum into the balls \
         (the gather column is then zero); gather: forces and moments summed per ball over its contacts in list order (in \
         parallel over balls above 4,096 contacts, bit-identical for any number of threads); walls: ball-facet \
         geometry, resolution, force and gather; checks: the interpenetration scan, run only when a contact flags one.</p>{}",
        table(&p)
    );
    let _ = write!(
        h,
        "<h2>What limits it, and the next step</h2><ul>\
         <li><b>Every candidate pair is visited every step.</b> A ball-ball contact record holds only what persists (pair, \
         model, activity, model state: {} bytes; 152 before this issue's second round; a frame-based model's local frame, {} \
         more bytes, lives in a side array; a ball-facet contact takes {}). A contact exists for every pair whose extents \
         (spheres of radius r + margin, 0.1 mm here) overlap: at N = 10,000, 3.4 candidate pairs per ball of which 2.2 touch \
         (4.0 with the margin of 0.2 mm used until the seventh round; 6.3 until the fifth round, when the test was on boxes \
         and also kept the pairs in their corners). For the history \
         models the loop goes in runs of 512 records: a branch-free pass lists the pairs not clearly apart, a second \
         computes their forces and adds each at once to its two balls (third round: settle-box Hertz 10k, one thread, 36.9 s \
         to 25.9 s, of which the gather's 6.8 s; the touching/apart branch was taken in no predictable order). Since the \
         sixth round that loop stored only each contact's force (24 bytes; the contact point goes straight into the \
         moments), and since the eighth it stores nothing besides the record: an output that needs a contact's force \
         finds it again from the state. The records are still streamed every step: 1.6 MB at 10k, 8.2 MB at 50k (48 bytes each since the \
         seventh round), more than the caches hold at 50k beside the balls, which is what is left of the cost's growth \
         with N.</li>\
         <li><b>Per-contact arithmetic.</b> The history update goes eight contacts at a time (fourth round, \
         src/contact/lanes.rs): the inputs of eight touching pairs are copied into lane arrays and one branch-free loop \
         computes them with vector instructions (AVX-512 on the machine of rounds 1-12: eight square roots in one \
         instruction; two instructions of four on the AVX2 machine of round 13; .cargo/config.toml \
         builds for the building machine's processor), with the same bits as the one-contact path (tested). Settle-box \
         Hertz 10k, one thread: 26.8 s to 23.2 s. At 50k it gained nothing: there the loop waits on memory. Copying a \
         lane's inputs is the largest single cost of the loop (about a fifth of its samples): the velocities and spins of \
         the two balls, read in no spatial order. Copying the next batch in before computing this one (so that no vector \
         load waits for a recent store) made the loop slower (12.5 s to 13.3 s) and was not kept. The law of motion goes \
         32 balls at a time in the same way (fifth round: its six divisions per ball become vector divisions; 3.2 s to \
         1.9 s at 10k; with 8 balls at a time the vector loads waited for the batch's last stores: 2.8 s). The wall phase \
         did one pass per ball-wall interaction (geometry, associative logic, forces, resultant; 3.4 s to 2.4 s at 10k, \
         most of it from building a facet's corners without going through the stack); since the ninth round it goes in \
         blocks of 256 interactions, in three passes (below). Earlier (third round) one \
         reciprocal instead of three divisions gained nothing measurable and would have changed the round-off.</li>\
         <li><b>Two threads.</b> The balls are cut into two ranges of equal counted work, weighted since the eleventh \
         round by each range's measured time per unit of work, and one parallel pass per step \
         computes every force (tenth round): each thread sums, in list order, the contacts that cross into its range \
         from the range before (2.3 % of the pairs at 10k with the balls in Z order: 757 of 33,380), computed again from \
         copies of their records taken before the pass (the other thread updates the records meanwhile: the same inputs, \
         the same bits), then its own segment of the list, then its balls' wall interactions; each thread zeroes its own \
         sums first. The law of motion, split into blocks of 1,024 balls, also makes the broad phase's test of how far \
         each ball has moved, so a step has two parallel regions (law of motion; forces) instead of five. What is left \
         on one thread: the copies of the crossing records, the sums of the wall contacts into the walls, and, at a \
         rebuild of the candidate pairs, the merge and the search for ball-facet candidates (the pair search and sort go \
         in parallel since the fourth round). At N = 1,000 the 3,800 candidate pairs are below the 4,096 from which the \
         force loop uses a second thread, so two threads run it as one does. RESULTS.md found that this VM's two vCPUs \
         slow each other by 20-30 % when both are busy; two one-thread runs of Hooke 10k at once took 17.6 s each \
         against 16.6 s for one alone in the eighth round, and 15.6-15.7 s against 14.6-16.1 s in the tenth. Measured \
         inside the force pass (tenth round, Hooke 10k, two threads, a probe not kept): the two threads were busy 6.71 \
         and 6.97 s, the pass took 7.76 s, so a step waits about 40 µs at the end of the pass for the slower thread \
         and the join (eleventh round: about 20 µs of it was the join, now 1 µs, and the rest the imbalance, now \
         smaller; below); the same work took one thread alone 10.7-14.3 s in this session's runs (the VM's speed varied \
         that much), so a thread of the pair does about half of it or more (the threads share the memory bus and the \
         last-level cache, and the crossing contacts are computed twice).</li>\
         <li><b>Ball order (sixth round).</b> In the generator's order (x fastest, then y, then layers) the two balls of a \
         contact can be a whole layer apart in memory (L² = 5,041 balls at 50k), and the profile at 50k showed the loop \
         waiting on the second ball's velocity and spin. The settle-box cases now set <code>[run] sort_every = 1000</code>: \
         every 1,000 steps, at the next rebuild of the candidate pairs, the balls are renumbered along a Z (Morton) curve \
         (src/model/sort.rs; LAMMPS, on which LIGGGHTS is built, sorts its atoms every 1,000 steps by default). Ids move \
         with the balls and contacts keep their state (a contact whose balls swap order turns its shear history over); \
         results change by round-off only (test <code>renumbering_the_balls_changes_only_the_round_off</code>). Hertz, \
         one thread: 151.0 s to 118.4 s at 50k; two threads: 79.6 s to 60.4 s at 50k and 12.8 s to 11.1 s at 10k (the \
         ranges of the two threads now meet along a plane of the curve, not along a layer that the settling mixes). \
         Packing each ball's position, radius, velocity, mass and spin into one 64- or 128-byte record per step was tried \
         first and not kept: the copy's 3-6 MB pushed other data out of the cache, and the law of motion and the walls \
         slowed down with it.</li>\
         <li><b>Seventh round: the LIGGGHTS neighbour list, a smaller record.</b> (1) The candidate pairs are found again \
         once a ball has moved a whole margin, not half of it: two balls that were not candidates had a gap of more than \
         two margins, and each has moved at most one since (test <code>no_touching_pair_is_missed_between_rebuilds</code>, \
         which fails with the rule at 1.2 margins). The settle-box cases then take a margin of 0.1 mm: the same \
         neighbour list as LIGGGHTS's (skin 0.2 mm, rebuilt once an atom has moved half of it), the same rebuild cycles as \
         before and the same bits, with 17 % fewer candidate pairs (33,569 instead of 40,161 at 10k, 170,510 instead of \
         204,308 at 50k). (2) The record of a contact is 48 bytes, not 56: the hysteretic model's largest overlap and the \
         bond's flag share one field of the model state (no model uses both); at 50k the contact phase of Hooke went from \
         71.7 s to 68.3 s in back-to-back runs. (3) A batch of eight contacts with one model skips the other model's \
         coefficients (the Hooke lanes no longer take three square roots for Hertz's); (4) the law of motion reads the \
         coordinates in place instead of copying them into lane arrays (9.2 to 8.0 ns per ball at 10k); (5) the merge \
         works in place and the contact points are kept only where the general loop writes them (memory below). Every \
         settle-box run ends with the same bits as in the sixth round. This round's bench (settle_box_2026-11-22_r7.json) ran \
         during a slow spell of this VM (its other tenants): the same binary ran Hertz 50k in 101.0 s and Hooke 50k in \
         96.0-99.4 s on one thread outside the bench (2.08 × and 1.93-2.00 × LIGGGHTS) and 138.4 s and 125.3 s inside it; \
         interleaved with the sixth round's binary, Hertz 50k went from 125.8 s to 101.0 s and Hooke 50k from 119.4 s to \
         99.4 s. Next: a smaller ball-facet record (the wall phase \
         costs about 90 ns per active wall contact, three times a ball-ball contact: its 300-byte records carry a frame \
         that the history models do not use), the merge and the ball-facet search in parallel, and two threads at \
         10k.</li>\
         <li><b>Eighth round: memory.</b> Every settle-box run ends with the same bits as in the seventh round. (1) The \
         frame-free force loop keeps no contact forces (24 bytes per candidate pair, and as many bytes written per pair \
         and step): the record carries a sliding flag in its padding (still 48 bytes), and <code>Contacts::force</code> \
         finds a contact's force again from its state, F<sub>n</sub> n - k<sub>t</sub> ξ - g<sub>t</sub> v<sub>t</sub> \
         at the unchanged positions and velocities (src/law/history.rs, <code>held_force</code>): the same bits when \
         the contact sticks, within a rounding when it slides (ξ = -F<sub>t</sub>/k<sub>t</sub> is kept); the tests \
         <code>the_lane_update_gives_the_one_contact_path_bits</code> and \
         <code>the_frame_free_force_loop_gives_the_general_loops_state</code> compare it with the forces of the \
         one-by-one update and of the general loop. (2) The split between threads finds its cuts in one pass, without \
         an array of prefix sums (8 bytes per pair). (3) The renumbering permutes the ball arrays in place, cycle by \
         cycle, with its work arrays kept from one renumbering to the next. (4) The lists get room at once for 8 \
         candidate pairs and half a ball-facet contact per ball, when the model is built (<code>Model::make_room</code>), \
         instead of doubling a dozen times while the packing forms. (5) On one thread the broad phase writes its pairs \
         straight into the list. (6) After the bench, a ball-facet contact's local frame moved to a side array kept only \
         for the frame-based models (<code>FacetContacts::frames</code>): the record is 168 bytes instead of 288 for \
         the history models (50k: Hooke 34.2 MiB, Hertz 34.0 MiB, 0.59 and 0.58 KiB per particle from 1k; no speed change \
         measurable at 10k). (7) The ball arrays get room for all the case's balls before the first is added (they \
         grew ball by ball in the heap, for the same reason as the lists), and (8) the renumbering sorts the indices by \
         (Morton key, index), the key computed at each comparison, instead of an array of keyed indices (16 bytes per \
         ball; the same order, so the same bits): 50k peaks of 29.7 MiB (Hooke) and 29.8 MiB (Hertz) in single runs. \
         A second bench of this round (settle_box_2026-11-22_r8b.json), run after (6)-(8), fell again in \
         a slow spell: the peak grows by 0.489 (Hertz) and 0.494 KiB (Hooke) per particle from 1k to 50k, under the \
         target by 1-2 %, while the 1k peak varies by about 0.3 MiB from run to run (5.9-6.4 MiB), that is by about \
         0.006 KiB per particle; the first bench of this round (settle_box_2026-11-22_r8.json, before (6)-(8)) gave \
         0.605 and 0.603. Why (3)-(5) matter: glibc serves the blocks below its mmap threshold from its heap, and \
         raises that threshold to the size of any mapped block freed (the case's list of balls, freed once the model is \
         built, is 2.4 MiB at 10k and about 12 MiB at 50k); a list that doubles in the heap leaves its old blocks behind, \
         and they stay resident. Room that is reserved but never written costs address space, not resident memory. \
         Settle-box Hooke, one thread, peak resident memory: 16.4 to 11.5 MiB at 10k and 56.2 to 35.0 MiB at 50k (5.9 \
         MiB at 1k). Speed is unchanged: run alternately with the seventh round's binary, Hooke 10k took 19.06 and 18.77 s \
         against 18.37 and 19.57 s, and Hooke 50k 147.1 s against 140.2 s. Those runs, and the table's bench, fell in a \
         slow spell of this VM: the same Hooke 50k run took 96-99 s in a quiet hour of the seventh round. The Hooke \
         cost check passes in this bench (14.5 %) only because its 1k and 10k runs were slowed as much as its 50k run; \
         from the quiet runs of the seventh round (1k 1.52 s, 50k 96.0 s) the cost grows 26 %, so that target is not \
         counted as met.</li>\
         <li><b>Ninth round: fewer stores in the contact loop.</b> Every settle-box run ends with the same bits as in \
         the eighth round. The profile of the lane update showed its time in memory operations rather than in its \
         arithmetic: copying the inputs into the lanes (one store per number and lane), and the scalar scatter of each \
         force into the two balls' sums. (1) The lanes compute each contact's moments about both centres, \
         (C - x<sub>a</sub>) × F and (C - x<sub>b</sub>) × F, in the vector loop, with the gather's operations in its \
         order (<code>lanes::Exerted</code>; the lane test compares them with the one-contact path's), so the scatter \
         only adds; (2) a batch of Hooke contacts reads no contact masses (its coefficients use none; three arrays per \
         ball); (3) a lane stores v<sub>b</sub> - v<sub>a</sub> instead of both velocities. Hooke 10k, one thread, \
         contact phase: 13.4 and 12.7 s before (1)-(2), 10.8 and 10.1 s after (alternate runs in a slow spell); (3), run \
         side by side with the binary before it, one core each and the cores swapped between the two pairs of runs: \
         11.4 and 10.7 s to 10.2 and 9.8 s. (4) The wall phase goes in blocks of 256 ball-wall interactions, in three \
         passes: the geometry of every contact, then each interaction's resolution, then its forces, so that the \
         processor works on several independent contacts at once (wall phase 2.65 and 2.40 s to 2.50 and 2.23 s, side \
         by side). Tried and not kept, all side by side with the binary before: holding ball a's sums in registers while \
         its contacts follow one another (contact phase 10-12 % slower: which contact starts a new ball is \
         unpredictable); skipping the sliding lanes' square root and four divisions when no lane of a batch slides (7-8 \
         % slower: the lanes' extra stores cost more than the divisions, which overlap the rest); runs of 256 records \
         instead of 512 (no change); whole-program optimization (<code>lto = \"fat\"</code>, one codegen unit: no \
         change). A scratch simulation (not kept) of the loop's accesses through a 1 MiB, 16-way cache (ball arrays and records, in list \
         order) counts 1.47 line fills per contact at 50k, about what streaming the records and the balls' arrays once \
         per step costs (1.43): the Z order leaves no reuse to gain, and what is left of the growth of the cost with N \
         is the bytes streamed per step (records, ball arrays, the law of motion's eleven arrays). This round's \
         bench is settle_box_2026-11-22_r9.json; its Hooke 50k one-thread run fell in a slow spell (137.9 s, \
         against 120.3 s for Hertz 50k, whose contacts cost more). Two threads did not gain with one: at 10k they took \
         11.9 s (Hertz) and 11.4 s (Hooke) against 11.7 and 11.6 s in the eighth round, so their ratio to one thread fell \
         to 1.43 ×; what one thread no longer pays, the two-thread step still waits for at its joins and in its \
         sequential parts, which are the next step.</li>\
         <li><b>Tenth round: one parallel pass for the forces.</b> Every settle-box run ends with the same bits as in \
         the ninth round. (1) The forces of a step take one parallel pass instead of three (the crossing contacts' \
         pass, the ranges' pass, the wall phase's): each range of balls computes again the crossing contacts coming \
         into it, from copies of their records, then its segment, then its balls' wall interactions (above, Two \
         threads). (2) Each thread zeroes its own range of the sums: zeroing them all on one thread before the pass \
         cost 37 µs per step at 10k (0.74 s of 20,000 steps, probe not kept) and let the second thread fall asleep, \
         which then started the pass 27 µs late on average; after (2), 6 µs and 4 µs. (3) The law of motion tells \
         whether a ball has moved farther than the margin since the last build of the candidate pairs, the test the \
         broad phase made in a pass of its own (the lane law-of-motion test checks the flag with the margin just above \
         and just below the largest distance). Hooke 10k, two threads, runs alternating with the ninth round's binary: \
         14.23, 11.83 and 11.82 s before, 12.52, 10.40 and 11.64 s after (1)-(3); one thread, side by side (one core \
         each, cores swapped): 15.55 and 16.50 s before, 15.45 and 15.78 s after (the detection phase 1.33-1.39 s to \
         1.04-1.07 s; the law of motion unchanged). The bench above (settle_box_2026-11-22_r10.json) is this \
         round's, the table above: Hertz 50k on one thread meets its target by 0.01 % (9.541 against 9.54 Mps/s) and \
         Hertz 10k misses by 4 % (11.84 against 12.34), so with this VM's spread (up to 25 % within an hour) these \
         verdicts sit on the line; in the same-hour run below, one thread did 2.08-2.28 × LIGGGHTS at 10k and 50k. \
         Tried and not kept: reading ball b's velocity and spin in the selection pass, as a prefetch made by \
         ordinary loads (Hooke 50k contact phase 74.3 and 67.5 s before, 76.4 and 66.0 s after, side by side: no gain; \
         7-10 % slower at 10k); the kernel's transparent huge pages for the heap (<code>GLIBC_TUNABLES=glibc.malloc.hugetlb=1</code>, \
         a measurement, not a setting of ours: Hooke 50k 3-4 % faster, 133.5 and 131.1 s to 129.4 and 126.0 s side by \
         side, but the peak grew by 12 MiB, 0.25 KiB per particle, beyond the memory target). Together with the \
         cache simulation of the ninth round this says that at 50k the loop neither waits on ball b's lines nor on \
         the address translation: it streams. What is left: on one thread, the bytes streamed per step (at 50k the \
         cost per particle-step is still 24 % above that at 1k); on two threads, the cost of the pass being shared \
         by threads that slow each other, and at 1k the force loop staying on one thread.</li>\
         <li><b>Eleventh round: the wall geometry, the contact mass, the join.</b> (1) A ball-facet contact whose \
         wall point lies inside the face takes the facet's unit normal and the signed distance s (wall point x - s n<sub>f</sub>, \
         distance |s|, normal -sign(s) n<sub>f</sub>; src/contact/ball_facet.rs) instead of normalizing the vector to the \
         wall point: the same in exact arithmetic, with no division or square root, and no rounding in the normal (a \
         ball resting on a facet felt sideways forces of 1e-15 of its weight; now none). The wall geometry went from 33 \
         to 23 ns per facet contact (Hooke 10k, a probe not kept), and the wall phase of Hooke 10k from 1.01-1.10 s to \
         0.90-0.99 s in 10,000-step runs side by side. This changes the bits: the settle-box runs now end with pp 21749 \
         and mean z 0.006025649609873984 (Hooke 10k) and 22158 and 0.006011100985344836 (Hertz 10k), and 40 goldens \
         change by rounding only. (2) The contact mass reads the clump array only for a ball whose translations are \
         fixed (a ball free to translate is never a pebble): two arrays per ball instead of three, twice per Hertz \
         contact; Hertz 10k's contact phase 1-8 % shorter in four pairs of runs. (3) Two threads: the caller of the \
         force pass runs range 0 and then spins (at most 2 ms, src/par.rs) for the range the other thread started, \
         instead of sleeping in rayon's join: measured after the last range ends, 20 µs per step before, 1 µs after \
         (Hooke 10k). (4) The partition weights each range's share of the work by its measured time per unit of work \
         (src/contact/partition.rs, <code>Partition::record</code>), which brings in what the count misses, the wall \
         interactions first: the imbalance between the two ranges, averaged over 50 steps, went from 45 to 30 µs. The \
         results do not depend on where the cuts fall, so (3) and (4) keep the bits. Tried and not kept: one square root \
         for both Hertz damping coefficients (sqrt(2E*) and sqrt(8G*) taken once per model; no gain measured), and a \
         reciprocal for the three divisions of the pair normal (2-7 % on the contact phase of Hertz 10k, within this \
         VM's noise, and it would change every ball-ball result's rounding). Measured side by side with the tenth round's binary (one thread, one core each, cores \
         swapped): Hooke 10k 15.70 and 17.72 s before, 15.88 and 16.41 s after; Hertz 10k 17.96 and 18.59 s before, \
         17.52 and 18.37 s after (the wall phase 2.54-3.10 s before, 2.33-2.68 s after); two threads, alternating, \
         Hooke 10k force pass (contacts and walls) 8.62, 9.07 and 9.07 s before, 7.80, 8.50 and 8.91 s after. The two \
         benches of this round ran in the VM's slowest spell yet: Hooke 10k on one thread took 15.2-15.4 s (13.8 s in \
         the tenth round's bench) and Hooke 50k 106-121 s (85 s). The first (settle_box_2026-11-22_r11.json) gave \
         Hertz 10k 2.08 × LIGGGHTS's RESULTS.md figure and Hooke 10k 1.84 ×, Hertz and Hooke 50k 1.76 × and 1.59 ×; \
         the second, the table above (settle_box_2026-11-22_r11b.json), 2.03 ×, 1.81 ×, 1.81 × and 1.80 ×. Against \
         LIGGGHTS run in the same hour (benches/results/peers_2026-11-22_r11.tsv, below; LIGGGHTS itself ran between 8 % \
         above (Hooke 1k) and 42 % below (Hooke 50k) its RESULTS.md figures then), one thread did 2.23 × (Hertz) and 2.02 × (Hooke) at 10k and 2.16 × and \
         2.58 × at 50k. In such a spell the cost per particle-step at 50k grows most (44.8 % and 42.1 % above 1k in the \
         second bench, 24 % in the tenth round's): at 50k the step streams memory, and that is what the neighbours \
         on this host compete for.</li>\
         <li><b>Thirteenth round: another processor; the law of motion, the lanes' output, the walls.</b> This \
         round's machine is an AVX2 EPYC (family 25 model 1, no AVX-512; the bench files record the processor from \
         this round on), where every earlier bench ran on an AVX-512 one: the vector loops go four doubles wide instead \
         of eight, and LIGGGHTS runs at other speeds too (Hooke 10k on one core: 5.96 Mps/s against RESULTS.md's 7.15; \
         Hooke 50k 5.05 against 5.22). The twelfth round's binary, benched here before any change \
         (settle_box_2026-11-24_r12.json), took 20.04 s for Hooke 10k and 103.76 s for Hooke 50k on one thread \
         (13.8 s and 85 s on the other processor in the tenth round). Changes, each with the same bits: (1) a batch of \
         32 free balls outside clumps that share one mass, inertial mass and inertia goes through the law of motion as \
         one loop over its 96 coordinates with the divisors as scalars (src/motion.rs, <code>uniform_lanes</code>), \
         which becomes four-wide vector code; the general loop went two and one coordinates at a time and summed each \
         ball's finiteness test through memory: Hooke 10k 19.95 to 18.23 s side by side, the motion phase 3.05 to \
         1.10 s; (2) the contact lanes write into one output reused from batch to batch (a new one per batch of eight \
         contacts was zeroed, then copied out: 1.6 kB per batch, 2-3 % of the samples in libc's memset and memmove): \
         contact phase 4-5 % shorter; (3) the resultant on a wall is summed when a series asks for it, not every \
         cycle (nothing in the cycle reads it: a wall's motion is prescribed); (4) the active ball-facet contacts of \
         the history models go through lanes too (<code>lanes::update_facet_history</code>, sharing the coefficients \
         and the history step with the ball-ball lanes; test <code>the_facet_lanes_give_the_one_contact_bits</code>): \
         Hertz 10k wall phase 2.64 to 2.48 s; (5) the broad phase skips the neighbours of an empty cell (detection \
         1.07 to 1.01 s at Hooke 10k; after the bench). This round's bench (settle_box_2026-11-24_r13.json, the \
         table above) against the twelfth round's binary on the same machine: Hooke 10k 20.04 to 17.33 s, Hertz 10k \
         21.53 to 18.81 s, Hooke 50k 103.76 to 87.61 s, Hertz 50k 115.53 to 99.28 s, 1k 11-12 % less. The cost per \
         particle-step is flat on this processor: 0.087-0.091 µs (Hooke) and 0.094-0.099 µs (Hertz) from 1k to 50k. \
         Against LIGGGHTS on the same machine in the same hour (benches/results/peers_2026-11-24_r13.tsv, below), one \
         thread does 2.04 × (Hertz) and 1.93 × (Hooke) at 10k, 2.36 × and 2.15 × at 50k; against RESULTS.md's fixed \
         figures, measured on the other processor, 1.72 ×, 1.61 ×, 2.11 × and 2.19 ×. Two threads: 1.86-1.96 × one \
         thread at 10k and 50k, 1.63-1.64 × at 1k. At 1k a probe (not kept) found both threads busy 25.6 µs of a \
         27.0 µs parallel region on average (the parallel part scales 1.95 ×); what does not scale is what runs on \
         one thread: the detection (0.076 s of a 1.11 s run: 245 rebuilds, most of them while the balls fall), the \
         steps of the fall with fewer than 1,024 candidate pairs, and each step's set-up. LIGGGHTS's two MPI \
         processes reach 1.70-1.72 × at 1k on this machine. Tried and not kept: eight lanes cut to four (2-3 % \
         slower here too); a reciprocal for the pair normal's three divisions and ξ·scale when sliding (2 % on the \
         contact phase: this processor's divider is not what limits the loop, and the rounding of every ball-ball \
         result would change); the uniform law of motion in groups of four balls held in registers (no longer \
         vectorized: three times slower); the law of motion on one thread at 1k instead of following the force \
         pass's ranges (0.091 to 0.155 s: the other core holds half the forces); the broad phase in parallel from \
         512 balls (1k, two threads: 0.076 to 0.071 s, within the noise); one bounds check for the positions and \
         radii in the selection pass, and the rigid wall velocity inlined (no change beyond the ±2 % by which a \
         rebuilt binary's untouched loops move: the uniform law of motion's time varies by up to 10 % from one \
         build to another).</li>\
         <li><b>Memory.</b> Per candidate pair: the 48-byte record, the 8-byte merge plan and the broad phase's 8-byte \
         pair (the forces and contact points are kept only for the frame-based models and the 2D mode, the incidence \
         list only for their gather). Per ball about 220 bytes of state, 40 of broad phase and 9 of renumbering work \
         arrays; a ball-facet contact takes {} bytes. At 50k that makes about 25 MiB; the resident peak was 35.0 MiB \
         in the first bench of this round and is about 29.7 MiB after (6)-(8), of which about 6 MiB is the process \
         itself (5.9-6.3 MiB at 1k). With glibc's threshold held fixed \
         (<code>MALLOC_MMAP_THRESHOLD_=131072</code>, a measurement, not a setting of ours) the 50k peak was 31.7 MiB \
         after changes (1), (2) and the room made at each rebuild, against 37.0 MiB without it, so a few MiB are still \
         the allocator's. Next: the per-ball state (the applied force and the scaled mass \
         and inertia are kept even where they are zero or equal to the plain ones), and the plan and the pairs in one \
         array.</li></ul>",
        std::mem::size_of::<crate::contact::Contact>(),
        std::mem::size_of::<crate::contact::Frame>(),
        std::mem::size_of::<crate::contact::FacetContact>(),
        std::mem::size_of::<crate::contact::FacetContact>(),
    );
    std::fs::write(
        reports.join("performance.html"),
        page("Performance: settle-box against LIGGGHTS", &h),
    )
}

/// The newest file of `dir` whose name starts with `prefix` and ends with `suffix` (names
/// carry the date and the round, so the newest sorts last, numbers compared as numbers:
/// [`natural_key`]).
pub(crate) fn newest(dir: &Path, prefix: &str, suffix: &str) -> Option<std::path::PathBuf> {
    std::fs::read_dir(dir)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter_map(|p| {
            let name = p.file_name()?.to_str()?;
            let key =
                (name.starts_with(prefix) && name.ends_with(suffix)).then(|| natural_key(name));
            Some((key?, p))
        })
        .max()
        .map(|(_, p)| p)
}

/// A piece of a file name, for [`natural_key`].
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Piece {
    Number(u64),
    Text(String),
}

/// The order of file names with their runs of digits compared as numbers: a bench's tenth
/// round (`_r10`) comes after its ninth (`_r9`), which plain string order puts last.
fn natural_key(name: &str) -> Vec<Piece> {
    let mut pieces = Vec::new();
    let mut rest = name;
    while let Some(c) = rest.chars().next() {
        let digits = c.is_ascii_digit();
        let end = rest
            .find(|x: char| x.is_ascii_digit() != digits)
            .unwrap_or(rest.len());
        let (head, tail) = rest.split_at(end);
        pieces.push(match head.parse() {
            Ok(n) if digits => Piece::Number(n),
            _ => Piece::Text(head.to_string()),
        });
        rest = tail;
    }
    pieces
}

/// One row of a side-by-side run of LIGGGHTS and ballast (benches/peers/run.sh).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct PeerRow {
    /// "liggghts" or "ballast".
    pub code: String,
    pub model: String,
    pub n: usize,
    /// Processes (LIGGGHTS) or threads (ballast).
    pub par: usize,
    /// Million particle-steps per second.
    pub mps: f64,
    pub pp: usize,
    pub mean_z: f64,
    /// The processor (ballast's rows, from `ballast bench-one`; empty in files written
    /// before it was recorded).
    pub machine: String,
}

/// The rows of a side-by-side results file (tab-separated, one header line; columns found
/// by name, `machine` optional); rows that do not parse are left out.
pub(crate) fn parse_peers(text: &str) -> Vec<PeerRow> {
    let mut lines = text.lines();
    let Some(head) = lines.next() else {
        return Vec::new();
    };
    let head: Vec<&str> = head.split('\t').collect();
    let col = |name: &str| head.iter().position(|h| *h == name);
    let (Some(code), Some(model), Some(n), Some(par), Some(mps), Some(pp), Some(mean_z)) = (
        col("code"),
        col("model"),
        col("N"),
        col("par"),
        col("Mps_s"),
        col("pp"),
        col("mean_z"),
    ) else {
        return Vec::new();
    };
    let machine = col("machine");
    lines
        .filter_map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            Some(PeerRow {
                code: f.get(code)?.to_string(),
                model: f.get(model)?.to_string(),
                n: f.get(n)?.parse().ok()?,
                par: f.get(par)?.parse().ok()?,
                mps: f.get(mps)?.parse().ok()?,
                pp: f.get(pp)?.parse().ok()?,
                mean_z: f.get(mean_z)?.parse().ok()?,
                machine: machine
                    .and_then(|c| f.get(c))
                    .map_or(String::new(), |m| m.to_string()),
            })
        })
        .collect()
}

/// The newest side-by-side run of LIGGGHTS and ballast (benches/peers/run.sh, its
/// results.tsv committed as benches/results/peers_*.tsv): its path and rows.
pub(crate) fn newest_peers() -> Option<(std::path::PathBuf, Vec<PeerRow>)> {
    let path = newest(Path::new("benches/results"), "peers_", ".tsv")?;
    let rows = parse_peers(&std::fs::read_to_string(&path).ok()?);
    (!rows.is_empty()).then_some((path, rows))
}

/// Each ballast row of a side-by-side run with the LIGGGHTS row of the same model, N and
/// thread or process count.
pub(crate) fn peer_pairs(rows: &[PeerRow]) -> Vec<(&PeerRow, &PeerRow)> {
    (rows.iter().filter(|r| r.code == "ballast"))
        .filter_map(|b| {
            let l = rows.iter().find(|l| {
                l.code == "liggghts" && l.model == b.model && l.n == b.n && l.par == b.par
            })?;
            Some((l, b))
        })
        .collect()
}

/// The table of the newest side-by-side run of LIGGGHTS and ballast, or None.
fn side_by_side() -> Option<String> {
    let (path, rows) = newest_peers()?;
    let mut t = vec![[
        "model",
        "N",
        "threads / processes",
        "LIGGGHTS (Mps/s)",
        "ballast (Mps/s)",
        "ratio",
        "contacts LIGGGHTS / ballast",
        "mean z (mm) LIGGGHTS / ballast",
    ]
    .map(String::from)
    .to_vec()];
    for (l, b) in peer_pairs(&rows) {
        t.push(vec![
            b.model.clone(),
            b.n.to_string(),
            b.par.to_string(),
            format!("{:.3}", l.mps),
            format!("{:.3}", b.mps),
            format!("{:.2}", b.mps / l.mps),
            format!("{} / {}", l.pp, b.pp),
            format!("{:.4} / {:.4}", l.mean_z * 1e3, b.mean_z * 1e3),
        ]);
    }
    let machine = (rows.iter().map(|r| r.machine.as_str()))
        .find(|m| !m.is_empty())
        .map_or(
            String::from("a machine it did not record (before the 13th round)"),
            |m| m.to_string(),
        );
    Some(format!(
        "<h2>Side by side on this machine</h2><p>LIGGGHTS 3.8.0 (Debian's package) and ballast run one after the other on \
         the same scenes by <code>benches/peers/run.sh</code> ({}), on {}: LIGGGHTS's loop time from its log, ballast's \
         from <code>ballast bench-one</code>. These LIGGGHTS figures were measured in the same hour and on the same \
         processor as ballast's, so the ratio depends neither on how busy the VM was nor on which processor it ran on; \
         RESULTS.md's figures (the table above) were measured once, on an AVX-512 EPYC.</p>{}",
        path.display(),
        machine,
        table(&t)
    ))
}

pub(crate) fn empty_performance_page() -> String {
    page(
        "Performance: settle-box against LIGGGHTS",
        "<p>No benchmark results yet: run <code>cargo run --release -- bench</code> (all configurations, about 15 min) \
         or, for a quick look, <code>cargo run --release -- bench --n 1000 --steps 2000</code>. The results go to \
         reports/bench/results.json and this page.</p>",
    )
}

/// The outcome of a case's check whose sentence names `needle`.
fn outcome<'a>(
    summaries: &'a [Summary],
    case: &str,
    kind: &str,
    needle: &str,
) -> Option<&'a crate::record::CheckOutcome> {
    summaries
        .iter()
        .find(|s| s.case == case)?
        .checks
        .iter()
        .find(|c| {
            c.kind == kind && (c.what.contains(needle) || c.series.as_deref() == Some(needle))
        })
}

/// A check's plots, its table and its verdict, or a note that the case has not run.
fn outcome_block(summaries: &[Summary], case: &str, kind: &str, needle: &str) -> String {
    let Some(c) = outcome(summaries, case, kind, needle) else {
        return format!(
            "<p>(run <code>ballast verify</code> to fill this: case {case} not found)</p>"
        );
    };
    let mut h = format!(
        "<p><b>{}</b> — {} ({}). <a href=\"cases/{case}/index.html\">{case}</a></p>",
        super::verdict(c.passed),
        esc(&c.what),
        esc(&c.message)
    );
    if !c.table.is_empty() {
        h.push_str(&table(&c.table));
    }
    for p in c.plots.iter().take(1) {
        h.push_str(&super::plot::svg(p));
    }
    h
}

/// Writes `reports/clumps.html`: what a clump is in ballast, how its mass properties and
/// motion are computed, and the evidence (issue #7).
///
/// # Errors
/// I/O errors.
pub fn write_clumps_page(reports: &Path, summaries: &[Summary]) -> std::io::Result<()> {
    let mut h = String::new();
    let _ = write!(
        h,
        "<p>A <b>clump</b> is a rigid body made of spherical pebbles (<code>[[clump]]</code>, seeds 000 and 001). Each pebble is a piece \
         that contact detection and the contact models treat like a ball (pebble-pebble contacts of different bodies, pebble-facet contacts \
         with the associative logic); pebbles of one clump never form contacts; all contacts of a pair of bodies are reported as one \
         interaction (<code>interaction/&lt;clump&gt;/&lt;body or wall&gt;/...</code>). Code: {}, {}.</p>\
         <h2>Mass properties of a union of overlapping pebbles</h2>\
         <p>The union is cut into slices of constant z. A slice is a union of disks whose area and first and second moments follow exactly \
         from Green's theorem over the arcs that no other disk covers (A = ∮x dy, ∫x dA = ∮x²/2 dy, ∫x² dA = ∮x³/3 dy, ∫xy dA = ∮x²y/2 dy, …). \
         The slice moments are integrated in z by Gauss-Legendre between the heights where the picture changes (sphere poles, the extremes of \
         each intersection circle, triple points), in the variable θ of z = (a+b)/2 − (b−a)/2·cos θ, which removes the square-root \
         behaviour at those heights. The error is estimated by doubling the nodes (about 1e-15 relative); tests/clumps.rs compares it with \
         exact cap integrals of two overlapping spheres in random directions (1e-13), disjoint, coincident and nested spheres, and a ray \
         integration of unions with triple overlaps (3e-5, the ray grid's own accuracy). The inertia tensor is diagonalized: the body frame \
         is the principal frame. Mass properties may instead be given (<code>mass</code>, <code>inertia</code>, <code>centroid</code>).</p>\
         <h2>Motion with a full inertia tensor</h2>\
         <p>Translation: the balls' leapfrog. Rotation: the angular momentum L (world frame) is integrated exactly from the moment; the \
         body turns by exp(ω dt) with ω at mid-step, found from L(t+dt/2) at the orientation predicted half a step ahead with ω(t) \
         (the leapfrog for rigid bodies of Fincham and Omelyan, as in Yade's exactAsphericalRot). Without a moment, L is conserved to \
         round-off; the kinetic energy is not exactly, and its drift is measured below. Pebbles are placed at x + R d and move with the \
         velocity of their displacement over the step.</p>\
         <h2>Torque-free rotation: angular momentum and energy against the timestep</h2>\
         <p>A two-pebble clump (radii 1 and 0.8 cm, 1.2 cm apart) spinning off its principal axes: the symmetry axis must precess about L at \
         |L|/I₁ (closed form; I₁, I₃ from exact cap integrals in cases/clumps/make_cases.py).</p>{}{}{}\
         <p>A three-pebble clump with three different principal moments (no closed form): L and E as above.</p>{}{}\
         <h2>Timestep</h2><p>The stiffness seen by a clump's DOFs sums its pebbles' contacts with lever arms from the centroid; its rotational \
         DOFs are about its principal axes, where its mass matrix is diagonal, so the diagonal estimate, the bound and the exact eigen-analysis \
         all apply (tests/clumps.rs: the diagonal against a hand derivation, the exact critical step against a generalized eigenproblem in \
         world axes with the full inertia tensor). The kinematic constraint uses each pebble's velocity v + ω × d and acceleration; timestep \
         scaling gives a clump one fictitious mass and one fictitious moment of inertia.</p>\
         <h2>A clump at rest on a faceted floor</h2>{}\
         <h2>The same sphere as a ball and as a clump of one pebble</h2>{}",
        code_link(reports, "src/model/clumps.rs"),
        code_link(reports, "src/geom/union.rs"),
        outcome_block(summaries, "torque_free", "analytic", "clump/1/pebble/2/pos.z"),
        outcome_block(summaries, "torque_free", "drift", "clump/1/angmom"),
        outcome_block(summaries, "torque_free", "drift", "energy/kinetic"),
        outcome_block(summaries, "torque_free_asymmetric", "drift", "clump/1/angmom"),
        outcome_block(summaries, "torque_free_asymmetric", "drift", "energy/kinetic"),
        case_table(summaries, "tripod_rest"),
        case_table(summaries, "one_pebble_clump"),
    );
    std::fs::write(reports.join("clumps.html"), page("Clumps", &h))
}

/// A table of a case's checks: kind, series, value, expected, verdict.
fn case_table(summaries: &[Summary], case: &str) -> String {
    let Some(s) = summaries.iter().find(|s| s.case == case) else {
        return format!("<p>(run <code>ballast verify</code>: case {case} not found)</p>");
    };
    let mut rows = vec![["check", "series", "value", "expected", "verdict"]
        .map(String::from)
        .to_vec()];
    for c in &s.checks {
        rows.push(vec![
            c.kind.clone(),
            c.series.clone().unwrap_or_default(),
            c.value.map_or("-".into(), |v| format!("{v:.9e}")),
            c.expected.map_or("-".into(), |v| format!("{v:.9e}")),
            if c.passed { "pass" } else { "FAIL" }.into(),
        ]);
    }
    format!(
        "<p>{} <a href=\"cases/{case}/index.html\">{case}</a></p>{}",
        esc(&s.description),
        table(&rows)
    )
}

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
    let _ = write!(
        h,
        "<p>With <code>dim = 2</code> every ball is a <b>disk</b> of unit thickness in the plane z = 0 with 3 DOFs (u, v, θ_z): mass \
         m = ρπr² (kg per metre of thickness) and moment of inertia m r²/2, unless <code>mass</code> and <code>inertia</code> are given; \
         positions, velocities and forces have two components in the case file, the spin is one number, and vector series are recorded as \
         .x, .y (spin, moment: .z). The disks live in the 3D arrays with z, ω_x, ω_y held at zero, so the law of motion is the \
         central-difference (leapfrog) loop of seed 004 on the three free DOFs. Hertz's law is refused (it is a law for spheres). \
         <b>Walls</b> are faceted walls perpendicular to the plane that cross it (an extrusion; their trace in the plane is a line); a disk \
         meets them as a sphere in the plane, through the 3D facet logic; other walls are refused, naming the facet. Clumps and generators \
         are 3D only for now.</p>\
         <h2>The 2D force-displacement law (seed 004, eqs. 8.14-8.19), derived</h2>\
         <p>n = (x_B − x_A)/|x_B − x_A|, q = (−n_y, n_x); contact point C = x_A + (r_A − U/2) n; the model turns the overlap U, v·n and the \
         shear increment (v·q) dt (tangent at mid-step) into F_n and F_s; F_C = F_n n + F_s q (8.14-8.15); B gets F_C, A gets −F_C (8.16-8.17). \
         The moments are the z components of (C − x) × F:</p><ul>\
         <li>M_Bz = (x_C − x_B) F_Cy − (y_C − y_B) F_Cx</li><li>M_Az = −[(x_C − x_A) F_Cy − (y_C − y_A) F_Cx]</li></ul>\
         <p>The print's eq. 8.18 adds all four products, −[(x_C − x_A)F_Cx + (x_C − x_A)F_Cy + (y_C − y_A)F_Cx + (y_C − y_A)F_Cy], which is \
         not a moment. Example: r_A = {ra} m, n = (0.6, 0.8), F_n = {fn_} N, F_s = {fs} N: the derived M_Az = {derived:.6} N m = −r_A F_s; the \
         printed formula gives {printed:.6} N m. Code: {} (<code>update_2d</code>), moments summed by the gather in {}.</p>\
         <h2>The same collision in 2D and in 3D confined to the plane</h2>{}\
         <h2>A column of disks at rest</h2>{}\
         <h2>The 2D critical timestep against the exact eigenvalue</h2>\
         <p>The 6×6 contact stiffness matrix of the 2D mode is the 3D 12×12 one restricted to (u, v, θ_z): tests/stiffness.rs checks the \
         corrected 2D formula (seed 000, eqs. 26-27, see the <a href=\"stiffness.html\">Stiffness matrix</a> page) against that restriction \
         entry by entry, and the global eigen-analysis assembles it over the free DOFs.</p>{}",
        code_link(reports, "src/contact/ball_ball.rs"),
        code_link(reports, "src/cycle.rs"),
        case_table(summaries, "two_disks_2d"),
        case_table(summaries, "disk_column_2d"),
        case_table(summaries, "critical_2d"),
    );
    std::fs::write(reports.join("planar.html"), page("2D disk mode", &h))
}

#[cfg(test)]
mod tests {
    use super::{natural_key, parse_peers, peer_pairs};

    /// A side-by-side file is read by column name, with or without the machine column (files
    /// of earlier rounds have none), and each ballast row is paired with LIGGGHTS's row of
    /// the same model, N and thread or process count; a row that does not parse is left out.
    #[test]
    fn side_by_side_rows_pair_by_model_n_and_threads() {
        let old = "code\tmodel\tN\tsteps\tpar\tloop_s\tMps_s\tpp\tnw\tke_trans\tmean_z\tpeak_rss_kib\n\
                   liggghts\thooke\t10000\t20000\t1\t34.2\t5.84\t21749\t1730\t6e-8\t0.006029\t43000\n\
                   ballast\thooke\t10000\t20000\t2\t10.0\t20.0\t21701\t1729\t7e-8\t0.006025\t11000\n\
                   ballast\thooke\t10000\t20000\t1\t17.0\t11.7\t21701\t1729\t7e-8\t0.006025\t10000\n\
                   ballast\thooke\tten\t20000\t1\t17.0\t11.7\t21701\t1729\t7e-8\t0.006025\t10000\n";
        let rows = parse_peers(old);
        assert_eq!(rows.len(), 3);
        let pairs = peer_pairs(&rows);
        assert_eq!(pairs.len(), 1, "no LIGGGHTS row for two threads");
        let (l, b) = pairs[0];
        assert_eq!(
            (l.code.as_str(), b.par, l.mps, b.mps),
            ("liggghts", 1, 5.84, 11.7)
        );
        assert_eq!(b.machine, "");
        let new = "code\tmodel\tN\tsteps\tpar\tloop_s\tMps_s\tpp\tnw\tke_trans\tmean_z\tpeak_rss_kib\tmachine\n\
                   liggghts\thertz\t1000\t20000\t1\t2.8\t7.1\t2090\t303\t4e-9\t0.006355\t35000\t\n\
                   ballast\thertz\t1000\t20000\t1\t1.9\t10.5\t2102\t299\t1e-8\t0.006357\t6000\tAMD EPYC, AVX2\n";
        let rows = parse_peers(new);
        let pairs = peer_pairs(&rows);
        assert_eq!(pairs.len(), 1);
        assert_eq!(
            (pairs[0].0.machine.as_str(), pairs[0].1.machine.as_str()),
            ("", "AMD EPYC, AVX2")
        );
        assert!(parse_peers("").is_empty());
        assert!(parse_peers("code\tmodel\n").is_empty(), "columns missing");
    }

    /// Runs of digits compare as numbers, so that the newest bench file is found: the tenth
    /// round after the ninth, a second bench of a round (`_r8b`) after its first, a later
    /// date after an earlier one whatever its round.
    #[test]
    fn bench_files_sort_by_date_then_round() {
        let mut names = [
            "settle_box_2026-11-22_r10.json",
            "settle_box_2026-11-21_r5.json",
            "settle_box_2026-11-22_r8b.json",
            "settle_box_2026-11-22_r9.json",
            "settle_box_2026-11-21.json",
            "settle_box_2026-11-22_r8.json",
        ];
        names.sort_by_key(|n| natural_key(n));
        assert_eq!(
            names,
            [
                "settle_box_2026-11-21.json",
                "settle_box_2026-11-21_r5.json",
                "settle_box_2026-11-22_r8.json",
                "settle_box_2026-11-22_r8b.json",
                "settle_box_2026-11-22_r9.json",
                "settle_box_2026-11-22_r10.json",
            ]
        );
    }
}
