//! Meshes built from a few numbers: a divided rectangle and a closed box; and the welding of
//! triangle soups (STL files) into indexed meshes.

use crate::math::{Real, Vec3};
use std::collections::HashMap;

/// Vertices and facets, not yet validated.
pub type RawMesh = (Vec<Vec3>, Vec<[u32; 3]>);

/// In-plane axes `(u, v)` of a plane with unit normal `n`, with `u x v = n`: `u` is the
/// projection of the x axis on the plane, or of the y axis when `n` is within about 25 degrees
/// of x.
///
/// # Examples
/// ```
/// use ballast::geom::plane_axes;
/// use ballast::math::Vec3;
/// let (u, v) = plane_axes(&Vec3::z());
/// assert_eq!((u, v), (Vec3::x(), Vec3::y()));
/// ```
pub fn plane_axes(n: &Vec3) -> (Vec3, Vec3) {
    let seed = if n.x.abs() < 0.9 {
        Vec3::x()
    } else {
        Vec3::y()
    };
    let u = (seed - n * n.dot(&seed)).normalize();
    (u, n.cross(&u))
}

/// A rectangle of `size[0]` by `size[1]` m centred on `center`, with unit normal `normal`, cut
/// into `divisions[0]` by `divisions[1]` cells of two triangles each (normals along `normal`).
/// `size[0]` runs along `u` of [`plane_axes`].
pub fn plane(center: Vec3, normal: Vec3, size: [Real; 2], divisions: [usize; 2]) -> RawMesh {
    let (u, v) = plane_axes(&normal);
    let [nx, ny] = divisions;
    let mut vertices = Vec::with_capacity((nx + 1) * (ny + 1));
    for j in 0..=ny {
        for i in 0..=nx {
            let a = (i as Real / nx as Real - 0.5) * size[0];
            let b = (j as Real / ny as Real - 0.5) * size[1];
            vertices.push(center + u * a + v * b);
        }
    }
    let id = |i: usize, j: usize| (j * (nx + 1) + i) as u32;
    let mut facets = Vec::with_capacity(2 * nx * ny);
    for j in 0..ny {
        for i in 0..nx {
            let (p00, p10, p11, p01) = (id(i, j), id(i + 1, j), id(i + 1, j + 1), id(i, j + 1));
            facets.push([p00, p10, p11]);
            facets.push([p00, p11, p01]);
        }
    }
    (vertices, facets)
}

/// The closed box `[min, max]` with inward normals, each face cut into `divisions` by
/// `divisions` cells of two triangles; vertices on shared edges are welded.
pub fn closed_box(min: Vec3, max: Vec3, divisions: usize) -> RawMesh {
    let n = divisions;
    // NOTE: a coordinate is always computed by the same expression from the same integers, so
    // the copies of a vertex on neighbouring faces are bit-identical and weld exactly.
    let coord = |k: usize, i: usize| {
        if i == n {
            max[k]
        } else {
            min[k] + (max[k] - min[k]) * (i as Real / n as Real)
        }
    };
    let mut tris = Vec::with_capacity(12 * n * n);
    for a in 0..3 {
        let (b, c) = ((a + 1) % 3, (a + 2) % 3);
        for side in [0, n] {
            let point = |i: usize, j: usize| {
                let mut p = Vec3::zeros();
                p[a] = coord(a, side);
                p[b] = coord(b, i);
                p[c] = coord(c, j);
                p
            };
            for j in 0..n {
                for i in 0..n {
                    let (p00, p10, p11, p01) = (
                        point(i, j),
                        point(i + 1, j),
                        point(i + 1, j + 1),
                        point(i, j + 1),
                    );
                    // e_b x e_c = e_a: counter-clockwise in (b, c) gives +e_a, inward on the
                    // min side; the max side is traversed the other way.
                    if side == 0 {
                        tris.push([p00, p10, p11]);
                        tris.push([p00, p11, p01]);
                    } else {
                        tris.push([p00, p11, p10]);
                        tris.push([p00, p01, p11]);
                    }
                }
            }
        }
    }
    weld(&tris)
}

/// Joins the corners of a triangle soup that have bit-identical coordinates into shared
/// vertices (in order of first appearance).
pub fn weld(triangles: &[[Vec3; 3]]) -> RawMesh {
    let corners: Vec<Vec3> = triangles.iter().flatten().copied().collect();
    let facets: Vec<[u32; 3]> = (0..triangles.len() as u32)
        .map(|k| [3 * k, 3 * k + 1, 3 * k + 2])
        .collect();
    weld_indexed(&corners, &facets)
}

/// Welds an indexed mesh (OBJ, or `vertices` and `facets` given inline): vertices with
/// bit-identical coordinates become one, so that two facets meeting at a seam share their edge
/// (unwelded, a ball on the seam would get a contact from each facet: twice the force). The
/// vertices keep the order of their first occurrence; facets are renumbered.
pub fn weld_indexed(vertices: &[Vec3], facets: &[[u32; 3]]) -> RawMesh {
    let mut index: HashMap<[u64; 3], u32> = HashMap::with_capacity(vertices.len());
    let mut unique = Vec::with_capacity(vertices.len());
    let new: Vec<u32> = vertices
        .iter()
        .map(|p| {
            // NOTE: -0.0 and 0.0 are the same point.
            let key = [p.x, p.y, p.z].map(|x| (x + 0.0).to_bits());
            *index.entry(key).or_insert_with(|| {
                unique.push(*p);
                (unique.len() - 1) as u32
            })
        })
        .collect();
    let facets = facets.iter().map(|t| t.map(|v| new[v as usize])).collect();
    (unique, facets)
}
