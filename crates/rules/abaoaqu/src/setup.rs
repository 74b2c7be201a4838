//! Checking a setup once (ABQ-S*, ABQ-2), dealing each side's counters to its seats, and
//! where counters may be set up (ABQ-S*: "within 3 hexagons from the edge of the fortress",
//! the scenarios' strips; fortress cannons on the fortress).

use crate::data::{Class, Deploy, LeadOff, Setup};
use crate::map::Layout;
use crate::state::{
    AbaoAqu, FEDERATION, Fixed, ForceInfo, Morale, Phase, Place, Progress, Stage, Unit, UnitId,
};
use battlemat_core::SetupError;
use battlemat_geom::hexmap::HexId;
use std::sync::Arc;

/// The most counters a game may have (unit numbers are `u16`, and the lists stay short).
pub const MAX_UNITS: usize = 2000;

/// Check a setup and make the fixed part and the counters.
pub fn check_setup(setup: &Setup) -> Result<(Fixed, Vec<Unit>), SetupError> {
    let s = &setup.scenario;
    let layout = Layout::named(&s.layout)?;
    setup.tables.check("tables")?;
    if s.sides.len() != 2 {
        return Err(SetupError::new(
            "scenario.sides",
            "two sides: the Federation first, then Zeon (ABQ-3-1)",
        ));
    }
    if s.seats.0 < 2 || s.seats.1 < s.seats.0 || s.seats.1 > 6 {
        return Err(SetupError::new(
            "scenario.seats",
            "from 2 to 6 seats (ABQ-3-1), the fewest first",
        ));
    }
    let n = setup.seating.seats();
    setup.seating.check(2, s.seats.1, "option seats")?;
    if n < s.seats.0 {
        return Err(SetupError::new(
            "option seats",
            format!("{} is for {} to {} players", s.name, s.seats.0, s.seats.1),
        ));
    }
    let kinds: Vec<(String, crate::data::Kind)> = setup
        .units
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    for (code, k) in &kinds {
        if k.class == Class::Turret && k.movement != 0 {
            return Err(SetupError::new(
                format!("units.{code}.move"),
                "cannon turrets have no movement (ABQ-4-4)",
            ));
        }
    }
    let mut forces = Vec::new();
    let mut units = Vec::new();
    for (side, spec) in s.sides.iter().enumerate() {
        let seats: Vec<u8> = setup.seating.seats_of(side as u8).collect();
        let mut dealt = 0usize;
        for (fi, f) in spec.forces.iter().enumerate() {
            let at = format!("scenario.sides[{side}].forces[{fi}]");
            let rows = match (&f.deploy, f.deploy_rows, &f.enter) {
                (Some(Deploy::NearFortress), None, None) => Some((
                    layout.fortress.0.saturating_sub(3).max(1),
                    (layout.fortress.1 + 3).min(layout.map.rows),
                )),
                (None, Some((a, b)), None) => {
                    if a < 1 || b < a || b > layout.map.rows {
                        return Err(SetupError::new(
                            format!("{at}.deploy_rows"),
                            format!("rows {a} to {b}: rows run from 1 to {}", layout.map.rows),
                        ));
                    }
                    Some((a, b))
                }
                (None, None, Some(_)) => None,
                _ => {
                    return Err(SetupError::new(
                        at,
                        "a force either enters from an edge (enter) or is set up (deploy or deploy_rows)",
                    ));
                }
            };
            if f.enter.is_some() && f.turn.is_none() && !f.turn_by_die {
                return Err(SetupError::new(
                    format!("{at}.turn"),
                    "an entering force needs the turn it enters (or turn_by_die)",
                ));
            }
            forces.push(ForceInfo {
                side: side as u8,
                name: f.name.clone(),
                enter: f.enter.clone(),
                turn: if f.turn_by_die { None } else { f.turn },
                rows,
            });
            for (ui, entry) in f.units.iter().enumerate() {
                let (code, pilot, count) = crate::data::roster_entry(entry)
                    .map_err(|e| SetupError::new(format!("{at}.units[{ui}]"), e))?;
                let Some(k) = kinds.iter().position(|(c, _)| *c == code) else {
                    let codes: Vec<&str> = kinds.iter().map(|(c, _)| c.as_str()).collect();
                    return Err(SetupError::new(
                        format!("{at}.units[{ui}]"),
                        format!(
                            "no counter {code:?} in the unit table ({})",
                            codes.join(" ")
                        ),
                    ));
                };
                let kind = &kinds[k].1;
                if f.enter.is_some() && kind.movement == 0 {
                    return Err(SetupError::new(
                        format!("{at}.units[{ui}]"),
                        format!("{code} cannot move, so it cannot enter from an edge"),
                    ));
                }
                for _ in 0..count {
                    units.push(Unit {
                        kind: k as u16,
                        pilot: pilot.unwrap_or(kind.pilot),
                        side: side as u8,
                        seat: seats[dealt % seats.len()],
                        force: (forces.len() - 1) as u8,
                        at: if rows.is_some() {
                            Place::ToDeploy
                        } else {
                            Place::ToEnter
                        },
                        morale: Morale::Normal,
                        flipped: false,
                        moved: false,
                        fired: false,
                        closed: false,
                        used: false,
                    });
                    dealt += 1;
                    if units.len() > MAX_UNITS {
                        return Err(SetupError::new(
                            at,
                            format!("more than {MAX_UNITS} counters"),
                        ));
                    }
                }
            }
        }
        if dealt == 0 {
            return Err(SetupError::new(
                format!("scenario.sides[{side}].forces"),
                "a side with no counters",
            ));
        }
    }
    let fixed = Fixed {
        setup: setup.clone(),
        seating: setup.seating.clone(),
        layout,
        kinds,
        forces,
        side_names: [s.sides[0].name.clone(), s.sides[1].name.clone()],
        hold: [s.sides[0].hold, s.sides[1].hold],
        wins_at_limit: [s.sides[0].wins_at_limit, s.sides[1].wins_at_limit],
        turn_limit: setup.options.turns.limit(),
    };
    Ok((fixed, units))
}

impl AbaoAqu {
    pub fn new(setup: &Setup) -> Result<AbaoAqu, SetupError> {
        let (fixed, units) = check_setup(setup)?;
        let first = match setup.scenario.lead_off {
            LeadOff::Zeon => 1,
            _ => FEDERATION,
        };
        let mut g = AbaoAqu {
            fixed: Arc::new(fixed),
            now: Progress {
                units,
                turn: 0,
                half: 0,
                first,
                stage: Stage::Recovery,
                phase: Phase::Over,
                pending: Vec::new(),
                screens: Vec::new(),
                short: [false; 2],
                held: [0, 0],
                reinforcements: None,
                cancels: 0,
                outcome: None,
            },
        };
        let mut ev = Vec::new();
        if setup.scenario.lead_off == LeadOff::Die {
            g.now.phase = Phase::LeadOffDie;
        } else {
            g.next_deployment(0, &mut ev);
        }
        Ok(g)
    }

    /// Set up the next counter still to be placed, from `from` on; then turn 1.
    pub fn next_deployment(&mut self, from: UnitId, ev: &mut Vec<crate::events::Event>) {
        match (from..self.now.units.len() as UnitId).find(|&u| self.unit(u).at == Place::ToDeploy) {
            Some(unit) => self.now.phase = Phase::Deploy { unit },
            None => self.begin_turn(1, ev),
        }
    }

    /// Where a counter may be set up: its force's rows, cannons on the fortress (ABQ-S1:
    /// "All turrets FC are mounted on fortress itself"), with room in the stack (ABQ-5-2).
    pub fn may_deploy(&self, u: UnitId, h: HexId) -> bool {
        let x = self.unit(u);
        let Some((a, b)) = self.fixed.forces[x.force as usize].rows else {
            return false;
        };
        let lay = &self.fixed.layout;
        let ok_place = if self.class(u) == Class::Turret {
            lay.on_fortress(h)
        } else {
            let r = lay.row(h);
            r >= a && r <= b
        };
        ok_place && self.room_for(u, h)
    }

    /// Every hex the counter may be set up in, in map order.
    pub fn deploy_hexes(&self, u: UnitId, out: &mut Vec<HexId>) {
        let x = self.unit(u);
        let Some((a, b)) = self.fixed.forces[x.force as usize].rows else {
            return;
        };
        let lay = &self.fixed.layout;
        let (a, b) = if self.class(u) == Class::Turret {
            lay.fortress
        } else {
            (a, b)
        };
        let counts = self.stack_counts(x.side);
        let ship = self.class(u) == Class::Ship;
        for row in a..=b {
            for col in 1..=lay.map.cols {
                if let Some(h) = lay.map.at(col, row)
                    && crate::movement::has_room(counts[h as usize], ship)
                {
                    out.push(h);
                }
            }
        }
    }
}

/// A saved state's progress, checked as strictly as a setup: the same counters (kind, side,
/// seat, force), every hex on the map, every unit a phase names real.
pub fn check_progress(fixed: &Fixed, units: &[Unit], now: &Progress) -> Result<(), SetupError> {
    let bad = |at: &str, m: String| Err(SetupError::new(format!("now.{at}"), m));
    if now.units.len() != units.len() {
        return bad(
            "units",
            format!(
                "{} counters, but the setup has {}",
                now.units.len(),
                units.len()
            ),
        );
    }
    let n = fixed.layout.map.len();
    for (i, (x, y)) in now.units.iter().zip(units).enumerate() {
        if (x.kind, x.side, x.seat, x.force) != (y.kind, y.side, y.seat, y.force) {
            return bad(
                &format!("units[{i}]"),
                "not the counter the setup deals here (kind, side, seat, force)".into(),
            );
        }
        if let Place::Hex(h) = x.at
            && h as usize >= n
        {
            return bad(&format!("units[{i}].at"), format!("hex {h} is off the map"));
        }
    }
    let unit_ok = |u: UnitId| (u as usize) < units.len();
    let hex_ok = |h: HexId| (h as usize) < n;
    let attack_ok = |a: &crate::state::Attack| {
        a.attackers.iter().chain(&a.targets).all(|&u| unit_ok(u)) && a.column.is_none_or(|c| c <= 8)
    };
    let ok = match &now.phase {
        Phase::Deploy { unit } | Phase::Recovery { unit } => unit_ok(*unit),
        Phase::Move { seat, unit } => unit_ok(*unit) && *seat < fixed.seating.seats(),
        Phase::Remove { side, hex } => *side < 2 && hex_ok(*hex),
        Phase::Combat { seat, declaring } => {
            *seat < fixed.seating.seats()
                && match declaring {
                    crate::state::Declaring::Idle => true,
                    crate::state::Declaring::Picking { from, with } => {
                        hex_ok(*from) && with.iter().all(|&u| unit_ok(u))
                    }
                    crate::state::Declaring::Aiming { from, with, target } => {
                        hex_ok(*from) && hex_ok(*target) && with.iter().all(|&u| unit_ok(u))
                    }
                    crate::state::Declaring::Ready { attack } => attack_ok(attack),
                    crate::state::Declaring::Launching { unit } => unit_ok(*unit),
                }
        }
        Phase::Resolve { attacks, seat } => {
            !attacks.is_empty() && attacks.iter().all(attack_ok) && *seat < fixed.seating.seats()
        }
        Phase::Screen { unit, hex, seat } => {
            unit_ok(*unit) && hex_ok(*hex) && *seat < fixed.seating.seats()
        }
        Phase::DamageCheck => !now.pending.is_empty(),
        Phase::LeadOffDie | Phase::ReinforcementDie | Phase::Over => true,
    };
    if !ok || !now.pending.iter().all(attack_ok) || !now.screens.iter().all(|s| hex_ok(s.hex)) {
        return bad(
            "phase",
            "names a unit, seat or hex the game does not have".into(),
        );
    }
    if now.first > 1 || now.half > 1 {
        return bad("first", "sides and halves are 0 or 1".into());
    }
    if (now.phase == Phase::Over) != now.outcome.is_some() {
        return bad("outcome", "a result exactly when the game is over".into());
    }
    Ok(())
}
