//! The odds are exact: `battlemat odds ms-d20` and the odds before a defence agree with
//! the referee's own dice, face by face (D20-3, 3D, 8, 9, 10).
mod common;

use battlemat_core::Ruleset;
use battlemat_core::testing::act;
use battlemat_core::{Game, Step};
use battlemat_ms_d20::MsD20;
use battlemat_ms_d20::odds::{Def, strike_odds};
use common::*;
use std::collections::BTreeMap;

fn params(p: &[(&str, &str)]) -> BTreeMap<String, String> {
    p.iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

#[test]
fn d20_3_odds_of_a_strike_without_defence() {
    // d20 + 0: 1-4 miss (4 in 20), 5-19 hit, 20 a critical.
    let [miss, hit, crit, def] = strike_odds(0, Def::None, 0);
    assert!((miss - 0.2).abs() < 1e-12 && (hit - 0.75).abs() < 1e-12);
    assert!((crit - 0.05).abs() < 1e-12 && def == 0.0);
    let o = MsD20::matchup_odds(&params(&[
        ("strike-bonus", "4"),
        ("range", "mid"),
        ("attacker-kind", "person"),
        ("target-kind", "large_vehicle"),
        ("terrain", "ground-airborne"),
        ("defence", "dodge"),
        ("defence-bonus", "3"),
    ]))
    .unwrap();
    // 4 - 2 + 8 - 2 = +8.
    assert_eq!(o.details["strike_modifier"], 8);
    let sum: f64 = o.outcomes.values().sum();
    assert!((sum - 1.0).abs() < 1e-12);
    assert!(MsD20::matchup_odds(&params(&[("range", "far")])).is_err());
    assert!(MsD20::matchup_odds(&params(&[("bogus", "1")])).is_err());
}

#[test]
fn d20_3d_odds_by_enumeration_match_the_rules() {
    // Brute force with the same rules, written out again.
    for bonus in [-3i16, 0, 5, 12] {
        for (def, db) in [(Def::Meet, 2i16), (Def::Beat, 4), (Def::None, 0)] {
            let mut n = [0u32; 4];
            for s in 1..=20i16 {
                for d in 1..=20i16 {
                    let t = s + bonus;
                    if s == 1 || t <= 4 {
                        n[0] += 1;
                    } else if def != Def::None
                        && (if s == 20 {
                            d == 20
                        } else if def == Def::Meet {
                            d + db >= t
                        } else {
                            d + db > t
                        })
                    {
                        n[3] += 1;
                    } else if s == 20 {
                        n[2] += 1;
                    } else {
                        n[1] += 1;
                    }
                }
            }
            let got = strike_odds(bonus, def, db);
            for k in 0..4 {
                assert!((got[k] - n[k] as f64 / 400.0).abs() < 1e-12);
            }
        }
    }
}

#[test]
fn d20_3d_odds_before_a_dodge_match_its_die() {
    let mut g = started(&["gm@c3"], &["zaku@c6"], &[15, 5]);
    act(&mut g, "attack u1 w0");
    strike(&mut g, 11); // 13
    let odds = g.odds(&"dodge".parse().unwrap()).unwrap();
    act(&mut g, "dodge");
    let mut ok = 0;
    for face in 1..=20u32 {
        let mut h = g.clone();
        let ev = h.apply(&Step::Roll { value: face }).unwrap();
        ok += ev
            .iter()
            .any(|e| matches!(e, battlemat_ms_d20::Event::Defence { success: true, .. }))
            as u32;
    }
    assert!((odds.outcomes["defended"] - ok as f64 / 20.0).abs() < 1e-12);
}

/// The damage distribution written out again: every strike face, defence face and damage
/// die, by the rules (D20-3 critical ×2, D20-5M melee on large ×2, D20-3D e roll halves,
/// D20-4 armour after, never below 0; a dodge avoids, a parry takes it all on the parrying
/// section).
#[allow(clippy::too_many_arguments)]
fn damage_by_enumeration(
    bonus: i16,
    defence: &str,
    db: i16,
    dice: u32,
    sides: u32,
    times: u32,
    double: bool,
    armour: u32,
) -> BTreeMap<i64, f64> {
    let mut raws: Vec<u32> = vec![0];
    for _ in 0..dice {
        raws = raws
            .iter()
            .flat_map(|r| (1..=sides).map(move |f| r + f))
            .collect();
    }
    let per = 1.0 / (400.0 * raws.len() as f64);
    let mut out: BTreeMap<i64, f64> = BTreeMap::new();
    for s in 1..=20i16 {
        for d in 1..=20i16 {
            for raw in &raws {
                let t = s + bonus;
                let dmg = if s == 1 || t <= 4 {
                    0
                } else {
                    let ok = defence != "none"
                        && if s == 20 {
                            d == 20
                        } else if defence == "roll" {
                            d + db > t
                        } else {
                            d + db >= t
                        };
                    let critical = s == 20 && !(ok || d == 20 && defence != "none");
                    if ok && defence == "dodge" {
                        0
                    } else {
                        let mut x = raw * times;
                        if critical {
                            x *= 2;
                        }
                        if double {
                            x *= 2;
                        }
                        if ok && defence == "roll" {
                            x /= 2;
                        }
                        x.saturating_sub(armour)
                    }
                };
                *out.entry(i64::from(dmg)).or_default() += per;
            }
        }
    }
    out
}

#[test]
fn d20_3_d20_4_d20_5m_damage_distribution_by_enumeration() {
    for (bonus, defence, db, roll, dice, sides, times, wtype, target, armour, red) in [
        (
            4i16,
            "roll",
            3i16,
            "2d6x10",
            2,
            6,
            10,
            "explosive",
            "mobile_unit",
            "titanium",
            10,
        ),
        (
            0,
            "none",
            0,
            "1d8",
            1,
            8,
            1,
            "melee",
            "mobile_unit",
            "steel",
            0,
        ),
        (
            2,
            "dodge",
            5,
            "3d4x10",
            3,
            4,
            10,
            "projectile",
            "mobile_unit",
            "composite",
            15,
        ),
        (
            6,
            "parry",
            4,
            "2d6x10",
            2,
            6,
            10,
            "melee",
            "mobile_armor",
            "luna_titanium",
            20,
        ),
    ] {
        let p = params(&[
            ("strike-bonus", &bonus.to_string()),
            ("defence", defence),
            ("defence-bonus", &db.to_string()),
            ("damage", roll),
            ("weapon-type", wtype),
            ("target-kind", target),
            ("armour", armour),
        ]);
        let o = MsD20::matchup_odds(&p).unwrap();
        let got = &o.distributions["damage"];
        // Mobile armor as the target: D20-9's target-type modifier joins the strike.
        let tb = o.details["target_type"].as_i64().unwrap() as i16;
        let double = wtype == "melee" && target == "mobile_armor";
        let want = damage_by_enumeration(bonus + tb, defence, db, dice, sides, times, double, red);
        let want: BTreeMap<i64, f64> = want.into_iter().filter(|(_, p)| *p > 0.0).collect();
        assert_eq!(
            got.keys().collect::<Vec<_>>(),
            want.keys().collect::<Vec<_>>(),
            "{roll} {defence}"
        );
        for (v, p) in &want {
            assert!((got[v] - p).abs() < 1e-12, "{roll} {defence}: {v}");
        }
        let sum: f64 = got.values().sum();
        assert!((sum - 1.0).abs() < 1e-12);
        // The miss and the dodge are in the 0 column; the mean is shown.
        assert!(got[&0] >= o.outcomes["miss"] - 1e-12);
        let mean: f64 = got.iter().map(|(v, p)| *v as f64 * p).sum();
        assert!((o.details["damage_mean"].as_f64().unwrap() - mean).abs() < 1e-3);
    }
}

#[test]
fn d20_7_hand_damage_is_a_fixed_amount() {
    // D20-7: hand damage is the strength less 20, no dice: `--damage 30`.
    let o = MsD20::matchup_odds(&params(&[("strike-bonus", "0"), ("damage", "30")])).unwrap();
    let d = &o.distributions["damage"];
    // A miss 1/5 deals 0, a hit 3/4 deals 30, a critical 1/20 deals 60.
    assert_eq!(d.keys().copied().collect::<Vec<_>>(), vec![0, 30, 60]);
    assert!((d[&0] - 0.2).abs() < 1e-12 && (d[&30] - 0.75).abs() < 1e-12);
    assert!((d[&60] - 0.05).abs() < 1e-12);
    // Without --damage there is no distribution; bad damage, armour and type are refused.
    let plain = MsD20::matchup_odds(&params(&[("strike-bonus", "0")])).unwrap();
    assert!(plain.distributions.is_empty());
    for bad in [
        vec![("damage", "2x6")],
        vec![("damage", "2d6"), ("armour", "mithril")],
        vec![("damage", "2d6"), ("weapon-type", "laser")],
        vec![("armour", "steel")],
    ] {
        let e = MsD20::matchup_odds(&params(&bad)).unwrap_err();
        assert!(e.message.contains("--"), "{e}");
    }
}

#[test]
fn d20_3_simulated_damage_agrees_with_the_exact_distribution() {
    // The sampler rolls the damage dice one by one, as the referee does: its shares of
    // 40,000 rolls sit near the exact distribution.
    let p = params(&[
        ("strike-bonus", "5"),
        ("defence", "roll"),
        ("defence-bonus", "2"),
        ("damage", "1d6x10+5"),
        ("armour", "titanium"),
    ]);
    let exact = MsD20::matchup_odds(&p).unwrap().distributions["damage"].clone();
    let mut roller = battlemat_dice::Roller::new(7, 0);
    let mut seen: BTreeMap<i64, u32> = BTreeMap::new();
    let n = 40_000;
    for _ in 0..n {
        let r = MsD20::matchup_sample(&p, &mut roller).unwrap();
        *seen.entry(r.values["damage"]).or_default() += 1;
    }
    assert!(seen.keys().all(|v| exact.contains_key(v)), "{seen:?}");
    for (v, p) in &exact {
        let share = f64::from(seen.get(v).copied().unwrap_or(0)) / f64::from(n);
        // Five standard errors.
        let se = (p * (1.0 - p) / f64::from(n)).sqrt();
        assert!((share - p).abs() < 5.0 * se + 1e-9, "{v}: {share} vs {p}");
    }
}

#[test]
fn d20_3_d20_4_odds_before_an_attack_give_the_damage_the_referee_deals() {
    // The Zaku's machine gun (2d4x10, projectile) at the GM's main body: the odds before the
    // attack give the damage the section takes if the strike lands undefended, and the
    // referee, face by face (the strike die, then the two damage dice, the GM letting every
    // strike hit), deals exactly that.
    let mut g = started(&["gm@c3"], &["zaku@c6"], &[5, 15]);
    assert_eq!(turn_of(&g), 1, "the Zaku acts first");
    let odds = g.odds(&"attack u0 w0".parse().unwrap()).unwrap();
    let exact = &odds.distributions["damage"];
    act(&mut g, "attack u0 w0");
    let mut dealt: BTreeMap<i64, f64> = BTreeMap::new();
    for strike_face in 1..=20u32 {
        for d1 in 1..=4u32 {
            for d2 in 1..=4u32 {
                let mut h = g.clone();
                let mut faces = [strike_face, d1, d2].into_iter();
                let mut damage = 0i64;
                loop {
                    let events = match h.next() {
                        battlemat_core::Next::Chance(_) => {
                            let Some(face) = faces.next() else { break };
                            h.apply(&Step::Roll { value: face }).unwrap()
                        }
                        // The GM lets it hit (and does not roll with it).
                        battlemat_core::Next::Decide(0) => act(&mut h, "take"),
                        _ => break,
                    };
                    for e in events {
                        if let battlemat_ms_d20::Event::Damage {
                            unit: 0, damage: d, ..
                        } = e
                        {
                            damage += i64::from(d);
                        }
                    }
                }
                *dealt.entry(damage).or_default() += 1.0 / 320.0;
            }
        }
    }
    assert_eq!(
        exact.keys().collect::<Vec<_>>(),
        dealt.keys().collect::<Vec<_>>()
    );
    for (v, p) in exact {
        assert!((dealt[v] - p).abs() < 1e-12, "{v}: {} vs {p}", dealt[v]);
    }
}

#[test]
fn d20_5b_d20_5l_d20_3d_the_odds_refuse_what_the_referee_refuses() {
    // D20-3D e: "Roll (taking ½ damage)(can not be attempted if the attack is a beam attack or
    // a blade attack)"; D20-5B: "Beam- damage cannot be reduced by a successful roll."; D20-5L:
    // "Blade- damage cannot be reduced by a successful roll."; D20-3D d: a parry is against a
    // hand-to-hand attack. The odds command refuses these with the referee's rule id, and
    // never halves a beam's damage.
    for (defence, wtype, rule) in [
        ("roll", "beam", "D20-5B"),
        ("roll", "blade", "D20-5L"),
        ("parry", "projectile", "D20-3D"),
        ("parry", "beam", "D20-3D"),
        ("parry", "explosive", "D20-3D"),
    ] {
        let err = MsD20::matchup_odds(&params(&[
            ("defence", defence),
            ("weapon-type", wtype),
            ("damage", "2d6x10"),
        ]))
        .unwrap_err();
        assert!(
            err.message.contains(&format!("({rule})")),
            "{defence} {wtype}: {err}"
        );
        // Without the damage roll too: the defence is refused first.
        let err = MsD20::matchup_odds(&params(&[("defence", defence), ("weapon-type", wtype)]))
            .unwrap_err();
        assert!(
            err.message.contains(&format!("({rule})")),
            "{defence} {wtype}: {err}"
        );
    }
    for (defence, wtype) in [
        ("roll", "projectile"),
        ("roll", "melee"),
        ("roll", "explosive"),
        ("parry", "melee"),
        ("parry", "blade"),
        ("dodge", "beam"),
    ] {
        MsD20::matchup_odds(&params(&[
            ("defence", defence),
            ("weapon-type", wtype),
            ("damage", "2d6x10"),
        ]))
        .unwrap();
    }
}

#[test]
fn d20_3d_e_odds_of_a_roll_show_the_damage_it_saves() {
    // D20-3D e: "Roll (taking ½ damage)". The Zaku's machine gun (2d4x10) at the GM
    // (titanium, 10 off), strike 15 + 2 = 17; the GM's roll (+1) must beat it: 17-20 on the
    // die, 4 in 20. Taken: 2d4x10 - 10, mean 40; halved: 2d4x5 - 10, mean 15; the roll saves
    // 4/20 × 25 = 5 on average.
    let mut g = started(&["gm@c3"], &["zaku@c6"], &[5, 15]);
    act(&mut g, "attack u0 w0");
    strike(&mut g, 15);
    let odds = g.odds(&"roll".parse().unwrap()).unwrap();
    assert!((odds.outcomes["defended"] - 0.2).abs() < 1e-12);
    assert_eq!(odds.details["damage_if_hit_mean"], 40.0);
    assert_eq!(odds.details["damage_if_rolled_mean"], 15.0);
    assert_eq!(odds.details["damage_saved_mean"], 5.0);
    let saved = &odds.distributions["damage_saved"];
    assert!((battlemat_core::Odds::mean(saved) - 5.0).abs() < 1e-9);
    assert!((saved[&0] - 0.8).abs() < 1e-12);
    // The damage distribution is the referee's, face by face.
    act(&mut g, "roll");
    let mut exact: BTreeMap<i64, f64> = BTreeMap::new();
    for face in 1..=20u32 {
        for d1 in 1..=4u32 {
            for d2 in 1..=4u32 {
                let mut h = g.clone();
                let mut taken = 0i64;
                for v in [face, d1, d2] {
                    for e in h.apply(&Step::Roll { value: v }).unwrap() {
                        if let battlemat_ms_d20::Event::Damage {
                            unit: 0, damage, ..
                        } = e
                        {
                            taken += i64::from(damage);
                        }
                    }
                }
                *exact.entry(taken).or_default() += 1.0 / 320.0;
            }
        }
    }
    let dist = &odds.distributions["damage"];
    assert_eq!(dist.len(), exact.len());
    for (v, p) in &exact {
        assert!((dist[v] - p).abs() < 1e-12, "{v}: {} vs {p}", dist[v]);
    }
}

#[test]
fn d20_3d_the_matchup_shows_the_damage_a_defence_saves() {
    // D20-3D b: "dodge at the cost of 1APM". `odds ms-d20 --defence dodge --damage 10`:
    // undefended, d20 + 0 misses on 1-4, hits on 5-19 (10) and is a critical on 20 (20):
    // mean 0.75 × 10 + 0.05 × 20 = 8.5. A dodge (+0) meets the strike s on s..20,
    // (21 - s) in 20, and a critical only on a natural 20: the damage left is
    // Σ(s = 5..19) (s - 1)/400 × 10 + 19/400 × 20 = 4.125 + 0.95 = 5.075, so the dodge
    // saves 3.425 on average.
    let o = MsD20::matchup_odds(&params(&[
        ("strike-bonus", "0"),
        ("defence", "dodge"),
        ("defence-bonus", "0"),
        ("damage", "10"),
    ]))
    .unwrap();
    assert_eq!(o.details["damage_undefended_mean"], 8.5);
    assert_eq!(o.details["damage_mean"], 5.075);
    assert_eq!(o.details["damage_saved_mean"], 3.425);
    // With no defence nothing is saved, and the figure is not shown.
    let plain = MsD20::matchup_odds(&params(&[("strike-bonus", "0"), ("damage", "10")])).unwrap();
    assert!(!plain.details.contains_key("damage_saved_mean"));
}
