//! Exact odds of an attack (ABQ-7-4, 9-5): the column the referee uses and the chance of
//! each result — from the same functions the referee uses (`combat::final_column`, the
//! tables, `morale::after_hit`), so the odds cannot drift from the rules. One die, six
//! faces: every probability is a multiple of 1/6.

use crate::combat::final_column;
use crate::data::{Catalog, Hit, Pilot, Tables};
use crate::events::Action;
use crate::legal::Plan;
use crate::morale::{after_hit, die_modifier};
use crate::ranks::pilot_rank;
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

/// `battlemat odds abaoaqu --attack A --defence D [--range R] [--same-hex] [--close]
/// [--attacker-pilot P] [--defender-pilot P] [--defender-state C|D]`. Shooting, A is the
/// counter's anti-MS or anti-ship value and the range is taken off (7-2; doubled in the same
/// hex, 7-3); in close combat (`--close`) A and D are the two sides of 9-5's ratio.
pub fn matchup(params: &BTreeMap<String, String>) -> Result<Odds, String> {
    let (column, close, state, details) = parse(params)?;
    let tables = &Catalog::builtin().tables;
    Ok(Odds {
        outcomes: outcomes(tables, column, close, Some(state)),
        details,
        ..Default::default()
    })
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
    // Counters' values are single digits and the largest layout 68 hexes across: the
    // bound keeps every sum and ratio below far from overflowing.
    const MAX_VALUE: u32 = 999;
    let num = |k: &str| -> Result<Option<u32>, String> {
        params
            .get(k)
            .map(|v| match v.trim().parse::<u32>() {
                Ok(n) if n <= MAX_VALUE => Ok(n),
                Ok(_) => Err(format!("--{k}: {v} is more than {MAX_VALUE}")),
                Err(_) => Err(format!("--{k}: {v:?} is not a whole number")),
            })
            .transpose()
    };
    let flag = |k: &str| params.get(k).is_some_and(|v| v != "false");
    for k in params.keys() {
        if !matches!(
            k.as_str(),
            "attack"
                | "defence"
                | "defense"
                | "range"
                | "same-hex"
                | "same_hex"
                | "close"
                | "attacker-pilot"
                | "attacker_pilot"
                | "defender-pilot"
                | "defender_pilot"
                | "defender-state"
                | "defender_state"
                | "json"
        ) {
            return Err(format!(
                "--{k} is not an option of abaoaqu odds: --attack A --defence D [--range R] [--same-hex] [--close] [--attacker-pilot N1|N2|N3|E|S] [--defender-pilot ...] [--defender-state C|D]"
            ));
        }
    }
    let a = num("attack")?.ok_or("--attack A is required (the attack value)")?;
    let d = match num("defence")? {
        Some(d) => d,
        None => num("defense")?.ok_or("--defence D is required (the defence value)")?,
    };
    let pilot = |k: &str| -> Result<Pilot, String> {
        match params.get(k).or_else(|| params.get(&k.replace('-', "_"))) {
            None => Ok(Pilot::Regular),
            Some(v) => Pilot::parse(v).ok_or(format!("--{k}: {v:?} is not one of N1 N2 N3 E S")),
        }
    };
    let ap = pilot("attacker-pilot")?;
    let dp = pilot("defender-pilot")?;
    let state = match params
        .get("defender-state")
        .or_else(|| params.get("defender_state"))
        .map(|s| s.to_ascii_uppercase())
        .as_deref()
    {
        None | Some("N") | Some("NORMAL") => Morale::Normal,
        Some("C") => Morale::Confused,
        Some("D") => Morale::Panic,
        Some(v) => {
            return Err(format!(
                "--defender-state: {v:?} is C (confused) or D (panic)"
            ));
        }
    };
    let close = flag("close");
    let same = flag("same-hex") || flag("same_hex");
    let range = num("range")?.unwrap_or(if same || close { 0 } else { 1 });
    if same && range != 0 && params.contains_key("range") {
        return Err("--same-hex and --range: in the same hex the range is 0".into());
    }
    let effective = if close {
        a
    } else if same || range == 0 {
        a * 2
    } else {
        a.saturating_sub(range)
    };
    let shift = pilot_rank(ap) - pilot_rank(dp);
    let column = final_column(effective, d, shift);
    let mut details = BTreeMap::new();
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
