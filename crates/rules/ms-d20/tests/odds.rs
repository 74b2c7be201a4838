//! The odds are exact: `battlemat odds ms-d20` and the odds before a defence agree with
//! the referee's own dice, face by face (D20-3, 3D, 8, 9, 10).
mod common;

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
