//! SERM-POOL: "Roll a D6 per number allocated ... and re-roll any sixes, adding towards a
//! single total number." Rolled die by die (each a chance point: a six gives the same die
//! another roll), and exact distributions for the odds, cut only below 1e-12.

use crate::state::Pool;

impl Pool {
    pub fn of(dice: u8) -> Pool {
        Pool {
            left: dice,
            total: 0,
            faces: Vec::new(),
        }
    }

    /// The faces thrown, die by die: each die's throws (a six, then that die's next throw,
    /// and so on, until a throw that is not a six).
    pub fn dice(&self) -> Vec<Vec<u8>> {
        let mut out: Vec<Vec<u8>> = Vec::new();
        let mut open = false;
        for &f in &self.faces {
            if open {
                out.last_mut().expect("an open die").push(f);
            } else {
                out.push(vec![f]);
            }
            open = f == 6;
        }
        out
    }

    /// One die: a six is added and rolled again; anything else is added and the die is done.
    /// Returns the total once the last die is done.
    pub fn add(&mut self, face: u8) -> Option<u32> {
        self.total += face as u32;
        self.faces.push(face);
        if face != 6 {
            self.left = self.left.saturating_sub(1);
        }
        (self.left == 0).then_some(self.total)
    }
}

/// The exact distribution of an `n`-dice exploding pool: `p[t]` the chance of a total `t`,
/// cut where a tail is rarer than 1e-12 (that mass is dropped, so the sum is within 1e-12 of
/// one).
pub fn distribution(n: u8) -> Vec<f64> {
    // One die: 6k + r (r in 1..=5) with chance (1/6)^(k+1).
    let mut one = vec![0.0f64; 1];
    let mut k = 0;
    loop {
        let p = (1.0f64 / 6.0).powi(k + 1);
        if p < 1e-14 {
            break;
        }
        for r in 1..=5usize {
            let t = 6 * k as usize + r;
            if one.len() <= t {
                one.resize(t + 1, 0.0);
            }
            one[t] += p;
        }
        k += 1;
    }
    let mut dist = vec![1.0f64];
    for _ in 0..n {
        let mut next = vec![0.0f64; dist.len() + one.len()];
        for (a, &pa) in dist.iter().enumerate() {
            if pa == 0.0 {
                continue;
            }
            for (b, &pb) in one.iter().enumerate() {
                next[a + b] += pa * pb;
            }
        }
        while next.last().is_some_and(|&p| p < 1e-16) {
            next.pop();
        }
        dist = next;
    }
    dist
}

/// A pool's dice in words: each die's throws joined by `+` (an explosion: `6+6+2`), the dice
/// by `, `, then the total: `6+6+2, 3 = 17`; an empty pool is `no dice = 0`.
pub fn dice_text(dice: &[Vec<u8>], total: u32) -> String {
    if dice.is_empty() {
        return format!("no dice = {total}");
    }
    let each: Vec<String> = dice
        .iter()
        .map(|d| {
            d.iter()
                .map(|f| f.to_string())
                .collect::<Vec<_>>()
                .join("+")
        })
        .collect();
    format!("{} = {total}", each.join(", "))
}

/// SERM-REACT: P(a React pool of `react` dice totals more than the Move roll `total`: "if
/// the React roll is greater than the Move roll").
pub fn p_react_stops(react: u8, total: u32) -> f64 {
    p_above(react, total)
}

/// P(a pool of `dice` dice totals more than `total`). The AIs ask it at every Move awaiting
/// a React and in every playout, so the tails of the pools of up to [`TAILS_KEPT`] dice are
/// worked out once.
pub fn p_above(dice: u8, total: u32) -> f64 {
    static TAILS: std::sync::OnceLock<Vec<Vec<f64>>> = std::sync::OnceLock::new();
    let tail = |n: u8| {
        // tail[t] = P(total > t), summed from the top so the small terms go first.
        let d = distribution(n);
        let mut tail = vec![0.0; d.len()];
        let mut above = 0.0;
        for t in (0..d.len()).rev() {
            tail[t] = above;
            above += d[t];
        }
        tail
    };
    if usize::from(dice) <= TAILS_KEPT {
        let tails = TAILS.get_or_init(|| (0..=TAILS_KEPT as u8).map(tail).collect());
        tails[usize::from(dice)]
            .get(total as usize)
            .copied()
            .unwrap_or(0.0)
    } else {
        tail(dice).get(total as usize).copied().unwrap_or(0.0)
    }
}

/// The most dice whose tails [`p_above`] keeps.
pub const TAILS_KEPT: usize = 12;

/// P(a pool of `a` dice totals more than one of `b` dice) — "higher"/"greater": a tie fails.
pub fn p_greater(a: u8, b: u8) -> f64 {
    let da = distribution(a);
    let db = distribution(b);
    let mut cum = 0.0; // P(B < t)
    let mut p = 0.0;
    for (t, &pa) in da.iter().enumerate() {
        p += pa * cum;
        if t < db.len() {
            cum += db[t];
        }
    }
    p
}
