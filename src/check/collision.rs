//! The `restitution` and `contact_duration` checks, and the probe that watches a collision
//! every cycle (records are too coarse to time a contact).
//!
//! Closed forms for a linear spring with a viscous dashpot (a damped oscillator of effective
//! mass `m* = m_a m_b / (m_a + m_b)`, `omega_n = sqrt(kn / m*)`, damping ratio `z`), used as the
//! reference when the case gives no `expected` value:
//! - contact duration `t_c = pi / (omega_n sqrt(1 - z^2))` (half a damped period),
//! - restitution `e = exp(-pi z / sqrt(1 - z^2))` (the amplitude decay over that half period).

use super::context::Context;
use crate::body::dof;
use crate::case::{Case, Measure};
use crate::law::ContactModel;
use crate::math::{Real, Vec3, PI};
use crate::model::Model;
use crate::record::CheckOutcome;

/// The other body of a collision, by index in the model.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Body {
    /// A ball index.
    Ball(usize),
    /// A wall index.
    Wall(usize),
}

/// One collision between two balls, as seen cycle by cycle.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Collision {
    /// Time the overlap became positive, s (interpolated between cycles).
    pub t_start: Option<Real>,
    /// Time the overlap returned to zero, s (interpolated).
    pub t_end: Option<Real>,
    /// Relative normal velocity (v_other - v_ball) . n at the last cycle before contact, m/s.
    pub vn_in: Real,
    /// Relative normal velocity at the first cycle after separation, m/s.
    pub vn_out: Real,
    /// True when the balls already overlapped at the start.
    pub touching_at_start: bool,
    /// Largest overlap during the contact, m.
    pub max_overlap: Real,
    /// Largest normal component of the contact force on the ball during the contact, N.
    pub max_force: Real,
    /// Velocity of the ball relative to the other body at the last cycle before contact, m/s.
    pub vel_in: Vec3,
    /// The same at the first cycle after separation, m/s.
    pub vel_out: Vec3,
    /// Angular velocity of the ball at the first cycle after separation, rad/s.
    pub spin_out: Vec3,
    /// Angular velocities of the ball and of the other ball (zero for a wall) at the last
    /// cycle before contact, rad/s.
    pub spin_in: [Vec3; 2],
    /// Unit normal from the other body to the ball at first contact.
    pub normal: Vec3,
}

/// Watches the first collision of two balls.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct CollisionProbe {
    a: usize,
    b: Body,
    prev: Option<(Real, Real, Real, Vec3, Vec3, [Vec3; 2])>,
    /// What was seen so far.
    pub seen: Collision,
}

impl CollisionProbe {
    /// A probe of ball index `a` and body `b`.
    pub fn new(a: usize, b: Body) -> Self {
        CollisionProbe {
            a,
            b,
            prev: None,
            seen: Collision::default(),
        }
    }

    /// Looks at the model after a cycle (and once before the first).
    pub fn observe(&mut self, model: &Model) {
        if self.seen.t_end.is_some() {
            return;
        }
        let bl = &model.balls;
        let (overlap, n, v_other) = match self.b {
            Body::Ball(b) => {
                let d = bl.pos[self.a] - bl.pos[b];
                let dist = d.norm();
                (
                    bl.radius[self.a] + bl.radius[b] - dist,
                    d / dist,
                    model.synchronized_velocity(b),
                )
            }
            // The nearest point of the wall, found over every facet (independent of the
            // contact list): overlap R - d, normal from the wall to the ball.
            Body::Wall(w) => {
                let wall = &model.walls[w];
                let x = bl.pos[self.a];
                let (f, p) = (0..wall.mesh.len())
                    .map(|f| {
                        (
                            f,
                            crate::geom::closest_point(&x, &wall.mesh.corners(f)).point,
                        )
                    })
                    .min_by(|a, b| {
                        (a.1 - x)
                            .norm_squared()
                            .total_cmp(&(b.1 - x).norm_squared())
                    })
                    .unwrap_or((0, x));
                let d = x - p;
                let n = d.try_normalize(0.0).unwrap_or_else(Vec3::z);
                (bl.radius[self.a] - d.norm(), n, wall.velocity_at(f, &p))
            }
        };
        let vel = model.synchronized_velocity(self.a) - v_other;
        let spins = [
            model.synchronized_spin(self.a),
            match self.b {
                Body::Ball(b) => model.synchronized_spin(b),
                Body::Wall(_) => Vec3::zeros(),
            },
        ];
        // velocity of the ball relative to the other body along the normal from the other body
        // to the ball: < 0 while approaching (the same as (v_b - v_a) . n with n from a to b)
        let vn = vel.dot(&n);
        let t = model.time;
        let cross = |(t0, o0, ..): (Real, Real, Real, Vec3, Vec3, [Vec3; 2])| {
            t0 + (t - t0) * o0 / (o0 - overlap)
        };
        match self.prev {
            None if overlap > 0.0 => self.seen.touching_at_start = true,
            Some(p) if self.seen.t_start.is_none() && overlap > 0.0 => {
                self.seen.t_start = Some(cross(p));
                self.seen.vn_in = p.2;
                self.seen.vel_in = p.3;
                self.seen.normal = p.4;
                self.seen.spin_in = p.5;
            }
            Some(p) if self.seen.t_start.is_some() && overlap <= 0.0 => {
                self.seen.t_end = Some(cross(p));
                self.seen.vn_out = vn;
                self.seen.vel_out = vel;
                self.seen.spin_out = model.synchronized_spin(self.a);
            }
            _ => {}
        }
        if self.seen.t_start.is_some() && self.seen.t_end.is_none() {
            self.seen.max_overlap = self.seen.max_overlap.max(overlap);
            self.seen.max_force = self.seen.max_force.max(bl.force[self.a].dot(&n));
        }
        self.prev = Some((t, overlap, vn, vel, n, spins));
    }
}

/// Effective mass, kg, of a ball and another body computed from the case itself:
/// rho 4/3 pi r^3, a ball with every translation fixed, or a wall, counting as infinitely heavy.
fn effective_mass(case: &Case, a: usize, b: Body) -> Real {
    let mass = |i: usize| {
        let s = &case.balls[i];
        if s.fixed & dof::TRANSLATION == dof::TRANSLATION {
            Real::INFINITY
        } else {
            case.materials[s.material].density * 4.0 / 3.0 * PI * s.radius.powi(3)
        }
    };
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
fn law_of_case(case: &Case, a: usize, b: Body) -> Option<&ContactModel> {
    let ma = case.balls[a].material;
    let mb = match b {
        Body::Ball(b) => case.balls[b].material,
        Body::Wall(w) => case.walls[w].material,
    };
    let (lo, hi) = (ma.min(mb), ma.max(mb));
    case.contact_models
        .iter()
        .find(|(x, y, _)| *x == lo && *y == hi)
        .map(|(_, _, law)| law)
}

/// Effective radius of a ball and another body (a wall is flat: the ball's radius), m.
fn effective_radius(case: &Case, a: usize, b: Body) -> Real {
    let ra = case.balls[a].radius;
    match b {
        Body::Ball(b) => {
            let rb = case.balls[b].radius;
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
    case: &Case,
    measure: Measure,
    a: usize,
    b: Body,
    seen: &Collision,
) -> Option<(Real, String)> {
    let law = law_of_case(case, a, b)?;
    let m = effective_mass(case, a, b);
    let r = effective_radius(case, a, b);
    let v = -seen.vn_in;
    if let Some(o) = Oscillator::of_case(case, a, b) {
        let undamped = o.z == 0.0;
        return match measure {
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
        };
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
    case: &Case,
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
    let sphere = |i: usize| {
        let s = &case.balls[i];
        let m = if s.fixed & dof::TRANSLATION == dof::TRANSLATION {
            Real::INFINITY
        } else {
            case.materials[s.material].density * 4.0 / 3.0 * PI * s.radius.powi(3)
        };
        (m, s.radius)
    };
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
fn slip_direction(case: &Case, a: usize, b: Body, seen: &Collision) -> Vec3 {
    let n = seen.normal;
    let vt = seen.vel_in - n * seen.vel_in.dot(&n);
    let ra = case.balls[a].radius;
    let rb = match b {
        Body::Ball(b) => case.balls[b].radius,
        Body::Wall(_) => 0.0,
    };
    let [wa, wb] = seen.spin_in;
    let slip = vt + wa.cross(&(-n * ra)) - wb.cross(&(n * rb));
    slip.try_normalize(0.0)
        .or_else(|| vt.try_normalize(0.0))
        .unwrap_or_default()
}

/// The contact of a linear spring and dashpot seen as a damped oscillator: the one place where
/// its closed forms are written.
#[derive(Clone, Copy, Debug)]
struct Oscillator {
    /// Normal stiffness, N/m.
    kn: Real,
    /// Effective mass, kg.
    m: Real,
    /// Damping ratio.
    z: Real,
    /// Undamped angular frequency sqrt(kn / m*), rad/s.
    wn: Real,
    /// Damped angular frequency wn sqrt(1 - z^2), rad/s.
    wd: Real,
}

impl Oscillator {
    /// The linear contact between two case balls, from the case's own parameters.
    fn of_case(case: &Case, a: usize, b: Body) -> Option<Oscillator> {
        let (kn, z) = match law_of_case(case, a, b)? {
            ContactModel::Linear(l) => (l.kn, l.damp_n),
            ContactModel::LinearDashpot(l) if !l.clamp => (l.kn, l.damp_n),
            _ => return None,
        };
        let m = effective_mass(case, a, b);
        let wn = (kn / m).sqrt();
        Some(Oscillator {
            kn,
            m,
            z,
            wn,
            wd: wn * (1.0 - z * z).sqrt(),
        })
    }

    /// Contact duration pi / omega_d, s.
    fn duration(&self) -> Real {
        PI / self.wd
    }

    /// Restitution exp(-z omega_n pi / omega_d).
    fn restitution(&self) -> Real {
        (-self.z * self.wn * self.duration()).exp()
    }

    /// Overlap at `tau` after first touch with impact speed `v`: the gap closing at `v` before,
    /// `(v / omega_d) exp(-z omega_n tau) sin(omega_d tau)` during, opening at `e v` after.
    fn overlap(&self, v: Real, tau: Real) -> Real {
        let t_end = self.duration();
        if tau < 0.0 {
            v * tau
        } else if tau <= t_end {
            v / self.wd * (-self.z * self.wn * tau).exp() * (self.wd * tau).sin()
        } else {
            -self.restitution() * v * (tau - t_end)
        }
    }
}

/// Evaluates a restitution or contact-duration check from the probe's record.
pub fn evaluate(
    ctx: &Context,
    measure: Measure,
    (a, b): (usize, Body),
    expected: Option<Real>,
    tolerance: Real,
    seen: &Collision,
    out: &mut CheckOutcome,
) {
    let ida = ctx.case.balls[a].id;
    let (idb, pair) = match b {
        Body::Ball(b) => {
            let id = ctx.case.balls[b].id.to_string();
            (id.clone(), format!("balls {ida} and {id}"))
        }
        Body::Wall(w) => {
            let name = ctx.case.walls[w].name.clone();
            (name.clone(), format!("ball {ida} and wall \"{name}\""))
        }
    };
    out.tolerance = Some(tolerance);
    out.what = match measure {
        Measure::Restitution => format!("restitution −v′ₙ/vₙ of the relative normal velocity of {pair}, taken at the last cycle before contact and the first cycle after it"),
        Measure::Duration => format!("time {pair} overlap (the overlap's zero crossings interpolated between cycles)"),
        Measure::MaxOverlap => format!("largest overlap of {pair} over the cycles of the contact"),
        Measure::MaxForce => format!("largest normal component of the contact force on ball {ida} over the cycles of the contact"),
        Measure::TangentialRestitution => format!("tangential restitution v′_t/v_t of ball {ida}'s centre relative to the other body, along the incoming tangential direction"),
        Measure::ReboundSpin => format!("magnitude of ball {ida}'s angular velocity after the contact with {pair}"),
        Measure::TangentialVelocity => format!("tangential velocity of ball {ida}'s centre relative to the other body after the contact, along the direction its contact point slipped at first contact (m/s)"),
    };
    let closed = closed_form(ctx.case, measure, a, b, seen);
    let reference = match (expected, &closed) {
        (Some(e), Some((c, f))) => {
            out.formula =
                format!("{e} (given in the case); closed form: {f}, giving {c:.9}");
            e
        }
        (Some(e), None) => {
            out.formula = format!("{e} (given in the case)");
            e
        }
        (None, Some((c, f))) => {
            out.formula = format!("{f}, giving {c:.9}");
            *c
        }
        (None, None) => {
            return out.fail(format!(
                "no expected value given and no closed form of {} for this contact model and this impact",
                measure.kind()
            ))
        }
    };
    out.expected = Some(reference);
    if seen.touching_at_start {
        return out
            .fail("the balls overlap at the start; the check needs a collision from apart".into());
    }
    let (Some(t0), Some(t1)) = (seen.t_start, seen.t_end) else {
        return out.fail(match seen.t_start {
            None => "the bodies never touched".into(),
            Some(_) => "the bodies were still in contact at the end of the run".into(),
        });
    };
    let n = seen.normal;
    let tangential = |v: &Vec3| *v - n * v.dot(&n);
    let t_in = tangential(&seen.vel_in);
    let measured = match measure {
        Measure::Restitution => -seen.vn_out / seen.vn_in,
        Measure::Duration => t1 - t0,
        Measure::MaxOverlap => seen.max_overlap,
        Measure::MaxForce => seen.max_force,
        Measure::TangentialRestitution => {
            tangential(&seen.vel_out).dot(&t_in) / t_in.norm_squared()
        }
        Measure::ReboundSpin => seen.spin_out.norm(),
        Measure::TangentialVelocity => {
            tangential(&seen.vel_out).dot(&slip_direction(ctx.case, a, b, seen))
        }
    };
    out.judge_relative(measured, reference, tolerance);
    if let Some(o) = Oscillator::of_case(ctx.case, a, b) {
        overlap_curve(ctx, (&ida.to_string(), &idb), &o, t0, -seen.vn_in, out);
    }
    out.message = format!(
        "contact from t = {t0:.6e} s to {t1:.6e} s; vₙ = {:.6e} m/s in, {:.6e} m/s out; largest overlap {:.6e} m, largest normal force {:.6e} N",
        seen.vn_in, seen.vn_out, seen.max_overlap, seen.max_force
    );
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
