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
    let mut out = String::new();
    if let Err(e) = draw(plot, &mut out) {
        return format!(
            "<p>plot \"{}\" could not be drawn: {e}</p>",
            super::html::esc(&plot.title)
        );
    }
    out.push_str("<div class=legend>");
    for (k, c) in plot.curves.iter().enumerate() {
        let RGBColor(r, g, b) = COLORS[k % COLORS.len()];
        let mark = if c.markers { "●" } else { "━━" };
        out.push_str(&format!(
            "<span style=\"color:rgb({r},{g},{b})\">{mark}</span> {} &nbsp; ",
            super::html::esc(&c.label)
        ));
    }
    out.push_str("</div>");
    out
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
        // NOTE: tick positions carry round-off (a zero tick may read -2.7e-20): snap values
        // below 1e-9 of the axis span to zero.
        let fmt = |log: bool, span: Real| {
            move |v: &Real| {
                if log {
                    format!("1e{v:.1}")
                } else if v.abs() < 1e-9 * span {
                    "0".to_string()
                } else {
                    format!("{v:.4e}")
                }
            }
        };
        let (fx, fy) = (fmt(plot.log_x, x1 - x0), fmt(plot.log_y, y1 - y0));
        chart
            .configure_mesh()
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
