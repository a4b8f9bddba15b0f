//! A recorded column's name: the series it belongs to, its unit, its axis title.

/// The unit of a series or column (docs/CASES.md, "Series"), "" for a count or a ratio:
/// `ball/1/pos.z` -> "m", `energy/kinetic` -> "J", `interaction/1/2/active` -> "".
pub fn series_unit(column: &str) -> &'static str {
    let base = base_series(column);
    if base == "dt" {
        return "s";
    }
    if base.starts_with("energy/") {
        return "J";
    }
    match base.rsplit('/').next().unwrap_or("") {
        "pos" | "overlap" | "mean_pos" | "top" | "size" | "shear_offset" => "m",
        "momentum" => "kg m/s",
        "vel" => "m/s",
        "spin" => "rad/s",
        "rotation" => "rad",
        "force" | "normal_force" | "shear_force" => "N",
        "moment" => "N m",
        "angmom" => "kg m²/s",
        "mass" => "kg",
        "stress" => "Pa",
        _ => "",
    }
}

/// An axis title for a series: its name and unit, `ball/1/pos.z (m)`.
pub fn axis_title(column: &str) -> String {
    match series_unit(column) {
        "" => format!("{column} (-)"),
        u => format!("{column} ({u})"),
    }
}

/// The series a vector, tensor or scalar column name belongs to: `ball/1/pos.z` -> `ball/1/pos`.
pub fn base_series(column: &str) -> &str {
    for suffix in [".xx", ".yy", ".zz", ".xy", ".yz", ".xz", ".x", ".y", ".z"] {
        if let Some(base) = column.strip_suffix(suffix) {
            return base;
        }
    }
    column
}
