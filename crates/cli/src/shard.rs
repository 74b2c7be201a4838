//! `--shard I/K --out FILE` of `sim`, `tournament` and `balance`, and `battlemat merge`.
//!
//! Every run is one [`Config`] (all that decides its games and its report) and its games'
//! results in game order. A whole run plays every game and prints its report; a shard plays
//! its games ([`battlemat_lab::shard`]) and writes them with the configuration to a shard
//! file; `merge` reads shard files, checks them ([`battlemat_lab::shard::merge`]) and prints
//! the report from the same configuration and the same results — the same function, so the
//! same bytes.

use anyhow::{Context, Result, bail};
use battlemat_lab::shard::{FORMAT, GameRecord, Shard, ShardFile};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A run's whole configuration, as its shard files carry it (docs/json.md). Two shards
/// merge only when theirs are equal. The thread count is not in it: it changes nothing.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// `sim`, `tournament` or `balance`.
    pub command: String,
    /// The version of battlemat that ran it.
    pub battlemat: String,
    pub game: String,
    /// The game's name and the version of its rules.
    pub game_name: String,
    pub ruleset_version: String,
    pub scenario: String,
    /// The options as given on the command line.
    pub options: BTreeMap<String, String>,
    /// The setup every game starts from (scenario, armies, options), whole.
    pub setup: Value,
    /// The players: in seat order (`sim`), the round robin's (`tournament`), the one in
    /// every seat (`balance`).
    pub players: Vec<String>,
    /// `--games`: a run's games (`sim`, `balance`), each pair's (`tournament`).
    pub games: u64,
    /// The run's games in all.
    pub total_games: u64,
    pub seed: u64,
    /// Whether the run set the game's safety limit (its stopped games are unfinished), and
    /// that limit as `key=value`.
    pub safety: bool,
    pub safety_limit: Option<String>,
    /// `balance`: whether each game drew random armies.
    pub random_armies: bool,
}

/// Where a run's results go: a report (text or JSON, SVG charts) or a shard file.
pub struct Output {
    pub json: bool,
    pub svg: Option<PathBuf>,
}

/// `--shard I/K`, for clap.
pub fn parse_shard(s: &str) -> Result<Shard, String> {
    s.parse()
}

/// The whole run, or shard `I/K` of it.
pub fn chosen(shard: Option<Shard>) -> Shard {
    shard.unwrap_or(Shard { index: 0, count: 1 })
}

/// Write a shard's results to `path` (whole, by a rename, so a killed or retried job never
/// leaves half a file), and say so on stderr.
pub fn write(path: &Path, config: &Config, shard: Shard, games: Vec<GameRecord>) -> Result<()> {
    let n = games.len();
    let file = ShardFile {
        battlemat_shard: FORMAT,
        config: serde_json::to_value(config)?,
        shard,
        games,
    };
    let text = file.text().map_err(anyhow::Error::msg)?;
    crate::game_file::write_replacing(path, &text)
        .with_context(|| format!("--out {}", path.display()))?;
    eprintln!(
        "shard {shard}: {n} of the run's {} games written to {} (merge the shards with `battlemat merge`)",
        config.total_games,
        path.display()
    );
    Ok(())
}

/// The most a shard file may weigh (a million games of a few hundred bytes).
const MAX_SHARD_FILE: u64 = 1 << 30;

/// `battlemat merge FILES…`: the run's report from its shards.
pub fn merge(files: &[PathBuf], out: &Output) -> Result<()> {
    let mut read = Vec::with_capacity(files.len());
    for path in files {
        let name = path.display().to_string();
        let text = crate::game_file::read_capped(path, MAX_SHARD_FILE)?;
        read.push((
            name.clone(),
            ShardFile::parse(&name, &text).map_err(anyhow::Error::msg)?,
        ));
    }
    let first = files.first().map(|p| p.display().to_string());
    let (config, games) = battlemat_lab::shard::merge(read).map_err(anyhow::Error::msg)?;
    let first = first.unwrap_or_default();
    let config: Config = serde_json::from_value(config)
        .with_context(|| format!("{first}: the shard's configuration"))?;
    let own = env!("CARGO_PKG_VERSION");
    if config.battlemat != own {
        bail!(
            "{first}: the shards were made by battlemat {}, this is {own}: merge them with the version that ran them",
            config.battlemat
        );
    }
    match config.command.as_str() {
        "sim" => crate::sim::output(&config, &played(games), out),
        "tournament" => crate::lab::tournament_output(&config, &played(games), out),
        "balance" => crate::lab::balance_output(
            &config,
            games.into_iter().map(|g| (g.played, g.armies)).collect(),
            out,
        ),
        other => bail!("{first}: a shard of {other:?}, which has no report to merge"),
    }
}

fn played(games: Vec<GameRecord>) -> Vec<battlemat_ai::Played> {
    games.into_iter().map(|g| g.played).collect()
}

/// The setup's configuration fields shared by the three commands.
pub struct Base<'a> {
    pub command: &'a str,
    pub game: &'a str,
    pub info: &'a battlemat_core::RulesetInfo,
    pub scenario: String,
    pub options: BTreeMap<String, String>,
    pub setup: Value,
    pub seed: u64,
    pub safety: bool,
}

impl Base<'_> {
    pub fn config(self, players: Vec<String>, games: u64, total_games: u64) -> Config {
        Config {
            command: self.command.into(),
            battlemat: env!("CARGO_PKG_VERSION").into(),
            game: self.game.into(),
            game_name: self.info.name.clone(),
            ruleset_version: self.info.version.clone(),
            scenario: self.scenario,
            options: self.options,
            setup: self.setup,
            players,
            games,
            total_games,
            seed: self.seed,
            safety: self.safety,
            safety_limit: self
                .safety
                .then(|| {
                    self.info
                        .safety_limit
                        .as_ref()
                        .map(|(k, v)| format!("{k}={v}"))
                })
                .flatten(),
            random_armies: false,
        }
    }
}
