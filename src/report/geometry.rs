//! SVG drawings of a scene's initial geometry: walls (facets, numbered when few) and balls, in
//! an oblique view and a view from above, drawn back to front.

use crate::math::{Real, Vec3};
use std::fmt::Write as _;

/// A wall to draw: name, vertices, facets.
pub type WallDrawing<'a> = (&'a str, &'a [Vec3], &'a [[u32; 3]]);

/// Facets beyond this number are drawn without their numbers.
const LABELLED_FACETS: usize = 64;

/// Two views of the scene side by side, as one `<svg>` element.
pub fn scene_svg(balls: &[(u64, Vec3, Real)], walls: &[WallDrawing]) -> String {
    let (w, h) = (420.0, 340.0);
    let oblique = {
        let (phi, eps): (Real, Real) = ((-60.0f64).to_radians(), 25.0f64.to_radians());
        let c = Vec3::new(eps.cos() * phi.cos(), eps.cos() * phi.sin(), eps.sin());
        let r = Vec3::z().cross(&c).normalize();
        (r, c.cross(&r), c)
    };
    let top = (Vec3::x(), Vec3::y(), Vec3::z());
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{h}\" viewBox=\"0 0 {} {h}\" font-family=\"sans-serif\">",
        2.0 * w + 20.0,
        2.0 * w + 20.0
    );
    for (k, (view, title)) in [
        (oblique, "oblique view"),
        (top, "from above (x right, y up)"),
    ]
    .into_iter()
    .enumerate()
    {
        let x0 = k as Real * (w + 20.0);
        let _ = write!(
            s,
            "<g transform=\"translate({x0},0)\"><rect width=\"{w}\" height=\"{h}\" fill=\"#fbfbfb\" stroke=\"#ccc\"/><text x=\"8\" y=\"16\" font-size=\"12\" fill=\"#555\">{title}</text>"
        );
        s.push_str(&view_svg(balls, walls, view, w, h));
        s.push_str("</g>");
    }
    s.push_str("</svg>");
    s
}

/// One view: `(right, up, towards the viewer)` unit vectors.
fn view_svg(
    balls: &[(u64, Vec3, Real)],
    walls: &[WallDrawing],
    (r, u, c): (Vec3, Vec3, Vec3),
    w: Real,
    h: Real,
) -> String {
    let proj = |p: &Vec3| (p.dot(&r), p.dot(&u));
    let (mut lo, mut hi) = (
        (Real::INFINITY, Real::INFINITY),
        (Real::NEG_INFINITY, Real::NEG_INFINITY),
    );
    let mut grow = |(x, y): (Real, Real), pad: Real| {
        lo = (lo.0.min(x - pad), lo.1.min(y - pad));
        hi = (hi.0.max(x + pad), hi.1.max(y + pad));
    };
    for (_, v, _) in walls {
        for p in v.iter() {
            grow(proj(p), 0.0);
        }
    }
    for (_, p, rad) in balls {
        grow(proj(p), *rad);
    }
    if !lo.0.is_finite() {
        return String::new();
    }
    let margin = 24.0;
    let span = ((hi.0 - lo.0) / (w - 2.0 * margin)).max((hi.1 - lo.1) / (h - 2.0 * margin - 16.0));
    let scale = if span > 0.0 { 1.0 / span } else { 1.0 };
    let cx = 0.5 * (lo.0 + hi.0);
    let cy = 0.5 * (lo.1 + hi.1);
    let screen = |p: &Vec3| {
        let (x, y) = proj(p);
        (w / 2.0 + (x - cx) * scale, h / 2.0 + 8.0 - (y - cy) * scale)
    };
    // Items with their depth (towards the viewer = larger): facets and balls.
    enum Item {
        Facet(usize, usize),
        Ball(usize),
    }
    let mut items: Vec<(Real, Item)> = Vec::new();
    for (wi, (_, v, f)) in walls.iter().enumerate() {
        for (fi, t) in f.iter().enumerate() {
            let centroid = (v[t[0] as usize] + v[t[1] as usize] + v[t[2] as usize]) / 3.0;
            items.push((centroid.dot(&c), Item::Facet(wi, fi)));
        }
    }
    for (bi, (_, p, _)) in balls.iter().enumerate() {
        items.push((p.dot(&c), Item::Ball(bi)));
    }
    items.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut s = String::new();
    let palette = ["#9ecae1", "#a1d99b", "#fdd0a2", "#dadaeb", "#fcbba1"];
    for (_, item) in &items {
        match *item {
            Item::Facet(wi, fi) => {
                let (_, v, f) = walls[wi];
                let t = f[fi];
                let p = t.map(|i| v[i as usize]);
                let n = (p[1] - p[0]).cross(&(p[2] - p[1]));
                let facing = n.normalize().dot(&c);
                let pts: Vec<String> = p
                    .iter()
                    .map(|q| {
                        let (x, y) = screen(q);
                        format!("{x:.1},{y:.1}")
                    })
                    .collect();
                let _ = write!(
                    s,
                    "<polygon points=\"{}\" fill=\"{}\" fill-opacity=\"{:.2}\" stroke=\"#456\" stroke-width=\"0.6\"/>",
                    pts.join(" "),
                    palette[wi % palette.len()],
                    if facing >= 0.0 { 0.75 } else { 0.35 }
                );
                if f.len() <= LABELLED_FACETS {
                    let m = (p[0] + p[1] + p[2]) / 3.0;
                    let (x, y) = screen(&m);
                    let _ = write!(
                        s,
                        "<text x=\"{x:.1}\" y=\"{y:.1}\" font-size=\"9\" fill=\"#234\" text-anchor=\"middle\">{fi}</text>"
                    );
                }
            }
            Item::Ball(bi) => {
                let (id, p, rad) = balls[bi];
                let (x, y) = screen(&p);
                let _ = write!(
                    s,
                    "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"{:.1}\" fill=\"#e6550d\" fill-opacity=\"0.55\" stroke=\"#a63603\"/><text x=\"{x:.1}\" y=\"{:.1}\" font-size=\"11\" text-anchor=\"middle\" fill=\"#fff\">{id}</text>",
                    (rad * scale).max(1.5),
                    y + 4.0
                );
            }
        }
    }
    s
}
