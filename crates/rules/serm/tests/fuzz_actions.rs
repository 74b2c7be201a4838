//! Arbitrary actions — any soldier, wind, heading and stop point — at states from seeded
//! random games, and arbitrary text: nothing panics, `check` and `apply` agree, a refused
//! action changes nothing.
use battlemat_core::Ruleset;
use battlemat_dice::Roller;
use battlemat_geom::table::Point;
use battlemat_serm::state::{Heading, Spot, Turn};
use battlemat_serm::{Action, Serm};
use std::collections::BTreeMap;

fn any_action(r: &mut Roller) -> Action {
    let n = |r: &mut Roller, k: u32| (r.roll(k) - 1) as u8;
    let heading = |r: &mut Roller| {
        if r.roll(2) == 1 {
            Heading::Wind(n(r, 20))
        } else {
            Heading::Soldier(n(r, 14))
        }
    };
    match r.roll(9) {
        8 => Action::BlastAt {
            soldier: n(r, 14),
            toward: if r.roll(2) == 1 {
                Spot::Soldier(n(r, 14))
            } else {
                Spot::Point(Point::new(
                    r.roll(12_000) as i64 - 1000,
                    r.roll(12_000) as i64 - 1000,
                ))
            },
        },
        9 => Action::Aim {
            toward: heading(r),
            turn: Some(Turn {
                at: r.roll(6_000) as i64 - 1000,
                toward: heading(r),
            }),
        },
        1 => Action::Shoot {
            soldier: n(r, 14),
            target: n(r, 14),
        },
        2 => Action::Blast {
            soldier: n(r, 14),
            wind: n(r, 20),
        },
        3 => Action::Move {
            soldier: n(r, 14),
            toward: if r.roll(4) == 1 {
                None
            } else {
                Some(heading(r))
            },
        },
        4 => Action::Aim {
            toward: heading(r),
            turn: None,
        },
        5 => Action::React { soldier: n(r, 14) },
        6 => Action::Pass,
        _ => Action::Stop {
            at: r.roll(12_000) as i64 - 1000,
        },
    }
}

#[test]
fn arbitrary_actions_never_panic_and_refusals_change_nothing() {
    // The default options, and every other reading (docs/rules/serm.md "Options").
    let other: BTreeMap<String, String> = [
        ("demolitions_one", "blast_too"),
        ("blast_aim", "anywhere"),
        ("turning", "free"),
        ("commando_turn", "turn_once"),
    ]
    .iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    let setups: Vec<_> = Serm::info()
        .scenarios
        .iter()
        .flat_map(|s| {
            [
                Serm::setup(&s.id, &BTreeMap::new()).unwrap(),
                Serm::setup(&s.id, &other).unwrap(),
            ]
        })
        .collect();
    let mut r = Roller::new(13, 0);
    let (accepted, refused) = battlemat_core::testing::fuzz_actions::<Serm>(
        &setups,
        6 * battlemat_core::conformance::scale(),
        1500,
        6,
        &mut r,
        any_action,
    );
    assert!(
        accepted > 50 && refused > 1000,
        "accepted {accepted}, refused {refused}"
    );
}

#[test]
fn arbitrary_text_never_panics() {
    let mut r = Roller::new(5, 0);
    let words = [
        "shoot", "blast", "move", "aim", "react", "pass", "stop", "u0", "u1", "u999", "n", "nnw",
        "x", "1.5", "-2", "1e9", "nan", "", "é", "turn", "3,4", "1,", ",2", "-1,5",
    ];
    battlemat_core::testing::fuzz_text::<Serm>(
        &words,
        20_000 * battlemat_core::conformance::scale(),
        &mut r,
    );
}
