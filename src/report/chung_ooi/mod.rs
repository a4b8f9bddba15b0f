//! The Chung & Ooi (2011) page (`page.rs`): test 4, the damped sweeps, the Coulomb cone.

mod cone;
mod page;
mod sweep;
mod test4;

pub(super) use page::write_chung_ooi_page;
