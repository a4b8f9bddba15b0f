//! The associative logic of ball-wall contacts (seed 001; "reduced" resolution mode).
//!
//! Rules, for the contacts of one ball with one wall:
//! 1. one contact per facet (shared edges and vertices included);
//! 2. a contact whose wall contact point lies on an edge or a vertex of its facet is *linked*
//!    to the contacts of the facets that share that edge or vertex, when both touch (positive
//!    overlap from an active side);
//! 3. of two linked contacts only the one with the larger overlap can be active.
//!
//! The seed walks the contacts in order of decreasing overlap and, for each, compares it with
//! the contacts it links to; a contact is inactive as soon as it is linked to a larger one, even
//! when that larger one is itself inactive (its Figure 4a: `C_d` is inactive because of `C_c`,
//! which `C_b` deactivates). That result does not depend on the order of the walk, so it is
//! computed here pairwise over the links, without sorting: a touching contact is active unless
//! one of its links (in either direction) reaches a touching contact that ranks higher.
//! Contacts rank by overlap; equal overlaps (a ball exactly over a shared edge or vertex) rank
//! the lower facet number first, so ties are broken the same way on every run.

use super::FacetContact;
use crate::geom::{Mesh, Region, NONE};

/// Resolves which contacts of one ball-wall interaction are active. `contacts` must be the
/// interaction's contacts (sorted by facet) with their geometry up to date.
pub fn resolve(contacts: &mut [FacetContact], mesh: &Mesh) {
    for c in contacts.iter_mut() {
        c.active = c.touching;
    }
    if contacts.len() < 2 {
        return;
    }
    for i in 0..contacts.len() {
        if !contacts[i].touching {
            continue;
        }
        let (f, region) = (contacts[i].facet as usize, contacts[i].region);
        let mut link = |g: u32| {
            if g == NONE || g as usize == f {
                return;
            }
            let Ok(j) = contacts.binary_search_by_key(&g, |c| c.facet) else {
                return;
            };
            if !contacts[j].touching {
                return;
            }
            let loser = if ranks_above(&contacts[i], &contacts[j]) {
                j
            } else {
                i
            };
            contacts[loser].active = false;
        };
        match region {
            Region::Face => {}
            Region::Edge(k) => link(mesh.edge_neighbour[f][k as usize]),
            Region::Vertex(k) => {
                let v = mesh.facets[f][k as usize];
                for &g in mesh.facets_of_vertex(v) {
                    link(g);
                }
            }
        }
    }
}

/// True when contact `a` ranks above `b`: a larger overlap, or the same overlap and a lower
/// facet number.
#[inline]
fn ranks_above(a: &FacetContact, b: &FacetContact) -> bool {
    a.overlap > b.overlap || (a.overlap == b.overlap && a.facet < b.facet)
}
