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
//!
//! Also, at every deep step: a game that says its action list is complete
//! ([`ActionList::Complete`]) must list every action `check` accepts — the kit makes
//! neighbours of the listed actions (each number moved by one or swapped for another seen,
//! each word swapped for another seen, a field dropped) and earlier decisions'
//! actions, and any that `check` accepts must be listed; a resignation by any seat ends the
//! game with a result for every seat; and nothing the game marks as hidden from a seat
//! ([`Game::hidden_from`]) appears in that seat's observation or events.
//!
//! The trusted path ([`Game::apply_trusted`], which AIs use) must give the same state and
//! events as the checked one at every deep step. The search hints hold at every step: a
//! playout's draw ([`Game::playout_action`]) is a listed action, and a later step of a move
//! ([`Game::continues_move`]) is decided by the seat whose action came just before it.
//!
//! `BATTLEMAT_TEST_SCALE=N` (an environment variable) multiplies the number of games, for
//! longer runs than the test suite's.

use crate::{ActionList, Game, Next, Record, Seat, Step, ToAct, Viewer};
use battlemat_dice::Roller;
use serde_json::Value;

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
///
/// Games run on every core (each game has its own dice stream, so what is played does not
/// depend on the number of threads).
pub fn run<G: Game>(setups: &[G::Setup], cfg: Conformance) -> Summary {
    let games = cfg.games * scale();
    let jobs: Vec<(usize, u64)> = (0..setups.len())
        .flat_map(|si| (0..games).map(move |g| (si, g)))
        .collect();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let parts: Vec<Summary> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let jobs = &jobs;
                scope.spawn(move || {
                    let mut sum = Summary::default();
                    for &(si, g) in jobs.iter().skip(t).step_by(threads) {
                        let where_ =
                            format!("setup {si}, game {g} (seed {}, stream {g})", cfg.seed);
                        let mut roller = Roller::new(cfg.seed ^ (si as u64) << 40, g);
                        play_one::<G>(&setups[si], &mut roller, &cfg, &where_, &mut sum);
                    }
                    sum
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    let mut sum = Summary::default();
    for p in parts {
        sum.games += p.games;
        sum.steps += p.steps;
        sum.decisions += p.decisions;
        sum.chance_points += p.chance_points;
        sum.longest = sum.longest.max(p.longest);
        sum.shared += p.shared;
        if sum.wins.len() < p.wins.len() {
            sum.wins.resize(p.wins.len(), 0);
        }
        for (w, n) in sum.wins.iter_mut().zip(&p.wins) {
            *w += n;
        }
    }
    sum
}

/// The test-length multiplier, `BATTLEMAT_TEST_SCALE` (default 1). Fuzz tests use it too.
pub fn scale() -> u64 {
    std::env::var("BATTLEMAT_TEST_SCALE")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|&n| n > 0)
        .unwrap_or(1)
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
            resign_checks(&state, roller, &at);
            // Every viewer's scene (with the seat to act's anchors) costs more than the
            // other deep checks together: every fourth deep step.
            if (n / cfg.deep_every.max(1)).is_multiple_of(4) {
                scene_checks(&state, &at);
            }
            if let Some(last) = events_seen.last() {
                hidden_checks(&state, last, &at);
                event_checks(last, &at);
            }
        }
        let next = state.next();
        match (&next, state.to_act()) {
            (Next::Decide(s), ToAct::Decide { seat, .. }) => {
                assert_eq!(*s, seat, "{at}: next and to_act")
            }
            (Next::Chance(o), ToAct::Chance(c)) => {
                assert_eq!(o.list(), c.outcomes, "{at}: next and to_act")
            }
            (Next::Over, ToAct::Over(_)) => {
                assert!(state.result().is_some(), "{at}: over without a result")
            }
            (n, t) => panic!("{at}: next() is {n:?} but to_act() is {t:?}"),
        }
        // A later step of a move follows a step of the same seat's, at a decision.
        if state.continues_move() {
            match (&next, record.steps.last()) {
                (Next::Decide(s), Some(Step::Act { seat, .. })) if s == seat => {}
                (n, last) => panic!(
                    "{at}: continues_move() after {last:?}, where {n:?}: a move continues \
                     only where the seat that began it decides again"
                ),
            }
        }
        let step = match state.to_act() {
            ToAct::Over(result) => {
                over_checks(&mut state, &result, seats, sum, &at);
                break;
            }
            ToAct::Chance(c) => {
                sum.chance_points += 1;
                chance_step(&mut state, &c, roller, &at)
            }
            ToAct::Decide { seat, .. } => {
                sum.decisions += 1;
                let turn = Turn {
                    seat,
                    seats,
                    deep,
                    at: &at,
                };
                decide_step(&mut state, &turn, &mut stale, roller)
            }
        };
        let trusted = deep.then(|| {
            let mut t = state.clone();
            let mut ev = Vec::new();
            t.apply_trusted(&step, &mut ev)
                .unwrap_or_else(|e| panic!("{at}: trusted {step:?} refused: {e}"));
            (t, ev)
        });
        let events = state
            .apply(&step)
            .unwrap_or_else(|e| panic!("{at}: {step:?} refused: {e}"));
        if let Some((t, ev)) = trusted {
            assert!(
                t == state,
                "{at}: apply_trusted and apply give different states"
            );
            assert_eq!(
                ev, events,
                "{at}: apply_trusted and apply give different events"
            );
        }
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

/// The end: nothing listed, the result well formed, every later step refused.
fn over_checks<G: Game>(
    state: &mut G,
    result: &crate::GameResult,
    seats: u8,
    sum: &mut Summary,
    at: &str,
) {
    assert!(
        state.legal_actions().is_empty(),
        "{at}: legal actions after the end"
    );
    result_checks(result, seats, at);
    let before = state.clone();
    assert!(
        state.apply(&Step::Roll { value: 1 }).is_err(),
        "{at}: step after end"
    );
    assert_eq!(*state, before, "{at}: refused step changed the state");
    let winners = result.winners();
    if sum.wins.len() < seats as usize {
        sum.wins.resize(seats as usize, 0);
    }
    if winners.len() == 1 {
        sum.wins[winners[0] as usize] += 1;
    } else {
        sum.shared += 1;
    }
}

/// A chance point: outcomes distinct with positive weights summing to one, nothing to
/// decide, a face that is not an outcome refused; then a face rolled.
fn chance_step<G: Game>(
    state: &mut G,
    c: &crate::Chance,
    roller: &mut Roller,
    at: &str,
) -> Step<G::Action> {
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
    refused_changes_nothing(state, &Step::Roll { value: bad }, at);
    Step::Roll {
        value: c.roll(roller),
    }
}

/// A decision's context in the random game.
struct Turn<'a> {
    seat: Seat,
    seats: u8,
    deep: bool,
    at: &'a str,
}

/// A decision: the list repeatable, every listed action accepted, once, and its text and
/// JSON round-tripping; stale actions, the wrong seat and a die refused; then a listed
/// action picked at random.
fn decide_step<G: Game>(
    state: &mut G,
    turn: &Turn,
    stale: &mut Vec<G::Action>,
    roller: &mut Roller,
) -> Step<G::Action> {
    let &Turn {
        seat,
        seats,
        deep,
        at,
    } = turn;
    let legal = state.legal_actions();
    let mut seen = std::collections::HashSet::new();
    assert!(
        !legal.is_empty(),
        "{at}: seat {seat} must decide but has no action"
    );
    assert_eq!(
        legal,
        state.legal_actions(),
        "{at}: legal_actions not repeatable"
    );
    // Listing into a used buffer gives the same list.
    let mut reused = vec![legal[0].clone(), legal[legal.len() - 1].clone()];
    state.legal_actions_into(&mut reused);
    assert_eq!(legal, reused, "{at}: legal_actions_into differs");
    // A playout's draw is one of the listed actions (drawn with a copy of the roller, so
    // the walk itself does not depend on how a game draws).
    let mut draws = roller.clone();
    for _ in 0..4 {
        match state.playout_action(&mut draws, &mut reused) {
            Some(a) => assert!(
                legal.contains(&a),
                "{at}: playout_action drew {a}, which is not listed"
            ),
            None => panic!("{at}: playout_action drew nothing where actions are listed"),
        }
    }
    for a in &legal {
        if let Err(e) = state.check(a) {
            panic!("{at}: listed action {a} refused by check: {e}");
        }
        assert!(seen.insert(a.clone()), "{at}: action {a} listed twice");
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
    if deep && G::LEGAL_ACTIONS == ActionList::Complete {
        complete_checks(state, &legal, stale, roller, at);
    }
    // Actions that were legal earlier and are not now: refused, nothing changes.
    for a in stale.iter().filter(|a| !legal.contains(a)).take(3) {
        if state.check(a).is_err() {
            refused_changes_nothing(state, &act(seat, a.clone()), at);
        }
    }
    // The wrong seat is refused.
    if seats > 1 {
        let other = (seat + 1) % seats;
        refused_changes_nothing(state, &act(other, legal[0].clone()), at);
    }
    refused_changes_nothing(state, &Step::Roll { value: 1 }, at);
    let i = roller.pick(&vec![1; legal.len()]).unwrap_or(0);
    *stale = legal.clone();
    act(seat, legal[i].clone())
}

/// Every action `check` accepts is listed: neighbours of the listed (and earlier) actions,
/// made by changing their JSON, are either refused or listed.
fn complete_checks<G: Game>(
    state: &G,
    legal: &[G::Action],
    stale: &[G::Action],
    roller: &mut Roller,
    at: &str,
) {
    let listed: Vec<Value> = legal
        .iter()
        .chain(stale)
        .filter_map(|a| serde_json::to_value(a).ok())
        .collect();
    let mut numbers = std::collections::BTreeSet::new();
    let mut words = std::collections::BTreeSet::new();
    for v in &listed {
        leaves(v, &mut numbers, &mut words);
    }
    let numbers: Vec<i64> = numbers.into_iter().collect();
    let words: Vec<String> = words.into_iter().collect();
    // A sample of the listed actions (at most 24), each with all its neighbours.
    let mut sample: Vec<&Value> = listed.iter().collect();
    while sample.len() > 24 {
        let i = roller.pick(&vec![1; sample.len()]).unwrap_or(0);
        sample.swap_remove(i);
    }
    for v in sample {
        for n in neighbours(v, &numbers, &words) {
            let Ok(a) = serde_json::from_value::<G::Action>(n) else {
                continue;
            };
            if state.check(&a).is_ok() {
                assert!(
                    legal.contains(&a),
                    "{at}: {a} is accepted by check but not listed by legal_actions \
                     (the game says its list is complete)"
                );
            }
        }
    }
}

/// The numbers and strings in a JSON value.
fn leaves(
    v: &Value,
    numbers: &mut std::collections::BTreeSet<i64>,
    words: &mut std::collections::BTreeSet<String>,
) {
    match v {
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                numbers.insert(i);
            }
        }
        Value::String(s) => {
            words.insert(s.clone());
        }
        Value::Array(a) => a.iter().for_each(|x| leaves(x, numbers, words)),
        Value::Object(o) => o.values().for_each(|x| leaves(x, numbers, words)),
        _ => {}
    }
}

/// Values one change away from `v`: a number moved by one or swapped for one seen, a string
/// swapped for one seen, a field dropped.
fn neighbours(v: &Value, numbers: &[i64], words: &[String]) -> Vec<Value> {
    match v {
        Value::Number(n) => {
            let Some(i) = n.as_i64() else { return vec![] };
            let mut out: Vec<Value> = [i - 1, i + 1]
                .into_iter()
                .chain(numbers.iter().copied())
                .filter(|&m| m != i && m >= 0)
                .map(Value::from)
                .collect();
            out.dedup();
            out
        }
        Value::String(s) => words
            .iter()
            .filter(|w| *w != s)
            .map(|w| Value::String(w.clone()))
            .collect(),
        Value::Array(a) => {
            let mut out = Vec::new();
            for (i, x) in a.iter().enumerate() {
                for n in neighbours(x, numbers, words) {
                    let mut c = a.clone();
                    c[i] = n;
                    out.push(Value::Array(c));
                }
            }
            out
        }
        Value::Object(o) => {
            let mut out = Vec::new();
            for (k, x) in o {
                for n in neighbours(x, numbers, words) {
                    let mut c = o.clone();
                    c.insert(k.clone(), n);
                    out.push(Value::Object(c));
                }
                let mut c = o.clone();
                c.remove(k);
                out.push(Value::Object(c));
            }
            out
        }
        _ => vec![],
    }
}

/// A result has a score and a rank for every seat, ranks from 1 to the number of seats.
fn result_checks(r: &crate::GameResult, seats: Seat, at: &str) {
    assert_eq!(r.ranks.len(), seats as usize, "{at}: one rank per seat");
    assert_eq!(r.scores.len(), seats as usize, "{at}: one score per seat");
    assert!(
        r.ranks
            .iter()
            .all(|&k| k >= 1 && k as usize <= seats as usize),
        "{at}: ranks {:?} outside 1 to {seats}",
        r.ranks
    );
}

/// A resignation by any seat ends the game with a result for every seat, the resigning
/// seat not the sole winner of a competitive game.
fn resign_checks<G: Game>(state: &G, roller: &mut Roller, at: &str) {
    if matches!(state.next(), Next::Over) {
        return;
    }
    let seats = state.seats();
    let seat = roller.pick(&vec![1; seats as usize]).unwrap_or(0) as Seat;
    let mut g = state.clone();
    g.apply(&Step::Resign { seat })
        .unwrap_or_else(|e| panic!("{at}: seat {seat} may not resign: {e}"));
    let r = g
        .result()
        .unwrap_or_else(|| panic!("{at}: a resignation did not end the game"));
    assert_eq!(g.next(), Next::Over, "{at}: resigned but not over");
    result_checks(&r, seats, &format!("{at}, after seat {seat} resigned"));
    if r.cooperative.is_none() {
        assert!(
            !r.winners().contains(&seat) || r.is_shared(),
            "{at}: seat {seat} resigned and won"
        );
    }
    assert!(
        g.legal_actions().is_empty(),
        "{at}: actions after resigning"
    );
    let mut again = g.clone();
    assert!(
        again.apply(&Step::Resign { seat }).is_err() && again == g,
        "{at}: resigning a finished game is refused and changes nothing"
    );
    let mut bad = state.clone();
    assert!(
        bad.apply(&Step::Resign { seat: seats }).is_err() && bad == *state,
        "{at}: a seat that does not exist may not resign"
    );
}

/// Nothing the game hides from a seat is in that seat's observation or events.
fn hidden_checks<G: Game>(state: &G, events: &[G::Event], at: &str) {
    let viewers = (0..state.seats())
        .map(Viewer::Seat)
        .chain(std::iter::once(Viewer::Spectator));
    for v in viewers {
        let hidden = state.hidden_from(v);
        if hidden.is_empty() {
            continue;
        }
        let seen = format!(
            "{}\n{}\n{}\n{}",
            json(&state.observe(v), "observation"),
            state.observe(v),
            json(&state.events_for(events, v), "events"),
            json(&state.scene_for(v), "scene")
        );
        for h in &hidden {
            assert!(
                !seen.contains(h.as_str()),
                "{at}: {v:?} is shown {h:?}, which the game hides from it"
            );
        }
    }
}

/// Every event is written in the one convention: a JSON object whose `"event"` names it.
fn event_checks<E: serde::Serialize + std::fmt::Debug>(events: &[E], at: &str) {
    for e in events {
        let v = serde_json::to_value(e).unwrap_or_else(|err| panic!("{at}: event {e:?}: {err}"));
        assert!(
            v.get("event").is_some_and(Value::is_string),
            "{at}: event {v} is not an object named by its \"event\""
        );
    }
}

/// The ids of the pieces an observation lists: every `"id"` of an object in it (a number
/// `n` read as `un`, as actions name pieces).
fn observed_ids(v: &Value, out: &mut std::collections::BTreeSet<String>) {
    match v {
        Value::Object(m) => {
            match m.get("id") {
                Some(Value::Number(n)) => {
                    out.insert(format!("u{n}"));
                }
                Some(Value::String(s)) => {
                    out.insert(s.clone());
                }
                _ => {}
            }
            m.values().for_each(|x| observed_ids(x, out));
        }
        Value::Array(a) => a.iter().for_each(|x| observed_ids(x, out)),
        _ => {}
    }
}

/// Every viewer's scene keeps its own promises ([`crate::Scene::problems`]), round-trips
/// through JSON, shows the pieces of that viewer's observation and no others, and — for the
/// seat to act — lists every legal action once with anchors.
fn scene_checks<G: Game>(state: &G, at: &str) {
    let viewers = (0..state.seats())
        .map(Viewer::Seat)
        .chain(std::iter::once(Viewer::Spectator));
    for v in viewers {
        let scene = state.scene_for(v);
        let problems = scene.problems();
        assert!(problems.is_empty(), "{at}: {v:?}'s scene: {problems:?}");
        let text = json(&scene, "scene");
        let back: crate::Scene = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{at}: {v:?}'s scene does not read back: {e}"));
        assert!(
            back == scene,
            "{at}: {v:?}'s scene JSON round-trip differs: {}",
            json(&back, "scene")
        );
        let obs = serde_json::to_value(state.observe(v))
            .unwrap_or_else(|e| panic!("{at}: observation: {e}"));
        let mut ids = std::collections::BTreeSet::new();
        observed_ids(&obs, &mut ids);
        let shown: std::collections::BTreeSet<String> =
            scene.pieces.iter().map(|p| p.id.clone()).collect();
        assert_eq!(
            shown, ids,
            "{at}: {v:?}'s scene shows other pieces than its observation"
        );
        let deciding = matches!((state.next(), v), (Next::Decide(s), Viewer::Seat(w)) if s == w);
        if deciding {
            assert_eq!(
                scene.actions.len(),
                state.legal_actions().len(),
                "{at}: the scene lists other actions than legal_actions"
            );
        } else {
            assert!(
                scene.actions.is_empty(),
                "{at}: {v:?} is not to act but its scene lists actions"
            );
        }
    }
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
