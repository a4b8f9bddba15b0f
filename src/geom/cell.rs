//! A periodic cell: a box whose faces along some axes wrap. A ball leaving through `max` along
//! a periodic axis re-enters through `min`, and two balls interact through the nearest of their
//! images (the minimum-image rule: along a periodic axis of length `L`, a separation `d` is
//! replaced by `d - L round(d / L)`). The rule is exact as long as no pair can reach two images
//! of each other at once, which a case guarantees by a cell longer than twice the largest
//! interaction distance along each periodic axis (`case/domain.rs` refuses the rest).

use crate::math::{Real, Vec3};

/// The cell: its lower corner, its lengths and which axes wrap.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Cell {
    /// Lower corner, m.
    pub min: Vec3,
    /// Lengths along x, y, z, m (an axis that does not wrap keeps its length, unused).
    pub len: Vec3,
    /// The axes that wrap.
    pub periodic: [bool; 3],
    /// Lees-Edwards shear, if any.
    pub shear: Option<Shear>,
    /// Under shear: how far the image cell one length up along the gradient axis is moved
    /// along the flow axis, m, in `[0, len[flow])` (`rate len[gradient] t`, wrapped).
    pub offset: Real,
    /// Under shear: the accumulated shear strain, `rate t`.
    pub strain: Real,
    /// Constant-pressure control of one length, if any.
    pub pressure: Option<Pressure>,
    /// Under pressure control: the strain rate of the controlled length for the cycle that
    /// starts now, 1/s (set by the servo from the last force pass's stress).
    pub dilation: Real,
}

/// Constant-pressure control: the cell's length along `axis` follows the strain rate
/// `gain (sigma - target)`, clamped to `max_rate` in magnitude, `sigma` the cell's normal stress
/// along `axis` (compression positive): a cell under more stress than the target grows, one
/// under less shrinks. The balls' positions are remapped affinely with the length (their
/// velocities are not: the dilation is slow beside them). The rate is set anew every `every`
/// cycles and held in between.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Pressure {
    /// The normal stress to hold, Pa.
    pub target: Real,
    /// The axis whose length is controlled (0, 1, 2 for x, y, z).
    pub axis: usize,
    /// Strain rate per pascal of error, 1/(Pa s).
    pub gain: Real,
    /// Largest strain rate, 1/s.
    pub max_rate: Real,
    /// The servo reads the stress and sets the rate every this many cycles (at least 1).
    pub every: u64,
}

/// Lees-Edwards shear: the image cells one length up along `gradient` move at
/// `+rate len[gradient]` along `flow` (and those below at the opposite velocity).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Shear {
    /// Shear rate, 1/s.
    pub rate: Real,
    /// The axis of the flow (0, 1, 2 for x, y, z).
    pub flow: usize,
    /// The axis of the velocity gradient.
    pub gradient: usize,
}

impl Cell {
    /// The separation `d` (from a to b) replaced by that of the nearest image of b.
    #[inline]
    pub fn nearest(&self, d: Vec3) -> Vec3 {
        self.nearest_with(d).0
    }

    /// [`Cell::nearest`], and how many lengths along the gradient axis b's image was moved
    /// (its velocity is b's plus that many times [`Cell::jump`] along the flow; 0 without
    /// shear). Under shear the gradient axis goes first: an image one length up is also
    /// moved by the offset along the flow, and then the flow axis takes its nearest image.
    #[inline(always)]
    pub fn nearest_with(&self, d: Vec3) -> (Vec3, Real) {
        if self.inside(&d) {
            return (d, 0.0);
        }
        self.nearest_across(d)
    }

    /// True when no image is nearer than `d` itself: within half a length along every
    /// periodic axis (most pairs lie well inside).
    #[inline(always)]
    fn inside(&self, d: &Vec3) -> bool {
        let inside = |k: usize| !self.periodic[k] || d[k].abs() < 0.5 * self.len[k];
        inside(0) && inside(1) && inside(2)
    }

    /// Half the length along each periodic axis, infinite along the others: a separation
    /// under these along every axis ([`within`]) has no nearer image.
    pub fn halves(&self) -> [Real; 3] {
        [0, 1, 2].map(|k| match self.periodic[k] {
            true => 0.5 * self.len[k],
            false => Real::INFINITY,
        })
    }

    /// [`Cell::nearest_with`] for a separation of half a length or more along a periodic axis.
    #[inline]
    fn nearest_across(&self, mut d: Vec3) -> (Vec3, Real) {
        let mut up = 0.0;
        let mut skip = 3;
        if let Some(s) = &self.shear {
            let (g, l) = (s.gradient, self.len[s.gradient]);
            up = -whole_lengths(d[g], l);
            if up != 0.0 {
                d[g] += up * l;
                d[s.flow] += up * self.offset;
            }
            skip = g;
        }
        for k in 0..3 {
            if self.periodic[k] && k != skip {
                let l = self.len[k];
                d[k] -= l * whole_lengths(d[k], l);
            }
        }
        (d, up)
    }

    /// Under shear, the velocity of the image one length up along the gradient relative to
    /// its ball, along the flow: `rate len[gradient]` (0 without shear).
    #[inline]
    pub fn jump(&self) -> Real {
        self.shear.map_or(0.0, |s| s.rate * self.len[s.gradient])
    }

    /// The velocity `v` of a ball seen at its image moved `up` lengths along the gradient.
    #[inline]
    pub fn image_velocity(&self, v: &Vec3, up: Real) -> Vec3 {
        match &self.shear {
            Some(s) if up != 0.0 => {
                let mut w = *v;
                w[s.flow] += up * self.jump();
                w
            }
            _ => *v,
        }
    }

    /// Advances the shear by a step `dt`: the images move on by `rate len[gradient] dt`.
    pub fn advance(&mut self, dt: Real) {
        if let Some(s) = self.shear {
            let l = self.len[s.flow];
            self.offset = (self.offset + self.jump() * dt).rem_euclid(l);
            if self.offset >= l {
                self.offset = 0.0;
            }
            self.strain += s.rate * dt;
        }
    }

    /// Under pressure control, sets the strain rate of the controlled length from the cell's
    /// normal stress along its axis, Pa (see [`Pressure`]).
    pub fn servo(&mut self, sigma: Real) {
        if let Some(p) = self.pressure {
            let rate = p.gain * (sigma - p.target);
            self.dilation = rate.clamp(-p.max_rate, p.max_rate);
        }
    }

    /// Under pressure control, changes the controlled length by the strain `dilation dt`.
    /// Returns the axis, the lower face and the factor `new / old` by which each position's
    /// height above that face is to be multiplied ([`Cell::remap`]); None when nothing changes.
    pub fn dilate(&mut self, dt: Real) -> Option<(usize, Real, Real)> {
        let p = self.pressure?;
        if self.dilation == 0.0 || dt == 0.0 {
            return None;
        }
        let k = p.axis;
        let old = self.len[k];
        self.len[k] = old * (1.0 + self.dilation * dt);
        Some((k, self.min[k], self.len[k] / old))
    }

    /// The position `p` carried affinely by a change of length ([`Cell::dilate`]'s result).
    #[inline]
    pub fn remap(p: &mut Vec3, (axis, lo, factor): (usize, Real, Real)) {
        p[axis] = lo + (p[axis] - lo) * factor;
    }

    /// The image of `b` nearest to `a`.
    #[inline(always)]
    pub fn image(&self, a: &Vec3, b: &Vec3) -> Vec3 {
        self.image_with(a, b).0
    }

    /// [`Cell::image`], and how many lengths up along the gradient axis it is (see
    /// [`Cell::nearest_with`]).
    #[inline(always)]
    pub fn image_with(&self, a: &Vec3, b: &Vec3) -> (Vec3, Real) {
        let d = b - a;
        // (the pairs away from the faces, nearly all: b itself, without comparing vectors)
        if self.inside(&d) {
            return (*b, 0.0);
        }
        self.image_across(b, d)
    }

    /// [`Cell::image_with`] for a separation `d` (from a to `b`) of half a length or more
    /// along a periodic axis.
    #[inline(never)]
    fn image_across(&self, b: &Vec3, d: Vec3) -> (Vec3, Real) {
        let (n, up) = self.nearest_across(d);
        if n == d {
            (*b, up)
        } else {
            // (b plus a whole number of lengths: the image's position itself, not a + n, so
            // that a pair away from the faces keeps every bit)
            (b + (n - d), up)
        }
    }

    /// Brings a body at `p` moving at `v` back into the cell: under shear, through a face of
    /// the gradient axis it takes the place of its image (moved by the offset along the flow,
    /// its velocity by the jump), then along every periodic axis by whole lengths. True when
    /// it moved.
    pub fn wrap_body(&self, p: &mut Vec3, v: &mut Vec3) -> bool {
        let mut moved = false;
        if let Some(s) = &self.shear {
            let (g, lo, l) = (s.gradient, self.min[s.gradient], self.len[s.gradient]);
            let up = -((p[g] - lo) / l).floor();
            if up != 0.0 {
                p[g] += up * l;
                p[s.flow] += up * self.offset;
                v[s.flow] += up * self.jump();
                moved = true;
            }
        }
        self.wrap(p) | moved
    }

    /// Brings `p` back into the cell along the periodic axes; true when it moved.
    #[inline]
    pub fn wrap(&self, p: &mut Vec3) -> bool {
        let mut moved = false;
        for k in 0..3 {
            if self.periodic[k] {
                let (lo, l) = (self.min[k], self.len[k]);
                if p[k] < lo || p[k] >= lo + l {
                    let mut x = lo + (p[k] - lo).rem_euclid(l);
                    if x >= lo + l {
                        // (rem_euclid may round up to the length itself)
                        x = lo;
                    }
                    p[k] = x;
                    moved = true;
                }
            }
        }
        moved
    }

    /// The moves that take a body to its images in the cells around this one (the zero move
    /// first): whole lengths along each periodic axis, and under shear, for an image `up`
    /// lengths along the gradient, `up` offsets along the flow with whole flow lengths either
    /// side (the offset lies in `[0, len[flow])`, so two lengths each way cover every image
    /// within a length of the cell). For the rare places that test a point against every
    /// image near it (insertion).
    pub fn image_moves(&self) -> Vec<Vec3> {
        let span = |k: usize| -> Vec<i32> {
            match self.shear {
                Some(s) if s.flow == k => vec![0, -1, 1, -2, 2],
                _ if self.periodic[k] => vec![0, -1, 1],
                _ => vec![0],
            }
        };
        let mut moves = Vec::new();
        for &i in &span(0) {
            for &j in &span(1) {
                for &l in &span(2) {
                    let n = [i, j, l];
                    let mut m = Vec3::new(
                        Real::from(i) * self.len.x,
                        Real::from(j) * self.len.y,
                        Real::from(l) * self.len.z,
                    );
                    if let Some(s) = self.shear {
                        m[s.flow] += Real::from(n[s.gradient]) * self.offset;
                    }
                    moves.push(m);
                }
            }
        }
        moves
    }

    /// The cell's volume (the area in 2D, where `len.z` is not used).
    pub fn volume(&self, planar: bool) -> Real {
        if planar {
            self.len.x * self.len.y
        } else {
            self.len.x * self.len.y * self.len.z
        }
    }
}

/// `round(x / l)`, the whole number of lengths `l` nearest to `x`, without a division for the
/// separations a cell holds (under one and a half lengths: bodies lie at most a margin outside
/// it).
#[inline(always)]
fn whole_lengths(x: Real, l: Real) -> Real {
    let h = 0.5 * l;
    if x.abs() < h {
        0.0
    } else if x.abs() < 3.0 * h {
        x.signum()
    } else {
        (x / l).round()
    }
}

/// True when the separation `d` is under `half` ([`Cell::halves`]) along every axis: no image
/// is nearer (false also for a NaN, which [`Cell::nearest_with`] then takes as it takes any).
/// Three comparisons and no branch, for a loop over many pairs of one cell.
#[inline(always)]
pub fn within(half: &[Real; 3], d: &Vec3) -> bool {
    (d.x.abs() < half[0]) & (d.y.abs() < half[1]) & (d.z.abs() < half[2])
}

/// The separation `d` replaced by its nearest image in `cell` (unchanged without one): for an
/// arm from a ball's centre to a point of its contact, which is shorter than half the cell.
#[inline(always)]
pub fn nearest(cell: Option<&Cell>, d: Vec3) -> Vec3 {
    match cell {
        None => d,
        Some(c) => c.nearest(d),
    }
}

/// The position and velocity of the image of a ball at `b` moving at `v` nearest to `a` in
/// `cell` (`b` and `v` themselves without one).
#[inline(always)]
pub fn image_motion(cell: Option<&Cell>, a: &Vec3, b: &Vec3, v: &Vec3) -> (Vec3, Vec3) {
    match cell {
        None => (*b, *v),
        Some(c) => {
            let d = b - a;
            if c.inside(&d) {
                return (*b, *v);
            }
            let (p, up) = c.image_across(b, d);
            (p, c.image_velocity(v, up))
        }
    }
}

/// The image of `b` nearest to `a` in `cell`, or `b` itself without one.
#[inline(always)]
pub fn image(cell: Option<&Cell>, a: &Vec3, b: &Vec3) -> Vec3 {
    match cell {
        None => *b,
        Some(c) => c.image(a, b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell() -> Cell {
        Cell {
            min: Vec3::new(-1.0, 0.0, 0.0),
            len: Vec3::new(2.0, 4.0, 1.0),
            periodic: [true, true, false],
            shear: None,
            offset: 0.0,
            strain: 0.0,
            pressure: None,
            dilation: 0.0,
        }
    }

    /// Under shear along x with gradient y: a ball near the top sees a ball near the bottom
    /// one length up, moved by the offset along x and faster by rate L_y (by hand).
    #[test]
    fn lees_edwards_image_by_hand() {
        let mut c = cell();
        c.shear = Some(Shear {
            rate: 0.5,
            flow: 0,
            gradient: 1,
        });
        c.advance(0.7); // offset 0.5 * 4 * 0.7 = 1.4
        assert!((c.offset - 1.4).abs() < 1e-15 && (c.strain - 0.35).abs() < 1e-15);
        // a at y = 3.9, b at y = 0.1: b's image at y = 4.1, x moved by 1.4 (then the nearest
        // along x: 0.2 + 1.4 - 0.3 = 1.3 -> -0.7)
        let (d, up) = c.nearest_with(Vec3::new(0.2, 0.1, 0.0) - Vec3::new(0.3, 3.9, 0.0));
        assert_eq!(up, 1.0);
        assert!((d - Vec3::new(-0.7, 0.2, 0.0)).norm() < 1e-15, "{d}");
        let v = c.image_velocity(&Vec3::new(1.0, 0.0, 0.0), up);
        assert_eq!(v, Vec3::new(3.0, 0.0, 0.0));
        // a ball through the top face: down by 4, back by the offset along x (0.5 - 1.4 =
        // -0.9, inside [-1, 1)), slower by 2
        let (mut p, mut w) = (Vec3::new(0.5, 4.25, 0.0), Vec3::new(1.0, 1.0, 0.0));
        assert!(c.wrap_body(&mut p, &mut w));
        assert!((p - Vec3::new(-0.9, 0.25, 0.0)).norm() < 1e-15, "{p}");
        // and one that then leaves along x too: 0.1 - 1.4 = -1.3, brought to 0.7
        let (mut p, mut w) = (Vec3::new(0.1, 4.25, 0.0), Vec3::new(1.0, 1.0, 0.0));
        assert!(c.wrap_body(&mut p, &mut w));
        assert!((p - Vec3::new(0.7, 0.25, 0.0)).norm() < 1e-15, "{p}");
        assert_eq!(w, Vec3::new(-1.0, 1.0, 0.0));
    }

    #[test]
    fn nearest_image_by_hand() {
        let c = cell();
        // 1.8 along x in a cell 2 long: the image 0.2 behind is nearer; z does not wrap
        let d = c.nearest(Vec3::new(1.8, -3.5, 7.0));
        assert!((d - Vec3::new(-0.2, 0.5, 7.0)).norm() < 1e-15);
        let (a, b) = (Vec3::new(-0.9, 1.0, 0.5), Vec3::new(0.9, 1.0, 0.5));
        assert_eq!(c.image(&a, &b), Vec3::new(-1.1, 1.0, 0.5));
        // a pair away from the faces keeps its bits
        let b = Vec3::new(-0.3, 1.1, 0.2);
        assert_eq!(c.image(&a, &b), b);
    }

    #[test]
    fn wrap_brings_back_inside() {
        let c = cell();
        let mut p = Vec3::new(1.25, -0.5, 3.0);
        assert!(c.wrap(&mut p));
        assert_eq!(p, Vec3::new(-0.75, 3.5, 3.0));
        let mut q = Vec3::new(0.0, 1.0, -5.0);
        assert!(!c.wrap(&mut q));
        // exactly on the upper face: to the lower one
        let mut r = Vec3::new(1.0, 4.0, 0.0);
        assert!(c.wrap(&mut r));
        assert_eq!(r, Vec3::new(-1.0, 0.0, 0.0));
    }
}
