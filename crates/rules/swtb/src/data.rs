//! Unit types, scenarios and options: the data a game is set up from.
//!
//! Units and scenarios are TOML files in `data/`, embedded in the binary. A caller that
//! reads files from disk (`--data DIR`) passes their text to [`Catalog::from_sources`];
//! this crate does no I/O. Errors name the file, line and column.

use battlemat_core::SetupError;
use battlemat_geom::{Cell, GridKind};
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

/// How combat dice are compared: the rulings' default (totals) or a house rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Contest {
    #[default]
    Total,
    Highest,
}

/// What a tie does (the text does not say).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Ties {
    /// Ties go to the defender: nothing happens (a dogfight tie sends both back).
    #[default]
    Defender,
    /// Both sides roll again.
    Reroll,
}

/// The optional rules (SWTB-O1..O10, SWTB-P) and our house rules. All optional rules are
/// off by default, as in the basic game.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    pub grid: GridKind,
    pub force_powers: bool,
    pub tougher_vehicles: bool,
    pub tougher_everything: bool,
    pub fortified: bool,
    pub artillery: bool,
    pub thermal_detonators: bool,
    pub morale: bool,
    /// Enforce the scenario's points limit (SWTB-P); off = "use every figure".
    pub points: bool,
    pub contest: Contest,
    pub ties: Ties,
}

/// One row of the options table.
pub struct OptionRow {
    pub key: &'static str,
    pub rule: &'static str,
    pub values: &'static [&'static str],
    pub default: &'static str,
    pub help: &'static str,
    /// Ours (filling a gap in the text), not one of the text's optional rules.
    pub house_rule: bool,
}

/// Every option: the text's optional rules (SWTB-O1..O10, SWTB-P) and our house rules.
pub const OPTION_TABLE: [OptionRow; 11] = [
    OptionRow {
        key: "grid",
        rule: "SWTB-2",
        values: &["square", "hex"],
        default: "square",
        help: "square or hex mat",
        house_rule: true,
    },
    OptionRow {
        key: "force_powers",
        rule: "SWTB-O1",
        values: &["false", "true"],
        default: "false",
        help: "each Force User has a power, set by the scenario or chosen by its side before round 1 (light saber throw, force choke, mind trick, deflect blasters)",
        house_rule: false,
    },
    OptionRow {
        key: "tougher_vehicles",
        rule: "SWTB-O5",
        values: &["false", "true"],
        default: "false",
        help: "ground vehicles must be defeated twice",
        house_rule: false,
    },
    OptionRow {
        key: "tougher_everything",
        rule: "SWTB-O6",
        values: &["false", "true"],
        default: "false",
        help: "units take as many hits as their combat dice",
        house_rule: false,
    },
    OptionRow {
        key: "fortified",
        rule: "SWTB-O7",
        values: &["false", "true"],
        default: "false",
        help: "units defending in fortified cells add 1d6",
        house_rule: false,
    },
    OptionRow {
        key: "artillery",
        rule: "SWTB-O8",
        values: &["false", "true"],
        default: "false",
        help: "fixed guns (2d6 attack, 1d6 defence, need a trooper)",
        house_rule: false,
    },
    OptionRow {
        key: "thermal_detonators",
        rule: "SWTB-O9",
        values: &["false", "true"],
        default: "false",
        help: "a trooper or hero adds 1d6 for each 6 it rolls in an attack",
        house_rule: false,
    },
    OptionRow {
        key: "morale",
        rule: "SWTB-O10",
        values: &["false", "true"],
        default: "false",
        help: "losing a Force User or half the army forces a surrender roll",
        house_rule: false,
    },
    OptionRow {
        key: "points",
        rule: "SWTB-P",
        values: &["false", "true"],
        default: "false",
        help: "armies must fit the scenario's points (off: use every figure)",
        house_rule: false,
    },
    OptionRow {
        key: "contest",
        rule: "SWTB-3",
        values: &["total", "highest"],
        default: "total",
        help: "compare dice totals, or each side's highest die",
        house_rule: true,
    },
    OptionRow {
        key: "ties",
        rule: "SWTB-3",
        values: &["defender", "reroll"],
        default: "defender",
        help: "a tie goes to the defender, or both roll again",
        house_rule: true,
    },
];

impl Options {
    /// Options from `key=value` pairs; unknown keys and values are errors naming them.
    pub fn from_pairs(pairs: &BTreeMap<String, String>) -> Result<Options, SetupError> {
        let mut o = Options::default();
        for (k, v) in pairs {
            let Some(row) = OPTION_TABLE.iter().find(|r| r.key == k) else {
                let keys: Vec<&str> = OPTION_TABLE.iter().map(|r| r.key).collect();
                return Err(SetupError::new(
                    format!("option {k}"),
                    format!("no such option; options are {}", keys.join(", ")),
                ));
            };
            if !row.values.contains(&v.as_str()) {
                return Err(SetupError::new(
                    format!("option {k}"),
                    format!("{v:?} is not one of {}", row.values.join(", ")),
                ));
            }
            let b = v == "true";
            match k.as_str() {
                "grid" => {
                    o.grid = if v == "hex" {
                        GridKind::Hex
                    } else {
                        GridKind::Square
                    }
                }
                "force_powers" => o.force_powers = b,
                "tougher_vehicles" => o.tougher_vehicles = b,
                "tougher_everything" => o.tougher_everything = b,
                "fortified" => o.fortified = b,
                "artillery" => o.artillery = b,
                "thermal_detonators" => o.thermal_detonators = b,
                "morale" => o.morale = b,
                "points" => o.points = b,
                "contest" => {
                    o.contest = if v == "highest" {
                        Contest::Highest
                    } else {
                        Contest::Total
                    }
                }
                "ties" => {
                    o.ties = if v == "reroll" {
                        Ties::Reroll
                    } else {
                        Ties::Defender
                    }
                }
                _ => unreachable!("every key in OPTION_TABLE is handled"),
            }
        }
        Ok(o)
    }
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
}

/// The unit table and scenarios, parsed.
#[derive(Clone, Debug)]
pub struct Catalog {
    pub unit_types: BTreeMap<String, UnitType>,
    pub scenarios: Vec<Scenario>,
}

/// `file:line:column: message` for a TOML error.
pub fn toml_error(file: &str, text: &str, e: &toml::de::Error) -> SetupError {
    let (line, col) = match e.span() {
        Some(span) => line_col(text, span.start),
        None => (1, 1),
    };
    SetupError::new(
        format!("{file}:{line}:{col}"),
        e.message().trim().to_string(),
    )
}

/// Put a setup error found after parsing (an unknown unit kind, a cell off the board) at its
/// place in the file it came from: `file:line:column: path: message`. The path names the
/// place in the setup (`scenario.sides[0].units[6].kind`, `unit_types.hero.dice`).
pub fn place_error(e: SetupError, units: (&str, &str), scenario: (&str, &str)) -> SetupError {
    let found = if let Some(rest) = e.at.strip_prefix("scenario.") {
        locate(scenario.1, rest).map(|(l, c)| (scenario.0, l, c))
    } else if let Some(rest) = e.at.strip_prefix("unit_types.") {
        locate(units.1, rest).map(|(l, c)| (units.0, l, c))
    } else {
        None
    };
    match found {
        Some((file, line, col)) => {
            SetupError::new(format!("{file}:{line}:{col}: {}", e.at), e.message)
        }
        // Not found in the text (a key with a dot in it): name the file at least.
        None if e.at.starts_with("unit_types.") => {
            SetupError::new(format!("{}: {}", units.0, e.at), e.message)
        }
        None => SetupError::new(format!("{}: {}", scenario.0, e.at), e.message),
    }
}

/// Where a path like `sides[0].units[6].kind` is in a TOML text, as (line, column).
fn locate(text: &str, path: &str) -> Option<(usize, usize)> {
    use toml::de::{DeTable, DeValue};
    let root = DeTable::parse(text).ok()?;
    let mut table = Some(root.get_ref());
    let mut span = root.span();
    for seg in path.split('.') {
        let (name, index) = match seg.split_once('[') {
            Some((n, i)) => (n, Some(i.trim_end_matches(']').parse::<usize>().ok()?)),
            None => (seg, None),
        };
        let (_, v) = table?.iter().find(|(k, _)| k.get_ref().as_ref() == name)?;
        span = v.span();
        let mut value = v.get_ref();
        if let Some(i) = index {
            let DeValue::Array(items) = value else {
                return None;
            };
            let item = items.get(i)?;
            span = item.span();
            value = item.get_ref();
        }
        table = match value {
            DeValue::Table(t) => Some(t),
            _ => None,
        };
    }
    Some(line_col(text, span.start))
}

fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
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
        let unit_types: BTreeMap<String, UnitType> =
            toml::from_str(units).map_err(|e| toml_error(units_name, units, &e))?;
        let mut out = Vec::new();
        for (file, text) in scenarios {
            let s: Scenario = toml::from_str(text).map_err(|e| toml_error(file, text, &e))?;
            let setup = Setup {
                unit_types: unit_types.clone(),
                scenario: s.clone(),
                options: Options::default(),
            };
            crate::state::Swtb::check_setup(&setup)
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
        })
    }
}
