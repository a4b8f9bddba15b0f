//! The state each stage of the cycle takes, cut from the model: a stage names what it reads
//! (shared borrows, copies) and what it writes (exclusive borrows), and never the whole model.

use super::Model;
use crate::force::Forces;
use crate::math::Vec3;

impl Model {
    /// The force pass's state ([`Forces`]).
    pub fn forces(&mut self) -> Forces<'_> {
        let fused = self.fuses_stiffness();
        Forces {
            balls: &mut self.balls,
            clumps: &mut self.clumps,
            contacts: &mut self.contacts,
            facet_contacts: &mut self.facet_contacts,
            walls: &self.walls,
            laws: &self.laws,
            rolling: &self.rolling,
            cohesion: &self.cohesion,
            flags: self.settings.frame,
            planar: self.planar,
            books: self.books.is_some(),
            cycles: self.cycles,
            fused,
            dof_stiffness: &mut self.dof_stiffness,
            interpenetrating: &mut self.interpenetrating,
            phases: self.phases.as_mut(),
        }
    }

    /// Force-displacement ([`Forces::run`]): each contact's geometry and force, then the
    /// resultant force and moment of each body, the same for any number of threads.
    pub fn force_displacement(&mut self, dt: f64) {
        self.forces().run(dt);
    }

    /// The ball-facet contacts of the general loop alone (for `cargo bench`: the wall part of
    /// the force pass).
    pub fn wall_forces(&mut self, dt: f64) {
        self.forces().wall_forces(dt);
    }

    /// True when the force-displacement runs in one pass ([`crate::force::one_pass`]).
    pub(crate) fn one_pass(&self) -> bool {
        crate::force::one_pass(
            self.planar,
            self.books.is_some(),
            &self.rolling,
            &self.cohesion,
        )
    }

    /// The resultant contact force and moment on wall `w` (about its pivot), N and N m
    /// ([`crate::force::wall_resultant`]).
    pub fn wall_resultant(&self, w: usize) -> (Vec3, Vec3) {
        crate::force::wall_resultant(&self.walls[w], &self.facet_contacts, w)
    }
}
