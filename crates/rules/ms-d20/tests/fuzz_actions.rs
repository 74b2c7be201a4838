//! Arbitrary actions — any combatant, weapon, section and cell — at states from seeded
//! random games on every scenario, and arbitrary text: nothing panics, `check` and `apply`
//! agree, and a refused action changes nothing.
use battlemat_core::Ruleset;
use battlemat_dice::Roller;
use battlemat_geom::Cell;
use battlemat_ms_d20::{Action, MsD20};
use std::collections::BTreeMap;

fn any_action(r: &mut Roller) -> Action {
    let n = |r: &mut Roller, k: u32| (r.roll(k) - 1) as u8;
    match r.roll(11) {
        1 => Action::Fight,
        2 => Action::Flee,
        3 => Action::Move {
            to: Cell::new(n(r, 30), n(r, 30)),
        },
        4 | 5 => Action::Attack {
            target: n(r, 10),
            weapon: n(r, 6),
            at: if r.roll(2) == 1 { None } else { Some(n(r, 7)) },
            insight: r.roll(3) == 1,
        },
        6 => Action::Pass,
        7 => Action::End,
        8 => Action::Take,
        9 => [Action::Dodge, Action::Leap, Action::Roll][n(r, 3) as usize],
        _ => Action::Parry { section: n(r, 7) },
    }
}

#[test]
fn arbitrary_actions_never_panic_and_refusals_change_nothing() {
    let mut setups = Vec::new();
    for s in MsD20::info().scenarios {
        setups.push(MsD20::setup(&s.id, &BTreeMap::new()).unwrap());
    }
    let mut r = Roller::new(91, 0);
    let (accepted, refused) = battlemat_core::testing::fuzz_actions::<MsD20>(
        &setups,
        6 * battlemat_core::conformance::scale(),
        2000,
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
        "fight", "flee", "move", "attack", "pass", "end", "take", "dodge", "leap", "parry", "roll",
        "u0", "u1", "u300", "w0", "w9", "s1", "s-1", "at", "insight", "c4", "z99", "a0", "", "é",
    ];
    battlemat_core::testing::fuzz_text::<MsD20>(
        &words,
        20_000 * battlemat_core::conformance::scale(),
        &mut r,
    );
}
