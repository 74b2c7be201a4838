//! Actions and events: plain data with a stable JSON form. Their short text form is in
//! [`crate::action_text`]; lengths, points and winds in [`crate::measure`]; a shot's shares
//! in [`crate::shares`]; a transport's cargo in [`crate::cargo`] (re-exported here, the
//! one place front ends import actions from).

pub use crate::cargo::{Cargo, Drop};
pub use crate::measure::{
    Target, WIND_VECTORS, WINDS, parse_point, parse_sticks, point_text, sticks,
};
pub use crate::shares::{Aim, Aims};
use crate::state::UnitId;
use battlemat_geom::table::Point;
use serde::{Deserialize, Serialize};

/// "u3".
pub fn unit_label(u: UnitId) -> String {
    format!("u{u}")
}

/// EGG HUNT: what an egg held (SDE-EGG.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EggContent {
    /// A cheap unit of this seat's army.
    Unit {
        seat: u8,
    },
    Bomb,
    Candy,
    Credits,
    Boss,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// MOVE (SDE-MOVE); a transport may load units next to it first and drop them next to
    /// it after (SDE-T).
    // One optional box for what a transport carries: a move is listed dozens of times a
    // decision and almost none carry anything, so the action stays small. The JSON keeps
    // `load` and `drop` as plain optional lists (see `MoveJson`).
    #[serde(
        serialize_with = "crate::cargo::MoveJson::write",
        deserialize_with = "crate::cargo::MoveJson::read"
    )]
    Move {
        unit: UnitId,
        to: Target,
        cargo: Option<Box<Cargo>>,
    },
    /// A shooting attack (SDE-SHOOT): one target, or SPRAY's shares (SDE-S); BITS may shoot
    /// from a point within 1 stick (SDE-B).
    Shoot {
        unit: UnitId,
        aims: Aims,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        from: Option<Point>,
    },
    /// A melee attack on a unit next to it (SDE-MELEE): free right after a charge.
    Melee {
        unit: UnitId,
        target: UnitId,
    },
    Recover {
        unit: UnitId,
    },
    Hide {
        unit: UnitId,
    },
    /// KING OF THE HILL: take a token.
    Collect {
        unit: UnitId,
    },
    /// RING BATTLE: a unit outside places a cheer die by a unit in the ring.
    Cheer {
        unit: UnitId,
        target: UnitId,
    },
    /// RING BATTLE: a unit outside tries to break in.
    BreakIn {
        unit: UnitId,
    },
    /// End the turn (or the end-of-turn free moves).
    End,
    /// Draft: take this unit from the chart.
    Pick {
        kind: String,
    },
    /// Done drafting, or done hiding at the start.
    Done,
    /// VETERAN: re-roll one die showing this face.
    Reroll {
        face: u8,
    },
    /// VETERAN: keep the dice.
    Keep,
    /// RING BATTLE: add this many of the unit's cheer dice to its roll.
    AddCheer {
        dice: u8,
    },
    /// Melee knockback's direction (SDE-KB1).
    Push {
        toward: Target,
    },
    /// Decline an optional knockback.
    Pass,
    /// KING OF THE HILL: take the hill, or stay.
    Take,
    Stay,
    /// RING BATTLE: place an earned cheer die.
    Place {
        target: UnitId,
    },
    /// `start = edge`: choose the table edge the seat starts on (0..4: near, left, far,
    /// right; `edge far`).
    Edge {
        edge: u8,
    },
    /// Put a unit on the table before play: RING BATTLE's in the ring or outside it near the
    /// player's table edge; `start = edge`'s along the player's edge.
    Deploy {
        unit: UnitId,
        at: Point,
    },
    /// SAFARI: pick up a stunned animal next to the unit.
    PickUp {
        unit: UnitId,
        animal: UnitId,
    },
    /// CONVOY: draw and place this many enemy units (none, one or two).
    Draw {
        count: u8,
    },
    /// CONVOY: give up this captured enemy unit (back to the pool).
    GiveUp {
        unit: UnitId,
    },
}

/// Who won an opposed roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Winner {
    Attacker,
    Defender,
    Tie,
}

/// What happened, in order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "event")]
pub enum Event {
    Picked {
        seat: u8,
        unit: UnitId,
        name: String,
    },
    Hid {
        unit: UnitId,
    },
    Unhidden {
        unit: UnitId,
    },
    TurnOrder {
        first: u8,
    },
    TurnBegins {
        seat: u8,
        round: u16,
    },
    Moved {
        unit: UnitId,
        from: Point,
        to: Point,
    },
    Loaded {
        transport: UnitId,
        unit: UnitId,
    },
    Dropped {
        transport: UnitId,
        unit: UnitId,
        at: Point,
    },
    Attacks {
        unit: Option<UnitId>,
        target: UnitId,
        melee: bool,
        att_dice: u8,
        def_dice: u8,
    },
    Rerolled {
        unit: Option<UnitId>,
        face: u8,
    },
    Cheered {
        unit: UnitId,
        dice: u8,
    },
    Fight {
        target: UnitId,
        winner: Winner,
        overkill: u8,
        att: [u8; 6],
        def: [u8; 6],
    },
    Knocked {
        unit: UnitId,
        from: Point,
        to: Point,
    },
    Bounced {
        ball: UnitId,
    },
    Stunned {
        unit: UnitId,
    },
    Recovered {
        unit: UnitId,
    },
    Token {
        seat: u8,
        tokens: u8,
    },
    TokenLost {
        seat: u8,
        tokens: u8,
    },
    Goal {
        seat: Option<u8>,
        ball: UnitId,
        goal: u8,
    },
    ReturnedToCentre {
        ball: UnitId,
    },
    BombGrows {
        bomb: UnitId,
        dice: u8,
    },
    BombExplodes {
        bomb: UnitId,
        hit: Vec<UnitId>,
    },
    CheerDie {
        unit: UnitId,
        cheer: u8,
    },
    BrokeIn {
        unit: UnitId,
    },
    FailedBreakIn {
        unit: UnitId,
    },
    KnockedOut {
        unit: UnitId,
        at: Point,
    },
    Deployed {
        unit: UnitId,
        at: Point,
        outside: bool,
    },
    /// `start = edge`: a unit placed along its player's edge before play.
    Placed {
        unit: UnitId,
        at: Point,
    },
    EdgeChosen {
        seat: u8,
        edge: u8,
    },
    PickedUp {
        unit: UnitId,
        animal: UnitId,
    },
    AnimalDropped {
        animal: UnitId,
        at: Point,
    },
    Captured {
        seat: u8,
        animal: UnitId,
        points: u8,
    },
    AnimalRecovers {
        animal: UnitId,
    },
    AnimalCharges {
        animal: UnitId,
        target: UnitId,
    },
    AnimalRunsAway {
        animal: UnitId,
        to: Point,
    },
    /// BATTLE ZONES: a zone entered for the first time shows its card.
    ZoneCardDrawn {
        zone: u8,
        card: crate::data::ZoneCard,
    },
    /// BATTLE ZONES: a blip touched by `unit` turns out to be `kind`.
    BlipRevealed {
        blip: UnitId,
        kind: crate::state::BlipKind,
        unit: UnitId,
    },
    /// BATTLE ZONES: an enemy or target beaten; `by` earns the blip.
    Defeated {
        unit: UnitId,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        by: Option<u8>,
    },
    /// BATTLE ZONES: a zone is cleared: units may move on into the next.
    ZoneCleared {
        zone: u8,
    },
    /// CONVOY: the ship moves forward.
    ShipMoves {
        ship: UnitId,
        to: Point,
    },
    /// CONVOY: an enemy unit drawn from the pool and placed behind an asteroid.
    EnemyArrives {
        unit: UnitId,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        by: Option<u8>,
    },
    /// CONVOY: a player captures a stunned enemy unit (its value in points).
    EnemyCaptured {
        seat: u8,
        unit: UnitId,
        points: u8,
    },
    /// CONVOY: the ship is damaged.
    ShipDamaged,
    /// CONVOY: a player gives a captured unit back to the pool.
    GaveUp {
        seat: u8,
        unit: UnitId,
    },
    /// CONVOY: the players' order this round.
    PlayerOrder {
        order: Vec<u8>,
    },
    /// CONVOY: a stunned enemy recovers instead of acting.
    EnemyRecovers {
        unit: UnitId,
    },
    /// EGG HUNT: an egg breaks open and shows what it held.
    EggOpens {
        egg: UnitId,
        content: EggContent,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        by: Option<u8>,
    },
    /// EGG HUNT: the unit out of an egg (it joins its army on its owner's next turn).
    Hatched {
        unit: UnitId,
    },
    /// EGG HUNT: credits picked up (`taken` of them: both, or one with `collect = one`);
    /// the player's credits now.
    CreditsTaken {
        unit: UnitId,
        credits: UnitId,
        #[serde(default)]
        taken: u8,
        tokens: u8,
    },
    /// EGG HUNT: the boss is stunned and removed; `by` earns 3 credits.
    BossBeaten {
        boss: UnitId,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        by: Option<u8>,
    },
    TookHill {
        unit: UnitId,
    },
    TurnEnds {
        seat: u8,
    },
    Resigned {
        seat: u8,
    },
    GameOver {
        reason: String,
    },
}
