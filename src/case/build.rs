//! What a validated case gives: its model (built anew for each run), its dimension, its fixed
//! timestep and number of steps.

use super::{Case, CaseError};
use crate::detect::SortOrder;
use crate::math::Real;
use crate::model::{Model, Settings};
use crate::timestep::TimestepMode;
use std::path::Path;

impl Case {
    /// 3 (spheres) or 2 (disks).
    pub fn dim(&self) -> usize {
        if self.file.dim == Some(2) {
            2
        } else {
            3
        }
    }

    /// The timestep of a fixed-step run, s (`None` when the timestep varies).
    pub fn fixed_dt(&self) -> Option<Real> {
        match self.timestep {
            TimestepMode::Fixed(dt) => Some(dt),
            _ => None,
        }
    }

    /// Number of cycles for a run with timestep `dt`.
    pub fn steps_for(&self, dt: Real) -> u64 {
        match (self.file.run.steps, self.file.run.duration) {
            (Some(s), _) => s,
            // NOTE: the tolerance keeps 0.1 / 1e-3 at exactly 100 cycles despite round-off.
            (None, Some(d)) => ((d / dt) - 1e-9).ceil().max(1.0) as u64,
            (None, None) => 1,
        }
    }

    /// Number of cycles the run will have, when it is known before it runs: `steps`, or the
    /// duration over a fixed timestep (`dt` overrides the case's); None when the timestep
    /// varies.
    pub fn cycles(&self, dt: Option<Real>) -> Option<u64> {
        let fixed = dt.or(self.fixed_dt());
        match (self.file.run.steps, self.file.run.duration, fixed) {
            (Some(s), _, _) => Some(s),
            (None, Some(_), Some(d)) => Some(self.steps_for(d)),
            _ => None,
        }
    }

    /// Builds a fresh model of the case, optionally with another fixed timestep.
    ///
    /// # Errors
    /// A model-level problem, such as a pair of materials that can meet without a contact model.
    pub fn build_model(&self, dt: Option<Real>) -> Result<Model, CaseError> {
        let f = self.path.display().to_string();
        let timestep = match dt {
            Some(dt) => TimestepMode::Fixed(dt),
            None => self.timestep.clone(),
        };
        let mut model = Model::new(Settings {
            gravity: self.gravity,
            margin: self.margin,
            timestep,
            frame: self.frame,
        });
        if self.dim() == 2 {
            model.set_planar();
        }
        model.balls.cell = self.cell.clone();
        model.sort_every = self.file.run.sort_every.unwrap_or(0);
        // (checked when the case was read)
        model.sort_order = (self.file.run.sort_order.as_deref())
            .and_then(SortOrder::parse)
            .unwrap_or_default();
        for m in &self.materials {
            model.add_material(m.clone());
        }
        for (k, (a, b, law)) in self.contact_models.iter().enumerate() {
            model.set_contact_law(*a, *b, law.clone(), (self.rolling[k], self.cohesion[k]));
        }
        let pebbles: usize = self.clumps.iter().map(|c| c.pebbles.len()).sum();
        model.balls.make_room(self.balls.len() + pebbles);
        model.ids.reserve(self.balls.len() + self.clumps.len());
        for b in &self.balls {
            model
                .add_ball(b)
                .map_err(|e| CaseError::new(&f, format!("ball id {}", b.id), e.to_string()))?;
        }
        for (k, c) in self.clumps.iter().enumerate() {
            model.add_clump(c).map_err(|e| {
                let reason = match e {
                    crate::model::ModelError::BadClump { reason, .. } => reason,
                    e => e.to_string(),
                };
                CaseError::new(&f, format!("clump[{}] (id {})", k + 1, c.id), reason)
            })?;
        }
        for w in &self.walls {
            model.add_wall(w).map_err(|e| {
                let reason = match e {
                    crate::model::ModelError::BadWall { reason, .. } => reason,
                    e => e.to_string(),
                };
                CaseError::new(&f, format!("wall \"{}\"", w.name), reason)
            })?;
        }
        for i in &self.inserts {
            model
                .add_insert(i.clone())
                .map_err(|e| CaseError::new(&f, format!("insert \"{}\"", i.name), e.to_string()))?;
        }
        for (name, zone) in &self.outlets {
            model
                .add_outlet(name, zone.clone())
                .map_err(|e| CaseError::new(&f, format!("outlet \"{name}\""), e.to_string()))?;
        }
        model.measures = self.measures.clone();
        model
            .check_contact_models()
            .map_err(|e| CaseError::new(&f, "contact", e.to_string()))?;
        model.make_room();
        Ok(model)
    }

    /// The directory of the case file (other files are relative to it).
    pub fn dir(&self) -> &Path {
        self.path.parent().unwrap_or(Path::new("."))
    }
}
