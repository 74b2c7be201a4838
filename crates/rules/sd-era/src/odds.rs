//! Exact odds of an opposed roll: win, tie and lose, and the whole knockback distribution in
//! sticks, with the letters applied — CHEAP's die off defence, MELEE's die and its lost
//! attack as a tie, ARTILLERY ignoring range, and VETERAN's re-roll played as well as
//! possible by both sides (each picks the re-roll that is best for it, the attacker first,
//! as the game asks them).
//!
//! The enumeration is over face *counts* (a multiset of dice with its multinomial weight),
//! so ten dice are 3,003 pools, not 60 million sequences. Numbers come from the referee's
//! own functions ([`SdEra::contest`], the dice counts of the judge).

use crate::data::{Contest, Options, Special};
use crate::events::{Action, Winner};
use crate::legal::Plan;
use crate::state::{Pool, SdEra, Striker};
use battlemat_core::Odds;
use std::collections::BTreeMap;

/// What one side of a roll brings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Side {
    pub dice: u8,
    pub veteran: bool,
}

/// A fight to enumerate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Duel {
    pub att: Side,
    pub def: Side,
    pub melee: bool,
    /// MELEE attacker: a lost melee attack is a tie.
    pub att_melee_special: bool,
    pub contest: Contest,
}

/// Outcome of one roll: (winner, overkill), decided by the referee's own function.
fn judge(contest: Contest, a: &Pool, d: &Pool, duel: &Duel) -> (Winner, u8) {
    crate::combat::opposed(contest, a, d, duel.melee && duel.att_melee_special)
}

/// The knockback in sticks an outcome does: positive to the defender, negative to the
/// attacker (a melee defender's overkill: 1 stick at most).
fn knockback(duel: &Duel, w: Winner, ok: u8) -> i32 {
    match w {
        Winner::Attacker => 1 + i32::from(ok),
        Winner::Defender if duel.melee && ok > 0 => -1,
        _ => 0,
    }
}

/// A pool with every die rolled, showing these faces.
fn rolled_pool(faces: [u8; 6]) -> Pool {
    let n = faces.iter().sum();
    Pool {
        dice: n,
        rolled: n,
        faces,
        rerolled: false,
        cheered: false,
    }
}

/// Every multiset of `n` dice with its weight (the number of sequences giving it).
fn pools(n: u8) -> Vec<(Pool, u64)> {
    let mut out = Vec::new();
    let fact = |k: u64| (1..=k).product::<u64>().max(1);
    fn rec(face: usize, left: u8, cur: &mut [u8; 6], out: &mut Vec<[u8; 6]>) {
        if face == 5 {
            cur[5] = left;
            out.push(*cur);
            return;
        }
        for k in 0..=left {
            cur[face] = k;
            rec(face + 1, left - k, cur, out);
        }
    }
    let mut all = Vec::new();
    rec(0, n, &mut [0; 6], &mut all);
    for faces in all {
        let w = fact(u64::from(n)) / faces.iter().map(|&k| fact(u64::from(k))).product::<u64>();
        out.push((rolled_pool(faces), w));
    }
    out
}

/// A distribution over outcomes: (who won: 1 the attacker, 0 a tie, -1 the defender; the
/// knockback in sticks, negative when the attacker is knocked back).
type Dist = BTreeMap<(i8, i32), f64>;

/// The expected knockback: what each side's VETERAN re-roll plays for (the attacker more,
/// the defender less).
fn expect(d: &Dist) -> f64 {
    d.iter().map(|((_, k), p)| f64::from(*k) * p).sum()
}

/// The outcome distribution from rolled pools, with re-rolls still to choose: the
/// attacker's first (it plays for the most knockback), then the defender's (the least),
/// each keeping the dice or re-rolling one die of a face it shows.
fn after_rolls(duel: &Duel, a: Pool, d: Pool, att_left: bool, def_left: bool) -> Dist {
    if !att_left && !def_left {
        let (w, ok) = judge(duel.contest, &a, &d, duel);
        let class = match w {
            Winner::Attacker => 1,
            Winner::Tie => 0,
            Winner::Defender => -1,
        };
        let mut out = Dist::new();
        out.insert((class, knockback(duel, w, ok)), 1.0);
        return out;
    }
    reroll_choice(duel, a, d, att_left, def_left).1
}

/// A VETERAN's choice (the attacker's when `attacker`, else the defender's): the face to
/// re-roll (`None`: keep the dice) and the distribution it leads to; the attacker plays for
/// the most expected knockback, the defender for the least. `def_left`: the defender's
/// re-roll is still to come after the attacker's.
fn reroll_choice(
    duel: &Duel,
    a: Pool,
    d: Pool,
    attacker: bool,
    def_left: bool,
) -> (Option<u8>, Dist) {
    let next = |a: Pool, d: Pool| after_rolls(duel, a, d, false, attacker && def_left);
    let mut best = (None, next(a, d));
    let mut best_e = expect(&best.1);
    let pool = if attacker { a } else { d };
    for f in 1..=6u8 {
        if pool.faces[f as usize - 1] == 0 {
            continue;
        }
        let mut dist = Dist::new();
        for g in 1..=6u8 {
            let mut p = pool;
            p.faces[f as usize - 1] -= 1;
            p.faces[g as usize - 1] += 1;
            let (a2, d2) = if attacker { (p, d) } else { (a, p) };
            for (k, q) in next(a2, d2) {
                *dist.entry(k).or_default() += q / 6.0;
            }
        }
        let e = expect(&dist);
        if (attacker && e > best_e + 1e-12) || (!attacker && e < best_e - 1e-12) {
            best = (Some(f), dist);
            best_e = e;
        }
    }
    best
}

/// The exact distribution of outcomes and knockback.
pub fn duel_distribution(duel: &Duel) -> Dist {
    let pa = pools(duel.att.dice);
    let pd = pools(duel.def.dice);
    let ta = 6f64.powi(i32::from(duel.att.dice));
    let td = 6f64.powi(i32::from(duel.def.dice));
    let mut out = Dist::new();
    for (a, wa) in &pa {
        for (d, wd) in &pd {
            let p = (*wa as f64 / ta) * (*wd as f64 / td);
            for (k, q) in after_rolls(
                duel,
                *a,
                *d,
                duel.att.veteran && a.dice > 0,
                duel.def.veteran && d.dice > 0,
            ) {
                *out.entry(k).or_default() += p * q;
            }
        }
    }
    out
}

/// Odds in the API's shape: each winning knockback distance, the tie, the loss (and, in
/// melee, the loss with the attacker knocked back); details add up win, tie and lose
/// (`win_chance`, `tie_chance`, `lose_chance`: chances, named `_chance` so the text odds print
/// them as percentages), and the chance the defender is stunned (`stun_chance`): a win whose knockback of `k` sticks `stuns(k)`
/// (SDE-KB2, SDE-KB3: it runs into terrain, an edge or a unit). `summary` says it in a
/// player's words: the whole chance to win first. `stuns` says which knockbacks stun the
/// defender.
pub fn odds_with(duel: &Duel, stuns: &dyn Fn(i32) -> bool) -> Odds {
    let dist = duel_distribution(duel);
    let mut outcomes = BTreeMap::new();
    let (mut win, mut tie, mut lose, mut expected, mut stunned) = (0.0, 0.0, 0.0, 0.0, 0.0);
    for (&(class, k), &p) in &dist {
        match class {
            1 => {
                win += p;
                expected += f64::from(k) * p;
                if stuns(k) {
                    stunned += p;
                }
            }
            0 => tie += p,
            _ => lose += p,
        }
        *outcomes.entry(outcome_name(class, k)).or_insert(0.0) += p;
    }
    let mut details = BTreeMap::new();
    details.insert("attack_dice".into(), serde_json::json!(duel.att.dice));
    details.insert("defence_dice".into(), serde_json::json!(duel.def.dice));
    details.insert("win_chance".into(), serde_json::json!(win));
    details.insert("tie_chance".into(), serde_json::json!(tie));
    details.insert("lose_chance".into(), serde_json::json!(lose));
    details.insert("stun_chance".into(), serde_json::json!(stunned));
    details.insert("melee".into(), serde_json::json!(duel.melee));
    details.insert("expected_knockback".into(), serde_json::json!(expected));
    details.insert(
        "summary".into(),
        serde_json::json!(summary(win, stunned, tie, lose)),
    );
    Odds {
        outcomes,
        details,
        ..Default::default()
    }
}

/// "win 58.3% (stunned 12.0%), tie 14.0%, lose 27.7%".
fn summary(win: f64, stunned: f64, tie: f64, lose: f64) -> String {
    format!(
        "win {:.1}% (stunned {:.1}%), tie {:.1}%, lose {:.1}%",
        100.0 * win,
        100.0 * stunned,
        100.0 * tie,
        100.0 * lose
    )
}

/// `VALUE[LETTER]`, e.g. `4V`, `2C`, `3`.
fn parse_unit(s: &str) -> Result<(u8, Option<Special>), String> {
    let s = s.trim();
    let digits: String = s.chars().take_while(|c| c.is_ascii_digit()).collect();
    let value: u8 = digits
        .parse()
        .map_err(|_| format!("{s:?}: write a value and maybe a letter, like 4V or 2C"))?;
    let rest = &s[digits.len()..];
    let special = match rest.chars().collect::<Vec<_>>().as_slice() {
        [] => None,
        [c] => Some(
            Special::from_letter(*c)
                .ok_or_else(|| format!("{s:?}: {c} is not a special letter (A B C F H M S T V)"))?,
        ),
        _ => return Err(format!("{s:?}: one letter at most")),
    };
    if !(1..=6).contains(&value) {
        return Err(format!("{s:?}: a value is 1 to 6"));
    }
    Ok((value, special))
}

/// `battlemat odds sd-era --attacker 4V --defender 3C [--range STICKS] [--melee]
/// [--contest sum] [--artillery extra_die] [--behind STICKS]`: `--behind` is how far behind
/// the defender (edge to edge, along the knockback) terrain, a board edge or another unit
/// stands; a knockback that reaches it stuns (SDE-KB2, SDE-KB3). Without it, open ground:
/// nothing is stunned.
pub fn matchup(params: &BTreeMap<String, String>) -> Result<Odds, String> {
    let duel = duel_of(params)?;
    let behind: Option<f64> = match params.get("behind") {
        None => None,
        Some(b) => {
            let v: f64 = b
                .parse()
                .map_err(|_| format!("--behind {b:?}: a distance in sticks"))?;
            if !(0.0..=40.0).contains(&v) {
                return Err(format!("--behind {b}: 0 to 40 sticks"));
            }
            Some(v)
        }
    };
    Ok(odds_with(&duel, &|k| {
        behind.is_some_and(|b| f64::from(k) >= b - 1e-9)
    }))
}

/// One roll of the matchup, die by die: each side's dice rolled, a VETERAN's re-roll chosen
/// as the odds assume (the attacker's first, for the most knockback, then the defender's,
/// for the least) and rolled, then decided by the referee's own [`crate::combat::opposed`].
pub fn sample(
    params: &BTreeMap<String, String>,
    roller: &mut battlemat_dice::Roller,
) -> Result<String, String> {
    let duel = duel_of(params)?;
    let roll = |n: u8, r: &mut battlemat_dice::Roller| {
        let mut faces = [0u8; 6];
        for _ in 0..n {
            faces[r.roll(6) as usize - 1] += 1;
        }
        rolled_pool(faces)
    };
    let mut a = roll(duel.att.dice, roller);
    let mut d = roll(duel.def.dice, roller);
    let (att_left, def_left) = (
        duel.att.veteran && a.dice > 0,
        duel.def.veteran && d.dice > 0,
    );
    if att_left && let (Some(f), _) = reroll_choice(&duel, a, d, true, def_left) {
        a.faces[f as usize - 1] -= 1;
        a.faces[roller.roll(6) as usize - 1] += 1;
    }
    if def_left && let (Some(f), _) = reroll_choice(&duel, a, d, false, false) {
        d.faces[f as usize - 1] -= 1;
        d.faces[roller.roll(6) as usize - 1] += 1;
    }
    let (w, ok) = judge(duel.contest, &a, &d, &duel);
    let class = match w {
        Winner::Attacker => 1,
        Winner::Tie => 0,
        Winner::Defender => -1,
    };
    Ok(outcome_name(class, knockback(&duel, w, ok)))
}

/// The outcome's name in the odds: who won and the knockback.
fn outcome_name(class: i8, k: i32) -> String {
    match class {
        1 => format!("win, knockback {k} stick{}", if k == 1 { "" } else { "s" }),
        0 => "tie: nothing happens".to_string(),
        _ if k < 0 => "lose, the attacker knocked back 1 stick".to_string(),
        _ => "lose: nothing happens".to_string(),
    }
}

/// The fight a matchup's parameters describe.
fn duel_of(params: &BTreeMap<String, String>) -> Result<Duel, String> {
    for k in params.keys() {
        if ![
            "attacker",
            "defender",
            "range",
            "melee",
            "contest",
            "artillery",
            "hidden",
            "behind",
        ]
        .contains(&k.as_str())
        {
            return Err(format!(
                "unknown parameter --{k}: use --attacker, --defender, --range, --melee, --contest, --artillery, --hidden, --behind"
            ));
        }
    }
    let (av, aspec) = parse_unit(
        params
            .get("attacker")
            .ok_or("--attacker VALUE[LETTER] is needed")?,
    )?;
    let (dv, dspec) = parse_unit(
        params
            .get("defender")
            .ok_or("--defender VALUE[LETTER] is needed")?,
    )?;
    let flag = |k: &str| params.get(k).is_some_and(|v| v != "false");
    let melee = flag("melee");
    let mut o = Options::default();
    if let Some(c) = params.get("contest") {
        o.contest = battlemat_core::options::parse_value(c)?;
    }
    if let Some(a) = params.get("artillery") {
        o.artillery = battlemat_core::options::parse_value(a)?;
    }
    let range: f64 = match params.get("range") {
        None => 0.0,
        Some(r) => r
            .parse()
            .map_err(|_| format!("--range {r:?}: a distance in sticks"))?,
    };
    if melee && range > 1.0 / 6.0 + 1e-9 {
        return Err("melee is between units next to each other: drop --range".into());
    }
    if !(0.0..=40.0).contains(&range) {
        return Err(format!("--range {range}: 0 to 40 sticks"));
    }
    let extra = if range > 1.0 {
        (range - 1.0).ceil() as u8
    } else {
        0
    };
    let mut att = av;
    if flag("hidden") {
        att += 1;
    }
    if melee && aspec == Some(Special::M) {
        att += 1;
    }
    if !melee && aspec == Some(Special::A) && o.artillery == crate::data::Artillery::ExtraDie {
        att += 1;
    }
    if !melee && extra > 0 {
        if att <= 1 {
            return Err(
                "only units with more than one attack die shoot beyond 1 stick (SDE-RANGE)".into(),
            );
        }
        if aspec != Some(Special::A) {
            att = att.saturating_sub(extra);
        }
        if att == 0 {
            return Err("out of range: the range penalty leaves no dice (SDE-RANGE)".into());
        }
    }
    if melee && aspec == Some(Special::T) {
        return Err("a transport may not attack in melee (SDE-T)".into());
    }
    let mut def = dv;
    if dspec == Some(Special::C) {
        def = def.saturating_sub(1);
    }
    if melee && dspec == Some(Special::M) {
        def += 1;
    }
    let duel = Duel {
        att: Side {
            dice: att,
            veteran: aspec == Some(Special::V),
        },
        def: Side {
            dice: def,
            veteran: dspec == Some(Special::V),
        },
        melee,
        att_melee_special: aspec == Some(Special::M),
        contest: o.contest,
    };
    Ok(duel)
}

impl SdEra {
    /// The odds of a shot or melee the judge accepts (the first share of a SPRAY).
    pub fn action_odds(&self, a: &Action) -> Option<Odds> {
        let (unit, target, dice, melee) = match self.plan(a).ok()? {
            Plan::Shoot { unit, shots, .. } => (unit, shots[0].0, shots[0].1, false),
            Plan::Melee {
                unit,
                target,
                bonus,
                ..
            } => (unit, target, self.attack_dice(unit, true) + bonus, true),
            _ => return None,
        };
        let _ = Striker::Impact;
        let duel = Duel {
            att: Side {
                dice,
                veteran: self.has(unit, Special::V),
            },
            def: Side {
                dice: self.defence_dice(target, melee),
                veteran: self.unit(target).is_unit() && self.has(target, Special::V),
            },
            melee,
            att_melee_special: self.has(unit, Special::M),
            contest: self.fixed.options.contest,
        };
        // SDE-KB2, SDE-KB3: a unit knocked into terrain, an edge or another base is stunned.
        // A shot knocks it along the line of fire; in melee the winner chooses the way, so it
        // is stunned if any of the sixteen winds runs it into something.
        let t = self.unit(target);
        let stuns = |k: i32| -> bool {
            if !t.is_unit() || k <= 0 {
                return false;
            }
            let dist = i64::from(k) * crate::data::STICK;
            let ignore: Vec<usize> = self.standing_on(target).into_iter().collect();
            let others = self.bases_except(&[target]);
            let hits = |toward: battlemat_geom::table::Point| {
                let end = battlemat_geom::table::toward(t.at, toward, dist);
                self.fixed
                    .table
                    .sweep(t.base(), end, &others, &ignore)
                    .hit
                    .is_some()
            };
            if melee {
                crate::events::WIND_VECTORS.iter().any(|(dx, dy)| {
                    hits(battlemat_geom::table::Point::new(t.at.x + dx, t.at.y + dy))
                })
            } else {
                let from = match self.plan(a) {
                    Ok(Plan::Shoot { from, .. }) => from,
                    _ => self.unit(unit).at,
                };
                from != t.at
                    && hits(battlemat_geom::table::Point::new(
                        2 * t.at.x - from.x,
                        2 * t.at.y - from.y,
                    ))
            }
        };
        let mut odds = odds_with(&duel, &stuns);
        // A win that does no knockback says what it does instead: an animal is stunned
        // (SDE-SAFARI.2); a target is destroyed (SDE-ZONES.2); a hidden unit is only found,
        // unless the attacker is hidden (SDE-H).
        let instead = if self.unit(target).is_animal() {
            Some("win: the animal is stunned (no knockback)")
        } else if self.unit(target).is_target() {
            Some("win: the target is destroyed")
        } else if self.unit(target).hidden && !self.unit(unit).hidden {
            Some("win: the hidden unit is found (no knockback)")
        } else {
            None
        };
        if let Some(name) = instead {
            let won: f64 = odds
                .outcomes
                .iter()
                .filter(|(k, _)| k.starts_with("win, knockback"))
                .map(|(_, p)| p)
                .sum();
            odds.outcomes
                .retain(|k, _| !k.starts_with("win, knockback"));
            odds.outcomes.insert(name.to_string(), won);
            odds.details
                .insert("expected_knockback".into(), serde_json::json!(0.0));
            // SDE-SAFARI.2: a won attack on an animal stuns it; otherwise nothing is.
            let stunned = if self.unit(target).is_animal() {
                won
            } else {
                0.0
            };
            odds.details
                .insert("stun_chance".into(), serde_json::json!(stunned));
            let num = |k: &str| odds.details[k].as_f64().unwrap_or(0.0);
            let text = summary(
                num("win_chance"),
                stunned,
                num("tie_chance"),
                num("lose_chance"),
            );
            odds.details
                .insert("summary".into(), serde_json::json!(text));
        }
        Some(odds)
    }
}
