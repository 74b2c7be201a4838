//! Exact odds of an attack (ABQ-7-4, 9-5): the column the referee uses and the chance of
//! each result — from the same functions the referee uses (`combat::final_column`, the
//! tables, `morale::after_hit`), so the odds cannot drift from the rules. One die, six
//! faces: every probability is a multiple of 1/6.

use crate::combat::final_column;
use crate::data::{Catalog, Hit, Pilot, Tables};
use crate::events::Action;
use crate::legal::Plan;
use crate::morale::{after_hit, die_modifier};
use crate::state::{AbaoAqu, Attack, Declaring, Morale, Phase};
use battlemat_core::Odds;
use std::collections::BTreeMap;

fn state_name(m: Option<Morale>) -> &'static str {
    match m {
        None => "destroyed",
        Some(Morale::Normal) => "no effect",
        Some(Morale::Confused) => "confused",
        Some(Morale::Panic) => "panic",
    }
}

fn hit_name(h: Hit) -> &'static str {
    match h {
        Hit::None => "no effect",
        Hit::Confused => "confused",
        Hit::Panic => "panic",
        Hit::Destroyed => "destroyed",
    }
}

/// The outcome of one die at `column` against a unit in `state` (None: the table's bare
/// results, for a group whose members may differ).
pub fn outcomes(
    tables: &Tables,
    column: Option<u8>,
    close: bool,
    state: Option<Morale>,
) -> BTreeMap<String, f64> {
    let mut out = BTreeMap::new();
    let Some(col) = column else {
        out.insert("no effect".to_string(), 1.0);
        return out;
    };
    for face in 1..=6u8 {
        let name = face_result(tables, col, close, state, face);
        *out.entry(name.to_string()).or_insert(0.0) += 1.0 / 6.0;
    }
    out
}

/// What one face of the die does at `column` (ABQ-7-4, 9-5; the C/D die modifier, 12-2):
/// the referee's table and morale functions.
fn face_result(
    tables: &Tables,
    col: u8,
    close: bool,
    state: Option<Morale>,
    face: u8,
) -> &'static str {
    let m = state.unwrap_or(Morale::Normal);
    let hit = tables.hit(face + die_modifier(m), col, close);
    match state {
        Some(s) if after_hit(s, hit) == Some(s) => "no effect",
        Some(s) => state_name(after_hit(s, hit)),
        None => hit_name(hit),
    }
}

/// One roll of the matchup: a die rolled and read off the results table as the referee
/// reads it.
pub fn sample(
    params: &BTreeMap<String, String>,
    roller: &mut battlemat_dice::Roller,
) -> Result<String, String> {
    let (column, close, state, _) = parse(params)?;
    let Some(col) = column else {
        return Ok("no effect".to_string());
    };
    let face = roller.roll(6) as u8;
    Ok(face_result(&Catalog::builtin().tables, col, close, Some(state), face).to_string())
}

/// `battlemat odds abaoaqu --attack A --defence D [--range R|none] [--same-hex] [--close
/// [--attacker-kind ms|ball] [--defender-kind ms|ball|fighter|turret|ship|doros|bigzam]]
/// [--attacker-pilot P] [--defender-pilot P] [--defender-state C|D]`, the values as the
/// texts' examples write them: a stack as `5+4` (each attacker's value, each less the range,
/// ABQ-8-2; the defences added), pilots as `N3+E` (ABQ-14-3; `N2d` a rank for defence only,
/// White Base's, ABQ-11-3), the range `none` where "distance is ignored" (ABQ-11-4). Shooting,
/// A is each counter's anti-MS or anti-ship value, less the range (7-2), doubled in the same
/// hex (7-3); in close combat (`--close`) A and D are read off the counters and 9-5 makes the
/// ratio: against MS anti-MS : anti-MS (a Ball's halved), against fighters and turrets 2 ×
/// anti-MS : anti-MS, against ships (and the Bigzam, 17-2) 2 × anti-ship : anti-MS, against
/// the Doros 2 × anti-ship : its defence.
pub fn matchup(params: &BTreeMap<String, String>) -> Result<Odds, String> {
    let (column, close, state, details) = parse(params)?;
    let tables = &Catalog::builtin().tables;
    Ok(Odds {
        outcomes: outcomes(tables, column, close, Some(state)),
        details,
        ..Default::default()
    })
}

/// The words of the odds' parameters, for errors.
const USAGE: &str = "--attack A[+A...] --defence D[+D...] [--range R|none] [--same-hex] [--close [--attacker-kind ms|ball] [--defender-kind ms|ball|fighter|turret|ship|doros|bigzam]] [--attacker-pilot N1|N2|N3|E|S[+...]] [--defender-pilot ... (N2d: defence only)] [--defender-state C|D]";

/// A pilot, or a stack's pilots joined by `+` (ABQ-14-3): the rank attacking or defending
/// (`N2d`: White Base's N2, defence only, ABQ-11-3).
fn stack_rank(key: &str, v: &str, attacking: bool) -> Result<i32, String> {
    let mut pilots = Vec::new();
    for p in v.split('+') {
        let p = p.trim();
        let (p, defence_only) = match p.strip_suffix(['d', 'D']) {
            Some(n) if n.len() == 2 && n.starts_with(['n', 'N']) => (n, true),
            _ => (p, false),
        };
        let pilot = Pilot::parse(p).ok_or(format!(
            "--{key}: {p:?} is not one of N1 N2 N3 E S (a stack joined by +, e.g. N3+E; N2d: a rank for defence only)"
        ))?;
        pilots.push(if defence_only && attacking {
            Pilot::Regular
        } else {
            pilot
        });
    }
    Ok(crate::ranks::group_rank(pilots))
}

// Counters' values are single digits and the largest layout 68 hexes across: the bound
// keeps every sum and ratio below far from overflowing.
const MAX_VALUE: u32 = 999;
const MAX_STACK: usize = 24;

/// The matchup's parameters as given (`--attack 5+4`, or `attack = "5+4"`).
struct Params<'a>(&'a BTreeMap<String, String>);

impl Params<'_> {
    fn get(&self, k: &str) -> Option<&String> {
        self.0.get(k).or_else(|| self.0.get(&k.replace('-', "_")))
    }
    fn one(k: &str, v: &str) -> Result<u32, String> {
        match v.trim().parse::<u32>() {
            Ok(n) if n <= MAX_VALUE => Ok(n),
            Ok(_) => Err(format!("--{k}: {v} is more than {MAX_VALUE}")),
            Err(_) => Err(format!("--{k}: {v:?} is not a whole number")),
        }
    }
    /// A value, or a stack's values joined by `+` (ABQ-8-2).
    fn values(&self, k: &str) -> Result<Option<Vec<u32>>, String> {
        let Some(v) = self.get(k) else {
            return Ok(None);
        };
        let parts: Vec<&str> = v.split('+').collect();
        if parts.len() > MAX_STACK {
            return Err(format!("--{k}: more than {MAX_STACK} counters"));
        }
        parts
            .iter()
            .map(|p| Self::one(k, p))
            .collect::<Result<_, _>>()
            .map(Some)
    }
    fn flag(&self, k: &str) -> bool {
        self.get(k).is_some_and(|v| v != "false")
    }
    fn check_keys(&self) -> Result<(), String> {
        for k in self.0.keys() {
            if !matches!(
                k.replace('_', "-").as_str(),
                "attack"
                    | "defence"
                    | "defense"
                    | "range"
                    | "same-hex"
                    | "close"
                    | "attacker-kind"
                    | "defender-kind"
                    | "attacker-pilot"
                    | "defender-pilot"
                    | "defender-state"
                    | "json"
            ) {
                return Err(format!("--{k} is not an option of abaoaqu odds: {USAGE}"));
            }
        }
        Ok(())
    }
    fn defender_state(&self) -> Result<Morale, String> {
        match self
            .get("defender-state")
            .map(|s| s.to_ascii_uppercase())
            .as_deref()
        {
            None | Some("N") | Some("NORMAL") => Ok(Morale::Normal),
            Some("C") => Ok(Morale::Confused),
            Some("D") => Ok(Morale::Panic),
            Some(v) => Err(format!(
                "--defender-state: {v:?} is C (confused) or D (panic)"
            )),
        }
    }
    fn kind(&self, k: &str, allowed: &[&str]) -> Result<String, String> {
        let v = self
            .get(k)
            .map(|v| v.to_ascii_lowercase())
            .unwrap_or("ms".into());
        if allowed.contains(&v.as_str()) {
            Ok(v)
        } else {
            Err(format!("--{k}: {v:?} is one of {}", allowed.join(", ")))
        }
    }

    /// Close combat's two sides of the ratio (ABQ-9-5), with the values read off the
    /// counters.
    fn close_values(
        &self,
        attack: &[u32],
        defence: &[u32],
        details: &mut BTreeMap<String, serde_json::Value>,
    ) -> Result<(u32, u32), String> {
        if self.get("range").is_some() || self.flag("same-hex") {
            return Err(
                "--close: close combat is in the same hex (ABQ-9-1); no --range or --same-hex"
                    .into(),
            );
        }
        let ak = self.kind("attacker-kind", &["ms", "ball"])?;
        let dk = self.kind(
            "defender-kind",
            &["ms", "ball", "fighter", "turret", "ship", "doros", "bigzam"],
        )?;
        if ak == "ball" && attack.len() > 1 {
            return Err("--attacker-kind ball: one attacker (its value halved against MS)".into());
        }
        if defence.len() > 1 {
            return Err(
                "--close: close combat is against one counter (ABQ-8-4: never a group)".into(),
            );
        }
        let d = defence[0];
        let (a, d, ratio) = match dk.as_str() {
            "ms" | "ball" => {
                let a: u32 = attack
                    .iter()
                    .map(|&v| if ak == "ball" { v / 2 } else { v })
                    .sum();
                let d = if dk == "ball" { d / 2 } else { d };
                (a, d, "(a) MS vs MS: anti-MS : anti-MS (a Ball's halved)")
            }
            "fighter" | "turret" => (
                2 * attack.iter().sum::<u32>(),
                d,
                "(b) MS vs fighters, cannon turrets: 2 × anti-MS : anti-MS",
            ),
            "doros" => (
                2 * attack.iter().sum::<u32>(),
                d,
                "(c) MS vs the Doros: 2 × anti-ship : its defence",
            ),
            _ => (
                2 * attack.iter().sum::<u32>(),
                d,
                "(c) MS vs ship (and the Bigzam, ABQ-17-2): 2 × anti-ship : anti-MS",
            ),
        };
        details.insert("ratio".into(), ratio.into());
        Ok((a, d))
    }

    /// Shooting's two sides of the ratio: the range, the same hex, or distance ignored
    /// (ABQ-7-2, 7-3, 11-4).
    fn shooting_values(
        &self,
        attack: &[u32],
        defence: &[u32],
        details: &mut BTreeMap<String, serde_json::Value>,
    ) -> Result<(u32, u32), String> {
        if self.get("attacker-kind").is_some() || self.get("defender-kind").is_some() {
            return Err(
                "--attacker-kind and --defender-kind are for close combat (--close)".into(),
            );
        }
        let same = self.flag("same-hex");
        let range: Option<u32> = match self.get("range").map(|r| r.trim().to_ascii_lowercase()) {
            None if same => Some(0),
            None => Some(1),
            Some(r) if r == "none" => {
                if same {
                    return Err("--same-hex and --range none: one or the other".into());
                }
                None
            }
            Some(r) if r == "0" => {
                return Err("--range 0: a unit in the same hex is shot at doubled (ABQ-7-3): say --same-hex; to ignore the distance (as ABQ-11-4's example does) say --range none".into());
            }
            Some(r) => {
                if same {
                    return Err("--same-hex and --range: in the same hex there is no range".into());
                }
                Some(Self::one("range", &r)?)
            }
        };
        let effective: u32 = attack
            .iter()
            .map(|&a| match range {
                None => a,
                Some(0) => a * 2,
                Some(r) => a.saturating_sub(r),
            })
            .sum();
        details.insert(
            "range".into(),
            match range {
                None => "ignored".to_string(),
                Some(0) => "same hex (doubled, ABQ-7-3)".to_string(),
                Some(r) => format!("{r} (less {r} for each attacker, ABQ-7-2)"),
            }
            .into(),
        );
        Ok((effective, defence.iter().sum()))
    }
}

/// A matchup's parameters: the final column, close combat or not, the defender's state,
/// and the details shown.
#[allow(clippy::type_complexity)]
fn parse(
    params: &BTreeMap<String, String>,
) -> Result<
    (
        Option<u8>,
        bool,
        Morale,
        BTreeMap<String, serde_json::Value>,
    ),
    String,
> {
    let p = Params(params);
    p.check_keys()?;
    let attack = p
        .values("attack")?
        .ok_or("--attack A is required (the attack value; a stack as 5+4)")?;
    let defence = match p.values("defence")? {
        Some(d) => d,
        None => p
            .values("defense")?
            .ok_or("--defence D is required (the defence value; a stack as 3+2)")?,
    };
    let ap = match p.get("attacker-pilot") {
        Some(v) => stack_rank("attacker-pilot", v, true)?,
        None => 0,
    };
    let dp = match p.get("defender-pilot") {
        Some(v) => stack_rank("defender-pilot", v, false)?,
        None => 0,
    };
    let state = p.defender_state()?;
    let close = p.flag("close");
    let mut details = BTreeMap::new();
    // The effective attack and the defence the ratio is made of.
    let (effective, d) = if close {
        p.close_values(&attack, &defence, &mut details)?
    } else {
        p.shooting_values(&attack, &defence, &mut details)?
    };
    let shift = ap - dp;
    let column = final_column(effective, d, shift);
    details.insert("column".into(), crate::combat::column_name(column).into());
    details.insert("effective_attack".into(), effective.into());
    details.insert("defence".into(), d.into());
    details.insert("shift".into(), shift.into());
    details.insert(
        "table".into(),
        (if close {
            "close combat (the shooting table read one column to the attacker)"
        } else {
            "shooting"
        })
        .into(),
    );
    Ok((column, close, state, details))
}

impl AbaoAqu {
    /// The odds of an attack about to be chosen (`shoot`, `close`, a group) or fired.
    pub fn action_odds(&self, a: &Action) -> Option<Odds> {
        let attack: Attack = match (a, &self.now.phase) {
            (
                Action::Fire,
                Phase::Combat {
                    declaring: Declaring::Ready { attack },
                    ..
                },
            ) => attack.clone(),
            (Action::Shoot { .. } | Action::ShootGroup { .. } | Action::Close { .. }, _) => {
                match self.plan(a).ok()? {
                    Plan::Aim(att) => att,
                    _ => return None,
                }
            }
            _ => return None,
        };
        let state = (attack.targets.len() == 1).then(|| self.unit(attack.targets[0]).morale);
        let mut details = BTreeMap::new();
        details.insert(
            "column".into(),
            crate::combat::column_name(attack.column).into(),
        );
        details.insert("targets".into(), self.names(&attack.targets).into());
        details.insert("attackers".into(), self.names(&attack.attackers).into());
        details.insert(
            "when".into(),
            (if self.now.stage == crate::state::Stage::LeadCombat {
                "rolled in the damage check"
            } else {
                "rolled now"
            })
            .into(),
        );
        Some(Odds {
            outcomes: outcomes(&self.fixed.setup.tables, attack.column, attack.close, state),
            details,
            ..Default::default()
        })
    }
}
