//! `[frame]` (project extension): branch vectors and approximation flags of the local contact
//! frames.

use super::{file, CaseError};
use crate::contact::FrameFlags;

/// The `[frame]` table (project extension): branch vectors and approximation flags of the
/// local contact frames.
pub(super) fn parse_frame(
    f: &str,
    fr: Option<&file::FrameSection>,
) -> Result<FrameFlags, CaseError> {
    let mut flags = FrameFlags::default();
    let Some(fr) = fr else { return Ok(flags) };
    flags.no_ratch = fr.no_ratch.unwrap_or(false);
    for (k, a) in fr.approximations.iter().flatten().enumerate() {
        match a.as_str() {
            "previous_normal" => flags.previous_normal = true,
            "previous_transform" => flags.previous_transform = true,
            "no_renormalize" => flags.no_renormalize = true,
            "no_twist" => flags.no_twist = true,
            other => {
                return Err(CaseError::new(
                    f,
                    format!("frame.approximations[{}]", k + 1),
                    format!("unknown approximation \"{other}\" (expected previous_normal, previous_transform, no_renormalize, no_twist)"),
                ))
            }
        }
    }
    Ok(flags)
}
