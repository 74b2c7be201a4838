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
//! - **Chance points** are real chance nodes: each visit samples one outcome *by its exact
//!   integer weight* and descends into that outcome's child; no dice are fixed in advance
//!   (determinising the dice would let the search "know" the rolls). The children's
//!   visit shares converge to the outcome probabilities.
//! - **Progressive widening.** A decision node considers `ceil(k · visits^α)` of its
//!   actions, in an order shuffled once per node (seeded), adding one as its visits grow.
//!   It applies where the list is a sample of a continuum (games whose
//!   [`Game::LEGAL_ACTIONS`] is `Candidates`: SD ERA, SERM) and to any list longer than
//!   [`WIDEN_OVER`] (A-Bao-A-Qu's counters); short complete lists are tried in full.
//! - **Leaves** are valued by a short random playout ([`MctsConfig::playout_decisions`]
//!   random decisions, dice rolled) and then the game's [`Game::evaluate`] for each seat,
//!   or the result when the game ends.
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
//!   prints what a unit cost in each. The counts are a pure function of the position, the
//!   kept trees and the seed, so a work budget is as reproducible as an iteration budget;
//!   the last iteration of a tree may overspend by its own cost, the same on any machine.
//! - **Reuse.** Between moves each tree keeps the subtree of the position it is asked about
//!   next, if its search reached it (the opponent's reply and the dice that followed).
//!
//! # Rejected alternatives
//!
//! - *Determinised (perfect-information Monte-Carlo) search*, rolling all dice up front per
//!   iteration: simpler, but it overfits each iteration's dice — an attack looks good
//!   because in that world it hits — and it cannot share statistics across rolls.
//! - *Expanding every outcome of a chance node at once* (expectimax-style, as [`crate::Greedy`]
//!   does for one ply): exact, but a 5-die attack has thousands of outcomes and the tree
//!   would spend its whole budget there.
//! - *A transposition table instead of a tree*: the games' states hash well, but dice chains
//!   revisit states along different paths with different meanings for the search's
//!   statistics; a plain tree is simpler to reason about and to reuse.

use battlemat_core::{ActionList, Game, Next, Outcomes, Seat, Step, result_value};
use battlemat_dice::Roller;
use rayon::prelude::*;
use std::time::{Duration, Instant};

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

    fn add(&mut self, o: &Work) {
        self.steps += o.steps;
        self.listings += o.listings;
        self.listed += o.listed;
        self.evaluations += o.evaluations;
        self.nodes += o.nodes;
    }
}

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
}

impl MctsConfig {
    pub fn new(budget: Budget) -> MctsConfig {
        MctsConfig {
            budget,
            // Tuned against the greedy player (`examples/mcts_vs_greedy.rs`, 20-40 games a
            // setting): the games' evaluations differ by hundredths between moves, so a
            // small constant; longer playouts helped SWTB, ms-d20 and SERM, not SD ERA.
            exploration: 0.2,
            widen_k: 2.0,
            widen_alpha: 0.5,
            playout_decisions: 8,
            trees: 4,
            memory_budget: MEMORY_BUDGET,
        }
    }
}

enum Kind {
    Decide(Seat),
    Chance(Outcomes),
    Over(Values),
}

struct Node<G: Game> {
    state: G,
    kind: Kind,
    visits: u32,
    total: Values,
    /// A decision's actions, in the order they are widened.
    actions: Vec<G::Action>,
    /// A decision's children, one per action tried (in `actions` order); a chance node's,
    /// one per outcome (in `Outcomes::list` order), [`NONE`] until first drawn.
    children: Vec<u32>,
}

/// One search tree and the dice it rolls.
struct Tree<G: Game> {
    nodes: Vec<Node<G>>,
    /// The most nodes it may hold ([`node_cap`]).
    cap: usize,
    rng: Roller,
    seats: usize,
    path: Vec<u32>,
    listed: Vec<G::Action>,
    events: Vec<G::Event>,
    /// What this tree spent in its current search.
    work: Work,
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
        old.resize_with(trees, Tree::empty);
        let cap = node_cap(state, trees, self.config.memory_budget);
        self.trees = old
            .into_iter()
            .take(trees)
            .enumerate()
            .map(|(i, t)| t.reroot(state, Roller::new(seed, i as u64), cap))
            .collect();
        let cfg = &self.config;
        // Each tree's share of an iteration or work budget (iterations, work units).
        let share = |n: u32, i: usize| -> u64 {
            let n = u64::from(n);
            n / trees as u64 + u64::from((i as u64) < n % trees as u64)
        };
        let per_tree = |i: usize| -> (u64, u64) {
            match cfg.budget {
                Budget::Iterations(n) => (share(n, i), u64::MAX),
                Budget::Work(n) => (u64::MAX, share(n, i)),
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
        let mut work = Work::default();
        for t in &self.trees {
            work.add(&t.work);
        }
        // Sum the root statistics over the trees, in the listed order.
        let mut visits = vec![0u64; legal.len()];
        let mut totals = vec![0f64; legal.len()];
        for t in &self.trees {
            let root = &t.nodes[0];
            for (a, &c) in root.actions.iter().zip(&root.children) {
                if let Some(i) = legal.iter().position(|l| l == a) {
                    let child = &t.nodes[c as usize];
                    visits[i] += u64::from(child.visits);
                    totals[i] += child.total[seat as usize];
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
                value: totals[i] / visits[i].max(1) as f64,
            })
            .collect();
        // Most visited first; then the better value; then the listed order (stable sort).
        actions.sort_by(|a, b| {
            b.visits.cmp(&a.visits).then(
                b.value
                    .partial_cmp(&a.value)
                    .unwrap_or(std::cmp::Ordering::Equal),
            )
        });
        Some(SearchReport {
            actions,
            iterations,
            work,
            nodes: self.trees.iter().map(|t| t.nodes.len()).sum(),
        })
    }
}

impl<G: Game> Tree<G> {
    fn empty() -> Tree<G> {
        Tree {
            nodes: Vec::new(),
            cap: MAX_NODES,
            rng: Roller::new(0, 0),
            seats: 0,
            path: Vec::new(),
            listed: Vec::new(),
            events: Vec::new(),
            work: Work::default(),
        }
    }

    /// This tree re-rooted at `state`: the subtree of a node holding it, if the old search
    /// reached it (within a few thousand nodes of the old root), else a fresh root.
    fn reroot(mut self, state: &G, rng: Roller, cap: usize) -> Tree<G> {
        self.rng = rng;
        self.cap = cap;
        self.seats = (state.seats() as usize).min(MAX_SEATS);
        let found = self.find(state);
        match found {
            Some(0) => {}
            Some(i) => {
                let mut nodes = Vec::new();
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
    fn copy_subtree(&mut self, i: usize, out: &mut Vec<Node<G>>) {
        let mut stack = vec![(i as u32, NONE, 0usize)];
        while let Some((from, parent, slot)) = stack.pop() {
            let n = &mut self.nodes[from as usize];
            let node = Node {
                state: n.state.clone(),
                kind: match &n.kind {
                    Kind::Decide(s) => Kind::Decide(*s),
                    Kind::Chance(o) => Kind::Chance(o.clone()),
                    Kind::Over(v) => Kind::Over(*v),
                },
                visits: n.visits,
                total: n.total,
                actions: std::mem::take(&mut n.actions),
                children: n.children.clone(),
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

    fn new_node(&mut self, state: G) -> Node<G> {
        let (kind, children) = match state.next() {
            Next::Decide(s) => (Kind::Decide(s), Vec::new()),
            Next::Chance(o) => {
                let n = match &o {
                    Outcomes::Die(n) => *n as usize,
                    Outcomes::Weighted(w) => w.len(),
                };
                (Kind::Chance(o), vec![NONE; n])
            }
            Next::Over => (Kind::Over(self.evaluate(&state)), Vec::new()),
        };
        Node {
            state,
            kind,
            visits: 0,
            total: [0.0; MAX_SEATS],
            actions: Vec::new(),
            children,
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
        self.work = Work::default();
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

    /// One iteration: select down the tree, add one node, value it, back the value up.
    fn iterate(&mut self, cfg: &MctsConfig) {
        self.path.clear();
        self.path.push(0);
        let mut at = 0usize;
        let value = loop {
            let node = &self.nodes[at];
            match &node.kind {
                Kind::Over(v) => break *v,
                Kind::Decide(seat) => {
                    let seat = *seat as usize;
                    // Listed on the first visit that goes past it (a decision always has
                    // an action; if a game offered none, the node is valued as a leaf).
                    if node.actions.is_empty() {
                        self.list_actions(at);
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
                        break self.expand(at, &step, None, cfg);
                    }
                    // UCT among the tried actions, for the deciding seat.
                    let ln = f64::from(node.visits.max(1)).ln();
                    let mut best = (f64::NEG_INFINITY, 0u32);
                    for &c in &node.children {
                        let ch = &self.nodes[c as usize];
                        let score = if ch.visits == 0 {
                            f64::INFINITY
                        } else {
                            let n = f64::from(ch.visits);
                            ch.total[seat] / n + cfg.exploration * (ln / n).sqrt()
                        };
                        if score > best.0 {
                            best = (score, c);
                        }
                    }
                    at = best.1 as usize;
                    self.path.push(best.1);
                }
                Kind::Chance(o) => {
                    // One outcome, drawn by its exact weight.
                    let (slot, value) = match o {
                        Outcomes::Die(n) => {
                            let v = self.rng.roll(*n);
                            (v as usize - 1, v)
                        }
                        Outcomes::Weighted(w) => {
                            let weights: Vec<u64> = w.iter().map(|o| o.weight).collect();
                            let i = self.rng.pick(&weights).unwrap_or(0);
                            (i, w[i].value)
                        }
                    };
                    let c = node.children[slot];
                    if c != NONE {
                        at = c as usize;
                        self.path.push(c);
                        continue;
                    }
                    break self.expand(at, &Step::Roll { value }, Some(slot), cfg);
                }
            }
        };
        // Every iteration pays for its path, even one that ends on a node already known to
        // be the game's end and so applies, lists and evaluates nothing (else a tree that
        // had solved the end of a game would spin through a work budget forever).
        self.work.nodes += self.path.len() as u64;
        for &i in &self.path {
            let n = &mut self.nodes[i as usize];
            n.visits += 1;
            for (t, v) in n.total.iter_mut().zip(&value).take(self.seats) {
                *t += v;
            }
        }
    }

    /// Add the state after `step` from node `at` as its child (`slot`: a chance outcome's
    /// place; `None`: the next action tried) and value the new leaf; past the tree's cap the
    /// state is valued without being added.
    fn expand(
        &mut self,
        at: usize,
        step: &Step<G::Action>,
        slot: Option<usize>,
        cfg: &MctsConfig,
    ) -> Values {
        let mut next = self.nodes[at].state.clone();
        self.events.clear();
        self.work.steps += 1;
        let ok = next.apply_trusted(step, &mut self.events).is_ok();
        if !ok || self.nodes.len() >= self.cap {
            return self.value_of(next, cfg);
        }
        let child = self.new_node(next);
        let c = self.nodes.len() as u32;
        self.nodes.push(child);
        match slot {
            Some(s) => self.nodes[at].children[s] = c,
            None => self.nodes[at].children.push(c),
        }
        self.path.push(c);
        self.value_leaf(c as usize, cfg)
    }

    fn widens(&self, actions: usize) -> bool {
        G::LEGAL_ACTIONS == ActionList::Candidates || actions > WIDEN_OVER
    }

    /// A decision node's actions, shuffled (seeded) when they are widened.
    fn list_actions(&mut self, at: usize) {
        let mut actions = self.nodes[at].state.legal_actions();
        self.work.listings += 1;
        self.work.listed += actions.len() as u64;
        if self.widens(actions.len()) {
            // Fisher–Yates with the tree's dice.
            for i in (1..actions.len()).rev() {
                let j = self.rng.roll(i as u32 + 1) as usize - 1;
                actions.swap(i, j);
            }
        }
        self.nodes[at].actions = actions;
    }

    fn value_leaf(&mut self, at: usize, cfg: &MctsConfig) -> Values {
        if let Kind::Over(v) = self.nodes[at].kind {
            return v;
        }
        if cfg.playout_decisions == 0 {
            return evaluate(&self.nodes[at].state, self.seats, &mut self.work);
        }
        let state = self.nodes[at].state.clone();
        self.value_of(state, cfg)
    }

    /// Play `state` out for a few random decisions (dice rolled), then evaluate it.
    fn value_of(&mut self, mut state: G, cfg: &MctsConfig) -> Values {
        let mut decisions = 0;
        // A playout is bounded in steps too (a long chain of dice between decisions).
        for _ in 0..10_000 {
            let step = match state.next() {
                Next::Over => break,
                Next::Chance(o) => Step::Roll {
                    value: o.roll(&mut self.rng),
                },
                Next::Decide(seat) => {
                    if decisions >= cfg.playout_decisions {
                        break;
                    }
                    decisions += 1;
                    state.legal_actions_into(&mut self.listed);
                    self.work.listings += 1;
                    self.work.listed += self.listed.len() as u64;
                    if self.listed.is_empty() {
                        break;
                    }
                    let i = self.rng.roll(self.listed.len() as u32) as usize - 1;
                    Step::Act {
                        seat,
                        action: self.listed.swap_remove(i),
                    }
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
