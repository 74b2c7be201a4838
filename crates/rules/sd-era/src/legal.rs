//! The one judge: [`SdEra::plan`] decides whether an action is legal and what it will do;
//! `check`, the candidate list and `act` all use it. A refusal is a [`Why`] — the rule id
//! and a fixed sentence — put into words only when someone reads it.

use crate::combat::Question;
use crate::data::{BASE_RADIUS, MissionKind, STICK, Special};
use crate::events::{Action, Aim, Aims, Event, Target, WINDS};
use crate::movement::MovePlan;
use crate::state::{Choice, Phase, SdEra, Trail, UnitId};
use battlemat_core::Illegal;
use battlemat_geom::table::{Point, Ticks, toward};

/// Why an action is refused: the rule and a sentence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Why {
    pub rule: &'static str,
    pub reason: &'static str,
}

impl Why {
    pub const fn new(rule: &'static str, reason: &'static str) -> Why {
        Why { rule, reason }
    }
    pub fn explain(self) -> Illegal {
        Illegal::by(self.rule, self.reason)
    }
}

/// What an accepted action will do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Plan {
    Move(MovePlan),
    /// Each target with its dice after range penalties, from the line of fire's start.
    Shoot {
        unit: UnitId,
        shots: Vec<(UnitId, u8)>,
        from: Point,
    },
    Melee {
        unit: UnitId,
        target: UnitId,
        free: bool,
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
    Deploy(UnitId, Point, bool),
    PickUp(UnitId, UnitId),
}

const NOT_NOW: Why = Why::new("SDE-T1", "that is not something to do now");
const TOO_FAR: Why = Why::new("SDE-MOVE", "that point is far off the table");

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
    fn own_ready_unit(&self, unit: UnitId) -> Result<(), Why> {
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
    fn spend(&self, unit: UnitId) -> Result<(), Why> {
        self.own_ready_unit(unit)?;
        if self.now.phase != Phase::Turn {
            return Err(NOT_NOW);
        }
        if self.unit(unit).actions == 0 {
            return Err(Why::new("SDE-T1", "it has done its two actions"));
        }
        Ok(())
    }

    fn exists(&self, u: UnitId) -> Result<(), Why> {
        if (u as usize) < self.now.units.len() {
            Ok(())
        } else {
            Err(Why::new("SDE-T1", "there is no such unit"))
        }
    }

    /// May `unit` attack `target` at all (not itself, not a friend, not stunned, ring)?
    fn target_ok(&self, unit: UnitId, target: UnitId) -> Result<(), Why> {
        self.exists(target)?;
        let y = self.unit(target);
        if target == unit || !y.on_table() {
            return Err(Why::new(
                "SDE-SHOOT",
                "there is no such target on the table",
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

    /// The judge.
    pub fn plan(&self, a: &Action) -> Result<Plan, Why> {
        match (&self.now.phase, a) {
            (Phase::Over, _) => Err(Why::new("SDE-T1", "the game is over")),
            (
                Phase::Turn | Phase::FastMoves,
                Action::Move {
                    unit,
                    to,
                    load,
                    drop,
                },
            ) => {
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
            (Phase::Turn, Action::Shoot { unit, aims, from }) => {
                if let Some(p) = from {
                    sane(*p)?;
                }
                self.judge_shot(*unit, aims, *from)
            }
            (Phase::Turn | Phase::FastMoves, Action::Melee { unit, target }) => {
                self.exists(*unit)?;
                self.own_ready_unit(*unit)?;
                if self.has(*unit, Special::T) {
                    return Err(Why::new("SDE-T", "a transport may not attack in melee"));
                }
                let free = self.now.charge == Some(*unit);
                if !free {
                    self.spend(*unit)?;
                }
                self.target_ok(*unit, *target)?;
                if !self.next_to(*unit, *target) {
                    return Err(Why::new("SDE-MELEE", "melee is against a unit next to it"));
                }
                Ok(Plan::Melee {
                    unit: *unit,
                    target: *target,
                    free,
                })
            }
            (Phase::Turn, Action::Recover { unit }) => {
                self.exists(*unit)?;
                let x = self.unit(*unit);
                if x.owner != Some(self.now.active) || !x.is_unit() || !x.on_table() {
                    return Err(Why::new("SDE-T1", "that is not one of your units"));
                }
                if !x.stunned {
                    return Err(Why::new("SDE-RECOVER", "it is not stunned"));
                }
                if x.actions == 0 {
                    return Err(Why::new("SDE-T1", "it has done its two actions"));
                }
                Ok(Plan::Recover(*unit))
            }
            (Phase::Turn | Phase::StartHidden { .. }, Action::Hide { unit }) => {
                self.exists(*unit)?;
                let start = matches!(self.now.phase, Phase::StartHidden { .. });
                if start {
                    let Phase::StartHidden { seat } = self.now.phase else {
                        unreachable!()
                    };
                    if self.unit(*unit).owner != Some(seat) || !self.unit(*unit).on_table() {
                        return Err(Why::new("SDE-T1", "that is not one of your units"));
                    }
                } else {
                    self.spend(*unit)?;
                }
                if self.fixed.kind == MissionKind::RingBattle
                    && self.unit_type(*unit).is_some_and(|t| t.is(Special::H))
                {
                    return Err(Why::new(
                        "SDE-RING.1",
                        "units may not hide in a ring battle",
                    ));
                }
                if !self.has(*unit, Special::H) {
                    return Err(Why::new("SDE-H", "only HIDE units may hide"));
                }
                if self.unit(*unit).hidden {
                    return Err(Why::new("SDE-H", "it is hidden already"));
                }
                if self.on_hill(*unit) {
                    return Err(Why::new("SDE-KOTH.2", "units on the hill cannot be hidden"));
                }
                Ok(Plan::Hide(*unit, !start))
            }
            (Phase::Turn, Action::Collect { unit }) => {
                self.exists(*unit)?;
                self.spend(*unit)?;
                if !self.on_hill(*unit) {
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
                Ok(Plan::Collect(*unit))
            }
            (Phase::Turn, Action::Cheer { unit, target }) => {
                self.exists(*unit)?;
                self.exists(*target)?;
                self.spend(*unit)?;
                if !self.unit(*unit).outside {
                    return Err(Why::new("SDE-RING.2", "only units outside the ring cheer"));
                }
                if !self.cheer_target(*target) {
                    return Err(Why::new(
                        "SDE-RING.2",
                        "a cheer die goes next to a unit in the ring",
                    ));
                }
                Ok(Plan::Cheer(*unit, *target))
            }
            (Phase::Turn, Action::BreakIn { unit }) => {
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
            (Phase::Turn | Phase::FastMoves, Action::End) => Ok(Plan::End),
            (Phase::Draft { seat }, Action::Pick { kind }) => {
                let k = self
                    .fixed
                    .chart
                    .iter()
                    .position(|(key, _)| key == kind)
                    .ok_or(Why::new("SDE-T2", "that unit is not on the chart"))?
                    as u16;
                let mut army = self.army(*seat);
                army.push(k);
                self.draft_ok(&army)?;
                Ok(Plan::Pick(k))
            }
            (Phase::Draft { seat }, Action::Done) => {
                let army = self.army(*seat);
                let m = &self.fixed.setup.mission;
                let counted = army
                    .iter()
                    .filter(|k| !self.fixed.chart[**k as usize].1.is(Special::T))
                    .count();
                if army.is_empty() || counted < m.least_units as usize {
                    return Err(Why::new("SDE-T2", "pick more units first"));
                }
                Ok(Plan::Done)
            }
            (Phase::StartHidden { .. }, Action::Done) => Ok(Plan::Done),
            (Phase::Fight(f), Action::Reroll { face }) => match self.fight_question(f) {
                Some((_, Question::Reroll(side))) => {
                    let pool = if side { &f.att } else { &f.def };
                    if !(1..=6).contains(face) || pool.faces[*face as usize - 1] == 0 {
                        return Err(Why::new(
                            "SDE-V",
                            "re-roll one of your own dice: name a face it shows",
                        ));
                    }
                    Ok(Plan::Reroll(side, *face))
                }
                _ => Err(NOT_NOW),
            },
            (Phase::Fight(f), Action::Keep) => match self.fight_question(f) {
                Some((_, Question::Reroll(side))) => Ok(Plan::Keep(side)),
                _ => Err(NOT_NOW),
            },
            (Phase::Fight(f), Action::AddCheer { dice }) => match self.fight_question(f) {
                Some((_, Question::Cheer(side))) => {
                    let u = if side {
                        match f.striker {
                            crate::state::Striker::Unit(u) => u,
                            _ => return Err(NOT_NOW),
                        }
                    } else {
                        f.target
                    };
                    if *dice > self.unit(u).cheer {
                        return Err(Why::new("SDE-RING.2", "it has fewer cheer dice"));
                    }
                    Ok(Plan::AddCheer(side, *dice))
                }
                _ => Err(NOT_NOW),
            },
            (Phase::Choose(Choice::Push { mover, .. }), Action::Push { toward }) => {
                sane_target(toward)?;
                let at = self.unit(*mover).at;
                let aim = toward.resolve(at);
                if aim == at {
                    return Err(Why::new(
                        "SDE-KB1",
                        "name a direction: a wind (ne) or a point",
                    ));
                }
                if aim.x.abs() > battlemat_geom::table::MAX_COORD
                    || aim.y.abs() > battlemat_geom::table::MAX_COORD
                {
                    return Err(Why::new("SDE-KB1", "that point is too far away"));
                }
                Ok(Plan::Push(aim))
            }
            (Phase::Choose(Choice::Push { optional, .. }), Action::Pass) => {
                if *optional {
                    Ok(Plan::Pass)
                } else {
                    Err(Why::new("SDE-KB1", "the winner must knock the loser back"))
                }
            }
            (Phase::Choose(Choice::TakeHill { unit, spot, .. }), Action::Take) => {
                if self.may_take_hill(*unit, *spot) {
                    Ok(Plan::Take)
                } else {
                    Err(Why::new("SDE-KOTH.2", "the place on the hill is taken"))
                }
            }
            (Phase::Choose(Choice::TakeHill { .. }), Action::Stay) => Ok(Plan::Stay),
            (Phase::Choose(Choice::EarnedCheer { .. }), Action::Place { target }) => {
                self.exists(*target)?;
                if !self.cheer_target(*target) {
                    return Err(Why::new(
                        "SDE-RING.2",
                        "a cheer die goes next to a unit in the ring",
                    ));
                }
                Ok(Plan::Place(*target))
            }
            (Phase::Turn, Action::PickUp { unit, animal }) => {
                self.exists(*unit)?;
                self.exists(*animal)?;
                self.spend(*unit)?;
                let a = self.unit(*animal);
                if !a.is_animal() || !a.on_table() {
                    return Err(Why::new("SDE-SAFARI.2", "pick up an animal on the table"));
                }
                if !a.stunned {
                    return Err(Why::new(
                        "SDE-SAFARI.2",
                        "an animal must be stunned before it can be picked up",
                    ));
                }
                if !self.next_to(*unit, *animal) {
                    return Err(Why::new(
                        "SDE-SAFARI.2",
                        "the animal must be next to the unit",
                    ));
                }
                if !self.may_carry_more(*unit) {
                    return Err(Why::new(
                        "SDE-SAFARI.2",
                        "it carries all it can (one animal; a transport its value)",
                    ));
                }
                Ok(Plan::PickUp(*unit, *animal))
            }
            (Phase::Deploy { seat }, Action::Deploy { unit, at }) => {
                self.exists(*unit)?;
                let p = sane(*at)?;
                let x = self.unit(*unit);
                if x.owner != Some(*seat) || !x.waiting {
                    return Err(Why::new(
                        "SDE-RING.1",
                        "place one of your units not yet placed",
                    ));
                }
                let inside = self.in_ring_zone(p);
                if !inside && self.from_own_edge(*seat, p) > STICK {
                    return Err(Why::new(
                        "SDE-RING.1",
                        "units start in the ring, or outside it near your table edge",
                    ));
                }
                let others = self.bases_except(&[*unit]);
                let base = battlemat_geom::table::Base::new(p, BASE_RADIUS);
                if !matches!(
                    self.fixed.table.landing(&base, &others),
                    battlemat_geom::table::Landing::Ground
                ) {
                    return Err(Why::new("SDE-RING.1", "there is no room there"));
                }
                Ok(Plan::Deploy(*unit, p, !inside))
            }
            _ => Err(NOT_NOW),
        }
    }

    /// Judge a shooting attack (SDE-SHOOT, SDE-RANGE, SDE-SIGHT, SDE-A, SDE-B, SDE-S).
    fn judge_shot(&self, unit: UnitId, aims: &[Aim], from: Option<Point>) -> Result<Plan, Why> {
        self.exists(unit)?;
        self.spend(unit)?;
        if aims.is_empty() {
            return Err(Why::new("SDE-SHOOT", "shoot at whom?"));
        }
        if aims.len() > 1 && !self.has(unit, Special::S) {
            return Err(Why::new(
                "SDE-S",
                "only SPRAY units split their dice across targets",
            ));
        }
        let x = self.unit(unit);
        let total = self.attack_dice(unit, false);
        let (origin, radius) = match from {
            None => (x.at, BASE_RADIUS),
            Some(p) => {
                if !self.has(unit, Special::B) {
                    return Err(Why::new("SDE-B", "only BITS shoot from somewhere else"));
                }
                let d2 = crate::combat::len2(p.x - x.at.x, p.y - x.at.y);
                let t = &self.fixed.table;
                // A point inside a target's base gives the shot no line (and no direction).
                if aims.iter().any(|a| {
                    (a.target as usize) < self.now.units.len() && {
                        let y = self.unit(a.target);
                        crate::combat::len2(p.x - y.at.x, p.y - y.at.y)
                            <= (y.radius() as i128) * (y.radius() as i128)
                    }
                }) {
                    return Err(Why::new(
                        "SDE-B",
                        "bits shoot from a point outside the target's base",
                    ));
                }
                if d2 > (STICK as i128) * (STICK as i128)
                    || !(0..=t.width).contains(&p.x)
                    || !(0..=t.depth).contains(&p.y)
                {
                    return Err(Why::new(
                        "SDE-B",
                        "bits shoot from a point within 1 stick of the unit",
                    ));
                }
                (p, 0)
            }
        };
        let mut shots = Vec::with_capacity(aims.len());
        let mut sum = 0u16;
        for (i, aim) in aims.iter().enumerate() {
            if aims[..i].iter().any(|b| b.target == aim.target) {
                return Err(Why::new("SDE-S", "each target once"));
            }
            self.target_ok(unit, aim.target)?;
            let share = if aim.dice == 0 {
                if aims.len() > 1 {
                    return Err(Why::new(
                        "SDE-S",
                        "give each target its share of the dice (u4:2 u5:2)",
                    ));
                }
                total
            } else {
                aim.dice
            };
            sum += u16::from(share);
            shots.push((
                aim.target,
                self.aim_dice(unit, origin, radius, aim.target, share)?,
            ));
        }
        if sum != u16::from(total) {
            return Err(Why::new(
                "SDE-S",
                "the shares must add up to the unit's attack dice",
            ));
        }
        Ok(Plan::Shoot {
            unit,
            shots,
            from: origin,
        })
    }

    /// One target's share of a shot, after sight and range (SDE-SIGHT, SDE-RANGE, SDE-A):
    /// the dice it rolls.
    fn aim_dice(
        &self,
        unit: UnitId,
        origin: Point,
        radius: Ticks,
        target: UnitId,
        share: u8,
    ) -> Result<u8, Why> {
        // Range first: it is cheap, and rules out most shots of one-die units.
        let extra = self.extra_range(origin, radius, target);
        if extra > 0 && share <= 1 {
            return Err(Why::new(
                "SDE-RANGE",
                "only units with more than one attack die shoot beyond 1 stick",
            ));
        }
        let dice = self.shooting_dice(unit, share, extra);
        if dice == 0 {
            return Err(Why::new(
                "SDE-RANGE",
                "out of range: the range penalty leaves no dice",
            ));
        }
        if !self.sees(unit, origin, target) {
            return Err(Why::new(
                "SDE-SIGHT",
                "it cannot see the target: cover is in the way",
            ));
        }
        Ok(dice)
    }

    /// The units `seat` has drafted so far.
    pub fn army(&self, seat: u8) -> Vec<u16> {
        self.now
            .units
            .iter()
            .filter(|u| u.owner == Some(seat))
            .filter_map(|u| u.kind())
            .collect()
    }

    /// A draft pick keeps the army within the points and the unit limit (SDE-T2).
    fn draft_ok(&self, army: &[u16]) -> Result<(), Why> {
        let m = &self.fixed.setup.mission;
        let types: Vec<_> = army
            .iter()
            .map(|k| &self.fixed.chart[*k as usize].1)
            .collect();
        let cost: u32 = types.iter().map(|t| u32::from(t.cost())).sum();
        let counted = types.iter().filter(|t| !t.is(Special::T)).count();
        if cost > u32::from(self.points_cap()) {
            return Err(Why::new("SDE-T2", "that would spend more than the points"));
        }
        // Leave enough points for the fewest units the mission needs (the cheapest kind).
        let cheapest = self
            .fixed
            .chart
            .iter()
            .filter(|(_, t)| !t.is(Special::T))
            .map(|(_, t)| u32::from(t.cost()))
            .min()
            .unwrap_or(1);
        let short = (m.least_units as usize).saturating_sub(counted) as u32;
        if cost + short * cheapest > u32::from(self.points_cap()) {
            return Err(Why::new(
                "SDE-GALLERY.1",
                "that would leave too few points for the units the mission needs",
            ));
        }
        if m.most_units > 0 && counted > m.most_units as usize {
            return Err(Why::new(
                "SDE-T2",
                "at most three units a player, transports not counted",
            ));
        }
        if army.len() > 12 {
            return Err(Why::new("SDE-T2", "that is enough units"));
        }
        Ok(())
    }

    pub fn check_action(&self, a: &Action) -> Result<(), Illegal> {
        self.plan(a).map(|_| ()).map_err(Why::explain)
    }

    /// Judge and carry out.
    pub fn act(&mut self, a: &Action, ev: &mut Vec<Event>) -> Result<(), Illegal> {
        let p = self.plan(a).map_err(Why::explain)?;
        self.carry_out(p, ev);
        Ok(())
    }

    /// Carry out an action from a trusted source (one `legal` listed): a move's plan is read
    /// off the action without judging it again (the commonest step of a random or searched
    /// game); anything else is judged as usual. The conformance kit checks that this gives
    /// what `act` gives.
    pub fn act_trusted(&mut self, a: &Action, ev: &mut Vec<Event>) -> Result<(), Illegal> {
        if let Action::Move {
            unit,
            to,
            load,
            drop,
        } = a
            && matches!(self.now.phase, Phase::Turn | Phase::FastMoves)
            && (*unit as usize) < self.now.units.len()
        {
            let plan = MovePlan {
                unit: *unit,
                to: to.resolve(self.unit(*unit).at),
                load: load.to_vec(),
                drop: drop.to_vec(),
                free: self.now.phase == Phase::FastMoves,
            };
            self.carry_out(Plan::Move(plan), ev);
            return Ok(());
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
            let shots = aims
                .iter()
                .map(|a| {
                    let share = if a.dice == 0 { total } else { a.dice };
                    let extra = self.extra_range(origin, radius, a.target);
                    (a.target, self.shooting_dice(*unit, share, extra))
                })
                .collect();
            self.carry_out(
                Plan::Shoot {
                    unit: *unit,
                    shots,
                    from: origin,
                },
                ev,
            );
            return Ok(());
        }
        self.act(a, ev)
    }

    fn carry_out(&mut self, p: Plan, ev: &mut Vec<Event>) {
        let turn_action = matches!(
            p,
            Plan::PickUp(..)
                | Plan::Move(_)
                | Plan::Shoot { .. }
                | Plan::Melee { .. }
                | Plan::Recover(_)
                | Plan::Hide(_, true)
                | Plan::Collect(_)
                | Plan::Cheer(..)
                | Plan::BreakIn(_)
        );
        if turn_action {
            self.now.charge = None;
        }
        match p {
            Plan::Move(m) => self.do_move(m, ev),
            Plan::Shoot { unit, shots, from } => {
                self.now.units[unit as usize].actions -= 1;
                for &(target, dice) in shots.iter().skip(1).rev() {
                    self.now.pending.push(crate::state::Pending::Spray {
                        unit,
                        target,
                        dice,
                        from,
                    });
                }
                let (target, dice) = shots[0];
                self.now.trail.push(Trail::Shot {
                    from,
                    to: self.unit(target).at,
                });
                let f = self.unit_fight(unit, target, false, dice, from);
                self.start_fight(f, ev);
            }
            Plan::Melee { unit, target, free } => {
                if !free {
                    self.now.units[unit as usize].actions -= 1;
                }
                let dice = self.attack_dice(unit, true);
                let f = self.unit_fight(unit, target, true, dice, self.unit(unit).at);
                self.start_fight(f, ev);
            }
            Plan::Recover(u) => {
                let x = &mut self.now.units[u as usize];
                x.stunned = false;
                x.actions -= 1;
                ev.push(Event::Recovered { unit: u });
            }
            Plan::Hide(u, costs) => {
                let x = &mut self.now.units[u as usize];
                x.hidden = true;
                if costs {
                    x.actions -= 1;
                }
                ev.push(Event::Hid { unit: u });
            }
            Plan::Collect(u) => {
                self.now.units[u as usize].actions -= 1;
                let s = self.now.active as usize;
                self.now.tokens[s] += 1;
                self.now.collected = true;
                ev.push(Event::Token {
                    seat: s as u8,
                    tokens: self.now.tokens[s],
                });
                self.settle(ev);
            }
            Plan::Cheer(u, t) => {
                self.now.units[u as usize].actions -= 1;
                let c = &mut self.now.units[t as usize].cheer;
                *c = c.saturating_add(1);
                ev.push(Event::CheerDie {
                    unit: t,
                    cheer: self.unit(t).cheer,
                });
            }
            Plan::BreakIn(u) => {
                self.now.units[u as usize].actions -= 1;
                self.now.back = crate::state::Back::Turn;
                self.now.phase = Phase::BreakIn {
                    unit: u,
                    left: self.attack_dice(u, false),
                    first: 0,
                    same: true,
                };
            }
            Plan::End => self.end_turn(ev),
            Plan::Pick(k) => {
                let Phase::Draft { seat } = self.now.phase else {
                    return;
                };
                if self.place_unit(seat, k).is_err() {
                    // No room on the edge: the pick counts as done.
                    self.now.drafted |= 1 << seat;
                } else {
                    let unit = (self.now.units.len() - 1) as UnitId;
                    ev.push(Event::Picked {
                        seat,
                        unit,
                        name: self.fixed.chart[k as usize].1.name.clone(),
                    });
                }
                self.next_drafter(seat);
            }
            Plan::Done => match self.now.phase {
                Phase::Draft { seat } => {
                    self.now.drafted |= 1 << seat;
                    self.next_drafter(seat);
                }
                Phase::StartHidden { seat } => {
                    self.now.phase = match self.next_hider(seat + 1) {
                        Some(s) => Phase::StartHidden { seat: s },
                        None => self.turn_order_roll(),
                    };
                }
                _ => {}
            },
            Plan::Reroll(side, face) => {
                if let Phase::Fight(f) = self.now.phase {
                    self.start_reroll(f, side, face);
                }
            }
            Plan::Keep(side) => {
                if let Phase::Fight(mut f) = self.now.phase {
                    if side {
                        f.att.rerolled = true;
                    } else {
                        f.def.rerolled = true;
                    }
                    self.fight_continue(f, ev);
                }
            }
            Plan::AddCheer(side, n) => {
                if let Phase::Fight(mut f) = self.now.phase {
                    let u = if side {
                        match f.striker {
                            crate::state::Striker::Unit(u) => u,
                            _ => f.target,
                        }
                    } else {
                        f.target
                    };
                    let pool = if side { &mut f.att } else { &mut f.def };
                    pool.cheered = true;
                    pool.dice = pool.dice.saturating_add(n);
                    self.now.units[u as usize].cheer -= n;
                    if n > 0 {
                        ev.push(Event::Cheered { unit: u, dice: n });
                    }
                    self.fight_continue(f, ev);
                }
            }
            Plan::Push(aim) => {
                if let Phase::Choose(Choice::Push {
                    seat,
                    mover,
                    dist,
                    dice,
                    ..
                }) = self.now.phase
                {
                    self.now
                        .pending
                        .push(crate::state::Pending::Motion(crate::state::Motion {
                            body: mover,
                            toward: aim,
                            dist,
                            by: Some(seat),
                            dice,
                            bounces: 0,
                            past: None,
                        }));
                    self.settle(ev);
                }
            }
            Plan::Pass | Plan::Stay => self.settle(ev),
            Plan::Take => {
                if let Phase::Choose(Choice::TakeHill { unit, spot, .. }) = self.now.phase {
                    self.take_hill(unit, spot, ev);
                }
                self.settle(ev);
            }
            Plan::PickUp(u, a) => {
                self.now.units[u as usize].actions -= 1;
                self.pick_up(u, a, ev);
                // Already at a board edge: captured at once.
                self.capture_at_edge(u, ev);
                self.settle(ev);
            }
            Plan::Deploy(u, p, outside) => {
                let x = &mut self.now.units[u as usize];
                x.at = p;
                x.home = p;
                x.waiting = false;
                x.outside = outside;
                ev.push(Event::Deployed {
                    unit: u,
                    at: p,
                    outside,
                });
                // Take turns, in turn order: the next seat with a unit to place.
                let n = self.fixed.players;
                let from = match self.now.phase {
                    Phase::Deploy { seat } => (seat + 1) % n,
                    _ => self.now.first,
                };
                match self.next_deployer(from) {
                    Some(seat) => self.now.phase = Phase::Deploy { seat },
                    None => {
                        let first = self.now.first;
                        self.begin_turn(first, ev);
                    }
                }
            }
            Plan::Place(t) => {
                let c = &mut self.now.units[t as usize].cheer;
                *c = c.saturating_add(1);
                ev.push(Event::CheerDie {
                    unit: t,
                    cheer: self.unit(t).cheer,
                });
                self.settle(ev);
            }
        }
    }

    /// The draft passes to the next seat still picking; when all are done, play begins.
    fn next_drafter(&mut self, seat: u8) {
        let n = self.fixed.players;
        for k in 1..=n {
            let s = (seat + k) % n;
            if self.now.drafted & (1 << s) == 0 {
                self.now.phase = Phase::Draft { seat: s };
                return;
            }
        }
        self.start_play();
    }

    /// The candidate list: every decision that is a finite choice is listed in full; moves,
    /// pushes and BITS points are candidates (`ActionList::Candidates`).
    pub fn legal(&self) -> Vec<Action> {
        let mut out = Vec::with_capacity(96);
        match &self.now.phase {
            Phase::Over
            | Phase::TurnOrder { .. }
            | Phase::BreakIn { .. }
            | Phase::BombRoll { .. }
            | Phase::AnimalRecover { .. }
            | Phase::AnimalCharge { .. } => {}
            Phase::Draft { .. } => {
                for (key, _) in &self.fixed.chart {
                    out.push(Action::Pick { kind: key.clone() });
                }
                out.push(Action::Done);
            }
            Phase::Deploy { seat } => {
                // In front of the player just inside the ring, and along its table edge.
                let spots: Vec<Point> = self
                    .start_spots(*seat)
                    .into_iter()
                    .chain(self.edge_spots(*seat))
                    .collect();
                for u in self.ids() {
                    if self.unit(u).owner == Some(*seat) && self.unit(u).waiting {
                        for &at in &spots {
                            out.push(Action::Deploy { unit: u, at });
                        }
                    }
                }
            }
            Phase::StartHidden { seat } => {
                for u in self.ids() {
                    if self.unit(u).owner == Some(*seat) {
                        out.push(Action::Hide { unit: u });
                    }
                }
                out.push(Action::Done);
            }
            Phase::Turn | Phase::FastMoves => {
                // Every candidate is judged as it is made.
                self.turn_candidates(&mut out);
                return out;
            }
            Phase::Fight(f) => match self.fight_question(f) {
                Some((_, Question::Reroll(side))) => {
                    let pool = if side { &f.att } else { &f.def };
                    for face in 1..=6u8 {
                        if pool.faces[face as usize - 1] > 0 {
                            out.push(Action::Reroll { face });
                        }
                    }
                    out.push(Action::Keep);
                }
                Some((_, Question::Cheer(side))) => {
                    let u = match (side, f.striker) {
                        (true, crate::state::Striker::Unit(u)) => u,
                        _ => f.target,
                    };
                    for dice in 0..=self.unit(u).cheer {
                        out.push(Action::AddCheer { dice });
                    }
                }
                None => {}
            },
            Phase::Choose(c) => match c {
                Choice::Push { .. } => {
                    for wind in 0..WINDS.len() as u8 {
                        out.push(Action::Push {
                            toward: Target::Heading { wind, dist: STICK },
                        });
                    }
                    out.push(Action::Pass);
                }
                Choice::TakeHill { .. } => {
                    out.push(Action::Take);
                    out.push(Action::Stay);
                }
                Choice::EarnedCheer { .. } => {
                    for u in self.ids() {
                        out.push(Action::Place { target: u });
                    }
                }
            },
        }
        out.retain(|a| self.plan(a).is_ok());
        out
    }

    fn turn_candidates(&self, out: &mut Vec<Action>) {
        let seat = self.now.active;
        let mut scratch = crate::movement::Scratch::of(self);
        // SAFARI: pick-ups are looked for only while some animal lies stunned.
        let pickups = self.fixed.kind == MissionKind::Safari
            && self
                .now
                .units
                .iter()
                .any(|a| a.is_animal() && a.stunned && a.on_table());
        let push = |a: Action, out: &mut Vec<Action>| {
            if self.plan(&a).is_ok() {
                out.push(a);
            }
        };
        if let Some(u) = self.now.charge {
            for t in self.ids() {
                if t != u && self.unit(t).on_table() && self.next_to(u, t) {
                    push(Action::Melee { unit: u, target: t }, out);
                }
            }
        }
        for u in self.ids() {
            let x = self.unit(u);
            if x.owner != Some(seat) || !x.on_table() {
                continue;
            }
            if x.stunned {
                push(Action::Recover { unit: u }, out);
                continue;
            }
            if self.now.phase == Phase::FastMoves {
                if x.fast_move {
                    self.move_candidates_with(u, out, &mut scratch);
                }
                continue;
            }
            if x.actions == 0 {
                continue;
            }
            self.move_candidates_with(u, out, &mut scratch);
            self.shot_candidates(u, out);
            if self.now.charge != Some(u) && !self.has(u, Special::T) {
                for t in self.ids() {
                    let y = self.unit(t);
                    if t != u
                        && y.owner != x.owner
                        && y.on_table()
                        && !y.stunned
                        && self.next_to(u, t)
                    {
                        push(Action::Melee { unit: u, target: t }, out);
                    }
                }
            }
            if self.unit_type(u).is_some_and(|t| t.is(Special::H)) {
                push(Action::Hide { unit: u }, out);
            }
            if self.hill().is_some() {
                push(Action::Collect { unit: u }, out);
            }
            if pickups {
                for a in self.ids() {
                    let y = self.unit(a);
                    if y.is_animal() && y.stunned && y.on_table() && self.next_to(u, a) {
                        push(Action::PickUp { unit: u, animal: a }, out);
                    }
                }
            }
            if x.outside {
                push(Action::BreakIn { unit: u }, out);
                for t in self.ids() {
                    if self.cheer_target(t) {
                        push(Action::Cheer { unit: u, target: t }, out);
                    }
                }
            }
        }
        out.push(Action::End);
    }

    /// Shots: each target with all the dice; SPRAY also halves its dice over the two
    /// nearest; BITS also fires from 1 stick toward a target it cannot reach or see.
    fn shot_candidates(&self, u: UnitId, out: &mut Vec<Action>) {
        let targets: Vec<UnitId> = self
            .ids()
            .filter(|&t| t != u && self.target_ok(u, t).is_ok())
            .collect();
        let x = *self.unit(u);
        // The judge's checks of the unit (`spend`) were made by the caller's loop; each
        // target is judged by the same per-target rules as `judge_shot`.
        let total = self.attack_dice(u, false);
        for &t in &targets {
            if self.aim_dice(u, x.at, BASE_RADIUS, t, total).is_ok() {
                out.push(Action::Shoot {
                    unit: u,
                    aims: Aims::One(Aim { target: t, dice: 0 }),
                    from: None,
                });
            }
            if self.has(u, Special::B) {
                let p = toward(x.at, self.unit(t).at, STICK);
                let p = clamp_to(&self.fixed.table, p);
                let bits = Action::Shoot {
                    unit: u,
                    aims: Aims::One(Aim { target: t, dice: 0 }),
                    from: Some(p),
                };
                if p != x.at && self.plan(&bits).is_ok() {
                    out.push(bits);
                }
            }
        }
        if self.has(u, Special::S) && targets.len() >= 2 {
            let total = self.attack_dice(u, false);
            let mut near = targets.clone();
            near.sort_by_key(|&t| {
                let y = self.unit(t);
                crate::combat::len2(y.at.x - x.at.x, y.at.y - x.at.y)
            });
            let a = total.div_ceil(2);
            let spray = Action::Shoot {
                unit: u,
                aims: Aims::from_vec(vec![
                    Aim {
                        target: near[0],
                        dice: a,
                    },
                    Aim {
                        target: near[1],
                        dice: total - a,
                    },
                ]),
                from: None,
            };
            if self.plan(&spray).is_ok() {
                out.push(spray);
            }
        }
    }
}

fn clamp_to(t: &battlemat_geom::table::Table, p: Point) -> Point {
    let c = |v: Ticks, hi: Ticks| v.clamp(0, hi);
    Point::new(c(p.x, t.width), c(p.y, t.depth))
}
