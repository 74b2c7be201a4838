//! Tuning MCTS: one setting against the greedy player, seats swapped every game.
//! `cargo run --release -p battlemat-ai --example mcts_vs_greedy -- GAME SCENARIO GAMES
//! ITERATIONS EXPLORATION PLAYOUT_DECISIONS` prints the MCTS player's wins, draws and losses.

#[path = "common/mod.rs"]
mod common;

use battlemat_ai::{Budget, MctsConfig, Player, PlayerKind};
use battlemat_core::{Game, Next, Step};
use battlemat_dice::Roller;
use std::collections::BTreeMap;

fn run<G: Game>(scenario: &str, games: u64, config: &MctsConfig) {
    let setup = G::setup(scenario, &BTreeMap::new()).expect("scenario");
    let (mut w, mut d, mut l) = (0, 0, 0);
    for i in 0..games {
        let me = (i % 2) as u8;
        let mut seats: Vec<Player<G>> = (0..2)
            .map(|s| {
                if s == me {
                    Player::with_mcts(config.clone())
                } else {
                    Player::new(PlayerKind::Greedy)
                }
            })
            .collect();
        let mut g = G::new_game(&setup).expect("setup");
        let mut r = Roller::new(i, 0);
        loop {
            let step = match g.next() {
                Next::Over => break,
                Next::Chance(o) => Step::Roll {
                    value: o.roll(&mut r),
                },
                Next::Decide(seat) => Step::Act {
                    seat,
                    action: seats[seat as usize % 2]
                        .choose(&g, &mut r)
                        .expect("an action"),
                },
            };
            g.apply(&step).expect("a legal step");
        }
        let res = g.result().expect("a result");
        let win = res.winners();
        if res.is_shared() || win.len() != 1 {
            d += 1;
        } else if win[0] == me {
            w += 1;
        } else {
            l += 1;
        }
    }
    println!(
        "{config:?}\n  mcts {w} won, {d} drawn, {l} lost: {:.0}% of decided",
        100.0 * w as f64 / (w + l).max(1) as f64
    );
}

fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let get = |i: usize, d: &str| a.get(i).cloned().unwrap_or_else(|| d.to_string());
    let (game, scenario) = (get(0, "swtb"), get(1, "outpost"));
    let games: u64 = get(2, "20").parse().expect("games");
    let mut config = MctsConfig::new(Budget::Iterations(
        get(3, "20000").parse().expect("iterations"),
    ));
    // Left out: the defaults.
    if let Some(c) = a.get(4) {
        config.exploration = c.parse().expect("exploration");
    }
    if let Some(p) = a.get(5) {
        config.playout_decisions = p.parse().expect("playout decisions");
    }
    common::with_game!(game.as_str(), run(&scenario, games, &config));
}
