//! The Markdown the report's prose is written in (`src/report/text/*.md`), turned into HTML.
//!
//! A small subset, enough for prose: paragraphs (blank-line separated; one that is a value
//! alone, `{{table}}`, is not wrapped in `<p>`), `## ` and `### ` headings, lists of `- ` items
//! (a line indented by two spaces continues the item; blank lines may separate items), inline
//! `` `code` ``, `**bold**`, `*emphasis*`, `[text](address)` and the tags `<sub>` and `<sup>`.
//! Everything else is text, escaped. `{{name}}` is replaced by the HTML given for `name` (a
//! number, a link to the source); a name nobody gives stays visible as `{{name}}`.

use super::html::esc;

/// The HTML of `markdown`, with each `{{name}}` replaced by its value in `values`.
pub(super) fn render(markdown: &str, values: &[(&str, String)]) -> String {
    let mut html = String::new();
    let mut paragraph: Vec<&str> = Vec::new();
    let mut items: Vec<String> = Vec::new();
    let mut ordered = false;
    let flush =
        |html: &mut String, paragraph: &mut Vec<&str>, items: &mut Vec<String>, ordered: bool| {
            if !paragraph.is_empty() {
                let text = paragraph.join(" ");
                // (a paragraph of values and tags only, tables and plots, or one that starts with a
                // tag is raw HTML)
                if text.starts_with('<') || only_values_and_tags(&text) {
                    html.push_str(&fill(&text, values));
                } else {
                    html.push_str("<p>");
                    html.push_str(&inline(&text, values));
                    html.push_str("</p>");
                }
                paragraph.clear();
            }
            if !items.is_empty() {
                let tag = if ordered { "ol" } else { "ul" };
                html.push_str(&format!("<{tag}>"));
                for item in items.iter() {
                    html.push_str("<li>");
                    html.push_str(&inline(item, values));
                    html.push_str("</li>");
                }
                html.push_str(&format!("</{tag}>"));
                items.clear();
            }
        };
    for line in markdown.lines() {
        let trimmed = line.trim();
        if trimmed.is_empty() {
            // (a blank line ends a paragraph; a list goes on while items follow)
            if !paragraph.is_empty() {
                flush(&mut html, &mut paragraph, &mut items, ordered);
            }
        } else if let Some(h) = line.strip_prefix("### ") {
            flush(&mut html, &mut paragraph, &mut items, ordered);
            html.push_str(&format!("<h3>{}</h3>", inline(h.trim(), values)));
        } else if let Some(h) = line.strip_prefix("## ") {
            flush(&mut html, &mut paragraph, &mut items, ordered);
            html.push_str(&format!("<h2>{}</h2>", inline(h.trim(), values)));
        } else if let Some((item, numbered)) = list_item(line) {
            if !paragraph.is_empty() || (!items.is_empty() && numbered != ordered) {
                flush(&mut html, &mut paragraph, &mut items, ordered);
            }
            ordered = numbered;
            items.push(item.trim().to_string());
        } else if line.starts_with("  ") && !items.is_empty() && paragraph.is_empty() {
            let last = items.last_mut().expect("an item to continue");
            last.push(' ');
            last.push_str(trimmed);
        } else {
            if !items.is_empty() {
                flush(&mut html, &mut paragraph, &mut items, ordered);
            }
            paragraph.push(trimmed);
        }
    }
    flush(&mut html, &mut paragraph, &mut items, ordered);
    html
}

/// A list item's text and whether the list is numbered (`- item` or `1. item`).
fn list_item(line: &str) -> Option<(&str, bool)> {
    if let Some(item) = line.strip_prefix("- ") {
        return Some((item, false));
    }
    let digits = line.len() - line.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let rest = line[digits..].strip_prefix(". ")?;
    (digits > 0).then_some((rest, true))
}

/// Whether `text` is nothing but `{{values}}` and `<tags>` (and the spaces between them).
fn only_values_and_tags(text: &str) -> bool {
    let mut rest = text.trim_start();
    while !rest.is_empty() {
        let close = if rest.starts_with("{{") {
            "}}"
        } else if rest.starts_with('<') {
            ">"
        } else {
            return false;
        };
        let Some(end) = rest.find(close) else {
            return false;
        };
        rest = rest[end + close.len()..].trim_start();
    }
    true
}

/// Raw HTML (a paragraph that starts with `<`) with its values: nothing escaped.
fn fill(text: &str, values: &[(&str, String)]) -> String {
    let mut out = text.to_string();
    for (name, value) in values {
        out = out.replace(&format!("{{{{{name}}}}}"), value);
    }
    out
}

/// One line of text: escaped, then the inline marks, then the values.
fn inline(text: &str, values: &[(&str, String)]) -> String {
    let mut out = String::new();
    let mut rest = text;
    // code spans first: nothing inside them is a mark
    while let Some(start) = rest.find('`') {
        let Some(len) = rest[start + 1..].find('`') else {
            break;
        };
        out.push_str(&marks(&rest[..start]));
        out.push_str("<code>");
        out.push_str(&esc(&rest[start + 1..start + 1 + len]));
        out.push_str("</code>");
        rest = &rest[start + len + 2..];
    }
    out.push_str(&marks(rest));
    for (name, value) in values {
        out = out.replace(&format!("{{{{{name}}}}}"), value);
    }
    out
}

/// Escaped text with `**bold**`, `*emphasis*`, links, `<sub>` and `<sup>`.
fn marks(text: &str) -> String {
    // (a star written `\*` is a star, not a mark)
    let mut s = esc(text).replace("\\*", "\u{1}");
    for tag in ["sub", "sup"] {
        s = s
            .replace(&format!("&lt;{tag}&gt;"), &format!("<{tag}>"))
            .replace(&format!("&lt;/{tag}&gt;"), &format!("</{tag}>"));
    }
    let s = pairs(&s, "**", "b");
    let s = pairs(&s, "*", "em");
    links(&s).replace('\u{1}', "*")
}

/// Every `delim`...`delim` pair of `s` wrapped in `<tag>`; an unpaired one stays as it is.
fn pairs(s: &str, delim: &str, tag: &str) -> String {
    let parts: Vec<&str> = s.split(delim).collect();
    let mut out = String::new();
    for (k, part) in parts.iter().enumerate() {
        if k > 0 {
            let opening = k % 2 == 1;
            if opening && k + 1 == parts.len() {
                out.push_str(delim); // unpaired
            } else {
                out.push_str(&format!("<{}{tag}>", if opening { "" } else { "/" }));
            }
        }
        out.push_str(part);
    }
    out
}

/// `[text](address)` as a link.
fn links(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(open) = rest.find('[') {
        let Some(mid) = rest[open..].find("](").map(|m| open + m) else {
            break;
        };
        let Some(close) = rest[mid..].find(')').map(|c| mid + c) else {
            break;
        };
        out.push_str(&rest[..open]);
        out.push_str(&format!(
            "<a href=\"{}\">{}</a>",
            &rest[mid + 2..close],
            &rest[open + 1..mid]
        ));
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::render;

    /// Each construct of the subset gives the HTML written out here by hand.
    #[test]
    fn the_subset_renders_as_written_by_hand() {
        let md = "## Title with `code`\n\nA **bold** and *soft* word,\ncontinued; 2 < 3 & x<sub>n</sub>.\n\n\
                  - first item\n  continued\n\n- second [link](page.html)\n\nLast {{value}} {{unknown}}.\n\n{{value}}";
        let html = render(md, &[("value", "<b>42</b>".to_string())]);
        assert_eq!(
            html,
            "<h2>Title with <code>code</code></h2>\
             <p>A <b>bold</b> and <em>soft</em> word, continued; 2 &lt; 3 &amp; x<sub>n</sub>.</p>\
             <ul><li>first item continued</li><li>second <a href=\"page.html\">link</a></li></ul>\
             <p>Last <b>42</b> {{unknown}}.</p><b>42</b>"
        );
    }

    /// Marks inside a code span stay literal, and an unpaired star stays a star.
    #[test]
    fn code_spans_and_unpaired_marks_stay_literal() {
        assert_eq!(
            render("`a*b**c` and 2 * 3", &[]),
            "<p><code>a*b**c</code> and 2 * 3</p>"
        );
        assert_eq!(render("E\\* and G\\*", &[]), "<p>E* and G*</p>");
        assert_eq!(
            render(
                "1. one\n2. two {{v}}\n\n<p class=f>x &lt; {{v}}</p>",
                &[("v", "1".into())]
            ),
            "<ol><li>one</li><li>two 1</li></ol><p class=f>x &lt; 1</p>"
        );
    }

    /// A paragraph of values and tags only (two plots side by side) is raw HTML; one value
    /// followed by words is a paragraph.
    #[test]
    fn values_and_tags_alone_are_not_a_paragraph() {
        let v = [("a", "<svg/>".to_string()), ("b", "<table/>".to_string())];
        assert_eq!(render("{{a}}{{b}}", &v), "<svg/><table/>");
        assert_eq!(
            render("{{a}}</div><div x=\"1\">", &v),
            "<svg/></div><div x=\"1\">"
        );
        assert_eq!(render("{{a}} and words", &v), "<p><svg/> and words</p>");
    }
}
