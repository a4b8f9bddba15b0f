//! The contact models on the contact frame ([`ContactModel::force`] of `linear`,
//! `linear-dashpot`, `hertz` and `hysteretic`, no energy books) for [`LANES`] contacts of
//! one model at once: each lane performs the operations of the one-contact path in the same
//! order (the normal force and the shear damping of the model, then [`super::linear`]'s
//! `shear_force` and [`super::shear_step`]), the branches made selects between both sides,
//! so the results are the same bits; the loop over the lanes becomes vector instructions.
//! (`linearbond`, whose bond breaks, and the history models, which do not work on the frame,
//! are not here.)

use super::{ContactModel, FrictionLimit, LawState};
use crate::math::Real;

/// Contacts per batch (8: one AVX-512 register of doubles).
pub const LANES: usize = 8;

type Lane = [Real; LANES];
type Lane3 = [Lane; 3];

/// The inputs and results of a batch, one lane per contact. The kinematics are those of
/// [`super::Kinematics`] (local components: `x` normal, `y`, `z` tangential); the state is
/// the one [`LawState`] keeps.
#[derive(Default)]
pub struct Lanes {
    /// Overlap, m.
    pub overlap: Lane,
    /// Overlap at the previous cycle, m.
    pub overlap_prev: Lane,
    /// Normal relative velocity, m/s.
    pub vn: Lane,
    /// Tangential relative velocity (`y`, `z`), m/s.
    pub vel_t: [Lane; 2],
    /// Tangential displacement increment (`y`, `z`), m.
    pub du_t: [Lane; 2],
    /// Effective mass, kg.
    pub mass: Lane,
    /// Effective radius, m.
    pub radius: Lane,
    /// The state: the shear spring's force (local), N.
    pub spring: Lane3,
    /// The state: the model's scalar (the hysteretic model's largest overlap, m).
    pub aux: Lane,
    /// The force on b, local, N.
    pub force: Lane3,
}

/// What a model sees of one lane: the kinematics of [`super::Kinematics`] (tangential
/// components `y`, `z`) and the state before the step.
#[derive(Clone, Copy)]
pub struct Seen {
    /// Overlap, m.
    pub overlap: Real,
    /// Overlap at the previous cycle, m.
    pub overlap_prev: Real,
    /// Normal relative velocity, m/s.
    pub vn: Real,
    /// Tangential relative velocity (`y`, `z`), m/s.
    pub vel_t: [Real; 2],
    /// Tangential displacement increment (`y`, `z`), m.
    pub du_t: [Real; 2],
    /// Effective mass, kg.
    pub mass: Real,
    /// Effective radius, m.
    pub radius: Real,
    /// The shear spring's force (local), N.
    pub spring: [Real; 3],
    /// The model's scalar.
    pub aux: Real,
}

/// One lane's step: the state after it (spring, scalar) and the force on b (local), N.
#[derive(Clone, Copy)]
pub struct Stepped {
    /// The shear spring's force (local), N.
    pub spring: [Real; 3],
    /// The model's scalar.
    pub aux: Real,
    /// The force on b (local), N.
    pub force: [Real; 3],
}

/// A loop over the lanes that runs a model's law in its body: [`dispatch`] calls `run` with
/// the law of the model (its part ahead of the shear spring) and its Coulomb rule (`TOTAL`);
/// the body completes each lane with [`shear_lane`].
pub trait LawLoop {
    /// The loop, with the model's `law`.
    fn run<const TOTAL: bool>(self, law: impl Fn(&Seen) -> Ahead + Copy);
}

/// The parts of a model's law ahead of the shear spring, for one lane: the normal force,
/// the shear dashpot's coefficient, the shear stiffness, the factor on the spring before
/// the step, the Coulomb limit, and the model's scalar after the step.
#[derive(Clone, Copy)]
pub struct Ahead {
    f_n: Real,
    c_s: Real,
    ks: Real,
    rescale: Real,
    limit: Real,
    aux: Real,
}

/// True for the models [`Lanes::step`] computes.
pub fn follows(model: &ContactModel) -> bool {
    matches!(
        model,
        ContactModel::Linear(_)
            | ContactModel::LinearDashpot(_)
            | ContactModel::Hysteretic(_)
            | ContactModel::Hertz(_)
    )
}

impl Lanes {
    /// Loads the state of lane `l`.
    #[inline(always)]
    pub fn load_state(&mut self, l: usize, state: &LawState) {
        let l = l & (LANES - 1);
        let s = state.shear_force();
        for k in 0..3 {
            self.spring[k][l] = s[k];
        }
        self.aux[l] = state.max_overlap();
    }

    /// Writes lane `l`'s state after the step into `state`.
    #[inline(always)]
    pub fn store_state(&self, l: usize, state: &mut LawState) {
        let s = state.shear_force_mut();
        for k in 0..3 {
            s[k] = self.spring[k][l];
        }
        state.set_max_overlap(self.aux[l]);
    }

    /// What the model sees of lane `l`.
    #[inline(always)]
    fn seen(&self, l: usize) -> Seen {
        Seen {
            overlap: self.overlap[l],
            overlap_prev: self.overlap_prev[l],
            vn: self.vn[l],
            vel_t: [self.vel_t[0][l], self.vel_t[1][l]],
            du_t: [self.du_t[0][l], self.du_t[1][l]],
            mass: self.mass[l],
            radius: self.radius[l],
            spring: [self.spring[0][l], self.spring[1][l], self.spring[2][l]],
            aux: self.aux[l],
        }
    }

    /// Lane `l`'s step written into the state and the force.
    #[inline(always)]
    pub fn keep(&mut self, l: usize, s: &Stepped) {
        self.keep_state(l, s);
        for k in 0..3 {
            self.force[k][l] = s.force[k];
        }
    }

    /// Lane `l`'s state after its step written (not its force).
    #[inline(always)]
    pub fn keep_state(&mut self, l: usize, s: &Stepped) {
        for k in 0..3 {
            self.spring[k][l] = s.spring[k];
        }
        self.aux[l] = s.aux;
    }

    /// The step of every lane with the model `model` (the force into `force`, the state into
    /// `spring` and `aux`); false, with nothing computed, for a model this path leaves to
    /// [`ContactModel::force`].
    pub fn step(&mut self, model: &ContactModel, dt: Real) -> bool {
        dispatch(model, Every(self, dt))
    }
}

/// [`Lanes::step`]'s loop.
struct Every<'a>(&'a mut Lanes, Real);

impl LawLoop for Every<'_> {
    #[inline(always)]
    fn run<const TOTAL: bool>(self, law: impl Fn(&Seen) -> Ahead + Copy) {
        let Every(x, dt) = self;
        for l in 0..LANES {
            let seen = x.seen(l);
            let done = shear_lane::<TOTAL>(&seen, law(&seen), dt);
            x.keep(l, &done);
        }
    }
}

/// Runs `body` with the law of `model` and its Coulomb rule; false, with nothing run, for a
/// model the lanes leave to [`ContactModel::force`] (those [`follows`] refuses).
#[inline(always)]
pub fn dispatch(model: &ContactModel, body: impl LawLoop) -> bool {
    match model {
        ContactModel::Linear(m) => {
            let (c_n, c_s) = (2.0 * m.damp_n, 2.0 * m.damp_s);
            let (kn, ks, mu, rule) = (m.kn, m.ks, m.friction, m.limit);
            shear(body, rule, move |x| {
                let fn_elastic = kn * x.overlap;
                let mass = x.mass;
                let c_n = c_n * (mass * kn).sqrt();
                let c_s = c_s * (mass * ks).sqrt();
                let f_n = fn_elastic - c_n * x.vn;
                let limit = match rule {
                    FrictionLimit::Spring => mu * fn_elastic,
                    FrictionLimit::Total => mu * f_n.abs(),
                };
                (f_n, c_s, ks, limit)
            });
        }
        ContactModel::LinearDashpot(m) => {
            let (c_n, c_s) = (2.0 * m.damp_n, 2.0 * m.damp_s);
            let (kn, ks, mu, rule, clamp) = (m.kn, m.ks, m.friction, m.limit, m.clamp);
            shear(body, rule, move |x| {
                let mass = x.mass;
                let c_n = c_n * (mass * kn).sqrt();
                let f_n = kn * x.overlap - c_n * x.vn;
                let f_n = if clamp { f_n.max(0.0) } else { f_n };
                let c_s = c_s * (mass * ks).sqrt();
                let limit = match rule {
                    FrictionLimit::Spring => mu * f_n,
                    FrictionLimit::Total => mu * f_n.abs(),
                };
                (f_n, c_s, ks, limit)
            });
        }
        ContactModel::Hysteretic(m) => {
            let (kn, k_unload, ks, mu) = (m.kn, m.k_unload, m.ks, m.friction);
            let ratio = 1.0 - kn / k_unload;
            body.run::<false>(move |x| {
                let d = x.overlap;
                let d_max = x.aux.max(d);
                // (`clamp(0, (k_n d).max(0))`, as f64::clamp orders its two tests)
                let d0 = d_max * ratio;
                let mut f_n = k_unload * (d - d0);
                let top = (kn * d).max(0.0);
                f_n = if f_n < 0.0 { 0.0 } else { f_n };
                f_n = if f_n > top { top } else { f_n };
                Ahead {
                    f_n,
                    c_s: 0.0,
                    ks,
                    rescale: 1.0,
                    limit: mu * f_n,
                    aux: d_max,
                }
            });
        }
        ContactModel::Hertz(m) => {
            let (e2, g8, e43) = (
                2.0 * m.pair.e_star,
                8.0 * m.pair.g_star,
                4.0 / 3.0 * m.pair.e_star,
            );
            let (damping, clamp, mu, rule) = (m.damping, m.clamp, m.friction, m.limit);
            // (the rule a constant in each loop: the spring rule's loop computes no
            // stiffness at the last overlap, a square root per lane)
            let hertz = |total: bool| {
                move |x: &Seen| {
                    let (radius, mass) = (x.radius, x.mass);
                    let d = x.overlap.max(0.0);
                    let a = (radius * d).sqrt();
                    let (s_n, s_t) = (e2 * a, g8 * a);
                    let elastic = e43 * radius.sqrt() * d * d.sqrt();
                    let f_n = elastic - damping * (mass * s_n).sqrt() * x.vn;
                    let f_n = if clamp { f_n.max(0.0) } else { f_n };
                    let c_s = damping * (mass * s_t).sqrt();
                    let limit = if total { mu * f_n.abs() } else { mu * f_n };
                    // the Total rule rescales an unloading spring by the ratio of the
                    // shear stiffnesses after and before
                    let s_t_prev = g8 * (radius * x.overlap_prev.max(0.0)).sqrt();
                    let s_t_prev = if total { s_t_prev } else { s_t };
                    let rescale = if total && s_t < s_t_prev {
                        s_t / s_t_prev
                    } else {
                        1.0
                    };
                    Ahead {
                        f_n,
                        c_s,
                        ks: s_t,
                        rescale,
                        limit,
                        aux: x.aux,
                    }
                }
            };
            match rule {
                FrictionLimit::Spring => body.run::<false>(hertz(false)),
                FrictionLimit::Total => body.run::<true>(hertz(true)),
            }
        }
        _ => return false,
    }
    true
}

/// `body` with a model of constant shear stiffness, no rescaling and no scalar: `law` gives
/// the normal force, the dashpot, the stiffness and the limit; `rule` the Coulomb rule.
#[inline(always)]
fn shear(
    body: impl LawLoop,
    rule: FrictionLimit,
    law: impl Fn(&Seen) -> (Real, Real, Real, Real) + Copy,
) {
    let ahead = move |x: &Seen| {
        let (f_n, c_s, ks, limit) = law(x);
        Ahead {
            f_n,
            c_s,
            ks,
            rescale: 1.0,
            limit,
            aux: x.aux,
        }
    };
    match rule {
        FrictionLimit::Spring => body.run::<false>(ahead),
        FrictionLimit::Total => body.run::<true>(ahead),
    }
}

/// One lane after its model's part ahead of the spring `a`: [`super::linear`]'s
/// `shear_force` (no books) and [`super::shear_step`] with the rule `TOTAL` (else the spring
/// rule).
#[inline(always)]
pub fn shear_lane<const TOTAL: bool>(x: &Seen, a: Ahead, dt: Real) -> Stepped {
    let (c, ks) = (a.c_s, a.ks);
    let before = [0.0, x.spring[1], x.spring[2]];
    let start = before.map(|v| v * a.rescale);
    let du_t = [0.0, x.du_t[0], x.du_t[1]];
    let mut trial = [0, 1, 2].map(|k| start[k] - du_t[k] * ks);
    trial[0] = 0.0;
    let vel_t = [0.0, x.vel_t[0], x.vel_t[1]];
    let damper = vel_t.map(|v| -(v * c));
    let k_dt = ks * dt;
    let limit = a.limit.max(0.0);
    let damped = c > 0.0;
    let (spring, force) = if TOTAL {
        let total = [0, 1, 2].map(|k| {
            if damped {
                trial[k] + damper[k]
            } else {
                trial[k]
            }
        });
        let t2 = total[0] * total[0] + total[1] * total[1] + total[2] * total[2];
        let slides = t2 > limit * limit;
        let scale = limit / t2.sqrt();
        let on = total.map(|v| v * scale);
        let kept = [0, 1, 2].map(|k| {
            if damped {
                (on[k] * k_dt + start[k] * c) / (k_dt + c)
            } else {
                on[k]
            }
        });
        (
            if slides { kept } else { trial },
            if slides { on } else { total },
        )
    } else {
        // ([`super::coulomb`] takes the limit's positive part again: the same)
        let limit = limit.max(0.0);
        let fs2 = trial[0] * trial[0] + trial[1] * trial[1] + trial[2] * trial[2];
        let slides = fs2 > limit * limit;
        let scale = limit / fs2.sqrt();
        let spring = trial.map(|v| if slides { v * scale } else { v });
        let with = [0, 1, 2].map(|k| spring[k] + damper[k]);
        let dashpot = !slides & damped;
        (spring, if dashpot { with } else { spring })
    };
    Stepped {
        spring,
        aux: a.aux,
        force: [a.f_n, force[1], force[2]],
    }
}
