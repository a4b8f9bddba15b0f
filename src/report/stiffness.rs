//! The Stiffness matrix page: the contact stiffness matrix derived, checked against its
//! properties and against the seed's printed entries.

use super::code::code_link;
use super::html::*;
use super::markdown::render;
use crate::math::num;
use crate::math::{vec3, Real, Vec3};
use crate::stiffness::printed::{
    corrected_matrix_2d, printed_entries_2d, printed_entries_3d, printed_matrix_2d,
    printed_matrix_3d,
};
use crate::stiffness::*;
use nalgebra::{DMatrix, Vector2};
use std::path::Path;

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
    h.push_str(&render(
        include_str!("text/stiffness_derivation.md"),
        &[
            (
                "contact_rs",
                code_link(reports, "src/stiffness/contact.rs::contact_matrix_3d"),
            ),
            (
                "printed_rs",
                code_link(reports, "src/stiffness/printed.rs::printed_matrix_3d"),
            ),
            (
                "test_rs",
                code_link(
                    reports,
                    "tests/stiffness.rs::printed_entries_against_the_derivation",
                ),
            ),
        ],
    ));
    h.push_str(&two_spheres(&s, &n));
    // Entry-by-entry comparison, 3D.
    let t = Triad::from_normal(&n);
    let derived = contact_matrix_3d(&s, &n, &r_a, &r_b);
    let printed = printed_matrix_3d(&s, &t, &r_a, &r_b);
    let scale = derived.amax();
    h.push_str(&entries_3d(&s, (&r_a, &r_b), &printed, &derived));
    // 2D.
    let n2 = Vector2::new(0.6, -0.8);
    let (ra2, rb2) = (
        n2 * 0.0129 + Vector2::new(1e-4, -2e-4),
        -n2 * 0.0069 + Vector2::new(1e-4, -2e-4),
    );
    let d2 = contact_matrix_2d(&s, &n2, &ra2, &rb2);
    let p2 = printed_matrix_2d(&s, &n2, &ra2, &rb2);
    let scale2 = d2.amax();
    h.push_str(&entries_2d(&s, &n2, (&ra2, &rb2), &p2, &d2));
    h.push_str(&entries_plot(
        printed_entries_3d()
            .iter()
            .map(|&(_, i, j)| (printed[(i - 1, j - 1)] - derived[(i - 1, j - 1)]).abs() / scale)
            .collect(),
        printed_entries_2d()
            .iter()
            .map(|&(_, i, j)| (p2[(i - 1, j - 1)] - d2[(i - 1, j - 1)]).abs() / scale2)
            .collect(),
    ));

    h.push_str(&errata(&p2, &d2));
    std::fs::write(
        reports.join("stiffness.html"),
        page("Stiffness matrix (seed 000, eqs. 12-27)", &h),
    )
}

/// Two equal touching spheres: the eigenvalues of M^-1/2 K M^-1/2 against their closed forms.
fn two_spheres(s: &ContactStiffness, n: &Vec3) -> String {
    let (r, m) = (0.01, 2500.0 * 4.0 / 3.0 * crate::math::PI * 1e-6);
    let i = 0.4 * m * r * r;
    let k2 = contact_matrix_3d(s, n, &(n * r), &(-n * r));
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
    format!("<h2>Two equal touching spheres</h2><p>r = 1 cm, m = {} kg, I = ⅖mr², kₙ = {} N/m, kₛ = {} N/m, kₙθ = {} N m/rad, \
        kₛθ = {} N m/rad, contact point in the middle, normal n = (0.36, −0.48, 0.8). Eigenvalues of M^-1/2 K M^-1/2 against the closed forms \
        (relative motion of the pair: reduced mass m/2 and I/2):</p>{}", num(m), num(s.kn), num(s.ks), num(s.kn_rot), num(s.ks_rot), table(&rows))
}

/// 3D: every printed entry of eqs. 15-22 against the derivation, for the generic contact.
fn entries_3d(
    s: &ContactStiffness,
    (r_a, r_b): (&Vec3, &Vec3),
    printed: &Matrix12,
    derived: &Matrix12,
) -> String {
    let scale = derived.amax();
    let (rows, wrong) = compare_entries(
        &printed_entries_3d(),
        |i, j| printed[(i, j)],
        |i, j| derived[(i, j)],
        scale,
    );
    let wrong3 = wrong.len();
    format!("<h2>3D: every printed entry (eqs. 15-22)</h2><p>Contact: n₃ = (0.36, −0.48, 0.8), n₁, n₂ completing a right-handed triad, \
        R_a = {} m, R_b = {} m (balls of 13 and 7 mm overlapping by 0.2 mm), kₙ = {}, kₛ = {}, kₙθ = {}, kₛθ = {}. \
        <b>{} of {} printed entries differ from the derivation.</b></p><details><summary>all 78 entries</summary>{}</details>",
        vec_words(r_a), vec_words(r_b), num(s.kn), num(s.ks), num(s.kn_rot), num(s.ks_rot), wrong3, printed_entries_3d().len(), table(&rows))
}

/// 2D: every printed entry of eqs. 26-27 against the derivation, and the largest difference
/// once k(6,1) is corrected.
fn entries_2d(
    s: &ContactStiffness,
    n2: &Vector2<Real>,
    (ra2, rb2): (&Vector2<Real>, &Vector2<Real>),
    p2: &Matrix6,
    d2: &Matrix6,
) -> String {
    let c2 = corrected_matrix_2d(s, n2, ra2, rb2);
    let scale2 = d2.amax();
    let (rows, wrong2) = compare_entries(
        &printed_entries_2d(),
        |i, j| p2[(i, j)],
        |i, j| d2[(i, j)],
        scale2,
    );
    format!("<h2>2D: every printed entry (eqs. 26-27)</h2><p>n₃ = (0.6, −0.8), n₁ = (−n_y3, n_x3) (eq. 24), R_a = ({}, {}) m, \
        R_b = ({}, {}) m (the lever arms need not be along the normal), same stiffnesses. <b>Entries that differ: {}.</b> With k(6,1) \
        corrected, the largest difference of any entry is {:.1e} of max |k|.</p>{}",
        num(ra2.x), num(ra2.y), num(rb2.x), num(rb2.y), wrong2.join(", "), (c2 - d2).amax() / scale2, table(&rows))
}

/// Two disks of 13 and 7 mm, 1 m thick, density 2500, joined by the 2D contact matrix `k`:
/// their exact critical timestep and the smallest eigenvalue of M^-1/2 K M^-1/2.
fn disk_critical(k: &DMatrix<Real>) -> (Real, Real) {
    let (ma, mb) = (
        2500.0 * crate::math::PI * 0.013f64.powi(2),
        2500.0 * crate::math::PI * 0.007f64.powi(2),
    );
    let (ia, ib) = (0.5 * ma * 0.013f64.powi(2), 0.5 * mb * 0.007f64.powi(2));
    let mass = [ma, ma, ia, mb, mb, ib];
    let a = DMatrix::from_fn(6, 6, |i, j| k[(i, j)] / (mass[i] * mass[j]).sqrt());
    let l = a.symmetric_eigenvalues();
    (2.0 / l.max().sqrt(), l.min())
}

/// The errata of the print with their numeric consequences.
fn errata(p2: &Matrix6, d2: &Matrix6) -> String {
    let rigid_x = nalgebra::SVector::<Real, 6>::from_row_slice(&[1e-3, 0.0, 0.0, 1e-3, 0.0, 0.0]);
    let spurious = p2 * rigid_x;
    let pd = DMatrix::from_fn(6, 6, |i, j| p2[(i, j)]);
    let dd = DMatrix::from_fn(6, 6, |i, j| d2[(i, j)]);
    let (ep, ed) = (pd.symmetric_eigenvalues(), dd.symmetric_eigenvalues());
    let ((dtp, minp), (dtd, _)) = (disk_critical(&pd), disk_critical(&dd));
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
    format!("<h2>Errata</h2><p>The 3D entries are all right. In 2D one entry has a wrong sign and one inherits it; three more are \
        typographic.</p>{}", table(&erratum_rows))
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

/// Every printed entry's difference from the derivation, relative to the largest entry of its
/// matrix, entry by entry in the print's order (column by column, lower triangle): the errata
/// stand out at order one, the rest at round-off (an exact zero is drawn at 1e-17).
fn entries_plot(d3: Vec<Real>, d2: Vec<Real>) -> String {
    let floor = |v: Vec<Real>| v.into_iter().map(|x| x.max(1e-17)).collect::<Vec<_>>();
    let x = |n: usize| (1..=n).map(|k| k as Real).collect::<Vec<_>>();
    format!(
        "<h2>Every printed entry against the derivation</h2><figure>{}<figcaption>|printed − derived| / max |k| for the 78 \
         entries of eqs. 15-22 and the 21 of eqs. 26-27 (column by column, lower triangle). Exact zeros are drawn at 1e-17; \
         the two entries far above round-off are the 2D k(6,1) and k(6,6) (the errata below).</figcaption></figure>",
        super::plot::svg(&crate::record::Plot {
            title: "printed entries: difference from the derivation".into(),
            x_label: "entry, in the print's order (-)".into(),
            y_label: "|printed − derived| / max |k| (-)".into(),
            log_y: true,
            curves: vec![
                crate::record::Curve {
                    label: "3D, eqs. 15-22".into(),
                    x: x(d3.len()),
                    y: floor(d3),
                    markers: true,
                },
                crate::record::Curve {
                    label: "2D, eqs. 26-27".into(),
                    x: x(d2.len()),
                    y: floor(d2),
                    markers: true,
                },
            ],
            ..Default::default()
        })
    )
}
