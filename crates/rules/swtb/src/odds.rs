//! Exact odds of an attack or a power before it is made, from the same numbers the referee
//! uses (dice counts, fortified cells, thermal detonators, toughness, deflect, tie rule).
//!
//! The distributions come from `battlemat-dice`; the AI checks them independently by
//! weighing every chance point the referee would roll (see the crate tests).

use crate::data::{Contest, Options, Power, Ties};
use crate::state::{Action, AttackKind, Phase, Swtb, Terrain, UnitId};
use battlemat_core::Odds;
use battlemat_dice::Dist;
use std::collections::BTreeMap;

/// The distribution of one side's combat roll: `n` d6, totalled or best die (the `contest`
/// house rule); with thermal detonators each 6 brings one more d6, added (SWTB-O9).
pub fn roll_dist(n: u8, thermal: bool, contest: Contest) -> Dist {
    let n = n as u32;
    match (contest, thermal) {
        (Contest::Total, false) => Dist::die(6).repeat_sum(n),
        (Contest::Total, true) => Dist::exploding_die(6, 1).repeat_sum(n),
        (Contest::Highest, false) => Dist::die(6).keep_highest(n, 1),
        (Contest::Highest, true) => {
            // No six: the best of n dice showing 1-5. k sixes: 6 plus k extra dice.
            let mut w: BTreeMap<i64, f64> = BTreeMap::new();
            for k in 0..=n {
                let pk = binomial(n, k)
                    * (1.0f64 / 6.0).powi(k as i32)
                    * (5.0f64 / 6.0).powi((n - k) as i32);
                let d = if k == 0 {
                    Dist::die(5).keep_highest(n, 1)
                } else {
                    Dist::constant(6).add(&Dist::die(6).repeat_sum(k))
                };
                for (x, p) in d.iter() {
                    *w.entry(x).or_default() += pk * p;
                }
            }
            Dist::from_weights(w).unwrap_or_else(|_| Dist::constant(0))
        }
    }
}

fn binomial(n: u32, k: u32) -> f64 {
    (0..k).fold(1.0, |acc, i| acc * (n - i) as f64 / (i + 1) as f64)
}

/// Win / tie / lose for `att` attack dice against `def` defence dice.
pub fn contest(att: u8, thermal: bool, def: u8, o: &Options) -> (f64, f64, f64) {
    let a = roll_dist(att, thermal, o.contest);
    let d = roll_dist(def, false, o.contest);
    let r = a.versus(&d);
    match o.ties {
        Ties::Defender => (r.win, r.tie, r.lose),
        // Rolled again until someone wins: condition on not tying.
        Ties::Reroll => {
            let go = r.win + r.lose;
            (r.win / go, 0.0, r.lose / go)
        }
    }
}

fn put(out: &mut BTreeMap<String, f64>, k: &str, p: f64) {
    if p > 0.0 {
        *out.entry(k.to_string()).or_default() += p;
    }
}

impl Swtb {
    fn hit_name(&self, u: UnitId, who: &str) -> String {
        let unit = self.units[u as usize];
        if unit.hits + 1 >= self.toughness(u) {
            format!("{who}_eliminated")
        } else {
            format!("{who}_hit")
        }
    }

    /// The odds of an action, if it rolls dice (or could).
    pub fn action_odds(&self, a: &Action) -> Option<Odds> {
        if self.phase != Phase::Turn || self.check_action(a).is_err() {
            return None;
        }
        let o = self.options();
        let mut out = BTreeMap::new();
        let mut details = BTreeMap::new();
        match *a {
            Action::Attack { unit, target, .. }
            | Action::Fire {
                gun: unit, target, ..
            } => {
                let kind = match a {
                    Action::Fire { .. } => AttackKind::Shot,
                    _ => self.attack_kind(unit, target, &self.occupancy()).ok()?,
                };
                let at = self.ty(unit);
                let thermal = o.thermal_detonators && at.thermal_detonators;
                let mut def = self.ty(target).dice;
                let fortified = o.fortified
                    && self.cell_of(target).is_some_and(|c| {
                        self.fixed.terrain[self.fixed.grid.index(c)] == Terrain::Fortified
                    });
                if fortified {
                    def += 1;
                }
                let (win, tie, lose) = contest(at.attack_dice(), thermal, def, o);
                details.insert("attack_dice".into(), at.attack_dice().into());
                details.insert("defence_dice".into(), def.into());
                details.insert("thermal_detonators".into(), thermal.into());
                details.insert("fortified".into(), fortified.into());
                details.insert(
                    "kind".into(),
                    serde_json::to_value(kind).unwrap_or_default(),
                );
                let deflect = self.units[target as usize].power == Some(Power::DeflectBlasters)
                    && at.deflectable
                    && match (self.cell_of(unit), self.cell_of(target)) {
                        (Some(x), Some(y)) => self.fixed.grid.adjacent(x, y),
                        _ => false,
                    };
                put(&mut out, &self.hit_name(target, "defender"), win);
                match kind {
                    AttackKind::Dogfight => {
                        put(&mut out, &self.hit_name(unit, "attacker"), lose);
                        put(&mut out, "both_return", tie);
                    }
                    _ if deflect => {
                        put(&mut out, &self.hit_name(unit, "attacker"), lose);
                        put(&mut out, "nothing", tie);
                    }
                    _ => put(&mut out, "nothing", tie + lose),
                }
            }
            Action::Choke { target, .. } | Action::MindTrick { target, .. } => {
                let t = self.ty(target);
                let (need, name) = match a {
                    Action::Choke { .. } => (t.choked_on?, "defender_eliminated"),
                    _ => (t.mind_tricked_on?, "defender_joins"),
                };
                let p = (7 - need.clamp(1, 6)) as f64 / 6.0;
                put(&mut out, name, p);
                put(&mut out, "nothing", 1.0 - p);
            }
            Action::Revive { .. } => {
                put(&mut out, "revived", 2.0 / 6.0);
                put(&mut out, "nothing", 4.0 / 6.0);
            }
            _ => return None,
        }
        Some(Odds {
            outcomes: out,
            details,
        })
    }
}

/// `battlemat odds swtb --attacker UNIT --defender UNIT [--fortified] [--thermal-detonators]`
/// and any option (`--contest highest`, `--ties reroll`, `--tougher-everything`): the odds of
/// one attack between two unit types, from the built-in unit table.
pub fn matchup(params: &BTreeMap<String, String>) -> Result<Odds, String> {
    let cat = crate::data::Catalog::builtin();
    let get_type = |key: &str| -> Result<(String, crate::data::UnitType), String> {
        let k = params
            .get(key)
            .ok_or_else(|| format!("--{key} UNIT is required"))?;
        let norm = k.replace('-', "_").to_lowercase();
        let found = cat
            .unit_types
            .iter()
            .find(|(id, t)| **id == norm || t.name.to_lowercase() == k.to_lowercase());
        found.map(|(id, t)| (id.clone(), t.clone())).ok_or_else(|| {
            let ids: Vec<&str> = cat.unit_types.keys().map(|s| s.as_str()).collect();
            format!("--{key}: no unit type {k:?}; types are {}", ids.join(", "))
        })
    };
    let (a_id, a) = get_type("attacker")?;
    let (d_id, d) = get_type("defender")?;
    // The same attack rules the referee applies (see `Swtb::attack_rule`).
    if a.weapon == crate::data::Weapon::None {
        return Err(format!(
            "a {} may not attack, only defend (SWTB-U2)",
            a.name
        ));
    }
    if d.flies() && !a.flies() && !a.attacks_fliers {
        return Err(format!("a {} may not attack flying units (SWTB-6)", a.name));
    }
    if !d.flies() && !a.attacks_ground {
        return Err(format!("a {} fires only at flying units (SWTB-O8)", a.name));
    }
    let flag = |k: &str| params.get(k).is_some_and(|v| v == "true");
    let mut opts = BTreeMap::new();
    for (k, v) in params {
        let k = k.replace('-', "_");
        if !matches!(
            k.as_str(),
            "attacker" | "defender" | "fortified" | "thermal_detonators"
        ) {
            opts.insert(k, v.clone());
        }
    }
    let o = Options::from_pairs(&opts).map_err(|e| e.to_string())?;
    let thermal = flag("thermal-detonators") || flag("thermal_detonators");
    let thermal = thermal && a.thermal_detonators;
    let fortified = flag("fortified");
    let def = d.dice + u8::from(fortified);
    let (win, tie, lose) = contest(a.attack_dice(), thermal, def, &o);
    let mut out = BTreeMap::new();
    let flier_duel = a.flies() && d.flies();
    put(&mut out, "attacker_wins", win);
    put(&mut out, "defender_wins", lose);
    put(&mut out, "tie", tie);
    let mut details = BTreeMap::new();
    details.insert("attacker".into(), a_id.into());
    details.insert("defender".into(), d_id.into());
    details.insert("attack_dice".into(), a.attack_dice().into());
    details.insert("defence_dice".into(), def.into());
    details.insert("thermal_detonators".into(), thermal.into());
    details.insert("fortified".into(), fortified.into());
    let meaning = if flier_duel {
        "dogfight: the loser is eliminated, a tie sends both back to the line"
    } else {
        "attacker wins: defender eliminated (or hit, if tougher); defender wins or tie: nothing happens"
    };
    details.insert("meaning".into(), meaning.into());
    Ok(Odds {
        outcomes: out,
        details,
    })
}
