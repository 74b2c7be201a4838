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

/// Who may jump over terrain (SDE-MOVE: "May not move through terrain, but mobile suits
/// may jump over terrain, and may land on top of terrain").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Jump {
    /// Every unit: SD ERA's figures all move as its mobile suits do.
    #[default]
    All,
    /// Only the chart's mobile suits (`mobile_suit`): a tank, a ship, a mobile armour or a
    /// mobile pod moves in a straight line that may not cross terrain, nor land on top of it.
    MobileSuits,
}

/// Whether a move may pass enemy units (only RING BATTLE says "may move past enemy units").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum PastEnemies {
    /// A move may pass over any unit: only where it lands matters.
    #[default]
    Jump,
    /// A move's straight line may not cross an enemy unit's base (but in RING BATTLE).
    RingOnly,
}

/// How SPRAY's shares lose dice at long range (SDE-S, SDE-RANGE).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum SprayRange {
    /// Each share is a shot of its own: a die off it for each stick beyond the first.
    #[default]
    PerShare,
    /// The attack loses its dice once, for its farthest target; the rest are split.
    Once,
}

/// How much an EGG HUNT `collect` picks up (SDE-EGG.2: "Any unit may pick up a credit by
/// spending an action adjacent to it").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Collect {
    /// The egg's credits, both, for one action.
    #[default]
    Both,
    /// One credit an action.
    One,
}

/// Where the players' units start ("Players start on any board edge", each mission's .1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Start {
    /// Fixed posts round the table edge, the units stood side by side at them.
    #[default]
    Posts,
    /// A deployment before play: each seat in turn chooses a table edge of its own and
    /// places its units along it, one at a time.
    Edge,
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
        jump: Jump = Jump::All, house "SDE-MOVE", values ["all", "mobile_suits"],
            help "every unit jumps over terrain, or only mobile suits (tanks, ships, mobile armours and pods go round it)";
        past_enemies: PastEnemies = PastEnemies::Jump, house "SDE-MOVE", values ["jump", "ring_only"],
            help "a move may pass over enemy units, or only in RING BATTLE (\"may move past enemy units\")";
        spray_range: SprayRange = SprayRange::PerShare, house "SDE-S", values ["per_share", "once"],
            help "SPRAY loses a die per stick beyond the first on each share, or once for the whole attack";
        collect: Collect = Collect::Both, house "SDE-EGG.2", values ["both", "one"],
            help "EGG HUNT: collect picks up an egg's two credits for one action, or one credit an action";
        start: Start = Start::Posts, house "SDE-KOTH.1", values ["posts", "edge"],
            help "units start at fixed posts round the table edge, or each player chooses an edge of their own and places their units along it";
    }
}
