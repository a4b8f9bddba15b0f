//! What covers what: the table "Coverage: which cases check what" of docs/REFERENCES.md (the
//! sources' equations and figures, and the capabilities, each with the cases that check it),
//! read into rows for the index's matrix; and the case folders as topics.

use super::html::esc;
use crate::record::Summary;
use std::fmt::Write as _;

/// docs/REFERENCES.md as built into the binary (the index needs it wherever it runs).
pub const REFERENCES: &str = include_str!("../../docs/REFERENCES.md");

/// One line of the coverage table.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// The source and its equation or figure ("seed 000, eqs. 9-11"), or "capability".
    pub source: String,
    /// What is checked.
    pub what: String,
    /// Case patterns: paths under `cases/` without `.toml`, `*` for any run of characters.
    pub cases: Vec<String>,
}

/// The rows of the coverage table of `text` (a REFERENCES.md): the first table after the
/// heading that starts with "## Coverage".
pub fn rows(text: &str) -> Vec<Row> {
    let Some(start) = text.find("\n## Coverage") else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut in_table = false;
    for line in text[start + 1..].lines().skip(1) {
        if line.starts_with("## ") {
            break;
        }
        let Some(body) = line.trim().strip_prefix('|') else {
            if in_table {
                break;
            }
            continue;
        };
        let cells: Vec<&str> = body
            .trim_end_matches('|')
            .split('|')
            .map(str::trim)
            .collect();
        if !in_table {
            // the header, then the separator
            in_table = true;
            continue;
        }
        if cells.len() < 3 || cells[0].starts_with("---") {
            continue;
        }
        let cases = cells[2]
            .split('`')
            .enumerate()
            .filter(|(k, s)| k % 2 == 1 && !s.is_empty())
            .map(|(_, s)| s.to_string())
            .collect();
        out.push(Row {
            source: cells[0].to_string(),
            what: cells[1].to_string(),
            cases,
        });
    }
    out
}

/// True when `id` matches `pattern`, where `*` stands for any run of characters (none too).
pub fn matches(pattern: &str, id: &str) -> bool {
    let parts: Vec<&str> = pattern.split('*').collect();
    if parts.len() == 1 {
        return pattern == id;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !id.starts_with(first) || id.len() < first.len() + last.len() || !id.ends_with(last) {
        return false;
    }
    let mut rest = &id[first.len()..id.len() - last.len()];
    for p in &parts[1..parts.len() - 1] {
        match rest.find(p) {
            Some(k) => rest = &rest[k + p.len()..],
            None => return false,
        }
    }
    true
}

/// The name of a case file as the coverage table writes it: its path under the last
/// `cases/` folder, without `.toml` (`walls/fig5_ridge`); a case outside `cases/` by its stem.
pub fn case_id(file: &str) -> String {
    let file = file.replace('\\', "/");
    let tail = match file.rfind("cases/") {
        Some(k) => &file[k + 6..],
        None => file.rsplit('/').next().unwrap_or(&file),
    };
    tail.strip_suffix(".toml").unwrap_or(tail).to_string()
}

/// The topic of a case: its folder under `cases/` ("" for the cases at the top).
pub fn topic_of(id: &str) -> &str {
    id.rsplit_once('/').map_or("", |(t, _)| t)
}

/// The title of a topic (a case folder), for headings and the matrix's columns.
pub fn topic_title(topic: &str) -> &str {
    match topic {
        "" => "The cycle: law of motion, collisions, damping",
        "timestep" => "Timestep and the critical timestep",
        "walls" => "Faceted walls",
        "models" => "Contact models",
        "chung_ooi" => "Chung & Ooi impact benchmarks",
        "clumps" => "Clumps",
        "planar" => "2D disks",
        "bench" => "Settle-box benchmark and renumbering",
        "restart" => "Checkpoint and restart",
        "experiments" => "Experiments: insertion, outlets, silos, stresses, servo walls",
        "rolling" => "Rolling and twisting resistance",
        "heap" => "Heaps (rolling resistance)",
        "cohesion" => "Cohesion",
        other => other,
    }
}

/// The order topics are shown in: the cycle first, then as the engine was built.
const TOPIC_ORDER: [&str; 13] = [
    "",
    "timestep",
    "walls",
    "models",
    "chung_ooi",
    "clumps",
    "planar",
    "bench",
    "restart",
    "experiments",
    "rolling",
    "heap",
    "cohesion",
];

/// The HTML id of a topic's heading on the index.
pub fn anchor(topic: &str) -> String {
    if topic.is_empty() {
        "topic-cycle".into()
    } else {
        format!("topic-{}", topic.replace('/', "-"))
    }
}

/// The summaries grouped by topic, topics in [`TOPIC_ORDER`] (others after, by name), cases
/// in their given order within a topic.
pub fn by_topic(summaries: &[Summary]) -> Vec<(String, Vec<&Summary>)> {
    let mut groups: Vec<(String, Vec<&Summary>)> = Vec::new();
    for s in summaries {
        let id = case_id(&s.file);
        let topic = topic_of(&id).to_string();
        match groups.iter_mut().find(|g| g.0 == topic) {
            Some(g) => g.1.push(s),
            None => groups.push((topic, vec![s])),
        }
    }
    let rank = |t: &str| {
        TOPIC_ORDER
            .iter()
            .position(|o| *o == t)
            .unwrap_or(TOPIC_ORDER.len())
    };
    groups.sort_by(|a, b| (rank(&a.0), &a.0).cmp(&(rank(&b.0), &b.0)));
    groups
}

/// The coverage matrix: one row per line of the coverage table, one column per topic with
/// cases, each cell the number of the row's cases in that topic that passed, of how many,
/// green when all passed, red when one failed, linking to the topic's table (the cases' names
/// in its tooltip). A row none of whose cases has run says so.
pub fn matrix(summaries: &[Summary]) -> String {
    let groups = by_topic(summaries);
    let ids: Vec<String> = summaries.iter().map(|s| case_id(&s.file)).collect();
    let mut h = String::from(
        "<h2>Coverage</h2><p>Each row is an equation or figure of a source, or a capability \
         (docs/REFERENCES.md, \"Coverage\"); each column a topic (a folder of cases); a cell counts the row's \
         cases in that topic that passed. Hover a cell for the cases' names; click it for the topic's cases.</p>\
         <table class=matrix><tr><th>source</th><th>what</th>",
    );
    for (topic, group) in &groups {
        let _ = write!(
            h,
            "<th title=\"{}\"><a href=\"#{}\">{}</a><br><small>{}</small></th>",
            esc(topic_title(topic)),
            anchor(topic),
            esc(if topic.is_empty() { "(top)" } else { topic }),
            group.len()
        );
    }
    h.push_str("</tr>");
    for row in rows(REFERENCES) {
        let _ = write!(
            h,
            "<tr><td>{}</td><td>{}</td>",
            esc(&row.source),
            esc(&row.what)
        );
        for (topic, _) in &groups {
            let hits: Vec<&Summary> = summaries
                .iter()
                .zip(&ids)
                .filter(|(_, id)| topic_of(id) == topic.as_str())
                .filter(|(_, id)| row.cases.iter().any(|p| matches(p, id)))
                .map(|(s, _)| s)
                .collect();
            if hits.is_empty() {
                h.push_str("<td></td>");
                continue;
            }
            let ok = hits
                .iter()
                .filter(|s| s.passed && !s.ran_without_checks())
                .count();
            let class = if ok == hits.len() { "pass" } else { "fail" };
            let names: Vec<&str> = hits.iter().map(|s| s.case.as_str()).collect();
            let _ = write!(
                h,
                "<td><a class={class} href=\"#{}\" title=\"{}\">{ok}/{}</a></td>",
                anchor(topic),
                esc(&names.join(", ")),
                hits.len()
            );
        }
        h.push_str("</tr>");
    }
    h.push_str("</table>");
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_match_by_hand() {
        assert!(matches("walls/fig5_ridge", "walls/fig5_ridge"));
        assert!(!matches("walls/fig5_ridge", "walls/fig5_ridge_x"));
        assert!(matches("walls/fig8*", "walls/fig8a_sliver_full"));
        assert!(matches(
            "bench/settle_box_*renumbered*",
            "bench/settle_box_frame_renumbered"
        ));
        assert!(matches(
            "bench/settle_box_*renumbered*",
            "bench/settle_box_renumbered_morton"
        ));
        assert!(!matches(
            "bench/settle_box_*renumbered*",
            "bench/settle_box_hertz_1k"
        ));
        assert!(!matches("timestep/critical_*", "planar/critical_2d"));
        assert!(matches("a*a", "aa") && !matches("a*a", "a"));
        assert_eq!(case_id("cases/walls/fig5_ridge.toml"), "walls/fig5_ridge");
        assert_eq!(case_id("/x/cases/free_fall.toml"), "free_fall");
        assert_eq!(case_id("mine/drop.toml"), "drop");
        assert_eq!(topic_of("walls/fig5_ridge"), "walls");
        assert_eq!(topic_of("free_fall"), "");
    }

    #[test]
    fn the_table_is_read_row_by_row() {
        let text = "# R\n\n## Coverage: x\n\nintro\n\n| source | what | cases |\n| --- | --- | --- |\n\
                    | seed 1, eq. 2 | a thing | `a/b`, `c*` |\n| capability | other | none |\n\n## Next\n| x | y | `z` |\n";
        let r = rows(text);
        assert_eq!(r.len(), 2);
        assert_eq!(r[0].source, "seed 1, eq. 2");
        assert_eq!(r[0].cases, vec!["a/b".to_string(), "c*".to_string()]);
        assert!(r[1].cases.is_empty());
    }
}
