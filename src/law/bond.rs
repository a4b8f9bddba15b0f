//! Linear contact bond (PFC's contact bond on the linear model): a bonded contact carries
//! tension and shear through linear springs until either strength is exceeded; then the bond
//! breaks for good and the contact is a frictional linear contact.
//!
//! - bonded: `F_n = kn * overlap` (negative overlap: tension), `F_s <- F_s - ks du_t`, no
//!   Coulomb limit; it breaks in the cycle where `-F_n > tensile` or `|F_s| > shear_strength`
//!   (that cycle already uses the unbonded law);
//! - unbonded: `F_n = kn * overlap` only while overlapping, Coulomb limit `friction * F_n`.
//!
//! Bonds are made once, before the first cycle, between balls whose gap is at most `bond_gap`
//! (m, default 0: touching). Bonds are between balls only: between a ball and a wall the model
//! acts as the unbonded contact.

use super::contact_law::{linear_normal_energy, quarter_period, ContactLaw};
use super::linear::shear_force;
use super::ContactStiffness;
use super::{elastic_loss, spring_energy, ContactForce, FrictionLimit, Kinematics, LawState};
use crate::math::num;
use crate::math::{Real, Vec3};

/// Parameters of the linear bond.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct LinearBond {
    /// Normal stiffness, N/m.
    pub kn: Real,
    /// Shear stiffness, N/m.
    pub ks: Real,
    /// Friction coefficient after breakage.
    pub friction: Real,
    /// Tensile strength of the bond, N.
    pub tensile: Real,
    /// Shear strength of the bond, N.
    pub shear_strength: Real,
    /// Largest gap at which a bond is made before the first cycle, m.
    pub bond_gap: Real,
}

impl LinearBond {
    /// Updates the state (bond, shear) and returns the force on b (local coordinates).
    ///
    /// The energy it reports lost is the tangential spring's ([`elastic_loss`]); what the
    /// normal spring of a bond that breaks held is booked by the caller
    /// ([`super::ContactModel::normal_loss`]).
    pub fn force(&self, k: &Kinematics, state: &mut LawState) -> ContactForce {
        let f_n = self.kn * k.overlap;
        if state.bonded() {
            let trial = state.shear_force() - k.du_t * self.ks;
            if -f_n <= self.tensile && trial.norm() <= self.shear_strength {
                let before = state.shear_force();
                *state.shear_force_mut() = trial;
                state.shear_force_mut().x = 0.0;
                return ContactForce {
                    local: Vec3::new(f_n, trial.y, trial.z),
                    sliding: false,
                    dissipated: elastic_loss(
                        &before,
                        self.ks,
                        &state.shear_force(),
                        self.ks,
                        &k.du_t,
                    ),
                    stored_before: spring_energy(&before, self.ks),
                };
            }
            state.set_bonded(false);
        }
        self.unbonded(k, state)
    }

    /// The unbonded contact: frictional linear springs while overlapping, nothing across a
    /// gap (the shear spring is then released: what it held is lost).
    fn unbonded(&self, k: &Kinematics, state: &mut LawState) -> ContactForce {
        let f_n = self.kn * k.overlap;
        if k.overlap <= 0.0 {
            let lost = elastic_loss(
                &state.shear_force(),
                self.ks,
                &Vec3::zeros(),
                self.ks,
                &k.du_t,
            );
            let stored_before = spring_energy(&state.shear_force(), self.ks);
            *state.shear_force_mut() = Vec3::zeros();
            return ContactForce {
                local: Vec3::zeros(),
                sliding: false,
                dissipated: lost,
                stored_before,
            };
        }
        // (no dashpot: both Coulomb rules are the same)
        let (fs, sliding, lost, stored_before) = shear_force(
            k,
            state,
            (self.ks, self.ks),
            FrictionLimit::Spring,
            self.friction * f_n,
            0.0,
            1.0,
        );
        ContactForce {
            local: Vec3::new(f_n, fs.y, fs.z),
            sliding,
            dissipated: lost,
            stored_before,
        }
    }
}

impl ContactLaw for LinearBond {
    const NAME: &'static str = "linearbond";
    const SOURCE: &'static str = "src/law/bond.rs::LinearBond::force";

    fn friction_limit(&self) -> FrictionLimit {
        FrictionLimit::Spring
    }

    fn force(&self, k: &Kinematics, state: &mut LawState) -> ContactForce {
        LinearBond::force(self, k, state)
    }

    fn elastic_normal(&self, overlap: Real, _radius: Real, state: &LawState) -> Real {
        if state.bonded() || overlap > 0.0 {
            self.kn * overlap
        } else {
            0.0
        }
    }

    fn holds(&self, state: &LawState) -> bool {
        state.bonded()
    }

    fn stiffness(&self, _overlap: Real, _radius: Real) -> ContactStiffness {
        ContactStiffness::springs(self.kn, self.ks)
    }

    /// A bond holds its spring in tension too.
    fn normal_energy(&self, overlap: Real, _radius: Real, state: &LawState) -> Real {
        if state.bonded() {
            0.5 * self.kn * overlap * overlap
        } else {
            linear_normal_energy(self.kn, overlap.max(0.0))
        }
    }

    /// A bond that broke in the cycle loses what it held: dissipated.
    fn split_normal_loss(
        &self,
        rest: Real,
        (_, s_0): (bool, &LawState),
        (_, s_1): (bool, &LawState),
    ) -> (Real, Real) {
        if s_0.bonded() && !s_1.bonded() {
            (rest, 0.0)
        } else {
            (0.0, -rest)
        }
    }

    /// `(pi/2) sqrt(m*/kn) / N`.
    fn model_timestep(&self, mass: Real, _radius: Real, loading_steps: Real) -> Real {
        quarter_period(mass, self.kn) / loading_steps
    }

    fn describe(&self) -> String {
        format!(
            "kn = {} N/m, ks = {} N/m, friction = {}, tensile strength = {} N, shear strength = {} N, bond gap = {} m",
            num(self.kn),
            num(self.ks),
            self.friction,
            num(self.tensile),
            num(self.shear_strength),
            num(self.bond_gap)
        )
    }
}
