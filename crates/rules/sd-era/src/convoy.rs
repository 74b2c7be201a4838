//! CONVOY's special rules (SDE-CONVOY.2): the enemy turn (the ship moves a stick; enemy
//! units drawn from the pool and placed behind the nearest unoccupied asteroid; each enemy,
//! closest to the ship first, moves and attacks by the text's targeting rule and its
//! letter's tactic), the ship defending with 4 dice and the captured-unit roll-off when it
//! is damaged, capture by stunning, and the players' roll-off for their order each round.
//!
//! The enemy units are enemy units of [`crate::enemies`]: the rules move them, every die is
//! a chance point, and the only decisions are the players' (how many enemies to draw, which
//! captured unit to give up). Each draw from the pool is one weighted chance point over the
//! kinds left — the pool is public (rulings.md: "drawn when revealed, from what is left").

use crate::data::{BASE_RADIUS, NEXT_TO, STICK, Special};
use crate::events::Event;
use crate::state::{Body, Choice, Pending, Phase, SdEra, Trail, UnitId};
use battlemat_core::{ChanceOutcome, Outcomes, Seat, SetupError};
use battlemat_geom::table::{Point, toward};

/// "M= If the target is within 2 sticks, move and melee instead".
const MELEE_REACH: i64 = 2 * STICK;

impl SdEra {
    fn ship(&self) -> Option<UnitId> {
        self.now.convoy.as_ref().map(|c| c.ship)
    }

    /// The enemy turn: the ship moves one stick forward, then the draws, then the enemies
    /// act (SDE-CONVOY.2, ENEMY TURN). Each enemy turn begins a round.
    pub fn start_convoy_enemy_turn(&mut self, ev: &mut Vec<Event>) {
        let Some(c) = self.now.convoy.clone() else {
            return;
        };
        if c.started
            && let Some(limit) = self.fixed.options.rounds.limit()
            && self.now.round >= limit
        {
            self.finish_by_score(format!("the {limit}-round limit (house rule)"), ev);
            return;
        }
        self.now.round = self.now.round.saturating_add(1);
        self.now.trail.clear();
        self.now.charge = None;
        for u in &mut self.now.units {
            u.actions = 0;
            u.fast_move = false;
        }
        self.move_ship(c.ship, ev);
        if self.check_victory(ev) {
            return;
        }
        // "The game ends if ... the pool of enemy units runs out": none left to draw.
        if c.pool_size() == 0 {
            self.finish_by_score("the enemy pool ran out".into(), ev);
            return;
        }
        self.next_drawer(0, ev);
    }

    /// "Move the ship one stick forward", toward the far end, every enemy turn.
    fn move_ship(&mut self, ship: UnitId, ev: &mut Vec<Event>) {
        let x = *self.unit(ship);
        let to = Point::new(x.at.x, x.at.y + STICK);
        ev.push(Event::ShipMoves { ship, to });
        self.now.trail.push(Trail::Move { from: x.at, to });
        // Its base reaching the far edge takes it off the table.
        if to.y + x.radius() >= self.fixed.table.depth {
            if let Some(c) = self.now.convoy.as_mut() {
                c.arrived = true;
            }
            self.now.units[ship as usize].gone = true;
            return;
        }
        self.now.units[ship as usize].at = to;
        // Bodies where it comes to rest are shoved aside to the nearest clear spot (no
        // knockback, no stun): nothing stops the ship (ours).
        let hull = self.unit(ship).base();
        let shoved: Vec<UnitId> = self
            .ids()
            .filter(|&u| u != ship && self.unit(u).solid() && self.unit(u).base().overlaps(&hull))
            .collect();
        for u in shoved {
            let from = self.unit(u).at;
            let spot = self.clear_spot_near(u, from);
            self.now.units[u as usize].at = spot;
            ev.push(Event::Moved {
                unit: u,
                from,
                to: spot,
            });
        }
    }

    /// The next player (from `from`) to draw: on the first enemy turn each draws one; after
    /// that each decides to draw none, one or two. Then the enemies act.
    pub fn next_drawer(&mut self, from: Seat, ev: &mut Vec<Event>) {
        let Some(c) = self.now.convoy.as_ref() else {
            return;
        };
        let (started, left) = (c.started, c.pool_size());
        if from < self.fixed.players && left > 0 {
            self.now.phase = if started {
                Phase::Choose(Choice::Draws { seat: from })
            } else {
                Phase::EnemyDraw {
                    seat: from,
                    left: 1,
                }
            };
            return;
        }
        if let Some(c) = self.now.convoy.as_mut() {
            c.started = true;
        }
        self.start_enemy_turn(ev);
    }

    /// The draw: each kind in the pool, weighted by how many of it are left.
    pub fn draw_outcomes(&self) -> Outcomes {
        let pool = self.now.convoy.as_ref().map_or(&[][..], |c| &c.pool[..]);
        Outcomes::Weighted(
            pool.iter()
                .enumerate()
                .filter(|(_, n)| **n > 0)
                .map(|(k, &n)| ChanceOutcome {
                    value: k as u32,
                    weight: u64::from(n),
                })
                .collect(),
        )
    }

    /// A drawn enemy of chart kind `kind` is placed "behind the nearest unoccupied asteroid".
    pub fn draw_enemy(&mut self, seat: Seat, left: u8, kind: u32, ev: &mut Vec<Event>) {
        let Some(c) = self.now.convoy.as_mut() else {
            return;
        };
        let k = kind as usize;
        if k < c.pool.len() && c.pool[k] > 0 {
            c.pool[k] -= 1;
            let spot = self.behind_asteroid();
            // A unit given back to the pool is the same body drawn again (the unit list
            // stays as long as the pool).
            let back = self.ids().find(|&b| {
                let x = self.unit(b);
                x.gone && x.is_enemy() && x.kind() == Some(k as u16)
            });
            let id = match back {
                Some(b) => {
                    let x = &mut self.now.units[b as usize];
                    *x = crate::setup::new_unit(Body::Unit { kind: k as u16 }, None, spot);
                    let spot = self.clear_spot_near(b, spot);
                    let x = &mut self.now.units[b as usize];
                    x.at = spot;
                    x.home = spot;
                    b
                }
                None => self.add_body(Body::Unit { kind: k as u16 }, None, spot),
            };
            self.now.units[id as usize].fresh = true;
            ev.push(Event::EnemyArrives {
                unit: id,
                by: Some(seat),
            });
        }
        let more = self.now.convoy.as_ref().is_some_and(|c| c.pool_size() > 0);
        if left > 1 && more {
            self.now.phase = Phase::EnemyDraw {
                seat,
                left: left - 1,
            };
        } else {
            self.next_drawer(seat + 1, ev);
        }
    }

    /// Behind the asteroid nearest the ship that has no unit within half a stick of it
    /// (else the nearest of all): on its far side from the ship, clear of it. Ties: the
    /// first piece in the mission's list.
    fn behind_asteroid(&self) -> Point {
        let ship = self.ship().map_or(self.fixed.centre, |s| self.unit(s).at);
        let t = &self.fixed.table;
        let near = |i: usize| {
            let c = crate::movement::piece_centre(&t.pieces[i].outline);
            crate::combat::len2(c.x - ship.x, c.y - ship.y)
        };
        let occupied = |i: usize| {
            let o = &t.pieces[i].outline;
            self.now.units.iter().any(|u| {
                u.is_unit()
                    && u.on_table()
                    && o.overlaps(&battlemat_geom::table::Base::new(
                        u.at,
                        u.radius() + STICK / 2,
                    ))
            })
        };
        let pieces = 0..t.pieces.len();
        let pick = pieces
            .clone()
            .filter(|&i| !occupied(i))
            .min_by_key(|&i| (near(i), i))
            .or_else(|| pieces.min_by_key(|&i| (near(i), i)));
        let Some(i) = pick else {
            return self.fixed.centre;
        };
        let o = &t.pieces[i].outline;
        let c = crate::movement::piece_centre(o);
        let (x0, y0, x1, y1) = o.bounds();
        let reach = (x1 - x0).max(y1 - y0) / 2 + BASE_RADIUS + NEXT_TO;
        if c == ship {
            return Point::new(c.x, c.y + reach);
        }
        toward(c, Point::new(2 * c.x - ship.x, 2 * c.y - ship.y), reach)
    }

    /// CONVOY: how an enemy acts on its turn (SDE-CONVOY.2): its target, then its letter's
    /// tactic. Whether a fight began.
    pub fn convoy_enemy_act(&mut self, e: UnitId, ev: &mut Vec<Event>) -> bool {
        let Some(ship) = self.ship() else {
            return false;
        };
        if !self.unit(ship).on_table() {
            return false;
        }
        let special = self.special(e);
        // "H= as normal, but they get +1 die on their first turn's attack."
        let bonus = u8::from(special == Some(Special::H) && self.unit(e).fresh);
        self.now.units[e as usize].fresh = false;
        let target = match special {
            // "A= Always target the ship"
            Some(Special::A) => ship,
            _ => self.convoy_target(e, ship),
        };
        let gap = |g: &SdEra| {
            let (x, y) = (g.unit(e).base(), g.unit(target).base());
            battlemat_geom::table::distance_floor(x.centre, y.centre) - x.radius - y.radius
        };
        match special {
            // "only move enough to get a clear shot": no move if it has one.
            Some(Special::A) => {
                let at = self.unit(e).at;
                let total = self.attack_dice(e, false);
                if self.aim_dice(e, at, BASE_RADIUS, target, total).is_err() {
                    self.enemy_step(e, target, STICK, None, ev);
                }
            }
            // "M= If the target is within 2 sticks, move and melee instead".
            Some(Special::M) if gap(self) <= MELEE_REACH => {
                self.enemy_step(e, target, MELEE_REACH, None, ev);
            }
            _ => self.enemy_step(e, target, STICK, None, ev),
        }
        // "F= After attacking, try to move out of range or view of player units."
        let fast = special == Some(Special::F);
        if fast {
            self.now.pending.push(Pending::Retreat { unit: e });
        }
        if self.enemy_strike(e, target, bonus, false, ev) {
            return true;
        }
        // No attack, so no move away after it.
        if fast {
            self.now.pending.pop();
        }
        false
    }

    /// "If moving towards a player unit will bring them closer to the ship, they will target
    /// the unit. Otherwise, they will target the ship." The player unit is the nearest one
    /// the enemy may attack (not stunned, not hidden; ties: the lowest id).
    fn convoy_target(&self, e: UnitId, ship: UnitId) -> UnitId {
        let Some(u) = self.enemy_target(e, i64::MAX / 4) else {
            return ship;
        };
        let (me, it, s) = (self.unit(e).at, self.unit(u).at, self.unit(ship).at);
        let step = toward(
            me,
            it,
            STICK.min(battlemat_geom::table::distance_floor(me, it)),
        );
        let d = |p: Point| crate::combat::len2(p.x - s.x, p.y - s.y);
        if d(step) < d(me) { u } else { ship }
    }

    /// FAST enemy: one stick directly away from the nearest player unit.
    pub fn retreat(&mut self, e: UnitId) {
        let x = *self.unit(e);
        if !x.on_table() || x.stunned {
            return;
        }
        let Some(u) = self.enemy_target(e, i64::MAX / 4) else {
            return;
        };
        let them = self.unit(u).at;
        let to = toward(x.at, them, -STICK);
        let others = self.bases_except(&[e]);
        let sweep = self.fixed.table.sweep(x.base(), to, &others, &[]);
        if sweep.stop != x.at {
            self.now.units[e as usize].at = sweep.stop;
            self.now.trail.push(Trail::Move {
                from: x.at,
                to: sweep.stop,
            });
        }
    }

    /// "To CAPTURE an enemy unit, players must stun them": the player whose attack stunned
    /// it takes it off the table and scores its value.
    pub fn capture_enemy(&mut self, u: UnitId, seat: Seat, ev: &mut Vec<Event>) {
        let points = self.points(u);
        let x = &mut self.now.units[u as usize];
        x.captured = Some(seat);
        x.stunned = false;
        let t = &mut self.now.tokens[seat as usize];
        *t = t.saturating_add(points);
        ev.push(Event::EnemyCaptured {
            seat,
            unit: u,
            points,
        });
    }

    /// A captured unit's points: what it costs (SDE-T2: its value, CHEAP one less), as the
    /// players' own four points are counted.
    pub fn points(&self, u: UnitId) -> u8 {
        self.unit_type(u).map_or(0, |t| t.cost())
    }

    /// How many enemy units `seat` holds.
    pub fn captives(&self, seat: Seat) -> u8 {
        self.now
            .units
            .iter()
            .filter(|u| u.captured == Some(seat) && u.is_unit())
            .count() as u8
    }

    /// "If the ship is DAMAGED, it won't take knockback- instead, players must roll one die
    /// for each enemy unit they have captured." Whether a roll-off began.
    pub fn damage_ship(&mut self, ev: &mut Vec<Event>) -> bool {
        ev.push(Event::ShipDamaged);
        self.next_capture_roller(0, [0; 6])
    }

    fn next_capture_roller(&mut self, from: Seat, scores: [u8; 6]) -> bool {
        match (from..self.fixed.players).find(|&s| self.captives(s) > 0) {
            Some(seat) => {
                self.now.phase = Phase::CaptureRoll {
                    seat,
                    left: self.captives(seat),
                    scores,
                };
                true
            }
            None => false,
        }
    }

    /// One die of the captured-unit roll-off. "Whoever has the highest roll must GIVE UP one
    /// of their captured units ... If the players with the highest rolls TIE, than no one has
    /// to give up a unit." A roll is a player's highest die.
    pub fn roll_capture(
        &mut self,
        seat: Seat,
        left: u8,
        mut scores: [u8; 6],
        face: u8,
        ev: &mut Vec<Event>,
    ) {
        let s = &mut scores[seat as usize];
        *s = (*s).max(face);
        if left > 1 {
            self.now.phase = Phase::CaptureRoll {
                seat,
                left: left - 1,
                scores,
            };
            return;
        }
        if self.next_capture_roller(seat + 1, scores) {
            return;
        }
        let best = scores.iter().copied().max().unwrap_or(0);
        let top: Vec<Seat> = (0..self.fixed.players)
            .filter(|&s| scores[s as usize] == best && best > 0)
            .collect();
        if let [loser] = top[..] {
            self.now.phase = Phase::Choose(Choice::GiveUp { seat: loser });
            return;
        }
        self.settle(ev);
    }

    /// A captured unit goes back to the pool.
    pub fn give_up(&mut self, seat: Seat, u: UnitId, ev: &mut Vec<Event>) {
        let points = self.points(u);
        let kind = self.unit(u).kind();
        let x = &mut self.now.units[u as usize];
        x.captured = None;
        x.gone = true;
        let t = &mut self.now.tokens[seat as usize];
        *t = t.saturating_sub(points);
        if let (Some(c), Some(k)) = (self.now.convoy.as_mut(), kind)
            && let Some(n) = c.pool.get_mut(k as usize)
        {
            *n = n.saturating_add(1);
        }
        ev.push(Event::GaveUp { seat, unit: u });
        self.settle(ev);
    }

    /// The players' roll-off for their order: "roll dice for your most powerful unit.
    /// Players complete their turns in turn order from highest roll to lowest."
    pub fn start_order_roll(&mut self) {
        self.now.phase = Phase::OrderRoll {
            seat: 0,
            left: self.best_value(0),
            scores: [0; 6],
        };
    }

    /// One die of the order roll-off; a roll is a player's highest die (or total, with
    /// `contest = sum`); equal rolls keep seat order (ours).
    pub fn roll_order(
        &mut self,
        seat: Seat,
        left: u8,
        mut scores: [u8; 6],
        face: u8,
        ev: &mut Vec<Event>,
    ) {
        self.add_to_roll(&mut scores[seat as usize], face);
        if left > 1 {
            self.now.phase = Phase::OrderRoll {
                seat,
                left: left - 1,
                scores,
            };
            return;
        }
        if seat + 1 < self.fixed.players {
            self.now.phase = Phase::OrderRoll {
                seat: seat + 1,
                left: self.best_value(seat + 1),
                scores,
            };
            return;
        }
        let mut order: Vec<Seat> = (0..self.fixed.players).collect();
        order.sort_by_key(|&s| (std::cmp::Reverse(scores[s as usize]), s));
        ev.push(Event::PlayerOrder {
            order: order.clone(),
        });
        let first = order[0];
        if let Some(c) = self.now.convoy.as_mut() {
            c.order = order;
        }
        self.now.first = first;
        self.begin_turn(first, ev);
    }

    /// After a player's turn: the next in this round's order, or the enemy turn.
    pub fn convoy_next_turn(&mut self, ev: &mut Vec<Event>) {
        let order = self
            .now
            .convoy
            .as_ref()
            .map(|c| c.order.clone())
            .unwrap_or_default();
        let i = order.iter().position(|&s| s == self.now.active);
        match i.and_then(|i| order.get(i + 1)) {
            Some(&next) => self.begin_turn(next, ev),
            None => self.start_convoy_enemy_turn(ev),
        }
    }
}

impl SdEra {
    /// CONVOY (SDE-CONVOY.1): the ship at the near end, pointing to the far end, and the
    /// enemy pool (anything but transports).
    pub(crate) fn set_up_convoy(&mut self) -> Result<(), SetupError> {
        let m = &self.fixed.setup.mission;
        if m.enemies.is_empty() || m.enemies.len() > 100 {
            return Err(SetupError::new(
                "mission.enemies",
                "a convoy needs a pool of 1 to 100 enemy units",
            ));
        }
        let mut pool = vec![0u8; self.fixed.chart.len()];
        for (i, key) in m.enemies.iter().enumerate() {
            let k = self
                .fixed
                .chart_kind(key, &format!("mission.enemies[{i}]"))?;
            if self.fixed.chart[k as usize].1.is(Special::T) {
                return Err(SetupError::new(
                    format!("mission.enemies[{i}]"),
                    "enemies are anything but transports",
                ));
            }
            pool[k as usize] = pool[k as usize].saturating_add(1);
        }
        let at = Point::new(self.fixed.table.width / 2, STICK);
        let ship = self.add_body(Body::Ship, None, at);
        if self.unit(ship).at != at {
            return Err(SetupError::new(
                "mission",
                "the ship's place (the middle of the near end, 1 stick in) must be clear",
            ));
        }
        self.now.convoy = Some(crate::state::Convoy {
            pool,
            order: Vec::new(),
            ship,
            started: false,
            arrived: false,
        });
        Ok(())
    }
}
