//! The global stiffness and mass of a model: every free DOF of every ball, every active contact.
//!
//! DOFs fixed by the user are removed (they have infinite mass: their rows and columns drop out
//! of `K phi = omega^2 M phi`). `K` is kept as one 12x12 block per active contact, which is all a
//! matrix-vector product needs; [`GlobalStiffness::dense_scaled`] forms the dense
//! `A = M^-1/2 K M^-1/2` for small models.

use super::contact::{contact_matrix_3d, Matrix12};
use crate::law::ContactStiffness;
use crate::math::Real;
use crate::math::Vec3;
use crate::model::Model;
use crate::springs::{ball_stiffness, counted_contacts, wall_stiffness};
use nalgebra::{DMatrix, DVector};

/// What the stiffness matrix of one contact needs: the two body indices ([`Model::body_of`];
/// `a` is `None` for a wall, which has no DOF), the contact model's stiffnesses at the current
/// overlap, the normal and the lever arms `x_c - x_a`, `x_c - x_b` from each body's reference
/// point (a ball's centre, a clump's centroid: a pebble's contact acts on its clump through the
/// lever arm from the centroid).
pub(crate) struct Term {
    pub a: Option<usize>,
    pub b: usize,
    pub s: ContactStiffness,
    pub normal: Vec3,
    pub r_a: Vec3,
    pub r_b: Vec3,
}

/// The stiffness terms of a model's contacts: the active ones, and with `with_inactive` also
/// those within the margin that do not touch yet. For a ball and a wall: the active contacts,
/// or (with `with_inactive`, none being active) the contact with the largest overlap, the one
/// the associative logic would make active first; contacts it deactivates carry no stiffness.
pub(crate) fn terms(model: &Model, with_inactive: bool) -> impl Iterator<Item = Term> + '_ {
    ball_terms(model, with_inactive).chain(wall_terms(model, with_inactive))
}

/// The ball-ball part of [`terms`] (which yields these first, then [`wall_terms`]).
pub(crate) fn ball_terms(model: &Model, with_inactive: bool) -> impl Iterator<Item = Term> + '_ {
    (model.contacts.list.iter().enumerate())
        .filter(move |(_, c)| c.active || with_inactive)
        .map(move |(k, _)| ball_term(model, k, with_inactive))
}

/// The term of ball-ball contact `k` of the list ([`terms`]).
#[inline]
pub(crate) fn ball_term(model: &Model, k: usize, with_inactive: bool) -> Term {
    let c = &model.contacts.list[k];
    let (a, b) = (c.a as usize, c.b as usize);
    let g = model.contacts.geometry(k, &model.balls);
    let (ba, bb) = (model.body_of(a), model.body_of(b));
    let cell = model.balls.cell.as_ref();
    Term {
        a: Some(ba),
        b: bb,
        s: ball_stiffness(&model.springs(), c.law, a, b, &g, with_inactive),
        normal: g.normal,
        r_a: crate::geom::nearest(cell, g.point - model.body_pos(ba)),
        r_b: crate::geom::nearest(cell, g.point - model.body_pos(bb)),
    }
}

/// The ball-facet part of [`terms`] (which yields the ball-ball terms first, then these).
pub(crate) fn wall_terms(model: &Model, with_inactive: bool) -> impl Iterator<Item = Term> + '_ {
    (model.facet_contacts.interactions.iter())
        .flat_map(move |it| interaction_terms(model, it, with_inactive))
}

/// The terms of one ball-wall interaction ([`wall_terms`]): the active contacts, or (with
/// `with_inactive`, none being active) the contact with the largest overlap, the one the
/// associative logic would make active first.
pub(crate) fn interaction_terms<'a>(
    model: &'a Model,
    it: &'a crate::contact::WallInteraction,
    with_inactive: bool,
) -> impl Iterator<Item = Term> + 'a {
    let fc = &model.facet_contacts;
    let springs = model.springs();
    counted_contacts(fc.contacts_of(it), it, with_inactive).map(move |c| {
        let b = c.ball as usize;
        let body = model.body_of(b);
        Term {
            a: None,
            b: body,
            s: wall_stiffness(&springs, c, with_inactive),
            normal: c.normal,
            r_a: Vec3::zeros(),
            r_b: c.point - model.body_pos(body),
        }
    })
}

impl Term {
    /// The 12x12 stiffness matrix over the two bodies' DOFs: world axes for balls; for a
    /// clump, translations along the world axes and rotations about its principal axes
    /// (`θ_world = R θ'`, so the block is `Tᵀ K T` with `T = diag(I, R)`), where its mass
    /// matrix is diagonal.
    pub(crate) fn matrix(&self, model: &Model) -> Matrix12 {
        let mut k = contact_matrix_3d(&self.s, &self.normal, &self.r_a, &self.r_b);
        let axes = [
            self.a.and_then(|a| model.body_axes(a)),
            model.body_axes(self.b),
        ];
        for (side, r) in axes.iter().enumerate() {
            let Some(r) = r else { continue };
            let o = 6 * side + 3;
            // columns then rows of the rotational DOFs of this side
            let cols = k.columns(o, 3) * r;
            k.columns_mut(o, 3).copy_from(&cols);
            let rows = r.transpose() * k.rows(o, 3);
            k.rows_mut(o, 3).copy_from(&rows);
        }
        k
    }

    /// True when a side is a clump (whose rotational DOFs are not the world axes).
    pub(crate) fn has_clump(&self, model: &Model) -> bool {
        let n = model.balls.len();
        self.b >= n || self.a.is_some_and(|a| a >= n)
    }
}

/// Marks a fixed DOF in [`DofMap::index`].
pub const FIXED: u32 = u32::MAX;

/// Numbering of the free DOFs of a model.
#[derive(Clone, Debug, Default)]
pub struct DofMap {
    /// For each body ([`Model::body_of`]: pieces, then clumps), the global index of its DOFs
    /// `(x, y, z, rx, ry, rz)` (a clump's rotations about its principal axes), or [`FIXED`].
    pub index: Vec<[u32; 6]>,
    /// Mass (kg) or moment of inertia (kg m^2) of each free DOF: the inertial values.
    pub mass: Vec<Real>,
    /// The body and local DOF (0..6) of each free DOF.
    pub owner: Vec<(u32, u8)>,
}

impl DofMap {
    /// Numbers the free DOFs of every body of the model.
    pub fn new(model: &Model) -> Self {
        let mut map = DofMap::default();
        for i in 0..model.body_count() {
            let mut idx = [FIXED; 6];
            let fixed = model.body_fixed(i);
            for (k, slot) in idx.iter_mut().enumerate() {
                if fixed & (1 << k) == 0 {
                    *slot = map.mass.len() as u32;
                    map.mass.push(model.body_inertial(i, k));
                    map.owner.push((i as u32, k as u8));
                }
            }
            map.index.push(idx);
        }
        map
    }

    /// Number of free DOFs.
    pub fn len(&self) -> usize {
        self.mass.len()
    }

    /// True when no DOF is free.
    pub fn is_empty(&self) -> bool {
        self.mass.is_empty()
    }
}

/// The assembled stiffness of a model: one block per active contact.
#[derive(Clone, Debug)]
pub struct GlobalStiffness {
    /// The DOF numbering.
    pub dofs: DofMap,
    /// Per active contact: ball a ([`FIXED`] for a wall), ball b and the 12x12 matrix over
    /// their DOFs.
    pub blocks: Vec<(u32, u32, Matrix12)>,
}

impl GlobalStiffness {
    /// Assembles the active contacts of the model at its current state.
    pub fn assemble(model: &Model) -> Self {
        let dofs = DofMap::new(model);
        let blocks = terms(model, false)
            .map(|t| {
                let k = t.matrix(model);
                (t.a.map_or(FIXED, |a| a as u32), t.b as u32, k)
            })
            .collect();
        GlobalStiffness { dofs, blocks }
    }

    /// Global indices of the 12 DOFs of a block (FIXED where fixed).
    fn block_dofs(&self, a: u32, b: u32) -> [u32; 12] {
        let mut g = [FIXED; 12];
        if a != FIXED {
            g[..6].copy_from_slice(&self.dofs.index[a as usize]);
        }
        g[6..].copy_from_slice(&self.dofs.index[b as usize]);
        g
    }

    /// The dense stiffness matrix `K` over the free DOFs, N/m, N, N m/rad.
    pub fn dense(&self) -> DMatrix<Real> {
        let n = self.dofs.len();
        let mut k = DMatrix::zeros(n, n);
        for (a, b, m) in &self.blocks {
            let g = self.block_dofs(*a, *b);
            for (i, &gi) in g.iter().enumerate().filter(|(_, &gi)| gi != FIXED) {
                for (j, &gj) in g.iter().enumerate().filter(|(_, &gj)| gj != FIXED) {
                    k[(gi as usize, gj as usize)] += m[(i, j)];
                }
            }
        }
        k
    }

    /// The dense mass-scaled matrix `A = M^-1/2 K M^-1/2`, 1/s^2: its eigenvalues are
    /// `omega^2` of `K phi = omega^2 M phi`.
    pub fn dense_scaled(&self) -> DMatrix<Real> {
        let mut k = self.dense();
        let s: Vec<Real> = self.dofs.mass.iter().map(|m| 1.0 / m.sqrt()).collect();
        for j in 0..k.ncols() {
            for i in 0..k.nrows() {
                k[(i, j)] *= s[i] * s[j];
            }
        }
        k
    }

    /// `y = A x` with `A = M^-1/2 K M^-1/2`, without forming `A`.
    pub fn apply_scaled(&self, x: &DVector<Real>, y: &mut DVector<Real>) {
        y.fill(0.0);
        let s: Vec<Real> = self.dofs.mass.iter().map(|m| 1.0 / m.sqrt()).collect();
        for (a, b, m) in &self.blocks {
            let g = self.block_dofs(*a, *b);
            let mut xl = [0.0; 12];
            for (i, &gi) in g.iter().enumerate() {
                if gi != FIXED {
                    xl[i] = x[gi as usize] * s[gi as usize];
                }
            }
            for (i, &gi) in g.iter().enumerate() {
                if gi != FIXED {
                    let row: Real = (0..12).map(|j| m[(i, j)] * xl[j]).sum();
                    y[gi as usize] += row * s[gi as usize];
                }
            }
        }
    }
}
