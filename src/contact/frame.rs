//! Local contact coordinates (seed 002, Woo's `L6Geom`): a frame at the contact point whose
//! local x axis is the contact normal, carried along incrementally with the rigid rotation of
//! the contact, and the six generalized displacements measured in it: `u` (normal, then two
//! tangential) and `phi` (twist, then two bending).
//!
//! Derivation (our own; the seed's print is ambiguous where noted). Pieces 1 and 2 with the
//! normal `n` from 1 to 2. Each cycle the caller computes the current normal `n` directly and
//! the relative velocity of piece 2 with respect to piece 1 at the contact point,
//! `v_r = (v_2 + w_2 x b_2) - (v_1 + w_1 x b_1)` (branch vectors: [`FrameFlags::no_ratch`]).
//! Velocities are half a step behind positions (leapfrog), so they belong to the mid-step
//! `t - dt/2`. Then:
//!
//! 1. rigid bending rotation `o_r = n_prev x n` (sine of the angle between the normals: the
//!    small-angle rotation vector that takes `n_prev` to `n`);
//! 2. mid-step normal `n_mid = (n_prev + n)/2`, re-normalized (or `n_prev`: approximation);
//! 3. rigid twist `o_t = n_mid (n_mid . (w_1 + w_2)/2) dt`;
//! 4. each tangential axis `a` turns by the small rotation `o = o_r + o_t`:
//!    `a <- a + o x a` (the seed writes it `a - a x o`, the same thing), and the frame is made
//!    orthonormal again with `n` kept exactly (Gram-Schmidt);
//! 5. mid-step frame `T_mid = (T_prev + T)/2`, the mean of the two frames' axes (or `T_prev`:
//!    approximation). The seed's choice is the rotation half way, `slerp(T_prev, T, 1/2)`; the
//!    mean differs from it by `T_mid (cos(a/2) - 1) P` (`a` the angle the frame turned in the
//!    step, `P` the projection across the turn's axis), a relative `a^2/8`, about `1e-11`
//!    when a contact rolls at 10 rad/s with a step of 1 µs, without a quaternion, a square
//!    root or a division ([`half_way`]). A rigid rotation gives no tangential relative
//!    velocity, so objectivity does not rest on the choice;
//! 6. the increments `du_t = T_mid (v_r - (n_mid . v_r) n_mid) dt` (tangential part only) and
//!    `dphi = T_mid (w_2 - w_1) dt`, handed to the contact model ([`FrameStep`]);
//! 7. `u_x` is not integrated: it is the current `-overlap` (for spheres `|x_2 - x_1| - r_1 - r_2`).
//!
//! The seed's generalized displacements are the sums `u_t = sum du_t` and `phi = sum dphi`.
//! Every contact model here is incremental (it turns the increments into its own state, such
//! as the shear force), and none reads the sums, so the frame does not keep them: it keeps its
//! normal, its first tangential axis and `u_x` only (56 bytes, against 128 with the sums and
//! the second axis: the force loop streams the frames of every candidate pair each cycle). The
//! second tangential axis is `t_2 = n x t_1` wherever the frame is read: the update makes it
//! so (item 4), and the same product of the same kept numbers gives the same bits. The frame
//! tests sum the increments themselves.
//!
//! Convention: [`Frame::axes`] holds the local axes as **rows** (`n`, `t_1`, `t_2`), so the
//! local components of a world vector `v` are `axes * v` and a local vector `l` is
//! `axes^T * l` in the world frame. (The seed calls `T` a matrix whose first *row* is `n`,
//! then updates it "by columns" and writes `T^T v_r` for the local components; with rows as
//! axes the local components are `T v_r`, which is what is implemented.)

use crate::law::Kinematics;
use crate::math::{Real, Vec3};
use nalgebra::Matrix3;

/// The approximation flags and the branch-vector choice of the frame update (seed 002).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FrameFlags {
    /// Branch vectors `b_1 = r_1 n`, `b_2 = -r_2 n` instead of the vectors from each centre to
    /// the contact point ("noRatch": relative velocity independent of the overlap). NOTE: then a
    /// rigid rotation `W` of a pair overlapping by `d` shows a tangential velocity `-d W x n`,
    /// so `u_t` drifts under rigid rotation (tested); the default is off, which is objective.
    pub no_ratch: bool,
    /// Use the previous normal as the mid-step normal (approximation).
    pub previous_normal: bool,
    /// Use the previous frame as the mid-step frame instead of the slerp (approximation).
    pub previous_transform: bool,
    /// Do not re-normalize the mid-step normal and the frame (approximation). The frame keeps
    /// its normal and first tangential axis: the turned second axis serves the step's
    /// half-way frame, and the next step starts from `n x t_1`.
    pub no_renormalize: bool,
    /// Leave out the twist part `o_t` of the rigid rotation (project extension, not in the
    /// seed). NOTE: the frame then does not follow a rigid rotation about the normal, so it is
    /// not objective; it exists because the seed's twist, with a model that has no twisting
    /// resistance, lets a ball's spin about a contact normal turn that contact's shear force
    /// without any displacement, which can feed energy into a resting bed (the
    /// `settle_on_fixed_layer` case documents by how much).
    pub no_twist: bool,
}

/// The local frame of one contact and its normal displacement.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Frame {
    /// The normal, from piece 1 to piece 2 (first local axis).
    n: Vec3,
    /// The first tangential axis (the second is `n x t_1`: [`Frame::axes`]).
    t1: Vec3,
    /// The normal displacement `u_x` at the last update, m: minus the overlap
    /// (non-incremental; the next step's `du.x` is the change from it).
    pub u_normal: Real,
}

/// The local components, on the frame turned by [`Frame::swap_pieces`], of the opposite of
/// the world vector whose local components were `m` (a moment on piece 2 that becomes one on
/// the new piece 2, the old piece 1): `(m_x, m_y, -m_z)`.
#[inline]
pub fn swap_local(m: &mut Vec3) {
    m.z = -m.z;
}

/// What one update produced (for the contact model).
#[derive(Clone, Copy, Debug)]
pub struct FrameStep {
    /// Increment of the displacement `u` in this step (local; `x` component: change of the
    /// normal displacement).
    pub du: Vec3,
    /// Increment of the relative rotation `phi` in this step (local: twist, then bending).
    pub dphi: Vec3,
    /// Relative velocity at the contact point in the mid-step frame (local), m/s.
    pub vel: Vec3,
    /// Relative angular velocity in the mid-step frame (local), rad/s.
    pub spin: Vec3,
}

/// The initial local axes for a normal `n` (rows `n`, `t_1`, `t_2 = n x t_1`).
///
/// `t_1` is chosen deterministically: in the global xz plane (`t_1 = e_y x n`, normalized)
/// when `|n_y| < |n_z|`, otherwise in the global xy plane (`t_1 = e_z x n`). The seed states
/// the test without absolute values (`n_y < n_z`): for `n = (0, -1, 0)` that picks
/// `e_y x n = 0`, no axis at all (test `the_seed_axis_rule_fails_for_minus_y`). With absolute
/// values the cross product has length at least `1/sqrt(2)`.
pub fn initial_axes(n: &Vec3) -> Matrix3<Real> {
    let t1 = if n.y.abs() < n.z.abs() {
        Vec3::y().cross(n)
    } else {
        Vec3::z().cross(n)
    }
    .normalize();
    let t2 = n.cross(&t1);
    Matrix3::from_rows(&[n.transpose(), t1.transpose(), t2.transpose()])
}

impl Frame {
    /// A new frame at contact formation: axes from the normal, normal displacement `u_normal`.
    pub fn new(n: &Vec3, u_normal: Real) -> Self {
        Frame::from_axes(&initial_axes(n), u_normal)
    }

    /// A frame with the normal and first tangential axis of `axes` (rows; the third row is
    /// not read: it is their cross product) and the normal displacement `u_normal`.
    pub fn from_axes(axes: &Matrix3<Real>, u_normal: Real) -> Self {
        Frame {
            n: axes.row(0).transpose(),
            t1: axes.row(1).transpose(),
            u_normal,
        }
    }

    /// The local axes as rows: the normal, the first tangential axis, and the second
    /// `t_2 = n x t_1`.
    #[inline]
    pub fn axes(&self) -> Matrix3<Real> {
        let t2 = self.n.cross(&self.t1);
        Matrix3::from_rows(&[self.n.transpose(), self.t1.transpose(), t2.transpose()])
    }

    /// The contact normal (first local axis).
    #[inline]
    pub fn normal(&self) -> Vec3 {
        self.n
    }

    /// The first tangential axis.
    #[inline]
    pub fn tangent(&self) -> Vec3 {
        self.t1
    }

    /// Sets the normal, the first tangential axis (unit, normal to `n`) and the normal
    /// displacement, as an update leaves them.
    #[inline]
    pub(crate) fn set(&mut self, n: &Vec3, t1: &Vec3, u_normal: Real) {
        (self.n, self.t1, self.u_normal) = (*n, *t1, u_normal);
    }

    /// Local components of a world vector.
    #[inline]
    pub fn to_local(&self, v: &Vec3) -> Vec3 {
        self.axes() * v
    }

    /// World components of a local vector.
    #[inline]
    pub fn to_world(&self, l: &Vec3) -> Vec3 {
        self.axes().transpose() * l
    }

    /// The same contact seen with its pieces swapped (2 becomes 1): the normal turns over and
    /// so does the first tangential axis, `(n, t_1, t_2) -> (-n, -t_1, t_2)` (still
    /// right-handed: `(-n) x (-t_1) = t_2`). The normal displacement (minus the overlap)
    /// stays. A vector of piece 2 relative to piece 1 kept in this frame, such as the rolling
    /// spring's moment ([`super::Contacts::roll`]), becomes the opposite world vector, whose
    /// components on the new axes are `(M_x, M_y, -M_z)`: [`swap_local`].
    pub fn swap_pieces(&mut self) {
        self.n = -self.n;
        self.t1 = -self.t1;
    }

    /// Turns the frame so that its normal becomes `n` (unit), by the smallest rotation that
    /// takes the current normal to `n` (exact, any angle): the contact's state in local
    /// components (its model's shear force, the rolling spring) turns with the frame. Used
    /// where a contact's normal jumps by construction: a state handed to another facet, a
    /// proximity contact whose members change (the full mode). Opposite normals have no
    /// smallest rotation: the tangential axes are then mirrored through the plane they span
    /// with the normal.
    pub fn reaim(&mut self, n: &Vec3) {
        let old = self.normal();
        let c = old.dot(n);
        let axis = old.cross(n);
        let turn = |a: Vec3| -> Vec3 {
            // Rodrigues with sin = |axis|, cos = c, written without dividing by sin:
            // R a = a c + axis x a + axis (axis . a) / (1 + c).
            if c > -1.0 + 1e-12 {
                a * c + axis.cross(&a) + axis * (axis.dot(&a) / (1.0 + c))
            } else {
                a - old * (2.0 * old.dot(&a))
            }
        };
        let mut t1 = turn(self.t1);
        t1 -= n * n.dot(&t1);
        let len = t1.norm();
        self.t1 = if len > 0.0 {
            t1 / len
        } else {
            initial_axes(n).row(1).transpose()
        };
        self.n = *n;
    }

    /// Advances the frame by one step (items 1-7 of the module documentation).
    ///
    /// `n` is the current normal (unit, from 1 to 2), `v_rel` the relative velocity of 2 with
    /// respect to 1 at the contact point (mid-step), `w1`, `w2` the angular velocities
    /// (mid-step), `u_normal` the current normal displacement (-overlap).
    #[allow(clippy::too_many_arguments)]
    pub fn advance(
        &mut self,
        n: &Vec3,
        v_rel: &Vec3,
        w1: &Vec3,
        w2: &Vec3,
        u_normal: Real,
        dt: Real,
        flags: FrameFlags,
    ) -> FrameStep {
        let prev = self.axes();
        let n_prev = self.n;
        let o_r = n_prev.cross(n);
        let mut n_mid = if flags.previous_normal {
            n_prev
        } else {
            0.5 * (n_prev + n)
        };
        if !flags.no_renormalize {
            let len = n_mid.norm();
            // NOTE: n_prev = -n (a normal flipped in one step) has no mid-step normal; keep n.
            n_mid = if len > 0.0 { n_mid / len } else { *n };
        }
        let o_t = if flags.no_twist {
            Vec3::zeros()
        } else {
            n_mid * (n_mid.dot(&(0.5 * (w1 + w2))) * dt)
        };
        let o = o_r + o_t;
        let turn = |a: Vec3| a + o.cross(&a);
        let mut t1 = turn(prev.row(1).transpose());
        let mut t2 = turn(prev.row(2).transpose());
        if !flags.no_renormalize {
            t1 -= n * n.dot(&t1);
            let len = t1.norm();
            t1 = if len > 0.0 {
                t1 / len
            } else {
                initial_axes(n).row(1).transpose()
            };
            t2 = n.cross(&t1);
        }
        // (with `no_renormalize` the turned t_2 serves this step's half-way frame; the frame
        // keeps n and t_1, and its next t_2 is n x t_1)
        let next = Matrix3::from_rows(&[n.transpose(), t1.transpose(), t2.transpose()]);
        (self.n, self.t1) = (*n, t1);
        let v_t = v_rel - n_mid * n_mid.dot(v_rel);
        let [vel, spin] = if flags.previous_transform {
            [prev * v_t, prev * (w2 - w1)]
        } else {
            half_way(&prev, &next, [v_t, w2 - w1])
        };
        let mut du = vel * dt;
        du.x = u_normal - self.u_normal;
        let dphi = spin * dt;
        self.u_normal = u_normal;
        FrameStep {
            du,
            dphi,
            vel,
            spin,
        }
    }
}

/// The local components of the world vectors `vs` in the mid-step frame of the step that
/// turned the frame `a` into `b` (axes as rows): the mean `(a + b)/2` of their axes (module
/// documentation, item 5). Row by row, `((a_k + b_k) * 1/2) . v`.
#[inline]
fn half_way(a: &Matrix3<Real>, b: &Matrix3<Real>, vs: [Vec3; 2]) -> [Vec3; 2] {
    let mid = (a + b) * 0.5;
    vs.map(|v| mid * v)
}

impl Kinematics {
    /// What the model sees of a contact whose frame has just advanced by `step` over `dt`:
    /// the tangential parts (local `y`, `z`) of the step's velocity and displacement
    /// increment, and the previous overlap (the frame's normal displacement before the step).
    #[inline]
    pub fn of_step(
        overlap: Real,
        vn: Real,
        step: &FrameStep,
        mass: Real,
        radius: Real,
        dt: Real,
        books: bool,
    ) -> Self {
        Kinematics {
            overlap,
            // (du.x is the change of the normal displacement -overlap)
            overlap_prev: overlap + step.du.x,
            vn,
            vel_t: Vec3::new(0.0, step.vel.y, step.vel.z),
            du_t: Vec3::new(0.0, step.du.y, step.du.z),
            mass,
            radius,
            dt,
            books,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::half_way;
    use crate::math::{Real, Vec3};
    use crate::rng::SplitMix64;
    use nalgebra::{Matrix3, Quaternion, Rotation3, Unit, UnitQuaternion};

    /// The pieces swapped: the rolling spring's moment on the new piece 2 is the opposite world
    /// vector of the one on the old piece 2 (action and reaction); the normal displacement
    /// stays; swapping twice gives the frame and the moment back, bit for bit.
    #[test]
    fn swapping_the_pieces_turns_the_couple_over() {
        let n = Vec3::new(0.3, -0.5, 0.8).normalize();
        let mut f = super::Frame::new(&n, -1e-4);
        let mut roll = Vec3::new(0.1, 2e-3, -5e-4);
        let (world, local) = (f.to_world(&roll), roll);
        let before = f;
        f.swap_pieces();
        super::swap_local(&mut roll);
        assert!((f.to_world(&roll) + world).norm() < 1e-18);
        assert_eq!(f.u_normal, -1e-4);
        f.swap_pieces();
        super::swap_local(&mut roll);
        assert_eq!(roll, local);
        assert_eq!(f, before);
    }

    /// [`half_way`] against the slerp at 1/2 built another way: the two frames' unit
    /// quaternions (nalgebra's matrix-to-quaternion), added in one hemisphere and normalized
    /// (the midpoint of the great arc between them), turned back into a matrix `M`. For a turn
    /// by `t` about the world axis `e` the mean of the axes is `M (I - (1 - cos(t/2)) P)`,
    /// `P = I - e e^T` (module documentation, item 5; derived in the test's comment): random
    /// frames turned by up to 1e-3 rad (a step) and up to 3 rad about random axes give those
    /// components to 1e-14 and 1e-13 of the vector's length, and at a step's turn the mean
    /// is within `t^2/8` of the slerp's.
    #[test]
    fn the_mean_frame_is_the_slerp_at_one_half_shrunk_across_the_turn() {
        // B = R A (local-to-world, R the turn by t about e), so b = a R(-t) in rows, and
        // (a + b)/2 = a (I + R(-t))/2 = a R(-t/2) (R(t/2) + R(-t/2))/2, where
        // (R(s) + R(-s))/2 = e e^T + cos(s) P: the slerp's a R(-t/2) times I - (1 - cos) P.
        let mut rng = SplitMix64::new(3);
        let vec = |rng: &mut SplitMix64| {
            Vec3::new(rng.next_unit(), rng.next_unit(), rng.next_unit()) - Vec3::repeat(0.5)
        };
        let unit = |rng: &mut SplitMix64| Unit::new_normalize(vec(rng));
        for k in 0..2000 {
            let qa = UnitQuaternion::from_axis_angle(&unit(&mut rng), rng.next_unit() * 6.0);
            let (largest, tolerance) = if k % 2 == 0 {
                (1e-3, 1e-14)
            } else {
                (3.0, 1e-13)
            };
            let (e, turn) = (unit(&mut rng), largest * rng.next_unit());
            let qb = UnitQuaternion::from_axis_angle(&e, turn) * qa;
            // (axes as rows: the transpose of local-to-world)
            let rows = |q: &UnitQuaternion<Real>| -> Matrix3<Real> {
                q.to_rotation_matrix().matrix().transpose()
            };
            let (a, b) = (rows(&qa), rows(&qb));
            let quat = |m: &Matrix3<Real>| {
                UnitQuaternion::from_rotation_matrix(&Rotation3::from_matrix_unchecked(
                    m.transpose(),
                ))
            };
            let (ca, cb) = (quat(&a).into_inner().coords, quat(&b).into_inner().coords);
            let sum = if ca.dot(&cb) >= 0.0 { ca + cb } else { ca - cb };
            let mid = rows(&UnitQuaternion::new_normalize(Quaternion::from(sum)));
            let vs = [vec(&mut rng), vec(&mut rng)];
            let shrink = 1.0 - (0.5 * turn).cos();
            for (v, g) in vs.iter().zip(half_way(&a, &b, vs)) {
                let across = v - e.into_inner() * e.dot(v);
                let want = mid * (v - across * shrink);
                assert!(
                    (g - want).norm() <= tolerance * v.norm(),
                    "{k}: {g:?} against {want:?}"
                );
                if k % 2 == 0 {
                    let slerp = mid * v;
                    let bound = turn * turn / 8.0 + 1e-15;
                    assert!((g - slerp).norm() <= bound * v.norm(), "{k}");
                }
            }
        }
        // a frame that did not turn is its own midpoint
        let a = Rotation3::from_axis_angle(&Vec3::x_axis(), 0.3)
            .matrix()
            .transpose();
        let v = Vec3::new(0.1, -0.2, 0.3);
        assert_eq!(half_way(&a, &a, [v, v])[0], a * v);
    }
}
