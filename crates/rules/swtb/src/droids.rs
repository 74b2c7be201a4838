//! Droids (SWTB-U2): they may not attack, only defend, and revive their side's fallen.
//!
//! Rule ids owned here: SWTB-U2 (a droid beside a fallen unit of its side revives it on
//! 5-6 on 1d6; the cell where it fell must be free).

use crate::events::{DieFor, Event, Roller};
use crate::legal::{Plan, Why};
use crate::state::{Place, Swtb, UnitId};

impl Swtb {
    pub(crate) fn plan_revive(&self, u: UnitId, fallen: UnitId) -> Result<Plan, Why> {
        self.can_start(u)?;
        if !self.ty(u).reviver {
            return Err(Why::CannotRevive(u));
        }
        if self.now.units[u as usize].acted {
            return Err(Why::Acted(u));
        }
        let f = *self.unit(fallen).ok_or(Why::NoUnit(fallen))?;
        let Place::Fallen(fc) = f.place else {
            return Err(Why::NotFallen(fallen));
        };
        if f.side != self.now.active {
            return Err(Why::ReviveOwn);
        }
        let near = self
            .cell_of(u)
            .is_some_and(|c| self.fixed.grid.adjacent(c, fc));
        if !near {
            return Err(Why::ReviveNotAdjacent);
        }
        if self.unit_at(fc).is_some() {
            return Err(Why::FallenCellTaken(fc));
        }
        Ok(Plan::Revive { unit: u, fallen })
    }

    pub(crate) fn roll_revive(
        &mut self,
        droid: UnitId,
        fallen: UnitId,
        f: u8,
        ev: &mut Vec<Event>,
    ) {
        ev.push(Event::Die {
            roller: Roller {
                who: self.name_of(droid),
                why: DieFor::Revive,
            },
            face: f,
        });
        if f >= 5 {
            let u = &mut self.now.units[fallen as usize];
            if let Place::Fallen(c) = u.place {
                u.place = Place::Field(c);
            }
            u.hits = 0;
            u.acted = true;
            ev.push(Event::Revived {
                unit: fallen,
                name: self.name_of(fallen),
            });
        } else {
            ev.push(Event::ReviveFailed {
                name: self.name_of(droid),
            });
        }
        self.after_resolution(ev);
    }
}
