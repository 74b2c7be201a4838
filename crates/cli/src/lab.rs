//! `battlemat tournament` and `battlemat balance`: the lab's runs from the command line.
//! Reports are the same bytes for the same seed whatever the thread count, and whatever the
//! number of shards a run was split into (`--shard`, merged by `battlemat merge`); timings
//! and progress go to stderr.

use crate::game_file::SetupChoice;
use crate::shard::{Config, Output};
use crate::sim::{check_threads, parse_players};
use anyhow::{Result, bail};
use battlemat_ai::{Played, PlayerKind};
use battlemat_lab::shard::GameRecord;
use std::path::PathBuf;

pub struct TournamentArgs {
    pub game: String,
    pub setup: SetupChoice,
    pub players: Vec<String>,
    pub games: u64,
    pub run: crate::RunArgs,
    pub svg: Option<PathBuf>,
}

/// The game's entry, the setup with its seats filled in, and the configuration's shared
/// fields: the steps `tournament` and `balance` both take.
fn prepare<'a>(
    command: &'a str,
    game: &'a str,
    mut choice: SetupChoice,
    info: &'a battlemat_core::RulesetInfo,
    entry: &crate::games::Entry,
    seed: u64,
) -> Result<crate::shard::Base<'a>> {
    let options = choice.options.clone();
    // The safety limit, when the options set none: a game it stops is unfinished, neither
    // a win nor a draw (a limit the options ask for decides by its house rule).
    let safety = choice.safety_limit(info);
    choice.seat(game, 2)?;
    let (setup, origin) = choice.setup(entry)?;
    Ok(crate::shard::Base {
        command,
        game,
        info,
        scenario: origin.name(),
        options,
        setup,
        seed,
        safety,
    })
}

/// The players of a configuration, parsed back.
fn players_of(config: &Config) -> Result<Vec<PlayerKind>> {
    parse_players(&config.players)
}

fn tournament_spec(config: &Config, threads: usize) -> Result<battlemat_lab::tournament::Spec> {
    Ok(battlemat_lab::tournament::Spec {
        players: players_of(config)?,
        games_per_pair: config.games,
        seed: config.seed,
        threads,
        unfinished_by_limit: config.safety,
    })
}

pub fn tournament(a: TournamentArgs) -> Result<()> {
    let entry = crate::games::get(&a.game).map_err(anyhow::Error::msg)?;
    let info = entry.ruleset.info();
    let players = parse_players(&a.players)?;
    if players.len() < 2 {
        bail!("--players: name at least two players, e.g. mcts,greedy,random");
    }
    let pairs = (players.len() * (players.len() - 1) / 2) as u64;
    crate::sim::check_games(pairs, a.games)?;
    check_threads(a.run.threads)?;
    let base = prepare("tournament", &a.game, a.setup, &info, &entry, a.run.seed)?;
    let prepared = entry.ai.prepare(&base.setup).map_err(anyhow::Error::msg)?;
    let names = players.iter().map(ToString::to_string).collect();
    let config = base.config(names, a.games, pairs * a.games);
    let spec = tournament_spec(&config, a.run.threads.unwrap_or(0))?;
    let shard = crate::shard::chosen(a.run.shard);
    let threads = a.run.threads.unwrap_or_else(rayon::current_num_threads);
    let progress = crate::progress::Progress::new(
        shard.games(config.total_games).len() as u64,
        "games",
        threads,
    );
    let games = battlemat_lab::tournament::play_games(
        &spec,
        shard,
        &|p: &[PlayerKind], r| prepared.play(p, r, 1_000_000),
        &|| progress.tick(),
    )
    .map_err(anyhow::Error::msg)?;
    progress.finish(threads);
    if let Some(out) = &a.run.out {
        let games = games
            .into_iter()
            .map(|(index, played)| GameRecord {
                index,
                played,
                armies: None,
            })
            .collect();
        return crate::shard::write(out, &config, shard, games);
    }
    let played: Vec<Played> = games.into_iter().map(|(_, p)| p).collect();
    tournament_output(
        &config,
        &played,
        &Output {
            json: a.run.json,
            svg: a.svg,
        },
    )
}

/// A whole tournament's report from its games' results in game order (one run's, or its
/// shards' merged).
pub fn tournament_output(config: &Config, played: &[Played], out: &Output) -> Result<()> {
    let spec = tournament_spec(config, 1)?;
    let report = battlemat_lab::tournament::report(&spec, played).map_err(anyhow::Error::msg)?;
    let title = format!("{} — {}", config.game_name, config.scenario);
    if let Some(path) = &out.svg {
        let svg = report.svg(&title).map_err(anyhow::Error::msg)?;
        std::fs::write(path, svg).map_err(|e| anyhow::anyhow!("--svg {}: {e}", path.display()))?;
    }
    if out.json {
        #[derive(serde::Serialize)]
        struct Out<'a> {
            game: &'a str,
            scenario: &'a str,
            /// The safety limit set (`rounds=30`): the games it stopped are `unfinished`.
            #[serde(skip_serializing_if = "Option::is_none")]
            safety_limit: Option<&'a str>,
            #[serde(flatten)]
            report: &'a battlemat_lab::tournament::Report,
        }
        let out = Out {
            game: &config.game,
            scenario: &config.scenario,
            safety_limit: config.safety_limit.as_deref(),
            report: &report,
        };
        println!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        print!("{}", report.text(&title));
    }
    Ok(())
}

pub struct BalanceArgs {
    pub game: String,
    pub setup: SetupChoice,
    pub player: String,
    pub games: u64,
    pub run: crate::RunArgs,
    pub fixed: bool,
    pub svg: Option<PathBuf>,
}

fn balance_spec(config: &Config, threads: usize) -> battlemat_lab::balance::Spec {
    battlemat_lab::balance::Spec {
        games: config.games,
        seed: config.seed,
        threads,
        unfinished_by_limit: config.safety,
    }
}

pub fn balance(a: BalanceArgs) -> Result<()> {
    let entry = crate::games::get(&a.game).map_err(anyhow::Error::msg)?;
    let info = entry.ruleset.info();
    let player: PlayerKind = a
        .player
        .parse()
        .map_err(|e: String| anyhow::anyhow!("--player: {e}"))?;
    crate::sim::check_games(1, a.games)?;
    check_threads(a.run.threads)?;
    let base = prepare("balance", &a.game, a.setup, &info, &entry, a.run.seed)?;
    // Random armies where the game has points rules (unless --fixed): each game draws its
    // own from its dice stream before playing.
    let setup = base.setup.clone();
    let armies = entry.ruleset.armies(&setup).map_err(anyhow::Error::msg)?;
    let random = armies.is_some() && !a.fixed;
    let prepared = entry.ai.prepare(&setup).map_err(anyhow::Error::msg)?;
    let mut config = base.config(vec![player.to_string()], a.games, a.games);
    config.random_armies = random;
    let spec = balance_spec(&config, a.run.threads.unwrap_or(0));
    let shard = crate::shard::chosen(a.run.shard);
    let threads = a.run.threads.unwrap_or_else(rayon::current_num_threads);
    let progress =
        crate::progress::Progress::new(shard.games(a.games).len() as u64, "games", threads);
    let play = |_: u64, r: &mut battlemat_dice::Roller| {
        if !random {
            // The same armies every game: only the sides are compared.
            return prepared.play(&[player], r, 1_000_000).map(|p| (p, None));
        }
        let drawn =
            entry
                .ruleset
                .random_armies(&setup, r)?
                .ok_or(battlemat_ai::PlayError::Broken(
                    "the game has no random armies",
                ))?;
        let fielded = entry.ruleset.armies(&drawn)?;
        let game = entry.ai.prepare(&drawn)?;
        game.play(&[player], r, 1_000_000).map(|p| (p, fielded))
    };
    let games = battlemat_lab::balance::play_games(&spec, shard, &play, &|| progress.tick())
        .map_err(anyhow::Error::msg)?;
    progress.finish(threads);
    if let Some(out) = &a.run.out {
        let games = games
            .into_iter()
            .map(|(index, (played, armies))| GameRecord {
                index,
                played,
                armies,
            })
            .collect();
        return crate::shard::write(out, &config, shard, games);
    }
    balance_output(
        &config,
        games.into_iter().map(|(_, g)| g).collect(),
        &Output {
            json: a.run.json,
            svg: a.svg,
        },
    )
}

/// A whole balance run's report from its games in game order (one run's, or its shards'
/// merged).
pub fn balance_output(
    config: &Config,
    games: Vec<battlemat_lab::balance::Game>,
    out: &Output,
) -> Result<()> {
    let report = battlemat_lab::balance::report(&balance_spec(config, 1), games)
        .map_err(anyhow::Error::msg)?;
    let player = config.players.first().map_or("", String::as_str);
    let title = format!("{} — {} — {player}", config.game_name, config.scenario);
    if let Some(path) = &out.svg {
        // One file per chart: PATH itself for the seats, PATH with "-units" for the units.
        for (k, svg) in report.svg(&title).map_err(anyhow::Error::msg)? {
            let p = if k == "seats" {
                path.clone()
            } else {
                let stem = path
                    .file_stem()
                    .map_or("balance".into(), |s| s.to_string_lossy());
                path.with_file_name(format!("{stem}-{k}.svg"))
            };
            std::fs::write(&p, svg).map_err(|e| anyhow::anyhow!("--svg {}: {e}", p.display()))?;
        }
    }
    if out.json {
        #[derive(serde::Serialize)]
        struct Out<'a> {
            game: &'a str,
            scenario: &'a str,
            player: &'a str,
            random_armies: bool,
            /// The safety limit set (`rounds=30`): the games it stopped are `unfinished`.
            #[serde(skip_serializing_if = "Option::is_none")]
            safety_limit: Option<&'a str>,
            #[serde(flatten)]
            report: &'a battlemat_lab::balance::Report,
        }
        let out = Out {
            game: &config.game,
            scenario: &config.scenario,
            player,
            random_armies: config.random_armies,
            safety_limit: config.safety_limit.as_deref(),
            report: &report,
        };
        println!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        print!("{}", report.text(&title));
    }
    Ok(())
}
