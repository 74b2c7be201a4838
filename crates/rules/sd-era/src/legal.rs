//! The one judge: [`SdEra::plan`] decides whether an action is legal and what it will do;
//! `check`, the candidate list and `act` all use it. A refusal is a [`Why`] — the rule id
//! and a fixed sentence — put into words only when someone reads it.

use crate::data::{BASE_RADIUS, MissionKind, Special};
use crate::events::{Action, Target};
use crate::movement::MovePlan;
use crate::options::SprayRange;
use crate::state::{Phase, SdEra, UnitId};
pub use battlemat_core::Why;
use battlemat_geom::table::{Point, Ticks};

mod fights;
mod start;

/// What an accepted action will do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Plan {
    Move(MovePlan),
    /// Each target with its dice after range penalties, from the line of fire's start.
    Shoot {
        unit: UnitId,
        shots: Vec<(UnitId, u8)>,
        from: Point,
        /// Costs no action (EGG HUNT's free attack out of an egg).
        free: bool,
    },
    Melee {
        unit: UnitId,
        target: UnitId,
        free: bool,
        /// Extra attack dice (EGG HUNT's free attack: +1).
        bonus: u8,
    },
    Recover(UnitId),
    Hide(UnitId, bool),
    Collect(UnitId),
    Cheer(UnitId, UnitId),
    BreakIn(UnitId),
    End,
    Pick(u16),
    Done,
    Reroll(bool, u8),
    Keep(bool),
    AddCheer(bool, u8),
    Push(Point),
    Pass,
    Take,
    Stay,
    Place(UnitId),
    Edge(u8),
    Deploy(UnitId, Point, bool),
    PickUp(UnitId, UnitId),
    Draw(u8),
    GiveUp(UnitId),
}

const NOT_NOW: Why = Why::new("SDE-T1", "that is not something to do now");
const TOO_FAR: Why = Why::new("SDE-MOVE", "that point is far off the table");

/// Refusals of a seat's start, by the mission's set-up rule (each mission's `.1`).
fn start_refusal(kind: MissionKind, reason: &'static str) -> Why {
    Why::new(crate::setup::setup_rule(kind), reason)
}

/// A point within the range the table's arithmetic is exact for (any JSON may name one).
fn sane(p: Point) -> Result<Point, Why> {
    let m = battlemat_geom::table::MAX_COORD;
    if p.x.unsigned_abs() <= m as u64 && p.y.unsigned_abs() <= m as u64 {
        Ok(p)
    } else {
        Err(TOO_FAR)
    }
}

fn sane_target(t: &Target) -> Result<(), Why> {
    match *t {
        Target::Point(p) => sane(p).map(|_| ()),
        Target::Heading { dist, .. }
            if dist.unsigned_abs() <= battlemat_geom::table::MAX_COORD as u64 =>
        {
            Ok(())
        }
        Target::Heading { .. } => Err(TOO_FAR),
    }
}

impl SdEra {
    pub(crate) fn own_ready_unit(&self, unit: UnitId) -> Result<(), Why> {
        if unit as usize >= self.now.units.len() {
            return Err(Why::new("SDE-T1", "there is no such unit"));
        }
        let x = self.unit(unit);
        if x.owner != Some(self.now.active) || !x.is_unit() {
            return Err(Why::new("SDE-T1", "that is not one of your units"));
        }
        if !x.on_table() {
            return Err(Why::new("SDE-T", "it is aboard a transport"));
        }
        if x.stunned {
            return Err(Why::new(
                "SDE-RECOVER",
                "it is stunned: it must recover first",
            ));
        }
        Ok(())
    }

    /// An action that costs one of the unit's two actions, in the turn proper.
    pub(crate) fn spend(&self, unit: UnitId) -> Result<(), Why> {
        self.own_ready_unit(unit)?;
        if self.now.phase != Phase::Turn {
            return Err(NOT_NOW);
        }
        if self.unit(unit).actions == 0 {
            return Err(Why::new("SDE-T1", "it has done its two actions"));
        }
        Ok(())
    }

    pub(crate) fn exists(&self, u: UnitId) -> Result<(), Why> {
        if (u as usize) < self.now.units.len() {
            Ok(())
        } else {
            Err(Why::new("SDE-T1", "there is no such unit"))
        }
    }

    /// May `unit` attack `target` at all (not itself, not a friend, not stunned, ring)?
    pub(crate) fn target_ok(&self, unit: UnitId, target: UnitId) -> Result<(), Why> {
        self.exists(target)?;
        let y = self.unit(target);
        if target == unit || !y.solid() {
            return Err(Why::new(
                "SDE-SHOOT",
                "there is no such target on the table",
            ));
        }
        if y.is_blip() || y.is_rock() {
            return Err(Why::new(
                "SDE-ZONES.2",
                "a blip is revealed by touching it, not attacked; asteroids are terrain",
            ));
        }
        if y.is_ship() {
            return Err(Why::new(
                "SDE-CONVOY.2",
                "the players protect the ship; only enemies attack it",
            ));
        }
        if y.is_unit() && !self.enemies(unit, target) {
            return Err(Why::new(
                "SDE-SHOOT",
                "attack enemy units (or a ball or bomb)",
            ));
        }
        if y.stunned {
            return Err(Why::new("SDE-KB2", "stunned units cannot be attacked"));
        }
        if !self.ring_allows(unit, target) {
            return Err(Why::new(
                "SDE-RING.2",
                "a unit outside the ring may attack only units outside it",
            ));
        }
        Ok(())
    }

    /// The judge: each phase's decisions judged by its rule area.
    pub fn plan(&self, a: &Action) -> Result<Plan, Why> {
        match &self.now.phase {
            Phase::Over => Err(Why::new("SDE-T1", "the game is over")),
            Phase::Turn | Phase::FastMoves => self.plan_turn(a),
            Phase::StartHidden { .. } => match a {
                Action::Hide { unit } => self.judge_hide(*unit),
                Action::Done => Ok(Plan::Done),
                _ => Err(NOT_NOW),
            },
            Phase::Draft { seat } => match a {
                Action::Pick { kind } => self.judge_pick(*seat, kind),
                Action::Done => self.judge_draft_done(*seat),
                _ => Err(NOT_NOW),
            },
            Phase::Fight(f) => self.plan_fight(f, a),
            Phase::Choose(c) => self.plan_choice(c, a),
            Phase::Deploy { seat } => match a {
                Action::Edge { edge } => self.judge_edge(*seat, *edge),
                Action::Deploy { unit, at } => self.judge_deploy(*seat, *unit, sane(*at)?),
                _ => Err(NOT_NOW),
            },
            _ => Err(NOT_NOW),
        }
    }

    /// A turn's actions (SDE-T1; FAST's free moves allow only moves, melee and `end`).
    fn plan_turn(&self, a: &Action) -> Result<Plan, Why> {
        let fast = matches!(self.now.phase, Phase::FastMoves);
        match a {
            Action::Move { unit, to, cargo } => {
                let (load, drop) = crate::events::Cargo::parts(cargo);
                self.exists(*unit)?;
                sane_target(to)?;
                for l in load.iter().chain(drop.iter().map(|d| &d.unit)) {
                    self.exists(*l)?;
                }
                for d in drop {
                    sane(d.at)?;
                }
                self.judge_move(*unit, *to, load, drop).map(Plan::Move)
            }
            Action::Melee { unit, target } => self.judge_melee(*unit, *target),
            Action::End => Ok(Plan::End),
            _ if fast => Err(NOT_NOW),
            Action::Shoot { unit, aims, from } => {
                if let Some(p) = from {
                    sane(*p)?;
                }
                self.judge_shot(*unit, aims, *from)
            }
            Action::Recover { unit } => self.judge_recover(*unit),
            Action::Hide { unit } => self.judge_hide(*unit),
            Action::Collect { unit } if self.fixed.kind == MissionKind::EggHunt => {
                self.exists(*unit)?;
                self.spend(*unit)?;
                if self.credit_next_to(*unit).is_none() {
                    return Err(Why::new("SDE-EGG.2", "a unit picks up credits next to it"));
                }
                Ok(Plan::Collect(*unit))
            }
            Action::Collect { unit } => self.judge_token(*unit),
            Action::Cheer { unit, target } => self.judge_cheer(*unit, *target),
            Action::BreakIn { unit } => {
                self.exists(*unit)?;
                self.spend(*unit)?;
                if self.fixed.kind != MissionKind::RingBattle || !self.unit(*unit).outside {
                    return Err(Why::new(
                        "SDE-RING.2",
                        "only units outside the ring break in",
                    ));
                }
                Ok(Plan::BreakIn(*unit))
            }
            Action::PickUp { unit, animal } => self.judge_pick_up(*unit, *animal),
            _ => Err(NOT_NOW),
        }
    }

    /// Melee in a turn (SDE-MELEE; SDE-CHARGE's free one; SDE-T: no transport).
    fn judge_melee(&self, unit: UnitId, target: UnitId) -> Result<Plan, Why> {
        self.exists(unit)?;
        self.own_ready_unit(unit)?;
        if self.has(unit, Special::T) {
            return Err(Why::new("SDE-T", "a transport may not attack in melee"));
        }
        let free = self.now.charge == Some(unit);
        if !free {
            self.spend(unit)?;
        }
        self.target_ok(unit, target)?;
        if !self.next_to(unit, target) {
            return Err(Why::new("SDE-MELEE", "melee is against a unit next to it"));
        }
        Ok(Plan::Melee {
            unit,
            target,
            free,
            bonus: 0,
        })
    }

    /// SDE-RECOVER: a stunned unit's action to get up.
    fn judge_recover(&self, unit: UnitId) -> Result<Plan, Why> {
        self.exists(unit)?;
        let x = self.unit(unit);
        if x.owner != Some(self.now.active) || !x.is_unit() || !x.on_table() {
            return Err(Why::new("SDE-T1", "that is not one of your units"));
        }
        if !x.stunned {
            return Err(Why::new("SDE-RECOVER", "it is not stunned"));
        }
        if x.actions == 0 {
            return Err(Why::new("SDE-T1", "it has done its two actions"));
        }
        Ok(Plan::Recover(unit))
    }

    /// SDE-H: hiding, at the start (free) or as an action; none in RING BATTLE (SDE-RING.1)
    /// or on the hill (SDE-KOTH.2).
    fn judge_hide(&self, unit: UnitId) -> Result<Plan, Why> {
        self.exists(unit)?;
        let start = matches!(self.now.phase, Phase::StartHidden { .. });
        if start {
            let Phase::StartHidden { seat } = self.now.phase else {
                unreachable!()
            };
            if self.unit(unit).owner != Some(seat) || !self.unit(unit).on_table() {
                return Err(Why::new("SDE-T1", "that is not one of your units"));
            }
        } else {
            self.spend(unit)?;
        }
        if self.fixed.kind == MissionKind::RingBattle
            && self.unit_type(unit).is_some_and(|t| t.is(Special::H))
        {
            return Err(Why::new(
                "SDE-RING.1",
                "units may not hide in a ring battle",
            ));
        }
        if !self.has(unit, Special::H) {
            return Err(Why::new("SDE-H", "only HIDE units may hide"));
        }
        if self.unit(unit).hidden {
            return Err(Why::new("SDE-H", "it is hidden already"));
        }
        if self.on_hill(unit) {
            return Err(Why::new("SDE-KOTH.2", "units on the hill cannot be hidden"));
        }
        Ok(Plan::Hide(unit, !start))
    }

    /// SDE-KOTH.2: a unit on the hill collects the turn's token.
    fn judge_token(&self, unit: UnitId) -> Result<Plan, Why> {
        self.exists(unit)?;
        self.spend(unit)?;
        if !self.on_hill(unit) {
            return Err(Why::new(
                "SDE-KOTH.2",
                "only a unit on the hill collects a token",
            ));
        }
        if self.now.collected {
            return Err(Why::new(
                "SDE-KOTH.2",
                "a player earns at most one token a turn",
            ));
        }
        Ok(Plan::Collect(unit))
    }

    /// SDE-RING.2: an outside unit's cheer die for a unit in the ring.
    fn judge_cheer(&self, unit: UnitId, target: UnitId) -> Result<Plan, Why> {
        self.exists(unit)?;
        self.exists(target)?;
        self.spend(unit)?;
        if !self.unit(unit).outside {
            return Err(Why::new("SDE-RING.2", "only units outside the ring cheer"));
        }
        if !self.cheer_target(target) {
            return Err(Why::new(
                "SDE-RING.2",
                "a cheer die goes next to a unit in the ring",
            ));
        }
        Ok(Plan::Cheer(unit, target))
    }

    /// SDE-SAFARI.2: picking up a stunned animal next to the unit.
    fn judge_pick_up(&self, unit: UnitId, animal: UnitId) -> Result<Plan, Why> {
        self.exists(unit)?;
        self.exists(animal)?;
        self.spend(unit)?;
        let a = self.unit(animal);
        if !a.is_animal() || !a.on_table() {
            return Err(Why::new("SDE-SAFARI.2", "pick up an animal on the table"));
        }
        if !a.stunned {
            return Err(Why::new(
                "SDE-SAFARI.2",
                "an animal must be stunned before it can be picked up",
            ));
        }
        if !self.next_to(unit, animal) {
            return Err(Why::new(
                "SDE-SAFARI.2",
                "the animal must be next to the unit",
            ));
        }
        if !self.may_carry_more(unit) {
            return Err(Why::new(
                "SDE-SAFARI.2",
                "it carries all it can (one animal; a transport its value)",
            ));
        }
        Ok(Plan::PickUp(unit, animal))
    }

    /// The plan of an action from a trusted source (one `legal` listed): a move's plan is
    /// read off the action without judging it again (the commonest step of a random or
    /// searched game), a shot's dice worked out without tracing the line of sight again;
    /// anything else is judged as usual. The conformance kit checks that this gives what
    /// judging gives.
    pub fn listed_plan_of(&self, a: &Action) -> Result<Plan, Why> {
        if let Action::Move { unit, to, cargo } = a
            && matches!(self.now.phase, Phase::Turn | Phase::FastMoves)
            && (*unit as usize) < self.now.units.len()
        {
            let (load, drop) = crate::events::Cargo::parts(cargo);
            let plan = MovePlan {
                unit: *unit,
                to: to.resolve(self.unit(*unit).at),
                load: load.to_vec(),
                drop: drop.to_vec(),
                free: self.now.phase == Phase::FastMoves,
            };
            return Ok(Plan::Move(plan));
        }
        // A listed shot: its dice after range, without tracing the line of sight again.
        if let Action::Shoot { unit, aims, from } = a
            && self.now.phase == Phase::Turn
            && (*unit as usize) < self.now.units.len()
            && aims
                .iter()
                .all(|a| (a.target as usize) < self.now.units.len())
        {
            let (origin, radius) = match from {
                Some(p) => (*p, 0),
                None => (self.unit(*unit).at, BASE_RADIUS),
            };
            let total = self.attack_dice(*unit, false);
            let once = aims.len() > 1 && self.fixed.options.spray_range == SprayRange::Once;
            let shots = aims
                .iter()
                .map(|a| {
                    let share = if a.dice == 0 { total } else { a.dice };
                    if once {
                        return (a.target, share);
                    }
                    let extra = self.extra_range(origin, radius, a.target);
                    (a.target, self.shooting_dice(*unit, share, extra))
                })
                .collect();
            return Ok(Plan::Shoot {
                unit: *unit,
                shots,
                from: origin,
                free: false,
            });
        }
        self.plan(a)
    }
}
