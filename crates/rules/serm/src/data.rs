//! The five cards and the scenarios as data, and the setup a game is made from. Lengths in
//! the files are inches; positions are integer ticks on `geom::table`, [`INCH`] an inch.

pub use crate::options::{Activations, Options};
use battlemat_core::{Seating, SetupError};
use battlemat_geom::table::{Outline, Piece, Point, Table, Ticks};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Ticks in an inch.
pub const INCH: Ticks = 240;
/// A soldier's base: an inch across.
pub const BASE_RADIUS: Ticks = INCH / 2;

pub const CARDS_TOML: &str = include_str!("../data/cards.toml");
pub const SCENARIOS: [(&str, &str); 2] = [
    (
        "skirmish.toml",
        include_str!("../data/scenarios/skirmish.toml"),
    ),
    ("points.toml", include_str!("../data/scenarios/points.toml")),
];

/// The cards' special rules, as primitives (see `data/cards.toml`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Special {
    FreeMove,
    Blast,
    AllRound,
    ReactAny,
    HandOver,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Card {
    pub name: String,
    pub shoot: u8,
    pub endure: u8,
    pub react: u8,
    #[serde(rename = "move")]
    pub movement: u8,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub specials: Vec<Special>,
}

impl Card {
    pub fn has(&self, s: Special) -> bool {
        self.specials.contains(&s)
    }
    /// A line-up by points: S + E + R + M.
    pub fn cost(&self) -> u32 {
        (self.shoot + self.endure + self.react + self.movement) as u32
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct CardsFile {
    cards: BTreeMap<String, Card>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TerrainSpec {
    pub corners: Vec<[f64; 2]>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SoldierSpec {
    pub card: String,
    pub at: [f64; 2],
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideSpec {
    pub name: String,
    pub soldiers: Vec<SoldierSpec>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioFile {
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub summary: String,
    #[serde(default)]
    pub ours: bool,
    pub width: f64,
    pub depth: f64,
    /// A line-up by points: each side's cards cost at most this.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub points: Option<u32>,
    #[serde(default)]
    pub terrain: Vec<TerrainSpec>,
    pub sides: Vec<SideSpec>,
}

/// A scenario in ticks.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    pub id: String,
    pub name: String,
    pub summary: String,
    pub ours: bool,
    pub table: Table,
    pub points: Option<u32>,
    /// Each side: its name and its soldiers (card key, position).
    pub sides: Vec<(String, Vec<(String, Point)>)>,
}

fn ticks(v: f64, at: &str) -> Result<Ticks, SetupError> {
    let t = v * INCH as f64;
    if !t.is_finite() || t.round() != t || !(0.0..=1e6).contains(&t) {
        return Err(SetupError::new(
            at,
            format!("{v}: inches on the table, in whole 240ths of an inch"),
        ));
    }
    Ok(t as Ticks)
}

impl ScenarioFile {
    /// The scenario in ticks; an error's path is in the file (`terrain[2].corners[1]`), for
    /// the caller to place in it.
    pub fn to_scenario(&self) -> Result<Scenario, SetupError> {
        let at = |p: &str| p.to_string();
        let mut pieces = Vec::new();
        for (i, t) in self.terrain.iter().enumerate() {
            let mut corners = Vec::new();
            for (k, c) in t.corners.iter().enumerate() {
                let w = at(&format!("terrain[{i}].corners[{k}]"));
                corners.push(Point::new(ticks(c[0], &w)?, ticks(c[1], &w)?));
            }
            pieces.push(Piece {
                outline: Outline::Polygon { corners },
                height: INCH,
                blocks_sight: true,
                holds: 0,
            });
        }
        let mut sides = Vec::new();
        for (si, s) in self.sides.iter().enumerate() {
            let mut v = Vec::new();
            for (k, x) in s.soldiers.iter().enumerate() {
                let w = at(&format!("sides[{si}].soldiers[{k}].at"));
                v.push((
                    x.card.clone(),
                    Point::new(ticks(x.at[0], &w)?, ticks(x.at[1], &w)?),
                ));
            }
            sides.push((s.name.clone(), v));
        }
        Ok(Scenario {
            id: self.id.clone(),
            name: self.name.clone(),
            summary: self.summary.clone(),
            ours: self.ours,
            table: Table {
                width: ticks(self.width, &at("width"))?,
                depth: ticks(self.depth, &at("depth"))?,
                pieces,
            },
            points: self.points,
            sides,
        })
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    pub cards: BTreeMap<String, Card>,
    pub scenario: Scenario,
    #[serde(default)]
    pub options: Options,
    pub seating: Seating,
}

pub struct Catalog {
    pub cards: BTreeMap<String, Card>,
    pub scenarios: Vec<Scenario>,
}

impl Catalog {
    pub fn builtin() -> &'static Catalog {
        static CAT: std::sync::OnceLock<Catalog> = std::sync::OnceLock::new();
        CAT.get_or_init(|| {
            Catalog::from_sources(("cards.toml", CARDS_TOML), &SCENARIOS)
                .unwrap_or_else(|e| panic!("built-in data: {e}"))
        })
    }

    pub fn from_sources(
        cards: (&str, &str),
        scenarios: &[(&str, &str)],
    ) -> Result<Catalog, SetupError> {
        let c: CardsFile = battlemat_core::data::parse(cards.0, cards.1)?;
        let mut out = Vec::new();
        for (name, text) in scenarios {
            let f: ScenarioFile = battlemat_core::data::parse(name, text)?;
            out.push(f.to_scenario().map_err(|e| {
                let file = battlemat_core::data::Source {
                    prefix: "",
                    name,
                    text,
                };
                battlemat_core::data::place(e, &[file])
            })?);
        }
        Ok(Catalog {
            cards: c.cards,
            scenarios: out,
        })
    }

    pub fn setup(&self, id: &str, options: Options) -> Result<Setup, SetupError> {
        let s = battlemat_core::data::by_id(&self.scenarios, id, "scenario", |s| &s.id)?;
        Ok(Setup {
            cards: self.cards.clone(),
            scenario: s.clone(),
            options,
            seating: Seating::one_per_side(2),
        })
    }
}
