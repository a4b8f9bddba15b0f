//! The page's first section: the newest day's side-by-side runs of LIGGGHTS and ballast
//! (benches/peers/run.sh, one file per machine and hour) as tables whose verdict is the ratio
//! to LIGGGHTS run beside ballast, with the instruction counts of each model
//! (benches/instructions.py) beside the times; the earlier files in one history table below.

use super::committed::natural_key;
use super::peers::{parse_peers, PeerRow};
use crate::report::html::{esc, table};
use std::fmt::Write as _;
use std::path::Path;

/// The Kernel issue's targets on the settle box, one thread: ballast's particle-steps per
/// second at least this many times LIGGGHTS's, run beside it (its history model of the same
/// family: LIGGGHTS has no frame models).
const HISTORY_TARGET: f64 = 2.5;
const FRAME_TARGET: f64 = 2.0;

/// A ballast row's model as `ballast bench` names it ([`crate::bench::MODELS`]), from the
/// label run.sh gives it (`hertz` and `hooke` are the history models, as LIGGGHTS names them;
/// `hertz-frame` the Hertz model on the frame), with the LIGGGHTS model it is set beside.
fn bench_model(label: &str) -> Option<(&'static str, &'static str)> {
    let name = match label {
        "hertz" => "hertz-history",
        "hooke" => "hooke-history",
        "hertz-frame" => "hertz",
        other => other,
    };
    (crate::bench::MODELS.iter())
        .find(|m| m.0 == name)
        .map(|m| (m.0, m.2))
}

/// The target ratio of a bench model.
fn target(model: &str) -> f64 {
    if model.ends_with("-history") {
        HISTORY_TARGET
    } else {
        FRAME_TARGET
    }
}

/// One model's instruction counts (a row of benches/instructions.py's results): per
/// particle-step, per ball-ball contact-step, the file and the build it counted.
pub(super) struct Count {
    model: String,
    per_particle_step: f64,
    per_contact_step: f64,
    file: String,
    commit: String,
}

/// Every count of the files of `dir` (benches/results/instructions/, `<date>_<what>.tsv`),
/// newest file first (a file without a `commit` column counted a build not recorded).
pub(super) fn instructions(dir: &Path) -> Vec<Count> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.starts_with(|c: char| c.is_ascii_digit()) && n.ends_with(".tsv"))
        .collect();
    files.sort_by_key(|n| std::cmp::Reverse(natural_key(n)));
    let mut out = Vec::new();
    for name in files {
        let Ok(text) = std::fs::read_to_string(dir.join(&name)) else {
            continue;
        };
        let mut lines = text.lines();
        let head: Vec<&str> = lines.next().unwrap_or("").split('\t').collect();
        let col = |c: &str| head.iter().position(|h| *h == c);
        let (Some(m), Some(p), Some(c)) = (
            col("model"),
            col("per_particle_step"),
            col("per_contact_step"),
        ) else {
            continue;
        };
        let commit = col("commit");
        for l in lines {
            let f: Vec<&str> = l.split('\t').collect();
            let num = |k: usize| f.get(k).and_then(|x| x.parse::<f64>().ok());
            if let (Some(model), Some(p), Some(c)) = (f.get(m), num(p), num(c)) {
                out.push(Count {
                    model: model.to_string(),
                    per_particle_step: p,
                    per_contact_step: c,
                    file: name.clone(),
                    commit: commit.and_then(|k| f.get(k)).unwrap_or(&"").to_string(),
                });
            }
        }
    }
    out
}

/// Each ballast row of a side-by-side file with its LIGGGHTS partner (same N and thread or
/// process count, the model of [`bench_model`]): bench model, the two rows, the ratio.
fn verdicts(rows: &[PeerRow]) -> Vec<(&'static str, &PeerRow, &PeerRow, f64)> {
    (rows.iter().filter(|r| r.code == "ballast"))
        .filter_map(|b| {
            let (model, partner) = bench_model(&b.model)?;
            let l = rows.iter().find(|l| {
                l.code == "liggghts" && l.model == partner && (l.n, l.par) == (b.n, b.par)
            })?;
            Some((model, l, b, b.mps / l.mps))
        })
        .collect()
}

/// The settle-box side-by-side files of `dir` (`peers_<date>...tsv`), oldest first, with
/// their rows.
fn rounds(dir: &Path) -> Vec<(String, Vec<PeerRow>)> {
    let mut files: Vec<(String, Vec<PeerRow>)> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| {
            (n.strip_prefix("peers_")).is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit()))
                && n.ends_with(".tsv")
        })
        .filter_map(|n| {
            let rows = parse_peers(&std::fs::read_to_string(dir.join(&n)).ok()?);
            (!rows.is_empty()).then_some((n, rows))
        })
        .collect();
    files.sort_by_key(|(n, _)| natural_key(n));
    files
}

/// The processor a file's ballast rows name (empty before it was recorded).
fn machine(rows: &[PeerRow]) -> &str {
    (rows.iter().map(|r| r.machine.as_str()))
        .find(|m| !m.is_empty())
        .unwrap_or("")
}

/// The build a file's ballast rows ran (empty before it was recorded).
fn commit(rows: &[PeerRow]) -> &str {
    (rows.iter().map(|r| r.commit.as_str()))
        .find(|m| !m.is_empty())
        .unwrap_or("")
}

/// The date a file's name begins with (`peers_<date>_...`).
fn date(name: &str) -> &str {
    let rest = name.strip_prefix("peers_").unwrap_or(name);
    rest.get(..10).unwrap_or(rest)
}

/// The section: the files of the newest day on the newest file's processor, one table each,
/// then every other file in a history table (ratios only). Empty without side-by-side files.
pub(super) fn verdict_section(dir: &Path) -> String {
    let files = rounds(dir);
    let Some((newest, newest_rows)) = files.last() else {
        return String::new();
    };
    let (day, cpu) = (date(newest), machine(newest_rows).to_string());
    let counts = instructions(&dir.join("instructions"));
    let mut h = String::from(
        "<h2 id=\"verdict\">Results: ballast beside LIGGGHTS, same machine, same hour</h2>",
    );
    let _ = write!(
        h,
        "<p>Each table is one run of <code>benches/peers/run.sh</code> (LIGGGHTS 3.8.0 and ballast one \
         after the other on the same settle-box scene, 20,000 steps, in the same hour) on {}. The \
         verdict is the ratio of particle-steps per second, ballast over LIGGGHTS run beside it: the \
         history models at least {HISTORY_TARGET}x, the models on the contact frame at least \
         {FRAME_TARGET}x LIGGGHTS's history model of the same family (it has no frame models). \
         Instructions (of the build each table ran, when it was counted): \
         <code>benches/instructions.py</code>, callgrind over 500 cycles of the settled \
         10k bed from a checkpoint, one thread, x86-64-v3 build: a figure that repeats to a fraction \
         of a percent where wall times wander by up to 2x.</p>",
        esc(if cpu.is_empty() { "a processor not recorded" } else { &cpu })
    );
    let mut history = Vec::new();
    for (name, rows) in &files {
        if date(name) == day && machine(rows) == cpu {
            h.push_str(&round_table(name, rows, &counts));
        } else {
            history.push((name.as_str(), rows.as_slice()));
        }
    }
    if !history.is_empty() {
        h.push_str(&history_table(&history));
    }
    h
}

/// One file's table: each ballast row beside its LIGGGHTS partner, the target and verdict, and
/// the model's instruction counts of the same build (the newest file's, when several counted
/// it; none when the file does not name its build).
fn round_table(name: &str, rows: &[PeerRow], counts: &[Count]) -> String {
    let build = commit(rows);
    let mut t = vec![[
        "model",
        "N",
        "threads",
        "LIGGGHTS model",
        "LIGGGHTS (Mps/s)",
        "ballast (Mps/s)",
        "ratio",
        "target",
        "verdict",
        "instructions / particle-step (10k)",
        "instructions / contact-step (10k)",
    ]
    .map(String::from)
    .to_vec()];
    let mut sources: Vec<&str> = Vec::new();
    for (model, l, b, ratio) in verdicts(rows) {
        let count =
            (counts.iter()).find(|c| c.model == model && !build.is_empty() && c.commit == build);
        if let Some(c) = count {
            if !sources.contains(&c.file.as_str()) {
                sources.push(&c.file);
            }
        }
        let goal = target(model);
        t.push(vec![
            model.to_string(),
            b.n.to_string(),
            b.par.to_string(),
            l.model.clone(),
            format!("{:.3}", l.mps),
            format!("{:.3}", b.mps),
            format!("{ratio:.2}"),
            format!(">= {goal}"),
            if ratio >= goal { "met" } else { "MISSED" }.to_string(),
            count.map_or("-".into(), |c| format!("{:.1}", c.per_particle_step)),
            count.map_or("-".into(), |c| format!("{:.1}", c.per_contact_step)),
        ]);
    }
    let counted = match (build.is_empty(), sources.is_empty()) {
        (true, _) => "the file does not name its build: no instruction counts set beside it".into(),
        (false, true) => format!(
            "no instruction count of build {} in benches/results/instructions/",
            esc(build)
        ),
        (false, false) => format!(
            "instructions of the same build from benches/results/instructions/{}",
            esc(&sources.join(", "))
        ),
    };
    format!(
        "<h3>{}</h3>{}<p>Rows: benches/results/{} (ballast build {}); {counted}.</p>",
        esc(name),
        table(&t),
        esc(name),
        esc(if build.is_empty() {
            "not recorded"
        } else {
            build
        }),
    )
}

/// The earlier files, one row per file, N and thread count: the ratio of each model.
fn history_table(files: &[(&str, &[PeerRow])]) -> String {
    let models: Vec<&str> = crate::bench::MODELS.iter().map(|m| m.0).collect();
    let mut head = vec!["file", "processor", "N", "threads"];
    head.extend(&models);
    let mut t = vec![head.iter().map(|s| s.to_string()).collect::<Vec<_>>()];
    for (name, rows) in files {
        let found = verdicts(rows);
        let mut keys: Vec<(usize, usize)> = found.iter().map(|v| (v.2.n, v.2.par)).collect();
        keys.sort_unstable();
        keys.dedup();
        for (n, par) in keys {
            let mut row = vec![
                name.to_string(),
                machine(rows).to_string(),
                n.to_string(),
                par.to_string(),
            ];
            for m in &models {
                let r = found
                    .iter()
                    .find(|v| v.0 == *m && (v.2.n, v.2.par) == (n, par));
                row.push(r.map_or("-".into(), |v| format!("{:.2}", v.3)));
            }
            t.push(row);
        }
    }
    format!(
        "<h3>Earlier runs: other days and machines</h3><p>The ratio ballast / LIGGGHTS of every \
         side-by-side file in benches/results/ not shown above (a machine of another processor or \
         another day: compare ratios, not rates).</p>{}",
        table(&t)
    )
}

#[cfg(test)]
mod tests {
    use super::verdict_section;

    /// Files made up here: the newest day's two files on one processor get a table each with
    /// the ratio to LIGGGHTS's partner model (the frame Hertz beside LIGGGHTS's hertz, linear
    /// beside hooke), the verdict against 2.5 and 2.0, and the instruction counts of the build
    /// the file ran (not a newer file's of another build; none for a build never counted); an
    /// earlier day's file, without a build, goes to the history table with its ratios only.
    #[test]
    fn the_newest_day_is_judged_and_the_rest_is_history() {
        let dir = std::env::temp_dir().join(format!("ballast_verdict_{}", std::process::id()));
        std::fs::create_dir_all(dir.join("instructions")).unwrap();
        let head = "code\tmodel\tN\tsteps\tpar\tloop_s\tMps_s\tpp\tnw\tke_trans\tmean_z\tpeak_rss_kib\tmachine\tcommit\n";
        let row = |code: &str, model: &str, n: usize, mps: f64, cpu: &str, build: &str| {
            format!(
                "{code}\t{model}\t{n}\t20000\t1\t1.0\t{mps}\t1\t1\t0\t0.006\t1\t{cpu}\t{build}\n"
            )
        };
        let write = |name: &str, rows: &[String]| {
            std::fs::write(dir.join(name), format!("{head}{}", rows.concat())).unwrap();
        };
        write(
            "peers_2026-11-01_old.tsv",
            &[
                row("liggghts", "hertz", 10000, 4.0, "", ""),
                row("ballast", "hertz", 10000, 6.0, "Old", ""),
            ],
        );
        write(
            "peers_2026-12-03_21h.tsv",
            &[
                row("liggghts", "hertz", 10000, 8.0, "", ""),
                row("ballast", "hertz", 10000, 20.8, "New", "aaa1111"),
                row("liggghts", "hooke", 10000, 9.0, "", ""),
                row("ballast", "hertz-frame", 10000, 12.0, "New", "aaa1111"),
                row("ballast", "linear", 10000, 19.8, "New", "aaa1111"),
            ],
        );
        write(
            "peers_2026-12-03_23h-50k.tsv",
            &[
                row("liggghts", "hooke", 50000, 6.0, "", ""),
                row("ballast", "hooke", 50000, 14.0, "New", "ccc3333"),
            ],
        );
        let counts = "model\tper_particle_step\tper_contact_step\tcommit\n";
        std::fs::write(
            dir.join("instructions/2026-12-03_a.tsv"),
            format!(
                "{counts}hertz-history\t900.0\t320.0\taaa1111\nhertz\t1350.0\t560.0\taaa1111\n"
            ),
        )
        .unwrap();
        // (newer, of another build: not beside the 21h file's rows)
        std::fs::write(
            dir.join("instructions/2026-12-03_b.tsv"),
            format!(
                "{counts}hertz\t1286.5\t530.5\tbbb2222\nhooke-history\t800.0\t300.0\tbbb2222\n"
            ),
        )
        .unwrap();
        let html = verdict_section(&dir);
        std::fs::remove_dir_all(&dir).unwrap();
        // 20.8 / 8 = 2.60 met; 12 / 8 = 1.50 missed; 19.8 / 9 = 2.20 met; 14 / 6 = 2.33 missed
        for want in [
            "<td>2.60</td><td>&gt;= 2.5</td><td>met</td><td>900.0</td><td>320.0</td>",
            "<td>1.50</td><td>&gt;= 2</td><td>MISSED</td><td>1350.0</td><td>560.0</td>",
            "<td>2.20</td><td>&gt;= 2</td><td>met</td><td>-</td>",
            "<td>2.33</td><td>&gt;= 2.5</td><td>MISSED</td><td>-</td><td>-</td>",
            "<h3>peers_2026-12-03_21h.tsv</h3>",
            "(ballast build aaa1111); instructions of the same build from benches/results/instructions/2026-12-03_a.tsv.",
            "<h3>peers_2026-12-03_23h-50k.tsv</h3>",
            "no instruction count of build ccc3333",
            "<td>peers_2026-11-01_old.tsv</td><td>Old</td><td>10000</td><td>1</td><td>1.50</td><td>-</td>",
        ] {
            assert!(html.contains(want), "{want} missing: {html}");
        }
        assert!(!html.contains("1286.5"), "{html}");
        assert_eq!(html.matches("<h3>").count(), 3, "{html}");
    }
}
