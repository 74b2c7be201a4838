//! Rollouts at the root, on common dice: a search kept beside the tree to measure against
//! ([`MctsConfig::rollout_candidates`]), for games whose playouts play as a player would
//! and whose tree learns little below the first reply.
//!
//! Greedy's exact one ply ranks the actions; its `k` best are each played out again and
//! again by the game's own playout ([`Game::playout_action`], the playout's length as the
//! tree's), and the one whose playouts end best on average is taken (Tesauro and Galperin's
//! rollouts, 1996, which made a backgammon player stronger than the policy it played out).
//! What makes it work in a dice game is that the playouts of a round are played on the
//! *same* dice: round `r` rolls every candidate's dice, and every playout decision's draw,
//! from one roller seeded by the search's seed and `r`. Two candidates are then told apart
//! by what they do, not by whose dice came up: the difference of two means is far less
//! noisy than either mean (common random numbers).
//!
//! In the SERM skirmish — one shot or one move an activation, two exploding pools a shot —
//! the tree search levelled off near even with greedy at any budget (sixteen times the
//! work changed nothing), while rollouts keep gaining with more playouts: a throwaway
//! player won 59.0 and 54.0 % of 400 decided games on two seeds at 64 playouts a
//! candidate, 57.0 and 61.2 % at 128, 63.6 % at 256, where the tree search won 50.8 and
//! 51.8 % of the same games (docs/strength.md, "SERM: rollouts on common dice"). In King
//! of the Hill, whose playouts are random, they lost to greedy (37 of 99): rollouts need a
//! playout worth playing out. Not SERM's default: at the general work (about 140 rounds)
//! the tournament gave 111–0–89 against the tree's 119–0–81, and three times it (127–0–73)
//! took 35–45 ms a decision at the median, past the 50 ms goal at its slowest.
//!
//! Rejected: the same playouts on independent dice (what the tree's root does with its
//! children); a bandit (UCB) over the candidates, which spends its rounds unevenly and so
//! cannot keep every candidate on the same dice.
//!
//! Budgets: an iteration is one playout (a round is `k` of them); a work budget counts what
//! the rounds spend, in round order, and stops after the round that reaches it, so the
//! choice is the same on one thread or sixteen (rounds run in parallel batches, and those
//! past the last one counted are dropped); a time budget stops after the batch that ends
//! past it. Greedy's look before the rounds is not paid out of the budget, as the tree's
//! prior is: in SERM's first activations (every soldier, every pool) it alone costs up to
//! three million units, and charged to the rounds it left the decisions that set up the
//! game one round of playouts. A decision costs greedy's decision and the budget.

use super::{ActionStats, Budget, Mcts, MctsConfig, SearchReport, Tree, Work, shuffle};
use battlemat_core::{Game, Seat, Step};
use battlemat_dice::Roller;
use rayon::prelude::*;
use std::time::{Duration, Instant};

/// At most this many rounds a search (a safety bound for budgets that never end).
const MAX_ROUNDS: u64 = 1 << 20;

impl<G: Game> Mcts<G> {
    /// The rollout search from `state`, where `seat` decides: `ranked` is greedy's value of
    /// each legal action, `spent` its work.
    pub(super) fn rollout_search(
        &mut self,
        state: &G,
        seat: Seat,
        mut ranked: Vec<(G::Action, f64)>,
        seed: u64,
        spent: Work,
    ) -> SearchReport<G::Action> {
        self.trees.clear();
        let cfg = &self.config;
        // Greedy's best first, actions valued alike in a seeded random order.
        shuffle(&mut ranked, &mut Roller::new(seed, u64::MAX - 2));
        ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
        ranked.truncate(cfg.rollout_candidates.max(1) as usize);
        let candidates: Vec<G::Action> = ranked.into_iter().map(|(a, _)| a).collect();
        let k = candidates.len();
        let seats = (state.seats() as usize).min(super::MAX_SEATS);
        let round = |r: u64| -> (Vec<f64>, Work) {
            let mut t = Tree::<G>::empty();
            t.seats = seats;
            let values = candidates
                .iter()
                .map(|a| {
                    // Every candidate's playout on the same dice and draws.
                    t.rng = Roller::new(seed, r);
                    played_out(&mut t, state, seat, a, cfg)
                })
                .collect();
            (values, t.work)
        };
        let (rounds_asked, deadline) = match cfg.budget {
            Budget::Iterations(n) => (Some((u64::from(n) / k as u64).max(1)), None),
            Budget::Work(_) => (None, None),
            Budget::Millis(ms) => (
                None,
                Some(Instant::now() + Duration::from_millis(u64::from(ms))),
            ),
        };
        let batch = (rayon::current_num_threads() as u64 * 2).max(1);
        let mut sums = vec![0.0f64; k];
        // The rounds' own work, which the budget is spent on.
        let mut rolled = Work::default();
        let mut rounds = 0u64;
        'search: while rounds < MAX_ROUNDS {
            let results: Vec<(Vec<f64>, Work)> = (rounds..rounds + batch)
                .into_par_iter()
                .map(round)
                .collect();
            for (values, w) in results {
                for (s, v) in sums.iter_mut().zip(values) {
                    *s += v;
                }
                rolled.add(&w);
                rounds += 1;
                let done = match cfg.budget {
                    Budget::Iterations(_) => rounds_asked.is_some_and(|n| rounds >= n),
                    Budget::Work(w) => rolled.units() >= u64::from(w),
                    Budget::Millis(_) => false,
                };
                if done {
                    break 'search;
                }
            }
            if deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
        }
        let mut actions: Vec<ActionStats<G::Action>> = candidates
            .into_iter()
            .zip(sums)
            .map(|(action, sum)| ActionStats {
                action,
                visits: rounds,
                value: sum / rounds as f64,
            })
            .collect();
        // The best mean first; alike, greedy's order (the sort is stable).
        actions.sort_by(|a, b| b.value.total_cmp(&a.value));
        let mut work = spent;
        work.add(&rolled);
        SearchReport {
            actions,
            iterations: rounds * k as u64,
            work,
            nodes: 0,
        }
    }
}

/// `seat`'s value of `state` after `action`, played out by `t`'s dice ([`Tree::value_of`],
/// a move begun completed as the tree completes one).
fn played_out<G: Game>(
    t: &mut Tree<G>,
    state: &G,
    seat: Seat,
    action: &G::Action,
    cfg: &MctsConfig,
) -> f64 {
    let mut next = state.clone();
    t.events.clear();
    t.work.steps += 1;
    let step = Step::Act {
        seat,
        action: action.clone(),
    };
    if next.apply_trusted(&step, &mut t.events).is_err() || !t.complete_move(&mut next, cfg) {
        // A listed action the rules refuse: the worst (the conformance kit forbids it).
        return -1.0;
    }
    t.value_of(next, cfg)[seat as usize]
}
