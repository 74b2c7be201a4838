//! The conformance kit every game runs with one line (OpenSpiel's random-simulation test).
//!
//! ```text
//! battlemat_core::conformance::run::<MyGame>(&setups, Conformance::default());
//! ```
//!
//! It plays seeded random games and checks, at every step, the promises of the [`Game`]
//! trait: chance points with valid weights, every listed action accepted by `check`, refused
//! steps changing nothing, clone / JSON round-trips equal, action text and JSON round-trips,
//! observations serialisable for every seat and spectators, bounded length, and at the end
//! a replay of the record giving the identical state and events. There is no exemption
//! list: a game that needs one is a game with a bug.

use crate::{Game, Record, Seat, Step, ToAct, Viewer};
use battlemat_dice::Roller;

/// How hard to test.
#[derive(Clone, Copy, Debug)]
pub struct Conformance {
    /// Random games per setup.
    pub games: u64,
    /// A game longer than this many steps fails the test.
    pub max_steps: usize,
    /// Check the expensive round-trips every this many steps (1 = every step).
    pub deep_every: usize,
    pub seed: u64,
}

impl Default for Conformance {
    fn default() -> Self {
        Conformance {
            games: 1000,
            max_steps: 20_000,
            deep_every: 7,
            seed: 0x00BA_771E,
        }
    }
}

/// What the kit saw, for the caller to assert more on.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    pub games: u64,
    pub steps: u64,
    pub decisions: u64,
    pub chance_points: u64,
    pub longest: usize,
    /// Games won (sole first place) per seat; draws and shared results counted in `shared`.
    pub wins: Vec<u64>,
    pub shared: u64,
}

/// Run the kit on `setups`. Panics with a message naming the setup, game and step on the
/// first broken promise.
pub fn run<G: Game>(setups: &[G::Setup], cfg: Conformance) -> Summary {
    let mut sum = Summary::default();
    for (si, setup) in setups.iter().enumerate() {
        for g in 0..cfg.games {
            let where_ = format!("setup {si}, game {g} (seed {}, stream {g})", cfg.seed);
            let mut roller = Roller::new(cfg.seed ^ (si as u64) << 40, g);
            play_one::<G>(setup, &mut roller, &cfg, &where_, &mut sum);
        }
    }
    sum
}

fn json<T: serde::Serialize>(t: &T, what: &str) -> String {
    serde_json::to_string(t).unwrap_or_else(|e| panic!("{what} does not serialise: {e}"))
}

fn play_one<G: Game>(
    setup: &G::Setup,
    roller: &mut Roller,
    cfg: &Conformance,
    where_: &str,
    sum: &mut Summary,
) {
    let mut state = G::new_game(setup).unwrap_or_else(|e| panic!("{where_}: setup refused: {e}"));
    let seats = state.seats();
    assert!(
        seats >= G::info().min_seats && seats <= G::info().max_seats,
        "{where_}: seats"
    );
    let mut record = Record::<G>::new(setup.clone());
    let mut events_seen: Vec<Vec<G::Event>> = Vec::new();
    let mut stale: Vec<G::Action> = Vec::new();
    loop {
        let n = record.steps.len();
        let at = format!("{where_}, step {n}");
        assert!(
            n <= cfg.max_steps,
            "{at}: game longer than {} steps",
            cfg.max_steps
        );
        let deep = n.is_multiple_of(cfg.deep_every.max(1));
        if deep {
            deep_checks(&state, &at);
        }
        let step = match state.to_act() {
            ToAct::Over(result) => {
                assert!(
                    state.legal_actions().is_empty(),
                    "{at}: legal actions after the end"
                );
                assert_eq!(
                    result.ranks.len(),
                    seats as usize,
                    "{at}: one rank per seat"
                );
                assert_eq!(
                    result.scores.len(),
                    seats as usize,
                    "{at}: one score per seat"
                );
                assert!(
                    result
                        .ranks
                        .iter()
                        .all(|&r| r >= 1 && r as usize <= seats as usize)
                );
                let before = state.clone();
                assert!(
                    state.apply(&Step::Roll { value: 1 }).is_err(),
                    "{at}: step after end"
                );
                assert_eq!(state, before, "{at}: refused step changed the state");
                let winners = result.winners();
                if sum.wins.len() < seats as usize {
                    sum.wins.resize(seats as usize, 0);
                }
                if winners.len() == 1 {
                    sum.wins[winners[0] as usize] += 1;
                } else {
                    sum.shared += 1;
                }
                break;
            }
            ToAct::Chance(c) => {
                sum.chance_points += 1;
                assert!(
                    !c.outcomes.is_empty(),
                    "{at}: chance point with no outcomes"
                );
                assert!(
                    c.outcomes.iter().all(|o| o.weight > 0),
                    "{at}: zero weight outcome"
                );
                let mut vals: Vec<u32> = c.outcomes.iter().map(|o| o.value).collect();
                vals.sort_unstable();
                vals.dedup();
                assert_eq!(
                    vals.len(),
                    c.outcomes.len(),
                    "{at}: repeated chance outcome"
                );
                let p: f64 = c.outcomes.iter().map(|o| c.probability(o.value)).sum();
                assert!(
                    (p - 1.0).abs() < 1e-12,
                    "{at}: chance probabilities sum to {p}"
                );
                assert!(
                    state.legal_actions().is_empty(),
                    "{at}: legal actions at a chance point"
                );
                // A face that is not an outcome is refused and changes nothing.
                let bad = (0..).find(|v| !vals.contains(v)).unwrap_or(u32::MAX);
                refused_changes_nothing(&mut state, &Step::Roll { value: bad }, &at);
                Step::Roll {
                    value: c.roll(roller),
                }
            }
            ToAct::Decide { seat, .. } => {
                sum.decisions += 1;
                let legal = state.legal_actions();
                assert!(
                    !legal.is_empty(),
                    "{at}: seat {seat} must decide but has no action"
                );
                assert_eq!(
                    legal,
                    state.legal_actions(),
                    "{at}: legal_actions not repeatable"
                );
                for a in &legal {
                    if let Err(e) = state.check(a) {
                        panic!("{at}: listed action {a} refused by check: {e}");
                    }
                    if deep {
                        let text = a.to_string();
                        let back: G::Action = text
                            .parse()
                            .unwrap_or_else(|e| panic!("{at}: action text {text:?}: {e}"));
                        assert_eq!(&back, a, "{at}: action text round-trip of {text:?}");
                        let j = json(a, "action");
                        let back: G::Action = serde_json::from_str(&j).expect("action JSON");
                        assert_eq!(&back, a, "{at}: action JSON round-trip {j}");
                    }
                }
                // Actions that were legal earlier and are not now: refused, nothing changes.
                for a in stale.iter().filter(|a| !legal.contains(a)).take(3) {
                    if state.check(a).is_err() {
                        refused_changes_nothing(&mut state, &act(seat, a.clone()), &at);
                    }
                }
                // The wrong seat is refused.
                if seats > 1 {
                    let other = (seat + 1) % seats;
                    refused_changes_nothing(&mut state, &act(other, legal[0].clone()), &at);
                }
                refused_changes_nothing(&mut state, &Step::Roll { value: 1 }, &at);
                let i = roller.pick(&vec![1; legal.len()]).unwrap_or(0);
                stale = legal.clone();
                act(seat, legal[i].clone())
            }
        };
        let events = state
            .apply(&step)
            .unwrap_or_else(|e| panic!("{at}: {step:?} refused: {e}"));
        for e in &events {
            json(e, "event");
            let _ = e.to_string();
        }
        events_seen.push(events);
        record.steps.push(step);
    }
    deep_checks(&state, where_);
    sum.games += 1;
    sum.steps += record.steps.len() as u64;
    sum.longest = sum.longest.max(record.steps.len());

    // The record replays to the same state and the same events, also after a JSON trip.
    let text = json(&record, "record");
    let back: Record<G> = serde_json::from_str(&text).expect("record JSON round-trip");
    let (replayed, events) = back
        .replay()
        .unwrap_or_else(|e| panic!("{where_}: replay: {e}"));
    assert_eq!(replayed, state, "{where_}: replay gives a different state");
    assert_eq!(
        events, events_seen,
        "{where_}: replay gives different events"
    );
}

fn act<A>(seat: Seat, action: A) -> Step<A> {
    Step::Act { seat, action }
}

fn refused_changes_nothing<G: Game>(state: &mut G, step: &Step<G::Action>, at: &str) {
    let before = state.clone();
    let r = state.apply(step);
    assert!(r.is_err(), "{at}: {step:?} should be refused");
    assert_eq!(*state, before, "{at}: refused {step:?} changed the state");
}

fn deep_checks<G: Game>(state: &G, at: &str) {
    let c = state.clone();
    assert_eq!(&c, state, "{at}: clone differs");
    let j = json(state, "state");
    let back: G = serde_json::from_str(&j).unwrap_or_else(|e| panic!("{at}: state JSON: {e}"));
    assert_eq!(&back, state, "{at}: state JSON round-trip differs");
    assert_eq!(
        back.to_act(),
        state.to_act(),
        "{at}: to_act after round-trip"
    );
    for s in 0..state.seats() {
        let o = state.observe(Viewer::Seat(s));
        json(&o, "observation");
        let _ = o.to_string();
    }
    json(&state.observe(Viewer::Spectator), "observation");
    for s in 0..state.seats() {
        let v = state.evaluate(s);
        assert!(
            (-1.0..=1.0).contains(&v),
            "{at}: evaluate({s}) = {v} outside [-1, 1]"
        );
    }
}
