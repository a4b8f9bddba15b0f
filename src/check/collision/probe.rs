//! The probe of the collision checks: it watches the first collision of a ball with another
//! body every cycle (records are too coarse to time a contact).

use crate::check::ProbeState;
use crate::math::{Real, Vec3};
use crate::model::Model;

/// The other body of a collision, by index in the model.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Body {
    /// A ball index.
    Ball(usize),
    /// A wall index.
    Wall(usize),
}

/// One collision between two balls, as seen cycle by cycle.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Collision {
    /// Time the overlap became positive, s (interpolated between cycles).
    pub t_start: Option<Real>,
    /// Time the overlap returned to zero, s (interpolated).
    pub t_end: Option<Real>,
    /// Relative normal velocity (v_other - v_ball) . n at the last cycle before contact, m/s.
    pub vn_in: Real,
    /// Relative normal velocity at the first cycle after separation, m/s.
    pub vn_out: Real,
    /// True when the balls already overlapped at the start.
    pub touching_at_start: bool,
    /// Largest overlap during the contact, m.
    pub max_overlap: Real,
    /// Largest normal component of the contact force on the ball during the contact, N.
    pub max_force: Real,
    /// Velocity of the ball relative to the other body at the last cycle before contact, m/s.
    pub vel_in: Vec3,
    /// The same at the first cycle after separation, m/s.
    pub vel_out: Vec3,
    /// Angular velocity of the ball at the first cycle after separation, rad/s.
    pub spin_out: Vec3,
    /// Angular velocities of the ball and of the other ball (zero for a wall) at the last
    /// cycle before contact, rad/s.
    pub spin_in: [Vec3; 2],
    /// Unit normal from the other body to the ball at first contact.
    pub normal: Vec3,
}

/// Watches the first collision of two balls.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct CollisionProbe {
    a: usize,
    b: Body,
    prev: Option<(Real, Real, Real, Vec3, Vec3, [Vec3; 2])>,
    /// What was seen so far.
    pub seen: Collision,
}

impl CollisionProbe {
    /// A probe of ball index `a` and body `b`.
    pub fn new(a: usize, b: Body) -> Self {
        CollisionProbe {
            a,
            b,
            prev: None,
            seen: Collision::default(),
        }
    }
}

impl ProbeState for CollisionProbe {
    fn observe(&mut self, model: &Model) {
        if self.seen.t_end.is_some() {
            return;
        }
        let bl = &model.balls;
        let (overlap, n, v_other) = match self.b {
            Body::Ball(b) => {
                // (in a periodic cell, to the nearest image of b)
                let d = crate::geom::nearest(bl.cell.as_ref(), bl.pos[self.a] - bl.pos[b]);
                let dist = d.norm();
                (
                    bl.radius[self.a] + bl.radius[b] - dist,
                    d / dist,
                    model.synchronized_velocity(b),
                )
            }
            // The nearest point of the wall, found over every facet (independent of the
            // contact list): overlap R - d, normal from the wall to the ball.
            Body::Wall(w) => {
                let wall = &model.walls[w];
                let x = bl.pos[self.a];
                let (f, p) = (0..wall.mesh.len())
                    .map(|f| {
                        (
                            f,
                            crate::geom::closest_point(&x, &wall.mesh.corners(f)).point,
                        )
                    })
                    .min_by(|a, b| {
                        (a.1 - x)
                            .norm_squared()
                            .total_cmp(&(b.1 - x).norm_squared())
                    })
                    .unwrap_or((0, x));
                let d = x - p;
                let n = d.try_normalize(0.0).unwrap_or_else(Vec3::z);
                (bl.radius[self.a] - d.norm(), n, wall.velocity_at(f, &p))
            }
        };
        let vel = model.synchronized_velocity(self.a) - v_other;
        let spins = [
            model.synchronized_spin(self.a),
            match self.b {
                Body::Ball(b) => model.synchronized_spin(b),
                Body::Wall(_) => Vec3::zeros(),
            },
        ];
        // velocity of the ball relative to the other body along the normal from the other body
        // to the ball: < 0 while approaching (the same as (v_b - v_a) . n with n from a to b)
        let vn = vel.dot(&n);
        let t = model.time;
        let cross = |(t0, o0, ..): (Real, Real, Real, Vec3, Vec3, [Vec3; 2])| {
            t0 + (t - t0) * o0 / (o0 - overlap)
        };
        match self.prev {
            None if overlap > 0.0 => self.seen.touching_at_start = true,
            Some(p) if self.seen.t_start.is_none() && overlap > 0.0 => {
                self.seen.t_start = Some(cross(p));
                self.seen.vn_in = p.2;
                self.seen.vel_in = p.3;
                self.seen.normal = p.4;
                self.seen.spin_in = p.5;
            }
            Some(p) if self.seen.t_start.is_some() && overlap <= 0.0 => {
                self.seen.t_end = Some(cross(p));
                self.seen.vn_out = vn;
                self.seen.vel_out = vel;
                self.seen.spin_out = model.synchronized_spin(self.a);
            }
            _ => {}
        }
        if self.seen.t_start.is_some() && self.seen.t_end.is_none() {
            self.seen.max_overlap = self.seen.max_overlap.max(overlap);
            self.seen.max_force = self.seen.max_force.max(bl.force[self.a].dot(&n));
        }
        self.prev = Some((t, overlap, vn, vel, n, spins));
    }
}
