//! The one judge: [`Serm::plan`] says what an action will do or why not (with the rule).
//! The listing is a candidate list (`Candidates`): a reactor may stop the mover at any point
//! of its path, and every inch of it is offered.

use crate::data::{INCH, Special};
use crate::events::{Action, Event};
use crate::options::{BlastAim, CommandoTurn};
use crate::state::{Heading, Moving, Phase, Serm, SoldierId, Spot, Turn};
pub use battlemat_core::Why;
use battlemat_geom::table::Point;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Plan {
    Shoot(SoldierId, SoldierId),
    /// Along a wind, or toward a point (`blast_aim = anywhere`).
    Blast(SoldierId, u8, Option<Point>),
    Move(SoldierId, Option<Heading>),
    Aim(SoldierId, u32, Heading, Option<Turn>),
    React(Moving, SoldierId),
    NoReact(Moving),
    Stop(Moving, SoldierId, i64),
}

const NOT_NOW: Why = Why::new("SERM-MOVE", "that is not something to do now");

impl Serm {
    fn own(&self, side: u8, only: &Option<Vec<SoldierId>>, s: SoldierId) -> Result<(), Why> {
        let ok = (s as usize) < self.now.soldiers.len()
            && self.soldier(s).alive
            && self.soldier(s).side == side
            && only.as_ref().is_none_or(|o| o.contains(&s));
        if ok {
            Ok(())
        } else {
            Err(Why::new(
                "SERM-REACT",
                "activate one of your own soldiers (after a React: the reactor, or a friend its Ranger sees)",
            ))
        }
    }

    fn heading_ok(&self, mover: SoldierId, h: Heading) -> Result<(), Why> {
        match h {
            Heading::Wind(w) if w < 16 => Ok(()),
            Heading::Soldier(t)
                if (t as usize) < self.now.soldiers.len()
                    && t != mover
                    && self.soldier(t).alive
                    && self.soldier(t).side != self.soldier(mover).side =>
            {
                Ok(())
            }
            _ => Err(Why::new(
                "SERM-MOVE",
                "a direction: one of the sixteen winds, or toward an enemy soldier",
            )),
        }
    }

    pub fn plan(&self, a: &Action) -> Result<Plan, Why> {
        match (&self.now.phase, *a) {
            (Phase::Activate { side, only }, Action::Shoot { soldier, target }) => {
                self.own(*side, only, soldier)?;
                if self.card(soldier).shoot == 0 || self.card(soldier).has(Special::Blast) {
                    return Err(Why::new(
                        "SERM-SHOOT",
                        "this soldier has no Shoot (the Demolitions Expert blasts)",
                    ));
                }
                if (target as usize) >= self.now.soldiers.len()
                    || !self.soldier(target).alive
                    || self.soldier(target).side == *side
                {
                    return Err(Why::new("SERM-SHOOT", "shoot at an enemy soldier"));
                }
                if !self.clear_line(soldier, target) {
                    return Err(Why::new(
                        "SERM-SHOOT",
                        "no line of sight: terrain is in the way",
                    ));
                }
                Ok(Plan::Shoot(soldier, target))
            }
            (Phase::Activate { side, only }, Action::Blast { soldier, wind }) => {
                self.own(*side, only, soldier)?;
                if !self.card(soldier).has(Special::Blast) || wind >= 16 {
                    return Err(Why::new(
                        "SERM-SHOOT",
                        "only the Demolitions Expert blasts, along one of the sixteen winds",
                    ));
                }
                Ok(Plan::Blast(soldier, wind, None))
            }
            (Phase::Activate { side, only }, Action::BlastAt { soldier, toward }) => {
                self.own(*side, only, soldier)?;
                if !self.card(soldier).has(Special::Blast) {
                    return Err(Why::new(
                        "SERM-SHOOT",
                        "only the Demolitions Expert blasts, along one of the sixteen winds",
                    ));
                }
                if self.fixed.setup.options.blast_aim != BlastAim::Anywhere {
                    return Err(Why::new(
                        "SERM-SHOOT",
                        "a blast is thrown along one of the sixteen winds (the blast_aim=anywhere option also allows a soldier or a point)",
                    ));
                }
                let from = self.soldier(soldier).at;
                let at = match toward {
                    Spot::Soldier(t)
                        if (t as usize) < self.now.soldiers.len()
                            && t != soldier
                            && self.soldier(t).alive =>
                    {
                        self.soldier(t).at
                    }
                    Spot::Point(p)
                        if p != from
                            && (0..=self.table().width).contains(&p.x)
                            && (0..=self.table().depth).contains(&p.y) =>
                    {
                        p
                    }
                    _ => {
                        return Err(Why::new(
                            "SERM-SHOOT",
                            "throw it toward another soldier on the table, or a point of the table other than its own",
                        ));
                    }
                };
                Ok(Plan::Blast(soldier, 0, Some(at)))
            }
            (Phase::Activate { side, only }, Action::Move { soldier, toward }) => {
                self.own(*side, only, soldier)?;
                let free = self.card(soldier).has(Special::FreeMove);
                match toward {
                    None if free => {}
                    None => {
                        return Err(Why::new(
                            "SERM-MOVE",
                            "declare the direction of travel (only the Assault Commando need not)",
                        ));
                    }
                    Some(h) => {
                        if free {
                            return Err(Why::new(
                                "SERM-MOVE",
                                "the Assault Commando rolls first and chooses its direction after: move uN",
                            ));
                        }
                        self.heading_ok(soldier, h)?;
                    }
                }
                Ok(Plan::Move(soldier, toward))
            }
            (Phase::Aim { mover, total }, Action::Aim { toward, turn }) => {
                self.heading_ok(*mover, toward)?;
                if let Some(t) = turn {
                    if self.fixed.setup.options.commando_turn != CommandoTurn::TurnOnce {
                        return Err(Why::new(
                            "SERM-MOVE",
                            "movement is only conducted in a straight line (the commando_turn=turn_once option lets the Assault Commando turn once)",
                        ));
                    }
                    if t.at <= 0 || t.at >= *total as i64 * INCH {
                        return Err(Why::new(
                            "SERM-MOVE",
                            "it turns on the way: after more than 0 and less than its roll in inches",
                        ));
                    }
                    self.heading_ok(*mover, t.toward)?;
                }
                Ok(Plan::Aim(*mover, *total, toward, turn))
            }
            (Phase::ReactChoice { moving }, Action::React { soldier }) => {
                if !self.reactors(moving).contains(&soldier) {
                    return Err(Why::new(
                        "SERM-REACT-H",
                        "that soldier may not react: React 1 or more, line of sight to the mover, and only the targeted soldier (or a Ranger) when the Move targets one",
                    ));
                }
                Ok(Plan::React(*moving, soldier))
            }
            (Phase::ReactChoice { moving }, Action::Pass) => Ok(Plan::NoReact(*moving)),
            (Phase::StopWhere { moving, reactor }, Action::Stop { at }) => {
                if at < 0 || at > self.path_length(moving) {
                    return Err(Why::new(
                        "SERM-REACT",
                        "a point along the mover's path: 0 up to its length",
                    ));
                }
                Ok(Plan::Stop(*moving, *reactor, at))
            }
            _ => Err(NOT_NOW),
        }
    }

    /// Do what a plan says.
    pub fn carry_out(&mut self, p: Plan, ev: &mut Vec<Event>) {
        match p {
            Plan::Shoot(s, t) => self.start_shot(s, t, ev),
            Plan::Blast(s, w, at) => {
                // It faces the way it throws.
                let from = self.soldier(s).at;
                self.soldier_mut(s).facing = match at {
                    Some(p) => (p.x - from.x, p.y - from.y),
                    None => crate::turn::WIND_VECTORS[w as usize],
                };
                self.now.phase = Phase::Blast {
                    soldier: s,
                    wind: w,
                    at,
                };
            }
            Plan::Move(s, h) => self.start_move(s, h, ev),
            Plan::Aim(s, total, h, turn) => self.path(s, h, total, turn, ev),
            Plan::React(m, r) => self.start_react(m, r, ev),
            Plan::NoReact(m) => self.complete_move(m, ev),
            Plan::Stop(m, r, d) => self.stop_at(m, r, d, ev),
        }
    }

    /// The candidates, in a fixed order.
    pub fn legal(&self) -> Vec<Action> {
        let mut out = Vec::new();
        match &self.now.phase {
            Phase::Activate { side, only } => {
                for s in self.ids() {
                    if self.own(*side, only, s).is_err() {
                        continue;
                    }
                    let card = self.card(s);
                    if card.has(Special::Blast) {
                        out.extend((0..16).map(|wind| Action::Blast { soldier: s, wind }));
                        if self.fixed.setup.options.blast_aim == BlastAim::Anywhere {
                            // Toward each soldier; any point of the table is accepted too.
                            for t in self.ids() {
                                if t != s && self.soldier(t).alive {
                                    out.push(Action::BlastAt {
                                        soldier: s,
                                        toward: Spot::Soldier(t),
                                    });
                                }
                            }
                        }
                    } else if card.shoot > 0 {
                        for t in self.ids() {
                            if self.soldier(t).alive
                                && self.soldier(t).side != *side
                                && self.clear_line(s, t)
                            {
                                out.push(Action::Shoot {
                                    soldier: s,
                                    target: t,
                                });
                            }
                        }
                    }
                    if card.has(Special::FreeMove) {
                        out.push(Action::Move {
                            soldier: s,
                            toward: None,
                        });
                    } else {
                        out.extend((0..16).map(|w| Action::Move {
                            soldier: s,
                            toward: Some(Heading::Wind(w)),
                        }));
                        for t in self.ids() {
                            if self.soldier(t).alive && self.soldier(t).side != *side {
                                out.push(Action::Move {
                                    soldier: s,
                                    toward: Some(Heading::Soldier(t)),
                                });
                            }
                        }
                    }
                }
            }
            Phase::Aim { mover, total } => {
                out.extend((0..16).map(|w| Action::Aim {
                    toward: Heading::Wind(w),
                    turn: None,
                }));
                let enemies: Vec<SoldierId> = self
                    .ids()
                    .filter(|&t| {
                        self.soldier(t).alive && self.soldier(t).side != self.soldier(*mover).side
                    })
                    .collect();
                for &t in &enemies {
                    out.push(Action::Aim {
                        toward: Heading::Soldier(t),
                        turn: None,
                    });
                }
                // `commando_turn = turn_once`: half the roll along each of the eight main
                // winds, then toward each enemy (any turn point and heading is accepted).
                let half = *total as i64 * INCH / 2;
                if self.fixed.setup.options.commando_turn == CommandoTurn::TurnOnce && half > 0 {
                    for w in (0..16).step_by(2) {
                        for &t in &enemies {
                            out.push(Action::Aim {
                                toward: Heading::Wind(w),
                                turn: Some(Turn {
                                    at: half,
                                    toward: Heading::Soldier(t),
                                }),
                            });
                        }
                    }
                }
            }
            Phase::ReactChoice { moving } => {
                out.extend(
                    self.reactors(moving)
                        .into_iter()
                        .map(|soldier| Action::React { soldier }),
                );
                out.push(Action::Pass);
            }
            Phase::StopWhere { moving, .. } => {
                let len = self.path_length(moving);
                let mut d = 0;
                while d < len {
                    out.push(Action::Stop { at: d });
                    d += INCH;
                }
                out.push(Action::Stop { at: len });
            }
            _ => {}
        }
        out
    }
}
