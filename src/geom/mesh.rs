//! Triangle meshes: vertices, facets, the adjacency of facets sharing an edge or a vertex, and
//! the validation that a faceted wall needs (seed 001, "Faceted Walls").

use crate::math::{Real, Vec3};

/// Marks "no neighbour" in [`Mesh::edge_neighbour`].
pub const NONE: u32 = u32::MAX;

/// What makes a mesh unusable as a faceted wall. Facets and vertices are numbered from 0, as in
/// the case file's `facets` and `vertices` arrays.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum MeshError {
    /// No facet at all.
    #[error("the mesh has no facet")]
    Empty,
    /// A vertex coordinate that is NaN or infinite.
    #[error("vertex {0} is not finite")]
    NotFinite(usize),
    /// A facet naming a vertex that does not exist.
    #[error("facet {facet}: vertex index {index} does not exist ({count} vertices)")]
    NoSuchVertex {
        /// Facet number.
        facet: usize,
        /// The index given.
        index: u32,
        /// Number of vertices.
        count: usize,
    },
    /// A facet using one vertex twice, or two vertices at the same point.
    #[error("facet {facet}: vertices {a} and {b} are the same point")]
    RepeatedVertex {
        /// Facet number.
        facet: usize,
        /// First vertex.
        a: u32,
        /// Second vertex.
        b: u32,
    },
    /// A facet whose three vertices lie on one line.
    #[error("facet {facet}: vertices {a}, {b} and {c} are collinear (area {area:.3e} m^2)")]
    Collinear {
        /// Facet number.
        facet: usize,
        /// Vertices.
        a: u32,
        /// Vertices.
        b: u32,
        /// Vertices.
        c: u32,
        /// Its area.
        area: Real,
    },
    /// Two facets on the same three vertices.
    #[error("facet {facet}: same vertices as facet {other}")]
    DuplicateFacet {
        /// Facet number.
        facet: usize,
        /// The earlier facet.
        other: usize,
    },
    /// Two facets sharing an edge that both traverse in the same direction: their normals
    /// point to opposite sides.
    #[error("facets {facet} and {other}: inconsistent orientation (both run edge {a} -> {b}; reverse one of them)")]
    Inconsistent {
        /// Facet number.
        facet: usize,
        /// Its neighbour.
        other: usize,
        /// Edge start vertex.
        a: u32,
        /// Edge end vertex.
        b: u32,
    },
    /// An edge shared by more than two facets.
    #[error("edge {a}-{b} is shared by {count} facets ({facets}): the mesh is not manifold")]
    NonManifold {
        /// Edge end vertices.
        a: u32,
        /// Edge end vertices.
        b: u32,
        /// Number of facets.
        count: usize,
        /// Their numbers.
        facets: String,
    },
    /// Two facets that pass through each other (a ball can sit between the two sheets).
    #[error("facets {facet} and {other} cross each other: the wall's sheets pass through one another (facets may meet only at shared edges and vertices)")]
    Crossing {
        /// Facet number.
        facet: usize,
        /// The other facet.
        other: usize,
    },
}

/// A validated triangle mesh with its adjacency.
///
/// Facet normals follow the right-hand rule on the vertex order (seed 001):
/// `n = (V_2 - V_1) x (V_3 - V_2) / |...|`, i.e. counter-clockwise seen from the normal side.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct Mesh {
    /// Vertex positions (world frame), m.
    pub vertices: Vec<Vec3>,
    /// Facets as three vertex indices.
    pub facets: Vec<[u32; 3]>,
    /// For each facet, the facet across edge `k` (vertex `k` to `k + 1`), or [`NONE`].
    pub edge_neighbour: Vec<[u32; 3]>,
    /// Facets using each vertex, compressed: those of vertex `v` are
    /// `vertex_facets[vertex_start[v]..vertex_start[v + 1]]`, in increasing order.
    pub vertex_facets: Vec<u32>,
    /// Start of each vertex's list in [`Mesh::vertex_facets`] (length = vertices + 1).
    pub vertex_start: Vec<u32>,
}

impl Mesh {
    /// Validates vertices and facets and builds the adjacency.
    ///
    /// # Errors
    /// [`MeshError`] naming the facet and vertices: a repeated or coincident vertex, collinear
    /// vertices, a duplicate facet, neighbours of inconsistent orientation, an edge of more than
    /// two facets, two facets that cross each other, an index out of range, a non-finite
    /// coordinate, or no facet.
    ///
    /// # Examples
    /// ```
    /// use ballast::geom::{Mesh, MeshError};
    /// use ballast::math::Vec3;
    /// let v = vec![Vec3::zeros(), Vec3::x(), Vec3::y(), Vec3::new(1.0, 1.0, 0.0)];
    /// let square = Mesh::new(v.clone(), vec![[0, 1, 2], [1, 3, 2]]).unwrap();
    /// assert_eq!(square.edge_neighbour[0][1], 1); // edge 1 -> 2 of facet 0 is shared with facet 1
    /// let flipped = Mesh::new(v, vec![[0, 1, 2], [1, 2, 3]]);
    /// assert!(matches!(flipped, Err(MeshError::Inconsistent { facet: 1, other: 0, .. })));
    /// ```
    pub fn new(vertices: Vec<Vec3>, facets: Vec<[u32; 3]>) -> Result<Mesh, MeshError> {
        if facets.is_empty() {
            return Err(MeshError::Empty);
        }
        if let Some(i) = vertices
            .iter()
            .position(|v| !v.iter().all(|x| x.is_finite()))
        {
            return Err(MeshError::NotFinite(i));
        }
        let nv = vertices.len();
        for (f, tri) in facets.iter().enumerate() {
            for &index in tri {
                if index as usize >= nv {
                    return Err(MeshError::NoSuchVertex {
                        facet: f,
                        index,
                        count: nv,
                    });
                }
            }
            for k in 0..3 {
                let (a, b) = (tri[k], tri[(k + 1) % 3]);
                if a == b || vertices[a as usize] == vertices[b as usize] {
                    return Err(MeshError::RepeatedVertex {
                        facet: f,
                        a: a.min(b),
                        b: a.max(b),
                    });
                }
            }
            let p = tri.map(|i| vertices[i as usize]);
            let cross = (p[1] - p[0]).cross(&(p[2] - p[0]));
            let longest = (0..3)
                .map(|k| (p[(k + 1) % 3] - p[k]).norm_squared())
                .fold(0.0, Real::max);
            // NOTE: relative test: twice the area against the square of the longest edge, so
            // that the verdict does not depend on the unit of length. 1e-12 is far below any
            // sliver a mesher produces and far above round-off (1e-16).
            if cross.norm() <= 1e-12 * longest {
                return Err(MeshError::Collinear {
                    facet: f,
                    a: tri[0],
                    b: tri[1],
                    c: tri[2],
                    area: 0.5 * cross.norm(),
                });
            }
        }
        // Duplicate facets: sort the vertex sets.
        let mut sets: Vec<([u32; 3], usize)> = facets
            .iter()
            .enumerate()
            .map(|(f, t)| {
                let mut s = *t;
                s.sort_unstable();
                (s, f)
            })
            .collect();
        sets.sort_unstable();
        for w in sets.windows(2) {
            if w[0].0 == w[1].0 {
                return Err(MeshError::DuplicateFacet {
                    facet: w[1].1,
                    other: w[0].1,
                });
            }
        }
        // Edges: (low vertex, high vertex, facet, local edge, forward?) sorted by the pair.
        let mut edges: Vec<(u32, u32, u32, u8)> = Vec::with_capacity(3 * facets.len());
        for (f, t) in facets.iter().enumerate() {
            for k in 0..3u8 {
                let (a, b) = (t[k as usize], t[(k as usize + 1) % 3]);
                edges.push((a.min(b), a.max(b), f as u32, k));
            }
        }
        edges.sort_unstable();
        let mut edge_neighbour = vec![[NONE; 3]; facets.len()];
        let mut i = 0;
        while i < edges.len() {
            let mut j = i + 1;
            while j < edges.len() && edges[j].0 == edges[i].0 && edges[j].1 == edges[i].1 {
                j += 1;
            }
            let group = &edges[i..j];
            if group.len() > 2 {
                return Err(MeshError::NonManifold {
                    a: group[0].0,
                    b: group[0].1,
                    count: group.len(),
                    facets: group
                        .iter()
                        .map(|e| e.2.to_string())
                        .collect::<Vec<_>>()
                        .join(", "),
                });
            }
            if let [(_, _, f, k), (_, _, g, l)] = *group {
                let start = |f: u32, k: u8| facets[f as usize][k as usize];
                if start(f, k) == start(g, l) {
                    let a = start(g, l);
                    let b = facets[g as usize][(l as usize + 1) % 3];
                    return Err(MeshError::Inconsistent {
                        facet: g as usize,
                        other: f as usize,
                        a,
                        b,
                    });
                }
                edge_neighbour[f as usize][k as usize] = g;
                edge_neighbour[g as usize][l as usize] = f;
            }
            i = j;
        }
        if let Some((facet, other)) = super::crossing::crossing_facets(&vertices, &facets) {
            return Err(MeshError::Crossing { facet, other });
        }
        // Vertex -> facets, compressed (counting sort keeps facets in increasing order).
        let mut vertex_start = vec![0u32; nv + 1];
        for t in &facets {
            for &v in t {
                vertex_start[v as usize + 1] += 1;
            }
        }
        for v in 0..nv {
            vertex_start[v + 1] += vertex_start[v];
        }
        let mut fill = vertex_start.clone();
        let mut vertex_facets = vec![0u32; 3 * facets.len()];
        for (f, t) in facets.iter().enumerate() {
            for &v in t {
                vertex_facets[fill[v as usize] as usize] = f as u32;
                fill[v as usize] += 1;
            }
        }
        Ok(Mesh {
            vertices,
            facets,
            edge_neighbour,
            vertex_facets,
            vertex_start,
        })
    }

    /// Number of facets.
    pub fn len(&self) -> usize {
        self.facets.len()
    }

    /// True when there is no facet (never, for a validated mesh).
    pub fn is_empty(&self) -> bool {
        self.facets.is_empty()
    }

    /// The three corners of facet `f` (world frame), m.
    #[inline]
    pub fn corners(&self, f: usize) -> [Vec3; 3] {
        // (written out: `array::map` went through the stack, and the wall phase waited for
        // its stores)
        let [a, b, c] = self.facets[f];
        [
            self.vertices[a as usize],
            self.vertices[b as usize],
            self.vertices[c as usize],
        ]
    }

    /// The unit normal of facet `f` by the right-hand rule.
    #[inline]
    pub fn normal(&self, f: usize) -> Vec3 {
        let p = self.corners(f);
        (p[1] - p[0]).cross(&(p[2] - p[1])).normalize()
    }

    /// The facets that use vertex `v`.
    #[inline]
    pub fn facets_of_vertex(&self, v: u32) -> &[u32] {
        &self.vertex_facets
            [self.vertex_start[v as usize] as usize..self.vertex_start[v as usize + 1] as usize]
    }
}
