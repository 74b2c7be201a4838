//! The Game API every Battlemat rule set implements, and everything written once against it.
//!
//! # Design
//!
//! A game is a *state machine driven from outside*. Borrowing from OpenSpiel, a state says
//! who must act next ([`ToAct`]): a seat's decision, a chance point (one die, or one draw
//! from what is left of a deck), or the end with a [`GameResult`]. Everything that happens
//! is a [`Step`] — either a seat's action or the face a die showed — and [`Game::apply`] is
//! the only mutator. Dice are therefore never rolled *inside* the rules: a chance point lists
//! its outcomes with exact integer weights and whoever drives the game (a seeded
//! [`battlemat_dice::Roller`], a real table, an AI that enumerates outcomes) picks one. That
//! one decision gives us replays for free (a [`Record`] is the setup plus the steps),
//! "bring your own dice", exact expectimax in the AI, and odds that come from the same code
//! that referees.
//!
//! From shakmaty we take the split between plain-data setup and a checked, playable state:
//! [`Ruleset::new_game`] validates a `Setup` once and says what is wrong and where. From
//! boardgame.io, per-viewer observations ([`Game::observe`]).
//!
//! Decisions are not only the active player's: [`ToAct::Decide`] names any seat, so a
//! defender choosing to dodge or a soldier reacting to an enemy's move is the same thing as
//! a move. Actions may carry free parameters (a point on an open table): [`Game::check`]
//! is the judge of legality and accepts any legal value, while [`Game::legal_actions`] is a
//! finite, ordered candidate list for menus and AIs.
//!
//! # Rejected alternative
//!
//! The obvious alternative is to pass an `&mut impl Rng` into `apply` and let rules roll
//! their own dice. It is simpler to write, but the dice then hide inside the rules: replays
//! need the RNG's exact consumption pattern, table dice become a special case, and an AI
//! can only sample outcomes, never weigh them exactly. We pay for explicit chance points
//! with a few more states in each game's state machine.
//!
//! The erased, JSON-speaking view of a game ([`dynamic`]) lets the command line, the
//! server and the simulation lab hold "some game" without generics.

pub mod conformance;
pub mod data;
pub mod dynamic;
pub mod options;
mod record;
pub mod scene;
pub mod seating;
pub mod testing;

/// The dice roller, as the macros here name it.
pub use battlemat_dice::Roller;
pub use options::{GameOptions, OptionRow};
pub use record::{Chain, Record, ReplayError};
pub use scene::{Anchors, Scene};
pub use seating::{Outcome, Seating, TwoSided};

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::{self, Debug, Display};
use std::hash::Hash;
use std::str::FromStr;

/// A seat at the table, numbered from 0.
pub type Seat = u8;

/// The option that carries the number of seats, for games played by 2 to N players.
pub const SEATS_OPTION: &str = "seats";

/// Who may see an observation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Viewer {
    Seat(Seat),
    Spectator,
}

/// What the game waits for.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ToAct {
    /// `seat` must choose one action. `prompt` says what the choice is about in the game's
    /// words ("Empire: choose who acts first", "Luke: dodge or parry?").
    Decide { seat: Seat, prompt: String },
    /// A die is rolled or a card drawn.
    Chance(Chance),
    /// The game is over.
    Over(GameResult),
}

/// What the game waits for, without words: the fast form that search and simulation use
/// ([`Game::next`]). [`Game::to_act`] adds the words ([`ToAct`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Next {
    Decide(Seat),
    Chance(Outcomes),
    Over,
}

/// The outcomes of a chance point: a fair die (no allocation), or weighted values (a draw
/// from what is left of a deck).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcomes {
    /// A fair die with faces `1..=sides`.
    Die(u32),
    Weighted(Vec<ChanceOutcome>),
}

impl Outcomes {
    pub fn is_outcome(&self, value: u32) -> bool {
        match self {
            Outcomes::Die(n) => (1..=*n).contains(&value),
            Outcomes::Weighted(o) => o.iter().any(|o| o.value == value && o.weight > 0),
        }
    }
    /// Each outcome with its weight, in order.
    pub fn list(&self) -> Vec<ChanceOutcome> {
        match self {
            Outcomes::Die(n) => (1..=*n)
                .map(|value| ChanceOutcome { value, weight: 1 })
                .collect(),
            Outcomes::Weighted(o) => o.clone(),
        }
    }
    pub fn total_weight(&self) -> u64 {
        match self {
            Outcomes::Die(n) => u64::from(*n),
            Outcomes::Weighted(o) => o.iter().map(|o| o.weight).sum(),
        }
    }
    /// Roll it with a seeded roller (the same faces as [`Chance::roll`]).
    pub fn roll(&self, roller: &mut battlemat_dice::Roller) -> u32 {
        match self {
            // `pick` over n equal weights is `roll(n) - 1`: the same faces, no allocation.
            Outcomes::Die(n) if *n > 0 => roller.roll(*n),
            other => pick_outcome(&other.list(), roller),
        }
    }
}

/// One of weighted outcomes, by a seeded roller.
fn pick_outcome(outcomes: &[ChanceOutcome], roller: &mut battlemat_dice::Roller) -> u32 {
    let weights: Vec<u64> = outcomes.iter().map(|o| o.weight).collect();
    let i = roller.pick(&weights).unwrap_or(0);
    outcomes.get(i).map_or(1, |o| o.value)
}

/// A chance point: one die or one draw. Outcomes have integer weights, so probabilities are
/// exact (`weight / total`) and always sum to one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Chance {
    /// What is rolled, in the game's words ("Trooper u3: attack die 1 of 1").
    pub what: String,
    pub outcomes: Vec<ChanceOutcome>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChanceOutcome {
    /// The face shown or the card drawn (as the game numbers it).
    pub value: u32,
    pub weight: u64,
}

impl Chance {
    /// One fair die with faces `1..=sides`.
    pub fn die(what: impl Into<String>, sides: u32) -> Chance {
        Chance {
            what: what.into(),
            outcomes: (1..=sides)
                .map(|value| ChanceOutcome { value, weight: 1 })
                .collect(),
        }
    }

    pub fn total_weight(&self) -> u64 {
        self.outcomes.iter().map(|o| o.weight).sum()
    }

    /// The probability of `value` (0 if it is not an outcome).
    pub fn probability(&self, value: u32) -> f64 {
        let total = self.total_weight();
        self.outcomes
            .iter()
            .find(|o| o.value == value)
            .map_or(0.0, |o| o.weight as f64 / total as f64)
    }

    pub fn is_outcome(&self, value: u32) -> bool {
        self.outcomes
            .iter()
            .any(|o| o.value == value && o.weight > 0)
    }

    /// Roll it with a seeded roller.
    pub fn roll(&self, roller: &mut battlemat_dice::Roller) -> u32 {
        pick_outcome(&self.outcomes, roller)
    }
}

/// The end of a game: a score and a rank per seat (rank 1 is best; equal ranks are shared
/// places). A co-operative mission ends with one shared outcome for the whole table.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct GameResult {
    pub scores: Vec<i64>,
    pub ranks: Vec<u8>,
    /// Why it ended, in the game's words ("Rebels eliminated", "Empire surrendered").
    pub reason: String,
    /// `Some(true)` for a co-operative mission the table won together, `Some(false)` for one
    /// it lost together; `None` for a game the seats play against each other.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cooperative: Option<bool>,
    /// Ended by a house rule's limit (of turns, rounds, melees, activations), not by the
    /// rules' own end. A result like any other in play; the simulation commands count a game
    /// their safety limit ended as unfinished ([`RulesetInfo::safety_limit`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub by_limit: bool,
}

impl GameResult {
    /// The same result, marked as ended by a house rule's limit.
    pub fn at_limit(self) -> GameResult {
        GameResult {
            by_limit: true,
            ..self
        }
    }

    /// Ranks from scores: higher score, better rank; equal scores share a rank.
    pub fn from_scores(scores: Vec<i64>, reason: impl Into<String>) -> GameResult {
        let ranks = scores
            .iter()
            .map(|s| 1 + scores.iter().filter(|t| *t > s).count() as u8)
            .collect();
        GameResult {
            scores,
            ranks,
            reason: reason.into(),
            cooperative: None,
            by_limit: false,
        }
    }

    /// A co-operative mission's end: every seat shares the outcome (and first place).
    pub fn cooperative(won: bool, scores: Vec<i64>, reason: impl Into<String>) -> GameResult {
        GameResult {
            ranks: vec![1; scores.len()],
            scores,
            reason: reason.into(),
            cooperative: Some(won),
            by_limit: false,
        }
    }

    /// The seats ranked first, in seat order (none when a co-operative mission was lost).
    pub fn winners(&self) -> Vec<Seat> {
        if self.cooperative == Some(false) {
            return vec![];
        }
        (0..self.ranks.len() as u8)
            .filter(|&s| self.ranks[s as usize] == 1)
            .collect()
    }

    /// True when every seat shares first place (a draw, or a co-operative result).
    pub fn is_shared(&self) -> bool {
        self.ranks.iter().all(|&r| r == 1)
    }
}

/// One thing that happens to a game: a seat's decision or a chance point's outcome.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Step<A> {
    Act {
        seat: Seat,
        action: A,
    },
    Roll {
        value: u32,
    },
    /// A seat gives up (at any moment before the end): the game ends with a result for
    /// every seat, the resigning seat's side losing.
    Resign {
        seat: Seat,
    },
}

/// Why an action or die result was refused. The state is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
pub struct Illegal {
    /// The rule that forbids it (an id from the rule-id list, e.g. `SWTB-5`), if one does.
    pub rule: Option<String>,
    pub reason: String,
}

impl Illegal {
    pub fn new(reason: impl Into<String>) -> Illegal {
        Illegal {
            rule: None,
            reason: reason.into(),
        }
    }
    pub fn by(rule: &str, reason: impl Into<String>) -> Illegal {
        Illegal {
            rule: Some(rule.to_string()),
            reason: reason.into(),
        }
    }
}

/// A game state saved as its setup and its progress (`{"setup": …, "now": …}`). Read back,
/// `$rebuild(&setup, &now)` checks the setup into the fixed part again and checks the
/// progress against it, so a saved state is held to what a new game is. The state type has
/// the fields `fixed: Arc<Fixed>` (with a `setup` field) and `now`.
/// In an `impl Ruleset` block: the matchup odds and their simulated check are the game's
/// own functions (`odds::matchup`, `odds::sample`), whose refusals are words; written here
/// once for the five games.
#[macro_export]
macro_rules! matchups_by {
    ($odds:path, $sample:path) => {
        fn matchup_odds(
            params: &::std::collections::BTreeMap<String, String>,
        ) -> ::std::result::Result<$crate::Odds, $crate::MatchupError> {
            $odds(params).map_err(::std::convert::Into::into)
        }

        fn matchup_sample(
            params: &::std::collections::BTreeMap<String, String>,
            roller: &mut $crate::Roller,
        ) -> ::std::result::Result<$crate::MatchupRoll, $crate::MatchupError> {
            $sample(params, roller)
                .map(::std::convert::Into::into)
                .map_err(::std::convert::Into::into)
        }
    };
}

/// In an `impl Game` block: the game's judge is its own `plan` (an inherent function of the
/// state, returning core's [`Why`]), and its plans are carried out by its own `carry_out`.
/// Four of the five games judge so; the items are written here once.
#[macro_export]
macro_rules! judged_by_plan {
    ($plan:ty) => {
        type Plan = $plan;
        type Refusal = $crate::Why;

        fn plan(&self, action: &Self::Action) -> ::std::result::Result<$plan, $crate::Why> {
            Self::plan(self, action)
        }

        fn explain(&self, why: $crate::Why) -> $crate::Illegal {
            why.explain()
        }

        fn carry_out(&mut self, plan: $plan, events: &mut ::std::vec::Vec<Self::Event>) {
            Self::carry_out(self, plan, events)
        }
    };
}

#[macro_export]
macro_rules! saved_state {
    ($game:ident, $setup:ty, $progress:ty, $rebuild:expr) => {
        impl ::serde::Serialize for $game {
            fn serialize<S: ::serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                use ::serde::ser::SerializeStruct;
                let mut st = s.serialize_struct(stringify!($game), 2)?;
                st.serialize_field("setup", &self.fixed.setup)?;
                st.serialize_field("now", &self.now)?;
                st.end()
            }
        }

        impl<'de> ::serde::Deserialize<'de> for $game {
            fn deserialize<D: ::serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                #[derive(::serde::Deserialize)]
                struct Saved {
                    setup: $setup,
                    now: $progress,
                }
                let s = Saved::deserialize(d)?;
                let fixed = $rebuild(&s.setup, &s.now).map_err(::serde::de::Error::custom)?;
                Ok($game {
                    fixed: ::std::sync::Arc::new(fixed),
                    now: s.now,
                })
            }
        }
    };
}

/// Equality and hashing for a game state made of a shared fixed part (`fixed: Arc<Fixed>`)
/// and its progress (`now`): two states are equal when their progress is and their fixed
/// parts are the same (the same `Arc`, or equal); the hash is the progress's (the fixed
/// part is the same for every state of one game).
#[macro_export]
macro_rules! state_identity {
    ($game:ident) => {
        impl PartialEq for $game {
            fn eq(&self, o: &Self) -> bool {
                self.now == o.now
                    && (::std::sync::Arc::ptr_eq(&self.fixed, &o.fixed) || self.fixed == o.fixed)
            }
        }
        impl Eq for $game {}
        impl ::std::hash::Hash for $game {
            fn hash<H: ::std::hash::Hasher>(&self, h: &mut H) {
                self.now.hash(h)
            }
        }
    };
}

/// Why a rules crate's judge refuses an action: the rule id and a fixed sentence, put into
/// an [`Illegal`] only when someone reads it (so listing actions formats nothing).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Why {
    pub rule: &'static str,
    pub reason: &'static str,
}

impl Why {
    pub const fn new(rule: &'static str, reason: &'static str) -> Why {
        Why { rule, reason }
    }
    pub fn explain(self) -> Illegal {
        Illegal::by(self.rule, self.reason)
    }
}

impl Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.rule {
            Some(r) => write!(f, "{} ({r})", self.reason),
            None => f.write_str(&self.reason),
        }
    }
}

/// A setup that cannot be played, with where the problem is (`at` is a path like
/// `sides[1].units[3].kind` or `file.toml:12:5`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[error("{at}: {message}")]
pub struct SetupError {
    pub at: String,
    pub message: String,
}

impl SetupError {
    pub fn new(at: impl Into<String>, message: impl Into<String>) -> SetupError {
        SetupError {
            at: at.into(),
            message: message.into(),
        }
    }
}

/// A data file handed to a game by its name (a path, for messages) and its text. Rules
/// crates never open files themselves.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DataFile {
    pub name: String,
    pub text: String,
}

/// Static facts about a rule set.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RulesetInfo {
    pub id: String,
    pub name: String,
    pub version: String,
    /// The fewest and most seats any scenario takes (each scenario says its own).
    pub min_seats: u8,
    pub max_seats: u8,
    /// Whether `legal_actions` lists every legal action ([`Game::LEGAL_ACTIONS`]).
    #[serde(default)]
    pub legal_actions: ActionList,
    pub options: Vec<OptionInfo>,
    pub scenarios: Vec<ScenarioInfo>,
    /// The parameters `battlemat odds GAME` takes (`Ruleset::matchup_odds`), in words; empty
    /// for a game without matchup odds.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub odds: String,
    /// The option the simulation commands (`sim`, `tournament`, `balance`) set when it is not
    /// given, as a safety limit for AI players that might never end a game (`rounds`, `30`):
    /// a game it ends is reported unfinished, neither a win nor a draw. `None` for a game
    /// whose rules always end.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub safety_limit: Option<(String, String)>,
}

/// A house rule or optional rule a setup may switch.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OptionInfo {
    pub key: String,
    /// The rule id it belongs to.
    pub rule: String,
    /// Allowed values; the first is not necessarily the default.
    pub values: Vec<String>,
    pub default: String,
    pub help: String,
    /// True when the option is ours (a house rule filling a gap), not the text's.
    pub house_rule: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ScenarioInfo {
    pub id: String,
    pub name: String,
    /// The seats it is played with: several players may share a side (the setup's seat
    /// to side map, [`Seating`]).
    pub min_seats: u8,
    pub max_seats: u8,
    pub summary: String,
    /// True when Battlemat wrote it (not from the game's text).
    pub ours: bool,
}

/// Exact odds of an action's outcome, before it is taken. Serialises as
/// `{"outcomes": {NAME: p, ...}, ...}`, the probabilities summing to one.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Odds {
    pub outcomes: BTreeMap<String, f64>,
    /// Anything else worth showing (dice on each side, modifiers applied).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub details: BTreeMap<String, serde_json::Value>,
    /// The effect of the outcomes as numbers, where the game has one: each named quantity
    /// ("damage") with the chance of each value, the chances summing to one (a miss counts
    /// as 0). JSON: `{"damage": {"0": 0.4, "20": 0.1, ...}}`, values in numeric order.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub distributions: BTreeMap<String, BTreeMap<i64, f64>>,
}

impl Odds {
    /// The mean of one of [`Odds::distributions`].
    pub fn mean(dist: &BTreeMap<i64, f64>) -> f64 {
        dist.iter().map(|(v, p)| *v as f64 * p).sum()
    }
}

/// One simulated roll of a matchup ([`Ruleset::matchup_sample`]): the outcome's name and the
/// value each of the odds' [`Odds::distributions`] took.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchupRoll {
    pub outcome: String,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub values: BTreeMap<String, i64>,
}

impl From<String> for MatchupRoll {
    fn from(outcome: String) -> MatchupRoll {
        MatchupRoll {
            outcome,
            values: BTreeMap::new(),
        }
    }
}

/// Why a matchup (`battlemat odds GAME --attacker X …`) cannot be worked out: a unit or
/// parameter the game does not know, or a game without matchup odds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchupError {
    pub message: String,
}

impl fmt::Display for MatchupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for MatchupError {}

impl From<String> for MatchupError {
    fn from(message: String) -> MatchupError {
        MatchupError { message }
    }
}

impl From<&str> for MatchupError {
    fn from(message: &str) -> MatchupError {
        MatchupError {
            message: message.to_string(),
        }
    }
}

/// What the seats of a setup field ([`Ruleset::armies`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Armies {
    /// Per seat, its units' type names (a type twice if fielded twice).
    pub seats: Vec<Vec<String>>,
    /// Each type's points cost.
    pub costs: BTreeMap<String, f64>,
}

/// Whether [`Game::legal_actions`] lists every legal action or offers candidates.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ActionList {
    /// Every action `check` accepts is listed (finite games): the conformance kit checks it.
    #[default]
    Complete,
    /// Actions take free parameters (a point on an open table): the list is a finite set
    /// of candidates for menus and AIs, and `check` accepts more.
    Candidates,
}

/// How a tree search should play a game where its general settings were measured to play
/// it worse ([`Game::SEARCH`]). A game says what it needs in these words, not a search's
/// settings: the AI crate maps them onto its own, and a game that says nothing is searched
/// as every other is. Rejected: a table of settings per game name in the AI crate, which
/// would put game names outside the games' crates and the registry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SearchDefaults {
    /// The root of a search weighs only this many of the actions a one-ply look (every
    /// action's dice weighed, the position after valued) ranks best, ties in a random
    /// order; 0: every action. For a game whose evaluation ties most moves, where the
    /// search's few visits spread over every tied move would leave its choice to noise.
    pub root_candidates: u32,
    /// Keep what a search learnt of the position reached, for the next move's search.
    pub keep_trees: bool,
    /// How many times the general default work a default search spends on a decision of
    /// this game: more for a game whose positions are cheap to search and whose evaluation
    /// a few iterations cannot improve on, so long as a decision stays within the time goal
    /// (the AI crate's bench says). 1: the general default. A budget asked for by name
    /// (`mcts:300ms`, `mcts:2000000w`) is what it says in every game.
    pub effort: u32,
    /// How many decisions a playout plays past a new leaf before the position is valued;
    /// 0: the search's general number. For a game whose [`Game::playout_action`] plays as
    /// a player would, where a longer playout shows what a position leads to.
    pub playout_decisions: u32,
    /// Instead of a tree, a search plays the one-ply look's this many best actions out
    /// again and again with [`Game::playout_action`], every round of playouts on the same
    /// dice, drops those that fall clearly behind, and takes the best on average; 0: the
    /// tree. For a game whose playouts play as a player would and whose tree learns little
    /// past the first reply (most of a position's future is which dice come up).
    pub rollout_candidates: u32,
}

impl SearchDefaults {
    /// The general settings: every action at the root, the trees kept, the general work
    /// and playouts.
    pub const GENERAL: SearchDefaults = SearchDefaults {
        root_candidates: 0,
        keep_trees: true,
        effort: 1,
        playout_decisions: 0,
        rollout_candidates: 0,
    };
}

/// Why a rules crate refuses a record of an older `version` of ruleset `id` (this is
/// `current`): what changed since (`changed`), and the git commit whose rules still replay
/// it. For [`Ruleset::replays_older`] when a change could touch any game.
pub fn older_version_refused(
    id: &str,
    version: &str,
    current: &str,
    changed: &str,
    commit: &str,
) -> String {
    format!(
        "made with {id} version {version}, this is version {current}: {changed}; replay it \
         with battlemat at git commit {commit}, the last with {id} version {version}"
    )
}

/// A rule set: everything about a game that comes before a state — what it is, its
/// scenarios and setups, its points rules, its odds outside any game, and which older
/// versions of its rules it still replays.
///
/// Apart from [`Game`], the state's trait, so the front ends' questions about a game
/// (`battlemat info`, `odds`, the lab's armies) and a state's (who acts, what is legal) are
/// answered by two small traits rather than one large one. Each game implements it on its
/// state type, whose [`Ruleset::State`] is itself: `G::info()` and `G::setup(…)` read the
/// same for a state type as they did.
pub trait Ruleset: Send + Sync + 'static {
    /// The playable state a checked setup becomes.
    type State: Game;
    type Setup: Clone + Debug + Serialize + DeserializeOwned + Send + Sync;
    fn info() -> RulesetInfo;

    /// A setup for a named scenario with `key=value` options. A game whose number of seats
    /// varies (`min_seats < max_seats`) reads it from the [`SEATS_OPTION`] option, which
    /// front ends fill in from the number of players they seat.
    fn setup(scenario: &str, options: &BTreeMap<String, String>)
    -> Result<Self::Setup, SetupError>;

    /// A setup from data files in the game's own format — a user's own scenario (map and
    /// armies), unit table, or a whole data folder — with `key=value` options. `scenario`
    /// picks one when the files hold several. Errors point into the files
    /// (`name:line:column`).
    fn setup_from_data(
        _scenario: Option<&str>,
        files: &[DataFile],
        _options: &BTreeMap<String, String>,
    ) -> Result<Self::Setup, SetupError> {
        let at = files.first().map_or("data", |f| f.name.as_str());
        Err(SetupError::new(
            at,
            format!("{} does not read data files", Self::info().id),
        ))
    }

    /// Check a setup once and make the playable state.
    fn new_game(setup: &Self::Setup) -> Result<Self::State, SetupError>;

    /// Can this version of the rules replay a record made with `version` of them (an older
    /// one)? `Ok` when the rules that changed since cannot have touched a game of `setup`;
    /// otherwise why not, naming the release that replays it. The default keeps no older
    /// version.
    fn replays_older(version: &str, _setup: &Self::Setup) -> Result<(), String> {
        let info = Self::info();
        Err(format!(
            "made with {} version {version}; this is version {} and keeps no older version",
            info.id, info.version
        ))
    }

    /// What each seat of `setup` fields, for the balance lab: unit types by name (with
    /// repeats) and each type's cost under the game's points rules. `None` for a game (or
    /// scenario) without points rules.
    fn armies(_setup: &Self::Setup) -> Option<Armies> {
        None
    }

    /// `setup` with each side's army drawn again at random within its points rules (the
    /// balance lab's army compositions; `roller` draws them). `None` where
    /// [`Ruleset::armies`] is.
    fn random_armies(
        _setup: &Self::Setup,
        _roller: &mut battlemat_dice::Roller,
    ) -> Option<Result<Self::Setup, SetupError>> {
        None
    }

    /// Exact odds of one attack between two kinds of unit, outside any game
    /// (`battlemat odds GAME --attacker X --defender Y ...`): parameters as `key = value`,
    /// flags as `key = "true"`.
    fn matchup_odds(_params: &BTreeMap<String, String>) -> Result<Odds, MatchupError> {
        Err(format!("{} has no matchup odds", Self::info().id).into())
    }

    /// One simulated roll of the matchup `params` describe: the name of the
    /// [`Ruleset::matchup_odds`] outcome it gave and the value of each of its distributions,
    /// dice from `roller`. Simulated through the rules' own dice handling, not the exact
    /// odds' arithmetic, so `battlemat odds ... --check-sims N` checks one against the other.
    fn matchup_sample(
        _params: &BTreeMap<String, String>,
        _roller: &mut battlemat_dice::Roller,
    ) -> Result<MatchupRoll, MatchupError> {
        Err(format!("{} has no simulated check of its odds yet", Self::info().id).into())
    }
}

/// The Game API.
///
/// A value of the implementing type is a *state*. Implementations guarantee:
/// - [`Game::legal_actions`] is empty unless [`Game::next`] is `Decide`, lists actions in a
///   fixed order, and every listed action passes [`Game::check`]; with
///   [`ActionList::Complete`] it lists every action `check` accepts;
/// - [`Game::apply_action`] changes nothing when it returns an error;
/// - no floating point and no hidden randomness: the state is a pure function of the setup
///   and the steps.
///
/// The required methods never call each other through a provided one: [`Game::to_act`],
/// [`Game::apply`] and the rest are built on `next`, `prompt`, `result`, `apply_action`,
/// `apply_chance` and `resign`, so no default can recurse into itself.
pub trait Game:
    Ruleset<State = Self>
    + Clone
    + PartialEq
    + Eq
    + Hash
    + Debug
    + Serialize
    + DeserializeOwned
    + Send
    + Sync
    + 'static
{
    /// What the judge works out for a legal action: everything carrying it out needs, so it
    /// is judged once ([`Game::plan`], then [`Game::carry_out`]).
    type Plan;
    /// Why the judge refuses an action: core's [`Why`] (a rule id and a reason), or a game's
    /// own reason that [`Game::explain`] puts in words from the state.
    type Refusal;
    /// Actions are plain data with a short text form (`Display`/`FromStr`) that players type.
    type Action: Clone
        + Debug
        + PartialEq
        + Eq
        + Hash
        + Serialize
        + DeserializeOwned
        + Display
        + FromStr<Err = String>
        + Send
        + Sync;
    /// Events narrate what happened; `Display` is a sentence in the game's words.
    type Event: Clone + Debug + PartialEq + Display + Serialize + DeserializeOwned + Send + Sync;
    /// What a viewer sees; its `Display` is a text picture of the table.
    type Observation: Clone + Debug + Serialize + Display;

    /// Does `legal_actions` list every legal action?
    const LEGAL_ACTIONS: ActionList = ActionList::Complete;

    /// How a tree search should play this game, where the general settings were measured to
    /// play it worse ([`SearchDefaults`]; the AI's `mcts` player starts from these).
    const SEARCH: SearchDefaults = SearchDefaults::GENERAL;

    fn seats(&self) -> u8;

    /// What the game waits for: a seat's decision, a chance point, or the end. This is the
    /// hot path of search and simulation: no words, no allocation for a fair die.
    fn next(&self) -> Next;

    /// The pending decision or chance point in the game's words ("Empire: choose who acts
    /// first", "Han: attack die 1 of 2"); empty when the game is over.
    fn prompt(&self) -> String;

    /// The result, once the game is over (exactly when [`Game::next`] is `Over`).
    fn result(&self) -> Option<GameResult>;

    /// The deciding seat's actions, in a fixed order (see [`Game::LEGAL_ACTIONS`]).
    fn legal_actions(&self) -> Vec<Self::Action>;

    /// [`Game::legal_actions`] into `out`, replacing what it held: the same actions in the
    /// same order, in a buffer a caller that lists at every step (a random game, a search)
    /// keeps. A game that lists into a buffer anyway overrides it to save the allocation.
    fn legal_actions_into(&self, out: &mut Vec<Self::Action>) {
        *out = self.legal_actions();
    }

    /// One of the deciding seat's listed actions drawn at random with `roller`, for a
    /// search's playout (`buf` is the caller's buffer to list into; `None` when nothing is
    /// listed). By default uniformly from [`Game::legal_actions`]. A game whose listing is
    /// dear may draw in steps instead — a unit, then one of that unit's actions — listing
    /// only what the draw needs, so long as the action drawn is one `legal_actions` lists
    /// now and every listed action can be drawn (the conformance kit checks the first). What
    /// `buf` holds afterwards is what was listed, so a search can count the work.
    fn playout_action(
        &self,
        roller: &mut battlemat_dice::Roller,
        buf: &mut Vec<Self::Action>,
    ) -> Option<Self::Action> {
        self.legal_actions_into(buf);
        if buf.is_empty() {
            return None;
        }
        let i = roller.roll(buf.len() as u32) as usize - 1;
        Some(buf[i].clone())
    }

    /// Is the decision now a later step of one move the deciding seat has begun? A move the
    /// game asks for in steps (A-Bao-A-Qu's attack declaration: the hex attacked from, the
    /// attackers, the target hex, the aim, then fire or cancel) is one choice to a player,
    /// and a search that branches at every step compares half-made moves: its statistics
    /// below the first step average in its own weak completions. A search may branch only
    /// where a move begins and complete a move begun as greedy would. The default: every
    /// decision is a move of its own.
    fn continues_move(&self) -> bool {
        false
    }

    /// The one judge of an action: the seat's action is legal now, and this is what it does
    /// (its plan); or it is not, and why. Checking, applying and the trusted path are all
    /// written once on it ([`Game::check`], [`Game::apply_action`],
    /// [`Game::apply_listed_action`]).
    fn plan(&self, action: &Self::Action) -> Result<Self::Plan, Self::Refusal>;

    /// A refusal in words, naming the rule that forbids it.
    fn explain(&self, refusal: Self::Refusal) -> Illegal;

    /// Do what a plan says. Called only with a plan [`Game::plan`] (or
    /// [`Game::listed_plan`]) made from this state.
    fn carry_out(&mut self, plan: Self::Plan, events: &mut Vec<Self::Event>);

    /// The plan of an action a trusted source took from `legal_actions`. By default it is
    /// judged as usual; a game may read it off the action without judging it again (the
    /// commonest step of a random or searched game). The conformance kit checks at every deep
    /// step that this gives the same state and events as [`Game::apply`].
    fn listed_plan(&self, action: &Self::Action) -> Result<Self::Plan, Self::Refusal> {
        self.plan(action)
    }

    /// Is `action` legal for the deciding seat now? If not, why, and which rule says so.
    /// Written once, on [`Game::plan`]: a game does not override it.
    fn check(&self, action: &Self::Action) -> Result<(), Illegal> {
        self.plan(action).map(drop).map_err(|r| self.explain(r))
    }

    /// Judge and carry out an action in one pass: refused, it changes nothing. The seat has
    /// been checked by the caller. Written once, on [`Game::plan`] and [`Game::carry_out`].
    fn apply_action(
        &mut self,
        action: &Self::Action,
        events: &mut Vec<Self::Event>,
    ) -> Result<(), Illegal> {
        let plan = self.plan(action).map_err(|r| self.explain(r))?;
        self.carry_out(plan, events);
        Ok(())
    }

    /// Carry out a die result or draw. Called only with a listed outcome.
    fn apply_chance(&mut self, value: u32, events: &mut Vec<Self::Event>);

    /// `seat` resigns: end the game now with a result for every seat (the seat's side
    /// loses). Called only before the end.
    fn resign(&mut self, seat: Seat, events: &mut Vec<Self::Event>);

    fn observe(&self, viewer: Viewer) -> Self::Observation;

    /// What `viewer` is told of an event: the default shows everything (all five games are
    /// open information); a game with secrets hides or redacts them here.
    fn event_for(&self, event: &Self::Event, _viewer: Viewer) -> Option<Self::Event> {
        Some(event.clone())
    }

    /// The events of one step as `viewer` is told them.
    fn events_for(&self, events: &[Self::Event], viewer: Viewer) -> Vec<Self::Event> {
        events
            .iter()
            .filter_map(|e| self.event_for(e, viewer))
            .collect()
    }

    /// What the game marks as hidden from `viewer` now, as text that must not appear in
    /// that viewer's observation or events (the conformance kit checks it). Empty for open
    /// information.
    fn hidden_from(&self, _viewer: Viewer) -> Vec<String> {
        Vec::new()
    }

    /// The table as `viewer` sees it, in the one shape every game shares ([`Scene`]):
    /// nothing hidden from `viewer` in it. Its `actions` are left empty: [`Game::scene_for`]
    /// fills them in for the seat to act, from [`Game::anchors`].
    fn scene(&self, viewer: Viewer) -> Scene;

    /// What a listed action points at on the table (its piece, its target, the region of a
    /// free point), for a client to highlight and click. The default points at nothing.
    fn anchors(&self, _action: &Self::Action) -> Anchors {
        Anchors::default()
    }

    /// [`Game::scene`] with, when `viewer` is the seat to decide, each legal action and its
    /// anchors in the order `legal_actions` lists them.
    fn scene_for(&self, viewer: Viewer) -> Scene {
        let mut scene = self.scene(viewer);
        if let (Next::Decide(seat), Viewer::Seat(v)) = (self.next(), viewer)
            && seat == v
        {
            scene.actions = self
                .legal_actions()
                .iter()
                .enumerate()
                .map(|(index, a)| scene::SceneAction {
                    index,
                    text: a.to_string(),
                    label: self.describe(a),
                    anchors: self.anchors(a),
                })
                .collect();
        }
        scene
    }

    /// A heuristic value of the position for `seat`, in `[-1, 1]`, for AIs that stop
    /// searching before the end. The default scores finished games only.
    fn evaluate(&self, seat: Seat) -> f64 {
        match self.result() {
            Some(r) => result_value(&r, seat),
            None => 0.0,
        }
    }

    /// The action in the game's words for menus ("Han shoots at Stormtrooper 2"); the
    /// default is its short text.
    fn describe(&self, action: &Self::Action) -> String {
        action.to_string()
    }

    /// Exact odds of what `action` will do, if it leads to dice.
    fn odds(&self, _action: &Self::Action) -> Option<Odds> {
        None
    }

    /// What the game waits for, in words: [`Game::next`] with the prompt, the chance
    /// point's outcomes, or the result. Serialisable (the stable JSON of `to_act`).
    fn to_act(&self) -> ToAct {
        match self.next() {
            Next::Decide(seat) => ToAct::Decide {
                seat,
                prompt: self.prompt(),
            },
            Next::Chance(o) => ToAct::Chance(Chance {
                what: self.prompt(),
                outcomes: o.list(),
            }),
            Next::Over => match self.result() {
                Some(r) => ToAct::Over(r),
                None => ToAct::Over(GameResult::from_scores(
                    vec![0; self.seats() as usize],
                    "over without a result",
                )),
            },
        }
    }

    /// Apply one step, validating it: the right seat, a legal action, a listed die face.
    /// On error nothing changes.
    fn apply(&mut self, step: &Step<Self::Action>) -> Result<Vec<Self::Event>, Illegal> {
        let mut events = Vec::new();
        match (self.next(), step) {
            (Next::Over, _) => return Err(Illegal::new("the game is over")),
            (_, Step::Resign { seat }) => {
                if *seat >= self.seats() {
                    return Err(Illegal::new(format!(
                        "there is no seat {seat} (seats 0 to {})",
                        self.seats().saturating_sub(1)
                    )));
                }
                self.resign(*seat, &mut events);
            }
            (Next::Decide(seat), Step::Act { seat: s, action }) => {
                if *s != seat {
                    return Err(Illegal::new(format!(
                        "it is seat {seat}'s decision, not seat {s}'s"
                    )));
                }
                self.apply_action(action, &mut events)?;
            }
            (Next::Decide(seat), Step::Roll { .. }) => {
                return Err(Illegal::new(format!(
                    "seat {seat} must decide; no die is being rolled"
                )));
            }
            (Next::Chance(o), Step::Roll { value }) => {
                if !o.is_outcome(*value) {
                    let faces: Vec<String> = o.list().iter().map(|o| o.value.to_string()).collect();
                    return Err(Illegal::new(format!(
                        "{value} is not a possible result of {} (possible: {})",
                        self.prompt(),
                        faces.join(", ")
                    )));
                }
                self.apply_chance(*value, &mut events);
            }
            (Next::Chance(_), Step::Act { .. }) => {
                return Err(Illegal::new(format!(
                    "waiting for a die: {}",
                    self.prompt()
                )));
            }
        }
        Ok(events)
    }

    /// Apply a step from a trusted source — an AI that took the action from
    /// `legal_actions`, or a die face from the listed outcomes — without checking the seat or
    /// the face. By default the action is still judged (`apply_action`); a game may skip
    /// judging it again and read what it does off the action, so a step that was not listed
    /// is the caller's bug and may leave the state wrong. The conformance kit checks at every
    /// deep step that this gives the same state and events as [`Game::apply`].
    fn apply_trusted(
        &mut self,
        step: &Step<Self::Action>,
        events: &mut Vec<Self::Event>,
    ) -> Result<(), Illegal> {
        match step {
            Step::Act { action, .. } => self.apply_listed_action(action, events),
            Step::Roll { value } => {
                self.apply_chance(*value, events);
                Ok(())
            }
            Step::Resign { seat } => {
                self.resign(*seat, events);
                Ok(())
            }
        }
    }

    /// Carry out an action a trusted source took from `legal_actions` (the action step of
    /// [`Game::apply_trusted`]), on its [`Game::listed_plan`]. Written once.
    fn apply_listed_action(
        &mut self,
        action: &Self::Action,
        events: &mut Vec<Self::Event>,
    ) -> Result<(), Illegal> {
        let plan = self.listed_plan(action).map_err(|r| self.explain(r))?;
        self.carry_out(plan, events);
        Ok(())
    }

    /// shakmaty-style: consume the state, return the next one, or this one with the error.
    fn play(mut self, step: &Step<Self::Action>) -> Result<Self, (Self, Illegal)> {
        match self.apply(step) {
            Ok(_) => Ok(self),
            Err(e) => Err((self, e)),
        }
    }
}

/// A finished game's value for `seat` in `[-1, 1]`: 1 for sole first place, -1 for last,
/// shared places in between, 0 for a draw among all seats; a co-operative mission is 1 for
/// every seat when won and -1 when lost.
pub fn result_value(r: &GameResult, seat: Seat) -> f64 {
    if let Some(won) = r.cooperative {
        return if won { 1.0 } else { -1.0 };
    }
    let n = r.ranks.len();
    if n < 2 || r.is_shared() {
        return 0.0;
    }
    let rank = r.ranks.get(seat as usize).copied().unwrap_or(n as u8) as f64;
    let best = 1.0;
    let worst = *r.ranks.iter().max().unwrap_or(&1) as f64;
    if worst == best {
        return 0.0;
    }
    1.0 - 2.0 * (rank - best) / (worst - best)
}
