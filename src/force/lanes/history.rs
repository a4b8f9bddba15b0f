//! The frame-free ball-ball update ([`crate::contact::ball_ball::update`] with a history model) for
//! [`LANES`] contacts at once: their inputs are copied into lane arrays, the arithmetic runs
//! lane by lane in a loop the compiler turns into vector instructions (eight square roots in
//! one AVX-512 instruction, or in two AVX2 ones), and the results are written back contact by
//! contact, in order.
//!
//! Every lane performs exactly the operations of the one-contact path, in the same order
//! (the geometry of [`crate::contact::ball_ball::geometry`], the coefficients of
//! [`crate::law::history`], [`crate::law::history::world_step`]); the branches of that path
//! become selects between both sides, each computed as the one-contact path would. Vector
//! instructions round each lane as the scalar ones do (no fused multiply-add is formed), so
//! the results are the same bits: the test
//! `the_frame_free_force_loop_gives_the_general_loops_state` compares this path with the
//! general one contact by contact.

use super::masses::effective_of;
use crate::body::{Balls, Rows};
use crate::contact::Contact;
use crate::law::{ContactModel, FrictionLimit, LawState};
use crate::math::{Real, Vec3};

/// Contacts per batch: the contact models' ([`crate::law::lanes::LANES`], 8: one AVX-512
/// register of doubles; 4 was 9 % slower on the settle-box scene, 16 no faster).
pub use crate::law::lanes::LANES;

/// [`Input::step`] for a batch whose lanes may have different models.
pub(super) const MIXED: u8 = 0;
/// [`Input::step`] for a batch of Hertz-history contacts only.
pub(super) const HERTZ: u8 = 1;
/// [`Input::step`] for a batch of Hooke-history contacts only.
pub(super) const HOOKE: u8 = 2;

/// The Coulomb rule of a batch ([`FrictionLimit`]): each lane its own (a batch of mixed
/// models)...
pub(super) const EACH: u8 = 0;
/// ... or [`FrictionLimit::Spring`] in every lane ...
pub(super) const SPRING: u8 = 1;
/// ... or [`FrictionLimit::Total`] in every lane.
pub(super) const TOTAL: u8 = 2;

pub(super) type Lane = [Real; LANES];
pub(super) type Lane3 = [Lane; 3];

/// The length of the centre-to-centre vector `d` (from a to b) and the unit normal along it,
/// as [`crate::contact::ball_ball::geometry`] computes them: `+z` for coincident centres.
#[inline(always)]
pub(super) fn unit_normal(d: [Real; 3]) -> (Real, [Real; 3]) {
    let dist = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
    let apart = dist > 0.0;
    let n = [
        if apart { d[0] / dist } else { 0.0 },
        if apart { d[1] / dist } else { 0.0 },
        if apart { d[2] / dist } else { 1.0 },
    ];
    (dist, n)
}

/// The inputs of a batch, one lane per contact.
#[derive(Default)]
pub(super) struct Input {
    pub(super) pa: Lane3,
    pub(super) pb: Lane3,
    pub(super) ra: Lane,
    pub(super) rb: Lane,
    /// `v_b - v_a` (formed while loading: three stores per lane instead of six).
    pub(super) dv: Lane3,
    pub(super) wa: Lane3,
    pub(super) wb: Lane3,
    /// Shear displacement before the step (0 for a contact not active yet).
    pub(super) xi: Lane3,
    /// The balls' contact masses ([`NO_MASS`] for none).
    pub(super) ma: Lane,
    pub(super) mb: Lane,
    /// The contact models' parameters.
    pub(super) law: Laws,
}

/// The parameters of each lane's contact model.
#[derive(Default)]
pub(super) struct Laws {
    /// 1 for Hertz coefficients, 0 for constant ones.
    pub(super) hertz: [bool; LANES],
    /// Hertz: `2 E*`, `8 G*`, damping factor.
    pub(super) e2: Lane,
    pub(super) g8: Lane,
    pub(super) damping: Lane,
    /// Constant (Hooke) coefficients.
    pub(super) kn: Lane,
    pub(super) kt: Lane,
    pub(super) gn: Lane,
    pub(super) gt: Lane,
    pub(super) mu: Lane,
    /// True for [`FrictionLimit::Total`].
    pub(super) total: [bool; LANES],
}

impl Laws {
    /// Copies the parameters of the contact model `law` into lane `l`.
    #[inline]
    pub(super) fn load(&mut self, l: usize, law: &ContactModel) {
        let l = l & (LANES - 1);
        match law {
            ContactModel::HertzHistory(h) => {
                self.hertz[l] = true;
                self.e2[l] = 2.0 * h.pair.e_star;
                self.g8[l] = 8.0 * h.pair.g_star;
                self.damping[l] = h.damping;
                self.mu[l] = h.friction;
                self.total[l] = h.limit == FrictionLimit::Total;
            }
            ContactModel::HookeHistory(h) => {
                self.hertz[l] = false;
                self.kn[l] = h.kn;
                self.kt[l] = h.kt;
                self.gn[l] = h.gamma_n;
                self.gt[l] = h.gamma_t;
                self.mu[l] = h.friction;
                self.total[l] = h.limit == FrictionLimit::Total;
            }
            // (callers pass frame-free models only; a lane left as it was computes a
            // result nobody reads)
            _ => debug_assert!(false, "not a frame-free model"),
        }
    }

    /// Fills every lane with the parameters of `laws[k]` for the contacts `k` of a batch
    /// (`law(l)` the model of lane `l`), unless they are there already (`filled`: the model
    /// that fills every lane, if any). Returns the kind of batch, [`HERTZ`] or [`HOOKE`]
    /// when every lane has that model, else [`MIXED`], and its rule, [`SPRING`] or [`TOTAL`]
    /// when every lane has that model, else [`EACH`].
    #[inline]
    pub(super) fn fill(
        &mut self,
        laws: &[ContactModel],
        law: impl Fn(usize) -> u16,
        filled: &mut Option<u16>,
    ) -> (u8, u8) {
        let first = law(0);
        let uniform = (1..LANES).all(|l| law(l) == first);
        if !uniform {
            *filled = None;
            for l in 0..LANES {
                self.load(l, &laws[law(l) as usize]);
            }
            return (MIXED, EACH);
        }
        if *filled != Some(first) {
            *filled = Some(first);
            for l in 0..LANES {
                self.load(l, &laws[first as usize]);
            }
        }
        let law = &laws[first as usize];
        let rule = match law.friction_limit() {
            FrictionLimit::Spring => SPRING,
            FrictionLimit::Total => TOTAL,
        };
        match law {
            ContactModel::HertzHistory(_) => (HERTZ, rule),
            ContactModel::HookeHistory(_) => (HOOKE, rule),
            _ => (MIXED, EACH),
        }
    }

    /// The coefficients `(k_n, k_t, g_n, g_t)` of lane `l` at `overlap`, effective radius
    /// `radius` and mass `m`: [`crate::law::history::HertzHistory::coefficients`] (`S_n = 2E*
    /// sqrt(R* d)`, `S_t = 8G* sqrt(R* d)`) or the constant ones, the same operations.
    /// `KIND`: [`MIXED`] (the lane's own model), or [`HERTZ`] or [`HOOKE`] for every lane
    /// (the other model's square roots are then not computed).
    #[inline(always)]
    pub(super) fn coefficients<const KIND: u8>(
        &self,
        l: usize,
        radius: Real,
        overlap: Real,
        m: Real,
    ) -> [Real; 4] {
        let a = (radius * overlap).sqrt();
        let (sn, st) = (self.e2[l] * a, self.g8[l] * a);
        let hz = match KIND {
            HERTZ => true,
            HOOKE => false,
            _ => self.hertz[l],
        };
        let kn = if hz { (2.0 / 3.0) * sn } else { self.kn[l] };
        let kt = if hz { st } else { self.kt[l] };
        let gn = if hz {
            self.damping[l] * (sn * m).sqrt()
        } else {
            self.gn[l]
        };
        let gt = if hz {
            self.damping[l] * (st * m).sqrt()
        } else {
            self.gt[l]
        };
        [kn, kt, gn, gt]
    }
}

/// One lane of [`crate::law::history::world_step`]: with the unit normal `n` (from piece a
/// to piece b), the velocity `v` of b relative to a at the contact point, the overlap, the
/// coefficients `[k_n, k_t, g_n, g_t]`, the friction `mu`, the Coulomb rule (`total`, or
/// every lane's `RULE`) and the shear displacement `xi` before the step, returns the force on
/// b, the shear displacement after the step and whether the contact slid: the same
/// operations in the same order, the branches made selects between both sides.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(super) fn history_lane<const RULE: u8>(
    n: [Real; 3],
    v: [Real; 3],
    overlap: Real,
    [kn, kt, gn, gt]: [Real; 4],
    mu: Real,
    total: bool,
    xi: [Real; 3],
    dt: Real,
) -> ([Real; 3], [Real; 3], bool) {
    let total = match RULE {
        SPRING => false,
        TOTAL => true,
        _ => total,
    };
    let vn = v[0] * n[0] + v[1] * n[1] + v[2] * n[2];
    let vt = [v[0] - n[0] * vn, v[1] - n[1] * vn, v[2] - n[2] * vn];
    // clamped normal force, shear spring turned into the tangent plane
    let f_n = (kn * overlap - gn * vn).max(0.0);
    let dxi = [vt[0] * dt, vt[1] * dt, vt[2] * dt];
    let mut xi = [xi[0] + dxi[0], xi[1] + dxi[1], xi[2] + dxi[2]];
    let xn = xi[0] * n[0] + xi[1] * n[1] + xi[2] * n[2];
    xi = [xi[0] - n[0] * xn, xi[1] - n[1] * xn, xi[2] - n[2] * xn];
    let ft = [-kt * xi[0], -kt * xi[1], -kt * xi[2]];
    let limit = mu * f_n;
    let mut f = [0.0; 3];
    let mut xi_out = [0.0; 3];
    let damped = gt > 0.0;
    let spring_rule = RULE != TOTAL;
    let total_rule = RULE != SPRING;
    // LIGGGHTS's rule: the spring on the limit when it slides, else spring and dashpot
    let f2 = ft[0] * ft[0] + ft[1] * ft[1] + ft[2] * ft[2];
    let slides = f2 > limit * limit;
    let scale = limit / f2.sqrt();
    // the default rule: spring and dashpot within the limit ([`crate::law::shear_step`])
    let tot = [0, 1, 2].map(|k| if damped { ft[k] - vt[k] * gt } else { ft[k] });
    let t2 = tot[0] * tot[0] + tot[1] * tot[1] + tot[2] * tot[2];
    let total_slides = t2 > limit * limit;
    let total_scale = limit / t2.sqrt();
    let k_dt = kt * dt;
    for k in 0..3 {
        if spring_rule {
            let slid = ft[k] * scale;
            let xi_slid = if kt > 0.0 { -slid / kt } else { 0.0 };
            let f_t = if slides { slid } else { ft[k] - vt[k] * gt };
            if !total {
                xi_out[k] = if slides { xi_slid } else { xi[k] };
                f[k] = n[k] * f_n + f_t;
            }
        }
        if total_rule {
            let on_limit = tot[k] * total_scale;
            let before = -kt * (xi[k] - dxi[k]);
            let spring = if damped {
                (on_limit * k_dt + before * gt) / (k_dt + gt)
            } else {
                on_limit
            };
            let xi_slid = if kt > 0.0 { -spring / kt } else { 0.0 };
            let f_t = if total_slides { on_limit } else { tot[k] };
            if total {
                xi_out[k] = if total_slides { xi_slid } else { xi[k] };
                f[k] = n[k] * f_n + f_t;
            }
        }
    }
    (f, xi_out, if total { total_slides } else { slides })
}

/// The results of a batch.
#[derive(Default)]
pub(super) struct Output {
    pub(super) overlap: Lane,
    pub(super) sliding: [bool; LANES],
    /// Overlap larger than the smaller radius, or NaN.
    pub(super) deep: [bool; LANES],
    pub(super) force: Lane3,
    /// The force's moments about the centres of a and b (see [`Exerted`]).
    pub(super) moment_a: Lane3,
    pub(super) moment_b: Lane3,
    pub(super) xi: Lane3,
}

/// What an active contact exerts, from the lane update: the force on b (a receives its
/// opposite) and the moments of that force, applied at the contact point `C`, about each
/// ball's centre: `(C - x_a) x F` (a receives its opposite) and `(C - x_b) x F`. These are
/// the operations of the gather ([`crate::model::Model`]'s general loop sums
/// `(point - x_i) x force` per ball), in the same order, so the same bits.
#[derive(Clone, Copy, Debug, Default)]
pub struct Exerted {
    /// Force on b, N (world frame).
    pub force: Vec3,
    /// `(C - x_a) x F`, N m.
    pub moment_a: Vec3,
    /// `(C - x_b) x F`, N m.
    pub moment_b: Vec3,
}

impl Input {
    /// Copies the kinematics of contact `c` (its balls and its shear displacement) into lane
    /// `l`; the balls' contact masses too, unless every lane has the Hooke model (`KIND` is
    /// [`HOOKE`]), whose coefficients use none (three more arrays read per ball).
    #[inline(always)]
    pub(super) fn load<const KIND: u8>(
        &mut self,
        l: usize,
        c: &Contact,
        (balls, mass): (&Rows, &[Real]),
    ) {
        // (l < LANES, a power of two: the mask spares the bounds checks)
        let l = l & (LANES - 1);
        let (a, b) = (c.a as usize, c.b as usize);
        let xi = if c.active {
            c.state.shear_displacement()
        } else {
            Vec3::zeros()
        };
        let (pb, vb) = balls.partner_motion(a, b);
        let (pa, pb) = (&balls.pos[a], &pb);
        let (va, vb) = (&balls.vel[a], &vb);
        let (wa, wb) = (&balls.spin[a], &balls.spin[b]);
        for d in 0..3 {
            self.pa[d][l] = pa[d];
            self.pb[d][l] = pb[d];
            self.dv[d][l] = vb[d] - va[d];
            self.wa[d][l] = wa[d];
            self.wb[d][l] = wb[d];
            self.xi[d][l] = xi[d];
        }
        self.ra[l] = balls.radius[a];
        self.rb[l] = balls.radius[b];
        if KIND == HOOKE {
            return;
        }
        self.ma[l] = mass[a];
        self.mb[l] = mass[b];
    }

    /// Loads the contacts `list[lane(l)]` into the lanes `l` and steps them into `o`
    /// (`balls`: the rows, cut to one length, and every ball's contact mass,
    /// [`contact_masses`]).
    #[inline(always)]
    pub(super) fn batch<const KIND: u8, const RULE: u8>(
        &mut self,
        list: &[Contact],
        lane: impl Fn(usize) -> usize,
        balls: (&Rows, &[Real]),
        dt: Real,
        o: &mut Output,
    ) {
        for l in 0..LANES {
            self.load::<KIND>(l, &list[lane(l)], balls);
        }
        self.step::<KIND, RULE>(dt, o);
    }

    /// The step of every lane (module documentation): written as one loop over the lanes
    /// with no branch, so that it becomes vector instructions. `KIND`: [`MIXED`] (each lane
    /// selects its model's coefficients), or [`HERTZ`] or [`HOOKE`] when every lane has that
    /// model (the other model's coefficients, square roots among them, are then not
    /// computed; each lane's operations are the same).
    /// Every lane of `o` is written (it is reused from batch to batch: a new one per batch
    /// was zeroed, then copied out, about 1.6 kB per batch).
    #[inline(always)]
    pub(super) fn step<const KIND: u8, const RULE: u8>(&self, dt: Real, o: &mut Output) {
        for l in 0..LANES {
            // geometry: d = x_b - x_a, |d|, overlap, unit normal a -> b, contact point
            let d = [
                self.pb[0][l] - self.pa[0][l],
                self.pb[1][l] - self.pa[1][l],
                self.pb[2][l] - self.pa[2][l],
            ];
            let (dist, n) = unit_normal(d);
            let (ra, rb) = (self.ra[l], self.rb[l]);
            let overlap = ra + rb - dist;
            let radius = ra * rb / (ra + rb);
            let (ca, cb) = (ra - 0.5 * overlap, rb - 0.5 * overlap);
            // coefficients: Hertz (S_n = 2E* sqrt(R* d), S_t = 8G* sqrt(R* d)) or constant
            // effective mass, as [`crate::contact::ball_ball::effective_mass`] (no mass: infinitely heavy)
            let m = effective_of(self.ma[l], self.mb[l]);
            let coef = self.law.coefficients::<KIND>(l, radius, overlap, m);
            // relative velocity of b at the contact point: v_b - v_a + n x (c_a w_a + c_b w_b)
            let w = [
                self.wa[0][l] * ca + self.wb[0][l] * cb,
                self.wa[1][l] * ca + self.wb[1][l] * cb,
                self.wa[2][l] * ca + self.wb[2][l] * cb,
            ];
            let v = [
                self.dv[0][l] + (n[1] * w[2] - n[2] * w[1]),
                self.dv[1][l] + (n[2] * w[0] - n[0] * w[2]),
                self.dv[2][l] + (n[0] * w[1] - n[1] * w[0]),
            ];
            let xi = [self.xi[0][l], self.xi[1][l], self.xi[2][l]];
            let (mu, total) = (self.law.mu[l], self.law.total[l]);
            let (f, xi, sliding) = history_lane::<RULE>(n, v, overlap, coef, mu, total, xi, dt);
            let mut arm_a = [0.0; 3];
            let mut arm_b = [0.0; 3];
            for k in 0..3 {
                o.xi[k][l] = xi[k];
                o.force[k][l] = f[k];
                // the contact point, and the arms from each centre to it
                let point = self.pa[k][l] + n[k] * ca;
                arm_a[k] = point - self.pa[k][l];
                arm_b[k] = point - self.pb[k][l];
            }
            // (r x f as nalgebra's `cross`: y z - z y, z x - x z, x y - y x)
            for (arm, out) in [(&arm_a, &mut o.moment_a), (&arm_b, &mut o.moment_b)] {
                out[0][l] = arm[1] * f[2] - arm[2] * f[1];
                out[1][l] = arm[2] * f[0] - arm[0] * f[2];
                out[2][l] = arm[0] * f[1] - arm[1] * f[0];
            }
            o.overlap[l] = overlap;
            o.sliding[l] = sliding;
            o.deep[l] = overlap > ra.min(rb) || overlap.is_nan();
        }
    }
}

/// Updates the contacts `list[k]` for `k` in `ks` (history models, 3D; each one active or
/// with its balls not clearly apart), as [`crate::contact::ball_ball::update`] does one by one: a
/// contact that overlaps becomes or stays active, with its new shear displacement and
/// whether it slid; one that does not is released. Neither the force nor the contact point
/// is stored: they go to `active` only (the resultants on the balls need them; an output
/// that needs a contact's force finds it again from the state,
/// [`crate::contact::ball_ball::held_force`]: 24 bytes per candidate pair not kept). Calls
/// `active(c, deep, exerted)`, in the order of `ks`, for every contact active after its
/// update (`deep`: overlap larger than the smaller radius, or NaN).
pub fn update_history(
    list: &mut [Contact],
    ks: &[u32],
    balls: &Balls,
    laws: &[ContactModel],
    dt: Real,
    active: impl FnMut(&Contact, bool, &Exerted),
) {
    let mut masses = Vec::new();
    super::masses::contact_masses(balls, &mut masses);
    let mut scratch = Scratch::default();
    update_history_with(list, ks, (balls, &masses), laws, dt, &mut scratch, active);
}

/// What the batches of a force pass reuse from run to run, rather than each run zeroing its
/// own (about 2.6 kB): the lanes, their results, and the model whose coefficients fill every
/// lane, if any.
#[derive(Default)]
pub(crate) struct Scratch {
    input: Input,
    output: Output,
    filled: Option<u16>,
}

/// [`update_history`] with every ball's contact mass taken ([`contact_masses`]) and the
/// batches' lanes in `scratch`.
pub(crate) fn update_history_with(
    list: &mut [Contact],
    ks: &[u32],
    (balls, masses): (&Balls, &[Real]),
    laws: &[ContactModel],
    dt: Real,
    scratch: &mut Scratch,
    mut active: impl FnMut(&Contact, bool, &Exerted),
) {
    // (the balls' rows of one length: one bounds check per ball, not one per array)
    let rows = balls.rows();
    let masses = &masses[..rows.pos.len()];
    for batch in ks.chunks(LANES) {
        // (a full batch takes its lanes as they are; a short one repeats its first contact
        // in the spare lanes, whose results are not used)
        let with = ((&rows, masses), laws, dt);
        match <&[u32; LANES]>::try_from(batch) {
            Ok(full) => {
                let lane = |l: usize| full[l] as usize;
                step_batch(list, (batch, lane), with, scratch, &mut active);
            }
            Err(_) => {
                let lane = |l: usize| batch[if l < batch.len() { l } else { 0 }] as usize;
                step_batch(list, (batch, lane), with, scratch, &mut active);
            }
        }
    }
}

/// One batch of [`update_history_with`]: the contacts `batch` (`lane(l)`: the contact of lane
/// `l`) stepped in the lanes, then written back and reported in order.
#[inline(always)]
fn step_batch(
    list: &mut [Contact],
    (batch, lane): (&[u32], impl Fn(usize) -> usize + Copy),
    (balls, laws, dt): ((&Rows, &[Real]), &[ContactModel], Real),
    scratch: &mut Scratch,
    active: &mut impl FnMut(&Contact, bool, &Exerted),
) {
    let (input, o) = (&mut scratch.input, &mut scratch.output);
    match input
        .law
        .fill(laws, |l| list[lane(l)].law, &mut scratch.filled)
    {
        (HERTZ, SPRING) => input.batch::<HERTZ, SPRING>(list, lane, balls, dt, o),
        (HERTZ, TOTAL) => input.batch::<HERTZ, TOTAL>(list, lane, balls, dt, o),
        (HOOKE, SPRING) => input.batch::<HOOKE, SPRING>(list, lane, balls, dt, o),
        (HOOKE, TOTAL) => input.batch::<HOOKE, TOTAL>(list, lane, balls, dt, o),
        _ => input.batch::<MIXED, EACH>(list, lane, balls, dt, o),
    }
    for (l, &k) in batch.iter().enumerate() {
        let (k, overlap) = (k as usize, o.overlap[l]);
        let c = &mut list[k];
        // (`overlap <= 0` false for NaN: such a contact stays active and is reported)
        if overlap <= 0.0 {
            c.active = false;
            c.sliding = false;
            c.state = LawState::default();
            continue;
        }
        if !c.active {
            c.state = LawState::default();
            c.active = true;
        }
        *c.state.shear_displacement_mut() = Vec3::new(o.xi[0][l], o.xi[1][l], o.xi[2][l]);
        c.sliding = o.sliding[l];
        let lane3 = |v: &Lane3| Vec3::new(v[0][l], v[1][l], v[2][l]);
        let exerted = Exerted {
            force: lane3(&o.force),
            moment_a: lane3(&o.moment_a),
            moment_b: lane3(&o.moment_b),
        };
        active(c, o.deep[l], &exerted);
    }
}
