//! ABQ-6-1 … ABQ-9-7: combat — shooting at range and close combat in the same hex, by one
//! unit or a stack, at one unit or a whole group; the ratio, its rounding in favour of the
//! defence, the column and the results table.
//!
//! An attack is declared step by step (`from HEX`, `with uN` …, `target HEX`, then the unit
//! or group and the kind of attack, then `fire` or `cancel`), so each list stays short even
//! with hundreds of counters, and a player sees the ratio before committing. The lead-off
//! side's attacks are fixed when declared and rolled in the damage check; the follow-up
//! side's are rolled at once (ABQ-3-3: "Both attacks will be deemed to have taken place in a
//! single battle"), so a unit the lead-off hit still returns fire.
//!
//! Rejected: listing every (attackers, target) combination as one action. It is what a
//! search would like, but a stack of four facing a stack of twelve makes thousands, and
//! the list grows with the square of the counters.

use crate::data::{Class, Flag, Weapon};
use crate::events::{Event, Group};
use crate::options::{BigzamClose, BigzamCloseBeams, GroupRanks, GroupShooters};
use crate::state::{AbaoAqu, Attack, Declaring, Phase, Place, Stage, UnitId};
use battlemat_core::Seat;
use battlemat_geom::hexmap::HexId;

/// A seat may cancel this many declarations in one combat phase; then it attacks or is done
/// (ours: a player at a table changes their mind a few times, and a program that cancels
/// and re-declares the same attack for ever would never end the phase).
pub const MAX_CANCELS: u8 = 8;

/// The ratio columns of the tables (ABQ-7-4), weakest first.
pub const COLUMNS: [&str; 9] = [
    "1:3", "1:2", "1:1", "2:1", "3:1", "4:1", "5:1", "6:1", "7:1",
];

/// ABQ-7-5: the column of attack `a` against defence `d`, rounded in favour of the defence
/// (A ≥ D: ⌊A/D⌋:1; A < D: 1:⌈D/A⌉), as an index from 1:3 = 0 — below 0 for worse than
/// 1:3, above 8 for better than 7:1.
pub fn ratio_column(a: u32, d: u32) -> i32 {
    if d == 0 {
        return 8;
    }
    if a >= d {
        (a / d) as i32 + 1
    } else {
        3 - d.div_ceil(a.max(1)) as i32
    }
}

/// The column after `shift` ranks toward the attacker (ABQ-11 … 14), clamped to the tables
/// (rulings.md: "clamp shifts to the 1:3–7:1 range; a ratio worse than 1:3 has no effect"):
/// a starting ratio worse than 1:3 has no effect (None) whatever the shift; a shift stops at
/// 1:3 and at 7:1 (counted from the ratio itself, so 10:1 lowered three ranks is 7:1).
pub fn final_column(a: u32, d: u32, shift: i32) -> Option<u8> {
    if a == 0 {
        return None;
    }
    let start = ratio_column(a, d);
    (start >= 0).then(|| (start + shift).clamp(0, 8) as u8)
}

pub fn column_name(c: Option<u8>) -> String {
    match c {
        Some(c) => COLUMNS[c as usize].to_string(),
        None => "worse than 1:3".to_string(),
    }
}

impl AbaoAqu {
    /// May `u` shoot in this combat phase? (Steady, on the map, not yet fired, with a
    /// weapon that shoots at units.)
    pub fn can_shoot(&self, u: UnitId) -> bool {
        let x = self.unit(u);
        matches!(x.at, Place::Hex(_))
            && !x.fired
            && self.steady(u)
            && !self.has(u, Flag::Satellite)
            && self.weapon(u) != Weapon::Bd
            && (self.anti_ms(u) > 0 || self.anti_ship(u) > 0)
    }

    /// ABQ-9-3: close combat "is only possible by mobile suits", and ABQ-17-3 not by the
    /// Bigzam; once a combat phase (ABQ-8-3, 9-2).
    pub fn can_close(&self, u: UnitId) -> bool {
        let x = self.unit(u);
        matches!(x.at, Place::Hex(_))
            && !x.closed
            && self.steady(u)
            && self.class(u) == Class::Ms
            && !self.has(u, Flag::NoCloseAttack)
            && !self.has(u, Flag::Satellite)
    }

    /// May `u` take part in an attack from its hex now: shoot, or close with an enemy in
    /// its hex?
    pub fn can_attack(&self, u: UnitId) -> bool {
        self.can_shoot(u)
            || (self.can_close(u)
                && self.unit(u).hex().is_some_and(|h| {
                    let side = self.unit(u).side;
                    self.in_hex(h).any(|v| self.unit(v).side != side)
                }))
    }

    /// ABQ-18-5: is the hex under a beam-disruption screen (the target hex or one of its six
    /// neighbours, ABQ-18-4) that works now (`lead_off_screen`)?
    pub fn screened(&self, h: HexId) -> bool {
        self.now
            .screens
            .iter()
            .any(|s| !s.after_battle && self.fixed.layout.map.distance(s.hex, h) <= 1)
    }

    /// ABQ-7-1 … 7-3: one attacker's shooting value from `from` at a target in `to`: anti-MS
    /// or anti-ship by the target, less one a hex of distance, doubled in the same hex; 0
    /// for a beam weapon under a screen (ABQ-18-5) or at a beam-immune target (ABQ-17-4).
    pub fn shot_value(
        &self,
        a: UnitId,
        at_ship: bool,
        from: HexId,
        to: HexId,
        immune: bool,
    ) -> u32 {
        if self.weapon(a) == Weapon::Beam && (immune || self.screened(from) || self.screened(to)) {
            return 0;
        }
        let base = if at_ship {
            self.anti_ship(a)
        } else {
            self.anti_ms(a)
        } as u32;
        let d = self.fixed.layout.map.distance(from, to);
        if d == 0 {
            base * 2
        } else {
            base.saturating_sub(d)
        }
    }

    /// A shooting attack by the shooters among `with` (in `from`) at `targets` (all in
    /// `to`, all ships or all MS units), or None if nobody can hurt them.
    pub fn shoot_attack(
        &self,
        with: &[UnitId],
        from: HexId,
        to: HexId,
        targets: &[UnitId],
    ) -> Option<Attack> {
        let first = *targets.first()?;
        let at_ship = self.target_is_ship(first);
        let beams = with
            .iter()
            .any(|&a| self.can_shoot(a) && self.weapon(a) == Weapon::Beam);
        // ABQ-17-4: a group is shot without its beam-immune members when beams fire at it;
        // one beam-immune target is simply out of the beams' reach.
        let targets: Vec<UnitId> = if targets.len() > 1 && beams {
            targets
                .iter()
                .copied()
                .filter(|&t| !self.has(t, Flag::BeamImmune))
                .collect()
        } else {
            targets.to_vec()
        };
        let immune = targets.len() == 1 && self.has(targets[0], Flag::BeamImmune);
        let mut attackers = Vec::new();
        let mut a = 0;
        for &u in with {
            if !self.can_shoot(u) {
                continue;
            }
            let v = self.shot_value(u, at_ship, from, to, immune);
            if v > 0 {
                attackers.push(u);
                a += v;
            }
        }
        if attackers.is_empty() || targets.is_empty() {
            return None;
        }
        let d: u32 = targets.iter().map(|&t| self.defence(t) as u32).sum();
        // ABQ-11-2 ("completely up to the player"), our `group_ranks` option: the firing
        // side may leave its own counters' ranks in a group target unused.
        let side = self.firing_side();
        let defenders: Vec<UnitId> = match self.fixed.setup.options.group_ranks {
            GroupRanks::Every => targets.clone(),
            GroupRanks::FiringSide => targets
                .iter()
                .copied()
                .filter(|&t| self.unit(t).side != side)
                .collect(),
        };
        let shift = self.rank_of(&attackers, true) - self.rank_of(&defenders, false);
        Some(Attack {
            attackers,
            targets,
            close: false,
            column: final_column(a, d, shift),
        })
    }

    /// Is `t` fought as a ship in close combat (ABQ-9-4, 9-5 (c))? Ships are; the Bigzam
    /// (ABQ-17-2, "treated as a ship for combat purposes") is unless `bigzam_close=ms`.
    pub fn closes_as_ship(&self, t: UnitId) -> bool {
        self.class(t) == Class::Ship
            || (self.has(t, Flag::TargetAsShip)
                && self.fixed.setup.options.bigzam_close == BigzamClose::Ship)
    }

    /// ABQ-9-5: one attacker's close-combat value against `t`, and `t`'s close defence.
    /// ABQ-17-4 with `bigzam_close_beams=immune`: a beam-armed suit's value against a
    /// beam-immune target is 0.
    pub fn close_values(&self, a: UnitId, t: UnitId) -> (u32, u32) {
        if self.has(t, Flag::BeamImmune)
            && self.weapon(a) == Weapon::Beam
            && self.fixed.setup.options.bigzam_close_beams == BigzamCloseBeams::Immune
        {
            return (0, self.anti_ms(t) as u32);
        }
        if self.closes_as_ship(t) {
            // (c) MS vs ship: 2 × anti-ship : anti-MS; the Doros defends with its defence.
            let d = if self.has(t, Flag::CloseDefendsWithDefence) {
                self.defence(t)
            } else {
                self.anti_ms(t)
            };
            (2 * self.anti_ship(a) as u32, d as u32)
        } else if self.class(t) == Class::Ms || self.has(t, Flag::TargetAsShip) {
            // (a) MS vs MS: anti-MS : anti-MS; the Ball's is halved (rounded down) against
            // a mobile suit at close range — attacking (9-5) and, as 14-2's second close
            // combat example counts it ("Ball ... [Anti-MS AP=2 special condition
            // applies]"), defending.
            let half = |u: UnitId, v: u8| {
                if self.has(u, Flag::CloseHalfVsMs) {
                    v as u32 / 2
                } else {
                    v as u32
                }
            };
            (half(a, self.anti_ms(a)), half(t, self.anti_ms(t)))
        } else {
            // (b) MS vs fighters and cannon turrets: 2 × anti-MS : anti-MS.
            (2 * self.anti_ms(a) as u32, self.anti_ms(t) as u32)
        }
    }

    /// ABQ-9-4: "An enemy ship stacked with enemy mobile suits, cannot be attacked by close
    /// combat." `here`: every unit in the ship's hex.
    pub fn shielded_ship(&self, t: UnitId, here: &[UnitId]) -> bool {
        let side = self.unit(t).side;
        self.closes_as_ship(t)
            && here.iter().any(|&v| {
                v != t
                    && self.unit(v).side == side
                    && self.class(v) == Class::Ms
                    && !self.target_is_ship(v)
            })
    }

    /// A close attack by the close fighters among `with` on `t` (ABQ-9-1: in their hex);
    /// `here`: every unit in that hex.
    pub fn close_attack(&self, with: &[UnitId], t: UnitId, here: &[UnitId]) -> Option<Attack> {
        let th = self.unit(t).hex()?;
        if self.shielded_ship(t, here) {
            return None;
        }
        let mut attackers = Vec::new();
        let (mut a, mut d) = (0, 0);
        for &u in with {
            if self.can_close(u) && self.unit(u).hex() == Some(th) {
                let (v, def) = self.close_values(u, t);
                d = def;
                if v > 0 {
                    attackers.push(u);
                    a += v;
                }
            }
        }
        if attackers.is_empty() || a == 0 {
            return None;
        }
        let shift = self.rank_of(&attackers, true) - self.rank_of(&[t], false);
        Some(Attack {
            attackers,
            targets: vec![t],
            close: true,
            column: final_column(a, d, shift),
        })
    }

    /// A group target among `here` (every unit in hex `to`): the MS units or the ships,
    /// friends included (ABQ-8-2, 8-4) — two or more, at least one an enemy of the firing
    /// side.
    pub fn group_attack(
        &self,
        with: &[UnitId],
        from: HexId,
        to: HexId,
        g: Group,
        here: &[UnitId],
    ) -> Option<Attack> {
        let side = self.firing_side();
        // ABQ-8-4, our `group_shooters` option: the shooters in their own hex's group.
        let spared = from == to && self.fixed.setup.options.group_shooters == GroupShooters::Spared;
        let units: Vec<UnitId> = here
            .iter()
            .copied()
            .filter(|&t| self.target_is_ship(t) == (g == Group::Ships))
            .filter(|t| !(spared && with.contains(t)))
            .collect();
        if units.len() < 2 || !units.iter().any(|&t| self.unit(t).side != side) {
            return None;
        }
        self.shoot_attack(with, from, to, &units)
    }

    /// Every way `with` (from `from`) can attack hex `to` with some effect, as actions, in a
    /// fixed order: each enemy unit shot at, the groups, each enemy unit in close combat.
    pub fn aims(
        &self,
        with: &[UnitId],
        from: HexId,
        to: HexId,
        out: &mut Vec<crate::events::Action>,
    ) {
        let here: Vec<UnitId> = self.in_hex(to).collect();
        self.aims_among(with, from, to, &here, out);
    }

    /// [`AbaoAqu::aims`] with the units in `to` already found (`here`, roster order).
    pub fn aims_among(
        &self,
        with: &[UnitId],
        from: HexId,
        to: HexId,
        here: &[UnitId],
        out: &mut Vec<crate::events::Action>,
    ) {
        use crate::events::Action;
        let side = self.firing_side();
        let enemy = |t: &&UnitId| self.unit(**t).side != side;
        // Only attacks that can have an effect (ABQ-7-5: a ratio worse than 1:3 has none);
        // firing one would spend the attackers' shot, and a large missile, for nothing.
        let effective = |a: Option<Attack>| a.is_some_and(|a| a.column.is_some());
        for &t in here.iter().filter(enemy) {
            if effective(self.shoot_attack(with, from, to, &[t])) {
                out.push(Action::Shoot { unit: t });
            }
        }
        for g in [Group::Ms, Group::Ships] {
            if effective(self.group_attack(with, from, to, g, here)) {
                out.push(Action::ShootGroup { group: g });
            }
        }
        if from == to {
            for &t in here.iter().filter(enemy) {
                if effective(self.close_attack(with, t, here)) {
                    out.push(Action::Close { unit: t });
                }
            }
        }
    }

    /// Could `with` attack an enemy in `to`, but only at a ratio worse than 1:3 (so no
    /// attack is offered there, ABQ-7-5)?
    pub fn only_to_no_effect(&self, with: &[UnitId], from: HexId, to: HexId) -> bool {
        let side = self.firing_side();
        let here: Vec<UnitId> = self.in_hex(to).collect();
        here.iter().any(|&t| {
            self.unit(t).side != side
                && (self.shoot_attack(with, from, to, &[t]).is_some()
                    || (from == to && self.close_attack(with, t, &here).is_some()))
        })
    }

    /// May `seat` start an attack from `h`: some of its units there can attack, and an
    /// enemy is within their reach (their best value in hexes: nothing farther can be hit;
    /// the target hexes offered next are judged in full)?
    pub fn can_attack_from(&self, seat: Seat, h: HexId) -> bool {
        let side = self.fixed.seating.side_of(seat);
        let here: Vec<UnitId> = self.in_hex(h).collect();
        let enemy_here = here.iter().any(|&v| self.unit(v).side != side);
        let reach = here
            .iter()
            .filter(|&&u| {
                self.unit(u).seat == seat
                    && (self.can_shoot(u) || (enemy_here && self.can_close(u)))
            })
            .map(|&u| self.anti_ms(u).max(self.anti_ship(u)) as u32)
            .max();
        let Some(reach) = reach else {
            return false;
        };
        let map = &self.fixed.layout.map;
        enemy_here
            || self
                .now
                .units
                .iter()
                .any(|x| x.side != side && x.hex().is_some_and(|e| within_reach(map, h, e, reach)))
    }

    /// The hexes `with` (in `from`) can attack, in map order.
    pub fn target_hexes(&self, with: &[UnitId], from: HexId, out: &mut Vec<HexId>) {
        self.target_hexes_in(&Stacks::of(self), with, from, out)
    }

    /// [`AbaoAqu::target_hexes`] with the stacks found once: the hexes holding an enemy
    /// within the attackers' best value (nothing farther can be hit), each judged in full.
    pub fn target_hexes_in(
        &self,
        stacks: &Stacks,
        with: &[UnitId],
        from: HexId,
        out: &mut Vec<HexId>,
    ) {
        let side = self.firing_side();
        let reach = with
            .iter()
            .map(|&u| self.anti_ms(u).max(self.anti_ship(u)) as u32)
            .max()
            .unwrap_or(0);
        let map = &self.fixed.layout.map;
        let (fc, fr) = map.col_row(from);
        let near = |h: HexId| {
            if h == from {
                return true;
            }
            let (c, r) = map.col_row(h);
            (c as i32 - fc as i32).unsigned_abs() < reach
                && (r as i32 - fr as i32).unsigned_abs() < reach
                && map.distance(from, h) < reach
        };
        let mut buf = Vec::new();
        // Only the rows within reach (stacks are in map order, row by row).
        let cols = u32::from(map.cols);
        let low = (fr as u32).saturating_sub(reach).max(1) - 1;
        let high = fr as u32 + reach;
        let band = (low * cols) as HexId..(high * cols).min(u32::from(HexId::MAX)) as HexId;
        for (h, here) in stacks.among(band) {
            if !near(h) || !here.iter().any(|&t| self.unit(t).side != side) {
                continue;
            }
            buf.clear();
            self.aims_among(with, from, h, here, &mut buf);
            if !buf.is_empty() {
                out.push(h);
            }
        }
    }

    /// Fire a declared attack: the attackers have used their shot (or close attack) this
    /// phase; double-sided counters flip (ABQ-15-3); leading off, the attack waits for the
    /// damage check, following up it is rolled now.
    pub fn fire(&mut self, seat: Seat, attack: Attack, ev: &mut Vec<Event>) {
        for &a in &attack.attackers {
            if attack.close {
                self.unit_mut(a).closed = true;
            } else {
                self.unit_mut(a).fired = true;
            }
            self.flip_if_front(a, ev);
        }
        ev.push(Event::Declared {
            attackers: attack.attackers.clone(),
            targets: attack.targets.clone(),
            close: attack.close,
            column: attack.column.map(|c| COLUMNS[c as usize].to_string()),
        });
        self.now.phase = Phase::Combat {
            seat,
            declaring: Declaring::Idle,
        };
        if attack.column.is_none() {
            return;
        }
        if self.now.stage == Stage::LeadCombat {
            self.now.pending.push(attack);
        } else {
            self.now.phase = Phase::Resolve {
                attacks: vec![attack],
                seat,
            };
        }
    }

    /// One die for an attack (ABQ-7-4): each target still there takes the table's result
    /// for the die, raised for its own morale (ABQ-7-6, 9-6; one die for a group, 8-4).
    pub fn resolve(&mut self, attack: &Attack, face: u8, ev: &mut Vec<Event>) {
        let Some(col) = attack.column else {
            return;
        };
        for &t in &attack.targets {
            if !self.unit(t).alive() {
                continue;
            }
            let modifier = crate::morale::die_modifier(self.unit(t).morale);
            let hit = self
                .fixed
                .setup
                .tables
                .hit(face + modifier, col, attack.close);
            let roll = crate::morale::Roll {
                die: face,
                modifier,
                column: col,
                close: attack.close,
            };
            self.apply_hit(t, hit, roll, ev);
        }
        self.check_destroyed(ev);
    }

    /// The follow-up side's die.
    pub fn roll_resolve(
        &mut self,
        mut attacks: Vec<Attack>,
        seat: Seat,
        face: u8,
        ev: &mut Vec<Event>,
    ) {
        let a = attacks.remove(0);
        self.resolve(&a, face, ev);
        if self.now.outcome.is_some() {
            return;
        }
        attacks.retain(|a| a.targets.iter().any(|&t| self.unit(t).alive()));
        self.now.phase = if attacks.is_empty() {
            Phase::Combat {
                seat,
                declaring: Declaring::Idle,
            }
        } else {
            Phase::Resolve { attacks, seat }
        };
    }

    /// The damage check's die for the first lead-off attack.
    pub fn roll_damage(&mut self, face: u8, ev: &mut Vec<Event>) {
        let a = self.now.pending.remove(0);
        self.resolve(&a, face, ev);
        if self.now.outcome.is_none() {
            self.settle_damage(ev);
        }
    }
}

/// Is `e` fewer than `reach` hexes from `h` (rows and columns first: no distance is
/// worked out for a hex plainly too far)?
pub fn within_reach(map: &battlemat_geom::hexmap::HexMap, h: HexId, e: HexId, reach: u32) -> bool {
    let (hc, hr) = map.col_row(h);
    let (ec, er) = map.col_row(e);
    (hc as i32 - ec as i32).unsigned_abs() < reach
        && (hr as i32 - er as i32).unsigned_abs() < reach
        && map.distance(h, e) < reach
}

/// The hexes holding an enemy of one side, found once for a listing that asks about many
/// hexes, in map order (row by row) with their columns and rows: "is an enemy fewer than
/// `reach` hexes away?" looks only at the band of rows within reach (found by binary
/// search), not at every enemy.
pub struct EnemyHexes {
    /// (hex, column, row), in map order, each hex once.
    hexes: Vec<(HexId, u8, u8)>,
}

impl EnemyHexes {
    /// The hexes with a unit of a side other than `side` on the map.
    pub fn of(g: &AbaoAqu, side: u8) -> EnemyHexes {
        let map = &g.fixed.layout.map;
        let mut hexes: Vec<(HexId, u8, u8)> = g
            .now
            .units
            .iter()
            .filter(|x| x.side != side)
            .filter_map(|x| x.hex())
            .map(|h| {
                let (c, r) = map.col_row(h);
                (h, c, r)
            })
            .collect();
        hexes.sort_unstable();
        hexes.dedup();
        EnemyHexes { hexes }
    }

    /// Is there an enemy in `h`?
    pub fn holds(&self, h: HexId) -> bool {
        self.hexes.binary_search_by_key(&h, |e| e.0).is_ok()
    }

    /// Is an enemy fewer than `reach` hexes from `h` ([`within_reach`])?
    pub fn within(&self, map: &battlemat_geom::hexmap::HexMap, h: HexId, reach: u32) -> bool {
        if reach == 0 {
            return false;
        }
        let (c, r) = map.col_row(h);
        // The first hex of the first row within reach (rows from 1, hexes row by row).
        let first = (r as u32).saturating_sub(reach).max(1) - 1;
        let start = self
            .hexes
            .partition_point(|e| u32::from(e.0) < first * u32::from(map.cols));
        self.hexes[start..]
            .iter()
            .take_while(|e| (e.2 as u32) < r as u32 + reach)
            .any(|e| {
                (e.1 as i32 - c as i32).unsigned_abs() < reach
                    && (e.2 as i32 - r as i32).unsigned_abs() < reach
                    && map.distance(h, e.0) < reach
            })
    }
}

/// Every stack on the map, found once: the units on the map sorted by hex (map order),
/// then roster order — so that a listing that asks about many hexes reads each stack as a
/// slice instead of scanning every counter.
pub struct Stacks {
    units: Vec<UnitId>,
    /// Each stack: its hex and its units' range in `units`, in map order.
    stacks: Vec<(HexId, u32, u32)>,
}

impl Stacks {
    pub fn of(g: &AbaoAqu) -> Stacks {
        let mut pairs: Vec<(HexId, UnitId)> = g
            .now
            .units
            .iter()
            .enumerate()
            .filter_map(|(u, x)| x.hex().map(|h| (h, u as UnitId)))
            .collect();
        pairs.sort_unstable();
        let mut stacks: Vec<(HexId, u32, u32)> = Vec::new();
        for (i, &(h, _)) in pairs.iter().enumerate() {
            match stacks.last_mut() {
                Some(last) if last.0 == h => last.2 = i as u32 + 1,
                _ => stacks.push((h, i as u32, i as u32 + 1)),
            }
        }
        Stacks {
            units: pairs.into_iter().map(|p| p.1).collect(),
            stacks,
        }
    }

    /// The units in `h`, in roster order.
    pub fn here(&self, h: HexId) -> &[UnitId] {
        match self.stacks.binary_search_by_key(&h, |s| s.0) {
            Ok(i) => {
                let (_, a, b) = self.stacks[i];
                &self.units[a as usize..b as usize]
            }
            Err(_) => &[],
        }
    }

    /// Each stack whose hex is in `hexes` (a range of hex numbers), in map order.
    pub fn among(&self, hexes: std::ops::Range<HexId>) -> impl Iterator<Item = (HexId, &[UnitId])> {
        let a = self.stacks.partition_point(|s| s.0 < hexes.start);
        let b = self.stacks.partition_point(|s| s.0 < hexes.end);
        self.stacks[a..b.max(a)]
            .iter()
            .map(|&(h, a, b)| (h, &self.units[a as usize..b as usize]))
    }

    /// Each stack, with its hex, in map order.
    pub fn all(&self) -> impl Iterator<Item = (HexId, &[UnitId])> {
        self.stacks
            .iter()
            .map(|&(h, a, b)| (h, &self.units[a as usize..b as usize]))
    }
}
