//! Runs cut over ranks (threads of one process standing in for processes, `comm::Hub`): the
//! same bits as one process, for any number of ranks and any brick layout.

use crate::common::{linear, material, model, uniform};
use ballast::body::BallSpec;
use ballast::comm::Hub;
use ballast::detect::SortOrder;
use ballast::law::{ContactModel, HookeHistory, LinearBond};
use ballast::math::{Real, Vec3};
use ballast::model::Model;
use ballast::timestep::{Limit, TimestepMode};
use rstest::rstest;

/// A cloud of `n` balls (radii 0.8 to 1.2 mm) packed in a 24 x 16 x 12 mm box, its two halves
/// thrown at each other at 1.5 and -0.5 m/s along x (and up to 0.1 m/s at random), under gravity, no walls: they
/// pile up in the middle, with contacts that last, and spread.
fn cloud(law: ContactModel, n: usize) -> Model {
    let (mut m, mat) = model(
        TimestepMode::Fixed(2e-6),
        Vec3::new(0.0, 0.0, -9.81),
        // (a margin as large as the radii: between two rebuilds a ball goes far enough that
        // the partners of one changing rank are not all in the new rank's halo yet, and their
        // contacts' state must travel with it)
        1e-3,
        material("glass", 7e10, 0.25),
        law,
    );
    let mut next = uniform(17);
    let mut placed: Vec<(Vec3, Real)> = Vec::new();
    let mut id = 1;
    while placed.len() < n {
        let r = 0.8e-3 + 0.4e-3 * next();
        let p = Vec3::new(24e-3 * next(), 16e-3 * next(), 12e-3 * next());
        // (a little overlap is allowed: the cloud starts with contacts)
        if placed.iter().any(|(q, s)| (p - q).norm() < 0.9 * (r + s)) {
            continue;
        }
        placed.push((p, r));
        // (two halves meeting: a dense pile whose contacts last, drifting at 0.5 m/s across
        // the cuts)
        let towards = if p.x < 12e-3 { 1.5 } else { -0.5 };
        let v = Vec3::new(
            towards + 0.2 * (next() - 0.5),
            0.2 * (next() - 0.5),
            0.2 * (next() - 0.5),
        );
        let spec = BallSpec {
            vel: v,
            spin: Vec3::new(next() - 0.5, next() - 0.5, next() - 0.5) * 100.0,
            ..BallSpec::at_rest(id, [p.x, p.y, p.z], r, mat)
        };
        m.add_ball(&spec).expect("a ball");
        id += 1;
    }
    m
}

/// Each ball's id, position, velocity and spin, as bits, in id order.
type State = Vec<(u64, [u64; 9])>;

fn state_of(m: &Model, owned: impl Fn(usize) -> bool) -> State {
    let b = &m.balls;
    let mut s: State = (0..b.len())
        .filter(|&i| owned(i))
        .map(|i| {
            let (p, v, w) = (b.pos[i], b.vel[i], b.spin[i]);
            let x = [p.x, p.y, p.z, v.x, v.y, v.z, w.x, w.y, w.z];
            (b.id[i], x.map(f64::to_bits))
        })
        .collect();
    // (a renumbered model holds its balls in another order)
    s.sort_unstable_by_key(|x| x.0);
    s
}

/// The state after `cycles` cycles on `count` bricks of ranks (every rank builds the whole
/// model, then keeps its part), gathered in id order; the most ghosts the ranks held at once
/// (summed over the ranks), and the balls that changed rank on the way.
/// (`sort_every`: the balls renumbered every this many cycles in the order `order`, 0 never.)
fn ranked(
    law: &ContactModel,
    (n, sort_every, order): (usize, u64, SortOrder),
    count: [usize; 3],
    cycles: u64,
) -> (State, usize, usize) {
    let hubs = Hub::ranks(count.iter().product());
    let parts: Vec<(State, usize, usize)> = std::thread::scope(|s| {
        let handles: Vec<_> = (hubs.into_iter())
            .map(|h| {
                s.spawn(move || {
                    let mut whole = cloud(law.clone(), n);
                    whole.sort_every = sort_every;
                    whole.sort_order = order;
                    let (mut m, mut rank) = whole.ranked(&h, count).expect("ranked");
                    let mut ghosts = 0;
                    for _ in 0..cycles {
                        m.cycle_on_rank(&mut rank).expect("a cycle");
                        ghosts = ghosts.max(rank.ghost.iter().filter(|&&g| g).count());
                    }
                    (state_of(&m, |i| !rank.ghost[i]), ghosts, rank.arrived)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a rank"))
            .collect()
    });
    let ghosts = parts.iter().map(|p| p.1).sum();
    let moved = parts.iter().map(|p| p.2).sum();
    let mut all: State = parts.into_iter().flat_map(|p| p.0).collect();
    all.sort_unstable_by_key(|x| x.0);
    (all, ghosts, moved)
}

fn history() -> ContactModel {
    ContactModel::HookeHistory(HookeHistory {
        kn: 1e4,
        kt: 1e4 * 2.0 / 7.0,
        gamma_n: 0.05,
        gamma_t: 0.02,
        friction: 0.5,
        limit: Default::default(),
    })
}

/// The cloud for 6,000 cycles in one process and on 2, 3, 4 and 8 ranks in several layouts:
/// every ball's position, velocity and spin the same bits, for the frame model and the history
/// model. Fails (about 300 balls differ) without the ghosts' update after each law of motion,
/// or with a rank's balls in another order than their ids. (The contacts' records that travel
/// with a ball changing rank are not what this scene proves: on the 2-rank cut, of 3,590
/// records over the run, 34 were active and each equalled the state the new rank held.)
///
/// Renumbered every 500 cycles (in rows of cells, and along Morton's curve), the ranks
/// still hold what one process holds, in its order; with a rank's cells counted from the
/// corner of its own balls (332 of 400 balls differ on two ranks), or the balls arriving at
/// a rank put in id order instead of by the key of their cell (362), they do not.
#[rstest]
#[case::frame_2x([2, 1, 1], 0)]
#[case::frame_1x2x1([1, 2, 1], 0)]
#[case::frame_3x([3, 1, 1], 0)]
#[case::frame_2x2x1([2, 2, 1], 0)]
#[case::frame_2x2x2([2, 2, 2], 0)]
#[case::renumbered_2x([2, 1, 1], 500)]
#[case::renumbered_2x2x1([2, 2, 1], 500)]
fn a_cloud_on_ranks_is_the_cloud_in_one_process(
    #[case] count: [usize; 3],
    #[case] sort_every: u64,
) {
    let orders = [SortOrder::Rows, SortOrder::Morton];
    for (k, law) in [linear(1e4, 5e3, 0.5, 0.2, 0.2), history()]
        .into_iter()
        .enumerate()
    {
        let n = 400;
        let cycles = 6000;
        let mut whole = cloud(law.clone(), n);
        whole.sort_every = sort_every;
        whole.sort_order = orders[k];
        let mut touching = 0;
        for _ in 0..cycles {
            whole.cycle().expect("a cycle");
            touching = touching.max(whole.contacts.active_count());
        }
        let alone = state_of(&whole, |_| true);
        let (ranked, ghosts, moved) = ranked(&law, (n, sort_every, orders[k]), count, cycles);
        assert_eq!(ranked.len(), alone.len(), "{count:?}: every ball once");
        // (the scene is not a trivial one: contacts, ghosts, balls crossing cuts)
        assert!(
            touching > 100,
            "{count:?}: at most {touching} contacts at once"
        );
        assert!(
            ghosts > 20,
            "{count:?}: only {ghosts} ghosts, the cut crosses too little"
        );
        assert!(moved > 10, "{count:?}: only {moved} balls changed rank");
        let differ = alone.iter().zip(&ranked).filter(|(a, b)| a != b).count();
        assert_eq!(differ, 0, "{count:?}: {differ} balls differ");
    }
}

/// A blow-up stops every rank in the same cycle (none waits forever for the others): the ranks
/// holding the body name it as one process does, the others say another rank stopped the run.
#[test]
fn a_blow_up_stops_every_rank_together() {
    let hubs = Hub::ranks(2);
    let ends: Vec<(u64, String)> = std::thread::scope(|s| {
        let handles: Vec<_> = (hubs.into_iter())
            .map(|h| {
                s.spawn(move || {
                    let mut whole = cloud(history(), 400);
                    // (a step some hundred times too long)
                    whole.settings.timestep = TimestepMode::Fixed(5e-4);
                    let (mut m, mut rank) = whole.ranked(&h, [2, 1, 1]).expect("ranked");
                    for _ in 0..1000 {
                        if let Err(e) = m.cycle_on_rank(&mut rank) {
                            return (m.cycles, e.to_string());
                        }
                    }
                    (m.cycles, String::new())
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a rank"))
            .collect()
    });
    assert_eq!(ends[0].0, ends[1].0, "{ends:?}");
    let named = ends
        .iter()
        .filter(|e| !e.1.is_empty() && !e.1.contains("another rank"))
        .count();
    assert!(named >= 1, "{ends:?}");
    assert!(ends.iter().all(|e| !e.1.is_empty()), "{ends:?}");
}

/// A settle box cut over ranks: 250 balls fall (gravity 100 m/s², to settle in a few thousand
/// cycles) into a box of walls in the full mode, under a lid whose servo sets its speed from
/// the balls' load on it, while a plate in the full mode is dragged along x through the pile
/// (across the cut of a layout along x, and spanning the cut of one along y).
const WALLED: &str = r#"
name = "walled_ranks"
description = "A settle box with a servo lid and a dragged plate (tests/ranks.rs)."
[run]
steps = 4000
gravity = [0.0, 0.0, -100.0]
margin = 2e-4
[timestep]
mode = "fixed"
dt = 1e-5
[material.grain]
density = 2500.0
young = 5.0e6
poisson = 0.3
[[contact]]
between = ["grain", "grain"]
model = "hooke-history"
kn = 5000.0
ks = 1428.5714285714287
gamma_n = 0.05
gamma_t = 0.02
friction = 0.5
[[generate]]
kind = "settle-box"
count = 250
material = "grain"
[[wall]]
name = "box"
material = "grain"
resolution = "full"
box = { min = [-0.004, 0.0, 0.0], max = [0.0125, 0.0125, 0.03] }
[[wall]]
name = "lid"
material = "grain"
plane = { center = [0.00425, 0.00625, 0.026], normal = [0.0, 0.0, -1.0], size = [0.0164, 0.0124] }
motion = { kind = "servo", direction = [0.0, 0.0, -1.0], target_force = 2.0, gain = 0.5, max_speed = 1.0 }
[[wall]]
name = "plate"
material = "grain"
resolution = "full"
plane = { center = [-0.0035, 0.00625, 0.006], normal = [1.0, 0.0, 0.0], size = [0.012, 0.0124] }
motion = { kind = "rigid", schedule = [ { t = 0.0 }, { t = 0.01, vel = [0.4, 0.0, 0.0] }, { t = 0.03 } ] }
"#;

/// The walled scene's model, built from its case file (once per test: ranks clone it).
fn walled(name: &str) -> Model {
    from_text(WALLED, name)
}

/// The walled settle box for 4,000 cycles in one process and on 2, 3 and 4 ranks (and
/// renumbered every 250 cycles): every ball the same bits, the lid at the same height.
/// Fails without the servo's load summed over the ranks (each rank would move its lid by
/// its own balls' load: every layout), without the ball-facet contacts' records travelling
/// with a ball that changes rank (three layouts of the five), or without its ball-ball
/// contacts' records (every layout: the cloud below does not prove those).
#[rstest]
#[case::walls_2x([2, 1, 1], 0)]
#[case::walls_1x2x1([1, 2, 1], 0)]
#[case::walls_3x([3, 1, 1], 0)]
#[case::walls_2x2x1([2, 2, 1], 0)]
#[case::walls_renumbered_2x2x1([2, 2, 1], 250)]
fn a_walled_box_on_ranks_is_the_box_in_one_process(
    #[case] count: [usize; 3],
    #[case] sort_every: u64,
) {
    let cycles = 4000;
    let mut start = walled(&format!("walled_{count:?}_{sort_every}"));
    start.sort_every = sort_every;
    let mut whole = start.clone();
    let mut touching = 0;
    for _ in 0..cycles {
        whole.cycle().expect("a cycle");
        touching = touching.max(whole.facet_contacts.active_count());
    }
    let alone = state_of(&whole, |_| true);
    let lid = |m: &Model| {
        let v = m.walls[1].mesh.vertices[0];
        [v.x, v.y, v.z].map(f64::to_bits)
    };
    let hubs = Hub::ranks(count.iter().product());
    let start = &start;
    let parts: Vec<(State, [u64; 3], usize, usize)> = std::thread::scope(|s| {
        let handles: Vec<_> = (hubs.into_iter())
            .map(|h| {
                s.spawn(move || {
                    let (mut m, mut rank) = start.clone().ranked(&h, count).expect("ranked");
                    let mut load = 0;
                    for _ in 0..cycles {
                        m.cycle_on_rank(&mut rank).expect("a cycle");
                        let on_lid = |c: &&ballast::contact::FacetContact| {
                            c.active && c.wall == 1 && !rank.ghost[c.ball as usize]
                        };
                        load = load.max(m.facet_contacts.list.iter().filter(on_lid).count());
                    }
                    (
                        state_of(&m, |i| !rank.ghost[i]),
                        lid(&m),
                        load,
                        rank.arrived,
                    )
                })
            })
            .collect();
        (handles.into_iter())
            .map(|h| h.join().expect("a rank"))
            .collect()
    });
    // (the scene is not a trivial one: walls touched, the lid held by balls of two ranks at
    // least, balls changing rank)
    assert!(touching > 50, "{count:?}: at most {touching} wall contacts");
    let sharing = parts.iter().filter(|p| p.2 > 0).count();
    assert!(
        sharing >= 2,
        "{count:?}: the lid rests on {sharing} rank(s)"
    );
    let moved: usize = parts.iter().map(|p| p.3).sum();
    assert!(moved > 10, "{count:?}: only {moved} balls changed rank");
    for p in &parts {
        assert_eq!(p.1, lid(&whole), "{count:?}: the lid's height");
    }
    let mut ranked: State = parts.into_iter().flat_map(|p| p.0).collect();
    ranked.sort_unstable_by_key(|x| x.0);
    assert_eq!(ranked.len(), alone.len(), "{count:?}: every ball once");
    let differ = alone.iter().zip(&ranked).filter(|(a, b)| a != b).count();
    assert_eq!(differ, 0, "{count:?}: {differ} balls differ");
}

/// Parts of a model by name, as bytes.
type Held = Vec<(&'static str, Vec<u8>)>;

/// What a model holds that an output reads, part by part, as bytes: the balls, the contacts
/// and each side array they keep, the ball-facet contacts and their interactions, the
/// positions of the last build of the candidate pairs.
fn held(m: &Model) -> Held {
    let bytes = |x: &dyn erased::Ser| x.bytes();
    let (c, fc) = (&m.contacts, &m.facet_contacts);
    vec![
        ("balls", bytes(&m.balls)),
        ("contacts", bytes(&c.list)),
        ("frames", bytes(&c.frames)),
        ("forces", bytes(&c.force)),
        ("points", bytes(&c.point)),
        ("work", bytes(&c.work)),
        ("couples", bytes(&c.couple)),
        ("rolling springs", bytes(&c.roll)),
        ("2D normals", bytes(&c.normals)),
        ("facet contacts", bytes(&fc.list)),
        ("facet frames", bytes(&fc.frames)),
        ("facet couples", bytes(&fc.couple)),
        ("interactions", bytes(&fc.interactions)),
        (
            "reference positions",
            bytes(&m.broad_phase.reference_positions().to_vec()),
        ),
        ("clock", bytes(&(m.cycles, m.time, m.last_dt))),
        ("energy books", bytes(&m.energy_books())),
        // (all of it, as a checkpoint holds it)
        ("model", bytes(m)),
    ]
}

mod erased {
    /// Something bincode writes.
    pub trait Ser {
        fn bytes(&self) -> Vec<u8>;
    }
    impl<T: serde::Serialize> Ser for T {
        fn bytes(&self) -> Vec<u8> {
            bincode::serialize(self).expect("bytes")
        }
    }
}

/// The walled box (with the history model, and with the Hertz model, whose contacts keep
/// frames and forces) gathered from its ranks every 500 cycles: every part an output reads
/// is the same bytes as in one process at that cycle (balls in the same order, the contacts
/// and their side arrays, the wall contacts and their interactions, the reference positions),
/// and so is the whole model as a checkpoint holds it.
/// Fails when a contact across a cut is taken from both sides (every layout), or the balls
/// are put in id order instead of by their keys (renumbered).
///
/// With energy books kept (each rank sums its own balls' terms, merged exactly), the books
/// are the same bits too. They differ without the ghosts' forces and moments sent after
/// each force pass (the dashpots' power of a contact across a cut reads both balls'
/// accelerations), or with each rank summing its ghosts' terms as well; the whole model
/// differs when the general force loop's incidence lists are not made again for it.
#[rstest]
#[case::history_2x([2, 1, 1], 0, "hooke-history", 0, false)]
#[case::history_2x2x1_renumbered([2, 2, 1], 250, "hooke-history", 0, false)]
#[case::hertz_3x([3, 1, 1], 0, "hertz", 0, false)]
#[case::hertz_1x2x1_renumbered([1, 2, 1], 250, "hertz", 0, false)]
#[case::history_3x_resumed_renumbered([3, 1, 1], 250, "hooke-history", 1130, false)]
#[case::hertz_2x2x1_resumed([2, 2, 1], 0, "hertz", 1700, false)]
#[case::books_history_2x2x1_renumbered([2, 2, 1], 250, "hooke-history", 0, true)]
#[case::books_hertz_3x([3, 1, 1], 0, "hertz", 0, true)]
#[case::books_history_2x_resumed([2, 1, 1], 0, "hooke-history", 1130, true)]
fn a_model_gathered_from_ranks_is_the_model_of_one_process(
    #[case] count: [usize; 3],
    #[case] sort_every: u64,
    #[case] law: &str,
    #[case] resume_at: u64,
    #[case] books: bool,
) {
    let (cycles, every) = (3000, 500);
    let mut start = walled(&format!("gathered_{count:?}_{sort_every}_{law}"));
    if law == "hertz" {
        let text = WALLED.replace(
            "model = \"hooke-history\"\nkn = 5000.0\nks = 1428.5714285714287\ngamma_n = 0.05\ngamma_t = 0.02",
            "model = \"hertz\"\nrestitution = 0.5",
        );
        assert_ne!(text, WALLED, "the Hertz model replaces the history model");
        start = from_text(&text, &format!("gathered_hertz_{count:?}_{sort_every}"));
    }
    start.sort_every = sort_every;
    if books {
        start.keep_energy_books();
    }
    let (whole, alone, gathered) = alone_and_ranked(start, count, (cycles, every, resume_at));
    // (the scene is not a trivial one: contacts kept with frames when the model has them)
    let last = &alone[alone.len() - 1];
    let size = |name: &str| last.iter().find(|p| p.0 == name).map_or(0, |p| p.1.len());
    assert!(size("contacts") > 20_000, "few contacts");
    if law == "hertz" {
        assert!(size("frames") > 20_000, "no frames kept");
    }
    // (and books that booked: the dashpots dissipated, the walls worked)
    let kept = whole.energy_books().map(|b| (b.dashpots, b.walls));
    assert_eq!(kept.is_some(), books, "books kept");
    if let Some((dashpots, walls)) = kept {
        assert!(dashpots > 0.0 && walls != 0.0, "{dashpots} J, {walls} J");
    }
    let label = format!("{count:?} {law}");
    assert_same_held(&alone, &gathered, &label, (every, resume_at));
}

/// `start` run for `cycles` cycles in one process and from cycle `resume_at` (0: the start;
/// else the one process's model at that cycle, through a checkpoint's bytes) on `count`
/// bricks of ranks: the model of one process at the end, what it held every `every` cycles
/// after `resume_at`, and what each rank gathered then.
fn alone_and_ranked(
    start: Model,
    count: [usize; 3],
    (cycles, every, resume_at): (u64, u64, u64),
) -> (Model, Vec<Held>, Vec<Vec<Held>>) {
    let (whole, alone, gathered, _) = balanced(start, count, (cycles, every, resume_at), None);
    (whole, alone, gathered)
}

/// The cuts' moves (the cycle, the imbalance before and after), and the imbalance at the end.
type Moves = (Vec<(u64, Real, Real)>, Real);

/// [`alone_and_ranked`], the cuts moving when the imbalance passes `rebalance` (None: the
/// default); with the moves of the cuts.
fn balanced(
    mut start: Model,
    count: [usize; 3],
    (cycles, every, resume_at): (u64, u64, u64),
    rebalance: Option<Real>,
) -> (Model, Vec<Held>, Vec<Vec<Held>>, Moves) {
    let mut whole = start.clone();
    let mut alone = Vec::new();
    // (every cycle's step and what set it)
    let mut steps = Vec::new();
    for k in 1..=cycles {
        whole.cycle().expect("a cycle");
        if k > resume_at {
            steps.push((whole.last_dt.to_bits(), whole.dt_limit));
        }
        if k == resume_at {
            // (resumed: the ranks cut the model of one process at this cycle, as a checkpoint
            // holds it, without the work arrays it does not keep)
            let bytes = bincode::serialize(&whole).expect("the model's bytes");
            start = bincode::deserialize(&bytes).expect("the model read");
        }
        if k % every == 0 && k > resume_at {
            alone.push(held(&whole));
        }
    }
    let hubs = Hub::ranks(count.iter().product());
    let largest = (start.balls.radius.iter()).fold(0.0, |m: Real, &r| m.max(r));
    let start = &start;
    type Steps = Vec<(u64, Limit)>;
    let gathered: Vec<(Vec<Held>, Moves, Steps)> = std::thread::scope(|s| {
        let handles: Vec<_> = (hubs.into_iter())
            .map(|h| {
                s.spawn(move || {
                    let (mut m, mut rank) = start.clone().ranked(&h, count).expect("ranked");
                    if let Some(r) = rebalance {
                        rank.rebalance = r;
                    }
                    if resume_at > 0 {
                        // (cut from a checkpoint, the parts gather back into it: the forces of
                        // its last force pass too, which the first cycle may read)
                        let back = [vec![held(&rank.gather(&m))]];
                        assert_same_held(&[held(start)], &back, "cut", (resume_at, 0));
                    }
                    let mut seen = Vec::new();
                    let mut steps = Vec::new();
                    for k in resume_at + 1..=cycles {
                        m.cycle_on_rank(&mut rank).expect("a cycle");
                        steps.push((m.last_dt.to_bits(), m.dt_limit));
                        if k % every == 0 {
                            seen.push(held(&rank.gather(&m)));
                            // (a rank's displacement test bounds the closing of a pair by the
                            // largest radius of every ball, as one process's: with its own
                            // balls' alone, the dense sheared packing under its servo cut
                            // 1 x 1 x 2 rebuilds its pairs later than one process after
                            // 24,850 cycles)
                            assert_eq!(m.broad_phase.largest_radius, largest, "cycle {k}");
                        }
                    }
                    let end = rank.imbalance();
                    (seen, (rank.rebalanced, end), steps)
                })
            })
            .collect();
        (handles.into_iter())
            .map(|h| h.join().expect("a rank"))
            .collect()
    });
    for (r, g) in gathered.iter().enumerate() {
        // (the ball that set a step named by its index in one process)
        let first = (steps.iter().zip(&g.2)).position(|(a, b)| a != b);
        if let Some(k) = first {
            let cycle = resume_at + k as u64 + 1;
            panic!(
                "rank {r}, cycle {cycle}: a step of {:?} set by {:?}, not {:?}",
                g.2[k], g.2[k].1, steps[k]
            );
        }
    }
    let moves = gathered
        .first()
        .map(|g| g.1.clone())
        .unwrap_or((Vec::new(), 0.0));
    let gathered = gathered.into_iter().map(|g| g.0).collect();
    (whole, alone, gathered, moves)
}

/// Every part of what each rank gathered is the same bytes as what one process held then.
fn assert_same_held(
    alone: &[Held],
    gathered: &[Vec<Held>],
    label: &str,
    (every, resume_at): (u64, u64),
) {
    for (r, seen) in gathered.iter().enumerate() {
        assert_eq!(seen.len(), alone.len(), "rank {r}: the states compared");
        for (k, (a, b)) in alone.iter().zip(seen).enumerate() {
            let differ: Vec<&str> = (a.iter().zip(b))
                .filter(|(x, y)| x != y)
                .map(|(x, _)| x.0)
                .collect();
            let cycle = every * (resume_at / every + k as u64 + 1);
            assert!(
                differ.is_empty(),
                "{label}, rank {r}, cycle {cycle}: {differ:?} differ"
            );
        }
    }
}

/// The model of a case's text (the file written under `name`).
fn from_text(text: &str, name: &str) -> Model {
    let dir = std::env::temp_dir().join(format!("ballast_ranks_{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    let path = dir.join(format!("{name}.toml"));
    std::fs::write(&path, text).expect("the case file");
    let case = ballast::case::load(&path).unwrap_or_else(|e| panic!("{e}"));
    case.build_model(None).unwrap_or_else(|e| panic!("{e}"))
}

/// A cloud of `n` disks (radii 0.8 to 1.2 mm) in a 60 x 30 mm patch of the plane (2D), its two
/// halves thrown at each other along x, under gravity along -y, no walls (stiffnesses for a
/// disk of unit thickness: some 8 g).
fn disks(law: ContactModel, n: usize) -> Model {
    let (mut m, mat) = model(
        TimestepMode::Fixed(2e-6),
        Vec3::new(0.0, -9.81, 0.0),
        1e-3,
        material("glass", 7e10, 0.25),
        law,
    );
    m.set_planar();
    let mut next = uniform(29);
    let mut placed: Vec<(Vec3, Real)> = Vec::new();
    while placed.len() < n {
        let r = 0.8e-3 + 0.4e-3 * next();
        let p = Vec3::new(60e-3 * next(), 30e-3 * next(), 0.0);
        if placed.iter().any(|(q, s)| (p - q).norm() < 0.9 * (r + s)) {
            continue;
        }
        placed.push((p, r));
        let towards = if p.x < 30e-3 { 1.5 } else { -0.5 };
        let spec = BallSpec {
            vel: Vec3::new(towards + 0.2 * (next() - 0.5), 0.2 * (next() - 0.5), 0.0),
            spin: Vec3::new(0.0, 0.0, (next() - 0.5) * 100.0),
            ..BallSpec::at_rest(placed.len() as u64, [p.x, p.y, 0.0], r, mat)
        };
        m.add_ball(&spec).expect("a disk");
    }
    m
}

/// 2D disks cut over ranks (the frame model and the history model): every part an output
/// reads, the contacts' normals among them, is the same bytes as in one process every 1,000
/// cycles. Fails when a disk changing rank leaves its contacts' normals behind, or when a
/// contact turned over by the ranks' renumbering keeps its normal (or negates its shear).
#[rstest]
#[case::disks_2x([2, 1, 1])]
#[case::disks_1x2x1([1, 2, 1])]
#[case::disks_3x([3, 1, 1])]
#[case::disks_2x2x1([2, 2, 1])]
fn disks_on_ranks_are_the_disks_of_one_process(#[case] count: [usize; 3]) {
    let history = ContactModel::HookeHistory(HookeHistory {
        kn: 1e7,
        kt: 1e7 * 2.0 / 7.0,
        gamma_n: 0.05,
        gamma_t: 0.02,
        friction: 0.5,
        limit: Default::default(),
    });
    for law in [linear(1e7, 5e6, 0.5, 0.2, 0.2), history] {
        let start = disks(law, 200);
        let (whole, alone, gathered) = alone_and_ranked(start, count, (5000, 1000, 0));
        // (the scene is not a trivial one: lasting contacts, their normals kept)
        let normals = whole.contacts.normals.iter().filter(|n| n.norm() > 0.5);
        assert!(
            normals.count() > 100,
            "{count:?}: few contacts kept a normal"
        );
        assert_same_held(&alone, &gathered, &format!("{count:?} 2D"), (1000, 0));
    }
}

/// The walled box with the Hertz model, a rolling resistance (an elastic-plastic spring and
/// dashpot) and JKR cohesion, cut over ranks (renumbered too): every part an output reads is
/// the same bytes as in one process. Fails when a ball changing rank leaves its contacts'
/// rolling springs behind.
#[rstest]
#[case::rolling_jkr_2x([2, 1, 1], 0, 0)]
#[case::rolling_jkr_2x2x1_renumbered([2, 2, 1], 250, 0)]
#[case::rolling_jkr_3x_resumed([3, 1, 1], 0, 1130)]
fn rolling_and_cohesion_on_ranks_are_those_of_one_process(
    #[case] count: [usize; 3],
    #[case] sort_every: u64,
    #[case] resume_at: u64,
) {
    let text = WALLED.replace(
        "model = \"hooke-history\"\nkn = 5000.0\nks = 1428.5714285714287\ngamma_n = 0.05\ngamma_t = 0.02",
        "model = \"hertz\"\nrestitution = 0.5\nrolling = { kind = \"epsd\", coefficient = 0.3 }\ncohesion = { kind = \"jkr\", surface_energy = 0.5 }",
    );
    assert_ne!(text, WALLED, "the Hertz model replaces the history model");
    let mut start = from_text(&text, &format!("rolling_{count:?}_{sort_every}"));
    start.sort_every = sort_every;
    let (whole, alone, gathered) = alone_and_ranked(start, count, (3000, 500, resume_at));
    // (the scene is not a trivial one: rolling springs wound, contacts that pull)
    let c = &whole.contacts;
    let wound = c.roll.iter().filter(|m| m.norm() > 0.0).count();
    let b = &whole.balls;
    // (a contact that pulls: the force on b points to a)
    let pulling = (c.list.iter().zip(&c.force))
        .filter(|(x, f)| x.active && f.dot(&(b.pos[x.b as usize] - b.pos[x.a as usize])) < 0.0)
        .count();
    assert!(wound > 100, "{count:?}: {wound} rolling springs wound");
    // (8 of them at the end)
    assert!(pulling >= 5, "{count:?}: {pulling} contacts pull");
    assert_same_held(
        &alone,
        &gathered,
        &format!("{count:?} rolling"),
        (500, resume_at),
    );
}

/// The walled box cut across the fall (along z, and 2 x 2 along x and z): as the balls settle
/// the cuts move down to share them out evenly, and every part an output reads stays the
/// same bytes as in one process. At the end the most loaded rank holds 1.02 to 1.09 times the
/// mean; without the moves, 1.42 to 2.27.
#[rstest]
#[case::balanced_1x1x2([1, 1, 2])]
#[case::balanced_2x1x2([2, 1, 2])]
#[case::balanced_1x1x3([1, 1, 3])]
fn cuts_that_move_with_the_balls_change_no_bit(#[case] count: [usize; 3]) {
    let start = walled(&format!("balanced_{count:?}"));
    let run = |rebalance| balanced(start.clone(), count, (3000, 500, 0), rebalance);
    let (_, alone, gathered, (moves, end)) = run(None);
    assert_same_held(&alone, &gathered, &format!("{count:?} balanced"), (500, 0));
    let (_, _, _, (none, fixed)) = run(Some(Real::INFINITY));
    assert!(none.is_empty(), "{none:?}");
    assert!(!moves.is_empty(), "{count:?}: the cuts never moved");
    assert!(
        end <= 1.2 && fixed > 1.4,
        "{count:?}: {end} at the end, {fixed} without moves"
    );
    for (cycle, before, after) in &moves {
        assert!(
            after < before,
            "{count:?}, cycle {cycle}: {before} to {after}"
        );
    }
    eprintln!("{count:?}: {moves:?}; at the end {end}, {fixed} without moves");
}

/// The model of the case file `cases/<path>` without its checks (which may name other
/// cases), its text changed by `edits` (each must apply).
fn from_case(path: &str, edits: &[(&str, &str)], name: &str) -> Model {
    let file = format!("{}/cases/{path}", env!("CARGO_MANIFEST_DIR"));
    let mut text = std::fs::read_to_string(&file).expect("the case file");
    if let Some(at) = text.find("\n[[check]]") {
        text.truncate(at + 1);
    }
    for (from, to) in edits {
        let edited = text.replacen(from, to, 1);
        assert_ne!(edited, text, "{path}: {from:?} not found");
        text = edited;
    }
    from_text(&text, name)
}

/// Periodic cells cut over ranks, along their periodic axes and across them: every part an
/// output reads (the cell among the balls' bytes) is the same bytes as in one process every
/// 500 cycles. The gas of `cases/periodic` (400 balls crossing the faces) under gravity with
/// energy books (the wrapped mass enters the potential energy), sheared by Lees-Edwards images
/// (cut along the flow, the gradient and both); a lattice sheared fast; the dense sheared
/// packing of `cases/rheology` (renumbered, resumed) and its 2D disks, under their pressure servo.
///
/// Fails when a rank takes the images across the gradient's faces without the flow's offset
/// (the Lees-Edwards cuts) or sums its ghosts' jumps. (A ball beyond a face given to the brick
/// it left, not the one it enters, changes no bit here: `cycle::ranks`'s unit tests.)
#[rstest]
#[case::gravity_books_2x([2, 1, 1], "gas", 0, 0)]
#[case::gravity_books_1x2x2_resumed([1, 2, 2], "gas", 0, 1130)]
#[case::sheared_flow_3x([3, 1, 1], "lees_edwards_gas", 0, 0)]
#[case::sheared_gradient_1x1x2([1, 1, 2], "lees_edwards_gas", 0, 0)]
#[case::sheared_2x1x2_renumbered([2, 1, 2], "lees_edwards_gas", 250, 0)]
#[case::lattice_2x1x2([2, 1, 2], "lees_edwards_lattice", 0, 0)]
#[case::dense_2x1x2_renumbered([2, 1, 2], "mu_i", 250, 0)]
#[case::dense_1x1x2_resumed([1, 1, 2], "mu_i", 0, 1130)]
#[case::disks_2x([2, 1, 1], "disks_i", 0, 0)]
#[case::disks_1x2x1([1, 2, 1], "disks_i", 0, 0)]
fn a_periodic_cell_on_ranks_is_the_cell_of_one_process(
    #[case] count: [usize; 3],
    #[case] scene: &str,
    #[case] sort_every: u64,
    #[case] resume_at: u64,
) {
    let name = format!("periodic_{scene}_{count:?}_{sort_every}_{resume_at}");
    let mut start = match scene {
        "gas" => from_case(
            "periodic/gas.toml",
            &[("gravity = [0.0, 0.0, 0.0]", "gravity = [0.5, 0.0, -2.0]")],
            &name,
        ),
        "mu_i" => from_case("rheology/mu_i_0p1.toml", &[], &name),
        // (sheared 300 times faster: its images slide by more than a margin between builds)
        "lees_edwards_lattice" => from_case(
            "periodic/lees_edwards_lattice.toml",
            &[("rate = 1.0,", "rate = 300.0,")],
            &name,
        ),
        "disks_i" => from_case("rheology/disks_i_0p1.toml", &[], &name),
        _ => from_case(&format!("periodic/{scene}.toml"), &[], &name),
    };
    start.sort_every = sort_every;
    if scene == "gas" {
        start.keep_energy_books();
    }
    let cycles = if matches!(scene, "mu_i" | "disks_i") {
        1500
    } else {
        2000
    };
    let (whole, alone, gathered) = alone_and_ranked(start, count, (cycles, 500, resume_at));
    // (the scene is not a trivial one: contacts across the faces; the images slid, the
    // cell's height moved)
    let b = &whole.balls;
    let c = &whole.contacts;
    let across = (c.list.iter())
        .filter(|x| x.active && b.partner(x.a as usize, x.b as usize) != b.pos[x.b as usize])
        .count();
    // (a gas has few contacts at a time: 2 of them across the faces at the end)
    let dense = scene == "mu_i" || scene == "disks_i";
    let least = if dense { 10 } else { 1 };
    assert!(
        across >= least,
        "{name}: {across} contacts across the faces"
    );
    let cell = b.cell.as_ref().expect("the cell");
    if cell.shear.is_some() {
        // (0.76 mm for the dense packing, 6.4 mm for the gas)
        assert!(
            cell.offset > 5e-4,
            "{name}: the images slid {} m",
            cell.offset
        );
    }
    assert_same_held(&alone, &gathered, &name, (500, resume_at));
}

/// The walled box under the automatic timestep (the diagonal estimate with the kinematic
/// constraint, chosen every cycle or every 7; the bound; a cap) and the per-model step, cut
/// over ranks; the cloud of balls of several sizes thrown at each other under the per-model
/// step and under a kinematic constraint of 0.2 µm, which sets most steps; a lattice of
/// equal balls at rest, touching nothing, whose steps are the one-contact estimate of every
/// ball alike; and the walled box under timestep scaling (the diagonal and the bound, then
/// under a kinematic constraint, resumed). Every cycle's step, and what set it (a ball named by
/// its index in one process), is the same as in one process, and so is every part an output
/// reads.
///
/// Fails when a rank names the ball by its index on the rank (the walled box's auto cases),
/// takes its copies' partial forces into the kinematic constraint (the kinematic cloud), or
/// its own smallest ball for every rank's (the per-model cloud), or breaks ties by rank
/// instead of one process's order (the lattice), or keeps the fictitious masses it made of
/// its copies from their partial stiffness sums (scaled by the diagonal and by the bound).
/// (Its copies' partial stiffness sums cannot set the step: their ratios are never below the
/// owner's.)
#[rstest]
#[case::diagonal_2x([2, 1, 1], "diagonal", 0, 0)]
#[case::diagonal_every_7_2x2x1_renumbered([2, 2, 1], "diagonal_every", 250, 0)]
#[case::bound_3x([3, 1, 1], "bound", 0, 0)]
#[case::capped_1x2x1_resumed([1, 2, 1], "capped", 0, 1130)]
#[case::model_2x([2, 1, 1], "model", 250, 0)]
#[case::cloud_model_2x([2, 1, 1], "cloud_model", 0, 0)]
#[case::cloud_kinematic_3x_renumbered([3, 1, 1], "cloud_kinematic", 250, 0)]
#[case::lattice_ties_2x([2, 1, 1], "lattice", 0, 0)]
#[case::scaled_2x([2, 1, 1], "scaled", 0, 0)]
#[case::scaled_bound_2x2x1_renumbered([2, 2, 1], "scaled_bound", 250, 0)]
#[case::scaled_kinematic_3x_resumed([3, 1, 1], "scaled_kinematic", 0, 1130)]
fn timesteps_chosen_over_ranks_are_those_of_one_process(
    #[case] count: [usize; 3],
    #[case] mode: &str,
    #[case] sort_every: u64,
    #[case] resume_at: u64,
) {
    let timestep = match mode {
        "diagonal" => "mode = \"auto\"\nsafety = 0.5",
        "diagonal_every" => "mode = \"auto\"\nsafety = 0.5\nevery = 7",
        "bound" => "mode = \"auto\"\nestimator = \"bound\"",
        "capped" => "mode = \"auto\"\nsafety = 0.5\ndt = 2e-5",
        "scaled" => "mode = \"scaled\"\ndt = 1e-5\nkinematic = false",
        "scaled_bound" => "mode = \"scaled\"\ndt = 1e-5\nestimator = \"bound\"\nkinematic = false",
        "scaled_kinematic" => "mode = \"scaled\"\ndt = 1e-5\nkinematic_eps = 2e-6",
        _ => "mode = \"model\"",
    };
    let text = WALLED.replace("mode = \"fixed\"\ndt = 1e-5", timestep);
    assert_ne!(text, WALLED, "the timestep replaced");
    let auto = |kinematic_eps: Option<Real>| {
        TimestepMode::Auto(ballast::timestep::Auto {
            safety: 0.5,
            estimator: ballast::timestep::Estimator::Diagonal,
            kinematic_eps,
            cap: None,
            every: 1,
        })
    };
    let mut start = match mode {
        "cloud_model" | "cloud_kinematic" => cloud(history(), 400),
        "lattice" => lattice(),
        _ => from_text(&text, &format!("timestep_{mode}_{count:?}")),
    };
    start.settings.timestep = match mode {
        "cloud_model" => TimestepMode::Model(ballast::timestep::ModelMode {
            loading_steps: 10.0,
            cap: None,
        }),
        "cloud_kinematic" => auto(Some(2e-7)),
        "lattice" => auto(None),
        _ => start.settings.timestep.clone(),
    };
    start.sort_every = sort_every;
    let (cycles, every) = if mode == "lattice" {
        (20, 10)
    } else {
        (2500, 500)
    };
    let (whole, alone, gathered) = alone_and_ranked(start, count, (cycles, every, resume_at));
    let (kinematic, one_contact) = (mode == "cloud_kinematic", mode == "lattice");
    match whole.dt_limit {
        // (a ball set the last step, not the first one)
        Limit::Stiffness { ball, .. } if !kinematic && !one_contact => assert!(ball > 0),
        Limit::Kinematic { ball } if kinematic => assert!(ball > 0),
        // (of equal balls, the first in one process, which lies in the second brick)
        Limit::OneContact { ball } if one_contact => assert_eq!(ball, 0),
        Limit::Model { .. } if mode.ends_with("model") => {}
        // (the scaled step; under the kinematic constraint, a ball's step)
        Limit::Cap if mode.starts_with("scaled") && !mode.ends_with("kinematic") => {}
        Limit::Kinematic { ball } if mode == "scaled_kinematic" => assert!(ball > 0),
        other => panic!("{mode}: the last step set by {other:?}"),
    }
    assert_same_held(&alone, &gathered, mode, (every, resume_at));
}

/// Equal balls (radius 1 mm) on a 6 x 3 x 2 lattice 3 mm apart, at rest without gravity: no
/// contact, nothing moves. The first ball (the lowest id) lies at the largest x.
fn lattice() -> Model {
    let (mut m, mat) = model(
        TimestepMode::Fixed(1e-6),
        Vec3::zeros(),
        1e-4,
        material("glass", 7e10, 0.25),
        history(),
    );
    let mut id = 1;
    for i in (0..6).rev() {
        for j in 0..3 {
            for k in 0..2 {
                let p = [3e-3 * i as Real, 3e-3 * j as Real, 3e-3 * k as Real];
                m.add_ball(&BallSpec::at_rest(id, p, 1e-3, mat))
                    .expect("a ball");
                id += 1;
            }
        }
    }
    m
}

/// The walled box fed from above (150 balls of 0.4 to 0.6 mm at 20,000 a second, falling at
/// 0.5 m/s) while an outlet in a corner of its floor takes the balls that settle there, cut
/// over ranks (renumbered, resumed): every part an output reads, the insertion's and the
/// outlet's counts and the energy they exchanged among them, is the same bytes as in one
/// process every 500 cycles. Fails when a rank places the balls it does not hold (twice over),
/// or keys a new ball before the balls there were.
#[rstest]
#[case::pour_2x([2, 1, 1], 0, 0)]
#[case::pour_1x2x1_renumbered([1, 2, 1], 250, 0)]
#[case::pour_3x_resumed([3, 1, 1], 0, 1130)]
#[case::pour_2x2x1_renumbered([2, 2, 1], 250, 0)]
fn balls_entering_and_leaving_over_ranks_are_those_of_one_process(
    #[case] count: [usize; 3],
    #[case] sort_every: u64,
    #[case] resume_at: u64,
) {
    let flow = r#"
[[insert]]
name = "feed"
region = { box = { min = [0.0, 0.002, 0.018], max = [0.011, 0.011, 0.024] } }
material = "grain"
rate = 20000.0
count = 150
radius = { kind = "uniform", min = 0.0004, max = 0.0006 }
vel = [0.0, 0.0, -0.5]
seed = 3
[[outlet]]
name = "drain"
region = { box = { min = [0.009, 0.0, 0.0], max = [0.0125, 0.0125, 0.003] } }
[output]
series = ["balls/count", "outlet/drain/count"]
"#;
    let text = format!("{WALLED}{flow}");
    let mut start = from_text(&text, &format!("flow_{count:?}_{sort_every}_{resume_at}"));
    start.sort_every = sort_every;
    start.keep_energy_books();
    let (cycles, every) = (3000, 500);
    let (whole, alone, gathered) = alone_and_ranked(start, count, (cycles, every, resume_at));
    // (balls entered and left)
    let flow = &whole.flow;
    assert_eq!(flow.inserts[0].placed, 150, "placed");
    assert!(
        flow.outlets[0].count > 10,
        "{} removed",
        flow.outlets[0].count
    );
    assert_same_held(&alone, &gathered, "flow", (every, resume_at));
}

/// A block of 8 x 4 x 3 balls (radius 1 mm, 0.05 mm apart) bonded to their neighbours (the
/// linear bond, soft: some 2 ms a period), each ball thrown at up to 0.5 m/s along each axis
/// and spinning, no gravity, a margin of 0.05 mm: the bonds stretch and turn, some break, and
/// what they hold scatters in clusters.
fn bonded_block() -> Model {
    let bond = ContactModel::LinearBond(LinearBond {
        kn: 20.0,
        ks: 10.0,
        friction: 0.5,
        tensile: 5e-3,
        shear_strength: 5e-3,
        bond_gap: 1e-4,
    });
    let (mut m, mat) = model(
        TimestepMode::Fixed(2e-5),
        Vec3::zeros(),
        5e-5,
        material("glass", 7e10, 0.25),
        bond,
    );
    let mut next = uniform(29);
    let mut id = 1;
    for i in 0..8 {
        for j in 0..4 {
            for k in 0..3 {
                let p = [i as Real, j as Real, k as Real].map(|x| 2.05e-3 * x);
                let spec = BallSpec {
                    vel: Vec3::new(next() - 0.5, next() - 0.5, next() - 0.5),
                    spin: Vec3::new(next() - 0.5, next() - 0.5, next() - 0.5) * 100.0,
                    ..BallSpec::at_rest(id, p, 1e-3, mat)
                };
                m.add_ball(&spec).expect("a ball");
                id += 1;
            }
        }
    }
    m
}

/// The bonded block cut over ranks (renumbered, resumed): every part an output reads, each
/// contact's bond among them, is the same bytes as in one process every 500 cycles. A bond
/// holds at any distance: bonded balls lie up to several margins apart, beyond the halo of
/// the rank that holds the other one, which must hold them still. Fails when a rank holds
/// only the balls of its halo (the bonds across a cut are lost as the balls part), or
/// when the checkpoint's bonds across a cut are not taken into the cut (resumed).
#[rstest]
#[case::bonds_2x([2, 1, 1], 0, 0)]
#[case::bonds_3x_renumbered([3, 1, 1], 250, 0)]
#[case::bonds_2x2x1_resumed([2, 2, 1], 0, 1300)]
fn bonds_over_ranks_are_those_of_one_process(
    #[case] count: [usize; 3],
    #[case] sort_every: u64,
    #[case] resume_at: u64,
) {
    let mut start = bonded_block();
    start.sort_every = sort_every;
    let (cycles, every) = (4000, 500);
    // (the widest gap a bond held in one process, the bonds at the start and the end)
    let mut probe = start.clone();
    let (mut widest, mut bonds) = (0.0, Vec::new());
    for k in 1..=cycles {
        probe.cycle().expect("a cycle");
        let (b, laws) = (&probe.balls, &probe.laws);
        let held = probe.contacts.list.iter();
        let held: Vec<_> = held
            .filter(|c| laws[c.law as usize].holds(&c.state))
            .collect();
        for c in &held {
            let (a, z) = (c.a as usize, c.b as usize);
            let gap = (b.pos[z] - b.pos[a]).norm() - b.radius[a] - b.radius[z];
            widest = Real::max(widest, gap);
        }
        if k == 1 || k == cycles {
            bonds.push(held.len());
        }
    }
    assert!(bonds[0] > 150, "{bonds:?} bonds at the start and the end");
    assert!(bonds[1] < bonds[0] && bonds[1] > 20, "{bonds:?} bonds");
    // (a bonded pair straddling a cut this far apart lies beyond the halo of 2 (r + margin))
    assert!(widest > 4.0 * 5e-5, "the widest bonded gap is {widest} m");
    let (_, alone, gathered) = alone_and_ranked(start, count, (cycles, every, resume_at));
    assert_same_held(&alone, &gathered, "bonds", (every, resume_at));
}
