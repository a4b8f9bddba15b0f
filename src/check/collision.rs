//! The collision checks: `restitution`, `contact_duration` and, of the same first collision of
//! a ball with another body, `max_overlap`, `max_force`, `tangential_restitution`,
//! `rebound_spin` and `tangential_velocity`. A probe watches the collision every cycle
//! (records are too coarse to time a contact: `collision/probe.rs`).
//!
//! Closed forms for a linear spring with a viscous dashpot (a damped oscillator of effective
//! mass `m* = m_a m_b / (m_a + m_b)`, `omega_n = sqrt(kn / m*)`, damping ratio `z`), used as the
//! reference when the case gives no `expected` value:
//! - contact duration `t_c = pi / (omega_n sqrt(1 - z^2))` (half a damped period),
//! - restitution `e = exp(-pi z / sqrt(1 - z^2))` (the amplitude decay over that half period).
//!
//! The damped oscillator is `collision/oscillator.rs`. For Hertz's law, the elastic impact's
//! largest overlap, force and duration; for oblique impacts, rigid-body impulse theory in the
//! gross-sliding range (`impulse_theory`).

mod oscillator;
mod probe;

pub use probe::{Body, Collision, CollisionProbe};

use oscillator::Oscillator;

use super::context::{CaseView, Context};
use super::keys::{ball_of, nonneg, read, wall_of};
use super::kind::{Built, CheckKind};
use super::probe::Probe;
use crate::body::dof;
use crate::law::ContactModel;
use crate::math::{Real, Vec3, PI};
use crate::model::Model;
use crate::record::CheckOutcome;
use serde::Deserialize;

/// Which quantity a collision check measures.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Measure {
    /// -vn_out / vn_in.
    Restitution,
    /// t_end - t_start.
    Duration,
    /// Largest overlap during the contact.
    MaxOverlap,
    /// Largest normal contact force during the contact.
    MaxForce,
    /// Tangential velocity of the centre after / before, along the incoming tangential
    /// direction.
    TangentialRestitution,
    /// Magnitude of the angular velocity after the contact.
    ReboundSpin,
    /// Tangential velocity of the centre relative to the other body after the contact, along
    /// the direction in which its contact point slipped at first contact, m/s.
    TangentialVelocity,
}

impl Measure {
    /// The check kind as written in case files.
    pub fn kind(self) -> &'static str {
        match self {
            Measure::Restitution => "restitution",
            Measure::Duration => "contact_duration",
            Measure::MaxOverlap => "max_overlap",
            Measure::MaxForce => "max_force",
            Measure::TangentialRestitution => "tangential_restitution",
            Measure::ReboundSpin => "rebound_spin",
            Measure::TangentialVelocity => "tangential_velocity",
        }
    }

    /// Every measure.
    pub const ALL: [Measure; 7] = [
        Measure::Restitution,
        Measure::Duration,
        Measure::MaxOverlap,
        Measure::MaxForce,
        Measure::TangentialRestitution,
        Measure::ReboundSpin,
        Measure::TangentialVelocity,
    ];
}

/// The other body of a collision check, as written in the case: a ball id or a wall name.
#[derive(Clone, Debug, PartialEq)]
pub enum Other {
    /// A ball id.
    Ball(u64),
    /// A wall name.
    Wall(String),
}

/// A measure of the first collision of a ball with another body (every kind of this file).
#[derive(Clone, Debug, PartialEq)]
pub struct FirstCollision {
    /// Which quantity.
    measure: Measure,
    /// Id of the ball.
    ball: u64,
    /// The other body: a ball id or a wall name.
    other: Other,
    /// Expected value; None: the closed form of the contact model.
    expected: Option<Real>,
    /// Relative tolerance.
    tolerance: Real,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Keys {
    ball: u64,
    other: toml::Value,
    expected: Option<Real>,
    tolerance: Real,
}

impl CheckKind for FirstCollision {
    fn parse(kind: &str, keys: toml::Value) -> Result<Self, String> {
        let c: Keys = read(keys)?;
        let other = match &c.other {
            toml::Value::Integer(i) if *i >= 0 => Other::Ball(*i as u64),
            toml::Value::String(w) => Other::Wall(w.clone()),
            v => return Err(format!("other = {v}: must be a ball id or a wall name")),
        };
        if let Some(e) = c.expected {
            if !e.is_finite() {
                return Err(format!("expected = {e}: must be finite"));
            }
        }
        Ok(FirstCollision {
            measure: (Measure::ALL.into_iter())
                .find(|m| m.kind() == kind)
                .unwrap_or(Measure::Restitution),
            ball: c.ball,
            other,
            expected: c.expected,
            tolerance: nonneg("tolerance", c.tolerance)?,
        })
    }

    fn kind(&self) -> &'static str {
        self.measure.kind()
    }

    fn follows_a_ball(&self) -> bool {
        true
    }

    fn validate(&self, built: &Built) -> Result<(), String> {
        let model = built.model;
        ball_of(model, self.ball)?;
        match &self.other {
            Other::Ball(id) if *id == self.ball => Err("ball and other must differ".into()),
            Other::Ball(id) => ball_of(model, *id).map(drop),
            Other::Wall(w) => wall_of(model, w).map(drop),
        }
    }

    fn probe(&self, model: &Model) -> Option<Probe> {
        let other = match &self.other {
            Other::Ball(id) => Body::Ball(model.ball_index(*id)?),
            Other::Wall(w) => Body::Wall(model.wall_index(w)?),
        };
        let probe = CollisionProbe::new(model.ball_index(self.ball)?, other);
        Some(Probe::new(probe))
    }

    fn evaluate(&self, ctx: &Context, probe: Option<&Probe>, out: &mut CheckOutcome) {
        let idx = |id: &u64| {
            (ctx.case.balls().iter())
                .position(|b| b.id == *id)
                .unwrap_or(0)
        };
        let other = match &self.other {
            Other::Ball(id) => Body::Ball(idx(id)),
            Other::Wall(w) => Body::Wall(
                (ctx.case.walls().iter())
                    .position(|x| &x.name == w)
                    .unwrap_or(0),
            ),
        };
        out.code.push("src/contact/ball_ball.rs::update".into());
        out.code.push("src/check/collision.rs::evaluate".into());
        match probe.and_then(Probe::state::<CollisionProbe>) {
            Some(p) => self.judge(ctx, (idx(&self.ball), other), &p.seen, out),
            None => out.fail("the collision was not watched".into()),
        }
    }
}

/// The mass of ball `i`, kg, from the case itself: rho 4/3 pi r^3, infinite when every
/// translation is fixed.
fn mass(case: &dyn CaseView, i: usize) -> Real {
    let s = &case.balls()[i];
    if s.fixed & dof::TRANSLATION == dof::TRANSLATION {
        Real::INFINITY
    } else {
        case.materials()[s.material].density * 4.0 / 3.0 * PI * s.radius.powi(3)
    }
}

/// Effective mass, kg, of a ball and another body computed from the case itself:
/// rho 4/3 pi r^3, a ball with every translation fixed, or a wall, counting as infinitely heavy.
fn effective_mass(case: &dyn CaseView, a: usize, b: Body) -> Real {
    let mass = |i: usize| mass(case, i);
    let (ma, mb) = match b {
        Body::Ball(b) => (mass(a), mass(b)),
        Body::Wall(_) => (mass(a), Real::INFINITY),
    };
    if ma.is_infinite() {
        mb
    } else if mb.is_infinite() {
        ma
    } else {
        ma * mb / (ma + mb)
    }
}

/// The contact model of a ball and another body, from the case.
fn law_of_case(case: &dyn CaseView, a: usize, b: Body) -> Option<&ContactModel> {
    let ma = case.balls()[a].material;
    let mb = match b {
        Body::Ball(b) => case.balls()[b].material,
        Body::Wall(w) => case.walls()[w].material,
    };
    let (lo, hi) = (ma.min(mb), ma.max(mb));
    case.contact_models()
        .iter()
        .find(|(x, y, _)| *x == lo && *y == hi)
        .map(|(_, _, law)| law)
}

/// Effective radius of a ball and another body (a wall is flat: the ball's radius), m.
fn effective_radius(case: &dyn CaseView, a: usize, b: Body) -> Real {
    let ra = case.balls()[a].radius;
    match b {
        Body::Ball(b) => {
            let rb = case.balls()[b].radius;
            ra * rb / (ra + rb)
        }
        Body::Wall(_) => ra,
    }
}

/// `int_0^1 dx / sqrt(1 - x^(5/2)) = (2/5) B(2/5, 1/2) = (2/5) Gamma(2/5) Gamma(1/2) / Gamma(9/10)`:
/// the time to the largest overlap of an elastic Hertz impact is this times `d_max / v`
/// (energy: `v'^2 = v^2 (1 - (d/d_max)^(5/2))`). Checked against quadrature in the tests.
pub const HERTZ_LOADING: Real = 1.471_637_592_162_352_3;

/// The closed-form reference of a measure for the pair's contact model, with its formula in
/// words; `None` when the model has none for it.
fn closed_form(
    case: &dyn CaseView,
    measure: Measure,
    a: usize,
    b: Body,
    seen: &Collision,
) -> Option<(Real, String)> {
    let law = law_of_case(case, a, b)?;
    let m = effective_mass(case, a, b);
    let r = effective_radius(case, a, b);
    let v = -seen.vn_in;
    if let Some(o) = oscillator(case, a, b) {
        return oscillator_form(&o, measure, v);
    }
    match (law, measure) {
        (ContactModel::LinearDashpot(l), Measure::Restitution) => Some((
            l.restitution,
            format!("the requested restitution (normal force clamped at zero: damping ratio ζ = {:.9} from the dimensionless impact)", l.damp_n),
        )),
        (ContactModel::Hysteretic(h), Measure::Restitution) => {
            Some(((h.kn / h.k_unload).sqrt(), format!("e = √(kₙ/k_unload) = √({}/{})", crate::math::num(h.kn), crate::math::num(h.k_unload))))
        }
        (ContactModel::Hertz(h), Measure::Restitution) => Some((
            h.restitution,
            format!("the requested restitution (damping a = {:.9} from the dimensionless Hertz impact x'' = −x^{{3/2}} − a√(3/2) x^{{1/4}} x')", h.damping),
        )),
        (ContactModel::Hertz(h), Measure::MaxOverlap | Measure::MaxForce | Measure::Duration) if h.restitution == 1.0 => {
            let es = h.pair.e_star;
            let d_max = (15.0 * m * v * v / (16.0 * es * r.sqrt())).powf(0.4);
            let head = format!("elastic Hertz impact, E* = {} Pa, R* = {} m, m* = {:.9e} kg, v = {v:.9e} m/s: ", crate::math::num(es), crate::math::num(r), m);
            Some(match measure {
                Measure::MaxOverlap => (d_max, head + "δ_max = (15 m* v²/(16 E* √R*))^{2/5}"),
                Measure::MaxForce => (4.0 / 3.0 * es * r.sqrt() * d_max.powf(1.5), head + "F_max = (4/3) E* √R* δ_max^{3/2}"),
                _ => (2.0 * HERTZ_LOADING * d_max / v, head + "t_c = 2 · 1.4716376 · δ_max/v (1.4716376 = (2/5) B(2/5, 1/2))"),
            })
        }
        (ContactModel::Hertz(_) | ContactModel::LinearDashpot(_) | ContactModel::Hysteretic(_) | ContactModel::Linear(_), Measure::TangentialRestitution | Measure::ReboundSpin | Measure::TangentialVelocity) => {
            impulse_theory(case, law, measure, a, b, seen)
        }
        _ => None,
    }
}

/// Rigid-body impulse theory of an oblique impact of two spheres (or of a sphere on a wall or
/// a fixed ball), in the gross-sliding range.
///
/// With `n` the normal from the other body to the ball, `v_n` the approach speed, the effective
/// mass `m* = (1/m_a + 1/m_b)^-1` (a wall or a fixed ball: infinite mass) and the normal
/// impulse `P_n = m* (1 + e) v_n`, the slip velocity of the ball's contact point over the
/// other's, `s = v_t + w_a x (-R_a n) - w_b x (R_b n)`, changes by `K P_t` for a tangential
/// impulse `P_t`, `K = 1/m_a + 1/m_b + R_a^2/I_a + R_b^2/I_b` (`I = (2/5) m R^2`; a sphere on
/// a wall: `K = 7/(2m)`). If `|s| >= K mu P_n` the contact slides throughout and the friction
/// impulse is `mu P_n` against `s`: the relative tangential velocity of the centres drops by
/// `mu (1 + e) v_n` along the slip direction `s/|s|`, the ball's spin changes by
/// `(R_a mu P_n / I_a) n x s/|s|` (a sphere on a wall: `5 mu (1 + e) v_n / (2R)`; on an equal
/// free sphere, half that). Measures: the tangential restitution `v'_t . v_t / |v_t|^2`, the
/// tangential velocity after along the slip direction `v'_t . s/|s|` (m/s), the rebound spin
/// `|w'_a|` (rad/s). `None` outside the gross-sliding range (the sticking range depends on the
/// tangential compliance; rigid-body theory has no answer there).
fn impulse_theory(
    case: &dyn CaseView,
    law: &ContactModel,
    measure: Measure,
    a: usize,
    b: Body,
    seen: &Collision,
) -> Option<(Real, String)> {
    let (mu, e) = match law {
        ContactModel::Hertz(h) => (h.friction, h.restitution),
        ContactModel::LinearDashpot(l) => (l.friction, l.restitution),
        ContactModel::Hysteretic(h) => (h.friction, (h.kn / h.k_unload).sqrt()),
        ContactModel::Linear(l) if l.damp_n == 0.0 => (l.friction, 1.0),
        _ => return None,
    };
    let sphere = |i: usize| (mass(case, i), case.balls()[i].radius);
    let (ma, ra) = sphere(a);
    let (mb, rb) = match b {
        Body::Ball(b) => sphere(b),
        Body::Wall(_) => (Real::INFINITY, 0.0),
    };
    // 1/m and R^2/I = 5/(2m) of each body (zero for an infinite mass)
    let inv = |m: Real| if m.is_finite() { 1.0 / m } else { 0.0 };
    let k = (inv(ma) + inv(mb)) * 3.5;
    let m_star = 1.0 / (inv(ma) + inv(mb));
    let n = seen.normal;
    let vn = -seen.vel_in.dot(&n);
    let vt = seen.vel_in + n * vn;
    let [wa, wb] = seen.spin_in;
    let slip = vt + wa.cross(&(-n * ra)) - wb.cross(&(n * rb));
    let pn = m_star * (1.0 + e) * vn;
    let threshold = k * mu * pn;
    if slip.norm() < threshold || !(ma.is_finite() && vn > 0.0) {
        return None;
    }
    let dir = slip / slip.norm();
    let vt_out = vt - dir * (mu * (1.0 + e) * vn);
    let w_out = wa + n.cross(&dir) * (ra * mu * pn / (0.4 * ma * ra * ra));
    let head = format!(
        "rigid-body impulse theory, gross sliding (slip speed |s| = {:.6} m/s ≥ K μ P_n = {:.6} m/s), μ = {mu}, e = {e}: ",
        slip.norm(),
        threshold
    );
    match measure {
        Measure::TangentialRestitution if vt.norm() > 0.0 => Some((
            vt_out.dot(&vt) / vt.norm_squared(),
            head + "e_t = v′_t·v_t/|v_t|², v′_t = v_t − μ(1+e) v_n s/|s|",
        )),
        Measure::TangentialVelocity => Some((
            vt_out.dot(&dir),
            head + "v′_t·s/|s| = v_t·s/|s| − μ(1+e) v_n",
        )),
        Measure::ReboundSpin => Some((
            w_out.norm(),
            head + &format!(
                "ω′ = |ω_a + (R_a μ P_n/I_a) n × s/|s||, P_n = m*(1+e) v_n, R_a = {} m",
                crate::math::num(ra)
            ),
        )),
        _ => None,
    }
}

/// The slip direction of the ball's contact point over the other body's at first contact
/// ([`impulse_theory`]), or the incoming tangential direction when there is no slip.
fn slip_direction(case: &dyn CaseView, a: usize, b: Body, seen: &Collision) -> Vec3 {
    let n = seen.normal;
    let vt = seen.vel_in - n * seen.vel_in.dot(&n);
    let ra = case.balls()[a].radius;
    let rb = match b {
        Body::Ball(b) => case.balls()[b].radius,
        Body::Wall(_) => 0.0,
    };
    let [wa, wb] = seen.spin_in;
    let slip = vt + wa.cross(&(-n * ra)) - wb.cross(&(n * rb));
    slip.try_normalize(0.0)
        .or_else(|| vt.try_normalize(0.0))
        .unwrap_or_default()
}

/// The linear contact of a ball and another body seen as a damped oscillator, from the case's
/// own parameters.
fn oscillator(case: &dyn CaseView, a: usize, b: Body) -> Option<Oscillator> {
    Oscillator::of(law_of_case(case, a, b)?, effective_mass(case, a, b))
}

/// The closed form of `measure` for an impact at speed `v` on the oscillator `o`, with its
/// formula in words.
fn oscillator_form(o: &Oscillator, measure: Measure, v: Real) -> Option<(Real, String)> {
    let undamped = o.z == 0.0;
    match measure {
        Measure::Restitution => Some((
            o.restitution(),
            format!("e = exp(−πζ/√(1−ζ²)) with ζ = {}", o.z),
        )),
        Measure::Duration => Some((
            o.duration(),
            format!(
                "t_c = π/(ωₙ√(1−ζ²)), ωₙ = √(kₙ/m*), kₙ = {} N/m, m* = {:.6e} kg, ζ = {}",
                crate::math::num(o.kn),
                o.m,
                o.z
            ),
        )),
        Measure::MaxOverlap if undamped => Some((
            v / o.wn,
            format!("δ_max = v/ωₙ = v √(m*/kₙ), v = {v:.9e} m/s"),
        )),
        Measure::MaxForce if undamped => Some((
            o.kn * v / o.wn,
            format!("F_max = kₙ v/ωₙ = v √(kₙ m*), v = {v:.9e} m/s"),
        )),
        _ => None,
    }
}

impl FirstCollision {
    /// Judges the collision the probe saw: ball index `a` and body `b`.
    fn judge(
        &self,
        ctx: &Context,
        (a, b): (usize, Body),
        seen: &Collision,
        out: &mut CheckOutcome,
    ) {
        let ida = ctx.case.balls()[a].id;
        let (idb, pair) = match b {
            Body::Ball(b) => {
                let id = ctx.case.balls()[b].id.to_string();
                (id.clone(), format!("balls {ida} and {id}"))
            }
            Body::Wall(w) => {
                let name = ctx.case.walls()[w].name.clone();
                (name.clone(), format!("ball {ida} and wall \"{name}\""))
            }
        };
        out.tolerance = Some(self.tolerance);
        out.what = what(self.measure, &pair, ida);
        let closed = closed_form(ctx.case, self.measure, a, b, seen);
        let Some(reference) = self.reference(closed, out) else {
            return;
        };
        out.expected = Some(reference);
        if seen.touching_at_start {
            return out.fail(
                "the balls overlap at the start; the check needs a collision from apart".into(),
            );
        }
        let (Some(t0), Some(t1)) = (seen.t_start, seen.t_end) else {
            return out.fail(match seen.t_start {
                None => "the bodies never touched".into(),
                Some(_) => "the bodies were still in contact at the end of the run".into(),
            });
        };
        let measured = measured(ctx.case, self.measure, (a, b), seen, t1 - t0);
        out.judge_relative(measured, reference, self.tolerance);
        if let Some(o) = oscillator(ctx.case, a, b) {
            overlap_curve(ctx, (&ida.to_string(), &idb), &o, t0, -seen.vn_in, out);
        }
        out.message = format!(
            "contact from t = {t0:.6e} s to {t1:.6e} s; vₙ = {:.6e} m/s in, {:.6e} m/s out; largest overlap {:.6e} m, largest normal force {:.6e} N",
            seen.vn_in, seen.vn_out, seen.max_overlap, seen.max_force
        );
    }

    /// The reference value, the case's `expected` or else the closed form, with the formula
    /// written into `out`; None (and `out` failed) when there is neither.
    fn reference(&self, closed: Option<(Real, String)>, out: &mut CheckOutcome) -> Option<Real> {
        match (self.expected, closed) {
            (Some(e), Some((c, f))) => {
                out.formula = format!("{e} (given in the case); closed form: {f}, giving {c:.9}");
                Some(e)
            }
            (Some(e), None) => {
                out.formula = format!("{e} (given in the case)");
                Some(e)
            }
            (None, Some((c, f))) => {
                out.formula = format!("{f}, giving {c:.9}");
                Some(c)
            }
            (None, None) => {
                out.fail(format!(
                    "no expected value given and no closed form of {} for this contact model and this impact",
                    self.measure.kind()
                ));
                None
            }
        }
    }
}

/// What `measure` is, in words, for `pair` (ball `ida` and the other body).
fn what(measure: Measure, pair: &str, ida: u64) -> String {
    match measure {
        Measure::Restitution => format!("restitution −v′ₙ/vₙ of the relative normal velocity of {pair}, taken at the last cycle before contact and the first cycle after it"),
        Measure::Duration => format!("time {pair} overlap (the overlap's zero crossings interpolated between cycles)"),
        Measure::MaxOverlap => format!("largest overlap of {pair} over the cycles of the contact"),
        Measure::MaxForce => format!("largest normal component of the contact force on ball {ida} over the cycles of the contact"),
        Measure::TangentialRestitution => format!("tangential restitution v′_t/v_t of ball {ida}'s centre relative to the other body, along the incoming tangential direction"),
        Measure::ReboundSpin => format!("magnitude of ball {ida}'s angular velocity after the contact with {pair}"),
        Measure::TangentialVelocity => format!("tangential velocity of ball {ida}'s centre relative to the other body after the contact, along the direction its contact point slipped at first contact (m/s)"),
    }
}

/// The measured value of `measure` from the collision seen (`duration`: its contact time, s).
fn measured(
    case: &dyn CaseView,
    measure: Measure,
    (a, b): (usize, Body),
    seen: &Collision,
    duration: Real,
) -> Real {
    let n = seen.normal;
    let tangential = |v: &Vec3| *v - n * v.dot(&n);
    let t_in = tangential(&seen.vel_in);
    match measure {
        Measure::Restitution => -seen.vn_out / seen.vn_in,
        Measure::Duration => duration,
        Measure::MaxOverlap => seen.max_overlap,
        Measure::MaxForce => seen.max_force,
        Measure::TangentialRestitution => {
            tangential(&seen.vel_out).dot(&t_in) / t_in.norm_squared()
        }
        Measure::ReboundSpin => seen.spin_out.norm(),
        Measure::TangentialVelocity => {
            tangential(&seen.vel_out).dot(&slip_direction(case, a, b, seen))
        }
    }
}

/// Plots the recorded overlap of the pair against [`Oscillator::overlap`], with the measured
/// start of contact `t0` and impact speed `v` as the only inputs taken from the run.
fn overlap_curve(
    ctx: &Context,
    (ida, idb): (&str, &str),
    o: &Oscillator,
    t0: Real,
    v: Real,
    out: &mut CheckOutcome,
) {
    let names = [
        format!("interaction/{ida}/{idb}/overlap"),
        format!("interaction/{idb}/{ida}/overlap"),
    ];
    let Some(name) = names.into_iter().find(|n| ctx.series.column(n).is_some()) else {
        return;
    };
    let y = ctx.series.t.iter().map(|&t| o.overlap(v, t - t0)).collect();
    out.series = Some(name);
    out.reference = Some(crate::record::Curve {
        label: "damped oscillator: (v/ω_d)·exp(−ζωₙτ)·sin(ω_d τ)".into(),
        x: ctx.series.t.clone(),
        y,
        markers: false,
    });
}
