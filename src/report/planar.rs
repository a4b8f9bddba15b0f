//! The 2D mode page: disks in the plane against the 3D runs of the same scenes.

use super::html::*;
use crate::record::Summary;
use nalgebra::Vector2;
use std::fmt::Write as _;
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
        code_link(reports, "src/force/balls.rs"),
        case_table(summaries, "two_disks_2d"),
        case_table(summaries, "disk_column_2d"),
        case_table(summaries, "critical_2d"),
    );
    std::fs::write(reports.join("planar.html"), page("2D disk mode", &h))
}
