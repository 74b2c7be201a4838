//! The one judge of actions: [`Swtb::plan`] decides whether an action is legal now and, if
//! it is, what it will do ([`Plan`]). `check` asks it, `legal` lists what it accepts, and
//! `act` carries out its plan — so the three cannot drift apart.
//!
//! Refusals are a small enum ([`Why`]), put into words only when someone reads them
//! ([`Swtb::explain`]): listing the legal actions asks the rules thousands of questions
//! and formats no string.
//!
//! Why not core's `Why` (a rule id and a fixed sentence), as the other four games use: it
//! costs the same (both are `Copy` and format nothing until read), but SWTB's refusals name
//! the unit and the cell ("Han cannot reach c7 with a move of 2", "d4 is already taken by
//! the AT-ST"), which a fixed sentence cannot; `explain` turns each into core's `Illegal`
//! with its rule id, so nothing outside this module sees the difference.
//!
//! Rule ids owned here: none of their own; each refusal names the rule that forbids it.

use crate::data::Power;
use crate::events::{Action, Dest, Event};
use crate::state::{AttackKind, Phase, Swtb, UnitId};
use battlemat_core::Illegal;
use battlemat_geom::Cell;

/// What a legal action will do, worked out once by [`Swtb::plan`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Plan {
    First {
        side: u8,
    },
    ChoosePower {
        unit: UnitId,
        power: Power,
    },
    Move {
        unit: UnitId,
        to: Dest,
    },
    Attack {
        unit: UnitId,
        target: UnitId,
        kind: AttackKind,
        land: Option<Cell>,
    },
    Fire {
        gun: UnitId,
        target: UnitId,
        crew: UnitId,
    },
    Power {
        unit: UnitId,
        target: UnitId,
        power: Power,
        need: u8,
    },
    Revive {
        unit: UnitId,
        fallen: UnitId,
    },
    End,
}

/// Why an action is refused, before it is put in words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Why {
    Over,
    WaitingForDie,
    NoUnit(UnitId),
    NotYours(UnitId),
    OutOfGame(UnitId),
    Acted(UnitId),
    // Before the first turn (SWTB-1, SWTB-O1..O4).
    NoSuchSide,
    NotThisPower(UnitId),
    PowerNotForSide(UnitId, Power),
    ChoosePowerFirst(UnitId),
    ChooseFirstFirst,
    InitiativeDecided,
    PowersBeforeRound,
    // Attacks (SWTB-2..6, SWTB-F).
    SameSide(UnitId),
    TargetOut(UnitId),
    NoWeapon(UnitId),
    UseFire,
    OffField(UnitId),
    NoFliers(UnitId),
    OnlyFliers(UnitId),
    NotInContact(UnitId),
    SaberReach,
    ThrowReach,
    ThrowBlocked,
    NoLine(Cell, Cell),
    LandNotBeside(Cell, UnitId),
    LandMissing,
    LandNotGround,
    // Moves (SWTB-2, SWTB-U1, SWTB-F1, SWTB-F2).
    AlreadyOnLine,
    OffBoard(Cell),
    FlierTaken(Cell),
    Taken(Cell),
    FlierWall(Cell),
    OnlyFliersLine,
    FixedInPlace(UnitId),
    OutOfReach(UnitId, Cell),
    // Fixed guns (SWTB-O8).
    NotAGun(UnitId),
    GunFired,
    GunOffField,
    NoCrew(UnitId),
    NotEnemyInPlay(UnitId),
    GunLine,
    GunNoFliers(UnitId),
    GunOnlyFliers(UnitId),
    // Force powers (SWTB-O2, SWTB-O3).
    NoPower(UnitId, Power),
    PowerUsed(Power),
    PowerRange(Power),
    Ineffective(Power, UnitId),
    // Droids (SWTB-U2).
    CannotRevive(UnitId),
    NotFallen(UnitId),
    ReviveOwn,
    ReviveNotAdjacent,
    FallenCellTaken(Cell),
}

pub(crate) fn power_rule(p: Power) -> &'static str {
    if p == Power::ForceChoke {
        "SWTB-O2"
    } else {
        "SWTB-O3"
    }
}

impl Swtb {
    /// Is `a` legal now, and what will it do?
    pub(crate) fn plan(&self, a: &Action) -> Result<Plan, Why> {
        match (&self.now.phase, a) {
            (Phase::Over { .. }, _) => Err(Why::Over),
            (Phase::ChooseFirst { .. }, Action::First { side }) => {
                if *side > 1 {
                    Err(Why::NoSuchSide)
                } else {
                    Ok(Plan::First { side: *side })
                }
            }
            (Phase::ChoosePower { unit }, Action::ChoosePower { unit: u, power }) => {
                if u != unit {
                    Err(Why::NotThisPower(*unit))
                } else if !self.powers_for(*unit).contains(power) {
                    Err(Why::PowerNotForSide(*unit, *power))
                } else {
                    Ok(Plan::ChoosePower {
                        unit: *unit,
                        power: *power,
                    })
                }
            }
            (Phase::ChoosePower { unit }, _) => Err(Why::ChoosePowerFirst(*unit)),
            (Phase::ChooseFirst { .. }, _) => Err(Why::ChooseFirstFirst),
            (Phase::Turn, a) => match *a {
                Action::First { .. } => Err(Why::InitiativeDecided),
                Action::ChoosePower { .. } => Err(Why::PowersBeforeRound),
                Action::Move { unit, to } => self.plan_move(unit, to),
                Action::Attack { unit, target, land } => self.plan_attack(unit, target, land),
                Action::Fire { gun, target, crew } => self.plan_fire(gun, target, crew),
                Action::Choke { unit, target } => self.plan_power(unit, target, Power::ForceChoke),
                Action::MindTrick { unit, target } => {
                    self.plan_power(unit, target, Power::MindTrick)
                }
                Action::Revive { unit, fallen } => self.plan_revive(unit, fallen),
                Action::EndTurn => Ok(Plan::End),
            },
            _ => Err(Why::WaitingForDie),
        }
    }

    /// A unit the deciding seat may act with: it exists, is in play, and is the seat's.
    pub(crate) fn can_start(&self, u: UnitId) -> Result<(), Why> {
        let unit = self.unit(u).ok_or(Why::NoUnit(u))?;
        // A fixed gun belongs to no seat: any seat of its side may fire it (SWTB-O8).
        if unit.side != self.now.active || unit.owner.is_some_and(|o| o != self.now.seat) {
            return Err(Why::NotYours(u));
        }
        if !self.alive(u) {
            return Err(Why::OutOfGame(u));
        }
        Ok(())
    }

    /// What a legal action does, read off it: the facts `plan` works out along the way
    /// (an attack's kind, a power's die) come from the same functions.
    pub(crate) fn plan_trusted(&self, a: &Action) -> Plan {
        match *a {
            Action::First { side } => Plan::First { side },
            Action::ChoosePower { unit, power } => Plan::ChoosePower { unit, power },
            Action::Move { unit, to } => Plan::Move { unit, to },
            Action::Attack { unit, target, land } => Plan::Attack {
                unit,
                target,
                kind: self.attack_kind_of(unit, target),
                land,
            },
            Action::Fire { gun, target, crew } => Plan::Fire { gun, target, crew },
            Action::Choke { unit, target } => self.power_plan(unit, target, Power::ForceChoke),
            Action::MindTrick { unit, target } => self.power_plan(unit, target, Power::MindTrick),
            Action::Revive { unit, fallen } => Plan::Revive { unit, fallen },
            Action::EndTurn => Plan::End,
        }
    }

    pub(crate) fn carry_out(&mut self, plan: Plan, ev: &mut Vec<Event>) {
        match plan {
            Plan::First { side } => self.choose_first(side, ev),
            Plan::ChoosePower { unit, power } => {
                self.now.units[unit as usize].power = Some(power);
                ev.push(Event::PowerChosen {
                    unit,
                    name: self.name_of(unit),
                    power,
                });
                self.next_power_choice_or_first_round(ev);
            }
            Plan::End => self.end_turn(ev),
            Plan::Move { unit, to } => self.do_move(unit, to, ev),
            Plan::Attack {
                unit,
                target,
                kind,
                land,
            } => {
                if let (AttackKind::GroundAttack, Some(c)) = (kind, land) {
                    self.land_beside(unit, c, ev);
                }
                self.begin_combat(kind, unit, target, ev);
            }
            Plan::Fire { gun, target, crew } => {
                let c = &mut self.now.units[crew as usize];
                c.acted = true; // the crew's action is to fire the gun
                c.may_attack = false;
                self.begin_combat(AttackKind::Shot, gun, target, ev);
            }
            Plan::Power {
                unit,
                target,
                power,
                need,
            } => self.use_power(unit, target, power, need, ev),
            Plan::Revive { unit, fallen } => {
                self.now.units[unit as usize].acted = true;
                self.now.phase = Phase::ReviveDie {
                    droid: unit,
                    fallen,
                };
            }
        }
    }

    /// Every legal action of the deciding seat, in a fixed order: every action `plan`
    /// accepts, and no other (the list is complete).
    pub fn legal(&self) -> Vec<Action> {
        match self.now.phase {
            Phase::ChooseFirst { .. } => {
                return vec![Action::First { side: 0 }, Action::First { side: 1 }];
            }
            Phase::ChoosePower { unit } => {
                return self
                    .powers_for(unit)
                    .into_iter()
                    .map(|power| Action::ChoosePower { unit, power })
                    .collect();
            }
            Phase::Turn => {}
            _ => return vec![],
        }
        let occ = self.occupancy();
        let mut out = Vec::with_capacity(64);
        let side = self.now.active;
        let seat = self.now.seat;
        let mine = self.ids().filter(|&u| {
            let unit = &self.now.units[u as usize];
            // The seat's own units, and its side's guns (fired by whichever seat crews them).
            unit.side == side && unit.owner.is_none_or(|o| o == seat) && self.alive(u)
        });
        let enemies: Vec<UnitId> = self
            .ids()
            .filter(|&u| self.now.units[u as usize].side != side && self.alive(u))
            .collect();
        let targets: Vec<crate::combat::Target> = enemies.iter().map(|&e| self.target(e)).collect();
        for u in mine {
            let unit = self.now.units[u as usize];
            if unit.acted && !unit.may_attack {
                continue;
            }
            if !unit.acted {
                self.legal_moves(u, &occ, &mut out);
            }
            if self.ty(u).crewed {
                self.legal_fire(u, &enemies, &occ, &mut out);
                continue;
            }
            let attacker = self.attacker(u);
            for (&e, target) in enemies.iter().zip(&targets) {
                match self.attack_on(&attacker, target, &occ) {
                    Ok(AttackKind::GroundAttack) => {
                        // SWTB-F1: every cell beside the target where the flier may end up.
                        for c in self.landing_cells(u, e, &occ) {
                            out.push(Action::Attack {
                                unit: u,
                                target: e,
                                land: Some(c),
                            });
                        }
                    }
                    Ok(_) => out.push(Action::Attack {
                        unit: u,
                        target: e,
                        land: None,
                    }),
                    Err(_) => {}
                }
            }
            self.legal_powers(u, &enemies, &mut out);
            if !unit.acted && self.ty(u).reviver {
                for f in self.ids() {
                    if self.plan_revive(u, f).is_ok() {
                        out.push(Action::Revive { unit: u, fallen: f });
                    }
                }
            }
        }
        out.push(Action::EndTurn);
        out
    }

    /// A refusal in words, naming the rule that forbids it.
    pub(crate) fn explain(&self, why: Why) -> Illegal {
        let n = |u: UnitId| -> String {
            self.fixed
                .names
                .get(u as usize)
                .map_or_else(|| format!("u{u}"), |s| s.to_string())
        };
        let ty = |u: UnitId| -> String {
            self.unit(u)
                .map_or_else(String::new, |_| self.ty(u).name.clone())
        };
        match why {
            Why::Over => Illegal::new("the game is over"),
            Why::WaitingForDie => Illegal::new("waiting for a die"),
            Why::NoUnit(u) => Illegal::new(format!("there is no unit u{u}")),
            Why::NotYours(u) => Illegal::new(format!("{} is not yours", n(u))),
            Why::OutOfGame(u) => Illegal::new(format!("{} is out of the game", n(u))),
            Why::Acted(u) => Illegal::by("SWTB-2", format!("{} has already acted this turn", n(u))),
            Why::NoSuchSide => Illegal::new("side must be 0 or 1"),
            Why::NotThisPower(u) => Illegal::by(
                "SWTB-O1",
                format!("it is {}'s power that is being chosen", n(u)),
            ),
            Why::PowerNotForSide(u, p) => Illegal::by(
                power_rule(p),
                format!(
                    "the {} cannot choose {p:?}",
                    self.side_name(self.now.units[u as usize].side)
                ),
            ),
            Why::ChoosePowerFirst(u) => {
                Illegal::by("SWTB-O1", format!("first choose {}'s force power", n(u)))
            }
            Why::ChooseFirstFirst => Illegal::by(
                "SWTB-1",
                "the initiative winner must first choose who acts first",
            ),
            Why::InitiativeDecided => Illegal::by("SWTB-1", "initiative is already decided"),
            Why::PowersBeforeRound => {
                Illegal::by("SWTB-O1", "powers are chosen before the first round")
            }
            Why::SameSide(t) => Illegal::new(format!("{} is on your side", n(t))),
            Why::TargetOut(t) => Illegal::new(format!("{} is out of the game", n(t))),
            Why::NoWeapon(u) => {
                Illegal::by("SWTB-U2", format!("{} may not attack, only defend", n(u)))
            }
            Why::UseFire => {
                Illegal::by("SWTB-O8", "a fixed gun fires with `fire`, naming its crew")
            }
            Why::OffField(t) => Illegal::by(
                "SWTB-F3",
                format!(
                    "{} is off the battlefield; only fliers can reach it (dogfight)",
                    n(t)
                ),
            ),
            Why::NoFliers(u) => {
                Illegal::by("SWTB-6", format!("{} may not attack flying units", ty(u)))
            }
            Why::OnlyFliers(u) => {
                Illegal::by("SWTB-O8", format!("{} fires only at flying units", ty(u)))
            }
            Why::NotInContact(u) => Illegal::by(
                "SWTB-2",
                format!(
                    "{} moved this turn and may only attack a unit in contact",
                    n(u)
                ),
            ),
            Why::SaberReach => Illegal::by("SWTB-5", "light sabers only attack figures in contact"),
            Why::ThrowReach => Illegal::by(
                "SWTB-O1",
                "a thrown light saber reaches one space away at most",
            ),
            Why::ThrowBlocked => Illegal::by("SWTB-O1", "the throw is blocked"),
            Why::NoLine(a, b) => Illegal::by("SWTB-4", format!("no clear line from {a} to {b}")),
            Why::LandNotBeside(c, t) => Illegal::by(
                "SWTB-F1",
                format!("{c} is not an empty cell beside {}", n(t)),
            ),
            Why::LandMissing => Illegal::by(
                "SWTB-F1",
                "a ground attack names the cell beside the target where the flier ends up (`from CELL`)",
            ),
            Why::LandNotGround => Illegal::new("only a flier's ground attack names a cell"),
            Why::AlreadyOnLine => Illegal::new("it is already on the line"),
            Why::OffBoard(c) => Illegal::new(format!("{c} is off the board")),
            Why::FlierTaken(c) => Illegal::new(format!("{c} is taken")),
            Why::Taken(c) => Illegal::by("SWTB-2", format!("{c} is taken")),
            Why::FlierWall(c) => Illegal::by("SWTB-F2", format!("{c} is a wall")),
            Why::OnlyFliersLine => {
                Illegal::by("SWTB-F1", "only flying units line up off the battlefield")
            }
            Why::FixedInPlace(u) => Illegal::by("SWTB-O8", format!("{} is fixed in place", ty(u))),
            Why::OutOfReach(u, c) => Illegal::by(
                "SWTB-U1",
                format!(
                    "{} cannot reach {c} with a move of {}",
                    n(u),
                    self.ty(u).r#move
                ),
            ),
            Why::NotAGun(u) => Illegal::new(format!("{} is not a fixed gun; use `attack`", n(u))),
            Why::GunFired => Illegal::by("SWTB-2", "the gun has already fired this turn"),
            Why::GunOffField => Illegal::by("SWTB-O8", "gun and crew must be on the battlefield"),
            Why::NoCrew(g) => Illegal::by(
                "SWTB-O8",
                format!(
                    "{} needs an adjacent trooper who has not acted to fire",
                    n(g)
                ),
            ),
            Why::NotEnemyInPlay(t) => Illegal::new(format!("{} is not an enemy in play", n(t))),
            Why::GunLine => Illegal::by("SWTB-F3", "guns cannot reach fliers off the battlefield"),
            Why::GunNoFliers(g) => {
                Illegal::by("SWTB-O8", format!("{} cannot fire at flying units", ty(g)))
            }
            Why::GunOnlyFliers(g) => {
                Illegal::by("SWTB-O8", format!("{} fires only at flying units", ty(g)))
            }
            Why::NoPower(u, p) => Illegal::by(
                power_rule(p),
                format!(
                    "{} does not have that power (force powers are an option)",
                    n(u)
                ),
            ),
            Why::PowerUsed(p) => Illegal::by(power_rule(p), "the power can be used once"),
            Why::PowerRange(p) => Illegal::by(power_rule(p), "range: adjacent"),
            Why::Ineffective(p, t) => Illegal::by(
                power_rule(p),
                format!("ineffective against {}", crate::text::with_article(&ty(t))),
            ),
            Why::CannotRevive(u) => Illegal::by("SWTB-U2", format!("{} cannot revive", n(u))),
            Why::NotFallen(f) => Illegal::by("SWTB-U2", format!("{} has not fallen", n(f))),
            Why::ReviveOwn => Illegal::by("SWTB-U2", "droids revive their own side's fallen"),
            Why::ReviveNotAdjacent => Illegal::by("SWTB-U2", "the fallen unit must be adjacent"),
            Why::FallenCellTaken(c) => {
                Illegal::by("SWTB-U2", format!("{c}, where it fell, is taken"))
            }
        }
    }
}
