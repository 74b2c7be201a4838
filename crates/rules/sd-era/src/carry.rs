//! What an accepted action does: `SdEra::carry_out` takes the judge's [`Plan`] and hands
//! it to the rule that owns it (a move to [`crate::movement`], a shot or melee to
//! [`crate::combat`], the missions' actions to [`crate::missions`], decisions within a fight
//! or a knockback back to them). Rule ids: those of the plans it carries out; nothing here
//! decides legality ([`crate::legal`] did).

use crate::data::MissionKind;
use crate::events::Event;
use crate::legal::Plan;
use crate::state::{Choice, Phase, SdEra, Trail, UnitId};

impl SdEra {
    pub(crate) fn carry_out(&mut self, p: Plan, ev: &mut Vec<Event>) {
        let turn_action = matches!(
            p,
            Plan::PickUp(..)
                | Plan::Move(_)
                | Plan::Shoot { .. }
                | Plan::Melee { .. }
                | Plan::Recover(_)
                | Plan::Hide(_, true)
                | Plan::Collect(_)
                | Plan::Cheer(..)
                | Plan::BreakIn(_)
        );
        if turn_action {
            self.now.charge = None;
        }
        match p {
            Plan::Move(..)
            | Plan::Shoot { .. }
            | Plan::Melee { .. }
            | Plan::Recover(..)
            | Plan::Hide(..)
            | Plan::Collect(..)
            | Plan::Cheer(..)
            | Plan::BreakIn(..)
            | Plan::End
            | Plan::PickUp(..) => self.carry_turn(p, ev),
            Plan::Pick(..) | Plan::Done | Plan::Deploy(..) | Plan::Edge(..) => {
                self.carry_start(p, ev)
            }
            _ => self.carry_choice(p, ev),
        }
    }

    /// A turn's actions (SDE-T1): moves, attacks, and the missions' actions.
    fn carry_turn(&mut self, p: Plan, ev: &mut Vec<Event>) {
        match p {
            Plan::Move(m) => self.do_move(m, ev),
            Plan::Shoot {
                unit,
                shots,
                from,
                free,
            } => {
                if !free {
                    self.now.units[unit as usize].actions -= 1;
                }
                for &(target, dice) in shots.iter().skip(1).rev() {
                    self.now.pending.push(crate::state::Pending::Spray {
                        unit,
                        target,
                        dice,
                        from,
                    });
                }
                let (target, dice) = shots[0];
                self.now.trail.push(Trail::Shot {
                    from,
                    to: self.unit(target).at,
                });
                let f = self.unit_fight(unit, target, false, dice, from);
                self.start_fight(f, ev);
            }
            Plan::Melee {
                unit,
                target,
                free,
                bonus,
            } => {
                if !free {
                    self.now.units[unit as usize].actions -= 1;
                }
                let dice = self.attack_dice(unit, true) + bonus;
                let f = self.unit_fight(unit, target, true, dice, self.unit(unit).at);
                self.start_fight(f, ev);
            }
            Plan::Recover(u) => {
                let x = &mut self.now.units[u as usize];
                x.stunned = false;
                x.actions -= 1;
                ev.push(Event::Recovered { unit: u });
            }
            Plan::Hide(u, costs) => {
                let x = &mut self.now.units[u as usize];
                x.hidden = true;
                if costs {
                    x.actions -= 1;
                }
                ev.push(Event::Hid { unit: u });
            }
            Plan::Collect(u) if self.fixed.kind == crate::data::MissionKind::EggHunt => {
                self.now.units[u as usize].actions -= 1;
                self.take_credit(u, ev);
                self.settle(ev);
            }
            Plan::Collect(u) => {
                self.now.units[u as usize].actions -= 1;
                let s = self.now.active as usize;
                self.now.tokens[s] += 1;
                self.now.collected = true;
                ev.push(Event::Token {
                    seat: s as u8,
                    tokens: self.now.tokens[s],
                });
                self.settle(ev);
            }
            Plan::Cheer(u, t) => {
                self.now.units[u as usize].actions -= 1;
                let c = &mut self.now.units[t as usize].cheer;
                *c = c.saturating_add(1);
                ev.push(Event::CheerDie {
                    unit: t,
                    cheer: self.unit(t).cheer,
                });
            }
            Plan::BreakIn(u) => {
                self.now.units[u as usize].actions -= 1;
                self.now.back = crate::state::Back::Turn;
                self.now.phase = Phase::BreakIn {
                    unit: u,
                    left: self.attack_dice(u, false),
                    first: 0,
                    same: true,
                };
            }
            Plan::End => self.end_turn(ev),
            Plan::PickUp(u, a) => {
                self.now.units[u as usize].actions -= 1;
                self.pick_up(u, a, ev);
                // Already at a board edge: captured at once.
                self.capture_at_edge(u, ev);
                self.settle(ev);
            }
            _ => {}
        }
    }

    /// Before play: the draft (SDE-T2), hiding at the start (SDE-H), the edges and placing
    /// (SDE-RING.1, `start = edge`).
    fn carry_start(&mut self, p: Plan, ev: &mut Vec<Event>) {
        match p {
            Plan::Pick(k) => {
                let Phase::Draft { seat } = self.now.phase else {
                    return;
                };
                if self.place_unit(seat, k).is_err() {
                    // No room on the edge: the pick counts as done.
                    self.now.drafted |= 1 << seat;
                } else {
                    let unit = (self.now.units.len() - 1) as UnitId;
                    ev.push(Event::Picked {
                        seat,
                        unit,
                        name: self.fixed.chart[k as usize].1.name.clone(),
                    });
                }
                self.next_drafter(seat);
            }
            Plan::Done => match self.now.phase {
                Phase::Draft { seat } => {
                    self.now.drafted |= 1 << seat;
                    self.next_drafter(seat);
                }
                Phase::StartHidden { seat } => {
                    self.now.phase = match self.next_hider(seat + 1) {
                        Some(s) => Phase::StartHidden { seat: s },
                        None => {
                            self.begin_play(ev);
                            return;
                        }
                    };
                }
                _ => {}
            },
            Plan::Deploy(u, p, outside) => {
                let x = &mut self.now.units[u as usize];
                x.at = p;
                x.home = p;
                x.waiting = false;
                x.outside = outside;
                ev.push(if self.fixed.kind == MissionKind::RingBattle {
                    Event::Deployed {
                        unit: u,
                        at: p,
                        outside,
                    }
                } else {
                    Event::Placed { unit: u, at: p }
                });
                // Take turns, in turn order: the next seat with a unit to place.
                let n = self.fixed.players;
                let from = match self.now.phase {
                    Phase::Deploy { seat } => (seat + 1) % n,
                    _ => self.now.first,
                };
                match self.next_deployer(from) {
                    Some(seat) => self.now.phase = Phase::Deploy { seat },
                    // RING BATTLE places after the roll for turn order; `start = edge`
                    // before hiding and the roll.
                    None if self.fixed.kind == MissionKind::RingBattle => {
                        let first = self.now.first;
                        self.begin_turn(first, ev);
                    }
                    None => self.start_hiding(ev),
                }
            }
            Plan::Edge(edge) => {
                if let Phase::Deploy { seat } = self.now.phase {
                    self.now.edges[seat as usize] = edge;
                    ev.push(Event::EdgeChosen { seat, edge });
                }
            }
            _ => {}
        }
    }

    /// Decisions within a fight or after one: SDE-V, SDE-RING.2's cheer dice, SDE-KB1's push,
    /// SDE-KOTH.2's hill, CONVOY's draws and give-ups.
    fn carry_choice(&mut self, p: Plan, ev: &mut Vec<Event>) {
        match p {
            Plan::Reroll(side, face) => {
                if let Phase::Fight(f) = self.now.phase {
                    self.start_reroll(f, side, face);
                }
            }
            Plan::Keep(side) => {
                if let Phase::Fight(mut f) = self.now.phase {
                    if side {
                        f.att.rerolled = true;
                    } else {
                        f.def.rerolled = true;
                    }
                    self.fight_continue(f, ev);
                }
            }
            Plan::AddCheer(side, n) => {
                if let Phase::Fight(mut f) = self.now.phase {
                    let u = if side {
                        match f.striker {
                            crate::state::Striker::Unit(u) => u,
                            _ => f.target,
                        }
                    } else {
                        f.target
                    };
                    let pool = if side { &mut f.att } else { &mut f.def };
                    pool.cheered = true;
                    pool.dice = pool.dice.saturating_add(n);
                    self.now.units[u as usize].cheer -= n;
                    if n > 0 {
                        ev.push(Event::Cheered { unit: u, dice: n });
                    }
                    self.fight_continue(f, ev);
                }
            }
            Plan::Push(aim) => {
                if let Phase::Choose(Choice::Push {
                    seat,
                    mover,
                    dist,
                    dice,
                    ..
                }) = self.now.phase
                {
                    self.now
                        .pending
                        .push(crate::state::Pending::Motion(crate::state::Motion {
                            body: mover,
                            toward: aim,
                            dist,
                            by: Some(seat),
                            dice,
                            bounces: 0,
                            past: None,
                        }));
                    self.settle(ev);
                }
            }
            Plan::Pass | Plan::Stay => self.settle(ev),
            Plan::Take => {
                if let Phase::Choose(Choice::TakeHill { unit, spot, .. }) = self.now.phase {
                    self.take_hill(unit, spot, ev);
                }
                self.settle(ev);
            }
            Plan::Draw(n) => {
                if let Phase::Choose(Choice::Draws { seat }) = self.now.phase {
                    if n == 0 {
                        self.next_drawer(seat + 1, ev);
                    } else {
                        self.now.phase = Phase::EnemyDraw { seat, left: n };
                    }
                }
            }
            Plan::GiveUp(u) => {
                if let Phase::Choose(Choice::GiveUp { seat }) = self.now.phase {
                    self.give_up(seat, u, ev);
                }
            }
            Plan::Place(t) => {
                let c = &mut self.now.units[t as usize].cheer;
                *c = c.saturating_add(1);
                ev.push(Event::CheerDie {
                    unit: t,
                    cheer: self.unit(t).cheer,
                });
                self.settle(ev);
            }
            _ => {}
        }
    }
}
