//! SDE-MOVE, SDE-CHARGE, SDE-T (transports), SDE-F (the free move's legality is the same
//! move): where a unit may go and what a move does.
//!
//! "Move 1 STICK in any direction. May not move through terrain, but mobile suits may jump
//! over terrain, and may land on top of terrain." Our reading (docs/rules/sd-era.md): a
//! move's centre travels at most 1 stick in a straight line, and since a mobile suit may
//! jump over anything in its way, only where it lands matters: on open ground clear of
//! terrain and other bases, or wholly on top of a piece that holds units and has room.

use crate::data::{BASE_RADIUS, MissionKind, NEXT_TO, STICK, Special};
use crate::events::{Drop, Event, Target, WIND_VECTORS};
use crate::legal::Why;
use crate::options::{Jump, PastEnemies};
use crate::state::{Body, Phase, SdEra, Trail, UnitId};
use battlemat_geom::table::{Base, Hit, Landing, Point, Ticks, toward};

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

    /// The candidate points from the table around `u` (SDE-MOVE, SDE-CHARGE): the winds, and
    /// beside each enemy, ball, animal or mission body within reach (behind a ball, to kick
    /// it the other way); with the bodies and pieces a base within a stick could touch kept
    /// in `scratch` for the landing checks. The nearest enemy, for cover.
    fn contact_points(
        &self,
        u: UnitId,
        x: &crate::state::Unit,
        scratch: &mut Scratch,
    ) -> Option<(i128, Point)> {
        let Scratch {
            bodies,
            points,
            others,
            near,
            full_ring,
            half_ring,
            lists: _,
        } = scratch;
        let bounds = &self.fixed.piece_bounds;
        points.clear();
        for (dx, dy) in wind_offsets() {
            points.push(Point::new(x.at.x + dx, x.at.y + dy));
        }
        // Only what a base within a stick of here could touch (and whoever stands on a
        // piece it could land on, who take its room).
        // (A candidate base is within a stick of here: it can overlap only a body within a
        // stick, its own radius and the body's.)
        let reach = STICK + BASE_RADIUS + 1;
        near.clear();
        near.extend(
            bounds
                .iter()
                .enumerate()
                .filter(|&(_, &(x0, y0, x1, y1))| {
                    x.at.x + reach > x0
                        && x.at.x - reach < x1
                        && x.at.y + reach > y0
                        && x.at.y - reach < y1
                })
                .map(|(i, b)| (i, *b)),
        );
        // One pass over the bodies: those a base within a stick of here could touch (and
        // whoever stands on a piece it could land on, who take its room) are `others`; enemies,
        // balls and the missions' things within reach give contact points.
        others.clear();
        // Of those, the ones that could overlap a base on a wind point: a full stick's
        // (`full_ring`) or half a stick's (`half_ring`) point lies that far from here (to 2
        // ticks), so only a body in the band around that circle can overlap it.
        full_ring.clear();
        half_ring.clear();
        let band = |d2: i128, at: Ticks, r: Ticks| {
            let lo = (at - r - 4).max(0) as i128;
            let hi = (at + r) as i128;
            lo * lo <= d2 && d2 <= hi * hi
        };
        // The winds' points are distinct; the rest are kept only if new.
        let mut nearest: Option<(i128, Point)> = None;
        for &(t, b) in bodies.iter() {
            if t == u {
                continue;
            }
            let y = self.unit(t);
            let d2 = crate::combat::len2(b.centre.x - x.at.x, b.centre.y - x.at.y);
            if !y.is_marker() {
                let r = (reach + b.radius) as i128;
                if d2 < r * r
                    || (self.fixed.any_holds
                        && near.iter().any(|&(i, _)| {
                            self.fixed.table.pieces[i].holds > 0
                                && self.fixed.table.pieces[i].outline.holds(&b)
                        }))
                {
                    others.push(b);
                    let r = BASE_RADIUS + b.radius;
                    if band(d2, STICK, r) {
                        full_ring.push(b);
                    }
                    if band(d2, STICK / 2, r) {
                        half_ring.push(b);
                    }
                }
            }
            // Beside enemies, balls, animals, and the missions' things to touch or attack.
            let enemy = match y.body {
                Body::Unit { .. } => {
                    if !self.enemies(u, t) {
                        continue;
                    }
                    true
                }
                Body::Ship | Body::Rock => continue,
                _ => false,
            };
            if enemy && nearest.is_none_or(|(n, _)| d2 < n) {
                nearest = Some((d2, b.centre));
            }
            let gap = x.radius() + b.radius + NEXT_TO / 2;
            let contact = (STICK + 2 * gap) as i128;
            // Contact with a stunned unit leads nowhere (it cannot be attacked); with a
            // stunned animal it does (to pick it up).
            if d2 > contact * contact || (enemy && y.stunned) {
                continue;
            }
            // Beside it; and behind a ball, to kick it the other way.
            let beside = roughly_toward(b.centre, x.at, gap);
            if is_new(points, x.at, beside) {
                points.push(beside);
            }
            if y.is_ball() {
                let behind = roughly_toward(b.centre, x.at, -gap);
                if is_new(points, x.at, behind) {
                    points.push(behind);
                }
            }
        }
        nearest
    }

    /// Onto each piece that holds units; behind each piece that blocks sight, out of the
    /// nearest enemy's line (SDE-SIGHT's cover).
    fn cover_points(&self, at: Point, nearest: Option<(i128, Point)>, points: &mut Vec<Point>) {
        let x_at = at;
        // Onto each piece that holds units; behind each piece that blocks sight, out of the
        // nearest enemy's line.
        let t = &self.fixed.table;
        let (bounds, centres) = (&self.fixed.piece_bounds, &self.fixed.piece_centres);
        for ((p, &(x0, y0, x1, y1)), &c) in t.pieces.iter().zip(bounds.iter()).zip(centres.iter()) {
            if p.holds > 0 && is_new(points, x_at, c) {
                points.push(c);
            }
            let within = |v: i64, lo: i64, hi: i64| v + STICK > lo && v - STICK < hi;
            if p.blocks_sight
                && within(x_at.x, x0, x1)
                && within(x_at.y, y0, y1)
                && let Some((_, e)) = nearest
            {
                // Past the piece's far side from the enemy, the offset scaled by its larger
                // axis (a candidate need not be at an exact distance, so no square root).
                let (dx, dy) = (c.x - e.x, c.y - e.y);
                let big = dx.abs().max(dy.abs());
                if big > 0 {
                    let reach = ((x1 - x0).max(y1 - y0) + 1) / 2 + BASE_RADIUS + NEXT_TO / 2;
                    let behind = Point::new(c.x + dx * reach / big, c.y + dy * reach / big);
                    if is_new(points, x_at, behind) {
                        points.push(behind);
                    }
                }
            }
        }
    }

    /// SDE-T: a transport's passengers, and what it may pick up — friendly units, not
    /// transports, next to it and on its side of a ring, as many as it has room for.
    fn transport_cargo(
        &self,
        u: UnitId,
        x: &crate::state::Unit,
        transport: bool,
    ) -> (Vec<UnitId>, Vec<UnitId>) {
        let passengers: Vec<UnitId> = if transport {
            self.ids()
                .filter(|&l| self.unit(l).aboard == Some(u))
                .collect()
        } else {
            Vec::new()
        };
        // What it may pick up (SDE-T): friendly units, not transports, next to it and on its
        // side of a ring, as many as it has room for. Loading them only takes bodies out of
        // the way, so wherever the plain move lands, the move with them lands too: the judge
        // would pass it (checked in debug builds).
        let load: Vec<UnitId> = if transport {
            self.ids()
                .filter(|&l| {
                    let y = self.unit(l);
                    l != u
                        && y.owner == x.owner
                        && y.is_unit()
                        && y.on_table()
                        && y.outside == x.outside
                        && !self.has(l, Special::T)
                        && self.next_to(u, l)
                })
                .take((self.value(u) as usize).saturating_sub(passengers.len()))
                .collect()
        } else {
            Vec::new()
        };
        (passengers, load)
    }

    /// SDE-T: a transport's candidate move to `to` (the `k`th point), and along the eight
    /// main winds the same move loading the units next to it, and dropping its passengers
    /// behind it side by side.
    #[allow(clippy::too_many_arguments)]
    fn transport_moves(
        &self,
        u: UnitId,
        from: Point,
        to: Point,
        k: usize,
        load: &[UnitId],
        passengers: &[UnitId],
        all_but_it: &mut Vec<Base>,
        out: &mut Vec<crate::events::Action>,
    ) {
        out.push(crate::events::Action::Move {
            unit: u,
            to: Target::Point(to),
            cargo: None,
        });
        // A transport loads or drops along the eight main winds only (a short menu).
        let main_wind = k < 16 && k.is_multiple_of(2);
        if main_wind && !load.is_empty() {
            debug_assert!(self.judge_move(u, Target::Point(to), load, &[]).is_ok());
            out.push(crate::events::Action::Move {
                unit: u,
                to: Target::Point(to),
                cargo: crate::events::Cargo::new(load.to_vec(), Vec::new()),
            });
        }
        if main_wind && !passengers.is_empty() {
            // Drop them behind the transport, side by side.
            let mut drop = Vec::new();
            for (k, &l) in passengers.iter().enumerate() {
                let back = toward(to, from, 2 * BASE_RADIUS + NEXT_TO / 2);
                let across = Point::new(back.x - (to.y - from.y), back.y + (to.x - from.x));
                let side = [0i64, 1, -1][k.min(2)] * (2 * BASE_RADIUS + 20);
                let at = if side == 0 {
                    back
                } else {
                    toward(back, across, side)
                };
                drop.push(Drop { unit: l, at });
            }
            // The move itself lands (it fits); what is left of the judge is the drops.
            let dropped = self.judge_drops(u, Base::new(to, BASE_RADIUS), &[], &drop, all_but_it);
            debug_assert_eq!(
                dropped.is_ok(),
                self.judge_move(u, Target::Point(to), &[], &drop).is_ok()
            );
            if dropped.is_ok() {
                out.push(crate::events::Action::Move {
                    unit: u,
                    to: Target::Point(to),
                    cargo: crate::events::Cargo::new(Vec::new(), drop),
                });
            }
        }
    }

    /// Candidate moves for menus and AIs: the sixteen winds at full length and the eight main
    /// ones at half length, into contact with each enemy and ball, onto each piece that
    /// holds units, behind cover from the nearest enemy; a transport also loads the units
    /// next to it, and drops its passengers. Each one passes the judge.
    pub fn move_candidates(&self, u: UnitId, out: &mut Vec<crate::events::Action>) {
        let mut scratch = Scratch::of(self);
        self.move_candidates_with(u, out, &mut scratch);
        scratch.recycle();
    }

    /// [`SdEra::move_candidates`] with the table's bodies and pieces read once for every
    /// unit of a turn (`scratch`).
    pub fn move_candidates_with(
        &self,
        u: UnitId,
        out: &mut Vec<crate::events::Action>,
        scratch: &mut Scratch,
    ) {
        let x = *self.unit(u);
        let nearest = self.contact_points(u, &x, scratch);
        self.cover_points(x.at, nearest, &mut scratch.points);
        let Scratch {
            bodies,
            points,
            others,
            near,
            full_ring,
            half_ring,
            lists: _,
        } = scratch;
        let t = &self.fixed.table;
        let ring = self.fixed.kind == MissionKind::RingBattle;
        // BATTLE ZONES: not past the first zone still to clear (the judge's rule).
        let zone_limit = (self.fixed.kind == MissionKind::BattleZones).then(|| self.open_zone());
        // ... nor through a blip: those a move of a stick from here could pass through.
        let blips: Vec<battlemat_geom::table::Outline> = if zone_limit.is_some() {
            bodies
                .iter()
                .filter(|(t, b)| {
                    let r = (STICK + b.radius + BASE_RADIUS) as i128;
                    self.unit(*t).is_blip()
                        && crate::combat::len2(b.centre.x - x.at.x, b.centre.y - x.at.y) < r * r
                })
                .map(|(_, b)| crate::zones::blip_reach(b))
                .collect()
        } else {
            Vec::new()
        };
        let stick2 = (STICK as i128) * (STICK as i128);
        // Every wind point is on the table when the unit is a stick and a base from each
        // edge (the commonest case: their edge checks are skipped).
        let winds_on_table = {
            let m = STICK + BASE_RADIUS;
            x.at.x - m >= 0 && x.at.x + m <= t.width && x.at.y - m >= 0 && x.at.y + m <= t.depth
        };
        // The `jump` and `past_enemies` options judge the line, not only the landing.
        let strict = self.fixed.options.jump != Jump::All
            || self.fixed.options.past_enemies != PastEnemies::Jump;
        let fits = |k: usize, to: Point| {
            to != x.at
                && (!strict || self.line_ok(u, to))
                // The winds' points (the first) are within a stick by construction.
                && (k < WINDS || crate::combat::len2(to.x - x.at.x, to.y - x.at.y) <= stick2)
                && (!ring || self.in_ring_zone(to) != x.outside)
                && zone_limit.is_none_or(|z| {
                    self.zone_of(to) <= z && !blips.iter().any(|o| o.crossed_by(x.at, to))
                })
                && {
                    let me = Base::new(to, BASE_RADIUS);
                    // Only the pieces whose box the base's box meets.
                    let touching = near
                        .iter()
                        .filter(|(_, (x0, y0, x1, y1))| {
                            to.x + BASE_RADIUS > *x0
                                && to.x - BASE_RADIUS < *x1
                                && to.y + BASE_RADIUS > *y0
                                && to.y - BASE_RADIUS < *y1
                        })
                        .map(|(i, _)| *i);
                    if self.fixed.any_holds {
                        matches!(
                            t.landing_among(&me, others, touching),
                            Landing::Ground | Landing::OnTop(_)
                        )
                    } else {
                        // No piece to stand on: clear ground only (what `landing_among`
                        // decides, without looking for a top), among the bodies that could
                        // be in the way of this point.
                        let in_the_way: &[Base] = match k {
                            0..16 => full_ring,
                            16..WINDS => half_ring,
                            _ => others,
                        };
                        ((k < WINDS && winds_on_table) || t.on_table(&me))
                            && !in_the_way.iter().any(|o| o.overlaps(&me))
                            && !touching.into_iter().any(|i| t.pieces[i].outline.overlaps(&me))
                    }
                }
        };
        let transport = self.has(u, Special::T);
        let (passengers, load) = self.transport_cargo(u, &x, transport);
        // Where its passengers may be dropped is judged against every base on the table but
        // its own, read once for the eight winds.
        let mut all_but_it: Vec<Base> = if passengers.is_empty() {
            Vec::new()
        } else {
            self.bases_except(&[u])
        };
        // The winds at a full stick that fit: a main wind's half stick is listed only where
        // its full stick is blocked (a unit hemmed in still edges forward; in the open, the
        // short step adds little a player cannot type).
        let mut full = 0u32;
        // Without a transport's extras, the points that fit are kept at the front of
        // `points` and listed in one go (pushing a move at a time cost a tenth of the
        // listing in store-forwarding stalls).
        let mut kept = 0;
        for k in 0..points.len() {
            let to = points[k];
            if (16..WINDS).contains(&k) && full & (1 << (2 * (k - 16))) != 0 {
                continue;
            }
            if !fits(k, to) {
                continue;
            }
            if k < 16 {
                full |= 1 << k;
            }
            if !transport {
                points[kept] = to;
                kept += 1;
                continue;
            }
            self.transport_moves(u, x.at, to, k, &load, &passengers, &mut all_but_it, out);
        }
        out.extend(
            points[..kept]
                .iter()
                .map(|&to| crate::events::Action::Move {
                    unit: u,
                    to: Target::Point(to),
                    cargo: None,
                }),
        );
    }
}

/// What candidate moves read of the table, once per turn's listing: the bodies on it with
/// their bases, and buffers reused from unit to unit — and, through a spare kept per thread,
/// from listing to listing (a listing is the commonest step of a random or searched game, and
/// its allocations were a tenth of it). The pieces' boxes and centres are the setup's
/// (`Fixed::piece_bounds`, `Fixed::piece_centres`).
#[derive(Default)]
pub struct Scratch {
    bodies: Vec<(UnitId, Base)>,
    points: Vec<Point>,
    others: Vec<Base>,
    near: Vec<(usize, (i64, i64, i64, i64))>,
    full_ring: Vec<Base>,
    half_ring: Vec<Base>,
    /// Lists of ids the turn's listing keeps (the bodies on the table, what may be attacked,
    /// the credits lying about), lent out with [`Scratch::lend`].
    lists: [Vec<UnitId>; 3],
}

thread_local! {
    static SPARE: std::cell::Cell<Option<Scratch>> = const { std::cell::Cell::new(None) };
}

impl Scratch {
    pub fn of(g: &SdEra) -> Scratch {
        let mut s = SPARE.with(|c| c.take()).unwrap_or_default();
        s.bodies.clear();
        s.bodies.extend(
            g.ids()
                .filter(|&i| g.unit(i).on_table())
                .map(|i| (i, g.unit(i).base())),
        );
        s
    }

    /// The bodies on the table, in id order (what a listing looks through instead of every
    /// id: broken eggs, taken credits and captured units stay in the list of units).
    pub fn on_table(&self) -> impl Iterator<Item = UnitId> + '_ {
        self.bodies.iter().map(|(u, _)| *u)
    }

    /// Three empty id lists to fill, given back with [`Scratch::give_back`].
    pub fn lend(&mut self) -> [Vec<UnitId>; 3] {
        let mut lists = std::mem::take(&mut self.lists);
        for l in &mut lists {
            l.clear();
        }
        lists
    }

    pub fn give_back(&mut self, lists: [Vec<UnitId>; 3]) {
        self.lists = lists;
    }

    /// Hand the buffers back for the next listing on this thread.
    pub fn recycle(self) {
        SPARE.with(|c| c.set(Some(self)));
    }
}

/// Is `p` not yet among `points` (the wind points first, then the extras)? A wind point lies
/// a stick or half a stick (to the tick) from the unit, so only a point at such a distance
/// is looked for among them; the few extras are always searched.
fn is_new(points: &[Point], at: Point, p: Point) -> bool {
    let d2 = crate::combat::len2(p.x - at.x, p.y - at.y);
    let ring = |r: i64| {
        let (lo, hi) = ((r - 2) as i128, r as i128);
        (lo * lo..=hi * hi).contains(&d2)
    };
    let from = if ring(STICK) || ring(STICK / 2) {
        0
    } else {
        WINDS
    };
    !points[from.min(points.len())..].contains(&p)
}

/// A point about `dist` from `from` toward `through`: the length measured by the octagonal
/// norm (the larger offset plus 3/8 of the smaller), within 7 % of the true one, so no
/// square root. Contact candidates aim at half the "next to" gap, and 7 % of a base-to-base
/// distance keeps them next to and clear of the unit they are beside (they are judged
/// anyway).
fn roughly_toward(from: Point, through: Point, dist: battlemat_geom::table::Ticks) -> Point {
    let (dx, dy) = (through.x - from.x, through.y - from.y);
    let (a, b) = (dx.abs().max(dy.abs()), dx.abs().min(dy.abs()));
    let len = a + b * 3 / 8;
    if len == 0 {
        return from;
    }
    Point::new(from.x + dx * dist / len, from.y + dy * dist / len)
}

/// How many wind points [`wind_offsets`] gives.
const WINDS: usize = 24;

/// The sixteen winds at a full stick and the eight main ones at half a stick, as offsets (a
/// point `toward` another is the same offset wherever it starts), computed once.
fn wind_offsets() -> &'static [(i64, i64); 24] {
    static OFFSETS: std::sync::OnceLock<[(i64, i64); 24]> = std::sync::OnceLock::new();
    OFFSETS.get_or_init(|| {
        let mut out = [(0, 0); 24];
        for (i, (dx, dy)) in WIND_VECTORS.iter().enumerate() {
            let p = toward(Point::new(0, 0), Point::new(*dx, *dy), STICK);
            out[i] = (p.x, p.y);
            if i % 2 == 0 {
                let p = toward(Point::new(0, 0), Point::new(*dx, *dy), STICK / 2);
                out[16 + i / 2] = (p.x, p.y);
            }
        }
        out
    })
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
