//! The `active_count` check: the number of active contacts between a ball and a wall at every
//! cycle (records may be too coarse) against the expected count: one integer, or a schedule
//! of `[from_time, count]` pairs.

use super::context::Context;
use super::keys::{ball_of, read, wall_of};
use super::kind::{Built, CheckKind};
use super::probe::{Probe, ProbeState};
use crate::math::num;
use crate::math::Real;
use crate::model::Model;
use crate::record::CheckOutcome;
use serde::Deserialize;

/// `active_count`: the active contacts of a ball and a wall at every cycle.
#[derive(Clone, Debug, PartialEq)]
pub struct ActiveCount {
    /// Ball id.
    ball: u64,
    /// Wall name.
    wall: String,
    /// Expected count from each time on: (from_time s, count), increasing times.
    schedule: Vec<(Real, u32)>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Keys {
    ball: u64,
    wall: String,
    expected: toml::Value,
}

impl CheckKind for ActiveCount {
    fn parse(_: &str, keys: toml::Value) -> Result<Self, String> {
        let a: Keys = read(keys)?;
        Ok(ActiveCount {
            schedule: schedule(&a.expected)?,
            ball: a.ball,
            wall: a.wall,
        })
    }

    fn kind(&self) -> &'static str {
        "active_count"
    }

    fn follows_a_ball(&self) -> bool {
        true
    }

    fn validate(&self, built: &Built) -> Result<(), String> {
        ball_of(built.model, self.ball)?;
        wall_of(built.model, &self.wall).map(drop)
    }

    fn probe(&self, model: &Model) -> Option<Probe> {
        Some(Probe::new(ActiveProbe::new(
            model.ball_index(self.ball)?,
            model.wall_index(&self.wall)?,
            self.schedule.clone(),
        )))
    }

    fn evaluate(&self, _: &Context, probe: Option<&Probe>, out: &mut CheckOutcome) {
        match probe.and_then(Probe::state::<ActiveProbe>) {
            Some(p) => judge(self.ball, &self.wall, p, out),
            None => out.fail("the interaction was not watched".into()),
        }
    }
}

/// The schedule of `expected`: one count from the start, or `[from_time, count]` pairs.
fn schedule(expected: &toml::Value) -> Result<Vec<(Real, u32)>, String> {
    let count = |v: &toml::Value| -> Option<u32> {
        v.as_integer()
            .filter(|&c| (0..=u32::MAX as i64).contains(&c))
            .map(|c| c as u32)
    };
    let pairs = match expected {
        toml::Value::Integer(_) => {
            let c = count(expected)
                .ok_or_else(|| "expected: a count must be a non-negative integer".to_string())?;
            return Ok(vec![(0.0, c)]);
        }
        toml::Value::Array(pairs) => pairs,
        v => {
            return Err(format!(
                "expected = {v}: an integer or a list of [from_time, count] pairs"
            ))
        }
    };
    let mut out = Vec::new();
    for p in pairs {
        let pair = p.as_array().filter(|x| x.len() == 2);
        let t = pair.and_then(|x| x[0].as_float().or(x[0].as_integer().map(|i| i as Real)));
        let c = pair.and_then(|x| count(&x[1]));
        match (t, c) {
            (Some(t), Some(c))
                if t.is_finite() && t >= 0.0 && out.last().is_none_or(|&(u, _)| t > u) =>
            {
                out.push((t, c))
            }
            _ => return Err(format!("expected: {p} must be [from_time, count], times increasing, counts non-negative integers")),
        }
    }
    if out.is_empty() {
        return Err("expected: the schedule is empty".into());
    }
    Ok(out)
}

/// Watches the active-contact count of one ball-wall interaction.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct ActiveProbe {
    ball: usize,
    wall: usize,
    schedule: Vec<(Real, u32)>,
    /// Runs of equal count: (first time, last time, count, expected count, cycles).
    pub runs: Vec<(Real, Real, u32, Option<u32>, u64)>,
    /// Cycles whose count differed from the expected one.
    pub mismatches: u64,
    /// Cycles judged (at or after the first `from_time`).
    pub judged: u64,
}

impl ActiveProbe {
    /// A probe of ball index `ball` and wall index `wall` with the expected schedule.
    pub fn new(ball: usize, wall: usize, schedule: Vec<(Real, u32)>) -> Self {
        ActiveProbe {
            ball,
            wall,
            schedule,
            runs: Vec::new(),
            mismatches: 0,
            judged: 0,
        }
    }
}

impl ProbeState for ActiveProbe {
    fn observe(&mut self, model: &Model) {
        let n = model
            .facet_contacts
            .interaction(self.ball as u32, self.wall as u32)
            .map_or(0, |it| it.active);
        let t = model.time;
        let expected = self
            .schedule
            .iter()
            .rev()
            .find(|(from, _)| *from <= t * (1.0 + 1e-12))
            .map(|&(_, c)| c);
        if let Some(e) = expected {
            self.judged += 1;
            if e != n {
                self.mismatches += 1;
            }
        }
        match self.runs.last_mut() {
            Some(r) if r.2 == n && r.3 == expected => {
                r.1 = t;
                r.4 += 1;
            }
            _ => self.runs.push((t, t, n, expected, 1)),
        }
    }
}

/// Judges the counts the probe saw.
fn judge(ball: u64, wall: &str, p: &ActiveProbe, out: &mut CheckOutcome) {
    out.what =
        format!("number of active contacts between ball {ball} and wall \"{wall}\" at every cycle");
    out.formula = if p.schedule.len() == 1 && p.schedule[0].0 <= 0.0 {
        format!("{} at every cycle", p.schedule[0].1)
    } else {
        p.schedule
            .iter()
            .map(|(t, c)| format!("{c} from t = {} s", num(*t)))
            .collect::<Vec<_>>()
            .join("; ")
    };
    out.code = vec![
        "src/contact/associative.rs::resolve".into(),
        "src/contact/full.rs::resolve".into(),
        "src/contact/ball_facet.rs::update_force".into(),
        "src/geom/triangle.rs::closest_point".into(),
        "src/check/active_count.rs::evaluate".into(),
    ];
    out.tolerance_kind = "range".into();
    out.accepted = "the expected count at every judged cycle".into();
    out.table = vec![[
        "from t (s)",
        "to t (s)",
        "cycles",
        "active contacts",
        "expected",
    ]
    .map(String::from)
    .to_vec()];
    for r in &p.runs {
        out.table.push(vec![
            num(r.0),
            num(r.1),
            r.4.to_string(),
            r.2.to_string(),
            r.3.map_or("(not judged)".into(), |e| e.to_string()),
        ]);
    }
    let max_seen = p.runs.iter().map(|r| r.2).max().unwrap_or(0);
    let max_expected = p.schedule.iter().map(|r| r.1).max().unwrap_or(0);
    out.value = Some(max_seen as Real);
    out.expected = Some(max_expected as Real);
    out.passed = p.judged > 0 && p.mismatches == 0;
    out.message = if p.judged == 0 {
        "no cycle was judged (the schedule starts after the run ends)".into()
    } else {
        format!(
            "{} of {} judged cycles had the expected count; counts seen: {}",
            p.judged - p.mismatches,
            p.judged,
            p.runs
                .iter()
                .map(|r| r.2.to_string())
                .collect::<Vec<_>>()
                .join(" → ")
        )
    };
}
