//! A shot's targets and their shares of the dice (SDE-SHOOT; SPRAY splits its dice over the
//! two nearest targets, SDE-S).

use crate::state::UnitId;
use serde::{Deserialize, Serialize};

/// One share of an attack: a target and how many of the dice (0: all of them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Aim {
    pub target: UnitId,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub dice: u8,
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

/// A shot's targets and shares: one (the usual shot, kept inline, so listing shots allocates
/// nothing), or several (SPRAY). Reads as a slice; its JSON is a list either way.
#[derive(Clone, Debug)]
pub enum Aims {
    One(Aim),
    Many(Box<[Aim]>),
}

impl Aims {
    /// From a list: one target inline, several boxed.
    pub fn from_vec(v: Vec<Aim>) -> Aims {
        match v.as_slice() {
            [one] => Aims::One(*one),
            _ => Aims::Many(v.into()),
        }
    }
}

impl std::ops::Deref for Aims {
    type Target = [Aim];
    fn deref(&self) -> &[Aim] {
        match self {
            Aims::One(a) => std::slice::from_ref(a),
            Aims::Many(b) => b,
        }
    }
}

impl PartialEq for Aims {
    fn eq(&self, o: &Aims) -> bool {
        **self == **o
    }
}
impl Eq for Aims {}
impl std::hash::Hash for Aims {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        (**self).hash(h)
    }
}

impl Serialize for Aims {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        (**self).serialize(s)
    }
}

impl<'de> Deserialize<'de> for Aims {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Aims, D::Error> {
        Ok(Aims::from_vec(Vec::<Aim>::deserialize(d)?))
    }
}
