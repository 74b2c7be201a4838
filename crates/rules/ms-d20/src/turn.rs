//! D20-1 (initiative, the Newtype Initiative save), D20-2 (fight or flight), the melee round
//! and its turns (APM), stuns and knock-downs wearing off, the end, resigning, who decides.

use crate::events::Event;
use crate::state::{MsD20, Phase, UnitId};
use battlemat_core::Seat;
use battlemat_core::TwoSided;

impl MsD20 {
    /// A new melee round: everyone's APM back; the Newtype Initiative saves, initiative,
    /// fight or flight, then the turns.
    pub fn begin_melee(&mut self, ev: &mut Vec<Event>) {
        if self.now.outcome.is_some() {
            return;
        }
        if self.fixed.melee_limit.is_some_and(|l| self.now.melee >= l) {
            self.end_by_limit(ev);
            return;
        }
        self.now.melee += 1;
        ev.push(Event::MeleeBegins {
            melee: self.now.melee,
        });
        for x in &mut self.now.units {
            x.flee = false;
            x.turns = 0;
            x.initiative.clear();
            x.ni_failed = false;
        }
        for u in self.ids() {
            let apm = self.data(u).pilot.apm;
            self.unit_mut(u).apm = apm;
        }
        self.now.order.clear();
        self.now.cursor = 0;
        self.next_newtype_save(0);
    }

    /// D20-1: "Save VRS Newtype Initiative is rolled (if applicable)": by every combatant
    /// without the power when an opponent has it.
    fn needs_ni_save(&self, u: UnitId) -> bool {
        let side = self.unit(u).side;
        self.in_play(u)
            && !self.has_power(u, "initiative")
            && self.ids().any(|v| {
                self.in_play(v) && self.unit(v).side != side && self.has_power(v, "initiative")
            })
    }

    pub fn next_newtype_save(&mut self, from: UnitId) {
        match (from..self.now.units.len() as UnitId).find(|&u| self.needs_ni_save(u)) {
            Some(unit) => self.now.phase = Phase::NewtypeSave { unit },
            None => {
                let left: Vec<UnitId> = self.ids().filter(|&u| self.in_play(u)).collect();
                self.now.phase = Phase::Initiative { left };
            }
        }
    }

    /// D20-1 (rulings.md): d20 + Newtype level + save bonus against the `newtype_save` value.
    pub fn roll_newtype_save(&mut self, unit: UnitId, face: u8, ev: &mut Vec<Event>) {
        let p = &self.data(unit).pilot;
        let total = face as i16 + p.newtype as i16 + p.save as i16;
        let need = self.fixed.setup.options.newtype_save as i16;
        let saved = total >= need;
        self.unit_mut(unit).ni_failed = !saved;
        ev.push(Event::NewtypeSave {
            unit,
            natural: face,
            total,
            need,
            saved,
        });
        self.next_newtype_save(unit + 1);
    }

    /// D20-1: "Roll Standard Initiative (d20 + Initiative Bonuses, the highest number goes
    /// first)"; large vehicles have no bonus (rulings.md); ties are rolled again, among the
    /// tied only.
    pub fn roll_initiative(&mut self, mut left: Vec<UnitId>, face: u8, ev: &mut Vec<Event>) {
        let u = left.remove(0);
        let bonus = if self.data(u).kind == crate::data::Kind::LargeVehicle {
            0
        } else {
            self.data(u).pilot.initiative as i16
        };
        // The first roll with the bonus; a tie's re-roll is a plain d20 (ours: the bonus is
        // already in the tied totals), kept after the earlier rolls so the order compares
        // them in turn — a tie is broken only among the tied, and the order among the rest
        // (decided by earlier rolls) is kept.
        let total = if self.unit(u).initiative.is_empty() {
            face as i16 + bonus
        } else {
            face as i16
        };
        self.unit_mut(u).initiative.push(total);
        ev.push(Event::Initiative {
            unit: u,
            natural: face,
            total,
        });
        if !left.is_empty() {
            self.now.phase = Phase::Initiative { left };
            return;
        }
        // Ties: those whose rolls so far are all equal roll again.
        let playing: Vec<UnitId> = self.ids().filter(|&u| self.in_play(u)).collect();
        let tied: Vec<UnitId> = playing
            .iter()
            .copied()
            .filter(|&u| {
                playing
                    .iter()
                    .any(|&v| v != u && self.unit(v).initiative == self.unit(u).initiative)
            })
            .collect();
        if !tied.is_empty() {
            self.now.phase = Phase::Initiative { left: tied };
            return;
        }
        self.settle_order(ev);
    }

    /// The order of turns: highest initiative first, except that those who failed the
    /// Newtype Initiative save come after every Newtype with the power ("characters that fail
    /// cannot go before any Newtypes with the Newtype Initiative ability").
    fn settle_order(&mut self, ev: &mut Vec<Event>) {
        let mut order: Vec<UnitId> = self.ids().filter(|&u| self.in_play(u)).collect();
        order.sort_by(|&a, &b| {
            self.unit(b)
                .initiative
                .cmp(&self.unit(a).initiative)
                .then(a.cmp(&b))
        });
        if let Some(last_nt) = order.iter().rposition(|&u| self.has_power(u, "initiative")) {
            let (before, after) = order.split_at(last_nt + 1);
            let mut first: Vec<UnitId> = before
                .iter()
                .copied()
                .filter(|&u| !self.unit(u).ni_failed)
                .collect();
            let moved: Vec<UnitId> = before
                .iter()
                .copied()
                .filter(|&u| self.unit(u).ni_failed)
                .collect();
            first.extend(moved);
            first.extend_from_slice(after);
            order = first;
        }
        ev.push(Event::Order {
            order: order.clone(),
        });
        self.now.order = order;
        self.next_fight_or_flight(0, ev);
    }

    /// D20-2: each combatant's seat, in turn order, says whether it will fight.
    pub fn next_fight_or_flight(&mut self, from: u8, ev: &mut Vec<Event>) {
        match self.now.order.get(from as usize) {
            Some(&unit) => self.now.phase = Phase::FightOrFlight { unit },
            None => {
                self.now.cursor = 0;
                self.start_turn(ev);
            }
        }
    }

    /// The turn of the combatant at the cursor, or the next one with APM left; a new melee
    /// when nobody has any. A stunned combatant loses its turn; a knocked-over one gets up.
    pub fn start_turn(&mut self, ev: &mut Vec<Event>) {
        loop {
            if self.now.outcome.is_some() {
                return;
            }
            let n = self.now.order.len();
            let any = self
                .now
                .order
                .iter()
                .any(|&u| self.in_play(u) && self.unit(u).apm > 0);
            if !any || n == 0 {
                self.begin_melee(ev);
                return;
            }
            let u = self.now.order[self.now.cursor as usize % n];
            if !self.in_play(u) || self.unit(u).apm == 0 {
                self.now.cursor = ((self.now.cursor as usize + 1) % n) as u8;
                continue;
            }
            self.unit_mut(u).parried = 0;
            if self.unit(u).stunned.is_some() {
                ev.push(Event::TurnLost {
                    unit: u,
                    why: "stunned".into(),
                });
                self.spend_turn(u, true, ev);
                continue;
            }
            if self.unit(u).knocked {
                self.unit_mut(u).knocked = false;
                ev.push(Event::TurnLost {
                    unit: u,
                    why: "getting up".into(),
                });
                self.spend_turn(u, true, ev);
                continue;
            }
            self.now.phase = Phase::Turn {
                unit: u,
                moved: false,
                acted: false,
            };
            return;
        }
    }

    /// The end of `u`'s turn: the APM it costs (D20-2: a fleeing combatant only every second
    /// turn), stuns it caused a turn ago wear off (D20-6S), the cursor moves on.
    pub fn spend_turn(&mut self, u: UnitId, costs: bool, ev: &mut Vec<Event>) {
        let x = self.unit_mut(u);
        x.turns += 1;
        x.turns_total += 1;
        let pay = costs && (!x.flee || x.turns.is_multiple_of(2));
        if pay {
            x.apm = x.apm.saturating_sub(1);
        }
        let done = self.unit(u).turns_total;
        self.end_stuns(u, |_, s| s.until <= done, ev);
        let n = self.now.order.len().max(1);
        self.now.cursor = ((self.now.cursor as usize + 1) % n) as u8;
    }

    pub fn end_turn(&mut self, u: UnitId, ev: &mut Vec<Event>) {
        self.spend_turn(u, false, ev);
        self.start_turn(ev);
    }

    /// The text gives no victory condition (DEFAULT): the last side with a combatant still
    /// working wins; a scenario's goal (a named combatant destroyed) wins for its enemies.
    pub fn check_end(&mut self, ev: &mut Vec<Event>) {
        if self.now.outcome.is_some() {
            return;
        }
        if let Some(g) = self.fixed.goal
            && self.unit(g).out
        {
            let side = self.unit(g).side;
            self.finish(
                Some(1 - side),
                format!("{} is destroyed: the goal is won", self.name(g)),
                ev,
            );
            return;
        }
        for side in 0..2u8 {
            if !self
                .ids()
                .any(|u| self.unit(u).side == side && self.in_play(u))
            {
                self.finish(
                    Some(1 - side),
                    format!("{} has no combatant left", self.side_name(side)),
                    ev,
                );
                return;
            }
        }
    }

    /// The `melees` option: the side with the larger share of its durability left wins.
    fn end_by_limit(&mut self, ev: &mut Vec<Event>) {
        let share = |side: u8| -> (u64, u64) {
            let mut left = 0u64;
            let mut full = 0u64;
            for u in self.ids().filter(|&u| self.unit(u).side == side) {
                for (i, s) in self.data(u).sections.iter().enumerate() {
                    full += s.durability as u64;
                    if !self.unit(u).out {
                        left += self.unit(u).sections[i] as u64;
                    }
                }
            }
            (left, full.max(1))
        };
        let (a, fa) = share(0);
        let (b, fb) = share(1);
        // a/fa against b/fb, in integers.
        let winner = match (a * fb).cmp(&(b * fa)) {
            std::cmp::Ordering::Greater => Some(0),
            std::cmp::Ordering::Less => Some(1),
            std::cmp::Ordering::Equal => None,
        };
        let m = self.now.melee;
        self.finish_at_limit(
            winner,
            format!(
                "{m} melee rounds with no winner: {}% of the Federation's durability left against {}% of Zeon's (melee limit)",
                a * 100 / fa,
                b * 100 / fb
            ),
            ev,
        );
    }

    pub fn deciding_seat(&self) -> Option<Seat> {
        match &self.now.phase {
            Phase::FightOrFlight { unit } | Phase::Turn { unit, .. } => Some(self.unit(*unit).seat),
            Phase::Defend { attack } | Phase::MayRoll { attack } => {
                Some(self.unit(attack.target).seat)
            }
            _ => None,
        }
    }
}
