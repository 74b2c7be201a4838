//! One greedy decision in every game and scenario, the default player against the
//! exhaustive one it replaced (the peer, measured in the same run on the same positions).
//!
//! Positions: decisions spread evenly through random games of each scenario (seeded), so
//! openings, middles and ends are all measured. For each player it prints the median, the
//! 90th percentile and the slowest decision in milliseconds, the most chance states its memo
//! held at once (memory: each is one cloned state), the share of actions whose dice were
//! sampled.
//!
//! `cargo bench -p battlemat-ai --bench greedy` (BATTLEMAT_BENCH_POINTS positions a scenario,
//! default 12; BATTLEMAT_BENCH_EXHAUSTIVE=0 skips the peer, which takes seconds and
//! gigabytes a decision in the largest scenarios; BATTLEMAT_BENCH_ONLY=sd-era filters;
//! BATTLEMAT_GREEDY_EXACT and BATTLEMAT_GREEDY_SAMPLES try other settings in the first row;
//! BATTLEMAT_BENCH_MCTS=1 adds a row for the default MCTS player, `mcts`, searching each
//! position afresh — run with RAYON_NUM_THREADS=1 for one core).
use battlemat_ai::{DEFAULT_MCTS, Greedy, GreedyStats, Mcts, MctsConfig};
use battlemat_core::Game;
use battlemat_dice::Roller;
use std::collections::BTreeMap;
use std::time::Instant;

mod common;
use common::{env, positions, quantile};

struct Row {
    millis: Vec<f64>,
    peak_memo: usize,
    actions: usize,
    sampled: usize,
}

fn measure<G: Game>(player: Greedy, states: &[G]) -> Row {
    let mut row = Row {
        millis: vec![],
        peak_memo: 0,
        actions: 0,
        sampled: 0,
    };
    for (i, g) in states.iter().enumerate() {
        let mut r = Roller::new(7, i as u64);
        let t = Instant::now();
        let (values, stats): (_, GreedyStats) = player.values(g, &mut r);
        row.millis.push(t.elapsed().as_secs_f64() * 1e3);
        row.peak_memo = row.peak_memo.max(stats.peak_memo);
        row.actions += stats.actions;
        row.sampled += stats.sampled_actions;
        std::hint::black_box(values);
    }
    row
}

/// The default MCTS player's search from each position, a fresh player each time.
fn measure_mcts<G: Game>(states: &[G]) -> Row {
    let mut row = Row {
        millis: vec![],
        peak_memo: 0,
        actions: 0,
        sampled: 0,
    };
    for (i, g) in states.iter().enumerate() {
        let mut m = Mcts::<G>::new(MctsConfig::for_game::<G>(DEFAULT_MCTS));
        let t = Instant::now();
        std::hint::black_box(m.search(g, &mut Roller::new(7, i as u64)));
        row.millis.push(t.elapsed().as_secs_f64() * 1e3);
    }
    row
}

fn print(label: &str, row: &Row) {
    println!(
        "  {label:<11} median {:>9.2} ms  p90 {:>9.2} ms  max {:>9.2} ms  peak memo {:>7}  sampled {:>5.1}%",
        quantile(&row.millis, 0.5),
        quantile(&row.millis, 0.9),
        quantile(&row.millis, 1.0),
        row.peak_memo,
        100.0 * row.sampled as f64 / row.actions.max(1) as f64
    );
}

fn game<G: Game>(id: &str) {
    if let Ok(only) = std::env::var("BATTLEMAT_BENCH_ONLY")
        && only != id
    {
        return;
    }
    let points = env("BATTLEMAT_BENCH_POINTS", 12);
    let peer = env("BATTLEMAT_BENCH_EXHAUSTIVE", 1) != 0;
    for s in G::info().scenarios {
        let setup = G::setup(&s.id, &BTreeMap::new()).unwrap();
        let states = positions::<G>(&setup, points);
        println!("{id}/{} ({} positions)", s.id, states.len());
        let d = Greedy::default();
        let tried = Greedy {
            exact_limit: env("BATTLEMAT_GREEDY_EXACT", d.exact_limit),
            samples: env("BATTLEMAT_GREEDY_SAMPLES", d.samples),
            ..d
        };
        let row = measure(tried, &states);
        print("default", &row);
        if env("BATTLEMAT_BENCH_MCTS", 0) != 0 {
            print("mcts", &measure_mcts(&states));
        }
        if peer {
            let old = measure(Greedy::exhaustive(), &states);
            print("exhaustive", &old);
            println!(
                "  median ratio exhaustive/default: {:.1}",
                quantile(&old.millis, 0.5) / quantile(&row.millis, 0.5)
            );
        }
    }
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` would too: run once either way.
    game::<battlemat_swtb::Swtb>("swtb");
    game::<battlemat_sd_era::SdEra>("sd-era");
    game::<battlemat_abaoaqu::AbaoAqu>("abaoaqu");
    game::<battlemat_ms_d20::MsD20>("ms-d20");
    game::<battlemat_serm::Serm>("serm");
}
