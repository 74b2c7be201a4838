//! The state of a game: what the setup fixes ([`Fixed`], shared by every state of one game)
//! and what changes ([`Progress`], one plain struct deriving equality, hash and JSON). The
//! rules that change it live in the modules named after them.

pub use crate::data::ZoneCard;
use crate::data::{BALL_RADIUS, BASE_RADIUS, MissionKind, Options, SHIP_RADIUS, Special, UnitType};
use battlemat_core::Seat;
use battlemat_geom::table::{Base, Point, Table, Ticks};
use serde::{Deserialize, Serialize};
use std::hash::{Hash, Hasher};
use std::sync::Arc;

pub type UnitId = u8;

/// What a body on the table is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Body {
    /// A mobile suit: an index into the game's unit chart ([`Fixed::chart`]).
    Unit { kind: u16 },
    /// SOCCER's ball.
    Ball,
    /// KICK-BOMB's bomb, with its explode dice.
    Bomb { dice: u8 },
    /// SAFARI's animal: its value is the dice it rolls and the points it is worth.
    Animal { value: u8 },
    /// EGG HUNT: an egg, whose contents are drawn when it breaks open (SDE-EGG.1).
    Egg,
    /// EGG HUNT: credits on the table, picked up by an action next to them (SDE-EGG.2).
    Credit { amount: u8 },
    /// CONVOY: the ship the players protect (SDE-CONVOY.1).
    Ship,
    /// BATTLE ZONES: a blip, face down; what it is is drawn when a unit touches it.
    Blip,
    /// BATTLE ZONES: a TARGET blip's static target.
    Target,
    /// BATTLE ZONES: a BOMB blip's bomb; `toucher` is the last player to touch it.
    Mine { toucher: Option<Seat> },
    /// BATTLE ZONES: an asteroid a zone card adds (stops knockback like terrain).
    Rock,
}

/// A unit, ball or bomb.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Unit {
    pub body: Body,
    /// The player it belongs to (none for balls and bombs).
    pub owner: Option<Seat>,
    pub at: Point,
    /// Where it is put back (balls and bombs: the centre; units: where they started).
    pub home: Point,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stunned: bool,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub hidden: bool,
    /// Actions left this turn (SDE-T1).
    pub actions: u8,
    /// FAST: the free move at the end of the turn is still to take (SDE-F).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub fast_move: bool,
    /// Carried by this transport (SDE-T): off the table, moving with it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aboard: Option<UnitId>,
    /// RING BATTLE: cheer dice beside it (SDE-RING.2).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub cheer: u8,
    /// RING BATTLE: outside the ring.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub outside: bool,
    /// RING BATTLE: not yet placed on the table (SDE-RING.1).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub waiting: bool,
    /// SAFARI: captured by this player (off the table).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub captured: Option<Seat>,
    /// Out of play for good: an egg broken open, credits picked up, a bomb that exploded,
    /// a boss beaten (EGG HUNT).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub gone: bool,
    /// CONVOY: an enemy that has not attacked yet (HIDE enemies get +1 die, SDE-CONVOY.2).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub fresh: bool,
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

impl Unit {
    pub fn is_unit(&self) -> bool {
        matches!(self.body, Body::Unit { .. })
    }
    /// A ball or a bomb (moved like a ball; never stunned).
    pub fn is_ball(&self) -> bool {
        matches!(self.body, Body::Ball | Body::Bomb { .. })
    }
    pub fn is_animal(&self) -> bool {
        matches!(self.body, Body::Animal { .. })
    }
    pub fn is_blip(&self) -> bool {
        matches!(self.body, Body::Blip)
    }
    pub fn is_mine(&self) -> bool {
        matches!(self.body, Body::Mine { .. })
    }
    pub fn is_target(&self) -> bool {
        matches!(self.body, Body::Target)
    }
    pub fn is_rock(&self) -> bool {
        matches!(self.body, Body::Rock)
    }
    pub fn is_ship(&self) -> bool {
        matches!(self.body, Body::Ship)
    }
    pub fn is_egg(&self) -> bool {
        matches!(self.body, Body::Egg)
    }
    /// Credits: a marker on the table, not a body that blocks or can be attacked.
    pub fn is_marker(&self) -> bool {
        matches!(self.body, Body::Credit { .. })
    }
    /// A unit no player owns (EGG HUNT's boss): the rules move it, and it attacks everyone.
    pub fn is_enemy(&self) -> bool {
        self.is_unit() && self.owner.is_none()
    }
    pub fn kind(&self) -> Option<u16> {
        match self.body {
            Body::Unit { kind } => Some(kind),
            _ => None,
        }
    }
    /// On the table (not carried, not waiting to be placed, not captured).
    pub fn on_table(&self) -> bool {
        self.aboard.is_none() && !self.waiting && self.captured.is_none() && !self.gone
    }
    /// On the table and in the way: what moves, knockback and sight bump into.
    pub fn solid(&self) -> bool {
        self.on_table() && !self.is_marker()
    }
    #[inline]
    pub fn radius(&self) -> Ticks {
        match self.body {
            Body::Ship => SHIP_RADIUS,
            Body::Ball
            | Body::Bomb { .. }
            | Body::Egg
            | Body::Credit { .. }
            | Body::Mine { .. } => BALL_RADIUS,
            Body::Unit { .. } | Body::Animal { .. } | Body::Blip | Body::Target | Body::Rock => {
                BASE_RADIUS
            }
        }
    }
    pub fn base(&self) -> Base {
        Base::new(self.at, self.radius())
    }
}

/// One side's dice in an opposed roll: how many to roll, and the faces so far (as counts,
/// so equal rolls in any order are one state).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Pool {
    pub dice: u8,
    pub rolled: u8,
    /// `faces[f - 1]` dice show `f`.
    pub faces: [u8; 6],
    /// VETERAN re-roll used, or declined.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rerolled: bool,
    /// RING BATTLE: the cheer dice question answered.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cheered: bool,
}

impl Pool {
    pub fn new(dice: u8) -> Pool {
        Pool {
            dice,
            ..Pool::default()
        }
    }
    pub fn highest(&self) -> u8 {
        (1..=6u8)
            .rev()
            .find(|f| self.faces[*f as usize - 1] > 0)
            .unwrap_or(0)
    }
    pub fn total(&self) -> u32 {
        (1..=6u32)
            .map(|f| f * u32::from(self.faces[f as usize - 1]))
            .sum()
    }
    /// How many dice show more than `face`.
    pub fn above(&self, face: u8) -> u8 {
        (face + 1..=6).map(|f| self.faces[f as usize - 1]).sum()
    }
    pub fn add(&mut self, face: u8) {
        self.faces[face as usize - 1] += 1;
        self.rolled += 1;
    }
    pub fn done(&self) -> bool {
        self.rolled >= self.dice
    }
}

/// What strikes in a fight.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Striker {
    /// A unit's shooting or melee attack.
    Unit(UnitId),
    /// A unit knocked into another: the unit hit defends against 2 dice (SDE-KB3).
    Impact,
    /// A ball or bomb melees the unit it hits with the dice that sent it (SDE-SOCCER.2).
    Ball(UnitId),
    /// SAFARI: an animal charges the nearest unit, with +1 die (SDE-SAFARI.2).
    Animal(UnitId),
}

/// A fight whose dice are being rolled or re-rolled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Fight {
    pub striker: Striker,
    pub target: UnitId,
    pub melee: bool,
    /// The player whose attack this is, or whose attack set it off (tokens and goals).
    pub by: Option<Seat>,
    /// Where the line of fire starts: ranged knockback goes from here through the target.
    pub from: Point,
    /// The direction of travel, for an impact or a ball (a point along it from the target).
    pub toward: Point,
    pub att: Pool,
    pub def: Pool,
    /// HIDE: the attacker was hidden when it attacked (SDE-H).
    pub hidden_attacker: bool,
    /// A re-roll in progress: which side's die (true: the attacker's).
    pub rerolling: Option<bool>,
    /// A ball's remaining travel (it finishes its move if it wins).
    pub rest: Ticks,
}

/// Something still to happen, after the fight or motion in hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Pending {
    /// A body is knocked (or bounces) `dist` ticks toward `toward`.
    Motion(Motion),
    /// A fight to roll.
    Fight(Fight),
    /// A decision (a player's).
    Choose(Choice),
    /// KING OF THE HILL: after a melee knockback, did the target leave the hill?
    OffHill {
        attacker: UnitId,
        target: UnitId,
        spot: Point,
        piece: u8,
    },
    /// EGG HUNT: an egg breaks open: its contents are drawn (SDE-EGG.2). `by`: the player
    /// whose attack broke it.
    Open { egg: UnitId, by: Option<Seat> },
    /// CONVOY: the ship lost a fight: the players with captured units roll off.
    ShipDamaged,
    /// CONVOY, FAST enemy: after attacking, it moves away from the players' units.
    Retreat { unit: UnitId },
    /// BATTLE ZONES: a zone entered for the first time draws its card.
    ZoneCard { zone: u8 },
    /// BATTLE ZONES: `unit` touched a blip: it is revealed.
    Reveal { blip: UnitId, unit: UnitId },
    /// SPRAY: the next share of a split attack.
    Spray {
        unit: UnitId,
        target: UnitId,
        dice: u8,
        from: Point,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Motion {
    pub body: UnitId,
    pub toward: Point,
    pub dist: Ticks,
    pub by: Option<Seat>,
    /// The dice of the attack that sent it (a ball melees with these).
    pub dice: u8,
    pub bounces: u8,
    /// A unit the body passes (a ball finishing its move past the unit it beat).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub past: Option<UnitId>,
}

/// A decision in the middle of something.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Choice {
    /// The winner of a melee chooses the knockback's direction (SDE-KB1).
    Push {
        seat: Seat,
        mover: UnitId,
        dist: Ticks,
        dice: u8,
        /// Declining is allowed (a unit knocking a ball back: "may").
        optional: bool,
    },
    /// KING OF THE HILL: take the place on the hill of the unit knocked off.
    TakeHill {
        seat: Seat,
        unit: UnitId,
        spot: Point,
    },
    /// RING BATTLE: place an earned cheer die.
    EarnedCheer { seat: Seat },
    /// EGG HUNT: a unit out of an egg makes one free attack with +1 die, or none.
    FreeAttack { seat: Seat, unit: UnitId },
    /// CONVOY: how many enemy units to draw and place this enemy turn (none, one or two).
    Draws { seat: Seat },
    /// CONVOY: the ship was damaged and this player rolled highest: give up a captured unit.
    GiveUp { seat: Seat },
}

impl Choice {
    pub fn seat(&self) -> Seat {
        match *self {
            Choice::Push { seat, .. }
            | Choice::TakeHill { seat, .. }
            | Choice::EarnedCheer { seat }
            | Choice::FreeAttack { seat, .. }
            | Choice::Draws { seat }
            | Choice::GiveUp { seat } => seat,
        }
    }
}

/// Where play is.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// A draft: `seat` picks a unit or is done.
    Draft {
        seat: Seat,
    },
    /// HIDE: "may hide at the start of the game": `seat` hides units or is ready.
    StartHidden {
        seat: Seat,
    },
    /// Turn order (SDE-T1): each player rolls the dice of their best unit; `seat` is
    /// rolling, `left` dice to go; `scores` so far; `rolling` the seats still in the roll.
    TurnOrder {
        seat: Seat,
        left: u8,
        scores: [u8; 6],
        rolling: u8,
    },
    /// The active player's units act.
    Turn,
    /// FAST units' free moves at the end of the turn (SDE-F).
    FastMoves,
    /// A fight's dice, or a decision within it.
    Fight(Fight),
    /// A decision in the middle of something.
    Choose(Choice),
    /// RING BATTLE: players take turns placing units, in turn order (SDE-RING.1).
    Deploy {
        seat: Seat,
    },
    /// RING BATTLE: breaking in: a unit's dice, all to show one number.
    BreakIn {
        unit: UnitId,
        left: u8,
        first: u8,
        same: bool,
    },
    /// SAFARI, the animals' turn: a stunned animal rolls its dice to recover on a 6.
    AnimalRecover {
        animal: UnitId,
        left: u8,
    },
    /// SAFARI, the animals' turn: an animal near a unit rolls its dice to charge on a 6.
    AnimalCharge {
        animal: UnitId,
        left: u8,
    },
    /// EGG HUNT: what is in the egg, drawn from the contents left (SDE-EGG.1).
    EggOpens {
        egg: UnitId,
        by: Option<Seat>,
    },
    /// EGG HUNT: a bomb out of an egg rolls its dice, exploding on a 6: at once when it
    /// comes out, then at the start of each player's turn (`turn_start`).
    EggBomb {
        bomb: UnitId,
        left: u8,
        turn_start: bool,
    },
    /// CONVOY: the players' roll-off for the order of their turns, each the dice of their most
    /// powerful unit; `scores` so far.
    OrderRoll {
        seat: Seat,
        left: u8,
        scores: [u8; 6],
    },
    /// CONVOY: `seat` draws a random enemy unit from the pool and places it; `left` to draw.
    EnemyDraw {
        seat: Seat,
        left: u8,
    },
    /// CONVOY: the ship is damaged: each player with captured units rolls a die for each;
    /// `scores` are their highest dice.
    CaptureRoll {
        seat: Seat,
        left: u8,
        scores: [u8; 6],
    },
    /// BATTLE ZONES: the card of a zone entered for the first time is drawn.
    ZoneCard {
        zone: u8,
    },
    /// BATTLE ZONES: what a touched blip is, drawn from the blips left.
    BlipReveal {
        blip: UnitId,
        unit: UnitId,
    },
    /// BATTLE ZONES: a bomb's die — as it is revealed (`unit`: the revealing unit), or at the
    /// start of the enemy turn.
    MineRoll {
        mine: UnitId,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        unit: Option<UnitId>,
    },
    /// KICK-BOMB: a bomb's explode dice at the end of the turn.
    BombRoll {
        bomb: UnitId,
        left: u8,
        done: u8,
    },
    Over,
}

/// A line drawn on the picture: the last move and knockbacks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Trail {
    Move { from: Point, to: Point },
    Knockback { from: Point, to: Point },
    Shot { from: Point, to: Point },
}

/// Everything that changes.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Progress {
    pub units: Vec<Unit>,
    pub phase: Phase,
    /// Whose turn it is.
    pub active: Seat,
    /// Who went first (turns pass clockwise, in seat order, from them).
    pub first: Seat,
    /// The round, from 1.
    pub round: u16,
    /// Tokens (and goals) per seat.
    pub tokens: Vec<u8>,
    /// KING OF THE HILL: the active player has taken a token this turn.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub collected: bool,
    /// CHARGING: this unit's move ended next to an enemy: its melee is free (SDE-CHARGE).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub charge: Option<UnitId>,
    /// Things still to happen, last first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pending: Vec<Pending>,
    /// Where play goes back to when the pending things are done.
    pub back: Back,
    /// KICK-BOMB: the turn each player ran out of tokens (0: still has some).
    pub out_at: Vec<u16>,
    /// The draft: seats that are done picking.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub drafted: u8,
    /// Lines for the picture: the last action's move, shots and knockbacks.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub trail: Vec<Trail>,
    /// BATTLE ZONES: the zones' cards, the blips and cards left to draw.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zones: Option<Zones>,
    /// CONVOY: the enemy pool, the players' order, the ship.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub convoy: Option<Convoy>,
    /// EGG HUNT: the contents still in unopened eggs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub eggs: Option<EggContents>,
    /// Turns played (for the KICK-BOMB order of elimination).
    pub turns: u16,
    /// `start = edge`: the table edge each seat chose (`NO_EDGE` while it has not); empty
    /// when the posts are fixed (`start = posts`, or a mission where everyone starts at one
    /// end).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub edges: Vec<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<battlemat_core::GameResult>,
}

/// Where play resumes after a fight.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Back {
    Turn,
    FastMoves,
    /// SAFARI: the animals' turn, going on after this animal (SDE-SAFARI.2).
    Animals {
        after: UnitId,
    },
    /// EGG HUNT: the enemies' turn (the boss), going on after this enemy.
    Enemies {
        after: UnitId,
    },
}

/// CONVOY (SDE-CONVOY.1, .2): the pool of enemy units not on the table, the players' order
/// this round, and whether the ship has made it off the far end.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Convoy {
    /// Enemy units in the pool, by unit chart index.
    pub pool: Vec<u8>,
    /// The players' turns this round, from the highest roll.
    pub order: Vec<Seat>,
    /// The ship's id.
    pub ship: UnitId,
    /// The first enemy turn is over (from then on players choose how many to draw).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub started: bool,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub arrived: bool,
}

impl Convoy {
    pub fn pool_size(&self) -> u32 {
        self.pool.iter().map(|&n| u32::from(n)).sum()
    }
}

/// What a blip turns out to be (SDE-ZONES.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BlipKind {
    Ambush2,
    Ambush3,
    Target,
    Bomb,
}

impl BlipKind {
    pub const ALL: [BlipKind; 4] = [
        BlipKind::Ambush2,
        BlipKind::Ambush3,
        BlipKind::Target,
        BlipKind::Bomb,
    ];
}

/// BATTLE ZONES (SDE-ZONES.1, .2): each zone's card once drawn, the cards and blips left to
/// draw, and how many zones are cleared (from the start end).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Zones {
    pub cards: Vec<Option<ZoneCard>>,
    /// Cards left in the deck, by `ZoneCard::ALL` order.
    pub deck: [u8; 6],
    /// Blips left to draw, by `BlipKind::ALL` order.
    pub blips: [u8; 4],
    pub cleared: u8,
}

/// EGG HUNT (SDE-EGG.1): what the unopened eggs still hold. Each egg's contents are drawn
/// when it breaks open, from what is left (rulings.md: same odds, no hidden state).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct EggContents {
    /// Seats whose cheap unit is still in an egg (a bit a seat).
    pub units: u8,
    pub bombs: u8,
    pub candy: u8,
    /// Eggs of two credits.
    pub credits: u8,
    pub boss: u8,
}

impl EggContents {
    /// One egg of this content is opened.
    pub fn take(&mut self, content: crate::events::EggContent) {
        use crate::events::EggContent as E;
        let n = match content {
            E::Unit { seat } => {
                self.units &= !(1u8 << seat.min(7));
                return;
            }
            E::Bomb => &mut self.bombs,
            E::Candy => &mut self.candy,
            E::Credits => &mut self.credits,
            E::Boss => &mut self.boss,
        };
        *n = n.saturating_sub(1);
    }

    pub fn total(&self) -> u32 {
        self.units.count_ones()
            + u32::from(self.bombs)
            + u32::from(self.candy)
            + u32::from(self.credits)
            + u32::from(self.boss)
    }
}

/// What the setup fixes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fixed {
    pub setup: crate::data::Setup,
    /// The unit chart in key order; `Body::Unit { kind }` indexes it.
    pub chart: Vec<(String, UnitType)>,
    pub players: u8,
    pub kind: MissionKind,
    pub table: Table,
    /// The table's centre.
    pub centre: Point,
    pub options: Options,
    /// Each terrain piece's bounding box and centre, as `table.pieces` orders them.
    pub piece_bounds: Vec<(Ticks, Ticks, Ticks, Ticks)>,
    pub piece_centres: Vec<Point>,
    /// Some piece holds units on top.
    pub any_holds: bool,
}

/// A game of SD ERA: the fixed part, shared, and the progress.
#[derive(Clone, Debug)]
pub struct SdEra {
    pub fixed: Arc<Fixed>,
    pub now: Progress,
}

impl Fixed {
    /// The unit chart's kind for a key.
    pub fn kind_of(&self, key: &str) -> Option<u16> {
        self.chart
            .iter()
            .position(|(k, _)| k == key)
            .map(|k| k as u16)
    }

    /// [`Fixed::kind_of`] for a setup, refusing a key not in the chart (`at`: where it was
    /// written).
    pub fn chart_kind(&self, key: &str, at: &str) -> Result<u16, battlemat_core::SetupError> {
        self.kind_of(key).ok_or_else(|| {
            battlemat_core::SetupError::new(at, format!("{key:?} is not in the unit chart"))
        })
    }
}

impl PartialEq for SdEra {
    fn eq(&self, o: &Self) -> bool {
        (Arc::ptr_eq(&self.fixed, &o.fixed) || self.fixed.setup == o.fixed.setup)
            && self.now == o.now
    }
}
impl Eq for SdEra {}
/// A state's hash, for search memos: the progress folded by a fast multiply-rotate hasher
/// into one word, which is all the caller's (slower, keyed) hasher sees. Equal states hash
/// equal; the hash reads fewer fields than equality compares (not the picture's arrows,
/// `trail`, nor the result), which keeps that true.
impl Hash for SdEra {
    fn hash<H: Hasher>(&self, h: &mut H) {
        let mut f = Fold(0);
        let n = &self.now;
        n.units.hash(&mut f);
        n.phase.hash(&mut f);
        (
            n.active,
            n.first,
            n.round,
            n.collected,
            n.charge,
            n.back,
            n.drafted,
            n.turns,
        )
            .hash(&mut f);
        n.tokens.hash(&mut f);
        n.pending.hash(&mut f);
        n.out_at.hash(&mut f);
        n.eggs.hash(&mut f);
        n.convoy.hash(&mut f);
        n.zones.hash(&mut f);
        h.write_u64(f.0);
    }
}

/// FxHash's fold (rustc's hasher): fast, not keyed; the result is hashed again by the
/// caller's hasher.
struct Fold(u64);

impl Hasher for Fold {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for c in bytes.chunks(8) {
            let mut w = [0u8; 8];
            w[..c.len()].copy_from_slice(c);
            self.write_u64(u64::from_le_bytes(w));
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_u8(&mut self, v: u8) {
        self.write_u64(u64::from(v));
    }
    fn write_u16(&mut self, v: u16) {
        self.write_u64(u64::from(v));
    }
    fn write_u32(&mut self, v: u32) {
        self.write_u64(u64::from(v));
    }
    fn write_i64(&mut self, v: i64) {
        self.write_u64(v as u64);
    }
    fn write_usize(&mut self, v: usize) {
        self.write_u64(v as u64);
    }
}

impl SdEra {
    pub fn unit(&self, u: UnitId) -> &Unit {
        &self.now.units[u as usize]
    }
    pub fn unit_type(&self, u: UnitId) -> Option<&UnitType> {
        self.unit(u).kind().map(|k| &self.fixed.chart[k as usize].1)
    }
    /// The unit's letter, as it plays here: RING BATTLE treats HIDE as VETERAN (SDE-RING.1).
    pub fn special(&self, u: UnitId) -> Option<Special> {
        let s = self.unit_type(u)?.special?;
        if s == Special::H && self.fixed.kind == MissionKind::RingBattle {
            return Some(Special::V);
        }
        Some(s)
    }
    pub fn has(&self, u: UnitId, s: Special) -> bool {
        self.special(u) == Some(s)
    }
    /// The dice a body rolls: a unit's value, an animal's value (SDE-SAFARI.1); 2 for a ball.
    pub fn value(&self, u: UnitId) -> u8 {
        match self.unit(u).body {
            Body::Animal { value } => value,
            _ => self.unit_type(u).map_or(2, |t| t.value),
        }
    }
    pub fn ids(&self) -> impl Iterator<Item = UnitId> + '_ {
        0..self.now.units.len() as UnitId
    }
    /// Every base on the table but `except`'s (and those carried).
    pub fn bases_except(&self, except: &[UnitId]) -> Vec<Base> {
        self.ids()
            .filter(|i| !except.contains(i) && self.unit(*i).solid())
            .map(|i| self.unit(i).base())
            .collect()
    }
    /// The ids matching `bases_except(except)`, in the same order.
    pub fn ids_except(&self, except: &[UnitId]) -> Vec<UnitId> {
        self.ids()
            .filter(|i| !except.contains(i) && self.unit(*i).solid())
            .collect()
    }
    /// What a blast at `centre` catches: the bodies on the table within `reach` of its base
    /// (edge to edge) that `caught` says it hits, in id order.
    pub fn caught_by_blast(
        &self,
        centre: UnitId,
        reach: Ticks,
        caught: impl Fn(&Unit) -> bool,
    ) -> Vec<UnitId> {
        let b = self.unit(centre).base();
        self.ids()
            .filter(|&u| {
                let x = self.unit(u);
                u != centre && x.solid() && caught(x) && x.base().within(&b, reach)
            })
            .collect()
    }

    /// The piece the body stands on.
    pub fn standing_on(&self, u: UnitId) -> Option<usize> {
        self.fixed.table.piece_holding(&self.unit(u).base())
    }
    /// Are the two enemies (both units, different players)?
    pub fn enemies(&self, a: UnitId, b: UnitId) -> bool {
        let (x, y) = (self.unit(a), self.unit(b));
        // CONVOY is friendly: the players' units are not each other's enemies.
        x.is_unit()
            && y.is_unit()
            && x.owner != y.owner
            && !(self.fixed.kind.friendly() && x.owner.is_some() && y.owner.is_some())
    }
    /// The name of a body: "u3 Gundam 4V (P1)", "ball b6".
    pub fn name(&self, u: UnitId) -> String {
        let x = self.unit(u);
        match x.body {
            Body::Unit { kind } => {
                let t = &self.fixed.chart[kind as usize].1;
                format!(
                    "{} {} {} ({})",
                    crate::events::unit_label(u),
                    t.name,
                    t.label(),
                    x.owner
                        .map_or("enemy".to_string(), |s| format!("P{}", s + 1))
                )
            }
            Body::Ball => format!("ball {}", crate::events::unit_label(u)),
            Body::Animal { value } => format!("animal {} ({value})", crate::events::unit_label(u)),
            Body::Bomb { .. } => format!("bomb {}", crate::events::unit_label(u)),
            Body::Egg => format!("egg {}", crate::events::unit_label(u)),
            Body::Ship => format!("the ship {}", crate::events::unit_label(u)),
            Body::Blip => format!("blip {}", crate::events::unit_label(u)),
            Body::Target => format!("target {}", crate::events::unit_label(u)),
            Body::Mine { .. } => format!("bomb {}", crate::events::unit_label(u)),
            Body::Rock => format!("asteroid {}", crate::events::unit_label(u)),
            Body::Credit { amount } => {
                format!("{amount} credits {}", crate::events::unit_label(u))
            }
        }
    }
    pub fn is_over(&self) -> bool {
        self.now.phase == Phase::Over
    }
}
