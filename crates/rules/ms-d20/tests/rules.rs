//! One or more tests per rule of Mobile-suit d20 combat, named by its id (D20-n), on small
//! scenarios (`common`). Initiative dice are given so that the order is known.
mod common;

use battlemat_core::Ruleset;
use battlemat_core::testing::{act, allowed, refused, roll};
use battlemat_core::{Game, Next};
use battlemat_ms_d20::data::{Armour, Kind, Terrain};
use battlemat_ms_d20::modifiers::{Range, target_type, terrain};
use battlemat_ms_d20::state::Phase;
use battlemat_ms_d20::{Event, MsD20};
use common::*;

fn left(g: &MsD20, u: u8, s: usize) -> u32 {
    g.unit(u).sections[s]
}

// ------------------------------------------------------------------ D20-1, D20-2: the round

#[test]
fn d20_1_initiative_highest_first_and_ties_rolled_again() {
    // D20-1: "Roll Standard Initiative (d20 + Initiative Bonuses, the highest number goes
    // first)". GM +1, Zaku +1: 10 + 1 against 12 + 1: the Zaku first.
    let g = started(&["gm@c3"], &["zaku@c6"], &[10, 12]);
    assert_eq!(g.now.order, [1, 0]);
    // A tie (11 and 11) is rolled again: the GM's 15 beats the Zaku's 3.
    let g = started(&["gm@c3"], &["zaku@c6"], &[10, 10, 15, 3]);
    assert_eq!(g.now.order, [0, 1]);
    // A battleship rolls without its bonus (rulings.md).
    let mut w = new(&["white_base@c3"], &["zaku@c9"]);
    roll(&mut w, &[10]);
    assert_eq!(w.unit(0).initiative, [10]);
}

#[test]
fn d20_1_a_tie_is_broken_only_among_the_tied() {
    // D20-1: "Roll Standard Initiative (d20 + Initiative Bonuses, the highest number goes
    // first)"; rulings: "ties re-rolled". Three at 11 (10 + 1 each): the re-roll puts u0 first
    // (15) and leaves u1 and u2 tied (10, 10); their own re-roll (18, 5) orders only them —
    // u1's 18 does not put it before u0, which beat it in the first re-roll. The re-roll is a
    // plain d20 (the bonus is already in the tied totals).
    let g = started(
        &["gm@c3", "gm@c4"],
        &["zaku@c6"],
        &[10, 10, 10, 15, 10, 10, 18, 5],
    );
    assert_eq!(g.now.order, [0, 1, 2]);
    assert_eq!(g.unit(0).initiative, [11, 15]);
    assert_eq!(g.unit(1).initiative, [11, 10, 18]);
    // A tie between two leaves the third where its first roll put it: u0's 13 first; u1 and
    // u2 at 11 re-roll (3, 20): u2, then u1.
    let g = started(&["gm@c3", "gm@c4"], &["zaku@c6"], &[12, 10, 10, 3, 20]);
    assert_eq!(g.now.order, [0, 2, 1]);
}

#[test]
fn d20_1_the_newtype_initiative_save() {
    // D20-1: "Save VRS Newtype Initiative is rolled (if applicable) (characters that fail
    // cannot go before any Newtypes with the Newtype Initiative ability)". The Gundam's
    // Amuro has it; the Zaku's pilot saves at d20 + level 0 + save 1 >= 15.
    let mut g = new(&["gundam@c3"], &["zaku@c6"]);
    assert!(matches!(g.now.phase, Phase::NewtypeSave { unit: 1 }));
    let ev = roll(&mut g, &[10]); // 11: failed
    assert!(ev.iter().any(|e| e.to_string()
        == "u1 saves against Newtype Initiative: 10 on the die, 11 against 15, failed"));
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::NewtypeSave {
            unit: 1,
            saved: false,
            ..
        }
    )));
    // Initiative: the Gundam 2 + 3 = 5, the Zaku 20 + 1 = 21 — yet the Zaku goes after.
    roll(&mut g, &[2, 20]);
    assert_eq!(g.now.order, [0, 1]);
    // Saved (14 + 1 = 15): the higher roll goes first.
    let mut h = new(&["gundam@c3"], &["zaku@c6"]);
    roll(&mut h, &[14, 2, 20]);
    assert_eq!(h.now.order, [1, 0]);
}

#[test]
fn d20_2_fight_or_flight() {
    // D20-2: "Characters that do not wish to attack this melee must announce this. Those
    // characters cannot attack on their turn but may still move. Those characters only use
    // 1 APM on every 2nd turn."
    let mut g = new(&["gm@c3"], &["zaku@c6"]);
    roll(&mut g, &[12, 10]);
    act(&mut g, "flee");
    act(&mut g, "fight");
    assert_eq!(turn_of(&g), 0);
    refused(&mut g, "attack u1 w0", "D20-2");
    allowed(&g, "move c2");
    let apm = g.unit(0).apm;
    act(&mut g, "pass"); // the first turn: free
    assert_eq!(g.unit(0).apm, apm);
    act(&mut g, "pass"); // the Zaku
    act(&mut g, "pass"); // the second: 1 APM
    assert_eq!(g.unit(0).apm, apm - 1);
}

// ------------------------------------------------------------------ D20-3: attacking

#[test]
fn d20_3_the_attack_sequence_and_the_strike() {
    // D20-3: "a) state the weapon/attack being used. b) Make a called shot if desired. c)
    // State the newtype power being used if any. d) Roll d20 and add applicable bonuses."
    // The Gundam (strike +4) at a Zaku 3 cells off (short range): d20 + 4; a called shot at
    // the head -3; insight + Amuro's level 3.
    let mut g = new(&["gundam@c3"], &["zaku@c6"]);
    roll(&mut g, &[15, 10, 5]);
    act(&mut g, "fight");
    act(&mut g, "fight");
    assert_eq!(g.strike_bonus(0, 0, 1, None, false), Some(4));
    assert_eq!(g.strike_bonus(0, 0, 1, Some(1), false), Some(1));
    assert_eq!(g.strike_bonus(0, 0, 1, Some(1), true), Some(4));
    let apm = g.unit(0).apm;
    act(&mut g, "attack u1 w0 at s1 insight");
    assert_eq!(g.unit(0).apm, apm - 1);
    // A natural 1 always misses; a total of 4 or less misses.
    let mut m = g.clone();
    let ev = roll(&mut m, &[1]);
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Strike { miss: true, .. }))
    );
    // 10 + 4 = 14: the Zaku chooses its defence seeing it.
    strike(&mut g, 10);
    let Phase::Defend { attack } = &g.now.phase else {
        panic!("{:?}", g.now.phase)
    };
    assert_eq!(attack.total, 14);
    assert_eq!(battlemat_core::testing::seat(&g), 1);
}

#[test]
fn d20_3_a_natural_20_doubles_the_damage() {
    // Palladium (rulings.md): "a natural 20 hits for double damage unless the defender also
    // rolls a natural 20". GM's beam spray gun 1d6x10 on the Zaku's main body (steel).
    let mut g = started(&["gm@c3"], &["zaku@c6"], &[15, 5]);
    act(&mut g, "attack u1 w0");
    strike(&mut g, 20);
    act(&mut g, "take");
    roll(&mut g, &[20]); // the beam save: 21, saved
    roll(&mut g, &[3]); // 3 x 10 = 30, doubled = 60
    assert_eq!(left(&g, 1, 0), 180 - 60);
    // A dodge needs a natural 20 against it.
    let mut h = started(&["gm@c3"], &["zaku@c6"], &[15, 5]);
    act(&mut h, "attack u1 w0");
    strike(&mut h, 20);
    act(&mut h, "dodge");
    let ev = roll(&mut h, &[19]);
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Defence { success: false, .. }))
    );
}

#[test]
fn d20_3d_defences_chosen_after_the_strike() {
    // D20-3D: "a) let it hit you b) dodge at the cost of 1APM c) Leap Dodge d) Parry (taking
    // damage to that section) e) Roll (taking ½ damage)(can not be attempted if the attack is
    // a beam attack or a blade attack)". A dodge meets or beats the strike (ties to the
    // defender).
    let mut g = started(&["gm@c3"], &["zaku@c6"], &[15, 5]);
    act(&mut g, "attack u1 w0");
    strike(&mut g, 10); // 10 + 2 = 12
    allowed(&g, "take");
    allowed(&g, "dodge");
    allowed(&g, "leap");
    refused(&mut g, "roll", "D20-5B"); // a beam
    refused(&mut g, "parry s2", "D20-3D"); // not hand to hand
    let apm = g.unit(1).apm;
    act(&mut g, "dodge");
    assert_eq!(g.unit(1).apm, apm - 1);
    let ev = roll(&mut g, &[10]); // 10 + 2 = 12: a tie, dodged
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Defence { success: true, .. }))
    );
    assert_eq!(left(&g, 1, 0), 180);
    // A battleship's dodge costs 2 (rulings.md).
    let w = MsD20::new_game(&setup_with(&["gm@c3"], &["white_base@c6"], &[])).unwrap();
    assert_eq!(w.dodge_cost(1), 2);
}

#[test]
fn d20_3d_parry_puts_the_damage_on_the_arm() {
    // "Parry (taking damage to that section)": the Zaku's heat hawk (blade) parried by the
    // GM's left arm: the damage lands on the arm, not the body.
    let mut g = started(&["gm@c3"], &["zaku@c4"], &[5, 15]);
    assert_eq!(turn_of(&g), 1);
    act(&mut g, "attack u0 w1");
    strike(&mut g, 10); // 12
    act(&mut g, "parry s3");
    roll(&mut g, &[12]); // 12 + 2 = 14: parried
    roll(&mut g, &[3, 3]); // 2d6x10 = 60 - titanium 10 = 50 on the left arm
    assert_eq!(left(&g, 0, 3), 90 - 50);
    assert_eq!(left(&g, 0, 0), 200);
}

#[test]
fn d20_3h_when_hit_roll_then_saves_then_damage() {
    // D20-3H: "a) defender may attempt roll. If applicable and if not previously attempted.
    // b) defender must roll applicable saves (if required). c) attacker rolls damage." The
    // Zaku's machine gun (projectile) at the GM: a failed dodge, then a roll with it.
    let mut g = started(&["gm@c3"], &["zaku@c6"], &[5, 15]);
    act(&mut g, "attack u0 w0");
    strike(&mut g, 15); // 17
    act(&mut g, "dodge");
    roll(&mut g, &[3]); // failed
    assert!(matches!(g.now.phase, Phase::MayRoll { .. }));
    act(&mut g, "roll");
    roll(&mut g, &[18]); // 18 + 1 = 19 > 17: half damage
    roll(&mut g, &[4, 4]); // 2d4x10 = 80, halved 40, - titanium 10 = 30
    assert_eq!(left(&g, 0, 0), 200 - 30);
}

// ------------------------------------------------------------------ D20-4, 5, 6, 7

#[test]
fn d20_4_armour_types_reduce_damage() {
    // D20-4: "super high tensile steel- no damage reduction titanium alloy- reduce damage by
    // 10 titanium/ceramic composite- reduce damage by 15 Luna titanium alloy- reduce damage
    // by 20".
    assert_eq!(Armour::Steel.reduction(), 0);
    assert_eq!(Armour::Titanium.reduction(), 10);
    assert_eq!(Armour::Composite.reduction(), 15);
    assert_eq!(Armour::LunaTitanium.reduction(), 20);
    // Never below 0: the GM's punch (50 - 20 = 30) on the Gundam's luna titanium: 10.
    let mut g = started(&["gm@c3"], &["gundam@c4"], &[16, 20, 1]);
    assert_eq!(turn_of(&g), 0);
    act(&mut g, "attack u1 w2");
    strike(&mut g, 15);
    act(&mut g, "take");
    assert_eq!(left(&g, 1, 0), 300 - 10);
}

#[test]
fn d20_5_weapon_types_5b_5l_no_roll_against_beams_and_blades() {
    // D20-5B: "Beam- damage cannot be reduced by a successful roll." D20-5L: "Blade- damage
    // cannot be reduced by a successful roll." D20-5P: "Projectile- no special feature."
    let mut g = started(&["gm@c3"], &["zaku@c4"], &[15, 5]);
    act(&mut g, "attack u1 w1"); // beam saber: a blade
    strike(&mut g, 12);
    refused(&mut g, "roll", "D20-5L");
    let mut p = started(&["gm@c3"], &["zaku@c6"], &[5, 15]);
    act(&mut p, "attack u0 w0"); // projectile
    strike(&mut p, 12);
    allowed(&p, "roll");
}

#[test]
fn d20_5e_explosives_hit_every_attached_section() {
    // D20-5E: "½ damage is inflicted to all attached sections of a vehicle or mobile unit.
    // Not including large vehicles (battleships), and Mobile Armors."
    let mut g = started(&["gundam@c3"], &["zaku@c6"], &[20, 15, 5]);
    act(&mut g, "attack u1 w2"); // hyper bazooka 4d6x10
    strike(&mut g, 15);
    act(&mut g, "take");
    roll(&mut g, &[2, 2, 2, 2]); // 80 on the body (steel), 40 on each other section
    assert_eq!(left(&g, 1, 0), 100);
    assert_eq!(left(&g, 1, 1), 10);
    assert_eq!(left(&g, 1, 2), 40);
    // Against a battleship: only the section hit.
    let mut w = started(&["gundam@c3"], &["white_base@c8"], &[15, 15, 5]);
    act(&mut w, "attack u1 w2");
    strike(&mut w, 19);
    act(&mut w, "take");
    roll(&mut w, &[2, 2, 2, 2]);
    assert_eq!(left(&w, 1, 0), 1500 - 70);
    assert_eq!(left(&w, 1, 1), 150);
}

#[test]
fn d20_5m_melee_doubled_against_battleships_and_mobile_armors() {
    // D20-5M: "Melee- all damage done to large vehicles (battleships) and Mobile Armors is
    // doubled." The GM's punch (30) on the Bigro (composite 15): 60 - 15 = 45.
    let mut g = started(&["gm@c3"], &["bigro@c4"], &[15, 5]);
    act(&mut g, "attack u1 w2");
    strike(&mut g, 15);
    act(&mut g, "take");
    assert_eq!(left(&g, 1, 0), 500 - 45);
}

#[test]
fn d20_6_and_6b_a_failed_beam_save_destroys_the_section_and_the_beam_goes_on() {
    // D20-6B: "if failed the beam destroys the section hit regardless of remaining
    // durability. The beam then continues on its directed path." The GM's beam spray gun
    // (beam 12) at a Zaku with another Zaku behind it on the line.
    let mut g = started(&["gm@c3"], &["zaku@c5", "zaku@c8"], &[15, 5, 3]);
    act(&mut g, "attack u1 w0 at s2");
    strike(&mut g, 15);
    act(&mut g, "take");
    let ev = roll(&mut g, &[5]); // 5 + 1 = 6 < 12: failed
    // Every die shown: the save names its die, its total and what it had to reach.
    let save = ev
        .iter()
        .find(|e| matches!(e, Event::Save { .. }))
        .expect("a beam save");
    assert_eq!(
        save.to_string(),
        "u1's beam save: 5 on the die, 6 against 12, failed"
    );
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::SectionDestroyed { unit: 1, .. }))
    );
    assert_eq!(left(&g, 1, 2), 0);
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::BeamGoesOn { unit: 2 }))
    );
    assert!(matches!(g.now.phase, Phase::Defend { ref attack } if attack.target == 2));
    // Battleships and mobile armors do not save, except their vulnerable sections.
    let mut w = started(&["gm@c3"], &["white_base@c6"], &[15, 5]);
    act(&mut w, "attack u1 w0");
    strike(&mut w, 15);
    act(&mut w, "take");
    assert!(matches!(w.now.phase, Phase::Damage { .. }));
    let mut v = started(&["gm@c3"], &["white_base@c6"], &[15, 5]);
    act(&mut v, "attack u1 w0 at s1"); // the bridge
    strike(&mut v, 19);
    act(&mut v, "take");
    assert!(matches!(v.now.phase, Phase::BeamSave { .. }));
}

#[test]
fn d20_6s_stun_lasts_to_the_end_of_the_attackers_next_turn() {
    // D20-6S: "if failed the defender cannot move, attack of defend (may still role saves)
    // until the end of the attackers next turn." The Zaku's cracker grenade (stun 12).
    let mut g = started(&["gm@c3"], &["zaku@c5"], &[5, 15]);
    act(&mut g, "attack u0 w2");
    strike(&mut g, 15);
    act(&mut g, "take");
    let ev = roll(&mut g, &[3]); // 3 + 1 = 4 < 12: stunned
    assert!(ev.iter().any(|e| matches!(e, Event::Stunned { unit: 0 })));
    roll(&mut g, &[1, 1]); // 20 on the body, 10 elsewhere, less armour
    act(&mut g, "end");
    // The GM's turn is lost.
    assert_eq!(turn_of(&g), 1);
    assert!(g.unit(0).stunned.is_some());
    // The Zaku's next turn: the GM is stunned to its end, and the stun wears off then.
    let ev = act(&mut g, "pass");
    assert!(ev.iter().any(|e| matches!(e, Event::StunEnds { unit: 0 })));
    assert_eq!(turn_of(&g), 0);
    // Attacked with the stunning weapon on that turn, the GM cannot defend.
    let mut h = zaku_stuns_u0(&["gm@c3"], &[5, 15]);
    act(&mut h, "attack u0 w2");
    strike(&mut h, 12);
    assert!(!matches!(h.now.phase, Phase::Defend { .. }));
    assert!(h.unit(0).stunned.is_some());
}

/// The Zaku (u1 of `fed.len()`) stuns u0 with its cracker grenade on its first turn (it goes
/// first) and ends its turn.
fn zaku_stuns_u0(fed: &[&str], faces: &[u32]) -> MsD20 {
    let mut g = started(fed, &["zaku@c5"], faces);
    let z = fed.len() as u8;
    assert_eq!(turn_of(&g), z);
    act(&mut g, "attack u0 w2");
    strike(&mut g, 15);
    act(&mut g, "take");
    roll(&mut g, &[3]); // 3 + 1 = 4 < 12: stunned
    roll(&mut g, &[1, 1]);
    act(&mut g, "end");
    assert!(g.unit(0).stunned.is_some());
    g
}

#[test]
fn d20_6s_another_weapon_on_the_attackers_next_turn_ends_the_stun() {
    // D20-6S: "If on the attackers next turn the defender makes a successful save or the
    // attacker misses or does not attack with the stunning weapon, the defender is no longer
    // stunned." The Zaku's next turn, with its machine gun: the stun ends as it attacks, so
    // the GM may defend against that strike.
    let mut g = zaku_stuns_u0(&["gm@c3"], &[5, 15]);
    assert_eq!(turn_of(&g), 1); // the GM's turn was lost
    let ev = act(&mut g, "attack u0 w0");
    assert!(ev.iter().any(|e| matches!(e, Event::StunEnds { unit: 0 })));
    assert!(g.unit(0).stunned.is_none());
    strike(&mut g, 12);
    assert!(matches!(g.now.phase, Phase::Defend { .. }));
    // So does the stunning weapon at another target (the second GM), on that turn.
    let mut o = zaku_stuns_u0(&["gm@c3", "gm@c4"], &[5, 10, 15]);
    act(&mut o, "pass"); // the second GM; then the stunned GM's turn is lost
    assert_eq!(turn_of(&o), 2);
    let ev = act(&mut o, "attack u1 w2");
    assert!(ev.iter().any(|e| matches!(e, Event::StunEnds { unit: 0 })));
    // A miss with the stunning weapon on the next turn ends it too.
    let mut m = zaku_stuns_u0(&["gm@c3"], &[5, 15]);
    act(&mut m, "attack u0 w2");
    let ev = roll(&mut m, &[1]);
    assert!(ev.iter().any(|e| matches!(e, Event::StunEnds { unit: 0 })));
    assert!(m.unit(0).stunned.is_none());
}

#[test]
fn d20_6s_the_stun_ends_when_its_attacker_is_destroyed() {
    // D20-6S: "until the end of the attackers next turn": a destroyed attacker has no next
    // turn, so the stun it caused ends with it (not for the rest of the game). Initiative:
    // the Zaku (16), the second GM (11), the stunned GM (6).
    let mut g = zaku_stuns_u0(&["gm@c3", "gm@c4"], &[5, 10, 15]);
    assert_eq!(turn_of(&g), 1);
    g.now.units[2].sections[0] = 1; // the Zaku's body hangs by a thread
    act(&mut g, "attack u2 w2"); // the GM's punch: no save, fixed damage
    strike(&mut g, 15);
    let mut ev = Vec::new();
    if matches!(g.now.phase, Phase::Defend { .. }) {
        ev.extend(act(&mut g, "take"));
    }
    while let Next::Chance(_) = g.next() {
        ev.extend(roll(&mut g, &[1]));
    }
    assert!(ev.iter().any(|e| matches!(e, Event::Destroyed { unit: 2 })));
    assert!(ev.iter().any(|e| matches!(e, Event::StunEnds { unit: 0 })));
    assert!(g.unit(0).stunned.is_none());
}

#[test]
fn d20_6o_eighty_damage_knocks_a_mobile_suit_over() {
    // D20-6O: "If 80 damage or more is inflicted on the defender's mobile suit, then the suit
    // is knocked of balance/knocked over and must spend it's next turn regaining their
    // balance". The Zaku's machine gun, 2d4x10: 8 x 10 = 80 on a steel Zaku... here the GM
    // (titanium): a critical 160 - 10.
    let mut g = started(&["gm@c3"], &["zaku@c6"], &[5, 15]);
    act(&mut g, "attack u0 w0");
    strike(&mut g, 20);
    act(&mut g, "take");
    let ev = roll(&mut g, &[4, 4]);
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::KnockedOver { unit: 0 }))
    );
    let ev = act(&mut g, "end");
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::TurnLost { unit: 0, .. }))
    );
}

#[test]
fn d20_7_hand_damage_is_strength_minus_20() {
    // D20-7: "Mobile Unit's Hand Damage- equal to the mobile unit's strength –20." The Zaku
    // (strength 50) punches the GM: 30 - titanium 10 = 20, no dice.
    let mut g = started(&["gm@c3"], &["zaku@c4"], &[5, 15]);
    act(&mut g, "attack u0 w3");
    strike(&mut g, 15);
    act(&mut g, "take");
    assert_eq!(left(&g, 0, 0), 200 - 20);
}

// ------------------------------------------------------------------ D20-8, 9, 10

#[test]
fn d20_8_distance_modifiers() {
    // D20-8: "-2 strike on targets at mid range -4 strike on targets at long range".
    assert_eq!(Range::of(4, [4, 8, 12]), Some(Range::Short));
    assert_eq!(Range::of(5, [4, 8, 12]).map(Range::strike), Some(-2));
    assert_eq!(Range::of(12, [4, 8, 12]).map(Range::strike), Some(-4));
    assert_eq!(Range::of(13, [4, 8, 12]), None);
    let mut g = started(&["gm@a1"], &["zaku@a10", "zaku@a14"], &[15, 5, 3]);
    assert_eq!(g.strike_bonus(0, 0, 1, None, false), Some(2 - 4));
    refused(&mut g, "attack u2 w0", "D20-8");
}

#[test]
fn d20_9_target_type_modifiers_all_four_tables() {
    // D20-9: the four tables, attacker then target.
    use Kind::*;
    let rows = [
        (MobileUnit, [0, -2, 4, -4]),
        (Vehicle, [0, 0, 4, -2]),
        (LargeVehicle, [-2, -2, 0, -4]),
        (Person, [4, 4, 8, 0]),
    ];
    for (a, row) in rows {
        for (t, m) in [MobileUnit, Vehicle, LargeVehicle, Person]
            .into_iter()
            .zip(row)
        {
            assert_eq!(target_type(a, t), m, "{a:?} at {t:?}");
        }
    }
    // A mobile armor uses the mobile unit rows (ours).
    assert_eq!(target_type(MobileArmor, LargeVehicle), 4);
    assert_eq!(target_type(Person, MobileArmor), 4);
    // In a game: the Zeon soldier (strike +1) at the GM 3 cells off: +1 + 4.
    let g = started(&["gm@c3"], &["soldier@c6"], &[15, 5]);
    assert_eq!(g.strike_bonus(1, 0, 0, None, false), Some(5));
}

#[test]
fn d20_10_terrain_modifiers() {
    // D20-10: "Atacking airborn target from ground -2 strike penalty Atacking space target
    // from space surface -2 strike penalty Atacking submerged target from ground or air -4".
    use Terrain::*;
    assert_eq!(terrain(Ground, Airborne), -2);
    assert_eq!(terrain(SpaceSurface, Space), -2);
    assert_eq!(terrain(Ground, Submerged), -4);
    assert_eq!(terrain(Airborne, Submerged), -4);
    assert_eq!(terrain(Space, Space), 0);
    let g = started(&["gm@c3:space_surface"], &["zaku@c6:space"], &[15, 5]);
    assert_eq!(g.strike_bonus(0, 0, 1, None, false), Some(2 - 2));
}

#[test]
fn the_last_side_standing_wins() {
    // The text has no victory condition: the last side with a combatant working (DEFAULT).
    let mut g = started(&["gundam@c3"], &["soldier@c5"], &[20, 15, 5]);
    act(&mut g, "attack u1 w0");
    strike(&mut g, 15);
    act(&mut g, "take");
    roll(&mut g, &[1]); // beam save failed: the body is destroyed
    let r = g.result().expect("over");
    assert_eq!(r.ranks, [1, 2]);
    assert!(matches!(g.next(), Next::Over));
}

#[test]
fn bad_actions_are_refused_without_change() {
    let mut g = started(&["gm@c3"], &["zaku@c6"], &[15, 5]);
    refused(&mut g, "attack u0 w0", "D20-3");
    refused(&mut g, "attack u1 w9", "D20-3");
    refused(&mut g, "attack u9 w0", "D20-3");
    refused(&mut g, "attack u1 w0 at s0", "D20-3");
    refused(&mut g, "attack u1 w0 insight", "D20-3");
    refused(&mut g, "move c6", "D20-3");
    refused(&mut g, "move z9", "D20-3");
    refused(&mut g, "dodge", "D20-3");
    refused(&mut g, "end", "D20-3");
}

#[test]
fn d20_3h_option_roll_after_failed_defence_or_any_hit() {
    // D20-3H: "a) defender may attempt roll. If applicable and if not previously attempted."
    // After `take` (letting it hit) and after a successful parry, is a roll still offered?
    for (opts, offered) in [
        (&[][..], false),
        (&[("roll_after", "failed_defence")][..], false),
        (&[("roll_after", "any_hit")][..], true),
    ] {
        // The Zaku's machine gun (projectile) at the GM, which lets it hit.
        let mut g = started_with(&["gm@c3"], &["zaku@c6"], &[5, 15], opts);
        act(&mut g, "attack u0 w0");
        strike(&mut g, 15);
        act(&mut g, "take");
        assert_eq!(
            matches!(g.now.phase, Phase::MayRoll { .. }),
            offered,
            "{opts:?} after take"
        );
        if offered {
            act(&mut g, "roll");
            roll(&mut g, &[18]); // 18 + 1 = 19 > 17: half damage
            roll(&mut g, &[4, 4]); // 2d4x10 = 80, halved 40, - titanium 10 = 30
            assert_eq!(left(&g, 0, 0), 200 - 30);
        } else {
            assert!(matches!(g.now.phase, Phase::Damage { .. }));
        }
        // The Zaku's punch (melee) parried by the GM's left arm.
        let mut g = started_with(&["gm@c3"], &["zaku@c4"], &[5, 15], opts);
        act(&mut g, "attack u0 w3");
        strike(&mut g, 10); // 12
        act(&mut g, "parry s3");
        roll(&mut g, &[12]); // 12 + 2 = 14: parried
        assert_eq!(
            matches!(g.now.phase, Phase::MayRoll { .. }),
            offered,
            "{opts:?} after a parry"
        );
        if !offered {
            // Hand damage 50 - 20 = 30 on the arm, less titanium 10.
            assert_eq!(left(&g, 0, 3), 90 - 20);
        }
    }
}

#[test]
fn d20_3h_c_the_damage_dice_are_shown() {
    // D20-3H: "c) attacker rolls damage." D20-4: "titanium alloy- reduce damage by 10". The
    // words name the dice as rolled, what they make, and the armour taken off.
    let mut g = started(&["gm@c3"], &["zaku@c6"], &[5, 15]);
    act(&mut g, "attack u0 w0");
    strike(&mut g, 15);
    act(&mut g, "take");
    let mut ev = roll(&mut g, &[3]);
    ev.extend(roll(&mut g, &[4]));
    let text: Vec<String> = ev.iter().map(|e| e.to_string()).collect();
    assert!(
        text.contains(&"damage to u0: 2d4x10, dice 3 + 4 = 7 → 70".to_string()),
        "{text:?}"
    );
    assert!(
        text.contains(&"u0's main body takes 60 (70 less 10 armour), 140 left".to_string()),
        "{text:?}"
    );
    // A critical's doubling and a roll's halving are named (D20-3, D20-3D e).
    let e = Event::Damage {
        unit: 1,
        section: "main body".into(),
        damage: 240,
        left: 60,
        dealt: 260,
        armour: 20,
        why: "doubled for the critical".into(),
    };
    assert_eq!(
        e.to_string(),
        "u1's main body takes 240 (doubled for the critical: 260 less 20 armour), 60 left"
    );
}
