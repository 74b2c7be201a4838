//! Dice pools: keep highest / lowest, and counting successes.

use crate::dist::{Cmp, Dist};

/// Which dice of a pool count: see [`Dist::keep_highest`] and [`Dist::keep_lowest`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Keep {
    /// The `k` highest dice (`4d6kh3`).
    Highest(u32),
    /// The `k` lowest dice (`2d20kl1`).
    Lowest(u32),
}

impl Keep {
    /// How many dice are kept.
    pub fn count(self) -> u32 {
        match self {
            Keep::Highest(k) | Keep::Lowest(k) => k,
        }
    }
}

/// Binomial probabilities `P(J = j)`, `j` in `0..=n`, for `n` trials with success
/// probability `q` and failure probability `r` (passed separately: both are sums of
/// probabilities, and `1 - q` would cancel when `q` is close to 1).
///
/// Starts from 1 at the mode and walks outwards with the ratio
/// `P(j+1)/P(j) = (n-j)/(j+1) · q/r`, then normalises: no factorials, no overflow, and the
/// relative error of each term grows only with its distance from the mode (~3 ulps a step).
pub(crate) fn binomial_pmf(n: usize, q: f64, r: f64) -> Vec<f64> {
    let mut v = vec![0.0; n + 1];
    if q <= 0.0 {
        v[0] = 1.0;
        return v;
    }
    if r <= 0.0 {
        v[n] = 1.0;
        return v;
    }
    let q_share = q / (q + r);
    let mode = (((n + 1) as f64 * q_share).floor() as usize).min(n);
    let ratio = q / r;
    v[mode] = 1.0;
    for j in mode..n {
        v[j + 1] = v[j] * ((n - j) as f64 / (j + 1) as f64) * ratio;
    }
    for j in (1..=mode).rev() {
        v[j - 1] = v[j] * (j as f64 / (n - j + 1) as f64) / ratio;
    }
    let total: f64 = v.iter().sum();
    for x in &mut v {
        *x /= total;
    }
    v
}

impl Dist {
    /// The sum of the `k` highest of `n` independent rolls of `self` (`4d6kh3` is
    /// `Dist::die(6).keep_highest(4, 3)`). `k == 0` is the constant 0; `k >= n` keeps every
    /// die.
    ///
    /// Dynamic programming over the sorted multiset of rolls, never enumerating the `sⁿ`
    /// individual rolls: the outcomes are visited from the highest down; the state is how
    /// many dice (`c < k`) have shown a value above the current outcome, with the
    /// distribution of their sum. Given `c`, the other `n - c` dice are independent and each
    /// is at or below the current outcome, so the number showing exactly this outcome is
    /// binomial with probability `P(X = o) / P(X <= o)`. Once `k` dice are placed the rest
    /// cannot change the kept sum and the state is finished. Work is about
    /// `outcomes · k³ · width / 6` plus `outcomes · k · n` for the binomials.
    ///
    /// # Panics
    /// If an outcome overflows `i64`.
    pub fn keep_highest(&self, n: u32, k: u32) -> Dist {
        if k == 0 || n == 0 {
            return Dist::constant(0);
        }
        if k >= n {
            return self.repeat_sum(n);
        }
        keep_top(self, n as usize, k as usize)
    }

    /// The sum of the `k` lowest of `n` independent rolls of `self` (`5d10kl2` is
    /// `Dist::die(10).keep_lowest(5, 2)`). `k == 0` is the constant 0; `k >= n` keeps every
    /// die. Same method as [`Dist::keep_highest`], on the negated die.
    ///
    /// # Panics
    /// If an outcome overflows `i64`.
    pub fn keep_lowest(&self, n: u32, k: u32) -> Dist {
        if k == 0 || n == 0 {
            return Dist::constant(0);
        }
        if k >= n {
            return self.repeat_sum(n);
        }
        keep_top(&self.neg(), n as usize, k as usize).neg()
    }

    /// The number of `n` independent rolls of `self` that meet `cmp target`
    /// (`6d6>=5` is `Dist::die(6).count_successes(6, Cmp::Ge, 5)`): binomial, outcomes `0..=n`.
    pub fn count_successes(&self, n: u32, cmp: Cmp, target: i64) -> Dist {
        let pmf = success_pmf(self, n as usize, cmp, target);
        Dist::from_parts(0, pmf)
    }

    /// The number of the kept dice of a pool (`keep` of `n` rolls of `self`) that meet
    /// `cmp target` (`4d6kh3>=5`).
    pub(crate) fn count_kept_successes(&self, n: u32, keep: Keep, cmp: Cmp, target: i64) -> Dist {
        let k = keep.count().min(n) as usize;
        let n = n as usize;
        let pmf = success_pmf(self, n, cmp, target);
        // The successes form an upper set (>=, >) or a lower set (<=, <) of the outcomes, so
        // every success is above (or below) every failure. Keeping the k highest of an upper
        // set keeps min(k, B) successes of B; keeping the k highest when successes are the
        // lowest dice keeps what is left after the n - B failures: max(0, k - (n - B)).
        let upper = matches!(cmp, Cmp::Ge | Cmp::Gt);
        let highest = matches!(keep, Keep::Highest(_));
        let mut out = vec![0.0; k + 1];
        for (b, &p) in pmf.iter().enumerate() {
            let kept = if upper == highest {
                b.min(k)
            } else {
                (k + b).saturating_sub(n)
            };
            out[kept] += p;
        }
        Dist::from_parts(0, out)
    }
}

/// Binomial distribution of the number of `n` rolls of `die` meeting `cmp target`.
fn success_pmf(die: &Dist, n: usize, cmp: Cmp, target: i64) -> Vec<f64> {
    let (mut yes, mut no) = (0.0, 0.0);
    for (x, p) in die.iter() {
        if cmp.test(x, target) {
            yes += p;
        } else {
            no += p;
        }
    }
    binomial_pmf(n, yes, no)
}

/// Keep the `k` highest of `n` rolls of `die`, `0 < k < n`. See [`Dist::keep_highest`].
fn keep_top(die: &Dist, n: usize, k: usize) -> Dist {
    let outcomes: Vec<(i64, f64)> = die.iter().rev().collect();
    let vmin = die.min();
    let width = (die.max() - vmin) as usize;
    // at_or_below[i]: P(X <= outcomes[i]) as a sum of non-negative terms.
    let mut at_or_below = vec![0.0; outcomes.len() + 1];
    for i in (0..outcomes.len()).rev() {
        at_or_below[i] = at_or_below[i + 1] + outcomes[i].1;
    }
    // states[c][s]: probability that c dice (c < k) are above the current outcome and their
    // values, each minus vmin, sum to s.
    let mut states: Vec<Vec<f64>> = (0..k).map(|c| vec![0.0; c * width + 1]).collect();
    states[0][0] = 1.0;
    let mut alive = vec![false; k];
    alive[0] = true;
    let mut done = vec![0.0; k * width + 1];
    for (i, &(v, p)) in outcomes.iter().enumerate() {
        let u = (v - vmin) as usize;
        let here = at_or_below[i];
        let (q, r) = if i + 1 == outcomes.len() {
            (1.0, 0.0)
        } else {
            (p / here, at_or_below[i + 1] / here)
        };
        let mut next: Vec<Vec<f64>> = (0..k).map(|c| vec![0.0; c * width + 1]).collect();
        let mut next_alive = vec![false; k];
        for c in 0..k {
            if !alive[c] {
                continue;
            }
            let rem = n - c;
            let pmf = binomial_pmf(rem, q, r);
            let state = &states[c];
            // j dice of the remaining show this outcome: j < k - c leaves a partial state.
            for (j, &pj) in pmf.iter().enumerate().take(k - c) {
                if pj == 0.0 {
                    continue;
                }
                let target = &mut next[c + j][j * u..];
                for (t, &x) in target.iter_mut().zip(state) {
                    *t += pj * x;
                }
                next_alive[c + j] = true;
            }
            // j >= k - c fills the kept dice: the rest no longer matter.
            let tail: f64 = pmf[k - c..].iter().sum();
            if tail > 0.0 {
                let target = &mut done[(k - c) * u..];
                for (t, &x) in target.iter_mut().zip(state) {
                    *t += tail * x;
                }
            }
        }
        states = next;
        alive = next_alive;
    }
    let lo = vmin
        .checked_mul(k as i64)
        .expect("keep: outcome overflows i64");
    Dist::from_parts(lo, done)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Brute force over all s^n rolls of a die with equal faces.
    fn brute_keep(sides: u32, n: u32, k: usize, highest: bool) -> Dist {
        let mut weights = std::collections::BTreeMap::<i64, f64>::new();
        let total = (sides as usize).pow(n);
        for code in 0..total {
            let mut c = code;
            let mut faces: Vec<i64> = (0..n)
                .map(|_| {
                    let f = (c % sides as usize) as i64 + 1;
                    c /= sides as usize;
                    f
                })
                .collect();
            faces.sort_unstable();
            if highest {
                faces.reverse();
            }
            *weights.entry(faces[..k].iter().sum()).or_default() += 1.0;
        }
        Dist::from_weights(weights).unwrap()
    }

    #[test]
    fn keep_matches_brute_force() {
        for (sides, n, k) in [
            (6, 4, 3),
            (6, 3, 1),
            (4, 5, 2),
            (3, 6, 4),
            (2, 5, 1),
            (20, 2, 1),
        ] {
            for highest in [true, false] {
                let fast = if highest {
                    Dist::die(sides).keep_highest(n, k)
                } else {
                    Dist::die(sides).keep_lowest(n, k)
                };
                let slow = brute_keep(sides, n, k as usize, highest);
                assert_eq!((fast.min(), fast.max()), (slow.min(), slow.max()));
                for x in slow.min()..=slow.max() {
                    assert!(
                        (fast.p_eq(x) - slow.p_eq(x)).abs() < 1e-14,
                        "{sides} {n} {k} {highest} {x}"
                    );
                }
            }
        }
    }

    #[test]
    fn keep_edge_cases() {
        let d6 = Dist::die(6);
        assert_eq!(d6.keep_highest(4, 0), Dist::constant(0));
        assert_eq!(d6.keep_lowest(0, 2), Dist::constant(0));
        assert_eq!(d6.keep_highest(3, 3), d6.repeat_sum(3));
        assert_eq!(d6.keep_highest(3, 7), d6.repeat_sum(3));
        assert_eq!(Dist::constant(4).keep_highest(5, 2), Dist::constant(8));
    }

    #[test]
    fn binomial_is_exact_enough() {
        let pmf = binomial_pmf(10, 1.0 / 3.0, 2.0 / 3.0);
        // P(J = 4) = C(10,4) 2^6 / 3^10
        assert!((pmf[4] - 210.0 * 64.0 / 59049.0).abs() < 1e-16);
        assert!((pmf.iter().sum::<f64>() - 1.0).abs() < 1e-15);
        assert_eq!(binomial_pmf(3, 0.0, 1.0), vec![1.0, 0.0, 0.0, 0.0]);
        assert_eq!(binomial_pmf(3, 1.0, 0.0), vec![0.0, 0.0, 0.0, 1.0]);
        assert_eq!(binomial_pmf(0, 0.5, 0.5), vec![1.0]);
        let big = binomial_pmf(1000, 0.999, 0.001);
        assert!(big.iter().all(|x| x.is_finite()));
        assert!((big.iter().sum::<f64>() - 1.0).abs() < 1e-14);
    }

    #[test]
    fn kept_successes_match_brute_force() {
        // 4d6kh3>=5 and 4d6kl2<3 by enumeration.
        for (keep, cmp, target) in [
            (Keep::Highest(3), Cmp::Ge, 5),
            (Keep::Highest(3), Cmp::Lt, 3),
            (Keep::Lowest(2), Cmp::Lt, 3),
            (Keep::Lowest(2), Cmp::Gt, 4),
        ] {
            let mut w = [0u32; 5];
            for code in 0..6usize.pow(4) {
                let mut c = code;
                let mut faces: Vec<i64> = (0..4)
                    .map(|_| {
                        let f = (c % 6) as i64 + 1;
                        c /= 6;
                        f
                    })
                    .collect();
                faces.sort_unstable();
                let kept = match keep {
                    Keep::Highest(k) => &faces[4 - k as usize..],
                    Keep::Lowest(k) => &faces[..k as usize],
                };
                w[kept.iter().filter(|&&f| cmp.test(f, target)).count()] += 1;
            }
            let d = Dist::die(6).count_kept_successes(4, keep, cmp, target);
            for (x, &count) in w.iter().enumerate() {
                let p = f64::from(count) / 1296.0;
                assert!(
                    (d.p_eq(x as i64) - p).abs() < 1e-15,
                    "{keep:?} {cmp} {target} {x}: {} vs {p}",
                    d.p_eq(x as i64)
                );
            }
        }
    }
}
