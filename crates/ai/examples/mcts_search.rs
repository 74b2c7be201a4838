//! One MCTS search from the first decision of a game's scenario, its root statistics
//! printed: `cargo run --release -p battlemat-ai --example mcts_search -- GAME SCENARIO N`
//! (N iterations, one tree).

#[path = "common/mod.rs"]
mod common;

use battlemat_ai::{Budget, Mcts, MctsConfig};
use battlemat_core::{Game, Next, Step};
use battlemat_dice::Roller;
use std::collections::BTreeMap;
use std::time::Instant;

fn run<G: Game>(scenario: &str, n: u32) {
    let setup = G::setup(scenario, &BTreeMap::new()).expect("scenario");
    let mut g = G::new_game(&setup).expect("setup");
    let mut r = Roller::new(7, 0);
    while let Next::Chance(o) = g.next() {
        g.apply(&Step::Roll {
            value: o.roll(&mut r),
        })
        .expect("roll");
    }
    println!("{}", g.prompt());
    let mut config = MctsConfig::new(Budget::Iterations(n));
    config.trees = 1;
    let mut m = Mcts::<G>::new(config);
    let start = Instant::now();
    let report = m.search(&g, &mut Roller::new(1, 0)).expect("a decision");
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{} iterations in {:.3} s ({:.0} a second), {} nodes, {} legal actions",
        report.iterations,
        secs,
        report.iterations as f64 / secs,
        report.nodes,
        g.legal_actions().len()
    );
    for a in report.actions.iter().take(8) {
        println!(
            "{:>8} visits  {:+.3}  {}",
            a.visits,
            a.value,
            g.describe(&a.action)
        );
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let game = args.first().map_or("swtb", String::as_str);
    let scenario = args.get(1).map_or("outpost", String::as_str);
    let n: u32 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(10_000);
    common::with_game!(game, run(scenario, n));
}
