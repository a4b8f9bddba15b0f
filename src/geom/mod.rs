//! Pure geometry, no state: the closest point of a triangle with its region, triangle meshes
//! with their adjacency and validation, and meshes built from a few numbers.

mod cell;
mod crossing;
mod mesh;
mod region;
mod shapes;
mod triangle;
mod union;

pub use cell::{image, image_motion, nearest, within, Cell, Pressure, Shear};
pub use crossing::crossing_facets;
pub use mesh::{Mesh, MeshError, NONE};
pub use region::{lens_area, quadrant_area, rectangle_area, Zone};
pub use shapes::{closed_box, plane, plane_axes, weld, weld_indexed, RawMesh};
pub use triangle::{
    barycentric, closest_point, segment_crosses, Closest, Region, SEGMENT_END, SNAP,
};
pub use union::{gauss_legendre, union_moments, Moments};
