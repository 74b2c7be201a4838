//! Play random games of one game and scenario and report games per second, steps and
//! decisions a game, and who won (a quick look; the measured figures come from `cargo
//! bench`): `cargo run --release -p battlemat-ai --example random_games -- GAME SCENARIO N`.
#[path = "common/mod.rs"]
mod common;

use battlemat_ai::{PlayerKind, play};
use battlemat_core::Game;
use battlemat_dice::Roller;
use std::collections::BTreeMap;

fn run<G: Game>(scenario: &str, n: u64) {
    let setup = G::setup(scenario, &BTreeMap::new()).unwrap_or_else(|e| panic!("{e}"));
    let start = std::time::Instant::now();
    let (mut steps, mut decisions) = (0, 0);
    let mut wins = [0u64; 3];
    for seed in 0..n {
        let mut r = Roller::new(seed, 0);
        let p = play::<G>(&setup, &[PlayerKind::Random], &mut r, 10_000_000).unwrap();
        steps += p.steps;
        decisions += p.decisions;
        match p.result.ranks.as_slice() {
            [1, 2, ..] => wins[0] += 1,
            [2, 1, ..] => wins[1] += 1,
            _ => wins[2] += 1,
        }
    }
    let t = start.elapsed().as_secs_f64();
    println!(
        "{} {scenario}: {:.0} games/s, {} steps and {} decisions a game; seat 0 first {}, seat 1 first {}, other {}",
        G::info().id,
        n as f64 / t,
        steps as u64 / n,
        decisions as u64 / n,
        wins[0],
        wins[1],
        wins[2]
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let game = args.get(1).map_or("sd-era", String::as_str);
    let scenario = args.get(2).map_or("shooting_gallery", String::as_str);
    let n: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(500);
    common::with_game!(game, run(scenario, n));
}
