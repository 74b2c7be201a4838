//! How much two AI players of A-Bao-A-Qu fight in one game: attacks declared (an aim
//! chosen), fired, cancelled once declared, counters destroyed, and attacks cancelled a
//! second time in the same combat phase. Shared by `tests/abaoaqu_fights.rs` and
//! `examples/abaoaqu_fights.rs` (the figures in docs/strength.md).

use battlemat_abaoaqu::state::{Declaring, Phase};
use battlemat_abaoaqu::{AbaoAqu, Action, Event};
use battlemat_ai::{Player, PlayerKind};
use battlemat_core::Ruleset;
use battlemat_core::{Game, Next, Step};
use battlemat_dice::Roller;
use std::collections::HashSet;

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Fights {
    /// Declarations begun (`from HEX`).
    pub begun: usize,
    /// Declarations given up, at any step (`cancel`).
    pub abandoned: usize,
    /// Attacks declared: an aim chosen (`shoot`, `close`), ready to fire.
    pub declared: usize,
    pub fired: usize,
    /// Declared attacks cancelled (`cancel` when ready to fire).
    pub cancelled: usize,
    pub destroyed: usize,
    /// The same declaration (the hex, the units, the target, the attack) given up again in
    /// one combat phase by the same seat.
    pub cancelled_twice: usize,
    pub decisions: usize,
}

/// One game of `setup` between `players` (seat 0, seat 1, …), dice from `seed`.
pub fn fights(setup: &battlemat_abaoaqu::Setup, players: &[PlayerKind], seed: u64) -> Fights {
    let mut g = AbaoAqu::new_game(setup).expect("a setup");
    let mut seats: Vec<Player<AbaoAqu>> = (0..g.seats() as usize)
        .map(|s| Player::new(players[s % players.len()]))
        .collect();
    let mut r = Roller::new(seed, 0);
    let mut f = Fights::default();
    let mut cancelled = HashSet::new();
    loop {
        let step = match g.next() {
            Next::Over => return f,
            Next::Chance(c) => Step::Roll {
                value: c.roll(&mut r),
            },
            Next::Decide(seat) => {
                f.decisions += 1;
                let action = seats[seat as usize].choose(&g, &mut r).expect("an action");
                match (&g.now.phase, &action) {
                    (_, Action::From { .. }) => f.begun += 1,
                    (Phase::Combat { declaring, .. }, Action::Cancel) => {
                        f.abandoned += 1;

                        let key = (g.now.turn, g.now.half, g.now.stage, seat, declaring.clone());
                        if !cancelled.insert(key) {
                            f.cancelled_twice += 1;
                        }
                    }
                    _ => {}
                }
                match (&g.now.phase, &action) {
                    (
                        _,
                        Action::Shoot { .. } | Action::ShootGroup { .. } | Action::Close { .. },
                    ) => f.declared += 1,
                    (_, Action::Fire) => f.fired += 1,
                    (
                        Phase::Combat {
                            declaring: Declaring::Ready { .. },
                            ..
                        },
                        Action::Cancel,
                    ) => {
                        f.cancelled += 1;
                    }
                    _ => {}
                }
                Step::Act { seat, action }
            }
        };
        let events = g.apply(&step).expect("a legal step");
        f.destroyed += events
            .iter()
            .filter(|e| matches!(e, Event::Result { now: None, .. }))
            .count();
    }
}
