//! The structure of `src/`: files as rooms, the paths one file names in another as arrows.
//!
//! A file names another when it uses an item defined there: `use crate::model::Model` is an
//! arrow to `src/model/state.rs`, where `Model` is defined, not to the folder's `mod.rs`, which
//! only re-exports it (re-exports are followed to the defining file, globs included). Paths are
//! read everywhere in a file: `use` items, code, macro arguments and test modules (`super::`
//! inside `mod tests` is the file itself); doc comments are not code.
//!
//! Three promises, each a test: no circle of files; the engine never names the harness; and
//! the top-level modules sit on the floors docs/ARCHITECTURE.md draws, every arrow going down.

use proc_macro2::{TokenStream, TokenTree};
use quote::ToTokens;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The engine's top-level modules.
const ENGINE: [&str; 24] = [
    "math",
    "comm",
    "par",
    "phases",
    "rng",
    "storage",
    "geom",
    "generate",
    "distribution",
    "flow",
    "timestep",
    "body",
    "law",
    "motion",
    "contact",
    "detect",
    "springs",
    "model",
    "stiffness",
    "output",
    "force",
    "books",
    "watch",
    "cycle",
];
/// The harness's top-level modules.
const HARNESS: [&str; 7] = [
    "record", "case", "run", "check", "report", "bench", "verify",
];

/// A module path from the crate root (`["model", "state"]`), the root being `[]`.
type Module = Vec<String>;

/// One source file: its module, its syntax tree, and the items it defines at its top level.
struct File {
    path: PathBuf,
    syntax: syn::File,
    defines: BTreeSet<String>,
}

/// Every file of the library (not `src/bin/`), by module.
fn files() -> BTreeMap<Module, File> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).expect("src/ is readable").flatten() {
            let p = e.path();
            if p.is_dir() {
                if p.file_name().is_some_and(|n| n != "bin") {
                    walk(&p, out);
                }
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut paths = Vec::new();
    walk(&root, &mut paths);
    let mut out = BTreeMap::new();
    for path in paths {
        let rel = path.strip_prefix(&root).expect("under src/");
        let mut module: Module = rel
            .with_extension("")
            .iter()
            .map(|c| c.to_string_lossy().into_owned())
            .collect();
        if matches!(module.last().map(String::as_str), Some("mod" | "lib")) {
            module.pop();
        }
        let text = std::fs::read_to_string(&path).expect("a readable source file");
        let syntax = syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let defines = syntax.items.iter().filter_map(item_name).collect();
        out.insert(
            module,
            File {
                path,
                syntax,
                defines,
            },
        );
    }
    out
}

/// The name an item defines, if any.
fn item_name(item: &syn::Item) -> Option<String> {
    use syn::Item::*;
    let id = match item {
        Const(i) => &i.ident,
        Enum(i) => &i.ident,
        Fn(i) => &i.sig.ident,
        Mod(i) => &i.ident,
        Static(i) => &i.ident,
        Struct(i) => &i.ident,
        Trait(i) => &i.ident,
        Type(i) => &i.ident,
        Union(i) => &i.ident,
        Macro(i) => i.ident.as_ref()?,
        _ => return None,
    };
    Some(id.to_string())
}

/// A path one file names: where it is named (the module, inside any inline module), its
/// segments as written, and whether it is a `pub use` (a re-export).
struct Named {
    at: Module,
    segments: Vec<String>,
    reexport: bool,
}

/// The paths of `use` trees, one per leaf (`a::{b, c::d}` is `a::b` and `a::c::d`; a glob
/// ends in `*`; a rename keeps the original name).
fn use_paths(tree: &syn::UseTree, prefix: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    match tree {
        syn::UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            use_paths(&p.tree, prefix, out);
            prefix.pop();
        }
        syn::UseTree::Name(n) => {
            let mut v = prefix.clone();
            v.push(n.ident.to_string());
            out.push(v);
        }
        syn::UseTree::Rename(r) => {
            let mut v = prefix.clone();
            v.push(r.ident.to_string());
            out.push(v);
        }
        syn::UseTree::Glob(_) => {
            let mut v = prefix.clone();
            v.push("*".into());
            out.push(v);
        }
        syn::UseTree::Group(g) => {
            for t in &g.items {
                use_paths(t, prefix, out);
            }
        }
    }
}

/// Every `a::b::c` path in a token stream whose head is `crate`, `super`, `self` or a plain
/// name (macro arguments included).
fn token_paths(tokens: TokenStream, out: &mut Vec<Vec<String>>) {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    let is_colons = |k: usize| {
        matches!((tokens.get(k), tokens.get(k + 1)),
            (Some(TokenTree::Punct(a)), Some(TokenTree::Punct(b))) if a.as_char() == ':' && b.as_char() == ':')
    };
    let mut k = 0;
    while k < tokens.len() {
        match &tokens[k] {
            TokenTree::Group(g) => {
                token_paths(g.stream(), out);
                k += 1;
            }
            TokenTree::Ident(head) if !(k >= 2 && is_colons(k - 2)) && is_colons(k + 1) => {
                let mut segs = vec![head.to_string()];
                let mut j = k + 1;
                while is_colons(j) {
                    match tokens.get(j + 2) {
                        Some(TokenTree::Ident(i)) => {
                            segs.push(i.to_string());
                            j += 3;
                        }
                        _ => break,
                    }
                }
                out.push(segs);
                k = j;
            }
            _ => k += 1,
        }
    }
}

/// Every path a list of items names, with the module it is named in.
fn named_in(items: &[syn::Item], at: &Module, out: &mut Vec<Named>) {
    for item in items {
        match item {
            syn::Item::Use(u) => {
                let mut paths = Vec::new();
                use_paths(&u.tree, &mut Vec::new(), &mut paths);
                let reexport = !matches!(u.vis, syn::Visibility::Inherited);
                out.extend(paths.into_iter().map(|segments| Named {
                    at: at.clone(),
                    segments,
                    reexport,
                }));
            }
            syn::Item::Mod(m) if m.content.is_some() => {
                let mut inner = at.clone();
                inner.push(m.ident.to_string());
                named_in(&m.content.as_ref().expect("inline").1, &inner, out);
            }
            other => {
                let mut paths = Vec::new();
                token_paths(other.to_token_stream(), &mut paths);
                out.extend(paths.into_iter().map(|segments| Named {
                    at: at.clone(),
                    segments,
                    reexport: false,
                }));
            }
        }
    }
}

/// The whole structure: files, what each names, and the arrows between files with the paths
/// that make them.
struct Structure {
    files: BTreeMap<Module, File>,
    arrows: BTreeMap<(Module, Module), BTreeSet<String>>,
}

impl Structure {
    fn read() -> Structure {
        let files = files();
        let mut named: BTreeMap<Module, Vec<Named>> = BTreeMap::new();
        for (m, f) in &files {
            let mut out = Vec::new();
            named_in(&f.syntax.items, m, &mut out);
            named.insert(m.clone(), out);
        }
        let mut s = Structure {
            files,
            arrows: BTreeMap::new(),
        };
        // re-exports: (file, name) -> the file that defines it
        let mut reexports: BTreeMap<(Module, String), Module> = BTreeMap::new();
        for _ in 0..4 {
            for (m, list) in &named {
                for n in list.iter().filter(|n| n.reexport) {
                    let Some((target, rest)) = s.resolve(&n.at, &n.segments, &reexports) else {
                        continue;
                    };
                    if rest.first().is_some_and(|r| r == "*") {
                        for name in &s.files[&target].defines {
                            reexports.insert((m.clone(), name.clone()), target.clone());
                        }
                    } else if let Some(last) = n.segments.last() {
                        if &target != m {
                            reexports.insert((m.clone(), last.clone()), target);
                        }
                    }
                }
            }
        }
        for (m, list) in &named {
            for n in list {
                if let Some((target, _)) = s.resolve(&n.at, &n.segments, &reexports) {
                    if &target != m {
                        s.arrows
                            .entry((m.clone(), target))
                            .or_default()
                            .insert(n.segments.join("::"));
                    }
                }
            }
        }
        s
    }

    /// The file a path named in module `at` leads to (following re-exports), and the
    /// segments after that file's module; `None` for a path outside the crate.
    fn resolve(
        &self,
        at: &Module,
        segments: &[String],
        reexports: &BTreeMap<(Module, String), Module>,
    ) -> Option<(Module, Vec<String>)> {
        let (mut full, rest): (Module, &[String]) = match segments.first()?.as_str() {
            "crate" => (Vec::new(), &segments[1..]),
            "self" => (at.clone(), &segments[1..]),
            "super" => {
                let mut base = at.clone();
                let mut k = 0;
                while segments.get(k).is_some_and(|s| s == "super") {
                    base.pop();
                    k += 1;
                }
                (base, &segments[k..])
            }
            first => {
                // a child module of the module it is named in
                let mut child = at.clone();
                child.push(first.to_string());
                if !self.files.contains_key(&child) && !self.is_inline(&child) {
                    return None;
                }
                (at.clone(), segments)
            }
        };
        full.extend(rest.iter().cloned());
        // the deepest file on the way
        let mut k = full.len();
        let file = loop {
            let prefix: Module = full[..k].to_vec();
            if self.files.contains_key(&prefix) {
                break prefix;
            }
            if k == 0 {
                return None;
            }
            k -= 1;
        };
        // the next segment re-exported by that file: the file that defines it (re-exports of
        // re-exports were followed when the map was made)
        match full
            .get(k)
            .and_then(|n| reexports.get(&(file.clone(), n.clone())))
        {
            Some(t) => Some((t.clone(), full[k + 1..].to_vec())),
            None => Some((file, full[k..].to_vec())),
        }
    }

    /// True when `m` is an inline module (`mod tests { ... }`) of one of the files.
    fn is_inline(&self, m: &Module) -> bool {
        let (Some(name), parent) = (m.last(), &m[..m.len().saturating_sub(1)]) else {
            return false;
        };
        self.files.get(parent).is_some_and(|f| {
            f.syntax.items.iter().any(|i| {
                matches!(i, syn::Item::Mod(md) if md.content.is_some() && md.ident == name.as_str())
            })
        })
    }

    /// The circles of files (strongly connected components of more than one file).
    fn circles(&self) -> Vec<Vec<Module>> {
        let nodes: Vec<&Module> = self.files.keys().collect();
        let index: BTreeMap<&Module, usize> =
            nodes.iter().enumerate().map(|(k, m)| (*m, k)).collect();
        let mut next: Vec<Vec<usize>> = vec![Vec::new(); nodes.len()];
        for (a, b) in self.arrows.keys() {
            if let (Some(&i), Some(&j)) = (index.get(a), index.get(b)) {
                next[i].push(j);
            }
        }
        // Tarjan's algorithm, iterative
        let n = nodes.len();
        let (mut idx, mut low, mut on) = (vec![usize::MAX; n], vec![0; n], vec![false; n]);
        let (mut stack, mut out, mut counter) = (Vec::new(), Vec::new(), 0);
        for start in 0..n {
            if idx[start] != usize::MAX {
                continue;
            }
            let mut work = vec![(start, 0usize)];
            while let Some(&mut (v, ref mut e)) = work.last_mut() {
                if *e == 0 && idx[v] == usize::MAX {
                    idx[v] = counter;
                    low[v] = counter;
                    counter += 1;
                    stack.push(v);
                    on[v] = true;
                }
                if *e < next[v].len() {
                    let w = next[v][*e];
                    *e += 1;
                    if idx[w] == usize::MAX {
                        work.push((w, 0));
                    } else if on[w] {
                        low[v] = low[v].min(idx[w]);
                    }
                } else {
                    work.pop();
                    if let Some(&(u, _)) = work.last() {
                        low[u] = low[u].min(low[v]);
                    }
                    if low[v] == idx[v] {
                        let mut comp = Vec::new();
                        while let Some(w) = stack.pop() {
                            on[w] = false;
                            comp.push(nodes[w].clone());
                            if w == v {
                                break;
                            }
                        }
                        if comp.len() > 1 {
                            out.push(comp);
                        }
                    }
                }
            }
        }
        out
    }

    /// The arrows between top-level modules, with the files and paths that make them.
    fn module_arrows(&self) -> BTreeMap<(String, String), Vec<String>> {
        let top = |m: &Module| m.first().cloned().unwrap_or_else(|| "lib".into());
        let mut out: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
        for ((a, b), why) in &self.arrows {
            let (ta, tb) = (top(a), top(b));
            if ta != tb && ta != "lib" && tb != "lib" {
                let file = self.files[a].path.display().to_string();
                out.entry((ta, tb))
                    .or_default()
                    .extend(why.iter().map(|w| format!("{file}: {w}")));
            }
        }
        out
    }
}

/// No file names, directly or through others, a file that names it back.
#[test]
fn no_circle_of_files() {
    let s = Structure::read();
    assert!(s.files.len() > 50, "the walk found {} files", s.files.len());
    let circles = s.circles();
    let mut report = String::new();
    for c in &circles {
        report.push_str(&format!("circle of {} files:\n", c.len()));
        for ((a, b), why) in &s.arrows {
            if c.contains(a) && c.contains(b) {
                report.push_str(&format!(
                    "  {} -> {}: {:?}\n",
                    a.join("/"),
                    b.join("/"),
                    why
                ));
            }
        }
    }
    assert!(circles.is_empty(), "{report}");
}

/// The engine (the cycle and everything it runs on) never names the harness (cases, runs,
/// checks, reports, benches), in code or tests; every top-level module is one or the other.
#[test]
fn the_engine_never_names_the_harness() {
    let s = Structure::read();
    let mut offences = Vec::new();
    for ((a, b), why) in s.module_arrows() {
        if ENGINE.contains(&a.as_str()) && HARNESS.contains(&b.as_str()) {
            offences.push(format!("{a} -> {b}: {why:?}"));
        }
    }
    assert!(offences.is_empty(), "{}", offences.join("\n"));
    for m in s.files.keys().filter_map(|m| m.first()) {
        assert!(
            ENGINE.contains(&m.as_str()) || HARNESS.contains(&m.as_str()),
            "src/{m}: neither engine nor harness (add it to tests/house.rs and docs/ARCHITECTURE.md)"
        );
    }
}

/// The floors of docs/ARCHITECTURE.md (its block of `floor N: a, b, ...` lines) hold every
/// top-level module once, and every arrow between top-level modules goes to a lower floor.
#[test]
fn every_arrow_goes_down_the_floors_the_architecture_draws() {
    let doc =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/ARCHITECTURE.md"))
            .expect("docs/ARCHITECTURE.md");
    let mut floor: BTreeMap<String, usize> = BTreeMap::new();
    for line in doc.lines() {
        let Some(rest) = line.trim().strip_prefix("floor ") else {
            continue;
        };
        let (n, names) = rest.split_once(':').expect("floor N: names");
        let n: usize = n.trim().parse().expect("a floor number");
        for name in names.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            assert!(
                floor.insert(name.to_string(), n).is_none(),
                "{name} on two floors"
            );
        }
    }
    let s = Structure::read();
    let mut modules: BTreeSet<String> = s.files.keys().filter_map(|m| m.first().cloned()).collect();
    modules.remove("lib");
    let drawn: BTreeSet<String> = floor.keys().cloned().collect();
    assert_eq!(
        modules, drawn,
        "the modules of src/ against those ARCHITECTURE.md draws"
    );
    let mut up = Vec::new();
    for ((a, b), why) in s.module_arrows() {
        if floor[&a] <= floor[&b] {
            up.push(format!(
                "{a} (floor {}) -> {b} (floor {}): {}",
                floor[&a],
                floor[&b],
                why.join("; ")
            ));
        }
    }
    assert!(
        up.is_empty(),
        "arrows that do not go down:\n{}",
        up.join("\n")
    );
}

/// The reading itself: a `use` through a folder's re-export is an arrow to the file that
/// defines the item, `super::` inside a test module is the file itself, and a path inside a
/// macro's arguments counts (each checked on a known file of the crate).
#[test]
fn the_reading_follows_reexports_test_modules_and_macros() {
    let s = Structure::read();
    let arrow = |a: &str, b: &str| {
        let m = |x: &str| x.split('/').map(String::from).collect::<Module>();
        s.arrows.contains_key(&(m(a), m(b)))
    };
    // src/books/stage.rs: `use crate::model::{EnergyBooks, Model}` (defined in books.rs, state.rs)
    assert!(arrow("books/stage", "model/books") && arrow("books/stage", "model/state"));
    assert!(
        !arrow("books/stage", "model"),
        "a re-export is not an arrow to mod.rs"
    );
    // src/par.rs's tests use super::*: not an arrow to the crate root
    assert!(!arrow("par", ""));
    // src/body/balls.rs names crate::storage::room only inside a macro's arguments
    assert!(arrow("body/balls", "storage"));
}

/// Every source path the report, the checks, the docs and the README name
/// (`src/.../x.rs`, `tests/x.rs`, `src/report/text/x.md`) exists: a page links to what it says
/// implements it, and a file that moved must take its links along.
#[test]
fn every_source_path_the_report_and_docs_name_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut texts: Vec<PathBuf> = files().into_values().map(|f| f.path).collect();
    for dir in ["src/report/text", "docs"] {
        for e in std::fs::read_dir(root.join(dir))
            .expect("a folder")
            .flatten()
        {
            texts.push(e.path());
        }
    }
    texts.push(root.join("README.md"));
    let mut missing = Vec::new();
    let mut seen = 0;
    for t in &texts {
        let text = std::fs::read_to_string(t).expect("readable");
        for prefix in ["src/", "tests/"] {
            let mut from = 0;
            while let Some(k) = text[from..].find(prefix).map(|k| from + k) {
                from = k + prefix.len();
                // a path starts the word: not part of a longer path (`../src/`, `work/src/`)
                if k > 0 && text.as_bytes()[k - 1].is_ascii_alphanumeric() {
                    continue;
                }
                let end = text[k..]
                    .find(|c: char| !(c.is_ascii_alphanumeric() || "_/.-".contains(c)))
                    .map_or(text.len(), |e| k + e);
                let path = text[k..end].trim_end_matches('.');
                if path.ends_with(".rs") || path.ends_with(".md") {
                    seen += 1;
                    if !root.join(path).is_file() {
                        missing.push(format!("{}: {path}", t.display()));
                    }
                }
            }
        }
    }
    assert!(seen > 50, "only {seen} paths found: the scan is broken");
    missing.sort();
    missing.dedup();
    assert!(
        missing.is_empty(),
        "paths that do not exist:\n{}",
        missing.join("\n")
    );
}

/// docs/CASES.md is the reference a user of a clone has: it names every key of every table of
/// a case file (the fields of src/case/file.rs), every check kind (src/check/registry.rs) and
/// every series (src/output/source.rs), each in backquotes.
#[test]
fn the_case_reference_names_every_key_series_and_check_kind() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(root.join("docs/CASES.md")).expect("docs/CASES.md");
    let read = |p: &str| std::fs::read_to_string(root.join(p)).expect("a source file");
    let mut missing = Vec::new();
    // every word inside a backquoted span of the document
    let words: BTreeSet<&str> = doc
        .split('`')
        .skip(1)
        .step_by(2)
        .flat_map(|span| span.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')))
        .filter(|w| !w.is_empty())
        .collect();
    // keys: `pub name:` fields of the file structs (`box_` is written `box`)
    for line in read("src/case/file.rs").lines() {
        if let Some(rest) = line.trim().strip_prefix("pub ") {
            if let Some((name, _)) = rest.split_once(':') {
                let name = name.trim().trim_end_matches('_');
                if !name.contains(' ') && !words.contains(name) {
                    missing.push(format!("key {name}"));
                }
            }
        }
    }
    // check kinds: the names of the registry's table, ("harmonic", kind::<Harmonic>),
    let mut kinds = Vec::new();
    for line in read("src/check/registry.rs").lines() {
        if let Some(rest) = line.trim().strip_prefix("(\"") {
            if let Some((kind, tail)) = rest.split_once('"') {
                if tail.starts_with(", ")
                    && kind.chars().all(|c| c.is_ascii_lowercase() || c == '_')
                {
                    kinds.push(kind.to_string());
                }
            }
        }
    }
    assert!(kinds.len() >= 20, "found check kinds {kinds:?}");
    for k in kinds {
        if !doc.contains(&format!("`{k}`")) {
            missing.push(format!("check kind {k}"));
        }
    }
    // series: the patterns of Source::parse, e.g. ["energy", "balance"] and "pos" =>
    let source = read("src/output/source.rs");
    for line in source.lines() {
        let t = line.trim();
        if let Some(rest) = t.strip_prefix("[\"") {
            // ["energy", "balance"] => ... : every element a string literal
            let pattern = format!("\"{}", rest.split(']').next().unwrap_or(""));
            let items: Vec<&str> = pattern.split(',').map(str::trim).collect();
            let literal = items
                .iter()
                .all(|w| w.len() > 1 && w.starts_with('"') && w.ends_with('"'));
            if literal {
                let names: Vec<&str> = items.iter().map(|w| w.trim_matches('"')).collect();
                let series = names.join("/");
                if !doc.contains(&series) {
                    missing.push(format!("series {series}"));
                }
            }
        } else if let Some(rest) = t.strip_prefix('"') {
            if let Some((q, tail)) = rest.split_once('"') {
                let quantity = ["=> BallQuantity", "=> WallQuantity", "=> PairQuantity"]
                    .iter()
                    .any(|p| tail.trim_start().starts_with(p));
                if quantity && !doc.contains(&format!("{q}`")) {
                    missing.push(format!("series quantity {q}"));
                }
            }
        }
    }
    assert!(
        missing.is_empty(),
        "docs/CASES.md does not name:\n{}",
        missing.join("\n")
    );
}

/// The complete example of docs/CASES.md runs and every one of its checks passes.
#[test]
fn the_case_reference_example_runs_and_passes() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(root.join("docs/CASES.md")).expect("docs/CASES.md");
    let start = doc
        .find("```toml\nname = \"drop_on_floor\"")
        .expect("the example")
        + 8;
    let end = start + doc[start..].find("```").expect("its end");
    let case = ballast::case::parse(&doc[start..end], Path::new("docs/CASES.md"))
        .unwrap_or_else(|e| panic!("{e}"));
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cases_md_example");
    let (summary, _) =
        ballast::verify::run_case(&case, &out, &ballast::verify::RunOptions::default()).unwrap();
    assert!(summary.error.is_none(), "{:?}", summary.error);
    for c in summary.checks.iter().filter(|c| c.kind != "golden") {
        assert!(c.passed, "{}: {}", c.kind, c.message);
    }
}

/// Files of `src/` longer than this many lines are few, and each says why at its top.
const LONG_FILE: usize = 600;
/// At most this many files of `src/` are longer than [`LONG_FILE`] lines.
const LONG_FILES_ALLOWED: usize = 3;
/// Functions longer than this many lines (from `fn` to the closing brace) are few.
const LONG_FN: usize = 100;
/// At most this many functions of `src/` are longer than [`LONG_FN`] lines.
const LONG_FNS_ALLOWED: usize = 20;

/// Every function of a syntax tree (free functions, methods of impl blocks and traits,
/// functions inside inline modules and inside other functions) with its length in lines.
fn function_lengths(file: &syn::File, out: &mut Vec<(String, usize)>) {
    use syn::visit::Visit;
    struct Walk<'a>(&'a mut Vec<(String, usize)>);
    fn length(sig: &syn::Signature, block: &syn::Block) -> usize {
        block.brace_token.span.close().end().line + 1 - sig.fn_token.span.start().line
    }
    impl<'ast> Visit<'ast> for Walk<'_> {
        fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
            self.0
                .push((f.sig.ident.to_string(), length(&f.sig, &f.block)));
            syn::visit::visit_item_fn(self, f);
        }
        fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
            self.0
                .push((f.sig.ident.to_string(), length(&f.sig, &f.block)));
            syn::visit::visit_impl_item_fn(self, f);
        }
        fn visit_trait_item_fn(&mut self, f: &'ast syn::TraitItemFn) {
            if let Some(block) = &f.default {
                self.0
                    .push((f.sig.ident.to_string(), length(&f.sig, block)));
            }
            syn::visit::visit_trait_item_fn(self, f);
        }
    }
    Walk(out).visit_file(file);
}

/// The house stays readable: at most [`LONG_FILES_ALLOWED`] files of `src/` (the command line
/// included) over [`LONG_FILE`] lines, each opening with a line `// NOTE: over 600 lines: <why>`
/// among its first five; at most [`LONG_FNS_ALLOWED`] functions over [`LONG_FN`] lines.
#[test]
fn few_long_files_and_few_long_functions() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut paths: Vec<PathBuf> = files().into_values().map(|f| f.path).collect();
    paths.push(root.join("src/bin/ballast.rs"));
    let (mut long_files, mut unexplained, mut long_fns) = (Vec::new(), Vec::new(), Vec::new());
    let mut counted = 0;
    for path in &paths {
        let text = std::fs::read_to_string(path).expect("readable");
        let rel = path
            .strip_prefix(root)
            .expect("in the crate")
            .display()
            .to_string();
        let lines = text.lines().count();
        if lines > LONG_FILE {
            long_files.push(format!("{rel}: {lines} lines"));
            if !text
                .lines()
                .take(5)
                .any(|l| l.starts_with("// NOTE: over 600 lines: "))
            {
                unexplained.push(rel.clone());
            }
        }
        let syntax = syn::parse_file(&text).expect("parses");
        let mut fns = Vec::new();
        function_lengths(&syntax, &mut fns);
        counted += fns.len();
        for (name, n) in fns.into_iter().filter(|(_, n)| *n > LONG_FN) {
            long_fns.push((n, format!("{rel}: fn {name}")));
        }
    }
    assert!(
        counted > 500,
        "only {counted} functions found: the walk is broken"
    );
    long_fns.sort_by(|a, b| b.cmp(a));
    let listing = long_fns
        .iter()
        .map(|(n, f)| format!("  {n} lines: {f}"))
        .collect::<Vec<_>>()
        .join("\n");
    let files_ok = long_files.len() <= LONG_FILES_ALLOWED && unexplained.is_empty();
    let fns_ok = long_fns.len() <= LONG_FNS_ALLOWED;
    assert!(
        files_ok && fns_ok,
        "{} files over {LONG_FILE} lines (at most {LONG_FILES_ALLOWED}):\n  {}\nwithout a `// NOTE: over 600 lines: ` line among their first five: {unexplained:?}\n{} functions over {LONG_FN} lines (at most {LONG_FNS_ALLOWED}):\n{listing}",
        long_files.len(),
        long_files.join("\n  "),
        long_fns.len()
    );
}
