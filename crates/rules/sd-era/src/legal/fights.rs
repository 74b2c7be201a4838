//! Judging a fight's steps and the choices the rules ask for (SDE-MELEE, SDE-SHOOT,
//! knockback, VETERAN), and a shot's aims and dice (SDE-SHOOT, SPRAY).

use super::*;
use crate::combat::Question;
use crate::data::{BASE_RADIUS, STICK, Special};
use crate::events::{Action, Aim};
use crate::options::SprayRange;
use crate::state::{Choice, SdEra, UnitId};
pub use battlemat_core::Why;

impl SdEra {
    /// Decisions within a fight: SDE-V's re-roll, SDE-RING.2's cheer dice.
    pub(crate) fn plan_fight(&self, f: &crate::state::Fight, a: &Action) -> Result<Plan, Why> {
        match a {
            Action::Reroll { face } => match self.fight_question(f) {
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
            Action::Keep => match self.fight_question(f) {
                Some((_, Question::Reroll(side))) => Ok(Plan::Keep(side)),
                _ => Err(NOT_NOW),
            },
            Action::AddCheer { dice } => match self.fight_question(f) {
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
            _ => Err(NOT_NOW),
        }
    }

    /// The choices a fight or a mission leaves to a seat: EGG HUNT's free attack, CONVOY's
    /// draws and give-ups, SDE-KB1's push, KOTH.2's hill, RING.2's earned cheer.
    pub(crate) fn plan_choice(&self, c: &Choice, a: &Action) -> Result<Plan, Why> {
        match (c, a) {
            (Choice::FreeAttack { unit: me, .. }, Action::Melee { unit, target }) => {
                self.free_attacker(*me, *unit)?;
                self.target_ok(*unit, *target)?;
                if self.has(*unit, Special::T) {
                    return Err(Why::new("SDE-T", "a transport may not attack in melee"));
                }
                if !self.next_to(*unit, *target) {
                    return Err(Why::new("SDE-MELEE", "melee is against a unit next to it"));
                }
                Ok(Plan::Melee {
                    unit: *unit,
                    target: *target,
                    free: true,
                    bonus: 1,
                })
            }
            (
                Choice::FreeAttack { unit: me, .. },
                Action::Shoot {
                    unit,
                    aims,
                    from: None,
                },
            ) => {
                self.free_attacker(*me, *unit)?;
                let [aim] = &aims[..] else {
                    return Err(Why::new("SDE-EGG.2", "the free attack is at one target"));
                };
                self.target_ok(*unit, aim.target)?;
                let total = self.attack_dice(*unit, false) + 1;
                if aim.dice != 0 && aim.dice != total {
                    return Err(Why::new("SDE-EGG.2", "the free attack uses all its dice"));
                }
                let at = self.unit(*unit).at;
                let dice = self.aim_dice(*unit, at, BASE_RADIUS, aim.target, total)?;
                Ok(Plan::Shoot {
                    unit: *unit,
                    shots: vec![(aim.target, dice)],
                    from: at,
                    free: true,
                })
            }
            (Choice::FreeAttack { .. }, Action::Pass) => Ok(Plan::Pass),
            (Choice::Draws { .. }, Action::Draw { count }) => {
                if *count > 2 {
                    return Err(Why::new(
                        "SDE-CONVOY.2",
                        "draw none, one or two enemy units",
                    ));
                }
                Ok(Plan::Draw(*count))
            }
            (Choice::GiveUp { seat }, Action::GiveUp { unit }) => {
                self.exists(*unit)?;
                let x = self.unit(*unit);
                if x.captured != Some(*seat) || !x.is_unit() {
                    return Err(Why::new(
                        "SDE-CONVOY.2",
                        "give up one of the enemy units you captured",
                    ));
                }
                Ok(Plan::GiveUp(*unit))
            }
            (Choice::Push { mover, .. }, Action::Push { toward }) => {
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
            (Choice::Push { optional, .. }, Action::Pass) => {
                if *optional {
                    Ok(Plan::Pass)
                } else {
                    Err(Why::new("SDE-KB1", "the winner must knock the loser back"))
                }
            }
            (Choice::TakeHill { unit, spot, .. }, Action::Take) => {
                if self.may_take_hill(*unit, *spot) {
                    Ok(Plan::Take)
                } else {
                    Err(Why::new("SDE-KOTH.2", "the place on the hill is taken"))
                }
            }
            (Choice::TakeHill { .. }, Action::Stay) => Ok(Plan::Stay),
            (Choice::EarnedCheer { .. }, Action::Place { target }) => {
                self.exists(*target)?;
                if !self.cheer_target(*target) {
                    return Err(Why::new(
                        "SDE-RING.2",
                        "a cheer die goes next to a unit in the ring",
                    ));
                }
                Ok(Plan::Place(*target))
            }
            _ => Err(NOT_NOW),
        }
    }

    /// Judge a shooting attack (SDE-SHOOT, SDE-RANGE, SDE-SIGHT, SDE-A, SDE-B, SDE-S).
    pub(crate) fn judge_shot(
        &self,
        unit: UnitId,
        aims: &[Aim],
        from: Option<Point>,
    ) -> Result<Plan, Why> {
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
        // `spray_range = once`: the split attack loses its long-range dice once, for its
        // farthest target (SDE-S, SDE-RANGE; ARTILLERY loses none, SDE-A).
        let once = aims.len() > 1 && self.fixed.options.spray_range == SprayRange::Once;
        let mut penalty = 0u8;
        for (i, aim) in aims.iter().enumerate() {
            if aims[..i].iter().any(|b| b.target == aim.target) {
                return Err(Why::new("SDE-S", "each target once"));
            }
            self.target_ok(unit, aim.target)?;
            if once && !self.has(unit, Special::A) {
                penalty = penalty.max(self.extra_range(origin, radius, aim.target));
            }
        }
        let total = if once {
            if penalty > 0 && total <= 1 {
                return Err(Why::new(
                    "SDE-RANGE",
                    "only units with more than one attack die shoot beyond 1 stick",
                ));
            }
            let left = total.saturating_sub(penalty);
            if usize::from(left) < aims.len() {
                return Err(Why::new(
                    "SDE-RANGE",
                    "out of range: the range penalty leaves too few dice to split",
                ));
            }
            left
        } else {
            total
        };
        for aim in aims {
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
            let dice = if once {
                self.aim_dice_split(unit, origin, aim.target, share)?
            } else {
                self.aim_dice(unit, origin, radius, aim.target, share)?
            };
            shots.push((aim.target, dice));
        }
        if sum != u16::from(total) {
            return Err(Why::new(
                "SDE-S",
                if once && penalty > 0 {
                    "the shares must add up to the unit's attack dice less the range penalty for its farthest target (spray_range=once)"
                } else {
                    "the shares must add up to the unit's attack dice"
                },
            ));
        }
        Ok(Plan::Shoot {
            unit,
            shots,
            from: origin,
            free: false,
        })
    }

    /// EGG HUNT: the unit making the free attack out of its egg is the one named.
    pub(crate) fn free_attacker(&self, me: UnitId, unit: UnitId) -> Result<(), Why> {
        self.exists(unit)?;
        if unit != me {
            return Err(Why::new(
                "SDE-EGG.2",
                "only the unit out of the egg makes the free attack",
            ));
        }
        Ok(())
    }

    /// One target's share of a shot, after sight and range (SDE-SIGHT, SDE-RANGE, SDE-A):
    /// the dice it rolls.
    pub(crate) fn aim_dice(
        &self,
        unit: UnitId,
        origin: Point,
        radius: Ticks,
        target: UnitId,
        share: u8,
    ) -> Result<u8, Why> {
        // Range first: it is cheap, and rules out most shots of one-die units.
        let extra = self.extra_range(origin, radius, target);
        if extra > 0 && self.minovsky(origin, self.unit(target).at) {
            return Err(Why::new(
                "SDE-ZONES.2",
                "Minovsky particles: shooting in this zone is limited to 1 stick",
            ));
        }
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

    /// One share of a SPRAY attack that lost its long-range dice once (`spray_range =
    /// once`): the share is rolled as it is, after the same Minovsky and sight checks.
    pub(crate) fn aim_dice_split(
        &self,
        unit: UnitId,
        origin: Point,
        target: UnitId,
        share: u8,
    ) -> Result<u8, Why> {
        let extra = self.extra_range(origin, BASE_RADIUS, target);
        if extra > 0 && self.minovsky(origin, self.unit(target).at) {
            return Err(Why::new(
                "SDE-ZONES.2",
                "Minovsky particles: shooting in this zone is limited to 1 stick",
            ));
        }
        if !self.sees(unit, origin, target) {
            return Err(Why::new(
                "SDE-SIGHT",
                "it cannot see the target: cover is in the way",
            ));
        }
        Ok(share)
    }
}
