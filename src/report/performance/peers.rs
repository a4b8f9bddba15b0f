//! The side-by-side runs of LIGGGHTS and ballast (benches/peers/run.sh): their files, their
//! rows, and the page's table of them.

use super::committed::{natural_key, newest, Piece};
use crate::report::html::{esc, table};
use crate::report::markdown::render;
use std::path::Path;

/// One row of a side-by-side run of LIGGGHTS and ballast (benches/peers/run.sh).
#[derive(Clone, Debug, PartialEq)]
pub(super) struct PeerRow {
    /// "liggghts" or "ballast".
    pub code: String,
    pub model: String,
    pub n: usize,
    /// Processes (LIGGGHTS) or threads (ballast).
    pub par: usize,
    /// Million particle-steps per second.
    pub mps: f64,
    pub pp: usize,
    pub mean_z: f64,
    /// The processor (ballast's rows, from `ballast bench-one`; empty in files written
    /// before it was recorded).
    pub machine: String,
    /// The build ballast ran (`git describe --always --dirty` on ballast's rows; empty in
    /// files written before it was recorded).
    pub commit: String,
}

/// The rows of a side-by-side results file (tab-separated, one header line; columns found
/// by name, `machine` optional); rows that do not parse are left out.
pub(super) fn parse_peers(text: &str) -> Vec<PeerRow> {
    let mut lines = text.lines();
    let Some(head) = lines.next() else {
        return Vec::new();
    };
    let head: Vec<&str> = head.split('\t').collect();
    let col = |name: &str| head.iter().position(|h| *h == name);
    let (Some(code), Some(model), Some(n), Some(par), Some(mps), Some(pp), Some(mean_z)) = (
        col("code"),
        col("model"),
        col("N"),
        col("par"),
        col("Mps_s"),
        col("pp"),
        col("mean_z"),
    ) else {
        return Vec::new();
    };
    let (machine, commit) = (col("machine"), col("commit"));
    let text_of = |c: Option<usize>, f: &[&str]| {
        c.and_then(|c| f.get(c))
            .map_or(String::new(), |m| m.to_string())
    };
    lines
        .filter_map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            Some(PeerRow {
                code: f.get(code)?.to_string(),
                model: f.get(model)?.to_string(),
                n: f.get(n)?.parse().ok()?,
                par: f.get(par)?.parse().ok()?,
                mps: f.get(mps)?.parse().ok()?,
                pp: f.get(pp)?.parse().ok()?,
                mean_z: f.get(mean_z)?.parse().ok()?,
                machine: text_of(machine, &f),
                commit: text_of(commit, &f),
            })
        })
        .collect()
}

/// True for the name of a settle-box side-by-side file (benches/peers/run.sh's results.tsv
/// committed as benches/results/peers_<date>....tsv); the drum's are peers_drum_<date>....tsv
/// (`SCENE=drum`), whose names would otherwise sort after every dated one.
fn is_settle_peers(name: &str) -> bool {
    (name.strip_prefix("peers_")).is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()))
        && name.ends_with(".tsv")
}

/// The newest side-by-side run of LIGGGHTS and ballast on the drum under `dir`: its path and
/// rows.
pub(super) fn newest_drum_peers(dir: &Path) -> Option<(std::path::PathBuf, Vec<PeerRow>)> {
    let path = newest(dir, "peers_drum_", ".tsv")?;
    let rows = parse_peers(&std::fs::read_to_string(&path).ok()?);
    (!rows.is_empty()).then_some((path, rows))
}

/// The newest side-by-side settle-box file of `dir` ([`is_settle_peers`]) with a
/// LIGGGHTS row at N = `n`: its path and its rows at that N. A round that ran one N only
/// leaves each other N's newest side-by-side run in view.
pub(super) fn peers_at(dir: &Path, n: usize) -> Option<(std::path::PathBuf, Vec<PeerRow>)> {
    let mut files: Vec<(Vec<Piece>, std::path::PathBuf)> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter_map(|p| {
            let name = p.file_name()?.to_str()?;
            is_settle_peers(name).then(|| (natural_key(name), p.clone()))
        })
        .collect();
    files.sort();
    files.into_iter().rev().find_map(|(_, path)| {
        let text = std::fs::read_to_string(&path).ok()?;
        let rows: Vec<PeerRow> = (parse_peers(&text).into_iter())
            .filter(|r| r.n == n)
            .collect();
        (rows.iter().any(|r| r.code == "liggghts")).then_some((path, rows))
    })
}

/// Each ballast row of a side-by-side run with the LIGGGHTS row of the same model, N and
/// thread or process count.
pub(super) fn peer_pairs(rows: &[PeerRow]) -> Vec<(&PeerRow, &PeerRow)> {
    (rows.iter().filter(|r| r.code == "ballast"))
        .filter_map(|b| {
            let l = rows.iter().find(|l| {
                l.code == "liggghts" && l.model == b.model && l.n == b.n && l.par == b.par
            })?;
            Some((l, b))
        })
        .collect()
}

/// The table of the side-by-side runs of LIGGGHTS and ballast: `files`, for each N the newest
/// file that has it with its rows at that N ([`peers_at`]), or None.
pub(super) fn side_by_side(files: &[(std::path::PathBuf, Vec<PeerRow>)]) -> Option<String> {
    if files.is_empty() {
        return None;
    }
    let mut t = vec![[
        "model",
        "N",
        "threads / processes",
        "LIGGGHTS (Mps/s)",
        "ballast (Mps/s)",
        "ratio",
        "contacts LIGGGHTS / ballast",
        "mean z (mm) LIGGGHTS / ballast",
        "file",
    ]
    .map(String::from)
    .to_vec()];
    let name = |p: &std::path::Path| {
        (p.file_name()).map_or(String::new(), |f| f.to_string_lossy().into_owned())
    };
    for (path, rows) in files {
        for (l, b) in peer_pairs(rows) {
            t.push(vec![
                b.model.clone(),
                b.n.to_string(),
                b.par.to_string(),
                format!("{:.3}", l.mps),
                format!("{:.3}", b.mps),
                format!("{:.2}", b.mps / l.mps),
                format!("{} / {}", l.pp, b.pp),
                format!("{:.4} / {:.4}", l.mean_z * 1e3, b.mean_z * 1e3),
                name(path),
            ]);
        }
    }
    let mut machines: Vec<&str> = (files.iter().flat_map(|(_, rows)| rows))
        .map(|r| r.machine.as_str())
        .filter(|m| !m.is_empty())
        .collect();
    machines.sort_unstable();
    machines.dedup();
    // (one file may hold several N)
    let mut paths: Vec<String> = Vec::new();
    for (p, _) in files {
        let p = p.display().to_string();
        if !paths.contains(&p) {
            paths.push(p);
        }
    }
    let machine = if machines.is_empty() {
        String::from("a machine it did not record (before the 13th round)")
    } else {
        machines.join("; ")
    };
    Some(render(
        include_str!("../text/performance_side_by_side.md"),
        &[
            ("file", esc(&paths.join(", "))),
            ("machine", esc(&machine)),
            ("table", table(&t)),
        ],
    ))
}

#[cfg(test)]
mod tests {
    use super::{parse_peers, peer_pairs};

    /// A side-by-side file is read by column name, with or without the machine column (files
    /// of earlier rounds have none), and each ballast row is paired with LIGGGHTS's row of
    /// the same model, N and thread or process count; a row that does not parse is left out.
    #[test]
    fn side_by_side_rows_pair_by_model_n_and_threads() {
        let old = "code\tmodel\tN\tsteps\tpar\tloop_s\tMps_s\tpp\tnw\tke_trans\tmean_z\tpeak_rss_kib\n\
                   liggghts\thooke\t10000\t20000\t1\t34.2\t5.84\t21749\t1730\t6e-8\t0.006029\t43000\n\
                   ballast\thooke\t10000\t20000\t2\t10.0\t20.0\t21701\t1729\t7e-8\t0.006025\t11000\n\
                   ballast\thooke\t10000\t20000\t1\t17.0\t11.7\t21701\t1729\t7e-8\t0.006025\t10000\n\
                   ballast\thooke\tten\t20000\t1\t17.0\t11.7\t21701\t1729\t7e-8\t0.006025\t10000\n";
        let rows = parse_peers(old);
        assert_eq!(rows.len(), 3);
        let pairs = peer_pairs(&rows);
        assert_eq!(pairs.len(), 1, "no LIGGGHTS row for two threads");
        let (l, b) = pairs[0];
        assert_eq!(
            (l.code.as_str(), b.par, l.mps, b.mps),
            ("liggghts", 1, 5.84, 11.7)
        );
        assert_eq!(b.machine, "");
        let new = "code\tmodel\tN\tsteps\tpar\tloop_s\tMps_s\tpp\tnw\tke_trans\tmean_z\tpeak_rss_kib\tmachine\n\
                   liggghts\thertz\t1000\t20000\t1\t2.8\t7.1\t2090\t303\t4e-9\t0.006355\t35000\t\n\
                   ballast\thertz\t1000\t20000\t1\t1.9\t10.5\t2102\t299\t1e-8\t0.006357\t6000\tAMD EPYC, AVX2\n";
        let rows = parse_peers(new);
        let pairs = peer_pairs(&rows);
        assert_eq!(pairs.len(), 1);
        assert_eq!(
            (pairs[0].0.machine.as_str(), pairs[0].1.machine.as_str()),
            ("", "AMD EPYC, AVX2")
        );
        assert!(parse_peers("").is_empty());
        assert!(parse_peers("code\tmodel\n").is_empty(), "columns missing");
    }

    /// For each N the settle-box's side-by-side file is the newest dated `peers_<date>...` one
    /// with a LIGGGHTS row at that N (a round that ran 50k only leaves the 10k run in view; a
    /// file of ballast rows only is passed over), and the drum's the newest `peers_drum_...`
    /// one: a drum file, whose name sorts after every dated one, never hides a newer
    /// settle-box run (it did: the Performance page showed the drum's table and no same-hour
    /// LIGGGHTS figure for every later settle-box run).
    #[test]
    fn the_newest_side_by_side_file_of_each_scene_and_n() {
        use super::{newest_drum_peers, peers_at};
        let dir = std::env::temp_dir().join(format!("ballast_peers_{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let head =
            "code\tmodel\tN\tsteps\tpar\tloop_s\tMps_s\tpp\tnw\tke_trans\tmean_z\tpeak_rss_kib\n";
        let row = |code: &str, model: &str, n: usize| {
            format!("{code}\t{model}\t{n}\t20000\t1\t1.0\t2.0\t1\t1\t0\t0.006\t1\n")
        };
        let settle = |ns: &[usize]| {
            let rows: String = (ns.iter())
                .flat_map(|&n| [row("liggghts", "hertz", n), row("ballast", "hertz", n)])
                .collect();
            format!("{head}{rows}")
        };
        for (name, text) in [
            ("peers_2026-11-21.tsv", settle(&[1000, 10000, 50000])),
            ("peers_2026-11-27g_xeon_r21_50k.tsv", settle(&[50000])),
            ("peers_2026-11-28_xeon_r22.tsv", settle(&[10000])),
            (
                "peers_2026-11-28_xeon_r23.tsv",
                format!("{head}{}", row("ballast", "hertz", 50000)),
            ),
            (
                "peers_drum_2026-11-27_xeon.tsv",
                format!("{head}{}", row("liggghts", "drum-hertz", 10000)),
            ),
            (
                "peers_drum_2026-11-20.tsv",
                format!("{head}{}", row("liggghts", "drum-hertz", 10000)),
            ),
            ("peers_notes.txt", settle(&[10000])),
            ("settle_box_2026-11-29.json", String::new()),
        ] {
            std::fs::write(dir.join(name), text).unwrap();
        }
        let name = |p: Option<(std::path::PathBuf, Vec<super::PeerRow>)>| {
            let (p, rows) = p.unwrap();
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                rows.len(),
            )
        };
        assert_eq!(
            name(peers_at(&dir, 10000)),
            ("peers_2026-11-28_xeon_r22.tsv".into(), 2)
        );
        assert_eq!(
            name(peers_at(&dir, 50000)),
            ("peers_2026-11-27g_xeon_r21_50k.tsv".into(), 2)
        );
        assert_eq!(
            name(peers_at(&dir, 1000)),
            ("peers_2026-11-21.tsv".into(), 2)
        );
        assert!(peers_at(&dir, 20000).is_none());
        assert_eq!(
            name(newest_drum_peers(&dir)).0,
            "peers_drum_2026-11-27_xeon.tsv"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
