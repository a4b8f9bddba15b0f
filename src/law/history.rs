//! Frame-free models with a tangential history spring, as LIGGGHTS's `pair_style gran`
//! (`tangential history`, `limitForce on`) and the peer benchmark (benches/peers/SCENE.md,
//! section 4) define them: `hertz-history` (Hertz-Mindlin, LIGGGHTS conventions) and
//! `hooke-history` (linear spring-dashpot with absolute damping coefficients).
//!
//! With `n` the unit normal from piece a to piece b, `v` the velocity of b relative to a at
//! the contact point, `v_n = v . n` (< 0 approaching), `v_t = v - v_n n`:
//! - normal force on b: `F_n = k_n d - g_n v_n`, clamped at `F_n >= 0`, along `n`;
//! - shear displacement `xi` (world frame): `xi += v_t dt`, then `xi -= (xi . n) n`; spring
//!   force `-k_t xi`, in parallel with the dashpot `-g_t v_t`;
//! - Coulomb limit `mu F_n` ([`super::FrictionLimit`]): by default the total `-k_t xi - g_t
//!   v_t` stays within it; when it would not, the total is put on the limit along itself and
//!   the spring becomes what the element carries ([`super::shear_step`]), `xi = -spring/k_t`.
//!   LIGGGHTS's rule (`friction_limit = "spring"`): if `|k_t xi| > mu F_n` the contact
//!   slides, `F_t = mu F_n (-k_t xi)/|k_t xi|`, `xi <- -F_t/k_t`, no tangential dashpot;
//!   otherwise `F_t = -k_t xi - g_t v_t`, which can leave the cone;
//! - history is discarded when the pieces separate.
//!
//! Coefficients. Hertz (`R*`, `m*` effective radius and mass, `E*`, `G*` from [`HertzPair`],
//! `beta = ln e / sqrt(ln^2 e + pi^2)`): `S_n = 2 E* sqrt(R* d)`, `S_t = 8 G* sqrt(R* d)`,
//! `k_n = (4/3) E* sqrt(R* d)` (so `k_n d` is Hertz's force), `k_t = S_t` re-evaluated every
//! step (a total-displacement spring: unlike [`super::Hertz`], whose no-slip stiffness acts on
//! increments), `g_n = -2 sqrt(5/6) beta sqrt(S_n m*)`, `g_t = -2 sqrt(5/6) beta sqrt(S_t m*)`.
//! Hooke: constant `k_n`, `k_t`, `g_n`, `g_t` (N/m and N s/m).
//!
//! The same function evaluates the force in any orthonormal basis, so ball-ball and ball-facet
//! contacts call it with world vectors and no local frame (these models need none: the
//! projection of `xi` does what the frame's rotation does for the other models, to first
//! order), and [`super::ContactModel::force`] with the local frame's components (`n` = x axis).

use super::contact_law::{quarter_period, ContactLaw};
pub use super::terms::Coefficients;
use super::{
    spring_energy, ContactForce, ContactStiffness, FrictionLimit, HertzPair, Kinematics, LawState,
};
use crate::math::{num, Real, Vec3, PI};

/// `-2 sqrt(5/6) beta` for a restitution `e` (LIGGGHTS's damping factor; 0 for `e = 1`).
pub fn damping_factor(restitution: Real) -> Real {
    let ln = restitution.ln();
    let beta = ln / (ln * ln + PI * PI).sqrt();
    -2.0 * (5.0 as Real / 6.0).sqrt() * beta
}

/// Hertz-Mindlin with a tangential history spring (LIGGGHTS `model hertz tangential history`).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct HertzHistory {
    /// Effective moduli.
    pub pair: HertzPair,
    /// Coulomb friction coefficient.
    pub friction: Real,
    /// The coefficient of restitution the damping factor comes from.
    pub restitution: Real,
    /// `-2 sqrt(5/6) beta`.
    pub damping: Real,
    /// How the Coulomb limit bounds the tangential force.
    pub limit: FrictionLimit,
}

/// Linear spring-dashpot with a tangential history spring (LIGGGHTS `model hooke/stiffness
/// tangential history`, `absolute_damping on`).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct HookeHistory {
    /// Normal stiffness, N/m.
    pub kn: Real,
    /// Tangential stiffness, N/m.
    pub kt: Real,
    /// Normal damping coefficient, N s/m.
    pub gamma_n: Real,
    /// Tangential damping coefficient, N s/m.
    pub gamma_t: Real,
    /// Coulomb friction coefficient.
    pub friction: Real,
    /// How the Coulomb limit bounds the tangential force.
    pub limit: FrictionLimit,
}

impl HertzHistory {
    /// The model for a pair of materials and a restitution.
    pub fn new(pair: HertzPair, friction: Real, restitution: Real) -> Self {
        HertzHistory {
            pair,
            friction,
            restitution,
            damping: damping_factor(restitution),
            limit: FrictionLimit::Total,
        }
    }

    /// The same model with another Coulomb rule.
    pub fn with_limit(self, limit: FrictionLimit) -> Self {
        HertzHistory { limit, ..self }
    }

    /// Coefficients at overlap `d`, effective radius `r` and mass `m`.
    #[inline]
    pub fn coefficients(&self, d: Real, r: Real, m: Real) -> Coefficients {
        let a = (r * d).sqrt();
        let (sn, st) = (2.0 * self.pair.e_star * a, 8.0 * self.pair.g_star * a);
        Coefficients {
            kn: (2.0 / 3.0) * sn,
            kt: st,
            gn: self.damping * (sn * m).sqrt(),
            gt: self.damping * (st * m).sqrt(),
        }
    }
}

impl HookeHistory {
    /// Coefficients (constant).
    #[inline]
    pub fn coefficients(&self) -> Coefficients {
        Coefficients {
            kn: self.kn,
            kt: self.kt,
            gn: self.gamma_n,
            gt: self.gamma_t,
        }
    }
}

/// One step of the history law (module documentation): returns the force on b and whether it
/// slid; updates `xi`. `n` unit normal (a to b), `vn` normal and `vt` tangential relative
/// velocity of b, `dxi` the tangential displacement of the step (`vt dt`), `d` > 0 overlap,
/// `rule` the Coulomb rule, `dt` the step (for the element's relaxation while it slides).
#[allow(clippy::too_many_arguments)]
#[inline]
pub fn step(
    c: Coefficients,
    friction: Real,
    rule: FrictionLimit,
    d: Real,
    n: &Vec3,
    vn: Real,
    vt: &Vec3,
    dxi: &Vec3,
    dt: Real,
    xi: &mut Vec3,
) -> (Vec3, bool) {
    let fn_ = (c.kn * d - c.gn * vn).max(0.0);
    *xi += dxi;
    *xi -= n * xi.dot(n);
    let mut ft = -c.kt * *xi;
    let limit = friction * fn_;
    if rule == FrictionLimit::Total {
        let total = if c.gt > 0.0 { ft - vt * c.gt } else { ft };
        let t2 = total.norm_squared();
        if t2 > limit * limit {
            let force = total * (limit / t2.sqrt());
            let spring = if c.gt > 0.0 {
                // the spring before this step's increment, at this step's stiffness
                let before = -c.kt * (*xi - dxi);
                let k_dt = c.kt * dt;
                (force * k_dt + before * c.gt) / (k_dt + c.gt)
            } else {
                force
            };
            *xi = if c.kt > 0.0 {
                -spring / c.kt
            } else {
                Vec3::zeros()
            };
            return (n * fn_ + force, true);
        }
        return (n * fn_ + total, false);
    }
    let f2 = ft.norm_squared();
    let sliding = f2 > limit * limit;
    if sliding {
        ft *= limit / f2.sqrt();
        *xi = if c.kt > 0.0 {
            -ft / c.kt
        } else {
            Vec3::zeros()
        };
    } else {
        ft -= vt * c.gt;
    }
    (n * fn_ + ft, sliding)
}

/// [`step`] for world vectors: `v` the whole relative velocity of b at the contact point,
/// split here into its normal and tangential parts, the step's shear displacement `v_t dt`.
/// Returns the force on b and whether it slid.
#[allow(clippy::too_many_arguments)]
#[inline]
pub fn world_step(
    c: Coefficients,
    friction: Real,
    rule: FrictionLimit,
    d: Real,
    n: &Vec3,
    v: &Vec3,
    dt: Real,
    xi: &mut Vec3,
) -> (Vec3, bool) {
    let vn = v.dot(n);
    let vt = v - n * vn;
    step(c, friction, rule, d, n, vn, &vt, &(vt * dt), dt, xi)
}

/// What the history spring lost in one step, J: [`super::elastic_loss`] for the spring force
/// `-k_t xi`, from `xi_prev` (applied with the stiffness `kt_prev` of the previous step) to
/// `xi` (with `kt`) over the step's tangential displacement `dxi`. With the Hertz stiffness
/// the spring holds `k_t |xi|^2 / 2` at a stiffness that grows with the overlap: loading a
/// stuck spring adds energy that no force did work for (LIGGGHTS's law), unloading removes
/// it; both show here (the first as a negative loss).
pub fn spring_loss(kt_prev: Real, xi_prev: &Vec3, kt: Real, xi: &Vec3, dxi: &Vec3) -> Real {
    super::elastic_loss(&(-kt_prev * xi_prev), kt_prev, &(-kt * xi), kt, dxi)
}

/// The force on b that the last [`world_step`] returned, found again from what it left: the
/// shear displacement `xi` after the step, whether it slid, and the same overlap `d`, normal
/// `n` and relative velocity `v` (unchanged until the balls move again). Sticking, the force
/// is `F_n n - k_t xi - g_t v_t`, the same operations as the step and so the same bits;
/// sliding, the step kept `xi = -F_t / k_t` (LIGGGHTS's rule), so `-k_t xi` gives `F_t` back
/// to within a rounding, or (the default rule) the tangential force on the limit points along
/// `-k_t xi - g_t v_t` ([`super::shear_step`]), found again to within a rounding. The
/// frame-free force loop keeps no forces (24 bytes per candidate pair); the outputs that need
/// a contact's force call this.
#[allow(clippy::too_many_arguments)]
pub fn held_force(
    c: Coefficients,
    friction: Real,
    rule: FrictionLimit,
    d: Real,
    n: &Vec3,
    v: &Vec3,
    xi: &Vec3,
    sliding: bool,
) -> Vec3 {
    let vn = v.dot(n);
    let vt = v - n * vn;
    let fn_ = (c.kn * d - c.gn * vn).max(0.0);
    let ft = -c.kt * *xi;
    let ft = match (rule, sliding) {
        (FrictionLimit::Spring, true) => ft,
        (FrictionLimit::Total, true) => {
            let total = if c.gt > 0.0 { ft - vt * c.gt } else { ft };
            let len = total.norm();
            if len > 0.0 {
                total * (friction * fn_ / len)
            } else {
                total
            }
        }
        (FrictionLimit::Total, false) if c.gt <= 0.0 => ft,
        _ => ft - vt * c.gt,
    };
    n * fn_ + ft
}

/// The history law in the local basis of a contact (`n` = x, the shear displacement local
/// too): what [`super::ContactModel::force`] computes for a history model.
fn history_force<L: ContactLaw>(law: &L, k: &Kinematics, state: &mut LawState) -> ContactForce {
    let none = Coefficients {
        kn: 0.0,
        kt: 0.0,
        gn: 0.0,
        gt: 0.0,
    };
    let (c, mu, rule) =
        law.history(k.overlap, k.radius, k.mass)
            .unwrap_or((none, 0.0, FrictionLimit::Spring));
    let kt_prev = law
        .history(k.overlap_prev.max(0.0), k.radius, k.mass)
        .map_or(0.0, |h| h.0.kt);
    let vt = Vec3::new(0.0, k.vel_t.y, k.vel_t.z);
    let dxi = Vec3::new(0.0, k.du_t.y, k.du_t.z);
    let before = state.shear_displacement();
    let (f, sliding) = step(
        c,
        mu,
        rule,
        k.overlap,
        &Vec3::x(),
        k.vn,
        &vt,
        &dxi,
        k.dt,
        state.shear_displacement_mut(),
    );
    ContactForce {
        local: f,
        sliding,
        dissipated: spring_loss(kt_prev, &before, c.kt, &state.shear_displacement(), &dxi),
        stored_before: spring_energy(&(-kt_prev * before), kt_prev),
    }
}

impl ContactLaw for HertzHistory {
    const NAME: &'static str = "hertz-history";
    const SOURCE: &'static str = "src/law/history.rs::step";

    fn frame_free(&self) -> bool {
        true
    }

    #[inline]
    fn history(&self, d: Real, r: Real, m: Real) -> Option<(Coefficients, Real, FrictionLimit)> {
        Some((self.coefficients(d, r, m), self.friction, self.limit))
    }

    fn friction_limit(&self) -> FrictionLimit {
        self.limit
    }

    fn force(&self, k: &Kinematics, state: &mut LawState) -> ContactForce {
        history_force(self, k, state)
    }

    fn elastic_normal(&self, overlap: Real, radius: Real, _state: &LawState) -> Real {
        self.coefficients(overlap.max(0.0), radius, 0.0).kn * overlap.max(0.0)
    }

    /// `-k_t xi`, in world coordinates.
    fn elastic_shear(&self, overlap: Real, radius: Real, state: &LawState) -> Vec3 {
        -self.stiffness(overlap, radius).ks * state.shear_displacement()
    }

    fn stiffness(&self, overlap: Real, radius: Real) -> ContactStiffness {
        let a = (radius * overlap.max(0.0)).sqrt();
        ContactStiffness::springs(2.0 * self.pair.e_star * a, 8.0 * self.pair.g_star * a)
    }

    fn hertz_modulus(&self) -> Option<Real> {
        Some(self.pair.e_star)
    }

    /// `(4/3) E* sqrt(R*) (2/5) d^(5/2) = (2/5) F_e d`, `F_e = (2/3) S_n d`.
    fn normal_energy(&self, overlap: Real, radius: Real, _state: &LawState) -> Real {
        let d = overlap.max(0.0);
        0.4 * (2.0 / 3.0) * self.stiffness(d, radius).kn * d * d
    }

    /// `(pi/2) sqrt(m*/S_n) / N` with `S_n` at the overlap `d = 0.1 R*`.
    fn model_timestep(&self, mass: Real, radius: Real, loading_steps: Real) -> Real {
        quarter_period(mass, self.stiffness(0.1 * radius, radius).kn) / loading_steps
    }

    fn describe(&self) -> String {
        format!(
            "E* = {} Pa, G* = {} Pa, friction = {}, restitution = {}; damping factor −2√(5/6)β = {:.9} (LIGGGHTS), tangential history spring k_t = 8G*√(R*δ), normal force clamped at 0",
            num(self.pair.e_star),
            num(self.pair.g_star),
            self.friction,
            self.restitution,
            self.damping
        )
    }
}

impl ContactLaw for HookeHistory {
    const NAME: &'static str = "hooke-history";
    const SOURCE: &'static str = "src/law/history.rs::step";

    fn frame_free(&self) -> bool {
        true
    }

    #[inline]
    fn history(&self, _d: Real, _r: Real, _m: Real) -> Option<(Coefficients, Real, FrictionLimit)> {
        Some((self.coefficients(), self.friction, self.limit))
    }

    fn friction_limit(&self) -> FrictionLimit {
        self.limit
    }

    fn force(&self, k: &Kinematics, state: &mut LawState) -> ContactForce {
        history_force(self, k, state)
    }

    fn elastic_normal(&self, overlap: Real, _radius: Real, _state: &LawState) -> Real {
        self.kn * overlap
    }

    /// `-k_t xi`, in world coordinates.
    fn elastic_shear(&self, overlap: Real, radius: Real, state: &LawState) -> Vec3 {
        -self.stiffness(overlap, radius).ks * state.shear_displacement()
    }

    fn stiffness(&self, _overlap: Real, _radius: Real) -> ContactStiffness {
        ContactStiffness::springs(self.kn, self.kt)
    }

    /// `(pi/2) sqrt(m*/kn) / N`.
    fn model_timestep(&self, mass: Real, _radius: Real, loading_steps: Real) -> Real {
        quarter_period(mass, self.kn) / loading_steps
    }

    fn describe(&self) -> String {
        format!(
            "kn = {} N/m, kt = {} N/m, γn = {} N s/m, γt = {} N s/m, friction = {}; tangential history spring, normal force clamped at 0",
            num(self.kn),
            num(self.kt),
            num(self.gamma_n),
            num(self.gamma_t),
            self.friction
        )
    }
}
