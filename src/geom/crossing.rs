//! Facets of one mesh that cross each other: a wall whose sheets pass through one another
//! holds a ball between them. Found with a grid over the facets' boxes (each pair that shares
//! a cell tested once), not over all pairs.
//!
//! Only a proper crossing counts: an edge of one facet passing through the inside of the
//! other, its ends strictly on both sides of the other's plane. Facets that share an edge or a
//! vertex, a vertex resting on another facet or an edge lying in its plane touch, and are
//! legitimate. (Two facets overlapping in one plane are not detected.)

use crate::math::{Real, Vec3};

/// Relative tolerance (of the longest edge of the two facets) of "strictly on one side" and
/// "strictly inside".
const EPS: Real = 1e-9;

/// The first pair of facets `(f, g)`, `f < g`, that cross each other, if any. Facets must
/// index `vertices`.
pub fn crossing_facets(vertices: &[Vec3], facets: &[[u32; 3]]) -> Option<(usize, usize)> {
    let tri = |f: usize| facets[f].map(|i| vertices[i as usize]);
    let boxes: Vec<(Vec3, Vec3)> = (0..facets.len())
        .map(|f| {
            let [a, b, c] = tri(f);
            (a.inf(&b).inf(&c), a.sup(&b).sup(&c))
        })
        .collect();
    let (lo, hi) = boxes
        .iter()
        .fold((boxes.first()?.0, boxes[0].1), |(l, h), b| {
            (l.inf(&b.0), h.sup(&b.1))
        });
    // cell: the mean largest extent of a facet, at least the mesh's extent over 1000 per axis
    let mean = boxes.iter().map(|b| (b.1 - b.0).max()).sum::<Real>() / boxes.len() as Real;
    let h = mean.max((hi - lo).max() / 1000.0);
    if !(h > 0.0 && h.is_finite()) {
        return None;
    }
    let cell = |p: &Vec3| ((p - lo) / h).map(|x| x.floor() as i64);
    // (cell, facet) for every cell a facet's box covers, sorted: each cell's facets in a run
    let mut cells: Vec<([i64; 3], u32)> = Vec::with_capacity(facets.len() * 2);
    for (f, b) in boxes.iter().enumerate() {
        let (c0, c1) = (cell(&b.0), cell(&b.1));
        for i in c0.x..=c1.x {
            for j in c0.y..=c1.y {
                for k in c0.z..=c1.z {
                    cells.push(([i, j, k], f as u32));
                }
            }
        }
    }
    cells.sort_unstable();
    let mut found: Option<(usize, usize)> = None;
    for run in cells.chunk_by(|a, b| a.0 == b.0) {
        let at = run[0].0;
        for (n, &(_, f)) in run.iter().enumerate() {
            for &(_, g) in &run[n + 1..] {
                let (f, g) = (f as usize, g as usize);
                let (bf, bg) = (&boxes[f], &boxes[g]);
                let apart = (0..3).any(|a| bf.1[a] < bg.0[a] || bg.1[a] < bf.0[a]);
                // (each pair in one cell only: the cell of the low corner of the boxes' overlap)
                let c = cell(&bf.0.sup(&bg.0));
                if apart || [c.x, c.y, c.z] != at || found.is_some_and(|p| p <= (f, g)) {
                    continue;
                }
                if shared(&facets[f], &facets[g]) < 2 && crosses(&tri(f), &tri(g)) {
                    found = Some((f, g));
                }
            }
        }
    }
    found
}

/// The number of vertices facets `a` and `b` share.
fn shared(a: &[u32; 3], b: &[u32; 3]) -> usize {
    a.iter().filter(|v| b.contains(v)).count()
}

/// True when an edge of either triangle passes through the inside of the other.
fn crosses(a: &[Vec3; 3], b: &[Vec3; 3]) -> bool {
    let longest = (0..3)
        .flat_map(|k| {
            [
                (a[(k + 1) % 3] - a[k]).norm(),
                (b[(k + 1) % 3] - b[k]).norm(),
            ]
        })
        .fold(0.0, Real::max);
    let eps = EPS * longest;
    (0..3).any(|k| pierces(a[k], a[(k + 1) % 3], b, eps))
        || (0..3).any(|k| pierces(b[k], b[(k + 1) % 3], a, eps))
}

/// True when the segment `p`-`q` has its ends strictly on both sides of triangle `t`'s plane
/// (by more than `eps`) and meets the plane strictly inside `t`.
fn pierces(p: Vec3, q: Vec3, t: &[Vec3; 3], eps: Real) -> bool {
    let n = (t[1] - t[0]).cross(&(t[2] - t[0]));
    let area2 = n.norm();
    if area2 == 0.0 {
        return false;
    }
    let unit = n / area2;
    let (dp, dq) = (unit.dot(&(p - t[0])), unit.dot(&(q - t[0])));
    if !((dp > eps && dq < -eps) || (dp < -eps && dq > eps)) {
        return false;
    }
    let x = p + (q - p) * (dp / (dp - dq));
    // the distance of x inside each edge (positive inside), against eps
    (0..3).all(|k| {
        let (u, v) = (t[k], t[(k + 1) % 3]);
        unit.cross(&(v - u)).dot(&(x - u)) / (v - u).norm() > eps
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(x: Real, y: Real, z: Real) -> Vec3 {
        Vec3::new(x, y, z)
    }

    #[test]
    fn two_sheets_through_each_other_cross_and_neighbours_do_not() {
        // a square in z = 0 (facets 0, 1) and a triangle standing through it (facet 2)
        let mut verts = vec![v(0., 0., 0.), v(1., 0., 0.), v(1., 1., 0.), v(0., 1., 0.)];
        let mut facets = vec![[0, 1, 2], [0, 2, 3]];
        assert_eq!(crossing_facets(&verts, &facets), None);
        verts.extend([v(0.2, 0.5, -0.5), v(0.8, 0.5, -0.5), v(0.5, 0.5, 0.5)]);
        facets.push([4, 5, 6]);
        assert_eq!(crossing_facets(&verts, &facets), Some((0, 2)));
        // resting on the square (a vertex on it, an edge in its plane): touching only
        let touching = [v(0.2, 0.6, 0.0), v(0.8, 0.6, 0.0), v(0.5, 0.6, 0.5)];
        verts.truncate(4);
        verts.extend(touching);
        assert_eq!(crossing_facets(&verts, &facets), None);
    }
}
