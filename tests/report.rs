//! The report's promises: every link from a page to the code names an item that exists, at
//! the line where it is defined; the pages' structure (tests further down).

use ballast::report::code::{locate, resolve, split};
use ballast::report::coverage;
use std::path::Path;

/// The files under `dir` (recursively) whose names end in `.ext`.
fn files_under(dir: &str, ext: &str) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![Path::new(dir).to_path_buf()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == ext) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Every string literal in `src/` that names a source file (`"src/….rs…"`, `"tests/….rs…"`):
/// the code references the checks and the pages write.
fn references_in_source() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for p in files_under("src", "rs") {
        let text = std::fs::read_to_string(&p).unwrap();
        let mut rest = text.as_str();
        // the nearer of the next `"src/` and the next `"tests/`
        let next = |r: &str| {
            [r.find("\"src/"), r.find("\"tests/")]
                .into_iter()
                .flatten()
                .min()
        };
        while let Some(k) = next(rest) {
            let tail = &rest[k + 1..];
            let end = tail.find('"').unwrap_or(0);
            let lit = &tail[..end];
            if lit.contains(".rs") && !lit.contains(' ') && !lit.contains('{') {
                out.push((p.display().to_string(), lit.to_string()));
            }
            rest = &tail[end..];
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
    let text = std::fs::read_to_string("src/motion/balls.rs").unwrap();
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
    let mut out: Vec<String> = (files_under("cases", "toml").iter())
        .map(|p| coverage::case_id(&p.display().to_string()))
        .collect();
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

/// The `href`s of a page: (target, anchor).
fn links(html: &str) -> Vec<(String, String)> {
    html.split("href=\"")
        .skip(1)
        .map(|rest| {
            let link = &rest[..rest.find('"').unwrap()];
            let (path, anchor) = link.split_once('#').unwrap_or((link, ""));
            (path.to_string(), anchor.to_string())
        })
        .collect()
}

/// The pieces of `html` between `open` and `close`.
fn blocks<'a>(html: &'a str, open: &str, close: &str) -> Vec<&'a str> {
    html.split(open)
        .skip(1)
        .map(|rest| &rest[..rest.find(close).unwrap_or(rest.len())])
        .collect()
}

/// Every link of a page leads somewhere: a file that exists (relative to the page), and an
/// in-page anchor to an element with that id; and there are more than five.
fn assert_links_resolve(page: &Path) {
    assert_links_resolve_if_any(page);
    let html = std::fs::read_to_string(page).unwrap();
    let n = links(&html)
        .iter()
        .filter(|l| !l.0.starts_with("http"))
        .count();
    assert!(n > 5, "{}: only {n} links", page.display());
}

/// [`assert_links_resolve`] for a page that may have few links.
fn assert_links_resolve_if_any(page: &Path) {
    let html = std::fs::read_to_string(page).unwrap();
    let dir = page.parent().unwrap();
    for (target, anchor) in links(&html) {
        if target.starts_with("http") {
            continue;
        }
        if target.is_empty() {
            assert!(
                html.contains(&format!("id=\"{anchor}\"")),
                "{}: #{anchor}",
                page.display()
            );
        } else {
            assert!(
                dir.join(&target).exists(),
                "{}: broken link {target}",
                page.display()
            );
        }
    }
}

/// Every plot has an x axis title and a rotated y axis title, each with a unit in
/// parentheses (plotters writes the y title turned by 270°).
fn assert_plots_have_axis_titles(page: &Path) -> usize {
    let html = std::fs::read_to_string(page).unwrap();
    // (plots, not the scene drawings: each plot is in a `div class=plot`)
    let svgs: Vec<&str> = blocks(&html, "<div class=plot>", "</svg>");
    for (k, svg) in svgs.iter().enumerate() {
        let texts = blocks(svg, "<text", "</text>");
        let titled = |rotated: bool| {
            texts.iter().any(|t| {
                let (attrs, text) = t.split_once('>').unwrap_or(("", ""));
                attrs.contains("rotate") == rotated && text.contains('(') && text.contains(')')
            })
        };
        assert!(
            titled(false),
            "{}: plot {k} has no x axis title with a unit",
            page.display()
        );
        assert!(
            titled(true),
            "{}: plot {k} has no y axis title with a unit",
            page.display()
        );
    }
    svgs.len()
}

/// The pages as a reader opens them: `ballast verify` of one case (a collision judged against
/// the damped oscillator's closed form) in a scratch folder that sees the repository's code and
/// goldens; the index and the case page are rendered, every link leads to a file or an anchor
/// that exists, every plot has axis titles with units, and the judged series has its residual.
#[test]
fn the_index_and_a_case_page_render_with_working_links_and_titled_axes() {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join("report_render");
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(d.join("cases")).unwrap();
    let root = std::env::current_dir().unwrap();
    #[cfg(unix)]
    for name in ["src", "tests", "golden"] {
        std::os::unix::fs::symlink(root.join(name), d.join(name)).unwrap();
    }
    std::fs::copy(
        "cases/collision_linear.toml",
        d.join("cases/collision_linear.toml"),
    )
    .unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ballast"))
        .current_dir(&d)
        .args(["verify", "cases"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let index = d.join("reports/index.html");
    let case = d.join("reports/cases/collision_linear/index.html");
    assert_links_resolve(&index);
    assert_links_resolve(&case);
    // the topic pages too (most have little to show with one case, but what they draw is titled)
    for e in std::fs::read_dir(d.join("reports")).unwrap().flatten() {
        let p = e.path();
        if p.extension().is_some_and(|x| x == "html") {
            assert_plots_have_axis_titles(&p);
            assert_links_resolve_if_any(&p);
        }
    }
    let html = std::fs::read_to_string(&index).unwrap();
    assert!(html.contains("<h2>Coverage</h2>") && html.contains("id=\"topic-cycle\""));
    let plots = assert_plots_have_axis_titles(&case);
    let page = std::fs::read_to_string(&case).unwrap();
    assert!(plots >= 3, "{plots} plots");
    assert!(page.contains("ballast − reference"), "no residual panel");
    // code links name items by line, and none is broken
    assert!(
        page.contains("src/motion/balls.rs:"),
        "no line in the code links"
    );
    assert!(!page.contains("not found"), "a broken code link");
}
