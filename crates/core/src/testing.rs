//! Step drivers for rule tests, the same for every game.
//!
//! A rule test builds a small scenario, drives the game with exact die faces and checks the
//! state, the events, and that illegal actions are refused with the right rule id and change
//! nothing. These helpers are that driving, written once, so each game's rule tests read the
//! same way:
//!
//! ```text
//! let mut g = game(...);
//! act(&mut g, "attack u1 u4");
//! let ev = roll(&mut g, &[6, 2]);
//! refused(&mut g, "attack u1 u4", "SWTB-2");
//! ```
//!
//! They panic with the action and the reason on anything unexpected: they are for tests.
//! (Each game's notation for tiny scenarios lives in its own `tests/common`, since a
//! scenario's shape is the game's.)

use crate::{Game, Illegal, Next, Step};

/// The deciding seat (panics when no seat is deciding).
pub fn seat<G: Game>(g: &G) -> u8 {
    match g.next() {
        Next::Decide(seat) => seat,
        other => panic!("expected a decision, found {other:?} ({})", g.prompt()),
    }
}

fn parse<G: Game>(a: &str) -> G::Action {
    a.parse()
        .unwrap_or_else(|e| panic!("{a:?} is not an action: {e}"))
}

/// The deciding seat takes the action `a` (short text); its events.
pub fn act<G: Game>(g: &mut G, a: &str) -> Vec<G::Event> {
    let action = parse::<G>(a);
    let s = seat(g);
    g.apply(&Step::Act { seat: s, action })
        .unwrap_or_else(|e| panic!("{a}: {e}"))
}

/// The dice show `faces`, one chance point each; their events.
pub fn roll<G: Game>(g: &mut G, faces: &[u32]) -> Vec<G::Event> {
    let mut ev = Vec::new();
    for &f in faces {
        if !matches!(g.next(), Next::Chance(_)) {
            panic!("expected a die before face {f}, found {:?}", g.to_act());
        }
        ev.extend(
            g.apply(&Step::Roll { value: f })
                .unwrap_or_else(|e| panic!("face {f}: {e}")),
        );
    }
    ev
}

/// The action is refused by `check` and by `apply`, naming `rule` (`None`: no rule, e.g. a
/// unit that does not exist); the state is unchanged and the action is not offered.
pub fn refused_by<G: Game>(g: &mut G, a: &str, rule: Option<&str>) -> Illegal {
    let action = parse::<G>(a);
    let before = g.clone();
    let err = g.check(&action).expect_err(a);
    assert_eq!(err.rule.as_deref(), rule, "{a}: {err}");
    let s = seat(g);
    let err2 = g
        .apply(&Step::Act {
            seat: s,
            action: action.clone(),
        })
        .expect_err(a);
    assert_eq!(err, err2, "{a}: check and apply give different reasons");
    assert!(*g == before, "{a} changed the state");
    assert!(!g.legal_actions().contains(&action), "{a} is offered");
    err
}

/// [`refused_by`] a rule.
pub fn refused<G: Game>(g: &mut G, a: &str, rule: &str) -> Illegal {
    refused_by(g, a, Some(rule))
}

/// The action is accepted by `check` and offered by `legal_actions`.
pub fn allowed<G: Game>(g: &G, a: &str) {
    let action = parse::<G>(a);
    g.check(&action).unwrap_or_else(|e| panic!("{a}: {e}"));
    assert!(g.legal_actions().contains(&action), "{a} is not offered");
}
