//! The balls' contact masses as the batches read them: every ball's taken once a force pass
//! ([`contact_masses`], [`NO_MASS`] for none), or two a lane ([`Masses`]), and the effective
//! mass of a pair from either.

use crate::body::{Balls, Rows};
use crate::law::lanes::LANES;
use crate::math::Real;

type Lane = [Real; LANES];

/// The contact masses of the two balls of each lane's contact ([`Balls::contact_mass`]: 0
/// with the flag false when a ball has none, i.e. is infinitely heavy).
#[derive(Default)]
pub(crate) struct Masses {
    pub(super) ma: Lane,
    pub(super) mb: Lane,
    pub(super) has_ma: [bool; LANES],
    pub(super) has_mb: [bool; LANES],
}

impl Masses {
    /// Copies the contact masses of balls `a` and `b` into lane `l`.
    #[inline(always)]
    pub(crate) fn load(&mut self, l: usize, balls: &Balls, a: usize, b: usize) {
        self.load_rows(l, &balls.rows(), a, b);
    }

    /// [`Masses::load`] from the balls' [`Rows`].
    #[inline(always)]
    pub(crate) fn load_rows(&mut self, l: usize, balls: &Rows, a: usize, b: usize) {
        let l = l & (LANES - 1);
        let (ma, mb) = (balls.contact_mass(a), balls.contact_mass(b));
        self.has_ma[l] = ma.is_some();
        self.has_mb[l] = mb.is_some();
        self.ma[l] = ma.unwrap_or(0.0);
        self.mb[l] = mb.unwrap_or(0.0);
    }

    /// The effective mass of lane `l`, as [`crate::contact::ball_ball::effective_mass`] (no mass:
    /// infinitely heavy; neither: 0).
    #[inline(always)]
    pub(crate) fn effective(&self, l: usize) -> Real {
        let (ma, mb) = (self.ma[l], self.mb[l]);
        match (self.has_ma[l], self.has_mb[l]) {
            (true, true) => ma * mb / (ma + mb),
            (true, false) => ma,
            (false, true) => mb,
            (false, false) => 0.0,
        }
    }
}

/// What a ball that no contact can move (fixed in translation, not a pebble) has as its
/// contact mass in [`contact_masses`]: no mass a ball has is `-inf`.
pub(crate) const NO_MASS: Real = Real::NEG_INFINITY;

/// Every ball's contact mass ([`Balls::contact_mass`]), [`NO_MASS`] for none, into `out`:
/// taken once a force pass, so that a batch loads one number per ball.
pub(crate) fn contact_masses(balls: &Balls, out: &mut Vec<Real>) {
    let rows = balls.rows();
    out.clear();
    out.extend((0..rows.pos.len()).map(|i| rows.contact_mass(i).unwrap_or(NO_MASS)));
}

/// The effective mass of two balls of contact masses `ma`, `mb` ([`NO_MASS`] for none), as
/// [`crate::contact::ball_ball::effective_mass`]: no mass is infinitely heavy; neither, 0.
#[inline(always)]
pub(super) fn effective_of(ma: Real, mb: Real) -> Real {
    match (ma != NO_MASS, mb != NO_MASS) {
        (true, true) => ma * mb / (ma + mb),
        (true, false) => ma,
        (false, true) => mb,
        (false, false) => 0.0,
    }
}
