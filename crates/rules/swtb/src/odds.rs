//! Exact odds of an attack or a power before it is made, from the same numbers the referee
//! uses (dice counts, fortified cells, thermal detonators, toughness, deflect, tie rule).
//!
//! The distributions come from `battlemat-dice`; the AI checks them independently by
//! weighing every chance point the referee would roll (see the crate tests).

use crate::data::{Contest, Options, Ties};
use crate::events::Action;
use crate::legal::Plan;
use crate::state::{AttackKind, Phase, Place, Swtb, UnitId};
use battlemat_core::{GameOptions, Odds};
use battlemat_dice::Dist;
use battlemat_geom::Cell;
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
        let unit = self.now.units[u as usize];
        if unit.hits + 1 >= self.toughness(u) {
            format!("{who}_eliminated")
        } else {
            format!("{who}_hit")
        }
    }

    /// The odds of an action, if it rolls dice (or could).
    pub fn action_odds(&self, a: &Action) -> Option<Odds> {
        if self.now.phase != Phase::Turn || battlemat_core::Game::check(self, a).is_err() {
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
                    _ => self.attack_kind(unit, target).ok()?,
                };
                let (att_dice, def, thermal) = self.attack_dice(unit, target);
                let fortified = self.fortified_defender(target);
                let (win, tie, lose) = contest(att_dice, thermal, def, o);
                details.insert("attack_dice".into(), att_dice.into());
                details.insert("defence_dice".into(), def.into());
                details.insert("thermal_detonators".into(), thermal.into());
                details.insert("fortified".into(), fortified.into());
                details.insert(
                    "kind".into(),
                    serde_json::to_value(kind).unwrap_or_default(),
                );
                let deflect = self.deflects(target, unit);
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
            ..Default::default()
        })
    }
}

/// `battlemat odds swtb --attacker UNIT --defender UNIT [--fortified] [--thermal-detonators]`
/// and any option (`--contest highest`, `--ties reroll`, `--tougher-everything`): the odds of
/// one attack between two unit types, from the built-in unit table.
///
/// The attack is judged by the referee itself, in a small game of the two units side by
/// side (a fixed gun with a trooper to crew it; a flier on its line, a flying defender on
/// the battlefield unless both fly): a refusal is the referee's own, rule id and all.
pub fn matchup(params: &BTreeMap<String, String>) -> Result<Odds, String> {
    let (g, action, a_id, d_id) = duel_of(params)?;
    matchup_of(&g, &action, a_id, d_id)
}

/// One roll of the matchup played by the referee: the attack made in the small game the
/// odds describe, every die a chance point rolled from `roller` (ties rolled again under
/// `ties = reroll`), the outcome read off the last comparison (SWTB-3).
pub fn sample(
    params: &BTreeMap<String, String>,
    roller: &mut battlemat_dice::Roller,
) -> Result<String, String> {
    use battlemat_core::{Game, Next};
    let (mut g, action, _, _) = duel_of(params)?;
    let mut ev = Vec::new();
    g.apply_action(&action, &mut ev)
        .map_err(|e| e.to_string())?;
    // A tie rolled again forever has probability zero; the bound only stops a bug.
    for _ in 0..100_000 {
        let Next::Chance(o) = g.next() else { break };
        g.apply_chance(o.roll(roller), &mut ev);
    }
    let last = ev.iter().rev().find_map(|e| match e {
        crate::events::Event::Compared {
            attack, defence, ..
        } => Some(attack.cmp(defence)),
        _ => None,
    });
    Ok(match last.ok_or("the attack compared no rolls")? {
        std::cmp::Ordering::Greater => "attacker_wins",
        std::cmp::Ordering::Less => "defender_wins",
        std::cmp::Ordering::Equal => "tie",
    }
    .to_string())
}

/// The small game and the attack a matchup's parameters describe, with the two unit types.
fn duel_of(params: &BTreeMap<String, String>) -> Result<(Swtb, Action, String, String), String> {
    let cat = crate::data::Catalog::builtin();
    let get_type = |key: &str| -> Result<String, String> {
        let k = params
            .get(key)
            .ok_or_else(|| format!("--{key} UNIT is required"))?;
        let norm = k.replace('-', "_").to_lowercase();
        let found = cat
            .unit_types
            .iter()
            .find(|(id, t)| **id == norm || t.name.to_lowercase() == k.to_lowercase());
        found.map(|(id, _)| id.clone()).ok_or_else(|| {
            let ids: Vec<&str> = cat.unit_types.keys().map(|s| s.as_str()).collect();
            format!("--{key}: no unit type {k:?}; types are {}", ids.join(", "))
        })
    };
    let a_id = get_type("attacker")?;
    let d_id = get_type("defender")?;
    let mut opts = BTreeMap::new();
    for (k, v) in params {
        let k = k.replace('-', "_");
        if !matches!(k.as_str(), "attacker" | "defender") {
            opts.insert(k, v.clone());
        }
    }
    let mut o = Options::from_pairs(&opts).map_err(|e| e.to_string())?;
    // Force powers change who may be chosen, and points what may be fielded, not the dice
    // of this attack; a gun named here is in play.
    o.force_powers = false;
    o.points = false;
    o.artillery = true;
    let (g, action) = duel(&a_id, &d_id, o)?;
    Ok((g, action, a_id, d_id))
}

fn matchup_of(g: &Swtb, action: &Action, a_id: String, d_id: String) -> Result<Odds, String> {
    let plan = g.plan(action).map_err(|w| g.explain(w).to_string())?;
    let (unit, target, kind) = match plan {
        Plan::Attack {
            unit, target, kind, ..
        } => (unit, target, kind),
        Plan::Fire { gun, target, .. } => (gun, target, AttackKind::Shot),
        _ => return Err("not an attack".into()),
    };
    let (att, def, thermal) = g.attack_dice(unit, target);
    let fortified = g.fortified_defender(target);
    let (win, tie, lose) = contest(att, thermal, def, g.options());
    let mut out = BTreeMap::new();
    let flier_duel = kind == AttackKind::Dogfight;
    put(&mut out, "attacker_wins", win);
    put(&mut out, "defender_wins", lose);
    put(&mut out, "tie", tie);
    let mut details = BTreeMap::new();
    details.insert("attacker".into(), a_id.into());
    details.insert("defender".into(), d_id.into());
    details.insert("attack_dice".into(), att.into());
    details.insert("defence_dice".into(), def.into());
    details.insert("thermal_detonators".into(), thermal.into());
    details.insert("fortified".into(), fortified.into());
    details.insert(
        "kind".into(),
        serde_json::to_value(kind).unwrap_or_default(),
    );
    let reroll = g.options().ties == crate::options::Ties::Reroll;
    let meaning = match (flier_duel, reroll) {
        (true, _) => "dogfight: the loser is eliminated, a tie sends both back to the line",
        (false, false) => {
            "attacker wins: defender eliminated (or hit, if tougher); defender wins or tie: nothing happens"
        }
        (false, true) => {
            "attacker wins: defender eliminated (or hit, if tougher); defender wins: nothing happens; a tie is rolled again until one side wins (the odds count the re-rolls)"
        }
    };
    details.insert("meaning".into(), meaning.into());
    Ok(Odds {
        outcomes: out,
        details,
        ..Default::default()
    })
}

/// A small game of attacker `a` (side 0, at `a2`, or on its line if it flies) and defender
/// `d` (side 1, at `b2`, fortified; or on its line if both fly), the attacker's turn; and
/// the attack to judge.
fn duel(a: &str, d: &str, options: Options) -> Result<(Swtb, Action), String> {
    let cat = crate::data::Catalog::builtin();
    let types = &cat.unit_types;
    let crew_kind = types
        .iter()
        .find(|(_, t)| t.crew)
        .map(|(k, _)| k.clone())
        .ok_or("the unit table has no type that crews a gun")?;
    let (at, dt) = (&types[a], &types[d]);
    // The attacker at a2 (its crew at a1), the defender at b2.
    let (a1, a2, b2) = (Cell::new(0, 0), Cell::new(0, 1), Cell::new(1, 1));
    let spec = |kind: &str, at: Option<Cell>| crate::data::UnitSpec {
        kind: kind.into(),
        name: types[kind].name.clone(),
        at,
        power: None,
    };
    let mut side0 = vec![spec(a, (!at.flies()).then_some(a2))];
    if at.crewed {
        side0.push(spec(&crew_kind, Some(a1)));
    }
    // The defender comes after side 0's units.
    let def = side0.len() as UnitId;
    let side = |name: &str, alignment, units| crate::data::SideSpec {
        name: name.into(),
        alignment,
        units,
    };
    let scenario = crate::data::Scenario {
        id: "matchup".into(),
        name: "Matchup".into(),
        summary: String::new(),
        ours: true,
        min_seats: 2,
        max_seats: 2,
        width: 5,
        height: 3,
        max_rounds: 1,
        points: 0,
        walls: vec![],
        hills: vec![],
        fortified: vec![b2],
        goal: None,
        sides: vec![
            side("Attacker", crate::data::Alignment::Light, side0),
            side(
                "Defender",
                crate::data::Alignment::Dark,
                vec![spec(d, (!dt.flies()).then_some(b2))],
            ),
        ],
    };
    let setup = crate::data::Setup {
        unit_types: types.clone(),
        scenario,
        options,
        seating: None,
    };
    let mut g = Swtb::new(&setup).map_err(|e| e.to_string())?;
    // A flier defends on the battlefield against a ground attacker (it can be reached
    // there, SWTB-6), on its line against another flier (a dogfight, SWTB-F3).
    if dt.flies() && !at.flies() {
        g.now.units[def as usize].place = Place::Field(b2);
    }
    g.now.phase = Phase::Turn;
    g.now.active = 0;
    g.now.seat = 0;
    let action = if at.crewed {
        Action::Fire {
            gun: 0,
            target: def,
            crew: 1,
        }
    } else {
        let land = if at.flies() && !dt.flies() {
            g.landing_cells(0, def, &g.occupancy()).first().copied()
        } else {
            None
        };
        Action::Attack {
            unit: 0,
            target: def,
            land,
        }
    };
    Ok((g, action))
}
