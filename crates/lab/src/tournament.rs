//! Round-robin tournaments between AI players.
//!
//! Every pair of players meets `games_per_pair` times in a two-seat game, swapping seats
//! each game (the first of a pair sits in seat 0 in even games), so a seat's advantage
//! falls on both alike. A game is a win for the seat in sole first place and a draw when
//! first place is shared (or in a co-operative mission, where both seats share the fate).
//! A game the runner's safety limit stopped ([`Spec::unfinished_by_limit`]) is neither: it
//! is counted as unfinished and left out of the ratings.

// The tallies are a matrix read by (row, column): indices say it best.
#![allow(clippy::needless_range_loop)]

use crate::LabError;
use crate::shard::Shard;
use crate::stats::{Rating, Tally, fit_elo, wilson};
use battlemat_ai::{PlayError, Played, PlayerKind};
use battlemat_core::GameResult;
use battlemat_dice::Roller;
use serde::Serialize;

/// Which players meet, how often, and the dice.
#[derive(Clone, Debug)]
pub struct Spec {
    pub players: Vec<PlayerKind>,
    pub games_per_pair: u64,
    pub seed: u64,
    /// Worker threads (0: every core); the report does not depend on it.
    pub threads: usize,
    /// Whether the runner set the game's safety limit (the texts have none): then a game it
    /// ended (`GameResult::by_limit`) is unfinished, neither a win nor a draw.
    pub unfinished_by_limit: bool,
}

/// One player's line of the table.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Standing {
    pub player: String,
    pub rating: Rating,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// Games the safety limit stopped: neither won, drawn nor lost.
    pub unfinished: u64,
}

/// One pair's games, from `a`'s side.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Meeting {
    pub a: String,
    pub b: String,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// Games the safety limit stopped: neither won, drawn nor lost.
    pub unfinished: u64,
    /// `a`'s share of the decided games and its Wilson 95 % interval (`null` if none was
    /// decided).
    pub decided_share: Option<f64>,
    pub decided_ci95: Option<[f64; 2]>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    pub games: u64,
    pub games_per_pair: u64,
    pub seed: u64,
    /// Best first.
    pub standings: Vec<Standing>,
    pub meetings: Vec<Meeting>,
    /// Games the safety limit stopped (counted only when [`Spec::unfinished_by_limit`]).
    pub unfinished: u64,
    pub mean_steps: f64,
}

/// The games in order: (seat 0's player, seat 1's player).
pub fn schedule(players: usize, games_per_pair: u64) -> Vec<(usize, usize)> {
    let games = schedule_len(players, games_per_pair).unwrap_or(0);
    (0..games)
        .map(|i| pairing(players, games_per_pair, i))
        .collect()
}

/// How many games the schedule holds (`None` past `u64`).
pub fn schedule_len(players: usize, games_per_pair: u64) -> Option<u64> {
    let n = players as u64;
    (n * n.saturating_sub(1) / 2).checked_mul(games_per_pair)
}

/// Game `i` of the schedule, worked out from its index (the schedule is never built: a
/// tournament of many games holds no list of them): pair `i / games_per_pair` in the order
/// (0,1), (0,2), …, (1,2), …, seats swapped on odd games.
pub fn pairing(players: usize, games_per_pair: u64, i: u64) -> (usize, usize) {
    let (mut pair, k) = (i / games_per_pair, i % games_per_pair);
    for a in 0..players {
        let row = (players - a - 1) as u64;
        if pair < row {
            let b = a + 1 + pair as usize;
            return if k % 2 == 0 { (a, b) } else { (b, a) };
        }
        pair -= row;
    }
    (0, 1)
}

/// Seat 0's outcome: 1 a win, 0 a loss, ½ a draw (or a co-operative mission's shared fate).
fn seat0_score(r: &GameResult) -> f64 {
    match crate::seat_wins(r).as_deref() {
        Some([true, false]) => 1.0,
        Some([false, true]) => 0.0,
        _ => 0.5,
    }
}

/// Plays one game with these players in seat order.
pub type PlayOne<'a> = &'a (dyn Fn(&[PlayerKind], &mut Roller) -> Result<Played, PlayError> + Sync);

/// How many games the tournament plays in all, after checking the spec.
pub fn total_games(spec: &Spec) -> Result<u64, LabError> {
    let n = spec.players.len();
    if n < 2 {
        return Err("a tournament needs at least two players".into());
    }
    if spec.games_per_pair == 0 {
        return Err("at least one game a pair".into());
    }
    let gpp = spec.games_per_pair;
    schedule_len(n, gpp)
        .filter(|&g| g <= crate::MAX_GAMES)
        .ok_or_else(|| crate::too_many_games(n as u64 * (n as u64 - 1) / 2, gpp).into())
}

/// Play the tournament: `play` plays one game with these players in seat order, dice
/// from the roller. `tick` is called after each game.
pub fn run(spec: &Spec, play: PlayOne<'_>, tick: &(dyn Fn() + Sync)) -> Result<Report, LabError> {
    let whole = Shard { index: 0, count: 1 };
    let games: Vec<Played> = play_games(spec, whole, play, tick)?
        .into_iter()
        .map(|(_, p)| p)
        .collect();
    report(spec, &games)
}

/// Play one shard's games (all of them with shard `0/1`): each with its index, in order.
pub fn play_games(
    spec: &Spec,
    shard: Shard,
    play: PlayOne<'_>,
    tick: &(dyn Fn() + Sync),
) -> Result<Vec<(u64, Played)>, LabError> {
    let (n, gpp) = (spec.players.len(), spec.games_per_pair);
    let indices = shard.games(total_games(spec)?);
    let results = crate::run_indices(
        &indices,
        spec.seed,
        spec.threads,
        &|i, roller| {
            let (a, b) = pairing(n, gpp, i);
            play(&[spec.players[a], spec.players[b]], roller)
        },
        tick,
    )?;
    crate::indexed(indices, results)
}

/// The report of a whole tournament from its games' results, in game order (one run's, or
/// its shards' merged).
pub fn report(spec: &Spec, results: &[Played]) -> Result<Report, LabError> {
    let games = total_games(spec)?;
    if results.len() as u64 != games {
        return Err(LabError::Refused(format!(
            "{} results for a tournament of {games} games",
            results.len()
        )));
    }
    let (n, gpp) = (spec.players.len(), spec.games_per_pair);
    let mut tally = vec![vec![Tally::default(); n]; n];
    // Games stopped by the safety limit, by pair (lower index first).
    let mut unfinished = vec![vec![0u64; n]; n];
    let mut steps = 0.0;
    for (i, played) in results.iter().enumerate() {
        steps += played.steps as f64;
        let (a, b) = pairing(n, gpp, i as u64);
        if spec.unfinished_by_limit && played.result.by_limit {
            unfinished[a.min(b)][a.max(b)] += 1;
            continue;
        }
        let s = seat0_score(&played.result);
        // Kept from the lower index's side.
        let (lo, hi, s_lo) = if a < b { (a, b, s) } else { (b, a, 1.0 - s) };
        let t = &mut tally[lo][hi];
        if s_lo == 1.0 {
            t.wins += 1.0;
        } else if s_lo == 0.0 {
            t.losses += 1.0;
        } else {
            t.draws += 1.0;
        }
    }
    let ratings = fit_elo(&tally);
    let name = |i: usize| spec.players[i].to_string();
    let mut standings: Vec<Standing> = (0..n)
        .map(|i| {
            let (mut w, mut d, mut l) = (0.0, 0.0, 0.0);
            for j in 0..n {
                if i < j {
                    (w, d, l) = (
                        w + tally[i][j].wins,
                        d + tally[i][j].draws,
                        l + tally[i][j].losses,
                    );
                } else if j < i {
                    (w, d, l) = (
                        w + tally[j][i].losses,
                        d + tally[j][i].draws,
                        l + tally[j][i].wins,
                    );
                }
            }
            Standing {
                player: name(i),
                rating: ratings[i],
                wins: w as u64,
                draws: d as u64,
                losses: l as u64,
                unfinished: (0..n).map(|j| unfinished[i.min(j)][i.max(j)]).sum(),
            }
        })
        .collect();
    standings.sort_by(|a, b| b.rating.elo.total_cmp(&a.rating.elo));
    let mut meetings = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            let t = tally[i][j];
            let decided = t.wins + t.losses;
            meetings.push(Meeting {
                a: name(i),
                b: name(j),
                wins: t.wins as u64,
                draws: t.draws as u64,
                losses: t.losses as u64,
                unfinished: unfinished[i][j],
                decided_share: (decided > 0.0).then(|| t.wins / decided),
                decided_ci95: (decided > 0.0).then(|| wilson(t.wins, decided)),
            });
        }
    }
    Ok(Report {
        games,
        games_per_pair: spec.games_per_pair,
        seed: spec.seed,
        standings,
        meetings,
        unfinished: unfinished.iter().flatten().sum(),
        mean_steps: steps / games as f64,
    })
}

impl Report {
    /// The table in words.
    pub fn text(&self, title: &str) -> String {
        let mut s = format!(
            "{title}: {} games, {} a pair with seats swapped, seed {}\n\n",
            self.games, self.games_per_pair, self.seed
        );
        let w = self
            .standings
            .iter()
            .map(|x| x.player.len())
            .max()
            .unwrap_or(6)
            .max(6);
        // The unfinished column only when the safety limit stopped a game.
        let limited = self.unfinished > 0;
        s += &format!(
            "  {:<w$}  {:>6}  {:>16}  {:>5} {:>5} {:>5}{}\n",
            "player",
            "Elo",
            "95% interval",
            "won",
            "drawn",
            "lost",
            if limited { " unfinished" } else { "" }
        );
        for x in &self.standings {
            s += &format!(
                "  {:<w$}  {:>+6.0}  [{:>+6.0}, {:>+6.0}]  {:>5} {:>5} {:>5}{}\n",
                x.player,
                x.rating.elo,
                x.rating.ci95[0],
                x.rating.ci95[1],
                x.wins,
                x.draws,
                x.losses,
                if limited {
                    format!(" {:>10}", x.unfinished)
                } else {
                    String::new()
                }
            );
        }
        s += "\n  Elo is centred on the players' mean; each pair also counts one virtual draw.\n\n";
        for m in &self.meetings {
            s += &format!(
                "  {} vs {}: {} won, {} drawn, {} lost",
                m.a, m.b, m.wins, m.draws, m.losses
            );
            if m.unfinished > 0 {
                s += &format!(", {} unfinished", m.unfinished);
            }
            if let (Some(p), Some([lo, hi])) = (m.decided_share, m.decided_ci95) {
                s += &format!(
                    "; {:.1}% of decided games (95% [{:.1}%, {:.1}%])",
                    100.0 * p,
                    100.0 * lo,
                    100.0 * hi
                );
            }
            s += "\n";
        }
        if limited {
            s += &format!(
                "\n  unfinished {}: stopped by the safety limit, neither a win nor a draw (left out of the ratings)\n",
                self.unfinished
            );
        }
        s += &format!("\n  mean length {:.1} steps\n", self.mean_steps);
        s
    }

    /// An SVG bar chart of the ratings with their intervals.
    pub fn svg(&self, title: &str) -> Result<String, String> {
        let bars: Vec<crate::plot::Bar> = self
            .standings
            .iter()
            .map(|x| crate::plot::Bar {
                label: x.player.clone(),
                value: x.rating.elo,
                interval: Some(x.rating.ci95),
            })
            .collect();
        crate::plot::bars(title, "Elo (95% interval)", &bars, 0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_schedule_swaps_seats_and_meets_every_pair() {
        let s = schedule(3, 4);
        assert_eq!(s.len(), 12);
        for (i, j) in [(0, 1), (0, 2), (1, 2)] {
            assert_eq!(s.iter().filter(|&&p| p == (i, j)).count(), 2);
            assert_eq!(s.iter().filter(|&&p| p == (j, i)).count(), 2);
        }
        // Every game worked out from its index, as the nested loops would list them.
        for (players, gpp) in [(2, 3), (4, 1), (5, 2), (7, 5)] {
            let mut listed = Vec::new();
            for i in 0..players {
                for j in i + 1..players {
                    for k in 0..gpp {
                        listed.push(if k % 2 == 0 { (i, j) } else { (j, i) });
                    }
                }
            }
            assert_eq!(
                schedule(players, gpp),
                listed,
                "{players} players, {gpp} a pair"
            );
        }
        assert_eq!(schedule_len(3, u64::MAX), None);
    }

    #[test]
    fn too_many_games_are_refused_before_any_is_played() {
        let spec = Spec {
            players: vec![PlayerKind::Greedy, PlayerKind::Random, PlayerKind::Random],
            games_per_pair: crate::MAX_GAMES,
            seed: 0,
            threads: 1,
            unfinished_by_limit: true,
        };
        let played = std::sync::atomic::AtomicU64::new(0);
        let e = run(&spec, &|_, _| unreachable!("no game is played"), &|| {
            played.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        })
        .unwrap_err();
        assert!(e.to_string().contains("1000000"), "{e}");
        assert_eq!(played.into_inner(), 0);
    }

    fn result(ranks: Vec<u8>) -> GameResult {
        let scores = ranks.iter().map(|&r| -(r as i64)).collect();
        GameResult::from_scores(scores, "test")
    }

    /// A fake game: the lower-numbered player kind always wins, whatever its seat.
    #[test]
    fn a_stronger_player_is_rated_higher_whatever_its_seat() {
        let spec = Spec {
            players: vec![PlayerKind::Greedy, PlayerKind::Random],
            games_per_pair: 10,
            seed: 3,
            threads: 2,
            unfinished_by_limit: true,
        };
        let play = |p: &[PlayerKind], _: &mut Roller| -> Result<Played, PlayError> {
            let ranks = if p[0] == PlayerKind::Greedy {
                vec![1, 2]
            } else {
                vec![2, 1]
            };
            Ok(Played {
                result: result(ranks),
                steps: 5,
                decisions: 2,
            })
        };
        let r = run(&spec, &play, &|| {}).unwrap();
        assert_eq!(r.standings[0].player, "greedy");
        assert_eq!((r.standings[0].wins, r.standings[0].losses), (10, 0));
        assert_eq!(r.meetings[0].decided_share, Some(1.0));
        assert!(r.standings[0].rating.elo > 0.0);
        let text = r.text("Test");
        assert!(
            text.contains("greedy vs random: 10 won, 0 drawn, 0 lost"),
            "{text}"
        );
        let svg = r.svg("Test").unwrap();
        assert!(svg.starts_with("<svg") && svg.contains("greedy"), "{svg}");
    }

    /// Games the safety limit stopped are unfinished: neither a win nor a draw, left out of
    /// the ratings, and counted (issue 20, "report games it stopped as unfinished").
    #[test]
    fn games_stopped_by_the_safety_limit_are_unfinished() {
        let mut spec = Spec {
            players: vec![PlayerKind::Greedy, PlayerKind::Random],
            games_per_pair: 10,
            seed: 3,
            threads: 2,
            unfinished_by_limit: true,
        };
        // Even games: greedy wins outright; odd games: stopped by the limit, greedy ahead
        // on the house rule's score.
        let play = |p: &[PlayerKind], r: &mut Roller| -> Result<Played, PlayError> {
            let stopped = r.roll(2) == 1;
            let ranks = if p[0] == PlayerKind::Greedy {
                vec![1, 2]
            } else {
                vec![2, 1]
            };
            let result = if stopped {
                result(ranks).at_limit()
            } else {
                result(ranks)
            };
            Ok(Played {
                result,
                steps: 5,
                decisions: 2,
            })
        };
        let r = run(&spec, &play, &|| {}).unwrap();
        let g = &r.standings[0];
        assert_eq!(g.player, "greedy");
        assert!(r.unfinished > 0 && r.unfinished < 10, "{}", r.unfinished);
        assert_eq!(g.wins + g.draws + g.losses + g.unfinished, 10);
        assert_eq!((g.unfinished, g.draws), (r.unfinished, 0));
        assert_eq!(r.meetings[0].unfinished, r.unfinished);
        assert_eq!(r.meetings[0].wins, 10 - r.unfinished);
        let text = r.text("Test");
        assert!(
            text.contains(&format!(
                "greedy vs random: {} won, 0 drawn, 0 lost, {} unfinished",
                10 - r.unfinished,
                r.unfinished
            )),
            "{text}"
        );
        assert!(
            text.contains(&format!(
                "unfinished {}: stopped by the safety limit, neither a win nor a draw",
                r.unfinished
            )),
            "{text}"
        );
        // A limit the user asked for decides games by its house rule: all are counted.
        spec.unfinished_by_limit = false;
        let r = run(&spec, &play, &|| {}).unwrap();
        assert_eq!((r.unfinished, r.standings[0].wins), (0, 10));
        assert!(!r.text("Test").contains("unfinished"));
    }
}
