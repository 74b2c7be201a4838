//! ABQ-3-1 … ABQ-3-3: the turn ("inning") of ten phases — recovery, lead-off movement,
//! lead-off combat, follow-up combat, follow-up damage check, then the same five with the
//! sides swapped — the scenarios' entrances and reinforcements, victory (ABQ-S*), the turn
//! limit (our `turns` option), resigning, and who decides.

use crate::events::{Event, HexNo};
use crate::options::HoldCount;
use crate::state::{AbaoAqu, Declaring, FEDERATION, Phase, Place, Stage, ZEON};
use battlemat_core::Seat;
use battlemat_core::TwoSided;

impl AbaoAqu {
    pub fn hex_no(&self, h: battlemat_geom::hexmap::HexId) -> HexNo {
        let (col, row) = self.fixed.layout.map.col_row(h);
        HexNo { col, row }
    }

    /// A new turn: screens that have run their four turns are lifted (ABQ-18-6), then the
    /// first half.
    pub fn begin_turn(&mut self, turn: u16, ev: &mut Vec<Event>) {
        self.now.turn = turn;
        self.now.half = 0;
        ev.push(Event::TurnBegins { turn });
        self.mark_short();
        let mut lifted = Vec::new();
        self.now.screens.retain(|s| {
            let keep = turn < s.placed + 5;
            if !keep {
                lifted.push(s.hex);
            }
            keep
        });
        for h in lifted {
            ev.push(Event::ScreenLifted {
                hex: self.hex_no(h),
            });
        }
        self.begin_half(ev);
    }

    /// ABQ-3-3 (1): a half-turn opens with the recovery phase, both sides' confused and
    /// panicked units each rolling (ABQ-10).
    pub fn begin_half(&mut self, ev: &mut Vec<Event>) {
        let side = self.lead();
        ev.push(Event::HalfBegins {
            side: self.side_name(side).to_string(),
        });
        self.now.stage = crate::state::Stage::Recovery;
        self.next_recovery(0);
    }

    /// ABQ-3-3 (2): the lead-off side moves, seat by seat.
    pub fn begin_movement(&mut self) {
        self.now.stage = Stage::Movement;
        for x in &mut self.now.units {
            x.moved = false;
        }
        let side = self.lead();
        let first = self.fixed.seating.seats_of(side).next().unwrap_or(0);
        self.next_mover(first, 0);
    }

    /// ABQ-3-3 (3) and (4): a side's combat phase, seat by seat (ABQ-6-2: each side attacks
    /// in both).
    pub fn begin_combat(&mut self, stage: Stage) {
        self.now.stage = stage;
        let side = if stage == Stage::LeadCombat {
            self.lead()
        } else {
            1 - self.lead()
        };
        for x in &mut self.now.units {
            if x.side == side {
                x.fired = false;
                x.closed = false;
            }
        }
        self.now.cancels = 0;
        let seat = self.fixed.seating.seats_of(side).next().unwrap_or(0);
        self.now.phase = Phase::Combat {
            seat,
            declaring: Declaring::Idle,
        };
    }

    /// The side whose combat phase it is.
    pub fn firing_side(&self) -> u8 {
        if self.now.stage == Stage::FollowCombat {
            1 - self.lead()
        } else {
            self.lead()
        }
    }

    /// `seat` is done attacking: the next seat of its side, or the end of the side's phase
    /// (ABQ-16-2: a satellite missile that moved is spent).
    pub fn end_seat_combat(&mut self, seat: Seat, ev: &mut Vec<Event>) {
        let side = self.firing_side();
        let seats = self.fixed_seat_order(side);
        if let Some(&next) = seats
            .iter()
            .position(|&s| s == seat)
            .and_then(|i| seats.get(i + 1))
        {
            self.now.cancels = 0;
            self.now.phase = Phase::Combat {
                seat: next,
                declaring: Declaring::Idle,
            };
            return;
        }
        self.spend_satellites(side, ev);
        if self.now.outcome.is_some() {
            return;
        }
        if self.now.stage == Stage::LeadCombat {
            self.begin_combat(Stage::FollowCombat);
        } else {
            self.now.stage = Stage::DamageCheck;
            self.settle_damage(ev);
        }
    }

    /// ABQ-3-3 (5): the lead-off attacks still to roll, in declaration order; those that
    /// need no die (no effect, or every target gone) are dropped; then the half ends.
    pub fn settle_damage(&mut self, ev: &mut Vec<Event>) {
        while let Some(a) = self.now.pending.first() {
            if a.column.is_some() && a.targets.iter().any(|&t| self.unit(t).alive()) {
                self.now.phase = Phase::DamageCheck;
                return;
            }
            self.now.pending.remove(0);
        }
        self.end_half(ev);
    }

    /// The end of five phases: the second half with the sides swapped, or the turn's end.
    pub fn end_half(&mut self, ev: &mut Vec<Event>) {
        // `lead_off_screen=after_battle`: the battle is over, its screens work from now.
        for s in &mut self.now.screens {
            s.after_battle = false;
        }
        if self.now.half == 0 {
            self.mark_short();
            self.now.half = 1;
            self.begin_half(ev);
        } else {
            self.end_turn(ev);
        }
    }

    /// `hold_count=whole_turns` ("at all times for 3 turns"): a side short of its number as
    /// a turn begins or at the end of its first half does not count that turn.
    fn mark_short(&mut self) {
        if self.fixed.setup.options.hold_count != HoldCount::WholeTurns {
            return;
        }
        for side in [FEDERATION, ZEON] {
            if let Some(need) = self.fixed.hold[side as usize]
                && self.on_fortress(side) < need
            {
                self.now.short[side as usize] = true;
            }
        }
    }

    /// How many of `side`'s counters stand on the fortress.
    pub fn on_fortress(&self, side: u8) -> u16 {
        self.now
            .units
            .iter()
            .filter(|x| {
                x.side == side && matches!(x.at, Place::Hex(h) if self.fixed.layout.on_fortress(h))
            })
            .count() as u16
    }

    /// The end of the turn: the fortress held (ABQ-S*: "at all times for 3 turns", counted
    /// at each turn's end), the turn limit, ABQ-S7's reinforcement die after the first turn.
    pub fn end_turn(&mut self, ev: &mut Vec<Event>) {
        for side in [FEDERATION, ZEON] {
            let Some(need) = self.fixed.hold[side as usize] else {
                continue;
            };
            let on = self.on_fortress(side);
            let short = std::mem::take(&mut self.now.short[side as usize]);
            if on >= need && !short {
                self.now.held[side as usize] += 1;
                ev.push(Event::FortressHeld {
                    side: self.side_name(side).to_string(),
                    units: on,
                    turns: self.now.held[side as usize],
                });
                if self.now.held[side as usize] >= 3 {
                    self.finish(
                        Some(side),
                        format!(
                            "{} held the fortress with {need} or more units for 3 turns",
                            self.side_name(side)
                        ),
                        ev,
                    );
                    return;
                }
            } else {
                self.now.held[side as usize] = 0;
            }
        }
        if self.fixed.turn_limit.is_some_and(|l| self.now.turn >= l) {
            self.end_by_turn_limit(ev);
            return;
        }
        if self.now.turn == 1
            && self.now.reinforcements.is_none()
            && self
                .fixed
                .forces
                .iter()
                .any(|f| f.enter.is_some() && f.turn.is_none())
        {
            self.now.phase = Phase::ReinforcementDie;
            return;
        }
        self.begin_turn(self.now.turn + 1, ev);
    }

    /// ABQ-S7: "A 1 means the reinforcements arrive in the second turn, 2 means the third
    /// turn ...".
    pub fn roll_reinforcements(&mut self, face: u8, ev: &mut Vec<Event>) {
        let turn = face as u16 + 1;
        self.now.reinforcements = Some(turn);
        ev.push(Event::Reinforcements { turn });
        self.begin_turn(self.now.turn + 1, ev);
    }

    /// ABQ-S6: "An odd number means the Feds start, even number means the Zeons start."
    pub fn roll_lead_off(&mut self, face: u8, ev: &mut Vec<Event>) {
        self.now.first = if face % 2 == 1 { FEDERATION } else { ZEON };
        ev.push(Event::LeadOff {
            side: self.side_name(self.now.first).to_string(),
        });
        self.next_deployment(0, ev);
    }

    /// The `turns` option: a game nobody has won goes to the side defending the objective;
    /// with none (ABQ-S6), to the side with more counters left, or a draw.
    pub fn end_by_turn_limit(&mut self, ev: &mut Vec<Event>) {
        let t = self.now.turn;
        if let Some(side) = (0..2u8).find(|&s| self.fixed.wins_at_limit[s as usize]) {
            self.finish_at_limit(
                Some(side),
                format!(
                    "turn {t} ended with no victory: {} held on (turn limit)",
                    self.side_name(side)
                ),
                ev,
            );
            return;
        }
        let left = |s: u8| {
            self.now
                .units
                .iter()
                .filter(|x| x.side == s && x.alive())
                .count()
        };
        let (a, b) = (left(FEDERATION), left(ZEON));
        let winner = match a.cmp(&b) {
            std::cmp::Ordering::Greater => Some(FEDERATION),
            std::cmp::Ordering::Less => Some(ZEON),
            std::cmp::Ordering::Equal => None,
        };
        self.finish_at_limit(
            winner,
            format!("turn {t} ended with no victory: {a} Federation counters left against {b} Zeon (turn limit)"),
            ev,
        );
    }

    /// ABQ-S*: "destroy all Zeon units" — a side with nothing left (on the map or still to
    /// come) has lost.
    pub fn check_destroyed(&mut self, ev: &mut Vec<Event>) {
        if self.now.outcome.is_some() {
            return;
        }
        for side in [FEDERATION, ZEON] {
            if !self.now.units.iter().any(|x| x.side == side && x.alive()) {
                self.finish(
                    Some(1 - side),
                    format!("every {} unit is destroyed", self.side_name(side)),
                    ev,
                );
                return;
            }
        }
    }

    /// Who decides now.
    pub fn deciding_seat(&self) -> Option<Seat> {
        match &self.now.phase {
            Phase::Deploy { unit } => Some(self.unit(*unit).seat),
            Phase::Move { seat, .. } | Phase::Combat { seat, .. } => Some(*seat),
            Phase::Remove { side, .. } => Some(self.fixed.seating.captain(*side)),
            _ => None,
        }
    }
}
