//! `cargo bench`: criterion benchmarks of the cycle and of each of its costly parts, on states
//! built once outside the timing.
//!
//! The states are the peer benchmark's scenes (benches/cases/): the settle box of 1,000, 10,000
//! and 50,000 balls after 10,000 cycles (a bed at rest after the fall), with the history model
//! (`hooke-history`) and Hertz-Mindlin on the seed's contact frame (`hertz`), and the turning
//! drum of 4,800 facets after 15,000 cycles. Settling the 50k box takes a few minutes, so each
//! settled model is kept in `target/bench-states/` (bincode of the model, named after the case
//! file's hash and the checkpoint format): later runs and baselines time the same state. Delete
//! that folder to build them again.
//!
//! Performance tracking: `cargo bench -- --save-baseline main` saves the figures under
//! `target/criterion/`, and `cargo bench -- --baseline main` after a change compares with them
//! (criterion prints each change with its confidence interval; HTML in
//! `target/criterion/report/index.html`). `cargo bench -- detect` runs the benchmarks whose
//! name contains `detect`. `ballast bench` is the measure the Performance page quotes beside
//! LIGGGHTS.

use ballast::model::Model;
use ballast::stiffness::GlobalStiffness;
use ballast::timestep::{DofStiffness, Estimator};
use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Cycles run from the case's start before a scene counts as settled.
const SETTLE_CYCLES: u64 = 10_000;
/// Cycles of the drum before its balls lie on the mantle and are carried up (they fall about
/// 40 mm from the lattice: 0.09 s).
const DRUM_CYCLES: u64 = 15_000;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The model of `benches/cases/<case>.toml` after `cycles` cycles, from the cache in
/// `target/bench-states/` or run now (on every processor) and kept there.
fn state(case: &str, cycles: u64) -> Model {
    let path = root().join("benches/cases").join(format!("{case}.toml"));
    let case = ballast::case::load(&path).unwrap_or_else(|e| panic!("{e}"));
    let dir = root().join("target/bench-states");
    let file: PathBuf = dir.join(format!(
        "{}_{cycles}_{:016x}_v{}.bin",
        case.name,
        case.source_hash,
        ballast::run::checkpoint::FORMAT
    ));
    if let Ok(bytes) = std::fs::read(&file) {
        // (a model whose layout changed since the file was written does not decode: built again)
        if let Ok(model) = bincode::deserialize::<Model>(&bytes) {
            return model;
        }
    }
    eprintln!(
        "building the bench state {} (once; kept in target/bench-states/)",
        file.display()
    );
    let mut model = case.build_model(None).unwrap_or_else(|e| panic!("{e}"));
    model.prime().expect("the scene starts");
    for _ in 0..cycles {
        model.cycle().expect("the scene runs");
    }
    std::fs::create_dir_all(&dir).expect("target/ is writable");
    let bytes = bincode::serialize(&model).expect("a model serializes");
    std::fs::write(&file, bytes).expect("target/ is writable");
    model
}

/// Large scenes: fewer samples, so that a run of every benchmark stays within minutes.
fn sized(
    c: &mut Criterion,
    n: usize,
) -> criterion::BenchmarkGroup<'_, criterion::measurement::WallTime> {
    let mut g = c.benchmark_group(format!("{}k", n / 1000));
    if n >= 10_000 {
        g.sample_size(20).measurement_time(Duration::from_secs(8));
    }
    g
}

/// One whole cycle of the settled box, and one rebuild of the contact detection (grid, pairs,
/// ball-facet candidates, merge into the persistent lists), at 1k, 10k and 50k balls.
fn cycle_and_detection(c: &mut Criterion) {
    for (n, case) in [
        (1_000, "settle_box_hooke_1k"),
        (10_000, "settle_box_hooke_10k"),
        (50_000, "settle_box_hooke_50k"),
    ] {
        let model = state(case, SETTLE_CYCLES);
        let mut g = sized(c, n);
        let mut m = model.clone();
        g.bench_function("cycle/hooke-history", |b| {
            b.iter(|| m.cycle().expect("the scene runs"))
        });
        let mut m = model.clone();
        g.bench_function("detect/rebuild", |b| {
            b.iter(|| {
                m.broad_phase.invalidate();
                m.detect();
                black_box(m.contacts.list.len())
            })
        });
        g.finish();
    }
}

/// The force pass alone (ball-ball and ball-wall contacts, the sums into the balls) of each
/// contact-model family on the settled 10k box: the history models' lanes, the frame models'
/// lanes, and the general loop (any model; taken here because energy books are kept).
fn force_passes(c: &mut Criterion) {
    let dt = 1e-5;
    let mut g = sized(c, 10_000);
    let mut history = state("settle_box_hooke_10k", SETTLE_CYCLES);
    g.bench_function("force/history-lanes", |b| {
        b.iter(|| history.force_displacement(dt))
    });
    let frame = state("settle_box_hertz_frame_10k", SETTLE_CYCLES);
    let mut m = frame.clone();
    g.bench_function("force/frame-lanes", |b| b.iter(|| m.force_displacement(dt)));
    let mut m = frame;
    m.keep_energy_books();
    m.prime().expect("the scene starts");
    g.bench_function("force/general-loop", |b| {
        b.iter(|| m.force_displacement(dt))
    });
    g.finish();
}

/// Ball-facet contacts on a mesh: the drum of 4,800 facets (full resolution, turning) with its
/// 10k balls; the wall part of the force pass alone.
fn drum_walls(c: &mut Criterion) {
    let mut m = state("drum_hertz_10k", DRUM_CYCLES);
    let touching = m.facet_contacts.active_count();
    assert!(
        touching > 1000,
        "the drum's balls lie on its mantle ({touching} contacts)"
    );
    let mut g = sized(c, 10_000);
    g.bench_function("walls/drum-4800-facets", |b| b.iter(|| m.wall_forces(1e-5)));
    g.finish();
}

/// The automatic timestep's estimate (the per-DOF stiffness sums of every contact, seed 000
/// eq. 11, and the row-sum bound) on the settled 10k box, and the exact critical timestep
/// (assembly of K and M, Lanczos) of the settled 1k box: 6,000 degrees of freedom.
fn stiffness(c: &mut Criterion) {
    let m10 = state("settle_box_hooke_10k", SETTLE_CYCLES);
    let mut g = sized(c, 10_000);
    for (name, estimator) in [
        ("estimate/diagonal", Estimator::Diagonal),
        ("estimate/bound", Estimator::Bound),
    ] {
        let mut ks = DofStiffness::default();
        g.bench_function(name, |b| {
            b.iter(|| {
                ks.compute(&m10, estimator, true);
                black_box(ks.critical(&m10, estimator).dt)
            })
        });
    }
    g.finish();
    let m1 = state("settle_box_hooke_1k", SETTLE_CYCLES);
    let mut g = sized(c, 1_000);
    g.sample_size(10);
    g.bench_function("exact-critical/lanczos", |b| {
        b.iter(|| black_box(GlobalStiffness::assemble(&m1).exact_critical().dt))
    });
    g.finish();
}

/// Insertion: 2,000 balls of a log-normal distribution placed at once, none touching another
/// piece, in a box region above a floor (the cycle that places them).
fn insertion(c: &mut Criterion) {
    let text = r#"
name = "bench_insert"
[run]
steps = 10
gravity = [0.0, 0.0, -9.81]
[timestep]
mode = "fixed"
dt = 1e-6
[material.glass]
density = 2500.0
[[contact]]
between = ["*", "*"]
model = "linear"
kn = 1e4
ks = 1e4
friction = 0.5
[[wall]]
name = "floor"
material = "glass"
plane = { center = [0.05, 0.05, 0.0], normal = [0.0, 0.0, 1.0], size = [0.1, 0.1] }
[[insert]]
name = "feed"
region = { box = { min = [0.0, 0.0, 0.005], max = [0.1, 0.1, 0.06] } }
material = "glass"
count = 2000
radius = { kind = "lognormal", median = 1.5e-3, sigma = 0.2, min = 1.0e-3, max = 2.5e-3 }
seed = 11
"#;
    let case = ballast::case::parse(text, &root().join("benches/bench_insert.toml"))
        .unwrap_or_else(|e| panic!("{e}"));
    let mut model = case.build_model(None).unwrap_or_else(|e| panic!("{e}"));
    model.prime().expect("the scene starts");
    let mut g = sized(c, 1_000);
    g.bench_function("insert/2000-lognormal", |b| {
        b.iter_batched(
            || model.clone(),
            |mut m| {
                m.cycle().expect("the scene runs");
                assert_eq!(m.balls.len(), 2000, "every ball placed");
                m
            },
            BatchSize::LargeInput,
        )
    });
    g.finish();
}

criterion_group!(
    benches,
    cycle_and_detection,
    force_passes,
    drum_walls,
    stiffness,
    insertion
);
criterion_main!(benches);
