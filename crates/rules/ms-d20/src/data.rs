//! The combatants and scenarios as data (D20-4's armour types, D20-5's weapon types,
//! D20-6's save values, D20-8's ranges live here), and the setup a game is made from.
//!
//! Combatants (`data/combatants.toml`) and scenarios (`data/scenarios/*.toml`) are TOML
//! embedded in the binary, ours (the text gives no statistics), replaceable with files of a
//! user's own. A combatant is a handful of primitives the rules read — its kind, sections
//! with durability and armour, weapons with a damage roll, a type and save values, a pilot's
//! bonuses — and no rule names a combatant.

pub use crate::options::{Melees, Options};
use battlemat_core::{Seating, SetupError};
use battlemat_geom::Cell;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

pub const COMBATANTS_TOML: &str = include_str!("../data/combatants.toml");
pub const SCENARIOS: [(&str, &str); 2] = [
    ("duel.toml", include_str!("../data/scenarios/duel.toml")),
    ("ambush.toml", include_str!("../data/scenarios/ambush.toml")),
];

/// What a combatant is (D20-9's target types, and mobile armors).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Person,
    Vehicle,
    MobileUnit,
    /// A battleship.
    LargeVehicle,
    MobileArmor,
}

impl Kind {
    /// "large vehicles (battleships) and Mobile Armors" — the text's group for explosive
    /// splash, melee doubling and beam saves (D20-5E, 5M, 6B).
    pub fn is_large(self) -> bool {
        matches!(self, Kind::LargeVehicle | Kind::MobileArmor)
    }

    /// The row and column of D20-9's tables: a mobile armor as a mobile unit (ours).
    pub fn table_type(self) -> Kind {
        match self {
            Kind::MobileArmor => Kind::MobileUnit,
            k => k,
        }
    }
}

/// D20-4: the armour types and what each takes off the damage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Armour {
    /// Super high tensile steel: no reduction.
    Steel,
    Titanium,
    Composite,
    LunaTitanium,
}

impl Armour {
    pub fn reduction(self) -> u32 {
        match self {
            Armour::Steel => 0,
            Armour::Titanium => 10,
            Armour::Composite => 15,
            Armour::LunaTitanium => 20,
        }
    }
}

/// D20-5: the weapon types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WeaponType {
    Beam,
    Blade,
    Explosive,
    Melee,
    Projectile,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SectionFlag {
    Main,
    Arm,
    Leg,
    BeamVulnerable,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Section {
    pub name: String,
    pub durability: u32,
    pub armour: Armour,
    /// The called-shot strike penalty (0 or less).
    #[serde(default)]
    pub penalty: i8,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub flags: Vec<SectionFlag>,
}

impl Section {
    pub fn has(&self, f: SectionFlag) -> bool {
        self.flags.contains(&f)
    }
}

/// A damage roll: `dice`d`sides` × `times` + `plus`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Roll {
    pub dice: u8,
    pub sides: u8,
    pub times: u16,
    pub plus: u16,
}

impl Roll {
    /// The roll as written: `2d6x10`, `1d6`, `3d6x10+5`.
    pub fn notation(&self) -> String {
        let mut s = format!("{}d{}", self.dice, self.sides);
        if self.times != 1 {
            s += &format!("x{}", self.times);
        }
        if self.plus != 0 {
            s += &format!("+{}", self.plus);
        }
        s
    }

    /// The damage of a roll whose dice came to `sum`: `sum` × M + K.
    pub fn damage(&self, sum: u32) -> u32 {
        sum * u32::from(self.times) + u32::from(self.plus)
    }

    /// `2d6x10`, `1d6`, `3d6x10+5`.
    pub fn parse(s: &str) -> Result<Roll, String> {
        let t = s.trim().to_ascii_lowercase();
        let (main, plus) = match t.split_once('+') {
            Some((m, p)) => (
                m,
                p.trim()
                    .parse::<u16>()
                    .map_err(|_| format!("{s:?}: bad +K"))?,
            ),
            None => (t.as_str(), 0),
        };
        let (dice_part, times) = match main.split_once('x') {
            Some((d, m)) => (
                d,
                m.trim()
                    .parse::<u16>()
                    .map_err(|_| format!("{s:?}: bad xM"))?,
            ),
            None => (main, 1),
        };
        let (n, sides) = dice_part
            .split_once('d')
            .ok_or_else(|| format!("{s:?}: a damage roll is NdS, NdSxM or NdSxM+K"))?;
        let dice = n
            .trim()
            .parse::<u8>()
            .map_err(|_| format!("{s:?}: bad dice count"))?;
        let sides = sides
            .trim()
            .parse::<u8>()
            .map_err(|_| format!("{s:?}: bad die"))?;
        if dice == 0 || dice > 20 || !(2..=100).contains(&sides) || times == 0 {
            return Err(format!(
                "{s:?}: 1 to 20 dice of 2 to 100 sides, times at least 1"
            ));
        }
        Ok(Roll {
            dice,
            sides,
            times,
            plus,
        })
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Weapon {
    pub name: String,
    /// A damage roll (`2d6x10`); absent for a hand attack.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub damage: Option<String>,
    /// D20-7: a hand attack, strength - 20.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub hand: bool,
    #[serde(rename = "type")]
    pub kind: WeaponType,
    /// D20-6B: the beam save's value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub beam: Option<u8>,
    /// D20-6S: the stun save's value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stun: Option<u8>,
    /// D20-8: short, mid and long range, in cells.
    pub range: [u8; 3],
    /// The section it is mounted on.
    pub on: String,
    #[serde(default)]
    pub strike: i8,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pilot {
    pub name: String,
    #[serde(default)]
    pub initiative: i8,
    #[serde(default)]
    pub strike: i8,
    #[serde(default)]
    pub parry: i8,
    #[serde(default)]
    pub dodge: i8,
    #[serde(default)]
    pub leap_dodge: i8,
    #[serde(default)]
    pub roll: i8,
    #[serde(default)]
    pub save: i8,
    #[serde(default = "four")]
    pub apm: u8,
    #[serde(default)]
    pub newtype: u8,
    /// "initiative" (Newtype Initiative), "insight" (+ Newtype level to a declared strike).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub powers: Vec<String>,
}

fn four() -> u8 {
    4
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Combatant {
    pub name: String,
    pub kind: Kind,
    pub speed: u8,
    #[serde(default)]
    pub strength: u32,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub flags: Vec<String>,
    pub pilot: Pilot,
    pub sections: Vec<Section>,
    pub weapons: Vec<Weapon>,
}

impl Combatant {
    pub fn can_leap(&self) -> bool {
        self.flags.iter().any(|f| f == "can_leap")
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct CombatantsFile {
    combatants: BTreeMap<String, Combatant>,
}

/// D20-10: where a combatant is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Terrain {
    #[default]
    Ground,
    Airborne,
    Space,
    SpaceSurface,
    Submerged,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Placed {
    pub kind: String,
    pub at: Cell,
    #[serde(default)]
    pub terrain: Terrain,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideSpec {
    pub name: String,
    pub combatants: Vec<Placed>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    pub id: String,
    pub name: String,
    pub seats: (u8, u8),
    pub width: u8,
    pub height: u8,
    #[serde(default)]
    pub summary: String,
    #[serde(default)]
    pub ours: bool,
    /// A goal instead of the last side standing: destroying this combatant (an index into
    /// the scenario's combatants, in order) wins for the other side.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub goal: Option<usize>,
    pub sides: Vec<SideSpec>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    pub combatants: BTreeMap<String, Combatant>,
    pub scenario: Scenario,
    #[serde(default)]
    pub options: Options,
    pub seating: Seating,
}

pub struct Catalog {
    pub combatants: BTreeMap<String, Combatant>,
    pub scenarios: Vec<Scenario>,
}

impl Catalog {
    pub fn builtin() -> &'static Catalog {
        static CAT: std::sync::OnceLock<Catalog> = std::sync::OnceLock::new();
        CAT.get_or_init(|| {
            Catalog::from_sources(("combatants.toml", COMBATANTS_TOML), &SCENARIOS)
                .unwrap_or_else(|e| panic!("built-in data: {e}"))
        })
    }

    pub fn from_sources(
        combatants: (&str, &str),
        scenarios: &[(&str, &str)],
    ) -> Result<Catalog, SetupError> {
        let c: CombatantsFile = battlemat_core::data::parse(combatants.0, combatants.1)?;
        let mut out = Vec::new();
        for (name, text) in scenarios {
            out.push(battlemat_core::data::parse::<Scenario>(name, text)?);
        }
        Ok(Catalog {
            combatants: c.combatants,
            scenarios: out,
        })
    }

    pub fn setup(&self, id: &str, options: Options) -> Result<Setup, SetupError> {
        let s = battlemat_core::data::by_id(&self.scenarios, id, "scenario", |s| &s.id)?;
        Ok(Setup {
            combatants: self.combatants.clone(),
            scenario: s.clone(),
            options,
            seating: Seating::one_per_side(2),
        })
    }
}
