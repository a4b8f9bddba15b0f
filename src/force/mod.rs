//! Force-displacement, the fourth stage of the cycle: each contact's geometry and force, then
//! the resultant force and moment of every body, summed in contact order so that the result
//! is the same for any number of threads.

mod balls;
mod ranges;
mod walls;

use crate::model::Model;

impl Model {
    /// True when the force-displacement runs in one pass ([`Model::range_forces`]: 3D, no
    /// energy books, no rolling resistance, no cohesion), else the general loop and its gather
    /// (which read the contacts' kept points and losses: [`crate::contact::Contacts::gathered`]).
    pub(crate) fn one_pass(&self) -> bool {
        !self.planar && self.books.is_none() && !self.has_rolling() && !self.has_cohesion()
    }

    /// Force-displacement: each contact's geometry and force (in parallel over contacts), then
    /// the resultant force and moment of each body, gathered in contact order so that the
    /// result is the same for any number of threads.
    pub fn force_displacement(&mut self, dt: f64) {
        let t = self.clock();
        // (with energy books, the general loop: it reports what each contact lost; with rolling
        // resistance too: it keeps the couples)
        let one_pass = self.one_pass();
        let t = if one_pass {
            // forces and their sums into the balls in one loop (the ball-ball contacts, then
            // the ball-wall interactions of the same balls): no gather
            let walls = self.range_forces(dt);
            let t = self.lap(t, |p| &mut p.contacts);
            if let (Some(p), Some(w)) = (self.phases.as_mut(), walls) {
                // (the wall part as range 0's thread measured it: all of it on one thread)
                p.contacts -= w;
                p.walls += w;
            }
            t
        } else {
            // (the contact points and losses, kept by the merge for this loop)
            self.contacts.keep_gathered();
            self.general_forces(dt);
            let t = self.lap(t, |p| &mut p.contacts);
            self.gather();
            let t = self.lap(t, |p| &mut p.gather);
            self.wall_forces(dt);
            t
        };
        if !self.clumps.is_empty() {
            self.clumps.gather(&self.balls);
        }
        self.lap(t, |p| &mut p.walls);
    }
}
