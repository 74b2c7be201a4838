//! The state: the fixed part and the progress.

use crate::data::{Card, Setup};
use battlemat_core::Seating;
use battlemat_geom::table::{Base, Point};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

pub type SoldierId = u8;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Soldier {
    pub card: u16,
    pub side: u8,
    pub at: Point,
    /// The way it faces: a direction (dx, dy), its 180° front arc around it.
    pub facing: (i64, i64),
    pub alive: bool,
}

/// Where a Move goes: one of the sixteen winds, or toward a soldier (the Move "targets" it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Heading {
    Wind(u8),
    Soldier(SoldierId),
}

/// Where a blast is thrown with `blast_aim = anywhere`: toward a soldier, or a point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Spot {
    Soldier(SoldierId),
    Point(Point),
}

/// The Assault Commando's turn on the way (`commando_turn = turn_once`): after `at` ticks
/// (240 an inch) of its roll it turns `toward` a heading for the rest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Turn {
    pub at: i64,
    pub toward: Heading,
}

/// An exploding pool being rolled (SERM-POOL): dice left, total so far, and every face
/// thrown so far in order (a six is followed by the same die's next throw), so the events
/// can show each die.
///
/// Two pools are the same position when their dice left and totals are: the faces are a
/// record for the events, and nothing that follows depends on them (a Move goes its total,
/// a Shoot compares totals). So equality and hashing leave them out, and an AI that
/// remembers positions (greedy's memo, MCTS's chance nodes) meets a 3 then a 4 and a 4
/// then a 3 as one position — an exploding pool of three dice is a few dozen positions
/// instead of hundreds of sequences, each weighed once.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Pool {
    pub left: u8,
    pub total: u32,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub faces: Vec<u8>,
}

impl PartialEq for Pool {
    fn eq(&self, other: &Pool) -> bool {
        (self.left, self.total) == (other.left, other.total)
    }
}

impl Eq for Pool {}

impl std::hash::Hash for Pool {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (self.left, self.total).hash(state);
    }
}

/// A Move rolled: where it would end (the first contact on its way), its total.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Moving {
    pub mover: SoldierId,
    pub heading: Heading,
    /// The move roll, in inches.
    pub total: u32,
    /// The end of the path (the first contact, or the full distance).
    pub end: Point,
    /// The soldier contacted at the end, if any.
    pub contact: Option<SoldierId>,
    /// The Assault Commando's turn (`commando_turn = turn_once`): the path goes straight to
    /// this point, then on to `end`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via: Option<Point>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Who has the initiative first: a die, odd the first side (ours).
    FirstDie,
    /// `side` activates one of its soldiers (`only`: the reactor, or a Ranger's friends).
    Activate {
        side: u8,
        only: Option<Vec<SoldierId>>,
    },
    /// SERM-SHOOT: the shooter's pool, then (`shot` known) the target's endure pool.
    Shooting {
        shooter: SoldierId,
        target: SoldierId,
        pool: Pool,
        shot: Option<u32>,
    },
    /// The Demolitions Expert's blast die: along `wind`, or toward `at` (`blast_aim =
    /// anywhere`).
    Blast {
        soldier: SoldierId,
        wind: u8,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at: Option<Point>,
    },
    /// SERM-MOVE: the move pool.
    MoveRoll {
        mover: SoldierId,
        heading: Option<Heading>,
        pool: Pool,
    },
    /// The Assault Commando chooses its direction after the roll.
    Aim {
        mover: SoldierId,
        total: u32,
    },
    /// SERM-REACT: the other side chooses a reactor, or none.
    ReactChoice {
        moving: Moving,
    },
    /// The react pool.
    Reacting {
        moving: Moving,
        reactor: SoldierId,
        pool: Pool,
    },
    /// The reactor's side chooses where along the path the mover stops.
    StopWhere {
        moving: Moving,
        reactor: SoldierId,
    },
    Over,
}

/// The result, once over (the one two-sided outcome of `battlemat_core`).
pub use battlemat_core::seating::Outcome;

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Progress {
    pub soldiers: Vec<Soldier>,
    pub phase: Phase,
    pub activations: u16,
    /// The last Move's path and the last blast, for the picture.
    pub last_path: Option<(Point, Point)>,
    pub last_blast: Option<Point>,
    pub outcome: Option<Outcome>,
}

#[derive(Debug, PartialEq, Eq, Hash)]
pub struct Fixed {
    pub setup: Setup,
    pub seating: Seating,
    pub cards: Vec<(String, Card)>,
    pub side_names: [String; 2],
    pub limit: Option<u16>,
}

#[derive(Clone, Debug)]
pub struct Serm {
    pub fixed: Arc<Fixed>,
    pub now: Progress,
}

battlemat_core::state_identity!(Serm);

impl Serm {
    pub fn soldier(&self, s: SoldierId) -> &Soldier {
        &self.now.soldiers[s as usize]
    }
    pub fn soldier_mut(&mut self, s: SoldierId) -> &mut Soldier {
        &mut self.now.soldiers[s as usize]
    }
    pub fn ids(&self) -> impl Iterator<Item = SoldierId> + use<> {
        0..self.now.soldiers.len() as SoldierId
    }
    pub fn card(&self, s: SoldierId) -> &Card {
        &self.fixed.cards[self.soldier(s).card as usize].1
    }
    pub fn name(&self, s: SoldierId) -> String {
        format!("{} u{s}", self.card(s).name)
    }
    pub fn base(&self, s: SoldierId) -> Base {
        Base::new(self.soldier(s).at, crate::data::BASE_RADIUS)
    }
    pub fn table(&self) -> &battlemat_geom::table::Table {
        &self.fixed.setup.scenario.table
    }
}
