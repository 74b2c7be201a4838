//! SDE-KB1, SDE-KB2, SDE-KB3: knockback, and the balls and bombs that move like it
//! (SDE-SOCCER.2, SDE-KICKBOMB.2): what a body hits first, stuns, the 2-die attack on a
//! unit hit, bounces, ball hits unit, ball hits ball, goals; and the loop that carries out
//! everything still pending after a fight ([`SdEra::settle`]).
//!
//! A knockback is a straight sweep of the base (`geom::table::Table::sweep`): it stops at
//! the first contact with terrain, a table edge or another base, exactly. A unit knocked
//! off the piece it stands on is not stopped by that piece's edge (it falls off); one that
//! would end half on it slides on until clear.

use crate::data::{MissionKind, STICK};
use crate::events::Event;
use crate::state::{Back, Choice, Fight, Motion, Pending, Phase, Pool, SdEra, Striker, Trail};
use battlemat_geom::table::{Base, Hit, Point, toward};

impl SdEra {
    /// Carry out what is pending until a die or a decision is needed, then go back to the
    /// turn (or the free moves).
    pub fn settle(&mut self, ev: &mut Vec<Event>) {
        loop {
            if self.now.phase == Phase::Over {
                self.now.pending.clear();
                return;
            }
            if self.check_victory(ev) {
                return;
            }
            let Some(p) = self.now.pending.pop() else {
                match self.now.back {
                    Back::Turn => self.now.phase = Phase::Turn,
                    Back::FastMoves => self.now.phase = Phase::FastMoves,
                    Back::Animals { after } => self.next_charger(after + 1, ev),
                    Back::Enemies { .. } => self.next_enemy(ev),
                }
                return;
            };
            match p {
                Pending::Motion(m) => {
                    self.run_motion(m, ev);
                    // BATTLE ZONES: an enemy knocked out of its zone is beaten.
                    if self.fixed.kind == MissionKind::BattleZones
                        && self.unit(m.body).on_table()
                        && self.left_its_zone(m.body)
                    {
                        self.defeat(m.body, m.by, ev);
                    }
                }
                Pending::ShipDamaged => {
                    if self.damage_ship(ev) {
                        return;
                    }
                }
                Pending::Retreat { unit } => self.retreat(unit),
                Pending::ZoneCard { zone } => {
                    self.now.phase = Phase::ZoneCard { zone };
                    return;
                }
                Pending::Reveal { blip, unit } => {
                    if self.unit(blip).on_table() && self.start_reveal(blip, unit, ev) {
                        return;
                    }
                }
                Pending::Open { egg, by } => {
                    self.now.phase = Phase::EggOpens { egg, by };
                    return;
                }
                Pending::Fight(f) => {
                    if self.attackable(f.target) {
                        self.start_fight(f, ev);
                        return;
                    }
                }
                Pending::Spray {
                    unit,
                    target,
                    dice,
                    from,
                } => {
                    // A shooter stunned by the earlier shares' knockback fires no more.
                    if self.attackable(target) && self.attackable(unit) {
                        let f = self.unit_fight(unit, target, false, dice, from);
                        self.now.trail.push(Trail::Shot {
                            from,
                            to: self.unit(target).at,
                        });
                        self.start_fight(f, ev);
                        return;
                    }
                }
                Pending::Choose(c) => {
                    if self.choice_stands(&c) {
                        self.now.phase = Phase::Choose(c);
                        return;
                    }
                }
                Pending::OffHill {
                    attacker,
                    target,
                    spot,
                    piece,
                } => {
                    let off = self.standing_on(target) != Some(piece as usize);
                    let a = self.unit(attacker);
                    if off
                        && a.on_table()
                        && !a.stunned
                        && let Some(seat) = a.owner
                        && self.may_take_hill(attacker, spot)
                    {
                        self.now.phase = Phase::Choose(Choice::TakeHill {
                            seat,
                            unit: attacker,
                            spot,
                        });
                        return;
                    }
                }
            }
        }
    }

    /// Can `u` be attacked: on the table and not stunned (SDE-KB2).
    pub fn attackable(&self, u: crate::state::UnitId) -> bool {
        let x = self.unit(u);
        x.on_table() && !x.stunned && !x.is_blip() && !x.is_rock()
    }

    /// Is a pending decision still meaningful (its unit still on the table)?
    fn choice_stands(&self, c: &Choice) -> bool {
        match *c {
            Choice::Push { mover, .. } => self.unit(mover).on_table(),
            Choice::TakeHill { .. } => true,
            Choice::EarnedCheer { .. } => self.ids().any(|u| self.cheer_target(u)),
            Choice::FreeAttack { unit, .. } => self.attackable(unit),
            Choice::Draws { .. } | Choice::GiveUp { .. } => true,
        }
    }

    /// Move a body along a knockback or bounce, and deal with what it hits.
    pub fn run_motion(&mut self, m: Motion, ev: &mut Vec<Event>) {
        let u = m.body;
        let x = *self.unit(u);
        if !x.on_table() || m.dist <= 0 || m.toward == x.at {
            return;
        }
        // SAFARI: "if you take any knockback while carrying, you will drop the animal".
        self.drop_animals(u, ev);
        // BATTLE ZONES: whoever knocks a bomb is the last to touch it.
        if let (crate::state::Body::Mine { .. }, Some(s)) = (x.body, m.by) {
            self.now.units[u as usize].body = crate::state::Body::Mine { toucher: Some(s) };
        }
        let start = x.at;
        let end = toward(start, m.toward, m.dist);
        let on = self.standing_on(u);
        let ignore: Vec<usize> = on.into_iter().collect();
        let skip: &[crate::state::UnitId] = match m.past {
            Some(p) => &[u, p],
            None => &[u],
        };
        let ids = self.ids_except(skip);
        let others = self.bases_except(skip);
        let sweep = self.fixed.table.sweep(x.base(), end, &others, &ignore);
        // SDE-SOCCER.2: a ball finishing its move past the unit it beat that is stopped
        // before it clears that unit stays at the contact (it never comes to rest on a base).
        if let Some(p) = m.past
            && Base::new(sweep.stop, x.radius()).overlaps(&self.unit(p).base())
        {
            return;
        }
        let stop = sweep.stop;
        self.now.units[u as usize].at = stop;
        if stop != start {
            ev.push(Event::Knocked {
                unit: u,
                from: start,
                to: stop,
            });
            self.now.trail.push(Trail::Knockback {
                from: start,
                to: stop,
            });
        }
        // The direction of travel, to carry on along.
        let v = (end.x - start.x, end.y - start.y);
        let ahead = |p: Point| Point::new(p.x + v.0, p.y + v.1);
        let travelled = battlemat_geom::table::distance_floor(start, stop);
        match sweep.hit {
            None => {
                if !self.slide_off(u, on, m) {
                    self.after_motion(u, ev);
                }
            }
            Some(Hit::Edge) | Some(Hit::Piece(_)) if x.is_ball() => {
                if sweep.hit == Some(Hit::Edge) && self.goal(u, m, ev) {
                    return;
                }
                // SDE-SOCCER.2: it bounces off what it hits, 1 stick at the angle of reflection.
                if m.bounces < 3 {
                    let n = match sweep.hit {
                        Some(Hit::Piece(i)) => {
                            self.fixed.table.pieces[i].outline.normal_toward(stop)
                        }
                        _ => self.edge_normal(&self.unit(u).base()),
                    };
                    let r = reflect((v.0 as i128, v.1 as i128), n);
                    ev.push(Event::Bounced { ball: u });
                    self.now.pending.push(Pending::Motion(Motion {
                        toward: Point::new(stop.x + r.0 as i64, stop.y + r.1 as i64),
                        dist: STICK,
                        bounces: m.bounces + 1,
                        // Past the unit it beat: the bounce meets it like any other base.
                        past: None,
                        ..m
                    }));
                }
            }
            Some(Hit::Edge) | Some(Hit::Piece(_)) => self.knocked_into_terrain(u, m, ev),
            // BATTLE ZONES: an asteroid a zone card adds is terrain.
            Some(Hit::Base(j)) if self.unit(ids[j]).is_rock() => {
                self.knocked_into_terrain(u, m, ev)
            }
            // BATTLE ZONES: a bomb knocked into a unit blows up; into anything else it stops.
            Some(Hit::Base(j)) if x.is_mine() => self.mine_hits(u, ids[j], ev),
            Some(Hit::Base(j)) => {
                let j = ids[j];
                let hit = *self.unit(j);
                if x.is_unit() || x.is_egg() {
                    // SDE-KB3: stop, stunned; the unit hit defends against 2 dice, ranged.
                    // (SDE-SOCCER.2, unit hits ball: the same, the ball defending with 2.)
                    self.stun(u, m.by, ev);
                    self.after_motion(u, ev);
                    if self.attackable(j) {
                        self.now.pending.push(Pending::Fight(Fight {
                            striker: Striker::Impact,
                            target: j,
                            melee: false,
                            by: m.by,
                            from: stop,
                            toward: ahead(hit.at),
                            // CONVOY: into the ship, "treat as a 1 die attack against the ship".
                            att: Pool::new(if hit.is_ship() { 1 } else { 2 }),
                            def: Pool::new(self.defence_dice(j, false)),
                            hidden_attacker: false,
                            rerolling: None,
                            rest: 0,
                        }));
                    }
                } else if hit.is_ball() {
                    // Ball hits ball: the first stops, the second moves 1 stick directly away
                    // (counted with the bounces, so a ball trapped in a corner comes to rest).
                    if m.bounces < 3 {
                        let away = Point::new(2 * hit.at.x - stop.x, 2 * hit.at.y - stop.y);
                        self.now.pending.push(Pending::Motion(Motion {
                            body: j,
                            toward: away,
                            dist: STICK,
                            by: m.by,
                            dice: m.dice,
                            bounces: m.bounces + 1,
                            past: None,
                        }));
                    }
                } else if self.attackable(j) {
                    // Ball hits unit: the ball melees it with the dice that sent it.
                    self.now.pending.push(Pending::Fight(Fight {
                        striker: Striker::Ball(u),
                        target: j,
                        melee: true,
                        by: m.by,
                        from: stop,
                        toward: ahead(stop),
                        att: Pool::new(m.dice.max(1)),
                        def: Pool::new(self.defence_dice(j, true)),
                        hidden_attacker: false,
                        rerolling: None,
                        rest: (m.dist - travelled).max(0),
                    }));
                }
            }
        }
    }

    /// SDE-KB2: into terrain or a board edge: stop, stunned. BATTLE ZONES: an enemy knocked
    /// into terrain is beaten ("Any attack that knocks the 2C unit into terrain or out of the
    /// Zone defeats it"; the table's edges bound the zones); a bomb just stops.
    fn knocked_into_terrain(&mut self, u: crate::state::UnitId, m: Motion, ev: &mut Vec<Event>) {
        let x = self.unit(u);
        if self.fixed.kind == MissionKind::BattleZones && x.is_enemy() {
            return self.defeat(u, m.by, ev);
        }
        self.stun(u, m.by, ev);
        self.after_motion(u, ev);
    }

    /// A body knocked off the piece it stood on that ended half on it slides on in the same
    /// direction until clear (a new motion; nothing was hit). Whether it slides.
    fn slide_off(&mut self, u: crate::state::UnitId, was_on: Option<usize>, m: Motion) -> bool {
        let x = *self.unit(u);
        let Some(p) = was_on else {
            return false;
        };
        let piece = &self.fixed.table.pieces[p].outline;
        let v = (m.toward.x - x.at.x, m.toward.y - x.at.y);
        if !piece.overlaps(&x.base()) || piece.holds(&x.base()) || v == (0, 0) {
            return false;
        }
        self.now.pending.push(Pending::Motion(Motion {
            toward: Point::new(x.at.x + v.0, x.at.y + v.1),
            dist: 2 * x.radius() + 1,
            bounces: 3,
            past: None,
            ..m
        }));
        true
    }

    /// After a body stops: in RING BATTLE a unit that left the ring is placed outside it
    /// (SDE-RING.2).
    fn after_motion(&mut self, u: crate::state::UnitId, ev: &mut Vec<Event>) {
        let x = *self.unit(u);
        if self.fixed.kind == MissionKind::RingBattle && x.is_unit() && !x.outside {
            let r = self.fixed.setup.mission.ring_radius;
            let c = self.fixed.centre;
            if crate::combat::len2(x.at.x - c.x, x.at.y - c.y) > (r as i128) * (r as i128) {
                self.knock_out_of_ring(u, ev);
            }
        }
    }

    /// Which way is "off the edge" for a base touching the table's edges.
    fn edge_normal(&self, b: &Base) -> (i128, i128) {
        let t = &self.fixed.table;
        let mut n = (0i128, 0i128);
        if b.centre.x - b.radius <= 0 {
            n.0 = 1;
        } else if b.centre.x + b.radius >= t.width {
            n.0 = -1;
        }
        if b.centre.y - b.radius <= 0 {
            n.1 = 1;
        } else if b.centre.y + b.radius >= t.depth {
            n.1 = -1;
        }
        n
    }

    /// SOCCER: did the ball reach a goal? Its player scores if it is an opponent's
    /// (SDE-SOCCER.2), and the ball goes back to the centre either way.
    fn goal(&mut self, ball: crate::state::UnitId, m: Motion, ev: &mut Vec<Event>) -> bool {
        if self.fixed.kind != MissionKind::Soccer {
            return false;
        }
        let b = self.unit(ball).base();
        let t = &self.fixed.table;
        let touches = |a: Point, z: Point| {
            if a.y == z.y {
                let edge_y = a.y;
                let at_edge = (edge_y == 0 && b.centre.y - b.radius <= 0)
                    || (edge_y == t.depth && b.centre.y + b.radius >= t.depth);
                at_edge && (a.x..=z.x).contains(&b.centre.x)
            } else {
                let edge_x = a.x;
                let at_edge = (edge_x == 0 && b.centre.x - b.radius <= 0)
                    || (edge_x == t.width && b.centre.x + b.radius >= t.width);
                at_edge && (a.y..=z.y).contains(&b.centre.y)
            }
        };
        let Some(g) = self
            .goals()
            .find(|&(_, (a, z))| touches(a, z))
            .map(|(g, _)| g as usize)
        else {
            return false;
        };
        let scorer = m.by.filter(|s| *s as usize != g);
        if let Some(s) = scorer {
            self.now.tokens[s as usize] += 1;
        }
        ev.push(Event::Goal {
            seat: scorer,
            ball,
            goal: g as u8,
        });
        let home = self.unit(ball).home;
        let spot = self.clear_spot_near(ball, home);
        self.now.units[ball as usize].at = spot;
        ev.push(Event::ReturnedToCentre { ball });
        true
    }
}

/// `v` reflected about the normal `n`: v - 2 (v.n / n.n) n, rounded toward zero.
fn reflect(v: (i128, i128), n: (i128, i128)) -> (i128, i128) {
    let nn = n.0 * n.0 + n.1 * n.1;
    if nn == 0 {
        return (-v.0, -v.1);
    }
    let vn = v.0 * n.0 + v.1 * n.1;
    (v.0 - 2 * vn * n.0 / nn, v.1 - 2 * vn * n.1 / nn)
}
