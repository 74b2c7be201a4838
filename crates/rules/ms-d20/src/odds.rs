//! Exact odds of an attack (D20-3, 3D, 8, 9, 10): every face of the strike die against
//! every face of the defence die, by the same rules the referee applies — a natural 1 or a
//! total of 4 or less misses; a natural 20 is a critical unless the defence is a natural 20;
//! dodge and parry meet or beat the strike, a roll must beat it.
//!
//! With a damage roll the odds also carry the damage the section takes as a distribution
//! (D20-4, D20-5M, D20-7), exact: the damage dice's sum from `battlemat_dice::Dist`, each
//! strike outcome's share of it put through the referee's own `damage_dealt`. The rejected
//! alternative, sampling the damage, would make the chart noisy and the `--check-sims`
//! comparison meaningless.

use crate::combat::MISS_AT_OR_BELOW;
use crate::combat::defence_succeeds;
use crate::combat::ruled_out_by_weapon;
use crate::damage::damage_dealt;
use crate::data::{Armour, Kind, Roll, Terrain, WeaponType};
use crate::modifiers::{Range, parse_kind, parse_terrain, target_type, terrain};
use crate::state::{Attack, Defence, MsD20, Phase, UnitId};
use battlemat_core::{MatchupRoll, Odds};
use std::collections::BTreeMap;

/// Which defence the odds assume.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Def {
    None,
    /// Dodge, leap dodge or parry: meet or beat.
    Meet,
    /// Roll with impact: beat (a success halves the damage: "defended").
    Beat,
}

/// P(miss), P(hit), P(critical), P(defended) for a strike of d20 + `bonus`.
pub fn strike_odds(bonus: i16, def: Def, def_bonus: i16) -> [f64; 4] {
    let mut n = [0u32; 4];
    for s in 1..=20i16 {
        let total = s + bonus;
        if s == 1 || total <= MISS_AT_OR_BELOW {
            n[0] += 20;
            continue;
        }
        for d in 1..=20i16 {
            let ok = match def {
                Def::None => false,
                _ if s == 20 => d == 20,
                Def::Meet => d + def_bonus >= total,
                Def::Beat => d + def_bonus > total,
            };
            if ok {
                n[3] += 1;
            } else if s == 20 {
                n[2] += 1;
            } else {
                n[1] += 1;
            }
        }
    }
    n.map(|k| k as f64 / 400.0)
}

/// The defence a matchup assumes, by what a success does to the damage (D20-3D).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Guard {
    None,
    /// Dodge or leap dodge: a success avoids the strike.
    Dodge,
    /// "Parry (taking damage to that section)": a success moves the damage, all of it, onto
    /// the parrying section (taken here with the same armour).
    Parry,
    /// Roll with impact: a success halves the damage.
    Roll,
}

impl Guard {
    fn def(self) -> Def {
        match self {
            Guard::None => Def::None,
            Guard::Dodge | Guard::Parry => Def::Meet,
            Guard::Roll => Def::Beat,
        }
    }
}

/// What a hit does (`--damage`, `--weapon-type`, `--armour`): the damage roll and what
/// changes it on the way to the section.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Wound {
    /// The damage roll (NdS × M + K), or `None` for a hand attack of a fixed amount.
    roll: Option<Roll>,
    /// A hand attack's damage (D20-7: strength − 20), when `roll` is `None`.
    fixed: u32,
    /// D20-5M: melee against a large vehicle or mobile armor does double damage.
    melee_on_large: bool,
    /// D20-4: the section's armour, taken off after doubling and halving.
    armour: u32,
}

impl Wound {
    /// The raw roll's distribution as (value, probability).
    pub(crate) fn raw(&self) -> Vec<(u32, f64)> {
        self.raw_after(self.roll.map_or(0, |r| r.dice), 0)
    }

    /// The damage the section takes, given the strike's chances `[miss, hit, critical,
    /// defended]` against `guard`, as the odds' `damage` distribution and its mean. A
    /// defended critical is a natural 20 against a natural 20, which also takes the critical
    /// away (D20-3D); the other defended strikes were never critical.
    fn add_to(
        &self,
        [miss, hit, crit, defended]: [f64; 4],
        guard: Guard,
        details: &mut BTreeMap<String, serde_json::Value>,
        distributions: &mut BTreeMap<String, BTreeMap<i64, f64>>,
    ) {
        let mut dist: BTreeMap<i64, f64> = BTreeMap::new();
        *dist.entry(0).or_default() += miss;
        for (raw, p) in self.raw() {
            *dist
                .entry(i64::from(self.taken(raw, false, false)))
                .or_default() += hit * p;
            *dist
                .entry(i64::from(self.taken(raw, true, false)))
                .or_default() += crit * p;
            let on_defence = match guard {
                Guard::None | Guard::Dodge => 0,
                Guard::Parry => self.taken(raw, false, false),
                Guard::Roll => self.taken(raw, false, true),
            };
            *dist.entry(i64::from(on_defence)).or_default() += defended * p;
        }
        dist.retain(|_, p| *p > 0.0);
        let mean = Odds::mean(&dist);
        details.insert(
            "damage_mean".into(),
            ((mean * 1000.0).round() / 1000.0).into(),
        );
        distributions.insert("damage".to_string(), dist);
    }

    /// The raw roll's distribution once `sum` is rolled and `left` dice are still to roll
    /// (D20-3H c: the damage dice one at a time).
    pub(crate) fn raw_after(&self, left: u8, sum: u32) -> Vec<(u32, f64)> {
        match self.roll {
            None => vec![(self.fixed, 1.0)],
            Some(r) if left == 0 => vec![(r.damage(sum), 1.0)],
            Some(r) => battlemat_dice::Dist::die(u32::from(r.sides))
                .repeat_sum(u32::from(left))
                .iter()
                .map(|(rest, p)| (r.damage(sum + rest as u32), p))
                .collect(),
        }
    }

    /// What the section takes from a raw roll: the referee's own arithmetic.
    pub(crate) fn taken(&self, raw: u32, critical: bool, halved: bool) -> u32 {
        damage_dealt(raw, critical, self.melee_on_large, halved).saturating_sub(self.armour)
    }
}

pub fn matchup(params: &BTreeMap<String, String>) -> Result<Odds, String> {
    let m = parse(params)?;
    let [miss, hit, crit, defended] = strike_odds(m.bonus, m.guard.def(), m.guard_bonus);
    let mut outcomes = BTreeMap::new();
    outcomes.insert("miss".to_string(), miss);
    outcomes.insert("hit".to_string(), hit);
    outcomes.insert("critical".to_string(), crit);
    outcomes.insert("defended".to_string(), defended);
    let mut distributions = BTreeMap::new();
    let mut details = m.details;
    if let Some(w) = m.wound {
        w.add_to(
            [miss, hit, crit, defended],
            m.guard,
            &mut details,
            &mut distributions,
        );
        if m.guard != Guard::None {
            // What the defence saves: the mean damage against no defence, less the mean
            // against this one (D20-3D: the defence's own odds, as the game offers it).
            let (mut plain, mut scratch) = (BTreeMap::new(), BTreeMap::new());
            w.add_to(
                strike_odds(m.bonus, Def::None, 0),
                Guard::None,
                &mut plain,
                &mut scratch,
            );
            let undefended = plain["damage_mean"].as_f64().unwrap_or(0.0);
            let defended_mean = details["damage_mean"].as_f64().unwrap_or(0.0);
            let r3 = |x: f64| (x * 1000.0).round() / 1000.0;
            details.insert("damage_undefended_mean".into(), undefended.into());
            details.insert(
                "damage_saved_mean".into(),
                r3(undefended - defended_mean).into(),
            );
        }
    }
    Ok(Odds {
        outcomes,
        details,
        distributions,
    })
}

/// One strike of the matchup: the strike die and, if it lands and the target defends, the
/// defence die, decided by the referee's own `strike_misses` and `defence_succeeds`; then,
/// with `--damage`, the damage dice one at a time, as the referee rolls them.
pub fn sample(
    params: &BTreeMap<String, String>,
    roller: &mut battlemat_dice::Roller,
) -> Result<MatchupRoll, String> {
    let m = parse(params)?;
    let s = roller.roll(20) as u8;
    let total = i16::from(s) + m.bonus;
    let mut critical = s == 20;
    let outcome = if crate::combat::strike_misses(s, total) {
        "miss"
    } else {
        let defended = m.guard != Guard::None && {
            let d = roller.roll(20) as u8;
            let ok = crate::combat::defence_succeeds(
                critical,
                m.guard == Guard::Roll,
                d,
                i16::from(d) + m.guard_bonus,
                total,
            );
            if critical && d == 20 {
                critical = false;
            }
            ok
        };
        match (defended, critical) {
            (true, _) => "defended",
            (false, true) => "critical",
            (false, false) => "hit",
        }
    };
    let mut values = BTreeMap::new();
    if let Some(w) = m.wound {
        let lands = match outcome {
            "miss" => false,
            "defended" => m.guard != Guard::Dodge,
            _ => true,
        };
        let damage = if lands {
            let raw = match w.roll {
                None => w.fixed,
                Some(r) => {
                    let sum: u32 = (0..r.dice).map(|_| roller.roll(u32::from(r.sides))).sum();
                    r.damage(sum)
                }
            };
            w.taken(
                raw,
                critical,
                outcome == "defended" && m.guard == Guard::Roll,
            )
        } else {
            0
        };
        values.insert("damage".to_string(), i64::from(damage));
    }
    Ok(MatchupRoll {
        outcome: outcome.into(),
        values,
    })
}

/// A matchup read from its parameters.
struct Matchup {
    /// The strike's total modifier.
    bonus: i16,
    guard: Guard,
    guard_bonus: i16,
    wound: Option<Wound>,
    details: BTreeMap<String, serde_json::Value>,
}

const USAGE: &str = "--strike-bonus B [--range short|mid|long] [--attacker-kind K] [--target-kind K] [--terrain ATTACKER-TARGET] [--defence none|dodge|parry|roll] [--defence-bonus B] [--damage NdSxM+K|N] [--weapon-type beam|blade|explosive|melee|projectile] [--armour steel|titanium|composite|luna_titanium]";

fn parse(params: &BTreeMap<String, String>) -> Result<Matchup, String> {
    for k in params.keys() {
        if !matches!(
            k.as_str(),
            "strike-bonus"
                | "strike_bonus"
                | "range"
                | "attacker-kind"
                | "attacker_kind"
                | "target-kind"
                | "target_kind"
                | "terrain"
                | "defence"
                | "defense"
                | "defence-bonus"
                | "defence_bonus"
                | "defense-bonus"
                | "damage"
                | "weapon-type"
                | "weapon_type"
                | "armour"
                | "armor"
                | "json"
        ) {
            return Err(format!("--{k} is not an option of ms-d20 odds: {USAGE}"));
        }
    }
    let get = |a: &str, b: &str| params.get(a).or_else(|| params.get(b));
    let int = |k: &str, v: Option<&String>| -> Result<i16, String> {
        v.map_or(Ok(0), |v| {
            v.trim()
                .parse()
                .map_err(|_| format!("--{k}: {v:?} is not a whole number"))
        })
    };
    let bonus = int("strike-bonus", get("strike-bonus", "strike_bonus"))?;
    let range = match params.get("range") {
        None => Range::Short,
        Some(r) => Range::parse(r).ok_or(format!("--range: {r:?} is short, mid or long"))?,
    };
    let kind = |k: &str, v: Option<&String>| -> Result<Kind, String> {
        v.map_or(Ok(Kind::MobileUnit), |v| {
            parse_kind(v).ok_or(format!(
                "--{k}: {v:?} is person, vehicle, mobile_unit, large_vehicle or mobile_armor"
            ))
        })
    };
    let ak = kind("attacker-kind", get("attacker-kind", "attacker_kind"))?;
    let tk = kind("target-kind", get("target-kind", "target_kind"))?;
    let (ta, tt) = match params.get("terrain") {
        None => (Terrain::Ground, Terrain::Ground),
        Some(t) => parse_terrain(t).ok_or(format!(
            "--terrain: {t:?} is the attacker's and the target's place, e.g. ground-airborne (ground, airborne, space, space_surface, submerged)"
        ))?,
    };
    let guard = match get("defence", "defense")
        .map(|s| s.to_ascii_lowercase())
        .as_deref()
    {
        None | Some("none") => Guard::None,
        Some("dodge") | Some("leap") => Guard::Dodge,
        Some("parry") => Guard::Parry,
        Some("roll") => Guard::Roll,
        Some(x) => return Err(format!("--defence: {x:?} is none, dodge, parry or roll")),
    };
    let guard_bonus = int(
        "defence-bonus",
        get("defence-bonus", "defence_bonus").or(params.get("defense-bonus")),
    )?;
    let total_bonus = bonus + range.strike() + target_type(ak, tk) + terrain(ta, tt);
    let mut details = BTreeMap::new();
    details.insert("strike_modifier".into(), total_bonus.into());
    details.insert("range".into(), range.strike().into());
    details.insert("target_type".into(), target_type(ak, tk).into());
    details.insert("terrain".into(), terrain(ta, tt).into());
    // A name in the data files' words (`luna_titanium`, `mobile_armor`).
    fn named<T: serde::de::DeserializeOwned>(v: &str) -> Option<T> {
        serde_json::from_value(serde_json::Value::String(v.trim().to_ascii_lowercase())).ok()
    }
    let weapon_type = get("weapon-type", "weapon_type")
        .map(|v| {
            named::<WeaponType>(v).ok_or(format!(
                "--weapon-type: {v:?} is beam, blade, explosive, melee or projectile"
            ))
        })
        .transpose()?;
    // The odds refuse what the referee refuses, in its words and with its rule id.
    let defence = match guard {
        Guard::Roll => Some(Defence::Roll),
        Guard::Parry => Some(Defence::Parry(0)),
        Guard::None | Guard::Dodge => None,
    };
    if let Some(why) = defence
        .zip(weapon_type)
        .and_then(|(d, w)| ruled_out_by_weapon(d, w))
    {
        return Err(format!("--defence: {}", why.explain()));
    }
    let armour = get("armour", "armor")
        .map(|v| {
            named::<Armour>(v).ok_or(format!(
                "--armour: {v:?} is steel, titanium, composite or luna_titanium"
            ))
        })
        .transpose()?;
    let wound = match params.get("damage") {
        None => {
            if weapon_type.is_some() || armour.is_some() {
                return Err(
                    "--weapon-type and --armour change the damage: give the damage roll too (--damage 2d6x10)".into(),
                );
            }
            None
        }
        Some(v) => {
            let (roll, fixed) = match v.trim().parse::<u32>() {
                Ok(n) if n <= 100_000 => (None, n),
                Ok(_) => return Err(format!("--damage {v:?}: at most 100000")),
                Err(_) => (
                    Some(Roll::parse(v).map_err(|e| format!("--damage {e}"))?),
                    0,
                ),
            };
            let melee_on_large = weapon_type == Some(WeaponType::Melee) && tk.is_large();
            let armour = armour.unwrap_or(Armour::Steel);
            details.insert("damage_roll".into(), v.trim().into());
            details.insert("armour_reduction".into(), armour.reduction().into());
            if melee_on_large {
                details.insert("melee_on_large".into(), "double damage".into());
            }
            Some(Wound {
                roll,
                fixed,
                melee_on_large,
                armour: armour.reduction(),
            })
        }
    };
    Ok(Matchup {
        bonus: total_bonus,
        guard,
        guard_bonus,
        wound,
        details,
    })
}

impl MsD20 {
    /// What a hit of `attacker`'s weapon does to `target`'s `section`: the weapon's damage
    /// roll (or hand damage, D20-7), doubled for melee on a large target (D20-5M), less the
    /// section's armour (D20-4).
    pub(crate) fn wound(&self, attacker: UnitId, weapon: u8, target: UnitId, section: u8) -> Wound {
        let w = &self.data(attacker).weapons[weapon as usize];
        Wound {
            roll: self.fixed.rolls[self.unit(attacker).kind as usize][weapon as usize],
            fixed: self.data(attacker).strength.saturating_sub(20),
            melee_on_large: w.kind == WeaponType::Melee && self.data(target).kind.is_large(),
            armour: self.data(target).sections[section as usize]
                .armour
                .reduction(),
        }
    }

    /// The chance that defence `d` succeeds against the strike rolled (D20-3D), by the
    /// referee's own `defence_succeeds` over the twenty faces of the defence die.
    pub(crate) fn defence_chance(&self, attack: &Attack, d: Defence) -> f64 {
        if d == Defence::Take {
            return 0.0;
        }
        let bonus = self.defence_bonus(attack.target, d);
        let ok = (1..=20u8)
            .filter(|&face| {
                defence_succeeds(
                    attack.critical,
                    d == Defence::Roll,
                    face,
                    face as i16 + bonus,
                    attack.total,
                )
            })
            .count();
        ok as f64 / 20.0
    }

    /// D20-3D e, D20-3H a: what a roll with impact saves — the damage the section hit
    /// takes if the roll fails (a critical stays double) and if it succeeds (halved; against
    /// a critical only a natural 20 succeeds, and it takes the critical away), each after
    /// armour; the damage as a distribution over both, and the damage the roll saves (0 when
    /// it fails) as a distribution and its mean.
    fn roll_saves(
        &self,
        attack: &crate::state::Attack,
        p_ok: f64,
        details: &mut BTreeMap<String, serde_json::Value>,
        distributions: &mut BTreeMap<String, BTreeMap<i64, f64>>,
    ) {
        let wound = self.wound(attack.attacker, attack.weapon, attack.target, attack.onto);
        let (mut full, mut half) = (0.0, 0.0);
        let mut dist: BTreeMap<i64, f64> = BTreeMap::new();
        let mut saved: BTreeMap<i64, f64> = BTreeMap::new();
        for (raw, p) in wound.raw() {
            let f = wound.taken(raw, attack.critical, false);
            let h = wound.taken(raw, false, true);
            full += p * f64::from(f);
            half += p * f64::from(h);
            *dist.entry(i64::from(f)).or_default() += p * (1.0 - p_ok);
            *dist.entry(i64::from(h)).or_default() += p * p_ok;
            *saved.entry(0).or_default() += p * (1.0 - p_ok);
            *saved.entry(i64::from(f) - i64::from(h)).or_default() += p * p_ok;
        }
        dist.retain(|_, p| *p > 0.0);
        saved.retain(|_, p| *p > 0.0);
        distributions.insert("damage_saved".to_string(), saved);
        let r3 = |x: f64| (x * 1000.0).round() / 1000.0;
        details.insert("damage_if_hit_mean".into(), r3(full).into());
        details.insert("damage_if_rolled_mean".into(), r3(half).into());
        details.insert("damage_saved_mean".into(), r3(p_ok * (full - half)).into());
        details.insert("damage_mean".into(), r3(Odds::mean(&dist)).into());
        distributions.insert("damage".to_string(), dist);
    }

    /// Odds before an attack (its strike against the target's best listed defence is not
    /// known yet: shown undefended) and before a defence (against the strike rolled).
    pub fn action_odds(&self, a: &crate::events::Action) -> Option<Odds> {
        use crate::events::Action;
        match (a, &self.now.phase) {
            (
                Action::Attack {
                    target,
                    weapon,
                    at,
                    insight,
                },
                Phase::Turn { unit, .. },
            ) if self.plan(a).is_ok() => {
                let b = self.strike_bonus(*unit, *weapon, *target, *at, *insight)?;
                let [miss, hit, crit, _] = strike_odds(b, Def::None, 0);
                let mut outcomes = BTreeMap::new();
                outcomes.insert("miss".to_string(), miss);
                outcomes.insert("hit".to_string(), hit);
                outcomes.insert("critical".to_string(), crit);
                let mut details = BTreeMap::new();
                details.insert("strike_modifier".into(), b.into());
                // The damage the section aimed at takes if the strike lands undefended (the
                // weapon, the target and its section are known; saves come after).
                let section = at.unwrap_or_else(|| self.main_section(*target));
                let wound = self.wound(*unit, *weapon, *target, section);
                let mut distributions = BTreeMap::new();
                wound.add_to(
                    [miss, hit, crit, 0.0],
                    Guard::None,
                    &mut details,
                    &mut distributions,
                );
                Some(Odds {
                    outcomes,
                    details,
                    distributions,
                })
            }
            (
                Action::Dodge | Action::Leap | Action::Parry { .. } | Action::Roll,
                Phase::Defend { attack },
            )
            | (Action::Roll, Phase::MayRoll { attack })
                if self.plan(a).is_ok() =>
            {
                // The defence as the judge reads the action.
                let Ok(crate::legal::Plan::Defend(d)) = self.plan(a) else {
                    return None;
                };
                let p_ok = self.defence_chance(attack, d);
                let mut outcomes = BTreeMap::new();
                outcomes.insert("defended".to_string(), p_ok);
                outcomes.insert("hit".to_string(), 1.0 - p_ok);
                let mut details = BTreeMap::new();
                let mut distributions = BTreeMap::new();
                if *a == Action::Roll {
                    self.roll_saves(attack, p_ok, &mut details, &mut distributions);
                }
                Some(Odds {
                    outcomes,
                    details,
                    distributions,
                })
            }
            _ => None,
        }
    }
}
