//! The balls' contact masses as the batches read them: every ball's taken once a force pass
//! ([`contact_masses`], [`NO_MASS`] for none), or two a lane ([`Masses`]), and the effective
//! mass of a pair ([`effective_of`]).

use crate::body::{Balls, Rows};
use crate::law::lanes::LANES;
use crate::math::Real;

type Lane = [Real; LANES];

/// The contact masses of the two balls of each lane's contact ([`NO_MASS`] for none, i.e.
/// infinitely heavy).
#[derive(Default)]
pub(crate) struct Masses {
    pub(super) ma: Lane,
    pub(super) mb: Lane,
}

impl Masses {
    /// Copies the contact masses of balls `a` and `b` into lane `l`.
    #[inline(always)]
    pub(crate) fn load(&mut self, l: usize, balls: &Balls, a: usize, b: usize) {
        let rows = balls.rows();
        let l = l & (LANES - 1);
        self.ma[l] = mass_or_none(&rows, a);
        self.mb[l] = mass_or_none(&rows, b);
    }

    /// The effective mass of lane `l` ([`effective_of`]).
    #[inline(always)]
    pub(crate) fn effective(&self, l: usize) -> Real {
        effective_of(self.ma[l], self.mb[l])
    }
}

/// Ball `i`'s contact mass ([`Balls::contact_mass`]), [`NO_MASS`] for none.
#[inline(always)]
fn mass_or_none(rows: &Rows, i: usize) -> Real {
    rows.contact_mass(i).unwrap_or(NO_MASS)
}

/// What a ball that no contact can move (fixed in translation, not a pebble) has as its
/// contact mass in [`contact_masses`]: no mass a ball has is `-inf`.
pub(crate) const NO_MASS: Real = Real::NEG_INFINITY;

/// Every ball's contact mass ([`Balls::contact_mass`]), [`NO_MASS`] for none, into `out`:
/// taken once a force pass, so that a batch loads one number per ball.
pub(crate) fn contact_masses(balls: &Balls, out: &mut Vec<Real>) {
    let rows = balls.rows();
    out.clear();
    out.extend((0..rows.pos.len()).map(|i| mass_or_none(&rows, i)));
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
