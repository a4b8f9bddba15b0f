//! The `max_turn` check (project extension): the largest angle a unit-vector series turns in
//! one cycle, watched every cycle (records may be too coarse), and its total turn, e.g. the
//! contact normal of a ball rolling over a ridge.

use super::context::Context;
use super::keys::read;
use super::kind::{Built, CheckKind};
use super::probe::{Probe, ProbeState};
use crate::math::num;
use crate::math::{Real, Vec3};
use crate::model::Model;
use crate::output::Source;
use crate::record::CheckOutcome;
use serde::Deserialize;

/// `max_turn`: the largest turn of a unit-vector series in one cycle.
#[derive(Clone, Debug, PartialEq)]
pub struct MaxTurn {
    /// A vector series (no component).
    series: String,
    /// Largest accepted turn per cycle, degrees.
    max_deg: Real,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Keys {
    series: String,
    max_deg: Real,
}

impl CheckKind for MaxTurn {
    fn parse(_: &str, keys: toml::Value) -> Result<Self, String> {
        let t: Keys = read(keys)?;
        if !(t.max_deg.is_finite() && t.max_deg > 0.0) {
            return Err(format!(
                "max_deg = {}: must be a positive angle (degrees)",
                t.max_deg
            ));
        }
        Ok(MaxTurn {
            series: t.series,
            max_deg: t.max_deg,
        })
    }

    fn kind(&self) -> &'static str {
        "max_turn"
    }

    fn validate(&self, built: &Built) -> Result<(), String> {
        if !Source::parse(&self.series, built.model)?.is_vector() {
            return Err(format!(
                "series \"{}\": max_turn needs a vector series, without .x/.y/.z",
                self.series
            ));
        }
        Ok(())
    }

    fn probe(&self, model: &Model) -> Option<Probe> {
        let source = Source::parse(&self.series, model).ok()?;
        Some(Probe::new(TurnProbe::new(source)))
    }

    fn evaluate(&self, _: &Context, probe: Option<&Probe>, out: &mut CheckOutcome) {
        match probe.and_then(Probe::state::<TurnProbe>) {
            Some(p) => judge(&self.series, self.max_deg, p, out),
            None => out.fail("the series was not watched".into()),
        }
    }
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
}

impl ProbeState for TurnProbe {
    fn observe(&mut self, model: &Model) {
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

/// Judges the turns the probe saw.
fn judge(series: &str, max_deg: Real, p: &TurnProbe, out: &mut CheckOutcome) {
    out.what = format!("largest angle {series} turns in one cycle");
    out.formula = format!("at most {max_deg}° per cycle: a smooth turn (a hand-over between facets with different normals would jump by their angle)");
    out.code = vec![
        "src/contact/ball_facet.rs::update_force".into(),
        "src/check/max_turn.rs::evaluate".into(),
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
