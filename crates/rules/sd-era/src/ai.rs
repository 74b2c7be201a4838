//! A heuristic value of a position for AIs that stop searching before the end: the
//! mission's score against the best opponent's, then units standing (not stunned, in the
//! ring), then closeness to the mission's objective.

use crate::data::{MissionKind, STICK};
use crate::state::SdEra;
use battlemat_core::Seat;

impl SdEra {
    pub fn heuristic(&self, seat: Seat) -> f64 {
        let n = self.fixed.players as usize;
        let scores: Vec<f64> = (0..n).map(|s| self.standing(s as Seat)).collect();
        let mine = scores[seat as usize];
        let best_other = (0..n)
            .filter(|&s| s != seat as usize)
            .map(|s| scores[s])
            .fold(f64::MIN, f64::max);
        ((mine - best_other) / 4.0).tanh()
    }

    /// How well a seat stands, in rough "tokens".
    fn standing(&self, seat: Seat) -> f64 {
        let tokens = f64::from(self.now.tokens[seat as usize]);
        let mut v = match self.fixed.kind {
            MissionKind::RingBattle => 0.0,
            _ => tokens,
        };
        // SAFARI: an animal carried is most of the way to points, more so near an edge; a
        // stunned one beside a unit is a start.
        if self.fixed.kind == MissionKind::Safari {
            let t = &self.fixed.table;
            for a in self.ids() {
                let y = self.unit(a);
                if !y.is_animal() {
                    continue;
                }
                let value = f64::from(self.value(a));
                if let Some(c) = y.aboard
                    && self.unit(c).owner == Some(seat)
                {
                    let p = self.unit(c).at;
                    let edge = p.x.min(p.y).min(t.width - p.x).min(t.depth - p.y);
                    v += value * (0.6 - 0.05 * edge as f64 / STICK as f64);
                } else if y.stunned
                    && y.on_table()
                    && self
                        .ids()
                        .any(|u| self.unit(u).owner == Some(seat) && self.next_to(u, a))
                {
                    v += 0.2 * value;
                }
            }
        }
        let target = self.objective();
        for u in self.ids() {
            let x = self.unit(u);
            if x.owner != Some(seat) || !x.on_table() {
                continue;
            }
            match self.fixed.kind {
                MissionKind::RingBattle => {
                    if !x.outside {
                        v += 1.0 + 0.25 * f64::from(self.value(u));
                    }
                }
                _ => {
                    if !x.stunned {
                        v += 0.1;
                    }
                }
            }
            if let Some(t) = target {
                let d = battlemat_geom::table::distance_floor(x.at, t) as f64 / STICK as f64;
                v -= 0.03 * d;
            }
        }
        v
    }

    /// Where a unit wants to be: the hill, a ball, credits or an egg, by the ship, the open
    /// zone's enemies and blips, or nowhere in particular.
    fn objective(&self) -> Option<battlemat_geom::table::Point> {
        match self.fixed.kind {
            MissionKind::KingOfTheHill => Some(self.fixed.centre),
            MissionKind::Soccer => self
                .ids()
                .find(|&b| self.unit(b).is_ball())
                .map(|b| self.unit(b).at),
            // EGG HUNT: credits to pick up, else an egg to break.
            MissionKind::EggHunt => self
                .ids()
                .filter(|&b| {
                    let y = self.unit(b);
                    (y.is_marker() || y.is_egg()) && y.on_table()
                })
                .min_by_key(|&b| !self.unit(b).is_marker())
                .map(|b| self.unit(b).at),
            // CONVOY: by the ship, to screen it.
            MissionKind::Convoy => self.now.convoy.as_ref().map(|c| self.unit(c.ship).at),
            // BATTLE ZONES: the open zone's enemies, targets and blips.
            MissionKind::BattleZones => {
                let open = self.open_zone();
                self.ids()
                    .filter(|&b| {
                        let y = self.unit(b);
                        y.on_table()
                            && (y.is_enemy() || y.is_target() || y.is_blip())
                            && self.zone_of(y.at) == open
                    })
                    .min_by_key(|&b| !self.unit(b).is_enemy())
                    .map(|b| self.unit(b).at)
            }
            _ => None,
        }
    }
}
