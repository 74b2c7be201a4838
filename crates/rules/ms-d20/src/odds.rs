//! Exact odds of an attack (D20-3, 3D, 8, 9, 10): every face of the strike die against
//! every face of the defence die, by the same rules the referee applies — a natural 1 or a
//! total of 4 or less misses; a natural 20 is a critical unless the defence is a natural 20;
//! dodge and parry meet or beat the strike, a roll must beat it.

use crate::combat::MISS_AT_OR_BELOW;
use crate::data::{Kind, Terrain};
use crate::modifiers::{Range, parse_kind, parse_terrain, target_type, terrain};
use crate::state::{MsD20, Phase};
use battlemat_core::Odds;
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

pub fn matchup(params: &BTreeMap<String, String>) -> Result<Odds, String> {
    let (total_bonus, def, db, details) = parse(params)?;
    let [miss, hit, crit, defended] = strike_odds(total_bonus, def, db);
    let mut outcomes = BTreeMap::new();
    outcomes.insert("miss".to_string(), miss);
    outcomes.insert("hit".to_string(), hit);
    outcomes.insert("critical".to_string(), crit);
    outcomes.insert("defended".to_string(), defended);
    Ok(Odds { outcomes, details })
}

/// One strike of the matchup: the strike die and, if it lands and the target defends, the
/// defence die, decided by the referee's own `strike_misses` and `defence_succeeds`.
pub fn sample(
    params: &BTreeMap<String, String>,
    roller: &mut battlemat_dice::Roller,
) -> Result<String, String> {
    let (bonus, def, db, _) = parse(params)?;
    let s = roller.roll(20) as u8;
    let total = i16::from(s) + bonus;
    if crate::combat::strike_misses(s, total) {
        return Ok("miss".into());
    }
    let critical = s == 20;
    let defended = def != Def::None && {
        let d = roller.roll(20) as u8;
        crate::combat::defence_succeeds(critical, def == Def::Beat, d, i16::from(d) + db, total)
    };
    Ok(match (defended, critical) {
        (true, _) => "defended",
        (false, true) => "critical",
        (false, false) => "hit",
    }
    .into())
}

/// A matchup's parameters: the strike's total modifier, the defence, its bonus, and the
/// details shown.
#[allow(clippy::type_complexity)]
fn parse(
    params: &BTreeMap<String, String>,
) -> Result<(i16, Def, i16, BTreeMap<String, serde_json::Value>), String> {
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
                | "json"
        ) {
            return Err(format!(
                "--{k} is not an option of ms-d20 odds: --strike-bonus B [--range short|mid|long] [--attacker-kind K] [--target-kind K] [--terrain ATTACKER-TARGET] [--defence none|dodge|parry|roll] [--defence-bonus B]"
            ));
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
    let def = match get("defence", "defense")
        .map(|s| s.to_ascii_lowercase())
        .as_deref()
    {
        None | Some("none") => Def::None,
        Some("dodge") | Some("parry") | Some("leap") => Def::Meet,
        Some("roll") => Def::Beat,
        Some(x) => return Err(format!("--defence: {x:?} is none, dodge, parry or roll")),
    };
    let db = int(
        "defence-bonus",
        get("defence-bonus", "defence_bonus").or(params.get("defense-bonus")),
    )?;
    let total_bonus = bonus + range.strike() + target_type(ak, tk) + terrain(ta, tt);
    let mut details = BTreeMap::new();
    details.insert("strike_modifier".into(), total_bonus.into());
    details.insert("range".into(), range.strike().into());
    details.insert("target_type".into(), target_type(ak, tk).into());
    details.insert("terrain".into(), terrain(ta, tt).into());
    Ok((total_bonus, def, db, details))
}

impl MsD20 {
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
                Some(Odds { outcomes, details })
            }
            (
                Action::Dodge | Action::Leap | Action::Parry { .. } | Action::Roll,
                Phase::Defend { attack },
            ) if self.plan(a).is_ok() => {
                let p = &self.data(attack.target).pilot;
                let (bonus, beat) = match a {
                    Action::Dodge => (p.dodge, false),
                    Action::Leap => (p.leap_dodge, false),
                    Action::Parry { .. } => (p.parry, false),
                    _ => (p.roll, true),
                };
                let mut ok = 0;
                for d in 1..=20i16 {
                    let t = d + bonus as i16;
                    let win = if attack.critical {
                        d == 20
                    } else if beat {
                        t > attack.total
                    } else {
                        t >= attack.total
                    };
                    ok += win as u32;
                }
                let p_ok = ok as f64 / 20.0;
                let mut outcomes = BTreeMap::new();
                outcomes.insert("defended".to_string(), p_ok);
                outcomes.insert("hit".to_string(), 1.0 - p_ok);
                Some(Odds {
                    outcomes,
                    details: BTreeMap::new(),
                })
            }
            _ => None,
        }
    }
}
