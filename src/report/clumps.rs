//! The Clumps page: rigid clumps of pebbles against closed forms.

use super::html::*;
use super::plot::svg;
use crate::record::Summary;
use std::fmt::Write as _;
use std::path::Path;

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
        code_link(reports, "src/body/clumps.rs"),
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
        verdict(c.passed),
        esc(&c.what),
        esc(&c.message)
    );
    if !c.table.is_empty() {
        h.push_str(&table(&c.table));
    }
    for p in c.plots.iter().take(1) {
        h.push_str(&svg(p));
    }
    h
}
