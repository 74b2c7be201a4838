//! Exact discrete distributions over integer outcomes.
//!
//! See the crate documentation for why the representation is a dense `Vec<f64>` and why sums
//! are computed by convolution. This module holds the representation, the statistics and the
//! convolution kernel; `pool.rs` adds the dice-pool operations (keep highest/lowest, success
//! counts).

use std::fmt;

use serde::{Deserialize, Serialize};

/// The widest range of outcomes (`max - min + 1`) that [`Dist::from_weights`] accepts.
pub const MAX_WEIGHTS_SPAN: u64 = 1 << 24;

/// An exact probability distribution over `i64` outcomes, such as the total of `3d6`.
///
/// Probabilities are `f64`; every operation (sums, keep-highest, success counts) is computed
/// exactly up to floating-point rounding, which for ordinary dice expressions leaves every
/// probability within 1e-12 of the true rational value. The outcomes with non-zero probability
/// lie in `min()..=max()`; the probabilities add up to [`Dist::total`], which is 1 up to
/// rounding.
///
/// ```
/// use battlemat_dice::{Cmp, Dist};
///
/// let d6 = Dist::die(6);
/// let three = d6.repeat_sum(3);                          // 3d6
/// assert!((three.mean() - 10.5).abs() < 1e-12);
/// let best = d6.keep_highest(4, 3);                      // 4d6kh3
/// let hits = d6.count_successes(6, Cmp::Ge, 5);          // 6d6>=5
/// let boom = Dist::exploding_die(6, 1).repeat_sum(2);    // 2d6!1
/// let odds = boom.versus(&three);                        // P(2d6!1 > 3d6), ties, losses
/// assert!((odds.win + odds.tie + odds.lose - 1.0).abs() < 1e-12);
/// assert!(best.p_ge(18) > three.p_ge(18));
/// assert_eq!((hits.min(), hits.max()), (0, 6));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Dist {
    /// The smallest outcome: `p[i]` is the probability of `lo + i`.
    lo: i64,
    /// Dense probabilities; never empty, first and last entries are non-zero.
    p: Vec<f64>,
}

/// The odds of an opposed roll, from the point of view of the first side: see [`Dist::versus`].
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Opposed {
    /// Probability that the first side rolls strictly higher.
    pub win: f64,
    /// Probability that both sides roll the same total.
    pub tie: f64,
    /// Probability that the first side rolls strictly lower.
    pub lose: f64,
}

/// A comparison against a target number, used for success counts (`6d6>=5`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Cmp {
    /// `>=`
    Ge,
    /// `>`
    Gt,
    /// `<=`
    Le,
    /// `<`
    Lt,
}

impl Cmp {
    /// Whether `value` meets the comparison against `target` (`value >= target` for [`Cmp::Ge`]).
    pub fn test(self, value: i64, target: i64) -> bool {
        match self {
            Cmp::Ge => value >= target,
            Cmp::Gt => value > target,
            Cmp::Le => value <= target,
            Cmp::Lt => value < target,
        }
    }

    /// The operator as written in dice notation: `">="`, `">"`, `"<="` or `"<"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Cmp::Ge => ">=",
            Cmp::Gt => ">",
            Cmp::Le => "<=",
            Cmp::Lt => "<",
        }
    }
}

impl fmt::Display for Cmp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a distribution could not be built.
#[derive(Clone, Debug, PartialEq)]
pub enum DistError {
    /// A weight was negative, infinite or NaN.
    BadWeight {
        /// The outcome the weight was given for.
        outcome: i64,
        /// The offending weight.
        weight: f64,
    },
    /// No outcome had a positive weight.
    NoWeight,
    /// The outcomes spread over more than [`MAX_WEIGHTS_SPAN`] integers.
    TooWide {
        /// Smallest outcome with a positive weight.
        min: i64,
        /// Largest outcome with a positive weight.
        max: i64,
    },
    /// Computing the exact distribution would take too much time or memory
    /// (see [`crate::Expr::try_dist`]).
    TooComplex {
        /// Rough number of floating-point operations it would take.
        work: f64,
        /// The limit it went over.
        limit: f64,
    },
}

impl fmt::Display for DistError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DistError::BadWeight { outcome, weight } => {
                write!(
                    f,
                    "weight {weight} for outcome {outcome} is not a finite non-negative number"
                )
            }
            DistError::NoWeight => f.write_str("no outcome has a positive weight"),
            DistError::TooWide { min, max } => write!(
                f,
                "outcomes from {min} to {max} span too many integers (at most {MAX_WEIGHTS_SPAN})"
            ),
            DistError::TooComplex { work, limit } => write!(
                f,
                "exact odds would take too long to compute (about {work:.1e} operations, limit {limit:.1e})"
            ),
        }
    }
}

impl std::error::Error for DistError {}

impl Dist {
    /// Builds from a smallest outcome and dense probabilities, trimming zero ends.
    /// `p` must hold at least one non-zero entry.
    pub(crate) fn from_parts(lo: i64, mut p: Vec<f64>) -> Dist {
        let first = p.iter().position(|&x| x != 0.0);
        let Some(first) = first else {
            // Every probability underflowed: cannot happen for distributions built from
            // non-empty dice, but stay total rather than panic.
            return Dist::constant(lo);
        };
        let last = p.iter().rposition(|&x| x != 0.0).unwrap_or(first);
        p.truncate(last + 1);
        p.drain(..first);
        Dist {
            lo: lo + first as i64,
            p,
        }
    }

    /// Always `x`.
    pub fn constant(x: i64) -> Dist {
        Dist {
            lo: x,
            p: vec![1.0],
        }
    }

    /// One fair die: `1..=sides`, each face `1/sides`. `sides == 0` is treated as 1, as
    /// [`crate::Roller::roll`] does. Memory is proportional to `sides`.
    pub fn die(sides: u32) -> Dist {
        let s = sides.max(1) as usize;
        Dist {
            lo: 1,
            p: vec![1.0 / s as f64; s],
        }
    }

    /// An exploding die: a die of `sides` faces that, each time it shows its top face, is
    /// rolled again and the new roll added, at most `depth` extra rolls (the last allowed roll
    /// is not exploded further). `depth == 0` is a plain die. This is icepool's
    /// `d(sides).explode(depth=depth)`.
    ///
    /// A one-sided die always explodes: it is the constant `depth + 1`. Memory is
    /// proportional to `sides · (depth + 1)`, except that levels whose probability
    /// underflows `f64` (beyond `(1/sides)^1074`) are left out.
    pub fn exploding_die(sides: u32, depth: u32) -> Dist {
        let s = sides.max(1) as usize;
        if s == 1 {
            return Dist::constant(i64::from(depth) + 1);
        }
        let levels = depth as usize + 1;
        let mut p = Vec::new();
        let mut q = 1.0f64;
        for level in 0..levels {
            q /= s as f64;
            if q == 0.0 {
                break;
            }
            let last = level + 1 == levels;
            // Faces 1..s-1 stop here; the top face either explodes (probability moved to the
            // next level) or, on the last level, stops too.
            p.extend(std::iter::repeat_n(q, s - 1));
            p.push(if last { q } else { 0.0 });
        }
        Dist::from_parts(1, p)
    }

    /// A distribution from `(outcome, weight)` pairs, normalised so the weights sum to 1.
    /// Repeated outcomes add up; zero weights are allowed.
    ///
    /// # Errors
    /// A negative, infinite or NaN weight; no positive weight at all; or outcomes spread
    /// over more than [`MAX_WEIGHTS_SPAN`] integers.
    pub fn from_weights<I>(weights: I) -> Result<Dist, DistError>
    where
        I: IntoIterator<Item = (i64, f64)>,
    {
        let weights: Vec<(i64, f64)> = weights.into_iter().collect();
        let mut lo = i64::MAX;
        let mut hi = i64::MIN;
        let mut wmax = 0.0f64;
        for &(outcome, weight) in &weights {
            if !(weight.is_finite() && weight >= 0.0) {
                return Err(DistError::BadWeight { outcome, weight });
            }
            if weight > 0.0 {
                lo = lo.min(outcome);
                hi = hi.max(outcome);
                wmax = wmax.max(weight);
            }
        }
        if wmax == 0.0 {
            return Err(DistError::NoWeight);
        }
        let span = (i128::from(hi) - i128::from(lo) + 1) as u128;
        if span > u128::from(MAX_WEIGHTS_SPAN) {
            return Err(DistError::TooWide { min: lo, max: hi });
        }
        let mut p = vec![0.0; span as usize];
        for &(outcome, weight) in &weights {
            if weight > 0.0 {
                // Scale by the largest weight first so huge weights cannot overflow the sum.
                p[(i128::from(outcome) - i128::from(lo)) as usize] += weight / wmax;
            }
        }
        let total: f64 = p.iter().sum();
        for x in &mut p {
            *x /= total;
        }
        Ok(Dist::from_parts(lo, p))
    }

    /// The distribution of `self + other` for independent `self` and `other`.
    ///
    /// # Panics
    /// If an outcome of the sum overflows `i64`.
    pub fn add(&self, other: &Dist) -> Dist {
        convolve(self, other)
    }

    /// The distribution of `-self`.
    ///
    /// # Panics
    /// If `self` can be `i64::MIN`.
    pub fn neg(&self) -> Dist {
        let lo = self
            .max()
            .checked_neg()
            .expect("Dist::neg: outcome i64::MIN cannot be negated");
        let mut p = self.p.clone();
        p.reverse();
        Dist { lo, p }
    }

    /// The distribution of `self - other` for independent `self` and `other`.
    ///
    /// # Panics
    /// If an outcome overflows `i64`.
    pub fn sub(&self, other: &Dist) -> Dist {
        self.add(&other.neg())
    }

    /// The sum of `n` independent copies of `self` (`n == 0` is the constant 0): `3d6` is
    /// `Dist::die(6).repeat_sum(3)`.
    ///
    /// # Panics
    /// If an outcome overflows `i64`.
    pub fn repeat_sum(&self, n: u32) -> Dist {
        // Straight convolution, one copy at a time: with one small operand each step the
        // total work (~n² · span · runs) is no worse than repeated squaring, whose last
        // products pair two wide distributions, and a fair die is a single run, so each step
        // costs only the width of the running sum.
        if n == 0 {
            return Dist::constant(0);
        }
        let mut acc = SumBuilder::new(self.clone());
        for _ in 1..n {
            acc.add(self);
        }
        acc.finish()
    }

    /// The distribution of `k · self` (`k >= 1`): `2d6x10` is `2d6` times ten, its
    /// outcomes 20, 30, … 120.
    ///
    /// # Panics
    /// If `k < 1` or an outcome overflows `i64`.
    pub fn times(&self, k: i64) -> Dist {
        assert!(k >= 1, "Dist::times: the multiplier is at least 1");
        if k == 1 {
            return self.clone();
        }
        let lo = self.lo.checked_mul(k).expect("Dist::times: overflow");
        let mut p = vec![0.0; (self.p.len() - 1) * k as usize + 1];
        for (i, &x) in self.p.iter().enumerate() {
            p[i * k as usize] = x;
        }
        Dist { lo, p }
    }

    /// The smallest outcome with non-zero probability.
    pub fn min(&self) -> i64 {
        self.lo
    }

    /// The largest outcome with non-zero probability.
    pub fn max(&self) -> i64 {
        self.lo + (self.p.len() as i64 - 1)
    }

    /// The sum of all probabilities: 1 up to rounding.
    pub fn total(&self) -> f64 {
        self.p.iter().sum()
    }

    /// The expected value.
    pub fn mean(&self) -> f64 {
        let (rel, _) = self.rel_mean();
        self.lo as f64 + rel
    }

    /// The standard deviation (population, i.e. of the distribution itself).
    pub fn std_dev(&self) -> f64 {
        let (m, total) = self.rel_mean();
        let var: f64 = self
            .p
            .iter()
            .enumerate()
            .map(|(i, &x)| {
                let d = i as f64 - m;
                x * d * d
            })
            .sum();
        (var / total).max(0.0).sqrt()
    }

    /// Mean relative to `lo`, and the total, for numerically careful moments.
    fn rel_mean(&self) -> (f64, f64) {
        let total = self.total();
        let s: f64 = self.p.iter().enumerate().map(|(i, &x)| i as f64 * x).sum();
        (s / total, total)
    }

    /// Index of outcome `x` in `p`, if it is in range.
    fn index(&self, x: i64) -> Option<usize> {
        let i = i128::from(x) - i128::from(self.lo);
        if i >= 0 && (i as u128) < self.p.len() as u128 {
            Some(i as usize)
        } else {
            None
        }
    }

    /// Probability of exactly `x`.
    pub fn p_eq(&self, x: i64) -> f64 {
        self.index(x).map_or(0.0, |i| self.p[i])
    }

    /// Probability of an outcome `>= x`.
    pub fn p_ge(&self, x: i64) -> f64 {
        if x <= self.lo {
            self.total()
        } else {
            self.index(x).map_or(0.0, |i| self.p[i..].iter().sum())
        }
    }

    /// Probability of an outcome `<= x`.
    pub fn p_le(&self, x: i64) -> f64 {
        if x >= self.max() {
            self.total()
        } else {
            self.index(x).map_or(0.0, |i| self.p[..=i].iter().sum())
        }
    }

    /// The outcomes with non-zero probability and their probabilities, smallest outcome
    /// first.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (i64, f64)> + '_ {
        let lo = self.lo;
        self.p
            .iter()
            .enumerate()
            .filter(|(_, x)| **x != 0.0)
            .map(move |(i, &x)| (lo + i as i64, x))
    }

    /// The odds of an opposed roll of `self` against an independent `other`:
    /// `win = P(self > other)`, `tie = P(self == other)`, `lose = P(self < other)`.
    pub fn versus(&self, other: &Dist) -> Opposed {
        // below[j] = P(other < other.lo + j), above[j] = P(other > other.lo + j): prefix and
        // suffix sums of non-negative terms, so no cancellation.
        let n = other.p.len();
        let mut below = vec![0.0; n + 1];
        for j in 0..n {
            below[j + 1] = below[j] + other.p[j];
        }
        let mut above = vec![0.0; n + 1];
        for j in (0..n).rev() {
            above[j] = above[j + 1] + other.p[j];
        }
        let (mut win, mut tie, mut lose) = (0.0, 0.0, 0.0);
        for (x, px) in self.iter() {
            let j = i128::from(x) - i128::from(other.lo);
            if j < 0 {
                lose += px * above[0];
            } else if j as u128 >= n as u128 {
                win += px * below[n];
            } else {
                let j = j as usize;
                win += px * below[j];
                tie += px * other.p[j];
                lose += px * above[j + 1];
            }
        }
        Opposed { win, tie, lose }
    }

    /// The number of runs of equal probability (zero runs excluded): the cost factor of
    /// using `self` as the kernel of a convolution.
    pub(crate) fn run_count(&self) -> usize {
        runs(&self.p).len()
    }
}

/// Maximal runs of equal non-zero probability: `(start, len, prob)`.
fn runs(p: &[f64]) -> Vec<(usize, usize, f64)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < p.len() {
        let q = p[i];
        let mut j = i + 1;
        while j < p.len() && p[j] == q {
            j += 1;
        }
        if q != 0.0 {
            out.push((i, j - i, q));
        }
        i = j;
    }
    out
}

/// Reusable buffers, so that adding a thousand dice one at a time to a wide running sum does
/// not allocate (and page-fault in) fresh megabytes for every die. Each is cleared and then
/// filled once by `extend`, never zero-filled first and overwritten: on a sum as wide as
/// `1000d1000` a zero-fill is a full extra pass over memory for every die.
#[derive(Default)]
struct Scratch {
    padded: Vec<f64>,
    prefix: Vec<f64>,
    suffix: Vec<f64>,
    out: Vec<f64>,
}

/// For each run `(start, len, q)` in `runs` (all of the same length `len`), adds
/// `q · W[u]` to `out[start + u]`, where `W[u] = x[u+1-len] + … + x[u]` is the sliding-window
/// sum over `x` padded with zeros, for `u` in `0..x.len()+len-1`.
///
/// Van Herk / Gil-Werman: the padded input is cut into blocks of `len`; every window is the
/// suffix sum of one block plus the prefix sum of the next (or exactly one block). Only
/// additions of non-negative numbers, so unlike the running-sum trick (add the new value,
/// subtract the old) there is no cancellation and tiny tail probabilities stay accurate to a
/// few ulps.
///
/// This is the general case, for kernels of several runs (exploding dice, pools); a kernel
/// of one run, a fair die, goes through [`stream_windows`], which gives the same numbers
/// bit for bit without the whole-width `padded`, `prefix` and `suffix` arrays.
fn add_windows(
    x: &[f64],
    len: usize,
    runs: &[(usize, usize, f64)],
    out: &mut [f64],
    s: &mut Scratch,
) {
    if len == 1 {
        for &(start, _, q) in runs {
            for (o, &v) in out[start..start + x.len()].iter_mut().zip(x) {
                *o += q * v;
            }
        }
        return;
    }
    let pad = len - 1;
    s.padded.clear();
    s.padded.extend(std::iter::repeat_n(0.0, pad));
    s.padded.extend_from_slice(x);
    s.padded.extend(std::iter::repeat_n(0.0, pad));
    s.prefix.clear();
    s.suffix.clear();
    for block in s.padded.chunks(len) {
        let mut acc = 0.0;
        s.prefix.extend(block.iter().map(|&v| {
            acc += v;
            acc
        }));
        // Suffix sums are made from the end of the block: push them backwards, then turn
        // them round in place.
        let at = s.suffix.len();
        let mut acc = 0.0;
        s.suffix.extend(block.iter().rev().map(|&v| {
            acc += v;
            acc
        }));
        s.suffix[at..].reverse();
    }
    let wlen = x.len() + pad;
    let (prefix, suffix) = (&s.prefix, &s.suffix);
    for &(start, _, q) in runs {
        let out = &mut out[start..start + wlen];
        let mut u = 0;
        while u < wlen {
            // A window starting on a block boundary is exactly that block.
            out[u] += q * prefix[u + pad];
            let end = (u + len).min(wlen);
            let rest = out[u + 1..end]
                .iter_mut()
                .zip(&suffix[u + 1..end])
                .zip(&prefix[u + 1 + pad..end + pad]);
            for ((o, &sf), &pf) in rest {
                *o += q * (sf + pf);
            }
            u = end;
        }
    }
}

/// How many blocks [`stream_windows`] scans side by side.
const STREAM_BLOCKS: usize = 4;

/// Sets `out` to `q · W`, with `W` the window sums of [`add_windows`] for windows of `len`:
/// the sum with a kernel of one run of `len` equal probabilities `q`, such as a fair die.
///
/// The same block scans as [`add_windows`], adding the same numbers in the same order (so
/// the result is identical to the last bit), but streamed: block `b`'s suffix sums and block
/// `b + 1`'s prefix sums are all that the windows starting in block `b` need, so only a few
/// blocks are held at a time, in buffers of a few `len` that stay in cache. Each die then
/// costs about one read of the running sum and one write of the new one, where
/// materialising the padded copy and its whole-width prefix and suffix arrays (each
/// zero-filled first) took seven more passes over memory.
///
/// Each scan is a chain of dependent additions, so one scan at a time runs at the latency
/// of an addition, not its throughput. [`STREAM_BLOCKS`] blocks are therefore laid side by
/// side (element `i` of every block in one row) and scanned together, prefix and suffix
/// chains in the same loop: the additions of different chains are independent, and a row
/// is a small array the compiler can keep in vector registers. Each chain still adds the
/// same numbers in the same order.
fn stream_windows(x: &[f64], len: usize, q: f64, out: &mut Vec<f64>, s: &mut Scratch) {
    const G: usize = STREAM_BLOCKS;
    out.clear();
    if len == 1 {
        out.extend(x.iter().map(|&v| q * v));
        return;
    }
    let pad = len - 1;
    let wlen = x.len() + pad;
    out.reserve(wlen);
    let Scratch {
        padded: rows,
        prefix,
        suffix,
        ..
    } = s;
    rows.clear();
    rows.resize((G + 1) * len, 0.0);
    prefix.clear();
    prefix.resize(G * len, 0.0);
    suffix.clear();
    suffix.resize(G * len, 0.0);
    let (rows, _) = rows.as_chunks_mut::<{ G + 1 }>();
    let (prefix, _) = prefix.as_chunks_mut::<G>();
    let (suffix, _) = suffix.as_chunks_mut::<G>();
    // Block `b` of the padded input (`pad` zeros, `x`, `pad` zeros, then zeros past the
    // end, which only ever follow the numbers a scan needs and so change none of them) into
    // column `k` of `rows`.
    let load = |b: usize, k: usize, rows: &mut [[f64; G + 1]]| {
        let a = b * len;
        let data =
            &x[a.saturating_sub(pad).min(x.len())..(a + len).saturating_sub(pad).min(x.len())];
        let lead = pad.saturating_sub(a).min(len);
        for row in &mut rows[..lead] {
            row[k] = 0.0;
        }
        for (row, &v) in rows[lead..].iter_mut().zip(data) {
            row[k] = v;
        }
        for row in &mut rows[lead + data.len()..] {
            row[k] = 0.0;
        }
    };
    // The whole of the first block, summed from its start: `prefix[pad]` in `add_windows`.
    load(0, 0, rows);
    let mut block_total = rows.iter().fold(0.0, |acc, row| acc + row[0]);
    let mut base = 0;
    let mut b = 0;
    while base < wlen {
        // Blocks `b..b+G` have their windows computed here, from their suffix sums and the
        // prefix sums of the block after each. The windows starting in a block lie inside
        // the padded input, so that block is whole; past the end only prefix sums run over
        // the zeros `load` adds, and only the sums before those zeros are read.
        if base >= pad && base + (G + 1) * len <= pad + x.len() {
            // Away from the ends the blocks are plain stretches of `x`: scan them in place.
            let at = base - pad;
            let cols: [&[f64]; G + 1] = std::array::from_fn(|k| &x[at + k * len..][..len]);
            scan_blocks(len, |i, k| cols[k][i], prefix, suffix);
        } else {
            for k in 0..=G {
                load(b + k, k, rows);
            }
            let rows = &*rows;
            scan_blocks(len, |i, k| rows[i][k], prefix, suffix);
        }
        for k in 0..G {
            if base >= wlen {
                break;
            }
            // A window starting on a block boundary is exactly that block.
            out.push(q * block_total);
            let m = len.min(wlen - base);
            out.extend(
                suffix[1..m]
                    .iter()
                    .zip(&prefix[..m - 1])
                    .map(|(sf, pf)| q * (sf[k] + pf[k])),
            );
            block_total = prefix[pad][k];
            base += len;
        }
        b += G;
    }
}

/// The scans of [`stream_windows`]: `prefix[i][k]` is the sum of elements `0..=i` of block
/// `k + 1` and `suffix[i][k]` that of elements `i..len` of block `k`, where `at(i, k)` is
/// element `i` of block `k`. The `2·G` chains are independent and advance together.
fn scan_blocks(
    len: usize,
    at: impl Fn(usize, usize) -> f64,
    prefix: &mut [[f64; STREAM_BLOCKS]],
    suffix: &mut [[f64; STREAM_BLOCKS]],
) {
    const G: usize = STREAM_BLOCKS;
    let mut pa = [0.0f64; G];
    let mut sa = [0.0f64; G];
    let forward = prefix[..len].iter_mut().enumerate();
    let backward = suffix[..len].iter_mut().enumerate().rev();
    for ((i, pre), (j, suf)) in forward.zip(backward) {
        for k in 0..G {
            pa[k] += at(i, k + 1);
            sa[k] += at(j, k);
        }
        *pre = pa;
        *suf = sa;
    }
}

/// A running sum of independent distributions, keeping its buffers between additions.
pub(crate) struct SumBuilder {
    lo: i64,
    /// The running sum is `p[start..]`: `lo` is the outcome of `p[start]`. Trimming
    /// underflowed zeros off the front moves `start` instead of shifting the vector down,
    /// which on a wide sum whose low tail underflows at every die was another full pass.
    p: Vec<f64>,
    start: usize,
    scratch: Scratch,
}

impl SumBuilder {
    pub(crate) fn new(start: Dist) -> SumBuilder {
        SumBuilder {
            lo: start.lo,
            p: start.p,
            start: 0,
            scratch: Scratch::default(),
        }
    }

    /// Adds an independent `d` to the running sum.
    ///
    /// The operand with fewer runs of equal probability is the kernel: each run of length
    /// `L` and probability `q` adds `q` times the length-`L` window sums of the other
    /// operand. A fair die is one run, so adding it costs O(width) rather than
    /// O(width × sides); an exploding die is about one run per level; a general
    /// distribution degrades to the ordinary O(n·m) convolution (runs of length 1, whose
    /// window sums are the operand itself).
    ///
    /// So `NdS` costs the sum of the running widths, about N²·S/2 additions: quadratic in
    /// N by nature (the sum of N dice is N·S wide, and each die touches all of it), but
    /// with nothing quadratic on top of that.
    ///
    /// # Panics
    /// If an outcome overflows `i64`.
    pub(crate) fn add(&mut self, d: &Dist) {
        let x = &self.p[self.start..];
        let lo = self
            .lo
            .checked_add(d.lo)
            .expect("Dist::add: outcome overflows i64");
        let hi = self.lo + (x.len() as i64 - 1);
        hi.checked_add(d.max())
            .expect("Dist::add: outcome overflows i64");
        let d_runs = runs(&d.p);
        let d_cost = d_runs.len() * x.len() + d.p.len();
        // Counting the running sum's runs costs a pass: only worth it if `d` is irregular.
        let own_runs = if d_runs.len() > 1 {
            Some(runs(x))
        } else {
            None
        };
        let (mut kernel, other) = match own_runs {
            Some(r) if r.len() * d.p.len() + x.len() < d_cost => (r, &d.p[..]),
            _ => (d_runs, x),
        };
        let width = x.len() + d.p.len() - 1;
        let mut out = std::mem::take(&mut self.scratch.out);
        match kernel[..] {
            // One run over the whole kernel (a trimmed distribution starts and ends on a
            // non-zero): every output is written exactly once, so no zero-fill.
            [(0, len, q)] if other.len() + len - 1 == width => {
                stream_windows(other, len, q, &mut out, &mut self.scratch);
            }
            _ => {
                out.clear();
                out.resize(width, 0.0);
                kernel.sort_by_key(|&(_, len, _)| len);
                for group in kernel.chunk_by(|x, y| x.1 == y.1) {
                    add_windows(other, group[0].1, group, &mut out, &mut self.scratch);
                }
            }
        }
        self.scratch.out = std::mem::replace(&mut self.p, out);
        self.start = 0;
        self.lo = lo;
        self.trim();
    }

    /// Drops zero (underflowed) probabilities at the ends.
    fn trim(&mut self) {
        let live = &self.p[self.start..];
        let Some(first) = live.iter().position(|&x| x != 0.0) else {
            return;
        };
        let last = live.iter().rposition(|&x| x != 0.0).unwrap_or(first);
        self.p.truncate(self.start + last + 1);
        self.start += first;
        self.lo += first as i64;
    }

    pub(crate) fn finish(mut self) -> Dist {
        // One shift at the very end, instead of one per die.
        self.p.drain(..self.start);
        Dist::from_parts(self.lo, self.p)
    }
}

/// The distribution of the sum of independent `a` and `b`.
fn convolve(a: &Dist, b: &Dist) -> Dist {
    let mut sum = SumBuilder::new(a.clone());
    sum.add(b);
    sum.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn naive_convolve(a: &Dist, b: &Dist) -> Dist {
        let mut out = vec![0.0; a.p.len() + b.p.len() - 1];
        for (i, &x) in a.p.iter().enumerate() {
            for (j, &y) in b.p.iter().enumerate() {
                out[i + j] += x * y;
            }
        }
        Dist::from_parts(a.lo + b.lo, out)
    }

    fn assert_close(a: &Dist, b: &Dist, tol: f64) {
        assert_eq!((a.min(), a.max()), (b.min(), b.max()), "{a:?} vs {b:?}");
        for x in a.min()..=a.max() {
            assert!(
                (a.p_eq(x) - b.p_eq(x)).abs() < tol,
                "at {x}: {} vs {}",
                a.p_eq(x),
                b.p_eq(x)
            );
        }
    }

    #[test]
    fn window_sums_match_naive() {
        let x = [0.5, 0.0, 0.25, 0.125, 0.0625, 0.03125, 0.0];
        for len in 1..10 {
            let mut w = vec![0.0; x.len() + len];
            add_windows(&x, len, &[(1, len, 1.0)], &mut w, &mut Scratch::default());
            assert_eq!(w[0], 0.0);
            let w = &w[1..];
            for (u, &got) in w.iter().enumerate() {
                let want: f64 = (0..x.len())
                    .filter(|&i| i <= u && i + len > u)
                    .map(|i| x[i])
                    .sum();
                assert!(
                    (got - want).abs() < 1e-15,
                    "len {len} u {u}: {got} vs {want}"
                );
            }
        }
    }

    /// The streamed kernel must give the general one's numbers to the last bit (the CLI's
    /// output is compared byte for byte), at every width around the block boundaries.
    #[test]
    fn streamed_windows_are_bit_identical() {
        let mut s = Scratch::default();
        for width in 1..60 {
            let x: Vec<f64> = (0..width)
                .map(|i| 1.0 / (1.0 + (i * 7 % 13) as f64))
                .collect();
            for len in 1..20 {
                let q = 1.0 / len as f64;
                let mut want = vec![0.0; width + len - 1];
                add_windows(&x, len, &[(0, len, q)], &mut want, &mut s);
                let mut got = Vec::new();
                stream_windows(&x, len, q, &mut got, &mut s);
                let bits = |v: &[f64]| v.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
                assert_eq!(bits(&got), bits(&want), "width {width} len {len}");
            }
        }
    }

    #[test]
    fn run_convolution_matches_naive() {
        let dists = [
            Dist::die(6),
            Dist::die(1),
            Dist::exploding_die(6, 3),
            Dist::exploding_die(4, 0),
            Dist::die(10).add(&Dist::die(4)),
            Dist::from_weights([(-3, 1.0), (0, 2.0), (4, 1.0), (5, 1.0)]).unwrap(),
            Dist::constant(7),
        ];
        for a in &dists {
            for b in &dists {
                assert_close(&a.add(b), &naive_convolve(a, b), 1e-15);
            }
        }
    }

    #[test]
    fn exploding_d6_depth_1() {
        let d = Dist::exploding_die(6, 1);
        assert_eq!((d.min(), d.max()), (1, 12));
        assert_eq!(d.p_eq(6), 0.0);
        assert!((d.p_eq(5) - 1.0 / 6.0).abs() < 1e-16);
        assert!((d.p_eq(12) - 1.0 / 36.0).abs() < 1e-16);
        assert!((d.mean() - 49.0 / 12.0).abs() < 1e-14);
        assert_eq!(Dist::exploding_die(6, 0), Dist::die(6));
        assert_eq!(Dist::exploding_die(1, 4), Dist::constant(5));
        // Absurd depths stop where the probability underflows instead of allocating forever.
        let deep = Dist::exploding_die(2, u32::MAX);
        assert!((deep.total() - 1.0).abs() < 1e-12);
        assert!(deep.max() < 4000);
    }

    #[test]
    fn from_weights_validates_and_normalises() {
        let d = Dist::from_weights([(2, 1.0), (2, 1.0), (5, 2.0), (9, 0.0)]).unwrap();
        assert_eq!((d.min(), d.max()), (2, 5));
        assert_eq!(d.p_eq(2), 0.5);
        assert!(matches!(
            Dist::from_weights([(1, -1.0)]),
            Err(DistError::BadWeight { .. })
        ));
        assert!(matches!(
            Dist::from_weights([(1, f64::NAN)]),
            Err(DistError::BadWeight { .. })
        ));
        assert_eq!(Dist::from_weights([(1, 0.0)]), Err(DistError::NoWeight));
        assert_eq!(Dist::from_weights(Vec::new()), Err(DistError::NoWeight));
        assert!(matches!(
            Dist::from_weights([(i64::MIN, 1.0), (i64::MAX, 1.0)]),
            Err(DistError::TooWide { .. })
        ));
        let big = Dist::from_weights([(0, f64::MAX), (1, f64::MAX)]).unwrap();
        assert_eq!(big.p_eq(0), 0.5);
    }

    #[test]
    fn queries_out_of_range_are_safe() {
        let d = Dist::die(6);
        assert_eq!(d.p_eq(i64::MIN), 0.0);
        assert_eq!(d.p_eq(i64::MAX), 0.0);
        assert_eq!(d.p_ge(i64::MAX), 0.0);
        assert!((d.p_ge(i64::MIN) - 1.0).abs() < 1e-15);
        assert_eq!(d.p_le(i64::MIN), 0.0);
        assert!((d.p_le(i64::MAX) - 1.0).abs() < 1e-15);
        assert!((d.p_ge(4) - 0.5).abs() < 1e-15);
        assert!((d.p_le(4) - 4.0 / 6.0).abs() < 1e-15);
        let far = Dist::constant(i64::MAX);
        assert!((d.versus(&far).lose - 1.0).abs() < 1e-15);
        assert!((far.versus(&d).win - 1.0).abs() < 1e-15);
    }

    #[test]
    fn neg_and_sub() {
        let d = Dist::die(4).sub(&Dist::constant(3));
        assert_eq!((d.min(), d.max()), (-2, 1));
        let n = Dist::die(6).neg();
        assert_eq!((n.min(), n.max()), (-6, -1));
        assert!((n.mean() + 3.5).abs() < 1e-15);
    }
}
