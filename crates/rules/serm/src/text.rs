//! The words: prompts and the observation — the table from above and every soldier.

use crate::data::INCH;
use crate::state::{Phase, Serm};
use battlemat_core::Viewer;
use serde::Serialize;
use std::fmt;

#[derive(Clone, Debug, Serialize)]
pub struct SoldierView {
    pub id: u8,
    pub card: String,
    pub side: u8,
    pub at: (f64, f64),
    pub facing: (i64, i64),
    pub alive: bool,
    /// S, E, R, M.
    pub stats: [u8; 4],
}

#[derive(Clone, Debug, Serialize)]
pub struct Observation {
    pub scenario: String,
    pub sides: [String; 2],
    pub activations: u16,
    pub soldiers: Vec<SoldierView>,
    /// The table from above, two characters an inch, the far edge (36 in) at the top.
    pub map: Vec<String>,
    pub status: String,
}

impl fmt::Display for Observation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{} — activation {}", self.scenario, self.activations)?;
        for l in &self.map {
            writeln!(f, "{l}")?;
        }
        for s in &self.soldiers {
            writeln!(
                f,
                "u{} {} [{}] S{} E{} R{} M{} at {:.2},{:.2}{}",
                s.id,
                s.card,
                self.sides[s.side as usize],
                s.stats[0],
                s.stats[1],
                s.stats[2],
                s.stats[3],
                s.at.0,
                s.at.1,
                if s.alive { "" } else { " — eliminated" }
            )?;
        }
        if self.status.starts_with("Game over") {
            writeln!(f, "{}", self.status)?;
        }
        Ok(())
    }
}

impl Serm {
    pub fn prompt_text(&self) -> String {
        let side = |s: u8| self.fixed.side_names[s as usize].clone();
        match &self.now.phase {
            Phase::FirstDie => "who has the initiative first: odd, the first side".into(),
            Phase::Activate {
                side: s,
                only: None,
            } => format!("{}: shoot or move with a soldier", side(*s)),
            Phase::Activate {
                side: s,
                only: Some(o),
            } => {
                let v: Vec<String> = o.iter().map(|&u| self.name(u)).collect();
                format!(
                    "{}: the reactor acts — shoot or move with {}",
                    side(*s),
                    v.join(" or ")
                )
            }
            Phase::Shooting {
                shooter,
                target,
                shot: None,
                ..
            } => {
                format!(
                    "{}'s shoot pool at {}",
                    self.name(*shooter),
                    self.name(*target)
                )
            }
            Phase::Shooting {
                target,
                shot: Some(s),
                ..
            } => format!("{}'s endure pool against {s}", self.name(*target)),
            Phase::Blast { soldier, .. } => format!(
                "{}'s blast: 1d6 × 2 inches (a 1 kills it)",
                self.name(*soldier)
            ),
            Phase::MoveRoll { mover, .. } => format!("{}'s move pool", self.name(*mover)),
            Phase::Aim { mover, total } => {
                if self.fixed.setup.options.commando_turn == crate::options::CommandoTurn::TurnOnce
                {
                    format!(
                        "{}: moves {total} inches — which way? (aim WAY, or aim WAY turn INCHES WAY to turn once on the way)",
                        self.name(*mover)
                    )
                } else {
                    format!("{}: moves {total} inches — which way?", self.name(*mover))
                }
            }
            Phase::ReactChoice { moving } => format!(
                "{}: {} will move {} inches — react with a soldier that sees it, or pass",
                side(1 - self.soldier(moving.mover).side),
                self.name(moving.mover),
                moving.total
            ),
            Phase::Reacting {
                reactor, moving, ..
            } => {
                format!(
                    "{}'s react pool against {}",
                    self.name(*reactor),
                    moving.total
                )
            }
            Phase::StopWhere { moving, reactor } => format!(
                "{}: stop {} where along its path (0 to {:.2} inches)?",
                side(self.soldier(*reactor).side),
                self.name(moving.mover),
                self.path_length(moving) as f64 / INCH as f64
            ),
            Phase::Over => String::new(),
        }
    }

    pub fn observation(&self, _v: Viewer) -> Observation {
        let t = self.table();
        let (w, d) = ((t.width / INCH) as usize, (t.depth / INCH) as usize);
        let mut grid = vec![vec!['.'; w * 2]; d];
        for (r, row) in grid.iter_mut().enumerate() {
            for (c, ch) in row.iter_mut().enumerate() {
                let p = battlemat_geom::table::Point::new(
                    (c as i64 * INCH) / 2 + INCH / 4,
                    ((d - 1 - r) as i64) * INCH + INCH / 2,
                );
                if t.pieces.iter().any(|pc| pc.outline.contains(p)) {
                    *ch = '#';
                }
            }
        }
        for s in self.ids() {
            let x = self.soldier(s);
            if !x.alive {
                continue;
            }
            let c = ((x.at.x * 2) / INCH) as usize;
            let r = (x.at.y / INCH) as usize;
            if r < d && c + 1 < w * 2 {
                let label: Vec<char> = format!("{:<2}", s).chars().collect();
                let row = d - 1 - r;
                grid[row][c] = label[0];
                grid[row][c + 1] = label[1];
            }
        }
        let map = grid
            .into_iter()
            .map(|r| r.into_iter().collect::<String>())
            .collect();
        Observation {
            scenario: self.fixed.setup.scenario.name.clone(),
            sides: self.fixed.side_names.clone(),
            activations: self.now.activations,
            soldiers: self
                .ids()
                .map(|s| {
                    let x = self.soldier(s);
                    let c = self.card(s);
                    SoldierView {
                        id: s,
                        card: c.name.clone(),
                        side: x.side,
                        at: (x.at.x as f64 / INCH as f64, x.at.y as f64 / INCH as f64),
                        facing: x.facing,
                        alive: x.alive,
                        stats: [c.shoot, c.endure, c.react, c.movement],
                    }
                })
                .collect(),
            map,
            status: match &self.now.outcome {
                Some(o) => format!("Game over: {}", o.reason),
                None => self.prompt_text(),
            },
        }
    }
}
