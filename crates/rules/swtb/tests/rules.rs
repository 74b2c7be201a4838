//! One or more tests per rule of Star Wars Table Top Battles (rule ids from
//! `shared/design/rule-ids.md`, rulings in `docs/rules/swtb.md`). Every test builds a small
//! scenario of its own, drives the game with exact die faces and checks the state, the
//! events, and that illegal actions are refused with the right rule id and change nothing.

use battlemat_core::Ruleset;
use battlemat_core::{Game, SetupError, Step, ToAct};
use battlemat_geom::{Cell, GridKind};
use battlemat_swtb::data::{Catalog, Class, Setup, UNITS_TOML, Weapon};
use battlemat_swtb::state::{AttackKind, Phase, Place};
use battlemat_swtb::{Action, Dest, Event, Swtb};
use std::collections::BTreeMap;

mod common;
use common::{scenario_text, setup_sized};

// ----- building scenarios --------------------------------------------------------------

fn c(s: &str) -> Cell {
    s.parse().unwrap()
}

/// An 8x8 square mat, 20 rounds.
fn setup(extra: &str, a: &[&str], b: &[&str], opts: &[(&str, &str)]) -> Setup {
    setup_sized(8, 8, 20, extra, a, b, opts)
}

fn game(extra: &str, a: &[&str], b: &[&str], opts: &[(&str, &str)]) -> Swtb {
    Swtb::new_game(&setup(extra, a, b, opts)).unwrap_or_else(|e| panic!("{e}"))
}

fn setup_error(extra: &str, a: &[&str], b: &[&str], opts: &[(&str, &str)]) -> SetupError {
    Swtb::new_game(&setup(extra, a, b, opts)).unwrap_err()
}

// ----- driving a game: the shared step drivers (`battlemat_core::testing`) ---------------

use battlemat_core::testing::{act, allowed, refused, roll, seat};

/// Settle the initiative so that `first` acts first: if dice are rolled, `first` rolls
/// sixes and the other side ones; the winner then names `first`. A Force User still without
/// a power (SWTB-O1..O4) takes the first one offered (Light Saber Throw).
fn begin(g: &mut Swtb, first: u8) {
    loop {
        match g.now.phase.clone() {
            Phase::ChoosePower { .. } => {
                let a = g.legal_actions()[0].to_string();
                act(g, &a);
            }
            Phase::Initiative { left, .. } => {
                let s = if left[0] > 0 { 0 } else { 1 };
                roll(g, &[if s == first { 6 } else { 1 }]);
            }
            Phase::ChooseFirst { .. } => {
                act(g, &format!("first {first}"));
                assert_eq!(g.now.phase, Phase::Turn);
                assert_eq!(g.now.active, first);
                return;
            }
            p => panic!("not at the start of a round: {p:?}"),
        }
    }
}

fn end(g: &mut Swtb) -> Vec<Event> {
    act(g, "end")
}

fn place(g: &Swtb, u: usize) -> Place {
    g.now.units[u].place
}

fn field(s: &str) -> Place {
    Place::Field(c(s))
}

fn fallen(s: &str) -> Place {
    Place::Fallen(c(s))
}

fn eliminated(ev: &[Event], u: u8) -> bool {
    ev.iter()
        .any(|e| matches!(e, Event::Eliminated { unit, .. } if *unit == u))
}

fn attack_kind(ev: &[Event]) -> AttackKind {
    ev.iter()
        .find_map(|e| match e {
            Event::Attack { kind, .. } => Some(*kind),
            _ => None,
        })
        .expect("an attack event")
}

fn dice(ev: &[Event]) -> (u8, u8) {
    ev.iter()
        .find_map(|e| match e {
            Event::Attack {
                attack_dice,
                defence_dice,
                ..
            } => Some((*attack_dice, *defence_dice)),
            _ => None,
        })
        .expect("an attack event")
}

fn compared(ev: &[Event]) -> (u16, u16, String) {
    ev.iter()
        .find_map(|e| match e {
            Event::Compared {
                attack,
                defence,
                result,
            } => Some((*attack, *defence, result.to_string())),
            _ => None,
        })
        .expect("a comparison")
}

fn chance_what(g: &Swtb) -> String {
    match g.to_act() {
        ToAct::Chance(ch) => ch.what,
        other => panic!("expected a die, found {other:?}"),
    }
}

// ===== SWTB-1: initiative ================================================================

// SWTB-1: each side rolls 1d6 per Force User; the single highest die wins (not the sum).
#[test]
fn swtb_1_one_die_per_force_user_highest_die_wins() {
    let mut g = game(
        "",
        &["force_user@a1", "force_user@b1"],
        &["force_user@h8"],
        &[],
    );
    assert_eq!(g.now.round, 1);
    assert_eq!(
        g.now.phase,
        Phase::Initiative {
            left: [2, 1],
            best: [0, 0]
        }
    );
    let ev = roll(&mut g, &[3, 3]); // Rebels: two dice, best 3 (their sum, 6, would win)
    assert_eq!(
        ev,
        vec![
            Event::InitiativeDie {
                side: "Rebels".into(),
                face: 3
            },
            Event::InitiativeDie {
                side: "Rebels".into(),
                face: 3
            }
        ]
    );
    let ev = roll(&mut g, &[5]);
    assert!(ev.contains(&Event::InitiativeWon {
        side: "Empire".into()
    }));
    assert_eq!(g.now.phase, Phase::ChooseFirst { winner: 1 });
    assert_eq!(seat(&g), 1);
}

// SWTB-1: the winner may let the opponent act first; every round rolls again.
#[test]
fn swtb_1_winner_may_let_the_opponent_act_first_every_round() {
    let mut g = game("", &["force_user@a1"], &["force_user@h8"], &[]);
    roll(&mut g, &[6, 2]);
    assert_eq!(g.now.phase, Phase::ChooseFirst { winner: 0 });
    refused(&mut g, "end", "SWTB-1"); // the choice comes first
    act(&mut g, "first 1");
    assert_eq!(
        (g.now.phase.clone(), g.now.active, seat(&g)),
        (Phase::Turn, 1, 1)
    );
    refused(&mut g, "first 0", "SWTB-1"); // already decided
    end(&mut g);
    assert_eq!((g.now.active, g.now.round), (0, 1));
    end(&mut g);
    assert_eq!(g.now.round, 2);
    assert_eq!(
        g.now.phase,
        Phase::Initiative {
            left: [1, 1],
            best: [0, 0]
        }
    );
}

// SWTB-1, our DEFAULT: a side with no Force User rolls no dice and so loses the initiative.
#[test]
fn swtb_1_house_side_without_force_user_loses_initiative() {
    let g = game("", &["trooper@a1", "hero@b1"], &["force_user@h8"], &[]);
    assert_eq!(g.now.phase, Phase::ChooseFirst { winner: 1 });
    let g = game("", &["force_user@a1"], &["trooper@h8"], &[]);
    assert_eq!(g.now.phase, Phase::ChooseFirst { winner: 0 });
}

// SWTB-1, our DEFAULT: with no Force User on either side each rolls 1d6; ties are rolled again.
#[test]
fn swtb_1_house_no_force_users_one_die_each_ties_rerolled() {
    let mut g = game("", &["trooper@a1"], &["trooper@h8"], &[]);
    assert_eq!(
        g.now.phase,
        Phase::Initiative {
            left: [1, 1],
            best: [0, 0]
        }
    );
    let ev = roll(&mut g, &[4, 4]);
    assert!(ev.contains(&Event::InitiativeTied));
    assert_eq!(
        g.now.phase,
        Phase::Initiative {
            left: [1, 1],
            best: [0, 0]
        }
    );
    roll(&mut g, &[2, 5]);
    assert_eq!(g.now.phase, Phase::ChooseFirst { winner: 1 });
}

// SWTB-1: a tie between Force Users' best dice is rolled again too.
#[test]
fn swtb_1_tied_force_user_dice_are_rolled_again() {
    let mut g = game("", &["force_user@a1"], &["force_user@h8"], &[]);
    let ev = roll(&mut g, &[5, 5]);
    assert!(ev.contains(&Event::InitiativeTied));
    roll(&mut g, &[1, 2]);
    assert_eq!(g.now.phase, Phase::ChooseFirst { winner: 1 });
}

// ===== SWTB-2: move or attack ============================================================

// SWTB-2: a unit that moved (not into contact) may not attack or move again.
#[test]
fn swtb_2_a_unit_moves_or_attacks_not_both() {
    let mut g = game("", &["trooper@b2"], &["trooper@b7"], &[]);
    begin(&mut g, 0);
    allowed(&g, "attack u0 u1");
    act(&mut g, "move u0 b3");
    assert_eq!(place(&g, 0), field("b3"));
    refused(&mut g, "attack u0 u1", "SWTB-2");
    refused(&mut g, "move u0 b4", "SWTB-2");
}

// SWTB-2: a unit that attacked may not move; next turn it may act again.
#[test]
fn swtb_2_attack_then_no_move_until_next_turn() {
    let mut g = game("", &["trooper@b2"], &["trooper@b7"], &[]);
    begin(&mut g, 0);
    act(&mut g, "attack u0 u1");
    roll(&mut g, &[1, 6]);
    refused(&mut g, "move u0 b3", "SWTB-2");
    refused(&mut g, "attack u0 u1", "SWTB-2");
    end(&mut g);
    end(&mut g);
    begin(&mut g, 0);
    act(&mut g, "move u0 b3");
    assert_eq!(place(&g, 0), field("b3"));
}

// SWTB-2: moving into contact with an enemy allows an attack — on a unit in contact only.
#[test]
fn swtb_2_moving_into_contact_allows_an_attack_on_a_unit_in_contact() {
    let mut g = game("", &["trooper@b2"], &["trooper@b4", "trooper@e3"], &[]);
    begin(&mut g, 0);
    act(&mut g, "move u0 b3");
    let e = refused(&mut g, "attack u0 u2", "SWTB-2"); // e3 is 3 away with a clear line
    assert!(e.reason.contains("contact"), "{e}");
    let ev = act(&mut g, "attack u0 u1");
    assert_eq!(attack_kind(&ev), AttackKind::Melee);
    let ev = roll(&mut g, &[5, 2]);
    assert!(eliminated(&ev, 1));
    assert_eq!(place(&g, 1), fallen("b4"));
    refused(&mut g, "attack u0 u2", "SWTB-2"); // one attack only
}

// ===== SWTB-3: combat ====================================================================

// SWTB-3: opposed combat dice (totals, our DEFAULT); the attacker wins → defender eliminated.
#[test]
fn swtb_3_attacker_higher_total_eliminates_defender() {
    let mut g = game("", &["hero@b2"], &["trooper@b6"], &[]);
    begin(&mut g, 0);
    let ev = act(&mut g, "attack u0 u1");
    assert_eq!(attack_kind(&ev), AttackKind::Shot);
    assert_eq!(dice(&ev), (2, 1));
    roll(&mut g, &[3]);
    assert!(chance_what(&g).contains("attack die 2 of 2"));
    roll(&mut g, &[4]);
    assert!(chance_what(&g).contains("defence die 1 of 1"));
    let ev = roll(&mut g, &[6]);
    assert_eq!(compared(&ev), (7, 6, "attacker wins".to_string()));
    assert!(eliminated(&ev, 1));
    assert_eq!(place(&g, 1), fallen("b6"));
    // The last Imperial unit is gone: the game is over.
    let r = g.result().expect("game over");
    assert_eq!(r.ranks, vec![1, 2]);
    assert_eq!(r.reason, "Empire eliminated");
    assert_eq!(r.scores, vec![3, 0]);
}

// SWTB-3: the defender wins → nothing happens.
#[test]
fn swtb_3_defender_wins_nothing_happens() {
    let mut g = game("", &["hero@b2"], &["trooper@b6"], &[]);
    begin(&mut g, 0);
    act(&mut g, "attack u0 u1");
    let ev = roll(&mut g, &[1, 2, 5]);
    assert_eq!(compared(&ev), (3, 5, "defender wins".to_string()));
    assert!(!ev.iter().any(|e| matches!(e, Event::Eliminated { .. })));
    assert_eq!((place(&g, 0), place(&g, 1)), (field("b2"), field("b6")));
    assert_eq!((g.now.units[0].hits, g.now.units[1].hits), (0, 0));
    assert_eq!(g.now.phase, Phase::Turn);
}

// SWTB-3, our DEFAULT: a tie goes to the defender (nothing happens).
#[test]
fn swtb_3_house_tie_goes_to_the_defender() {
    let mut g = game("", &["trooper@b2"], &["trooper@b6"], &[]);
    begin(&mut g, 0);
    act(&mut g, "attack u0 u1");
    let ev = roll(&mut g, &[4, 4]);
    assert_eq!(compared(&ev), (4, 4, "tie".to_string()));
    assert!(!ev.iter().any(|e| matches!(e, Event::Eliminated { .. })));
    assert_eq!(place(&g, 1), field("b6"));
    assert_eq!(g.now.phase, Phase::Turn);
}

// SWTB-3: a defender rolls its combat dice again for every attack in a turn.
#[test]
fn swtb_3_defender_rolls_again_for_every_attack() {
    let mut g = game(
        "",
        &["trooper@a2", "trooper@c2"],
        &["hero@b6", "trooper@h8"],
        &[],
    );
    begin(&mut g, 0);
    act(&mut g, "attack u0 u2");
    let ev = roll(&mut g, &[2, 3, 3]);
    assert_eq!(compared(&ev).2, "defender wins");
    let ev = act(&mut g, "attack u1 u2");
    assert_eq!(dice(&ev), (1, 2));
    let ev = roll(&mut g, &[6, 2, 3]);
    assert_eq!(compared(&ev), (6, 5, "attacker wins".to_string()));
    assert_eq!(place(&g, 2), fallen("b6"));
}

// SWTB-3, house option `contest`: `total` (DEFAULT) sums the dice, `highest` compares each
// side's best die.
#[test]
fn swtb_3_house_contest_total_or_highest() {
    // Force User 3d6 rolls 1,1,5 against a hero's 4,4.
    let mut g = game("", &["force_user@b2"], &["hero@b3", "trooper@h8"], &[]);
    begin(&mut g, 0);
    act(&mut g, "attack u0 u1");
    let ev = roll(&mut g, &[1, 1, 5, 4, 4]);
    assert_eq!(compared(&ev), (7, 8, "defender wins".to_string()));
    assert_eq!(place(&g, 1), field("b3"));

    let mut g = game(
        "",
        &["force_user@b2"],
        &["hero@b3", "trooper@h8"],
        &[("contest", "highest")],
    );
    begin(&mut g, 0);
    act(&mut g, "attack u0 u1");
    let ev = roll(&mut g, &[1, 1, 5, 4, 4]);
    assert_eq!(compared(&ev), (5, 4, "attacker wins".to_string()));
    assert_eq!(place(&g, 1), fallen("b3"));
}

// SWTB-3, house option `ties = reroll`: both sides roll again until someone wins.
#[test]
fn swtb_3_house_ties_reroll() {
    let mut g = game(
        "",
        &["trooper@b2"],
        &["trooper@b6", "trooper@h8"],
        &[("ties", "reroll")],
    );
    begin(&mut g, 0);
    act(&mut g, "attack u0 u1");
    let ev = roll(&mut g, &[3, 3]);
    assert_eq!(compared(&ev).2, "tie");
    match &g.now.phase {
        Phase::Combat(k) => {
            assert_eq!((k.att_rolled, k.def_rolled, k.att, k.def), (0, 0, 0, 0));
        }
        p => panic!("expected the dice to be rolled again, found {p:?}"),
    }
    assert!(chance_what(&g).contains("attack die 1 of 1"));
    let ev = roll(&mut g, &[5, 2]);
    assert!(eliminated(&ev, 1));
}

// SWTB-3: the dice are the game's chance points: a face that is not on a d6, or an action
// while dice are owed, is refused and changes nothing.
#[test]
fn swtb_3_only_d6_faces_while_dice_are_owed() {
    let mut g = game("", &["trooper@b2"], &["trooper@b6"], &[]);
    begin(&mut g, 0);
    act(&mut g, "attack u0 u1");
    let before = g.clone();
    assert!(g.apply(&Step::Roll { value: 7 }).is_err());
    assert!(g.apply(&Step::Roll { value: 0 }).is_err());
    assert!(
        g.apply(&Step::Act {
            seat: 0,
            action: Action::EndTurn
        })
        .is_err()
    );
    assert_eq!(g, before);
    assert!(g.legal_actions().is_empty());
}

// ===== SWTB-4: blasters ==================================================================

// SWTB-4: blasters attack at any range with a clear line.
#[test]
fn swtb_4_blaster_any_range() {
    let mut g = game("", &["trooper@a1"], &["trooper@h8"], &[]);
    begin(&mut g, 0);
    let ev = act(&mut g, "attack u0 u1");
    assert_eq!(attack_kind(&ev), AttackKind::Shot);
}

// SWTB-4: not through obstructions: other figures (either side), walls, hills, vehicles.
#[test]
fn swtb_4_blasters_do_not_shoot_through_obstructions() {
    let cases: [(&str, &[&str], &[&str]); 6] = [
        ("", &["trooper@a1", "trooper@a3"], &["trooper@a5"]), // own figure
        ("", &["trooper@a1", "droid@a3"], &["trooper@a5"]),   // own droid
        ("walls = [\"a3\"]", &["trooper@a1"], &["trooper@a5"]),
        ("hills = [\"a3\"]", &["trooper@a1"], &["trooper@a5"]),
        ("", &["trooper@a1"], &["trooper@a5", "small_vehicle@a3"]), // a vehicle
        ("", &["trooper@a1"], &["trooper@a5", "hero@a3"]),          // enemy figure
    ];
    for (extra, a, b) in cases {
        let mut g = game(extra, a, b, &[]);
        begin(&mut g, 0);
        let target = a.len(); // the Imperial trooper at a5
        let e = refused(&mut g, &format!("attack u0 u{target}"), "SWTB-4");
        assert!(e.reason.contains("a1 to a5"), "{e}");
    }
    // Control: nothing at a3, the shot is allowed; a fortified cell does not block.
    let mut g = game(
        "fortified = [\"a3\"]",
        &["trooper@a1"],
        &["trooper@a5"],
        &[],
    );
    begin(&mut g, 0);
    allowed(&g, "attack u0 u1");
}

// SWTB-4, our ruling: a flier on the battlefield is above it and blocks no shot.
#[test]
fn swtb_4_fliers_on_the_field_do_not_block() {
    let mut g = game("", &["trooper@a1", "speeder"], &["trooper@a5"], &[]);
    begin(&mut g, 0);
    act(&mut g, "move u1 a3");
    assert_eq!(place(&g, 1), field("a3"));
    allowed(&g, "attack u0 u2");
}

// ===== SWTB-5: light sabers ==============================================================

// SWTB-5: light sabers attack only what they are in contact with (an adjacent cell,
// diagonals included on squares).
#[test]
fn swtb_5_light_sabers_only_in_contact() {
    let mut g = game("", &["force_user@c3"], &["trooper@c5", "trooper@d4"], &[]);
    begin(&mut g, 0);
    let e = refused(&mut g, "attack u0 u1", "SWTB-5");
    assert!(e.reason.contains("contact"));
    let ev = act(&mut g, "attack u0 u2");
    assert_eq!(attack_kind(&ev), AttackKind::Melee);
    assert_eq!(dice(&ev), (3, 1));
}

// ===== SWTB-6: troopers and fliers =======================================================

// SWTB-6: troopers may not attack flying units — not even after moving into contact;
// a hero may.
#[test]
fn swtb_6_troopers_cannot_attack_fliers() {
    let mut g = game(
        "",
        &["trooper@c3", "hero@e3", "trooper@b5"],
        &["speeder", "trooper@h8"],
        &[],
    );
    begin(&mut g, 1);
    act(&mut g, "move u3 d4");
    end(&mut g);
    let e = refused(&mut g, "attack u0 u3", "SWTB-6");
    assert!(e.reason.contains("Trooper"));
    act(&mut g, "move u2 c5"); // into contact with the speeder at d4
    refused(&mut g, "attack u2 u3", "SWTB-6");
    act(&mut g, "attack u1 u3");
    let ev = roll(&mut g, &[6, 6, 1, 1]);
    assert!(eliminated(&ev, 3));
    assert_eq!(place(&g, 3), fallen("d4"));
}

// ===== SWTB-F1 .. F5: ships and flying units =============================================

// SWTB-F1: fliers start lined up off the battlefield; a scenario may not place them.
#[test]
fn swtb_f1_fliers_start_lined_up_off_the_battlefield() {
    let g = game(
        "",
        &["fighter", "trooper@a1"],
        &["hero_ship", "speeder", "trooper@h8"],
        &[],
    );
    for u in [0, 2, 3] {
        assert_eq!(place(&g, u), Place::Line);
    }
    let e = setup_error("", &["trooper@a1", "fighter@c3"], &["trooper@h8"], &[]);
    assert_eq!(e.at, "scenario.sides[0].units[1].at");
    assert!(e.message.contains("SWTB-F1"));
}

// SWTB-F1: after a ground attack (won or lost) the flier stays beside its target "for the
// opponents turn" and goes back to the line when that turn ends.
#[test]
fn swtb_f1_ground_attacker_stays_until_its_sides_next_turn() {
    let mut g = game(
        "",
        &["fighter", "trooper@a1"],
        &["trooper@d5", "hero@h8"],
        &[],
    );
    begin(&mut g, 0);
    let ev = act(&mut g, "attack u0 u2 from d4");
    assert!(ev.contains(&Event::Moved {
        unit: 0,
        name: "Rebel fighter 0".into(),
        to: Dest::Cell(c("d4"))
    }));
    assert_eq!(attack_kind(&ev), AttackKind::GroundAttack);
    roll(&mut g, &[1, 1, 1, 6]); // the defender wins
    assert_eq!(place(&g, 0), field("d4"));
    end(&mut g);
    assert_eq!(g.now.active, 1);
    assert_eq!(place(&g, 0), field("d4")); // still there on the Empire's turn
    allowed(&g, "attack u3 u0"); // and can be shot at there
    let ev = end(&mut g);
    assert!(ev.contains(&Event::ReturnedToLine {
        unit: 0,
        name: "Rebel fighter 0".into()
    }));
    assert_eq!(place(&g, 0), Place::Line);
}

// SWTB-F1: the same when the flier's side acts second and then first in the next round: it
// is still on the battlefield for the opponent's turn, whatever the initiative did.
#[test]
fn swtb_f1_ground_attacker_faces_the_opponents_turn_even_acting_twice_in_a_row() {
    let mut g = game(
        "",
        &["fighter", "trooper@a1"],
        &["trooper@d5", "hero@h8"],
        &[],
    );
    begin(&mut g, 1); // the Empire acts first in round 1
    end(&mut g);
    act(&mut g, "attack u0 u2 from d4");
    roll(&mut g, &[1, 1, 1, 6]); // the defender wins
    end(&mut g); // end of round 1
    begin(&mut g, 0); // the Rebels act first in round 2
    assert_eq!(place(&g, 0), field("d4"));
    end(&mut g);
    assert_eq!(g.now.active, 1);
    assert_eq!(place(&g, 0), field("d4")); // exposed on the Empire's turn
    allowed(&g, "attack u3 u0");
    end(&mut g);
    assert_eq!(place(&g, 0), Place::Line);
}

// SWTB-F1: the ground attack names an empty (non-wall) cell beside the target; only fliers
// go to the line.
#[test]
fn swtb_f1_ground_attack_names_an_empty_cell_beside_the_target() {
    let mut g = game(
        "walls = [\"c4\"]",
        &["fighter", "trooper@a1"],
        &["trooper@d5", "hero@d6"],
        &[],
    );
    begin(&mut g, 0);
    refused(&mut g, "attack u0 u2", "SWTB-F1"); // no cell named
    refused(&mut g, "attack u0 u2 from d2", "SWTB-F1"); // not beside
    refused(&mut g, "attack u0 u2 from d6", "SWTB-F1"); // taken
    refused(&mut g, "attack u0 u2 from c4", "SWTB-F1"); // a wall
    refused(&mut g, "move u1 line", "SWTB-F1"); // a ground unit
    g.check(&"attack u0 u2 from e4".parse().unwrap()).unwrap();
    allowed(&g, "attack u0 u2 from d4"); // the first free cell is the one offered
}

// SWTB-F2: flying units may move anywhere on the battlefield, and back to the line.
#[test]
fn swtb_f2_fliers_move_anywhere() {
    let mut g = game("", &["speeder", "trooper@a1"], &["trooper@h1"], &[]);
    begin(&mut g, 0);
    let a = "move u0 h1".parse::<Action>().unwrap();
    assert!(g.check(&a).is_err()); // taken
    assert!(g.check(&"move u0 line".parse().unwrap()).is_err()); // already there
    act(&mut g, "move u0 h8");
    assert_eq!(place(&g, 0), field("h8"));
    end(&mut g);
    end(&mut g);
    begin(&mut g, 0);
    act(&mut g, "move u0 a8"); // the whole board in one move
    assert_eq!(place(&g, 0), field("a8"));
    end(&mut g);
    end(&mut g);
    begin(&mut g, 0);
    act(&mut g, "move u0 line");
    assert_eq!(place(&g, 0), Place::Line);
}

/// Rebels: fighter u0, trooper u1, hero u2; Empire: speeder u3, trooper u4.
fn dogfight_game() -> Swtb {
    game(
        "",
        &["fighter", "trooper@a1", "hero@c1"],
        &["speeder", "trooper@h8"],
        &[],
    )
}

// SWTB-F3: a dogfight (flier against a flier off the battlefield): the loser is eliminated,
// the winner returns to the side of the battlefield.
#[test]
fn swtb_f3_dogfight_winner_returns_loser_eliminated() {
    let mut g = dogfight_game();
    begin(&mut g, 0);
    act(&mut g, "move u0 d4");
    end(&mut g);
    end(&mut g);
    begin(&mut g, 0);
    let ev = act(&mut g, "attack u0 u3");
    assert_eq!(attack_kind(&ev), AttackKind::Dogfight);
    assert_eq!(dice(&ev), (3, 2));
    let ev = roll(&mut g, &[4, 4, 4, 1, 1]);
    assert!(eliminated(&ev, 3));
    assert_eq!(place(&g, 3), Place::Gone);
    assert_eq!(place(&g, 0), Place::Line);

    // The defender wins: the attacker is eliminated, the defender stays on the line.
    let mut g = dogfight_game();
    begin(&mut g, 0);
    act(&mut g, "attack u0 u3");
    let ev = roll(&mut g, &[1, 1, 1, 6, 6]);
    assert!(eliminated(&ev, 0));
    assert_eq!(place(&g, 0), Place::Gone);
    assert_eq!(place(&g, 3), Place::Line);
}

// SWTB-F3: only fliers reach a flier off the battlefield.
#[test]
fn swtb_f3_ground_units_cannot_reach_fliers_off_the_battlefield() {
    let mut g = dogfight_game();
    begin(&mut g, 0);
    refused(&mut g, "attack u2 u3", "SWTB-F3");
    refused(&mut g, "attack u1 u3", "SWTB-F3");
}

// SWTB-F3, our DEFAULT: a dogfight tie sends both fliers back to the line, nobody eliminated.
#[test]
fn swtb_f3_house_dogfight_tie_sends_both_back() {
    let mut g = dogfight_game();
    begin(&mut g, 0);
    act(&mut g, "move u0 d4");
    end(&mut g);
    end(&mut g);
    begin(&mut g, 0);
    act(&mut g, "attack u0 u3");
    let ev = roll(&mut g, &[2, 2, 2, 3, 3]);
    assert_eq!(compared(&ev).2, "tie");
    assert!(!ev.iter().any(|e| matches!(e, Event::Eliminated { .. })));
    assert!(ev.contains(&Event::ReturnedToLine {
        unit: 0,
        name: "Rebel fighter 0".into()
    }));
    assert_eq!((place(&g, 0), place(&g, 3)), (Place::Line, Place::Line));
}

// SWTB-F4: intercept (flier against a flier on the battlefield): the interceptor wins → the
// defender is eliminated and the attacker returns to the line; the defender wins → nothing.
#[test]
fn swtb_f4_intercept() {
    let start = || {
        let mut g = dogfight_game();
        begin(&mut g, 1);
        act(&mut g, "move u3 e5");
        end(&mut g);
        act(&mut g, "move u0 b2");
        end(&mut g);
        begin(&mut g, 0);
        g
    };
    let mut g = start();
    let ev = act(&mut g, "attack u0 u3");
    assert_eq!(attack_kind(&ev), AttackKind::Intercept);
    let ev = roll(&mut g, &[5, 5, 5, 1, 1]);
    assert!(eliminated(&ev, 3));
    assert_eq!(place(&g, 3), fallen("e5"));
    assert_eq!(place(&g, 0), Place::Line);

    let mut g = start();
    act(&mut g, "attack u0 u3");
    let ev = roll(&mut g, &[1, 1, 1, 6, 6]);
    assert!(!ev.iter().any(|e| matches!(e, Event::Eliminated { .. })));
    assert_eq!((place(&g, 0), place(&g, 3)), (field("b2"), field("e5")));
}

// SWTB-F5: ground attack: the attacker wins → the ground unit is eliminated; the flier stays
// beside it (see SWTB-F1 for the defender winning).
#[test]
fn swtb_f5_ground_attack_eliminates_on_a_win_and_the_flier_stays() {
    let mut g = game(
        "",
        &["fighter", "trooper@a1"],
        &["trooper@d5", "hero@h8"],
        &[],
    );
    begin(&mut g, 0);
    act(&mut g, "attack u0 u2 from e6");
    let ev = roll(&mut g, &[3, 3, 3, 2]);
    assert!(eliminated(&ev, 2));
    assert_eq!(place(&g, 2), fallen("d5"));
    assert_eq!(place(&g, 0), field("e6"));
    assert!(g.now.units[0].back_to_line);
    refused(&mut g, "move u0 a8", "SWTB-2"); // one of three attacks *per turn*, then done
}

// ===== SWTB-V1, V2: ground vehicles ======================================================

// SWTB-V1: ground vehicles move or shoot; moving into contact gives them no attack.
#[test]
fn swtb_v1_ground_vehicles_move_or_shoot() {
    let mut g = game(
        "",
        &["small_vehicle@b2"],
        &["trooper@b6", "trooper@h8"],
        &[],
    );
    begin(&mut g, 0);
    act(&mut g, "move u0 b5"); // move 3, into contact with b6
    refused(&mut g, "attack u0 u1", "SWTB-2");

    let mut g = game(
        "",
        &["small_vehicle@b2"],
        &["trooper@b6", "trooper@h8"],
        &[],
    );
    begin(&mut g, 0);
    let ev = act(&mut g, "attack u0 u1");
    assert_eq!((attack_kind(&ev), dice(&ev)), (AttackKind::Shot, (2, 1)));
    roll(&mut g, &[1, 1, 6]);
    refused(&mut g, "move u0 b3", "SWTB-2");
}

// SWTB-V2: ground vehicles may attack fliers on the battlefield (not those off it).
#[test]
fn swtb_v2_ground_vehicles_attack_fliers_on_the_battlefield() {
    let mut g = game("", &["large_vehicle@c3"], &["speeder", "trooper@h8"], &[]);
    begin(&mut g, 0);
    refused(&mut g, "attack u0 u1", "SWTB-F3");
    end(&mut g);
    act(&mut g, "move u1 c6");
    end(&mut g);
    begin(&mut g, 0);
    let ev = act(&mut g, "attack u0 u1");
    assert_eq!(dice(&ev), (3, 2));
    let ev = roll(&mut g, &[6, 6, 6, 1, 1]);
    assert!(eliminated(&ev, 1));
    assert_eq!(place(&g, 1), fallen("c6"));
}

// ===== SWTB-U1, U2: the unit table and droids ============================================

// SWTB-U1: the unit table as printed (move / combat dice / cost).
#[test]
fn swtb_u1_unit_table_matches_the_text() {
    let cat = Catalog::builtin();
    let t = &cat.unit_types;
    let rows: [(&str, &str, Class, u8, u8, u32); 9] = [
        ("trooper", "Trooper", Class::Figure, 1, 1, 1),
        ("hero", "Hero", Class::Figure, 2, 2, 3),
        ("force_user", "Force User", Class::Figure, 5, 3, 6),
        ("droid", "Droid", Class::Figure, 1, 1, 3),
        ("speeder", "Speeder", Class::Ship, 0, 2, 5),
        ("fighter", "Fighter", Class::Ship, 0, 3, 8),
        ("hero_ship", "Hero Ship", Class::Ship, 0, 4, 10),
        (
            "small_vehicle",
            "Small Ground Vehicle",
            Class::GroundVehicle,
            3,
            2,
            3,
        ),
        (
            "large_vehicle",
            "Large Ground Vehicle",
            Class::GroundVehicle,
            2,
            3,
            5,
        ),
    ];
    for (key, name, class, mv, dice, cost) in rows {
        let u = &t[key];
        assert_eq!(
            (
                u.name.as_str(),
                u.class,
                u.r#move,
                u.dice,
                u.attack_dice(),
                u.cost
            ),
            (name, class, mv, dice, dice, cost),
            "{key}"
        );
    }
    assert_eq!(t["force_user"].weapon, Weapon::LightSaber);
    assert_eq!(t["droid"].weapon, Weapon::None);
    for k in ["trooper", "hero", "speeder", "fighter", "hero_ship"] {
        assert_eq!(t[k].weapon, Weapon::Blaster, "{k}");
    }
    assert!(t["force_user"].force_user && !t["hero"].force_user);
    // Ours (SWTB-O8): the two fixed guns.
    assert_eq!((t["artillery"].attack_dice(), t["artillery"].dice), (2, 1));
    assert_eq!((t["aa_gun"].attack_dice(), t["aa_gun"].dice), (2, 1));
    assert_eq!(t.len(), 11);
}

// SWTB-U1: a move is at most the unit's Move in steps (diagonals count 1 on squares),
// through empty cells and friends, never through walls or enemies.
#[test]
fn swtb_u1_moves_are_limited_by_the_move_stat() {
    let mut g = game(
        "",
        &["trooper@d4", "hero@a1", "force_user@a8", "trooper@a2"],
        &["trooper@h1"],
        &[],
    );
    begin(&mut g, 0);
    let e = refused(&mut g, "move u0 d6", "SWTB-U1");
    assert!(e.reason.contains("move of 1"), "{e}");
    refused(&mut g, "move u3 a1", "SWTB-2"); // taken by the hero: "a1 is taken"
    act(&mut g, "move u0 e5"); // diagonal step
    act(&mut g, "move u1 a3"); // through its friend at a2
    refused(&mut g, "move u2 g2", "SWTB-U1"); // 6 steps
    act(&mut g, "move u2 f3"); // 5 steps
    assert_eq!(
        (place(&g, 0), place(&g, 1), place(&g, 2)),
        (field("e5"), field("a3"), field("f3"))
    );

    // An enemy at a2 and a wall at b2: the hero cannot get from a1 to a3.
    let mut g = game("walls = [\"b2\"]", &["hero@a1"], &["trooper@a2"], &[]);
    begin(&mut g, 0);
    refused(&mut g, "move u0 a3", "SWTB-U1");
    refused(&mut g, "move u0 b2", "SWTB-U1");
    act(&mut g, "move u0 c1");
}

// SWTB-U2: droids may not attack (only defend, with 1d6) and get no attack for contact.
#[test]
fn swtb_u2_droids_only_defend() {
    let mut g = game("", &["droid@b2"], &["trooper@b4", "trooper@h8"], &[]);
    begin(&mut g, 0);
    act(&mut g, "move u0 b3");
    refused(&mut g, "attack u0 u1", "SWTB-U2");
    end(&mut g);
    let ev = act(&mut g, "attack u1 u0");
    assert_eq!(dice(&ev), (1, 1));
    let ev = roll(&mut g, &[5, 2]);
    assert!(eliminated(&ev, 0));
}

// SWTB-U2: a droid revives an adjacent fallen unit of its side on 5-6 on 1d6.
#[test]
fn swtb_u2_droid_revives_an_adjacent_fallen_unit_on_5_or_6() {
    let mut g = game(
        "",
        &["droid@c3", "trooper@c4", "trooper@a8"],
        &["hero@c7", "trooper@h8"],
        &[],
    );
    begin(&mut g, 1);
    act(&mut g, "attack u3 u1");
    roll(&mut g, &[6, 6, 1]);
    assert_eq!(place(&g, 1), fallen("c4"));
    end(&mut g);
    allowed(&g, "revive u0 u1");
    refused(&mut g, "revive u2 u1", "SWTB-U2"); // a trooper is no droid
    refused(&mut g, "revive u0 u2", "SWTB-U2"); // not fallen
    act(&mut g, "revive u0 u1");
    assert!(chance_what(&g).contains("needs 5+"));
    let ev = roll(&mut g, &[4]);
    assert!(matches!(ev.last(), Some(Event::ReviveFailed { .. })));
    assert_eq!(place(&g, 1), fallen("c4"));
    refused(&mut g, "revive u0 u1", "SWTB-2"); // once a turn
    end(&mut g);
    begin(&mut g, 0);
    act(&mut g, "revive u0 u1");
    let ev = roll(&mut g, &[5]);
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Revived { unit: 1, .. }))
    );
    assert_eq!(place(&g, 1), field("c4"));
    assert_eq!(g.now.units[1].hits, 0);
    // Our ruling: the revived unit has used its turn.
    refused(&mut g, "move u1 c5", "SWTB-2");
}

// SWTB-U2: only an adjacent fallen unit of the droid's own side, on an empty cell.
#[test]
fn swtb_u2_revive_needs_own_adjacent_fallen_unit() {
    let mut g = game(
        "",
        &["droid@c3", "hero@c5", "trooper@a8"],
        &["trooper@c4", "trooper@h8", "trooper@f6"],
        &[],
    );
    begin(&mut g, 0);
    act(&mut g, "attack u1 u3"); // the hero (c5) attacks the Imperial trooper at c4
    roll(&mut g, &[6, 6, 1]);
    assert_eq!(place(&g, 3), fallen("c4"));
    let e = refused(&mut g, "revive u0 u3", "SWTB-U2");
    assert!(e.reason.contains("own side"));
    end(&mut g);
    act(&mut g, "attack u5 u1"); // f6 shoots the hero at c5 (line d5/e5 clear)
    roll(&mut g, &[6, 1, 1]);
    assert_eq!(place(&g, 1), fallen("c5"));
    end(&mut g);
    begin(&mut g, 0);
    let e = refused(&mut g, "revive u0 u1", "SWTB-U2"); // c5 is 2 from c3
    assert!(e.reason.contains("adjacent"));
}

// ===== SWTB-P: points ====================================================================

// SWTB-P for the balance lab: armies drawn at random keep within the scenario's points,
// keep the scenario's Force Users and fixed guns, stand on the side's starting cells (ships
// on the line) and spend between half and all the points.
#[test]
fn swtb_p_random_armies_keep_the_points() {
    let s = Swtb::setup("outpost", &BTreeMap::new()).unwrap();
    let armies = Swtb::armies(&s).unwrap();
    assert_eq!(armies.seats.len(), 2);
    let mut r = battlemat_dice::Roller::new(5, 0);
    let mut spent = std::collections::BTreeSet::new();
    for _ in 0..100 {
        let drawn = Swtb::random_armies(&s, &mut r).unwrap().unwrap();
        for (side, old) in drawn.scenario.sides.iter().zip(&s.scenario.sides) {
            let cost: u32 = side
                .units
                .iter()
                .map(|u| drawn.unit_types[&u.kind].cost)
                .sum();
            assert!(cost <= s.scenario.points, "{cost}");
            spent.insert(cost);
            let cells: Vec<_> = old.units.iter().filter_map(|u| u.at).collect();
            for u in &side.units {
                let t = &drawn.unit_types[&u.kind];
                if t.force_user || t.crewed {
                    assert!(
                        old.units.contains(u),
                        "{} kept as the scenario has it",
                        u.name
                    );
                } else if t.class == Class::Ship {
                    assert_eq!(u.at, None, "ships start on the line");
                } else {
                    assert!(
                        cells.contains(&u.at.unwrap()),
                        "{} on a starting cell",
                        u.name
                    );
                }
            }
        }
    }
    assert!(spent.len() > 3, "budgets vary: {spent:?}");
}

// SWTB-P: points are optional — off by default ("use every figure"); on, an army over the
// scenario's points is a setup error naming the side.
#[test]
fn swtb_p_points_limit_only_with_the_option() {
    let army: &[&str] = &[
        "force_user@a1",
        "force_user@b1",
        "hero@c1",
        "hero@d1",
        "trooper@e1",
    ];
    let army_over: Vec<&str> = army
        .iter()
        .copied()
        .chain(["trooper@f1", "trooper@g1"])
        .collect();
    // 21 points against the scenario's 20.
    game("", &army_over, &["trooper@h8"], &[]);
    game("", army, &["trooper@h8"], &[("points", "true")]);
    let e = setup_error("", &army_over, &["trooper@h8"], &[("points", "true")]);
    assert_eq!(e.at, "scenario.sides[0].units");
    assert!(
        e.message.contains("21") && e.message.contains("SWTB-P"),
        "{e}"
    );
    // Our scenarios fit their points.
    for s in Swtb::info().scenarios {
        let mut o = BTreeMap::new();
        o.insert("points".to_string(), "true".to_string());
        o.insert("artillery".to_string(), "true".to_string());
        Swtb::setup(&s.id, &o).unwrap_or_else(|e| panic!("{}: {e}", s.id));
    }
}

// ===== SWTB-O1 .. O4: force powers =======================================================

// SWTB-O1: Light Saber Throw reaches one space away (distance 2) with a clear line; only
// with `force_powers` on.
#[test]
fn swtb_o1_light_saber_throw_reaches_one_space_away() {
    let fp = [("force_powers", "true")];
    let a: &[&str] = &["force_user@c3:light_saber_throw"];
    let b: &[&str] = &["trooper@c5", "trooper@f3"];
    let mut g = game("", a, b, &fp);
    begin(&mut g, 0);
    refused(&mut g, "attack u0 u2", "SWTB-O1"); // 3 away
    let ev = act(&mut g, "attack u0 u1");
    assert_eq!((attack_kind(&ev), dice(&ev)), (AttackKind::Melee, (3, 1)));
    let ev = roll(&mut g, &[2, 2, 2, 5]);
    assert!(eliminated(&ev, 1));

    let mut g = game("walls = [\"c4\"]", a, b, &fp);
    begin(&mut g, 0);
    refused(&mut g, "attack u0 u1", "SWTB-O1"); // the throw is blocked

    let mut g = game("", a, b, &[]); // powers off: a plain light saber
    begin(&mut g, 0);
    refused(&mut g, "attack u0 u1", "SWTB-5");
}

/// Rebels: trooper u0 d5, hero u1 e5, Force User u2 c5, droid u3 d3, small vehicle u4 e3,
/// trooper u5 d6... Empire: Force User u6 at d4 with Force Choke, trooper u7 h8.
fn choke_game(opts: &[(&str, &str)]) -> Swtb {
    let mut g = game(
        "",
        &[
            "trooper@d5",
            "hero@e5",
            "force_user@c5",
            "droid@d3",
            "small_vehicle@e3",
            "trooper@d6",
        ],
        &["force_user@d4:force_choke", "trooper@h8"],
        opts,
    );
    begin(&mut g, 1);
    g
}

// SWTB-O2: Force Choke: adjacent, automatic against a trooper, once only.
#[test]
fn swtb_o2_force_choke_trooper_automatic_once() {
    let fp = [("force_powers", "true")];
    let mut g = choke_game(&fp);
    refused(&mut g, "choke u6 u5", "SWTB-O2"); // d6 is not adjacent to d4
    let e = refused(&mut g, "choke u6 u3", "SWTB-O2"); // droids: not in the text's list
    assert!(e.reason.contains("ineffective"));
    refused(&mut g, "choke u6 u4", "SWTB-O2"); // vehicles neither
    let ev = act(&mut g, "choke u6 u0");
    assert!(eliminated(&ev, 0));
    assert_eq!(place(&g, 0), fallen("d5"));
    assert_eq!(g.now.phase, Phase::Turn); // no die
    assert!(g.now.units[6].power_used);
    refused(&mut g, "attack u6 u1", "SWTB-2"); // the power was its action
    end(&mut g);
    end(&mut g);
    begin(&mut g, 1);
    let e = refused(&mut g, "choke u6 u1", "SWTB-O2");
    assert!(e.reason.contains("once"));

    // Without the option the Force User has no power.
    let mut g = choke_game(&[]);
    refused(&mut g, "choke u6 u0", "SWTB-O2");
}

// SWTB-O2: Force Choke defeats a hero on 5-6 and a Force User on 6 (regardless of
// toughness).
#[test]
fn swtb_o2_force_choke_hero_on_5_force_user_on_6() {
    let fp = [("force_powers", "true"), ("tougher_everything", "true")];
    for (target, face, works) in [
        (1u8, 4u32, false),
        (1, 5, true),
        (2, 5, false),
        (2, 6, true),
    ] {
        let mut g = choke_game(&fp);
        act(&mut g, &format!("choke u6 u{target}"));
        let need = if target == 1 { 5 } else { 6 };
        assert!(chance_what(&g).contains(&format!("needs {need}+")));
        let ev = roll(&mut g, &[face]);
        assert_eq!(eliminated(&ev, target), works, "u{target} on {face}");
        assert_eq!(
            ev.iter().any(|e| matches!(e, Event::PowerFailed { .. })),
            !works
        );
        assert!(g.now.units[6].power_used);
    }
}

// SWTB-O2: a dark side power — on a light side Force User it is a setup error.
#[test]
fn swtb_o2_force_choke_on_the_light_side_is_a_setup_error() {
    let e = setup_error(
        "",
        &["trooper@a1", "force_user@b1:force_choke"],
        &["trooper@h8"],
        &[("force_powers", "true")],
    );
    assert_eq!(e.at, "scenario.sides[0].units[1].power");
    assert!(e.message.contains("SWTB-O2"));
    // Even with powers off, the scenario is wrong.
    let e = setup_error("", &["force_user@b1:force_choke"], &["trooper@h8"], &[]);
    assert_eq!(e.at, "scenario.sides[0].units[0].power");
}

/// Rebels: Force User u0 d4 with Mind Trick; Empire: trooper u1 d5, hero u2 e5,
/// Force User u3 c5, trooper u4 h8.
fn trick_game() -> Swtb {
    let mut g = game(
        "",
        &["force_user@d4:mind_trick"],
        &["trooper@d5", "hero@e5", "force_user@c5", "trooper@h8"],
        &[("force_powers", "true")],
    );
    begin(&mut g, 0);
    g
}

// SWTB-O3: Mind Trick: adjacent, automatic on a trooper, who joins the Force User's side.
#[test]
fn swtb_o3_mind_trick_trooper_joins_automatically() {
    let mut g = trick_game();
    let e = refused(&mut g, "trick u0 u3", "SWTB-O3");
    assert!(e.reason.contains("ineffective"));
    let ev = act(&mut g, "trick u0 u1");
    assert!(ev.contains(&Event::Defected {
        unit: 1,
        name: "Imperial trooper 0".into(),
        side: "Rebels".into()
    }));
    assert_eq!(g.now.units[1].side, 0);
    assert_eq!(g.now.phase, Phase::Turn);
    refused(&mut g, "move u1 d6", "SWTB-2"); // it has no action left this turn
    end(&mut g);
    assert!(g.check(&"attack u1 u0".parse().unwrap()).is_err()); // no longer Imperial
    end(&mut g);
    begin(&mut g, 0);
    allowed(&g, "attack u1 u2"); // fights for the Rebels now
    refused(&mut g, "trick u0 u2", "SWTB-O3"); // once only
}

// SWTB-O3: a hero on 6 only; the light side's power.
#[test]
fn swtb_o3_mind_trick_hero_on_6() {
    for (face, works) in [(5u32, false), (6, true)] {
        let mut g = trick_game();
        act(&mut g, "trick u0 u2");
        assert!(chance_what(&g).contains("needs 6+"));
        roll(&mut g, &[face]);
        assert_eq!(g.now.units[2].side, if works { 0 } else { 1 });
        assert_eq!(place(&g, 2), field("e5"));
    }
    let e = setup_error("", &["trooper@a1"], &["force_user@h8:mind_trick"], &[]);
    assert_eq!(e.at, "scenario.sides[1].units[0].power");
    assert!(e.message.contains("SWTB-O3"));
}

/// Rebels: Force User u0 d4 with Deflect Blasters; Empire: trooper u1 d5, hero u2 e5,
/// trooper u3 d7, large vehicle u4 c5, trooper u5 h8.
fn deflect_game(opts: &[(&str, &str)]) -> Swtb {
    let mut g = game(
        "",
        &["force_user@d4:deflect_blasters"],
        &[
            "trooper@d5",
            "hero@e5",
            "trooper@d7",
            "large_vehicle@c5",
            "trooper@h8",
        ],
        opts,
    );
    begin(&mut g, 1);
    g
}

// SWTB-O4: Deflect Blasters: a win against an adjacent trooper or hero defeats the attacker.
#[test]
fn swtb_o4_deflect_blasters_defeats_adjacent_trooper_or_hero() {
    let mut g = deflect_game(&[("force_powers", "true")]);
    act(&mut g, "attack u1 u0"); // adjacent trooper
    let ev = roll(&mut g, &[2, 1, 1, 1]);
    assert_eq!(compared(&ev).2, "defender wins");
    assert!(eliminated(&ev, 1));
    assert_eq!(place(&g, 1), fallen("d5"));
    act(&mut g, "attack u2 u0"); // adjacent hero, a tie: nothing
    let ev = roll(&mut g, &[3, 3, 2, 2, 2]);
    assert_eq!(compared(&ev).2, "tie");
    assert_eq!(place(&g, 2), field("e5"));
    act(&mut g, "attack u3 u0"); // a trooper shooting from range: nothing
    roll(&mut g, &[1, 6, 6, 6]);
    assert_eq!(place(&g, 3), field("d7"));
    act(&mut g, "attack u4 u0"); // an adjacent vehicle is no trooper or hero: nothing
    roll(&mut g, &[1, 1, 1, 6, 6, 6]);
    assert_eq!(place(&g, 4), field("c5"));
    assert_eq!(place(&g, 0), field("d4"));

    // Without force powers, nothing happens to a losing adjacent trooper.
    let mut g = deflect_game(&[]);
    act(&mut g, "attack u1 u0");
    let ev = roll(&mut g, &[2, 1, 1, 1]);
    assert!(!eliminated(&ev, 1));
    assert_eq!(place(&g, 1), field("d5"));
}

// ===== SWTB-O5 .. O10: other optional rules ==============================================

// SWTB-O5: ground vehicles must be defeated twice; other units still once.
#[test]
fn swtb_o5_tougher_vehicles_defeated_twice() {
    let opts = [("tougher_vehicles", "true")];
    let mut g = game("", &["hero@b2"], &["large_vehicle@b5", "trooper@h8"], &opts);
    assert_eq!((g.toughness(0), g.toughness(1), g.toughness(2)), (1, 2, 1));
    begin(&mut g, 0);
    act(&mut g, "attack u0 u1");
    let ev = roll(&mut g, &[6, 6, 1, 1, 1]);
    assert!(ev.contains(&Event::Hit {
        unit: 1,
        name: "Imperial large_vehicle 0".into(),
        hits: 1,
        toughness: 2
    }));
    assert!(!eliminated(&ev, 1));
    assert_eq!(place(&g, 1), field("b5"));
    end(&mut g);
    end(&mut g);
    begin(&mut g, 0);
    act(&mut g, "attack u0 u1");
    let ev = roll(&mut g, &[6, 6, 1, 1, 1]);
    assert!(eliminated(&ev, 1));
    let g = game("", &["hero@b2"], &["large_vehicle@b5"], &[]);
    assert_eq!(g.toughness(1), 1);
}

// SWTB-O6: every unit takes as many hits as its combat dice; with O5 too, the larger count.
#[test]
fn swtb_o6_tougher_everything_hits_equal_combat_dice() {
    let a: &[&str] = &[
        "trooper@a1",
        "hero@b1",
        "force_user@c1",
        "droid@d1",
        "small_vehicle@e1",
        "large_vehicle@f1",
        "speeder",
        "fighter",
        "hero_ship",
    ];
    let g = game("", a, &["trooper@h8"], &[("tougher_everything", "true")]);
    let t: Vec<u8> = (0..9).map(|u| g.toughness(u)).collect();
    assert_eq!(t, vec![1, 2, 3, 1, 2, 3, 2, 3, 4]);
    let g = game(
        "",
        a,
        &["trooper@h8"],
        &[("tougher_everything", "true"), ("tougher_vehicles", "true")],
    );
    assert_eq!((g.toughness(4), g.toughness(5)), (2, 3));

    // A hero needs two hits.
    let mut g = game(
        "",
        &["force_user@b2"],
        &["hero@b3", "trooper@h8"],
        &[("tougher_everything", "true")],
    );
    begin(&mut g, 0);
    act(&mut g, "attack u0 u1");
    roll(&mut g, &[6, 6, 6, 1, 1]);
    assert_eq!((place(&g, 1), g.now.units[1].hits), (field("b3"), 1));
    end(&mut g);
    end(&mut g);
    begin(&mut g, 0);
    act(&mut g, "attack u0 u1");
    let ev = roll(&mut g, &[6, 6, 6, 1, 1]);
    assert!(eliminated(&ev, 1));
}

// SWTB-O7: units defending in fortified cells add 1d6 (only with the option; not when
// attacking).
#[test]
fn swtb_o7_fortified_defenders_add_a_die() {
    let extra = "fortified = [\"b5\", \"b2\"]";
    let a: &[&str] = &["hero@b2"];
    let b: &[&str] = &["trooper@b5", "trooper@h8"];
    let mut g = game(extra, a, b, &[("fortified", "true")]);
    begin(&mut g, 0);
    let ev = act(&mut g, "attack u0 u1");
    assert_eq!(dice(&ev), (2, 2)); // the hero in b2 attacks with its own 2 dice
    let ev = roll(&mut g, &[4, 4, 5, 4]);
    assert_eq!(compared(&ev), (8, 9, "defender wins".to_string()));
    end(&mut g);
    let ev = act(&mut g, "attack u1 u0");
    assert_eq!(dice(&ev), (1, 3)); // the hero defends in b2: 2 + 1 dice

    let mut g = game(extra, a, b, &[]);
    begin(&mut g, 0);
    let ev = act(&mut g, "attack u0 u1");
    assert_eq!(dice(&ev), (2, 1));
}

/// Rebels: hero u0 b2, speeder u1; Empire: artillery u2 d5, trooper u3 d6, AA gun u4 f5,
/// trooper u5 f6, trooper u6 h8.
fn guns_game(extra: &str) -> Swtb {
    game(
        extra,
        &["hero@b2", "speeder"],
        &[
            "artillery@d5",
            "trooper@d6",
            "aa_gun@f5",
            "trooper@f6",
            "trooper@h8",
        ],
        &[("artillery", "true")],
    )
}

// SWTB-O8: fixed guns: 2d6 to attack, 1d6 to defend; fired by an adjacent trooper; artillery
// at ground units, AA at fliers; only with the option.
#[test]
fn swtb_o8_fixed_guns_need_a_trooper_to_fire() {
    let g = game(
        "",
        &["hero@b2", "speeder"],
        &[
            "artillery@d5",
            "trooper@d6",
            "aa_gun@f5",
            "trooper@f6",
            "trooper@h8",
        ],
        &[],
    );
    assert_eq!(g.now.units.len(), 5); // no guns without the option

    let mut g = guns_game("");
    assert_eq!(g.now.units.len(), 7);
    begin(&mut g, 1);
    refused(&mut g, "attack u2 u0", "SWTB-O8"); // guns `fire`
    refused(&mut g, "move u2 d4", "SWTB-O8"); // fixed
    refused(&mut g, "fire u2 u0 crew u6", "SWTB-O8"); // crew not adjacent
    refused(&mut g, "fire u4 u0 crew u5", "SWTB-O8"); // AA at a ground unit
    let ev = act(&mut g, "fire u2 u0 crew u3");
    assert_eq!((attack_kind(&ev), dice(&ev)), (AttackKind::Shot, (2, 2)));
    let ev = roll(&mut g, &[3, 3, 5, 1]);
    assert_eq!(compared(&ev).2, "tie");
    refused(&mut g, "move u3 d7", "SWTB-2"); // the crew's action was to fire
    refused(&mut g, "fire u2 u0 crew u3", "SWTB-2"); // once a turn
    end(&mut g);
    act(&mut g, "move u1 g4"); // the speeder comes onto the field
    end(&mut g);
    begin(&mut g, 1);
    refused(&mut g, "fire u2 u1 crew u3", "SWTB-O8"); // artillery at a flier
    let ev = act(&mut g, "fire u4 u1 crew u5");
    assert_eq!(dice(&ev), (2, 2));
    let ev = roll(&mut g, &[6, 5, 1, 1]);
    assert!(eliminated(&ev, 1));
    end(&mut g);
    let ev = act(&mut g, "attack u0 u2"); // guns defend with 1d6
    assert_eq!(dice(&ev), (2, 1));
    let ev = roll(&mut g, &[2, 2, 3]);
    assert!(eliminated(&ev, 2));
}

// SWTB-O8 with SWTB-4: a gun's shot needs a clear line.
#[test]
fn swtb_o8_gun_shots_need_a_clear_line() {
    let mut g = guns_game("walls = [\"c4\"]");
    begin(&mut g, 1);
    refused(&mut g, "fire u2 u0 crew u3", "SWTB-4");
}

// SWTB-O9: a trooper or hero rolling a 6 in an attack adds 1d6 to the roll (one per six,
// the extra dice do not add more); only with the option; not Force Users.
#[test]
fn swtb_o9_thermal_detonators() {
    let td = [("thermal_detonators", "true")];
    // A trooper: 6 + 3 = 9 against a hero's 4 + 4.
    let mut g = game("", &["trooper@b2"], &["hero@b6", "trooper@h8"], &td);
    begin(&mut g, 0);
    act(&mut g, "attack u0 u1");
    roll(&mut g, &[6]);
    assert!(chance_what(&g).contains("thermal detonator"));
    let ev = roll(&mut g, &[3, 4, 4]);
    assert_eq!(compared(&ev), (9, 8, "attacker wins".to_string()));

    // Off: the 6 stands alone.
    let mut g = game("", &["trooper@b2"], &["hero@b6", "trooper@h8"], &[]);
    begin(&mut g, 0);
    act(&mut g, "attack u0 u1");
    roll(&mut g, &[6]);
    assert!(chance_what(&g).contains("defence die 1 of 2"));
    let ev = roll(&mut g, &[4, 4]);
    assert_eq!(compared(&ev), (6, 8, "defender wins".to_string()));

    // An extra die showing 6 brings no further die.
    let mut g = game("", &["trooper@b2"], &["hero@b6", "trooper@h8"], &td);
    begin(&mut g, 0);
    act(&mut g, "attack u0 u1");
    roll(&mut g, &[6, 6]);
    assert!(chance_what(&g).contains("defence die 1 of 2"));
    let ev = roll(&mut g, &[6, 5]);
    assert_eq!(compared(&ev), (12, 11, "attacker wins".to_string()));

    // A hero rolling two sixes gets two extra dice.
    let mut g = game("", &["hero@b2"], &["trooper@b6", "trooper@h8"], &td);
    begin(&mut g, 0);
    act(&mut g, "attack u0 u1");
    roll(&mut g, &[6, 6, 1]);
    assert!(chance_what(&g).contains("thermal detonator"));
    let ev = roll(&mut g, &[1, 6]);
    assert_eq!(compared(&ev), (14, 6, "attacker wins".to_string()));

    // A Force User's 6 brings nothing.
    let mut g = game("", &["force_user@b2"], &["trooper@b3", "trooper@h8"], &td);
    begin(&mut g, 0);
    act(&mut g, "attack u0 u1");
    roll(&mut g, &[6, 1, 1]);
    assert!(chance_what(&g).contains("defence die 1 of 1"));

    // With contest = highest: the best die (6) plus the extra die.
    let mut g = game(
        "",
        &["trooper@b2"],
        &["hero@b6", "trooper@h8"],
        &[("thermal_detonators", "true"), ("contest", "highest")],
    );
    begin(&mut g, 0);
    act(&mut g, "attack u0 u1");
    let ev = roll(&mut g, &[6, 2, 6, 6]);
    assert_eq!(compared(&ev), (8, 6, "attacker wins".to_string()));
}

/// Rebels: Force User u0 c3, troopers u1 a1, u2 a2, u3 b1; Empire: hero u4 c4, hero u5 h8.
fn morale_game(opts: &[(&str, &str)]) -> Swtb {
    let mut g = game(
        "",
        &["force_user@c3", "trooper@a1", "trooper@a2", "trooper@b1"],
        &["hero@c4", "hero@h8"],
        opts,
    );
    begin(&mut g, 1);
    act(&mut g, "attack u4 u0");
    g
}

// SWTB-O10: losing a Force User: 1d6 per remaining unit; more ones than sixes → surrender.
#[test]
fn swtb_o10_morale_after_losing_a_force_user() {
    let mut g = morale_game(&[("morale", "true")]);
    roll(&mut g, &[6, 6, 1, 1, 1]);
    assert_eq!(place(&g, 0), fallen("c3"));
    assert_eq!(
        g.now.phase,
        Phase::Morale {
            side: 0,
            left: 3,
            ones: 0,
            sixes: 0
        }
    );
    assert!(chance_what(&g).contains("morale"));
    let ev = roll(&mut g, &[1, 1, 6]);
    assert!(ev.contains(&Event::Morale {
        side: "Rebels".into(),
        ones: 2,
        sixes: 1,
        surrendered: true
    }));
    let r = g.result().expect("over");
    assert_eq!(
        (r.ranks, r.reason.as_str()),
        (vec![2, 1], "Rebels surrendered")
    );

    // As many sixes as ones: they fight on.
    let mut g = morale_game(&[("morale", "true")]);
    roll(&mut g, &[6, 6, 1, 1, 1]);
    let ev = roll(&mut g, &[1, 6, 3]);
    assert!(ev.contains(&Event::Morale {
        side: "Rebels".into(),
        ones: 1,
        sixes: 1,
        surrendered: false
    }));
    assert_eq!((g.now.phase.clone(), g.now.active), (Phase::Turn, 1));

    // Without the option, no roll.
    let mut g = morale_game(&[]);
    roll(&mut g, &[6, 6, 1, 1, 1]);
    assert_eq!(g.now.phase, Phase::Turn);
}

// SWTB-O10: reduced to half its starting numbers, an army rolls — once.
#[test]
fn swtb_o10_morale_when_reduced_by_half_once() {
    let mut g = game(
        "",
        &["trooper@a1", "trooper@b1", "trooper@c1", "trooper@d1"],
        &["hero@a5", "hero@b5", "hero@c5"],
        &[("morale", "true")],
    );
    begin(&mut g, 1);
    act(&mut g, "attack u4 u0");
    roll(&mut g, &[6, 6, 1]);
    assert_eq!(g.now.phase, Phase::Turn); // 3 of 4 left
    act(&mut g, "attack u5 u1");
    roll(&mut g, &[6, 6, 1]);
    assert_eq!(
        g.now.phase,
        Phase::Morale {
            side: 0,
            left: 2,
            ones: 0,
            sixes: 0
        }
    );
    roll(&mut g, &[2, 3]);
    assert_eq!(g.now.phase, Phase::Turn);
    act(&mut g, "attack u6 u2");
    roll(&mut g, &[6, 6, 1]);
    assert_eq!(g.now.phase, Phase::Turn); // already rolled for half
}

// ===== house rules =======================================================================

// House option `grid = hex` (DEFAULT square): six neighbours, so contact and movement change.
#[test]
fn house_grid_hex_changes_contact_and_moves() {
    let a: &[&str] = &["trooper@b1", "force_user@d3"];
    let b: &[&str] = &["trooper@e4", "trooper@d4", "trooper@h8"];
    let mut g = game("", a, b, &[]);
    assert_eq!(g.fixed.grid.kind, GridKind::Square);
    begin(&mut g, 0);
    allowed(&g, "move u0 c2"); // a diagonal neighbour on squares
    allowed(&g, "attack u1 u2");

    let mut g = game("", a, b, &[("grid", "hex")]);
    assert_eq!(g.fixed.grid.kind, GridKind::Hex);
    begin(&mut g, 0);
    refused(&mut g, "move u0 c2", "SWTB-U1"); // b1's neighbours on row 2 are a2 and b2
    allowed(&g, "move u0 b2");
    refused(&mut g, "attack u1 u2", "SWTB-5"); // e4 is two hexes from d3
    allowed(&g, "attack u1 u3"); // d4 touches d3

    let mut o = BTreeMap::new();
    o.insert("grid".to_string(), "hex".to_string());
    let s = Swtb::setup("outpost", &o).unwrap();
    assert_eq!(s.options.grid, GridKind::Hex);
    o.insert("grid".to_string(), "octagon".to_string());
    let e = Swtb::setup("outpost", &o).unwrap_err();
    assert_eq!(e.at, "option grid");
}

// House rules are listed as such, with their keys and defaults.
#[test]
fn house_options_are_marked_as_house_rules() {
    let info = Swtb::info();
    let house: Vec<(&str, &str)> = info
        .options
        .iter()
        .filter(|o| o.house_rule)
        .map(|o| (o.key.as_str(), o.default.as_str()))
        .collect();
    assert_eq!(
        house,
        vec![
            ("grid", "square"),
            ("contest", "total"),
            ("ties", "defender"),
            ("initiative", "best"),
            ("contact_powers", "true")
        ]
    );
    let mut o = BTreeMap::new();
    o.insert("nonsense".to_string(), "true".to_string());
    assert_eq!(
        Swtb::setup("outpost", &o).unwrap_err().at,
        "option nonsense"
    );
}

// ===== setup errors ======================================================================

#[test]
fn setup_errors_name_the_place() {
    let e = setup_error("", &["trooper@a1", "tie_bomber@b1"], &["trooper@h8"], &[]);
    assert_eq!(e.at, "scenario.sides[0].units[1].kind");
    assert!(e.message.contains("tie_bomber"));

    let e = setup_error("", &["trooper@a1"], &["trooper@i8"], &[]);
    assert_eq!(e.at, "scenario.sides[1].units[0].at");
    assert!(e.message.contains("off the board"));

    let e = setup_error("walls = [\"a9\"]", &["trooper@a1"], &["trooper@h8"], &[]);
    assert_eq!(e.at, "scenario.walls[0]");

    let e = setup_error("", &["trooper@a1", "hero@a1"], &["trooper@h8"], &[]);
    assert_eq!(e.at, "scenario.sides[0].units[1].at");

    let e = setup_error("walls = [\"h8\"]", &["trooper@a1"], &["trooper@h8"], &[]);
    assert_eq!(e.at, "scenario.sides[1].units[0].at");

    let e = setup_error(
        "",
        &["trooper@a1", "hero@b1:deflect_blasters"],
        &["trooper@h8"],
        &[],
    );
    assert_eq!(e.at, "scenario.sides[0].units[1].power");
}

#[test]
fn setup_toml_syntax_error_reports_file_line_col() {
    let text = "id = \"x\"\nname = \"y\"\nwidth = = 3\n";
    let e = Catalog::from_sources(UNITS_TOML, &[("mine.toml", text)]).unwrap_err();
    assert_eq!(e.at, "mine.toml:3:9", "{e}");

    // A unit table with a bad line.
    let units = format!("{UNITS_TOML}\n[broken\n");
    let lines = units.lines().count();
    let e = Catalog::from_sources(&units, &[]).unwrap_err();
    assert!(e.at.starts_with(&format!("units.toml:{lines}:")), "{e}");

    // A well-formed scenario with a bad unit kind names the file, line, column and path.
    let text = scenario_text(8, 8, 5, "", &["walker@a1"], &["trooper@h8"]);
    let e = Catalog::from_sources(UNITS_TOML, &[("bad.toml", &text)]).unwrap_err();
    let line = text.lines().position(|l| l.contains("walker")).unwrap() + 1;
    assert!(e.at.starts_with(&format!("bad.toml:{line}:")), "{e}");
    assert!(e.at.ends_with(": scenario.sides[0].units[0].kind"), "{e}");
}

// ===== our scenarios and goals ===========================================================

// The three scenarios are ours (the text has none) and are marked so.
#[test]
fn scenarios_are_ours() {
    let info = Swtb::info();
    let ids: Vec<&str> = info.scenarios.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(ids, vec!["outpost", "bunker", "skies"]);
    assert!(info.scenarios.iter().all(|s| s.ours));
    for s in &info.scenarios {
        let g = Swtb::new_game(&Swtb::setup(&s.id, &BTreeMap::new()).unwrap()).unwrap();
        assert_eq!(g.now.round, 1);
    }
}

// Reach goal (ours): a unit of the goal side ending a move on a goal cell wins at once.
#[test]
fn scenario_reach_goal_wins_on_the_move() {
    let goal = "[goal]\nkind = \"reach\"\nside = 0\ncells = [\"a8\"]";
    let mut g = game(goal, &["hero@a6"], &["trooper@h1"], &[]);
    begin(&mut g, 0);
    act(&mut g, "move u0 a8");
    let r = g.result().expect("over");
    assert_eq!(r.winners(), vec![0]);
    assert!(r.reason.contains("reached the objective"));
}

// Hold goal (ours): after the last round the goal side must hold the cells alone.
#[test]
fn scenario_hold_goal_after_the_last_round() {
    let goal = "[goal]\nkind = \"hold\"\nside = 0\ncells = [\"d4\"]";
    let mut g = Swtb::new_game(&setup_sized(
        8,
        8,
        1,
        goal,
        &["trooper@d4"],
        &["trooper@h8"],
        &[],
    ))
    .unwrap();
    begin(&mut g, 0);
    end(&mut g);
    end(&mut g);
    assert_eq!(g.result().expect("over").winners(), vec![0]);
    let mut g = Swtb::new_game(&setup_sized(
        8,
        8,
        1,
        goal,
        &["trooper@d3"],
        &["trooper@h8"],
        &[],
    ))
    .unwrap();
    begin(&mut g, 0);
    end(&mut g);
    end(&mut g);
    assert_eq!(g.result().expect("over").winners(), vec![1]);
}

// No goal (ours): after the last round the side with more points left wins; equal is a draw.
#[test]
fn scenario_round_limit_more_points_wins() {
    let mut g = Swtb::new_game(&setup_sized(
        8,
        8,
        1,
        "",
        &["hero@a1"],
        &["trooper@h8"],
        &[],
    ))
    .unwrap();
    begin(&mut g, 0);
    end(&mut g);
    end(&mut g);
    let r = g.result().expect("over");
    assert_eq!((r.winners(), r.scores), (vec![0], vec![3, 1]));
    let mut g = Swtb::new_game(&setup_sized(
        8,
        8,
        1,
        "",
        &["trooper@a1"],
        &["trooper@h8"],
        &[],
    ))
    .unwrap();
    begin(&mut g, 0);
    end(&mut g);
    end(&mut g);
    assert!(g.result().expect("over").is_shared());
}

// ===== bugs found by these tests, since fixed =============================================

// SWTB-F1 / SWTB-F5: "if they attack a ground unit move them adjacent to the ground unit".
// A flier that already hovers beside its target should be able to attack it from where it
// is. `Swtb::landing_cells` only accepts *empty* cells, and the flier's own cell is
// occupied by the flier itself, so here — the target in a corner with its other two
// neighbours taken — the fighter cannot make the ground attack at all.
#[test]
fn swtb_f1_bug_flier_already_adjacent_can_ground_attack_from_its_cell() {
    let mut g = game(
        "",
        &["fighter", "trooper@h8"],
        &["trooper@a1", "trooper@b1", "trooper@b2"],
        &[],
    );
    begin(&mut g, 0);
    act(&mut g, "move u0 a2"); // beside the trooper at a1
    end(&mut g);
    end(&mut g);
    begin(&mut g, 0);
    assert!(
        g.legal_actions().iter().any(|a| matches!(
            a,
            Action::Attack {
                unit: 0,
                target: 2,
                ..
            }
        )),
        "the ground attack on a1 is not offered"
    );
    let ev = act(&mut g, "attack u0 u2 from a2");
    assert_eq!(attack_kind(&ev), AttackKind::GroundAttack);
}

// Every option names its rule id (`OptionInfo.rule`); those ids should be ids of the
// SWTB list in rule-ids.md. The `grid` option names "SWTB-GRID", which is not in that list.
#[test]
fn option_rule_ids_are_registered_ids() {
    let ids = [
        "SWTB-1", "SWTB-2", "SWTB-3", "SWTB-4", "SWTB-5", "SWTB-6", "SWTB-F1", "SWTB-F2",
        "SWTB-F3", "SWTB-F4", "SWTB-F5", "SWTB-V1", "SWTB-V2", "SWTB-U1", "SWTB-U2", "SWTB-P",
        "SWTB-O1", "SWTB-O2", "SWTB-O3", "SWTB-O4", "SWTB-O5", "SWTB-O6", "SWTB-O7", "SWTB-O8",
        "SWTB-O9", "SWTB-O10",
    ];
    for o in Swtb::info().options {
        assert!(ids.contains(&o.rule.as_str()), "{}: {}", o.key, o.rule);
    }
}

// Bad data never overflows or panics: huge costs, zero attack dice, a big army under morale
// (SWTB-O10's "reduced by half" with more than 127 units), a stored state that points
// outside its game.
#[test]
fn extreme_data_is_refused_or_handled() {
    let mut s = setup("", &["trooper@a1"], &["trooper@h8"], &[("points", "true")]);
    s.unit_types.get_mut("trooper").unwrap().cost = u32::MAX;
    let e = Swtb::new_game(&s).unwrap_err();
    assert_eq!(e.at, "unit_types.trooper.cost");

    let mut s = setup("", &["trooper@a1"], &["trooper@h8"], &[]);
    s.unit_types.get_mut("hero").unwrap().attack_dice = Some(0);
    assert_eq!(
        Swtb::new_game(&s).unwrap_err().at,
        "unit_types.hero.attack_dice"
    );
    s.unit_types.get_mut("hero").unwrap().attack_dice = Some(30);
    assert_eq!(
        Swtb::new_game(&s).unwrap_err().at,
        "unit_types.hero.attack_dice"
    );

    // 130 troopers against one hero on a 26x10 mat, with morale: the first loss is far
    // from half, so no morale roll yet.
    let cells: Vec<String> = (0..130)
        .map(|i| format!("trooper@{}{}", (b'a' + (i % 26) as u8) as char, i / 26 + 1))
        .collect();
    let many: Vec<&str> = cells.iter().map(|s| s.as_str()).collect();
    let s = setup_sized(26, 10, 5, "", &many, &["hero@a10"], &[("morale", "true")]);
    let mut g = Swtb::new_game(&s).unwrap();
    begin(&mut g, 1);
    // The hero (u130) shoots the trooper at a5 (u104) straight down the a column.
    act(&mut g, "attack u130 u104");
    let ev = roll(&mut g, &[6, 6, 1]);
    assert!(eliminated(&ev, 104));
    assert_eq!(
        g.now.phase,
        battlemat_swtb::state::Phase::Turn,
        "no morale roll after 1 of 130"
    );

    // A stored state that points outside its game, or could not arise, is refused: a unit
    // type that does not exist, initiative owing no dice, a trooper holding a force power.
    let mut v = serde_json::to_value(&g).unwrap();
    v["now"]["units"][0]["kind"] = serde_json::json!(200);
    assert!(serde_json::from_value::<Swtb>(v).is_err());
    let mut v = serde_json::to_value(&g).unwrap();
    v["now"]["phase"] = serde_json::json!({"initiative": {"left": [0, 0], "best": [0, 0]}});
    assert!(serde_json::from_value::<Swtb>(v).is_err());
    let mut v = serde_json::to_value(&g).unwrap();
    v["now"]["units"][0]["power"] = serde_json::json!("force_choke");
    assert!(serde_json::from_value::<Swtb>(v).is_err());
    let v = serde_json::to_value(&g).unwrap();
    assert_eq!(serde_json::from_value::<Swtb>(v).unwrap(), g);
}

/// `battlemat odds swtb --attacker A --defender D`.
fn matchup(a: &str, d: &str) -> Result<battlemat_core::Odds, String> {
    let m: BTreeMap<String, String> = [("attacker", a), ("defender", d)]
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    battlemat_swtb::odds::matchup(&m)
}

// The odds command refuses attacks the rules forbid, naming the rule.
#[test]
fn swtb_6_matchup_odds_refuse_forbidden_attacks() {
    let p = matchup;
    assert!(p("trooper", "fighter").unwrap_err().contains("SWTB-6"));
    assert!(p("droid", "trooper").unwrap_err().contains("SWTB-U2"));
    assert!(p("aa_gun", "hero").unwrap_err().contains("SWTB-O8"));
    assert!(p("hero", "fighter").is_ok());
}

// SWTB-O1..O4: "Each Force User may select one of the following powers": with force powers
// on, a Force User the scenario gave no power has its side choose one before the first
// round; the dark side may not take Mind Trick, the light side not Force Choke.
#[test]
fn swtb_o1_each_force_user_selects_a_power() {
    let mut g = game(
        "",
        &["force_user@a1"],
        &["force_user@h8", "trooper@h1"],
        &[("force_powers", "true")],
    );
    assert!(matches!(g.to_act(), ToAct::Decide { seat: 0, .. }));
    let legal = g.legal_actions();
    assert_eq!(legal.len(), 3, "{legal:?}");
    refused(&mut g, "power u0 force_choke", "SWTB-O2");
    act(&mut g, "power u0 deflect_blasters");
    assert!(matches!(g.to_act(), ToAct::Decide { seat: 1, .. }));
    refused(&mut g, "power u1 mind_trick", "SWTB-O3");
    let ev = act(&mut g, "power u1 force_choke");
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::RoundStarted { round: 1 }))
    );
    assert_eq!(
        g.now.units[0].power,
        Some(battlemat_swtb::data::Power::DeflectBlasters)
    );
    assert_eq!(
        g.now.units[1].power,
        Some(battlemat_swtb::data::Power::ForceChoke)
    );
    assert!(
        matches!(g.to_act(), ToAct::Chance(_)),
        "initiative dice next"
    );
    // Without the option there is nothing to choose.
    let g = game("", &["force_user@a1"], &["force_user@h8"], &[]);
    assert!(matches!(g.to_act(), ToAct::Chance(_)));
}

// A mistake found after parsing (an unknown unit kind) is also placed at file:line:column.
#[test]
fn setup_semantic_error_reports_file_line_col() {
    let text = scenario_text(
        8,
        8,
        5,
        "",
        &["trooper@a1", "tie_bomber@b1"],
        &["trooper@h8"],
    );
    let e = Catalog::from_sources(UNITS_TOML, &[("mine.toml", &text)]).unwrap_err();
    let line = text.lines().position(|l| l.contains("tie_bomber")).unwrap() + 1;
    assert!(e.at.starts_with(&format!("mine.toml:{line}:")), "{e}");
    assert!(e.at.ends_with("scenario.sides[0].units[1].kind"), "{e}");
}

// ----- readings settled with ruleset version 2 ----------------------------------------------

// SWTB-O7, SWTB-F1: "Units defending from fortified positions add 1d6": a flier that
// ground-attacked onto a fortified cell hovers above it and gets no extra die; a ground
// unit on a fortified cell does.
#[test]
fn swtb_o7_a_flier_on_a_fortified_cell_defends_without_the_extra_die() {
    let mut g = game(
        "fortified = [\"b3\", \"a1\"]",
        &["fighter", "trooper@a1"],
        &["hero@c3"],
        &[("fortified", "true")],
    );
    begin(&mut g, 0);
    let ev = act(&mut g, "attack u0 u2 from b3");
    assert_eq!(place(&g, 0), field("b3"));
    assert_eq!(dice(&ev), (3, 2), "the hero on open ground: no extra die");
    roll(&mut g, &[1, 1, 1, 6, 6]);
    end(&mut g);
    // The hero attacks the fighter where it hovers, over the fortified cell.
    let ev = act(&mut g, "attack u2 u0");
    assert_eq!(
        dice(&ev),
        (2, 3),
        "the fighter defends with its own 3 dice only"
    );
    assert!(!g.fortified_defender(0));
    // A ground unit on a fortified cell does add the die.
    assert!(g.fortified_defender(1));
    assert_eq!(g.attack_dice(2, 1), (2, 2, false));
}

// SWTB-2 with SWTB-O2: a Force User that moved into contact may use Force Choke (range:
// adjacent) as the attack that moving into contact allows (option `contact_powers`).
#[test]
fn swtb_2_force_user_may_choke_or_trick_after_moving_into_contact() {
    let fp = [("force_powers", "true")];
    let mut g = game(
        "",
        &["trooper@d4", "trooper@a1"],
        &["force_user@d6:force_choke"],
        &fp,
    );
    begin(&mut g, 1);
    act(&mut g, "move u2 d5");
    allowed(&g, "choke u2 u0");
    refused(&mut g, "choke u2 u1", "SWTB-O2"); // not in contact: range adjacent
    let ev = act(&mut g, "choke u2 u0");
    assert!(eliminated(&ev, 0));
    refused(&mut g, "attack u2 u1", "SWTB-2"); // the attack that contact allowed is spent
    // SWTB-O3, the light side: Mind Trick after moving into contact.
    let mut g = game(
        "",
        &["force_user@d6:mind_trick"],
        &["trooper@d4", "trooper@h8"],
        &fp,
    );
    begin(&mut g, 0);
    act(&mut g, "move u0 d5");
    let ev = act(&mut g, "trick u0 u1");
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Defected { unit: 1, .. }))
    );
    assert_eq!(g.now.units[1].side, 0);
    assert_eq!(g.now.units[1].owner, Some(0), "it joins the user's seat");
    // A Force User that moved but not into contact may not use a power.
    let mut g = game("", &["trooper@d4"], &["force_user@h6:force_choke"], &fp);
    begin(&mut g, 1);
    act(&mut g, "move u1 g6");
    refused(&mut g, "choke u1 u0", "SWTB-2");
}

// SWTB-2: with `contact_powers = false`, only a weapon attack follows a move into contact.
#[test]
fn swtb_2_contact_powers_off_keeps_powers_to_unmoved_force_users() {
    let opts = [("force_powers", "true"), ("contact_powers", "false")];
    let mut g = game("", &["trooper@d4"], &["force_user@d6:force_choke"], &opts);
    begin(&mut g, 1);
    act(&mut g, "move u1 d5");
    refused(&mut g, "choke u1 u0", "SWTB-2");
    allowed(&g, "attack u1 u0");
    // Unmoved, the power is there.
    let mut g = game("", &["trooper@d4"], &["force_user@d5:force_choke"], &opts);
    begin(&mut g, 1);
    allowed(&g, "choke u1 u0");
}

// SWTB-1: "Highest roll wins": our reading is each side's best die; `initiative = sum`
// compares the sums of the sides' dice instead.
#[test]
fn swtb_1_initiative_sum_option_adds_each_sides_dice() {
    let sides = (["force_user@a1", "force_user@b1"], ["force_user@h8"]);
    let mut g = game("", &sides.0, &sides.1, &[("initiative", "sum")]);
    roll(&mut g, &[3, 3, 5]); // Rebels 3 + 3 = 6 against the Empire's 5
    assert_eq!(g.now.phase, Phase::ChooseFirst { winner: 0 });
    // The same dice under the default (best die): 3 against 5.
    let mut g = game("", &sides.0, &sides.1, &[]);
    roll(&mut g, &[3, 3, 5]);
    assert_eq!(g.now.phase, Phase::ChooseFirst { winner: 1 });
    // Sums tie and are rolled again.
    let mut g = game("", &sides.0, &sides.1, &[("initiative", "sum")]);
    let ev = roll(&mut g, &[2, 3, 5]);
    assert!(ev.contains(&Event::InitiativeTied));
}

// SWTB-O8, SWTB-6, SWTB-U2: `battlemat odds` judges the attack with the referee's own rules,
// so it gives the referee's reason and rule id, with the right articles.
#[test]
fn swtb_o8_matchup_odds_give_the_referees_reason_with_articles() {
    let p = matchup;
    let e = p("artillery", "speeder").unwrap_err();
    assert_eq!(e, "Artillery cannot fire at flying units (SWTB-O8)");
    let e = p("aa_gun", "hero").unwrap_err();
    assert_eq!(e, "AA Gun fires only at flying units (SWTB-O8)");
    assert!(p("trooper", "fighter").unwrap_err().ends_with("(SWTB-6)"));
    assert!(p("droid", "trooper").unwrap_err().ends_with("(SWTB-U2)"));
    assert!(p("aa_gun", "speeder").is_ok());
    // Options that do not change an attack's dice are accepted, and still checked.
    let with = |k: &str, v: &str| {
        let m: BTreeMap<String, String> = [("attacker", "hero"), ("defender", "trooper"), (k, v)]
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        battlemat_swtb::odds::matchup(&m)
    };
    assert!(with("points", "true").is_ok());
    assert!(with("force_powers", "true").is_ok());
    assert!(with("points", "banana").unwrap_err().contains("banana"));
    assert_eq!(battlemat_swtb::text::with_article("AA Gun"), "an AA Gun");
    assert_eq!(battlemat_swtb::text::with_article("Droid"), "a Droid");
    // A power's refusal names the target's type with its article.
    let mut g = game(
        "",
        &["droid@d4"],
        &["force_user@d5:force_choke", "trooper@h8"],
        &[("force_powers", "true")],
    );
    begin(&mut g, 1);
    let e = refused(&mut g, "choke u1 u0", "SWTB-O2");
    assert_eq!(e.reason, "ineffective against a Droid");
}

// SWTB-F1: every cell beside the target where a ground-attacking flier may end up is listed.
#[test]
fn swtb_f1_every_landing_cell_of_a_ground_attack_is_listed() {
    let mut g = game(
        "walls = [\"c4\"]",
        &["fighter", "trooper@a1"],
        &["trooper@d4"],
        &[],
    );
    begin(&mut g, 0);
    let lands: Vec<String> = g
        .legal_actions()
        .iter()
        .map(|a| a.to_string())
        .filter(|a| a.starts_with("attack u0 u2 from "))
        .collect();
    // The eight cells around d4, less the wall at c4.
    let want = ["c3", "d3", "e3", "e4", "c5", "d5", "e5"];
    assert_eq!(lands.len(), want.len(), "{lands:?}");
    for c in want {
        allowed(&g, &format!("attack u0 u2 from {c}"));
    }
    refused(&mut g, "attack u0 u2 from c4", "SWTB-F1");
}

// SWTB-O8: every trooper who may crew a gun is listed.
#[test]
fn swtb_o8_every_crew_of_a_gun_is_listed() {
    let mut g = game(
        "",
        &["trooper@b5"],
        &["artillery@e5", "trooper@e4", "trooper@e6"],
        &[("artillery", "true")],
    );
    begin(&mut g, 1);
    allowed(&g, "fire u1 u0 crew u2");
    allowed(&g, "fire u1 u0 crew u3");
    act(&mut g, "move u2 f3");
    refused(&mut g, "fire u1 u0 crew u2", "SWTB-O8"); // acted, and no longer beside it
    allowed(&g, "fire u1 u0 crew u3");
}

// Several players on a side (a house rule: the text is for two): a side's units are dealt
// to its seats; in the side's turn its seats act one after another, each with its own
// units; results are per seat.
#[test]
fn seats_several_players_share_a_side_and_take_its_turn_in_turn() {
    let mut s = setup(
        "",
        &["trooper@a1", "trooper@b1"],
        &["trooper@a8", "trooper@b8"],
        &[],
    );
    s.seating = Some(battlemat_core::Seating(vec![0, 1, 0, 1]));
    let mut g = Swtb::new_game(&s).unwrap();
    assert_eq!(g.seats(), 4);
    let owners: Vec<Option<u8>> = g.now.units.iter().map(|u| u.owner).collect();
    assert_eq!(owners, vec![Some(0), Some(2), Some(1), Some(3)]);
    begin(&mut g, 0);
    assert_eq!(seat(&g), 0);
    allowed(&g, "move u0 a2");
    let e = battlemat_core::testing::refused_by(&mut g, "move u1 b2", None);
    assert!(e.reason.contains("not yours"), "{e}");
    end(&mut g);
    assert_eq!((g.now.active, seat(&g)), (0, 2), "the side's second seat");
    allowed(&g, "move u1 b2");
    end(&mut g);
    assert_eq!(
        (g.now.active, seat(&g)),
        (1, 1),
        "the other side's first seat"
    );
    // The option: 4 seats dealt over the two sides.
    let o: BTreeMap<String, String> = [("seats".to_string(), "4".to_string())].into();
    let g4 = Swtb::new_game(&Swtb::setup("outpost", &o).unwrap()).unwrap();
    assert_eq!(g4.seats(), 4);
    let o: BTreeMap<String, String> = [("seats".to_string(), "0,0".to_string())].into();
    assert!(
        Swtb::setup("outpost", &o)
            .unwrap_err()
            .message
            .contains("side 1 has no seat")
    );
    // A seat resigns: its side concedes; both its seats lose, both others win.
    let ev = g.apply(&Step::Resign { seat: 3 }).unwrap();
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Resigned { seat: 3, .. }))
    );
    assert_eq!(g.result().unwrap().ranks, vec![1, 2, 1, 2]);
}

// Resigning: any seat, at any moment before the end (here, between two combat dice).
#[test]
fn resigning_concedes_for_the_seats_side() {
    let mut g = game("", &["hero@a1"], &["trooper@a3"], &[]);
    begin(&mut g, 0);
    act(&mut g, "attack u0 u1");
    roll(&mut g, &[6]);
    let before = g.clone();
    assert!(g.apply(&Step::Resign { seat: 2 }).is_err(), "no seat 2");
    assert_eq!(g, before);
    g.apply(&Step::Resign { seat: 0 }).unwrap();
    let r = g.result().unwrap();
    assert_eq!(r.ranks, vec![2, 1]);
    assert_eq!(r.reason, "Rebels resigned");
    assert!(
        g.apply(&Step::Roll { value: 3 }).is_err(),
        "the game is over"
    );
}

// Records made with version 1 of the rules replay unless they could differ (a flier on a
// fortified cell, SWTB-O7); otherwise replay names the release that replays them.
#[test]
fn version_1_records_replay_unless_fortified_fliers_could_differ() {
    use battlemat_core::{Record, ReplayError};
    let record = |extra: &str, a: &[&str], opts: &[(&str, &str)]| {
        let mut rec = Record::<Swtb>::new(setup(extra, a, &["trooper@a3"], opts));
        rec.version = "1".into();
        rec.steps.push(Step::Roll { value: 6 }); // no Force Users: one initiative die each
        rec
    };
    let fort = "fortified = [\"b2\"]";
    let on = [("fortified", "true")];
    // Nothing that changed can touch these: they replay under version 2.
    assert!(
        record("", &["hero@a1"], &on).replay().is_ok(),
        "no fortified cell"
    );
    assert!(record(fort, &["hero@a1"], &on).replay().is_ok(), "no flier");
    assert!(
        record(fort, &["fighter", "hero@a1"], &[]).replay().is_ok(),
        "option off"
    );
    // A flier, a fortified cell and the option: version 1 could differ; refused.
    let rec = record(fort, &["fighter", "hero@a1"], &on);
    match rec.replay() {
        Err(ReplayError::Version {
            found,
            current,
            why,
            ..
        }) => {
            assert_eq!((found.as_str(), current.as_str()), ("1", "2"));
            assert!(
                why.contains("battlemat 0.1.0 (git commit 91138a0)"),
                "{why}"
            );
        }
        other => panic!("{other:?}"),
    }
    let mut future = rec.clone();
    future.version = "3".into();
    assert!(matches!(future.replay(), Err(ReplayError::Version { .. })));
    let mut other = rec;
    other.ruleset = "sd-era".into();
    assert!(matches!(
        other.replay(),
        Err(ReplayError::WrongRuleset { .. })
    ));
}

// SWTB-O8 with shared sides: a fixed gun is dealt to no one; whichever of its side's seats
// has an adjacent trooper who has not acted fires it, with that trooper as the crew.
#[test]
fn swtb_o8_with_shared_sides_a_gun_is_fired_by_the_seat_that_crews_it() {
    let mut s = setup(
        "",
        &["trooper@b5", "trooper@a1"],
        &["artillery@e5", "trooper@e4", "trooper@e6"],
        &[("artillery", "true")],
    );
    s.seating = Some(battlemat_core::Seating(vec![0, 1, 0, 1]));
    let mut g = Swtb::new_game(&s).unwrap();
    let owners: Vec<Option<u8>> = g.now.units.iter().map(|u| u.owner).collect();
    assert_eq!(
        owners,
        vec![Some(0), Some(2), None, Some(1), Some(3)],
        "the gun is not dealt; the troopers are"
    );
    begin(&mut g, 1);
    assert_eq!(seat(&g), 1);
    allowed(&g, "fire u2 u0 crew u3");
    let e = battlemat_core::testing::refused_by(&mut g, "fire u2 u0 crew u4", None);
    assert!(e.reason.contains("not yours"), "{e}");
    let text = g.observe(battlemat_core::Viewer::Seat(1)).to_string();
    assert!(text.contains("(any seat that crews it)"), "{text}");
    assert!(text.contains("(seat 3)"), "{text}");
    // Seat 1 fires it; seat 3 cannot fire it again this turn.
    act(&mut g, "fire u2 u0 crew u3");
    roll(&mut g, &[1, 1, 6]);
    end(&mut g);
    assert_eq!(seat(&g), 3);
    refused(&mut g, "fire u2 u0 crew u4", "SWTB-2");
    // Seat 1's trooper is still not seat 3's to move.
    let e = battlemat_core::testing::refused_by(&mut g, "move u3 d4", None);
    assert!(e.reason.contains("not yours"), "{e}");
}

// SWTB-O8: artillery and AA guns are fixed; a unit table that gives a crewed gun a move is
// refused (a gun belongs to no seat, so a movable one could be moved by any).
#[test]
fn swtb_o8_a_crewed_gun_must_be_fixed_in_place() {
    let mut s = setup(
        "",
        &["trooper@b5"],
        &["artillery@e5", "trooper@e4"],
        &[("artillery", "true")],
    );
    Swtb::new_game(&s).unwrap();
    s.unit_types.get_mut("artillery").unwrap().r#move = 1;
    let e = Swtb::new_game(&s).unwrap_err();
    assert_eq!(e.at, "unit_types.artillery.move");
    assert!(e.message.contains("SWTB-O8"), "{e}");
}
