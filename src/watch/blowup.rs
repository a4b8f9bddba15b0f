//! The blow-up checks after each cycle: a state that stops being finite, a ball that moves
//! more than its radius in one cycle (tunnelling), two pieces overlapping by more than the
//! smaller radius. Each reads the model and stops the run naming the body, the cycle and the
//! quantity.

use crate::math::{Real, Vec3};
use crate::model::{Model, ModelError};

/// Stops a run whose ball moved more than its radius in the cycle of step `dt` (it can pass
/// through other pieces).
///
/// # Errors
/// [`ModelError::Tunnelling`], naming the cycle, the body, its step and speed.
pub fn tunnelling(model: &Model, dt: Real) -> Result<(), ModelError> {
    let b = &model.balls;
    for i in 0..b.len() {
        let speed2 = b.vel[i].norm_squared();
        if speed2 * dt * dt > b.radius[i] * b.radius[i] {
            let speed = speed2.sqrt();
            return Err(ModelError::Tunnelling {
                cycle: model.cycles,
                body: model.piece_label(i),
                step: speed * dt,
                speed,
                radius: b.radius[i],
            });
        }
    }
    Ok(())
}

/// Stops a run whose state is no longer finite.
///
/// # Errors
/// [`ModelError::BlewUp`], naming the cycle, the body and the quantity.
pub fn finite(model: &Model) -> Result<(), ModelError> {
    // which of a body's position, velocity and angular velocity is not finite, if any
    let non_finite = |pos: &Vec3, vel: &Vec3, spin: &Vec3| {
        [
            (pos, "position"),
            (vel, "velocity"),
            (spin, "angular velocity"),
        ]
        .into_iter()
        .find(|(v, _)| !v.iter().all(|x| x.is_finite()))
        .map(|(_, what)| what)
    };
    let cl = &model.clumps;
    for c in 0..cl.len() {
        if let Some(what) = non_finite(&cl.pos[c], &cl.vel[c], &cl.spin[c]) {
            return Err(ModelError::BlewUp {
                cycle: model.cycles,
                body: format!("clump {}", cl.id[c]),
                what,
            });
        }
    }
    let b = &model.balls;
    for i in 0..b.len() {
        if let Some(what) = non_finite(&b.pos[i], &b.vel[i], &b.spin[i]) {
            return Err(ModelError::BlewUp {
                cycle: model.cycles,
                body: model.piece_label(i),
                what,
            });
        }
    }
    Ok(())
}

/// Stops a run in which two pieces overlap by more than the smaller radius (checked in full
/// only when the force pass saw one).
///
/// # Errors
/// [`ModelError::Interpenetration`], naming the cycle, both pieces and the overlap.
pub fn overlaps(model: &Model) -> Result<(), ModelError> {
    if !model.interpenetrating {
        return Ok(());
    }
    let b = &model.balls;
    for (k, c) in model
        .contacts
        .list
        .iter()
        .enumerate()
        .filter(|(_, c)| c.active)
    {
        let (i, j) = (c.a as usize, c.b as usize);
        let overlap = model.contacts.geometry(k, b).overlap;
        if overlap > b.radius[i].min(b.radius[j]) || !overlap.is_finite() {
            return Err(ModelError::Interpenetration {
                cycle: model.cycles,
                a: model.piece_label(i),
                b: model.piece_label(j),
                overlap,
            });
        }
    }
    Ok(())
}
