//! Contact stiffness matrices (seed 000, eqs. 12-27), their global assembly, the exact critical
//! timestep from the largest eigenvalue, and the O(contacts) estimates the timestep modes use.

mod contact;
mod eigen;
mod estimate;
pub(crate) mod global;
pub mod printed;
pub mod study;

pub use crate::law::ContactStiffness;
pub use crate::springs::contact_diagonal_3d;
pub use crate::timestep::dof_name;
pub use contact::{
    contact_columns_3d, contact_matrix_2d, contact_matrix_3d, cross_matrix, Matrix12, Matrix6,
    Triad, DOFS_2D_IN_3D,
};
pub use eigen::{lanczos_max, tridiagonal_max, ExactCritical, Method, DENSE_LIMIT};
pub use estimate::{estimate_critical, CriticalEstimate};
pub use global::{DofMap, GlobalStiffness, FIXED};
