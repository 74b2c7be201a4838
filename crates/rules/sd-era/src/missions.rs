//! The missions' special rules (each mission's `.2`): SDE-KOTH.2 (the hill, tokens, taking
//! the place of a unit knocked off), SDE-KICKBOMB.2 (explode dice and blasts), SDE-RING.2
//! (cheer dice, breaking in, the outside, ring-outs), SDE-SAFARI.2 (picking up, carrying and
//! capturing animals; the animals' own turn, which the rules play between the players'
//! decisions, a chance point for each of their dice). Balls and goals (SDE-SOCCER.2) move
//! like knockback and live in [`crate::knockback`]; SDE-GALLERY.2's token is earned where a
//! unit is stunned ([`SdEra::stun`]). Set-ups (`.1`) are data and [`crate::setup`];
//! victory (`.3`) is [`SdEra::check_victory`].

use crate::data::{BASE_RADIUS, MissionKind, STICK};
use crate::events::Event;
use crate::state::{Body, Choice, Pending, Phase, SdEra, UnitId};
use battlemat_core::Seat;
use battlemat_geom::table::{Base, Landing, Point, Ticks, toward};

impl SdEra {
    /// KING OF THE HILL: the hill (the piece units may stand on).
    pub fn hill(&self) -> Option<usize> {
        if self.fixed.kind != MissionKind::KingOfTheHill {
            return None;
        }
        self.fixed.table.pieces.iter().position(|p| p.holds > 0)
    }

    /// Is `u` on the hill?
    pub fn on_hill(&self, u: UnitId) -> bool {
        self.hill().is_some_and(|h| self.standing_on(u) == Some(h))
    }

    /// May `attacker` take `spot` on the hill (SDE-KOTH.2)? Only if it is free.
    pub fn may_take_hill(&self, attacker: UnitId, spot: Point) -> bool {
        let others = self.bases_except(&[attacker]);
        matches!(
            self.fixed
                .table
                .landing(&Base::new(spot, BASE_RADIUS), &others),
            Landing::OnTop(_)
        )
    }

    /// Set a unit down at `spot` by a mission's rule (not a move or knockback), drawn on the
    /// picture as a move.
    fn put_at(&mut self, unit: UnitId, spot: Point) {
        let from = self.unit(unit).at;
        self.now.units[unit as usize].at = spot;
        self.now
            .trail
            .push(crate::state::Trail::Move { from, to: spot });
    }

    /// KING OF THE HILL: take the place of the unit knocked off.
    pub fn take_hill(&mut self, unit: UnitId, spot: Point, ev: &mut Vec<Event>) {
        self.put_at(unit, spot);
        self.now.units[unit as usize].hidden = false;
        ev.push(Event::TookHill { unit });
    }

    /// RING BATTLE: may a cheer die be placed by `u` (a unit in the ring)?
    pub fn cheer_target(&self, u: UnitId) -> bool {
        let x = self.unit(u);
        self.fixed.kind == MissionKind::RingBattle && x.is_unit() && x.on_table() && !x.outside
    }

    /// RING BATTLE: "the attacker earns 1 CHEER": the winner of a fight with a unit outside
    /// places a cheer die by any unit in the ring.
    pub fn earn_cheer(&mut self, seat: Seat) {
        self.now
            .pending
            .insert(0, Pending::Choose(Choice::EarnedCheer { seat }));
    }

    /// RING BATTLE: a unit knocked out of the ring is placed just outside it, in front of
    /// the player who owns it.
    pub fn knock_out_of_ring(&mut self, u: UnitId, ev: &mut Vec<Event>) {
        let seat = self.unit(u).owner.unwrap_or(0);
        let spot = self.ring_spot(u, seat, true);
        self.now.units[u as usize].at = spot;
        self.now.units[u as usize].outside = true;
        self.now.units[u as usize].cheer = 0;
        ev.push(Event::KnockedOut { unit: u, at: spot });
    }

    /// A clear spot just outside (or just inside) the ring in front of `seat`.
    pub fn ring_spot(&self, u: UnitId, seat: Seat, outside: bool) -> Point {
        let f = &self.fixed;
        let r = f.setup.mission.ring_radius;
        let post = self.post(seat);
        let others = self.bases_except(&[u]);
        let ok = |p: Point| {
            matches!(
                f.table.landing(&Base::new(p, BASE_RADIUS), &others),
                Landing::Ground
            )
        };
        let depths: [Ticks; 3] = if outside {
            [BASE_RADIUS + 1, STICK / 2, STICK]
        } else {
            [-BASE_RADIUS - 1, -STICK / 2, -STICK]
        };
        for depth in depths {
            let front = toward(f.centre, post, r + depth);
            let v = (post.x - f.centre.x, post.y - f.centre.y);
            let across = Point::new(front.x - v.1, front.y + v.0);
            for k in 0..12i64 {
                let side = if k % 2 == 0 { k / 2 } else { -(k / 2) - 1 };
                let p = toward(front, across, side * 2 * BASE_RADIUS + side.signum() * 40);
                let p = if side == 0 { front } else { p };
                if ok(p) && self.in_ring_zone(p) != outside {
                    return p;
                }
            }
        }
        self.unit(u).at
    }

    /// Is a centre inside the ring?
    pub fn in_ring_zone(&self, p: Point) -> bool {
        let c = self.fixed.centre;
        let r = self.fixed.setup.mission.ring_radius as i128;
        crate::combat::len2(p.x - c.x, p.y - c.y) <= r * r
    }

    /// RING BATTLE, BREAK IN: one die; all the same number and the unit is in.
    pub fn roll_break_in(
        &mut self,
        unit: UnitId,
        left: u8,
        first: u8,
        same: bool,
        face: u8,
        ev: &mut Vec<Event>,
    ) {
        let first = if first == 0 { face } else { first };
        let same = same && face == first;
        if left > 1 {
            self.now.phase = Phase::BreakIn {
                unit,
                left: left - 1,
                first,
                same,
            };
            return;
        }
        if same {
            let seat = self.unit(unit).owner.unwrap_or(0);
            let spot = self.ring_spot(unit, seat, false);
            if self.in_ring_zone(spot) {
                self.put_at(unit, spot);
                self.now.units[unit as usize].outside = false;
                ev.push(Event::BrokeIn { unit });
            } else {
                ev.push(Event::FailedBreakIn { unit });
            }
        } else {
            ev.push(Event::FailedBreakIn { unit });
        }
        self.settle(ev);
    }

    /// KICK-BOMB: one explode die. A 6 and the bomb explodes: every unit within 1 stick is
    /// stunned and costs its owner a token; the bomb goes back to the centre with one die.
    /// No 6 among its dice and it gains a die. (Its dice stop at the first 6: the rest
    /// would change nothing.)
    pub fn roll_bomb(&mut self, bomb: UnitId, left: u8, done: u8, face: u8, ev: &mut Vec<Event>) {
        if face == 6 {
            let hit = self.caught_by_blast(bomb, STICK, |x| x.is_unit());
            for &u in &hit {
                self.stun(u, None, ev);
                if let Some(s) = self.unit(u).owner {
                    let t = &mut self.now.tokens[s as usize];
                    if *t > 0 {
                        *t -= 1;
                        if *t == 0 {
                            self.now.out_at[s as usize] = self.now.turns;
                        }
                        ev.push(Event::TokenLost {
                            seat: s,
                            tokens: self.now.tokens[s as usize],
                        });
                    }
                }
            }
            ev.push(Event::BombExplodes { bomb, hit });
            self.now.units[bomb as usize].body = Body::Bomb { dice: 1 };
            let home = self.unit(bomb).home;
            let spot = self.clear_spot_near(bomb, home);
            self.now.units[bomb as usize].at = spot;
        } else if left > 1 {
            self.now.phase = Phase::BombRoll {
                bomb,
                left: left - 1,
                done,
            };
            return;
        } else {
            let dice = self.bomb_dice(bomb).saturating_add(1);
            self.now.units[bomb as usize].body = Body::Bomb { dice };
            ev.push(Event::BombGrows { bomb, dice });
        }
        let done = done | (1 << bomb.min(7));
        match self.next_bomb(done) {
            Some(b) => {
                self.now.phase = Phase::BombRoll {
                    bomb: b,
                    left: self.bomb_dice(b),
                    done,
                }
            }
            None => self.next_turn(ev),
        }
    }
}

/// SAFARI (SDE-SAFARI.2): picking up, carrying and capturing animals, and the animals' own
/// turn after each round.
impl SdEra {
    /// Animals `carrier` carries.
    pub fn carried_animals(&self, carrier: UnitId) -> impl Iterator<Item = UnitId> + '_ {
        self.ids().filter(move |&a| {
            let x = self.unit(a);
            x.is_animal() && x.aboard == Some(carrier)
        })
    }

    /// How many animals `carrier` may carry: one, or a transport its value (with the units
    /// it carries).
    pub fn may_carry_more(&self, carrier: UnitId) -> bool {
        let load = self
            .ids()
            .filter(|&a| self.unit(a).aboard == Some(carrier))
            .count();
        let room = if self.has(carrier, crate::data::Special::T) {
            self.value(carrier) as usize
        } else {
            1
        };
        load < room
    }

    /// A carrier picks an animal up.
    pub fn pick_up(&mut self, carrier: UnitId, animal: UnitId, ev: &mut Vec<Event>) {
        self.now.units[animal as usize].aboard = Some(carrier);
        ev.push(Event::PickedUp {
            unit: carrier,
            animal,
        });
    }

    /// A carrier that took knockback drops what it carries where it stood.
    pub fn drop_animals(&mut self, carrier: UnitId, ev: &mut Vec<Event>) {
        let dropped: Vec<UnitId> = self.carried_animals(carrier).collect();
        for a in dropped {
            self.set_down_near(a, carrier, ev);
        }
    }

    /// Put a carried animal back on the table next to its carrier.
    fn set_down_near(&mut self, animal: UnitId, carrier: UnitId, ev: &mut Vec<Event>) {
        let near = self.unit(carrier).at;
        self.now.units[animal as usize].aboard = None;
        // Out of the carrier's way: try beside it, then anywhere near.
        self.now.units[animal as usize].at = near;
        let spot = self.clear_spot_near(animal, near);
        self.now.units[animal as usize].at = spot;
        ev.push(Event::AnimalDropped { animal, at: spot });
    }

    /// "You must then carry the stunned animal to any board edge to capture it": a carrier
    /// whose base is next to a board edge (within 1/6 stick) captures what it carries.
    pub fn capture_at_edge(&mut self, carrier: UnitId, ev: &mut Vec<Event>) {
        let b = self.unit(carrier).base();
        let t = &self.fixed.table;
        let at_edge = b.centre.x - b.radius <= NEXT_TO_EDGE
            || b.centre.y - b.radius <= NEXT_TO_EDGE
            || t.width - (b.centre.x + b.radius) <= NEXT_TO_EDGE
            || t.depth - (b.centre.y + b.radius) <= NEXT_TO_EDGE;
        let Some(seat) = self.unit(carrier).owner else {
            return;
        };
        if !at_edge {
            return;
        }
        let caught: Vec<UnitId> = self.carried_animals(carrier).collect();
        for a in caught {
            let points = self.value(a);
            let x = &mut self.now.units[a as usize];
            x.aboard = None;
            x.captured = Some(seat);
            let t = &mut self.now.tokens[seat as usize];
            *t = t.saturating_add(points);
            ev.push(Event::Captured {
                seat,
                animal: a,
                points,
            });
        }
    }

    /// The nearest unit of any player to `animal`, hidden ones left out (ties: the lowest
    /// id), and its squared distance.
    fn nearest_unit(&self, animal: UnitId) -> Option<(UnitId, i128)> {
        let at = self.unit(animal).at;
        self.ids()
            .filter(|&u| {
                let x = self.unit(u);
                x.is_unit() && x.on_table() && !x.hidden
            })
            .map(|u| {
                let p = self.unit(u).at;
                (u, crate::combat::len2(p.x - at.x, p.y - at.y))
            })
            .min_by_key(|&(u, d)| (d, u))
    }

    /// The animals' turn begins: first every stunned animal tries to recover.
    pub fn start_animal_turn(&mut self, ev: &mut Vec<Event>) {
        self.now.charge = None;
        self.next_recoverer(0, ev);
    }

    /// The next stunned animal (from id `from`) rolls to recover; then the charges.
    fn next_recoverer(&mut self, from: UnitId, ev: &mut Vec<Event>) {
        let next = (from..self.now.units.len() as UnitId).find(|&a| {
            let x = self.unit(a);
            x.is_animal() && x.stunned && x.captured.is_none()
        });
        match next {
            Some(animal) => {
                self.now.phase = Phase::AnimalRecover {
                    animal,
                    left: self.value(animal),
                }
            }
            None => self.next_charger(0, ev),
        }
    }

    /// "First, any animal that is stunned may roll their dice to try to recover from being
    /// stunned. If they roll a 6, they are no longer stunned. Carried units that recover from
    /// stun are no longer carried!" (Its dice stop at the first 6.)
    pub fn roll_animal_recover(&mut self, animal: UnitId, left: u8, face: u8, ev: &mut Vec<Event>) {
        if face == 6 {
            self.now.units[animal as usize].stunned = false;
            if let Some(carrier) = self.unit(animal).aboard {
                self.set_down_near(animal, carrier, ev);
            }
            ev.push(Event::AnimalRecovers { animal });
        } else if left > 1 {
            self.now.phase = Phase::AnimalRecover {
                animal,
                left: left - 1,
            };
            return;
        }
        self.next_recoverer(animal + 1, ev);
    }

    /// The next animal (from id `from`) within 1 stick of a unit rolls to charge; when none
    /// is left, the next round.
    pub fn next_charger(&mut self, from: UnitId, ev: &mut Vec<Event>) {
        self.now.back = crate::state::Back::Turn;
        if self.check_victory(ev) {
            return;
        }
        let next = (from..self.now.units.len() as UnitId).find(|&a| {
            let x = self.unit(a);
            x.is_animal()
                && x.on_table()
                && !x.stunned
                && self
                    .nearest_unit(a)
                    .is_some_and(|(u, _)| self.unit(u).base().within(&x.base(), crate::data::STICK))
        });
        match next {
            Some(animal) => {
                self.now.phase = Phase::AnimalCharge {
                    animal,
                    left: self.value(animal),
                }
            }
            None => self.new_round(ev),
        }
    }

    /// "For each animal that is within 1 stick of any player unit (except hidden units), roll
    /// the animal's dice. If they roll a 6, they will charge the nearest unit, attacking in
    /// melee with +1 die! If they win, they will do knockback in the direction of their move.
    /// If they don't charge, they will move 1 stick directly away from the nearest unit
    /// instead." (Its dice stop at the first 6.)
    pub fn roll_animal_charge(&mut self, animal: UnitId, left: u8, face: u8, ev: &mut Vec<Event>) {
        if face != 6 && left > 1 {
            self.now.phase = Phase::AnimalCharge {
                animal,
                left: left - 1,
            };
            return;
        }
        let Some((target, _)) = self.nearest_unit(animal) else {
            self.next_charger(animal + 1, ev);
            return;
        };
        let start = self.unit(animal).at;
        let them = self.unit(target).at;
        let r = self.unit(animal).radius() + self.unit(target).radius();
        let to = if face == 6 {
            // Into contact with it.
            toward(them, start, r + crate::data::NEXT_TO / 2)
        } else {
            // One stick directly away.
            toward(start, them, -crate::data::STICK)
        };
        let others = self.bases_except(&[animal]);
        let sweep = self
            .fixed
            .table
            .sweep(self.unit(animal).base(), to, &others, &[]);
        self.now.units[animal as usize].at = sweep.stop;
        if sweep.stop != start {
            self.now.trail.push(crate::state::Trail::Move {
                from: start,
                to: sweep.stop,
            });
        }
        if face == 6 {
            ev.push(Event::AnimalCharges { animal, target });
            if self.next_to(animal, target) && self.attackable(target) {
                let f = crate::state::Fight {
                    striker: crate::state::Striker::Animal(animal),
                    target,
                    melee: true,
                    by: None,
                    from: start,
                    toward: them,
                    att: crate::state::Pool::new(self.value(animal) + 1),
                    def: crate::state::Pool::new(self.defence_dice(target, true)),
                    hidden_attacker: false,
                    rerolling: None,
                    rest: 0,
                };
                self.now.back = crate::state::Back::Animals { after: animal };
                self.start_fight(f, ev);
                return;
            }
        } else {
            ev.push(Event::AnimalRunsAway {
                animal,
                to: sweep.stop,
            });
        }
        self.next_charger(animal + 1, ev);
    }
}

/// "At a board edge": a base within 1/6 stick of it.
const NEXT_TO_EDGE: Ticks = crate::data::NEXT_TO;

impl SdEra {
    /// SAFARI (SDE-SAFARI.1): the animals, evenly over the part of the table at least 2
    /// sticks from every edge, each player adding one of each value in `animals`.
    pub(crate) fn set_up_safari(&mut self) -> Result<(), battlemat_core::SetupError> {
        let animals = &self.fixed.setup.mission.animals;
        if animals.is_empty() || animals.iter().any(|v| !(1..=6).contains(v)) {
            return Err(battlemat_core::SetupError::new(
                "mission.animals",
                "a safari needs animals, each worth 1 to 6 (the text: one to four)",
            ));
        }
        let bodies: Vec<Body> = (0..self.fixed.players)
            .flat_map(|_| animals.iter().map(|&value| Body::Animal { value }))
            .collect();
        if !self.place_evenly(&bodies, 2 * STICK, false) {
            return Err(battlemat_core::SetupError::new(
                "mission",
                "no room on the table for the animals",
            ));
        }
        Ok(())
    }
}
