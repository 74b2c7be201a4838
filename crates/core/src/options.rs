//! A game's options, declared once.
//!
//! Each game has a typed options struct (what its rules read: `o.fortified`) and a list of
//! what a front end shows (`battlemat rulesets`: key, rule id, values, default, help, house
//! rule or not). Kept by hand, the two drift apart — a key parsed but not listed, a default
//! listed that is not the struct's. [`game_options!`](crate::game_options) writes the struct,
//! its `Default`, and the table from one declaration; parsing `key=value` pairs
//! ([`GameOptions::from_pairs`]) and the listing ([`GameOptions::infos`]) are written once,
//! here, for every game.
//!
//! A value's text is its serde name (`"hex"`, `"true"`), so the options' JSON in a setup and
//! the words on the command line are the same words.
//!
//! Rejected: a `BTreeMap<String, String>` of options read by the rules. It needs no macro,
//! but every rule would parse strings at run time and a misspelt key would fail only when
//! that rule runs.

use crate::{OptionInfo, SEATS_OPTION, SetupError};
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::collections::BTreeMap;

/// One option: what the listing shows, and how to read and set it on the struct.
pub struct OptionRow<O> {
    pub key: &'static str,
    /// The rule id it belongs to.
    pub rule: &'static str,
    pub values: &'static [&'static str],
    pub help: &'static str,
    /// Ours (filling a gap in the text), not one of the text's optional rules.
    pub house_rule: bool,
    pub get: fn(&O) -> String,
    pub set: fn(&mut O, &str) -> Result<(), String>,
}

/// A game's options struct, made by [`game_options!`](crate::game_options).
pub trait GameOptions: Default + Sized + 'static {
    fn table() -> &'static [OptionRow<Self>];

    /// Options from `key=value` pairs; unknown keys and values are errors naming them. The
    /// [`SEATS_OPTION`] is left to the game (it is not a rule).
    fn from_pairs(pairs: &BTreeMap<String, String>) -> Result<Self, SetupError> {
        let mut o = Self::default();
        for (k, v) in pairs {
            if k == SEATS_OPTION {
                continue;
            }
            let Some(row) = Self::table().iter().find(|r| r.key == k) else {
                let keys: Vec<&str> = Self::table().iter().map(|r| r.key).collect();
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
            (row.set)(&mut o, v).map_err(|e| SetupError::new(format!("option {k}"), e))?;
        }
        Ok(o)
    }

    /// The listing for `battlemat rulesets`, defaults read off `Default`.
    fn infos() -> Vec<OptionInfo> {
        let d = Self::default();
        Self::table()
            .iter()
            .map(|r| OptionInfo {
                key: r.key.into(),
                rule: r.rule.into(),
                values: r.values.iter().map(|v| (*v).into()).collect(),
                default: (r.get)(&d),
                help: r.help.into(),
                house_rule: r.house_rule,
            })
            .collect()
    }
}

/// An option value as its text: the serde name of an enum variant, or a scalar's JSON.
pub fn value_text<T: Serialize>(v: &T) -> String {
    match serde_json::to_value(v) {
        Ok(serde_json::Value::String(s)) => s,
        Ok(other) => other.to_string(),
        Err(e) => format!("<{e}>"),
    }
}

/// An option value from its text (the inverse of [`value_text`]).
pub fn parse_value<T: DeserializeOwned>(text: &str) -> Result<T, String> {
    serde_json::from_value(serde_json::Value::String(text.into()))
        .or_else(|_| serde_json::from_str(text))
        .map_err(|e| format!("{text:?}: {e}"))
}

/// Declare a game's options once: the struct (serde, `deny_unknown_fields`, missing keys
/// take their defaults), its `Default`, and its [`GameOptions`] table.
///
/// ```
/// battlemat_core::game_options! {
///     /// The optional rules.
///     pub struct Options {
///         /// Units defending in fortified cells add 1d6.
///         fortified: bool = false, rule "SWTB-O7", values ["false", "true"],
///             help "units defending in fortified cells add 1d6";
///     }
/// }
/// use battlemat_core::GameOptions;
/// let o = Options::from_pairs(&[("fortified".to_string(), "true".to_string())].into()).unwrap();
/// assert!(o.fortified);
/// assert_eq!(Options::infos()[0].default, "false");
/// ```
///
/// Each row names its rule as `rule "ID"` (one of the text's optional rules) or `house "ID"`
/// (ours, filling a gap): `grid: GridKind = GridKind::Square, house "SWTB-2", ...`.
#[macro_export]
macro_rules! game_options {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident {
            $(
                $(#[$fmeta:meta])*
                $field:ident : $ty:ty = $default:expr, $kind:ident $rule:literal,
                    values [$($value:literal),+ $(,)?], help $help:literal;
            )*
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Debug, PartialEq, Eq, Hash, ::serde::Serialize, ::serde::Deserialize)]
        #[serde(default, deny_unknown_fields)]
        $vis struct $name {
            $( $(#[$fmeta])* pub $field: $ty, )*
        }

        impl ::std::default::Default for $name {
            fn default() -> Self {
                $name { $( $field: $default, )* }
            }
        }

        impl $crate::options::GameOptions for $name {
            fn table() -> &'static [$crate::options::OptionRow<Self>] {
                &[
                    $(
                        $crate::options::OptionRow {
                            key: stringify!($field),
                            rule: $rule,
                            values: &[$($value),+],
                            help: $help,
                            house_rule: $crate::game_options!(@house $kind),
                            get: |o: &Self| $crate::options::value_text(&o.$field),
                            set: |o: &mut Self, v: &str| {
                                o.$field = $crate::options::parse_value(v)?;
                                Ok(())
                            },
                        },
                    )*
                ]
            }
        }
    };
    (@house house) => { true };
    (@house rule) => { false };
}
