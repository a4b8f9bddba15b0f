//! The Clumps page: rigid clumps of pebbles against closed forms.

use super::code::code_link;
use super::html::*;
use super::markdown::render;
use super::outcome::outcome_block;
use crate::record::Summary;
use std::path::Path;

/// Writes `reports/clumps.html`: what a clump is in ballast, how its mass properties and
/// motion are computed, and the evidence (issue #7).
///
/// # Errors
/// I/O errors.
pub fn write_clumps_page(reports: &Path, summaries: &[Summary]) -> std::io::Result<()> {
    let mut h = String::new();
    h.push_str(&render(
        include_str!("text/clumps.md"),
        &[
            (
                "body_clumps_rs",
                code_link(reports, "src/body/clumps.rs::mass_properties"),
            ),
            (
                "geom_union_rs",
                code_link(reports, "src/geom/union.rs::union_moments"),
            ),
            (
                "v3",
                outcome_block(
                    summaries,
                    "torque_free",
                    "analytic",
                    "clump/1/pebble/2/pos.z",
                )
                .to_string(),
            ),
            (
                "v4",
                outcome_block(summaries, "torque_free", "drift", "clump/1/angmom").to_string(),
            ),
            (
                "v5",
                outcome_block(summaries, "torque_free", "drift", "energy/kinetic").to_string(),
            ),
            (
                "v6",
                outcome_block(
                    summaries,
                    "torque_free_asymmetric",
                    "drift",
                    "clump/1/angmom",
                )
                .to_string(),
            ),
            (
                "v7",
                outcome_block(
                    summaries,
                    "torque_free_asymmetric",
                    "drift",
                    "energy/kinetic",
                )
                .to_string(),
            ),
            ("v8", case_table(summaries, "tripod_rest").to_string()),
            ("v9", case_table(summaries, "one_pebble_clump").to_string()),
        ],
    ));
    std::fs::write(reports.join("clumps.html"), page("Clumps", &h))
}
