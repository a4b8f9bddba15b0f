//! SVG plots (plotters, SVG backend only: no system font libraries needed).

use crate::math::Real;
use crate::record::Plot;
use plotters::prelude::*;

const COLORS: [RGBColor; 6] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(255, 127, 14),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
];

/// Largest number of points drawn per curve (longer curves are thinned evenly).
const MAX_POINTS: usize = 3000;

/// Renders a plot as an SVG document followed by an HTML legend (below the chart, so that it
/// never hides a curve). Logarithmic axes plot log10 of the values and label the ticks as powers
/// of ten.
pub fn svg(plot: &Plot) -> String {
    // (in a `div class=plot`: what tells a plot from a scene drawing, tests/report.rs)
    let mut out = String::from("<div class=plot>");
    if let Err(e) = draw(plot, &mut out) {
        return format!(
            "<p>plot \"{}\" could not be drawn: {e}</p>",
            super::html::esc(&plot.title)
        );
    }
    out = squeeze_points(&out);
    out.push_str("<div class=legend>");
    for (k, c) in plot.curves.iter().enumerate() {
        let RGBColor(r, g, b) = COLORS[k % COLORS.len()];
        let mark = if c.markers { "●" } else { "━━" };
        out.push_str(&format!(
            "<span style=\"color:rgb({r},{g},{b})\">{mark}</span> {} &nbsp; ",
            super::html::esc(&c.label)
        ));
    }
    out.push_str("</div></div>");
    out
}

/// The SVG with each polyline's runs of one pixel (consecutive points that round to the same
/// pixel, most of a curve of 2,000 records drawn 600 pixels wide) given once: the same drawing
/// in about half the bytes.
fn squeeze_points(svg: &str) -> String {
    const OPEN: &str = " points=\"";
    let mut out = String::with_capacity(svg.len());
    let mut rest = svg;
    while let Some(k) = rest.find(OPEN) {
        let (head, tail) = rest.split_at(k + OPEN.len());
        out.push_str(head);
        let end = tail.find('"').unwrap_or(tail.len());
        let mut last = None;
        for p in tail[..end].split_whitespace() {
            if last != Some(p) {
                out.push_str(p);
                out.push(' ');
                last = Some(p);
            }
        }
        rest = &tail[end..];
    }
    out.push_str(rest);
    out
}

/// The label of an axis tick at `v` on an axis spanning `range` (on a log axis, both are
/// decimal logarithms): as short as the ticks' spacing allows, with one notation for the whole
/// axis: plain decimals for magnitudes from 1e-3 to 1e5 (`0.25`, `1500`), else a mantissa and
/// the axis's exponent (`2.5e-4`); a log axis labels its powers of ten `1e-13` and other values by
/// two digits (`3.2e-13`). Round-off in a tick's position (a zero tick read as -2.7e-20) is
/// snapped to zero.
fn tick_label(v: Real, (lo, hi): (Real, Real), log: bool) -> String {
    if log {
        let k = v.round();
        if (v - k).abs() < 1e-6 {
            return format!("1e{k}");
        }
        return format!("{:.1e}", (10.0 as Real).powf(v));
    }
    let span = (hi - lo).abs();
    if v.abs() < 1e-9 * span {
        return "0".into();
    }
    // about seven ticks: the digits that tell neighbours apart
    let step = span / 7.0;
    let mag = lo.abs().max(hi.abs());
    // (one digit more than the spacing needs, for steps such as 0.25; trailing zeros dropped)
    let trim = |s: String| -> String {
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s
        }
    };
    if (1e-3..1e5).contains(&mag) {
        let decimals = ((-step.log10()).ceil() + 1.0).clamp(0.0, 10.0) as usize;
        return trim(format!("{v:.decimals$}"));
    }
    let e = mag.log10().floor();
    let scale = (10.0 as Real).powf(e);
    let digits = ((-(step / scale).log10()).ceil() + 1.0).clamp(0.0, 7.0) as usize;
    format!("{}e{e}", trim(format!("{:.digits$}", v / scale)))
}

fn draw(plot: &Plot, out: &mut String) -> Result<(), Box<dyn std::error::Error>> {
    let tx = |v: Real, log: bool| if log { v.log10() } else { v };
    let curves: Vec<(usize, Vec<(Real, Real)>)> = plot
        .curves
        .iter()
        .enumerate()
        .map(|(k, c)| {
            let stride = c.x.len().div_ceil(MAX_POINTS).max(1);
            let pts =
                c.x.iter()
                    .zip(&c.y)
                    .enumerate()
                    .filter(|(i, _)| i % stride == 0 || *i + 1 == c.x.len())
                    .map(|(_, (&x, &y))| (tx(x, plot.log_x), tx(y, plot.log_y)))
                    .filter(|(x, y)| x.is_finite() && y.is_finite())
                    .collect();
            (k, pts)
        })
        .collect();
    let mut lo = (Real::INFINITY, Real::INFINITY);
    let mut hi = (Real::NEG_INFINITY, Real::NEG_INFINITY);
    for (_, pts) in &curves {
        for &(x, y) in pts {
            lo = (lo.0.min(x), lo.1.min(y));
            hi = (hi.0.max(x), hi.1.max(y));
        }
    }
    if !(lo.0.is_finite() && lo.1.is_finite()) {
        return Err("no finite point".into());
    }
    let pad = |a: Real, b: Real| {
        let span = b - a;
        let p = if span > 0.0 {
            0.05 * span
        } else {
            0.5 * a.abs().max(1e-30)
        };
        (a - p, b + p)
    };
    let (x0, x1) = pad(lo.0, hi.0);
    let (y0, y1) = pad(lo.1, hi.1);
    {
        let root = SVGBackend::with_string(out, (760, 380)).into_drawing_area();
        root.fill(&WHITE)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(&plot.title, ("sans-serif", 17))
            .margin(12)
            .x_label_area_size(42)
            .y_label_area_size(80)
            .build_cartesian_2d(x0..x1, y0..y1)?;
        let fmt = |log: bool, range: (Real, Real)| move |v: &Real| tick_label(*v, range, log);
        let (fx, fy) = (fmt(plot.log_x, (x0, x1)), fmt(plot.log_y, (y0, y1)));
        chart
            .configure_mesh()
            .label_style(("sans-serif", 13))
            .axis_desc_style(("sans-serif", 14))
            .x_desc(plot.x_label.as_str())
            .y_desc(plot.y_label.as_str())
            .x_label_formatter(&fx)
            .y_label_formatter(&fy)
            .x_labels(7)
            .y_labels(7)
            .draw()?;
        for (k, pts) in curves {
            let c = &plot.curves[k];
            let color = COLORS[k % COLORS.len()];
            if c.markers {
                chart.draw_series(pts.iter().map(|&p| Circle::new(p, 4, color.filled())))?;
            } else {
                let style = color.stroke_width(if k == 0 { 2 } else { 1 });
                chart.draw_series(LineSeries::new(pts, style))?;
            }
        }
        root.present()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{squeeze_points, tick_label};

    /// A run of points on one pixel is drawn once; a point that comes back is kept.
    #[test]
    fn a_polyline_keeps_one_of_each_run_of_a_pixel() {
        let svg = r#"<polyline a="1" points="1,2 1,2 1,2 2,3 1,2 "/><x points="" />"#;
        assert_eq!(
            squeeze_points(svg),
            r#"<polyline a="1" points="1,2 2,3 1,2 "/><x points="" />"#
        );
    }

    /// Labels as a reader writes them: decimals for ordinary magnitudes, a shared exponent for
    /// tiny or huge ones, powers of ten on log axes (the issue's `2.0000e-4`, `1.2000e0`,
    /// `1e-13.2` are gone).
    #[test]
    fn ticks_read_like_numbers() {
        assert_eq!(tick_label(0.25, (0.0, 1.0), false), "0.25");
        assert_eq!(tick_label(1.2, (0.0, 2.0), false), "1.2");
        assert_eq!(tick_label(1500.0, (0.0, 3000.0), false), "1500");
        assert_eq!(tick_label(2e-4, (0.0, 6e-4), false), "2e-4");
        assert_eq!(tick_label(2.5e-4, (0.0, 6e-4), false), "2.5e-4");
        assert_eq!(tick_label(-0.0015, (-0.0024, 0.0), false), "-0.0015");
        assert_eq!(tick_label(-2.7e-20, (-1.0, 1.0), false), "0");
        assert_eq!(tick_label(3e7, (0.0, 7e7), false), "3e7");
        assert_eq!(tick_label(-13.0, (-15.0, -10.0), true), "1e-13");
        assert_eq!(tick_label(-12.5, (-15.0, -10.0), true), "3.2e-13");
    }
}
