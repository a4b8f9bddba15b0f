//! What a run is given besides its case ([`Control`]) and what it leaves ([`Simulation`]).

use crate::math::Real;
use crate::model::Model;
use crate::output::SeriesTable;
use crate::record::DtStats;
use std::path::Path;

/// Where a run keeps its checkpoints and where it resumes from.
#[derive(Clone, Copy, Debug, Default)]
pub struct Control<'a> {
    /// The output folder: checkpoints go to its `checkpoints/` (every `[output]
    /// checkpoint_every` cycles, at the end when that is set, and on an interrupt). None: no
    /// checkpoint is written.
    pub out_dir: Option<&'a Path>,
    /// Resume from this checkpoint instead of starting at cycle 0.
    pub resume: Option<&'a Path>,
    /// Start from this checkpoint's state (of any case) as a new stage of the run
    /// (`ballast run NEXT.toml --from CKPT`).
    pub from: Option<&'a Path>,
    /// Run over these ranks (each calls the run together; module `ranked`): the outputs are
    /// those of one process, bit for bit, and rank 0 writes the files.
    pub comm: Option<&'a dyn crate::comm::Comm>,
}

/// A finished (or stopped) run, with the observers that watched it.
pub struct Simulation<O = ()> {
    /// Recorded series.
    pub table: SeriesTable,
    /// The model at the end.
    pub model: Model,
    /// Timestep statistics.
    pub dt: DtStats,
    /// Wall-clock seconds.
    pub wall_seconds: Real,
    /// The observers that watched the run, in the order given.
    pub observers: Vec<O>,
    /// Why the run stopped early (blow-up), if it did.
    pub error: Option<String>,
    /// Why the run stopped before its last step without an error (solve ratio), if it did.
    pub stopped: Option<String>,
    /// True when SIGINT/SIGTERM stopped the run ([`super::interrupt`]); `error` then says at
    /// which cycle, and the series hold every record up to it and that cycle's state.
    pub interrupted: bool,
    /// A run over ranks: how it was cut and how the cuts moved (None in one process).
    pub ranks: Option<crate::record::RanksSummary>,
}
