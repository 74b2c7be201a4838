//! Intervals and ratings.
//!
//! - [`wilson`]: the Wilson score interval for a rate (good at small counts and near 0 or
//!   1, where the normal approximation is not).
//! - [`fit_elo`]: a Bradley–Terry model fitted by Newton's method. Each pair that played
//!   gets one virtual draw (a weak prior, as BayesElo uses), so a player who won every game
//!   still has a finite rating. Ratings are centred on their mean; 95 % intervals come from
//!   the inverse of the Fisher information, centred the same way.

// Small dense matrices: indices say it best.
#![allow(clippy::needless_range_loop)]

use serde::Serialize;

/// z for a two-sided 95 % interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Elo points per unit of the logistic model's natural scale (400 / ln 10).
pub const ELO_PER_NAT: f64 = 400.0 / std::f64::consts::LN_10;

/// Wilson score interval, 95 %, for `k` successes in `n` trials.
pub fn wilson(k: f64, n: f64) -> [f64; 2] {
    if n <= 0.0 {
        return [0.0, 1.0];
    }
    let z = Z95;
    let p = k / n;
    let d = 1.0 + z * z / n;
    let c = (p + z * z / (2.0 * n)) / d;
    let h = z * ((p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt()) / d;
    [(c - h).max(0.0), (c + h).min(1.0)]
}

/// Games between two players: `a`'s wins, `b`'s wins, draws.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Tally {
    pub wins: f64,
    pub losses: f64,
    pub draws: f64,
}

/// A rating and its 95 % interval, in Elo points.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Rating {
    pub elo: f64,
    pub ci95: [f64; 2],
}

/// Fit ratings to `tally[i][j]` (player i's games against j, from i's side; only i < j
/// is read). Returns one rating per player, centred on the mean.
pub fn fit_elo(tally: &[Vec<Tally>]) -> Vec<Rating> {
    let n = tally.len();
    if n == 0 {
        return Vec::new();
    }
    // Wins (draws as halves, plus the prior's half) and games, per ordered pair.
    let mut w = vec![vec![0.0; n]; n];
    let mut g = vec![vec![0.0; n]; n];
    for i in 0..n {
        for j in i + 1..n {
            let t = tally[i][j];
            let games = t.wins + t.losses + t.draws;
            if games == 0.0 {
                continue;
            }
            w[i][j] = t.wins + t.draws / 2.0 + 0.5;
            w[j][i] = t.losses + t.draws / 2.0 + 0.5;
            g[i][j] = games + 1.0;
            g[j][i] = games + 1.0;
        }
    }
    let sigma = |x: f64| 1.0 / (1.0 + (-x).exp());
    let mut r = vec![0.0; n];
    // Newton's method on players 1..n with player 0 fixed at 0 (the model is invariant to
    // a shift); the log-likelihood is concave, so it converges in a few steps.
    let mut info = vec![vec![0.0; n - 1]; n - 1];
    for _ in 0..100 {
        let mut grad = vec![0.0; n - 1];
        for row in info.iter_mut() {
            row.iter_mut().for_each(|x| *x = 0.0);
        }
        for i in 0..n {
            for j in 0..n {
                if i == j || g[i][j] == 0.0 {
                    continue;
                }
                let p = sigma(r[i] - r[j]);
                if i > 0 {
                    grad[i - 1] += w[i][j] - g[i][j] * p;
                    info[i - 1][i - 1] += g[i][j] * p * (1.0 - p);
                    if j > 0 {
                        info[i - 1][j - 1] -= g[i][j] * p * (1.0 - p);
                    }
                }
            }
        }
        let Some(step) = solve(&info, &grad) else {
            break;
        };
        let mut moved = 0.0f64;
        for k in 0..n - 1 {
            // Steps are capped: far from the optimum a full Newton step can overshoot.
            let s = step[k].clamp(-2.0, 2.0);
            r[k + 1] += s;
            moved = moved.max(s.abs());
        }
        if moved < 1e-10 {
            break;
        }
    }
    // Covariance with player 0 fixed; then centred: r' = C r with C = I - J/n.
    let cov0 = invert(&info).unwrap_or_else(|| vec![vec![0.0; n - 1]; n - 1]);
    let mut cov = vec![vec![0.0; n]; n];
    for i in 1..n {
        for j in 1..n {
            cov[i][j] = cov0[i - 1][j - 1];
        }
    }
    let mean = r.iter().sum::<f64>() / n as f64;
    let row_mean: Vec<f64> = (0..n)
        .map(|i| cov[i].iter().sum::<f64>() / n as f64)
        .collect();
    let all_mean = row_mean.iter().sum::<f64>() / n as f64;
    (0..n)
        .map(|i| {
            // Var(r_i - mean) = cov_ii - 2 mean_j cov_ij + mean_jk cov_jk.
            let var = (cov[i][i] - 2.0 * row_mean[i] + all_mean).max(0.0);
            let elo = (r[i] - mean) * ELO_PER_NAT;
            let half = Z95 * var.sqrt() * ELO_PER_NAT;
            Rating {
                elo,
                ci95: [elo - half, elo + half],
            }
        })
        .collect()
}

/// Solve `a x = b` (a small symmetric positive-definite matrix) by Gaussian elimination
/// with partial pivoting; `None` when it is singular.
pub(crate) fn solve(a: &[Vec<f64>], b: &[f64]) -> Option<Vec<f64>> {
    let n = b.len();
    let mut m: Vec<Vec<f64>> = a
        .iter()
        .zip(b)
        .map(|(row, &y)| {
            let mut r = row.clone();
            r.push(y);
            r
        })
        .collect();
    for c in 0..n {
        let p = (c..n).max_by(|&x, &y| m[x][c].abs().total_cmp(&m[y][c].abs()))?;
        if m[p][c].abs() < 1e-12 {
            return None;
        }
        m.swap(c, p);
        for r in 0..n {
            if r != c {
                let f = m[r][c] / m[c][c];
                for k in c..=n {
                    m[r][k] -= f * m[c][k];
                }
            }
        }
    }
    Some((0..n).map(|i| m[i][n] / m[i][i]).collect())
}

/// The inverse of a small matrix, column by column.
pub(crate) fn invert(a: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = a.len();
    let cols: Option<Vec<Vec<f64>>> = (0..n)
        .map(|c| {
            let e: Vec<f64> = (0..n).map(|i| f64::from(u8::from(i == c))).collect();
            solve(a, &e)
        })
        .collect();
    let cols = cols?;
    Some(
        (0..n)
            .map(|i| (0..n).map(|j| cols[j][i]).collect())
            .collect(),
    )
}

/// Pearson's chi-square test of `observed` counts against `expected` probabilities (same
/// order): the statistic, its degrees of freedom and the p-value. Outcomes expected fewer
/// than 5 times are pooled into one cell (the test's usual condition).
pub fn chi_square(observed: &[u64], expected: &[f64]) -> (f64, usize, f64) {
    let n: u64 = observed.iter().sum();
    let n = n as f64;
    let mut cells: Vec<(f64, f64)> = Vec::new();
    let mut pooled = (0.0, 0.0);
    for (&o, &p) in observed.iter().zip(expected) {
        let e = p * n;
        if e < 5.0 {
            pooled.0 += o as f64;
            pooled.1 += e;
        } else {
            cells.push((o as f64, e));
        }
    }
    if pooled.1 > 0.0 || pooled.0 > 0.0 {
        cells.push(pooled);
    }
    let stat: f64 = cells
        .iter()
        .filter(|(_, e)| *e > 0.0)
        .map(|(o, e)| (o - e) * (o - e) / e)
        .sum();
    let df = cells.len().saturating_sub(1);
    let p = if df == 0 {
        1.0
    } else {
        gamma_q(df as f64 / 2.0, stat / 2.0)
    };
    (stat, df, p)
}

/// The regularised upper incomplete gamma function Q(a, x): a series below a + 1, a
/// continued fraction above (Numerical Recipes, 6.2).
pub fn gamma_q(a: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 1.0;
    }
    let ln_front = a * x.ln() - x - ln_gamma(a);
    if x < a + 1.0 {
        let (mut sum, mut term, mut ap) = (1.0 / a, 1.0 / a, a);
        for _ in 0..10_000 {
            ap += 1.0;
            term *= x / ap;
            sum += term;
            if term.abs() < sum.abs() * 1e-15 {
                break;
            }
        }
        (1.0 - sum * ln_front.exp()).clamp(0.0, 1.0)
    } else {
        let tiny = 1e-300;
        let mut b = x + 1.0 - a;
        let mut c = 1.0 / tiny;
        let mut d = 1.0 / b;
        let mut h = d;
        for i in 1..10_000 {
            let an = -(i as f64) * (i as f64 - a);
            b += 2.0;
            d = an * d + b;
            if d.abs() < tiny {
                d = tiny;
            }
            c = b + an / c;
            if c.abs() < tiny {
                c = tiny;
            }
            d = 1.0 / d;
            let del = d * c;
            h *= del;
            if (del - 1.0).abs() < 1e-15 {
                break;
            }
        }
        (ln_front.exp() * h).clamp(0.0, 1.0)
    }
}

/// ln Γ(x) for x > 0 (Lanczos, g = 7, nine terms).
fn ln_gamma(x: f64) -> f64 {
    const C: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        // Reflection.
        let pi = std::f64::consts::PI;
        return (pi / (pi * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut a = C[0];
    let t = x + 7.5;
    for (i, c) in C.iter().enumerate().skip(1) {
        a += c / (x + i as f64);
    }
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + a.ln()
}

#[cfg(test)]
mod tests {
    #[test]
    fn chi_square_p_values_match_the_tables() {
        // The 5 % critical values: 3.841 (1 df), 5.991 (2), 11.070 (5), 18.307 (10).
        for (x, df) in [
            (3.841459, 1.0),
            (5.991465, 2.0),
            (11.070498, 5.0),
            (18.307038, 10.0),
        ] {
            let p = super::gamma_q(df / 2.0, x / 2.0);
            assert!((p - 0.05).abs() < 1e-5, "df {df}: {p}");
        }
        assert!((super::gamma_q(1.0, 1.0) - (-1.0f64).exp()).abs() < 1e-12);
        // Counts exactly as expected: statistic 0, p = 1.
        let (stat, df, p) = super::chi_square(&[50, 30, 20], &[0.5, 0.3, 0.2]);
        assert_eq!((stat, df), (0.0, 2));
        assert!((p - 1.0).abs() < 1e-12);
        // Far off: tiny p.
        let (_, _, p) = super::chi_square(&[90, 5, 5], &[0.5, 0.3, 0.2]);
        assert!(p < 1e-6);
    }

    use super::*;

    #[test]
    fn wilson_interval_matches_known_values() {
        // 50 of 100: 0.4038 .. 0.5962
        let [lo, hi] = wilson(50.0, 100.0);
        assert!((lo - 0.4038).abs() < 1e-4 && (hi - 0.5962).abs() < 1e-4);
        assert_eq!(wilson(0.0, 10.0)[0], 0.0);
    }

    fn pair(wins: f64, losses: f64, draws: f64) -> Vec<Vec<Tally>> {
        let mut t = vec![vec![Tally::default(); 2]; 2];
        t[0][1] = Tally {
            wins,
            losses,
            draws,
        };
        t
    }

    #[test]
    fn two_players_elo_gap_is_the_logit_of_the_score_with_the_prior() {
        // 75 wins of 100 (+ the prior's draw: 75.5 of 101): gap = 400 log10(75.5 / 25.5).
        let r = fit_elo(&pair(75.0, 25.0, 0.0));
        let gap = r[0].elo - r[1].elo;
        let want = 400.0 * (75.5f64 / 25.5).log10();
        assert!((gap - want).abs() < 1e-6, "{gap} vs {want}");
        assert!((r[0].elo + r[1].elo).abs() < 1e-9, "centred on the mean");
        // The interval holds the estimate and is symmetric about it.
        assert!(r[0].ci95[0] < r[0].elo && r[0].elo < r[0].ci95[1]);
        assert!(((r[0].ci95[1] - r[0].elo) - (r[0].elo - r[0].ci95[0])).abs() < 1e-9);
        // More games, a narrower interval.
        let big = fit_elo(&pair(750.0, 250.0, 0.0));
        assert!(big[0].ci95[1] - big[0].ci95[0] < r[0].ci95[1] - r[0].ci95[0]);
    }

    #[test]
    fn a_clean_sweep_has_a_finite_rating_and_equal_players_are_level() {
        let r = fit_elo(&pair(20.0, 0.0, 0.0));
        assert!(r[0].elo.is_finite() && r[0].elo > 200.0);
        let r = fit_elo(&pair(10.0, 10.0, 5.0));
        assert!(r[0].elo.abs() < 1e-9);
    }

    #[test]
    fn three_players_are_ordered_by_strength() {
        let mut t = vec![vec![Tally::default(); 3]; 3];
        t[0][1] = Tally {
            wins: 70.0,
            losses: 30.0,
            draws: 0.0,
        };
        t[0][2] = Tally {
            wins: 90.0,
            losses: 10.0,
            draws: 0.0,
        };
        t[1][2] = Tally {
            wins: 70.0,
            losses: 30.0,
            draws: 0.0,
        };
        let r = fit_elo(&t);
        assert!(r[0].elo > r[1].elo && r[1].elo > r[2].elo, "{r:?}");
        let sum: f64 = r.iter().map(|x| x.elo).sum();
        assert!(sum.abs() < 1e-6);
    }
}
