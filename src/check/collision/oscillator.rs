//! The contact of a linear spring and dashpot seen as a damped oscillator (effective mass
//! `m*`, `omega_n = sqrt(kn / m*)`, damping ratio `z`): the closed forms of the collision
//! checks' references for the linear models.

use crate::law::ContactModel;
use crate::math::{Real, PI};

/// The contact of a linear spring and dashpot seen as a damped oscillator: the one place where
/// its closed forms are written.
#[derive(Clone, Copy, Debug)]
pub(super) struct Oscillator {
    /// Normal stiffness, N/m.
    pub kn: Real,
    /// Effective mass, kg.
    pub m: Real,
    /// Damping ratio.
    pub z: Real,
    /// Undamped angular frequency sqrt(kn / m*), rad/s.
    pub wn: Real,
    /// Damped angular frequency wn sqrt(1 - z^2), rad/s.
    pub wd: Real,
}

impl Oscillator {
    /// The contact of model `law` between bodies of effective mass `m`, kg, when it is a
    /// linear spring with a viscous dashpot.
    pub fn of(law: &ContactModel, m: Real) -> Option<Oscillator> {
        let (kn, z) = match law {
            ContactModel::Linear(l) => (l.kn, l.damp_n),
            ContactModel::LinearDashpot(l) if !l.clamp => (l.kn, l.damp_n),
            _ => return None,
        };
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
    pub fn duration(&self) -> Real {
        PI / self.wd
    }

    /// Restitution exp(-z omega_n pi / omega_d).
    pub fn restitution(&self) -> Real {
        (-self.z * self.wn * self.duration()).exp()
    }

    /// Overlap at `tau` after first touch with impact speed `v`: the gap closing at `v` before,
    /// `(v / omega_d) exp(-z omega_n tau) sin(omega_d tau)` during, opening at `e v` after.
    pub fn overlap(&self, v: Real, tau: Real) -> Real {
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
