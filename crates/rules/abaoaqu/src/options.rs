//! Our house rules for Battle for A-Bao-A-Qu, declared once. The text has no optional rules;
//! each option here fills a gap (rulings.md), its first value our default.

use serde::{Deserialize, Serialize};

/// When a game nobody has won ends (a random or cautious game could otherwise go on for
/// ever: "No. of Turns: until a victory condition is met").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub enum Turns {
    #[serde(rename = "15")]
    T15,
    #[serde(rename = "10")]
    T10,
    #[serde(rename = "20")]
    T20,
    #[serde(rename = "30")]
    T30,
    /// No limit (the text: the game goes on until it is won).
    #[default]
    #[serde(rename = "none")]
    Unlimited,
}

impl Turns {
    pub fn limit(self) -> Option<u16> {
        match self {
            Turns::T15 => Some(15),
            Turns::T10 => Some(10),
            Turns::T20 => Some(20),
            Turns::T30 => Some(30),
            Turns::Unlimited => None,
        }
    }
}

battlemat_core::game_options! {
    /// Our house rules (the text has no optional rules).
    pub struct Options {
        turns: Turns = Turns::Unlimited, house "ABQ-3-3", values ["none", "15", "10", "20", "30"],
            help "turns after which a game nobody has won goes to the side defending the objective (S6: more counters left)";
    }
}
