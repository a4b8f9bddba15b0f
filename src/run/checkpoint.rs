//! Checkpoints: a run's whole state at the end of a cycle, in a versioned binary file that
//! names its case file by a hash (docs/CASES.md, section 15). A run resumed from one goes on
//! bit for bit as the run that wrote it would have: the model (balls, clumps, walls and their
//! motion, every contact with its history and frame, the positions of the last build of the
//! candidate pairs, the timestep state, the energy books), the series recorded so far, the timestep statistics, the blow-up watch
//! and the checks' probes.
//!
//! The file: the 19 bytes `BALLAST-CHECKPOINT\n`, then little-endian u32 format version, u64
//! hash of the case file's text, u64 cycle, u64 payload length, the payload (bincode), and u64
//! FNV-1a hash of everything before it (header and payload: a header rewritten by hand no
//! longer matches). A file from another case, another format, cut short, damaged or with bytes
//! after its hash is refused with the reason.

use crate::check::Observer;
use crate::cycle::Watch;
use crate::math::Real;
use crate::model::Model;
use crate::output::{Recorder, SeriesTable};
use crate::record::DtStats;
use crate::storage::fnv1a;
use crate::timestep::Limit;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The format version this ballast writes and reads (2: contact frames and ball-facet contacts
/// carry the couples of rolling resistance; 3: rolling resistance carries its twisting
/// coefficient, cohesion may be JKR; 4: a contact frame keeps its axes, its normal
/// displacement and the rolling spring, not the sums of its displacement increments; 5: a
/// contact frame keeps its normal and first tangential axis, the second being their cross
/// product; 6: the automatic timestep's settings carry `every`; 7: each check's probe saves its
/// own state, without the number of its kind in the former list of probes; 8: the closing hash
/// covers the header too, the state names the cycle and time its stage started from, and
/// the ids in use are written sorted; 9: the balls carry their periodic cell and the model
/// the jumps of the bodies brought back into it; 10: the cell carries its pressure control;
/// 11: the energy books carry the power of the pressure control's remap;
/// 12: a wall says whether it is an imaged plane; 13: the broad phase keeps the cell's offset
/// and the largest radius of its last build, for its test relative to the cell's affine motion;
/// 14: the work arrays are left out (the broad phase's grid, cells and candidate pairs of its
/// last build, the merges' plans, the threads' split of the contact list and its copies of the
/// crossing contacts, the renumbering's arrays): each is made again before it is read, and a
/// run cut over ranks holds its own, so that its checkpoints are the bytes of one process; an
/// interaction keeps what the full mode did in it; 15: the timestep's per-DOF stiffness
/// rows are left out, work arrays made in the cycle that reads them).
pub const FORMAT: u32 = 15;

const MAGIC: &[u8; 19] = b"BALLAST-CHECKPOINT\n";

/// Bytes before the payload.
const HEAD: usize = 19 + 4 + 8 + 8 + 8;

/// What a run is at the end of a cycle.
#[derive(serde::Serialize, serde::Deserialize)]
pub struct RunState {
    /// Cycles run.
    pub step: u64,
    /// Record every this many cycles (None until the first cycle fixes it).
    pub every: Option<u64>,
    /// The model.
    pub model: Model,
    /// The series recorded so far.
    pub table: SeriesTable,
    /// Timestep statistics so far.
    pub dt: DtStats,
    /// What set the timestep, and in how many cycles.
    pub limits: Vec<(Limit, u64)>,
    /// The blow-up watch.
    pub watch: Watch,
    /// Each observer's state, as it saved it.
    pub observers: Vec<Vec<u8>>,
    /// The cycle and time this stage of the run started from: (0, 0) from the case's start,
    /// the checkpoint's with `--from` (the run's length is counted from there).
    pub stage: (u64, Real),
}

/// [`RunState`] borrowed, to write without copying the model (the same fields in the same
/// order: bincode reads it back as a [`RunState`]).
#[derive(serde::Serialize)]
pub struct RunStateRef<'a> {
    /// Cycles run.
    pub step: u64,
    /// Record every this many cycles.
    pub every: Option<u64>,
    /// The model.
    pub model: &'a Model,
    /// The series recorded so far.
    pub table: &'a SeriesTable,
    /// Timestep statistics so far.
    pub dt: &'a DtStats,
    /// What set the timestep, and in how many cycles.
    pub limits: Vec<(Limit, u64)>,
    /// The blow-up watch.
    pub watch: &'a Watch,
    /// Each observer's state.
    pub observers: Vec<Vec<u8>>,
    /// The cycle and time this stage started from.
    pub stage: (u64, Real),
}

/// The bytes of a checkpoint of `state` for the case whose text hashes to `case`.
///
/// # Errors
/// A state that cannot be encoded, as a sentence.
pub fn encode(state: &RunStateRef, case: u64) -> Result<Vec<u8>, String> {
    let payload = bincode::serialize(state).map_err(|e| format!("cannot encode the state: {e}"))?;
    let mut out = Vec::with_capacity(HEAD + payload.len() + 8);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&FORMAT.to_le_bytes());
    out.extend_from_slice(&case.to_le_bytes());
    out.extend_from_slice(&state.step.to_le_bytes());
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(&payload);
    let hash = fnv1a(&out);
    out.extend_from_slice(&hash.to_le_bytes());
    Ok(out)
}

/// The little-endian u64 at offset `o` of `bytes` (the caller checked the length).
fn u64_at(bytes: &[u8], o: usize) -> u64 {
    let mut b = [0u8; 8];
    b.copy_from_slice(&bytes[o..o + 8]);
    u64::from_le_bytes(b)
}

/// The cycle and payload length of checkpoint `bytes` when its header fits this format and
/// (with `case`) the case whose text hashes to `case`, its length is the header's, and its
/// closing hash matches.
fn check_bytes(bytes: &[u8], case: Option<u64>) -> Result<(u64, u64), String> {
    let (cycle, len) = decode_header(bytes, bytes.len() as u64, case)?;
    let end = HEAD + len as usize;
    if u64_at(bytes, end) != fnv1a(&bytes[..end]) {
        return Err(format!(
            "damaged: the header and state of cycle {cycle} do not match their hash (changed \
             after ballast wrote them)"
        ));
    }
    Ok((cycle, len))
}

/// The state in checkpoint `bytes`, when it was written by this format for the case whose text
/// hashes to `case` (any case, for `None`: `--from`).
///
/// # Errors
/// Not a checkpoint, another format version, another case, cut short or damaged: the reason.
pub fn decode(bytes: &[u8], case: Option<u64>) -> Result<RunState, String> {
    let (cycle, len) = check_bytes(bytes, case)?;
    let payload = &bytes[HEAD..HEAD + len as usize];
    let state: RunState = bincode::deserialize(payload).map_err(|e| format!("damaged: {e}"))?;
    if state.step != cycle {
        return Err(format!(
            "damaged: the header says cycle {cycle}, the state {}",
            state.step
        ));
    }
    Ok(state)
}

/// Writes the checkpoint of `state` to `<out>/checkpoints/cycle_<N>.ckpt` (whole or not at
/// all); returns its path.
///
/// # Errors
/// I/O errors, as a sentence.
pub fn write(out: &Path, state: &RunStateRef, case: u64) -> Result<PathBuf, String> {
    let dir = out.join("checkpoints");
    let path = dir.join(format!("cycle_{}.ckpt", state.step));
    let bytes = encode(state, case)?;
    std::fs::create_dir_all(&dir)
        .and_then(|_| crate::storage::write_atomic(&path, bytes))
        .map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(path)
}

/// Checks the checkpoint at `path` without decoding its state (the header, the length and the
/// closing hash): done before an output folder is cleared for the resumed run, so that a
/// wrong checkpoint loses nothing. `case`: as [`decode`].
///
/// # Errors
/// As [`read`], except a state that cannot be decoded.
pub fn check_header(path: &Path, case: Option<u64>) -> Result<(), String> {
    use std::io::Read as _;
    let at = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    let meta = std::fs::metadata(path).map_err(|e| at(&e))?;
    if !meta.is_file() {
        return Err(at(&"not a regular file"));
    }
    let mut head = vec![0u8; HEAD];
    let n = std::fs::File::open(path)
        .and_then(|f| f.take(HEAD as u64).read(&mut head))
        .map_err(|e| at(&e))?;
    head.truncate(n);
    // (the header alone, with the file's real length standing for the rest, before the
    // whole file is read)
    decode_header(&head, meta.len(), case).map_err(|e| at(&e))?;
    let bytes = read_bytes(path, meta.len())?;
    check_bytes(&bytes, case).map(|_| ()).map_err(|e| at(&e))
}

/// The cycle and payload length of a checkpoint whose first bytes are `head` and whose
/// length is `len`, when its header fits this format and case (any case for `None`) and the
/// length is the header's.
fn decode_header(head: &[u8], len: u64, case: Option<u64>) -> Result<(u64, u64), String> {
    let start = head.len().min(MAGIC.len());
    if head[..start] != MAGIC[..start] || head.is_empty() {
        return Err("not a ballast checkpoint (it does not start with BALLAST-CHECKPOINT)".into());
    }
    if head.len() < HEAD {
        return Err(format!(
            "cut short: the file has {len} bytes, less than the {HEAD} bytes of a checkpoint's \
             header"
        ));
    }
    let format = u32::from_le_bytes([head[19], head[20], head[21], head[22]]);
    if format != FORMAT {
        return Err(format!(
            "written in checkpoint format {format}; this ballast ({}) reads format {FORMAT}",
            env!("CARGO_PKG_VERSION")
        ));
    }
    let written_for = u64_at(head, 23);
    if let Some(case) = case.filter(|&c| c != written_for) {
        return Err(format!(
            "written for another case file (its text hashes to {written_for:016x}, this one's \
             to {case:016x}): a run resumes only with the case file that started it, unchanged \
             (`--from` starts a new stage from it)"
        ));
    }
    let cycle = u64_at(head, 31);
    let payload = u64_at(head, 39);
    let have = len - HEAD as u64;
    let want = payload.saturating_add(8);
    if have < want {
        return Err(format!(
            "cut short: the checkpoint of cycle {cycle} holds {payload} bytes of state and its \
             hash, the file has {have} after its header"
        ));
    }
    if have > want {
        return Err(format!(
            "{} bytes follow the end of the checkpoint of cycle {cycle} (its state and hash \
             end at byte {}): the file was appended to or joined with another",
            have - want,
            HEAD as u64 + want
        ));
    }
    Ok((cycle, payload))
}

/// The bytes of the file at `path`, of length `len`, when they fit in memory.
fn read_bytes(path: &Path, len: u64) -> Result<Vec<u8>, String> {
    crate::storage::fits(len, 4).map_err(|e| format!("{}: {len} bytes: {e}", path.display()))?;
    std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))
}

/// Checks that the checkpoint at `path` can resume `case`: [`read`] for its text's hash, and
/// a state that fits it ([`crate::case::stage::fits_case`]). Done before the output folder is
/// cleared for the resumed run, so that a wrong checkpoint loses nothing.
///
/// # Errors
/// As [`read`], and a state of another scene, as a sentence.
pub fn check_resume(path: &Path, case: &crate::case::Case) -> Result<(), String> {
    let state = read(path, Some(case.source_hash))?;
    let built = case.build_model(None).map_err(|e| e.to_string())?;
    crate::case::stage::fits_case(&state.model, &built, state.stage != (0, 0.0))
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// Reads the checkpoint at `path` for the case whose text hashes to `case` (any case for
/// `None`).
///
/// # Errors
/// A file that cannot be read, or as [`decode`].
pub fn read(path: &Path, case: Option<u64>) -> Result<RunState, String> {
    let meta = std::fs::metadata(path).map_err(|e| format!("{}: {e}", path.display()))?;
    if !meta.is_file() {
        return Err(format!("{}: not a regular file", path.display()));
    }
    let bytes = read_bytes(path, meta.len())?;
    decode(&bytes, case).map_err(|e| format!("{}: {e}", path.display()))
}

/// Puts a checkpoint's state in place (the model, the series recorded, the timestep
/// statistics and limits, each observer's state); returns its watch.
///
/// # Errors
/// A checkpoint of other series or other checks, or an observer that cannot read its state.
pub(super) fn restore<O: Observer>(
    state: RunState,
    (model, recorder, dt, limits): (
        &mut Model,
        &mut Recorder,
        &mut DtStats,
        &mut HashMap<Limit, u64>,
    ),
    observers: &mut [O],
) -> Result<Watch, String> {
    if state.table.columns != recorder.table.columns {
        return Err("its series are not the ones this case records".into());
    }
    if state.observers.len() != observers.len() {
        return Err("its checks are not the ones of this case".into());
    }
    for (o, bytes) in observers.iter_mut().zip(&state.observers) {
        o.load(bytes)?;
    }
    *model = state.model;
    recorder.table = state.table;
    *dt = state.dt;
    *limits = state.limits.into_iter().collect();
    Ok(state.watch)
}
