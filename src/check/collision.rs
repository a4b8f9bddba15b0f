//! The `restitution` and `contact_duration` checks, and the probe that watches a collision
//! every cycle (records are too coarse to time a contact).
//!
//! Closed forms for a linear spring with a viscous dashpot (a damped oscillator of effective
//! mass `m* = m_a m_b / (m_a + m_b)`, `omega_n = sqrt(kn / m*)`, damping ratio `z`), used as the
//! reference when the case gives no `expected` value:
//! - contact duration `t_c = pi / (omega_n sqrt(1 - z^2))` (half a damped period),
//! - restitution `e = exp(-pi z / sqrt(1 - z^2))` (the amplitude decay over that half period).

use super::{CheckOutcome, Context};
use crate::case::Case;
use crate::law::ContactModel;
use crate::math::{Real, PI};
use crate::model::{dof, Model};

/// The other body of a collision check, as written in the case: a ball id or a wall name.
#[derive(Clone, Debug, PartialEq)]
pub enum Other {
    /// A ball id.
    Ball(u64),
    /// A wall name.
    Wall(String),
}

/// The other body of a collision, by index in the model.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Body {
    /// A ball index.
    Ball(usize),
    /// A wall index.
    Wall(usize),
}

/// One collision between two balls, as seen cycle by cycle.
#[derive(Clone, Debug, Default, PartialEq)]
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
}

/// Watches the first collision of two balls.
#[derive(Clone, Debug)]
pub struct CollisionProbe {
    a: usize,
    b: Body,
    prev: Option<(Real, Real, Real)>,
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
        let (overlap, vn) = match self.b {
            Body::Ball(b) => {
                let d = bl.pos[b] - bl.pos[self.a];
                let dist = d.norm();
                let n = d / dist;
                let vn =
                    (model.synchronized_velocity(b) - model.synchronized_velocity(self.a)).dot(&n);
                (bl.radius[self.a] + bl.radius[b] - dist, vn)
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
                let n = d.try_normalize(0.0).unwrap_or_else(crate::math::Vec3::z);
                let vn = (model.synchronized_velocity(self.a) - wall.velocity_at(f, &p)).dot(&n);
                (bl.radius[self.a] - d.norm(), vn)
            }
        };
        let t = model.time;
        let cross = |(t0, o0, _): (Real, Real, Real)| t0 + (t - t0) * o0 / (o0 - overlap);
        match self.prev {
            None if overlap > 0.0 => self.seen.touching_at_start = true,
            Some(p) if self.seen.t_start.is_none() && overlap > 0.0 => {
                self.seen.t_start = Some(cross(p));
                self.seen.vn_in = p.2;
            }
            Some(p) if self.seen.t_start.is_some() && overlap <= 0.0 => {
                self.seen.t_end = Some(cross(p));
                self.seen.vn_out = vn;
            }
            _ => {}
        }
        self.prev = Some((t, overlap, vn));
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
        let ma = case.balls[a].material;
        let mb = match b {
            Body::Ball(b) => case.balls[b].material,
            Body::Wall(w) => case.walls[w].material,
        };
        let (lo, hi) = (ma.min(mb), ma.max(mb));
        let (kn, z) = case
            .contact_models
            .iter()
            .find(|(x, y, _)| *x == lo && *y == hi)
            .map(|(_, _, law)| match law {
                ContactModel::Linear(l) => (l.kn, l.damp_n),
            })?;
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

/// Which quantity a collision check measures.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Measure {
    /// -vn_out / vn_in.
    Restitution,
    /// t_end - t_start.
    Duration,
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
    };
    let oscillator = Oscillator::of_case(ctx.case, a, b);
    let closed = oscillator.map(|o| match measure {
        Measure::Restitution => (
            o.restitution(),
            format!("e = exp(−πζ/√(1−ζ²)) with ζ = {}", o.z),
        ),
        Measure::Duration => (
            o.duration(),
            format!(
                "t_c = π/(ωₙ√(1−ζ²)), ωₙ = √(kₙ/m*), kₙ = {} N/m, m* = {:.6e} kg, ζ = {}",
                crate::output::num(o.kn),
                o.m,
                o.z
            ),
        ),
    });
    let reference = match (expected, &closed) {
        (Some(e), Some((c, f))) => {
            out.formula =
                format!("{e} (given in the case); closed form of the linear model: {f} = {c:.9}");
            e
        }
        (Some(e), None) => {
            out.formula = format!("{e} (given in the case)");
            e
        }
        (None, Some((c, f))) => {
            out.formula = format!("{f} = {c:.9}");
            *c
        }
        (None, None) => {
            return out
                .fail("no expected value given and no closed form for this contact model".into())
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
    let measured = match measure {
        Measure::Restitution => -seen.vn_out / seen.vn_in,
        Measure::Duration => t1 - t0,
    };
    out.judge_relative(measured, reference, tolerance);
    if let Some(o) = oscillator {
        overlap_curve(ctx, (&ida.to_string(), &idb), &o, t0, -seen.vn_in, out);
    }
    out.message = format!(
        "contact from t = {t0:.6e} s to {t1:.6e} s; vₙ = {:.6e} m/s in, {:.6e} m/s out",
        seen.vn_in, seen.vn_out
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
    out.reference = Some(crate::output::Curve {
        label: "damped oscillator: (v/ω_d)·exp(−ζωₙτ)·sin(ω_d τ)".into(),
        x: ctx.series.t.clone(),
        y,
        markers: false,
    });
}
