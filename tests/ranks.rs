//! Runs cut over ranks (threads of one process standing in for processes, `comm::Hub`): the
//! same bits as one process, for any number of ranks and any brick layout.

use crate::common::{linear, material, model, uniform};
use ballast::body::BallSpec;
use ballast::comm::Hub;
use ballast::law::{ContactModel, HookeHistory};
use ballast::math::{Real, Vec3};
use ballast::model::Model;
use ballast::timestep::TimestepMode;
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
    (0..b.len())
        .filter(|&i| owned(i))
        .map(|i| {
            let (p, v, w) = (b.pos[i], b.vel[i], b.spin[i]);
            let x = [p.x, p.y, p.z, v.x, v.y, v.z, w.x, w.y, w.z];
            (b.id[i], x.map(f64::to_bits))
        })
        .collect()
}

/// The state after `cycles` cycles on `count` bricks of ranks (every rank builds the whole
/// model, then keeps its part), gathered in id order; the most ghosts the ranks held at once
/// (summed over the ranks), and the balls that changed rank on the way.
fn ranked(law: &ContactModel, n: usize, count: [usize; 3], cycles: u64) -> (State, usize, usize) {
    let hubs = Hub::ranks(count.iter().product());
    let parts: Vec<(State, usize, usize)> = std::thread::scope(|s| {
        let handles: Vec<_> = hubs
            .iter()
            .map(|h| {
                s.spawn(move || {
                    let (mut m, mut rank) = cloud(law.clone(), n).ranked(h, count).expect("ranked");
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
#[rstest]
#[case::frame_2x([2, 1, 1])]
#[case::frame_1x2x1([1, 2, 1])]
#[case::frame_3x([3, 1, 1])]
#[case::frame_2x2x1([2, 2, 1])]
#[case::frame_2x2x2([2, 2, 2])]
fn a_cloud_on_ranks_is_the_cloud_in_one_process(#[case] count: [usize; 3]) {
    for law in [linear(1e4, 5e3, 0.5, 0.2, 0.2), history()] {
        let n = 400;
        let cycles = 6000;
        let mut whole = cloud(law.clone(), n);
        let mut touching = 0;
        for _ in 0..cycles {
            whole.cycle().expect("a cycle");
            touching = touching.max(whole.contacts.active_count());
        }
        let alone = state_of(&whole, |_| true);
        let (ranked, ghosts, moved) = ranked(&law, n, count, cycles);
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
        let handles: Vec<_> = hubs
            .iter()
            .map(|h| {
                s.spawn(move || {
                    let mut whole = cloud(history(), 400);
                    // (a step some hundred times too long)
                    whole.settings.timestep = TimestepMode::Fixed(5e-4);
                    let (mut m, mut rank) = whole.ranked(h, [2, 1, 1]).expect("ranked");
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
