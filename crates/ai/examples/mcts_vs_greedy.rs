//! Tuning MCTS: one setting against the greedy player, seats swapped every game, games on
//! rayon's threads, the game's safety limit set (as `tournament` sets it).
//!
//! `cargo run --release -p battlemat-ai --example mcts_vs_greedy -- GAME SCENARIO GAMES
//! [key=value …]` prints the MCTS player's wins, draws, losses and unfinished games, and
//! each player's median time a decision. Keys: `budget` (a player name's budget: `2000`,
//! `1000000w`, `50ms`), `exploration`, `playouts` (random decisions played out from a leaf),
//! `trees`, `widen_k` and `widen_alpha` (progressive widening: a node tries
//! `ceil(k · visits^α)` actions), `prior` (virtual visits of greedy's value at the root; 0
//! for none), `prior_exact` and `prior_samples` (the prior's greedy: chance states weighed
//! exactly an action, chains sampled past them), `policy` (the playouts' choices: `random`,
//! `uniform`, `evaluated`, or `expected` for none, a leaf's dice weighed as greedy weighs
//! them), `choose` (`value`: the move by the blended value, not the most visits), `reuse`
//! (`0`: a fresh tree every move), `inner` (virtual visits of greedy's prior below the
//! root; 0 for none), `normalize` (`1`: UCT's values rescaled to the tree's range), `backup` (`visited`: a
//! decision's value its most visited child's, not the mean), `moves` (`steps`: the search
//! branches at every step of a move the game asks for in steps, not only where it
//! begins: [`battlemat_core::Game::continues_move`]), `own` (`1`: only the deciding seat's
//! own run of decisions searched, another seat's decision a leaf), `candidates` (the root
//! searches only greedy's N best actions), `rollouts` (no tree: greedy's N best actions
//! played out on common dice, [`MctsConfig::rollout_candidates`]; 0 for the tree), `race` (with rollouts, a candidate
//! trailing the leader by this many standard errors is dropped: [`MctsConfig::rollout_race`]), `general` (`1`: start from the general settings,
//! not the game's own: [`MctsConfig::for_game`]), `seed`,
//! `opponent` (a player name, `greedy` by default), `me` (a player name in place of the
//! MCTS setting: to measure a seat's advantage, `me=greedy`).

#[path = "common/mod.rs"]
mod common;

use battlemat_ai::{Backup, MctsConfig, Player, PlayerKind, Playouts};
use battlemat_core::Game;
use battlemat_dice::Roller;
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::time::Instant;

struct Outcome {
    /// The MCTS player's seat.
    seat: u8,
    /// 1 won, 0 drawn, -1 lost, None unfinished (the safety limit).
    mcts: Option<i8>,
    mcts_ms: Vec<f64>,
    other_ms: Vec<f64>,
}

fn one<G: Game>(
    setup: &G::Setup,
    i: u64,
    seed: u64,
    config: &MctsConfig,
    (mine, other): (Option<PlayerKind>, PlayerKind),
) -> Outcome {
    let seats = G::new_game(setup).expect("setup").seats();
    let me = (i % u64::from(seats)) as u8;
    let mut players: Vec<Player<G>> = (0..seats)
        .map(|s| {
            if s == me {
                mine.map_or_else(|| Player::with_mcts(config.clone()), Player::new)
            } else {
                Player::new(other)
            }
        })
        .collect();
    let mut g = G::new_game(setup).expect("setup");
    let mut r = Roller::new(seed, i);
    let (mut mcts_ms, mut other_ms) = (Vec::new(), Vec::new());
    common::play_to_end(&mut g, &mut r, |g, seat, r| {
        let t = Instant::now();
        let action = players[seat as usize].choose(g, r).expect("an action");
        let ms = t.elapsed().as_secs_f64() * 1e3;
        if seat == me {
            &mut mcts_ms
        } else {
            &mut other_ms
        }
        .push(ms);
        action
    });
    let res = g.result().expect("a result");
    let mcts = if res.by_limit {
        None
    } else if res.is_shared() || res.winners().len() != 1 {
        Some(0)
    } else if res.winners()[0] == me {
        Some(1)
    } else {
        Some(-1)
    };
    Outcome {
        seat: me,
        mcts,
        mcts_ms,
        other_ms,
    }
}

fn median(mut v: Vec<f64>) -> (f64, f64) {
    if v.is_empty() {
        return (0.0, 0.0);
    }
    v.sort_by(f64::total_cmp);
    (v[v.len() / 2], v[v.len() - 1])
}

fn run<G: Game>(
    scenario: &str,
    games: u64,
    seed: u64,
    keys: &[(String, String)],
    players: (Option<PlayerKind>, PlayerKind),
) {
    let config = &configure::<G>(keys);
    let other = players.1;
    let mut options = BTreeMap::new();
    if let Some((k, v)) = G::info().safety_limit {
        options.insert(k, v);
    }
    let setup = G::setup(scenario, &options).expect("scenario");
    let t = Instant::now();
    let out: Vec<Outcome> = (0..games)
        .into_par_iter()
        .map(|i| one::<G>(&setup, i, seed, config, players))
        .collect();
    let count = |x: Option<i8>| out.iter().filter(|o| o.mcts == x).count();
    let (w, d, l, u) = (count(Some(1)), count(Some(0)), count(Some(-1)), count(None));
    let (mm, mx) = median(out.iter().flat_map(|o| o.mcts_ms.clone()).collect());
    let (om, ox) = median(out.iter().flat_map(|o| o.other_ms.clone()).collect());
    println!(
        "{config:?}\n  mcts {w} won, {d} drawn, {l} lost, {u} unfinished: {:.1}% of decided; \
         ms a decision: mcts {mm:.2} (max {mx:.0}), {other} {om:.2} (max {ox:.0}); {:.0} s",
        100.0 * w as f64 / (w + l).max(1) as f64,
        t.elapsed().as_secs_f64()
    );
    let seats = out.iter().map(|o| o.seat).max().unwrap_or(0);
    for s in 0..=seats {
        let of = |x: Option<i8>| out.iter().filter(|o| o.seat == s && o.mcts == x).count();
        println!(
            "  in seat {s}: {} won, {} drawn, {} lost, {} unfinished",
            of(Some(1)),
            of(Some(0)),
            of(Some(-1)),
            of(None)
        );
    }
}

fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let get = |i: usize, d: &str| a.get(i).cloned().unwrap_or_else(|| d.to_string());
    let (game, scenario) = (get(0, "swtb"), get(1, "outpost"));
    let games: u64 = get(2, "20").parse().expect("games");
    let (mut seed, mut other, mut mine) = (1u64, PlayerKind::Greedy, None);
    let mut keys = Vec::new();
    for kv in a.iter().skip(3) {
        let (k, v) = kv.split_once('=').expect("key=value");
        match k {
            "seed" => seed = v.parse().expect("seed"),
            "opponent" => other = v.parse().expect("a player"),
            "me" => mine = Some(v.parse().expect("a player")),
            _ => keys.push((k.to_string(), v.to_string())),
        }
    }
    common::with_game!(
        game.as_str(),
        run(&scenario, games, seed, &keys, (mine, other))
    );
}

/// The `mcts` player's settings for `G` ([`MctsConfig::for_game`]), or the general ones
/// (`general=1`), and the keys over them.
fn configure<G: Game>(keys: &[(String, String)]) -> MctsConfig {
    let general = keys.iter().any(|(k, v)| k == "general" && v != "0");
    let mut config = if general {
        MctsConfig::new(battlemat_ai::DEFAULT_MCTS)
    } else {
        MctsConfig::for_game::<G>(battlemat_ai::DEFAULT_MCTS)
    };
    for (k, v) in keys {
        let v = v.as_str();
        match k.as_str() {
            "general" => {}
            "budget" => match format!("mcts:{v}").parse::<PlayerKind>().expect("budget") {
                PlayerKind::Mcts(b) => config.budget = b,
                _ => unreachable!(),
            },
            "exploration" => config.exploration = v.parse().expect("exploration"),
            "playouts" => config.playout_decisions = v.parse().expect("playouts"),
            "trees" => config.trees = v.parse().expect("trees"),
            "widen_k" => config.widen_k = v.parse().expect("widen_k"),
            "widen_alpha" => config.widen_alpha = v.parse().expect("widen_alpha"),
            "prior" => config.greedy_prior = v.parse().expect("prior"),
            "prior_exact" => config.prior_greedy.exact_limit = v.parse().expect("prior_exact"),
            "prior_samples" => config.prior_greedy.samples = v.parse().expect("prior_samples"),
            "policy" => {
                config.playouts = match v {
                    "random" => Playouts::Random,
                    "uniform" => Playouts::Uniform,
                    "evaluated" => Playouts::Evaluated,
                    "expected" => Playouts::Expected,
                    _ => panic!("policy: random, uniform, evaluated or expected"),
                }
            }
            "choose" => config.choose_by_value = v == "value",
            "reuse" => config.reuse_trees = v != "0",
            "normalize" => config.normalize = v != "0",
            "backup" => {
                config.backup = match v {
                    "mean" => Backup::Mean,
                    "visited" => Backup::MostVisited,
                    "best" => Backup::Best,
                    _ => panic!("backup: mean or visited"),
                }
            }
            "moves" => {
                config.whole_moves = match v {
                    "whole" => true,
                    "steps" => false,
                    _ => panic!("moves: whole or steps"),
                }
            }
            "own" => config.own_run = v != "0",
            "candidates" => config.root_candidates = v.parse().expect("candidates"),
            "rollouts" => config.rollout_candidates = v.parse().expect("rollouts"),
            "race" => config.rollout_race = v.parse().expect("race"),
            "inner" => config.inner_prior = v.parse().expect("inner"),
            _ => panic!("unknown key {k}"),
        }
    }
    config
}
