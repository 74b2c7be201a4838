//! Moving (SWTB-2, SWTB-U1) and the board's occupancy.
//!
//! Rule ids owned here: SWTB-2 (move or attack; moving into contact allows an attack),
//! SWTB-U1 (each unit type's move), and the scenario goal "reach". Fliers move by
//! [`crate::fliers`].

use crate::data::{Class, Goal, Weapon};
use crate::events::{Action, Dest, Event};
use crate::legal::{Plan, Why};
use crate::state::{Place, Swtb, Terrain, UnitId};
use battlemat_geom::Cell;

/// The board at one moment: the unit on each cell and whether each cell blocks sight.
pub struct Occupancy {
    pub unit: Vec<Option<UnitId>>,
    pub blocks_sight: Vec<bool>,
}

impl Swtb {
    /// Who stands where, and which cells block sight (SWTB-4): worked out once per question
    /// about the board, not once per line traced.
    pub(crate) fn occupancy(&self) -> Occupancy {
        let n = self.fixed.terrain.len();
        let mut occ = Occupancy {
            unit: vec![None; n],
            blocks_sight: self
                .fixed
                .terrain
                .iter()
                .map(|t| matches!(t, Terrain::Wall | Terrain::Hill))
                .collect(),
        };
        for u in self.ids() {
            if let Place::Field(c) = self.now.units[u as usize].place {
                let i = self.fixed.grid.index(c);
                occ.unit[i] = Some(u);
                // Fliers on the battlefield are above it and block nothing.
                occ.blocks_sight[i] |= !self.ty(u).flies();
            }
        }
        occ
    }

    /// Cells a ground unit can reach with its move (SWTB-2, SWTB-U1): through empty cells
    /// and friends, never through walls or enemies, ending on an empty cell. In board order.
    pub(crate) fn reachable(&self, u: UnitId, occ: &Occupancy) -> Vec<Cell> {
        let Some(start) = self.cell_of(u) else {
            return vec![];
        };
        let g = &self.fixed.grid;
        let steps = self.ty(u).r#move;
        let side = self.now.units[u as usize].side;
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
                    Some(o) => self.now.units[o as usize].side == side || self.ty(o).flies(),
                };
                if passable {
                    dist[i] = d + 1;
                    queue.push(n);
                }
            }
        }
        let mut out: Vec<Cell> = queue[1..]
            .iter()
            .copied()
            .filter(|c| occ.unit[g.index(*c)].is_none())
            .collect();
        out.sort_unstable_by_key(|c| g.index(*c));
        out
    }

    pub(crate) fn plan_move(&self, u: UnitId, to: Dest) -> Result<Plan, Why> {
        self.can_start(u)?;
        if self.now.units[u as usize].acted {
            return Err(Why::Acted(u));
        }
        let occ = self.occupancy();
        if self.ty(u).flies() {
            self.plan_flight(u, to, &occ)?;
            return Ok(Plan::Move { unit: u, to });
        }
        let Dest::Cell(c) = to else {
            return Err(Why::OnlyFliersLine);
        };
        if self.ty(u).r#move == 0 {
            return Err(Why::FixedInPlace(u));
        }
        if !self.fixed.grid.contains(c) {
            return Err(Why::OffBoard(c));
        }
        if occ.unit[self.fixed.grid.index(c)].is_some() {
            return Err(Why::Taken(c));
        }
        if !self.reachable(u, &occ).contains(&c) {
            return Err(Why::OutOfReach(u, c));
        }
        Ok(Plan::Move { unit: u, to })
    }

    /// Every move of `u` (which has not acted).
    pub(crate) fn legal_moves(&self, u: UnitId, occ: &Occupancy, out: &mut Vec<Action>) {
        if self.ty(u).flies() {
            self.legal_flights(u, occ, out);
        } else if self.ty(u).r#move > 0 {
            for c in self.reachable(u, occ) {
                out.push(Action::Move {
                    unit: u,
                    to: Dest::Cell(c),
                });
            }
        }
    }

    pub(crate) fn do_move(&mut self, unit: UnitId, to: Dest, ev: &mut Vec<Event>) {
        let u = &mut self.now.units[unit as usize];
        u.acted = true;
        u.back_to_line = false; // a flier that moves on is where it moved to
        u.place = match to {
            Dest::Cell(c) => Place::Field(c),
            Dest::Line => Place::Line,
        };
        ev.push(Event::Moved {
            unit,
            name: self.name_of(unit),
            to,
        });
        let Dest::Cell(c) = to else {
            return;
        };
        // SWTB-2: a figure that moves into contact with an enemy may attack.
        let g = &self.fixed.grid;
        let active = self.now.active;
        let contact = self.ty(unit).class == Class::Figure
            && self.ty(unit).weapon != Weapon::None
            && self.now.units.iter().any(|e| {
                e.side != active && matches!(e.place, Place::Field(ec) if g.adjacent(c, ec))
            });
        self.now.units[unit as usize].may_attack = contact;
        // Scenario goal: reaching the objective wins at once.
        if let Some(Goal::Reach { side, cells }) = &self.fixed.setup.scenario.goal
            && *side == active
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
