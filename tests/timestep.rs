//! Timestep modes: the kinematic constraint holds each piece's displacement per cycle to eps,
//! and is reached exactly when it is the binding limit.

use ballast::body::BallSpec;
use ballast::math::Vec3;
use ballast::model::Settings;
use ballast::stiffness::study;
use ballast::timestep::{kinematic_limit, Auto, Estimator, Limit, TimestepMode};
use rstest::rstest;

/// Gravity, a margin of 2e-4 m and the automatic timestep (diagonal estimator, safety 0.8) with
/// the kinematic constraint at `eps` and the given cap.
fn falling_auto(eps: f64, cap: Option<f64>) -> Settings {
    Settings {
        gravity: Vec3::new(0.0, 0.0, -9.81),
        margin: 2e-4,
        timestep: TimestepMode::Auto(Auto {
            safety: 0.8,
            estimator: Estimator::Diagonal,
            kinematic_eps: Some(eps),
            cap,
            every: 1,
        }),
        frame: Default::default(),
    }
}

/// A ball launched sideways while falling under gravity, alone (no contact, so only the
/// kinematic constraint limits the automatic timestep). The constraint is the positive root of
/// |a|/2 t^2 + |v_sync| t = eps, and the displacement v_sync dt + a dt^2/2 is at most that long
/// (triangle inequality), with equality only when v_sync and a are parallel: each cycle must
/// move the ball by at most eps and, velocity and gravity being far from opposed, by nearly eps.
#[test]
fn kinematic_constraint_bounds_the_displacement_per_cycle() {
    let eps = 1e-4;
    let settings = falling_auto(eps, None);
    let (mut m, glass) = study::glass_model(settings, study::linear_law(1e6, 1e6, 0.0, 0.0));
    let mut spec = BallSpec::at_rest(1, [0.0, 0.0, 0.0], 0.01, glass);
    spec.vel = Vec3::new(0.3, 0.0, 0.0);
    m.add_ball(&spec).unwrap();
    let mut prev = m.balls.pos[0];
    for _ in 0..500 {
        m.cycle().unwrap();
        assert_eq!(m.dt_limit, Limit::Kinematic { ball: 0 });
        let moved = (m.balls.pos[0] - prev).norm();
        assert!(moved <= eps * (1.0 + 1e-12), "moved {moved} > eps");
        assert!(
            moved >= eps * 0.99,
            "moved {moved}: the constraint is far from binding"
        );
        prev = m.balls.pos[0];
    }
}

/// The stable form of eq. 4 agrees with the printed form where the latter is accurate. A row:
/// the speed, the acceleration and eps.
#[rstest]
#[case::v_1_a_10_eps_1e_3(1.0, 10.0, 1e-3)]
#[case::v_0p1_a_1e3_eps_1e_4(0.1, 1e3, 1e-4)]
#[case::v_2_a_0p5_eps_1e_2(2.0, 0.5, 1e-2)]
fn kinematic_limit_matches_eq_4_where_eq_4_is_accurate(
    #[case] v: f64,
    #[case] a: f64,
    #[case] eps: f64,
) {
    let printed = (-v + (v * v + 2.0 * a * eps).sqrt()) / a;
    assert!((kinematic_limit(v, a, eps) / printed - 1.0).abs() < 1e-9);
}

/// The stable form of eq. 4 has its limits `eps / v` (a = 0) and `sqrt(2 eps / a)` (v = 0).
#[test]
fn kinematic_limit_has_the_limits_of_eq_4() {
    assert_eq!(kinematic_limit(0.5, 0.0, 1e-3), 2e-3);
    assert!((kinematic_limit(0.0, 2.0, 1e-3) - 1e-3f64.sqrt()).abs() < 1e-16);
}

/// The Hertz pair, the contact radius and the mass of the impacts of
/// [`a_closing_hertz_contact_is_foreseen_at_its_peak_overlap`].
fn closing_pair() -> (ballast::law::HertzPair, f64, f64) {
    let pair = ballast::law::HertzPair::of(4.8e10, 0.2, 4.8e10, 0.2);
    let (r, m): (f64, f64) = (
        2.5e-3,
        0.5 * 2800.0 * 4.0 / 3.0 * std::f64::consts::PI * 125e-9,
    );
    (pair, r, m)
}

/// The Hertz model of a case-file name, on [`closing_pair`].
fn closing_law(name: &str) -> ballast::law::ContactModel {
    use ballast::law::{ContactModel, Hertz, HertzHistory};
    let (pair, _, _) = closing_pair();
    match name {
        "hertz" => ContactModel::Hertz(Hertz::new(pair, 0.3, 1.0, true)),
        "hertz-history" => ContactModel::HertzHistory(HertzHistory::new(pair, 0.3, 0.5)),
        _ => panic!("no Hertz model {name}"),
    }
}

/// The overlap the automatic timestep foresees for a closing Hertz contact is the peak of the
/// undamped impact: checked against the impact itself, m* δ'' = −(4/3) E* √R* δ^(3/2) from
/// δ₀ at closing speed u, integrated with RK4 in 200,000 steps until δ' changes sign (not the
/// closed form the code evaluates; the slow approach to a loaded contact takes its short cut).
/// A row: the model, the overlap δ₀ and the closing speed u.
#[rstest]
#[case::hertz_touching("hertz", 0.0, 1.0)]
#[case::hertz_pressed("hertz", 4e-6, 0.5)]
#[case::hertz_pressed_slowly("hertz", 4e-6, 0.005)]
#[case::hertz_apart("hertz", -1e-4, 2.0)]
#[case::hertz_history_touching("hertz-history", 0.0, 1.0)]
#[case::hertz_history_pressed("hertz-history", 4e-6, 0.5)]
#[case::hertz_history_pressed_slowly("hertz-history", 4e-6, 0.005)]
#[case::hertz_history_apart("hertz-history", -1e-4, 2.0)]
fn a_closing_hertz_contact_is_foreseen_at_its_peak_overlap(
    #[case] model: &str,
    #[case] d0: f64,
    #[case] u: f64,
) {
    let (pair, r, m) = closing_pair();
    let peak = |d0: f64, u: f64| {
        let k = 4.0 / 3.0 * pair.e_star * r.sqrt() / m;
        let acc = |d: f64| -k * d.max(0.0).powf(1.5);
        let (mut d, mut v) = (d0, u);
        let h = 1e-10;
        while v > 0.0 {
            let (k1d, k1v) = (v, acc(d));
            let (k2d, k2v) = (v + 0.5 * h * k1v, acc(d + 0.5 * h * k1d));
            let (k3d, k3v) = (v + 0.5 * h * k2v, acc(d + 0.5 * h * k2d));
            let (k4d, k4v) = (v + h * k3v, acc(d + h * k3d));
            d += h / 6.0 * (k1d + 2.0 * k2d + 2.0 * k3d + k4d);
            v += h / 6.0 * (k1v + 2.0 * k2v + 2.0 * k3v + k4v);
        }
        d
    };
    let law = closing_law(model);
    let by_hand = peak(d0.max(0.0), u);
    let foreseen = law.foreseen_overlap(d0, r, m, u);
    assert!(
        ((foreseen - by_hand) / by_hand).abs() < 1e-4,
        "{}: from {d0} at {u} m/s: {foreseen} against the integrated {by_hand}",
        law.name()
    );
}

/// A separating pair's overlap, and a linear law's, stay as they are.
#[test]
fn a_separating_or_linear_contact_is_foreseen_where_it_is() {
    use ballast::law::ContactModel;
    let (_, r, m) = closing_pair();
    for model in ["hertz", "hertz-history"] {
        let law = closing_law(model);
        assert_eq!(law.foreseen_overlap(3e-6, r, m, -1.0), 3e-6);
    }
    let linear = ContactModel::Linear(study::linear_law(1e6, 1e6, 0.0, 0.0));
    assert_eq!(linear.foreseen_overlap(-1e-4, r, m, 5.0), -1e-4);
}

/// The kinematic constraint's search over the balls (src/cycle/timestep.rs: a block of balls
/// passed over at once when each one's displacement bound is surely under `eps` in the best
/// step so far, the others one by one) against a plain scan of every ball's limit in order:
/// 3,000 balls apart (no contact), speeds spread over six decades and applied forces over
/// four, a tenth of the balls fixed in some DOF; the first cycle, then a second one (whose
/// half step enters the velocity at mid-step). The same step and the same ball, bit for bit.
#[test]
fn the_kinematic_search_finds_the_plain_scans_limit() {
    use ballast::rng::SplitMix64;
    let eps = 1e-4;
    let settings = falling_auto(eps, Some(1.0));
    let mut rng = SplitMix64::new(3);
    let mut u = move || (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
    let (mut m, glass) = study::glass_model(settings, study::linear_law(1e6, 1e6, 0.0, 0.0));
    for i in 0..3000u64 {
        let mut spec = BallSpec::at_rest(i, [0.01 * i as f64, 0.0, 0.0], 1e-3, glass);
        let dir = Vec3::new(u() - 0.5, u() - 0.5, u() - 0.5).normalize();
        spec.vel = dir * 10f64.powf(6.0 * u() - 5.0);
        spec.applied_force =
            Vec3::new(u() - 0.5, u() - 0.5, u() - 0.5) * 10f64.powf(4.0 * u() - 6.0);
        spec.fixed = if i % 10 == 3 { 0b001 } else { 0 };
        m.add_ball(&spec).unwrap();
    }
    for cycle in 0..2 {
        // the plain scan, from the state the next cycle starts from
        let h = 0.5 * m.last_dt;
        let mut best = (1.0, None);
        for i in 0..m.balls.len() {
            let a = m.acceleration(i);
            let v = m.balls.vel[i] + a * h;
            let t = kinematic_limit(v.norm(), a.norm(), eps);
            if t < best.0 {
                best = (t, Some(i as u32));
            }
        }
        m.cycle().unwrap();
        let ball = best.1.expect("a ball limits the step");
        assert_eq!(m.dt_limit, Limit::Kinematic { ball }, "cycle {cycle}");
        assert_eq!(m.last_dt.to_bits(), best.0.to_bits(), "cycle {cycle}");
    }
}

/// The step a plain scan chooses from the model's state before a cycle: the diagonal sums of
/// [`ballast::timestep::DofStiffness::compute`], the smallest `m / K_ii` over free DOFs (the
/// first of equal ones), `safety` times its root, then the balls' kinematic limits below it
/// (the first of equal ones), then the cap.
fn plain_step(m: &ballast::model::Model, safety: f64, eps: f64, cap: f64) -> (f64, Limit) {
    let mut ks = ballast::timestep::DofStiffness::default();
    ks.compute(m, Estimator::Diagonal, true);
    let b = &m.balls;
    let mut smallest = (f64::INFINITY, 0, 0);
    for i in 0..b.len() {
        for k in (0..6).filter(|k| b.fixed[i] & (1 << k) == 0) {
            let mass = [b.inertial_mass[i], b.inertial_inertia[i]][k / 3];
            let ratio = mass / ks.diagonal[i][k];
            if ratio < smallest.0 {
                smallest = (ratio, i, k);
            }
        }
    }
    let (ball, dof) = (smallest.1 as u32, smallest.2 as u8);
    let mut best = (safety * smallest.0.sqrt(), Limit::Stiffness { ball, dof });
    let h = 0.5 * m.last_dt;
    for i in 0..b.len() {
        let a = m.acceleration(i);
        let t = kinematic_limit((b.vel[i] + a * h).norm(), a.norm(), eps);
        if t < best.0 {
            best = (t, Limit::Kinematic { ball: i as u32 });
        }
    }
    if cap < best.0 {
        best = (cap, Limit::Cap);
    }
    best
}

/// The automatic timestep on a packing the force pass cuts into ranges: on 2,400 balls in a
/// touching lattice (6,640 candidate pairs: two ranges on two threads, each summing its balls'
/// diagonal stiffness for the next cycle), on one and two threads, every cycle must choose the
/// step and the limit of [`plain_step`], bit for bit: at the start, where the balls inside the
/// lattice have the same sums (a tie: the first ball), and with two balls half the lattice
/// apart moving at the same speed (fixed translations: no acceleration), at 0.9 times the
/// stiffness estimate (a tie of kinematic limits: the first ball again).
///
/// A row: whether two balls move fast enough to set the step, and the number of threads.
#[rstest]
#[case::slow_on_1_thread(false, 1)]
#[case::slow_on_2_threads(false, 2)]
#[case::fast_on_1_thread(true, 1)]
#[case::fast_on_2_threads(true, 2)]
fn the_step_on_force_ranges_is_the_plain_scans(#[case] fast: bool, #[case] threads: usize) {
    use ballast::rng::SplitMix64;
    let (safety, eps, cap) = (0.8, 1e-6, 1.0);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    pool.install(|| {
        let mut rng = SplitMix64::new(5);
        let mut u = move || (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        let settings = falling_auto(eps, Some(cap));
        let law = study::linear_law(1e6, 1e6, 0.0, 0.0);
        let (mut m, glass) = study::glass_model(settings, law);
        // (dyadic radius and pitch: every coordinate and difference exact, so the
        // balls inside the lattice have the same sums to the bit at the start)
        let (r, pitch) = (1.0 / 1024.0, 2.0 / 1024.0 - 1.0 / f64::from(1 << 22));
        let mut specs = Vec::new();
        for i in 0..20 {
            for j in 0..12 {
                for k in 0..10 {
                    let pos = [i as f64 * pitch, j as f64 * pitch, k as f64 * pitch];
                    let id = specs.len() as u64;
                    let mut spec = BallSpec::at_rest(id, pos, r, glass);
                    if k > 0 {
                        // (slow ones: their kinematic limits far above the estimate)
                        let dir = Vec3::new(u() - 0.5, u() - 0.5, u() - 0.5);
                        spec.vel = dir * 10f64.powf(-2.0 * u() - 2.0);
                    }
                    specs.push(spec);
                }
            }
        }
        let twins = [305, 305 + 1800];
        if fast {
            // the estimate of the lattice's balls (a rotation with four shear
            // springs, `K = 4 ks r^2`, `I = 0.4 m r^2`: m / K = 0.1 m / ks)
            let mass = 2500.0 * 4.0 / 3.0 * std::f64::consts::PI * r.powi(3);
            let estimate = safety * (0.1 * mass / 1e6f64).sqrt();
            for t in twins {
                specs[t].fixed = 0b111;
                specs[t].vel = Vec3::new(0.0, eps / (0.9 * estimate), 0.0);
            }
        }
        for s in &specs {
            m.add_ball(s).unwrap();
        }
        m.prime().unwrap();
        assert_eq!(m.contacts.list.len(), 6640);
        for cycle in 0..4 {
            let expected = plain_step(&m, safety, eps, cap);
            m.cycle().unwrap();
            let what = format!("fast {fast}, {threads} threads, cycle {cycle}");
            if threads == 2 {
                assert_eq!(m.contacts.partition.balls.len(), 3, "{what}");
            }
            assert_eq!(m.dt_limit, expected.1, "{what}");
            assert_eq!(m.last_dt.to_bits(), expected.0.to_bits(), "{what}");
            if fast {
                assert_eq!(m.dt_limit, Limit::Kinematic { ball: 305 }, "{what}");
            } else {
                assert!(matches!(m.dt_limit, Limit::Stiffness { .. }), "{what}");
            }
        }
    });
}

/// `every = N`: the automatic timestep chooses its step in cycles 0, N, 2N, ... and keeps it
/// (and what set it) in the cycles between. Second construction: before each cycle a copy of
/// the model with `every = 1` runs that cycle, the per-cycle rule from the same state; in a
/// cycle that chooses, the step and its limit are the copy's, bit for bit (the force pass then
/// summed the diagonal for it), and in the others the last cycle's, while the copy's step
/// moves. 512 Hertz balls thrown at each other in a lattice (the foresight of the closing
/// pairs and the kinematic constraint change the step every cycle), `hertz-history` (history
/// batches) and `hertz` (frame lanes), both estimators, 1 and 2 threads.
///
/// A row: the estimator, whether the model is on the contact frame (`hertz`) or frame-free
/// (`hertz-history`), and the number of threads.
#[rstest]
#[case::diagonal_history_on_1_thread(Estimator::Diagonal, false, 1)]
#[case::diagonal_history_on_2_threads(Estimator::Diagonal, false, 2)]
#[case::diagonal_frame_on_1_thread(Estimator::Diagonal, true, 1)]
#[case::diagonal_frame_on_2_threads(Estimator::Diagonal, true, 2)]
#[case::bound_history_on_1_thread(Estimator::Bound, false, 1)]
#[case::bound_history_on_2_threads(Estimator::Bound, false, 2)]
#[case::bound_frame_on_1_thread(Estimator::Bound, true, 1)]
#[case::bound_frame_on_2_threads(Estimator::Bound, true, 2)]
fn the_step_chosen_every_n_cycles_is_the_per_cycle_rule_there_and_kept_between(
    #[case] estimator: Estimator,
    #[case] frame: bool,
    #[case] threads: usize,
) {
    use ballast::law::{ContactModel, Hertz, HertzHistory, HertzPair};
    use ballast::rng::SplitMix64;
    let every = 7;
    let pair = HertzPair::of(5e6, 0.3, 5e6, 0.3);
    crate::common::on_threads(threads, || {
        let mut settings = falling_auto(1e-5, None);
        settings.timestep = TimestepMode::Auto(Auto {
            safety: 0.8,
            estimator,
            kinematic_eps: Some(1e-5),
            cap: None,
            every,
        });
        let (mut m, glass) = study::glass_model(settings, study::linear_law(1e6, 1e6, 0.0, 0.0));
        let law = if frame {
            ContactModel::Hertz(Hertz::new(pair, 0.3, 1.0, true))
        } else {
            ContactModel::HertzHistory(HertzHistory::new(pair, 0.3, 0.5))
        };
        m.set_contact_model(glass, glass, law);
        let mut rng = SplitMix64::new(11);
        let mut u = move || (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        let (r, pitch) = (1e-3, 2.1e-3);
        for i in 0..512u64 {
            let (x, y, z) = (i % 8, (i / 8) % 8, i / 64);
            let pos = [x as f64 * pitch, y as f64 * pitch, z as f64 * pitch];
            let mut spec = BallSpec::at_rest(i, pos, r, glass);
            spec.vel = Vec3::new(u() - 0.5, u() - 0.5, u() - 0.5);
            m.add_ball(&spec).unwrap();
        }
        m.prime().unwrap();
        let what = |c: u64| format!("{estimator:?}, frame {frame}, {threads} threads, cycle {c}");
        let mut moved = 0;
        for cycle in 0..40u64 {
            let mut each = m.clone();
            if let TimestepMode::Auto(a) = &mut each.settings.timestep {
                a.every = 1;
            }
            each.cycle().unwrap();
            let before = (m.last_dt, m.dt_limit);
            m.cycle().unwrap();
            if cycle % every == 0 {
                assert_eq!(
                    m.last_dt.to_bits(),
                    each.last_dt.to_bits(),
                    "{}",
                    what(cycle)
                );
                assert_eq!(m.dt_limit, each.dt_limit, "{}", what(cycle));
            } else {
                assert_eq!(m.last_dt.to_bits(), before.0.to_bits(), "{}", what(cycle));
                assert_eq!(m.dt_limit, before.1, "{}", what(cycle));
                moved += usize::from(each.last_dt != before.0);
            }
        }
        // (34 cycles keep the step; the per-cycle rule would have moved it in each)
        assert_eq!(moved, 34, "{}", what(40));
        assert!(m.contacts.list.iter().filter(|c| c.active).count() > 0);
    });
}
