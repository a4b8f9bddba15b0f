//! Building the model's bodies (clumps, walls; balls are in `state.rs`) and finding them: by
//! id, by name, by body index (balls, then clumps), with their labels for messages.

use super::{Model, ModelError};
use crate::body::{dof, finite_state, ClumpSpec, Wall, WallMotion, WallSpec, NO_CLUMP, ROTATIONS};
use crate::contact::NO_LAW;
use crate::math::{Real, Vec3};

impl Model {
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

    /// Index of the wall with the given name.
    pub fn wall_index(&self, name: &str) -> Option<usize> {
        self.walls.iter().position(|w| w.name == name)
    }

    /// Index of the ball with the given id (pebbles are not balls: see [`Model::clump_index`]).
    pub fn ball_index(&self, id: u64) -> Option<usize> {
        let b = &self.balls;
        (0..b.len()).find(|&i| b.id[i] == id && !b.is_pebble(i))
    }
}
