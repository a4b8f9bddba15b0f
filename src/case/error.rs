//! Errors in case files: one line naming the file, the key and the reason.

use std::fmt;

/// A problem with a case file.
#[derive(Clone, Debug, PartialEq)]
pub struct CaseError {
    /// The case file.
    pub file: String,
    /// Where in the file: a key path such as `ball[2].radius` (tables numbered from 1 in file
    /// order), or `line 12` when only the position is known.
    pub key: String,
    /// What is wrong.
    pub reason: String,
}

impl fmt::Display for CaseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (file, key, reason) = (
            printable(&self.file),
            printable(&self.key),
            printable(&self.reason),
        );
        if key.is_empty() {
            write!(f, "{file}: {reason}")
        } else {
            write!(f, "{file}: {key}: {reason}")
        }
    }
}

/// `s` with its control characters (NUL, escape sequences, newlines) written as escapes, so that
/// an error echoing a hostile input stays one line of plain text on the terminal.
pub fn printable(s: &str) -> std::borrow::Cow<'_, str> {
    if s.chars().any(char::is_control) {
        s.chars()
            .map(|c| {
                if c.is_control() {
                    c.escape_default().to_string()
                } else {
                    c.to_string()
                }
            })
            .collect::<String>()
            .into()
    } else {
        s.into()
    }
}

impl std::error::Error for CaseError {}

impl CaseError {
    /// A new error.
    pub fn new(file: &str, key: impl Into<String>, reason: impl Into<String>) -> Self {
        CaseError {
            file: file.to_string(),
            key: key.into(),
            reason: reason.into(),
        }
    }

    /// Turns a TOML/serde error into one line: the line number, the table and key at that line,
    /// and the parser's message without its source excerpt.
    pub fn from_toml(file: &str, source: &str, err: &toml::de::Error, prefix: &str) -> Self {
        let reason = err.message().trim().replace('\n', " ");
        let Some(span) = err.span() else {
            return CaseError::new(file, prefix, reason);
        };
        let start = span.start.min(source.len());
        let line_no = source[..start].matches('\n').count() + 1;
        let line_start = source[..start].rfind('\n').map_or(0, |k| k + 1);
        let line = source[line_start..].lines().next().unwrap_or("");
        let table = source[..line_start]
            .lines()
            .rev()
            .map(str::trim)
            .find(|l| l.starts_with('['))
            .map(|l| l.split('#').next().unwrap_or(l).trim().to_string());
        let key_here = crate::check::key_path(line, start - line_start)
            .or_else(|| line.split_once('=').map(|(k, _)| k.trim().to_string()))
            .filter(|k| !k.is_empty() && !k.starts_with('['));
        let mut key = format!("line {line_no}");
        match (table, key_here.clone()) {
            (Some(t), Some(k)) => key = format!("{key}, {t} {k}"),
            (None, Some(k)) => key = format!("{key}, {k}"),
            (Some(_), None) if line.trim().starts_with('[') => {
                key = format!("{key}, {}", line.trim())
            }
            (Some(t), None) => key = format!("{key}, {t}"),
            (None, None) => {}
        }
        let reason = match (reason.as_str(), &key_here) {
            ("duplicate key", Some(k)) => format!("duplicate key `{k}`: given twice"),
            ("duplicate key", None) if line.trim().starts_with('[') => {
                format!("duplicate key: table {} given twice", line.trim())
            }
            _ => explain_section(&reason),
        };
        CaseError::new(file, key, reason)
    }
}

/// A serde message naming one of our structs (`expected struct RadiusSection`) in words: the
/// forms the value takes.
fn explain_section(reason: &str) -> String {
    const FORMS: [(&str, &str); 2] = [
        (
            "struct RadiusSection",
            "a distribution of radii: { kind = \"uniform\", min, max }, { kind = \"normal\", \
             mean, std, min, max }, { kind = \"lognormal\", median, sigma, min, max } or \
             { kind = \"discrete\", radii = [...], fractions = [...], by = \"number\" | \
             \"mass\" } (one radius r: { kind = \"uniform\", min = r, max = r })",
        ),
        (
            "struct RegionSection",
            "a region: { box = { min = [x, y, z], max = [x, y, z] } } or { cylinder = { base, \
             axis, radius, height } } (measurements also { all = true })",
        ),
    ];
    for (name, words) in FORMS {
        if let Some(at) = reason.find(name) {
            return format!("{}{words}{}", &reason[..at], &reason[at + name.len()..]);
        }
    }
    reason.to_string()
}
