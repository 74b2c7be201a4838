//! The state of a game and the rules that change it. Rule ids (SWTB-…) and the text's
//! section names are cited where each rule is enforced.

use crate::data::{Alignment, Class, Contest, Goal, Options, Power, Setup, Ties, UnitType, Weapon};
use battlemat_core::{Chance, GameResult, Illegal, SetupError};
use battlemat_geom::{Cell, Grid};
use serde::{Deserialize, Serialize};
use std::hash::{Hash, Hasher};
use std::sync::Arc;

pub type UnitId = u8;

/// Where a unit is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Place {
    /// On the battlefield.
    Field(Cell),
    /// A flying unit lined up off the battlefield on its side (SWTB-F1).
    Line,
    /// Eliminated where it stood; a droid may revive it (SWTB-U2).
    Fallen(Cell),
    /// Eliminated for good.
    Gone,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Unit {
    /// Index into the game's unit types.
    pub kind: u8,
    pub side: u8,
    pub place: Place,
    pub hits: u8,
    /// Has moved or attacked this turn (SWTB-2).
    pub acted: bool,
    /// Moved into contact with an enemy this turn, so may still attack (SWTB-2).
    pub may_attack: bool,
    /// Its force power, when force powers are in play (SWTB-O1..O4): set by the scenario
    /// or chosen by its side before the first round.
    pub power: Option<Power>,
    /// Its once-only force power is spent (SWTB-O2, SWTB-O3).
    pub power_used: bool,
    /// A flier that made a ground attack: back to its line when the opponent's next turn
    /// ends (SWTB-F1).
    pub back_to_line: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AttackKind {
    /// A blaster at any range with a clear line (SWTB-4), a gun, or a ground vehicle.
    Shot,
    /// A light saber in contact (SWTB-5), or any attack after moving into contact.
    Melee,
    /// Flier against a flier off the battlefield (SWTB-F3).
    Dogfight,
    /// Flier against a flier on the battlefield (SWTB-F4).
    Intercept,
    /// Flier against a ground unit (SWTB-F5).
    GroundAttack,
}

/// An attack whose dice are being rolled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Combat {
    pub kind: AttackKind,
    pub attacker: UnitId,
    pub target: UnitId,
    pub att_dice: u8,
    pub def_dice: u8,
    /// Attack dice rolled so far, thermal detonator dice still owed, defence dice rolled.
    pub att_rolled: u8,
    pub extra_owed: u8,
    pub def_rolled: u8,
    /// Running totals (or best die, under `contest = highest`).
    pub att: u16,
    pub def: u16,
    pub thermal: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Each side rolls 1d6 per Force User (SWTB-1).
    Initiative {
        left: [u8; 2],
        best: [u8; 2],
    },
    /// Before the first round, a side chooses a Force User's power (SWTB-O1..O4).
    ChoosePower {
        unit: UnitId,
    },
    /// The winner chooses who acts first (SWTB-1).
    ChooseFirst {
        winner: u8,
    },
    /// The active side moves and attacks with its units.
    Turn,
    Combat(Combat),
    /// A force power's die (SWTB-O2, SWTB-O3).
    PowerDie {
        user: UnitId,
        target: UnitId,
        power: Power,
        need: u8,
    },
    /// A droid's revival die (SWTB-U2).
    ReviveDie {
        droid: UnitId,
        fallen: UnitId,
    },
    /// A morale roll (SWTB-O10): one die per remaining unit.
    Morale {
        side: u8,
        left: u8,
        ones: u8,
        sixes: u8,
    },
    Over {
        winner: Option<u8>,
        reason: String,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Terrain {
    Open,
    Wall,
    Hill,
    Fortified,
}

/// The board at one moment: the unit on each cell and whether each cell blocks sight.
pub struct Occupancy {
    pub unit: Vec<Option<UnitId>>,
    pub blocks_sight: Vec<bool>,
}

/// Why an attack is not allowed, before it is put in words ([`Swtb::explain`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Why {
    SameSide,
    TargetOut,
    NoWeapon,
    UseFire,
    Acted,
    OffField,
    NoFliers,
    OnlyFliers,
    NotInContact,
    SaberReach,
    ThrowReach,
    ThrowBlocked,
    NoLine(Cell, Cell),
}

/// What does not change during a game, derived once from the setup.
#[derive(Debug, PartialEq, Eq)]
pub struct Fixed {
    pub setup: Setup,
    pub grid: Grid,
    pub terrain: Vec<Terrain>,
    pub types: Vec<UnitType>,
    pub type_keys: Vec<String>,
    pub names: Vec<String>,
    /// Every unit as it starts the game.
    pub start: Vec<Unit>,
    /// Units (guns not counted) each side started with, for morale (SWTB-O10).
    pub start_count: [u8; 2],
}

/// A game of Star Wars Table Top Battles.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "StateData", try_from = "StateData")]
pub struct Swtb {
    pub fixed: Arc<Fixed>,
    pub units: Vec<Unit>,
    pub round: u16,
    pub first: u8,
    pub active: u8,
    /// The second side of the round is acting.
    pub second_half: bool,
    pub phase: Phase,
    /// Sides owing a morale roll (bit per side).
    pub morale_due: u8,
    /// Sides that already rolled for being reduced by half.
    pub halved: [bool; 2],
}

impl Hash for Swtb {
    fn hash<H: Hasher>(&self, h: &mut H) {
        // The fixed part is the same for every state of one game; equal states hash equal.
        self.units.hash(h);
        self.round.hash(h);
        self.first.hash(h);
        self.active.hash(h);
        self.second_half.hash(h);
        self.phase.hash(h);
        self.morale_due.hash(h);
        self.halved.hash(h);
    }
}

/// The serialised form: the setup (from which the fixed part is rebuilt) and what changes.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct StateData {
    pub setup: Setup,
    pub units: Vec<Unit>,
    pub round: u16,
    pub first: u8,
    pub active: u8,
    pub second_half: bool,
    pub phase: Phase,
    pub morale_due: u8,
    pub halved: [bool; 2],
}

impl From<Swtb> for StateData {
    fn from(s: Swtb) -> StateData {
        StateData {
            setup: s.fixed.setup.clone(),
            units: s.units,
            round: s.round,
            first: s.first,
            active: s.active,
            second_half: s.second_half,
            phase: s.phase,
            morale_due: s.morale_due,
            halved: s.halved,
        }
    }
}

impl TryFrom<StateData> for Swtb {
    type Error = String;
    fn try_from(d: StateData) -> Result<Swtb, String> {
        let fixed = Swtb::check_setup(&d.setup).map_err(|e| e.to_string())?;
        if d.units.len() != fixed.names.len() {
            return Err("unit list does not match the setup".into());
        }
        // A stored state is checked as strictly as a setup: nothing in it may point outside
        // the game (the rules index units, unit types and cells without further checks).
        let n = d.units.len();
        let on_board = |c: &Cell| fixed.grid.contains(*c);
        for (i, u) in d.units.iter().enumerate() {
            let place_ok = match &u.place {
                Place::Field(c) | Place::Fallen(c) => on_board(c),
                Place::Line | Place::Gone => true,
            };
            if u.kind as usize >= fixed.types.len() || u.side > 1 || !place_ok {
                return Err(format!("units[{i}] does not fit the setup"));
            }
        }
        let id_ok = |u: &UnitId| (*u as usize) < n;
        let phase_ok = match &d.phase {
            Phase::Combat(c) => {
                id_ok(&c.attacker)
                    && id_ok(&c.target)
                    && (1..=21).contains(&c.att_dice)
                    && (1..=21).contains(&c.def_dice)
                    && c.att_rolled <= c.att_dice
                    && c.def_rolled <= c.def_dice
                    && c.extra_owed <= c.att_dice
            }
            Phase::PowerDie {
                user, target, need, ..
            } => id_ok(user) && id_ok(target) && (1..=6).contains(need),
            Phase::ReviveDie { droid, fallen } => id_ok(droid) && id_ok(fallen),
            Phase::ChooseFirst { winner } => *winner <= 1,
            Phase::ChoosePower { unit } => {
                id_ok(unit)
                    && d.setup.options.force_powers
                    && fixed.types[d.units[*unit as usize].kind as usize].force_user
            }
            Phase::Morale { side, left, .. } => *side <= 1 && *left > 0,
            Phase::Initiative { left, .. } => *left != [0, 0] && left.iter().all(|&l| l <= 20),
            Phase::Turn | Phase::Over { .. } => true,
        };
        if !phase_ok || d.first > 1 || d.active > 1 {
            return Err("the phase does not fit the setup".into());
        }
        // A power only on a Force User, with powers in play, of its side's alignment.
        for (i, u) in d.units.iter().enumerate() {
            if let Some(p) = u.power {
                // Chosen for the side it started on (a mind trick may have turned it since).
                let alignment = d.setup.scenario.sides[fixed.start[i].side as usize].alignment;
                let allowed = match p {
                    Power::ForceChoke => alignment == Alignment::Dark,
                    Power::MindTrick => alignment == Alignment::Light,
                    _ => true,
                };
                let fu = fixed.types[u.kind as usize].force_user;
                if !(allowed && fu && d.setup.options.force_powers) {
                    return Err(format!("units[{i}] holds a power it cannot have"));
                }
            }
        }
        Ok(Swtb {
            fixed: Arc::new(fixed),
            units: d.units,
            round: d.round,
            first: d.first,
            active: d.active,
            second_half: d.second_half,
            phase: d.phase,
            morale_due: d.morale_due,
            halved: d.halved,
        })
    }
}

/// A move's destination: a cell, or (for fliers) back to the line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Dest {
    Cell(Cell),
    Line,
}

/// What a seat may do.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// The initiative winner names the side that acts first (SWTB-1).
    First {
        side: u8,
    },
    /// Choose a Force User's power before the first round (SWTB-O1..O4).
    ChoosePower {
        unit: UnitId,
        power: Power,
    },
    Move {
        unit: UnitId,
        to: Dest,
    },
    /// `land` is where a flier ends up beside its ground target (SWTB-F1, SWTB-F5); other
    /// attacks leave it out.
    Attack {
        unit: UnitId,
        target: UnitId,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        land: Option<Cell>,
    },
    /// A fixed gun fires, crewed by an adjacent trooper (SWTB-O8).
    Fire {
        gun: UnitId,
        target: UnitId,
        crew: UnitId,
    },
    Choke {
        unit: UnitId,
        target: UnitId,
    },
    MindTrick {
        unit: UnitId,
        target: UnitId,
    },
    Revive {
        unit: UnitId,
        fallen: UnitId,
    },
    EndTurn,
}

/// Everything that happens, for narration and animation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "event")]
pub enum Event {
    PowerChosen {
        unit: UnitId,
        name: String,
        power: Power,
    },
    RoundStarted {
        round: u16,
    },
    InitiativeDie {
        side: String,
        face: u8,
    },
    InitiativeTied,
    InitiativeWon {
        side: String,
    },
    ActsFirst {
        side: String,
    },
    TurnStarted {
        side: String,
    },
    Moved {
        unit: UnitId,
        name: String,
        to: Dest,
    },
    ReturnedToLine {
        unit: UnitId,
        name: String,
    },
    Attack {
        unit: UnitId,
        name: String,
        target: UnitId,
        target_name: String,
        kind: AttackKind,
        attack_dice: u8,
        defence_dice: u8,
    },
    Die {
        roller: String,
        face: u8,
    },
    Compared {
        attack: u16,
        defence: u16,
        result: String,
    },
    Hit {
        unit: UnitId,
        name: String,
        hits: u8,
        toughness: u8,
    },
    Eliminated {
        unit: UnitId,
        name: String,
    },
    Power {
        unit: UnitId,
        name: String,
        power: Power,
        target: UnitId,
        target_name: String,
    },
    PowerFailed {
        name: String,
    },
    Defected {
        unit: UnitId,
        name: String,
        side: String,
    },
    Revived {
        unit: UnitId,
        name: String,
    },
    ReviveFailed {
        name: String,
    },
    Morale {
        side: String,
        ones: u8,
        sixes: u8,
        surrendered: bool,
    },
    GameOver {
        reason: String,
    },
}

fn other(side: u8) -> u8 {
    1 - side
}

impl Swtb {
    /// Check a setup and derive the fixed part of the game (shakmaty's Setup → Position).
    pub fn check_setup(setup: &Setup) -> Result<Fixed, SetupError> {
        let s = &setup.scenario;
        let o = &setup.options;
        let err = |at: String, m: String| Err(SetupError::new(at, m));
        if s.width == 0 || s.height == 0 || s.width > Grid::MAX_SIDE || s.height > 99 {
            return err(
                "scenario.width".into(),
                "the board must be 1-26 columns by 1-99 rows".into(),
            );
        }
        if s.sides.len() != 2 {
            return err(
                "scenario.sides".into(),
                format!("SWTB is for two sides, found {}", s.sides.len()),
            );
        }
        if s.max_rounds == 0 || s.max_rounds > 200 {
            return err("scenario.max_rounds".into(), "must be 1 to 200".into());
        }
        let grid = Grid {
            kind: o.grid,
            width: s.width,
            height: s.height,
        };
        let mut terrain = vec![Terrain::Open; s.width as usize * s.height as usize];
        for (field, list, t) in [
            ("walls", &s.walls, Terrain::Wall),
            ("hills", &s.hills, Terrain::Hill),
            ("fortified", &s.fortified, Terrain::Fortified),
        ] {
            for (i, c) in list.iter().enumerate() {
                if !grid.contains(*c) {
                    return err(
                        format!("scenario.{field}[{i}]"),
                        format!("{c} is off the {}x{} board", s.width, s.height),
                    );
                }
                terrain[grid.index(*c)] = t;
            }
        }
        let type_keys: Vec<String> = setup.unit_types.keys().cloned().collect();
        let types: Vec<UnitType> = setup.unit_types.values().cloned().collect();
        if types.len() > 255 {
            return err("unit_types".into(), "at most 255 unit types".into());
        }
        for (k, t) in &setup.unit_types {
            for (f, v) in [("dice", t.dice), ("attack_dice", t.attack_dice())] {
                if !(1..=20).contains(&v) {
                    return err(
                        format!("unit_types.{k}.{f}"),
                        "combat dice must be 1 to 20".into(),
                    );
                }
            }
            if t.cost > 1_000_000 {
                return err(
                    format!("unit_types.{k}.cost"),
                    "at most 1000000 points".into(),
                );
            }
            for (f, v) in [
                ("choked_on", t.choked_on),
                ("mind_tricked_on", t.mind_tricked_on),
            ] {
                if matches!(v, Some(n) if !(1..=6).contains(&n)) {
                    return err(format!("unit_types.{k}.{f}"), "must be 1 to 6".into());
                }
            }
        }
        let mut names = Vec::new();
        let mut start = Vec::new();
        let mut occupied = std::collections::BTreeMap::new();
        let mut start_count = [0u8; 2];
        for (si, side) in s.sides.iter().enumerate() {
            let mut cost: u64 = 0;
            for (ui, u) in side.units.iter().enumerate() {
                let at = format!("scenario.sides[{si}].units[{ui}]");
                let Some(ti) = type_keys.iter().position(|k| *k == u.kind) else {
                    return err(
                        format!("{at}.kind"),
                        format!(
                            "no unit type {:?}; types are {}",
                            u.kind,
                            type_keys.join(", ")
                        ),
                    );
                };
                let t = &types[ti];
                if t.class == Class::Gun && !o.artillery {
                    continue; // fixed guns only with the Artillery and AA rule (SWTB-O8)
                }
                cost += u64::from(t.cost);
                match (t.flies(), u.at) {
                    (true, Some(_)) => return err(
                        format!("{at}.at"),
                        "flying units start lined up off the battlefield (SWTB-F1): leave `at` out"
                            .into(),
                    ),
                    (false, None) => {
                        return err(
                            format!("{at}.at"),
                            "ground units need a starting cell".into(),
                        );
                    }
                    (false, Some(c)) => {
                        if !grid.contains(c) {
                            return err(format!("{at}.at"), format!("{c} is off the board"));
                        }
                        if terrain[grid.index(c)] == Terrain::Wall {
                            return err(format!("{at}.at"), format!("{c} is a wall"));
                        }
                        if let Some(prev) = occupied.insert(c, u.name.clone()) {
                            return err(
                                format!("{at}.at"),
                                format!("{c} is already taken by {prev}"),
                            );
                        }
                    }
                    (true, None) => {}
                }
                let power = match u.power {
                    Some(p) if !t.force_user => {
                        return err(
                            format!("{at}.power"),
                            format!("{p:?} needs a Force User (SWTB-O1..O4)"),
                        );
                    }
                    Some(Power::ForceChoke) if side.alignment != Alignment::Dark => {
                        return err(
                            format!("{at}.power"),
                            "Force Choke is a dark side power (SWTB-O2)".into(),
                        );
                    }
                    Some(Power::MindTrick) if side.alignment != Alignment::Light => {
                        return err(
                            format!("{at}.power"),
                            "Mind Trick is a light side power (SWTB-O3)".into(),
                        );
                    }
                    p => p.filter(|_| o.force_powers),
                };
                if names.len() >= 200 {
                    return err(at, "at most 200 units".into());
                }
                names.push(u.name.clone());
                start.push(Unit {
                    kind: ti as u8,
                    side: si as u8,
                    place: u.at.map_or(Place::Line, Place::Field),
                    hits: 0,
                    acted: false,
                    may_attack: false,
                    power,
                    power_used: false,
                    back_to_line: false,
                });
                if t.class != Class::Gun {
                    start_count[si] += 1;
                }
            }
            if o.points && cost > u64::from(s.points) {
                return err(
                    format!("scenario.sides[{si}].units"),
                    format!(
                        "{} costs {cost} points, over the scenario's {} (SWTB-P)",
                        side.name, s.points
                    ),
                );
            }
            if start_count[si] == 0 {
                return err(
                    format!("scenario.sides[{si}].units"),
                    format!("{} has no units", side.name),
                );
            }
        }
        if let Some(Goal::Reach { side, cells } | Goal::Hold { side, cells }) = &s.goal {
            if *side > 1 {
                return err("scenario.goal.side".into(), "side must be 0 or 1".into());
            }
            if let Some(c) = cells.iter().find(|c| !grid.contains(**c)) {
                return err(
                    "scenario.goal.cells".into(),
                    format!("{c} is off the board"),
                );
            }
        }
        Ok(Fixed {
            setup: setup.clone(),
            grid,
            terrain,
            types,
            type_keys,
            names,
            start,
            start_count,
        })
    }

    pub fn new(setup: &Setup) -> Result<Swtb, SetupError> {
        let fixed = Swtb::check_setup(setup)?;
        let mut g = Swtb {
            units: fixed.start.clone(),
            fixed: Arc::new(fixed),
            round: 0,
            first: 0,
            active: 0,
            second_half: false,
            phase: Phase::Turn,
            morale_due: 0,
            halved: [false; 2],
        };
        g.next_power_choice_or_first_round(&mut Vec::new());
        Ok(g)
    }

    /// SWTB-O1..O4: "Each Force User may select one of the following powers". Before the
    /// first round, each Force User the scenario gave no power has its side choose one.
    fn next_power_choice_or_first_round(&mut self, ev: &mut Vec<Event>) {
        let unchosen = self.ids().find(|&u| {
            self.options().force_powers
                && self.ty(u).force_user
                && self.units[u as usize].power.is_none()
        });
        match unchosen {
            Some(unit) => self.phase = Phase::ChoosePower { unit },
            None => self.start_round(ev),
        }
    }

    /// The powers `u`'s side may choose for it: Force Choke is the dark side's, Mind Trick
    /// the light side's (SWTB-O2, SWTB-O3).
    pub fn powers_for(&self, u: UnitId) -> Vec<Power> {
        let side = self.units[u as usize].side as usize;
        let alignment = self.fixed.setup.scenario.sides[side].alignment;
        [
            Power::LightSaberThrow,
            Power::ForceChoke,
            Power::MindTrick,
            Power::DeflectBlasters,
        ]
        .into_iter()
        .filter(|p| match p {
            Power::ForceChoke => alignment == Alignment::Dark,
            Power::MindTrick => alignment == Alignment::Light,
            _ => true,
        })
        .collect()
    }

    // ----- lookups -------------------------------------------------------------------

    pub fn options(&self) -> &Options {
        &self.fixed.setup.options
    }
    pub fn ty(&self, u: UnitId) -> &UnitType {
        &self.fixed.types[self.units[u as usize].kind as usize]
    }
    pub fn name(&self, u: UnitId) -> &str {
        &self.fixed.names[u as usize]
    }
    pub fn side_name(&self, side: u8) -> &str {
        &self.fixed.setup.scenario.sides[side as usize].name
    }
    fn unit(&self, u: UnitId) -> Result<&Unit, Illegal> {
        self.units
            .get(u as usize)
            .ok_or_else(|| Illegal::new(format!("there is no unit u{u}")))
    }
    fn ids(&self) -> impl Iterator<Item = UnitId> + use<> {
        0..self.units.len() as u8
    }
    pub fn cell_of(&self, u: UnitId) -> Option<Cell> {
        match self.units[u as usize].place {
            Place::Field(c) => Some(c),
            _ => None,
        }
    }
    /// In play: on the battlefield or lined up.
    pub fn alive(&self, u: UnitId) -> bool {
        matches!(self.units[u as usize].place, Place::Field(_) | Place::Line)
    }
    fn terrain(&self, c: Cell) -> Terrain {
        self.fixed.terrain[self.fixed.grid.index(c)]
    }
    /// The unit on `c`, if any (fliers on the battlefield included).
    pub fn unit_at(&self, c: Cell) -> Option<UnitId> {
        self.ids()
            .find(|&u| self.units[u as usize].place == Place::Field(c))
    }
    /// Who stands where, and which cells block sight (SWTB-4): worked out once per question
    /// about the board, not once per line traced.
    pub(crate) fn occupancy(&self) -> Occupancy {
        let n = self.fixed.terrain.len();
        let mut occ = Occupancy {
            unit: vec![None; n],
            blocks_sight: vec![false; n],
        };
        for (i, t) in self.fixed.terrain.iter().enumerate() {
            occ.blocks_sight[i] = matches!(t, Terrain::Wall | Terrain::Hill);
        }
        for u in self.ids() {
            if let Place::Field(c) = self.units[u as usize].place {
                let i = self.fixed.grid.index(c);
                occ.unit[i] = Some(u);
                // Fliers on the battlefield are above it and block nothing.
                occ.blocks_sight[i] |= !self.ty(u).flies();
            }
        }
        occ
    }
    pub fn toughness(&self, u: UnitId) -> u8 {
        let t = self.ty(u);
        let o = self.options();
        let mut n = 1;
        if o.tougher_vehicles && t.class == Class::GroundVehicle {
            n = 2; // SWTB-O5: defeated twice before removed
        }
        if o.tougher_everything {
            n = n.max(t.dice); // SWTB-O6: as many hits as combat dice
        }
        n
    }
    fn has_power(&self, u: UnitId, p: Power) -> bool {
        self.units[u as usize].power == Some(p)
    }
    pub fn points_left(&self, side: u8) -> i64 {
        self.ids()
            .filter(|&u| self.units[u as usize].side == side && self.alive(u))
            .map(|u| self.ty(u).cost as i64)
            .sum()
    }
    fn army_count(&self, side: u8) -> u8 {
        self.ids()
            .filter(|&u| {
                self.units[u as usize].side == side
                    && self.alive(u)
                    && self.ty(u).class != Class::Gun
            })
            .count() as u8
    }

    // ----- rounds and turns ----------------------------------------------------------

    /// SWTB-1: every round each side rolls 1d6 per Force User. Our default for a side with
    /// none: it rolls no dice (and so loses unless neither side has one, when each rolls one).
    fn start_round(&mut self, ev: &mut Vec<Event>) {
        self.round += 1;
        ev.push(Event::RoundStarted { round: self.round });
        self.phase = self.initiative(ev);
    }

    fn initiative(&self, ev: &mut Vec<Event>) -> Phase {
        let fu = |s: u8| {
            self.ids()
                .filter(|&u| {
                    self.units[u as usize].side == s && self.alive(u) && self.ty(u).force_user
                })
                .count()
                .min(20) as u8
        };
        match [fu(0), fu(1)] {
            [0, 0] => Phase::Initiative {
                left: [1, 1],
                best: [0, 0],
            },
            [0, _] => self.initiative_won(1, ev),
            [_, 0] => self.initiative_won(0, ev),
            left => Phase::Initiative { left, best: [0, 0] },
        }
    }

    fn initiative_won(&self, side: u8, ev: &mut Vec<Event>) -> Phase {
        ev.push(Event::InitiativeWon {
            side: self.side_name(side).into(),
        });
        Phase::ChooseFirst { winner: side }
    }

    fn start_turn(&mut self, side: u8, ev: &mut Vec<Event>) {
        self.active = side;
        self.phase = Phase::Turn;
        ev.push(Event::TurnStarted {
            side: self.side_name(side).into(),
        });
        for u in self.ids() {
            let unit = &mut self.units[u as usize];
            if unit.side != side {
                continue;
            }
            unit.acted = false;
            unit.may_attack = false;
        }
    }

    fn end_turn(&mut self, ev: &mut Vec<Event>) {
        // SWTB-F1: a flier that made a ground attack stays on the battlefield "for the
        // opponents turn"; when that turn ends, it goes back to its line.
        let ending = self.active;
        for u in self.ids() {
            let unit = &mut self.units[u as usize];
            if unit.side != ending && unit.back_to_line {
                unit.back_to_line = false;
                if let Place::Field(_) = unit.place {
                    unit.place = Place::Line;
                    ev.push(Event::ReturnedToLine {
                        unit: u,
                        name: self.fixed.names[u as usize].clone(),
                    });
                }
            }
        }
        if !self.second_half {
            self.second_half = true;
            self.start_turn(other(self.first), ev);
            return;
        }
        if self.round >= self.fixed.setup.scenario.max_rounds {
            self.end_by_round_limit(ev);
            return;
        }
        self.second_half = false;
        self.start_round(ev);
    }

    fn end_by_round_limit(&mut self, ev: &mut Vec<Event>) {
        let on = |side: u8, cells: &[Cell]| {
            self.ids().any(|u| {
                self.units[u as usize].side == side
                    && matches!(self.units[u as usize].place, Place::Field(c) if cells.contains(&c))
                    && !self.ty(u).flies()
            })
        };
        let (winner, reason) = match &self.fixed.setup.scenario.goal {
            Some(Goal::Hold { side, cells }) => {
                if on(*side, cells) && !on(other(*side), cells) {
                    (
                        Some(*side),
                        format!("{} hold the objective", self.side_name(*side)),
                    )
                } else {
                    (
                        Some(other(*side)),
                        format!("{} kept the objective", self.side_name(other(*side))),
                    )
                }
            }
            Some(Goal::Reach { side, .. }) => (
                Some(other(*side)),
                format!("{} never got through", self.side_name(*side)),
            ),
            None => {
                let (a, b) = (self.points_left(0), self.points_left(1));
                match a.cmp(&b) {
                    std::cmp::Ordering::Greater => (
                        Some(0),
                        format!(
                            "{} have more points left after the last round",
                            self.side_name(0)
                        ),
                    ),
                    std::cmp::Ordering::Less => (
                        Some(1),
                        format!(
                            "{} have more points left after the last round",
                            self.side_name(1)
                        ),
                    ),
                    std::cmp::Ordering::Equal => {
                        (None, "a draw: equal points after the last round".into())
                    }
                }
            }
        };
        self.game_over(winner, reason, ev);
    }

    fn game_over(&mut self, winner: Option<u8>, reason: String, ev: &mut Vec<Event>) {
        ev.push(Event::GameOver {
            reason: reason.clone(),
        });
        self.phase = Phase::Over { winner, reason };
    }

    pub fn result(&self) -> Option<GameResult> {
        let Phase::Over { winner, reason } = &self.phase else {
            return None;
        };
        let scores = vec![self.points_left(0), self.points_left(1)];
        let ranks = match winner {
            Some(0) => vec![1, 2],
            Some(_) => vec![2, 1],
            None => vec![1, 1],
        };
        Some(GameResult {
            scores,
            ranks,
            reason: reason.clone(),
            cooperative: None,
        })
    }

    // ----- what may be done ------------------------------------------------------------

    /// Cells a ground unit can reach with its move (SWTB-2): through empty cells and friends,
    /// never through walls or enemies, ending on an empty cell.
    fn reachable(&self, u: UnitId, occ: &Occupancy) -> Vec<Cell> {
        let Some(start) = self.cell_of(u) else {
            return vec![];
        };
        let g = &self.fixed.grid;
        let steps = self.ty(u).r#move;
        let side = self.units[u as usize].side;
        let mut dist = vec![u8::MAX; occ.unit.len()];
        dist[g.index(start)] = 0;
        // Breadth-first from the start; a queue of cells in order of distance.
        let mut queue = Vec::with_capacity(occ.unit.len());
        queue.push(start);
        let mut head = 0;
        while head < queue.len() {
            let c = queue[head];
            head += 1;
            let d = dist[g.index(c)];
            if d >= steps {
                continue;
            }
            for n in g.neighbours(c) {
                let i = g.index(n);
                if dist[i] != u8::MAX || self.fixed.terrain[i] == Terrain::Wall {
                    continue;
                }
                let passable = match occ.unit[i] {
                    None => true,
                    Some(o) => self.units[o as usize].side == side || self.ty(o).flies(),
                };
                if passable {
                    dist[i] = d + 1;
                    queue.push(n);
                }
            }
        }
        // Destinations in board order (row by row): reached, and empty.
        let mut out: Vec<Cell> = queue[1..]
            .iter()
            .copied()
            .filter(|c| occ.unit[g.index(*c)].is_none())
            .collect();
        out.sort_unstable_by_key(|c| g.index(*c));
        out
    }

    /// SWTB-4: blasters cannot shoot through figures, walls, hills or vehicles. Fliers on the
    /// battlefield are above it and block nothing.
    fn clear_line(&self, a: Cell, b: Cell, occ: &Occupancy) -> bool {
        let g = &self.fixed.grid;
        g.clear_line(a, b, |c| occ.blocks_sight[g.index(c)])
    }

    fn can_start(&self, u: UnitId) -> Result<(), Illegal> {
        let unit = self.unit(u)?;
        if unit.side != self.active {
            return Err(Illegal::new(format!("{} is not yours", self.name(u))));
        }
        if !self.alive(u) {
            return Err(Illegal::new(format!("{} is out of the game", self.name(u))));
        }
        Ok(())
    }

    /// The kind of attack `u` would make on `target`, or why it may not (SWTB-2..6, F, V).
    pub fn attack_kind(
        &self,
        u: UnitId,
        target: UnitId,
        occ: &Occupancy,
    ) -> Result<AttackKind, Illegal> {
        self.can_start(u)?;
        self.unit(target)?;
        self.attack_rule(u, target, occ)
            .map_err(|why| self.explain(why, u, target))
    }

    /// The attack rules without building messages (legal-action generation asks this for
    /// every pair of units). `u` and `target` must exist and `u` must be the active side's.
    fn attack_rule(&self, u: UnitId, target: UnitId, occ: &Occupancy) -> Result<AttackKind, Why> {
        let unit = self.units[u as usize];
        let t = self.ty(u);
        let tgt = self.units[target as usize];
        if tgt.side == unit.side {
            return Err(Why::SameSide);
        }
        if !self.alive(target) {
            return Err(Why::TargetOut);
        }
        if t.weapon == Weapon::None {
            return Err(Why::NoWeapon);
        }
        if t.crewed {
            return Err(Why::UseFire);
        }
        let after_move = unit.acted && unit.may_attack;
        if unit.acted && !unit.may_attack {
            return Err(Why::Acted);
        }
        let tgt_flies = self.ty(target).flies();
        if t.flies() {
            // Ships/Flying Units: one of three attacks per turn.
            return Ok(match (tgt_flies, tgt.place) {
                (true, Place::Line) => AttackKind::Dogfight,
                (true, _) => AttackKind::Intercept,
                (false, _) => AttackKind::GroundAttack,
            });
        }
        let (Some(from), Place::Field(to)) = (self.cell_of(u), tgt.place) else {
            return Err(Why::OffField);
        };
        if tgt_flies && !t.attacks_fliers {
            return Err(Why::NoFliers);
        }
        if !tgt_flies && !t.attacks_ground {
            return Err(Why::OnlyFliers);
        }
        let dist = self.fixed.grid.distance(from, to);
        if after_move {
            // SWTB-2: moving into contact with an enemy allows an attack, on a unit in contact.
            return if dist == 1 {
                Ok(AttackKind::Melee)
            } else {
                Err(Why::NotInContact)
            };
        }
        match t.weapon {
            Weapon::LightSaber => {
                let throw = self.has_power(u, Power::LightSaberThrow);
                match (dist, throw) {
                    (1, _) => Ok(AttackKind::Melee),
                    // SWTB-O1: a thrown light saber reaches one space away.
                    (2, true) if self.clear_line(from, to, occ) => Ok(AttackKind::Melee),
                    (2, true) => Err(Why::ThrowBlocked),
                    (_, true) => Err(Why::ThrowReach),
                    (_, false) => Err(Why::SaberReach),
                }
            }
            _ => {
                if dist > 1 && !self.clear_line(from, to, occ) {
                    return Err(Why::NoLine(from, to));
                }
                Ok(if dist == 1 {
                    AttackKind::Melee
                } else {
                    AttackKind::Shot
                })
            }
        }
    }

    fn explain(&self, why: Why, u: UnitId, target: UnitId) -> Illegal {
        let (n, tn, ty) = (self.name(u), self.name(target), &self.ty(u).name);
        match why {
            Why::SameSide => Illegal::new(format!("{tn} is on your side")),
            Why::TargetOut => Illegal::new(format!("{tn} is out of the game")),
            Why::NoWeapon => Illegal::by("SWTB-U2", format!("{n} may not attack, only defend")),
            Why::UseFire => {
                Illegal::by("SWTB-O8", "a fixed gun fires with `fire`, naming its crew")
            }
            Why::Acted => Illegal::by("SWTB-2", format!("{n} has already acted this turn")),
            Why::OffField => Illegal::by(
                "SWTB-F3",
                format!("{tn} is off the battlefield; only fliers can reach it (dogfight)"),
            ),
            Why::NoFliers => Illegal::by("SWTB-6", format!("{ty} may not attack flying units")),
            Why::OnlyFliers => Illegal::by("SWTB-O8", format!("{ty} fires only at flying units")),
            Why::NotInContact => Illegal::by(
                "SWTB-2",
                format!("{n} moved this turn and may only attack a unit in contact"),
            ),
            Why::SaberReach => Illegal::by("SWTB-5", "light sabers only attack figures in contact"),
            Why::ThrowReach => Illegal::by(
                "SWTB-O1",
                "a thrown light saber reaches one space away at most",
            ),
            Why::ThrowBlocked => Illegal::by("SWTB-O1", "the throw is blocked"),
            Why::NoLine(a, b) => Illegal::by("SWTB-4", format!("no clear line from {a} to {b}")),
        }
    }

    fn check_move(&self, u: UnitId, to: Dest, occ: &Occupancy) -> Result<(), Illegal> {
        self.can_start(u)?;
        let unit = self.units[u as usize];
        if unit.acted {
            return Err(Illegal::by(
                "SWTB-2",
                format!("{} has already acted this turn", self.name(u)),
            ));
        }
        let t = self.ty(u);
        if t.flies() {
            // SWTB-F2: flying units may move anywhere on the battlefield.
            return match to {
                Dest::Line if unit.place == Place::Line => {
                    Err(Illegal::new("it is already on the line"))
                }
                Dest::Line => Ok(()),
                Dest::Cell(c) => {
                    if !self.fixed.grid.contains(c) {
                        Err(Illegal::new(format!("{c} is off the board")))
                    } else if occ.unit[self.fixed.grid.index(c)].is_some() {
                        Err(Illegal::new(format!("{c} is taken")))
                    } else if self.terrain(c) == Terrain::Wall {
                        Err(Illegal::by("SWTB-F2", format!("{c} is a wall")))
                    } else {
                        Ok(())
                    }
                }
            };
        }
        let Dest::Cell(c) = to else {
            return Err(Illegal::by(
                "SWTB-F1",
                "only flying units line up off the battlefield",
            ));
        };
        if t.r#move == 0 {
            return Err(Illegal::by(
                "SWTB-O8",
                format!("{} is fixed in place", t.name),
            ));
        }
        if !self.fixed.grid.contains(c) {
            return Err(Illegal::new(format!("{c} is off the board")));
        }
        if occ.unit[self.fixed.grid.index(c)].is_some() {
            return Err(Illegal::by("SWTB-2", format!("{c} is taken")));
        }
        if !self.reachable(u, occ).contains(&c) {
            return Err(Illegal::by(
                "SWTB-U1",
                format!(
                    "{} cannot reach {c} with a move of {}",
                    self.name(u),
                    t.r#move
                ),
            ));
        }
        Ok(())
    }

    /// Where flier `u` may end up to ground-attack `target` (SWTB-F1): a cell beside the
    /// target that is empty (or where the flier already is), and not a wall.
    fn landing_cells(&self, u: UnitId, target: UnitId, occ: &Occupancy) -> Vec<Cell> {
        let Some(c) = self.cell_of(target) else {
            return vec![];
        };
        let g = &self.fixed.grid;
        g.neighbours(c)
            .into_iter()
            .filter(|n| {
                let i = g.index(*n);
                occ.unit[i].is_none_or(|o| o == u) && self.fixed.terrain[i] != Terrain::Wall
            })
            .collect()
    }

    fn check_attack(
        &self,
        u: UnitId,
        target: UnitId,
        land: Option<Cell>,
        occ: &Occupancy,
    ) -> Result<AttackKind, Illegal> {
        let kind = self.attack_kind(u, target, occ)?;
        match (kind, land) {
            (AttackKind::GroundAttack, Some(c))
                if !self.landing_cells(u, target, occ).contains(&c) =>
            {
                return Err(Illegal::by(
                    "SWTB-F1",
                    format!("{c} is not an empty cell beside {}", self.name(target)),
                ));
            }
            (AttackKind::GroundAttack, Some(_)) => {}
            (AttackKind::GroundAttack, None) => {
                return Err(Illegal::by(
                    "SWTB-F1",
                    "a ground attack names the cell beside the target where the flier ends up (`from CELL`)",
                ));
            }
            (_, Some(_)) => return Err(Illegal::new("only a flier's ground attack names a cell")),
            _ => {}
        }
        Ok(kind)
    }

    fn check_fire(
        &self,
        gun: UnitId,
        target: UnitId,
        crew: UnitId,
        occ: &Occupancy,
    ) -> Result<(), Illegal> {
        self.can_start(gun)?;
        let t = self.ty(gun);
        if !t.crewed {
            return Err(Illegal::new(format!(
                "{} is not a fixed gun; use `attack`",
                self.name(gun)
            )));
        }
        if self.units[gun as usize].acted {
            return Err(Illegal::by("SWTB-2", "the gun has already fired this turn"));
        }
        self.can_start(crew)?;
        let c = self.units[crew as usize];
        let (Some(gc), Some(cc)) = (self.cell_of(gun), self.cell_of(crew)) else {
            return Err(Illegal::by(
                "SWTB-O8",
                "gun and crew must be on the battlefield",
            ));
        };
        if !self.ty(crew).crew || c.acted || !self.fixed.grid.adjacent(gc, cc) {
            return Err(Illegal::by(
                "SWTB-O8",
                format!(
                    "{} needs an adjacent trooper who has not acted to fire",
                    self.name(gun)
                ),
            ));
        }
        let tgt = *self.unit(target)?;
        if tgt.side == self.active || !self.alive(target) {
            return Err(Illegal::new(format!(
                "{} is not an enemy in play",
                self.name(target)
            )));
        }
        let Place::Field(tc) = tgt.place else {
            return Err(Illegal::by(
                "SWTB-F3",
                "guns cannot reach fliers off the battlefield",
            ));
        };
        let flies = self.ty(target).flies();
        if flies && !t.attacks_fliers {
            return Err(Illegal::by(
                "SWTB-O8",
                format!("{} cannot fire at flying units", t.name),
            ));
        }
        if !flies && !t.attacks_ground {
            return Err(Illegal::by(
                "SWTB-O8",
                format!("{} fires only at flying units", t.name),
            ));
        }
        if !self.clear_line(gc, tc, occ) {
            return Err(Illegal::by(
                "SWTB-4",
                format!("no clear line from {gc} to {tc}"),
            ));
        }
        Ok(())
    }

    /// SWTB-O2 / SWTB-O3: once, on an adjacent unit. Returns the die needed.
    fn check_power(&self, u: UnitId, target: UnitId, p: Power) -> Result<u8, Illegal> {
        self.can_start(u)?;
        let rule = if p == Power::ForceChoke {
            "SWTB-O2"
        } else {
            "SWTB-O3"
        };
        if !self.has_power(u, p) {
            return Err(Illegal::by(
                rule,
                format!(
                    "{} does not have that power (force powers are an option)",
                    self.name(u)
                ),
            ));
        }
        let unit = self.units[u as usize];
        if unit.acted {
            return Err(Illegal::by(
                "SWTB-2",
                format!("{} has already acted this turn", self.name(u)),
            ));
        }
        if unit.power_used {
            return Err(Illegal::by(rule, "the power can be used once"));
        }
        let tgt = *self.unit(target)?;
        if tgt.side == unit.side || !self.alive(target) {
            return Err(Illegal::new(format!(
                "{} is not an enemy in play",
                self.name(target)
            )));
        }
        let adjacent = matches!((self.cell_of(u), tgt.place), (Some(a), Place::Field(b)) if self.fixed.grid.adjacent(a, b));
        if !adjacent {
            return Err(Illegal::by(rule, "range: adjacent"));
        }
        let tt = self.ty(target);
        let need = if p == Power::ForceChoke {
            tt.choked_on
        } else {
            tt.mind_tricked_on
        };
        need.ok_or_else(|| Illegal::by(rule, format!("ineffective against a {}", tt.name)))
    }

    fn check_revive(&self, u: UnitId, fallen: UnitId) -> Result<(), Illegal> {
        self.can_start(u)?;
        if !self.ty(u).reviver {
            return Err(Illegal::by(
                "SWTB-U2",
                format!("{} cannot revive", self.name(u)),
            ));
        }
        if self.units[u as usize].acted {
            return Err(Illegal::by(
                "SWTB-2",
                format!("{} has already acted this turn", self.name(u)),
            ));
        }
        let f = *self.unit(fallen)?;
        let Place::Fallen(fc) = f.place else {
            return Err(Illegal::by(
                "SWTB-U2",
                format!("{} has not fallen", self.name(fallen)),
            ));
        };
        if f.side != self.active {
            return Err(Illegal::by(
                "SWTB-U2",
                "droids revive their own side's fallen",
            ));
        }
        let near = self
            .cell_of(u)
            .is_some_and(|c| self.fixed.grid.adjacent(c, fc));
        if !near {
            return Err(Illegal::by("SWTB-U2", "the fallen unit must be adjacent"));
        }
        if self.unit_at(fc).is_some() {
            return Err(Illegal::by(
                "SWTB-U2",
                format!("{fc}, where it fell, is taken"),
            ));
        }
        Ok(())
    }

    pub fn check_action(&self, a: &Action) -> Result<(), Illegal> {
        match (&self.phase, a) {
            (Phase::Over { .. }, _) => Err(Illegal::new("the game is over")),
            (Phase::ChooseFirst { .. }, Action::First { side }) => {
                if *side > 1 {
                    Err(Illegal::new("side must be 0 or 1"))
                } else {
                    Ok(())
                }
            }
            (Phase::ChoosePower { unit }, Action::ChoosePower { unit: u, power }) => {
                if u != unit {
                    Err(Illegal::by(
                        "SWTB-O1",
                        format!("it is {}'s power that is being chosen", self.name(*unit)),
                    ))
                } else if !self.powers_for(*unit).contains(power) {
                    Err(Illegal::by(
                        if *power == Power::ForceChoke {
                            "SWTB-O2"
                        } else {
                            "SWTB-O3"
                        },
                        format!(
                            "the {} cannot choose {power:?}",
                            self.side_name(self.units[*unit as usize].side)
                        ),
                    ))
                } else {
                    Ok(())
                }
            }
            (Phase::ChoosePower { unit }, _) => Err(Illegal::by(
                "SWTB-O1",
                format!("first choose {}'s force power", self.name(*unit)),
            )),
            (Phase::ChooseFirst { .. }, _) => Err(Illegal::by(
                "SWTB-1",
                "the initiative winner must first choose who acts first",
            )),
            (Phase::Turn, a) => {
                let occ = self.occupancy();
                match *a {
                    Action::First { .. } => {
                        Err(Illegal::by("SWTB-1", "initiative is already decided"))
                    }
                    Action::ChoosePower { .. } => Err(Illegal::by(
                        "SWTB-O1",
                        "powers are chosen before the first round",
                    )),
                    Action::Move { unit, to } => self.check_move(unit, to, &occ),
                    Action::Attack { unit, target, land } => {
                        self.check_attack(unit, target, land, &occ).map(|_| ())
                    }
                    Action::Fire { gun, target, crew } => self.check_fire(gun, target, crew, &occ),
                    Action::Choke { unit, target } => self
                        .check_power(unit, target, Power::ForceChoke)
                        .map(|_| ()),
                    Action::MindTrick { unit, target } => {
                        self.check_power(unit, target, Power::MindTrick).map(|_| ())
                    }
                    Action::Revive { unit, fallen } => self.check_revive(unit, fallen),
                    Action::EndTurn => Ok(()),
                }
            }
            _ => Err(Illegal::new("waiting for a die")),
        }
    }

    pub fn legal(&self) -> Vec<Action> {
        match self.phase {
            Phase::ChooseFirst { .. } => {
                return vec![Action::First { side: 0 }, Action::First { side: 1 }];
            }
            Phase::ChoosePower { unit } => {
                return self
                    .powers_for(unit)
                    .into_iter()
                    .map(|power| Action::ChoosePower { unit, power })
                    .collect();
            }
            Phase::Turn => {}
            _ => return vec![],
        }
        let occ = self.occupancy();
        let g = &self.fixed.grid;
        let mut out = Vec::new();
        let side = self.active;
        let mine: Vec<UnitId> = self
            .ids()
            .filter(|&u| self.units[u as usize].side == side && self.alive(u))
            .collect();
        let enemies: Vec<UnitId> = self
            .ids()
            .filter(|&u| self.units[u as usize].side != side && self.alive(u))
            .collect();
        for &u in &mine {
            let unit = self.units[u as usize];
            let t = self.ty(u);
            if unit.acted && !unit.may_attack {
                continue;
            }
            if !unit.acted {
                if t.flies() {
                    if unit.place != Place::Line {
                        out.push(Action::Move {
                            unit: u,
                            to: Dest::Line,
                        });
                    }
                    for c in g.cells() {
                        let i = g.index(c);
                        if occ.unit[i].is_none() && self.fixed.terrain[i] != Terrain::Wall {
                            out.push(Action::Move {
                                unit: u,
                                to: Dest::Cell(c),
                            });
                        }
                    }
                } else if t.r#move > 0 {
                    for c in self.reachable(u, &occ) {
                        out.push(Action::Move {
                            unit: u,
                            to: Dest::Cell(c),
                        });
                    }
                }
            }
            if t.crewed {
                if !unit.acted {
                    let crew = mine.iter().copied().find(|&c| {
                        self.ty(c).crew && !self.units[c as usize].acted
                            && matches!((self.cell_of(c), self.cell_of(u)), (Some(a), Some(b)) if g.adjacent(a, b))
                    });
                    if let Some(crew) = crew {
                        for &e in &enemies {
                            if self.check_fire(u, e, crew, &occ).is_ok() {
                                out.push(Action::Fire {
                                    gun: u,
                                    target: e,
                                    crew,
                                });
                            }
                        }
                    }
                }
                continue;
            }
            for &e in &enemies {
                match self.attack_rule(u, e, &occ) {
                    Ok(AttackKind::GroundAttack) => {
                        if let Some(&c) = self.landing_cells(u, e, &occ).first() {
                            out.push(Action::Attack {
                                unit: u,
                                target: e,
                                land: Some(c),
                            });
                        }
                    }
                    Ok(_) => out.push(Action::Attack {
                        unit: u,
                        target: e,
                        land: None,
                    }),
                    Err(_) => {}
                }
            }
            if !unit.acted {
                for p in [Power::ForceChoke, Power::MindTrick] {
                    if self.has_power(u, p) && !unit.power_used {
                        for &e in &enemies {
                            if self.check_power(u, e, p).is_ok() {
                                out.push(match p {
                                    Power::ForceChoke => Action::Choke { unit: u, target: e },
                                    _ => Action::MindTrick { unit: u, target: e },
                                });
                            }
                        }
                    }
                }
                if t.reviver {
                    for f in self.ids() {
                        if self.check_revive(u, f).is_ok() {
                            out.push(Action::Revive { unit: u, fallen: f });
                        }
                    }
                }
            }
        }
        out.push(Action::EndTurn);
        out
    }

    // ----- doing it ----------------------------------------------------------------------

    pub fn act(&mut self, a: &Action, ev: &mut Vec<Event>) {
        match *a {
            Action::First { side } => {
                ev.push(Event::ActsFirst {
                    side: self.side_name(side).into(),
                });
                self.first = side;
                self.second_half = false;
                self.start_turn(side, ev);
            }
            Action::ChoosePower { unit, power } => {
                self.units[unit as usize].power = Some(power);
                ev.push(Event::PowerChosen {
                    unit,
                    name: self.name(unit).into(),
                    power,
                });
                self.next_power_choice_or_first_round(ev);
            }
            Action::EndTurn => self.end_turn(ev),
            Action::Move { unit, to } => {
                let name = self.fixed.names[unit as usize].clone();
                let u = &mut self.units[unit as usize];
                u.acted = true;
                u.back_to_line = false; // a flier that moves on is where it moved to
                u.place = match to {
                    Dest::Cell(c) => Place::Field(c),
                    Dest::Line => Place::Line,
                };
                ev.push(Event::Moved { unit, name, to });
                if let Dest::Cell(c) = to {
                    // SWTB-2: a figure that moves into contact with an enemy may attack.
                    let g = &self.fixed.grid;
                    let contact = self.ty(unit).class == Class::Figure
                        && self.ty(unit).weapon != Weapon::None
                        && self.ids().any(|e| {
                            self.units[e as usize].side != self.active
                                && matches!(self.units[e as usize].place, Place::Field(ec) if g.adjacent(c, ec))
                        });
                    self.units[unit as usize].may_attack = contact;
                    // Scenario goal: reaching the objective wins at once.
                    if let Some(Goal::Reach { side, cells }) = &self.fixed.setup.scenario.goal
                        && *side == self.active
                        && cells.contains(&c)
                        && !self.ty(unit).flies()
                    {
                        let reason = format!(
                            "{} reached the objective with {}",
                            self.side_name(*side),
                            self.name(unit)
                        );
                        self.game_over(Some(*side), reason, ev);
                    }
                }
            }
            Action::Attack { unit, target, land } => {
                let occ = self.occupancy();
                let Ok(kind) = self.attack_kind(unit, target, &occ) else {
                    return;
                };
                if let (AttackKind::GroundAttack, Some(c)) = (kind, land) {
                    // SWTB-F1: move the flier adjacent to the ground unit it attacks.
                    self.units[unit as usize].place = Place::Field(c);
                    ev.push(Event::Moved {
                        unit,
                        name: self.name(unit).into(),
                        to: Dest::Cell(c),
                    });
                }
                self.begin_combat(kind, unit, target, ev);
            }
            Action::Fire { gun, target, crew } => {
                self.units[crew as usize].acted = true; // the crew's action is to fire the gun
                self.units[crew as usize].may_attack = false;
                self.begin_combat(AttackKind::Shot, gun, target, ev);
            }
            Action::Choke { unit, target } | Action::MindTrick { unit, target } => {
                let power = if matches!(a, Action::Choke { .. }) {
                    Power::ForceChoke
                } else {
                    Power::MindTrick
                };
                let need = self.check_power(unit, target, power).unwrap_or(1);
                let u = &mut self.units[unit as usize];
                u.acted = true;
                u.power_used = true;
                ev.push(Event::Power {
                    unit,
                    name: self.name(unit).into(),
                    power,
                    target,
                    target_name: self.name(target).into(),
                });
                if need <= 1 {
                    self.power_works(power, unit, target, ev);
                    self.after_resolution(ev);
                } else {
                    self.phase = Phase::PowerDie {
                        user: unit,
                        target,
                        power,
                        need,
                    };
                }
            }
            Action::Revive { unit, fallen } => {
                self.units[unit as usize].acted = true;
                self.phase = Phase::ReviveDie {
                    droid: unit,
                    fallen,
                };
            }
        }
    }

    fn begin_combat(
        &mut self,
        kind: AttackKind,
        attacker: UnitId,
        target: UnitId,
        ev: &mut Vec<Event>,
    ) {
        let a = &mut self.units[attacker as usize];
        a.acted = true;
        a.may_attack = false;
        let at = self.ty(attacker);
        let o = self.options();
        let mut def_dice = self.ty(target).dice;
        // SWTB-O7: units defending from fortified positions add 1d6.
        if o.fortified
            && self
                .cell_of(target)
                .is_some_and(|c| self.terrain(c) == Terrain::Fortified)
        {
            def_dice += 1;
        }
        let c = Combat {
            kind,
            attacker,
            target,
            att_dice: at.attack_dice(),
            def_dice,
            att_rolled: 0,
            extra_owed: 0,
            def_rolled: 0,
            att: 0,
            def: 0,
            thermal: o.thermal_detonators && at.thermal_detonators,
        };
        ev.push(Event::Attack {
            unit: attacker,
            name: self.name(attacker).into(),
            target,
            target_name: self.name(target).into(),
            kind,
            attack_dice: c.att_dice,
            defence_dice: c.def_dice,
        });
        self.phase = Phase::Combat(c);
    }

    pub fn chance(&self) -> Option<Chance> {
        let what = match &self.phase {
            Phase::Initiative { left, .. } => {
                let s = if left[0] > 0 { 0 } else { 1 };
                format!("{}: initiative die", self.side_name(s))
            }
            Phase::Combat(c) => {
                if c.att_rolled < c.att_dice {
                    format!(
                        "{}: attack die {} of {}",
                        self.name(c.attacker),
                        c.att_rolled + 1,
                        c.att_dice
                    )
                } else if c.extra_owed > 0 {
                    format!("{}: thermal detonator die", self.name(c.attacker))
                } else {
                    format!(
                        "{}: defence die {} of {}",
                        self.name(c.target),
                        c.def_rolled + 1,
                        c.def_dice
                    )
                }
            }
            Phase::PowerDie {
                user, power, need, ..
            } => {
                format!("{}: {:?} die (needs {need}+)", self.name(*user), power)
            }
            Phase::ReviveDie { droid, .. } => {
                format!("{}: revival die (needs 5+)", self.name(*droid))
            }
            Phase::Morale { side, left, .. } => {
                format!("{}: morale die ({left} to roll)", self.side_name(*side))
            }
            _ => return None,
        };
        Some(Chance::die(what, 6))
    }

    pub fn roll(&mut self, face: u32, ev: &mut Vec<Event>) {
        let f = face as u8;
        match &mut self.phase {
            Phase::Initiative { left, best } => {
                let s = if left[0] > 0 { 0 } else { 1 };
                left[s] -= 1;
                best[s] = best[s].max(f);
                let (left, best) = (*left, *best);
                ev.push(Event::InitiativeDie {
                    side: self.side_name(s as u8).into(),
                    face: f,
                });
                if left == [0, 0] {
                    if best[0] == best[1] {
                        // Our default: a tie is rolled again.
                        ev.push(Event::InitiativeTied);
                        self.phase = self.initiative(ev);
                    } else {
                        let w = if best[0] > best[1] { 0 } else { 1 };
                        self.phase = self.initiative_won(w, ev);
                    }
                }
            }
            Phase::Combat(c) => {
                let highest = self.fixed.setup.options.contest == Contest::Highest;
                let add = |total: &mut u16, f: u8, highest: bool| {
                    if highest {
                        *total = (*total).max(f as u16)
                    } else {
                        *total += f as u16
                    }
                };
                let roller;
                if c.att_rolled < c.att_dice {
                    c.att_rolled += 1;
                    add(&mut c.att, f, highest);
                    // SWTB-O9: a 6 on a trooper's or hero's attack roll adds another 1d6.
                    if c.thermal && f == 6 {
                        c.extra_owed += 1;
                    }
                    roller = format!("{} (attack)", self.fixed.names[c.attacker as usize]);
                } else if c.extra_owed > 0 {
                    c.extra_owed -= 1;
                    c.att += f as u16; // added to the roll whatever the contest
                    roller = format!(
                        "{} (thermal detonator)",
                        self.fixed.names[c.attacker as usize]
                    );
                } else {
                    c.def_rolled += 1;
                    add(&mut c.def, f, highest);
                    roller = format!("{} (defence)", self.fixed.names[c.target as usize]);
                }
                ev.push(Event::Die { roller, face: f });
                let c = *c;
                if c.att_rolled == c.att_dice && c.extra_owed == 0 && c.def_rolled == c.def_dice {
                    self.resolve_combat(c, ev);
                }
            }
            Phase::PowerDie {
                user,
                target,
                power,
                need,
            } => {
                let (user, target, power, need) = (*user, *target, *power, *need);
                ev.push(Event::Die {
                    roller: format!("{} ({power:?})", self.name(user)),
                    face: f,
                });
                if f >= need {
                    self.power_works(power, user, target, ev);
                } else {
                    ev.push(Event::PowerFailed {
                        name: self.name(user).into(),
                    });
                }
                self.after_resolution(ev);
            }
            Phase::ReviveDie { droid, fallen } => {
                let (droid, fallen) = (*droid, *fallen);
                ev.push(Event::Die {
                    roller: format!("{} (revive)", self.name(droid)),
                    face: f,
                });
                if f >= 5 {
                    let u = &mut self.units[fallen as usize];
                    if let Place::Fallen(c) = u.place {
                        u.place = Place::Field(c);
                    }
                    u.hits = 0;
                    u.acted = true;
                    ev.push(Event::Revived {
                        unit: fallen,
                        name: self.name(fallen).into(),
                    });
                } else {
                    ev.push(Event::ReviveFailed {
                        name: self.name(droid).into(),
                    });
                }
                self.after_resolution(ev);
            }
            Phase::Morale {
                side,
                left,
                ones,
                sixes,
            } => {
                *left -= 1;
                if f == 1 {
                    *ones += 1;
                }
                if f == 6 {
                    *sixes += 1;
                }
                let (side, left, ones, sixes) = (*side, *left, *ones, *sixes);
                ev.push(Event::Die {
                    roller: format!("{} (morale)", self.side_name(side)),
                    face: f,
                });
                if left == 0 {
                    // SWTB-O10: more ones than sixes and the force surrenders.
                    let surrendered = ones > sixes;
                    ev.push(Event::Morale {
                        side: self.side_name(side).into(),
                        ones,
                        sixes,
                        surrendered,
                    });
                    if surrendered {
                        let reason = format!("{} surrendered", self.side_name(side));
                        self.game_over(Some(other(side)), reason, ev);
                    } else {
                        self.after_resolution(ev);
                    }
                }
            }
            _ => {}
        }
    }

    /// SWTB-3 and the flier attacks: who won, and what that does.
    fn resolve_combat(&mut self, c: Combat, ev: &mut Vec<Event>) {
        let ord = c.att.cmp(&c.def);
        let result = match ord {
            std::cmp::Ordering::Greater => "attacker wins",
            std::cmp::Ordering::Less => "defender wins",
            std::cmp::Ordering::Equal => "tie",
        };
        ev.push(Event::Compared {
            attack: c.att,
            defence: c.def,
            result: result.into(),
        });
        if ord == std::cmp::Ordering::Equal && self.options().ties == Ties::Reroll {
            self.phase = Phase::Combat(Combat {
                att_rolled: 0,
                def_rolled: 0,
                extra_owed: 0,
                att: 0,
                def: 0,
                ..c
            });
            return;
        }
        let to_line = |g: &mut Swtb, u: UnitId, ev: &mut Vec<Event>| {
            if g.alive(u) && g.units[u as usize].place != Place::Line {
                g.units[u as usize].place = Place::Line;
                g.units[u as usize].back_to_line = false;
                ev.push(Event::ReturnedToLine {
                    unit: u,
                    name: g.name(u).into(),
                });
            }
        };
        match (c.kind, ord) {
            (AttackKind::Dogfight, std::cmp::Ordering::Greater) => {
                self.hit(c.target, ev);
                to_line(self, c.attacker, ev);
            }
            (AttackKind::Dogfight, std::cmp::Ordering::Less) => {
                self.hit(c.attacker, ev);
                to_line(self, c.target, ev);
            }
            (AttackKind::Dogfight, std::cmp::Ordering::Equal) => {
                to_line(self, c.attacker, ev);
                to_line(self, c.target, ev);
            }
            (AttackKind::Intercept, std::cmp::Ordering::Greater) => {
                self.hit(c.target, ev);
                to_line(self, c.attacker, ev);
            }
            (_, std::cmp::Ordering::Greater) => self.hit(c.target, ev),
            (_, std::cmp::Ordering::Less) => {
                // SWTB-O4: Deflect Blasters — a win against an adjacent trooper or hero
                // defeats the attacker.
                let adjacent = matches!((self.cell_of(c.attacker), self.cell_of(c.target)), (Some(a), Some(b)) if self.fixed.grid.adjacent(a, b));
                if self.has_power(c.target, Power::DeflectBlasters)
                    && adjacent
                    && self.ty(c.attacker).deflectable
                {
                    self.hit(c.attacker, ev);
                }
            }
            _ => {}
        }
        if c.kind == AttackKind::GroundAttack {
            // SWTB-F5: either way the flier remains until its side's next turn.
            self.units[c.attacker as usize].back_to_line = self.alive(c.attacker);
        }
        self.after_resolution(ev);
    }

    fn hit(&mut self, u: UnitId, ev: &mut Vec<Event>) {
        let tough = self.toughness(u);
        let unit = &mut self.units[u as usize];
        unit.hits += 1;
        let hits = unit.hits;
        ev.push(Event::Hit {
            unit: u,
            name: self.name(u).into(),
            hits,
            toughness: tough,
        });
        if hits >= tough {
            self.remove(u, ev);
        }
    }

    fn remove(&mut self, u: UnitId, ev: &mut Vec<Event>) {
        let side = self.units[u as usize].side;
        let unit = &mut self.units[u as usize];
        unit.place = match unit.place {
            Place::Field(c) => Place::Fallen(c),
            _ => Place::Gone,
        };
        unit.back_to_line = false;
        ev.push(Event::Eliminated {
            unit: u,
            name: self.name(u).into(),
        });
        self.note_loss(u, side);
    }

    /// SWTB-O10: losing a Force User, or being reduced to half, calls for a morale roll.
    fn note_loss(&mut self, u: UnitId, side: u8) {
        if !self.options().morale {
            return;
        }
        if self.ty(u).force_user {
            self.morale_due |= 1 << side;
        }
        let s = side as usize;
        if !self.halved[s]
            && 2 * u16::from(self.army_count(side)) <= u16::from(self.fixed.start_count[s])
        {
            self.halved[s] = true;
            self.morale_due |= 1 << side;
        }
    }

    fn power_works(&mut self, p: Power, user: UnitId, target: UnitId, ev: &mut Vec<Event>) {
        match p {
            Power::ForceChoke => self.remove(target, ev),
            _ => {
                // SWTB-O3: the defender joins the force user's side.
                let old = self.units[target as usize].side;
                let new = self.units[user as usize].side;
                let t = &mut self.units[target as usize];
                t.side = new;
                t.acted = true;
                t.may_attack = false;
                ev.push(Event::Defected {
                    unit: target,
                    name: self.name(target).into(),
                    side: self.side_name(new).into(),
                });
                self.note_loss(target, old);
            }
        }
    }

    /// After anything resolves: has a side been wiped out, does a side owe a morale roll?
    fn after_resolution(&mut self, ev: &mut Vec<Event>) {
        if matches!(self.phase, Phase::Over { .. }) {
            return;
        }
        let (a, b) = (self.army_count(0), self.army_count(1));
        if a == 0 || b == 0 {
            let (w, reason) = match (a, b) {
                (0, 0) => (None, "both sides eliminated".to_string()),
                (0, _) => (Some(1), format!("{} eliminated", self.side_name(0))),
                _ => (Some(0), format!("{} eliminated", self.side_name(1))),
            };
            self.game_over(w, reason, ev);
            return;
        }
        for side in 0..2u8 {
            if self.morale_due & (1 << side) != 0 {
                self.morale_due &= !(1 << side);
                // "roll 1d6 for every figure/vehicle remaining": fixed guns are neither.
                let left = self.army_count(side);
                self.phase = Phase::Morale {
                    side,
                    left,
                    ones: 0,
                    sixes: 0,
                };
                return;
            }
        }
        self.phase = Phase::Turn;
    }

    /// A heuristic for AIs: mostly the share of points left, plus a little for closing in.
    pub fn heuristic(&self, seat: u8) -> f64 {
        let mine = self.points_left(seat) as f64;
        let theirs = self.points_left(other(seat)) as f64;
        let material = if mine + theirs > 0.0 {
            (mine - theirs) / (mine + theirs)
        } else {
            0.0
        };
        let g = &self.fixed.grid;
        let approach = |s: u8| -> f64 {
            let mut total = 0.0;
            let mut n = 0.0;
            for u in self.ids().filter(|&u| self.units[u as usize].side == s) {
                let Some(c) = self.cell_of(u) else { continue };
                let d = self
                    .ids()
                    .filter(|&e| self.units[e as usize].side != s)
                    .filter_map(|e| self.cell_of(e))
                    .map(|e| g.distance(c, e))
                    .min()
                    .unwrap_or(0);
                total += d as f64;
                n += 1.0;
            }
            if n > 0.0 {
                total / n / (g.width.max(g.height) as f64)
            } else {
                0.0
            }
        };
        let mut goal = 0.0;
        if let Some(Goal::Reach { side, cells } | Goal::Hold { side, cells }) =
            &self.fixed.setup.scenario.goal
        {
            let best = self
                .ids()
                .filter(|&u| self.units[u as usize].side == *side && !self.ty(u).flies())
                .filter_map(|u| self.cell_of(u))
                .map(|c| cells.iter().map(|t| g.distance(c, *t)).min().unwrap_or(0))
                .min()
                .unwrap_or(99) as f64;
            let v = 1.0 - (best / (g.width.max(g.height) as f64)).min(1.0);
            goal = if *side == seat { v } else { -v };
        }
        (0.8 * material + 0.05 * (approach(other(seat)) - approach(seat)) + 0.1 * goal)
            .clamp(-0.99, 0.99)
    }
}
