//! Moving (SWTB-2, SWTB-U1) and the board's occupancy.
//!
//! Rule ids owned here: SWTB-2 (move or attack; moving into contact allows an attack),
//! SWTB-V1 (a ground vehicle moves or shoots, and only a figure's move into contact allows
//! an attack), and the scenario goal "reach". It reads each unit type's move (SWTB-U1,
//! owned by [`crate::data`]). Fliers move by
//! [`crate::fliers`].

use crate::data::{Class, Goal, Weapon};
use crate::events::{Action, Dest, Event};
use crate::legal::{Plan, Why};
use crate::state::{Place, Swtb, Terrain, UnitId};
use battlemat_geom::{Cell, CellSet};

/// The board at one moment: the unit on each cell and which cells block sight.
pub struct Occupancy {
    /// The unit on each cell by index, [`Occupancy::EMPTY`] for none.
    unit: Vec<u8>,
    /// The cells that block sight, for the grid's sight table.
    pub blocking: CellSet,
    /// The same, by index, when the grid has no sight table (else empty).
    blocks_sight: Vec<bool>,
    /// Every cell with a unit on it, and those with a ground unit of each side (grids with
    /// tables).
    occupied: CellSet,
    ground: [CellSet; 2],
}

impl Occupancy {
    const EMPTY: u8 = u8::MAX;

    /// The unit on the cell with index `i`.
    pub fn unit_on(&self, i: usize) -> Option<UnitId> {
        Some(self.unit[i]).filter(|&u| u != Self::EMPTY)
    }

    pub fn is_empty(&self, i: usize) -> bool {
        self.unit[i] == Self::EMPTY
    }

    /// Does the cell with index `i` block sight?
    pub fn blocks(&self, i: usize) -> bool {
        match self.blocks_sight.get(i) {
            Some(b) => *b,
            None => self.blocking.contains(i),
        }
    }
}

impl Swtb {
    /// Who stands where, and which cells block sight (SWTB-4): worked out once per question
    /// about the board, not once per line traced.
    pub(crate) fn occupancy(&self) -> Occupancy {
        let n = self.fixed.terrain.len();
        let table = self.fixed.topology.has_sight_table();
        let mut occ = Occupancy {
            unit: vec![Occupancy::EMPTY; n],
            blocking: CellSet::default(),
            blocks_sight: Vec::new(),
            occupied: CellSet::default(),
            ground: [CellSet::default(); 2],
        };
        let block = |occ: &mut Occupancy, i: usize| {
            if table {
                occ.blocking.insert(i);
            } else {
                occ.blocks_sight[i] = true;
            }
        };
        if !table {
            occ.blocks_sight = vec![false; n];
        }
        if table {
            occ.blocking = self.fixed.terrain_blocking;
        } else {
            for (i, t) in self.fixed.terrain.iter().enumerate() {
                if matches!(t, Terrain::Wall | Terrain::Hill) {
                    block(&mut occ, i);
                }
            }
        }
        for (u, unit) in self.now.units.iter().enumerate() {
            if let Place::Field(c) = unit.place {
                let i = self.fixed.grid.index(c);
                occ.unit[i] = u as u8;
                occ.occupied.insert(i);
                // Fliers on the battlefield are above it and block nothing.
                if !self.fixed.types[unit.kind as usize].flies() {
                    block(&mut occ, i);
                    occ.ground[unit.side as usize & 1].insert(i);
                }
            }
        }
        occ
    }

    /// Cells a ground unit can reach with its move (SWTB-2, SWTB-U1): through empty cells
    /// and friends, never through walls or enemies, ending on an empty cell. In board order.
    pub(crate) fn reachable(&self, u: UnitId, occ: &Occupancy) -> Vec<Cell> {
        let mut out = Vec::new();
        self.each_reachable(u, occ, |c| out.push(c));
        out
    }

    /// [`Swtb::reachable`], each cell handed to `found` in board order.
    pub(crate) fn each_reachable(&self, u: UnitId, occ: &Occupancy, mut found: impl FnMut(Cell)) {
        let Some(start) = self.cell_of(u) else {
            return;
        };
        // On grids with tables, the search is a few set operations: cells within the move,
        // through cells that are neither walls nor enemy ground units (friends and fliers
        // are passed through), ending on an empty cell.
        let topo = &self.fixed.topology;
        let side = self.now.units[u as usize].side as usize & 1;
        let passable = self.fixed.open.without(&occ.ground[1 - side]);
        let start_i = self.fixed.grid.index(start);
        if let Some(reached) = topo.within(start_i, u32::from(self.ty(u).r#move), &passable) {
            for i in reached.without(&occ.occupied).iter() {
                found(topo.cell(i));
            }
            return;
        }
        // Larger grids: breadth-first, cell by cell.
        let n = occ.unit.len();
        self.search(
            u,
            start,
            occ,
            &mut vec![u8::MAX; n],
            &mut vec![0u16; n],
            &mut found,
        );
    }

    /// Breadth-first from `start`, by cell index, in the buffers given (`dist` all unseen).
    fn search(
        &self,
        u: UnitId,
        start: Cell,
        occ: &Occupancy,
        dist: &mut [u8],
        queue: &mut [u16],
        found: &mut impl FnMut(Cell),
    ) {
        let g = &self.fixed.grid;
        let topo = &self.fixed.topology;
        let steps = self.ty(u).r#move;
        let side = self.now.units[u as usize].side;
        let s = g.index(start);
        dist[s] = 0;
        queue[0] = s as u16;
        let (mut head, mut len) = (0, 1);
        while head < len {
            let i = queue[head] as usize;
            head += 1;
            let d = dist[i];
            if d >= steps {
                continue;
            }
            for &m in topo.neighbours(i) {
                let m = m as usize;
                if dist[m] != u8::MAX || self.fixed.terrain[m] == Terrain::Wall {
                    continue;
                }
                let passable = match occ.unit_on(m) {
                    None => true,
                    Some(o) => self.now.units[o as usize].side == side || self.ty(o).flies(),
                };
                if passable {
                    dist[m] = d + 1;
                    queue[len] = m as u16;
                    len += 1;
                }
            }
        }
        // Destinations in board order: reached, and empty (the start is not empty).
        let reached = &mut queue[1..len];
        reached.sort_unstable();
        let w = g.width as usize;
        for &i in reached.iter() {
            if occ.is_empty(i as usize) {
                found(Cell::new((i as usize % w) as u8, (i as usize / w) as u8));
            }
        }
    }

    /// Can `u` reach `to` with its move? The breadth-first search of [`Swtb::reachable`],
    /// stopped as soon as `to` is reached.
    pub(crate) fn can_reach(&self, u: UnitId, to: Cell, occ: &Occupancy) -> bool {
        let Some(start) = self.cell_of(u) else {
            return false;
        };
        let g = &self.fixed.grid;
        if !occ.is_empty(g.index(to)) || g.distance(start, to) > u32::from(self.ty(u).r#move) {
            return false;
        }
        self.reachable(u, occ)
            .binary_search_by_key(&g.index(to), |c| g.index(*c))
            .is_ok()
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
        if !occ.is_empty(self.fixed.grid.index(c)) {
            return Err(Why::Taken(c));
        }
        if !self.can_reach(u, c, &occ) {
            return Err(Why::OutOfReach(u, c));
        }
        Ok(Plan::Move { unit: u, to })
    }

    /// Every move of `u` (which has not acted).
    pub(crate) fn legal_moves(&self, u: UnitId, occ: &Occupancy, out: &mut Vec<Action>) {
        if self.ty(u).flies() {
            self.legal_flights(u, occ, out);
        } else if self.ty(u).r#move > 0 {
            self.each_reachable(u, occ, |c| {
                out.push(Action::Move {
                    unit: u,
                    to: Dest::Cell(c),
                })
            });
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
