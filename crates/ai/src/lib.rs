//! Players that work for every game through the Game API alone.
//!
//! - [`Random`]: a uniformly random legal action (the baseline, and the conformance
//!   kit's driver).
//! - [`Greedy`]: one-ply expectimax. For each legal action it applies the action and then
//!   weighs *every* outcome of the chance points that follow, using their exact integer
//!   weights, until the next decision or the end; the value there is the game's
//!   [`Game::evaluate`]. Chance states are memoised by hash, which keeps an attack of n dice
//!   small when the game, like SWTB, keeps running totals instead of the faces (SERM's
//!   pools keep the faces for the events, but leave them out of equality and the hash). Chance
//!   states reached with [`NEGLIGIBLE`] chance in all are scored as they stand: an
//!   exploding die's tail is endless, and weighing it to [`MAX_CHANCE_DEPTH`] dice was most
//!   of a SERM decision (greedy's median there went from 13.5 to 2.0 ms, its slowest from
//!   83 to 20 ms, in the tuning example's 200 games of the skirmish). Where an
//!   action's dice make a tree of more than [`Greedy::exact_limit`] chance states, the
//!   action is valued by a fixed number of sampled chains of dice instead (the same chains
//!   for every action of the decision), so a decision's time and memory are bounded
//!   whatever the game. Among actions valued alike it draws at random (seeded), one
//!   complete in itself before one that begins a move in steps ([`complete_first`]).
//!
//! # Rejected alternatives
//!
//! Sampling every action's dice (Monte-Carlo rollouts throughout) is simpler, but at the
//! scale of one attack it is both slower and noisier than exact enumeration. Enumerating
//! every action exactly, whatever its tree (the first greedy, kept as
//! [`Greedy::exhaustive`] for the benches), spent seconds and gigabytes on one decision
//! where dice chain into dice (SD ERA's egg hunt, ms-d20's ambush). MCTS, for deep search,
//! builds on the same API.

use battlemat_core::{Game, Next, Seat, Step};
use battlemat_dice::Roller;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;

/// The memo's hasher: foldhash, not SipHash (hashing whole states was 42 % of Greedy's time).
pub type Memo<G> = HashMap<G, f64, foldhash::fast::FixedState>;

pub mod erased;
pub mod mcts;

pub use erased::{AiFor, DynAi, DynPlayer, PlayError, Prepared, WrongGame};
pub use mcts::{
    Backup, Budget, Mcts, MctsConfig, Playouts, RACE_EVERY, RACE_FROM, RACE_STANDARD_ERRORS, Work,
    default_budget,
};

/// Which player sits in a seat, by name: `random`, `greedy`, `mcts` (the default budget,
/// [`DEFAULT_MCTS`], times the game's effort: [`default_budget`]), `mcts:N` (N iterations a
/// move), `mcts:Nw` (N units of work a move, [`mcts::Work`]), `mcts:2s` or `mcts:500ms`
/// (that long a move). Serialised as that name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PlayerKind {
    Random,
    Greedy,
    /// `greedy:exact`: the greedy player that weighs every action's dice exactly, however
    /// big the tree ([`Greedy::exhaustive`]): slow where dice chain into dice, kept to
    /// compare against and to replay results made before greedy sampled.
    GreedyExact,
    Mcts(Budget),
}

/// `mcts` without a budget: units of work a move ([`mcts::Work`]), chosen so that a
/// decision's median is at most 50 ms on one core in every game's main scenario
/// (`cargo bench -p battlemat-ai --bench mcts`; the README has the figures). A game may ask
/// for a multiple of it ([`battlemat_core::SearchDefaults::effort`]: the `mcts` player's
/// budget is [`default_budget`]); the name `mcts` stands for both, and so does
/// `mcts:1000000w`, which is the same value.
pub const DEFAULT_MCTS: Budget = Budget::Work(DEFAULT_MCTS_WORK);

/// The work in [`DEFAULT_MCTS`].
pub const DEFAULT_MCTS_WORK: u32 = 1_000_000;

/// The most an `mcts:N` budget may ask for (iterations, units of work, or milliseconds:
/// ten minutes).
pub const MAX_MCTS_ITERATIONS: u32 = 100_000_000;
pub const MAX_MCTS_WORK: u32 = 4_000_000_000;
pub const MAX_MCTS_MILLIS: u32 = 600_000;

impl fmt::Display for PlayerKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerKind::Random => f.write_str("random"),
            PlayerKind::Greedy => f.write_str("greedy"),
            PlayerKind::GreedyExact => f.write_str("greedy:exact"),
            PlayerKind::Mcts(DEFAULT_MCTS) => f.write_str("mcts"),
            PlayerKind::Mcts(Budget::Iterations(n)) => write!(f, "mcts:{n}"),
            PlayerKind::Mcts(Budget::Work(n)) => write!(f, "mcts:{n}w"),
            PlayerKind::Mcts(Budget::Millis(ms)) if ms % 1000 == 0 => {
                write!(f, "mcts:{}s", ms / 1000)
            }
            PlayerKind::Mcts(Budget::Millis(ms)) => write!(f, "mcts:{ms}ms"),
        }
    }
}

impl FromStr for PlayerKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        const NAMES: &str = "random, greedy, greedy:exact, mcts, mcts:N (iterations a move), mcts:Nw (units of work a move), mcts:2s or mcts:500ms (time a move)";
        match s {
            "random" => return Ok(PlayerKind::Random),
            "greedy" => return Ok(PlayerKind::Greedy),
            "greedy:exact" => return Ok(PlayerKind::GreedyExact),
            "mcts" => return Ok(PlayerKind::Mcts(DEFAULT_MCTS)),
            _ => {}
        }
        let Some(b) = s.strip_prefix("mcts:") else {
            return Err(format!("unknown player {s:?}: players are {NAMES}"));
        };
        let bad = |why: &str| format!("player {s:?}: {why}; players are {NAMES}");
        let number = |t: &str| -> Result<u64, String> {
            t.parse::<u64>()
                .map_err(|_| bad(&format!("{t:?} is not a whole number")))
        };
        // A time ("2s", "500ms"), units of work ("300w") or a number of iterations.
        enum Unit {
            Time,
            Work,
            Iterations,
        }
        let (n, unit) = if let Some(ms) = b.strip_suffix("ms") {
            (number(ms)?, Unit::Time)
        } else if let Some(secs) = b.strip_suffix('s') {
            (number(secs)?.saturating_mul(1000), Unit::Time)
        } else if let Some(w) = b.strip_suffix('w') {
            (number(w)?, Unit::Work)
        } else {
            (number(b)?, Unit::Iterations)
        };
        let budget = match unit {
            Unit::Time if (1..=u64::from(MAX_MCTS_MILLIS)).contains(&n) => Budget::Millis(n as u32),
            Unit::Time => return Err(bad("a time budget is 1ms to 600s")),
            Unit::Work if (1..=u64::from(MAX_MCTS_WORK)).contains(&n) => Budget::Work(n as u32),
            Unit::Work => return Err(bad(&format!("units of work are 1 to {MAX_MCTS_WORK}"))),
            Unit::Iterations if (1..=u64::from(MAX_MCTS_ITERATIONS)).contains(&n) => {
                Budget::Iterations(n as u32)
            }
            Unit::Iterations => {
                return Err(bad(&format!("iterations are 1 to {MAX_MCTS_ITERATIONS}")));
            }
        };
        Ok(PlayerKind::Mcts(budget))
    }
}

impl Serialize for PlayerKind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for PlayerKind {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// Choose an action for the deciding seat, with no memory of earlier moves (an MCTS
/// player searches from scratch). `None` when no seat is deciding.
pub fn choose<G: Game>(kind: PlayerKind, state: &G, roller: &mut Roller) -> Option<G::Action> {
    Player::new(kind).choose(state, roller)
}

/// A player in a seat for a whole game: what it keeps between moves (an MCTS player's
/// trees, a random player's listing buffer).
pub enum Player<G: Game> {
    Random { listed: Vec<G::Action> },
    Greedy(Greedy),
    Mcts(Box<Mcts<G>>),
}

impl<G: Game> Player<G> {
    pub fn new(kind: PlayerKind) -> Player<G> {
        match kind {
            PlayerKind::Random => Player::Random { listed: Vec::new() },
            PlayerKind::Greedy => Player::Greedy(Greedy::default()),
            PlayerKind::GreedyExact => Player::Greedy(Greedy::exhaustive()),
            PlayerKind::Mcts(b) => Player::with_mcts(MctsConfig::for_game::<G>(b)),
        }
    }

    /// An MCTS player with its own settings (experiments, tuning).
    pub fn with_mcts(config: MctsConfig) -> Player<G> {
        Player::Mcts(Box::new(Mcts::new(config)))
    }

    /// The action for the deciding seat of `state`; `None` when no seat decides or it has
    /// no action.
    pub fn choose(&mut self, state: &G, roller: &mut Roller) -> Option<G::Action> {
        match self {
            Player::Random { listed } => Random.choose_listing_into(state, roller, listed),
            Player::Greedy(g) => g.choose(state, roller),
            Player::Mcts(m) => m.choose(state, roller),
        }
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

/// Every decision state of one random game from `game`, in order: its dice and the
/// [`Random`] player's actions drawn from one roller seeded with `seed`, at most `max_steps`
/// steps. The positions the AI benches and tests decide at.
pub fn random_decisions<G: Game>(mut game: G, seed: u64, max_steps: usize) -> Vec<G> {
    let mut roller = Roller::new(seed, 0);
    let (mut out, mut events) = (Vec::new(), Vec::new());
    for _ in 0..max_steps {
        let step = match game.next() {
            Next::Over => break,
            Next::Chance(c) => Step::Roll {
                value: c.roll(&mut roller),
            },
            Next::Decide(seat) => {
                out.push(game.clone());
                let Some(action) = Random.choose(&game, &mut roller) else {
                    break;
                };
                Step::Act { seat, action }
            }
        };
        events.clear();
        if game.apply_trusted(&step, &mut events).is_err() {
            break;
        }
    }
    out
}

/// One-ply expectimax: exact over the dice where an action's tree of dice is small, sampled
/// where it is not.
///
/// For each legal action, the dice that follow it are first weighed exactly (every face by
/// its integer weight, chance states memoised) up to [`Greedy::exact_limit`] chance states.
/// An action whose dice make a bigger tree (a long chain of opposed rolls, a pool of damage
/// dice per section) is valued instead by [`Greedy::samples`] chains of dice rolled to the
/// next decision, the same chains for every action of the decision (common random numbers,
/// so two actions are compared on the same luck). The memo is emptied between actions, so a
/// decision holds at most `exact_limit` states whatever the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Greedy {
    /// Chance states weighed exactly for one action before its dice are sampled instead.
    pub exact_limit: usize,
    /// Chains of dice sampled for an action past `exact_limit`. With 0 such an action's
    /// position is scored as it stands where the limit was hit (no sampling).
    pub samples: usize,
    /// Whether chance states reached with [`NEGLIGIBLE`] chance in all are scored as they
    /// stand instead of weighed (the tails of exploding dice and of ties rolled again).
    pub cut_tails: bool,
}

impl Default for Greedy {
    fn default() -> Self {
        Greedy {
            exact_limit: 512,
            samples: 32,
            cut_tails: true,
        }
    }
}

impl Greedy {
    /// The earlier player: exact up to 20,000 chance states an action, never sampling and
    /// cutting no tail (the peer the benches measure the default against).
    pub fn exhaustive() -> Greedy {
        Greedy {
            exact_limit: 20_000,
            samples: 0,
            cut_tails: false,
        }
    }
}

/// What one greedy decision cost: actions valued, chance states weighed exactly, actions
/// whose dice were sampled, and the most states the memo held at once.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GreedyStats {
    pub actions: usize,
    pub exact_states: usize,
    pub sampled_actions: usize,
    pub peak_memo: usize,
    /// Steps applied (an action, a die weighed or sampled) and positions evaluated: what
    /// an MCTS search that starts from greedy's values counts as its work ([`mcts::Work`]).
    pub steps: usize,
    pub evaluations: usize,
}

/// The value of each legal action for the deciding seat, in `legal_actions` order, by
/// the default [`Greedy`]; `roller` is drawn from only where an action's dice are sampled.
pub fn action_values<G: Game>(state: &G, roller: &mut Roller) -> Vec<(G::Action, f64)> {
    Greedy::default().values(state, roller).0
}

/// The expected value for `seat` of `state`, weighing every chance outcome until a decision,
/// at most `left` chance states (past that, a state is scored as it stands).
pub fn expect<G: Game>(state: &G, seat: Seat, memo: &mut Memo<G>, left: &mut usize) -> f64 {
    let mut stats = GreedyStats::default();
    let mut allowed = Allowance {
        left: *left,
        exhausted: false,
        cut: 0.0,
    };
    let v = expect_to(
        state,
        seat,
        memo,
        &mut allowed,
        MAX_CHANCE_DEPTH,
        1.0,
        &mut stats,
    );
    *left = allowed.left;
    v
}

/// Chance points in a row weighed before the position is scored as it stands: a chain of
/// dice that never repeats a state (a tie rolled again and again, each roll remembered)
/// would otherwise recurse until the stack runs out.
pub const MAX_CHANCE_DEPTH: usize = 64;

/// What one action's weighing may still spend: chance states to weigh exactly
/// ([`Greedy::exact_limit`]), whether it ran out of them, and the chance it may still leave
/// out ([`NEGLIGIBLE`]).
struct Allowance {
    left: usize,
    exhausted: bool,
    cut: f64,
}

/// The chance an action's weighing may leave out: a chance state its dice reach with no more
/// chance than what is left of this is scored as it stands instead of weighed further, and
/// its chance is spent. The tail of an exploding die (SERM's pools: a six rolled again and
/// again) or of a tie rolled again is endless, and weighing it to [`MAX_CHANCE_DEPTH`] dice
/// was most of a SERM decision, on outcomes that move its value by less than a millionth.
/// What is cut is bounded in all, not per state, so a wide tree of likely outcomes (eight
/// dice, each sequence rarer than a millionth) is never cut wholesale: the value moves by at
/// most twice this.
pub const NEGLIGIBLE: f64 = 1e-6;

fn expect_to<G: Game>(
    state: &G,
    seat: Seat,
    memo: &mut Memo<G>,
    allowed: &mut Allowance,
    depth: usize,
    reach: f64,
    stats: &mut GreedyStats,
) -> f64 {
    let Next::Chance(c) = state.next() else {
        stats.evaluations += 1;
        return state.evaluate(seat);
    };
    if depth == 0 {
        stats.evaluations += 1;
        return state.evaluate(seat);
    }
    if let Some(&v) = memo.get(state) {
        // A revisit while this state's value is still being worked out (a cycle): scored as
        // it stands, evaluated only now (most chance states are never revisited, so most of
        // those evaluations were thrown away; the value is the same).
        if v.is_nan() {
            stats.evaluations += 1;
            return state.evaluate(seat);
        }
        return v;
    }
    if reach <= allowed.cut {
        allowed.cut -= reach;
        stats.evaluations += 1;
        return state.evaluate(seat);
    }
    if allowed.left == 0 {
        allowed.exhausted = true;
        stats.evaluations += 1;
        return state.evaluate(seat);
    }
    allowed.left -= 1;
    // A chance point can lead back to itself (a tie rolled again). Until this state's value
    // is known, a revisit scores it as it stands, which cuts the cycle: NaN marks it.
    memo.insert(state.clone(), f64::NAN);
    let total = c.total_weight() as f64;
    let mut v = 0.0;
    let mut events = Vec::new();
    for o in c.list() {
        if allowed.exhausted {
            break; // the caller samples this action instead; the value is thrown away
        }
        let mut next = state.clone();
        events.clear();
        stats.steps += 1;
        if next
            .apply_trusted(&Step::Roll { value: o.value }, &mut events)
            .is_ok()
        {
            let p = o.weight as f64 / total;
            v += p * expect_to(&next, seat, memo, allowed, depth - 1, reach * p, stats);
        }
    }
    memo.insert(state.clone(), v);
    v
}

/// One chain of dice from `state` to the next decision (or the end, or
/// [`MAX_CHANCE_DEPTH`] dice), scored for `seat` there.
fn sampled<G: Game>(state: &G, seat: Seat, roller: &mut Roller, stats: &mut GreedyStats) -> f64 {
    let mut s = state.clone();
    let mut events = Vec::new();
    stats.evaluations += 1;
    for _ in 0..MAX_CHANCE_DEPTH {
        let Next::Chance(c) = s.next() else { break };
        let value = c.roll(roller);
        events.clear();
        stats.steps += 1;
        if s.apply_trusted(&Step::Roll { value }, &mut events).is_err() {
            break;
        }
    }
    s.evaluate(seat)
}

impl Greedy {
    /// The value of each legal action for the deciding seat, in `legal_actions` order, and
    /// what the decision cost.
    pub fn values<G: Game>(
        &self,
        state: &G,
        roller: &mut Roller,
    ) -> (Vec<(G::Action, f64)>, GreedyStats) {
        let mut stats = GreedyStats::default();
        let Next::Decide(seat) = state.next() else {
            return (vec![], stats);
        };
        let mut memo = Memo::<G>::default();
        // The seed of the sampled chains, drawn once a decision and only if some action
        // needs it (a decision weighed exactly draws nothing from the roller).
        let mut chains: Option<u64> = None;
        let values = state
            .legal_actions()
            .into_iter()
            .map(|a| {
                stats.actions += 1;
                stats.steps += 1;
                let mut next = state.clone();
                let step = Step::Act {
                    seat,
                    action: a.clone(),
                };
                if next.apply(&step).is_err() {
                    return (a, f64::NEG_INFINITY);
                }
                (
                    a,
                    self.value_after(&next, seat, &mut memo, &mut chains, roller, &mut stats),
                )
            })
            .collect();
        (values, stats)
    }

    /// The value for `seat` of `next`, a position just after an action: its dice weighed
    /// exactly up to [`Greedy::exact_limit`] chance states (`memo` emptied first), else
    /// [`Greedy::samples`] chains of them sampled from `chains` (a seed drawn from `roller`
    /// the first time it is needed, then shared: common random numbers).
    pub fn value_after<G: Game>(
        &self,
        next: &G,
        seat: Seat,
        memo: &mut Memo<G>,
        chains: &mut Option<u64>,
        roller: &mut Roller,
        stats: &mut GreedyStats,
    ) -> f64 {
        memo.clear();
        let mut allowed = Allowance {
            left: self.exact_limit,
            exhausted: false,
            cut: if self.cut_tails { NEGLIGIBLE } else { 0.0 },
        };
        let exact = expect_to(next, seat, memo, &mut allowed, MAX_CHANCE_DEPTH, 1.0, stats);
        stats.exact_states += self.exact_limit - allowed.left;
        stats.peak_memo = stats.peak_memo.max(memo.len());
        if !allowed.exhausted || self.samples == 0 {
            return exact;
        }
        stats.sampled_actions += 1;
        let seed = *chains.get_or_insert_with(|| {
            (u64::from(roller.roll(u32::MAX)) << 32) | u64::from(roller.roll(u32::MAX))
        });
        let total: f64 = (0..self.samples)
            .map(|k| sampled(next, seat, &mut Roller::new(seed, k as u64), stats))
            .sum();
        total / self.samples as f64
    }

    pub fn choose<G: Game>(&self, state: &G, roller: &mut Roller) -> Option<G::Action> {
        self.choose_counted(state, roller).map(|(a, _)| a)
    }

    /// [`Greedy::choose`], and what the decision cost.
    pub fn choose_counted<G: Game>(
        &self,
        state: &G,
        roller: &mut Roller,
    ) -> Option<(G::Action, GreedyStats)> {
        let (values, stats) = self.values(state, roller);
        let best = values
            .iter()
            .map(|(_, v)| *v)
            .fold(f64::NEG_INFINITY, f64::max);
        // Among equally good actions, pick at random (seeded), so that ties do not always
        // fall to the first listed action — but one complete in itself before one that
        // begins a move in steps ([`complete_first`]).
        let top: Vec<&G::Action> = values
            .iter()
            .filter(|(_, v)| *v >= best - TIE)
            .map(|(a, _)| a)
            .collect();
        let top = complete_first(state, top);
        let i = roller.pick(&vec![1; top.len()])?;
        Some((top[i].clone(), stats))
    }
}

/// Values closer than this are the same to a player choosing among them.
pub const TIE: f64 = 1e-9;

/// Does `action`, the deciding seat's, begin a move the game asks for in steps — is the
/// decision after it a later step of that move ([`Game::continues_move`])?
pub fn begins_move<G: Game>(state: &G, action: &G::Action) -> bool {
    let Next::Decide(seat) = state.next() else {
        return false;
    };
    let mut next = state.clone();
    let step = Step::Act {
        seat,
        action: action.clone(),
    };
    next.apply_trusted(&step, &mut Vec::new()).is_ok() && next.continues_move()
}

/// Of actions valued alike, those complete in themselves, where there are any; else all of
/// them. A move begun in steps is valued as its best completion, and one that is worth no
/// more than an action complete in itself may be given up again at a later step: in
/// A-Bao-A-Qu's last turn under a turn limit, ending the combat phase loses the game, a
/// declaration the seat would give up is stalling, and both are the lowest value there is
/// (−1) — chosen at random among them, greedy began and cancelled declarations until the
/// limit on cancels (docs/strength.md, "Stalling declarations"). The game's own values are
/// not bent to break the tie: they stay what the game says, for hints and the search.
///
/// Only where a move may begin: at a later step of one (where giving it up is the action
/// that ends it) the tie is drawn as any other.
pub fn complete_first<'a, G: Game>(state: &G, tied: Vec<&'a G::Action>) -> Vec<&'a G::Action> {
    if tied.len() < 2 || state.continues_move() {
        return tied;
    }
    let complete: Vec<&G::Action> = tied
        .iter()
        .copied()
        .filter(|a| !begins_move(state, *a))
        .collect();
    if complete.is_empty() { tied } else { complete }
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
) -> Result<Played, PlayError> {
    let state = G::new_game(setup)?;
    play_from(state, players, roller, max_steps)
}

/// [`play`] from a state (a new game made once and cloned for each of many games).
pub fn play_from<G: Game>(
    mut state: G,
    players: &[PlayerKind],
    roller: &mut Roller,
    max_steps: usize,
) -> Result<Played, PlayError> {
    let mut steps = 0;
    let mut decisions = 0;
    let mut events = Vec::new();
    // One player per seat, kept for the whole game (cycled through `players`).
    let mut seated: Vec<Player<G>> = (0..state.seats() as usize)
        .map(|s| {
            Player::new(
                players
                    .get(s % players.len().max(1))
                    .copied()
                    .unwrap_or(PlayerKind::Random),
            )
        })
        .collect();
    loop {
        if steps > max_steps {
            return Err(PlayError::TooLong { max_steps });
        }
        let step = match state.next() {
            Next::Over => {
                let result = state
                    .result()
                    .ok_or(PlayError::Broken("the game is over without a result"))?;
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
                let action = seated
                    .get_mut(seat as usize)
                    .ok_or(PlayError::Broken(
                        "a seat beyond the game's seats must decide",
                    ))?
                    .choose(&state, roller)
                    .ok_or(PlayError::Broken(
                        "a seat must decide but has no legal action",
                    ))?;
                Step::Act { seat, action }
            }
        };
        // The players take listed actions and the dice listed faces: the trusted path.
        events.clear();
        state
            .apply_trusted(&step, &mut events)
            .map_err(|error| PlayError::Refused {
                index: steps,
                error,
            })?;
        steps += 1;
    }
}
