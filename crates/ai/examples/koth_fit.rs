//! King of the Hill's evaluation against who really wins: greedy self-play positions, each
//! labelled with the game's winner, fitted by logistic regression on a few features of the
//! position (seat 0's less seat 1's), and set beside the game's own evaluation read as a
//! logit. Trained on the even games, tested on the odd (a game's positions are alike).
//!
//! `cargo run --profile tune -p battlemat-ai --example koth_fit -- GAMES [seed=N]
//! [player=P]` prints the test log-loss of the evaluation and of three fitted feature sets,
//! and the fitted weights (docs/strength.md, "An evaluation fitted to self-play").

#[path = "common/mod.rs"]
#[allow(unused_macros, unused_imports)]
mod common;

use battlemat_ai::{Player, PlayerKind};
use battlemat_core::{Game, Next, Ruleset, Seat};
use battlemat_dice::Roller;
use battlemat_sd_era::SdEra;
use rayon::prelude::*;
use std::collections::BTreeMap;

/// A seat's features: its tokens, two of them, a unit standing on the hill (and stunned
/// there, and with two tokens), units standing, units an enemy can shoot (and the one on the
/// hill), the sticks from the hill summed and the nearest standing unit's, whether it is the
/// seat's turn (and it holds the hill, has taken its token), its units' actions left.
const NAMES: [&str; 14] = [
    "tokens",
    "tokens==2",
    "hill",
    "hill stunned",
    "hill&tok2",
    "standing",
    "exposed",
    "hill exposed",
    "dist sum",
    "min dist",
    "active",
    "active&hill",
    "collected",
    "actions",
];

fn per_seat(g: &SdEra, s: Seat) -> [f64; 14] {
    let mut f = [0.0; 14];
    let t = g.now.tokens[s as usize];
    f[0] = f64::from(t);
    f[1] = f64::from(u8::from(t == 2));
    let c = g.fixed.centre;
    let stick = battlemat_sd_era::data::STICK as f64;
    let mut min = f64::MAX;
    let active = g.now.active == s;
    let mut hill = false;
    for u in g.ids() {
        let x = g.unit(u);
        if x.owner != Some(s) || !x.on_table() || !x.is_unit() {
            continue;
        }
        let on = g.on_hill(u);
        if on && !x.stunned {
            f[2] = 1.0;
            hill = true;
        }
        if on && x.stunned {
            f[3] = 1.0;
        }
        if !x.stunned {
            f[5] += 1.0;
        }
        let exp = g.shootable(u);
        if exp {
            f[6] += 1.0;
            if on {
                f[7] = 1.0;
            }
        }
        let d = (((x.at.x - c.x) as f64).powi(2) + ((x.at.y - c.y) as f64).powi(2)).sqrt() / stick;
        f[8] += d;
        if !x.stunned {
            min = min.min(d);
        }
        if active {
            f[13] += f64::from(x.actions);
        }
    }
    f[4] = f64::from(u8::from(hill && t == 2));
    f[9] = if min == f64::MAX { 4.0 } else { min };
    f[10] = f64::from(u8::from(active));
    f[11] = f64::from(u8::from(active && hill));
    f[12] = f64::from(u8::from(active && g.now.collected));
    f
}

/// Seat 0's features less seat 1's.
fn features(g: &SdEra) -> [f64; 14] {
    let (a, b) = (per_seat(g, 0), per_seat(g, 1));
    std::array::from_fn(|i| a[i] - b[i])
}

fn game(
    setup: &<SdEra as Ruleset>::Setup,
    i: u64,
    seed: u64,
    kind: PlayerKind,
) -> Vec<([f64; 14], f64, f64)> {
    let mut players: Vec<Player<SdEra>> = (0..2).map(|_| Player::new(kind)).collect();
    let mut g = SdEra::new_game(setup).expect("setup");
    let mut r = Roller::new(seed, i);
    let mut seen = Vec::new();
    common::play_to_end(&mut g, &mut r, |g, seat, r| {
        if matches!(g.next(), Next::Decide(_)) {
            seen.push((features(g), g.evaluate(0)));
        }
        players[seat as usize].choose(g, r).expect("an action")
    });
    let res = g.result().expect("a result");
    if res.by_limit || res.winners().len() != 1 {
        return Vec::new();
    }
    let y = if res.winners()[0] == 0 { 1.0 } else { 0.0 };
    seen.into_iter().map(|(f, e)| (f, e, y)).collect()
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// Logistic regression by Newton's method, with a small ridge and no intercept (the
/// features are antisymmetric: seat 0's less seat 1's).
fn fit(xs: &[Vec<f64>], ys: &[f64], ridge: f64) -> Vec<f64> {
    let k = xs[0].len();
    let mut w = vec![0.0; k];
    for _ in 0..30 {
        // The gradient and the Hessian of the penalised log-loss, side by side: row i is
        // the Hessian's row i with the gradient's i-th entry after it.
        let mut m = vec![vec![0.0; k + 1]; k];
        for (x, &y) in xs.iter().zip(ys) {
            let z: f64 = x.iter().zip(&w).map(|(a, b)| a * b).sum();
            let p = sigmoid(z);
            for (row, &xi) in m.iter_mut().zip(x) {
                for (h, &xj) in row.iter_mut().zip(x) {
                    *h += p * (1.0 - p) * xi * xj;
                }
                row[k] += (p - y) * xi;
            }
        }
        for (i, (row, &wi)) in m.iter_mut().zip(&w).enumerate() {
            row[i] += ridge;
            row[k] += ridge * wi;
        }
        // Newton's step: solve H d = g by Gauss-Jordan elimination with partial pivoting.
        for c in 0..k {
            let p = (c..k)
                .max_by(|&i, &j| m[i][c].abs().total_cmp(&m[j][c].abs()))
                .unwrap_or(c);
            m.swap(c, p);
            let pivot = m[c].clone();
            if pivot[c].abs() <= 1e-12 {
                continue;
            }
            for (r, row) in m.iter_mut().enumerate() {
                if r != c {
                    let f = row[c] / pivot[c];
                    for (x, q) in row.iter_mut().zip(&pivot).skip(c) {
                        *x -= f * q;
                    }
                }
            }
        }
        for (i, (wi, row)) in w.iter_mut().zip(&m).enumerate() {
            if row[i].abs() > 1e-12 {
                *wi -= row[k] / row[i];
            }
        }
    }
    w
}

fn loss(xs: &[Vec<f64>], ys: &[f64], w: &[f64]) -> f64 {
    xs.iter()
        .zip(ys)
        .map(|(x, &y)| {
            let z: f64 = x.iter().zip(w).map(|(a, b)| a * b).sum();
            let p = sigmoid(z).clamp(1e-9, 1.0 - 1e-9);
            -(y * p.ln() + (1.0 - y) * (1.0 - p).ln())
        })
        .sum::<f64>()
        / xs.len() as f64
}

fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let games: u64 = a.first().map_or(100, |s| s.parse().expect("games"));
    let (mut seed, mut kind) = (1u64, PlayerKind::Greedy);
    for kv in a.iter().skip(1) {
        let (k, v) = kv.split_once('=').expect("key=value");
        match k {
            "seed" => seed = v.parse().expect("seed"),
            "player" => kind = v.parse().expect("player"),
            _ => panic!("{k}"),
        }
    }
    let mut options = BTreeMap::new();
    if let Some((k, v)) = SdEra::info().safety_limit {
        options.insert(k, v);
    }
    let setup = SdEra::setup("king_of_the_hill", &options).expect("scenario");
    let data: Vec<Vec<([f64; 14], f64, f64)>> = (0..games)
        .into_par_iter()
        .map(|i| game(&setup, i, seed, kind))
        .collect();
    // Train on even games, test on odd.
    let (mut xt, mut yt, mut xv, mut yv, mut ev, mut et) =
        (vec![], vec![], vec![], vec![], vec![], vec![]);
    for (i, g) in data.iter().enumerate() {
        for (f, e, y) in g {
            if i % 2 == 0 {
                xt.push(f.to_vec());
                yt.push(*y);
                et.push(vec![
                    (1.0 + e.clamp(-0.999, 0.999)) / (1.0 - e.clamp(-0.999, 0.999)),
                ]);
            } else {
                xv.push(f.to_vec());
                yv.push(*y);
                ev.push(vec![
                    (1.0 + e.clamp(-0.999, 0.999)) / (1.0 - e.clamp(-0.999, 0.999)),
                ]);
            }
        }
    }
    // The current evaluation as a logit: e = tanh(z/2) => z = ln((1+e)/(1-e)).
    let to_logit = |v: &mut Vec<Vec<f64>>| v.iter_mut().for_each(|x| x[0] = x[0].ln());
    to_logit(&mut et);
    to_logit(&mut ev);
    println!("positions: train {} test {}", xt.len(), xv.len());
    let we = fit(&et, &yt, 0.0);
    let base = -(0.5f64).ln();
    println!(
        "log-loss test: current evaluation (scaled by {:.3}) {:.4}, unscaled {:.4}, coin {base:.4}",
        we[0],
        loss(&ev, &yv, &we),
        loss(&ev, &yv, &[1.0])
    );
    let masks: [&[usize]; 3] = [
        &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13],
        &[0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13],
        &[0, 2, 5, 6, 8, 9, 10, 13],
    ];
    for m in masks {
        let pick = |v: &Vec<Vec<f64>>| -> Vec<Vec<f64>> {
            v.iter()
                .map(|x| m.iter().map(|&i| x[i]).collect())
                .collect()
        };
        let (t, v) = (pick(&xt), pick(&xv));
        let w = fit(&t, &yt, 1.0);
        println!(
            "fitted on {} features: test log-loss {:.4}",
            m.len(),
            loss(&v, &yv, &w)
        );
        for (&i, w) in m.iter().zip(&w) {
            println!("  {:>14}: {w:+.4}", NAMES[i]);
        }
    }
}
