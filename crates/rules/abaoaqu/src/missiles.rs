//! ABQ-15-1 … 15-3 (large missiles: double-sided counters that flip after firing),
//! ABQ-16-1 … 16-5 (satellite missiles) and ABQ-18-1 … 18-6 (beam-disruption screens).

use crate::data::{Flag, Weapon};
use crate::events::Event;
use crate::options::LeadOffScreen;
use crate::state::{AbaoAqu, Attack, Declaring, Phase, Place, Screen, Stage, UnitId};
use battlemat_core::Seat;
use battlemat_geom::hexmap::HexId;

/// ABQ-18-3: "The deployment range of the BD missiles is ten hexagons."
pub const SCREEN_RANGE: u32 = 10;

impl AbaoAqu {
    /// ABQ-15-3: after firing with its front, a double-sided counter shows its back for the
    /// rest of the game.
    pub fn flip_if_front(&mut self, u: UnitId, ev: &mut Vec<Event>) {
        if self.on_front(u) {
            self.unit_mut(u).flipped = true;
            ev.push(Event::Flipped { unit: u });
        }
    }

    /// ABQ-18-2, 18-3: a Public with BD missiles still on its front, steady, not yet fired.
    pub fn can_launch(&self, u: UnitId) -> bool {
        let x = self.unit(u);
        matches!(x.at, Place::Hex(_)) && !x.fired && self.steady(u) && self.weapon(u) == Weapon::Bd
    }

    /// The hexes a Public's screen may be aimed at: within ten hexes.
    pub fn launch_hexes(&self, u: UnitId, out: &mut Vec<HexId>) {
        if let Some(h) = self.unit(u).hex() {
            self.fixed.layout.map.within(h, SCREEN_RANGE, out);
        }
    }

    /// Fire the BD missiles at `hex`: the Public flips whether they hit or not (18-3).
    pub fn launch(&mut self, seat: Seat, u: UnitId, hex: HexId, ev: &mut Vec<Event>) {
        self.unit_mut(u).fired = true;
        self.flip_if_front(u, ev);
        self.now.phase = Phase::Screen { unit: u, hex, seat };
    }

    /// ABQ-18-3: "If the result is less than 5, the hex has been successfully hit."
    pub fn roll_screen(&mut self, hex: HexId, seat: Seat, face: u8, ev: &mut Vec<Event>) {
        let h = self.hex_no(hex);
        if face < 5 {
            // ABQ-3-3, our `lead_off_screen` option: a lead-off screen may wait for the
            // end of the battle it was fired in.
            let after_battle = self.now.stage == Stage::LeadCombat
                && self.fixed.setup.options.lead_off_screen == LeadOffScreen::AfterBattle;
            self.now.screens.push(Screen {
                hex,
                placed: self.now.turn,
                after_battle,
            });
            ev.push(Event::ScreenPlaced { hex: h, die: face });
        } else {
            ev.push(Event::ScreenMissed { hex: h, die: face });
        }
        self.now.phase = Phase::Combat {
            seat,
            declaring: Declaring::Idle,
        };
    }

    /// ABQ-16-3: a satellite missile strikes only a hex holding an enemy.
    pub fn can_detonate(&self, u: UnitId) -> bool {
        let x = self.unit(u);
        self.has(u, Flag::Satellite)
            && self.steady(u)
            && x.hex()
                .is_some_and(|h| self.in_hex(h).any(|v| self.unit(v).side != x.side))
    }

    /// ABQ-16-4, 16-5: the missile strikes every unit in its hex, friend or enemy — 10
    /// against MS units, 20 against ships (its own anti-MS and anti-ship values), against
    /// each one's defence, on the close combat table — and is gone (16-2).
    pub fn detonate(&mut self, seat: Seat, u: UnitId, ev: &mut Vec<Event>) {
        if self.unit(u).hex().is_none() {
            return;
        }
        let attacks: Vec<Attack> = self
            .blast(u)
            .into_iter()
            .filter(|a| a.column.is_some())
            .collect();
        self.unit_mut(u).at = Place::Gone;
        ev.push(Event::Detonated { unit: u });
        for a in &attacks {
            ev.push(Event::Declared {
                attackers: a.attackers.clone(),
                targets: a.targets.clone(),
                close: true,
                column: a
                    .column
                    .map(|c| crate::combat::COLUMNS[c as usize].to_string()),
            });
        }
        self.now.phase = Phase::Combat {
            seat,
            declaring: Declaring::Idle,
        };
        if attacks.is_empty() {
            self.check_destroyed(ev);
            return;
        }
        if self.now.stage == Stage::LeadCombat {
            self.now.pending.extend(attacks);
        } else {
            self.now.phase = Phase::Resolve { attacks, seat };
        }
        self.check_destroyed(ev);
    }

    /// The attacks a satellite missile in its hex would make: one on each other unit there
    /// (ABQ-16-4, 16-5), each with its column (None: worse than 1:3, no effect).
    pub fn blast(&self, u: UnitId) -> Vec<Attack> {
        let Some(h) = self.unit(u).hex() else {
            return Vec::new();
        };
        self.in_hex(h)
            .filter(|&v| v != u)
            .map(|t| {
                let a = if self.target_is_ship(t) {
                    self.anti_ship(u)
                } else {
                    self.anti_ms(u)
                } as u32;
                let shift = -self.rank_of(&[t], false);
                Attack {
                    attackers: vec![u],
                    targets: vec![t],
                    close: true,
                    column: crate::combat::final_column(a, self.defence(t) as u32, shift),
                }
            })
            .collect()
    }

    /// ABQ-16-2: at the end of its side's combat phase, a satellite missile that has moved
    /// is gone, whether it struck or not.
    pub fn spend_satellites(&mut self, side: u8, ev: &mut Vec<Event>) {
        for u in self.ids() {
            let x = self.unit(u);
            if x.side == side && x.used && x.alive() && self.has(u, Flag::Satellite) {
                self.unit_mut(u).at = Place::Gone;
                ev.push(Event::Spent { unit: u });
            }
        }
        self.check_destroyed(ev);
    }
}
