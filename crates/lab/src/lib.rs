//! The lab: many games between AI players, and what they say about the players and the
//! rules — tournaments with Elo ratings, side and unit balance — as tables, JSON and SVG.
//!
//! # Design
//!
//! The lab knows nothing of any game. It is handed a function that plays one game between
//! players from a dice stream (the registry's `Prepared::play`, or a test's closure) and
//! works on the results alone ([`battlemat_ai::Played`]): who placed where, and for the
//! balance lab, what each seat fielded. Game `i` of a run always uses dice stream `i` of
//! the seed and results are gathered in game order, so a report is the same bytes whatever
//! the thread count ([`run_games`]).
//!
//! A run can be split across machines ([`shard`]): shard `I/K` plays the games whose index
//! is `I` modulo `K`, each from its own dice stream as above, and writes their results to a
//! shard file; [`shard::merge`] checks that the files hold every game exactly once under one
//! configuration and gives the results back in game order, so the report made from them is
//! the one run's, byte for byte, whatever `K`.
//!
//! Statistics are the plain, well-understood ones: Wilson intervals for rates, a
//! Bradley–Terry fit for Elo with intervals from its Fisher information ([`stats`]).
//!
//! # Rejected alternative
//!
//! Computing Elo incrementally, game by game, as chess federations do: it depends on the
//! order the games finished in (so on the thread count) and has no honest interval. A
//! maximum-likelihood fit over all the games is order-free and gives one.

pub mod balance;
pub mod plot;
pub mod shard;
pub mod stats;
pub mod tournament;

use battlemat_ai::PlayError;
use battlemat_core::GameResult;
use battlemat_dice::Roller;
use rayon::prelude::*;

/// Who won a game, seat by seat: the seats in first place (a side's seats together); a
/// co-operative mission won is a win for every seat, one lost a win for none. `None` for a
/// draw (first place shared by every seat).
pub fn seat_wins(r: &GameResult) -> Option<Vec<bool>> {
    let mut w = vec![false; r.ranks.len()];
    match r.cooperative {
        Some(won) => w.iter_mut().for_each(|x| *x = won),
        None if r.is_shared() => return None,
        None => {
            for s in r.winners() {
                if let Some(x) = w.get_mut(s as usize) {
                    *x = true;
                }
            }
        }
    }
    Some(w)
}

/// Why a run of games gave no report: a game that could not be played (which, and why,
/// from the AI's typed [`PlayError`]), or a run the lab refuses (too many games, a spec that
/// does not add up, the worker threads not starting).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum LabError {
    #[error("game {index}: {error}")]
    Game { index: u64, error: PlayError },
    #[error("{0}")]
    Refused(String),
}

impl From<String> for LabError {
    fn from(reason: String) -> LabError {
        LabError::Refused(reason)
    }
}

impl From<&str> for LabError {
    fn from(reason: &str) -> LabError {
        LabError::Refused(reason.to_string())
    }
}

/// Each game's result with its index, or the first game that failed, typed.
pub(crate) fn indexed<T>(
    indices: Vec<u64>,
    results: Vec<Result<T, PlayError>>,
) -> Result<Vec<(u64, T)>, LabError> {
    indices
        .into_iter()
        .zip(results)
        .map(|(index, r)| {
            r.map(|g| (index, g))
                .map_err(|error| LabError::Game { index, error })
        })
        .collect()
}

/// The most games one run plays: every game's result is kept for the report (a few dozen
/// bytes each), so this bounds the memory a run takes (`--games` is checked against it).
pub const MAX_GAMES: u64 = 1_000_000;

/// The refusal of a run of more than [`MAX_GAMES`]: `pairs` × `per_pair` games.
pub fn too_many_games(pairs: u64, per_pair: u64) -> String {
    format!(
        "--games {per_pair}: {} games in all; a run plays at most {MAX_GAMES} (each game's result is kept for the report)",
        if pairs == 1 {
            per_pair.to_string()
        } else {
            format!("{pairs} pairs × {per_pair}")
        }
    )
}

/// Play `games` games on `threads` worker threads (0: every core): game `i` gets dice
/// stream `i` of `seed`; the results come back in game order. `tick` is called after each
/// game (a progress bar).
pub fn run_games<T: Send>(
    games: u64,
    seed: u64,
    threads: usize,
    play: &(dyn Fn(u64, &mut Roller) -> T + Sync),
    tick: &(dyn Fn() + Sync),
) -> Result<Vec<T>, LabError> {
    if games > MAX_GAMES {
        return Err(too_many_games(1, games).into());
    }
    let all: Vec<u64> = (0..games).collect();
    run_indices(&all, seed, threads, play, tick)
}

/// Play the games with these indices (a shard's, [`shard::Shard::games`]) as [`run_games`]
/// plays them: game `i` from dice stream `i` of `seed`, whatever else is played beside it.
/// The results come back in the order of `indices`.
pub fn run_indices<T: Send>(
    indices: &[u64],
    seed: u64,
    threads: usize,
    play: &(dyn Fn(u64, &mut Roller) -> T + Sync),
    tick: &(dyn Fn() + Sync),
) -> Result<Vec<T>, LabError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| format!("cannot start the worker threads: {e}"))?;
    Ok(pool.install(|| {
        indices
            .par_iter()
            .map(|&i| {
                let mut roller = Roller::new(seed, i);
                let r = play(i, &mut roller);
                tick();
                r
            })
            .collect()
    }))
}
