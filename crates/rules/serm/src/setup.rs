//! Checking a setup once: the table, the cards, each side's soldiers on the table and clear
//! of terrain and each other, a points line-up within its points; a saved state checked as
//! strictly.

use crate::data::{BASE_RADIUS, INCH, Setup};
use crate::state::{Fixed, Phase, Progress, Serm, Soldier};
use battlemat_core::SetupError;
use battlemat_geom::table::{Base, OverBound, Ticks};

/// The longest side a table may have, in inches (the scenarios' are 36): bounds the text
/// map (two characters an inch) and the picture, in scenario and game files alike.
pub const MAX_TABLE_INCHES: Ticks = 144;
/// The most terrain pieces a table may have.
pub const MAX_TERRAIN: usize = 256;
use std::sync::Arc;

pub fn check_setup(setup: &Setup) -> Result<(Fixed, Vec<Soldier>), SetupError> {
    let s = &setup.scenario;
    s.table
        .check()
        .map_err(|e| match battlemat_geom::table::piece_of(&e) {
            Some((i, m)) => SetupError::new(format!("scenario.terrain[{i}]"), m),
            None => SetupError::new("scenario.terrain", e),
        })?;
    s.table
        .check_bounds(MAX_TABLE_INCHES * INCH, MAX_TERRAIN)
        .map_err(|over| match over {
            OverBound::Side => SetupError::new(
                "scenario.width",
                format!(
                    "a table of {} × {} inches: at most {MAX_TABLE_INCHES} inches a side",
                    s.table.width as f64 / INCH as f64,
                    s.table.depth as f64 / INCH as f64
                ),
            ),
            OverBound::Pieces => SetupError::new(
                "scenario.terrain",
                format!(
                    "{} terrain pieces: at most {MAX_TERRAIN}",
                    s.table.pieces.len()
                ),
            ),
            OverBound::Corners(i) => SetupError::new(
                format!("scenario.terrain[{i}].corners"),
                format!("at most {} corners", battlemat_geom::table::MAX_CORNERS),
            ),
        })?;
    if s.sides.len() != 2 {
        return Err(SetupError::new(
            "scenario.sides",
            "two sides (SERM is for 2 players)",
        ));
    }
    setup.seating.check(2, 2, "option seats")?;
    let cards: Vec<(String, crate::data::Card)> = setup
        .cards
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let mut soldiers: Vec<Soldier> = Vec::new();
    for (si, (_, list)) in s.sides.iter().enumerate() {
        if list.is_empty() {
            return Err(SetupError::new(
                format!("scenario.sides[{si}].soldiers"),
                "a side with no soldiers",
            ));
        }
        let mut points = 0;
        for (k, (card, at)) in list.iter().enumerate() {
            let where_ = format!("scenario.sides[{si}].soldiers[{k}]");
            let Some(c) = cards.iter().position(|(key, _)| key == card) else {
                let keys: Vec<&str> = cards.iter().map(|(k, _)| k.as_str()).collect();
                return Err(SetupError::new(
                    format!("{where_}.card"),
                    format!("no card {card:?} ({})", keys.join(", ")),
                ));
            };
            points += cards[c].1.cost();
            let b = Base::new(*at, BASE_RADIUS);
            let others: Vec<Base> = soldiers
                .iter()
                .map(|x| Base::new(x.at, BASE_RADIUS))
                .collect();
            if !s.table.clear(&b, &others, &[]) {
                return Err(SetupError::new(
                    format!("{where_}.at"),
                    "off the table, in terrain, or on another soldier",
                ));
            }
            soldiers.push(Soldier {
                card: c as u16,
                side: si as u8,
                at: *at,
                facing: (0, if si == 0 { 1 } else { -1 }),
                alive: true,
            });
        }
        if let Some(p) = s.points
            && points > p
        {
            return Err(SetupError::new(
                format!("scenario.sides[{si}].soldiers"),
                format!("{points} points of cards (S+E+R+M each) against the {p} allowed"),
            ));
        }
    }
    if soldiers.len() > 64 {
        return Err(SetupError::new("scenario.sides", "at most 64 soldiers"));
    }
    let fixed = Fixed {
        setup: setup.clone(),
        seating: setup.seating.clone(),
        cards,
        side_names: [s.sides[0].0.clone(), s.sides[1].0.clone()],
        limit: setup.options.activations.limit(),
    };
    Ok((fixed, soldiers))
}

pub fn check_progress(
    fixed: &Fixed,
    soldiers: &[Soldier],
    now: &Progress,
) -> Result<(), SetupError> {
    let bad = |m: &str| Err(SetupError::new("now", m.to_string()));
    if now.soldiers.len() != soldiers.len()
        || now
            .soldiers
            .iter()
            .zip(soldiers)
            .any(|(a, b)| (a.card, a.side) != (b.card, b.side))
    {
        return bad("not the setup's soldiers");
    }
    let t = &fixed.setup.scenario.table;
    if now
        .soldiers
        .iter()
        .any(|x| x.at.x < 0 || x.at.y < 0 || x.at.x > t.width || x.at.y > t.depth)
    {
        return bad("a soldier off the table");
    }
    let n = soldiers.len() as u8;
    let ok = match &now.phase {
        Phase::Activate { side, only } => {
            *side < 2 && only.as_ref().is_none_or(|o| o.iter().all(|&s| s < n))
        }
        Phase::Shooting {
            shooter, target, ..
        } => *shooter < n && *target < n,
        Phase::Blast { soldier, wind, .. } => *soldier < n && *wind < 16,
        Phase::MoveRoll { mover, .. } | Phase::Aim { mover, .. } => *mover < n,
        Phase::ReactChoice { moving } => moving.mover < n,
        Phase::Reacting {
            moving, reactor, ..
        }
        | Phase::StopWhere { moving, reactor } => moving.mover < n && *reactor < n,
        Phase::FirstDie => true,
        Phase::Over => now.outcome.is_some(),
    };
    if !ok {
        return bad("the phase names a soldier or side the game does not have");
    }
    Ok(())
}

impl Serm {
    pub fn new(setup: &Setup) -> Result<Serm, SetupError> {
        let (fixed, soldiers) = check_setup(setup)?;
        Ok(Serm {
            fixed: Arc::new(fixed),
            now: Progress {
                soldiers,
                phase: Phase::FirstDie,
                activations: 0,
                last_path: None,
                last_blast: None,
                outcome: None,
            },
        })
    }
}
