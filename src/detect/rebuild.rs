//! When the candidate pairs are rebuilt: the displacement test of the broad phase
//! ([`BroadPhase::tolerance`], [`BroadPhase::needs_rebuild`]; the law of motion makes the same
//! test while it moves the balls, [`crate::motion::step`]). In a still cell a ball may move the
//! margin (`grid.rs`); in a cell that deforms (Lees-Edwards shear, pressure control), the
//! margin less a little as the cell deforms, measured from where the cell's affine motion
//! would have carried the ball ([`BroadPhase::tolerance`] derives the bound).

use super::BroadPhase;
use crate::geom::Cell;
use crate::math::{Real, Vec3};
use crate::motion::Reference;

/// The broad phase's displacement test for one check ([`BroadPhase::tolerance`]): a ball that
/// lies farther than `sqrt(limit2)` from its reference position (carried by `affine`, when
/// given) asks for a rebuild; `rebuild` asks for one whatever the balls did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tolerance {
    /// The square of the largest distance, m².
    pub limit2: Real,
    /// The cell's affine motion since the build, if the distance is measured from it.
    pub affine: Option<Affine>,
    /// Rebuild now (the cell has deformed too far).
    pub rebuild: bool,
}

/// The displacement of the cell's affine motion since the last build at a ball's reference
/// position `X`, coordinate by coordinate: `rate[k]` times the lever
/// `X[from[k]] - origin[k]` along axis `k` (at most one term per coordinate: the shear's along
/// the flow, the dilation's along the controlled axis; see [`BroadPhase::tolerance`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Affine {
    /// The rate of each coordinate (0 along an axis the cell does not move).
    pub rate: [Real; 3],
    /// The coordinate of `X` each one is proportional to.
    pub from: [usize; 3],
    /// Where that coordinate's motion is zero, m.
    pub origin: [Real; 3],
}

impl Affine {
    /// The levers of reference position `x` (the broad phase keeps them from its build: they
    /// do not change until the next).
    #[inline(always)]
    pub fn lever(&self, x: &Vec3) -> Vec3 {
        Vec3::from([0, 1, 2].map(|k| x[self.from[k]] - self.origin[k]))
    }

    /// The reference position `x` of levers `w` carried by the affine motion: `x + rate w`
    /// coordinate by coordinate (the law of motion and the broad phase's own test make the
    /// same operations: the same bits).
    #[inline(always)]
    pub fn carried(&self, x: &Vec3, w: &Vec3) -> Vec3 {
        Vec3::from([0, 1, 2].map(|k| x[k] + self.rate[k] * w[k]))
    }
}

/// The axes and origins of a deforming cell's affine motion ([`Affine`], its rates zero), given
/// its lengths at the build; None in a still cell, or under pressure control of the flow axis
/// (which the case refuses: two terms in one coordinate).
fn affine_frame(c: &Cell, len_at_build: &Vec3) -> Option<Affine> {
    let flow_controlled = matches!((c.shear, c.pressure), (Some(s), Some(p)) if p.axis == s.flow);
    if (c.shear.is_none() && c.pressure.is_none()) || flow_controlled {
        return None;
    }
    let mut a = Affine {
        rate: [0.0; 3],
        from: [0, 1, 2],
        origin: [0.0; 3],
    };
    if let Some(p) = c.pressure {
        a.origin[p.axis] = c.min[p.axis];
    }
    if let Some(s) = c.shear {
        a.from[s.flow] = s.gradient;
        a.origin[s.flow] = c.min[s.gradient] + 0.5 * len_at_build[s.gradient];
    }
    Some(a)
}

/// How far a ball may move before the candidate pairs are rebuilt in the lab-frame rule: the
/// margin, or half of it under Lees-Edwards shear or pressure control, whose images across the
/// faces also move (the pairs are rebuilt once they moved a margin: two balls that each moved
/// half a margin and images that moved one have closed a gap of two margins at most, as two
/// balls that each moved one do in a fixed cell). A deforming cell without walls measures the
/// displacement relative to its affine motion instead ([`BroadPhase::tolerance`]).
fn lab_limit(cell: Option<&Cell>, margin: Real) -> Real {
    match cell {
        Some(c) if c.shear.is_some() || c.pressure.is_some() => 0.5 * margin,
        _ => margin,
    }
}

impl BroadPhase {
    /// True when the pairs must be rebuilt: first use, a change in the number of pieces, or a
    /// piece that lies farther from its reference position than `tolerance` allows (module
    /// documentation, [`BroadPhase::tolerance`]; `tolerance.rebuild` is the caller's to test).
    pub fn needs_rebuild(&self, pos: &[Vec3], tolerance: &Tolerance) -> bool {
        if self.ref_pos.len() != pos.len() || self.builds == 0 {
            return true;
        }
        use rayon::prelude::*;
        let limit2 = tolerance.limit2;
        let far = |i: usize| {
            let (p, q) = (&pos[i], &self.ref_pos[i]);
            match &tolerance.affine {
                None => (p - q).norm_squared() > limit2,
                Some(a) => {
                    let w = (self.levers.get(i).copied()).unwrap_or_else(|| a.lever(q));
                    (p - a.carried(q, &w)).norm_squared() > limit2
                }
            }
        };
        if pos.len() >= crate::par::PARALLEL_BALLS {
            (0..pos.len()).into_par_iter().any(far)
        } else {
            (0..pos.len()).any(far)
        }
    }

    /// The displacement test for the cell as it is now ([`Tolerance`]), the pairs having been
    /// built at the reference positions with this margin; `walls`: the model has walls.
    ///
    /// In a still cell, or none: a ball may move the margin (module documentation).
    ///
    /// In a cell that deforms (Lees-Edwards shear, pressure control) and holds no wall, a
    /// ball's displacement is measured from where the cell's affine motion would have carried
    /// it. The images of a ball are its position plus the cell's lattice vectors
    /// `n_g a_g + n_f a_f + n_o a_o`, with `a_f = L_f e_f` along the flow, `a_o = L_o e_o` along
    /// the third axis and `a_g = L_g e_g + o e_f` along the gradient (`o` the offset; without
    /// shear `a_g = L_g e_g` like the others). Let `F` be the linear map that takes the lattice
    /// of the build (lengths `L'`, offset `o'`) onto the lattice now: the identity, except
    /// `F e_p = l e_p` along the controlled axis `p` (`l = L_p / L'_p`) and
    /// `F e_g = l_g e_g + beta e_f` with `beta = (o - o' + k L_f) / L'_g` (`l_g = l` when `p` is
    /// the gradient, else 1; the flow axis is never controlled, case/domain.rs). Every whole
    /// `k` makes `F` take the one lattice onto the other (`F a'_g = a_g + k a_f`); the `k` that
    /// makes `|beta|` smallest is taken. Write each ball's position now as
    /// `x_i = X_i + (F - I)(X_i - c) + d_i`, `X_i` its reference position and `c` a fixed
    /// point: `d_i` is the ball's own motion, what the test measures ([`Affine`]; `F - I` has
    /// one term per row at most, and each row may take its own `c` since a common shift of all
    /// the `d_i` changes no `d_j - d_i`: the flow's row is centred on the gradient's middle,
    /// where the flow profile of a sheared packing is at rest, the controlled axis's row on its
    /// lower face, about which the remap scales the positions).
    ///
    /// Take a pair and the lattice vector `T` through which it is seen now. `T' = F^-1 T` is a
    /// lattice vector of the build, and the separation now is
    /// `r = x_j + T - x_i = F r' + (d_j - d_i)`, with `r' = X_j + T' - X_i` a separation of the
    /// pair at the build. (The change of offset is in `F r'`: across the gradient faces `T`
    /// holds `n_g o e_f`, `T'` held `n_g o' e_f`, and the flow carried the balls on either
    /// side in opposite directions; what is left is `beta r'_g`, the shear of the separation
    /// itself.) If the pair touches now through `T`, `|r| <= s = r_i + r_j`, so
    /// `|r'| = |F^-1 (r - d_j + d_i)| <= kappa (s + 2 d)`, with `kappa` a bound of `|F^-1|`
    /// (the largest stretch of `F^-1`; at least 1, below) and `d = max |d_i|`. Its extents
    /// overlapped at the build (through `T'`, hence through the nearest image too) when
    /// `|r'| <= s + 2 margin`, and then it is a candidate. So every pair within reach is a
    /// candidate as long as
    ///
    /// `kappa (s + 2 d) <= s + 2 margin`, that is `d <= ((s + 2 margin) / kappa - s) / 2`,
    ///
    /// for every `s` up to `2 r_max` (with `kappa >= 1` the largest `s` is the tightest). `F`
    /// is a shear by `b` in the flow-gradient plane times the stretch `diag(1, .., l, ..)`
    /// (`F = (I + b e_f e_g^T) diag`, `b = beta / l` when `p` is the gradient, `b = beta`
    /// otherwise), so its smallest singular value is at least the shear's,
    /// `sqrt(1 + b^2/4) - |b|/2`, times `min(1, l)`:
    /// `kappa <= (sqrt(1 + b^2/4) + |b|/2) / min(1, l)`. In a still cell `F = I`, `kappa = 1`
    /// and the limit is the margin, as in the module documentation; under shear it shrinks by
    /// about `|b| (r_max + margin) / 2` (the bench's shear cell: `b = 5e-3` after 100 steps,
    /// 2.8 µm of a 100 µm margin), under a shrinking length by `(1 - l) (r_max + margin)`, and
    /// when it would be negative the pairs are rebuilt whatever the balls did. (Rounding, a
    /// few units in the last place of a position, is left out, as in the still cell's rule.)
    ///
    /// A deforming cell with walls keeps the lab-frame rule (`lab_limit`: a ball-facet pair
    /// closes by the ball's own displacement): half the margin, and a rebuild once the images
    /// have slid or the lengths changed by a margin.
    pub fn tolerance(&self, cell: Option<&Cell>, walls: bool, margin: Real) -> Tolerance {
        let lab = |limit: Real, rebuild: bool| Tolerance {
            limit2: limit * limit,
            affine: None,
            rebuild,
        };
        let Some(c) = cell.filter(|c| c.shear.is_some() || c.pressure.is_some()) else {
            return lab(margin, false);
        };
        let frame = affine_frame(c, &self.len_at_build).filter(|_| !walls);
        let Some(mut affine) = frame else {
            // (the images slid by this much since the build, and moved by the change of length)
            let sheared = c
                .shear
                .map(|s| (c.strain - self.strain_at_build).abs() * c.len[s.gradient]);
            let dilated = c.pressure.map(|_| (c.len - self.len_at_build).abs().sum());
            let slid = sheared.unwrap_or(0.0) + dilated.unwrap_or(0.0);
            return lab(lab_limit(cell, margin), slid > margin || slid.is_nan());
        };
        let mut stretch = 1.0;
        if let Some(p) = c.pressure {
            let k = p.axis;
            stretch = c.len[k] / self.len_at_build[k];
            affine.rate[k] = stretch - 1.0;
        }
        let mut b: Real = 0.0;
        if let Some(s) = c.shear {
            let (f, g) = (s.flow, s.gradient);
            let (lf, lg) = (c.len[f], self.len_at_build[g]);
            let slid = c.offset - self.offset_at_build;
            let beta = (slid - lf * (slid / lf).round()) / lg;
            affine.rate[f] = beta;
            b = match c.pressure {
                Some(p) if p.axis == g => beta / stretch,
                _ => beta,
            };
        }
        let kappa = ((1.0 + 0.25 * b * b).sqrt() + 0.5 * b.abs()) / stretch.min(1.0);
        let reach = 2.0 * self.largest_radius;
        let limit = 0.5 * ((reach + 2.0 * margin) / kappa - reach);
        Tolerance {
            limit2: limit.max(0.0) * limit.max(0.0),
            affine: Some(affine),
            // (also for a NaN)
            rebuild: limit < 0.0 || limit.is_nan(),
        }
    }

    /// Keeps the levers of the reference positions of the build just made in `cell`
    /// ([`Affine::lever`]; none in a still cell): the law of motion's test reads them (without
    /// them it is left to [`BroadPhase::needs_rebuild`], which computes them).
    pub fn keep_levers(&mut self, cell: Option<&Cell>) {
        self.levers.clear();
        if let Some(a) = cell.and_then(|c| affine_frame(c, &self.len_at_build)) {
            self.levers.extend(self.ref_pos.iter().map(|x| a.lever(x)));
        }
    }

    /// The positions of the last build and what the test `tolerance` needs of them, when they
    /// are those of `n` pieces (else the pairs must be rebuilt anyway): for a caller that
    /// makes the test of [`BroadPhase::needs_rebuild`] itself ([`crate::motion::step`]).
    pub fn reference(&self, n: usize, tolerance: Tolerance) -> Option<Reference<'_>> {
        if self.ref_pos.len() != n || self.builds == 0 {
            return None;
        }
        let affine = match tolerance.affine {
            None => None,
            Some(a) if self.levers.len() == n => Some((&self.levers[..], a.rate)),
            Some(_) => return None,
        };
        Some(Reference {
            pos: &self.ref_pos,
            limit2: tolerance.limit2,
            affine,
        })
    }
}
