//! The time each stage of the cycle takes, when a run measures it (`ballast bench`): a clock
//! that reads nothing while nobody measures.

/// Wall time of each phase of the cycle, s, summed over the cycles run while measuring.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Phases {
    /// Timestep choice and law of motion (balls and walls).
    pub motion: f64,
    /// Contact detection: broad phase and merge into the contact lists.
    pub detect: f64,
    /// Ball-ball contacts: geometry and force.
    pub contacts: f64,
    /// Gather of ball-ball forces into the balls.
    pub gather: f64,
    /// Ball-facet contacts: geometry, resolution, force, gather.
    pub walls: f64,
    /// Checks for blow-ups and interpenetration.
    pub checks: f64,
    /// The one-pass force loop on several threads: each range's time in it (its thread's,
    /// from its start to the end of its balls' wall interactions), in range order, s; empty
    /// on one thread. Their spread is the balance of [`crate::contact::Partition`].
    #[serde(default)]
    pub ranges: Vec<f64>,
}

/// A running measurement: the time since the last lap, added to one of the [`Phases`].
pub struct Lap<'a> {
    phases: Option<&'a mut Phases>,
    since: Option<std::time::Instant>,
}

impl<'a> Lap<'a> {
    /// Starts measuring into `phases` (nothing when None).
    #[inline]
    pub fn start(phases: Option<&'a mut Phases>) -> Self {
        let since = phases.as_ref().map(|_| std::time::Instant::now());
        Lap { phases, since }
    }

    /// Adds the time since the last lap (or the start) to one phase.
    #[inline]
    pub fn lap(&mut self, phase: impl Fn(&mut Phases) -> &mut f64) {
        if let (Some(t), Some(p)) = (self.since, self.phases.as_deref_mut()) {
            let now = std::time::Instant::now();
            *phase(p) += (now - t).as_secs_f64();
            self.since = Some(now);
        }
    }

    /// The phases measured into, if any.
    #[inline]
    pub fn phases(&mut self) -> Option<&mut Phases> {
        self.phases.as_deref_mut()
    }
}
