//! Ships and flying units (SWTB-F1..F5).
//!
//! Rule ids owned here: SWTB-F1 (lined up off the battlefield; a ground attack ends beside
//! the target and returns after the opponent's turn), SWTB-F2 (move anywhere), SWTB-F3
//! (dogfight), SWTB-F4 (intercept), SWTB-F5 (ground attack). The attack kinds are chosen in
//! [`crate::combat`]'s attack rule and resolved there.

use crate::events::{Action, Dest, Event};
use crate::legal::Why;
use crate::movement::Occupancy;
use crate::state::{Place, Swtb, Terrain, UnitId};
use battlemat_geom::Cell;

impl Swtb {
    /// SWTB-F2: flying units may move anywhere on the battlefield, or back to the line.
    pub(crate) fn plan_flight(&self, u: UnitId, to: Dest, occ: &Occupancy) -> Result<(), Why> {
        match to {
            Dest::Line if self.now.units[u as usize].place == Place::Line => {
                Err(Why::AlreadyOnLine)
            }
            Dest::Line => Ok(()),
            Dest::Cell(c) => {
                if !self.fixed.grid.contains(c) {
                    Err(Why::OffBoard(c))
                } else if !occ.is_empty(self.fixed.grid.index(c)) {
                    Err(Why::FlierTaken(c))
                } else if self.terrain(c) == Terrain::Wall {
                    Err(Why::FlierWall(c))
                } else {
                    Ok(())
                }
            }
        }
    }

    pub(crate) fn legal_flights(&self, u: UnitId, occ: &Occupancy, out: &mut Vec<Action>) {
        if self.now.units[u as usize].place != Place::Line {
            out.push(Action::Move {
                unit: u,
                to: Dest::Line,
            });
        }
        let g = &self.fixed.grid;
        for c in g.cells() {
            let i = g.index(c);
            if occ.is_empty(i) && self.fixed.terrain[i] != Terrain::Wall {
                out.push(Action::Move {
                    unit: u,
                    to: Dest::Cell(c),
                });
            }
        }
    }

    /// Where flier `u` may end up to ground-attack `target` (SWTB-F1): a cell beside the
    /// target that is empty (or where the flier already is), and not a wall.
    pub(crate) fn landing_cells(&self, u: UnitId, target: UnitId, occ: &Occupancy) -> Vec<Cell> {
        let Some(c) = self.cell_of(target) else {
            return vec![];
        };
        let g = &self.fixed.grid;
        g.neighbours(c)
            .into_iter()
            .filter(|n| {
                let i = g.index(*n);
                occ.unit_on(i).is_none_or(|o| o == u) && self.fixed.terrain[i] != Terrain::Wall
            })
            .collect()
    }

    /// SWTB-F1: move the flier beside the ground unit it attacks.
    pub(crate) fn land_beside(&mut self, unit: UnitId, c: Cell, ev: &mut Vec<Event>) {
        self.now.units[unit as usize].place = Place::Field(c);
        ev.push(Event::Moved {
            unit,
            name: self.name_of(unit),
            to: Dest::Cell(c),
        });
    }

    /// A flier goes back to its line (after a dogfight or an interception, SWTB-F3, F4).
    pub(crate) fn return_to_line(&mut self, u: UnitId, ev: &mut Vec<Event>) {
        if self.alive(u) && self.now.units[u as usize].place != Place::Line {
            self.now.units[u as usize].place = Place::Line;
            self.now.units[u as usize].back_to_line = false;
            ev.push(Event::ReturnedToLine {
                unit: u,
                name: self.name_of(u),
            });
        }
    }

    /// SWTB-F1: a flier that made a ground attack stays on the battlefield "for the
    /// opponents turn"; when that turn ends, it goes back to its line.
    pub(crate) fn fliers_return(&mut self, ending: u8, ev: &mut Vec<Event>) {
        for u in self.ids() {
            let unit = &mut self.now.units[u as usize];
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
    }
}
