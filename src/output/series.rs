//! Recorded series: a table with a time column, written as `series.csv`.

use super::Source;
use crate::math::Real;
use crate::model::Model;
use std::path::Path;

/// Columns of recorded values, one row per record.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SeriesTable {
    /// Column names (without `t`).
    pub columns: Vec<String>,
    /// Time of each row, s.
    pub t: Vec<Real>,
    /// One vector per column.
    pub data: Vec<Vec<Real>>,
}

impl SeriesTable {
    /// The values of a column.
    pub fn column(&self, name: &str) -> Option<&[Real]> {
        self.columns
            .iter()
            .position(|c| c == name)
            .map(|k| self.data[k].as_slice())
    }

    /// Writes `t` and every column as CSV (shortest round-trip decimal form).
    ///
    /// # Errors
    /// I/O errors.
    pub fn write_csv(&self, path: &Path) -> std::io::Result<()> {
        use std::fmt::Write as _;
        let mut s = String::from("t");
        for c in &self.columns {
            s.push(',');
            s.push_str(&csv_field(c));
        }
        s.push('\n');
        for r in 0..self.t.len() {
            let _ = write!(s, "{}", self.t[r]);
            for col in &self.data {
                let _ = write!(s, ",{}", col[r]);
            }
            s.push('\n');
        }
        crate::storage::write_atomic(path, s)
    }

    /// Reads a table written by [`SeriesTable::write_csv`].
    ///
    /// # Errors
    /// I/O errors and malformed numbers, as a sentence.
    pub fn read_csv(path: &Path) -> Result<SeriesTable, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut lines = text.lines();
        let header = lines
            .next()
            .ok_or_else(|| format!("{}: empty", path.display()))?;
        let columns: Vec<String> = csv_fields(header)
            .ok_or_else(|| format!("{}: line 1: malformed header", path.display()))?
            .into_iter()
            .skip(1)
            .collect();
        let mut table = SeriesTable {
            data: vec![Vec::new(); columns.len()],
            columns,
            t: Vec::new(),
        };
        for (n, line) in lines.enumerate() {
            let mut values = line.split(',').map(|v| v.parse::<Real>());
            let bad = || format!("{}: line {}: malformed row", path.display(), n + 2);
            table
                .t
                .push(values.next().ok_or_else(bad)?.map_err(|_| bad())?);
            for col in table.data.iter_mut() {
                col.push(values.next().ok_or_else(bad)?.map_err(|_| bad())?);
            }
        }
        Ok(table)
    }
}

/// One CSV field (RFC 4180): quoted, with its quotes doubled, when it holds a comma, a quote or
/// a line break; as it is otherwise.
fn csv_field(s: &str) -> std::borrow::Cow<'_, str> {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\"")).into()
    } else {
        s.into()
    }
}

/// The fields of one CSV line written by [`csv_field`] (None: an unclosed quote).
fn csv_fields(line: &str) -> Option<Vec<String>> {
    let mut fields = vec![String::new()];
    let mut chars = line.chars().peekable();
    let mut quoted = false;
    while let Some(c) = chars.next() {
        let field = fields.last_mut()?;
        match (quoted, c) {
            (false, ',') => fields.push(String::new()),
            (false, '"') if field.is_empty() => quoted = true,
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            (true, '"') => quoted = false,
            (_, c) => field.push(c),
        }
    }
    (!quoted).then_some(fields)
}

/// Samples a set of series from a model into a [`SeriesTable`].
#[derive(Clone, Debug)]
pub struct Recorder {
    sources: Vec<Source>,
    /// Per source, the components of a vector that are recorded (all three in 3D).
    picks: Vec<Vec<usize>>,
    sample: Vec<Real>,
    row: Vec<Real>,
    /// What each measurement region measured at this record (each measured once per record,
    /// whatever number of its quantities are recorded).
    measured: Vec<Option<super::Measured>>,
    /// The measurements' work array, kept from one record to the next.
    inside: Vec<bool>,
    /// The regions whose porosity is recorded (the costly quantity: only those compute it).
    porosity: Vec<bool>,
    /// The table being filled.
    pub table: SeriesTable,
}

impl Recorder {
    /// A recorder of the named series (duplicates are recorded once).
    ///
    /// # Errors
    /// An unknown series name.
    pub fn new(names: &[String], model: &Model) -> Result<Recorder, String> {
        let mut sources = Vec::new();
        let mut picks = Vec::new();
        let mut columns = Vec::new();
        for name in names {
            let s = Source::parse(name, model)?;
            if sources.contains(&s) {
                continue;
            }
            let pick: Vec<usize> = if s.is_tensor() {
                s.tensor_components(model.planar)
            } else {
                s.components(model.planar)
            };
            if s.has_columns() {
                for suffix in s.suffixes(model.planar) {
                    columns.push(format!("{name}.{suffix}"));
                }
            } else {
                columns.push(name.clone());
            }
            sources.push(s);
            picks.push(pick);
        }
        let mut porosity = vec![false; model.measures.len()];
        for s in &sources {
            if let Source::Measure(k, super::MeasureQuantity::Porosity) = *s {
                porosity[k] = true;
            }
        }
        Ok(Recorder {
            sources,
            picks,
            sample: Vec::new(),
            row: Vec::new(),
            measured: Vec::new(),
            inside: Vec::new(),
            porosity,
            table: SeriesTable {
                data: vec![Vec::new(); columns.len()],
                columns,
                t: Vec::new(),
            },
        })
    }

    /// Appends one row with the model's current state.
    pub fn record(&mut self, model: &Model) {
        self.row.clear();
        self.measured.clear();
        self.measured.resize(model.measures.len(), None);
        for (s, pick) in self.sources.iter().zip(&self.picks) {
            self.sample.clear();
            let out = if s.has_columns() {
                &mut self.sample
            } else {
                &mut self.row
            };
            match *s {
                Source::Measure(k, q) => {
                    let (inside, porosity) = (&mut self.inside, self.porosity[k]);
                    let m = self.measured[k].get_or_insert_with(|| {
                        super::measure::measure_with(model, &model.measures[k], inside, porosity)
                    });
                    super::sample::put_measured(m, q, out);
                }
                _ => s.sample(model, out),
            }
            if s.has_columns() {
                self.row.extend(pick.iter().map(|&c| self.sample[c]));
            }
        }
        self.table.t.push(model.time);
        for (col, v) in self.table.data.iter_mut().zip(&self.row) {
            col.push(*v);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A column named with a comma or a quote (a wall "fl,oor") survives the CSV file: the
    /// header read back has the same columns as the table written, and every value lines up.
    #[test]
    fn headers_with_commas_and_quotes_round_trip() {
        let columns = ["wall/fl,oor/force.z", "wall/a\"b/force.z", "energy/kinetic"];
        let table = SeriesTable {
            columns: columns.iter().map(|c| c.to_string()).collect(),
            data: vec![vec![1.0, 2.0], vec![3.0, 4.0], vec![5.0, 6.0]],
            t: vec![0.0, 0.5],
        };
        let dir = std::env::temp_dir().join(format!("ballast-csv-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("series.csv");
        table.write_csv(&path).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        // RFC 4180: the comma's field quoted, the quote doubled inside a quoted field
        assert!(
            text.starts_with("t,\"wall/fl,oor/force.z\",\"wall/a\"\"b/force.z\",energy/kinetic\n"),
            "{text}"
        );
        let back = SeriesTable::read_csv(&path).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(back.columns, table.columns);
        assert_eq!(back.column("wall/fl,oor/force.z"), Some(&[1.0, 2.0][..]));
        assert_eq!(back.column("energy/kinetic"), Some(&[5.0, 6.0][..]));
        assert_eq!(back.t, table.t);
    }
}
