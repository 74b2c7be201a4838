//! A saved state checked as strictly as a setup (`Game` deserialisation): the bodies match
//! the setup's, every unit is on the table or aboard a transport, and the phase and every
//! pending step name units, seats and pieces that exist — so a hand-edited or corrupt file
//! is refused with where it is wrong, never played into a panic.

use crate::data::MissionKind;
use crate::state::{Body, Fixed, Phase, Progress};
use battlemat_core::SetupError;

/// Check a saved state as strictly as a setup: the bodies match the setup's, every unit is
/// on the table or aboard a transport, and the phase names units that exist.
/// `start = edge`: one edge a seat (or none chosen yet), no two seats on one; none kept
/// when the mission's posts are fixed.
fn check_edges(fixed: &Fixed, now: &Progress) -> Result<(), SetupError> {
    use crate::setup::{EDGE_NAMES, NO_EDGE, seats_choose_edges};
    let chosen = fixed.options.start == crate::data::Start::Edge && seats_choose_edges(fixed.kind);
    if !chosen {
        return match now.edges.is_empty() {
            true => Ok(()),
            false => Err(SetupError::new(
                "now.edges",
                "the posts are fixed (start = posts, or the mission's): no edges chosen",
            )),
        };
    }
    if now.edges.len() != fixed.players as usize {
        return Err(SetupError::new(
            "now.edges",
            format!("one edge per player ({})", fixed.players),
        ));
    }
    for (i, &e) in now.edges.iter().enumerate() {
        if e != NO_EDGE && e as usize >= EDGE_NAMES.len() {
            return Err(SetupError::new(
                format!("now.edges[{i}]"),
                "no such table edge",
            ));
        }
        if e != NO_EDGE && now.edges[..i].contains(&e) {
            return Err(SetupError::new(
                format!("now.edges[{i}]"),
                "two players on one table edge",
            ));
        }
    }
    Ok(())
}

pub fn check_progress(fixed: &Fixed, now: &Progress) -> Result<(), SetupError> {
    let n = fixed.players as usize;
    if now.tokens.len() != n || now.out_at.len() != n {
        return Err(SetupError::new(
            "now.tokens",
            format!("one count per player ({n})"),
        ));
    }
    if now.active >= fixed.players || now.first >= fixed.players {
        return Err(SetupError::new("now.active", "no such player"));
    }
    check_edges(fixed, now)?;
    let count = now.units.len();
    if count > 250 {
        return Err(SetupError::new("now.units", "too many units"));
    }
    for (i, u) in now.units.iter().enumerate() {
        let at = format!("now.units[{i}]");
        if let Body::Unit { kind } = u.body
            && kind as usize >= fixed.chart.len()
        {
            return Err(SetupError::new(at, "a unit kind not in the chart"));
        }
        let m = battlemat_geom::table::MAX_COORD as u64;
        if [u.at.x, u.at.y, u.home.x, u.home.y]
            .iter()
            .any(|c| c.unsigned_abs() > m)
        {
            return Err(SetupError::new(at, "a position far off the table"));
        }
        if u.owner.is_some_and(|s| s >= fixed.players) {
            return Err(SetupError::new(at, "owned by no player"));
        }
        if !u.is_unit() && u.owner.is_some() {
            return Err(SetupError::new(
                at,
                "only units have owners; balls, bombs, animals and eggs do not",
            ));
        }
        if u.is_enemy()
            && !matches!(
                fixed.kind,
                MissionKind::EggHunt | MissionKind::Convoy | MissionKind::BattleZones
            )
        {
            return Err(SetupError::new(at, "a unit with no owner"));
        }
        if let Some(t) = u.aboard
            && (t as usize >= count || now.units[t as usize].aboard.is_some())
        {
            return Err(SetupError::new(at, "aboard no transport"));
        }
        if u.on_table() {
            let b = u.base();
            if !fixed.table.on_table(&b) {
                return Err(SetupError::new(at, "off the table"));
            }
        }
        if u.actions > 2 {
            return Err(SetupError::new(at, "a unit has two actions a turn"));
        }
    }
    check_references(fixed, now)?;
    Ok(())
}

/// Every unit, seat and piece a saved state's phase, pending steps and charge name exists.
/// What a saved state's ids may name: its units, its seats, its terrain.
struct Refs<'a> {
    fixed: &'a Fixed,
    now: &'a Progress,
}

impl Refs<'_> {
    fn unit(&self, u: u8, at: &str) -> Result<(), SetupError> {
        if (u as usize) < self.now.units.len() {
            Ok(())
        } else {
            Err(SetupError::new(
                at,
                format!("names unit u{u}, which does not exist"),
            ))
        }
    }

    fn seat(&self, s: u8, at: &str) -> Result<(), SetupError> {
        if s < self.fixed.players {
            Ok(())
        } else {
            Err(SetupError::new(
                at,
                format!("names seat {s}, which does not exist"),
            ))
        }
    }

    fn fight(&self, f: &crate::state::Fight, at: &str) -> Result<(), SetupError> {
        use crate::state::Striker;
        if let Striker::Unit(u) | Striker::Ball(u) | Striker::Animal(u) = f.striker {
            self.unit(u, at)?;
        }
        self.unit(f.target, at)?;
        if let Some(s) = f.by {
            self.seat(s, at)?;
        }
        Ok(())
    }

    fn choice(&self, c: &crate::state::Choice, at: &str) -> Result<(), SetupError> {
        use crate::state::Choice;
        self.seat(c.seat(), at)?;
        match *c {
            Choice::Push { mover, .. } => self.unit(mover, at),
            Choice::TakeHill { unit: u, .. } => self.unit(u, at),
            Choice::EarnedCheer { .. } => Ok(()),
            Choice::FreeAttack { unit: u, .. } => self.unit(u, at),
            Choice::Draws { .. } | Choice::GiveUp { .. } => Ok(()),
        }
    }
}

fn check_references(fixed: &Fixed, now: &Progress) -> Result<(), SetupError> {
    let r = Refs { fixed, now };
    if let Some(u) = now.charge {
        r.unit(u, "now.charge")?;
    }
    check_phase_references(&r)?;
    check_pending_references(&r)
}

/// The ids the phase names, and that what it rolls for is there.
fn check_phase_references(r: &Refs<'_>) -> Result<(), SetupError> {
    let (now, players) = (r.now, r.fixed.players);
    let at = "now.phase";
    match &now.phase {
        Phase::Draft { seat: s } | Phase::StartHidden { seat: s } | Phase::Deploy { seat: s } => {
            r.seat(*s, at)?
        }
        Phase::TurnOrder {
            seat: s, rolling, ..
        } => {
            r.seat(*s, at)?;
            if u16::from(*rolling) >= 1 << players {
                return Err(SetupError::new(at, "rolling seats that do not exist"));
            }
        }
        Phase::Fight(f) => r.fight(f, at)?,
        Phase::Choose(c) => r.choice(c, at)?,
        Phase::BreakIn { unit: u, .. } => r.unit(*u, at)?,
        Phase::AnimalRecover { animal, .. } | Phase::AnimalCharge { animal, .. } => {
            r.unit(*animal, at)?;
            if !now.units[*animal as usize].is_animal() {
                return Err(SetupError::new(
                    at,
                    "an animal's roll for a body that is not one",
                ));
            }
        }
        Phase::ZoneCard { zone } => {
            if now
                .zones
                .as_ref()
                .is_none_or(|z| *zone as usize >= z.cards.len() || z.deck.iter().all(|&n| n == 0))
            {
                return Err(SetupError::new(
                    at,
                    "a zone that does not exist, or no card left",
                ));
            }
        }
        Phase::BlipReveal { blip, unit: u } => {
            r.unit(*blip, at)?;
            r.unit(*u, at)?;
            if !now.units[*blip as usize].is_blip()
                || now
                    .zones
                    .as_ref()
                    .is_none_or(|z| z.blips.iter().all(|&n| n == 0))
            {
                return Err(SetupError::new(
                    at,
                    "reveals a blip that is not one, or none is left",
                ));
            }
        }
        Phase::MineRoll { mine, unit: u } => {
            r.unit(*mine, at)?;
            if let Some(u) = u {
                r.unit(*u, at)?;
            }
            if !now.units[*mine as usize].is_mine() {
                return Err(SetupError::new(at, "rolls for a bomb that is not one"));
            }
        }
        Phase::OrderRoll { seat: s, .. }
        | Phase::EnemyDraw { seat: s, .. }
        | Phase::CaptureRoll { seat: s, .. } => {
            r.seat(*s, at)?;
            if now.convoy.is_none() {
                return Err(SetupError::new(at, "a convoy's roll outside a convoy"));
            }
            if matches!(now.phase, Phase::EnemyDraw { .. })
                && now.convoy.as_ref().is_some_and(|c| c.pool_size() == 0)
            {
                return Err(SetupError::new(at, "a draw from an empty pool"));
            }
        }
        Phase::EggOpens { egg, by } => {
            r.unit(*egg, at)?;
            if let Some(s) = by {
                r.seat(*s, at)?;
            }
            if !now.units[*egg as usize].is_egg() || now.eggs.is_none_or(|c| c.total() == 0) {
                return Err(SetupError::new(
                    at,
                    "opens an egg that is not one, or none is left",
                ));
            }
        }
        Phase::EggBomb { bomb, .. } | Phase::BombRoll { bomb, .. } => {
            r.unit(*bomb, at)?;
            if !matches!(now.units[*bomb as usize].body, Body::Bomb { .. }) {
                return Err(SetupError::new(at, "rolls for a bomb that is not one"));
            }
        }
        Phase::Turn | Phase::FastMoves | Phase::Over => {}
    }
    Ok(())
}

/// The ids the things still to happen name.
fn check_pending_references(r: &Refs<'_>) -> Result<(), SetupError> {
    use crate::state::Pending;
    let (now, fixed) = (r.now, r.fixed);
    for (i, p) in now.pending.iter().enumerate() {
        let at = format!("now.pending[{i}]");
        match p {
            Pending::Motion(m) => {
                r.unit(m.body, &at)?;
                if let Some(u) = m.past {
                    r.unit(u, &at)?;
                }
                if let Some(s) = m.by {
                    r.seat(s, &at)?;
                }
            }
            Pending::Fight(f) => r.fight(f, &at)?,
            Pending::Choose(c) => r.choice(c, &at)?,
            Pending::ShipDamaged | Pending::ZoneCard { .. } => {}
            Pending::Reveal { blip, unit: u } => {
                r.unit(*blip, &at)?;
                r.unit(*u, &at)?;
            }
            Pending::Retreat { unit: u } => r.unit(*u, &at)?,
            Pending::Open { egg, by } => {
                r.unit(*egg, &at)?;
                if let Some(s) = by {
                    r.seat(*s, &at)?;
                }
            }
            Pending::OffHill {
                attacker,
                target,
                piece,
                ..
            } => {
                r.unit(*attacker, &at)?;
                r.unit(*target, &at)?;
                if *piece as usize >= fixed.table.pieces.len() {
                    return Err(SetupError::new(
                        at,
                        "names a terrain piece that does not exist",
                    ));
                }
            }
            Pending::Spray {
                unit: u, target, ..
            } => {
                r.unit(*u, &at)?;
                r.unit(*target, &at)?;
            }
        }
    }
    Ok(())
}
