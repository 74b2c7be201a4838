//! How much the AIs fight in A-Bao-A-Qu: `cargo run --release -p battlemat-ai --example
//! abaoaqu_fights -- SCENARIO PLAYER SEED [TURNS]` plays one game (both seats PLAYER, 15
//! turns by default) and prints the attacks declared, fired and cancelled, and the counters
//! destroyed.

#[path = "../tests/common/abq_fights.rs"]
mod abq_fights;

use battlemat_abaoaqu::AbaoAqu;
use battlemat_ai::PlayerKind;
use battlemat_core::Ruleset;
use std::collections::BTreeMap;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let scenario = args.first().map_or("s_field", String::as_str);
    let player: PlayerKind = args
        .get(1)
        .map_or("greedy", String::as_str)
        .parse()
        .expect("a player");
    let seed: u64 = args.get(2).map_or(Ok(0), |s| s.parse()).expect("a seed");
    let turns = args.get(3).map_or("15", String::as_str);
    let o: BTreeMap<String, String> = [("turns".to_string(), turns.to_string())].into();
    let setup = AbaoAqu::setup(scenario, &o).expect("a scenario");
    let t = std::time::Instant::now();
    let f = abq_fights::fights(&setup, &[player], seed);
    println!(
        "{scenario}, {player} against itself, seed {seed}, {turns} turns: {} decisions, {} declarations begun and {} given up; {} attacks declared, {} fired, {} cancelled ({} given up a second time in a phase), {} counters destroyed ({:.1} s)",
        f.decisions,
        f.begun,
        f.abandoned,
        f.declared,
        f.fired,
        f.cancelled,
        f.cancelled_twice,
        f.destroyed,
        t.elapsed().as_secs_f64()
    );
}
