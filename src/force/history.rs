//! The frame-free loop of the history models: ball-ball forces and their sums into the balls
//! in one pass, in ranges of balls, one per thread.

use super::walls::{add_resultants, wall_group};
use crate::contact::ball_ball;
use crate::math::Vec3;
use crate::model::Model;
use crate::par::split;

/// From this many candidate pairs the frame-free force pass ([`Model::history_forces`]) cuts
/// the balls into one range per thread, and the law of motion follows the same cut (below it
/// a step is too short for a second thread to pay).
const PARALLEL_PASS: usize = 1024;

impl Model {
    /// The ball-ball forces when every contact model is frame-free (3D): runs of
    /// [`ball_ball::HISTORY_RUN`] contacts ([`ball_ball::update_history_run`]) that add their
    /// forces to the balls at once, then the ball-wall interactions of the same balls
    /// ([`wall_group`]), whose resultants are added to their balls in interaction order. On
    /// several threads the balls are split into ranges ([`crate::contact::Partition`]) and
    /// each range, in one parallel pass, sums in list order the crossing contacts coming in
    /// from earlier ranges (computed again from copies of their records taken first), then
    /// its own segment of the list, each contact added to those of its balls in the range,
    /// then its balls' wall interactions. Every ball thus sums its contacts in list order,
    /// then its wall interactions: the same result for any number of threads, and the same
    /// as the general loop's gather followed by [`Model::wall_forces`]. Returns the time the
    /// wall part took on range 0's thread, when phases are measured.
    pub(super) fn history_forces(&mut self, dt: f64) -> Option<f64> {
        use ball_ball::{update_history_run, Scatter, HISTORY_RUN};
        let threads = if self.contacts.list.len() >= PARALLEL_PASS {
            rayon::current_num_threads()
        } else {
            1
        };
        let contacts = &mut self.contacts;
        if contacts.partition.threads != threads {
            contacts
                .partition
                .build(&contacts.list, self.balls.len(), threads);
        }
        let mut force = std::mem::take(&mut self.balls.force);
        let mut moment = std::mem::take(&mut self.balls.moment);
        let (balls, laws, walls) = (&self.balls, &self.laws, &self.walls);
        let flags = self.settings.frame;
        let part = &contacts.partition;
        let ball_bounds = &part.balls;
        // the crossing contacts' records as they are before this update, each with the range
        // of its ball b, in list order
        let incoming = &mut contacts.incoming;
        incoming.resize_with(threads, Vec::new);
        incoming.iter_mut().for_each(Vec::clear);
        for &k in &part.crossing {
            let c = &contacts.list[k as usize];
            incoming[part.range_of(c.b as usize)].push(c.clone());
        }
        // the wall interactions (sorted by ball) and their contacts, cut at the same balls
        let fc = &mut self.facet_contacts;
        let cuts: Vec<usize> = (ball_bounds.iter())
            .map(|&i| fc.interactions.partition_point(|it| (it.ball as usize) < i))
            .collect();
        let (starts, frame_starts) = fc.group_starts(&cuts);
        let timed = self.phases.is_some();
        let ranges: Vec<_> = (split(&mut contacts.list, &part.segments).into_iter())
            .zip(split(&mut force, ball_bounds))
            .zip(split(&mut moment, ball_bounds))
            .zip(incoming.iter_mut())
            .zip(split(&mut fc.list, &starts))
            .zip(split(&mut fc.frames, &frame_starts))
            .zip(split(&mut fc.interactions, &cuts))
            .collect();
        let results = crate::par::run_parts(
            ranges,
            |r, ((((((list, force), moment), incoming), wl), wf), its)| {
                let start = (threads > 1).then(std::time::Instant::now);
                // (zeroed here, each range by its thread: no sequential pass before the split)
                force.fill(Vec3::zeros());
                moment.fill(Vec3::zeros());
                let first = ball_bounds[r];
                let mut s = Scatter {
                    force,
                    moment,
                    first,
                };
                let mut interpenetrating = false;
                for l in incoming.chunks_mut(HISTORY_RUN) {
                    interpenetrating |= update_history_run(l, balls, laws, dt, Some(&mut s), true);
                }
                for l in list.chunks_mut(HISTORY_RUN) {
                    interpenetrating |= update_history_run(l, balls, laws, dt, Some(&mut s), false);
                }
                let t = (timed && r == 0).then(std::time::Instant::now);
                let stats = wall_group(wl, wf, its, balls, walls, laws, dt, flags, false);
                add_resultants(its, s.force, s.moment, first);
                let wall_time = t.map(|t| t.elapsed().as_secs_f64());
                let busy = start.map_or(0.0, |t| t.elapsed().as_secs_f64());
                (interpenetrating, stats, wall_time, busy)
            },
        );
        if threads > 1 {
            // (each range's time, for the next partition's balance)
            (contacts.partition).record(results.iter().map(|x| x.3));
        }
        let results = (results.iter()).fold(
            (false, crate::contact::FullStats::default(), None),
            |x, y| (x.0 | y.0, x.1.plus(&y.1), x.2.or(y.2)),
        );
        self.interpenetrating = results.0;
        self.facet_contacts.keep_stats(&results.1);
        self.balls.force = force;
        self.balls.moment = moment;
        results.2
    }
}
