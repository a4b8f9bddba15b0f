//! The command line keeps SPEC section 1: exit codes, one-line errors, the closing line.

use std::path::{Path, PathBuf};
use std::process::Command;

fn ballast() -> Command {
    Command::new(env!("CARGO_BIN_EXE_ballast"))
}

/// `ballast run CASE --out OUT`, finished.
fn run_to(case: impl AsRef<Path>, out: impl AsRef<Path>) -> std::process::Output {
    ballast()
        .arg("run")
        .arg(case.as_ref())
        .arg("--out")
        .arg(out.as_ref())
        .output()
        .unwrap()
}

fn scratch(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("cli")
        .join(name);
    std::fs::create_dir_all(&d).unwrap();
    d
}

const CASE: &str = r#"
description = "a ball at rest"
[run]
steps = 100
[timestep]
mode = "fixed"
dt = 1e-4
[material.glass]
density = 2500.0
[[ball]]
pos = [0.0, 0.0, 0.0]
radius = 0.01
material = "glass"
[[check]]
kind = "final_value"
series = "ball/1/pos.x"
expected = 0.0
abs_tolerance = 0.0
"#;

/// `ballast run` exits 0 when every check passes, 1 when one fails and 2 on bad input.
#[test]
fn run_exits_0_1_2_for_pass_fail_and_bad_input() {
    let d = scratch("run");
    let good = d.join("rest.toml");
    std::fs::write(&good, CASE).unwrap();
    let out = run_to(&good, d.join("out"));
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    for f in ["series.csv", "summary.json", "index.html"] {
        assert!(d.join("out").join(f).is_file(), "{f} missing");
    }
    let failing = d.join("moved.toml");
    std::fs::write(&failing, CASE.replace("expected = 0.0", "expected = 1.0")).unwrap();
    let out = run_to(&failing, d.join("out2"));
    assert_eq!(out.status.code(), Some(1));
    let bad = d.join("bad.toml");
    std::fs::write(&bad, CASE.replace("radius = 0.01", "radius = -0.01")).unwrap();
    let out = ballast().arg("run").arg(&bad).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("bad.toml") && err.contains("ball[1].radius") && err.contains("positive"),
        "{err}"
    );
}

/// `ballast check` says a valid case is valid (exit 0) and refuses an unknown key (exit 2)
/// without running it.
#[test]
fn check_validates_without_running() {
    let d = scratch("check");
    let f = d.join("c.toml");
    std::fs::write(&f, CASE).unwrap();
    let out = ballast().arg("check").arg(&f).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("is valid"));
    std::fs::write(&f, CASE.replace("[run]", "[run]\nspeed = 3")).unwrap();
    let out = ballast().arg("check").arg(&f).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("speed"));
}

/// With the automatic timestep and no `[output] every`, a run records about 2,000 times over
/// its duration, by simulated time: a bead that falls in large steps and then rests on a stiff
/// contact in steps of 9e-6 s recorded every one of its 22,605 cycles when the interval was a
/// count of cycles set by the first step.
#[test]
fn the_automatic_timestep_records_about_two_thousand_times() {
    let d = scratch("records_auto");
    let case = d.join("drop.toml");
    std::fs::write(
        &case,
        r#"
[run]
duration = 0.3
gravity = [0.0, 0.0, -9.81]
[timestep]
mode = "auto"
[material.glass]
density = 2500.0
[[contact]]
between = ["glass", "glass"]
model = "linear"
kn = 1.0e7
damp_n = 0.5
[[ball]]
pos = [0.0, 0.0, 0.05]
radius = 0.005
material = "glass"
[[wall]]
name = "floor"
material = "glass"
plane = { center = [0.001, 0.002, 0.0], normal = [0.0, 0.0, 1.0], size = [0.1, 0.1] }
"#,
    )
    .unwrap();
    let out = run_to(&case, d.join("out"));
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows = std::fs::read_to_string(d.join("out/series.csv"))
        .unwrap()
        .lines()
        .count()
        - 1;
    let summary = std::fs::read_to_string(d.join("out/summary.json")).unwrap();
    let steps: u64 = serde_json::from_str::<serde_json::Value>(&summary).unwrap()["steps"]
        .as_u64()
        .unwrap();
    // (the fall's steps are longer than the interval, 1.5e-4 s: one record each)
    assert!(steps > 20_000, "{steps} cycles");
    assert!(
        (1000..=2002).contains(&rows),
        "{rows} records in {steps} cycles"
    );
}

/// `ballast verify <one file>` after a full verify keeps the other cases' results in the index
/// (it listed "0 of 1 cases passed" for the one case it ran); a case whose file is gone leaves
/// it.
#[test]
fn verifying_one_case_keeps_the_others_in_the_index() {
    let d = scratch("verify_part");
    let _ = std::fs::remove_dir_all(d.join("reports"));
    for name in ["a", "b", "c"] {
        std::fs::write(d.join(format!("{name}.toml")), CASE).unwrap();
    }
    let verify = |args: &[&str]| {
        let out = ballast().current_dir(&d).args(args).output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stdout)
        );
        std::fs::read_to_string(d.join("reports/index.html")).unwrap()
    };
    let all = verify(&["verify", "."]);
    assert!(all.contains("3 of 3 cases passed"), "{all}");
    std::fs::remove_file(d.join("c.toml")).unwrap();
    let part = verify(&["verify", "a.toml"]);
    assert!(part.contains("2 of 2 cases passed"), "{part}");
    assert!(part.contains("cases/b/index.html"), "{part}");
    assert!(!part.contains("cases/c/index.html"), "{part}");
}

/// `ballast verify` prints one line per case (PASS or FAIL) and the closing count, writes the
/// index, and `ballast report` rebuilds the pages from the results on disk.
#[test]
fn verify_prints_a_line_per_case_and_the_closing_count() {
    let d = scratch("verify");
    std::fs::write(d.join("a.toml"), CASE).unwrap();
    std::fs::write(
        d.join("b.toml"),
        CASE.replace("expected = 0.0", "expected = 2.0"),
    )
    .unwrap();
    let out = ballast()
        .current_dir(&d)
        .args(["verify", "."])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.lines().any(|l| l.starts_with("PASS a")), "{text}");
    assert!(text.lines().any(|l| l.starts_with("FAIL b")), "{text}");
    assert!(text.lines().any(|l| l == "1 passed, 1 failed"), "{text}");
    assert!(d.join("reports/index.html").is_file());
    let out = ballast().current_dir(&d).arg("report").output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A run that blows up (a timestep far above the critical one) fails (exit 1) with a message
/// naming the cycle it stopped at.
#[test]
fn a_blow_up_fails_the_run_and_names_body_and_cycle() {
    let d = scratch("blowup");
    let f = d.join("boom.toml");
    let src = r#"
[run]
steps = 2000
[timestep]
mode = "fixed"
dt = 1e-3
allow_above_critical = true
[material.glass]
density = 2500.0
[[contact]]
between = ["*", "*"]
model = "linear"
kn = 1e5
[[ball]]
pos = [-0.019, 0.0, 0.0]
radius = 0.01
material = "glass"
fix = ["x", "y", "z", "rx", "ry", "rz"]
[[ball]]
pos = [0.019, 0.0, 0.0]
radius = 0.01
material = "glass"
fix = ["x", "y", "z", "rx", "ry", "rz"]
[[ball]]
pos = [2e-4, 0.0, 0.0]
radius = 0.01
material = "glass"
"#;
    std::fs::write(&f, src).unwrap();
    let out = run_to(&f, d.join("out"));
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("stopped: cycle"), "{text}");
    // without allow_above_critical, the same case is refused before it runs
    std::fs::write(&f, src.replace("allow_above_critical = true\n", "")).unwrap();
    let out = run_to(&f, d.join("out"));
    assert_eq!(out.status.code(), Some(2));
    let text = String::from_utf8_lossy(&out.stderr);
    assert!(
        text.contains("timestep.dt") && text.contains("critical"),
        "{text}"
    );
}

/// `ballast verify | head -1`: the reader goes away after one line; verify neither panics on
/// the broken pipe nor stops: it runs every case and still writes reports/index.html. A case
/// too large for the memory is one failed line, and the cases after it run.
#[test]
fn verify_survives_a_closed_pipe_and_a_case_that_cannot_run() {
    use std::process::Stdio;
    let d = scratch("verify_pipe");
    for k in 0..3 {
        std::fs::write(d.join(format!("rest{k}.toml")), CASE).unwrap();
    }
    // a generator that asks for more memory than any machine has (sorted between the others)
    let huge = CASE.replace(
        "[[ball]]",
        "[[generate]]\nkind = \"lattice\"\ncount = 1000000000000000000\nmin = [1.0, 0.0, 0.0]\nmax = [2.0, 1.0, 1.0]\nradius = [0.001, 0.001]\nmaterial = \"glass\"\n[[ball]]",
    );
    std::fs::write(d.join("rest1_huge.toml"), huge).unwrap();
    let _ = std::fs::remove_file(d.join("reports/index.html"));
    let mut child = ballast()
        .current_dir(&d)
        .args(["verify", "."])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // read nothing: close the pipe at once, as `head` does after its line
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    // one case failed (the huge one): exit 1, not a crash
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    let index = std::fs::read_to_string(d.join("reports/index.html")).unwrap();
    for k in 0..3 {
        assert!(
            index.contains(&format!("rest{k}")),
            "rest{k} missing from the index"
        );
    }
    assert!(
        index.contains("memory"),
        "the huge case's reason is not on the index"
    );
}

/// A case that runs for hours unless stopped.
const ENDLESS: &str = r#"
[run]
steps = 100000000000
gravity = [0.0, 0.0, -9.81]
[timestep]
mode = "fixed"
dt = 1e-5
[material.glass]
density = 2500.0
[[contact]]
between = ["glass", "glass"]
model = "linear"
kn = 1e5
[[ball]]
pos = [0.0, 0.0, 0.0105]
radius = 0.01
material = "glass"
[[wall]]
name = "floor"
material = "glass"
plane = { center = [0.0, 0.0, 0.0], normal = [0.0, 0.0, 1.0], size = [1.0, 1.0] }
[output]
every = 1000
series = ["ball/1/pos"]
"#;

/// SIGINT and SIGTERM stop a run at the end of a cycle: it writes what it recorded (the
/// series up to that cycle, a summary marked interrupted), leaves no temporary file, replaces
/// the previous run's files, and exits 130.
#[test]
fn an_interrupted_run_writes_what_it_recorded() {
    for signal in ["-INT", "-TERM"] {
        let d = scratch(&format!("interrupt{signal}"));
        let case = d.join("endless.toml");
        std::fs::write(&case, ENDLESS).unwrap();
        let out = d.join("out");
        std::fs::create_dir_all(&out).unwrap();
        // the previous run's outputs, which must not survive looking current
        std::fs::write(out.join("summary.json"), "stale").unwrap();
        std::fs::write(out.join("series.csv"), "stale").unwrap();
        let child = ballast()
            .args(["run"])
            .arg(&case)
            .arg("--out")
            .arg(&out)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // once the stale files are gone, the run is in its loop
        while out.join("summary.json").exists() {
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        std::thread::sleep(std::time::Duration::from_millis(300));
        let killed = Command::new("kill")
            .arg(signal)
            .arg(child.id().to_string())
            .status()
            .unwrap();
        assert!(killed.success());
        let result = child.wait_with_output().unwrap();
        assert_eq!(
            result.status.code(),
            Some(130),
            "{signal}: {}",
            String::from_utf8_lossy(&result.stderr)
        );
        let summary: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap())
                .unwrap();
        assert_eq!(summary["interrupted"], true, "{signal}");
        assert_eq!(summary["passed"], false);
        let steps = summary["steps"].as_u64().unwrap();
        assert!(steps > 0, "{signal}: no cycle ran");
        assert!(summary["error"]
            .as_str()
            .unwrap()
            .contains(&format!("cycle {steps}")));
        // the series end with the state of the last cycle run
        let csv = std::fs::read_to_string(out.join("series.csv")).unwrap();
        let last_t: f64 = csv
            .lines()
            .last()
            .unwrap()
            .split(',')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert!(
            (last_t - steps as f64 * 1e-5).abs() < 1e-9 * steps as f64,
            "{signal}: last record at t = {last_t}, {steps} cycles"
        );
        for f in std::fs::read_dir(&out).unwrap() {
            let name = f.unwrap().file_name();
            assert!(!name.to_string_lossy().ends_with(".tmp"), "{name:?} left");
        }
        // and a checkpoint of that cycle, to resume from
        assert!(
            out.join(format!("checkpoints/cycle_{steps}.ckpt"))
                .is_file(),
            "{signal}: no checkpoint of cycle {steps}"
        );
        // and the message says where it is and how to resume from it
        let err = String::from_utf8_lossy(&result.stderr);
        let ckpt = out.join(format!("checkpoints/cycle_{steps}.ckpt"));
        let (c, o) = (ckpt.display(), out.display());
        let resume = format!("ballast run {} --resume {c} --out {o}", case.display());
        assert!(
            err.contains(&format!(
                "interrupted at cycle {steps}; checkpoint written to {c}; resume with: {resume}"
            )),
            "{signal}: {err}"
        );
    }
}

/// An output folder that cannot be written is found before the first cycle (exit 2, naming
/// --out), not after the run.
#[test]
fn an_unwritable_out_is_refused_before_the_run() {
    let d = scratch("unwritable");
    let case = d.join("endless.toml");
    std::fs::write(&case, ENDLESS).unwrap();
    // a folder inside a regular file cannot exist, whoever runs the test (root too)
    let out = run_to(&case, case.join("out"));
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--out") && err.contains("cannot write"),
        "{err}"
    );
}

/// Checkpoint and restart (SPEC 5.2): a run with `checkpoint_every` writes
/// `checkpoints/cycle_<N>.ckpt`; `run --resume` from one, on one thread or two, gives the same
/// series.csv (every byte) and the same checks as the run straight through on two; a
/// checkpoint of another case, of another format or cut short is refused (exit 2) before the
/// output folder is touched.
#[test]
fn a_resumed_run_is_bit_identical_for_any_thread_count() {
    let d = scratch("resume");
    let src = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("cases/restart/settle_straight.toml"),
    )
    .unwrap()
    .replace("[output]", "[output]\ncheckpoint_every = 1000");
    let case = d.join("settle.toml");
    std::fs::write(&case, &src).unwrap();
    let run = |out: &str, resume: Option<&Path>, threads: &str| {
        let mut cmd = ballast();
        cmd.env("RAYON_NUM_THREADS", threads)
            .arg("run")
            .arg(&case)
            .arg("--out")
            .arg(d.join(out));
        if let Some(r) = resume {
            cmd.arg("--resume").arg(r);
        }
        cmd.output().unwrap()
    };
    let straight = run("straight", None, "2");
    assert_eq!(straight.status.code(), Some(0));
    let ckpts = d.join("straight/checkpoints");
    for n in [1000, 2000, 3000] {
        assert!(ckpts.join(format!("cycle_{n}.ckpt")).is_file(), "cycle_{n}");
    }
    let reference = std::fs::read(d.join("straight/series.csv")).unwrap();
    let summary = |out: &str| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(d.join(out).join("summary.json")).unwrap())
            .unwrap()
    };
    for (n, threads) in [(1000, "1"), (2000, "2")] {
        let out = format!("resumed_{n}_{threads}");
        let r = run(&out, Some(&ckpts.join(format!("cycle_{n}.ckpt"))), threads);
        assert_eq!(
            r.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&r.stderr)
        );
        assert!(
            std::fs::read(d.join(&out).join("series.csv")).unwrap() == reference,
            "series.csv resumed at cycle {n} on {threads} thread(s) differs"
        );
        assert_eq!(summary(&out)["checks"], summary("straight")["checks"]);
        assert_eq!(summary(&out)["steps"], 3000);
    }
    // refusals: another case text, another format, cut short; the output folder is kept
    let ckpt = ckpts.join("cycle_1000.ckpt");
    let bytes = std::fs::read(&ckpt).unwrap();
    let mut other_format = bytes.clone();
    other_format[19] = 99;
    std::fs::write(d.join("format.ckpt"), other_format).unwrap();
    std::fs::write(d.join("cut.ckpt"), &bytes[..bytes.len() / 2]).unwrap();
    let edited = d.join("edited.toml");
    std::fs::write(&edited, src.replace("every = 50", "every = 100")).unwrap();
    for (case_file, ckpt, words) in [
        (&edited, ckpt.clone(), "another case file"),
        (&case, d.join("format.ckpt"), "checkpoint format 99"),
        (&case, d.join("cut.ckpt"), "cut short"),
    ] {
        let out = ballast()
            .arg("run")
            .arg(case_file)
            .arg("--out")
            .arg(d.join("straight"))
            .arg("--resume")
            .arg(&ckpt)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("--resume") && err.contains(words), "{err}");
        assert!(
            std::fs::read(d.join("straight/series.csv")).unwrap() == reference,
            "a refused resume touched the output folder"
        );
    }
}

/// The settle scene of cases/restart/settle_straight.toml (1,000 balls in a box with a plate)
/// for `steps` cycles, with a checkpoint every 1,000; the text without its `[[generate]]`
/// table is what a next stage of it that adds no balls reads.
fn settle_scene(steps: u64) -> (String, String) {
    let src = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("cases/restart/settle_straight.toml"),
    )
    .unwrap()
    .replace("steps = 3000", &format!("steps = {steps}"))
    .replace("[output]", "[output]\ncheckpoint_every = 1000");
    let (a, b) = (
        src.find("[[generate]]").unwrap(),
        src.find("[[wall]]").unwrap(),
    );
    let stage = format!("{}{}", &src[..a], &src[b..]);
    (src, stage)
}

/// The 64-bit FNV-1a hash (what a checkpoint's header and closing hash use).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// A checkpoint changed after ballast wrote it is refused (exit 2, naming --resume and the
/// reason) before the output folder is touched: bytes appended after its hash, a header
/// rewritten with this case's hash over another case's state (500 balls, not 1,000), the
/// same with the closing hash made to match (the state must still fit the case), a file cut
/// inside its header; a file that is no checkpoint at all keeps its reason.
#[rstest::rstest]
#[case::appended("appended", "4 bytes follow the end of the checkpoint of cycle 1000")]
#[case::forged_header("forged_header", "do not match their hash")]
#[case::forged_hash_too("forged_hash_too", "does not fit this case (bodies: 500 balls")]
#[case::cut_in_header("cut_in_header", "cut short: the file has 30 bytes, less than the 47")]
#[case::not_a_checkpoint("not_a_checkpoint", "does not start with BALLAST-CHECKPOINT")]
fn a_changed_checkpoint_is_refused_with_the_reason(#[case] how: &str, #[case] words: &str) {
    let d = scratch(&format!("changed_ckpt_{how}"));
    let (src, _) = settle_scene(1000);
    let (case, other) = (d.join("settle.toml"), d.join("other.toml"));
    std::fs::write(&case, &src).unwrap();
    std::fs::write(&other, src.replace("count = 1000", "count = 500")).unwrap();
    for (c, out) in [(&case, "mine"), (&other, "theirs")] {
        let r = run_to(c, d.join(out));
        assert_eq!(
            r.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&r.stderr)
        );
    }
    let mine = std::fs::read(d.join("mine/checkpoints/cycle_1000.ckpt")).unwrap();
    let theirs = std::fs::read(d.join("theirs/checkpoints/cycle_1000.ckpt")).unwrap();
    let forged = || {
        let mut f = theirs.clone();
        f[23..31].copy_from_slice(&mine[23..31]);
        f
    };
    let bytes = match how {
        "appended" => [&mine[..], b"more"].concat(),
        "forged_header" => forged(),
        "forged_hash_too" => {
            let mut f = forged();
            let end = f.len() - 8;
            let hash = fnv1a(&f[..end]);
            f[end..].copy_from_slice(&hash.to_le_bytes());
            f
        }
        "cut_in_header" => mine[..30].to_vec(),
        _ => b"a file of other bytes".to_vec(),
    };
    let ckpt = d.join("changed.ckpt");
    std::fs::write(&ckpt, bytes).unwrap();
    let before = std::fs::read(d.join("mine/series.csv")).unwrap();
    let r = ballast()
        .arg("run")
        .arg(&case)
        .arg("--out")
        .arg(d.join("mine"))
        .arg("--resume")
        .arg(&ckpt)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&r.stderr);
    assert_eq!(r.status.code(), Some(2), "{how}: {err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("--resume") && err.contains(words),
        "{how}: {err}"
    );
    assert!(
        std::fs::read(d.join("mine/series.csv")).unwrap() == before,
        "{how}: a refused resume touched the output folder"
    );
}

/// SPEC 5.2: a run resumed from the checkpoint an interrupt wrote records what the run
/// straight through records (series.csv, every byte): the interrupted cycle's own record is
/// the interrupted run's, not the checkpoint's.
#[test]
fn a_run_resumed_from_its_interrupt_is_the_straight_run() {
    let d = scratch("interrupt_resume");
    let case = d.join("fall.toml");
    let text = ENDLESS
        .replace("steps = 100000000000", "steps = 1000000")
        .replace("[output]", "[output]\ncheckpoint_every = 100000");
    std::fs::write(&case, text).unwrap();
    let straight = run_to(&case, d.join("straight"));
    assert_eq!(straight.status.code(), Some(0));
    let out = d.join("stopped");
    // (no checkpoint of an earlier test run may stand for this run's)
    let _ = std::fs::remove_dir_all(&out);
    let child = ballast()
        .arg("run")
        .arg(&case)
        .arg("--out")
        .arg(&out)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // once the first checkpoint is there, the run is in its loop, far from its end
    while !out.join("checkpoints/cycle_100000.ckpt").exists() {
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    let killed = Command::new("kill")
        .arg("-INT")
        .arg(child.id().to_string())
        .status()
        .unwrap();
    assert!(killed.success());
    let stopped = child.wait_with_output().unwrap();
    assert_eq!(
        stopped.status.code(),
        Some(130),
        "the run ended before the signal"
    );
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    let at = summary["steps"].as_u64().unwrap();
    let ckpt = out.join(format!("checkpoints/cycle_{at}.ckpt"));
    let resumed = ballast()
        .arg("run")
        .arg(&case)
        .arg("--out")
        .arg(d.join("resumed"))
        .arg("--resume")
        .arg(&ckpt)
        .output()
        .unwrap();
    assert_eq!(resumed.status.code(), Some(0));
    let series = |o: &str| std::fs::read_to_string(d.join(o).join("series.csv")).unwrap();
    assert!(
        series("resumed") == series("straight"),
        "resumed at the interrupt of cycle {at}: {} rows, straight {}",
        series("resumed").lines().count(),
        series("straight").lines().count()
    );
}

/// Identical runs write identical checkpoints, and a run resumed from one writes the bytes
/// the straight run writes at the same cycles: here balls leave through an outlet before the
/// checkpoint (the set of ids in use shrinks, and a set read back has other room than the
/// one that shrank).
#[test]
fn checkpoints_are_the_same_bytes_straight_and_resumed() {
    let d = scratch("ckpt_bytes");
    let mut text = String::from(
        "[run]\nsteps = 300\ngravity = [0.0, 0.0, -9.81]\n[timestep]\nmode = \"fixed\"\n\
         dt = 1e-4\n[material.glass]\ndensity = 2500.0\n[[contact]]\n\
         between = [\"glass\", \"glass\"]\nmodel = \"linear\"\nkn = 1e5\n",
    );
    for k in 1..=200 {
        let (x, z) = (0.003 * k as f64, 0.00002 * k as f64);
        text += &format!("[[ball]]\npos = [{x}, 0.0, {z}]\nradius = 0.001\nmaterial = \"glass\"\n");
    }
    text += "[[outlet]]\nname = \"below\"\nregion = { box = { min = [-1.0, -1.0, -1.0], \
             max = [1.0, 1.0, 0.0] } }\n[output]\nevery = 50\ncheckpoint_every = 50\n\
             series = [\"balls/count\"]\n";
    let case = d.join("drain.toml");
    std::fs::write(&case, text).unwrap();
    for out in ["a", "b"] {
        assert_eq!(run_to(&case, d.join(out)).status.code(), Some(0));
    }
    let ckpt = |out: &str, n: u64| {
        std::fs::read(d.join(out).join(format!("checkpoints/cycle_{n}.ckpt"))).unwrap()
    };
    let r = ballast()
        .arg("run")
        .arg(&case)
        .arg("--out")
        .arg(d.join("resumed"))
        .arg("--resume")
        .arg(d.join("a/checkpoints/cycle_200.ckpt"))
        .output()
        .unwrap();
    assert_eq!(r.status.code(), Some(0));
    let csv = std::fs::read_to_string(d.join("a/series.csv")).unwrap();
    let left: Vec<&str> = csv.lines().map(|l| l.split(',').nth(1).unwrap()).collect();
    assert!(
        left[1] == "200" && left[4] != "200" && left[5] != "0",
        "{left:?}"
    );
    for n in [50, 100, 150, 200, 250, 300] {
        assert!(ckpt("a", n) == ckpt("b", n), "cycle {n}: two runs differ");
    }
    for n in [250, 300] {
        assert!(
            ckpt("a", n) == ckpt("resumed", n),
            "cycle {n}: resumed differs"
        );
    }
}

/// `run NEXT.toml --from CKPT` (SPEC 6.4): the settle scene run 2,000 cycles, then a next
/// stage of 1,000 cycles from its last checkpoint (the same case without its `[[generate]]`,
/// whose balls come from the checkpoint) records the rows of one straight run of 3,000 cycles
/// from cycle 2,000 on, every byte; its time and cycles go on from the checkpoint's, and its
/// own checkpoints resume (`--resume` with NEXT.toml) to the same series.
#[test]
fn a_stage_from_a_checkpoint_goes_on_as_the_straight_run() {
    let d = scratch("from_stage");
    let (first, _) = settle_scene(2000);
    let (whole, _) = settle_scene(3000);
    let (_, next) = settle_scene(1000);
    let next = next.replace("checkpoint_every = 1000", "checkpoint_every = 500");
    for (name, text) in [("first", &first), ("whole", &whole), ("next", &next)] {
        std::fs::write(d.join(format!("{name}.toml")), text).unwrap();
    }
    for name in ["first", "whole"] {
        let r = run_to(d.join(format!("{name}.toml")), d.join(name));
        assert_eq!(r.status.code(), Some(0));
    }
    let stage = |out: &str, flag: &str, ckpt: &Path| {
        ballast()
            .arg("run")
            .arg(d.join("next.toml"))
            .arg("--out")
            .arg(d.join(out))
            .arg(flag)
            .arg(ckpt)
            .output()
            .unwrap()
    };
    let r = stage(
        "next",
        "--from",
        &d.join("first/checkpoints/cycle_2000.ckpt"),
    );
    assert_eq!(
        r.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&r.stderr)
    );
    let rows = |out: &str| -> Vec<String> {
        let csv = std::fs::read_to_string(d.join(out).join("series.csv")).unwrap();
        csv.lines().map(String::from).collect()
    };
    let (whole, next) = (rows("whole"), rows("next"));
    // every = 50: the straight run's rows of cycles 2,000 to 3,000 are its last 21
    assert_eq!(next.len(), 1 + 21);
    assert_eq!(next[0], whole[0]);
    assert!(
        next[1..] == whole[whole.len() - 21..],
        "the stage's rows differ from the straight run's"
    );
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("next/summary.json")).unwrap())
            .unwrap();
    assert_eq!(summary["steps"], 3000);
    assert!(d.join("next/checkpoints/cycle_2500.ckpt").is_file());
    let r = stage(
        "resumed",
        "--resume",
        &d.join("next/checkpoints/cycle_2500.ckpt"),
    );
    assert_eq!(
        r.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&r.stderr)
    );
    assert!(
        rows("resumed") == next,
        "the stage resumed at cycle 2,500 differs"
    );
}

/// What a next stage must share with the checkpoint is refused (exit 2, one line naming
/// --from and what does not fit): a material of the loaded balls it lacks, a wall of the
/// checkpoint it lacks, a ball it adds where a loaded one lies, another dimension, no contact
/// model for loaded balls and a wall (its own bodies never meet); and `--from` with
/// `--resume`.
#[rstest::rstest]
#[case::material("material", "ball 1 of the checkpoint is of material \"grain\"")]
#[case::wall("wall", "wall \"plate\" of the checkpoint is not in this case")]
#[case::overlap("overlap", "overlaps a ball or clump of the checkpoint")]
#[case::dim("dim", "the checkpoint holds a run of dim = 3, this case is dim = 2")]
#[case::no_model("no_model", "no contact model for materials \"grain\" and \"steel\"")]
#[case::with_resume("with_resume", "--resume")]
fn a_stage_that_does_not_fit_its_checkpoint_is_refused(#[case] how: &str, #[case] words: &str) {
    let d = scratch(&format!("from_refused_{how}"));
    let (first, next) = settle_scene(1000);
    std::fs::write(d.join("first.toml"), &first).unwrap();
    assert_eq!(
        run_to(d.join("first.toml"), d.join("first")).status.code(),
        Some(0)
    );
    let plate = next.find("# a plate").unwrap()..next.find("[output]").unwrap();
    let next = match how {
        "material" => next.replace("grain", "sand"),
        "wall" => [&next[..plate.start], &next[plate.end..]]
            .concat()
            .replace(", \"wall/plate/force\"", ""),
        "overlap" => next.replace(
            "[output]",
            "[[ball]]\npos = [0.0125, 0.0125, 0.001]\nradius = 0.001\nmaterial = \"grain\"\n\
             [output]",
        ),
        "no_model" => {
            let pair = next
                .find("[[contact]]\nbetween = [\"grain\", \"steel\"]")
                .unwrap();
            let end = pair + next[pair..].find("[[wall]]").unwrap();
            [&next[..pair], &next[end..]].concat()
        }
        "dim" => "dim = 2\n[run]\nsteps = 10\n[timestep]\nmode = \"fixed\"\ndt = 1e-5\n\
                  [material.grain]\ndensity = 2500.0\n"
            .to_string(),
        _ => next,
    };
    let case = d.join("next.toml");
    std::fs::write(&case, next).unwrap();
    let ckpt = d.join("first/checkpoints/cycle_1000.ckpt");
    let mut cmd = ballast();
    cmd.arg("run").arg(&case).arg("--out").arg(d.join("next"));
    cmd.arg("--from").arg(&ckpt);
    if how == "with_resume" {
        cmd.arg("--resume").arg(&ckpt);
    }
    let r = cmd.output().unwrap();
    let err = String::from_utf8_lossy(&r.stderr);
    assert_eq!(r.status.code(), Some(2), "{how}: {err}");
    assert!(
        err.contains("--from") && err.contains(words),
        "{how}: {err}"
    );
    if how != "with_resume" {
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains("next.toml"), "{err}");
    }
    assert!(!d.join("next/series.csv").exists());
}

/// Insertion and removal keep a run the same for any number of threads: 5,000 balls inserted
/// at 50,000/s (above the size where the loops split between threads), an outlet removing
/// those that land in one corner; series.csv on one thread and on two, every byte.
#[test]
fn insertion_and_removal_are_the_same_on_any_thread_count() {
    let d = scratch("flow_threads");
    let src = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("cases/experiments/insert_lognormal.toml"),
    )
    .unwrap()
    .replace("duration = 0.25", "duration = 0.12")
    .replace("rate = 20000.0\ncount = 2000", "rate = 50000.0\ncount = 5000")
    .replace(
        "[output]",
        "[[outlet]]\nname = \"corner\"\nregion = { box = { min = [0.0, 0.0, 0.0], max = [0.04, 0.04, 0.02] } }\n\n[output]",
    )
    .replace("\"balls/mass\",", "\"balls/mass\", \"outlet/corner/count\", \"contacts/active\",");
    let src: String = src.split("[[check]]").next().unwrap().to_string();
    let case = d.join("flow.toml");
    std::fs::write(&case, &src).unwrap();
    let run = |out: &str, threads: &str| {
        let r = ballast()
            .env("RAYON_NUM_THREADS", threads)
            .arg("run")
            .arg(&case)
            .arg("--out")
            .arg(d.join(out))
            .output()
            .unwrap();
        assert_eq!(
            r.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&r.stderr)
        );
        std::fs::read_to_string(d.join(out).join("series.csv")).unwrap()
    };
    let one = run("one", "1");
    assert!(
        one == run("two", "2"),
        "series.csv differs between 1 and 2 threads"
    );
    // the premise: balls were inserted and removed
    let last: Vec<f64> = one
        .lines()
        .last()
        .unwrap()
        .split(',')
        .map(|x| x.parse().unwrap())
        .collect();
    let header: Vec<&str> = one.lines().next().unwrap().split(',').collect();
    let col = |n: &str| last[header.iter().position(|h| *h == n).unwrap()];
    assert!(
        col("insert/feed/count") > 4096.0 && col("outlet/corner/count") > 10.0,
        "{}",
        one.lines().last().unwrap()
    );
}

/// VTK snapshots every `vtk_every` cycles and of the last cycle too, when the run does not end on
/// a multiple of it: 100 cycles with `vtk_every = 30` give cycles 0, 30, 60, 90 and 100, all
/// listed in run.pvd (balls and contacts).
#[test]
fn vtk_writes_the_last_cycle() {
    let d = scratch("vtk_last");
    let case = d.join("vtk_last.toml");
    std::fs::write(&case, format!("{CASE}[output]\nvtk_every = 30\n")).unwrap();
    let out = d.join("out");
    let o = run_to(&case, &out);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let vtk = out.join("vtk");
    for cycle in [0, 30, 60, 90, 100] {
        let f = vtk.join(format!("balls_{cycle:09}.vtu"));
        assert!(f.exists(), "{} is missing", f.display());
    }
    assert!(!vtk.join("balls_000000120.vtu").exists());
    let pvd = std::fs::read_to_string(vtk.join("run.pvd")).unwrap();
    // (each snapshot: the balls and the contact network)
    assert_eq!(pvd.matches("file=\"balls_").count(), 5, "{pvd}");
    assert_eq!(pvd.matches("file=\"contacts_").count(), 5, "{pvd}");
}

/// A case without checks judges nothing: `run` and `verify` say "RAN", never "PASS", and the
/// closing count leaves it out of both passed and failed.
#[test]
fn a_case_without_checks_is_reported_as_ran_not_passed() {
    let d = scratch("no_checks");
    let cases = d.join("cases");
    std::fs::create_dir_all(&cases).unwrap();
    let unchecked = &CASE[..CASE.find("[[check]]").unwrap()];
    std::fs::write(cases.join("unchecked.toml"), unchecked).unwrap();
    let o = ballast()
        .current_dir(&d)
        .arg("verify")
        .arg("cases")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{text}");
    assert!(
        text.lines().any(|l| l.starts_with("RAN  unchecked")),
        "{text}"
    );
    assert!(!text.contains("PASS"), "{text}");
    assert!(text.contains("1 ran without checks"), "{text}");
    assert_eq!(text.lines().last(), Some("0 passed, 0 failed"), "{text}");
    let index = std::fs::read_to_string(d.join("reports").join("index.html")).unwrap();
    assert!(index.contains("RAN (no checks)"), "{index}");
}

/// A partial `ballast bench` (one size, one model, one thread, a few steps) writes its own
/// page and results and leaves the complete ones alone (it used to replace the Performance page
/// with ratios of a quick look); with `--timestep fixed,diagonal` it runs the automatic
/// timestep too, with `--repeat 2` each configuration twice in turn (the median kept, with
/// both loop times), and an unknown timestep or `--repeat 0` is refused (exit 2).
#[test]
fn a_partial_bench_keeps_the_complete_performance_page() {
    let d = scratch("bench_partial");
    let _ = std::fs::remove_dir_all(d.join("reports"));
    std::fs::create_dir_all(d.join("reports/bench")).unwrap();
    let complete = "<html>the complete results</html>";
    std::fs::write(d.join("reports/performance.html"), complete).unwrap();
    std::fs::write(d.join("reports/bench/results.json"), "[]").unwrap();
    let cases = std::env::current_dir().unwrap().join("benches/cases");
    let out = ballast()
        .current_dir(&d)
        .args([
            "bench",
            "--n",
            "1000",
            "--steps",
            "20",
            "--models",
            "hertz-history",
            "--timestep",
            "fixed,diagonal",
            "--repeat",
            "2",
        ])
        .args(["--threads", "1", "--cases"])
        .arg(&cases)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("performance_partial.html"), "{text}");
    let read = |p: &str| std::fs::read_to_string(d.join(p)).unwrap();
    assert_eq!(read("reports/performance.html"), complete);
    assert_eq!(read("reports/bench/results.json"), "[]");
    assert!(read("reports/performance_partial.html").contains("A partial bench"));
    assert!(read("reports/bench/partial.json").contains("\"steps\": 20"));
    // (with the automatic timestep beside the fixed step's run: its own section)
    assert!(text.contains("hertz-history (auto diagonal)"), "{text}");
    assert!(read("reports/bench/partial.json").contains("\"timestep\": \"diagonal\""));
    assert!(read("reports/performance_partial.html").contains("The automatic timestep"));
    // (each configuration run twice, in turn: the median kept with both loop times)
    assert_eq!(text.matches("[run 2 of 2]").count(), 2, "{text}");
    assert!(text.contains("the median of 2 runs"), "{text}");
    let partial: Vec<ballast::bench::BenchRun> =
        serde_json::from_str(&read("reports/bench/partial.json")).unwrap();
    assert!(partial.iter().all(|r| r.repeats.len() == 2), "{partial:?}");
    // (refused before any run: exit 2 and the sentence on stderr)
    let refused = |args: [&str; 2], says: &str| {
        let out = ballast()
            .current_dir(&d)
            .arg("bench")
            .args(args)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains(says), "{err}");
    };
    refused(["--repeat", "0"], "--repeat");
    refused(["--timestep", "none"], "--timestep: no timestep \"none\"");
}

/// `bench-one --resume`: a bench run started from a checkpoint of its case (written by `ballast
/// run` with `checkpoint_every`) continues that run: it ends in the state the bench run
/// straight through ends in (kinetic energies, mean height and touching pairs, every bit), on
/// one thread or two, and says the cycle it started from; with two threads the one-pass
/// loop's ranges get a time each. A checkpoint of another case (naming `--resume`) and a run
/// with no steps to time are refused (exit 2).
#[test]
fn bench_one_from_a_checkpoint_ends_where_the_straight_run_ends() {
    let d = scratch("bench_resume");
    // 1,000 touching balls of a cubic packing (2,700 candidate pairs: two ranges on two
    // threads) pushing apart and falling, Hertz on the contact frame, one-pass loop
    let src = r#"
[run]
steps = 400
gravity = [0.0, 0.0, -9.81]
margin = 1e-4
[timestep]
mode = "fixed"
dt = 1e-5
[material.grain]
density = 2500.0
young = 5.0e6
poisson = 0.3
[[contact]]
between = ["grain", "grain"]
model = "hertz"
friction = 0.5
restitution = 0.5
[[generate]]
kind = "cubic"
count = 1000
min = [0.0, 0.0, 0.0]
max = [0.02, 0.02, 0.02]
radius = [0.001, 0.001]
overlap = 1e-6
material = "grain"
[[wall]]
name = "box"
material = "grain"
box = { min = [-0.001, -0.001, -0.001], max = [0.021, 0.021, 0.03] }
[output]
checkpoint_every = 150
"#;
    let case = d.join("cubic.toml");
    std::fs::write(&case, src).unwrap();
    let run = run_to(&case, d.join("out"));
    assert_eq!(
        run.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let ckpt = d.join("out/checkpoints/cycle_150.ckpt");
    let bench = |threads: &str, extra: &[&std::ffi::OsStr]| {
        let out = ballast()
            .arg("bench-one")
            .arg(&case)
            .args(["--threads", threads])
            .args(extra)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_str::<ballast::bench::BenchRun>(&text).unwrap()
    };
    let straight = bench("1", &[]);
    assert_eq!((straight.steps, straight.from_cycle), (400, 0));
    let end = |r: &ballast::bench::BenchRun| {
        (
            r.ke_trans.to_bits(),
            r.ke_rot.to_bits(),
            r.mean_z.to_bits(),
            r.pp,
        )
    };
    // (contacts carry force through the run: a state worth comparing)
    assert!(
        straight.contact_steps > 100_000,
        "{}",
        straight.contact_steps
    );
    for threads in ["1", "2"] {
        let resumed = bench(threads, &["--resume".as_ref(), ckpt.as_os_str()]);
        assert_eq!((resumed.steps, resumed.from_cycle), (250, 150));
        assert!(resumed.contact_steps > 0);
        assert_eq!(
            end(&resumed),
            end(&straight),
            "resumed on {threads} thread(s)"
        );
        assert_eq!(
            resumed.phases.ranges.len(),
            if threads == "1" { 0 } else { 2 }
        );
        assert!(resumed.phases.ranges.iter().all(|&t| t > 0.0));
    }
    // (with --steps, the cycles after the checkpoint)
    let short = bench(
        "1",
        &[
            "--resume".as_ref(),
            ckpt.as_os_str(),
            "--steps".as_ref(),
            "5".as_ref(),
        ],
    );
    assert_eq!((short.steps, short.from_cycle), (5, 150));
    // refused (exit 2, the reason on stderr): nothing to time (a checkpoint at the case's end
    // without --steps, or --steps 0), a checkpoint of another case
    let refused = |case: &Path, extra: &[&std::ffi::OsStr], says: &[&str]| {
        let out = ballast()
            .arg("bench-one")
            .arg(case)
            .arg("--resume")
            .args(extra)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(says.iter().all(|w| err.contains(w)), "{err}");
    };
    let end_ckpt = d.join("out/checkpoints/cycle_400.ckpt");
    refused(&case, &[end_ckpt.as_os_str()], &["no steps to time"]);
    let zero = [ckpt.as_os_str(), "--steps".as_ref(), "0".as_ref()];
    refused(&case, &zero, &["no steps to time"]);
    let other = d.join("other.toml");
    std::fs::write(&other, src.replace("steps = 400", "steps = 401")).unwrap();
    refused(
        &other,
        &[ckpt.as_os_str()],
        &["--resume", "another case file"],
    );
}

/// A ball dropped on a fixed one with a Hertz model: a few hundred cycles of contact.
/// A clump of two pebbles (material "glass"), away from the other bodies of a case.
const CLUMP: &str = r#"
[[clump]]
pos = [0.5, 0.5, 0.5]
material = "glass"
pebbles = [{ offset = [0.0, 0.0, 0.0], radius = 0.005 }, { offset = [0.006, 0.0, 0.0], radius = 0.005 }]
"#;

const DROP: &str = r#"
[run]
steps = 3000
gravity = [0.0, 0.0, -9.81]
[timestep]
mode = "fixed"
dt = 1e-5
[material.glass]
density = 2500.0
young = 1e7
poisson = 0.25
[[contact]]
between = ["*", "*"]
model = "hertz"
friction = 0.5
restitution = 0.6
[[ball]]
id = 1
pos = [0.0, 0.0, 0.0]
radius = 0.01
material = "glass"
fix = ["x", "y", "z", "rx", "ry", "rz"]
[[ball]]
id = 2
pos = [0.004, 0.0, 0.0205]
radius = 0.01
material = "glass"
vel = [0.0, 0.0, -0.5]
[output]
every = 10
series = ["ball/2/pos", "ball/2/vel", "ball/2/spin"]
"#;

/// `ballast verify --jobs N` runs several cases at once and gives the results of one job: the
/// same lines in the same (file) order and the same `series.csv` bytes. Two cases that compare
/// with each other (`same_series` both ways) pass whatever runs first; a case that held its
/// run open through its own checks would make them wait for each other for ever, which the
/// time limit turns into a failure. `--jobs 0` is refused (exit 2).
#[test]
fn verify_on_several_jobs_gives_the_same_results() {
    let d = scratch("verify_jobs");
    let same = |other: &str| {
        format!(
            "{DROP}[[check]]\nkind = \"same_series\"\nseries = \"ball/2/pos.z\"\ncase = \"{other}\"\ntolerance = 0.0\n"
        )
    };
    std::fs::write(d.join("a.toml"), same("b.toml")).unwrap();
    std::fs::write(d.join("b.toml"), same("a.toml")).unwrap();
    for k in 0..3 {
        let v = format!("vel = [0.0, 0.0, -0.{}]", 3 + k);
        let text = DROP.replace("vel = [0.0, 0.0, -0.5]", &v);
        std::fs::write(
            d.join(format!("c{k}.toml")),
            format!("{text}{}", &CASE[CASE.find("[[check]]").unwrap()..])
                .replace("ball/1/pos.x", "ball/1/pos.z"),
        )
        .unwrap();
    }
    let verify = |jobs: &str| {
        let _ = std::fs::remove_dir_all(d.join("reports"));
        let mut child = ballast()
            .current_dir(&d)
            .args(["verify", ".", "--jobs", jobs])
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let t = std::time::Instant::now();
        while child.try_wait().unwrap().is_none() {
            if t.elapsed().as_secs() > 120 {
                let _ = child.kill();
                panic!(
                    "verify --jobs {jobs} still running after 120 s: cases waiting for each other"
                );
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        let out = child.wait_with_output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        assert_eq!(out.status.code(), Some(0), "--jobs {jobs}: {text}");
        let lines: Vec<String> = (text.lines())
            .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
            .collect();
        let series: Vec<Vec<u8>> = ["a", "b", "c0", "c1", "c2"]
            .iter()
            .map(|c| std::fs::read(d.join(format!("reports/cases/{c}/series.csv"))).unwrap())
            .collect();
        (lines, series)
    };
    let one = verify("1");
    let three = verify("3");
    assert_eq!(one.0, three.0);
    assert!(one.0.iter().any(|l| l == "5 passed, 0"), "{:?}", one.0);
    assert!(
        one.1 == three.1,
        "series.csv differs between --jobs 1 and 3"
    );
    // the dropped balls did move: the three c cases differ
    assert!(one.1[2] != one.1[3] && one.1[3] != one.1[4]);
    let out = ballast()
        .current_dir(&d)
        .args(["verify", ".", "--jobs", "0"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// `ballast verify --ranks 2` runs the cases one after the other over two ranks and writes the
/// files of `ballast verify` in one process, byte for byte (summary.json without its wall
/// time): the settle box cut over the ranks (a check's probe watching every cycle), a drop cut
/// over them whose check runs another case, that other case (energy books) cut too, a drop
/// with an automatic timestep cut too, and one with a clump on rank 0 alone, which it says. `--jobs` with `--ranks` is
/// refused (exit 2).
#[test]
fn verify_over_ranks_writes_the_files_of_one_process() {
    let d = scratch("verify_ranks");
    let boxed = std::fs::read_to_string(ranked_case("verify_box", "")).unwrap();
    std::fs::write(d.join("box.toml"), boxed).unwrap();
    std::fs::write(
        d.join("a.toml"),
        format!("{DROP}[[check]]\nkind = \"same_series\"\nseries = \"ball/2/pos.z\"\ncase = \"b.toml\"\ntolerance = 0.0\n"),
    )
    .unwrap();
    std::fs::write(
        d.join("b.toml"),
        format!("{DROP}[[check]]\nkind = \"energy_balance\"\ntolerance = 1e-4\n"),
    )
    .unwrap();
    let auto = DROP.replace(
        "mode = \"fixed\"\ndt = 1e-5",
        "mode = \"auto\"\nsafety = 0.8",
    );
    assert_ne!(auto, DROP);
    std::fs::write(
        d.join("c.toml"),
        format!("{auto}[[check]]\nkind = \"energy_balance\"\ntolerance = 1e-3\n"),
    )
    .unwrap();
    // (a clump beside the drop, falling free)
    let clumped = format!("{DROP}{CLUMP}");
    // (the check only has the case's files written: the ball stays within a metre)
    std::fs::write(
        d.join("d.toml"),
        format!("{clumped}[[check]]\nkind = \"final_value\"\nseries = \"ball/2/pos.z\"\nexpected = 0.0\nabs_tolerance = 1.0\n"),
    )
    .unwrap();
    let verify = |extra: &[&str]| {
        let _ = std::fs::remove_dir_all(d.join("reports"));
        let out = (ballast().current_dir(&d))
            .args(["verify", "."])
            .args(extra)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        assert_eq!(out.status.code(), Some(0), "{extra:?}: {text}");
        let cases = outputs(&d.join("reports/cases"));
        (text, cases)
    };
    let (one, expected) = verify(&[]);
    assert!(one.contains("5 passed, 0 failed"), "{one}");
    let names: Vec<&str> = expected.iter().map(|f| f.0.as_str()).collect();
    assert!(names.len() >= 20, "{names:?}");
    let (two, got) = verify(&["--ranks", "2"]);
    let first = |t: &str| -> Vec<String> {
        (t.lines()
            .filter(|l| !l.starts_with("over") && !l.starts_with(" ")))
        .map(|l| l.split_whitespace().take(2).collect::<Vec<_>>().join(" "))
        .collect()
    };
    assert_eq!(first(&one), first(&two));
    assert!(
        two.contains("over 2 ranks: 4 cases cut over them, 1 on rank 0 alone")
            && two.contains("1 alone: clumps cannot be cut over ranks yet"),
        "{two}"
    );
    assert_eq!(got.len(), expected.len());
    // (a case's page says its wall time, and over ranks how it was cut: the rest of it must
    // be the same)
    let timeless = |f: &(String, Vec<u8>)| {
        let mut text = String::from_utf8_lossy(&f.1).to_string();
        if let Some(at) = text.find(" s of wall time") {
            text = text[..text[..at].rfind(' ').unwrap_or(at)].to_string() + &text[at..];
        }
        if let Some(at) = text.find("<p><b>Over ranks:</b>") {
            let mut end = at + text[at..].find("</p>").unwrap() + 4;
            if text[end..].starts_with("<table>") {
                end += text[end..].find("</table>").unwrap() + 8;
            }
            text.replace_range(at..end, "");
        }
        text
    };
    let cut: Vec<&str> = (got.iter())
        .filter(|f| String::from_utf8_lossy(&f.1).contains("<p><b>Over ranks:</b> 2 ranks"))
        .map(|f| f.0.as_str())
        .collect();
    assert_eq!(
        cut,
        [
            "a/index.html",
            "b/index.html",
            "c/index.html",
            "settle_box_hooke_1k/index.html"
        ]
    );
    let differ: Vec<&str> = (expected.iter().zip(&got))
        .filter(|(a, b)| a.0 != b.0 || timeless(a) != timeless(b))
        .map(|(a, _)| a.0.as_str())
        .collect();
    assert!(differ.is_empty(), "{differ:?} differ");
    let out = (ballast().current_dir(&d))
        .args(["verify", ".", "--ranks", "2", "--jobs", "2"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("--jobs 2: over ranks the cases run one after the other"),
        "{err}"
    );
}

/// A number out of its flag's limits is refused before anything runs or is written: exit 2,
/// one line naming the flag (docs/CASES.md, section 1). `bench` runs in a scratch folder with
/// the repository's cases: nothing may appear under its `reports/`.
#[rstest::rstest]
#[case::run_threads_0(&["run", "@case", "--threads", "0"], "--threads 0: a run needs at least one thread")]
#[case::run_threads_huge(&["run", "@case", "--threads", "100000"], "--threads 100000: more than 1024 threads")]
#[case::bench_one_threads_0(&["bench-one", "@case", "--threads", "0"], "--threads 0: a run needs at least one thread")]
#[case::bench_one_threads_huge(&["bench-one", "@case", "--threads", "100000"], "--threads 100000: more than 1024 threads")]
#[case::bench_threads_0(&["bench", "--threads", "1,0"], "--threads 0: a run needs at least one thread")]
#[case::bench_one_steps_0(&["bench-one", "@case", "--steps", "0"], "--steps 0: no steps to time")]
#[case::bench_steps_0(&["bench", "--steps", "0", "--n", "1000"], "--steps 0: no steps to time")]
#[case::bench_one_steps_huge(&["bench-one", "@case", "--steps", "1000000000000000000"], "more than 10^12 steps")]
#[case::bench_steps_huge(&["bench", "--steps", "1000000000000000000"], "more than 10^12 steps")]
#[case::bench_selects_nothing(&["bench", "--scene", "drum", "--n", "1000"], "--scene drum --models hertz-history,hooke-history --n 1000: no case to run")]
fn a_runaway_argument_is_refused_with_one_line(#[case] args: &[&str], #[case] says: &str) {
    let d = scratch(&format!(
        "runaway_{}",
        args.join("_").replace(['-', ','], "")
    ));
    let _ = std::fs::remove_dir_all(d.join("reports"));
    let case = d.join("rest.toml");
    std::fs::write(&case, CASE).unwrap();
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut cmd = ballast();
    cmd.current_dir(&d);
    for a in args {
        if *a == "@case" {
            cmd.arg(&case);
        } else {
            cmd.arg(a);
        }
    }
    if args[0] == "bench" {
        cmd.arg("--cases").arg(repo.join("benches/cases"));
    } else if args[0] == "run" {
        cmd.arg("--out").arg(d.join("out"));
    }
    let out = cmd.output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    assert!(
        err.starts_with("error: ") && err.contains(says),
        "{args:?}: {err}"
    );
    assert!(!d.join("reports").exists(), "{args:?}: wrote reports/");
    assert!(!d.join("out").exists(), "{args:?}: made --out");
}

/// `verify` refuses paths it cannot run as given, before any case runs: a missing path beside
/// a good one, and two cases of the same name (each writes `reports/cases/<name>/`).
#[test]
fn verify_refuses_a_missing_path_and_two_cases_of_one_name() {
    let d = scratch("verify_refusals");
    let _ = std::fs::remove_dir_all(d.join("reports"));
    for sub in ["a", "b"] {
        std::fs::create_dir_all(d.join(sub)).unwrap();
        std::fs::write(d.join(sub).join("rest.toml"), CASE).unwrap();
    }
    let verify = |paths: &[&str]| ballast().current_dir(&d).arg("verify").args(paths).output();
    let out = verify(&["a", "no_such_folder"]).unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.trim(), "error: no_such_folder: no such file or folder");
    let out = verify(&["a", "b"]).unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("b/rest.toml: name \"rest\"") && err.contains("a/rest.toml"),
        "{err}"
    );
    assert!(!d.join("reports").exists(), "a case ran");
}

/// A case reached several times (a folder and a file in it, the folder twice, a symbolic link
/// to the folder that holds it) runs once, on one job or four.
#[test]
fn verify_runs_a_case_reached_twice_once() {
    let d = scratch("verify_once");
    let a = d.join("a");
    std::fs::create_dir_all(&a).unwrap();
    std::fs::write(a.join("rest.toml"), CASE).unwrap();
    #[cfg(unix)]
    if !a.join("loop").exists() {
        std::os::unix::fs::symlink(".", a.join("loop")).unwrap();
    }
    for (paths, jobs) in [(vec!["a", "a/rest.toml", "a"], "4"), (vec!["a"], "1")] {
        let out = ballast()
            .current_dir(&d)
            .arg("verify")
            .args(&paths)
            .args(["--jobs", jobs])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{paths:?}: {text}");
        let runs = text.lines().filter(|l| l.starts_with("PASS rest ")).count();
        assert_eq!(runs, 1, "{paths:?}: {text}");
        assert!(text.contains("1 passed, 0 failed"), "{paths:?}: {text}");
    }
}

/// `run --threads T` runs on T threads with the same results as on one.
#[test]
fn run_takes_threads_with_the_same_results() {
    let d = scratch("run_threads");
    let case = d.join("drop.toml");
    std::fs::write(&case, DROP).unwrap();
    let series = |t: &str| {
        let out = ballast()
            .arg("run")
            .arg(&case)
            .args(["--threads", t, "--out"])
            .arg(d.join(t))
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "--threads {t}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        std::fs::read(d.join(t).join("series.csv")).unwrap()
    };
    assert!(
        series("1") == series("2"),
        "series.csv differs on 2 threads"
    );
}

/// A run made outside the repository links its code into the source tree the program was
/// built from: no link is "not found".
#[test]
fn code_links_resolve_from_another_working_directory() {
    let d = scratch("links_elsewhere");
    let case = d.join("rest.toml");
    std::fs::write(&case, CASE).unwrap();
    let out = ballast()
        .current_dir(&d)
        .args(["run", "rest.toml", "--out", "out"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let page = std::fs::read_to_string(d.join("out/index.html")).unwrap();
    assert!(!page.contains("not found"), "a broken code link");
    let href = "src/motion/balls.rs#L";
    let k = page.find(href).expect("a link to the law of motion");
    let start = page[..k].rfind("href=\"").unwrap() + 6;
    let target = &page[start..k + href.len() - 2];
    assert!(d.join("out").join(target).is_file(), "{target}");
}

/// The topic pages' tables of a case's checks give each check's tolerance beside its value
/// and expected value.
#[test]
fn topic_pages_give_the_tolerance() {
    let d = scratch("tolerance_column");
    let _ = std::fs::remove_dir_all(d.join("reports"));
    // (the Clumps page shows case tripod_rest's checks)
    let case = Path::new(env!("CARGO_MANIFEST_DIR")).join("cases/clumps/tripod_rest.toml");
    std::fs::copy(case, d.join("tripod_rest.toml")).unwrap();
    let out = ballast()
        .current_dir(&d)
        .args(["verify", "tripod_rest.toml"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let page = std::fs::read_to_string(d.join("reports/clumps.html")).unwrap();
    assert!(
        page.contains("<th>expected</th><th>tolerance</th><th>verdict</th>"),
        "no tolerance column"
    );
    assert!(page.contains(" (absolute)</td>") || page.contains(" (relative)</td>"));
    // and the index says what the pages' "seed 000" to "seed 004" are
    let index = std::fs::read_to_string(d.join("reports/index.html")).unwrap();
    for k in 0..5 {
        assert!(
            index.contains(&format!("<li><b>seed 00{k}</b>: ")),
            "seed 00{k}"
        );
    }
}

/// A case that may not ask for what was meant runs, with a `warning: FILE: key: reason` line
/// on stderr from `check` and `run` (those found at the end of the run too), a `warnings` array
/// in summary.json and a list on the case page; a case without warnings has no such array.
#[test]
fn warnings_are_printed_and_kept_in_the_summary_and_the_page() {
    let d = scratch("warnings");
    let f = d.join("w.toml");
    let insert = "[[contact]]\nbetween = [\"glass\", \"glass\"]\nmodel = \"linear\"\nkn = 1e3\n\
        [[insert]]\nmaterial = \"glass\"\ncount = 200\n\
        region = { box = { min = [0.1, 0.1, 0.1], max = [0.12, 0.12, 0.12] } }\n\
        radius = { kind = \"discrete\", radii = [0.002, 0.003], fractions = [0.5, 0.3] }\n";
    std::fs::write(&f, format!("{CASE}{insert}")).unwrap();
    let fractions = format!(
        "warning: {}: insert[1].radius.fractions: sum to 0.8, not 1",
        f.display()
    );
    let out = ballast().arg("check").arg(&f).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(err.contains(&fractions), "{err}");
    let out = run_to(&f, d.join("out"));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    let pending = format!("warning: {}: insert[1]: ", f.display());
    assert!(
        err.contains(&fractions) && err.contains(&pending) && err.contains("still pending"),
        "{err}"
    );
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("out/summary.json")).unwrap())
            .unwrap();
    let warnings = summary["warnings"].as_array().expect("no warnings array");
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    let page = std::fs::read_to_string(d.join("out/index.html")).unwrap();
    assert!(page.contains("<b>Warnings</b>") && page.contains("sum to 0.8"));
    // none: no array
    std::fs::write(&f, CASE).unwrap();
    let out = run_to(&f, d.join("out"));
    assert!(!String::from_utf8_lossy(&out.stderr).contains("warning"));
    let text = std::fs::read_to_string(d.join("out/summary.json")).unwrap();
    assert!(!text.contains("\"warnings\""), "{text}");
}

/// The fingerprint `bench-one` prints for the 1,000-ball settle box (walls, renumbering every
/// 1,000 cycles) after 1,500 steps, given `extra` flags.
fn fingerprint(extra: &[&str]) -> String {
    let out = ballast()
        .args([
            "bench-one",
            "cases/bench/settle_box_hooke_1k.toml",
            "--steps",
            "1500",
        ])
        .args(extra)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{extra:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let r: serde_json::Value = serde_json::from_str(&text).unwrap();
    r["fingerprint"].as_str().unwrap_or_default().to_string()
}

/// `bench-one --ranks`: the run cut over 2, 3 and 4 ranks (threads of the process, in the
/// bricks chosen or given, one to three threads each) ends in the same fingerprint as one
/// process on one thread; bad rank and brick counts are refused in one line.
#[test]
fn a_run_over_ranks_ends_in_the_bits_of_one_process() {
    let alone = fingerprint(&["--threads", "1"]);
    assert_eq!(alone.len(), 16, "{alone}");
    for extra in [
        &["--ranks", "2"][..],
        &["--ranks", "2", "--threads", "3"],
        &["--ranks", "3", "--bricks", "3,1,1"],
        &["--ranks", "4", "--bricks", "2,2,1", "--threads", "2"],
    ] {
        assert_eq!(fingerprint(extra), alone, "{extra:?}");
    }
    for (extra, says) in [
        (&["--ranks", "0"][..], "--ranks 0: 1 to 1024 ranks"),
        (
            &["--ranks", "2", "--bricks", "3,1,1"],
            "their product must be",
        ),
        (
            &["--ranks", "2", "--bricks", "2,1"],
            "--bricks: 2 numbers; give three",
        ),
    ] {
        let out = ballast()
            .args([
                "bench-one",
                "cases/bench/settle_box_hooke_1k.toml",
                "--steps",
                "10",
            ])
            .args(extra)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{extra:?}: {err}");
        assert!(
            err.contains(says) && err.lines().count() == 1,
            "{extra:?}: {err}"
        );
    }
}

/// The 1,000-ball settle box (walls, renumbering every 1,000 cycles) for 1,500 cycles, with
/// records every 100 cycles, VTK files every 500, a check that watches every cycle (the turn
/// of the balls' mean position) and one on the last record; `parallel` is put in its `[parallel]`
/// table.
fn ranked_case(name: &str, parallel: &str) -> PathBuf {
    let text = std::fs::read_to_string("cases/bench/settle_box_hooke_1k.toml").unwrap();
    let cut = text.find("[output]").unwrap();
    let text = format!(
        "{}{}",
        text[..cut].replace("steps = 20000", "steps = 1500"),
        r#"[output]
every = 100
vtk_every = 500
checkpoint_every = 750
series = ["contacts/balls", "contacts/walls", "balls/mean_pos", "energy/kinetic"]

[[check]]
kind = "max_turn"
series = "balls/mean_pos"
max_deg = 400.0

[[check]]
kind = "final_value"
series = "contacts/balls"
expected = 1200.0
tolerance = 1.0
"#
    );
    let path = scratch("ranked_run").join(format!("{name}.toml"));
    std::fs::write(&path, format!("{text}\n{parallel}")).unwrap();
    path
}

/// Every file of folder `dir` (recursively), by its path below `dir`, with its bytes
/// (summary.json without its wall time and the case file's path).
fn outputs(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            let name = p.strip_prefix(dir).unwrap().display().to_string();
            let mut bytes = std::fs::read(&p).unwrap();
            if name.ends_with("summary.json") {
                let text = String::from_utf8(bytes).unwrap();
                let kept: Vec<&str> = (text.lines())
                    .filter(|l| !l.contains("\"wall_seconds\"") && !l.contains("\"file\""))
                    .collect();
                bytes = kept.join("\n").into_bytes();
            }
            files.push((name, bytes));
        }
    }
    files.sort();
    files
}

/// `run --ranks`: the settle box cut over 2 ranks (bricks chosen) and 3 (`[parallel]
/// decomposition = [1, 3, 1]`, two threads each) writes the series, the summary (its wall
/// time apart), every VTK file and the checkpoints of one process on one thread, byte for
/// byte (the checkpoints of the second name its case file by another hash: only the first's
/// are compared); a decomposition that does not fit the rank count, and what cannot be cut over ranks
/// yet (clumps), are refused in one line naming the key (exit 2).
#[test]
fn a_run_over_ranks_writes_the_files_of_one_process() {
    let alone = scratch("ranked_run").join("alone");
    let case = ranked_case("box", "");
    let box_case = case.clone();
    let run = |case: &Path, out: &Path, extra: &[&str]| {
        // (no file of an earlier run left)
        let _ = std::fs::remove_dir_all(out);
        let o = ballast()
            .arg("run")
            .arg(case)
            .arg("--out")
            .arg(out)
            .args(extra)
            .output()
            .unwrap();
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stderr).to_string(),
        )
    };
    assert_eq!(run(&case, &alone, &["--threads", "1"]).0, Some(0));
    let expected = outputs(&alone);
    let names: Vec<&str> = expected.iter().map(|f| f.0.as_str()).collect();
    assert!(names.len() >= 14, "{names:?}");
    assert!(names.contains(&"checkpoints/cycle_1500.ckpt"), "{names:?}");
    let series = String::from_utf8_lossy(&expected.iter().find(|f| f.0 == "series.csv").unwrap().1)
        .to_string();
    assert_eq!(series.lines().count(), 17, "{series}");
    let cut = ranked_case("cut", "[parallel]\ndecomposition = [1, 3, 1]\n");
    for (case, extra) in [
        (&case, &["--ranks", "2"][..]),
        (&cut, &["--ranks", "3", "--threads", "2"]),
    ] {
        let out = scratch("ranked_run").join(format!("ranks_{}", extra[1]));
        let (code, err) = run(case, &out, extra);
        assert_eq!(code, Some(0), "{extra:?}: {err}");
        let got = outputs(&out);
        let differ: Vec<&str> = (expected.iter().zip(&got))
            .filter(|(a, b)| a != b)
            .map(|(a, _)| a.0.as_str())
            .collect();
        assert_eq!(got.len(), expected.len(), "{extra:?}");
        // (the report page names the case file, and a checkpoint its text's hash)
        let other = |n: &str| n == "index.html" || (case != &box_case && n.contains("ckpt"));
        let differ: Vec<&&str> = differ.iter().filter(|n| !other(n)).collect();
        assert!(differ.is_empty(), "{extra:?}: {differ:?} differ");
        // (the page says how the run was cut; one process's says nothing of ranks)
        let page = std::fs::read_to_string(out.join("index.html")).unwrap();
        let says = format!("<b>Over ranks:</b> {} ranks", extra[1]);
        assert!(
            page.contains(&says),
            "{extra:?}: the page does not say {says}"
        );
    }
    let page = std::fs::read_to_string(alone.join("index.html")).unwrap();
    assert!(
        !page.contains("Over ranks"),
        "one process's page speaks of ranks"
    );
    // a checkpoint written on 2 ranks, resumed on 3: every file written is one process's
    let resumed = scratch("ranked_run").join("resumed");
    let checkpoint = scratch("ranked_run").join("ranks_2/checkpoints/cycle_750.ckpt");
    let ckpt = checkpoint.to_str().unwrap();
    let (code, err) = run(&case, &resumed, &["--ranks", "3", "--resume", ckpt]);
    assert_eq!(code, Some(0), "{err}");
    let got = outputs(&resumed);
    let written: Vec<&str> = got.iter().map(|f| f.0.as_str()).collect();
    assert!(written.len() >= 9, "{written:?}");
    for (name, bytes) in &got {
        if name != "index.html" && name != "vtk/run.pvd" {
            let one = expected
                .iter()
                .find(|f| &f.0 == name)
                .expect("one process wrote it");
            assert!(&one.1 == bytes, "resumed on 3 ranks: {name} differs");
        }
    }
    // (the case `name`, its text `from` replaced by `to`)
    let variant = |name: &str, from: &str, to: &str| {
        let path = ranked_case(name, "");
        let text = std::fs::read_to_string(&path).unwrap();
        let changed = text.replace(from, to);
        assert_ne!(changed, text, "{name}");
        std::fs::write(&path, changed).unwrap();
        path
    };
    // the restart proof over 2 ranks (the whole state gathered through a checkpoint's bytes at
    // cycle 777, which nothing else gathers, and cut again): the files of one process
    // (without the checks, whose probes gather the model after every cycle)
    let restarted = variant(
        "restarted",
        "steps = 1500",
        "steps = 1500\nrestart_at = 777",
    );
    let text = std::fs::read_to_string(&restarted).unwrap();
    let checks = text.find("[[check]]").unwrap();
    std::fs::write(&restarted, &text[..checks]).unwrap();
    let out = scratch("ranked_run").join("restarted");
    let (code, err) = run(&restarted, &out, &["--ranks", "2"]);
    assert_eq!(code, Some(0), "{err}");
    let got = outputs(&out);
    assert_eq!(got.len(), expected.len());
    for ((name, bytes), one) in got.iter().zip(&expected) {
        // (the page, the summary and the checkpoints say the case: its checks, its text's hash)
        let named = name == "index.html" || name.contains("ckpt") || name == "summary.json";
        assert!(
            named || &one.1 == bytes,
            "restarted on 2 ranks: {name} differs"
        );
    }
    let clumped = ranked_case("clumped", "");
    let text = std::fs::read_to_string(&clumped).unwrap();
    let clump = CLUMP.replace("\"glass\"", "\"grain\"");
    std::fs::write(&clumped, format!("{text}{clump}")).unwrap();
    for (case, extra, says) in [
        (
            &cut,
            &["--ranks", "2"][..],
            "parallel.decomposition: [1, 3, 1] is 3 bricks for 2 ranks",
        ),
        (&case, &["--ranks", "0"], "--ranks 0: 1 to 1024 ranks"),
        (
            &clumped,
            &["--ranks", "2"],
            "clumps cannot be cut over ranks yet",
        ),
    ] {
        let (code, err) = run(case, &scratch("ranked_run").join("refused"), extra);
        assert_eq!(code, Some(2), "{extra:?}: {err}");
        assert!(
            err.contains(says) && err.lines().count() == 1,
            "{extra:?}: {err}"
        );
    }
}

/// `verify --skip-slow` leaves out the slow studies (a folder `cases/chute` and a file of
/// the slow list; README, "Slow studies") and runs the rest.
#[test]
fn verify_skip_slow_leaves_out_the_slow_studies() {
    let d = scratch("verify_skip_slow");
    let chute = d.join("cases/chute");
    std::fs::create_dir_all(&chute).unwrap();
    std::fs::write(chute.join("steep.toml"), CASE).unwrap();
    std::fs::write(d.join("cases/settle_on_fixed_layer.toml"), CASE).unwrap();
    std::fs::write(d.join("cases/rest.toml"), CASE).unwrap();
    let verify = |skip: bool| {
        let out = ballast()
            .current_dir(&d)
            .arg("verify")
            .args(skip.then_some("--skip-slow"))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let text = verify(true);
    assert!(
        text.contains("--skip-slow: 2 slow studies left out"),
        "{text}"
    );
    assert!(text.contains("1 passed, 0 failed"), "{text}");
    let text = verify(false);
    assert!(text.contains("3 passed, 0 failed"), "{text}");
}
