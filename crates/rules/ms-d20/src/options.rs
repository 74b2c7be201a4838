//! Our house rules for Mobile-suit d20 combat, declared once. The text has no optional
//! rules; each option fills a gap (rulings.md), its first value our default.

use serde::{Deserialize, Serialize};

/// When a game nobody has won ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub enum Melees {
    #[serde(rename = "10")]
    M10,
    #[serde(rename = "5")]
    M5,
    #[serde(rename = "20")]
    M20,
    /// No limit (the text: the game goes on until it is won).
    #[default]
    #[serde(rename = "none")]
    Unlimited,
}

impl Melees {
    pub fn limit(self) -> Option<u16> {
        match self {
            Melees::M10 => Some(10),
            Melees::M5 => Some(5),
            Melees::M20 => Some(20),
            Melees::Unlimited => None,
        }
    }
}

/// D20-3H a: "defender may attempt roll. If applicable and if not previously attempted" —
/// after which defences?
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum RollAfter {
    /// Only after a dodge, leap dodge or parry that failed: letting it hit (`take`) is
    /// taking it, and a successful parry has already met the blow.
    #[default]
    FailedDefence,
    /// After any hit, `take` and a successful parry included: only a roll already tried
    /// rules it out.
    AnyHit,
}

battlemat_core::game_options! {
    /// Our house rules (the text has no optional rules).
    pub struct Options {
        melees: Melees = Melees::Unlimited, house "D20-2", values ["none", "10", "5", "20"],
            help "melee rounds after which a game nobody has won ends, the side with more durability left ahead";
        newtype_save: u8 = 15, house "D20-1", values ["15", "12", "10"],
            help "what a save against Newtype Initiative must reach (d20 + Newtype level + save bonus)";
        roll_after: RollAfter = RollAfter::FailedDefence, house "D20-3H", values ["failed_defence", "any_hit"],
            help "when a hit defender may still roll with impact: only after a failed dodge or parry, or after any hit (take and a successful parry too)";
    }
}
