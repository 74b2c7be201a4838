//! A heuristic value of a position for the AIs that stop searching before the end: the
//! counters each side has left, weighted by their values and morale, their nearness to the
//! fortress for a side that must hold it (ABQ-S1 … S7), and the hold under way: its counters
//! on the fortress against the number needed, and the turns held. The hold counts against
//! the other side as much, so a defender fights the counters on the fortress before the third
//! turn (with only the turns held counted, at a twentieth of the material each, the defender
//! of S Field (reduced) let the Federation walk in: it won 99 of 99 finished games of MCTS
//! self-play; with the hold counted, 59 of 100 under the `turns = 15` house rule).
//!
//! Attacks are valued by what they set in motion, not by the position one step later. The
//! lead-off side's attacks are fixed with their column and rolled only in the damage check
//! (ABQ-3-3), so a position right after `fire` looks like the one before it; here each
//! attack fixed but not yet rolled (the lead-off's `pending`, a follow-up's or a satellite
//! missile's being rolled) counts at its exact expected result: the combat table's outcome
//! for each die face at the declared column (ABQ-7-4, raised for the target's morale,
//! ABQ-7-6, 9-6), carried through the targets' morale in the order the dice will be rolled
//! (ABQ-10: C, D, destroyed). Each unit's chances to end in each morale are exact; the
//! evaluation is linear in them. A declaration under way (`from`, `with`, `target`, the
//! aim, `fire`) is valued at its best completion for the declaring seat — every unit of
//! the hex that can still attack, at the best target listed — so a player one step at a
//! time sees what the declaration is worth before its last step, and a declaration that
//! can achieve nothing is worth a little less than none (cancel it, do not start it), and
//! each declaration given up costs its seat a little until the phase ends (so it is not
//! begun again).
//!
//! Stacking too is valued by what it sets in motion: the limit is checked only when the
//! side's movement ends (ABQ-5-5), so while a side moves (and while it removes) its
//! counters over the limit in a hex count for nothing, the least worth first, as the side
//! will remove them (ABQ-5-6). Before this a greedy Federation on S Field piled its
//! counters on the hex nearest the fortress one move at a time and then removed 53 of them.
//!
//! Rejected: a bonus per attack declared. It would make the AIs fire, but not choose
//! between a 1:3 shot at a ship and a 7:1 close attack on a suit, which the table's
//! outcomes do.

use crate::data::{Class, Hit};
use crate::legal::Plan;
use crate::morale::{after_hit, die_modifier};
use crate::movement::stack_limit;
use crate::state::{AbaoAqu, Attack, Declaring, Morale, Phase, Place, UnitId};
use battlemat_core::{Game, Seat, result_value};
use battlemat_geom::hexmap::HexId;

/// What a unit counts for in each morale (ABQ-10: confused and panicked units neither move
/// nor attack until they recover): normal, confused, panicked, destroyed.
pub const MORALE_WORTH: [f64; 4] = [1.0, 0.7, 0.4, 0.0];

/// What a declaration that can achieve nothing costs its seat, so it is cancelled, or not
/// begun: more than the noise of a greedy player's sampled dice after `done` (a few
/// thousandths), so that ending the phase is preferred to starting an attack from a hex
/// with nothing to hit.
pub const IDLE_DECLARATION: f64 = 0.01;

/// What each declaration given up in this combat phase costs its seat until the phase ends
/// (`combat::MAX_CANCELS` is a limit, not an allowance): a player that has cancelled
/// ends its phase rather than declare and cancel the same attack again.
pub const CANCELLED: f64 = 0.01;

/// A declaration begun that its seat would give up, after it has given one up in this
/// combat phase (`AbaoAqu::evaluation`): the floor of every evaluation, so ending the phase
/// is preferred to it wherever ending does not lose the game outright (where it does, at
/// the turn limit's last phase, the two tie: docs/strength.md, "Stalling declarations").
pub const STALLING: f64 = -1.0;

/// What a side that must hold the fortress gains with as many counters on it as it needs
/// (a share of it for fewer: [`AbaoAqu::hold_progress`]), and the other side loses.
pub const HOLD_NEAR: f64 = 0.1;
/// What each turn held adds to that (the third wins the game).
pub const HOLD_TURN: f64 = 0.15;

/// Rows off the fortress past which a unit of a side that must hold it gains nothing from
/// being nearer.
pub const FORTRESS_REACH: f64 = 12.0;

/// A unit's chances to be normal, confused, panicked or destroyed.
pub type MoraleOdds = [f64; 4];

fn index(m: Morale) -> usize {
    match m {
        Morale::Normal => 0,
        Morale::Confused => 1,
        Morale::Panic => 2,
    }
}

const MORALES: [Morale; 3] = [Morale::Normal, Morale::Confused, Morale::Panic];

/// ABQ-5-6 ("the player's offending units are removed ... decided by the offending
/// player"): the worth of what a side will remove from its hexes over the stacking limit
/// (ABQ-5-2), `stacked` its counters' (hex, a ship?, worth): in each hex and class, all but
/// the limit's worth, the least worth first (the side keeps its best).
fn over_the_limit(stacked: &mut [(HexId, bool, f64)]) -> f64 {
    stacked.sort_by(|a, b| (a.0, a.1).cmp(&(b.0, b.1)).then(b.2.total_cmp(&a.2)));
    stacked
        .chunk_by(|a, b| (a.0, a.1) == (b.0, b.1))
        .flat_map(|group| &group[usize::from(stack_limit(group[0].1)).min(group.len())..])
        .map(|&(_, _, worth)| worth)
        .sum()
}

impl AbaoAqu {
    pub fn evaluation(&self, seat: Seat) -> f64 {
        if let Some(r) = self.result() {
            return result_value(&r, seat);
        }
        let cancelled = match self.now.phase {
            Phase::Combat { seat: s, .. } if s == seat => self.now.cancels as f64 * CANCELLED,
            _ => 0.0,
        };
        let v = match self.declaration() {
            None => self.standing(seat),
            Some((declarer, best)) if declarer == seat => {
                let fired = best.map(|b| b.standing_or_result(seat));
                // A declaration the seat would give up (nothing to fire, or nothing better
                // than cancelling) begun after it has given one up this phase: stalling,
                // which only spends the cancels (`combat::MAX_CANCELS`) before the `done`
                // it must come to. One ply cannot see that, so it is valued at the floor.
                if self.now.cancels > 0 {
                    let idle = self.standing(seat);
                    if fired.is_none_or(|f| f < idle - CANCELLED) {
                        return STALLING;
                    }
                }
                fired.unwrap_or_else(|| self.standing(seat) - IDLE_DECLARATION)
            }
            Some((_, Some(best))) => best.standing_or_result(seat),
            Some(_) => self.standing(seat),
        };
        v - cancelled
    }

    fn standing_or_result(&self, seat: Seat) -> f64 {
        match self.result() {
            Some(r) => result_value(&r, seat),
            None => self.standing(seat),
        }
    }

    /// The position for `seat`, every attack fixed but not yet rolled counted at its
    /// expected result.
    pub fn standing(&self, seat: Seat) -> f64 {
        let mine = self.fixed.seating.side_of(seat);
        let odds = self.expected_morale();
        let mut strength = [0.0f64; 2];
        // ABQ-5-5, 5-6: while a side moves (and while it removes), what it has over the
        // stacking limit in a hex goes at the phase's end.
        let stacking = match self.now.phase {
            Phase::Move { seat, .. } => Some(self.fixed.seating.side_of(seat)),
            Phase::Remove { side, .. } => Some(side),
            _ => None,
        };
        let mut stacked: Vec<(HexId, bool, f64)> = Vec::new();
        for (u, x) in self.now.units.iter().enumerate() {
            if !x.alive() {
                continue;
            }
            let u = u as UnitId;
            let v =
                (self.anti_ms(u) as f64 + self.anti_ship(u) as f64) / 2.0 + self.defence(u) as f64;
            let m: f64 = match odds.as_ref() {
                Some(o) => o[u as usize]
                    .iter()
                    .zip(MORALE_WORTH)
                    .map(|(p, w)| p * w)
                    .sum(),
                None => MORALE_WORTH[index(x.morale)],
            };
            let worth = v * m * self.place_worth(x.side, x.at);
            strength[x.side as usize] += worth;
            if let (Some(side), Place::Hex(h)) = (stacking, x.at)
                && side == x.side
            {
                stacked.push((h, self.class(u) == Class::Ship, worth));
            }
        }
        if let Some(side) = stacking {
            strength[side as usize] -= over_the_limit(&mut stacked);
        }
        let (a, b) = (strength[mine as usize], strength[1 - mine as usize]);
        let hold = self.hold_progress(mine) - self.hold_progress(1 - mine);
        (((a - b) / (a + b).max(1.0)) * 0.8 + hold).clamp(-0.95, 0.95)
    }

    /// ABQ-S1 … S7 ("hold N units on the fortress for 3 turns"): how near a side that must
    /// hold the fortress is to winning by it — its counters on the fortress against the
    /// number needed ([`HOLD_NEAR`] at the number), and each turn held ([`HOLD_TURN`]). The
    /// other side sees the same figure against it, so it fights the counters on the
    /// fortress before the third turn, not after.
    pub fn hold_progress(&self, side: u8) -> f64 {
        let Some(need) = self.fixed.hold[side as usize] else {
            return 0.0;
        };
        let on = f64::from(self.on_fortress(side)) / f64::from(need.max(1));
        on.min(1.0) * HOLD_NEAR + f64::from(self.now.held[side as usize]) * HOLD_TURN
    }

    /// ABQ-S1 … S7 ("hold N units on the fortress for 3 turns"): for a side that must hold
    /// the fortress, a unit counts half again on it and less the farther off it is; for the
    /// other side every hex is alike.
    pub fn place_worth(&self, side: u8, at: Place) -> f64 {
        let (Some(_), Place::Hex(h)) = (self.fixed.hold[side as usize], at) else {
            return 1.0;
        };
        let rows = self.fixed.layout.rows_from_fortress(h) as f64;
        1.0 + 0.5 * (1.0 - rows / FORTRESS_REACH).max(0.0)
    }

    /// Every attack fixed but not yet rolled, in the order its die will be rolled: a
    /// follow-up's (or a satellite missile's) being rolled now, then the lead-off side's
    /// waiting for the damage check (ABQ-3-3 (4), (5)).
    fn unrolled(&self) -> impl Iterator<Item = &Attack> {
        let now = match &self.now.phase {
            Phase::Resolve { attacks, .. } => attacks.as_slice(),
            _ => &[],
        };
        now.iter().chain(&self.now.pending)
    }

    /// Each unit's chances to be normal, confused, panicked or destroyed once the attacks
    /// fixed but not yet rolled are ([`AbaoAqu::unrolled`]): exact, one die an attack, the
    /// table's result raised for the target's morale at that moment (ABQ-7-4, 7-6, 9-6).
    /// `None` when no attack waits (every unit as it stands).
    pub fn expected_morale(&self) -> Option<Vec<MoraleOdds>> {
        let mut attacks = self.unrolled().peekable();
        attacks.peek()?;
        let mut odds: Vec<MoraleOdds> = self
            .now
            .units
            .iter()
            .map(|x| {
                let mut o = [0.0; 4];
                o[if x.alive() { index(x.morale) } else { 3 }] = 1.0;
                o
            })
            .collect();
        for a in attacks {
            let Some(col) = a.column else { continue };
            for &t in &a.targets {
                odds[t as usize] = self.after_attack(odds[t as usize], col, a.close);
            }
        }
        Some(odds)
    }

    /// One unit's morale chances after one attack's die at column `col` (ABQ-7-4; ABQ-10
    /// and rulings.md for what a result does to each morale).
    fn after_attack(&self, before: MoraleOdds, col: u8, close: bool) -> MoraleOdds {
        let mut after = [0.0, 0.0, 0.0, before[3]];
        for m in MORALES {
            let p = before[index(m)];
            if p == 0.0 {
                continue;
            }
            for face in 1..=6u8 {
                let hit: Hit = self
                    .fixed
                    .setup
                    .tables
                    .hit(face + die_modifier(m), col, close);
                let to = after_hit(m, hit).map_or(3, index);
                after[to] += p / 6.0;
            }
        }
        after
    }

    /// A declaration under way (ABQ-8-1, 8-2): the declaring seat, and the position after
    /// its best completion for that seat — every unit of the hex that can still attack added
    /// while they are being picked, the best target hex and aim, fired — or `None` inside
    /// when nothing listed can be fired. `None` when no declaration is under way.
    pub fn declaration(&self) -> Option<(Seat, Option<AbaoAqu>)> {
        let Phase::Combat { seat, declaring } = &self.now.phase else {
            return None;
        };
        let seat = *seat;
        let best = match declaring {
            Declaring::Idle | Declaring::Launching { .. } => return None,
            Declaring::Ready { attack } => Some(self.fired(seat, attack.clone())),
            Declaring::Aiming { .. } => self.best_aim(seat),
            Declaring::Picking { from, with } => {
                let mut all = with.clone();
                all.extend(self.in_hex(*from).filter(|&u| {
                    self.unit(u).seat == seat && !with.contains(&u) && self.can_attack(u)
                }));
                let mut g = self.clone();
                g.now.phase = Phase::Combat {
                    seat,
                    declaring: Declaring::Picking {
                        from: *from,
                        with: all,
                    },
                };
                g.best_target(seat)
            }
        };
        Some((seat, best))
    }

    /// The position after `attack` is fired by `seat`.
    fn fired(&self, seat: Seat, attack: Attack) -> AbaoAqu {
        let mut g = self.clone();
        g.fire(seat, attack, &mut Vec::new());
        g
    }

    /// Of the positions each listed action leads to (through `then`), the best for `seat`.
    fn best_of(
        &self,
        seat: Seat,
        then: impl Fn(&AbaoAqu, Plan) -> Option<AbaoAqu>,
    ) -> Option<AbaoAqu> {
        let mut best: Option<(f64, AbaoAqu)> = None;
        for a in self.legal() {
            let Some(g) = self.plan(&a).ok().and_then(|p| then(self, p)) else {
                continue;
            };
            let v = g.standing_or_result(seat);
            if best.as_ref().is_none_or(|(b, _)| v > *b) {
                best = Some((v, g));
            }
        }
        best.map(|(_, g)| g)
    }

    /// Aiming: the best listed aim, fired.
    fn best_aim(&self, seat: Seat) -> Option<AbaoAqu> {
        self.best_of(seat, |g, p| match p {
            Plan::Aim(attack) => Some(g.fired(seat, attack)),
            _ => None,
        })
    }

    /// Picking: the best listed target hex, at its best aim, fired.
    fn best_target(&self, seat: Seat) -> Option<AbaoAqu> {
        self.best_of(seat, |g, p| match p {
            Plan::Target(_) => {
                let mut aiming = g.clone();
                aiming.carry_out(p, &mut Vec::new());
                aiming.best_aim(seat)
            }
            _ => None,
        })
    }
}
