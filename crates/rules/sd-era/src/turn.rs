//! SDE-T1: turn order, turns of two actions a unit, FAST's end-of-turn move (SDE-F), the
//! round limit, the end of a mission, resigning, and who decides.
//!
//! Turn order (rulings.md, FOUND): each player rolls the dice of their most powerful unit;
//! the highest goes first, then play passes clockwise (seat order). "Highest" follows the
//! `contest` option (each player's best die, or their total); players who tie roll again.

use crate::data::{Contest, MissionKind, Special};
use crate::events::Event;
use crate::state::{Back, Body, Phase, SdEra, UnitId};
use battlemat_core::{GameResult, Next, Outcomes, Seat};

impl SdEra {
    /// Who decides now, or the die being rolled.
    pub fn next_step(&self) -> Next {
        match &self.now.phase {
            Phase::Over => Next::Over,
            Phase::Draft { seat } | Phase::StartHidden { seat } | Phase::Deploy { seat } => {
                Next::Decide(*seat)
            }
            Phase::Turn | Phase::FastMoves => Next::Decide(self.now.active),
            Phase::Choose(c) => Next::Decide(c.seat()),
            Phase::Fight(f) => match self.fight_decider(f) {
                Some(seat) => Next::Decide(seat),
                None => Next::Chance(Outcomes::Die(6)),
            },
            Phase::TurnOrder { .. }
            | Phase::BreakIn { .. }
            | Phase::BombRoll { .. }
            | Phase::AnimalRecover { .. }
            | Phase::AnimalCharge { .. }
            | Phase::EggBomb { .. }
            | Phase::OrderRoll { .. }
            | Phase::CaptureRoll { .. } => Next::Chance(Outcomes::Die(6)),
            Phase::EggOpens { .. } => Next::Chance(self.egg_outcomes()),
            Phase::EnemyDraw { .. } => Next::Chance(self.draw_outcomes()),
            Phase::ZoneCard { .. } => Next::Chance(self.card_outcomes()),
            Phase::BlipReveal { .. } => Next::Chance(self.blip_outcomes()),
            Phase::MineRoll { .. } => Next::Chance(Outcomes::Die(6)),
        }
    }

    /// RING BATTLE: the first seat from `from`, in turn order, with a unit still to place.
    pub fn next_deployer(&self, from: Seat) -> Option<Seat> {
        let n = self.fixed.players;
        (0..n).map(|k| (from + k) % n).find(|&s| {
            self.now
                .units
                .iter()
                .any(|u| u.owner == Some(s) && u.waiting)
        })
    }

    /// The dice each seat rolls for turn order: its most powerful unit's value.
    pub fn best_value(&self, seat: Seat) -> u8 {
        self.ids()
            .filter(|&u| self.unit(u).owner == Some(seat))
            .map(|u| self.value(u))
            .max()
            .unwrap_or(1)
    }

    /// After the armies and hiding: the roll for turn order — or, in CONVOY, the first enemy
    /// turn ("At the start of the game, the enemies go first").
    pub fn begin_play(&mut self, ev: &mut Vec<Event>) {
        if self.fixed.kind == MissionKind::Convoy {
            self.start_convoy_enemy_turn(ev);
        } else if self.fixed.kind == MissionKind::BattleZones {
            // "When first entering a zone, draw a ZONE CARD": everyone starts at the first.
            self.now.phase = Phase::ZoneCard { zone: 0 };
        } else {
            self.now.phase = self.turn_order_roll();
        }
    }

    /// Start the roll for turn order among every seat.
    pub fn turn_order_roll(&self) -> Phase {
        let all = (1u16 << self.fixed.players) as u8;
        let rolling = all.wrapping_sub(1);
        Phase::TurnOrder {
            seat: 0,
            left: self.best_value(0),
            scores: [0; 6],
            rolling,
        }
    }

    /// A die added to a player's roll: their highest die, or their total with `contest = sum`.
    pub fn add_to_roll(&self, roll: &mut u8, face: u8) {
        *roll = match self.fixed.options.contest {
            Contest::Highest => (*roll).max(face),
            Contest::Sum => roll.saturating_add(face),
        };
    }

    /// One die of the turn-order roll.
    pub fn roll_turn_order(
        &mut self,
        seat: Seat,
        left: u8,
        mut scores: [u8; 6],
        rolling: u8,
        face: u8,
        ev: &mut Vec<Event>,
    ) {
        self.add_to_roll(&mut scores[seat as usize], face);
        if left > 1 {
            self.now.phase = Phase::TurnOrder {
                seat,
                left: left - 1,
                scores,
                rolling,
            };
            return;
        }
        // The next seat still rolling, or the outcome.
        if let Some(next) = (seat + 1..self.fixed.players).find(|s| rolling & (1 << s) != 0) {
            self.now.phase = Phase::TurnOrder {
                seat: next,
                left: self.best_value(next),
                scores,
                rolling,
            };
            return;
        }
        let best = (0..self.fixed.players)
            .filter(|s| rolling & (1 << s) != 0)
            .map(|s| scores[s as usize])
            .max()
            .unwrap_or(0);
        let tied: u8 = (0..self.fixed.players)
            .filter(|s| rolling & (1 << s) != 0 && scores[*s as usize] == best)
            .fold(0, |m, s| m | (1 << s));
        if tied.count_ones() > 1 {
            // The tied players roll again.
            let first = tied.trailing_zeros() as Seat;
            let mut scores = scores;
            for (s, score) in scores.iter_mut().enumerate() {
                if tied & (1 << s) != 0 {
                    *score = 0;
                }
            }
            self.now.phase = Phase::TurnOrder {
                seat: first,
                left: self.best_value(first),
                scores,
                rolling: tied,
            };
            return;
        }
        let first = tied.trailing_zeros() as Seat;
        self.now.first = first;
        self.now.round = 1;
        ev.push(Event::TurnOrder { first });
        match self.next_deployer(first) {
            Some(seat) => self.now.phase = Phase::Deploy { seat },
            None => self.begin_turn(first, ev),
        }
    }

    /// `seat`'s turn begins: every unit has two actions (SDE-T1).
    pub fn begin_turn(&mut self, seat: Seat, ev: &mut Vec<Event>) {
        self.now.active = seat;
        self.now.collected = false;
        // The picture's arrows show the turn being played.
        self.now.trail.clear();
        self.now.charge = None;
        for i in 0..self.now.units.len() {
            let fast = self.has(i as UnitId, Special::F);
            let u = &mut self.now.units[i];
            if u.owner == Some(seat) {
                u.actions = 2;
                u.fast_move = fast;
            } else {
                u.actions = 0;
                u.fast_move = false;
            }
        }
        self.now.phase = Phase::Turn;
        self.now.back = Back::Turn;
        ev.push(Event::TurnBegins {
            seat,
            round: self.now.round,
        });
        // EGG HUNT: bombs out of eggs check at the start of each player's turn.
        if self.fixed.kind == MissionKind::EggHunt {
            self.check_egg_bombs();
        }
    }

    /// Can any of the active player's FAST units still make its free move?
    pub fn fast_movers_left(&self) -> bool {
        self.ids().any(|u| {
            let x = self.unit(u);
            x.owner == Some(self.now.active) && x.fast_move && x.on_table() && !x.stunned
        })
    }

    /// The active player ends their turn (or their free moves).
    pub fn end_turn(&mut self, ev: &mut Vec<Event>) {
        self.now.charge = None;
        if self.now.phase == Phase::Turn && self.fast_movers_left() {
            self.now.phase = Phase::FastMoves;
            self.now.back = Back::FastMoves;
            return;
        }
        for u in &mut self.now.units {
            u.actions = 0;
            u.fast_move = false;
        }
        ev.push(Event::TurnEnds {
            seat: self.now.active,
        });
        self.now.turns = self.now.turns.saturating_add(1);
        // KICK-BOMB: the bombs' explode dice, the bomb with the most dice first.
        if self.fixed.kind == MissionKind::KickBomb
            && let Some(b) = self.next_bomb(0)
        {
            self.now.phase = Phase::BombRoll {
                bomb: b,
                left: self.bomb_dice(b),
                done: 0,
            };
            return;
        }
        self.next_turn(ev);
    }

    /// Play passes clockwise; after the last seat of a round, the next round (or the end at
    /// the round limit).
    pub fn next_turn(&mut self, ev: &mut Vec<Event>) {
        if self.check_victory(ev) {
            return;
        }
        // CONVOY: the players' turns go in this round's order, then the enemy turn.
        if self.fixed.kind == MissionKind::Convoy {
            return self.convoy_next_turn(ev);
        }
        let n = self.fixed.players;
        let next = (self.now.active + 1) % n;
        if next != self.now.first {
            self.begin_turn(next, ev);
        } else if self.fixed.kind == MissionKind::Safari {
            // SAFARI: "After the last player's turn, the animals get their own turn."
            self.start_animal_turn(ev);
        } else if self.fixed.kind == MissionKind::BattleZones {
            // BATTLE ZONES: "After the last player's turn is the ENEMY TURN."
            self.start_zone_enemy_turn(ev);
        } else if self.enemies_on_table() {
            // EGG HUNT: the boss's turn after the last player's (our reading of "will
            // ambush anyone nearby").
            self.start_enemy_turn(ev);
        } else {
            self.new_round(ev);
        }
    }

    /// The next round, from the first player (or the end at the round limit).
    pub fn new_round(&mut self, ev: &mut Vec<Event>) {
        if self.check_victory(ev) {
            return;
        }
        if let Some(limit) = self.fixed.options.rounds.limit()
            && self.now.round >= limit
        {
            self.finish_by_score(format!("the {limit}-round limit (house rule)"), ev);
            self.now.result = self.now.result.take().map(GameResult::at_limit);
            return;
        }
        self.now.round = self.now.round.saturating_add(1);
        let first = self.now.first;
        self.begin_turn(first, ev);
    }

    /// Each seat's score in the mission's terms: tokens (goals), or units in the ring.
    pub fn scores(&self) -> Vec<i64> {
        let n = self.fixed.players as usize;
        (0..n)
            .map(|s| match self.fixed.kind {
                MissionKind::RingBattle => self.in_ring(s as Seat) as i64,
                _ => i64::from(self.now.tokens[s]),
            })
            .collect()
    }

    /// What the mission's score counts, in its words.
    pub fn score_word(&self) -> &'static str {
        match self.fixed.kind {
            MissionKind::Soccer => "goals",
            MissionKind::Safari => "points",
            MissionKind::EggHunt => "credits",
            MissionKind::Convoy => "points",
            MissionKind::BattleZones => "blips",
            _ => "tokens",
        }
    }

    /// The result from the scores; in KICK-BOMB players out of tokens are ranked by when they
    /// ran out (later is better).
    pub fn ranked(&self, scores: Vec<i64>, reason: String) -> GameResult {
        let key = |s: usize| (scores[s], i64::from(self.now.out_at[s]));
        let n = scores.len();
        let ranks = (0..n)
            .map(|s| {
                let k = if self.fixed.kind == MissionKind::KickBomb {
                    key(s)
                } else {
                    (scores[s], 0)
                };
                1 + (0..n)
                    .filter(|&t| {
                        let kt = if self.fixed.kind == MissionKind::KickBomb {
                            key(t)
                        } else {
                            (scores[t], 0)
                        };
                        kt > k
                    })
                    .count() as u8
            })
            .collect();
        GameResult {
            scores,
            ranks,
            reason,
            cooperative: None,
            by_limit: false,
        }
    }

    /// How many of `seat`'s units are in the ring.
    pub fn in_ring(&self, seat: Seat) -> usize {
        self.now
            .units
            .iter()
            .filter(|u| u.owner == Some(seat) && u.on_table() && !u.outside)
            .count()
    }

    /// Has the mission been won? If so, end the game.
    pub fn check_victory(&mut self, ev: &mut Vec<Event>) -> bool {
        if self.now.phase == Phase::Over {
            return true;
        }
        let n = self.fixed.players;
        let m = &self.fixed.setup.mission;
        let reason = match self.fixed.kind {
            MissionKind::KingOfTheHill | MissionKind::Soccer | MissionKind::ShootingGallery => (0
                ..n)
                .find(|s| self.now.tokens[*s as usize] >= m.tokens_to_win)
                .map(|s| {
                    let what = match self.fixed.kind {
                        MissionKind::Soccer => "goals",
                        _ => "tokens",
                    };
                    format!("player {} has {} {what}", s + 1, m.tokens_to_win)
                }),
            MissionKind::KickBomb => {
                let alive = (0..n).filter(|s| self.now.tokens[*s as usize] > 0).count();
                match alive {
                    0 => Some("no player has a token left".to_string()),
                    1 => Some("one player has tokens left".to_string()),
                    _ => None,
                }
            }
            MissionKind::Safari => {
                let free = self
                    .now
                    .units
                    .iter()
                    .any(|u| u.is_animal() && u.captured.is_none());
                (!free).then(|| "every animal is captured".to_string())
            }
            MissionKind::BattleZones => self
                .update_zones(ev)
                .then(|| "the last zone is cleared".to_string()),
            MissionKind::Convoy => self
                .now
                .convoy
                .as_ref()
                .is_some_and(|c| c.arrived)
                .then(|| "the ship made it off the far end".to_string()),
            MissionKind::EggHunt => self
                .egg_hunt_over()
                .then(|| "every egg is open, every credit taken and the boss beaten".to_string()),
            MissionKind::RingBattle => {
                let inside = (0..n).filter(|s| self.in_ring(*s) > 0).count();
                match inside {
                    0 => Some("no unit is left in the ring".to_string()),
                    1 => Some("one player has units in the ring".to_string()),
                    _ => None,
                }
            }
        };
        match reason {
            Some(r) => {
                self.finish_by_score(r, ev);
                true
            }
            None => false,
        }
    }

    /// End the game, ranking seats by the mission's score.
    pub fn finish_by_score(&mut self, reason: String, ev: &mut Vec<Event>) {
        let r = self.ranked(self.scores(), reason.clone());
        self.now.result = Some(r);
        self.now.phase = Phase::Over;
        self.now.pending.clear();
        ev.push(Event::GameOver { reason });
    }

    /// A player resigns: the game ends, they are last and the others are ranked by score.
    pub fn resign_seat(&mut self, seat: Seat, ev: &mut Vec<Event>) {
        let mut scores = self.scores();
        let low = scores.iter().copied().min().unwrap_or(0);
        scores[seat as usize] = low - 1;
        let reason = format!("player {} resigned", seat + 1);
        ev.push(Event::Resigned { seat });
        ev.push(Event::GameOver {
            reason: reason.clone(),
        });
        self.now.result = Some(self.ranked(scores, reason));
        self.now.phase = Phase::Over;
        self.now.pending.clear();
    }

    /// KICK-BOMB: the explode dice of bomb `b`.
    pub fn bomb_dice(&self, b: UnitId) -> u8 {
        match self.unit(b).body {
            Body::Bomb { dice } => dice,
            _ => 0,
        }
    }

    /// The next bomb to roll: the most dice first, not yet rolled this turn (`done` mask).
    pub fn next_bomb(&self, done: u8) -> Option<UnitId> {
        self.ids()
            .filter(|&b| {
                matches!(self.unit(b).body, Body::Bomb { .. }) && done & (1 << b.min(7)) == 0
            })
            .max_by_key(|&b| (self.bomb_dice(b), std::cmp::Reverse(b)))
    }
}
