//! The words: prompts, described actions, and the observation — the grid with the
//! combatants on it, and each combatant's sections, APM and state.

use crate::events::Action;
use crate::state::{MsD20, Phase};
use battlemat_core::Viewer;
use serde::Serialize;
use std::fmt;

#[derive(Clone, Debug, Serialize)]
pub struct SectionView {
    pub name: String,
    pub left: u32,
    pub durability: u32,
    pub armour: u32,
}

#[derive(Clone, Debug, Serialize)]
pub struct UnitView {
    pub id: u8,
    pub name: String,
    pub pilot: String,
    pub side: u8,
    pub seat: u8,
    pub at: String,
    pub terrain: String,
    pub apm: u8,
    pub out: bool,
    pub fleeing: bool,
    pub stunned: bool,
    pub knocked: bool,
    pub sections: Vec<SectionView>,
    pub weapons: Vec<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Observation {
    pub scenario: String,
    pub melee: u16,
    pub order: Vec<u8>,
    pub units: Vec<UnitView>,
    /// The grid, a line per row from the top (row 1 at the bottom), a combatant by its id.
    pub map: Vec<String>,
    pub status: String,
}

impl fmt::Display for Observation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{} — melee round {}", self.scenario, self.melee)?;
        for l in &self.map {
            writeln!(f, "{l}")?;
        }
        for u in &self.units {
            let secs: Vec<String> = u
                .sections
                .iter()
                .map(|s| format!("{} {}/{}", s.name, s.left, s.durability))
                .collect();
            let mut flags = String::new();
            if u.out {
                flags.push_str(" OUT");
            }
            if u.fleeing {
                flags.push_str(" fleeing");
            }
            if u.stunned {
                flags.push_str(" STUNNED");
            }
            if u.knocked {
                flags.push_str(" knocked over");
            }
            writeln!(
                f,
                "u{} {} [{}] ({}) at {} {}, APM {}{flags}: {}",
                u.id,
                u.name,
                if u.side == 0 { "F" } else { "Z" },
                u.pilot,
                u.at,
                u.terrain,
                u.apm,
                secs.join(", ")
            )?;
            let ws: Vec<String> = u
                .weapons
                .iter()
                .enumerate()
                .map(|(i, w)| format!("w{i} {w}"))
                .collect();
            writeln!(f, "    weapons: {}", ws.join("; "))?;
        }
        if self.status.starts_with("Game over") {
            writeln!(f, "{}", self.status)?;
        }
        Ok(())
    }
}

impl MsD20 {
    pub fn prompt_text(&self) -> String {
        let who = |u: u8| format!("{} (seat {})", self.name(u), self.unit(u).seat);
        match &self.now.phase {
            Phase::NewtypeSave { unit } => format!(
                "{}: save against Newtype Initiative (d20)",
                self.name(*unit)
            ),
            Phase::Initiative { left } => format!("{}: initiative (d20)", self.name(left[0])),
            Phase::FightOrFlight { unit } => format!("{}: fight or flee this melee?", who(*unit)),
            Phase::Turn { unit, moved, acted } => format!(
                "{}: {}{}APM {}",
                who(*unit),
                if *moved { "" } else { "move, " },
                if *acted {
                    "end the turn; "
                } else {
                    "attack or pass; "
                },
                self.unit(*unit).apm
            ),
            Phase::Strike { attack } => format!("{}: strike (d20)", self.name(attack.attacker)),
            Phase::Defend { attack } => format!(
                "{}: struck for {} ({}): take, dodge, leap, parry or roll?",
                who(attack.target),
                attack.total,
                if attack.critical {
                    "a natural 20"
                } else {
                    "the strike"
                }
            ),
            Phase::DefenceDie { attack, defence } => {
                format!("{}: {defence:?} (d20)", self.name(attack.target))
            }
            Phase::MayRoll { attack } => {
                format!("{}: hit — roll with it, or take it?", who(attack.target))
            }
            Phase::BeamSave { attack } => format!("{}: beam save (d20)", self.name(attack.target)),
            Phase::StunSave { attack } => format!("{}: stun save (d20)", self.name(attack.target)),
            Phase::Damage { attack, left, .. } => format!(
                "{}'s damage: {left} more d{}",
                self.name(attack.attacker),
                self.damage_die(attack)
            ),
            Phase::Over => String::new(),
        }
    }

    pub fn describe_action(&self, a: &Action) -> String {
        if let (
            Action::Attack {
                target,
                weapon,
                at,
                insight,
            },
            Phase::Turn { unit, .. },
        ) = (a, &self.now.phase)
            && self.plan(a).is_ok()
        {
            let d = self.data(*unit);
            let t = self.data(*target);
            let b = self
                .strike_bonus(*unit, *weapon, *target, *at, *insight)
                .unwrap_or(0);
            return format!(
                "the {} at {}'s {}{} (strike {:+})",
                d.weapons[*weapon as usize].name,
                t.name,
                at.map_or("main body", |s| t.sections[s as usize].name.as_str()),
                if *insight { ", insight" } else { "" },
                b
            );
        }
        a.to_string()
    }

    pub fn observation(&self, _v: Viewer) -> Observation {
        let g = self.fixed.grid;
        let mut map = Vec::new();
        for r in (0..g.height).rev() {
            let mut line = format!("{:>2} ", r + 1);
            for c in 0..g.width {
                let cell = battlemat_geom::Cell::new(c, r);
                match self.occupied(cell) {
                    Some(u) => line.push_str(&format!(
                        "{:<3}",
                        format!("{}{u}", if self.unit(u).side == 0 { 'F' } else { 'Z' })
                    )),
                    None => line.push_str(".  "),
                }
            }
            map.push(line.trim_end().to_string());
        }
        let mut foot = String::from("   ");
        for c in 0..g.width {
            foot.push_str(&format!("{:<3}", (b'a' + c) as char));
        }
        map.push(foot.trim_end().to_string());
        let units = self
            .ids()
            .map(|u| {
                let x = self.unit(u);
                let d = self.data(u);
                UnitView {
                    id: u,
                    name: d.name.clone(),
                    pilot: d.pilot.name.clone(),
                    side: x.side,
                    seat: x.seat,
                    at: x.at.to_string(),
                    terrain: serde_json::to_value(x.terrain)
                        .ok()
                        .and_then(|v| v.as_str().map(|s| s.replace('_', " ")))
                        .unwrap_or_default(),
                    apm: x.apm,
                    out: x.out,
                    fleeing: x.flee,
                    stunned: x.stunned.is_some(),
                    knocked: x.knocked,
                    sections: d
                        .sections
                        .iter()
                        .enumerate()
                        .map(|(i, s)| SectionView {
                            name: format!("s{i} {}", s.name),
                            left: x.sections[i],
                            durability: s.durability,
                            armour: s.armour.reduction(),
                        })
                        .collect(),
                    weapons: d
                        .weapons
                        .iter()
                        .map(|w| {
                            format!(
                                "{} ({:?}, {}, range {}/{}/{})",
                                w.name,
                                w.kind,
                                w.damage.clone().unwrap_or_else(|| format!(
                                    "hand {}",
                                    d.strength.saturating_sub(20)
                                )),
                                w.range[0],
                                w.range[1],
                                w.range[2]
                            )
                            .to_lowercase()
                        })
                        .collect(),
                }
            })
            .collect();
        Observation {
            scenario: self.fixed.setup.scenario.name.clone(),
            melee: self.now.melee,
            order: self.now.order.clone(),
            units,
            map,
            status: match &self.now.outcome {
                Some(o) => format!("Game over: {}", o.reason),
                None => self.prompt_text(),
            },
        }
    }
}
