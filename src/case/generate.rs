//! Reproducible ball generators.

use crate::math::Real;

/// SplitMix64 (Steele, Lea and Flood 2014): a tiny, fast, well-mixed 64-bit generator whose
/// stream is fully determined by its seed, on every platform.
#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator starting at `seed`.
    pub fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform number in [0, 1) with 53 random bits.
    pub fn next_unit(&mut self) -> Real {
        (self.next_u64() >> 11) as Real * (1.0 / (1u64 << 53) as Real)
    }
}

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
