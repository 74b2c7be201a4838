//! Words: the observation (an overhead text map of the table and a list of units), events
//! as sentences, prompts, and actions described for menus.

use crate::combat::Question;
use crate::data::{MissionKind, STICK};
use crate::events::{Action, Event, Winner, point_text, sticks, unit_label};
use crate::state::{Body, Choice, Phase, SdEra, Striker, UnitId};
use battlemat_geom::table::Point;
use serde::Serialize;
use std::fmt;

/// What a player sees: the whole table (SD ERA hides nothing; hidden units are a state
/// everyone knows).
#[derive(Clone, Debug, Serialize)]
pub struct Observation {
    pub mission: String,
    pub round: u16,
    pub active: u8,
    pub prompt: String,
    /// What the mission's score counts ("tokens", "goals", "points", "credits").
    pub score: String,
    pub tokens: Vec<u8>,
    /// The fight being rolled: both sides' dice so far.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fight: Option<String>,
    pub units: Vec<UnitView>,
    /// The overhead map, one line per row.
    pub map: Vec<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct UnitView {
    pub id: String,
    pub name: String,
    pub label: String,
    pub owner: Option<u8>,
    pub at: String,
    pub actions: u8,
    pub stunned: bool,
    pub hidden: bool,
    pub aboard: Option<String>,
    pub cheer: u8,
    pub outside: bool,
    pub waiting: bool,
    /// Out of play for good (an egg broken open, credits taken, a boss beaten).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub gone: bool,
}

impl fmt::Display for Observation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}, round {}", self.mission, self.round)?;
        for line in &self.map {
            writeln!(f, "{line}")?;
        }
        let tokens: Vec<String> = self
            .tokens
            .iter()
            .enumerate()
            .map(|(s, t)| format!("P{} {t}", s + 1))
            .collect();
        writeln!(f, "{}: {}", self.score, tokens.join(", "))?;
        if let Some(fight) = &self.fight {
            writeln!(f, "{fight}")?;
        }
        for u in self.units.iter().filter(|u| !u.gone) {
            let mut marks = Vec::new();
            if u.stunned {
                marks.push("STUNNED".to_string());
            }
            if u.hidden {
                marks.push("hidden".to_string());
            }
            if let Some(t) = &u.aboard {
                marks.push(format!("aboard {t}"));
            }
            if u.cheer > 0 {
                marks.push(format!("{} cheer", u.cheer));
            }
            if u.outside {
                marks.push("outside the ring".to_string());
            }
            if u.waiting {
                marks.push("not yet placed".to_string());
            }
            let owner = u.owner.map_or("  ".to_string(), |s| format!("P{}", s + 1));
            writeln!(
                f,
                "  {:>4} {owner} {:<14} {:<3} at {:<16} {}{}",
                u.id,
                u.name,
                u.label,
                // A unit not yet placed has no place on the table (nor actions) yet.
                if u.waiting { "-" } else { u.at.as_str() },
                if u.owner == Some(self.active) && !u.waiting {
                    format!(
                        "{} action{} ",
                        u.actions,
                        if u.actions == 1 { "" } else { "s" }
                    )
                } else {
                    String::new()
                },
                marks.join(", ")
            )?;
        }
        // The prompt is in the JSON; front ends print it with whose decision it is.
        Ok(())
    }
}

impl SdEra {
    /// The overhead map: 8 columns and 3 rows a stick, the far edge at the top. Terrain is
    /// `#` (blocks sight) or `^` (units may stand on top), `.` the ring, `=` a goal, `o` a
    /// ball, `*` a bomb, `@` an animal, `0` an egg, `$` credits; a unit is its id number (the list below the map says whose).
    pub fn map_lines(&self) -> Vec<String> {
        let t = &self.fixed.table;
        let cols = (t.width * 8 / STICK).max(1) as usize;
        let rows = (t.depth * 3 / STICK).max(1) as usize;
        let cell_w = t.width / cols as i64;
        let cell_h = t.depth / rows as i64;
        let mut grid = vec![vec![' '; cols]; rows];
        for (r, row) in grid.iter_mut().enumerate() {
            for (c, ch) in row.iter_mut().enumerate() {
                let p = Point::new(
                    c as i64 * cell_w + cell_w / 2,
                    (rows - 1 - r) as i64 * cell_h + cell_h / 2,
                );
                for piece in &t.pieces {
                    if piece.outline.contains(p) {
                        *ch = if piece.holds > 0 { '^' } else { '#' };
                    }
                }
                if self.fixed.kind == crate::data::MissionKind::RingBattle {
                    let c0 = self.fixed.centre;
                    let r0 = self.fixed.setup.mission.ring_radius;
                    let d = battlemat_geom::table::distance_floor(p, c0);
                    if (d - r0).abs() < cell_w / 2 {
                        *ch = '.';
                    }
                }
            }
        }
        let soccer = self.fixed.kind == crate::data::MissionKind::Soccer;
        for (_, (a, b)) in self.goals().filter(|_| soccer) {
            for k in 0..=8 {
                let p = Point::new(a.x + (b.x - a.x) * k / 8, a.y + (b.y - a.y) * k / 8);
                let c = ((p.x / cell_w) as usize).min(cols - 1);
                let r = rows - 1 - ((p.y / cell_h) as usize).min(rows - 1);
                grid[r][c] = '=';
            }
        }
        for u in self.ids() {
            let x = self.unit(u);
            if !x.on_table() {
                continue;
            }
            let c = ((x.at.x / cell_w) as usize).min(cols - 1);
            let r = rows - 1 - ((x.at.y / cell_h) as usize).min(rows - 1);
            let label: Vec<char> = match x.body {
                Body::Ball => vec!['o'],
                Body::Bomb { .. } => vec!['*'],
                Body::Animal { .. } => vec!['@'],
                Body::Egg => vec!['0'],
                Body::Ship => vec!['S', 'H', 'I', 'P'],
                Body::Blip => vec!['?'],
                Body::Target => vec!['T'],
                Body::Mine { .. } => vec!['*'],
                Body::Rock => vec!['#'],
                Body::Credit { .. } => vec!['$'],
                Body::Unit { .. } => u.to_string().chars().collect(),
            };
            for (k, ch) in label.into_iter().enumerate() {
                if c + k < cols {
                    grid[r][c + k] = ch;
                }
            }
        }
        let mut out = vec![format!("+{}+", "-".repeat(cols))];
        for row in grid {
            out.push(format!("|{}|", row.into_iter().collect::<String>()));
        }
        out.push(format!("+{}+", "-".repeat(cols)));
        out
    }

    pub fn observation(&self) -> Observation {
        Observation {
            mission: self.fixed.setup.mission.name.clone(),
            round: self.now.round,
            active: self.now.active,
            prompt: self.prompt_text(),
            score: self.score_word().to_string(),
            tokens: self.now.tokens.clone(),
            fight: match &self.now.phase {
                Phase::Fight(f) => {
                    let who = match f.striker {
                        Striker::Unit(u) | Striker::Ball(u) | Striker::Animal(u) => self.name(u),
                        Striker::Impact => "the impact (2 dice)".into(),
                    };
                    Some(format!(
                        "{who} rolls [{}] of {} against {} [{}] of {}",
                        faces(&f.att.faces),
                        f.att.dice,
                        self.name(f.target),
                        faces(&f.def.faces),
                        f.def.dice
                    ))
                }
                _ => None,
            },
            units: self
                .ids()
                .map(|u| {
                    let x = self.unit(u);
                    let (name, label) = match self.unit_type(u) {
                        Some(t) => (t.name.clone(), t.label()),
                        None => match x.body {
                            Body::Bomb { dice } => ("bomb".into(), format!("{dice}d")),
                            Body::Animal { value } => ("animal".into(), value.to_string()),
                            Body::Egg => ("egg".into(), String::new()),
                            Body::Ship => ("ship".into(), "4".into()),
                            Body::Blip => ("blip".into(), "?".into()),
                            Body::Target => ("target".into(), String::new()),
                            Body::Mine { .. } => ("bomb".into(), String::new()),
                            Body::Rock => ("asteroid".into(), String::new()),
                            Body::Credit { amount } => ("credits".into(), format!("${amount}")),
                            _ => ("ball".into(), String::new()),
                        },
                    };
                    UnitView {
                        id: unit_label(u),
                        name,
                        label,
                        owner: x.owner,
                        at: point_text(x.at),
                        actions: x.actions,
                        stunned: x.stunned,
                        hidden: x.hidden,
                        aboard: x.aboard.map(unit_label),
                        cheer: x.cheer,
                        outside: x.outside,
                        waiting: x.waiting,
                        gone: x.gone,
                    }
                })
                .collect(),
            map: self.map_lines(),
        }
    }

    fn player(&self, s: u8) -> String {
        format!("Player {}", s + 1)
    }

    /// The pending decision or die in words.
    pub fn prompt_text(&self) -> String {
        match &self.now.phase {
            Phase::Over => String::new(),
            Phase::Draft { seat } => format!(
                "{}: pick a unit (pick KEY) or finish your army (done) (SDE-T2)",
                self.player(*seat)
            ),
            Phase::StartHidden { seat } => format!(
                "{}: hide HIDE units before the game (hide uN), then done (SDE-H)",
                self.player(*seat)
            ),
            Phase::TurnOrder { seat, left, .. } => format!(
                "{}: turn-order die ({left} to roll) (SDE-T1)",
                self.player(*seat)
            ),
            Phase::Turn => format!(
                "{}: act with your units (move, shoot, melee, recover, ...) or end (SDE-T1)",
                self.player(self.now.active)
            ),
            Phase::FastMoves => format!(
                "{}: FAST units may make a free move, or end (SDE-F)",
                self.player(self.now.active)
            ),
            Phase::Fight(f) => match self.fight_question(f) {
                Some((s, Question::Reroll(_))) => format!(
                    "{}: VETERAN re-roll one die (reroll FACE) or keep (SDE-V)",
                    self.player(s)
                ),
                Some((s, Question::Cheer(_))) => format!(
                    "{}: add cheer dice to the roll (add N) (SDE-RING.2)",
                    self.player(s)
                ),
                None => {
                    let who = match f.striker {
                        Striker::Unit(u) => self.name(u),
                        Striker::Ball(b) | Striker::Animal(b) => self.name(b),
                        Striker::Impact => "the impact".into(),
                    };
                    if !f.att.done() {
                        format!("{who}: attack die {} of {}", f.att.rolled + 1, f.att.dice)
                    } else {
                        format!(
                            "{}: defence die {} of {}",
                            self.name(f.target),
                            f.def.rolled + 1,
                            f.def.dice
                        )
                    }
                }
            },
            Phase::Choose(c) => match c {
                Choice::Push {
                    seat,
                    mover,
                    dist,
                    optional,
                    ..
                } => format!(
                    "{}: knock {} back {} stick(s): push WIND or push X,Y{} (SDE-KB1)",
                    self.player(*seat),
                    self.name(*mover),
                    sticks(*dist),
                    if *optional { ", or pass" } else { "" }
                ),
                Choice::TakeHill { seat, unit, .. } => format!(
                    "{}: {} may take the place on the hill: take or stay (SDE-KOTH.2)",
                    self.player(*seat),
                    self.name(*unit)
                ),
                Choice::EarnedCheer { seat } => format!(
                    "{}: place your earned cheer die by a unit in the ring (place uN) (SDE-RING.2)",
                    self.player(*seat)
                ),
                Choice::Draws { seat } => format!(
                    "{}: draw and place enemy units from the pool: draw 0, draw 1 or draw 2 (SDE-CONVOY.2)",
                    self.player(*seat)
                ),
                Choice::GiveUp { seat } => format!(
                    "{}: the ship is damaged and you rolled highest: give up a captured unit (giveup uN) (SDE-CONVOY.2)",
                    self.player(*seat)
                ),
                Choice::FreeAttack { seat, unit } => format!(
                    "{}: {} is out of its egg: one free attack with +1 die (shoot {u} uN, melee {u} uN) or pass (SDE-EGG.2)",
                    self.player(*seat),
                    self.name(*unit),
                    u = crate::events::unit_label(*unit)
                ),
            },
            Phase::Deploy { seat } => self.deploy_prompt(*seat),
            Phase::BreakIn { unit, left, .. } => {
                format!("{}: break-in die ({left} to roll)", self.name(*unit))
            }
            Phase::BombRoll { bomb, left, .. } => {
                format!("{}: explode die ({left} to roll)", self.name(*bomb))
            }
            Phase::ZoneCard { zone } => {
                format!("zone {}'s card is drawn (SDE-ZONES.2)", zone + 1)
            }
            Phase::BlipReveal { blip, unit } => format!(
                "{} touched {}: what it is is drawn (SDE-ZONES.2)",
                self.name(*unit),
                self.name(*blip)
            ),
            Phase::MineRoll { mine, .. } => {
                format!("{}: its die, a 6 to go off (SDE-ZONES.2)", self.name(*mine))
            }
            Phase::OrderRoll { seat, left, .. } => format!(
                "{}: roll-off for this round's order ({left} to roll) (SDE-CONVOY.2)",
                self.player(*seat)
            ),
            Phase::EnemyDraw { seat, left } => format!(
                "{} draws an enemy unit from the pool ({left} to draw) (SDE-CONVOY.2)",
                self.player(*seat)
            ),
            Phase::CaptureRoll { seat, left, .. } => format!(
                "the ship is damaged: {} rolls a die for each captured unit ({left} to roll) (SDE-CONVOY.2)",
                self.player(*seat)
            ),
            Phase::EggOpens { egg, .. } => format!(
                "{} breaks open: what is inside is drawn (SDE-EGG.2)",
                self.name(*egg)
            ),
            Phase::EggBomb { bomb, left, .. } => format!(
                "{}: explode die ({left} to roll), a 6 explodes (SDE-EGG.2)",
                self.name(*bomb)
            ),
            Phase::AnimalRecover { animal, left } => format!(
                "the animals' turn: {} rolls to recover, a 6 to get up ({left} to roll) (SDE-SAFARI.2)",
                self.name(*animal)
            ),
            Phase::AnimalCharge { animal, left } => format!(
                "the animals' turn: {} rolls to charge, a 6 to charge ({left} to roll) (SDE-SAFARI.2)",
                self.name(*animal)
            ),
        }
    }

    /// A body's name, or just its label for an id that names no body (in a refused action).
    fn called(&self, u: UnitId) -> String {
        if (u as usize) < self.now.units.len() {
            self.name(u)
        } else {
            unit_label(u)
        }
    }

    pub fn describe_action(&self, a: &Action) -> String {
        let n = |u: &UnitId| self.called(*u);
        match a {
            Action::Move { unit, to, .. } => {
                let m = battlemat_geom::table::MAX_COORD as u64;
                let sane = match *to {
                    crate::events::Target::Point(p) => {
                        p.x.unsigned_abs() <= m && p.y.unsigned_abs() <= m
                    }
                    crate::events::Target::Heading { dist, .. } => dist.unsigned_abs() <= m,
                };
                if (*unit as usize) < self.now.units.len() && sane {
                    let at = to.resolve(self.unit(*unit).at);
                    format!("{} moves to {}", n(unit), point_text(at))
                } else {
                    a.to_string()
                }
            }
            Action::Shoot { unit, aims, .. } => {
                let t: Vec<String> = aims.iter().map(|a| n(&a.target)).collect();
                format!("{} shoots at {}", n(unit), t.join(" and "))
            }
            Action::Melee { unit, target } => format!("{} attacks {} in melee", n(unit), n(target)),
            Action::Recover { unit } => format!("{} recovers from stun", n(unit)),
            Action::Hide { unit } => format!("{} hides", n(unit)),
            Action::Collect { unit } => format!("{} collects a token", n(unit)),
            Action::Cheer { unit, target } => format!("{} cheers for {}", n(unit), n(target)),
            Action::BreakIn { unit } => format!("{} tries to break into the ring", n(unit)),
            Action::Pick { kind } => match self.fixed.chart.iter().find(|(k, _)| k == kind) {
                Some((_, t)) => format!(
                    "draft {} ({}, {} point{})",
                    t.name,
                    t.label(),
                    t.cost(),
                    if t.cost() == 1 { "" } else { "s" }
                ),
                None => a.to_string(),
            },
            Action::Deploy { unit, at } => format!("place {} at {}", n(unit), point_text(*at)),
            Action::Edge { edge } => {
                format!("start on the {} edge", crate::action_text::edge_name(*edge))
            }
            other => other.to_string(),
        }
    }

    /// An event in words, with names.
    pub fn narrate(&self, e: &Event) -> String {
        let n = |u: &UnitId| self.called(*u);
        match e {
            Event::Moved { unit, to, .. } => format!("{} moves to {}", n(unit), point_text(*to)),
            Event::Knocked { unit, from, to } => format!(
                "{} is knocked back {} stick(s) to {}",
                n(unit),
                sticks(battlemat_geom::table::distance_floor(*from, *to)),
                point_text(*to)
            ),
            Event::Stunned { unit } => format!("{} is STUNNED", n(unit)),
            Event::Attacks {
                unit,
                target,
                melee,
                att_dice,
                def_dice,
            } => format!(
                "{} {} {} ({att_dice} dice against {def_dice})",
                unit.map_or("an impact".into(), |u| n(&u)),
                if *melee { "attacks in melee" } else { "hits" },
                n(target)
            ),
            _ => e.to_string(),
        }
    }

    /// The words for a seat placing its units before play (SDE-RING.1, `start = edge`).
    fn deploy_prompt(&self, seat: battlemat_core::Seat) -> String {
        let who = self.player(seat);
        let rule = crate::setup::setup_rule(self.fixed.kind);
        if self.edge_to_choose(seat) {
            format!(
                "{who}: choose your table edge (edge near, left, far or right; each player has one of their own) ({rule})"
            )
        } else if self.fixed.kind == MissionKind::RingBattle {
            format!(
                "{who}: place a unit in the ring or outside it near your edge (deploy uN X,Y) ({rule})"
            )
        } else {
            format!(
                "{who}: place a unit within a stick of your table edge, the {} edge (deploy uN X,Y) ({rule})",
                crate::action_text::edge_name(self.post_place(seat).0)
            )
        }
    }
}

fn faces(f: &[u8; 6]) -> String {
    let mut v = Vec::new();
    for face in (1..=6).rev() {
        for _ in 0..f[face - 1] {
            v.push(face.to_string());
        }
    }
    if v.is_empty() {
        "-".into()
    } else {
        v.join(" ")
    }
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let u = |x: &UnitId| unit_label(*x);
        match self {
            Event::Picked { seat, unit, name } => {
                write!(f, "Player {} drafts {name} ({})", seat + 1, u(unit))
            }
            Event::Hid { unit } => write!(f, "{} hides", u(unit)),
            Event::Unhidden { unit } => write!(f, "{} is no longer hidden", u(unit)),
            Event::TurnOrder { first } => write!(f, "Player {} goes first", first + 1),
            Event::TurnBegins { seat, round } => {
                write!(f, "Round {round}: Player {}'s turn", seat + 1)
            }
            Event::Moved { unit, to, .. } => write!(f, "{} moves to {}", u(unit), point_text(*to)),
            Event::Loaded { transport, unit } => write!(f, "{} boards {}", u(unit), u(transport)),
            Event::Dropped {
                transport,
                unit,
                at,
            } => {
                write!(
                    f,
                    "{} drops {} off at {}",
                    u(transport),
                    u(unit),
                    point_text(*at)
                )
            }
            Event::Attacks {
                unit,
                target,
                melee,
                att_dice,
                def_dice,
            } => write!(
                f,
                "{} {} {} ({att_dice} dice against {def_dice})",
                unit.map_or("an impact".to_string(), |x| u(&x)),
                if *melee {
                    "attacks in melee"
                } else {
                    "shoots at"
                },
                u(target)
            ),
            Event::Rerolled { unit, face } => write!(
                f,
                "{} re-rolls a die: {face}",
                unit.map_or("?".to_string(), |x| u(&x))
            ),
            Event::Cheered { unit, dice } => write!(f, "{} adds {dice} cheer dice", u(unit)),
            Event::Fight {
                target,
                winner,
                overkill,
                att,
                def,
            } => {
                let w = match winner {
                    Winner::Attacker if *overkill > 0 => {
                        format!("the attacker wins with {overkill} overkill")
                    }
                    Winner::Attacker => "the attacker wins".to_string(),
                    Winner::Defender if *overkill > 0 => {
                        format!("{} wins with {overkill} overkill", u(target))
                    }
                    Winner::Defender => format!("{} wins", u(target)),
                    Winner::Tie => "a tie: nothing happens".to_string(),
                };
                write!(f, "attack [{}] against [{}]: {w}", faces(att), faces(def))
            }
            Event::Knocked { unit, to, .. } => {
                write!(f, "{} is knocked back to {}", u(unit), point_text(*to))
            }
            Event::Bounced { ball } => write!(f, "{} bounces", u(ball)),
            Event::Stunned { unit } => write!(f, "{} is STUNNED", u(unit)),
            Event::Recovered { unit } => write!(f, "{} gets up", u(unit)),
            Event::TurnEnds { seat } => write!(f, "Player {}'s turn ends", seat + 1),
            Event::Resigned { seat } => write!(f, "Player {} resigns", seat + 1),
            Event::GameOver { reason } => write!(f, "Game over: {reason}"),
            _ => self.fmt_mission(f),
        }
    }
}

impl Event {
    /// The missions' events in words (KOTH, SOCCER, KICK-BOMB, RING BATTLE, SAFARI, EGG HUNT,
    /// BATTLE ZONES, CONVOY, and placing units before play).
    fn fmt_mission(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let u = |x: &UnitId| unit_label(*x);
        match self {
            Event::Token { seat, tokens } => {
                write!(f, "Player {} earns a token ({tokens})", seat + 1)
            }
            Event::TokenLost { seat, tokens } => {
                write!(f, "Player {} loses a token ({tokens} left)", seat + 1)
            }
            Event::Goal {
                seat: Some(s),
                goal,
                ..
            } => {
                write!(
                    f,
                    "GOAL! Player {} scores in Player {}'s goal",
                    s + 1,
                    goal + 1
                )
            }
            Event::Goal {
                seat: None, goal, ..
            } => write!(
                f,
                "The ball goes into Player {}'s own goal: no score",
                goal + 1
            ),
            Event::ReturnedToCentre { ball } => write!(f, "{} goes back to the centre", u(ball)),
            Event::BombGrows { bomb, dice } => {
                write!(f, "no 6: {} now has {dice} explode dice", u(bomb))
            }
            Event::BombExplodes { bomb, hit } => {
                let h: Vec<String> = hit.iter().map(u).collect();
                write!(
                    f,
                    "{} EXPLODES{}",
                    u(bomb),
                    if h.is_empty() {
                        String::new()
                    } else {
                        format!(", hitting {}", h.join(", "))
                    }
                )
            }
            Event::CheerDie { unit, cheer } => write!(f, "a cheer die for {} ({cheer})", u(unit)),
            Event::BrokeIn { unit } => write!(f, "{} breaks into the ring!", u(unit)),
            Event::FailedBreakIn { unit } => write!(f, "{} fails to break in", u(unit)),
            Event::KnockedOut { unit, at } => {
                write!(f, "{} is out of the ring, at {}", u(unit), point_text(*at))
            }
            Event::TookHill { unit } => write!(f, "{} takes the hill", u(unit)),
            Event::PickedUp { unit, animal } => write!(f, "{} picks up {}", u(unit), u(animal)),
            Event::AnimalDropped { animal, at } => {
                write!(f, "{} is dropped at {}", u(animal), point_text(*at))
            }
            Event::Captured {
                seat,
                animal,
                points,
            } => write!(
                f,
                "Player {} captures {} ({points} points)",
                seat + 1,
                u(animal)
            ),
            Event::AnimalRecovers { animal } => write!(f, "{} gets up", u(animal)),
            Event::AnimalCharges { animal, target } => {
                write!(f, "{} CHARGES {}", u(animal), u(target))
            }
            Event::AnimalRunsAway { animal, to } => {
                write!(f, "{} runs away to {}", u(animal), point_text(*to))
            }
            other => other.fmt_hunts(f),
        }
    }

    /// EGG HUNT's, BATTLE ZONES' and CONVOY's events in words, and placing units.
    fn fmt_hunts(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let u = |x: &UnitId| unit_label(*x);
        match self {
            Event::EggOpens { egg, content, by } => {
                write!(f, "{} breaks open: ", u(egg))?;
                match content {
                    crate::events::EggContent::Unit { seat } => {
                        write!(f, "a unit of Player {}'s!", seat + 1)
                    }
                    crate::events::EggContent::Bomb => write!(f, "a BOMB!"),
                    crate::events::EggContent::Candy => match by {
                        Some(s) => write!(f, "candy (Player {} eats it)", s + 1),
                        None => write!(f, "candy"),
                    },
                    crate::events::EggContent::Credits => write!(f, "two credits"),
                    crate::events::EggContent::Boss => write!(f, "the BOSS!"),
                }
            }
            Event::ZoneCardDrawn { zone, card } => {
                write!(f, "zone {} card: {}", zone + 1, card.name())
            }
            Event::BlipRevealed { blip, kind, unit } => write!(
                f,
                "{} touches blip {}: {}",
                u(unit),
                u(blip),
                match kind {
                    crate::state::BlipKind::Ambush2 => "AMBUSH 2!",
                    crate::state::BlipKind::Ambush3 => "AMBUSH 3!",
                    crate::state::BlipKind::Target => "a TARGET",
                    crate::state::BlipKind::Bomb => "a BOMB!",
                }
            ),
            Event::Defeated { unit, by } => match by {
                Some(s) => write!(f, "{} is beaten: Player {} earns the blip", u(unit), s + 1),
                None => write!(f, "{} is beaten", u(unit)),
            },
            Event::ZoneCleared { zone } => write!(f, "zone {} is CLEARED", zone + 1),
            Event::ShipMoves { ship, to } => {
                write!(
                    f,
                    "the ship {} moves forward to {}",
                    u(ship),
                    point_text(*to)
                )
            }
            Event::EnemyArrives { unit, by } => match by {
                Some(s) => write!(f, "Player {} draws an enemy: {} arrives", s + 1, u(unit)),
                None => write!(f, "an enemy arrives: {}", u(unit)),
            },
            Event::EnemyCaptured { seat, unit, points } => write!(
                f,
                "Player {} captures {} ({points} points)",
                seat + 1,
                u(unit)
            ),
            Event::ShipDamaged => write!(f, "the ship is DAMAGED"),
            Event::GaveUp { seat, unit } => write!(
                f,
                "Player {} gives {} back to the enemy pool",
                seat + 1,
                u(unit)
            ),
            Event::PlayerOrder { order } => {
                let o: Vec<String> = order.iter().map(|s| format!("Player {}", s + 1)).collect();
                write!(f, "this round's order: {}", o.join(", "))
            }
            Event::EnemyRecovers { unit } => write!(f, "{} recovers", u(unit)),
            Event::Hatched { unit } => write!(f, "{} comes out of the egg", u(unit)),
            Event::CreditsTaken {
                unit,
                credits,
                taken,
                tokens,
            } => write!(
                f,
                "{} picks up {} from the credits {} (now {tokens})",
                u(unit),
                if *taken == 1 {
                    "1 credit".to_string()
                } else {
                    format!("{taken} credits")
                },
                u(credits)
            ),
            Event::BossBeaten { boss, by } => match by {
                Some(s) => write!(
                    f,
                    "the boss {} is beaten: Player {} earns 3 credits",
                    u(boss),
                    s + 1
                ),
                None => write!(f, "the boss {} is beaten", u(boss)),
            },
            Event::Deployed { unit, at, outside } => write!(
                f,
                "{} is placed at {}{}",
                u(unit),
                point_text(*at),
                if *outside {
                    ", outside the ring"
                } else {
                    " in the ring"
                }
            ),
            Event::Placed { unit, at } => write!(f, "{} is placed at {}", u(unit), point_text(*at)),
            Event::EdgeChosen { seat, edge } => write!(
                f,
                "Player {} starts on the {} edge",
                seat + 1,
                crate::action_text::edge_name(*edge)
            ),
            // The rest are worded by `Display` and `fmt_mission`.
            other => write!(f, "{other:?}"),
        }
    }
}
