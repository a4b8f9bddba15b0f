//! Probes: what watches a run cycle by cycle for a check (a collision, a critical-timestep
//! snapshot, active wall contacts, the turn of a vector), as observers of the run loop.

use super::collision::{Body, CollisionProbe};
use super::critical::CriticalProbe;
use super::walls;
use crate::case::{CheckSpec, Other};
use crate::model::Model;
use crate::run::Observer;

/// The probe that must watch the run cycle by cycle for check `spec`, if it needs one.
pub fn probe(spec: &CheckSpec, model: &Model) -> Option<Probe> {
    match spec {
        CheckSpec::Collision { ball, other, .. } => {
            let other = match other {
                Other::Ball(id) => Body::Ball(model.ball_index(*id)?),
                Other::Wall(w) => Body::Wall(model.wall_index(w)?),
            };
            Some(Probe::Collision(CollisionProbe::new(
                model.ball_index(*ball)?,
                other,
            )))
        }
        CheckSpec::ActiveCount {
            ball,
            wall,
            schedule,
        } => Some(Probe::Active(walls::ActiveProbe::new(
            model.ball_index(*ball)?,
            model.wall_index(wall)?,
            schedule.clone(),
        ))),
        CheckSpec::MaxTurn { series, .. } => Some(Probe::Turn(walls::TurnProbe::new(
            crate::output::Source::parse(series, model).ok()?,
        ))),
        CheckSpec::CriticalTimestep(c) => Some(Probe::Critical(CriticalProbe::new(c.at_step))),
        CheckSpec::RadiusDistribution { insert, .. } => Some(Probe::Radii(super::RadiiProbe::new(
            model
                .flow
                .inserts
                .iter()
                .position(|i| &i.spec.name == insert)?,
        ))),
        _ => None,
    }
}

/// Something that watches a run cycle by cycle for a check.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub enum Probe {
    /// Watches a collision.
    Collision(CollisionProbe),
    /// Takes the critical-timestep snapshot.
    Critical(CriticalProbe),
    /// Counts active ball-wall contacts.
    Active(walls::ActiveProbe),
    /// Follows the direction of a vector series.
    Turn(walls::TurnProbe),
    /// Keeps the radii an insertion placed.
    Radii(super::RadiiProbe),
}

impl Probe {
    /// Looks at the model after a cycle (and once before the first).
    pub fn observe(&mut self, model: &Model) {
        match self {
            Probe::Collision(p) => p.observe(model),
            Probe::Critical(p) => p.observe(model),
            Probe::Active(p) => p.observe(model),
            Probe::Turn(p) => p.observe(model),
            Probe::Radii(p) => p.observe(model),
        }
    }
}

impl Observer for Probe {
    fn observe(&mut self, model: &Model) {
        Probe::observe(self, model);
    }
    fn save(&self) -> Vec<u8> {
        bincode::serialize(self).unwrap_or_default()
    }
    fn load(&mut self, bytes: &[u8]) -> Result<(), String> {
        *self = bincode::deserialize(bytes).map_err(|e| format!("a check's probe: {e}"))?;
        Ok(())
    }
}
