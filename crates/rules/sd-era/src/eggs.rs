//! EGG HUNT's special rules (SDE-EGG.2): eggs that defend with one die and take knockback
//! like a unit but break open instead of being stunned; what comes out of them — a unit that
//! makes one free attack with +1 die and then joins its army, a bomb that rolls to explode
//! and grows, candy, credits picked up by an action, the boss — and the credits the boss
//! is worth.
//!
//! What an egg holds is drawn when it breaks open, from the contents left (rulings.md:
//! "drawn when revealed, from what is left"): one chance point weighted by the count of each
//! content, so the odds are the text's and a saved game hides nothing. The alternative, a
//! secret deal of contents to eggs at the start, gives the same odds but puts a secret in
//! the state that every observation would have to hide from every player.
//!
//! The boss is an enemy unit (no owner): the rules move it ([`crate::enemies`]).

use crate::data::{STICK, Special};
use crate::events::{EggContent, Event};
use crate::state::{Body, Choice, Pending, Phase, SdEra, UnitId};
use battlemat_core::{ChanceOutcome, Outcomes, Seat, SetupError};

/// The chance values of an egg's contents: a seat's unit is its seat number.
pub const BOMB: u32 = 10;
pub const CANDY: u32 = 11;
pub const CREDITS: u32 = 12;
pub const BOSS: u32 = 13;

/// The credits in a credit egg (SDE-EGG.1: "three eggs with two credits each").
pub const CREDITS_PER_EGG: u8 = 2;
/// The boss is worth this many credits to whoever stuns it (SDE-EGG.2).
pub const BOSS_CREDITS: u8 = 3;
/// The dice a bomb rolls as it comes out of its egg.
pub const FIRST_BOMB_DICE: u8 = 2;

impl SdEra {
    /// The draw for an egg: each content left, weighted by how many eggs hold it.
    pub fn egg_outcomes(&self) -> Outcomes {
        let c = self.now.eggs.unwrap_or_default();
        let mut o: Vec<ChanceOutcome> = (0..self.fixed.players)
            .filter(|s| c.units & (1 << s) != 0)
            .map(|s| ChanceOutcome {
                value: u32::from(s),
                weight: 1,
            })
            .collect();
        for (value, n) in [
            (BOMB, c.bombs),
            (CANDY, c.candy),
            (CREDITS, c.credits),
            (BOSS, c.boss),
        ] {
            if n > 0 {
                o.push(ChanceOutcome {
                    value,
                    weight: u64::from(n),
                });
            }
        }
        Outcomes::Weighted(o)
    }

    /// "Instead of taking a STUN, an egg will BREAK OPEN": the egg is marked broken (it
    /// cannot be attacked again) and its contents are drawn next.
    pub fn break_egg(&mut self, egg: UnitId, by: Option<Seat>) {
        let x = &mut self.now.units[egg as usize];
        if x.stunned || x.gone {
            return;
        }
        x.stunned = true;
        self.now.pending.push(Pending::Open { egg, by });
    }

    /// The cheap unit in `seat`'s egg: the kind in its army that costs least (transports
    /// aside: it comes out attacking), a CHEAP one first among equals (SDE-EGG.1, our reading
    /// of "a cheap unit from that player's army"), the one listed first on a tie.
    pub fn egg_unit_kind(&self, seat: Seat) -> Option<u16> {
        self.ids()
            .filter_map(|u| {
                let x = self.unit(u);
                let k = x.kind().filter(|_| x.owner == Some(seat))?;
                let t = &self.fixed.chart[k as usize].1;
                if t.is(Special::T) {
                    return None;
                }
                Some(((t.cost(), !t.is(Special::C), u), k))
            })
            .min()
            .map(|(_, k)| k)
    }

    /// What came out of the egg (a chance value from [`SdEra::egg_outcomes`]).
    pub fn open_egg(&mut self, egg: UnitId, by: Option<Seat>, value: u32, ev: &mut Vec<Event>) {
        let at = self.unit(egg).at;
        self.now.units[egg as usize].gone = true;
        let Some(left) = self.now.eggs.as_mut() else {
            return self.settle(ev);
        };
        let content = match value {
            BOMB => EggContent::Bomb,
            CANDY => EggContent::Candy,
            CREDITS => EggContent::Credits,
            BOSS => EggContent::Boss,
            s => EggContent::Unit {
                seat: (s as Seat).min(7),
            },
        };
        left.take(content);
        ev.push(Event::EggOpens { egg, content, by });
        match content {
            EggContent::Unit { seat } => {
                let Some(kind) = self.egg_unit_kind(seat) else {
                    return self.settle(ev);
                };
                let u = self.add_body(Body::Unit { kind }, Some(seat), at);
                // "then join the army they belong to on their next turn": it has no actions
                // until then (a new body has none).
                ev.push(Event::Hatched { unit: u });
                self.now
                    .pending
                    .push(Pending::Choose(Choice::FreeAttack { seat, unit: u }));
            }
            EggContent::Bomb => {
                let b = self.add_body(
                    Body::Bomb {
                        dice: FIRST_BOMB_DICE,
                    },
                    None,
                    at,
                );
                // "BOMBS immediately roll two dice and explode on a 6".
                self.now.phase = Phase::EggBomb {
                    bomb: b,
                    left: FIRST_BOMB_DICE,
                    turn_start: false,
                };
                return;
            }
            EggContent::Candy => {}
            EggContent::Credits => {
                self.add_body(
                    Body::Credit {
                        amount: CREDITS_PER_EGG,
                    },
                    None,
                    at,
                );
            }
            EggContent::Boss => {
                let key = &self.fixed.setup.mission.boss;
                let Some(kind) = self.fixed.kind_of(key) else {
                    return self.settle(ev);
                };
                let b = self.add_body(Body::Unit { kind }, None, at);
                // "The BOSS unit will ambush anyone nearby": out of its egg, it makes the
                // free attack with +1 die any unit in an egg makes.
                if self.enemy_attack(b, 1, false, ev) {
                    return;
                }
            }
        }
        self.settle(ev);
    }

    /// One explode die of an egg's bomb. A 6: every unit within 1 stick is stunned and every
    /// egg within 1 stick blown open; the bomb is gone. No 6 among its dice: it gains a die
    /// for the next check. Then the next bomb at the start of a turn, or play goes on.
    pub fn roll_egg_bomb(
        &mut self,
        bomb: UnitId,
        left: u8,
        turn_start: bool,
        face: u8,
        ev: &mut Vec<Event>,
    ) {
        if face == 6 {
            let caught = self.caught_by_blast(bomb, STICK, |x| x.is_unit() || x.is_egg());
            self.now.units[bomb as usize].gone = true;
            let hit: Vec<UnitId> = caught
                .iter()
                .copied()
                .filter(|&u| self.unit(u).is_unit())
                .collect();
            ev.push(Event::BombExplodes { bomb, hit });
            for u in caught {
                self.stun(u, None, ev);
            }
        } else if left > 1 {
            self.now.phase = Phase::EggBomb {
                bomb,
                left: left - 1,
                turn_start,
            };
            return;
        } else {
            let dice = self.bomb_dice(bomb).saturating_add(1);
            self.now.units[bomb as usize].body = Body::Bomb { dice };
            ev.push(Event::BombGrows { bomb, dice });
        }
        if turn_start && let Some(next) = self.next_egg_bomb(bomb + 1) {
            self.now.phase = Phase::EggBomb {
                bomb: next,
                left: self.bomb_dice(next),
                turn_start,
            };
            return;
        }
        self.settle(ev);
    }

    /// The next bomb on the table from id `from`, in id order.
    pub fn next_egg_bomb(&self, from: UnitId) -> Option<UnitId> {
        (from..self.now.units.len() as UnitId).find(|&b| {
            let x = self.unit(b);
            matches!(x.body, Body::Bomb { .. }) && x.on_table()
        })
    }

    /// "Add another die and check at the start of each player's turn until it explodes!"
    pub fn check_egg_bombs(&mut self) {
        if let Some(b) = self.next_egg_bomb(0) {
            self.now.phase = Phase::EggBomb {
                bomb: b,
                left: self.bomb_dice(b),
                turn_start: true,
            };
        }
    }

    /// Credits next to `unit` (the lowest id first).
    pub fn credit_next_to(&self, unit: UnitId) -> Option<UnitId> {
        self.ids().find(|&c| {
            let y = self.unit(c);
            y.is_marker() && y.on_table() && self.next_to(unit, c)
        })
    }

    /// "Any unit may pick up a credit by spending an action adjacent to it": the marker's
    /// credits, both (`collect = both`) or one (`one`).
    pub fn take_credit(&mut self, unit: UnitId, ev: &mut Vec<Event>) {
        let Some(c) = self.credit_next_to(unit) else {
            return;
        };
        let Body::Credit { amount } = self.unit(c).body else {
            return;
        };
        let Some(seat) = self.unit(unit).owner else {
            return;
        };
        // `collect = one`: "pick up a credit" — one an action, the marker keeps the rest.
        let taken = match self.fixed.options.collect {
            crate::options::Collect::Both => amount,
            crate::options::Collect::One => amount.min(1),
        };
        if taken >= amount {
            self.now.units[c as usize].gone = true;
        } else {
            self.now.units[c as usize].body = Body::Credit {
                amount: amount - taken,
            };
        }
        let t = &mut self.now.tokens[seat as usize];
        *t = t.saturating_add(taken);
        ev.push(Event::CreditsTaken {
            unit,
            credits: c,
            taken,
            tokens: *t,
        });
    }

    /// "Whoever stuns the boss unit will earn +3 credits- remove the boss from play."
    pub fn beat_boss(&mut self, boss: UnitId, by: Option<Seat>, ev: &mut Vec<Event>) {
        self.now.units[boss as usize].gone = true;
        if let Some(s) = by {
            let t = &mut self.now.tokens[s as usize];
            *t = t.saturating_add(BOSS_CREDITS);
        }
        ev.push(Event::BossBeaten { boss, by });
    }

    /// EGG HUNT is over when every egg is open, every credit taken and the boss beaten.
    pub fn egg_hunt_over(&self) -> bool {
        let c = self.now.eggs.unwrap_or_default();
        c.total() == 0
            && !self
                .now
                .units
                .iter()
                .any(|x| (x.is_egg() || x.is_marker() || x.is_enemy()) && x.on_table())
    }
}

impl SdEra {
    /// EGG HUNT (SDE-EGG.1): 6 eggs a player and the boss's, evenly over the table at least
    /// 1 stick from every edge; what each holds is drawn when it breaks open.
    pub(crate) fn set_up_eggs(&mut self) -> Result<(), SetupError> {
        self.fixed
            .chart_kind(&self.fixed.setup.mission.boss, "mission.boss")?;
        let n = self.fixed.players as usize;
        if !self.place_evenly(&vec![Body::Egg; 6 * n + 1], STICK, true) {
            return Err(SetupError::new(
                "mission",
                "no room on the table for the eggs",
            ));
        }
        self.now.eggs = Some(crate::state::EggContents {
            units: ((1u16 << n) - 1) as u8,
            bombs: n as u8,
            candy: n as u8,
            credits: 3 * n as u8,
            boss: 1,
        });
        Ok(())
    }
}
