//! Arbitrary actions — any unit ids, points on and far off the table, any winds, shares and
//! faces — at states from seeded random games on every mission, and arbitrary text: nothing
//! panics, `check` and `apply` agree, and a refused action changes nothing.
use battlemat_core::Ruleset;
use battlemat_dice::Roller;
use battlemat_geom::table::Point;
use battlemat_sd_era::SdEra;
use battlemat_sd_era::events::{Action, Aim, Aims, Cargo, Drop, Target};
use std::collections::BTreeMap;

fn any_action(r: &mut Roller) -> Action {
    let mut id = || (r.roll(48) - 1) as u8;
    let (a, b, c) = (id(), id(), id());
    let mut coord = || -> i64 {
        match r.roll(4) {
            1 => i64::from(r.roll(30_000)) - 5_000,
            2 => -(1 << 25),
            3 => 1 << 25,
            _ => i64::from(r.roll(20_000)),
        }
    };
    let p = Point::new(coord(), coord());
    let q = Point::new(coord(), coord());
    let target = match r.roll(3) {
        1 => Target::Point(p),
        _ => Target::Heading {
            wind: (r.roll(20) - 1) as u8,
            dist: i64::from(r.roll(6000)) - 1000,
        },
    };
    match r.roll(21) {
        1..=3 => Action::Move {
            unit: a,
            to: target,
            cargo: Cargo::new(
                if c % 3 == 0 { vec![b] } else { vec![] },
                if c % 4 == 0 {
                    vec![Drop { unit: b, at: q }]
                } else {
                    vec![]
                },
            ),
        },
        4..=5 => Action::Shoot {
            unit: a,
            aims: Aims::One(Aim {
                target: b,
                dice: c % 7,
            }),
            from: if c % 2 == 0 { None } else { Some(p) },
        },
        6 => Action::Shoot {
            unit: a,
            aims: Aims::from_vec(vec![
                Aim {
                    target: b,
                    dice: c % 4,
                },
                Aim {
                    target: c,
                    dice: a % 4,
                },
            ]),
            from: None,
        },
        7 => Action::Melee { unit: a, target: b },
        8 => Action::Recover { unit: a },
        9 => Action::Hide { unit: a },
        10 => Action::Collect { unit: a },
        11 => Action::Cheer { unit: a, target: b },
        12 => Action::BreakIn { unit: a },
        13 => Action::Pick {
            kind: ["gundam", "zaku", "nothing", ""][(a % 4) as usize].into(),
        },
        14 => Action::Reroll { face: c % 9 },
        15 => Action::AddCheer { dice: c },
        16 => Action::Push { toward: target },
        17 => Action::Place { target: a },
        18 => [Action::Take, Action::Stay, Action::Pass][(a % 3) as usize].clone(),
        19 => [Action::Done, Action::Keep][(a % 2) as usize].clone(),
        20 => match c % 4 {
            0 => Action::Draw { count: a % 5 },
            1 => Action::GiveUp { unit: a },
            2 => Action::PickUp { unit: a, animal: b },
            _ => Action::Deploy { unit: a, at: p },
        },
        _ => Action::End,
    }
}

#[test]
fn arbitrary_actions_never_panic_and_refusals_change_nothing() {
    let draft: BTreeMap<String, String> = [("armies", "draft"), ("seats", "3")]
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let mut setups = Vec::new();
    for m in SdEra::info().scenarios {
        for opts in [BTreeMap::new(), draft.clone()] {
            setups.push(SdEra::setup(&m.id, &opts).unwrap());
        }
    }
    let mut r = Roller::new(77, 0);
    let (accepted, refused) = battlemat_core::testing::fuzz_actions::<SdEra>(
        &setups,
        3 * battlemat_core::conformance::scale(),
        600,
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
        "move", "shoot", "melee", "push", "from", "load", "drop", "u", "u0", "u255", "u256",
        "u3@1,1", "1,1", "3.25,1.5", "1e308,1", "nan,1", "-1,-1", ",", "ne", "nnw", "x", "0.5",
        "-3", "u1:2", "u1:0", "u1:", ":3", "reroll", "add", "pick", "gundam", "end", "done",
        "keep", "take", "stay", "place", "cheer", "breakin", "hide", "recover", "collect",
        "deploy", "draw", "giveup", "pickup", "2", "9", "", "é",
    ];
    battlemat_core::testing::fuzz_text::<SdEra>(
        &words,
        20_000 * battlemat_core::conformance::scale(),
        &mut r,
    );
}
