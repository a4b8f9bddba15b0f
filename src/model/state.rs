//! The model: everything the cycle reads and writes.

use crate::body::{
    dof, finite_state, BallSpec, Balls, ClumpSpec, Clumps, Material, ModelError, Wall, WallMotion,
    WallSpec, NO_CLUMP, ROTATIONS,
};
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
    /// that stay resident).
    pub(crate) sort_scratch: crate::detect::Scratch,
    /// The energy books, when kept ([`Model::keep_energy_books`]).
    pub(crate) books: Option<super::EnergyBooks>,
    /// Every ball and clump id in use (a repeated id is found in O(1), not by a scan).
    pub(crate) ids: crate::storage::IdSet,
    /// Insertions and outlets: balls that enter and leave during the run (`cycle/exchange.rs`).
    pub flow: crate::flow::Flow,
    /// Measurement regions (`[[measure]]`; what they measure: `output/measure.rs`).
    pub measures: Vec<Measure>,
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
        }
    }

    /// Switches to the 2D disk mode (before any body is added): every ball is then a disk of
    /// unit thickness in the plane z = 0, with mass `rho pi r^2` (kg per metre of thickness) and
    /// moment of inertia `m r^2 / 2` unless given, and its out-of-plane DOFs (z, rx, ry) fixed;
    /// ball-ball contacts use the 2D force-displacement law ([`crate::contact::ball_ball::update_2d`]).
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

    /// The potential energy of the cohesive forces of the active contacts, J (<= 0; 0 without
    /// cohesion): part of the strain energy.
    pub fn cohesion_energy(&self) -> Real {
        if !self.has_cohesion() {
            return 0.0;
        }
        use crate::law::Pieces;
        let of = |law: u16| self.cohesion.get(law as usize).copied().flatten();
        let b = &self.balls;
        let balls = (self.contacts.list.iter().filter(|c| c.active)).map(|c| {
            of(c.law).map_or(0.0, |coh| {
                let (i, j) = (c.a as usize, c.b as usize);
                let overlap = b.radius[i] + b.radius[j] - (b.pos[j] - b.pos[i]).norm();
                coh.energy(Pieces::Spheres(b.radius[i], b.radius[j]), overlap)
            })
        });
        let walls = (self.facet_contacts.list.iter().filter(|c| c.active)).map(|c| {
            of(c.law).map_or(0.0, |coh| {
                coh.energy(Pieces::Wall(b.radius[c.ball as usize]), c.overlap)
            })
        });
        balls.chain(walls).fold(0.0, |x, y| x + y)
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

    /// Adds a clump and its pebbles; returns its index.
    ///
    /// # Errors
    /// As [`Model::add_ball`] for each pebble, and [`ModelError::BadClump`]: a 2D model, no pebble, rotations
    /// fixed in part, explicit mass properties that are not positive, an inertia tensor that is
    /// not symmetric positive definite.
    pub fn add_clump(&mut self, spec: &ClumpSpec) -> Result<usize, ModelError> {
        let id = spec.id;
        let bad = |reason: String| ModelError::BadClump { id, reason };
        if self.planar {
            return Err(bad("clumps are 3D only (the 2D mode has disks)".into()));
        }
        if spec.pebbles.is_empty() {
            return Err(bad("needs at least one pebble".into()));
        }
        let rot = spec.fixed & ROTATIONS;
        if rot != 0 && rot != ROTATIONS {
            return Err(bad(
                "fix: the rotations of a clump are fixed all three (\"rx\", \"ry\", \"rz\") or not at all"
                    .into(),
            ));
        }
        let Some(mat) = self.materials.get(spec.material) else {
            return Err(ModelError::UnknownMaterial {
                id,
                material: spec.material,
            });
        };
        if !(mat.density.is_finite() && mat.density > 0.0) && spec.mass.is_none() {
            return Err(ModelError::BadDensity {
                name: mat.name.clone(),
                density: mat.density,
            });
        }
        finite_state(id, &spec.pos, &spec.vel, &spec.spin, &spec.applied_force)?;
        for (k, p) in spec.pebbles.iter().enumerate() {
            if !(p.radius.is_finite() && p.radius > 0.0) {
                return Err(bad(format!(
                    "pebble {}: radius {} must be a positive finite number (m)",
                    k + 1,
                    p.radius
                )));
            }
            if !p.offset.iter().all(|x| x.is_finite()) {
                return Err(bad(format!("pebble {}: offset is not finite", k + 1)));
            }
        }
        if let Some(m) = &spec.mass {
            if !(m.mass.is_finite() && m.mass > 0.0) {
                return Err(bad(format!(
                    "mass {} must be a positive finite number (kg)",
                    m.mass
                )));
            }
            if !(m.inertia.iter().all(|x| x.is_finite())
                && m.centroid.iter().all(|x| x.is_finite()))
            {
                return Err(bad("inertia and centroid must be finite".into()));
            }
        }
        if !self.ids.insert(id) {
            return Err(ModelError::DuplicateId(id));
        }
        let density = mat.density;
        let c = self.clumps.len();
        let first = self.balls.len();
        let world = self.clumps.push(spec, density, first).map_err(bad)?;
        let computed = self.clumps.mass[c];
        let principal = self.clumps.inertial_principal[c];
        if !(computed.is_finite()
            && computed > 0.0
            && principal.iter().all(|x| x.is_finite() && *x > 0.0))
        {
            return Err(bad(format!(
                "mass {computed:e} kg and principal moments {:?} kg m^2 must be positive finite numbers (pebble radii and density {density:e} kg/m^3)",
                principal.as_slice()
            )));
        }
        let mass = if spec.fixed & dof::TRANSLATION == dof::TRANSLATION {
            Real::INFINITY
        } else {
            self.clumps.inertial_mass[c]
        };
        for (p, x) in spec.pebbles.iter().zip(world) {
            self.balls
                .push_pebble(id, x, p.radius, spec.material, c, mass);
        }
        self.clumps.place_all(&mut self.balls);
        self.primed = false;
        Ok(c)
    }

    /// Number of bodies that carry DOFs in the stiffness and timestep code: one per piece in
    /// `balls` (a pebble's are all fixed), then one per clump.
    pub fn body_count(&self) -> usize {
        self.balls.len() + self.clumps.len()
    }

    /// The body of piece `i`: `i` for a ball, `balls.len() + c` for a pebble of clump `c`.
    #[inline]
    pub fn body_of(&self, i: usize) -> usize {
        let c = self.balls.clump[i];
        if c == NO_CLUMP {
            i
        } else {
            self.balls.len() + c as usize
        }
    }

    /// Reference point of body `k` (centre of a ball, centroid of a clump), m.
    pub fn body_pos(&self, k: usize) -> Vec3 {
        match k.checked_sub(self.balls.len()) {
            Some(c) => self.clumps.pos[c],
            None => self.balls.pos[k],
        }
    }

    /// Fixed DOFs of body `k`, bits of [`crate::body::dof`] (a clump's rotation bits refer to its
    /// principal axes; they are set all three or none).
    pub fn body_fixed(&self, k: usize) -> u8 {
        match k.checked_sub(self.balls.len()) {
            Some(c) => self.clumps.fixed[c],
            None => self.balls.fixed[k],
        }
    }

    /// Inertial mass (DOF 0..3) or moment of inertia (3..6) of body `k`; for a clump the
    /// rotational DOFs are about its principal axes.
    pub fn body_inertial(&self, k: usize, dof: usize) -> Real {
        match (k.checked_sub(self.balls.len()), dof < 3) {
            (Some(c), true) => self.clumps.inertial_mass[c],
            (Some(c), false) => self.clumps.inertial_principal[c][dof - 3],
            (None, true) => self.balls.inertial_mass[k],
            (None, false) => self.balls.inertial_inertia[k],
        }
    }

    /// The principal axes of a clump body as the columns of a rotation matrix (world frame);
    /// None for a ball, whose rotational DOFs are about the world axes.
    pub fn body_axes(&self, k: usize) -> Option<nalgebra::Matrix3<Real>> {
        k.checked_sub(self.balls.len())
            .map(|c| self.clumps.orient[c].to_rotation_matrix().into_inner())
    }

    /// How a body is named in messages: "ball 3", "clump 2".
    pub fn body_label(&self, k: usize) -> String {
        match k.checked_sub(self.balls.len()) {
            Some(c) => format!("clump {}", self.clumps.id.get(c).copied().unwrap_or(0)),
            None => self.piece_label(k),
        }
    }

    /// Index of the clump with the given id.
    pub fn clump_index(&self, id: u64) -> Option<usize> {
        self.clumps.id.iter().position(|&x| x == id)
    }

    /// How a piece is named in messages: "ball 3" or "clump 2 pebble 1" (pebbles from 1).
    pub fn piece_label(&self, i: usize) -> String {
        let b = &self.balls;
        if b.is_pebble(i) {
            let c = b.clump[i] as usize;
            format!(
                "clump {} pebble {}",
                self.clumps.id[c],
                i - self.clumps.first[c] as usize + 1
            )
        } else {
            format!("ball {}", b.id[i])
        }
    }

    /// Adds a faceted wall; returns its index.
    ///
    /// # Errors
    /// [`ModelError::BadWall`]: a mesh that fails validation (naming facet and vertices), a
    /// repeated name, an unknown material, an inactive side on a facet that does not exist, a
    /// deformable motion without one velocity per vertex, or a non-finite motion.
    pub fn add_wall(&mut self, spec: &WallSpec) -> Result<usize, ModelError> {
        let bad = |reason: String| ModelError::BadWall {
            wall: spec.name.clone(),
            reason,
        };
        if self.walls.iter().any(|w| w.name == spec.name) {
            return Err(bad("the name is used by another wall".into()));
        }
        if spec.material >= self.materials.len() {
            return Err(bad(format!("unknown material index {}", spec.material)));
        }
        let mesh = crate::geom::Mesh::new(spec.vertices.clone(), spec.facets.clone())
            .map_err(|e| bad(e.to_string()))?;
        for &(f, _) in &spec.inactive {
            if f >= mesh.len() {
                return Err(bad(format!(
                    "inactive side of facet {f}, but the wall has {} facets (numbered from 0)",
                    mesh.len()
                )));
            }
        }
        let finite = |v: &crate::math::Vec3| v.iter().all(|x| x.is_finite());
        match &spec.motion {
            WallMotion::Rigid { vel, spin } => {
                if !(finite(vel) && finite(spin) && finite(&spec.pivot)) {
                    return Err(bad("motion: vel, spin and pivot must be finite".into()));
                }
            }
            WallMotion::Deformable { vertex_vel } => {
                if vertex_vel.len() != mesh.vertices.len() {
                    return Err(bad(format!(
                        "motion: {} vertex velocities for {} unique vertices",
                        vertex_vel.len(),
                        mesh.vertices.len()
                    )));
                }
                if let Some(k) = vertex_vel.iter().position(|v| !finite(v)) {
                    return Err(bad(format!("motion: vertex velocity {k} is not finite")));
                }
            }
        }
        if let Some(p) = &spec.program {
            use crate::body::{Program, ServoTarget};
            if !matches!(spec.motion, WallMotion::Rigid { .. }) {
                return Err(bad("a programmed motion moves the wall rigidly".into()));
            }
            let ok = match p {
                Program::Schedule(e) => {
                    !e.is_empty()
                        && e.iter()
                            .all(|x| x.t.is_finite() && finite(&x.vel) && finite(&x.spin))
                        && e.windows(2).all(|w| w[0].t < w[1].t)
                }
                Program::Oscillate {
                    direction,
                    amplitude,
                    frequency,
                    origin,
                } => {
                    (direction.norm() - 1.0).abs() < 1e-12
                        && amplitude.is_finite()
                        && frequency.is_finite()
                        && finite(origin)
                }
                Program::Servo {
                    direction,
                    target,
                    gain,
                    max_speed,
                } => {
                    let t = match target {
                        ServoTarget::Force(x) | ServoTarget::Stress(x) => *x,
                    };
                    (direction.norm() - 1.0).abs() < 1e-12
                        && t.is_finite()
                        && gain.is_finite()
                        && *gain > 0.0
                        && max_speed.is_finite()
                        && *max_speed > 0.0
                }
            };
            if !ok {
                return Err(bad("motion: the program's values must be finite (unit direction, increasing schedule times, positive gain and speed)".into()));
            }
        }
        if self.planar {
            // 2D: a wall is a faceted extrusion across the plane z = 0, met by the disks as
            // spheres in that plane: normals in the plane, every facet crossing it.
            for f in 0..mesh.len() {
                let c = mesh.corners(f);
                let n = (c[1] - c[0]).cross(&(c[2] - c[0]));
                let (lo, hi) = c
                    .iter()
                    .fold((Real::INFINITY, -Real::INFINITY), |(a, b), v| {
                        (a.min(v.z), b.max(v.z))
                    });
                if n.z.abs() > 1e-9 * n.norm() || !(lo < 0.0 && hi > 0.0) {
                    return Err(bad(format!("facet {f}: in 2D every facet must be perpendicular to the plane z = 0 and cross it (a wall seen in the plane is its trace, a line)")));
                }
            }
        }
        self.primed = false;
        self.walls.push(Wall::new(spec, mesh));
        Ok(self.walls.len() - 1)
    }

    /// Index of the wall with the given name.
    pub fn wall_index(&self, name: &str) -> Option<usize> {
        self.walls.iter().position(|w| w.name == name)
    }

    /// Checks that every pair of materials that can meet has a contact model.
    ///
    /// # Errors
    /// [`ModelError::NoContactModel`] naming the first pair without one.
    pub fn check_contact_models(&self) -> Result<(), ModelError> {
        let n = self.materials.len();
        let mut count = vec![0usize; n];
        let b = &self.balls;
        for (i, &m) in b.material.iter().enumerate() {
            // a clump counts once (its pebbles never touch each other)
            if b.is_pebble(i) && i != self.clumps.first[b.clump[i] as usize] as usize {
                continue;
            }
            count[m as usize] += 1;
        }
        // (an insertion's balls meet each other and everything else)
        for ins in &self.flow.inserts {
            count[ins.spec.material] += 2;
        }
        for a in 0..n {
            for b in a..n {
                let present = if a == b {
                    count[a] >= 2
                } else {
                    count[a] > 0 && count[b] > 0
                };
                let present = present
                    || (count[a] > 0 && self.walls.iter().any(|w| w.material == b))
                    || (count[b] > 0 && self.walls.iter().any(|w| w.material == a));
                if present && self.pair_law[a * n + b] == NO_LAW {
                    return Err(ModelError::NoContactModel(
                        self.materials[a].name.clone(),
                        self.materials[b].name.clone(),
                    ));
                }
            }
        }
        Ok(())
    }

    /// Index of the ball with the given id (pebbles are not balls: see [`Model::clump_index`]).
    pub fn ball_index(&self, id: u64) -> Option<usize> {
        let b = &self.balls;
        (0..b.len()).find(|&i| b.id[i] == id && !b.is_pebble(i))
    }

    /// Acceleration of ball `i` at the current positions, m/s^2 (zero along fixed DOFs).
    pub fn acceleration(&self, i: usize) -> Vec3 {
        crate::motion::acceleration(&self.balls, i, &self.settings.gravity)
    }

    /// Velocity of ball `i` at the time of the positions, m/s: the stored velocity is half a
    /// step behind, so half a step of the current acceleration is added (velocity Verlet).
    pub fn synchronized_velocity(&self, i: usize) -> Vec3 {
        self.balls.vel[i] + self.acceleration(i) * (0.5 * self.last_dt)
    }

    /// Angular velocity of ball `i` at the time of the orientations, rad/s.
    pub fn synchronized_spin(&self, i: usize) -> Vec3 {
        self.balls.spin[i]
            + crate::motion::angular_acceleration(&self.balls, i) * (0.5 * self.last_dt)
    }

    /// Velocity of the centroid of clump `c` at the time of the positions, m/s.
    pub fn clump_velocity(&self, c: usize) -> Vec3 {
        self.clumps.vel[c]
            + self.clumps.acceleration(c, &self.settings.gravity) * (0.5 * self.last_dt)
    }

    /// Kinetic energy (translation and rotation) of balls and clumps at the time of the
    /// positions, J (a clump's rotation: `L·ω/2` with the real moments of inertia).
    pub fn kinetic_energy(&self) -> Real {
        let balls = (0..self.balls.len()).map(|i| {
            let v = self.synchronized_velocity(i);
            let w = self.synchronized_spin(i);
            0.5 * self.balls.mass[i] * v.norm_squared()
                + 0.5 * self.balls.inertia[i] * w.norm_squared()
        });
        let cl = &self.clumps;
        let clumps = (0..cl.len()).map(|c| {
            let v = self.clump_velocity(c);
            let w = cl.synchronized_spin(c, self.last_dt);
            0.5 * cl.mass[c] * v.norm_squared() + 0.5 * w.dot(&(cl.inertia(c) * w))
        });
        balls.chain(clumps).fold(0.0, |a, b| a + b)
    }

    /// Elastic energy stored in the active contacts (ball-ball and ball-facet), J.
    pub fn strain_energy(&self) -> Real {
        let contacts = &self.contacts;
        let balls = (contacts.list.iter().enumerate())
            .filter(|(_, c)| c.active)
            .map(|(k, c)| {
                let g = contacts.geometry(k, &self.balls);
                self.laws[c.law as usize].strain_energy(g.overlap, g.radius, &c.state)
            });
        let balls_r = &self.balls.radius;
        let walls = self
            .facet_contacts
            .list
            .iter()
            .filter(|c| c.active)
            .map(|c| {
                self.laws[c.law as usize].strain_energy(
                    c.overlap,
                    balls_r[c.ball as usize],
                    &c.state,
                )
            });
        balls.chain(walls).fold(0.0, |a, b| a + b) + self.rolling_energy() + self.cohesion_energy()
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

    /// Elastic energy held by the springs of rolling and twisting resistance, J (0 without
    /// one): each active contact's `|M|^2 / (2 k)` at its current stiffnesses.
    pub fn rolling_energy(&self) -> Real {
        if !self.has_rolling() {
            return 0.0;
        }
        let held = |law: u16, overlap: Real, radius: Real, spring: Option<&Vec3>| match (
            self.rolling[law as usize],
            spring,
        ) {
            (Some(r), Some(m)) => {
                let s = self.laws[law as usize].stiffness(overlap.max(0.0), radius);
                r.energy(m, s.kn, s.ks, radius)
            }
            _ => 0.0,
        };
        let contacts = &self.contacts;
        let balls = (contacts.list.iter().enumerate())
            .filter(|(_, c)| c.active)
            .map(|(k, c)| {
                let g = contacts.geometry(k, &self.balls);
                held(c.law, g.overlap, g.radius, contacts.roll.get(k))
            });
        let fc = &self.facet_contacts;
        let walls = (fc.list.iter().enumerate())
            .filter(|(_, c)| c.active)
            .map(|(k, c)| {
                held(
                    c.law,
                    c.overlap,
                    self.balls.radius[c.ball as usize],
                    fc.roll.get(k),
                )
            });
        balls.chain(walls).fold(0.0, |a, b| a + b)
    }

    /// The solve ratio: the mean magnitude of the unbalanced force (contact + gravity + applied,
    /// along free DOFs) over the balls with a free translation, divided by the mean magnitude
    /// of the contact force over active contacts (infinite without active contacts). It tends
    /// to zero as the model reaches static equilibrium and does not depend on the masses, so
    /// it means the same with and without timestep scaling.
    pub fn unbalanced_ratio(&self) -> Real {
        let b = &self.balls;
        let (mut sum, mut n) = (0.0, 0usize);
        for i in 0..b.len() {
            if b.fixed[i] & dof::TRANSLATION == dof::TRANSLATION {
                continue;
            }
            let mut f = b.force[i] + self.settings.gravity * b.mass[i] + b.applied_force[i];
            for k in 0..3 {
                if b.fixed[i] & (1 << k) != 0 {
                    f[k] = 0.0;
                }
            }
            sum += f.norm();
            n += 1;
        }
        let cl = &self.clumps;
        for c in 0..cl.len() {
            if cl.fixed[c] & dof::TRANSLATION == dof::TRANSLATION {
                continue;
            }
            let a = cl.acceleration(c, &self.settings.gravity);
            sum += (a * cl.inertial_mass[c]).norm();
            n += 1;
        }
        let (mut fc, mut m) = (0.0, 0usize);
        for (k, c) in self.contacts.list.iter().enumerate() {
            if c.active {
                fc += self
                    .contacts
                    .contact_force(k, &self.balls, &self.laws)
                    .norm();
                m += 1;
            }
        }
        for c in self.facet_contacts.list.iter().filter(|c| c.active) {
            fc += c.force.norm();
            m += 1;
        }
        if n == 0 {
            return 0.0;
        }
        if m == 0 || fc == 0.0 {
            return Real::INFINITY;
        }
        (sum / n as Real) / (fc / m as Real)
    }

    /// Gravitational potential energy -m g . x, J (zero at the origin).
    pub fn potential_energy(&self) -> Real {
        let g = self.settings.gravity;
        let cl = &self.clumps;
        (0..self.balls.len())
            .map(|i| -self.balls.mass[i] * g.dot(&self.balls.pos[i]))
            .chain((0..cl.len()).map(|c| -cl.mass[c] * g.dot(&cl.pos[c])))
            .fold(0.0, |a, b| a + b)
    }
}
