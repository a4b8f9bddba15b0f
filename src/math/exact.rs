//! Sums that do not depend on the order of their terms: [`ExactSum`] keeps the exact value of a
//! sum of `f64`s (a fixed-point accumulator wide enough for every finite `f64`) and rounds it
//! once, when it is read. Two sums of the same terms in any order, or cut into parts added on
//! different threads or processes and merged ([`ExactSum::merge`]), read the same bits. This is
//! what lets a run give the same outputs for any number of threads or ranks: every sum that
//! reaches an output or a decision goes through it.
//!
//! The value is `sum_k limb[k] 2^(32 k - 1074)`: bit 0 of limb 0 is the smallest subnormal,
//! and the top limbs leave room for the carries of the largest finite values. A term touches
//! three limbs (its 53-bit significand shifted into place spans at most 85 bits), each by less
//! than 2^32, so 2^30 terms fit in the 64-bit limbs before the carries are propagated.

use super::types::{Real, Vec3};

/// Limbs of 32 bits: 2098 bits for the finite `f64`s and two limbs of headroom for carries.
const LIMBS: usize = 68;
/// Terms added before the carries must be propagated (each limb then stays below 2^62).
const ROOM: u32 = 1 << 30;

/// The exact sum of `f64` terms, rounded once when read ([`ExactSum::value`]); module
/// documentation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExactSum {
    /// The value in fixed point, `limb[k]` weighing `2^(32 k - 1074)` (carries pending).
    limbs: [i64; LIMBS],
    /// Terms added since the carries were last propagated.
    pending: u32,
    /// The sum of the non-finite terms (infinities, NaN) as bits, if any: they decide the value.
    special: Option<u64>,
}

impl Default for ExactSum {
    fn default() -> Self {
        ExactSum {
            limbs: [0; LIMBS],
            pending: 0,
            special: None,
        }
    }
}

impl ExactSum {
    /// An empty sum (its value is 0).
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds `x` exactly.
    #[inline]
    pub fn add(&mut self, x: Real) {
        let bits = x.to_bits();
        let exponent = ((bits >> 52) & 0x7ff) as usize;
        if exponent == 0x7ff {
            let s = self.special.map_or(x, |b| Real::from_bits(b) + x);
            self.special = Some(s.to_bits());
            return;
        }
        let fraction = bits & ((1u64 << 52) - 1);
        // (a normal number has its hidden bit and the exponent above a subnormal's)
        let (m, at) = if exponent == 0 {
            (fraction, 0)
        } else {
            (fraction | 1u64 << 52, exponent - 1)
        };
        if m == 0 {
            return;
        }
        if self.pending == ROOM {
            self.carry();
        }
        self.pending += 1;
        let wide = (m as u128) << (at & 31);
        let k = at >> 5;
        let sign = if bits >> 63 == 1 { -1 } else { 1 };
        self.limbs[k] += sign * (wide as u64 & 0xffff_ffff) as i64;
        self.limbs[k + 1] += sign * ((wide >> 32) as u64 & 0xffff_ffff) as i64;
        self.limbs[k + 2] += sign * (wide >> 64) as i64;
    }

    /// Adds every term of `other` (the parts of one sum, added where they were).
    pub fn merge(&mut self, other: &ExactSum) {
        self.carry();
        let mut other = other.clone();
        other.carry();
        for (a, b) in self.limbs.iter_mut().zip(&other.limbs) {
            *a += b;
        }
        self.pending = 2;
        if let Some(b) = other.special {
            self.add(Real::from_bits(b));
        }
    }

    /// The length of [`ExactSum::to_bytes`].
    pub const BYTES: usize = LIMBS * 8 + 9;

    /// The sum as bytes (its limbs with the carries propagated, then its non-finite part), for
    /// sending to another rank; [`ExactSum::from_bytes`] reads them back.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut s = self.clone();
        s.carry();
        let mut out = Vec::with_capacity(Self::BYTES);
        s.limbs.iter().for_each(|l| out.extend(l.to_le_bytes()));
        out.push(s.special.is_some() as u8);
        out.extend(s.special.unwrap_or(0).to_le_bytes());
        out
    }

    /// The sum [`ExactSum::to_bytes`] wrote (an empty sum from fewer bytes).
    pub fn from_bytes(bytes: &[u8]) -> Self {
        let mut s = ExactSum::new();
        if bytes.len() < Self::BYTES {
            return s;
        }
        let word = |k: usize| bytes[k..k + 8].try_into().unwrap_or([0; 8]);
        for (k, l) in s.limbs.iter_mut().enumerate() {
            *l = i64::from_le_bytes(word(8 * k));
        }
        s.pending = 1;
        if bytes[LIMBS * 8] != 0 {
            s.special = Some(u64::from_le_bytes(word(LIMBS * 8 + 1)));
        }
        s
    }

    /// Propagates the carries: every limb but the last in `[0, 2^32)`, the last holding the sign.
    fn carry(&mut self) {
        for k in 0..LIMBS - 1 {
            let c = self.limbs[k] >> 32;
            self.limbs[k] -= c << 32;
            self.limbs[k + 1] += c;
        }
        self.pending = 0;
    }

    /// The sum rounded to the nearest `f64` (ties to even; a sum in the subnormal range may be
    /// a unit of the last place off, the same for any order of the terms). A sum of magnitude
    /// beyond `f64::MAX` is an infinity; with non-finite terms, their IEEE sum.
    pub fn value(&self) -> Real {
        if let Some(b) = self.special {
            return Real::from_bits(b);
        }
        let mut s = self.clone();
        s.carry();
        let negative = s.limbs[LIMBS - 1] < 0;
        if negative {
            s.limbs.iter_mut().for_each(|l| *l = -*l);
            s.carry();
        }
        let Some(top) = s.limbs.iter().rposition(|&l| l != 0) else {
            return 0.0;
        };
        // the four top limbs (128 bits, at least 97 of them significant when there are four),
        // with a sticky bit for any lower one, rounded once by the conversion
        let low = top.saturating_sub(3);
        let mut wide = 0u128;
        for k in (low..=top).rev() {
            wide = wide << 32 | s.limbs[k] as u128;
        }
        if s.limbs[..low].iter().any(|&l| l != 0) {
            wide |= 1;
        }
        let v = scale(wide as Real, 32 * low as i32 - 1074);
        if negative {
            -v
        } else {
            v
        }
    }
}

/// `x 2^e` by two exact multiplications by powers of two (one rounding at most, when the
/// result leaves the normal range).
fn scale(x: Real, e: i32) -> Real {
    let pow = |e: i32| Real::from_bits(((e + 1023) as u64) << 52);
    let half = e / 2;
    x * pow(half) * pow(e - half)
}

/// The exact sum of `terms`, rounded once ([`ExactSum`]).
pub fn exact_sum(terms: impl IntoIterator<Item = Real>) -> Real {
    let mut s = ExactSum::new();
    terms.into_iter().for_each(|x| s.add(x));
    s.value()
}

/// The exact sum of vectors `terms`, each component rounded once ([`ExactVec3`]).
pub fn exact_sum3(terms: impl IntoIterator<Item = Vec3>) -> Vec3 {
    let mut s = ExactVec3::new();
    terms.into_iter().for_each(|v| s.add(&v));
    s.value()
}

/// The exact sum of vectors, component by component ([`ExactSum`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExactVec3(pub [ExactSum; 3]);

impl ExactVec3 {
    /// An empty sum.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds `v` exactly.
    #[inline]
    pub fn add(&mut self, v: &Vec3) {
        for k in 0..3 {
            self.0[k].add(v[k]);
        }
    }

    /// Adds every term of `other`.
    pub fn merge(&mut self, other: &ExactVec3) {
        for k in 0..3 {
            self.0[k].merge(&other.0[k]);
        }
    }

    /// The sum, each component rounded once.
    pub fn value(&self) -> Vec3 {
        Vec3::new(self.0[0].value(), self.0[1].value(), self.0[2].value())
    }
}

/// The exact sum of 3x3 tensors, entry by entry ([`ExactSum`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExactTensor(pub [[ExactSum; 3]; 3]);

impl ExactTensor {
    /// An empty sum.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds the outer product `a (x) b` (entry `r, c`: `a[r] b[c]`, each product rounded once).
    #[inline]
    pub fn add_outer(&mut self, a: &Vec3, b: &Vec3) {
        for r in 0..3 {
            for c in 0..3 {
                self.0[r][c].add(a[r] * b[c]);
            }
        }
    }

    /// The sum, each entry rounded once.
    pub fn value(&self) -> [[Real; 3]; 3] {
        std::array::from_fn(|r| std::array::from_fn(|c| self.0[r][c].value()))
    }
}

#[cfg(test)]
mod tests {
    use super::{exact_sum, ExactSum, LIMBS, ROOM};

    /// SplitMix64 (the tests' own: `math` sits below `rng`).
    struct SplitMix64(u64);

    impl SplitMix64 {
        fn new(seed: u64) -> Self {
            SplitMix64(seed)
        }

        fn next_u64(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        }

        fn next_unit(&mut self) -> f64 {
            (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
        }
    }

    /// Terms `m 2^(k - 40)` with |m| < 2^52 and k in [0, 40]: their exact sum, scaled by 2^40,
    /// is an integer an `i128` holds, whose conversion to `f64` is correctly rounded (Rust's
    /// `as`). The reference is computed from that integer, not by the accumulator.
    #[test]
    fn the_sum_is_the_correctly_rounded_exact_sum() {
        let mut rng = SplitMix64::new(7);
        for trial in 0..200 {
            let n = 1 + (rng.next_u64() % 2000) as usize;
            let mut exact: i128 = 0;
            let mut terms = Vec::with_capacity(n);
            for _ in 0..n {
                let m =
                    (rng.next_u64() >> 12) as i128 * if rng.next_u64() & 1 == 1 { -1 } else { 1 };
                let k = (rng.next_u64() % 41) as i32;
                exact += m << k;
                terms.push(m as f64 * 2f64.powi(k - 40));
            }
            let reference = exact as f64 * 2f64.powi(-40);
            assert_eq!(
                exact_sum(terms.iter().copied()).to_bits(),
                reference.to_bits(),
                "trial {trial}"
            );
            // (the naive sum misses it in most trials: the reference is not a trivial one)
        }
    }

    /// Any order of the terms, and any cut into merged parts, reads the same bits; the
    /// left-to-right sum of the same terms does not.
    #[test]
    fn any_order_and_any_cut_give_the_same_bits() {
        let mut rng = SplitMix64::new(11);
        let mut terms: Vec<f64> = (0..5000)
            .map(|_| {
                let e = (rng.next_u64() % 1400) as i32 - 700;
                (rng.next_unit() - 0.5) * 2f64.powi(e)
            })
            .collect();
        terms.extend([1e300, -1e300, 5e-324, -2.5e-310, 1.0, f64::MAX, -f64::MAX]);
        let first = exact_sum(terms.iter().copied());
        let naive_first: f64 = terms.iter().sum();
        let mut naive_differs = false;
        for trial in 0..20 {
            // Fisher-Yates with the test's generator
            for i in (1..terms.len()).rev() {
                let j = (rng.next_u64() % (i as u64 + 1)) as usize;
                terms.swap(i, j);
            }
            assert_eq!(
                exact_sum(terms.iter().copied()).to_bits(),
                first.to_bits(),
                "trial {trial}"
            );
            naive_differs |= terms.iter().sum::<f64>().to_bits() != naive_first.to_bits();
            let cut = (rng.next_u64() % terms.len() as u64) as usize;
            let (mut a, mut b) = (ExactSum::new(), ExactSum::new());
            terms[..cut].iter().for_each(|&x| a.add(x));
            terms[cut..].iter().for_each(|&x| b.add(x));
            b.merge(&a);
            assert_eq!(b.value().to_bits(), first.to_bits());
        }
        assert!(
            naive_differs,
            "the terms should be ones whose order matters to a plain sum"
        );
    }

    #[test]
    fn cancellation_and_range_are_exact() {
        assert_eq!(exact_sum([1e308, 1.0, -1e308]), 1.0);
        assert_eq!(exact_sum([f64::MAX, f64::MAX, -f64::MAX]), f64::MAX);
        assert_eq!(exact_sum([f64::MAX, f64::MAX]), f64::INFINITY);
        assert_eq!(exact_sum([-f64::MAX, -f64::MAX]), f64::NEG_INFINITY);
        assert_eq!(exact_sum([5e-324, 5e-324, -5e-324]), 5e-324);
        // (0.1 + 0.2 - 0.3 of the doubles nearest each is 2^-55 exactly; the plain sum gives 2^-54)
        assert_eq!(exact_sum([0.1, 0.2, -0.3]), 2f64.powi(-55));
        assert_eq!(exact_sum([]), 0.0);
        assert_eq!(exact_sum([-3.0, 1.0]), -2.0);
        // ties to even at 2^53: 2^53 + 1 is halfway, rounds to 2^53; a sticky bit far below breaks the tie
        let big = 2f64.powi(53);
        assert_eq!(exact_sum([big, 1.0]), big);
        assert_eq!(exact_sum([big, 1.0, 2f64.powi(-900)]), big + 2.0);
    }

    #[test]
    fn non_finite_terms_decide() {
        assert_eq!(exact_sum([1.0, f64::INFINITY]), f64::INFINITY);
        assert!(exact_sum([f64::INFINITY, 2.0, f64::NEG_INFINITY]).is_nan());
        assert!(exact_sum([f64::NAN, 1.0]).is_nan());
    }

    /// After `ROOM` terms the carries are propagated before the next: a limb set near the top
    /// of its range (as after many terms) would wrap on the next few additions otherwise.
    #[test]
    fn the_carries_keep_the_limbs_in_range() {
        let mut s = ExactSum::new();
        s.limbs[10] = i64::MAX - 2 * (1i64 << 32);
        s.pending = ROOM;
        let x = f64::from_bits(((10 * 32 + 1) as u64) << 52 | ((1u64 << 52) - 1));
        for _ in 0..5 {
            s.add(x);
        }
        assert!(s.limbs.iter().all(|l| l.unsigned_abs() < 1 << 62));
        assert_eq!(s.limbs.len(), LIMBS);
    }
}
