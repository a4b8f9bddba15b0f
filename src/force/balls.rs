//! The general loop over ball-ball contacts (any contact model, 3D or 2D) and the gather of
//! their forces into the balls.

use super::stage::Forces;
use crate::contact::{ball_ball, Contact};
use crate::math::Vec3;
use crate::par::PARALLEL_CONTACTS;
use rayon::prelude::*;

/// What a ball-ball contact's update needs besides its record: its 2D normal, or its local
/// frame (when some contact model uses one).
enum Side<'a> {
    Normal(&'a mut Vec3),
    Frame(Option<&'a mut crate::contact::Frame>),
}

/// A contact of the general loop and its entries in the kept arrays: force, point, loss, and
/// the couple with the rolling spring when some model has a rolling resistance.
type Entry<'a> = (
    &'a mut Contact,
    (
        &'a mut Vec3,
        (&'a mut Vec3, (&'a mut [f64; 2], Option<Rolls<'a>>)),
    ),
);

/// A contact's couple entry and rolling spring ([`crate::contact::Contacts::roll`]).
type Rolls<'a> = (&'a mut Vec3, &'a mut Vec3);

impl Forces<'_> {
    /// The ball-ball forces of every contact (any contact model, 3D or 2D), written with the
    /// contact points to [`crate::contact::Contacts::force`] and
    /// [`crate::contact::Contacts::point`] (and the couples of rolling resistance to
    /// [`crate::contact::Contacts::couple`]; in parallel above 4,096 contacts);
    /// [`Forces::gather`] sums them into the balls.
    pub(super) fn general_forces(&mut self, dt: f64) {
        let balls: &crate::body::Balls = self.balls;
        let (laws, rolling, cohesion) = (&self.laws, &self.rolling, &self.cohesion);
        let flags = self.flags;
        let install_bonds = self.cycles == 0;
        let planar = self.planar;
        // Each contact writes its force and contact point to a compact array (an inactive one
        // leaves its zero entry alone), so that the gather reads 48 bytes per contact, not the
        // record; with energy books, what its model lost too. It reports whether it
        // interpenetrates (checked in full only when one does).
        let books = self.contacts.books;
        let update = |((c, (force, (point, (work, couple)))), side): (Entry, Side)| -> bool {
            let out = ball_ball::Out { force, point };
            let law = &laws[c.law as usize];
            let u = match side {
                Side::Normal(n) => crate::contact::disk_disk::update_2d(
                    c,
                    out,
                    n,
                    balls,
                    law,
                    dt,
                    install_bonds,
                    books,
                ),
                Side::Frame(f) => {
                    let roll = match (&rolling[c.law as usize], couple) {
                        (Some(r), Some((slot, spring))) => Some((r, slot, spring)),
                        _ => None,
                    };
                    let how = (dt, flags, install_bonds, books);
                    let law = (law, cohesion.get(c.law as usize).and_then(Option::as_ref));
                    ball_ball::update(c, out, f, balls, law, roll, how)
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
        let n = contacts.list.len();
        let (list, force, point, work, couple, roll) = (
            &mut contacts.list,
            &mut contacts.force,
            &mut contacts.point,
            &mut contacts.work,
            &mut contacts.couple,
            &mut contacts.roll,
        );
        // the couples' entries with the rolling springs, or None for every contact when none
        // are kept
        let kept = couple.len() == n && roll.len() == n;
        let (normals, frames) = (&mut contacts.normals, &mut contacts.frames);
        let framed = !frames.is_empty();
        // every contact must update: no short circuit
        *self.interpenetrating = if parallel {
            let couples = if kept {
                rayon::iter::Either::Left(couple.par_iter_mut().zip(roll.par_iter_mut()).map(Some))
            } else {
                rayon::iter::Either::Right((0..n).into_par_iter().map(|_| None))
            };
            let entries = (list.par_iter_mut()).zip(
                force
                    .par_iter_mut()
                    .zip(point.par_iter_mut().zip(work.par_iter_mut().zip(couples))),
            );
            if planar {
                (entries.zip(normals.par_iter_mut().map(Side::Normal)))
                    .map(update)
                    .reduce(|| false, |x, y| x | y)
            } else if framed {
                (entries.zip(frames.par_iter_mut().map(|f| Side::Frame(Some(f)))))
                    .map(update)
                    .reduce(|| false, |x, y| x | y)
            } else {
                (entries.map(|p| update((p, Side::Frame(None))))).reduce(|| false, |x, y| x | y)
            }
        } else {
            let couples: Box<dyn Iterator<Item = Option<Rolls>>> = if kept {
                Box::new(couple.iter_mut().zip(roll.iter_mut()).map(Some))
            } else {
                Box::new(std::iter::repeat_with(|| None).take(n))
            };
            let entries = (list.iter_mut()).zip(
                force
                    .iter_mut()
                    .zip(point.iter_mut().zip(work.iter_mut().zip(couples))),
            );
            if planar {
                (entries.zip(normals.iter_mut().map(Side::Normal)))
                    .map(update)
                    .fold(false, |x, y| x | y)
            } else if framed {
                (entries.zip(frames.iter_mut().map(|f| Side::Frame(Some(f)))))
                    .map(update)
                    .fold(false, |x, y| x | y)
            } else {
                (entries.map(|p| update((p, Side::Frame(None))))).fold(false, |x, y| x | y)
            }
        };
    }

    /// The resultant force and moment of each ball from the ball-ball contacts' kept forces
    /// and contact points ([`crate::contact::Contacts::force`] and
    /// [`crate::contact::Contacts::point`]), in parallel over balls.
    pub(super) fn gather(&mut self) {
        self.contacts.build_incidence(self.balls.len());
        // Each ball sums its contacts in list order (see `Contacts::incidence`): the same
        // result as one sequential pass over the list, for any number of threads.
        let crate::body::Balls {
            force,
            moment,
            pos,
            cell,
            ..
        } = &mut *self.balls;
        let cell = cell.as_ref();
        let (cforce, cpoint, inc, start) = (
            &self.contacts.force,
            &self.contacts.point,
            &self.contacts.incidence,
            &self.contacts.start,
        );
        let ccouple = &self.contacts.couple;
        let couples = !ccouple.is_empty();
        // NOTE: an inactive contact adds a zero force and a zero moment: x - 0 = x bit for bit,
        // so the sums equal those that skip inactive contacts. (Skipping them on a dense
        // activity flag was slower: the branch is unpredictable.)
        let gather = |(i, (f, m)): (usize, (&mut Vec3, &mut Vec3))| {
            let (mut fi, mut mi) = (Vec3::zeros(), Vec3::zeros());
            for &e in &inc[start[i] as usize..start[i + 1] as usize] {
                let (force, point) = (cforce[(e >> 1) as usize], cpoint[(e >> 1) as usize]);
                let arm = crate::geom::nearest(cell, point - pos[i]);
                if e & 1 == 0 {
                    fi -= force;
                    mi -= arm.cross(&force);
                    if couples {
                        mi -= ccouple[(e >> 1) as usize];
                    }
                } else {
                    fi += force;
                    mi += arm.cross(&force);
                    if couples {
                        mi += ccouple[(e >> 1) as usize];
                    }
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
}
