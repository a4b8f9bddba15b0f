//! Mesh files for walls: STL (ASCII and binary) and Wavefront OBJ.
//!
//! STL stores each facet's corners separately; corners with bit-identical coordinates are
//! welded into shared vertices ([`crate::geom::weld`]) so that the adjacency exists. The STL
//! normal record is ignored: the vertex order defines the normal (right-hand rule). OBJ faces
//! with more than three vertices are split into a fan of triangles around their first vertex.

use crate::geom::{weld, RawMesh};
use crate::math::Vec3;
use std::path::Path;

/// Reads an STL or OBJ file (by extension, case-insensitive).
///
/// # Errors
/// A file that cannot be read or parsed, as a sentence (with the line number for text files).
pub fn read(path: &Path) -> Result<RawMesh, String> {
    let cannot = |e: &dyn std::fmt::Display| format!("cannot read {}: {e}", path.display());
    let meta = std::fs::metadata(path).map_err(|e| cannot(&e))?;
    if !meta.is_file() {
        return Err(cannot(&"not a regular file"));
    }
    // a facet takes at least 50 bytes of a file (binary STL) and FACET_BYTES in the model
    crate::storage::fits(meta.len() / 50, crate::storage::FACET_BYTES)
        .map_err(|e| cannot(&format!("{} bytes, up to {e}", meta.len())))?;
    let bytes = std::fs::read(path).map_err(|e| cannot(&e))?;
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_lowercase())
        .unwrap_or_default();
    match ext.as_str() {
        "stl" => stl(&bytes),
        "obj" => obj(&String::from_utf8_lossy(&bytes)),
        _ => Err(format!(
            "{}: unknown mesh format \"{ext}\" (expected .stl or .obj)",
            path.display()
        )),
    }
}

/// Parses STL: binary when the size matches `84 + 50 n` for the facet count `n` in the
/// header, ASCII otherwise.
pub fn stl(bytes: &[u8]) -> Result<RawMesh, String> {
    if bytes.len() >= 84 {
        let n = u32::from_le_bytes([bytes[80], bytes[81], bytes[82], bytes[83]]) as usize;
        if bytes.len() == 84 + 50 * n {
            let f32_at = |o: usize| {
                f32::from_le_bytes([bytes[o], bytes[o + 1], bytes[o + 2], bytes[o + 3]]) as f64
            };
            let tris: Vec<[Vec3; 3]> = (0..n)
                .map(|i| {
                    let base = 84 + 50 * i + 12;
                    [0, 1, 2].map(|k| {
                        let o = base + 12 * k;
                        Vec3::new(f32_at(o), f32_at(o + 4), f32_at(o + 8))
                    })
                })
                .collect();
            return Ok(weld(&tris));
        }
    }
    let declared = (bytes.len() >= 84)
        .then(|| u32::from_le_bytes([bytes[80], bytes[81], bytes[82], bytes[83]]) as usize);
    let text = match std::str::from_utf8(bytes) {
        Ok(t) if !t.contains('\0') => t,
        // not text: a binary STL whose size does not match its facet count
        _ => {
            return Err(match declared {
                Some(n) => format!(
                    "a binary STL of {n} facets has 84 + 50 x {n} = {} bytes; this file has {}: it is cut or padded",
                    84 + 50 * n as u64,
                    bytes.len()
                ),
                None => format!("{} bytes: too short for an STL file", bytes.len()),
            })
        }
    };
    if !text.trim_start().starts_with("solid") {
        return Err("not an STL file: neither binary (size 84 + 50 x facets) nor ASCII (starts with \"solid\")".into());
    }
    let mut tris = Vec::new();
    let mut corners: Vec<Vec3> = Vec::new();
    // the line where the facet being read began, and whether `endsolid` closed the file
    let mut open: Option<usize> = None;
    let mut closed = false;
    for (no, line) in text.lines().enumerate() {
        let mut words = line.split_whitespace();
        match words.next() {
            Some("facet") => open = Some(no + 1),
            Some("endfacet") => open = None,
            Some("endsolid") => closed = true,
            Some("vertex") => corners.push(point(words, no)?),
            Some("endloop") => {
                if corners.len() != 3 {
                    return Err(format!(
                        "line {}: a facet has {} vertices; STL facets are triangles",
                        no + 1,
                        corners.len()
                    ));
                }
                tris.push([corners[0], corners[1], corners[2]]);
                corners.clear();
            }
            _ => {}
        }
    }
    if let Some(line) = open {
        return Err(format!(
            "the facet that begins on line {line} has no endfacet: the file is cut"
        ));
    }
    if !closed {
        return Err("no endsolid after the last facet: the file is cut".into());
    }
    if tris.is_empty() {
        return Err("the STL file has no facet".into());
    }
    Ok(weld(&tris))
}

/// Parses OBJ `v` and `f` records (other records are ignored; indices from 1, negative ones
/// count from the end, `v/vt/vn` forms accepted).
pub fn obj(text: &str) -> Result<RawMesh, String> {
    let mut vertices = Vec::new();
    let mut facets = Vec::new();
    for (no, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("");
        let mut words = line.split_whitespace();
        match words.next() {
            Some("v") => vertices.push(point(words, no)?),
            Some("f") => {
                let mut idx = Vec::new();
                for w in words {
                    let first = w.split('/').next().unwrap_or("");
                    let i: i64 = first
                        .parse()
                        .map_err(|_| format!("line {}: bad face index \"{w}\"", no + 1))?;
                    let i = if i < 0 {
                        vertices.len() as i64 + i
                    } else {
                        i - 1
                    };
                    if i < 0 || i as usize >= vertices.len() {
                        return Err(format!(
                            "line {}: face index {first} refers to no vertex defined so far",
                            no + 1
                        ));
                    }
                    idx.push(i as u32);
                }
                if idx.len() < 3 {
                    return Err(format!("line {}: a face needs at least 3 vertices", no + 1));
                }
                for k in 1..idx.len() - 1 {
                    facets.push([idx[0], idx[k], idx[k + 1]]);
                }
            }
            _ => {}
        }
    }
    Ok((vertices, facets))
}

/// The three coordinates that follow a vertex keyword on line `no` (from 0); further words
/// (OBJ's optional w) are ignored.
fn point<'a>(words: impl Iterator<Item = &'a str>, no: usize) -> Result<Vec3, String> {
    let xyz: Vec<f64> = words
        .take(3)
        .map(|w| w.parse::<f64>())
        .collect::<Result<_, _>>()
        .map_err(|e| format!("line {}: bad vertex: {e}", no + 1))?;
    match xyz[..] {
        [x, y, z] => Ok(Vec3::new(x, y, z)),
        _ => Err(format!("line {}: a vertex needs 3 coordinates", no + 1)),
    }
}
