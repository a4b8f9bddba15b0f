//! Faceted walls: triangle meshes that move by prescription, not by the equations of motion
//! (seed 001, "Faceted Walls").

use crate::geom::{barycentric, Mesh};
use crate::math::{rotation_from_spin, Quat, Real, Vec3};

/// Sides of a facet, as bits of [`Wall::inactive`]: `ABOVE` is the side the normal points to.
pub mod side {
    /// The side the facet normal points to (signed distance > 0).
    pub const ABOVE: u8 = 1;
    /// The other side (signed distance < 0).
    pub const BELOW: u8 = 2;
    /// Both sides.
    pub const BOTH: u8 = 3;
}

/// How the contacts between a ball and a wall are resolved (seed 001).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Resolution {
    /// The associative logic only (the default): cheap, right when wall features are not much
    /// smaller than the balls.
    Reduced,
    /// Associative logic plus line-of-sight check, continuity of contact state and proximity
    /// contacts ([`crate::contact::full`]).
    Full,
}

/// How a wall moves.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum WallMotion {
    /// Rigid motion: the pivot moves at `vel` (m/s) and the wall turns about the pivot at
    /// `spin` (rad/s). Both zero: a fixed wall.
    Rigid {
        /// Velocity of the pivot, m/s.
        vel: Vec3,
        /// Angular velocity, rad/s.
        spin: Vec3,
    },
    /// Each unique vertex moves at its own velocity, m/s (seed 001: the velocities must keep
    /// facets from intersecting; that is not checked).
    Deformable {
        /// One velocity per vertex, m/s.
        vertex_vel: Vec<Vec3>,
    },
}

/// One entry of a velocity schedule: from time `t` on, the pivot moves at `vel` and the wall
/// turns at `spin` (until the next entry's time).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ScheduleEntry {
    /// Time from which the entry holds, s.
    pub t: Real,
    /// Velocity of the pivot, m/s.
    pub vel: Vec3,
    /// Angular velocity about the pivot, rad/s.
    pub spin: Vec3,
}

/// What a servo-controlled wall holds: a force, or a stress over its projected area.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum ServoTarget {
    /// The load of the balls on the wall against its direction of motion, N.
    Force(Real),
    /// That load over the wall's area projected on the plane normal to the direction, Pa.
    Stress(Real),
}

/// A rigid motion that changes during the run: what sets the wall's velocity and spin at the
/// start of each cycle ([`Wall::plan`]).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Program {
    /// Velocity and spin piecewise constant: each entry from its time on (at rest before the
    /// first). A change takes effect at the first cycle that starts at or after its time.
    Schedule(Vec<ScheduleEntry>),
    /// Translation along `direction` (unit) by `amplitude sin(2 pi frequency t)` from the
    /// starting pivot: the position is set from the formula at every cycle (no drift), and the
    /// velocity the contacts see in a cycle is the displacement over the step.
    Oscillate {
        /// Unit direction.
        direction: Vec3,
        /// Amplitude, m.
        amplitude: Real,
        /// Frequency, Hz.
        frequency: Real,
        /// The pivot at t = 0, m.
        origin: Vec3,
    },
    /// Translation along `direction` (unit) at `v = gain (target - F . (-direction))`, capped
    /// at `max_speed`, where `F` is the force of the balls on the wall at the end of the last
    /// cycle (the load against the direction of motion).
    Servo {
        /// Unit direction in which the wall advances when the load is below the target.
        direction: Vec3,
        /// What it holds.
        target: ServoTarget,
        /// Speed per newton of error, m/(s N).
        gain: Real,
        /// Largest speed, m/s.
        max_speed: Real,
    },
}

/// What a user gives to create a wall.
#[derive(Clone, Debug)]
pub struct WallSpec {
    /// Unique name.
    pub name: String,
    /// Material index.
    pub material: usize,
    /// Vertex positions, m.
    pub vertices: Vec<Vec3>,
    /// Facets (counter-clockwise seen from the normal side).
    pub facets: Vec<[u32; 3]>,
    /// Facets with an inactive side: (facet, bits of [`side`]).
    pub inactive: Vec<(usize, u8)>,
    /// Motion.
    pub motion: WallMotion,
    /// Centre of rotation of a rigid wall, m; the reference point of the wall's moment.
    pub pivot: Vec3,
    /// Contact resolution mode.
    pub resolution: Resolution,
    /// Theta of the full mode, rad.
    pub cutoff_angle: Real,
    /// A rigid motion that changes during the run (then `motion` is rigid and holds the
    /// velocity of the current cycle).
    pub program: Option<Program>,
    /// An imaged plane: a still, flat wall that spans a periodic cell exactly along an axis
    /// in its plane, and so stands for an unbounded plane there (the case reader extends its
    /// facets past the faces). A ball's contact with it is one contact, whatever facet it
    /// lies on: its state goes with the ball from facet to facet, and across the faces when
    /// the ball is brought back into the cell ([`crate::contact::carry_on_surface`]).
    pub imaged: bool,
}

/// A faceted wall of the model.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Wall {
    /// Unique name.
    pub name: String,
    /// Material index.
    pub material: usize,
    /// The mesh at the current time (vertices in the world frame).
    pub mesh: Mesh,
    /// Unit normal of each facet (right-hand rule), kept current as the wall moves.
    pub normals: Vec<Vec3>,
    /// Inactive sides of each facet (bits of [`side`]).
    pub inactive: Vec<u8>,
    /// Motion.
    pub motion: WallMotion,
    /// Current pivot (centre of rotation and reference of the moment), m.
    pub pivot: Vec3,
    /// Rotation since the start (rigid motion).
    pub rotation: Quat,
    /// Contact resolution mode.
    pub resolution: Resolution,
    /// Theta of the full mode, rad.
    pub cutoff_angle: Real,
    /// Vertices relative to the pivot at the start (rigid motion: the current vertices are
    /// `pivot + rotation * rest`, so the rotation accumulates no drift).
    rest: Vec<Vec3>,
    /// Bound on how far any point of the wall moved since the last broad-phase build, m.
    pub(crate) travel: Real,
    /// True when the motion is not zero, or programmed (set once).
    moving: bool,
    /// A rigid motion that changes during the run.
    pub program: Option<Program>,
    /// The time at the start of the current cycle, s (set by [`Wall::plan`]).
    clock: Real,
    /// The area projected on the plane normal to a servo's direction, m^2 (0 without a servo).
    pub projected_area: Real,
    /// An imaged plane ([`WallSpec::imaged`]).
    pub imaged: bool,
}

impl Wall {
    /// Builds a wall from a validated mesh.
    pub(crate) fn new(spec: &WallSpec, mesh: Mesh) -> Wall {
        let normals = (0..mesh.len()).map(|f| mesh.normal(f)).collect();
        let mut inactive = vec![0u8; mesh.len()];
        for &(f, bits) in &spec.inactive {
            inactive[f] |= bits;
        }
        let rest = mesh.vertices.iter().map(|v| v - spec.pivot).collect();
        let moving = spec.program.is_some()
            || match &spec.motion {
                WallMotion::Rigid { vel, spin } => *vel != Vec3::zeros() || *spin != Vec3::zeros(),
                WallMotion::Deformable { vertex_vel } => {
                    vertex_vel.iter().any(|v| *v != Vec3::zeros())
                }
            };
        // sum over facets of area |n . d|: a flat plate's area normal to d
        let projected_area = match &spec.program {
            Some(Program::Servo { direction, .. }) => (0..mesh.len())
                .map(|f| {
                    let c = mesh.corners(f);
                    0.5 * (c[1] - c[0]).cross(&(c[2] - c[0])).dot(direction).abs()
                })
                .sum(),
            _ => 0.0,
        };
        Wall {
            name: spec.name.clone(),
            material: spec.material,
            mesh,
            normals,
            inactive,
            motion: spec.motion.clone(),
            pivot: spec.pivot,
            rotation: Quat::identity(),
            resolution: spec.resolution,
            cutoff_angle: spec.cutoff_angle,
            rest,
            travel: 0.0,
            moving,
            program: spec.program.clone(),
            clock: 0.0,
            projected_area,
            imaged: spec.imaged,
        }
    }

    /// Sets the velocity and spin of the cycle that starts at `time` from the wall's program
    /// (none: nothing changes); `load` is the force of the balls on the wall at the end of the
    /// last cycle, N (read by a servo only).
    pub fn plan(&mut self, time: Real, load: Vec3) {
        self.clock = time;
        let Some(program) = &self.program else {
            return;
        };
        let (vel, spin) = match program {
            Program::Schedule(entries) => entries
                .iter()
                .rev()
                // (a time summed step by step lands a few ulps either side of an entry's time:
                // within 1e-12 of it counts as reached)
                .find(|e| e.t <= time + 1e-12 * time.abs())
                .map_or((Vec3::zeros(), Vec3::zeros()), |e| (e.vel, e.spin)),
            Program::Oscillate {
                direction,
                amplitude,
                frequency,
                ..
            } => {
                // (the velocity at the start of the step, for the timestep's kinematic bound;
                // the step replaces it by the displacement over the step)
                let w = 2.0 * crate::math::PI * frequency;
                (
                    direction * (amplitude * w * (w * time).cos()),
                    Vec3::zeros(),
                )
            }
            Program::Servo {
                direction,
                target,
                gain,
                max_speed,
            } => {
                let target = match target {
                    ServoTarget::Force(f) => *f,
                    ServoTarget::Stress(s) => s * self.projected_area,
                };
                let v = (gain * (target - load.dot(&-direction))).clamp(-max_speed, *max_speed);
                (direction * v, Vec3::zeros())
            }
        };
        self.motion = WallMotion::Rigid { vel, spin };
    }

    /// Takes the pose of `from`, the same wall at the end of an earlier stage (`--from`): its
    /// vertices, normals, pivot, rotation and clock, and its motion when both follow the same
    /// program (the motion of the cycle the program last set); the rest (material, motion,
    /// program, resolution, inactive sides) stays this wall's.
    ///
    /// # Errors
    /// A mesh of another number of facets or vertices, as a sentence.
    pub fn take_pose(&mut self, from: &Wall) -> Result<(), String> {
        let (mine, theirs) = (&self.mesh, &from.mesh);
        if mine.len() != theirs.len() || mine.vertices.len() != theirs.vertices.len() {
            return Err(format!(
                "wall \"{}\" has {} facets ({} vertices) in this case and {} ({}) in the \
                 checkpoint: a wall keeps its mesh from one stage to the next",
                self.name,
                mine.len(),
                mine.vertices.len(),
                theirs.len(),
                theirs.vertices.len()
            ));
        }
        self.mesh = from.mesh.clone();
        self.normals = from.normals.clone();
        self.pivot = from.pivot;
        self.rotation = from.rotation;
        self.rest = from.rest.clone();
        self.travel = from.travel;
        self.clock = from.clock;
        if self.program.is_some() && self.program == from.program {
            self.motion = from.motion.clone();
        }
        Ok(())
    }

    /// True when the wall moves.
    pub fn is_moving(&self) -> bool {
        self.moving
    }

    /// Sets the velocity of a rigid wall's pivot from the next cycle on (its spin kept): a
    /// controller outside the case (the Python module's `set_wall_velocity`). The wall counts
    /// as moving from then on (the timestep's kinematic bound, the energy watch).
    ///
    /// # Errors
    /// A wall the case moves by a program, or a deformable one, as a sentence.
    pub fn set_velocity(&mut self, v: Vec3) -> Result<(), String> {
        if self.program.is_some() {
            return Err(format!(
                "wall {:?}: its case file moves it by a program (servo, schedule or \
                 oscillation), which sets its velocity at every cycle",
                self.name
            ));
        }
        match &mut self.motion {
            WallMotion::Rigid { vel, .. } => {
                *vel = v;
                self.moving = true;
                Ok(())
            }
            WallMotion::Deformable { .. } => Err(format!(
                "wall {:?}: deformable (one velocity per vertex)",
                self.name
            )),
        }
    }

    /// Velocity of the wall at a point of facet `f`, m/s: `v + w x (p - pivot)` for rigid
    /// motion, the barycentric interpolation of the vertex velocities for deformable motion.
    #[inline]
    pub fn velocity_at(&self, f: usize, p: &Vec3) -> Vec3 {
        match &self.motion {
            WallMotion::Rigid { vel, spin } => vel + spin.cross(&(p - self.pivot)),
            WallMotion::Deformable { vertex_vel } => {
                let w = barycentric(p, &self.mesh.corners(f));
                let t = self.mesh.facets[f];
                (0..3).fold(Vec3::zeros(), |acc, k| {
                    acc + vertex_vel[t[k] as usize] * w[k]
                })
            }
        }
    }

    /// Velocity and acceleration of the wall at a point of facet `f` at time `t`, the time of
    /// the positions, m/s and m/s^2 (what the energy books take for a dashpot's relative
    /// velocity): those of the formula for an oscillating wall (its velocity over a step is
    /// the displacement over the step, [`Wall::step`]); else [`Wall::velocity_at`] and no
    /// acceleration (a scheduled or servo velocity is constant within each step).
    pub fn motion_at(&self, f: usize, p: &Vec3, t: Real) -> (Vec3, Vec3) {
        if let Some(Program::Oscillate {
            direction,
            amplitude,
            frequency,
            ..
        }) = &self.program
        {
            let w = 2.0 * crate::math::PI * frequency;
            let (s, c) = (w * t).sin_cos();
            return (
                direction * (amplitude * w * c),
                direction * (-amplitude * w * w * s),
            );
        }
        (self.velocity_at(f, p), Vec3::zeros())
    }

    /// Velocity of the pivot and angular velocity, m/s and rad/s (zeros for a deformable wall).
    pub fn rigid_velocity(&self) -> (Vec3, Vec3) {
        match &self.motion {
            WallMotion::Rigid { vel, spin } => (*vel, *spin),
            WallMotion::Deformable { .. } => (Vec3::zeros(), Vec3::zeros()),
        }
    }

    /// Angular velocity of the wall, rad/s (a deformable wall has none: zero).
    pub fn spin(&self) -> Vec3 {
        match &self.motion {
            WallMotion::Rigid { spin, .. } => *spin,
            WallMotion::Deformable { .. } => Vec3::zeros(),
        }
    }

    /// The largest speed of any point of the wall, m/s: the largest vertex speed (the speed of
    /// a rigid or linearly interpolated motion is a convex function of position, so it peaks
    /// at a vertex: seed 000's "velocity at the facet periphery").
    pub fn max_speed(&self) -> Real {
        match &self.motion {
            WallMotion::Rigid { vel, spin } => self
                .mesh
                .vertices
                .iter()
                .map(|x| (vel + spin.cross(&(x - self.pivot))).norm())
                .fold(0.0, Real::max),
            WallMotion::Deformable { vertex_vel } => {
                vertex_vel.iter().map(|v| v.norm()).fold(0.0, Real::max)
            }
        }
    }

    /// Moves the wall by one timestep `dt` (the law of motion of walls).
    ///
    /// Rigid: the pivot moves by `v dt` and the wall turns by the exact rotation of angle
    /// `|w| dt` about `w` (NOTE: seed 001 builds the step rotation from the normalized
    /// quaternion `q(1, w dt)`, which turns by `2 atan(|w| dt)`, about twice the intended
    /// angle; the report's Walls page shows the difference). Deformable: each vertex moves by
    /// its velocity times `dt`.
    pub fn step(&mut self, dt: Real) {
        if !self.is_moving() {
            return;
        }
        if let Some(Program::Oscillate {
            direction,
            amplitude,
            frequency,
            origin,
        }) = &self.program
        {
            // the position from the formula at the end of the step; the velocity the contacts
            // see is the displacement over the step
            let at = |t: Real| {
                origin + direction * (amplitude * (2.0 * crate::math::PI * frequency * t).sin())
            };
            let target = at(self.clock + dt);
            self.motion = WallMotion::Rigid {
                vel: (target - self.pivot) / dt,
                spin: Vec3::zeros(),
            };
            self.travel += (target - self.pivot).norm();
            self.pivot = target;
            for (v, r) in self.mesh.vertices.iter_mut().zip(&self.rest) {
                *v = self.pivot + self.rotation * r;
            }
            return;
        }
        self.travel += self.max_speed() * dt;
        match &self.motion {
            WallMotion::Rigid { vel, spin } => {
                self.pivot += vel * dt;
                if *spin != Vec3::zeros() {
                    self.rotation = rotation_from_spin(spin, dt) * self.rotation;
                }
                for (v, r) in self.mesh.vertices.iter_mut().zip(&self.rest) {
                    *v = self.pivot + self.rotation * r;
                }
            }
            WallMotion::Deformable { vertex_vel } => {
                for (v, u) in self.mesh.vertices.iter_mut().zip(vertex_vel) {
                    *v += u * dt;
                }
            }
        }
        for f in 0..self.mesh.len() {
            self.normals[f] = self.mesh.normal(f);
        }
    }
}
