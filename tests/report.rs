//! The report's promises: every link from a page to the code names an item that exists, at
//! the line where it is defined; the pages' structure (tests further down).

use ballast::report::code::{locate, resolve, split};
use ballast::report::coverage;
use std::path::Path;

/// Every string literal in `src/` that names a source file (`"src/….rs…"`): the code
/// references the checks and the pages write.
fn references_in_source() -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut stack = vec![Path::new("src").to_path_buf()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            if p.extension().is_none_or(|x| x != "rs") {
                continue;
            }
            let text = std::fs::read_to_string(&p).unwrap();
            let mut rest = text.as_str();
            while let Some(k) = rest.find("\"src/") {
                let tail = &rest[k + 1..];
                let end = tail.find('"').unwrap_or(0);
                let lit = &tail[..end];
                if lit.contains(".rs") && !lit.contains(' ') && !lit.contains('{') {
                    out.push((p.display().to_string(), lit.to_string()));
                }
                rest = &tail[end..];
            }
        }
    }
    out
}

/// Every reference resolves, and names an item (not a whole file): a renamed function or file
/// fails here instead of turning into plain text on a page.
#[test]
fn every_code_reference_names_an_item_that_exists() {
    let refs = references_in_source();
    assert!(refs.len() > 40, "only {} references found", refs.len());
    let mut bad = Vec::new();
    for (at, r) in &refs {
        let (file, item) = split(r);
        if item.is_empty() {
            bad.push(format!("{at}: {r}: a whole file, no item"));
            continue;
        }
        if let Err(e) = resolve(r) {
            bad.push(format!("{at}: {r}: {e}"));
        }
        // the line holds the item's last name
        if let Ok((_, Some(line))) = resolve(r) {
            let text = std::fs::read_to_string(file).unwrap();
            let last = item.rsplit("::").next().unwrap();
            assert!(
                text.lines().nth(line - 1).unwrap().contains(last),
                "{r}: line {line} does not name {last}"
            );
        }
    }
    assert!(
        bad.is_empty(),
        "{} references:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

/// The locator against a hand count of lines in a file of ours: `fn step` of the law of
/// motion is where `grep -n` finds it.
#[test]
fn a_located_line_is_the_definition() {
    let text = std::fs::read_to_string("src/motion.rs").unwrap();
    let by_hand = text
        .lines()
        .position(|l| l.starts_with("pub fn step("))
        .unwrap()
        + 1;
    assert_eq!(locate(&text, "step"), Some(by_hand));
    assert_eq!(locate(&text, "no_such_function"), None);
}

/// The case files under `cases/`, as the coverage table names them.
fn case_ids() -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![Path::new("cases").to_path_buf()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "toml") {
                out.push(coverage::case_id(&p.display().to_string()));
            }
        }
    }
    out.sort();
    out
}

/// docs/REFERENCES.md's coverage table covers every case, and names none that does not
/// exist: a new case must say what it checks, a renamed one cannot leave a dead row.
#[test]
fn the_coverage_table_names_every_case_and_only_cases() {
    let rows = coverage::rows(&std::fs::read_to_string("docs/REFERENCES.md").unwrap());
    assert!(rows.len() >= 20, "{} rows", rows.len());
    let ids = case_ids();
    assert!(ids.len() >= 191, "{} cases", ids.len());
    let uncovered: Vec<&String> = (ids.iter())
        .filter(|id| {
            !rows
                .iter()
                .any(|r| r.cases.iter().any(|p| coverage::matches(p, id)))
        })
        .collect();
    assert!(uncovered.is_empty(), "cases no row names: {uncovered:?}");
    for r in &rows {
        assert!(
            !r.cases.is_empty(),
            "row {} ({}) names no case",
            r.source,
            r.what
        );
        for p in &r.cases {
            assert!(
                ids.iter().any(|id| coverage::matches(p, id)),
                "row {}: {p} matches no case",
                r.source
            );
        }
    }
}
