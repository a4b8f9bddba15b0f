//! A case's run cut over ranks ([`Ranked`]): each rank cycles its part of the model
//! ([`crate::cycle::Rank`]), and the whole model is gathered on every rank
//! ([`crate::cycle::Rank::gather`]) wherever something reads it: a record of the series, the
//! blow-up watch, a checkpoint, a VTK file, the end; after every cycle when the checks'
//! probes watch each one or a solve ratio ends the run. So the outputs are those of one
//! process, bit for bit. Rank 0 writes them; every rank takes the same decisions from the
//! same whole model.

use crate::case::CaseError;
use crate::comm::Comm;
use crate::cycle::Rank;
use crate::model::{Model, ModelError};

/// What a run over ranks cannot do yet, as the case key and the reason: a stage from a
/// checkpoint (`from`).
pub(super) fn refuse(from: bool) -> Result<(), (&'static str, String)> {
    if from {
        return Err((
            "--from",
            "a run over ranks cannot start from a checkpoint yet (run this stage in one process)"
                .into(),
        ));
    }
    Ok(())
}

/// Why `case` cannot run over ranks yet, in words (its run is set up to see: the model with
/// the energy books its series read); None when it can, or when it cannot be set up (the run
/// says why).
pub fn why_not_ranked(case: &crate::case::Case) -> Option<String> {
    let setup = super::setup::Setup::new(case, (None, &[]), None, None, |_| Vec::<()>::new());
    setup.ok()?.model.refuse_for_ranks().err()
}

/// A rank's part of a run and its place among the ranks.
pub(super) struct Ranked<'r> {
    part: Model,
    rank: Rank<'r>,
}

impl<'r> Ranked<'r> {
    /// Cuts `model` (built the same on every rank from the case, or read from a checkpoint)
    /// over the ranks of `comm` into the bricks of `[parallel] decomposition` (default:
    /// [`Model::choose_bricks`]), the cuts moving when the imbalance passes
    /// `rebalance` ([`Rank::rebalance`]), primes the parts (a model read from a
    /// checkpoint is primed already), and returns them with the whole model gathered (None
    /// for a model read: the whole is `model` itself).
    ///
    /// # Errors
    /// A decomposition that does not fit the number of ranks, what cannot be cut over ranks
    /// yet (as a [`CaseError`] of `file`); a blow-up while priming, as a sentence.
    pub fn cut(
        model: &Model,
        comm: &'r dyn Comm,
        (decomposition, rebalance): (Option<[usize; 3]>, crate::math::Real),
        file: &str,
    ) -> Result<(Ranked<'r>, Option<Model>, Option<String>), CaseError> {
        let size = comm.size();
        let count = decomposition.unwrap_or_else(|| model.choose_bricks(size));
        if count.iter().product::<usize>() != size {
            let [x, y, z] = count;
            return Err(CaseError::new(
                file,
                "parallel.decomposition",
                format!("[{x}, {y}, {z}] is {} bricks for {size} ranks: their product must be the number of ranks (mpirun -np)", x * y * z),
            ));
        }
        let (part, rank) = (model.clone().ranked(comm, count))
            .map_err(|e| CaseError::new(file, "mpirun", format!("{e} (run it in one process)")))?;
        let mut ranked = Ranked { part, rank };
        ranked.rank.rebalance = rebalance;
        if model.primed {
            return Ok((ranked, None, None));
        }
        let primed = ranked.part.prime_on_rank(&mut ranked.rank);
        let error = ranked.agree(primed);
        let whole = ranked.gather();
        Ok((ranked, Some(whole), error))
    }

    /// One cycle of this rank's part; `whole`'s clock follows it. On a blow-up, the message of
    /// the rank that names the body, the same on every rank.
    pub fn cycle(&mut self, whole: &mut Model) -> Result<(), String> {
        let r = self.part.cycle_on_rank(&mut self.rank);
        whole.time = self.part.time;
        whole.cycles = self.part.cycles;
        whole.last_dt = self.part.last_dt;
        whole.dt_limit = self.part.dt_limit;
        match self.agree(r) {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// Goes on from `whole` (the model gathered, through a checkpoint's bytes and back: the
    /// restart proof), cut again into the same bricks.
    pub fn restart(&mut self, whole: &Model) {
        self.part = self.rank.recut(whole.clone());
    }

    /// The whole model now.
    pub fn gather(&self) -> Model {
        self.rank.gather(&self.part)
    }

    /// True on every rank when `b` is on any.
    pub fn any(&self, b: bool) -> bool {
        self.rank.comm.any(b)
    }

    /// How the run was cut and how the cuts moved (every rank calls it together).
    pub fn summary(&self) -> crate::record::RanksSummary {
        let r = &self.rank;
        crate::record::RanksSummary {
            ranks: r.size(),
            bricks: r.bricks.count,
            cuts: r.bricks.cuts.clone(),
            moves: r.rebalanced.clone(),
            imbalance: r.imbalance(),
            rebalance: r.rebalance,
        }
    }

    /// True on rank 0, the one that writes the outputs.
    pub fn root(&self) -> bool {
        self.rank.rank() == 0
    }

    /// The error of `r` on the rank of lowest number that names its cause (not
    /// [`ModelError::OtherRank`]), on every rank; None when every rank went on.
    fn agree(&self, r: Result<(), ModelError>) -> Option<String> {
        let mine = match &r {
            Ok(()) => Vec::new(),
            Err(ModelError::OtherRank { .. }) => vec![0],
            Err(e) => {
                let mut v = vec![1];
                v.extend(e.to_string().bytes());
                v
            }
        };
        let all = self.rank.comm.gather_all(mine);
        let named = all.iter().find(|m| m.first() == Some(&1));
        match named {
            Some(m) => Some(String::from_utf8_lossy(&m[1..]).into_owned()),
            None => all.iter().any(|m| !m.is_empty()).then(|| {
                r.err()
                    .map_or_else(|| "another rank stopped the run".into(), |e| e.to_string())
            }),
        }
    }
}
