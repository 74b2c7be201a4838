//! SWTB-O1..O10, SWTB-P and our house rules: every option, declared once.
//!
//! The text's optional rules are all off by default, as in the basic game; our house rules
//! (marked `house`) fill its gaps with the researched default first.

use battlemat_geom::GridKind;
use serde::{Deserialize, Serialize};

/// How combat dice are compared: the rulings' default (totals) or a house rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Contest {
    #[default]
    Total,
    Highest,
}

/// What a tie does (the text does not say).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Ties {
    /// Ties go to the defender: nothing happens (a dogfight tie sends both back).
    #[default]
    Defender,
    /// Both sides roll again.
    Reroll,
}

/// How a side's initiative dice count (SWTB-1: "Highest roll wins").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Initiative {
    /// Each side's single best die (our reading of "highest roll").
    #[default]
    Best,
    /// The sum of each side's dice.
    Sum,
}

battlemat_core::game_options! {
    /// The optional rules (SWTB-O1..O10, SWTB-P) and our house rules.
    pub struct Options {
        grid: GridKind = GridKind::Square, house "SWTB-2", values ["square", "hex"],
            help "square or hex mat";
        force_powers: bool = false, rule "SWTB-O1", values ["false", "true"],
            help "each Force User has a power, set by the scenario or chosen by its side before round 1 (light saber throw, force choke, mind trick, deflect blasters)";
        tougher_vehicles: bool = false, rule "SWTB-O5", values ["false", "true"],
            help "ground vehicles must be defeated twice";
        tougher_everything: bool = false, rule "SWTB-O6", values ["false", "true"],
            help "units take as many hits as their combat dice";
        fortified: bool = false, rule "SWTB-O7", values ["false", "true"],
            help "units defending in fortified cells add 1d6";
        artillery: bool = false, rule "SWTB-O8", values ["false", "true"],
            help "fixed guns (2d6 attack, 1d6 defence, need a trooper)";
        thermal_detonators: bool = false, rule "SWTB-O9", values ["false", "true"],
            help "a trooper or hero adds 1d6 for each 6 it rolls in an attack";
        morale: bool = false, rule "SWTB-O10", values ["false", "true"],
            help "losing a Force User or half the army forces a surrender roll";
        /// Enforce the scenario's points limit (SWTB-P); off = "use every figure".
        points: bool = false, rule "SWTB-P", values ["false", "true"],
            help "armies must fit the scenario's points (off: use every figure)";
        contest: Contest = Contest::Total, house "SWTB-3", values ["total", "highest"],
            help "compare dice totals, or each side's highest die";
        ties: Ties = Ties::Defender, house "SWTB-3", values ["defender", "reroll"],
            help "a tie goes to the defender, or both roll again";
        initiative: Initiative = Initiative::Best, house "SWTB-1", values ["best", "sum"],
            help "each side's initiative is its best die, or the sum of its dice";
        /// A Force User that moved into contact may use Force Choke or Mind Trick (attacks
        /// at range adjacent) as its attack (SWTB-2, SWTB-O2, SWTB-O3).
        contact_powers: bool = true, house "SWTB-2", values ["true", "false"],
            help "a Force User that moved into contact may use Force Choke or Mind Trick as its attack";
    }
}
