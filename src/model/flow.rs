//! The model's insertions and outlets: adding them (the stage that applies them each cycle is
//! [`crate::flow::Exchange`]).

use super::{Model, ModelError};
use crate::flow::{Insert, InsertSpec, Outlet};
use crate::geom::Zone;
use crate::math::Real;

impl Model {
    /// Adds an insertion; returns its index.
    ///
    /// # Errors
    /// [`ModelError::BadFlow`]: a repeated name, an unknown material, the 2D mode, or a zone
    /// in which the largest radius does not fit.
    pub fn add_insert(&mut self, spec: InsertSpec) -> Result<usize, ModelError> {
        let bad = |reason: String| ModelError::BadFlow {
            name: spec.name.clone(),
            reason,
        };
        if self.planar {
            return Err(bad("insertion is 3D only".into()));
        }
        if self.flow.inserts.iter().any(|i| i.spec.name == spec.name) {
            return Err(bad("the name is used by another insertion".into()));
        }
        if spec.material >= self.materials.len() {
            return Err(bad(format!("unknown material index {}", spec.material)));
        }
        let r_max = spec.radii.range().1;
        if !spec.zone.fits(r_max) {
            return Err(bad(format!(
                "a ball of the largest radius {r_max:e} m does not fit in the region"
            )));
        }
        self.flow.inserts.push(Insert::new(spec));
        self.primed = false;
        Ok(self.flow.inserts.len() - 1)
    }

    /// Adds an outlet; returns its index.
    ///
    /// # Errors
    /// [`ModelError::BadFlow`]: a repeated name, or a model with clumps (an outlet removes
    /// balls; a clump is not removed).
    pub fn add_outlet(&mut self, name: &str, zone: Zone) -> Result<usize, ModelError> {
        let bad = |reason: &str| ModelError::BadFlow {
            name: name.into(),
            reason: reason.into(),
        };
        if self.flow.outlets.iter().any(|o| o.name == name) {
            return Err(bad("the name is used by another outlet"));
        }
        if !self.clumps.is_empty() {
            return Err(bad(
                "outlets remove balls, not clumps: a model with clumps cannot have an outlet yet",
            ));
        }
        self.flow.outlets.push(Outlet {
            name: name.into(),
            zone,
            count: 0,
            mass: 0.0,
        });
        Ok(self.flow.outlets.len() - 1)
    }

    /// Number of balls (pebbles are not balls), and their mass, kg.
    pub fn ball_count_and_mass(&self) -> (usize, Real) {
        let b = &self.balls;
        let balls = (0..b.len()).filter(|&i| !b.is_pebble(i));
        (
            balls.clone().count(),
            crate::math::exact_sum(balls.map(|i| b.mass[i])),
        )
    }
}
