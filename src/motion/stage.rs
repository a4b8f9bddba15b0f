//! The law of motion's state ([`Motion`]) and the stage ([`Motion::run`]), and the periodic
//! cell's step before it ([`deform_cell`]).

use super::balls::{step, Reference};
use crate::body::{Balls, Clumps, Wall};
use crate::math::{Real, Vec3};

/// What the law of motion reads and writes.
pub struct Motion<'a> {
    /// Forces and masses (read); velocities and positions (written).
    pub balls: &'a mut Balls,
    /// Clumps move as rigid bodies, their pebbles with them.
    pub clumps: &'a mut Clumps,
    /// Walls move by prescription (rigid about the pivot, or vertex velocities).
    pub walls: &'a mut [Wall],
    /// Gravitational acceleration, m/s^2.
    pub gravity: Vec3,
    /// The last cycle's timestep, s (velocities are half of it behind the positions).
    pub last_dt: Real,
    /// The broad phase's displacement test, made while the positions are at hand (None: the
    /// broad phase tests later, as with clumps, or it has no reference positions for these
    /// balls).
    pub reference: Option<Reference<'a>>,
    /// The force pass's ranges of balls, when it cut them for several threads (the law of
    /// motion follows the same cut: see [`step`]).
    pub ranges: Option<&'a [usize]>,
}

impl Motion<'_> {
    /// One step `dt` of the law of motion for balls, clumps and walls. Returns whether every
    /// position and velocity is still finite, and (when the test was made) whether a ball
    /// moved more than the margin since the candidate pairs were built.
    pub fn run(self, dt: Real) -> (bool, Option<bool>) {
        let tested = self.reference.is_some();
        let (mut finite, moved) = step(
            self.balls,
            &self.gravity,
            self.last_dt,
            dt,
            self.reference,
            self.ranges,
        );
        if !self.clumps.is_empty() {
            finite &= self
                .clumps
                .step(self.balls, &self.gravity, self.last_dt, dt);
        }
        for w in self.walls.iter_mut() {
            w.step(dt);
        }
        (finite, tested.then_some(moved))
    }
}

/// The periodic cell's step `dt`, before the law of motion: under pressure control its length
/// changes and carries the bodies with it ([`dilate`]), under Lees-Edwards shear its images move
/// on. (First, so that the broad phase's test made during the law of motion sees the cell the
/// positions will be in.)
pub fn deform_cell(balls: &mut Balls, clumps: &mut Clumps, dt: Real) {
    dilate(balls, clumps, dt);
    if let Some(cell) = balls.cell.as_mut() {
        cell.advance(dt);
    }
}

/// Under pressure control, changes the cell's controlled length by this step's strain and
/// carries the bodies with it, affinely: free balls by their centres, clumps by their centroid
/// with their pebbles (done before the step, so that the broad phase's test of the step sees
/// the bodies where they are).
fn dilate(balls: &mut Balls, clumps: &mut Clumps, dt: Real) {
    let Some(change) = balls.cell.as_mut().and_then(|c| c.dilate(dt)) else {
        return;
    };
    use crate::geom::Cell;
    for i in 0..balls.len() {
        if balls.clump[i] == crate::body::NO_CLUMP {
            Cell::remap(&mut balls.pos[i], change);
        }
    }
    for c in 0..clumps.len() {
        let before = clumps.pos[c];
        Cell::remap(&mut clumps.pos[c], change);
        let d = clumps.pos[c] - before;
        let first = clumps.first[c] as usize;
        for p in first..first + clumps.count[c] as usize {
            balls.pos[p] += d;
        }
    }
}
