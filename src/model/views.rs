//! The state each stage of the cycle takes, cut from the model: a stage names what it reads
//! (shared borrows, copies) and what it writes (exclusive borrows), and never the whole model.

use super::Model;
use crate::detect::Detection;
use crate::flow::Exchange;
use crate::force::Forces;
use crate::math::{Real, Vec3};
use crate::motion::Motion;
use crate::timestep::{Estimator, Timestep, TimestepMode};

impl Model {
    /// The exchange of balls' state ([`Exchange`]: outlets, then insertions).
    pub fn exchange(&mut self) -> Exchange<'_> {
        Exchange {
            flow: &mut self.flow,
            balls: &mut self.balls,
            clumps: &mut self.clumps,
            contacts: &mut self.contacts,
            facet_contacts: &mut self.facet_contacts,
            ids: &mut self.ids,
            walls: &self.walls,
            laws: &self.laws,
            materials: &self.materials,
            gravity: self.settings.gravity,
            time: self.time,
            cycles: self.cycles,
            last_dt: self.last_dt,
        }
    }

    /// The timestep stage's state ([`Timestep`]).
    pub fn timestep(&mut self) -> Timestep<'_> {
        Timestep {
            mode: &self.settings.timestep,
            balls: &mut self.balls,
            clumps: &mut self.clumps,
            walls: &self.walls,
            laws: &self.laws,
            pair_law: &self.pair_law,
            materials: self.materials.len(),
            gravity: self.settings.gravity,
            last_dt: self.last_dt,
            cycles: self.cycles,
            dof_stiffness: &self.dof_stiffness,
            dt_limit: &mut self.dt_limit,
            among: None,
        }
    }

    /// True when the force pass sums the automatic timestep's diagonal stiffness for the next
    /// cycle ([`crate::springs`]' `add_ball_diagonals_lanes`, in the one-pass loop of
    /// src/force/ranges.rs, where each contact's balls are in cache): the automatic mode with
    /// the diagonal estimator when the next cycle chooses its step ([`Auto::chooses_at`]), no
    /// clump (each ball its own body), and no programmed wall (whose velocity, which the
    /// foresight of a closing contact reads, changes before the next step is chosen).
    pub(crate) fn fuses_stiffness(&self) -> bool {
        matches!(&self.settings.timestep, TimestepMode::Auto(a)
            if a.estimator == Estimator::Diagonal && a.chooses_at(self.cycles))
            && self.clumps.is_empty()
            && self.walls.iter().all(|w| w.program.is_none())
    }

    /// The law of motion's state ([`Motion`]).
    pub fn motion(&mut self) -> Motion<'_> {
        // (the law of motion makes the broad phase's displacement test, unless clumps move
        // their pebbles after it; for the cell of this step, deformed before it)
        let walls = !self.walls.is_empty();
        let bp = &self.broad_phase;
        let reference = (self.clumps.is_empty())
            .then(|| {
                let tolerance = bp.tolerance(self.balls.cell.as_ref(), walls, self.settings.margin);
                bp.reference(self.balls.len(), tolerance)
            })
            .flatten();
        let part = &self.contacts.partition;
        Motion {
            balls: &mut self.balls,
            clumps: &mut self.clumps,
            walls: &mut self.walls,
            gravity: self.settings.gravity,
            last_dt: self.last_dt,
            reference,
            // (the force pass's ranges, when it made them for more than one thread)
            ranges: (part.threads > 1).then_some(&part.balls[..]),
        }
    }

    /// Contact detection's state ([`Detection`]).
    pub fn detection(&mut self) -> Detection<'_> {
        Detection {
            balls: &mut self.balls,
            clumps: &mut self.clumps,
            walls: &mut self.walls,
            contacts: &mut self.contacts,
            facet_contacts: &mut self.facet_contacts,
            broad_phase: &mut self.broad_phase,
            sort_every: self.sort_every,
            sort_order: self.sort_order,
            last_sort: &mut self.last_sort,
            sort_scratch: &mut self.sort_scratch,
            laws: &self.laws,
            rolling: &self.rolling,
            cohesion: &self.cohesion,
            pair_law: &self.pair_law,
            materials: self.materials.len(),
            margin: self.settings.margin,
            planar: self.planar,
            books: self.books.is_some(),
            cycles: self.cycles,
            wrapped: &mut self.wrapped,
            jumps: &mut self.jumps,
        }
    }

    /// Contact detection ([`Detection::run`]): rebuild the candidate pairs when needed and
    /// merge them into the persistent contact lists.
    pub fn detect(&mut self) {
        self.detection().run(None);
    }

    /// Gives the contact lists room at once for as many contacts as the balls are likely to
    /// have ([`Detection::make_room`]).
    pub fn make_room(&mut self) {
        self.detection().make_room();
    }

    /// True when the balls may be renumbered ([`Detection::can_sort_balls`]: in 3D).
    pub fn can_sort_balls(&self) -> bool {
        !self.planar
    }

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

    /// The resultant contact force and moment on wall `w` (about its pivot), N and N m
    /// ([`crate::force::wall_resultant`]).
    pub fn wall_resultant(&self, w: usize) -> (Vec3, Vec3) {
        crate::force::wall_resultant(&self.walls[w], &self.facet_contacts, w)
    }

    /// The stiffnesses of a contact of contact model `law` at the given overlap and effective
    /// radius, with its rolling spring's stiffness (if any) added to the bending stiffness
    /// `ks_rot` and its twisting spring's to the twisting stiffness `kn_rot`: what the
    /// stiffness matrix and the automatic timestep see.
    pub fn contact_stiffness(
        &self,
        law: u16,
        overlap: Real,
        radius: Real,
    ) -> crate::law::ContactStiffness {
        self.springs().contact_stiffness(law, overlap, radius)
    }

    /// [`Model::contact_stiffness`] at the overlap the contact can reach while its pieces close
    /// at `approach` (m/s) with effective mass `m_eff` ([`crate::law::ContactModel::foreseen_overlap`]):
    /// what the automatic timestep counts, so that an impact does not meet a step chosen for
    /// the stiffness of a Hertz contact at touching, zero.
    pub fn foreseen_stiffness(
        &self,
        law: u16,
        overlap: Real,
        radius: Real,
        m_eff: Real,
        approach: Real,
    ) -> crate::law::ContactStiffness {
        (self.springs()).foreseen_stiffness(law, overlap, radius, m_eff, approach)
    }

    /// The fields the stiffness of a contact needs ([`crate::springs::Springs`]).
    pub(crate) fn springs(&self) -> crate::springs::Springs<'_> {
        crate::springs::Springs {
            balls: &self.balls,
            laws: &self.laws,
            rolling: &self.rolling,
            walls: &self.walls,
        }
    }
}
