//! The stiffness the timestep stage needs in a cycle, made from every contact (the stiffness
//! room reads the whole model): the critical estimate of the automatic mode when it chooses in
//! this cycle (from the sums the last force pass made when it fused them), and the per-DOF
//! sums of the scaled mode.

use crate::math::Real;
use crate::model::Model;
use crate::timestep::*;

impl Model {
    /// The critical estimate the timestep stage needs in this cycle (the automatic mode when it
    /// chooses now), and the per-DOF sums of [`Model::dof_stiffness`] it reads (both automatic
    /// and scaled modes). Over ranks (`among`), the estimate of every rank's own balls
    /// ([`DofStiffness::critical_among`]).
    pub(super) fn timestep_stiffness(&mut self, among: Option<&dyn Among>) -> Option<Estimate> {
        let estimator = match &self.settings.timestep {
            TimestepMode::Auto(a) if a.chooses_at(self.cycles) || self.last_dt <= 0.0 => {
                a.estimator
            }
            TimestepMode::Scaled(s) => s.estimator,
            _ => return None,
        };
        let mut ks = std::mem::take(&mut self.dof_stiffness);
        let auto = matches!(self.settings.timestep, TimestepMode::Auto(_));
        // (the last force pass summed the diagonal at these positions and velocities: the
        // same terms in the same order per ball, bit for bit)
        let fused = auto && estimator == Estimator::Diagonal && ks.fused_at == Some(self.cycles);
        if auto {
            ks.fused_at = None;
        }
        if fused {
            debug_assert!(self.same_as_separate_sums(&ks));
        } else {
            ks.compute(self, estimator, true);
        }
        let estimate = auto.then(|| {
            let est = ks.critical_among(self, estimator, among);
            Estimate {
                dt: est.dt,
                ball: est.ball as u32,
                dof: est.dof as u8,
            }
        });
        self.dof_stiffness = ks;
        estimate
    }

    /// True when the sums the force pass made ([`Model::fuses_stiffness`]) are those of
    /// [`DofStiffness::compute`] now, bit for bit (checked in debug builds: every test and
    /// case of the automatic timestep compares the two).
    fn same_as_separate_sums(&self, fused: &DofStiffness) -> bool {
        let mut separate = DofStiffness::default();
        separate.compute(self, Estimator::Diagonal, true);
        let bits =
            |d: &[[Real; 6]]| -> Vec<u64> { d.iter().flatten().map(|x| x.to_bits()).collect() };
        bits(&fused.diagonal) == bits(&separate.diagonal)
    }
}
