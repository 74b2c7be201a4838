//! The one judge: [`MsD20::plan`] says what an action will do or why not (with the rule);
//! `check`, the listing and `act` all use it. The listing is complete.

use crate::events::{Action, Event};
use crate::state::{Defence, MsD20, Phase, UnitId};
pub use battlemat_core::Why;
use battlemat_geom::Cell;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Plan {
    Fight(UnitId, bool),
    Move(UnitId, Cell),
    Attack {
        unit: UnitId,
        target: UnitId,
        weapon: u8,
        at: Option<u8>,
        insight: bool,
    },
    Pass(UnitId),
    End(UnitId),
    Defend(Defence),
}

const NOT_NOW: Why = Why::new("D20-3", "that is not something to do now");

impl MsD20 {
    pub fn plan(&self, a: &Action) -> Result<Plan, Why> {
        match (&self.now.phase, *a) {
            (Phase::FightOrFlight { unit }, Action::Fight) => Ok(Plan::Fight(*unit, true)),
            (Phase::FightOrFlight { unit }, Action::Flee) => Ok(Plan::Fight(*unit, false)),
            (Phase::Turn { unit, moved, .. }, Action::Move { to }) => {
                if *moved {
                    return Err(Why::new("D20-3", "it has moved this turn"));
                }
                if !self.can_move(*unit) {
                    return Err(Why::new(
                        "D20-3",
                        "it cannot move (stunned, or its legs are gone)",
                    ));
                }
                let at = self.unit(*unit).at;
                if !self.fixed.grid.contains(to)
                    || to == at
                    || self.fixed.grid.distance(at, to) > self.data(*unit).speed as u32
                    || self.occupied(to).is_some()
                {
                    return Err(Why::new("D20-3", "an empty cell within its speed"));
                }
                Ok(Plan::Move(*unit, to))
            }
            (
                Phase::Turn { unit, acted, .. },
                Action::Attack {
                    target,
                    weapon,
                    at,
                    insight,
                },
            ) => {
                if *acted {
                    return Err(Why::new("D20-3", "it has attacked this turn"));
                }
                if self.unit(*unit).flee {
                    return Err(Why::new("D20-2", "it said it would not attack this melee"));
                }
                if (target as usize) >= self.now.units.len()
                    || !self.in_play(target)
                    || self.unit(target).side == self.unit(*unit).side
                {
                    return Err(Why::new("D20-3", "attack an enemy still in the fight"));
                }
                if !self.weapon_ok(*unit, weapon) {
                    return Err(Why::new(
                        "D20-3",
                        "no such weapon, or its section is destroyed",
                    ));
                }
                if at == Some(self.main_section(target)) {
                    return Err(Why::new(
                        "D20-3",
                        "the main body is where an attack goes without a called shot: leave out `at`",
                    ));
                }
                if let Some(s) = at
                    && !self.section_ok(target, s)
                {
                    return Err(Why::new(
                        "D20-3",
                        "a called shot at a section the target still has",
                    ));
                }
                if insight
                    && (!self.has_power(*unit, "insight") || self.data(*unit).pilot.newtype == 0)
                {
                    return Err(Why::new(
                        "D20-3",
                        "only a Newtype with the insight power uses it",
                    ));
                }
                if self
                    .strike_bonus(*unit, weapon, target, at, insight)
                    .is_none()
                {
                    return Err(Why::new("D20-8", "out of the weapon's long range"));
                }
                Ok(Plan::Attack {
                    unit: *unit,
                    target,
                    weapon,
                    at,
                    insight,
                })
            }
            (
                Phase::Turn {
                    unit, acted: false, ..
                },
                Action::Pass,
            ) => Ok(Plan::Pass(*unit)),
            (
                Phase::Turn {
                    unit, acted: true, ..
                },
                Action::End,
            ) => Ok(Plan::End(*unit)),
            (Phase::Defend { attack }, a) => {
                let d = match a {
                    Action::Take => Defence::Take,
                    Action::Dodge => Defence::Dodge,
                    Action::Leap => Defence::Leap,
                    Action::Parry { section } => Defence::Parry(section),
                    Action::Roll => Defence::Roll,
                    _ => return Err(NOT_NOW),
                };
                let w = self.data(attack.attacker).weapons[attack.weapon as usize].kind;
                if let Some(why) = crate::combat::ruled_out_by_weapon(d, w) {
                    return Err(why);
                }
                if !self.defences(attack).contains(&d) {
                    return Err(Why::new(
                        "D20-3D",
                        "that defence is not open: its APM, a working arm against a hand-to-hand attack, no roll against beams and blades",
                    ));
                }
                Ok(Plan::Defend(d))
            }
            (Phase::MayRoll { .. }, Action::Roll) => Ok(Plan::Defend(Defence::Roll)),
            (Phase::MayRoll { .. }, Action::Take) => Ok(Plan::Defend(Defence::Take)),
            _ => Err(NOT_NOW),
        }
    }

    pub fn carry_out(&mut self, p: Plan, ev: &mut Vec<Event>) {
        let phase = std::mem::replace(&mut self.now.phase, Phase::Over);
        match (p, phase) {
            (Plan::Fight(u, fight), _) => {
                self.unit_mut(u).flee = !fight;
                if !fight {
                    ev.push(Event::Flees { unit: u });
                }
                let i = self.now.order.iter().position(|&x| x == u).unwrap_or(0);
                self.next_fight_or_flight(i as u8 + 1, ev);
            }
            (Plan::Move(u, to), Phase::Turn { acted, .. }) => {
                self.unit_mut(u).at = to;
                ev.push(Event::Moves { unit: u, to });
                if acted {
                    self.end_turn(u, ev);
                } else {
                    self.now.phase = Phase::Turn {
                        unit: u,
                        moved: true,
                        acted: false,
                    };
                }
            }
            (
                Plan::Attack {
                    unit,
                    target,
                    weapon,
                    at,
                    insight,
                },
                Phase::Turn { moved, .. },
            ) => self.declare(
                unit,
                crate::combat::Aim {
                    target,
                    weapon,
                    at,
                    insight,
                },
                moved,
                ev,
            ),
            (Plan::Pass(u), _) => {
                self.spend_turn(u, true, ev);
                self.start_turn(ev);
            }
            (Plan::End(u), _) => self.end_turn(u, ev),
            (Plan::Defend(d), Phase::Defend { attack }) => self.choose_defence(attack, d, ev),
            (Plan::Defend(Defence::Roll), Phase::MayRoll { attack }) => {
                self.choose_defence(attack, Defence::Roll, ev)
            }
            (Plan::Defend(_), Phase::MayRoll { attack }) => self.after_hit(attack, ev),
            (_, phase) => self.now.phase = phase,
        }
    }

    /// Every action the judge accepts now, in a fixed order.
    pub fn legal(&self) -> Vec<Action> {
        let mut out = Vec::new();
        match &self.now.phase {
            Phase::FightOrFlight { .. } => {
                out.push(Action::Fight);
                out.push(Action::Flee);
            }
            Phase::Turn { unit, moved, acted } => {
                let u = *unit;
                if !*moved && self.can_move(u) {
                    out.extend(self.move_cells(u).into_iter().map(|to| Action::Move { to }));
                }
                if !*acted && !self.unit(u).flee {
                    let insight = self.has_power(u, "insight") && self.data(u).pilot.newtype > 0;
                    for t in self.ids() {
                        if !self.in_play(t) || self.unit(t).side == self.unit(u).side {
                            continue;
                        }
                        for w in 0..self.data(u).weapons.len() as u8 {
                            if !self.weapon_ok(u, w)
                                || self.strike_bonus(u, w, t, None, false).is_none()
                            {
                                continue;
                            }
                            let main = self.main_section(t);
                            let aims = std::iter::once(None).chain(
                                (0..self.unit(t).sections.len() as u8)
                                    .filter(|&s| s != main && self.section_ok(t, s))
                                    .map(Some),
                            );
                            for at in aims {
                                for ins in [false, true] {
                                    if ins && !insight {
                                        continue;
                                    }
                                    out.push(Action::Attack {
                                        target: t,
                                        weapon: w,
                                        at,
                                        insight: ins,
                                    });
                                }
                            }
                        }
                    }
                }
                out.push(if *acted { Action::End } else { Action::Pass });
            }
            Phase::Defend { attack } => {
                out.extend(self.defences(attack).into_iter().map(Action::of_defence));
            }
            Phase::MayRoll { .. } => {
                out.push(Action::Take);
                out.push(Action::Roll);
            }
            _ => {}
        }
        out
    }
}
