//! Enemy units: units no player owns, which the rules move and fight with (EGG HUNT's boss,
//! SDE-EGG.2). They are ordinary units in every other way — the same dice, letters,
//! knockback and stuns — so one primitive serves every mission that has them: pick the
//! target by a fixed rule, close in by up to one move, then attack (melee if next to it,
//! else shoot). Every die is a chance point; nothing here is a player's decision or an AI.
//!
//! The alternative — giving the enemies a seat played by a bot — would make the text's
//! behaviour depend on a search, and a replay on the bot's version; the text writes their
//! behaviour out, so it is rules.
//!
//! Ties are broken by fixed rules of ours (docs/rules/sd-era.md): the nearest unit by
//! centre distance, then the lowest id; enemies act in id order.

use crate::data::{BASE_RADIUS, MissionKind, NEXT_TO, STICK};
use crate::events::Event;
use crate::state::{Back, Phase, SdEra, Trail, UnitId};
use battlemat_geom::table::toward;

/// EGG HUNT: "The BOSS unit will ambush anyone nearby": a unit within 2 sticks of it (edge
/// to edge; our reading of "nearby").
pub const AMBUSH_REACH: i64 = 2 * STICK;

impl SdEra {
    /// The enemy's target: the nearest player unit it may attack (not stunned, not hidden),
    /// within `reach` edge to edge; the lowest id on a tie.
    pub fn enemy_target(&self, e: UnitId, reach: i64) -> Option<UnitId> {
        let me = self.unit(e).base();
        self.ids()
            .filter(|&u| {
                let x = self.unit(u);
                x.is_unit()
                    && x.owner.is_some()
                    && x.on_table()
                    && !x.stunned
                    && !x.hidden
                    && x.base().within(&me, reach)
            })
            .min_by_key(|&u| {
                let p = self.unit(u).at;
                (crate::combat::len2(p.x - me.centre.x, p.y - me.centre.y), u)
            })
    }

    /// An enemy's attack on its target, with `bonus` dice; if `may_move`, it first moves up
    /// to 1 stick straight toward the target, stopping at the first contact. Whether a fight
    /// began (else it had no target or no shot).
    pub fn enemy_attack(
        &mut self,
        e: UnitId,
        bonus: u8,
        may_move: bool,
        ev: &mut Vec<Event>,
    ) -> bool {
        let Some(t) = self.enemy_target(e, AMBUSH_REACH) else {
            return false;
        };
        if may_move {
            self.enemy_step(e, t, STICK, None, ev);
        }
        self.enemy_strike(e, t, bonus, false, ev)
    }

    /// An enemy moves straight toward `target`, at most `most` ticks, stopping next to it or
    /// at the first contact on the way; its centre kept within `rows` (a band of the table's
    /// depth, BATTLE ZONES' zone) if given.
    pub fn enemy_step(
        &mut self,
        e: UnitId,
        target: UnitId,
        most: i64,
        rows: Option<(i64, i64)>,
        ev: &mut Vec<Event>,
    ) {
        if self.next_to(e, target) {
            return;
        }
        let start = self.unit(e).at;
        let them = self.unit(target).at;
        let r = self.unit(e).radius();
        let contact = r + self.unit(target).radius() + NEXT_TO / 2;
        let gap = battlemat_geom::table::distance_floor(start, them) - contact;
        let mut to = toward(start, them, gap.clamp(0, most));
        if let Some((lo, hi)) = rows {
            to.y = to.y.clamp(lo + r + 1, (hi - r - 1).max(lo + r + 1));
        }
        let others = self.bases_except(&[e]);
        let sweep = self
            .fixed
            .table
            .sweep(self.unit(e).base(), to, &others, &[]);
        if sweep.stop != start {
            self.now.units[e as usize].at = sweep.stop;
            self.now.trail.push(Trail::Move {
                from: start,
                to: sweep.stop,
            });
            ev.push(Event::Moved {
                unit: e,
                from: start,
                to: sweep.stop,
            });
        }
    }

    /// An enemy attacks `target` with `bonus` dice: melee if next to it, else a shot if it
    /// has one; `shoot_first`: a shot whenever it has one, melee only if it has none but is
    /// next to it. Whether a fight began.
    pub fn enemy_strike(
        &mut self,
        e: UnitId,
        target: UnitId,
        bonus: u8,
        shoot_first: bool,
        ev: &mut Vec<Event>,
    ) -> bool {
        if !self.attackable(target) {
            return false;
        }
        let at = self.unit(e).at;
        let beside = self.next_to(e, target);
        let total = self.attack_dice(e, false) + bonus;
        let shot = if beside && !shoot_first {
            None
        } else {
            self.aim_dice(e, at, BASE_RADIUS, target, total).ok()
        };
        let f = match shot {
            Some(dice) => {
                self.now.trail.push(Trail::Shot {
                    from: at,
                    to: self.unit(target).at,
                });
                self.unit_fight(e, target, false, dice, at)
            }
            None if beside => {
                let dice = self.attack_dice(e, true) + bonus;
                self.unit_fight(e, target, true, dice, at)
            }
            None => return false,
        };
        self.start_fight(f, ev);
        true
    }

    /// The enemies' turn: each enemy on the table is due to act once (its one action, kept
    /// in `actions`).
    pub fn start_enemy_turn(&mut self, ev: &mut Vec<Event>) {
        self.now.charge = None;
        if self.fixed.kind != MissionKind::Convoy {
            self.now.trail.clear();
        }
        for u in &mut self.now.units {
            u.actions = u8::from(u.is_enemy() && u.on_table());
        }
        self.next_enemy(ev);
    }

    /// The next enemy due acts — in CONVOY the one closest to the ship ("starting with the
    /// enemy unit closest to the ship"), else in id order; ties: the lowest id. When none is
    /// left: CONVOY's players roll off for their order, otherwise the next round.
    pub fn next_enemy(&mut self, ev: &mut Vec<Event>) {
        self.now.back = Back::Turn;
        loop {
            if self.check_victory(ev) {
                return;
            }
            let convoy = self.fixed.kind == MissionKind::Convoy;
            let ship = self
                .now
                .convoy
                .as_ref()
                .map_or(self.fixed.centre, |c| self.unit(c.ship).at);
            let due = self
                .ids()
                .filter(|&e| {
                    let x = self.unit(e);
                    x.is_enemy() && x.on_table() && x.actions > 0
                })
                .min_by_key(|&e| {
                    let p = self.unit(e).at;
                    let d = if convoy {
                        crate::combat::len2(p.x - ship.x, p.y - ship.y)
                    } else {
                        0
                    };
                    (d, e)
                });
            let Some(e) = due else { break };
            self.now.units[e as usize].actions = 0;
            if self.unit(e).stunned {
                // A stunned enemy gets up instead of acting (SDE-RECOVER, ours for enemies).
                self.now.units[e as usize].stunned = false;
                ev.push(Event::EnemyRecovers { unit: e });
                continue;
            }
            self.now.back = Back::Enemies { after: e };
            let fight = if convoy {
                self.convoy_enemy_act(e, ev)
            } else if self.fixed.kind == MissionKind::BattleZones {
                self.zone_enemy_act(e, ev)
            } else {
                self.enemy_attack(e, 0, true, ev)
            };
            if fight {
                return;
            }
            self.now.back = Back::Turn;
        }
        if self.now.phase == Phase::Over {
            return;
        }
        if self.fixed.kind == MissionKind::Convoy {
            self.start_order_roll();
        } else {
            self.new_round(ev);
        }
    }

    /// Are there enemies on the table to take a turn?
    pub fn enemies_on_table(&self) -> bool {
        self.now.units.iter().any(|x| x.is_enemy() && x.on_table())
    }
}
