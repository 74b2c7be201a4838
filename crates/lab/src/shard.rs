//! Runs split across machines: shards, shard files and their merge.
//!
//! Shard `I/K` (counted from 0, as Kubernetes' `JOB_COMPLETION_INDEX` is) plays the games
//! whose index is `I` modulo `K`. Game `i` is played from dice stream `i` of the run's seed
//! wherever it runs ([`crate::run_indices`]), so its result does not depend on `K`, on the
//! machine or on a retry; dealing the indices out in turn (not in blocks) spreads a
//! tournament's pairs, whose games differ in length, evenly over the shards.
//!
//! A shard file ([`ShardFile`], JSON, docs/json.md) holds the run's whole configuration
//! (opaque here: the command that ran it fills it in, and it must hold `total_games`), the
//! shard, and each game's result as the reports need it ([`GameRecord`]). [`merge`] checks
//! that every file has one configuration, and that every index `0..total_games` is present
//! exactly once; the results come back in game order, which is all a report is made from.
//!
//! Rejected: contiguous blocks of indices per shard (a tournament's first shard would play
//! all of the first pair's games, its last all of the last pair's), and seeds per shard
//! (the results would depend on `K`).

use battlemat_ai::Played;
use battlemat_core::Armies;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;
use std::str::FromStr;

/// The shard file format written (and the only one read).
pub const FORMAT: u32 = 1;

/// Which games a shard plays: index `index` modulo `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl Shard {
    /// Whether game `game` is this shard's.
    pub fn holds(&self, game: u64) -> bool {
        game % self.count == self.index
    }

    /// This shard's game indices among `total`, in order.
    pub fn games(&self, total: u64) -> Vec<u64> {
        (self.index..total)
            .step_by(usize::try_from(self.count).unwrap_or(usize::MAX))
            .collect()
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = String;

    /// `I/K`: shard `I` of `K`, `I` from 0 to `K - 1`.
    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("{s}: give I/K, shard I (from 0) of K shards, e.g. 0/4");
        let (i, k) = s.split_once('/').ok_or_else(bad)?;
        let index: u64 = i.trim().parse().map_err(|_| bad())?;
        let count: u64 = k.trim().parse().map_err(|_| bad())?;
        if count == 0 || count > crate::MAX_GAMES {
            return Err(format!("{s}: from 1 to {} shards", crate::MAX_GAMES));
        }
        if index >= count {
            return Err(format!(
                "{s}: shards are counted from 0, so {count} shards are 0/{count} to {}/{count}",
                count - 1
            ));
        }
        Ok(Shard { index, count })
    }
}

/// One game's result, as `sim`, `tournament` and `balance` report it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameRecord {
    /// The game's index in the run (its dice stream).
    pub index: u64,
    pub played: Played,
    /// What each seat fielded (`balance` with random armies).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub armies: Option<Armies>,
}

/// A shard's results.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShardFile {
    /// [`FORMAT`].
    pub battlemat_shard: u32,
    /// The run's whole configuration, the same in every shard of a run; it holds
    /// `total_games`, the number of games of the whole run.
    pub config: Value,
    pub shard: Shard,
    /// This shard's games, in index order.
    pub games: Vec<GameRecord>,
}

impl ShardFile {
    /// The file's text: one game a line after the configuration (a shard of many games
    /// stays readable, and diffs line by line).
    pub fn text(&self) -> Result<String, String> {
        let mut s = format!(
            "{{\"battlemat_shard\":{},\"config\":{},\"shard\":{},\"games\":[",
            self.battlemat_shard,
            json(&self.config)?,
            json(&self.shard)?
        );
        for (k, g) in self.games.iter().enumerate() {
            s += if k == 0 { "\n" } else { ",\n" };
            s += &json(g)?;
        }
        s += "\n]}\n";
        Ok(s)
    }

    /// Read a shard file (`name` for the errors).
    pub fn parse(name: &str, text: &str) -> Result<ShardFile, String> {
        let v: Value = serde_json::from_str(text).map_err(|e| format!("{name}: not JSON: {e}"))?;
        match v.get("battlemat_shard").and_then(Value::as_u64) {
            Some(f) if f == u64::from(FORMAT) => {}
            Some(f) => {
                return Err(format!(
                    "{name}: shard file format {f} (this program reads format {FORMAT})"
                ));
            }
            None => return Err(format!("{name}: not a Battlemat shard file")),
        }
        let file: ShardFile =
            serde_json::from_value(v).map_err(|e| format!("{name}: not a shard file: {e}"))?;
        if file.shard.count == 0 || file.shard.index >= file.shard.count {
            return Err(format!("{name}: shard {} does not exist", file.shard));
        }
        Ok(file)
    }

    /// The run's game count, from the configuration.
    pub fn total_games(&self, name: &str) -> Result<u64, String> {
        self.config
            .get("total_games")
            .and_then(Value::as_u64)
            .filter(|&n| n <= crate::MAX_GAMES)
            .ok_or_else(|| format!("{name}: the configuration has no valid total_games"))
    }
}

/// Anything serialisable, as compact JSON.
fn json<T: Serialize>(v: &T) -> Result<String, String> {
    serde_json::to_string(v).map_err(|e| e.to_string())
}

/// The first key where two configurations differ, with both values (for the error).
fn difference(a: &Value, b: &Value) -> String {
    if let (Some(a), Some(b)) = (a.as_object(), b.as_object()) {
        let keys: std::collections::BTreeSet<&String> = a.keys().chain(b.keys()).collect();
        for k in keys {
            if a.get(k) != b.get(k) {
                let show = |v: Option<&Value>| {
                    let s = v.map_or("(none)".to_string(), Value::to_string);
                    if s.len() > 60 {
                        format!("{}…", s.chars().take(60).collect::<String>())
                    } else {
                        s
                    }
                };
                return format!("{k} {} against {}", show(a.get(k)), show(b.get(k)));
            }
        }
    }
    "they differ".into()
}

/// Merge shard files (each with its name, for the errors): every file of one configuration,
/// every game index `0..total_games` present exactly once. Returns the configuration and
/// the games in index order.
pub fn merge(files: Vec<(String, ShardFile)>) -> Result<(Value, Vec<GameRecord>), String> {
    let Some((first_name, first)) = files.first() else {
        return Err("name the shard files to merge".into());
    };
    let (first_name, config) = (first_name.clone(), first.config.clone());
    let total = first.total_games(&first_name)?;
    // Where each game was found: index -> file.
    let mut found: BTreeMap<u64, (usize, GameRecord)> = BTreeMap::new();
    let names: Vec<String> = files.iter().map(|(n, _)| n.clone()).collect();
    for (k, (name, file)) in files.into_iter().enumerate() {
        if file.config != config {
            return Err(format!(
                "{name}: another run's shard: its configuration differs from {first_name}'s ({})",
                difference(&file.config, &config)
            ));
        }
        for g in file.games {
            if g.index >= total {
                return Err(format!(
                    "{name}: game {} is past the run's {total} games",
                    g.index
                ));
            }
            if !file.shard.holds(g.index) {
                return Err(format!(
                    "{name}: game {} is not shard {}'s (it plays index {} modulo {})",
                    g.index, file.shard, file.shard.index, file.shard.count
                ));
            }
            if let Some((other, _)) = found.get(&g.index) {
                let twice = if *other == k {
                    format!("twice in {name}")
                } else {
                    format!("in both {} and {name}", names[*other])
                };
                return Err(format!("game {} is {twice}: give each shard once", g.index));
            }
            found.insert(g.index, (k, g));
        }
    }
    if let Some(missing) = (0..total).find(|i| !found.contains_key(i)) {
        return Err(format!(
            "game {missing} is in none of the files (they hold {} of the run's {total} games): a shard is missing",
            found.len()
        ));
    }
    Ok((config, found.into_values().map(|(_, g)| g).collect()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use battlemat_core::GameResult;

    fn record(index: u64) -> GameRecord {
        GameRecord {
            index,
            played: Played {
                result: GameResult::from_scores(vec![index as i64, 1], "test"),
                steps: 3,
                decisions: 2,
            },
            armies: None,
        }
    }

    fn file(shard: Shard, total: u64, seed: u64) -> ShardFile {
        ShardFile {
            battlemat_shard: FORMAT,
            config: serde_json::json!({"total_games": total, "seed": seed}),
            shard,
            games: shard.games(total).into_iter().map(record).collect(),
        }
    }

    #[test]
    fn shards_are_parsed_and_deal_the_games_in_turn() {
        let s: Shard = "1/3".parse().unwrap();
        assert_eq!(s.games(8), vec![1, 4, 7]);
        assert!(s.holds(4) && !s.holds(5));
        for bad in ["3/3", "1", "a/2", "0/0", "-1/2"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        assert!("3/3".parse::<Shard>().unwrap_err().contains("0/3 to 2/3"));
    }

    #[test]
    fn a_shard_file_reads_back_as_written() {
        let f = file("0/2".parse().unwrap(), 5, 1);
        let text = f.text().unwrap();
        assert_eq!(text.lines().count(), 5, "{text}");
        assert_eq!(ShardFile::parse("a", &text).unwrap(), f);
        let e = ShardFile::parse(
            "a",
            &text.replace("\"battlemat_shard\":1", "\"battlemat_shard\":9"),
        )
        .unwrap_err();
        assert!(e.contains("format 9"), "{e}");
        assert!(
            ShardFile::parse("a", "{}")
                .unwrap_err()
                .contains("not a Battlemat shard")
        );
    }

    #[test]
    fn merge_gives_every_game_in_order_and_names_what_is_wrong() {
        let shards: Vec<Shard> = (0..3).map(|i| Shard { index: i, count: 3 }).collect();
        let named = |fs: Vec<ShardFile>| -> Vec<(String, ShardFile)> {
            fs.into_iter()
                .enumerate()
                .map(|(k, f)| (format!("s{k}.json"), f))
                .collect()
        };
        let all = named(shards.iter().map(|&s| file(s, 10, 1)).collect());
        let (_, games) = merge(all.clone()).unwrap();
        assert_eq!(games, (0..10).map(record).collect::<Vec<_>>());
        // A missing shard: the first index no file holds.
        let e = merge(all[..2].to_vec()).unwrap_err();
        assert!(
            e.contains("game 2 is in none") && e.contains("7 of the run's 10"),
            "{e}"
        );
        // The same shard twice.
        let mut twice = all.clone();
        twice.push(("again.json".into(), file(shards[1], 10, 1)));
        let e = merge(twice).unwrap_err();
        assert!(
            e.contains("game 1 is in both s1.json and again.json"),
            "{e}"
        );
        // Another run's shard.
        let mut mixed = all.clone();
        mixed[2].1 = file(shards[2], 10, 2);
        let e = merge(mixed).unwrap_err();
        assert!(e.starts_with("s2.json: another run's shard"), "{e}");
        assert!(e.contains("seed 2 against 1"), "{e}");
        // A game in the wrong shard's file.
        let mut wrong = all;
        wrong[0].1.games.push(record(5));
        let e = merge(wrong).unwrap_err();
        assert!(e.contains("s0.json: game 5 is not shard 0/3's"), "{e}");
    }
}
