//! `cargo bench`: one full cycle and contact detection alone, for 1,000 and 10,000 balls settled
//! on a layer of fixed balls. Each is timed in 20 samples of `ITERS` calls; the median and the
//! spread (smallest to largest) per call are printed. No harness crate: std's clock only, so the
//! bench costs the test build nothing. `ballast bench` is the measure the Performance page quotes.

use ballast::body::{dof, BallSpec};
use ballast::math::{Real, Vec3};
use ballast::model::{Model, Settings};
use ballast::rng::SplitMix64;
use ballast::stiffness::study;
use ballast::timestep::TimestepMode;
use std::hint::black_box;
use std::time::Instant;

const R: Real = 1e-3;

/// `n` balls of radius 1 mm dropped in a column onto a floor of fixed balls wide enough for the
/// heap, then cycled until they are nearly at rest.
fn settled(n: usize) -> Model {
    let settings = Settings {
        gravity: Vec3::new(0.0, 0.0, -9.81),
        margin: 0.1 * R,
        timestep: TimestepMode::Fixed(5e-6),
        frame: Default::default(),
    };
    let mut law = study::linear_law(1e4, 1e4, 0.0, 0.0);
    (law.damp_n, law.damp_s) = (0.3, 0.3);
    let (mut m, glass) = study::glass_model(settings, law);
    let side = ((n as Real / 10.0).sqrt().ceil()) as usize;
    let floor = side + 8;
    let mut id = 1;
    for i in 0..floor {
        for j in 0..floor {
            let mut b = BallSpec::at_rest(
                id,
                [i as Real * 2.0 * R, j as Real * 2.0 * R, 0.0],
                R,
                glass,
            );
            b.fixed = dof::ALL;
            m.add_ball(&b).unwrap();
            id += 1;
        }
    }
    let mut rng = SplitMix64::new(1);
    let off = 4.0 * 2.0 * R;
    for k in 0..n {
        let (i, j, l) = (k % side, (k / side) % side, k / (side * side));
        let p = [
            off + i as Real * 2.2 * R + 0.1 * R * rng.next_unit(),
            off + j as Real * 2.2 * R + 0.1 * R * rng.next_unit(),
            2.5 * R + l as Real * 2.2 * R,
        ];
        m.add_ball(&BallSpec::at_rest(id, p, R, glass)).unwrap();
        id += 1;
    }
    for _ in 0..40_000 {
        m.cycle().unwrap();
    }
    m
}

/// Calls per sample and samples per measurement.
const ITERS: usize = 20;
const SAMPLES: usize = 20;

/// Times `f` in [`SAMPLES`] samples of [`ITERS`] calls (after one warm-up sample); prints the
/// median and the range per call.
fn time(label: &str, mut f: impl FnMut()) {
    let mut per_call: Vec<f64> = (0..=SAMPLES)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..ITERS {
                f();
            }
            t.elapsed().as_secs_f64() / ITERS as f64
        })
        .skip(1)
        .collect();
    per_call.sort_by(f64::total_cmp);
    let us = |s: f64| s * 1e6;
    println!(
        "{label:<44} median {:>10.1} us   range [{:.1}, {:.1}] us",
        us(per_call[SAMPLES / 2]),
        us(per_call[0]),
        us(per_call[SAMPLES - 1])
    );
}

fn main() {
    // `cargo test --benches` runs this with `--bench` absent: build it, run nothing
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    for n in [1_000usize, 10_000] {
        let model = settled(n);
        let mut m = model.clone();
        time(&format!("settled_on_fixed_layer/cycle/{n}"), || {
            m.cycle().unwrap()
        });
        let mut m = model.clone();
        time(
            &format!("settled_on_fixed_layer/detect_rebuild/{n}"),
            || {
                m.broad_phase
                    .build(&m.balls.pos, &m.balls.radius, m.settings.margin);
                black_box(m.broad_phase.pairs.len());
            },
        );
    }
}
