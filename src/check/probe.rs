//! Probes: what watches a run cycle by cycle for a check (a collision, a critical-timestep
//! snapshot, active wall contacts, the turn of a vector, the radii an insertion placed), as
//! [`Observer`]s of the run loop. Each kind keeps its probe's state in a type of its own
//! ([`ProbeState`]); a [`Probe`] holds one, whatever its kind.

use crate::model::Model;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::any::Any;
use std::fmt::Debug;

/// Something that watches a run cycle by cycle (a check's probe): it sees the model once
/// before the first cycle and after every cycle. The run loop (`crate::run`) calls it; it is
/// defined here, below the case grammar, because the checks' probes are observers.
pub trait Observer {
    /// Looks at the model.
    fn observe(&mut self, model: &Model);
    /// False when it looks at nothing (a run over ranks then gathers the whole model only
    /// where its outputs read it, not after every cycle).
    fn watches(&self) -> bool {
        true
    }
    /// Its state, for a checkpoint (nothing, for an observer without one).
    fn save(&self) -> Vec<u8> {
        Vec::new()
    }
    /// Takes back the state [`Observer::save`] gave.
    ///
    /// # Errors
    /// Bytes it cannot read, as a sentence.
    fn load(&mut self, bytes: &[u8]) -> Result<(), String> {
        let _ = bytes;
        Ok(())
    }
}

/// No observer.
impl Observer for () {
    fn observe(&mut self, _: &Model) {}
    fn watches(&self) -> bool {
        false
    }
}

/// An observer that may be absent.
impl<O: Observer> Observer for Option<O> {
    fn observe(&mut self, model: &Model) {
        if let Some(o) = self {
            o.observe(model);
        }
    }
    fn watches(&self) -> bool {
        self.as_ref().is_some_and(O::watches)
    }
    fn save(&self) -> Vec<u8> {
        self.as_ref().map(O::save).unwrap_or_default()
    }
    fn load(&mut self, bytes: &[u8]) -> Result<(), String> {
        match self {
            Some(o) => o.load(bytes),
            None => Ok(()),
        }
    }
}

/// The state of one kind's probe: it looks at the model after a cycle (and once before the
/// first), and a checkpoint keeps it (bincode).
pub trait ProbeState: Any + Debug + Send + Serialize + DeserializeOwned {
    /// Looks at the model after a cycle (and once before the first).
    fn observe(&mut self, model: &Model);
}

/// [`ProbeState`] without its generic parts, so that a [`Probe`] can hold any kind's.
trait Held: Debug + Send {
    fn observe(&mut self, model: &Model);
    fn save(&self) -> Vec<u8>;
    fn load(&mut self, bytes: &[u8]) -> Result<(), String>;
    fn as_any(&self) -> &dyn Any;
}

impl<T: ProbeState> Held for T {
    fn observe(&mut self, model: &Model) {
        ProbeState::observe(self, model);
    }
    fn save(&self) -> Vec<u8> {
        bincode::serialize(self).unwrap_or_default()
    }
    fn load(&mut self, bytes: &[u8]) -> Result<(), String> {
        *self = bincode::deserialize(bytes).map_err(|e| format!("a check's probe: {e}"))?;
        Ok(())
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// Something that watches a run cycle by cycle for a check: one kind's [`ProbeState`].
#[derive(Debug)]
pub struct Probe(Box<dyn Held>);

impl Probe {
    /// A probe holding `state`.
    pub fn new<T: ProbeState>(state: T) -> Probe {
        Probe(Box::new(state))
    }

    /// The state, when it is a `T` (the kind that made the probe reads it back this way).
    pub fn state<T: ProbeState>(&self) -> Option<&T> {
        self.0.as_any().downcast_ref()
    }
}

impl Observer for Probe {
    fn observe(&mut self, model: &Model) {
        self.0.observe(model);
    }
    fn save(&self) -> Vec<u8> {
        self.0.save()
    }
    fn load(&mut self, bytes: &[u8]) -> Result<(), String> {
        self.0.load(bytes)
    }
}
