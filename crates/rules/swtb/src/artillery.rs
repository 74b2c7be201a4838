//! Artillery and anti-aircraft guns (SWTB-O8), with the `artillery` option.
//!
//! Rule ids owned here: SWTB-O8 (fixed guns that fire when an adjacent trooper who has not
//! acted crews them; the artillery fires at ground units, the AA gun at fliers).

use crate::events::Action;
use crate::legal::{Plan, Why};
use crate::movement::Occupancy;
use crate::state::{Place, Swtb, UnitId};

impl Swtb {
    pub(crate) fn plan_fire(&self, gun: UnitId, target: UnitId, crew: UnitId) -> Result<Plan, Why> {
        self.can_start(gun)?;
        self.fire_rule(gun, target, crew, &self.occupancy())?;
        Ok(Plan::Fire { gun, target, crew })
    }

    /// The gun rules; `gun` must be of the acting side and in play ([`Swtb::can_start`]).
    fn fire_rule(
        &self,
        gun: UnitId,
        target: UnitId,
        crew: UnitId,
        occ: &Occupancy,
    ) -> Result<(), Why> {
        let t = self.ty(gun);
        if !t.crewed {
            return Err(Why::NotAGun(gun));
        }
        if self.now.units[gun as usize].acted {
            return Err(Why::GunFired);
        }
        self.can_start(crew)?;
        let c = self.now.units[crew as usize];
        let (Some(gc), Some(cc)) = (self.cell_of(gun), self.cell_of(crew)) else {
            return Err(Why::GunOffField);
        };
        if !self.ty(crew).crew || c.acted || !self.fixed.grid.adjacent(gc, cc) {
            return Err(Why::NoCrew(gun));
        }
        let tgt = *self.unit(target).ok_or(Why::NoUnit(target))?;
        if tgt.side == self.now.active || !self.alive(target) {
            return Err(Why::NotEnemyInPlay(target));
        }
        let Place::Field(tc) = tgt.place else {
            return Err(Why::GunLine);
        };
        let flies = self.ty(target).flies();
        if flies && !t.attacks_fliers {
            return Err(Why::GunNoFliers(gun));
        }
        if !flies && !t.attacks_ground {
            return Err(Why::GunOnlyFliers(gun));
        }
        if !self.clear_line(gc, tc, occ) {
            return Err(Why::NoLine(gc, tc));
        }
        Ok(())
    }

    /// Every shot of gun `gun`: each crew that may fire it, at each target it reaches.
    pub(crate) fn legal_fire(
        &self,
        gun: UnitId,
        enemies: &[UnitId],
        occ: &Occupancy,
        out: &mut Vec<Action>,
    ) {
        if self.now.units[gun as usize].acted {
            return;
        }
        let seat = self.now.seat;
        for crew in self.ids() {
            let cu = &self.now.units[crew as usize];
            if cu.owner != Some(seat)
                || cu.side != self.now.active
                || !self.ty(crew).crew
                || !self.adjacent_units(gun, crew)
            {
                continue;
            }
            for &e in enemies {
                if self.fire_rule(gun, e, crew, occ).is_ok() {
                    out.push(Action::Fire {
                        gun,
                        target: e,
                        crew,
                    });
                }
            }
        }
    }
}
