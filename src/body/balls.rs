//! Balls: spherical bodies with six degrees of freedom, stored as a structure of arrays.

use super::error::{finite_state, ModelError};
use crate::math::{vec3, Real, Vec3, PI};

/// Degrees of freedom that can be fixed, as bits of [`Balls::fixed`].
pub mod dof {
    /// Translation along x.
    pub const X: u8 = 1;
    /// Translation along y.
    pub const Y: u8 = 2;
    /// Translation along z.
    pub const Z: u8 = 4;
    /// Rotation about x.
    pub const RX: u8 = 8;
    /// Rotation about y.
    pub const RY: u8 = 16;
    /// Rotation about z.
    pub const RZ: u8 = 32;
    /// All three translations.
    pub const TRANSLATION: u8 = X | Y | Z;
    /// Every degree of freedom.
    pub const ALL: u8 = 63;

    /// The bit of a DOF name used in case files ("x", "y", "z", "rx", "ry", "rz").
    pub fn from_name(name: &str) -> Option<u8> {
        Some(match name {
            "x" => X,
            "y" => Y,
            "z" => Z,
            "rx" => RX,
            "ry" => RY,
            "rz" => RZ,
            _ => return None,
        })
    }
}

/// [`Balls::clump`] of a piece that is not a pebble.
pub const NO_CLUMP: u32 = u32::MAX;

/// What a user gives to create one ball; everything else is derived.
#[derive(Clone, Debug)]
pub struct BallSpec {
    /// User-visible identifier (unique).
    pub id: u64,
    /// Centroid position, m.
    pub pos: Vec3,
    /// Radius, m (> 0).
    pub radius: Real,
    /// Index of the material in the model.
    pub material: usize,
    /// Initial velocity, m/s.
    pub vel: Vec3,
    /// Initial angular velocity, rad/s.
    pub spin: Vec3,
    /// Applied force, N (constant during the run).
    pub applied_force: Vec3,
    /// Fixed degrees of freedom, bits of [`dof`]: their velocity stays at its initial value.
    pub fixed: u8,
    /// Mass (kg) and moment of inertia (kg m^2) given explicitly instead of those of a solid
    /// sphere of the material's density.
    pub mass: Option<(Real, Real)>,
}

impl BallSpec {
    /// A ball at rest with nothing fixed and no applied force.
    pub fn at_rest(id: u64, pos: [Real; 3], radius: Real, material: usize) -> Self {
        BallSpec {
            id,
            pos: vec3(pos),
            radius,
            material,
            vel: Vec3::zeros(),
            spin: Vec3::zeros(),
            applied_force: Vec3::zeros(),
            fixed: 0,
            mass: None,
        }
    }
}

/// Every ball of the model, one entry per ball in each array (index = ball index).
///
/// Velocities are stored half a timestep out of phase with positions (seed 000, law of motion);
/// [`crate::model::Model::synchronized_velocity`] gives the velocity at the time of the positions.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct Balls {
    /// User-visible identifiers.
    pub id: Vec<u64>,
    /// Radius, m.
    pub radius: Vec<Real>,
    /// Material index.
    pub material: Vec<u16>,
    /// Gravitational mass, kg (density x volume): weight = mass x gravity.
    pub mass: Vec<Real>,
    /// Inertial mass, kg: equals `mass` unless timestep scaling changes it.
    pub inertial_mass: Vec<Real>,
    /// Moment of inertia about any centroidal axis, kg m^2 (2/5 m r^2 for a solid sphere).
    pub inertia: Vec<Real>,
    /// Inertial moment of inertia, kg m^2: equal to `inertia` except under timestep scaling
    /// (seed 000, eq. 7), which replaces it by a fictitious value.
    pub inertial_inertia: Vec<Real>,
    /// Centroid position at the current time, m (world frame).
    pub pos: Vec<Vec3>,
    /// Velocity half a step behind the positions, m/s (world frame).
    pub vel: Vec<Vec3>,
    /// Angular velocity half a step behind the positions, rad/s (world frame). (A sphere's
    /// orientation enters no force and no output, so it is not integrated; LIGGGHTS's
    /// `nve/sphere` does not either.)
    pub spin: Vec<Vec3>,
    /// Resultant contact force at the current positions, N (world frame).
    pub force: Vec<Vec3>,
    /// Resultant contact moment about the centroid, N m (world frame).
    pub moment: Vec<Vec3>,
    /// Applied force, N (world frame).
    pub applied_force: Vec<Vec3>,
    /// Fixed DOFs, bits of [`dof`].
    pub fixed: Vec<u8>,
    /// The clump a pebble belongs to, or [`NO_CLUMP`] for a ball.
    pub clump: Vec<u32>,
    /// The periodic cell the positions live in (`[domain]`), if any: two balls then interact
    /// through the nearest of their images ([`Balls::partner`]).
    pub cell: Option<crate::geom::Cell>,
}

/// Applies `$f` (a closure-like `|v| expr`, generic over the element type) to every per-ball
/// array of `$balls`. Every field is named: a new one does not compile until it is added here,
/// so that no operation on all the arrays (room, renumbering) forgets it.
macro_rules! for_each_array {
    ($balls:expr, |$v:ident| $body:expr) => {{
        let Balls {
            id,
            radius,
            material,
            mass,
            inertial_mass,
            inertia,
            inertial_inertia,
            pos,
            vel,
            spin,
            force,
            moment,
            applied_force,
            fixed,
            clump,
            cell: _,
        } = $balls;
        {
            let $v = id;
            $body;
        }
        {
            let $v = radius;
            $body;
        }
        {
            let $v = material;
            $body;
        }
        {
            let $v = mass;
            $body;
        }
        {
            let $v = inertial_mass;
            $body;
        }
        {
            let $v = inertia;
            $body;
        }
        {
            let $v = inertial_inertia;
            $body;
        }
        {
            let $v = pos;
            $body;
        }
        {
            let $v = vel;
            $body;
        }
        {
            let $v = spin;
            $body;
        }
        {
            let $v = force;
            $body;
        }
        {
            let $v = moment;
            $body;
        }
        {
            let $v = applied_force;
            $body;
        }
        {
            let $v = fixed;
            $body;
        }
        {
            let $v = clump;
            $body;
        }
    }};
}
pub(crate) use for_each_array;

impl Balls {
    /// Number of balls.
    pub fn len(&self) -> usize {
        self.id.len()
    }

    /// True when there is no ball.
    pub fn is_empty(&self) -> bool {
        self.id.is_empty()
    }

    /// Adds a ball of a material of `materials` after checking it (a positive finite radius
    /// and density, a finite state, an id not in `ids`, which takes it; a 2D disk stays in
    /// its plane); returns its index.
    ///
    /// # Errors
    /// [`ModelError`]: a radius or density that is not positive, a non-finite value, a
    /// repeated id, an unknown material, a disk out of its plane, a mass that is not a
    /// positive finite number.
    pub fn add(
        &mut self,
        spec: &BallSpec,
        materials: &[super::Material],
        ids: &mut crate::storage::IdSet,
        planar: bool,
    ) -> Result<usize, ModelError> {
        let id = spec.id;
        if !(spec.radius.is_finite() && spec.radius > 0.0) {
            return Err(ModelError::BadRadius {
                id,
                radius: spec.radius,
            });
        }
        let Some(mat) = materials.get(spec.material) else {
            return Err(ModelError::UnknownMaterial {
                id,
                material: spec.material,
            });
        };
        if !(mat.density.is_finite() && mat.density > 0.0) {
            return Err(ModelError::BadDensity {
                name: mat.name.clone(),
                density: mat.density,
            });
        }
        finite_state(id, &spec.pos, &spec.vel, &spec.spin, &spec.applied_force)?;
        if !ids.insert(id) {
            return Err(ModelError::DuplicateId(id));
        }
        if planar {
            if spec.pos.z != 0.0 || spec.vel.z != 0.0 || spec.spin.x != 0.0 || spec.spin.y != 0.0 {
                return Err(ModelError::OutOfPlane(id));
            }
            let r = spec.radius;
            let disk = {
                let m = mat.density * PI * r * r;
                (m, 0.5 * m * r * r)
            };
            let spec = BallSpec {
                fixed: spec.fixed | dof::Z | dof::RX | dof::RY,
                mass: Some(spec.mass.unwrap_or(disk)),
                ..spec.clone()
            };
            let i = self.push(&spec, mat.density);
            return self.mass_is_finite(i, mat.density);
        }
        let i = self.push(spec, mat.density);
        self.mass_is_finite(i, mat.density)
    }

    /// Ball `i` if its mass and moment of inertia are positive finite numbers.
    fn mass_is_finite(&self, i: usize, density: Real) -> Result<usize, ModelError> {
        let b = self;
        for (what, value) in [("mass", b.mass[i]), ("moment of inertia", b.inertia[i])] {
            if !(value.is_finite() && value > 0.0) {
                return Err(ModelError::BadMass {
                    body: format!("ball {}", b.id[i]),
                    what,
                    value,
                    radius: b.radius[i],
                    density,
                });
            }
        }
        Ok(i)
    }

    /// Appends a ball of the given density; returns its index.
    pub fn push(&mut self, spec: &BallSpec, density: Real) -> usize {
        let r = spec.radius;
        // A solid sphere: m = rho 4/3 pi r^3, I = 2/5 m r^2 (unless given).
        let (mass, inertia) = spec.mass.unwrap_or_else(|| {
            let m = density * 4.0 / 3.0 * PI * r * r * r;
            (m, 0.4 * m * r * r)
        });
        self.id.push(spec.id);
        self.radius.push(r);
        self.material.push(spec.material as u16);
        self.mass.push(mass);
        self.inertial_mass.push(mass);
        self.inertia.push(inertia);
        self.inertial_inertia.push(inertia);
        self.pos.push(spec.pos);
        self.vel.push(spec.vel);
        self.spin.push(spec.spin);
        self.force.push(Vec3::zeros());
        self.moment.push(Vec3::zeros());
        self.applied_force.push(spec.applied_force);
        self.fixed.push(spec.fixed);
        self.clump.push(NO_CLUMP);
        self.id.len() - 1
    }

    /// Room for `n` balls in every per-ball array at once (see [`crate::storage::room`]):
    /// arrays that grow ball by ball double a dozen times, and in the allocator's heap each
    /// doubling leaves its old block behind, resident.
    pub fn make_room(&mut self, n: usize) {
        for_each_array!(self, |v| crate::storage::room(v, n));
    }

    /// Keeps the balls `i` with `keep[i]` true, in their order, and drops the others from
    /// every per-ball array.
    pub fn keep(&mut self, keep: &[bool]) {
        debug_assert_eq!(keep.len(), self.len());
        for_each_array!(self, |v| {
            let mut k = 0;
            v.retain(|_| {
                k += 1;
                keep[k - 1]
            })
        });
    }

    /// Appends the balls `indices` of `other` (in that order), every per-ball array.
    pub fn extend_from(&mut self, other: &Balls, indices: impl Iterator<Item = usize> + Clone) {
        let Balls {
            id,
            radius,
            material,
            mass,
            inertial_mass,
            inertia,
            inertial_inertia,
            pos,
            vel,
            spin,
            force,
            moment,
            applied_force,
            fixed,
            clump,
            cell: _,
        } = other;
        macro_rules! each {
            ($($v:ident),*) => {
                $(self.$v.extend(indices.clone().map(|i| $v[i].clone()));)*
            };
        }
        each!(
            id,
            radius,
            material,
            mass,
            inertial_mass,
            inertia,
            inertial_inertia,
            pos,
            vel,
            spin,
            force,
            moment,
            applied_force,
            fixed,
            clump
        );
    }

    /// Appends pebble `pos`, `radius` of clump `clump` (index) with id `id` (the clump's) and the
    /// clump's mass: no mass of its own, every DOF fixed (the clump moves it), the clump's mass
    /// as the inertial mass a contact sees. Returns its index.
    pub(crate) fn push_pebble(
        &mut self,
        id: u64,
        pos: Vec3,
        radius: Real,
        material: usize,
        clump: usize,
        clump_mass: Real,
    ) -> usize {
        let spec = BallSpec {
            fixed: dof::ALL,
            ..BallSpec::at_rest(id, [pos.x, pos.y, pos.z], radius, material)
        };
        let i = self.push(&spec, 0.0);
        self.inertial_mass[i] = clump_mass;
        self.clump[i] = clump as u32;
        i
    }

    /// True when piece `i` is the pebble of a clump.
    #[inline]
    pub fn is_pebble(&self, i: usize) -> bool {
        self.clump[i] != NO_CLUMP
    }

    /// Mass seen by a contact: infinite (returned as `None`) when every translation is fixed.
    /// A pebble (whose own DOFs are all fixed) sees its clump's mass, kept in its
    /// `inertial_mass` (infinite when the clump's translations are all fixed). A ball free to
    /// translate is never a pebble, so the clump array is read only for fixed balls (two
    /// arrays per free ball, not three: the Hertz force loop calls this twice per contact).
    #[inline]
    pub fn contact_mass(&self, i: usize) -> Option<Real> {
        mass_seen(self.inertial_mass[i], self.fixed[i], || self.is_pebble(i))
    }

    /// The arrays a contact's update reads of its balls, cut to one length (inlined, so that
    /// the compiler sees the one length: an index checked against one array is then known to
    /// be in the others).
    #[inline(always)]
    pub fn rows(&self) -> Rows<'_> {
        let n = self.pos.len();
        Rows {
            pos: &self.pos[..n],
            vel: &self.vel[..n],
            spin: &self.spin[..n],
            radius: &self.radius[..n],
            inertial_mass: &self.inertial_mass[..n],
            fixed: &self.fixed[..n],
            clump: &self.clump[..n],
            cell: self.cell.as_ref(),
            half: self
                .cell
                .as_ref()
                .map_or([Real::INFINITY; 3], |c| c.halves()),
        }
    }

    /// The position of ball `i` as outputs show it: in a periodic cell, brought into the cell
    /// (the model wraps its balls at each build of the candidate pairs only, and a ball may lie
    /// up to a margin outside between two builds).
    pub fn shown(&self, i: usize) -> Vec3 {
        let mut p = self.pos[i];
        if let Some(c) = &self.cell {
            // (under shear, through a gradient face with the offset, as the model brings it)
            c.wrap_body(&mut p, &mut Vec3::zeros());
        }
        p
    }

    /// The position of ball `b`, or in a periodic cell that of its image nearest to ball `a`:
    /// where `b` is for a contact of `a` and `b`.
    #[inline(always)]
    pub fn partner(&self, a: usize, b: usize) -> Vec3 {
        crate::geom::image(self.cell.as_ref(), &self.pos[a], &self.pos[b])
    }

    /// [`Balls::partner`] and the velocity of that image (under Lees-Edwards shear, b's own
    /// plus the velocity of its image cell).
    #[inline(always)]
    pub fn partner_motion(&self, a: usize, b: usize) -> (Vec3, Vec3) {
        let cell = self.cell.as_ref();
        crate::geom::image_motion(cell, &self.pos[a], &self.pos[b], &self.vel[b])
    }
}

/// [`Balls::contact_mass`] of a ball with inertial mass `m` and fixity `fixed` (`pebble`:
/// whether it is the pebble of a clump, asked of fixed balls only).
#[inline(always)]
fn mass_seen(m: Real, fixed: u8, pebble: impl FnOnce() -> bool) -> Option<Real> {
    if fixed & dof::TRANSLATION != dof::TRANSLATION {
        Some(m)
    } else if pebble() {
        m.is_finite().then_some(m)
    } else {
        None
    }
}

/// The per-ball arrays a contact's update reads ([`Balls::rows`]), every one cut to the
/// number of balls: in a loop over contacts, the check of a ball's index against one of them
/// serves them all (about a dozen bounds checks fewer per contact).
#[derive(Clone, Copy)]
pub struct Rows<'a> {
    /// [`Balls::pos`].
    pub pos: &'a [Vec3],
    /// [`Balls::vel`].
    pub vel: &'a [Vec3],
    /// [`Balls::spin`].
    pub spin: &'a [Vec3],
    /// [`Balls::radius`].
    pub radius: &'a [Real],
    /// [`Balls::inertial_mass`].
    pub inertial_mass: &'a [Real],
    /// [`Balls::fixed`].
    pub fixed: &'a [u8],
    /// [`Balls::clump`].
    pub clump: &'a [u32],
    /// [`Balls::cell`].
    pub cell: Option<&'a crate::geom::Cell>,
    /// The cell's [`crate::geom::Cell::halves`] (infinite without a cell).
    pub half: [Real; 3],
}

impl Rows<'_> {
    /// [`Balls::partner`].
    #[inline(always)]
    pub fn partner(&self, a: usize, b: usize) -> Vec3 {
        let (pa, pb) = (&self.pos[a], &self.pos[b]);
        // (a pair away from the cell's faces: b itself, tested against the halves taken once)
        if self.cell.is_none() || crate::geom::within(&self.half, &(pb - pa)) {
            return *pb;
        }
        crate::geom::image(self.cell, pa, pb)
    }

    /// [`Balls::partner_motion`].
    #[inline(always)]
    pub fn partner_motion(&self, a: usize, b: usize) -> (Vec3, Vec3) {
        let (pa, pb) = (&self.pos[a], &self.pos[b]);
        if self.cell.is_none() || crate::geom::within(&self.half, &(pb - pa)) {
            return (*pb, self.vel[b]);
        }
        crate::geom::image_motion(self.cell, pa, pb, &self.vel[b])
    }

    /// [`Balls::contact_mass`].
    #[inline(always)]
    pub fn contact_mass(&self, i: usize) -> Option<Real> {
        mass_seen(self.inertial_mass[i], self.fixed[i], || {
            self.clump[i] != NO_CLUMP
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// With room made for n balls, adding n balls moves none of the per-ball arrays (each
    /// keeps its block and capacity); without it, they grow.
    #[test]
    fn balls_added_within_their_room_move_no_array() {
        let add = |balls: &mut Balls, n: u64| {
            for k in 0..n {
                balls.push(&BallSpec::at_rest(k, [k as Real, 0.0, 0.0], 0.5, 0), 1000.0);
            }
        };
        let blocks = |b: &Balls| {
            (
                [
                    b.id.as_ptr() as usize,
                    b.pos.as_ptr() as usize,
                    b.fixed.as_ptr() as usize,
                ],
                [b.id.capacity(), b.pos.capacity(), b.fixed.capacity()],
            )
        };
        let mut balls = Balls::default();
        balls.make_room(300);
        let before = blocks(&balls);
        add(&mut balls, 300);
        assert_eq!(blocks(&balls), before, "an array moved or grew");
        let mut balls = Balls::default();
        let capacity = balls.pos.capacity();
        add(&mut balls, 300);
        assert!(
            balls.pos.capacity() > capacity,
            "test premise: arrays grow without room"
        );
    }
}
