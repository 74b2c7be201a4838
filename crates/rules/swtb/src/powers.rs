//! Force powers (SWTB-O1..O4), with the `force_powers` option.
//!
//! Rule ids owned here: SWTB-O2 (Force Choke), SWTB-O3 (Mind Trick). The other powers
//! change attacks and are judged in [`crate::combat`]: SWTB-O1 (Light Saber Throw, in the
//! attack rule) and SWTB-O4 (Deflect Blasters, in resolving); the choice of powers before
//! the first round is in [`crate::setup`]. Our reading of SWTB-2 for powers: a Force
//! User that moved into contact may use Force Choke or Mind Trick as its attack (option
//! `contact_powers`).

use crate::data::Power;
use crate::events::{Action, DieFor, Event, Roller};
use crate::legal::{Plan, Why};
use crate::state::{Phase, Place, Swtb, UnitId};

impl Swtb {
    /// SWTB-O2 / SWTB-O3: once, on an adjacent unit; the plan carries the die needed.
    pub(crate) fn plan_power(&self, u: UnitId, target: UnitId, p: Power) -> Result<Plan, Why> {
        self.can_start(u)?;
        if !self.has_power(u, p) {
            return Err(Why::NoPower(u, p));
        }
        let unit = self.now.units[u as usize];
        // SWTB-2: "…unless they move into contact with an enemy unit, in which case they
        // may attack": a power used on an adjacent enemy is that attack (our reading).
        let after_contact = unit.may_attack && self.options().contact_powers;
        if unit.acted && !after_contact {
            return Err(Why::Acted(u));
        }
        if unit.power_used {
            return Err(Why::PowerUsed(p));
        }
        let tgt = *self.unit(target).ok_or(Why::NoUnit(target))?;
        if tgt.side == unit.side || !self.alive(target) {
            return Err(Why::NotEnemyInPlay(target));
        }
        let adjacent = matches!((self.cell_of(u), tgt.place), (Some(a), Place::Field(b)) if self.fixed.grid.adjacent(a, b));
        if !adjacent {
            return Err(Why::PowerRange(p));
        }
        if self.power_need(target, p).is_none() {
            return Err(Why::Ineffective(p, target));
        }
        Ok(self.power_plan(u, target, p))
    }

    /// The die `p` needs against `target` (SWTB-O2, SWTB-O3): none when it is immune.
    fn power_need(&self, target: UnitId, p: Power) -> Option<u8> {
        let tt = self.ty(target);
        if p == Power::ForceChoke {
            tt.choked_on
        } else {
            tt.mind_tricked_on
        }
    }

    /// The plan of a power that may be used.
    pub(crate) fn power_plan(&self, u: UnitId, target: UnitId, p: Power) -> Plan {
        Plan::Power {
            unit: u,
            target,
            power: p,
            need: self.power_need(target, p).unwrap_or(1),
        }
    }

    pub(crate) fn legal_powers(&self, u: UnitId, enemies: &[UnitId], out: &mut Vec<Action>) {
        for p in [Power::ForceChoke, Power::MindTrick] {
            if !self.has_power(u, p) || self.now.units[u as usize].power_used {
                continue;
            }
            for &e in enemies {
                if self.plan_power(u, e, p).is_ok() {
                    out.push(match p {
                        Power::ForceChoke => Action::Choke { unit: u, target: e },
                        _ => Action::MindTrick { unit: u, target: e },
                    });
                }
            }
        }
    }

    pub(crate) fn use_power(
        &mut self,
        unit: UnitId,
        target: UnitId,
        power: Power,
        need: u8,
        ev: &mut Vec<Event>,
    ) {
        let u = &mut self.now.units[unit as usize];
        u.acted = true;
        u.may_attack = false;
        u.power_used = true;
        ev.push(Event::Power {
            unit,
            name: self.name_of(unit),
            power,
            target,
            target_name: self.name_of(target),
        });
        if need <= 1 {
            self.power_works(power, unit, target, ev);
            self.after_resolution(ev);
        } else {
            self.now.phase = Phase::PowerDie {
                user: unit,
                target,
                power,
                need,
            };
        }
    }

    pub(crate) fn roll_power(
        &mut self,
        user: UnitId,
        target: UnitId,
        power: Power,
        need: u8,
        f: u8,
        ev: &mut Vec<Event>,
    ) {
        ev.push(Event::Die {
            roller: Roller {
                who: self.name_of(user),
                why: DieFor::Power(power),
            },
            face: f,
        });
        if f >= need {
            self.power_works(power, user, target, ev);
        } else {
            ev.push(Event::PowerFailed {
                name: self.name_of(user),
            });
        }
        self.after_resolution(ev);
    }

    fn power_works(&mut self, p: Power, user: UnitId, target: UnitId, ev: &mut Vec<Event>) {
        match p {
            Power::ForceChoke => self.remove(target, ev),
            _ => {
                // SWTB-O3: the defender joins the force user's side, under the user's seat.
                let old = self.now.units[target as usize].side;
                let new = self.now.units[user as usize].side;
                let owner = self.now.units[user as usize].owner;
                let t = &mut self.now.units[target as usize];
                t.side = new;
                t.owner = owner;
                t.acted = true;
                t.may_attack = false;
                ev.push(Event::Defected {
                    unit: target,
                    name: self.name_of(target),
                    side: self.side_name_of(new),
                });
                self.note_loss(target, old);
            }
        }
    }
}
