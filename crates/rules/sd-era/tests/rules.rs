//! One or more tests per rule of SD ERA (ids from `shared/design/rule-ids.md`, readings in
//! `docs/rules/sd-era.md`). Each test sets a small table, drives the game with exact die
//! faces, and checks the state, the events, and that illegal actions are refused with the
//! right rule id and change nothing.

mod common;
use battlemat_core::Ruleset;
use battlemat_core::testing::{act, refused, roll};
use battlemat_core::{Game, Next, Step};
use battlemat_sd_era::data::{Catalog, STICK};
use battlemat_sd_era::events::{Event, Winner};
use battlemat_sd_era::state::{Choice, Phase};
use battlemat_sd_era::{Action, SdEra};
use common::*;

fn fight_result(ev: &[Event]) -> Option<(Winner, u8)> {
    ev.iter().find_map(|e| match e {
        Event::Fight {
            winner, overkill, ..
        } => Some((*winner, *overkill)),
        _ => None,
    })
}

fn stunned(g: &SdEra, u: u8) -> bool {
    g.now.units[u as usize].stunned
}

// ----- SDE-T2: value, cost, armies ---------------------------------------------------------

#[test]
fn sde_t2_random_armies_keep_the_points_and_the_unit_limit() {
    // SDE-T2 for the balance lab: armies drawn at random stay within the mission's points
    // and its three units besides transports, and spend between half and all the points.
    let s = SdEra::setup("king_of_the_hill", &Default::default()).unwrap();
    let armies = SdEra::armies(&s).unwrap();
    assert_eq!(armies.seats.len(), 2);
    assert_eq!(armies.costs["zaku"], 1.0, "CHEAP costs one less");
    let mut r = battlemat_dice::Roller::new(3, 0);
    let mut spent = std::collections::BTreeSet::new();
    for _ in 0..200 {
        let drawn = SdEra::random_armies(&s, &mut r).unwrap().unwrap();
        for army in &drawn.armies {
            let cost: u32 = army.iter().map(|k| u32::from(drawn.chart[k].cost())).sum();
            let counted = army
                .iter()
                .filter(|k| !drawn.chart[*k].is(battlemat_sd_era::data::Special::T))
                .count();
            assert!(cost <= 7 && counted <= 3 && !army.is_empty(), "{army:?}");
            spent.insert(cost);
        }
    }
    assert!(
        spent.contains(&7) && spent.iter().any(|&c| c < 7),
        "{spent:?}"
    );
}

#[test]
fn sde_t2_value_is_dice_and_cost_cheap_costs_one_less() {
    let chart = &Catalog::builtin().chart;
    assert_eq!(chart["gundam"].cost(), 4);
    assert_eq!(chart["zaku"].cost(), 1, "SDE-C: cost -1");
    // SDE-T2: about 7 points, at most 3 units besides transports.
    let err = SdEra::new_game(&setup(
        "king_of_the_hill",
        &[&["gundam", "gelgoog"], &["zaku"]],
        vec![],
        &[],
    ))
    .unwrap_err();
    assert!(err.to_string().contains("8 points"), "{err}");
    let err = SdEra::new_game(&setup(
        "king_of_the_hill",
        &[&["zaku", "gm", "zaku", "gm"], &["zaku"]],
        vec![],
        &[],
    ))
    .unwrap_err();
    assert!(err.to_string().contains("at most 3"), "{err}");
    // Transports are not counted.
    SdEra::new_game(&setup(
        "king_of_the_hill",
        &[&["zaku", "gm", "zaku", "megarider"], &["zaku"]],
        vec![],
        &[],
    ))
    .unwrap();
    // A shot rolls the value in dice.
    let mut g = duel("guncannon", "gouf");
    let ev = act(&mut g, "shoot u0 u1");
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Attacks {
            att_dice: 3,
            def_dice: 3,
            ..
        }
    )));
}

// ----- SDE-T1: turns -------------------------------------------------------------------------

#[test]
fn sde_t1_turn_order_by_best_units_dice_then_clockwise() {
    let mut g = open(&[&["gm"], &["gundam"], &["zaku"]]);
    // Each player rolls their best unit's value: 2, 4 and 2 dice.
    match g.now.phase {
        Phase::TurnOrder {
            seat: 0, left: 2, ..
        } => {}
        ref p => panic!("{p:?}"),
    }
    roll(&mut g, &[3, 5]); // seat 0: best 5
    roll(&mut g, &[1, 2, 5, 4]); // seat 1: best 5
    roll(&mut g, &[4, 4]); // seat 2: best 4
    // 5 and 5 tie: seats 0 and 1 roll again.
    match g.now.phase {
        Phase::TurnOrder {
            seat: 0,
            rolling: 0b011,
            ..
        } => {}
        ref p => panic!("{p:?}"),
    }
    roll(&mut g, &[2, 1]);
    roll(&mut g, &[6, 1, 1, 1]);
    assert_eq!(g.now.phase, Phase::Turn);
    assert_eq!(g.now.active, 1, "seat 1 rolled highest");
    act(&mut g, "end");
    assert_eq!(g.now.active, 2, "then clockwise");
    act(&mut g, "end");
    assert_eq!(g.now.active, 0);
    act(&mut g, "end");
    assert_eq!(g.now.active, 1);
    assert_eq!(g.now.round, 2);
}

#[test]
fn sde_t1_two_actions_per_unit() {
    let mut g = duel("gm", "zaku");
    act(&mut g, "move u0 n 0.25");
    act(&mut g, "move u0 s 0.25");
    refused(&mut g, "move u0 n 0.25", "SDE-T1");
    refused(&mut g, "move u1 n 0.25", "SDE-T1"); // not your unit
    act(&mut g, "end");
    assert_eq!(g.now.active, 1);
    assert_eq!(g.now.units[1].actions, 2);
}

// ----- SDE-MOVE ----------------------------------------------------------------------------------

#[test]
fn sde_move_one_stick_any_direction_jumping_terrain() {
    // A thin wall between y = 1.4 and 1.6.
    let mut g = game(
        "king_of_the_hill",
        &[&["gm"], &["zaku"]],
        vec![wall(2.0, 1.4, 4.0, 1.6)],
        &[],
    );
    begin(&mut g, 0);
    put(&mut g, 0, 3.0, 1.0);
    put(&mut g, 1, 5.0, 5.0);
    refused(&mut g, "move u0 3,2.01", "SDE-MOVE"); // more than a stick
    refused(&mut g, "move u0 3,1.5", "SDE-MOVE"); // into the wall
    // Over the wall, landing clear of it: allowed (mobile suits jump).
    act(&mut g, "move u0 3,2");
    assert_eq!(at(&g, 0), pt(3.0, 2.0));
    refused(&mut g, "move u0 3,2", "SDE-MOVE"); // a move goes somewhere
}

#[test]
fn sde_move_lands_on_top_of_terrain_with_room() {
    let mut g = game(
        "king_of_the_hill",
        &[&["gm", "zaku"], &["zaku"]],
        vec![hill(3.0, 3.0, 0.5, 1)],
        &[],
    );
    begin(&mut g, 0);
    put(&mut g, 0, 3.0, 2.2);
    put(&mut g, 1, 3.0, 3.8);
    put(&mut g, 2, 5.0, 5.0);
    act(&mut g, "move u0 3,3");
    assert_eq!(g.standing_on(0), Some(0));
    // It holds one unit: the second finds no room.
    refused(&mut g, "move u1 3,3.15", "SDE-MOVE");
}

// ----- SDE-CHARGE, SDE-MELEE ---------------------------------------------------------------------

#[test]
fn sde_charge_a_move_ending_next_to_an_enemy_gives_a_free_melee() {
    let mut g = duel("gm", "zaku");
    put(&mut g, 1, 3.0, 2.3);
    // Bases of radius 1/8: touching 1/4 apart; next to within 1/6 more.
    act(&mut g, "move u0 3,1.95");
    assert_eq!(g.now.charge, Some(0));
    assert_eq!(g.now.units[0].actions, 1);
    act(&mut g, "melee u0 u1");
    assert_eq!(g.now.units[0].actions, 1, "the charge's melee is free");
    roll(&mut g, &[2, 1, 2]); // 2 attack dice, Zaku 2C defends with 1: 2 vs 2, a tie
    assert_eq!(g.now.phase, Phase::Turn);
    // Without moving, a melee costs an action.
    act(&mut g, "melee u0 u1");
    assert_eq!(g.now.units[0].actions, 0);
}

#[test]
fn sde_melee_needs_a_target_next_to_it_and_ties_do_nothing() {
    let mut g = duel("gm", "zaku");
    refused(&mut g, "melee u0 u1", "SDE-MELEE"); // a stick apart
    put(&mut g, 1, 3.0, 1.3);
    let ev = {
        act(&mut g, "melee u0 u1");
        roll(&mut g, &[4, 1, 4])
    };
    assert_eq!(fight_result(&ev), Some((Winner::Tie, 0)));
    assert_eq!(at(&g, 1), pt(3.0, 1.3));
}

#[test]
fn sde_melee_defender_overkill_knocks_back_one_stick_at_most() {
    let mut g = duel("gm", "gouf"); // Gouf 3M defends in melee with 4
    put(&mut g, 1, 3.0, 1.3);
    act(&mut g, "melee u0 u1");
    let ev = roll(&mut g, &[2, 1, 6, 5, 4, 3]);
    assert_eq!(fight_result(&ev), Some((Winner::Defender, 3)));
    // The defender's player chooses the direction; only one stick.
    match g.now.phase {
        Phase::Choose(Choice::Push {
            seat: 1,
            mover: 0,
            dist,
            ..
        }) => assert_eq!(dist, STICK),
        ref p => panic!("{p:?}"),
    }
    refused(&mut g, "pass", "SDE-KB1");
    act(&mut g, "push w");
    assert_eq!(at(&g, 0), pt(2.0, 1.0));
}

// ----- SDE-SHOOT, SDE-RANGE, SDE-SIGHT ----------------------------------------------------------

#[test]
fn sde_shoot_win_knocks_back_one_stick_plus_overkill_along_the_line() {
    let mut g = duel("guncannon", "dom"); // 3 dice against 3
    act(&mut g, "shoot u0 u1");
    let ev = roll(&mut g, &[6, 5, 2, 4, 1, 1]);
    // Highest 6 beats 4; the 5 also beats it: 1 overkill, 2 sticks.
    assert_eq!(fight_result(&ev), Some((Winner::Attacker, 1)));
    assert_eq!(at(&g, 1), pt(3.0, 4.0));
    assert!(!stunned(&g, 1));
}

#[test]
fn sde_shoot_tie_or_defender_win_does_nothing() {
    let mut g = duel("guncannon", "dom");
    act(&mut g, "shoot u0 u1");
    let ev = roll(&mut g, &[5, 2, 2, 5, 1, 1]);
    assert_eq!(fight_result(&ev), Some((Winner::Tie, 0)));
    act(&mut g, "shoot u0 u1");
    let ev = roll(&mut g, &[3, 2, 2, 6, 5, 4]);
    assert_eq!(fight_result(&ev), Some((Winner::Defender, 2)));
    assert_eq!(
        at(&g, 0),
        pt(3.0, 1.0),
        "a shot's defender does no knockback"
    );
    assert_eq!(at(&g, 1), pt(3.0, 2.0));
}

#[test]
fn sde_range_minus_one_die_per_stick_and_one_die_units_stay_close() {
    let mut g = duel("guncannon", "ball");
    put(&mut g, 1, 3.0, 3.5); // 2.5 between centres, 2.25 edge to edge: 2 sticks beyond the first
    let ev = act(&mut g, "shoot u0 u1");
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Attacks { att_dice: 3, .. })),
        "Guncannon is ARTILLERY"
    );
    let mut g = duel("dom", "ball");
    put(&mut g, 1, 3.0, 3.5);
    let ev = act(&mut g, "shoot u0 u1");
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Attacks { att_dice: 1, .. })),
        "3 dice - 2"
    );
    let mut g = duel("dom", "ball");
    put(&mut g, 1, 3.0, 5.0); // 3.75 edge to edge: -3, no dice left
    refused(&mut g, "shoot u0 u1", "SDE-RANGE");
    let mut g = duel("ball", "dom");
    put(&mut g, 1, 3.0, 2.5); // 1.25 edge to edge
    refused(&mut g, "shoot u0 u1", "SDE-RANGE");
    put(&mut g, 1, 3.0, 2.2);
    act(&mut g, "shoot u0 u1");
}

#[test]
fn sde_range_counts_whole_sticks_edge_to_edge_to_the_tick() {
    // SDE-RANGE: within 1 stick edge to edge is no extra range; a tick more is 1 stick more.
    // The count is checked against stepping out a stick at a time, on and around each
    // boundary, straight and diagonal.
    use battlemat_geom::table::Point;
    use battlemat_sd_era::data::BASE_RADIUS;
    let mut g = duel("dom", "gm");
    let radii = 2 * BASE_RADIUS as i128;
    let expected = |dx: i64, dy: i64| {
        let d2 = (dx as i128).pow(2) + (dy as i128).pow(2);
        (0..40u8)
            .find(|&k| {
                let edge = (k as i128 + 1) * STICK as i128 + radii;
                d2 <= edge * edge
            })
            .unwrap_or(40)
    };
    let from = g.now.units[0].at;
    for k in 0..6i64 {
        let edge = (k + 1) * STICK + 2 * BASE_RADIUS;
        for d in [edge - 1, edge, edge + 1] {
            for (dx, dy) in [(0, d), (d * 3 / 5, d * 4 / 5), (d * 3 / 5 + 1, d * 4 / 5)] {
                g.now.units[1].at = Point::new(from.x + dx, from.y + dy);
                assert_eq!(
                    g.extra_range(from, BASE_RADIUS, 1),
                    expected(dx, dy),
                    "offset ({dx}, {dy})"
                );
            }
        }
        g.now.units[1].at = Point::new(from.x, from.y + edge);
        assert_eq!(g.extra_range(from, BASE_RADIUS, 1), k as u8);
        g.now.units[1].at = Point::new(from.x, from.y + edge + 1);
        assert_eq!(g.extra_range(from, BASE_RADIUS, 1), k as u8 + 1);
    }
}

#[test]
fn sde_sight_no_attack_through_cover() {
    let mut g = game(
        "king_of_the_hill",
        &[&["dom"], &["zaku"]],
        vec![wall(2.0, 1.45, 4.0, 1.55)],
        &[],
    );
    begin(&mut g, 0);
    put(&mut g, 0, 3.0, 1.0);
    put(&mut g, 1, 3.0, 2.0);
    refused(&mut g, "shoot u0 u1", "SDE-SIGHT");
    put(&mut g, 1, 5.0, 1.6); // past the wall's end
    act(&mut g, "shoot u0 u1");
}

// ----- SDE-KB1..KB3 ----------------------------------------------------------------------------

#[test]
fn sde_kb1_melee_winner_chooses_the_direction() {
    let mut g = duel("gouf", "gm");
    put(&mut g, 1, 3.0, 1.3);
    act(&mut g, "melee u0 u1"); // Gouf 3M attacks with 4 in melee; GM 2C defends with 1
    let ev = roll(&mut g, &[6, 1, 1, 1, 2]);
    assert_eq!(fight_result(&ev), Some((Winner::Attacker, 0)));
    act(&mut g, "push e");
    assert_eq!(at(&g, 1), pt(4.0, 1.3));
}

#[test]
fn sde_kb2_into_terrain_or_an_edge_stops_and_stuns() {
    let mut g = game(
        "king_of_the_hill",
        &[&["guncannon"], &["dom"]],
        vec![wall(2.0, 2.75, 4.0, 3.0)],
        &[],
    );
    begin(&mut g, 0);
    put(&mut g, 0, 3.0, 1.0);
    put(&mut g, 1, 3.0, 2.0);
    act(&mut g, "shoot u0 u1");
    roll(&mut g, &[6, 5, 4, 1, 1, 1]); // 3 sticks of knockback
    // It stops when its base touches the wall (y = 2.75 - 1/8).
    assert_eq!(at(&g, 1), pt(3.0, 2.625));
    assert!(stunned(&g, 1));
    // Stunned units cannot be attacked.
    refused(&mut g, "shoot u0 u1", "SDE-KB2");
    // The board edge too.
    let mut g = duel("guncannon", "dom");
    put(&mut g, 1, 3.0, 5.0);
    act(&mut g, "shoot u0 u1");
    roll(&mut g, &[6, 1, 1, 1, 1, 1]);
    assert_eq!(at(&g, 1), pt(3.0, 5.875));
    assert!(stunned(&g, 1));
}

#[test]
fn sde_kb3_into_another_unit_stuns_and_the_unit_hit_defends_against_two_dice() {
    let mut g = open(&[&["guncannon"], &["dom", "gm"]]);
    begin(&mut g, 0);
    put(&mut g, 0, 3.0, 1.0);
    put(&mut g, 1, 3.0, 2.0);
    put(&mut g, 2, 3.0, 3.0);
    act(&mut g, "shoot u0 u1");
    let ev = roll(&mut g, &[6, 5, 1, 1, 1, 1]); // 2 sticks: Dom hits the GM after 0.75
    assert_eq!(at(&g, 1), pt(3.0, 2.75));
    assert!(stunned(&g, 1));
    // The GM defends against a 2-die ranged attack (with 1 die: CHEAP).
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Attacks {
            unit: None,
            target: 2,
            att_dice: 2,
            def_dice: 1,
            ..
        }
    )));
    let ev = roll(&mut g, &[6, 3, 2]);
    assert_eq!(fight_result(&ev), Some((Winner::Attacker, 1)));
    // It goes on along the line: 2 sticks.
    assert_eq!(at(&g, 2), pt(3.0, 5.0));
    assert_eq!(g.now.phase, Phase::Turn);
}

#[test]
fn sde_recover_stunned_units_spend_an_action_to_get_up() {
    let mut g = duel("gm", "zaku");
    g.now.units[0].stunned = true;
    refused(&mut g, "move u0 n 0.5", "SDE-RECOVER");
    refused(&mut g, "shoot u0 u1", "SDE-RECOVER");
    act(&mut g, "recover u0");
    assert!(!stunned(&g, 0));
    assert_eq!(g.now.units[0].actions, 1);
    refused(&mut g, "recover u0", "SDE-RECOVER");
}

// ----- The letters ------------------------------------------------------------------------------

#[test]
fn sde_a_artillery_ignores_range_penalties_and_the_extra_die_option() {
    let mut g = duel("guntank", "zaku");
    put(&mut g, 1, 3.0, 4.0);
    let ev = act(&mut g, "shoot u0 u1");
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Attacks { att_dice: 3, .. }))
    );
    let mut g = game(
        "king_of_the_hill",
        &[&["guntank"], &["zaku"]],
        vec![],
        &[("artillery", "extra_die")],
    );
    begin(&mut g, 0);
    put(&mut g, 0, 3.0, 1.0);
    put(&mut g, 1, 3.0, 4.0);
    let ev = act(&mut g, "shoot u0 u1");
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Attacks { att_dice: 4, .. }))
    );
}

#[test]
fn sde_b_bits_shoot_from_any_point_within_one_stick() {
    let mut g = game(
        "king_of_the_hill",
        &[&["qubeley"], &["zaku"]],
        vec![wall(2.0, 1.45, 4.0, 1.55)],
        &[],
    );
    begin(&mut g, 0);
    put(&mut g, 0, 3.5, 1.0);
    put(&mut g, 1, 3.5, 2.0);
    refused(&mut g, "shoot u0 u1", "SDE-SIGHT");
    refused(&mut g, "shoot u0 u1 from 4.6,1.5", "SDE-B"); // more than a stick away
    let ev = act(&mut g, "shoot u0 u1 from 4.3,1.5");
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Attacks { att_dice: 4, .. }))
    );
    roll(&mut g, &[6, 1, 1, 1, 1]);
    // Knocked back along the line from the bits' point.
    assert!(at(&g, 1).x < ticks(3.5) && at(&g, 1).y > ticks(2.0));
}

#[test]
fn sde_b_only_bits_shoot_from_elsewhere() {
    let mut g = duel("dom", "zaku");
    refused(&mut g, "shoot u0 u1 from 3.5,1", "SDE-B");
}

#[test]
fn sde_c_cheap_defends_with_one_die_less() {
    let mut g = duel("dom", "zaku");
    let ev = act(&mut g, "shoot u0 u1");
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Attacks {
            att_dice: 3,
            def_dice: 1,
            ..
        }
    )));
    // Value 2 or 3 only.
    let bad = "[x]\nname = \"X\"\nvalue = 4\nspecial = \"C\"\n";
    let err = Catalog::from_sources("units.toml", bad, &[]).unwrap_err();
    assert!(err.to_string().contains("SDE-C"), "{err}");
}

#[test]
fn sde_f_fast_units_move_free_at_the_end_of_the_turn() {
    let mut g = duel("dom", "zaku");
    act(&mut g, "move u0 n 0.5");
    act(&mut g, "move u0 s 0.5");
    act(&mut g, "end");
    assert_eq!(g.now.phase, Phase::FastMoves);
    assert_eq!(g.now.active, 0);
    act(&mut g, "move u0 w 1");
    refused(&mut g, "move u0 w 1", "SDE-F");
    act(&mut g, "end");
    assert_eq!(g.now.active, 1);
    // A unit without FAST has no free move.
    act(&mut g, "end");
    assert_eq!(g.now.active, 0);
    let mut g = duel("gm", "zaku");
    act(&mut g, "end");
    assert_eq!(g.now.active, 1);
}

#[test]
fn sde_h_hidden_units_are_found_not_knocked_back() {
    let mut g = duel("dom", "zgok");
    g.now.units[1].hidden = true;
    act(&mut g, "shoot u0 u1");
    let ev = roll(&mut g, &[6, 5, 4, 1, 1, 1]);
    assert!(ev.contains(&Event::Unhidden { unit: 1 }));
    assert_eq!(at(&g, 1), pt(3.0, 2.0), "no knockback");
    assert!(!stunned(&g, 1));
}

#[test]
fn sde_h_hidden_attacker_gets_a_die_and_unhides_and_hits_hidden_units() {
    let mut g = duel("zgok", "aggai");
    act(&mut g, "hide u0");
    assert!(g.now.units[0].hidden);
    refused(&mut g, "hide u0", "SDE-H");
    g.now.units[1].hidden = true;
    let ev = act(&mut g, "shoot u0 u1");
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Attacks { att_dice: 4, .. })),
        "3 + 1 hidden"
    );
    assert!(!g.now.units[0].hidden);
    roll(&mut g, &[6, 1, 1, 1, 2, 1]);
    // Hidden against hidden: the defender takes knockback as normal.
    assert_eq!(at(&g, 1), pt(3.0, 3.0));
    // Only HIDE units hide.
    let mut g = duel("dom", "zaku");
    refused(&mut g, "hide u0", "SDE-H");
}

#[test]
fn sde_h_may_hide_at_the_start() {
    let mut g = open(&[&["zgok"], &["zaku"]]);
    assert_eq!(g.now.phase, Phase::StartHidden { seat: 0 });
    act(&mut g, "hide u0");
    act(&mut g, "done");
    assert!(g.now.units[0].hidden);
    assert!(matches!(g.now.phase, Phase::TurnOrder { .. }));
}

#[test]
fn sde_m_melee_units_get_a_die_and_a_lost_attack_is_a_tie() {
    let mut g = duel("gouf", "dom");
    put(&mut g, 1, 3.0, 1.3);
    let ev = act(&mut g, "melee u0 u1");
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Attacks {
            att_dice: 4,
            def_dice: 3,
            ..
        }
    )));
    let ev = roll(&mut g, &[2, 2, 1, 1, 6, 6, 6]);
    assert_eq!(
        fight_result(&ev),
        Some((Winner::Tie, 0)),
        "lost melee attack counts as a tie"
    );
    assert_eq!(g.now.phase, Phase::Turn);
    // And +1 die defending in melee.
    let mut g = duel("dom", "gouf");
    put(&mut g, 1, 3.0, 1.3);
    let ev = act(&mut g, "melee u0 u1");
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Attacks {
            att_dice: 3,
            def_dice: 4,
            ..
        }
    )));
}

#[test]
fn sde_s_spray_splits_the_dice_across_targets() {
    let mut g = open(&[&["bigzam"], &["zaku", "gm"]]);
    begin(&mut g, 0);
    put(&mut g, 0, 3.0, 1.0);
    put(&mut g, 1, 2.5, 2.0);
    put(&mut g, 2, 3.5, 2.0);
    refused(&mut g, "shoot u0 u1:3 u2:3", "SDE-S"); // 6 dice, Bigzam has 5
    let ev = act(&mut g, "shoot u0 u1:3 u2:2");
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Attacks {
            target: 1,
            att_dice: 3,
            def_dice: 1,
            ..
        }
    )));
    // First share: 3 dice against 1, a loss; then the second share's fight begins.
    let ev = roll(&mut g, &[1, 1, 1, 6]);
    assert_eq!(fight_result(&ev), Some((Winner::Defender, 0)));
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Attacks {
            target: 2,
            att_dice: 2,
            def_dice: 1,
            ..
        }
    )));
    let ev = roll(&mut g, &[6, 1, 1]);
    assert_eq!(fight_result(&ev), Some((Winner::Attacker, 0)));
    let moved = battlemat_geom::table::distance_floor(pt(3.5, 2.0), at(&g, 2));
    assert!(
        (STICK - 2..=STICK).contains(&moved),
        "1 stick along the line of fire: {moved}"
    );
    assert_eq!(g.now.units[0].actions, 1, "one action for both shares");
    let mut g = open(&[&["dom"], &["zaku", "gm"]]);
    begin(&mut g, 0);
    put(&mut g, 0, 3.0, 1.0);
    put(&mut g, 1, 2.5, 2.0);
    put(&mut g, 2, 3.5, 2.0);
    refused(&mut g, "shoot u0 u1:2 u2:1", "SDE-S");
}

#[test]
fn sde_t_transports_carry_their_value_and_never_melee() {
    let mut g = open(&[&["megarider", "zaku", "gm"], &["zaku"]]);
    begin(&mut g, 0);
    put(&mut g, 0, 3.0, 1.0);
    put(&mut g, 1, 3.0, 1.35);
    put(&mut g, 2, 3.0, 0.65);
    put(&mut g, 3, 3.0, 2.6);
    act(&mut g, "move u0 4,1 load u1,u2");
    assert_eq!(g.now.units[1].aboard, Some(0));
    refused(&mut g, "move u1 n 0.5", "SDE-T"); // aboard
    act(&mut g, "move u0 4,2 drop u1@4,2.35");
    assert_eq!(g.now.units[1].aboard, None);
    assert_eq!(at(&g, 1), pt(4.0, 2.35));
    put(&mut g, 3, 4.0, 1.65);
    refused(&mut g, "melee u0 u3", "SDE-T");
    // Only transports carry.
    refused(&mut g, "move u1 n 0.5 load u2", "SDE-T");
}

#[test]
fn sde_t_a_transport_with_room_left_is_offered_the_rest() {
    // SDE-T: a Megarider (value 2) carrying one unit, with two more friendly units next to
    // it, may still pick up one of them: the candidates offer it, and a full transport is
    // offered no load.
    let mut g = open(&[&["megarider", "zaku", "gm", "zaku"], &["zaku"]]);
    begin(&mut g, 0);
    put(&mut g, 0, 3.0, 1.0);
    put(&mut g, 1, 3.0, 1.35);
    put(&mut g, 2, 5.0, 1.0);
    put(&mut g, 3, 5.0, 2.0);
    put(&mut g, 4, 3.0, 5.0);
    act(&mut g, "move u0 4,1 load u1");
    put(&mut g, 2, 4.0, 1.35);
    put(&mut g, 3, 4.0, 0.65);
    let loads = |g: &SdEra| {
        g.legal_actions()
            .iter()
            .map(|a| a.to_string())
            .filter(|a| a.starts_with("move u0") && a.contains("load"))
            .collect::<Vec<_>>()
    };
    let offered = loads(&g);
    assert!(
        !offered.is_empty() && offered.iter().all(|a| a.contains("load u2")),
        "{offered:?}"
    );
    for a in &offered {
        assert!(g.check(&a.parse().unwrap()).is_ok(), "{a}");
    }
    act(&mut g, &offered[0]);
    assert_eq!(g.now.units[2].aboard, Some(0));
    // Full: two aboard, a third friendly unit next to it is not offered.
    let mut g = open(&[&["megarider", "zaku", "gm", "zaku"], &["zaku"]]);
    begin(&mut g, 0);
    put(&mut g, 0, 3.0, 1.0);
    put(&mut g, 1, 3.0, 1.35);
    put(&mut g, 2, 3.0, 0.65);
    put(&mut g, 3, 5.0, 1.0);
    put(&mut g, 4, 3.0, 5.0);
    act(&mut g, "move u0 4,1 load u1,u2");
    put(&mut g, 3, 4.0, 1.35);
    assert_eq!(g.next(), Next::Decide(0));
    assert!(loads(&g).is_empty(), "{:?}", loads(&g));
    refused(&mut g, "move u0 4,2 load u3", "SDE-T");
}

#[test]
fn sde_v_veteran_rerolls_one_die_the_owner_chooses() {
    let mut g = duel("rick_dias", "dom");
    act(&mut g, "shoot u0 u1");
    roll(&mut g, &[2, 2, 1, 5, 1, 1]);
    // Seat 0 is asked: re-roll a 1 or a 2, or keep.
    assert_eq!(g.next(), Next::Decide(0));
    refused(&mut g, "reroll 6", "SDE-V");
    act(&mut g, "reroll 2");
    let ev = roll(&mut g, &[6]);
    assert_eq!(fight_result(&ev), Some((Winner::Attacker, 0)));
    assert_eq!(at(&g, 1), pt(3.0, 3.0));
}

// ----- Missions ---------------------------------------------------------------------------------

#[test]
fn sde_koth_1_2_hill_holds_one_tokens_once_a_turn_and_knock_off() {
    let mut g = game(
        "king_of_the_hill",
        &[&["gouf", "gm"], &["zaku", "zgok"]],
        vec![hill(3.0, 3.0, 0.5, 1)],
        &[],
    );
    begin(&mut g, 0);
    put(&mut g, 0, 3.0, 2.3);
    put(&mut g, 1, 1.0, 1.0);
    put(&mut g, 2, 3.0, 2.625); // the Zaku is on the hill's edge, next to the Gouf
    put(&mut g, 3, 5.0, 5.0);
    refused(&mut g, "collect u0", "SDE-KOTH.2");
    // Knocked off by melee: the attacker may take its place.
    act(&mut g, "melee u0 u2");
    roll(&mut g, &[6, 1, 1, 1, 1]);
    act(&mut g, "push e");
    assert!(matches!(
        g.now.phase,
        Phase::Choose(Choice::TakeHill { unit: 0, .. })
    ));
    act(&mut g, "take");
    assert_eq!(at(&g, 0), pt(3.0, 2.625));
    act(&mut g, "end");
    act(&mut g, "end");
    act(&mut g, "collect u0");
    assert_eq!(g.now.tokens[0], 1);
    refused(&mut g, "collect u0", "SDE-KOTH.2"); // one a turn
}

/// KING OF THE HILL on a hill of radius 1/2 stick in the table's middle that holds one
/// (SDE-KOTH.1): the first seat's Gouf (`u0`) at `x`,`y`, its turn, and the second seat's
/// Zaku (`u1`) on the hill's middle.
fn gouf_and_zaku_on_the_hill(x: f64, y: f64) -> SdEra {
    let mut g = game(
        "king_of_the_hill",
        &[&["gouf"], &["zaku"]],
        vec![hill(3.0, 3.0, 0.5, 1)],
        &[],
    );
    begin(&mut g, 0);
    put(&mut g, 0, x, y);
    put(&mut g, 1, 3.0, 3.0);
    assert!(g.on_hill(1));
    g
}

#[test]
fn sde_koth_2_the_hills_holder_is_next_to_a_unit_at_its_foot() {
    // SDE-KOTH.2: "Units can be knocked off the hill by any attack that does knockback. If
    // you knock a unit off with melee, you may take their place on the hill." The Zaku holds
    // the middle of the built-in hill (radius 1/2 stick): 3/8 stick from its edge, more than
    // "next to" from any base on the flat. The top of a hill that holds one is one spot: a
    // unit at its foot is next to its holder, melees it off and may take its place.
    let mut g = gouf_and_zaku_on_the_hill(3.0, 2.3); // the Gouf's base 0.075 from the hill's side
    assert!(g.next_to(0, 1) && g.next_to(1, 0));
    act(&mut g, "melee u0 u1");
    roll(&mut g, &[6, 1, 1, 1, 1]);
    act(&mut g, "push e");
    assert!(matches!(
        g.now.phase,
        Phase::Choose(Choice::TakeHill { unit: 0, .. })
    ));
    act(&mut g, "take");
    assert_eq!(at(&g, 0), pt(3.0, 3.0));
    assert!(g.on_hill(0));
    // Farther than 1/6 stick from the hill's side, the Gouf is not next to its holder.
    let mut h = gouf_and_zaku_on_the_hill(3.0, 2.15);
    assert!(!h.next_to(0, 1));
    refused(&mut h, "melee u0 u1", "SDE-MELEE");
}

#[test]
fn sde_koth_2_charge_the_candidate_moves_reach_the_hills_foot_to_charge_its_holder() {
    // SDE-KOTH.2 with SDE-CHARGE: the place to charge a hill's holder from is its foot
    // (the holder is next to every base there), not beside the holder's own base, which is
    // on the top where there is no room. From every side and from half a stick to a stick
    // and a half away, the move menu holds a point at the foot that ends next to the holder
    // and so offers the free melee.
    for (x, y) in [
        (3.0, 1.6),
        (3.0, 4.6),
        (1.9, 3.0),
        (4.1, 3.0),
        (2.2, 2.2),
        (3.9, 3.9),
        (3.0, 2.1),
        (2.4, 4.3),
    ] {
        let g = gouf_and_zaku_on_the_hill(x, y);
        let charges = g
            .legal()
            .into_iter()
            .filter(|a| matches!(a, Action::Move { unit: 0, .. }))
            .any(|action| {
                let mut h = g.clone();
                h.apply(&Step::Act { seat: 0, action }).is_ok()
                    && h.now.charge == Some(0)
                    && h.legal().contains(&Action::Melee { unit: 0, target: 1 })
            });
        assert!(
            charges,
            "from {x},{y}: no listed move charges the hill's holder"
        );
    }
}

#[test]
fn sde_koth_1_the_mission_has_a_hill_in_the_middle_that_holds_one() {
    let g =
        SdEra::new_game(&SdEra::setup("king_of_the_hill", &Default::default()).unwrap()).unwrap();
    let h = g.hill().expect("a hill");
    let hill = &g.fixed.table.pieces[h];
    assert_eq!(hill.holds, 1);
    assert!(hill.outline.contains(g.fixed.centre));
    // Every unit starts on a board edge.
    for u in &g.now.units {
        let b = u.base();
        let t = &g.fixed.table;
        assert!(
            b.centre.y - b.radius == 0 || b.centre.y + b.radius == t.depth,
            "{u:?}"
        );
    }
}

#[test]
fn sde_koth_3_first_to_three_tokens_wins() {
    let mut g = game(
        "king_of_the_hill",
        &[&["gm"], &["zaku"]],
        vec![hill(3.0, 3.0, 0.5, 1)],
        &[],
    );
    begin(&mut g, 0);
    put(&mut g, 0, 3.0, 3.0);
    g.now.tokens[0] = 2;
    act(&mut g, "collect u0");
    let r = g.result().expect("over");
    assert_eq!(r.ranks, vec![1, 2]);
}

#[test]
fn sde_koth_2_hidden_units_cannot_hide_on_the_hill() {
    let mut g = game(
        "king_of_the_hill",
        &[&["zgok"], &["zaku"]],
        vec![hill(3.0, 3.0, 0.5, 1)],
        &[],
    );
    begin(&mut g, 0);
    put(&mut g, 0, 3.0, 3.0);
    refused(&mut g, "hide u0", "SDE-KOTH.2");
}

fn soccer(armies: &[&[&str]]) -> SdEra {
    let mut g = game("soccer", armies, vec![], &[]);
    begin(&mut g, 0);
    g
}

#[test]
fn sde_soccer_1_balls_and_goals() {
    let g = game("soccer", &[&["gm"], &["zaku"]], vec![], &[]);
    assert_eq!(g.now.units.iter().filter(|u| u.is_ball()).count(), 1);
    assert_eq!(g.goals().count(), 2);
    let g = game("soccer", &[&["gm"], &["zaku"], &["gm"]], vec![], &[]);
    assert_eq!(
        g.now.units.iter().filter(|u| u.is_ball()).count(),
        2,
        "two balls for 3 players"
    );
}

#[test]
fn sde_soccer_2_3_shooting_the_ball_into_a_goal_scores() {
    let mut g = soccer(&[&["guncannon"], &["zaku"]]);
    // u0 is the ball, u1 the Guncannon, u2 the Zaku.
    put(&mut g, 1, 3.0, 4.0);
    put(&mut g, 0, 3.0, 4.5);
    put(&mut g, 2, 0.5, 0.5);
    act(&mut g, "shoot u1 u0");
    let ev = roll(&mut g, &[6, 6, 6, 1, 1]); // 3 sticks toward the far goal (seat 1's)
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Goal {
            seat: Some(0),
            goal: 1,
            ..
        }
    )));
    assert_eq!(g.now.tokens[0], 1);
    assert_eq!(at(&g, 0), pt(3.0, 3.0), "back to the centre");
}

#[test]
fn sde_soccer_2_the_ball_bounces_off_an_edge() {
    let mut g = soccer(&[&["guncannon"], &["zaku"]]);
    put(&mut g, 1, 2.0, 3.5);
    put(&mut g, 0, 1.0, 4.0); // shot toward the left edge, far from the goals
    put(&mut g, 2, 5.5, 0.5);
    act(&mut g, "shoot u1 u0");
    let ev = roll(&mut g, &[6, 6, 6, 1, 1]);
    assert!(ev.iter().any(|e| matches!(e, Event::Bounced { .. })));
    let b = at(&g, 0);
    assert!(
        b.x > ticks(0.2) && b.y > ticks(4.4),
        "bounced back off the edge: {b:?}"
    );
}

#[test]
fn sde_soccer_2_ball_hits_unit_and_unit_hits_ball() {
    let mut g = soccer(&[&["guncannon"], &["zaku"]]);
    put(&mut g, 1, 3.0, 1.0);
    put(&mut g, 0, 3.0, 1.5);
    put(&mut g, 2, 3.0, 2.5);
    act(&mut g, "shoot u1 u0");
    roll(&mut g, &[6, 6, 1, 1, 1]); // ball wins: 2 sticks; it meets the Zaku after 0.65
    // The ball melees the Zaku with the attack's 3 dice; the Zaku defends with 1.
    assert!(matches!(g.now.phase, Phase::Fight(_)));
    let ev = roll(&mut g, &[5, 1, 1, 2]);
    assert_eq!(fight_result(&ev), Some((Winner::Attacker, 0)));
    assert!(stunned(&g, 2), "the ball wins: the unit is stunned");
    // ... and the ball finishes its move, past the unit: 2 sticks from where it started.
    assert_eq!(at(&g, 0), pt(3.0, 3.5));
    assert_eq!(g.now.phase, Phase::Turn);
    // A unit knocked into a ball: stunned, and the ball defends against 2 dice.
    let mut g = soccer(&[&["guncannon"], &["dom"]]);
    put(&mut g, 1, 3.0, 1.0);
    put(&mut g, 2, 3.0, 2.0);
    put(&mut g, 0, 3.0, 2.6);
    act(&mut g, "shoot u1 u2");
    let ev = roll(&mut g, &[6, 6, 1, 1, 1, 1]);
    assert!(stunned(&g, 2));
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Attacks {
            unit: None,
            target: 0,
            att_dice: 2,
            def_dice: 2,
            ..
        }
    )));
    roll(&mut g, &[1, 1, 6, 6]);
}

#[test]
fn sde_soccer_2_the_ball_finishes_its_move_from_the_contact_never_on_a_base() {
    // SDE-SOCCER.2: "If the ball wins, the unit is stunned and the ball finishes its move!"
    // The ball (3.0, 1.5) is shot 2 sticks toward a Zaku at (3.0, 3.4): it meets it after
    // 1.675 sticks (the bases' radii 0.1 and 0.125), and 0.325 of its move is left — too
    // short to pass a base it touches (0.45).
    // It finishes its move from the contact and goes on until clear, never to rest on the
    // Zaku.
    let mut g = soccer(&[&["guncannon"], &["zaku"]]);
    put(&mut g, 1, 3.0, 1.0);
    put(&mut g, 0, 3.0, 1.5);
    put(&mut g, 2, 3.0, 3.4);
    act(&mut g, "shoot u1 u0");
    roll(&mut g, &[6, 6, 1, 1, 1]);
    let ev = roll(&mut g, &[5, 1, 1, 2]);
    assert_eq!(fight_result(&ev), Some((Winner::Attacker, 0)));
    assert!(stunned(&g, 2));
    let (ball, zaku) = (g.unit(0).base(), g.unit(2).base());
    assert!(!ball.overlaps(&zaku), "{ball:?} on {zaku:?}");
    assert!(ball.centre.y > zaku.centre.y, "past the Zaku: {ball:?}");
    assert!(
        ball.centre.y - ticks(1.5) >= ticks(2.0),
        "its move finished"
    );
    assert_eq!(ball.centre, pt(3.0, 3.625), "just clear of the Zaku");
    // The next shot meets the stunned Zaku instead of passing through it: shot back toward
    // it (the Guncannon's second action), the ball stops at its base.
    put(&mut g, 1, 3.0, 4.3);
    act(&mut g, "shoot u1 u0");
    roll(&mut g, &[6, 6, 1, 1, 1]);
    let (ball, zaku) = (g.unit(0).base(), g.unit(2).base());
    assert!(!ball.overlaps(&zaku), "{ball:?} through {zaku:?}");
    assert!(
        ball.centre.y > zaku.centre.y,
        "stopped at the Zaku: {ball:?}"
    );
}

#[test]
fn sde_soccer_2_ball_hits_ball_moves_it_away_one_stick() {
    let mut g = game("soccer", &[&["guncannon"], &["zaku"], &["gm"]], vec![], &[]);
    begin(&mut g, 0);
    // Balls u0 and u1; u2 the Guncannon.
    put(&mut g, 2, 3.0, 1.0);
    put(&mut g, 0, 3.0, 1.5);
    put(&mut g, 1, 3.0, 2.0);
    put(&mut g, 3, 0.5, 5.0);
    put(&mut g, 4, 5.5, 5.0);
    act(&mut g, "shoot u2 u0");
    roll(&mut g, &[6, 1, 1, 1, 1]);
    assert_eq!(
        at(&g, 0),
        pt(3.0, 1.8),
        "the first ball stops at the second"
    );
    assert_eq!(
        at(&g, 1),
        pt(3.0, 3.0),
        "the second moves 1 stick directly away"
    );
}

#[test]
fn sde_kickbomb_1_2_explode_dice_grow_and_blasts_cost_tokens() {
    let mut g = game("kick_bomb", &[&["gm"], &["zaku"]], vec![], &[]);
    begin(&mut g, 0);
    assert_eq!(g.now.tokens, vec![3, 3]);
    put(&mut g, 1, 2.5, 2.0); // near the bomb (2.5, 2.5)
    put(&mut g, 2, 0.5, 4.5);
    act(&mut g, "end");
    assert!(matches!(g.now.phase, Phase::BombRoll { left: 1, .. }));
    let ev = roll(&mut g, &[3]);
    assert!(ev.contains(&Event::BombGrows { bomb: 0, dice: 2 }));
    act(&mut g, "end");
    roll(&mut g, &[2, 6]);
    assert!(stunned(&g, 1));
    assert_eq!(g.now.tokens, vec![2, 3]);
    assert_eq!(g.bomb_dice(0), 1, "back to one die");
}

#[test]
fn sde_kickbomb_3_last_player_with_tokens_wins() {
    let mut g = game("kick_bomb", &[&["gm"], &["zaku"]], vec![], &[]);
    begin(&mut g, 0);
    g.now.tokens = vec![1, 3];
    put(&mut g, 1, 2.5, 2.0);
    act(&mut g, "end");
    roll(&mut g, &[6]);
    let r = g.result().expect("over");
    assert_eq!(r.ranks, vec![2, 1]);
}

fn ring(armies: &[&[&str]]) -> SdEra {
    let mut g = game("ring_battle", armies, vec![], &[]);
    begin(&mut g, 0);
    g
}

#[test]
fn sde_ring_1_no_hiding_hide_units_are_veterans() {
    let mut g = game("ring_battle", &[&["zgok"], &["zaku"]], vec![], &[]);
    assert!(
        matches!(g.now.phase, Phase::TurnOrder { .. }),
        "no hiding at the start"
    );
    begin(&mut g, 0);
    refused(&mut g, "hide u0", "SDE-RING.1");
    assert!(g.has(0, battlemat_sd_era::data::Special::V));
}

#[test]
fn sde_ring_2_knocked_out_units_cheer_and_break_in() {
    let mut g = ring(&[&["guncannon"], &["zaku", "gm"]]);
    // Centre (4, 4), radius 3.
    put(&mut g, 0, 4.0, 5.0);
    put(&mut g, 1, 4.0, 6.0);
    put(&mut g, 2, 3.0, 3.0);
    act(&mut g, "shoot u0 u1");
    roll(&mut g, &[6, 5, 1, 1]); // 2 sticks: out of the ring (and into the edge)
    assert!(g.now.units[1].outside);
    assert!(
        g.fixed.centre.y + ticks(3.0) < at(&g, 1).y || at(&g, 1).y < g.fixed.centre.y,
        "outside the ring"
    );
    act(&mut g, "end");
    // Seat 1's outside unit gets up, then may cheer or break in.
    act(&mut g, "recover u1");
    refused(&mut g, "shoot u1 u0", "SDE-RING.2"); // outside may attack only outside
    act(&mut g, "cheer u1 u2");
    assert_eq!(g.now.units[2].cheer, 1);
    act(&mut g, "end");
    act(&mut g, "end");
    act(&mut g, "breakin u1");
    roll(&mut g, &[4, 4]);
    assert!(!g.now.units[1].outside, "all the same: in the ring");
}

#[test]
fn sde_ring_2_an_outside_unit_that_loses_is_stunned_and_the_winner_earns_a_cheer() {
    let mut g = ring(&[&["guncannon", "gm"], &["zaku", "zaku"]]);
    put(&mut g, 3, 4.0, 5.0);
    put(&mut g, 0, 4.0, 4.0);
    put(&mut g, 1, 0.5, 0.5);
    g.now.units[1].outside = true;
    put(&mut g, 2, 0.5, 1.5);
    g.now.units[2].outside = true;
    // u1 (outside) shoots u2 (outside) and wins.
    act(&mut g, "shoot u1 u2");
    roll(&mut g, &[6, 1, 1]);
    assert!(stunned(&g, 2));
    assert!(matches!(
        g.now.phase,
        Phase::Choose(Choice::EarnedCheer { seat: 0 })
    ));
    act(&mut g, "place u0");
    assert_eq!(g.now.units[0].cheer, 1);
}

#[test]
fn sde_ring_3_last_player_in_the_ring_wins() {
    let mut g = ring(&[&["guncannon"], &["zaku"]]);
    put(&mut g, 0, 4.0, 5.0);
    put(&mut g, 1, 4.0, 6.0);
    act(&mut g, "shoot u0 u1");
    roll(&mut g, &[6, 5, 1, 1]);
    let r = g.result().expect("over");
    assert_eq!(r.ranks, vec![1, 2]);
}

#[test]
fn sde_gallery_1_at_least_three_units_each() {
    let err = SdEra::new_game(&setup(
        "shooting_gallery",
        &[&["gundam", "guncannon"], &["zaku", "gm", "ball"]],
        vec![],
        &[],
    ))
    .unwrap_err();
    assert!(err.to_string().contains("at least 3"), "{err}");
    let g =
        SdEra::new_game(&SdEra::setup("shooting_gallery", &Default::default()).unwrap()).unwrap();
    assert_eq!(g.fixed.table.width, 4 * STICK);
}

#[test]
fn sde_gallery_2_3_a_token_for_each_enemy_stunned_five_wins() {
    let mut g = game(
        "shooting_gallery",
        &[&["guncannon", "ball", "zaku"], &["dom", "gm", "zaku"]],
        vec![],
        &[],
    );
    begin(&mut g, 0);
    put(&mut g, 0, 2.0, 2.0);
    put(&mut g, 3, 2.0, 3.5);
    for u in [1u8, 2, 4, 5] {
        put(&mut g, u, 0.5 + f64::from(u) * 0.5, 0.3);
    }
    g.now.tokens[0] = 4;
    act(&mut g, "shoot u0 u3");
    roll(&mut g, &[6, 1, 1, 1, 1, 1]); // into the edge: stunned
    assert!(stunned(&g, 3));
    assert_eq!(g.now.tokens[0], 5);
    assert_eq!(g.result().expect("over").ranks, vec![1, 2]);
}

// ----- Bad input ----------------------------------------------------------------------------

#[test]
fn actions_read_back_and_bad_input_is_refused_without_change() {
    for a in [
        "move u2 3.25,1.5",
        "move u0 ne 0.5",
        "shoot u1 u4:2 u5:3",
        "shoot u1 u4 from 2,3",
        "push nnw 1",
        "move u0 1,1 load u1,u2 drop u3@1.5,1",
    ] {
        let parsed: Action = a.parse().unwrap();
        assert_eq!(parsed.to_string().parse::<Action>().unwrap(), parsed, "{a}");
    }
    assert!("move u0".parse::<Action>().is_err());
    assert!("fly u0 1,1".parse::<Action>().is_err());
    let mut g = duel("gm", "zaku");
    let before = g.clone();
    assert!(
        g.apply(&Step::Act {
            seat: 0,
            action: "melee u0 u99".parse().unwrap()
        })
        .is_err()
    );
    assert!(
        g.apply(&Step::Act {
            seat: 0,
            action: "move u99 1,1".parse().unwrap()
        })
        .is_err()
    );
    assert!(
        g.apply(&Step::Act {
            seat: 1,
            action: Action::End
        })
        .is_err()
    );
    assert_eq!(g, before);
}

#[test]
fn sde_soccer_3_first_to_three_goals_wins() {
    let mut g = soccer(&[&["guncannon"], &["zaku"]]);
    g.now.tokens[0] = 2;
    put(&mut g, 1, 3.0, 4.0);
    put(&mut g, 0, 3.0, 4.5);
    put(&mut g, 2, 0.5, 0.5);
    act(&mut g, "shoot u1 u0");
    roll(&mut g, &[6, 6, 6, 1, 1]);
    let r = g.result().expect("over");
    assert_eq!(
        (r.scores.clone(), r.ranks.clone()),
        (vec![3, 0], vec![1, 2])
    );
}

#[test]
fn sde_kickbomb_1_two_bombs_with_three_players_and_three_tokens_each() {
    let g = game("kick_bomb", &[&["gm"], &["zaku"], &["gm"]], vec![], &[]);
    assert_eq!(g.now.units.iter().filter(|u| u.is_ball()).count(), 2);
    assert_eq!(g.now.tokens, vec![3, 3, 3]);
    assert_eq!(g.fixed.table.width, 5 * STICK);
}

#[test]
fn sde_kickbomb_2_the_bomb_with_the_most_dice_rolls_first() {
    let mut g = game("kick_bomb", &[&["gm"], &["zaku"], &["gm"]], vec![], &[]);
    begin(&mut g, 0);
    g.now.units[1].body = battlemat_sd_era::state::Body::Bomb { dice: 3 };
    act(&mut g, "end");
    assert!(matches!(
        g.now.phase,
        Phase::BombRoll {
            bomb: 1,
            left: 3,
            ..
        }
    ));
    roll(&mut g, &[1, 2, 3]);
    assert!(matches!(
        g.now.phase,
        Phase::BombRoll {
            bomb: 0,
            left: 1,
            ..
        }
    ));
}

#[test]
fn sde_t1_the_round_limit_ends_a_game_nobody_has_won() {
    let mut g = game(
        "king_of_the_hill",
        &[&["gm"], &["zaku"]],
        vec![],
        &[("rounds", "15")],
    );
    begin(&mut g, 1);
    g.now.tokens = vec![1, 0];
    for _ in 0..29 {
        act(&mut g, "end");
        assert!(g.result().is_none());
    }
    act(&mut g, "end");
    let r = g.result().expect("over after 15 rounds");
    assert_eq!(r.ranks, vec![1, 2]);
    assert!(r.reason.contains("15-round"));
    assert!(r.by_limit, "ended by the house rule's limit");
}

#[test]
fn sde_t1_no_round_limit_unless_asked_for() {
    // SDE-T1: "two actions for each of your units, then the next player; until the mission
    // ends" — by default no round limit: sixty rounds of nothing and the game goes on.
    let mut g = game("king_of_the_hill", &[&["gm"], &["zaku"]], vec![], &[]);
    begin(&mut g, 1);
    for _ in 0..120 {
        act(&mut g, "end");
    }
    assert!(g.result().is_none());
    assert_eq!(g.fixed.options.rounds.limit(), None);
}

#[test]
fn resigning_ends_the_game_with_the_resigner_last() {
    let mut g = open(&[&["gm"], &["zaku"], &["gm"]]);
    begin(&mut g, 0);
    g.now.tokens = vec![0, 2, 1];
    g.apply(&Step::Resign { seat: 1 }).unwrap();
    let r = g.result().expect("over");
    assert_eq!(r.ranks, vec![2, 3, 1]);
}

#[test]
fn sde_shoot_sum_contest_option_compares_totals() {
    let mut g = game(
        "king_of_the_hill",
        &[&["guncannon"], &["dom"]],
        vec![],
        &[("contest", "sum")],
    );
    begin(&mut g, 0);
    put(&mut g, 0, 3.0, 1.0);
    put(&mut g, 1, 3.0, 2.0);
    act(&mut g, "shoot u0 u1");
    // 5+5+5 = 15 against 6+1+1 = 8: the highest die would lose; totals win by 7,
    // overkill (7 - 1) div 3 = 2.
    let ev = roll(&mut g, &[5, 5, 5, 6, 1, 1]);
    assert_eq!(fight_result(&ev), Some((Winner::Attacker, 2)));
    assert_eq!(at(&g, 1), pt(3.0, 5.0));
}

#[test]
fn sde_t2_the_draft_picks_under_the_points_and_the_unit_limit() {
    let mut g = game(
        "king_of_the_hill",
        &[&[], &[]],
        vec![],
        &[("armies", "draft"), ("points", "10")],
    );
    assert_eq!(g.now.phase, Phase::Draft { seat: 0 });
    refused(&mut g, "done", "SDE-T2"); // an army needs a unit
    act(&mut g, "pick gundam");
    assert_eq!(g.now.phase, Phase::Draft { seat: 1 });
    act(&mut g, "pick zz");
    act(&mut g, "pick guncannon"); // 4 + 3 = 7
    act(&mut g, "pick zaku");
    refused(&mut g, "pick zz", "SDE-T2"); // 12 points
    act(&mut g, "done");
    act(&mut g, "pick gm"); // seat 1 again: seat 0 is done
    refused(&mut g, "pick ball", "SDE-T2"); // a fourth unit
    act(&mut g, "pick megarider"); // transports do not count
    act(&mut g, "done");
    assert!(matches!(g.now.phase, Phase::TurnOrder { .. }));
    assert_eq!(g.army(0).len(), 2);
    assert_eq!(g.army(1).len(), 4);
}

#[test]
fn sde_charge_balls_option_lets_a_move_next_to_the_ball_kick_it() {
    for (opt, free) in [("false", false), ("true", true)] {
        let mut g = game(
            "soccer",
            &[&["gm"], &["zaku"]],
            vec![],
            &[("charge_balls", opt)],
        );
        begin(&mut g, 0);
        put(&mut g, 1, 3.0, 2.2);
        act(&mut g, "move u1 3,2.65");
        assert_eq!(g.now.charge == Some(1), free, "charge_balls={opt}");
    }
}

#[test]
fn sde_ring_1_players_take_turns_placing_units_in_turn_order() {
    let mut g = game("ring_battle", &[&["gm", "zaku"], &["dom"]], vec![], &[]);
    // Turn order first: seat 1 wins the roll.
    roll(&mut g, &[1, 1]);
    roll(&mut g, &[6, 6, 6]);
    assert_eq!(g.now.phase, Phase::Deploy { seat: 1 });
    assert!(g.now.units.iter().all(|u| u.waiting));
    // Outside the ring but far from your own edge: refused. (Centre (4, 4), radius 3; seat 1's
    // edge is the far one.)
    refused(&mut g, "deploy u2 0.5,0.5", "SDE-RING.1");
    refused(&mut g, "deploy u0 4,4", "SDE-RING.1"); // not seat 1's unit
    act(&mut g, "deploy u2 4,7.6"); // outside the ring, at its own edge
    assert!(g.now.units[2].outside);
    assert_eq!(g.now.phase, Phase::Deploy { seat: 0 });
    act(&mut g, "deploy u0 4,4"); // in the ring
    refused(&mut g, "deploy u1 4.1,4", "SDE-RING.1"); // no room: overlaps u0
    act(&mut g, "deploy u1 3,3");
    assert!(!g.now.units[0].outside && !g.now.units[1].outside);
    // All placed: the first player's turn.
    assert_eq!(g.now.phase, Phase::Turn);
    assert_eq!(g.now.active, 1);
}

#[test]
fn sde_koth_2_a_defender_who_knocks_the_attacker_off_may_take_its_place() {
    let mut g = game(
        "king_of_the_hill",
        &[&["gm"], &["gouf"]],
        vec![hill(3.0, 3.0, 0.5, 1)],
        &[],
    );
    begin(&mut g, 0);
    put(&mut g, 0, 3.0, 2.625); // the GM on the hill's edge
    put(&mut g, 1, 3.0, 2.3); // the Gouf just off it, next to the GM
    act(&mut g, "melee u0 u1");
    // 2 dice against the Gouf's 4 (MELEE defending): the Gouf wins with overkill.
    roll(&mut g, &[2, 1, 6, 5, 1, 1]);
    act(&mut g, "push e");
    assert!(matches!(
        g.now.phase,
        Phase::Choose(Choice::TakeHill {
            seat: 1,
            unit: 1,
            ..
        })
    ));
    act(&mut g, "take");
    assert_eq!(at(&g, 1), pt(3.0, 2.625));
}

#[test]
fn sde_ring_2_a_transport_carries_no_unit_across_the_ring_edge() {
    let mut g = ring(&[&["megarider", "zaku"], &["gm"]]);
    // Centre (4, 4), radius 3: the Megarider just outside, the Zaku just inside, next to it.
    put(&mut g, 0, 4.0, 7.2);
    g.now.units[0].outside = true;
    put(&mut g, 1, 4.0, 6.85);
    put(&mut g, 2, 4.0, 4.0);
    refused(&mut g, "move u0 4.9,7.3 load u1", "SDE-RING.2");
}

#[test]
fn sde_b_bits_do_not_shoot_from_inside_the_target() {
    let mut g = duel("qubeley", "zaku");
    refused(&mut g, "shoot u0 u1 from 3,2", "SDE-B");
}

#[test]
fn a_saved_state_naming_missing_units_is_refused() {
    let g = duel("gm", "zaku");
    let mut json = serde_json::to_value(&g).unwrap();
    json["now"]["charge"] = serde_json::json!(200);
    let err = serde_json::from_value::<SdEra>(json)
        .unwrap_err()
        .to_string();
    assert!(err.contains("u200"), "{err}");
    let mut json = serde_json::to_value(&g).unwrap();
    json["now"]["phase"] = serde_json::json!({"draft": {"seat": 9}});
    let err = serde_json::from_value::<SdEra>(json)
        .unwrap_err()
        .to_string();
    assert!(err.contains("seat 9"), "{err}");
}

// ----- SAFARI -------------------------------------------------------------------------------

/// A safari on an open 6 x 6 table; the animals are u0.. (four a player, valued 1, 2, 3, 4),
/// then the players' units.
fn safari(armies: &[&[&str]]) -> SdEra {
    let mut g = game("safari", armies, vec![], &[]);
    begin(&mut g, 0);
    g
}

#[test]
fn sde_safari_1_four_animals_a_player_valued_one_to_four_away_from_the_edges() {
    let g = game("safari", &[&["gm"], &["zaku"], &["gm"]], vec![], &[]);
    let animals: Vec<u8> = (0..g.now.units.len() as u8)
        .filter(|&u| g.now.units[u as usize].is_animal())
        .map(|u| g.value(u))
        .collect();
    assert_eq!(animals.len(), 12);
    for v in 1..=4 {
        assert_eq!(animals.iter().filter(|&&a| a == v).count(), 3);
    }
    let t = &g.fixed.table;
    for u in g.now.units.iter().filter(|u| u.is_animal()) {
        let c = u.at;
        for d in [c.x, c.y, t.width - c.x, t.depth - c.y] {
            assert!(d >= 2 * STICK, "{c:?} is within 2 sticks of an edge");
        }
    }
}

#[test]
fn sde_safari_2_a_successful_attack_stuns_an_animal_instead_of_knocking_it_back() {
    let mut g = safari(&[&["guncannon"], &["zaku"]]);
    let (gun, animal) = (8, 3); // u3: an animal worth 4
    put(&mut g, gun, 3.0, 1.0);
    put(&mut g, animal, 3.0, 2.0);
    let ev = act(&mut g, "shoot u8 u3");
    assert!(
        ev.iter().any(|e| matches!(
            e,
            Event::Attacks {
                att_dice: 3,
                def_dice: 4,
                ..
            }
        )),
        "an animal defends with its value"
    );
    roll(&mut g, &[6, 6, 6, 1, 1, 1, 1]);
    assert!(stunned(&g, animal));
    assert_eq!(at(&g, animal), pt(3.0, 2.0), "no knockback");
    refused(&mut g, "shoot u8 u3", "SDE-KB2");
}

#[test]
fn sde_safari_2_pick_up_carry_to_an_edge_and_capture() {
    let mut g = safari(&[&["gm"], &["zaku"]]);
    let (gm, animal) = (8, 3);
    g.now.units[animal as usize].stunned = true;
    put(&mut g, animal, 3.0, 0.65);
    put(&mut g, gm, 3.0, 1.0);
    refused(&mut g, "pickup u8 u0", "SDE-SAFARI.2"); // not stunned, not next to it
    act(&mut g, "pickup u8 u3");
    assert_eq!(g.now.units[animal as usize].aboard, Some(gm));
    assert_eq!(g.now.units[gm as usize].actions, 1);
    assert_eq!(g.now.tokens[0], 0, "not yet at an edge");
    // Carrying takes no action; a move that ends at a board edge captures it.
    let ev = act(&mut g, "move u8 3,0.2");
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Captured {
            seat: 0,
            animal: 3,
            points: 4
        }
    )));
    assert_eq!(g.now.tokens[0], 4);
    assert_eq!(g.now.units[animal as usize].captured, Some(0));
}

#[test]
fn sde_safari_2_knockback_while_carrying_drops_the_animal() {
    let mut g = safari(&[&["guncannon"], &["zaku"]]);
    let (gun, zaku, animal) = (8, 9, 0);
    g.now.units[animal as usize].stunned = true;
    g.now.units[animal as usize].aboard = Some(zaku);
    put(&mut g, gun, 3.0, 1.0);
    put(&mut g, zaku, 3.0, 2.0);
    act(&mut g, "shoot u8 u9");
    let ev = roll(&mut g, &[6, 1, 1, 1]);
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::AnimalDropped { animal: 0, .. }))
    );
    assert_eq!(g.now.units[animal as usize].aboard, None);
    assert!(g.now.units[animal as usize].stunned);
}

#[test]
fn sde_safari_2_a_transport_picks_up_by_moving_past() {
    let mut g = safari(&[&["megarider", "zaku"], &["gm"]]);
    let (rider, animal) = (8, 1);
    g.now.units[animal as usize].stunned = true;
    put(&mut g, rider, 1.0, 1.0);
    put(&mut g, animal, 1.5, 1.1);
    act(&mut g, "move u8 2,1");
    assert_eq!(g.now.units[animal as usize].aboard, Some(rider));
}

#[test]
fn sde_safari_2_an_animal_defending_in_melee_knocks_back_directly_away() {
    let mut g = safari(&[&["gm"], &["zaku"]]);
    let (gm, animal) = (8, 3); // worth 4: defends with 4 dice
    for a in [0u8, 1, 2, 4, 5, 6, 7] {
        put(&mut g, a, 0.5 + f64::from(a) * 0.7, 5.5);
    }
    put(&mut g, animal, 3.0, 3.0);
    put(&mut g, gm, 3.0, 2.7);
    act(&mut g, "melee u8 u3");
    roll(&mut g, &[1, 1, 6, 5, 1, 1]);
    assert_eq!(
        at(&g, gm),
        pt(3.0, 1.7),
        "1 stick straight away from the animal"
    );
}

#[test]
fn sde_safari_2_the_animals_turn_recover_charge_or_run() {
    let mut g = safari(&[&["gm"], &["zaku"]]);
    let gm = 8;
    // Keep the animals apart: u0 stunned far away, u1 next to the GM, the rest far off.
    for (a, x, y) in [
        (0u8, 0.5, 5.5),
        (1, 3.0, 3.0),
        (2, 5.5, 5.5),
        (3, 5.5, 0.5),
        (4, 0.5, 0.5),
        (5, 5.5, 3.0),
        (6, 0.5, 3.0),
        (7, 3.0, 5.5),
    ] {
        put(&mut g, a, x, y);
    }
    g.now.units[0].stunned = true;
    put(&mut g, gm, 3.0, 2.0);
    put(&mut g, 9, 4.5, 1.5);
    act(&mut g, "end");
    act(&mut g, "end");
    // The stunned animal (worth 1) rolls one die: a 6 and it is up.
    assert_eq!(g.now.phase, Phase::AnimalRecover { animal: 0, left: 1 });
    roll(&mut g, &[6]);
    assert!(!stunned(&g, 0));
    // u1 (worth 2) is within a stick of the GM: its two dice show a 6 — it charges with
    // 2 + 1 dice against the GM's 1.
    assert_eq!(g.now.phase, Phase::AnimalCharge { animal: 1, left: 2 });
    let ev = roll(&mut g, &[3, 6]);
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::AnimalCharges {
            animal: 1,
            target: 8
        }
    )));
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Attacks {
            unit: Some(1),
            target: 8,
            att_dice: 3,
            def_dice: 1,
            ..
        }
    )));
    roll(&mut g, &[6, 1, 1, 2]);
    // Knockback in the direction of its move (south), 1 stick.
    assert!(at(&g, gm).y < ticks(1.2), "{:?}", at(&g, gm));
    // Round 2 begins.
    assert_eq!(g.now.phase, Phase::Turn);
    assert_eq!(g.now.round, 2);
    // Next round, no 6: the animal runs 1 stick straight away from the nearest unit.
    put(&mut g, 1, 3.0, 3.0);
    put(&mut g, gm, 3.0, 2.2);
    act(&mut g, "end");
    act(&mut g, "end");
    assert_eq!(g.now.phase, Phase::AnimalCharge { animal: 1, left: 2 });
    let ev = roll(&mut g, &[1, 2]);
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::AnimalRunsAway { animal: 1, .. }))
    );
    assert_eq!(at(&g, 1), pt(3.0, 4.0));
}

#[test]
fn sde_safari_3_when_every_animal_is_captured_the_most_points_wins() {
    let mut g = safari(&[&["gm"], &["zaku"]]);
    for a in 0..8u8 {
        if a != 3 {
            g.now.units[a as usize].captured = Some(1);
        }
    }
    g.now.tokens = vec![0, 6];
    g.now.units[3].stunned = true;
    put(&mut g, 3, 3.0, 0.55);
    put(&mut g, 8, 3.0, 0.2);
    act(&mut g, "pickup u8 u3");
    let r = g.result().expect("over: every animal captured");
    assert_eq!(r.scores, vec![4, 6]);
    assert_eq!(r.ranks, vec![2, 1]);
}

// ----- EGG HUNT -----------------------------------------------------------------------------

/// An egg hunt on a 6 x 6 table with `terrain`: 13 eggs (u0..u12) for two players, then the
/// players' units (u13.. ). Every egg is moved to the far corner row, out of the way, but
/// those a test puts back.
fn egg_hunt(armies: &[&[&str]], terrain: Vec<battlemat_geom::table::Piece>) -> SdEra {
    egg_hunt_with(armies, terrain, &[])
}

fn egg_hunt_with(
    armies: &[&[&str]],
    terrain: Vec<battlemat_geom::table::Piece>,
    opts: &[(&str, &str)],
) -> SdEra {
    let mut g = game("egg_hunt", armies, terrain, opts);
    begin(&mut g, 0);
    for e in 0..13u8 {
        put(&mut g, e, 0.3 + f64::from(e) * 0.42, 5.7);
    }
    g
}

/// Egg u0 at (3, 2), a wall behind it (from y = 2.3), the shooter u13 at (3, 1): a win
/// knocks the egg into the wall.
fn egg_before_wall(armies: &[&[&str]]) -> SdEra {
    egg_before_wall_with(armies, &[])
}

fn egg_before_wall_with(armies: &[&[&str]], opts: &[(&str, &str)]) -> SdEra {
    let mut g = egg_hunt_with(armies, vec![wall(1.0, 2.3, 5.0, 2.6)], opts);
    put(&mut g, 0, 3.0, 2.0);
    put(&mut g, 13, 3.0, 1.0);
    put(&mut g, 14, 0.5, 0.5);
    g
}

/// Shoot egg u0 from u13 and win (the shooter's dice all sixes, the egg's one die a 1):
/// it hits the wall and breaks open.
fn break_egg_zero(g: &mut SdEra) -> Vec<Event> {
    let mut ev = act(g, "shoot u13 u0");
    let dice = g.attack_dice(13, false) as usize;
    let mut faces = vec![6; dice];
    faces.push(1);
    ev.extend(roll(g, &faces));
    ev
}

/// Roll the fight in hand so the attacker wins: its dice 6s, the defender's 1s.
fn attack_wins(g: &mut SdEra) -> Vec<Event> {
    let mut ev = Vec::new();
    while let Phase::Fight(f) = g.now.phase {
        ev.extend(roll(g, &[if f.att.done() { 1 } else { 6 }]));
    }
    ev
}

/// Roll the fight in hand to a tie (every die a 3): nothing happens.
fn attack_fails(g: &mut SdEra) {
    while let Phase::Fight(_) = g.now.phase {
        roll(g, &[3]);
    }
}

#[test]
fn sde_egg_1_six_eggs_a_player_and_the_boss_placed_evenly_contents_drawn_when_opened() {
    for players in [2usize, 3] {
        let armies: Vec<&[&str]> = vec![&["gm"]; players];
        let g = game("egg_hunt", &armies, vec![], &[]);
        let eggs: Vec<_> = g.now.units.iter().filter(|u| u.is_egg()).collect();
        assert_eq!(eggs.len(), 6 * players + 1);
        let c = g.now.eggs.expect("the contents left");
        assert_eq!(
            c.units.count_ones() as usize,
            players,
            "one unit egg a player"
        );
        assert_eq!(c.bombs as usize, players, "one bomb egg a player");
        assert_eq!(c.candy as usize, players, "one candy egg a player");
        assert_eq!(
            c.credits as usize,
            3 * players,
            "three credit eggs a player"
        );
        assert_eq!(c.boss, 1, "one more egg with the boss");
        assert_eq!(c.total() as usize, eggs.len());
        let t = &g.fixed.table;
        for e in &eggs {
            for d in [e.at.x, e.at.y, t.width - e.at.x, t.depth - e.at.y] {
                assert!(d >= STICK, "eggs are spread over the table, not at an edge");
            }
        }
        // The draw weighs each content by how many eggs hold it.
        let Some(total) = (match g.egg_outcomes() {
            battlemat_core::Outcomes::Weighted(o) => Some(o.iter().map(|o| o.weight).sum::<u64>()),
            _ => None,
        }) else {
            panic!("a weighted draw")
        };
        assert_eq!(total as usize, eggs.len());
    }
}

#[test]
fn sde_egg_2_an_egg_defends_with_one_die_and_breaks_open_instead_of_being_stunned() {
    let mut g = egg_before_wall(&[&["guncannon"], &["zaku"]]);
    let ev = break_egg_zero(&mut g);
    assert!(
        ev.iter().any(|e| matches!(
            e,
            Event::Attacks {
                target: 0,
                def_dice: 1,
                ..
            }
        )),
        "an egg defends with one die"
    );
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Knocked { unit: 0, .. })),
        "it takes knockback like a unit"
    );
    assert!(
        !ev.iter().any(|e| matches!(e, Event::Stunned { unit: 0 })),
        "it is not stunned"
    );
    assert!(matches!(
        g.now.phase,
        Phase::EggOpens {
            egg: 0,
            by: Some(0)
        }
    ));
    // Candy: eaten by the player who broke it, worth nothing.
    let ev = roll(&mut g, &[battlemat_sd_era::eggs::CANDY]);
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::EggOpens {
            egg: 0,
            content: battlemat_sd_era::events::EggContent::Candy,
            by: Some(0)
        }
    )));
    assert!(g.now.units[0].gone);
    assert_eq!(g.now.eggs.unwrap().candy, 1);
    assert_eq!(g.now.tokens, vec![0, 0]);
    assert_eq!(g.now.phase, Phase::Turn);
    refused(&mut g, "shoot u13 u0", "SDE-SHOOT"); // no egg there any more
}

#[test]
fn sde_egg_2_an_egg_that_loses_but_hits_nothing_is_only_knocked_back() {
    let mut g = egg_hunt(&[&["guncannon"], &["zaku"]], vec![]);
    put(&mut g, 0, 3.0, 2.0);
    put(&mut g, 13, 3.0, 1.0);
    put(&mut g, 14, 0.5, 0.5);
    break_egg_zero(&mut g);
    assert_eq!(
        at(&g, 0),
        pt(3.0, 3.0 + 2.0),
        "three sixes: overkill 2, 3 sticks"
    );
    assert!(!g.now.units[0].gone && !g.now.units[0].stunned);
    assert_eq!(g.now.phase, Phase::Turn);
}

#[test]
fn sde_egg_2_a_unit_out_of_an_egg_makes_one_free_attack_with_one_more_die_then_joins_its_army() {
    let mut g = egg_before_wall(&[&["guncannon"], &["zaku", "gm"]]);
    break_egg_zero(&mut g);
    // The egg held Player 2's cheap unit (a Zaku: the cheapest, CHEAP first).
    let ev = roll(&mut g, &[1]);
    let hatched = ev
        .iter()
        .find_map(|e| match e {
            Event::Hatched { unit } => Some(*unit),
            _ => None,
        })
        .expect("a unit comes out");
    assert_eq!(g.now.units[hatched as usize].owner, Some(1));
    assert_eq!(g.name(hatched).split(' ').nth(1), Some("Zaku"));
    assert_eq!(
        g.now.phase,
        Phase::Choose(Choice::FreeAttack {
            seat: 1,
            unit: hatched
        })
    );
    // Only that unit attacks, once, with its 2 dice + 1.
    refused(&mut g, "shoot u14 u13", "SDE-EGG.2");
    let ev = act(&mut g, &format!("shoot u{hatched} u13"));
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Attacks {
            target: 13,
            att_dice: 3,
            ..
        }
    )));
    roll(&mut g, &[1, 1, 1, 6, 6, 6]);
    // Back to Player 1's turn; the new unit joins on its owner's next turn.
    assert_eq!(g.now.phase, Phase::Turn);
    assert_eq!(g.now.active, 0);
    act(&mut g, "end");
    assert_eq!(g.now.active, 1);
    assert_eq!(g.now.units[hatched as usize].actions, 2);
}

#[test]
fn sde_egg_2_a_bomb_rolls_two_dice_at_once_then_one_more_each_turn_and_blows_eggs_open() {
    let mut g = egg_before_wall(&[&["guncannon"], &["zaku"]]);
    break_egg_zero(&mut g);
    let ev = roll(&mut g, &[battlemat_sd_era::eggs::BOMB]);
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::EggOpens {
            content: battlemat_sd_era::events::EggContent::Bomb,
            ..
        }
    )));
    let bomb = (g.now.units.len() - 1) as u8;
    assert!(matches!(
        g.now.units[bomb as usize].body,
        battlemat_sd_era::state::Body::Bomb { dice: 2 }
    ));
    assert_eq!(
        g.now.phase,
        Phase::EggBomb {
            bomb,
            left: 2,
            turn_start: false
        },
        "it rolls two dice at once"
    );
    let ev = roll(&mut g, &[5, 4]);
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::BombGrows { dice: 3, .. }))
    );
    assert_eq!(g.now.phase, Phase::Turn);
    // An egg and both units within a stick of the bomb when it goes off.
    let b = at(&g, bomb);
    g.now.units[1].at = battlemat_geom::table::Point::new(b.x + ticks(0.8), b.y);
    g.now.units[14].at = battlemat_geom::table::Point::new(b.x - ticks(0.9), b.y);
    g.now.units[13].at = battlemat_geom::table::Point::new(b.x, b.y - ticks(1.2));
    act(&mut g, "end");
    // At the start of Player 2's turn it checks with its three dice.
    assert_eq!(
        g.now.phase,
        Phase::EggBomb {
            bomb,
            left: 3,
            turn_start: true
        }
    );
    let ev = roll(&mut g, &[2, 6]);
    assert!(ev.iter().any(|e| matches!(e, Event::BombExplodes { .. })));
    assert!(g.now.units[bomb as usize].gone, "it is gone");
    assert!(
        stunned(&g, 13) && stunned(&g, 14),
        "anyone within 1 stick is stunned"
    );
    assert!(
        matches!(g.now.phase, Phase::EggOpens { egg: 1, by: None }),
        "an egg caught in the blast is blown open"
    );
}

#[test]
fn sde_egg_2_credits_are_picked_up_by_an_action_next_to_them() {
    let mut g = egg_before_wall(&[&["guncannon"], &["zaku"]]);
    break_egg_zero(&mut g);
    roll(&mut g, &[battlemat_sd_era::eggs::CREDITS]);
    let credit = (g.now.units.len() - 1) as u8;
    assert!(g.now.units[credit as usize].is_marker());
    refused(&mut g, "collect u13", "SDE-EGG.2"); // not next to it yet
    let c = at(&g, credit);
    g.now.units[13].at = battlemat_geom::table::Point::new(c.x, c.y - ticks(0.25));
    let ev = act(&mut g, "collect u13");
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::CreditsTaken {
            unit: 13,
            tokens: 2,
            ..
        }
    )));
    assert_eq!(g.now.tokens, vec![2, 0]);
    assert!(g.now.units[credit as usize].gone);
    assert_eq!(g.now.units[13].actions, 0, "it took an action");
}

#[test]
fn sde_egg_2_the_boss_ambushes_anyone_nearby_and_is_worth_three_credits() {
    let mut g = egg_before_wall(&[&["guncannon"], &["zaku"]]);
    break_egg_zero(&mut g);
    // The boss (a Qubeley, 4 dice) comes out and ambushes the nearest unit with +1 die.
    let ev = roll(&mut g, &[battlemat_sd_era::eggs::BOSS]);
    let boss = (g.now.units.len() - 1) as u8;
    assert!(g.now.units[boss as usize].is_enemy());
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Attacks {
            unit: Some(u),
            target: 13,
            att_dice: 5,
            ..
        } if *u == boss
    )));
    attack_fails(&mut g);
    assert_eq!(g.now.phase, Phase::Turn);
    // After the last player's turn, it closes in and attacks again.
    act(&mut g, "end");
    act(&mut g, "end");
    assert!(
        matches!(g.now.phase, Phase::Fight(f) if f.target == 13 || f.target == 14),
        "{:?}",
        g.now.phase
    );
    attack_fails(&mut g);
    assert_eq!(
        (g.now.round, g.now.active),
        (2, 0),
        "{:?} {}",
        g.now.phase,
        g.prompt()
    );
    // Stunned by Player 1's knockback into the wall: removed, and 3 credits.
    put(&mut g, boss, 3.0, 2.0);
    put(&mut g, 13, 3.0, 1.0);
    act(&mut g, &format!("shoot u13 u{boss}"));
    let ev = roll(&mut g, &[6, 6, 6, 1, 1, 1, 1]);
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::BossBeaten { by: Some(0), .. }))
    );
    assert!(g.now.units[boss as usize].gone);
    assert_eq!(g.now.tokens, vec![3, 0]);
}

#[test]
fn sde_egg_3_over_when_every_egg_is_open_every_credit_taken_and_the_boss_beaten() {
    let mut g = egg_before_wall(&[&["guncannon"], &["zaku"]]);
    for e in 1..13usize {
        g.now.units[e].gone = true;
    }
    g.now.eggs = Some(battlemat_sd_era::state::EggContents {
        credits: 1,
        ..Default::default()
    });
    g.now.tokens = vec![1, 4];
    break_egg_zero(&mut g);
    roll(&mut g, &[battlemat_sd_era::eggs::CREDITS]);
    assert!(g.result().is_none(), "a credit is still on the table");
    let credit = (g.now.units.len() - 1) as u8;
    let p = at(&g, credit);
    g.now.units[13].at = battlemat_geom::table::Point::new(p.x, p.y - ticks(0.25));
    g.now.units[13].actions = 2;
    act(&mut g, "collect u13");
    let r = g.result().expect("over");
    assert_eq!(r.scores, vec![3, 4]);
    assert_eq!(r.ranks, vec![2, 1]);
}

// ----- CONVOY -------------------------------------------------------------------------------

/// A convoy on the 6 x 9 table with `terrain` (the asteroids): the ship is u0, then the
/// players' units. A new game has had its first enemy turn's ship move: the ship is at
/// (3, 2) and Player 1 is to draw.
fn convoy(armies: &[&[&str]], terrain: Vec<battlemat_geom::table::Piece>) -> SdEra {
    game("convoy", armies, terrain, &[])
}

fn kind(g: &SdEra, key: &str) -> u16 {
    g.fixed.chart.iter().position(|(k, _)| k == key).unwrap() as u16
}

/// Put an enemy unit of chart kind `key` at (x, y); its id.
fn add_enemy(g: &mut SdEra, key: &str, x: f64, y: f64) -> u8 {
    let mut u = g.now.units[1];
    u.body = battlemat_sd_era::state::Body::Unit { kind: kind(g, key) };
    u.owner = None;
    u.at = pt(x, y);
    u.home = u.at;
    u.stunned = false;
    u.hidden = false;
    u.actions = 0;
    u.fresh = true;
    u.gone = false;
    u.captured = None;
    u.aboard = None;
    g.now.units.push(u);
    (g.now.units.len() - 1) as u8
}

/// Skip the draws: the enemies on the table act now.
fn enemies_act(g: &mut SdEra) -> Vec<Event> {
    if let Some(c) = g.now.convoy.as_mut() {
        c.started = true;
    }
    let mut ev = Vec::new();
    g.start_enemy_turn(&mut ev);
    ev
}

fn asteroid(x: f64, y: f64) -> battlemat_geom::table::Piece {
    hill(x, y, 0.3, 0)
}

#[test]
fn sde_convoy_1_four_points_a_ship_at_one_end_a_pool_and_the_enemies_go_first() {
    let g = convoy(&[&["guncannon", "gm"], &["gundam"]], vec![]);
    let ship = g.now.units[0];
    assert!(ship.is_ship());
    assert_eq!(
        ship.at,
        pt(3.0, 2.0),
        "placed at the near end, then a stick forward"
    );
    let c = g.now.convoy.clone().unwrap();
    assert_eq!(c.pool_size(), 16);
    for (k, n) in c.pool.iter().enumerate() {
        if *n > 0 {
            assert!(!g.fixed.chart[k].1.is(battlemat_sd_era::data::Special::T));
        }
    }
    // The enemies go first: Player 1 draws an enemy unit from the pool.
    assert_eq!(g.now.phase, Phase::EnemyDraw { seat: 0, left: 1 });
    for u in 1..=3 {
        assert!(at(&g, u).y < ticks(0.5), "players start at the near end");
    }
    // Four points each.
    let too_many = setup("convoy", &[&["gundam", "gm"], &["gundam"]], vec![], &[]);
    let err = SdEra::new_game(&too_many).unwrap_err();
    assert!(err.to_string().contains("point"), "{err}");
}

#[test]
fn sde_convoy_2_draws_go_behind_the_nearest_unoccupied_asteroid_and_players_choose_later() {
    // The ship is at (3, 2); asteroid A at (1.5, 3) is nearer it than B at (4.5, 5).
    let mut g = convoy(
        &[&["gm"], &["gm"]],
        vec![asteroid(1.5, 3.0), asteroid(4.5, 5.0)],
    );
    let zaku = u32::from(kind(&g, "zaku"));
    let ev = roll(&mut g, &[zaku]);
    let first = (g.now.units.len() - 1) as u8;
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::EnemyArrives { by: Some(0), .. }))
    );
    let d = |g: &SdEra, u: u8, x: f64, y: f64| {
        battlemat_geom::table::distance_floor(at(g, u), pt(x, y))
    };
    assert!(d(&g, first, 1.5, 3.0) < ticks(1.0), "beside asteroid A");
    assert!(
        d(&g, first, 3.0, 2.0) > d(&g, 0, 1.5, 3.0),
        "behind it, on the far side from the ship"
    );
    assert_eq!(g.now.convoy.as_ref().unwrap().pool_size(), 15);
    roll(&mut g, &[zaku]);
    let second = first + 1;
    assert!(d(&g, second, 4.5, 5.0) < ticks(1.0), "A is taken: behind B");
    // The enemies act (the one closest to the ship first), then the players roll off.
    while !matches!(g.now.phase, Phase::OrderRoll { .. }) {
        roll(&mut g, &[3]);
    }
    roll(&mut g, &[2, 1, 5, 1]); // each rolls its GM's two dice
    assert_eq!(
        g.now.convoy.as_ref().unwrap().order,
        vec![1, 0],
        "highest roll first"
    );
    assert_eq!((g.now.active, g.now.phase.clone()), (1, Phase::Turn));
    act(&mut g, "end");
    assert_eq!(g.now.active, 0);
    act(&mut g, "end");
    // The next enemy turn: the ship moves again; now each player chooses how many to draw.
    assert_eq!(at(&g, 0), pt(3.0, 3.0));
    assert_eq!(g.now.phase, Phase::Choose(Choice::Draws { seat: 0 }));
    refused(&mut g, "draw 3", "SDE-CONVOY.2");
    act(&mut g, "draw 0");
    act(&mut g, "draw 2");
    assert_eq!(g.now.phase, Phase::EnemyDraw { seat: 1, left: 2 });
}

#[test]
fn sde_convoy_2_an_enemy_targets_a_unit_only_if_moving_to_it_brings_it_nearer_the_ship() {
    let mut g = convoy(&[&["gm"], &["gm"]], vec![]);
    put(&mut g, 1, 3.0, 3.5); // between the enemy and the ship (3, 2)
    put(&mut g, 2, 0.5, 7.5); // far behind the enemy
    let e = add_enemy(&mut g, "zaku", 3.0, 5.0);
    let ev = enemies_act(&mut g);
    assert!(
        ev.iter()
            .any(|x| matches!(x, Event::Attacks { unit: Some(u), target: 1, .. } if *u == e)),
        "moving toward the GM takes it nearer the ship: it targets the GM"
    );
    assert!(
        at(&g, e).y < pt(0.0, 5.0).y,
        "it moved toward its target first"
    );
    // Behind it only: it targets the ship.
    let mut g = convoy(&[&["gm"], &["gm"]], vec![]);
    put(&mut g, 1, 3.0, 7.5);
    put(&mut g, 2, 0.5, 7.5);
    let e = add_enemy(&mut g, "zaku", 3.0, 4.5);
    let ev = enemies_act(&mut g);
    assert!(
        ev.iter().any(
            |x| matches!(x, Event::Attacks { unit: Some(u), target: 0, def_dice: 4, .. } if *u == e)
        ),
        "the ship defends with 4 dice"
    );
}

#[test]
fn sde_convoy_2_the_damaged_ship_takes_no_knockback_and_the_highest_roll_gives_up_a_capture() {
    let mut g = convoy(&[&["gm"], &["gm"]], vec![]);
    put(&mut g, 1, 0.5, 7.5);
    put(&mut g, 2, 5.5, 7.5);
    // Player 1 holds two captured enemies, Player 2 one.
    let c1 = add_enemy(&mut g, "zaku", 0.5, 0.5);
    let c2 = add_enemy(&mut g, "gouf", 1.5, 0.5);
    let c3 = add_enemy(&mut g, "dom", 2.5, 0.5);
    for (c, s) in [(c1, 0), (c2, 0), (c3, 1)] {
        g.now.units[c as usize].captured = Some(s);
    }
    g.now.tokens = vec![5, 3];
    let e = add_enemy(&mut g, "gouf", 3.0, 3.5);
    enemies_act(&mut g);
    let ship = at(&g, 0);
    // The gouf (MELEE: within 2 sticks it moves and melees with 3 + 1 dice) beats the
    // ship's 4 dice.
    roll(&mut g, &[6, 6, 1, 1, 1, 1, 1, 1]);
    let _ = e;
    assert_eq!(at(&g, 0), ship, "no knockback");
    // Player 1 rolls two dice, Player 2 one: Player 1's 5 is highest.
    assert!(matches!(
        g.now.phase,
        Phase::CaptureRoll {
            seat: 0,
            left: 2,
            ..
        }
    ));
    roll(&mut g, &[2, 5, 4]);
    assert_eq!(g.now.phase, Phase::Choose(Choice::GiveUp { seat: 0 }));
    refused(&mut g, &format!("giveup u{c3}"), "SDE-CONVOY.2");
    let gouf = kind(&g, "gouf") as usize;
    let before = g.now.convoy.as_ref().unwrap().pool[gouf];
    act(&mut g, &format!("giveup u{c2}"));
    assert_eq!(
        g.now.convoy.as_ref().unwrap().pool[gouf],
        before + 1,
        "back to the pool"
    );
    assert_eq!(g.now.tokens, vec![2, 3]);
    // A tie for the highest roll: nobody gives anything up.
    let mut g2 = convoy(&[&["gm"], &["gm"]], vec![]);
    put(&mut g2, 1, 0.5, 7.5);
    put(&mut g2, 2, 5.5, 7.5);
    let a = add_enemy(&mut g2, "zaku", 0.5, 0.5);
    let b = add_enemy(&mut g2, "zaku", 1.5, 0.5);
    g2.now.units[a as usize].captured = Some(0);
    g2.now.units[b as usize].captured = Some(1);
    add_enemy(&mut g2, "gouf", 3.0, 3.5);
    enemies_act(&mut g2);
    roll(&mut g2, &[6, 6, 1, 1, 1, 1, 1, 1]);
    roll(&mut g2, &[4, 4]);
    assert!(
        matches!(g2.now.phase, Phase::OrderRoll { .. }),
        "{:?}",
        g2.now.phase
    );
    assert_eq!(g2.now.units[a as usize].captured, Some(0));
}

#[test]
fn sde_convoy_2_capture_by_stunning_and_no_attacks_on_players_or_the_ship() {
    let mut g = convoy(&[&["guncannon"], &["gm"]], vec![wall(1.0, 5.3, 5.0, 5.6)]);
    put(&mut g, 1, 3.0, 4.0);
    put(&mut g, 2, 4.0, 4.0);
    let e = add_enemy(&mut g, "zaku", 3.0, 5.0);
    // Straight to Player 1's turn.
    g.now.units[e as usize].fresh = false;
    g.now.convoy.as_mut().unwrap().order = vec![0, 1];
    let mut ev = Vec::new();
    g.begin_turn(0, &mut ev);
    refused(&mut g, "shoot u1 u2", "SDE-SHOOT"); // friendly
    put(&mut g, 0, 3.0, 2.6);
    refused(&mut g, "shoot u1 u0", "SDE-CONVOY.2"); // the ship
    put(&mut g, 0, 3.0, 2.0);
    act(&mut g, &format!("shoot u1 u{e}"));
    let ev = roll(&mut g, &[6, 1, 1, 1]);
    assert!(
        ev.iter()
            .any(|x| matches!(x, Event::EnemyCaptured { seat: 0, unit, points: 1 } if *unit == e)),
        "knocked into terrain: stunned, so captured"
    );
    assert_eq!(g.now.units[e as usize].captured, Some(0));
    assert!(!g.now.units[e as usize].on_table());
    assert_eq!(g.now.tokens, vec![1, 0], "a Zaku 2C costs 1 point");
    // Knocked into the ship: a 1-die attack against it.
    let e2 = add_enemy(&mut g, "zaku", 3.0, 3.4);
    put(&mut g, 0, 3.0, 2.2);
    put(&mut g, 1, 3.0, 4.6);
    act(&mut g, &format!("shoot u1 u{e2}"));
    let ev = roll(&mut g, &[6, 1, 1, 1]);
    assert!(
        ev.iter()
            .any(|x| matches!(x, Event::EnemyCaptured { seat: 0, .. }))
    );
    assert!(ev.iter().any(|x| matches!(
        x,
        Event::Attacks {
            unit: None,
            target: 0,
            att_dice: 1,
            def_dice: 4,
            ..
        }
    )));
}

#[test]
fn sde_convoy_2_enemy_tactics_a_f_h_m_v() {
    // A: always the ship; no move while it has a clear shot.
    let mut g = convoy(&[&["gm"], &["gm"]], vec![]);
    put(&mut g, 1, 3.0, 3.5);
    put(&mut g, 2, 0.5, 7.5);
    let a = add_enemy(&mut g, "guncannon", 3.6, 5.0);
    let ev = enemies_act(&mut g);
    assert!(
        ev.iter()
            .any(|x| matches!(x, Event::Attacks { unit: Some(u), target: 0, .. } if *u == a))
    );
    assert_eq!(at(&g, a), pt(3.6, 5.0), "it had a clear shot: it stayed");
    // M: the target within 2 sticks: it moves and melees.
    let mut g = convoy(&[&["gm"], &["gm"]], vec![]);
    put(&mut g, 1, 3.0, 3.5);
    put(&mut g, 2, 0.5, 7.5);
    let m = add_enemy(&mut g, "gouf", 3.0, 5.2);
    let ev = enemies_act(&mut g);
    assert!(
        ev.iter().any(|x| matches!(
            x,
            Event::Attacks { unit: Some(u), target: 1, melee: true, att_dice: 4, .. } if *u == m
        )),
        "3 dice + 1 for a MELEE unit in melee"
    );
    // H: +1 die on its first turn's attack only.
    let mut g = convoy(&[&["gm"], &["gm"]], vec![]);
    put(&mut g, 1, 3.0, 3.5);
    put(&mut g, 2, 0.5, 7.5);
    let h = add_enemy(&mut g, "zgok", 3.0, 5.5);
    let ev = enemies_act(&mut g);
    let dice = |ev: &[Event]| {
        ev.iter().find_map(|x| match x {
            Event::Attacks {
                unit: Some(u),
                att_dice,
                ..
            } if *u == h => Some(*att_dice),
            _ => None,
        })
    };
    let first = dice(&ev).expect("it attacks");
    attack_fails(&mut g);
    put(&mut g, h, 3.0, 5.5);
    let ev = enemies_act(&mut g);
    assert_eq!(
        dice(&ev),
        Some(first - 1),
        "the +1 die was its first turn's only"
    );
    // F: after attacking it moves a stick away from the nearest player unit.
    let mut g = convoy(&[&["gm"], &["gm"]], vec![]);
    put(&mut g, 1, 3.0, 3.5);
    put(&mut g, 2, 0.5, 7.5);
    let f = add_enemy(&mut g, "dom", 3.0, 5.5);
    enemies_act(&mut g);
    let after_move = at(&g, f);
    attack_fails(&mut g);
    assert!(
        at(&g, f).y > after_move.y + ticks(0.9),
        "it backs off after attacking"
    );
    // V: a losing enemy re-rolls its lowest die (no player decides).
    let mut g = convoy(&[&["gm"], &["gm"]], vec![]);
    put(&mut g, 1, 3.0, 3.5);
    put(&mut g, 2, 0.5, 7.5);
    let v = add_enemy(&mut g, "gelgoog", 3.0, 5.0);
    enemies_act(&mut g);
    let Phase::Fight(fight) = g.now.phase else {
        panic!("{:?}", g.now.phase)
    };
    assert_eq!(fight.striker, battlemat_sd_era::state::Striker::Unit(v));
    let n = fight.att.dice as usize;
    let mut faces = vec![2; n];
    faces[0] = 1;
    faces.push(5); // the GM's one die (CHEAP: 2 - 1)
    roll(&mut g, &faces);
    let Phase::Fight(fight) = g.now.phase else {
        panic!("a re-roll is due: {:?}", g.now.phase)
    };
    assert_eq!(fight.rerolling, Some(true));
    assert_eq!(fight.att.faces[0], 0, "the 1 is taken back");
    roll(&mut g, &[6]);
    assert_ne!(at(&g, 1), pt(3.0, 3.5), "the re-rolled 6 wins: knockback");
}

#[test]
fn sde_convoy_2_the_ship_moves_a_stick_each_enemy_turn_and_shoves_aside_what_is_in_its_way() {
    let mut g = convoy(&[&["gm"], &["gm"]], vec![]);
    put(&mut g, 1, 3.0, 3.0); // right where the ship will stop
    put(&mut g, 2, 0.5, 0.2);
    g.now.convoy.as_mut().unwrap().started = true;
    let mut ev = Vec::new();
    g.start_convoy_enemy_turn(&mut ev);
    assert_eq!(at(&g, 0), pt(3.0, 3.0), "a stick forward, nothing stops it");
    assert!(!g.now.units[1].base().overlaps(&g.now.units[0].base()));
    assert!(!stunned(&g, 1), "shoved aside, not knocked back");
}

#[test]
fn sde_convoy_3_over_when_the_ship_is_off_the_far_end_or_the_pool_runs_out() {
    let mut g = convoy(&[&["gm"], &["gm"]], vec![]);
    g.now.tokens = vec![2, 5];
    put(&mut g, 0, 3.0, 8.2);
    g.now.convoy.as_mut().unwrap().started = true;
    let mut ev = Vec::new();
    g.start_convoy_enemy_turn(&mut ev);
    let r = g.result().expect("the ship made it");
    assert!(r.reason.contains("far end"), "{}", r.reason);
    assert_eq!(r.ranks, vec![2, 1]);
    // The pool runs out.
    let mut g = convoy(&[&["gm"], &["gm"]], vec![]);
    g.now.tokens = vec![4, 1];
    for n in g.now.convoy.as_mut().unwrap().pool.iter_mut() {
        *n = 0;
    }
    g.now.convoy.as_mut().unwrap().started = true;
    let mut ev = Vec::new();
    g.start_convoy_enemy_turn(&mut ev);
    let r = g.result().expect("no enemies left");
    assert!(r.reason.contains("pool"), "{}", r.reason);
    assert_eq!(r.ranks, vec![1, 2]);
}

// ----- BATTLE ZONES -------------------------------------------------------------------------

/// Battle zones on the 6 x 8 table with `terrain`: four zones 2 sticks long, four blips in
/// each (u0..u15: zone 1's u0..u3 at y = 1, x = 1.125, 2.375, 3.625, 4.875), then the
/// players' units. Zone 1's card is `card` (an index into `ZoneCard::ALL`); Player 1 first.
fn zones(armies: &[&[&str]], terrain: Vec<battlemat_geom::table::Piece>, card: u32) -> SdEra {
    let mut g = game("zones", armies, terrain, &[]);
    assert_eq!(
        g.now.phase,
        Phase::ZoneCard { zone: 0 },
        "the first zone's card first"
    );
    roll(&mut g, &[card]);
    begin(&mut g, 0);
    g
}

const ASTEROIDS: u32 = 0;
const MINOVSKY: u32 = 1;
const AMBUSH_NEST: u32 = 2;
const MINEFIELD: u32 = 3;
const FORTIFIED: u32 = 4;
const BOSS_CARD: u32 = 5;
const AMBUSH_2: u32 = 0;
const TARGET: u32 = 2;
const BOMB_BLIP: u32 = 3;

/// Every blip but `keep` off the table (revealed long ago).
fn clear_blips(g: &mut SdEra, keep: &[u8]) {
    for b in 0..16u8 {
        if !keep.contains(&b) {
            g.now.units[b as usize].gone = true;
        }
    }
}

#[test]
fn sde_zones_1_zones_blips_six_points_and_everyone_at_the_start() {
    let g = game(
        "zones",
        &[&["gundam", "gm", "gm"], &["zeta", "gm"]],
        vec![],
        &[],
    );
    assert_eq!(g.zone_count(), 4);
    let z = g.now.zones.clone().unwrap();
    assert_eq!(z.cards, vec![None; 4]);
    for zone in 0..4u8 {
        let n = g
            .now
            .units
            .iter()
            .filter(|u| u.is_blip() && g.zone_of(u.at) == zone)
            .count();
        assert_eq!(n, 4, "two blips a player in zone {zone}");
    }
    // The mix: 40% Ambush 2, 20% each Ambush 3, Target, Bomb of 16 blips.
    assert_eq!(z.blips, [7, 3, 3, 3]);
    assert_eq!(z.deck.iter().sum::<u8>(), 6);
    for u in g.now.units.iter().filter(|u| u.is_unit()) {
        assert!(u.at.y < ticks(0.5), "everyone starts at the start end");
    }
    let seven = setup("zones", &[&["gundam", "guncannon"], &["gm"]], vec![], &[]);
    assert!(SdEra::new_game(&seven).is_err(), "6 points a player");
}

#[test]
fn sde_zones_2_touching_a_blip_reveals_it_ends_the_move_and_an_ambush_shoots_then_a_free_melee() {
    let mut g = zones(&[&["qubeley"], &["gm"]], vec![], FORTIFIED);
    clear_blips(&mut g, &[1]);
    put(&mut g, 16, 2.375, 0.2);
    // Touch blip u1 (at 2.375, 1) from below.
    act(&mut g, "move u16 2.375,0.6");
    assert_eq!(g.now.phase, Phase::BlipReveal { blip: 1, unit: 16 });
    let ev = roll(&mut g, &[AMBUSH_2]);
    let zaku = (g.now.units.len() - 1) as u8;
    assert!(g.now.units[zaku as usize].is_enemy());
    assert!(
        ev.iter().any(|e| matches!(
            e,
            Event::Attacks { unit: Some(u), target: 16, melee: false, .. } if *u == zaku
        )),
        "it ambushes the revealing unit with a shot"
    );
    attack_fails(&mut g);
    // The move that revealed it gives a free melee.
    assert_eq!(g.now.units[16].actions, 1);
    act(&mut g, &format!("melee u16 u{zaku}"));
    assert_eq!(g.now.units[16].actions, 1, "free");
    // The ambusher's won shot knocks back toward the start.
    let mut g = zones(&[&["qubeley"], &["gm"]], vec![], FORTIFIED);
    clear_blips(&mut g, &[1]);
    put(&mut g, 16, 2.375, 0.2);
    act(&mut g, "move u16 2.375,0.6");
    roll(&mut g, &[AMBUSH_2]);
    let before = at(&g, 16);
    attack_wins(&mut g);
    assert!(at(&g, 16).y < before.y, "pushed back toward the start");
}

#[test]
fn sde_zones_2_an_enemy_knocked_into_terrain_or_out_of_its_zone_is_beaten_and_earns_the_blip() {
    let mut g = zones(
        &[&["guncannon"], &["gm"]],
        vec![wall(1.0, 1.3, 5.0, 1.5)],
        FORTIFIED,
    );
    clear_blips(&mut g, &[]);
    put(&mut g, 16, 3.0, 0.2);
    put(&mut g, 17, 0.5, 0.2);
    let e = add_enemy(&mut g, "zaku", 3.0, 1.0);
    act(&mut g, &format!("shoot u16 u{e}"));
    let ev = roll(&mut g, &[6, 1, 1, 1]);
    assert!(
        ev.iter()
            .any(|x| matches!(x, Event::Defeated { unit, by: Some(0) } if *unit == e))
    );
    assert!(g.now.units[e as usize].gone);
    assert_eq!(g.now.tokens, vec![1, 0]);
    // Out of its zone: knocked from y = 1.6 a stick on, into zone 2.
    let mut g = zones(&[&["guncannon"], &["gm"]], vec![], FORTIFIED);
    clear_blips(&mut g, &[4]);
    put(&mut g, 16, 3.0, 0.8);
    put(&mut g, 17, 0.5, 0.2);
    let e = add_enemy(&mut g, "zaku", 3.0, 1.6);
    act(&mut g, &format!("shoot u16 u{e}"));
    let ev = roll(&mut g, &[6, 1, 1, 1]);
    assert!(
        ev.iter()
            .any(|x| matches!(x, Event::Defeated { by: Some(0), .. }))
    );
    // Into another unit: only stunned.
    let mut g = zones(&[&["guncannon"], &["gm"]], vec![], FORTIFIED);
    clear_blips(&mut g, &[]);
    put(&mut g, 16, 3.0, 0.2);
    put(&mut g, 17, 3.0, 1.6);
    let e = add_enemy(&mut g, "zaku", 3.0, 1.0);
    act(&mut g, &format!("shoot u16 u{e}"));
    roll(&mut g, &[6, 1, 1, 1]);
    assert!(stunned(&g, e) && !g.now.units[e as usize].gone);
}

#[test]
fn sde_zones_2_a_target_defends_with_three_dice_and_a_won_attack_destroys_it() {
    let mut g = zones(&[&["qubeley"], &["gm"]], vec![], MINEFIELD);
    clear_blips(&mut g, &[1, 2]);
    put(&mut g, 16, 2.375, 0.2);
    act(&mut g, "move u16 2.375,0.6");
    roll(&mut g, &[TARGET]);
    let t = (g.now.units.len() - 1) as u8;
    assert!(g.now.units[t as usize].is_target());
    let ev = act(&mut g, &format!("melee u16 u{t}"));
    assert!(
        ev.iter()
            .any(|x| matches!(x, Event::Attacks { def_dice: 3, .. }))
    );
    let ev = roll(&mut g, &[6, 1, 1, 1, 1, 1, 1]);
    assert!(
        ev.iter()
            .any(|x| matches!(x, Event::Defeated { by: Some(0), .. }))
    );
    assert_eq!(g.now.tokens, vec![1, 0]);
    refused(&mut g, "shoot u16 u2", "SDE-ZONES.2"); // a blip is touched, not attacked
}

#[test]
fn sde_zones_2_a_bomb_rolls_when_revealed_and_knocked_into_an_enemy_takes_it_out() {
    let mut g = zones(&[&["qubeley", "gm"], &["gm"]], vec![], FORTIFIED);
    clear_blips(&mut g, &[1]);
    put(&mut g, 16, 2.375, 0.2);
    put(&mut g, 17, 5.5, 0.2);
    act(&mut g, "move u16 2.375,0.6");
    roll(&mut g, &[BOMB_BLIP]);
    let bomb = (g.now.units.len() - 1) as u8;
    assert!(matches!(
        g.now.phase,
        Phase::MineRoll { unit: Some(16), .. }
    ));
    roll(&mut g, &[4]); // no 6: it stays
    assert!(g.now.units[bomb as usize].on_table());
    // Shoot it (it defends with 2) into an enemy behind it.
    put(&mut g, bomb, 3.0, 1.0);
    put(&mut g, 17, 3.0, 0.75);
    let e = add_enemy(&mut g, "zaku", 3.0, 1.6);
    let ev = act(&mut g, &format!("melee u17 u{bomb}"));
    assert!(
        ev.iter()
            .any(|x| matches!(x, Event::Attacks { def_dice: 2, .. }))
    );
    let mut ev = roll(&mut g, &[6, 1, 1, 1]);
    ev.extend(act(&mut g, "push 3,3"));
    assert!(ev.iter().any(|x| matches!(x, Event::BombExplodes { .. })));
    assert!(
        ev.iter()
            .any(|x| matches!(x, Event::Defeated { unit, by: Some(0) } if *unit == e))
    );
    assert_eq!(g.now.tokens, vec![2, 0], "the enemy's blip and the bomb's");
    // A 6 as it is revealed: it blows up, stunning the revealing unit.
    let mut g = zones(&[&["qubeley"], &["gm"]], vec![], FORTIFIED);
    clear_blips(&mut g, &[1]);
    put(&mut g, 16, 2.375, 0.2);
    act(&mut g, "move u16 2.375,0.6");
    roll(&mut g, &[BOMB_BLIP, 6]);
    assert!(stunned(&g, 16));
}

#[test]
fn sde_zones_2_the_enemy_turn_bombs_roll_then_enemies_close_in_and_push_toward_the_start() {
    let mut g = zones(&[&["qubeley"], &["gm"]], vec![], FORTIFIED);
    clear_blips(&mut g, &[]);
    put(&mut g, 16, 3.0, 0.4);
    put(&mut g, 17, 0.5, 0.2);
    let e = add_enemy(&mut g, "zaku", 3.0, 1.8);
    let mut mine = g.now.units[e as usize];
    mine.body = battlemat_sd_era::state::Body::Mine { toucher: None };
    mine.at = pt(5.0, 1.0);
    g.now.units.push(mine);
    let m = (g.now.units.len() - 1) as u8;
    act(&mut g, "end");
    act(&mut g, "end");
    // The bombs first: a 6 and it goes off (nothing within a stick).
    assert_eq!(
        g.now.phase,
        Phase::MineRoll {
            mine: m,
            unit: None
        }
    );
    roll(&mut g, &[6]);
    assert!(g.now.units[m as usize].gone);
    // The enemy moves toward the closest player unit and shoots it.
    let Phase::Fight(f) = g.now.phase else {
        panic!("{:?}", g.now.phase)
    };
    assert_eq!((f.target, f.melee), (16, false));
    assert!(at(&g, e).y < pt(0.0, 1.8).y, "it closed in");
    let before = at(&g, 16);
    roll(&mut g, &[6, 6, 1, 1, 1, 1]);
    assert!(at(&g, 16).y < before.y, "knocked toward the start");
    assert_eq!((g.now.round, g.now.active), (2, 0));
}

#[test]
fn sde_zones_2_no_one_leaves_a_zone_until_it_is_cleared_and_each_new_zone_draws_a_card() {
    let mut g = zones(&[&["qubeley"], &["gm"]], vec![], FORTIFIED);
    clear_blips(&mut g, &[0]);
    put(&mut g, 16, 3.0, 1.6);
    refused(&mut g, "move u16 3,2.5", "SDE-ZONES.2");
    // Zone 1 cleared: its last blip gone (revealed as a target, destroyed).
    g.now.units[0].gone = true;
    act(&mut g, "move u16 3,1.7");
    assert_eq!(g.open_zone(), 1);
    act(&mut g, "move u16 3,2.6");
    assert_eq!(g.now.phase, Phase::ZoneCard { zone: 1 });
    let ev = roll(&mut g, &[BOSS_CARD]);
    assert!(ev.iter().any(|x| matches!(
        x,
        Event::ZoneCardDrawn {
            zone: 1,
            card: battlemat_sd_era::state::ZoneCard::Boss
        }
    )));
    let boss = (g.now.units.len() - 1) as u8;
    assert!(g.now.units[boss as usize].is_enemy() && g.value(boss) == 4);
    assert_eq!(g.zone_of(at(&g, boss)), 1, "the boss stands in the zone");
}

#[test]
fn sde_zones_2_zone_cards_change_the_zones_rules() {
    // MINOVSKY PARTICLES: shooting in the zone limited to 1 stick.
    let mut g = zones(&[&["guncannon"], &["gm"]], vec![], MINOVSKY);
    clear_blips(&mut g, &[]);
    put(&mut g, 16, 3.0, 0.2);
    let e = add_enemy(&mut g, "zaku", 3.0, 1.9);
    refused(&mut g, &format!("shoot u16 u{e}"), "SDE-ZONES.2");
    put(&mut g, e, 3.0, 1.2);
    act(&mut g, &format!("shoot u16 u{e}"));
    // AMBUSH NEST: every blip is an AMBUSH 2, with no draw.
    let mut g = zones(&[&["qubeley"], &["gm"]], vec![], AMBUSH_NEST);
    clear_blips(&mut g, &[1]);
    put(&mut g, 16, 2.375, 0.2);
    let left = g.now.zones.as_ref().unwrap().blips;
    let ev = act(&mut g, "move u16 2.375,0.6");
    assert!(ev.iter().any(|x| matches!(
        x,
        Event::BlipRevealed {
            kind: battlemat_sd_era::state::BlipKind::Ambush2,
            ..
        }
    )));
    assert_eq!(g.now.zones.as_ref().unwrap().blips, left, "nothing drawn");
    // MINEFIELD: a bomb goes off on a 5.
    let mut g = zones(&[&["qubeley"], &["gm"]], vec![], MINEFIELD);
    clear_blips(&mut g, &[1]);
    put(&mut g, 16, 2.375, 0.2);
    act(&mut g, "move u16 2.375,0.6");
    roll(&mut g, &[BOMB_BLIP, 5]);
    assert!(stunned(&g, 16));
    // FORTIFIED: targets defend with 4 dice.
    let mut g = zones(&[&["qubeley"], &["gm"]], vec![], FORTIFIED);
    clear_blips(&mut g, &[1]);
    put(&mut g, 16, 2.375, 0.2);
    act(&mut g, "move u16 2.375,0.6");
    roll(&mut g, &[TARGET]);
    let t = (g.now.units.len() - 1) as u8;
    let ev = act(&mut g, &format!("melee u16 u{t}"));
    assert!(
        ev.iter()
            .any(|x| matches!(x, Event::Attacks { def_dice: 4, .. }))
    );
    // ASTEROIDS: two more in the zone; knockback into one is knockback into terrain.
    let mut g = zones(&[&["guncannon"], &["gm"]], vec![], ASTEROIDS);
    let rocks: Vec<u8> = (0..g.now.units.len() as u8)
        .filter(|&u| g.now.units[u as usize].is_rock())
        .collect();
    assert_eq!(rocks.len(), 2);
    assert!(rocks.iter().all(|&r| g.zone_of(at(&g, r)) == 0));
    clear_blips(&mut g, &[]);
    let r = at(&g, rocks[0]);
    put(&mut g, 17, 5.5, 0.2);
    g.now.units[16].at = battlemat_geom::table::Point::new(r.x, r.y - ticks(1.2));
    let e = add_enemy(&mut g, "zaku", 0.0, 0.0);
    g.now.units[e as usize].at = battlemat_geom::table::Point::new(r.x, r.y - ticks(0.5));
    g.now.units[e as usize].home = g.now.units[e as usize].at;
    act(&mut g, &format!("shoot u16 u{e}"));
    let ev = roll(&mut g, &[6, 1, 1, 1]);
    assert!(
        ev.iter()
            .any(|x| matches!(x, Event::Defeated { unit, by: Some(0) } if *unit == e)),
        "knocked into the card's asteroid: beaten"
    );
}

#[test]
fn sde_zones_2_a_move_may_not_pass_through_a_blip_and_an_enemy_defending_in_melee_pushes_back() {
    let mut g = zones(&[&["qubeley"], &["gm"]], vec![], FORTIFIED);
    clear_blips(&mut g, &[1]);
    put(&mut g, 16, 2.375, 0.2);
    // Straight through blip u1 at (2.375, 1): refused; stopping next to it reveals it.
    refused(&mut g, "move u16 2.375,1.19", "SDE-ZONES.2");
    // An enemy that wins in melee with overkill knocks the attacker back toward the start.
    let mut g = zones(&[&["qubeley"], &["gm"]], vec![], FORTIFIED);
    clear_blips(&mut g, &[]);
    put(&mut g, 16, 3.0, 1.0);
    put(&mut g, 17, 0.5, 0.2);
    let e = add_enemy(&mut g, "gouf", 3.0, 1.3);
    act(&mut g, &format!("melee u16 u{e}"));
    // The Gouf (MELEE) defends with 3 + 1 dice: two sixes beat the Qubeley's ones.
    roll(&mut g, &[1, 1, 1, 1, 6, 6, 1, 1]);
    assert!(at(&g, 16).y < pt(0.0, 0.95).y, "{:?}", at(&g, 16));
}

#[test]
fn sde_zones_3_when_the_last_zone_is_cleared_the_most_blips_wins() {
    let mut g = zones(
        &[&["guncannon"], &["gm"]],
        vec![wall(1.0, 7.3, 5.0, 7.5)],
        FORTIFIED,
    );
    clear_blips(&mut g, &[]);
    let z = g.now.zones.as_mut().unwrap();
    z.cleared = 3;
    z.cards = vec![Some(battlemat_sd_era::state::ZoneCard::Fortified); 4];
    g.now.tokens = vec![3, 3];
    put(&mut g, 16, 3.0, 6.2);
    put(&mut g, 17, 0.5, 6.2);
    let e = add_enemy(&mut g, "zaku", 3.0, 7.0);
    act(&mut g, &format!("shoot u16 u{e}"));
    roll(&mut g, &[6, 1, 1, 1]);
    let r = g.result().expect("the last zone is cleared");
    assert!(r.reason.contains("last zone"), "{}", r.reason);
    assert_eq!(r.scores, vec![4, 3]);
    assert_eq!(r.ranks, vec![1, 2]);
}

#[test]
fn sde_egg_2_collect_both_credits_by_default_or_one_an_action() {
    // SDE-EGG.2: "Any unit may pick up a credit by spending an action adjacent to it." An
    // egg holds two credits (SDE-EGG.1). Default `collect = both`: one action takes the two
    // (the test above); `one`: "a credit" an action, the rest left on the table.
    let mut g = egg_before_wall_with(&[&["guncannon"], &["zaku"]], &[("collect", "one")]);
    break_egg_zero(&mut g);
    roll(&mut g, &[battlemat_sd_era::eggs::CREDITS]);
    let credit = (g.now.units.len() - 1) as u8;
    let c = at(&g, credit);
    g.now.units[13].at = battlemat_geom::table::Point::new(c.x, c.y - ticks(0.25));
    let ev = act(&mut g, "collect u13");
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::CreditsTaken {
            unit: 13,
            taken: 1,
            tokens: 1,
            ..
        }
    )));
    assert!(!g.now.units[credit as usize].gone, "one credit is left");
    assert_eq!(g.now.units[13].actions, 0);
    g.now.units[13].actions = 1;
    act(&mut g, "collect u13");
    assert_eq!(g.now.tokens, vec![2, 0]);
    assert!(g.now.units[credit as usize].gone);
}

#[test]
fn sde_v_veteran_not_asked_when_no_reroll_can_help() {
    // SDE-V: "VETERAN ... May re-roll one of your own dice when attacking or defending."
    // A VETERAN whose dice are all sixes in a win cannot do better by re-rolling one: it is
    // not asked, and the fight is decided at once.
    let mut g = duel("rick_dias", "dom");
    act(&mut g, "shoot u0 u1");
    let ev = roll(&mut g, &[6, 6, 6, 1, 1, 1]);
    assert_eq!(fight_result(&ev), Some((Winner::Attacker, 2)));
    assert!(!matches!(g.now.phase, Phase::Fight(_)), "nobody is asked");
    // Defending with three sixes against a shot: a re-roll could only lose the win.
    let mut d = duel("dom", "rick_dias");
    act(&mut d, "shoot u0 u1");
    let ev = roll(&mut d, &[1, 1, 1, 6, 6, 6]);
    assert_eq!(fight_result(&ev), Some((Winner::Defender, 2)));
    assert!(!matches!(d.now.phase, Phase::Fight(_)), "nobody is asked");
    // A die that can do better is still asked about (and the other test re-rolls it).
    let mut a = duel("rick_dias", "dom");
    act(&mut a, "shoot u0 u1");
    roll(&mut a, &[6, 6, 2, 1, 1, 3]);
    assert_eq!(a.next(), Next::Decide(0));
    // The change to when it is asked bumped the ruleset: an older file is refused, saying
    // why and where to replay it.
    let e = SdEra::replays_older("2", &a.fixed.setup).unwrap_err();
    assert!(e.contains("VETERAN") && e.contains("f0790a0"), "{e}");
    assert_eq!(SdEra::info().version, "3");
}

#[test]
fn sde_move_jump_all_by_default_or_mobile_suits_only() {
    // SDE-MOVE: "May not move through terrain, but mobile suits may jump over terrain, and
    // may land on top of terrain." Default `jump = all`: every unit jumps (SD ERA's figures
    // all move as its mobile suits do); `mobile_suits`: a tank (the Magella Attack) may not
    // cross the wall nor land on the hill, a GM still may.
    let terrain = || vec![wall(2.0, 1.4, 4.0, 1.6), hill(1.0, 3.0, 0.5, 1)];
    let mut g = game(
        "king_of_the_hill",
        &[&["magella_attack", "gm"], &["zaku"]],
        terrain(),
        &[],
    );
    begin(&mut g, 0);
    put(&mut g, 0, 3.0, 1.0);
    put(&mut g, 1, 3.5, 1.0);
    put(&mut g, 2, 5.0, 5.0);
    act(&mut g, "move u0 3,2");
    assert_eq!(at(&g, 0), pt(3.0, 2.0));
    let mut m = game(
        "king_of_the_hill",
        &[&["magella_attack", "gm"], &["zaku"]],
        terrain(),
        &[("jump", "mobile_suits")],
    );
    begin(&mut m, 0);
    put(&mut m, 0, 3.0, 1.0);
    put(&mut m, 1, 3.5, 1.0);
    put(&mut m, 2, 5.0, 5.0);
    refused(&mut m, "move u0 3,2", "SDE-MOVE");
    act(&mut m, "move u1 3.5,2");
    assert_eq!(at(&m, 1), pt(3.5, 2.0), "a mobile suit jumps");
    // Past the wall's end it may go; onto the hill it may not.
    put(&mut m, 0, 1.5, 1.0);
    act(&mut m, "move u0 1.5,2");
    put(&mut m, 0, 1.0, 2.2);
    refused(&mut m, "move u0 1,3", "SDE-MOVE");
}

#[test]
fn sde_move_past_enemies_jump_by_default_or_ring_only() {
    // SDE-MOVE: "Move 1 STICK in any direction"; only RING BATTLE (SDE-RING.2) says units
    // "may move past enemy units". Default `past_enemies = jump`: a move passes over any unit;
    // `ring_only`: outside RING BATTLE a move's line may not cross an enemy's base, though
    // it may end next to one.
    let setup = |o: &[(&str, &str)]| {
        let mut g = game("king_of_the_hill", &[&["gm"], &["zaku"]], vec![], o);
        begin(&mut g, 0);
        put(&mut g, 0, 3.0, 1.0);
        put(&mut g, 1, 3.0, 1.5);
        g
    };
    let mut g = setup(&[]);
    act(&mut g, "move u0 3,2");
    assert_eq!(at(&g, 0), pt(3.0, 2.0));
    let mut r = setup(&[("past_enemies", "ring_only")]);
    refused(&mut r, "move u0 3,2", "SDE-MOVE");
    // Up to it is fine (the bases 1/8 stick apart).
    act(&mut r, "move u0 3,1.125");
    assert_eq!(at(&r, 0), pt(3.0, 1.125));
}

#[test]
fn sde_s_spray_range_per_share_by_default_or_once() {
    // SDE-S: "When shooting, you may split your attack dice up across multiple targets";
    // SDE-RANGE: "For each additional STICK of range beyond the first, deduct one die from
    // the attacker's roll." Default `spray_range = per_share`: each share is a shot and loses
    // its own dice; `once`: the attack loses them once, for its farthest target, and the
    // rest is split. A Bigzam (5) at a Zaku within a stick and a GM 2 sticks beyond it.
    let setup = |o: &[(&str, &str)]| {
        let mut g = game(
            "king_of_the_hill",
            &[&["bigzam"], &["zaku", "gm"]],
            vec![],
            o,
        );
        begin(&mut g, 0);
        put(&mut g, 0, 3.0, 1.0);
        put(&mut g, 1, 2.5, 2.0);
        put(&mut g, 2, 3.5, 3.5);
        g
    };
    let mut g = setup(&[]);
    refused(&mut g, "shoot u0 u1:2 u2:1", "SDE-RANGE"); // a one-die share stays close
    refused(&mut g, "shoot u0 u1:3 u2:2", "SDE-RANGE"); // 2 - 2: no dice left
    act(&mut g, "shoot u0 u1:2 u2:3");
    // The GM's share of 3 loses 2 dice: 1 is rolled.
    let ev = roll(&mut g, &[1, 1, 6]);
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Attacks {
            target: 2,
            att_dice: 1,
            ..
        }
    )));
    let mut o = setup(&[("spray_range", "once")]);
    refused(&mut o, "shoot u0 u1:2 u2:3", "SDE-S"); // 5 - 2 = 3 dice to split
    act(&mut o, "shoot u0 u1:2 u2:1");
    // The Zaku's share is 2 dice, the GM's 1, rolled as they are.
    let ev = roll(&mut o, &[1, 1, 6]);
    assert_eq!(fight_result(&ev), Some((Winner::Defender, 0)));
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Attacks {
            target: 2,
            att_dice: 1,
            ..
        }
    )));
}

#[test]
fn sde_koth_1_start_edge_players_choose_an_edge_and_place_their_units() {
    // SDE-KOTH.1 (and SOCCER.1, KICKBOMB.1, EGG.1, GALLERY.1): "Players start on any board
    // edge." With `start = edge`, before hiding and the roll for turn order, each seat in
    // seat order chooses an edge of its own and then places its units one at a time, taking
    // turns, each centre within a stick of its edge and clear of terrain and other bases.
    let mut g = game(
        "king_of_the_hill",
        &[&["gm", "zaku"], &["dom"]],
        vec![wall(0.0, 2.0, 0.5, 2.5)],
        &[("start", "edge")],
    );
    assert_eq!(g.now.phase, Phase::Deploy { seat: 0 });
    assert!(
        g.now
            .units
            .iter()
            .filter(|u| u.owner.is_some())
            .all(|u| u.waiting)
    );
    // The edge comes first: the four edges are the choices.
    let legal: Vec<String> = g.legal_actions().iter().map(|a| a.to_string()).collect();
    assert_eq!(legal, ["edge near", "edge left", "edge far", "edge right"]);
    refused(&mut g, "deploy u0 0.2,3", "SDE-KOTH.1");
    let ev = act(&mut g, "edge left");
    assert_eq!(ev, [Event::EdgeChosen { seat: 0, edge: 1 }]);
    assert_eq!(g.now.phase, Phase::Deploy { seat: 0 });
    refused(&mut g, "edge far", "SDE-KOTH.1"); // one choice
    // Too far from its edge (the left, x = 0), and on the wall: refused, nothing changed.
    let e = refused(&mut g, "deploy u0 1.25,3", "SDE-KOTH.1");
    assert!(e.to_string().contains("within a stick"), "{e}");
    refused(&mut g, "deploy u0 0.25,2.25", "SDE-KOTH.1");
    act(&mut g, "deploy u0 1,3"); // a stick from the edge: the most allowed
    assert_eq!(at(&g, 0), pt(1.0, 3.0));
    assert!(!g.now.units[0].waiting);
    // The next seat: the left edge is taken.
    assert_eq!(g.now.phase, Phase::Deploy { seat: 1 });
    refused(&mut g, "edge left", "SDE-KOTH.1");
    act(&mut g, "edge right");
    act(&mut g, "deploy u2 5.875,3");
    // Seat 0's second unit: not on top of its first.
    refused(&mut g, "deploy u1 1.1,3", "SDE-KOTH.1");
    act(&mut g, "deploy u1 0.125,4");
    // Everyone placed: the roll for turn order.
    assert!(matches!(g.now.phase, Phase::TurnOrder { .. }));
    // Each seat's post is its edge's middle (KING OF THE HILL has no goals).
    assert_eq!(g.post(0), pt(0.0, 3.0));
    assert_eq!(g.post(1), pt(6.0, 3.0));
    // Five or more players cannot each have an edge: refused when the game is set up.
    let s = setup(
        "king_of_the_hill",
        &[&["gm"], &["gm"], &["gm"], &["gm"], &["gm"]],
        vec![],
        &[("start", "edge")],
    );
    let err = SdEra::new_game(&s).unwrap_err();
    assert!(err.to_string().contains("start"), "{err}");
}

#[test]
fn sde_soccer_1_start_edge_goal_in_the_center_of_the_chosen_edge() {
    // SDE-SOCCER.1: "Players start on any board edge. Place a goal in the center of each
    // player's start point, 1 stick wide." With `start = edge` the goal is on the middle of
    // the edge the player chose, and a ball shot into it scores for the shooter.
    let mut g = game("soccer", &[&["gm"], &["gm"]], vec![], &[("start", "edge")]);
    assert_eq!(g.goal_of(0), None, "no goal before the edge is chosen");
    act(&mut g, "edge far");
    act(&mut g, "deploy u1 3,5.5");
    act(&mut g, "edge left");
    act(&mut g, "deploy u2 0.5,3");
    assert_eq!(g.goal_of(0), Some((pt(2.5, 6.0), pt(3.5, 6.0))));
    assert_eq!(g.goal_of(1), Some((pt(0.0, 2.5), pt(0.0, 3.5))));
    let scene = g.scene(battlemat_core::Viewer::Spectator);
    let goal = scene
        .markers
        .iter()
        .find(|m| m.id == "goal1")
        .expect("goal1");
    assert_eq!(
        goal.shape,
        battlemat_core::scene::Shape::Line {
            points: vec![[0.0, 2.5], [0.0, 3.5]]
        }
    );
    begin(&mut g, 0);
    // Seat 0's GM shoots the ball (u0) west into seat 1's goal on the left edge.
    put(&mut g, 0, 1.5, 3.0);
    put(&mut g, 1, 2.5, 3.0);
    put(&mut g, 2, 0.5, 1.0);
    act(&mut g, "shoot u1 u0");
    let ev = roll(&mut g, &[6, 5, 1, 1]);
    assert!(
        ev.iter().any(|e| matches!(
            e,
            Event::Goal {
                seat: Some(0),
                goal: 1,
                ..
            }
        )),
        "{ev:?}"
    );
    assert_eq!(g.now.tokens, [1, 0]);
}

#[test]
fn sde_ring_1_start_edge_in_front_of_the_player_follows_the_chosen_edge() {
    // SDE-RING.1: "Units may start anywhere in the ring, or outside the ring near the
    // player's table edge. Take turns placing units in the same order as the turn order".
    // With `start = edge` each seat chooses its edge at its first placing; "near the
    // player's table edge" and SDE-RING.2's "in front of the player" follow it.
    let mut g = game(
        "ring_battle",
        &[&["gm"], &["dom"]],
        vec![],
        &[("start", "edge")],
    );
    roll(&mut g, &[6, 6]);
    roll(&mut g, &[1, 1, 1]);
    assert_eq!(g.now.phase, Phase::Deploy { seat: 0 });
    act(&mut g, "edge right");
    // Outside the ring near the near edge is not near its (right) edge any more.
    refused(&mut g, "deploy u0 4,0.5", "SDE-RING.1");
    act(&mut g, "deploy u0 7.5,4");
    assert!(g.now.units[0].outside);
    act(&mut g, "edge near");
    act(&mut g, "deploy u1 4,4");
    assert_eq!(g.now.phase, Phase::Turn);
    assert_eq!(g.post(0), pt(8.0, 4.0));
}

#[test]
fn sde_ring_2_ring_only_lets_ring_battle_units_move_past_enemies() {
    // SDE-RING.2: "MOVE around the outside of the ring in either direction. May move past
    // enemy units." With `past_enemies = ring_only` a move elsewhere may not cross an enemy's
    // base (SDE-MOVE), but in RING BATTLE a unit outside the ring moves past one.
    for opt in ["jump", "ring_only"] {
        let mut g = game(
            "ring_battle",
            &[&["gm"], &["zaku"]],
            vec![],
            &[("past_enemies", opt)],
        );
        begin(&mut g, 0);
        // Centre (4, 4), radius 3: both outside the ring by the near edge.
        put(&mut g, 0, 3.5, 0.5);
        g.now.units[0].outside = true;
        put(&mut g, 1, 4.0, 0.5);
        g.now.units[1].outside = true;
        act(&mut g, "move u0 4.5,0.5");
        assert_eq!(at(&g, 0), pt(4.5, 0.5), "past_enemies={opt}");
    }
}
