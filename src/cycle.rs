//! The cycle (seed 000 and 004 order): timestep, law of motion, contact detection,
//! force-displacement.

use crate::contact::{associative, ball_ball, ball_facet, full, lanes, Contact};
use crate::math::Vec3;
use crate::model::{Model, ModelError, Resolution};
use rayon::prelude::*;

/// What a ball-ball contact's update needs besides its record: its 2D normal, or its local
/// frame (when some contact model uses one).
enum Side<'a> {
    Normal(&'a mut Vec3),
    Frame(Option<&'a mut crate::contact::Frame>),
}

/// A contact of the general loop and its entries in the kept arrays: force, point, loss.
type Entry<'a> = (
    &'a mut Contact,
    (&'a mut Vec3, (&'a mut Vec3, &'a mut [f64; 2])),
);

/// Candidate pairs per ball for which the contact lists get room at once.
const ROOM_PER_BALL: usize = 8;

/// Below this many contacts the force loop runs on one thread (threads cost more than they save).
const PARALLEL_CONTACTS: usize = 4096;
/// From this many candidate pairs the frame-free force pass ([`Model::history_forces`]) cuts
/// the balls into one range per thread, and the law of motion follows the same cut: at 1,000
/// balls (3,100 pairs) a step of about 70 µs, of which the pass takes 60.
const PARALLEL_PASS: usize = 1024;

impl Model {
    /// Runs one cycle: timestep, law of motion, contact detection, force-displacement.
    ///
    /// # Errors
    /// [`ModelError::BlewUp`] when a position or velocity stops being finite, and
    /// [`ModelError::Interpenetration`] when two balls overlap by more than the smaller radius;
    /// both name the body and the cycle.
    pub fn cycle(&mut self) -> Result<(), ModelError> {
        if !self.primed {
            self.prime()?;
        }
        let t = self.clock();
        let dt = self.choose_timestep()?;
        // (the law of motion makes the broad phase's displacement test, unless clumps move
        // their pebbles after it)
        let reference = (self.clumps.is_empty())
            .then(|| self.broad_phase.reference(self.balls.len()))
            .flatten()
            .map(|r| (r, self.settings.margin));
        let checked = reference.is_some();
        let (mut finite, moved) = crate::motion::step(
            &mut self.balls,
            &self.settings.gravity,
            self.last_dt,
            dt,
            reference,
            // (the force pass's ranges, when it made them for more than one thread)
            (self.contacts.partition.threads > 1).then_some(&self.contacts.partition.balls[..]),
        );
        if !self.clumps.is_empty() {
            finite &= self
                .clumps
                .step(&mut self.balls, &self.settings.gravity, self.last_dt, dt);
        }
        for w in &mut self.walls {
            w.step(dt);
        }
        self.cycle += 1;
        self.time += dt;
        self.last_dt = dt;
        let t = self.lap(t, |p| &mut p.motion);
        if !finite {
            self.check_finite()?;
        }
        let t = self.lap(t, |p| &mut p.checks);
        self.detect_after(checked.then_some(moved));
        let t = self.lap(t, |p| &mut p.detect);
        self.force_displacement(dt);
        self.book_energy(false);
        let t = self.clock().or(t);
        let r = self.check_overlaps();
        self.lap(t, |p| &mut p.checks);
        r
    }

    /// The time now, when phases are measured.
    #[inline]
    fn clock(&self) -> Option<std::time::Instant> {
        self.phases.map(|_| std::time::Instant::now())
    }

    /// Adds the time since `t` to one phase; returns the time now.
    #[inline]
    fn lap(
        &mut self,
        t: Option<std::time::Instant>,
        phase: impl Fn(&mut crate::model::Phases) -> &mut f64,
    ) -> Option<std::time::Instant> {
        let (Some(t), Some(p)) = (t, self.phases.as_mut()) else {
            return None;
        };
        let now = std::time::Instant::now();
        *phase(p) += (now - t).as_secs_f64();
        Some(now)
    }

    /// Detects contacts and computes forces at the current positions without moving anything
    /// (done once before the first cycle, so that the first law of motion sees the forces).
    ///
    /// # Errors
    /// As [`Model::cycle`], and [`ModelError::NoContactModel`] for a pair of materials that can
    /// meet but has no contact model.
    pub fn prime(&mut self) -> Result<(), ModelError> {
        self.check_contact_models()?;
        self.broad_phase = Default::default();
        self.detect();
        self.force_displacement(0.0);
        self.book_energy(true);
        self.primed = true;
        self.check_overlaps()
    }

    /// Gives the contact lists room at once for as many contacts as the balls are likely to
    /// have (see [`crate::contact::room`]): 8 candidate pairs per ball, twice what a dense
    /// packing of equal spheres needs (6 contacts per ball plus the margin's candidates), and
    /// half a ball-facet contact per ball (a ball of a dense packing touches a flat wall or
    /// none); the broad phase's and the renumbering's arrays get one entry per ball. Called
    /// when the model is built from a case, while the allocator still maps large blocks
    /// directly (glibc raises that threshold to the size of any such block freed later, such
    /// as the case's list of balls, and then serves blocks below it from its heap, where a
    /// list that grows leaves its old blocks behind, resident), and again at each rebuild for
    /// balls added since; a no-op when the room is there.
    pub fn make_room(&mut self) {
        let n = self.balls.len();
        crate::contact::room(&mut self.broad_phase.pairs, ROOM_PER_BALL * n);
        self.broad_phase.make_room(n);
        self.contacts.make_room(ROOM_PER_BALL * n);
        if !self.walls.is_empty() {
            crate::contact::room(&mut self.broad_phase.facet_pairs, n / 2);
            self.facet_contacts.make_room(n / 2);
        }
        if self.sort_every > 0 && self.can_sort_balls() {
            self.sort_scratch.make_room(n);
        }
    }

    /// Contact detection: rebuild the candidate pairs when needed and merge them into the
    /// persistent contact list.
    pub fn detect(&mut self) {
        self.detect_after(None);
    }

    /// [`Model::detect`], given whether a ball moved more than the margin since the last
    /// build when the law of motion found out (else the broad phase checks).
    fn detect_after(&mut self, moved: Option<bool>) {
        let margin = self.settings.margin;
        // (a wall and a ball that have each moved at most a margin have closed their gap by at
        // most two margins: see [`crate::detect`])
        let walls_moved = self.walls.iter().any(|w| w.travel > margin);
        let moved =
            || moved.unwrap_or_else(|| self.broad_phase.needs_rebuild(&self.balls.pos, margin));
        if !walls_moved && !moved() {
            return;
        }
        let due = |last: Option<u64>| last.is_none_or(|s| self.cycle >= s + self.sort_every);
        if self.sort_every > 0 && due(self.last_sort) && self.can_sort_balls() {
            self.sort_balls();
            self.last_sort = Some(self.cycle);
        }
        self.make_room();
        self.broad_phase
            .build(&self.balls.pos, &self.balls.radius, margin);
        if !self.clumps.is_empty() {
            // pebbles of one clump never touch each other
            let clump = &self.balls.clump;
            self.broad_phase.pairs.retain(|&(a, b)| {
                let (ca, cb) = (clump[a as usize], clump[b as usize]);
                ca != cb || ca == crate::model::NO_CLUMP
            });
        }
        self.broad_phase
            .build_facets(&self.walls, &self.balls.pos, &self.balls.radius, margin);
        for w in &mut self.walls {
            w.travel = 0.0;
        }
        let n = self.materials.len();
        let (mat, table) = (&self.balls.material, &self.pair_law);
        let frames = !self.planar && self.laws.iter().any(|l| !l.frame_free());
        let laws = &self.laws;
        self.contacts.merge(
            &self.broad_phase.pairs,
            |a, b| table[mat[a as usize] as usize * n + mat[b as usize] as usize],
            |c| laws.get(c.law as usize).is_some_and(|l| l.holds(&c.state)),
            frames,
            self.planar,
            self.books.is_some(),
        );
        let walls = &self.walls;
        // (a wall contact's frame is needed in 2D as in 3D: no normal-only path for walls)
        let facet_frames = self.laws.iter().any(|l| !l.frame_free());
        self.facet_contacts.merge(
            &self.broad_phase.facet_pairs,
            |b, w| table[mat[b as usize] as usize * n + walls[w as usize].material],
            facet_frames,
        );
    }

    /// Force-displacement: each contact's geometry and force (in parallel over contacts), then
    /// the resultant force and moment of each body, gathered in contact order so that the
    /// result is the same for any number of threads.
    pub fn force_displacement(&mut self, dt: f64) {
        let t = self.clock();
        // (with energy books, the general loop: it reports what each contact lost)
        let fast = !self.planar && self.books.is_none() && self.laws.iter().all(|l| l.frame_free());
        let t = if fast {
            // forces and their sums into the balls in one loop (the ball-ball contacts, then
            // the ball-wall interactions of the same balls): no gather
            let walls = self.history_forces(dt);
            let t = self.lap(t, |p| &mut p.contacts);
            if let (Some(p), Some(w)) = (self.phases.as_mut(), walls) {
                // (the wall part as range 0's thread measured it: all of it on one thread)
                p.contacts -= w;
                p.walls += w;
            }
            t
        } else {
            self.general_forces(dt);
            let t = self.lap(t, |p| &mut p.contacts);
            self.gather();
            let t = self.lap(t, |p| &mut p.gather);
            self.wall_forces(dt);
            t
        };
        if !self.clumps.is_empty() {
            self.clumps.gather(&self.balls);
        }
        self.lap(t, |p| &mut p.walls);
    }

    /// The ball-ball forces of every contact (any contact model, 3D or 2D), written with the
    /// contact points to [`crate::contact::Contacts::force`] and
    /// [`crate::contact::Contacts::point`] (in parallel above 4,096 contacts);
    /// [`Model::gather`] sums them into the balls.
    fn general_forces(&mut self, dt: f64) {
        let balls = &self.balls;
        let laws = &self.laws;
        let flags = self.settings.frame;
        let install_bonds = self.cycle == 0;
        let planar = self.planar;
        // Each contact writes its force and contact point to a compact array (an inactive one
        // leaves its zero entry alone), so that the gather reads 48 bytes per contact, not the
        // record; with energy books, what its model lost too. It reports whether it
        // interpenetrates (checked in full only when one does).
        let books = self.contacts.books;
        let update = |((c, (force, (point, work))), side): (Entry, Side)| -> bool {
            let out = ball_ball::Out { force, point };
            let law = &laws[c.law as usize];
            let u = match side {
                Side::Normal(n) => {
                    ball_ball::update_2d(c, out, n, balls, law, dt, install_bonds, books)
                }
                Side::Frame(f) => {
                    ball_ball::update(c, out, f, balls, law, dt, flags, install_bonds, books)
                }
            };
            if books {
                *work = [u.dissipated, u.integration];
            }
            c.active
                && (u.overlap > balls.radius[c.a as usize].min(balls.radius[c.b as usize])
                    || u.overlap.is_nan())
        };
        let contacts = &mut self.contacts;
        // (the merge keeps the forces, points and losses for the models that run this loop;
        // the zip below would stop at a shorter array)
        debug_assert!(contacts.keeps_forces());
        debug_assert_eq!(contacts.force.len(), contacts.list.len());
        debug_assert_eq!(contacts.point.len(), contacts.list.len());
        debug_assert_eq!(contacts.work.len(), contacts.list.len());
        let parallel = contacts.list.len() >= PARALLEL_CONTACTS;
        let (list, force, point, work) = (
            &mut contacts.list,
            &mut contacts.force,
            &mut contacts.point,
            &mut contacts.work,
        );
        // every contact must update: no short circuit
        self.interpenetrating = if planar {
            let normals = &mut contacts.normals;
            if parallel {
                (list.par_iter_mut())
                    .zip(
                        force
                            .par_iter_mut()
                            .zip(point.par_iter_mut().zip(work.par_iter_mut())),
                    )
                    .zip(normals.par_iter_mut().map(Side::Normal))
                    .map(update)
                    .reduce(|| false, |x, y| x | y)
            } else {
                (list.iter_mut())
                    .zip(force.iter_mut().zip(point.iter_mut().zip(work.iter_mut())))
                    .zip(normals.iter_mut().map(Side::Normal))
                    .map(update)
                    .fold(false, |x, y| x | y)
            }
        } else if !contacts.frames.is_empty() {
            let frames = &mut contacts.frames;
            if parallel {
                (list.par_iter_mut())
                    .zip(
                        force
                            .par_iter_mut()
                            .zip(point.par_iter_mut().zip(work.par_iter_mut())),
                    )
                    .zip(frames.par_iter_mut().map(|f| Side::Frame(Some(f))))
                    .map(update)
                    .reduce(|| false, |x, y| x | y)
            } else {
                (list.iter_mut())
                    .zip(force.iter_mut().zip(point.iter_mut().zip(work.iter_mut())))
                    .zip(frames.iter_mut().map(|f| Side::Frame(Some(f))))
                    .map(update)
                    .fold(false, |x, y| x | y)
            }
        } else if parallel {
            (list.par_iter_mut())
                .zip(
                    force
                        .par_iter_mut()
                        .zip(point.par_iter_mut().zip(work.par_iter_mut())),
                )
                .map(|p| update((p, Side::Frame(None))))
                .reduce(|| false, |x, y| x | y)
        } else {
            (list.iter_mut())
                .zip(force.iter_mut().zip(point.iter_mut().zip(work.iter_mut())))
                .map(|p| update((p, Side::Frame(None))))
                .fold(false, |x, y| x | y)
        };
    }

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
    fn history_forces(&mut self, dt: f64) -> Option<f64> {
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
        let results = (results.iter()).fold((false, full::FullStats::default(), None), |x, y| {
            (x.0 | y.0, x.1.plus(&y.1), x.2.or(y.2))
        });
        self.interpenetrating = results.0;
        self.facet_contacts.keep_stats(&results.1);
        self.balls.force = force;
        self.balls.moment = moment;
        results.2
    }

    /// The resultant force and moment of each ball from the ball-ball contacts' kept forces
    /// and contact points ([`crate::contact::Contacts::force`] and
    /// [`crate::contact::Contacts::point`]), in parallel over balls.
    fn gather(&mut self) {
        self.contacts.build_incidence(self.balls.len());
        // Each ball sums its contacts in list order (see `Contacts::incidence`): the same
        // result as one sequential pass over the list, for any number of threads.
        let crate::model::Balls {
            force, moment, pos, ..
        } = &mut self.balls;
        let (cforce, cpoint, inc, start) = (
            &self.contacts.force,
            &self.contacts.point,
            &self.contacts.incidence,
            &self.contacts.start,
        );
        // NOTE: an inactive contact adds a zero force and a zero moment: x - 0 = x bit for bit,
        // so the sums equal those that skip inactive contacts. (Skipping them on a dense
        // activity flag was slower: the branch is unpredictable.)
        let gather = |(i, (f, m)): (usize, (&mut Vec3, &mut Vec3))| {
            let (mut fi, mut mi) = (Vec3::zeros(), Vec3::zeros());
            for &e in &inc[start[i] as usize..start[i + 1] as usize] {
                let (force, point) = (cforce[(e >> 1) as usize], cpoint[(e >> 1) as usize]);
                let arm = point - pos[i];
                if e & 1 == 0 {
                    fi -= force;
                    mi -= arm.cross(&force);
                } else {
                    fi += force;
                    mi += arm.cross(&force);
                }
            }
            *f = fi;
            *m = mi;
        };
        if cforce.len() >= PARALLEL_CONTACTS {
            force
                .par_iter_mut()
                .zip(moment.par_iter_mut())
                .enumerate()
                .for_each(gather);
        } else {
            force
                .iter_mut()
                .zip(moment.iter_mut())
                .enumerate()
                .for_each(gather);
        }
    }

    /// Ball-facet contacts of the general loop ([`wall_group`] in parallel, in groups of
    /// about as many contacts each), then each interaction's resultant added to its ball, in
    /// interaction order.
    fn wall_forces(&mut self, dt: f64) {
        if self.facet_contacts.list.is_empty() {
            return;
        }
        let (balls, walls, laws) = (&self.balls, &self.walls, &self.laws);
        let flags = self.settings.frame;
        let books = self.books.is_some();
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
        let stats = (
            split(&mut fc.list, &starts),
            split(&mut fc.frames, &frame_starts),
            split(&mut fc.interactions, &cuts),
        )
            .into_par_iter()
            .map(|(list, frames, its)| {
                wall_group(list, frames, its, balls, walls, laws, dt, flags, books)
            })
            .reduce(full::FullStats::default, |a, b| a.plus(&b));
        fc.keep_stats(&stats);
        let balls = &mut self.balls;
        add_resultants(&fc.interactions, &mut balls.force, &mut balls.moment, 0);
    }

    /// The resultant contact force and moment on wall `w` (about its pivot), N and N m: the
    /// opposites of its active contacts' forces on the balls and their moments, summed in
    /// contact order. Computed when asked (the series `wall/<name>/force` and `moment`), not
    /// every cycle: nothing in the cycle reads them (a wall's motion is prescribed), and the
    /// pass over every ball-facet contact took about 4 µs per cycle at 10,000 balls.
    pub fn wall_resultant(&self, w: usize) -> (Vec3, Vec3) {
        let pivot = self.walls[w].pivot;
        let (mut force, mut moment) = (Vec3::zeros(), Vec3::zeros());
        for c in (self.facet_contacts.list.iter()).filter(|c| c.active && c.wall as usize == w) {
            force -= c.force;
            moment -= (c.point - pivot).cross(&c.force);
        }
        (force, moment)
    }

    fn check_finite(&self) -> Result<(), ModelError> {
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
        let cl = &self.clumps;
        for c in 0..cl.len() {
            if let Some(what) = non_finite(&cl.pos[c], &cl.vel[c], &cl.spin[c]) {
                return Err(ModelError::BlewUp {
                    cycle: self.cycle,
                    body: format!("clump {}", cl.id[c]),
                    what,
                });
            }
        }
        let b = &self.balls;
        for i in 0..b.len() {
            if let Some(what) = non_finite(&b.pos[i], &b.vel[i], &b.spin[i]) {
                return Err(ModelError::BlewUp {
                    cycle: self.cycle,
                    body: self.piece_label(i),
                    what,
                });
            }
        }
        Ok(())
    }

    fn check_overlaps(&self) -> Result<(), ModelError> {
        if !self.interpenetrating {
            return Ok(());
        }
        let b = &self.balls;
        for (k, c) in self
            .contacts
            .list
            .iter()
            .enumerate()
            .filter(|(_, c)| c.active)
        {
            let (i, j) = (c.a as usize, c.b as usize);
            let overlap = self.contacts.geometry(k, b).overlap;
            if overlap > b.radius[i].min(b.radius[j]) || !overlap.is_finite() {
                return Err(ModelError::Interpenetration {
                    cycle: self.cycle,
                    a: self.piece_label(i),
                    b: self.piece_label(j),
                    overlap,
                });
            }
        }
        Ok(())
    }
}

/// Ball-wall interactions per block of the wall phase's passes (their contacts, one or two
/// each at 168 bytes, stay in the first two levels of cache).
const WALL_BLOCK: usize = 256;

/// The frames of the wall contacts `range` of a group: that slice of `frames`, or an empty
/// slice when no frames are kept (only the history models run).
fn frames_of<'a>(
    frames: &'a mut [crate::contact::Frame],
    range: &std::ops::Range<usize>,
) -> &'a mut [crate::contact::Frame] {
    if frames.is_empty() {
        frames
    } else {
        &mut frames[range.clone()]
    }
}

/// The ball-facet contacts of a group of consecutive ball-wall interactions `its` (their
/// contacts `list`, numbered from the group's first; `frames` as long, or empty when no
/// frames are kept): geometry, the associative logic (and the full mode's), the forces of the
/// active contacts and each interaction's resultant on its ball (`force`, `moment`, `active`),
/// in blocks of interactions whose records stay in cache, three passes each: the geometry of
/// every contact, then per interaction its resolution, then its forces (with no frames kept,
/// the history models' active contacts of the whole block eight at a time,
/// [`lanes::update_facet_history`], then each interaction's sums). (Contacts of different
/// interactions are independent: in a flat pass the processor works on several at once,
/// where one interaction at a time chained each contact's geometry, resolution and force.)
/// With `books` (energy books kept), every contact takes the one-contact path and each
/// interaction's `dissipated` is written. Returns what the full mode did.
#[allow(clippy::too_many_arguments)]
fn wall_group(
    list: &mut [crate::contact::FacetContact],
    frames: &mut [crate::contact::Frame],
    its: &mut [crate::contact::WallInteraction],
    balls: &crate::model::Balls,
    walls: &[crate::model::Wall],
    laws: &[crate::law::ContactModel],
    dt: f64,
    flags: crate::contact::FrameFlags,
    books: bool,
) -> full::FullStats {
    let base = its.first().map_or(0, |it| it.start as usize);
    let mut stats = full::FullStats::default();
    for block in its.chunks_mut(WALL_BLOCK) {
        let (Some(first), Some(last)) = (block.first(), block.last()) else {
            continue;
        };
        let contacts = first.start as usize - base..last.end as usize - base;
        for c in &mut list[contacts.clone()] {
            ball_facet::update_geometry(c, balls, &walls[c.wall as usize]);
        }
        for it in block.iter_mut() {
            let i = it.ball as usize;
            let wall = &walls[it.wall as usize];
            let range = it.start as usize - base..it.end as usize - base;
            let frames = frames_of(frames, &range);
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
            if wall.resolution == Resolution::Full {
                let input = full::FullInput {
                    mesh: &wall.mesh,
                    normals: &wall.normals,
                    cutoff: wall.cutoff_angle,
                    laws,
                    centre: balls.pos[i],
                    radius: balls.radius[i],
                };
                stats = stats.plus(&full::resolve(run, frames, &input));
            }
        }
        // the one-contact path for every contact: frames kept, or energy books (whose losses
        // it reports)
        let one_by_one = !frames.is_empty() || books;
        if !one_by_one {
            // no contact model keeps a frame: the active contacts of the history models go
            // through the lanes, eight at a time; the others as below
            // (their indices gather on the stack, WALL_BLOCK at a time: no allocation per
            // step; the contacts are independent, so the order of the flushes changes nothing)
            let block_contacts = &mut list[contacts];
            let mut active = [0u32; WALL_BLOCK];
            let mut n = 0;
            for k in 0..block_contacts.len() {
                let c = &mut block_contacts[k];
                let law = &laws[c.law as usize];
                if c.active && law.frame_free() {
                    active[n] = k as u32;
                    n += 1;
                    if n == WALL_BLOCK {
                        lanes::update_facet_history(
                            block_contacts,
                            &active[..n],
                            balls,
                            walls,
                            laws,
                            dt,
                        );
                        n = 0;
                    }
                } else {
                    let wall = &walls[c.wall as usize];
                    ball_facet::update_force(c, None, balls, wall, law, dt, flags);
                }
            }
            lanes::update_facet_history(block_contacts, &active[..n], balls, walls, laws, dt);
        }
        for it in block.iter_mut() {
            let i = it.ball as usize;
            let wall = &walls[it.wall as usize];
            let range = it.start as usize - base..it.end as usize - base;
            let mut frames = frames_of(frames, &range).iter_mut();
            it.active = 0;
            it.force = Default::default();
            it.moment = Default::default();
            for c in &mut list[range] {
                if one_by_one {
                    let law = &laws[c.law as usize];
                    let u = ball_facet::update_force(c, frames.next(), balls, wall, law, dt, flags);
                    // (the spring energy the contact received is not what the interaction held
                    // at the end of the last cycle: counted from there)
                    it.dissipated += u.dissipated - u.stored_before;
                    it.integration += u.integration;
                    if c.active && c.pc == c.facet {
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

/// Adds each ball-wall interaction's resultant to its ball, in interaction order: `force` and
/// `moment` hold the balls from `first` on (0 for all of them).
fn add_resultants(
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

/// `v` cut at `bounds` (increasing, first 0, last `v.len()`): one mutable slice per range.
pub(crate) fn split<'a, T>(mut v: &'a mut [T], bounds: &[usize]) -> Vec<&'a mut [T]> {
    let mut parts = Vec::with_capacity(bounds.len().saturating_sub(1));
    for w in bounds.windows(2) {
        let (head, tail) = std::mem::take(&mut v).split_at_mut(w[1] - w[0]);
        parts.push(head);
        v = tail;
    }
    parts
}
