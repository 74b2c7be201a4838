//! Attacks and combat dice (SWTB-3..6), and the optional rules that change them.
//!
//! Rule ids owned here: SWTB-3 (opposed dice, ties), SWTB-4 (blasters need a clear line),
//! SWTB-5 (light sabers in contact), SWTB-6 (who may attack fliers), SWTB-V2 (ground
//! vehicles attack fliers on the battlefield), SWTB-O1 (a thrown light saber's reach),
//! SWTB-O4 (Deflect Blasters), SWTB-O5 and SWTB-O6 (tougher units), SWTB-O7 (fortified positions), SWTB-O9
//! (thermal detonators); the contest and ties house rules.
//!
//! An attack is declared by an action; then the state waits at one chance point per die —
//! attack dice, thermal detonator dice, then defence dice — keeping only running totals.

use crate::data::{Class, Contest, Power, Ties, Weapon};
use crate::events::{DieFor, Event, Roller};
use crate::legal::{Plan, Why};
use crate::movement::Occupancy;
use crate::state::{AttackKind, Combat, Phase, Place, Swtb, Terrain, UnitId};
use battlemat_core::Illegal;
use battlemat_geom::Cell;
use std::borrow::Cow;
use std::cmp::Ordering;

/// A target as the attack rules see it (see [`Swtb::target`]).
pub(crate) struct Target {
    id: UnitId,
    side: u8,
    place: Place,
    flies: bool,
}

/// An attacker as the attack rules see it (see [`Swtb::attacker`]).
pub(crate) struct Attacker {
    u: UnitId,
    side: u8,
    /// Why it may attack nobody, checked after the target's side and state.
    barred: Option<Why>,
    flies: bool,
    from: Option<Cell>,
    attacks_fliers: bool,
    attacks_ground: bool,
    after_move: bool,
    saber: bool,
    throw: bool,
}

/// A flier's one of three attacks (SWTB-F3..F5); in contact, or with a light saber
/// (thrown, SWTB-O1), melee; else a shot.
fn kind_of_attack(flies: bool, saber: bool, tgt_flies: bool, tgt: Place, dist: u32) -> AttackKind {
    if flies {
        return match (tgt_flies, tgt) {
            (true, Place::Line) => AttackKind::Dogfight,
            (true, _) => AttackKind::Intercept,
            (false, _) => AttackKind::GroundAttack,
        };
    }
    if dist <= 1 || saber {
        AttackKind::Melee
    } else {
        AttackKind::Shot
    }
}

impl Swtb {
    /// SWTB-4: blasters cannot shoot through figures, walls, hills or vehicles. Fliers on the
    /// battlefield are above it and block nothing.
    pub(crate) fn clear_line(&self, a: Cell, b: Cell, occ: &Occupancy) -> bool {
        let g = &self.fixed.grid;
        self.fixed
            .topology
            .clear(a, b, &occ.blocking, |c| occ.blocks(g.index(c)))
    }

    /// The kind of attack `u` would make on `target`, or why it may not (SWTB-2..6, F, O8).
    pub fn attack_kind(&self, u: UnitId, target: UnitId) -> Result<AttackKind, Illegal> {
        let check = || {
            self.can_start(u)?;
            self.unit(target).ok_or(Why::NoUnit(target))?;
            self.attack_rule(u, target, &self.occupancy())
        };
        check().map_err(|w| self.explain(w))
    }

    /// The attack rules. `u` and `target` must exist and `u` must be the deciding seat's.
    pub(crate) fn attack_rule(
        &self,
        u: UnitId,
        target: UnitId,
        occ: &Occupancy,
    ) -> Result<AttackKind, Why> {
        self.attack_on(&self.attacker(u), &self.target(target), occ)
    }

    /// What the attack rules need to know of a target, read once for all its attackers.
    pub(crate) fn target(&self, t: UnitId) -> Target {
        let unit = &self.now.units[t as usize];
        Target {
            id: t,
            side: unit.side,
            place: unit.place,
            flies: self.ty(t).flies(),
        }
    }

    /// What the attack rules need to know of an attacker, read once for all its targets.
    pub(crate) fn attacker(&self, u: UnitId) -> Attacker {
        let unit = self.now.units[u as usize];
        let t = self.ty(u);
        let barred = if t.weapon == Weapon::None {
            Some(Why::NoWeapon(u))
        } else if t.crewed {
            Some(Why::UseFire)
        } else if unit.acted && !unit.may_attack {
            Some(Why::Acted(u))
        } else {
            None
        };
        Attacker {
            u,
            side: unit.side,
            barred,
            flies: t.flies(),
            from: self.cell_of(u),
            attacks_fliers: t.attacks_fliers,
            attacks_ground: t.attacks_ground,
            after_move: unit.acted && unit.may_attack,
            saber: t.weapon == Weapon::LightSaber,
            throw: self.has_power(u, Power::LightSaberThrow),
        }
    }

    /// The attack rules for one target.
    pub(crate) fn attack_on(
        &self,
        a: &Attacker,
        tgt: &Target,
        occ: &Occupancy,
    ) -> Result<AttackKind, Why> {
        let u = a.u;
        let target = tgt.id;
        if tgt.side == a.side {
            return Err(Why::SameSide(target));
        }
        if !matches!(tgt.place, Place::Field(_) | Place::Line) {
            return Err(Why::TargetOut(target));
        }
        if let Some(why) = a.barred {
            return Err(why);
        }
        let tgt_flies = tgt.flies;
        if a.flies {
            return Ok(kind_of_attack(true, a.saber, tgt_flies, tgt.place, 0));
        }
        let (Some(from), Place::Field(to)) = (a.from, tgt.place) else {
            return Err(Why::OffField(target));
        };
        if tgt_flies && !a.attacks_fliers {
            return Err(Why::NoFliers(u));
        }
        if !tgt_flies && !a.attacks_ground {
            return Err(Why::OnlyFliers(u));
        }
        let dist = self.fixed.grid.distance(from, to);
        let kind = kind_of_attack(false, a.saber, tgt_flies, tgt.place, dist);
        if a.after_move {
            // SWTB-2: moving into contact with an enemy allows an attack, on a unit in contact.
            return if dist == 1 {
                Ok(kind)
            } else {
                Err(Why::NotInContact(u))
            };
        }
        if a.saber {
            return match (dist, a.throw) {
                (1, _) => Ok(kind),
                // SWTB-O1: a thrown light saber reaches one space away.
                (2, true) if self.clear_line(from, to, occ) => Ok(kind),
                (2, true) => Err(Why::ThrowBlocked),
                (_, true) => Err(Why::ThrowReach),
                (_, false) => Err(Why::SaberReach),
            };
        }
        if dist > 1 && !self.clear_line(from, to, occ) {
            return Err(Why::NoLine(from, to));
        }
        Ok(kind)
    }

    /// What kind of attack `u` makes on `target`, once the attack rules allow it: a flier's
    /// one of three (SWTB-F3..F5); in contact, or a thrown light saber, melee; else a shot.
    pub(crate) fn attack_kind_of(&self, u: UnitId, target: UnitId) -> AttackKind {
        let dist = match (self.cell_of(u), self.cell_of(target)) {
            (Some(a), Some(b)) => self.fixed.grid.distance(a, b),
            _ => 0,
        };
        kind_of_attack(
            self.ty(u).flies(),
            self.ty(u).weapon == Weapon::LightSaber,
            self.ty(target).flies(),
            self.now.units[target as usize].place,
            dist,
        )
    }

    pub(crate) fn plan_attack(
        &self,
        unit: UnitId,
        target: UnitId,
        land: Option<Cell>,
    ) -> Result<Plan, Why> {
        self.can_start(unit)?;
        self.unit(target).ok_or(Why::NoUnit(target))?;
        let occ = self.occupancy();
        let kind = self.attack_rule(unit, target, &occ)?;
        match (kind, land) {
            (AttackKind::GroundAttack, Some(c))
                if !self.landing_cells(unit, target, &occ).contains(&c) =>
            {
                return Err(Why::LandNotBeside(c, target));
            }
            (AttackKind::GroundAttack, Some(_)) => {}
            (AttackKind::GroundAttack, None) => return Err(Why::LandMissing),
            (_, Some(_)) => return Err(Why::LandNotGround),
            _ => {}
        }
        Ok(Plan::Attack {
            unit,
            target,
            kind,
            land,
        })
    }

    pub fn toughness(&self, u: UnitId) -> u8 {
        let t = self.ty(u);
        let o = self.options();
        let mut n = 1;
        if o.tougher_vehicles && t.class == Class::GroundVehicle {
            n = 2; // SWTB-O5: defeated twice before removed
        }
        if o.tougher_everything {
            n = n.max(t.dice); // SWTB-O6: as many hits as combat dice
        }
        n
    }

    /// SWTB-O7: "Units defending from fortified positions add 1d6 to defense rolls." A flier
    /// hovering beside its ground target is above the position, not defending from it.
    pub fn fortified_defender(&self, target: UnitId) -> bool {
        self.options().fortified
            && !self.ty(target).flies()
            && self
                .cell_of(target)
                .is_some_and(|c| self.terrain(c) == Terrain::Fortified)
    }

    /// The dice of an attack: attack dice, defence dice (fortified included), thermal
    /// detonators in play.
    pub fn attack_dice(&self, attacker: UnitId, target: UnitId) -> (u8, u8, bool) {
        let at = self.ty(attacker);
        let def = self.ty(target).dice + u8::from(self.fortified_defender(target));
        let thermal = self.options().thermal_detonators && at.thermal_detonators;
        (at.attack_dice(), def, thermal)
    }

    pub(crate) fn begin_combat(
        &mut self,
        kind: AttackKind,
        attacker: UnitId,
        target: UnitId,
        ev: &mut Vec<Event>,
    ) {
        let a = &mut self.now.units[attacker as usize];
        a.acted = true;
        a.may_attack = false;
        let (att_dice, def_dice, thermal) = self.attack_dice(attacker, target);
        let c = Combat {
            kind,
            attacker,
            target,
            att_dice,
            def_dice,
            att_rolled: 0,
            extra_owed: 0,
            def_rolled: 0,
            att: 0,
            def: 0,
            thermal,
        };
        ev.push(Event::Attack {
            unit: attacker,
            name: self.name_of(attacker),
            target,
            target_name: self.name_of(target),
            kind,
            attack_dice: c.att_dice,
            defence_dice: c.def_dice,
        });
        self.now.phase = Phase::Combat(c);
    }

    /// The prompt of the next combat die.
    pub(crate) fn combat_die_prompt(&self, c: &Combat) -> String {
        if c.att_rolled < c.att_dice {
            format!(
                "{}: attack die {} of {}",
                self.name(c.attacker),
                c.att_rolled + 1,
                c.att_dice
            )
        } else if c.extra_owed > 0 {
            format!("{}: thermal detonator die", self.name(c.attacker))
        } else {
            format!(
                "{}: defence die {} of {}",
                self.name(c.target),
                c.def_rolled + 1,
                c.def_dice
            )
        }
    }

    /// One combat die (SWTB-3, SWTB-O9).
    pub(crate) fn roll_combat(&mut self, mut c: Combat, f: u8, ev: &mut Vec<Event>) {
        let highest = self.options().contest == Contest::Highest;
        let add = |total: &mut u16, f: u8| {
            if highest {
                *total = (*total).max(f as u16)
            } else {
                *total += f as u16
            }
        };
        let roller;
        if c.att_rolled < c.att_dice {
            c.att_rolled += 1;
            add(&mut c.att, f);
            // SWTB-O9: a 6 on a trooper's or hero's attack roll adds another 1d6.
            if c.thermal && f == 6 {
                c.extra_owed += 1;
            }
            roller = Roller {
                who: self.name_of(c.attacker),
                why: DieFor::Attack,
            };
        } else if c.extra_owed > 0 {
            c.extra_owed -= 1;
            c.att += f as u16; // added to the roll whatever the contest
            roller = Roller {
                who: self.name_of(c.attacker),
                why: DieFor::ThermalDetonator,
            };
        } else {
            c.def_rolled += 1;
            add(&mut c.def, f);
            roller = Roller {
                who: self.name_of(c.target),
                why: DieFor::Defence,
            };
        }
        ev.push(Event::Die { roller, face: f });
        if c.att_rolled == c.att_dice && c.extra_owed == 0 && c.def_rolled == c.def_dice {
            self.resolve_combat(c, ev);
        } else {
            self.now.phase = Phase::Combat(c);
        }
    }

    /// SWTB-3 and the flier attacks: who won, and what that does.
    fn resolve_combat(&mut self, c: Combat, ev: &mut Vec<Event>) {
        let ord = c.att.cmp(&c.def);
        let result = match ord {
            Ordering::Greater => "attacker wins",
            Ordering::Less => "defender wins",
            Ordering::Equal => "tie",
        };
        ev.push(Event::Compared {
            attack: c.att,
            defence: c.def,
            result: Cow::Borrowed(result),
        });
        if ord == Ordering::Equal && self.options().ties == Ties::Reroll {
            self.now.phase = Phase::Combat(Combat {
                att_rolled: 0,
                def_rolled: 0,
                extra_owed: 0,
                att: 0,
                def: 0,
                ..c
            });
            return;
        }
        match (c.kind, ord) {
            (AttackKind::Dogfight, Ordering::Greater) => {
                self.hit(c.target, ev);
                self.return_to_line(c.attacker, ev);
            }
            (AttackKind::Dogfight, Ordering::Less) => {
                self.hit(c.attacker, ev);
                self.return_to_line(c.target, ev);
            }
            (AttackKind::Dogfight, Ordering::Equal) => {
                self.return_to_line(c.attacker, ev);
                self.return_to_line(c.target, ev);
            }
            (AttackKind::Intercept, Ordering::Greater) => {
                self.hit(c.target, ev);
                self.return_to_line(c.attacker, ev);
            }
            (_, Ordering::Greater) => self.hit(c.target, ev),
            // SWTB-O4: Deflect Blasters — a win against an adjacent trooper or hero
            // defeats the attacker.
            (_, Ordering::Less) if self.deflects(c.target, c.attacker) => self.hit(c.attacker, ev),
            _ => {}
        }
        if c.kind == AttackKind::GroundAttack {
            // SWTB-F5: either way the flier remains until its side's next turn.
            self.now.units[c.attacker as usize].back_to_line = self.alive(c.attacker);
        }
        self.after_resolution(ev);
    }

    /// SWTB-O4: does `defender` deflect `attacker`'s blasters back if it wins?
    pub fn deflects(&self, defender: UnitId, attacker: UnitId) -> bool {
        self.has_power(defender, Power::DeflectBlasters)
            && self.adjacent_units(attacker, defender)
            && self.ty(attacker).deflectable
    }

    pub(crate) fn hit(&mut self, u: UnitId, ev: &mut Vec<Event>) {
        let tough = self.toughness(u);
        let unit = &mut self.now.units[u as usize];
        unit.hits += 1;
        let hits = unit.hits;
        ev.push(Event::Hit {
            unit: u,
            name: self.name_of(u),
            hits,
            toughness: tough,
        });
        if hits >= tough {
            self.remove(u, ev);
        }
    }

    pub(crate) fn remove(&mut self, u: UnitId, ev: &mut Vec<Event>) {
        let side = self.now.units[u as usize].side;
        let unit = &mut self.now.units[u as usize];
        unit.place = match unit.place {
            Place::Field(c) => Place::Fallen(c),
            _ => Place::Gone,
        };
        unit.back_to_line = false;
        ev.push(Event::Eliminated {
            unit: u,
            name: self.name_of(u),
        });
        self.note_loss(u, side);
    }
}
