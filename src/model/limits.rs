//! What set a timestep, in words (the case page and the summary say it).

use super::Model;
use crate::timestep::{Limit, TimestepMode};

impl Model {
    /// What set a timestep, in words, with the ball's id.
    pub fn describe_limit(&self, limit: Limit) -> String {
        let model = self;
        match limit {
            Limit::Fixed => "fixed".into(),
            Limit::Cap => match model.settings.timestep {
                TimestepMode::Scaled(_) => "the scaled timestep".into(),
                _ => "the cap (dt)".into(),
            },
            Limit::Stiffness { ball, dof } => {
                let (b, d) = (ball as usize, dof as usize);
                let what = if b >= model.balls.len() && d >= 3 {
                    format!("rotation about principal axis {}", d - 2)
                } else {
                    crate::timestep::dof_name(d).to_string()
                };
                format!("critical estimate of {} ({what})", model.body_label(b))
            }
            Limit::Kinematic { ball } => format!(
                "kinematic constraint of {}",
                model.piece_label(ball as usize)
            ),
            Limit::WallKinematic { wall } => format!(
                "kinematic constraint of wall \"{}\"",
                model
                    .walls
                    .get(wall as usize)
                    .map_or("?", |w| w.name.as_str())
            ),
            Limit::Model { a, b, wall } => {
                let mat = |m: u32| {
                    model
                        .materials
                        .get(m as usize)
                        .map_or("?", |m| m.name.as_str())
                };
                let (other, law) = if wall {
                    let w = &model.walls[b as usize];
                    (
                        format!("wall \"{}\"", w.name),
                        model.contact_model(a as usize, w.material),
                    )
                } else {
                    (
                        format!("a {} ball", mat(b)),
                        model.contact_model(a as usize, b as usize),
                    )
                };
                format!(
                    "{} formula for a {} ball and {other}",
                    law.map_or("?", |l| l.name()),
                    mat(a)
                )
            }
            Limit::OneContact { ball } => {
                format!(
                    "one-contact estimate of {} (no active contact)",
                    model.piece_label(ball as usize)
                )
            }
        }
    }
}
