//! `battlemat sim`: many AI-vs-AI games in parallel, reported identically whatever the
//! thread count: game i always uses dice stream i of the seed, results are gathered in
//! game order, and timings go to stderr.

use anyhow::{Result, bail};
use battlemat_ai::{Played, PlayerKind};
use serde::Serialize;
use std::collections::BTreeMap;

pub struct SimArgs {
    pub game: String,
    /// The scenario and the options.
    pub setup: crate::game_file::SetupChoice,
    pub games: u64,
    pub players: Vec<String>,
    pub run: crate::RunArgs,
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
    /// Games the safety limit stopped (`safety_limit`, when the sim set it): neither a win
    /// nor a draw.
    #[serde(skip_serializing_if = "Option::is_none")]
    unfinished: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    safety_limit: Option<String>,
    mean_steps: f64,
    mean_decisions: f64,
}

/// `--games`: at least 1, and at most [`battlemat_lab::MAX_GAMES`] in all (`pairs` of
/// players each playing `games`; 1 for `sim` and `balance`), checked before anything runs.
pub fn check_games(pairs: u64, games: u64) -> Result<()> {
    if games == 0 {
        bail!("--games must be at least 1");
    }
    if pairs
        .checked_mul(games)
        .is_none_or(|g| g > battlemat_lab::MAX_GAMES)
    {
        bail!("{}", battlemat_lab::too_many_games(pairs, games));
    }
    Ok(())
}

/// `--threads`: 1 to four per core (more only cost time spawning them); `None` is every
/// core.
pub fn check_threads(threads: Option<usize>) -> Result<()> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    if let Some(t) = threads
        && (t == 0 || t > cores * 4)
    {
        bail!(
            "--threads {t}: 1 to {} on this machine (its {cores} cores × 4)",
            cores * 4
        );
    }
    Ok(())
}

/// Players by name (`random`, `greedy`, `mcts:200`, ...), for `--players`.
pub fn parse_players(names: &[String]) -> Result<Vec<PlayerKind>> {
    names
        .iter()
        .map(|p| p.parse())
        .collect::<Result<_, String>>()
        .map_err(|e| anyhow::anyhow!("--players: {e}"))
}

pub fn run(a: SimArgs) -> Result<()> {
    let entry = crate::games::get(&a.game).map_err(anyhow::Error::msg)?;
    let info = entry.ruleset.info();
    let mut choice = a.setup;
    // The report shows the options as given; the seats filled in show in its seat list.
    let given_options = choice.options.clone();
    let safety = choice.safety_limit(&info);
    choice.seat(&a.game, a.players.len())?;
    let (setup, origin) = choice.setup(&entry)?;
    let players = parse_players(&a.players)?;
    if players.is_empty() || players.len() > info.max_seats as usize {
        bail!("--players: name 1 to {} players", info.max_seats);
    }
    check_games(1, a.games)?;
    check_threads(a.run.threads)?;
    // The setup is read and checked once; each game starts from a clone of its new game.
    let prepared = entry.ai.prepare(&setup).map_err(anyhow::Error::msg)?;
    let config = crate::shard::Base {
        command: "sim",
        game: &a.game,
        info: &info,
        scenario: origin.name(),
        options: given_options,
        setup,
        seed: a.run.seed,
        safety,
    }
    .config(
        players.iter().map(ToString::to_string).collect(),
        a.games,
        a.games,
    );
    let shard = crate::shard::chosen(a.run.shard);
    let indices = battlemat_lab::shard::Shard::games(&shard, a.games);
    let threads = a.run.threads.unwrap_or_else(rayon::current_num_threads);
    let progress = crate::progress::Progress::new(indices.len() as u64, "games", threads);
    let results: Vec<Result<Played, battlemat_ai::PlayError>> = battlemat_lab::run_indices(
        &indices,
        a.run.seed,
        a.run.threads.unwrap_or(0),
        &|_, roller| prepared.play(&players, roller, 1_000_000),
        &|| progress.tick(),
    )
    .map_err(anyhow::Error::msg)?;
    progress.finish(threads);
    let mut played = Vec::with_capacity(results.len());
    for (&i, r) in indices.iter().zip(results) {
        played.push(r.map_err(|e| anyhow::anyhow!("game {i}: {e}"))?);
    }
    if let Some(out) = &a.run.out {
        let games = indices
            .into_iter()
            .zip(played)
            .map(|(index, played)| battlemat_lab::shard::GameRecord {
                index,
                played,
                armies: None,
            })
            .collect();
        return crate::shard::write(out, &config, shard, games);
    }
    output(
        &config,
        &played,
        &crate::shard::Output {
            json: a.run.json,
            svg: None,
        },
    )
}

/// The report of a whole run from its games' results in game order (one run's, or its
/// shards' merged).
pub fn output(
    config: &crate::shard::Config,
    played: &[Played],
    out: &crate::shard::Output,
) -> Result<()> {
    if played.is_empty() {
        bail!("no games to report");
    }
    let safety = config.safety;
    let seats = played[0].result.ranks.len();
    let n = played.len() as u64;
    let mut wins = vec![0u64; seats];
    let mut scores = vec![0f64; seats];
    let mut draws = 0;
    let mut unfinished = 0;
    for p in played {
        if safety && p.result.by_limit {
            unfinished += 1;
            continue;
        }
        match battlemat_lab::seat_wins(&p.result) {
            None => draws += 1,
            Some(w) => {
                for (s, x) in w.iter().enumerate().take(seats) {
                    wins[s] += u64::from(*x);
                }
            }
        }
        for (s, sc) in p.result.scores.iter().enumerate() {
            scores[s] += *sc as f64;
        }
    }
    let players = &config.players;
    let report = Report {
        game: config.game.clone(),
        scenario: config.scenario.clone(),
        options: config.options.clone(),
        games: n,
        seed: config.seed,
        seats: (0..seats)
            .map(|s| SeatReport {
                seat: s as u8,
                player: players[s % players.len()].clone(),
                wins: wins[s],
                win_rate: wins[s] as f64 / n as f64,
                ci95: battlemat_lab::stats::wilson(wins[s] as f64, n as f64),
                mean_score: scores[s] / n as f64,
            })
            .collect(),
        draws,
        unfinished: safety.then_some(unfinished),
        safety_limit: config.safety_limit.clone(),
        mean_steps: played.iter().map(|p| p.steps as f64).sum::<f64>() / n as f64,
        mean_decisions: played.iter().map(|p| p.decisions as f64).sum::<f64>() / n as f64,
    };
    if out.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
        return Ok(());
    }
    println!(
        "{} — {} — {} games, seed {}",
        config.game_name, report.scenario, n, config.seed
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
    if let Some(l) = &report.safety_limit {
        println!(
            "  unfinished {unfinished} (stopped by the safety limit {l}: neither a win nor a draw; set the option to decide them by the house rule)"
        );
    }
    println!(
        "  mean length {:.1} steps ({:.1} decisions)",
        report.mean_steps, report.mean_decisions
    );
    Ok(())
}
