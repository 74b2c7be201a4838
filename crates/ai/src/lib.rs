//! Players that work for every game through the Game API alone.
//!
//! - [`Random`]: a uniformly random legal action (the baseline, and the conformance
//!   kit's driver).
//! - [`Greedy`]: one-ply expectimax with exact odds. For each legal action it applies the
//!   action and then weighs *every* outcome of the chance points that follow, using their
//!   exact integer weights, until the next decision or the end; the value there is the game's
//!   [`Game::evaluate`]. Chance states are memoised by hash, which keeps an attack of n dice
//!   small when the game, like SWTB, keeps running totals instead of the faces.
//!
//! # Rejected alternative
//!
//! Sampling the dice (Monte-Carlo rollouts of each action) is simpler and works when the
//! tree is huge, but at the scale of one attack it is both slower and noisier than exact
//! enumeration, and two runs of the same position would choose differently. MCTS, for deep
//! search, comes later and builds on the same API.

use battlemat_core::{Game, Next, Seat, Step};
use battlemat_dice::Roller;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;

/// Which player sits in a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PlayerKind {
    Random,
    Greedy,
}

impl fmt::Display for PlayerKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PlayerKind::Random => "random",
            PlayerKind::Greedy => "greedy",
        })
    }
}

impl FromStr for PlayerKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "random" => Ok(PlayerKind::Random),
            "greedy" => Ok(PlayerKind::Greedy),
            _ => Err(format!("unknown player {s:?}: players are random, greedy")),
        }
    }
}

/// Choose an action for the deciding seat. `None` when no seat is deciding.
pub fn choose<G: Game>(kind: PlayerKind, state: &G, roller: &mut Roller) -> Option<G::Action> {
    match kind {
        PlayerKind::Random => Random.choose(state, roller),
        PlayerKind::Greedy => Greedy::default().choose(state, roller),
    }
}

pub struct Random;

impl Random {
    pub fn choose<G: Game>(&self, state: &G, roller: &mut Roller) -> Option<G::Action> {
        self.choose_listing_into(state, roller, &mut Vec::new())
    }

    /// [`Random::choose`], listing into `legal` (a buffer kept from step to step).
    pub fn choose_listing_into<G: Game>(
        &self,
        state: &G,
        roller: &mut Roller,
        legal: &mut Vec<G::Action>,
    ) -> Option<G::Action> {
        state.legal_actions_into(legal);
        if legal.is_empty() {
            return None;
        }
        // One of n equally likely: the same draw as `pick` over n equal weights.
        let i = roller.roll(legal.len() as u32) as usize - 1;
        Some(legal.swap_remove(i))
    }
}

/// One-ply expectimax over exact chance outcomes.
pub struct Greedy {
    /// At most this many chance states are weighed per action; past it the position is
    /// scored by `evaluate` as it stands (an approximation that only very long dice chains
    /// reach).
    pub budget: usize,
}

impl Default for Greedy {
    fn default() -> Self {
        Greedy { budget: 20_000 }
    }
}

/// The value of each legal action for the deciding seat, in `legal_actions` order.
pub fn action_values<G: Game>(state: &G, budget: usize) -> Vec<(G::Action, f64)> {
    let Next::Decide(seat) = state.next() else {
        return vec![];
    };
    let mut memo = HashMap::new();
    state
        .legal_actions()
        .into_iter()
        .map(|a| {
            let mut next = state.clone();
            let v = match next.apply(&Step::Act {
                seat,
                action: a.clone(),
            }) {
                Ok(_) => {
                    let mut left = budget;
                    expect(&next, seat, &mut memo, &mut left)
                }
                Err(_) => f64::NEG_INFINITY,
            };
            (a, v)
        })
        .collect()
}

/// The expected value for `seat` of `state`, weighing every chance outcome until a decision.
pub fn expect<G: Game>(state: &G, seat: Seat, memo: &mut HashMap<G, f64>, left: &mut usize) -> f64 {
    expect_to(state, seat, memo, left, MAX_CHANCE_DEPTH)
}

/// Chance points in a row weighed before the position is scored as it stands: a chain of
/// dice that never repeats a state (a tie rolled again and again, each roll remembered)
/// would otherwise recurse until the stack runs out.
pub const MAX_CHANCE_DEPTH: usize = 64;

fn expect_to<G: Game>(
    state: &G,
    seat: Seat,
    memo: &mut HashMap<G, f64>,
    left: &mut usize,
    depth: usize,
) -> f64 {
    let Next::Chance(c) = state.next() else {
        return state.evaluate(seat);
    };
    if depth == 0 {
        return state.evaluate(seat);
    }
    if let Some(v) = memo.get(state) {
        return *v;
    }
    if *left == 0 {
        return state.evaluate(seat);
    }
    *left -= 1;
    // A chance point can lead back to itself (a tie rolled again). Until this state's value
    // is known, a revisit scores it as it stands, which cuts the cycle.
    memo.insert(state.clone(), state.evaluate(seat));
    let total = c.total_weight() as f64;
    let mut v = 0.0;
    let mut events = Vec::new();
    for o in c.list() {
        let mut next = state.clone();
        events.clear();
        if next
            .apply_trusted(&Step::Roll { value: o.value }, &mut events)
            .is_ok()
        {
            v += o.weight as f64 / total * expect_to(&next, seat, memo, left, depth - 1);
        }
    }
    memo.insert(state.clone(), v);
    v
}

impl Greedy {
    pub fn choose<G: Game>(&self, state: &G, roller: &mut Roller) -> Option<G::Action> {
        let values = action_values(state, self.budget);
        let best = values
            .iter()
            .map(|(_, v)| *v)
            .fold(f64::NEG_INFINITY, f64::max);
        // Among equally good actions, pick at random (seeded), so that ties do not always
        // fall to the first listed action.
        let top: Vec<&G::Action> = values
            .iter()
            .filter(|(_, v)| *v >= best - 1e-9)
            .map(|(a, _)| a)
            .collect();
        let i = roller.pick(&vec![1; top.len()])?;
        Some(top[i].clone())
    }
}

/// How a game between players went.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Played {
    pub result: battlemat_core::GameResult,
    pub steps: usize,
    pub decisions: usize,
}

/// Play a whole game: seats by `players` (cycled if shorter), dice from `roller`, stopping
/// after `max_steps` (an error: every game must end).
pub fn play<G: Game>(
    setup: &G::Setup,
    players: &[PlayerKind],
    roller: &mut Roller,
    max_steps: usize,
) -> Result<Played, String> {
    let state = G::new_game(setup).map_err(|e| e.to_string())?;
    play_from(state, players, roller, max_steps)
}

/// [`play`] from a state (a new game made once and cloned for each of many games).
pub fn play_from<G: Game>(
    mut state: G,
    players: &[PlayerKind],
    roller: &mut Roller,
    max_steps: usize,
) -> Result<Played, String> {
    let mut steps = 0;
    let mut decisions = 0;
    let mut events = Vec::new();
    let mut listed = Vec::new();
    loop {
        if steps > max_steps {
            return Err(format!("game did not end within {max_steps} steps"));
        }
        let step = match state.next() {
            Next::Over => {
                let result = state.result().ok_or("the game is over without a result")?;
                return Ok(Played {
                    result,
                    steps,
                    decisions,
                });
            }
            Next::Chance(o) => Step::Roll {
                value: o.roll(roller),
            },
            Next::Decide(seat) => {
                decisions += 1;
                let kind = players.get(seat as usize % players.len().max(1)).copied();
                let action = match kind.unwrap_or(PlayerKind::Random) {
                    PlayerKind::Random => Random.choose_listing_into(&state, roller, &mut listed),
                    other => choose(other, &state, roller),
                }
                .ok_or("a seat must decide but has no legal action")?;
                Step::Act { seat, action }
            }
        };
        // The players take listed actions and the dice listed faces: the trusted path.
        events.clear();
        state
            .apply_trusted(&step, &mut events)
            .map_err(|e| format!("step {steps}: {e}"))?;
        steps += 1;
    }
}
