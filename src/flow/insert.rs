//! What each insertion and outlet is and has done ([`Flow`]), and how an insertion draws its
//! balls' radii and positions.

use crate::distribution::Radii;
use crate::geom::Zone;
use crate::math::{Real, Vec3};
use crate::rng::SplitMix64;

/// How fast an insertion places its balls.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Rate {
    /// Balls per second from `start`.
    Balls(Real),
    /// Kilograms per second from `start`.
    Mass(Real),
    /// All `count` balls at `start`.
    AtOnce,
}

/// What a user gives to create an insertion.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct InsertSpec {
    /// Unique name (series `insert/<name>/...`).
    pub name: String,
    /// Where the balls appear: each wholly inside, except along `wraps`.
    pub zone: Zone,
    /// The periodic axes along which the zone is a box spanning the whole cell: there a
    /// ball's centre is drawn over the whole length, and the ball may lie across a face (its
    /// images are clear of every ball too).
    #[serde(default)]
    pub wraps: [bool; 3],
    /// Material index.
    pub material: usize,
    /// How fast.
    pub rate: Rate,
    /// Stop after this many balls (None: no limit).
    pub count: Option<u64>,
    /// Time of the first ball, s.
    pub start: Real,
    /// No ball after this time, s (None: no end).
    pub stop: Option<Real>,
    /// The radii.
    pub radii: Radii,
    /// Initial velocity, m/s.
    pub vel: Vec3,
    /// Seed of the stream of radii and positions.
    pub seed: u64,
}

/// Cycles an insertion waits after its zone had no room before it tries again.
pub const RETRY_CYCLES: u64 = 100;

/// Random positions tried for one ball before its zone counts as full for now.
pub const ATTEMPTS: u32 = 200;

/// An insertion and what it has done.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Insert {
    /// What it does.
    pub spec: InsertSpec,
    /// The stream of radii and positions.
    rng: SplitMix64,
    /// The radius of the next ball, drawn once and kept until it is placed (a ball that does
    /// not fit is not replaced by a smaller one: the distribution stays what was asked).
    next_radius: Option<Real>,
    /// Balls placed.
    pub placed: u64,
    /// Their mass, kg.
    pub placed_mass: Real,
    /// The first cycle at which to try again after the zone had no room.
    retry_at: u64,
    /// Balls (or, at a mass rate, kilograms) due but not placed at the last attempt.
    pub pending: Real,
    /// The radius of every ball placed, in order, m (what the distribution gave).
    pub radii_placed: Vec<Real>,
}

impl Insert {
    /// An insertion that has placed nothing yet.
    pub fn new(spec: InsertSpec) -> Insert {
        let rng = SplitMix64::new(spec.seed);
        Insert {
            spec,
            rng,
            next_radius: None,
            placed: 0,
            placed_mass: 0.0,
            retry_at: 0,
            pending: 0.0,
            radii_placed: Vec::new(),
        }
    }

    /// True when it will place no more balls.
    pub fn finished(&self, time: Real) -> bool {
        self.spec.count.is_some_and(|n| self.placed >= n)
            || self.spec.stop.is_some_and(|s| time > s)
    }

    /// True when one more ball is due at `time`: fewer placed than the rate has made due
    /// (balls: `floor(rate (t - start)) + 1`; mass: less mass placed than `rate (t - start)`;
    /// at once: fewer than `count`), within `count` and before `stop`.
    pub fn wants(&self, time: Real) -> bool {
        let s = &self.spec;
        if time < s.start || self.finished(time) {
            return false;
        }
        match s.rate {
            Rate::Balls(_) => self.placed < self.due_by(time),
            Rate::Mass(rate) => self.placed_mass < rate * (time - s.start),
            Rate::AtOnce => true,
        }
    }

    /// Balls a rate in balls has made due by `time`, placed or not.
    fn due_by(&self, time: Real) -> u64 {
        let Rate::Balls(rate) = self.spec.rate else {
            return self.spec.count.unwrap_or(0);
        };
        // (the allowance keeps a rate times a time that is a whole number of balls at that
        // number despite round-off)
        let total = (rate * (time - self.spec.start) + 1e-9).floor() as u64 + 1;
        self.spec.count.map_or(total, |n| total.min(n))
    }

    /// True when the insertion should try to place balls at `time` and `cycle`: some are due
    /// and its zone was not found full in the last [`RETRY_CYCLES`] cycles.
    pub fn should_try(&self, time: Real, cycle: u64) -> bool {
        cycle >= self.retry_at && self.wants(time)
    }

    /// Updates [`Insert::pending`] for `time`: balls due and not placed (at a mass rate,
    /// kilograms).
    pub fn update_pending(&mut self, time: Real) {
        let s = &self.spec;
        // (after `stop`, what was due at `stop` and never placed stays pending)
        let t = s.stop.map_or(time, |stop| time.min(stop));
        self.pending = if t < s.start {
            0.0
        } else {
            match s.rate {
                Rate::Mass(rate) => (rate * (t - s.start) - self.placed_mass).max(0.0),
                _ => self.due_by(t).saturating_sub(self.placed) as Real,
            }
        };
    }

    /// The radius of the next ball (drawn when needed).
    pub fn next_radius(&mut self) -> Real {
        let (radii, rng) = (&self.spec.radii, &mut self.rng);
        *self.next_radius.get_or_insert_with(|| radii.draw(rng))
    }

    /// A random centre for a ball of radius `r` wholly inside the zone (along the axes the
    /// zone wraps, anywhere along the cell).
    pub fn next_position(&mut self, r: Real) -> Option<Vec3> {
        let u = [
            self.rng.next_unit(),
            self.rng.next_unit(),
            self.rng.next_unit(),
        ];
        let mut p = self.spec.zone.sample_inside(r, u)?;
        if let Zone::Box { min, max } = &self.spec.zone {
            for k in (0..3).filter(|&k| self.spec.wraps[k]) {
                p[k] = min[k] + u[k] * (max[k] - min[k]);
            }
        }
        Some(p)
    }

    /// Counts the ball just placed (of mass `mass`).
    pub fn placed_one(&mut self, mass: Real) {
        if let Some(r) = self.next_radius.take() {
            self.radii_placed.push(r);
        }
        self.placed += 1;
        self.placed_mass += mass;
    }

    /// The zone had no room at `cycle`: wait [`RETRY_CYCLES`].
    pub fn full(&mut self, cycle: u64) {
        self.retry_at = cycle + RETRY_CYCLES;
    }
}

/// An outlet: balls whose centre enters its zone are removed.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Outlet {
    /// Unique name (series `outlet/<name>/...`).
    pub name: String,
    /// Where balls leave.
    pub zone: Zone,
    /// Balls removed.
    pub count: u64,
    /// Their mass, kg.
    pub mass: Real,
}

/// Every insertion and outlet of a model, and the energy they moved.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Flow {
    /// The insertions, in the case's order.
    pub inserts: Vec<Insert>,
    /// The outlets, in the case's order.
    pub outlets: Vec<Outlet>,
    /// Kinetic and potential energy brought by inserted balls, less the kinetic, potential
    /// and strain energy taken away by removed balls, J (`energy/exchanged`).
    pub exchanged: Real,
    /// The id of the next inserted ball.
    pub next_id: u64,
}

impl Flow {
    /// True when balls can enter or leave.
    pub fn is_active(&self) -> bool {
        !self.inserts.is_empty() || !self.outlets.is_empty()
    }
}
