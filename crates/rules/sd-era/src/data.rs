//! SDE-T2 and the special letters: the unit chart, the missions' tables, and the setup a game
//! is made from.
//!
//! The unit chart (`data/units.toml`) and the missions (`data/scenarios/*.toml`) are TOML,
//! embedded in the binary; a caller with files of its own (`--data DIR`) passes their text
//! in (this crate does no I/O). Lengths in the files are in sticks (`0.75`); they become
//! integer ticks here, exactly ([`STICK`] ticks a stick), and a length that is not a whole
//! number of ticks is an error, so the table a game plays on is the one the file describes.
//!
//! A [`Setup`] carries the whole chart and the mission, so a record replays without files.

pub use crate::options::{Armies, Artillery, Contest, Options, Start};
use battlemat_core::SetupError;
use battlemat_geom::table::{Outline, Piece, Point, Table, Ticks};
use serde::{Deserialize, Deserializer, Serialize};
use std::collections::BTreeMap;

/// Ticks in one measuring stick. 2,400 divides by 2, 3, 4, 5, 6 and 8, so a base's radius
/// (1/8 stick) and "next to" (1/6 stick) are whole numbers.
pub const STICK: Ticks = 2400;
/// A unit's base: a circle of radius 1/8 stick (rulings.md).
pub const BASE_RADIUS: Ticks = STICK / 8;
/// "Next to": bases within 1/6 stick edge to edge (rulings.md).
pub const NEXT_TO: Ticks = STICK / 6;
/// A ball or bomb is a little smaller than a figure's base.
pub const BALL_RADIUS: Ticks = STICK / 10;
/// CONVOY: the ship's base ("a large toy ship"): a stick across (ours).
pub const SHIP_RADIUS: Ticks = STICK / 2;

pub const UNITS_TOML: &str = include_str!("../data/units.toml");
pub const MISSIONS: [(&str, &str); 9] = [
    (
        "king_of_the_hill.toml",
        include_str!("../data/scenarios/king_of_the_hill.toml"),
    ),
    ("soccer.toml", include_str!("../data/scenarios/soccer.toml")),
    (
        "kick_bomb.toml",
        include_str!("../data/scenarios/kick_bomb.toml"),
    ),
    (
        "ring_battle.toml",
        include_str!("../data/scenarios/ring_battle.toml"),
    ),
    (
        "shooting_gallery.toml",
        include_str!("../data/scenarios/shooting_gallery.toml"),
    ),
    ("safari.toml", include_str!("../data/scenarios/safari.toml")),
    (
        "egg_hunt.toml",
        include_str!("../data/scenarios/egg_hunt.toml"),
    ),
    ("convoy.toml", include_str!("../data/scenarios/convoy.toml")),
    ("zones.toml", include_str!("../data/scenarios/zones.toml")),
];

fn is_zero_ticks(t: &Ticks) -> bool {
    *t == 0
}

/// The special letters (SDE-A .. SDE-V). Every unit has one or none.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Special {
    /// ARTILLERY: may ignore range penalties.
    A,
    /// BITS: may shoot from any point within 1 stick.
    B,
    /// CHEAP: -1 die defending, -1 cost (value 2 or 3 only).
    C,
    /// FAST: a free extra move at the end of the turn.
    F,
    /// HIDE.
    H,
    /// MELEE: +1 die in melee; a lost melee attack is a tie.
    M,
    /// SPRAY: split the attack dice across targets.
    S,
    /// TRANSPORT: carries up to its value in friendly units; no melee attacks.
    T,
    /// VETERAN: re-roll one own die attacking or defending.
    V,
}

impl Special {
    pub fn letter(self) -> char {
        match self {
            Special::A => 'A',
            Special::B => 'B',
            Special::C => 'C',
            Special::F => 'F',
            Special::H => 'H',
            Special::M => 'M',
            Special::S => 'S',
            Special::T => 'T',
            Special::V => 'V',
        }
    }
    pub fn from_letter(c: char) -> Option<Special> {
        Some(match c.to_ascii_uppercase() {
            'A' => Special::A,
            'B' => Special::B,
            'C' => Special::C,
            'F' => Special::F,
            'H' => Special::H,
            'M' => Special::M,
            'S' => Special::S,
            'T' => Special::T,
            'V' => Special::V,
            _ => return None,
        })
    }
}

/// One line of the unit chart: a value and at most one letter.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitType {
    pub name: String,
    pub value: u8,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub special: Option<Special>,
    /// The text prints neither this value nor this letter for the figure.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub ours: bool,
    /// A mobile suit, which may jump over terrain (SDE-MOVE; the `jump` option): false for
    /// a tank, a ship, a mobile armour or a mobile pod.
    #[serde(default = "yes", skip_serializing_if = "is_yes")]
    pub mobile_suit: bool,
}

fn yes() -> bool {
    true
}

fn is_yes(b: &bool) -> bool {
    *b
}

impl UnitType {
    /// Its cost in points: its value, one less if CHEAP (SDE-T2, SDE-C).
    pub fn cost(&self) -> u8 {
        self.value - u8::from(self.special == Some(Special::C))
    }
    /// "4V", "2C", "1".
    pub fn label(&self) -> String {
        match self.special {
            Some(s) => format!("{}{}", self.value, s.letter()),
            None => self.value.to_string(),
        }
    }
    pub fn is(&self, s: Special) -> bool {
        self.special == Some(s)
    }
}

/// Which mission's special rules and victory apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MissionKind {
    KingOfTheHill,
    Soccer,
    KickBomb,
    RingBattle,
    ShootingGallery,
    Safari,
    EggHunt,
    Convoy,
    BattleZones,
}

impl MissionKind {
    /// The friendly missions: players may not attack each other (CONVOY, BATTLE ZONES).
    pub fn friendly(self) -> bool {
        matches!(self, MissionKind::Convoy | MissionKind::BattleZones)
    }
}

/// A length in sticks as written in a file: a number (`0.75`) or a string (`"0.75"`).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Sticks(f64);

impl<'de> Deserialize<'de> for Sticks {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Int(i64),
            Float(f64),
            Text(String),
        }
        match Raw::deserialize(d)? {
            Raw::Int(i) => Ok(Sticks(i as f64)),
            Raw::Float(f) => Ok(Sticks(f)),
            Raw::Text(t) => {
                t.trim().parse().map(Sticks).map_err(|_| {
                    serde::de::Error::custom(format!("{t:?} is not a length in sticks"))
                })
            }
        }
    }
}

/// Sticks to ticks, exactly.
pub fn ticks(sticks: f64) -> Result<Ticks, String> {
    let t = sticks * STICK as f64;
    let r = t.round();
    if !t.is_finite() || (t - r).abs() > 1e-6 || r.abs() > battlemat_geom::table::MAX_COORD as f64 {
        return Err(format!(
            "{sticks} sticks is not a whole number of 1/{STICK} sticks"
        ));
    }
    Ok(r as Ticks)
}

#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Shape {
    Circle,
    Polygon,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct TerrainFile {
    name: String,
    shape: Shape,
    /// A circle's centre and radius.
    #[serde(default)]
    at: Option<[Sticks; 2]>,
    #[serde(default)]
    radius: Option<Sticks>,
    /// A convex polygon's corners.
    #[serde(default)]
    corners: Vec<[Sticks; 2]>,
    #[serde(default)]
    height: u8,
    #[serde(default)]
    blocks_sight: bool,
    #[serde(default)]
    holds: u8,
}

fn two() -> u8 {
    2
}
fn six() -> u8 {
    6
}
fn seven() -> u8 {
    7
}
fn three() -> u8 {
    3
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct MissionFile {
    id: String,
    name: String,
    mission: MissionKind,
    summary: String,
    width: Sticks,
    depth: Sticks,
    #[serde(default = "two")]
    min_seats: u8,
    #[serde(default = "six")]
    max_seats: u8,
    #[serde(default = "seven")]
    points: u8,
    #[serde(default = "three")]
    most_units: u8,
    #[serde(default)]
    least_units: u8,
    #[serde(default)]
    tokens_to_win: u8,
    #[serde(default)]
    start_tokens: u8,
    #[serde(default)]
    balls: u8,
    #[serde(default)]
    balls_many_players: u8,
    #[serde(default)]
    animals: Vec<u8>,
    #[serde(default)]
    boss: String,
    #[serde(default)]
    enemies: Vec<String>,
    #[serde(default)]
    zone_length: Option<Sticks>,
    #[serde(default)]
    ambush2: String,
    #[serde(default)]
    ambush3: String,
    #[serde(default)]
    zone_cards: Vec<ZoneCard>,
    #[serde(default)]
    blip_mix: Vec<u8>,
    #[serde(default)]
    goal_width: Option<Sticks>,
    #[serde(default)]
    ring_radius: Option<Sticks>,
    #[serde(default)]
    armies: Vec<Vec<String>>,
    #[serde(default)]
    terrain: Vec<TerrainFile>,
}

/// A mission, measured in ticks: what a setup carries.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Mission {
    pub id: String,
    pub name: String,
    pub mission: MissionKind,
    pub summary: String,
    pub table: Table,
    /// Each terrain piece's name, as `table.pieces` orders them.
    pub terrain_names: Vec<String>,
    pub min_seats: u8,
    pub max_seats: u8,
    /// The points each player may spend (about 7).
    pub points: u8,
    /// At most this many units a player, transports not counted (0: no maximum).
    pub most_units: u8,
    /// At least this many units a player (SHOOTING GALLERY: 3).
    pub least_units: u8,
    /// Tokens that win (0: the mission is won another way).
    pub tokens_to_win: u8,
    /// Tokens each player starts with (KICK-BOMB: 3).
    pub start_tokens: u8,
    /// Balls or bombs with 2 players, and with 3 or more.
    pub balls: u8,
    pub balls_many_players: u8,
    /// SAFARI: the animals' values, this set for each player.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub animals: Vec<u8>,
    /// EGG HUNT: the boss's unit chart key (a 4-point unit that attacks everybody).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub boss: String,
    /// CONVOY: the pool of enemy units (unit chart keys, one entry a unit).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub enemies: Vec<String>,
    /// BATTLE ZONES: each zone's length (as wide as the table); the AMBUSH 2 and AMBUSH 3
    /// enemies (chart keys); the zone deck; the blip mix in percent (Ambush 2, Ambush 3,
    /// Target, Bomb).
    #[serde(default, skip_serializing_if = "is_zero_ticks")]
    pub zone_length: Ticks,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub ambush2: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub ambush3: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub zone_cards: Vec<ZoneCard>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub blip_mix: Vec<u8>,
    /// SOCCER: each goal's width.
    pub goal_width: Ticks,
    /// RING BATTLE: the ring's radius about the table's centre.
    pub ring_radius: Ticks,
    /// The default army of each seat: unit chart keys.
    pub armies: Vec<Vec<String>>,
}

impl MissionFile {
    pub(crate) fn measure(self) -> Result<Mission, SetupError> {
        let len = |s: Sticks, what: &str| ticks(s.0).map_err(|e| SetupError::new(what, e));
        let mut pieces = Vec::new();
        let mut names = Vec::new();
        for (i, t) in self.terrain.into_iter().enumerate() {
            let at = |p: [Sticks; 2], what: &str| -> Result<Point, SetupError> {
                Ok(Point::new(len(p[0], what)?, len(p[1], what)?))
            };
            let outline = match (t.shape, t.at, t.radius) {
                (Shape::Circle, Some(c), Some(radius)) => Outline::Circle {
                    centre: at(c, &format!("terrain[{i}].at"))?,
                    radius: len(radius, &format!("terrain[{i}].radius"))?,
                },
                (Shape::Circle, _, _) => {
                    return Err(SetupError::new(
                        format!("terrain[{i}]"),
                        "a circle needs `at` (its centre) and `radius`",
                    ));
                }
                (Shape::Polygon, None, None) => Outline::Polygon {
                    corners: t
                        .corners
                        .into_iter()
                        .map(|c| at(c, &format!("terrain[{i}].corners")))
                        .collect::<Result<_, _>>()?,
                },
                (Shape::Polygon, _, _) => {
                    return Err(SetupError::new(
                        format!("terrain[{i}]"),
                        "a polygon has `corners`, not `at` or `radius`",
                    ));
                }
            };
            pieces.push(Piece {
                outline,
                height: Ticks::from(t.height) * STICK,
                blocks_sight: t.blocks_sight,
                holds: t.holds,
            });
            names.push(t.name);
        }
        Ok(Mission {
            table: Table {
                width: len(self.width, "width")?,
                depth: len(self.depth, "depth")?,
                pieces,
            },
            terrain_names: names,
            id: self.id,
            name: self.name,
            mission: self.mission,
            summary: self.summary,
            min_seats: self.min_seats,
            max_seats: self.max_seats,
            points: self.points,
            most_units: self.most_units,
            least_units: self.least_units,
            tokens_to_win: self.tokens_to_win,
            start_tokens: self.start_tokens,
            balls: self.balls,
            balls_many_players: self.balls_many_players,
            goal_width: self
                .goal_width
                .map_or(Ok(STICK), |g| len(g, "goal_width"))?,
            ring_radius: self.ring_radius.map_or(Ok(0), |r| len(r, "ring_radius"))?,
            animals: self.animals,
            boss: self.boss,
            enemies: self.enemies,
            zone_length: self.zone_length.map_or(Ok(0), |z| len(z, "zone_length"))?,
            ambush2: self.ambush2,
            ambush3: self.ambush3,
            zone_cards: self.zone_cards,
            blip_mix: self.blip_mix,
            armies: self.armies,
        })
    }
}

/// Everything a game is made from: the unit chart, the mission, the options, the number of
/// players and each player's army (unit chart keys; empty for a draft).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    pub chart: BTreeMap<String, UnitType>,
    pub mission: Mission,
    #[serde(default)]
    pub options: Options,
    pub players: u8,
    pub armies: Vec<Vec<String>>,
}

/// The unit chart and the missions.
#[derive(Clone, Debug)]
pub struct Catalog {
    pub chart: BTreeMap<String, UnitType>,
    pub missions: Vec<Mission>,
}

impl Catalog {
    pub fn mission(&self, id: &str) -> Result<&Mission, SetupError> {
        self.missions.iter().find(|m| m.id == id).ok_or_else(|| {
            let ids: Vec<&str> = self.missions.iter().map(|m| m.id.as_str()).collect();
            SetupError::new(
                format!("scenario {id}"),
                format!("no such mission; missions are {}", ids.join(", ")),
            )
        })
    }

    /// The setup for a mission with `players` players and the options.
    pub fn setup(&self, id: &str, players: u8, options: Options) -> Result<Setup, SetupError> {
        let m = self.mission(id)?;
        let armies = match options.armies {
            Armies::Draft => vec![Vec::new(); players as usize],
            Armies::Mission => m.armies.iter().take(players as usize).cloned().collect(),
        };
        Ok(Setup {
            chart: self.chart.clone(),
            mission: m.clone(),
            options,
            players,
            armies,
        })
    }
}

/// BATTLE ZONES' zone cards (rulings.md: no original cards were found; these are built
/// only from mechanics in the text, and are ours).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ZoneCard {
    /// Two more asteroids in the zone.
    Asteroids,
    /// Shooting in the zone limited to 1 stick.
    MinovskyParticles,
    /// Every blip in the zone is an AMBUSH 2.
    AmbushNest,
    /// Bombs in the zone explode on a 5 or 6.
    Minefield,
    /// Targets in the zone defend with 4 dice.
    Fortified,
    /// A value-4 enemy in the zone: it clears only when that enemy is beaten.
    Boss,
}

impl ZoneCard {
    pub const ALL: [ZoneCard; 6] = [
        ZoneCard::Asteroids,
        ZoneCard::MinovskyParticles,
        ZoneCard::AmbushNest,
        ZoneCard::Minefield,
        ZoneCard::Fortified,
        ZoneCard::Boss,
    ];
    pub fn name(self) -> &'static str {
        match self {
            ZoneCard::Asteroids => "Asteroids",
            ZoneCard::MinovskyParticles => "Minovsky Particles",
            ZoneCard::AmbushNest => "Ambush Nest",
            ZoneCard::Minefield => "Minefield",
            ZoneCard::Fortified => "Fortified",
            ZoneCard::Boss => "Boss",
        }
    }
}
