//! The one-pass force loop (3D, no energy books): ball-ball forces and their sums into the
//! balls at once, then the balls' wall interactions, in ranges of balls, one per thread. The
//! history models run in batches ([`update_history_run`]); when a model uses the
//! contact frame, every contact runs [`ball_ball::update`] with its frame ([`frame_run`]).

use super::lanes::frame::{lanes_follow, update_framed, update_one, FrameScratch};
use super::lanes::masses::contact_masses;
use super::lanes::{near, select, update_history_run, RunScratch, Scatter, HISTORY_RUN};
use super::walls::{add_resultants, wall_group, WallsAlong};
use crate::body::Balls;

use super::lanes::springs::add_ball_diagonals_lanes;
use super::stage::Forces;
use crate::contact::{Contact, Frame, FrameFlags, WallInteraction};
use crate::law::ContactModel;
use crate::math::{Real, Vec3};
use crate::par::split;
use crate::phases::Phases;
use crate::springs::add_interaction_diagonals;

/// From this many candidate pairs the one-pass force loop ([`Forces::range_forces`]) cuts
/// the balls into one range per thread, and the law of motion follows the same cut (below it
/// a step is too short for a second thread to pay).
const PARALLEL_PASS: usize = 1024;

/// The frame-based counterpart of [`update_history_run`]: [`ball_ball::update`]
/// for each contact of `list` that needs it, with its frame, its force written to the kept
/// entries `force` (aligned with `list`; the contact points are not kept), and each active
/// contact's force added to those of its balls that lie in the scatter's range (ball a
/// unless `incoming`), in list order: [`update_one`] one by one, or [`update_framed`] eight at
/// a time (the same bits) when the lanes follow the frame flags. Returns true when an active
/// contact interpenetrates (overlap larger than the smaller radius, or NaN).
#[allow(clippy::too_many_arguments)]
fn frame_run(
    list: &mut [Contact],
    frames: &mut [Frame],
    force: &mut [Vec3],
    (balls, masses, laws): (&Balls, &[Real], &[ContactModel]),
    (dt, flags, install_bonds): (Real, FrameFlags, bool),
    s: &mut Scatter,
    incoming: bool,
    (near_ones, batch): (&mut [u32; HISTORY_RUN], &mut FrameScratch),
) -> bool {
    let mut deep = false;
    // Two passes per run, as for the history models: the contacts that need their update
    // (active, or balls not clearly apart; every one while bonds are installed) are listed
    // branch-free first; [`ball_ball::update`] leaves the others as they are.
    // (the lanes follow the default flags; the first cycle installs the bonds one by one)
    let lanes = lanes_follow(flags) && !install_bonds;
    let rows = balls.rows();
    for start in (0..list.len()).step_by(HISTORY_RUN) {
        let ks = start as u32..(start + HISTORY_RUN).min(list.len()) as u32;
        let count = select(
            ks,
            |k| install_bonds || near(&list[k as usize], &rows),
            near_ones,
        );
        if lanes {
            let kept = (&mut frames[..], &mut force[..]);
            deep |= update_framed(
                list,
                &near_ones[..count],
                kept,
                (balls, masses, laws),
                (dt, flags),
                s,
                incoming,
                batch,
            );
            continue;
        }
        for &k in &near_ones[..count] {
            let k = k as usize;
            let kept = (&mut frames[k], &mut force[k]);
            let step = (dt, flags, install_bonds);
            deep |= update_one(&mut list[k], kept, (balls, laws), step, s, incoming);
        }
    }
    deep
}

impl Forces<'_> {
    /// The ball-ball forces (3D, no energy books): runs of [`HISTORY_RUN`]
    /// contacts ([`update_history_run`]) when every model is frame-free, else each
    /// contact with its frame ([`frame_run`]), adding their forces to the balls at once, then
    /// the ball-wall interactions of the same balls
    /// ([`wall_group`]), whose resultants are added to their balls in interaction order. On
    /// several threads the balls are split into ranges ([`crate::contact::Partition`]) and
    /// each range, in one parallel pass, sums in list order the crossing contacts coming in
    /// from earlier ranges (computed again from copies of their records taken first), then
    /// its own segment of the list, each contact added to those of its balls in the range,
    /// then its balls' wall interactions. Every ball thus sums its contacts in list order,
    /// then its wall interactions: the same result for any number of threads, and the same
    /// as the general loop's gather followed by [`Model::wall_forces`]. Returns the time the
    /// wall part took on range 0's thread, when phases are measured.
    pub(super) fn range_forces(&mut self, dt: f64, phases: Option<&mut Phases>) -> Option<f64> {
        let threads = if self.contacts.list.len() >= PARALLEL_PASS {
            rayon::current_num_threads()
        } else {
            1
        };
        let fused = self.fused;
        let contacts = &mut self.contacts;
        if contacts.partition.threads != threads {
            contacts
                .partition
                .build(&contacts.list, self.balls.len(), threads);
        }
        let part = &contacts.partition;
        let mut force = std::mem::take(&mut self.balls.force);
        let mut moment = std::mem::take(&mut self.balls.moment);
        // the automatic timestep's per-ball stiffness sums for the next cycle, taken here
        // where each contact's balls are in cache ([`Model::fuses_stiffness`])
        let mut diagonal = std::mem::take(&mut self.dof_stiffness.diagonal);
        diagonal.resize(if fused { self.balls.len() } else { 0 }, [0.0; 6]);
        // (without the sums, an empty slice for every range)
        let no_rows;
        let diagonal_bounds: &[usize] = if fused {
            &part.balls
        } else {
            no_rows = vec![0; threads + 1];
            &no_rows
        };
        let springs = crate::springs::Springs {
            balls: self.balls,
            laws: self.laws,
            rolling: self.rolling,
            walls: self.walls,
        };
        let (balls, laws, walls): (&Balls, &[ContactModel], &[crate::body::Wall]) =
            (self.balls, self.laws, self.walls);
        let flags = self.flags;
        let install_bonds = self.cycles == 0;
        let ball_bounds = &part.balls;
        // with frames, the forces are kept (aligned with the list)
        let framed = !contacts.frames.is_empty();
        // every ball's contact mass, taken once for the batches of every range
        contact_masses(self.balls, &mut contacts.contact_masses);
        let masses = &contacts.contact_masses[..];
        debug_assert!(!framed || contacts.keeps_forces());
        debug_assert!(!framed || contacts.frames.len() == contacts.list.len());
        // the crossing contacts' records (and frames) as they are before this update, each
        // with the range of its ball b, in list order
        let incoming = &mut contacts.incoming;
        incoming.resize_with(threads, Default::default);
        incoming.iter_mut().for_each(|(l, f)| {
            l.clear();
            f.clear();
        });
        for &k in &part.crossing {
            let c = &contacts.list[k as usize];
            let (l, f) = &mut incoming[part.range_of(c.b as usize)];
            l.push(c.clone());
            if framed {
                f.push(contacts.frames[k as usize]);
            }
        }
        let kept: Vec<_> = if framed {
            let segments = &part.segments;
            (split(&mut contacts.frames, segments).into_iter())
                .zip(split(&mut contacts.force, segments))
                .map(Some)
                .collect()
        } else {
            (0..threads).map(|_| None).collect()
        };
        // the wall interactions (sorted by ball) and their contacts, cut at the same balls
        let fc = &mut self.facet_contacts;
        let cuts: Vec<usize> = (ball_bounds.iter())
            .map(|&i| fc.interactions.partition_point(|it| (it.ball as usize) < i))
            .collect();
        let (starts, frame_starts) = fc.group_starts(&cuts);
        let timed = phases.is_some();
        let ranges: Vec<_> = (split(&mut contacts.list, &part.segments).into_iter())
            .zip(split(&mut force, ball_bounds))
            .zip(split(&mut moment, ball_bounds))
            .zip(incoming.iter_mut())
            .zip(kept)
            .zip(split(&mut fc.list, &starts))
            .zip(split(&mut fc.frames, &frame_starts))
            .zip(split(&mut fc.interactions, &cuts))
            .zip(split(&mut diagonal, diagonal_bounds))
            .collect();
        let results = crate::par::run_parts(
            ranges,
            |r, ((((((((list, force), moment), incoming), kept), wl), wf), its), diag)| {
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
                // (each run's stiffness terms right after its update, its balls in cache)
                diag.fill([0.0; 6]);
                let stiffness = |l: &[Contact], incoming: bool, diag: &mut [[Real; 6]]| {
                    if fused {
                        add_ball_diagonals_lanes(&springs, l, diag, first, incoming);
                    }
                };
                // the range's wall interactions, a piece each time the list has passed their
                // balls ([`WallsAlong`]), their resultants added to those balls
                let (mut stats, mut wall_time) = (crate::contact::FullStats::default(), 0.0);
                let mut along = WallsAlong::new(wl, wf, its);
                let mut walls_piece =
                    |(wl, wf, its): (&mut [_], &mut [_], &mut [WallInteraction]),
                     s: &mut Scatter,
                     diag: &mut [[Real; 6]]| {
                        let t = (timed && r == 0).then(std::time::Instant::now);
                        let law = (laws, &[][..], &[][..]);
                        let got = wall_group(
                            wl,
                            (wf, &mut [], &mut []),
                            its,
                            balls,
                            walls,
                            law,
                            dt,
                            flags,
                            false,
                        );
                        stats = stats.plus(&got);
                        add_resultants(its, s.force, s.moment, first);
                        if fused {
                            let base = its.first().map_or(0, |it| it.start as usize);
                            for it in its.iter() {
                                let run = &wl[it.start as usize - base..it.end as usize - base];
                                add_interaction_diagonals(&springs, run, it, diag, first, true);
                            }
                        }
                        wall_time += t.map_or(0.0, |t| t.elapsed().as_secs_f64());
                    };
                if let Some((frames, kforce)) = kept {
                    let (l, f) = incoming;
                    // (the copies' forces go nowhere: the range of ball a keeps the entries)
                    let mut spare = vec![Vec3::zeros(); l.len()];
                    let (law, step) = ((balls, masses, laws), (dt, flags, install_bonds));
                    let mut near_ones = [0u32; HISTORY_RUN];
                    let mut batch = FrameScratch::default();
                    for start in (0..l.len()).step_by(HISTORY_RUN) {
                        let run = start..(start + HISTORY_RUN).min(l.len());
                        let sf = &mut spare[run.clone()];
                        let (l, f) = (&mut l[run.clone()], &mut f[run]);
                        let x = (&mut near_ones, &mut batch);
                        interpenetrating |= frame_run(l, f, sf, law, step, &mut s, true, x);
                        stiffness(l, true, diag);
                    }
                    for start in (0..list.len()).step_by(HISTORY_RUN) {
                        let run = start..(start + HISTORY_RUN).min(list.len());
                        let l = &mut list[run.clone()];
                        let (f, kf) = (&mut frames[run.clone()], &mut kforce[run.clone()]);
                        let x = (&mut near_ones, &mut batch);
                        interpenetrating |= frame_run(l, f, kf, law, step, &mut s, false, x);
                        stiffness(l, false, diag);
                        if let Some(c) = list.get(run.end) {
                            along.upto(Some(c.a as usize), |p| walls_piece(p, &mut s, diag));
                        }
                    }
                } else {
                    let mut scratch = RunScratch::default();
                    let bm = (balls, masses);
                    for l in incoming.0.chunks_mut(HISTORY_RUN) {
                        let x = &mut scratch;
                        interpenetrating |=
                            update_history_run(l, bm, laws, dt, Some(&mut s), true, x);
                        stiffness(l, true, diag);
                    }
                    for start in (0..list.len()).step_by(HISTORY_RUN) {
                        let end = (start + HISTORY_RUN).min(list.len());
                        let (l, x) = (&mut list[start..end], &mut scratch);
                        interpenetrating |=
                            update_history_run(l, bm, laws, dt, Some(&mut s), false, x);
                        stiffness(l, false, diag);
                        if let Some(c) = list.get(end) {
                            along.upto(Some(c.a as usize), |p| walls_piece(p, &mut s, diag));
                        }
                    }
                }
                along.upto(None, |p| walls_piece(p, &mut s, diag));
                let wall_time = (timed && r == 0).then_some(wall_time);
                let busy = start.map_or(0.0, |t| t.elapsed().as_secs_f64());
                (interpenetrating, stats, wall_time, busy)
            },
        );
        if threads > 1 {
            // (each range's time, for the next partition's balance)
            (contacts.partition).record(results.iter().map(|x| x.3));
            if let Some(p) = phases {
                p.ranges.resize(threads.max(p.ranges.len()), 0.0);
                for (t, x) in p.ranges.iter_mut().zip(&results) {
                    *t += x.3;
                }
            }
        }
        let results = (results.iter()).fold(
            (false, crate::contact::FullStats::default(), None),
            |x, y| (x.0 | y.0, x.1.plus(&y.1), x.2.or(y.2)),
        );
        *self.interpenetrating = results.0;
        self.facet_contacts.keep_stats(&results.1);
        self.balls.force = force;
        self.balls.moment = moment;
        self.dof_stiffness.diagonal = diagonal;
        self.dof_stiffness.fused_at = fused.then_some(self.cycles);
        results.2
    }
}
