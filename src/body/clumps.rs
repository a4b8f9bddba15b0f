//! Clumps: rigid bodies made of spherical pebbles (seeds 000, 001).
//!
//! Each pebble is also a piece in [`Balls`] (marked by [`Balls::clump`]), so that contact
//! detection, contact geometry and the contact models treat it like a ball; contacts between
//! pebbles of the same clump are never created. A pebble has no mass of its own and all its
//! DOFs are fixed as a ball: the clump moves it. Its `inertial_mass` is the clump's, which is
//! the mass a contact model sees (e.g. for damping).
//!
//! ## Mass properties
//! From the union of the pebbles ([`crate::geom::union_moments`]: slices of disk unions by
//! Green's theorem, Gauss-Legendre in height; error estimate kept in [`Clumps::mass_error`]),
//! or given explicitly (`mass`, `inertia` about the centroid in the case's axes, `centroid`).
//! The inertia tensor is diagonalized: the body frame is the principal frame, and the
//! orientation `q` turns it into the world frame.
//!
//! ## Law of motion (a full inertia tensor)
//! The translation is the balls' leapfrog. The rotation integrates the angular momentum `L`
//! (world frame), which the moment changes without any approximation, and turns the body by the
//! angular velocity at mid-step, estimated as in the leapfrog scheme for rigid bodies of
//! Fincham (1992) and Omelyan (1998), as Yade's `exactAsphericalRot` does:
//! 1. `L(t) = L(t - dt_prev/2) + M(t) dt_prev/2`, `ω(t) = R I⁻¹ Rᵀ L(t)` at `q(t)`;
//! 2. `q(t + dt/2) = exp(ω(t) dt/2) q(t)`;
//! 3. `L(t + dt/2) = L(t - dt_prev/2) + M(t) (dt_prev + dt)/2`;
//! 4. `ω(t + dt/2) = R(t + dt/2) I⁻¹ R(t + dt/2)ᵀ L(t + dt/2)`;
//! 5. `q(t + dt) = exp(ω(t + dt/2) dt) q(t)` (an exact rotation of angle `|ω| dt`).
//!
//! Without a moment, `L` is conserved to round-off; the kinetic energy `L·ω/2` oscillates with an
//! amplitude of order `dt²` (measured by the `torque_free` cases). Pebbles are then placed at
//! `x + R(t + dt) d_k`, with the velocity of their displacement over the step
//! (`(x_k(t + dt) - x_k(t)) / dt`, what the contact models integrate) and the clump's angular
//! velocity.

use super::{dof, Balls};
use crate::geom::union_moments;
use crate::math::{Quat, Real, Vec3};
use nalgebra::Matrix3;

/// One pebble of a clump: offset from the clump's reference point (case axes) and radius.
#[derive(Clone, Debug)]
pub struct PebbleSpec {
    /// Offset from the reference point, m.
    pub offset: Vec3,
    /// Radius, m.
    pub radius: Real,
}

/// Mass properties given explicitly instead of computed from the pebbles.
#[derive(Clone, Debug)]
pub struct MassSpec {
    /// Mass, kg.
    pub mass: Real,
    /// Inertia tensor about the centroid, in the case's axes, kg m^2.
    pub inertia: Matrix3<Real>,
    /// Centroid offset from the reference point, m.
    pub centroid: Vec3,
}

/// What a user gives to create one clump.
#[derive(Clone, Debug)]
pub struct ClumpSpec {
    /// User-visible identifier (unique among balls and clumps).
    pub id: u64,
    /// Reference point, m: pebble offsets are measured from it.
    pub pos: Vec3,
    /// Material index (density and contact model of every pebble).
    pub material: usize,
    /// The pebbles.
    pub pebbles: Vec<PebbleSpec>,
    /// Velocity of the centroid, m/s.
    pub vel: Vec3,
    /// Angular velocity, rad/s.
    pub spin: Vec3,
    /// Applied force at the centroid, N.
    pub applied_force: Vec3,
    /// Fixed DOFs, bits of [`dof`]: translations one by one, rotations all three or none.
    pub fixed: u8,
    /// Explicit mass properties, or None: computed from the union of the pebbles.
    pub mass: Option<MassSpec>,
}

/// Every clump of the model (structure of arrays, index = clump index).
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct Clumps {
    /// User-visible identifiers.
    pub id: Vec<u64>,
    /// Mass, kg (weight = mass x gravity).
    pub mass: Vec<Real>,
    /// Inertial mass, kg (differs from `mass` under timestep scaling only).
    pub inertial_mass: Vec<Real>,
    /// Principal moments of inertia, kg m^2.
    pub principal: Vec<Vec3>,
    /// Inertial principal moments (timestep scaling replaces them), kg m^2.
    pub inertial_principal: Vec<Vec3>,
    /// Orientation: principal frame to world frame.
    pub orient: Vec<Quat>,
    /// Centroid, m.
    pub pos: Vec<Vec3>,
    /// Centroid velocity half a step behind the positions, m/s.
    pub vel: Vec<Vec3>,
    /// Angular momentum about the centroid half a step behind (world frame, with the inertial
    /// moments), kg m^2/s.
    pub angmom: Vec<Vec3>,
    /// Angular velocity half a step behind (world frame), rad/s.
    pub spin: Vec<Vec3>,
    /// Resultant contact force, N.
    pub force: Vec<Vec3>,
    /// Resultant contact moment about the centroid, N m.
    pub moment: Vec<Vec3>,
    /// Applied force, N.
    pub applied_force: Vec<Vec3>,
    /// Fixed DOFs, bits of [`dof`].
    pub fixed: Vec<u8>,
    /// Index of the first pebble in [`Balls`]; the pebbles of a clump are consecutive.
    pub first: Vec<u32>,
    /// Number of pebbles.
    pub count: Vec<u32>,
    /// Pebble centres in the principal frame, relative to the centroid (index `first[c] + k`
    /// minus the clump's `first`: see [`Clumps::local`]).
    local: Vec<Vec3>,
    /// Start of each clump's pebbles in `local`.
    local_start: Vec<u32>,
    /// Estimated relative error of the computed mass properties (0 when given).
    pub mass_error: Vec<Real>,
}

/// The mass properties of a clump: mass, centroid offset from the reference point, inertia
/// tensor about the centroid (case axes), and the estimated error of the integration.
pub fn mass_properties(pebbles: &[PebbleSpec], density: Real) -> (Real, Vec3, Matrix3<Real>, Real) {
    let spheres: Vec<(Vec3, Real)> = pebbles.iter().map(|p| (p.offset, p.radius)).collect();
    let (m, err) = union_moments(&spheres);
    (m.volume * density, m.centroid, m.inertia(density), err)
}

impl Clumps {
    /// Number of clumps.
    pub fn len(&self) -> usize {
        self.id.len()
    }

    /// True when there is no clump.
    pub fn is_empty(&self) -> bool {
        self.id.is_empty()
    }

    /// Pebble centres of clump `c` in its principal frame, relative to the centroid.
    pub fn local(&self, c: usize) -> &[Vec3] {
        let s = self.local_start[c] as usize;
        &self.local[s..s + self.count[c] as usize]
    }

    /// Appends a clump whose pebbles will be balls `first..first + pebbles`; returns the
    /// pebbles' world positions. Errors: an inertia tensor that is not symmetric positive
    /// definite, as a sentence.
    pub(crate) fn push(
        &mut self,
        spec: &ClumpSpec,
        density: Real,
        first: usize,
    ) -> Result<Vec<Vec3>, String> {
        let (mass, centroid, inertia, err) = match &spec.mass {
            Some(m) => (m.mass, m.centroid, m.inertia, 0.0),
            None => mass_properties(&spec.pebbles, density),
        };
        let asym = (inertia - inertia.transpose()).abs().max();
        if asym > 1e-12 * inertia.abs().max() {
            return Err("inertia: the tensor must be symmetric".into());
        }
        let eig = nalgebra::SymmetricEigen::new(inertia);
        if !eig.eigenvalues.iter().all(|&v| v.is_finite() && v > 0.0) {
            return Err(format!(
                "inertia: principal moments {:?} must all be positive (kg m^2)",
                eig.eigenvalues.as_slice()
            ));
        }
        // a proper rotation from the principal frame to the case axes
        let mut axes = eig.eigenvectors;
        if axes.determinant() < 0.0 {
            axes.set_column(2, &(-axes.column(2)));
        }
        let rot = nalgebra::Rotation3::from_matrix_unchecked(axes);
        let q = Quat::from_rotation_matrix(&rot);
        let x = spec.pos + centroid;
        self.local_start.push(self.local.len() as u32);
        let mut world = Vec::new();
        for p in &spec.pebbles {
            let d = p.offset - centroid;
            self.local.push(q.inverse_transform_vector(&d));
            world.push(x + d);
        }
        let principal = Vec3::new(eig.eigenvalues[0], eig.eigenvalues[1], eig.eigenvalues[2]);
        self.id.push(spec.id);
        self.mass.push(mass);
        self.inertial_mass.push(mass);
        self.principal.push(principal);
        self.inertial_principal.push(principal);
        self.orient.push(q);
        self.pos.push(x);
        self.vel.push(spec.vel);
        let l = world_tensor(&q, &principal) * spec.spin;
        self.angmom.push(l);
        self.spin.push(spec.spin);
        self.force.push(Vec3::zeros());
        self.moment.push(Vec3::zeros());
        self.applied_force.push(spec.applied_force);
        self.fixed.push(spec.fixed);
        self.first.push(first as u32);
        self.count.push(spec.pebbles.len() as u32);
        self.mass_error.push(err);
        Ok(world)
    }

    /// `R I⁻¹ Rᵀ` with the inertial principal moments of clump `c` (world frame).
    pub fn inverse_inertia(&self, c: usize) -> Matrix3<Real> {
        let inv = self.inertial_principal[c].map(|v| 1.0 / v);
        world_tensor(&self.orient[c], &inv)
    }

    /// `R I Rᵀ` with the inertial principal moments of clump `c` (world frame), kg m^2.
    pub fn inertial_tensor(&self, c: usize) -> Matrix3<Real> {
        world_tensor(&self.orient[c], &self.inertial_principal[c])
    }

    /// The inertia tensor of clump `c` in the world frame (real moments), kg m^2.
    pub fn inertia(&self, c: usize) -> Matrix3<Real> {
        world_tensor(&self.orient[c], &self.principal[c])
    }

    /// True when the rotations of clump `c` are fixed.
    pub fn rotation_fixed(&self, c: usize) -> bool {
        self.fixed[c] & ROTATIONS == ROTATIONS
    }

    /// Translational acceleration, m/s^2 (zero along fixed DOFs).
    pub fn acceleration(&self, c: usize, gravity: &Vec3) -> Vec3 {
        let mut a = (self.force[c] + gravity * self.mass[c] + self.applied_force[c])
            / self.inertial_mass[c];
        for k in 0..3 {
            if self.fixed[c] & (1 << k) != 0 {
                a[k] = 0.0;
            }
        }
        a
    }

    /// The resultant force and moment (about the centroid) of each clump from its pebbles'.
    pub fn gather(&mut self, balls: &Balls) {
        for c in 0..self.len() {
            let (mut f, mut m) = (Vec3::zeros(), Vec3::zeros());
            let first = self.first[c] as usize;
            for p in first..first + self.count[c] as usize {
                f += balls.force[p];
                m += balls.moment[p] + (balls.pos[p] - self.pos[c]).cross(&balls.force[p]);
            }
            self.force[c] = f;
            self.moment[c] = m;
        }
    }

    /// Places the pebbles of clump `c` at its current position and orientation; with `dt > 0`
    /// their velocity is their displacement over `dt`, otherwise `v + ω x d`.
    fn place(&self, c: usize, balls: &mut Balls, dt: Real) {
        let first = self.first[c] as usize;
        for (k, d) in self.local(c).iter().enumerate() {
            let p = first + k;
            let arm = self.orient[c] * d;
            let x = self.pos[c] + arm;
            balls.vel[p] = if dt > 0.0 {
                (x - balls.pos[p]) / dt
            } else {
                self.vel[c] + self.spin[c].cross(&arm)
            };
            balls.pos[p] = x;
            balls.spin[p] = self.spin[c];
        }
    }

    /// Places every pebble at its clump's current state (before the first cycle).
    pub fn place_all(&self, balls: &mut Balls) {
        for c in 0..self.len() {
            self.place(c, balls, 0.0);
        }
    }

    /// One step of the law of motion of every clump (module docs), then its pebbles. Returns
    /// false when a state stopped being finite.
    pub fn step(&mut self, balls: &mut Balls, gravity: &Vec3, dt_prev: Real, dt: Real) -> bool {
        let kick = 0.5 * (dt_prev + dt);
        let mut finite = true;
        for c in 0..self.len() {
            let a = self.acceleration(c, gravity);
            self.vel[c] += a * kick;
            self.pos[c] += self.vel[c] * dt;
            if self.rotation_fixed(c) {
                self.orient[c] =
                    crate::math::rotation_from_spin(&self.spin[c], dt) * self.orient[c];
            } else {
                let l_t = self.angmom[c] + self.moment[c] * (0.5 * dt_prev);
                let w_t = self.inverse_inertia(c) * l_t;
                let q = self.orient[c];
                self.orient[c] = crate::math::rotation_from_spin(&w_t, 0.5 * dt) * q;
                self.angmom[c] += self.moment[c] * kick;
                let w_half = self.inverse_inertia(c) * self.angmom[c];
                self.orient[c] = crate::math::rotation_from_spin(&w_half, dt) * q;
                self.spin[c] = w_half;
            }
            self.place(c, balls, dt);
            finite &= (self.pos[c].sum() + self.vel[c].sum() + self.spin[c].sum()).is_finite();
        }
        finite
    }

    /// Angular velocity at the time of the orientations (world frame), rad/s.
    pub fn synchronized_spin(&self, c: usize, last_dt: Real) -> Vec3 {
        if self.rotation_fixed(c) {
            return self.spin[c];
        }
        self.inverse_inertia(c) * self.synchronized_angmom_inertial(c, last_dt)
    }

    fn synchronized_angmom_inertial(&self, c: usize, last_dt: Real) -> Vec3 {
        self.angmom[c] + self.moment[c] * (0.5 * last_dt)
    }

    /// Angular momentum about the centroid at the time of the orientations, with the real
    /// moments of inertia (world frame), kg m^2/s.
    pub fn synchronized_angmom(&self, c: usize, last_dt: Real) -> Vec3 {
        self.inertia(c) * self.synchronized_spin(c, last_dt)
    }
}

/// All three rotation bits.
pub const ROTATIONS: u8 = dof::RX | dof::RY | dof::RZ;

/// `R diag(d) Rᵀ` for the rotation `q`.
fn world_tensor(q: &Quat, d: &Vec3) -> Matrix3<Real> {
    let r = q.to_rotation_matrix().into_inner();
    r * Matrix3::from_diagonal(d) * r.transpose()
}
