//! Criterion benches: one full cycle and contact detection alone, for 1,000 and 10,000 balls
//! settled on a layer of fixed balls.

use ballast::body::{dof, BallSpec};
use ballast::math::{Real, Vec3};
use ballast::model::{Model, Settings};
use ballast::rng::SplitMix64;
use ballast::stiffness::study;
use ballast::timestep::TimestepMode;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use std::hint::black_box;

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

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("settled_on_fixed_layer");
    g.sample_size(20);
    for n in [1_000usize, 10_000] {
        let model = settled(n);
        g.bench_with_input(BenchmarkId::new("cycle", n), &model, |b, m| {
            let mut m = m.clone();
            b.iter(|| m.cycle().unwrap());
        });
        g.bench_with_input(BenchmarkId::new("detect_rebuild", n), &model, |b, m| {
            let mut m = m.clone();
            b.iter(|| {
                m.broad_phase
                    .build(&m.balls.pos, &m.balls.radius, m.settings.margin);
                black_box(m.broad_phase.pairs.len())
            });
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
