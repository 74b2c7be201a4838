//! The odds are exact: against brute force over the pools' dice, and against the referee's
//! own React roll (SERM-POOL, SHOOT, REACT).
mod common;

use battlemat_core::Game;
use battlemat_core::Ruleset;
use battlemat_core::testing::{act, roll};
use battlemat_serm::{Serm, pools};
use common::*;
use std::collections::BTreeMap;

/// P(A > B) by enumerating every sequence of faces up to twelve explosions a die (the rest is
/// below 1e-10), for one and two dice.
fn brute(a: u8, b: u8) -> f64 {
    fn die() -> Vec<(u32, f64)> {
        let mut out = Vec::new();
        for k in 0..13u32 {
            for r in 1..=5u32 {
                out.push((6 * k + r, (1.0f64 / 6.0).powi(k as i32 + 1)));
            }
        }
        out
    }
    fn pool(n: u8) -> Vec<(u32, f64)> {
        let mut acc = vec![(0u32, 1.0f64)];
        for _ in 0..n {
            let mut next = Vec::new();
            for &(t, p) in &acc {
                for &(v, q) in &die() {
                    next.push((t + v, p * q));
                }
            }
            acc = next;
        }
        acc
    }
    let (pa, pb) = (pool(a), pool(b));
    let mut p = 0.0;
    for &(x, px) in &pa {
        for &(y, py) in &pb {
            if x > y {
                p += px * py;
            }
        }
    }
    p
}

#[test]
fn serm_pool_odds_match_brute_force() {
    for (a, b) in [(1, 1), (2, 1), (1, 2), (2, 2), (0, 1), (1, 0)] {
        let exact = pools::p_greater(a, b);
        assert!((exact - brute(a, b)).abs() < 1e-8, "{a} vs {b}: {exact}");
    }
    // One die against one: P(A > B) = 3/7 exactly (ties 1/7... by symmetry (1 - P(tie)) / 2).
    let tie: f64 = pools::distribution(1).iter().map(|p| p * p).sum();
    assert!((pools::p_greater(1, 1) - (1.0 - tie) / 2.0).abs() < 1e-12);
}

#[test]
fn serm_shoot_odds_from_the_command_line_shape() {
    let p: BTreeMap<String, String> = [("shoot", "2"), ("endure", "1")]
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let o = Serm::matchup_odds(&p).unwrap();
    let sum: f64 = o.outcomes.values().sum();
    assert!((sum - 1.0).abs() < 1e-12);
    assert!((o.outcomes["eliminated"] - pools::p_greater(2, 1)).abs() < 1e-12);
    let bad: BTreeMap<String, String> = [("shoot".to_string(), "2".to_string())].into();
    assert!(Serm::matchup_odds(&bad).is_err());
}

#[test]
fn serm_react_odds_against_the_move_rolled() {
    let mut g = game(&["armor_plated@10,5"], &["ranger@20,30"], &[]);
    act(&mut g, "move u0 n");
    roll(&mut g, &[4]);
    let o = g.odds(&"react u1".parse().unwrap()).unwrap();
    // Two dice beating 4: brute force over their first two faces (sixes add, so > 4 once the
    // faces sum to 5 or more, or any six).
    let mut n = 0;
    for a in 1..=6 {
        for b in 1..=6 {
            if a == 6 || b == 6 || a + b > 4 {
                n += 1;
            }
        }
    }
    assert!((o.outcomes["stopped"] - n as f64 / 36.0).abs() < 1e-12);
}
