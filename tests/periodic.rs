//! Periodic cells (`[domain]`): the broad phase against a slow all-pairs search over the images,
//! bit-identical runs for any thread count and across a restart, and the refusals.

use crate::common::{on_threads, uniform};
use ballast::case::parse;
use ballast::detect::{brute_force_pairs, BroadPhase};
use ballast::geom::Cell;
use ballast::math::{Real, Vec3};
use rstest::rstest;
use std::path::Path;

/// Random balls in a cell, some of them near its faces and corners.
fn scene(n: usize, seed: u64, cell: &Cell) -> (Vec<Vec3>, Vec<Real>) {
    let mut next = uniform(seed);
    let pos = (0..n)
        .map(|_| {
            Vec3::new(
                cell.min.x + cell.len.x * next(),
                cell.min.y + cell.len.y * next(),
                cell.min.z + cell.len.z * next(),
            )
        })
        .collect();
    let radius = (0..n).map(|_| 0.002 + 0.002 * next()).collect();
    (pos, radius)
}

/// The grid's pairs in a periodic cell are those of an all-pairs search over the 27 (or 9, or
/// 3) shifted images, for each choice of wrapping axes and for cells of 2, 3 and many grid cells
/// along an axis (two cells: the forward and backward neighbours are one cell, whose pairs
/// must not come twice).
#[rstest]
#[case::x(0.06, [true, false, false])]
#[case::xy(0.06, [true, true, false])]
#[case::xyz(0.06, [true, true, true])]
#[case::xz_two_cells(0.02, [true, false, true])]
#[case::xyz_three_cells(0.03, [true, true, true])]
fn pairs_across_faces_are_the_brute_force_ones(#[case] side: Real, #[case] periodic: [bool; 3]) {
    let cell = Cell {
        min: Vec3::new(-0.01, 0.02, 0.0),
        len: Vec3::new(side, side * 1.1, side * 0.9),
        periodic,
        shear: None,
        offset: 0.0,
        strain: 0.0,
        pressure: None,
        dilation: 0.0,
    };
    same_pairs_as_brute_force(&cell, side);
}

/// Under Lees-Edwards shear the grid's neighbours across the gradient faces are the cells
/// under the moved images: the pairs are still the all-pairs search's, for offsets that are
/// not whole cells, in both orientations of flow and gradient, with 2, 3 and many grid cells
/// (a grid of few cells along the flow finds every pair even without the move: the rows of
/// about ten cells are those that fail without it).
#[rstest]
#[case::xz(0.06, 0, 2, 0.3)]
#[case::zx(0.09, 2, 0, 0.77)]
#[case::yz(0.09, 1, 2, 0.41)]
#[case::yz_three_cells(0.03, 1, 2, 0.51)]
#[case::xy_two_cells(0.02, 0, 1, 0.123)]
#[case::xz_no_offset(0.06, 0, 2, 0.0)]
fn pairs_across_sheared_faces_are_the_brute_force_ones(
    #[case] side: Real,
    #[case] flow: usize,
    #[case] gradient: usize,
    #[case] offset: Real,
) {
    let len = Vec3::new(side, side * 1.1, side * 0.9);
    let cell = Cell {
        min: Vec3::new(-0.01, 0.02, 0.0),
        len,
        periodic: [true; 3],
        shear: Some(ballast::geom::Shear {
            rate: 1.0,
            flow,
            gradient,
        }),
        offset: offset * len[flow],
        strain: 0.0,
        pressure: None,
        dilation: 0.0,
    };
    same_pairs_as_brute_force(&cell, side);
}

fn same_pairs_as_brute_force(cell: &Cell, side: Real) {
    let cell = cell.clone();
    // (a solid fraction of about 0.3)
    let n = (side * side * side * 2.5e6) as usize + 10;
    let (pos, radius) = scene(n, 7 + n as u64, &cell);
    let margin = 5e-4;
    let mut bp = BroadPhase::default();
    bp.build(&pos, &radius, margin, Some(&cell));
    let expected = brute_force_pairs(&pos, &radius, margin, Some(&cell));
    assert!(
        expected.len() > n / 2,
        "a scene with few pairs proves little"
    );
    let across = |&(i, j): &(u32, u32)| {
        let reach = radius[i as usize] + radius[j as usize] + 2.0 * margin;
        (pos[j as usize] - pos[i as usize]).norm() > reach
    };
    assert!(
        expected.iter().any(across),
        "some pairs must meet across a face"
    );
    assert_eq!(bp.pairs, expected);
}

/// The rebuild test the free-flight runs below make: the broad phase's own
/// ([`BroadPhase::tolerance`]), or one made too lax on purpose.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Criterion {
    /// [`BroadPhase::tolerance`].
    Sound,
    /// Without the offset's term: the displacement measured without the shear's affine flow
    /// (as in a still cell), so that the images sliding across the gradient faces go unseen.
    NoOffset,
    /// Without the shrinking of the limit as the cell deforms (`kappa = 1`): the displacement
    /// measured from the affine motion, but the whole margin allowed, so that the shear of the
    /// pairs' own separations goes unseen.
    NoKappa,
}

/// A free-flight run in a sheared cell (rate `gamma_dt` per cycle, flow x, gradient z):
/// random balls (`scene`) that keep their velocities (the shear profile times `profile`, plus
/// a random part of up to `noise` along each axis, m per cycle), no force. Each cycle as the
/// engine makes it: the controlled length changes by `dilation` (strain per cycle along the
/// axis of `pressure`, balls remapped), the cell advances, the balls move, the criterion is
/// tested, and on a rebuild the balls are brought back into the cell and the pairs built.
/// Every cycle, every pair within contact range (an all-pairs scan over the images,
/// `brute_force_pairs` with no margin) must be a candidate. Returns the pairs-in-cycles
/// missed and the rebuilds.
fn free_flight(
    criterion: Criterion,
    profile: Real,
    noise: Real,
    pressure: Option<(usize, Real)>,
    cycles: usize,
) -> (usize, u64) {
    let (margin, dt, gamma_dt) = (5e-4, 1.0, 2.5e-3);
    let mut cell = Cell {
        min: Vec3::new(-0.01, 0.02, 0.0),
        len: Vec3::new(0.04, 0.044, 0.036),
        periodic: [true; 3],
        shear: Some(ballast::geom::Shear {
            rate: gamma_dt / dt,
            flow: 0,
            gradient: 2,
        }),
        offset: 0.37 * 0.04,
        strain: 0.0,
        pressure: pressure.map(|(axis, _)| ballast::geom::Pressure {
            target: 1.0,
            axis,
            gain: 1.0,
            max_rate: 1.0,
            every: 1,
        }),
        dilation: pressure.map_or(0.0, |(_, rate)| rate / dt),
    };
    let (mut pos, radius) = scene(170, 11, &cell);
    let mut rng = 5u64;
    let mut random = || {
        rng = rng
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (rng >> 11) as Real / (1u64 << 53) as Real * 2.0 - 1.0
    };
    let middle = cell.min.z + 0.5 * cell.len.z;
    let mut vel: Vec<Vec3> = (pos.iter())
        .map(|p| {
            let flow = profile * gamma_dt / dt * (p.z - middle);
            Vec3::new(flow, 0.0, 0.0) + Vec3::new(random(), random(), random()) * (noise / dt)
        })
        .collect();
    let mut bp = BroadPhase::default();
    bp.build(&pos, &radius, margin, Some(&cell));
    let (mut missed, builds) = (0, bp.builds);
    for _ in 0..cycles {
        if let Some(change) = cell.dilate(dt) {
            pos.iter_mut().for_each(|p| Cell::remap(p, change));
        }
        cell.advance(dt);
        for (p, v) in pos.iter_mut().zip(&vel) {
            *p += v * dt;
        }
        let mut t = bp.tolerance(Some(&cell), false, margin);
        match criterion {
            Criterion::Sound => {}
            Criterion::NoOffset => t.affine.as_mut().unwrap().rate[0] = 0.0,
            Criterion::NoKappa => (t.limit2, t.rebuild) = (margin * margin, false),
        }
        if t.rebuild || bp.needs_rebuild(&pos, &t) {
            for (p, v) in pos.iter_mut().zip(vel.iter_mut()) {
                cell.wrap_body(p, v);
            }
            bp.build(&pos, &radius, margin, Some(&cell));
        }
        let touching = brute_force_pairs(&pos, &radius, 0.0, Some(&cell));
        missed += (touching.iter())
            .filter(|p| bp.pairs.binary_search(p).is_err())
            .count();
    }
    (missed, bp.builds - builds)
}

/// The candidate pairs built with the broad phase's test relative to the cell's affine motion
/// hold every pair within contact range at every cycle of sheared runs (balls at rest while
/// the images slide; carried exactly by the shear flow, so that only their separations shear;
/// the flow with a random part; under compression along the gradient, and along the third
/// axis), rebuilding every few dozen cycles. Made too lax on purpose it misses pairs: without
/// the offset's term (balls at rest: the images slide into reach), without the shrinking
/// limit (the flow alone: separations sheared into reach).
#[test]
fn the_rebuild_test_misses_no_pair_under_shear() {
    let runs = [
        ("at rest", 0.0, 0.0, None),
        ("the flow", 1.0, 0.0, None),
        ("the flow and noise", 1.0, 2e-5, None),
        ("compressed along z", 1.0, 2e-5, Some((2, -1e-3))),
        ("compressed along y", 0.5, 2e-5, Some((1, -1e-3))),
    ];
    for (name, profile, noise, pressure) in runs {
        let (missed, rebuilds) = free_flight(Criterion::Sound, profile, noise, pressure, 240);
        assert_eq!(missed, 0, "{name}: {rebuilds} rebuilds");
        assert!((2..=40).contains(&rebuilds), "{name}: {rebuilds} rebuilds");
    }
    let (missed, _) = free_flight(Criterion::NoOffset, 0.0, 0.0, None, 240);
    assert!(missed > 0, "without the offset's term: none missed");
    let (missed, _) = free_flight(Criterion::NoKappa, 1.0, 0.0, None, 240);
    assert!(missed > 0, "without the shrinking limit: none missed");
}

/// Every pair within contact range in a sheared `cell`, by an all-pairs scan over the images:
/// for each pair, its images one length up, down or level along the gradient (moved by the
/// offset along the flow), each at the nearest whole lengths along the other periodic axes
/// (the third axis first: a pair out of reach along it is out of reach). The pairs of
/// `brute_force_pairs` with no margin (which tries 45 images of every pair), at a fraction of
/// the cost.
fn touching(pos: &[Vec3], radius: &[Real], cell: &Cell) -> Vec<(u32, u32)> {
    let s = cell.shear.unwrap();
    let (f, g, l) = (s.flow, s.gradient, cell.len);
    let third = 3 - f - g;
    let wrap = |x: Real, k: usize| match cell.periodic[k] {
        true => x - l[k] * (x / l[k]).round(),
        false => x,
    };
    let mut pairs = Vec::new();
    for i in 0..pos.len() {
        for j in i + 1..pos.len() {
            let reach = radius[i] + radius[j];
            let d = pos[j] - pos[i];
            let across = wrap(d[third], third);
            if across.abs() > reach {
                continue;
            }
            let within = [-1.0, 0.0, 1.0].iter().any(|up: &Real| {
                let along = wrap(d[f] + up * cell.offset, f);
                let up = d[g] + up * l[g];
                up * up + along * along + across * across <= reach * reach
            });
            if within {
                pairs.push((i as u32, j as u32));
            }
        }
    }
    pairs
}

/// The bench's shear cell cut to 4 x 4 x 4 face-centred cubic cells (256 balls, no jitter)
/// at rest, sheared at `rate`: no two balls touch (2.17 mm apart, r = 1 mm), but the layers
/// across the gradient faces are half a cell (1.53 mm) apart, so the images sliding by a
/// quarter of the cell's length put balls on top of each other's images.
fn lattice_at_rest(rate: Real) -> String {
    let bench = std::fs::read_to_string("benches/cases/shear_hooke_10k.toml").unwrap();
    let a = 0.030683639317363454 / 10.0;
    let side = 4.0 * a;
    let mut text = bench[..bench.find("[[ball]]").unwrap()]
        .replace(
            "max = [0.07670909829340863, 0.030683639317363454, 0.030683639317363454]",
            &format!("max = [{side:?}, {side:?}, {side:?}]"),
        )
        .replace("rate = 5.0", &format!("rate = {rate:?}"));
    let mut id = 0;
    for (i, j, k) in (0..64).map(|c| (c % 4, c / 4 % 4, c / 16)) {
        for b in [
            [0.0, 0.0, 0.0],
            [0.5, 0.5, 0.0],
            [0.5, 0.0, 0.5],
            [0.0, 0.5, 0.5],
        ] {
            id += 1;
            let at = |n: usize, x: Real| (n as Real + x + 0.25) * a;
            let pos = [at(i, b[0]), at(j, b[1]), at(k, b[2])];
            text += &format!(
                "[[ball]]\nid = {id}\npos = {pos:?}\nradius = 0.001\nmaterial = \"grain\"\n\n"
            );
        }
    }
    text
}

/// In the engine's own sheared runs, every pair within contact range is a candidate at every
/// cycle (an all-pairs scan over the images, [`touching`]; at every 100th cycle also
/// `brute_force_pairs`, which must agree with it): the rheology packing at I = 0.1 under its
/// servo (dense; its balls at rest at the start while the images slide past, then set
/// flowing), the same at constant volume sheared ten times as fast, a lattice at rest whose
/// images slide onto its balls ([`lattice_at_rest`]: two margins in 27 cycles), and the
/// sheared gas servoed to 20 Pa. The pairs are rebuilt in each. (With the offset's term left
/// out of [`ballast::detect::BroadPhase::tolerance`], the lattice is not rebuilt before its
/// images reach it, and this fails.)
#[test]
fn sheared_runs_keep_every_pair_within_reach() {
    enum Change {
        None,
        FasterNoServo,
    }
    let lattice = lattice_at_rest(60.0);
    for (path, change) in [
        ("cases/rheology/mu_i_0p1.toml", Change::None),
        ("cases/rheology/mu_i_0p1.toml", Change::FasterNoServo),
        ("lattice", Change::None),
        ("cases/periodic/pressure_gas.toml", Change::None),
    ] {
        let cycles = 1500;
        let mut text = match path {
            "lattice" => lattice.clone(),
            _ => std::fs::read_to_string(path).unwrap(),
        };
        match change {
            Change::None => {}
            Change::FasterNoServo => {
                let line = text.find("pressure = {").unwrap();
                let end = line + text[line..].find('\n').unwrap();
                text.replace_range(line..end, "");
                text = text.replace("rate = 63.24555320336759", "rate = 632.4555320336759");
            }
        }
        let file = Path::new("benches/cases/shear_hooke_10k.toml");
        let mut m = (parse(
            &text,
            if path == "lattice" {
                file
            } else {
                Path::new(path)
            },
        )
        .unwrap())
        .build_model(None)
        .unwrap();
        m.prime().unwrap();
        let builds = m.broad_phase.builds;
        let mut within = 0;
        for _ in 0..cycles {
            m.cycle().unwrap();
            let (b, pairs) = (&m.balls, &m.broad_phase.pairs);
            let cell = b.cell.as_ref().unwrap();
            let now = touching(&b.pos, &b.radius, cell);
            if m.cycles % 100 == 0 {
                assert_eq!(now, brute_force_pairs(&b.pos, &b.radius, 0.0, Some(cell)));
            }
            for p in &now {
                assert!(
                    pairs.binary_search(p).is_ok(),
                    "{path}: balls {p:?} within reach, not candidates (cycle {})",
                    m.cycles
                );
            }
            within += now.len();
        }
        let rebuilds = m.broad_phase.builds - builds;
        assert!(rebuilds >= 5, "{path}: {rebuilds} rebuilds");
        assert!(
            within > cycles,
            "{path}: {within} pairs within reach in all"
        );
    }
}

const GAS: &str = include_str!("../cases/periodic/gas.toml");

fn gas(steps: u64, extra: &str) -> ballast::case::Case {
    let text = GAS.replace("steps = 100000", &format!("steps = {steps}{extra}"));
    parse(&text, Path::new("cases/periodic/gas.toml")).unwrap()
}

/// The state a run ends in, as bits.
fn bits(sim: &ballast::run::Simulation) -> Vec<u64> {
    let b = &sim.model.balls;
    (b.pos.iter().chain(&b.vel).chain(&b.spin))
        .flat_map(|v| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>())
        .collect()
}

/// The periodic gas ends in the same bits on one, two and three threads, and when its run is
/// saved and restored halfway (`restart_at`); balls do cross the faces on the way.
#[test]
fn periodic_gas_is_the_same_for_any_thread_count_and_across_a_restart() {
    let case = gas(4000, "");
    let run = |threads: usize, case: &ballast::case::Case| {
        on_threads(threads, || {
            ballast::run::simulate(case, None, &[], false, None).unwrap()
        })
    };
    let one = run(1, &case);
    assert!(one.error.is_none(), "{:?}", one.error);
    let start = parse(GAS, Path::new("cases/periodic/gas.toml"))
        .unwrap()
        .balls;
    let crossed = (one.model.balls.id.iter().zip(&one.model.balls.pos))
        .filter(|(id, p)| {
            let s = start.iter().find(|b| b.id == **id).unwrap();
            (*p - s.pos).norm() > 0.008
        })
        .count();
    assert!(
        crossed > 0,
        "no ball crossed a face: the test proves little"
    );
    for threads in [2, 3] {
        assert!(
            bits(&run(threads, &case)) == bits(&one),
            "{threads} threads"
        );
    }
    let restarted = run(1, &gas(4000, "\nrestart_at = 1777"));
    assert!(bits(&restarted) == bits(&one), "restart");
}

/// A `[domain]` that cannot be used is refused at reading, naming the key.
#[rstest]
#[case::unknown_axis(
    "periodic = [\"x\", \"y\", \"z\"]",
    "periodic = [\"x\", \"w\"]",
    "domain.periodic[2]"
)]
#[case::axis_twice(
    "periodic = [\"x\", \"y\", \"z\"]",
    "periodic = [\"x\", \"x\"]",
    "given twice"
)]
#[case::no_axis(
    "periodic = [\"x\", \"y\", \"z\"]",
    "periodic = []",
    "domain.periodic: missing"
)]
#[case::no_max("max = [0.016, 0.016, 0.016]\n", "", "domain.max: missing")]
#[case::inverted(
    "max = [0.016, 0.016, 0.016]",
    "max = [0.016, -0.016, 0.016]",
    "must exceed domain.min along y"
)]
#[case::too_short(
    "max = [0.016, 0.016, 0.016]",
    "max = [0.016, 0.016, 0.0035]",
    "longer than 4 (largest radius + margin)"
)]
#[case::pressure_target_negative(
    "periodic = [\"x\", \"y\", \"z\"]",
    "periodic = [\"x\", \"y\", \"z\"]\npressure = { target = -1e4, axis = \"z\", gain = 1e-3, max_rate = 1.0 }",
    "domain.pressure.target: -10000: must be a positive finite number"
)]
#[case::pressure_gain_zero(
    "periodic = [\"x\", \"y\", \"z\"]",
    "periodic = [\"x\", \"y\", \"z\"]\npressure = { target = 1e4, axis = \"z\", gain = 0.0, max_rate = 1.0 }",
    "domain.pressure.gain: 0: must be a positive"
)]
#[case::pressure_rate_nan(
    "periodic = [\"x\", \"y\", \"z\"]",
    "periodic = [\"x\", \"y\", \"z\"]\npressure = { target = 1e4, axis = \"z\", gain = 1e-3, max_rate = nan }",
    "domain.pressure.max_rate: NaN"
)]
#[case::pressure_every_zero(
    "periodic = [\"x\", \"y\", \"z\"]",
    "periodic = [\"x\", \"y\", \"z\"]\npressure = { target = 1e4, axis = \"z\", gain = 1e-3, max_rate = 1.0, every = 0 }",
    "domain.pressure.every: 0"
)]
#[case::pressure_unknown_axis(
    "periodic = [\"x\", \"y\", \"z\"]",
    "periodic = [\"x\", \"y\", \"z\"]\npressure = { target = 1e4, axis = \"w\", gain = 1e-3, max_rate = 1.0 }",
    "domain.pressure.axis: \"w\""
)]
#[case::pressure_axis_not_periodic(
    "periodic = [\"x\", \"y\", \"z\"]",
    "periodic = [\"x\", \"y\"]\npressure = { target = 1e4, axis = \"z\", gain = 1e-3, max_rate = 1.0 }",
    "domain.pressure.axis: \"z\" is not periodic"
)]
#[case::pressure_on_the_flow_axis(
    "periodic = [\"x\", \"y\", \"z\"]",
    "periodic = [\"x\", \"y\", \"z\"]\nshear = { rate = 1.0, flow = \"x\", gradient = \"z\" }\npressure = { target = 1e4, axis = \"x\", gain = 1e-3, max_rate = 1.0 }",
    "domain.pressure.axis: \"x\" is the shear's flow axis"
)]
#[case::pressure_missing_key(
    "periodic = [\"x\", \"y\", \"z\"]",
    "periodic = [\"x\", \"y\", \"z\"]\npressure = { target = 1e4, axis = \"z\", gain = 1e-3 }",
    "max_rate"
)]
#[case::pressure_unknown_key(
    "periodic = [\"x\", \"y\", \"z\"]",
    "periodic = [\"x\", \"y\", \"z\"]\npressure = { target = 1e4, axis = \"z\", gain = 1e-3, max_rate = 1.0, mass = 2.0 }",
    "mass"
)]
#[case::shear_same_axes(
    "periodic = [\"x\", \"y\", \"z\"]",
    "periodic = [\"x\", \"y\", \"z\"]\nshear = { rate = 1.0, flow = \"z\", gradient = \"z\" }",
    "domain.shear.gradient: \"z\" is also the flow axis"
)]
#[case::shear_axis_not_periodic(
    "periodic = [\"x\", \"y\", \"z\"]",
    "periodic = [\"x\", \"y\"]\nshear = { rate = 1.0, flow = \"x\", gradient = \"z\" }",
    "domain.shear.gradient: \"z\" is not periodic"
)]
#[case::shear_rate_nan(
    "periodic = [\"x\", \"y\", \"z\"]",
    "periodic = [\"x\", \"y\", \"z\"]\nshear = { rate = nan, flow = \"x\", gradient = \"z\" }",
    "domain.shear.rate: NaN: must be a finite number"
)]
#[case::shear_unknown_axis(
    "periodic = [\"x\", \"y\", \"z\"]",
    "periodic = [\"x\", \"y\", \"z\"]\nshear = { rate = 1.0, flow = \"q\", gradient = \"z\" }",
    "domain.shear.flow: \"q\""
)]
#[case::two_components(
    "max = [0.016, 0.016, 0.016]",
    "max = [0.016, 0.016]",
    "domain.max: 2 components"
)]
#[case::unknown_key(
    "periodic = [\"x\", \"y\", \"z\"]",
    "periodic = [\"x\", \"y\", \"z\"]\nwrap = true",
    "wrap"
)]
#[case::insert_outside_the_cell(
    "[output]",
    "[[insert]]\nregion = { box = { min = [0.0, 0.0, 0.0], max = [0.02, 0.016, 0.016] } }\nmaterial = \"glass\"\ncount = 1\nradius = { kind = \"uniform\", min = 0.0009, max = 0.0009 }\n\n[output]",
    "insert[1].region: reaches outside the periodic cell along x ([0, 0.02] not in [0, 0.016])"
)]
#[case::wall_across_the_cell(
    "[output]",
    "[[wall]]\nname = \"base\"\nmaterial = \"glass\"\nplane = { center = [0.008, 0.008, 0.004], normal = [0.0, 0.0, 1.0], size = [0.016, 0.015] }\n\n[output]",
    "wall[1]: wall \"base\" comes within"
)]
#[case::wall_near_a_face(
    "[output]",
    "[[wall]]\nname = \"shelf\"\nmaterial = \"glass\"\nplane = { center = [0.008, 0.008, 0.015], normal = [0.0, 1.0, 0.0], size = [0.004, 0.0015] }\n\n[output]",
    "of a face of the periodic cell along z"
)]
fn bad_domains_are_refused(#[case] from: &str, #[case] to: &str, #[case] names: &str) {
    let text = GAS.replace(from, to);
    assert_ne!(text, GAS, "the row changes nothing");
    match parse(&text, Path::new("cases/periodic/gas.toml")) {
        Ok(_) => panic!("accepted: {to}"),
        Err(e) => {
            let msg = e.to_string();
            assert!(msg.contains("cases/periodic/gas.toml"), "{msg}");
            assert!(msg.contains(names), "{msg}");
        }
    }
}

/// Two balls that lie deep inside each other through a face (0.2 mm apart across it, 15.8 mm
/// apart inside the cell) are refused at reading as any such pair is: the start is judged at
/// the nearest images. The same two balls 3 mm apart across the face are accepted.
#[rstest]
#[case::through_the_face(0.0159, true)]
#[case::apart_through_the_face(0.0131, false)]
fn balls_overlapping_through_a_face_are_refused(#[case] x: Real, #[case] refused: bool) {
    let head = &GAS[..GAS.find("[[ball]]").unwrap()];
    let ball = |id: u32, x: Real| {
        format!("[[ball]]\nid = {id}\npos = [{x}, 0.008, 0.008]\nradius = 0.0009\nmaterial = \"glass\"\n\n")
    };
    let text = format!(
        "{head}{}{}[output]\nseries = [\"balls/momentum\"]\n",
        ball(1, 0.0001),
        ball(2, x)
    );
    match (parse(&text, Path::new("cases/p.toml")), refused) {
        (Err(e), true) => assert!(e.to_string().contains("start overlapping"), "{e}"),
        (Ok(_), false) => {}
        (Err(e), false) => panic!("{e}"),
        (Ok(_), true) => panic!("accepted two balls 0.2 mm apart through the face"),
    }
}

/// A stage from a checkpoint (`run --from`) keeps the periodic cell its balls lie in: a case
/// without `[domain]` or with another cell is refused, and so is one that drops the shear of
/// images left offset; a bounded checkpoint may become periodic, and a periodic one sheared.
#[rstest]
#[case::cell_dropped(false, "[domain]\nmin", "[nodomain]\nmin", Some("has no [domain]"))]
#[case::cell_changed(
    false,
    "max = [0.016, 0.016, 0.016]",
    "max = [0.016, 0.016, 0.02]",
    Some("differs from the checkpoint's cell")
)]
#[case::sheared(
    false,
    "periodic = [\"x\", \"y\", \"z\"]",
    "periodic = [\"x\", \"y\", \"z\"]\nshear = { rate = 5.0, flow = \"x\", gradient = \"z\" }",
    None
)]
#[case::offset_left(
    true,
    "shear = { rate = 10.0, flow = \"x\", gradient = \"z\" }",
    "",
    Some("offset by")
)]
#[case::offset_kept(true, "rate = 10.0", "rate = 0.0", None)]
fn a_stage_keeps_its_cell(
    #[case] sheared_before: bool,
    #[case] from: &str,
    #[case] to: &str,
    #[case] refused: Option<&str>,
) {
    let before = if sheared_before {
        include_str!("../cases/periodic/lees_edwards_gas.toml").to_string()
    } else {
        GAS.to_string()
    };
    let path = Path::new("cases/periodic/gas.toml");
    let mut old = parse(&before, path).unwrap().build_model(None).unwrap();
    for _ in 0..200 {
        old.cycle().unwrap();
    }
    // (the next stage adds no ball: its own settings, the checkpoint's balls)
    let settings = &before[..before.find("[[ball]]").unwrap()];
    let mut text = settings.replace(from, to) + "[output]\nseries = [\"energy/kinetic\"]\n";
    assert!(
        !settings.contains(to) || to.is_empty(),
        "the row changes nothing"
    );
    assert!(settings.contains(from), "the row changes nothing");
    if text.contains("[nodomain]") {
        // (no cell at all: its keys go with it)
        let start = text.find("[nodomain]").unwrap();
        let end = text[start..].find("\n\n").unwrap() + start;
        text.replace_range(start..end, "");
    }
    // (as `run --from` reads it: the stage's default margin from the checkpoint's balls)
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("stage_cell");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("next_{}.toml", to.len()));
    std::fs::write(&file, &text).unwrap();
    let adopted = ballast::case::load_stage(&file, &old).and_then(|next_case| {
        let next = next_case.build_model(None)?;
        Ok(ballast::case::stage::adopt(old, next, &next_case).unwrap())
    });
    match (adopted, refused) {
        (Err(e), Some(says)) => {
            let e = e.to_string();
            assert!(e.contains("--from") && e.contains(says), "{e}")
        }
        (Ok(m), None) => {
            let cell = m.balls.cell.as_ref().unwrap();
            assert_eq!(cell.shear.is_some(), text.contains("shear ="));
            // (the offset goes on from the checkpoint's)
            assert_eq!(cell.offset != 0.0, sheared_before);
        }
        (Err(e), None) => panic!("{e}"),
        (Ok(_), Some(says)) => panic!("accepted; expected {says:?}"),
    }
}

/// In 2D the cell's stress is recorded as `.xx .yy .xy` (SPEC 6.1), and equals the 3D pair's
/// in-plane components' layout: three columns, no zeros for z.
#[test]
fn the_2d_cell_stress_has_three_columns() {
    let text = include_str!("../cases/periodic/pair_middle_2d.toml")
        .replace("duration = 0.008", "duration = 0.0001")
        .replace("series = [", "series = [\"domain/stress\", ");
    let case = parse(&text, Path::new("cases/periodic/pair_middle_2d.toml")).unwrap();
    let sim = ballast::run::simulate(&case, None, &[], false, None).unwrap();
    let stress: Vec<&String> = (sim.table.columns.iter())
        .filter(|c| c.starts_with("domain/stress"))
        .collect();
    assert_eq!(
        stress,
        ["domain/stress.xx", "domain/stress.yy", "domain/stress.xy"]
    );
}

/// Outputs show a ball that is past the top face of a sheared cell (between two rebuilds) where
/// the model will bring it: one length down and back by the offset along the flow (by hand:
/// offset 0.03 m, the ball at (0.02, 0.05, 0.104) is shown at (0.09, 0.05, 0.004)).
#[test]
fn a_ball_past_a_sheared_face_is_shown_at_its_image() {
    let case = parse(
        include_str!("../cases/periodic/lees_edwards_crossing.toml"),
        Path::new("cases/periodic/lees_edwards_crossing.toml"),
    )
    .unwrap();
    let mut model = case.build_model(None).unwrap();
    model.balls.pos[0] = Vec3::new(0.02, 0.05, 0.104);
    model.balls.cell.as_mut().unwrap().offset = 0.03;
    let shown = model.balls.shown(0);
    assert!(
        (shown - Vec3::new(0.09, 0.05, 0.004)).norm() < 1e-15,
        "{shown}"
    );
}

/// Two balls far apart push back on nothing: the servo shrinks the cell at its largest rate
/// until it is no longer longer than 4 (largest radius + margin), and the run stops there
/// naming the cycle, the axis and the length (not a silently wrong minimum image).
#[test]
fn a_collapsing_pressure_cell_stops_the_run() {
    let head = &GAS[..GAS.find("[[ball]]").unwrap()];
    let text = head.replace(
        "periodic = [\"x\", \"y\", \"z\"]",
        "periodic = [\"x\", \"y\", \"z\"]\npressure = { target = 1e3, axis = \"z\", gain = 1.0, max_rate = 100.0 }",
    ) + "[[ball]]\nid = 1\npos = [0.004, 0.004, 0.004]\nradius = 0.0009\nmaterial = \"glass\"\n\n\
         [[ball]]\nid = 2\npos = [0.012, 0.012, 0.012]\nradius = 0.0009\nmaterial = \"glass\"\n\n\
         [output]\nseries = [\"domain/size\"]\n";
    assert_ne!(text, head);
    let case = parse(&text, Path::new("cases/periodic/gas.toml")).unwrap();
    let sim = ballast::run::simulate(&case, None, &[], false, None).unwrap();
    let e = sim
        .error
        .expect("the cell shrank without end and the run went on");
    assert!(
        e.contains("the periodic cell's length along z became") && e.contains("cycle "),
        "{e}"
    );
    let len = sim.model.balls.cell.as_ref().unwrap().len.z;
    assert!(len < 0.016 && len > 4.0 * 0.0009, "{len}");
}

/// Energy series are refused in a pressure-controlled cell with walls, or with gravity along
/// the controlled axis (the remap moves the balls against the walls or in the field between two
/// force passes, unbooked), naming the key, before the run; the same cell without them keeps
/// its books.
#[test]
fn energy_series_are_refused_where_the_remap_work_is_not_booked() {
    let text = GAS.replace(
        "periodic = [\"x\", \"y\", \"z\"]",
        "periodic = [\"x\", \"y\", \"z\"]\npressure = { target = 1.0, axis = \"z\", gain = 1e-3, max_rate = 1.0 }",
    )
    .replace("\"energy/kinetic\"", "\"energy/dissipated\"")
    .replace("steps = 100000", "steps = 10");
    let wall = "[[wall]]\nname = \"shelf\"\nmaterial = \"glass\"\n\
                plane = { center = [0.008, 0.008, 0.008], normal = [0.0, 0.0, 1.0], size = [0.004, 0.004] }\n\n";
    let at = text.find("[output]").unwrap();
    let walled = format!("{}{wall}{}", &text[..at], &text[at..]);
    let case = parse(&walled, Path::new("cases/periodic/gas.toml")).unwrap();
    let e = ballast::run::simulate(&case, None, &[], false, None)
        .err()
        .expect("accepted energy series under pressure control with a wall")
        .to_string();
    assert!(
        e.contains("output.series") && e.contains("pressure-controlled cell with walls"),
        "{e}"
    );
    let fall = text.replace("gravity = [0.0, 0.0, 0.0]", "gravity = [0.0, 0.0, -9.81]");
    let case = parse(&fall, Path::new("cases/periodic/gas.toml")).unwrap();
    let e = ballast::run::simulate(&case, None, &[], false, None)
        .err()
        .expect("accepted energy series under pressure control with gravity along its axis")
        .to_string();
    assert!(
        e.contains("output.series") && e.contains("gravity along its controlled axis z"),
        "{e}"
    );
    let case = parse(&text, Path::new("cases/periodic/gas.toml")).unwrap();
    let sim = ballast::run::simulate(&case, None, &[], false, None).unwrap();
    assert!(sim.error.is_none(), "{:?}", sim.error);
}

/// A stage from a checkpoint of a pressure-controlled cell goes on with the length the servo
/// reached, though its `[domain] max` gives the starting one; another length is still refused.
#[test]
fn a_stage_keeps_the_length_its_servo_reached() {
    let text = include_str!("../cases/periodic/pressure_lattice.toml");
    let path = Path::new("cases/periodic/pressure_lattice.toml");
    let mut old = parse(text, path).unwrap().build_model(None).unwrap();
    for _ in 0..3000 {
        old.cycle().unwrap();
    }
    let reached = old.balls.cell.as_ref().unwrap().len;
    assert!(reached.z < 0.008, "the servo did not move: {reached}");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("stage_pressure");
    std::fs::create_dir_all(&dir).unwrap();
    let stage = |text: &str, old| {
        let file = dir.join("next.toml");
        std::fs::write(&file, text).unwrap();
        let next_case = ballast::case::load_stage(&file, &old)?;
        let next = next_case.build_model(None)?;
        ballast::case::stage::adopt(old, next, &next_case).map_err(|e| e.into())
    };
    let settings = &text[..text.find("[[ball]]").unwrap()];
    let next: Result<ballast::model::Model, Box<dyn std::error::Error>> =
        stage(settings, old.clone());
    let next = next.unwrap();
    assert_eq!(next.balls.cell.as_ref().unwrap().len, reached);
    let wider = settings.replace("max = [0.0066", "max = [0.007");
    assert_ne!(wider, settings);
    let refused: Result<ballast::model::Model, Box<dyn std::error::Error>> = stage(&wider, old);
    let Err(e) = refused else {
        panic!("accepted another length along x")
    };
    let e = e.to_string();
    assert!(e.contains("differs from the checkpoint's cell"), "{e}");
}

/// The bench's shear cell (10,000 balls: the per-ball and force loops split across threads;
/// sheared twenty times faster than in the bench, so that contacts form within 500 cycles)
/// ends in the same bits on one, two and three threads; the images do slide and balls cross
/// the gradient faces on the way.
#[test]
fn the_shear_cell_is_the_same_for_any_thread_count() {
    let path = Path::new("benches/cases/shear_hooke_10k.toml");
    let text = std::fs::read_to_string(path)
        .unwrap()
        .replace("steps = 20000", "steps = 500")
        // (ten times the bench's rate: the lattice's gaps close within the run)
        .replace("rate = 5.0", "rate = 100.0");
    let case = parse(&text, path).unwrap();
    let run = |threads: usize| {
        on_threads(threads, || {
            ballast::run::simulate(&case, None, &[], false, None).unwrap()
        })
    };
    let one = run(1);
    assert!(one.error.is_none(), "{:?}", one.error);
    let cell = one.model.balls.cell.as_ref().unwrap();
    assert!(cell.offset > 0.0, "the images did not slide");
    let touching = one.model.contacts.list.iter().filter(|c| c.active).count();
    assert!(
        touching > 5000,
        "{touching} contacts: too few to split the force loop"
    );
    for threads in [2, 3] {
        assert!(bits(&run(threads)) == bits(&one), "{threads} threads");
    }
}

/// The remap is affine: two balls at rest that touch nothing keep their heights as fractions of
/// the cell's while the servo shrinks it (the bodies move with the length, not only the faces).
#[test]
fn a_dilating_cell_carries_the_balls_affinely() {
    let head = &GAS[..GAS.find("[[ball]]").unwrap()];
    let text = head.replace(
        "periodic = [\"x\", \"y\", \"z\"]",
        "periodic = [\"x\", \"y\", \"z\"]\npressure = { target = 1e3, axis = \"z\", gain = 1.0, max_rate = 20.0 }",
    ) + "[[ball]]\nid = 1\npos = [0.004, 0.004, 0.003]\nradius = 0.0009\nmaterial = \"glass\"\n\n\
         [[ball]]\nid = 2\npos = [0.012, 0.012, 0.013]\nradius = 0.0009\nmaterial = \"glass\"\n";
    let mut model = parse(&text, Path::new("cases/periodic/gas.toml"))
        .unwrap()
        .build_model(None)
        .unwrap();
    for _ in 0..500 {
        model.cycle().unwrap();
    }
    let cell = model.balls.cell.as_ref().unwrap();
    // (shrinking at 20 1/s for 500 cycles)
    assert!(cell.len.z < 0.0155, "{}", cell.len.z);
    for (i, z0) in [(0, 0.003), (1, 0.013)] {
        let fraction = (model.balls.pos[i].z - cell.min.z) / cell.len.z;
        assert!(
            (fraction - z0 / 0.016).abs() < 1e-12,
            "ball {i}: {fraction}"
        );
        assert_eq!(model.balls.pos[i].x, [0.004, 0.012][i], "moved along x");
    }
}

/// Under pressure control the affine remap's work on the contacts' springs is booked by the
/// trapezoidal rule over each step, so the balance less the leapfrog's own error closes to the
/// integration's second order: halving the timestep divides what is left by about 4 (by hand:
/// order 2, so 4; accepted above 3). Without the remap booked, what is left is the remap's
/// work itself, which does not fall with the timestep: the ratio is about 1 and this fails.
#[test]
fn the_remap_work_closes_the_balance_to_second_order() {
    let text = include_str!("../cases/periodic/pressure_gas.toml")
        .replace("steps = 20000", "steps = 4000");
    let left = |dt: f64, steps: u32| {
        let text = text
            .replace("dt = 2e-5", &format!("dt = {dt:e}"))
            .replace("steps = 4000", &format!("steps = {steps}"))
            .replace("every = 500", &format!("every = {steps}"));
        let case = parse(&text, Path::new("cases/periodic/pressure_gas.toml")).unwrap();
        let sim = ballast::run::simulate(&case, None, &[], false, None).unwrap();
        assert!(sim.error.is_none(), "{:?}", sim.error);
        let column = |name: &str| *sim.table.column(name).unwrap().last().unwrap();
        let work = column("energy/work");
        assert!(work > 1e-7, "the servo did no work ({work} J)");
        (column("energy/balance") - column("energy/integrator")).abs()
    };
    let (coarse, fine) = (left(2e-5, 4000), left(1e-5, 8000));
    assert!(
        coarse / fine > 3.0,
        "left {coarse:e} J at dt, {fine:e} J at dt/2"
    );
}

/// A `plane` whose side spans the cell exactly along a periodic axis, edges on both faces, is
/// imaged there (a chute's base): accepted, its vertices on the faces carried the largest radius
/// plus the margin past them, and marked imaged. Every other wall near a periodic face is
/// refused, naming the file, the wall and the reason: a moving plane, a plane a little short of
/// the cell or off its middle, a plane tilted so that it spans x but not y, the same rectangle
/// given as a mesh, a box; and an imaged plane along an axis whose length the pressure control
/// changes, or along the gradient of Lees-Edwards shear.
#[rstest]
#[case::spanning("", "", None)]
#[case::moving(
    "size = [0.02, 0.02] }\n",
    "size = [0.02, 0.02] }\nmotion = { kind = \"rigid\", vel = [0.0, 0.0, -0.001] }\n",
    Some("wall[1].motion: plane \"base\" spans the periodic cell exactly along x ([0, 0.02]), so it would be imaged across the faces there (a chute's base), but it moves")
)]
#[case::programmed(
    "size = [0.02, 0.02] }\n",
    "size = [0.02, 0.02] }\nmotion = { kind = \"rigid\", schedule = [ { t = 0.1, vel = [0.0, 0.0, -0.001] } ] }\n",
    Some("but it moves")
)]
#[case::short(
    "size = [0.02, 0.02]",
    "size = [0.0199, 0.02]",
    Some("wall[1]: wall \"base\" comes within 2.2e-3 m (the largest radius plus the margin) of a face of the periodic cell along x (at 0.0000499")
)]
#[case::off_the_middle(
    "center = [0.01, 0.01, 0.0]",
    "center = [0.01, 0.0101, 0.0]",
    Some("of a face of the periodic cell along y")
)]
#[case::tilted(
    "normal = [0.0, 0.0, 1.0]",
    "normal = [0.0, 0.1, 1.0]",
    Some("of a face of the periodic cell along y")
)]
#[case::mesh(
    "plane = { center = [0.01, 0.01, 0.0], normal = [0.0, 0.0, 1.0], size = [0.02, 0.02] }",
    "vertices = [[0.0, 0.0, 0.0], [0.02, 0.0, 0.0], [0.02, 0.02, 0.0], [0.0, 0.02, 0.0]]\nfacets = [[0, 1, 2], [0, 2, 3]]",
    Some("only a still `plane` whose side spans the cell exactly along the axis, edges on both faces, is imaged")
)]
#[case::box_(
    "plane = { center = [0.01, 0.01, 0.0], normal = [0.0, 0.0, 1.0], size = [0.02, 0.02] }",
    "box = { min = [0.0, 0.0, -0.005], max = [0.02, 0.02, 0.0] }",
    Some("wall[1]: wall \"base\" comes within")
)]
#[case::pressure_axis(
    "periodic = [\"x\", \"y\"]",
    "periodic = [\"x\", \"y\"]\npressure = { target = 10.0, axis = \"y\", gain = 1e-3, max_rate = 1.0 }",
    Some("but the pressure control changes the cell's length along y: the plane would no longer span it")
)]
#[case::shear_gradient(
    "periodic = [\"x\", \"y\"]",
    "periodic = [\"x\", \"y\"]\nshear = { rate = 1.0, flow = \"x\", gradient = \"y\" }",
    Some("but y is the gradient axis of the Lees-Edwards shear, whose images slide")
)]
fn planes_spanning_the_cell_are_imaged_and_other_walls_refused(
    #[case] from: &str,
    #[case] to: &str,
    #[case] refusal: Option<&str>,
) {
    let path = Path::new("cases/periodic/rolling_plane.toml");
    let original = std::fs::read_to_string(path).unwrap();
    let text = original.replacen(from, to, 1);
    assert!(
        from.is_empty() || text != original,
        "the row changes nothing"
    );
    match (parse(&text, path), refusal) {
        (Ok(case), None) => {
            let reach = 0.002 + case.margin;
            let wall = &case.walls[0];
            assert!(wall.imaged, "a spanning plane not imaged");
            for k in 0..2 {
                let low = wall
                    .vertices
                    .iter()
                    .map(|v| v[k])
                    .fold(Real::INFINITY, Real::min);
                let high = (wall.vertices.iter().map(|v| v[k])).fold(Real::NEG_INFINITY, Real::max);
                assert_eq!((low, high), (-reach, 0.02 + reach), "axis {k}");
            }
            // (the model's wall is marked too: its contacts keep their state across facets)
            let model = case.build_model(None).unwrap();
            assert!(model.walls[0].imaged);
        }
        (Err(e), Some(names)) => {
            let msg = e.to_string();
            assert!(msg.contains("cases/periodic/rolling_plane.toml"), "{msg}");
            assert!(msg.contains(names), "{msg}");
        }
        (Ok(_), Some(_)) => panic!("accepted: {to}"),
        (Err(e), None) => panic!("refused: {e}"),
    }
}
