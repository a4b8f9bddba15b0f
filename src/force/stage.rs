//! The force pass's state ([`Forces`]: what it reads and writes) and the pass itself
//! ([`Forces::run`]): the one-pass loop or the general loop with its gather, then the walls.

use crate::body::{Balls, Clumps, Wall};
use crate::contact::{Contacts, FacetContacts, FrameFlags};
use crate::law::{Cohesion, ContactModel, Rolling};
use crate::phases::{Lap, Phases};
use crate::timestep::DofStiffness;

/// What the force pass reads and writes.
pub struct Forces<'a> {
    /// Reads positions, velocities, masses; writes each ball's resultant force and moment.
    pub balls: &'a mut Balls,
    /// Writes each clump's resultant from its pebbles'.
    pub clumps: &'a mut Clumps,
    /// Ball-ball contacts: their state, frames and kept forces are written.
    pub contacts: &'a mut Contacts,
    /// Ball-facet contacts: likewise.
    pub facet_contacts: &'a mut FacetContacts,
    /// The walls (read: mesh, pose, motion).
    pub walls: &'a [Wall],
    /// The contact models, by law index.
    pub laws: &'a [ContactModel],
    /// The rolling resistance of each law, if any.
    pub rolling: &'a [Option<Rolling>],
    /// The cohesion of each law, if any.
    pub cohesion: &'a [Option<Cohesion>],
    /// The local contact frames' approximation flags.
    pub flags: FrameFlags,
    /// 2D disks.
    pub planar: bool,
    /// Energy books are kept: every contact reports what it lost (the general loop).
    pub books: bool,
    /// Cycles run so far (0: bonds are made in this pass).
    pub cycles: u64,
    /// The pass also sums the automatic timestep's per-ball stiffness for the next cycle
    /// (see `Model::fuses_stiffness`).
    pub fused: bool,
    /// Where those sums go.
    pub dof_stiffness: &'a mut DofStiffness,
    /// Written: true when an active contact overlaps by more than the smaller radius.
    pub interpenetrating: &'a mut bool,
    /// The stages' clock, when measured.
    pub phases: Option<&'a mut Phases>,
}

/// True when the force-displacement runs in one pass (3D, no energy books, no rolling
/// resistance, no cohesion), else the general loop and its gather (which read the contacts'
/// kept points and losses: [`crate::contact::Contacts::gathered`]).
pub fn one_pass(
    planar: bool,
    books: bool,
    rolling: &[Option<Rolling>],
    cohesion: &[Option<Cohesion>],
) -> bool {
    !planar && !books && rolling.iter().all(Option::is_none) && cohesion.iter().all(Option::is_none)
}

impl Forces<'_> {
    /// True when some contact model has a rolling resistance.
    pub(super) fn has_rolling(&self) -> bool {
        self.rolling.iter().any(Option::is_some)
    }

    /// Force-displacement: each contact's geometry and force (in parallel over contacts), then
    /// the resultant force and moment of each body, gathered in contact order so that the
    /// result is the same for any number of threads.
    pub fn run(mut self, dt: f64) {
        let mut clock = Lap::start(self.phases.take());
        // (with energy books, the general loop: it reports what each contact lost; with rolling
        // resistance too: it keeps the couples)
        if one_pass(self.planar, self.books, self.rolling, self.cohesion) {
            // forces and their sums into the balls in one loop (the ball-ball contacts, then
            // the ball-wall interactions of the same balls): no gather
            let walls = self.range_forces(dt, clock.phases());
            clock.lap(|p| &mut p.contacts);
            if let (Some(p), Some(w)) = (clock.phases(), walls) {
                // (the wall part as range 0's thread measured it: all of it on one thread)
                p.contacts -= w;
                p.walls += w;
            }
        } else {
            // (the contact points and losses, kept by the merge for this loop)
            self.contacts.keep_gathered();
            self.general_forces(dt);
            clock.lap(|p| &mut p.contacts);
            self.gather();
            clock.lap(|p| &mut p.gather);
            self.wall_forces(dt);
        }
        if !self.clumps.is_empty() {
            self.clumps.gather(self.balls);
        }
        clock.lap(|p| &mut p.walls);
    }
}
