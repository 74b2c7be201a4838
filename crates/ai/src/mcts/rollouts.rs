//! Rollouts at the root, on common dice, raced: SERM's search
//! ([`MctsConfig::rollout_candidates`], asked for by a game's `SearchDefaults`), for games
//! whose playouts play as a player would and whose tree learns little below the first reply.
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
//! **The race** ([`MctsConfig::rollout_race`]): after [`RACE_FROM`] rounds, and every
//! [`RACE_EVERY`] after, a candidate whose rounds, paired with the leader's on the same
//! dice, trail it by more than `z` standard errors of the paired difference is played out
//! no more (racing, as in Maron and Moore's Hoeffding races, 1994, on paired samples); the
//! rounds go on among the rest, and end when one is left. The pairing is what lets the race
//! decide early: a candidate that is a little worse loses nearly every round.
//!
//! In the SERM skirmish — one shot or one move an activation, two exploding pools a shot —
//! the tree search levelled off near even with greedy at any budget (sixteen times the
//! work changed nothing; 52.1 % of 1,200 games on the tuning example's three seeds), while
//! rollouts kept gaining with more playouts (57.2 % of the same games at 256 rounds), and
//! raced at four to five times the general work they won 61.9 % of 1,194, within the 50 ms goal
//! (docs/strength.md, "SERM: rollouts on common dice" and "SERM: a race among the
//! rollouts"). In King of the Hill, whose playouts are random, rollouts lost to greedy (37
//! of 99): they need a playout worth playing out.
//!
//! Rejected: the same playouts on independent dice (what the tree's root does with its
//! children); a bandit (UCB) over the candidates, which spends its rounds one candidate at a
//! time and so cannot keep every candidate on the same dice (the race keeps them on the same
//! dice while they are in it); keeping greedy's best while it is still in the race (three or
//! four points weaker: the race keeps many candidates close to the leader, and the leader is
//! usually the better).
//!
//! Budgets: an iteration is one playout (a round is one for each candidate in the race); a
//! work budget counts what the rounds spend, in round order, and stops after the round that
//! reaches it, so the choice is the same on one thread or sixteen (rounds run in parallel
//! batches, never past the race's next look, and those past the last one counted are
//! dropped); a time budget stops after the batch that ends past it. Greedy's look before the
//! rounds is not paid out of the budget, as the tree's prior is: in SERM's first activations
//! (every soldier, every pool) it alone costs up to three million units, and charged to the
//! rounds it left the decisions that set up the game one round of playouts. A decision
//! costs greedy's decision and the budget.

use super::{
    ActionStats, Budget, Mcts, MctsConfig, RACE_EVERY, RACE_FROM, SearchReport, Tree, Work, shuffle,
};
use battlemat_core::{Game, Seat, Step};
use battlemat_dice::Roller;
use rayon::prelude::*;
use std::time::{Duration, Instant};

/// At most this many rounds a search: a bound for budgets that never end, and for
/// candidates whose playouts cost next to nothing (a race down to two actions that each
/// end the game, say).
const MAX_ROUNDS: u64 = 1 << 12;

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
        // Round `r` of the candidates still in the race (`alive`, in order): each one's value.
        let round = |r: u64, alive: &[usize]| -> (Vec<f64>, Work) {
            let mut t = Tree::<G>::empty();
            t.seats = seats;
            let values = alive
                .iter()
                .map(|&c| {
                    // Every candidate's playout on the same dice and draws.
                    t.rng = Roller::new(seed, r);
                    played_out(&mut t, state, seat, &candidates[c], cfg)
                })
                .collect();
            (values, t.work)
        };
        let deadline = match cfg.budget {
            Budget::Millis(ms) => Some(Instant::now() + Duration::from_millis(u64::from(ms))),
            Budget::Iterations(_) | Budget::Work(_) => None,
        };
        let racing = cfg.rollout_race > 0.0 && k > 1;
        let batch = (rayon::current_num_threads() as u64 * 2).max(1);
        // Every candidate's value round by round (the race pairs them by round).
        let mut played: Vec<Vec<f64>> = vec![Vec::new(); k];
        let mut alive: Vec<usize> = (0..k).collect();
        // The rounds' own work, which the budget is spent on.
        let mut rolled = Work::default();
        let mut rounds = 0u64;
        let mut playouts = 0u64;
        // The round after which the race next looks at the candidates.
        let mut look = RACE_FROM;
        'search: while rounds < MAX_ROUNDS {
            // A batch never runs past the race's next look, so which candidates a round
            // plays does not depend on the number of threads.
            let mut end = (rounds + batch).min(MAX_ROUNDS);
            if racing {
                end = end.min(look);
            }
            let results: Vec<(Vec<f64>, Work)> = (rounds..end)
                .into_par_iter()
                .map(|r| round(r, &alive))
                .collect();
            for (values, w) in results {
                for (&c, v) in alive.iter().zip(values) {
                    played[c].push(v);
                    playouts += 1;
                }
                rolled.add(&w);
                rounds += 1;
                let done = match cfg.budget {
                    Budget::Iterations(n) => playouts >= u64::from(n).max(1),
                    Budget::Work(w) => rolled.units() >= u64::from(w),
                    Budget::Millis(_) => false,
                };
                if done {
                    break 'search;
                }
            }
            if racing && rounds == look {
                look += RACE_EVERY;
                alive = still_racing(&played, &alive, cfg.rollout_race);
                if alive.len() == 1 {
                    break;
                }
            }
            if deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
        }
        let mut actions: Vec<ActionStats<G::Action>> = candidates
            .into_iter()
            .zip(&played)
            .map(|(action, values)| ActionStats {
                action,
                visits: values.len() as u64,
                value: values.iter().sum::<f64>() / values.len().max(1) as f64,
            })
            .collect();
        // The candidates played out longest (those left in the race) first, the best mean
        // first among them; alike, greedy's order (the sort is stable).
        actions.sort_by(|a, b| {
            b.visits
                .cmp(&a.visits)
                .then_with(|| b.value.total_cmp(&a.value))
        });
        let mut work = spent;
        work.add(&rolled);
        SearchReport {
            actions,
            iterations: playouts,
            work,
            nodes: 0,
        }
    }
}

/// The candidates of `alive` still in the race after a look at the rounds `played`: the
/// leader (the best mean over the rounds all of them played) and every candidate whose
/// mean trails it, round for round, by no more than `z` standard errors of the paired
/// difference. One whose every round ties the leader's stays.
fn still_racing(played: &[Vec<f64>], alive: &[usize], z: f64) -> Vec<usize> {
    let n = alive.iter().map(|&c| played[c].len()).min().unwrap_or(0);
    if n < 2 {
        return alive.to_vec();
    }
    let mean = |c: usize| played[c][..n].iter().sum::<f64>() / n as f64;
    let leader = alive
        .iter()
        .copied()
        .max_by(|&a, &b| mean(a).total_cmp(&mean(b)).then(b.cmp(&a)))
        .expect("a candidate");
    alive
        .iter()
        .copied()
        .filter(|&c| {
            if c == leader {
                return true;
            }
            let d: Vec<f64> = (0..n).map(|i| played[leader][i] - played[c][i]).collect();
            let m = d.iter().sum::<f64>() / n as f64;
            let var = d.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n - 1) as f64;
            m <= z * (var / n as f64).sqrt()
        })
        .collect()
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

#[cfg(test)]
mod tests {
    use super::still_racing;

    /// The leader stays; a candidate behind it round for round by many standard errors is
    /// dropped; one behind by less than the threshold, or tied every round, stays.
    #[test]
    fn a_look_drops_only_the_candidates_clearly_behind() {
        let leader: Vec<f64> = (0..16)
            .map(|i| if i % 2 == 0 { 0.5 } else { 0.3 })
            .collect();
        // Every round 0.2 below the leader's: no spread at all, clearly behind.
        let behind: Vec<f64> = leader.iter().map(|v| v - 0.2).collect();
        // Ahead in half the rounds and behind in the others: level on average.
        let level: Vec<f64> = leader
            .iter()
            .enumerate()
            .map(|(i, v)| if i % 4 < 2 { v + 0.1 } else { v - 0.1 })
            .collect();
        // Behind by a little on average, with a large spread: not clearly behind at z = 2.
        let noisy: Vec<f64> = leader
            .iter()
            .enumerate()
            .map(|(i, v)| if i % 2 == 0 { v + 0.5 } else { v - 0.6 })
            .collect();
        let played = vec![leader.clone(), behind, level, noisy, leader];
        assert_eq!(
            still_racing(&played, &[0, 1, 2, 3, 4], 2.0),
            vec![0, 2, 3, 4]
        );
        // A candidate already out is not looked at again.
        assert_eq!(still_racing(&played, &[0, 2], 2.0), vec![0, 2]);
        // A stricter race (a smaller z) drops the noisy one too, not the level one.
        assert_eq!(still_racing(&played, &[0, 2, 3], 0.1), vec![0, 2]);
    }
}
