//! Our house rule for SERM, declared once. The text has no optional rules.

use serde::{Deserialize, Serialize};

/// When a game nobody has won ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub enum Activations {
    #[serde(rename = "200")]
    A200,
    #[serde(rename = "100")]
    A100,
    #[serde(rename = "400")]
    A400,
    /// No limit (the text: the game goes on until it is won).
    #[default]
    #[serde(rename = "none")]
    Unlimited,
}

impl Activations {
    pub fn limit(self) -> Option<u16> {
        match self {
            Activations::A200 => Some(200),
            Activations::A100 => Some(100),
            Activations::A400 => Some(400),
            Activations::Unlimited => None,
        }
    }
}

battlemat_core::game_options! {
    /// Our house rule (the text has no optional rules).
    pub struct Options {
        activations: Activations = Activations::Unlimited, house "SERM-MOVE", values ["none", "200", "100", "400"],
            help "activations after which a game nobody has won ends: more soldiers left wins, equal is a draw";
    }
}
