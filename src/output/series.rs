//! Recorded series: a table with a time column, written as `series.csv`.

use super::Source;
use crate::math::Real;
use crate::model::Model;
use std::path::Path;

/// Columns of recorded values, one row per record.
#[derive(Clone, Debug, Default, PartialEq)]
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
            s.push_str(c);
        }
        s.push('\n');
        for r in 0..self.t.len() {
            let _ = write!(s, "{}", self.t[r]);
            for col in &self.data {
                let _ = write!(s, ",{}", col[r]);
            }
            s.push('\n');
        }
        std::fs::write(path, s)
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
        let columns: Vec<String> = header.split(',').skip(1).map(String::from).collect();
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

/// Samples a set of series from a model into a [`SeriesTable`].
#[derive(Clone, Debug)]
pub struct Recorder {
    sources: Vec<Source>,
    /// Per source, the components of a vector that are recorded (all three in 3D).
    picks: Vec<Vec<usize>>,
    sample: Vec<Real>,
    row: Vec<Real>,
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
            let pick = s.components(model.planar);
            if s.is_vector() {
                for &c in &pick {
                    columns.push(format!("{name}.{}", ["x", "y", "z"][c]));
                }
            } else {
                columns.push(name.clone());
            }
            sources.push(s);
            picks.push(pick);
        }
        Ok(Recorder {
            sources,
            picks,
            sample: Vec::new(),
            row: Vec::new(),
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
        for (s, pick) in self.sources.iter().zip(&self.picks) {
            if s.is_vector() {
                self.sample.clear();
                s.sample(model, &mut self.sample);
                self.row.extend(pick.iter().map(|&c| self.sample[c]));
            } else {
                s.sample(model, &mut self.row);
            }
        }
        self.table.t.push(model.time);
        for (col, v) in self.table.data.iter_mut().zip(&self.row) {
            col.push(*v);
        }
    }
}
