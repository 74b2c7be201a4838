//! Which side each seat plays.
//!
//! A game's rules speak of *sides* (the Rebels, the Zeon forces); a table has *seats*
//! (players, AIs, a server's connections). Usually one seat plays one side, but a team game
//! seats several players on a side (A-Bao-A-Qu's commanders, a co-operative mission's
//! whole table). The setup carries a [`Seating`] — `sides[seat] = side` — and a game asks it
//! who decides, instead of assuming `seat == side`. Results are per seat: seats of one side
//! share their side's score and place.
//!
//! Rejected: a player-count parameter that each game interprets. It is simpler, but every
//! game would invent its own mapping and front ends could not show who plays what.

use crate::{Game, GameResult, Seat, SetupError};
use serde::{Deserialize, Serialize};

/// How a two-sided game ended: the winning side (`None`: a draw), why in the game's words,
/// and whether a house rule's limit ended it (see [`GameResult::by_limit`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Outcome {
    pub winner: Option<u8>,
    pub reason: String,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub by_limit: bool,
}

/// `sides[seat]` is the side seat `seat` plays. Every side has at least one seat.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Seating(pub Vec<u8>);

impl Seating {
    /// One seat per side, seat `i` playing side `i`.
    pub fn one_per_side(sides: u8) -> Seating {
        Seating((0..sides).collect())
    }

    /// `seats` seats dealt over `sides` sides in turn (seat `i` plays side `i % sides`).
    pub fn dealt(seats: u8, sides: u8) -> Seating {
        Seating((0..seats).map(|s| s % sides.max(1)).collect())
    }

    /// From the [`SEATS_OPTION`](crate::SEATS_OPTION)'s value: a number of seats dealt over
    /// the sides (`"4"`: sides 0, 1, 0, 1), or each seat's side (`"0,0,1"`).
    pub fn from_option(value: &str, sides: u8, max_seats: u8) -> Result<Seating, SetupError> {
        let at = "option seats";
        let s = if value.contains(',') {
            let list: Result<Vec<u8>, _> = value.split(',').map(|v| v.trim().parse()).collect();
            Seating(list.map_err(|_| {
                SetupError::new(
                    at,
                    format!("{value:?}: a number of seats, or each seat's side (0,1,0)"),
                )
            })?)
        } else {
            let n: u8 = value.trim().parse().map_err(|_| {
                SetupError::new(
                    at,
                    format!("{value:?}: a number of seats, or each seat's side (0,1,0)"),
                )
            })?;
            Seating::dealt(n, sides)
        };
        s.check(sides, max_seats, at)?;
        Ok(s)
    }

    /// From a setup's options: the [`SEATS_OPTION`](crate::SEATS_OPTION) if given (checked
    /// against `sides` and `max_seats`), else one seat per side.
    pub fn from_options(
        options: &std::collections::BTreeMap<String, String>,
        sides: u8,
        max_seats: u8,
    ) -> Result<Seating, SetupError> {
        match options.get(crate::SEATS_OPTION) {
            Some(v) => Seating::from_option(v, sides, max_seats),
            None => Ok(Seating::one_per_side(sides)),
        }
    }

    /// Every seat plays a side that exists, every side has a seat, and there are at most
    /// `max_seats` seats.
    pub fn check(&self, sides: u8, max_seats: u8, at: &str) -> Result<(), SetupError> {
        let n = self.0.len();
        if n < sides as usize || n > max_seats as usize {
            return Err(SetupError::new(
                at,
                format!("{n} seats for {sides} sides: {sides} to {max_seats} seats"),
            ));
        }
        if let Some((seat, side)) = self.0.iter().enumerate().find(|(_, s)| **s >= sides) {
            return Err(SetupError::new(
                at,
                format!(
                    "seat {seat} plays side {side}, but the sides are 0 to {}",
                    sides - 1
                ),
            ));
        }
        if let Some(side) = (0..sides).find(|s| !self.0.contains(s)) {
            return Err(SetupError::new(at, format!("side {side} has no seat")));
        }
        Ok(())
    }

    pub fn seats(&self) -> u8 {
        self.0.len() as u8
    }

    pub fn side_of(&self, seat: Seat) -> u8 {
        self.0.get(seat as usize).copied().unwrap_or(0)
    }

    /// The seats that play `side`, in seat order.
    pub fn seats_of(&self, side: u8) -> impl Iterator<Item = Seat> + '_ {
        (0..self.seats()).filter(move |&s| self.side_of(s) == side)
    }

    /// The side's first seat: it makes the side's choices that belong to no one unit.
    pub fn captain(&self, side: u8) -> Seat {
        self.seats_of(side).next().unwrap_or(0)
    }

    /// The result for every seat from one score per side: seats share their side's score;
    /// ranks by score (equal scores share a place).
    pub fn result(&self, side_scores: &[i64], side_ranks: &[u8], reason: String) -> GameResult {
        let per = |v: &[i64]| -> Vec<i64> {
            self.0
                .iter()
                .map(|&s| v.get(s as usize).copied().unwrap_or(0))
                .collect()
        };
        GameResult {
            scores: per(side_scores),
            ranks: self
                .0
                .iter()
                .map(|&s| side_ranks.get(s as usize).copied().unwrap_or(1))
                .collect(),
            reason,
            cooperative: None,
            by_limit: false,
        }
    }

    /// The result of a two-sided game's [`Outcome`] (marked when a limit ended it).
    pub fn outcome_result(&self, o: &Outcome) -> GameResult {
        let r = self.two_sided_result(o.winner, o.reason.clone());
        if o.by_limit { r.at_limit() } else { r }
    }

    /// The result of a two-sided game: the winning side scores 1 and is first, the other 0
    /// and second; no winner is a draw (both first).
    pub fn two_sided_result(&self, winner: Option<u8>, reason: String) -> GameResult {
        match winner {
            Some(w) => {
                let mut scores = [0i64; 2];
                let mut ranks = [2u8; 2];
                scores[w.min(1) as usize] = 1;
                ranks[w.min(1) as usize] = 1;
                self.result(&scores, &ranks, reason)
            }
            None => self.result(&[0, 0], &[1, 1], reason),
        }
    }
}

/// A game of two sides that ends with one side winning (or a draw), kept as an [`Outcome`]:
/// the finish, the finish at a house rule's limit, a seat's resignation and the result,
/// written once for A-Bao-A-Qu, the mobile-suit d20 combat and SERM.
///
/// A game supplies where it keeps the outcome, its seating, a side's name, the verb its
/// side's resignation is told with, its game-over event, and what else ending play clears
/// (its phase; A-Bao-A-Qu's pending attacks).
///
/// Rejected: a `finish` in each game. Four copies of the same ten lines drifted (one game's
/// resignation named no seat, one cleared what another kept).
pub trait TwoSided: Game {
    /// What a side does when a seat of it resigns, in the game's words ("surrenders").
    const RESIGNS: &'static str;

    fn seating(&self) -> &Seating;

    /// A side's name in the game's words ("Federation").
    fn name_of_side(&self, side: u8) -> String;

    /// How the game ended, as the state keeps it (`None` while it goes on).
    fn kept_outcome(&self) -> &Option<Outcome>;

    /// Where the state keeps it.
    fn kept_outcome_mut(&mut self) -> &mut Option<Outcome>;

    /// The event that says the game is over and why.
    fn game_over_event(reason: String) -> Self::Event;

    /// Put the state's play to an end (its phase to over, anything pending cleared).
    fn end_play(&mut self);

    /// End the game: `winner` (`None`: a draw) for `reason`, told by the game-over event.
    fn finish(&mut self, winner: Option<u8>, reason: String, events: &mut Vec<Self::Event>) {
        events.push(Self::game_over_event(reason.clone()));
        *self.kept_outcome_mut() = Some(Outcome {
            winner,
            reason,
            by_limit: false,
        });
        self.end_play();
    }

    /// [`TwoSided::finish`] by a house rule's limit (turns, rounds): the result says so
    /// ([`GameResult::by_limit`]).
    fn finish_at_limit(
        &mut self,
        winner: Option<u8>,
        reason: String,
        events: &mut Vec<Self::Event>,
    ) {
        self.finish(winner, reason, events);
        if let Some(o) = self.kept_outcome_mut() {
            o.by_limit = true;
        }
    }

    /// `seat` resigns: its side loses ("Zeon surrenders (seat 1 resigned)").
    fn resign_side(&mut self, seat: Seat, events: &mut Vec<Self::Event>) {
        let side = self.seating().side_of(seat);
        let reason = format!(
            "{} {} (seat {seat} resigned)",
            self.name_of_side(side),
            Self::RESIGNS
        );
        self.finish(Some(1 - side.min(1)), reason, events);
    }

    /// The result for every seat, once the game is over.
    fn two_sided_result(&self) -> Option<GameResult> {
        let o = self.kept_outcome().as_ref()?;
        Some(self.seating().outcome_result(o))
    }
}

/// [`TwoSided`] for a state that keeps its seating at `seating`, its outcome at `outcome`
/// (field paths from `self`), and ends with the event `game_over { reason }`:
///
/// ```ignore
/// battlemat_core::two_sided!(AbaoAqu, resigns: "surrenders", seating: fixed.seating,
///     outcome: now.outcome, game_over: Event::GameOver,
///     side_name: |g, side| g.side_name(side).to_string(),
///     end_play: |g| { g.now.phase = Phase::Over; });
/// ```
#[macro_export]
macro_rules! two_sided {
    ($game:ty, resigns: $verb:literal, seating: $($seating:ident).+, outcome: $($outcome:ident).+,
     game_over: $($event:ident)::+, side_name: |$g:ident, $side:ident| $name:expr,
     end_play: |$e:ident| $end:block) => {
        impl $crate::TwoSided for $game {
            const RESIGNS: &'static str = $verb;
            fn seating(&self) -> &$crate::Seating {
                &self.$($seating).+
            }
            fn name_of_side(&self, side: u8) -> String {
                let ($g, $side) = (self, side);
                $name
            }
            fn kept_outcome(&self) -> &Option<$crate::Outcome> {
                &self.$($outcome).+
            }
            fn kept_outcome_mut(&mut self) -> &mut Option<$crate::Outcome> {
                &mut self.$($outcome).+
            }
            fn game_over_event(reason: String) -> Self::Event {
                $($event)::+ { reason }
            }
            fn end_play(&mut self) {
                let $e = self;
                $end
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_are_dealt_or_listed_and_checked() {
        assert_eq!(Seating::from_option("4", 2, 6).unwrap().0, vec![0, 1, 0, 1]);
        assert_eq!(
            Seating::from_option("0,0,1", 2, 6).unwrap().0,
            vec![0, 0, 1]
        );
        assert!(
            Seating::from_option("1", 2, 6)
                .unwrap_err()
                .message
                .contains("1 seats")
        );
        assert!(Seating::from_option("7", 2, 6).is_err());
        assert!(
            Seating::from_option("0,0", 2, 6)
                .unwrap_err()
                .message
                .contains("side 1 has no seat")
        );
        assert!(Seating::from_option("0,2", 2, 6).is_err());
        assert!(Seating::from_option("x", 2, 6).is_err());
        let s = Seating(vec![0, 1, 0]);
        assert_eq!(s.seats_of(0).collect::<Vec<_>>(), vec![0, 2]);
        assert_eq!(s.captain(1), 1);
        let r = s.result(&[5, 3], &[1, 2], "x".into());
        assert_eq!(r.ranks, vec![1, 2, 1]);
        assert_eq!(r.scores, vec![5, 3, 5]);
    }
}
