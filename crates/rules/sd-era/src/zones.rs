//! BATTLE ZONES' special rules (SDE-ZONES.2): zones across the table, each with a zone card
//! drawn when it is first entered; blips revealed by touching them (AMBUSH 2, AMBUSH 3,
//! TARGET, BOMB); enemies defeated by knocking them into terrain or out of their zone;
//! bombs knocked into units; the enemy turn (bombs, then enemies moving in front of the
//! closest player unit and attacking, knocking back toward the start); clearing a zone
//! before moving on; scoring by blips.
//!
//! Blips and zone cards are drawn when revealed, from what is left (rulings.md), each a
//! weighted chance point — the alternative, dealing them face down at the start, gives the
//! same odds but hides a secret in the state that every observer would have to be denied.
//! The zone deck and the blip mix are data (`data/scenarios/zones.toml`), marked as ours.

use crate::data::{BASE_RADIUS, STICK};
use crate::events::Event;
use crate::state::{BlipKind, Body, Pending, Phase, SdEra, Trail, UnitId, ZoneCard};
use battlemat_core::{ChanceOutcome, Outcomes, Seat, SetupError};
use battlemat_geom::table::Point;

impl SdEra {
    /// How many zones: the table's depth in zone lengths (a short last one counts).
    pub fn zone_count(&self) -> u8 {
        let l = self.fixed.setup.mission.zone_length.max(1);
        ((self.fixed.table.depth + l - 1) / l).clamp(1, 16) as u8
    }

    /// The zone a point is in (zone 0 at the start end).
    pub fn zone_of(&self, p: Point) -> u8 {
        let l = self.fixed.setup.mission.zone_length.max(1);
        (p.y.max(0) / l).min(i64::from(self.zone_count()) - 1) as u8
    }

    /// Does a unit's move from `from` to `to` go through a blip (its base would overlap the
    /// blip's somewhere on the way)?
    pub fn passes_blip(&self, from: Point, to: Point) -> bool {
        self.now
            .units
            .iter()
            .any(|y| y.is_blip() && y.on_table() && blip_reach(&y.base()).crossed_by(from, to))
    }

    /// The first zone not yet cleared: units may be in it or any zone before it.
    pub fn open_zone(&self) -> u8 {
        self.now.zones.as_ref().map_or(0, |z| z.cleared)
    }

    /// The card of the zone a point is in, once drawn.
    pub fn card_at(&self, p: Point) -> Option<ZoneCard> {
        let z = self.now.zones.as_ref()?;
        z.cards.get(self.zone_of(p) as usize).copied().flatten()
    }

    /// MINOVSKY PARTICLES: is a shot from `from` at `target` limited to 1 stick?
    pub fn minovsky(&self, from: Point, target: Point) -> bool {
        self.now.zones.is_some()
            && [from, target]
                .iter()
                .any(|&p| self.card_at(p) == Some(ZoneCard::MinovskyParticles))
    }

    /// The zone deck's draw: each card left, equally likely.
    pub fn card_outcomes(&self) -> Outcomes {
        let deck = self.now.zones.as_ref().map_or([0; 6], |z| z.deck);
        Outcomes::Weighted(
            (0..6)
                .filter(|&i| deck[i] > 0)
                .map(|i| ChanceOutcome {
                    value: i as u32,
                    weight: u64::from(deck[i]),
                })
                .collect(),
        )
    }

    /// The blips' draw: each kind weighted by how many are left.
    pub fn blip_outcomes(&self) -> Outcomes {
        let left = self.now.zones.as_ref().map_or([0; 4], |z| z.blips);
        Outcomes::Weighted(
            (0..4)
                .filter(|&i| left[i] > 0)
                .map(|i| ChanceOutcome {
                    value: i as u32,
                    weight: u64::from(left[i]),
                })
                .collect(),
        )
    }

    /// "When first entering a zone, draw a ZONE CARD and play it face up."
    pub fn draw_zone_card(&mut self, zone: u8, value: u32, ev: &mut Vec<Event>) {
        let Some(z) = self.now.zones.as_mut() else {
            return;
        };
        let i = (value as usize).min(5);
        z.deck[i] = z.deck[i].saturating_sub(1);
        let card = ZoneCard::ALL[i];
        if let Some(c) = z.cards.get_mut(zone as usize) {
            *c = Some(card);
        }
        ev.push(Event::ZoneCardDrawn { zone, card });
        let (w, l) = (self.fixed.table.width, self.fixed.setup.mission.zone_length);
        let mid = i64::from(zone) * l + l / 2;
        match card {
            // Two asteroids, a third and two thirds across the zone's middle.
            ZoneCard::Asteroids => {
                for x in [w / 3, 2 * w / 3] {
                    self.add_body(Body::Rock, None, Point::new(x, mid));
                }
            }
            // The value-4 enemy, in the zone's middle.
            ZoneCard::Boss => {
                let key = &self.fixed.setup.mission.boss;
                if let Some(k) = self.fixed.kind_of(key) {
                    let b = self.add_body(Body::Unit { kind: k }, None, Point::new(w / 2, mid));
                    ev.push(Event::EnemyArrives { unit: b, by: None });
                }
            }
            _ => {}
        }
        if self.now.round == 0 {
            // The first zone's card, before play: then the roll for turn order.
            self.now.phase = self.turn_order_roll();
        } else {
            self.settle(ev);
        }
    }

    /// After a move (of the unit and any units a transport dropped): a blip one of them
    /// touches is revealed (the lowest id), and a zone entered for the first time draws its
    /// card (cards first). "This ends your move ... but you may still
    /// make a free melee attack at the end of the move that revealed the blip."
    pub fn after_zone_move(&mut self, moved: &[UnitId], ev: &mut Vec<Event>) {
        self.update_zones(ev);
        let mut reveals = Vec::new();
        let mut cards = Vec::new();
        for &unit in moved {
            let blip = self.ids().find(|&b| {
                let y = self.unit(b);
                y.is_blip() && y.on_table() && self.next_to(unit, b)
            });
            if let Some(b) = blip
                && !reveals.iter().any(|&(x, _)| x == b)
            {
                reveals.push((b, unit));
            }
            let zone = self.zone_of(self.unit(unit).at);
            let unseen = self
                .now
                .zones
                .as_ref()
                .is_some_and(|z| z.cards.get(zone as usize).is_some_and(Option::is_none));
            if unseen && !cards.contains(&zone) {
                cards.push(zone);
            }
        }
        if reveals.is_empty() && cards.is_empty() {
            return;
        }
        // The moving unit's touch gives it the free melee; the reveals after the cards.
        if let Some(&(_, unit)) = reveals.first() {
            self.now.charge = Some(unit);
        }
        for &(blip, unit) in reveals.iter().rev() {
            self.now.pending.push(Pending::Reveal { blip, unit });
        }
        for &zone in cards.iter().rev() {
            self.now.pending.push(Pending::ZoneCard { zone });
        }
        self.settle(ev);
    }

    /// A blip touched: AMBUSH NEST makes it an AMBUSH 2 without a draw; otherwise its kind is
    /// drawn. Whether a draw is due (the phase is set).
    pub fn start_reveal(&mut self, blip: UnitId, unit: UnitId, ev: &mut Vec<Event>) -> bool {
        if self.card_at(self.unit(blip).at) == Some(ZoneCard::AmbushNest) {
            return self.reveal(blip, unit, None, ev);
        }
        self.now.phase = Phase::BlipReveal { blip, unit };
        true
    }

    /// The draw for a touched blip came up `value`: reveal it, then play goes on.
    pub fn reveal_drawn(&mut self, blip: UnitId, unit: UnitId, value: u32, ev: &mut Vec<Event>) {
        if !self.reveal(blip, unit, Some(value), ev) {
            self.settle(ev);
        }
    }

    /// What the blip is (`drawn`: an index into `BlipKind::ALL` from the draw, or none for an
    /// AMBUSH NEST). Whether a die or decision is now due.
    pub fn reveal(
        &mut self,
        blip: UnitId,
        unit: UnitId,
        drawn: Option<u32>,
        ev: &mut Vec<Event>,
    ) -> bool {
        let kind = match drawn {
            Some(v) => {
                let i = (v as usize).min(3);
                if let Some(z) = self.now.zones.as_mut() {
                    z.blips[i] = z.blips[i].saturating_sub(1);
                }
                BlipKind::ALL[i]
            }
            None => BlipKind::Ambush2,
        };
        let at = self.unit(blip).at;
        self.now.units[blip as usize].gone = true;
        ev.push(Event::BlipRevealed { blip, kind, unit });
        let m = &self.fixed.setup.mission;
        match kind {
            BlipKind::Ambush2 | BlipKind::Ambush3 => {
                let key = if kind == BlipKind::Ambush2 {
                    &m.ambush2
                } else {
                    &m.ambush3
                };
                let Some(k) = self.fixed.kind_of(key) else {
                    return false;
                };
                let e = self.add_body(Body::Unit { kind: k }, None, at);
                ev.push(Event::EnemyArrives { unit: e, by: None });
                // "it immediately ambushes, making a free shooting attack on the revealing
                // unit" (with no shot — out of sight — it cannot).
                if self.attackable(unit) {
                    let total = self.attack_dice(e, false);
                    let from = self.unit(e).at;
                    if let Ok(dice) = self.aim_dice(e, from, BASE_RADIUS, unit, total) {
                        self.now.trail.push(Trail::Shot {
                            from,
                            to: self.unit(unit).at,
                        });
                        let f = self.unit_fight(e, unit, false, dice, from);
                        self.start_fight(f, ev);
                        return true;
                    }
                }
                false
            }
            BlipKind::Target => {
                self.add_body(Body::Target, None, at);
                false
            }
            BlipKind::Bomb => {
                let toucher = self.unit(unit).owner;
                let b = self.add_body(Body::Mine { toucher }, None, at);
                // "When revealed, roll 1 die: on a 6, the bomb blows up, stunning the
                // revealing unit!"
                self.now.phase = Phase::MineRoll {
                    mine: b,
                    unit: Some(unit),
                };
                true
            }
        }
    }

    /// Does a bomb's die blow it up: a 6, or a 5 or 6 in a MINEFIELD zone.
    fn mine_goes_off(&self, mine: UnitId, face: u8) -> bool {
        face == 6 || (face == 5 && self.card_at(self.unit(mine).at) == Some(ZoneCard::Minefield))
    }

    /// A bomb's die: as it is revealed (stunning the revealing unit if it goes off), or at
    /// the start of the enemy turn (stunning every unit within 1 stick).
    pub fn roll_mine(&mut self, mine: UnitId, unit: Option<UnitId>, face: u8, ev: &mut Vec<Event>) {
        let off = self.mine_goes_off(mine, face);
        match unit {
            Some(u) => {
                if off {
                    self.now.units[mine as usize].gone = true;
                    ev.push(Event::BombExplodes {
                        bomb: mine,
                        hit: vec![u],
                    });
                    self.stun(u, None, ev);
                }
                self.settle(ev);
            }
            None => {
                if off {
                    self.blast(mine, ev);
                }
                match self.next_mine(mine + 1) {
                    Some(m) => {
                        self.now.phase = Phase::MineRoll {
                            mine: m,
                            unit: None,
                        }
                    }
                    None => self.start_enemy_turn(ev),
                }
            }
        }
    }

    /// "they explode, doing a stun to any units, friendly or enemy, within 1 stick."
    fn blast(&mut self, mine: UnitId, ev: &mut Vec<Event>) {
        let hit = self.caught_by_blast(mine, STICK, |x| x.is_unit());
        self.now.units[mine as usize].gone = true;
        ev.push(Event::BombExplodes {
            bomb: mine,
            hit: hit.clone(),
        });
        for u in hit {
            self.stun(u, None, ev);
        }
    }

    /// The next bomb on the table from id `from`.
    fn next_mine(&self, from: UnitId) -> Option<UnitId> {
        (from..self.now.units.len() as UnitId).find(|&m| {
            let x = self.unit(m);
            x.is_mine() && x.on_table()
        })
    }

    /// "ENEMY TURN: After the last player's turn ... Roll 1 die for any BOMBS on the board at
    /// the start of the enemy turn", then the enemies act.
    pub fn start_zone_enemy_turn(&mut self, ev: &mut Vec<Event>) {
        self.now.charge = None;
        self.now.trail.clear();
        match self.next_mine(0) {
            Some(m) => {
                self.now.phase = Phase::MineRoll {
                    mine: m,
                    unit: None,
                }
            }
            None => self.start_enemy_turn(ev),
        }
    }

    /// A revealed enemy's turn: "move in front of the closest player unit, and attack it
    /// (usually by shooting)": up to 1 stick straight toward it, staying in its own zone,
    /// stopping next to it; then a shot, or melee if it has no shot but is next to it.
    pub fn zone_enemy_act(&mut self, e: UnitId, ev: &mut Vec<Event>) -> bool {
        let Some(t) = self.enemy_target(e, i64::MAX / 4) else {
            return false;
        };
        let rows = self.zone_span(self.zone_of(self.unit(e).home));
        self.enemy_step(e, t, STICK, Some(rows), ev);
        self.enemy_strike(e, t, 0, true, ev)
    }

    /// A zone's stretch of the table, from its start-end line to its far line.
    pub fn zone_span(&self, zone: u8) -> (i64, i64) {
        let l = self.fixed.setup.mission.zone_length;
        let lo = i64::from(zone) * l;
        (lo, (lo + l).min(self.fixed.table.depth))
    }

    /// Which way enemy knockback pushes: "back towards the start".
    pub fn toward_start(&self, p: Point) -> Point {
        Point::new(p.x, p.y - STICK)
    }

    /// An enemy or target beaten: removed, and whoever beat it earns the blip.
    pub fn defeat(&mut self, u: UnitId, by: Option<Seat>, ev: &mut Vec<Event>) {
        self.now.units[u as usize].gone = true;
        if let Some(s) = by {
            let t = &mut self.now.tokens[s as usize];
            *t = t.saturating_add(1);
        }
        ev.push(Event::Defeated { unit: u, by });
    }

    /// "Any attack that knocks the 2C unit into terrain or out of the Zone defeats it": an
    /// enemy whose knockback ended outside its zone.
    pub fn left_its_zone(&self, u: UnitId) -> bool {
        let x = self.unit(u);
        x.is_enemy() && self.zone_of(x.at) != self.zone_of(x.home)
    }

    /// "If a bomb is knocked into another unit, it immediately blows up, taking out the
    /// enemy unit or stunning the friendly one. If the bomb takes out an enemy unit, give the
    /// bomb blip to the last player to touch the bomb."
    pub fn mine_hits(&mut self, mine: UnitId, hit: UnitId, ev: &mut Vec<Event>) {
        let y = *self.unit(hit);
        if !y.is_unit() {
            return; // another bomb or anything else: it just stops
        }
        let toucher = match self.unit(mine).body {
            Body::Mine { toucher } => toucher,
            _ => None,
        };
        self.now.units[mine as usize].gone = true;
        ev.push(Event::BombExplodes {
            bomb: mine,
            hit: vec![hit],
        });
        if y.is_enemy() {
            self.defeat(hit, toucher, ev);
            if let Some(s) = toucher {
                let t = &mut self.now.tokens[s as usize];
                *t = t.saturating_add(1);
            }
        } else {
            self.stun(hit, None, ev);
        }
    }

    /// Is zone `z` cleared: every blip in it revealed, every enemy from it and every target
    /// in it beaten?
    fn zone_clear(&self, z: u8) -> bool {
        !self.now.units.iter().any(|x| {
            x.on_table()
                && ((x.is_blip() || x.is_target()) && self.zone_of(x.at) == z
                    || x.is_enemy() && self.zone_of(x.home) == z)
        })
    }

    /// Mark the zones cleared from the start end; whether every zone is.
    pub fn update_zones(&mut self, ev: &mut Vec<Event>) -> bool {
        let n = self.zone_count();
        loop {
            let open = self.open_zone();
            if open >= n {
                return true;
            }
            // A zone is cleared once entered (its card drawn) and emptied.
            let entered = self
                .now
                .zones
                .as_ref()
                .is_some_and(|z| z.cards.get(open as usize).is_some_and(Option::is_some));
            if !entered || !self.zone_clear(open) {
                return false;
            }
            if let Some(z) = self.now.zones.as_mut() {
                z.cleared += 1;
            }
            ev.push(Event::ZoneCleared { zone: open });
        }
    }
}

impl SdEra {
    /// BATTLE ZONES (SDE-ZONES.1): zones as wide as the table, each `zone_length` long; two
    /// blips a player in each, face down, spread evenly; the zone deck and the blips' mix.
    pub(crate) fn set_up_zones(&mut self) -> Result<(), SetupError> {
        let m = &self.fixed.setup.mission;
        let (w, d, l) = (
            self.fixed.table.width,
            self.fixed.table.depth,
            m.zone_length,
        );
        // Whole zones of at least a stick (room for bases and blips), at most 16.
        if l < STICK || l > d || d % l != 0 || d / l > 16 {
            return Err(SetupError::new(
                "mission.zone_length",
                "zones of at least 1 stick that divide the table's depth (at most 16 zones)",
            ));
        }
        for (what, key) in [
            ("ambush2", &m.ambush2),
            ("ambush3", &m.ambush3),
            ("boss", &m.boss),
        ] {
            self.fixed.chart_kind(key, &format!("mission.{what}"))?;
        }
        if m.blip_mix.len() != 4 || m.blip_mix.iter().map(|&p| u32::from(p)).sum::<u32>() != 100 {
            return Err(SetupError::new(
                "mission.blip_mix",
                "four percentages (Ambush 2, Ambush 3, Target, Bomb) adding up to 100",
            ));
        }
        let zones = self.zone_count();
        if m.zone_cards.len() < zones as usize {
            return Err(SetupError::new(
                "mission.zone_cards",
                format!("a card for each of the {zones} zones"),
            ));
        }
        let mut deck = [0u8; 6];
        for c in &m.zone_cards {
            let i = ZoneCard::ALL.iter().position(|x| x == c).unwrap_or(0);
            deck[i] = deck[i].saturating_add(1);
        }
        let per = 2 * self.fixed.players as usize;
        let total = per * zones as usize;
        // The mix in whole blips: the largest remainders round up.
        let exact: Vec<usize> = m.blip_mix.iter().map(|&p| total * p as usize).collect();
        let mut blips = [0u8; 4];
        for (b, e) in blips.iter_mut().zip(&exact) {
            *b = (e / 100) as u8;
        }
        let mut order: Vec<usize> = (0..4).collect();
        order.sort_by_key(|&i| (std::cmp::Reverse(exact[i] % 100), i));
        let short = total - blips.iter().map(|&b| b as usize).sum::<usize>();
        for &i in order.iter().take(short) {
            blips[i] += 1;
        }
        for z in 0..zones {
            let (lo, hi) = self.zone_span(z);
            let inset = (hi - lo) / 4;
            let zone = (STICK / 2, lo + inset, w - STICK / 2, hi - inset);
            if !self.place_in(&vec![Body::Blip; per], zone, true) {
                return Err(SetupError::new(
                    "mission",
                    "no room in a zone for its blips",
                ));
            }
        }
        self.now.zones = Some(crate::state::Zones {
            cards: vec![None; zones as usize],
            deck,
            blips,
            cleared: 0,
        });
        Ok(())
    }
}

/// Where a unit's centre may not pass a blip's base: within a unit's radius of it.
pub(crate) fn blip_reach(blip: &battlemat_geom::table::Base) -> battlemat_geom::table::Outline {
    battlemat_geom::table::Outline::Circle {
        centre: blip.centre,
        radius: blip.radius + BASE_RADIUS,
    }
}
