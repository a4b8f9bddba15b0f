//! The settle-box performance benchmark (the scene: benches/peers/SCENE.md, a copy of
//! the peer benchmark's definition): one run of a case for a number of steps on a number of threads, timed
//! around the cycle loop only, with the final-state summary LIGGGHTS prints and the peak memory.
//!
//! `ballast bench` runs each configuration in a child process (`ballast bench-one`), so that
//! the peak resident memory and the thread pool belong to that configuration alone.

mod machine;
mod ranks;

use machine::cpu_seconds;
pub use machine::{describe_cpu, machine, peak_rss_kib};
pub use ranks::{fingerprint, run_ranked, RankedRun};

use crate::comm::Solo;
use crate::model::{Model, Phases};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// What one run measured.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct BenchRun {
    /// The case's name.
    pub case: String,
    /// Number of balls.
    pub n: usize,
    /// Cycles run.
    pub steps: u64,
    /// Threads of the pool the run used.
    pub threads: usize,
    /// Wall time of the cycle loop, s (scene construction and priming excluded).
    pub loop_s: f64,
    /// CPU time of the process over the loop, s (user + system, from getrusage).
    pub loop_cpu_s: f64,
    /// `n * steps / loop_s`.
    pub particle_steps_per_s: f64,
    /// Sphere-sphere contacts at the end: pairs with centre distance <= r_a + r_b.
    pub pp: usize,
    /// Sphere-wall contacts at the end (active ball-facet contacts).
    pub nw: usize,
    /// Translational kinetic energy at the end, J.
    pub ke_trans: f64,
    /// Rotational kinetic energy at the end, J.
    pub ke_rot: f64,
    /// Mean height of the centres at the end, m.
    pub mean_z: f64,
    /// Peak resident memory of the process, KiB (VmHWM).
    pub peak_rss_kib: u64,
    /// Ball-ball contacts in the list at the end, touching or not (the pairs within the
    /// margin at the last rebuild: what the force loop reads every step).
    #[serde(default)]
    pub candidates: usize,
    /// Ball-facet contacts in the list at the end, touching or not.
    #[serde(default)]
    pub facet_candidates: usize,
    /// Rebuilds of the candidate pairs during the loop.
    #[serde(default)]
    pub rebuilds: u64,
    /// Active ball-facet contacts, summed over every tenth cycle of the loop and multiplied
    /// by ten (their count after each sampled cycle; the counting's time is not in
    /// `loop_s`): the ball-facet contact-steps the wall phase computed, for its cost per
    /// contact (0 in results written before it was recorded).
    #[serde(default)]
    pub facet_contact_steps: u64,
    /// Active ball-ball contacts, sampled the same way.
    #[serde(default)]
    pub contact_steps: u64,
    /// On several threads: the crossing contacts of the one-pass loop's split
    /// ([`crate::contact::Partition`]: computed twice, once by each range they join), sampled
    /// the same way (candidate pairs, touching or not; 0 on one thread).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub crossing_steps: u64,
    /// Wall time per phase of the cycle, s.
    pub phases: Phases,
    /// The bench model name ([`MODELS`]; empty in results written before it was recorded:
    /// [`model_of`]).
    #[serde(default)]
    pub model: String,
    /// The processor the run was on ([`machine`]; empty in results written before it was
    /// recorded).
    #[serde(default)]
    pub machine: String,
    /// How the run chose its timestep ([`TIMESTEPS`]): "fixed", the case's own step (empty in
    /// results written before it was recorded), or the automatic timestep with the estimator
    /// named, capped at the case's step.
    #[serde(default)]
    pub timestep: String,
    /// With `ballast bench --repeat K` (K > 1): the loop time of each of the K runs of this
    /// configuration, s, in the order run (the others' fields are those of the median run,
    /// [`median_run`]); empty for a single run.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub repeats: Vec<f64>,
    /// The results file under benches/results the run was read from, which the Performance
    /// page names beside it (empty for a run of the bench that writes the page; not written).
    #[serde(skip)]
    pub source: String,
    /// `bench-one --resume`: the cycle of the checkpoint the run started from (its steps are
    /// the cycles after it); 0 for a run from the case's start.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub from_cycle: u64,
    /// The final state's fingerprint ([`fingerprint`]; `bench-one --ranks` prints the same
    /// for any number of ranks); empty in results written before it.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub fingerprint: String,
}

/// For serde: a count left out of the results while it is zero.
fn is_zero(x: &u64) -> bool {
    *x == 0
}

/// The timesteps `ballast bench --timestep` takes: the cases' fixed step (`fixed`), or the
/// automatic timestep (`mode = "auto"`, default safety and kinematic constraint) with the
/// `diagonal` or the `bound` estimator, capped at the case's step; `diagonal:N` and `bound:N`
/// choose the step in every N-th cycle only (`[timestep] every = N`). The cap keeps the runs
/// to the same steps while the estimate stays above it (as it does on the settle-box, where a
/// fixed step of 1e-5 s is about a fifth of the critical one), so that the ratio of the loop's
/// times is the cost of choosing the step.
pub const TIMESTEPS: [&str; 3] = ["fixed", "diagonal", "bound"];

/// A `--timestep` name read: the estimator (None: the fixed step) and the cycles between
/// choices of the step; or the sentence that refuses it, saying which names there are.
///
/// # Errors
/// The sentence for `--timestep`.
pub fn parse_timestep(name: &str) -> Result<(Option<crate::timestep::Estimator>, u64), String> {
    use crate::timestep::Estimator;
    let refuse = || {
        format!(
            "--timestep: no timestep \"{name}\" (one of: {}, or diagonal:N, bound:N to choose \
             the step every N cycles)",
            TIMESTEPS.join(", ")
        )
    };
    let (base, every) = match name.split_once(':') {
        None => (name, 1),
        Some((base, n)) => match n.parse::<u64>() {
            Ok(n) if n >= 1 && base != "fixed" => (base, n),
            _ => return Err(refuse()),
        },
    };
    if base == "fixed" {
        return Ok((None, 1));
    }
    let estimator = [Estimator::Diagonal, Estimator::Bound]
        .into_iter()
        .find(|e| e.name() == base)
        .ok_or_else(refuse)?;
    Ok((Some(estimator), every))
}

/// Refuses a name that [`parse_timestep`] refuses.
///
/// # Errors
/// The sentence for `--timestep`.
pub fn check_timestep(name: &str) -> Result<(), String> {
    parse_timestep(name).map(|_| ())
}

/// The runs of one configuration run again (`ballast bench --repeat`) as one: the run with the
/// median loop time (of an even number, the lower of the two middle ones: a slow spell of the
/// machine moves it less than the mean), with every run's loop time in
/// [`BenchRun::repeats`], in the order run. A run is deterministic, so the runs must end in the
/// same state (contacts, kinetic energy, mean height, bit for bit); when they do not, the
/// sentence that says which differ.
///
/// # Errors
/// The sentence naming the case and the quantity that differs between runs.
pub fn median_run(runs: Vec<BenchRun>) -> Result<BenchRun, String> {
    let Some(first) = runs.first() else {
        return Err("no run".into());
    };
    let state = |r: &BenchRun| {
        [
            ("ball-ball contacts", r.pp as f64),
            ("ball-wall contacts", r.nw as f64),
            ("translational kinetic energy", r.ke_trans),
            ("rotational kinetic energy", r.ke_rot),
            ("mean height", r.mean_z),
        ]
    };
    for r in &runs[1..] {
        for ((what, a), (_, b)) in state(first).into_iter().zip(state(r)) {
            if a.to_bits() != b.to_bits() {
                return Err(format!(
                    "{}, {} thread(s): the runs end with different {what} ({a:e} and {b:e}): \
                     a run should be deterministic",
                    first.case, first.threads
                ));
            }
        }
    }
    let times: Vec<f64> = runs.iter().map(|r| r.loop_s).collect();
    let mut order: Vec<usize> = (0..runs.len()).collect();
    order.sort_by(|&i, &j| times[i].total_cmp(&times[j]));
    let middle = order[(runs.len() - 1) / 2];
    let mut chosen = runs.into_iter().nth(middle).unwrap_or_default();
    if times.len() > 1 {
        chosen.repeats = times;
    }
    Ok(chosen)
}

/// True for a run that chose its timestep automatically ([`TIMESTEPS`] but `fixed`).
pub fn is_auto(r: &BenchRun) -> bool {
    !r.timestep.is_empty() && r.timestep != "fixed"
}

/// The contact models `ballast bench --models` takes (the case format's names), each with the
/// stem of its settle-box case files (`benches/cases/settle_box_<stem>_<N>k.toml`, written by
/// make_cases.py) and the LIGGGHTS model it is compared with ([`LIGGGHTS`]: Hertz for the
/// Hertz models, Hooke for the linear ones).
pub const MODELS: [(&str, &str, &str); 7] = [
    ("hertz-history", "hertz", "hertz"),
    ("hooke-history", "hooke", "hooke"),
    ("hertz", "hertz_frame", "hertz"),
    ("linear", "linear", "hooke"),
    ("linear-dashpot", "linear_dashpot", "hooke"),
    ("hysteretic", "hysteretic", "hooke"),
    ("linearbond", "linearbond", "hooke"),
];

/// The scenes `ballast bench --scene` takes, each with the prefix of its case files
/// (`benches/cases/<prefix>_<stem>_<N>k.toml`) and the numbers of balls it has cases for:
/// the settle-box of the peer benchmark (make_cases.py), and the wall-heavy drum, an STL mesh
/// of 4,800 facets in the full resolution turning about its axis (make_drum.py; Hertz models
/// only), and the periodic shear cell sheared by Lees-Edwards images (make_shear.py; the
/// history models).
pub const SCENES: [(&str, &str, &[usize]); 3] = [
    ("settle-box", "settle_box", &[1000, 10000, 50000]),
    ("drum", "drum", &[10000]),
    ("shear", "shear", &[10000]),
];

/// The scene a run belongs to ([`SCENES`]), by its case name.
pub fn scene_of(r: &BenchRun) -> &'static str {
    if r.case.starts_with("drum") {
        "drum"
    } else if r.case.starts_with("shear") {
        "shear"
    } else {
        "settle-box"
    }
}

/// The case-file stem and the LIGGGHTS model of a bench model name ([`MODELS`]).
pub fn bench_model(name: &str) -> Option<(&'static str, &'static str)> {
    MODELS.iter().find(|m| m.0 == name).map(|m| (m.1, m.2))
}

/// The bench model name of a run: recorded with it, or (results written before it was) the
/// history model its case name says.
pub fn model_of(r: &BenchRun) -> &str {
    if !r.model.is_empty() {
        &r.model
    } else if r.case.contains("hooke") {
        "hooke-history"
    } else {
        "hertz-history"
    }
}

/// LIGGGHTS 3.8.0 on this machine size (benches/peers/RESULTS.md, measured 2026-11-21):
/// (model, N, million particle-steps per CPU-second on one core, sphere-sphere contacts,
/// sphere-wall contacts, mean z in m).
pub const LIGGGHTS: [(&str, usize, f64, usize, usize, f64); 6] = [
    ("hertz", 1000, 7.75, 2090, 303, 6.3548e-3),
    ("hooke", 1000, 8.06, 2031, 300, 6.3461e-3),
    ("hertz", 10000, 6.17, 22217, 1737, 6.0135e-3),
    ("hooke", 10000, 7.15, 21749, 1730, 6.0291e-3),
    ("hertz", 50000, 4.77, 112953, 7129, 6.0464e-3),
    ("hooke", 50000, 5.22, 109921, 7063, 6.0699e-3),
];

/// The final-state summary of a model (SCENE.md, section 8).
pub fn final_state(model: &Model) -> (usize, usize, f64, f64, f64) {
    let b = &model.balls;
    let pp = (0..model.contacts.len())
        .filter(|&k| model.contacts.geometry(k, b).overlap >= 0.0)
        .count();
    let nw = model.facet_contacts.active_count();
    let (mut kt, mut kr, mut z) = (0.0, 0.0, 0.0);
    for i in 0..b.len() {
        kt += 0.5 * b.mass[i] * model.synchronized_velocity(i).norm_squared();
        kr += 0.5 * b.inertia[i] * model.synchronized_spin(i).norm_squared();
        z += b.pos[i].z;
    }
    (pp, nw, kt, kr, z / b.len().max(1) as f64)
}

/// Runs a case for `steps` cycles (default: the case's own) on `threads` threads; with
/// `resume`, from the state a checkpoint of that case holds (`ballast run` with
/// `checkpoint_every`), for `steps` cycles (default: to the case's end): the cost of a phase of
/// the run, such as a settled bed, without the cycles before it.
///
/// # Errors
/// A case that does not load or build, a checkpoint of another case or that cannot be read, a
/// run that blows up, a thread pool that cannot start.
///
/// `timestep` is one of [`TIMESTEPS`]: with `diagonal` or `bound` the case's fixed step becomes
/// the cap of the automatic timestep with that estimator.
pub fn run_one(
    path: &Path,
    (steps, resume): (Option<u64>, Option<&Path>),
    threads: usize,
    timestep: &str,
) -> Result<BenchRun, String> {
    let case = crate::case::load(path).map_err(|e| e.to_string())?;
    let (mut model, from_cycle) = match resume {
        None => (case.build_model(None).map_err(|e| e.to_string())?, 0),
        Some(ckpt) => {
            let state = crate::run::checkpoint::read(ckpt, Some(case.source_hash))
                .map_err(|e| format!("--resume: {e}"))?;
            (state.model, state.step)
        }
    };
    set_timestep(&mut model, path, timestep)?;
    let left = |n: u64| n.saturating_sub(from_cycle);
    let steps = steps.or(case.file.run.steps.map(left)).ok_or_else(|| {
        format!(
            "{}: give --steps (the case has no [run] steps)",
            path.display()
        )
    })?;
    if steps == 0 {
        return Err(format!(
            "{}: no steps to time (--steps 0, or a checkpoint at the case's end: give --steps)",
            path.display()
        ));
    }
    // the model has its own copy of the balls: the case's list (about 200 bytes per ball)
    // need not stay for the run
    let name = case.name.clone();
    drop(case);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| e.to_string())?;
    pool.install(|| -> Result<BenchRun, String> {
        // (a checkpoint's model is primed: forces and contacts of its cycle)
        if resume.is_none() {
            model.prime().map_err(|e| e.to_string())?;
        }
        let timed = timed_loop(&mut model, steps, threads)?;
        let fingerprint = format!("{:016x}", fingerprint(&model, |_| true, &Solo));
        let (pp, nw, ke_trans, ke_rot, mean_z) = final_state(&model);
        let n = model.balls.len();
        // (the case's contact models by name, as `--models` takes them)
        let mut names: Vec<&str> = model.laws.iter().map(|l| l.name()).collect();
        names.dedup();
        Ok(BenchRun {
            model: names.join("+"),
            case: name,
            n,
            steps,
            threads,
            particle_steps_per_s: n as f64 * steps as f64 / timed.loop_s,
            pp,
            nw,
            ke_trans,
            ke_rot,
            mean_z,
            peak_rss_kib: peak_rss_kib(),
            candidates: model.contacts.len(),
            facet_candidates: model.facet_contacts.list.len(),
            phases: model.phases.unwrap_or_default(),
            machine: machine(),
            timestep: timestep.to_string(),
            repeats: Vec::new(),
            source: String::new(),
            from_cycle,
            fingerprint,
            ..timed
        })
    })
}

/// With `timestep` `diagonal` or `bound` (`--timestep`, [`parse_timestep`]), the automatic
/// timestep with that estimator and the case format's defaults in place of the model's fixed
/// step, which becomes its cap; `fixed` leaves the model as it is.
fn set_timestep(model: &mut Model, path: &Path, timestep: &str) -> Result<(), String> {
    use crate::timestep::{Auto, TimestepMode};
    let (estimator, every) = parse_timestep(timestep)?;
    if let Some(estimator) = estimator {
        let TimestepMode::Fixed(dt) = model.settings.timestep else {
            return Err(format!(
                "{}: --timestep {timestep} needs a case with a fixed timestep (its step is the cap)",
                path.display()
            ));
        };
        // (the case format's defaults: its safety, the kinematic constraint at its fraction
        // of the margin)
        let margin = model.settings.margin;
        model.settings.timestep = TimestepMode::Auto(Auto {
            safety: crate::case::DEFAULT_SAFETY,
            estimator,
            kinematic_eps: (margin > 0.0)
                .then_some(crate::case::DEFAULT_KINEMATIC_FRACTION * margin),
            cap: Some(dt),
            every,
        });
    }
    Ok(())
}

/// Runs `steps` cycles of a primed `model`, timing them with its phases recorded, and counts
/// the contacts every tenth cycle (the counting's own time left out of the loop's): a run
/// with the loop's times, rebuilds and contact-steps, its other fields to be filled.
fn timed_loop(model: &mut Model, steps: u64, threads: usize) -> Result<BenchRun, String> {
    model.phases = Some(Phases::default());
    let builds0 = model.broad_phase.builds;
    let cpu0 = cpu_seconds();
    let (mut facet_contact_steps, mut contact_steps, mut crossing_steps) = (0, 0, 0);
    // (the counting's own time, left out of the loop's)
    let mut counting = std::time::Duration::ZERO;
    let t0 = std::time::Instant::now();
    for k in 0..steps {
        model.cycle().map_err(|e| e.to_string())?;
        if k % 10 == 9 {
            let t = std::time::Instant::now();
            facet_contact_steps += 10 * model.facet_contacts.active_count() as u64;
            contact_steps += 10 * model.contacts.active_count() as u64;
            if threads > 1 {
                crossing_steps += 10 * model.contacts.partition.crossing.len() as u64;
            }
            counting += t.elapsed();
        }
    }
    let loop_s = (t0.elapsed() - counting).as_secs_f64();
    let loop_cpu_s = cpu_seconds() - cpu0;
    Ok(BenchRun {
        loop_s,
        loop_cpu_s,
        rebuilds: model.broad_phase.builds - builds0,
        facet_contact_steps,
        contact_steps,
        crossing_steps,
        ..BenchRun::default()
    })
}

#[cfg(test)]
mod tests {
    use super::{describe_cpu, median_run, parse_timestep, BenchRun};
    use crate::timestep::Estimator;
    use rstest::rstest;

    /// Runs of one configuration again: of three (12, 10 and 11 s) the 11 s one is kept, with
    /// the three times in the order run; of four (10, 13, 11, 12 s) the lower middle, 11 s; one
    /// run is kept as it is, without times; runs that end in different states (the kinetic
    /// energy's last bit) are refused, naming the quantity.
    #[test]
    fn repeated_runs_keep_the_median_and_every_time() {
        let run = |loop_s: f64, threads: usize| BenchRun {
            case: "c".into(),
            threads,
            loop_s,
            particle_steps_per_s: 1e6 / loop_s,
            ke_trans: 0.1,
            pp: 7,
            ..Default::default()
        };
        let three = median_run(vec![run(12.0, 1), run(10.0, 1), run(11.0, 1)]).unwrap();
        assert_eq!(
            (three.loop_s, three.repeats.clone()),
            (11.0, vec![12.0, 10.0, 11.0])
        );
        assert_eq!(three.particle_steps_per_s, 1e6 / 11.0);
        let four = [10.0, 13.0, 11.0, 12.0].map(|t| run(t, 2));
        assert_eq!(median_run(four.to_vec()).unwrap().loop_s, 11.0);
        let one = median_run(vec![run(9.0, 1)]).unwrap();
        assert_eq!((one.loop_s, one.repeats.len()), (9.0, 0));
        let mut odd = run(10.0, 2);
        odd.ke_trans = f64::from_bits(0.1f64.to_bits() + 1);
        let e = median_run(vec![run(11.0, 2), odd]).unwrap_err();
        assert!(
            e.contains("translational kinetic energy") && e.contains("c, 2 thread"),
            "{e}"
        );
        assert!(median_run(Vec::new()).is_err());
    }

    /// `--timestep` names: the fixed step, an estimator, an estimator every N cycles. A row: the
    /// name, and the estimator and the count it reads.
    #[rstest]
    #[case::fixed("fixed", None, 1)]
    #[case::bound("bound", Some(Estimator::Bound), 1)]
    #[case::diagonal_every_20("diagonal:20", Some(Estimator::Diagonal), 20)]
    fn the_timestep_names_read_the_estimator_and_every(
        #[case] name: &str,
        #[case] estimator: Option<Estimator>,
        #[case] every: u64,
    ) {
        assert_eq!(parse_timestep(name), Ok((estimator, every)));
    }

    /// `--timestep` names: a count that is not a whole number from 1, a count on the fixed step
    /// and an unknown estimator are refused with the names there are. A row: the name.
    #[rstest]
    #[case::every_0("diagonal:0")]
    #[case::every_negative("diagonal:-3")]
    #[case::every_not_a_number("bound:x")]
    #[case::every_on_the_fixed_step("fixed:10")]
    #[case::unknown_estimator_every("exact:10")]
    #[case::unknown_estimator("diag")]
    fn a_bad_timestep_name_is_refused_with_the_names_there_are(#[case] bad: &str) {
        let e = parse_timestep(bad).unwrap_err();
        assert!(
            e.contains(&format!("no timestep \"{bad}\"")) && e.contains("diagonal:N"),
            "{e}"
        );
    }

    /// The description names the processor, its family and model numbers, the widest vector
    /// extension among its flags, and counts the processors (two lines of this machine's
    /// /proc/cpuinfo, trimmed, and an AVX-512 variant).
    #[test]
    fn the_cpu_description_reads_cpuinfo() {
        let one = "processor\t: {k}\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 1\n\
                   model name\t: AMD EPYC\nflags\t\t: fpu sse2 avx avx2 fma\n\n";
        let text = one.replace("{k}", "0") + &one.replace("{k}", "1");
        assert_eq!(
            describe_cpu(&text),
            "AMD EPYC, family 25 model 1, AVX2, no AVX-512, 2 CPUs"
        );
        let wide = one.replace("{k}", "0").replace("avx2", "avx2 avx512f");
        assert_eq!(
            describe_cpu(&wide),
            "AMD EPYC, family 25 model 1, AVX-512, 1 CPU"
        );
        assert_eq!(
            describe_cpu(""),
            "unknown processor, family ? model ?, SSE, 0 CPUs"
        );
    }
}
