//! Ball-facet contacts: per ball-wall interaction its geometry, the associative logic (and the
//! full mode's), the forces of the active contacts and their resultant on the ball.

use super::lanes::frame::{lanes_follow, update_facet_framed};
use super::lanes::history_facet::update_facet_history;
use super::stage::Forces;
use crate::body::Resolution;
use crate::body::Wall;
use crate::contact::{associative, ball_facet, full};
use crate::contact::{FacetContact, FacetContacts};
use crate::math::{ExactVec3, Vec3};
use crate::par::{split, PARALLEL_CONTACTS};
use rayon::prelude::*;

/// Ball-wall interactions per block of the wall phase's passes (their contacts, one or two
/// each at 168 bytes, stay in the first two levels of cache).
const WALL_BLOCK: usize = 256;

/// The frames of the wall contacts `range` of a group: that slice of `frames`, or an empty
/// slice when no frames are kept (only the history models run).
fn frames_of<'a, T>(frames: &'a mut [T], range: &std::ops::Range<usize>) -> &'a mut [T] {
    if frames.is_empty() {
        frames
    } else {
        &mut frames[range.clone()]
    }
}

/// The ball-facet contacts of a group of consecutive ball-wall interactions `its` (their
/// contacts `list`, numbered from the group's first; `frames` as long, or empty when no
/// frames are kept; `couples` and `rolls`, the couples' entries and the rolling springs, as
/// long when some model has a rolling resistance, else empty): geometry, the associative
/// logic (and the full mode's), the forces of the active contacts and each interaction's
/// resultant on its ball (`force`, `moment`, `active`), in blocks of interactions whose
/// records stay in cache, three passes each: the geometry of
/// every contact, then per interaction its resolution, then its forces (the active contacts
/// of the whole block eight at a time: the history models' in [`lanes::update_facet_history`],
/// those on the frame, but for the full mode's proximity contacts, in
/// [`update_facet_framed`]; then each interaction's sums). (Contacts of different
/// interactions are independent: in a flat pass the processor works on several at once,
/// where one interaction at a time chained each contact's geometry, resolution and force.)
/// With `books` (energy books kept), or frames with a rolling resistance or a cohesion
/// somewhere, or frame flags the batches do not follow, every contact takes the one-contact
/// path with the interaction's sums (and with `books` each interaction's `dissipated` is
/// written). Returns what the full mode did.
#[allow(clippy::too_many_arguments)]
pub(super) fn wall_group(
    list: &mut [crate::contact::FacetContact],
    (frames, couples, rolls): (&mut [crate::contact::Frame], &mut [Vec3], &mut [Vec3]),
    its: &mut [crate::contact::WallInteraction],
    balls: &crate::body::Balls,
    walls: &[crate::body::Wall],
    (laws, rolling, cohesion): (
        &[crate::law::ContactModel],
        &[Option<crate::law::Rolling>],
        &[Option<crate::law::Cohesion>],
    ),
    dt: f64,
    flags: crate::contact::FrameFlags,
    books: bool,
) -> crate::contact::FullStats {
    let base = its.first().map_or(0, |it| it.start as usize);
    let mut stats = crate::contact::FullStats::default();
    let necks = (cohesion.iter().flatten()).any(|k| matches!(k, crate::law::Cohesion::Jkr { .. }));
    // (no rolling resistance, no cohesion: the contacts on the frame may take the lanes)
    let plain = rolling.iter().all(Option::is_none) && cohesion.iter().all(Option::is_none);
    for block in its.chunks_mut(WALL_BLOCK) {
        let (Some(first), Some(last)) = (block.first(), block.last()) else {
            continue;
        };
        let contacts = first.start as usize - base..last.end as usize - base;
        for c in &mut list[contacts.clone()] {
            // (a JKR neck holds an active contact across a gap)
            let reach = match cohesion.get(c.law as usize).copied().flatten() {
                Some(k) if necks && c.active => {
                    k.reach(crate::law::Pieces::Wall(balls.radius[c.ball as usize]))
                }
                _ => 0.0,
            };
            ball_facet::update_geometry(c, balls, &walls[c.wall as usize], reach);
        }
        for it in block.iter_mut() {
            let i = it.ball as usize;
            let wall = &walls[it.wall as usize];
            let range = it.start as usize - base..it.end as usize - base;
            let (wall_frames, wall_rolls) = (frames_of(frames, &range), frames_of(rolls, &range));
            let run = &mut list[range];
            if books {
                // what the interaction's tangential springs held at the end of the last cycle
                // (before the resolution hands states over, drops or copies them)
                let r = balls.radius[i];
                it.dissipated = (run.iter())
                    .map(|c| ball_facet::held_energy(c, &laws[c.law as usize], r))
                    .sum();
                it.integration = 0.0;
            }
            associative::resolve(run, &wall.mesh);
            let mut did = crate::contact::FullStats::default();
            if wall.imaged {
                let sides = (&mut *wall_frames, &mut *wall_rolls);
                did.handovers += crate::contact::carry_on_surface(run, sides);
            }
            if wall.resolution == Resolution::Full {
                let input = full::FullInput {
                    mesh: &wall.mesh,
                    normals: &wall.normals,
                    cutoff: wall.cutoff_angle,
                    laws,
                    centre: balls.pos[i],
                    radius: balls.radius[i],
                };
                let sides = (wall_frames, wall_rolls);
                did = did.plus(&full::resolve(run, sides, &input));
            }
            it.stats = did;
            stats = stats.plus(&did);
        }
        // the one-contact path for every contact with energy books (whose losses it reports),
        // or with frames kept and a rolling resistance or cohesion somewhere, or flags the
        // lanes do not follow
        let framed_lanes = !frames.is_empty() && lanes_follow(flags) && plain;
        let one_by_one = books || (!frames.is_empty() && !framed_lanes);
        if !one_by_one {
            // the active contacts go through the lanes, eight at a time (those of the history
            // models and those on the frame apart); the others as below
            // (their indices gather on the stack, WALL_BLOCK at a time: no allocation per
            // step; the contacts are independent, so the order of the flushes changes nothing)
            let block_frames = frames_of(frames, &contacts);
            let block_contacts = &mut list[contacts];
            let mut active = [0u32; WALL_BLOCK];
            let mut framed = [0u32; WALL_BLOCK];
            let (mut n, mut m) = (0, 0);
            let group = (balls, walls, laws);
            for k in 0..block_contacts.len() {
                let c = &mut block_contacts[k];
                let law = &laws[c.law as usize];
                if c.active && law.frame_free() {
                    active[n] = k as u32;
                    n += 1;
                    if n == WALL_BLOCK {
                        update_facet_history(block_contacts, &active[..n], balls, walls, laws, dt);
                        n = 0;
                    }
                } else if c.active && framed_lanes && c.pc != c.facet {
                    framed[m] = k as u32;
                    m += 1;
                    if m == WALL_BLOCK {
                        let all = &framed[..m];
                        update_facet_framed(block_contacts, all, block_frames, group, (dt, flags));
                        m = 0;
                    }
                } else {
                    let wall = &walls[c.wall as usize];
                    let law = (law, None, None);
                    let frame = block_frames.get_mut(k);
                    ball_facet::update_force(c, frame, balls, wall, law, dt, flags, books);
                }
            }
            update_facet_history(block_contacts, &active[..n], balls, walls, laws, dt);
            let all = &framed[..m];
            update_facet_framed(block_contacts, all, block_frames, group, (dt, flags));
        }
        for it in block.iter_mut() {
            let i = it.ball as usize;
            let wall = &walls[it.wall as usize];
            let range = it.start as usize - base..it.end as usize - base;
            let mut frames = frames_of(frames, &range).iter_mut();
            let mut couples = frames_of(couples, &range).iter_mut();
            let mut rolls = frames_of(rolls, &range).iter_mut();
            it.active = 0;
            it.force = Default::default();
            it.moment = Default::default();
            for c in &mut list[range] {
                if one_by_one {
                    let law = &laws[c.law as usize];
                    let spring = rolls.next();
                    let rolling = rolling.get(c.law as usize).and_then(Option::as_ref);
                    let u = ball_facet::update_force(
                        c,
                        frames.next(),
                        balls,
                        wall,
                        (
                            law,
                            rolling.zip(spring),
                            cohesion.get(c.law as usize).and_then(Option::as_ref),
                        ),
                        dt,
                        flags,
                        books,
                    );
                    // (the spring energy the contact received is not what the interaction held
                    // at the end of the last cycle: counted from there)
                    if let Some(slot) = couples.next() {
                        *slot = u.couple;
                    }
                    it.moment += u.couple;
                    it.dissipated += u.dissipated - u.stored_before;
                    it.integration += u.integration;
                    if books && c.active && c.pc == c.facet {
                        // (a proximity contact's normal energy: the interaction's, see
                        // `ball_facet::held_energy`)
                        it.dissipated -= law.normal_energy(c.overlap, balls.radius[i], &c.state);
                    }
                }
                if c.active {
                    it.active += 1;
                    it.force += c.force;
                    it.moment += (c.point - balls.pos[i]).cross(&c.force);
                }
            }
        }
    }
    stats
}

/// Fewer pending interactions than this wait for the next piece ([`WallsAlong::upto`]), but
/// the last.
const WALL_PIECE: usize = 128;

/// The wall interactions of one range of balls (sorted by ball), taken a piece at a time as
/// the range's ball-ball contacts (sorted by ball a, with a < b) pass their balls: a ball's
/// wall interactions run while its data is still in cache, and after every ball-ball contact
/// it has, so that each ball sums the same terms in the same order as when the walls ran
/// after the whole range (at 200,000 balls their loads missed the caches).
pub(super) struct WallsAlong<'a> {
    list: &'a mut [FacetContact],
    /// Aligned with `list`, or empty when no frames are kept.
    frames: &'a mut [crate::contact::Frame],
    its: &'a mut [crate::contact::WallInteraction],
    /// The interactions done.
    done: usize,
}

impl<'a> WallsAlong<'a> {
    /// The interactions `its` of a range with their contacts `list` (numbered from the first
    /// interaction's) and `frames` (as long, or empty), none done.
    pub(super) fn new(
        list: &'a mut [FacetContact],
        frames: &'a mut [crate::contact::Frame],
        its: &'a mut [crate::contact::WallInteraction],
    ) -> Self {
        WallsAlong {
            list,
            frames,
            its,
            done: 0,
        }
    }

    /// Calls `f` on the interactions not yet done whose ball is below `ball`, with their
    /// contacts and frames, when there are at least [`WALL_PIECE`] of them, and on all the
    /// rest when `ball` is `None`.
    pub(super) fn upto(
        &mut self,
        ball: Option<usize>,
        f: impl FnOnce(
            (
                &mut [FacetContact],
                &mut [crate::contact::Frame],
                &mut [crate::contact::WallInteraction],
            ),
        ),
    ) {
        let rest = &self.its[self.done..];
        let count = match ball {
            Some(b) => rest.partition_point(|it| (it.ball as usize) < b),
            None => rest.len(),
        };
        if count == 0 || (count < WALL_PIECE && ball.is_some()) {
            return;
        }
        let end = self.done + count;
        let base = self.its[0].start as usize;
        let from = self.its[self.done].start as usize - base;
        let to = self.its[end - 1].end as usize - base;
        f((
            &mut self.list[from..to],
            frames_of(self.frames, &(from..to)),
            &mut self.its[self.done..end],
        ));
        self.done = end;
    }
}

/// Adds each ball-wall interaction's resultant to its ball, in interaction order: `force` and
/// `moment` hold the balls from `first` on (0 for all of them).
pub(super) fn add_resultants(
    its: &[crate::contact::WallInteraction],
    force: &mut [Vec3],
    moment: &mut [Vec3],
    first: usize,
) {
    for it in its {
        let j = it.ball as usize - first;
        force[j] += it.force;
        moment[j] += it.moment;
    }
}

impl Forces<'_> {
    /// Ball-facet contacts of the general loop ([`wall_group`] in parallel, in groups of
    /// about as many contacts each), then each interaction's resultant added to its ball, in
    /// interaction order.
    pub(crate) fn wall_forces(&mut self, dt: f64) {
        // (the couples of rolling resistance, aligned with this cycle's list)
        let couples = self.has_rolling();
        let fc = &mut self.facet_contacts;
        fc.couple.clear();
        if couples {
            fc.couple.resize(fc.list.len(), Vec3::zeros());
        }
        if self.facet_contacts.list.is_empty() {
            return;
        }
        let (balls, walls): (&crate::body::Balls, &[Wall]) = (self.balls, self.walls);
        let laws = (self.laws, self.rolling, self.cohesion);
        let flags = self.flags;
        let books = self.books;
        let fc = &mut self.facet_contacts;
        // (a ball-facet contact costs several ball-ball ones: a lower threshold)
        let threads = if fc.list.len() >= PARALLEL_CONTACTS / 4 {
            rayon::current_num_threads()
        } else {
            1
        };
        // the groups: interactions `cuts[t]..cuts[t + 1]` (the interactions' runs tile the
        // list in order)
        let (its, total) = (&fc.interactions, fc.list.len());
        let mut cuts = vec![0usize];
        for t in 1..threads {
            let k = its.partition_point(|it| (it.start as usize) < total * t / threads);
            cuts.push(k.max(cuts[t - 1]));
        }
        cuts.push(its.len());
        let (starts, frame_starts) = fc.group_starts(&cuts);
        let couple_starts = if couples {
            starts.clone()
        } else {
            vec![0; starts.len()]
        };
        // (the rolling springs, aligned with the list when kept)
        let roll_starts = if fc.roll.is_empty() {
            vec![0; starts.len()]
        } else {
            starts.clone()
        };
        let stats = (
            split(&mut fc.list, &starts),
            split(&mut fc.frames, &frame_starts),
            split(&mut fc.couple, &couple_starts),
            split(&mut fc.roll, &roll_starts),
            split(&mut fc.interactions, &cuts),
        )
            .into_par_iter()
            .map(|(list, frames, couples, rolls, its)| {
                let sides = (frames, couples, rolls);
                wall_group(list, sides, its, balls, walls, laws, dt, flags, books)
            })
            .reduce(crate::contact::FullStats::default, |a, b| a.plus(&b));
        fc.keep_stats(&stats);
        let balls = &mut *self.balls;
        add_resultants(&fc.interactions, &mut balls.force, &mut balls.moment, 0);
    }
}

/// The resultant contact force and moment on wall `w` (about its pivot), N and N m: the
/// opposites of its active contacts' forces on the balls and their moments, summed in
/// contact order. Computed when asked (the series `wall/<name>/force` and `moment`), not
/// every cycle: nothing in the cycle reads them (a wall's motion is prescribed), and the
/// pass over every ball-facet contact would cost every cycle.
pub fn wall_resultant(wall: &Wall, fc: &FacetContacts, w: usize) -> (Vec3, Vec3) {
    let (force, moment) = wall_resultant_sums(wall, fc, w, |_| true);
    (force.value(), moment.value())
}

/// [`wall_resultant`]'s exact sums, over the contacts of the balls `counted` takes (by index;
/// on ranks, a rank's own balls: the ranks' sums then merge into one process's).
pub fn wall_resultant_sums(
    wall: &Wall,
    fc: &FacetContacts,
    w: usize,
    counted: impl Fn(usize) -> bool,
) -> (ExactVec3, ExactVec3) {
    let pivot = wall.pivot;
    let (mut force, mut moment) = (ExactVec3::new(), ExactVec3::new());
    let ours = |c: &FacetContact| c.active && c.wall as usize == w && counted(c.ball as usize);
    for (k, c) in (fc.list.iter().enumerate()).filter(|(_, c)| ours(c)) {
        force.add(&-c.force);
        moment.add(&-((c.point - pivot).cross(&c.force) + fc.couple_of(k)));
    }
    (force, moment)
}
