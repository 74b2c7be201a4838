//! Rounds and turns (SWTB-1), the end of the game, and whose decision it is.
//!
//! Rule ids owned here: SWTB-1 (initiative every round: 1d6 per Force User, highest roll
//! wins, the winner may let the opponent act first; option `initiative`), the turn order
//! of SWTB-2 (a side's turn, then the other's), the scenario's last round and goals, and
//! resigning. With several seats on a side, the side's seats take its turn one after
//! another, each with the units it commands.

use crate::data::{Goal, Initiative};
use crate::events::Event;
use crate::state::{Phase, Place, Swtb, other};
use battlemat_core::{GameResult, Seat};
use battlemat_geom::Cell;

impl Swtb {
    /// SWTB-1: every round each side rolls 1d6 per Force User. Our default for a side with
    /// none: it rolls no dice (and so loses unless neither side has one, when each rolls one).
    pub(crate) fn start_round(&mut self, ev: &mut Vec<Event>) {
        self.now.round += 1;
        ev.push(Event::RoundStarted {
            round: self.now.round,
        });
        self.now.phase = self.initiative(ev);
    }

    fn initiative(&self, ev: &mut Vec<Event>) -> Phase {
        let fu = |s: u8| {
            self.ids()
                .filter(|&u| {
                    self.now.units[u as usize].side == s && self.alive(u) && self.ty(u).force_user
                })
                .count()
                .min(20) as u8
        };
        match [fu(0), fu(1)] {
            [0, 0] => Phase::Initiative {
                left: [1, 1],
                best: [0, 0],
            },
            [0, _] => self.initiative_won(1, ev),
            [_, 0] => self.initiative_won(0, ev),
            left => Phase::Initiative { left, best: [0, 0] },
        }
    }

    fn initiative_won(&self, side: u8, ev: &mut Vec<Event>) -> Phase {
        ev.push(Event::InitiativeWon {
            side: self.side_name_of(side),
        });
        Phase::ChooseFirst { winner: side }
    }

    /// The side whose initiative die is next.
    pub(crate) fn initiative_side(left: [u8; 2]) -> usize {
        if left[0] > 0 { 0 } else { 1 }
    }

    pub(crate) fn roll_initiative(
        &mut self,
        mut left: [u8; 2],
        mut best: [u8; 2],
        f: u8,
        ev: &mut Vec<Event>,
    ) {
        let s = Self::initiative_side(left);
        left[s] -= 1;
        best[s] = match self.options().initiative {
            Initiative::Best => best[s].max(f),
            Initiative::Sum => best[s].saturating_add(f),
        };
        ev.push(Event::InitiativeDie {
            side: self.side_name_of(s as u8),
            face: f,
        });
        if left != [0, 0] {
            self.now.phase = Phase::Initiative { left, best };
        } else if best[0] == best[1] {
            // Our default: a tie is rolled again.
            ev.push(Event::InitiativeTied);
            self.now.phase = self.initiative(ev);
        } else {
            let w = if best[0] > best[1] { 0 } else { 1 };
            self.now.phase = self.initiative_won(w, ev);
        }
    }

    /// SWTB-1: the winner names the side that acts first.
    pub(crate) fn choose_first(&mut self, side: u8, ev: &mut Vec<Event>) {
        ev.push(Event::ActsFirst {
            side: self.side_name_of(side),
        });
        self.now.first = side;
        self.now.second_half = false;
        self.start_turn(side, ev);
    }

    /// Does `seat` command a unit in play?
    fn commands_units(&self, seat: Seat) -> bool {
        self.ids()
            .any(|u| self.now.units[u as usize].owner == Some(seat) && self.alive(u))
    }

    /// The side's next seat after `after` (or its first) that commands a unit in play.
    fn next_seat_of(&self, side: u8, after: Option<Seat>) -> Option<Seat> {
        self.fixed
            .seating
            .seats_of(side)
            .filter(|&s| after.is_none_or(|a| s > a))
            .find(|&s| self.commands_units(s))
    }

    fn start_turn(&mut self, side: u8, ev: &mut Vec<Event>) {
        self.now.active = side;
        self.now.seat = self
            .next_seat_of(side, None)
            .unwrap_or_else(|| self.fixed.seating.captain(side));
        self.now.phase = Phase::Turn;
        ev.push(Event::TurnStarted {
            side: self.side_name_of(side),
        });
        for unit in &mut self.now.units {
            if unit.side == side {
                unit.acted = false;
                unit.may_attack = false;
            }
        }
    }

    /// `end`: the seat has finished; the side's next seat takes over, or the turn ends.
    pub(crate) fn end_turn(&mut self, ev: &mut Vec<Event>) {
        if let Some(next) = self.next_seat_of(self.now.active, Some(self.now.seat)) {
            self.now.seat = next;
            return;
        }
        self.fliers_return(self.now.active, ev);
        if !self.now.second_half {
            self.now.second_half = true;
            self.start_turn(other(self.now.first), ev);
            return;
        }
        if self.now.round >= self.fixed.setup.scenario.max_rounds {
            self.end_by_round_limit(ev);
            return;
        }
        self.now.second_half = false;
        self.start_round(ev);
    }

    fn end_by_round_limit(&mut self, ev: &mut Vec<Event>) {
        let on = |side: u8, cells: &[Cell]| {
            self.ids().any(|u| {
                self.now.units[u as usize].side == side
                    && matches!(self.now.units[u as usize].place, Place::Field(c) if cells.contains(&c))
                    && !self.ty(u).flies()
            })
        };
        let (winner, reason) = match &self.fixed.setup.scenario.goal {
            Some(Goal::Hold { side, cells }) => {
                if on(*side, cells) && !on(other(*side), cells) {
                    (
                        Some(*side),
                        format!("{} hold the objective", self.side_name(*side)),
                    )
                } else {
                    (
                        Some(other(*side)),
                        format!("{} kept the objective", self.side_name(other(*side))),
                    )
                }
            }
            Some(Goal::Reach { side, .. }) => (
                Some(other(*side)),
                format!("{} never got through", self.side_name(*side)),
            ),
            None => {
                let (a, b) = (self.points_left(0), self.points_left(1));
                match a.cmp(&b) {
                    std::cmp::Ordering::Equal => {
                        (None, "a draw: equal points after the last round".into())
                    }
                    ord => {
                        let w = if ord == std::cmp::Ordering::Greater {
                            0
                        } else {
                            1
                        };
                        (
                            Some(w),
                            format!(
                                "{} have more points left after the last round",
                                self.side_name(w)
                            ),
                        )
                    }
                }
            }
        };
        self.game_over(winner, reason, ev);
    }

    pub(crate) fn game_over(&mut self, winner: Option<u8>, reason: String, ev: &mut Vec<Event>) {
        ev.push(Event::GameOver {
            reason: reason.clone(),
        });
        self.now.phase = Phase::Over { winner, reason };
    }

    /// A seat resigns: its side concedes the game.
    pub(crate) fn resign_seat(&mut self, seat: Seat, ev: &mut Vec<Event>) {
        let side = self.fixed.seating.side_of(seat);
        ev.push(Event::Resigned {
            seat,
            side: self.side_name_of(side),
        });
        let reason = format!("{} resigned", self.side_name(side));
        self.game_over(Some(other(side)), reason, ev);
    }

    /// The result for every seat: each side's points left; the winner first.
    pub fn outcome(&self) -> Option<GameResult> {
        let Phase::Over { winner, reason } = &self.now.phase else {
            return None;
        };
        let ranks = match winner {
            Some(0) => [1, 2],
            Some(_) => [2, 1],
            None => [1, 1],
        };
        Some(self.fixed.seating.result(
            &[self.points_left(0), self.points_left(1)],
            &ranks,
            reason.clone(),
        ))
    }

    /// Who decides now: a seat, or nobody (a die, or the end).
    pub fn deciding_seat(&self) -> Option<Seat> {
        match &self.now.phase {
            Phase::ChoosePower { unit } => self.now.units[*unit as usize].owner.or(Some(
                self.fixed
                    .seating
                    .captain(self.now.units[*unit as usize].side),
            )),
            Phase::ChooseFirst { winner } => Some(self.fixed.seating.captain(*winner)),
            Phase::Turn => Some(self.now.seat),
            _ => None,
        }
    }
}
