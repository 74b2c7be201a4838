//! D20-8 (distance), D20-9 (target type, all four tables) and D20-10 (terrain): the
//! modifiers to a strike.

use crate::data::{Kind, Terrain};

/// Short, mid or long range (D20-8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Range {
    Short,
    Mid,
    Long,
}

impl Range {
    /// The band `cells` falls in for a weapon's `[short, mid, long]`, or None beyond long.
    pub fn of(cells: u32, bands: [u8; 3]) -> Option<Range> {
        if cells <= bands[0] as u32 {
            Some(Range::Short)
        } else if cells <= bands[1] as u32 {
            Some(Range::Mid)
        } else if cells <= bands[2] as u32 {
            Some(Range::Long)
        } else {
            None
        }
    }

    /// "-2 strike on targets at mid range, -4 strike on targets at long range".
    pub fn strike(self) -> i16 {
        match self {
            Range::Short => 0,
            Range::Mid => -2,
            Range::Long => -4,
        }
    }

    pub fn parse(s: &str) -> Option<Range> {
        match s.to_ascii_lowercase().as_str() {
            "short" => Some(Range::Short),
            "mid" | "medium" => Some(Range::Mid),
            "long" => Some(Range::Long),
            _ => None,
        }
    }
}

/// D20-9: the strike modifier for an attacker of one type against a target of another
/// (mobile armors use the mobile unit rows, `Kind::table_type`).
pub fn target_type(attacker: Kind, target: Kind) -> i16 {
    use Kind::*;
    match (attacker.table_type(), target.table_type()) {
        // "When using a Mobile Unit"
        (MobileUnit, MobileUnit) => 0,
        (MobileUnit, Vehicle) => -2,
        (MobileUnit, LargeVehicle) => 4,
        (MobileUnit, Person) => -4,
        // "When using a Vehicle"
        (Vehicle, MobileUnit) => 0,
        (Vehicle, Vehicle) => 0,
        (Vehicle, LargeVehicle) => 4,
        (Vehicle, Person) => -2,
        // "When using a Large Vehicle (battleship)"
        (LargeVehicle, MobileUnit) => -2,
        (LargeVehicle, Vehicle) => -2,
        (LargeVehicle, LargeVehicle) => 0,
        (LargeVehicle, Person) => -4,
        // "When using no vehicles (just you)"
        (Person, MobileUnit) => 4,
        (Person, Vehicle) => 4,
        (Person, LargeVehicle) => 8,
        (Person, Person) => 0,
        (MobileArmor, _) | (_, MobileArmor) => 0,
    }
}

/// D20-10: "Atacking airborn target from ground -2 ... space target from space surface -2
/// ... submerged target from ground or air -4".
pub fn terrain(attacker: Terrain, target: Terrain) -> i16 {
    use Terrain::*;
    match (attacker, target) {
        (Ground, Airborne) => -2,
        (SpaceSurface, Space) => -2,
        (Ground | Airborne, Submerged) => -4,
        _ => 0,
    }
}

pub fn parse_kind(s: &str) -> Option<Kind> {
    Some(match s.to_ascii_lowercase().replace('-', "_").as_str() {
        "person" => Kind::Person,
        "vehicle" => Kind::Vehicle,
        "mobile_unit" | "ms" => Kind::MobileUnit,
        "large_vehicle" | "battleship" => Kind::LargeVehicle,
        "mobile_armor" | "ma" => Kind::MobileArmor,
        _ => return None,
    })
}

pub fn parse_terrain(s: &str) -> Option<(Terrain, Terrain)> {
    // "ground-airborne": the attacker's then the target's.
    let (a, b) = s.split_once(['-', ':', '/'])?;
    let t = |x: &str| {
        Some(match x.to_ascii_lowercase().as_str() {
            "ground" => Terrain::Ground,
            "airborne" | "air" => Terrain::Airborne,
            "space" => Terrain::Space,
            "space_surface" | "surface" => Terrain::SpaceSurface,
            "submerged" | "water" => Terrain::Submerged,
            _ => return None,
        })
    };
    Some((t(a)?, t(b)?))
}
