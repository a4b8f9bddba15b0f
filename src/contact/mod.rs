//! Contacts between pieces: the persistent lists, the geometry of each pair of shapes, and the
//! resolution of ball-wall contacts.

pub mod associative;
pub mod ball_ball;
pub mod ball_facet;
mod contacts;
pub mod disk_disk;
mod facet_contacts;
mod frame;
pub mod full;
mod ledger;
mod merge;
mod pair;
mod partition;
mod sphere_pair;

pub use contacts::Contacts;
pub(crate) use contacts::Moving;
pub use facet_contacts::{
    carry_on_surface, FacetContact, FacetContacts, FullStats, WallInteraction,
};
pub use frame::{initial_axes, swap_local, Frame, FrameFlags, FrameStep};
pub(crate) use merge::{apply_plan, merge_plan, merge_sorted, side, Slot};
pub use pair::{pair_key, Contact, NO_LAW};
pub use partition::Partition;
