//! `battlemat sim`: many AI-vs-AI games in parallel, reported identically whatever the
//! thread count: game i always uses dice stream i of the seed, results are gathered in
//! game order, and timings go to stderr.

use anyhow::{Result, bail};
use battlemat_ai::{Played, PlayerKind};
use battlemat_dice::Roller;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use serde::Serialize;
use std::collections::BTreeMap;
use std::time::Instant;

pub struct SimArgs {
    pub game: String,
    /// The scenario and the options.
    pub setup: crate::game_file::SetupChoice,
    pub games: u64,
    pub seed: u64,
    pub players: Vec<String>,
    pub threads: Option<usize>,
    pub json: bool,
}

#[derive(Serialize)]
struct SeatReport {
    seat: u8,
    player: String,
    wins: u64,
    win_rate: f64,
    /// Wilson 95% interval for the win rate.
    ci95: [f64; 2],
    mean_score: f64,
}

#[derive(Serialize)]
struct Report {
    game: String,
    scenario: String,
    options: BTreeMap<String, String>,
    games: u64,
    seed: u64,
    seats: Vec<SeatReport>,
    draws: u64,
    mean_steps: f64,
    mean_decisions: f64,
}

/// Wilson score interval, 95%.
pub fn wilson(k: u64, n: u64) -> [f64; 2] {
    if n == 0 {
        return [0.0, 1.0];
    }
    let z = 1.959_963_984_540_054_f64;
    let (k, n) = (k as f64, n as f64);
    let p = k / n;
    let d = 1.0 + z * z / n;
    let c = (p + z * z / (2.0 * n)) / d;
    let h = z * ((p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt()) / d;
    [(c - h).max(0.0), (c + h).min(1.0)]
}

pub fn run(a: SimArgs) -> Result<()> {
    let entry = battlemat_rulesets::get(&a.game).map_err(anyhow::Error::msg)?;
    let info = entry.ruleset.info();
    let mut choice = a.setup;
    // The report shows the options as given; the seats filled in show in its seat list.
    let given_options = choice.options.clone();
    choice.seat(&a.game, a.players.len())?;
    let (setup, scenario) = choice.setup(&entry)?;
    let players: Vec<PlayerKind> = a
        .players
        .iter()
        .map(|p| p.parse())
        .collect::<Result<_, String>>()
        .map_err(anyhow::Error::msg)?;
    if players.is_empty() || players.len() > info.max_seats as usize {
        bail!("--players: name 1 to {} players", info.max_seats);
    }
    if a.games == 0 {
        bail!("--games must be at least 1");
    }
    // Threads beyond a few per core only cost time spawning them.
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    if let Some(t) = a.threads
        && (t == 0 || t > cores * 4)
    {
        bail!(
            "--threads {t}: 1 to {} on this machine (its {cores} cores × 4)",
            cores * 4
        );
    }
    // The setup is read and checked once; each game starts from a clone of its new game.
    let prepared = (entry.prepare)(&setup).map_err(anyhow::Error::msg)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(a.threads.unwrap_or(0))
        .build()?;
    let bar = ProgressBar::new(a.games);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games  {per_sec}  eta {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let start = Instant::now();
    // Where stderr is not a terminal (a log, a pipe) the bar is hidden: a line every five
    // seconds says how far it has got instead.
    let plain = !std::io::IsTerminal::is_terminal(&std::io::stderr());
    // How often (seconds; BATTLEMAT_PROGRESS_SECS, default 5).
    let every: u64 = std::env::var("BATTLEMAT_PROGRESS_SECS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5);
    let done = std::sync::atomic::AtomicU64::new(0);
    let last_line = std::sync::Mutex::new(Instant::now());
    let results: Vec<Result<Played, String>> = pool.install(|| {
        (0..a.games)
            .into_par_iter()
            .map(|i| {
                let mut roller = Roller::new(a.seed, i);
                let r = prepared.play(&players, &mut roller, 1_000_000);
                bar.inc(1);
                let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                if plain
                    && let Ok(mut last) = last_line.lock()
                    && last.elapsed().as_secs() >= every
                {
                    *last = Instant::now();
                    eprintln!(
                        "{n}/{} games, {:.0} s",
                        a.games,
                        start.elapsed().as_secs_f64()
                    );
                }
                r
            })
            .collect()
    });
    bar.finish_and_clear();
    let elapsed = start.elapsed();
    let mut played = Vec::with_capacity(results.len());
    for (i, r) in results.into_iter().enumerate() {
        played.push(r.map_err(|e| anyhow::anyhow!("game {i}: {e}"))?);
    }
    let seats = played[0].result.ranks.len();
    let n = played.len() as u64;
    let mut wins = vec![0u64; seats];
    let mut scores = vec![0f64; seats];
    let mut draws = 0;
    for p in &played {
        // The seats in first place win (a side's seats together); a co-operative mission
        // won is a win for every seat, one lost is a win for none; first place shared by
        // every seat is a draw.
        match p.result.cooperative {
            Some(true) => wins.iter_mut().for_each(|w| *w += 1),
            Some(false) => {}
            None if p.result.is_shared() => draws += 1,
            None => {
                for w in p.result.winners() {
                    wins[w as usize] += 1;
                }
            }
        }
        for (s, sc) in p.result.scores.iter().enumerate() {
            scores[s] += *sc as f64;
        }
    }
    let report = Report {
        game: a.game.clone(),
        scenario,
        options: given_options,
        games: n,
        seed: a.seed,
        seats: (0..seats)
            .map(|s| SeatReport {
                seat: s as u8,
                player: players[s % players.len()].to_string(),
                wins: wins[s],
                win_rate: wins[s] as f64 / n as f64,
                ci95: wilson(wins[s], n),
                mean_score: scores[s] / n as f64,
            })
            .collect(),
        draws,
        mean_steps: played.iter().map(|p| p.steps as f64).sum::<f64>() / n as f64,
        mean_decisions: played.iter().map(|p| p.decisions as f64).sum::<f64>() / n as f64,
    };
    eprintln!(
        "{} games in {:.2} s ({:.1} games/s, {} threads)",
        n,
        elapsed.as_secs_f64(),
        n as f64 / elapsed.as_secs_f64(),
        pool.current_num_threads()
    );
    if a.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
        return Ok(());
    }
    println!(
        "{} — {} — {} games, seed {}",
        info.name, report.scenario, n, a.seed
    );
    for s in &report.seats {
        println!(
            "  seat {} ({:<6}) wins {:>6}  {:>6.2}%  95% CI [{:.2}%, {:.2}%]  mean score {:.2}",
            s.seat,
            s.player,
            s.wins,
            100.0 * s.win_rate,
            100.0 * s.ci95[0],
            100.0 * s.ci95[1],
            s.mean_score
        );
    }
    println!("  draws {draws}");
    println!(
        "  mean length {:.1} steps ({:.1} decisions)",
        report.mean_steps, report.mean_decisions
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn wilson_interval_matches_known_values() {
        // 50 of 100: 0.4038 .. 0.5962
        let [lo, hi] = super::wilson(50, 100);
        assert!((lo - 0.4038).abs() < 1e-4 && (hi - 0.5962).abs() < 1e-4);
        assert_eq!(super::wilson(0, 10)[0], 0.0);
    }
}
