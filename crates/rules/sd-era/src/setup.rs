//! Set-up (each mission's .1 set-up): checking a setup once into the fixed part of a game,
//! placing the armies on their board edges and the mission's bodies evenly. The armies'
//! limits and the draft are [`crate::army`]; each mission's own bodies (animals, eggs, the
//! ship, blips) are placed by its module's `set_up_*`; a saved state is checked by
//! [`crate::saved`].
//!
//! Where units start: the text says "players start on any board edge". We give each seat a
//! place on the edge (its *post*: two players face each other across the table; three to
//! six go round it clockwise) and stand its units side by side there, bases touching the
//! edge, half a stick apart. A post is also where a seat's SOCCER goal is, and which way is
//! "in front of the player" in RING BATTLE. With the option `start = edge` each seat chooses
//! an edge of its own in a deployment before play (`Phase::Deploy`, RING BATTLE's, judged in
//! [`crate::legal`]) and its post, goal and "front" follow it (`Progress::edges`).

use crate::data::{
    Armies, BALL_RADIUS, BASE_RADIUS, Catalog, MissionKind, STICK, Setup, Special, Start, UnitType,
};
use crate::events::Event;
use crate::state::{Back, Body, Fixed, Phase, Progress, SdEra, Unit, UnitId};
use battlemat_core::{Seat, SetupError};
use battlemat_geom::table::{Base, Landing, OverBound, Point, Ticks, toward};
use std::sync::Arc;

pub const MAX_PLAYERS: u8 = 6;

/// The longest side a table may have, in sticks (the missions' are 3 to 6): bounds the text
/// map (8 columns and 3 rows a stick) and the picture, whatever a file says.
pub const MAX_TABLE_STICKS: Ticks = 48;
/// The most terrain pieces a table may have (the missions have up to a dozen).
pub const MAX_TERRAIN: usize = 256;

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

/// A seat's place on the table edge: the edge (0..4: near, left, far, right, clockwise from
/// the near edge) and the fraction of the way along it.
pub type Post = (u8, (i64, i64));

/// `Progress::edges` for a seat that has not chosen its edge yet.
pub const NO_EDGE: u8 = u8::MAX;

/// The table edges in the players' words, as `edge near` names them (0..4).
pub const EDGE_NAMES: [&str; 4] = ["near", "left", "far", "right"];

/// The middle of an edge.
const HALF: (i64, i64) = (1, 2);

/// Whether the seats choose their table edges with `start = edge` in this mission: not in
/// CONVOY or BATTLE ZONES, where everyone starts at one end (they still place their units).
pub fn seats_choose_edges(kind: MissionKind) -> bool {
    !matches!(kind, MissionKind::Convoy | MissionKind::BattleZones)
}

/// The rule a seat's start breaks: its mission's set-up (each mission's `.1`).
pub fn setup_rule(kind: MissionKind) -> &'static str {
    match kind {
        MissionKind::KingOfTheHill => "SDE-KOTH.1",
        MissionKind::Soccer => "SDE-SOCCER.1",
        MissionKind::KickBomb => "SDE-KICKBOMB.1",
        MissionKind::RingBattle => "SDE-RING.1",
        MissionKind::ShootingGallery => "SDE-GALLERY.1",
        MissionKind::Safari => "SDE-SAFARI.1",
        MissionKind::EggHunt => "SDE-EGG.1",
        MissionKind::Convoy => "SDE-CONVOY.1",
        MissionKind::BattleZones => "SDE-ZONES.1",
    }
}

/// The data read and checked: the built-in chart and missions, or a data folder's (each
/// mission checked as a setup with its default armies).
impl Catalog {
    /// The built-in data, parsed once per process.
    pub fn builtin() -> &'static Catalog {
        static BUILTIN: std::sync::OnceLock<Catalog> = std::sync::OnceLock::new();
        BUILTIN.get_or_init(|| {
            Catalog::from_sources(
                "units.toml",
                crate::data::UNITS_TOML,
                &crate::data::MISSIONS,
            )
            .unwrap_or_else(|e| panic!("built-in SD ERA data is broken: {e}"))
        })
    }

    /// Parse a unit chart and mission files (name, text), checking every mission with its
    /// default armies for two players.
    pub fn from_sources(
        chart_name: &str,
        chart: &str,
        missions: &[(&str, &str)],
    ) -> Result<Catalog, SetupError> {
        let chart_text = chart;
        let chart: std::collections::BTreeMap<String, UnitType> =
            battlemat_core::data::parse(chart_name, chart)?;
        let chart_file = |prefix| battlemat_core::data::Part {
            setup: prefix,
            file: "",
            name: chart_name,
            text: chart_text,
        };
        let mut out = Vec::new();
        for (file, text) in missions {
            let m: crate::data::MissionFile = battlemat_core::data::parse(file, text)?;
            // The setup's armies are the mission file's.
            let file = |prefix| battlemat_core::data::Part {
                setup: prefix,
                file: if prefix == "armies" { "armies" } else { "" },
                name: file,
                text,
            };
            let m = m
                .measure()
                .map_err(|e| battlemat_core::data::place_parts(e, &[file("")]))?;
            let setup = Setup {
                chart: chart.clone(),
                armies: m.armies.iter().take(2).cloned().collect(),
                mission: m.clone(),
                options: crate::data::Options::default(),
                players: 2,
            };
            check_setup(&setup).map_err(|e| {
                let parts = [file("mission."), file("armies"), chart_file("chart.")];
                battlemat_core::data::place_parts(e, &parts)
            })?;
            out.push(m);
        }
        let cat = Catalog {
            chart,
            missions: out,
        };
        // A chart file on its own is checked line by line.
        for (key, u) in &cat.chart {
            check_unit_type(key, u)
                .map_err(|e| battlemat_core::data::place_parts(e, &[chart_file("")]))?;
        }
        Ok(cat)
    }
}

/// Each seat's fixed post (`start = posts`): seats go clockwise from the near edge. In CONVOY (ours: the players escort the
/// ship) and BATTLE ZONES ("Everyone starts at one end") everyone starts along the near edge.
fn post_places(kind: MissionKind, players: u8) -> Vec<Post> {
    if matches!(kind, MissionKind::Convoy | MissionKind::BattleZones) {
        let n = i64::from(players);
        return (0..n).map(|s| (0, (2 * s + 1, 2 * n))).collect();
    }
    post_places_around(players).to_vec()
}

fn post_places_around(players: u8) -> &'static [Post] {
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
    check_table(m)?;
    check_players(s)?;
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
    let choose_edges = s.options.start == Start::Edge && seats_choose_edges(m.mission);
    if choose_edges && s.players > 4 {
        return Err(SetupError::new(
            "option start",
            format!(
                "edge: each player chooses a table edge of their own, so 2 to 4 players, not {}",
                s.players
            ),
        ));
    }
    let fixed = Fixed {
        setup: s.clone(),
        chart,
        players: s.players,
        kind: m.mission,
        table: m.table.clone(),
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
        edges: Vec::new(),
        eggs: None,
        convoy: None,
        zones: None,
        result: None,
    };
    if choose_edges {
        now.edges = vec![NO_EDGE; s.players as usize];
    }
    let mut game = SdEra {
        fixed: Arc::new(fixed),
        now,
    };
    game.place_balls()?;
    // The mission's own bodies (animals, eggs, the ship, blips), by its rules' `.1`.
    match m.mission {
        MissionKind::Safari => game.set_up_safari()?,
        MissionKind::EggHunt => game.set_up_eggs()?,
        MissionKind::Convoy => game.set_up_convoy()?,
        MissionKind::BattleZones => game.set_up_zones()?,
        _ => {}
    }
    for (seat, army) in s.armies.iter().enumerate() {
        let at = format!("armies[{seat}]");
        let mut kinds = Vec::new();
        for (i, key) in army.iter().enumerate() {
            kinds.push(game.fixed.chart_kind(key, &format!("{at}[{i}]"))?);
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

/// The mission's table (SDE's missions: 3 to 6 sticks a side), within the bounds the text
/// map and picture can draw, one name a terrain piece.
fn check_table(m: &crate::data::Mission) -> Result<(), SetupError> {
    m.table
        .check()
        .map_err(|e| match battlemat_geom::table::piece_of(&e) {
            Some((i, m)) => SetupError::new(format!("mission.terrain[{i}]"), m),
            None => SetupError::new("mission.table", e),
        })?;
    m.table
        .check_bounds(MAX_TABLE_STICKS * STICK, MAX_TERRAIN)
        .map_err(|over| match over {
            OverBound::Side => SetupError::new(
                "mission.width",
                format!(
                    "a table of {} × {} sticks: at most {MAX_TABLE_STICKS} sticks a side",
                    m.table.width as f64 / STICK as f64,
                    m.table.depth as f64 / STICK as f64
                ),
            ),
            OverBound::Pieces => SetupError::new(
                "mission.terrain",
                format!(
                    "{} terrain pieces: at most {MAX_TERRAIN}",
                    m.table.pieces.len()
                ),
            ),
            OverBound::Corners(i) => SetupError::new(
                format!("mission.terrain[{i}].corners"),
                format!("at most {} corners", battlemat_geom::table::MAX_CORNERS),
            ),
        })?;
    if m.terrain_names.len() != m.table.pieces.len() {
        return Err(SetupError::new(
            "mission.terrain_names",
            "one name for each terrain piece",
        ));
    }
    Ok(())
}

/// The players (2 to 6, and as many as the mission is for) and the chart's lines.
fn check_players(s: &Setup) -> Result<(), SetupError> {
    let m = &s.mission;
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
    Ok(())
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
    /// SDE-SOCCER.1, SDE-KICKBOMB.1: the balls or bombs in the centre of the table.
    fn place_balls(&mut self) -> Result<(), SetupError> {
        let (s, m, centre) = (
            &self.fixed.setup,
            &self.fixed.setup.mission,
            self.fixed.centre,
        );
        let (players, mission) = (s.players, m.mission);
        let (balls_many, balls_few) = (m.balls_many_players, m.balls);
        // Balls and bombs in the centre (two side by side with three or more players).
        let balls = if players >= 3 { balls_many } else { balls_few };
        for i in 0..balls {
            let x = if balls == 1 {
                centre.x
            } else {
                centre.x - STICK / 2 + i as Ticks * STICK
            };
            let at = Point::new(x, centre.y);
            let body = if mission == MissionKind::KickBomb {
                Body::Bomb { dice: 1 }
            } else {
                Body::Ball
            };
            let ball = new_unit(body, None, at);
            let others: Vec<Base> = self.now.units.iter().map(Unit::base).collect();
            if !matches!(
                self.fixed.table.landing(&ball.base(), &others),
                Landing::Ground
            ) {
                return Err(SetupError::new(
                    "mission",
                    "the centre of the table must be clear for the ball or bomb",
                ));
            }
            self.now.units.push(ball);
        }
        Ok(())
    }
}

impl SdEra {
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
            let post = self.post(seat);
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
        let (edge, frac) = self.post_place(seat);
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

    /// Spots along `seat`'s table edge, bases touching it, half a stick apart from its post
    /// (RING BATTLE's outside the ring, and `start = edge`'s deployment).
    pub fn edge_spots(&self, seat: Seat) -> Vec<Point> {
        let f = &self.fixed;
        let (edge, frac) = self.post_place(seat);
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

    /// `seat`'s post: with `start = edge` the middle of the edge it chose, else its fixed
    /// place (`post_places`).
    pub fn post_place(&self, seat: Seat) -> Post {
        match self.now.edges.get(seat as usize) {
            Some(&edge) if edge != NO_EDGE => (edge, HALF),
            _ => post_places(self.fixed.kind, self.fixed.players)[seat as usize],
        }
    }

    /// `seat`'s post as a point on the table edge ("in front of the player" in RING BATTLE).
    pub fn post(&self, seat: Seat) -> Point {
        let (edge, frac) = self.post_place(seat);
        let t = &self.fixed.table;
        on_edge(t.width, t.depth, edge, frac, 0).0
    }

    /// The middle of a table edge (0..4), on it.
    pub fn edge_middle(&self, edge: u8) -> Point {
        let t = &self.fixed.table;
        on_edge(t.width, t.depth, edge, HALF, 0).0
    }

    /// Does `seat` still have its table edge to choose (`start = edge`)?
    pub fn edge_to_choose(&self, seat: Seat) -> bool {
        self.now.edges.get(seat as usize) == Some(&NO_EDGE)
    }

    /// SOCCER (SDE-SOCCER.1, "a goal in the center of each player's start point, 1 stick
    /// wide"): `seat`'s goal, a stretch of the table edge centred on its post (kept on the
    /// edge); none while its edge is still to be chosen.
    pub fn goal_of(&self, seat: Seat) -> Option<(Point, Point)> {
        if self.edge_to_choose(seat) {
            return None;
        }
        let (edge, frac) = self.post_place(seat);
        let (w, d) = (self.fixed.table.width, self.fixed.table.depth);
        let width = self.fixed.setup.mission.goal_width;
        let (p, dir) = on_edge(w, d, edge, frac, 0);
        let len = if dir.0 != 0 { w } else { d };
        let along = if dir.0 != 0 { p.x } else { p.y };
        let lo = (along - width / 2).clamp(0, (len - width).max(0));
        let hi = (lo + width).min(len);
        Some(if dir.0 != 0 {
            (Point::new(lo, p.y), Point::new(hi, p.y))
        } else {
            (Point::new(p.x, lo), Point::new(p.x, hi))
        })
    }

    /// Every seat's goal there is, by seat.
    pub fn goals(&self) -> impl Iterator<Item = (Seat, (Point, Point))> + '_ {
        (0..self.fixed.players).filter_map(|s| Some((s, self.goal_of(s)?)))
    }

    /// `start = edge`: the strip along `seat`'s edge a click may fall in to place a unit,
    /// as the line its bases' centres touch the edge on (corner to corner).
    pub fn edge_strip(&self, seat: Seat) -> [Point; 2] {
        let (edge, _) = self.post_place(seat);
        let t = &self.fixed.table;
        let (a, _) = on_edge(t.width, t.depth, edge, (0, 1), BASE_RADIUS);
        let (b, _) = on_edge(t.width, t.depth, edge, (1, 1), BASE_RADIUS);
        let (da, db) = if a.x == b.x {
            ((0, BASE_RADIUS), (0, -BASE_RADIUS))
        } else {
            ((BASE_RADIUS, 0), (-BASE_RADIUS, 0))
        };
        [
            Point::new(a.x + da.0, a.y + da.1),
            Point::new(b.x + db.0, b.y + db.1),
        ]
    }

    /// How far a point is from `seat`'s table edge.
    pub fn from_own_edge(&self, seat: Seat, p: Point) -> Ticks {
        let f = &self.fixed;
        match self.post_place(seat).0 {
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
    /// nearest the near edge, each nudged clear of terrain if it must be; a short last row
    /// centred if `centre_last` (SAFARI's animals, placed before it was, keep their places so
    /// their records replay). Whether every one found clear ground.
    pub(crate) fn place_evenly(
        &mut self,
        bodies: &[Body],
        margin: Ticks,
        centre_last: bool,
    ) -> bool {
        let (w, d) = (self.fixed.table.width, self.fixed.table.depth);
        self.place_in(
            bodies,
            (margin, margin, w - margin, d - margin),
            centre_last,
        )
    }

    /// [`SdEra::place_evenly`] over the box `(x0, y0, x1, y1)`: as many columns as make the
    /// cells about square, in rows from the near side.
    pub(crate) fn place_in(
        &mut self,
        bodies: &[Body],
        (x0, y0, x1, y1): (Ticks, Ticks, Ticks, Ticks),
        centre_last: bool,
    ) -> bool {
        let n = bodies.len() as i64;
        let (span_x, span_y) = ((x1 - x0).max(0), (y1 - y0).max(0));
        let cols = (1..=n)
            .find(|c| (c * c) as i128 * span_y.max(1) as i128 >= (n as i128) * span_x as i128)
            .unwrap_or(n.max(1));
        let rows = (n + cols - 1) / cols;
        for (i, &body) in bodies.iter().enumerate() {
            let (c, r) = (i as i64 % cols, i as i64 / cols);
            let in_row = if centre_last && r == rows - 1 {
                n - cols * r
            } else {
                cols
            };
            let at = Point::new(
                x0 + span_x * (2 * c + 1) / (2 * in_row),
                y0 + span_y * (2 * r + 1) / (2 * rows),
            );
            let id = self.add_body(body, None, at);
            let others = self.bases_except(&[id]);
            if !matches!(
                self.fixed.table.landing(&self.unit(id).base(), &others),
                Landing::Ground
            ) {
                return false;
            }
        }
        true
    }

    /// After the armies are set: the deployment (`start = edge`), hiding at the start, then
    /// the roll for turn order.
    pub fn start_play(&mut self) {
        // RING BATTLE: the players place their units themselves, after the roll for turn
        // order (SDE-RING.1); with `start = edge` everywhere, before hiding (each mission's
        // .1, "Players start on any board edge").
        let ring = self.fixed.kind == MissionKind::RingBattle;
        let edge = self.fixed.options.start == Start::Edge;
        if ring || edge {
            for u in &mut self.now.units {
                u.waiting = u.is_unit();
            }
        }
        if edge
            && !ring
            && let Some(seat) = self.next_deployer(0)
        {
            self.now.phase = Phase::Deploy { seat };
            return;
        }
        // What the first step sets off is in the state (CONVOY's first enemy turn moves
        // the ship); a new game has no event log yet.
        self.start_hiding(&mut Vec::new());
    }

    /// Hiding at the start (SDE-H), then the roll for turn order.
    pub fn start_hiding(&mut self, ev: &mut Vec<Event>) {
        match self.next_hider(0) {
            Some(seat) => self.now.phase = Phase::StartHidden { seat },
            None => self.begin_play(ev),
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
