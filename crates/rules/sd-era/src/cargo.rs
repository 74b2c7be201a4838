//! What a transport carries on a move (SDE-T): the units it loads before and sets down
//! after, and the move's JSON with them.

use crate::events::Target;
use crate::state::UnitId;
use battlemat_geom::table::Point;
use serde::{Deserialize, Serialize};

/// A transport's passenger set down at the end of its move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Drop {
    pub unit: UnitId,
    pub at: Point,
}

/// What a transport loads before its move and sets down after it (SDE-T); never both
/// empty (no cargo is `None`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Cargo {
    pub load: Box<[UnitId]>,
    pub drop: Box<[Drop]>,
}

impl Cargo {
    /// `None` when there is nothing to carry.
    pub fn new(load: Vec<UnitId>, drop: Vec<Drop>) -> Option<Box<Cargo>> {
        (!load.is_empty() || !drop.is_empty()).then(|| {
            Box::new(Cargo {
                load: load.into(),
                drop: drop.into(),
            })
        })
    }

    /// The units loaded and the units set down (empty for no cargo).
    pub fn parts(c: &Option<Box<Cargo>>) -> (&[UnitId], &[Drop]) {
        match c {
            Some(c) => (&c.load, &c.drop),
            None => (&[], &[]),
        }
    }
}

/// `Action::Move` as JSON: `{"unit": 2, "to": …, "load": [..], "drop": [..]}`, the lists
/// left out when empty.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct MoveJson {
    unit: UnitId,
    to: Target,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    load: Vec<UnitId>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    drop: Vec<Drop>,
}

impl MoveJson {
    pub(crate) fn write<S: serde::Serializer>(
        unit: &UnitId,
        to: &Target,
        cargo: &Option<Box<Cargo>>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        let (load, drop) = Cargo::parts(cargo);
        MoveJson {
            unit: *unit,
            to: *to,
            load: load.to_vec(),
            drop: drop.to_vec(),
        }
        .serialize(s)
    }

    #[allow(clippy::type_complexity)]
    pub(crate) fn read<'de, D: serde::Deserializer<'de>>(
        d: D,
    ) -> Result<(UnitId, Target, Option<Box<Cargo>>), D::Error> {
        let m = MoveJson::deserialize(d)?;
        Ok((m.unit, m.to, Cargo::new(m.load, m.drop)))
    }
}
