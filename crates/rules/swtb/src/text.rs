//! The words of the game: actions as players type them, events as sentences, and the
//! observation with its text picture of the mat.

use crate::data::Power;
use crate::events::{Action, Dest, Event};
use crate::state::{AttackKind, Phase, Place, Swtb, Terrain, UnitId};
use battlemat_geom::Cell;
use serde::Serialize;
use std::fmt;

fn unit_id(s: &str) -> Result<UnitId, String> {
    s.strip_prefix('u')
        .and_then(|n| n.parse().ok())
        .ok_or_else(|| format!("expected a unit like u3, found {s:?}"))
}

impl fmt::Display for Dest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Dest::Cell(c) => write!(f, "{c}"),
            Dest::Line => f.write_str("line"),
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::First { side } => write!(f, "first {side}"),
            Action::ChoosePower { unit, power } => write!(f, "power u{unit} {}", power_key(*power)),
            Action::Move { unit, to } => write!(f, "move u{unit} {to}"),
            Action::Attack {
                unit,
                target,
                land: None,
            } => write!(f, "attack u{unit} u{target}"),
            Action::Attack {
                unit,
                target,
                land: Some(c),
            } => {
                write!(f, "attack u{unit} u{target} from {c}")
            }
            Action::Fire { gun, target, crew } => write!(f, "fire u{gun} u{target} crew u{crew}"),
            Action::Choke { unit, target } => write!(f, "choke u{unit} u{target}"),
            Action::MindTrick { unit, target } => write!(f, "trick u{unit} u{target}"),
            Action::Revive { unit, fallen } => write!(f, "revive u{unit} u{fallen}"),
            Action::EndTurn => f.write_str("end"),
        }
    }
}

const ACTION_FORMS: &str = "power uN POWER | first SIDE | move uN CELL|line | attack uN uM [from CELL] | fire uGUN uM crew uN | choke uN uM | trick uN uM | revive uN uM | end";

impl std::str::FromStr for Action {
    type Err = String;
    fn from_str(s: &str) -> Result<Action, String> {
        let w: Vec<&str> = s.split_whitespace().collect();
        let bad = || format!("cannot read action {s:?}; actions are: {ACTION_FORMS}");
        Ok(match w.as_slice() {
            ["power", u, p] => Action::ChoosePower {
                unit: unit_id(u)?,
                power: parse_power(p)?,
            },
            ["first", side] => Action::First {
                side: side.parse().map_err(|_| bad())?,
            },
            ["move", u, "line"] => Action::Move {
                unit: unit_id(u)?,
                to: Dest::Line,
            },
            ["move", u, c] => Action::Move {
                unit: unit_id(u)?,
                to: Dest::Cell(c.parse::<Cell>()?),
            },
            ["attack", u, t] => Action::Attack {
                unit: unit_id(u)?,
                target: unit_id(t)?,
                land: None,
            },
            ["attack", u, t, "from", c] => Action::Attack {
                unit: unit_id(u)?,
                target: unit_id(t)?,
                land: Some(c.parse()?),
            },
            ["fire", g, t, "crew", c] => Action::Fire {
                gun: unit_id(g)?,
                target: unit_id(t)?,
                crew: unit_id(c)?,
            },
            ["choke", u, t] => Action::Choke {
                unit: unit_id(u)?,
                target: unit_id(t)?,
            },
            ["trick", u, t] => Action::MindTrick {
                unit: unit_id(u)?,
                target: unit_id(t)?,
            },
            ["revive", u, t] => Action::Revive {
                unit: unit_id(u)?,
                fallen: unit_id(t)?,
            },
            ["end"] => Action::EndTurn,
            _ => return Err(bad()),
        })
    }
}

impl fmt::Display for AttackKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            AttackKind::Shot => "shoots at",
            AttackKind::Melee => "attacks",
            AttackKind::Dogfight => "dogfights",
            AttackKind::Intercept => "intercepts",
            AttackKind::GroundAttack => "makes a ground attack on",
        })
    }
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::PowerChosen { name, power, .. } => {
                write!(f, "{name} takes the power {}.", power_name(*power))
            }
            Event::RoundStarted { round } => write!(f, "Round {round} begins."),
            Event::InitiativeDie { side, face } => write!(f, "Initiative die for {side}: {face}."),
            Event::InitiativeTied => f.write_str("Initiative is tied: roll again."),
            Event::InitiativeWon { side } => write!(f, "Initiative goes to {side}."),
            Event::ActsFirst { side } => write!(f, "First to act: {side}."),
            Event::TurnStarted { side } => write!(f, "Turn: {side}."),
            Event::Moved {
                name,
                to: Dest::Line,
                ..
            } => write!(f, "{name} returns to the line."),
            Event::Moved {
                name,
                to: Dest::Cell(c),
                ..
            } => write!(f, "{name} moves to {c}."),
            Event::ReturnedToLine { name, .. } => write!(f, "{name} returns to the line."),
            Event::Attack {
                name,
                target_name,
                kind,
                attack_dice,
                defence_dice,
                ..
            } => write!(
                f,
                "{name} {kind} {target_name} ({attack_dice}d6 against {defence_dice}d6)."
            ),
            Event::Die { roller, face } => write!(f, "  {roller} rolls {face}."),
            Event::Compared {
                attack,
                defence,
                result,
            } => {
                write!(f, "  Attack {attack} against defence {defence}: {result}.")
            }
            Event::Hit {
                name,
                hits,
                toughness,
                ..
            } if *toughness > 1 => {
                write!(f, "{name} is hit ({hits} of {toughness}).")
            }
            Event::Hit { .. } => Ok(()),
            Event::Eliminated { name, .. } => write!(f, "{name} is eliminated."),
            Event::Power {
                name,
                power,
                target_name,
                ..
            } => {
                write!(f, "{name} uses {} on {target_name}.", power_name(*power))
            }
            Event::PowerFailed { name } => write!(f, "{name}'s power fails."),
            Event::Defected { name, side, .. } => write!(f, "{name} joins the {side}."),
            Event::Revived { name, .. } => write!(f, "{name} is revived."),
            Event::ReviveFailed { name } => write!(f, "{name} fails to revive anyone."),
            Event::Morale {
                side,
                ones,
                sixes,
                surrendered,
            } => write!(
                f,
                "{side} morale: {ones} ones, {sixes} sixes: {}.",
                if *surrendered {
                    "they surrender"
                } else {
                    "they fight on"
                }
            ),
            Event::Resigned { side, seat } => write!(f, "{side} resign (seat {seat})."),
            Event::GameOver { reason } => write!(f, "Game over: {reason}."),
        }
    }
}

/// The power's key, as data files and actions write it.
pub fn power_key(p: Power) -> &'static str {
    match p {
        Power::LightSaberThrow => "light_saber_throw",
        Power::ForceChoke => "force_choke",
        Power::MindTrick => "mind_trick",
        Power::DeflectBlasters => "deflect_blasters",
    }
}

fn parse_power(s: &str) -> Result<Power, String> {
    [
        Power::LightSaberThrow,
        Power::ForceChoke,
        Power::MindTrick,
        Power::DeflectBlasters,
    ]
    .into_iter()
    .find(|p| power_key(*p) == s)
    .ok_or_else(|| {
        format!("no power {s:?}: light_saber_throw, force_choke, mind_trick, deflect_blasters")
    })
}

pub fn power_name(p: Power) -> &'static str {
    match p {
        Power::LightSaberThrow => "Light Saber Throw",
        Power::ForceChoke => "Force Choke",
        Power::MindTrick => "Mind Trick",
        Power::DeflectBlasters => "Deflect Blasters",
    }
}

impl Swtb {
    /// An action in words: "Han shoots at Stormtrooper 2".
    pub fn describe_action(&self, a: &Action) -> String {
        let n = |u: UnitId| {
            self.fixed
                .names
                .get(u as usize)
                .map_or_else(|| format!("u{u}"), |s| s.to_string())
        };
        match *a {
            Action::ChoosePower { unit, power } => {
                format!("{} takes {}", n(unit), power_name(power))
            }
            Action::First { side } if (side as usize) < 2 => {
                format!("{} to act first", self.side_name(side))
            }
            Action::First { side } => format!("side {side} acts first"),
            Action::Move {
                unit,
                to: Dest::Line,
            } => format!("{} returns to the line", n(unit)),
            Action::Move {
                unit,
                to: Dest::Cell(c),
            } => format!("{} moves to {c}", n(unit)),
            Action::Attack { unit, target, land } => {
                let verb = match self.attack_kind(unit, target) {
                    Ok(k) => k.to_string(),
                    Err(_) => "attacks".into(),
                };
                let from = land.map(|c| format!(" from {c}")).unwrap_or_default();
                format!("{} {verb} {}{from}", n(unit), n(target))
            }
            Action::Fire { gun, target, crew } => {
                format!("{} fires at {} (crew {})", n(gun), n(target), n(crew))
            }
            Action::Choke { unit, target } => format!("{} chokes {}", n(unit), n(target)),
            Action::MindTrick { unit, target } => {
                format!("{} uses a mind trick on {}", n(unit), n(target))
            }
            Action::Revive { unit, fallen } => format!("{} tries to revive {}", n(unit), n(fallen)),
            Action::EndTurn => "end the turn".into(),
        }
    }
}

/// One unit as anyone at the table sees it.
#[derive(Clone, Debug, Serialize)]
pub struct UnitView {
    pub id: UnitId,
    pub name: String,
    pub kind: String,
    pub side: u8,
    /// The seat that commands it; none for a fixed gun, which whichever seat crews it fires.
    pub owner: Option<u8>,
    pub place: Place,
    pub hits: u8,
    pub toughness: u8,
    /// It has acted in its side's turn now going on (a side's marks are not carried into
    /// the other side's turn, nor between turns, where they would read as that turn's).
    pub acted: bool,
    pub power: Option<Power>,
    pub power_used: bool,
}

/// What a seat or spectator sees. SWTB has no hidden information, so every viewer sees the
/// whole table.
#[derive(Clone, Debug, Serialize)]
pub struct Observation {
    pub round: u16,
    pub max_rounds: u16,
    pub scenario: String,
    pub sides: Vec<String>,
    pub active: u8,
    /// How many seats play (more than two: several players share a side).
    pub seats: u8,
    pub status: String,
    pub points_left: Vec<i64>,
    pub units: Vec<UnitView>,
    /// The mat, one string per row from the top (row 1 at the bottom, as a chess board).
    pub board: Vec<String>,
    /// The mat as data: its grid (kind, width, height) and every cell that is not open
    /// ground, with its terrain (wall, hill, fortified).
    pub grid: battlemat_geom::Grid,
    pub terrain: Vec<(battlemat_geom::Cell, crate::state::Terrain)>,
}

impl Swtb {
    /// Whether `u` is shown as having acted: it acted in its side's turn, which is going on
    /// (a side's marks are not carried into the other side's turn, nor shown while the
    /// initiative is settled or after the end, where they would read as a turn's). The
    /// text and the scene both ask this.
    pub fn shows_acted(&self, u: UnitId) -> bool {
        let unit = &self.now.units[u as usize];
        let in_turn = !matches!(
            self.now.phase,
            Phase::Initiative { .. }
                | Phase::ChoosePower { .. }
                | Phase::ChooseFirst { .. }
                | Phase::Over { .. }
        );
        unit.acted && unit.side == self.now.active && in_turn
    }

    pub fn observation(&self) -> Observation {
        let units = (0..self.now.units.len() as u8)
            .map(|u| {
                let unit = self.now.units[u as usize];
                UnitView {
                    id: u,
                    name: self.name(u).into(),
                    owner: unit.owner,
                    kind: self.fixed.type_keys[unit.kind as usize].clone(),
                    side: unit.side,
                    place: unit.place,
                    hits: unit.hits,
                    toughness: self.toughness(u),
                    acted: self.shows_acted(u),
                    power: unit.power,
                    power_used: unit.power_used,
                }
            })
            .collect();
        let status = match &self.now.phase {
            Phase::Initiative { .. } => "rolling for initiative".to_string(),
            Phase::ChoosePower { unit } => format!("choosing {}'s force power", self.name(*unit)),
            Phase::ChooseFirst { winner } => {
                format!(
                    "{} won the initiative and choose who acts first",
                    self.side_name(*winner)
                )
            }
            Phase::Turn if self.fixed.seating.seats() > 2 => format!(
                "{} to act (seat {})",
                self.side_name(self.now.active),
                self.now.seat
            ),
            Phase::Turn => format!("{} to act", self.side_name(self.now.active)),
            Phase::Combat(_) => "combat dice".to_string(),
            Phase::PowerDie { .. } => "force power die".to_string(),
            Phase::ReviveDie { .. } => "revival die".to_string(),
            Phase::Morale { side, .. } => format!("{} roll for morale", self.side_name(*side)),
            Phase::Over { reason, .. } => format!("game over: {reason}"),
        };
        Observation {
            round: self.now.round,
            max_rounds: self.fixed.setup.scenario.max_rounds,
            scenario: self.fixed.setup.scenario.name.clone(),
            sides: self
                .fixed
                .setup
                .scenario
                .sides
                .iter()
                .map(|s| s.name.clone())
                .collect(),
            active: self.now.active,
            seats: self.fixed.seating.seats(),
            status,
            points_left: vec![self.points_left(0), self.points_left(1)],
            grid: self.fixed.grid,
            terrain: self
                .fixed
                .grid
                .cells()
                .filter_map(|c| {
                    let t = self.fixed.terrain[self.fixed.grid.index(c)];
                    (t != crate::state::Terrain::Open).then_some((c, t))
                })
                .collect(),
            units,
            board: self.board_rows(),
        }
    }

    fn board_rows(&self) -> Vec<String> {
        let g = self.fixed.grid;
        let hex = g.kind == battlemat_geom::GridKind::Hex;
        let mut rows = Vec::new();
        let mut header = String::from("    ");
        for c in 0..g.width {
            header.push_str(&format!(" {}  ", (b'a' + c) as char));
        }
        rows.push(header.trim_end().to_string());
        for r in (0..g.height).rev() {
            let mut line = format!("{:>3} ", r as u32 + 1);
            if hex && r % 2 == 1 {
                line.push_str("  ");
            }
            for c in 0..g.width {
                let cell = Cell::new(c, r);
                let t = self.fixed.terrain[g.index(cell)];
                let s = match self.unit_at(cell) {
                    Some(u) => {
                        let mark = if self.now.units[u as usize].side == 0 {
                            'A'
                        } else {
                            'B'
                        };
                        format!("{mark}{u:<2}")
                    }
                    None => match t {
                        Terrain::Open => " . ".into(),
                        Terrain::Wall => "###".into(),
                        Terrain::Hill => "^^^".into(),
                        Terrain::Fortified => "[ ]".into(),
                    },
                };
                line.push_str(&s);
                line.push(' ');
            }
            rows.push(line.trim_end().to_string());
        }
        rows
    }
}

impl fmt::Display for Observation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let round = match self.round {
            0 => format!("before round 1 of {}", self.max_rounds),
            r => format!("round {r} of {}", self.max_rounds),
        };
        writeln!(f, "{} — {round} — {}", self.scenario, self.status)?;
        for row in &self.board {
            writeln!(f, "{row}")?;
        }
        writeln!(
            f,
            "  ### wall   ^^^ hill   [ ] fortified   A = {}, B = {}",
            self.sides[0], self.sides[1]
        )?;
        for (s, side) in self.sides.iter().enumerate() {
            writeln!(
                f,
                "{} ({}, {} points left):",
                side,
                if s == 0 { 'A' } else { 'B' },
                self.points_left[s]
            )?;
            for u in self.units.iter().filter(|u| u.side as usize == s) {
                let place = match u.place {
                    Place::Field(c) => c.to_string(),
                    Place::Line => "line".into(),
                    Place::Fallen(c) => format!("fallen at {c}"),
                    Place::Gone => "gone".into(),
                };
                let mut extra = String::new();
                if u.toughness > 1 {
                    extra.push_str(&format!(" hits {}/{}", u.hits, u.toughness));
                }
                if let Some(p) = u.power {
                    extra.push_str(&format!(
                        " [{}{}]",
                        power_name(p),
                        if u.power_used { ", used" } else { "" }
                    ));
                }
                if u.acted && matches!(u.place, Place::Field(_) | Place::Line) {
                    extra.push_str(" (acted)");
                }
                match (self.seats > 2, u.owner) {
                    (true, Some(seat)) => extra.push_str(&format!(" (seat {seat})")),
                    (true, None) => extra.push_str(" (any seat that crews it)"),
                    _ => {}
                }
                writeln!(
                    f,
                    "  u{:<3}{:<22}{:<15}{place}{extra}",
                    u.id, u.name, u.kind
                )?;
            }
        }
        Ok(())
    }
}

/// A noun with its indefinite article: "a Trooper", "an AA Gun", "an Artillery".
pub fn with_article(noun: &str) -> String {
    let vowel = noun
        .chars()
        .next()
        .is_some_and(|c| "AEIOUaeiou".contains(c));
    format!("{} {noun}", if vowel { "an" } else { "a" })
}
