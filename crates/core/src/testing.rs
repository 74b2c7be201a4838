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
//!
//! Tiny scenarios are written the same way in every game: each piece as `kind@place:tag`
//! ([`piece`]) — a unit kind from the game's data, where it stands in the game's own words
//! (a cell `c4`, a hex `0712`, a point `3.5,2`; left out for a piece off the board) and an
//! optional tag (a force power, a pilot rank). Each game's `tests/common` turns a list of
//! pieces into its own scenario file.

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

/// A piece in the tests' scenario notation (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece<'a> {
    pub kind: &'a str,
    pub at: Option<&'a str>,
    pub tag: Option<&'a str>,
}

/// Read `kind@place:tag` (`place` and `tag` optional): `trooper@a1`, `fighter`,
/// `force_user@d4:force_choke`.
pub fn piece(s: &str) -> Piece<'_> {
    let (kind_at, tag) = match s.split_once(':') {
        Some((k, t)) => (k, Some(t)),
        None => (s, None),
    };
    let (kind, at) = match kind_at.split_once('@') {
        Some((k, a)) => (k, Some(a)),
        None => (kind_at, None),
    };
    Piece { kind, at, tag }
}

/// Arbitrary actions at states of seeded random games: at each decision, `tries` actions
/// from `any` are checked and applied to a copy — `check` and `apply` must agree, a refused
/// action must change nothing, and `odds` and `describe` must not panic — and then a listed
/// action is taken. Every game's `tests/fuzz_actions.rs` runs this with its own `any`.
/// Returns how many arbitrary actions were accepted and refused.
pub fn fuzz_actions<G: Game>(
    setups: &[G::Setup],
    games: u64,
    max_steps: usize,
    tries: usize,
    roller: &mut battlemat_dice::Roller,
    mut any: impl FnMut(&mut battlemat_dice::Roller) -> G::Action,
) -> (u64, u64) {
    let (mut accepted, mut refused) = (0, 0);
    for setup in setups {
        for _game in 0..games {
            let mut g = G::new_game(setup).unwrap_or_else(|e| panic!("{e}"));
            for _ in 0..max_steps {
                let step = match g.next() {
                    Next::Over => break,
                    Next::Chance(o) => Step::Roll {
                        value: o.roll(roller),
                    },
                    Next::Decide(seat) => {
                        for _ in 0..tries {
                            let a = any(roller);
                            let before = g.clone();
                            let _ = g.odds(&a);
                            let _ = g.describe(&a);
                            let checked = g.check(&a);
                            let mut h = g.clone();
                            let applied = h.apply(&Step::Act {
                                seat,
                                action: a.clone(),
                            });
                            assert_eq!(checked.is_ok(), applied.is_ok(), "{a}");
                            if applied.is_err() {
                                assert!(h == before, "refused {a} changed the state");
                                refused += 1;
                            } else {
                                accepted += 1;
                            }
                            assert!(g == before, "checking {a} changed the state");
                        }
                        let legal = g.legal_actions();
                        let i = roller.pick(&vec![1; legal.len()]).expect("an action");
                        Step::Act {
                            seat,
                            action: legal[i].clone(),
                        }
                    }
                };
                g.apply(&step).unwrap_or_else(|e| panic!("{e}"));
            }
        }
    }
    (accepted, refused)
}

/// Arbitrary text made of `words`: whatever parses as an action prints back to text that
/// parses to the same action, and nothing panics.
pub fn fuzz_text<G: Game>(words: &[&str], texts: u64, roller: &mut battlemat_dice::Roller) {
    for _ in 0..texts {
        let n = roller.roll(6) as usize - 1;
        let text: Vec<&str> = (0..n)
            .map(|_| words[roller.roll(words.len() as u32) as usize - 1])
            .collect();
        let text = text.join(" ");
        if let Ok(a) = text.parse::<G::Action>() {
            let back = a.to_string().parse::<G::Action>();
            assert!(back.as_ref() == Ok(&a), "{text:?} -> {a} -> {back:?}");
        }
    }
}

/// Every test a rules page cites as `` `tests/FILE.rs::NAME` `` (the game's own, under
/// `crate_dir`) or `` `crates/OTHER/tests/FILE.rs::NAME` `` (another crate's, such as the
/// CLI's) exists: `read(PATH)` gives the text of the file at `PATH` from the repository's
/// root. Capitalised placeholders (`NAME`) are skipped.
pub fn cited_tests_exist(doc: &str, crate_dir: &str, read: impl Fn(&str) -> String) {
    for (at, _) in doc.match_indices("tests/") {
        let Some((file, rest)) = doc[at + "tests/".len()..].split_once(".rs::") else {
            continue;
        };
        if file.contains(|c: char| c.is_whitespace() || c == '`') {
            continue;
        }
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if name.chars().all(|c| c.is_ascii_uppercase()) {
            continue;
        }
        // What the path says before `tests/`: nothing for the game's own tests.
        let start = doc[..at]
            .rfind(|c: char| c == '`' || c == '(' || c.is_whitespace())
            .map_or(0, |i| i + 1);
        let path = match &doc[start..at] {
            "" => format!("{crate_dir}/tests/{file}.rs"),
            prefix => format!("{prefix}tests/{file}.rs"),
        };
        assert!(
            read(&path).contains(&format!("fn {name}(")),
            "docs cite {path}::{name}, which does not exist"
        );
    }
}

/// Check a game's action table in `docs/json.md` (`doc`, its text): in the section headed
/// `## {heading}`, every row `` | `short text` | `JSON` | `` parses both ways to the same
/// action, which prints back as that text and that JSON. Returns the number of rows.
pub fn action_table<G: Game>(doc: &str, heading: &str) -> usize {
    let section = doc
        .split("\n## ")
        .find(|s| s.starts_with(heading))
        .unwrap_or_else(|| panic!("no section {heading:?} in docs/json.md"));
    let mut rows = 0;
    for line in section.lines().filter(|l| l.starts_with("| `")) {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let text = cells[1].trim_matches('`');
        let json = cells[2].trim_matches('`');
        let from_text: G::Action = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
        let from_json: G::Action =
            serde_json::from_str(json).unwrap_or_else(|e| panic!("{json}: {e}"));
        assert!(from_text == from_json, "{text} vs {json}");
        assert_eq!(from_text.to_string(), text);
        let back = serde_json::to_value(&from_text).expect("an action serialises");
        let want: serde_json::Value = serde_json::from_str(json).expect("JSON");
        assert_eq!(back, want, "{text} prints back as different JSON");
        rows += 1;
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_read_kind_place_and_tag() {
        assert_eq!(
            piece("force_user@d4:force_choke"),
            Piece {
                kind: "force_user",
                at: Some("d4"),
                tag: Some("force_choke")
            }
        );
        assert_eq!(
            piece("fighter"),
            Piece {
                kind: "fighter",
                at: None,
                tag: None
            }
        );
        assert_eq!(piece("ms@0712").at, Some("0712"));
    }
}
