//! Radius distributions of inserted balls (`[[insert]] radius`, docs/CASES.md): draws from a
//! seeded stream, and the cumulative distributions by number and by mass that the insertion
//! cases test the draws against.
//!
//! Continuous distributions are truncated to `[min, max]` by drawing again (the distribution
//! of the draws that fall inside is the truncated one, exactly); by mass means weighted by
//! `r^3` (the mass of a ball of one material).

use crate::math::{Real, PI};
use crate::rng::SplitMix64;

/// A distribution of radii, m.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Radii {
    /// Every radius between `min` and `max` equally likely (by number).
    Uniform {
        /// Smallest radius, m.
        min: Real,
        /// Largest radius, m.
        max: Real,
    },
    /// The normal distribution of mean `mean` and standard deviation `std` (by number),
    /// truncated to `[min, max]`.
    Normal {
        /// Mean, m.
        mean: Real,
        /// Standard deviation, m.
        std: Real,
        /// Smallest radius, m.
        min: Real,
        /// Largest radius, m.
        max: Real,
    },
    /// The log-normal distribution: `ln r` normal with mean `ln median` and standard
    /// deviation `sigma` (by number), truncated to `[min, max]`.
    Lognormal {
        /// Median of the untruncated distribution, m.
        median: Real,
        /// Standard deviation of `ln r`.
        sigma: Real,
        /// Smallest radius, m.
        min: Real,
        /// Largest radius, m.
        max: Real,
    },
    /// A few radii with their fractions by number (summing to 1; a case's fractions by mass
    /// are turned into these, [`Radii::discrete_by_mass`]).
    Discrete {
        /// The radii, m, increasing.
        radii: Vec<Real>,
        /// The fraction of the balls of each, by number.
        fractions: Vec<Real>,
    },
}

impl Radii {
    /// A discrete distribution given by mass fractions: by number, the fraction of radius
    /// `r_k` is proportional to `m_k / r_k^3`.
    pub fn discrete_by_mass(radii: Vec<Real>, mass: &[Real]) -> Radii {
        let w: Vec<Real> = radii
            .iter()
            .zip(mass)
            .map(|(r, m)| m / (r * r * r))
            .collect();
        let total: Real = w.iter().sum();
        Radii::discrete(radii, w.iter().map(|x| x / total).collect())
    }

    /// A discrete distribution by number, sorted by radius (fractions normalized).
    pub fn discrete(radii: Vec<Real>, fractions: Vec<Real>) -> Radii {
        let total: Real = fractions.iter().sum();
        let mut pairs: Vec<(Real, Real)> = radii
            .into_iter()
            .zip(fractions.into_iter().map(|f| f / total))
            .collect();
        pairs.sort_by(|a, b| a.0.total_cmp(&b.0));
        Radii::Discrete {
            radii: pairs.iter().map(|p| p.0).collect(),
            fractions: pairs.iter().map(|p| p.1).collect(),
        }
    }

    /// Smallest and largest radius that can be drawn, m.
    pub fn range(&self) -> (Real, Real) {
        match self {
            Radii::Uniform { min, max }
            | Radii::Normal { min, max, .. }
            | Radii::Lognormal { min, max, .. } => (*min, *max),
            Radii::Discrete { radii, .. } => (radii[0], radii[radii.len() - 1]),
        }
    }

    /// The probability that an untruncated draw falls in `[min, max]` (1 for uniform and
    /// discrete): a truncation that keeps almost nothing would draw for ever.
    pub fn kept_fraction(&self) -> Real {
        match self {
            Radii::Normal {
                mean,
                std,
                min,
                max,
            } => normal_cdf((max - mean) / std) - normal_cdf((min - mean) / std),
            Radii::Lognormal {
                median,
                sigma,
                min,
                max,
            } => {
                let mu = median.ln();
                normal_cdf((max.ln() - mu) / sigma) - normal_cdf((min.ln() - mu) / sigma)
            }
            _ => 1.0,
        }
    }

    /// Draws one radius, m.
    pub fn draw(&self, rng: &mut SplitMix64) -> Real {
        match self {
            Radii::Uniform { min, max } => min + (max - min) * rng.next_unit(),
            Radii::Normal {
                mean,
                std,
                min,
                max,
            } => loop {
                let r = mean + std * standard_normal(rng);
                if r >= *min && r <= *max {
                    return r;
                }
            },
            Radii::Lognormal {
                median,
                sigma,
                min,
                max,
            } => loop {
                let r = median * (sigma * standard_normal(rng)).exp();
                if r >= *min && r <= *max {
                    return r;
                }
            },
            Radii::Discrete { radii, fractions } => {
                let u = rng.next_unit();
                let mut acc = 0.0;
                for (r, f) in radii.iter().zip(fractions) {
                    acc += f;
                    if u < acc {
                        return *r;
                    }
                }
                radii[radii.len() - 1]
            }
        }
    }

    /// The fraction of the balls (by number) with a radius at most `r`.
    pub fn cdf_number(&self, r: Real) -> Real {
        let (lo, hi) = self.range();
        if r < lo {
            return 0.0;
        }
        if r >= hi {
            return 1.0;
        }
        match self {
            Radii::Uniform { min, max } => (r - min) / (max - min),
            Radii::Normal { mean, std, min, .. } => {
                let f = |x: Real| normal_cdf((x - mean) / std);
                (f(r) - f(*min)) / self.kept_fraction()
            }
            Radii::Lognormal {
                median, sigma, min, ..
            } => {
                let f = |x: Real| normal_cdf((x.ln() - median.ln()) / sigma);
                (f(r) - f(*min)) / self.kept_fraction()
            }
            Radii::Discrete { radii, fractions } => (radii.iter().zip(fractions))
                .filter(|(x, _)| **x <= r)
                .map(|(_, f)| f)
                .sum(),
        }
    }

    /// The fraction of the mass (of balls of one material) in balls with a radius at most
    /// `r`: the distribution weighted by `r^3`.
    pub fn cdf_mass(&self, r: Real) -> Real {
        let (lo, hi) = self.range();
        if r < lo {
            return 0.0;
        }
        if r >= hi {
            return 1.0;
        }
        let part = |x: Real| self.third_moment_below(x);
        part(r) / part(hi)
    }

    /// The mean of `r^3` over the distribution, m^3 (a ball's mass over `4/3 pi rho`).
    pub fn mean_cube(&self) -> Real {
        self.third_moment_below(self.range().1)
    }

    /// The integral of `x^3` against the (truncated, by-number) distribution from its smallest
    /// radius to `r`, m^3.
    fn third_moment_below(&self, r: Real) -> Real {
        match self {
            Radii::Uniform { min, max } => (r.powi(4) - min.powi(4)) / (4.0 * (max - min)),
            Radii::Normal { mean, std, min, .. } => {
                // x = m + s t: x^3 = m^3 + 3 m^2 s t + 3 m s^2 t^2 + s^3 t^3, and the moments of
                // the standard normal density phi below t have closed forms
                let moments = |t: Real| {
                    let (p, c) = (normal_pdf(t), normal_cdf(t));
                    [c, -p, c - t * p, -(t * t + 2.0) * p]
                };
                let (a, b) = ((min - mean) / std, (r - mean) / std);
                let (ma, mb) = (moments(a), moments(b));
                let (m, s) = (*mean, *std);
                let coef = [m * m * m, 3.0 * m * m * s, 3.0 * m * s * s, s * s * s];
                (0..4).map(|k| coef[k] * (mb[k] - ma[k])).sum::<Real>() / self.kept_fraction()
            }
            Radii::Lognormal {
                median, sigma, min, ..
            } => {
                // r^3 times the log-normal density (mu, sigma) is exp(3 mu + 9 sigma^2 / 2)
                // times the log-normal density (mu + 3 sigma^2, sigma)
                let (mu, s) = (median.ln(), *sigma);
                let shifted = mu + 3.0 * s * s;
                let f = |x: Real| normal_cdf((x.ln() - shifted) / s);
                (3.0 * mu + 4.5 * s * s).exp() * (f(r) - f(*min)) / self.kept_fraction()
            }
            Radii::Discrete { radii, fractions } => (radii.iter().zip(fractions))
                .filter(|(x, _)| **x <= r)
                .map(|(x, f)| f * x * x * x)
                .sum(),
        }
    }
}

/// A standard normal number (Box and Muller): two uniform numbers, one normal kept.
fn standard_normal(rng: &mut SplitMix64) -> Real {
    // (1 - u lies in (0, 1]: its logarithm is finite)
    let u = 1.0 - rng.next_unit();
    let v = rng.next_unit();
    (-2.0 * u.ln()).sqrt() * (2.0 * PI * v).cos()
}

/// The standard normal density.
pub fn normal_pdf(t: Real) -> Real {
    (-0.5 * t * t).exp() / (2.0 * PI).sqrt()
}

/// The standard normal cumulative distribution, to about 1e-15.
pub fn normal_cdf(t: Real) -> Real {
    0.5 * erfc(-t / std::f64::consts::SQRT_2)
}

/// The complementary error function: the Maclaurin series of erf for |x| < 2.5, the
/// continued fraction of erfc (Lentz's method) beyond; both to about 1e-15 relative.
pub fn erfc(x: Real) -> Real {
    if x.is_nan() {
        return x;
    }
    if x.abs() < 2.5 {
        // erf x = 2/sqrt(pi) sum (-1)^n x^(2n+1) / (n! (2n+1))
        let (mut term, mut sum) = (x, x);
        let x2 = x * x;
        for n in 1..200 {
            term *= -x2 / n as Real;
            let add = term / (2 * n + 1) as Real;
            sum += add;
            if add.abs() < 1e-17 * sum.abs() {
                break;
            }
        }
        return 1.0 - 2.0 / PI.sqrt() * sum;
    }
    if x < 0.0 {
        return 2.0 - erfc(-x);
    }
    // erfc x = exp(-x^2)/sqrt(pi) * 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + 2/(x + ...)))))
    let tiny = 1e-300;
    let (mut f, mut c, mut d) = (x, x, 0.0);
    for k in 1..300 {
        let a = 0.5 * k as Real;
        d = x + a * d;
        d = if d.abs() < tiny { tiny } else { d };
        c = x + a / c;
        c = if c.abs() < tiny { tiny } else { c };
        d = 1.0 / d;
        let delta = c * d;
        f *= delta;
        if (delta - 1.0).abs() < 1e-16 {
            break;
        }
    }
    (-x * x).exp() / PI.sqrt() / f
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    /// erfc against values from Abramowitz and Stegun's table 7.1 and the identity
    /// erfc(-x) = 2 - erfc(x). A row: x and the table's erfc(x).
    #[rstest]
    #[case::x_0(0.0, 1.0)]
    #[case::x_0p5(0.5, 0.479_500_122_186_953_5)]
    #[case::x_1(1.0, 0.157_299_207_050_285_1)]
    #[case::x_2(2.0, 0.004_677_734_981_047_266)]
    #[case::x_2p5(2.5, 4.069_520_174_449_59e-4)]
    #[case::x_3(3.0, 2.209_049_699_858_544e-5)]
    #[case::x_5(5.0, 1.537_459_794_428_035e-12)]
    fn erfc_matches_tables(#[case] x: Real, #[case] want: Real) {
        let got = erfc(x);
        assert!(
            ((got - want) / want).abs() < 1e-13,
            "erfc({x}) = {got}, want {want}"
        );
        assert!((erfc(-x) - (2.0 - want)).abs() < 1e-15);
    }

    /// One distribution of each continuous kind.
    fn continuous() -> [Radii; 3] {
        [
            Radii::Uniform { min: 1.0, max: 2.0 },
            Radii::Normal {
                mean: 1.0,
                std: 0.2,
                min: 0.7,
                max: 1.5,
            },
            Radii::Lognormal {
                median: 1.0,
                sigma: 0.3,
                min: 0.6,
                max: 1.9,
            },
        ]
    }

    /// The by-mass distribution of each kind against a direct sum of r^3 over a fine grid of
    /// the by-number distribution's steps (an independent quadrature of its definition).
    #[test]
    fn mass_cdf_matches_a_direct_sum() {
        for d in continuous() {
            let (lo, hi) = d.range();
            let n = 20_000;
            let h = (hi - lo) / n as Real;
            // the mass in each step: r^3 times the by-number probability of the step
            let mut acc = vec![0.0; n + 1];
            for k in 0..n {
                let (a, b) = (lo + k as Real * h, lo + (k + 1) as Real * h);
                let m = 0.5 * (a + b);
                acc[k + 1] = acc[k] + m * m * m * (d.cdf_number(b) - d.cdf_number(a));
            }
            for k in [n / 10, n / 3, n / 2, 4 * n / 5] {
                let r = lo + k as Real * h;
                let want = acc[k] / acc[n];
                assert!(
                    (d.cdf_mass(r) - want).abs() < 1e-7,
                    "{d:?} at {r}: {} vs {want}",
                    d.cdf_mass(r)
                );
            }
        }
    }

    /// Draws follow their distribution: the largest gap between the empirical and the
    /// requested cumulative distribution (Kolmogorov-Smirnov) of 20,000 draws is below the
    /// 1 % critical value 1.63/sqrt(n); the discrete fractions by mass come back.
    #[test]
    fn draws_follow_the_distribution() {
        let n = 20_000;
        for d in continuous() {
            let mut rng = SplitMix64::new(9);
            let mut r: Vec<Real> = (0..n).map(|_| d.draw(&mut rng)).collect();
            r.sort_by(|a, b| a.total_cmp(b));
            let ks = (0..n)
                .map(|i| {
                    let f = d.cdf_number(r[i]);
                    (f - i as Real / n as Real)
                        .abs()
                        .max(((i + 1) as Real / n as Real - f).abs())
                })
                .fold(0.0, Real::max);
            assert!(ks < 1.63 / (n as Real).sqrt(), "{d:?}: KS {ks}");
        }
        let d = Radii::discrete_by_mass(vec![2.0, 1.0], &[0.5, 0.5]);
        // equal masses: eight small balls per large one
        let Radii::Discrete { fractions, .. } = &d else {
            unreachable!()
        };
        assert!((fractions[0] - 8.0 / 9.0).abs() < 1e-15);
        assert!((d.cdf_mass(1.0) - 0.5).abs() < 1e-15);
    }
}
