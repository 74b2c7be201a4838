//! Checking a setup once: the map, every combatant's data (sections, weapons, rolls), the
//! scenario's placements; dealing combatants to seats; a saved state checked as strictly.

use crate::data::{Roll, SectionFlag, Setup};
use crate::state::{Fixed, MsD20, Phase, Progress, Unit, UnitId};
use battlemat_core::SetupError;
use battlemat_geom::{Grid, GridKind};
use std::sync::Arc;

pub fn check_setup(setup: &Setup) -> Result<(Fixed, Vec<Unit>), SetupError> {
    let s = &setup.scenario;
    if s.width == 0 || s.height == 0 || s.width > Grid::MAX_SIDE || s.height > Grid::MAX_SIDE {
        return Err(SetupError::new(
            "scenario.width",
            format!("a map of 1 to {} cells a side", Grid::MAX_SIDE),
        ));
    }
    if s.sides.len() != 2 {
        return Err(SetupError::new("scenario.sides", "two sides"));
    }
    if s.seats.0 < 2 || s.seats.1 < s.seats.0 || s.seats.1 > 6 {
        return Err(SetupError::new(
            "scenario.seats",
            "2 to 6 seats, the fewest first",
        ));
    }
    setup.seating.check(2, s.seats.1, "option seats")?;
    if setup.seating.seats() < s.seats.0 {
        return Err(SetupError::new(
            "option seats",
            format!("{} is for {} to {} players", s.name, s.seats.0, s.seats.1),
        ));
    }
    let grid = Grid {
        kind: GridKind::Square,
        width: s.width,
        height: s.height,
    };
    let kinds: Vec<(String, crate::data::Combatant)> = setup
        .combatants
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let rolls = check_combatants(&kinds)?;
    let mut units = Vec::new();
    for (si, side) in s.sides.iter().enumerate() {
        let seats: Vec<u8> = setup.seating.seats_of(si as u8).collect();
        if side.combatants.is_empty() {
            return Err(SetupError::new(
                format!("scenario.sides[{si}].combatants"),
                "a side with no combatants",
            ));
        }
        for (ci, p) in side.combatants.iter().enumerate() {
            let at = format!("scenario.sides[{si}].combatants[{ci}]");
            let Some(k) = kinds.iter().position(|(c, _)| *c == p.kind) else {
                let codes: Vec<&str> = kinds.iter().map(|(c, _)| c.as_str()).collect();
                return Err(SetupError::new(
                    format!("{at}.kind"),
                    format!("no combatant {:?} ({})", p.kind, codes.join(", ")),
                ));
            };
            if !grid.contains(p.at) {
                return Err(SetupError::new(
                    format!("{at}.at"),
                    format!("{} is off the map", p.at),
                ));
            }
            if units.iter().any(|u: &Unit| u.at == p.at) {
                return Err(SetupError::new(
                    format!("{at}.at"),
                    format!("{} is taken", p.at),
                ));
            }
            let c = &kinds[k].1;
            units.push(Unit {
                kind: k as u16,
                side: si as u8,
                seat: seats[ci % seats.len()],
                at: p.at,
                terrain: p.terrain,
                sections: c.sections.iter().map(|x| x.durability).collect(),
                apm: c.pilot.apm,
                flee: false,
                turns: 0,
                turns_total: 0,
                initiative: Vec::new(),
                ni_failed: false,
                stunned: None,
                knocked: false,
                parried: 0,
                out: false,
            });
        }
    }
    if units.len() > 64 {
        return Err(SetupError::new("scenario.sides", "at most 64 combatants"));
    }
    if let Some(g) = s.goal
        && g >= units.len()
    {
        return Err(SetupError::new("scenario.goal", "no such combatant"));
    }
    let fixed = Fixed {
        setup: setup.clone(),
        seating: setup.seating.clone(),
        grid,
        kinds,
        rolls,
        side_names: [s.sides[0].name.clone(), s.sides[1].name.clone()],
        goal: s.goal.map(|g| g as UnitId),
        melee_limit: setup.options.melees.limit(),
    };
    Ok((fixed, units))
}

/// The combatant table (D20-3, D20-5, rulings.md): sections with one main body, weapons
/// mounted on a section with ordered ranges and a damage roll or a hand attack, and the
/// pilot's attacks per melee; each weapon's damage roll parsed once.
fn check_combatants(
    kinds: &[(String, crate::data::Combatant)],
) -> Result<Vec<Vec<Option<Roll>>>, SetupError> {
    let mut rolls = Vec::new();
    for (code, c) in kinds {
        let at = format!("combatants.{code}");
        if c.sections.is_empty() || c.sections.len() > 32 {
            return Err(SetupError::new(
                format!("{at}.sections"),
                "1 to 32 sections",
            ));
        }
        if !c.sections.iter().any(|x| x.has(SectionFlag::Main)) {
            return Err(SetupError::new(
                format!("{at}.sections"),
                "one section is the main body (flags = [\"main\"])",
            ));
        }
        let mut r = Vec::new();
        for (i, w) in c.weapons.iter().enumerate() {
            let wat = format!("{at}.weapons[{i}]");
            if !c.sections.iter().any(|x| x.name == w.on) {
                return Err(SetupError::new(
                    format!("{wat}.on"),
                    format!("no section {:?} to mount it on", w.on),
                ));
            }
            if w.range[0] == 0 || w.range[0] > w.range[1] || w.range[1] > w.range[2] {
                return Err(SetupError::new(
                    format!("{wat}.range"),
                    "short, mid and long range in cells, each at least the one before (from 1)",
                ));
            }
            match (&w.damage, w.hand) {
                (Some(d), false) => r.push(Some(
                    Roll::parse(d).map_err(|e| SetupError::new(format!("{wat}.damage"), e))?,
                )),
                (None, true) => r.push(None),
                _ => {
                    return Err(SetupError::new(
                        wat,
                        "a weapon has a damage roll, or is a hand attack (hand = true)",
                    ));
                }
            }
        }
        if c.pilot.apm == 0 || c.pilot.apm > 12 {
            return Err(SetupError::new(
                format!("{at}.pilot.apm"),
                "1 to 12 attacks per melee",
            ));
        }
        rolls.push(r);
    }
    Ok(rolls)
}

/// A saved progress: the same combatants (kind, side, seat, section count), positions on
/// the map, phases naming real combatants.
pub fn check_progress(fixed: &Fixed, units: &[Unit], now: &Progress) -> Result<(), SetupError> {
    let bad = |m: &str| Err(SetupError::new("now", m.to_string()));
    if now.units.len() != units.len() {
        return bad("not the setup's combatants");
    }
    for (x, y) in now.units.iter().zip(units) {
        if (x.kind, x.side, x.seat, x.sections.len()) != (y.kind, y.side, y.seat, y.sections.len())
            || !fixed.grid.contains(x.at)
        {
            return bad("a combatant is not the setup's, or is off the map");
        }
    }
    let n = units.len() as UnitId;
    let ok_attack = |a: &crate::state::Attack| {
        a.attacker < n
            && a.target < n
            && (a.weapon as usize)
                < fixed.kinds[units[a.attacker as usize].kind as usize]
                    .1
                    .weapons
                    .len()
            && (a.aimed as usize) < units[a.target as usize].sections.len()
            && (a.onto as usize) < units[a.target as usize].sections.len()
    };
    let ok = match &now.phase {
        Phase::NewtypeSave { unit } | Phase::FightOrFlight { unit } | Phase::Turn { unit, .. } => {
            *unit < n
        }
        Phase::Initiative { left } => left.iter().all(|&u| u < n),
        Phase::Strike { attack }
        | Phase::Defend { attack }
        | Phase::DefenceDie { attack, .. }
        | Phase::MayRoll { attack }
        | Phase::BeamSave { attack }
        | Phase::StunSave { attack }
        | Phase::Damage { attack, .. } => ok_attack(attack),
        Phase::Over => now.outcome.is_some(),
    };
    let ok_stun = now.units.iter().all(|x| {
        x.stunned.is_none_or(|s| {
            s.by < n
                && (s.weapon as usize)
                    < fixed.kinds[units[s.by as usize].kind as usize]
                        .1
                        .weapons
                        .len()
        })
    });
    if !ok || !ok_stun || now.order.iter().any(|&u| u >= n) {
        return bad("the phase names a combatant, weapon or section the game does not have");
    }
    Ok(())
}

impl MsD20 {
    pub fn new(setup: &Setup) -> Result<MsD20, SetupError> {
        let (fixed, units) = check_setup(setup)?;
        let mut g = MsD20 {
            fixed: Arc::new(fixed),
            now: Progress {
                units,
                melee: 0,
                order: Vec::new(),
                cursor: 0,
                phase: Phase::Over,
                outcome: None,
            },
        };
        g.begin_melee(&mut Vec::new());
        Ok(g)
    }
}
