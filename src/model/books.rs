//! Energy books: where the energy of a run went, cycle by cycle.
//!
//! Five accounts (docs/CASES.md, section 13), each from its own definition, so that their sum, the balance,
//! proves the run:
//! - kinetic `K` and strain `U` ([`Model::kinetic_energy`], [`Model::strain_energy`]) and the
//!   gravitational potential `P = -sum m g . x` ([`Model::potential_energy`]): state functions;
//! - dissipated `D`: what the dashpots removed (their forces: the applied contact force less its
//!   elastic part, [`crate::law::ContactModel::elastic_normal`] and
//!   [`crate::law::ContactModel::elastic_shear`], times the relative velocity at the contact
//!   point), plus what the contact models report lost (slip of the tangential springs, the
//!   hysteretic model's hysteresis, broken bonds, springs released with their state:
//!   [`crate::law::ContactForce::dissipated`]);
//! - work `W`: done on the bodies by moving walls (the contact force on the ball times the
//!   wall's velocity at the contact point), by applied forces, and by the constraints that hold
//!   a fixed degree of freedom at its prescribed velocity (minus the other forces along it).
//!
//! The balance `K + U + P + D - W` less its value at the start is zero in exact arithmetic and
//! exact time integration. Velocity Verlet turns the forces `F_n` of the cycles into kinetic
//! energy by the trapezoidal rule over each step, `(F_n + F_(n+1))/2 . (x_(n+1) - x_n)`, plus a
//! term of its own: with the velocity `u_n` at the time of the positions (what `K` uses),
//! `K(u_(n+1)) - K(u_n)` is that work plus `dt^2/8 (S_(n+1) - S_n)`, `S = sum |F|^2/m + |M|^2/I`
//! over the free degrees of freedom (exactly, for a constant step; the books keep the sum of
//! these terms, [`EnergyBooks::integrator`], for a varying one). So every account that is a
//! power (dashpots, walls, constraints) is booked by the same trapezoidal rule: the power `p_n`
//! of the cycle's forces at the velocities `u_n`, and the term `a_n` of the forces times the
//! accelerations, give each force's work over the two half steps around its cycle,
//! `p_n (dt_n + dt_(n+1))/2 + a_n (dt_(n+1)^2 - dt_n^2)/4` (the second half booked once the
//! next step is known); the models report their springs' losses by the same rule
//! ([`crate::law::elastic_loss`]). A linear spring's energy then changes by exactly the
//! trapezoidal work done on it, and the balance of a run of linear contacts is the integrator's
//! term alone, to round-off; a Hertz spring adds the error of the trapezoidal rule on
//! `d^(3/2)`, which shrinks as `dt^2`.

use crate::math::Real;

/// The running accounts of a model's energy (docs/CASES.md, section 13), kept when asked for
/// ([`super::Model::keep_energy_books`]).
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct EnergyBooks {
    /// Energy removed by the dashpots since the start, J.
    pub dashpots: Real,
    /// Energy the contact models lost since the start (slip, hysteresis, breakage, released
    /// springs), J.
    pub contacts: Real,
    /// Work done on the balls by moving walls since the start, J.
    pub walls: Real,
    /// Work done on the bodies by applied forces since the start, J.
    pub applied: Real,
    /// Work done on the bodies by the constraints of fixed degrees of freedom since the
    /// start, J.
    pub constraints: Real,
    /// The integration error the books can measure, J: the leapfrog integrator's own term,
    /// `sum dt^2/8 (S_n - S_(n-1))` (module documentation), and what the trapezoidal rule
    /// misses of the normal springs' energy ([`crate::law::ContactModel::normal_loss`]: a
    /// contact's force switches on or off within the step of its first and last cycle; Hertz's
    /// force is curved). The balance less this is what the books cannot explain.
    pub integrator: Real,
    /// `K + U + P` at the start, J.
    pub initial: Real,
    /// The powers of the last cycle whose second half step is still to be booked.
    pub(crate) pending: Powers,
    /// For each wall with a programmed motion (else zeros): the resultant force and moment
    /// (about its pivot) of its contacts on the balls at the last cycle, booked for the
    /// second half step with the velocity of that step (a programmed velocity changes from
    /// step to step: the trapezoidal rule takes each step's own displacement).
    #[serde(default)]
    pub(crate) wall_loads: Vec<(crate::math::Vec3, crate::math::Vec3)>,
    /// Work the couples of rolling resistance took from the bodies' relative rotation since
    /// the start, J ([`crate::law::Rolling`]): what their springs hold now plus what they
    /// dissipated.
    #[serde(default)]
    pub rolling: Real,
    /// For each wall with a programmed motion (else zeros): the couples of rolling resistance
    /// of its contacts on the balls at the last cycle, booked like `wall_loads` (what the
    /// couples take from the wall's turning is what the wall's work counts).
    #[serde(default)]
    pub(crate) wall_couples: Vec<crate::math::Vec3>,
    /// What the rolling springs hold at the last booking, J (part of the strain energy: the
    /// dissipated energy is `rolling` less this).
    #[serde(default)]
    pub rolling_held: Real,
    /// The potential of the cohesive forces at the last booking and at the start, J (part of
    /// the strain energy; their work is booked with the dashpots' as part of the force beyond
    /// the elastic one, and taken out again here).
    #[serde(default)]
    pub cohesion_held: Real,
    /// See `cohesion_held`.
    #[serde(default)]
    pub cohesion_start: Real,
    /// Work the cohesive forces took from the bodies since the start, J (the change of their
    /// potential, to the integration's accuracy).
    #[serde(default)]
    pub cohesion: Real,
    /// For each wall with a programmed motion: the cohesive forces of its contacts on the balls
    /// and their moment about its pivot at the last cycle, booked like `wall_loads`.
    #[serde(default)]
    pub(crate) wall_cohesion: Vec<(crate::math::Vec3, crate::math::Vec3)>,
}

impl EnergyBooks {
    /// Energy dissipated since the start, J (`energy/dissipated`).
    pub fn dissipated(&self) -> Real {
        self.dashpots
            + self.contacts
            + (self.rolling - self.rolling_held)
            + (self.cohesion - (self.cohesion_held - self.cohesion_start))
    }

    /// Work done on the bodies since the start, J (`energy/work`).
    pub fn work(&self) -> Real {
        self.walls + self.applied + self.constraints
    }
}

/// The powers of one cycle's forces at the velocities of the time of the positions.
#[derive(Clone, Copy, Debug, Default, serde::Serialize, serde::Deserialize)]
pub(crate) struct Powers {
    /// Power the dashpots dissipate, W.
    pub(crate) dashpots: Real,
    /// Minus the dashpot forces times the relative accelerations at their contact points, W/s.
    pub(crate) dashpots_accel: Real,
    /// Power the contact models dissipate through forces that are not the gradient of their
    /// energy (a proximity contact's normal force), W, and its acceleration term.
    pub(crate) models: Real,
    /// Minus those forces times the relative accelerations at their contact points, W/s.
    pub(crate) models_accel: Real,
    /// Power the couples of rolling resistance take from the relative rotation, W.
    pub(crate) rolling: Real,
    /// Minus the couples times the relative angular accelerations, W/s.
    pub(crate) rolling_accel: Real,
    /// Power the cohesive forces take from the relative motion, W.
    pub(crate) cohesion: Real,
    /// Minus the cohesive forces times the relative accelerations, W/s.
    pub(crate) cohesion_accel: Real,
    /// Power of the walls on the balls, W (a wall's velocity does not change in a cycle: no
    /// acceleration term).
    pub(crate) walls: Real,
    /// Power of the constraints on the bodies, W (a fixed degree of freedom does not
    /// accelerate).
    pub(crate) constraints: Real,
    /// `sum |F|^2/m + |M|^2/I` over the free degrees of freedom.
    pub(crate) s: Real,
    /// Under pressure control, the sum over the contacts of the elastic force on b along the
    /// controlled axis times the branch from a's body to b's along it, N m: times minus the
    /// cell's strain rate, the power of the affine remap on the contacts' springs.
    pub(crate) remap: Real,
}
