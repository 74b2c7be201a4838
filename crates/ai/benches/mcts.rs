//! One decision of the default MCTS player (`mcts`, [`DEFAULT_MCTS`]) in every game's main
//! scenario (its first, the one `battlemat` plays when none is named), on one core, against
//! the default greedy player on the same positions in the same run.
//!
//! Positions: decisions spread evenly through random games of each scenario (seeded), so
//! openings, middles and ends are all measured. Each position is searched afresh (a new
//! player, no kept tree) on a pool of one thread. A position's time is the median of
//! BATTLEMAT_BENCH_REPEATS searches of it (default 3; each the same search, same seed), after
//! one untimed search of the scenario's first position to warm the process up, as criterion
//! warms up: a single timing of each position on a shared machine measured the machine as much
//! as the decision (one King of the Hill position took 57 ms timed once in the run and 24–32 ms
//! in five timings of it on its own). The cold first search is printed beside the rows, and
//! BATTLEMAT_BENCH_REPEATS=1 times every position once. For each player it prints the median,
//! the 90th percentile and the slowest decision in milliseconds; for MCTS also the median
//! iterations and what a unit of work cost there (nanoseconds: the work budget's units are
//! meant to cost about the same in every game), and the work's parts a decision (steps,
//! listings, listed actions, evaluations, nodes on the paths: [`battlemat_ai::Work`]).
//!
//! `cargo bench -p battlemat-ai --bench mcts` (BATTLEMAT_BENCH_POINTS positions a scenario,
//! default 40; BATTLEMAT_BENCH_ONLY=sd-era filters; BATTLEMAT_BENCH_ALL=1 measures every
//! scenario, not only the main one; BATTLEMAT_MCTS_WORK=N searches `mcts:Nw` instead of the
//! default; BATTLEMAT_BENCH_GREEDY=0 skips the greedy row; BATTLEMAT_BENCH_CSV=FILE writes
//! one line a position: game, scenario, ms, iterations, steps, listings, listed,
//! evaluations, the position's size in JSON bytes). Greedy's row is its values of every
//! action (what choosing costs) and, for its slowest position, what it weighed there.
use battlemat_ai::{Budget, DEFAULT_MCTS, Greedy, Mcts, MctsConfig};
use battlemat_core::Game;
use battlemat_dice::Roller;
use std::collections::BTreeMap;
use std::io::Write;
use std::time::Instant;

mod common;
use common::{env, positions, quantile};

// The allocator `battlemat` itself runs on (crates/cli/src/main.rs), so a decision here costs
// what it costs in `play`, `sim` and the server.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// What `f` returns, and how long it took in milliseconds.
fn timed<T>(f: impl FnOnce() -> T) -> (f64, T) {
    let t = Instant::now();
    let out = std::hint::black_box(f());
    (t.elapsed().as_secs_f64() * 1e3, out)
}

/// The median time of `repeats` runs of `run` (each the same work, timed by it), and what the
/// first returned.
fn median_of<T>(repeats: usize, mut run: impl FnMut() -> (f64, T)) -> (f64, T) {
    let mut first = None;
    let mut millis = Vec::with_capacity(repeats);
    for _ in 0..repeats.max(1) {
        let (ms, out) = run();
        millis.push(ms);
        first.get_or_insert(out);
    }
    (quantile(&millis, 0.5), first.unwrap())
}

fn times(label: &str, millis: &[f64]) -> String {
    format!(
        "  {label:<12} median {:>8.2} ms  p90 {:>8.2} ms  max {:>8.2} ms",
        quantile(millis, 0.5),
        quantile(millis, 0.9),
        quantile(millis, 1.0),
    )
}

fn game<G: Game>(id: &str, budget: Budget, csv: &mut Option<std::fs::File>) {
    if let Ok(only) = std::env::var("BATTLEMAT_BENCH_ONLY")
        && only != id
    {
        return;
    }
    let points = env("BATTLEMAT_BENCH_POINTS", 40);
    let scenarios = G::info().scenarios;
    let take = if env("BATTLEMAT_BENCH_ALL", 0) != 0 {
        scenarios.len()
    } else {
        1
    };
    for s in scenarios.iter().take(take) {
        let setup = G::setup(&s.id, &BTreeMap::new()).unwrap();
        let states = positions::<G>(&setup, points);
        println!(
            "{id}/{} ({} positions, budget {:?})",
            s.id,
            states.len(),
            MctsConfig::for_game::<G>(budget).budget
        );
        let repeats = env("BATTLEMAT_BENCH_REPEATS", 3).max(1);
        // One search, the same each time: its time, and what it reported.
        let search = |i: usize, g: &G| {
            let mut m = Mcts::<G>::new(MctsConfig::for_game::<G>(budget));
            timed(|| m.search(g, &mut Roller::new(7, i as u64)).unwrap())
        };
        if let Some(g) = states.first() {
            let (cold, _) = search(0, g);
            println!(
                "  {:<12} the first search, cold (untimed warm-up): {cold:.2} ms",
                ""
            );
        }
        let (mut millis, mut iterations, mut per_unit) = (vec![], vec![], vec![]);
        let mut parts = [0u64; 5];
        for (i, g) in states.iter().enumerate() {
            let (ms, report) = median_of(repeats, || search(i, g));
            millis.push(ms);
            iterations.push(report.iterations as f64);
            let w = report.work;
            if w.units() > 0 {
                per_unit.push(ms * 1e6 / w.units() as f64);
            }
            for (p, x) in
                parts
                    .iter_mut()
                    .zip([w.steps, w.listings, w.listed, w.evaluations, w.nodes])
            {
                *p += x;
            }
            if let Some(f) = csv {
                writeln!(
                    f,
                    "{id},{},{ms:.3},{},{},{},{},{},{}",
                    s.id,
                    report.iterations,
                    w.steps,
                    w.listings,
                    w.listed,
                    w.evaluations,
                    serde_json::to_vec(g).map_or(0, |v| v.len())
                )
                .unwrap();
            }
        }
        let n = states.len().max(1) as u64;
        println!(
            "{}  iterations {:>6.0}  ns/unit {:>6.1}",
            times("mcts", &millis),
            quantile(&iterations, 0.5),
            quantile(&per_unit, 0.5),
        );
        println!(
            "  {:<12} a decision: steps {} listings {} listed {} evaluations {} nodes {}",
            "",
            parts[0] / n,
            parts[1] / n,
            parts[2] / n,
            parts[3] / n,
            parts[4] / n
        );
        if env("BATTLEMAT_BENCH_GREEDY", 1) != 0 {
            let greedy = Greedy::default();
            let mut slowest = (0.0, battlemat_ai::GreedyStats::default());
            let millis: Vec<f64> = states
                .iter()
                .enumerate()
                .map(|(i, g)| {
                    let (ms, (_, stats)) = median_of(repeats, || {
                        timed(|| greedy.values(g, &mut Roller::new(7, i as u64)))
                    });
                    if ms > slowest.0 {
                        slowest = (ms, stats);
                    }
                    ms
                })
                .collect();
            println!("{}", times("greedy", &millis));
            let s = slowest.1;
            println!(
                "  {:<12} the slowest: actions {} exact states {} sampled actions {} steps {} evaluations {}",
                "", s.actions, s.exact_states, s.sampled_actions, s.steps, s.evaluations
            );
        }
    }
}

fn main() {
    let budget = match env("BATTLEMAT_MCTS_WORK", 0) {
        0 => DEFAULT_MCTS,
        n => Budget::Work(n as u32),
    };
    println!("mcts budget {budget:?} (the default: times each game's effort), one thread");
    let mut csv = std::env::var("BATTLEMAT_BENCH_CSV")
        .ok()
        .map(|p| std::fs::File::create(p).unwrap());
    // One core: the trees are searched one after the other.
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    pool.install(|| {
        game::<battlemat_swtb::Swtb>("swtb", budget, &mut csv);
        game::<battlemat_sd_era::SdEra>("sd-era", budget, &mut csv);
        game::<battlemat_abaoaqu::AbaoAqu>("abaoaqu", budget, &mut csv);
        game::<battlemat_ms_d20::MsD20>("ms-d20", budget, &mut csv);
        game::<battlemat_serm::Serm>("serm", budget, &mut csv);
    });
}
