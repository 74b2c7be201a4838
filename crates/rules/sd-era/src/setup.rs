//! Set-up (SDE-T2 points and the three-unit limit; each mission's .1 set-up): checking a
//! setup once into the fixed part of a game, placing the armies on their board edges, the
//! draft, and checking a saved state as strictly.
//!
//! Where units start: the text says "players start on any board edge". We give each seat a
//! place on the edge (its *post*: two players face each other across the table; three to
//! six go round it clockwise) and stand its units side by side there, bases touching the
//! edge, half a stick apart. A post is also where a seat's SOCCER goal is, and which way is
//! "in front of the player" in RING BATTLE.

use crate::data::{Armies, BALL_RADIUS, BASE_RADIUS, MissionKind, STICK, Setup, Special, UnitType};
use crate::legal::Why;
use crate::state::{Back, Body, Fixed, Phase, Progress, SdEra, Unit, UnitId};
use battlemat_core::{Seat, SetupError};
use battlemat_geom::table::{Base, Landing, Point, Ticks, toward};
use std::sync::Arc;

pub const MAX_PLAYERS: u8 = 6;

/// One line of the chart on its own: a value of 1 to 6, and CHEAP only on value 2 or 3.
pub fn check_unit_type(key: &str, u: &UnitType) -> Result<(), SetupError> {
    if !(1..=6).contains(&u.value) {
        return Err(SetupError::new(
            format!("{key}.value"),
            format!("{}: a value is 1 to 6 dice", u.value),
        ));
    }
    if u.special == Some(Special::C) && !(2..=3).contains(&u.value) {
        return Err(SetupError::new(
            format!("{key}.special"),
            "CHEAP is for value 2 or 3 units only (SDE-C)",
        ));
    }
    Ok(())
}

/// Each seat's place on the table edge, as (edge, fraction along it): edges S, W, N, E are
/// 0..4; seats go clockwise from the near edge. In CONVOY (ours: the players escort the
/// ship) and BATTLE ZONES ("Everyone starts at one end") everyone starts along the near edge.
fn post_places(kind: MissionKind, players: u8) -> Vec<(u8, (i64, i64))> {
    if matches!(kind, MissionKind::Convoy | MissionKind::BattleZones) {
        let n = i64::from(players);
        return (0..n).map(|s| (0, (2 * s + 1, 2 * n))).collect();
    }
    post_places_around(players).to_vec()
}

fn post_places_around(players: u8) -> &'static [(u8, (i64, i64))] {
    const HALF: (i64, i64) = (1, 2);
    match players {
        2 => &[(0, HALF), (2, HALF)],
        3 => &[(0, HALF), (1, HALF), (3, HALF)],
        4 => &[(0, HALF), (1, HALF), (2, HALF), (3, HALF)],
        5 => &[(0, HALF), (1, HALF), (2, (1, 3)), (2, (2, 3)), (3, HALF)],
        _ => &[
            (0, (2, 3)),
            (0, (1, 3)),
            (1, HALF),
            (2, (1, 3)),
            (2, (2, 3)),
            (3, HALF),
        ],
    }
}

/// A point on edge `edge` at `frac` of its length, `inset` ticks in from it; and the
/// direction along the edge.
fn on_edge(
    w: Ticks,
    d: Ticks,
    edge: u8,
    frac: (i64, i64),
    inset: Ticks,
) -> (Point, (Ticks, Ticks)) {
    match edge {
        0 => (Point::new(w * frac.0 / frac.1, inset), (1, 0)),
        1 => (Point::new(inset, d * frac.0 / frac.1), (0, 1)),
        2 => (Point::new(w * frac.0 / frac.1, d - inset), (1, 0)),
        _ => (Point::new(w - inset, d * frac.0 / frac.1), (0, 1)),
    }
}

/// Check a setup once and make the fixed part and the first state.
pub fn check_setup(s: &Setup) -> Result<(Fixed, Progress), SetupError> {
    let m = &s.mission;
    m.table
        .check()
        .map_err(|e| SetupError::new("mission.table", e))?;
    if m.terrain_names.len() != m.table.pieces.len() {
        return Err(SetupError::new(
            "mission.terrain_names",
            "one name for each terrain piece",
        ));
    }
    if !(2..=MAX_PLAYERS).contains(&s.players) {
        return Err(SetupError::new(
            "players",
            format!(
                "SD ERA is for 2 to {MAX_PLAYERS} players, not {}",
                s.players
            ),
        ));
    }
    if s.players < m.min_seats || s.players > m.max_seats {
        return Err(SetupError::new(
            "players",
            format!(
                "{} is for {} to {} players",
                m.name, m.min_seats, m.max_seats
            ),
        ));
    }
    for (k, u) in &s.chart {
        check_unit_type(&format!("chart.{k}"), u)?;
    }
    let chart: Vec<(String, UnitType)> = s.chart.clone().into_iter().collect();
    let draft = s.options.armies == Armies::Draft;
    if s.armies.len() != s.players as usize {
        return Err(SetupError::new(
            "armies",
            format!(
                "{} armies for {} players{}",
                s.armies.len(),
                s.players,
                if draft {
                    " (a draft starts with empty ones)"
                } else {
                    ""
                }
            ),
        ));
    }
    if m.kind_needs_ring() && m.ring_radius <= 0 {
        return Err(SetupError::new(
            "mission.ring_radius",
            "a ring battle needs a ring",
        ));
    }
    let (w, d) = (m.table.width, m.table.depth);
    let centre = Point::new(w / 2, d / 2);
    let places = post_places(m.mission, s.players);
    let posts: Vec<Point> = places
        .iter()
        .map(|&(e, f)| on_edge(w, d, e, f, 0).0)
        .collect();
    let goals = places
        .iter()
        .map(|&(e, f)| {
            let (p, dir) = on_edge(w, d, e, f, 0);
            let len = if dir.0 != 0 { w } else { d };
            let half = m.goal_width / 2;
            let along = if dir.0 != 0 { p.x } else { p.y };
            let lo = (along - half).clamp(0, (len - m.goal_width).max(0));
            let hi = (lo + m.goal_width).min(len);
            if dir.0 != 0 {
                (Point::new(lo, p.y), Point::new(hi, p.y))
            } else {
                (Point::new(p.x, lo), Point::new(p.x, hi))
            }
        })
        .collect();
    let fixed = Fixed {
        setup: s.clone(),
        chart,
        players: s.players,
        kind: m.mission,
        table: m.table.clone(),
        goals,
        posts,
        centre,
        options: s.options.clone(),
        piece_bounds: m.table.pieces.iter().map(|p| p.outline.bounds()).collect(),
        any_holds: m.table.pieces.iter().any(|p| p.holds > 0),
        piece_centres: m
            .table
            .pieces
            .iter()
            .map(|p| crate::movement::piece_centre(&p.outline))
            .collect(),
    };
    let mut now = Progress {
        units: Vec::new(),
        phase: Phase::Turn,
        active: 0,
        first: 0,
        round: 0,
        tokens: vec![m.start_tokens; s.players as usize],
        collected: false,
        charge: None,
        pending: Vec::new(),
        back: Back::Turn,
        out_at: vec![0; s.players as usize],
        drafted: 0,
        trail: Vec::new(),
        turns: 0,
        eggs: None,
        convoy: None,
        zones: None,
        result: None,
    };
    // Balls and bombs in the centre (two side by side with three or more players).
    let balls = if s.players >= 3 {
        m.balls_many_players
    } else {
        m.balls
    };
    for i in 0..balls {
        let x = if balls == 1 {
            centre.x
        } else {
            centre.x - STICK / 2 + i as Ticks * STICK
        };
        let at = Point::new(x, centre.y);
        let body = if m.mission == MissionKind::KickBomb {
            Body::Bomb { dice: 1 }
        } else {
            Body::Ball
        };
        let ball = new_unit(body, None, at);
        let others: Vec<Base> = now.units.iter().map(Unit::base).collect();
        if !matches!(fixed.table.landing(&ball.base(), &others), Landing::Ground) {
            return Err(SetupError::new(
                "mission",
                "the centre of the table must be clear for the ball or bomb",
            ));
        }
        now.units.push(ball);
    }
    let mut game = SdEra {
        fixed: Arc::new(fixed),
        now,
    };
    // SAFARI: the animals, evenly over the part of the table at least 2 sticks from every
    // edge (SDE-SAFARI.1).
    if m.mission == MissionKind::Safari {
        if m.animals.is_empty() || m.animals.iter().any(|v| !(1..=6).contains(v)) {
            return Err(SetupError::new(
                "mission.animals",
                "a safari needs animals, each worth 1 to 6 (the text: one to four)",
            ));
        }
        let bodies: Vec<Body> = (0..s.players)
            .flat_map(|_| m.animals.iter().map(|&value| Body::Animal { value }))
            .collect();
        game.place_evenly(&bodies, 2 * STICK, false).map_err(|e| {
            SetupError::new(
                "mission",
                format!("no room on the table for the animals{e}"),
            )
        })?;
    }
    // CONVOY: the ship at the near end, pointing to the far end, and the enemy pool
    // (SDE-CONVOY.1).
    if m.mission == MissionKind::Convoy {
        let mut pool = vec![0u8; game.fixed.chart.len()];
        if m.enemies.is_empty() || m.enemies.len() > 100 {
            return Err(SetupError::new(
                "mission.enemies",
                "a convoy needs a pool of 1 to 100 enemy units",
            ));
        }
        for (i, key) in m.enemies.iter().enumerate() {
            let at = format!("mission.enemies[{i}]");
            let k = game
                .fixed
                .chart
                .iter()
                .position(|(c, _)| c == key)
                .ok_or_else(|| SetupError::new(&at, format!("{key:?} is not in the unit chart")))?;
            if game.fixed.chart[k].1.is(Special::T) {
                return Err(SetupError::new(&at, "enemies are anything but transports"));
            }
            pool[k] = pool[k].saturating_add(1);
        }
        let at = Point::new(w / 2, STICK);
        game.now.units.push(new_unit(Body::Ship, None, at));
        let ship = (game.now.units.len() - 1) as crate::state::UnitId;
        let others = game.bases_except(&[ship]);
        if !matches!(
            game.fixed.table.landing(&game.unit(ship).base(), &others),
            Landing::Ground
        ) {
            return Err(SetupError::new(
                "mission",
                "the ship's place (the middle of the near end, 1 stick in) must be clear",
            ));
        }
        game.now.convoy = Some(crate::state::Convoy {
            pool,
            order: Vec::new(),
            ship,
            started: false,
            arrived: false,
        });
    }
    // BATTLE ZONES: zones as wide as the table, each `zone_length` long; two blips a
    // player in each, face down, spread evenly (SDE-ZONES.1).
    if m.mission == MissionKind::BattleZones {
        // Whole zones of at least a stick (room for bases and blips), at most 16.
        if m.zone_length < STICK
            || m.zone_length > d
            || d % m.zone_length != 0
            || d / m.zone_length > 16
        {
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
            if !game.fixed.chart.iter().any(|(k, _)| k == key) {
                return Err(SetupError::new(
                    format!("mission.{what}"),
                    format!("{key:?} is not in the unit chart"),
                ));
            }
        }
        if m.blip_mix.len() != 4 || m.blip_mix.iter().map(|&p| u32::from(p)).sum::<u32>() != 100 {
            return Err(SetupError::new(
                "mission.blip_mix",
                "four percentages (Ambush 2, Ambush 3, Target, Bomb) adding up to 100",
            ));
        }
        let zones = game.zone_count();
        let per = 2 * s.players as usize;
        let total = per * zones as usize;
        // The mix, in whole blips: the largest remainders round up.
        let exact: Vec<usize> = m.blip_mix.iter().map(|&p| total * p as usize).collect();
        let mut blips: Vec<usize> = exact.iter().map(|e| e / 100).collect();
        let mut order: Vec<usize> = (0..4).collect();
        order.sort_by_key(|&i| (std::cmp::Reverse(exact[i] % 100), i));
        for &i in order.iter().take(total - blips.iter().sum::<usize>()) {
            blips[i] += 1;
        }
        let mut deck = [0u8; 6];
        for c in &m.zone_cards {
            let i = crate::state::ZoneCard::ALL
                .iter()
                .position(|x| x == c)
                .unwrap_or(0);
            deck[i] = deck[i].saturating_add(1);
        }
        if (m.zone_cards.len() as u8) < zones {
            return Err(SetupError::new(
                "mission.zone_cards",
                format!("a card for each of the {zones} zones"),
            ));
        }
        for z in 0..zones {
            let (lo, hi) = game.zone_span(z);
            let inset = (hi - lo) / 4;
            game.place_in(
                &vec![Body::Blip; per],
                (STICK / 2, lo + inset, w - STICK / 2, hi - inset),
                true,
            )
            .map_err(|_| SetupError::new("mission", "no room in a zone for its blips"))?;
        }
        game.now.zones = Some(crate::state::Zones {
            cards: vec![None; zones as usize],
            deck,
            blips: [
                blips[0] as u8,
                blips[1] as u8,
                blips[2] as u8,
                blips[3] as u8,
            ],
            cleared: 0,
        });
    }
    // EGG HUNT: 6 eggs a player and the boss's, evenly over the table at least 1 stick from
    // every edge (SDE-EGG.1); what each holds is drawn when it breaks open.
    if m.mission == MissionKind::EggHunt {
        if !game.fixed.chart.iter().any(|(k, _)| *k == m.boss) {
            return Err(SetupError::new(
                "mission.boss",
                format!(
                    "{:?} is not in the unit chart (an egg hunt needs a boss)",
                    m.boss
                ),
            ));
        }
        let n = s.players as usize;
        game.place_evenly(&vec![Body::Egg; 6 * n + 1], STICK, true)
            .map_err(|e| {
                SetupError::new("mission", format!("no room on the table for the eggs{e}"))
            })?;
        game.now.eggs = Some(crate::state::EggContents {
            units: ((1u16 << n) - 1) as u8,
            bombs: n as u8,
            candy: n as u8,
            credits: 3 * n as u8,
            boss: 1,
        });
    }
    for (seat, army) in s.armies.iter().enumerate() {
        let at = format!("armies[{seat}]");
        let mut kinds = Vec::new();
        for (i, key) in army.iter().enumerate() {
            let k = game
                .fixed
                .chart
                .iter()
                .position(|(c, _)| c == key)
                .ok_or_else(|| {
                    SetupError::new(
                        format!("{at}[{i}]"),
                        format!("{key:?} is not in the unit chart"),
                    )
                })?;
            kinds.push(k as u16);
        }
        if !draft {
            game.check_army(seat as Seat, &kinds, &at)?;
        }
        for k in kinds {
            game.place_unit(seat as Seat, k)
                .map_err(|e| SetupError::new(&at, e))?;
        }
    }
    game.now.phase = if draft {
        Phase::Draft { seat: 0 }
    } else {
        Phase::Turn
    };
    if !draft {
        game.start_play();
    }
    let SdEra { fixed, now } = game;
    Ok((Arc::unwrap_or_clone(fixed), now))
}

impl crate::data::Mission {
    fn kind_needs_ring(&self) -> bool {
        self.mission == MissionKind::RingBattle
    }
}

pub(crate) fn new_unit(body: Body, owner: Option<Seat>, at: Point) -> Unit {
    Unit {
        body,
        owner,
        at,
        home: at,
        stunned: false,
        hidden: false,
        actions: 0,
        fast_move: false,
        aboard: None,
        cheer: 0,
        outside: false,
        waiting: false,
        captured: None,
        gone: false,
        fresh: false,
    }
}

impl SdEra {
    /// The army's points and units (SDE-T2): at most the points, at most `most_units` units
    /// besides transports, at least `least_units`.
    pub fn check_army(&self, _seat: Seat, kinds: &[u16], at: &str) -> Result<(), SetupError> {
        let m = &self.fixed.setup.mission;
        let types: Vec<&UnitType> = kinds
            .iter()
            .map(|k| &self.fixed.chart[*k as usize].1)
            .collect();
        let cost: u32 = types.iter().map(|t| u32::from(t.cost())).sum();
        let counted = types.iter().filter(|t| !t.is(Special::T)).count();
        if kinds.is_empty() {
            return Err(SetupError::new(at, "an army needs at least one unit"));
        }
        if m.most_units > 0 && counted > m.most_units as usize {
            return Err(SetupError::new(
                at,
                format!(
                    "{counted} units: at most {} a player, transports not counted (SDE-T2)",
                    m.most_units
                ),
            ));
        }
        if counted < m.least_units as usize {
            return Err(SetupError::new(
                at,
                format!(
                    "{counted} units: {} needs at least {}",
                    m.name, m.least_units
                ),
            ));
        }
        let points = self.points_cap();
        if cost > u32::from(points) {
            return Err(SetupError::new(
                at,
                format!("{cost} points: at most {points} a player (SDE-T2)"),
            ));
        }
        Ok(())
    }

    /// The points a player may spend: the mission's, or the `points` option in a draft.
    pub fn points_cap(&self) -> u8 {
        if self.fixed.options.armies == Armies::Draft {
            self.fixed.options.points
        } else {
            self.fixed.setup.mission.points
        }
    }

    /// Put a new unit of `seat`'s on the table: side by side along its post's edge, or in
    /// RING BATTLE just inside the ring in front of it.
    pub fn place_unit(&mut self, seat: Seat, kind: u16) -> Result<(), String> {
        let f = &self.fixed;
        let others: Vec<Base> = self.now.units.iter().map(Unit::base).collect();
        let spots = self.start_spots(seat);
        let at = spots
            .into_iter()
            .find(|p| {
                matches!(
                    f.table.landing(&Base::new(*p, BASE_RADIUS), &others),
                    Landing::Ground
                )
            })
            .ok_or_else(|| format!("no room for player {}'s units", seat + 1))?;
        self.now
            .units
            .push(new_unit(Body::Unit { kind }, Some(seat), at));
        Ok(())
    }

    /// Where a seat's units may start, best first.
    pub fn start_spots(&self, seat: Seat) -> Vec<Point> {
        let f = &self.fixed;
        let (w, d) = (f.table.width, f.table.depth);
        let mut out = Vec::new();
        if f.kind == MissionKind::RingBattle {
            let r = f.setup.mission.ring_radius;
            let post = f.posts[seat as usize];
            for depth in [STICK / 2, STICK, 3 * STICK / 2] {
                let front = toward(f.centre, post, r - depth);
                let v = (post.x - f.centre.x, post.y - f.centre.y);
                let across = Point::new(front.x - v.1, front.y + v.0);
                for k in [0i64, 1, -1, 2, -2, 3, -3] {
                    out.push(toward(front, across, k * STICK / 2));
                }
            }
            return out;
        }
        let (edge, frac) = post_places(f.kind, f.players)[seat as usize];
        // Half a stick apart along the edge, nearest the post first; closer, and then a
        // second row behind, when the edge is crowded.
        let (p, dir) = on_edge(w, d, edge, frac, BASE_RADIUS);
        for k in 0..8i64 {
            let side = if k % 2 == 0 { k / 2 } else { -(k / 2) - 1 };
            out.push(Point::new(
                p.x + dir.0 * side * STICK / 2,
                p.y + dir.1 * side * STICK / 2,
            ));
        }
        let step = 2 * BASE_RADIUS + STICK / 24;
        for row in 0..2 {
            let (p, dir) = on_edge(w, d, edge, frac, BASE_RADIUS + row * step);
            for k in 0..16i64 {
                let side = if k % 2 == 0 { k / 2 } else { -(k / 2) - 1 };
                out.push(Point::new(
                    p.x + dir.0 * side * step,
                    p.y + dir.1 * side * step,
                ));
            }
        }
        out
    }

    /// RING BATTLE: spots outside the ring near `seat`'s table edge, half a stick apart.
    pub fn edge_spots(&self, seat: Seat) -> Vec<Point> {
        let f = &self.fixed;
        let (edge, frac) = post_places(f.kind, f.players)[seat as usize];
        let (p, dir) = on_edge(f.table.width, f.table.depth, edge, frac, BASE_RADIUS);
        (0..12i64)
            .map(|k| {
                let side = if k % 2 == 0 { k / 2 } else { -(k / 2) - 1 };
                Point::new(
                    p.x + dir.0 * side * STICK / 2,
                    p.y + dir.1 * side * STICK / 2,
                )
            })
            .collect()
    }

    /// How far a point is from `seat`'s table edge.
    pub fn from_own_edge(&self, seat: Seat, p: Point) -> Ticks {
        let f = &self.fixed;
        match post_places(f.kind, f.players)[seat as usize].0 {
            0 => p.y,
            1 => p.x,
            2 => f.table.depth - p.y,
            _ => f.table.width - p.x,
        }
    }

    /// A body put on the table by a mission's rule at `at` (or the nearest clear point to
    /// it): what comes out of an egg or a blip, an enemy drawn; its id.
    pub(crate) fn add_body(&mut self, body: Body, owner: Option<Seat>, at: Point) -> UnitId {
        self.now.units.push(new_unit(body, owner, at));
        let id = (self.now.units.len() - 1) as UnitId;
        let spot = self.clear_spot_near(id, at);
        let x = &mut self.now.units[id as usize];
        x.at = spot;
        x.home = spot;
        id
    }

    /// Where a body is put back (balls after a goal or bomb blast): its home, or the nearest
    /// clear point to it.
    pub fn clear_spot_near(&self, u: crate::state::UnitId, home: Point) -> Point {
        let r = self.unit(u).radius();
        let others = self.bases_except(&[u]);
        let ok = |p: Point| {
            matches!(
                self.fixed.table.landing(&Base::new(p, r), &others),
                Landing::Ground
            )
        };
        if ok(home) {
            return home;
        }
        for ring in 1..=24i64 {
            for k in 0..8i64 {
                let step = ring * BALL_RADIUS;
                let (dx, dy) = [
                    (1, 0),
                    (1, 1),
                    (0, 1),
                    (-1, 1),
                    (-1, 0),
                    (-1, -1),
                    (0, -1),
                    (1, -1),
                ][k as usize];
                let p = Point::new(home.x + dx * step, home.y + dy * step);
                if ok(p) {
                    return p;
                }
            }
        }
        home
    }

    /// Bodies placed evenly over the table `margin` from every edge, in rows, the first row
    /// nearest the near edge; a short last row centred if `centre_last` (SAFARI's animals,
    /// placed before it was, keep their places so their records replay) (each nudged clear of terrain if it must be).
    fn place_evenly(
        &mut self,
        bodies: &[Body],
        margin: Ticks,
        centre_last: bool,
    ) -> Result<(), &'static str> {
        let (w, d) = (self.fixed.table.width, self.fixed.table.depth);
        self.place_in(
            bodies,
            (margin, margin, w - margin, d - margin),
            centre_last,
        )
    }

    /// Bodies placed evenly over the box `(x0, y0, x1, y1)`: as many columns as make the
    /// cells about square, in rows from the near side.
    fn place_in(
        &mut self,
        bodies: &[Body],
        (x0, y0, x1, y1): (Ticks, Ticks, Ticks, Ticks),
        centre_last: bool,
    ) -> Result<(), &'static str> {
        let margin = x0;
        let n = bodies.len() as i64;
        let (span_x, span_y) = ((x1 - x0).max(0), (y1 - y0).max(0));
        let cols = (1..=n)
            .find(|c| (c * c) as i128 * span_y.max(1) as i128 >= (n as i128) * span_x as i128)
            .unwrap_or(n.max(1));
        let rows = (n + cols - 1) / cols;
        for (i, &body) in bodies.iter().enumerate() {
            let (c, r) = (i as i64 % cols, i as i64 / cols);
            // A short last row is centred.
            let in_row = if centre_last && r == rows - 1 {
                n - cols * r
            } else {
                cols
            };
            let at = Point::new(
                margin + span_x * (2 * c + 1) / (2 * in_row),
                y0 + span_y * (2 * r + 1) / (2 * rows),
            );
            self.now.units.push(new_unit(body, None, at));
            let id = (self.now.units.len() - 1) as crate::state::UnitId;
            let spot = self.clear_spot_near(id, at);
            self.now.units[id as usize].at = spot;
            self.now.units[id as usize].home = spot;
            let others = self.bases_except(&[id]);
            if !matches!(
                self.fixed.table.landing(&self.unit(id).base(), &others),
                Landing::Ground
            ) {
                return Err("");
            }
        }
        Ok(())
    }

    /// After the armies are set: hiding at the start, then the roll for turn order.
    pub fn start_play(&mut self) {
        // RING BATTLE: the players place their units themselves, after the roll for turn
        // order (SDE-RING.1).
        if self.fixed.kind == MissionKind::RingBattle {
            for u in &mut self.now.units {
                u.waiting = u.is_unit();
            }
        }
        match self.next_hider(0) {
            Some(seat) => self.now.phase = Phase::StartHidden { seat },
            // What the first step sets off is in the state (CONVOY's first enemy turn moves
            // the ship); a new game has no event log yet.
            None => self.begin_play(&mut Vec::new()),
        }
    }

    /// The first seat from `from` with a unit that may hide at the start (SDE-H; none in
    /// RING BATTLE, SDE-RING.1).
    pub fn next_hider(&self, from: Seat) -> Option<Seat> {
        (from..self.fixed.players).find(|&s| {
            self.ids().any(|u| {
                self.unit(u).owner == Some(s) && self.has(u, Special::H) && !self.unit(u).hidden
            })
        })
    }
}

/// Check a saved state as strictly as a setup: the bodies match the setup's, every unit is
/// on the table or aboard a transport, and the phase names units that exist.
pub fn check_progress(fixed: &Fixed, now: &Progress) -> Result<(), SetupError> {
    let n = fixed.players as usize;
    if now.tokens.len() != n || now.out_at.len() != n {
        return Err(SetupError::new(
            "now.tokens",
            format!("one count per player ({n})"),
        ));
    }
    if now.active >= fixed.players || now.first >= fixed.players {
        return Err(SetupError::new("now.active", "no such player"));
    }
    let count = now.units.len();
    if count > 250 {
        return Err(SetupError::new("now.units", "too many units"));
    }
    for (i, u) in now.units.iter().enumerate() {
        let at = format!("now.units[{i}]");
        if let Body::Unit { kind } = u.body
            && kind as usize >= fixed.chart.len()
        {
            return Err(SetupError::new(at, "a unit kind not in the chart"));
        }
        let m = battlemat_geom::table::MAX_COORD as u64;
        if [u.at.x, u.at.y, u.home.x, u.home.y]
            .iter()
            .any(|c| c.unsigned_abs() > m)
        {
            return Err(SetupError::new(at, "a position far off the table"));
        }
        if u.owner.is_some_and(|s| s >= fixed.players) {
            return Err(SetupError::new(at, "owned by no player"));
        }
        if !u.is_unit() && u.owner.is_some() {
            return Err(SetupError::new(
                at,
                "only units have owners; balls, bombs, animals and eggs do not",
            ));
        }
        if u.is_enemy()
            && !matches!(
                fixed.kind,
                MissionKind::EggHunt | MissionKind::Convoy | MissionKind::BattleZones
            )
        {
            return Err(SetupError::new(at, "a unit with no owner"));
        }
        if let Some(t) = u.aboard
            && (t as usize >= count || now.units[t as usize].aboard.is_some())
        {
            return Err(SetupError::new(at, "aboard no transport"));
        }
        if u.on_table() {
            let b = u.base();
            if !fixed.table.on_table(&b) {
                return Err(SetupError::new(at, "off the table"));
            }
        }
        if u.actions > 2 {
            return Err(SetupError::new(at, "a unit has two actions a turn"));
        }
    }
    check_references(fixed, now)?;
    let _ = BALL_RADIUS;
    Ok(())
}

/// Every unit, seat and piece a saved state's phase, pending steps and charge name exists.
fn check_references(fixed: &Fixed, now: &Progress) -> Result<(), SetupError> {
    use crate::state::{Choice, Fight, Pending, Striker};
    let n = now.units.len();
    let players = fixed.players;
    let unit = |u: u8, at: &str| -> Result<(), SetupError> {
        if (u as usize) < n {
            Ok(())
        } else {
            Err(SetupError::new(
                at,
                format!("names unit u{u}, which does not exist"),
            ))
        }
    };
    let seat = |s: u8, at: &str| -> Result<(), SetupError> {
        if s < players {
            Ok(())
        } else {
            Err(SetupError::new(
                at,
                format!("names seat {s}, which does not exist"),
            ))
        }
    };
    let fight = |f: &Fight, at: &str| -> Result<(), SetupError> {
        if let Striker::Unit(u) | Striker::Ball(u) | Striker::Animal(u) = f.striker {
            unit(u, at)?;
        }
        unit(f.target, at)?;
        if let Some(s) = f.by {
            seat(s, at)?;
        }
        Ok(())
    };
    let choice = |c: &Choice, at: &str| -> Result<(), SetupError> {
        seat(c.seat(), at)?;
        match *c {
            Choice::Push { mover, .. } => unit(mover, at),
            Choice::TakeHill { unit: u, .. } => unit(u, at),
            Choice::EarnedCheer { .. } => Ok(()),
            Choice::FreeAttack { unit: u, .. } => unit(u, at),
            Choice::Draws { .. } | Choice::GiveUp { .. } => Ok(()),
        }
    };
    if let Some(u) = now.charge {
        unit(u, "now.charge")?;
    }
    let at = "now.phase";
    match &now.phase {
        Phase::Draft { seat: s } | Phase::StartHidden { seat: s } | Phase::Deploy { seat: s } => {
            seat(*s, at)?
        }
        Phase::TurnOrder {
            seat: s, rolling, ..
        } => {
            seat(*s, at)?;
            if u16::from(*rolling) >= 1 << players {
                return Err(SetupError::new(at, "rolling seats that do not exist"));
            }
        }
        Phase::Fight(f) => fight(f, at)?,
        Phase::Choose(c) => choice(c, at)?,
        Phase::BreakIn { unit: u, .. } => unit(*u, at)?,
        Phase::AnimalRecover { animal, .. } | Phase::AnimalCharge { animal, .. } => {
            unit(*animal, at)?;
            if !now.units[*animal as usize].is_animal() {
                return Err(SetupError::new(
                    at,
                    "an animal's roll for a body that is not one",
                ));
            }
        }
        Phase::ZoneCard { zone } => {
            if now
                .zones
                .as_ref()
                .is_none_or(|z| *zone as usize >= z.cards.len() || z.deck.iter().all(|&n| n == 0))
            {
                return Err(SetupError::new(
                    at,
                    "a zone that does not exist, or no card left",
                ));
            }
        }
        Phase::BlipReveal { blip, unit: u } => {
            unit(*blip, at)?;
            unit(*u, at)?;
            if !now.units[*blip as usize].is_blip()
                || now
                    .zones
                    .as_ref()
                    .is_none_or(|z| z.blips.iter().all(|&n| n == 0))
            {
                return Err(SetupError::new(
                    at,
                    "reveals a blip that is not one, or none is left",
                ));
            }
        }
        Phase::MineRoll { mine, unit: u } => {
            unit(*mine, at)?;
            if let Some(u) = u {
                unit(*u, at)?;
            }
            if !now.units[*mine as usize].is_mine() {
                return Err(SetupError::new(at, "rolls for a bomb that is not one"));
            }
        }
        Phase::OrderRoll { seat: s, .. }
        | Phase::EnemyDraw { seat: s, .. }
        | Phase::CaptureRoll { seat: s, .. } => {
            seat(*s, at)?;
            if now.convoy.is_none() {
                return Err(SetupError::new(at, "a convoy's roll outside a convoy"));
            }
            if matches!(now.phase, Phase::EnemyDraw { .. })
                && now.convoy.as_ref().is_some_and(|c| c.pool_size() == 0)
            {
                return Err(SetupError::new(at, "a draw from an empty pool"));
            }
        }
        Phase::EggOpens { egg, by } => {
            unit(*egg, at)?;
            if let Some(s) = by {
                seat(*s, at)?;
            }
            if !now.units[*egg as usize].is_egg() || now.eggs.is_none_or(|c| c.total() == 0) {
                return Err(SetupError::new(
                    at,
                    "opens an egg that is not one, or none is left",
                ));
            }
        }
        Phase::EggBomb { bomb, .. } | Phase::BombRoll { bomb, .. } => {
            unit(*bomb, at)?;
            if !matches!(now.units[*bomb as usize].body, Body::Bomb { .. }) {
                return Err(SetupError::new(at, "rolls for a bomb that is not one"));
            }
        }
        Phase::Turn | Phase::FastMoves | Phase::Over => {}
    }
    for (i, p) in now.pending.iter().enumerate() {
        let at = format!("now.pending[{i}]");
        match p {
            Pending::Motion(m) => {
                unit(m.body, &at)?;
                if let Some(u) = m.past {
                    unit(u, &at)?;
                }
                if let Some(s) = m.by {
                    seat(s, &at)?;
                }
            }
            Pending::Fight(f) => fight(f, &at)?,
            Pending::Choose(c) => choice(c, &at)?,
            Pending::ShipDamaged | Pending::ZoneCard { .. } => {}
            Pending::Reveal { blip, unit: u } => {
                unit(*blip, &at)?;
                unit(*u, &at)?;
            }
            Pending::Retreat { unit: u } => unit(*u, &at)?,
            Pending::Open { egg, by } => {
                unit(*egg, &at)?;
                if let Some(s) = by {
                    seat(*s, &at)?;
                }
            }
            Pending::OffHill {
                attacker,
                target,
                piece,
                ..
            } => {
                unit(*attacker, &at)?;
                unit(*target, &at)?;
                if *piece as usize >= fixed.table.pieces.len() {
                    return Err(SetupError::new(
                        at,
                        "names a terrain piece that does not exist",
                    ));
                }
            }
            Pending::Spray {
                unit: u, target, ..
            } => {
                unit(*u, &at)?;
                unit(*target, &at)?;
            }
        }
    }
    Ok(())
}

/// The draft (`armies = draft`, SDE-T2): each seat in turn picks a unit from the chart under
/// the points and the unit limit, or is done; then play begins.
impl SdEra {
    /// The units `seat` has drafted so far.
    pub fn army(&self, seat: u8) -> Vec<u16> {
        self.now
            .units
            .iter()
            .filter(|u| u.owner == Some(seat))
            .filter_map(|u| u.kind())
            .collect()
    }

    /// A draft pick keeps the army within the points and the unit limit (SDE-T2).
    pub(crate) fn draft_ok(&self, army: &[u16]) -> Result<(), Why> {
        let m = &self.fixed.setup.mission;
        let types: Vec<_> = army
            .iter()
            .map(|k| &self.fixed.chart[*k as usize].1)
            .collect();
        let cost: u32 = types.iter().map(|t| u32::from(t.cost())).sum();
        let counted = types.iter().filter(|t| !t.is(Special::T)).count();
        if cost > u32::from(self.points_cap()) {
            return Err(Why::new("SDE-T2", "that would spend more than the points"));
        }
        // Leave enough points for the fewest units the mission needs (the cheapest kind).
        let cheapest = self
            .fixed
            .chart
            .iter()
            .filter(|(_, t)| !t.is(Special::T))
            .map(|(_, t)| u32::from(t.cost()))
            .min()
            .unwrap_or(1);
        let short = (m.least_units as usize).saturating_sub(counted) as u32;
        if cost + short * cheapest > u32::from(self.points_cap()) {
            return Err(Why::new(
                "SDE-GALLERY.1",
                "that would leave too few points for the units the mission needs",
            ));
        }
        if m.most_units > 0 && counted > m.most_units as usize {
            return Err(Why::new(
                "SDE-T2",
                "at most three units a player, transports not counted",
            ));
        }
        if army.len() > 12 {
            return Err(Why::new("SDE-T2", "that is enough units"));
        }
        Ok(())
    }

    /// The draft passes to the next seat still picking; when all are done, play begins.
    pub(crate) fn next_drafter(&mut self, seat: u8) {
        let n = self.fixed.players;
        for k in 1..=n {
            let s = (seat + k) % n;
            if self.now.drafted & (1 << s) == 0 {
                self.now.phase = Phase::Draft { seat: s };
                return;
            }
        }
        self.start_play();
    }
}
