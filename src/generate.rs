//! Reproducible ball generators: where balls go, from a seed.

use crate::math::Real;
use crate::rng::SplitMix64;

/// Centres and radii of `count` balls on a jittered simple-cubic lattice inside `[min, max]`.
///
/// The lattice spacing is `s = 2.1 r_max`; sites fill x first, then y, then z (bottom-up).
/// Each ball draws its radius uniformly in `[r_min, r_max]`, then a jitter of at most
/// `a = s/2 - r_max` per axis, so two balls never come closer than `s - 2a = 2 r_max` and a ball
/// never crosses the region's faces. Draw order per ball: radius, jx, jy, jz.
///
/// # Errors
/// The number of sites when the region holds fewer than `count`.
pub fn lattice(
    count: usize,
    min: [Real; 3],
    max: [Real; 3],
    radius: [Real; 2],
    seed: u64,
) -> Result<Vec<([Real; 3], Real)>, usize> {
    let s = 2.1 * radius[1];
    // NOTE: the 1e-9 keeps a region of exactly k spacings at k sites despite round-off.
    let n = [0, 1, 2].map(|k| ((max[k] - min[k]) / s + 1e-9).floor().max(0.0) as usize);
    let sites = n[0].saturating_mul(n[1]).saturating_mul(n[2]);
    if sites < count {
        return Err(sites);
    }
    let a = 0.5 * s - radius[1];
    let mut rng = SplitMix64::new(seed);
    let mut out = Vec::with_capacity(count);
    for k in 0..count {
        let idx = [k % n[0], (k / n[0]) % n[1], k / (n[0] * n[1])];
        let r = radius[0] + (radius[1] - radius[0]) * rng.next_unit();
        let mut p = [0.0; 3];
        for d in 0..3 {
            let jitter = a * (2.0 * rng.next_unit() - 1.0);
            p[d] = min[d] + (idx[d] as Real + 0.5) * s + jitter;
        }
        out.push((p, r));
    }
    Ok(out)
}

/// Centres of `count` balls of radius `r` on a simple-cubic lattice of spacing `2 r - overlap`
/// (each ball overlaps its six neighbours by `overlap`), filling `[min, max]` from `min`, x
/// first, then y, then z.
///
/// # Errors
/// The number of sites when the region holds fewer than `count`.
pub fn cubic(
    count: usize,
    min: [Real; 3],
    max: [Real; 3],
    r: Real,
    overlap: Real,
) -> Result<Vec<([Real; 3], Real)>, usize> {
    let s = 2.0 * r - overlap;
    let n = [0, 1, 2].map(|k| {
        let room = max[k] - min[k] - 2.0 * r;
        if room < 0.0 {
            0
        } else {
            (room / s + 1e-9).floor() as usize + 1
        }
    });
    let sites = n[0].saturating_mul(n[1]).saturating_mul(n[2]);
    if sites < count {
        return Err(sites);
    }
    Ok((0..count)
        .map(|k| {
            let idx = [k % n[0], (k / n[0]) % n[1], k / (n[0] * n[1])];
            ([0, 1, 2].map(|d| min[d] + r + idx[d] as Real * s), r)
        })
        .collect())
}

/// A random cluster of `count` balls inside `[min, max]`: the first at the centre, each next
/// one (radius uniform in `radius`) placed against a random earlier ball in a uniformly random
/// direction so that the two overlap by `overlap`; a candidate that would overlap any other
/// ball by more than `overlap`, or leave the region, is drawn again. Contacts with other balls
/// (overlap up to `overlap`) close loops, so the cluster is not a tree. Draw order per
/// candidate: parent, radius, direction (two numbers: cos(polar), azimuth).
///
/// # Errors
/// A sentence when 1000 candidates in a row are rejected.
pub fn cluster(
    count: usize,
    min: [Real; 3],
    max: [Real; 3],
    radius: [Real; 2],
    overlap: Real,
    seed: u64,
) -> Result<Vec<([Real; 3], Real)>, String> {
    let mut rng = SplitMix64::new(seed);
    let centre = [0, 1, 2].map(|d| 0.5 * (min[d] + max[d]));
    let mut out: Vec<([Real; 3], Real)> = Vec::with_capacity(count);
    let r0 = radius[0] + (radius[1] - radius[0]) * rng.next_unit();
    out.push((centre, r0));
    let mut rejected = 0;
    while out.len() < count {
        let parent = ((rng.next_unit() * out.len() as Real) as usize).min(out.len() - 1);
        let r = radius[0] + (radius[1] - radius[0]) * rng.next_unit();
        let cz = 2.0 * rng.next_unit() - 1.0;
        let phi = 2.0 * crate::math::PI * rng.next_unit();
        let sz = (1.0 - cz * cz).sqrt();
        let dir = [sz * phi.cos(), sz * phi.sin(), cz];
        let (pp, rp) = out[parent];
        let dist = rp + r - overlap;
        let p = [0, 1, 2].map(|d| pp[d] + dir[d] * dist);
        let inside = (0..3).all(|d| p[d] - r >= min[d] && p[d] + r <= max[d]);
        // NOTE: 1e-12 relative slack so that the parent itself (at exactly `overlap`) passes.
        let clear = out.iter().all(|(q, rq)| {
            let d2: Real = (0..3).map(|k| (p[k] - q[k]).powi(2)).sum();
            d2.sqrt() >= (rq + r - overlap) * (1.0 - 1e-12)
        });
        if inside && clear {
            out.push((p, r));
            rejected = 0;
        } else {
            rejected += 1;
            if rejected >= 1000 {
                return Err(format!(
                    "placed only {} of {count} balls: 1000 candidates in a row overlapped or left the region",
                    out.len()
                ));
            }
        }
    }
    Ok(out)
}

/// Seed of the settle-box scene's jitter (benches/peers/SCENE.md).
pub const SETTLE_BOX_SEED: u64 = 20_240_601;
/// Ball radius of the settle-box scene, m.
pub const SETTLE_BOX_RADIUS: Real = 1.0e-3;
/// Lattice spacing of the settle-box scene, m.
pub const SETTLE_BOX_SPACING: Real = 2.5e-3;
/// Largest jitter per coordinate of the settle-box scene, m.
pub const SETTLE_BOX_JITTER: Real = 0.2e-3;

/// The settle-box scene of the peer benchmark (SCENE.md, section 2), bit for bit: `L =
/// round(sqrt(N/10))` sites per row, `nz = ceil(N/L^2)` layers filled bottom-up, particle `k`
/// at `((ix + 0.5) s + jx, (iy + 0.5) s + jy, (iz + 0.5) s + jz)` with `ix = k mod L`,
/// `iy = (k div L) mod L`, `iz = k div L^2` and `j = a (2u - 1)`, `u` drawn from SplitMix64
/// (`seed`) in the order jx, jy, jz. Returns the centres and the box `[0, L s] x [0, L s] x
/// [0, nz s]` (its upper corner).
///
/// # Examples
/// ```
/// use ballast::generate::{settle_box, SETTLE_BOX_SEED};
/// let (pos, top) = settle_box(1000, SETTLE_BOX_SEED);
/// // SCENE.md's check values: particles 0 and 1, the same for every N
/// assert_eq!(pos[0], [0.001060201393671828, 0.0013036353790122114, 0.0010533229866731167]);
/// assert_eq!(pos[1], [0.0038816461551207044, 0.0010592244196159814, 0.0010978464796703876]);
/// assert_eq!(top, [0.025, 0.025, 0.025]);
/// ```
pub fn settle_box(count: usize, seed: u64) -> (Vec<[Real; 3]>, [Real; 3]) {
    let (s, a) = (SETTLE_BOX_SPACING, SETTLE_BOX_JITTER);
    let lat = ((count as Real / 10.0).sqrt().round() as usize).max(1);
    let per_layer = lat * lat;
    let nz = count.div_ceil(per_layer);
    let mut rng = SplitMix64::new(seed);
    let mut pos = Vec::with_capacity(count);
    for k in 0..count {
        let (ix, iy, iz) = (k % lat, (k / lat) % lat, k / per_layer);
        let jx = a * (2.0 * rng.next_unit() - 1.0);
        let jy = a * (2.0 * rng.next_unit() - 1.0);
        let jz = a * (2.0 * rng.next_unit() - 1.0);
        pos.push([
            (ix as Real + 0.5) * s + jx,
            (iy as Real + 0.5) * s + jy,
            (iz as Real + 0.5) * s + jz,
        ]);
    }
    let top = [lat as Real * s, lat as Real * s, nz as Real * s];
    (pos, top)
}
