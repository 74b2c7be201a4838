//! The one judge: [`AbaoAqu::plan`] says what an action will do or why not (with the rule),
//! and is used by `check`, by the listing and by `act`, so they cannot disagree. The listing
//! (`legal`) is complete: every action the judge accepts is listed.

use crate::events::{Action, Event, HexNo};
use crate::state::{AbaoAqu, Attack, Declaring, Phase, Place, UnitId};
use battlemat_core::Seat;
pub use battlemat_core::Why;
use battlemat_geom::hexmap::HexId;

/// What an accepted action does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Plan {
    Place(UnitId, HexId),
    Move(UnitId, HexId),
    Hold(UnitId),
    DoneMoving(Seat),
    Remove(UnitId),
    From(HexId),
    With(Vec<UnitId>),
    Target(HexId),
    Aim(Attack),
    Fire(Attack),
    Cancel,
    DoneFiring(Seat),
    Launch(UnitId),
    At(UnitId, HexId),
    Detonate(UnitId),
}

const NOT_NOW: Why = Why::new(
    "ABQ-3-3",
    "that is not something to do at this point of the turn",
);

/// An attack whose every ratio is worse than 1:3 is neither listed nor accepted: it could
/// only spend the attackers' shot (and a large missile or a satellite missile) for nothing.
const NO_EFFECT: Why = Why::new(
    "ABQ-7-5",
    "that attack cannot have any effect: its ratio is worse than 1:3 (rulings: a ratio worse than 1:3 has no effect)",
);

impl AbaoAqu {
    fn hex_of(&self, h: HexNo) -> Result<HexId, Why> {
        self.fixed
            .layout
            .map
            .at(h.col, h.row)
            .ok_or(Why::new("ABQ-1", "that hex is off the map"))
    }

    fn known(&self, u: UnitId) -> Result<UnitId, Why> {
        if (u as usize) < self.now.units.len() {
            Ok(u)
        } else {
            Err(Why::new("ABQ-2-A", "there is no such unit"))
        }
    }

    pub fn plan(&self, a: &Action) -> Result<Plan, Why> {
        match (&self.now.phase, a) {
            (Phase::Deploy { unit }, Action::Place { hex }) => {
                let h = self.hex_of(*hex)?;
                if !self.may_deploy(*unit, h) {
                    return Err(Why::new(
                        "ABQ-5-2",
                        "it cannot be set up there: outside its force's set-up area (cannons on the fortress) or the stack is full",
                    ));
                }
                Ok(Plan::Place(*unit, h))
            }
            (Phase::Move { unit, .. }, Action::Move { to }) => {
                let h = self.hex_of(*to)?;
                if !self.reaches(*unit, h) {
                    return Err(Why::new(
                        "ABQ-4-2",
                        "too far: one movement point a hex (or, entering, from its edge)",
                    ));
                }
                Ok(Plan::Move(*unit, h))
            }
            (Phase::Move { unit, .. }, Action::Hold) => Ok(Plan::Hold(*unit)),
            (Phase::Move { seat, .. }, Action::Done) => Ok(Plan::DoneMoving(*seat)),
            (Phase::Remove { side, hex }, Action::Remove { unit }) => {
                let u = self.known(*unit)?;
                if !self.removable(*side, *hex).contains(&u) {
                    return Err(Why::new(
                        "ABQ-5-6",
                        "remove one of your own units of the over-stacked kind from that hex",
                    ));
                }
                Ok(Plan::Remove(u))
            }
            (Phase::Combat { seat, declaring }, a) => self.plan_combat(*seat, declaring, a),
            _ => Err(NOT_NOW),
        }
    }

    fn plan_combat(&self, seat: Seat, d: &Declaring, a: &Action) -> Result<Plan, Why> {
        match (d, a) {
            (Declaring::Idle, Action::Done) => Ok(Plan::DoneFiring(seat)),
            (Declaring::Idle, Action::From { hex }) => {
                let h = self.hex_of(*hex)?;
                if self.now.cancels >= crate::combat::MAX_CANCELS {
                    return Err(Why::new(
                        "ABQ-6-2",
                        "you have cancelled eight attacks this phase: launch, detonate or be done",
                    ));
                }
                if !self.can_attack_from(seat, h) {
                    return Err(Why::new(
                        "ABQ-6-2",
                        "none of your units there can attack anything now (each shoots and closes once a phase; confused and panicked units cannot; range)",
                    ));
                }
                Ok(Plan::From(h))
            }
            (Declaring::Idle, Action::Launch { unit }) => {
                let u = self.known(*unit)?;
                if self.unit(u).seat != seat || !self.can_launch(u) {
                    return Err(Why::new(
                        "ABQ-18-3",
                        "only your own steady BD Public that has not fired may launch its missiles",
                    ));
                }
                Ok(Plan::Launch(u))
            }
            (Declaring::Idle, Action::Detonate { unit }) => {
                let u = self.known(*unit)?;
                if self.unit(u).seat != seat || !self.can_detonate(u) {
                    return Err(Why::new(
                        "ABQ-16-3",
                        "a satellite missile strikes only a hex that holds an enemy unit",
                    ));
                }
                if self.blast(u).iter().all(|a| a.column.is_none()) {
                    return Err(NO_EFFECT);
                }
                Ok(Plan::Detonate(u))
            }
            (Declaring::Launching { unit }, Action::At { hex }) => {
                let h = self.hex_of(*hex)?;
                let from = self.unit(*unit).hex().ok_or(NOT_NOW)?;
                if self.fixed.layout.map.distance(from, h) > crate::missiles::SCREEN_RANGE {
                    return Err(Why::new("ABQ-18-3", "the BD missiles reach ten hexagons"));
                }
                Ok(Plan::At(*unit, h))
            }
            (Declaring::Picking { from, with }, Action::With { unit }) => {
                let u = self.known(*unit)?;
                let x = self.unit(u);
                if x.seat != seat
                    || x.hex() != Some(*from)
                    || with.contains(&u)
                    || !self.can_attack(u)
                {
                    return Err(Why::new(
                        "ABQ-8-2",
                        "add one of your own units in the attacking hex that can still attack",
                    ));
                }
                let mut w = with.clone();
                w.push(u);
                Ok(Plan::With(w))
            }
            (Declaring::Picking { from, with }, Action::Target { hex }) => {
                let h = self.hex_of(*hex)?;
                let mut aims = Vec::new();
                self.aims(with, *from, h, &mut aims);
                if !with.is_empty() && aims.is_empty() && self.only_to_no_effect(with, *from, h) {
                    return Err(NO_EFFECT);
                }
                if with.is_empty() || aims.is_empty() {
                    return Err(Why::new(
                        "ABQ-7-2",
                        "the chosen units cannot attack anything there (out of range, no enemy, or beams screened)",
                    ));
                }
                Ok(Plan::Target(h))
            }
            (Declaring::Aiming { from, with, target }, a) => {
                let here: Vec<UnitId> = self.in_hex(*target).collect();
                let attack = match a {
                    Action::Shoot { unit } => {
                        let t = self.known(*unit)?;
                        if self.unit(t).hex() != Some(*target)
                            || self.unit(t).side == self.fixed.seating.side_of(seat)
                        {
                            return Err(Why::new(
                                "ABQ-8-1",
                                "shoot at an enemy unit in the target hex",
                            ));
                        }
                        self.shoot_attack(with, *from, *target, &[t])
                    }
                    Action::ShootGroup { group } => {
                        self.group_attack(with, *from, *target, *group, &here)
                    }
                    Action::Close { unit } => {
                        let t = self.known(*unit)?;
                        if *from != *target
                            || self.unit(t).hex() != Some(*target)
                            || self.unit(t).side == self.fixed.seating.side_of(seat)
                        {
                            return Err(Why::new(
                                "ABQ-9-1",
                                "close combat only with an enemy in the attackers' own hex",
                            ));
                        }
                        if self.shielded_ship(t, &here) {
                            return Err(Why::new(
                                "ABQ-9-4",
                                "an enemy ship stacked with enemy mobile suits cannot be attacked in close combat",
                            ));
                        }
                        self.close_attack(with, t, &here)
                    }
                    Action::Cancel => return Ok(Plan::Cancel),
                    _ => return Err(NOT_NOW),
                };
                match attack {
                    None => Err(Why::new(
                        "ABQ-7-1",
                        "the chosen units have no attack value against that (range, weapon, or close combat only by mobile suits)",
                    )),
                    Some(att) if att.column.is_none() => Err(NO_EFFECT),
                    Some(att) => Ok(Plan::Aim(att)),
                }
            }
            (Declaring::Ready { attack }, Action::Fire) => Ok(Plan::Fire(attack.clone())),
            (
                Declaring::Picking { .. } | Declaring::Ready { .. } | Declaring::Launching { .. },
                Action::Cancel,
            ) => Ok(Plan::Cancel),
            _ => Err(NOT_NOW),
        }
    }

    pub fn carry_out(&mut self, p: Plan, ev: &mut Vec<Event>) {
        let seat = self.deciding_seat().unwrap_or(0);
        let set = |g: &mut AbaoAqu, d: Declaring| {
            g.now.phase = Phase::Combat { seat, declaring: d };
        };
        match p {
            Plan::Place(u, h) => {
                self.unit_mut(u).at = Place::Hex(h);
                ev.push(Event::Placed {
                    unit: u,
                    hex: self.hex_no(h),
                });
                self.next_deployment(u + 1, ev);
            }
            Plan::Move(u, h) => {
                self.do_move(u, h, ev);
                self.next_mover(seat, u + 1);
            }
            Plan::Hold(u) => {
                self.unit_mut(u).moved = true;
                self.next_mover(seat, u + 1);
            }
            Plan::DoneMoving(s) => self.next_mover(s, u16::MAX),
            Plan::Remove(u) => self.remove_unit(u, ev),
            Plan::From(h) => set(
                self,
                Declaring::Picking {
                    from: h,
                    with: Vec::new(),
                },
            ),
            Plan::With(w) => {
                let Phase::Combat {
                    declaring: Declaring::Picking { from, .. },
                    ..
                } = self.now.phase
                else {
                    return;
                };
                set(self, Declaring::Picking { from, with: w })
            }
            Plan::Target(target) => {
                let Phase::Combat {
                    declaring: Declaring::Picking { from, with },
                    ..
                } = std::mem::replace(&mut self.now.phase, Phase::Over)
                else {
                    return;
                };
                set(self, Declaring::Aiming { from, with, target })
            }
            Plan::Aim(attack) => set(self, Declaring::Ready { attack }),
            Plan::Fire(attack) => self.fire(seat, attack, ev),
            Plan::Cancel => {
                self.now.cancels = self.now.cancels.saturating_add(1);
                set(self, Declaring::Idle)
            }
            Plan::DoneFiring(s) => self.end_seat_combat(s, ev),
            Plan::Launch(u) => set(self, Declaring::Launching { unit: u }),
            Plan::At(u, h) => self.launch(seat, u, h, ev),
            Plan::Detonate(u) => self.detonate(seat, u, ev),
        }
    }

    /// Every action the judge accepts now, in a fixed order.
    pub fn legal(&self) -> Vec<Action> {
        let mut out = Vec::new();
        let mut hexes = Vec::new();
        match &self.now.phase {
            Phase::Deploy { unit } => {
                self.deploy_hexes(*unit, &mut hexes);
                out.extend(hexes.iter().map(|&h| Action::Place {
                    hex: self.hex_no(h),
                }));
            }
            Phase::Move { unit, .. } => {
                self.destinations(*unit, &mut hexes);
                out.extend(hexes.iter().map(|&h| Action::Move { to: self.hex_no(h) }));
                out.push(Action::Hold);
                out.push(Action::Done);
            }
            Phase::Remove { side, hex } => {
                out.extend(
                    self.removable(*side, *hex)
                        .into_iter()
                        .map(|unit| Action::Remove { unit }),
                );
            }
            Phase::Combat { seat, declaring } => match declaring {
                Declaring::Idle => {
                    // `can_attack_from` for every hex of the seat's: first the hexes that
                    // hold an enemy found once, and each hex's reach (its units' best value:
                    // nothing farther can be hit), so that only a hex with an enemy in reach
                    // is judged in full.
                    let side = self.fixed.seating.side_of(*seat);
                    let map = &self.fixed.layout.map;
                    let enemies = crate::combat::EnemyHexes::of(self, side);
                    let mut from: Vec<(HexId, u32)> = self
                        .now
                        .units
                        .iter()
                        .enumerate()
                        .filter_map(|(u, x)| match x.at {
                            Place::Hex(h)
                                if x.seat == *seat
                                    && (self.can_shoot(u as UnitId)
                                        || (enemies.holds(h) && self.can_close(u as UnitId))) =>
                            {
                                let u = u as UnitId;
                                Some((h, self.anti_ms(u).max(self.anti_ship(u)) as u32))
                            }
                            _ => None,
                        })
                        .collect();
                    from.sort_unstable_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
                    from.dedup_by_key(|a| a.0);
                    if self.now.cancels >= crate::combat::MAX_CANCELS {
                        from.clear();
                    }
                    // `can_attack_from`, with the enemies' hexes found once.
                    from.retain(|&(h, reach)| enemies.holds(h) || enemies.within(map, h, reach));
                    let from: Vec<HexId> = from.into_iter().map(|(h, _)| h).collect();
                    out.extend(from.into_iter().map(|h| Action::From {
                        hex: self.hex_no(h),
                    }));
                    for u in self.ids() {
                        if self.unit(u).seat == *seat {
                            if self.can_launch(u) {
                                out.push(Action::Launch { unit: u });
                            }
                            if self.can_detonate(u)
                                && self.blast(u).iter().any(|a| a.column.is_some())
                            {
                                out.push(Action::Detonate { unit: u });
                            }
                        }
                    }
                    out.push(Action::Done);
                }
                Declaring::Picking { from, with } => {
                    for u in self.in_hex(*from) {
                        if self.unit(u).seat == *seat && !with.contains(&u) && self.can_attack(u) {
                            out.push(Action::With { unit: u });
                        }
                    }
                    if !with.is_empty() {
                        self.target_hexes(with, *from, &mut hexes);
                        out.extend(hexes.iter().map(|&h| Action::Target {
                            hex: self.hex_no(h),
                        }));
                    }
                    out.push(Action::Cancel);
                }
                Declaring::Aiming { from, with, target } => {
                    self.aims(with, *from, *target, &mut out);
                    out.push(Action::Cancel);
                }
                Declaring::Ready { .. } => {
                    out.push(Action::Fire);
                    out.push(Action::Cancel);
                }
                Declaring::Launching { unit } => {
                    self.launch_hexes(*unit, &mut hexes);
                    out.extend(hexes.iter().map(|&h| Action::At {
                        hex: self.hex_no(h),
                    }));
                    out.push(Action::Cancel);
                }
            },
            _ => {}
        }
        out
    }
}
