//! A fast path for case files with many `[[ball]]` tables (a packing written by a script): the
//! TOML parser builds a token list and a tree of the whole file first, 3 GB and 4.4 s for a
//! million balls. Here each `[[ball]]` table whose lines are all of the plain form
//! `key = number | "string" | [numbers] | ["strings"]` (comments allowed) is read directly;
//! the rest of the file goes to the TOML parser as before. Anything else in a ball table (a
//! multi-line array, an inline table, an escape, a number in another notation, an unknown or
//! repeated key) makes the whole file take the TOML parser's path, so errors and meaning are
//! the parser's own.

use super::BallSection;

/// Below this many `[[ball]]` headers the TOML parser reads the file whole.
pub(super) const MANY: usize = 10_000;

/// The lexical state at the end of a line.
#[derive(Clone, Copy, PartialEq)]
enum State {
    Normal,
    MultiBasic,
    MultiLiteral,
}

/// Splits `source` into the text without its plain `[[ball]]` tables (same line count: the
/// tables' lines are left blank, so the parser's line numbers hold) and the balls those tables
/// give, in file order. None when the file has fewer than [`MANY`] ball tables or one that is
/// not plain.
pub(super) fn split(source: &str) -> Option<(String, Vec<BallSection>)> {
    if source.matches("[[ball]]").count() < MANY {
        return None;
    }
    let mut rest = String::with_capacity(source.len() / 8);
    let mut balls = Vec::new();
    let mut state = State::Normal;
    let mut depth = 0i64;
    let mut in_ball: Option<Plain> = None;
    for line in source.split_inclusive('\n') {
        let header = state == State::Normal && depth == 0 && line.trim_start().starts_with('[');
        if header {
            if let Some(b) = in_ball.take() {
                balls.push(b.finish()?);
            }
            if line.trim() == "[[ball]]" {
                in_ball = Some(Plain::default());
                rest.push('\n');
                continue;
            }
            // another table's header: its brackets are not an array's
            rest.push_str(line);
            continue;
        }
        if let Some(b) = in_ball.as_mut() {
            b.line(line)?;
            rest.push('\n');
            continue;
        }
        (state, depth) = scan(line, state, depth);
        rest.push_str(line);
    }
    if let Some(b) = in_ball.take() {
        balls.push(b.finish()?);
    }
    Some((rest, balls))
}

/// The state and bracket depth after `line`, from those before it.
fn scan(line: &str, mut state: State, mut depth: i64) -> (State, i64) {
    let b = line.as_bytes();
    let mut k = 0;
    let starts = |k: usize, pat: &[u8]| b.len() >= k + pat.len() && &b[k..k + pat.len()] == pat;
    while k < b.len() {
        match state {
            State::MultiBasic => {
                if b[k] == b'\\' {
                    k += 2;
                    continue;
                }
                if starts(k, b"\"\"\"") {
                    state = State::Normal;
                    k += 3;
                    continue;
                }
            }
            State::MultiLiteral => {
                if starts(k, b"'''") {
                    state = State::Normal;
                    k += 3;
                    continue;
                }
            }
            State::Normal => match b[k] {
                b'#' => break,
                b'"' if starts(k, b"\"\"\"") => {
                    state = State::MultiBasic;
                    k += 3;
                    continue;
                }
                b'\'' if starts(k, b"'''") => {
                    state = State::MultiLiteral;
                    k += 3;
                    continue;
                }
                b'"' => {
                    // a one-line basic string: to its closing quote
                    k += 1;
                    while k < b.len() && b[k] != b'"' {
                        k += if b[k] == b'\\' { 2 } else { 1 };
                    }
                }
                b'\'' => {
                    k += 1;
                    while k < b.len() && b[k] != b'\'' {
                        k += 1;
                    }
                }
                b'[' | b'{' => depth += 1,
                b']' | b'}' => depth -= 1,
                _ => {}
            },
        }
        k += 1;
    }
    (state, depth)
}

/// One plain `[[ball]]` table being read.
#[derive(Default)]
struct Plain {
    ball: Option<BallSection>,
    seen: Vec<&'static str>,
}

impl Plain {
    /// Reads one line of the table (None: not plain).
    fn line(&mut self, line: &str) -> Option<()> {
        let line = strip_comment(line)?.trim();
        if line.is_empty() {
            return Some(());
        }
        let (key, value) = line.split_once('=')?;
        let (key, value) = (key.trim(), value.trim());
        let ball = self.ball.get_or_insert_with(|| BallSection {
            id: None,
            pos: Vec::new(),
            radius: f64::NAN,
            material: String::new(),
            vel: None,
            spin: None,
            force: None,
            fix: None,
            mass: None,
            inertia: None,
        });
        let key: &'static str = match key {
            "id" => {
                ball.id = Some(integer(value)?);
                "id"
            }
            "pos" => {
                ball.pos = numbers(value)?;
                "pos"
            }
            "radius" => {
                ball.radius = number(value)?;
                "radius"
            }
            "material" => {
                ball.material = string(value)?.to_string();
                "material"
            }
            "vel" => {
                ball.vel = Some(numbers(value)?);
                "vel"
            }
            "force" => {
                ball.force = Some(numbers(value)?);
                "force"
            }
            "spin" => {
                ball.spin = Some(match number(value) {
                    Some(w) => toml::Value::Float(w),
                    None => toml::Value::Array(
                        numbers(value)?
                            .into_iter()
                            .map(toml::Value::Float)
                            .collect(),
                    ),
                });
                "spin"
            }
            "fix" => {
                let inner = value.strip_prefix('[')?.strip_suffix(']')?;
                let names: Option<Vec<String>> = (inner.split(','))
                    .map(str::trim)
                    .filter(|w| !w.is_empty())
                    .map(|w| string(w).map(str::to_string))
                    .collect();
                ball.fix = Some(names?);
                "fix"
            }
            "mass" => {
                ball.mass = Some(number(value)?);
                "mass"
            }
            "inertia" => {
                ball.inertia = Some(number(value)?);
                "inertia"
            }
            _ => return None,
        };
        if self.seen.contains(&key) {
            return None;
        }
        self.seen.push(key);
        Some(())
    }

    /// The ball, when its required keys were given.
    fn finish(self) -> Option<BallSection> {
        let has = |k| self.seen.contains(&k);
        (has("pos") && has("radius") && has("material"))
            .then_some(self.ball)
            .flatten()
    }
}

/// The line without its comment (None: a quote or escape that makes that unsure).
fn strip_comment(line: &str) -> Option<&str> {
    if line.contains('\\') || line.contains('\'') {
        return None;
    }
    let mut quoted = false;
    for (k, c) in line.char_indices() {
        match c {
            '"' => quoted = !quoted,
            '#' if !quoted => return Some(&line[..k]),
            _ => {}
        }
    }
    Some(line)
}

/// A TOML decimal integer without underscores.
fn integer(w: &str) -> Option<u64> {
    let digits = w.strip_prefix('+').unwrap_or(w);
    let plain = !digits.is_empty()
        && digits.bytes().all(|c| c.is_ascii_digit())
        && (digits == "0" || !digits.starts_with('0'));
    plain.then(|| digits.parse().ok()).flatten()
}

/// A TOML float or decimal integer in the plain notation: sign, digits without a leading zero,
/// optional fraction and exponent; `inf` and `nan` with a sign or none.
fn number(w: &str) -> Option<f64> {
    let body = w.strip_prefix(['+', '-']).unwrap_or(w);
    if body == "inf" || body == "nan" {
        return w.parse().ok();
    }
    let (mantissa, exponent) = match body.find(['e', 'E']) {
        Some(k) => (&body[..k], Some(&body[k + 1..])),
        None => (body, None),
    };
    let (int, frac) = match mantissa.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (mantissa, None),
    };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit());
    let ok = digits(int)
        && (int == "0" || !int.starts_with('0'))
        && frac.is_none_or(digits)
        && exponent.is_none_or(|e| digits(e.strip_prefix(['+', '-']).unwrap_or(e)));
    ok.then(|| w.parse().ok()).flatten()
}

/// `[n, n, ...]` on one line.
fn numbers(w: &str) -> Option<Vec<f64>> {
    let inner = w.strip_prefix('[')?.strip_suffix(']')?;
    let mut out = Vec::with_capacity(3);
    for (k, x) in inner.split(',').enumerate() {
        let x = x.trim();
        if x.is_empty() && k > 0 && inner.trim_end().ends_with(',') {
            continue; // a trailing comma
        }
        out.push(number(x)?);
    }
    Some(out)
}

/// `"text"` without quotes or escapes inside.
fn string(w: &str) -> Option<&str> {
    let inner = w.strip_prefix('"')?.strip_suffix('"')?;
    (!inner.contains('"')).then_some(inner)
}
