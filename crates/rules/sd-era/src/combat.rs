//! SDE-SHOOT, SDE-RANGE, SDE-SIGHT, SDE-MELEE and the letters that change dice (SDE-A,
//! SDE-B, SDE-C, SDE-H, SDE-M, SDE-S, SDE-V): attack and defence dice, the opposed roll,
//! and what its outcome does.
//!
//! The opposed roll (rulings.md, DEFAULT): each side rolls its dice and the highest single
//! dice are compared; the attacker wins only if higher (ties go to the defender). Overkill
//! is how many of the winner's *other* dice also beat the loser's highest. The `contest =
//! sum` option compares totals instead (overkill = (difference - 1) div 3).
//!
//! Every die is its own chance point, so a record holds the faces a player would read off
//! the table; the pools keep face counts only, so equal rolls in any order are one state.

use crate::data::{Artillery, Contest, MissionKind, NEXT_TO, STICK, Special};
use crate::events::{Event, Winner};
use crate::state::{Choice, Fight, Pending, Pool, SdEra, Striker, UnitId};
use battlemat_core::Seat;
use battlemat_geom::table::{Base, Point, Ticks};

/// A question within a fight, and whose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Question {
    /// RING BATTLE: add cheer dice (true: the attacker's side).
    Cheer(bool),
    /// VETERAN: re-roll one die or keep.
    Reroll(bool),
}

/// The ship's defence dice (SDE-CONVOY.2).
pub const SHIP_DICE: u8 = 4;

/// The opposed roll (rulings.md, "Opposed roll"): each side's highest die, the attacker
/// winning only if higher, overkill the winner's other dice above the loser's highest; or,
/// with `contest = sum`, totals, overkill (difference - 1) div 3. `melee_special`: the
/// attacker is a MELEE unit attacking in melee, whose lost attack is a tie (SDE-M). The
/// referee and the odds both decide rolls here.
pub fn opposed(contest: Contest, att: &Pool, def: &Pool, melee_special: bool) -> (Winner, u8) {
    let (w, overkill) = match contest {
        Contest::Highest => {
            let (a, d) = (att.highest(), def.highest());
            if a > d {
                (Winner::Attacker, att.above(d).saturating_sub(1))
            } else if d > a {
                (Winner::Defender, def.above(a).saturating_sub(1))
            } else {
                (Winner::Tie, 0)
            }
        }
        Contest::Sum => {
            let (a, d) = (att.total(), def.total());
            if a > d {
                (Winner::Attacker, ((a - d - 1) / 3) as u8)
            } else if d > a {
                (Winner::Defender, ((d - a - 1) / 3) as u8)
            } else {
                (Winner::Tie, 0)
            }
        }
    };
    // SDE-M: "If you lose when attacking in melee, treat as a tie instead."
    if w == Winner::Defender && melee_special {
        return (Winner::Tie, 0);
    }
    (w, overkill)
}

/// Squared length of a vector (in 64-bit arithmetic when both offsets are under 2^30, as on
/// and near any table; 128-bit otherwise).
#[inline]
pub(crate) fn len2(dx: Ticks, dy: Ticks) -> i128 {
    const SMALL: i64 = 1 << 30;
    if dx.abs() < SMALL && dy.abs() < SMALL {
        (dx * dx + dy * dy) as i128
    } else {
        (dx as i128) * (dx as i128) + (dy as i128) * (dy as i128)
    }
}

impl SdEra {
    /// How far body `b` must go from where it is toward `toward` to be clear of `u`'s base
    /// (0 when it already is): the chord of the two bases' reach, rounded up to a clear tick.
    pub fn clear_past(&self, b: UnitId, u: UnitId, toward: Point) -> Ticks {
        let (ball, unit) = (self.unit(b).base(), self.unit(u).base());
        let c = ball.centre;
        let v = ((toward.x - c.x) as i128, (toward.y - c.y) as i128);
        let w = ((c.x - unit.centre.x) as i128, (c.y - unit.centre.y) as i128);
        let len = battlemat_geom::table::isqrt((v.0 * v.0 + v.1 * v.1) as u128) as i128;
        let along = -2 * (w.0 * v.0 + w.1 * v.1);
        if len == 0 || along <= 0 {
            return 0;
        }
        let mut s = (along / len) as Ticks;
        // The root is rounded; step on to the first tick where the bases do not overlap.
        for _ in 0..8 {
            let p = battlemat_geom::table::toward(c, toward, s);
            if !Base::new(p, ball.radius).overlaps(&unit) {
                break;
            }
            s += 1;
        }
        s
    }

    /// Sticks of range beyond the first (SDE-RANGE): 0 within 1 stick edge to edge; 1 up to
    /// 2 sticks; and so on. `from` is the shooter's centre (or a BITS point, radius 0).
    pub fn extra_range(&self, from: Point, from_radius: Ticks, target: UnitId) -> u8 {
        let t = self.unit(target);
        let d2 = len2(t.at.x - from.x, t.at.y - from.y);
        // The least k with d2 <= ((k + 1) sticks + both radii)^2, at most 40 (the distance
        // rounded up to a whole tick is within (k + 1) sticks of the bases' edges), found by
        // stepping out a stick at a time: a shot is rarely more than a few sticks long, and
        // this is cheaper than an integer square root (measured; it is asked for every
        // shooter and target in every listing). Radii are within the table's coordinates,
        // so every edge squared fits in 64 bits, and a longer distance is past them all.
        let Ok(d2) = i64::try_from(d2) else {
            return 40;
        };
        let radii = from_radius + t.radius();
        let mut edge = STICK + radii;
        for k in 0..40u8 {
            if d2 <= edge * edge {
                return k;
            }
            edge += STICK;
        }
        40
    }

    /// Can a shot from `from` see `target` (SDE-SIGHT)? Pieces the shooter or target stand on
    /// do not block it (rulings.md), wherever BITS trace the line from.
    pub fn sees(&self, shooter: UnitId, from: Point, target: UnitId) -> bool {
        let mut ignore: [usize; 2] = [usize::MAX; 2];
        // Only a piece that holds units can be stood on.
        if self.fixed.any_holds {
            if let Some(p) = self.standing_on(shooter) {
                ignore[0] = p;
            }
            if let Some(p) = self.standing_on(target) {
                ignore[1] = p;
            }
        }
        self.fixed.table.sight_boxed(
            from,
            self.unit(target).at,
            &ignore,
            &self.fixed.piece_bounds,
        )
    }

    /// Attack dice before range penalties: the value, +1 hidden (SDE-H), +1 MELEE in melee
    /// (SDE-M), +1 ARTILLERY shooting with the `extra_die` option.
    pub fn attack_dice(&self, u: UnitId, melee: bool) -> u8 {
        let mut d = self.value(u);
        if self.unit(u).hidden {
            d += 1;
        }
        if melee && self.has(u, Special::M) {
            d += 1;
        }
        if !melee && self.has(u, Special::A) && self.fixed.options.artillery == Artillery::ExtraDie
        {
            d += 1;
        }
        d
    }

    /// Shooting dice after the range penalty (SDE-RANGE; ARTILLERY ignores it, SDE-A).
    pub fn shooting_dice(&self, u: UnitId, dice: u8, extra: u8) -> u8 {
        if self.has(u, Special::A) {
            dice
        } else {
            dice.saturating_sub(extra)
        }
    }

    /// Defence dice: the value (a ball or bomb 2), -1 CHEAP (SDE-C), +1 MELEE in melee.
    pub fn defence_dice(&self, u: UnitId, melee: bool) -> u8 {
        if self.unit(u).is_ball() {
            return 2;
        }
        // SDE-CONVOY.2: "If the ship is attacked, it defends itself with 4 dice."
        if self.unit(u).is_ship() {
            return SHIP_DICE;
        }
        // SDE-ZONES.2: "This static target defends with 3 dice" (FORTIFIED: 4); a bomb
        // "defends with 2 dice".
        if self.unit(u).is_target() {
            let fortified = self.card_at(self.unit(u).at) == Some(crate::data::ZoneCard::Fortified);
            return if fortified { 4 } else { 3 };
        }
        if self.unit(u).is_mine() {
            return 2;
        }
        // SDE-EGG.2: "Eggs defend with one die".
        if self.unit(u).is_egg() {
            return 1;
        }
        let mut d = self.value(u);
        if self.has(u, Special::C) {
            d = d.saturating_sub(1);
        }
        if melee && self.has(u, Special::M) {
            d += 1;
        }
        d
    }

    /// Are the two bodies next to each other: the bases within 1/6 stick edge to edge, or one
    /// on top of a piece that holds one unit and the other at its foot (SDE-KOTH.2)?
    pub fn next_to(&self, a: UnitId, b: UnitId) -> bool {
        let (x, y) = (self.unit(a).base(), self.unit(b).base());
        x.within(&y, NEXT_TO) || self.holder_next_to(a, &y) || self.holder_next_to(b, &x)
    }

    /// SDE-KOTH.2 ("If you knock a unit off with melee, you may take their place on the
    /// hill"; ours): the top of a piece that holds one unit is one spot, so its holder is next
    /// to every base next to the piece (within 1/6 stick of its side) — a hill's holder can be
    /// meleed from its foot wherever on the top it stands. A piece that holds more measures
    /// base to base, as on the flat.
    fn holder_next_to(&self, top: UnitId, foot: &Base) -> bool {
        let Some(p) = self.top_of_one(top) else {
            return false;
        };
        let piece = &self.fixed.table.pieces[p];
        !piece.outline.holds(foot)
            && piece
                .outline
                .overlaps(&Base::new(foot.centre, foot.radius + NEXT_TO))
    }

    /// SDE-KOTH.2: the piece that holds one unit on whose top `u` stands, if any (its top
    /// is one spot: its holder is next to every base at its foot).
    pub(crate) fn top_of_one(&self, u: UnitId) -> Option<usize> {
        let pieces = &self.fixed.table.pieces;
        if !pieces.iter().any(|p| p.holds == 1) {
            return None;
        }
        self.standing_on(u).filter(|&p| pieces[p].holds == 1)
    }

    /// A fight between a unit and a target, its dice counted.
    pub fn unit_fight(
        &self,
        unit: UnitId,
        target: UnitId,
        melee: bool,
        dice: u8,
        from: Point,
    ) -> Fight {
        let owner = self.unit(unit).owner;
        Fight {
            striker: Striker::Unit(unit),
            target,
            melee,
            by: owner,
            from,
            toward: self.unit(target).at,
            att: Pool::new(dice),
            def: Pool::new(self.defence_dice(target, melee)),
            hidden_attacker: self.unit(unit).hidden,
            rerolling: None,
            rest: 0,
        }
    }

    /// Begin rolling a fight: the attacker (if a unit) comes out of hiding (SDE-H).
    pub fn start_fight(&mut self, f: Fight, ev: &mut Vec<Event>) {
        let unit = match f.striker {
            Striker::Unit(u) => {
                if self.unit(u).hidden {
                    self.now.units[u as usize].hidden = false;
                    ev.push(Event::Unhidden { unit: u });
                }
                Some(u)
            }
            Striker::Ball(b) | Striker::Animal(b) => Some(b),
            Striker::Impact => None,
        };
        ev.push(Event::Attacks {
            unit,
            target: f.target,
            melee: f.melee,
            att_dice: f.att.dice,
            def_dice: f.def.dice,
        });
        self.now.phase = crate::state::Phase::Fight(f);
        self.fight_continue(f, ev);
    }

    /// The unit on each side of a fight that may decide things (a unit striker; the target).
    fn fighter(&self, f: &Fight, attacker: bool) -> Option<UnitId> {
        if attacker {
            match f.striker {
                Striker::Unit(u) => Some(u),
                _ => None,
            }
        } else if self.unit(f.target).is_unit() {
            Some(f.target)
        } else {
            None
        }
    }

    /// The next question in a fight whose dice are all rolled: cheer dice first (ring),
    /// then VETERAN re-rolls, the attacker before the defender.
    pub fn fight_question(&self, f: &Fight) -> Option<(Seat, Question)> {
        if !f.att.done() || !f.def.done() {
            return None;
        }
        for side in [true, false] {
            let pool = if side { &f.att } else { &f.def };
            if let Some(u) = self.fighter(f, side)
                && self.unit(u).cheer > 0
                && !pool.cheered
                && let Some(seat) = self.unit(u).owner
            {
                return Some((seat, Question::Cheer(side)));
            }
        }
        for side in [true, false] {
            let pool = if side { &f.att } else { &f.def };
            if let Some(u) = self.fighter(f, side)
                && self.has(u, Special::V)
                && !pool.rerolled
                && pool.rolled > 0
                && self.reroll_can_help(f, side)
                && let Some(seat) = self.unit(u).owner
            {
                return Some((seat, Question::Reroll(side)));
            }
        }
        None
    }

    /// SDE-V: can re-rolling one of this side's dice change the fight's result for the
    /// better, as the dice lie now? Not when every die is already the best it can be (a
    /// winner's sixes, a MELEE attacker's loss that is a tie whatever it rolls): then the
    /// VETERAN is not asked (docs/rules/sd-era.md, Veteran). Better for the attacker: a win
    /// with more overkill, a win, a tie, a loss without knockback; the defender the reverse.
    pub fn reroll_can_help(&self, f: &Fight, attacker: bool) -> bool {
        let melee_special =
            f.melee && matches!(f.striker, Striker::Unit(u) if self.has(u, Special::M));
        let worth = |a: &Pool, d: &Pool| -> i32 {
            match opposed(self.fixed.options.contest, a, d, melee_special) {
                (Winner::Attacker, ok) => 10 + i32::from(ok),
                (Winner::Tie, _) => 0,
                // A melee defender's overkill knocks the attacker back (SDE-MELEE).
                (Winner::Defender, ok) if f.melee && ok > 0 => -2,
                (Winner::Defender, _) => -1,
            }
        };
        let now = worth(&f.att, &f.def);
        let pool = if attacker { f.att } else { f.def };
        (1..=6u8)
            .filter(|&x| pool.faces[x as usize - 1] > 0)
            .any(|x| {
                (1..=6u8).filter(|&y| y != x).any(|y| {
                    let mut p = pool;
                    p.faces[x as usize - 1] -= 1;
                    p.faces[y as usize - 1] += 1;
                    let then = if attacker {
                        worth(&p, &f.def)
                    } else {
                        worth(&f.att, &p)
                    };
                    if attacker { then > now } else { then < now }
                })
            })
    }

    /// A VETERAN enemy's re-roll ("don't forget that reroll!"; no player decides it): when
    /// its side is not winning, its lowest die (ours).
    fn enemy_reroll(&self, f: &Fight) -> Option<(bool, u8)> {
        for side in [true, false] {
            let pool = if side { &f.att } else { &f.def };
            let Some(u) = self.fighter(f, side) else {
                continue;
            };
            if !self.unit(u).is_enemy() || !self.has(u, Special::V) || pool.rerolled {
                continue;
            }
            let (w, _) = self.contest(&f.att, &f.def);
            let losing = if side {
                w != Winner::Attacker
            } else {
                w == Winner::Attacker
            };
            if losing && let Some(face) = (1..=6u8).find(|&x| pool.faces[x as usize - 1] > 0) {
                return Some((side, face));
            }
        }
        None
    }

    pub fn fight_decider(&self, f: &Fight) -> Option<Seat> {
        self.fight_question(f).map(|(s, _)| s)
    }

    /// One die of a fight: into the attacker's pool until it is full, then the defender's.
    pub fn roll_fight(&mut self, mut f: Fight, face: u8, ev: &mut Vec<Event>) {
        if !f.att.done() {
            f.att.add(face);
        } else {
            f.def.add(face);
        }
        if let Some(side) = f.rerolling.take() {
            let unit = self.fighter(&f, side);
            ev.push(Event::Rerolled { unit, face });
        }
        self.now.phase = crate::state::Phase::Fight(f);
        self.fight_continue(f, ev);
    }

    /// After a die or a decision: wait for more, or resolve.
    pub fn fight_continue(&mut self, f: Fight, ev: &mut Vec<Event>) {
        if !f.att.done() || !f.def.done() || self.fight_question(&f).is_some() {
            self.now.phase = crate::state::Phase::Fight(f);
            return;
        }
        if let Some((side, face)) = self.enemy_reroll(&f) {
            return self.start_reroll(f, side, face);
        }
        self.resolve_fight(f, ev);
        self.settle(ev);
    }

    /// Who won and by how much overkill (rulings.md, "Opposed roll"), under this game's
    /// `contest` option.
    pub fn contest(&self, att: &Pool, def: &Pool) -> (Winner, u8) {
        opposed(self.fixed.options.contest, att, def, false)
    }

    /// What the outcome does: knockback (SDE-SHOOT, SDE-MELEE, SDE-KB1), a hidden unit
    /// found (SDE-H), a ball's strike (SDE-SOCCER.2), ring stuns and cheers (SDE-RING.2).
    fn resolve_fight(&mut self, f: Fight, ev: &mut Vec<Event>) {
        let melee_special =
            f.melee && matches!(f.striker, Striker::Unit(u) if self.has(u, Special::M));
        let (winner, overkill) = opposed(self.fixed.options.contest, &f.att, &f.def, melee_special);
        ev.push(Event::Fight {
            target: f.target,
            winner,
            overkill,
            att: f.att.faces,
            def: f.def.faces,
        });
        let target = f.target;
        // SDE-CONVOY.2: "If the ship is DAMAGED, it won't take knockback"; nor does it do any
        // ("can't be damaged by the ship").
        if self.unit(target).is_ship() {
            if winner == Winner::Attacker {
                self.now.pending.push(Pending::ShipDamaged);
            }
            return;
        }
        // SDE-ZONES.2: "Whomever destroys it earns the blip": a won attack on a target.
        if self.unit(target).is_target() {
            if winner == Winner::Attacker {
                self.defeat(target, f.by, ev);
            }
            return;
        }
        match winner {
            Winner::Attacker => self.attacker_wins(&f, overkill, ev),
            Winner::Defender => self.defender_wins(&f, overkill, ev),
            Winner::Tie => {}
        }
    }

    /// The attacker won: SDE-RING.2's stun and cheer, SDE-SAFARI.2's stunned animal, SDE-H's
    /// found unit, or the knockback (SDE-SHOOT, SDE-KB1; SDE-SOCCER.2's ball).
    fn attacker_wins(&mut self, f: &Fight, overkill: u8, ev: &mut Vec<Event>) {
        let ring = self.fixed.kind == MissionKind::RingBattle;
        let target = f.target;
        // SDE-RING.2: a unit outside the ring that loses is stunned; the winner earns
        // a cheer.
        if ring && self.unit(target).outside && self.unit(target).is_unit() {
            self.stun(target, None, ev);
            if let Some(s) = f.by {
                self.earn_cheer(s);
            }
        }
        // SDE-SAFARI.2: "Instead of taking knockback, any successful attack on an
        // animal will stun them."
        if self.unit(target).is_animal() {
            self.stun(target, f.by, ev);
            return;
        }
        // SDE-H: a hidden defender is only found, unless the attacker was hidden.
        if self.unit(target).hidden && !f.hidden_attacker {
            self.now.units[target as usize].hidden = false;
            ev.push(Event::Unhidden { unit: target });
            return;
        }
        let dist = (1 + Ticks::from(overkill)) * STICK;
        match f.striker {
            Striker::Ball(b) => {
                // SDE-SOCCER.2: "If the ball wins, the unit is stunned and the ball
                // finishes its move!" — from the contact, past the unit, and never
                // to rest on it: a move too short to clear it goes on until clear.
                self.stun(target, f.by, ev);
                if f.rest > 0 {
                    let clear = self.clear_past(b, target, f.toward);
                    self.now.pending.push(Pending::Motion(crate::state::Motion {
                        body: b,
                        toward: f.toward,
                        dist: f.rest.max(clear),
                        by: f.by,
                        dice: f.att.dice,
                        bounces: 0,
                        past: Some(target),
                    }));
                }
            }
            Striker::Unit(a) if f.melee => {
                // SDE-KB1: melee knockback goes where the winner chooses.
                if self.fixed.kind == MissionKind::KingOfTheHill
                    && let Some(p) = self.standing_on(target)
                {
                    self.now.pending.push(Pending::OffHill {
                        attacker: a,
                        target,
                        spot: self.unit(target).at,
                        piece: p as u8,
                    });
                }
                if let Some(seat) = self.unit(a).owner {
                    self.now.pending.push(Pending::Choose(Choice::Push {
                        seat,
                        mover: target,
                        dist,
                        dice: f.att.dice,
                        optional: false,
                    }));
                } else {
                    // An enemy (no player to choose): directly away from it.
                    self.shove(target, a, dist, f.att.dice);
                }
            }
            _ => {
                // Ranged: along the line of fire, from its start through the target.
                let t = self.unit(target).at;
                let enemy_shot = matches!(f.striker, Striker::Unit(a) if self.unit(a).is_enemy());
                let toward = if f.striker == Striker::Impact {
                    f.toward
                } else if enemy_shot && self.fixed.kind == MissionKind::BattleZones {
                    self.toward_start(t)
                } else {
                    Point::new(2 * t.x - f.from.x, 2 * t.y - f.from.y)
                };
                self.now.pending.push(Pending::Motion(crate::state::Motion {
                    body: target,
                    toward,
                    dist,
                    by: f.by,
                    dice: f.att.dice,
                    bounces: 0,
                    past: None,
                }));
            }
        }
    }

    /// The defender won: SDE-RING.2's stunned outsider, and with overkill in melee
    /// SDE-MELEE's stick of knockback (SDE-SAFARI.2's animals, SDE-SOCCER.2's ball).
    fn defender_wins(&mut self, f: &Fight, overkill: u8, ev: &mut Vec<Event>) {
        let ring = self.fixed.kind == MissionKind::RingBattle;
        let target = f.target;
        if let Striker::Unit(a) = f.striker
            && ring
            && self.unit(a).outside
        {
            self.stun(a, None, ev);
            if let Some(s) = self.unit(target).owner {
                self.earn_cheer(s);
            }
        }
        // SDE-MELEE: a defender who wins with overkill does 1 stick at most.
        if !f.melee || overkill == 0 {
            return;
        }
        // SDE-SAFARI.2: an animal defending in melee knocks back directly away from
        // itself; a unit that beats a charging animal stuns it (a successful attack on
        // an animal stuns instead of knocking back).
        // An enemy defender (no player to choose) does the same, except in BATTLE
        // ZONES, where enemy knockback goes toward the start.
        if let Striker::Unit(a) = f.striker
            && (self.unit(target).is_animal() || self.unit(target).is_enemy())
        {
            self.shove(a, target, STICK, f.def.dice);
            return;
        }
        if let Striker::Animal(animal) = f.striker {
            self.stun(animal, self.unit(target).owner, ev);
            return;
        }
        let Some(seat) = self.unit(target).owner else {
            return; // a ball does not push back
        };
        match f.striker {
            Striker::Unit(a) => {
                // KING OF THE HILL: knocked off by the defender's melee, the defender
                // may take the attacker's place.
                if self.fixed.kind == MissionKind::KingOfTheHill
                    && let Some(p) = self.standing_on(a)
                {
                    self.now.pending.push(Pending::OffHill {
                        attacker: target,
                        target: a,
                        spot: self.unit(a).at,
                        piece: p as u8,
                    });
                }
                self.now.pending.push(Pending::Choose(Choice::Push {
                    seat,
                    mover: a,
                    dist: STICK,
                    dice: f.def.dice,
                    optional: false,
                }))
            }
            // SDE-SOCCER.2: "they may knock the ball as melee".
            Striker::Ball(b) => self.now.pending.push(Pending::Choose(Choice::Push {
                seat,
                mover: b,
                dist: STICK,
                dice: f.def.dice,
                optional: true,
            })),
            Striker::Impact | Striker::Animal(_) => {}
        }
    }

    /// Knockback no player chooses the direction of (an enemy's or an animal's): `body` goes
    /// `dist` directly away from `from` — in BATTLE ZONES, from an enemy, toward the start
    /// ("Any knockback from enemy attacks will push the player unit back towards the start").
    fn shove(&mut self, body: UnitId, from: UnitId, dist: Ticks, dice: u8) {
        let (at, me) = (self.unit(body).at, self.unit(from).at);
        let toward = if self.fixed.kind == MissionKind::BattleZones && self.unit(from).is_enemy() {
            self.toward_start(at)
        } else {
            Point::new(2 * at.x - me.x, 2 * at.y - me.y)
        };
        self.now.pending.push(Pending::Motion(crate::state::Motion {
            body,
            toward,
            dist,
            by: None,
            dice,
            bounces: 0,
            past: None,
        }));
    }

    /// A body becomes stunned (SDE-KB2, SDE-KB3): balls and bombs never are. In SHOOTING
    /// GALLERY the player whose attack did it earns a token for an enemy unit (SDE-GALLERY.2).
    pub fn stun(&mut self, u: UnitId, by: Option<Seat>, ev: &mut Vec<Event>) {
        let x = &mut self.now.units[u as usize];
        if x.is_ball() || x.stunned || x.is_mine() || x.is_target() || x.is_rock() {
            return;
        }
        // SDE-EGG.2: "Instead of taking a STUN, an egg will BREAK OPEN"; "Whoever stuns the
        // boss unit will earn +3 credits- remove the boss from play."
        if x.is_egg() {
            return self.break_egg(u, by);
        }
        if x.is_enemy() && self.fixed.kind == MissionKind::EggHunt {
            return self.beat_boss(u, by, ev);
        }
        // SDE-CONVOY.2: "To CAPTURE an enemy unit, players must stun them".
        if x.is_enemy()
            && self.fixed.kind == MissionKind::Convoy
            && let Some(s) = by
        {
            return self.capture_enemy(u, s, ev);
        }
        let x = &mut self.now.units[u as usize];
        x.stunned = true;
        x.hidden = false;
        let owner = x.owner;
        ev.push(Event::Stunned { unit: u });
        if self.fixed.kind == MissionKind::ShootingGallery
            && let Some(s) = by
            && owner.is_some_and(|o| o != s)
        {
            self.now.tokens[s as usize] += 1;
            ev.push(Event::Token {
                seat: s,
                tokens: self.now.tokens[s as usize],
            });
        }
    }

    /// A VETERAN's re-roll: one die showing `face` is taken back to be rolled again.
    pub fn start_reroll(&mut self, mut f: Fight, side: bool, face: u8) {
        let pool = if side { &mut f.att } else { &mut f.def };
        pool.faces[face as usize - 1] -= 1;
        pool.rolled -= 1;
        pool.rerolled = true;
        f.rerolling = Some(side);
        self.now.phase = crate::state::Phase::Fight(f);
    }
}
