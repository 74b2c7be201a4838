//! Our house rules for SD ERA, declared once. The text has no optional rules; every option
//! here fills a gap (rulings.md), its first value the researched default.

use serde::{Deserialize, Serialize};

/// How an opposed roll is decided (rulings.md, "Opposed roll").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Contest {
    /// Each side's highest die; the attacker wins only if higher. Overkill: the winner's
    /// other dice that beat the loser's highest.
    #[default]
    Highest,
    /// Totals; overkill = (difference - 1) div 3.
    Sum,
}

/// What ARTILLERY does (SDE-A).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Artillery {
    /// The special table: "May ignore range penalties".
    #[default]
    IgnoreRange,
    /// And the shooting text's "+1 die in either situation" when shooting.
    ExtraDie,
}

/// Where the armies come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Armies {
    /// Each mission's default armies.
    #[default]
    Mission,
    /// A draft before play: each seat in turn picks units from the chart under the points
    /// cap and the unit limit.
    Draft,
}

/// When a game that nobody has won yet ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub enum Rounds {
    #[serde(rename = "30")]
    R30,
    #[serde(rename = "15")]
    R15,
    #[serde(rename = "60")]
    R60,
    /// No limit (the text: the game goes on until it is won).
    #[default]
    #[serde(rename = "none")]
    Unlimited,
}

impl Rounds {
    pub fn limit(self) -> Option<u16> {
        match self {
            Rounds::R30 => Some(30),
            Rounds::R15 => Some(15),
            Rounds::R60 => Some(60),
            Rounds::Unlimited => None,
        }
    }
}

battlemat_core::game_options! {
    /// Our house rules (the text has no optional rules).
    pub struct Options {
        contest: Contest = Contest::Highest, house "SDE-SHOOT", values ["highest", "sum"],
            help "opposed rolls compare each side's highest die (ties to the defender), or totals";
        artillery: Artillery = Artillery::IgnoreRange, house "SDE-A", values ["ignore_range", "extra_die"],
            help "artillery ignores range penalties; extra_die also gives it +1 die when shooting";
        armies: Armies = Armies::Mission, house "SDE-T2", values ["mission", "draft"],
            help "each mission's default armies, or a draft from the unit chart before play";
        points: u8 = 7, house "SDE-T2", values ["7", "6", "8", "10"],
            help "points each player may spend in a draft (about 7)";
        rounds: Rounds = Rounds::Unlimited, house "SDE-T1", values ["none", "30", "15", "60"],
            help "rounds after which a game nobody has won ends, ranked by the mission's score";
        charge_balls: bool = false, house "SDE-CHARGE", values ["false", "true"],
            help "a move that ends next to a ball or bomb also gives a free melee (the text says an enemy unit)";
    }
}
