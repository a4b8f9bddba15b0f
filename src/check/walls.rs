//! Checks of ball-wall interactions, watched every cycle (records may be too coarse):
//! - `active_count`: the number of active contacts between a ball and a wall against the
//!   expected count (one integer, or a schedule of `[from_time, count]` pairs);
//! - `max_turn` (project extension): the largest angle a unit-vector series turns in one cycle,
//!   and its total turn, e.g. the contact normal of a ball rolling over a ridge.

use crate::math::num;
use crate::math::{Real, Vec3};
use crate::model::Model;
use crate::output::Source;
use crate::record::CheckOutcome;

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

    /// Looks at the model after a cycle (and once before the first).
    pub fn observe(&mut self, model: &Model) {
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

/// Evaluates an `active_count` check from its probe.
pub fn evaluate_active(ball: u64, wall: &str, p: &ActiveProbe, out: &mut CheckOutcome) {
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
        "src/check/walls.rs::evaluate_active".into(),
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

/// Watches how far a unit-vector series turns per cycle.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct TurnProbe {
    source: Source,
    buf: Vec<Real>,
    prev: Option<Vec3>,
    first: Option<Vec3>,
    last: Option<Vec3>,
    /// Largest turn in one cycle, rad, and the time it ended.
    pub max: (Real, Real),
    /// Cycles observed with a defined direction.
    pub samples: u64,
}

impl TurnProbe {
    /// A probe of a vector series.
    pub fn new(source: Source) -> Self {
        TurnProbe {
            source,
            buf: Vec::with_capacity(3),
            prev: None,
            first: None,
            last: None,
            max: (0.0, 0.0),
            samples: 0,
        }
    }

    /// Looks at the model after a cycle (and once before the first).
    pub fn observe(&mut self, model: &Model) {
        self.buf.clear();
        self.source.sample(model, &mut self.buf);
        let v = Vec3::new(self.buf[0], self.buf[1], self.buf[2]);
        let Some(u) = v.try_normalize(0.0) else {
            self.prev = None;
            return;
        };
        if let Some(p) = self.prev {
            let a = angle(&p, &u);
            if a > self.max.0 {
                self.max = (a, model.time);
            }
        }
        self.first.get_or_insert(u);
        self.last = Some(u);
        self.prev = Some(u);
        self.samples += 1;
    }
}

/// Angle between unit vectors, rad (atan2 form: accurate for small angles).
fn angle(a: &Vec3, b: &Vec3) -> Real {
    a.cross(b).norm().atan2(a.dot(b))
}

/// Evaluates a `max_turn` check from its probe.
pub fn evaluate_turn(series: &str, max_deg: Real, p: &TurnProbe, out: &mut CheckOutcome) {
    out.what = format!("largest angle {series} turns in one cycle");
    out.formula = format!("at most {max_deg}° per cycle: a smooth turn (a hand-over between facets with different normals would jump by their angle)");
    out.code = vec![
        "src/contact/ball_facet.rs::update_force".into(),
        "src/check/walls.rs::evaluate_turn".into(),
    ];
    out.tolerance_kind = "range".into();
    out.accepted = format!("at most {max_deg}°");
    let (Some(first), Some(last)) = (p.first, p.last) else {
        return out.fail(format!("{series} never had a direction"));
    };
    let max_deg_seen = p.max.0.to_degrees();
    let total = angle(&first, &last).to_degrees();
    out.value = Some(max_deg_seen);
    out.expected = Some(max_deg);
    out.passed = max_deg_seen <= max_deg;
    out.table = vec![
        vec!["quantity".into(), "value".into()],
        vec!["cycles with a direction".into(), p.samples.to_string()],
        vec![
            "largest turn in one cycle (°)".into(),
            format!("{max_deg_seen:.6}"),
        ],
        vec!["at t (s)".into(), num(p.max.1)],
        vec![
            "total turn, first to last direction (°)".into(),
            format!("{total:.6}"),
        ],
        vec![
            "first direction".into(),
            format!("({:.6}, {:.6}, {:.6})", first.x, first.y, first.z),
        ],
        vec![
            "last direction".into(),
            format!("({:.6}, {:.6}, {:.6})", last.x, last.y, last.z),
        ],
    ];
    out.message = format!(
        "largest turn {max_deg_seen:.4}° in one cycle (t = {} s); total {total:.4}° over {} cycles",
        num(p.max.1),
        p.samples
    );
}
