//! Setting up: a plain-data [`Setup`] is checked once into the fixed part of a game
//! (shakmaty's Setup → Position), a saved state is checked as strictly, and before the first
//! round each side chooses its Force Users' powers (SWTB-O1..O4).
//!
//! Rule ids owned here: SWTB-P (points), the choice of powers of SWTB-O1..O4, and the
//! scenario's own checks; it checks the unit table of SWTB-U1 (owned by [`crate::data`]).

use crate::data::{Alignment, Class, Goal, Power, Setup, UnitType};
use crate::events::Event;
use crate::state::{Fixed, Name, Phase, Place, Progress, Swtb, Terrain, Unit, UnitId};
use battlemat_core::{Seat, Seating, SetupError};
use battlemat_geom::Grid;
use std::sync::Arc;

/// The most seats a game of SWTB seats: several players may share a side.
pub const MAX_SEATS: u8 = 6;

/// Check a setup and derive the fixed part of the game: the board, the unit types, the
/// seating, each side's units and the goal, each bound reported where it is written.
pub fn check_setup(setup: &Setup) -> Result<Fixed, SetupError> {
    let s = &setup.scenario;
    check_bounds(s)?;
    let (grid, terrain) = check_board(setup)?;
    let (type_keys, types) = check_unit_types(setup)?;
    let seating = check_seating(setup)?;
    let mut army = Army::default();
    for si in 0..s.sides.len() {
        army.add_side(
            setup,
            si,
            &Board {
                grid,
                terrain: &terrain,
            },
            (&type_keys, &types),
            &seating,
        )?;
    }
    check_goal(s, grid)?;
    let Army {
        names,
        start,
        start_count,
        ..
    } = army;
    Ok(Fixed {
        setup: setup.clone(),
        side_names: [
            s.sides[0].name.as_str().into(),
            s.sides[1].name.as_str().into(),
        ],
        seating,
        topology: battlemat_geom::Topology::of(grid),
        open: cells_where(&terrain, |t| t != Terrain::Wall),
        terrain_blocking: cells_where(&terrain, |t| matches!(t, Terrain::Wall | Terrain::Hill)),
        grid,
        terrain,
        types,
        type_keys,
        names,
        start,
        start_count,
    })
}

fn err<T>(at: impl Into<String>, m: impl Into<String>) -> Result<T, SetupError> {
    Err(SetupError::new(at, m))
}

/// The scenario's sizes and counts.
fn check_bounds(s: &crate::data::Scenario) -> Result<(), SetupError> {
    if s.width == 0 || s.width > Grid::MAX_SIDE {
        return err(
            "scenario.width",
            format!("{} columns: the board has 1 to 26", s.width),
        );
    }
    if s.height == 0 || s.height > 99 {
        return err(
            "scenario.height",
            format!("{} rows: the board has 1 to 99", s.height),
        );
    }
    if s.sides.len() != 2 {
        return err(
            "scenario.sides",
            format!("SWTB is for two sides, found {}", s.sides.len()),
        );
    }
    if s.max_rounds == 0 || s.max_rounds > 200 {
        return err("scenario.max_rounds", "must be 1 to 200");
    }
    if !(2..=MAX_SEATS).contains(&s.min_seats) {
        return err("scenario.min_seats", format!("must be 2 to {MAX_SEATS}"));
    }
    if !(s.min_seats..=MAX_SEATS).contains(&s.max_seats) {
        return err(
            "scenario.max_seats",
            format!("must be min_seats ({}) to {MAX_SEATS}", s.min_seats),
        );
    }
    Ok(())
}

/// The board and its terrain (SWTB-4, SWTB-U1).
fn check_board(setup: &Setup) -> Result<(Grid, Vec<Terrain>), SetupError> {
    let s = &setup.scenario;
    let o = &setup.options;
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
    Ok((grid, terrain))
}

/// The unit table (SWTB-U1, SWTB-O8, SWTB-O2/O3), in the setup's order.
fn check_unit_types(setup: &Setup) -> Result<(Vec<String>, Vec<UnitType>), SetupError> {
    let type_keys: Vec<String> = setup.unit_types.keys().cloned().collect();
    let types: Vec<UnitType> = setup.unit_types.values().cloned().collect();
    if types.len() > 255 {
        return err("unit_types", "at most 255 unit types");
    }
    for (k, t) in &setup.unit_types {
        for (f, v) in [("dice", t.dice), ("attack_dice", t.attack_dice())] {
            if !(1..=20).contains(&v) {
                return err(format!("unit_types.{k}.{f}"), "combat dice must be 1 to 20");
            }
        }
        if t.crewed && t.r#move != 0 {
            // SWTB-O8: artillery and AA guns are fixed, fired by whichever trooper crews them.
            return err(
                format!("unit_types.{k}.move"),
                "a crewed gun is fixed in place (SWTB-O8): its move must be 0",
            );
        }
        if t.cost > 1_000_000 {
            return err(format!("unit_types.{k}.cost"), "at most 1000000 points");
        }
        for (f, v) in [
            ("choked_on", t.choked_on),
            ("mind_tricked_on", t.mind_tricked_on),
        ] {
            if matches!(v, Some(n) if !(1..=6).contains(&n)) {
                return err(format!("unit_types.{k}.{f}"), "must be 1 to 6");
            }
        }
    }
    Ok((type_keys, types))
}

/// Who sits where: one seat a side unless the setup says otherwise.
fn check_seating(setup: &Setup) -> Result<Seating, SetupError> {
    let s = &setup.scenario;
    let seating = match &setup.seating {
        Some(seating) => {
            seating.check(2, s.max_seats, "seating")?;
            seating.clone()
        }
        None => Seating::one_per_side(2),
    };
    if seating.seats() < s.min_seats {
        return err(
            "seating",
            format!(
                "{} is for {} to {} seats, not {}",
                s.name,
                s.min_seats,
                s.max_seats,
                seating.seats()
            ),
        );
    }
    Ok(seating)
}

/// The board as the units are placed on it.
struct Board<'a> {
    grid: Grid,
    terrain: &'a [Terrain],
}

/// The units placed so far, side by side.
#[derive(Default)]
struct Army {
    names: Vec<Name>,
    start: Vec<Unit>,
    occupied: std::collections::BTreeMap<battlemat_geom::Cell, String>,
    start_count: [u8; 2],
}

impl Army {
    /// One side's units, dealt to its seats in turn in the scenario's order, within its
    /// points (SWTB-P).
    fn add_side(
        &mut self,
        setup: &Setup,
        si: usize,
        board: &Board,
        (type_keys, types): (&[String], &[UnitType]),
        seating: &Seating,
    ) -> Result<(), SetupError> {
        let (s, o) = (&setup.scenario, &setup.options);
        let side = &s.sides[si];
        let mut cost: u64 = 0;
        let seats: Vec<Seat> = seating.seats_of(si as u8).collect();
        let mut dealt = 0usize;
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
            self.place(&at, u, t, board)?;
            let power = unit_power(&at, u, t, side.alignment, o.force_powers)?;
            if self.names.len() >= 200 {
                return err(at, "at most 200 units");
            }
            self.names.push(u.name.as_str().into());
            self.start.push(Unit {
                kind: ti as u8,
                side: si as u8,
                // A fixed gun is fired by whichever seat crews it (SWTB-O8); it is not dealt.
                owner: (!t.crewed).then(|| seats[dealt % seats.len()]),
                place: u.at.map_or(Place::Line, Place::Field),
                hits: 0,
                acted: false,
                may_attack: false,
                power,
                power_used: false,
                back_to_line: false,
            });
            dealt += usize::from(!t.crewed);
            if t.class != Class::Gun {
                self.start_count[si] += 1;
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
        if self.start_count[si] == 0 {
            return err(
                format!("scenario.sides[{si}].units"),
                format!("{} has no units", side.name),
            );
        }
        Ok(())
    }

    /// Where a unit starts: fliers lined up off the battlefield (SWTB-F1), ground units on
    /// a free cell of the board that is not a wall.
    fn place(
        &mut self,
        at: &str,
        u: &crate::data::UnitSpec,
        t: &UnitType,
        board: &Board,
    ) -> Result<(), SetupError> {
        match (t.flies(), u.at) {
            (true, Some(_)) => err(
                format!("{at}.at"),
                "flying units start lined up off the battlefield (SWTB-F1): leave `at` out",
            ),
            (false, None) => err(format!("{at}.at"), "ground units need a starting cell"),
            (false, Some(c)) => {
                if !board.grid.contains(c) {
                    return err(format!("{at}.at"), format!("{c} is off the board"));
                }
                if board.terrain[board.grid.index(c)] == Terrain::Wall {
                    return err(format!("{at}.at"), format!("{c} is a wall"));
                }
                if let Some(prev) = self.occupied.insert(c, u.name.clone()) {
                    return err(
                        format!("{at}.at"),
                        format!("{c} is already taken by {prev}"),
                    );
                }
                Ok(())
            }
            (true, None) => Ok(()),
        }
    }
}

/// A unit's force power: only a Force User's, of its side's alignment (SWTB-O1..O4), and
/// only with the Force Powers rule.
fn unit_power(
    at: &str,
    u: &crate::data::UnitSpec,
    t: &UnitType,
    alignment: Alignment,
    force_powers: bool,
) -> Result<Option<Power>, SetupError> {
    match u.power {
        Some(p) if !t.force_user => err(
            format!("{at}.power"),
            format!("{p:?} needs a Force User (SWTB-O1..O4)"),
        ),
        Some(Power::ForceChoke) if alignment != Alignment::Dark => err(
            format!("{at}.power"),
            "Force Choke is a dark side power (SWTB-O2)",
        ),
        Some(Power::MindTrick) if alignment != Alignment::Light => err(
            format!("{at}.power"),
            "Mind Trick is a light side power (SWTB-O3)",
        ),
        p => Ok(p.filter(|_| force_powers)),
    }
}

/// The goal's side and cells (SWTB-V).
fn check_goal(s: &crate::data::Scenario, grid: Grid) -> Result<(), SetupError> {
    if let Some(Goal::Reach { side, cells } | Goal::Hold { side, cells }) = &s.goal {
        if *side > 1 {
            return err("scenario.goal.side", "side must be 0 or 1");
        }
        if let Some(c) = cells.iter().find(|c| !grid.contains(**c)) {
            return err("scenario.goal.cells", format!("{c} is off the board"));
        }
    }
    Ok(())
}

/// The cells whose terrain passes `test`, as a set (for the topology's tables).
fn cells_where(terrain: &[Terrain], test: impl Fn(Terrain) -> bool) -> battlemat_geom::CellSet {
    let mut set = battlemat_geom::CellSet::default();
    for (i, t) in terrain.iter().enumerate() {
        if test(*t) {
            set.insert(i);
        }
    }
    set
}

/// A saved state's progress is checked as strictly as a setup: nothing in it may point
/// outside the game (the rules index units, unit types and cells without further checks).
pub fn check_progress(fixed: &Fixed, d: &Progress) -> Result<(), String> {
    if d.units.len() != fixed.names.len() {
        return Err("unit list does not match the setup".into());
    }
    let n = d.units.len();
    let on_board = |c: &battlemat_geom::Cell| fixed.grid.contains(*c);
    for (i, u) in d.units.iter().enumerate() {
        let place_ok = match &u.place {
            Place::Field(c) | Place::Fallen(c) => on_board(c),
            Place::Line | Place::Gone => true,
        };
        let owner_ok = |t: &UnitType| match u.owner {
            Some(o) => o < fixed.seating.seats() && fixed.seating.side_of(o) == u.side,
            None => t.crewed,
        };
        if u.kind as usize >= fixed.types.len()
            || u.side > 1
            || !place_ok
            || !owner_ok(&fixed.types[u.kind as usize])
        {
            return Err(format!("units[{i}] does not fit the setup"));
        }
    }
    let id_ok = |u: &UnitId| (*u as usize) < n;
    let options = &fixed.setup.options;
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
                && options.force_powers
                && fixed.types[d.units[*unit as usize].kind as usize].force_user
        }
        Phase::Morale { side, left, .. } => *side <= 1 && *left > 0,
        Phase::Initiative { left, .. } => *left != [0, 0] && left.iter().all(|&l| l <= 20),
        Phase::Turn | Phase::Over { .. } => true,
    };
    if !phase_ok
        || d.first > 1
        || d.active > 1
        || fixed.seating.side_of(d.seat) != d.active
        || d.seat >= fixed.seating.seats()
    {
        return Err("the phase does not fit the setup".into());
    }
    // A power only on a Force User, with powers in play, of its side's alignment.
    for (i, u) in d.units.iter().enumerate() {
        if let Some(p) = u.power {
            // Chosen for the side it started on (a mind trick may have turned it since).
            let alignment = fixed.setup.scenario.sides[fixed.start[i].side as usize].alignment;
            let allowed = match p {
                Power::ForceChoke => alignment == Alignment::Dark,
                Power::MindTrick => alignment == Alignment::Light,
                _ => true,
            };
            let fu = fixed.types[u.kind as usize].force_user;
            if !(allowed && fu && options.force_powers) {
                return Err(format!("units[{i}] holds a power it cannot have"));
            }
        }
    }
    Ok(())
}

impl Swtb {
    pub fn new(setup: &Setup) -> Result<Swtb, SetupError> {
        let fixed = check_setup(setup)?;
        let mut g = Swtb {
            now: Progress {
                units: fixed.start.clone(),
                round: 0,
                first: 0,
                active: 0,
                seat: 0,
                second_half: false,
                phase: Phase::Turn,
                morale_due: 0,
                halved: [false; 2],
            },
            fixed: Arc::new(fixed),
        };
        g.next_power_choice_or_first_round(&mut Vec::new());
        Ok(g)
    }

    /// SWTB-O1..O4: "Each Force User may select one of the following powers". Before the
    /// first round, each Force User the scenario gave no power has its side choose one.
    pub(crate) fn next_power_choice_or_first_round(&mut self, ev: &mut Vec<Event>) {
        let unchosen = self.ids().find(|&u| {
            self.options().force_powers
                && self.ty(u).force_user
                && self.now.units[u as usize].power.is_none()
        });
        match unchosen {
            Some(unit) => self.now.phase = Phase::ChoosePower { unit },
            None => self.start_round(ev),
        }
    }

    /// The powers `u`'s side may choose for it: Force Choke is the dark side's, Mind Trick
    /// the light side's (SWTB-O2, SWTB-O3).
    pub fn powers_for(&self, u: UnitId) -> Vec<Power> {
        let side = self.now.units[u as usize].side as usize;
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
}
