//! Runs of up to [`HISTORY_RUN`] ball-ball contacts of the history models
//! ([`crate::contact::ball_ball::update`] without a frame), their forces added at once to the
//! balls of a range ([`Scatter`]), and the selection of the contacts that need an update.

use super::history;
use crate::body::{Balls, Rows};
use crate::contact::ball_ball::clearly_apart;
use crate::contact::Contact;
use crate::law::ContactModel;
use crate::math::{Real, Vec3};

/// Contacts per run of [`update_history_run`]: the run's records (48 bytes each) stay in the
/// first-level cache between its two passes, and its list of touching contacts fits on the
/// stack.
pub const HISTORY_RUN: usize = 512;

/// The resultant force and moment of a range of balls, summed in contact order by
/// [`update_history_run`] (the gather's sums, bit for bit: see there).
pub struct Scatter<'a> {
    /// Resultant force of each ball of the range, N (zeroed before the first run).
    pub force: &'a mut [Vec3],
    /// Resultant moment of each ball of the range about its centre, N m (zeroed before the
    /// first run).
    pub moment: &'a mut [Vec3],
    /// The range's first ball (`force[0]` is its force).
    pub first: usize,
}

impl Scatter<'_> {
    /// Adds to ball `i` (of the range) the force `f` and the moment `m` (about its centre),
    /// or subtracts them.
    #[inline]
    pub fn add(&mut self, i: usize, f: &Vec3, m: &Vec3, subtract: bool) {
        let j = i - self.first;
        if subtract {
            self.force[j] -= f;
            self.moment[j] -= m;
        } else {
            self.force[j] += f;
            self.moment[j] += m;
        }
    }

    /// True when ball `i` lies in the range.
    #[inline]
    pub fn holds(&self, i: usize) -> bool {
        // (wraps below `first`: one comparison for both ends)
        i.wrapping_sub(self.first) < self.force.len()
    }
}

/// [`crate::contact::ball_ball::update`] for a run of at most [`HISTORY_RUN`] contacts whose models are all frame-free
/// (the history models, 3D), in two passes: the first lists the contacts whose balls are not
/// clearly apart or that are active (a branch-free append), the second updates only those.
/// The same arithmetic as calling [`crate::contact::ball_ball::update`] on every contact: a contact left out is inactive
/// and clearly apart, for which [`crate::contact::ball_ball::update`] does nothing. Splitting the loop keeps the
/// touching/apart test (true for about a third of the candidates, in no predictable order)
/// out of the branch predictor's way, and lets the processor overlap the square roots of
/// consecutive touching contacts.
///
/// With `scatter`, each active contact's force `F` (on b) and contact point `C` are added at
/// once to those of its balls that lie in the scatter's range (ball `a` does unless `incoming`,
/// which says that the run holds copies of the contacts coming into the range from an earlier
/// one, [`crate::contact::Partition`]): `F_b += F`,
/// `M_b += (C - x_b) x F`, `F_a -= F`, `M_a -= (C - x_a) x F`. Runs taken in list order thus
/// add each ball's contacts in list order, exactly as the gather over
/// [`crate::contact::Contacts::incidence`] does (it adds zero for an inactive contact, which changes no
/// bit: a sum that starts at +0 never becomes -0), so both give the same sums (and a range's
/// thread, [`crate::contact::Partition`], gives the same sums as one thread). Returns true when an
/// active contact interpenetrates (overlap larger than the smaller radius, or NaN).
#[allow(clippy::too_many_arguments)]
pub fn update_history_run(
    list: &mut [Contact],
    (balls, masses): (&Balls, &[Real]),
    laws: &[ContactModel],
    dt: Real,
    mut scatter: Option<&mut Scatter>,
    incoming: bool,
    scratch: &mut RunScratch,
) -> bool {
    debug_assert!(list.len() <= HISTORY_RUN);
    let near_ones = &mut scratch.near;
    let rows = balls.rows();
    let n = select(
        0..list.len() as u32,
        |k| near(&list[k as usize], &rows),
        near_ones,
    );
    let mut interpenetrating = false;
    let ks = &near_ones[..n];
    let (bm, h) = ((balls, masses), &mut scratch.history);
    history::update_history_with(list, ks, bm, laws, dt, h, |c, deep, x| {
        interpenetrating |= deep;
        if let Some(s) = scatter.as_deref_mut() {
            let (a, b) = (c.a as usize, c.b as usize);
            if !incoming {
                s.add(a, &x.force, &x.moment_a, true);
            }
            if s.holds(b) {
                s.add(b, &x.force, &x.moment_b, false);
            }
        }
    });
    interpenetrating
}

/// What the runs of a range reuse within one force pass, rather than each run zeroing its own:
/// the list of the contacts that need their update and the batches' lanes.
pub struct RunScratch {
    pub(crate) near: [u32; HISTORY_RUN],
    history: history::Scratch,
}

impl Default for RunScratch {
    fn default() -> Self {
        RunScratch {
            near: [0; HISTORY_RUN],
            history: Default::default(),
        }
    }
}

/// Writes to the front of `out` the indices `ks` (at most [`HISTORY_RUN`]) for which `keep`
/// holds, in order; returns how many. Branch-free: every index is written, and the count
/// advances only past the kept ones (the test is true in no predictable order).
#[inline]
pub fn select(
    ks: impl Iterator<Item = u32>,
    keep: impl Fn(u32) -> bool,
    out: &mut [u32; HISTORY_RUN],
) -> usize {
    let mut n = 0;
    for k in ks {
        out[n] = k;
        n += keep(k) as usize;
    }
    n
}

/// True when a contact needs its update: active, or its balls not clearly apart (a
/// frame-free contact that is neither is left as it is by [`crate::contact::ball_ball::update`]).
#[inline(always)]
pub fn near(c: &Contact, balls: &Rows) -> bool {
    let (a, b) = (c.a as usize, c.b as usize);
    // (`|`, not `||`: no branch)
    c.active
        | !clearly_apart(
            &balls.pos[a],
            &balls.partner(a, b),
            balls.radius[a],
            balls.radius[b],
        )
}
