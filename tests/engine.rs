//! The engine's invariants, each against a reference that does not come from the code under test.

use ballast::body::{dof, BallSpec};
use ballast::detect::{brute_force_pairs, Affine, BroadPhase};
use ballast::law::ContactModel;
use ballast::math::{Real, Vec3};
use ballast::model::Model;
use ballast::rng::SplitMix64;
use ballast::timestep::{Limit, TimestepMode};

use crate::common::{linear, on_threads};
use rstest::rstest;

fn model(dt: Real, gravity: Vec3, law: ContactModel) -> (Model, usize) {
    let glass = crate::common::material("glass", 0.0, 0.0);
    crate::common::model(TimestepMode::Fixed(dt), gravity, 1e-4, glass, law)
}

/// The cell grid finds exactly the pairs an all-pairs test finds, for dense, polydisperse and
/// sparse (one far-away ball: the grid must coarsen, not explode) scenes, and one large enough
/// for the parallel build.
#[test]
fn broad_phase_equals_all_pairs() {
    let mut rng = SplitMix64::new(11);
    // (5000 balls: the layers of cells go in parallel)
    for (n, spread, far) in [
        (1500, 0.1, false),
        (800, 0.05, true),
        (3, 0.02, false),
        (5000, 0.2, false),
    ] {
        let mut pos: Vec<Vec3> = (0..n)
            .map(|_| Vec3::new(rng.next_unit(), rng.next_unit(), rng.next_unit()) * spread)
            .collect();
        let radius: Vec<Real> = (0..n).map(|_| 0.001 + 0.003 * rng.next_unit()).collect();
        if far {
            pos[0] = Vec3::new(1e3, -2e3, 5e2);
        }
        let mut bp = BroadPhase::default();
        bp.build(&pos, &radius, 2e-4, None);
        assert_eq!(
            bp.pairs,
            brute_force_pairs(&pos, &radius, 2e-4, None),
            "n = {n}"
        );
    }
}

/// The broad phase rebuilds its candidate pairs only once a ball has moved more than the
/// margin `m`: in between, no pair can touch without being a contact (two balls that were not
/// candidates had a gap over `2 m`, and each has moved at most `m`). The worst case: 40 pairs
/// of balls approach each other head-on at the same speed, their initial gaps spread over
/// `(2 m, 4 m]` (no pair is a candidate at the first build), so every ball reaches the
/// rebuild distance in the same cycle. Checked every cycle against all pairs: every pair whose
/// balls overlap is an active contact. Fails with the rule at 1.2 or 2 margins (checked: the
/// pairs whose gap was just over 2 m then touch before the next rebuild).
#[test]
fn no_touching_pair_is_missed_between_rebuilds() {
    let margin = 1e-4;
    let (mut m, glass) = model(1e-6, Vec3::zeros(), linear(1e4, 0.0, 0.0, 0.0, 0.0));
    assert_eq!(m.settings.margin, margin);
    let (r, pairs) = (0.001, 40);
    for k in 0..pairs {
        let gap = 2.0 * margin * (1.0 + (k + 1) as Real / pairs as Real) + 1e-9;
        let y = 0.01 * k as Real;
        for (side, id) in [(-1.0, 2 * k + 1), (1.0, 2 * k + 2)] {
            let x = side * (r + 0.5 * gap);
            let mut b = BallSpec::at_rest(id as u64, [x, y, 0.0], r, glass);
            b.vel = Vec3::new(-side * 0.5, 0.0, 0.0);
            m.add_ball(&b).unwrap();
        }
    }
    m.prime().unwrap();
    assert!(m.contacts.is_empty(), "a pair was a candidate at the start");
    let builds0 = m.broad_phase.builds;
    let mut touching = 0;
    for _ in 0..1000 {
        m.cycle().unwrap();
        let (pos, radius) = (&m.balls.pos, &m.balls.radius);
        for i in 0..pos.len() {
            for j in i + 1..pos.len() {
                if (pos[j] - pos[i]).norm() < radius[i] + radius[j] {
                    touching += 1;
                    assert!(
                        m.contacts.find_active(i as u32, j as u32).is_some(),
                        "balls {i} and {j} overlap but are not an active contact (cycle {})",
                        m.cycles
                    );
                }
            }
        }
    }
    let builds = m.broad_phase.builds - builds0;
    assert!(builds >= 3, "{builds} rebuilds");
    assert!(touching > 1000, "{touching} touching pairs");
}

/// The law of motion, which steps 32 balls at a time in one branch-free loop over their
/// coordinates, gives the bits of the one-ball formulas (`motion::acceleration`, `motion::angular_acceleration`, then the kick
/// and the drift written out here) for 75 balls (two full batches and a short one) with random
/// forces, moments, velocities, applied forces and a varying timestep; random radii and fixed
/// DOFs except in the second batch, whose balls share one radius and are free (the loop for
/// a batch of equal balls), and whose ball 45 is the one farthest from its reference
/// position. Fails on any change of rounding (a reciprocal instead of a division, another
/// order of the force sum) or a lane mix-up, in either loop. The same bits with the balls cut into ranges run as parts on
/// two threads (as the force pass cuts them), including cuts inside a batch: fails when a
/// range reads another range's forces. The broad phase's displacement test made in the step
/// turns at the farthest ball's distance, from the reference positions or from them carried
/// by a deforming cell's affine motion.
#[test]
fn the_lane_law_of_motion_gives_the_one_ball_bits() {
    use ballast::motion::{acceleration, angular_acceleration, step, Reference};
    let gravity = Vec3::new(0.3, -0.2, -9.81);
    let (mut m, glass) = model(1e-5, gravity, linear(1e5, 0.0, 0.0, 0.0, 0.0));
    let mut rng = SplitMix64::new(2026);
    let mut v3 = |s: Real| {
        Vec3::new(
            rng.next_unit() - 0.5,
            rng.next_unit() - 0.5,
            rng.next_unit() - 0.5,
        ) * s
    };
    let n = 75;
    for i in 0..n {
        let mut b = BallSpec::at_rest(i as u64 + 1, [0.01 * i as Real, 0.0, 0.0], 0.001, glass);
        let equal = (32..64).contains(&i);
        b.radius = 0.001 * (1.0 + v3(1.0).x.abs() * 4.0);
        b.vel = v3(2.0);
        b.spin = v3(50.0);
        if equal {
            // (velocities well below a step's change, so that a change of its rounding shows
            // in the sum)
            b.radius = 0.0013;
            b.vel *= 1e-6;
        }
        if i % 3 == 0 {
            b.applied_force = v3(1e-3);
        }
        // every kind of fixed DOF: none, some translations, all, some rotations
        b.fixed = match i % 5 {
            _ if equal => 0,
            0 => (v3(1.0).x.abs() * 64.0) as u8 & 0x3f,
            1 => dof::TRANSLATION,
            _ => 0,
        };
        m.add_ball(&b).unwrap();
    }
    for i in 0..n {
        m.balls.force[i] = v3(1e-2);
        m.balls.moment[i] = v3(1e-5);
    }
    let before = m.balls.clone();
    let (dt_prev, dt) = (0.7e-5, 1.1e-5);
    // the broad phase's positions of a last build, near the current ones
    let mut reference: Vec<Vec3> = (0..n).map(|i| before.pos[i] + v3(4e-5)).collect();
    reference[45].x += 1e-4;
    let (finite, moved) = step(&mut m.balls, &gravity, dt_prev, dt, None, None);
    assert!(finite && !moved, "no reference, nothing moved");
    let kick = 0.5 * (dt_prev + dt);
    let bits = |v: &Vec3| [v.x.to_bits(), v.y.to_bits(), v.z.to_bits()];
    for i in 0..n {
        let vel = before.vel[i] + acceleration(&before, i, &gravity) * kick;
        let spin = before.spin[i] + angular_acceleration(&before, i) * kick;
        let pos = before.pos[i] + vel * dt;
        assert_eq!(bits(&m.balls.vel[i]), bits(&vel), "velocity of ball {i}");
        assert_eq!(bits(&m.balls.spin[i]), bits(&spin), "spin of ball {i}");
        assert_eq!(bits(&m.balls.pos[i]), bits(&pos), "position of ball {i}");
    }
    // the displacement test made during the step: true exactly when some ball ends farther
    // than the margin from its reference position (the largest such distance, computed here
    // after the step, just above and just below the margin); the same positions either way;
    // and in a deforming cell, the reference positions carried by its affine motion first
    // (a shear along x proportional to z, a stretch along y), as the broad phase carries them
    let sheared = Affine {
        rate: [2e-3, -1e-3, 0.0],
        from: [2, 1, 2],
        origin: [0.003, 0.001, 0.0],
    };
    let after = m.balls.clone();
    for affine in [None, Some(sheared)] {
        let levers: Vec<Vec3> = match affine {
            None => Vec::new(),
            Some(a) => reference.iter().map(|q| a.lever(q)).collect(),
        };
        let carried =
            |i: usize| affine.map_or(reference[i], |a| a.carried(&reference[i], &levers[i]));
        let distance = |i: usize| (after.pos[i] - carried(i)).norm();
        let farthest = (0..n).map(distance).fold(0.0, Real::max);
        if affine.is_none() {
            assert_eq!(farthest, distance(45));
        }
        // and the same again with the balls cut into ranges, each a part of its own on a pool
        // of two threads (the force pass's cut, followed by the law of motion), the cuts off
        // the 32-ball batches; a cut that does not end at the last ball is ignored
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        for (limit, expected) in [
            (farthest * (1.0 + 1e-9), false),
            (farthest * (1.0 - 1e-9), true),
        ] {
            for ranges in [
                None,
                Some(&[0, 31, n][..]),
                Some(&[0, 40, 41, n][..]),
                Some(&[0, 9][..]),
            ] {
                let mut b = before.clone();
                let (finite, moved) = pool.install(|| {
                    step(
                        &mut b,
                        &gravity,
                        dt_prev,
                        dt,
                        Some(Reference {
                            pos: &reference,
                            limit2: limit * limit,
                            affine: affine.map(|a| (&levers[..], a.rate)),
                        }),
                        ranges,
                    )
                });
                assert!(finite);
                assert_eq!(
                    moved, expected,
                    "limit {limit:e}, farthest {farthest:e}, {ranges:?}, {affine:?}"
                );
                assert_eq!(
                    (b.pos, b.vel, b.spin),
                    (after.pos.clone(), after.vel.clone(), after.spin.clone()),
                    "{ranges:?}"
                );
            }
        }
    }
}

/// Momentum and angular momentum (about the origin, orbital plus spin) are conserved exactly
/// by an oblique, damped, frictional collision of unequal balls: the contact applies equal and
/// opposite forces at one point. With velocities half a step behind positions the discrete
/// angular momentum sum(x_n x m v_(n-1/2)) + I w changes by sum(x_c x F) dt = 0 per cycle.
/// A wrong lever arm (e.g. the centre instead of the contact point) breaks this at once.
#[test]
fn oblique_collision_conserves_momentum_and_angular_momentum() {
    let (mut m, glass) = model(1e-7, Vec3::zeros(), linear(1e5, 8e4, 0.3, 0.2, 0.1));
    let mut a = BallSpec::at_rest(1, [-0.0105, 0.004, 0.001], 0.01, glass);
    a.vel = Vec3::new(0.8, -0.1, 0.05);
    a.spin = Vec3::new(3.0, -7.0, 20.0);
    let mut b = BallSpec::at_rest(2, [0.0085, -0.003, 0.0], 0.008, glass);
    b.vel = Vec3::new(-0.6, 0.2, 0.0);
    m.add_ball(&a).unwrap();
    m.add_ball(&b).unwrap();
    let totals = |m: &Model| {
        let bl = &m.balls;
        let mut p = Vec3::zeros();
        let mut l = Vec3::zeros();
        for i in 0..bl.len() {
            p += bl.vel[i] * bl.mass[i];
            l += bl.pos[i].cross(&(bl.vel[i] * bl.mass[i])) + bl.spin[i] * bl.inertia[i];
        }
        (p, l)
    };
    m.prime().unwrap();
    let (p0, l0) = totals(&m);
    let mut touched = false;
    for _ in 0..40_000 {
        m.cycle().unwrap();
        touched |= m.contacts.active_count() > 0;
    }
    assert!(touched, "the balls never met");
    assert_eq!(m.contacts.active_count(), 0, "still in contact");
    let (p1, l1) = totals(&m);
    assert!(
        (p1 - p0).norm() <= 1e-14 * p0.norm().max(1e-3),
        "momentum {p0} -> {p1}"
    );
    assert!(
        (l1 - l0).norm() <= 1e-12 * l0.norm(),
        "angular momentum {l0} -> {l1}"
    );
    // Friction must actually have acted: the spins changed.
    assert!((m.balls.spin[1]).norm() > 1.0, "no spin was transmitted");
}

/// Incremental shear force and the Coulomb limit. Ball 2 is driven at a constant tangential
/// speed v past fixed ball 1 with a constant overlap: by hand, |F_s| = ks v t until it reaches
/// friction * kn * overlap, then stays on that limit.
#[test]
fn shear_force_grows_by_ks_v_dt_then_slides_at_the_coulomb_limit() {
    let (kn, ks, mu, v) = (1e5, 2e5, 0.5, 0.01);
    let dt = 1e-6;
    let (mut m, glass) = model(dt, Vec3::zeros(), linear(kn, ks, mu, 0.0, 0.0));
    let mut a = BallSpec::at_rest(1, [0.0, 0.0, 0.0], 0.01, glass);
    a.fixed = dof::ALL;
    // Ball 2 moves along y on a circle-free straight line; its overlap changes only to second
    // order in the tangential travel (at most 1e-4 m here: overlap change < 3e-7 of 1e-4 m).
    let mut b = BallSpec::at_rest(2, [0.0199, -5e-5, 0.0], 0.01, glass);
    b.vel = Vec3::new(0.0, v, 0.0);
    b.fixed = dof::ALL;
    m.add_ball(&a).unwrap();
    m.add_ball(&b).unwrap();
    m.prime().unwrap();
    for _ in 0..2000 {
        m.cycle().unwrap();
    }
    let c = &m.contacts.list[0];
    let shear = c.shear_force(&m.contacts.frames[0]);
    let expected = ks * v * 2000.0 * dt; // 4 N, below the limit 0.5 * 1e5 * 1e-4 = 5 N
    assert!(
        (shear.norm() - expected).abs() < 1e-3 * expected,
        "{} vs {expected}",
        shear.norm()
    );
    assert!(
        shear.dot(&m.contacts.geometry(0, &m.balls).normal).abs() < 1e-9 * shear.norm(),
        "shear leaves the contact plane"
    );
    assert!(shear.y < 0.0, "shear on ball 2 must oppose its motion");
    for _ in 0..8000 {
        m.cycle().unwrap();
    }
    let c = &m.contacts.list[0];
    let limit = mu * kn * m.contacts.geometry(0, &m.balls).overlap;
    assert!(
        (c.shear_force(&m.contacts.frames[0]).norm() - limit).abs() < 1e-12 * limit,
        "{} vs limit {limit}",
        c.shear_force(&m.contacts.frames[0]).norm()
    );
}

/// A fixed DOF keeps its initial velocity under gravity; the free ones follow the parabola.
#[test]
fn fixed_dofs_keep_their_velocity() {
    let (mut m, glass) = model(
        1e-3,
        Vec3::new(0.0, -3.0, -9.81),
        linear(1e5, 0.0, 0.0, 0.0, 0.0),
    );
    let mut b = BallSpec::at_rest(1, [0.0, 0.0, 0.0], 0.01, glass);
    b.vel = Vec3::new(0.0, 1.0, 0.3);
    b.fixed = dof::Z;
    m.add_ball(&b).unwrap();
    for _ in 0..1000 {
        m.cycle().unwrap();
    }
    let t = 1.0;
    let p = m.balls.pos[0];
    assert!((p.z - 0.3 * t).abs() < 1e-12, "z = {}", p.z);
    assert!((p.y - (t - 1.5 * t * t)).abs() < 1e-12, "y = {}", p.y);
    assert_eq!(m.synchronized_velocity(0).z, 0.3);
}

/// A blow-up stops the run with a message naming the body and the cycle.
#[test]
fn a_blow_up_names_the_body_and_the_cycle() {
    // A ball between two fixed balls (omega = sqrt(2 kn / m) = 4370 rad/s) with dt = 1e-3 s,
    // far above the critical 2/omega = 4.6e-4 s: the amplitude grows ~17-fold per cycle.
    let (mut m, glass) = model(1e-3, Vec3::zeros(), linear(1e5, 0.0, 0.0, 0.0, 0.0));
    for (id, x) in [(3, -0.019), (7, 0.019)] {
        let mut f = BallSpec::at_rest(id, [x, 0.0, 0.0], 0.01, glass);
        f.fixed = dof::ALL;
        m.add_ball(&f).unwrap();
    }
    m.add_ball(&BallSpec::at_rest(1, [2e-4, 0.0, 0.0], 0.01, glass))
        .unwrap();
    let err = (0..1000)
        .find_map(|_| m.cycle().err())
        .expect("the run should blow up");
    let msg = err.to_string();
    assert!(msg.starts_with("cycle ") && msg.contains("ball 1"), "{msg}");
}

/// The same results, bit for bit, for 1 and 2 threads (the force loop runs in parallel above
/// 4,096 contacts; the gather into bodies is sequential in contact order).
#[test]
fn results_do_not_depend_on_the_thread_count() {
    let build = || {
        let (mut m, glass) = model(
            2e-7,
            Vec3::new(0.0, 0.0, -9.81),
            linear(1e4, 1e4, 0.4, 0.2, 0.1),
        );
        let mut rng = SplitMix64::new(5);
        let mut id = 1;
        for i in 0..18 {
            for j in 0..18 {
                for k in 0..18 {
                    // NOTE: spacing 1.99 r: every neighbour pair is compressed, about 17k contacts.
                    let mut jitter = || 1e-5 * (rng.next_unit() - 0.5);
                    let p = [
                        i as Real * 1.99e-3 + jitter(),
                        j as Real * 1.99e-3 + jitter(),
                        k as Real * 1.99e-3 + jitter(),
                    ];
                    m.add_ball(&BallSpec::at_rest(id, p, 1e-3, glass)).unwrap();
                    id += 1;
                }
            }
        }
        m
    };
    let run = |threads: usize| {
        on_threads(threads, || {
            let mut m = build();
            for _ in 0..20 {
                m.cycle().unwrap();
            }
            assert!(
                m.contacts.active_count() > 4096,
                "too few contacts to go parallel"
            );
            m.balls
                .pos
                .iter()
                .chain(&m.balls.spin)
                .flat_map(|v| v.iter().map(|x| x.to_bits()))
                .collect::<Vec<u64>>()
        })
    };
    assert!(run(1) == run(2), "1 and 2 threads differ");
}

/// Contacts persist across rebuilds of the broad phase with their shear state, and a contact
/// that opens loses it.
#[test]
fn contacts_persist_across_rebuilds() {
    let (mut m, glass) = model(1e-6, Vec3::zeros(), linear(1e5, 1e5, 10.0, 0.0, 0.0));
    let mut a = BallSpec::at_rest(1, [0.0, 0.0, 0.0], 0.01, glass);
    a.fixed = dof::ALL;
    let mut b = BallSpec::at_rest(2, [0.0199, 0.0, 0.0], 0.01, glass);
    b.vel = Vec3::new(0.0, 0.2, 0.0);
    b.fixed = dof::ALL;
    m.add_ball(&a).unwrap();
    m.add_ball(&b).unwrap();
    m.prime().unwrap();
    let builds0 = m.broad_phase.builds;
    for _ in 0..2000 {
        m.cycle().unwrap();
    }
    // Ball 2 travelled 0.4 mm, four times the 0.1 mm margin: the grid was rebuilt.
    assert!(
        m.broad_phase.builds >= builds0 + 4,
        "builds: {}",
        m.broad_phase.builds
    );
    let c = &m.contacts.list[0];
    let expected = 1e5 * 0.2 * 2000.0 * 1e-6;
    assert!(
        (c.shear_force(&m.contacts.frames[0]).norm() - expected).abs() < 1e-2 * expected,
        "{} vs {expected}",
        c.shear_force(&m.contacts.frames[0]).norm()
    );
}

/// The settle-box case of cases/bench with 4,200 balls in a box twice as wide (the law of
/// motion goes parallel from 4,096 balls), as case text, renumbered in the default order
/// (its `sort_order = "rows"` line left out, so that removing `sort_every = 1000` leaves no
/// renumbering key behind).
fn settle_box_4200() -> String {
    let text = std::fs::read_to_string("cases/bench/settle_box_hertz_1k.toml").unwrap();
    assert!(text.contains("sort_every = 1000\nsort_order = \"rows\"\n"));
    text.replace("sort_order = \"rows\"\n", "")
        .replace("count = 1000", "count = 4200")
        .replace("max = [0.025, 0.025, 0.025]", "max = [0.05, 0.05, 0.0275]")
}

/// Builds the model of case `text` and runs `cycles` cycles on `threads` threads, after
/// `edit` has changed the model.
fn run_text(
    text: &str,
    threads: usize,
    cycles: usize,
    edit: impl Fn(&mut ballast::model::Model) + Send + Sync,
) -> ballast::model::Model {
    let case = ballast::case::parse(text, std::path::Path::new("cases/bench/x.toml")).unwrap();
    on_threads(threads, || {
        let mut m = case.build_model(None).unwrap();
        edit(&mut m);
        for _ in 0..cycles {
            m.cycle().unwrap();
        }
        m
    })
}

/// The settle-box benchmark scene (hertz-history, six walls) gives the same state, bit for
/// bit, on 1, 2 and 3 threads (issue #8), with its renumbering of the balls every 1,000
/// cycles. 4,200 balls (the law of motion goes parallel from
/// 4,096) and a margin of 1 mm (over 10,000 candidate pairs, over 1,024 ball-facet ones) make
/// every per-ball and per-contact loop take its parallel path; 2,500 steps bring the bottom layer onto the floor.
#[test]
fn the_settle_box_scene_does_not_depend_on_the_thread_count() {
    let text = settle_box_4200().replace("margin = 1e-4", "margin = 1e-3");
    let run = |threads: usize| {
        let m = run_text(&text, threads, 2500, |_| ());
        assert!(
            m.contacts.list.len() > 4096 && m.balls.len() > 4096,
            "too few contacts or balls to go parallel"
        );
        let nw = m.facet_contacts.active_count();
        assert!(
            nw > 100,
            "{nw} wall contacts: the balls have not reached the floor"
        );
        // (the general loop's wall phase goes parallel from 1,024 ball-facet contacts; this
        // frame-free one computes the wall interactions with the ranges of balls)
        let fc = m.facet_contacts.list.len();
        assert!(
            fc > 1024,
            "{fc} ball-facet contacts: too few to go parallel"
        );
        state_bits(&m)
    };
    let one = run(1);
    assert!(one == run(2), "1 and 2 threads differ");
    assert!(one == run(3), "1 and 3 threads differ");
}

/// The automatic timestep's per-ball stiffness sums, taken in the one-pass force loop for the
/// next cycle (src/force/ranges.rs: each run of contacts eight at a time right after its
/// update, then the wall interactions, range by range), against the separate pass over the
/// contact list that runs when the general loop does (energy books kept): the same steps
/// and the same state, bit for bit, on 1 and 2 threads, for a Hertz history model (the
/// foresight of closing contacts), a linear history model (constant stiffnesses) and
/// Hertz-Mindlin on the contact frame. The cap of 1e-4 s is above the steps the estimate
/// gives once the balls touch: the estimate sets most steps.
#[test]
fn the_automatic_timestep_sums_of_the_force_pass_are_the_separate_ones() {
    const CYCLES: usize = 1000;
    let hooke = "model = \"hooke-history\"\nkn = 500.0\nks = 142.85714285714286\n\
                 gamma_n = 0.022047958894760567\ngamma_t = 0.0062994168270744475";
    let base = std::fs::read_to_string("cases/bench/settle_box_hertz_1k.toml")
        .unwrap()
        .replace("sort_every = 1000\nsort_order = \"rows\"\n", "")
        .replace("mode = \"fixed\"\ndt = 1e-5", "mode = \"auto\"\ndt = 1e-4");
    assert!(base.contains("mode = \"auto\""));
    let scenes = [
        ("hertz-history", base.clone()),
        (
            "hooke-history",
            base.replace(
                "model = \"hertz-history\"\nfriction = 0.5\nrestitution = 0.5",
                hooke,
            ),
        ),
        (
            "hertz",
            base.replace("model = \"hertz-history\"", "model = \"hertz\"")
                .replace("friction_limit = \"spring\"", ""),
        ),
    ];
    for (name, text) in scenes {
        assert!(text.contains(&format!("model = \"{name}\"\n")), "{name}");
        let case = ballast::case::parse(&text, std::path::Path::new("cases/bench/x.toml")).unwrap();
        let run = |threads: usize, books: bool| {
            on_threads(threads, || {
                let mut m = case.build_model(None).unwrap();
                if books {
                    m.keep_energy_books();
                }
                let mut steps = Vec::new();
                let mut by_stiffness = 0;
                for _ in 0..CYCLES {
                    m.cycle().unwrap();
                    steps.push(m.last_dt.to_bits());
                    by_stiffness += matches!(m.dt_limit, Limit::Stiffness { .. }) as usize;
                }
                // (from 1,024 candidate pairs the force pass cuts the balls into ranges)
                let pairs = m.contacts.list.len();
                (
                    steps,
                    by_stiffness,
                    state_bits(&m),
                    (m.contacts.active_count(), pairs),
                )
            })
        };
        let (steps, by_stiffness, state, active) = run(1, false);
        eprintln!(
            "{name}: {by_stiffness} {active:?} {}",
            f64::from_bits(*steps.last().unwrap())
        );
        assert!(
            by_stiffness > 500,
            "{name}: {by_stiffness} steps set by the estimate"
        );
        assert!(
            active.0 > 500 && active.1 > 1024,
            "{name}: {active:?} contacts"
        );
        for (threads, books) in [(2, false), (1, true), (2, true)] {
            let (s, _, st, _) = run(threads, books);
            assert!(
                s == steps,
                "{name}: the steps differ ({threads} threads, books {books})"
            );
            assert!(
                st == state,
                "{name}: the state differs ({threads} threads, books {books})"
            );
        }
    }
}

/// What a run of the bound's scene shows: the steps (bits), how many the bound set, the final
/// state (bits) and the thread count of the partition of the balls into ranges.
type BoundRun = (Vec<u64>, usize, Vec<u64>, usize);

/// The scene of [`the_bound_on_ranges_of_balls_does_not_depend_on_the_thread_count`] run on
/// `threads` threads.
fn bound_on_ranges(threads: usize) -> BoundRun {
    const CYCLES: usize = 1000;
    let text = std::fs::read_to_string("cases/bench/settle_box_hertz_1k.toml")
        .unwrap()
        .replace(
            "mode = \"fixed\"\ndt = 1e-5",
            "mode = \"auto\"\nestimator = \"bound\"\ndt = 1e-4",
        );
    assert!(text.contains("estimator = \"bound\""));
    let case = ballast::case::parse(&text, std::path::Path::new("cases/bench/x.toml")).unwrap();
    on_threads(threads, || {
        let mut m = case.build_model(None).unwrap();
        let (mut steps, mut by_bound) = (Vec::new(), 0);
        for _ in 0..CYCLES {
            m.cycle().unwrap();
            steps.push(m.last_dt.to_bits());
            by_bound += matches!(m.dt_limit, Limit::Stiffness { .. }) as usize;
        }
        let ranged = m.contacts.partition.threads;
        (steps, by_bound, state_bits(&m), ranged)
    })
}

/// The run on one thread the rows of
/// [`the_bound_on_ranges_of_balls_does_not_depend_on_the_thread_count`] compare with: made
/// once, by the first row that asks.
fn bound_on_one_thread() -> &'static BoundRun {
    static RUN: std::sync::OnceLock<BoundRun> = std::sync::OnceLock::new();
    RUN.get_or_init(|| bound_on_ranges(1))
}

/// The bound estimator's row sums on the ranges of balls of the force pass (src/stiffness/
/// estimate.rs, `bound_rows`: each range takes its incoming crossing contacts, its segment,
/// then its wall interactions): the settle-box scene of 1,000 balls with `estimator =
/// "bound"` and a cap of 1e-4 s, above the steps the bound gives once the balls touch, so
/// that the bound sets most steps: the same steps and the same state, bit for bit, on 1, 2
/// and 3 threads, the partition for that many threads made (the path by ranges taken).
///
/// A row: the number of threads compared with one.
#[rstest]
#[case::on_2_threads(2)]
#[case::on_3_threads(3)]
fn the_bound_on_ranges_of_balls_does_not_depend_on_the_thread_count(#[case] threads: usize) {
    let (steps, by_bound, state, _) = bound_on_one_thread();
    assert!(*by_bound > 500, "{by_bound} steps set by the bound");
    let (s, _, st, ranged) = bound_on_ranges(threads);
    assert_eq!(ranged, threads, "no partition for {threads} threads");
    assert!(s == *steps, "the steps differ on {threads} threads");
    assert!(st == *state, "the state differs on {threads} threads");
}

/// The force loops against each other on the same settle-box scene (hertz-history): the
/// frame-free loop (batches that add each contact's force to its balls at once, the ball
/// ranges split between threads); the one-pass loop with frames, which runs when some
/// contact model of the case uses a local frame (here a linear model for a second material
/// that no ball has); and the general loop (every contact, then a gather per ball over an
/// incidence list), which runs while energy books are kept. All must sum every ball's
/// contacts in list order: the same state bit for bit, on 1 and 2 threads.
#[test]
fn the_frame_free_force_loop_gives_the_general_loops_state() {
    let text = settle_box_4200().replace("sort_every = 1000", "");
    frame_free_against_general(&text, |_| ());
}

/// The case `text` (frame-free models only), the same with a frame-based model for a
/// material no ball has (the one-pass loop with frames), and both with energy books (the
/// general loop): the same state, bit for bit, on 1 and 2 threads; `edit` changes the model
/// before the first cycle.
fn frame_free_against_general(
    text: &str,
    edit: impl Fn(&mut ballast::model::Model) + Send + Sync + Copy,
) {
    let framed = format!(
        "{text}\n[material.spare]\ndensity = 1000.0\n\n[[contact]]\nbetween = [\"spare\", \"spare\"]\n\
         model = \"linear\"\nkn = 1e4\nks = 1e4\nfriction = 0.5\n"
    );
    // the final state, and each contact's force with its sliding flag (the frame-free loop
    // keeps no forces: `Contacts::force` finds them again from the state; the other loops
    // keep the ones they computed)
    let run = |text: &str, threads: usize, books: bool| {
        let m = run_text(text, threads, 3500, |m| {
            edit(m);
            if books {
                m.keep_energy_books();
            }
        });
        let active = m.contacts.active_count();
        assert!(active > 1000, "{active} active contacts: too few");
        let forces: Vec<(Vec3, bool)> = (0..m.contacts.len())
            .map(|k| {
                (
                    m.contacts.contact_force(k, &m.balls, &m.laws),
                    m.contacts.list[k].sliding,
                )
            })
            .collect();
        (m.contacts.frames.len(), state_bits(&m), forces)
    };
    let (frames, fast, held) = run(text, 1, false);
    assert_eq!(frames, 0, "the frame-free loop keeps no frames");
    assert!(
        held.iter().filter(|f| f.1).count() > 10,
        "too few sliding contacts"
    );
    for (text, books, what) in [
        (&framed, false, "the one-pass loop with frames"),
        (&framed, true, "the general loop with frames"),
        (&text.to_string(), true, "the general loop"),
    ] {
        for threads in [1, 2] {
            let (frames, slow, kept) = run(text, threads, books);
            assert_eq!(frames > 0, text == &framed, "{what}: frames");
            assert!(fast == slow, "{what} differs on {threads} thread(s)");
            // the same bits when sticking, within a rounding when sliding (-k_t xi with
            // xi = -F_t/k_t)
            assert_eq!(held.len(), kept.len());
            for (k, ((h, sliding), (f, _))) in held.iter().zip(&kept).enumerate() {
                if *sliding {
                    assert!(
                        (h - f).norm() <= 4.0 * f64::EPSILON * f.norm(),
                        "{what}: contact {k}"
                    );
                } else {
                    assert!(
                        h.map(f64::to_bits) == f.map(f64::to_bits),
                        "{what}: contact {k}: {h} {f}"
                    );
                }
            }
        }
    }
    assert!(
        fast == run(text, 2, false).1,
        "the frame-free loop differs on 2 threads"
    );
}

/// Renumbering with a frame-based model (Hertz-Mindlin on the contact frame): a contact whose
/// balls swap roles turns its frame over (normal and first tangential axis) and its shear
/// force with it; without that the balls of the sheared contacts would be pushed the wrong
/// way and end far apart. The same bounds as for the history model.
#[test]
fn renumbering_turns_the_frames_over() {
    let text = settle_box_4200()
        .replace("model = \"hertz-history\"", "model = \"hertz\"")
        .replace("friction_limit = \"spring\"", "");
    assert!(text.contains("model = \"hertz\"\n") && text.contains("sort_every = 1000"));
    renumbering_changes_only_the_round_off(&text, (1e-12, 1e-9));
}

/// Renumbering with a rolling resistance (Hertz-Mindlin on the frame with the EPSD rolling
/// spring): each contact's rolling spring, kept beside its frame, follows it through the sort
/// and turns over with it when the balls swap roles (the moment on the new ball b is the
/// opposite vector); without that the rolling couples would push the balls the wrong way. The
/// same bounds as without rolling.
#[test]
fn renumbering_turns_the_rolling_springs_over() {
    let text = settle_box_4200()
        .replace("model = \"hertz-history\"", "model = \"hertz\"")
        .replace(
            "friction_limit = \"spring\"",
            "rolling = { kind = \"epsd\", coefficient = 0.3 }",
        );
    assert!(text.contains("coefficient = 0.3") && text.contains("sort_every = 1000"));
    let m = run_text(&text.replace("sort_every = 1000", ""), 1, 3000, |_| ());
    let rolling = (m.contacts.roll.iter()).filter(|r| r.norm() > 0.0).count();
    assert!(
        rolling > 1000,
        "{rolling} contacts with a rolling spring: too few"
    );
    renumbering_changes_only_the_round_off(&text, (1e-12, 1e-9));
}

/// A frame-based model (Hertz-Mindlin on the contact frame) on the settle-box scene: the
/// one-pass loop (each contact with its frame, forces added to the ball ranges at once) and
/// the general loop (every contact, then the gather; it runs while energy books are kept)
/// give the same state, the same kept forces and the same contact points (kept by the general
/// loop, from the geometry after the one-pass loop), bit for bit, on 1 and 2 threads.
#[test]
fn a_frame_model_gives_the_same_state_in_both_loops_on_any_thread_count() {
    let text = settle_box_4200()
        .replace("sort_every = 1000", "")
        .replace("model = \"hertz-history\"", "model = \"hertz\"")
        .replace("friction_limit = \"spring\"", "");
    assert!(text.contains("model = \"hertz\"\n"));
    one_pass_against_general(&text, &[1, 2]);
}

/// The same comparison with the box turning about a vertical axis through the centre of its
/// floor (3 rad/s, its walls moving at up to 0.1 m/s): each ball-facet contact sees the wall's
/// velocity at the contact point and the wall's spin, which the one-pass loop's batches of
/// ball-facet contacts on the frame (`ballast::force::lanes::frame::update_facet_framed`)
/// take from the one-contact path: the same state, bit for bit, on 1 and 2 threads.
#[test]
fn a_frame_model_gives_the_same_state_in_both_loops_in_a_turning_box() {
    let text = settle_box_4200()
        .replace("sort_every = 1000", "")
        .replace("model = \"hertz-history\"", "model = \"hertz\"")
        .replace("friction_limit = \"spring\"", "")
        .replace(
            "box = { min = [0.0, 0.0, 0.0], max = [0.05, 0.05, 0.0275] }",
            "box = { min = [0.0, 0.0, 0.0], max = [0.05, 0.05, 0.0275] }\n\
             motion = { kind = \"rigid\", vel = [0.0, 0.0, 0.0], spin = [0.0, 0.0, 3.0], \
             pivot = [0.025, 0.025, 0.0] }",
        );
    assert!(text.contains("spin = [0.0, 0.0, 3.0]"));
    // (the bottom layer lies on the turning floor)
    let m = run_text(&text, 1, 3500, |_| ());
    let touching = (m.facet_contacts.list.iter()).filter(|c| c.active).count();
    assert!(
        touching > 200,
        "{touching} active ball-facet contacts: too few"
    );
    one_pass_against_general(&text, &[1, 2]);
}

/// The same comparison for every other model on the contact frame (their batches of eight
/// contacts in the one-pass loop: `ballast::force::lanes::frame`, `ballast::law::lanes`),
/// with both Coulomb rules (the default one, and `spring` for linear-dashpot and Hertz;
/// the hysteretic model has no dashpot, so both are the same), and for Hertz-Mindlin
/// with the frame flags the batches follow (`no_ratch`, `no_twist`) and with one they do not
/// (`previous_normal`: one contact at a time): the one-pass loop on 2 threads against the
/// general loop on 1. The bonds of `linearbond` are installed in the first cycle (the
/// settle-box's balls start apart: few hold) and the hysteretic model keeps its largest
/// overlap: each model's state goes through the batches.
///
/// A row: the model's keys in the case file (with a `[frame]` table after them for the frame
/// flags).
#[rstest]
#[case::linear(format!("model = \"linear\"\n{FRAME_SPRING}damp_n = 0.2\ndamp_s = 0.2\n"))]
#[case::linear_dashpot(format!("model = \"linear-dashpot\"\n{FRAME_SPRING}restitution = 0.5\n"))]
#[case::linear_dashpot_spring_limit(format!(
    "model = \"linear-dashpot\"\n{FRAME_SPRING}restitution = 0.5\n{SPRING_LIMIT}"
))]
#[case::hertz_spring_limit(format!("{FRAME_HERTZ}{SPRING_LIMIT}"))]
#[case::hysteretic(format!("model = \"hysteretic\"\n{FRAME_SPRING}k_unload = 2000.0\n"))]
#[case::linearbond(format!("model = \"linearbond\"\n{FRAME_SPRING}"))]
#[case::hertz_no_ratch_no_twist(format!(
    "{FRAME_HERTZ}\n[frame]\nno_ratch = true\napproximations = [\"no_twist\"]\n"
))]
#[case::hertz_previous_normal(format!(
    "{FRAME_HERTZ}\n[frame]\napproximations = [\"previous_normal\"]\n"
))]
fn every_frame_model_gives_the_same_state_in_both_loops(#[case] model: String) {
    let base = settle_box_4200().replace("sort_every = 1000", "");
    let block = "model = \"hertz-history\"\nfriction = 0.5\nrestitution = 0.5\n\
                 # LIGGGHTS's Coulomb rule (the history spring alone within mu F_n), to compare with it\n\
                 friction_limit = \"spring\"\n";
    assert!(base.contains(block));
    // (the contact block moved to the end of the file, where a [frame] table may follow)
    let text = format!(
        "{}\n[[contact]]\nbetween = [\"grain\", \"grain\"]\n{model}",
        base.replace(
            &format!("[[contact]]\nbetween = [\"grain\", \"grain\"]\n{block}"),
            ""
        )
    );
    one_pass_against_general(&text, &[2]);
}

/// Hertz-Mindlin on the contact frame, for the rows of
/// [`every_frame_model_gives_the_same_state_in_both_loops`].
const FRAME_HERTZ: &str = "model = \"hertz\"\nfriction = 0.5\nrestitution = 0.5\n";
/// The springs of the linear models of those rows.
const FRAME_SPRING: &str = "kn = 500.0\nks = 142.85714285714286\nfriction = 0.5\n";
/// LIGGGHTS's Coulomb rule.
const SPRING_LIMIT: &str = "friction_limit = \"spring\"\n";

/// Case `text` (a model on the contact frame) run 3,500 cycles by the one-pass loop on each
/// of `threads` and by the general loop (energy books kept) on 1 and 2 threads: the same
/// state and the same kept forces, bit for bit.
fn one_pass_against_general(text: &str, threads: &[usize]) {
    let run = |threads: usize, books: bool| {
        let m = run_text(text, threads, 3500, |m| {
            if books {
                m.keep_energy_books();
            }
        });
        assert!(!m.contacts.frames.is_empty());
        let active = m.contacts.active_count();
        // (linearbond's bonds hold part of the starting lattice apart: 455 contacts)
        assert!(active > 400, "{active} active contacts: too few");
        let forces: Vec<u64> = (m.contacts.force.iter())
            .flat_map(|f| f.iter().map(|x| x.to_bits()).collect::<Vec<_>>())
            .collect();
        // the active contacts' points: kept by the general loop, from the geometry after the
        // one-pass loop, which keeps none
        assert_eq!(m.contacts.point.is_empty(), !books);
        let points: Vec<u64> = (0..m.contacts.len())
            .filter(|&k| m.contacts.list[k].active)
            .flat_map(|k| {
                m.contacts
                    .contact_point(k, &m.balls)
                    .map(f64::to_bits)
                    .data
                    .0[0]
            })
            .collect();
        (state_bits(&m), forces, points)
    };
    let general = run(1, true);
    for &t in threads {
        assert!(
            general == run(t, false),
            "the one-pass loop differs on {t} thread(s)"
        );
    }
    assert!(
        general == run(2, true),
        "the general loop differs on 2 threads"
    );
}

/// The same comparison with two frame-free models mixed: every other ball is of a second
/// material whose contacts (with itself and with the first) follow hooke-history, so the
/// batches of eight contacts of the frame-free loop mix Hertz and Hooke lanes (and some are
/// all Hooke or all Hertz): each lane must still compute its own model's force.
#[test]
fn mixed_frame_free_models_give_the_general_loops_state() {
    let hooke = "model = \"hooke-history\"\nkn = 500.0\nks = 142.85714285714286\n\
                 gamma_n = 0.022047958894760567\ngamma_t = 0.0062994168270744475\nfriction = 0.5\n";
    let text = format!(
        "{}\n[material.other]\ndensity = 2500.0\nyoung = 5.0e6\npoisson = 0.3\n\n\
         [[contact]]\nbetween = [\"other\", \"other\"]\n{hooke}\n\
         [[contact]]\nbetween = [\"grain\", \"other\"]\n{hooke}",
        settle_box_4200().replace("sort_every = 1000", "")
    );
    frame_free_against_general(&text, |m| {
        let other = m.materials.iter().position(|x| x.name == "other").unwrap() as u16;
        for i in (1..m.balls.len()).step_by(2) {
            m.balls.material[i] = other;
        }
    });
}

/// Renumbering the balls (`[run] sort_every`, src/detect/sort.rs), in rows of cells (the
/// default) or along the Z curve (`sort_order = "morton"`), changes the order of the sums
/// only: the same settle-box scene run without renumbering and with it (every 500 cycles)
/// ends with every ball, found by its id, at the same place to within round-off grown over
/// the run. A contact whose balls swap order must turn its shear history over: without that,
/// the balls of the sliding contacts would end micrometres apart. Each renumbered run is also
/// the same, bit for bit, on 1 and 2 threads, and the two orders number the balls differently.
#[test]
fn renumbering_the_balls_changes_only_the_round_off() {
    renumbering_changes_only_the_round_off(&settle_box_4200(), (1e-12, 1e-9));
}

/// Renumbering with clumps: the settle-box scene of 4,200 balls falling onto 240 two-pebble
/// clumps (pebbles r = 1 mm, 1.2 mm apart) lying on the floor, 3,000 cycles. Each
/// clump's pebbles must move as one block in their order (the clump finds them from its first
/// one): run without renumbering and renumbered every 500 cycles in rows of cells and along
/// the Z curve, every free ball (by id) and every clump (by index, which renumbering keeps)
/// ends at the same place and speed within round-off, each renumbered run is the same bits on
/// 1 and 2 threads, and the pebbles of each clump are consecutive and where the clump puts
/// them. (Without the clumps kept whole, `Model::cycle` finds a clump's pebbles scattered
/// among other balls.)
#[test]
fn renumbering_keeps_the_clumps_whole_and_changes_only_the_round_off() {
    // The generator's 4,200 balls start 1.05 mm or more above z = 0 (0.2 mm of jitter
    // aside): the box's floor is lowered to -3 mm and 240 clumps lie along x under them, 0.25
    // mm above it, so that the bed lands on the clumps.
    let mut text = settle_box_4200()
        .replace(
            "min = [0.0, 0.0, 0.0], max = [0.05, 0.05, 0.0275]",
            "min = [0.0, 0.0, -0.003], max = [0.05, 0.05, 0.0275]",
        )
        .replace("sort_every = 1000", "");
    assert!(text.contains("-0.003"));
    for i in 0..12 {
        for j in 0..20 {
            let (x, y) = (0.003 + 0.004 * i as f64, 0.00125 + 0.0025 * j as f64);
            text += &format!(
                "\n[[clump]]\npos = [{x}, {y}, -0.00175]\nmaterial = \"grain\"\npebbles = [ \
                 {{ offset = [-0.0006, 0.0, 0.0], radius = 0.001 }}, \
                 {{ offset = [0.0006, 0.0, 0.0], radius = 0.001 }} ]\n"
            );
        }
    }
    let sorted = |order: &str| {
        text.replacen(
            "[run]\n",
            &format!("[run]\nsort_every = 500\nsort_order = \"{order}\"\n"),
            1,
        )
    };
    let run = |text: &str, threads: usize| run_text(text, threads, 3000, |_| ());
    let plain = run(&text, 1);
    assert_eq!(plain.clumps.len(), 240);
    let pebble = |m: &Model, i: u32| m.balls.is_pebble(i as usize);
    let touching = (plain.contacts.list.iter())
        .filter(|c| c.active && (pebble(&plain, c.a) || pebble(&plain, c.b)))
        .count();
    eprintln!(
        "active {} clump z {} ball z max {}",
        plain.contacts.active_count(),
        plain.clumps.pos[0].z,
        plain
            .balls
            .pos
            .iter()
            .filter(|p| p.z < 0.028)
            .map(|p| p.z)
            .fold(0.0, f64::max)
    );
    assert!(touching > 200, "{touching} contacts of pebbles: too few");
    let free = |m: &Model| {
        let mut v: Vec<(u64, Vec3, Vec3)> = (0..m.balls.len())
            .filter(|&i| !m.balls.is_pebble(i))
            .map(|i| (m.balls.id[i], m.balls.pos[i], m.balls.vel[i]))
            .collect();
        v.sort_by_key(|e| e.0);
        v
    };
    for order in ["rows", "morton"] {
        let one = run(&sorted(order), 1);
        assert!(
            state_bits(&one) == state_bits(&run(&sorted(order), 2)),
            "{order}: the renumbered run differs on 1 and 2 threads"
        );
        let cl = &one.clumps;
        let moved = (0..cl.len())
            .filter(|&c| cl.first[c] != plain.clumps.first[c])
            .count();
        assert!(moved > 100, "{order}: only {moved} clumps renumbered");
        for c in 0..cl.len() {
            let f = cl.first[c] as usize;
            for k in 0..cl.count[c] as usize {
                assert_eq!(
                    one.balls.clump[f + k],
                    c as u32,
                    "{order}: clump {c} pebble {k}"
                );
            }
            let d = (one.balls.pos[f] - one.balls.pos[f + 1]).norm();
            assert!(
                (d - 0.0012).abs() < 1e-12,
                "{order}: clump {c}: pebbles {d} m apart"
            );
        }
        let (mut dx, mut dv) = (0.0 as Real, 0.0 as Real);
        for (a, b) in free(&plain).iter().zip(&free(&one)) {
            assert_eq!(a.0, b.0);
            dx = dx.max((a.1 - b.1).norm());
            dv = dv.max((a.2 - b.2).norm());
        }
        for c in 0..cl.len() {
            dx = dx.max((plain.clumps.pos[c] - cl.pos[c]).norm());
            dv = dv.max((plain.clumps.vel[c] - cl.vel[c]).norm());
        }
        eprintln!("{order}: largest difference: position {dx:e} m, velocity {dv:e} m/s");
        assert!(
            dx < 1e-12 && dv < 1e-9,
            "{order}: position {dx:e} m, velocity {dv:e} m/s"
        );
    }
}

/// `text` run without renumbering and renumbered every 500 cycles (rows of cells, Z curve):
/// the same balls, found by id, at the same place and speed within `(dx, dv)` (m, m/s), and
/// each renumbered run the same bits on 1 and 2 threads.
fn renumbering_changes_only_the_round_off(text: &str, (dx_max, dv_max): (Real, Real)) {
    let text = text.to_string();
    let (text, rows, morton) = (
        text.replace("sort_every = 1000", ""),
        text.replace("sort_every = 1000", "sort_every = 500"),
        text.replace(
            "sort_every = 1000",
            "sort_every = 500\nsort_order = \"morton\"",
        ),
    );
    assert!(text != rows && !text.contains("sort_every") && morton.contains("morton"));
    let run = |text: &str, threads: usize| {
        let m = run_text(text, threads, 3000, |_| ());
        let sheared = (m.contacts.list.iter())
            .filter(|c| c.active && c.state.shear_force().norm() > 0.0)
            .count();
        assert!(sheared > 1000, "{sheared} contacts with shear: too few");
        m
    };
    let plain = run(&text, 1);
    let by_id = |m: &Model| {
        let mut v: Vec<(u64, Vec3, Vec3)> = (0..m.balls.len())
            .map(|i| (m.balls.id[i], m.balls.pos[i], m.balls.vel[i]))
            .collect();
        v.sort_by_key(|e| e.0);
        v
    };
    let mut ids = Vec::new();
    for (name, sorted) in [("rows", &rows), ("morton", &morton)] {
        let one = run(sorted, 1);
        assert!(
            state_bits(&one) == state_bits(&run(sorted, 2)),
            "{name}: the renumbered run differs on 1 and 2 threads"
        );
        let moved = (0..one.balls.len())
            .filter(|&i| one.balls.id[i] != plain.balls.id[i])
            .count();
        assert!(moved > 1000, "{name}: only {moved} balls renumbered");
        let (p, q) = (by_id(&plain), by_id(&one));
        let (mut dx, mut dv) = (0.0 as Real, 0.0 as Real);
        for (a, b) in p.iter().zip(&q) {
            assert_eq!(a.0, b.0);
            dx = dx.max((a.1 - b.1).norm());
            dv = dv.max((a.2 - b.2).norm());
        }
        eprintln!("{name}: largest difference: position {dx:e} m, velocity {dv:e} m/s");
        assert!(
            dx < dx_max && dv < dv_max,
            "{name}: position {dx:e} m, velocity {dv:e} m/s"
        );
        ids.push(one.balls.id.clone());
    }
    assert!(
        ids[0] != ids[1],
        "rows and the Z curve gave the same numbering"
    );
}

/// Every ball's position, velocity and angular velocity, bit for bit.
fn state_bits(m: &ballast::model::Model) -> Vec<u64> {
    m.balls
        .pos
        .iter()
        .chain(&m.balls.vel)
        .chain(&m.balls.spin)
        .flat_map(|v| v.iter().map(|x| x.to_bits()))
        .collect()
}

/// The frame-based models' side arrays (the frames, the kept forces and contact points, the
/// ball-facet frames) get their room when the model is built, as the contact lists do (8
/// candidate pairs per ball, half a ball-facet contact per ball): the packing forms without
/// moving them (each move was a doubling whose old block stayed resident in the allocator's
/// heap). A history model keeps none of them and gets no room for them; nor does the one-pass
/// force loop keep contact points or losses (it adds each force to its balls at once), which
/// only the general loop and its gather read.
#[test]
fn the_frames_get_their_room_when_the_model_is_built() {
    let text = std::fs::read_to_string("cases/bench/settle_box_hertz_1k.toml").unwrap();
    let framed = text
        .replace("model = \"hertz-history\"", "model = \"hertz\"")
        .replace("friction_limit = \"spring\"", "");
    assert_ne!(framed, text);
    let build = |text: &str| {
        let case = ballast::case::parse(text, std::path::Path::new("cases/bench/x.toml")).unwrap();
        case.build_model(None).unwrap()
    };
    let mut m = build(&framed);
    let n = m.balls.len();
    let room = |m: &Model| {
        let c = &m.contacts;
        [
            c.frames.capacity(),
            c.force.capacity(),
            c.point.capacity(),
            m.facet_contacts.frames.capacity(),
        ]
    };
    let places = |m: &Model| {
        let c = &m.contacts;
        [
            c.frames.as_ptr() as usize,
            c.force.as_ptr() as usize,
            c.point.as_ptr() as usize,
            m.facet_contacts.frames.as_ptr() as usize,
        ]
    };
    let [frames, force, point, facet] = room(&m);
    assert!(
        frames >= 8 * n && force >= 8 * n && point == 0,
        "{:?}",
        room(&m)
    );
    assert!(facet >= n / 2, "{facet}");
    let before = places(&m);
    for _ in 0..2500 {
        m.cycle().unwrap();
    }
    let c = &m.contacts;
    let active = c.list.iter().filter(|c| c.active).count();
    assert!(active > 200, "{active} active contacts: no packing yet");
    assert_eq!(c.frames.len(), c.list.len());
    assert!(c.point.is_empty() && c.work.is_empty());
    assert!(c.list.len() > 500, "{} candidate pairs", c.list.len());
    assert_eq!(places(&m), before, "a side array moved");
    assert_eq!(room(&build(&text)), [0; 4]);
}
