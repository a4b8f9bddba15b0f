//! The ball-ball update of the models on the contact frame ([`crate::contact::ball_ball::update`] with
//! a [`Frame`]) for [`LANES`] contacts at once, in the one-pass force loop: the geometry and
//! relative velocity of a batch, then its frames' advance ([`Frame::advance`]), run lane by
//! lane in loops the compiler turns into vector instructions; what lies between and after
//! (a contact released or formed, the contact model's force, the sums into the balls) runs
//! contact by contact, in order.
//!
//! Every lane performs exactly the operations of the one-contact path in the same order
//! (nalgebra's: a dot product `(x_0 y_0 + x_1 y_1) + x_2 y_2`, a matrix times a vector row by
//! row the same way, a cross product `y z - z y, z x - x z, x y - y x`), so the results are
//! the same bits; the rare lane whose frame update takes a branch the lanes do not follow (a
//! tangential axis along the new normal, a NaN) is computed again
//! by [`Frame::advance`] itself. The tests `a_frame_model_gives_the_same_state_in_both_loops_
//! on_any_thread_count` and `every_frame_model_gives_the_same_state_in_both_loops` compare
//! this path with the general loop's, bit for bit.

use super::history::LANES;
use super::runs::Scatter;
use crate::body::{Balls, Wall};
use crate::contact::ball_ball::{released, Out};
use crate::contact::{Contact, FacetContact, Frame, FrameFlags};
use crate::law::lanes::{self as law_lanes};
use crate::law::ContactModel;
use crate::math::{Real, Vec3};

mod batch;

use batch::{at, put, Batch};

/// The lanes of [`update_framed`], reused from run to run within a force pass (4.9 kB: zeroed
/// once a pass, not once a run).
#[derive(Default)]
pub struct FrameScratch(Batch);

/// The flags the lanes follow: the default ones, with or without the branch vectors of
/// `no_ratch` and the twist of `no_twist`. Other flags take the one-contact path.
pub fn lanes_follow(flags: FrameFlags) -> bool {
    !flags.previous_normal && !flags.previous_transform && !flags.no_renormalize
}

/// [`crate::contact::ball_ball::update`] (no energy books, bonds not being installed, flags that
/// [`lanes_follow`]) of the contacts `list[k]`, `k` in `ks` (each active or with its balls
/// not clearly apart), with their frames and forces (aligned with `list`; the contact
/// points are not kept: [`crate::contact::Contacts::contact_point`]), eight at a time; then each
/// contact active after its update is added to those of its balls in the scatter's range, in
/// the order of `ks` (ball a unless `incoming`). Returns true when an active contact
/// interpenetrates (overlap larger than the smaller radius, or NaN).
/// `masses`: every ball's contact mass ([`super::masses::contact_masses`]); `batch`: the
/// lanes, reused from run to run.
#[allow(clippy::too_many_arguments)]
pub fn update_framed(
    list: &mut [Contact],
    ks: &[u32],
    (frames, force): (&mut [Frame], &mut [Vec3]),
    (balls, masses, laws): (&Balls, &[Real], &[ContactModel]),
    (dt, flags): (Real, FrameFlags),
    s: &mut Scatter,
    incoming: bool,
    batch: &mut FrameScratch,
) -> bool {
    debug_assert!(lanes_follow(flags));
    // (cut to the list's length: an index checked against the list is then known to be in
    // the frames and forces)
    let (frames, force) = (&mut frames[..list.len()], &mut force[..list.len()]);
    let batch = &mut batch.0;
    let mut deep = false;
    // (the per-contact test below only in a case that has frame-free models at all)
    let mixed = laws.iter().any(|l| l.frame_free());
    let masses = &masses[..balls.len()];
    for ks in ks.chunks(LANES) {
        let kept = (&mut frames[..], &mut force[..]);
        let with = (balls, masses, laws, mixed);
        // (a full batch takes its lanes as they are; a short one repeats its first contact in
        // the spare lanes, whose results are not used)
        let rest = (kept, with, (dt, flags), &mut *s, incoming, &mut *batch);
        deep |= match <&[u32; LANES]>::try_from(ks) {
            Ok(full) => framed_batch(list, (ks, |l: usize| full[l] as usize), rest),
            Err(_) => {
                let lane = |l: usize| ks[if l < ks.len() { l } else { 0 }] as usize;
                framed_batch(list, (ks, lane), rest)
            }
        };
    }
    deep
}

/// What a batch of [`update_framed`] takes besides its contacts: the kept frames and forces,
/// the balls, their contact masses, the laws and whether frame-free models are among them, the
/// step and flags, the scatter, `incoming`, the lanes.
type FramedRest<'r, 'a> = (
    (&'r mut [Frame], &'r mut [Vec3]),
    (&'r Balls, &'r [Real], &'r [ContactModel], bool),
    (Real, FrameFlags),
    &'r mut Scatter<'a>,
    bool,
    &'r mut Batch,
);

/// One batch of [`update_framed`]: the contacts `ks` (`lane(l)`: the contact of lane `l`).
#[inline(always)]
fn framed_batch(
    list: &mut [Contact],
    (ks, lane): (&[u32], impl Fn(usize) -> usize + Copy),
    rest: FramedRest,
) -> bool {
    let ((frames, force), (balls, masses, laws, mixed), (dt, flags), s, incoming, batch) = rest;
    let mut deep = false;
    // the lanes of the batch whose contact goes on after the geometry
    let mut going = [false; LANES];
    let rows = balls.rows();
    // (a frame-free model's contact, in a case that mixes both kinds, goes alone)
    if mixed
        && ks
            .iter()
            .any(|&k| laws[list[k as usize].law as usize].frame_free())
    {
        for &k in ks {
            let kept = (&mut frames[k as usize], &mut force[k as usize]);
            deep |= update_one(
                &mut list[k as usize],
                kept,
                (balls, laws),
                (dt, flags, false),
                s,
                incoming,
            );
        }
        return deep;
    }
    // every lane of one model the lanes compute: the batch in one pass ([`Batch::one_model`])
    let first = list[lane(0)].law;
    let model = &laws[first as usize];
    // (a case of one contact model has it in every lane: no need to look)
    let uniform = laws.len() == 1 || (1..LANES).all(|l| list[lane(l)].law == first);
    if law_lanes::follows(model) && uniform {
        let contacts = (&mut *list, ks, lane);
        let kept = (&mut frames[..], &mut force[..]);
        let with = (balls, masses, model);
        return batch.one_model(contacts, kept, with, (dt, flags), s, incoming);
    }
    for l in 0..LANES {
        batch.load(l, &list[lane(l)], (&rows, masses));
    }
    batch.geometry(flags.no_ratch);
    // a contact apart is released; one touching for the first time gets its frame
    for l in 0..LANES {
        let k = lane(l);
        let c = &mut list[k];
        let law = &laws[c.law as usize];
        let overlap = batch.overlap[l];
        let mut spare = Vec3::zeros();
        let mut out = Out {
            force: &mut force[k],
            point: &mut spare,
        };
        going[l] = l < ks.len() && !released(c, &mut out, (overlap, 0.0), law, false);
        if going[l] && !c.active {
            let n = Vec3::from(at(&batch.n, l));
            frames[k] = Frame::new(&n, -overlap);
            c.active = true;
        }
        batch.load_frame(l, &frames[k]);
    }
    // the model in lanes when every lane has the same one, and the lanes follow it
    let of_lane = |l: usize| {
        let c = &list[lane(l)];
        (c.law, &c.state)
    };
    let laned = batch.advance_with_model(of_lane, laws, dt, flags.no_twist);
    // each frame written back and the model's force (local) into the lanes, in order
    for l in (0..ks.len()).filter(|&l| going[l]) {
        let k = lane(l);
        let c = &mut list[k];
        let law = &laws[c.law as usize];
        batch.settle(l, &mut frames[k], (law, &mut c.state), laned, (dt, flags));
    }
    batch.exerted();
    // the forces and their moments added to the balls, in order
    for l in (0..ks.len()).filter(|&l| going[l]) {
        let k = lane(l);
        let c = &mut list[k];
        let law = &laws[c.law as usize];
        let overlap = batch.overlap[l];
        // a bond that broke in this cycle across a gap leaves the contact without force
        c.active = overlap > 0.0 || law.holds(&c.state);
        if !c.active {
            force[k] = Vec3::zeros();
            continue;
        }
        let (a, b) = (c.a as usize, c.b as usize);
        let [f, ma, mb] = batch.exerted_of(l, balls, (a, b));
        force[k] = f;
        deep |= batch.add_lane(l, s, (a, b), [f, ma, mb], incoming);
    }
    deep
}

/// [`crate::contact::ball_facet::update_force`] (no energy books, no rolling resistance, no cohesion,
/// flags that [`lanes_follow`]) of the active ball-facet contacts `list[k]`, `k` in `ks`, each
/// of a model on the frame and none a proximity contact of the full mode (whose frame is
/// turned when its members change), with their frames (aligned with `list`), eight at a time:
/// the wall is piece 1, the ball piece 2 (normal from the wall to the ball). Each lane's
/// normal, relative velocity and spins are the one-contact path's (computed as it does, one
/// contact at a time), then the frames' advance, the model and the force's turn into the
/// world frame run in the lanes, with the same operations in the same order: the same bits.
pub fn update_facet_framed(
    list: &mut [FacetContact],
    ks: &[u32],
    frames: &mut [Frame],
    (balls, walls, laws): (&Balls, &[Wall], &[ContactModel]),
    (dt, flags): (Real, FrameFlags),
) {
    debug_assert!(lanes_follow(flags));
    let mut batch = Batch::default();
    for ks in ks.chunks(LANES) {
        // (a short batch repeats its first contact in the spare lanes, whose results are not
        // used; the first lane is loaded first, so they see its new frame)
        let lane = |l: usize| ks[if l < ks.len() { l } else { 0 }] as usize;
        for l in 0..LANES {
            let k = lane(l);
            let c = &mut list[k];
            debug_assert!(c.active && c.pc != c.facet);
            let i = c.ball as usize;
            let wall = &walls[c.wall as usize];
            let r = balls.radius[i];
            let n = -c.normal;
            if c.fresh {
                frames[k] = Frame::new(&n, -c.overlap);
                c.fresh = false;
            }
            let v_rel =
                crate::contact::ball_facet::relative_velocity(c, balls, wall, flags.no_ratch);
            put(&mut batch.n, l, n.into());
            put(&mut batch.v_rel, l, v_rel.into());
            put(&mut batch.wa, l, wall.spin().into());
            put(&mut batch.wb, l, balls.spin[i].into());
            batch.vn[l] = v_rel.dot(&n);
            batch.overlap[l] = c.overlap;
            batch.radius[l] = r;
            batch.mass[l] = balls.contact_mass(i).unwrap_or(0.0);
            batch.load_frame(l, &frames[k]);
        }
        let of_lane = |l: usize| {
            let c = &list[lane(l)];
            (c.law, &c.state)
        };
        let laned = batch.advance_with_model(of_lane, laws, dt, flags.no_twist);
        for l in 0..ks.len() {
            let k = lane(l);
            let c = &mut list[k];
            let law = &laws[c.law as usize];
            batch.settle(l, &mut frames[k], (law, &mut c.state), laned, (dt, flags));
        }
        batch.world();
        for l in 0..ks.len() {
            let c = &mut list[lane(l)];
            c.force = if batch.odd[l] {
                batch.odd_force[l]
            } else {
                Vec3::from(at(&batch.world, l))
            };
            c.normal_force = batch.law.force[0][l];
        }
    }
}

/// [`crate::contact::ball_ball::update`] of one contact `c` with its frame and force (no energy books;
/// the contact point is not kept), then, when it is active after its update, its force `F`
/// (on b) added at the contact point `C` to those of its balls in the scatter's range (ball a
/// unless `incoming`): `F_b += F`, `M_b += (C - x_b) x F`, `F_a -= F`, `M_a -= (C - x_a) x F`.
/// Returns true when it is active and interpenetrates (overlap larger than the smaller
/// radius, or NaN).
pub fn update_one(
    c: &mut Contact,
    (frame, force): (&mut Frame, &mut Vec3),
    (balls, laws): (&Balls, &[ContactModel]),
    (dt, flags, install_bonds): (Real, FrameFlags, bool),
    s: &mut Scatter,
    incoming: bool,
) -> bool {
    let law = &laws[c.law as usize];
    let mut point = Vec3::zeros();
    let out = Out {
        force,
        point: &mut point,
    };
    let u = crate::contact::ball_ball::update(
        c,
        out,
        Some(frame),
        balls,
        (law, None),
        None,
        (dt, flags, install_bonds, false),
    );
    if !c.active {
        return false;
    }
    let (a, b) = (c.a as usize, c.b as usize);
    exert(s, balls, (a, b), u.written, u.overlap, incoming)
}

/// An active contact's force `F` (on b) at the contact point `C` added to those of its balls
/// `a`, `b` in the scatter's range (ball a unless `incoming`): `F_b += F`,
/// `M_b += (C - x_b) x F`, `F_a -= F`, `M_a -= (C - x_a) x F` (the gather's operations in
/// its order). Returns true when the contact interpenetrates (`overlap` larger than the
/// smaller radius, or NaN).
#[inline(always)]
fn exert(
    s: &mut Scatter,
    balls: &Balls,
    (a, b): (usize, usize),
    [f, p]: [Vec3; 2],
    overlap: Real,
    incoming: bool,
) -> bool {
    if !incoming {
        s.add(a, &f, &(p - balls.pos[a]).cross(&f), true);
    }
    if s.holds(b) {
        s.add(b, &f, &(p - balls.partner(a, b)).cross(&f), false);
    }
    overlap > balls.radius[a].min(balls.radius[b]) || overlap.is_nan()
}
