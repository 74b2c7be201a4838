//! The odds shown before an attack agree with exact enumeration through the referee itself:
//! every sequence of die faces is played in a real game and the outcomes counted; with
//! VETERAN, both sides' re-roll decisions are searched (expectimax on the knockback).

mod common;
use battlemat_core::Ruleset;
use battlemat_core::{Game, Next, Step};
use battlemat_sd_era::data::STICK;
use battlemat_sd_era::state::Phase;
use battlemat_sd_era::{Action, SdEra};
use common::*;
use std::collections::BTreeMap;

/// The expected knockback in sticks (negative: the attacker pushed back) and the chance
/// the attacker wins, from `g` to the end of the fight, players choosing as the odds
/// assume (the attacker maximises the knockback, the defender minimises it).
fn search(g: &SdEra, start: &SdEra, target: u8, attacker: u8) -> (f64, f64) {
    match g.next() {
        Next::Chance(_) => {
            let mut e = (0.0, 0.0);
            for f in 1..=6 {
                let mut h = g.clone();
                h.apply(&Step::Roll { value: f }).unwrap();
                let r = search(&h, start, target, attacker);
                e.0 += r.0 / 6.0;
                e.1 += r.1 / 6.0;
            }
            e
        }
        Next::Decide(seat) if matches!(g.now.phase, Phase::Fight(_)) => {
            let mut best: Option<(f64, f64)> = None;
            for a in g.legal_actions() {
                let mut h = g.clone();
                h.apply(&Step::Act { seat, action: a }).unwrap();
                let r = search(&h, start, target, attacker);
                let better = match best {
                    None => true,
                    Some(b) if seat == 0 => r.0 > b.0 + 1e-12,
                    Some(b) => r.0 < b.0 - 1e-12,
                };
                if better {
                    best = Some(r);
                }
            }
            best.unwrap()
        }
        Next::Decide(seat) => {
            if let Phase::Choose(_) = g.now.phase {
                // A melee knockback's direction: straight away (north for the defender,
                // south for the attacker), on an open table.
                let mut h = g.clone();
                let dir = if seat == 0 { "push n" } else { "push s" };
                h.apply(&Step::Act {
                    seat,
                    action: dir.parse().unwrap(),
                })
                .unwrap();
                return search(&h, start, target, attacker);
            }
            let moved = |u: u8| {
                let (a, b) = (start.now.units[u as usize].at, g.now.units[u as usize].at);
                battlemat_geom::table::distance_floor(a, b) as f64 / STICK as f64
            };
            let kb = moved(target).round() - moved(attacker).round();
            (kb, if moved(target) > 0.0 { 1.0 } else { 0.0 })
        }
        Next::Over => panic!("the game ended"),
    }
}

fn check(att: &str, def: &str, melee: bool, range_y: f64) {
    let mut g = open(&[&[att], &[def]]);
    begin(&mut g, 0);
    put(&mut g, 0, 3.0, 1.0);
    put(&mut g, 1, 3.0, if melee { 1.3 } else { range_y });
    let action: Action = if melee { "melee u0 u1" } else { "shoot u0 u1" }
        .parse()
        .unwrap();
    let odds = g.odds(&action).expect("odds for an attack");
    let mut h = g.clone();
    h.apply(&Step::Act { seat: 0, action }).unwrap();
    let (kb, win) = search(&h, &g, 1, 0);
    let shown_kb = odds.details["expected_knockback"].as_f64().unwrap();
    let shown_win = odds.details["win_chance"].as_f64().unwrap();
    let pushed: f64 = odds
        .outcomes
        .iter()
        .filter(|(k, _)| k.contains("knocked back"))
        .map(|(_, p)| p)
        .sum();
    assert!(
        (shown_win - win).abs() < 1e-9,
        "{att} vs {def}: win {shown_win} vs enumerated {win}"
    );
    assert!(
        (shown_kb - pushed - kb).abs() < 1e-9,
        "{att} vs {def}: knockback {shown_kb} - {pushed} vs enumerated {kb}"
    );
    let total: f64 = odds.outcomes.values().sum();
    assert!((total - 1.0).abs() < 1e-12);
}

#[test]
fn sde_shoot_odds_agree_with_the_referee() {
    check("guncannon", "dom", false, 2.0); // SDE-SHOOT: 3 against 3
    check("dom", "zaku", false, 2.0); // SDE-C: 3 against 1
    check("dom", "gm", false, 3.5); // SDE-RANGE: 1 against 1
    check("guntank", "gm", false, 2.5); // SDE-A: 3 against 1 at range
}

#[test]
fn sde_melee_odds_agree_with_the_referee() {
    check("gm", "zaku", true, 0.0); // SDE-MELEE: 2 against 1, defender overkill pushes back
    check("gouf", "dom", true, 0.0); // SDE-M: 4 against 3, a lost attack is a tie
    check("dom", "gouf", true, 0.0); // SDE-M defending: 3 against 4
}

#[test]
fn sde_v_odds_play_the_best_reroll() {
    check("rick_dias", "zaku", false, 2.0); // the attacker's VETERAN re-roll
    check("gm", "rick_dias", false, 2.0); // the defender's
}

#[test]
fn matchup_odds_sum_to_one_and_read_letters() {
    let p = |a: &str, d: &str, extra: &[(&str, &str)]| {
        let mut m: BTreeMap<String, String> = [("attacker", a), ("defender", d)]
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        for (k, v) in extra {
            m.insert(k.to_string(), v.to_string());
        }
        SdEra::matchup_odds(&m)
    };
    let o = p("4V", "3C", &[("range", "1.5")]).unwrap();
    assert_eq!(o.details["attack_dice"], 3);
    assert_eq!(o.details["defence_dice"], 2);
    assert!((o.outcomes.values().sum::<f64>() - 1.0).abs() < 1e-12);
    // 1 die against 1: win 15/36, tie 6/36.
    let o = p("1", "1", &[]).unwrap();
    assert!((o.details["win_chance"].as_f64().unwrap() - 15.0 / 36.0).abs() < 1e-12);
    assert!((o.details["tie_chance"].as_f64().unwrap() - 6.0 / 36.0).abs() < 1e-12);
    assert!(
        p("1", "2", &[("range", "1.5")])
            .unwrap_err()
            .message
            .contains("SDE-RANGE")
    );
    assert!(p("4X", "2", &[]).is_err());
    assert!(
        p("2T", "2", &[("melee", "true")])
            .unwrap_err()
            .message
            .contains("SDE-T")
    );
    assert!(p("2", "2", &[("colour", "red")]).is_err());
}

/// SDE-SAFARI.2 and SDE-H: a win that stuns an animal, or only finds a hidden unit, is shown
/// as that, not as knockback; the odds still sum to one.
#[test]
fn sde_safari_2_odds_say_a_won_attack_stuns_the_animal() {
    let mut g = game("safari", &[&["guncannon"], &["zaku"]], vec![], &[]);
    begin(&mut g, 0);
    put(&mut g, 8, 3.0, 1.0);
    put(&mut g, 3, 3.0, 2.0);
    let o = g.odds(&"shoot u8 u3".parse().unwrap()).unwrap();
    assert!(
        o.outcomes
            .contains_key("win: the animal is stunned (no knockback)"),
        "{o:?}"
    );
    assert!(!o.outcomes.keys().any(|k| k.starts_with("win, knockback")));
    assert!((o.outcomes.values().sum::<f64>() - 1.0).abs() < 1e-12);
    let mut g = duel("dom", "zgok");
    g.now.units[1].hidden = true;
    let o = g.odds(&"shoot u0 u1".parse().unwrap()).unwrap();
    assert!(
        o.outcomes
            .contains_key("win: the hidden unit is found (no knockback)"),
        "{o:?}"
    );
}

/// BATTLE ZONES: a won attack destroys a target (3 dice against the attacker's); EGG HUNT: a
/// unit out of an egg's free melee counts its extra die in the odds.
#[test]
fn sde_zones_2_and_sde_egg_2_odds_of_targets_and_free_attacks() {
    let mut g = game("zones", &[&["qubeley"], &["gm"]], vec![], &[]);
    battlemat_core::testing::roll(&mut g, &[4]); // Fortified: targets defend with 4
    begin(&mut g, 0);
    for b in 0..16usize {
        g.now.units[b].gone = true;
    }
    let mut t = g.now.units[16];
    t.body = battlemat_sd_era::state::Body::Target;
    t.owner = None;
    t.at = pt(3.0, 1.0);
    g.now.units.push(t);
    put(&mut g, 16, 3.0, 0.6);
    let o = g.odds(&"melee u16 u18".parse().unwrap()).unwrap();
    assert!(
        o.outcomes.contains_key("win: the target is destroyed"),
        "{o:?}"
    );
    assert!(!o.outcomes.keys().any(|k| k.starts_with("win, knockback")));
    assert!((o.outcomes.values().sum::<f64>() - 1.0).abs() < 1e-12);
    // The free melee out of an egg: a Zaku's 2 dice + 1.
    let mut g = game("egg_hunt", &[&["guncannon"], &["zaku"]], vec![], &[]);
    begin(&mut g, 0);
    let free = battlemat_sd_era::state::Choice::FreeAttack { seat: 1, unit: 14 };
    g.now.phase = Phase::Choose(free);
    put(&mut g, 13, 3.0, 1.0);
    put(&mut g, 14, 3.0, 1.3);
    let with = g.odds(&"melee u14 u13".parse().unwrap()).unwrap();
    g.now.phase = Phase::Turn;
    g.now.active = 1;
    g.now.units[14].actions = 2;
    let without = g.odds(&"melee u14 u13".parse().unwrap()).unwrap();
    let win = |o: &battlemat_core::Odds| {
        o.outcomes
            .iter()
            .filter(|(k, _)| k.starts_with("win"))
            .map(|(_, p)| p)
            .sum::<f64>()
    };
    assert!(win(&with) > win(&without) + 0.05, "{with:?} {without:?}");
}

#[test]
fn sde_kb2_odds_name_the_whole_win_and_the_stun() {
    // SDE-KB2: "If a unit is knocked back into terrain or a board edge, it stops and is
    // STUNNED." The odds give the whole chance to win (every knockback together) and the
    // chance the defender ends stunned, in a player's words first (`summary`).
    let m = |extra: &[(&str, &str)]| {
        let mut p: BTreeMap<String, String> = [("attacker", "3"), ("defender", "2")]
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        for (k, v) in extra {
            p.insert(k.to_string(), v.to_string());
        }
        SdEra::matchup_odds(&p).unwrap()
    };
    let num = |o: &battlemat_core::Odds, k: &str| o.details[k].as_f64().unwrap();
    let open = m(&[]);
    let wins: f64 = open
        .outcomes
        .iter()
        .filter(|(k, _)| k.starts_with("win"))
        .map(|(_, p)| p)
        .sum();
    assert!((num(&open, "win_chance") - wins).abs() < 1e-12);
    assert_eq!(num(&open, "stun_chance"), 0.0, "open ground: nothing stuns");
    let summary = open.details["summary"].as_str().unwrap();
    assert!(
        summary.starts_with(&format!("win {:.1}%", 100.0 * wins)),
        "{summary}"
    );
    // A wall right behind it: every win stuns; 2 sticks behind: only the longer knockbacks.
    let behind = m(&[("behind", "0")]);
    assert!((num(&behind, "stun_chance") - wins).abs() < 1e-12);
    let far = m(&[("behind", "2")]);
    let one = open.outcomes["win, knockback 1 stick"];
    assert!((num(&far, "stun_chance") - (wins - one)).abs() < 1e-12);
    assert!(
        SdEra::matchup_odds(
            &[("attacker", "3"), ("defender", "2"), ("behind", "x")]
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect()
        )
        .is_err()
    );
    // In a game: a Dom shooting a GM with a wall just behind it, and on open ground.
    let mut g = game(
        "king_of_the_hill",
        &[&["dom"], &["gm"]],
        vec![wall(1.0, 2.2, 5.0, 2.5)],
        &[],
    );
    begin(&mut g, 0);
    put(&mut g, 0, 3.0, 1.0);
    put(&mut g, 1, 3.0, 2.0);
    let o = g.odds(&"shoot u0 u1".parse().unwrap()).unwrap();
    assert!((num(&o, "stun_chance") - num(&o, "win_chance")).abs() < 1e-12);
    assert!(num(&o, "win_chance") > 0.0);
    let d = duel("dom", "gm");
    let o = d.odds(&"shoot u0 u1".parse().unwrap()).unwrap();
    assert_eq!(num(&o, "stun_chance"), 0.0);
}
