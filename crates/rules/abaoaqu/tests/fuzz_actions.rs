//! Arbitrary actions — any unit numbers, hexes on and far off the map — at states from
//! seeded random games on every scenario and the melee test scenario, and arbitrary text:
//! nothing panics, `check` and `apply` agree, and a refused action changes nothing.
use battlemat_abaoaqu::{AbaoAqu, Action, Group, HexNo};
use battlemat_core::Ruleset;
use battlemat_dice::Roller;
use std::collections::BTreeMap;

fn any_action(r: &mut Roller) -> Action {
    let unit = (r.roll(130) - 1) as u16;
    let mut coord = || -> u8 {
        match r.roll(5) {
            1 => 99,
            2 => 1,
            _ => r.roll(30) as u8 + 5,
        }
    };
    let hex = HexNo {
        col: coord(),
        row: coord(),
    };
    match r.roll(17) {
        1 => Action::Place { hex },
        2 | 3 => Action::Move { to: hex },
        4 => Action::Hold,
        5 => Action::Done,
        6 => Action::Remove { unit },
        7 => Action::From { hex },
        8 => Action::With { unit },
        9 => Action::Target { hex },
        10 => Action::Shoot { unit },
        11 => Action::ShootGroup {
            group: if unit.is_multiple_of(2) {
                Group::Ms
            } else {
                Group::Ships
            },
        },
        12 => Action::Close { unit },
        13 => Action::Fire,
        14 => Action::Cancel,
        15 => Action::Launch { unit },
        16 => Action::At { hex },
        _ => Action::Detonate { unit },
    }
}

#[test]
fn arbitrary_actions_never_panic_and_refusals_change_nothing() {
    let mut setups = Vec::new();
    let o: BTreeMap<String, String> = [("turns".to_string(), "10".to_string())].into();
    for s in AbaoAqu::info().scenarios {
        setups.push(AbaoAqu::setup(&s.id, &o).unwrap());
    }
    let melee = battlemat_core::DataFile {
        name: "melee.toml".into(),
        text: include_str!("data/melee.toml").into(),
    };
    setups.push(AbaoAqu::setup_from_data(None, &[melee], &o).unwrap());
    let mut r = Roller::new(77, 0);
    let (accepted, refused) = battlemat_core::testing::fuzz_actions::<AbaoAqu>(
        &setups,
        2 * battlemat_core::conformance::scale(),
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
        "place", "move", "hold", "done", "remove", "from", "with", "target", "shoot", "ms",
        "ships", "close", "fire", "cancel", "launch", "at", "detonate", "u0", "u1", "u65535",
        "u65536", "0712", "9999", "0000", "712", "07122", "ab12", "", "é", "-1", "u-1",
    ];
    battlemat_core::testing::fuzz_text::<AbaoAqu>(
        &words,
        20_000 * battlemat_core::conformance::scale(),
        &mut r,
    );
}
