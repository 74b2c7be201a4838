//! Monte-Carlo tree search over the Game API, for every game.
//!
//! # Design
//!
//! The tree has three kinds of node, as the Game API has three kinds of moment
//! ([`Next`]): a seat's decision, a chance point, and the end.
//!
//! - **Decisions** are chosen by UCT for *the deciding seat*, whoever it is: the active
//!   player, a defender choosing to dodge, a player choosing to react in the other's turn.
//!   Each node keeps every seat's total value, so each seat maximises its own (max^n, not
//!   paranoid: with three or more players a paranoid search assumes everyone gangs up on
//!   the searcher, which makes it timid in the free-for-all missions). Teams come out of
//!   the games' own values: team-mates get the same result value and the same evaluation.
//! - **Chance points** are real chance nodes, one for a whole chain of dice: a visit rolls
//!   every die from the node to the next decision (each *by its exact integer weight*) and
//!   goes to the position they lead to — a child it has reached before (states compared by
//!   hash, then in full) or a new one. No dice are fixed in advance (determinising the dice
//!   would let the search "know" the rolls), and the children's visit shares converge to
//!   the chances of the positions. A chance node widens too (double progressive widening):
//!   past `ceil(k · visits^α)` distinct positions, a visit goes to a known one with the
//!   chance of its share of the visits, so an attack whose knockback can land anywhere on
//!   a table does not spread its visits over thousands of children seen once each.
//! - **Greedy's prior at the root** ([`MctsConfig::greedy_prior`]): the greedy player's
//!   exact one-ply values (every die weighed) order the root's actions, best first, and
//!   count as that many visits at those values. The games' evaluations tell good moves
//!   from bad by hundredths, while a sampled iteration's value varies by tenths (the dice):
//!   a few hundred iterations cannot rank two dozen actions on their own, and without the
//!   prior the search lost to greedy in SD ERA and SERM. The prior's pass is paid out of the
//!   budget.
//! - **Progressive widening.** A decision node considers `ceil(k · visits^α)` of its
//!   actions, in an order shuffled once per node (seeded), adding one as its visits grow.
//!   It applies where the list is a sample of a continuum (games whose
//!   [`Game::LEGAL_ACTIONS`] is `Candidates`: SD ERA, SERM) and to any list longer than
//!   [`WIDEN_OVER`] (A-Bao-A-Qu's counters); short complete lists are tried in full.
//! - **Leaves** are valued by a short playout ([`MctsConfig::playout_decisions`]
//!   decisions, dice rolled) and then the game's [`Game::evaluate`] for each seat, or the
//!   result when the game ends. A playout's decisions are random ([`Playouts`]), in every
//!   game: playouts chosen by the evaluation one action ahead, its dice rolled once, were
//!   tried where the list samples a continuum (SD ERA's and SERM's moves) and played worse
//!   the more the search relied on them (they pick the long shot that came up in the one
//!   sample: [`MctsConfig::new`] has the figures).
//! - **Budget and determinism.** A budget is iterations, work or time. The search runs
//!   [`MctsConfig::trees`] independent trees (root parallelism, on rayon's threads), each
//!   seeded from the player's roller and its index; their root visits are summed to choose.
//!   The number of trees is fixed (not the number of threads), so an iteration or work
//!   budget gives the same choice on one core or sixteen. A time budget runs one tree per
//!   thread and is not reproducible (it depends on the machine's speed).
//! - **Work.** An iteration costs very different amounts in different games and positions
//!   (a playout lists actions eight times: a few dozen in the ms-d20 duel, every counter's
//!   moves in A-Bao-A-Qu), so the default budget is *work*, not iterations: each tree
//!   counts what it really spends ([`Work`]) and stops after the iteration that reaches its
//!   share. The units, [`Work::units`]: a step applied (an action or a die in the tree or a
//!   playout, with its clone) 10, an action listing 60 plus 1 for each action it lists, an
//!   evaluation 200 a seat (a leaf's evaluation stands for the iteration's fixed costs too:
//!   the new node, the clone played out), and 5 for each node on an iteration's path (the
//!   descent and the backing up). The last is small but never zero: an iteration that
//!   ends on a node already known to be the end of the game applies, lists and evaluates
//!   nothing, and a tree that had solved a game's last moves would otherwise spin through
//!   a work budget forever. The weights are a least-squares
//!   fit of decision times to these counts over every scenario of the five games
//!   (`benches/mcts.rs` with `BATTLEMAT_BENCH_ALL=1 BATTLEMAT_BENCH_CSV=…`), rounded: a unit
//!   then costs about 5–30 ns on one core of the machine it was measured on, the lists of
//!   the ms-d20 duel cheapest and A-Bao-A-Qu's (whose listing is linear in the counters)
//!   dearest. Counts cannot make the games equal (the same count of listed actions is
//!   geometry in SD ERA and a walk over two hundred counters in A-Bao-A-Qu), so the
//!   default, [`crate::DEFAULT_MCTS`], is set by the dearest game's median, and the bench
//!   prints what a unit cost in each. A game whose search is cheaper than that and gains
//!   from more may ask for a multiple of it ([`SearchDefaults::effort`], [`default_budget`]):
//!   SD ERA asks for four, where the general default left its search about 75 iterations
//!   after greedy's prior and lost to greedy. The counts are a pure function of the position, the
//!   kept trees and the seed, so a work budget is as reproducible as an iteration budget;
//!   the last iteration of a tree may overspend by its own cost, the same on any machine.
//! - **Reuse.** Between moves each tree keeps the subtree of the position it is asked about
//!   next, if its search reached it (the opponent's reply and the dice that followed).
//! - **Rollouts instead of a tree** ([`MctsConfig::rollout_candidates`], SERM's `mcts`):
//!   greedy's few best actions played out round after round, every round's playouts on the
//!   same dice, those clearly behind dropped from the race, and the best mean taken
//!   (`rollouts.rs` has the why and the figures). The same budgets, the same report.
//!
//! # Rejected alternatives
//!
//! - *Determinised (perfect-information Monte-Carlo) search*, rolling all dice up front per
//!   iteration: simpler, but it overfits each iteration's dice — an attack looks good
//!   because in that world it hits — and it cannot share statistics across rolls.
//! - *A chance node for every die*, a child for each face: a 5-die attack is five levels
//!   of 6 children each, 7,776 paths that mostly lead to a few positions (a hit or a miss),
//!   so the search spent every iteration under an attack adding dice nodes and never saw
//!   the reply. One node for the chain, its children the positions, keeps the tree on
//!   decisions.
//! - *Expanding every outcome of a chance node at once* (expectimax-style, as [`crate::Greedy`]
//!   does for one ply): exact, but a 5-die attack has thousands of outcomes and the tree
//!   would spend its whole budget there.
//! - *A transposition table instead of a tree*: the games' states hash well, but dice chains
//!   revisit states along different paths with different meanings for the search's
//!   statistics; a plain tree is simpler to reason about and to reuse.

use battlemat_core::{ActionList, Game, Next, SearchDefaults, Seat, Step, result_value};
use battlemat_dice::Roller;
use rayon::prelude::*;
use std::collections::HashMap;
use std::hash::BuildHasher;
use std::time::{Duration, Instant};

mod nodes;
mod rollouts;
use nodes::Nodes;

/// Seats a search keeps values for (the games have at most six).
pub const MAX_SEATS: usize = 8;

/// Lists longer than this are widened progressively even when complete.
pub const WIDEN_OVER: usize = 32;

/// At most this many nodes in one tree: past it, the search values new leaves without
/// adding them (memory stays bounded in long time budgets).
pub const MAX_NODES: usize = 2_000_000;

/// The memory all of one search's trees may take by default
/// ([`MctsConfig::memory_budget`]): each tree's node cap is this, shared over the trees,
/// divided by an estimate of a node's size ([`node_cap`]).
pub const MEMORY_BUDGET: usize = 1 << 30;

/// The `mcts` player's budget in game `G`: [`crate::DEFAULT_MCTS_WORK`] units of work times
/// the game's [`SearchDefaults::effort`] (at least once, at most [`crate::MAX_MCTS_WORK`]).
pub fn default_budget<G: Game>() -> Budget {
    Budget::Work(
        crate::DEFAULT_MCTS_WORK
            .saturating_mul(G::SEARCH.effort.max(1))
            .min(crate::MAX_MCTS_WORK),
    )
}

/// The most nodes one of `trees` trees may hold searching from `state` within `memory`
/// bytes: the memory over the trees, divided by a node's size — the node itself, its
/// state's own heap and a few actions — between 1,000 and [`MAX_NODES`]. The heap is taken
/// as a quarter of the state's JSON: the JSON writes out the setup, which every node's state
/// shares by reference, and its numbers as text. A pure function of the position, so an
/// iteration budget stays reproducible.
pub fn node_cap<G: Game>(state: &G, trees: usize, memory: usize) -> usize {
    let heap = serde_json::to_vec(state).map_or(4096, |v| v.len() / 4);
    let node = std::mem::size_of::<Node<G>>() + heap + 4 * std::mem::size_of::<G::Action>();
    (memory / trees.max(1) / node.max(1)).clamp(1_000, MAX_NODES)
}

const NONE: u32 = u32::MAX;

/// Fisher–Yates with the tree's dice (seeded, so a search is reproducible).
fn shuffle<T>(items: &mut [T], rng: &mut Roller) {
    for i in (1..items.len()).rev() {
        let j = rng.roll(i as u32 + 1) as usize - 1;
        items.swap(i, j);
    }
}

type Values = [f64; MAX_SEATS];

/// How much a search may do per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Budget {
    /// This many iterations in all (split over the trees): reproducible.
    Iterations(u32),
    /// This many units of work in all ([`Work::units`], split over the trees): as many
    /// iterations as that work pays for; reproducible, and roughly the same time a move
    /// whatever the game.
    Work(u32),
    /// This long, in milliseconds: as many iterations as fit.
    Millis(u32),
}

/// What a search spent, counted as it goes (summed over the trees). [`Work::units`] weighs
/// the counts into the units a [`Budget::Work`] is spent in (the module's essay says why
/// these weights).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Work {
    /// Steps applied to a state: an action or a die tried in the tree, and every step of a
    /// playout (each with the clone it is applied to, where there is one).
    pub steps: u64,
    /// Action listings (a decision node's first visit, a playout's random decision).
    pub listings: u64,
    /// Actions those listings produced.
    pub listed: u64,
    /// Seats evaluated ([`Game::evaluate`] once for each seat of a leaf).
    pub evaluations: u64,
    /// Nodes on the iterations' paths (the descent and the backing up of values).
    pub nodes: u64,
}

/// Units of work a step costs ([`Work::units`]; the weights are fitted in the module's
/// essay).
pub const WORK_PER_STEP: u64 = 10;
/// Units of work a listing costs, besides its actions.
pub const WORK_PER_LISTING: u64 = 60;
/// Units of work each listed action costs.
pub const WORK_PER_LISTED: u64 = 1;
/// Units of work one seat's evaluation costs (with the iteration's fixed costs: the new
/// node, the leaf's clone).
pub const WORK_PER_EVALUATION: u64 = 200;
/// Units of work each node on an iteration's path costs (choosing a child, backing up).
pub const WORK_PER_NODE: u64 = 5;

impl Work {
    /// The weighted sum the work budget is spent in.
    pub fn units(&self) -> u64 {
        self.steps * WORK_PER_STEP
            + self.listings * WORK_PER_LISTING
            + self.listed * WORK_PER_LISTED
            + self.evaluations * WORK_PER_EVALUATION
            + self.nodes * WORK_PER_NODE
    }

    /// What one greedy pass cost, as the search counts it: one listing, every action
    /// listed, greedy's steps and evaluations.
    fn of_greedy(stats: &crate::GreedyStats) -> Work {
        Work {
            listings: 1,
            listed: stats.actions as u64,
            steps: stats.steps as u64,
            evaluations: stats.evaluations as u64,
            ..Work::default()
        }
    }

    fn add(&mut self, o: &Work) {
        self.steps += o.steps;
        self.listings += o.listings;
        self.listed += o.listed;
        self.evaluations += o.evaluations;
        self.nodes += o.nodes;
    }
}

/// The decisions a playout plays where the game asks for no other number
/// ([`SearchDefaults::playout_decisions`]).
pub const PLAYOUT_DECISIONS: u32 = 4;

/// A rollout race ([`MctsConfig::rollout_race`]) drops a candidate this many standard errors
/// behind the leader: at 1, SERM's skirmish lost 7 points against 2 (54.8 % against 61.8 %
/// of 400 decided games, `seed=13`), its candidates dropped after a few rounds; at 3 it won
/// 63.2 % at 1.4 times the time (docs/strength.md, "SERM: a race among the rollouts").
pub const RACE_STANDARD_ERRORS: f64 = 2.0;

/// A rollout race first compares the candidates after this
/// many rounds,
pub const RACE_FROM: u64 = 16;
/// and again every this many rounds after.
pub const RACE_EVERY: u64 = 8;

/// The search's settings.
#[derive(Clone, Debug, PartialEq)]
pub struct MctsConfig {
    pub budget: Budget,
    /// UCT's exploration constant, for values in `[-1, 1]`.
    pub exploration: f64,
    /// Progressive widening: `k` and `α` in `ceil(k · visits^α)`.
    pub widen_k: f64,
    pub widen_alpha: f64,
    /// Random decisions played out from a new leaf before it is evaluated.
    pub playout_decisions: u32,
    /// Independent trees searched (root parallelism). With an iteration budget their number
    /// is this, whatever the thread count; with a time budget, one per thread.
    pub trees: u32,
    /// The memory the trees may take together, in bytes ([`node_cap`]): however large the
    /// budget, a search stops adding nodes there.
    pub memory_budget: usize,
    /// Greedy's prior at the root: each root action starts with this many virtual visits
    /// at its greedy value (one ply, the dice weighed exactly: [`crate::Greedy`]), and the
    /// root's actions are tried best-first by that value. 0: no prior (the actions in a
    /// shuffled order, valued by the search alone). The greedy pass is paid out of the
    /// budget ([`crate::GreedyStats`] counted as work).
    pub greedy_prior: u32,
    /// The greedy player whose values are the prior ([`MctsConfig::greedy_prior`]): where
    /// an action's dice are weighed exactly and where sampled.
    pub prior_greedy: crate::Greedy,
    /// How a playout chooses its actions ([`Playouts`]).
    pub playouts: Playouts,
    /// The move made: the root action with the best value (greedy's prior and the search's
    /// visits blended, as UCT sees them) instead of the most visited. Off by default; kept
    /// to measure against: King of the Hill at the default work, the tuning example's 200
    /// games on seeds 1, 2 and 3, 86, 99 and 109 won against 83, 88 and 102 by visits (49.0
    /// against 45.5 % of 600 games, about one standard error apart); the SERM skirmish
    /// (`seed=3`) 92 against 88.
    pub choose_by_value: bool,
    /// Keep what the trees know of a position reached from the last search (its subtree)
    /// instead of starting every search afresh. On by default; off was measured no
    /// stronger (docs/strength.md, "MCTS is weaker than greedy"). Off in A-Bao-A-Qu, with
    /// one root candidate ([`Game::SEARCH`], [`MctsConfig::for_game`]).
    pub reuse_trees: bool,
    /// Below the root too, each decision's actions ordered by greedy's values and seeded
    /// with this many virtual visits of them (0, the default: off, listed in a shuffled
    /// order). Kept to measure against: no stronger in A-Bao-A-Qu (docs/strength.md, "MCTS is
    /// weaker than greedy"), and dear where greedy is (a greedy pass a node).
    pub inner_prior: u32,
    /// UCT sees each mean value rescaled to `[0, 1]` between the lowest and highest mean of
    /// any node in the search (as MuZero's search does), so that the exploration constant
    /// means the same in a game whose evaluation moves by thousandths as in one that moves
    /// by tenths. Off by default: no stronger in A-Bao-A-Qu (docs/strength.md, "MCTS is
    /// weaker than greedy").
    pub normalize: bool,
    /// How a node's value is backed up ([`Backup`]). [`Backup::Mean`] by default; the
    /// others were measured no stronger in A-Bao-A-Qu, where the mean is most in doubt
    /// (docs/strength.md, "MCTS is weaker than greedy"), and are kept to measure against.
    pub backup: Backup,
    /// Branch only where a move begins ([`Game::continues_move`]): a later step of a move
    /// begun is greedy's choice, in the tree (an edge leads past the whole move) and in
    /// playouts, and a search asked at such a step answers greedy's choice. On by default;
    /// it changes only games that ask for moves in steps (A-Bao-A-Qu's declarations).
    pub whole_moves: bool,
    /// Search only the deciding seat's own run of decisions: a position where another seat
    /// decides is a leaf, valued by the evaluation as greedy values it, and a playout stops
    /// there. Off by default; kept to measure against (docs/strength.md, "A-Bao-A-Qu: whole
    /// moves"): below the end of a seat's phase the tree's mean averages the other seat's
    /// explored, often poor, replies, which look good to the seat searching.
    pub own_run: bool,
    /// With greedy's prior, the root searches only greedy's this many best actions (ties in
    /// a seeded random order, each tree its own); 0, the general default: every action. 1
    /// in A-Bao-A-Qu ([`Game::SEARCH`]: docs/strength.md, "A-Bao-A-Qu: one candidate a
    /// tree").
    pub root_candidates: u32,
    /// Instead of a tree, play greedy's this many best actions out again and again, every
    /// round of playouts on the same dice, and take the best mean (`rollouts.rs`); 0, the
    /// general default: the tree. SERM's, six ([`Game::SEARCH`]: docs/strength.md, "SERM: a
    /// race among the rollouts").
    pub rollout_candidates: u32,
    /// With rollouts, a race: from [`RACE_FROM`] rounds on, every [`RACE_EVERY`] rounds, a
    /// candidate whose playouts trail the leader's, round for round on the same dice, by
    /// more than this many standard errors of the paired difference is played out no more,
    /// and its rounds go to the others (`rollouts.rs`); [`RACE_STANDARD_ERRORS`] by default;
    /// 0: every candidate every round.
    pub rollout_race: f64,
}

/// What value a node passes up to UCT in its parent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backup {
    /// The mean of every iteration through it (plain UCT).
    Mean,
    /// A decision's value is its most visited child's (the action the search would take
    /// there), a chance node's the mean of its children's weighted by their visits, a leaf's
    /// its mean. The mean of a decision counts every action tried there, the bad ones it
    /// tried to find the good: below a seat's own multi-step action (A-Bao-A-Qu's `from`,
    /// `with`, `target`, `fire`) that drags the value down, below the other seat's reply it
    /// lifts it.
    MostVisited,
    /// As [`Backup::MostVisited`], but a decision's value is its best child's for the
    /// deciding seat (by their backed-up values): expectimax over the tree searched.
    Best,
}

/// How a playout chooses each action.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Playouts {
    /// One at random, as the game draws it ([`Game::playout_action`]: SD ERA a unit first,
    /// then one of its actions).
    Random,
    /// One at random, uniformly from the whole listing (what `Random` was before games drew
    /// their own; kept to measure against).
    Uniform,
    /// The action whose position after it (its dice rolled once) the game's evaluation
    /// likes best for the deciding seat. The default in SD ERA and SERM (whose lists are
    /// candidates) until 2026-12-05, kept to measure against: see [`MctsConfig::new`] for
    /// why random playouts replaced it.
    Evaluated,
    /// No playout: a new leaf's dice are weighed as greedy weighs an action's (exactly up to
    /// [`MctsConfig::prior_greedy`]'s limit, sampled past it) and the positions they lead to
    /// evaluated; a leaf with no dice to come is evaluated as it stands. Every edge the tree
    /// adds starts at greedy's value of it instead of one roll of its dice. Kept to measure
    /// against: no stronger than random playouts against greedy (2026-12-05, the tuning
    /// example, 200 games, `seed=3`: King of the Hill 95 of 200 at 24.6 ms a decision, the
    /// SERM skirmish 97 of 200 at 22.3 ms; random playouts then 104 and 95 of 200 at 5.9 and
    /// 14.8 ms).
    Expected,
}

impl MctsConfig {
    /// The `mcts` player's settings for game `G`: [`MctsConfig::new`] with what the game
    /// says a search of it needs ([`Game::SEARCH`]). The default budget
    /// ([`crate::DEFAULT_MCTS`]) becomes the game's own: that work times the game's
    /// [`SearchDefaults::effort`] ([`default_budget`]); any other budget is kept as asked.
    pub fn for_game<G: Game>(budget: Budget) -> MctsConfig {
        let budget = if budget == crate::DEFAULT_MCTS {
            default_budget::<G>()
        } else {
            budget
        };
        let mut config = MctsConfig::new(budget);
        config.follow(G::SEARCH);
        config
    }

    /// Take a game's [`SearchDefaults`] over these settings.
    pub fn follow(&mut self, game: SearchDefaults) {
        self.root_candidates = game.root_candidates;
        self.rollout_candidates = game.rollout_candidates;
        self.reuse_trees = game.keep_trees;
        self.playout_decisions = match game.playout_decisions {
            0 => PLAYOUT_DECISIONS,
            n => n,
        };
    }

    /// The general settings, for any game (the `mcts` player starts from
    /// [`MctsConfig::for_game`]).
    pub fn new(budget: Budget) -> MctsConfig {
        MctsConfig {
            budget,
            // Tuned against the greedy player (`examples/mcts_vs_greedy.rs`, 100-200 games a
            // setting): the games' evaluations differ by hundredths between moves, so a
            // small constant. The prior of 50 visits and playouts of 4 decisions, evaluated
            // where the list is candidates: SD ERA's King of the Hill 41.5 % → 64 % of
            // decided games, SERM's skirmish 34.5 % → 58 %, the ms-d20 duel 75 % → 79 %;
            // SWTB's outpost 71.5-78 % → 69 % (within the noise of 200 games).
            //
            // Random playouts everywhere since 2026-12-05. The evaluated playouts chose each
            // action by one roll of its dice, then rolled them again: a playout's decider
            // took whichever long shot had come up in its one sample, and the more the
            // search leaned on playouts the worse it played. King of the Hill against greedy
            // at ten times the default work: evaluated 22 of 100 won, random 40 of 60; at
            // the default, 50 of 100 random (the evaluated default 16 of 40 in
            // `tournament`); the SERM skirmish 58 of 100 random at the default, 62 at three
            // times it.
            exploration: 0.2,
            widen_k: 2.0,
            widen_alpha: 0.5,
            playout_decisions: PLAYOUT_DECISIONS,
            trees: 4,
            memory_budget: MEMORY_BUDGET,
            greedy_prior: 50,
            prior_greedy: crate::Greedy::default(),
            playouts: Playouts::Random,
            choose_by_value: false,
            reuse_trees: true,
            inner_prior: 0,
            normalize: false,
            backup: Backup::Mean,
            whole_moves: true,
            own_run: false,
            root_candidates: 0,
            rollout_candidates: 0,
            rollout_race: RACE_STANDARD_ERRORS,
        }
    }
}

enum Kind {
    Decide(Seat),
    /// Dice to roll before the next decision: the node's children are the distinct
    /// positions the whole chain of dice has led to so far ([`Node::keys`] their hashes).
    Chance,
    Over(Values),
}

struct Node<G: Game> {
    state: G,
    kind: Kind,
    visits: u32,
    total: Values,
    /// The value backed up ([`Backup::MostVisited`], [`Backup::Best`]; unused with
    /// [`Backup::Mean`]).
    value: Values,
    /// A decision's actions, in the order they are widened.
    actions: Vec<G::Action>,
    /// A decision's children, one per action tried (in `actions` order); a chance node's,
    /// one per distinct position its dice have led to, in the order first reached.
    children: Vec<u32>,
    /// A chance node's children's state hashes (in `children` order), to know a position
    /// the dice have led to before.
    keys: Vec<u64>,
    /// Below the root, greedy's value of each action (in `actions` order) where the
    /// search orders its inner nodes by greedy ([`MctsConfig::inner_prior`]); empty if not.
    prior: Vec<f64>,
}

/// Where a chance node's dice led ([`Tree::roll_chance`]).
enum Rolled {
    /// To a position they had led to before: the search goes on from that child.
    Known(u32),
    /// To a new leaf (or nowhere the tree keeps), valued.
    Valued(Values),
}

/// One search tree and the dice it rolls.
struct Tree<G: Game> {
    nodes: Nodes<Node<G>>,
    /// The most nodes it may hold ([`node_cap`]).
    cap: usize,
    rng: Roller,
    seats: usize,
    path: Vec<u32>,
    listed: Vec<G::Action>,
    events: Vec<G::Event>,
    /// What this tree spent in its current search.
    work: Work,
    /// Greedy's value of each root action, in the root's `actions` order (empty: no prior),
    /// and the virtual visits it counts for ([`MctsConfig::greedy_prior`]).
    prior: Vec<f64>,
    prior_visits: f64,
    /// The lowest and highest mean value of any node for any seat in this search
    /// ([`MctsConfig::normalize`]).
    lo: f64,
    hi: f64,
    /// Greedy's memo of chance states, for [`Playouts::Expected`].
    memo: crate::Memo<G>,
}

/// What the search thinks of one root action (summed over the trees).
#[derive(Clone, Debug, PartialEq)]
pub struct ActionStats<A> {
    pub action: A,
    pub visits: u64,
    /// The deciding seat's mean value after it, in `[-1, 1]`.
    pub value: f64,
}

/// A search's answer.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchReport<A> {
    /// The root actions the trees tried, most visited first.
    pub actions: Vec<ActionStats<A>>,
    pub iterations: u64,
    /// What the search spent, summed over the trees.
    pub work: Work,
    /// Nodes in all the trees after the search.
    pub nodes: usize,
}

/// An MCTS player: its settings and the trees it keeps between moves.
pub struct Mcts<G: Game> {
    pub config: MctsConfig,
    trees: Vec<Tree<G>>,
}

impl<G: Game> Mcts<G> {
    pub fn new(config: MctsConfig) -> Mcts<G> {
        Mcts {
            config,
            trees: Vec::new(),
        }
    }

    /// The action to take in `state` (the deciding seat's), searching with the budget;
    /// `roller` seeds the trees. `None` when no seat decides.
    pub fn choose(&mut self, state: &G, roller: &mut Roller) -> Option<G::Action> {
        let report = self.search(state, roller)?;
        report.actions.into_iter().next().map(|s| s.action)
    }

    /// Search `state` and report every root action tried.
    pub fn search(&mut self, state: &G, roller: &mut Roller) -> Option<SearchReport<G::Action>> {
        let Next::Decide(seat) = state.next() else {
            return None;
        };
        let legal = state.legal_actions();
        if legal.len() <= 1 {
            // Nothing to weigh (the trees are dropped: the position moves on without them).
            self.trees.clear();
            return Some(SearchReport {
                actions: legal
                    .into_iter()
                    .map(|action| ActionStats {
                        action,
                        visits: 0,
                        value: 0.0,
                    })
                    .collect(),
                iterations: 0,
                work: Work::default(),
                nodes: 0,
            });
        }
        let seed = (u64::from(roller.roll(u32::MAX)) << 32) | u64::from(roller.roll(u32::MAX));
        if self.config.whole_moves && state.continues_move() {
            // The move was chosen where it began, its completion greedy's as the trees
            // assumed; the trees are kept for the position the move leads to.
            return Some(self.greedy_report(state, seed));
        }
        // Greedy's one ply first, where the prior is on: its values order and seed the
        // root, and its work is paid out of the budget.
        let mut spent = Work::default();
        if self.config.rollout_candidates > 0 {
            let ranked = self.greedy_values(state, seed, &mut spent);
            return Some(self.rollout_search(state, seat, ranked, seed, spent));
        }
        let prior: Option<HashMap<G::Action, f64>> = (self.config.greedy_prior > 0).then(|| {
            self.greedy_values(state, seed, &mut spent)
                .into_iter()
                .collect()
        });
        let (trees, deadline) = match self.config.budget {
            Budget::Iterations(_) | Budget::Work(_) => (self.config.trees.max(1) as usize, None),
            // Against the clock, one tree per thread: more trees than threads would leave
            // the last ones waiting until the time is up.
            Budget::Millis(ms) => (
                rayon::current_num_threads().max(1),
                Some(Instant::now() + Duration::from_millis(u64::from(ms))),
            ),
        };
        // Keep what each tree knows of this position; start afresh where it knows nothing.
        let mut old = std::mem::take(&mut self.trees);
        if !self.config.reuse_trees {
            old.clear();
        }
        old.resize_with(trees, Tree::empty);
        let cap = node_cap(state, trees, self.config.memory_budget);
        self.trees = old
            .into_iter()
            .take(trees)
            .enumerate()
            .map(|(i, t)| {
                let mut t = t.reroot(state, Roller::new(seed, i as u64), cap);
                t.set_prior(
                    prior.as_ref(),
                    self.config.greedy_prior,
                    self.config.root_candidates,
                );
                t
            })
            .collect();
        let left = |n: u32| (u64::from(n).saturating_sub(spent.units())) as u32;
        let cfg = &self.config;
        // Each tree's share of an iteration or work budget (iterations, work units).
        let share = |n: u32, i: usize| -> u64 {
            let n = u64::from(n);
            n / trees as u64 + u64::from((i as u64) < n % trees as u64)
        };
        let per_tree = |i: usize| -> (u64, u64) {
            match cfg.budget {
                Budget::Iterations(n) => (share(n, i), u64::MAX),
                Budget::Work(n) => (u64::MAX, share(left(n), i)),
                Budget::Millis(_) => (u64::MAX, u64::MAX),
            }
        };
        let iterations: u64 = self
            .trees
            .par_iter_mut()
            .enumerate()
            .map(|(i, t)| {
                let (iterations, work) = per_tree(i);
                t.run(cfg, iterations, work, deadline)
            })
            .sum();
        let mut work = spent;
        for t in &self.trees {
            work.add(&t.work);
        }
        // Sum the root statistics over the trees, in the listed order.
        // With greedy's prior, each tree's virtual visits count in the value reported.
        let index: HashMap<&G::Action, usize> =
            legal.iter().enumerate().map(|(i, a)| (a, i)).collect();
        let mut visits = vec![0u64; legal.len()];
        let mut totals = vec![0f64; legal.len()];
        let mut virtual_visits = vec![0f64; legal.len()];
        for t in &self.trees {
            let root = &t.nodes[0];
            for (k, (a, &c)) in root.actions.iter().zip(&root.children).enumerate() {
                if let Some(&i) = index.get(a) {
                    let child = &t.nodes[c as usize];
                    visits[i] += u64::from(child.visits);
                    totals[i] += child.sum(seat as usize, self.config.backup);
                    if let Some(p) = t.prior.get(k) {
                        virtual_visits[i] += t.prior_visits;
                        totals[i] += t.prior_visits * p;
                    }
                }
            }
        }
        // Every tree ran at least one iteration, so some action was tried; were none, the
        // listed actions would be reported unvisited and the first chosen.
        let any = visits.iter().any(|&v| v > 0);
        let mut actions: Vec<ActionStats<G::Action>> = legal
            .into_iter()
            .enumerate()
            .filter(|&(i, _)| visits[i] > 0 || !any)
            .map(|(i, action)| ActionStats {
                action,
                visits: visits[i],
                value: totals[i] / (visits[i] as f64 + virtual_visits[i]).max(1.0),
            })
            .collect();
        // Most visited first; then the better value; then at random (seeded). Not the listed
        // order: where greedy's values tie (A-Bao-A-Qu's moves to hexes it values alike)
        // each tree tries its own of the tied actions, and taking the first listed of those
        // walked every counter towards the map's first hexes (A-Bao-A-Qu's s_field at one
        // iteration a tree, four trees: 0 of 20 won as the Federation, 15 of 20 lost as
        // Zeon, where greedy, which breaks its ties at random, won 8 and lost 3).
        shuffle(&mut actions, &mut Roller::new(seed, u64::MAX - 1));
        let by_value = |a: &ActionStats<G::Action>, b: &ActionStats<G::Action>| {
            b.value
                .partial_cmp(&a.value)
                .unwrap_or(std::cmp::Ordering::Equal)
        };
        if self.config.choose_by_value {
            actions.sort_by(|a, b| by_value(a, b).then(b.visits.cmp(&a.visits)));
        } else {
            actions.sort_by(|a, b| b.visits.cmp(&a.visits).then(by_value(a, b)));
        }
        Some(SearchReport {
            actions,
            iterations,
            work,
            nodes: self.trees.iter().map(|t| t.nodes.len()).sum(),
        })
    }
}

impl<G: Game> Mcts<G> {
    /// Greedy's value of each of `state`'s actions (in `[-1, 1]`, listed order), its work
    /// added to `spent`: the tree's prior, the rollouts' ranking.
    fn greedy_values(&self, state: &G, seed: u64, spent: &mut Work) -> Vec<(G::Action, f64)> {
        let (values, stats) = self
            .config
            .prior_greedy
            .values(state, &mut Roller::new(seed, u64::MAX));
        spent.add(&Work::of_greedy(&stats));
        values
            .into_iter()
            .map(|(a, v)| (a, v.clamp(-1.0, 1.0)))
            .collect()
    }

    /// Greedy's values of `state`'s actions as a search's report, best first (ties in a
    /// seeded random order): the answer at a later step of a move ([`Game::continues_move`]).
    fn greedy_report(&self, state: &G, seed: u64) -> SearchReport<G::Action> {
        let mut rng = Roller::new(seed, u64::MAX);
        let (mut values, stats) = self.config.prior_greedy.values(state, &mut rng);
        shuffle(&mut values, &mut rng);
        values.sort_by(|a, b| b.1.total_cmp(&a.1));
        let work = Work::of_greedy(&stats);
        SearchReport {
            actions: values
                .into_iter()
                .map(|(action, value)| ActionStats {
                    action,
                    visits: 0,
                    value: value.clamp(-1.0, 1.0),
                })
                .collect(),
            iterations: 0,
            work,
            nodes: self.trees.iter().map(|t| t.nodes.len()).sum(),
        }
    }
}

impl<G: Game> Node<G> {
    /// The seat's value summed over the node's visits: its total, or its backed-up value
    /// as many times as it was visited ([`Backup`]).
    fn sum(&self, seat: usize, backup: Backup) -> f64 {
        match backup {
            Backup::Mean => self.total[seat],
            Backup::MostVisited | Backup::Best => f64::from(self.visits) * self.value[seat],
        }
    }
}

impl<G: Game> Tree<G> {
    fn empty() -> Tree<G> {
        Tree {
            nodes: Nodes::default(),
            cap: MAX_NODES,
            rng: Roller::new(0, 0),
            seats: 0,
            path: Vec::new(),
            listed: Vec::new(),
            events: Vec::new(),
            work: Work::default(),
            prior: Vec::new(),
            prior_visits: 0.0,
            lo: f64::INFINITY,
            hi: f64::NEG_INFINITY,
            memo: crate::Memo::default(),
        }
    }

    /// This tree re-rooted at `state`: the subtree of a node holding it, if the old search
    /// reached it (within a few thousand nodes of the old root), else a fresh root.
    fn reroot(mut self, state: &G, rng: Roller, cap: usize) -> Tree<G> {
        self.rng = rng;
        self.work = Work::default();
        self.prior.clear();
        self.lo = f64::INFINITY;
        self.hi = f64::NEG_INFINITY;
        self.cap = cap;
        self.seats = (state.seats() as usize).min(MAX_SEATS);
        let found = self.find(state);
        match found {
            Some(0) => {}
            Some(i) => {
                let mut nodes = Nodes::default();
                self.copy_subtree(i, &mut nodes);
                self.nodes = nodes;
            }
            None => {
                self.nodes.clear();
                let root = self.new_node(state.clone());
                self.nodes.push(root);
            }
        }
        self
    }

    /// Breadth-first from the root, looking at up to 100,000 nodes.
    fn find(&self, state: &G) -> Option<usize> {
        let mut queue = std::collections::VecDeque::new();
        if !self.nodes.is_empty() {
            queue.push_back(0u32);
        }
        let mut looked = 0;
        while let Some(i) = queue.pop_front() {
            let n = &self.nodes[i as usize];
            if matches!(n.kind, Kind::Decide(_)) && n.state == *state {
                return Some(i as usize);
            }
            looked += 1;
            if looked > 100_000 {
                return None;
            }
            queue.extend(n.children.iter().copied().filter(|&c| c != NONE));
        }
        None
    }

    /// Copy the subtree under `i` into `out` (its root first), renumbering the children.
    fn copy_subtree(&mut self, i: usize, out: &mut Nodes<Node<G>>) {
        let mut stack = vec![(i as u32, NONE, 0usize)];
        while let Some((from, parent, slot)) = stack.pop() {
            let n = &mut self.nodes[from as usize];
            let node = Node {
                state: n.state.clone(),
                kind: match &n.kind {
                    Kind::Decide(s) => Kind::Decide(*s),
                    Kind::Chance => Kind::Chance,
                    Kind::Over(v) => Kind::Over(*v),
                },
                visits: n.visits,
                total: n.total,
                value: n.value,
                actions: std::mem::take(&mut n.actions),
                children: n.children.clone(),
                keys: std::mem::take(&mut n.keys),
                prior: std::mem::take(&mut n.prior),
            };
            let at = out.len() as u32;
            out.push(node);
            if parent != NONE {
                out[parent as usize].children[slot] = at;
            }
            for (s, &c) in self.nodes[from as usize].children.iter().enumerate() {
                if c != NONE {
                    stack.push((c, at, s));
                }
            }
        }
    }

    /// Order the root's untried actions best-first by greedy's values and keep those values
    /// as the root's prior (`prior`: none, the root as the search left it).
    fn set_prior(&mut self, prior: Option<&HashMap<G::Action, f64>>, visits: u32, candidates: u32) {
        let Some(p) = prior else { return };
        if self.nodes[0].actions.is_empty() {
            self.list_actions(0);
        }
        let value = |a: &G::Action| p.get(a).copied().unwrap_or(-1.0);
        let tried = self.nodes[0].children.len();
        if candidates > 0 {
            self.keep_candidates(&value, candidates as usize);
        } else {
            // Shuffled first (seeded), so that actions greedy values the same are tried in
            // no fixed order, as greedy breaks its ties at random.
            let untried = &mut self.nodes[0].actions[tried..];
            shuffle(untried, &mut self.rng);
            untried.sort_by(|a, b| value(b).total_cmp(&value(a)));
        }
        self.prior = self.nodes[0].actions.iter().map(value).collect();
        self.prior_visits = f64::from(visits);
    }

    /// [`MctsConfig::root_candidates`]: the root keeps greedy's `n` best actions only — ties
    /// in a seeded random order, after any a kept subtree had tried — those tried first
    /// (their subtrees kept), then the others best first. A tried action greedy does not
    /// rank among the `n` is dropped with its visits: a kept subtree's actions were tried
    /// in a random order, and with their visits they would outvote greedy's best.
    fn keep_candidates(&mut self, value: &impl Fn(&G::Action) -> f64, n: usize) {
        let root = &self.nodes[0];
        let tried = root.children.len();
        let mut order: Vec<usize> = (0..root.actions.len()).collect();
        shuffle(&mut order, &mut self.rng);
        // Among those tied with the best, the ones complete in themselves first, as greedy
        // breaks that tie ([`crate::complete_first`]).
        let best = root
            .actions
            .iter()
            .map(value)
            .fold(f64::NEG_INFINITY, f64::max);
        let begins: Vec<bool> = root
            .actions
            .iter()
            .map(|a| value(a) >= best - crate::TIE && crate::begins_move(&root.state, a))
            .collect();
        order.sort_by(|&a, &b| {
            let (va, vb) = (value(&root.actions[a]), value(&root.actions[b]));
            vb.total_cmp(&va)
                .then(begins[a].cmp(&begins[b]))
                .then((a >= tried).cmp(&(b >= tried)))
        });
        order.truncate(n);
        // The kept tried ones in their old order (children parallel to actions), then the
        // untried best first.
        let (mut kept_tried, untried): (Vec<usize>, Vec<usize>) =
            order.into_iter().partition(|&k| k < tried);
        kept_tried.sort_unstable();
        let dropped: Vec<u32> = (0..tried)
            .filter(|k| !kept_tried.contains(k))
            .map(|k| root.children[k])
            .collect();
        let actions: Vec<G::Action> = kept_tried
            .iter()
            .chain(&untried)
            .map(|&k| root.actions[k].clone())
            .collect();
        let children: Vec<u32> = kept_tried.iter().map(|&k| root.children[k]).collect();
        // The root's statistics no longer count the iterations through the dropped.
        let (mut visits, mut total) = (root.visits, root.total);
        for &c in &dropped {
            let child = &self.nodes[c as usize];
            visits = visits.saturating_sub(child.visits);
            for (t, x) in total.iter_mut().zip(child.total) {
                *t -= x;
            }
        }
        let root = &mut self.nodes[0];
        (root.actions, root.children, root.visits, root.total) = (actions, children, visits, total);
    }

    fn new_node(&mut self, state: G) -> Node<G> {
        let kind = match state.next() {
            Next::Decide(s) => Kind::Decide(s),
            Next::Chance(_) => Kind::Chance,
            Next::Over => Kind::Over(self.evaluate(&state)),
        };
        Node {
            state,
            kind,
            visits: 0,
            total: [0.0; MAX_SEATS],
            value: [0.0; MAX_SEATS],
            actions: Vec::new(),
            children: Vec::new(),
            keys: Vec::new(),
            prior: Vec::new(),
        }
    }

    /// Run up to `iterations` iterations, until `work` units are spent or until `deadline`
    /// (whichever comes first); how many ran. An iteration is never cut short: the last
    /// one may spend past the work budget, by the same amount wherever it runs.
    fn run(
        &mut self,
        cfg: &MctsConfig,
        iterations: u64,
        work: u64,
        deadline: Option<Instant>,
    ) -> u64 {
        let mut done = 0;
        while done < iterations && (done == 0 || self.work.units() < work) {
            // At least one iteration, however late it starts (a paused process, a budget
            // shorter than one iteration).
            if let Some(d) = deadline
                && done > 0
                && done % 32 == 0
                && Instant::now() >= d
            {
                break;
            }
            self.iterate(cfg);
            done += 1;
        }
        done
    }

    /// The seat deciding at the root (none while the tree is empty).
    fn root_seat(&self) -> Option<Seat> {
        match self.nodes.first().map(|n| &n.kind) {
            Some(Kind::Decide(s)) => Some(*s),
            _ => None,
        }
    }

    /// One iteration: select down the tree, add one node, value it, back the value up.
    fn iterate(&mut self, cfg: &MctsConfig) {
        self.path.clear();
        self.path.push(0);
        let mut at = 0usize;
        let value = loop {
            let node = &self.nodes[at];
            match &node.kind {
                Kind::Over(v) => break *v,
                Kind::Decide(seat) if cfg.own_run && at != 0 && Some(*seat) != self.root_seat() => {
                    break evaluate(&self.nodes[at].state, self.seats, &mut self.work);
                }
                Kind::Decide(seat) => {
                    let seat = *seat as usize;
                    // Listed on the first visit that goes past it (a decision always has
                    // an action; if a game offered none, the node is valued as a leaf).
                    if node.actions.is_empty() {
                        if cfg.inner_prior > 0 && at != 0 {
                            self.list_by_greedy(at, cfg);
                        } else {
                            self.list_actions(at);
                        }
                        if self.nodes[at].actions.is_empty() {
                            let state = self.nodes[at].state.clone();
                            break self.evaluate(&state);
                        }
                    }
                    let node = &self.nodes[at];
                    let allowed = if self.widens(node.actions.len()) {
                        let w = cfg.widen_k * f64::from(node.visits + 1).powf(cfg.widen_alpha);
                        (w.ceil() as usize).clamp(1, node.actions.len())
                    } else {
                        node.actions.len()
                    };
                    if node.children.len() < allowed {
                        // Try the next action.
                        let action = node.actions[node.children.len()].clone();
                        let step = Step::Act {
                            seat: seat as Seat,
                            action,
                        };
                        break self.expand(at, &step, cfg);
                    }
                    // UCT among the tried actions, for the deciding seat; at the root, with
                    // greedy's values as virtual visits where there is a prior.
                    let (prior, n0) = if at == 0 {
                        (&self.prior[..], self.prior_visits)
                    } else {
                        (&node.prior[..], f64::from(cfg.inner_prior))
                    };
                    let ln = (f64::from(node.visits.max(1)) + n0).ln();
                    let (lo, span) = if cfg.normalize && self.hi > self.lo {
                        (self.lo, self.hi - self.lo)
                    } else {
                        (0.0, 1.0)
                    };
                    let mut best = (f64::NEG_INFINITY, 0u32);
                    for (k, &c) in node.children.iter().enumerate() {
                        let ch = &self.nodes[c as usize];
                        let sum = ch.sum(seat, cfg.backup);
                        let score = match prior.get(k) {
                            Some(p) => {
                                let n = f64::from(ch.visits) + n0;
                                ((sum + n0 * p) / n - lo) / span + cfg.exploration * (ln / n).sqrt()
                            }
                            None if ch.visits == 0 => f64::INFINITY,
                            None => {
                                let n = f64::from(ch.visits);
                                (sum / n - lo) / span + cfg.exploration * (ln / n).sqrt()
                            }
                        };
                        if score > best.0 {
                            best = (score, c);
                        }
                    }
                    at = best.1 as usize;
                    self.path.push(best.1);
                }
                Kind::Chance => {
                    // Double progressive widening: while the node has fewer distinct
                    // positions than `ceil(k · visits^α)`, roll its whole chain of dice
                    // anew (each die by its exact weight) and go to the position it leads
                    // to, a known one or a new child; past that, go to a known position
                    // with the chance of its share of the visits (which follow the dice).
                    let w = cfg.widen_k * f64::from(node.visits + 1).powf(cfg.widen_alpha);
                    if node.children.len() < (w.ceil() as usize).max(1) {
                        match self.roll_chance(at, cfg) {
                            Rolled::Known(c) => {
                                at = c as usize;
                                self.path.push(c);
                                continue;
                            }
                            Rolled::Valued(v) => break v,
                        }
                    }
                    let weights: Vec<u64> = node
                        .children
                        .iter()
                        .map(|&c| u64::from(self.nodes[c as usize].visits).max(1))
                        .collect();
                    let c = node.children[self.rng.pick(&weights).unwrap_or(0)];
                    at = c as usize;
                    self.path.push(c);
                }
            }
        };
        // Every iteration pays for its path, even one that ends on a node already known to
        // be the game's end and so applies, lists and evaluates nothing (else a tree that
        // had solved the end of a game would spin through a work budget forever).
        self.work.nodes += self.path.len() as u64;
        // Leaf first, so that a node's backed-up value sees its children's new ones.
        for k in (0..self.path.len()).rev() {
            let i = self.path[k] as usize;
            let n = &mut self.nodes[i];
            n.visits += 1;
            for (t, v) in n.total.iter_mut().zip(&value).take(self.seats) {
                *t += v;
                let q = *t / f64::from(n.visits);
                self.lo = self.lo.min(q);
                self.hi = self.hi.max(q);
            }
            if cfg.backup != Backup::Mean {
                self.nodes[i].value = self.backed_up(i, cfg.backup);
            }
        }
    }

    /// The node `i`'s value under [`Backup::MostVisited`] or [`Backup::Best`], from its
    /// children's (its own mean where no child has been visited).
    fn backed_up(&self, i: usize, backup: Backup) -> Values {
        let n = &self.nodes[i];
        let mean = || n.total.map(|t| t / f64::from(n.visits.max(1)));
        match &n.kind {
            Kind::Over(v) => *v,
            Kind::Decide(seat) => {
                let seat = *seat as usize;
                // The most visited child; among as many visits, the better for the seat.
                let mut best: Option<&Node<G>> = None;
                for &c in &n.children {
                    let ch = &self.nodes[c as usize];
                    let better = |b: &Node<G>| match backup {
                        Backup::Best => ch.value[seat] > b.value[seat],
                        _ => (ch.visits, ch.value[seat]) > (b.visits, b.value[seat]),
                    };
                    if ch.visits > 0 && best.is_none_or(better) {
                        best = Some(ch);
                    }
                }
                best.map_or_else(mean, |b| b.value)
            }
            Kind::Chance => {
                let (mut sum, mut visits) = ([0.0; MAX_SEATS], 0u32);
                for &c in &n.children {
                    let ch = &self.nodes[c as usize];
                    visits += ch.visits;
                    for (s, v) in sum.iter_mut().zip(&ch.value).take(self.seats) {
                        *s += f64::from(ch.visits) * v;
                    }
                }
                if visits == 0 {
                    return mean();
                }
                sum.iter_mut().for_each(|s| *s /= f64::from(visits));
                sum
            }
        }
    }

    /// Add the state after the action `step` from the decision `at` as its next child and
    /// value the new leaf; past the tree's cap the state is valued without being added.
    fn expand(&mut self, at: usize, step: &Step<G::Action>, cfg: &MctsConfig) -> Values {
        let mut next = self.nodes[at].state.clone();
        self.events.clear();
        self.work.steps += 1;
        let ok = next.apply_trusted(step, &mut self.events).is_ok()
            && self.complete_move(&mut next, cfg);
        if !ok || self.nodes.len() >= self.cap {
            return self.value_of(next, cfg);
        }
        let child = self.new_node(next);
        let c = self.nodes.len() as u32;
        self.nodes.push(child);
        self.nodes[at].children.push(c);
        self.path.push(c);
        self.value_leaf(c as usize, cfg)
    }

    /// Roll the chance node `at`'s whole chain of dice (each die by its exact weight, up to
    /// the next decision or the end) and go where it leads: a position its dice have led
    /// to before ([`Rolled::Known`]), or a new child, valued as a leaf (past the tree's cap,
    /// valued without being added).
    fn roll_chance(&mut self, at: usize, cfg: &MctsConfig) -> Rolled {
        let mut next = self.nodes[at].state.clone();
        // Bounded, as a playout is (a game whose dice never end would stop here).
        for _ in 0..10_000 {
            let Next::Chance(o) = next.next() else { break };
            let value = o.roll(&mut self.rng);
            self.events.clear();
            self.work.steps += 1;
            if next
                .apply_trusted(&Step::Roll { value }, &mut self.events)
                .is_err()
            {
                return Rolled::Valued(self.evaluate(&next));
            }
        }
        if !self.complete_move(&mut next, cfg) {
            return Rolled::Valued(self.evaluate(&next));
        }
        let key = foldhash::fast::FixedState::default().hash_one(&next);
        let node = &self.nodes[at];
        for (&k, &c) in node.keys.iter().zip(&node.children) {
            if k == key && self.nodes[c as usize].state == next {
                return Rolled::Known(c);
            }
        }
        if self.nodes.len() >= self.cap {
            return Rolled::Valued(self.value_of(next, cfg));
        }
        let child = self.new_node(next);
        let c = self.nodes.len() as u32;
        self.nodes.push(child);
        self.nodes[at].children.push(c);
        self.nodes[at].keys.push(key);
        self.path.push(c);
        Rolled::Valued(self.value_leaf(c as usize, cfg))
    }

    fn widens(&self, actions: usize) -> bool {
        G::LEGAL_ACTIONS == ActionList::Candidates || actions > WIDEN_OVER
    }

    /// A decision node below the root: its actions best-first by greedy's value (ties in a
    /// seeded random order), those values kept as its prior ([`MctsConfig::inner_prior`]).
    fn list_by_greedy(&mut self, at: usize, cfg: &MctsConfig) {
        let (mut values, stats) = cfg
            .prior_greedy
            .values(&self.nodes[at].state, &mut self.rng);
        self.work.listings += 1;
        self.work.listed += values.len() as u64;
        self.work.steps += stats.steps as u64;
        self.work.evaluations += stats.evaluations as u64;
        shuffle(&mut values, &mut self.rng);
        values.sort_by(|a, b| b.1.total_cmp(&a.1));
        let node = &mut self.nodes[at];
        node.prior = values.iter().map(|(_, v)| v.clamp(-1.0, 1.0)).collect();
        node.actions = values.into_iter().map(|(a, _)| a).collect();
    }

    /// A decision node's actions, shuffled (seeded) when they are widened.
    fn list_actions(&mut self, at: usize) {
        let mut actions = self.nodes[at].state.legal_actions();
        self.work.listings += 1;
        self.work.listed += actions.len() as u64;
        if self.widens(actions.len()) {
            shuffle(&mut actions, &mut self.rng);
        }
        self.nodes[at].actions = actions;
    }

    fn value_leaf(&mut self, at: usize, cfg: &MctsConfig) -> Values {
        if let Kind::Over(v) = self.nodes[at].kind {
            return v;
        }
        if cfg.playouts == Playouts::Expected {
            return self.expected(at, cfg);
        }
        let other =
            |k: &Kind| cfg.own_run && matches!(k, Kind::Decide(s) if Some(*s) != self.root_seat());
        if (cfg.playout_decisions == 0 && matches!(self.nodes[at].kind, Kind::Decide(_)))
            || other(&self.nodes[at].kind)
        {
            return evaluate(&self.nodes[at].state, self.seats, &mut self.work);
        }
        let state = self.nodes[at].state.clone();
        self.value_of(state, cfg)
    }

    /// [`Playouts::Expected`]: the leaf `at`'s value for every seat, its dice weighed as
    /// greedy weighs an action's (the work counted as greedy's steps and evaluations).
    fn expected(&mut self, at: usize, cfg: &MctsConfig) -> Values {
        if !matches!(self.nodes[at].kind, Kind::Chance) {
            return evaluate(&self.nodes[at].state, self.seats, &mut self.work);
        }
        let mut stats = crate::GreedyStats::default();
        let mut chains = None;
        let mut v = [0.0; MAX_SEATS];
        for (s, x) in v.iter_mut().enumerate().take(self.seats) {
            *x = cfg
                .prior_greedy
                .value_after(
                    &self.nodes[at].state,
                    s as Seat,
                    &mut self.memo,
                    &mut chains,
                    &mut self.rng,
                    &mut stats,
                )
                .clamp(-1.0, 1.0);
        }
        self.work.steps += stats.steps as u64;
        self.work.evaluations += stats.evaluations as u64;
        v
    }

    /// Play `state` out for a few random decisions (dice rolled), then evaluate it.
    fn value_of(&mut self, mut state: G, cfg: &MctsConfig) -> Values {
        let mut decisions = 0;
        let root = self.root_seat();
        // A playout is bounded in steps too (a long chain of dice between decisions).
        for _ in 0..10_000 {
            let step = match state.next() {
                Next::Over => break,
                Next::Chance(o) => Step::Roll {
                    value: o.roll(&mut self.rng),
                },
                Next::Decide(seat) if cfg.own_run && Some(seat) != root => break,
                Next::Decide(seat) if cfg.whole_moves && state.continues_move() => {
                    // A move begun is completed as greedy would, and is one decision.
                    match self.greedy_choice(&state, &cfg.prior_greedy) {
                        Some(action) => Step::Act { seat, action },
                        None => break,
                    }
                }
                Next::Decide(seat) => {
                    if decisions >= cfg.playout_decisions {
                        break;
                    }
                    decisions += 1;
                    let action = if cfg.playouts != Playouts::Random {
                        state.legal_actions_into(&mut self.listed);
                        self.work.listings += 1;
                        self.work.listed += self.listed.len() as u64;
                        if self.listed.is_empty() {
                            break;
                        }
                        let i = if cfg.playouts == Playouts::Uniform {
                            self.rng.roll(self.listed.len() as u32) as usize - 1
                        } else if self.listed.len() > 1 {
                            self.best_by_evaluation(&state, seat)
                        } else {
                            0
                        };
                        self.listed.swap_remove(i)
                    } else {
                        // The game draws: it may list only what the draw needs, and the
                        // work counted is what it listed.
                        let a = state.playout_action(&mut self.rng, &mut self.listed);
                        self.work.listings += 1;
                        self.work.listed += self.listed.len() as u64;
                        match a {
                            Some(a) => a,
                            None => break,
                        }
                    };
                    Step::Act { seat, action }
                }
            };
            self.events.clear();
            self.work.steps += 1;
            if state.apply_trusted(&step, &mut self.events).is_err() {
                break;
            }
        }
        self.evaluate(&state)
    }

    /// Where `state` is a later step of a move begun ([`Game::continues_move`], with
    /// [`MctsConfig::whole_moves`]), carry the move on as greedy would, and any dice after
    /// it, to the next decision that begins a move (or the end). False if a step failed.
    fn complete_move(&mut self, state: &mut G, cfg: &MctsConfig) -> bool {
        if !cfg.whole_moves {
            return true;
        }
        for _ in 0..10_000 {
            let step = match state.next() {
                Next::Decide(seat) if state.continues_move() => {
                    match self.greedy_choice(state, &cfg.prior_greedy) {
                        Some(action) => Step::Act { seat, action },
                        None => return true,
                    }
                }
                // Dice between the steps of a move are rolled here; dice after it are the
                // caller's (a chance node of their own).
                _ => return true,
            };
            self.events.clear();
            self.work.steps += 1;
            if state.apply_trusted(&step, &mut self.events).is_err() {
                return false;
            }
        }
        true
    }

    /// `greedy`'s choice at `state` (its work counted), with the tree's own dice.
    fn greedy_choice(&mut self, state: &G, greedy: &crate::Greedy) -> Option<G::Action> {
        let (action, stats) = greedy.choose_counted(state, &mut self.rng)?;
        self.work.add(&Work::of_greedy(&stats));
        Some(action)
    }

    /// The listed action (`listed`'s index) whose position after it, its dice rolled once,
    /// `seat` values most (ties to the first).
    fn best_by_evaluation(&mut self, state: &G, seat: Seat) -> usize {
        let mut best = (f64::NEG_INFINITY, 0);
        for i in 0..self.listed.len() {
            let mut next = state.clone();
            let mut step = Step::Act {
                seat,
                action: self.listed[i].clone(),
            };
            let mut ok = true;
            for _ in 0..1_000 {
                self.events.clear();
                self.work.steps += 1;
                if next.apply_trusted(&step, &mut self.events).is_err() {
                    ok = false;
                    break;
                }
                let Next::Chance(o) = next.next() else { break };
                step = Step::Roll {
                    value: o.roll(&mut self.rng),
                };
            }
            if !ok {
                continue;
            }
            self.work.evaluations += 1;
            let v = match next.result() {
                Some(r) => result_value(&r, seat),
                None => next.evaluate(seat),
            };
            if v > best.0 {
                best = (v, i);
            }
        }
        best.1
    }

    fn evaluate(&mut self, state: &G) -> Values {
        evaluate(state, self.seats, &mut self.work)
    }
}

/// Each of the first `seats` seats' value of `state`: its result, or [`Game::evaluate`]
/// (counted in `work`).
fn evaluate<G: Game>(state: &G, seats: usize, work: &mut Work) -> Values {
    let mut v = [0.0; MAX_SEATS];
    match state.result() {
        Some(r) => {
            for (s, x) in v.iter_mut().enumerate().take(seats) {
                *x = result_value(&r, s as Seat);
            }
        }
        None => {
            work.evaluations += seats as u64;
            for (s, x) in v.iter_mut().enumerate().take(seats) {
                *x = state.evaluate(s as Seat).clamp(-1.0, 1.0);
            }
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use battlemat_core::Ruleset;
    use std::collections::BTreeMap;

    /// SWTB's outpost at its first decision.
    fn outpost() -> battlemat_swtb::Swtb {
        let setup = battlemat_swtb::Swtb::setup("outpost", &BTreeMap::new()).unwrap();
        let mut g = battlemat_swtb::Swtb::new_game(&setup).unwrap();
        let mut r = Roller::new(7, 0);
        while let Next::Chance(o) = g.next() {
            g.apply(&Step::Roll {
                value: o.roll(&mut r),
            })
            .unwrap();
        }
        g
    }

    /// A-Bao-A-Qu's scenario with `options`, played by greedy (dice from `Roller::new(seed,
    /// 0)`) to the first decision where `found` finds what it looks for.
    fn abq_greedy_until<R>(
        scenario: &str,
        options: &BTreeMap<String, String>,
        seed: u64,
        mut found: impl FnMut(&battlemat_abaoaqu::AbaoAqu) -> Option<R>,
    ) -> R {
        let setup = battlemat_abaoaqu::AbaoAqu::setup(scenario, options).unwrap();
        let mut g = battlemat_abaoaqu::AbaoAqu::new_game(&setup).unwrap();
        let mut r = Roller::new(seed, 0);
        loop {
            let step = match g.next() {
                Next::Decide(seat) => {
                    if let Some(x) = found(&g) {
                        return x;
                    }
                    let action = crate::Greedy::default().choose(&g, &mut r).unwrap();
                    Step::Act { seat, action }
                }
                Next::Chance(o) => Step::Roll {
                    value: o.roll(&mut r),
                },
                Next::Over => panic!("{scenario}: the game ended before it was found"),
            };
            g.apply(&step).unwrap();
        }
    }

    /// A-Bao-A-Qu's S Field (reduced) at the first combat decision where an attack can be
    /// declared among more than two actions, reached by greedy play.
    fn abq_combat() -> battlemat_abaoaqu::AbaoAqu {
        use battlemat_abaoaqu::Action;
        abq_greedy_until("s_field_reduced", &BTreeMap::new(), 3, |g| {
            let legal = g.legal_actions();
            (!g.continues_move()
                && legal.len() > 2
                && legal.iter().any(|a| matches!(a, Action::From { .. })))
            .then(|| g.clone())
        })
    }

    /// [`MctsConfig::whole_moves`] (A-Bao-A-Qu's declarations, ABQ-8-1): the tree branches
    /// where a move begins, and no node of it is a later step of a move; asked at such a
    /// step, the search answers greedy's choice without searching. With the steps searched
    /// one by one (off), the tree holds half-made declarations.
    #[test]
    fn a_move_asked_for_in_steps_is_one_edge_of_the_tree() {
        let g = abq_combat();
        let mut config = MctsConfig::new(Budget::Iterations(300));
        config.trees = 1;
        let mut m = Mcts::new(config.clone());
        let report = m.search(&g, &mut Roller::new(1, 0)).unwrap();
        assert!(report.iterations > 0);
        let nodes = &m.trees[0].nodes;
        assert!(nodes.len() > 10, "{} nodes", nodes.len());
        assert!(nodes.iter().all(|n| !n.state.continues_move()));
        // A step inside a declaration: greedy's choice, nothing searched.
        let from = report
            .actions
            .iter()
            .find(|s| matches!(s.action, battlemat_abaoaqu::Action::From { .. }))
            .expect("an attack tried");
        let mut inside = g.clone();
        inside
            .apply(&Step::Act {
                seat: match g.next() {
                    Next::Decide(s) => s,
                    _ => unreachable!(),
                },
                action: from.action,
            })
            .unwrap();
        assert!(inside.continues_move());
        let answer = m.search(&inside, &mut Roller::new(2, 0)).unwrap();
        assert_eq!(answer.iterations, 0);
        let (values, _) = config.prior_greedy.values(&inside, &mut Roller::new(0, 0));
        let best = values.iter().map(|v| v.1).fold(f64::NEG_INFINITY, f64::max);
        assert!((answer.actions[0].value - best.clamp(-1.0, 1.0)).abs() < 1e-12);
        // Step by step, the tree holds declarations under way.
        config.whole_moves = false;
        let mut m = Mcts::new(config);
        m.search(&g, &mut Roller::new(1, 0)).unwrap();
        assert!(m.trees[0].nodes.iter().any(|n| n.state.continues_move()));
    }

    /// [`MctsConfig::own_run`]: a position where another seat decides is a leaf, valued as
    /// the evaluation values it; without it the tree goes on below the other seat's
    /// decisions.
    #[test]
    fn searching_the_own_run_stops_where_another_seat_decides() {
        let g = outpost();
        let Next::Decide(me) = g.next() else {
            unreachable!()
        };
        let mut config = MctsConfig::new(Budget::Iterations(3_000));
        config.trees = 1;
        config.own_run = true;
        let mut m = Mcts::new(config.clone());
        m.search(&g, &mut Roller::new(1, 0)).unwrap();
        let nodes = &m.trees[0].nodes;
        let others: Vec<&Node<_>> = nodes
            .iter()
            .filter(|n| matches!(n.kind, Kind::Decide(s) if s != me))
            .collect();
        assert!(
            !others.is_empty(),
            "the search never reached the other seat"
        );
        for n in others {
            assert!(n.children.is_empty() && n.actions.is_empty());
            let v = evaluate(&n.state, 2, &mut Work::default());
            for (total, v) in n.total.iter().zip(&v).take(2) {
                assert!((total / f64::from(n.visits) - v).abs() < 1e-9);
            }
        }
        config.own_run = false;
        let mut m = Mcts::new(config);
        m.search(&g, &mut Roller::new(1, 0)).unwrap();
        assert!(
            m.trees[0]
                .nodes
                .iter()
                .any(|n| matches!(n.kind, Kind::Decide(s) if s != me) && !n.children.is_empty())
        );
    }

    /// Every action `report` tried is among greedy's best two in `g` (greedy's values
    /// clamped as the prior clamps them).
    fn assert_only_greedys_best_two(
        config: &MctsConfig,
        g: &battlemat_abaoaqu::AbaoAqu,
        report: &SearchReport<battlemat_abaoaqu::Action>,
    ) {
        let (values, _) = config.prior_greedy.values(g, &mut Roller::new(0, 0));
        assert!(values.len() > 2, "{} actions", values.len());
        let mut sorted: Vec<f64> = values.iter().map(|v| v.1.clamp(-1.0, 1.0)).collect();
        sorted.sort_by(|a, b| b.total_cmp(a));
        let value = |a: &battlemat_abaoaqu::Action| {
            values
                .iter()
                .find(|v| &v.0 == a)
                .unwrap()
                .1
                .clamp(-1.0, 1.0)
        };
        assert!(!report.actions.is_empty());
        for s in &report.actions {
            assert!(
                value(&s.action) >= sorted[1],
                "{:?} is not among greedy's best two",
                s.action
            );
        }
    }

    /// [`MctsConfig::root_candidates`] with the trees kept: what a kept tree had tried at the
    /// root outside greedy's best few is dropped, with its visits, so it cannot outvote them.
    #[test]
    fn a_kept_tree_keeps_only_greedys_best_candidates_at_the_root() {
        let g = abq_combat();
        let mut m = Mcts::new(MctsConfig::new(Budget::Iterations(400)));
        m.search(&g, &mut Roller::new(1, 0)).unwrap();
        assert!(
            m.trees.iter().all(|t| t.nodes[0].children.len() > 2),
            "the first search tries more than two actions"
        );
        m.config.root_candidates = 2;
        let report = m.search(&g, &mut Roller::new(2, 0)).unwrap();
        for t in &m.trees {
            let root = &t.nodes[0];
            assert_eq!(root.actions.len(), 2);
            let below: u32 = root
                .children
                .iter()
                .map(|&c| t.nodes[c as usize].visits)
                .sum();
            assert!(
                root.visits <= below + 1,
                "the root counts {} visits, its children {below}",
                root.visits
            );
        }
        assert_only_greedys_best_two(&m.config, &g, &report);
    }

    /// A search of `iterations` from a fresh tree whose root tries only greedy's best
    /// `candidates` actions ([`MctsConfig::root_candidates`]).
    fn fresh_search_of_candidates<G: Game>(
        g: &G,
        iterations: u32,
        candidates: u32,
    ) -> (Mcts<G>, SearchReport<G::Action>) {
        let mut config = MctsConfig::new(Budget::Iterations(iterations));
        config.root_candidates = candidates;
        config.reuse_trees = false;
        let mut m = Mcts::new(config);
        let report = m.search(g, &mut Roller::new(1, 0)).unwrap();
        (m, report)
    }

    /// [`MctsConfig::root_candidates`]: a fresh root tries only greedy's best few actions
    /// (the same count in every tree), and the move made is one of them.
    #[test]
    fn the_root_tries_only_greedys_best_candidates() {
        let g = abq_combat();
        let (m, report) = fresh_search_of_candidates(&g, 400, 2);
        for t in &m.trees {
            assert_eq!(t.nodes[0].actions.len(), 2);
        }
        assert_only_greedys_best_two(&m.config, &g, &report);
    }

    /// A-Bao-A-Qu's S Field (reduced) under a 15-turn limit, played by greedy to the first
    /// decision where greedy's best value is shared by an action complete in itself and one
    /// that begins a declaration (the last turn, where ending the combat phase loses and a
    /// declaration the seat would give up is stalling, both −1: docs/strength.md,
    /// "Stalling declarations").
    fn abq_tie() -> (battlemat_abaoaqu::AbaoAqu, Vec<battlemat_abaoaqu::Action>) {
        let o: BTreeMap<String, String> = [("turns".to_string(), "15".to_string())].into();
        let greedy = crate::Greedy::default();
        abq_greedy_until("s_field_reduced", &o, 0, |g| {
            let (values, _) = greedy.values(g, &mut Roller::new(0, 0));
            let best = values.iter().map(|v| v.1).fold(f64::NEG_INFINITY, f64::max);
            let tied: Vec<_> = values
                .iter()
                .filter(|v| v.1 >= best - crate::TIE)
                .map(|v| v.0)
                .collect();
            let begins = tied.iter().filter(|a| crate::begins_move(g, a)).count();
            (!g.continues_move() && begins > 0 && begins < tied.len()).then(|| (g.clone(), tied))
        })
    }

    /// ABQ-8-1 (declarations in steps): where greedy's best value is shared by an action
    /// complete in itself and a declaration begun, greedy and the search's root candidates
    /// take the complete one ([`crate::complete_first`]) — a declaration begun there was
    /// given up again, and again, until the limit on cancels.
    #[test]
    fn abq_8_1_of_actions_valued_alike_the_complete_one_is_taken() {
        let (g, tied) = abq_tie();
        let complete: Vec<_> = tied.iter().filter(|a| !crate::begins_move(&g, a)).collect();
        for seed in 0..8 {
            let a = crate::Greedy::default()
                .choose(&g, &mut Roller::new(seed, 0))
                .unwrap();
            assert!(complete.contains(&&a), "greedy took {a:?} of {tied:?}");
        }
        let (m, report) = fresh_search_of_candidates(&g, 100, 1);
        for t in &m.trees {
            let kept = &t.nodes[0].actions;
            assert_eq!(kept.len(), 1);
            assert!(complete.contains(&&kept[0]), "a tree kept {:?}", kept[0]);
        }
        let tried: Vec<_> = report.actions.iter().filter(|s| s.visits > 0).collect();
        assert!(!tried.is_empty(), "{report:?}");
        assert!(
            tried.iter().all(|s| complete.contains(&&s.action)),
            "{tried:?}"
        );
    }

    /// A chance node stands for its whole chain of dice: its children are the positions
    /// the dice led to, each once (no two alike, none still waiting on a die), and their
    /// keys are their hashes.
    #[test]
    fn a_chance_nodes_children_are_the_distinct_positions_its_dice_lead_to() {
        let g = outpost();
        let mut config = MctsConfig::new(Budget::Iterations(4_000));
        config.trees = 1;
        let mut m = Mcts::new(config);
        m.search(&g, &mut Roller::new(1, 0)).unwrap();
        let nodes = &m.trees[0].nodes;
        let mut chance = 0;
        for n in nodes.iter().filter(|n| matches!(n.kind, Kind::Chance)) {
            chance += 1;
            assert_eq!(n.children.len(), n.keys.len());
            for (i, (&c, &k)) in n.children.iter().zip(&n.keys).enumerate() {
                let child = &nodes[c as usize];
                assert!(!matches!(child.kind, Kind::Chance), "a die left in a child");
                assert_eq!(
                    k,
                    foldhash::fast::FixedState::default().hash_one(&child.state)
                );
                for &d in &n.children[..i] {
                    assert!(nodes[d as usize].state != child.state, "a position twice");
                }
            }
            let visits: u32 = n.children.iter().map(|&c| nodes[c as usize].visits).sum();
            assert!(visits <= n.visits);
        }
        assert!(chance > 0, "the search met no dice");
    }

    /// [`Backup::Best`] and [`Backup::MostVisited`]: every decision with a child visited
    /// holds its best (or most visited) child's value, every chance node the mean of its
    /// children's weighted by their visits.
    #[test]
    fn backed_up_values_are_the_chosen_childs_and_the_dices_mean() {
        let g = outpost();
        for backup in [Backup::Best, Backup::MostVisited] {
            let mut config = MctsConfig::new(Budget::Iterations(3_000));
            config.trees = 1;
            config.backup = backup;
            let mut m = Mcts::new(config);
            m.search(&g, &mut Roller::new(2, 0)).unwrap();
            let t = &m.trees[0];
            let (mut decisions, mut chances) = (0, 0);
            for n in &t.nodes {
                let kids: Vec<&Node<_>> = n
                    .children
                    .iter()
                    .map(|&c| &t.nodes[c as usize])
                    .filter(|c| c.visits > 0)
                    .collect();
                if kids.is_empty() || n.visits == 0 {
                    continue;
                }
                match n.kind {
                    Kind::Decide(s) => {
                        decisions += 1;
                        let s = s as usize;
                        let best = kids
                            .iter()
                            .max_by(|a, b| match backup {
                                Backup::Best => a.value[s].total_cmp(&b.value[s]),
                                _ => (a.visits, a.value[s])
                                    .partial_cmp(&(b.visits, b.value[s]))
                                    .unwrap(),
                            })
                            .unwrap();
                        assert_eq!(n.value, best.value, "{backup:?}");
                    }
                    Kind::Chance => {
                        chances += 1;
                        let visits: f64 = kids.iter().map(|c| f64::from(c.visits)).sum();
                        for s in 0..t.seats {
                            let mean: f64 = kids
                                .iter()
                                .map(|c| f64::from(c.visits) * c.value[s])
                                .sum::<f64>()
                                / visits;
                            assert!((n.value[s] - mean).abs() < 1e-9, "{backup:?}");
                        }
                    }
                    Kind::Over(_) => {}
                }
            }
            assert!(decisions > 10 && chances > 10, "{decisions} {chances}");
        }
    }
}
