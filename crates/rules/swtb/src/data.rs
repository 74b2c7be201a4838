//! SWTB-U1 and the scenarios: unit types, scenarios and the setup a game is made from.
//!
//! Units and scenarios are TOML files in `data/`, embedded in the binary. A caller that
//! reads files from disk (`--data DIR`) passes their text to [`Catalog::from_sources`];
//! this crate does no I/O. Errors name the file, line and column (`battlemat_core::data`).

pub use crate::options::{Contest, Initiative, Options, Ties};
use battlemat_core::data::{Source, parse, place};
use battlemat_core::{Seating, SetupError};
use battlemat_geom::Cell;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

pub const UNITS_TOML: &str = include_str!("../data/units.toml");
pub const SCENARIOS: [(&str, &str); 3] = [
    (
        "outpost.toml",
        include_str!("../data/scenarios/outpost.toml"),
    ),
    ("bunker.toml", include_str!("../data/scenarios/bunker.toml")),
    ("skies.toml", include_str!("../data/scenarios/skies.toml")),
];

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Class {
    Figure,
    Ship,
    GroundVehicle,
    Gun,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Weapon {
    Blaster,
    LightSaber,
    None,
}

fn yes() -> bool {
    true
}

fn two_seats() -> u8 {
    2
}
fn is_two_seats(n: &u8) -> bool {
    *n == 2
}
fn most_seats() -> u8 {
    crate::setup::MAX_SEATS
}
fn is_most_seats(n: &u8) -> bool {
    *n == crate::setup::MAX_SEATS
}

/// One line of the unit table (SWTB-U1).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitType {
    pub name: String,
    pub class: Class,
    #[serde(default)]
    pub r#move: u8,
    pub dice: u8,
    #[serde(default)]
    pub attack_dice: Option<u8>,
    pub cost: u32,
    pub weapon: Weapon,
    #[serde(default = "yes")]
    pub attacks_fliers: bool,
    #[serde(default = "yes")]
    pub attacks_ground: bool,
    #[serde(default)]
    pub force_user: bool,
    #[serde(default)]
    pub reviver: bool,
    #[serde(default)]
    pub thermal_detonators: bool,
    #[serde(default)]
    pub crewed: bool,
    /// May crew a fixed gun (troopers: SWTB-O8).
    #[serde(default)]
    pub crew: bool,
    /// A Force User with Deflect Blasters defeats it when it attacks from adjacent and loses
    /// (troopers and heroes: SWTB-O4).
    #[serde(default)]
    pub deflectable: bool,
    /// Force Choke (SWTB-O2) defeats it on this 1d6 or better; 1 = automatic; absent = immune.
    #[serde(default)]
    pub choked_on: Option<u8>,
    /// Mind Trick (SWTB-O3) turns it on this 1d6 or better; 1 = automatic; absent = immune.
    #[serde(default)]
    pub mind_tricked_on: Option<u8>,
}

impl UnitType {
    pub fn attack_dice(&self) -> u8 {
        self.attack_dice.unwrap_or(self.dice)
    }
    pub fn flies(&self) -> bool {
        self.class == Class::Ship
    }
}

/// A force power (SWTB-O1..O4), one per Force User.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Power {
    LightSaberThrow,
    ForceChoke,
    MindTrick,
    DeflectBlasters,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Alignment {
    Light,
    Dark,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitSpec {
    pub kind: String,
    pub name: String,
    /// Where it starts; ships have none (they line up off the battlefield, SWTB-F1).
    #[serde(default)]
    pub at: Option<Cell>,
    #[serde(default)]
    pub power: Option<Power>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideSpec {
    pub name: String,
    pub alignment: Alignment,
    pub units: Vec<UnitSpec>,
}

/// A scenario goal other than elimination and surrender.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Goal {
    /// `side` wins as soon as one of its units ends a move on one of `cells`.
    Reach { side: u8, cells: Vec<Cell> },
    /// `side` wins if, after the last round, it has a unit on `cells` and the enemy has none
    /// there; otherwise the other side wins.
    Hold { side: u8, cells: Vec<Cell> },
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    pub id: String,
    pub name: String,
    pub summary: String,
    #[serde(default)]
    pub ours: bool,
    /// The seats it is played with (several players may share a side): 2 to 6 unless the
    /// scenario says otherwise.
    #[serde(default = "two_seats", skip_serializing_if = "is_two_seats")]
    pub min_seats: u8,
    #[serde(default = "most_seats", skip_serializing_if = "is_most_seats")]
    pub max_seats: u8,
    pub width: u8,
    pub height: u8,
    pub max_rounds: u16,
    /// The points each army was built to (SWTB-P); checked when the `points` option is on.
    pub points: u32,
    #[serde(default)]
    pub walls: Vec<Cell>,
    #[serde(default)]
    pub hills: Vec<Cell>,
    #[serde(default)]
    pub fortified: Vec<Cell>,
    #[serde(default)]
    pub goal: Option<Goal>,
    pub sides: Vec<SideSpec>,
}

/// Everything a game needs, as plain data: the unit table, the scenario and the options.
/// A record carries it whole, so a replay never depends on files that may have changed.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    pub unit_types: BTreeMap<String, UnitType>,
    pub scenario: Scenario,
    #[serde(default)]
    pub options: Options,
    /// Which side each seat plays; absent: one seat per side.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seating: Option<Seating>,
}

/// The unit table and scenarios, parsed.
#[derive(Clone, Debug)]
pub struct Catalog {
    pub unit_types: BTreeMap<String, UnitType>,
    pub scenarios: Vec<Scenario>,
}

/// Put a setup error found after parsing at its place in the unit table or the scenario
/// file it came from (`battlemat_core::data::place`).
pub fn place_error(e: SetupError, units: (&str, &str), scenario: (&str, &str)) -> SetupError {
    place(
        e,
        &[
            Source {
                prefix: "scenario.",
                name: scenario.0,
                text: scenario.1,
            },
            Source {
                prefix: "unit_types.",
                name: units.0,
                text: units.1,
            },
            Source {
                prefix: "",
                name: scenario.0,
                text: scenario.1,
            },
        ],
    )
}

impl Catalog {
    /// The built-in data, parsed once per process.
    pub fn builtin() -> &'static Catalog {
        static BUILTIN: std::sync::OnceLock<Catalog> = std::sync::OnceLock::new();
        BUILTIN.get_or_init(|| {
            Catalog::from_sources(UNITS_TOML, &SCENARIOS)
                .unwrap_or_else(|e| panic!("built-in SWTB data is broken: {e}"))
        })
    }

    /// Parse a unit table and scenario files (name, text), checking every scenario.
    pub fn from_sources(units: &str, scenarios: &[(&str, &str)]) -> Result<Catalog, SetupError> {
        Catalog::from_named_sources("units.toml", units, scenarios)
    }

    /// As [`Catalog::from_sources`], naming the unit table's file in errors.
    pub fn from_named_sources(
        units_name: &str,
        units: &str,
        scenarios: &[(&str, &str)],
    ) -> Result<Catalog, SetupError> {
        let unit_types: BTreeMap<String, UnitType> = parse(units_name, units)?;
        let mut out = Vec::new();
        for (file, text) in scenarios {
            let s: Scenario = parse(file, text)?;
            let setup = Setup {
                unit_types: unit_types.clone(),
                scenario: s.clone(),
                options: Options::default(),
                seating: None,
            };
            crate::setup::check_setup(&setup)
                .map_err(|e| place_error(e, (units_name, units), (file, text)))?;
            out.push(s);
        }
        Ok(Catalog {
            unit_types,
            scenarios: out,
        })
    }

    pub fn setup(&self, scenario: &str, options: Options) -> Result<Setup, SetupError> {
        let s = self
            .scenarios
            .iter()
            .find(|s| s.id == scenario)
            .ok_or_else(|| {
                let ids: Vec<&str> = self.scenarios.iter().map(|s| s.id.as_str()).collect();
                SetupError::new(
                    format!("scenario {scenario}"),
                    format!("no such scenario; scenarios are {}", ids.join(", ")),
                )
            })?;
        Ok(Setup {
            unit_types: self.unit_types.clone(),
            scenario: s.clone(),
            options,
            seating: None,
        })
    }
}
