//! Balls leaving and entering over ranks ([`Model::exchange_on_rank`]). In a cycle where an
//! insertion tries to place balls or a ball lies in an outlet's zone, the ranks gather the
//! whole model, every rank makes one process's exchange on it (the same draws from the same
//! streams, the same balls placed and removed), and the model is cut again into the same
//! bricks ([`Rank::recut`]): the new balls go to the bricks that hold them, keyed after every
//! ball there was (one process puts them at the end). The other cycles cost a test of each
//! rank's own balls against the outlets' zones.

use super::ranks::Rank;
use crate::model::{Model, ModelError};

impl Model {
    /// Stage 0 of [`Model::cycle`] on a rank (module documentation). Every rank calls it
    /// together.
    ///
    /// # Errors
    /// As [`crate::flow::Exchange::run`], on every rank.
    pub(super) fn exchange_on_rank(&mut self, rank: &mut Rank) -> Result<(), ModelError> {
        if !self.flow.is_active() {
            return Ok(());
        }
        let (time, cycle) = (self.time, self.cycles);
        let tries = (self.flow.inserts.iter()).any(|i| i.should_try(time, cycle));
        let b = &self.balls;
        let outlets = &self.flow.outlets;
        let leaving = (0..b.len()).any(|i| {
            !rank.ghost[i] && !b.is_pebble(i) && outlets.iter().any(|o| o.zone.contains(&b.pos[i]))
        });
        if !rank.comm.any(tries || leaving) {
            // (nothing leaves or enters: the insertions' counts of balls due, the same on
            // every rank)
            self.exchange().run()?;
            return Ok(());
        }
        let mut whole = rank.gather(self);
        if whole.exchange().run()? {
            // (as [`Model::cycle`] does)
            whole.dof_stiffness.fused_at = None;
            whole.broad_phase.invalidate();
            *self = rank.recut(whole);
        } else {
            self.flow = whole.flow;
        }
        Ok(())
    }
}

impl Rank<'_> {
    /// `whole` cut again into this rank's bricks ([`Model::cut`]): its part, with this rank's
    /// ghosts, copies and keys made anew (its counts and the cuts' moves kept).
    pub fn recut(&mut self, whole: Model) -> Model {
        let (part, fresh) = whole.cut(self.comm, self.bricks.clone());
        self.halo = fresh.halo;
        self.r_max = fresh.r_max;
        self.ghost = fresh.ghost;
        self.send = fresh.send;
        self.recv = fresh.recv;
        self.key = fresh.key;
        part
    }
}
