//! A batch of eight frame-model contacts in lane arrays: loading, geometry, the frame's
//! advance, the model's force and the force back in world coordinates, each a branch-free
//! loop over the lanes (the arithmetic of [`crate::contact::ball_ball::update`], bit for bit).

use super::super::history::{unit_normal, LANES};
use super::super::masses::effective_of;
use super::super::runs::Scatter;
use crate::body::{Balls, Rows};
use crate::contact::ball_ball::{released, Out};
use crate::contact::{Contact, Frame, FrameFlags};
use crate::law::lanes::{self as law_lanes, Ahead, Lanes, LawLoop, Seen};
use crate::law::{ContactModel, Kinematics, LawState};
use crate::math::{Real, Vec3};

type Lane = [Real; LANES];
pub(super) type Lane3 = [Lane; 3];

/// A batch: the balls of each lane's contact, then what the lanes computed.
#[derive(Default)]
pub(super) struct Batch {
    pub(super) pa: Lane3,
    pub(super) pb: Lane3,
    pub(super) ra: Lane,
    pub(super) rb: Lane,
    /// The balls' contact masses ([`super::super::masses::NO_MASS`] for none).
    pub(super) ma: Lane,
    pub(super) mb: Lane,
    pub(super) va: Lane3,
    pub(super) vb: Lane3,
    pub(super) wa: Lane3,
    pub(super) wb: Lane3,
    // geometry (from [`Batch::geometry`]), with the effective radius and mass
    pub(super) overlap: Lane,
    pub(super) radius: Lane,
    pub(super) mass: Lane,
    pub(super) n: Lane3,
    pub(super) point: Lane3,
    pub(super) v_rel: Lane3,
    pub(super) vn: Lane,
    // the frames before their advance: rows `n_prev`, `t_1` (`t_2 = n_prev x t_1`, formed in
    // [`Batch::advance`]), and the normal displacement `u_x`
    pub(super) axes: [Lane3; 2],
    pub(super) u_normal: Lane,
    // the advance (from [`Batch::advance`])
    pub(super) t1: Lane3,
    pub(super) t2: Lane3,
    /// The model's inputs (what it sees of each lane: [`Kinematics::of_step`]) and results
    /// ([`crate::law::lanes`]).
    pub(super) law: Lanes,
    /// A lane the vector loop cannot follow ([`Frame::advance`] computes it again).
    pub(super) odd: [bool; LANES],
    /// An odd lane's force on b (world), N.
    pub(super) odd_force: [Vec3; LANES],
    // the force on b in the world frame and its moments about the centres of a and b (from
    // [`Batch::exerted`])
    pub(super) world: Lane3,
    pub(super) arm_a: Lane3,
    pub(super) arm_b: Lane3,
}

/// `x . y` as nalgebra computes it.
#[inline(always)]
fn dot(x: [Real; 3], y: [Real; 3]) -> Real {
    x[0] * y[0] + x[1] * y[1] + x[2] * y[2]
}

/// `x x y` as nalgebra computes it.
#[inline(always)]
fn cross(x: [Real; 3], y: [Real; 3]) -> [Real; 3] {
    [
        x[1] * y[2] - x[2] * y[1],
        x[2] * y[0] - x[0] * y[2],
        x[0] * y[1] - x[1] * y[0],
    ]
}

/// Lane `l` of a lane vector.
#[inline(always)]
pub(super) fn at(v: &Lane3, l: usize) -> [Real; 3] {
    [v[0][l], v[1][l], v[2][l]]
}

/// Writes `x` into lane `l` of `v`.
#[inline(always)]
pub(super) fn put(v: &mut Lane3, l: usize, x: [Real; 3]) {
    for k in 0..3 {
        v[k][l] = x[k];
    }
}

impl Batch {
    /// Copies the balls of contact `c` into lane `l` (`mass`: every ball's contact mass,
    /// [`super::super::masses::contact_masses`]).
    #[inline(always)]
    pub(super) fn load(&mut self, l: usize, c: &Contact, (balls, mass): (&Rows, &[Real])) {
        let l = l & (LANES - 1);
        let (a, b) = (c.a as usize, c.b as usize);
        put(&mut self.pa, l, balls.pos[a].into());
        let (pb, vb) = balls.partner_motion(a, b);
        put(&mut self.pb, l, pb.into());
        put(&mut self.va, l, balls.vel[a].into());
        put(&mut self.vb, l, vb.into());
        put(&mut self.wa, l, balls.spin[a].into());
        put(&mut self.wb, l, balls.spin[b].into());
        self.ra[l] = balls.radius[a];
        self.rb[l] = balls.radius[b];
        self.ma[l] = mass[a];
        self.mb[l] = mass[b];
    }

    /// [`crate::contact::ball_ball::geometry`] of every lane (overlap, unit normal from a to b, contact
    /// point), and the relative velocity of b with respect to a at the contact point
    /// (branch vectors from each centre to it, or `r_a n` and `-r_b n` with `no_ratch`) with
    /// its normal component.
    #[inline(always)]
    pub(super) fn geometry(&mut self, no_ratch: bool) {
        // (the choice a constant in each loop: the branch vectors not taken are not formed)
        if no_ratch {
            self.geometry_with::<true>()
        } else {
            self.geometry_with::<false>()
        }
    }

    /// [`Batch::geometry`] with `no_ratch` equal to `NO_RATCH`.
    #[inline(always)]
    pub(super) fn geometry_with<const NO_RATCH: bool>(&mut self) {
        for l in 0..LANES {
            let (pa, pb) = (at(&self.pa, l), at(&self.pb, l));
            let (ra, rb) = (self.ra[l], self.rb[l]);
            let d = [pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2]];
            let (dist, n) = unit_normal(d);
            let overlap = ra + rb - dist;
            let reach = ra - 0.5 * overlap;
            let point = [0, 1, 2].map(|k| pa[k] + n[k] * reach);
            let (ba, bb) = if NO_RATCH {
                (n.map(|x| x * ra), n.map(|x| -x * rb))
            } else {
                (
                    [0, 1, 2].map(|k| point[k] - pa[k]),
                    [0, 1, 2].map(|k| point[k] - pb[k]),
                )
            };
            let (ca, cb) = (cross(at(&self.wa, l), ba), cross(at(&self.wb, l), bb));
            let (va, vb) = (at(&self.va, l), at(&self.vb, l));
            let v = [0, 1, 2].map(|k| (vb[k] + cb[k]) - (va[k] + ca[k]));
            self.overlap[l] = overlap;
            self.radius[l] = ra * rb / (ra + rb);
            self.mass[l] = effective_of(self.ma[l], self.mb[l]);
            put(&mut self.n, l, n);
            put(&mut self.point, l, point);
            put(&mut self.v_rel, l, v);
            self.vn[l] = dot(v, n);
        }
    }

    /// Copies the frame `f` (before its advance) into lane `l`.
    #[inline(always)]
    pub(super) fn load_frame(&mut self, l: usize, f: &Frame) {
        let l = l & (LANES - 1);
        put(&mut self.axes[0], l, f.normal().into());
        put(&mut self.axes[1], l, f.tangent().into());
        self.u_normal[l] = f.u_normal;
    }

    /// [`Frame::advance`] of every lane (the flags of [`lanes_follow`]): the new tangential
    /// axes, and the relative velocity (tangential part) in the mid-step frame.
    #[inline(always)]
    pub(super) fn advance(&mut self, dt: Real, no_twist: bool) {
        for l in 0..LANES {
            let step = self.advance_lane(l, dt, no_twist);
            self.keep_advance(l, &step);
        }
    }

    /// [`Batch::advance`] of lane `l`: its new tangential axes, what the model sees of it
    /// (with the state loaded into [`Batch::law`]), whether it is odd.
    #[inline(always)]
    pub(super) fn advance_lane(&self, l: usize, dt: Real, no_twist: bool) -> Advanced {
        let n = at(&self.n, l);
        let (n_prev, t1_prev) = (at(&self.axes[0], l), at(&self.axes[1], l));
        // ([`Frame::axes`]' second tangential axis)
        let prev = [n_prev, t1_prev, cross(n_prev, t1_prev)];
        let o_r = cross(n_prev, n);
        let mid = [0, 1, 2].map(|k| 0.5 * (n_prev[k] + n[k]));
        let len = dot(mid, mid).sqrt();
        let n_mid = if len > 0.0 {
            [mid[0] / len, mid[1] / len, mid[2] / len]
        } else {
            n
        };
        let (wa, wb) = (at(&self.wa, l), at(&self.wb, l));
        let half = [0, 1, 2].map(|k| 0.5 * (wa[k] + wb[k]));
        let twist = dot(n_mid, half) * dt;
        let o_t = n_mid.map(|x| if no_twist { 0.0 } else { x * twist });
        let o = [0, 1, 2].map(|k| o_r[k] + o_t[k]);
        // the first tangential axis turned, made normal to n and unit; the second n x t_1
        let turned = cross(o, prev[1]);
        let mut t1 = [0, 1, 2].map(|k| prev[1][k] + turned[k]);
        let along = dot(n, t1);
        t1 = [0, 1, 2].map(|k| t1[k] - n[k] * along);
        let len = dot(t1, t1).sqrt();
        let t1 = [t1[0] / len, t1[1] / len, t1[2] / len];
        let t2 = cross(n, t1);
        let next = [n, t1, t2];
        // the tangential relative velocity at mid-step, and the relative spin
        let v = at(&self.v_rel, l);
        let along = dot(n_mid, v);
        let v_t = [0, 1, 2].map(|k| v[k] - n_mid[k] * along);
        // [`crate::contact::frame`]'s `half_way`: the mean of the old and new axes (the
        // normal row not taken: the model sees the tangential components only)
        let mean = |r: usize| [0, 1, 2].map(|k| (prev[r][k] + next[r][k]) * 0.5);
        let vel = [0.0, dot(mean(1), v_t), dot(mean(2), v_t)];
        // (the relative spin's turn, [`Frame::advance`]'s `dphi`, is not taken: no
        // model reads it: [`Kinematics`] has none)
        // (`du.x`: the change of the normal displacement, -overlap)
        let du = [
            -self.overlap[l] - self.u_normal[l],
            vel[1] * dt,
            vel[2] * dt,
        ];
        // what the model sees ([`Kinematics::of_step`]), and its state
        let m = &self.law;
        let seen = Seen {
            overlap: self.overlap[l],
            overlap_prev: self.overlap[l] + du[0],
            vn: self.vn[l],
            vel_t: [vel[1], vel[2]],
            du_t: [du[1], du[2]],
            mass: self.mass[l],
            radius: self.radius[l],
            spring: [m.spring[0][l], m.spring[1][l], m.spring[2][l]],
            aux: m.aux[l],
        };
        // (a NaN length is odd too: the one-contact path takes its branch)
        let unit = len > 0.0;
        let odd = !unit;
        Advanced { t1, t2, seen, odd }
    }

    /// Lane `l`'s advance kept: its axes, what the model sees of it, whether it is odd.
    #[inline(always)]
    fn keep_advance(&mut self, l: usize, step: &Advanced) {
        let (m, x) = (&mut self.law, &step.seen);
        m.overlap[l] = x.overlap;
        m.overlap_prev[l] = x.overlap_prev;
        m.vn[l] = x.vn;
        m.vel_t[0][l] = x.vel_t[0];
        m.vel_t[1][l] = x.vel_t[1];
        m.du_t[0][l] = x.du_t[0];
        m.du_t[1][l] = x.du_t[1];
        m.mass[l] = x.mass;
        m.radius[l] = x.radius;
        put(&mut self.t1, l, step.t1);
        put(&mut self.t2, l, step.t2);
        self.odd[l] = step.odd;
    }

    /// Lane `l`'s advance written into its frame `f`, as [`Frame::advance`] ends.
    #[inline(always)]
    pub(super) fn finish(&self, l: usize, f: &mut Frame) {
        let (n, t1) = (at(&self.n, l), at(&self.t1, l));
        f.set(&Vec3::from(n), &Vec3::from(t1), -self.overlap[l]);
    }

    /// [`Batch::advance`], with the model in lanes when every lane's contact has the same one
    /// and the lanes follow it (`of_lane`: each lane's model and state): returns whether it ran
    /// in lanes ([`Lanes::force`] then holds each lane's force).
    #[inline(always)]
    pub(super) fn advance_with_model<'s>(
        &mut self,
        of_lane: impl Fn(usize) -> (u16, &'s LawState),
        laws: &[ContactModel],
        dt: Real,
        no_twist: bool,
    ) -> bool {
        let first = of_lane(0).0;
        let model = &laws[first as usize];
        let laned = (1..LANES).all(|l| of_lane(l).0 == first) && law_lanes::follows(model);
        if laned {
            for l in 0..LANES {
                self.law.load_state(l, of_lane(l).1);
            }
        }
        self.advance(dt, no_twist);
        laned && self.law.step(model, dt)
    }

    /// Lane `l` after [`Batch::advance_with_model`] (`laned`: whether the model ran in lanes):
    /// its frame written back and the model's force (local) into [`Lanes::force`], the
    /// contact's `state` updated; an odd lane's frame advances alone ([`Frame::advance`]), and
    /// its force in the world frame goes to `odd_force` too.
    #[inline(always)]
    pub(super) fn settle(
        &mut self,
        l: usize,
        frame: &mut Frame,
        (law, state): (&ContactModel, &mut LawState),
        laned: bool,
        (dt, flags): (Real, FrameFlags),
    ) {
        if self.odd[l] {
            let overlap = self.overlap[l];
            let v = |x: &Lane3| Vec3::from(at(x, l));
            let (n, v_rel, wa, wb) = (v(&self.n), v(&self.v_rel), v(&self.wa), v(&self.wb));
            let step = frame.advance(&n, &v_rel, &wa, &wb, -overlap, dt, flags);
            let (m, r) = (self.mass[l], self.radius[l]);
            let kin = Kinematics::of_step(overlap, self.vn[l], &step, m, r, dt, false);
            let f = law.force(&kin, state);
            self.odd_force[l] = frame.to_world(&f.local);
            put(&mut self.law.force, l, f.local.into());
        } else if laned {
            self.finish(l, frame);
            self.law.store_state(l, state);
        } else {
            self.finish(l, frame);
            let f = law.force(&self.kinematics(l, dt), state);
            put(&mut self.law.force, l, f.local.into());
        }
    }

    /// What the model sees of lane `l` ([`Kinematics::of_step`]), read from the lanes (not
    /// through a [`FrameStep`] in memory: its components, stored one by one and loaded two
    /// at a time, cost a stall each).
    #[inline(always)]
    pub(super) fn kinematics(&self, l: usize, dt: Real) -> Kinematics {
        let m = &self.law;
        Kinematics {
            overlap: m.overlap[l],
            overlap_prev: m.overlap_prev[l],
            vn: m.vn[l],
            vel_t: Vec3::new(0.0, m.vel_t[0][l], m.vel_t[1][l]),
            du_t: Vec3::new(0.0, m.du_t[0][l], m.du_t[1][l]),
            mass: m.mass[l],
            radius: m.radius[l],
            dt,
            books: false,
        }
    }

    /// The model's force (local, [`Lanes::force`]) of every lane in the world frame, in its
    /// new frame ([`Frame::to_world`]: the axes' transpose times the force).
    #[inline(always)]
    pub(super) fn world(&mut self) {
        for l in 0..LANES {
            let (n, t1, t2) = (at(&self.n, l), at(&self.t1, l), at(&self.t2, l));
            let x = at(&self.law.force, l);
            let f = [0, 1, 2].map(|k| n[k] * x[0] + t1[k] * x[1] + t2[k] * x[2]);
            put(&mut self.world, l, f);
        }
    }

    /// The model's force (local, [`Lanes::force`]) of every lane in the world frame, in its
    /// new frame ([`Frame::to_world`]: the axes' transpose times the force), and its moments
    /// about the centres of a and b, `(C - x_a) x F` and `(C - x_b) x F` (C the contact point):
    /// what [`exert`] adds to the balls.
    #[inline(always)]
    pub(super) fn exerted(&mut self) {
        self.world();
        for l in 0..LANES {
            self.arms(l, at(&self.world, l));
        }
    }

    /// Lane `l`'s force `f` on b (world) and its moments about the centres of a and b
    /// ([`Batch::exerted`]) kept.
    #[inline(always)]
    fn arms(&mut self, l: usize, f: [Real; 3]) {
        let p = at(&self.point, l);
        let (pa, pb) = (at(&self.pa, l), at(&self.pb, l));
        let arm_a = cross([0, 1, 2].map(|k| p[k] - pa[k]), f);
        let arm_b = cross([0, 1, 2].map(|k| p[k] - pb[k]), f);
        put(&mut self.world, l, f);
        put(&mut self.arm_a, l, arm_a);
        put(&mut self.arm_b, l, arm_b);
    }

    /// [`update_framed`]'s batch when every lane's contact has the same model `law`, one that
    /// [`law_lanes::follows`] (not a bond, so a contact goes on exactly while its overlap is
    /// not `<= 0`): each lane's balls, frame and state loaded in one pass, the geometry, the
    /// frames' advance, the model and the moments in lanes, then each contact written back and
    /// added to its balls in one pass, in order. A contact touching for the first time gets
    /// its frame between the geometry and the advance; an odd lane ([`Batch::settle`]) its
    /// update from [`Frame::advance`]. The same operations on each contact as the general
    /// batch's, in the same order: the same bits, with two passes over the lanes fewer.
    #[inline(always)]
    pub(super) fn one_model(
        &mut self,
        (list, ks, lane): (&mut [Contact], &[u32], impl Fn(usize) -> usize),
        (frames, force): (&mut [Frame], &mut [Vec3]),
        (balls, masses, law): (&Balls, &[Real], &ContactModel),
        (dt, flags): (Real, FrameFlags),
        s: &mut Scatter,
        incoming: bool,
    ) -> bool {
        let mut was_active = [false; LANES];
        let rows = balls.rows();
        let masses = &masses[..rows.pos.len()];
        for l in 0..LANES {
            let k = lane(l);
            let c = &list[k];
            self.load(l, c, (&rows, masses));
            self.load_frame(l, &frames[k]);
            self.law.load_state(l, &c.state);
            was_active[l & (LANES - 1)] = c.active;
        }
        self.geometry(flags.no_ratch);
        // (`overlap <= 0` false for NaN: such a contact goes on, as [`released`] decides)
        let going = self.overlap.map(|x| x > 0.0 || x.is_nan());
        if (0..ks.len()).any(|l| going[l] & !was_active[l]) {
            for l in (0..ks.len()).filter(|&l| going[l] & !was_active[l]) {
                let k = lane(l);
                let n = Vec3::from(at(&self.n, l));
                // (the contact is made active after its update, below)
                frames[k] = Frame::new(&n, -self.overlap[l]);
                self.load_frame(l, &frames[k]);
            }
        }
        // the frames' advance, the model and the force in the world frame in one loop
        let laned = law_lanes::dispatch(law, Fused(self, dt, flags.no_twist));
        debug_assert!(laned);
        let mut deep = false;
        for (l, &k) in ks.iter().enumerate() {
            let k = k as usize;
            let c = &mut list[k];
            let overlap = self.overlap[l];
            if !going[l] {
                // released: an active contact loses its force and state
                let mut spare = Vec3::zeros();
                let mut out = Out {
                    force: &mut force[k],
                    point: &mut spare,
                };
                released(c, &mut out, (overlap, 0.0), law, false);
                continue;
            }
            let (a, b) = (c.a as usize, c.b as usize);
            if self.odd[l] {
                self.settle(l, &mut frames[k], (law, &mut c.state), true, (dt, flags));
            } else {
                self.finish(l, &mut frames[k]);
                self.law.store_state(l, &mut c.state);
            }
            let [f, ma, mb] = self.exerted_of(l, balls, (a, b));
            // (no bond holds it: a NaN overlap leaves the contact without force)
            c.active = overlap > 0.0;
            if !c.active {
                force[k] = Vec3::zeros();
                continue;
            }
            force[k] = f;
            deep |= self.add_lane(l, s, (a, b), [f, ma, mb], incoming);
        }
        deep
    }

    /// Lane `l`'s force on b (world) and its moments about the centres of its balls `a` and
    /// `b` ([`Batch::exerted`]; an odd lane's from `odd_force`, its moments formed here).
    #[inline(always)]
    pub(super) fn exerted_of(&self, l: usize, balls: &Balls, (a, b): (usize, usize)) -> [Vec3; 3] {
        if self.odd[l] {
            let f = self.odd_force[l];
            let p = Vec3::from(at(&self.point, l));
            [
                f,
                (p - balls.pos[a]).cross(&f),
                (p - balls.partner(a, b)).cross(&f),
            ]
        } else {
            let v = |x: &Lane3| Vec3::from(at(x, l));
            [v(&self.world), v(&self.arm_a), v(&self.arm_b)]
        }
    }

    /// Lane `l`'s force `f` on b and its moments `ma`, `mb` about the centres of its balls `a`
    /// and `b` added to those balls in the scatter's range (ball a unless `incoming`), as
    /// [`exert`] adds them. Returns true when the contact interpenetrates (overlap larger than
    /// the smaller radius, or NaN).
    #[inline(always)]
    pub(super) fn add_lane(
        &self,
        l: usize,
        s: &mut Scatter,
        (a, b): (usize, usize),
        [f, ma, mb]: [Vec3; 3],
        incoming: bool,
    ) -> bool {
        if !incoming {
            s.add(a, &f, &ma, true);
        }
        if s.holds(b) {
            s.add(b, &f, &mb, false);
        }
        let overlap = self.overlap[l];
        overlap > self.ra[l].min(self.rb[l]) || overlap.is_nan()
    }
}

/// What [`Batch::advance_lane`] gives of a lane.
pub(super) struct Advanced {
    t1: [Real; 3],
    t2: [Real; 3],
    seen: Seen,
    odd: bool,
}

/// [`Batch::one_model`]'s loop: each lane's frame advanced, its model stepped, its force
/// turned into the world frame and its moments formed, in one pass over the lanes (the
/// operations of [`Batch::advance`], [`Lanes::step`] and [`Batch::exerted`], in their order).
struct Fused<'b>(&'b mut Batch, Real, bool);

impl LawLoop for Fused<'_> {
    #[inline(always)]
    fn run<const TOTAL: bool>(self, law: impl Fn(&Seen) -> Ahead + Copy) {
        let Fused(x, dt, no_twist) = self;
        for l in 0..LANES {
            let step = x.advance_lane(l, dt, no_twist);
            let done = law_lanes::shear_lane::<TOTAL>(&step.seen, law(&step.seen), dt);
            // (the local force is not kept: the world force is formed here)
            x.law.keep_state(l, &done);
            let (n, f) = (at(&x.n, l), done.force);
            let world = [0, 1, 2].map(|k| n[k] * f[0] + step.t1[k] * f[1] + step.t2[k] * f[2]);
            put(&mut x.t1, l, step.t1);
            x.odd[l] = step.odd;
            x.arms(l, world);
        }
    }
}
