//! Critical-timestep estimates computed in O(contacts), and the per-body stiffness that the
//! automatic timestep and timestep scaling use.
//!
//! - **diagonal** (seed 000, eqs. 10-11): for every free DOF `i`, `sqrt(m_i / K_ii)` with
//!   `K_ii` the sum of the diagonal terms of the contact stiffness matrices acting on it; the
//!   estimate is the minimum over all DOFs of all bodies. It assumes uncoupled DOFs, so it is
//!   an estimate, not a bound: the report shows configurations where it exceeds the exact value.
//! - **bound**: a value never above the exact critical timestep `2 / omega_max`. The eigenvalues
//!   of `M^-1 K` equal those of `M^-1/2 K M^-1/2`, and the spectral radius of a matrix is at most
//!   any of its induced norms, so
//!   `omega_max^2 <= min( max_i sum_j |K_ij| / m_i ,  max_i sum_j |K_ij| / sqrt(m_i m_j) )`
//!   (the row-sum norms of `M^-1 K` and of `M^-1/2 K M^-1/2`, i.e. Gershgorin's theorem), and
//!   `2 / sqrt` of that bound is never above the exact critical step. The sums run over free
//!   DOFs `j`; the diagonal 6x6 block of each body is summed over its contacts before the
//!   absolute values are taken.

use super::contact::contact_columns_3d;
use super::global::{ball_term, ball_terms, interaction_terms, terms, Term};
use crate::math::Real;
use crate::model::Model;
use crate::par::split;
use crate::springs::{add_interaction_diagonals, ball_diagonal, contact_diagonal_3d, Springs};
use crate::timestep::{Among, BoundBody, BoundSums, DofStiffness, Estimator, Pick};

/// The estimate of a critical timestep and the DOF that sets it.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CriticalEstimate {
    /// The estimated critical timestep, s (infinite when no free DOF has stiffness).
    pub dt: Real,
    /// Index of the body that sets it ([`Model::body_of`]).
    pub ball: usize,
    /// Its DOF: 0..3 translation x, y, z; 3..6 rotation about x, y, z.
    pub dof: usize,
}

impl DofStiffness {
    /// Computes the per-DOF stiffness of the model's contacts: the active ones, and with
    /// `with_inactive` also those that exist but do not touch yet (within the margin), as the
    /// timestep modes do so that a contact about to form is already accounted for. With
    /// [`Estimator::Diagonal`] only `diagonal` is filled (from the closed-form diagonal, no 12x12
    /// matrix); with [`Estimator::Bound`] the row sums too. Buffers are reused.
    pub fn compute(&mut self, model: &Model, estimator: Estimator, with_inactive: bool) {
        let n = model.body_count();
        if estimator == Estimator::Diagonal {
            self.diagonal.clear();
            self.diagonal.resize(n, [0.0; 6]);
            self.row_abs.clear();
            self.row_abs_scaled.clear();
        }
        match estimator {
            Estimator::Diagonal if model.clumps.is_empty() => {
                // The terms of [`terms`] in its order, the ball-ball ones in a plain loop over
                // the list (no clump: each ball is its own body, its centre the reference
                // point); each ball's sums take the same terms in the same order. (The force
                // pass sums the same terms in the same order per ball: `crate::springs::add_ball_diagonals`.)
                let springs = model.springs();
                for c in (model.contacts.list.iter()).filter(|c| c.active || with_inactive) {
                    let d = ball_diagonal(&springs, c, with_inactive);
                    let (a, b) = (c.a as usize, c.b as usize);
                    for k in 0..6 {
                        self.diagonal[a][k] += d[k];
                        self.diagonal[b][k] += d[6 + k];
                    }
                }
                let fc = &model.facet_contacts;
                add_wall_diagonals(
                    &springs,
                    fc,
                    &fc.interactions,
                    &mut self.diagonal,
                    0,
                    with_inactive,
                );
            }
            Estimator::Diagonal => {
                for t in terms(model, with_inactive) {
                    let d = if t.has_clump(model) {
                        let k = t.matrix(model);
                        std::array::from_fn(|i| k[(i, i)])
                    } else {
                        contact_diagonal_3d(&t.s, &t.normal, &t.r_a, &t.r_b)
                    };
                    for k in 0..6 {
                        if let Some(ia) = t.a {
                            self.diagonal[ia][k] += d[k];
                        }
                        self.diagonal[t.b][k] += d[6 + k];
                    }
                }
            }
            // (every entry of the three arrays written)
            Estimator::Bound => self.bound_rows(model, with_inactive),
        }
    }

    /// The row sums of [`Estimator::Bound`] (and the diagonal) over the terms of [`terms`] in
    /// their order, each contact's matrix by column from [`contact_columns_3d`] (a clump's from
    /// [`super::global::Term::matrix`]), so that a body's six rows take a column's terms in
    /// one vector operation. A fixed DOF's column adds `+0.0` where the sums used to skip it (a
    /// mask of its bits: the sums, of absolute values, are never `-0.0`, so they keep their
    /// bits); the square roots of the masses are taken once per body ([`BoundBody`]). Each
    /// body's sums are one record ([`BoundSums`]), zeroed as they are read, ready for the next
    /// call.
    ///
    /// Without clumps, on the ranges of balls of the force pass's partition (when it is made
    /// for this many threads, [`crate::contact::Partition`]), each range on its thread: its
    /// balls take the crossing contacts coming in from earlier ranges, then its segment of the
    /// list, then their wall interactions, which is each ball's order in [`terms`]: the same
    /// sums, bit for bit, for any number of threads.
    fn bound_rows(&mut self, model: &Model, with_inactive: bool) {
        let n = model.body_count();
        // per body: all ones for a free DOF, zero for a fixed one; the roots of its masses
        self.bound_of.clear();
        self.bound_of.extend((0..n).map(|i| {
            let fixed = model.body_fixed(i);
            BoundBody {
                mask: std::array::from_fn(|k| if fixed & (1 << k) == 0 { u64::MAX } else { 0 }),
                root: std::array::from_fn(|k| model.body_inertial(i, k).sqrt()),
            }
        }));
        self.bound.resize(n, BoundSums::default());
        self.bound.truncate(n);
        for out in [
            &mut self.diagonal,
            &mut self.row_abs,
            &mut self.row_abs_scaled,
        ] {
            out.resize(n, [0.0; 6]);
            out.truncate(n);
        }
        let list = &model.contacts.list;
        let part = &model.contacts.partition;
        let threads = rayon::current_num_threads();
        let ranges = threads > 1
            && model.clumps.is_empty()
            && part.threads == threads
            && part.balls.last() == Some(&n)
            && part.segments.last() == Some(&list.len());
        let bounds = if ranges {
            part.balls.clone()
        } else {
            vec![0, n]
        };
        let its = &model.facet_contacts.interactions;
        let cuts: Vec<usize> = (bounds.iter())
            .map(|&i| its.partition_point(|it| (it.ball as usize) < i))
            .collect();
        let bodies = &self.bound_of;
        let parts: Vec<_> = (split(&mut self.bound, &bounds).into_iter())
            .zip(split(&mut self.diagonal, &bounds))
            .zip(split(&mut self.row_abs, &bounds))
            .zip(split(&mut self.row_abs_scaled, &bounds))
            .collect();
        crate::par::run_parts(parts, |r, (((sums, diagonal), row_abs), row_scaled)| {
            let first = bounds[r];
            // Each body's diagonal block is summed first (signs cancel between contacts);
            // the off-diagonal blocks of different contacts touch different rows' columns.
            let mut add = |t: Term| {
                let k = if t.has_clump(model) {
                    let m = t.matrix(model);
                    std::array::from_fn(|j| std::array::from_fn(|i| m[(i, j)]))
                } else {
                    contact_columns_3d(&t.s, &t.normal, &t.r_a, &t.r_b)
                };
                let sides = [(t.a, Some(t.b), 0, 6), (Some(t.b), t.a, 6, 0)];
                for (me, other, o_me, o_other) in sides {
                    // (the bodies of this range only)
                    let Some(s) = me.and_then(|me| sums.get_mut(me.wrapping_sub(first))) else {
                        continue;
                    };
                    for j in 0..6 {
                        for i in 0..6 {
                            s.block[j][i] += k[o_me + j][o_me + i];
                        }
                    }
                    let Some(o) = other.map(|o| &bodies[o]) else {
                        continue;
                    };
                    let (plain, scaled) = masked_sums(
                        |j| &k[o_other + j][o_me..o_me + 6],
                        &o.mask,
                        &o.root,
                        [0.0; 6],
                        [0.0; 6],
                    );
                    for i in 0..6 {
                        s.plain[i] += plain[i];
                        s.scaled[i] += scaled[i];
                    }
                }
            };
            if ranges {
                // (the crossing contacts coming in from earlier ranges, then the segment)
                let incoming = (part.crossing[..part.crossing_of[r]].iter())
                    .map(|&k| k as usize)
                    .filter(|&k| part.range_of(list[k].b as usize) == r);
                let own = part.segments[r]..part.segments[r + 1];
                for k in incoming.chain(own) {
                    if list[k].active || with_inactive {
                        add(ball_term(model, k, with_inactive));
                    }
                }
            } else {
                ball_terms(model, with_inactive).for_each(&mut add);
            }
            for it in &its[cuts[r]..cuts[r + 1]] {
                interaction_terms(model, it, with_inactive).for_each(&mut add);
            }
            for (me, s) in sums.iter_mut().enumerate() {
                let b = &bodies[first + me];
                diagonal[me] = std::array::from_fn(|i| s.block[i][i]);
                (row_abs[me], row_scaled[me]) =
                    masked_sums(|j| &s.block[j], &b.mask, &b.root, s.plain, s.scaled);
                (s.block, s.plain, s.scaled) = Default::default();
            }
        });
    }

    /// The critical-timestep estimate of the given kind over all free DOFs (call
    /// [`DofStiffness::compute`] with the same estimator first).
    pub fn critical(&self, model: &Model, estimator: Estimator) -> CriticalEstimate {
        self.critical_among(model, estimator, None)
    }

    /// [`DofStiffness::critical`]; over ranks (`among`), of the balls this rank owns, then the
    /// least of every rank's (ties to the ball that comes first in one process), the ball as
    /// its index in one process.
    pub fn critical_among(
        &self,
        model: &Model,
        estimator: Estimator,
        among: Option<&dyn Among>,
    ) -> CriticalEstimate {
        let copy = |i: usize| among.is_some_and(|a| !a.own(i));
        // Per norm: the largest row value and where it is (ball, dof).
        let mut worst = [(0.0, 0, 0); 2];
        let mut best = CriticalEstimate {
            dt: Real::INFINITY,
            ball: 0,
            dof: 0,
        };
        // Seed 000, eq. 11: the smallest m / K_ii, and its square root (the root of the
        // smallest ratio is the smallest root: one square root, not one per DOF).
        let mut smallest = Real::INFINITY;
        let balls = &model.balls;
        if estimator == Estimator::Diagonal {
            // (the balls in a loop of their own: six ratios, the smallest, then one comparison
            // with the smallest so far; the same order of DOFs as the loop below)
            // (the test runs for a block of balls at a time, branch-free, with the smallest at
            // the block's start: a later one is smaller, and a test against it passes over
            // more balls, never one this one keeps; then the kept balls one by one)
            const BLOCK: usize = 16;
            let count = self.diagonal.len().min(balls.len());
            for start in (0..count).step_by(BLOCK) {
                let end = (start + BLOCK).min(count);
                let mut keep = [true; BLOCK];
                for (kept, i) in keep.iter_mut().zip(start..end) {
                    let (d, fixed) = (&self.diagonal[i], balls.fixed[i]);
                    let masses = [balls.inertial_mass[i], balls.inertial_inertia[i]];
                    let mut above = true;
                    for k in 0..6 {
                        // (surely above the smallest by a margin of four roundings: six
                        // products instead of six quotients; a DOF without stiffness, whose
                        // ratio is infinite or NaN, never passes the test below, and is
                        // passed over while no smallest is known too)
                        let margin = smallest * d[k] * (1.0 + 4.0 * Real::EPSILON);
                        above &= (fixed & (1 << k) != 0) | (d[k] == 0.0) | (masses[k / 3] > margin);
                    }
                    *kept = !above && !copy(i);
                }
                for (_, i) in keep.iter().zip(start..end).filter(|(&kept, _)| kept) {
                    let (d, fixed) = (&self.diagonal[i], balls.fixed[i]);
                    let masses = [balls.inertial_mass[i], balls.inertial_inertia[i]];
                    let ratio: [Real; 6] = std::array::from_fn(|k| {
                        if fixed & (1 << k) == 0 {
                            masses[k / 3] / d[k]
                        } else {
                            Real::INFINITY
                        }
                    });
                    let mut k_min = 0;
                    for k in 1..6 {
                        if ratio[k] < ratio[k_min] {
                            k_min = k;
                        }
                    }
                    if ratio[k_min] < smallest {
                        smallest = ratio[k_min];
                        best.ball = i;
                        best.dof = k_min;
                    }
                }
            }
        }
        // The bound over the balls, with the masks and roots of [`DofStiffness::bound_rows`]:
        // each ball's twelve quotients (zero for a fixed DOF, which never passes the test), then
        // the tests in the order of the loop below (for each norm, DOF by DOF).
        let bound_balls =
            estimator == Estimator::Bound && self.bound_of.len() == model.body_count();
        if bound_balls {
            for i in (0..balls.len()).filter(|&i| !copy(i)) {
                let (mask, root) = (&self.bound_of[i].mask, &self.bound_of[i].root);
                let masses = [balls.inertial_mass[i], balls.inertial_inertia[i]];
                let masked = |x: Real, k: usize| Real::from_bits(x.to_bits() & mask[k]);
                let rows: [[Real; 6]; 2] = [
                    std::array::from_fn(|k| masked(self.row_abs[i][k] / masses[k / 3], k)),
                    std::array::from_fn(|k| masked(self.row_abs_scaled[i][k] / root[k], k)),
                ];
                for (w, r) in worst.iter_mut().zip(rows) {
                    for (k, &r) in r.iter().enumerate() {
                        if r > w.0 {
                            *w = (r, i, k);
                        }
                    }
                }
            }
        }
        let first = if estimator == Estimator::Diagonal || bound_balls {
            balls.len()
        } else {
            0
        };
        for i in first..model.body_count() {
            let fixed = model.body_fixed(i);
            for k in (0..6).filter(|&k| fixed & (1 << k) == 0) {
                let m = model.body_inertial(i, k);
                match estimator {
                    Estimator::Diagonal => {
                        let ratio = m / self.diagonal[i][k];
                        if ratio < smallest {
                            smallest = ratio;
                            best.ball = i;
                            best.dof = k;
                        }
                    }
                    Estimator::Bound => {
                        let rows = [self.row_abs[i][k] / m, self.row_abs_scaled[i][k] / m.sqrt()];
                        for (w, r) in worst.iter_mut().zip(rows) {
                            if r > w.0 {
                                *w = (r, i, k);
                            }
                        }
                    }
                }
            }
        }
        if let Some(among) = among {
            // (a ratio the least of its rank's; each norm's largest row as the least of its
            // negative, which keeps its bits and its ties)
            let pick = |value: Real, ball: usize, dof: usize| Pick {
                value,
                ball,
                dof: dof as u8,
                radius: 0.0,
            };
            let picks = [
                (smallest < Real::INFINITY).then(|| pick(smallest, best.ball, best.dof)),
                (worst[0].0 > 0.0).then(|| pick(-worst[0].0, worst[0].1, worst[0].2)),
                (worst[1].0 > 0.0).then(|| pick(-worst[1].0, worst[1].1, worst[1].2)),
            ];
            let least = among.least(&picks, &balls.id);
            let of = |p: Option<Pick>| p.map_or((0.0, 0, 0), |p| (p.value, p.ball, p.dof as usize));
            (smallest, best.ball, best.dof) = of(least[0]);
            if least[0].is_none() {
                smallest = Real::INFINITY;
            }
            for (w, p) in worst.iter_mut().zip(&least[1..]) {
                let (value, ball, dof) = of(*p);
                *w = (-value, ball, dof);
            }
        }
        if estimator == Estimator::Diagonal {
            best.dt = smallest.sqrt();
        }
        if estimator == Estimator::Bound {
            // NOTE: each norm bounds omega^2 on its own; the smaller of the two maxima is the
            // bound (a row-wise minimum would not be one).
            let (lambda, ball, dof) = if worst[0].0 <= worst[1].0 {
                worst[0]
            } else {
                worst[1]
            };
            best = CriticalEstimate {
                dt: if lambda > 0.0 {
                    2.0 / lambda.sqrt()
                } else {
                    Real::INFINITY
                },
                ball,
                dof,
            };
        }
        best
    }
}

/// Adds to the rows of `diagonal` (the balls from `first` on; no clump) the diagonal terms of
/// the ball-facet contacts that carry stiffness in the interactions `its` of `fc`
/// (`crate::springs::counted_contacts`, `crate::springs::wall_stiffness`), in interaction order.
fn add_wall_diagonals(
    springs: &Springs,
    fc: &crate::contact::FacetContacts,
    its: &[crate::contact::WallInteraction],
    diagonal: &mut [[Real; 6]],
    first: usize,
    with_inactive: bool,
) {
    for it in its {
        add_interaction_diagonals(
            springs,
            fc.contacts_of(it),
            it,
            diagonal,
            first,
            with_inactive,
        );
    }
}

/// For six rows `i` at once: `plain_i + sum_j |K_ij|` and `scaled_i + sum_j |K_ij| / root_j`
/// over the columns `j` (`column(j)`: `K_ij` for the six rows) whose `mask` is all ones (a
/// column with a zero mask adds `+0.0`), in column order.
#[inline(always)]
fn masked_sums<'c>(
    column: impl Fn(usize) -> &'c [Real],
    mask: &[u64; 6],
    root: &[Real; 6],
    mut plain: [Real; 6],
    mut scaled: [Real; 6],
) -> ([Real; 6], [Real; 6]) {
    for j in 0..6 {
        let col = column(j);
        for i in 0..6 {
            let v = col[i].abs();
            plain[i] += Real::from_bits(v.to_bits() & mask[j]);
            scaled[i] += Real::from_bits((v / root[j]).to_bits() & mask[j]);
        }
    }
    (plain, scaled)
}

/// Computes the estimate of the given kind for the model's current contacts (allocates; the
/// cycle keeps a [`DofStiffness`] instead).
/// Only active contacts count, as in [`super::GlobalStiffness::assemble`].
pub fn estimate_critical(model: &Model, estimator: Estimator) -> CriticalEstimate {
    let mut s = DofStiffness::default();
    s.compute(model, estimator, false);
    s.critical(model, estimator)
}
