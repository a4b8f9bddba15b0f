//! VTK files for ParaView, written by hand (XML): balls as an unstructured grid of points
//! (`.vtu`: radius, id, velocity, force, spin, material, coordination), each wall as polygons
//! (`.vtp`), the contact network as lines between the centres of the balls in contact
//! (`contacts_*.vtp`: force, normal and tangential force, ids), and one `.pvd` collection per
//! run that lists every file with its time. Binary by default (the arrays appended raw after
//! the XML, each preceded by its length in bytes as a little-endian UInt64: VTK's
//! `AppendedData encoding="raw"` with `header_type="UInt64"`); `[output] vtk_format =
//! "ascii"` writes the numbers as text. In ParaView: open `run.pvd`, then apply a Glyph filter
//! (sphere, scale by `radius`, factor 2) to the balls and a Tube filter to the contacts.

use crate::math::{Real, Vec3};
use crate::model::Model;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// How the arrays of a VTK file are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum VtkFormat {
    /// Raw little-endian bytes appended after the XML (small, exact, quick to read).
    #[default]
    Binary,
    /// Numbers as text inside the XML (`{:e}`: every digit of each number).
    Ascii,
}

/// Writes the VTK files of a run into one directory.
#[derive(Debug)]
pub struct VtkWriter {
    dir: PathBuf,
    format: VtkFormat,
    /// (time, part, file name) of every file written.
    written: Vec<(Real, usize, String)>,
}

/// One VTK XML document being written: its XML text and, in binary, the appended bytes.
struct Doc {
    xml: String,
    blob: Vec<u8>,
    format: VtkFormat,
}

impl Doc {
    /// A document of `kind` (`UnstructuredGrid`, `PolyData`) opening its one piece with
    /// `piece` (its attributes).
    fn new(kind: &str, piece: &str, format: VtkFormat) -> Doc {
        let header = match format {
            VtkFormat::Binary => " header_type=\"UInt64\"",
            VtkFormat::Ascii => "",
        };
        let xml = format!(
            "<?xml version=\"1.0\"?>\n<VTKFile type=\"{kind}\" version=\"1.0\" \
             byte_order=\"LittleEndian\"{header}>\n<{kind}>\n<Piece {piece}>\n"
        );
        Doc {
            xml,
            blob: Vec::new(),
            format,
        }
    }

    /// One data array of `n` components named `name` of VTK type `ty`: the values as text
    /// (`text`) or as bytes (`bytes`).
    fn array(&mut self, ty: &str, name: &str, n: usize, text: String, bytes: Vec<u8>) {
        let comps = if n > 1 {
            format!(" NumberOfComponents=\"{n}\"")
        } else {
            String::new()
        };
        let _ = write!(self.xml, "<DataArray type=\"{ty}\" Name=\"{name}\"{comps}");
        match self.format {
            VtkFormat::Ascii => {
                let _ = writeln!(self.xml, " format=\"ascii\">{text}</DataArray>");
            }
            VtkFormat::Binary => {
                let _ = writeln!(
                    self.xml,
                    " format=\"appended\" offset=\"{}\"/>",
                    self.blob.len()
                );
                self.blob
                    .extend_from_slice(&(bytes.len() as u64).to_le_bytes());
                self.blob.extend_from_slice(&bytes);
            }
        }
    }

    /// Vectors (3 components, Float64).
    fn vectors(&mut self, name: &str, v: impl Iterator<Item = Vec3>) {
        let (mut text, mut bytes) = (String::new(), Vec::new());
        for p in v {
            match self.format {
                VtkFormat::Ascii => {
                    let _ = write!(text, "{:e} {:e} {:e} ", p.x, p.y, p.z);
                }
                VtkFormat::Binary => p.iter().for_each(|x| bytes.extend(x.to_le_bytes())),
            }
        }
        self.array("Float64", name, 3, text, bytes);
    }

    /// Scalars (Float64).
    fn reals(&mut self, name: &str, v: impl Iterator<Item = Real>) {
        let (mut text, mut bytes) = (String::new(), Vec::new());
        for x in v {
            match self.format {
                VtkFormat::Ascii => {
                    let _ = write!(text, "{x:e} ");
                }
                VtkFormat::Binary => bytes.extend(x.to_le_bytes()),
            }
        }
        self.array("Float64", name, 1, text, bytes);
    }

    /// Integers (Int64).
    fn integers(&mut self, name: &str, v: impl Iterator<Item = i64>) {
        let (mut text, mut bytes) = (String::new(), Vec::new());
        for x in v {
            match self.format {
                VtkFormat::Ascii => {
                    let _ = write!(text, "{x} ");
                }
                VtkFormat::Binary => bytes.extend(x.to_le_bytes()),
            }
        }
        self.array("Int64", name, 1, text, bytes);
    }

    /// Cell types (UInt8), all `t`.
    fn types(&mut self, t: u8, n: usize) {
        self.array("UInt8", "types", 1, format!("{t} ").repeat(n), vec![t; n]);
    }

    /// A line of XML between the arrays.
    fn line(&mut self, s: &str) {
        self.xml.push_str(s);
        self.xml.push('\n');
    }

    /// The whole file: closes the piece and the document of `kind`; in binary, the appended
    /// bytes after the XML.
    fn finish(mut self, kind: &str) -> Vec<u8> {
        let _ = writeln!(self.xml, "</Piece>\n</{kind}>");
        let mut out = self.xml.into_bytes();
        if self.format == VtkFormat::Binary {
            out.extend_from_slice(b"<AppendedData encoding=\"raw\">\n_");
            out.extend_from_slice(&self.blob);
            out.extend_from_slice(b"\n</AppendedData>\n");
        }
        out.extend_from_slice(b"</VTKFile>\n");
        out
    }
}

impl VtkWriter {
    /// A writer of binary files into `dir` (created).
    ///
    /// # Errors
    /// The directory cannot be created.
    pub fn new(dir: &Path) -> std::io::Result<Self> {
        VtkWriter::with_format(dir, VtkFormat::Binary)
    }

    /// A writer of files in `format` into `dir` (created).
    ///
    /// # Errors
    /// The directory cannot be created.
    pub fn with_format(dir: &Path, format: VtkFormat) -> std::io::Result<Self> {
        std::fs::create_dir_all(dir)?;
        Ok(VtkWriter {
            dir: dir.to_path_buf(),
            format,
            written: Vec::new(),
        })
    }

    /// Writes the balls, the walls and the contact network of the model at its current time.
    ///
    /// # Errors
    /// A file cannot be written.
    pub fn write(&mut self, model: &Model) -> std::io::Result<()> {
        let k = model.cycles;
        let name = format!("balls_{k:09}.vtu");
        std::fs::write(self.dir.join(&name), self.balls(model))?;
        self.written.push((model.time, 0, name));
        for (w, wall) in model.walls.iter().enumerate() {
            let m = &wall.mesh;
            let piece = format!(
                "NumberOfPoints=\"{}\" NumberOfPolys=\"{}\"",
                m.vertices.len(),
                m.len()
            );
            let mut d = Doc::new("PolyData", &piece, self.format);
            d.line("<Points>");
            d.vectors("position", m.vertices.iter().copied());
            d.line("</Points>\n<Polys>");
            let ids = m.facets.iter().flat_map(|t| t.map(i64::from));
            d.integers("connectivity", ids);
            d.integers("offsets", (1..=m.len() as i64).map(|f| 3 * f));
            d.line("</Polys>\n<CellData>");
            d.vectors("normal", wall.normals.iter().copied());
            d.line("</CellData>");
            let name = format!("wall_{}_{k:09}.vtp", wall.name);
            std::fs::write(self.dir.join(&name), d.finish("PolyData"))?;
            self.written.push((model.time, w + 1, name));
        }
        let name = format!("contacts_{k:09}.vtp");
        std::fs::write(self.dir.join(&name), self.contacts(model))?;
        self.written.push((model.time, model.walls.len() + 1, name));
        Ok(())
    }

    /// The `.vtu` of the balls: one vertex cell per ball, in the model's order.
    fn balls(&self, model: &Model) -> Vec<u8> {
        let b = &model.balls;
        let n = b.len();
        let piece = format!("NumberOfPoints=\"{n}\" NumberOfCells=\"{n}\"");
        let mut d = Doc::new("UnstructuredGrid", &piece, self.format);
        d.line("<Points>");
        d.vectors("position", (0..n).map(|i| b.shown(i)));
        d.line("</Points>\n<Cells>");
        d.integers("connectivity", 0..n as i64);
        d.integers("offsets", 1..=n as i64);
        d.types(1, n);
        d.line("</Cells>\n<PointData Scalars=\"radius\">");
        d.reals("radius", b.radius.iter().copied());
        d.integers("id", b.id.iter().map(|&i| i as i64));
        d.vectors("velocity", (0..n).map(|i| model.synchronized_velocity(i)));
        d.vectors("force", b.force.iter().copied());
        d.vectors("spin", (0..n).map(|i| model.synchronized_spin(i)));
        d.integers("material", b.material.iter().map(|&m| i64::from(m)));
        let z = super::coordination(model);
        d.integers("coordination", z.iter().map(|&c| i64::from(c)));
        d.line("</PointData>");
        d.finish("UnstructuredGrid")
    }

    /// The `.vtp` of the contact network: one line per active ball-ball contact, from the
    /// centre of its first ball to (the nearest image of) the second's.
    fn contacts(&self, model: &Model) -> Vec<u8> {
        let net = super::network(model);
        let b = &model.balls;
        let m = net.len();
        let piece = format!("NumberOfPoints=\"{}\" NumberOfLines=\"{m}\"", 2 * m);
        let mut d = Doc::new("PolyData", &piece, self.format);
        d.line("<Points>");
        let ends = (0..m).flat_map(|k| {
            let (i, j) = (net.a[k], net.b[k]);
            let from = b.shown(i);
            // (in a periodic cell, the image of the second ball nearest the first)
            let to = match b.cell {
                Some(_) => from + (b.partner(i, j) - b.pos[i]),
                None => b.shown(j),
            };
            [from, to]
        });
        d.vectors("position", ends);
        d.line("</Points>\n<Lines>");
        d.integers("connectivity", 0..2 * m as i64);
        d.integers("offsets", (1..=m as i64).map(|k| 2 * k));
        d.line("</Lines>\n<CellData Scalars=\"normal_force\">");
        d.reals("normal_force", (0..m).map(|k| net.normal_force(k)));
        d.vectors("tangential_force", (0..m).map(|k| net.tangential_force(k)));
        d.vectors("force", net.force.iter().copied());
        d.integers("id1", net.a.iter().map(|&i| b.id[i] as i64));
        d.integers("id2", net.b.iter().map(|&i| b.id[i] as i64));
        d.reals("overlap", net.overlap.iter().copied());
        d.line("</CellData>");
        d.finish("PolyData")
    }

    /// Writes `run.pvd`, the collection ParaView opens (balls are part 0, walls 1, 2, ...,
    /// the contact network the part after the walls).
    ///
    /// # Errors
    /// The file cannot be written.
    pub fn finish(&self) -> std::io::Result<()> {
        let mut s = String::from("<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"1.0\">\n<Collection>\n");
        for (t, part, name) in &self.written {
            let _ = writeln!(
                s,
                "<DataSet timestep=\"{t:e}\" part=\"{part}\" file=\"{name}\"/>"
            );
        }
        s.push_str("</Collection>\n</VTKFile>\n");
        std::fs::write(self.dir.join("run.pvd"), s)
    }
}
