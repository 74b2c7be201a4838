//! SDE-MOVE, SDE-CHARGE, SDE-T (transports), SDE-F (the free move's legality is the same
//! move): where a unit may go and what a move does.
//!
//! "Move 1 STICK in any direction. May not move through terrain, but mobile suits may jump
//! over terrain, and may land on top of terrain." Our reading (docs/rules/sd-era.md): a
//! move's centre travels at most 1 stick in a straight line, and since a mobile suit may
//! jump over anything in its way, only where it lands matters: on open ground clear of
//! terrain and other bases, or wholly on top of a piece that holds units and has room.

use crate::data::{BASE_RADIUS, MissionKind, NEXT_TO, STICK, Special};
use crate::events::{Drop, Event, Target};
use crate::legal::Why;
use crate::options::{Jump, PastEnemies};
use crate::state::{Phase, SdEra, Trail, UnitId};
use battlemat_geom::table::{Base, Hit, Landing, Point};

mod candidates;
pub use candidates::Scratch;

/// A move the judge accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MovePlan {
    pub unit: UnitId,
    pub to: Point,
    pub load: Vec<UnitId>,
    pub drop: Vec<Drop>,
    /// FAST's free move (SDE-F), not an action.
    pub free: bool,
}

impl SdEra {
    /// May `unit` act now (its player's turn, on the table, not stunned), and is this the
    /// end-of-turn free move?
    pub fn may_move(&self, unit: UnitId) -> Result<bool, Why> {
        let x = self.unit(unit);
        if x.owner != Some(self.now.active) || !x.is_unit() {
            return Err(Why::new("SDE-T1", "that is not one of your units"));
        }
        if !x.on_table() {
            return Err(Why::new(
                "SDE-T",
                "it is aboard a transport: drop it off first",
            ));
        }
        if x.stunned {
            return Err(Why::new(
                "SDE-RECOVER",
                "it is stunned: it must recover first",
            ));
        }
        match self.now.phase {
            Phase::FastMoves if x.fast_move => Ok(true),
            Phase::FastMoves => Err(Why::new(
                "SDE-F",
                "at the end of the turn only FAST units move, once each",
            )),
            _ if x.actions == 0 => Err(Why::new("SDE-T1", "it has done its two actions")),
            _ => Ok(false),
        }
    }

    /// Judge a move (SDE-MOVE; SDE-T's loading and dropping; RING BATTLE's inside and
    /// outside).
    pub fn judge_move(
        &self,
        unit: UnitId,
        to: Target,
        load: &[UnitId],
        drop: &[Drop],
    ) -> Result<MovePlan, Why> {
        let free = self.may_move(unit)?;
        let x = self.unit(unit);
        let to = to.resolve(x.at);
        if to == x.at {
            return Err(Why::new("SDE-MOVE", "a move must go somewhere"));
        }
        let d2 = crate::combat::len2(to.x - x.at.x, to.y - x.at.y);
        if d2 > (STICK as i128) * (STICK as i128) {
            return Err(Why::new("SDE-MOVE", "a move is at most 1 stick"));
        }
        let t = &self.fixed.table;
        // SDE-ZONES.2: "NO ONE MAY LEAVE a zone until it has been cleared" (nor be dropped
        // beyond it); "To reveal a blip, you must touch it as part of your move. This ends
        // your move": a move may not pass through a blip.
        if self.fixed.kind == MissionKind::BattleZones {
            let open = self.open_zone();
            if self.zone_of(to) > open || drop.iter().any(|d| self.zone_of(d.at) > open) {
                return Err(Why::new(
                    "SDE-ZONES.2",
                    "no one may leave a zone until it has been cleared",
                ));
            }
            if self.passes_blip(x.at, to) {
                return Err(Why::new(
                    "SDE-ZONES.2",
                    "touching a blip ends the move: stop next to it",
                ));
            }
        }
        if self.fixed.kind == MissionKind::RingBattle && self.in_ring_zone(to) == x.outside {
            return Err(Why::new(
                "SDE-RING.2",
                "units in the ring stay in it (only knockback puts them out); units outside move around the outside",
            ));
        }
        // Loading: friendly units next to the transport before it moves.
        if (!load.is_empty() || !drop.is_empty()) && !self.has(unit, Special::T) {
            return Err(Why::new("SDE-T", "only a TRANSPORT carries units"));
        }
        let aboard = self
            .ids()
            .filter(|&u| self.unit(u).aboard == Some(unit))
            .count();
        if aboard + load.len() > self.value(unit) as usize {
            return Err(Why::new(
                "SDE-T",
                "a transport carries at most its value in units",
            ));
        }
        for (i, &l) in load.iter().enumerate() {
            let y = self.unit(l);
            if l == unit
                || load[..i].contains(&l)
                || y.owner != x.owner
                || !y.is_unit()
                || !y.on_table()
                || self.has(l, Special::T)
            {
                return Err(Why::new(
                    "SDE-T",
                    "a transport picks up friendly units (not transports)",
                ));
            }
            if !self.next_to(unit, l) {
                return Err(Why::new(
                    "SDE-T",
                    "a unit to pick up must be next to the transport",
                ));
            }
            if y.outside != x.outside {
                return Err(Why::new(
                    "SDE-RING.2",
                    "a transport carries no unit across the ring's edge",
                ));
            }
        }
        let mut except: Vec<UnitId> = vec![unit];
        except.extend_from_slice(load);
        let mut others = self.bases_except(&except);
        let me = Base::new(to, BASE_RADIUS);
        self.judge_path(unit, to)?;
        match t.landing(&me, &others) {
            Landing::OnTop(_) if !self.jumps(unit) => {
                return Err(Why::new(
                    "SDE-MOVE",
                    "only mobile suits may land on top of terrain (the jump=mobile_suits option)",
                ));
            }
            Landing::Ground | Landing::OnTop(_) => {}
            Landing::Blocked(_) => {
                return Err(Why::new(
                    "SDE-MOVE",
                    "it cannot end there: a unit must land clear of terrain and other units, or on top of terrain with room",
                ));
            }
        }
        self.judge_drops(unit, me, load, drop, &mut others)?;
        Ok(MovePlan {
            unit,
            to,
            load: load.to_vec(),
            drop: drop.to_vec(),
            free,
        })
    }

    /// May this unit jump over terrain (SDE-MOVE: "mobile suits may jump over terrain")?
    /// Every unit with `jump = all` (the default); only the chart's mobile suits with
    /// `mobile_suits`.
    pub fn jumps(&self, unit: UnitId) -> bool {
        self.fixed.options.jump == Jump::All || self.unit_type(unit).is_none_or(|t| t.mobile_suit)
    }

    /// The straight line of a move from where the unit stands to `to`, under the options
    /// (SDE-MOVE): a unit that does not jump (`jump = mobile_suits`) may not cross terrain
    /// ("May not move through terrain"; the piece it stands on does not stop it stepping
    /// off), and with `past_enemies = ring_only` no move crosses an enemy unit's base but in
    /// RING BATTLE (SDE-RING.2: "may move past enemy units"). With the defaults a move jumps
    /// everything in its way and only where it lands matters.
    fn judge_path(&self, unit: UnitId, to: Point) -> Result<(), Why> {
        let x = self.unit(unit);
        let me = Base::new(x.at, BASE_RADIUS);
        let t = &self.fixed.table;
        if !self.jumps(unit) {
            let on: Vec<usize> = self.standing_on(unit).into_iter().collect();
            // A contact at the very end (touching it) is no crossing.
            let sw = t.sweep(me, to, &[], &on);
            if matches!(sw.hit, Some(Hit::Piece(_))) && sw.stop != to {
                return Err(Why::new(
                    "SDE-MOVE",
                    "it may not move through terrain: only mobile suits jump over it (the jump=mobile_suits option)",
                ));
            }
        }
        if self.fixed.options.past_enemies == PastEnemies::RingOnly
            && self.fixed.kind != MissionKind::RingBattle
        {
            let enemies: Vec<Base> = self
                .ids()
                .filter(|&e| e != unit && self.unit(e).solid() && self.enemies(unit, e))
                .map(|e| self.unit(e).base())
                .collect();
            // Against the enemies' bases alone: terrain is the other rule's.
            let terrain: Vec<usize> = (0..t.pieces.len()).collect();
            let sw = t.sweep(me, to, &enemies, &terrain);
            if !enemies.is_empty() && matches!(sw.hit, Some(Hit::Base(_))) && sw.stop != to {
                return Err(Why::new(
                    "SDE-MOVE",
                    "it may not move past an enemy unit (the past_enemies=ring_only option): stop next to it, or go round",
                ));
            }
        }
        Ok(())
    }

    /// [`SdEra::judge_path`] and, for a unit that does not jump, no landing on top (the
    /// candidates' check under the `jump` and `past_enemies` options).
    fn line_ok(&self, unit: UnitId, to: Point) -> bool {
        self.judge_path(unit, to).is_ok()
            && (self.jumps(unit)
                || self
                    .fixed
                    .table
                    .piece_holding(&Base::new(to, BASE_RADIUS))
                    .is_none())
    }

    /// SDE-T: the units a transport at `me` drops off (after loading `load`): each one it
    /// carries, once, next to it, on its side of a ring, with room to land among `others`
    /// (every base on the table but the transport's and the loaded units'; the drops are
    /// added to it one by one, then taken off again).
    pub(crate) fn judge_drops(
        &self,
        unit: UnitId,
        me: Base,
        load: &[UnitId],
        drop: &[Drop],
        others: &mut Vec<Base>,
    ) -> Result<(), Why> {
        let outside = self.unit(unit).outside;
        let before = others.len();
        others.push(me);
        let judged = drop.iter().enumerate().try_for_each(|(i, d)| {
            let y = self.unit(d.unit);
            let carried = y.aboard == Some(unit) || load.contains(&d.unit);
            if !carried || drop[..i].iter().any(|e| e.unit == d.unit) {
                return Err(Why::new(
                    "SDE-T",
                    "a transport drops off only units it carries",
                ));
            }
            let b = Base::new(d.at, BASE_RADIUS);
            if self.fixed.kind == MissionKind::RingBattle && self.in_ring_zone(d.at) == outside {
                return Err(Why::new(
                    "SDE-RING.2",
                    "a transport carries no unit across the ring's edge",
                ));
            }
            if !b.within(&me, NEXT_TO) {
                return Err(Why::new(
                    "SDE-T",
                    "a unit is dropped off next to the transport",
                ));
            }
            if !matches!(
                self.fixed.table.landing(&b, others),
                Landing::Ground | Landing::OnTop(_)
            ) {
                return Err(Why::new("SDE-T", "there is no room to drop it off there"));
            }
            others.push(b);
            Ok(())
        });
        others.truncate(before);
        judged
    }

    /// Carry out a move; a move that ends next to an enemy may charge (SDE-CHARGE).
    pub fn do_move(&mut self, p: MovePlan, ev: &mut Vec<Event>) {
        let u = p.unit;
        let from = self.unit(u).at;
        for &l in &p.load {
            self.now.units[l as usize].aboard = Some(u);
            ev.push(Event::Loaded {
                transport: u,
                unit: l,
            });
        }
        let x = &mut self.now.units[u as usize];
        x.at = p.to;
        if p.free {
            x.fast_move = false;
        } else {
            x.actions -= 1;
        }
        self.now.trail.push(Trail::Move { from, to: p.to });
        ev.push(Event::Moved {
            unit: u,
            from,
            to: p.to,
        });
        let outside = self.unit(u).outside;
        for d in &p.drop {
            let y = &mut self.now.units[d.unit as usize];
            y.aboard = None;
            y.at = d.at;
            y.outside = outside;
            ev.push(Event::Dropped {
                transport: u,
                unit: d.unit,
                at: d.at,
            });
        }
        // SAFARI: a transport picks up the stunned animals it moves past; a carrier that
        // reaches a board edge captures what it carries.
        if self.fixed.kind == crate::data::MissionKind::Safari {
            if self.has(u, Special::T) {
                let reach = BASE_RADIUS * 2 + NEXT_TO;
                let passed: Vec<UnitId> = self
                    .ids()
                    .filter(|&a| {
                        let y = self.unit(a);
                        y.is_animal()
                            && y.stunned
                            && y.on_table()
                            && (battlemat_geom::table::Outline::Circle {
                                centre: y.at,
                                radius: reach,
                            }
                            .crossed_by(from, p.to)
                                || self.next_to(u, a))
                    })
                    .collect();
                for a in passed {
                    if self.may_carry_more(u) {
                        self.pick_up(u, a, ev);
                    }
                }
            }
            self.capture_at_edge(u, ev);
            self.check_victory(ev);
        }
        // KING OF THE HILL: units on the hill cannot be hidden (the mover, or a unit it drops).
        for v in std::iter::once(u).chain(p.drop.iter().map(|d| d.unit)) {
            if self.unit(v).hidden && self.on_hill(v) {
                self.now.units[v as usize].hidden = false;
                ev.push(Event::Unhidden { unit: v });
            }
        }
        self.now.charge = self.can_charge(u).then_some(u);
        if self.fixed.kind == MissionKind::BattleZones {
            let moved: Vec<UnitId> = std::iter::once(u)
                .chain(p.drop.iter().map(|d| d.unit))
                .collect();
            self.after_zone_move(&moved, ev);
        }
    }

    /// Does a unit that just moved stand next to something it may melee (SDE-CHARGE)?
    pub fn can_charge(&self, u: UnitId) -> bool {
        !self.has(u, Special::T)
            && self.ids().any(|t| {
                t != u
                    && self.attackable(t)
                    && (self.enemies(u, t)
                        || (self.fixed.options.charge_balls && self.unit(t).is_ball()))
                    && self.ring_allows(u, t)
                    && self.next_to(u, t)
            })
    }

    /// RING BATTLE: units outside may attack only units outside (SDE-RING.2).
    pub fn ring_allows(&self, attacker: UnitId, target: UnitId) -> bool {
        !self.unit(attacker).outside || self.unit(target).outside
    }
}

/// A point on top of a piece (a circle's centre, a polygon's corner average).
pub fn piece_centre(o: &battlemat_geom::table::Outline) -> Point {
    match o {
        battlemat_geom::table::Outline::Circle { centre, .. } => *centre,
        battlemat_geom::table::Outline::Polygon { corners } => {
            let n = corners.len().max(1) as i64;
            let sx: i64 = corners.iter().map(|c| c.x).sum();
            let sy: i64 = corners.iter().map(|c| c.y).sum();
            Point::new(sx / n, sy / n)
        }
    }
}
