//! The statistics and fits of the `mu_of_i` check ([`super::rheology`]): block means and their
//! standard error, the law mu(I) of Jop, Forterre and Pouliquen fitted by least squares, and
//! the straight dilatancy line phi(I).

use crate::math::Real;

/// The mean and the standard error of the means of 8 blocks.
pub fn mean_and_error(v: &[Real]) -> (Real, Real) {
    let n = v.len();
    let mean = v.iter().sum::<Real>() / n as Real;
    let blocks = 8.min(n);
    if blocks < 2 {
        return (mean, Real::NAN);
    }
    let size = n / blocks;
    let means: Vec<Real> = (0..blocks)
        .map(|b| v[b * size..(b + 1) * size].iter().sum::<Real>() / size as Real)
        .collect();
    let m = means.iter().sum::<Real>() / blocks as Real;
    let var = means.iter().map(|x| (x - m).powi(2)).sum::<Real>() / (blocks - 1) as Real;
    (mean, (var / blocks as Real).sqrt())
}

/// `mu(I) = mu_s + (mu_2 - mu_s) I / (I + I_0)`.
pub fn law(i: Real, (mu_s, mu_2, i_0): (Real, Real, Real)) -> Real {
    mu_s + (mu_2 - mu_s) * i / (i + i_0)
}

/// Least squares of `mu(I)` through the points: `(mu_s, mu_2, I_0)`.
pub fn fit(points: &[(Real, Real)]) -> (Real, Real, Real) {
    // for a given I_0 the law is linear in mu_s and mu_2 - mu_s
    let solve = |i_0: Real| {
        let (mu_s, slope, ss) = super::bagnold::fit(points, |i| i / (i + i_0));
        (mu_s, mu_s + slope, ss)
    };
    let (lo, hi) = (1e-4 as Real, 1e2 as Real);
    let grid = |k: usize| lo * (hi / lo).powf(k as Real / 600.0);
    let best = (0..=600)
        .min_by(|&a, &b| solve(grid(a)).2.total_cmp(&solve(grid(b)).2))
        .unwrap_or(0);
    // golden sections in log I_0 between the grid's neighbours
    let (mut a, mut b) = (
        grid(best.saturating_sub(1)).ln(),
        grid((best + 1).min(600)).ln(),
    );
    let g = 0.5 * (5.0 as Real).sqrt() - 0.5;
    for _ in 0..60 {
        let (c, d) = (b - g * (b - a), a + g * (b - a));
        if solve(c.exp()).2 < solve(d.exp()).2 {
            b = d;
        } else {
            a = c;
        }
    }
    let i_0 = (0.5 * (a + b)).exp();
    let (mu_s, mu_2, _) = solve(i_0);
    (mu_s, mu_2, i_0)
}

/// Straight line `phi = phi_c - a I` by least squares: `(phi_c, a)`.
pub fn dilatancy(points: &[(Real, Real)]) -> (Real, Real) {
    let (phi_c, slope, _) = super::bagnold::fit(points, |i| i);
    (phi_c, -slope)
}
