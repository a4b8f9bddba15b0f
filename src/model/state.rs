//! The model: everything the cycle reads and writes.

use crate::body::{BallSpec, Balls, Clumps, Material, ModelError, Wall};
use crate::contact::{Contacts, FacetContacts, NO_LAW};
use crate::detect::BroadPhase;
use crate::law::ContactModel;
use crate::math::{Real, Vec3};
use crate::phases::Phases;
use crate::timestep::TimestepMode;

/// Settings that apply to the whole model.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Settings {
    /// Gravitational acceleration, m/s^2.
    pub gravity: Vec3,
    /// Extent enlargement, m: contacts exist before pieces touch.
    pub margin: Real,
    /// How the timestep of each cycle is chosen.
    pub timestep: TimestepMode,
    /// Approximation flags and branch vectors of the local contact frames (seed 002).
    pub frame: crate::contact::FrameFlags,
}

/// The state of a DEM model.
///
/// # Examples
/// Two balls of 1 cm falling freely for 100 cycles:
/// ```
/// use ballast::body::{BallSpec, Material};
/// use ballast::model::{Model, Settings};
/// use ballast::math::Vec3;
/// use ballast::timestep::TimestepMode;
/// let mut model = Model::new(Settings {
///     gravity: Vec3::new(0.0, 0.0, -9.81),
///     margin: 1e-4,
///     timestep: TimestepMode::Fixed(1e-4),
///     frame: Default::default(),
/// });
/// let glass = model.add_material(Material { name: "glass".into(), density: 2500.0, young: 0.0, poisson: 0.0 });
/// model.add_ball(&BallSpec::at_rest(1, [0.0, 0.0, 0.0], 0.01, glass)).unwrap();
/// for _ in 0..100 { model.cycle().unwrap(); }
/// let z = model.balls.pos[0].z;
/// assert!((z - (-0.5 * 9.81 * 0.01f64.powi(2))).abs() < 1e-12);
/// ```
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Model {
    /// Model-wide settings.
    pub settings: Settings,
    /// Materials, indexed by the pieces' material index.
    pub materials: Vec<Material>,
    /// Contact models.
    pub laws: Vec<ContactModel>,
    /// The rolling resistance of each contact model (aligned with `laws`; None: no couple).
    pub rolling: Vec<Option<crate::law::Rolling>>,
    /// The cohesion of each contact model (aligned with `laws`; None: no attraction).
    #[serde(default)]
    pub cohesion: Vec<Option<crate::law::Cohesion>>,
    /// Contact model of each ordered pair of materials: `pair_law[a * n + b]`, or [`NO_LAW`].
    pub pair_law: Vec<u16>,
    /// The balls, and the pebbles of the clumps (pieces that [`Balls::is_pebble`] marks).
    pub balls: Balls,
    /// The clumps: rigid bodies whose pebbles are pieces in `balls`.
    pub clumps: Clumps,
    /// The contacts between balls.
    pub contacts: Contacts,
    /// The faceted walls.
    pub walls: Vec<Wall>,
    /// The contacts between balls and wall facets, and the ball-wall interactions.
    pub facet_contacts: FacetContacts,
    /// Broad-phase buffers.
    pub broad_phase: BroadPhase,
    /// Simulated time, s.
    pub time: Real,
    /// Number of cycles done.
    pub cycles: u64,
    /// Timestep of the last cycle, s (0 before the first).
    pub last_dt: Real,
    /// What set the timestep of the last cycle.
    pub dt_limit: crate::timestep::Limit,
    /// Per-DOF stiffness buffers of the automatic timestep and timestep scaling.
    pub(crate) dof_stiffness: crate::timestep::DofStiffness,
    /// True once contacts and forces have been computed for the current positions.
    pub(crate) primed: bool,
    /// Wall time spent in each phase of the cycle, when measured ([`Phases`]; `ballast bench`).
    pub phases: Option<Phases>,
    /// The 2D disk mode (`dim = 2`): disks in the plane z = 0 with the DOFs x, y, rz (see
    /// [`Model::set_planar`]).
    pub planar: bool,
    /// Set by the force update when an active contact overlaps by more than the smaller radius
    /// (or not finitely): the interpenetration check then scans the contacts.
    pub(crate) interpenetrating: bool,
    /// Renumber the balls along a space-filling curve at the first rebuild of the broad
    /// phase at least this many cycles after the last renumbering (0: never; `[run]
    /// sort_every`, `Model::sort_balls`, src/detect/sort.rs). Ignored when [`Model::can_sort_balls`] is false.
    pub sort_every: u64,
    /// The order of a renumbering (`[run] sort_order`; rows of cells unless set).
    pub sort_order: crate::detect::SortOrder,
    /// The cycle of the last renumbering.
    pub(crate) last_sort: Option<u64>,
    /// The renumbering's work arrays, kept from one renumbering to the next (made once:
    /// arrays of a ball count made and freed every thousand cycles leave holes in the heap
    /// that stay resident; not kept in a checkpoint).
    #[serde(skip)]
    pub(crate) sort_scratch: crate::detect::Scratch,
    /// The energy books, when kept ([`Model::keep_energy_books`]).
    pub(crate) books: Option<super::EnergyBooks>,
    /// Every ball and clump id in use (a repeated id is found in O(1), not by a scan);
    /// written in increasing order.
    #[serde(serialize_with = "crate::storage::sorted_ids")]
    pub(crate) ids: crate::storage::IdSet,
    /// Insertions and outlets: balls that enter and leave during the run (`cycle/exchange.rs`).
    pub flow: crate::flow::Flow,
    /// Measurement regions (`[[measure]]`; what they measure: `output/measure.rs`).
    pub measures: Vec<Measure>,
    /// In a periodic cell, the sum of mass times displacement of every jump of a body back into
    /// the cell (kg m): the potential energy adds `g . wrapped`, so that a ball falling
    /// through a face along gravity keeps the energy it had ([`Model::potential_energy`]).
    pub(crate) wrapped: Vec3,
    /// Under Lees-Edwards shear with the energy books: the velocity jumps of this cycle's
    /// bodies brought back through a face of the gradient axis (booked and cleared by the books).
    pub(crate) jumps: Vec<crate::detect::Jump>,
}

/// A measurement region: the bodies whose reference point (a ball's centre, a clump's
/// centroid) lies in the zone, or every body.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Measure {
    /// Unique name (series `measure/<name>/...`).
    pub name: String,
    /// The zone, or None: everything.
    pub zone: Option<crate::geom::Zone>,
}

impl Model {
    /// An empty model.
    pub fn new(settings: Settings) -> Self {
        Model {
            settings,
            materials: Vec::new(),
            laws: Vec::new(),
            rolling: Vec::new(),
            cohesion: Vec::new(),
            pair_law: Vec::new(),
            balls: Balls::default(),
            clumps: Clumps::default(),
            contacts: Contacts::default(),
            walls: Vec::new(),
            facet_contacts: FacetContacts::default(),
            broad_phase: BroadPhase::default(),
            time: 0.0,
            cycles: 0,
            last_dt: 0.0,
            dt_limit: Default::default(),
            dof_stiffness: Default::default(),
            primed: false,
            phases: None,
            interpenetrating: false,
            planar: false,
            sort_every: 0,
            sort_order: Default::default(),
            last_sort: None,
            sort_scratch: Default::default(),
            books: None,
            ids: Default::default(),
            flow: Default::default(),
            measures: Vec::new(),
            wrapped: Vec3::zeros(),
            jumps: Vec::new(),
        }
    }

    /// Switches to the 2D disk mode (before any body is added): every ball is then a disk of
    /// unit thickness in the plane z = 0, with mass `rho pi r^2` (kg per metre of thickness) and
    /// moment of inertia `m r^2 / 2` unless given, and its out-of-plane DOFs (z, rx, ry) fixed;
    /// ball-ball contacts use the 2D force-displacement law ([`crate::contact::disk_disk::update_2d`]).
    pub fn set_planar(&mut self) {
        self.planar = true;
    }

    /// Adds a material; returns its index.
    pub fn add_material(&mut self, m: Material) -> usize {
        let n = self.materials.len();
        let mut table = vec![NO_LAW; (n + 1) * (n + 1)];
        for a in 0..n {
            for b in 0..n {
                table[a * (n + 1) + b] = self.pair_law[a * n + b];
            }
        }
        self.pair_law = table;
        self.materials.push(m);
        n
    }

    /// Assigns a contact model to a pair of materials (both orders).
    pub fn set_contact_model(&mut self, a: usize, b: usize, law: ContactModel) {
        self.set_contact_law(a, b, law, (None, None));
    }

    /// Assigns a contact model, a rolling resistance and a cohesion to a pair of materials
    /// (both orders).
    pub fn set_contact_law(
        &mut self,
        a: usize,
        b: usize,
        law: ContactModel,
        (rolling, cohesion): (Option<crate::law::Rolling>, Option<crate::law::Cohesion>),
    ) {
        let n = self.materials.len();
        let found = (0..self.laws.len()).position(|i| {
            self.laws[i] == law && self.rolling[i] == rolling && self.cohesion[i] == cohesion
        });
        let idx = match found {
            Some(i) => i,
            None => {
                self.laws.push(law);
                self.rolling.push(rolling);
                self.cohesion.push(cohesion);
                self.laws.len() - 1
            }
        } as u16;
        self.pair_law[a * n + b] = idx;
        self.pair_law[b * n + a] = idx;
        self.primed = false;
    }

    /// True when some contact model has a rolling resistance (the contacts then carry couples:
    /// the general force loops).
    pub fn has_rolling(&self) -> bool {
        self.rolling.iter().any(Option::is_some)
    }

    /// True when some contact model has a cohesion (the general force loops).
    pub fn has_cohesion(&self) -> bool {
        self.cohesion.iter().any(Option::is_some)
    }

    /// The contact model of a pair of materials.
    pub fn contact_model(&self, a: usize, b: usize) -> Option<&ContactModel> {
        let l = self.pair_law[a * self.materials.len() + b];
        (l != NO_LAW).then(|| &self.laws[l as usize])
    }

    /// Adds a ball; returns its index ([`Balls::add`] checks it).
    ///
    /// # Errors
    /// A radius or density that is not positive, a non-finite value, a repeated id, or an
    /// unknown material.
    pub fn add_ball(&mut self, spec: &BallSpec) -> Result<usize, ModelError> {
        let planar = self.planar;
        let i = (self.balls).add(spec, &self.materials, &mut self.ids, planar);
        self.primed = false;
        i
    }
}
