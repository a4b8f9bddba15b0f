//! A reproducible random-number generator: the same stream from a seed on every platform.

use crate::math::Real;

/// SplitMix64 (Steele, Lea and Flood 2014): a tiny, fast, well-mixed 64-bit generator whose
/// stream is fully determined by its seed, on every platform.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
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
