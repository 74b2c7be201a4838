//! Our house rules for Battle for A-Bao-A-Qu, declared once. The text has no optional rules;
//! each option here fills a gap (rulings.md) or names a disputable reading (issue 20), its
//! default the reading docs/rules/abaoaqu.md argues for; no default changes a game.

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

/// ABQ-8-4: a group target in the shooters' own hex holds the shooters themselves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum GroupShooters {
    /// They are in the group like any friendly counter: their defence counts and the die
    /// is read for them ("the friendly units are affected in the same way").
    #[default]
    Hit,
    /// A counter does not shoot itself: the shooters are left out of the group.
    Spared,
}

/// ABQ-17-2: "When attacking the Bigzam at close range, the MS close combat tablet is used."
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum BigzamClose {
    /// A ship for combat purposes: 9-5 (c)'s ratio (2 × anti-ship : its anti-MS), and
    /// 9-4's shelter behind its side's mobile suits.
    #[default]
    Ship,
    /// A mobile suit in close combat: 9-5 (a)'s ratio (anti-MS : anti-MS), and no shelter.
    Ms,
}

/// ABQ-17-4: "invulnerable to beam weapons" — and to a beam-armed suit in close combat?
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum BigzamCloseBeams {
    /// Close combat is hand to hand, not the suit's beam weapon: a beam-armed suit may close.
    #[default]
    Hurt,
    /// The I-field stops a beam-armed suit in close combat too (its value is 0).
    Immune,
}

/// ABQ-11-2: "Whether the N rank is used ... is completely up to the player", where a rank
/// can hurt its own side: the firing side's own counters in a group target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum GroupRanks {
    /// Every rank is used in its own counter's favour, friends in the group included.
    #[default]
    Every,
    /// The firing side leaves its own counters' ranks in the group unused (it would not
    /// lower its own attack).
    FiringSide,
}

/// ABQ-3-3, ABQ-18-5: a screen the lead-off side's BD missiles place.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum LeadOffScreen {
    /// It works from its die on: the follow-up side's beams into or out of it are nullified.
    #[default]
    AtOnce,
    /// It works after the damage check: the return fire of the same battle is not blocked.
    AfterBattle,
}

/// ABQ-S1 … S5, S7: "keep N units on the fortress itself at all times for 3 turns".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum HoldCount {
    /// Counted at each turn's end: the turn the units arrive in counts.
    #[default]
    TurnEnd,
    /// Whole turns: a turn counts only when the fortress was held as it began, at the end of
    /// its first half and at its end (the turn they arrive in does not count).
    WholeTurns,
}

battlemat_core::game_options! {
    /// Our house rules (the text has no optional rules).
    pub struct Options {
        turns: Turns = Turns::Unlimited, house "ABQ-3-3", values ["none", "15", "10", "20", "30"],
            help "turns after which a game nobody has won goes to the side defending the objective (S6: more counters left)";
        group_shooters: GroupShooters = GroupShooters::Hit, house "ABQ-8-4", values ["hit", "spared"],
            help "a group target in the shooters' own hex: the shooters are in it and take the die too (hit), or are left out (spared)";
        bigzam_close: BigzamClose = BigzamClose::Ship, house "ABQ-17-2", values ["ship", "ms"],
            help "close combat with the Bigzam: as a ship (2 x anti-ship : its anti-MS, sheltered by its mobile suits) or as a mobile suit (anti-MS : anti-MS, no shelter)";
        bigzam_close_beams: BigzamCloseBeams = BigzamCloseBeams::Hurt, house "ABQ-17-4", values ["hurt", "immune"],
            help "may a beam-armed mobile suit close with the Bigzam (hurt), or does its I-field stop it too (immune)";
        group_ranks: GroupRanks = GroupRanks::Every, house "ABQ-11-2", values ["every", "firing_side"],
            help "a group target holding the firing side's own counters: their ranks defend it too (every), or the firing side leaves them unused (firing_side)";
        lead_off_screen: LeadOffScreen = LeadOffScreen::AtOnce, house "ABQ-3-3", values ["at_once", "after_battle"],
            help "a BD screen placed in the lead-off combat blocks the follow-up side's return fire (at_once), or works only after the damage check (after_battle)";
        hold_count: HoldCount = HoldCount::TurnEnd, house "ABQ-S1", values ["turn_end", "whole_turns"],
            help "the fortress held for 3 turns: counted at each turn's end (the turn the units arrive counts), or only whole turns held from their start";
    }
}
