//! `battlemat tournament` and `battlemat balance`: the lab's runs from the command line.
//! Reports are the same bytes for the same seed whatever the thread count; timings and
//! progress go to stderr.

use crate::game_file::SetupChoice;
use crate::sim::{check_threads, parse_players};
use anyhow::{Result, bail};
use battlemat_ai::PlayerKind;
use std::path::PathBuf;

pub struct TournamentArgs {
    pub game: String,
    pub setup: SetupChoice,
    pub players: Vec<String>,
    pub games: u64,
    pub run: crate::RunArgs,
    pub svg: Option<PathBuf>,
}

pub fn tournament(a: TournamentArgs) -> Result<()> {
    let entry = battlemat_rulesets::get(&a.game).map_err(anyhow::Error::msg)?;
    let info = entry.ruleset.info();
    let players = parse_players(&a.players)?;
    if players.len() < 2 {
        bail!("--players: name at least two players, e.g. mcts,greedy,random");
    }
    let pairs = (players.len() * (players.len() - 1) / 2) as u64;
    crate::sim::check_games(pairs, a.games)?;
    check_threads(a.run.threads)?;
    let mut choice = a.setup;
    // The safety limit, when the options set none: a game it stops is unfinished, neither
    // a win nor a draw (a limit the options ask for decides by its house rule).
    let safety = choice.safety_limit(&info);
    choice.seat(&a.game, 2)?;
    let (setup, origin) = choice.setup(&entry)?;
    let scenario = origin.name();
    let prepared = (entry.prepare)(&setup).map_err(anyhow::Error::msg)?;
    let spec = battlemat_lab::tournament::Spec {
        players,
        games_per_pair: a.games,
        seed: a.run.seed,
        threads: a.run.threads.unwrap_or(0),
        unfinished_by_limit: safety,
    };
    let total = pairs * a.games;
    let progress = crate::progress::Progress::new(total, "games");
    let report = battlemat_lab::tournament::run(
        &spec,
        &|p: &[PlayerKind], r| prepared.play(p, r, 1_000_000),
        &|| progress.tick(),
    )
    .map_err(anyhow::Error::msg)?;
    progress.finish(a.run.threads.unwrap_or_else(rayon::current_num_threads));
    let title = format!("{} — {scenario}", info.name);
    if let Some(path) = &a.svg {
        let svg = report.svg(&title).map_err(anyhow::Error::msg)?;
        std::fs::write(path, svg).map_err(|e| anyhow::anyhow!("--svg {}: {e}", path.display()))?;
    }
    if a.run.json {
        #[derive(serde::Serialize)]
        struct Out<'a> {
            game: &'a str,
            scenario: &'a str,
            /// The safety limit set (`rounds=30`): the games it stopped are `unfinished`.
            #[serde(skip_serializing_if = "Option::is_none")]
            safety_limit: Option<String>,
            #[serde(flatten)]
            report: &'a battlemat_lab::tournament::Report,
        }
        let out = Out {
            game: &a.game,
            scenario: &scenario,
            safety_limit: limit_words(&info, safety),
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

pub fn balance(a: BalanceArgs) -> Result<()> {
    let entry = battlemat_rulesets::get(&a.game).map_err(anyhow::Error::msg)?;
    let info = entry.ruleset.info();
    let player: PlayerKind = a
        .player
        .parse()
        .map_err(|e: String| anyhow::anyhow!("--player: {e}"))?;
    crate::sim::check_games(1, a.games)?;
    check_threads(a.run.threads)?;
    let mut choice = a.setup;
    // The safety limit, when the options set none: a game it stops is unfinished, neither
    // a win nor a draw (a limit the options ask for decides by its house rule).
    let safety = choice.safety_limit(&info);
    choice.seat(&a.game, 2)?;
    let (setup, origin) = choice.setup(&entry)?;
    let scenario = origin.name();
    // Random armies where the game has points rules (unless --fixed): each game draws its
    // own from its dice stream before playing.
    let armies = (entry.armies)(&setup).map_err(anyhow::Error::msg)?;
    let random = armies.is_some() && !a.fixed;
    let prepared = (entry.prepare)(&setup).map_err(anyhow::Error::msg)?;
    let spec = battlemat_lab::balance::Spec {
        games: a.games,
        seed: a.run.seed,
        threads: a.run.threads.unwrap_or(0),
        unfinished_by_limit: safety,
    };
    let progress = crate::progress::Progress::new(a.games, "games");
    let play = |_: u64, r: &mut battlemat_dice::Roller| {
        if !random {
            // The same armies every game: only the sides are compared.
            return prepared.play(&[player], r, 1_000_000).map(|p| (p, None));
        }
        let drawn = (entry.random_armies)(&setup, r)?.ok_or("the game has no random armies")?;
        let fielded = (entry.armies)(&drawn)?;
        let game = (entry.prepare)(&drawn)?;
        game.play(&[player], r, 1_000_000).map(|p| (p, fielded))
    };
    let report = battlemat_lab::balance::run(&spec, &play, &|| progress.tick())
        .map_err(anyhow::Error::msg)?;
    progress.finish(a.run.threads.unwrap_or_else(rayon::current_num_threads));
    let title = format!("{} — {scenario} — {player}", info.name);
    if let Some(path) = &a.svg {
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
    if a.run.json {
        #[derive(serde::Serialize)]
        struct Out<'a> {
            game: &'a str,
            scenario: &'a str,
            player: String,
            random_armies: bool,
            /// The safety limit set (`rounds=30`): the games it stopped are `unfinished`.
            #[serde(skip_serializing_if = "Option::is_none")]
            safety_limit: Option<String>,
            #[serde(flatten)]
            report: &'a battlemat_lab::balance::Report,
        }
        let out = Out {
            game: &a.game,
            scenario: &scenario,
            player: player.to_string(),
            random_armies: random,
            safety_limit: limit_words(&info, safety),
            report: &report,
        };
        println!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        print!("{}", report.text(&title));
    }
    Ok(())
}

/// The safety limit the run set, as `key=value` (none when the options set the limit).
fn limit_words(info: &battlemat_core::RulesetInfo, set: bool) -> Option<String> {
    set.then(|| info.safety_limit.as_ref().map(|(k, v)| format!("{k}={v}")))
        .flatten()
}
