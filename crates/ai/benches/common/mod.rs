//! What the AI benches share: their knobs and the positions they decide at.

use battlemat_core::Game;

/// A whole-number knob from the environment, or `default`.
pub fn env(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Decision states of random games of `setup`, `points` of them spread evenly.
pub fn positions<G: Game>(setup: &G::Setup, points: usize) -> Vec<G> {
    let mut all = Vec::new();
    let mut seed = 0;
    while all.len() < points * 4 && seed < 20 {
        let game = G::new_game(setup).unwrap();
        all.extend(battlemat_ai::random_decisions(game, 1000 + seed, 100_000));
        seed += 1;
    }
    let n = all.len().max(1);
    (0..points.min(all.len()))
        .map(|i| all[i * n / points.min(n)].clone())
        .collect()
}

/// The `q` quantile of `v` (the nearest rank); NaN for none.
pub fn quantile(v: &[f64], q: f64) -> f64 {
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    if s.is_empty() {
        return f64::NAN;
    }
    s[((s.len() - 1) as f64 * q).round() as usize]
}
