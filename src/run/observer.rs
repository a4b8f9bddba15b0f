//! [`Observer`]: what watches a run cycle by cycle (a check's probe).

use crate::model::Model;

/// Something that watches a run cycle by cycle (a check's probe): it sees the model once
/// before the first cycle and after every cycle.
pub trait Observer {
    /// Looks at the model.
    fn observe(&mut self, model: &Model);
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
}

/// An observer that may be absent.
impl<O: Observer> Observer for Option<O> {
    fn observe(&mut self, model: &Model) {
        if let Some(o) = self {
            o.observe(model);
        }
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
