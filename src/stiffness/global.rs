//! The global stiffness and mass of a model: every free DOF of every ball, every active contact.
//!
//! DOFs fixed by the user are removed (they have infinite mass: their rows and columns drop out
//! of `K phi = omega^2 M phi`). `K` is kept as one 12x12 block per active contact, which is all a
//! matrix-vector product needs; [`GlobalStiffness::dense_scaled`] forms the dense
//! `A = M^-1/2 K M^-1/2` for small models.

use super::contact::{contact_matrix_3d, ContactStiffness, Matrix12};
use crate::contact::Contact;
use crate::math::Real;
use crate::math::Vec3;
use crate::model::Model;
use nalgebra::{DMatrix, DVector};

/// What the stiffness matrix of a contact needs: the two ball indices, the contact model's
/// stiffnesses at the current overlap, and the lever arms `x_c - x_a`, `x_c - x_b`.
pub(crate) fn contact_terms(
    model: &Model,
    c: &Contact,
) -> (usize, usize, ContactStiffness, Vec3, Vec3) {
    let (a, b) = (c.a as usize, c.b as usize);
    let s = model.laws[c.law as usize].stiffness(c.overlap);
    let pos = &model.balls.pos;
    (a, b, s, c.point - pos[a], c.point - pos[b])
}

/// Marks a fixed DOF in [`DofMap::index`].
pub const FIXED: u32 = u32::MAX;

/// Numbering of the free DOFs of a model.
#[derive(Clone, Debug, Default)]
pub struct DofMap {
    /// For each ball, the global index of its DOFs `(x, y, z, rx, ry, rz)`, or [`FIXED`].
    pub index: Vec<[u32; 6]>,
    /// Mass (kg) or moment of inertia (kg m^2) of each free DOF: the inertial values.
    pub mass: Vec<Real>,
    /// The ball and local DOF (0..6) of each free DOF.
    pub owner: Vec<(u32, u8)>,
}

impl DofMap {
    /// Numbers the free DOFs of every ball of the model.
    pub fn new(model: &Model) -> Self {
        let b = &model.balls;
        let mut map = DofMap::default();
        for i in 0..b.len() {
            let mut idx = [FIXED; 6];
            for (k, slot) in idx.iter_mut().enumerate() {
                if b.fixed[i] & (1 << k) == 0 {
                    *slot = map.mass.len() as u32;
                    map.mass.push(if k < 3 {
                        b.inertial_mass[i]
                    } else {
                        b.inertial_inertia[i]
                    });
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
    /// Per active contact: ball a, ball b and the 12x12 matrix over their DOFs.
    pub blocks: Vec<(u32, u32, Matrix12)>,
}

impl GlobalStiffness {
    /// Assembles the active contacts of the model at its current state.
    pub fn assemble(model: &Model) -> Self {
        let dofs = DofMap::new(model);
        let b = &model.balls;
        let blocks = model
            .contacts
            .list
            .iter()
            .filter(|c| c.active)
            .map(|c| {
                let (a, bb) = (c.a as usize, c.b as usize);
                let s = model.laws[c.law as usize].stiffness(c.overlap);
                let k =
                    contact_matrix_3d(&s, &c.normal, &(c.point - b.pos[a]), &(c.point - b.pos[bb]));
                (c.a, c.b, k)
            })
            .collect();
        GlobalStiffness { dofs, blocks }
    }

    /// Global indices of the 12 DOFs of a block (FIXED where fixed).
    fn block_dofs(&self, a: u32, b: u32) -> [u32; 12] {
        let mut g = [FIXED; 12];
        g[..6].copy_from_slice(&self.dofs.index[a as usize]);
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
