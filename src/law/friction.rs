//! Coulomb friction: the tangential spring and dashpot behind a Coulomb slider, and the energy
//! a spring stores and loses.

use crate::math::{Real, Vec3};

/// How the Coulomb limit bounds the tangential force of a model with a shear dashpot
/// (`[[contact]] friction_limit`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum FrictionLimit {
    /// The default: the total tangential force, spring plus dashpot, never exceeds
    /// `friction |F_n|`, with `F_n` the normal force the model applies (after its clamp).
    /// The spring and the dashpot act in parallel, in series with a Coulomb slider: while
    /// the slider slips the total sits on the limit, and the spring relaxes towards it at
    /// the rate the dashpot allows (see [`shear_step`]). Without a dashpot this is the
    /// classic elastic-perfectly-plastic spring.
    #[default]
    Total,
    /// The sources' literal rule (PFC's linear model, LIGGGHTS's tangential history): only
    /// the spring is limited, by `friction F_n` (the linear model: by its elastic normal
    /// force `kn overlap`); the dashpot is added on top while the spring sticks and is off
    /// while it slides. Spring plus dashpot can then leave the cone (ten times the limit
    /// in the first cycles of a damped sliding impact). Kept for comparisons with those
    /// codes.
    Spring,
}

impl FrictionLimit {
    /// The key's value in case files.
    pub fn name(self) -> &'static str {
        match self {
            FrictionLimit::Total => "total",
            FrictionLimit::Spring => "spring",
        }
    }
}

/// Coulomb limit on an elastic shear force (local): scales it back onto `limit` when larger.
/// Returns true when it slid.
#[inline]
pub fn coulomb(shear: &mut Vec3, limit: Real) -> bool {
    let limit = limit.max(0.0);
    let fs2 = shear.norm_squared();
    if fs2 > limit * limit {
        // NOTE: fs2 > 0 here because limit >= 0.
        *shear *= limit / fs2.sqrt();
        true
    } else {
        false
    }
}

/// The tangential element after one cycle: its spring force, the total tangential force it
/// exerts (spring plus dashpot), and whether its slider slips.
#[derive(Clone, Copy, Debug)]
pub struct Shear {
    /// Spring force on b after the cycle, N (what the model keeps as its state).
    pub spring: Vec3,
    /// Total tangential force on b, N.
    pub force: Vec3,
    /// True when the force sits on the Coulomb limit.
    pub sliding: bool,
}

/// One cycle of a tangential spring (stiffness `k`) and dashpot (coefficient `c`) in
/// parallel, behind a Coulomb slider of strength `limit`.
///
/// `before` is the spring force before this cycle's displacement increment `du`, `trial`
/// the spring force after it if nothing slips (`before - k du` for the incremental springs),
/// `damper` the dashpot force `-c v_t` (`du = v_t dt`), `k_dt` the product `k dt`.
///
/// - [`FrictionLimit::Spring`]: the spring is scaled back onto the limit; the dashpot is
///   added while it sticks (`trial + damper`), not while it slides.
/// - [`FrictionLimit::Total`]: while `|trial + damper| <= limit` nothing slips. Otherwise
///   the total force is `T = limit (trial + damper)/|trial + damper|`, and the spring is
///   what a spring and a dashpot in parallel carry when their sum is held at `T` for the
///   cycle (backward Euler on the element's elongation `e`, `k e + c de/dt = -T`):
///   `spring = (k dt T + c before)/(k dt + c)`. The dashpot carries `T - spring`; the slider
///   slips by `du` less the element's elongation. Both dissipate (`c |de/dt|^2 >= 0` and
///   `|T| |slip| >= 0`), so no cycle creates energy, and the spring never leaves the cone.
///   With `c = 0` the spring is `T`: the same numbers as the `Spring` rule.
///
///   Since `du = v_t dt`, the total force points along `spring + damper` (the two differ
///   by a positive factor): [`crate::law::history::held_force`] finds it again that way.
#[inline]
pub fn shear_step(
    rule: FrictionLimit,
    before: &Vec3,
    trial: Vec3,
    damper: Vec3,
    c: Real,
    k_dt: Real,
    limit: Real,
) -> Shear {
    let limit = limit.max(0.0);
    match rule {
        FrictionLimit::Spring => {
            let mut spring = trial;
            let sliding = coulomb(&mut spring, limit);
            let force = if !sliding && c > 0.0 {
                spring + damper
            } else {
                spring
            };
            Shear {
                spring,
                force,
                sliding,
            }
        }
        FrictionLimit::Total => {
            let total = if c > 0.0 { trial + damper } else { trial };
            let t2 = total.norm_squared();
            if t2 > limit * limit {
                // NOTE: t2 > 0 here because limit >= 0.
                let force = total * (limit / t2.sqrt());
                let spring = if c > 0.0 {
                    (force * k_dt + before * c) / (k_dt + c)
                } else {
                    force
                };
                Shear {
                    spring,
                    force,
                    sliding: true,
                }
            } else {
                Shear {
                    spring: trial,
                    force: total,
                    sliding: false,
                }
            }
        }
    }
}

/// Elastic energy `|s|^2 / (2 k)` of a spring of stiffness `k` carrying the force `s`, J (0
/// for a spring of no stiffness, which carries none).
#[inline]
pub fn spring_energy(s: &Vec3, k: Real) -> Real {
    if k > 0.0 {
        0.5 * s.norm_squared() / k
    } else {
        0.0
    }
}

/// What a tangential spring lost in one cycle, J: the work its two ends did on it over the
/// cycle's displacement `du` (trapezoidal: `-(s_0 + s_1)/2 . du`, the same rule by which the
/// leapfrog integrator turns forces into kinetic energy) less the change of its stored
/// energy (`|s|^2/(2k)` before, with the stiffness `k_0` it had then, and after). A spring
/// that only stretches loses nothing (to round-off: `s_1 = s_0 - k du`); what the slider
/// takes, and what a stiffness that changes with the overlap adds or removes at a given
/// force, is the rest.
#[inline]
pub fn elastic_loss(s_0: &Vec3, k_0: Real, s_1: &Vec3, k_1: Real, du: &Vec3) -> Real {
    -0.5 * (s_0 + s_1).dot(du) - (spring_energy(s_1, k_1) - spring_energy(s_0, k_0))
}
