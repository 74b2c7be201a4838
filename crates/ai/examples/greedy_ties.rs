//! Where greedy's values tie, which of the tied actions the `mcts` player takes: greedy
//! self-play games of a scenario, and at every Nth decision that begins a move and where
//! greedy's best value is shared, one search of the game's `mcts` player
//! ([`MctsConfig::for_game`]) from it, set beside a uniform draw among the ties.
//!
//! `cargo run --profile tune -p battlemat-ai --example greedy_ties -- GAME SCENARIO SEEDS N`
//! (`SEEDS` comma-separated, one game each) prints, for each seat and each kind of action
//! (the first word of its text: `move`, `done`, `hold` …) in decisions whose ties mix
//! kinds, how often a uniform draw would take that kind and how often the search took it;
//! and, where the actions name hexes `CCRR` after their first word (A-Bao-A-Qu's `move`
//! and `place`), the mean row the search chose against the mean of its trees' candidates
//! and of all the tied actions (docs/strength.md, "A-Bao-A-Qu: one candidate a tree").

#[path = "common/mod.rs"]
mod common;

use battlemat_ai::{DEFAULT_MCTS, Greedy, Mcts, MctsConfig, Player, PlayerKind};
use battlemat_core::{Game, Seat};
use battlemat_dice::Roller;
use std::collections::BTreeMap;

#[derive(Default)]
struct Tally {
    /// (seat, kind): decisions whose ties held it, a uniform draw's expected takes, the
    /// search's takes.
    kinds: BTreeMap<(Seat, String), (u32, f64, u32)>,
    /// (seat, first word): the rows of the tied hexes.
    rows: BTreeMap<(Seat, String), Rows>,
}

/// Sums over decisions: their number, the row chosen, the mean row of the trees'
/// candidates and of all the tied actions; how often the row chosen was higher and lower
/// than the candidates' mean.
#[derive(Default)]
struct Rows {
    decisions: u32,
    chosen: f64,
    candidates: f64,
    tied: f64,
    higher: u32,
    lower: u32,
}

fn kind(text: &str) -> String {
    text.split(' ').next().unwrap_or("").to_string()
}

/// The row of a hex named `CCRR` after the action's first word.
fn row(text: &str) -> Option<f64> {
    let hex = text.split(' ').nth(1)?;
    (hex.len() == 4).then_some(())?;
    hex.get(2..4)?.parse().ok()
}

fn mean(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len().max(1) as f64
}

fn game<G: Game>(scenario: &str, seed: u64, every: usize, tally: &mut Tally) {
    let mut options = BTreeMap::new();
    if let Some((k, v)) = G::info().safety_limit {
        options.insert(k, v);
    }
    let setup = G::setup(scenario, &options).expect("scenario");
    let mut g = G::new_game(&setup).expect("setup");
    let mut r = Roller::new(seed, 0);
    let mut players: Vec<Player<G>> = (0..g.seats())
        .map(|_| Player::new(PlayerKind::Greedy))
        .collect();
    let mut n = 0usize;
    common::play_to_end(&mut g, &mut r, |g, seat, r| {
        n += 1;
        if n.is_multiple_of(every) && !g.continues_move() {
            look::<G>(g, seat, seed, n, tally);
        }
        players[seat as usize].choose(g, r).expect("an action")
    });
}

fn look<G: Game>(g: &G, seat: Seat, seed: u64, n: usize, tally: &mut Tally) {
    let (values, _) = Greedy::default().values(g, &mut Roller::new(1, 1));
    let best = values.iter().map(|v| v.1).fold(f64::NEG_INFINITY, f64::max);
    let tied: Vec<String> = values
        .iter()
        .filter(|v| v.1 >= best - 1e-9)
        .map(|v| v.0.to_string())
        .collect();
    if tied.len() < 2 {
        return;
    }
    let mut search = Mcts::<G>::new(MctsConfig::for_game::<G>(DEFAULT_MCTS));
    let report = search
        .search(g, &mut Roller::new(seed, n as u64))
        .expect("a decision");
    let chosen = report.actions[0].action.to_string();
    let mut kinds: BTreeMap<String, u32> = BTreeMap::new();
    for t in &tied {
        *kinds.entry(kind(t)).or_default() += 1;
    }
    if kinds.len() > 1 {
        for (k, c) in &kinds {
            let e = tally.kinds.entry((seat, k.clone())).or_default();
            e.0 += 1;
            e.1 += f64::from(*c) / tied.len() as f64;
            e.2 += u32::from(kind(&chosen) == *k);
        }
    }
    let picks: Vec<f64> = report
        .actions
        .iter()
        .filter_map(|a| row(&a.action.to_string()))
        .collect();
    let all: Vec<f64> = tied.iter().filter_map(|t| row(t)).collect();
    if let (Some(c), true) = (row(&chosen), picks.len() > 1) {
        let e = tally.rows.entry((seat, kind(&chosen))).or_default();
        let p = mean(&picks);
        e.decisions += 1;
        e.chosen += c;
        e.candidates += p;
        e.tied += mean(&all);
        e.higher += u32::from(c > p + 1e-9);
        e.lower += u32::from(c < p - 1e-9);
    }
}

fn run<G: Game>(scenario: &str, seeds: &[u64], every: usize) {
    let mut tally = Tally::default();
    for &seed in seeds {
        game::<G>(scenario, seed, every, &mut tally);
    }
    println!(
        "seat kind: decisions whose ties mix kinds and hold it, a uniform draw's takes, the search's"
    );
    for ((seat, k), (d, e, c)) in &tally.kinds {
        println!("  {seat} {k}: {d}, {e:.1}, {c}");
    }
    println!(
        "seat kind: decisions, mean row chosen, of the candidates, of the tied; chosen higher, lower"
    );
    for ((seat, k), r) in &tally.rows {
        let d = f64::from(r.decisions);
        println!(
            "  {seat} {k}: {d}, {:.2}, {:.2}, {:.2}; {}, {}",
            r.chosen / d,
            r.candidates / d,
            r.tied / d,
            r.higher,
            r.lower
        );
    }
}

fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let get = |i: usize, d: &str| a.get(i).cloned().unwrap_or_else(|| d.to_string());
    let (name, scenario) = (get(0, "abaoaqu"), get(1, "s_field"));
    let seeds: Vec<u64> = get(2, "5,6,7")
        .split(',')
        .map(|s| s.parse().expect("a seed"))
        .collect();
    let every: usize = get(3, "3").parse().expect("N");
    common::with_game!(name.as_str(), run(&scenario, &seeds, every));
}
