//! The timestep modes and what set a step ([`TimestepMode`], [`Limit`]), the estimators,
//! the kinematic constraint and the per-DOF stiffness buffers.

use crate::math::{num, Real};

/// How the timestep of a cycle is chosen.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum TimestepMode {
    /// The same user-given timestep every cycle, s. Cheapest; stability is the user's
    /// responsibility (seed 000, "Fixed Timestep").
    Fixed(Real),
    /// Automatic: a fraction of the critical-timestep estimate, limited by the kinematic
    /// constraint and a cap.
    Auto(Auto),
    /// Timestep scaling (seed 000, eqs. 5-8): reaches static equilibrium in few cycles along an
    /// unphysical path.
    Scaled(Scaled),
    /// Per contact model (seed 003): the smallest of each model's own formula over the pairs of
    /// materials present, then an optional cap.
    Model(ModelMode),
}

/// Settings of the per-model timestep.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ModelMode {
    /// Minimum number of steps per loading stage.
    pub loading_steps: Real,
    /// Upper limit on the timestep, s.
    pub cap: Option<Real>,
}

/// Settings of the automatic timestep.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Auto {
    /// Fraction of the critical estimate that is used.
    pub safety: Real,
    /// Which estimate.
    pub estimator: Estimator,
    /// Largest displacement of a piece in one cycle, m (`None`: no kinematic constraint).
    pub kinematic_eps: Option<Real>,
    /// Upper limit on the timestep, s.
    pub cap: Option<Real>,
    /// The step is chosen (estimate, kinematic constraint, cap) in every this many cycles,
    /// from the first, and kept in the cycles between (1: every cycle).
    pub every: u64,
}

impl Auto {
    /// True when the cycle that starts after `cycles` cycles chooses its step afresh (the
    /// others keep the last one).
    pub fn chooses_at(&self, cycles: u64) -> bool {
        self.every <= 1 || cycles % self.every == 0
    }
}

/// Settings of timestep scaling.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Scaled {
    /// The scaled timestep (the stable step every DOF is given), s; seed 000's default is 1.
    pub dt: Real,
    /// Which stiffness makes the fictitious masses: `Diagonal` is eqs. 5 and 7 (the largest
    /// diagonal stiffness of the body's DOFs); `Bound` uses the largest row sum `sum_j |K_ij|`
    /// (`m = rho dt^2`): the row-sum norm of `M^-1 K` is then at most `1/dt^2`, so the undamped
    /// critical step is at least `2 dt`. NOTE: not `rho dt^2 / 4`, which would put every DOF
    /// exactly on the undamped limit: viscous dashpots lower the central-difference limit to
    /// `(2/omega)(sqrt(1 + z^2) - z)` and such a run diverges (measured on column_scaled with
    /// damping 0.2); the factor 2 covers mode damping ratios up to 0.75.
    pub estimator: Estimator,
    /// Largest displacement of a piece in one cycle, m (`None`: no kinematic constraint).
    pub kinematic_eps: Option<Real>,
}

/// What set the timestep of the last cycle.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
pub enum Limit {
    /// The fixed timestep.
    #[default]
    Fixed,
    /// The critical-timestep estimate of a DOF of a ball (index, DOF 0..6).
    Stiffness {
        /// Ball index.
        ball: u32,
        /// DOF: 0..3 translation x, y, z; 3..6 rotation.
        dof: u8,
    },
    /// The kinematic constraint of a ball (index).
    Kinematic {
        /// Ball index.
        ball: u32,
    },
    /// The kinematic constraint of a moving wall (index): its fastest facet periphery.
    WallKinematic {
        /// Wall index.
        wall: u32,
    },
    /// The user's cap (auto) or the scaled timestep itself (scaled).
    Cap,
    /// No contact and no motion: the one-contact estimate (see [`crate::model::Model::cycle`]).
    OneContact {
        /// Ball index.
        ball: u32,
    },
    /// A contact model's own formula (mode "model") for a pair of pieces.
    Model {
        /// Material of the first ball.
        a: u32,
        /// Material of the other ball, or the wall index when `wall`.
        b: u32,
        /// True when the pair is a ball and a wall.
        wall: bool,
    },
}

/// The kinematic time limit `2 eps / (v + sqrt(v^2 + 2 a eps))` for speed `v >= 0` and
/// acceleration magnitude `a >= 0` (module docs); infinite when both are zero.
///
/// # Examples
/// ```
/// use ballast::timestep::kinematic_limit;
/// assert_eq!(kinematic_limit(2.0, 0.0, 1e-3), 5e-4);               // eps / v
/// assert!((kinematic_limit(0.0, 8.0, 1e-3) / (2e-3f64 / 8.0).sqrt() - 1.0).abs() < 1e-15); // sqrt(2 eps / a)
/// assert!(kinematic_limit(0.0, 0.0, 1e-3).is_infinite());
/// ```
pub fn kinematic_limit(v: Real, a: Real, eps: Real) -> Real {
    let den = v + (v * v + 2.0 * a * eps).sqrt();
    if den > 0.0 {
        2.0 * eps / den
    } else {
        Real::INFINITY
    }
}

/// Which estimate of the critical timestep a mode uses (`[timestep] estimator`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Estimator {
    /// Seed 000, eq. 11: `min sqrt(m / K_ii)` over DOFs. Cheap; not a guarantee.
    Diagonal,
    /// Row-sum (Gershgorin) bound: never above the exact critical timestep; about twelve times
    /// the arithmetic of `Diagonal` per contact.
    Bound,
}

impl Estimator {
    /// The name used in case files.
    pub fn name(&self) -> &'static str {
        match self {
            Estimator::Diagonal => "diagonal",
            Estimator::Bound => "bound",
        }
    }
}

/// Per-DOF stiffness of every body (index = [`crate::model::Model::body_of`], then DOF `x, y, z, rx, ry, rz`;
/// a clump's rotations about its principal axes, pebbles' contacts acting through their lever
/// arms from the centroid). Work arrays, made in the cycle that reads them: a checkpoint
/// leaves them out (over ranks, a rank's rows would follow its balls before a rebuild).
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct DofStiffness {
    /// Sum of the diagonal contact-stiffness terms, `K_ii` (N/m or N m/rad).
    #[serde(skip)]
    pub diagonal: Vec<[Real; 6]>,
    /// Row sums `sum_j |K_ij|` over free DOFs `j` (only filled for [`Estimator::Bound`]).
    #[serde(skip)]
    pub row_abs: Vec<[Real; 6]>,
    /// Row sums `sum_j |K_ij| / sqrt(m_j)` over free DOFs `j` (only for [`Estimator::Bound`]).
    #[serde(skip)]
    pub row_abs_scaled: Vec<[Real; 6]>,
    /// The bound's sums, one record per body (buffer; the accumulators are all zeros between
    /// two calls).
    #[serde(skip)]
    pub(crate) bound: Vec<BoundSums>,
    /// What the bound reads of each body (buffer).
    #[serde(skip)]
    pub(crate) bound_of: Vec<BoundBody>,
    /// The cycle count at which the force pass summed `diagonal` for the automatic timestep
    /// of the next cycle ([`crate::model::Model::fuses_stiffness`]); None when it did not.
    #[serde(skip)]
    pub(crate) fused_at: Option<u64>,
}

/// What the bound ([`Estimator::Bound`]) sums for one body over its contacts, in one record
/// (its six rows' cache lines together).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct BoundSums {
    /// The body's diagonal 6x6 block by column (`[column][row]`).
    pub block: [[Real; 6]; 6],
    /// Per row, the sum of `|K_ij|` over the other bodies' free DOFs `j`.
    pub plain: [Real; 6],
    /// Per row, the sum of `|K_ij| / sqrt(m_j)` over the other bodies' free DOFs `j`.
    pub scaled: [Real; 6],
}

/// What the bound reads of a body.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct BoundBody {
    /// Per DOF: all ones when it is free, zero when fixed.
    pub mask: [u64; 6],
    /// Per DOF, the square root of its inertial mass or moment of inertia.
    pub root: [Real; 6],
}

impl std::fmt::Display for TimestepMode {
    /// The mode in words, for reports.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let text = {
            let kin = |e: &Option<Real>| match e {
                Some(eps) => format!(
                    "; kinematic constraint: no piece moves more than {} m per cycle",
                    num(*eps)
                ),
                None => "; no kinematic constraint".into(),
            };
            match self {
            TimestepMode::Fixed(dt) => format!("fixed, dt = {} s", num(*dt)),
            TimestepMode::Auto(a) => format!(
                "automatic: {} × the {} critical-timestep estimate{}{}",
                a.safety,
                a.estimator.name(),
                kin(&a.kinematic_eps),
                a.cap
                    .map_or(String::new(), |c| format!("; at most {} s", num(c))),
            ) + &if a.every > 1 {
                format!("; chosen every {} cycles and kept between", a.every)
            } else {
                String::new()
            },
            TimestepMode::Scaled(s) => format!(
                "timestep scaling (seed 000, eqs. 5-8): dt = {} s, inertial masses and inertias from the {} stiffness of each body{}",
                num(s.dt),
                s.estimator.name(),
                kin(&s.kinematic_eps)
            ),
            TimestepMode::Model(m) => format!(
                "per contact model (seed 003): the smallest of each model's own formula over the pairs of materials present, {} steps per loading stage{}",
                m.loading_steps,
                m.cap
                    .map_or(String::new(), |c| format!("; at most {} s", num(c)))
            ),
        }
        };
        f.write_str(&text)
    }
}

/// Name of a DOF index (0..6).
pub fn dof_name(dof: usize) -> &'static str {
    ["x", "y", "z", "rotation x", "rotation y", "rotation z"][dof.min(5)]
}

/// A per-ball choice of one rank (a ball's least ratio or limit, or the smallest ball of a
/// material): the value, the ball that has it (its index on the rank; after
/// [`Among::least`], its index in one process), and what the choice reads of that ball.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pick {
    /// The value compared (the least wins).
    pub value: Real,
    /// The ball.
    pub ball: usize,
    /// Its DOF, where one is chosen.
    pub dof: u8,
    /// Its radius, m, where the choice reads it.
    pub radius: Real,
}

/// How a rank's choice of the timestep meets the other ranks' (a run cut over ranks,
/// `crate::cycle::Rank`): the balls whose sums are whole on this rank, and the collective that
/// makes a per-ball choice that of one process. Every rank calls [`Among::least`] together.
pub trait Among {
    /// True for a ball this rank owns (the others are copies, their sums partial).
    fn own(&self, i: usize) -> bool;

    /// Of every rank's picks, slot by slot, the least value, ties going to the ball that comes
    /// first in one process (which takes the first of equal values); its ball as its index in
    /// one process. `ids`: the ids of this rank's balls.
    fn least(&self, picks: &[Option<Pick>], ids: &[u64]) -> Vec<Option<Pick>>;

    /// Every rank's `counts` summed, slot by slot.
    fn total(&self, counts: &[u64]) -> Vec<u64>;
}
