//! The words: prompts, described actions, and the observation — a text map of the
//! hexes with their stacks, and every counter.

use crate::combat::column_name;
use crate::data::Pilot;
use crate::events::Action;
use crate::state::{AbaoAqu, Declaring, Morale, Phase, Place, Stage, UnitId};
use battlemat_core::Viewer;
use serde::Serialize;
use std::fmt;

#[derive(Clone, Debug, Serialize)]
pub struct UnitView {
    pub id: UnitId,
    pub code: String,
    pub name: String,
    pub side: u8,
    pub seat: u8,
    /// `CCRR`, "to enter", "to set up" or "gone".
    pub at: String,
    pub pilot: String,
    /// movement / anti-MS / anti-ship / defence, as the counter shows it.
    pub values: String,
    pub weapon: String,
    pub morale: Morale,
    pub flipped: bool,
}

#[derive(Clone, Debug, Serialize)]
pub struct Observation {
    pub scenario: String,
    pub turn: u16,
    pub turn_limit: Option<u16>,
    pub sides: [String; 2],
    /// The side leading off this half of the turn, and the phase.
    pub lead: u8,
    pub stage: Stage,
    pub status: String,
    pub held: [u8; 2],
    /// Beam-disruption screens: centre hex and the turn they were placed.
    pub screens: Vec<(String, u16)>,
    pub units: Vec<UnitView>,
    /// The map, a line per row: `..` empty, `##` fortress, `F3` three Federation counters,
    /// `Z2` two Zeon, `**` both, `bd` a screened hex; odd columns sit half a hex lower.
    pub map: Vec<String>,
}

impl fmt::Display for Observation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.turn == 0 {
            writeln!(f, "{} — setting up", self.scenario)?;
        } else {
            writeln!(
                f,
                "{} — turn {}{} — {} leads off — {}",
                self.scenario,
                self.turn,
                self.turn_limit
                    .map(|l| format!(" of {l}"))
                    .unwrap_or_default(),
                self.sides[self.lead as usize],
                self.stage.words()
            )?;
        }
        for line in &self.map {
            writeln!(f, "{line}")?;
        }
        let mut by_hex: std::collections::BTreeMap<&str, Vec<String>> = Default::default();
        for u in &self.units {
            if u.at.len() == 4 {
                let mark = match u.morale {
                    Morale::Normal => "",
                    Morale::Confused => " C",
                    Morale::Panic => " D",
                };
                let side = if u.side == 0 { "F" } else { "Z" };
                by_hex.entry(&u.at).or_default().push(format!(
                    "{side}:{}{} u{} {}{}",
                    u.code,
                    if u.pilot.is_empty() {
                        String::new()
                    } else {
                        format!("({})", u.pilot)
                    },
                    u.id,
                    u.values,
                    mark
                ));
            }
        }
        for (h, us) in by_hex {
            writeln!(f, "{h}: {}", us.join(", "))?;
        }
        let waiting = self.units.iter().filter(|u| u.at == "to enter").count();
        if waiting > 0 {
            writeln!(f, "{waiting} counters still to enter")?;
        }
        for (h, t) in &self.screens {
            writeln!(f, "BD screen at {h} (placed in turn {t})")?;
        }
        // The prompt is the front end's to show; the end is the board's.
        if self.status.starts_with("Game over") {
            writeln!(f, "{}", self.status)?;
        }
        Ok(())
    }
}

impl AbaoAqu {
    pub fn prompt_text(&self) -> String {
        let seat_side = |s: u8| self.side_name(self.fixed.seating.side_of(s)).to_string();
        match &self.now.phase {
            Phase::LeadOffDie => "a die for the lead-off: odd, the Federation (ABQ-S6)".into(),
            Phase::Deploy { unit } => format!(
                "{} (seat {}): set up {} (place HEX)",
                self.side_name(self.unit(*unit).side),
                self.unit(*unit).seat,
                self.name(*unit)
            ),
            Phase::Recovery { unit } => format!(
                "recovery die for {} ({}; recovers on {})",
                self.name(*unit),
                if self.unit(*unit).morale == Morale::Panic {
                    "panic"
                } else {
                    "confused"
                },
                if self.unit(*unit).morale == Morale::Panic {
                    "1-3"
                } else {
                    "1-4"
                }
            ),
            Phase::Move { seat, unit } => {
                let x = self.unit(*unit);
                let wher = match x.at {
                    Place::Hex(h) => format!("in {}", self.hex_name(h)),
                    _ => "off the map, entering".into(),
                };
                format!(
                    "{} (seat {seat}): move {} ({wher}, {} hexes): move HEX, hold, or done",
                    seat_side(*seat),
                    self.name(*unit),
                    self.kind(*unit).movement
                )
            }
            Phase::Remove { side, hex } => format!(
                "{}: {} is over the stacking limit: remove a unit (ABQ-5-6)",
                self.side_name(*side),
                self.hex_name(*hex)
            ),
            Phase::Combat { seat, declaring } => {
                let who = format!("{} (seat {seat})", seat_side(*seat));
                let when = if self.now.stage == Stage::LeadCombat {
                    "lead-off combat"
                } else {
                    "follow-up combat"
                };
                match declaring {
                    Declaring::Idle => format!(
                        "{who}, {when}: attack from a hex (from HEX), launch, detonate, or done"
                    ),
                    Declaring::Picking { from, with } => format!(
                        "{who}: attacking from {} with {}: add units (with uN) or choose the target hex",
                        self.hex_name(*from),
                        self.names(with)
                    ),
                    Declaring::Aiming { target, .. } => format!(
                        "{who}: at {}: shoot uN, shoot ms, shoot ships, or close uN",
                        self.hex_name(*target)
                    ),
                    Declaring::Ready { attack } => format!(
                        "{who}: {} {} {} at {}: fire or cancel",
                        self.names(&attack.attackers),
                        // One attacker "shoots", several "shoot".
                        match (attack.close, attack.attackers.len() == 1) {
                            (true, true) => "closes with",
                            (true, false) => "close with",
                            (false, true) => "shoots at",
                            (false, false) => "shoot at",
                        },
                        self.names(&attack.targets),
                        column_name(attack.column)
                    ),
                    Declaring::Launching { unit } => {
                        format!(
                            "{who}: {} launches at which hex (at HEX, within 10)?",
                            self.name(*unit)
                        )
                    }
                }
            }
            Phase::Resolve { attacks, .. } => format!(
                "attack die: {} at {}",
                self.names(&attacks[0].targets),
                column_name(attacks[0].column)
            ),
            Phase::DamageCheck => match self.now.pending.first() {
                Some(a) => format!(
                    "damage check: {} at {} ({} more)",
                    self.names(&a.targets),
                    column_name(a.column),
                    self.now.pending.len() - 1
                ),
                None => "damage check".into(),
            },
            Phase::Screen { hex, .. } => {
                format!("BD missile die at {} (hits on 1-4)", self.hex_name(*hex))
            }
            Phase::ReinforcementDie => "the reinforcements' die (1: turn 2, 2: turn 3, ...)".into(),
            Phase::Over => String::new(),
        }
    }

    pub fn names(&self, us: &[UnitId]) -> String {
        let v: Vec<String> = us.iter().map(|&u| self.name(u)).collect();
        v.join(" + ")
    }

    pub fn describe_action(&self, a: &Action) -> String {
        match a {
            Action::Shoot { unit } | Action::Close { unit } => {
                let what = if matches!(a, Action::Close { .. }) {
                    "close with"
                } else {
                    "shoot at"
                };
                match self.plan(a) {
                    Ok(crate::legal::Plan::Aim(att)) => {
                        format!("{what} {} at {}", self.name(*unit), column_name(att.column))
                    }
                    _ => a.to_string(),
                }
            }
            Action::With { unit } if (*unit as usize) < self.now.units.len() => {
                format!("with {}", self.name(*unit))
            }
            _ => a.to_string(),
        }
    }

    pub fn observation(&self, _viewer: Viewer) -> Observation {
        let map = &self.fixed.layout.map;
        let units: Vec<UnitView> = self
            .ids()
            .map(|u| {
                let x = self.unit(u);
                UnitView {
                    id: u,
                    code: self.code(u).to_string(),
                    name: self.kind(u).name.clone(),
                    side: x.side,
                    seat: x.seat,
                    at: match x.at {
                        Place::Hex(h) => map.name(h),
                        Place::ToEnter => "to enter".into(),
                        Place::ToDeploy => "to set up".into(),
                        Place::Gone => "gone".into(),
                    },
                    pilot: if x.pilot == Pilot::Regular {
                        String::new()
                    } else {
                        x.pilot.label().into()
                    },
                    values: format!(
                        "{}-{}-{}-{}",
                        self.kind(u).movement,
                        self.anti_ms(u),
                        self.anti_ship(u),
                        self.defence(u)
                    ),
                    weapon: format!("{:?}", self.weapon(u)).to_lowercase(),
                    morale: x.morale,
                    flipped: x.flipped,
                }
            })
            .collect();
        let mut cells = vec![(0u16, 0u16); map.len()];
        for x in &self.now.units {
            if let Place::Hex(h) = x.at {
                if x.side == 0 {
                    cells[h as usize].0 += 1;
                } else {
                    cells[h as usize].1 += 1;
                }
            }
        }
        let mut lines = Vec::new();
        // Column numbers every fifth column (each hex is two characters wide).
        let mut head = String::from("    ");
        for c in 1..=map.cols {
            head.push_str(&if c % 5 == 0 || c == 1 {
                format!("{c:<2}")
            } else {
                "  ".to_string()
            });
        }
        lines.push(head.trim_end().to_string());
        for r in 1..=map.rows {
            let mut line = format!("{r:02}  ");
            for c in 1..=map.cols {
                let Some(h) = map.at(c, r) else { continue };
                let (f, z) = cells[h as usize];
                let cell = match (f, z) {
                    (0, 0) if self.screened(h) => "bd".to_string(),
                    (0, 0) if self.fixed.layout.on_fortress(h) => "##".to_string(),
                    (0, 0) => "..".to_string(),
                    (f, 0) => format!("F{}", f.min(9)),
                    (0, z) => format!("Z{}", z.min(9)),
                    _ => "**".to_string(),
                };
                line.push_str(&cell);
            }
            lines.push(line);
        }
        let status = match &self.now.outcome {
            Some(o) => format!("Game over: {}", o.reason),
            None => self.prompt_text(),
        };
        Observation {
            scenario: format!(
                "{}. {}",
                self.fixed.setup.scenario.number, self.fixed.setup.scenario.name
            ),
            turn: self.now.turn,
            turn_limit: self.fixed.turn_limit,
            sides: self.fixed.side_names.clone(),
            lead: self.lead(),
            stage: self.now.stage,
            status,
            held: self.now.held,
            screens: self
                .now
                .screens
                .iter()
                .map(|s| (map.name(s.hex), s.placed))
                .collect(),
            units,
            map: lines,
        }
    }
}
