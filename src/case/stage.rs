//! What a checkpoint's state must share with a case to resume it (`--resume`, docs/CASES.md
//! section 15).

use crate::model::Model;

/// Refuses a checkpoint whose state cannot be a run of the case whose model (built fresh) is
/// `built`: another dimension, other materials, other walls, or (without insertions and
/// outlets) another number of pieces.
///
/// # Errors
/// What differs, as a sentence.
pub fn fits_case(state: &Model, built: &Model) -> Result<(), String> {
    let differs = |what: &str, a: String, b: String| {
        Err(format!(
            "its state does not fit this case ({what}: {a} in the checkpoint, {b} in the case)"
        ))
    };
    let names = |m: &Model| -> Vec<String> {
        let mut v: Vec<String> = m.materials.iter().map(|x| x.name.clone()).collect();
        v.extend(m.walls.iter().map(|w| format!("wall {}", w.name)));
        v
    };
    if state.planar != built.planar {
        let dim = |m: &Model| if m.planar { "2" } else { "3" }.to_string();
        return differs("dim", dim(state), dim(built));
    }
    if names(state) != names(built) {
        return differs(
            "materials and walls",
            names(state).join(", "),
            names(built).join(", "),
        );
    }
    let pieces = |m: &Model| (m.balls.len(), m.clumps.len());
    let fixed = built.flow.inserts.is_empty() && built.flow.outlets.is_empty();
    if fixed && pieces(state) != pieces(built) {
        let show = |(b, c): (usize, usize)| match c {
            0 => format!("{b} balls"),
            c => format!("{b} balls and pebbles, {c} clumps"),
        };
        return differs("bodies", show(pieces(state)), show(pieces(built)));
    }
    Ok(())
}
