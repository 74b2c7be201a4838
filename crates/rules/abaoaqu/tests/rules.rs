//! One or more tests per rule of Battle for A-Bao-A-Qu, each named by its id (ABQ-n-m), on
//! small scenarios (`common`): counters placed on a "1234" map, the Federation (units
//! first) leading off. The text's worked examples are reproduced and quoted.
mod common;

use battlemat_abaoaqu::combat::{final_column, ratio_column};
use battlemat_abaoaqu::data::{Catalog, Class, Hit, Pilot};
use battlemat_abaoaqu::map::Layout;
use battlemat_abaoaqu::ranks::group_rank;
use battlemat_abaoaqu::state::{Declaring, Morale, Phase, Place, Stage};
use battlemat_abaoaqu::{AbaoAqu, Event};
use battlemat_core::Ruleset;
use battlemat_core::testing::{act, allowed, refused, roll};
use battlemat_core::{Game, Next};
use common::*;
use std::collections::BTreeMap;

fn at(g: &AbaoAqu, u: u16) -> String {
    match g.unit(u).at {
        Place::Hex(h) => g.hex_name(h),
        p => format!("{p:?}"),
    }
}

/// From the Federation's movement to Zeon's combat (the Federation neither moves nor fires).
fn to_zeon_combat(g: &mut AbaoAqu) {
    skip_moves(g);
    done(g);
    assert_eq!(g.now.stage, Stage::FollowCombat);
}

/// Is the action (as typed) in the listing?
fn offered(g: &AbaoAqu, a: &str) -> bool {
    let a: battlemat_abaoaqu::Action = a.parse().unwrap();
    g.legal_actions().contains(&a)
}

fn col(c: Option<u8>) -> &'static str {
    c.map_or("none", |c| battlemat_abaoaqu::combat::COLUMNS[c as usize])
}

// ---------------------------------------------------------------- Section 1, 2: map, units

#[test]
fn abq_1_boards_layouts_fortress_and_half_hexes() {
    // ABQ-1: "The half hexagons on the top edge of the map boards are treated as full
    // hexagons in the game. Each of the map boards is marked with a number."
    let l = Layout::named("1234").unwrap();
    assert_eq!((l.map.cols, l.map.rows), (68, 21));
    assert_eq!(l.fortress, (20, 21));
    assert_eq!(
        l.boards.iter().map(|b| b.0).collect::<Vec<_>>(),
        [1, 2, 3, 4]
    );
    // Column 2's top hex is a half hex: a whole hex, one from 0101 and from 0301.
    let h = l.map.parse("0201").unwrap();
    assert_eq!(l.map.distance(l.map.parse("0101").unwrap(), h), 1);
    assert_eq!(l.map.distance(l.map.parse("0301").unwrap(), h), 1);
    let q = Layout::named("41/32").unwrap();
    assert_eq!((q.map.cols, q.map.rows), (34, 42));
    assert_eq!(q.fortress, (20, 23));
    assert_eq!(
        q.boards.iter().map(|b| b.0).collect::<Vec<_>>(),
        [4, 1, 3, 2]
    );
    assert!(q.on_fortress(q.map.parse("0520").unwrap()));
    assert!(!q.on_fortress(q.map.parse("0524").unwrap()));
    assert!(Layout::named("12").is_err());
}

#[test]
fn abq_2_a_classes_and_abq_2_b_the_four_numbers() {
    // ABQ-2-A: "MS units include MS, fighters and cannon turrets ... Each ship unit piece
    // represent a ship." ABQ-2-B: movement, attack against MS, against ship, defence,
    // weapon type, pilot type.
    let cat = Catalog::builtin();
    let gd = &cat.units["GD"];
    assert_eq!(
        (gd.movement, gd.anti_ms, gd.anti_ship, gd.defence),
        (6, 6, 6, 8)
    );
    assert_eq!(gd.pilot, Pilot::N3);
    assert_eq!(cat.units["JI"].class, Class::Fighter);
    assert_eq!(cat.units["FB"].class, Class::Turret);
    assert_eq!(cat.units["SA"].class, Class::Ship);
    assert!(Class::Turret.is_ms_unit() && Class::Fighter.is_ms_unit() && !Class::Ship.is_ms_unit());
    let g = game(&["GD@1010", "GM@1011:S"], &["ZK@2010"]);
    let o = g.observe(battlemat_core::Viewer::Spectator);
    assert_eq!(o.units[0].values, "6-6-6-8");
    assert_eq!(o.units[0].pilot, "N3");
    assert_eq!(o.units[1].pilot, "S");
}

#[test]
fn abq_2_c_confused_and_panic_markers_are_shown() {
    // ABQ-2-C: "there are three indicator types: BD ..., C (confused) and D (panic)."
    let mut g = game(&["GM@1010"], &["ZK@2010"]);
    g.unit_mut(0).morale = Morale::Confused;
    g.unit_mut(1).morale = Morale::Panic;
    let text = g.observe(battlemat_core::Viewer::Spectator).to_string();
    assert!(
        text.contains("GM u0 0-5-4-3 C") || text.contains("u0 5-5-4-3 C"),
        "{text}"
    );
    assert!(text.contains("u1 5-5-3-2 D"), "{text}");
}

#[test]
fn abq_units_every_code_of_the_unit_type_table_is_a_counter() {
    // ABQ-UNITS: the unit type table's symbols (FC as the three kinds of turret).
    let cat = Catalog::builtin();
    for code in [
        "GD", "CT", "GF", "GM", "BL", "ZI", "ZK", "RD", "GE", "GC", "RZ", "RR", "BG", "BR", "EL",
        "BB", "PA", "TM", "GA", "JI", "FB", "FN", "FM", "WB", "WJ", "MA", "SA", "GU", "DO", "CH",
        "ZA", "MU", "SM",
    ] {
        assert!(cat.units.contains_key(code), "{code}");
    }
    for code in ["GD", "ZI", "BG", "EL", "BB"] {
        assert_eq!(cat.units[code].class, Class::Ms, "{code}");
    }
    for code in ["PA", "TM", "GA", "JI"] {
        assert_eq!(cat.units[code].class, Class::Fighter, "{code}");
    }
    for code in ["WB", "WJ", "MA", "SA", "GU", "DO", "CH", "ZA", "MU"] {
        assert_eq!(cat.units[code].class, Class::Ship, "{code}");
    }
    // The values the worked examples fix (rulings.md).
    let v = |c: &str| {
        let k = &cat.units[c];
        (k.anti_ms, k.anti_ship, k.defence)
    };
    assert_eq!(v("ZK"), (5, 3, 2));
    assert_eq!(v("RD").0, 5);
    assert_eq!(v("RD").2, 3);
    assert_eq!(v("GE").0, 6);
    assert_eq!(v("GM").0, 5);
    assert_eq!(v("ZI").0, 7);
    assert_eq!(v("BL"), (4, 3, 2));
    assert_eq!(v("JI").0, 2);
    assert_eq!(v("SA").0, 3);
    assert_eq!(
        (cat.units["SM"].anti_ms, cat.units["SM"].anti_ship),
        (10, 20)
    );
}

// ---------------------------------------------------------------- Section 3: the turn

#[test]
fn abq_3_1_two_to_six_players_each_moving_their_own_counters() {
    // ABQ-3-1: "This game can be played by 2-6 people, one side playing the Feds, the other
    // playing the Zeon."
    let six: BTreeMap<String, String> = [("seats".to_string(), "6".to_string())].into();
    let s = AbaoAqu::setup("a_bao_a_qu", &six).unwrap();
    let g = AbaoAqu::new_game(&s).unwrap();
    assert_eq!(g.seats(), 6);
    // Seats 0, 2, 4 play the Federation and share its counters in turn.
    let seats: Vec<u8> = g
        .now
        .units
        .iter()
        .filter(|x| x.side == 0)
        .take(6)
        .map(|x| x.seat)
        .collect();
    assert_eq!(seats, [0, 2, 4, 0, 2, 4]);
    let seven: BTreeMap<String, String> = [("seats".to_string(), "7".to_string())].into();
    assert!(AbaoAqu::setup("a_bao_a_qu", &seven).is_err());
    // S4 is for two.
    let four: BTreeMap<String, String> = [("seats".to_string(), "4".to_string())].into();
    assert!(AbaoAqu::setup("s_field_reduced", &four).is_err());
    // With four seats, seat 2 moves its own counter after seat 0 has moved its.
    let mut g = AbaoAqu::new_game(&{
        let mut s = setup_with(&["GM@1010", "GM@1110"], &["ZK@3010", "ZK@3110"], None, &[]);
        s.seating = battlemat_core::Seating::dealt(4, 2);
        s
    })
    .unwrap();
    for h in ["1010", "1110", "3010", "3110"] {
        act(&mut g, &format!("place {h}"));
    }
    assert!(matches!(g.now.phase, Phase::Move { seat: 0, unit: 0 }));
    act(&mut g, "hold");
    assert!(matches!(g.now.phase, Phase::Move { seat: 2, unit: 1 }));
}

#[test]
fn abq_3_2_and_3_3_the_ten_phases_lead_off_damage_waits_for_the_damage_check() {
    // ABQ-3-3: "(3) 'Lead-off' side combat phase: Attacks on enemy units are made. Enemy
    // units receiving attacks can return fire in the next 'Follow-up' side's combat phase.
    // ... (5) The damages for units receiving attacks during (3) are determined here."
    let mut g = game(&["GD@1010"], &["ZI@1110"]);
    assert_eq!((g.now.turn, g.lead(), g.now.stage), (1, 0, Stage::Movement));
    skip_moves(&mut g);
    assert_eq!(g.now.stage, Stage::LeadCombat);
    let a = declare(&mut g, "1010", &[0], "1110", "shoot u1");
    // 6 - 1 = 5 : 8 → 1:2, raised by the ranks' difference (N3 against N2).
    assert_eq!(column(&a), "1:1");
    act(&mut g, "fire");
    // No die yet: the attack waits for the damage check.
    assert!(matches!(g.next(), Next::Decide(0)));
    assert_eq!(g.now.pending.len(), 1);
    done(&mut g);
    // ABQ-3-3 (4): the Zeong, whatever the Gundam did to it, fires back and its die is
    // rolled at once: 7 - 1 = 6 : 8 → 1:2, lowered a rank → 1:3.
    assert_eq!(g.now.stage, Stage::FollowCombat);
    declare(&mut g, "1110", &[1], "1010", "shoot u0");
    act(&mut g, "fire");
    assert!(matches!(g.next(), Next::Chance(_)));
    roll(&mut g, &[6]);
    done(&mut g);
    // (5): the Gundam's die.
    assert_eq!(g.now.stage, Stage::DamageCheck);
    let ev = roll(&mut g, &[6]);
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Result {
            unit: 1,
            hit: Hit::Panic,
            ..
        }
    )));
    // Then the second half: Zeon leads off (ABQ-3-3: "the initial 'follow-up' side becoming
    // the new 'lead-off side'").
    assert_eq!((g.now.half, g.lead()), (1, 1));
}

// ---------------------------------------------------------------- Section 4: movement

#[test]
fn abq_4_1_no_unit_has_to_move() {
    // ABQ-4-1: "There is no requirement to move any unit."
    let mut g = game(&["GM@1010", "GM@1210"], &["ZK@3010"]);
    act(&mut g, "done");
    assert_eq!(g.now.stage, Stage::LeadCombat);
    assert_eq!(at(&g, 0), "1010");
    assert_eq!(at(&g, 1), "1210");
}

#[test]
fn abq_4_2_one_movement_point_a_hex_in_any_direction() {
    // ABQ-4-2: "One movement point is required for each hexagon moved." A GM has 5.
    let mut g = game(&["GM@1010"], &["ZK@3010"]);
    allowed(&g, "move 1510");
    allowed(&g, "move 1005");
    refused(&mut g, "move 1610", "ABQ-4-2");
    refused(&mut g, "move 1004", "ABQ-4-2");
    act(&mut g, "move 1510");
    assert_eq!(at(&g, 0), "1510");
}

#[test]
fn abq_4_3_points_are_not_saved_or_passed_on() {
    // ABQ-4-3: "You cannot transfer movement points to any other units nor can you save up
    // unused movement points for later use." A unit moves once, to one hex, per phase.
    let mut g = game(&["GM@1010", "BL@2010"], &["ZK@4010"]);
    act(&mut g, "move 1110");
    // The next counter is asked; the GM is not asked again this phase.
    assert!(matches!(g.now.phase, Phase::Move { unit: 1, .. }));
    refused(&mut g, "move 2510", "ABQ-4-2"); // the Ball moves 4, not 4 + the GM's 4 left
}

#[test]
fn abq_4_4_turrets_never_move() {
    // ABQ-4-4: "The cannon turrets/units with no movement points cannot be moved once
    // positioned on the game board."
    let mut g = game(&["GM@1010"], &["FB@1020", "ZK@3010"]);
    skip_moves(&mut g);
    done(&mut g);
    done(&mut g);
    // Zeon's half: only the Zaku is asked.
    roll_until_decision(&mut g);
    assert_eq!(g.lead(), 1);
    assert!(
        matches!(g.now.phase, Phase::Move { unit: 2, .. }),
        "{:?}",
        g.now.phase
    );
    assert!(!g.can_move(1, 1));
}

fn roll_until_decision(g: &mut AbaoAqu) {
    while let Next::Chance(_) = g.next() {
        roll(g, &[6]);
    }
}

#[test]
fn abq_4_5_up_to_six_of_your_units_in_a_hex() {
    // ABQ-4-5: "Up to six of your own units can be placed on a single hexagon." (Four MS
    // units and two ships, ABQ-5-2.)
    let g = game(
        &[
            "GM@1010", "GM@1010", "BL@1010", "BL@1010", "SA@1010", "SA@1010",
        ],
        &["ZK@3010"],
    );
    assert_eq!(
        g.in_hex(g.fixed.layout.map.parse("1010").unwrap()).count(),
        6
    );
}

#[test]
fn abq_4_6_moving_onto_an_enemy_allows_close_combat() {
    // ABQ-4-6: "If an unit is placed on a hexagon occupied by an enemy, close combat attack
    // becomes available in addition to the normal attack."
    let mut g = game(&["GM@1010"], &["ZK@1310"]);
    act(&mut g, "move 1310");
    assert_eq!(g.now.stage, Stage::LeadCombat);
    act(&mut g, "from 1310");
    act(&mut g, "with u0");
    act(&mut g, "target 1310");
    allowed(&g, "shoot u1");
    allowed(&g, "close u1");
}

// ---------------------------------------------------------------- Section 5: stacks

#[test]
fn abq_5_1_and_5_2_four_ms_units_and_two_ships_a_hex() {
    // ABQ-5-2: "On any one hexagon, 4 friendly MS units and two friendly ships can be
    // stacked." A fifth MS unit (or third ship) cannot be set up there.
    let s = setup_with(
        &[
            "GM@1010", "GM@1010", "GM@1010", "JI@1010", "BL@1010", "SA@1010", "SA@1010", "SA@1010",
        ],
        &["ZK@3010"],
        None,
        &[],
    );
    let mut g = AbaoAqu::new_game(&s).unwrap();
    for _ in 0..4 {
        act(&mut g, "place 1010");
    }
    refused(&mut g, "place 1010", "ABQ-5-2");
    act(&mut g, "place 1011");
    act(&mut g, "place 1010");
    act(&mut g, "place 1010");
    refused(&mut g, "place 1010", "ABQ-5-2");
}

#[test]
fn abq_5_3_both_sides_stack_together_up_to_twelve() {
    // ABQ-5-3: "a maximum of 12 units can occupy a single hexagon."
    let g = game(
        &[
            "GM@1010", "GM@1010", "GM@1010", "GM@1010", "SA@1010", "SA@1010",
        ],
        &[
            "ZK@1010", "ZK@1010", "ZK@1010", "ZK@1010", "MU@1010", "MU@1010",
        ],
    );
    assert_eq!(
        g.in_hex(g.fixed.layout.map.parse("1010").unwrap()).count(),
        12
    );
}

#[test]
fn abq_5_4_stacked_with_the_enemy_both_attacks_are_possible() {
    // ABQ-5-4: "When an unit is stacked on to a hexagon occupied by the enemy, both
    // long-range attack and close combat become possible for certain units."
    let mut g = game(&["GM@1010", "SA@1010"], &["ZK@1010"]);
    skip_moves(&mut g);
    act(&mut g, "from 1010");
    act(&mut g, "with u0");
    act(&mut g, "with u1");
    act(&mut g, "target 1010");
    allowed(&g, "shoot u2");
    allowed(&g, "close u2");
}

#[test]
fn abq_5_5_and_5_6_stacks_checked_after_moving_the_owner_removes() {
    // ABQ-5-5: "The stack limit does not apply while movements are being completed."
    // ABQ-5-6: "the player's offending units are removed ... decided by the offending player."
    let mut g = game(
        &[
            "GM@1010", "GM@1010", "GM@1010", "GM@1010", "BL@1210", "BL@1410",
        ],
        &["ZK@3010"],
    );
    for _ in 0..4 {
        act(&mut g, "hold");
    }
    act(&mut g, "move 1010"); // five MS units in 1010, for now
    act(&mut g, "move 1010"); // six
    assert!(matches!(g.now.phase, Phase::Remove { side: 0, .. }));
    refused(&mut g, "remove u6", "ABQ-5-6"); // the Zaku is not theirs
    act(&mut g, "remove u4");
    assert!(matches!(g.now.phase, Phase::Remove { .. }));
    act(&mut g, "remove u0");
    assert_eq!(g.now.stage, Stage::LeadCombat);
    assert_eq!(g.unit(0).at, Place::Gone);
    assert_eq!(g.unit(4).at, Place::Gone);
}

// ---------------------------------------------------------------- Section 6: combat

#[test]
fn abq_6_1_shooting_and_close_combat_close_only_when_stacked() {
    // ABQ-6-1: "Close combat occurs only when the units involved are stacked together."
    let mut g = game(&["GM@1010"], &["ZK@1110"]);
    skip_moves(&mut g);
    act(&mut g, "from 1010");
    act(&mut g, "with u0");
    act(&mut g, "target 1110");
    allowed(&g, "shoot u1");
    refused(&mut g, "close u1", "ABQ-9-1");
}

#[test]
fn abq_6_2_each_side_attacks_in_both_halves_of_a_turn() {
    // ABQ-6-2: "each side gets two opportunities for attacking ... Once during the
    // 'lead-off' initiated phases and once during the 'follow-up' initiated phases."
    let mut g = game(&["GM@1010"], &["ZK@1310"]);
    skip_moves(&mut g);
    act(&mut g, "from 1010"); // the Federation, leading off
    act(&mut g, "cancel");
    done(&mut g);
    done(&mut g); // Zeon, following up
    roll_until_decision(&mut g);
    // Second half: Zeon leads off, the Federation follows up and may fire again.
    skip_moves(&mut g);
    done(&mut g);
    assert_eq!((g.now.stage, g.firing_side()), (Stage::FollowCombat, 0));
    allowed(&g, "from 1010");
}

#[test]
fn abq_6_3_in_the_same_hex_shoot_or_close() {
    // ABQ-6-3: "you can choose to use a long-range attack or close combat".
    let mut g = game(&["GM@1010"], &["ZK@1010"]);
    skip_moves(&mut g);
    act(&mut g, "from 1010");
    act(&mut g, "with u0");
    act(&mut g, "target 1010");
    allowed(&g, "shoot u1");
    allowed(&g, "close u1");
}

#[test]
fn abq_6_4_a_stack_is_attacked_unit_by_unit_or_as_a_group() {
    // ABQ-6-4: "the attack can be carried out on a specific enemy unit or on the whole group."
    let mut g = game(&["GD@1010"], &["ZK@1110", "RD@1110", "MU@1110"]);
    skip_moves(&mut g);
    act(&mut g, "from 1010");
    act(&mut g, "with u0");
    act(&mut g, "target 1110");
    allowed(&g, "shoot u1");
    allowed(&g, "shoot u2");
    allowed(&g, "shoot ms");
    refused(&mut g, "shoot ships", "ABQ-7-1"); // one ship is no group
}

// ---------------------------------------------------------------- Section 7: shooting

#[test]
fn abq_7_1_anti_ms_against_ms_anti_ship_against_ships() {
    // ABQ-7-1: "Either the anti-MS or anti-Ship attacking point must be used depending on
    // the enemy unit type." A Zaku (5 anti-MS, 3 anti-ship) next to a Ball (defence 2) and
    // a Salamis (defence 8).
    let mut g = game(&["BL@1110", "SA@1110"], &["ZK@1010"]);
    to_zeon_combat(&mut g);
    assert_eq!(
        column(&declare(&mut g, "1010", &[2], "1110", "shoot u0")),
        "2:1"
    ); // 4:2
    act(&mut g, "cancel");
    // 2:8 is worse than 1:3: no effect, so not offered and refused (ABQ-7-5).
    act(&mut g, "from 1010");
    act(&mut g, "with u2");
    act(&mut g, "target 1110");
    assert!(!offered(&g, "shoot u1"));
    refused(&mut g, "shoot u1", "ABQ-7-5");
}

#[test]
fn abq_7_2_one_point_off_per_hex_of_range() {
    // ABQ-7-2: "one point is subtracted from the attacking point for every hexagon
    // separating the attacking unit and the enemy unit." GM 5 against a Rick Dom (3).
    let mut g = game(&["GM@1010"], &["RD@1210", "RD@1410", "RD@1510"]);
    skip_moves(&mut g);
    assert_eq!(
        column(&declare(&mut g, "1010", &[0], "1210", "shoot u1")),
        "1:1"
    ); // 3:3
    act(&mut g, "cancel");
    assert_eq!(
        column(&declare(&mut g, "1010", &[0], "1410", "shoot u2")),
        "1:3"
    ); // 1:3
    act(&mut g, "cancel");
    // Five hexes: nothing left.
    act(&mut g, "from 1010");
    act(&mut g, "with u0");
    refused(&mut g, "target 1510", "ABQ-7-2");
    act(&mut g, "cancel");
    // Nothing in reach at all: no attack from there.
    let mut far = game(&["GM@1010"], &["RD@1610"]);
    skip_moves(&mut far);
    refused(&mut far, "from 1010", "ABQ-6-2");
}

#[test]
fn abq_7_3_doubled_in_the_same_hex() {
    // ABQ-7-3: "Long-range attack can also be carried out on an enemy occupying the same
    // hexagon ... the attacking point is doubled." GM 5 × 2 = 10 against a Rick Dom's 3.
    let mut g = game(&["GM@1010"], &["RD@1010"]);
    skip_moves(&mut g);
    assert_eq!(
        column(&declare(&mut g, "1010", &[0], "1010", "shoot u1")),
        "3:1"
    );
}

#[test]
fn abq_7_4_the_ratio_the_die_and_the_table() {
    // ABQ-7-4: "the ratio of the attacking point to the defending point is first
    // calculated. The dice are then thrown and use the results to refer to the long-range
    // shooting table." 2:1 (our table): 1-2 nothing, 3-4 confused, 5 panic, 6 destroyed.
    let t = &Catalog::builtin().tables;
    let two = 3;
    let row: Vec<Hit> = (1..=6).map(|d| t.shooting_hit(d, two)).collect();
    assert_eq!(
        row,
        [
            Hit::None,
            Hit::None,
            Hit::Confused,
            Hit::Confused,
            Hit::Panic,
            Hit::Destroyed
        ]
    );
    let mut g = game(&["BL@1110"], &["ZK@1010"]);
    to_zeon_combat(&mut g);
    declare(&mut g, "1010", &[1], "1110", "shoot u0");
    act(&mut g, "fire");
    roll(&mut g, &[3]);
    assert_eq!(g.unit(0).morale, Morale::Confused);
}

#[test]
fn abq_7_5_rounded_in_favour_of_the_defence() {
    // ABQ-7-5: "always round the numbers to whole numbers in favour of the defence."
    let c = |a, d| col(final_column(a, d, 0));
    assert_eq!(c(3, 2), "1:1");
    assert_eq!(c(4, 5), "1:2");
    assert_eq!(c(5, 2), "2:1");
    assert_eq!(c(7, 8), "1:2");
    assert_eq!(c(1, 3), "1:3");
    assert_eq!(c(1, 4), "none");
    assert_eq!(c(30, 2), "7:1");
    assert_eq!(ratio_column(5, 3), 2);
}

#[test]
fn abq_7_6_confused_plus_one_panic_plus_two() {
    // ABQ-7-6: "If the unit being attacked is in a confused C or panic D state, the dice
    // resulted is amended by adding +1 and +2 respectively." At 1:1 a 5 confuses a steady
    // unit; +1 makes a confused one's 5 a 6 (panic: destroyed, as any result on D is).
    let mut g = game(&["GM@1210", "GM@1211"], &["RD@1010"]);
    g.unit_mut(1).morale = Morale::Confused;
    to_zeon_combat(&mut g);
    declare(&mut g, "1010", &[2], "1211", "shoot u1"); // 5 - 2 = 3 : 3
    act(&mut g, "fire");
    roll(&mut g, &[5]); // 5 + 1 = 6 on 1:1: panic; confused → panic
    assert_eq!(g.unit(1).morale, Morale::Panic);
    let t = &Catalog::builtin().tables;
    assert_eq!(t.shooting_hit(4, 2), Hit::Confused);
    assert_eq!(t.shooting_hit(4 + 2, 2), Hit::Panic);
}

#[test]
fn abq_7_7_the_gelgoog_and_the_ball() {
    // ABQ-7-7: "Attacking side MS Gelgoog (attack point 6) Defending side Ball (defence
    // point 2) Distance between the Gelgoog and the Ball is three hexagons. Attack point 6
    // minus 3 distance points = 3 the effective attack value. The attack to defence ratio is
    // 3:2 which is then rounded in favour of the defence to become 1:1."
    let mut g = game(&["BL@1310"], &["GE@1010"]);
    to_zeon_combat(&mut g);
    let a = declare(&mut g, "1010", &[1], "1310", "shoot u0");
    assert_eq!(column(&a), "1:1");
}

// ---------------------------------------------------------------- Section 8: stacks in combat

#[test]
fn abq_8_1_one_attack_one_hex() {
    // ABQ-8-1: "One attack only applies to a single hexagon." Attackers come from one hex
    // (8-2: "the units in a stack") and aim at one.
    let mut g = game(&["GM@1010", "GM@1012"], &["ZK@1110", "ZK@1111"]);
    skip_moves(&mut g);
    act(&mut g, "from 1010");
    refused(&mut g, "with u1", "ABQ-8-2");
    act(&mut g, "with u0");
    act(&mut g, "target 1110");
    refused(&mut g, "shoot u3", "ABQ-8-1"); // in 1111, not the target hex
}

#[test]
fn abq_8_2_a_two_attackers_against_one() {
    // ABQ-8-2 (a): "Two stacked attacking units (A[AP=5] & B[AP=4]) vs one defending unit
    // (X[DE=3]) distance 3 hexagons. Effective attacking value of A = 5-3=2 B = 4-3 = 1
    // Combined effective attacking value = 2+1 = 3 Attack to defence ratio is 3:3 = 1:1".
    let mut g = game(&["GM@1010", "BL@1010"], &["RD@1310"]);
    skip_moves(&mut g);
    let a = declare(&mut g, "1010", &[0, 1], "1310", "shoot u2");
    assert_eq!(column(&a), "1:1");
    assert_eq!(a.attackers, [0, 1]);
}

#[test]
fn abq_8_2_b_one_attacker_against_two() {
    // ABQ-8-2 (b): "A single attacking unit X[AP=6] vs two stacked defending units (A[DE=3]
    // & B[DE=2]) distance two hexagons. Effective attacking value = 6-2 = 4 Combined defence
    // value is 3+2=5 Attack to defence ratio is 4:5 which is rounded in favour of the
    // defence to 1:2".
    let mut g = game(&["GM@1210", "BL@1210"], &["GE@1010"]);
    to_zeon_combat(&mut g);
    let a = declare(&mut g, "1010", &[2], "1210", "shoot ms");
    assert_eq!(column(&a), "1:2");
    assert_eq!(a.targets, [0, 1]);
}

#[test]
fn abq_8_3_one_shot_and_one_close_attack_a_phase() {
    // ABQ-8-3: "A defending unit can only receive one shooting attack in a phase from a
    // particular attacker but it is possible for it to receive both a shooting attack and a
    // close range attack in one phase from the same attacker."
    let mut g = game(&["GM@1010"], &["ZK@1010"]);
    skip_moves(&mut g);
    declare(&mut g, "1010", &[0], "1010", "shoot u1");
    act(&mut g, "fire");
    act(&mut g, "from 1010");
    act(&mut g, "with u0");
    act(&mut g, "target 1010");
    refused(&mut g, "shoot u1", "ABQ-7-1");
    act(&mut g, "close u1");
    act(&mut g, "fire");
    refused(&mut g, "from 1010", "ABQ-6-2");
    assert_eq!(g.now.pending.len(), 2);
}

#[test]
fn abq_8_4_friends_in_a_group_are_hit_too() {
    // ABQ-8-4: "When attacking a stack as a group (consisting of both enemy and friendly
    // units), the friendly units are affected in the same way as the enemy units".
    let mut g = game(&["GM@1110"], &["ZK@1110", "RD@1010"]);
    to_zeon_combat(&mut g);
    let a = declare(&mut g, "1010", &[2], "1110", "shoot ms");
    assert_eq!(a.targets, [0, 1]); // the GM and Zeon's own Zaku
    act(&mut g, "fire");
    roll(&mut g, &[6]);
    assert_ne!(g.unit(1).morale, Morale::Normal);
}

// ---------------------------------------------------------------- Section 9: close combat

#[test]
fn abq_9_1_close_combat_only_in_the_same_hex() {
    // ABQ-9-1: "Close combat occurs only when the attacker and the defender are stacked
    // together on the same hexagon."
    let mut g = game(&["GM@1010"], &["ZK@1110"]);
    skip_moves(&mut g);
    act(&mut g, "from 1010");
    act(&mut g, "with u0");
    act(&mut g, "target 1110");
    refused(&mut g, "close u1", "ABQ-9-1");
}

#[test]
fn abq_9_2_close_combat_twice_a_turn() {
    // ABQ-9-2: "Close combat ... can be carried out twice in any one inning/turn."
    let mut g = game(&["GM@1010"], &["DO@1010"]);
    skip_moves(&mut g);
    declare(&mut g, "1010", &[0], "1010", "close u1");
    act(&mut g, "fire");
    assert!(g.unit(0).closed);
    done(&mut g);
    done(&mut g);
    roll_until_decision(&mut g);
    skip_moves(&mut g); // Zeon's movement (the Doros holds)
    done(&mut g); // Zeon's lead-off combat
    assert_eq!(g.firing_side(), 0);
    declare(&mut g, "1010", &[0], "1010", "close u1");
}

#[test]
fn abq_9_3_only_mobile_suits_start_close_combat_others_defend() {
    // ABQ-9-3: "Close combat is only possible by mobile suits ... excludes ... fighters,
    // cannon turrets. However all these excluded units and ships can defend".
    let mut g = game(&["JI@1010", "SA@1010", "GM@1020"], &["FB@1020", "ZK@1010"]);
    skip_moves(&mut g);
    act(&mut g, "from 1010");
    act(&mut g, "with u0");
    act(&mut g, "with u1");
    act(&mut g, "target 1010");
    refused(&mut g, "close u4", "ABQ-7-1");
    act(&mut g, "cancel");
    // A mobile suit closes with a turret.
    let a = declare(&mut g, "1020", &[2], "1020", "close u3");
    assert!(a.close);
    assert_eq!(column(&a), "2:1"); // 2 × 5 : 4
}

#[test]
fn abq_9_4_a_ship_screened_by_its_mobile_suits() {
    // ABQ-9-4: "An enemy ship stacked with enemy mobile suits, cannot be attacked by close
    // combat."
    let mut g = game(&["GM@1010", "GM@1210"], &["MU@1010", "ZK@1010", "MU@1210"]);
    skip_moves(&mut g);
    act(&mut g, "from 1010");
    act(&mut g, "with u0");
    act(&mut g, "target 1010");
    refused(&mut g, "close u2", "ABQ-9-4");
    act(&mut g, "cancel");
    let a = declare(&mut g, "1210", &[1], "1210", "close u4");
    assert!(a.close);
}

#[test]
fn abq_9_5_a_ms_against_ms_and_the_balls_halved_attack() {
    // ABQ-9-5 (a): "The combat ratio is the Anti-MS attack point : Anti-MS attack point
    // Exception: Ball attacks MS. The attack point of the Ball is reduced by half".
    let mut g = game(&["GM@1010", "BL@1210"], &["RD@1010", "ZK@1210"]);
    skip_moves(&mut g);
    // 5:5 → 1:1 (the close combat table is read a column to the attacker's favour).
    assert_eq!(
        column(&declare(&mut g, "1010", &[0], "1010", "close u2")),
        "1:1"
    );
    act(&mut g, "cancel");
    let a = declare(&mut g, "1210", &[1], "1210", "close u3"); // 4/2 = 2 : 5 → 1:3, close +1 → 1:2
    assert_eq!(a.column.map(|c| c as i32), Some(ratio_column(2, 5)));
}

#[test]
fn abq_9_5_b_ms_against_fighters() {
    // ABQ-9-5 (b): "2x Anti-MS attack point : Anti-MS attack point Example: GM vs Jikko (JI)
    // 2x 5 : 2 thus 10 : 2 = 5 : 1".
    let mut g = game(&["GM@1010"], &["JI@1010"]);
    skip_moves(&mut g);
    let a = declare(&mut g, "1010", &[0], "1010", "close u1");
    assert_eq!(a.column, final_column(10, 2, 0));
    assert_eq!(column(&a), "5:1");
}

#[test]
fn abq_9_5_c_ms_against_ships_and_the_doros() {
    // ABQ-9-5 (c): "2x Anti-ship attack point : Anti-MS attack point Example: Zaku vs
    // Salamis 2x3 : 3 thus 6 : 3 = 2 : 1 Exception: MS vs Doros ... the standard defence
    // point is used".
    let mut g = game(&["SA@1010", "GM@1210"], &["ZK@1010", "DO@1210"]);
    to_zeon_combat(&mut g);
    let a = declare(&mut g, "1010", &[2], "1010", "close u0");
    assert_eq!(a.column, final_column(6, 3, 0));
    assert_eq!(column(&a), "2:1");
    act(&mut g, "cancel");
    done(&mut g);
    roll_until_decision(&mut g);
    skip_moves(&mut g);
    done(&mut g);
    // The GM (anti-ship 4) against the Doros: 8 : its defence 14.
    let d = declare(&mut g, "1210", &[1], "1210", "close u3");
    assert_eq!(d.column, final_column(8, 14, 0));
}

#[test]
fn abq_9_6_and_9_7_the_gm_and_the_confused_rick_dom() {
    // ABQ-9-7: "GM [Anti-MS AP = 5] attacks Rick Dom [Anti-MS AP = 5] in confused state The
    // ratio is 5 : 5 = 1: 1 +1 is added to the resulting dice throw." (ABQ-9-6: +1 and +2.)
    let mut g = game(&["GM@1010"], &["RD@1010"]);
    g.unit_mut(1).morale = Morale::Confused;
    skip_moves(&mut g);
    let a = declare(&mut g, "1010", &[0], "1010", "close u1");
    assert_eq!(a.column, final_column(5, 5, 0));
    act(&mut g, "fire");
    done(&mut g);
    done(&mut g);
    // Close combat's table is the shooting table a column to the attacker: 2:1; a 4 + 1 = 5
    // there is panic, and panic on a confused unit stays panic.
    roll(&mut g, &[4]);
    assert_eq!(g.unit(1).morale, Morale::Panic);
}

// ---------------------------------------------------------------- Section 10: morale

#[test]
fn abq_10_1_to_10_4_recovery_in_the_recovery_phase() {
    // ABQ-10-3: "A number less than 5 is required for recovery from confused state and a
    // number less than 4 is required for recovery from a panicked state." ABQ-10-4: "The
    // units in question do not suffer any effects from unsuccessful attempts to recover."
    let mut g = game(&["GM@1010", "GM@1110"], &["ZK@3010", "ZK@3110"]);
    g.unit_mut(0).morale = Morale::Confused;
    g.unit_mut(1).morale = Morale::Panic;
    g.unit_mut(2).morale = Morale::Confused;
    g.unit_mut(3).morale = Morale::Panic;
    // ABQ-10-2: confused and panicked units neither move nor attack.
    assert!(!g.can_move(0, 0) && !g.can_shoot(0));
    skip_moves(&mut g);
    done(&mut g);
    done(&mut g);
    // ABQ-10-1: both sides' units roll in the recovery phase (unit order).
    assert!(matches!(g.now.phase, Phase::Recovery { unit: 0 }));
    roll(&mut g, &[4, 4, 5, 3]);
    assert_eq!(g.unit(0).morale, Morale::Normal); // 4 < 5
    assert_eq!(g.unit(1).morale, Morale::Panic); // 4 is not < 4
    assert_eq!(g.unit(2).morale, Morale::Confused); // 5 is not < 5
    assert_eq!(g.unit(3).morale, Morale::Normal); // 3 < 4
    assert!(g.unit(1).alive());
}

// ---------------------------------------------------------------- Sections 11-14: pilots

#[test]
fn abq_11_1_and_11_2_example_1_a_newtype_attacking() {
    // ABQ-11-2 Example 1: "The combat ratio is worked out to be 1 : 3 ... using the newtype
    // rank, the ratio can be amended by raising it three ranks on the result tables to 2 : 1".
    assert_eq!(col(final_column(1, 3, 3)), "2:1");
    // The Gundam (N3, 6) at 3 hexes: 3:8 = 1:3, +3 = 2:1, as the example.
    let mut g = game(&["GD@1010"], &["GD@1310"]);
    g.unit_mut(1).pilot = Pilot::Regular;
    skip_moves(&mut g);
    assert_eq!(
        column(&declare(&mut g, "1010", &[0], "1310", "shoot u1")),
        "2:1"
    );
}

#[test]
fn abq_7_5_a_start_worse_than_1_3_has_no_effect_a_shift_stops_at_1_3() {
    // Rulings (ABQ-7-4, 7-5): "clamp shifts to the 1:3–7:1 range; a ratio worse than 1:3 has
    // no effect". A starting ratio worse than 1:3 has no effect whatever the ranks: the
    // Gundam (N3, 6) at 4 hexes has 2:8 = 1:4, and three ranks do not bring it back.
    assert_eq!(col(final_column(2, 8, 3)), "none");
    assert_eq!(col(final_column(1, 8, 3)), "none");
    // A shift stops at 1:3: 8 vs 8 against a Gundam N3 is 1:1 lowered three ranks, 1:3.
    assert_eq!(col(final_column(8, 8, -3)), "1:3");
    assert_eq!(col(final_column(9, 10, -2)), "1:3");
    // And at 7:1, counted from the ratio itself: 10:1 lowered three ranks is 7:1.
    assert_eq!(col(final_column(10, 1, -3)), "7:1");
    assert_eq!(col(final_column(6, 2, 9)), "7:1");
    // In a game: the Gundam at 4 hexes has no column (no effect), so the hex is not offered
    // and is refused by this rule (version 3: an attack that cannot have any effect is not
    // fired).
    let mut g = game(&["GD@1010"], &["GD@1410"]);
    g.unit_mut(1).pilot = Pilot::Regular;
    skip_moves(&mut g);
    let (from, to) = (
        g.fixed.layout.map.parse("1010").unwrap(),
        g.fixed.layout.map.parse("1410").unwrap(),
    );
    assert_eq!(g.shoot_attack(&[0], from, to, &[1]).unwrap().column, None);
    act(&mut g, "from 1010");
    act(&mut g, "with u0");
    assert!(!offered(&g, "target 1410"));
    refused(&mut g, "target 1410", "ABQ-7-5");
}

#[test]
fn abq_11_2_example_2_a_newtype_defending() {
    // ABQ-11-2 Example 2: "The combat ratio is worked out to be 4 : 1 ... lowering it three
    // ranks on the result tables to 1 : 1."
    assert_eq!(col(final_column(4, 1, -3)), "1:1");
    let mut g = game(&["GD@1010"], &["BG@1010"]);
    to_zeon_combat(&mut g);
    // Bigzam's anti-MS 8 doubled in the hex: 16 : 8 = 2:1, lowered three ranks by the
    // Gundam's N3: 1:1, 1:2, 1:3.
    assert_eq!(
        column(&declare(&mut g, "1010", &[1], "1010", "shoot u0")),
        "1:3"
    );
}

#[test]
fn abq_11_3_white_base_newtype_only_in_defence() {
    // ABQ-11-3: "Mirai Yashima is the only newtype in the crew so the newtype rank of 2 can
    // only be used for defence."
    let mut g = game(&["WB@1010"], &["MU@1110"]);
    skip_moves(&mut g);
    // White Base's anti-ship 8 - 1 = 7 : 7 → 1:1, no shift.
    assert_eq!(
        column(&declare(&mut g, "1010", &[0], "1110", "shoot u1")),
        "1:1"
    );
    act(&mut g, "cancel");
    done(&mut g);
    // The Musai's anti-ship 10 - 1 = 9 : 10 → 1:2, White Base's N2 → stops at 1:3.
    assert_eq!(
        column(&declare(&mut g, "1110", &[1], "1010", "shoot u0")),
        "1:3"
    );
}

#[test]
fn abq_11_4_newtype_against_newtype_and_the_texts_rounding() {
    // ABQ-11-4: "Zeong N2 [AP=7] attacks Gundam N3[DP=8] ... Combat ratio 7 : 8 which is
    // rounded in favour of the defence and thus becomes 1: 1 The difference between the N
    // ranks is 1 in favour of the Gundam ... to 1: 2". By 7-5's own rule (and 8-2 (b)'s
    // 4:5 → 1:2) 7:8 is 1:2; one rank toward the Gundam makes it 1:3 (the discrepancy is
    // recorded in docs/rules/abaoaqu.md).
    assert_eq!(col(final_column(7, 8, 0)), "1:2");
    assert_eq!(col(final_column(7, 8, 2 - 3)), "1:3");
    assert_eq!(group_rank([Pilot::N2]) - group_rank([Pilot::N3]), -1);
}

#[test]
fn abq_12_1_to_12_4_elite_pilots() {
    // ABQ-12-3: "Units with elite pilots can raise or lower the final combat ratio by one
    // rank in their favour." ABQ-12-4: "they cancel out each other's elite rank advantages."
    let mut g = game(&["GM@1010:E", "GM@1012"], &["RD@1210", "RD@1212:E"]);
    skip_moves(&mut g);
    // GM E: 5 - 2 = 3 : 3 → 1:1, +1 → 2:1.
    assert_eq!(
        column(&declare(&mut g, "1010", &[0], "1210", "shoot u2")),
        "2:1"
    );
    act(&mut g, "cancel");
    // Regular GM against the elite Rick Dom: 1:1, -1 → 1:2.
    assert_eq!(
        column(&declare(&mut g, "1012", &[1], "1212", "shoot u3")),
        "1:2"
    );
    assert_eq!(group_rank([Pilot::E]) - group_rank([Pilot::E]), 0);
}

#[test]
fn abq_13_1_to_13_4_student_pilots() {
    // ABQ-13-3: "when attacking the ratio 1 : 1 must be dropped one rank on the result table
    // to 1 : 2 ... on defence, a ratio 2 : 1 must be increased by one rank to 3 : 1".
    // ABQ-13-4: "They cancel out each other's disadvantages".
    assert_eq!(col(final_column(3, 3, group_rank([Pilot::S]))), "1:2");
    assert_eq!(col(final_column(6, 3, -group_rank([Pilot::S]))), "3:1");
    let mut g = game(&["GM@1010:S"], &["RD@1210:S"]);
    skip_moves(&mut g);
    assert_eq!(
        column(&declare(&mut g, "1010", &[0], "1210", "shoot u1")),
        "1:1"
    );
}

#[test]
fn abq_14_1_and_14_3_ranks_of_stacked_groups() {
    // ABQ-14-3: "Elite + Elite = +1 Elite+ Student = 0 Student+Student = -1 N3 + Elite = +3
    // N3 + Student = +2 N2 + Elite = +2 N2 + Student = +1"
    use Pilot::*;
    assert_eq!(group_rank([E, E]), 1);
    assert_eq!(group_rank([E, S]), 0);
    assert_eq!(group_rank([S, S]), -1);
    assert_eq!(group_rank([N3, E]), 3);
    assert_eq!(group_rank([N3, S]), 2);
    assert_eq!(group_rank([N2, E]), 2);
    assert_eq!(group_rank([N2, S]), 1);
    // ABQ-14-1: the amendments apply to a stack group attacking and defending. A GM (E) and a
    // GM (S) together at 2 hexes: 3 + 3 = 6 : a Rick Dom's 3 → 2:1, rank 0.
    let mut g = game(&["GM@1010:E", "GM@1010:S"], &["RD@1210", "RD@1210"]);
    skip_moves(&mut g);
    assert_eq!(
        column(&declare(&mut g, "1010", &[0, 1], "1210", "shoot u2")),
        "2:1"
    );
    act(&mut g, "cancel");
    // The same pair against the two Rick Doms as a group: 6 : 6 → 1:1.
    assert_eq!(
        column(&declare(&mut g, "1010", &[0, 1], "1210", "shoot ms")),
        "1:1"
    );
}

#[test]
fn abq_14_2_a_the_gundam_and_the_student_zaku() {
    // ABQ-14-2 (a): "Gundam N3 [AP=6] attacks Zaku S [DP=2] Combat ratio = 6 : 2 = 3 : 1
    // This ratio is then amended +3 ranks ... plus another +1 for fighting against a student.
    // Total rank increase of +4 to get a ratio of 7 : 1".
    assert_eq!(
        col(final_column(
            6,
            2,
            group_rank([Pilot::N3]) - group_rank([Pilot::S])
        )),
        "7:1"
    );
    let mut g = game(&["GD@1010"], &["ZK@1010:S"]);
    skip_moves(&mut g);
    // In the same hex (distance ignored as in the text, doubled here): 12 : 2, capped 7:1.
    assert_eq!(
        column(&declare(&mut g, "1010", &[0], "1010", "shoot u1")),
        "7:1"
    );
}

#[test]
fn abq_14_2_b_the_student_gm_and_the_elite_rick_dom() {
    // ABQ-14-2 (b): "GM S [AP=5] attacks Rick Dom E [DP=3] Combat ratio = 5 : 3 which is
    // rounded ... to 1 : 1 ... Total rank increase of +2 in favour of the elite pilot to get a
    // ratio of 1 : 3."
    assert_eq!(
        col(final_column(
            5,
            3,
            group_rank([Pilot::S]) - group_rank([Pilot::E])
        )),
        "1:3"
    );
}

#[test]
fn abq_14_2_close_combat_examples() {
    // ABQ-14-2, close combat (a): "Zeong N2 [Anti-MS AP=7] attacks GM S [Anti-MS AP=5]
    // Combat ratio = 7 : 5 which is rounded ... to 1 : 1 ... Total rank increase of +3 ...
    // to get a ratio of 4 : 1."
    assert_eq!(
        col(final_column(
            7,
            5,
            group_rank([Pilot::N2]) - group_rank([Pilot::S])
        )),
        "4:1"
    );
    let mut g = game(&["GM@1010:S"], &["ZI@1010"]);
    to_zeon_combat(&mut g);
    let a = declare(&mut g, "1010", &[1], "1010", "close u0");
    assert_eq!(a.column, final_column(7, 5, 3));
    act(&mut g, "cancel");
    // (b): "Zaku S [Anti-MS AP 5] attacks Ball (regular pilot) [Anti-MS AP=2 special
    // condition applies] The combat ratio is thus 5 : 2 which is rounded to 2 : 1. This
    // ratio is then amended by -1 against the student pilot to 1 : 1."
    assert_eq!(col(final_column(5, 2, -1)), "1:1");
    let mut g = game(&["BL@1010"], &["ZK@1010:S"]);
    to_zeon_combat(&mut g);
    let b = declare(&mut g, "1010", &[1], "1010", "close u0");
    assert_eq!(b.column, final_column(5, 2, -1));
}

// ---------------------------------------------------------------- Section 15: large missiles

#[test]
fn abq_15_1_to_15_3_large_missiles_fire_once_then_the_counter_flips() {
    // ABQ-15-3: "After the unit fire the large missile (using the stats on the front) ONCE,
    // the unit is flipped to show the backside stats."
    let mut g = game(&["SA@1110"], &["MU@1010"]);
    to_zeon_combat(&mut g);
    assert_eq!(
        (g.anti_ship(1), g.weapon(1)),
        (10, battlemat_abaoaqu::data::Weapon::Missile)
    );
    let a = declare(&mut g, "1010", &[1], "1110", "shoot u0"); // 10 - 1 = 9 : 8
    assert_eq!(column(&a), "1:1");
    let ev = act(&mut g, "fire");
    assert!(ev.iter().any(|e| matches!(e, Event::Flipped { unit: 1 })));
    assert!(g.unit(1).flipped);
    assert_eq!(
        (g.anti_ship(1), g.weapon(1)),
        (6, battlemat_abaoaqu::data::Weapon::Beam)
    );
    // A Public's front is its missiles: flipped, it has no anti-ship attack left.
    let mut p = game(&["PA@1010"], &["MU@1110"]);
    skip_moves(&mut p);
    declare(&mut p, "1010", &[0], "1110", "shoot u1");
    act(&mut p, "fire");
    assert_eq!(p.anti_ship(0), 0);
}

// ---------------------------------------------------------------- Section 16: satellite missiles

#[test]
fn abq_16_1_to_16_5_satellite_missiles() {
    // ABQ-16-2: "limited to a single movement/attack. Once used, they are removed".
    // ABQ-16-3: "can only attack if it is placed on a hex occupied by the enemy unit."
    // ABQ-16-5: "attack point against all MS is 10 and ... against all ships is 20", friend
    // or enemy in the hex.
    let mut g = game(&["GM@1410", "SA@1410"], &["SM@1010", "ZK@1410", "SM@3010"]);
    to_zeon_combat(&mut g);
    refused(&mut g, "detonate u2", "ABQ-16-3"); // not on an enemy yet
    done(&mut g);
    roll_until_decision(&mut g);
    // Zeon's half: the missile moves onto the Federation stack (and its own Zaku).
    act(&mut g, "move 1410");
    act(&mut g, "hold"); // the Zaku
    act(&mut g, "hold"); // the other missile
    assert_eq!(g.now.stage, Stage::LeadCombat);
    let ev = act(&mut g, "detonate u2");
    assert!(ev.iter().any(|e| matches!(e, Event::Detonated { unit: 2 })));
    assert_eq!(g.unit(2).at, Place::Gone);
    // One close attack on each unit in the hex: GM 10:3, Salamis 20:8, the Zaku 10:2.
    let cols: Vec<Option<u8>> = g.now.pending.iter().map(|a| a.column).collect();
    assert_eq!(
        cols,
        [
            final_column(10, 3, 0),
            final_column(20, 8, 0),
            final_column(10, 2, 0)
        ]
    );
    assert!(g.now.pending.iter().all(|a| a.close));
    // The other missile, unmoved, stays; had it moved it would be spent (16-2).
    assert!(g.unit(4).alive());
}

#[test]
fn abq_16_2_a_moved_missile_is_spent_at_the_end_of_the_phase() {
    let mut g = game(&["GM@1010"], &["SM@3010"]);
    to_zeon_combat(&mut g);
    done(&mut g);
    roll_until_decision(&mut g);
    act(&mut g, "move 2810");
    let ev = act(&mut g, "done");
    assert!(ev.iter().any(|e| matches!(e, Event::Spent { unit: 1 })));
    // Zeon has nothing left: the Federation wins (ABQ-S*: destroy all Zeon units).
    assert!(g.result().is_some());
}

// ---------------------------------------------------------------- Section 17: Bigzam

#[test]
fn abq_17_1_to_17_4_the_bigzam() {
    // ABQ-17-2: "it is treated as a ship for combat purposes. When attacking the Bigzam from
    // long range, the attack value against ships is used." ABQ-17-3: "cannot initiate close
    // combat". ABQ-17-4: "invulnerable to beam weapons".
    let mut g = game(&["GM@1010", "CT@1110", "GC@1210"], &["BG@1210"]);
    skip_moves(&mut g);
    // The GM's beams cannot hurt it.
    act(&mut g, "from 1010");
    act(&mut g, "with u0");
    refused(&mut g, "target 1210", "ABQ-7-2");
    act(&mut g, "cancel");
    let t = g.fixed.layout.map.parse("1210").unwrap();
    assert_eq!(g.shot_value(0, true, g.unit(0).hex().unwrap(), t, true), 0);
    // The Guntank's shells can: anti-ship 6 - 1 = 5 : 12 → 1:3.
    assert_eq!(
        column(&declare(&mut g, "1110", &[1], "1210", "shoot u3")),
        "1:3"
    );
    act(&mut g, "cancel");
    // Close combat by the ship ratio: 2 × 6 : the Bigzam's anti-MS 8 → 1:1.
    assert_eq!(
        column(&declare(&mut g, "1210", &[2], "1210", "close u3")),
        "1:1"
    );
    act(&mut g, "cancel");
    done(&mut g);
    // The Bigzam itself does not close.
    act(&mut g, "from 1210");
    act(&mut g, "with u3");
    act(&mut g, "target 1210");
    refused(&mut g, "close u2", "ABQ-7-1");
}

// ---------------------------------------------------------------- Section 18: BD screens

#[test]
fn abq_18_1_to_18_6_beam_disruption_screens() {
    // ABQ-18-3: "One of the dice is rolled and if the result is less than 5, the hex has been
    // successfully hit ... The deployment range of the BD missiles is ten hexagons. ... After
    // it is fired, the Public unit is flipped". ABQ-18-4: "covers six hexagons immediately
    // surrounding the targeted hex." ABQ-18-5: "Any beam weapon attack firing into or out of
    // the BD screen affected area is nullified." ABQ-18-6: "removed ... at the start of the
    // 5th inning/turn after the deployment."
    let mut g = game(&["PD@1010", "GE@2010"], &["GE@1510", "ZK@1410", "GE@2410"]);
    skip_moves(&mut g);
    act(&mut g, "launch u0");
    refused(&mut g, "at 2110", "ABQ-18-3"); // 11 hexes
    act(&mut g, "at 1510");
    assert!(matches!(g.next(), Next::Chance(_)));
    roll(&mut g, &[4]);
    assert_eq!(g.now.screens.len(), 1);
    assert!(g.unit(0).flipped);
    refused(&mut g, "launch u0", "ABQ-18-3");
    // The Federation's Gelgoog cannot fire its beams into the screen.
    act(&mut g, "from 2010");
    act(&mut g, "with u1");
    refused(&mut g, "target 1510", "ABQ-7-2");
    act(&mut g, "cancel");
    done(&mut g);
    // Zeon's Gelgoog in the screen cannot fire its beams out; its Zaku (normal weapons) in
    // a covered neighbouring hex can.
    act(&mut g, "from 1510");
    act(&mut g, "with u2");
    refused(&mut g, "target 1010", "ABQ-7-2");
    act(&mut g, "cancel");
    act(&mut g, "from 1410");
    act(&mut g, "with u3");
    allowed(&g, "target 1010");
    act(&mut g, "cancel");
    // A beam unit outside the screen fires as usual.
    act(&mut g, "from 2410");
    act(&mut g, "with u4");
    act(&mut g, "target 2010");
    act(&mut g, "cancel");
    // A 5 misses.
    let mut m = game(&["PD@1010"], &["ZK@1510"]);
    skip_moves(&mut m);
    act(&mut m, "launch u0");
    act(&mut m, "at 1510");
    roll(&mut m, &[5]);
    assert!(m.now.screens.is_empty());
    // Placed in turn 1: still there in turn 5, gone at the start of turn 6.
    let mut t = g.clone();
    t.now.outcome = None;
    let mut ev = Vec::new();
    t.begin_turn(5, &mut ev);
    assert_eq!(t.now.screens.len(), 1);
    t.begin_turn(6, &mut ev);
    assert!(t.now.screens.is_empty());
}

// ---------------------------------------------------------------- Scenarios

fn scenario(id: &str) -> AbaoAqu {
    AbaoAqu::new_game(&AbaoAqu::setup(id, &BTreeMap::new()).unwrap()).unwrap()
}

fn count(g: &AbaoAqu, side: u8) -> usize {
    g.now.units.iter().filter(|x| x.side == side).count()
}

#[test]
fn abq_s1_battle_of_s_field() {
    // ABQ-S1: the rosters as printed; Feds enter from the top row in the first turn; Zeon's
    // cannons on the fortress and the rest within 3 hexes of it; Feds lead off; Feds win by
    // holding 10 units on the fortress for 3 turns or destroying every Zeon unit.
    let g = scenario("s_field");
    assert_eq!((count(&g, 0), count(&g, 1)), (59, 53));
    assert_eq!(g.fixed.layout.map.cols, 68);
    assert_eq!(g.now.first, 0);
    assert_eq!(g.fixed.hold, [Some(10), None]);
    // Zeon sets up first (the Federation enters): its first counter, the Zeong, goes within
    // 3 rows of the fortress, not further.
    let mut g = g;
    let Phase::Deploy { unit } = g.now.phase else {
        panic!()
    };
    assert_eq!(g.code(unit), "ZI");
    refused(&mut g, "place 1016", "ABQ-5-2");
    act(&mut g, "place 1017");
    // Turrets only on the fortress.
    let fb = g.ids().find(|&u| g.code(u) == "FB").unwrap();
    assert!(!g.may_deploy(fb, g.fixed.layout.map.parse("1019").unwrap()));
    assert!(g.may_deploy(fb, g.fixed.layout.map.parse("1020").unwrap()));
}

#[test]
fn abq_s1_entering_from_the_top_row_and_holding_the_fortress() {
    // An entering unit's first hex is on the top row: a GM (5) reaches row 5.
    let mut g = game_with(&["GM"], &["ZK@6010"], Some(1), &[]);
    allowed(&g, "move 1005");
    refused(&mut g, "move 1006", "ABQ-4-2");
    // Holding: a GM on the fortress at the end of three turns in a row wins.
    let mut h = game_with(&["GM@1020"], &["ZK@6010"], Some(1), &[]);
    for _ in 0..3 {
        while h.result().is_none() && h.now.turn < 4 {
            match h.next() {
                Next::Chance(_) => {
                    roll(&mut h, &[6]);
                }
                Next::Decide(_) => {
                    act(&mut h, "done");
                }
                Next::Over => break,
            }
        }
    }
    let r = h.result().expect("over");
    assert_eq!(r.ranks, [1, 2]);
    assert!(r.reason.contains("held the fortress"), "{}", r.reason);
    assert_eq!(h.now.turn, 3);
}

#[test]
fn abq_s1_destroying_every_zeon_unit_wins() {
    let mut g = game(&["GD@1010"], &["ZK@1110"]);
    skip_moves(&mut g);
    declare(&mut g, "1010", &[0], "1110", "shoot u1");
    act(&mut g, "fire");
    done(&mut g);
    done(&mut g);
    roll(&mut g, &[6]);
    let r = g.result().unwrap();
    assert_eq!(r.ranks, [1, 2]);
    assert!(r.reason.contains("every Zeon unit"));
}

#[test]
fn abq_s2_battle_of_n_field() {
    // ABQ-S2: our rosters around the Doros; Feds hold 15.
    let g = scenario("n_field");
    assert!(g.ids().any(|u| g.code(u) == "DO" && g.unit(u).side == 1));
    assert_eq!(g.fixed.hold, [Some(15), None]);
    assert!(g.fixed.setup.scenario.ours);
}

#[test]
fn abq_s3_battle_of_a_bao_a_qu() {
    // ABQ-S3: map 41/32; N field force from the top in turn 1; S field force from the bottom
    // in the fifth turn; Zeon's N force in the middle 4 rows, its S force within a 10-hex
    // strip; Feds hold 20.
    let g = scenario("a_bao_a_qu");
    assert_eq!((g.fixed.layout.map.cols, g.fixed.layout.map.rows), (34, 42));
    assert_eq!(g.fixed.hold, [Some(20), None]);
    let s_force = g
        .fixed
        .forces
        .iter()
        .position(|f| f.name == "S field attack force")
        .unwrap();
    assert_eq!(g.fixed.forces[s_force].turn, Some(5));
    let mut t = g.clone();
    t.now.turn = 4;
    assert!(!t.force_may_enter(s_force as u8));
    t.now.turn = 5;
    assert!(t.force_may_enter(s_force as u8));
    assert_eq!(g.fixed.forces[2].rows, Some((20, 23)));
    assert_eq!(g.fixed.forces[3].rows, Some((17, 26)));
    assert!(count(&g, 0) + count(&g, 1) > 200);
}

#[test]
fn abq_s4_reduced_s_field_for_two() {
    let g = scenario("s_field_reduced");
    assert_eq!(g.fixed.setup.scenario.seats, (2, 2));
    // Our rosters (the text prints none), balanced under the strong player: docs/balance.md.
    assert_eq!((count(&g, 0), count(&g, 1)), (8, 18));
    assert_eq!(g.fixed.hold, [Some(5), None]);
}

#[test]
fn abq_s5_solomon() {
    let g = scenario("solomon");
    assert!(g.ids().any(|u| g.code(u) == "BG"));
    assert_eq!(g.fixed.hold, [Some(8), None]);
}

#[test]
fn abq_s6_moor_lead_off_by_die_and_fleets_from_the_sides() {
    // ABQ-S6: "'lead-off' is determined by dice throw. An odd number means the Feds start,
    // even number means the Zeons start."
    let mut g = scenario("moor");
    assert_eq!((count(&g, 0), count(&g, 1)), (48, 46));
    assert!(matches!(g.next(), Next::Chance(_)));
    roll(&mut g, &[4]);
    assert_eq!((g.now.first, g.lead()), (1, 1));
    let mut h = scenario("moor");
    roll(&mut h, &[3]);
    assert_eq!(h.lead(), 0);
    // Federation ships enter from the left edge: a Magellan (3) reaches column 3.
    allowed(&h, "move 0310");
    refused(&mut h, "move 0410", "ABQ-4-2");
    // Surrender ends it.
    h.resign(1, &mut Vec::new());
    assert_eq!(h.result().unwrap().ranks, [1, 2]);
}

#[test]
fn abq_s7_luna_two_reinforcements_by_die() {
    // ABQ-S7: "After the completion of the first turn, the Fed player throws one of the dice.
    // A 1 means the reinforcements arrive in the second turn, 2 means the third turn".
    let mut g = scenario("luna_two");
    assert_eq!(g.now.first, 1); // "Zeons 'lead-off'"
    assert_eq!(g.fixed.hold, [None, Some(15)]);
    assert!(g.fixed.wins_at_limit[0]);
    // Play out turn 1 with nobody doing anything.
    while g.now.turn <= 1 && !matches!(g.now.phase, Phase::ReinforcementDie) {
        match g.next() {
            Next::Chance(_) => {
                roll(&mut g, &[6]);
            }
            Next::Decide(_) => {
                let a = g.legal_actions();
                let first = a[0].to_string();
                if first.starts_with("place") {
                    act(&mut g, &first);
                } else {
                    act(&mut g, "done");
                }
            }
            Next::Over => panic!("over"),
        }
    }
    let ev = roll(&mut g, &[2]);
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Reinforcements { turn: 3 }))
    );
    let f = g
        .fixed
        .forces
        .iter()
        .position(|f| f.turn.is_none())
        .unwrap() as u8;
    assert!(!g.force_may_enter(f));
    g.now.turn = 3;
    assert!(g.force_may_enter(f));
}

#[test]
fn abq_3_3_turn_limit_goes_to_the_defender() {
    // Our `turns` option (docs): a game nobody has won by the limit goes to the side that
    // defends the objective.
    let mut g = game_with(&["GM@1010"], &["ZK@6010"], Some(5), &[("turns", "10")]);
    while g.result().is_none() {
        match g.next() {
            Next::Chance(_) => {
                roll(&mut g, &[6]);
            }
            _ => {
                act(&mut g, "done");
            }
        }
    }
    assert_eq!(g.now.turn, 10);
    assert_eq!(g.result().unwrap().ranks, [2, 1]);
    assert!(g.result().unwrap().by_limit);
}

#[test]
fn abq_3_3_no_turn_limit_unless_asked_for() {
    // The scenarios: "No. of Turns Until a victory condition is met." By default there is no
    // turn limit: twenty turns of nothing and the game goes on.
    let mut g = game_with(&["GM@1010"], &["ZK@6010"], Some(5), &[]);
    while g.now.turn <= 20 {
        match g.next() {
            Next::Chance(_) => {
                roll(&mut g, &[6]);
            }
            _ => {
                act(&mut g, "done");
            }
        }
    }
    assert!(g.result().is_none());
}

#[test]
fn bad_actions_are_refused_without_change() {
    let mut g = game(&["GM@1010"], &["ZK@1110"]);
    refused(&mut g, "move 9999", "ABQ-1");
    refused(&mut g, "fire", "ABQ-3-3");
    skip_moves(&mut g);
    refused(&mut g, "with u0", "ABQ-3-3");
    refused(&mut g, "from 3030", "ABQ-1");
    refused(&mut g, "launch u0", "ABQ-18-3");
    refused(&mut g, "detonate u77", "ABQ-2-A");
    let _ = Declaring::Idle;
}

// ---------------------------------------------------------------- House-rule options (issue 20)

#[test]
fn abq_8_4_option_group_shooters_hit_or_spared() {
    // ABQ-8-4: "When attacking a stack as a group (consisting of both enemy and friendly
    // units), the friendly units are affected in the same way as the enemy units". Two
    // Zakus in the GM's hex, one shooting the MS group: 5 doubled in the hex (ABQ-7-3).
    let fed = ["GM@1110"];
    let zeon = ["ZK@1110", "ZK@1110"];
    // hit (default): the shooter is in its own group — 10 : 3 + 2 + 2 = 7 → 1:1.
    let mut g = game(&fed, &zeon);
    to_zeon_combat(&mut g);
    let a = declare(&mut g, "1110", &[1], "1110", "shoot ms");
    assert_eq!(a.targets, [0, 1, 2]);
    assert_eq!(column(&a), "1:1");
    // spared: the shooter is left out — 10 : 3 + 2 = 5 → 2:1, and its die is not read.
    let mut g = game_with(&fed, &zeon, None, &[("group_shooters", "spared")]);
    to_zeon_combat(&mut g);
    let a = declare(&mut g, "1110", &[1], "1110", "shoot ms");
    assert_eq!(a.targets, [0, 2]);
    assert_eq!(column(&a), "2:1");
}

#[test]
fn abq_11_2_option_group_ranks_every_or_firing_side() {
    // ABQ-11-2: "Whether the N rank is used to raise or lower the final ratio in any given
    // situation is completely up to the player." A Zaku shoots the MS group of a GM and
    // Zeon's own Char's Zaku (elite) one hex off: 5 - 1 = 4 : 3 + 2 = 5 → 1:2.
    let fed = ["GM@1110"];
    let zeon = ["ZK@1010", "RZ@1110"];
    // every (default): the elite's rank defends the group it is in: 1:2 lowered to 1:3.
    let mut g = game(&fed, &zeon);
    to_zeon_combat(&mut g);
    assert_eq!(
        column(&declare(&mut g, "1010", &[1], "1110", "shoot ms")),
        "1:3"
    );
    // firing_side: Zeon leaves its own elite's rank unused: 1:2.
    let mut g = game_with(&fed, &zeon, None, &[("group_ranks", "firing_side")]);
    to_zeon_combat(&mut g);
    assert_eq!(
        column(&declare(&mut g, "1010", &[1], "1110", "shoot ms")),
        "1:2"
    );
}

#[test]
fn abq_17_2_option_bigzam_close_as_ship_or_ms() {
    // ABQ-17-2: "it is treated as a ship for combat purposes. ... When attacking the Bigzam
    // at close range, the MS close combat tablet is used." ABQ-9-4: "An enemy ship stacked
    // with enemy mobile suits, cannot be attacked by close combat."
    // ship (default): 9-5 (c), 2 × anti-ship 6 : the Bigzam's anti-MS 8 → 1:1.
    let mut g = game(&["GC@1210"], &["BG@1210"]);
    skip_moves(&mut g);
    assert_eq!(
        column(&declare(&mut g, "1210", &[0], "1210", "close u1")),
        "1:1"
    );
    // And a Zaku beside it shelters it, as a ship (9-4).
    let mut g = game(&["GC@1210"], &["BG@1210", "ZK@1210"]);
    skip_moves(&mut g);
    act(&mut g, "from 1210");
    act(&mut g, "with u0");
    act(&mut g, "target 1210");
    refused(&mut g, "close u1", "ABQ-9-4");
    // ms: 9-5 (a), anti-MS 5 : 8 → 1:2, and no shelter.
    let ms = [("bigzam_close", "ms")];
    let mut g = game_with(&["GC@1210"], &["BG@1210", "ZK@1210"], None, &ms);
    skip_moves(&mut g);
    assert_eq!(
        column(&declare(&mut g, "1210", &[0], "1210", "close u1")),
        "1:2"
    );
}

#[test]
fn abq_17_4_option_bigzam_close_beams_hurt_or_immune() {
    // ABQ-17-4: "The Bigzam is invulnerable to beam weapons because of its I-field." A GM
    // (beam) in its hex.
    // hurt (default): close combat is not the beam rifle — 2 × anti-ship 4 : 8 → 1:1.
    let mut g = game(&["GM@1210"], &["BG@1210"]);
    skip_moves(&mut g);
    assert_eq!(
        column(&declare(&mut g, "1210", &[0], "1210", "close u1")),
        "1:1"
    );
    // immune: the I-field stops the beam-armed suit in close combat too.
    let mut g = game_with(
        &["GM@1210"],
        &["BG@1210"],
        None,
        &[("bigzam_close_beams", "immune")],
    );
    skip_moves(&mut g);
    act(&mut g, "from 1210");
    act(&mut g, "with u0");
    refused(&mut g, "target 1210", "ABQ-7-2");
}

#[test]
fn abq_3_3_option_lead_off_screen_at_once_or_after_battle() {
    // ABQ-3-3: "Enemy units receiving attacks can return fire in the next t 'Follow-up'
    // side's combat phase. Both attacks will be deemed to have taken place in a single
    // battle". ABQ-18-5: "Any beam weapon attack firing into or out of the BD screen
    // affected area is nullified." The Federation's BD Public screens the Gelgoog's hex in
    // the lead-off combat; the Gelgoog (beams) would return fire at the GM.
    let fed = ["PD@1010", "GM@1410"];
    let zeon = ["GE@1510"];
    let screen = |g: &mut AbaoAqu| {
        skip_moves(g);
        act(g, "launch u0");
        act(g, "at 1510");
        roll(g, &[4]);
        done(g);
        assert_eq!(g.now.stage, Stage::FollowCombat);
        act(g, "from 1510");
        act(g, "with u2");
    };
    // at_once (default): the screen works from its die: the return fire is nullified.
    let mut g = game(&fed, &zeon);
    screen(&mut g);
    refused(&mut g, "target 1410", "ABQ-7-2");
    // after_battle: it works after this half's damage check.
    let mut g = game_with(&fed, &zeon, None, &[("lead_off_screen", "after_battle")]);
    screen(&mut g);
    act(&mut g, "target 1410");
    act(&mut g, "shoot u1");
    act(&mut g, "cancel");
    let h = g.fixed.layout.map.parse("1510").unwrap();
    assert!(!g.screened(h));
    done(&mut g);
    // The damage check had nothing to roll: the half is over and the screen works.
    assert_eq!(g.now.half, 1);
    assert!(g.screened(h));
}

#[test]
fn abq_s1_option_hold_count_turn_end_or_whole_turns() {
    // ABQ-S1: "keep 10 Fed units on the fortress itself at all times for 3 turns" (here 1).
    // A GM moves onto the fortress (rows 20-21) in turn 1's movement.
    let play = |opts: &[(&str, &str)]| {
        let mut g = game_with(&["GM@1018"], &["ZK@6010"], Some(1), opts);
        act(&mut g, "move 1020");
        while g.result().is_none() && g.now.turn < 6 {
            match g.next() {
                Next::Chance(_) => {
                    roll(&mut g, &[6]);
                }
                Next::Decide(_) => {
                    act(&mut g, "done");
                }
                Next::Over => break,
            }
        }
        let r = g.result().expect("over");
        assert!(r.reason.contains("held the fortress"), "{}", r.reason);
        g.now.turn
    };
    // turn_end (default): counted at each turn's end, turn 1 included — won after turn 3.
    assert_eq!(play(&[]), 3);
    // whole_turns: turn 1 did not begin with it held — turns 2, 3 and 4.
    assert_eq!(play(&[("hold_count", "whole_turns")]), 4);
}

#[test]
fn abq_7_5_an_attack_without_effect_is_not_offered_nor_fired() {
    // Rulings (ABQ-7-5): "a ratio worse than 1:3 has no effect". A Public's large missile
    // (anti-ship 8, ABQ-15-1: "can be used once") five hexes from a Gwazin (defence 12):
    // 8 - 5 = 3 : 12 = 1:4. Firing it would flip the Public (ABQ-15-3) for nothing, so the
    // hex is neither offered nor accepted, and the Public keeps its missile.
    let mut g = game(&["PA@1010"], &["GU@1510"]);
    skip_moves(&mut g);
    act(&mut g, "from 1010");
    act(&mut g, "with u0");
    assert!(!offered(&g, "target 1510"));
    refused(&mut g, "target 1510", "ABQ-7-5");
    act(&mut g, "cancel");
    assert!(!g.unit(0).flipped && !g.unit(0).fired);
    // Four hexes off it is 4 : 12 = 1:3, which can have an effect: offered.
    let mut g = game(&["PA@1110"], &["GU@1510"]);
    skip_moves(&mut g);
    act(&mut g, "from 1110");
    act(&mut g, "with u0");
    allowed(&g, "target 1510");
}

#[test]
fn abq_7_4_and_10_3_every_die_is_shown_with_its_column() {
    // ABQ-7-4: "The dice are then thrown and use the results to refer to the long-range
    // shooting table"; ABQ-7-6: "+1 and +2"; ABQ-10-3: "A number less than 5 is required for
    // recovery from confused state". The words of each result name the die, what the
    // target's state added, the column and the table; a recovery its die.
    let mut g = game(&["GM@1010"], &["ZK@1110"]);
    skip_moves(&mut g);
    declare(&mut g, "1010", &[0], "1110", "shoot u1"); // 4 : 2 = 2:1
    act(&mut g, "fire");
    done(&mut g); // the Federation's lead-off combat
    done(&mut g); // Zeon's follow-up combat: the damage check's die
    let ev = roll(&mut g, &[3]); // 2:1, 3: C
    let text: Vec<String> = ev.iter().map(|e| e.to_string()).collect();
    assert!(
        text.iter()
            .any(|t| t == "u1 is confused (C) — die 3 on the 2:1 column of the shooting table"),
        "{text:?}"
    );
    // The next half opens with its recovery die.
    let ev = roll(&mut g, &[5]);
    let text: Vec<String> = ev.iter().map(|e| e.to_string()).collect();
    assert!(
        text.iter()
            .any(|t| t == "u1 fails to recover (recovery die 5, under 5 needed)"),
        "{text:?}"
    );
    // A confused target's die shows its +1.
    let e = Event::Result {
        unit: 1,
        hit: Hit::Confused,
        now: Some(Morale::Panic),
        die: 4,
        modifier: 1,
        column: "1:1".into(),
        close: true,
    };
    assert_eq!(
        e.to_string(),
        "u1 panics (D) — die 4 + 1 (it was confused) = 5 on the 1:1 column of the close combat table"
    );
}

#[test]
fn abq_3_3_the_phases_in_words() {
    // ABQ-3-3: "(3) 'Lead-off' side combat phase ... (4) 'Follow-up' side combat phase".
    let mut g = game(&["GM@1010"], &["ZK@3010"]);
    skip_moves(&mut g);
    let board = g.observe(battlemat_core::Viewer::Spectator).to_string();
    assert!(
        board.lines().next().unwrap().ends_with("— lead-off combat"),
        "{board}"
    );
    done(&mut g);
    let board = g.observe(battlemat_core::Viewer::Spectator).to_string();
    assert!(board.contains("— follow-up combat"), "{board}");
    assert!(!board.contains("FollowCombat"), "{board}");
}
