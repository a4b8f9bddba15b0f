//! VTK files for ParaView, written by hand (XML, ASCII): balls as an unstructured grid of
//! points (`.vtu`: radius, velocity, force), each wall as polygons (`.vtp`), and one `.pvd`
//! collection per run that lists every file with its time. In ParaView: open `run.pvd`, then
//! apply a Glyph filter (sphere, scale by `radius`, factor 2) to the balls.

use crate::math::{Real, Vec3};
use crate::model::Model;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Writes the VTK files of a run into one directory.
#[derive(Debug)]
pub struct VtkWriter {
    dir: PathBuf,
    /// (time, part, file name) of every file written.
    written: Vec<(Real, usize, String)>,
}

fn vectors(out: &mut String, name: &str, v: impl Iterator<Item = Vec3>) {
    let _ = write!(
        out,
        "<DataArray type=\"Float64\" Name=\"{name}\" NumberOfComponents=\"3\" format=\"ascii\">"
    );
    for p in v {
        let _ = write!(out, "{:e} {:e} {:e} ", p.x, p.y, p.z);
    }
    out.push_str("</DataArray>\n");
}

impl VtkWriter {
    /// A writer into `dir` (created).
    ///
    /// # Errors
    /// The directory cannot be created.
    pub fn new(dir: &Path) -> std::io::Result<Self> {
        std::fs::create_dir_all(dir)?;
        Ok(VtkWriter {
            dir: dir.to_path_buf(),
            written: Vec::new(),
        })
    }

    /// Writes the balls and the walls of the model at its current time.
    ///
    /// # Errors
    /// A file cannot be written.
    pub fn write(&mut self, model: &Model) -> std::io::Result<()> {
        let k = model.cycles;
        let b = &model.balls;
        let n = b.len();
        let mut s = String::from("<?xml version=\"1.0\"?>\n<VTKFile type=\"UnstructuredGrid\" version=\"1.0\" byte_order=\"LittleEndian\">\n<UnstructuredGrid>\n");
        let _ = writeln!(s, "<Piece NumberOfPoints=\"{n}\" NumberOfCells=\"{n}\">");
        s.push_str("<Points>\n");
        vectors(&mut s, "position", (0..n).map(|i| b.shown(i)));
        s.push_str(
            "</Points>\n<Cells>\n<DataArray type=\"Int64\" Name=\"connectivity\" format=\"ascii\">",
        );
        for i in 0..n {
            let _ = write!(s, "{i} ");
        }
        s.push_str("</DataArray>\n<DataArray type=\"Int64\" Name=\"offsets\" format=\"ascii\">");
        for i in 0..n {
            let _ = write!(s, "{} ", i + 1);
        }
        s.push_str("</DataArray>\n<DataArray type=\"UInt8\" Name=\"types\" format=\"ascii\">");
        s.push_str(&"1 ".repeat(n));
        s.push_str("</DataArray>\n</Cells>\n<PointData Scalars=\"radius\">\n");
        s.push_str("<DataArray type=\"Float64\" Name=\"radius\" format=\"ascii\">");
        for r in &b.radius {
            let _ = write!(s, "{r:e} ");
        }
        s.push_str("</DataArray>\n<DataArray type=\"Int64\" Name=\"id\" format=\"ascii\">");
        for id in &b.id {
            let _ = write!(s, "{id} ");
        }
        s.push_str("</DataArray>\n");
        vectors(
            &mut s,
            "velocity",
            (0..n).map(|i| model.synchronized_velocity(i)),
        );
        vectors(&mut s, "force", b.force.iter().copied());
        s.push_str("</PointData>\n</Piece>\n</UnstructuredGrid>\n</VTKFile>\n");
        let name = format!("balls_{k:09}.vtu");
        std::fs::write(self.dir.join(&name), s)?;
        self.written.push((model.time, 0, name));
        for (w, wall) in model.walls.iter().enumerate() {
            let m = &wall.mesh;
            let mut s = String::from("<?xml version=\"1.0\"?>\n<VTKFile type=\"PolyData\" version=\"1.0\" byte_order=\"LittleEndian\">\n<PolyData>\n");
            let _ = writeln!(
                s,
                "<Piece NumberOfPoints=\"{}\" NumberOfPolys=\"{}\">",
                m.vertices.len(),
                m.len()
            );
            s.push_str("<Points>\n");
            vectors(&mut s, "position", m.vertices.iter().copied());
            s.push_str("</Points>\n<Polys>\n<DataArray type=\"Int64\" Name=\"connectivity\" format=\"ascii\">");
            for t in &m.facets {
                let _ = write!(s, "{} {} {} ", t[0], t[1], t[2]);
            }
            s.push_str(
                "</DataArray>\n<DataArray type=\"Int64\" Name=\"offsets\" format=\"ascii\">",
            );
            for f in 0..m.len() {
                let _ = write!(s, "{} ", 3 * (f + 1));
            }
            s.push_str("</DataArray>\n</Polys>\n<CellData>\n");
            vectors(&mut s, "normal", wall.normals.iter().copied());
            s.push_str("</CellData>\n</Piece>\n</PolyData>\n</VTKFile>\n");
            let name = format!("wall_{}_{k:09}.vtp", wall.name);
            std::fs::write(self.dir.join(&name), s)?;
            self.written.push((model.time, w + 1, name));
        }
        Ok(())
    }

    /// Writes `run.pvd`, the collection ParaView opens (balls are part 0, walls 1, 2, ...).
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
