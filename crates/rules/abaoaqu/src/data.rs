//! ABQ-2-A, ABQ-2-B, ABQ-UNITS: the counters; ABQ-7-4's and ABQ-9-5's tables; the scenarios
//! (ABQ-S1 … ABQ-S7) — all as data, and the setup a game is made from.
//!
//! The counters (`data/units.toml`), the results tables (`data/tables.toml`) and the
//! scenarios (`data/scenarios/*.toml`) are TOML embedded in the binary; the values the boxed
//! game printed were not found, so ours are marked as ours and a user replaces the files. A
//! counter is a handful of primitives the rules read (class, values, weapon, pilot, flags,
//! a back side); no rule names a counter. A [`Setup`] carries the counters, the tables and
//! the scenario, so a record replays without the files.

pub use crate::options::{Options, Turns};
use battlemat_core::{Seating, SetupError};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

pub const UNITS_TOML: &str = include_str!("../data/units.toml");
pub const TABLES_TOML: &str = include_str!("../data/tables.toml");
pub const SCENARIOS: [(&str, &str); 7] = [
    (
        "s_field.toml",
        include_str!("../data/scenarios/s_field.toml"),
    ),
    (
        "n_field.toml",
        include_str!("../data/scenarios/n_field.toml"),
    ),
    (
        "a_bao_a_qu.toml",
        include_str!("../data/scenarios/a_bao_a_qu.toml"),
    ),
    (
        "s_field_reduced.toml",
        include_str!("../data/scenarios/s_field_reduced.toml"),
    ),
    (
        "solomon.toml",
        include_str!("../data/scenarios/solomon.toml"),
    ),
    ("moor.toml", include_str!("../data/scenarios/moor.toml")),
    (
        "luna_two.toml",
        include_str!("../data/scenarios/luna_two.toml"),
    ),
];

/// ABQ-2-A/B: what a counter is for stacking and as a target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Class {
    /// A mobile suit (mobile armours too).
    Ms,
    Fighter,
    /// A fortress cannon turret.
    Turret,
    Ship,
}

impl Class {
    /// "MS units include MS, fighters and cannon turrets" (ABQ-2-A): stacked four to a hex.
    pub fn is_ms_unit(self) -> bool {
        self != Class::Ship
    }
}

/// ABQ-2-B: the four weapon types, and none (a spent Public).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Weapon {
    Beam,
    Normal,
    Missile,
    /// Beam-disruption missiles (ABQ-18): fired at a hex, not at units.
    Bd,
}

/// ABQ-11 … ABQ-13: the pilot printed in the silhouette.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub enum Pilot {
    #[default]
    #[serde(rename = "regular")]
    Regular,
    N1,
    N2,
    N3,
    E,
    S,
}

impl Pilot {
    pub fn parse(s: &str) -> Option<Pilot> {
        Some(match s.to_ascii_uppercase().as_str() {
            "N1" | "N" => Pilot::N1,
            "N2" => Pilot::N2,
            "N3" => Pilot::N3,
            "E" => Pilot::E,
            "S" => Pilot::S,
            "REGULAR" | "R" | "" => Pilot::Regular,
            _ => return None,
        })
    }

    pub fn label(self) -> &'static str {
        match self {
            Pilot::Regular => "",
            Pilot::N1 => "N1",
            Pilot::N2 => "N2",
            Pilot::N3 => "N3",
            Pilot::E => "E",
            Pilot::S => "S",
        }
    }
}

/// The primitives a counter combines (see `data/units.toml`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Flag {
    RankInDefenceOnly,
    TargetAsShip,
    NoCloseAttack,
    BeamImmune,
    CloseHalfVsMs,
    CloseDefendsWithDefence,
    Satellite,
}

/// The other side of a double-sided counter (ABQ-15-2): what it changes.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Back {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub anti_ms: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub anti_ship: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub defence: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weapon: Option<Weapon>,
}

/// One counter type (ABQ-2-B): name, movement points, attack against MS, attack against
/// ships, defence, weapon type and pilot.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Kind {
    pub name: String,
    pub class: Class,
    #[serde(rename = "move")]
    pub movement: u8,
    pub anti_ms: u8,
    pub anti_ship: u8,
    pub defence: u8,
    pub weapon: Weapon,
    #[serde(default)]
    pub pilot: Pilot,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub flags: Vec<Flag>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub back: Option<Back>,
}

impl Kind {
    pub fn has(&self, f: Flag) -> bool {
        self.flags.contains(&f)
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct UnitsFile {
    units: BTreeMap<String, Kind>,
}

/// The results tables (ABQ-7-4, ABQ-9-5): `shooting[die - 1][column]`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tables {
    pub columns: Vec<String>,
    pub shooting: Vec<String>,
    pub close_shift: u8,
}

/// What one line of a results table does to a unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Hit {
    None,
    Confused,
    Panic,
    Destroyed,
}

impl Tables {
    pub fn check(&self, at: &str) -> Result<(), SetupError> {
        if self.columns.len() != 9 {
            return Err(SetupError::new(
                format!("{at}.columns"),
                "nine ratio columns, 1:3 to 7:1",
            ));
        }
        if self.shooting.len() != 8 {
            return Err(SetupError::new(
                format!("{at}.shooting"),
                "eight rows: the die 1-6, +1 confused, +2 panic",
            ));
        }
        for (i, row) in self.shooting.iter().enumerate() {
            if row.chars().count() != 9 || !row.chars().all(|c| "-CDX".contains(c)) {
                return Err(SetupError::new(
                    format!("{at}.shooting[{i}]"),
                    format!("{row:?}: nine results, each one of - C D X"),
                ));
            }
        }
        Ok(())
    }

    /// The result for a modified die (1 to 8) in a column (0 = 1:3 … 8 = 7:1).
    pub fn shooting_hit(&self, row: u8, column: u8) -> Hit {
        let r = (row.clamp(1, 8) - 1) as usize;
        match self.shooting[r].as_bytes()[column.min(8) as usize] {
            b'C' => Hit::Confused,
            b'D' => Hit::Panic,
            b'X' => Hit::Destroyed,
            _ => Hit::None,
        }
    }

    /// Close combat: the shooting table `close_shift` columns in the attacker's favour.
    pub fn hit(&self, row: u8, column: u8, close: bool) -> Hit {
        let c = if close {
            column.saturating_add(self.close_shift).min(8)
        } else {
            column
        };
        self.shooting_hit(row, c)
    }
}

/// Where a force comes from.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Edge {
    Top,
    Bottom,
    Left,
    Right,
}

/// Where a force is set up before play.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Deploy {
    /// Within three hexes of the fortress (its cannons on it).
    NearFortress,
}

/// A force: its counters, and where and when it arrives.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Force {
    pub name: String,
    /// `CODE`, `CODE(PILOT)`, with ` xN` for N of them.
    pub units: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enter: Option<Edge>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn: Option<u16>,
    /// ABQ-S7: the turn comes from a die rolled after the first turn.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub turn_by_die: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deploy: Option<Deploy>,
    /// Set up in these rows (from, to), cannons on the fortress.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deploy_rows: Option<(u8, u8)>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideSpec {
    pub name: String,
    /// Wins by keeping this many units on the fortress at the end of three turns running.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hold: Option<u16>,
    /// Wins a game nobody has won by the turn limit (the `turns` option).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub wins_at_limit: bool,
    pub forces: Vec<Force>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LeadOff {
    Federation,
    Zeon,
    /// A die: odd, the Federation (ABQ-S6).
    Die,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    pub id: String,
    pub number: u8,
    pub name: String,
    pub seats: (u8, u8),
    /// "1234" or "41/32" (ABQ-1).
    pub layout: String,
    pub lead_off: LeadOff,
    #[serde(default)]
    pub ours: bool,
    #[serde(default)]
    pub summary: String,
    /// Side 0 is the Federation, side 1 Zeon.
    pub sides: Vec<SideSpec>,
}

/// Everything a game is made from.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    pub units: BTreeMap<String, Kind>,
    pub tables: Tables,
    pub scenario: Scenario,
    #[serde(default)]
    pub options: Options,
    pub seating: Seating,
}

/// One roster entry read: the counter code, its pilot (if printed), how many.
pub fn roster_entry(s: &str) -> Result<(String, Option<Pilot>, u16), String> {
    let s = s.trim();
    let (head, count) = match s.rsplit_once(" x") {
        Some((h, n)) => (
            h.trim(),
            n.trim()
                .parse::<u16>()
                .map_err(|_| format!("{s:?}: the count after x is not a number"))?,
        ),
        None => (s, 1),
    };
    if count == 0 {
        return Err(format!("{s:?}: a count of 0"));
    }
    let (code, pilot) = match head.split_once('(') {
        Some((c, rest)) => {
            let p = rest
                .strip_suffix(')')
                .ok_or_else(|| format!("{s:?}: a pilot is written CODE(PILOT), e.g. GM(S)"))?;
            let pilot = Pilot::parse(p)
                .ok_or_else(|| format!("{s:?}: pilot {p:?} is not one of N1 N2 N3 E S"))?;
            (c.trim(), Some(pilot))
        }
        None => (head, None),
    };
    if code.is_empty() {
        return Err(format!("{s:?}: no counter code"));
    }
    Ok((code.to_string(), pilot, count))
}

/// The built-in data: counters, tables and scenarios.
pub struct Catalog {
    pub units: BTreeMap<String, Kind>,
    pub tables: Tables,
    pub scenarios: Vec<Scenario>,
}

impl Catalog {
    pub fn builtin() -> &'static Catalog {
        static CAT: std::sync::OnceLock<Catalog> = std::sync::OnceLock::new();
        CAT.get_or_init(|| {
            let scen: Vec<(&str, &str)> = SCENARIOS.to_vec();
            Catalog::from_sources(
                ("units.toml", UNITS_TOML),
                ("tables.toml", TABLES_TOML),
                &scen,
            )
            .unwrap_or_else(|e| panic!("built-in data: {e}"))
        })
    }

    /// From file texts (name, text): errors say `file:line:column`.
    pub fn from_sources(
        units: (&str, &str),
        tables: (&str, &str),
        scenarios: &[(&str, &str)],
    ) -> Result<Catalog, SetupError> {
        let u: UnitsFile = battlemat_core::data::parse(units.0, units.1)?;
        let t: Tables = battlemat_core::data::parse(tables.0, tables.1)?;
        t.check("tables").map_err(|e| {
            let file = battlemat_core::data::Source {
                prefix: "tables.",
                name: tables.0,
                text: tables.1,
            };
            battlemat_core::data::place(e, &[file])
        })?;
        let mut out = Vec::new();
        for (name, text) in scenarios {
            out.push(battlemat_core::data::parse::<Scenario>(name, text)?);
        }
        Ok(Catalog {
            units: u.units,
            tables: t,
            scenarios: out,
        })
    }

    pub fn setup(&self, id: &str, options: Options) -> Result<Setup, SetupError> {
        let s = battlemat_core::data::by_id(&self.scenarios, id, "scenario", |s| &s.id)?;
        Ok(Setup {
            units: self.units.clone(),
            tables: self.tables.clone(),
            scenario: s.clone(),
            options,
            seating: Seating::one_per_side(2),
        })
    }
}
