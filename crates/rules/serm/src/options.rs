//! Our options for SERM, declared once. The text has no optional rules: `activations` is a
//! house rule of ours, and the others name the readings of the text (and of the cards of the
//! page's next revision, rulings.md) that could be argued either way, their first value our
//! default (docs/rules/serm.md says why).

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

/// The Demolitions Expert's 1 (the card: "on a 1 it kills itself; anyone partly inside
/// dies").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum DemolitionsOne {
    /// The charge goes off in its hands: the Expert dies, nobody else.
    #[default]
    Alone,
    /// The blast lands as any other (2 inches away) and kills anyone partly inside; the
    /// Expert dies too.
    BlastToo,
}

/// Where the Demolitions Expert may throw ("declare a direction").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum BlastAim {
    /// One of the sixteen winds, as a Move is declared.
    #[default]
    Winds,
    /// Also toward any soldier (friend or enemy, seen or not) or any point of the table.
    Anywhere,
}

/// When a soldier turns ("turning does not count as a move").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Turning {
    /// To shoot (it faces its target) and to move (it faces the way it went); to React it
    /// must already face the mover.
    #[default]
    ToShoot,
    /// At any time, for free: its front arc never stops it seeing a mover it has a clear
    /// line to, so any soldier with React 1 or more and a clear line may React.
    Free,
}

/// The Assault Commando's "may turn during a Move".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum CommandoTurn {
    /// It declares no direction: it rolls, then chooses one straight line.
    #[default]
    AimAfterRoll,
    /// As well, it may turn once on the way: a first leg along its direction, then the rest
    /// of its roll along a second one.
    TurnOnce,
}

battlemat_core::game_options! {
    /// Our options (the text has no optional rules).
    pub struct Options {
        activations: Activations = Activations::Unlimited, house "SERM-MOVE", values ["none", "200", "100", "400"],
            help "activations after which a game nobody has won ends: more soldiers left wins, equal is a draw";
        demolitions_one: DemolitionsOne = DemolitionsOne::Alone, house "SERM-SHOOT", values ["alone", "blast_too"],
            help "a Demolitions Expert rolling a 1 kills itself alone, or its blast also lands 2 inches away and kills anyone partly inside";
        blast_aim: BlastAim = BlastAim::Winds, house "SERM-SHOOT", values ["winds", "anywhere"],
            help "a blast is thrown along one of the 16 winds, or also toward any soldier or any point of the table";
        turning: Turning = Turning::ToShoot, house "SERM-REACT-H", values ["to_shoot", "free"],
            help "soldiers turn only to shoot and move (a React needs the mover in the front arc), or freely at any time (a clear line is enough)";
        commando_turn: CommandoTurn = CommandoTurn::AimAfterRoll, house "SERM-MOVE", values ["aim_after_roll", "turn_once"],
            help "the Assault Commando chooses its straight line after its roll, or may also turn once on the way";
    }
}
