//! The Throughput section: plots of the speed against N and against the thread count.

use super::cells::page_model as model_of;
use crate::bench::{BenchRun, LIGGGHTS};
use crate::record::{Curve, Plot};
use crate::report::plot::svg;

/// The Throughput section: `hertz-history` and `hooke-history` against N (with LIGGGHTS's
/// figures) and against the thread count; empty without runs.
pub(super) fn throughput_section(runs: &[BenchRun]) -> String {
    if runs.is_empty() {
        return String::new();
    }
    let mut vs_n = Vec::new();
    for m in ["hertz", "hooke"] {
        for th in [1, 2] {
            let pts: Vec<&BenchRun> = runs
                .iter()
                .filter(|r| model_of(r) == m && r.threads == th)
                .collect();
            if !pts.is_empty() {
                vs_n.push(Curve {
                    label: format!("ballast {m}, {th} thread{}", if th > 1 { "s" } else { "" }),
                    x: pts.iter().map(|r| r.n as f64).collect(),
                    y: pts.iter().map(|r| r.particle_steps_per_s / 1e6).collect(),
                    markers: true,
                });
            }
        }
        let l: Vec<_> = LIGGGHTS.iter().filter(|l| l.0 == m).collect();
        vs_n.push(Curve {
            label: format!("LIGGGHTS {m}, 1 core"),
            x: l.iter().map(|l| l.1 as f64).collect(),
            y: l.iter().map(|l| l.2).collect(),
            markers: true,
        });
    }
    let mut h = String::from("<h2>Throughput</h2>");
    h.push_str(&svg(&Plot {
        title: "throughput against N".into(),
        x_label: "N (balls)".into(),
        y_label: "throughput (million particle-steps/s)".into(),
        log_x: true,
        curves: vs_n,
        ..Default::default()
    }));
    let mut vs_t = Vec::new();
    for m in ["hertz", "hooke"] {
        for n in [1000, 10000, 50000] {
            let pts: Vec<&BenchRun> = runs
                .iter()
                .filter(|r| model_of(r) == m && r.n == n)
                .collect();
            if pts.len() > 1 {
                vs_t.push(Curve {
                    label: format!("{m}, N = {n}"),
                    x: pts.iter().map(|r| r.threads as f64).collect(),
                    y: pts.iter().map(|r| r.particle_steps_per_s / 1e6).collect(),
                    markers: true,
                });
            }
        }
    }
    if !vs_t.is_empty() {
        h.push_str(&svg(&Plot {
            title: "throughput against threads".into(),
            x_label: "threads (-)".into(),
            y_label: "throughput (million particle-steps/s)".into(),
            curves: vs_t,
            ..Default::default()
        }));
    }
    h
}
