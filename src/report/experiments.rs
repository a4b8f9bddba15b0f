//! The Experiments page: insertion, outlets, wall programs, measurements and staged runs, each
//! against its reference.

use super::code::code_link;
use super::html::*;
use super::markdown::render;
use super::outcome::outcome_block;
use crate::record::Summary;
use std::path::Path;

/// Writes `reports/experiments.html` (issue #32): the experiment tools and their evidence.
///
/// # Errors
/// I/O errors.
pub fn write_experiments_page(reports: &Path, summaries: &[Summary]) -> std::io::Result<()> {
    let block = |case: &str, kind: &str, needle: &str| outcome_block(summaries, case, kind, needle);
    let mut h = String::new();
    h.push_str(&render(
        include_str!("text/experiments.md"),
        &[
            (
                "flow_place_rs",
                code_link(reports, "src/flow/place.rs::Obstacles::is_free"),
            ),
            (
                "distribution_rs",
                code_link(reports, "src/distribution.rs::Radii::draw"),
            ),
            (
                "cycle_exchange_rs",
                code_link(reports, "src/flow/stage.rs::insert_due"),
            ),
            (
                "output_measure_rs",
                code_link(reports, "src/output/measure.rs::measure"),
            ),
            (
                "body_wall_rs",
                code_link(reports, "src/body/wall.rs::Wall::step"),
            ),
            (
                "ks_number",
                block("insert_lognormal", "radius_distribution", "by number"),
            ),
            (
                "ks_mass",
                block("insert_lognormal", "radius_distribution", "by mass"),
            ),
            ("insert", case_table(summaries, "insert_lognormal")),
            ("beverloo", block("silo_d12", "beverloo", "discharge rate")),
            ("column", case_table(summaries, "column_stress")),
            ("vibrating", case_table(summaries, "vibrating_plate")),
            ("schedule", case_table(summaries, "schedule_plate")),
            ("oedometer", case_table(summaries, "oedometer_servo")),
            ("janssen", block("janssen_column", "janssen", "slices")),
            ("stages", case_table(summaries, "silo_two_stages")),
        ],
    ));
    std::fs::write(reports.join("experiments.html"), page("Experiments", &h))
}
