//! Arbitrary actions — any unit ids, cells on and off the board, any power — at states from
//! seeded random games, and arbitrary text: nothing panics, `check` and `apply` agree, and a
//! refused action changes nothing.
use battlemat_core::Ruleset;
use battlemat_dice::Roller;
use battlemat_geom::Cell;
use battlemat_swtb::data::Power;
use battlemat_swtb::{Action, Dest, Swtb};
use std::collections::BTreeMap;

fn any_action(r: &mut Roller) -> Action {
    let mut id = || (r.roll(40) - 1) as u8;
    let (a, b, c) = (id(), id(), id());
    let cell = Cell::new(a % 28, b % 30);
    let power = [
        Power::LightSaberThrow,
        Power::ForceChoke,
        Power::MindTrick,
        Power::DeflectBlasters,
    ][(c % 4) as usize];
    match r.roll(10) {
        1 => Action::First { side: a % 4 },
        2 => Action::ChoosePower { unit: a, power },
        3 => Action::Move {
            unit: a,
            to: Dest::Cell(cell),
        },
        4 => Action::Move {
            unit: a,
            to: Dest::Line,
        },
        5 => Action::Attack {
            unit: a,
            target: b,
            land: if c % 2 == 0 { None } else { Some(cell) },
        },
        6 => Action::Fire {
            gun: a,
            target: b,
            crew: c,
        },
        7 => Action::Choke { unit: a, target: b },
        8 => Action::MindTrick { unit: a, target: b },
        9 => Action::Revive { unit: a, fallen: b },
        _ => Action::EndTurn,
    }
}

#[test]
fn arbitrary_actions_never_panic_and_refusals_change_nothing() {
    let all_on: BTreeMap<String, String> = [
        "force_powers",
        "tougher_vehicles",
        "fortified",
        "artillery",
        "thermal_detonators",
        "morale",
    ]
    .iter()
    .map(|k| (k.to_string(), "true".to_string()))
    .collect();
    let mut setups = Vec::new();
    for scenario in ["outpost", "bunker", "skies"] {
        for opts in [BTreeMap::new(), all_on.clone()] {
            setups.push(Swtb::setup(scenario, &opts).unwrap());
        }
    }
    let mut r = Roller::new(77, 0);
    let (accepted, refused) = battlemat_core::testing::fuzz_actions::<Swtb>(
        &setups,
        15 * battlemat_core::conformance::scale(),
        2000,
        10,
        &mut r,
        any_action,
    );
    assert!(
        accepted > 100 && refused > 1000,
        "accepted {accepted}, refused {refused}"
    );
}

#[test]
fn arbitrary_text_never_panics() {
    let mut r = Roller::new(5, 0);
    let words = [
        "move",
        "attack",
        "fire",
        "crew",
        "from",
        "line",
        "u",
        "u0",
        "u255",
        "u256",
        "a1",
        "z99",
        "a0",
        "aa1",
        "first",
        "power",
        "trick",
        "choke",
        "revive",
        "end",
        "-1",
        "99999999999",
        "é",
        "",
        " ",
        "mind_trick",
        "ü1",
        "a+2",
    ];
    battlemat_core::testing::fuzz_text::<Swtb>(
        &words,
        20_000 * battlemat_core::conformance::scale(),
        &mut r,
    );
}
