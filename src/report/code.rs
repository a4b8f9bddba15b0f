//! Links from the report to the code: a reference names a file and an item in it,
//! `src/law/hertz.rs::Hertz::force`, and the page shows and links the line where that item is
//! defined, found in the source when the page is written (so the line follows the code). A
//! reference whose file or item is gone is shown as such, never as a silent plain name; a test
//! resolves every reference written in the source (tests/report.rs).

use super::html::{esc, relative};
use std::path::Path;

/// Splits a reference into its file and its item path (empty when it names a whole file).
pub fn split(reference: &str) -> (&str, &str) {
    match reference.find(".rs::") {
        Some(k) => (&reference[..k + 3], &reference[k + 5..]),
        None => (reference, ""),
    }
}

/// The 1-based line of `item` (`name`, or `Type::name`, `module::Type::name`) in Rust source
/// `text`: each segment is looked for from the line where the previous one was found; a
/// segment before the last matches the block that holds the next one (`impl Type`, `impl
/// Trait for Type`, `mod name`, `trait Name`) or else its definition, the last one any
/// definition (`fn`, `struct`, `enum`, `trait`, `type`, `const`, `static`, `mod`, `impl`,
/// `macro_rules!`). None when some segment is not defined there.
pub fn locate(text: &str, item: &str) -> Option<usize> {
    let lines: Vec<&str> = text.lines().collect();
    let segments: Vec<&str> = item.split("::").collect();
    let mut from = 0;
    for (k, seg) in segments.iter().enumerate() {
        let last = k + 1 == segments.len();
        let found = if last {
            (from..lines.len()).find(|&i| defines(lines[i], seg))
        } else {
            (from..lines.len())
                .find(|&i| opens_block_of(lines[i], seg))
                .or_else(|| (from..lines.len()).find(|&i| defines(lines[i], seg)))
        }?;
        from = found;
    }
    Some(from + 1)
}

/// The line with its visibility (`pub`, `pub(crate)`, ...) and qualifiers removed.
fn bare(line: &str) -> &str {
    let mut s = line.trim_start();
    if let Some(rest) = s.strip_prefix("pub") {
        let rest = rest.trim_start();
        s = if rest.starts_with('(') {
            rest.find(')').map_or(rest, |k| rest[k + 1..].trim_start())
        } else {
            rest
        };
    }
    for q in ["const fn ", "unsafe fn ", "async fn ", "extern \"C\" fn "] {
        if s.starts_with(q) {
            return &s[q.len() - 3..];
        }
    }
    s
}

/// True when `s` begins with the identifier `name` (not a longer one).
fn starts_with_ident(s: &str, name: &str) -> bool {
    s.strip_prefix(name).is_some_and(|rest| {
        !rest
            .chars()
            .next()
            .is_some_and(|c| c.is_alphanumeric() || c == '_')
    })
}

/// True when the line defines `name`.
fn defines(line: &str, name: &str) -> bool {
    let s = bare(line);
    for kw in [
        "fn ",
        "struct ",
        "enum ",
        "trait ",
        "type ",
        "const ",
        "static ",
        "mod ",
        "macro_rules! ",
    ] {
        if let Some(rest) = s.strip_prefix(kw) {
            return starts_with_ident(rest, name);
        }
    }
    opens_block_of(line, name)
}

/// True when the line opens an `impl` block for type `name` (its own or a trait's), a module
/// or a trait named `name`.
fn opens_block_of(line: &str, name: &str) -> bool {
    let s = bare(line);
    if let Some(rest) = s.strip_prefix("mod ").or_else(|| s.strip_prefix("trait ")) {
        return starts_with_ident(rest, name);
    }
    let Some(rest) = s.strip_prefix("impl") else {
        return false;
    };
    // skip the impl's own generics, then `Trait for` if there is one
    let mut rest = rest.trim_start();
    if rest.starts_with('<') {
        let mut depth = 0;
        let mut end = rest.len();
        for (i, c) in rest.char_indices() {
            match c {
                '<' => depth += 1,
                '>' => {
                    depth -= 1;
                    if depth == 0 {
                        end = i + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        rest = rest[end..].trim_start();
    }
    if let Some(k) = rest.find(" for ") {
        rest = rest[k + 5..].trim_start();
    }
    // a path such as `crate::model::Model`: its last segment
    let head: &str = rest
        .split(|c: char| c == '<' || c == '{' || c.is_whitespace())
        .next()
        .unwrap_or("");
    head.rsplit("::").next() == Some(name)
}

/// The source tree this program was built from (its crate's folder, fixed at compile time):
/// the files references name are read there, whatever the working directory of the run.
pub fn source_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Where a reference points: its file and, when it names an item, the item's line (None when
/// the file or the item cannot be found in the source tree, [`source_root`]).
pub fn resolve(reference: &str) -> Result<(String, Option<usize>), String> {
    let (file, item) = split(reference);
    let text =
        std::fs::read_to_string(source_root().join(file)).map_err(|e| format!("{file}: {e}"))?;
    if item.is_empty() {
        return Ok((file.to_string(), None));
    }
    match locate(&text, item) {
        Some(line) => Ok((file.to_string(), Some(line))),
        None => Err(format!("{file}: no item {item}")),
    }
}

/// A link from the page in `page_dir` to the code `reference` names, shown as
/// `file:line (item)`; a reference that does not resolve is shown with the reason. Without
/// the source tree (the program run on another machine than the one that built it) the
/// reference is shown as plain text: nothing is broken there, there is only no code to show.
pub(super) fn code_link(page_dir: &Path, reference: &str) -> String {
    let (file, item) = split(reference);
    let shown = |line: Option<usize>| match (line, item.is_empty()) {
        (Some(l), false) => format!("<code>{}:{l}</code> ({})", esc(file), esc(item)),
        _ => format!("<code>{}</code>", esc(file)),
    };
    let root = source_root();
    if !root.join("src").is_dir() {
        return format!("<code>{}</code>", esc(reference));
    }
    let rel = relative(page_dir, root);
    match (resolve(reference), rel) {
        (Ok((file, line)), Some(rel)) => {
            let anchor = line.map_or(String::new(), |l| format!("#L{l}"));
            format!(
                "<a href=\"{}{anchor}\">{}</a>",
                esc(&rel.join(&file).display().to_string()),
                shown(line)
            )
        }
        (Ok((_, line)), None) => shown(line),
        (Err(why), _) => format!(
            "<code>{}</code> <span class=fail>not found</span> ({})",
            esc(reference),
            esc(&why)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SOURCE: &str = "\
pub struct Hertz {
    k: f64,
}

impl Hertz {
    pub fn new() -> Self { todo!() }
    pub fn force(&self) {}
}

impl<T: Copy> std::fmt::Debug for crate::law::Linear<T> {
    fn fmt(&self) {}
}

pub(crate) fn force_all() {}
fn force() {}
";

    /// Items by name, methods through their impl block, trait impls through a path, and a name
    /// that is only a prefix of another is not taken for it.
    #[test]
    fn items_are_found_on_their_lines() {
        assert_eq!(locate(SOURCE, "Hertz"), Some(1));
        assert_eq!(locate(SOURCE, "Hertz::force"), Some(7));
        assert_eq!(locate(SOURCE, "Linear::fmt"), Some(11));
        assert_eq!(locate(SOURCE, "force_all"), Some(14));
        assert_eq!(locate(SOURCE, "force"), Some(7));
        assert_eq!(locate(SOURCE, "Hertz::missing"), None);
        assert_eq!(locate(SOURCE, "Hooke::force"), None);
        assert_eq!(split("x/a.rs::B::c"), ("x/a.rs", "B::c"));
        assert_eq!(split("x/a.rs"), ("x/a.rs", ""));
    }
}
